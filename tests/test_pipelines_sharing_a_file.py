"""One Lakeflow source file listed by several pipelines: each pipeline's datasets
are its own tables (`<catalog>.<schema>.<name>` of that pipeline), written by its
updates alone, and a pipeline runs one update at a time. Two pipelines pair only
where both readings name one and the same table."""

from __future__ import annotations

import pytest

from tests.test_link import _conflicts

SOURCE = """import dlt


@dlt.table(name="customer_metrics")
def customer_metrics():
    return spark.read.table("shop.raw.customers")


@dlt.table(name=spark.conf.get("audit_table", "audit"))
def audit():
    return spark.read.table("shop.raw.events")


@dlt.table(name="shop.common.lineage")
def lineage():
    return spark.read.table("shop.raw.events")
"""


def _pipeline(key: str, schema: str, audit: str = "audit") -> str:
    return f"""    {key}:
      name: {key}
      catalog: shop
      target: {schema}
      configuration:
        audit_table: {audit}
      libraries:
        - file:
            path: src/all_layers.py
"""


def _bundle(*pipelines: str) -> dict[str, str]:
    text = "bundle:\n  name: shared\nresources:\n  pipelines:\n" + "".join(pipelines)
    return {"src/all_layers.py": SOURCE, "databricks.yml": text}


def _tables(result) -> list[str]:
    return sorted(
        {t for f in result.findings if f.rule.startswith("DL1") for t in f.message.split("`") if t.startswith("shop.")}
    )


def test_each_pipelines_tables_are_its_own(lint):
    """bronze's shop.bronze.customer_metrics is not gold's shop.gold.customer_metrics:
    only the dataset named outright (shop.common.lineage) is both pipelines' table."""
    result = lint(_bundle(_pipeline("bronze", "bronze"), _pipeline("gold", "gold")))
    assert _tables(result) == ["shop.common.lineage"], [f.message for f in result.findings]


def test_pipelines_of_one_schema_name_the_same_tables(lint):
    """Two pipelines of one catalog and schema (their configuration differs) both
    write shop.bronze.customer_metrics: a real pair; their audit tables differ."""
    result = lint(_bundle(_pipeline("a", "bronze", "audit_a"), _pipeline("b", "bronze", "audit_b")))
    tables = _tables(result)
    assert "shop.bronze.customer_metrics" in tables and "shop.common.lineage" in tables, tables
    assert not {"shop.bronze.audit_a", "shop.bronze.audit_b"} & set(tables), tables


@pytest.mark.parametrize("schemas", [("bronze",), ("bronze", "bronze")])
def test_one_reading_pairs_nothing_it_did_not_before(lint, schemas):
    """One pipeline, or two alike, are read once: no pair among one pipeline's updates."""
    pipelines = [_pipeline(f"p{i}", s) for i, s in enumerate(schemas)]
    result = lint(_bundle(*pipelines))
    assert (_conflicts(result) == []) == (len(schemas) == 1)
