"""An edit that leaves a file's reading as it was (a comment added where it moves
no statement, a blank line at the end) changes the file's content but not what
the engine is given: the tables the file writes keep their engine results and
are not judged again, in a new process (the state kept in the cache) and in a
long-lived caller (the language server's memory). An edit that moves a statement
(a comment above it) or adds a suppression comment changes the reading: the
tables are judged again. Each run is compared with a cold `--no-cache` run, the
command line's JSON output byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.cache import Memory
from delta_lint.config import load_config
from delta_lint.run import RunResult, check
from tests.conftest import run_cli
from tests.test_recheck import _outcome, _project, _rechecked

B = "UPDATE main.s.events SET x = 1 WHERE id = 7;\n"


def _run(root: Path, memory: Memory | None = None) -> RunResult:
    kept = check([root], load_config(None, cwd=root), cwd=root, jobs=1, memory=memory)
    cold = check([root], load_config(None, cwd=root), cwd=root, jobs=1, use_cache=False)
    assert _outcome(kept) == _outcome(cold)
    return kept


# (what b.sql becomes, whether its tables are judged again)
EDITS = {
    "comment at the end": (B + "-- saved again\n", False),
    "blank lines at the end": (B + "\n\n", False),
    "comment above the statement": ("-- moved down a line\n" + B, True),
    "suppression comment": (B.rstrip("\n") + "  -- delta-lint: ignore\n", True),
    "statement": (B.replace("id = 7", "d = '2024-01-01'"), True),
}


@pytest.mark.parametrize("memory", [False, True], ids=["new process", "memory"])
@pytest.mark.parametrize("edit", list(EDITS))
def test_tables_are_judged_again_only_when_the_reading_changed(tmp_path, edit, memory):
    root = tmp_path / "p"
    _project(root)
    b = root / "jobs" / "b.sql"
    assert b.read_text() == B
    held = Memory() if memory else None
    first = _run(root, held)
    assert first.stats.tables_judged > 0
    text, judged = EDITS[edit]
    b.write_text(text)
    after = _run(root, held)
    assert _rechecked(after), after.stats
    assert (after.stats.tables_judged > 0) == judged, after.stats
    # and the next edit, a statement, from the state the run left: judged again
    b.write_text(B.replace("id = 7", "id = 8") + "-- and a comment\n")
    again = _run(root, held)
    assert _rechecked(again) and again.stats.tables_judged > 0, again.stats


def test_edits_that_keep_the_reading_one_after_another_print_a_cold_runs_output(tmp_path):
    """Comment after comment: each run keeps the tables' results (judged with the
    first content) and prints what a cold run prints; a statement edit after them
    is judged again, and so is taking it back (the tables' keys name the content
    last judged, not every content that read the same)."""
    root = tmp_path / "p"
    _project(root)
    b = root / "jobs" / "b.sql"
    run_cli("check", ".", "--format", "json", cwd=root)
    contents = [B + "-- one\n", B + "-- one\n-- two\n", B.replace("id = 7", "id = 9"), B + "-- three\n"]
    for n, content in enumerate(contents):
        b.write_text(content)
        cold = run_cli("check", ".", "--format", "json", "--no-cache", cwd=root)
        kept = run_cli("check", ".", "--format", "json", "--show-stats", cwd=root)
        assert (kept.returncode, kept.stdout) == (cold.returncode, cold.stdout), n
        judged = "id = 9" in content or n == 3  # the statement, then back to the first reading
        assert ("tables judged       0\n" in kept.stderr) != judged, (n, kept.stderr)
