"""SQL run by other engines' `sql(...)` / `execute(...)`: DuckDB's module and
connections, polars' `SQLContext`, sqlite3 cursors. They write their own databases,
never a Delta table, so none of their statements is an intent, and nothing is said
at them. What decides is where the receiver comes from (`warehouse.ClientOrigins`),
not the method's name: `spark.sql` and a receiver of unknown origin stay Spark's."""

from __future__ import annotations

ENGINES = """import duckdb
import polars as pl
import sqlite3

duckdb.sql("INSERT INTO main.s.a SELECT 1")
duckdb.execute("DELETE FROM main.s.a WHERE a = 1")
con = duckdb.connect("local.db")
con.sql("DELETE FROM main.s.b WHERE a = 1")
ctx = pl.SQLContext(frames={"x": pl.DataFrame({"a": [1]})})
ctx.execute("INSERT INTO main.s.c SELECT 1")
db = sqlite3.connect("local.db")
db.cursor().execute("DELETE FROM main.s.d")


def load(q):
    with duckdb.connect() as c:
        c.sql(q)


load("MERGE INTO main.s.e t USING x s ON t.id = s.id WHEN MATCHED THEN DELETE")
"""


def _writes(result) -> list[tuple[int, str, str]]:
    return sorted((i.location.line, i.table.name, i.kind.value) for i in result.intents)


def test_other_engines_statements_are_no_delta_writes(lint):
    result = lint({"job.py": ENGINES})
    assert _writes(result) == []
    assert [f.rule for f in result.findings] == []


def test_spark_sql_beside_them_and_an_unknown_receiver_stay_spark_writes(lint):
    """Near misses: the same file's `spark.sql`, a `.sql` on a session handed in, and a
    `con.sql` where `con` is a DuckDB connection on one path only (not known)."""
    job = (
        ENGINES
        + 'spark.sql("DELETE FROM main.s.f WHERE a = 1")\n'
        + "\n\ndef run(session):\n"
        + '    session.sql("INSERT INTO main.s.g SELECT 1")\n'
        + "\n\nif flag:\n"
        + '    other = duckdb.connect("x.db")\n'
        + "else:\n"
        + "    other = spark\n"
        + 'other.sql("DELETE FROM main.s.h WHERE a = 2")\n'
    )
    assert _writes(lint({"job.py": job})) == [
        (21, "main.s.f", "delete"),
        (25, "main.s.g", "blind_append"),
        (32, "main.s.h", "delete"),
    ]


def test_a_duckdb_connection_another_module_makes_is_followed(lint):
    """`from db import con` of a module holding `con = duckdb.connect()`: the link
    stage tells this file what the name holds."""
    files = {
        "db.py": 'import duckdb\n\ncon = duckdb.connect("local.db")\n',
        "job.py": 'from db import con\n\ncon.sql("INSERT INTO main.s.a SELECT 1")\nspark.sql("INSERT INTO main.s.b SELECT 1")\n',
    }
    assert _writes(lint(files)) == [(4, "main.s.b", "blind_append")]
