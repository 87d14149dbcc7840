"""A saved file is often a new file: editors that save safely write the text to a
temporary file and rename it over the old one, and `sed -i` or a checkout replace
it; the name then stands for a new inode. The walk that tells a new process what
changed since the last run takes such a file as changed, as it takes one written
in place, while it is still a regular file: only the changed file is read, no
listing is asked again. A name that now stands for something else (a pipe) is
not a changed file: the run discovers the project again. Each run prints what a
cold `--no-cache` run prints."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.test_recheck import _project

B = "UPDATE main.s.events SET x = 1 WHERE id = {n};\n"


def _renamed(path: Path, text: str) -> None:
    """A safe save: the text written beside the file, then renamed over it."""
    spare = path.with_name(f".{path.name}.saving")
    spare.write_text(text)
    os.replace(spare, path)


def _moved_in(path: Path, text: str) -> None:
    """A checkout's way: the text written outside the project, then moved over the file."""
    draft = path.parents[2] / f"{path.name}.draft"
    draft.write_text(text)
    os.replace(draft, path)


def _stats(root: Path, as_cold: bool = True) -> dict[str, str]:
    cold = run_cli("check", ".", "--format", "json", "--no-cache", cwd=root)
    kept = run_cli("check", ".", "--format", "json", "--show-stats", cwd=root)
    if as_cold:
        assert (kept.returncode, kept.stdout) == (cold.returncode, cold.stdout)
    return {line[:19].strip(): line[19:].strip() for line in kept.stderr.splitlines() if len(line) > 19}


@pytest.mark.parametrize("save", [_renamed, _moved_in, Path.write_text], ids=["renamed", "moved in", "in place"])
def test_a_file_saved_as_a_new_file_is_the_only_file_read(tmp_path, save):
    root = tmp_path / "p"
    _project(root)
    for _ in range(2):  # the second cached run keeps what the walk vouches for
        run_cli("check", ".", "--format", "json", cwd=root)
    b = root / "jobs" / "b.sql"
    for n in (8, 9):
        before = os.stat(b).st_ino
        save(b, B.format(n=n))
        if save is not Path.write_text:
            assert os.stat(b).st_ino != before
        stats = _stats(root)
        assert (stats["files read"], stats["files from cache"], stats["listed files read"]) == ("1", "0", "0"), stats


def test_a_file_replaced_by_a_pipe_is_discovered_again(tmp_path):
    """The near miss: the name stands for a pipe now, which no run reads as a file."""
    root = tmp_path / "p"
    _project(root)
    for _ in range(2):
        run_cli("check", ".", "--format", "json", cwd=root)
    b = root / "jobs" / "b.sql"
    b.unlink()
    os.mkfifo(b)
    # not compared with a cold run: the schedule kept from the last run still finds
    # b.sql as the task's file (the cold run says the task's file is not in the
    # project), on main as here; the walk's part is that this is no re-check
    stats = _stats(root, as_cold=False)
    assert stats["files from cache"] != "0", stats  # discovery, then the cache: not a re-check
