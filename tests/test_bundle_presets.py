"""A bundle target's defaults for the jobs it deploys: development mode pauses
schedules and triggers *and* allows concurrent runs (the CLI's 4), `presets:` sets
either in any mode, and a job's own `max_concurrent_runs` / `pause_status` wins
(Databricks, "Databricks Asset Bundle deployment modes")."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE = (
    "# Databricks notebook source\n"
    'spark.sql("MERGE INTO main.sales.orders t USING updates s ON t.id = s.id '
    'WHEN MATCHED THEN UPDATE SET *")\n'
)


def _bundle(root: Path, targets: str, jobs: str, top: str = "") -> Path:
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "load.py").write_text(MERGE)
    (root / "databricks.yml").write_text(f"bundle: {{name: demo}}\n{top}targets:\n{targets}resources:\n  jobs:\n{jobs}")
    return root


def _job(name: str, extra: str = "") -> str:
    return (
        f"    {name}:\n      name: {name}\n{extra}"
        f"      tasks:\n        - task_key: load\n          notebook_task: {{notebook_path: ./src/load.py}}\n"
    )


DEV_PROD = "  dev: {mode: development, default: true}\n  prod: {mode: production}\n"


def _pairs(root: Path, *args: str) -> dict[frozenset, dict]:
    proc = run_cli("schedule", ".", "--format", "json", "--all", *args, cwd=root)
    assert proc.returncode == 0, proc.stderr
    return {frozenset((p["a"], p["b"])): p for p in json.loads(proc.stdout)["pairs"]}


def _rules(root: Path, *args: str) -> list[str]:
    proc = run_cli("check", ".", "--no-cache", "--format", "json", *args, cwd=root)
    return sorted(f["rule"] for f in json.loads(proc.stdout)["findings"])


def test_a_development_target_lets_two_runs_of_a_job_meet(tmp_path: Path) -> None:
    root = _bundle(tmp_path, DEV_PROD, _job("load"))
    assert _rules(root, "--target", "dev") == ["DL102"]
    pair = _pairs(root, "--target", "dev")[frozenset(("load.load",))]
    assert pair["overlap"] is True and "allows 4 concurrent runs" in pair["reason"]
    assert "a second run is started by hand" in pair["reason"]  # assumed, as a manual job's overlap
    assert _rules(root) == []  # the production target (judged by default) keeps one run at a time


def test_a_job_that_sets_one_run_keeps_it_in_development(tmp_path: Path) -> None:
    root = _bundle(tmp_path, DEV_PROD, _job("load", "      max_concurrent_runs: 1\n"))
    assert _rules(root, "--target", "dev") == []
    assert "one run at a time" in _pairs(root, "--target", "dev")[frozenset(("load.load",))]["reason"]


def test_presets_set_concurrent_runs_in_any_mode(tmp_path: Path) -> None:
    targets = "  prod:\n    mode: production\n    default: true\n    presets: {jobs_max_concurrent_runs: 3}\n"
    root = _bundle(tmp_path, targets, _job("load"))
    assert "allows 3 concurrent runs" in _pairs(root)[frozenset(("load.load",))]["reason"]
    # a top-level `presets:` is overridden by the target's, and the job's own setting wins over both
    root = _bundle(
        tmp_path / "own",
        "  prod: {default: true, presets: {jobs_max_concurrent_runs: 1}}\n",
        _job("load", "      max_concurrent_runs: 2\n") + _job("other"),
        top="presets: {jobs_max_concurrent_runs: 5}\n",
    )
    pairs = _pairs(root)
    assert "allows 2 concurrent runs" in pairs[frozenset(("load.load",))]["reason"]
    assert "one run at a time" in pairs[frozenset(("other.load",))]["reason"]


def _two_schedules(first: str, second: str) -> str:
    cron = "      schedule: {{quartz_cron_expression: '0 0 {h} * * ?', timezone_id: UTC{pause}}}\n"
    one = "      max_concurrent_runs: 1\n"
    return _job("early", one + cron.format(h=1, pause=first)) + _job("late", one + cron.format(h=13, pause=second))


def test_a_schedule_unpaused_by_its_job_keeps_running_in_development(tmp_path: Path) -> None:
    unpaused = ", pause_status: UNPAUSED"
    root = _bundle(tmp_path, DEV_PROD, _two_schedules(unpaused, unpaused))
    pair = _pairs(root, "--target", "dev")[frozenset(("early.load", "late.load"))]
    assert pair["overlap"] is False  # 01:00 and 13:00: both schedules run as written
    # near miss: `late` names no pause status, so development mode pauses it: started by hand, any time
    root = _bundle(tmp_path / "near", DEV_PROD, _two_schedules(unpaused, ""))
    pair = _pairs(root, "--target", "dev")[frozenset(("early.load", "late.load"))]
    assert pair["overlap"] is True and "late" in pair["reason"]


def test_a_pause_preset_pauses_schedules_outside_development(tmp_path: Path) -> None:
    targets = "  prod:\n    mode: production\n    default: true\n    presets: {trigger_pause_status: PAUSED}\n"
    root = _bundle(tmp_path, targets, _two_schedules("", ""))
    assert _pairs(root)[frozenset(("early.load", "late.load"))]["overlap"] is True
    root = _bundle(tmp_path / "plain", "  prod: {mode: production, default: true}\n", _two_schedules("", ""))
    assert _pairs(root)[frozenset(("early.load", "late.load"))]["overlap"] is False


def test_a_bundle_of_one_target_deploys_it_without_default(tmp_path: Path) -> None:
    # the CLI selects the only target: its development mode holds without `default: true`
    root = _bundle(tmp_path, "  dev: {mode: development}\n", _job("load"))
    proc = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    doc = json.loads(proc.stdout)
    assert [f["rule"] for f in doc["findings"]] == ["DL102"]
    assert "target `dev` (the bundle's only target)" in doc["summary"]["notes"][0]
    # near miss: two targets, none the default: no target is chosen (the CLI asks for one)
    two = _bundle(tmp_path / "two", "  dev: {mode: development}\n  prod: {mode: production}\n", _job("load"))
    assert _rules(two) == []
