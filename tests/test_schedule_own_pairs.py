"""What two writes of one file decide themselves (a stream that keeps running, a
thread pool's calls) does not depend on which of the file's nodes runs them: it is
asked once per pair, at the first pair of a node with itself, for a file of one node
and for a file several jobs run alike. A write with another run of itself never
meets itself through its own stream; through a pool that runs it for any item it
does."""

from __future__ import annotations

import pytest

from delta_lint.model import Intent, Kind, Location, TableRef
from delta_lint.schedule import CODE, Node, Schedule

START = Location("job.py", 3, 1)
POOL = Location("job.py", 20, 5)


def _write(line: int, kind: Kind = Kind.UPDATE, **kw) -> Intent:
    return Intent(Location("job.py", line, 1), TableRef("main.s.t"), kind, **kw)


def _one_node() -> Schedule:
    return Schedule(nodes_of={"job.py": (Node("job.py"),)})


def _two_jobs_apart() -> Schedule:
    """Two configured jobs run the file, one run each, never together (`exclusive`):
    no pair of its nodes overlaps, so only the writes themselves can."""
    nodes = (Node("nightly", None, "config"), Node("backfill", None, "config"))
    return Schedule(nodes_of={"job.py": nodes}, exclusive=(frozenset({"nightly", "backfill"}),))


@pytest.mark.parametrize("schedule_of", [_one_node, _two_jobs_apart])
def test_a_stream_meets_what_follows_it_whichever_nodes_run_the_file(schedule_of):
    schedule = schedule_of()
    before, after = _write(1), _write(7)
    stream = _write(3, Kind.BLIND_APPEND, stream=START)
    for _ in range(2):  # the second time from what the first kept
        found = schedule.overlap(stream, after)
        assert found is not None and "keeps running" in found.reason
        assert schedule.overlap(before, after) is None
        assert schedule.overlap(before, stream) is None


@pytest.mark.parametrize("schedule_of", [_one_node, _two_jobs_apart])
def test_a_write_meets_another_run_of_itself_only_through_a_pool(schedule_of):
    schedule = schedule_of()
    stream = _write(3, Kind.BLIND_APPEND, stream=START)
    any_item = _write(21, pool=POOL)  # read for any item: every call makes it
    one_item = _write(22, pool=POOL, pool_item="'eu'")
    for _ in range(2):
        assert schedule.overlap(stream, stream) is None
        assert schedule.overlap(one_item, one_item) is None
        found = schedule.overlap(any_item, any_item)
        assert found is not None and found.basis == CODE and found.distinct_runs
