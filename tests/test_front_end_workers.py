"""How many processes read a run's files: decided from the work, not the machine alone.

A fork costs CPU (the worker's start, a memo of its own, its answers' trip back);
the default `--jobs 0` forks only when there are enough bytes to read after the
cache to keep each process busy, so a small project is read in the process that
checks it. `--show-stats` says how many workers were forked (`front end workers`;
0: every file was read in the run's own process).
"""

from __future__ import annotations

from pathlib import Path

from delta_lint.run import FORK_BYTES, PARALLEL_MIN_FILES, cores
from tests.conftest import run_cli

# a comment a front end reads past: the bytes are work to read, not more writes
FILLER = "# " + "x" * 98 + "\n"


def _project(root: Path, files: int, filler_lines: int) -> None:
    """`files` PySpark jobs writing two tables, each padded to its size with comments."""
    root.mkdir(exist_ok=True)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    for k in range(files):
        (root / f"job_{k:03d}.py").write_text(
            FILLER * filler_lines + f"spark.sql(\"DELETE FROM main.s.t{k % 2} WHERE d < '2020-01-{k % 28 + 1:02d}'\")\n"
        )


def _stats(*args: str, cwd: Path) -> tuple[dict[str, str], str]:
    done = run_cli("check", ".", "--format", "json", "--show-stats", *args, cwd=cwd)
    assert done.returncode == 1, done.stderr  # the near miss: the run checked and found
    return dict(line.rsplit(None, 1) for line in done.stderr.splitlines()), done.stdout


def test_a_small_project_is_read_in_one_process_by_default(tmp_path):
    """More files than the fork's floor, fewer bytes than a worker's share: one
    process, though the machine may have many cores; `--jobs 2` still forks them
    (the count asked for is honoured) and the findings are the same."""
    _project(tmp_path, PARALLEL_MIN_FILES + 6, 1)
    default, printed = _stats("--no-cache", cwd=tmp_path)
    assert int(default["files analysed"]) == PARALLEL_MIN_FILES + 6
    assert default["front end workers"] == "0"
    asked, again = _stats("--no-cache", "--jobs", "2", cwd=tmp_path)
    assert asked["front end workers"] == "2" and again == printed


def test_a_large_project_forks_by_default_and_its_unchanged_files_are_not_work(tmp_path):
    """More than `FORK_BYTES` of source: as many processes as the bytes and the
    cores allow. With the cache, only what is read again counts: one file edited in
    the same project is read in the run's own process, and an unchanged run reads
    nothing."""
    files = PARALLEL_MIN_FILES + 6
    lines = FORK_BYTES // (len(FILLER) * files) + 2  # just over one share in all
    _project(tmp_path, files, lines)
    assert sum(p.stat().st_size for p in tmp_path.glob("*.py")) > FORK_BYTES
    cold, printed = _stats(cwd=tmp_path)
    assert cold["front end workers"] == ("2" if cores() > 1 else "0")
    one, _ = _stats("--jobs", "1", "--no-cache", cwd=tmp_path)
    assert one["front end workers"] == "0"
    warm, _ = _stats(cwd=tmp_path)
    assert warm["front end workers"] == "0" and warm["files analysed"] == "0"
    edited = tmp_path / "job_000.py"
    edited.write_text(edited.read_text() + "# edited\n")
    changed, again = _stats(cwd=tmp_path)
    assert changed["front end workers"] == "0" and again == printed
