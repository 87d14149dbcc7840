"""What `self.table` reads in a method an object runs: an attribute its class's
body assigns (`table = "main.sales.orders"`), its own or a project base's, and a
method a project base defines. Each has its near miss: `__init__` setting the
attribute to what only a run knows hides the class's text, a base from outside
the project may set any attribute, and a method that sets it again makes it
unknown."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

BASE = (
    "class BaseLoader:\n"
    "    table = None\n"
    "\n"
    "    def run(self, df):\n"
    '        df.write.mode("overwrite").saveAsTable(self.table)\n'
    "\n"
    "\n"
)


def tables(result) -> list[tuple[int, str | None]]:
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


def test_a_class_attribute_of_a_derived_class_names_the_table_of_a_base_method(lint):
    code = BASE + 'class OrdersLoader(BaseLoader):\n    table = "main.sales.orders"\n\n\nOrdersLoader().run(df)\n'
    assert tables(lint({"job.py": NOTEBOOK + code})) == [(13, "main.sales.orders")]


def test_init_of_a_derived_class_names_the_table_of_a_base_method(lint):
    code = (
        BASE + "class Backfill(BaseLoader):\n    def __init__(self):\n"
        '        self.table = "main.sales.backfill"\n\n\nBackfill().run(df)\n'
    )
    assert tables(lint({"job.py": NOTEBOOK + code})) == [(14, "main.sales.backfill")]


def test_a_class_attribute_imported_with_its_class_names_the_table(lint):
    files = {
        "lib/__init__.py": "",
        "lib/loaders.py": BASE + 'class OrdersLoader(BaseLoader):\n    table = "main.sales.orders"\n',
        "job.py": NOTEBOOK + "from lib.loaders import OrdersLoader\n\nOrdersLoader().run(df)\n",
    }
    assert [t for _, t in tables(lint(files)) if t and "{" not in t] == ["main.sales.orders"]


def test_an_attribute_init_sets_from_a_widget_hides_the_class_text(lint):
    code = (
        'class Loader:\n    table = "main.sales.orders"\n\n'
        '    def __init__(self):\n        self.table = dbutils.widgets.get("t")\n\n'
        '    def run(self, df):\n        df.write.mode("overwrite").saveAsTable(self.table)\n\n\n'
        "Loader().run(df)\n"
    )
    found = tables(lint({"job.py": NOTEBOOK + code}))
    assert "main.sales.orders" not in [t for _, t in found], found


def test_a_base_from_outside_the_project_or_a_method_that_sets_it_again_leaves_it_unknown(lint):
    outside = (
        "from framework import Job\n\n\n"
        'class Loader(Job):\n    table = "main.sales.orders"\n\n'
        '    def run(self, df):\n        df.write.mode("overwrite").saveAsTable(self.table)\n\n\n'
        "Loader().run(df)\n"
    )
    again = (
        'class Loader:\n    table = "main.sales.orders"\n\n'
        "    def use(self, name):\n        self.table = name\n\n"
        '    def run(self, df):\n        df.write.mode("overwrite").saveAsTable(self.table)\n\n\n'
        "Loader().run(df)\n"
    )
    for code in (outside, again):
        found = tables(lint({"job.py": NOTEBOOK + code}))
        assert "main.sales.orders" not in [t for _, t in found], found


CONFIG = (
    "class LakeConfig:\n"
    '    def __init__(self, catalog="main", schema="sales"):\n'
    "        self.catalog = catalog\n"
    "        self.schema = schema\n"
    "\n"
    "    def table(self, name):\n"
    '        return f"{self.catalog}.{self.schema}.{name}"\n'
    "\n"
    "\n"
    "class DevConfig(LakeConfig):\n"
    "    def __init__(self):\n"
    '        self.catalog, self.schema = "dev", "scratch"\n'
    "\n"
    "\n"
)


def test_a_method_of_an_object_made_where_it_is_called_returns_its_text(lint):
    code = CONFIG + (
        "spark.sql(f\"DELETE FROM {LakeConfig().table('orders')} WHERE id < 0\")\n"
        "spark.sql(f\"DELETE FROM {DevConfig().table('orders')} WHERE id < 0\")\n"
        "spark.sql(f\"DELETE FROM {LakeConfig(schema=dbutils.widgets.get('s')).table('orders')} WHERE id < 0\")\n"
    )
    found = tables(lint({"job.py": NOTEBOOK + code}))
    assert found[:2] == [(16, "main.sales.orders"), (17, "dev.scratch.orders")]
    assert found[2][1] != "main.sales.orders", found  # the schema only a run knows


LOADER = (
    "class Loader:\n"
    '    table = "main.s.default"\n'
    "\n"
    "    def __init__(self, spark, conf=None):\n"
    "        self.spark = spark\n"
    "\n"
    "    def run(self):\n"
    '        self.spark.sql(f"UPDATE {self.table} SET x = 1")\n'
)


def test_a_class_attribute_the_code_sets_elsewhere_is_not_the_class_text(lint):
    """`Loader.table = "..."` in the importing job, or `self.__dict__.update(conf)` in
    `__init__`: the class body's text is not what the method reads (unknown). Setting
    another attribute of the class leaves this one known."""
    files = {"lib/__init__.py": "", "lib/loader.py": LOADER}
    rebound = "from lib.loader import Loader\n\nLoader.table = 'main.s.orders'\nLoader(spark).run()\n"
    found = tables(lint({**files, "job.py": NOTEBOOK + rebound}))
    assert "main.s.default" not in [t for _, t in found], found
    by_dict = LOADER.replace(
        "        self.spark = spark\n", "        self.spark = spark\n        self.__dict__.update(conf)\n"
    )
    found = tables(lint({"job.py": NOTEBOOK + by_dict + "\n\nLoader(spark, {'table': 'main.s.c'}).run()\n"}))
    assert "main.s.default" not in [t for _, t in found], found
    other = "from lib.loader import Loader\n\nLoader.retries = 3\nLoader(spark).run()\n"
    found = tables(lint({**files, "job.py": NOTEBOOK + other}))
    assert "main.s.default" in [t for _, t in found], found
