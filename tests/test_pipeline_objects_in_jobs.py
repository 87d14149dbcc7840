"""A Databricks SQL streaming table or materialized view made or refreshed from a
job's code is written by a pipeline Databricks runs for it, not by the job: the
statement says so (DL006, info) instead of nothing. A view writes nothing and
stays silent; a table the statement creates is a write."""

from __future__ import annotations


def _said(result) -> list[tuple[str, int, str]]:
    return sorted((f.rule, f.location.line, f.severity) for f in result.findings)


def test_a_pipeline_object_made_from_a_job_is_said(lint):
    code = (
        'spark.sql("CREATE OR REPLACE MATERIALIZED VIEW main.s.mv AS SELECT count(*) FROM main.s.t")\n'
        'spark.sql("CREATE MATERIALIZED VIEW IF NOT EXISTS main.s.mv2 AS SELECT 1")\n'
    )
    result = lint({"job.py": code})
    assert _said(result) == [("DL006", 1, "info"), ("DL006", 2, "info")]
    assert "materialized view" in result.findings[0].message
    assert result.intents == []


def test_a_view_says_nothing_and_a_table_is_a_write(lint):
    code = 'spark.sql("CREATE VIEW main.s.v AS SELECT 1")\nspark.sql("CREATE TABLE main.s.t (id INT)")\n'
    result = lint({"job.py": code})
    assert _said(result) == []
    assert [i.table.name for i in result.intents] == ["main.s.t"]
