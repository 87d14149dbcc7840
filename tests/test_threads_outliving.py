"""A thread whose run may outlive the call of the function that makes it.

A helper that makes a thread and returns it, stores it on `self`, hands it to a
call or leaves it running does not end it: the thread of its next call runs
while this one does. Such a thread is one of several, unless the function is
known to run once (one call in the module, not in a loop, made by code that
itself runs once). A helper that joins its thread before it returns runs it
alone, however often it is called."""

from __future__ import annotations

import pytest

LOAD = """\
import sys
from threading import Thread


def load(region):
    spark.sql(f"UPDATE main.sales.orders SET v = 2 WHERE region = '{region}'")


"""


def _conflicts(lint, code: str) -> list[str]:
    result = lint({"job.py": LOAD + code})
    return sorted({f.rule for f in result.findings if f.rule.startswith("DL1")})


# helpers whose thread outlives their call, each called for two regions
OUTLIVING = {
    "started and returned": (
        "def launch(r):\n    t = Thread(target=load, args=(r,))\n    t.start()\n    return t\n\n\n"
        'a = launch("eu")\nb = launch("us")\na.join()\nb.join()\n'
    ),
    "returned, started by the caller": (
        "def make(r):\n    return Thread(target=load, args=(r,))\n\n\n"
        'a = make("eu")\nb = make("us")\na.start()\nb.start()\na.join()\nb.join()\n'
    ),
    "handed to a call": (
        'def launch(r):\n    t = Thread(target=load, args=(r,))\n    register(t)\n\n\nlaunch("eu")\nlaunch("us")\n'
    ),
    "left running": ('def launch(r):\n    Thread(target=load, args=(r,)).start()\n\n\nlaunch("eu")\nlaunch("us")\n'),
    "stored on the object": (
        "class Loader:\n    def begin(self, r):\n        self.worker = Thread(target=load, args=(r,))\n"
        '        self.worker.start()\n\n\nLoader().begin("eu")\nLoader().begin("us")\n'
    ),
}


@pytest.mark.parametrize("shape", OUTLIVING)
def test_a_thread_that_outlives_its_helper_runs_with_the_next_calls(lint, shape: str) -> None:
    assert _conflicts(lint, OUTLIVING[shape]) == ["DL102"]


def test_a_helper_that_joins_its_thread_runs_it_alone(lint) -> None:
    code = (
        "def launch(r):\n    t = Thread(target=load, args=(r,))\n    t.start()\n    t.join()\n\n\n"
        'launch("eu")\nlaunch("us")\n'
    )
    assert _conflicts(lint, code) == []


HELPER = "def launch(r):\n    t = Thread(target=load, args=(r,))\n    t.start()\n    return t\n\n\n"

# (how the helper is called with a region only a run knows, whether it may run twice)
CALLERS = {
    "once": ("a = launch(sys.argv[1])\na.join()\n", False),
    "once, by a function called once": ("def main():\n    launch(sys.argv[1]).join()\n\n\nmain()\n", False),
    "once, in a branch": ("if sys.argv[2]:\n    launch(sys.argv[1]).join()\n", False),
    "in a loop": ("for r in sys.argv[1:]:\n    launch(r)\n", True),
    "in a comprehension": ("threads = [launch(r) for r in sys.argv[1:]]\n", True),
    "by a function called twice": ("def main():\n    launch(sys.argv[1])\n\n\nmain()\nmain()\n", True),
    "handed on as a value": ("callbacks = [launch]\n", True),
    "never, here": ("", True),
}


@pytest.mark.parametrize("caller", CALLERS)
def test_a_helper_known_to_run_once_runs_its_thread_alone(lint, caller: str) -> None:
    code, several = CALLERS[caller]
    assert _conflicts(lint, HELPER + code) == (["DL102"] if several else [])


def test_a_decorated_helper_may_run_several_times(lint) -> None:
    code = "@retry\n" + HELPER + "launch(sys.argv[1])\n"
    assert _conflicts(lint, code) == ["DL102"]
