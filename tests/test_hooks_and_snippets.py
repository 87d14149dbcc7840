"""The gate as users install it: the real pre-commit tool running the hook of this
repository on every input that changes findings, and the README's pre-commit and
GitHub Actions snippets as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
import yaml

from tests.conftest import ROOT
from tests.test_integrations import git, hook_rev  # noqa: F401 - hook_rev is a fixture

# Four pairs of writes that conflict as soon as they may run together; each pair is
# kept apart by one input other than job code.
PYPROJECT = """\
[project]
name = "pipelines"
version = "0"

[tool.delta-lint]
exclusive = [["one_a", "one_b"]]
unscheduled = "anytime"  # jobs/four_*.sql run beside the jobs

[tool.delta-lint.jobs.one_a]
paths = ["jobs/one_a.sql"]

[tool.delta-lint.jobs.one_b]
paths = ["jobs/one_b.sql"]
"""
BUNDLE = "bundle: {name: pipelines}\ninclude: [resources/*.yml]\n"
BUNDLE_JOB = """\
resources:
  jobs:
    two:
      tasks:
        - task_key: a
          sql_task: {warehouse_id: w, file: {path: ../jobs/two_a.sql}}
        - task_key: b
          depends_on: [{task_key: a}]
          sql_task: {warehouse_id: w, file: {path: ../jobs/two_b.sql}}
"""
JOB_JSON = """\
{"job_id": 3, "settings": {"name": "three", "tasks": [
  {"task_key": "a", "sql_task": {"warehouse_id": "w", "file": {"path": "../jobs/three_a.sql"}}},
  {"task_key": "b", "depends_on": [{"task_key": "a"}],
   "sql_task": {"warehouse_id": "w", "file": {"path": "../jobs/three_b.sql"}}}
]}}
"""
SNAPSHOT = """\
format: 1
generated: "2026-11-01T00:00:00Z"
spark: embedded
tables:
  s.four:
    location: tables/four
    partitioned_by: [date]
