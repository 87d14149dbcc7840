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
        'x = f"{y["a"}"\n',  # not valid on any Python
        'x = f"{a!x}"\n',  # no such conversion
        'x = f"{}"\n',  # an empty field
        'x = f"{a\n"\n',  # a field that never closes
        'x = f"a}"\n',  # a single closing brace
        'x = f"{a" "}"\n',  # a field does not run across two literals
    ],
)
def test_what_python_3_12_refuses_too_keeps_its_syntax_error(source):
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


# What Python 3.12 gives for each PEP 701 form (checked against Python 3.12 by
# `test_python_3_12_computes_the_same_values` where it is installed).
PEP_701 = {
    "a backslash in a field": ("x = f\"{'\\n'.join(xs)}\"\n", "a\nb"),
    "a backslash in a nested string of the same quote": (
        'x = f"\'{m.replace("\'", "\\\\\'")}\'"\n',
        "'it\\'s'",
    ),
    "a comment in a multi-line field": ('x = f"""{a # the name\n}-b"""\n', "A-b"),
    "a newline in a single-quoted f-string's field": ('x = f"{\na\n}"\n', "A"),
    "f-strings of the same quote three deep": ('x = f"{f"{f"{a}"}"}"\n', "A"),
    "a self-documenting field, a conversion and a nested spec": (
        'x = f"{a=}" f"{ a = !s:>{w}}" "tail" f"{a=:>5}"\n',
        "a='A' a =   Ataila=    A",
    ),
    "named escapes, doubled and escaped braces": ('x = f"{a!r:{w}.{w}}\\N{EM DASH}{{}}\\\\{a}"\n', "'A'—{}\\A"),
    "adjacent literals over lines with a comment": ('x = (f"{\'\\t\'}"\n  "b" # c\n  f"{"q"}")\n', "\tbq"),
    "a raw f-string with a backslash in its field": ("x = rf\"\\d{'\\n'}\"\n", "\\d\n"),
    "non-ASCII text before and inside a field": ('x = f"é{d["k"]["j"]}_{\'é\'}"\n', "év_é"),
    "a spec holding a nested string of the same quote": ('x = f"{a:{">" if w else "<"}{w}}"\n', "  A"),
    "a named escape in a field's string": ("x = f\"{'\\N{EM DASH}'.join(xs)}\"\n", "a—b"),
    "a comparison, a walrus and a lambda in fields": (
        'x = f"{a != m}{(n := w)}{(lambda v: v * 2)(a)}"\n',
        "True3AA",
    ),
}
PEP_701_NAMES = {"xs": ["a", "b"], "m": "it's", "a": "A", "w": 3, "d": {"k": {"j": "v"}}}


@pytest.mark.parametrize("source, value", PEP_701.values(), ids=PEP_701.keys())
def test_python_3_12_f_strings_read_with_the_values_3_12_gives(source, value):
    """PEP 701's forms that no quote swap expresses: the tree parse_module builds holds
    the value Python 3.12 computes (the test runs its own source, never a user's)."""
    names = dict(PEP_701_NAMES)
    exec(compile(parse_module(source), "case", "exec"), names)  # noqa: S102
    assert names["x"] == value


def test_a_backslash_in_a_field_keeps_the_write_and_its_values():
    """A notebook logging a batch's failure (`replace("'", "\\\\'")` inside the field):
    the UPDATE is read at its line with its table; lines and columns of what follows
    the f-string are those of the file."""
    source = (
        "# Databricks notebook source\n"
        "def log_end(batch_id, error_msg=None):\n"
        '    err = f"\'{error_msg.replace("\'", "\\\\\'")}\'" if error_msg else "NULL"\n'
        "    spark.sql(f\"UPDATE ops.batch_log SET status = 'FAILED', error_msg = {err} WHERE batch_id = '{batch_id}'\")\n"
        "\n"
        'log_end("b1", "it\'s broken")\n'
        'CAT = "main"\n'
        'name = f"{f"{CAT}"}.s.{\'\\n\'.join([\'t\'])}"; spark.table("x").write.saveAsTable(f"{CAT}.s.events")\n'
        'spark.table("x").write.saveAsTable(f"""{CAT # the catalog\n}.s.logs""")\n'
    )
    r = analyze_source("job.py", ".py", source)
    assert [d.rule for d in r.diagnostics] == []
    assert sorted((i.location.line, i.location.column, i.table.name) for i in r.intents) == [
        (6, 1, "ops.batch_log"),
        (8, 44, "main.s.events"),
        (9, 1, "main.s.logs"),
    ]


def test_pep_701_f_strings_with_type_parameters_in_one_file():
    """Both Python 3.12 forms in one notebook: each is read."""
    source = 'type Row = dict[str, int]\nT = "main.s.t"\nspark.sql(f"DELETE FROM {T} WHERE a = {"\\n".join(["1"])}")\n'
    r = analyze_source("job.py", ".py", source)
    assert [d.rule for d in r.diagnostics] == []
    assert [(i.location.line, i.table.name) for i in r.intents] == [(3, "main.s.t")]


