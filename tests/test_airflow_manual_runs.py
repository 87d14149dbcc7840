"""A DAG started by hand that sets no `max_active_runs`: Airflow starts each
trigger's run at once, up to `[core] max_active_runs_per_dag` (16 unless the
deployment sets it), so two hand-started runs of it overlap. The deployment's
value is read from the project's compose files and Dockerfiles; a note says which
value was taken and why."""

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


def _dag(schedule: str, extra: str = "") -> str:
    return (
        "from datetime import datetime\n"
        "from airflow import DAG\n"
        "from airflow.operators.bash import BashOperator\n"
        f'with DAG("backfill", schedule={schedule}, start_date=datetime(2026, 1, 1), catchup=False{extra}) as dag:\n'
        '    BashOperator(task_id="merge", bash_command="spark-submit jobs/merge.py")\n'
    )


def _notes(tmp_path: Path, files: dict[str, str]) -> list[str]:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)["notes"]


def test_two_hand_started_runs_overlap_under_airflow_s_default(lint, tmp_path):
    files = {"dags/backfill.py": _dag("None"), "jobs/merge.py": MERGE}
    assert _conflicts(lint(files)) == ["DL102"]
    notes = _notes(tmp_path, files)
    assert any("`max_active_runs_per_dag` (16: Airflow's default" in n for n in notes), notes


def test_max_active_runs_one_or_a_schedule_keeps_one_run_at_a_time(lint):
    for dag in (_dag("None", ", max_active_runs=1"), _dag('"@daily"'), _dag('"*/15 * * * *"')):
        assert _conflicts(lint({"dags/backfill.py": dag, "jobs/merge.py": MERGE})) == [], dag


def test_the_deployment_s_setting_in_a_compose_file_is_the_limit(lint, tmp_path):
    compose = (
        "x-airflow-common: &common\n  environment:\n    AIRFLOW__CORE__MAX_ACTIVE_RUNS_PER_DAG: '1'\n"
        "services:\n  scheduler:\n    <<: *common\n"
    )
    files = {"dags/backfill.py": _dag("None"), "jobs/merge.py": MERGE, "docker-compose.yaml": compose}
    assert _conflicts(lint(files)) == []
    notes = _notes(tmp_path, files)
    assert any("(1: as AIRFLOW__CORE__MAX_ACTIVE_RUNS_PER_DAG in docker-compose.yaml sets it)" in n for n in notes)


def test_settings_that_differ_are_one_of_these_and_the_largest_is_taken(lint, tmp_path):
    files = {
        "dags/backfill.py": _dag("None"),
        "jobs/merge.py": MERGE,
        "docker-compose.yaml": "services:\n  s:\n    environment:\n      - AIRFLOW__CORE__MAX_ACTIVE_RUNS_PER_DAG=1\n",
        "deploy/Dockerfile": "FROM apache/airflow:2.9.0\nENV AIRFLOW__CORE__MAX_ACTIVE_RUNS_PER_DAG=4\n",
    }
    assert _conflicts(lint(files)) == ["DL102"]
    notes = _notes(tmp_path, files)
    assert any("is one of 1 in docker-compose.yaml, 4 in deploy/Dockerfile; the largest is taken" in n for n in notes)
