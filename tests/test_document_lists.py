"""A list of names in a project document (`tables:` of a YAML or JSON file the job
loads): a loop over it runs once per name, an index reads one name. Each has its
near miss: a list the code changes in place, or one whose elements are not all
names, stays unknown."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\nimport yaml\n\n"
LOAD = 'with open("maintenance.yml") as fh:\n    cfg = yaml.safe_load(fh)\n\n'
DOCUMENT = "tables:\n  - main.sales.orders\n  - main.sales.refunds\nmixed:\n  - main.sales.orders\n  - 3\n"


def tables(result) -> list[tuple[int, str | None]]:
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


def test_a_loop_over_a_document_list_reads_each_name(lint):
    code = NOTEBOOK + LOAD + 'for table in cfg["tables"]:\n    spark.sql(f"OPTIMIZE {table}")\n'
    found = lint({"optimize_all.py": code, "maintenance.yml": DOCUMENT})
    assert tables(found) == [(8, "main.sales.orders"), (8, "main.sales.refunds")]
    assert not [d for d in found.diagnostics if d.rule == "DL001"]


def test_get_and_an_index_of_a_document_list_read_its_names(lint):
    code = (
        NOTEBOOK
        + LOAD
        + (
            'for table in cfg.get("tables", []):\n    spark.sql(f"OPTIMIZE {table}")\n'
            "spark.sql(f\"DELETE FROM {cfg['tables'][1]} WHERE id < 0\")\n"
        )
    )
    found = lint({"job.py": code, "maintenance.yml": DOCUMENT})
    assert tables(found) == [(8, "main.sales.orders"), (8, "main.sales.refunds"), (9, "main.sales.refunds")]


def test_a_document_list_changed_in_place_or_not_all_names_stays_unknown(lint):
    code = (
        NOTEBOOK
        + LOAD
        + (
            'cfg["tables"].append(dbutils.widgets.get("extra"))\n'
            'for table in cfg["tables"]:\n    spark.sql(f"OPTIMIZE {table}")\n'
        )
    )
    found = lint({"job.py": code, "maintenance.yml": DOCUMENT})
    assert [name for _, name in tables(found)] == ["{each_table}"]
    code = NOTEBOOK + LOAD + 'for table in cfg["mixed"]:\n    spark.sql(f"OPTIMIZE {table}")\n'
    found = lint({"job.py": code, "maintenance.yml": DOCUMENT})
    assert [name for _, name in tables(found)] == ["{each_table}"]
    assert [d.rule for d in found.diagnostics] == ["DL001"]


def test_an_index_of_a_document_list_changed_in_place_stays_unknown(lint):
    """`cfg["tables"].insert(0, x)` then `cfg['tables'][0]`: the change is made through
    `cfg`, so the index reads what only a run knows, never the loaded first name."""
    code = (
        NOTEBOOK
        + LOAD
        + 'cfg["tables"].insert(0, dbutils.widgets.get("extra"))\n'
        + "spark.sql(f\"DELETE FROM {cfg['tables'][0]} WHERE id < 0\")\n"
    )
    found = lint({"job.py": code, "maintenance.yml": DOCUMENT})
    assert "main.sales.orders" not in [name for _, name in tables(found)]
