"""A helper's returned list used where it is made, without a name (`for stmt in
ddl(...)`, `ddl(...)[0]`, the helper in the job or in another module): read as
the same list bound to a name first is. Near miss: a list only a run knows (the
rows a query returns) stays unknown."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

DDL = (
    "def ddl(cat, sch):\n"
    "    return [\n"
    '        f"CREATE TABLE IF NOT EXISTS {cat}.{sch}.orders (id BIGINT) USING DELTA",\n'
    '        f"CREATE TABLE IF NOT EXISTS {cat}.{sch}.audit_log (run_id STRING) USING DELTA",\n'
    "    ]\n"
)


def _tables(result, path: str) -> list[tuple[int, str]]:
    return sorted((i.location.line, i.table.name) for i in result.intents if i.location.path.endswith(path))


def _dl007(result, path: str) -> list[int]:
    return [d.location.line for d in result.diagnostics if d.rule == "DL007" and d.location.path.endswith(path)]


def test_a_loop_over_a_call_reads_as_a_loop_over_the_name_it_is_bound_to(lint):
    job = (
        NOTEBOOK
        + DDL
        + (
            "for stmt in ddl('main', 'shop'):\n"  # line 7
            "    spark.sql(stmt)\n"
            "stmts = ddl('main', 'gold')\n"
            "for stmt in stmts:\n"
            "    spark.sql(stmt)\n"  # line 11
        )
    )
    result = lint({"job.py": job})
    assert _tables(result, "job.py") == [
        (8, "main.shop.audit_log"),
        (8, "main.shop.orders"),
        (11, "main.gold.audit_log"),
        (11, "main.gold.orders"),
    ]
    assert not _dl007(result, "job.py")


def test_an_item_of_a_call_and_a_loop_over_another_modules_call_are_read(lint):
    job = NOTEBOOK + (
        "import sp\nspark.sql(sp.ddl('main', 'shop')[1])\nfor stmt in sp.ddl('main', 'gold'):\n    spark.sql(stmt)\n"
    )
    result = lint({"sp.py": DDL, "job.py": job})
    assert _tables(result, "job.py") == [
        (3, "main.shop.audit_log"),
        (5, "main.gold.audit_log"),
        (5, "main.gold.orders"),
    ]


def test_near_miss_a_list_only_a_run_knows_stays_unknown(lint):
    job = NOTEBOOK + (
        "def statements():\n"
        "    return [r[0] for r in spark.sql('SELECT stmt FROM main.ops.queue').collect()]\n"
        "for stmt in statements():\n"
        "    spark.sql(stmt)\n"
    )
    result = lint({"job.py": job})
    assert not [t for t in _tables(result, "job.py") if not t[1].startswith("{")]
    assert _dl007(result, "job.py") == [5]
