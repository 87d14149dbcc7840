"""A DataFrame writer's own method (`saveAsTable`, `insertInto`) called on a writer
the reader does not follow (chosen by a conditional expression, returned by a
function) is a write all the same: it gets a DL001 at its line, never nothing. A
writer the reader follows is read as before, and a parameter no call binds yet is
left to its calls."""

from __future__ import annotations

PICK = 'df = spark.table("main.s.src")\nc = dbutils.widgets.get("full") == "1"\n'


def _unresolved_lines(result) -> list[int]:
    return sorted(f.location.line for f in result.findings if f.rule == "DL001")


def test_a_writer_from_a_conditional_or_a_return_is_said_at_its_line(lint):
    chosen = PICK + 'w = df.write.mode("overwrite") if c else df.write.mode("append")\nw.saveAsTable("main.s.t")\n'
    inline = PICK + '(df.write.mode("overwrite") if c else df.write).insertInto("main.s.t")\n'
    returned = PICK + 'def writer():\n    return df.write.mode("overwrite")\n\nwriter().saveAsTable("main.s.t")\n'
    for code, line in ((chosen, 4), (inline, 3), (returned, 6)):
        assert _unresolved_lines(lint({"job.py": code})) == [line], code


def test_a_writer_followed_or_handed_to_a_helper_is_read_as_before(lint):
    chain = PICK + 'w = df.write.mode("overwrite")\nw.saveAsTable("main.s.t")\n'
    result = lint({"job.py": chain})
    assert [i.table.name for i in result.intents if i.kind.value != "streaming_read"] == ["main.s.t"]
    assert not _unresolved_lines(result)
    helper = PICK + 'def save(w):\n    w.saveAsTable("main.s.t")\n\nsave(df.write.mode("append"))\n'
    result = lint({"job.py": helper})
    assert not _unresolved_lines(result)
