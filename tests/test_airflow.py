"""Airflow DAGs that run Databricks notebooks: their tasks, order and schedule
are the schedule delta-lint judges, read from the DAG file's text."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from delta_lint.cli import app
from tests.test_link import NB, _conflicts

LOAD = NB + "spark.sql(\"UPDATE main.ops.events SET x = 1 WHERE kind = 'a'\")\n"
FIX = NB + "spark.sql(\"UPDATE main.ops.events SET x = 2 WHERE kind = 'b'\")\n"
AUDIT = NB + "spark.sql(\"DELETE FROM main.ops.events WHERE kind = 'c'\")\n"
NOTEBOOKS = {"notebooks/load.py": LOAD, "notebooks/fix.py": FIX, "notebooks/audit.py": AUDIT}

DAG = """\
from datetime import datetime

from airflow import DAG
from airflow.operators.empty import EmptyOperator
from airflow.providers.databricks.operators.databricks import (
    DatabricksNotebookOperator,
    DatabricksSubmitRunOperator,
)

BASE = "/Workspace/Users/someone@example.com/project"
CLUSTER = {"spark_version": "15.4.x-scala2.12", "num_workers": 2}

with DAG(
    dag_id="events",
    schedule="0 2 * * *",
    start_date=datetime(2024, 1, 1),
    catchup=False,
) as dag:
    start = EmptyOperator(task_id="start")
    load = DatabricksSubmitRunOperator(
        task_id="load",
        json={"new_cluster": CLUSTER, "notebook_task": {"notebook_path": f"{BASE}/notebooks/load"}},
    )
    fix = DatabricksNotebookOperator(
        task_id="fix", notebook_path=BASE + "/notebooks/fix", source="WORKSPACE", databricks_conn_id="db"
    )
    audit = DatabricksNotebookOperator(task_id="audit", notebook_path=f"{BASE}/notebooks/audit")
