"""A value function's `for` loop with `break`, `continue` or `else` is read as Python
runs it: the item it broke on, the statements a `continue` skips, the `else` of a
loop that did not break. Where the test that breaks is not known, the value is one of
those the ways give, never the first item picked."""

from __future__ import annotations

PICK = """def pick(wanted):
    for t in ["main.s.a", "main.s.b", "main.s.c"]:
        if not t.endswith(wanted):
            continue
        chosen = t
        break
    else:
        chosen = "main.s.none"
    return chosen
"""


def names(result) -> list[str]:
    return sorted(i.table.name if i.table else "?" for i in result.intents)


def test_a_loop_that_breaks_gives_the_item_it_broke_on(lint):
    use = "# Databricks notebook source\nfrom helpers import pick\nt = pick('b')\nspark.sql(f'DELETE FROM {t} WHERE id < 0')\n"
    assert names(lint({"helpers.py": PICK, "job.py": use})) == ["main.s.b"]
    use = "# Databricks notebook source\nfrom helpers import pick\nt = pick('z')\nspark.sql(f'DELETE FROM {t} WHERE id < 0')\n"
    assert names(lint({"helpers.py": PICK, "job.py": use})) == ["main.s.none"]


def test_a_break_on_a_test_not_known_is_no_one_item(lint):
    use = (
        "# Databricks notebook source\nfrom helpers import pick\n"
        "t = pick(dbutils.widgets.get('suffix'))\nspark.sql(f'DELETE FROM {t} WHERE id < 0')\n"
    )
    found = names(lint({"helpers.py": PICK, "job.py": use}))
    assert found != ["main.s.a"] and found != ["main.s.none"]
