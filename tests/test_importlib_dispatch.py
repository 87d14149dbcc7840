"""A wheel or script entry that runs a module it imports by name with `importlib`
(`importlib.import_module(MODULES[step]).run(...)`, `import_module(f"pkg.{name}")`):
each module the name may be is one of the alternatives, read at the call as an
import of it would be; a name only a run knows is a note at the line, never silent."""

from __future__ import annotations

from delta_lint.model import Flag

LOAD = """\
from pyspark.sql import SparkSession


def run(catalog):
    spark = SparkSession.builder.getOrCreate()
    spark.range(5).write.mode("overwrite").saveAsTable(f"{catalog}.sales.TABLE")
"""
MAIN = """\
import importlib
import sys

_MODULES = {"load_a": "pkg.load_a", "load_b": "pkg.load_b"}


def main():
    step, catalog = sys.argv[1], sys.argv[2]
    CALL
"""


def _files(call: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/load_a.py": LOAD.replace("TABLE", "daily_a"),
        "pkg/load_b.py": LOAD.replace("TABLE", "daily_b"),
        "pkg/main.py": MAIN.replace("CALL", call),
    }


def _flagged(result) -> list[tuple[str, int, str, bool]]:
    """(path, line, table, one of several) of every intent, sorted."""
    return sorted(
        (i.location.path, i.location.line, i.table.name, Flag.ONE_OF in i.flags)
        for i in result.intents
        if i.table is not None
    )


def _notes(result, rule: str = "DL006") -> list[tuple[str, int]]:
    return sorted((d.location.path, d.location.line) for d in result.diagnostics if d.rule == rule)


def test_a_module_named_by_a_literal_is_read_at_the_call(lint):
    result = lint(_files('importlib.import_module("pkg.load_b").run(catalog="main")'))
    assert _flagged(result) == [
        ("pkg/load_a.py", 6, "{catalog}.sales.daily_a", False),  # never imported: read as written
        ("pkg/main.py", 9, "main.sales.daily_b", False),
    ]


def test_a_module_named_by_a_dict_entry_only_a_run_picks_is_one_of_them(lint):
    result = lint(_files('importlib.import_module(_MODULES[step]).run(catalog="main")'))
    assert _flagged(result) == [
        ("pkg/main.py", 9, "main.sales.daily_a", True),
        ("pkg/main.py", 9, "main.sales.daily_b", True),
    ]
    assert _notes(result) == []


def test_a_module_named_by_a_template_is_each_project_module_it_can_name(lint):
    files = _files('import_module(f"pkg.{step}").run(catalog="main")')
    files["pkg/main.py"] = files["pkg/main.py"].replace("import importlib\n", "from importlib import import_module\n")
    assert _flagged(lint(files)) == [
        ("pkg/main.py", 9, "main.sales.daily_a", True),
        ("pkg/main.py", 9, "main.sales.daily_b", True),
    ]


def test_each_task_runs_the_module_its_parameters_name(lint):
    bundle = """\
bundle: {name: dispatch}
resources:
  jobs:
    job_a:
      name: job_a
      tasks:
        - task_key: a
          python_wheel_task: {package_name: pkg, entry_point: main, parameters: ["load_a", "main"]}
    job_b:
      name: job_b
      tasks:
        - task_key: b
          python_wheel_task: {package_name: pkg, entry_point: main, parameters: ["load_b", "main"]}
"""
    files = _files("importlib.import_module(_MODULES[step]).run(catalog=catalog)")
    files["databricks.yml"] = bundle
    files["pyproject.toml"] = '[project]\nname = "pkg"\nversion = "0.1"\n[project.scripts]\nmain = "pkg.main:main"\n'
    result = lint(files)
    assert {(path, table) for path, _, table, _ in _flagged(result)} == {
        ("pkg/main.py", "main.sales.daily_a"),
        ("pkg/main.py", "main.sales.daily_b"),
    }


def test_a_module_name_only_a_run_knows_is_a_note_at_the_line(lint):
    result = lint(_files('importlib.import_module(sys.argv[3]).run(catalog="main")'))
    assert _notes(result) == [("pkg/main.py", 9)]
    # the modules are never imported here: each keeps its own write, as written
    assert _flagged(result) == [
        ("pkg/load_a.py", 6, "{catalog}.sales.daily_a", False),
        ("pkg/load_b.py", 6, "{catalog}.sales.daily_b", False),
    ]


def test_a_module_outside_the_project_is_no_write_and_no_note(lint):
    result = lint(_files('importlib.import_module("json").loads("{}")'))
    assert _notes(result) == []
    assert [t for _, _, t, _ in _flagged(result)] == ["{catalog}.sales.daily_a", "{catalog}.sales.daily_b"]


def test_a_module_a_name_holds_is_read_where_its_function_is_called(lint):
    result = lint(_files('mod = importlib.import_module(_MODULES[step])\n    mod.run(catalog="main")'))
    assert _flagged(result) == [
        ("pkg/main.py", 10, "main.sales.daily_a", True),
        ("pkg/main.py", 10, "main.sales.daily_b", True),
    ]
    result = lint(_files('mod = importlib.import_module("pkg.load_a")\n    mod.run(catalog="main")'))
    assert _flagged(result) == [
        ("pkg/load_b.py", 6, "{catalog}.sales.daily_b", False),
        ("pkg/main.py", 10, "main.sales.daily_a", False),
    ]
    # the near miss: a name only a run knows, noted where its function is called
    result = lint(_files('mod = importlib.import_module(sys.argv[3])\n    mod.run(catalog="main")'))
    assert _notes(result) == [("pkg/main.py", 10)]
