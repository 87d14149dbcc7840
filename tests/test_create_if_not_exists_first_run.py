"""A create that commits only while its table does not exist (`CREATE TABLE IF NOT
EXISTS`, `DeltaTable.createIfNotExists`, a DataFrame write in mode `ignore`) run by two
runs at once: both may find the table absent and create it (ProtocolChangedException,
conflict-semantics: several writers creating a table), but only on the first run;
once the table exists each is a no-op. The finding says so, at `info`. Creates that
commit on every run keep their verdicts."""

from __future__ import annotations

import pytest

PARALLEL = {"jobs": {"a": {"paths": ["a.py"], "concurrent_runs": 2}}}


def _dl114(result) -> list[tuple[str, str, str]]:
    return [(f.verdict, f.severity, f.message) for f in result.findings if f.rule == "DL114"]


@pytest.mark.parametrize(
    "create",
    [
        'spark.sql("CREATE TABLE IF NOT EXISTS main.ops.audit (id INT, ts TIMESTAMP) USING DELTA")\n',
        'df.write.mode("ignore").saveAsTable("main.ops.audit")\n',
        "from delta.tables import DeltaTable\n"
        'DeltaTable.createIfNotExists(spark).tableName("main.ops.audit").addColumn("id", "INT").execute()\n',
    ],
)
def test_runs_of_one_create_if_absent_race_only_on_the_first_run(lint, create):
    found = _dl114(lint({"a.py": create}, PARALLEL))
    assert [(v, s) for v, s, _ in found] == [("first-run", "info")]
    assert "only on the first run" in found[0][2]


@pytest.mark.parametrize(
    ("create", "verdict", "severity"),
    [
        # fails the other run whenever the table is absent, and fails alone after
        ('spark.sql("CREATE TABLE main.ops.audit (id INT) USING DELTA")\n', "data-dependent", "warning"),
        # replaces the table on every run
        ('spark.sql("CREATE OR REPLACE TABLE main.ops.audit (id INT) USING DELTA")\n', "certain", "error"),
    ],
)
def test_creates_that_commit_every_run_keep_their_verdict(lint, create, verdict, severity):
    found = _dl114(lint({"a.py": create}, PARALLEL))
    assert [(v, s) for v, s, _ in found] == [(verdict, severity)]
    assert "first run" not in found[0][2]


def test_the_cli_says_the_first_run_condition(tmp_path):
    from tests.conftest import run_cli

    (tmp_path / "a.sql").write_text("CREATE TABLE IF NOT EXISTS main.ops.audit (id INT) USING DELTA;\n")
    (tmp_path / "delta-lint.yaml").write_text("jobs:\n  a:\n    paths: [a.sql]\n    concurrent_runs: 2\n")
    done = run_cli("check", ".", "--no-cache", "--format", "text", cwd=tmp_path)
    assert "DL114" in done.stdout and "[info]" in done.stdout and "first run" in done.stdout, done.stdout
