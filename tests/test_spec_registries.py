"""A registry of table specs (a module-level dict whose values are objects of the
module's classes) names tables through the spec a key picks: in the same file, in
an imported module, through a function that returns `REGISTRY[name]` (also inside
a `try` whose handlers all raise), and with a key that is an expression of known
text. A key only a run gives stays unknown: the table is not one spec picked."""

from __future__ import annotations

REGISTRY = """from dataclasses import dataclass


@dataclass(frozen=True)
class TableSpec:
    staging: str
    bronze: str


REGISTRY = {
    "orders": TableSpec(staging="orders_staging", bronze="bronze_orders"),
    "items": TableSpec(staging="items_staging", bronze="bronze_items"),
}


def table_spec(name):
    try:
        return REGISTRY[name]
    except KeyError:
        raise SystemExit(f"unknown table {name!r}") from None
"""
WRITE = 'spark.sql(f"ALTER TABLE main.default.{spec.bronze} ALTER COLUMN id SET NOT NULL")\n'


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents)


def test_a_spec_picked_from_a_registry_names_its_table(lint):
    files = {"pkg/__init__.py": "", "pkg/registry.py": REGISTRY}
    files["by_function.py"] = "from pkg.registry import table_spec\nspec = table_spec('orders')\n" + WRITE
    files["by_key.py"] = "from pkg.registry import REGISTRY\nspec = REGISTRY['ite' + 'ms']\n" + WRITE
    files["same_file.py"] = REGISTRY + "key = 'orders'\nspec = REGISTRY[key]\n" + WRITE
    assert _tables(lint(files)) == ["main.default.bronze_items", "main.default.bronze_orders"] + [
        "main.default.bronze_orders"
    ]


def test_a_key_only_a_run_gives_stays_unknown(lint):
    files = {"pkg/__init__.py": "", "pkg/registry.py": REGISTRY}
    files["job.py"] = "from pkg.registry import REGISTRY\nspec = REGISTRY[dbutils.widgets.get('t')]\n" + WRITE
    result = lint(files)
    assert [f.rule for f in result.findings] == ["DL001"]
