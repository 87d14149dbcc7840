"""The run's notes read more than the tables a run judges: the note on a notebook
a thread pool's calls run with the input naming its table known only at run time
(`schedule.pool_notes`) reads that notebook's intents. A run that judges a few
tables (a re-check after an edit elsewhere, in a new process or a long-lived
caller) or takes the others' findings from the cache (a full run after a new
file) still says it, as a cold run does; the command line's JSON
output is a cold run's byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.cache import Memory
from delta_lint.config import load_config
from delta_lint.run import RunResult, check
from tests.conftest import run_cli
from tests.test_link import NB
from tests.test_self_overlap import RUN_EACH

POOL_NOTE = "is run by the calls of the thread pool"
X_SQL = "UPDATE main.s.t SET x = 1 WHERE id = 1;\nDELETE FROM main.s.t WHERE id = 2;\n"


def _project(root: Path) -> None:
    """load.py names its table by an input a pool's calls in parent.py give a value
    only a run knows; x.sql writes a table of its own."""
    (root / "jobs").mkdir(parents=True)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    (root / "jobs" / "load.py").write_text(
        NB + 'region = dbutils.widgets.get("region")\n'
        "spark.sql(f\"UPDATE main.ops.events_{region} SET x = 1 WHERE kind = 'a'\")\n"
    )
    (root / "jobs" / "alone.py").write_text(NB + 'dbutils.notebook.run("./load", 3600, {"region": "us"})\n')
    parent = RUN_EACH.replace("run(path, 3600", 'run("./load", 3600').replace('{"env": "prod"}', '{"region": path}')
    (root / "jobs" / "parent.py").write_text(NB + parent.replace("ITEMS", "spark.table('r').collect()"))
    (root / "jobs" / "x.sql").write_text(X_SQL)


EDITS = {
    "comment": lambda root: (root / "jobs" / "x.sql").write_text(X_SQL + "-- saved again\n"),
    "statement": lambda root: (root / "jobs" / "x.sql").write_text(X_SQL + "UPDATE main.s.t SET y = 2;\n"),
    "new file": lambda root: (root / "jobs" / "y.sql").write_text("DELETE FROM main.s.u WHERE id = 3;\n"),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_run_after_an_edit_elsewhere_says_the_pool_note(tmp_path, edit):
    root = tmp_path / "p"
    _project(root)
    first = run_cli("check", ".", "--format", "json", cwd=root)
    assert POOL_NOTE in first.stdout
    EDITS[edit](root)
    cold = run_cli("check", ".", "--format", "json", "--no-cache", cwd=root)
    kept = run_cli("check", ".", "--format", "json", "--show-stats", cwd=root)
    assert POOL_NOTE in cold.stdout
    assert (kept.returncode, kept.stdout) == (cold.returncode, cold.stdout)
    if edit != "new file":
        assert "files analysed      1\n" in kept.stderr, kept.stderr  # a re-check


def _notes(root: Path, memory: Memory) -> tuple[RunResult, RunResult]:
    kept = check([root], load_config(None, cwd=root), cwd=root, jobs=1, memory=memory)
    cold = check([root], load_config(None, cwd=root), cwd=root, jobs=1, use_cache=False)
    return kept, cold


@pytest.mark.parametrize("edit", ["comment", "statement"])
def test_a_long_lived_callers_recheck_says_the_pool_note(tmp_path, edit):
    root = tmp_path / "p"
    _project(root)
    memory = Memory()
    _notes(root, memory)
    EDITS[edit](root)
    kept, cold = _notes(root, memory)
    assert kept.stats.files_analysed == 1, kept.stats
    assert any(POOL_NOTE in n for n in cold.notes)
    assert kept.notes == cold.notes
