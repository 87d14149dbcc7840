"""Lists of threads are read in bounded work, whatever shape builds them.

A list of threads is kept item by item (see `pools.Lifetimes`). Two kinds of shape
once made that reading grow past any bound: a list built from itself (`ts = ts +
ts`, `ts = [*ts, *ts]`, `ts += ts`, `ts.extend(ts)`), and lists nested in lists
handed to code not read here (`print([[l1, l1], ...])`, a nested function naming
them, a second hand-off). Each is read here at ten times the size that once took
minutes or gigabytes, and the outcome is asserted, not the time: the threads found
running together still are, the near miss started and joined one after the other
still is not, and past the steps a scope has, its threads may run together (the
sound answer), never a hang."""

from __future__ import annotations

import pytest

LOAD = """\
from threading import Thread


def load(region):
    spark.sql(f"UPDATE main.sales.orders SET v = 1 WHERE region = '{region}'")


"""


def _conflicts(lint, code: str) -> list[str]:
    result = lint({"job.py": LOAD + code})
    return sorted(f.rule for f in result.findings if f.rule.startswith("DL1"))


# a list built from itself, 260 times over (ten times the 26 lines that once held 2**26 items)
DOUBLINGS = {
    "added to itself": "ts = ts + ts\n",
    "added to itself thrice": "ts = ts + ts + ts\n",
    "spliced into a literal": "ts = [*ts, *ts]\n",
    "extended in place": "ts += ts\n",
    "extended by a call": "ts.extend(ts)\n",
}


@pytest.mark.parametrize("shape", DOUBLINGS)
def test_a_list_built_from_itself_keeps_its_threads_together(lint, shape: str) -> None:
    code = (
        'ts = [Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))]\n'
        + DOUBLINGS[shape] * 260
        + "for t in ts:\n    t.start()\nfor t in ts:\n    t.join()\n"
    )
    assert _conflicts(lint, code) == ["DL102"]


@pytest.mark.parametrize("shape", DOUBLINGS)
def test_a_list_built_from_itself_started_and_joined_in_turn_runs_alone(lint, shape: str) -> None:
    code = (
        'ts = [Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))]\n'
        + DOUBLINGS[shape] * 260
        + "for t in ts:\n    t.start()\n    t.join()\n"
    )
    assert _conflicts(lint, code) == []


def _nested(levels: int, width: int) -> str:
    """`l1 = [a, a, ...]`, `l2 = [l1, l1, ...]`, ...: lists of the same list, `levels` deep."""
    lines = ["l1 = [" + ", ".join(["a"] * width) + "]\n"]
    lines += [f"l{n} = [" + ", ".join([f"l{n - 1}"] * width) + "]\n" for n in range(2, levels + 1)]
    return "".join(lines)


# each hands the outermost of six nested lists (2580 names in all: ten times the 4 KB
# repro) to code not read here
HAND_OFFS = {
    "printed": "print(l{top})\n",
    "printed again and again": "print(l{top})\n" * 200,
    "named by a nested function": "def show():\n    return " + " + ".join(["l{top}"] * 200) + "\n",
}


@pytest.mark.parametrize("hand_off", HAND_OFFS)
def test_a_thread_deep_in_nested_lists_handed_on_may_run_with_another(lint, hand_off: str) -> None:
    code = (
        'a = Thread(target=load, args=("eu",))\nb = Thread(target=load, args=("us",))\n'
        + _nested(6, 430)
        + HAND_OFFS[hand_off].format(top=6)
        + "b.start()\nb.join()\n"
    )
    assert _conflicts(lint, code) == ["DL102"]


def test_a_thread_in_nested_lists_not_handed_on_runs_alone(lint) -> None:
    code = (
        'a = Thread(target=load, args=("eu",))\nb = Thread(target=load, args=("us",))\n'
        + _nested(4, 2560)
        + "a.start()\na.join()\nb.start()\nb.join()\n"
    )
    assert _conflicts(lint, code) == []


@pytest.mark.parametrize(("hand_offs", "expected"), [(5, []), (40, ["DL102"])])
def test_nested_lists_handed_on_as_they_grow_spend_the_scope_together(
    lint, hand_offs: int, expected: list[str]
) -> None:
    """Each hand-off after a list grew walks the nest again, at a cost: a few are
    followed (the threads started and joined in turn run alone), but past the
    scope's steps its threads may all run together, never a hang."""
    code = (
        'a = Thread(target=load, args=("eu",))\nb = Thread(target=load, args=("us",))\n'
        + _nested(4, 256)
        + "l1.append([b])\nprint(l4)\n" * hand_offs
        + "a.start()\na.join()\nb.start()\nb.join()\n"
    )
    assert _conflicts(lint, code) == expected
