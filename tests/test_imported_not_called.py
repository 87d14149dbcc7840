"""A module's function that other files import but never name in their code is
not called elsewhere: its module keeps its writes where they stand. The shape is
a package's `__init__.py` that re-exports (`from .run import run`) a job's entry
function, which a wheel task or a job's file runs. A file that names the function
reads it at its calls, and the module then leaves it to that file."""

from __future__ import annotations

RUN = (
    "from pyspark.sql import SparkSession\n\n\n"
    "def run():\n"
    "    spark = SparkSession.builder.getOrCreate()\n"
    '    spark.range(5).write.mode("append").saveAsTable("main.silver.department")\n'
)


def writes(result) -> list[tuple[str, int, str | None]]:
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    return sorted((i.location.path, i.location.line, i.table.name if i.table else None) for i in result.intents)


def test_a_function_a_package_only_re_exports_keeps_its_write_in_its_module(lint):
    result = lint(
        {
            "silver/__init__.py": "",
            "silver/department/__init__.py": "from .run import run\n\n__all__ = ['run']\n",
            "silver/department/run.py": RUN,
        }
    )
    assert writes(result) == [("silver/department/run.py", 6, "main.silver.department")]


def test_a_file_that_calls_the_re_exported_function_reads_it_at_its_call(lint):
    result = lint(
        {
            "silver/__init__.py": "",
            "silver/department/__init__.py": "from .run import run\n",
            "silver/department/run.py": RUN,
            "jobs/nightly.py": "from silver.department.run import run\n\nrun()\n",
        }
    )
    assert writes(result) == [("jobs/nightly.py", 3, "main.silver.department")]
