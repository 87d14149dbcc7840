"""A section of a project document picked where it is loaded
(`cfg = yaml.safe_load(f)["optimization"]`) holds what the document holds there,
as `cfg = yaml.safe_load(f)` then `cfg["optimization"]` does: the tables a
maintenance job loops over are named. A section the document lacks stays unknown."""

from __future__ import annotations

CONFIG = "optimization:\n  tables:\n    gold.fact_orders:\n      cluster_by: [order_date]\n    silver.orders: {}\n"
JOB = """import yaml
with open("../config/tables.{ext}") as fh:
    cfg = {load}(fh)["{section}"]
for table, tcfg in cfg["tables"].items():
    spark.sql(f"ALTER TABLE {{table}} CLUSTER BY (x)")
"""


def test_a_section_picked_at_the_load_names_the_tables(lint):
    files = {"config/tables.yaml": CONFIG, "config/tables.json": '{"optimization": {"tables": {"gold.x": {}}}}'}
    files["src/y.py"] = JOB.format(ext="yaml", load="yaml.safe_load", section="optimization")
    files["src/j.py"] = "import json\n" + JOB.format(ext="json", load="json.load", section="optimization")
    result = lint(files)
    names = sorted((i.location.path.rsplit("/", 1)[-1], i.table.name) for i in result.intents)
    assert names == [("j.py", "gold.x"), ("y.py", "gold.fact_orders"), ("y.py", "silver.orders")]


def test_a_section_the_document_lacks_stays_unknown(lint):
    files = {"config/tables.yaml": CONFIG, "src/y.py": JOB.format(ext="yaml", load="yaml.safe_load", section="other")}
    assert [f.rule for f in lint(files).findings] == ["DL001"]
