"""Databricks SQL string literals that follow each other form one literal (`'a' 'b'`,
and `'customer''s'`, which Spark's lexer reads as two literals chained), in any mix of
single and double quotes and raw `r'...'` forms. sqlglot refuses a chain where one
literal must stand (`COMMENT ON ... IS`, a column's `COMMENT`): such a statement is
read with its chains joined, and keeps its write; one that is wrong for other reasons
is still a parse error."""

from __future__ import annotations

import pytest


def _read(lint, sql: str):
    result = lint({"job.sql": sql})
    intents = [(i.table.name, i.kind.value, i.subkind) for i in result.intents]
    return intents, [d.rule for d in result.diagnostics if d.rule == "DL000"]


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "COMMENT ON TABLE main.g.c IS 'Join on the customer''s effective dates';",
            [("main.g.c", "metadata_change", "comment")],
        ),
        (
            "COMMENT ON COLUMN main.g.c.region IS 'the customer''s ' \"present\" ' region';",
            [("main.g.c", "metadata_change", "comment")],
        ),
        (
            "CREATE TABLE IF NOT EXISTS main.g.t (id INT COMMENT 'it''s the id', p STRING COMMENT r'C:\\dir') "
            "USING DELTA COMMENT 'the' ' table';",
            [("main.g.t", "create", None)],
        ),
        ("COMMENT ON TABLE main.g.c IS r'a\\d' 'b';", [("main.g.c", "metadata_change", "comment")]),
        ("ALTER TABLE main.g.c ALTER COLUMN id COMMENT 'it''s';", [("main.g.c", "metadata_change", "alter_column")]),
    ],
)
def test_a_chain_of_literals_is_one_literal(lint, sql, expected):
    assert _read(lint, sql) == (expected, [])


@pytest.mark.parametrize(
    "sql",
    [
        'COMMENT ON TABLE main.g.c IS "it\'s";',
        "COMMENT ON TABLE main.g.c IS 'it\\'s';",
        "COMMENT ON TABLE main.g.c IS R'it\\s';",
    ],
)
def test_one_literal_in_each_quoting_is_read_as_before(lint, sql):
    assert _read(lint, sql) == ([("main.g.c", "metadata_change", "comment")], [])


def test_a_chain_does_not_mend_other_syntax(lint):
    """Joining the literals does not make a wrong statement right: the error stays,
    and names the text as written."""
    result = lint({"job.sql": "COMMENT ON TABLE main.g.c IS 'a''b' EXTRA;"})
    errors = [d for d in result.diagnostics if d.rule == "DL000"]
    assert len(errors) == 1 and "'a''b'" in errors[0].message
