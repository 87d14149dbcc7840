"""A job with no schedule of its own that another job's task starts
(`run_job_task`, Airflow's `DatabricksRunNowOperator`) runs in that task's
place in its parent's order, not by hand at any time."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from delta_lint.cli import app
from tests.test_link import NB, _conflicts

LOAD = NB + "spark.sql(\"UPDATE main.ops.events SET x = 1 WHERE kind = 'a'\")\n"
FIX = NB + "spark.sql(\"UPDATE main.ops.events SET x = 2 WHERE kind = 'b'\")\n"
NOTEBOOKS = {"src/load.py": LOAD, "src/fix.py": FIX}

BUNDLE = """\
bundle:
  name: events
resources:
  jobs:
    nightly:
      schedule:
        quartz_cron_expression: 0 0 2 * * ?
        timezone_id: UTC
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: ./src/load.py
        - task_key: run_fix
DEPENDS
          run_job_task:
            job_id: ${resources.jobs.fix.id}
    fix:
CHILD
      tasks:
        - task_key: fix
          notebook_task:
            notebook_path: ./src/fix.py
"""
AFTER_LOAD = "          depends_on:\n            - task_key: load"


def _bundle(depends: str, child: str = "") -> dict[str, str]:
    text = BUNDLE.replace("DEPENDS\n", depends + "\n" if depends else "").replace("CHILD\n", child)
    return {**NOTEBOOKS, "databricks.yml": text}


def test_a_started_job_runs_after_what_its_parent_task_waits_for(lint):
    assert _conflicts(lint(_bundle(AFTER_LOAD))) == []


def test_a_started_job_beside_a_parallel_task_overlaps_it(lint):
    result = lint(_bundle(""))
    assert _conflicts(result) == ["DL102"]
    assert "job `fix` runs in task `run_fix` of job `nightly`" in str([f.overlap for f in result.findings])


def test_a_started_job_with_a_schedule_of_its_own_still_meets_its_parent(lint):
    own = "      schedule:\n        quartz_cron_expression: 0 30 2 * * ?\n        timezone_id: UTC\n"
    assert _conflicts(lint(_bundle(AFTER_LOAD, own))) == ["DL102"]  # its own 02:30 run meets load's


def test_an_airflow_run_now_orders_the_job_it_starts(lint):
    job = {
        "name": "events fix",
        "tasks": [{"task_key": "fix", "notebook_task": {"notebook_path": "/Repos/me/p/src/fix"}}],
    }
    dag = (
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import (\n"
        "    DatabricksNotebookOperator, DatabricksRunNowOperator)\n"
        "with DAG('events', schedule='@daily', catchup=False):\n"
        "    load = DatabricksNotebookOperator(task_id='load', notebook_path='/Repos/me/p/src/load')\n"
        "    fix = DatabricksRunNowOperator(task_id='fix', job_name='events fix')\n"
        "ORDER\n"
    )
    files = {**NOTEBOOKS, "jobs/fix.json": json.dumps(job)}
    assert _conflicts(lint({**files, "dags/events.py": dag.replace("ORDER", "    load >> fix")})) == []
    assert _conflicts(lint({**files, "dags/events.py": dag.replace("ORDER", "")})) == ["DL102"]


def test_the_schedule_command_draws_the_started_job_in_order(tmp_path, monkeypatch):
    for name, text in _bundle(AFTER_LOAD).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", str(tmp_path), "--all"]).output
    never = out.split("Never overlap:")[1]
    assert "fix.fix ~ nightly.load: job `fix` runs in task `run_fix` of job `nightly`" in never
