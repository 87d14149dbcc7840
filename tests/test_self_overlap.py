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
