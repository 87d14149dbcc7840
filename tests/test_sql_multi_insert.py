"""Spark SQL's multi-insert, from Hive: `FROM src INSERT INTO a SELECT ... INSERT
INTO b SELECT ...`. It was a parse error (DL000) and its writes were lost; each
INSERT is a write of its own table, its SELECT reading the shared FROM, read as the
INSERT written alone would be. A query led by its FROM (`FROM t SELECT *`) writes
nothing and is no parse error.
"""

from __future__ import annotations

SPLIT = """FROM main.raw.orders
INSERT INTO main.sales.orders_eu SELECT * WHERE region = 'EU'
INSERT INTO main.sales.orders_us SELECT * WHERE region = 'US';
"""


def _intents(result) -> list[tuple]:
    return sorted(
        (i.location.line, i.table.name, i.kind.value, i.predicate_sql, "reads_target" in {f.value for f in i.flags})
        for i in result.intents
    )


def test_each_insert_of_a_multi_insert_writes_its_table(lint):
    result = lint({"split_orders.sql": SPLIT})
    assert [d for d in result.diagnostics if d.rule == "DL000"] == []
    assert _intents(result) == [
        (1, "main.sales.orders_eu", "blind_append", None, False),
        (1, "main.sales.orders_us", "blind_append", None, False),
    ]


def test_a_multi_insert_reads_its_shared_from_and_partitions(lint):
    result = lint(
        {
            "refresh.sql": (
                "FROM main.sales.orders o JOIN main.raw.fx f ON o.ccy = f.ccy\n"
                "INSERT INTO main.sales.orders SELECT o.* WHERE f.rate > 1\n"
                "INSERT OVERWRITE TABLE main.sales.daily PARTITION (d = '2024-01-01') SELECT o.id;\n"
            )
        }
    )
    assert _intents(result) == [
        (1, "main.sales.daily", "replace_where", "d = '2024-01-01'", False),
        (1, "main.sales.orders", "insert_reading_target", None, True),
    ]


def test_a_query_led_by_its_from_writes_nothing(lint):
    result = lint({"peek.sql": "FROM main.raw.orders SELECT *;\nINSERT INTO main.s.t SELECT 1;\n"})
    assert [d for d in result.diagnostics if d.rule == "DL000"] == []
    assert _intents(result) == [(2, "main.s.t", "blind_append", None, False)]
