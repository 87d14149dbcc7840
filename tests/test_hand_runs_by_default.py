"""A job's second run that only a default allows, started by hand: how sure is it?

A development target lets each job that sets no `max_concurrent_runs` run 4 at once,
and Airflow lets a DAG started by hand that sets no `max_active_runs` run up to
`max_active_runs_per_dag` at once (16 unless the deployment says otherwise). Two runs
of such a job meet only when someone starts the second while the first runs: an
assumed overlap. Where a second doubt holds — a development deployment, or a limit
no file of the project sets — the finding is `info` (`overlap_basis`
`assumed-twice`), so the default `--fail-on warning` passes the default bundle
template. A job that sets its concurrent runs itself, a production target's preset
and a backlog of scheduled runs keep their severity."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE = (
    "# Databricks notebook source\n"
    'spark.sql("MERGE INTO main.sales.orders t USING updates s ON t.id = s.id '
    'WHEN MATCHED THEN UPDATE SET *")\n'
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _bundle(root: Path, target: str, job_extra: str = "") -> Path:
    job = (
        f"    load:\n      name: load\n{job_extra}"
        "      tasks:\n        - task_key: load\n          notebook_task: {notebook_path: ./src/load.py}\n"
    )
    text = f"bundle: {{name: demo}}\ntargets:\n{target}resources:\n  jobs:\n{job}"
    return _write(root, {"databricks.yml": text, "src/load.py": MERGE})


def _check(root: Path) -> tuple[int, list[tuple[str, str, str | None]], list[str]]:
    proc = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    findings = [f for f in json.loads(proc.stdout)["findings"] if f["rule"].startswith("DL1")]
    return (
        proc.returncode,
        [(f["rule"], f["severity"], f["overlap_basis"]) for f in findings],
        [f["overlap"] for f in findings],
    )


DEV = "  dev: {mode: development, default: true}\n"


def test_a_development_target_s_self_overlap_is_info_and_passes_the_gate(tmp_path: Path) -> None:
    code, found, reasons = _check(_bundle(tmp_path, DEV))
    assert found == [("DL102", "info", "assumed-twice")]
    assert code == 0  # `--fail-on warning` (the default) passes a development target
    assert "a second run is started by hand, and target `dev` is a development deployment" in reasons[0]
    text = run_cli("check", ".", "--no-cache", cwd=tmp_path).stdout
    assert "assumed twice" in text  # the how-sure line says why


def test_a_job_that_sets_its_concurrent_runs_keeps_its_severity(tmp_path: Path) -> None:
    # near miss: the team opted the job into 4 runs itself: its runs meet by its own statement
    code, found, _ = _check(_bundle(tmp_path, DEV, "      max_concurrent_runs: 4\n"))
    assert found == [("DL102", "error", "schedule")] and code == 1


def test_a_production_target_s_preset_stays_a_warning(tmp_path: Path) -> None:
    # near miss: a preset of a production target: started by hand (one doubt), no development deployment
    prod = "  prod:\n    mode: production\n    default: true\n    presets: {jobs_max_concurrent_runs: 3}\n"
    code, found, _ = _check(_bundle(tmp_path, prod))
    assert found == [("DL102", "warning", "assumed")] and code == 1


def test_a_development_job_that_keeps_its_schedule_is_one_doubt(tmp_path: Path) -> None:
    # near miss: its own `pause_status: UNPAUSED` keeps it running on its schedule, not only by hand
    cron = "      schedule: {quartz_cron_expression: '0 0 1 * * ?', timezone_id: UTC, pause_status: UNPAUSED}\n"
    _code, found, _ = _check(_bundle(tmp_path, DEV, cron))
    assert found == [("DL102", "warning", "assumed")]


def _dag(schedule: str, extra: str = "") -> str:
    return (
        "from datetime import datetime\n"
        "from airflow import DAG\n"
        "from airflow.operators.bash import BashOperator\n"
        f'with DAG("merge", schedule={schedule}, start_date=datetime(2026, 1, 1){extra}) as dag:\n'
        '    BashOperator(task_id="merge", bash_command="spark-submit jobs/merge.py")\n'
    )


PY_MERGE = (
    "from pyspark.sql import SparkSession\n"
    "spark = SparkSession.builder.getOrCreate()\n"
    'spark.sql("MERGE INTO delta.`s3a://wh/audit` AS t USING s ON t.id = s.id WHEN MATCHED THEN DELETE")\n'
)


def test_a_hand_started_dag_under_airflow_s_default_is_info(tmp_path: Path) -> None:
    root = _write(tmp_path, {"dags/merge.py": _dag("None"), "jobs/merge.py": PY_MERGE})
    code, found, reasons = _check(root)
    assert found == [("DL102", "info", "assumed-twice")] and code == 0
    assert "Airflow's `max_active_runs_per_dag`" in reasons[0] and "no file of the project sets another" in reasons[0]


def test_a_limit_the_deployment_sets_leaves_one_doubt(tmp_path: Path) -> None:
    # near miss: the project's compose file chooses 4 runs per DAG: only "by hand" is doubted
    compose = "services:\n  scheduler:\n    environment:\n      AIRFLOW__CORE__MAX_ACTIVE_RUNS_PER_DAG: '4'\n"
    files = {"dags/merge.py": _dag("None"), "jobs/merge.py": PY_MERGE, "docker-compose.yaml": compose}
    _code, found, _ = _check(_write(tmp_path, files))
    assert found == [("DL102", "warning", "assumed")]


def test_a_dag_s_own_max_active_runs_or_a_backlog_keeps_the_schedule_basis(tmp_path: Path) -> None:
    own = _write(tmp_path / "own", {"dags/merge.py": _dag("None", ", max_active_runs=2"), "jobs/merge.py": PY_MERGE})
    assert _check(own)[1] == [("DL102", "error", "schedule")]
    # a backlog of scheduled runs (`catchup=True`): the scheduler starts them, nobody by hand
    backlog = _write(
        tmp_path / "backlog", {"dags/merge.py": _dag('"@daily"', ", catchup=True"), "jobs/merge.py": PY_MERGE}
    )
    assert _check(backlog)[1] == [("DL102", "error", "schedule")]
