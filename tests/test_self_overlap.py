"""Writes that overlap themselves: a job whose runs may overlap (`max_concurrent_runs`
read from every reader of job definitions), and the calls of one run that a thread
pool makes at the same time."""

from __future__ import annotations

import pytest

from tests.test_link import NB, _conflicts

LOAD = NB + "spark.sql(\"UPDATE main.ops.events SET x = 1 WHERE kind = 'a'\")\n"
NOTEBOOK = {"notebooks/load.py": LOAD}
TASKS = '[{"task_key": "load", "notebook_task": {"notebook_path": "/Repos/me/project/notebooks/load"}}]'


def _overlaps(result) -> list[str]:
    return sorted(f.overlap for f in result.findings if f.rule.startswith("DL1"))


# -- runs of one job ---------------------------------------------------------------------

SDK_UPDATE = """\
from databricks.sdk import WorkspaceClient
from databricks.sdk.service.jobs import JobSettings, NotebookTask, Task

w = WorkspaceClient()
w.jobs.update(
    job_id,
    new_settings=JobSettings(
        name="events",
        max_concurrent_runs=RUNS,
        tasks=[Task(task_key="load", notebook_task=NotebookTask(notebook_path="/Repos/me/project/notebooks/load"))],
    ),
)
"""

SDK_SPREAD = f"""\
from databricks.sdk import WorkspaceClient


def deploy(w: WorkspaceClient) -> None:
    settings = {{"name": "events", "max_concurrent_runs": RUNS, "tasks": {TASKS}}}
    w.jobs.create(**settings)
"""

RESET_BODY = f'{{"job_id": 7, "new_settings": {{"name": "events", "max_concurrent_runs": RUNS, "tasks": {TASKS}}}}}'

AIRFLOW_CREATE = f"""\
from airflow import DAG
from airflow.providers.databricks.operators.databricks import DatabricksCreateJobsOperator

with DAG("deploy", schedule=None) as dag:
    DatabricksCreateJobsOperator(task_id="create", json={{"name": "events", "max_concurrent_runs": RUNS, "tasks": {TASKS}}})
"""

AIRFLOW_CREATE_KEYWORDS = f"""\
from airflow import DAG
from airflow.providers.databricks.operators.databricks import DatabricksCreateJobsOperator

TASKS = {TASKS}
with DAG("deploy", schedule=None) as dag:
    DatabricksCreateJobsOperator(task_id="create", name="events", tasks=TASKS, max_concurrent_runs=RUNS)
"""

DEFINITIONS = {
    "sdk-update": "deploy/install.py",
    "sdk-spread": "deploy/install.py",
    "reset-body": "deploy/reset.json",
    "airflow-create-json": "dags/deploy.py",
    "airflow-create-keywords": "dags/deploy.py",
}
TEXTS = {
    "sdk-update": SDK_UPDATE,
    "sdk-spread": SDK_SPREAD,
    "reset-body": RESET_BODY,
    "airflow-create-json": AIRFLOW_CREATE,
    "airflow-create-keywords": AIRFLOW_CREATE_KEYWORDS,
}


@pytest.mark.parametrize("reader", sorted(DEFINITIONS))
def test_a_job_that_allows_concurrent_runs_pairs_its_write_with_itself(lint, reader):
    result = lint({**NOTEBOOK, DEFINITIONS[reader]: TEXTS[reader].replace("RUNS", "4")})
    assert _conflicts(result) == ["DL102"]
    assert _overlaps(result) == ["job `events` allows 4 concurrent runs (with the same parameters)"]


@pytest.mark.parametrize("reader", sorted(DEFINITIONS))
def test_a_job_that_runs_one_run_at_a_time_does_not_pair_its_write_with_itself(lint, reader):
    result = lint({**NOTEBOOK, DEFINITIONS[reader]: TEXTS[reader].replace("RUNS", "1")})
    assert _conflicts(result) == []
    # the job was read (its task runs the notebook): it is not a file run by hand
    assert not [f for f in result.findings if f.rule == "DL006"]


def test_an_sdk_update_without_tasks_defines_no_job(lint):
    text = SDK_UPDATE.replace(
        'tasks=[Task(task_key="load", notebook_task=NotebookTask(notebook_path="/Repos/me/project/notebooks/load"))],',
        "",
    )
    result = lint({**NOTEBOOK, "deploy/install.py": text.replace("RUNS", "4")})
    assert _conflicts(result) == []


BUNDLE = """\
bundle:
  name: events
resources:
  jobs:
    events:
      max_concurrent_runs: 4
CONTINUOUS
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: notebooks/load.py
"""


def test_a_continuous_job_runs_one_run_at_a_time_whatever_its_maximum(lint):
    continuous = lint({**NOTEBOOK, "databricks.yml": BUNDLE.replace("CONTINUOUS", "      continuous: {}")})
    assert _conflicts(continuous) == []
    paused = "      continuous:\n        pause_status: PAUSED"
    assert _conflicts(lint({**NOTEBOOK, "databricks.yml": BUNDLE.replace("CONTINUOUS", paused)})) == []


def test_a_triggered_job_with_concurrent_runs_still_pairs_its_write(lint):
    trigger = "      trigger:\n        file_arrival:\n          url: /Volumes/main/raw/events/"
    result = lint({**NOTEBOOK, "databricks.yml": BUNDLE.replace("CONTINUOUS", trigger)})
    assert _overlaps(result) == ["job `events` allows 4 concurrent runs (with the same parameters)"]


TERRAFORM = """\
resource "databricks_job" "events" {
  name                = "events"
  max_concurrent_runs = 4
BLOCK
  task {
    task_key = "load"
    notebook_task {
      notebook_path = "/Repos/me/project/notebooks/load"
    }
  }
}
"""


def test_a_continuous_terraform_job_runs_one_run_at_a_time(lint):
    continuous = '  continuous {\n    pause_status = "UNPAUSED"\n  }'
    assert _conflicts(lint({**NOTEBOOK, "infra/job.tf": TERRAFORM.replace("BLOCK", continuous)})) == []
    result = lint({**NOTEBOOK, "infra/job.tf": TERRAFORM.replace("BLOCK\n", "")})
    assert _overlaps(result) == ["job `events` allows 4 concurrent runs (with the same parameters)"]


def test_a_terraform_trigger_is_read_as_the_jobs_trigger(tmp_path):
    from delta_lint.terraform import load_found_terraform

    trigger = '  trigger {\n    file_arrival {\n      url = "/Volumes/main/raw/events/"\n    }\n  }'
    (tmp_path / "job.tf").write_text(TERRAFORM.replace("BLOCK", trigger), encoding="utf-8")
    job = load_found_terraform(tmp_path).jobs["events"]
    assert job.trigger == "a file-arrival trigger" and job.max_concurrent_runs == 4 and not job.continuous


def test_an_airflow_continuous_dag_runs_one_run_at_a_time(tmp_path):
    from delta_lint.airflow import load_found_airflow

    dag = (
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n\n"
        'with DAG("events", schedule="@continuous", max_active_runs=MAX) as dag:\n'
        '    DatabricksNotebookOperator(task_id="load", notebook_path="/Repos/me/project/notebooks/load")\n'
    )
    (tmp_path / "dag.py").write_text(dag.replace("MAX", "3"), encoding="utf-8")
    job = load_found_airflow(tmp_path).jobs["events"]
    assert job.continuous and job.max_concurrent_runs == 1
    (tmp_path / "dag.py").write_text(dag.replace("@continuous", "@hourly").replace("MAX", "3"), encoding="utf-8")
    assert load_found_airflow(tmp_path).jobs["events"].max_concurrent_runs == 3
