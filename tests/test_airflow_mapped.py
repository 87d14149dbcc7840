"""A mapped Airflow task group (`group.expand(...)`): its tasks are read where it is
mapped, each run once per value, the copies side by side."""

from __future__ import annotations

from tests.test_airflow import NOTEBOOKS, _pairs
from tests.test_link import _conflicts

DAG = (
    "from airflow.decorators import dag, task, task_group\n"
    "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
    "ROOT = '/Repos/me/project/notebooks'\n"
    "@dag(schedule='@daily', catchup=False)\n"
    "def events():\n"
    "    @task\n"
    "    def days():\n"
    "        return ['2024-01-01', '2024-01-02']\n"
    "    @task_group\n"
    "    def prepare(day):\n"
    "        a = DatabricksNotebookOperator(task_id='load', notebook_path=f'{ROOT}/load'LIMIT)\n"
    "        b = DatabricksNotebookOperator(task_id='fix', notebook_path=f'{ROOT}/fix'LIMIT)\n"
    "        a >> b\n"
    "    CALL\n"
    "events()\n"
)


def _dag(call: str, limit: str = "") -> dict[str, str]:
    return {**NOTEBOOKS, "dags/events.py": DAG.replace("CALL", call).replace("LIMIT", limit)}


def test_a_mapped_task_group_runs_copies_of_its_tasks_side_by_side(lint):
    once = lint(_dag("prepare(day='2024-01-01')"))
    assert _conflicts(once) == []  # load, then fix, one run
    mapped = lint(_dag("prepare.expand(day=days())"))
    assert _pairs(mapped) == {("notebooks/load.py",), ("notebooks/fix.py",)}  # each copy beside the others
    one_at_a_time = lint(_dag("prepare.expand(day=days())", ", max_active_tis_per_dagrun=1"))
    assert _conflicts(one_at_a_time) == []
