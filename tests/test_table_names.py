"""Table names: one home (`settings.TableNames`), made once a run from the configuration."""

from __future__ import annotations

from delta_lint.config import Config
from delta_lint.settings import TableNames


def test_a_table_has_one_name_however_it_is_written(tmp_path):
    names = TableNames.of(
        Config(root=tmp_path, default_schema="main.sales", locations={"orders": "tables/orders", "s.x": "/abs/x/"})
    )
    assert names.qualify("t") == "main.sales.t"
    assert names.qualify("crm.t") == "main.crm.t"
    assert names.qualify("hive.crm.t") == "hive.crm.t"
    # a path table is the table `locations:` puts there (written relative to the configuration, or absolute)
    assert names.qualify(f"delta:{tmp_path}/tables/./orders") == "main.sales.orders"
    assert names.qualify("delta:/abs/x") == "main.s.x"
    assert names.qualify("delta:/abs/y/../z/") == "delta:/abs/z"
    assert TableNames().qualify("t") == "t"


def test_every_stage_names_a_table_as_the_configuration_does(lint):
    """The run's naming reaches every stage that compares table names: one table
    written by its short name, its full name and its path (`locations:`), its
    settings declared under a third spelling, is one table to the writers, the
    settings stage and the engine: its two DML statements on different partitions
    do not conflict; the overwrite by path conflicts with both."""
    result = lint(
        {
            "a.sql": "UPDATE orders SET x = 1 WHERE d = '1';\n",
            "b.sql": "DELETE FROM main.sales.orders WHERE d = '2';\n",
            "c.py": 'spark.read.table("s.src").write.format("delta").mode("overwrite").save("/data/orders/")\n',
        },
        {
            "spark": "none",
            "default_schema": "main.sales",
            "locations": {"orders": "/data/orders"},
            "tables": {"sales.orders": {"partitioned_by": ["d"]}},
        },
    )
    assert {name: (s.partitioned_by, s.source) for name, s in result.settings.items()} == {
        "main.sales.orders": (("d",), "declared")
    }
    pairs = sorted((f.rule, f.table, str(f.location), tuple(map(str, f.related))) for f in result.findings)
    assert pairs == [
        ("DL102", "main.sales.orders", "a.sql:1:1", ("c.py:1:1",)),
        ("DL102", "main.sales.orders", "b.sql:1:1", ("c.py:1:1",)),
    ]
