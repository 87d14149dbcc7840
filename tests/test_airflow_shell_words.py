"""A shell command's words end at blanks and at the shell's operators only: a
Spark master URL (`spark://host:7077`), a dbt method selector (`tag:daily`) or a
bracketed master (`local[2]`) is one word, as the shell passes it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

HEAD = (
    "from airflow import DAG\nfrom airflow.operators.bash import BashOperator\n"
    'with DAG("d", schedule="@daily") as dag:\n'
)
SCRIPT = 'spark.range(1).write.mode("append").saveAsTable("main.s.loaded")\n'


def _files(tmp_path: Path, files: dict[str, str], task: str) -> list[str]:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    doc = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)
    return next((n["files"] for n in doc["nodes"] if n.get("task") == task), [])


def test_a_master_url_and_a_bracketed_master_do_not_hide_the_script(tmp_path):
    command = "spark-submit --master spark://spark-master:7077 --conf spark.x=local[2] jobs/load.py"
    dag = HEAD + f'    BashOperator(task_id="load", bash_command="{command}")\n'
    assert _files(tmp_path, {"dags/d.py": dag, "jobs/load.py": SCRIPT}, "load") == ["jobs/load.py"]


def test_a_method_selector_selects_by_its_method(tmp_path):
    dag = HEAD + '    BashOperator(task_id="run", bash_command="cd shop && dbt run --select tag:daily")\n'
    files = {
        "dags/d.py": dag,
        "shop/dbt_project.yml": "name: shop\nprofile: shop\n",
        "shop/models/orders.sql": "{{ config(materialized='table', tags=['daily']) }}\nselect 1 as id\n",
        "shop/models/refunds.sql": "{{ config(materialized='table') }}\nselect 1 as id\n",
    }
    assert _files(tmp_path, files, "run") == ["shop/models/orders.sql"]


def test_a_command_running_two_scripts_names_no_one_file(tmp_path):
    dag = HEAD + (
        '    BashOperator(task_id="one", bash_command="spark-submit jobs/load.py && spark-submit jobs/other.py")\n'
    )
    assert _files(tmp_path, {"dags/d.py": dag, "jobs/load.py": SCRIPT, "jobs/other.py": SCRIPT}, "one") == []
