"""Which target a bundle of several targets is judged under when none is the
default, and where a relative task path in an included file is looked for.

The CLI deploys a bundle of several targets without `default: true` only when
`-t` names one: which one CI deploys is not in the bundle. The gate judges the
production target (the schedule whose conflicts fail jobs), the first by name
with the others named when there are several; with none in production mode it
judges the jobs as written and says so. A relative path is resolved from the
folder of the file that defines it, as the CLI does; a path that names a file
only from the project root is still not deployed, and the text says how to write it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE = (
    "# Databricks notebook source\n"
    'spark.sql("MERGE INTO main.sales.orders t USING updates s ON t.id = s.id '
    'WHEN MATCHED THEN UPDATE SET *")\n'
)
JOB = (
    "resources:\n  jobs:\n    load:\n      name: load\n"
    "      tasks:\n        - task_key: load\n          notebook_task: {notebook_path: ./src/load.py}\n"
)
TWO_RUNS = "{resources: {jobs: {load: {max_concurrent_runs: 2}}}}"


def _check(root: Path, targets: str) -> tuple[list[str], list[str]]:
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "load.py").write_text(MERGE)
    (root / "databricks.yml").write_text(f"bundle: {{name: demo}}\ntargets:\n{targets}{JOB}")
    doc = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)
    return sorted(f["rule"] for f in doc["findings"]), doc["summary"]["notes"]


def test_several_targets_without_a_default_judge_the_production_one(tmp_path: Path) -> None:
    targets = f"  dev: {{mode: development}}\n  staging: {{}}\n  prod: {{mode: production, {TWO_RUNS[1:-1]}}}\n"
    rules, notes = _check(tmp_path, targets)
    assert rules == ["DL102"]  # prod's own override: two runs of `load` meet
    assert any("target `prod` (mode: production; no target is the default" in n for n in notes), notes


def test_several_production_targets_judge_the_first_and_name_the_others(tmp_path: Path) -> None:
    targets = f"  prod_us: {{mode: production}}\n  prod_eu: {{mode: production, {TWO_RUNS[1:-1]}}}\n"
    rules, notes = _check(tmp_path, targets)
    assert rules == ["DL102"]  # `prod_eu` is first by name
    assert any("also in production mode: `prod_us`, which `--target` judges" in n for n in notes), notes


def test_without_a_production_target_the_jobs_are_judged_as_written(tmp_path: Path) -> None:
    # near miss: staging's override is not applied, nor dev's presets: no target is chosen
    rules, notes = _check(tmp_path, f"  dev: {{mode: development}}\n  staging: {TWO_RUNS}\n")
    assert rules == []
    assert any("no target judged: of the targets `dev`, `staging`, none is the default" in n for n in notes), notes
