"""A table name of more than three parts (`a.b.c.d.e`, or a qualified name filled
into a template meant for a table: `main.s.{T}` with `T = "main.s.t"`) is no Unity
Catalog name: a DL000 says so at its line, never another table made of its first
two and last parts. Names of one to three parts read as before."""

from __future__ import annotations


def test_a_name_of_more_than_three_parts_is_said_not_shortened(lint):
    result = lint(
        {
            "job.sql": "DELETE FROM a.b.c.d.e WHERE 1=1;\nINSERT INTO x.y.z.w SELECT 1;\n",
            "job.py": 'T = "main.s.t"\nspark.sql(f"DELETE FROM main.s.{T} WHERE 1=1")\n',
        }
    )
    assert not [i for i in result.intents if i.table is not None]
    said = sorted((f.location.path.rsplit("/", 1)[-1], f.location.line) for f in result.findings if f.rule == "DL000")
    assert said == [("job.py", 2), ("job.sql", 1), ("job.sql", 2)]
    assert all("more than three parts" in f.message for f in result.findings if f.rule == "DL000")


def test_names_of_up_to_three_parts_read_as_before(lint):
    sql = "DELETE FROM t WHERE 1=1;\nDELETE FROM s.t WHERE 1=1;\nDELETE FROM c.s.t WHERE 1=1;\nDELETE FROM delta.`/p/x` WHERE 1=1;\n"
    result = lint({"job.sql": sql})
    assert sorted(i.table.name for i in result.intents) == ["c.s.t", "delta:/p/x", "s.t", "t"]
    assert not [f for f in result.findings if f.rule == "DL000"]
