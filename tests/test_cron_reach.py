"""`cron.shortest_reach` reads one stretch of two periodic schedules' relative
positions: the same answer (the earliest closest run and its gap) as looking at
every run of the year, for schedules that are periodic and for ones that are not."""

from __future__ import annotations

from bisect import bisect_left
from datetime import timedelta

import pytest

from delta_lint.cron import fire_times, horizon, shortest_reach


def _every_run(a, b):
    best = None
    for t in a:
        k = bisect_left(b, t)
        if k < len(b) and (best is None or b[k] - t < best[1]):
            best = (t, b[k] - t)
    return best


PAIRS = [
    ("0 0 * * * ?", "0 30 2 * * ?"),  # hourly / daily
    ("0 15 */4 * * ?", "0 0 3 * * ?"),  # every 4 h from :15 / daily
    ("0 0 2 * * ?", "0 0 0 ? * SUN"),  # daily / weekly
    ("0 10/20 * * * ?", "0 0 1/3 * * ?"),  # every 20 min from :10 / every 3 h from 01:00
    ("0 0 1/5 * * ?", "0 40 0/7 * * ?"),  # periods of 5 h and 7 h: not a divisor of a day
    ("0 0 9 1 * ?", "0 0 8 * * ?"),  # monthly (not periodic) / daily
]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_one_stretch_gives_what_every_run_gives(first, second):
    start, end = horizon(timedelta(hours=2))
    a = fire_times(first, "UTC", start, end)
    b = fire_times(second, "UTC", start, end)
    assert a and b
    assert shortest_reach(a, b) == _every_run(a, b)
    assert shortest_reach(b, a) == _every_run(b, a)
