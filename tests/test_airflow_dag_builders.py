"""A DAG built by a function or a method (`def create_dag(dag_id, schedule): with
DAG(...)`, `class Pipeline: def build(self): ...`) is a DAG like one written at
the top of its file: each call the file makes builds one, with the call's
arguments; a builder called where its arguments are known only per round (a loop)
is read once with its parameters unknown, and a note says so."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli
from tests.test_link import _conflicts

MERGE = (
    "from pyspark.sql import SparkSession\n"
    "spark = SparkSession.builder.getOrCreate()\n"
    'spark.sql("MERGE INTO delta.`s3a://wh/audit` AS t USING s ON t.id = s.id WHEN MATCHED THEN DELETE")\n'
)
HEAD = "from datetime import datetime\nfrom airflow import DAG\nfrom airflow.operators.bash import BashOperator\n"
FACTORY = HEAD + (
    "def create_dag(dag_id, schedule, script, runs=1):\n"
    "    with DAG(dag_id, schedule=schedule, start_date=datetime(2026, 1, 1), max_active_runs=runs) as dag:\n"
    '        BashOperator(task_id="run", bash_command=f"spark-submit /opt/airflow/jobs/{script}")\n'
    "    return dag\n"
)


def _schedule(tmp_path: Path, files: dict[str, str]) -> dict:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)


def test_a_dag_built_in_a_method_is_read(lint):
    dag = HEAD + (
        "class Pipeline:\n"
        "    def __init__(self, schedule):\n"
        "        self.schedule = schedule\n"
        "    def build(self):\n"
        '        with DAG("etl", schedule=None, start_date=datetime(2026, 1, 1), max_active_runs=2) as dag:\n'
        '            BashOperator(task_id="merge", bash_command="spark-submit /opt/airflow/jobs/merge.py")\n'
        "        return dag\n"
        'dag = Pipeline("@daily").build()\n'
    )
    assert _conflicts(lint({"dags/etl.py": dag, "jobs/merge.py": MERGE})) == ["DL102"]
    # one run at a time: the same method builds nothing that meets itself
    one = dag.replace("max_active_runs=2", "max_active_runs=1")
    assert _conflicts(lint({"dags/etl.py": one, "jobs/merge.py": MERGE})) == []


def test_each_call_of_a_factory_builds_a_dag_with_its_arguments(tmp_path):
    dag = FACTORY + (
        'hourly = create_dag("hourly", "0 * * * *", "merge.py")\n'
        'backfill = create_dag(dag_id="backfill", schedule=None, script="other.py")\n'
    )
    doc = _schedule(tmp_path, {"dags/f.py": dag, "jobs/merge.py": MERGE, "jobs/other.py": MERGE})
    jobs = {n["job"]: n["files"] for n in doc["nodes"] if n.get("task") == "run"}
    assert jobs == {"hourly": ["jobs/merge.py"], "backfill": ["jobs/other.py"]}


def test_two_factory_dags_running_one_script_meet(lint):
    dag = FACTORY + 'a = create_dag("a", "*/15 * * * *", "merge.py")\nb = create_dag("b", None, "merge.py")\n'
    assert _conflicts(lint({"dags/f.py": dag, "jobs/merge.py": MERGE})) == ["DL102"]


def test_a_factory_called_in_a_loop_is_read_once_with_a_note(tmp_path):
    dag = FACTORY + 'for name in NAMES:\n    globals()[name] = create_dag(name, "@daily", "merge.py")\n'
    doc = _schedule(tmp_path, {"dags/f.py": dag, "jobs/merge.py": MERGE})
    assert any("`create_dag`" in n and "parameters (dag_id, schedule, script, runs) unknown" in n for n in doc["notes"])
    # read once: one DAG, whose id is its file and line, and whose command names its
    # script by an unknown parameter (no file picked, which the task says)
    text = run_cli("schedule", ".", cwd=tmp_path).stdout
    assert "f:5 (" in text and "run: not analysed" in text and "/opt/airflow/jobs/{...}" in text


def test_a_function_that_builds_no_dag_is_not_read_as_one(tmp_path):
    helper = HEAD + (
        "def make_task(dag):\n"
        '    return BashOperator(task_id="merge", dag=dag, bash_command="spark-submit /opt/airflow/jobs/merge.py")\n'
    )
    doc = _schedule(tmp_path, {"dags/helpers.py": helper, "jobs/merge.py": MERGE})
    assert not [n for n in doc["nodes"] if n.get("task")]
