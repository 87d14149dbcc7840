"""A writer's terminal that is named but not called where it is named writes where
the value is called later, which the reader does not follow: handed to a call
(`partial`, an executor's `map`/`submit`), kept in a literal, or bound to a name
by an annotated or unpacking assignment. Each leaves a DL001 at its line, never
nothing; a terminal only shown, or one in a function (read at the function's
calls), gets no such note."""

from __future__ import annotations

from delta_lint.frontend import analyze_source

UNFOLLOWED = "could not follow"


def _notes(code: str) -> list[int]:
    result = analyze_source("job.py", ".py", code)
    return sorted(d.location.line for d in result.diagnostics if d.rule == "DL001" and UNFOLLOWED in d.message)


def test_a_terminal_handed_to_a_call_is_said_at_its_line():
    code = (
        "from functools import partial\n"
        "from ops.retry import with_retries\n"
        'save = partial(df.write.mode("append").saveAsTable)\n'  # 3
        'save("main.ops.events")\n'
        'if ready:\n    with_retries(df.write.insertInto, "main.ops.a", attempts=3)\n'  # 6: a helper of another file
    )
    assert _notes(code) == [3, 6]


def test_a_terminal_an_executor_is_handed_is_read_not_said():
    code = (
        "with ThreadPoolExecutor(4) as pool:\n"
        '    pool.map(df.write.insertInto, ["main.ops.a", "main.ops.b"])\n'
        '    pool.submit(stream.writeStream.toTable, "main.ops.c")\n'
    )
    result = analyze_source("job.py", ".py", code)
    assert sorted(i.table.name for i in result.intents) == ["main.ops.a", "main.ops.b", "main.ops.c"]
    assert _notes(code) == []


def test_a_terminal_kept_in_a_literal_or_bound_by_any_assignment_is_said():
    code = (
        'writers = {"append": df.write.mode("append").saveAsTable}\n'  # 1: kept, said where it is named
        'writers["append"]("main.ops.d")\n'
        "put: object = df.write.saveAsTable\n"
        'put("main.ops.e")\n'  # 4: an annotated alias, said at its call
        "add, keep = df.write.insertInto, 1\n"
        'add("main.ops.f")\n'  # 6: an unpacked alias
    )
    assert _notes(code) == [1, 4, 6]


def test_a_terminal_shown_called_or_named_in_a_function_gets_no_such_note():
    code = (
        "print(df.write.saveAsTable)\n"
        'df.write.mode("append").saveAsTable("main.ops.g")\n'  # read: an intent
        "def later(frame):\n"
        "    return partial(frame.write.saveAsTable)\n"
        'options = {"mode": "append", "saveAsTable": True}\n'
    )
    result = analyze_source("job.py", ".py", code)
    assert _notes(code) == []
    assert [i.table.name for i in result.intents] == ["main.ops.g"]
