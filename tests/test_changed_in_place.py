"""A list, dict or set the code changes in place no longer holds its literal: every
method of `list`, `dict` and `set` that changes its receiver (`brains.IN_PLACE`:
`pop`, `remove`, `sort`, `reverse`, `clear`, `discard`, ...), an item deleted
(`del t[0]`), an augmented assignment of any operator (`t *= 2`, `s -= {x}`).
Reading the literal after such a change would name a table the code no longer
writes, certain; the write says it is dynamic instead (DL001). A method that only
reads (`index`, `count`, `copy`) leaves the literal known."""

from __future__ import annotations

import pytest

LIST = 'T = ["main.s.a", "main.s.b"]\n'
READ = 'spark.sql(f"DELETE FROM {T[0]} WHERE 1=1")\n'
LOOP = 'for t in T:\n    spark.sql(f"DELETE FROM {t} WHERE 1=1")\n'


def tables(result) -> list[str]:
    return sorted(
        "?" if i.table is None or "unresolved" in {f.value for f in i.flags} else i.table.name for i in result.intents
    )


def dynamic(result) -> int:
    return sum(d.rule == "DL001" for d in result.diagnostics)


@pytest.mark.parametrize(
    "change",
    [
        "del T[0]\n",
        "T.reverse()\n",
        "T.sort(reverse=True)\n",
        'T.remove("main.s.a")\n',
        "T.pop(0)\n",
        "T.clear()\n",
        "T *= 1\n",
    ],
)
def test_a_list_changed_in_place_is_not_its_literal(lint, change):
    result = lint({"job.py": LIST + change + READ})
    assert tables(result) == ["?"]
    assert dynamic(result) == 1


@pytest.mark.parametrize("change", ["del T[0]\n", "T.sort()\n", "T.reverse()\n", "T -= {'main.s.a'}\n"])
def test_a_loop_over_a_changed_collection_is_not_over_its_literal(lint, change):
    for literal in (LIST, 'T = {"main.s.a", "main.s.b"}\n'):
        if "del" in change and literal.startswith("T = {"):
            continue  # a set has no items to delete
        result = lint({"job.py": literal + change + LOOP})
        assert "main.s.a" not in tables(result), (literal, change)
        assert dynamic(result) >= 1


def test_a_set_discard_changes_the_set(lint):
    result = lint({"job.py": 'T = {"main.s.a", "main.s.b"}\nT.discard("main.s.a")\n' + LOOP})
    assert tables(result) == ["?"]


@pytest.mark.parametrize("read", ['T.index("main.s.a")\n', 'T.count("main.s.b")\n', "U = T.copy()\n", "print(T)\n"])
def test_a_method_that_only_reads_keeps_the_literal(lint, read):
    result = lint({"job.py": LIST + read + READ})
    assert tables(result) == ["main.s.a"]
    assert dynamic(result) == 0


def test_a_loop_before_the_change_still_reads_the_literal_item(lint):
    """The item read before the list changes is the literal's (the walk follows the
    statements in order); only reads after the change lose it."""
    result = lint({"job.py": LIST + READ + "T.reverse()\n" + READ})
    assert tables(result) == ["?", "main.s.a"]