"""
ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}


def workload(repo: Path) -> None:
    files = {
        "pyproject.toml": PYPROJECT,
        "databricks.yml": BUNDLE,
        "resources/two.yml": BUNDLE_JOB,
        "exports/three.json": JOB_JSON,
        "delta-lint.lock.yaml": SNAPSHOT,
        "jobs/four_a.sql": "DELETE FROM s.four WHERE date = '2024-01-01';\n",
        "jobs/four_b.sql": "DELETE FROM s.four WHERE date = '2024-01-02';\n",
    }
    for table in ("one", "two", "three"):
        files[f"jobs/{table}_a.sql"] = f"DELETE FROM s.{table} WHERE k = 1;\n"
        files[f"jobs/{table}_b.sql"] = f"DELETE FROM s.{table} WHERE k = 2;\n"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)


def commit(repo: Path, env: dict, message: str) -> subprocess.CompletedProcess:
    git(repo, "add", "-A")
    return subprocess.run(
        ["git", "commit", "-q", "-m", message], cwd=repo, capture_output=True, text=True, timeout=900, env=env
    )


def installed(repo: Path, env: dict) -> None:
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "install"], cwd=repo, check=True, capture_output=True, env=env, timeout=120
    )


# Each edit touches one input and no job file; the pair it names then overlaps.
EDITS = {
    "pyproject.toml": (lambda t: t.replace('exclusive = [["one_a", "one_b"]]\n', ""), "jobs/one_a.sql"),
    "resources/two.yml": (lambda t: t.replace("          depends_on: [{task_key: a}]\n", ""), "jobs/two_a.sql"),
    "exports/three.json": (lambda t: t.replace('"depends_on": [{"task_key": "a"}],', ""), "jobs/three_a.sql"),
    "delta-lint.lock.yaml": (lambda t: t.replace("    partitioned_by: [date]\n", ""), "jobs/four_a.sql"),
}


@pytest.mark.integration
def test_the_hook_sees_every_input_that_changes_findings(tmp_path, hook_rev):  # noqa: F811
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT.as_posix()}\n    rev: {hook_rev}\n    hooks:\n      - id: delta-lint\n"
    )
    workload(repo)
    env = {**os.environ, **ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    installed(repo, env)
    first = commit(repo, env, "the workload, every pair kept apart")
    assert first.returncode == 0, first.stdout + first.stderr
    for name, (edit, blamed) in EDITS.items():
        path = repo / name
        path.write_text(edit(path.read_text()))
        blocked = commit(repo, env, f"change {name}")
        out = blocked.stdout + blocked.stderr
        assert blocked.returncode != 0, f"{name}: the commit went through\n{out}"
        assert re.search(rf"{blamed}:1:1: DL102 \[ConcurrentAppendException\]", out), out
        git(repo, "reset", "-q", "--hard")
    assert git(repo, "log", "--oneline").count("\n") == 1  # every conflicting commit was blocked


# -- the README's snippets ----------------------------------------------------------------


def readme_block(marker: str) -> str:
    """The fenced block of the integration docs whose first line is `marker`."""
    readme = (ROOT / "docs" / "integrations.md").read_text()
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", readme, re.S | re.M):
        if block.startswith(marker):
            return block
    raise AssertionError(f"no README block starting with {marker!r}")


@pytest.mark.integration
def test_readme_pre_commit_snippet_runs_as_written(tmp_path):
    """The snippet, copied as is, blocks a configuration change that makes two jobs
    overlap: delta-lint on PATH (installed from this checkout), the real pre-commit."""
    snippet = readme_block("# .pre-commit-config.yaml")
    hook = yaml.safe_load(snippet)["repos"][0]["hooks"][0]
    shipped = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())[0]
    assert hook["id"] == shipped["id"] and hook["entry"] == shipped["entry"]
    assert hook["types_or"] == shipped["types_or"] and hook["require_serial"] is True
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / ".pre-commit-config.yaml").write_text(snippet)
    workload(repo)
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = {**os.environ, **ENV, "PATH": path, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    installed(repo, env)
    assert commit(repo, env, "base").returncode == 0
    edit, blamed = EDITS["pyproject.toml"]
    (repo / "pyproject.toml").write_text(edit(PYPROJECT))
    blocked = commit(repo, env, "drop the exclusive group")
    assert blocked.returncode != 0 and f"{blamed}:1:1: DL102" in blocked.stdout + blocked.stderr


def test_readme_pre_commit_live_settings_are_the_spark_extra():
    readme = " ".join((ROOT / "docs" / "integrations.md").read_text().split())
    deps = re.search(r"`additional_dependencies: (\[.*?\])`", readme)
    assert deps is not None
    spark = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["spark"]
    assert yaml.safe_load(deps.group(1)) == spark


def test_readme_action_snippets_use_this_action_as_it_is():
    """A GitHub runner cannot run here: the workflow must parse, use the action by a
    path where this repository's action.yml would be, and pass only its inputs."""
    workflow = yaml.safe_load(readme_block("# .github/workflows/delta-lint.yml"))
    steps = workflow["jobs"]["delta-lint"]["steps"]
    checkout = steps[0]
    assert checkout["uses"].startswith("actions/checkout@") and checkout["with"]["fetch-depth"] == 0
    assert checkout["with"]["submodules"] is True  # the vendored copy is a submodule
    lint = next(s for s in steps if s.get("id") == "lint")
    assert lint["uses"] == "./tools/delta-lint"
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert set(lint["with"]) <= set(action["inputs"])
    upload = steps[-1]
    assert "steps.lint.outputs.sarif-file" in upload["with"]["sarif_file"] and "sarif-file" in action["outputs"]
    assert "v0.1.0" not in (ROOT / "README.md").read_text()  # no tag that does not exist
    one_step = readme_block("      - run: pip install")
    command = yaml.safe_load(one_step)[0]["run"]
    assert command.startswith("pip install ./tools/delta-lint && delta-lint check . --diff-base ")
    assert "--format github" in command
