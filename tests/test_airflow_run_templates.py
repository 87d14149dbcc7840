"""Airflow fills a templated operator parameter (`"{{ ds }}"`, `"{{ run_id }}"`) once
per DAG run. Two runs of one DAG that overlap (`max_active_runs` above one) write
apart when a widget keyed write is confined by such a parameter only when the
template's values differ between any two runs: `{{ run_id }}`, `{{ ts }}` and the
logical date always do (Airflow keeps them unique per DAG), `{{ ds }}` does on a
schedule that starts at most one run a day. Where they do, no finding (a note says a
run started by hand may repeat one); where the schedule runs more often, the runs of
one day share `{{ ds }}` and the pair is judged as one value; a literal parameter
of another template stays the same-value `info` finding (a literal is one value for
every run, as before)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

SETUP = "CREATE TABLE IF NOT EXISTS s.dest (day STRING, id BIGINT) USING DELTA PARTITIONED BY (day);\n"

WIDGET_REPLACE_WHERE = """\
# Databricks notebook source
day = dbutils.widgets.get("day")
df = spark.table("s.src").where(f"day = '{day}'")
df.write.format("delta").mode("overwrite").option("replaceWhere", f"day = '{day}'").saveAsTable("s.dest")
"""


def _dag(schedule: str, value: str, runs: int = 4, operator: str = "notebook") -> str:
    if operator == "notebook":
        task = (
            '    DatabricksNotebookOperator(task_id="load", notebook_path="/Repos/etl/load", source="WORKSPACE",\n'
            f'        notebook_params={{"day": {value!r}}})\n'
        )
    else:  # the Jobs API document of a one-time run
        task = (
            '    DatabricksSubmitRunOperator(task_id="load", json={"notebook_task": '
            f'{{"notebook_path": "/Repos/etl/load", "base_parameters": {{"day": {value!r}}}}}}})\n'
        )
    return (
        "from datetime import datetime\n"
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import (\n"
        "    DatabricksNotebookOperator, DatabricksSubmitRunOperator)\n"
        f'with DAG("daily_load", schedule={schedule}, start_date=datetime(2026, 1, 1), max_active_runs={runs}):\n'
        f"{task}"
    )


def _files(schedule: str, value: str, **kw) -> dict[str, str]:
    return {"setup.sql": SETUP, "etl/load.py": WIDGET_REPLACE_WHERE, "dags/load.py": _dag(schedule, value, **kw)}


def _shown(result) -> list[tuple[str, str, str | None]]:
    return [(f.rule, f.severity, f.overlap_basis) for f in result.findings]


@pytest.mark.parametrize("schedule", ['"@daily"', '"30 2 * * *"', '"@weekly"', '"0 6 * * 1-5"'])
@pytest.mark.parametrize("operator", ["notebook", "submit"])
def test_ds_of_a_schedule_at_most_daily_keeps_runs_apart(lint, schedule, operator):
    assert _shown(lint(_files(schedule, "{{ ds }}", operator=operator))) == []


@pytest.mark.parametrize(
    "value", ["{{ run_id }}", "{{ ts_nodash }}", "{{logical_date}}", "day={{ data_interval_start | ts }}"]
)
@pytest.mark.parametrize("schedule", ['"@hourly"', '"*/5 * * * *"', '"@daily"'])
def test_a_value_of_its_own_per_run_keeps_runs_apart_on_any_schedule(lint, value, schedule):
    assert _shown(lint(_files(schedule, value))) == []


@pytest.mark.parametrize("value", ["{{ ds }}", "{{ ds_nodash }}", "{{ data_interval_end | ds }}"])
@pytest.mark.parametrize("schedule", ['"@hourly"', '"0 */6 * * *"', '"0 1,13 * * *"'])
def test_ds_of_a_schedule_several_times_a_day_is_one_value_for_the_day_s_runs(lint, value, schedule):
    result = lint(_files(schedule, value))
    assert _shown(result) == [("DL102", "error", "schedule")]
    (finding,) = result.findings
    assert finding.verdict == "certain"
    assert "one value for all the runs of a day" in finding.overlap
    assert "runs that overlap get the same value of `day`" in finding.message


def test_a_literal_parameter_is_one_value_for_every_run(lint):
    """Not a template: every run is given the same day, as before."""
    assert _shown(lint(_files('"@daily"', "2026-01-01"))) == [("DL102", "error", "schedule")]


@pytest.mark.parametrize("value", ["{{ params.day }}", "{{ dag_run.conf['day'] }}", "{{ ds }}-{{ params.shard }}"])
def test_another_template_stays_the_same_value_finding(lint, value):
    result = lint(_files('"@daily"', value))
    assert _shown(result) == [("DL102", "info", "same-value")]
    assert "different values of `day`" in result.findings[0].message


def test_ds_of_a_dag_started_by_hand_stays_the_same_value_finding(lint):
    """No schedule, no period: two triggers of one day share `{{ ds }}`, two of two days do not."""
    assert _shown(lint(_files("None", "{{ ds }}"))) == [("DL102", "info", "same-value")]


def test_one_run_at_a_time_stays_quiet_whatever_the_template(lint):
    assert _shown(lint(_files('"@hourly"', "{{ ds }}", runs=1))) == []


def test_a_note_says_a_run_started_by_hand_may_repeat_the_value(tmp_path: Path):
    for rel, text in _files('"@daily"', "{{ ds }}").items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    notes = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)["notes"]
    said = [n for n in notes if "parameter `day`" in n]
    assert len(said) == 1, notes
    assert "Airflow's `{{ ds }}`" in said[0]
    assert "a run started by hand may repeat one" in said[0]
