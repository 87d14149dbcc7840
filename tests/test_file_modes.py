"""Files delta-lint writes have the modes a user expects: a new file follows the
umask (not 0600), and a file `advise --apply` edits keeps its own mode."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.security.test_output_neutralised import BUNDLE

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def _cli(cwd: Path, *args: str, umask: int = 0o022) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "delta_lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        umask=umask,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "bundle"
    (root / "jobs").mkdir(parents=True)
    (root / "jobs" / "a.sql").write_text("DELETE FROM main.s.t WHERE id = 1;\n")
    (root / "jobs" / "b.sql").write_text("DELETE FROM main.s.t WHERE id = 2;\n")
    (root / "databricks.yml").write_text(
        BUNDLE.replace("<img src=x onerror=alert(1)>", "a").replace("b ![p](https://e.invalid/p.png) @octocat", "b")
    )
    (root / "delta-lint.yaml").write_text("spark: none\n")
    return root


@pytest.mark.parametrize(("umask", "expected"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_files_follow_the_umask(tmp_path, umask, expected):
    root = _project(tmp_path)
    proc = _cli(root, "check", ".", "--no-cache", "--output", "out/report.txt", umask=umask)
    assert proc.returncode == 1, proc.stderr
    assert _mode(root / "out" / "report.txt") == expected
    assert _cli(root, "check", ".", "--no-cache", "--write-baseline", "base.json", umask=umask).returncode == 0
    assert _mode(root / "base.json") == expected


@pytest.mark.parametrize("mode", [0o755, 0o640])
def test_advise_apply_keeps_the_mode_of_the_file_it_edits(tmp_path, mode):
    root = _project(tmp_path)
    bundle = root / "databricks.yml"
    bundle.chmod(mode)
    before = bundle.read_text()
    proc = _cli(root, "advise", "--apply", "--budget", "1")
    assert proc.returncode == 0, proc.stderr
    assert bundle.read_text() != before and "depends_on" in bundle.read_text()  # it was edited
    assert _mode(bundle) == mode
    # and rewriting an existing output keeps the mode the user gave it
    out = root / "report.txt"
    out.write_text("old\n")
    out.chmod(0o640)
    _cli(root, "check", ".", "--no-cache", "--output", "report.txt")
    assert _mode(out) == 0o640 and out.read_text() != "old\n"
