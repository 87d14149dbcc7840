"""`advise` lets a job run one run at a time also when the job says nothing of its
runs: a target's presets (or development mode) give it several, and the way out is
the job's own `max_concurrent_runs: 1`, which the edit adds as its first key. A job
whose YAML shape the edit does not recognise (a flow mapping) is refused, not rewritten."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE = 'spark.sql("MERGE INTO main.s.o t USING u s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")\n'
TARGETS = "targets:\n  prod:\n    mode: production\n    default: true\n    presets: {jobs_max_concurrent_runs: 3}\n"


def _project(root: Path, job: str) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "load.py").write_text(MERGE)
    (root / "databricks.yml").write_text(f"bundle: {{name: demo}}\n{TARGETS}resources:\n  jobs:\n{job}")
    return root


BLOCK = (
    "    load:\n      name: load  # the loader\n      tasks:\n"
    "        - task_key: load\n          spark_python_task: {python_file: ./src/load.py}\n"
)


def _changes(root: Path) -> list[str]:
    proc = run_cli("advise", ".", "--format", "json", cwd=root)
    return [c["what"] for c in json.loads(proc.stdout)["changes"]]


def test_a_job_without_max_concurrent_runs_gets_the_line(tmp_path: Path) -> None:
    root = _project(tmp_path, BLOCK)
    assert any("max_concurrent_runs: 1" in s for s in _changes(root))
    assert run_cli("advise", ".", "--apply", cwd=root).returncode == 0
    text = (root / "databricks.yml").read_text()
    assert "    load:\n      max_concurrent_runs: 1\n      name: load  # the loader\n" in text
    found = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)["findings"]
    assert [f["rule"] for f in found if f["rule"].startswith("DL1")] == []


def test_a_job_written_as_a_flow_mapping_is_not_edited(tmp_path: Path) -> None:
    # near miss: `load: {name: load, tasks: [...]}` has no block to add a key to
    flow = "    load: {name: load, tasks: [{task_key: load, spark_python_task: {python_file: ./src/load.py}}]}\n"
    root = _project(tmp_path, flow)
    assert not any("max_concurrent_runs" in s for s in _changes(root))
