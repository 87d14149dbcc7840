"""A Lakeflow (DLT) pipeline's datasets are plain writes of the ecosystem count
(`benchmarks/realworld/ecosystem.py`): a `@dlt.table` function, an AUTO CDC flow,
a `CREATE OR REFRESH STREAMING TABLE` / `MATERIALIZED VIEW` with a query. One
delta-lint says nothing at is a silent drop of `python -m benchmarks.realworld
drops`; views and a streaming table declared with no query (a flow's target) are
no writes."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.realworld import ecosystem
from tests.conftest import run_cli

PYTHON = (
    "import dlt\n"  # 1
    "from pyspark import pipelines as dp\n"
    "\n"
    '@dlt.table(name="bronze_orders", comment="raw")\n'  # 4: a dataset
    "def bronze():\n"
    '    return spark.readStream.table("main.raw.orders")\n'
    "\n"
    "@dlt.view\n"  # 8: a view, no write
    "def tmp_v():\n"
    '    return dlt.read("bronze_orders")\n'
    "\n"
    "@dp.materialized_view\n"  # 12: a dataset
    "def daily():\n"
    '    return spark.read.table("bronze_orders").groupBy("d").count()\n'
    "\n"
    'dlt.create_streaming_table("silver_orders")\n'  # 16: a flow's target, no write
    'dlt.apply_changes(target="silver_orders", source="bronze_orders", keys=["id"], sequence_by="ts")\n'  # 17
    "\n"
    "@other.table\n"  # 19: not a pipeline module
    "def f():\n"
    "    return 1\n"
)
SQL = (
    "CREATE OR REFRESH STREAMING TABLE raw_events\n"  # 1: a dataset
    "AS SELECT * FROM STREAM read_files('/Volumes/x/y/z');\n"
    "\n"
    "CREATE OR REFRESH MATERIALIZED VIEW daily_events\n"  # 4: a dataset
    "COMMENT 'per day'\n"
    "AS SELECT count(*) FROM raw_events;\n"
    "\n"
    "CREATE TEMPORARY LIVE VIEW v AS SELECT 1;\n"  # 8: a view, no write
    "\n"
    "CREATE OR REFRESH STREAMING TABLE cdc_target;\n"  # 10: a flow's target, no write
    "\n"
    "APPLY CHANGES INTO cdc_target FROM STREAM(raw_events) KEYS (id) SEQUENCE BY ts;\n"  # 12
)
BUNDLE = (
    "bundle:\n  name: p\nresources:\n  pipelines:\n    p:\n      name: p\n"
    "      catalog: main\n      schema: s\n      libraries:\n"
    "        - file:\n            path: src/p.py\n        - file:\n            path: src/q.sql\n"
)


def _project(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "p.py").write_text(PYTHON)
    (tmp_path / "src" / "q.sql").write_text(SQL)
    (tmp_path / "databricks.yml").write_text(BUNDLE)


def test_pipeline_datasets_are_plain_writes_and_views_are_not(tmp_path):
    _project(tmp_path)
    found = sorted((w.path, w.line) for w in ecosystem.plain_writes(tmp_path, []))
    assert found == [
        ("src/p.py", 4),
        ("src/p.py", 12),
        ("src/p.py", 17),
        ("src/q.sql", 1),
        ("src/q.sql", 4),
        ("src/q.sql", 12),
    ]


def test_a_dataset_span_starts_at_its_decorator(tmp_path):
    _project(tmp_path)
    spans = {w.line: w.span for w in ecosystem.plain_writes(tmp_path, []) if w.path == "src/p.py"}
    assert spans[4] == (4, 6) and spans[12] == (12, 14)


def test_a_pipeline_delta_lint_reads_has_no_silent_drop_and_a_dropped_dataset_is_one(tmp_path):
    _project(tmp_path)
    intents = json.loads(run_cli("intents", ".", "--format", "json", cwd=tmp_path).stdout)
    schedule = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)
    eco = ecosystem.measure(tmp_path, {"findings": []}, intents, schedule, [])
    assert (eco.plain_writes, eco.silent_drops, eco.in_skipped) == (6, 0, 0), eco.drops
    kept = [i for i in intents if not (i["path"] == "src/q.sql" and i["line"] == 4)]
    eco = ecosystem.measure(tmp_path, {"findings": []}, kept, schedule, [])
    assert eco.drops == ["src/q.sql:4"]


def test_a_pipeline_no_bundle_defines_counts_apart_as_a_skipped_file(tmp_path):
    _project(tmp_path)
    (tmp_path / "databricks.yml").unlink()
    eco = ecosystem.measure(tmp_path, {"findings": []}, [], None, [])
    assert (eco.silent_drops, eco.in_skipped) == (0, 6)


def test_sql_in_python_text_that_defines_a_dataset_is_a_plain_write(tmp_path):
    (tmp_path / "job.py").write_text(
        'spark.sql("CREATE OR REFRESH MATERIALIZED VIEW main.s.mv AS SELECT 1")\n'
        'spark.sql("CREATE OR REFRESH STREAMING TABLE main.s.target")\n'
    )
    assert [(w.path, w.line) for w in ecosystem.plain_writes(tmp_path, [])] == [("job.py", 1)]
