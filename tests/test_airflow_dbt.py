"""dbt run from Airflow: a DAG task that runs `dbt` (a `BashOperator` command, the
dbt operators of airflow-dbt-python, astronomer-cosmos' `DbtTaskGroup`) is a
`dbt_task` of the DAG's job, so the models it selects are ordered and scheduled
as the DAG says."""

from __future__ import annotations

from tests.test_dbt import CLEANUP, ORDERS, PROJECT, STAGING

PROFILES = """\
shop:
  target: prod
  outputs:
    prod: {type: databricks, catalog: main, schema: analytics, host: x, http_path: y}
"""


def _files(dag: str) -> dict[str, str]:
    return {
        "proj/dbt_project.yml": PROJECT,
        "proj/profiles.yml": PROFILES,
        "proj/models/marts/orders.sql": ORDERS,
        "proj/models/stg_orders.sql": STAGING,
        "notebooks/cleanup.sql": CLEANUP,
        "dags/shop.py": dag,
    }


HEAD = """\
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator

with DAG(dag_id="shop", schedule="0 3 * * *", start_date=datetime(2024, 1, 1), catchup=False) as dag:
    cleanup = DatabricksSubmitRunOperator(
        task_id="cleanup", json={"sql_task": {"file": {"path": "/Workspace/Users/someone@example.com/shop/notebooks/cleanup.sql"}, "warehouse_id": "w"}}
    )
"""


def _conflicts(result) -> set[tuple[str, frozenset[str]]]:
    return {
        (f.table, frozenset({f.location.path, *(r.path for r in f.related)}))
        for f in result.findings
        if f.rule.startswith("DL1")
    }


MODEL = "proj/models/marts/orders.sql"


def _orders_conflict(result) -> bool:
    return any(t == "main.analytics_marts.orders" and MODEL in paths for t, paths in _conflicts(result))


def test_a_bash_dbt_command_in_parallel_with_a_delete_conflicts_and_chained_is_quiet(lint):
    run = '    dbt = BashOperator(task_id="dbt", bash_command="cd proj && dbt build --target prod")\n'
    assert _orders_conflict(lint(_files(HEAD + run + "    [dbt, cleanup]\n")))
    assert not _orders_conflict(lint(_files(HEAD + run + "    dbt >> cleanup\n")))


def test_a_bash_command_selects_models_and_a_non_dbt_command_runs_none(lint):
    # the selection leaves the orders model out: nothing of dbt meets the DELETE
    staging = '    dbt = BashOperator(task_id="dbt", bash_command="dbt run --project-dir proj -s stg_orders")\n'
    assert not _orders_conflict(lint(_files(HEAD + staging + "    [dbt, cleanup]\n")))
    # not a dbt run, though in parallel: the project is files run by hand, never paired
    other = '    dbt = BashOperator(task_id="dbt", bash_command="echo dbt build")\n'
    assert not _orders_conflict(lint(_files(HEAD + other + "    [dbt, cleanup]\n")))


def test_dbt_operators_of_airflow_dbt_python_run_their_selection(lint):
    head = HEAD.replace(
        "from airflow.operators.bash import BashOperator\n",
        "from airflow_dbt_python.operators.dbt import DbtBuildOperator\n",
    )
    run = '    dbt = DbtBuildOperator(task_id="dbt", project_dir="proj", profiles_dir="proj", select=["orders"])\n'
    assert _orders_conflict(lint(_files(head + run + "    [dbt, cleanup]\n")))
    assert not _orders_conflict(lint(_files(head + run + "    cleanup >> dbt\n")))


def test_a_cosmos_task_group_runs_its_project_in_the_dag_order(lint):
    head = HEAD.replace(
        "from airflow.operators.bash import BashOperator\n",
        "from cosmos import DbtTaskGroup, ProjectConfig, RenderConfig\n",
    )
    group = (
        '    dbt = DbtTaskGroup(group_id="dbt", project_config=ProjectConfig("proj"),\n'
        '                       render_config=RenderConfig(select=["path:models/marts"]))\n'
    )
    assert _orders_conflict(lint(_files(head + group + "    [dbt, cleanup]\n")))
    assert not _orders_conflict(lint(_files(head + group + "    dbt >> cleanup\n")))


def test_a_selection_the_text_does_not_tell_runs_every_model(lint):
    head = HEAD.replace(
        "from airflow.operators.bash import BashOperator\n",
        "import os\nfrom airflow_dbt_python.operators.dbt import DbtRunOperator\n",
    )
    # `select` known only when the DAG runs: never read as selecting nothing
    run = '    dbt = DbtRunOperator(task_id="dbt", project_dir="proj", select=[os.environ["MODELS"]])\n'
    assert _orders_conflict(lint(_files(head + run + "    [dbt, cleanup]\n")))
    assert not _orders_conflict(lint(_files(head + run + "    dbt >> cleanup\n")))
