"""A parameter's default is evaluated where its function is defined: a helper of an
imported module whose default names a constant of that module (`def load(t=TABLE)`)
writes that constant's table when a caller in another file leaves the argument out,
never a placeholder and never a same-named value of the caller's own file."""

from __future__ import annotations

HELPER = (
    'TABLE = "main.bronze.sales"\n'
    "\n\n"
    "def ingest(spark, table=TABLE):\n"
    '    spark.read.json("/landing").write.mode("append").saveAsTable(table)\n'
)


def _tables(lint, job: str, helper: str = HELPER) -> list[str]:
    result = lint({"pkg/__init__.py": "", "pkg/bronze.py": helper, "job.py": job})
    return sorted(i.table.name for i in result.intents if i.location.path == "job.py")


def test_a_default_naming_its_modules_constant_gives_that_table(lint) -> None:
    assert _tables(lint, "from pkg.bronze import ingest\ningest(spark)\n") == ["main.bronze.sales"]


def test_the_callers_own_name_of_that_spelling_is_not_the_default(lint) -> None:
    job = 'from pkg.bronze import ingest\nTABLE = "main.other.t"\ningest(spark)\n'
    assert _tables(lint, job) == ["main.bronze.sales"]


def test_an_argument_given_is_the_callers(lint) -> None:
    assert _tables(lint, 'from pkg.bronze import ingest\ningest(spark, "main.s.given")\n') == ["main.s.given"]


def test_a_default_only_a_run_knows_stays_unknown(lint) -> None:
    helper = HELPER.replace('TABLE = "main.bronze.sales"', 'import os\nTABLE = os.environ["TABLE"]')
    assert _tables(lint, "from pkg.bronze import ingest\ningest(spark)\n", helper) == ["{TABLE}"]
