"""A call chain read more than once (a helper's body at each call, a loop's body at
each turn) is read with what its first name holds at that reading: the steps the
chain writes are the same each time, the writer a name holds is not."""

from __future__ import annotations

from delta_lint.frontend import analyze_source


def _writes(code: str) -> list[tuple[int, str, str]]:
    result = analyze_source("job.py", ".py", code)
    return sorted((i.location.line, i.table.name, i.kind.value) for i in result.intents)


def test_a_helpers_chain_is_read_with_the_writer_each_call_gives_it() -> None:
    code = 'def save(w):\n    w.saveAsTable("s.a")\n\nsave(df.write.mode("append"))\nsave(df.write.mode("overwrite"))\n'
    assert _writes(code) == [(4, "s.a", "blind_append"), (5, "s.a", "full_overwrite")]


def test_a_loops_chain_is_read_with_what_its_name_holds_at_each_turn() -> None:
    code = (
        'for mode, table in [("append", "s.a"), ("overwrite", "s.b")]:\n'
        "    w = df.write.mode(mode)\n"
        "    w.saveAsTable(table)\n"
    )
    assert _writes(code) == [(3, "s.a", "blind_append"), (3, "s.b", "full_overwrite")]


def test_a_name_that_holds_no_writer_makes_its_chain_no_write() -> None:
    code = 'w = load()\nw.saveAsTable("s.c")\nw = df.write.mode("append")\nw.saveAsTable("s.d")\n'
    assert _writes(code) == [(4, "s.d", "blind_append")]
