"""A notebook that is both a Lakeflow pipeline's source and a job's task.

Such a notebook switches on a flag (`spark.conf.get("pipelines.id")`, a widget):
run by the pipeline it defines datasets, run by a job task it writes tables
itself. Before, it was read only as the pipeline's source: its job-mode writes
vanished, and its datasets were attributed to the job task too, so they were
paired with another job's update of the same pipeline. Now it is read both ways:
the datasets are written by the pipeline's updates alone (one at a time), the job
code by the job's task, and the datasets' queries are not read as the job's."""

from __future__ import annotations

_BUNDLE = """bundle:
  name: dual
resources:
  pipelines:
    medallion:
      name: medallion
      catalog: main
      target: demo
      libraries:
        - notebook:
            path: ./src/pipeline.py
  jobs:
    setup:
      name: setup
      tasks:
        - task_key: generate
          notebook_task:
            notebook_path: ./src/pipeline.py
            base_parameters:
              schema: demo
        - task_key: refresh
          depends_on:
            - task_key: generate
          pipeline_task:
            pipeline_id: ${resources.pipelines.medallion.id}
    nightly:
      name: nightly
      tasks:
        - task_key: refresh
          pipeline_task:
            pipeline_id: ${resources.pipelines.medallion.id}
    reload:
      name: reload
      tasks:
        - task_key: reload
          notebook_task:
            notebook_path: ./src/reload.py
"""

_CONF_FLAG = """# Databricks notebook source
try:
    import dlt
    IN_PIPELINE = spark.conf.get("pipelines.id", None) is not None
except Exception:
    IN_PIPELINE = False

if not IN_PIPELINE:
    spark.range(10).write.mode("overwrite").saveAsTable("main.demo.raw_events")

if IN_PIPELINE:
    @dlt.table(name="events_summary")
    def events_summary():
        return spark.read.table("main.demo.raw_events").groupBy("id").count()

    @dlt.table(name="bronze_events")
    def bronze_events():
        return spark.readStream.table("main.demo.raw_events")
"""

# the same switch made with a widget the job sets, and the table named by it
_WIDGET_FLAG = """# Databricks notebook source
import dlt

schema = dbutils.widgets.get("schema")
if schema:
    spark.range(10).write.mode("overwrite").saveAsTable(f"main.{schema}.raw_events")


@dlt.table(name="events_summary")
def events_summary():
    return spark.read.table("main.demo.raw_events").groupBy("id").count()
"""

_RELOAD = """# Databricks notebook source
spark.table("main.landing.events").write.mode("overwrite").saveAsTable("main.demo.{table}")
"""


def _run(lint, notebook: str, reloaded: str = "raw_events"):
    return lint(
        {
            "databricks.yml": _BUNDLE,
            "src/pipeline.py": notebook,
            "src/reload.py": _RELOAD.replace("{table}", reloaded),
        }
    )


def _conflicts(result) -> list[tuple[str, str, str, int]]:
    return sorted(
        (f.rule, f.table or "", f.location.path.rsplit("/", 1)[-1], f.location.line)
        for f in result.findings
        if f.rule.startswith("DL1")
    )


def test_the_job_mode_write_of_a_pipeline_notebook_is_read(lint):
    result = _run(lint, _CONF_FLAG)
    written = {
        (i.table.name, i.kind.value, i.subkind) for i in result.intents if i.location.path.endswith("pipeline.py")
    }
    assert ("main.demo.raw_events", "full_overwrite", None) in written
    assert ("main.demo.events_summary", "full_overwrite", "lakeflow") in written
    # the datasets' queries run in the pipeline's update, not in the job's task
    assert not any(i.kind.value == "streaming_read" for i in result.intents)
    assert _conflicts(result) == [("DL102", "main.demo.raw_events", "pipeline.py", 9)]
    found = next(f for f in result.findings if f.rule == "DL102")
    assert [r.path.rsplit("/", 1)[-1] for r in found.related] == ["reload.py"]


def test_a_dataset_is_not_paired_with_another_update_of_its_pipeline(lint):
    # near miss: `setup.refresh` and `nightly.refresh` update one pipeline, which runs
    # one update at a time; the job task `generate` never writes the dataset
    result = _run(lint, _CONF_FLAG, reloaded="raw_sessions")
    assert _conflicts(result) == []


def test_a_widget_switch_reads_the_job_write_with_the_task_values(lint):
    result = _run(lint, _WIDGET_FLAG)
    assert _conflicts(result) == [("DL102", "main.demo.raw_events", "pipeline.py", 6)]


def test_a_pipeline_source_no_job_task_runs_is_read_as_the_pipeline_only(lint):
    bundle = _BUNDLE.replace(
        """        - task_key: generate
          notebook_task:
            notebook_path: ./src/pipeline.py
            base_parameters:
              schema: demo
        - task_key: refresh
          depends_on:
            - task_key: generate
""",
        "        - task_key: refresh\n",
    )
    result = lint({"databricks.yml": bundle, "src/pipeline.py": _CONF_FLAG, "src/reload.py": _RELOAD})
    written = {(i.table.name, i.subkind) for i in result.intents if i.location.path.endswith("pipeline.py")}
    assert written == {("main.demo.events_summary", "lakeflow"), ("main.demo.bronze_events", "lakeflow")}
    assert _conflicts(result) == []


def test_a_pipeline_no_job_starts_and_a_job_task_running_its_notebook(lint):
    # the pipeline runs by itself (its own update, by hand); the job task `generate`
    # runs the notebook: its job code is the task's, its datasets the pipeline's
    bundle = _BUNDLE.replace(
        """        - task_key: refresh
          depends_on:
            - task_key: generate
          pipeline_task:
            pipeline_id: ${resources.pipelines.medallion.id}
    nightly:
      name: nightly
      tasks:
        - task_key: refresh
          pipeline_task:
            pipeline_id: ${resources.pipelines.medallion.id}
""",
        "",
    )
    result = lint(
        {
            "databricks.yml": bundle,
            "src/pipeline.py": _CONF_FLAG,
            "src/reload.py": _RELOAD.replace("{table}", "raw_events"),
        }
    )
    assert _conflicts(result) == [("DL102", "main.demo.raw_events", "pipeline.py", 9)]
    assert not any(d.rule == "DL001" for d in result.diagnostics)


def test_a_jupyter_pipeline_notebooks_job_code_keeps_its_sql_cells(lint):
    """A Jupyter (`.ipynb`) pipeline notebook a job task runs too: the pipeline reads
    its Python cells, the job task the whole notebook, `%sql` cells included."""
    import json

    cells = [
        "import dlt",
        "%sql\nINSERT OVERWRITE main.demo.raw_events SELECT * FROM main.demo.landing",
        '@dlt.table(name="events_summary")\ndef events_summary():\n    return spark.read.table("main.demo.raw_events")',
    ]
    notebook = json.dumps(
        {
            "cells": [{"cell_type": "code", "metadata": {}, "source": c.splitlines(keepends=True)} for c in cells],
            "metadata": {"language_info": {"name": "python"}},
            "nbformat": 4,
            "nbformat_minor": 0,
        },
        indent=1,
    )
    result = lint(
        {
            "databricks.yml": _BUNDLE.replace("pipeline.py", "pipeline.ipynb"),
            "src/pipeline.ipynb": notebook,
            "src/reload.py": _RELOAD.replace("{table}", "raw_events"),
        }
    )
    written = {(i.table.name, i.subkind) for i in result.intents if i.location.path.endswith("pipeline.ipynb")}
    assert ("main.demo.events_summary", "lakeflow") in written
    assert ("main.demo.raw_events", None) in written
