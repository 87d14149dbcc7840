"""Two runs of one job that parameters keep apart (a write confined to the partition a
job parameter or widget names) conflict when two runs get the same value: a run
started by hand, a rerun or a duplicate trigger beside one still running. The pair is
never silently assumed apart: it is reported at `info`, naming the parameter. Runs a
for_each task makes from its inputs, and writes apart by literal values, stay quiet."""

from __future__ import annotations

SETUP = "CREATE TABLE IF NOT EXISTS s.dest (day DATE, id BIGINT) USING DELTA PARTITIONED BY (day);\n"


def _bundle(path: str, runs: int = 10, task_extra: str = "") -> str:
    return f"""\
bundle: {{name: b}}
targets: {{prod: {{default: true}}}}
resources:
  jobs:
    load:
      max_concurrent_runs: {runs}
      tasks:
        - task_key: load
          notebook_task: {{notebook_path: ./{path}, base_parameters: {{day: ""}}}}
{task_extra}"""


WIDGET_REPLACE_WHERE = """\
# Databricks notebook source
day = dbutils.widgets.get("day")
df = spark.table("s.src").where(f"day = '{day}'")
df.write.format("delta").mode("overwrite").option("replaceWhere", f"day = '{day}'").saveAsTable("s.dest")
"""

PARAM_INSERT_OVERWRITE = "INSERT OVERWRITE s.dest PARTITION (day = :day) SELECT id FROM s.src WHERE day = :day;\n"

PARAM_MERGE = """\
MERGE INTO s.dest t USING s.src s ON t.id = s.id AND t.day = :day
WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
"""


def _shown(result) -> list[tuple[str, str, str | None]]:
    return [(f.rule, f.severity, f.overlap_basis) for f in result.findings]


def test_a_widget_keyed_replace_where_meets_a_run_given_the_same_value(lint):
    result = lint({"setup.sql": SETUP, "load.py": WIDGET_REPLACE_WHERE, "databricks.yml": _bundle("load.py")})
    assert _shown(result) == [("DL102", "info", "same-value")]
    (finding,) = result.findings
    assert "different values of `day`" in finding.message
    assert finding.verdict == "data-dependent"


def test_a_parameter_keyed_insert_overwrite_partition_meets_the_same_way(lint):
    result = lint({"setup.sql": SETUP, "load.sql": PARAM_INSERT_OVERWRITE, "databricks.yml": _bundle("load.sql")})
    assert [(r, sev, basis) for r, sev, basis in _shown(result)] == [("DL102", "info", "same-value")]
    assert "`day`" in result.findings[0].message


def test_a_merge_confined_by_a_parameter_meets_the_same_way(lint):
    result = lint({"setup.sql": SETUP, "load.sql": PARAM_MERGE, "databricks.yml": _bundle("load.sql")})
    assert _shown(result) == [("DL102", "info", "same-value")]


def test_one_run_at_a_time_stays_quiet(lint):
    files = {"setup.sql": SETUP, "load.py": WIDGET_REPLACE_WHERE, "databricks.yml": _bundle("load.py", runs=1)}
    assert lint(files).findings == []


def test_iterations_of_a_for_each_over_their_own_inputs_stay_quiet(lint):
    bundle = """\
bundle: {name: b}
targets: {prod: {default: true}}
resources:
  jobs:
    load:
      tasks:
        - task_key: fan
          for_each_task:
            inputs: '["2024-01-01", "2024-01-02"]'
            concurrency: 2
            task:
              task_key: fan_iteration
              notebook_task: {notebook_path: ./load.py, base_parameters: {day: "{{input}}"}}
"""
    assert lint({"setup.sql": SETUP, "load.py": WIDGET_REPLACE_WHERE, "databricks.yml": bundle}).findings == []


def test_a_literal_partition_is_still_an_error(lint):
    literal = WIDGET_REPLACE_WHERE.replace("f\"day = '{day}'\").saveAsTable", "\"day = '2024-01-01'\").saveAsTable")
    result = lint({"setup.sql": SETUP, "load.py": literal, "databricks.yml": _bundle("load.py")})
    assert _shown(result) == [("DL102", "error", "schedule")]


def test_a_configured_job_with_concurrent_runs_is_judged_alike(lint):
    files = {"setup.sql": SETUP, "load.sql": PARAM_INSERT_OVERWRITE}
    result = lint(files, {"jobs": {"load": {"paths": ["load.sql"], "concurrent_runs": 3}}})
    assert _shown(result) == [("DL102", "info", "same-value")]


def test_iterations_of_a_for_each_share_a_task_parameter(lint):
    """The iterations differ in their `{{input}}` alone: a partition named by a
    parameter every iteration gets alike is one partition."""
    bundle = """\
bundle: {name: b}
targets: {prod: {default: true}}
resources:
  jobs:
    load:
      parameters: [{name: day, default: ""}]
      tasks:
        - task_key: fan
          for_each_task:
            inputs: '["eu", "us"]'
            concurrency: 2
            task:
              task_key: fan_iteration
              notebook_task:
                notebook_path: ./load.py
                base_parameters: {day: "{{job.parameters.day}}", region: "{{input}}"}
"""
    result = lint({"setup.sql": SETUP, "load.py": WIDGET_REPLACE_WHERE, "databricks.yml": bundle})
    assert [(f.rule, f.severity, f.overlap_basis) for f in result.findings] == [("DL102", "error", "schedule")]
    assert "share `day`" in result.findings[0].message
