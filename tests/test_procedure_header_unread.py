"""A `CREATE PROCEDURE` whose header the reader does not take (no `AS` before its
body, which Databricks SQL's grammar has) says so at the statement: the writes of
its body are not checked. A header with `AS` is read as the procedure, its writes
made by a `CALL`."""

from __future__ import annotations

import pytest

BODY = (
    "BEGIN\n    MERGE INTO c.s.t1 AS t USING c.s.src AS s ON t.k = s.k WHEN MATCHED THEN UPDATE SET t.v = s.v;\nEND;\n"
)


@pytest.mark.parametrize("header", ["SQL SECURITY INVOKER\n", "LANGUAGE SQL\nSQL SECURITY INVOKER\n-- a comment\n"])
def test_a_procedure_header_not_read_is_said(lint, header):
    result = lint({"p.sql": "CREATE OR REPLACE PROCEDURE c.s.p1()\n" + header + BODY})
    notes = [(d.location.line, d.rule) for d in result.diagnostics if "procedure whose header" in d.message]
    assert notes == [(1, "DL006")]
    assert not result.intents


def test_a_procedure_with_as_is_read_and_called(lint):
    files = {
        "p.sql": "CREATE OR REPLACE PROCEDURE c.s.p1()\nSQL SECURITY INVOKER\nAS\n" + BODY,
        "call.sql": "CALL c.s.p1();\n",
    }
    result = lint(files)
    assert [d for d in result.diagnostics if "procedure whose header" in d.message] == []
    assert [(i.location.path, i.table.name) for i in result.intents if i.table] == [("call.sql", "c.s.t1")]
