"""A task whose code is a function of another module of the project.

A `@task` function imported from a project module (`from etl.tasks import load`, or
`import etl.tasks as tasks` then `tasks.load()`) and called in a DAG is one of the
DAG's tasks; the Python front end reads its writes at that call, with the module's
code, so the task runs the DAG file's lines of the call. A `PythonOperator` whose
`python_callable` is such a function hands it over uncalled: its writes are read
nowhere, and the task says so (not analysed) instead of passing for a task that
writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

TASKS = (
    "from airflow.decorators import task\n"
    "from pyspark.sql import SparkSession\n"
    "spark = SparkSession.builder.getOrCreate()\n\n\n"
    "@task\n"
    "def merge_audit():\n"
    '    spark.sql("MERGE INTO delta.`s3a://wh/audit` AS t USING s ON t.id = s.id WHEN MATCHED THEN DELETE")\n\n\n'
    '@task(task_id="fix")\n'
    "def fix_audit():\n"
    '    spark.sql("UPDATE delta.`s3a://wh/audit` SET v = 1 WHERE id = 2")\n'
)
HEAD = (
    "from datetime import datetime\n"
    "from airflow import DAG\n"
    "{imports}\n"
    'with DAG("audit", schedule="@hourly", start_date=datetime(2026, 1, 1), catchup=False) as dag:\n'
)


def _run(root: Path, imports: str, body: str) -> tuple[list[str], dict]:
    (root / "etl").mkdir(parents=True)
    (root / "dags").mkdir()
    (root / "etl" / "__init__.py").write_text("")
    (root / "etl" / "tasks.py").write_text(TASKS)
    (root / "dags" / "audit.py").write_text(HEAD.format(imports=imports) + body)
    found = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)["findings"]
    rules = sorted(f["rule"] for f in found)
    return rules, {f["rule"]: f["message"] for f in found}


def test_imported_task_functions_are_tasks_of_the_dag(tmp_path: Path) -> None:
    rules, _ = _run(tmp_path, "from etl.tasks import merge_audit, fix_audit", "    merge_audit()\n    fix_audit()\n")
    assert rules == ["DL102"]  # two tasks of one run, no order between them
    schedule = run_cli("schedule", ".", cwd=tmp_path).stdout
    assert "merge_audit: dags/audit.py" in schedule and "fix: dags/audit.py" in schedule


def test_a_module_imported_by_name_gives_its_task_functions_too(tmp_path: Path) -> None:
    rules, _ = _run(tmp_path, "import etl.tasks as t", "    t.merge_audit()\n    t.fix_audit()\n")
    assert rules == ["DL102"]


def test_ordered_imported_tasks_do_not_meet(tmp_path: Path) -> None:
    # near miss: `a >> b` orders the two tasks of a run (one run at a time: hourly, no backlog)
    body = "    a = merge_audit()\n    b = fix_audit()\n    a >> b\n"
    rules, _ = _run(tmp_path, "from etl.tasks import merge_audit, fix_audit", body)
    assert rules == []


def test_two_task_calls_on_one_line_are_not_told_apart(tmp_path: Path) -> None:
    # the writes are read at their call's line: two calls on one line stay unknown, not paired nor passed
    rules, _ = _run(tmp_path, "from etl.tasks import merge_audit, fix_audit", "    merge_audit() >> fix_audit()\n")
    assert rules == ["DL006", "DL006"]


def test_a_python_operator_s_imported_callable_is_said_not_analysed(tmp_path: Path) -> None:
    imports = "from airflow.operators.python import PythonOperator\nfrom etl.tasks import merge_audit"
    rules, messages = _run(tmp_path, imports, '    PythonOperator(task_id="m", python_callable=merge_audit)\n')
    assert rules == ["DL006"]
    assert "its `python_callable` is `merge_audit` of etl/tasks.py, handed to the operator" in messages["DL006"]


def test_a_callable_of_no_project_module_is_a_plain_task(tmp_path: Path) -> None:
    # near miss: a function of an installed package is no code of the project: nothing to say
    imports = "from airflow.operators.python import PythonOperator\nfrom vendor_lib.jobs import ping"
    rules, _ = _run(tmp_path, imports, '    PythonOperator(task_id="p", python_callable=ping)\n')
    assert rules == []
