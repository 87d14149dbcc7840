"""A query statement led by a parenthesis (`(SELECT 1) UNION (SELECT 2)`) is a query:
it writes nothing and says nothing (it was a DL000 "unrecognised statement"). A
write whose query is parenthesised is still a write; text that is no statement
still does not parse."""

from __future__ import annotations


def test_a_parenthesised_query_is_no_statement_to_report(lint):
    sql = "(SELECT 1) UNION (SELECT 2);\n((SELECT a FROM c)) UNION ALL SELECT x FROM z;\n"
    result = lint({"q.sql": sql + "INSERT INTO sales.t (SELECT 1) UNION (SELECT 2);\n"})
    assert [f.rule for f in result.findings] == []
    assert [i.table.name for i in result.intents] == ["sales.t"]


def test_a_parenthesis_before_no_query_still_does_not_parse(lint):
    assert [f.rule for f in lint({"q.sql": "(ORDER BY 1);\n"}).findings] == ["DL000"]
