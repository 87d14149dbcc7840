"""A name a loop builds from its own last value (`n += 1`, `sql = sql + part`) holds,
after a loop whose turns are not known, what one turn cannot tell: it is not known
(a placeholder of the name says so), never the value before the loop or after one turn. Loops over
literal items are read turn by turn and stay exact."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
WRITE = 'spark.table("main.raw.a").write.mode("overwrite").saveAsTable({})\n'


def _tables(result, name: str) -> list[str]:
    return sorted(i.table.name for i in result.intents if i.location.path.endswith(name))


def test_a_counter_of_a_loop_of_unknown_turns_is_not_known(lint):
    job = (
        NB + "count = 0\nfor i in range(len(items)):\n    count = count + 1\n" + WRITE.format('"main.s.c" + str(count)')
    )
    result = lint({"job.py": job})
    assert _tables(result, "job.py") == ["main.s.c{count}"]
    # known in part: paired by its text, as `INSERT INTO main.s.c{count}` would be, the
    # engine saying the name's `{count}` is known only at run time
    # the near misses: a literal list's turns are read one by one; a name each turn
    # sets to the same value is one of before and after
    exact = NB + "count = 0\nfor i in [1, 2, 3]:\n    count = count + 1\n" + WRITE.format('"main.s.c" + str(count)')
    assert _tables(lint({"job.py": exact}), "job.py") == ["main.s.c3"]
    same = NB + 't = "main.s.a"\nfor i in items:\n    t = "main.s.b"\n' + WRITE.format("t")
    assert _tables(lint({"job.py": same}), "job.py") == ["main.s.a", "main.s.b"]


def test_a_helper_whose_loop_builds_its_result_returns_what_is_not_known(lint):
    helper = (
        NB + "def shard(n):\n    total = 0\n    for i in range(n):\n        total += 1\n"
        '    return "main.s.s" + str(total)\n\n' + WRITE.format("shard(3)")
    )
    assert _tables(lint({"job.py": helper}), "job.py") == ["main.s.s{total}"]
    listed = helper.replace("range(n)", "[1, 2, 3]")
    assert _tables(lint({"job.py": listed}), "job.py") == ["main.s.s3"]


def test_a_known_suffix_each_turn_appends_is_not_one_turn_s(lint):
    """`t = t + "_x"` in a loop of unknown turns may be `_x` once or many times: not
    known. A turn appending a part only a run knows keeps the text before it (the
    statement built for a SET list, tests/test_value_joins.py)."""
    job = NB + 't = "main.s.t"\nfor i in items:\n    t = t + "_x"\n' + WRITE.format("t")
    assert _tables(lint({"job.py": job}), "job.py") == ["{t}"]
