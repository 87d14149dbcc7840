"""A job that runs the statements of a project SQL file in a loop of its own: the loop
runs over a list of statements that a function of the file returns
(`for s in load_statements(path): spark.sql(s)`, the function splitting the file's
text with a comprehension or `split`), or over the file's text read and split in the
loop's own head (`for s in Path(__file__).parent.joinpath(q).read_text().split(";")`).
Each statement is the job's, read as the SQL front end reads it, at the call. A path
only a run gives, or a function that does more than compute a value, leaves the
statement unknown (DL007)."""

from __future__ import annotations

import pytest

SQL = (
    "-- rebuild\nCREATE OR REPLACE TABLE main.bronze.snapshots (id STRING) USING DELTA;\nOPTIMIZE main.bronze.other;\n"
)


def _at_runner(result) -> tuple[list[tuple[str, str]], list[str]]:
    intents = sorted((i.table.name, i.kind.value) for i in result.intents if i.location.path.endswith("migrate.py"))
    notes = [d.rule for d in result.diagnostics if d.location.path.endswith("migrate.py")]
    return intents, notes


@pytest.mark.parametrize(
    "runner",
    [
        # a function of the file returns the statements, split by a comprehension
        "from pathlib import Path\n"
        'SQL_FILE = "../sql/migration.sql"\n'
        "def load_statements(path):\n"
        '    return [s.strip() for s in Path(path).read_text().split(";") if s.strip()]\n'
        "for statement in load_statements(Path(__file__).parent / SQL_FILE):\n"
        "    spark.sql(statement)\n",
        # ... or by `split`, the path built by `os.path`, the file opened
        "import os\n"
        "def statements(path):\n"
        "    with open(path) as f:\n"
        '        return f.read().split(";")\n'
        'for s in statements(os.path.join(os.path.dirname(__file__), "..", "sql", "migration.sql")):\n'
        "    if s.strip():\n"
        "        spark.sql(s)\n",
        # the loop's own head reads and splits the file
        "from pathlib import Path\n"
        'for s in Path(__file__).parent.joinpath("../sql/migration.sql").read_text().split(";"):\n'
        "    if s.strip():\n"
        "        spark.sql(s)\n",
    ],
)
def test_the_statements_of_the_file_are_the_jobs(lint, runner):
    result = lint({"sql/migration.sql": SQL, "jobs/migrate.py": runner})
    intents, notes = _at_runner(result)
    assert intents == [("main.bronze.other", "optimize"), ("main.bronze.snapshots", "create_or_replace")]
    assert "DL007" not in notes


@pytest.mark.parametrize(
    "runner",
    [
        # the path is a run's argument
        "import sys\n"
        "from pathlib import Path\n"
        "def load_statements(path):\n"
        '    return Path(path).read_text().split(";")\n'
        "for statement in load_statements(sys.argv[1]):\n"
        "    spark.sql(statement)\n",
        # the function asks the session, not the project, for its statements
        "def load_statements(table):\n"
        '    return [r[0] for r in spark.sql(f"SELECT stmt FROM {table}").collect()]\n'
        'for statement in load_statements("main.ops.migrations"):\n'
        "    spark.sql(statement)\n",
    ],
)
def test_statements_only_a_run_gives_stay_unknown(lint, runner):
    result = lint({"sql/migration.sql": SQL, "jobs/migrate.py": runner})
    intents, notes = _at_runner(result)
    assert intents == [] and "DL007" in notes
