"""`--config` naming a file outside the checkout (the README's advice for untrusted
pull requests) only configures: the project root stays where the checked paths are,
so the bundle is found and the findings are those of the same file inside."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.security.test_threat_model import cli

BUNDLE = """
bundle:
  name: demo
resources:
  jobs:
    nightly:
      name: nightly
      tasks:
        - task_key: a
          sql_task: {file: {path: ./jobs/a.sql}, warehouse_id: w}
        - task_key: b
          depends_on: [{task_key: a}]
          sql_task: {file: {path: ./jobs/b.sql}, warehouse_id: w}
        - task_key: c
          sql_task: {file: {path: ./jobs/c.sql}, warehouse_id: w}
"""
CONFIG = "spark: none\njobs:\n  cleanup:\n    paths: [jobs/d.sql, jobs/e.sql]\n"


def _checkout(tmp_path: Path, git: bool) -> Path:
    root = tmp_path / "checkout"
    (root / "jobs").mkdir(parents=True)
    # a and b: one after the other in the bundle; d and e: one configured job
    for name, n in (("a", 1), ("b", 2), ("c", 3), ("d", 4)):
        (root / "jobs" / f"{name}.sql").write_text(f"DELETE FROM main.s.t WHERE id = {n};\n")
    (root / "jobs" / "e.sql").write_text("UPDATE main.s.t SET v = 1;\n")
    (root / "databricks.yml").write_text(BUNDLE)
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _findings(root: Path, *args: str) -> list[tuple]:
    proc = cli(root, "check", "--no-cache", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return sorted(
        (f["rule"], f["location"]["path"], tuple(r["path"] for r in f.get("related", [])))
        for f in json.loads(proc.stdout)["findings"]
    )


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize("own_config", [True, False])
def test_a_configuration_outside_the_checkout_gives_the_findings_of_the_same_one_inside(tmp_path, git, own_config):
    root = _checkout(tmp_path, git)
    (root / "delta-lint.yaml").write_text(CONFIG)
    inside = _findings(root, ".")
    assert inside
    pairs = {frozenset((p, other)) for _, p, related in inside for other in related}
    # the bundle and the configuration's `jobs:` are read: a-b run one after the other, d-e are one job
    assert not {frozenset(("jobs/a.sql", "jobs/b.sql")), frozenset(("jobs/d.sql", "jobs/e.sql"))} & pairs, inside
    outside = tmp_path / "ci" / "delta-lint.yaml"
    outside.parent.mkdir()
    outside.write_text(CONFIG)
    if not own_config:
        (root / "delta-lint.yaml").unlink()
    else:
        (root / "delta-lint.yaml").write_text("spark: none\n")  # the checkout's own: not what configures
    assert _findings(root, ".", "--config", str(outside)) == inside
    assert _findings(root, "--config", str(outside)) == inside  # no path: the working directory's project
    assert _findings(root, "jobs", "--config", str(outside)) == inside


def test_a_configuration_inside_the_checkout_still_roots_the_project_at_its_folder(tmp_path):
    root = _checkout(tmp_path, git=True)
    (root / "jobs" / "delta-lint.yaml").write_text("spark: none\n")
    shown = cli(root, "check", "jobs", "--config", "jobs/delta-lint.yaml", "--show-settings")
    assert shown.returncode == 0, shown.stderr
    assert 'root             = "jobs"' in shown.stdout


def _project_findings(cwd: Path, root: Path, *paths: str) -> list[tuple]:
    """Findings of `check PATHS` run from `cwd`, their paths made relative to `root`."""
    proc = cli(cwd, "check", "--no-cache", "--format", "json", *paths)
    assert proc.returncode in (0, 1), proc.stderr

    def rel(path: str) -> str:
        return (cwd / path).resolve().relative_to(root.resolve()).as_posix()

    return sorted(
        (f["rule"], rel(f["location"]["path"]), tuple(rel(r["path"]) for r in f.get("related", [])))
        for f in json.loads(proc.stdout)["findings"]
    )


@pytest.mark.parametrize("git", [True, False])
def test_a_project_without_configuration_gives_the_same_findings_from_any_folder(tmp_path, git):
    """Without a configuration file the root is the project's own work tree (or the
    one folder checked, outside a work tree) unless the working directory lies inside
    it: checked from outside, the project's own job definitions are read (the bundle
    orders a and b), and checked from the folder above several projects, theirs are
    not."""
    root = _checkout(tmp_path, git)
    inside = _project_findings(root, root, ".")
    assert inside
    assert not any({"jobs/a.sql", "jobs/b.sql"} <= {p, *related} for _, p, related in inside), inside
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert _project_findings(elsewhere, root, str(root)) == inside
    if git:  # a folder of the work tree checked from outside it: the work tree is the project
        assert _project_findings(elsewhere, root, str(root / "jobs")) == inside
    # inside the project, the working directory stays the root (a monorepo's sub-project)
    assert _project_findings(root / "jobs", root, ".") != inside
    if git:  # from the folder above, beside another project whose bundle names files it lacks
        other = tmp_path / "other"
        (other / "jobs").mkdir(parents=True)
        (other / "databricks.yml").write_text(BUNDLE.replace("demo", "other"))
        subprocess.run(["git", "init", "-q", str(other)], check=True)
        assert _project_findings(tmp_path, root, "checkout") == inside


def test_show_settings_says_where_a_root_without_configuration_comes_from(tmp_path):
    root = _checkout(tmp_path, git=True)
    (tmp_path / "elsewhere").mkdir()
    shown = cli(tmp_path / "elsewhere", "check", str(root), "--show-settings")
    assert shown.returncode == 0, shown.stderr
    assert "the checked project (the working directory lies outside it)" in shown.stdout
    assert "no configuration file: the working directory" in cli(root, "check", ".", "--show-settings").stdout
