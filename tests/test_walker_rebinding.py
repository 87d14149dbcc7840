"""Names the walker sees rebound where no assignment to them stands: a walrus (in a
test, in a comprehension), a `match` pattern's capture, a function that declares
the name `global` or `nonlocal`, a store into a part of a held list or dict (through
the name or another holding the same value), a function of the file that changes
its argument in place; and what a literal loop's header makes (a lambda written
there). Each is followed where Python is certain, or the name is not known; never
the value it held before. Each kind with its near miss, which stays known."""

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


def test_a_walrus_rebinds_its_name():
    code = f't = "main.s.a"\nif (t := dbutils.widgets.get("t")):\n    pass\n{W}\n'
    assert _tables(code, 4) == {"{t}"}
    in_comprehension = f't = "main.s.a"\nnames = [t := n for n in ["main.s.b", "main.s.c"]]\n{W}\n'
    assert "main.s.a" not in _tables(in_comprehension, 3)
    # near miss: a walrus of a known value holds it
    known = f't = "main.s.a"\nif (t := "main.s.b"):\n    pass\n{W}\n'
    assert _writes(known) == [(4, "main.s.b", False)]


def test_a_match_capture_rebinds_its_name():
    code = f't = "main.s.a"\nmatch cfg:\n    case {{"table": t}}:\n        pass\n    case _:\n        pass\n{W}\n'
    assert "main.s.a" not in _tables(code, 7)
    # near miss: a pattern that captures nothing leaves the name as it was
    literal = code.replace('{"table": t}', '{"table": "x"}')
    assert _writes(literal) == [(7, "main.s.a", False)]


def test_a_function_that_rebinds_a_global_changes_it_where_it_is_called():
    switch = 't = "main.s.a"\ndef switch():\n    global t\n    t = "main.s.b"\n'
    assert "main.s.a" not in _tables(switch + f"switch()\n{W}\n", 6)
    nested = (
        'def outer():\n    t = "main.s.a"\n    def inner():\n        nonlocal t\n        t = "main.s.b"\n'
        f"    inner()\n    {W}\nouter()\n"
    )
    assert "main.s.a" not in _tables(nested, 7)
    # near miss: a function that only reads the name leaves it known
    reads = 't = "main.s.a"\ndef show():\n    print(t)\n'
    assert _writes(reads + f"show()\n{W}\n") == [(5, "main.s.a", False)]


def test_a_store_into_a_held_list_or_dict_is_followed_or_forgotten():
    item = f'u = ["main.s.a"]\nu[0] = "main.s.b"\nt = u[0]\n{W}\n'
    assert _writes(item) == [(4, "main.s.b", False)]
    alias = f'conf = {{"t": "main.s.c"}}\nsame = conf\nsame["t"] = "main.s.d"\nt = conf["t"]\n{W}\n'
    assert _writes(alias) == [(5, "main.s.d", False)]
    nested = f'conf = {{"a": {{"t": "main.s.c"}}}}\nconf["a"]["t"] = "main.s.d"\nt = conf["a"]["t"]\n{W}\n'
    assert "main.s.c" not in _tables(nested, 4)
    # near miss: a store into another list leaves this one known
    other = f'u = ["main.s.a"]\nv = ["x"]\nv[0] = "main.s.b"\nt = u[0]\n{W}\n'
    assert _writes(other) == [(5, "main.s.a", False)]


def test_a_function_that_changes_its_argument_in_place_changes_the_callers_value():
    code = f'cfg = {{"t": "main.s.a"}}\ndef mutate(c):\n    c["t"] = "main.s.z"\nmutate(cfg)\nt = cfg["t"]\n{W}\n'
    assert "main.s.a" not in _tables(code, 6)
    appended = (
        'L = ["main.s.e"]\ndef add(lst):\n    lst.append("main.s.f")\nadd(L)\n'
        'for t in L:\n    spark.sql(f"DELETE FROM {t} WHERE 1=1")\n'
    )
    assert _tables(appended, 6) != {"main.s.e"}
    # near miss: a function that only reads its argument leaves the value known
    reads = code.replace('c["t"] = "main.s.z"', 'print(c["t"])')
    assert _writes(reads) == [(6, "main.s.a", False)]


def test_what_a_literal_loops_header_makes_is_read():
    code = (
        'for f in [lambda: spark.sql("DELETE FROM main.s.lam WHERE 1=1"), '
        'lambda: spark.sql("DELETE FROM main.s.lam2 WHERE 1=1")]:\n    f()\n'
    )
    assert {t for _, t, _ in _writes(code)} == {"main.s.lam", "main.s.lam2"}
    # near miss: a header of plain names makes nothing; the body's write is each turn's
    names = f'for t in ["main.s.a", "main.s.b"]:\n    {W}\n'
    assert _writes(names) == [(2, "main.s.a", False), (2, "main.s.b", False)]
