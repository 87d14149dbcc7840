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


SUBMIT = 'SparkSubmitOperator(task_id="merge", conn_id="spark", application="/opt/airflow/jobs/merge_audit.py")'


def test_two_dags_submitting_one_spark_script_meet(lint):
    # no Databricks or dbt word anywhere: the DAGs are still read, and the two runs meet
    result = lint(_two(SUBMIT, SUBMIT, **{"jobs/merge_audit.py": MERGE}))
    assert _conflicts(result) == ["DL102"]


def test_a_dag_without_databricks_or_dbt_running_a_script_is_read(lint):
    a = 'BashOperator(task_id="merge", bash_command="spark-submit /opt/airflow/jobs/merge_audit.py")'
    b = 'BashOperator(task_id="merge", bash_command="python /opt/airflow/jobs/merge_audit.py")'
    assert _conflicts(lint(_two(a, b, **{"jobs/merge_audit.py": MERGE}))) == ["DL102"]


def test_the_application_from_a_name_or_a_joined_path_is_read(lint):
    before = 'JOBS = "/opt/airflow/jobs"\nAPP = os.path.join(JOBS, "merge_audit.py")\n'
    a = 'SparkSubmitOperator(task_id="merge", application=APP)'
    b = 'SparkSubmitOperator(task_id="merge", application=f"{JOBS}/merge_audit.py")'
    assert _conflicts(lint(_two(a, b, before, **{"jobs/merge_audit.py": MERGE}))) == ["DL102"]


def test_a_dag_read_beside_an_unmarked_one_no_longer_leaves_its_script_by_hand(lint):
    # one DAG names dbt (read before), the other does not: both run the script
    files = _two(
        'BashOperator(task_id="merge", bash_command="spark-submit --master spark://m:7077 /opt/airflow/jobs/merge_audit.py")',
        'BashOperator(task_id="merge", bash_command="python /opt/airflow/jobs/merge_audit.py")',
        **{"jobs/merge_audit.py": MERGE},
    )
    files["dags/every15.py"] = "# dbt runs elsewhere\n" + files["dags/every15.py"]
    assert _conflicts(lint(files)) == ["DL102"]


def test_a_container_running_spark_submit_runs_the_file_its_image_copies(lint):
    docker = (
        'DockerOperator(task_id="merge", image="etl:latest", '
        'command="spark-submit --conf spark.sql.shuffle.partitions=8 /app/jobs/merge_audit.py")'
    )
    pod = (
        'KubernetesPodOperator(task_id="merge", name="merge", image="etl:latest", cmds=["spark-submit"], '
        'arguments=["--master", MASTER, "/app/jobs/merge_audit.py"])'
    )
    files = _two(
        docker,
        pod,
        'MASTER = os.environ["SPARK_MASTER"]\n',
        **{
            "etl/jobs/merge_audit.py": MERGE,
            "legacy/jobs/merge_audit.py": MERGE,  # the tail alone would be two files
            "etl/Dockerfile": "FROM bitnami/spark:3.5\nWORKDIR /app\nCOPY jobs/ /app/jobs/\n",
        },
    )
    result = lint(files)
    assert _conflicts(result) == ["DL102"]
    assert not _problems(result)


def test_a_shell_in_a_container_running_a_script_runs_it(lint):
    pod = (
        'KubernetesPodOperator(task_id="merge", name="m", image="etl", cmds=["bash", "-c"], '
        'arguments=["cd /opt/airflow/jobs && spark-submit merge_audit.py"])'
    )
    assert _conflicts(lint(_two(SUBMIT, pod, **{"jobs/merge_audit.py": MERGE}))) == ["DL102"]


def test_a_python_callable_that_runs_spark_submit_runs_the_script(lint):
    before = (
        "import subprocess\n"
        "def submit(**context):\n"
        '    subprocess.run(["spark-submit", "--master", context["master"], "/opt/airflow/jobs/merge_audit.py"], '
        "check=True)\n"
    )
    task = 'PythonOperator(task_id="merge", python_callable=submit)'
    assert _conflicts(lint(_two(task, task, before, **{"jobs/merge_audit.py": MERGE}))) == ["DL102"]


def test_a_dag_running_a_script_that_writes_no_table_finds_nothing(lint):
    task = 'BashOperator(task_id="fetch", bash_command="python /opt/airflow/jobs/fetch.py")'
    assert _conflicts(lint(_two(task, task, **{"jobs/fetch.py": FETCH}))) == []


def test_a_submitted_file_the_project_lacks_is_reported_not_paired(lint):
    task = 'SparkSubmitOperator(task_id="merge", application="/opt/airflow/jobs/missing.py")'
    result = lint(_two(task, task, **{"jobs/merge_audit.py": MERGE}))
    assert _conflicts(result) == []
    assert any("missing.py" in m for m in _problems(result)), _problems(result)


def test_a_jar_runs_no_python_file_and_an_unknown_application_says_so(lint):
    jar = 'SparkSubmitOperator(task_id="merge", application="/opt/jobs/merge.jar", java_class="Merge")'
    unknown = 'SparkSubmitOperator(task_id="merge", application=os.environ["APP"])'
    result = lint(_two(jar, unknown, **{"jobs/merge_audit.py": MERGE}))
    assert _conflicts(result) == []
    assert any("application of `SparkSubmitOperator` is not static" in m for m in _problems(result))


def test_a_python_file_naming_airflow_without_a_dag_is_no_dag(lint):
    # a plugin or a helper: it names airflow, not a DAG; its text runs no task
    plugin = "from airflow.plugins_manager import AirflowPlugin\nclass P(AirflowPlugin):\n    name = 'p'\n"
    assert _conflicts(lint({"plugins/p.py": plugin, "jobs/a.py": MERGE, "jobs/b.py": MERGE})) == ["DL102"]
