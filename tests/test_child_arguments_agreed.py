"""A child notebook run by several calls (`dbutils.notebook.run`) is read with what
every call gives it. A dict handed as JSON (`json.dumps(conf)`) is agreed key by key:
a key one call sets from its loop's item (`"https://" + row.host`) does not make the
keys every call gives alike unknown too. A key the calls give differently stays a
value only a run knows."""

from __future__ import annotations

NB = "# Databricks notebook source\n"

DRIVER = (
    NB
    + "import json\n"
    + 'conf = {"schema": "main.ops", "target": TARGET}\n'
    + 'rows = spark.sql("SELECT * FROM main.ops.hosts").collect()\n'
    + "\n# COMMAND ----------\n\n"
    + "def process(row):\n"
    + "    mine = dict(conf)\n"
    + '    mine.update({"url": "https://" + row.host})\n'
    + '    dbutils.notebook.run("./child", 600, {"conf": json.dumps(mine)})\n'
    + "\n"
    + "for row in rows:\n"
    + "    process(row)\n"
)
CHILD = (
    NB
    + "import json\n"
    + 'conf = json.loads(dbutils.widgets.get("conf"))\n'
    + "spark.sql(f\"DELETE FROM {conf['schema']}.{conf['target']} WHERE d < current_date()\")\n"
)


def _child_tables(lint, driver: str) -> list[str]:
    result = lint({"driver.py": driver, "child.py": CHILD})
    return sorted(i.table.name for i in result.intents if i.location.path == "child.py")


def test_the_keys_every_call_gives_alike_reach_the_child(lint) -> None:
    assert _child_tables(lint, DRIVER.replace("TARGET", '"runs"')) == ["main.ops.runs"]


def test_a_key_the_calls_give_differently_stays_unknown(lint) -> None:
    driver = DRIVER.replace("TARGET", '"runs"').replace(
        '"https://" + row.host})', '"https://" + row.host, "target": row.table})'
    )
    assert _child_tables(lint, driver) == ["main.ops.{conf_target}"]
