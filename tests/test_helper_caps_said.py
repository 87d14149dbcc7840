"""A helper call the walker's caps leave unread (a chain of calls more than
`MAX_HELPER_DEPTH` helpers deep, the 65th and later calls of one helper) says so at that call (DL008),
once a cause (at the first such call), never a write lost with nothing said. A chain within the caps, and a
recursion (whose writes are read at its first call), say nothing."""

from __future__ import annotations

from delta_lint.frontend.values.resolver import MAX_HELPER_DEPTH

WRITE = '    spark.sql(f"DELETE FROM {t} WHERE 1=1")\n'


def _chain(depth: int) -> str:
    lines = [f"def h{n}(t):\n    h{n + 1}(t)\n" for n in range(depth)]
    return "".join(lines) + f"def h{depth}(t):\n" + WRITE + 'h0("main.s.deep")\n'


def _budget_lines(result) -> list[int]:
    return sorted(f.location.line for f in result.findings if f.rule == "DL008")


def test_a_chain_past_the_depth_cap_is_said_at_the_call(lint):
    result = lint({"job.py": _chain(MAX_HELPER_DEPTH)})
    assert not [i for i in result.intents if i.table and i.table.name == "main.s.deep"]
    assert _budget_lines(result) == [2 * MAX_HELPER_DEPTH]  # the deepest call, in the helper above: not followed


def test_calls_past_the_count_cap_are_said_once_at_the_first(lint):
    job = "def purge(t):\n" + WRITE + "".join(f'purge("main.s.t{n}")\n' for n in range(66))
    result = lint({"job.py": job})
    # the 64 calls read, and the helper's write as written (its table a parameter:
    # unresolved), kept because two calls are not read
    assert {i.table.name for i in result.intents} == {f"main.s.t{n}" for n in range(64)} | {"{t}"}
    assert _budget_lines(result) == [67]  # "its later calls are not read": one note for the cause


def test_a_chain_within_the_caps_or_a_recursion_says_nothing(lint):
    result = lint({"job.py": _chain(3)})
    assert [i.table.name for i in result.intents] == ["main.s.deep"]
    assert not _budget_lines(result)
    recursion = "def walk(t, n):\n" + WRITE + "    if n:\n        walk(t, n - 1)\n" + 'walk("main.s.r", 3)\n'
    result = lint({"job.py": recursion})
    assert [i.table.name for i in result.intents] == ["main.s.r"]
    assert not _budget_lines(result)
