"""Discovery: which files are read, in which order."""

from __future__ import annotations

import os

from delta_lint.frontend.discover import discover


def test_discovery_skips_hidden_venvs_and_excluded(tmp_path):
    files = {
        "jobs/b.sql": "DELETE FROM t;",
        "jobs/a.py": "x = 1",
        "jobs/nb.ipynb": "{}",
        "jobs/notebook_src": "# Databricks notebook source\nx = 1\n",
        "jobs/readme.md": "# not code",
        "jobs/scratch/tmp.sql": "DELETE FROM t;",
        ".hidden/c.sql": "DELETE FROM t;",
        "venv_x/pyvenv.cfg": "home = /usr",
        "venv_x/lib/d.py": "x = 1",
        "__pycache__/e.py": "x = 1",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "jobs" / "blob.sql").write_bytes(b"\x00\x01binary")  # analysed, with a DL003 warning
    os.symlink(tmp_path / "jobs", tmp_path / "jobs" / "loop")  # symlink loops are not followed
    found = discover([tmp_path], tmp_path, ("jobs/scratch/**",))
    rel = [p.relative_to(tmp_path).as_posix() for p in found.files]
    assert rel == ["jobs/a.py", "jobs/b.sql", "jobs/blob.sql", "jobs/nb.ipynb", "jobs/notebook_src"]
    assert found.problems == []


def test_explicit_paths_that_cannot_be_read_are_problems(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    found = discover([tmp_path / "missing.sql", tmp_path / "notes.txt"], tmp_path)
    assert [why for _, why in found.problems] == ["no such file or directory", "not a SQL, Python or notebook file"]


def test_a_project_folder_named_env_is_read_unless_it_is_a_virtual_environment(tmp_path):
    """`env/` often holds a team's per-environment code; a virtual environment of that
    name has pyvenv.cfg, conda-meta or (an older virtualenv) only its interpreter."""
    files = {"env/prod/load.py": "x = 1", "venvs/a/env/pyvenv.cfg": "home = /usr", "venvs/a/env/lib/x.py": "x = 1"}
    files |= {"venvs/b/env/bin/python": "", "venvs/b/env/lib/y.py": "x = 1"}
    files |= {"venvs/c/env/Scripts/python.exe": "", "venvs/c/env/Lib/z.py": "x = 1"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = discover([tmp_path], tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == ["env/prod/load.py"]
