"""Pairs of writes of one file: what the file's nodes answer is kept per file, what the
two writes themselves decide (a stream that keeps running, a thread pool's calls) is
read for each pair. An answer must never depend on which pairs were asked before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from delta_lint.model import Intent, Kind, Location, TableRef
from delta_lint.schedule import Node, Schedule, build_schedule
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from corpus import Corpus  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    Corpus(120, seed=3).write(out)
    return out


def _write(line: int, kind: Kind = Kind.UPDATE, **kw) -> Intent:
    return Intent(Location("job.py", line, 1), TableRef("main.s.t"), kind, **kw)


def test_a_stream_in_the_file_meets_its_later_writes_and_no_other_pair():
    """One run of a lone file writes in order; a streaming query started in it keeps
    running while what follows it runs. Asked in any order, the stream's pairs meet
    and the plain pairs do not: the stream's answer is not kept for the file."""
    start = Location("job.py", 3, 1)
    before, after, later = _write(1), _write(7), _write(9, Kind.DELETE)
    stream = _write(3, Kind.BLIND_APPEND, stream=start)
    pairs = [(before, after), (stream, after), (after, later), (before, stream), (stream, later), (before, after)]
    for order in (pairs, pairs[::-1]):
        schedule = Schedule(nodes_of={"job.py": (Node("job.py"),)})
        answers = {(a.location.line, b.location.line): schedule.overlap(a, b) for a, b in order}
        assert answers[(1, 7)] is None and answers[(7, 9)] is None and answers[(1, 3)] is None
        assert "keeps running" in answers[(3, 7)].reason and "keeps running" in answers[(3, 9)].reason


def test_a_file_whose_runs_overlap_meets_itself_in_every_pair():
    """A configured job of two concurrent runs: the nodes' answer holds for every pair
    of the file's writes, the first pair asked and the ones after it alike."""
    schedule = Schedule(nodes_of={"job.py": (Node("ingest", None, "config"),)}, config_runs={"ingest": 2})
    first, second = _write(1), _write(2)
    answers = [schedule.overlap(a, b) for a, b in ((first, second), (second, first), (first, first))]
    assert all(a is not None and "concurrent_runs: 2" in a.reason for a in answers)
    quiet = Schedule(nodes_of={"job.py": (Node("ingest", None, "config"),)}, config_runs={"ingest": 1})
    assert [quiet.overlap(a, b) for a, b in ((first, second), (second, first))] == [None, None]


@pytest.mark.parametrize("where", ["corpus", "fixtures"])
def test_pairs_of_one_file_answer_alike_in_any_order(where, corpus, monkeypatch):
    """Every pair of writes of one file, asked first to last on one schedule and last
    to first on another, gets the same answer, reason included."""
    from delta_lint.config import load_config
    from delta_lint.run import analyze
    from delta_lint.schedule import load_workflows

    root = corpus if where == "corpus" else ROOT / "fixtures"
    monkeypatch.chdir(root)
    config = load_config(cwd=root)
    results, _, rel_paths = analyze([root], config, cwd=root, use_cache=False)
    by_file: dict[str, list[Intent]] = {}
    for r in results:
        for i in r.intents:
            by_file.setdefault(i.location.path, []).append(i)
    pairs = [(a, b) for group in by_file.values() for a in group for b in group]
    forward = build_schedule(config, rel_paths, load_workflows(config))
    backward = build_schedule(config, rel_paths, load_workflows(config))
    answers = [forward.overlap(a, b) for a, b in pairs]
    assert answers == [backward.overlap(a, b) for a, b in pairs[::-1]][::-1]
    assert len(pairs) > 100 and any(a is not None for a in answers)
