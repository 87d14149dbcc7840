"""`INSERT ... REPLACE ON` in each documented shape, and a CREATE whose column list
holds a generated column before a governance clause. Each with its near miss."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source
from delta_lint.model import Flag


def intents(sql: str):
    result = analyze_source("job.sql", ".sql", sql)
    return result.intents, [d.rule for d in result.diagnostics]


@pytest.mark.parametrize(
    "head",
    [
        "INSERT INTO main.db.t AS t",
        "INSERT INTO main.db.t t",
        "INSERT INTO main.db.t",
        "INSERT INTO TABLE main.db.t",
        "INSERT INTO main.db.t AS t BY NAME",
        "INSERT INTO main.db.t BY NAME",
        "INSERT INTO main.db.t (id, v)",
        "INSERT INTO main.db.t AS t (id, v)",
    ],
)
def test_every_shape_of_replace_on_is_a_merge_of_the_table(head: str) -> None:
    found, rules = intents(f"{head} REPLACE ON t.id = s.id (SELECT * FROM main.db.s) AS s")
    assert [(i.table.name, i.kind.value, i.subkind) for i in found] == [("main.db.t", "merge", "replace_on")]
    assert rules == []


def test_schema_evolution_reaches_a_replace_on() -> None:
    (with_evolution,), _ = intents(
        "INSERT WITH SCHEMA EVOLUTION INTO main.db.t AS t REPLACE ON t.id = s.id (SELECT * FROM main.db.s) AS s"
    )
    assert Flag.SCHEMA_EVOLUTION in with_evolution.flags
    (plain,), _ = intents("INSERT INTO main.db.t AS t REPLACE ON t.id = s.id (SELECT * FROM main.db.s) AS s")
    assert Flag.SCHEMA_EVOLUTION not in plain.flags
    # the session's auto-merge gives it too, as to an INSERT
    found, _ = intents(
        "SET spark.databricks.delta.schema.autoMerge.enabled = true;\n"
        "INSERT INTO main.db.t AS t REPLACE ON t.id = s.id (SELECT * FROM main.db.s) AS s"
    )
    assert Flag.SCHEMA_EVOLUTION in found[-1].flags


def test_replace_where_stays_a_replace_where() -> None:
    (found,), _ = intents("INSERT INTO main.db.t REPLACE WHERE d = '2024-01-01' SELECT * FROM main.db.s")
    assert found.subkind != "replace_on"


def test_a_generated_column_before_a_mask_keeps_the_create() -> None:
    found, rules = intents(
        "CREATE TABLE main.db.g (id INT, d DATE GENERATED ALWAYS AS (CAST(ts AS DATE)), ts TIMESTAMP, "
        "ssn STRING MASK main.sec.mask_ssn) PARTITIONED BY (d)"
    )
    assert [(i.table.name, i.kind.value) for i in found] == [("main.db.g", "create")]
    assert rules == []


def test_a_ctas_query_with_parentheses_keeps_its_query() -> None:
    found, rules = intents(
        "CREATE TABLE main.db.c (id INT, ssn STRING MASK main.sec.m) AS (SELECT id, ssn FROM main.db.s WHERE id > 0)"
    )
    assert [(i.table.name, i.kind.value) for i in found] == [("main.db.c", "create")]
    assert rules == []
