"""Airflow DAGs of open-source Delta pipelines: a DAG that runs Spark itself (a
`SparkSubmitOperator`, `spark-submit` in a shell, a container or a Python callable)
runs project code as surely as one that starts a Databricks job. Such DAG files are
read although they never name Databricks or dbt, and the file each task submits
is the file it runs; a task whose file the text does not tell says so."""

from __future__ import annotations

from tests.test_link import _conflicts

MERGE = (
    "from pyspark.sql import SparkSession\n"
    "spark = SparkSession.builder.getOrCreate()\n"
    'spark.sql("MERGE INTO delta.`s3a://warehouse/audit/lifecycle` AS t USING s ON t.id = s.id '
    'WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT *")\n'
)
FETCH = "import json\nprint(json.dumps({'ok': True}))\n"  # no Spark, no table
HEAD = (
    "from datetime import datetime\n"
    "import os\n"
    "from airflow import DAG\n"
    "from airflow.operators.bash import BashOperator\n"
    "from airflow.operators.python import PythonOperator\n"
    "from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator\n"
    "from airflow.providers.docker.operators.docker import DockerOperator\n"
    "from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator\n"
)


def _dag(dag_id: str, schedule: str, task: str, before: str = "") -> str:
    return (
        HEAD
        + before
        + f'with DAG(dag_id="{dag_id}", start_date=datetime(2026, 1, 1), schedule={schedule}, '
        + "catchup=False, max_active_runs=1) as dag:\n"
        + f"    run = {task}\n"
    )


def _two(task_a: str, task_b: str, before: str = "", **files: str) -> dict[str, str]:
    """Two DAGs, every 15 minutes and a hand-started backfill, each with one task."""
    return {
        "dags/every15.py": _dag("every15", '"*/15 * * * *"', task_a, before),
        "dags/backfill.py": _dag("backfill", "None", task_b, before),
        **files,
    }


def _problems(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def test_a_dag_without_databricks_or_dbt_running_a_script_is_read(lint):
    a = 'BashOperator(task_id="merge", bash_command="spark-submit /opt/airflow/jobs/merge_audit.py")'
    b = 'BashOperator(task_id="merge", bash_command="python /opt/airflow/jobs/merge_audit.py")'
    assert _conflicts(lint(_two(a, b, **{"jobs/merge_audit.py": MERGE}))) == ["DL102"]


def test_a_dag_running_a_script_that_writes_no_table_finds_nothing(lint):
    task = 'BashOperator(task_id="fetch", bash_command="python /opt/airflow/jobs/fetch.py")'
    assert _conflicts(lint(_two(task, task, **{"jobs/fetch.py": FETCH}))) == []


def test_a_python_file_naming_airflow_without_a_dag_is_no_dag(lint):
    # a plugin or a helper: it names airflow, not a DAG; its text runs no task
    plugin = "from airflow.plugins_manager import AirflowPlugin\nclass P(AirflowPlugin):\n    name = 'p'\n"
    assert _conflicts(lint({"plugins/p.py": plugin, "jobs/a.py": MERGE, "jobs/b.py": MERGE})) == ["DL102"]
