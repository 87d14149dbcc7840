"""Format specs and conversions of a string's fields: `f"t_{n:03d}"`, `"t_{:02d}".format(n)`
and `"t_%03d" % n` name `t_007`/`t_07`, as Python shows them, never the bare value;
a spec or conversion the reader cannot apply leaves the part unknown. Each case has
a near miss that must stay unknown or unchanged."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def tables(code: str) -> list[str | None]:
    result = analyze_source("job.py", ".py", code)
    return sorted((i.table.name if i.table else "") for i in result.intents)


@pytest.mark.parametrize(
    ("write", "expected"),
    [
        ('spark.sql(f"INSERT INTO main.s.t_{n:03d} SELECT 1")', "main.s.t_007"),
        ('df.write.saveAsTable(f"main.s.t_{n:02}")', "main.s.t_07"),
        ('spark.sql("INSERT INTO main.s.t_{:03d} SELECT 1".format(n))', "main.s.t_007"),
        ('spark.sql("INSERT INTO main.s.t_{k:03d} SELECT 1".format(k=n))', "main.s.t_007"),
        ('spark.sql("INSERT INTO main.s.t_%03d SELECT 1" % n)', "main.s.t_007"),
        ('df.write.saveAsTable("main.s.t_%02d" % (n,))', "main.s.t_07"),
        ('spark.sql("INSERT INTO main.s.t_%(k)03d SELECT 1" % {"k": n})', "main.s.t_007"),
        ('spark.sql(f"INSERT INTO main.s.t_{n:0{w}d} SELECT 1")', "main.s.t_0007"),
        ('spark.sql(f"INSERT INTO main.s.t_{s!s} SELECT 1")', "main.s.t_ab"),
        ('spark.sql(f"INSERT INTO main.s.t_{s} SELECT 1")', "main.s.t_ab"),
        ('spark.sql("INSERT INTO main.s.t_%s SELECT 1" % s)', "main.s.t_ab"),
    ],
)
def test_a_fields_spec_is_applied(write: str, expected: str) -> None:
    assert tables(f'n = 7\nw = 4\ns = "ab"\n{write}\n') == [expected]


def test_each_alternative_is_formatted() -> None:
    code = """
if flag:
    n = 1
else:
    n = 2
df.write.saveAsTable(f"main.s.t_{n:02d}")
"""
    assert tables(code) == ["main.s.t_01", "main.s.t_02"]


def test_a_loop_counter_is_formatted() -> None:
    code = 'for i in range(2):\n    spark.sql(f"INSERT INTO main.s.v_{i:02d} SELECT 1")\n'
    assert tables(code) == ["main.s.v_00", "main.s.v_01"]


@pytest.mark.parametrize(
    "write",
    [
        # the value refuses the spec: Python raises there, so no name is known
        'spark.sql(f"INSERT INTO main.s.t_{s:d} SELECT 1")',
        # a width past what a name needs is never built
        'spark.sql(f"INSERT INTO main.s.t_{n:099999d} SELECT 1")',
        'spark.sql("INSERT INTO main.s.t_%099999d SELECT 1" % n)',
        # a spec that is not known, a value that is not known
        'spark.sql(f"INSERT INTO main.s.t_{n:{spec}} SELECT 1")',
        'spark.sql(f"INSERT INTO main.s.t_{m:03d} SELECT 1")',
        # a member of a format argument is not the argument
        'spark.sql("INSERT INTO main.s.t_{0.name} SELECT 1".format(s))',
        'spark.sql("INSERT INTO main.s.t_{c[k]} SELECT 1".format(c={"k": "x"}))',
    ],
)
def test_a_field_the_reader_cannot_format_stays_unknown(write: str) -> None:
    names = tables(f'n = 7\ns = "ab"\nspec = dbutils.widgets.get("spec")\nm = dbutils.widgets.get("m")\n{write}\n')
    assert len(names) == 1
    assert names[0] == "" or "{" in names[0], names
    assert names[0] not in ("main.s.t_7", "main.s.t_ab", "main.s.t_x")


def test_repr_quotes_a_template() -> None:
    code = 'env = dbutils.widgets.get("env")\nspark.sql(f"DELETE FROM main.s.t WHERE env = {env!r}")\n'
    result = analyze_source("job.py", ".py", code)
    (intent,) = result.intents
    assert intent.table is not None and intent.table.name == "main.s.t"


def test_repr_of_one_of_several_texts_quotes_each() -> None:
    code = """
if flag:
    s = "a"
else:
    s = "b"
spark.sql(f"DELETE FROM main.s.t WHERE k = {s!r}")
"""
    result = analyze_source("job.py", ".py", code)
    assert sorted(i.predicate_sql for i in result.intents) == ["k = 'a'", "k = 'b'"]
