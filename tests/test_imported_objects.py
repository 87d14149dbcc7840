"""An object another module makes at its top level (`DEFAULT = LakeConfig()` in
lake_config.py) crosses imports with its class: `DEFAULT.table("orders")` in the
importer reads the class's method, or property, with `self` bound to what the
object holds. Near misses: an attribute only a run knows stays unknown, a class of
the importer's own of the same name is not taken for the module's, and an object of
a class from outside the project has no method to read."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

LAKE_CONFIG = (
    "class LakeConfig:\n"
    '    def __init__(self, catalog="main", schema="sales"):\n'
    "        self.catalog = catalog\n"
    "        self.schema = schema\n"
    "\n"
    "    def table(self, name):\n"
    '        return f"{self.catalog}.{self.schema}.{name}"\n'
    "\n"
    "    @property\n"
    "    def audit(self):\n"
    '        return f"{self.catalog}.ops.audit"\n'
    "\n"
    "\n"
    "DEFAULT = LakeConfig()\n"
    'DEV = LakeConfig("dev", schema="scratch")\n'
    'RUNTIME = LakeConfig(schema=dbutils.widgets.get("schema"))\n'
)


def tables(result) -> list[tuple[int, str | None]]:
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


def test_a_method_and_a_property_of_an_imported_object_name_the_table(lint):
    code = NOTEBOOK + (
        "from lake_config import DEFAULT, DEV\n"
        "\n"
        'df.write.mode("overwrite").saveAsTable(DEFAULT.table("orders"))\n'
        "spark.sql(f\"DELETE FROM {DEV.table('orders')} WHERE id < 0\")\n"
        "spark.sql(f\"INSERT INTO {DEFAULT.audit} VALUES ('x')\")\n"
    )
    found = lint({"lake_config.py": LAKE_CONFIG, "load_orders.py": code})
    assert tables(found) == [(4, "main.sales.orders"), (5, "dev.scratch.orders"), (6, "main.ops.audit")]
    assert not [d for d in found.diagnostics if d.rule == "DL001"]


def test_an_object_imported_with_a_star_or_by_another_name_reads_its_class(lint):
    code = NOTEBOOK + (
        "from lake_config import *\n"
        "from lake_config import DEV as cfg\n"
        "\n"
        'df.write.saveAsTable(DEFAULT.table("orders"))\n'
        'df.write.saveAsTable(cfg.table("refunds"))\n'
    )
    found = lint({"lake_config.py": LAKE_CONFIG, "job.py": code})
    assert tables(found) == [(5, "main.sales.orders"), (6, "dev.scratch.refunds")]


def test_an_attribute_only_a_run_knows_stays_unknown(lint):
    code = NOTEBOOK + "from lake_config import RUNTIME\n\n" + 'df.write.saveAsTable(RUNTIME.table("orders"))\n'
    found = lint({"lake_config.py": LAKE_CONFIG, "job.py": code})
    [(line, name)] = tables(found)
    assert line == 4 and name != "main.sales.orders" and "{" in name, name


def test_the_importers_own_class_of_the_same_name_is_not_the_objects(lint):
    code = NOTEBOOK + (
        "from lake_config import DEFAULT\n"
        "\n"
        "\n"
        "class LakeConfig:\n"
        "    def table(self, name):\n"
        '        return f"other.place.{name}"\n'
        "\n"
        "\n"
        'df.write.saveAsTable(DEFAULT.table("orders"))\n'
    )
    found = lint({"lake_config.py": LAKE_CONFIG, "job.py": code})
    assert tables(found) == [(10, "main.sales.orders")]


def test_an_object_of_a_class_from_outside_the_project_has_no_method_to_read(lint):
    config = "from company_lib import LakeConfig\n\nDEFAULT = LakeConfig()\n"
    code = NOTEBOOK + "from lake_config import DEFAULT\n\n" + 'df.write.saveAsTable(DEFAULT.table("orders"))\n'
    found = lint({"lake_config.py": config, "job.py": code})
    assert [d.rule for d in found.diagnostics] == ["DL001"]
    assert [name for _, name in tables(found)] == ["{DEFAULT_table_orders}"]


def test_an_object_a_run_notebook_makes_reads_its_class(lint):
    code = (
        NOTEBOOK
        + "# MAGIC %run ./setup\n\n# COMMAND ----------\n\n"
        + 'df.write.saveAsTable(DEFAULT.table("orders"))\n'
    )
    found = lint({"setup.py": NOTEBOOK + LAKE_CONFIG, "job.py": code})
    assert tables(found) == [(6, "main.sales.orders")]


def test_a_helper_of_the_module_reads_its_object_where_the_job_calls_it(lint):
    config = LAKE_CONFIG + "\n\ndef save(df, name):\n    df.write.saveAsTable(DEFAULT.table(name))\n"
    code = NOTEBOOK + 'from lake_config import save\n\nsave(df, "orders")\n'
    assert tables(lint({"lake_config.py": config, "job.py": code})) == [(4, "main.sales.orders")]


def test_an_object_of_a_module_imported_whole_reads_its_class(lint):
    config = LAKE_CONFIG + 'CATALOG = "main"\n'
    code = NOTEBOOK + (
        "import lake_config\n"
        "\n"
        'df.write.saveAsTable(lake_config.DEFAULT.table("orders"))\n'
        'df.write.saveAsTable(f"{lake_config.CATALOG}.sales.refunds")\n'
        'df.write.saveAsTable(lake_config.RUNTIME.table("orders"))\n'
    )
    found = tables(lint({"lake_config.py": config, "job.py": code}))
    assert found[:2] == [(4, "main.sales.orders"), (5, "main.sales.refunds")]
    assert found[2][0] == 6 and found[2][1] != "main.sales.orders" and "{" in found[2][1], found
