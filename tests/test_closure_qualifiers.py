"""A table name qualified by a lambda or a nested function (`fq = lambda t:
f"{catalog}.{schema}.{t}"` inside a builder, a nested `def fq(t)`, a module-level
lambda): the call reads the function with the names of the function it was made
in, as Python does. Near misses: a name the enclosing function binds again after
the lambda is made (Python reads the last binding when it is called), and a
lambda made in a loop over its variable, are not taken as they were when it was
made."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"


def _tables(result, path: str) -> list[tuple[int, str, bool]]:
    return sorted(
        (i.location.line, i.table.name, "unresolved" in {f.value for f in i.flags})
        for i in result.intents
        if i.location.path.endswith(path)
    )


def test_a_lambda_inside_a_builder_names_its_tables(lint):
    job = NOTEBOOK + (
        "def ddl(cat, sch):\n"
        "    fq = lambda t: f'{cat}.{sch}.{t}'\n"
        "    return [\n"
        "        f'CREATE TABLE IF NOT EXISTS {fq(\"orders\")} (id BIGINT) USING DELTA',\n"
        "        f'CREATE TABLE IF NOT EXISTS {fq(\"audit\")} (id BIGINT) USING DELTA',\n"
        "    ]\n"
        "stmts = ddl('main', 'shop')\n"
        "for stmt in stmts:\n"
        "    spark.sql(stmt)\n"
    )
    assert _tables(lint({"job.py": job}), "job.py") == [(10, "main.shop.audit", False), (10, "main.shop.orders", False)]


def test_a_nested_def_and_a_module_lambda_name_their_tables(lint):
    job = NOTEBOOK + (
        "def insert(cat, sch):\n"
        "    def fq(t, suffix=''):\n"
        "        return f'{cat}.{sch}.{t}{suffix}'\n"
        '    return f\'INSERT INTO {fq("orders", suffix="_v2")} SELECT 1\'\n'
        "spark.sql(insert('main', 'shop'))\n"
        "CAT, SCH = 'main', 'gold'\n"
        "q = lambda t: f'{CAT}.{SCH}.{t}'\n"
        "spark.sql(f'INSERT INTO {q(\"sales\")} SELECT 1')\n"
    )
    assert _tables(lint({"job.py": job}), "job.py") == [
        (6, "main.shop.orders_v2", False),
        (9, "main.gold.sales", False),
    ]


def test_a_builder_of_another_module_with_a_lambda_names_its_table(lint):
    sqlb = (
        "def _fq(catalog, schema, t):\n"
        "    return f'`{catalog}`.`{schema}`.`{t}`'\n"
        "def build_gold(catalog, schema):\n"
        "    fq = lambda t: _fq(catalog, schema, t)\n"
        '    return f\'CREATE OR REPLACE TABLE {fq("daily")} AS SELECT * FROM {fq("silver")}\'\n'
    )
    job = NOTEBOOK + "import sqlb\nspark.sql(sqlb.build_gold('main', 'shop'))\n"
    assert _tables(lint({"sqlb.py": sqlb, "job.py": job}), "job.py") == [(3, "main.shop.daily", False)]


def test_near_miss_a_name_bound_again_after_the_lambda_is_not_the_first_value(lint):
    job = NOTEBOOK + (
        "def insert(cat):\n"
        "    fq = lambda t: f'{cat}.s.{t}'\n"
        "    cat = 'other'\n"
        "    return f'INSERT INTO {fq(\"orders\")} SELECT 1'\n"
        "def inserts():\n"
        "    fs = []\n"
        "    for c in ['a', 'b']:\n"
        "        fs.append(lambda t: f'{c}.s.{t}')\n"
        "    return f'INSERT INTO {fs[0](\"x\")} SELECT 1'\n"
        "spark.sql(insert('main'))\n"
        "spark.sql(inserts())\n"
    )
    found = _tables(lint({"job.py": job}), "job.py")
    assert not [t for t in found if t[1] in ("main.s.orders", "a.s.x")], found
