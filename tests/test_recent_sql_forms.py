"""Documented Databricks SQL that the parser refused (a DL000 that lost the
statement's write): `INSERT WITH SCHEMA EVOLUTION`, `INSERT ... REPLACE ON`,
`OPTIMIZE ... FULL`, a column `MASK` and a table's `WITH ROW FILTER` in a CREATE,
`SET TAG` / `UNSET TAG`; each is read as what it writes, and near misses stay as
they were."""

from __future__ import annotations

import pytest


def _read(lint, sql: str):
    result = lint({"job.sql": sql})
    intents = [(i.table.name, i.kind.value, i.subkind) for i in result.intents]
    return intents, [d.rule for d in result.diagnostics if d.rule == "DL000"]


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("INSERT WITH SCHEMA EVOLUTION INTO main.s.o SELECT * FROM main.raw.o;", [("main.s.o", "blind_append", None)]),
        (
            "INSERT INTO main.s.o AS t REPLACE ON t.id = s.id (SELECT id FROM main.raw.o) AS s;",
            [("main.s.o", "merge", "replace_on")],
        ),
        ("INSERT INTO main.s.o REPLACE ON id = 1 SELECT 1 AS id;", [("main.s.o", "merge", "replace_on")]),
        ("OPTIMIZE main.s.o FULL;", [("main.s.o", "optimize", None)]),
        ("OPTIMIZE main.s.o FULL WHERE d = '2024-01-01' ZORDER BY (id);", [("main.s.o", "optimize_zorder", None)]),
        (
            "CREATE TABLE IF NOT EXISTS main.s.c (id INT, email STRING MASK main.sec.mask_email);",
            [("main.s.c", "create", None)],
        ),
        (
            "CREATE TABLE main.s.c (id INT, ssn STRING MASK main.sec.m USING COLUMNS (id)) "
            "WITH ROW FILTER main.sec.f ON (id);",
            [("main.s.c", "create", None)],
        ),
        ("SET TAG ON TABLE main.s.o `domain` = `sales`;", []),
        ("UNSET TAG ON TABLE main.s.o `domain`;", []),
    ],
)
def test_the_form_is_read_as_what_it_writes(lint, sql, expected):
    assert _read(lint, sql) == (expected, [])


def test_a_column_named_mask_is_a_column(lint):
    intents, errors = _read(lint, "CREATE TABLE main.s.c (id INT, mask STRING) USING DELTA;")
    assert intents == [("main.s.c", "create", None)] and errors == []


def test_a_query_naming_mask_keeps_its_select(lint):
    intents, errors = _read(lint, "CREATE TABLE main.s.c AS SELECT id mask FROM main.raw.o;")
    assert [t for t, _, _ in intents] == ["main.s.c"] and errors == []


def test_words_the_forms_do_not_take_are_still_a_parse_error(lint):
    _, errors = _read(lint, "OPTIMIZE main.s.o FULL EXTRA;\nINSERT WITH SCHEMA EVOLUTION main.s.o SELECT 1;")
    assert errors == ["DL000", "DL000"]
