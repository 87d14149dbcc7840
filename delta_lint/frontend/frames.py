"""The values a DataFrame's rows hold in some columns, where the code builds them from
constants: `spark.sql("SELECT 20 AS id, 'a' AS p")`, `spark.createDataFrame([(1, 'a')],
["id", "p"])` (or with a schema string or a StructType), and any frame given a constant
column (`spark.range(10).withColumn("p", lit("a"))`, `.select(lit("a").alias("p"), ...)`).

A write that matches columns by name (`saveAsTable`, `save`, `writeTo`) then writes
rows whose `p` is one of those values: an append lands in those partitions only, a
dynamic partition overwrite replaces those only. What is known is kept per column
("every row's `p` is `a`"); a column not named here may hold anything, so a frame the
code does not build from constants holds no known column, and a transformation not
read here (a join, a positional rename, a call of the project) forgets every column:
the answer is always a superset of what the rows hold.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from sqlglot import exp

from delta_lint.frontend.conditions import constant_of
from delta_lint.frontend.pyvalues import DataFrame, Str
from delta_lint.frontend.sql import parse_sql
from delta_lint.frontend.sqltext import strip_leading_comments
from delta_lint.predicates import Value

# per column (sorted, lower case), the values every row holds there; empty: none known
FrameRows = tuple[tuple[str, frozenset[Value]], ...]
NONE_KNOWN: FrameRows = ()

MAX_ROWS = 1000  # more literal rows than a job writes by hand: not read
MAX_DEPTH = 64  # chained transformations followed
MAX_QUERY = 20_000  # characters of a query parsed for its constants (it is parsed for its reads too)
_SELECT = re.compile(r"\(*\s*SELECT\b", re.I)

# transformations that keep every row's values in the columns it has (they filter,
# reorder, repartition or name the frame, never change a column)
_KEEPING = frozenset(
    {
        "filter",
        "where",
        "distinct",
        "dropDuplicates",
        "drop_duplicates",
        "dropDuplicatesWithinWatermark",
        "limit",
        "repartition",
        "repartitionByRange",
        "coalesce",
        "cache",
        "persist",
        "unpersist",
        "orderBy",
        "sort",
        "sortWithinPartitions",
        "alias",
        "hint",
        "checkpoint",
        "localCheckpoint",
        "sample",
        "withWatermark",
        "dropna",
    }
)
_SOURCES = frozenset({"table", "range", "read", "readStream", "load", "parquet", "csv", "json", "orc", "text"})
_LIT = frozenset({"lit", "typedLit"})


def rows_value(value: object) -> Value | None:
    """A Python value as a SQL literal's value (`("lit", "a")`, `("lit", 20)`), or None
    when it is not a known constant (None, a NULL, is left open too)."""
    if isinstance(value, Str):
        if value.unknown or value.params or value.value is None:  # one of several texts is unknown too
            return None
        return ("lit", value.value if value.scalar else value.text)
    if isinstance(value, bool | int | float | str):
        return ("lit", value)
    return None


class FrameReader:
    """Reads the rows of DataFrame expressions: `held(name)` is what a name holds,
    `string(node)` a node's string value (as the Python front end reads them)."""

    def __init__(
        self,
        held: Callable[[str], object],
        string: Callable[[ast.expr], Str],
        bound: Callable[[str], ast.expr | None] | None = None,
    ) -> None:
        self.held = held
        self.string = string
        # the one expression a name of the file is bound to, where the file binds it
        # once and never changes it in place (`Walker.single_binding`): a schema or a
        # frame made on a line of its own (`SCHEMA = StructType([...])`)
        self.bound = bound or _unbound

    def rows(self, node: ast.expr | None, depth: int = 0) -> FrameRows:
        if node is None or depth > MAX_DEPTH:
            return NONE_KNOWN
        if isinstance(node, ast.Name):
            held = self.held(node.id)
            return held.rows if isinstance(held, DataFrame) else NONE_KNOWN
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            return NONE_KNOWN
        method, base = node.func.attr, node.func.value
        if method == "sql":
            return self._query(node)
        if method == "createDataFrame":
            return self._created(node)
        if method in _SOURCES:
            return NONE_KNOWN
        known = dict(self.rows(base, depth + 1))
        if method in _KEEPING:
            pass
        elif method == "withColumn" and len(node.args) == 2:
            name = self._name(node.args[0])
            if name is None:
                return NONE_KNOWN
            self._put(known, name, self._column(node.args[1], known))
        elif method == "withColumns" and len(node.args) == 1 and isinstance(node.args[0], ast.Dict):
            given = node.args[0]
            values = {}
            for key, value in zip(given.keys, given.values):
                name = self._name(key) if key is not None else None
                if name is None:
                    return NONE_KNOWN
                values[name] = self._column(value, known)
            for name, found in values.items():
                self._put(known, name, found)
        elif method == "withColumnRenamed" and len(node.args) == 2:
            old, new = self._name(node.args[0]), self._name(node.args[1])
            if old is None or new is None:
                return NONE_KNOWN
            found = known.pop(old, None)
            self._put(known, new, found)
        elif method == "drop":
            names = [self._name(a) for a in node.args]
            if any(n is None for n in names):
                return NONE_KNOWN
            for name in names:
                known.pop(name, None)  # type: ignore[arg-type]
        elif method in ("select", "selectExpr"):
            return self._select(node, known) if method == "select" else NONE_KNOWN
        else:  # a join, `toDF` (renames by position), a union, a call not read here
            return NONE_KNOWN
        return tuple(sorted(known.items()))

    @staticmethod
    def _put(known: dict[str, frozenset[Value]], name: str, found: frozenset[Value] | None) -> None:
        if found is None:
            known.pop(name, None)
        else:
            known[name] = found

    def _name(self, node: ast.expr) -> str | None:
        text = self.string(node)
        if type(text) is not Str or text.scalar or text.unknown or text.params or not text.text:
            return None
        return text.text.strip("`").lower()

    def _column(self, node: ast.expr, known: dict[str, frozenset[Value]]) -> frozenset[Value] | None:
        """The values a column expression holds in every row: a literal (`lit("a")`,
        `F.lit(2)`), or a column of the frame (`col("p")`, `"p"`), or None."""
        if isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1:
            called = _called(node)
            if called in _LIT:
                value = rows_value(self.string(node.args[0]))
                return frozenset({value}) if value is not None else None
            if called in ("col", "column"):
                name = self._name(node.args[0])
                return known.get(name) if name is not None else None
        return None

    def _select(self, node: ast.Call, known: dict[str, frozenset[Value]]) -> FrameRows:
        """`.select("p", col("id"), lit("a").alias("q"), "*")`: each output column named
        by a string, a `col(...)` or an alias keeps what is known of its values."""
        args = node.args
        if len(args) == 1 and isinstance(args[0], ast.List | ast.Tuple):
            args = args[0].elts
        out: dict[str, frozenset[Value]] = {}
        for arg in args:
            if isinstance(arg, ast.Constant) and arg.value == "*":
                out.update(known)
                continue
            name = None
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr in ("alias", "name"):
                name = self._name(arg.args[0]) if len(arg.args) == 1 else None
                arg = arg.func.value
            elif isinstance(arg, ast.Constant):
                name = self._name(arg)
            elif isinstance(arg, ast.Call) and _called(arg) in ("col", "column") and len(arg.args) == 1:
                name = self._name(arg.args[0])
            if name is None:
                if isinstance(arg, ast.Starred):
                    return NONE_KNOWN
                continue  # a column of another name: what it holds is not known
            found = known.get(name) if isinstance(arg, ast.Constant) else self._column(arg, known)
            self._put(out, name, found)
        return tuple(sorted(out.items()))

    def columns(self, node: ast.expr | None, depth: int = 0) -> tuple[str, ...]:
        """Every column a frame has, where the code states them all: a frame made by
        `spark.createDataFrame(data, schema)` with a literal schema (a list of names, a
        DDL string, a StructType), through transformations that keep the columns.
        (): not known (a schema inferred from the data, any other frame)."""
        if isinstance(node, ast.Name) and depth <= MAX_DEPTH:  # `df = spark.createDataFrame(...)` above
            return self.columns(self.bound(node.id), depth + 1)
        if node is None or depth > MAX_DEPTH or not isinstance(node, ast.Call):
            return ()
        if not isinstance(node.func, ast.Attribute):
            return ()
        method = node.func.attr
        if method == "createDataFrame":
            schema = (
                node.args[1]
                if len(node.args) > 1
                else next((k.value for k in node.keywords if k.arg == "schema"), None)
            )
            names = self._schema_names(schema) if schema is not None else None
            return tuple(dict.fromkeys(n.lower() for n in names)) if names else ()
        if method in _KEEPING:
            return self.columns(node.func.value, depth + 1)
        return ()

    def _query(self, node: ast.Call) -> FrameRows:
        """`spark.sql("SELECT 20 AS id, 'a' AS p")`: the constants a plain SELECT lists
        under a name hold in every row, whatever it reads (a set operation, or a
        statement built of values not known, gives none)."""
        if len(node.args) != 1 or node.keywords:
            return NONE_KNOWN
        text = self.string(node.args[0])
        if text.unknown or text.params or len(text.text) > MAX_QUERY:  # (one of several texts is unknown)
            return NONE_KNOWN
        if not _SELECT.match(strip_leading_comments(text.text)):
            return NONE_KNOWN  # not a query (a write, a SET): no rows to read
        try:
            tree = parse_sql(text.text)
        except Exception:  # noqa: BLE001 - a statement sqlglot cannot read holds no known row
            return NONE_KNOWN
        if not isinstance(tree, exp.Select):
            return NONE_KNOWN
        out: dict[str, frozenset[Value]] = {}
        for projection in tree.expressions:
            if not isinstance(projection, exp.Alias):
                continue
            value = constant_of(projection.this, lambda _node: None)
            if value is not None:
                out[projection.alias.lower()] = frozenset({value})
            else:
                out.pop(projection.alias.lower(), None)
        return tuple(sorted(out.items()))

    def _created(self, node: ast.Call) -> FrameRows:
        """`spark.createDataFrame(data, schema)` of literal rows: tuples named by the
        schema (a list of names, a DDL string, a StructType), dicts and `Row(...)`s by
        their keys."""
        data = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "data"), None)
        schema = (
            node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "schema"), None)
        )
        if not isinstance(data, ast.List | ast.Tuple) or not 0 < len(data.elts) <= MAX_ROWS:
            return NONE_KNOWN
        names = self._schema_names(schema) if schema is not None else None
        rows = [self._row(row, names) for row in data.elts]
        if any(r is None for r in rows) or len({tuple(sorted(n for n, _ in r)) for r in rows}) != 1:  # type: ignore[union-attr]
            return NONE_KNOWN  # a row not read, or rows of different columns
        columns: dict[str, set[Value]] = {}
        for name in {n for n, _ in rows[0]}:  # type: ignore[union-attr]
            values = {v for r in rows for n, v in r if n == name}  # type: ignore[union-attr]
            if None not in values:
                columns[name] = values  # type: ignore[assignment]
        return tuple(sorted((name, frozenset(values)) for name, values in columns.items()))

    def _row(self, row: ast.expr, names: list[str] | None) -> list[tuple[str, Value | None]] | None:
        if isinstance(row, ast.Tuple | ast.List):
            if names is None or len(names) != len(row.elts):
                return None
            return [(name, self._literal(e)) for name, e in zip(names, row.elts)]
        if isinstance(row, ast.Dict):
            keys = [self._name(k) if k is not None else None for k in row.keys]
            if any(k is None for k in keys):
                return None
            return [(k, self._literal(v)) for k, v in zip(keys, row.values)]  # type: ignore[misc]
        if isinstance(row, ast.Call) and isinstance(row.func, ast.Name) and row.func.id == "Row" and not row.args:
            if any(k.arg is None for k in row.keywords):
                return None
            return [(k.arg.lower(), self._literal(k.value)) for k in row.keywords]  # type: ignore[union-attr]
        return None

    def _literal(self, node: ast.expr) -> Value | None:
        if isinstance(node, ast.Constant):
            return rows_value(node.value) if node.value is not None else None
        return rows_value(self.string(node))

    def _schema_names(self, schema: ast.expr, depth: int = 0) -> list[str] | None:
        """The column names a schema states: a list of names, a `StructType` of
        `StructField`s, a DDL string, or a name the file binds once to one of them."""
        if isinstance(schema, ast.Name) and not isinstance(self.held(schema.id), Str):
            bound = self.bound(schema.id) if depth < MAX_DEPTH else None
            return None if bound is None else self._schema_names(bound, depth + 1)
        if isinstance(schema, ast.List | ast.Tuple):
            names = [self._name(e) for e in schema.elts]
            return None if any(n is None for n in names) else names  # type: ignore[return-value]
        if isinstance(schema, ast.Call):
            fields = schema.args[0] if _called(schema) == "StructType" and len(schema.args) == 1 else None
            if not isinstance(fields, ast.List | ast.Tuple):
                return None
            names = []
            for field in fields.elts:
                if not (isinstance(field, ast.Call) and field.args):
                    return None
                name = self._name(field.args[0])
                if name is None:
                    return None
                names.append(name)
            return names
        text = self.string(schema)
        if type(text) is not Str or text.scalar or text.unknown or text.params:
            return None
        return ddl_names(text.text)


def _unbound(_name: str) -> ast.expr | None:
    return None


def _called(call: ast.Call) -> str | None:
    """The name a call calls: `lit` of `lit(...)`, `F.lit(...)` and `functions.lit(...)`."""
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def ddl_names(text: str) -> list[str] | None:
    """The column names of a schema string (`"id INT, p STRING"`, `"id: int, p: string"`),
    commas inside a type's `<...>` or `(...)` left alone."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    names = []
    for part in parts:
        words = part.replace(":", " ").split()
        if len(words) < 2:
            return None
        names.append(words[0].strip("`").lower())
    return names
