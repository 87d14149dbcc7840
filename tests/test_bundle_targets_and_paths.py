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


def _included(root: Path, path_key: str, path: str) -> dict[str, str]:
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "load.py").write_text(MERGE)
    (root / "resources").mkdir(exist_ok=True)
    (root / "databricks.yml").write_text("bundle: {name: demo}\ninclude: [resources/*.yml]\n")
    task = "notebook_task: {notebook_path: %s}" if path_key == "notebook" else "spark_python_task: {python_file: %s}"
    tasks = "".join(
        f"    {name}:\n      name: {name}\n      tasks:\n        - task_key: t\n          {task % path}\n"
        for name in ("a", "b")
    )
    (root / "resources" / "jobs.yml").write_text(f"resources:\n  jobs:\n{tasks}")
    doc = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)
    return {f["rule"]: f["message"] for f in doc["findings"]}


def test_a_path_written_from_the_project_root_says_how_to_write_it(tmp_path: Path) -> None:
    for kind in ("python_file", "notebook"):
        found = _included(tmp_path / kind, kind, "src/load.py")
        assert "DL102" not in found  # the CLI would not deploy it: no run, no conflict
        assert "is not in `resources/`, the folder of the file that defines it" in found["DL006"]
        assert "the project's `src/load.py` is `../src/load.py` from that folder" in found["DL006"]


def test_a_path_written_from_its_file_s_folder_runs_and_one_found_nowhere_says_so(tmp_path: Path) -> None:
    # near misses: `../src/load.py` is the CLI's path (two manual jobs: a conflict); `src/gone.py` is nowhere
    assert "DL102" in _included(tmp_path / "right", "python_file", "../src/load.py")
    gone = _included(tmp_path / "gone", "python_file", "src/gone.py")["DL006"]
    assert "`src/gone.py` is not in this project" in gone and "from that folder" not in gone


def test_a_resources_file_without_its_bundle_root_follows_the_same_rule(tmp_path: Path) -> None:
    # a `resources:` YAML found without a databricks.yml is a bundle's too: its paths are from its folder
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "load.py").write_text(MERGE)
    (tmp_path / "jobs").mkdir()
    job = "    {n}:\n      name: {n}\n      tasks:\n        - task_key: t\n          spark_python_task: {{python_file: {p}}}\n"
    (tmp_path / "jobs" / "a.yml").write_text("resources:\n  jobs:\n" + job.format(n="a", p="src/load.py"))
    out = run_cli("schedule", ".", cwd=tmp_path).stdout
    assert "the project's `src/load.py` is `../src/load.py` from that folder" in out
