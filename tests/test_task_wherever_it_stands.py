"""A job's task is read one way wherever it stands and whichever file defines it: a
wheel task inside a `for_each_task` is followed to its entry point as one at the
top level is; Terraform's `task` blocks carry what the bundle reader takes from
YAML (a wheel's entry point, a `for_each_task`, a `sql_task` file, `source = "GIT"`
with the job's `git_source`: paths from the repository root, not the .tf folder)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE_SQL = (
    "MERGE INTO main.sales.orders t USING main.staging.orders s ON t.id = s.id "
    "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"
)
MERGE_NOTEBOOK = f'# Databricks notebook source\nspark.sql("{MERGE_SQL}")\n'
WHEEL = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "0.1.0"\n[project.scripts]\nshop-load = "shop.load:main"\n',
    "src/shop/__init__.py": "",
    "src/shop/load.py": f'def main() -> None:\n    spark.sql("{MERGE_SQL}")\n',
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _findings(root: Path) -> list[dict]:
    proc = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def _rules(root: Path) -> list[str]:
    return sorted(f["rule"] for f in _findings(root))


# -- a wheel task inside a for_each task ---------------------------------------------------

WHEEL_TASK = "python_wheel_task: {package_name: shop, entry_point: shop-load}"


def _for_each_bundle(concurrency: int, adhoc: bool) -> str:
    jobs = (
        "  jobs:\n    nightly:\n      schedule: {quartz_cron_expression: '0 0 2 * * ?', timezone_id: UTC}\n"
        "      tasks:\n        - task_key: load_all\n          for_each_task:\n"
        f'            inputs: \'["orders", "refunds"]\'\n            concurrency: {concurrency}\n'
        f"            task: {{task_key: load_one, {WHEEL_TASK}}}\n"
    )
    if adhoc:
        jobs += f"    adhoc:\n      tasks: [{{task_key: load, {WHEEL_TASK}}}]\n"
    return "bundle: {name: shop}\nresources:\n" + jobs


def test_a_wheel_task_inside_a_for_each_task_runs_its_entry_point(tmp_path: Path) -> None:
    root = _write(tmp_path, {**WHEEL, "databricks.yml": _for_each_bundle(1, adhoc=True)})
    found = _findings(root)
    assert [f["rule"] for f in found] == ["DL102"]
    assert found[0]["location"]["path"] == "src/shop/load.py"


def test_iterations_of_a_wheel_for_each_task_meet_only_when_they_run_at_once(tmp_path: Path) -> None:
    sequential = _write(tmp_path / "one", {**WHEEL, "databricks.yml": _for_each_bundle(1, adhoc=False)})
    assert _rules(sequential) == []  # read (no DL006), and one iteration at a time
    parallel = _write(tmp_path / "two", {**WHEEL, "databricks.yml": _for_each_bundle(2, adhoc=False)})
    assert _rules(parallel) == ["DL102"]
