"""Expressions that give a list of threads again, or some of its threads.

`ts * 2` holds the threads of `ts` (each once: a thread starts once), `ts if c
else us` and `ts or us` either list; `ts[0]` and `ts[1:]` some of the threads,
which ones not followed: those are handed on (they may start there and run on).
Each is read both ways: started then joined (together: DL102), and its near
miss, started and joined in turn (alone), where the form is followed."""

from __future__ import annotations

import pytest

LOAD = """\
import sys
from threading import Thread


def load(region):
    spark.sql(f"UPDATE main.sales.orders SET v = 1 WHERE region = '{region}'")


ts = [Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))]
"""

TOGETHER = "for t in ws:\n    t.start()\nfor t in ws:\n    t.join()\n"
IN_TURN = "for t in ws:\n    t.start()\n    t.join()\n"

FOLLOWED = {
    "repeated": "ws = ts * 2\n",
    "repeated, the count first": "ws = 1 * ts\n",
    "one list or another": "ws = ts if sys.argv[1:] else []\n",
    "one list or none": "ws = sys.argv[1:] and ts\n",
}


def _conflicts(lint, code: str) -> list[str]:
    result = lint({"job.py": LOAD + code})
    return sorted({f.rule for f in result.findings if f.rule.startswith("DL1")})


@pytest.mark.parametrize("form", FOLLOWED)
def test_a_list_of_threads_given_again_runs_them_together(lint, form: str) -> None:
    assert _conflicts(lint, FOLLOWED[form] + TOGETHER) == ["DL102"]


@pytest.mark.parametrize("form", FOLLOWED)
def test_a_list_of_threads_given_again_started_and_joined_in_turn_runs_alone(lint, form: str) -> None:
    assert _conflicts(lint, FOLLOWED[form] + IN_TURN) == []


@pytest.mark.parametrize(
    "code",
    [
        "ws = ts[:]\n" + IN_TURN,
        "ts[0].start()\nts[1].start()\n",
        "for i in range(2):\n    ts[i].start()\n    ts[i].join()\n",
    ],
)
def test_threads_taken_from_a_list_by_index_or_slice_may_run_together(lint, code: str) -> None:
    assert _conflicts(lint, code) == ["DL102"]


def test_threads_of_a_list_not_indexed_run_alone_when_joined_in_turn(lint) -> None:
    assert _conflicts(lint, "ws = ts\n" + IN_TURN) == []
