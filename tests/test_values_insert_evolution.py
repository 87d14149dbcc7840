"""Rows of literal values inserted by position add no column: an `INSERT INTO t
VALUES (...)` under a session that lets schemas evolve (autoMerge, set for a MERGE
elsewhere in the job) is a blind append, not a schema change that fails concurrent
writers (a false DL111). A query's rows, or values given a column list, may still
evolve the schema."""

from __future__ import annotations

AUTO = 'spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")\n'


def _evolving(result) -> list[str]:
    return sorted(i.table.name for i in result.intents if "schema_evolution" in {f.value for f in i.flags})


def test_positional_values_under_auto_merge_do_not_evolve(lint):
    code = AUTO + "spark.sql(\"INSERT INTO main.meta.audit VALUES ('run', current_timestamp(), 'ok')\")\n"
    result = lint({"a.py": code, "b.py": code})
    assert _evolving(result) == []
    assert [f.rule for f in result.findings if f.rule == "DL111"] == []


def test_a_query_or_a_column_list_may_still_evolve(lint):
    code = AUTO + (
        'spark.sql("INSERT INTO main.meta.audit SELECT * FROM main.meta.staging")\n'
        "spark.sql(\"INSERT INTO main.meta.other (run, extra) VALUES ('run', 1)\")\n"
    )
    assert _evolving(lint({"a.py": code})) == ["main.meta.audit", "main.meta.other"]