def _python_3_12() -> str | None:
    """A Python 3.12 or later interpreter on this machine, if any (not the venv's)."""
    import glob
    import os
    import shutil
    import subprocess

    candidates = [
        os.environ.get("DELTA_LINT_PY312", ""),
        shutil.which("python3.12") or "",
        shutil.which("python3.13") or "",
    ]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python3")))
    for exe in candidates:
        if not exe:
            continue
        try:
            done = subprocess.run(
                [exe, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                capture_output=True,
                text=True,
                timeout=30,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0 and done.stdout.strip() == "True":
            return exe
    return None


_DUMP = """
import ast, json, sys
out = []
for source in json.loads(sys.stdin.read()):
    tree = ast.parse(source)
    names = dict(NAMES)
    exec(compile(tree, "case", "exec"), names)
    nodes = sorted(
        (type(n).__name__, n.lineno, n.col_offset, n.end_lineno, n.end_col_offset)
        for n in ast.walk(tree)
        if hasattr(n, "lineno") and not isinstance(n, (ast.JoinedStr, ast.FormattedValue, ast.Constant))
    )
    out.append([names["x"], nodes])
print(json.dumps(out))
"""


def _dump_here(source: str) -> list:
    tree = parse_module(source)
    names = dict(PEP_701_NAMES)
    exec(compile(tree, "case", "exec"), names)  # noqa: S102
    nodes = sorted(
        (type(n).__name__, n.lineno, n.col_offset, n.end_lineno, n.end_col_offset)
        for n in ast.walk(tree)
        if hasattr(n, "lineno") and not isinstance(n, (ast.JoinedStr, ast.FormattedValue, ast.Constant))
    )
    return [names["x"], [list(n) for n in nodes]]


def test_python_3_12_computes_the_same_values():
    """Differential check against a real Python 3.12 where one is installed: the value
    of every case and the line and column of every node outside the f-strings' own
    parts (names, calls, subscripts inside the fields included) are the same."""
    import json
    import subprocess

    exe = _python_3_12()
    if exe is None:
        pytest.skip("no Python 3.12 or later on this machine")
    sources = [source for source, _value in PEP_701.values()]
    script = "NAMES = " + repr(PEP_701_NAMES) + "\n" + _DUMP
    done = subprocess.run(
        [exe, "-W", "ignore", "-c", script], input=json.dumps(sources), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    theirs = json.loads(done.stdout)
    assert [_dump_here(source) for source in sources] == theirs


def test_type_parameter_defaults_except_star_and_match_are_read():
    """PEP 696's defaults (Python 3.13) go with the brackets they stand in; `except*`
    and `match` are Python 3.11 syntax. The writes in their bodies are read."""
    source = (
        "type Pair[T = int] = tuple[T, T]\n"
        "class Box[T = str, *Ts = *tuple[int], **P = [int]]:\n"
        "    def save(self) -> None:\n"
        '        spark.table("a").write.mode("append").saveAsTable("main.s.boxes")\n'
        "try:\n"
        '    spark.sql("DELETE FROM main.s.t WHERE a = 1")\n'
        "except* ValueError:\n"
        "    pass\n"
        "match mode:\n"
        '    case "full":\n'
        '        spark.sql("TRUNCATE TABLE main.s.u")\n'
    )
    r = analyze_source("job.py", ".py", source)
    assert [d.rule for d in r.diagnostics if d.rule == "DL000"] == []
    assert sorted((i.location.line, i.table.name) for i in r.intents) == [
        (4, "main.s.boxes"),
        (6, "main.s.t"),
        (11, "main.s.u"),
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="f r{}[]\"'\\\n#a=!:", max_size=40))
def test_an_f_string_of_any_text_parses_or_raises_a_syntax_error(body):
    """Bounded and total: whatever stands between an f-string's quotes, parse_module
    returns a tree or raises SyntaxError (then the file is a DL000), nothing else."""
    try:
        parse_module('x = f"' + body + '"\ny = 1\n')
    except SyntaxError:
        pass


def test_many_f_strings_whose_field_opens_at_a_lines_end_are_all_read():
    """Forty f-strings whose first line is only `f"{` (the field goes on over the next
    lines), among a hundred more with a backslash in a field: each is read, every
    value as Python 3.12 gives it."""
    source = "".join(f'x{i} = f"{{\n  a\n}}"\n' for i in range(40))
    source += "".join(f"y{i} = f\"{{'\\n'}}{{a}}\"\n" for i in range(100))
    names: dict = {"a": "A"}
    exec(compile(parse_module(source), "case", "exec"), names)  # noqa: S102
    assert [names[f"x{i}"] for i in range(40)] == ["A"] * 40
    assert {names[f"y{i}"] for i in range(100)} == {"\nA"}
