"""A table name known in part beside values only a run knows (`dev_{user}.customers`,
`/tmp/{user}/demo/events`) is read the same whether the write is SQL text or a
DataFrame/DeltaTable call: both are paired by the name's text, and the finding says
the unknown part must be the same in both runs (one severity lower). A name of
unknown parts alone (`{t}`) is not paired in either, and a name whose known part
differs is another table."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
SETUP = NB + (
    'user = spark.sql("SELECT current_user()").first()[0].split("@")[0]\n'
    'config = {"base": f"/tmp/{user}/demo", "schema": f"dev_{user}"}\n'
)
MAINTAIN = NB + (
    "# MAGIC %run ./setup\n"
    "spark.sql(f\"OPTIMIZE delta.`{config['base']}/events` ZORDER BY (id)\")\n"
    "spark.sql(f\"DELETE FROM {config['schema']}.customers WHERE old\")\n"
    "spark.sql(f\"MERGE INTO {config['schema']}.orders t USING u ON t.id = u.id WHEN MATCHED THEN UPDATE SET *\")\n"
)
WRITES = NB + (
    "# MAGIC %run ./setup\n"
    "from delta.tables import DeltaTable\n"
    'DeltaTable.forPath(spark, config["base"] + "/events").alias("t").merge(u, "t.id = u.id")'
    ".whenMatchedUpdateAll().execute()\n"
    'df.write.mode("overwrite").saveAsTable(f"{config[\'schema\']}.customers")\n'
    'DeltaTable.forName(spark, f"{config[\'schema\']}.orders").delete("old")\n'
)


def _conflicts(result) -> list:
    return [f for f in result.findings if not f.rule.startswith("DL0")]


def _pairs(result) -> set[tuple[str, str, str]]:
    return {(f.rule, f.location.path.rsplit("/", 1)[-1], f.table) for f in _conflicts(result)}


def _unresolved(result) -> list[str]:
    return sorted(f.location.path.rsplit("/", 1)[-1] for f in result.findings if f.rule == "DL001")


def test_a_dataframe_write_of_a_name_known_in_part_pairs_as_sql_text_does(lint):
    result = lint({"setup.py": SETUP, "maintain.py": MAINTAIN, "writes.py": WRITES})
    tables = {f.table for f in _conflicts(result)}
    assert any(t.endswith("}/events") for t in tables), _pairs(result)
    assert any(t.endswith(".customers") for t in tables), _pairs(result)
    assert any(t.endswith(".orders") for t in tables), _pairs(result)
    for f in _conflicts(result):
        # how sure: the unknown part must be the same in both runs
        assert "known only at run time" in f.message
        assert f.severity != "error"
    assert "writes.py" not in _unresolved(result)


def test_a_name_known_in_part_with_another_known_part_is_another_table(lint):
    near = WRITES.replace("/events", "/sessions").replace(".customers", ".suppliers").replace(".orders", ".items")
    result = lint({"setup.py": SETUP, "maintain.py": MAINTAIN, "writes.py": near})
    assert not _conflicts(result)


def test_a_name_of_unknown_parts_alone_is_not_paired_in_either_front_end(lint):
    only = NB + 't = spark.table("cfg").first()[0]\n'
    api = only + 'df.write.mode("overwrite").saveAsTable(t)\n'
    sql = only + 'spark.sql(f"DELETE FROM {t} WHERE old")\n'
    result = lint({"a.py": api, "b.py": sql})
    assert not _conflicts(result)
    assert _unresolved(result) == ["a.py", "b.py"]
