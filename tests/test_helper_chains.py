"""Writes reached through chains of helpers: a packaged pipeline goes entry ->
orchestrator -> adapter -> layer writer -> io helper, five to seven calls, within one
file or across a package's modules. Each write is found at the job's call, in one
wave of the link stage per module of the chain; past the depth bound a note says so.
A helper's two statements on one table (a comment and a column's comment) are two
writes, however they are reported."""

from __future__ import annotations

from delta_lint.frontend import analyze_source


def test_a_helpers_comment_and_column_comment_on_one_table_are_two_writes() -> None:
    code = (
        'T = "main.s.t"\n'
        "def annotate():\n"
        "    spark.sql(f\"COMMENT ON TABLE {T} IS 'x'\")\n"
        "    spark.sql(f\"ALTER TABLE {T} ALTER COLUMN a COMMENT 'y'\")\n"
        "annotate()\n"
    )
    result = analyze_source("job.py", ".py", code)
    assert sorted((i.table.name, i.subkind) for i in result.intents) == [
        ("main.s.t", "alter_column"),
        ("main.s.t", "comment"),
    ]
