"""Task and library paths under a folder only a deployment knows (the deploying
user's `${workspace.current_user.userName}`, a variable without a value, in a
bundle or in Terraform) are matched by their known tail, with a note, as workspace
paths in folders the project does not have are; a reference in the file's own
name, or a tail no project file has, stays unanalysed (DL006)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE = (
    "# Databricks notebook source\n"
    'spark.sql("MERGE INTO main.sales.orders t USING updates s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")\n'
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _check(root: Path) -> dict:
    proc = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def _bundle(path: str, variables: str = "") -> str:
    task = f"[{{task_key: load, notebook_task: {{notebook_path: '{path}'}}}}]"
    return (
        f"bundle: {{name: demo}}\n{variables}resources:\n  jobs:\n"
        f"    nightly:\n      schedule: {{quartz_cron_expression: '0 0 2 * * ?', timezone_id: UTC}}\n"
        f"      tasks: {task}\n"
        f"    adhoc:\n      tasks: {task}\n"
    )


def test_a_path_under_the_deploying_users_folder_is_matched_by_its_tail(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "notebooks/load.py": MERGE,
            "databricks.yml": _bundle("/Repos/${workspace.current_user.userName}/demo/notebooks/load"),
        },
    )
    doc = _check(root)
    assert [f["rule"] for f in doc["findings"]] == ["DL102"]
    assert any("matched to a project file by the path's known tail" in n for n in doc["summary"]["notes"])


def test_a_variable_without_a_value_leaves_its_tail(tmp_path: Path) -> None:
    # `--var` at deploy time: the folder is the deployment's; the known tail names the file
    variables = "variables:\n  home: {description: set at deploy time}\n"
    root = _write(
        tmp_path,
        {"notebooks/load.py": MERGE, "databricks.yml": _bundle("${var.home}/notebooks/load", variables)},
    )
    assert [f["rule"] for f in _check(root)["findings"]] == ["DL102"]


def test_a_reference_in_the_file_name_or_an_unknown_tail_stays_unanalysed(tmp_path: Path) -> None:
    named = _write(
        tmp_path / "named",
        {
            "notebooks/load.py": MERGE,
            "databricks.yml": _bundle("/Repos/someone/demo/notebooks/${var.step}", "variables:\n  step: {}\n"),
        },
    )
    found = _check(named)["findings"]
    assert [f["rule"] for f in found] == ["DL006", "DL006"]
    assert all("is not static" in f["message"] for f in found)
    missing = _write(
        tmp_path / "missing",
        {
            "notebooks/load.py": MERGE,
            "databricks.yml": _bundle("/Repos/${workspace.current_user.userName}/demo/notebooks/unload"),
        },
    )
    found = _check(missing)["findings"]
    assert [f["rule"] for f in found] == ["DL006", "DL006"]
    assert all("is not in this project" in f["message"] for f in found)


def test_a_pipeline_library_under_the_users_folder_is_read(tmp_path: Path) -> None:
    bundle = (
        "bundle: {name: demo}\nresources:\n  pipelines:\n    bronze:\n      catalog: main\n      schema: sales\n"
        "      libraries:\n"
        "        - notebook: {path: '/Workspace/Users/${workspace.current_user.userName}/demo/pipelines/bronze'}\n"
    )
    root = _write(tmp_path, {"pipelines/bronze.py": MERGE, "databricks.yml": bundle})
    proc = run_cli("schedule", ".", "--format", "json", cwd=root)
    nodes = json.loads(proc.stdout)["nodes"]
    assert [n["files"] for n in nodes] == [["pipelines/bronze.py"]]


def test_a_terraform_path_under_a_variable_without_a_default_is_matched_by_its_tail(tmp_path: Path) -> None:
    job = (
        'resource "databricks_job" "{name}" {{\n  name = "{name}"\n  task {{\n    task_key = "load"\n'
        '    notebook_task {{\n      notebook_path = "/Repos/${{var.user}}/demo/notebooks/load"\n    }}\n  }}\n}}\n'
    )
    jobs = 'variable "user" {}\n' + job.format(name="nightly") + job.format(name="adhoc")
    root = _write(tmp_path, {"notebooks/load.py": MERGE, "terraform/jobs.tf": jobs})
    assert [f["rule"] for f in _check(root)["findings"]] == ["DL102"]
