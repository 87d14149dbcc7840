"""A value only a run knows standing where SQL syntax goes (a whole query, a CASE's
arms, a clause) makes a statement that does not parse without it: that is dynamic
SQL (DL007, info), not a statement delta-lint calls broken (DL000). A statement
that is broken where no such value stands is still a DL000."""

from __future__ import annotations


def _said(result) -> list[tuple[str, str]]:
    return sorted((f.rule, f.severity) for f in result.findings)


def test_a_run_value_where_syntax_stands_is_dynamic_sql(lint):
    code = (
        'query = dbutils.widgets.get("q")\n'
        'spark.sql(f"INSERT INTO sales.orders {query}")\n'
        'cases = dbutils.widgets.get("c")\n'
        'spark.sql(f"CREATE OR REPLACE TABLE gold.s AS SELECT v, CASE {cases} ELSE 0 END AS p FROM silver.s")\n'
    )
    assert _said(lint({"job.py": code})) == [("DL007", "info"), ("DL007", "info")]


def test_a_statement_broken_elsewhere_is_still_unparseable(lint):
    code = 'name = dbutils.widgets.get("t")\nspark.sql(f"DELETE FROM main.s.{name} WHERE (")\n'
    assert _said(lint({"job.py": code})) == [("DL000", "error")]
