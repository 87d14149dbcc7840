"""A helper called again and again with the same values (a name qualifier in every
statement of a loop, a literal helper fed the same run id) is read once: a reading
that wrote and said nothing is that reading again, so it costs nothing and does
not use up the helper's count of calls, and later calls of the helper with other
values are still read. Near miss: a helper that writes is read at every call, and
its calls past the count are still said, naming the helper."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

SQLB = (
    "def fq(cat, sch, t):\n"
    "    return f'{cat}.{sch}.{t}'\n"
    "def lit(v):\n"
    '    return "\'" + str(v).replace("\'", "\'\'") + "\'"\n'
)


def test_a_helper_called_with_the_same_values_in_a_loop_leaves_later_calls_read(lint):
    checks = "".join(
        f"    n{i} = spark.sql(f\"SELECT count(*) FROM {{sqlb.fq(CAT, SCH, 'orders')}} WHERE r = {{sqlb.lit(run)}}\")\n"
        for i in range(80)
    )
    job = (
        NOTEBOOK
        + "import sqlb\nCAT, SCH = 'main', 'shop'\n"
        + "def check(run):\n"
        + checks
        + "def load(run):\n"
        + "    spark.sql(f\"INSERT INTO {sqlb.fq(CAT, SCH, 'audit')} SELECT {sqlb.lit(run)}\")\n"
        + "check('r1')\ncheck('r1')\nload('r1')\n"
    )
    result = lint({"sqlb.py": SQLB, "job.py": job})
    assert [i.table.name for i in result.intents if i.location.path.endswith("job.py")] == ["main.shop.audit"]
    assert not [f for f in result.findings if f.rule == "DL008"]


def test_near_miss_a_helper_that_writes_is_read_at_every_call_and_its_cap_said(lint):
    job = (
        NOTEBOOK
        + "def purge(t):\n    spark.sql(f'DELETE FROM {t} WHERE 1=1')\n"
        + "".join('purge("main.s.same")\n' for _ in range(66))
    )
    result = lint({"job.py": job})
    lines = sorted(i.location.line for i in result.intents if i.table.name == "main.s.same")
    assert lines[:64] == list(range(4, 68))
    notes = [f for f in result.findings if f.rule == "DL008"]
    assert notes and all("`purge`" in f.message for f in notes)
