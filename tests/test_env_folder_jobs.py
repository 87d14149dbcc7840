"""Jobs a team keeps in a folder named `env` (`env/prod/jobs.yml` beside their code)
are read, found and kept by the cache like any other folder's; a virtual environment
of that name is not read."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE = 'spark.sql("MERGE INTO main.s.o t USING u s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")\n'
JOBS = "resources:\n  jobs:\n" + "".join(
    f"    {n}:\n      name: {n}\n      tasks:\n        - task_key: t\n          spark_python_task: {{python_file: load.py}}\n"
    for n in ("a", "b")
)


def _rules(root: Path, cache: Path) -> list[str]:
    proc = run_cli("check", ".", "--format", "json", cwd=root, env={"DELTA_LINT_CACHE_DIR": str(cache)})
    return sorted(f["rule"] for f in json.loads(proc.stdout)["findings"] if f["rule"].startswith("DL1"))


def test_jobs_in_an_env_folder_are_read_and_kept_by_the_cache(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / "env" / "prod").mkdir(parents=True)
    (root / "env" / "prod" / "jobs.yml").write_text(JOBS)
    (root / "env" / "prod" / "load.py").write_text(MERGE)
    assert _rules(root, tmp_path / "cache") == ["DL102"]  # two manual jobs run the same MERGE
    (root / "env" / "prod" / "load.py").write_text("x = 1\n")  # a warm run sees the edit
    assert _rules(root, tmp_path / "cache") == []


def test_a_virtual_environment_named_env_is_not_read(tmp_path: Path) -> None:
    # near miss: the same files inside a virtual environment (pyvenv.cfg) are not the project's
    root = tmp_path / "p"
    (root / "env" / "prod").mkdir(parents=True)
    (root / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "env" / "prod" / "jobs.yml").write_text(JOBS)
    (root / "env" / "prod" / "load.py").write_text(MERGE)
    assert _rules(root, tmp_path / "cache") == []
