"""Bare names that run SQL on the session: the Databricks notebook global `sql`
(a notebook defines it; plain Python would raise NameError on an unbound call) and
a name bound to `spark.sql`. Each with a near miss that must not be read as SQL."""

from __future__ import annotations

from delta_lint.frontend import analyze_source

NOTEBOOK = "# Databricks notebook source\n"


def tables(code: str) -> list[str]:
    return [i.table.name for i in analyze_source("nb.py", ".py", code).intents if i.table]


def test_the_notebook_global_sql_runs_statements_and_use():
    code = NOTEBOOK + 'sql("USE DATABASE claims")\nsql("DELETE FROM policies WHERE id = 1")\n'
    assert tables(code) == ["claims.policies"]


def test_the_notebook_global_sql_sets_the_schema_for_later_writes():
    code = NOTEBOOK + '_ = sql("USE DATABASE {}".format("claims"))\nspark.table("s").write.saveAsTable("rules")\n'
    assert tables(code) == ["claims.rules"]


def test_an_alias_of_spark_sql_runs_statements():
    code = 'run = spark.sql\nrun("MERGE INTO main.s.t USING u ON t.id = u.id WHEN MATCHED THEN DELETE")\n'
    assert tables(code) == ["main.s.t"]


def test_a_file_that_defines_its_own_sql_is_not_read_as_the_session():
    code = 'def sql(text):\n    print(text)\nsql("DELETE FROM main.s.t WHERE id = 1")\n'
    assert tables(code) == []


def test_a_name_bound_to_something_else_too_is_not_read_as_the_session():
    code = 'run = spark.sql\nrun = print\nrun("DELETE FROM main.s.t WHERE id = 1")\n'
    assert tables(code) == []