ORDER
"""


def _dag(order: str) -> dict[str, str]:
    return {**NOTEBOOKS, "dags/events.py": DAG.replace("ORDER", order)}


def _pairs(result) -> set[tuple[str, str]]:
    return {
        tuple(sorted({f.location.path, *(r.path for r in f.related)}))
        for f in result.findings
        if f.rule.startswith("DL1")
    }


def test_an_ordered_dag_is_quiet(lint):
    result = lint(_dag("    start >> load >> fix >> audit"))
    assert _conflicts(result) == []
    assert not [f for f in result.findings if f.rule in ("DL003", "DL006")]


def test_a_fan_out_runs_its_branches_in_parallel(lint):
    result = lint(_dag("    start >> load >> [fix, audit]"))
    assert _pairs(result) == {("notebooks/audit.py", "notebooks/fix.py")}  # load runs before both
    overlaps = [f.overlap for f in result.findings if f.rule.startswith("DL1")]
    assert "no dependency between them" in str(overlaps)


def test_lists_chain_and_upstream_order_as_airflow_does(lint):
    assert _conflicts(lint(_dag("    chain(start, load, fix, audit)"))) == []
    assert _conflicts(lint(_dag("    audit << fix << load"))) == []
    assert _conflicts(lint(_dag("    load.set_downstream(fix)\n    audit.set_upstream([fix])"))) == []
    assert _conflicts(lint(_dag("    [load, fix] >> audit"))) != []  # load and fix run side by side


def test_a_dag_decorator_and_an_assigned_dag_are_read(lint):
    decorated = (
        "from airflow.decorators import dag\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
        "@dag(schedule='@daily', catchup=False)\n"
        "def events():\n"
        "    root = '/Repos/me/project/notebooks'\n"
        "    a = DatabricksNotebookOperator(task_id='load', notebook_path=f'{root}/load')\n"
        "    b = DatabricksNotebookOperator(task_id='fix', notebook_path=f'{root}/fix')\n"
        "    ORDER\n"
        "events()\n"
    )
    files = {"notebooks/load.py": LOAD, "notebooks/fix.py": FIX}
    assert _conflicts(lint({**files, "dags/events.py": decorated.replace("ORDER", "a >> b")})) == []
    assert _conflicts(lint({**files, "dags/events.py": decorated.replace("ORDER", "pass")})) == ["DL102"]
    assigned = (
        "import airflow\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator as Nb\n"
        "dag = airflow.DAG('events', schedule_interval=None, max_active_runs=1)\n"
        "a = Nb(task_id='load', notebook_path='/Repos/me/project/notebooks/load', dag=dag)\n"
        "b = Nb(task_id='fix', notebook_path='/Repos/me/project/notebooks/fix', dag=dag)\n"
        "ORDER\n"
    )
    assert _conflicts(lint({**files, "dags/events.py": assigned.replace("ORDER", "b.set_upstream(a)")})) == []
    assert _conflicts(lint({**files, "dags/events.py": assigned.replace("ORDER", "")})) == ["DL102"]


def test_a_workflow_task_group_stands_for_its_tasks(lint):
    dag = (
        "from airflow import DAG\n"
        "from airflow.operators.empty import EmptyOperator\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksTaskOperator\n"
        "from airflow.providers.databricks.operators.databricks_workflow import DatabricksWorkflowTaskGroup\n"
        "with DAG('events', schedule='@hourly', max_active_runs=1):\n"
        "    with DatabricksWorkflowTaskGroup(group_id='wf', databricks_conn_id='db') as wf:\n"
        "        a = DatabricksTaskOperator(task_id='load', task_config={\n"
        "            'notebook_task': {'notebook_path': '/Repos/me/project/notebooks/load'}})\n"
        "        b = DatabricksTaskOperator(task_id='fix', task_config={\n"
        "            'notebook_task': {'notebook_path': '/Repos/me/project/notebooks/fix'}})\n"
        "        INNER\n"
        "    audit = DatabricksTaskOperator(task_id='audit', task_config={\n"
        "        'notebook_task': {'notebook_path': '/Repos/me/project/notebooks/audit'}})\n"
        "    wf >> audit\n"
    )
    ordered = lint({**NOTEBOOKS, "dags/events.py": dag.replace("INNER", "a >> b")})
    assert _conflicts(ordered) == []  # audit runs after the whole group
    parallel = lint({**NOTEBOOKS, "dags/events.py": dag.replace("INNER", "pass")})
    assert _pairs(parallel) == {("notebooks/fix.py", "notebooks/load.py")}


def test_a_multi_task_submit_run_orders_its_tasks(lint):
    dag = (
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator\n"
        "with DAG('events', schedule=None, max_active_runs=1):\n"
        "    run = DatabricksSubmitRunOperator(task_id='run', tasks=[\n"
        "        {'task_key': 'load', 'notebook_task': {'notebook_path': '/Repos/me/p/notebooks/load'}},\n"
        "        {'task_key': 'fix', DEPENDS'notebook_task': {'notebook_path': '/Repos/me/p/notebooks/fix'}},\n"
        "    ])\n"
    )
    files = {"notebooks/load.py": LOAD, "notebooks/fix.py": FIX}
    after = "'depends_on': [{'task_key': 'load'}], "
    assert _conflicts(lint({**files, "dags/events.py": dag.replace("DEPENDS", after)})) == []
    assert _conflicts(lint({**files, "dags/events.py": dag.replace("DEPENDS", "")})) == ["DL102"]


def test_concurrent_runs_of_a_dag_overlap(lint):
    one = _dag("    start >> load >> fix >> audit").copy()
    one["dags/events.py"] = one["dags/events.py"].replace("catchup=False,", "max_active_runs=3,")
    assert "DL102" in _conflicts(lint(one))  # three runs of the DAG at once


def test_two_dags_overlap_as_their_schedules_do(lint, tmp_path):
    two = {
        "notebooks/load.py": LOAD,
        "notebooks/fix.py": FIX,
        "dags/a.py": (
            "from airflow import DAG\n"
            "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
            "with DAG('a', schedule='0 1 * * *'):\n"
            "    DatabricksNotebookOperator(task_id='load', notebook_path='/Repos/me/p/notebooks/load')\n"
        ),
        "dags/b.py": (
            "from airflow import DAG\n"
            "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
            "with DAG('b', schedule='WHEN'):\n"
            "    DatabricksNotebookOperator(task_id='fix', notebook_path='/Repos/me/p/notebooks/fix')\n"
        ),
    }
    apart = lint({**two, "dags/b.py": two["dags/b.py"].replace("WHEN", "0 13 * * 1-5")})
    assert _conflicts(apart) == []  # 01:00 daily and 13:00 on weekdays, an hour each, never meet
    together = lint({**two, "dags/b.py": two["dags/b.py"].replace("WHEN", "30 1 * * *")})
    assert _conflicts(together) == ["DL102"]


def test_run_now_by_job_name_runs_a_job_of_the_project(lint):
    job = {
        "name": "events job",
        "tasks": [{"task_key": "fix", "notebook_task": {"notebook_path": "/Repos/me/p/notebooks/fix"}}],
    }
    dag = (
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import (\n"
        "    DatabricksNotebookOperator, DatabricksRunNowOperator)\n"
        "with DAG('events', schedule='@daily'):\n"
        "    load = DatabricksNotebookOperator(task_id='load', notebook_path='/Repos/me/p/notebooks/load')\n"
        "    run = DatabricksRunNowOperator(task_id='run', job_name=NAME)\n"
    )
    files = {"notebooks/load.py": LOAD, "notebooks/fix.py": FIX, "jobs/events.json": json.dumps(job)}
    known = lint({**files, "dags/events.py": dag.replace("NAME", "'events job'")})
    assert not [f for f in known.findings if f.rule == "DL006"]
    unknown = lint({**files, "dags/events.py": dag.replace("NAME", "'other job'")})
    messages = [f.message for f in unknown.findings if f.rule == "DL006"]
    assert messages and "no job definition of this project defines it" in messages[0]


def test_unknown_values_are_said_never_guessed(lint):
    dag = DAG.replace('f"{BASE}/notebooks/audit"', "Variable.get('audit_path')")
    result = lint({**NOTEBOOKS, "dags/events.py": dag.replace("ORDER", "    start >> load >> fix >> audit")})
    messages = [f.message for f in result.findings if f.rule == "DL006"]
    assert len(messages) == 1 and "audit" in messages[0] and "not static" in messages[0]
    missing = DAG.replace("/notebooks/audit", "/notebooks/missing")
    result = lint({**NOTEBOOKS, "dags/events.py": missing.replace("ORDER", "    start >> load >> fix >> audit")})
    messages = [f.message for f in result.findings if f.rule == "DL006"]
    assert len(messages) == 1 and "notebooks/missing` is not in this project" in messages[0]


def test_a_broken_dag_file_is_a_diagnostic_and_others_are_read(lint):
    broken = "from airflow import DAG\n# Databricks\nwith DAG('x') as dag:\n    x = (\n"
    result = lint({**_dag("    start >> load >> [fix, audit]"), "dags/broken.py": broken})
    problems = [f for f in result.findings if f.location.path == "dags/broken.py" and f.rule == "DL003"]
    assert problems and "not valid Python" in problems[0].message
    assert _pairs(result) == {("notebooks/audit.py", "notebooks/fix.py")}


def test_a_python_file_naming_databricks_without_airflow_is_no_dag(lint):
    text = "# Databricks notebook source\nDatabricksNotebookOperator = None\n"
    result = lint({**NOTEBOOKS, "tools/x.py": text})
    assert _conflicts(result) != []  # the notebooks are files no job runs: they meet


def test_the_schedule_command_draws_the_dag(tmp_path, monkeypatch):
    for name, text in _dag("    start >> load >> [fix, audit]").items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", str(tmp_path), "--all"]).output
    assert "Jobs from dags/events.py" in out
    assert "events (daily at 02:00" in out
    assert "fix after load: notebooks/fix.py" in out
    assert "events.audit ~ events.fix: tasks `audit` and `fix` of job `events` have no dependency" in out
    assert "events.fix ~ events.load" in out.split("Never overlap:")[1]


def test_a_workspace_folder_of_another_name_is_matched_by_the_file_name(lint):
    dag = (
        "import os\n"
        "from airflow.decorators import dag\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
        "WHO = os.getenv('WHO', 'me')\n"
        "@dag(schedule='@daily', catchup=False)\n"
        "def events():\n"
        "    a = DatabricksNotebookOperator(task_id='load', notebook_path=f'/Users/{WHO}/etl/load')\n"
        "    b = DatabricksNotebookOperator(task_id='fix', notebook_path=f'/Users/{WHO}/fix')\n"
        "events()\n"
    )
    deployed = {"databricks_notebooks/etl/load.py": LOAD, "databricks_notebooks/fix.py": FIX, "dags/events.py": dag}
    result = lint(deployed)
    assert not [f for f in result.findings if f.rule == "DL006"]
    assert _pairs(result) == {("databricks_notebooks/etl/load.py", "databricks_notebooks/fix.py")}
    # two files of the name, the longest matching tail decides: `etl/load` is the one under etl/
    result = lint({**deployed, "other/load.py": AUDIT})
    assert not [f for f in result.findings if f.rule == "DL006" and "load" in f.message]
    # two files of the name and nothing else to tell them apart: which one runs is not guessed
    result = lint({**deployed, "other/fix.py": AUDIT})
    messages = [f.message for f in result.findings if f.rule == "DL006"]
    assert len(messages) == 1 and "/fix` is not in this project" in messages[0]


def test_a_task_group_function_makes_its_tasks_where_it_is_called(lint):
    dag = (
        "from airflow.decorators import dag, task_group\n"
        "from airflow.models.baseoperator import chain\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
        "ROOT = '/Repos/me/project/notebooks'\n"
        "@dag(schedule='@daily', catchup=False)\n"
        "def events():\n"
        "    @task_group\n"
        "    def prepare():\n"
        "        a = DatabricksNotebookOperator(task_id='load', notebook_path=f'{ROOT}/load')\n"
        "        b = DatabricksNotebookOperator(task_id='fix', notebook_path=f'{ROOT}/fix')\n"
        "        a >> b\n"
        "        return a, b\n"
        "    made = prepare()\n"
        "    audit = DatabricksNotebookOperator(task_id='audit', notebook_path=f'{ROOT}/audit')\n"
        "    ORDER\n"
        "events()\n"
    )
    result = lint({**NOTEBOOKS, "dags/events.py": dag.replace("ORDER", "chain(made[1], audit)")})
    assert _conflicts(result) == [] and not [f for f in result.findings if f.rule == "DL006"]
    result = lint({**NOTEBOOKS, "dags/events.py": dag.replace("ORDER", "chain(made[0], audit)")})
    assert _pairs(result) == {("notebooks/audit.py", "notebooks/fix.py")}  # fix runs beside audit


def test_a_literal_workspace_path_is_matched_by_name_in_any_folder(lint):
    """A literal workspace path not found by its tail from the root is matched by its
    name in any folder, as a path whose folder only a run knows is (one walk of the
    project for every task of the load), and a note says it was matched by name."""
    dag = (
        "from airflow.decorators import dag\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
        "@dag(schedule='@daily', catchup=False)\n"
        "def events():\n"
        "    a = DatabricksNotebookOperator(task_id='load', notebook_path='/Users/me/load')\n"
        "events()\n"
    )
    result = lint({"databricks_notebooks/load.py": LOAD, "dags/events.py": dag})
    assert not [f for f in result.findings if f.rule == "DL006"]
    assert any("`/Users/me/load` as databricks_notebooks/load.py" in n for n in result.notes)
