"""A pool's number of workers read through the value layer, not only as a literal.

A pool of one worker runs its calls one after another: no two of them run at the
same time. The number may be written as a value (`n = 1; ThreadPoolExecutor(n)`,
`max_workers=CFG["workers"]`, a module constant read in a function, joblib's
`n_jobs=N`): it is read where the hand-out stands, when it holds there what it
held where the pool was made. A number not known (a run's argument, one of
several values, a name rebound between, or one a function may rebind through
`global`) leaves the pool one of many workers: its calls may run together."""

from __future__ import annotations

import pytest

LOAD = """\
import sys
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.pool import ThreadPool
from joblib import Parallel, delayed


def load(region):
    spark.sql(f"UPDATE main.sales.orders SET v = 1 WHERE region = '{region}'")


"""

MAP = '    list(pool.map(load, ["eu", "us"]))\n'

# (how the count is written, then the pool and its hand-out), for a count of 1
ONE_WORKER = {
    "a name": "n = {n}\nwith ThreadPoolExecutor(n) as pool:\n" + MAP,
    "a dict's entry": 'W = {{"workers": {n}}}\nwith ThreadPoolExecutor(max_workers=W["workers"]) as pool:\n' + MAP,
    "a module constant in a function": (
        "WORKERS = {n}\n\n\ndef main():\n    with ThreadPool(WORKERS) as pool:\n"
        '        pool.map(load, ["eu", "us"])\n\n\nmain()\n'
    ),
    "a sum": "BASE = {n}\npool = ThreadPoolExecutor(BASE + 0)\n" + MAP.strip() + "\n",
    "joblib's n_jobs": 'JOBS = {n}\nParallel(n_jobs=JOBS)(delayed(load)(r) for r in ["eu", "us"])\n',
}


def _conflicts(lint, code: str) -> list[str]:
    result = lint({"job.py": LOAD + code})
    return sorted({f.rule for f in result.findings if f.rule.startswith("DL1")})


@pytest.mark.parametrize("shape", ONE_WORKER)
def test_a_pool_of_one_worker_written_as_a_value_runs_its_calls_in_order(lint, shape: str) -> None:
    assert _conflicts(lint, ONE_WORKER[shape].format(n=1)) == []


@pytest.mark.parametrize("shape", ONE_WORKER)
def test_a_pool_of_several_workers_written_as_a_value_runs_them_together(lint, shape: str) -> None:
    assert _conflicts(lint, ONE_WORKER[shape].format(n=4)) == ["DL102"]


NOT_KNOWN = {
    "a run's argument": "n = int(sys.argv[1])\nwith ThreadPoolExecutor(n) as pool:\n" + MAP,
    "one of several": "n = 1 if sys.argv[1:] else 4\nwith ThreadPoolExecutor(n) as pool:\n" + MAP,
    "rebound after the pool is made": "n = 4\npool = ThreadPoolExecutor(n)\nn = 1\n" + MAP.strip() + "\n",
    "rebound through global": (
        "n = 1\n\n\ndef grow():\n    global n\n    n = 4\n\n\ngrow()\nwith ThreadPoolExecutor(n) as pool:\n" + MAP
    ),
}


@pytest.mark.parametrize("shape", NOT_KNOWN)
def test_a_number_of_workers_not_known_as_one_leaves_the_calls_together(lint, shape: str) -> None:
    assert _conflicts(lint, NOT_KNOWN[shape]) == ["DL102"]
