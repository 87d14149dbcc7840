"""What a `spark.sql` call binds in its own statement.

pyspark 4's `SparkSession.sql(sqlQuery, args=None, **kwargs)` formats the query with
Python's formatter when keywords are given (`{name}` becomes a string's SQL literal, or
another value's Python text: `sql_formatter.SQLStringFormatter`), then binds `args`:
a dict to the `:name` markers, a list to the `?` markers, each value as the literal
`lit(value)` gives. A statement whose markers are bound by known values names known
rows (`DELETE FROM t WHERE p = :v` with `args={"v": "a"}` deletes in partition `a`);
a value the code does not give statically leaves its marker a parameter.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace

from delta_lint.frontend.pyspark_api import argument
from delta_lint.frontend.pyvalues import BoolStr, Instance, NoneStr, NumStr, OneOf, Str, StrMap, Strs
from delta_lint.frontend.sqltext import bind_markers, format_fields

MAX_ARGS = 256  # more values than a statement binds by hand: not read


def _known(value: object) -> Str | None:
    """A string value wholly known (no parameter, no unknown part, not one of several)."""
    if not isinstance(value, Str) or isinstance(value, OneOf) or value.unknown or value.params:
        return None
    return value


def arg_literal(value: object) -> str | None:
    """The SQL literal `lit(value)` gives a value of `args`, or None when not known."""
    known = _known(value)
    if known is None:
        return None
    if isinstance(known, NoneStr):
        return "NULL"
    if isinstance(known, BoolStr):
        return known.text.upper()
    if isinstance(known, NumStr):
        return known.text
    return "'" + known.text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def format_literal(value: object) -> str | None:
    """What pyspark's formatter puts for `{name}`: a string's SQL literal, another
    value's Python text (`str(value)`); None when not known."""
    known = _known(value)
    if known is None:
        return None
    if type(known) is Str:
        return arg_literal(known)
    return known.text


def bound_statement(
    sql: Str, call: ast.Call, read: Callable[[ast.expr], Str], held: Callable[[ast.expr], object]
) -> Str:
    """The statement of `spark.sql(...)` (`sql`, read from its first argument) with what
    the call binds put in: `read` gives an argument's string value, `held` the dict or
    list a name holds (None when it holds none, or the code changes it in place)."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg not in (None, "sqlQuery", "args")}
    text = sql.text
    if keywords:
        fields = {name: format_literal(read(node)) for name, node in keywords.items()}
        text = format_fields(text, {k: v for k, v in fields.items() if v is not None}, set(sql.params))
    node = argument(call, "SparkSession", "sql", "args")
    named: dict[str, str] = {}
    positional: list[str | None] = []
    if isinstance(node, ast.Dict) and len(node.keys) <= MAX_ARGS:
        for key, value in zip(node.keys, node.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                # `{**other}` or a computed key: which marker it binds (or overrides) is not known
                named.clear()
                break
            literal = arg_literal(read(value))
            if literal is not None:
                named[key.value] = literal
    elif isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) <= MAX_ARGS:
        if not any(isinstance(e, ast.Starred) for e in node.elts):
            positional = [arg_literal(read(e)) for e in node.elts]
    elif node is not None:
        value = held(node)
        if isinstance(value, StrMap) and not isinstance(value, Instance):  # the values it holds
            named = {k: v for k, v in ((k, arg_literal(v)) for k, v in value.items) if v is not None}
        elif isinstance(value, Strs):
            positional = [arg_literal(v) for v in value.items]
    text = bind_markers(text, named, positional)
    return sql if text == sql.text else replace(sql, text=text)
