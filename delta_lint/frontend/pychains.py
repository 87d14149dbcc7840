"""What a PySpark call chain says: the arguments its links were given, a Column as SQL.

`df.write.format("delta").mode("overwrite").option("replaceWhere", w).saveAsTable(t)`
is a chain of links (`pyvalues.Step`). The readers of writers (`pywriters`) and of
the DeltaTable API (`pydelta`) ask it the same questions: the last `format(...)`,
every `option(...)`, the columns of `partitionBy(...)`, the table settings its
properties declare; and they read a condition given as a Column expression
(`F.col("d") == "x"`) as the SQL text it stands for. Values are read by the
analyzer's `string` (`Strings`): these functions only know where to look.
"""

from __future__ import annotations

import ast
import re
from typing import Protocol

from delta_lint.frontend.pyvalues import Scope, Step, Str
from delta_lint.frontend.values.sources import number_text
from delta_lint.model import TableDDL


class Strings(Protocol):
    """What reads the text an expression holds (the Python front end's analyzer)."""

    def string(self, node: ast.expr | None, scope: Scope) -> Str: ...


def chain_arg(
    reader: Strings, steps: list[Step], name: str, scope: Scope, index: int = 0, kw: str | None = None
) -> Str | None:
    """The value the chain's last `name(...)` link gives at `index` (or keyword `kw`):
    empty text when that link has no such argument, None when the chain has no
    such link."""
    for step in reversed(steps):
        if step.name == name and step.call is not None:
            value = call_argument(step.call, index, kw)
            return reader.string(value, scope) if value is not None else Str("")
    return None


def chain_cols(reader: Strings, steps: list[Step], name: str, scope: Scope) -> tuple[str, ...]:
    """The column names of the chain's last `name(...)` link (`partitionBy("a", "b")`
    or `partitionBy(["a", "b"])`), lower case."""
    for step in reversed(steps):
        if step.name == name and step.call is not None:
            args = step.call.args
            if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
                args = args[0].elts
            return tuple(reader.string(a, scope).text.lower() for a in args)
    return ()


def chain_options(reader: Strings, steps: list[Step], scope: Scope) -> dict[str, Str]:
    """Every `option(k, v)` and `options(k=v, ...)` (or a literal dict) of the chain,
    keys lower case, a later link winning."""
    opts: dict[str, Str] = {}
    for step in steps:
        if step.call is None:
            continue
        if step.name == "option" and len(step.call.args) >= 2:
            opts[reader.string(step.call.args[0], scope).text.lower()] = reader.string(step.call.args[1], scope)
        elif step.name == "options":
            for kw in step.call.keywords:
                if kw.arg:
                    opts[kw.arg.lower()] = reader.string(kw.value, scope)
            for arg in step.call.args:
                if isinstance(arg, ast.Dict):
                    for k, v in zip(arg.keys, arg.values):
                        if k is not None:
                            opts[reader.string(k, scope).text.lower()] = reader.string(v, scope)
    return opts


def call_argument(call: ast.Call, index: int | None, keyword: str | None) -> ast.expr | None:
    """A call's argument by keyword first, else by position."""
    if keyword is not None:
        for kw in call.keywords:
            if kw.arg == keyword:
                return kw.value
    if index is not None and index < len(call.args):
        return call.args[index]
    return None


def is_true(value: Str | None) -> bool:
    """An option set to true (`.option("mergeSchema", "true")`)."""
    return value is not None and value.text.strip().lower() == "true"


def table_ddl(
    partition_by: tuple[str, ...], cluster_by: tuple[str, ...], props: dict[str, str], identity: tuple[str, ...] = ()
) -> TableDDL:
    """The table settings a write that creates its table declares (its partition and
    clustering columns, the properties it sets, its identity columns)."""
    dv = props.get("delta.enabledeletionvectors")
    iso = props.get("delta.isolationlevel")
    return TableDDL(
        partitioned_by=partition_by,
        clustered_by=cluster_by,
        deletion_vectors=None if dv is None else dv.lower() == "true",
        isolation_level=None
        if iso is None
        else ("Serializable" if iso.lower() == "serializable" else "WriteSerializable"),
        identity_columns=identity,
    )


def condition_sql(reader: Strings, node: ast.expr | None, scope: Scope) -> str | None:
    """A condition given as a SQL string or as a Column expression, as SQL text (None
    when it is neither, or a name holding no text)."""
    if node is None:
        return None
    if isinstance(node, (ast.Constant, ast.JoinedStr, ast.Name)) or (
        isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod))
    ):
        s = reader.string(node, scope)
        if isinstance(node, ast.Name) and not isinstance(scope.env.get(node.id), Str):
            return None
        return s.text
    return column_sql(node, reader, scope)


