"""sqlglot's `Expression.sql("databricks")` turns a parsed tree into text and runs
nothing: it is no statement of the Spark session (it was read as the statement
`databricks`, a DL000). `spark.sql(...)` of any statement is still read."""

from __future__ import annotations


def test_sqlglot_generators_are_no_statements(lint):
    code = (
        "import sqlglot\n"
        'tree = sqlglot.parse_one("SELECT 1", read="databricks")\n'
        'text = tree.sql("databricks")\n'
        'pretty = tree.sql(dialect="spark", pretty=True)\n'
        'spark.sql("INSERT INTO sales.orders SELECT 1")\n'
    )
    result = lint({"job.py": code})
    assert [f.rule for f in result.findings if f.rule.startswith("DL0")] == []
    assert [i.table.name for i in result.intents] == ["sales.orders"]


def test_a_statement_that_is_a_word_is_still_read(lint):
    result = lint({"job.py": 'spark.sql("VACUUM")\nspark.sql("databricks_table")\n'})
    assert sorted(f.rule for f in result.findings) == ["DL000", "DL000"]
