"""Python as the runtimes that run it parse it: Databricks Runtime 16 and later run
Python 3.12, whose f-strings may reuse their quote inside a replacement field
(PEP 701). delta-lint reads them on Python 3.11 by re-quoting the nested strings,
keeping every line and column (`delta_lint/frontend/pysource.py`)."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delta_lint.frontend import analyze_source
from delta_lint.frontend.pysource import parse_module, swap_nested_quotes

REUSED_QUOTES = """row = {"name": "main.s.t"}
spark.sql(f"DELETE FROM {row["name"]} WHERE a = 1")
df.write.saveAsTable(f"{row["name"]}_copy")
"""


def test_an_f_string_reusing_its_quote_is_read_at_its_own_line_and_column():
    r = analyze_source("job.py", ".py", REUSED_QUOTES)
    assert r.diagnostics == []
    assert [(i.location.line, i.location.column, i.table.name) for i in r.intents] == [
        (2, 1, "main.s.t"),
        (3, 1, "main.s.t_copy"),
    ]


def test_the_same_in_a_notebook_cell_that_is_read_alone():
    text = "# Databricks notebook source\n" + REUSED_QUOTES.replace("\ndf.", "\n\n# COMMAND ----------\n\ndf.")
    r = analyze_source("nb.py", ".py", text)
    assert [d.rule for d in r.diagnostics] == []
    assert [i.table.name for i in r.intents] == ["main.s.t", "main.s.t_copy"]


@pytest.mark.parametrize(
    "source",
    [
        'x = f"{d["it\'s"]}"\n',  # the nested string holds both quotes
        "x = f\"{'\\n'.join(y)}\"\n",  # a backslash inside a field: 3.12 only, no swap expresses it
        'x = f"{y["a"}"\n',  # not valid on any Python
    ],
)
def test_what_a_swap_cannot_express_keeps_its_syntax_error(source):
    with pytest.raises(SyntaxError):
        parse_module(source)
    assert [d.rule for d in analyze_source("job.py", ".py", source).diagnostics] == ["DL000"]


@pytest.mark.parametrize(
    "source",
    [
        'x = f"{a}" + "{b}"\n',
        "x = f'{a:>{w}}' if y else f\"{{literal}}\"\n",
        'x = """f"{a}" """\n',
        '# f"{a["b"]}"\nx = 1\n',
        'x = rf"\\d{a}" + f"""{b["c"]}"""\n',
    ],
)
def test_code_python_3_11_reads_is_left_as_it_is(source):
    assert swap_nested_quotes(source) is None
    assert ast.dump(parse_module(source)) == ast.dump(ast.parse(source))


def test_a_nested_f_string_of_the_same_quote_is_re_quoted_too():
    source = 'x = f"{f"{a}"}-{b["k"]}"\n'
    swapped = swap_nested_quotes(source)
    assert swapped == "x = f\"{f'{a}'}-{b['k']}\"\n"
    assert len(swapped) == len(source)
    parse_module(source)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="f r{}[]\"'\\\n#ab:", max_size=60))
def test_the_swap_never_fails_and_keeps_every_offset(source):
    swapped = swap_nested_quotes(source)
    assert swapped is None or len(swapped) == len(source)
    try:
        parse_module(source)
    except SyntaxError:
        pass


TYPE_PARAMETERS = """# Databricks notebook source
type Row = dict[str, object]
type Pair[T] = tuple[T, T]


class Box[T]:
    def __init__(self, item: T) -> None:
        self.item = item

    def save(self) -> None:
        spark.table("main.raw.a").write.mode("append").saveAsTable("main.s.boxes")


def first[T: (int, str)](xs: list[T]) -> T:
    return xs[0]


TABLE = "main.s.events"
spark.table("main.raw.a").write.mode("overwrite").saveAsTable(TABLE)
"""


def test_python_3_12_type_parameters_and_aliases_are_read():
    """PEP 695 (Python 3.12, Databricks Runtime 16+): `type X = ...`, `class Box[T]`
    and `def first[T](...)` parse, and the writes keep their own lines."""
    r = analyze_source("job.py", ".py", TYPE_PARAMETERS)
    assert [d.rule for d in r.diagnostics if d.rule == "DL000"] == []
    assert sorted((i.location.line, i.table.name) for i in r.intents) == [(11, "main.s.boxes"), (19, "main.s.events")]
    tree = parse_module(TYPE_PARAMETERS)
    assert [type(s).__name__ for s in tree.body] == ["Assign", "Assign", "ClassDef", "FunctionDef", "Assign", "Expr"]
    assert [s.lineno for s in tree.body] == [2, 3, 6, 14, 18, 19]


def test_a_name_type_that_is_no_alias_is_left_as_it_is():
    """`type = 3` and `type(x)` are a name and a call; a real syntax error elsewhere
    keeps its error (the rewrite never hides one)."""
    assert isinstance(parse_module("type = 3\nprint(type(x))\n").body[0], ast.Assign)
    with pytest.raises(SyntaxError):
        parse_module("type Row = dict[str, int]\nx = = 1\n")
