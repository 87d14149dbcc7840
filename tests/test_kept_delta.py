"""A re-check in a new process stores its project state as the changes to the
state last stored whole (a file's key, a table's writers and keys, the run's
key): edit after edit, each new process restores the whole state with the last
delta and re-checks from it. A full run stores the state whole again, and a
delta made against an earlier whole state is not applied to a later one. Each
run is compared with a cold `--no-cache` run and says, by its statistics,
whether it re-checked (one file read, none from the cache)."""

from __future__ import annotations

from pathlib import Path

from delta_lint.config import load_config
from delta_lint.run import RunResult, check
from tests.test_recheck import _outcome, _project, _rechecked


def _run(root: Path) -> RunResult:
    kept = check([root], load_config(None, cwd=root), cwd=root, jobs=1)
    cold = check([root], load_config(None, cwd=root), cwd=root, jobs=1, use_cache=False)
    assert _outcome(kept) == _outcome(cold)
    return kept


def test_edits_one_after_another_are_rechecked_from_the_whole_state_and_its_delta(tmp_path):
    root = tmp_path / "p"
    _project(root)
    b = root / "jobs" / "b.sql"
    _run(root)
    edits = [
        "UPDATE main.s.events SET x = 1 WHERE d = '2024-01-01';\n",  # a statement
        "UPDATE main.s.events SET x = 1 WHERE d = '2024-01-01';\nDELETE FROM main.s.other WHERE id = 4;\n",
        "DELETE FROM main.s.other WHERE id = 4;\n",  # b writes main.s.events no more
        "UPDATE main.s.events SET x = 2 WHERE id = 7;\n",  # and again, the other table no more
    ]
    results = []
    for text in edits:
        b.write_text(text)
        results.append(_run(root))
        assert _rechecked(results[-1]), (text, results[-1].stats)
    assert len({repr(_outcome(r)) for r in results}) == len(edits)  # each edit changed the findings


def test_a_delta_of_an_earlier_whole_state_is_not_applied_to_a_later_one(tmp_path):
    """The near miss: a re-check's delta, then a full run (a new file) that stores the
    state whole, then an edit: the re-check starts from the later whole state (the
    new file is in it), not from the earlier one with the stale delta."""
    root = tmp_path / "p"
    _project(root)
    b = root / "jobs" / "b.sql"
    first = _run(root)
    b.write_text("UPDATE main.s.events SET x = 1 WHERE d = '2024-01-01';\n")
    assert _rechecked(_run(root))
    (root / "jobs" / "e.sql").write_text("DELETE FROM main.s.events WHERE id = 11;\n")  # a full run
    full = _run(root)
    assert not _rechecked(full), full.stats
    b.write_text("UPDATE main.s.events SET x = 1 WHERE d = '2024-01-02';\n")
    after = _run(root)
    assert _rechecked(after), after.stats
    assert after.n_files == full.n_files == first.n_files + 1
