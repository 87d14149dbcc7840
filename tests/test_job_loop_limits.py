"""A job's loop over more items than the reading takes one by one leaves its writes
unknown with a note at the loop that names the limit.

The kind: job code writes one table per item of a collection it spells out. Past
`MAX_LOOP` items the front end reads the loop as one of turns not known, so the
write's table is `{t}`; the write's DL001 says it is unknown, and a DL008 at the
loop says why (the limit, not a value only a run gives). Three shapes of the
collection: a literal in the loop's header, `range` of literal bounds, a name every
assignment binds to a long literal. Each is checked just under the limit (the
tables known, no note) and just past it (the note); a long loop that writes nothing
says nothing.
"""

from __future__ import annotations

import pytest

from delta_lint.frontend.values.evaluator import MAX_LOOP

WRITE = "    spark.table('src').write.mode('append').saveAsTable({})\n"


def _items(n: int) -> str:
    return "[" + ", ".join(f"'t{i}'" for i in range(n)) + "]"


SHAPES = {
    "literal": lambda n: f"for t in {_items(n)}:\n" + WRITE.format("t"),
    "range": lambda n: f"for i in range({n}):\n" + WRITE.format("f'main.s.t_{i}'"),
    "name": lambda n: f"TABLES = {_items(n)}\nfor t in TABLES:\n" + WRITE.format("t"),
    "tuples": lambda n: (
        "for s, t in [" + ", ".join(f"('s', 't{i}')" for i in range(n)) + "]:\n" + WRITE.format("s + '.' + t")
    ),
}


def _notes(lint, code: str) -> tuple[list[str], list[str]]:
    result = lint({"job.py": code})
    said = [d.message for d in result.diagnostics if d.rule == "DL008"]
    return [i.table.name for r in result.files for i in r.intents], said


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_loop_past_the_items_read_one_by_one_is_said_at_the_loop(lint, shape) -> None:
    tables, said = _notes(lint, SHAPES[shape](MAX_LOOP))
    assert len(tables) == MAX_LOOP and said == []
    tables, said = _notes(lint, SHAPES[shape](MAX_LOOP + 1))
    assert tables and len(said) == 1 and f"more than the {MAX_LOOP} read one by one" in said[0]


def test_a_long_loop_that_writes_nothing_says_nothing(lint) -> None:
    _, said = _notes(lint, f"for t in {_items(MAX_LOOP + 1)}:\n    print(t)\n")
    assert said == []


def test_a_name_also_bound_to_a_short_list_is_not_said_past_the_limit(lint) -> None:
    code = (
        f"import os\nTABLES = {_items(MAX_LOOP + 1)}\nif os.environ['X']:\n    TABLES = ['a']\nfor t in TABLES:\n"
        + WRITE.format("t")
    )
    _, said = _notes(lint, code)
    assert not any("read one by one" in s for s in said)
