"""SQL a project file holds, run by the job's code after substitutions: the file is
read (`Path(__file__).with_name("q.sql").read_text()`, `open(...).read()`), its
`{catalog}` replaced by the code (`text.replace("{catalog}", catalog)`, also in a
loop over a helper's `**subs`), split into statements and each trimmed
(`s.strip().rstrip(";")`). The statements' tables are named as the run names them.
A substitution only a run gives stays a named input."""

from __future__ import annotations

SQL = "CREATE OR REPLACE TABLE {catalog}.gold.profile AS SELECT 1;\n\nOPTIMIZE {catalog}.gold.other;\n"
RUNNER = """from pathlib import Path


def run_sql_script(spark, path, **subs):
    text = Path(path).read_text()
    for key, value in subs.items():
        text = text.replace("{" + key + "}", value)
    for statement in text.split(";"):
        if statement.strip():
            spark.sql(statement.strip().rstrip(";"))


"""


def _tables(result, name: str) -> list[str]:
    return sorted(i.table.name for i in result.intents if i.location.path.endswith(name))


def test_a_sql_file_run_through_substitutions_names_its_tables(lint):
    files = {"jobs/build.sql": SQL}
    files["jobs/runner.py"] = RUNNER + 'run_sql_script(spark, "build.sql", catalog="main")\n'
    files["jobs/sibling.py"] = (
        "from pathlib import Path\n"
        'text = Path(__file__).with_name("build.sql").read_text().replace("{catalog}", "prod")\n'
        "spark.sql(text)\n"
    )
    result = lint(files)
    assert _tables(result, "runner.py") == ["main.gold.other", "main.gold.profile"]
    assert _tables(result, "sibling.py") == ["prod.gold.other", "prod.gold.profile"]


def test_a_substitution_only_a_run_gives_stays_an_input(lint):
    files = {"jobs/build.sql": SQL}
    files["jobs/runner.py"] = RUNNER + 'run_sql_script(spark, "build.sql", catalog=dbutils.widgets.get("c"))\n'
    result = lint(files)
    assert all(not name.startswith(("main.", "prod.")) for name in _tables(result, "runner.py"))


SPLIT_RUNNER = """import re
from pathlib import Path

_STATEMENTS = re.compile(r";\\s*\\n")


def run_sql_script(spark, path, **subs):
    text = Path(path).read_text()
    for key, value in subs.items():
        text = text.replace("{" + key + "}", value)
    for statement in _STATEMENTS.split(text):
        if statement.strip():
            spark.sql(statement.strip().rstrip(";"))


"""


def test_a_module_pattern_splits_the_file_and_a_path_object_is_handed_on(lint):
    """A pattern compiled at the module's top level splits the text in a helper, and
    the path is a `Path` object (or its `str`) built from `__file__` at the call."""
    files = {"jobs/build.sql": SQL}
    files["jobs/runner.py"] = (
        SPLIT_RUNNER + 'run_sql_script(spark, Path(__file__).with_name("build.sql"), catalog="main")\n'
    )
    files["jobs/other.py"] = (
        SPLIT_RUNNER + 'run_sql_script(spark, str(Path(__file__).parent / "build.sql"), catalog="dev")\n'
    )
    result = lint(files)
    assert _tables(result, "runner.py") == ["main.gold.other", "main.gold.profile"]
    assert _tables(result, "other.py") == ["dev.gold.other", "dev.gold.profile"]


def test_a_local_pattern_and_one_handed_to_the_helper(lint):
    files = {"jobs/build.sql": SQL}
    files["jobs/runner.py"] = (
        "import re as regex\nfrom pathlib import Path\n\n\n"
        "def run(spark, pattern, path):\n"
        "    for statement in pattern.split(Path(path).read_text().replace('{catalog}', 'main')):\n"
        "        if statement.strip():\n"
        "            spark.sql(statement)\n\n\n"
        'run(spark, regex.compile(";"), "build.sql")\n'
    )
    assert _tables(lint(files), "runner.py") == ["main.gold.other", "main.gold.profile"]


def test_a_pattern_only_a_run_gives_leaves_the_statements_unknown(lint):
    """The near miss: the separator comes from a widget, so the pieces are not known
    and no table is guessed (the statement is a dynamic-SQL note)."""
    files = {"jobs/build.sql": SQL}
    files["jobs/runner.py"] = (
        SPLIT_RUNNER.replace('re.compile(r";\\s*\\n")', 're.compile(dbutils.widgets.get("sep"))')
        + 'run_sql_script(spark, Path(__file__).with_name("build.sql"), catalog="main")\n'
    )
    result = lint(files)
    assert _tables(result, "runner.py") == []
    assert any(f.rule == "DL007" for f in result.findings if f.location.path.endswith("runner.py"))