_COMPARE = {ast.Eq: "=", ast.NotEq: "<>", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def column_sql(node: ast.expr, reader: Strings, scope: Scope) -> str | None:
    """Translate a PySpark Column expression (`F.col("d") == "x"`, `&`, `|`, `isin`) to SQL."""
    if isinstance(node, ast.BoolOp):
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        left = column_sql(node.left, reader, scope)
        right = column_sql(node.right, reader, scope)
        if left is None or right is None:
            return None
        return f"({left}) {'AND' if isinstance(node.op, ast.BitAnd) else 'OR'} ({right})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        inner = column_sql(node.operand, reader, scope)
        return None if inner is None else f"NOT ({inner})"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        left = _operand_sql(node.left, reader, scope)
        right = _operand_sql(node.comparators[0], reader, scope)
        if left is None or right is None:
            return None
        return f"{left} {_COMPARE[type(node.ops[0])]} {right}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "isin":
            col = _operand_sql(node.func.value, reader, scope)
            args = (
                node.args[0].elts
                if len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))
                else node.args
            )
            values = [_operand_sql(a, reader, scope) for a in args]
            if col is None or any(v is None for v in values):
                return None
            return f"{col} IN ({', '.join(values)})"  # type: ignore[arg-type]
        if node.func.attr == "expr" and node.args:
            return reader.string(node.args[0], scope).text
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "expr" and node.args:
        return reader.string(node.args[0], scope).text
    return None


def _operand_sql(node: ast.expr, reader: Strings, scope: Scope) -> str | None:
    if isinstance(node, ast.Call):
        fname = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if fname in ("col", "column") and node.args:
            return reader.string(node.args[0], scope).text
        if fname == "lit" and node.args:
            return _operand_sql(node.args[0], reader, scope)
        if fname == "expr" and node.args:
            return reader.string(node.args[0], scope).text
        return None
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return "'" + node.value.replace("'", "\\'") + "'"
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return number_text(node.value)  # None (unknown) for an integer too long to write
        return None
    if isinstance(node, (ast.Name, ast.JoinedStr)):
        s = reader.string(node, scope)
        return "'" + s.text + "'"
    return None


_PATH_TABLE = re.compile(r"^\w+\.`([^`]+)`$")  # `parquet.`/mnt/x``: the table at a path


def path_or_name(name: Str, unknown_is_path: bool = False) -> tuple[Str, bool]:
    """The target a Delta API call names, as (the text, whether it is a path): `/mnt/x`,
    `s3://b/x`, `dbfs:/x` and `format.`path`` (`parquet.`/mnt/x``) name the table at
    that path, anything else a table's name; a target only a run knows is a path
    where the API takes URIs (`unknown_is_path`: delta-rs, polars)."""
    m = _PATH_TABLE.match(name.text)
    if m is not None:
        return Str(m.group(1), name.params, name.unknown), True
    path = name.text.startswith(("/", "dbfs:")) or "://" in name.text
    return name, path or (unknown_is_path and name.unknown)


# actions of `writeTo(t)` (DataFrameWriterV2) that write the table
WRITE_TO_ACTIONS = frozenset({"append", "overwrite", "overwritePartitions", "create", "replace", "createOrReplace"})
# links that may stand between `writeTo(t)` and its action
_WRITE_TO_LINKS = frozenset({"using", "option", "options", "tableProperty", "partitionedBy", "clusterBy"})
# a table's DeltaTable methods that change it (a merge is its builder's `execute`)
_DELTA_TABLE_DML = frozenset({"delete", "update", "updateExpr"})
_DELTA_TABLE_OPENERS = frozenset({"forName", "forPath"})


def delta_write_terminal(call: ast.Call) -> str | None:
    """The terminal `call` is when its chain, as written, plainly writes a Delta
    table, whatever its names and values hold: a writer whose last `format(...)`
    (or the terminal's `format=`) is `"delta"` ending in `save(...)` or a stream's
    `start(...)`; `writeTo(t)` and
    an action (`append()`, `overwritePartitions()`, ...); `delete(...)` or
    `update(...)` of a table the chain opens with `DeltaTable.forName` or
    `forPath`. None for anything else (`format("parquet").save(p)`, a model's
    `save(p)`, a thread's `start()`). The reader reads such chains; this lets a
    sweep of what it left unread (`unread`) know them by their text too."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    links: list[tuple[str, ast.Call | None]] = []  # the chain's earlier links, last first
    node = func.value
    while isinstance(node, (ast.Call, ast.Attribute)):
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Attribute):
                break
            links.append((node.func.attr, node))
            node = node.func.value
        else:
            links.append((node.attr, None))
            node = node.value
    terminal = func.attr
    if terminal in ("save", "start"):
        value = call_argument(call, None, "format")  # `save(path, format="delta")`
        fmt = next((c for n, c in links if n == "format" and c is not None), None)
        if value is None and fmt is not None:
            value = call_argument(fmt, 0, "source")
        delta = isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.lower() == "delta"
        return terminal if delta else None
    if terminal in WRITE_TO_ACTIONS:
        for name, link in links:
            if name == "writeTo" and link is not None:
                return terminal
            if name not in _WRITE_TO_LINKS:
                return None
        return None
    if terminal in _DELTA_TABLE_DML and links and links[0][0] in _DELTA_TABLE_OPENERS and links[0][1] is not None:
        return terminal
    return None
