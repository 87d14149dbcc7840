"""The walker joins at every control-flow form as Python can run it, and never reads
a path Python cannot take:

- a loop whose turns are not known: a turn may follow others, so the body (and a
  `break` in it) starts from what the names held before the loop or what the body
  binds them to, never only the first turn's;
- an `except` handler starts from the names as any statement of the `try` body may
  leave them, not only its start or its end;
- a `return`, `raise`, `break` or `continue` reached on a condition known true ends
  the block: nothing after it is written; a body whose condition is known false is
  not read (its write is said never to run).

Each kind with its near miss: where Python is certain, the value stays known."""

from __future__ import annotations

from delta_lint.frontend import analyze_source
from delta_lint.model import Flag

W = 'spark.sql(f"DELETE FROM {t} WHERE 1=1")'


def _writes(code: str) -> list[tuple[int, str, bool]]:
    """(line, table, whether it is one of several) of each write, in order."""
    result = analyze_source("job.py", ".py", code)
    return sorted((i.location.line, i.table.name, Flag.ONE_OF in i.flags) for i in result.intents if i.table)


def _tables(code: str, line: int) -> set[str]:
    return {t for at, t, _ in _writes(code) if at == line}


# -- loops whose turns are not known ------------------------------------------------


def test_a_later_turn_sees_what_an_earlier_one_bound():
    code = f't = "main.s.a"\nfor x in dbutils.widgets.get("l").split(","):\n    {W}\n    t = "main.s.b"\n'
    assert _writes(code) == [(3, "main.s.a", True), (3, "main.s.b", True)]
    # near miss: bound before it is read in the turn: every turn writes main.s.b
    bound_first = f't = "main.s.a"\nfor x in items:\n    t = "main.s.b"\n    {W}\n'
    assert _writes(bound_first) == [(4, "main.s.b", False)]


def test_a_while_loop_and_its_break_see_later_turns():
    code = (
        't = "main.s.a"\nwhile True:\n    if dbutils.widgets.get("s") == "y":\n        break\n'
        f'    t = "main.s.b"\n{W}\n'
    )
    assert _tables(code, 6) == {"main.s.a", "main.s.b"}
    # a break on a later turn leaves what the earlier turn bound; the `else` its own
    for_else = (
        't = "main.s.a"\nfor x in dbutils.widgets.get("l").split(","):\n    if x == "stop":\n        break\n'
        f'    t = "main.s.b"\nelse:\n    t = "main.s.c"\n{W}\n'
    )
    assert _tables(for_else, 8) == {"main.s.a", "main.s.b", "main.s.c"}


def test_a_name_bound_from_what_the_body_binds_is_not_known_on_entry():
    code = f't = "main.s.a"\nu = "main.s.u"\nfor x in items:\n    {W}\n    t = u\n    u = x\n'
    assert _tables(code, 4) == {"{t}"}
    # a literal list's turns are read one by one and stay exact
    exact = f't = "main.s.a"\nu = "main.s.u"\nfor x in ["main.s.x"]:\n    {W}\n    t = u\n    u = x\n'
    assert _tables(exact, 4) == {"main.s.a"}


# -- try ----------------------------------------------------------------------------


def test_a_handler_sees_a_value_bound_in_the_middle_of_the_try():
    code = (
        't = "main.s.a"\ntry:\n    t = "main.s.b"\n    spark.sql("DELETE FROM main.s.z WHERE 1=1")\n'
        f'    t = "main.s.c"\nexcept Exception:\n    {W}\n'
    )
    assert "main.s.b" in _tables(code, 7)
    # near miss: a name the body does not bind is what it was, certain
    untouched = (
        't = "main.s.a"\ntry:\n    u = "main.s.b"\n    spark.sql("DELETE FROM main.s.z WHERE 1=1")\n'
        f"except Exception:\n    {W}\n"
    )
    assert _writes(untouched)[-1] == (6, "main.s.a", False)


# -- paths Python does not take -------------------------------------------------------


def test_a_guard_known_true_ends_the_helper():
    code = f'def load(t):\n    if t == "skip":\n        return\n    {W}\nload("skip")\nload("main.s.a")\n'
    assert {t for _, t, _ in _writes(code)} == {"main.s.a"}
    # near miss: a guard only a run decides may or may not return
    unknown = code.replace('t == "skip"', 't == dbutils.widgets.get("skip")')
    assert {t for _, t, _ in _writes(unknown)} == {"skip", "main.s.a"}


def test_a_known_break_ends_a_literal_loop():
    code = (
        'for t in ["main.s.a", "main.s.b", "main.s.c"]:\n    if t == "main.s.b":\n        break\n'
        f'    {W}\nspark.sql(f"DELETE FROM {{t}} WHERE 2=2")\n'
    )
    assert _writes(code) == [(4, "main.s.a", False), (5, "main.s.b", False)]


def test_a_body_known_not_to_run_writes_nothing_and_says_so():
    code = 'ENV = "dev"\nif ENV == "prod":\n    spark.sql("DELETE FROM main.s.shared WHERE 1=1")\n'
    result = analyze_source("job.py", ".py", code)
    assert [i.table.name for i in result.intents] == []
    said = [(d.rule, d.location.line, d.severity) for d in result.diagnostics]
    assert said == [("DL001", 3, "info")]
    assert "never runs" in result.diagnostics[0].message
    # near miss: a condition only a run decides writes, certain of its table
    unknown = code.replace('ENV = "dev"', 'ENV = dbutils.widgets.get("env")')
    assert _writes(unknown) == [(3, "main.s.shared", False)]
