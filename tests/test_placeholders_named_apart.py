"""A slice of a known string is that slice (`t[1:]` of "abc" is "bc"), and two
expressions only a run can compute are never one placeholder because their readable
names agree (`t[1:]` and `t[:1]` both read `t_1`): a name known in part is paired
by its text only where the expressions are the same."""

from __future__ import annotations


def _conflicts(result) -> list:
    return [f for f in result.findings if not f.rule.startswith("DL0")]


def _tables(result) -> dict[str, str]:
    return {i.location.path.rsplit("/", 1)[-1]: i.table.name for i in result.intents}


def test_a_slice_of_a_known_string_is_that_slice(lint):
    c = 't = "abc"\nspark.sql(f"DELETE FROM main.s.x_{t[1:]} WHERE 1=1")\n'
    d = 't = "xyz"\nspark.sql(f"DELETE FROM main.s.x_{t[:1]} WHERE 1=1")\n'
    e = 't = "cba"\nspark.sql(f"DELETE FROM main.s.x_{t[::-1][1:]} WHERE 1=1")\n'
    result = lint({"c.py": c, "d.py": d, "e.py": e})
    assert _tables(result) == {"c.py": "main.s.x_bc", "d.py": "main.s.x_x", "e.py": "main.s.x_bc"}
    assert [f.rule for f in _conflicts(result)] == ["DL102"]  # c and e: one table


def test_expressions_a_run_computes_are_named_apart(lint):
    load = 't = spark.table("cfg").first()[0]\n'
    a = load + 'spark.sql(f"DELETE FROM main.s.x_{t[1:]} WHERE 1=1")\n'
    b = load + 'spark.sql(f"DELETE FROM main.s.x_{t[:1]} WHERE 1=1")\n'
    result = lint({"a.py": a, "b.py": b})
    tables = _tables(result)
    assert tables["a.py"] != tables["b.py"]
    assert not _conflicts(result)
    # near miss: the same expression in both is one name, paired (data-dependent)
    same = lint({"a.py": a, "b.py": a.replace("DELETE", "delete")})
    assert [f.rule for f in _conflicts(same)] == ["DL102"]
