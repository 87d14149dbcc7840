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
