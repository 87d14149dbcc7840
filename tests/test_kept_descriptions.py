"""A cron schedule's description (`daily at 01:00 UTC`, in the messages of the
findings its jobs' writes take part in) is worked out from its fire times over
weeks; the cache keeps each one by its expression and time zone, as it keeps
whether two schedules' runs meet. A re-check that judges a few tables takes the
descriptions their writers' schedules had; a schedule the cache has not seen
(a new expression, or the same one in another time zone) is described anew.
Each run is compared with a cold `--no-cache` run."""

from __future__ import annotations

from pathlib import Path

from delta_lint import run
from delta_lint.config import load_config
from delta_lint.run import RunResult, check
from tests.test_recheck import BUNDLE, _outcome, _project, _rechecked


def _run(root: Path, jobs: int = 1) -> RunResult:
    kept = check([root], load_config(None, cwd=root), cwd=root, jobs=jobs)
    cold = check([root], load_config(None, cwd=root), cwd=root, jobs=1, use_cache=False)
    assert _outcome(kept) == _outcome(cold)
    return kept


def _messages(result: RunResult) -> str:
    return "\n".join(f"{f.message} {f.overlap}" for f in result.findings)


def test_a_recheck_takes_the_descriptions_earlier_runs_kept(tmp_path):
    root = tmp_path / "p"
    _project(root)
    first = _run(root)
    assert first.stats.crons_described == 2  # nightly and hourly
    assert "daily at 01:00 UTC" in _messages(first)
    (root / "jobs" / "b.sql").write_text("UPDATE main.s.events SET x = 1 WHERE d = '2024-01-01';\n")
    again = _run(root)
    assert _rechecked(again), again.stats
    assert again.stats.crons_described == 0 and again.stats.windows_compared == 0
    assert "daily at 01:00 UTC" in _messages(again)


def test_a_schedule_in_another_time_zone_is_described_anew(tmp_path):
    """The near miss: the same expression in another zone reads differently, and
    is not taken for the kept description of the first."""
    root = tmp_path / "p"
    _project(root)
    _run(root)
    nightly = "quartz_cron_expression: '0 0 1 * * ?', timezone_id: UTC"
    assert nightly in BUNDLE
    (root / "databricks.yml").write_text(BUNDLE.replace(nightly, nightly.replace("UTC", "Europe/Amsterdam")))
    moved = _run(root)
    assert moved.stats.crons_described == 1  # hourly's is kept
    assert "daily at 01:00 Europe/Amsterdam" in _messages(moved)
    assert "daily at 01:00 UTC" not in _messages(moved)


def test_descriptions_worked_out_in_pairing_workers_are_kept(tmp_path, monkeypatch):
    """A large run judges its tables in forked workers: the descriptions they work
    out come back with their findings and are kept for the next run."""
    root = tmp_path / "p"
    _project(root)
    monkeypatch.setattr(run, "PARALLEL_MIN_INTENTS", 0)
    monkeypatch.setattr(run, "_can_fork", lambda: True)
    first = _run(root, jobs=2)
    assert first.stats.crons_described == 2
    monkeypatch.setattr(run, "PARALLEL_MIN_INTENTS", 10**9)
    (root / "jobs" / "b.sql").write_text("UPDATE main.s.events SET x = 1 WHERE d = '2024-01-02';\n")
    again = _run(root)
    assert again.stats.crons_described == 0, again.stats
