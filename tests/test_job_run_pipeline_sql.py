"""Databricks SQL a job runs (a `sql_task` file, a SQL notebook task) that reads like
a Lakeflow pipeline's source (`CREATE OR REFRESH STREAMING TABLE ... AS`) is job
code when no pipeline of the project has it: its streaming tables and materialized
views are said (a pipeline of their own refreshes them), never skipped silently.
The same file as a pipeline's source is read by the pipeline; one nothing runs
stays skipped as a pipeline's source."""

from __future__ import annotations

BUNDLE = "bundle:\n  name: b\ninclude:\n  - resources/*.yml\ntargets:\n  dev:\n    default: true\n"
JOB = """\
resources:
  jobs:
    j:
      name: j
      tasks:
        - task_key: a
          sql_task:
            warehouse_id: abc
            file: {path: ../src/setup.sql}
        - task_key: b
          notebook_task: {notebook_path: ../src/views.sql}
"""
PIPELINE = """\
resources:
  pipelines:
    p:
      name: p
      catalog: c
      schema: s
      libraries:
        - file: {path: ../src/setup.sql}
"""
SETUP = 'CREATE OR REFRESH STREAMING TABLE c.s.bronze\nAS SELECT * FROM STREAM read_files("/Volumes/c/s/v/x.csv");\n'
VIEWS = "-- Databricks notebook source\nCREATE OR REFRESH MATERIALIZED VIEW c.s.mv AS SELECT count(*) AS n FROM c.s.bronze;\n"


def _files(resources: dict[str, str]) -> dict[str, str]:
    return {"databricks.yml": BUNDLE, "src/setup.sql": SETUP, "src/views.sql": VIEWS, **resources}


def _said(result) -> list[tuple[str, int, str]]:
    return sorted((d.location.path, d.location.line, d.rule) for d in result.diagnostics if d.rule == "DL006")


def test_pipeline_objects_of_sql_a_job_runs_are_said(lint):
    result = lint(_files({"resources/job.yml": JOB}))
    assert _said(result) == [("src/setup.sql", 1, "DL006"), ("src/views.sql", 2, "DL006")]
    assert not result.skipped


def test_the_same_sql_as_a_pipelines_source_is_the_pipelines(lint):
    result = lint(_files({"resources/pipeline.yml": PIPELINE}))
    assert [(i.location.path, i.table.name) for i in result.intents if i.table] == [("src/setup.sql", "c.s.bronze")]
    assert _said(result) == []


def test_pipeline_looking_sql_nothing_runs_stays_skipped(lint):
    result = lint(_files({}))
    assert _said(result) == [] and not result.intents
    assert set(result.skipped) == {"src/setup.sql", "src/views.sql"}
