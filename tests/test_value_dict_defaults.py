"""A loader that fills in a document's defaults in place (`cfg.setdefault("k", v)`,
`cfg.update(k=v)`) returns the document so changed, as Python
does; a change of keys only a run knows, or through a second name bound to the
dict, leaves it unknown."""

from __future__ import annotations

LOADER = """import yaml


def load():
    with open("settings.yaml") as fh:
        cfg = yaml.safe_load(fh)
    cfg.setdefault("schema", "ops")
    cfg.setdefault("catalog", "ignored")
    {extra}
    return cfg
"""

USE = (
    "# Databricks notebook source\nfrom conf import load\ncfg = load()\n"
    "spark.sql(f\"DELETE FROM {cfg['catalog']}.{cfg['schema']}.{cfg['table']} WHERE id < 0\")\n"
)


def names(result) -> list[str]:
    return sorted(i.table.name if i.table else "?" for i in result.intents)


def test_defaults_filled_in_place_are_the_documents(lint):
    files = {"jobs/settings.yaml": "catalog: main\ntable: orders\nold: x\n", "jobs/clean.py": USE}
    found = lint({**files, "jobs/conf.py": LOADER.format(extra='cfg.update(table="refunds")')})
    assert names(found) == ["main.ops.refunds"]


def test_defaults_of_keys_only_a_run_knows_stay_unknown(lint):
    files = {"jobs/settings.yaml": "catalog: main\ntable: orders\n", "jobs/clean.py": USE}
    found = lint({**files, "jobs/conf.py": LOADER.format(extra='cfg.update(dbutils.widgets.get("overrides"))')})
    assert "main.ops.orders" not in names(found)
    assert [d.rule for d in found.diagnostics] == ["DL001"]
