"""A task file given as a storage location a deployment copied it to
(`dbfs:/scripts/load.py`, `s3://bucket/jobs/load.py`, `abfss://c@account/...`) is
looked for as a workspace path is: by its name and tail, with a note, and as "one
of these" when several project files fit; a relative path that merely holds a
colon is no storage location."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

HEAD = (
    "from airflow import DAG\n"
    "from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator\n"
    'with DAG("d", schedule="@daily") as dag:\n'
)
SCRIPT = 'spark.range(1).write.mode("append").saveAsTable("main.s.loaded")\n'


def _write(tmp_path: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)


def _dag(*tasks: str) -> dict[str, str]:
    return {"dags/d.py": HEAD + "".join(f"    {t}\n" for t in tasks)}


def _schedule(tmp_path: Path) -> dict:
    return json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)


def _files(doc: dict, task: str) -> list[str]:
    return next((n["files"] for n in doc["nodes"] if n.get("task") == task), [])


def _not_analysed(tmp_path: Path) -> list[str]:
    doc = json.loads(run_cli("check", ".", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    return [f["message"] for f in doc["findings"] if f["rule"] == "DL006"]


def test_a_storage_location_is_matched_by_name_with_a_note(tmp_path):
    _write(
        tmp_path,
        {
            **_dag(
                'DatabricksSubmitRunOperator(task_id="a", spark_python_task={"python_file": "dbfs:/scripts/load.py"})',
                'DatabricksSubmitRunOperator(task_id="b", spark_python_task={"python_file": "s3://bkt/x/clean.py"})',
            ),
            "src/scripts/load.py": SCRIPT,
            "src/clean.py": SCRIPT,
        },
    )
    doc = _schedule(tmp_path)
    assert (_files(doc, "a"), _files(doc, "b")) == (["src/scripts/load.py"], ["src/clean.py"])
    assert any("matched to a project file by name" in n for n in doc["notes"]), doc["notes"]


def test_a_storage_location_two_files_fit_is_one_of_them(tmp_path):
    _write(
        tmp_path,
        {
            **_dag(
                'DatabricksSubmitRunOperator(task_id="a", '
                'spark_python_task={"python_file": "abfss://raw@acct.dfs.core.windows.net/etl/load.py"})',
            ),
            "one/etl/load.py": SCRIPT,
            "two/etl/load.py": SCRIPT,
        },
    )
    assert _files(_schedule(tmp_path), "a") == []
    assert any("one of one/etl/load.py, two/etl/load.py" in m for m in _not_analysed(tmp_path))


def test_a_relative_path_with_a_colon_is_no_storage_location(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('DatabricksSubmitRunOperator(task_id="a", spark_python_task={"python_file": "dbfs:load.py"})'),
            "src/load.py": SCRIPT,
        },
    )
    assert _files(_schedule(tmp_path), "a") == []
