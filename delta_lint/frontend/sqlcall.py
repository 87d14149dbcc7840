"""The SQL a Python call runs, and what a `spark.sql` call binds in its own statement.

`SqlCallReader` reads a `spark.sql(q)` call (or a bare `sql(q)` of a notebook, or a
warehouse's `execute_statement(statement=q)`) as the statement it runs, with the
SQL front end, at the call.

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
import re
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from sqlglot.dialects.dialect import Dialects

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.pysites import SourceSites
from delta_lint.frontend.pyspark_api import argument
from delta_lint.frontend.pyvalues import TOO_LONG, Scope, Str, alternatives, is_texts, joined_session, known_items
from delta_lint.frontend.sql import PARSE_ERROR, Session, analyze_sql
from delta_lint.frontend.sqltext import bind_markers, format_fields
from delta_lint.frontend.values.budget import MAX_BUILT_TEXT, SQL_CHARS_PER_STEP, Budget
from delta_lint.frontend.values.resolver import BUDGET_SPENT
from delta_lint.frontend.warehouse import ClientOrigins
from delta_lint.model import DYNAMIC_SQL, Diagnostic, Flag, Intent, Location

MAX_ARGS = 256  # more values than a statement binds by hand: not read


def _known(value: object) -> Str | None:
    """A string value wholly known (no parameter, no unknown part, not one of several)."""
    if not isinstance(value, Str) or value.unknown or value.params:  # one of several is unknown too
        return None
    return value


def arg_literal(value: object) -> str | None:
    """The SQL literal `lit(value)` gives a value of `args`, or None when not known."""
    known = _known(value)
    if known is None:
        return None
    if known.scalar:  # None, a flag, a number
        return "NULL" if known.value is None else known.text.upper() if isinstance(known.value, bool) else known.text
    return "'" + known.text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def format_literal(value: object) -> str | None:
    """What pyspark's formatter puts for `{name}`: a string's SQL literal, another
    value's Python text (`str(value)`); None when not known."""
    known = _known(value)
    if known is None:
        return None
    if type(known) is Str and not known.scalar:
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
    text = bound_markers(text, argument(call, "SparkSession", "sql", "args"), read, held)
    return sql if text == sql.text else replace(sql, text=text)


def bound_markers(
    text: str, node: ast.expr | None, read: Callable[[ast.expr], Str], held: Callable[[ast.expr], object]
) -> str:
    """`text` with the values `node` gives bound to its markers (`bind_markers`): a
    literal dict to the `:name` markers, a literal list or tuple to the `?` markers,
    or a name holding either; `read` and `held` as for `bound_statement`."""
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
        if isinstance(value, dict):  # the values it holds
            named = {k: v for k, v in ((k, arg_literal(v)) for k, v in known_items(value)) if v is not None}
        elif is_texts(value):
            positional = [arg_literal(v) for v in value]  # type: ignore[attr-defined]
    return bind_markers(text, named, positional)


class Values(Protocol):
    """The part of the host's value resolver this reader asks."""

    def any_value(self, name: ast.Name, scope: Scope) -> Str | None: ...
    def _budget_spent(self, call: ast.AST) -> None: ...


class Host(Protocol):
    """What a `SqlCallReader` reads from and hands back to the analyzer that owns it."""

    path: str
    own_path: str
    budget: Budget
    session: Session
    memo: FrontEndMemo
    diagnostics: list[Diagnostic]
    mutated_names: frozenset[str]
    sites: SourceSites
    values: Values
    imported_clients: dict[str, dict[str, str]]  # see `warehouse.ClientOrigins`
    _homes: list[tuple[int, int, str]]  # the pasted definitions of other modules: (first, last line, module)
    _tree: ast.Module | None  # the module's tree (with the pasted definitions), once parsed
    source: str  # its source, grown by the pasted definitions
    _elsewhere_lines: set[int]  # lines of calls that run SQL in another database (no note there)

    def string(self, node: ast.expr | None, scope: Scope) -> Str: ...
    def text_sites(self, loc: Location, arg: ast.expr, scope: Scope) -> tuple[Location, ...]: ...
    def _add(self, intent: Intent, scope: Scope, node: ast.AST | None = None, built: tuple = ()) -> None: ...
    def located(self, loc: Location, scope: Scope, node: ast.AST | None, built: tuple = ()) -> Location: ...


class SqlCallReader:
    """The Python front end's reading of the SQL a call runs: `spark.sql(q, ...)` (and a
    bare `sql(q)` of a notebook) on the Spark session, or a warehouse's statement
    (`warehouse_statement`) in a session of its own; a part the analyzer (`Host`)
    owns. The statement's text is read by the SQL front end at the call."""

    def __init__(self, host: Host) -> None:
        # weak: the host owns this reader, and a cycle would keep the file's tree alive
        # until the garbage collector's next full pass
        self.host: Host = weakref.proxy(host)
        self._clients: ClientOrigins | None = None  # the module's Databricks clients, once a call asks

    def client_statement(self, node: ast.Call, tree: ast.Module, source: str) -> ast.expr | None:
        """The SQL a call sends through a Databricks client (`warehouse.ClientOrigins`)."""
        if self._clients is None:
            self._clients = ClientOrigins(tree, source, self.host.imported_clients, self.host._homes)
        return self._clients.statement(node)

    def runs_elsewhere(self, node: ast.Call) -> bool:
        """Whether a call runs its statement in another database (see
        `warehouse.ClientOrigins.runs_elsewhere`); asked after `client_statement`."""
        return self._clients is not None and self._clients.runs_elsewhere(node)

    def _sql_elsewhere(self, node: ast.Call) -> bool:
        """Whether an `x.sql(q)` runs `q` in another database (`con.sql(q)` of `con =
        duckdb.connect()`, `duckdb.sql(q)`) rather than on the Spark session."""
        tree = self.host._tree
        if tree is None or not isinstance(node.func, ast.Attribute):
            return False
        if self._clients is None:
            self._clients = ClientOrigins(tree, self.host.source, self.host.imported_clients, self.host._homes)
        return self._clients.runs_elsewhere(node)

    def client_doubts(self) -> list[tuple[ast.Call, str]]:
        """The calls that may send SQL through a Databricks client and were not read,
        with why (see `warehouse.ClientOrigins.doubts`)."""
        return list(self._clients.doubts.values()) if self._clients is not None else []

    def read(self, node: ast.Call, warehouse: ast.expr | None, scope: Scope) -> None:
        """The intents of the statement `node` runs: `warehouse`, the statement a
        warehouse call runs, else the query of `spark.sql`."""
        if not node.args and not node.keywords:
            return
        if warehouse is None and _generates_sql(node):
            return  # sqlglot's `expression.sql("databricks")`: it writes SQL text, it runs none
        if warehouse is None and self._sql_elsewhere(node):
            # another database's (DuckDB's): no Delta write, and nothing to say at the call
            self.host._elsewhere_lines.add((scope.site or self.host.sites.loc(node)).line)
            return
        arg = warehouse or argument(node, "SparkSession", "sql", "sqlQuery")
        if arg is None:
            return
        options = alternatives(self._text(arg, scope))  # one text, or each of several
        given = self._clients.parameters.get(id(node)) if warehouse is not None and self._clients else None
        if given is not None:  # what a client's `execute(operation, parameters)` binds
            options = tuple(
                replace(
                    sql,
                    text=bound_markers(
                        sql.text,
                        given,
                        lambda value: self.host.string(value, scope),
                        lambda held: self._held_container(held, scope),
                    ),
                )
                for sql in options
            )
        if warehouse is None:  # what `spark.sql(q, args, **kwargs)` binds in its statement
            options = tuple(
                bound_statement(
                    sql,
                    node,
                    lambda value: self.host.string(value, scope),
                    lambda held: self._held_container(held, scope),
                )
                for sql in options
            )
        loc = scope.site or self.host.sites.loc(node)
        built = self.host.text_sites(loc, arg, scope)  # where its text was built, on other lines
        if scope.site is None and built:
            loc = Location(loc.path, loc.line, loc.column, built)
        if len(options) == 1:
            intents, diags = self._statement(options[0], node, warehouse, scope, loc)
        else:
            intents, diags = self._each_statement(options, node, warehouse, scope, loc)
        for i in intents:
            self.host._add(i, scope, node, built)
        self.host.diagnostics.extend(
            replace(d, location=self.host.located(d.location, scope, node, built)) for d in diags
        )

    def _text(self, arg: ast.expr, scope: Scope) -> Str:
        """The statement's text; for `spark.sql(alter_map[obj_type])` with a key only a
        run knows, of a literal dict of statements, one of the dict's texts."""
        text = self.host.string(arg, scope)
        if (
            type(arg) is ast.Subscript
            and type(arg.value) is ast.Name
            and type(arg.slice) is not ast.Slice
            and _WHOLLY_PLACEHOLDER.fullmatch(text.text)
        ):
            key = self.host.string(arg.slice, scope)
            if key.unknown or key.params:
                return self.host.values.any_value(arg.value, scope) or text
        return text

    def _each_statement(
        self, options: tuple[Str, ...], node: ast.Call, warehouse: ast.expr | None, scope: Scope, loc: Location
    ) -> tuple[list[Intent], list[Diagnostic]]:
        """A statement that is one of several texts (`spark.sql(alter_map[obj_type])`
        of a literal dict): each text read as the statement, from the same session.
        An intent every text makes is kept as it is; the others are flagged `one_of`.
        `USE`s of different names leave the session one of several (`joined_session`);
        a text that
        does not parse while others do is a DL007 note (see `unparsed_texts`)."""
        session = self.host.session
        before = dict(session.__dict__)
        runs: list[tuple[list[Intent], list[Diagnostic]]] = []
        after: list[dict] = []
        for option in options:
            session.__dict__.update(before)
            runs.append(self._statement(option, node, warehouse, scope, loc))
            after.append(dict(session.__dict__))
        session.__dict__.update(joined_session(before, after))
        shapes = [{_shape(i) for i in made} for made, _ in runs]
        intents: list[Intent] = []
        seen: set[tuple] = set()
        for made, _ in runs:
            for intent in made:
                shape = _shape(intent)
                if shape in seen:
                    continue
                seen.add(shape)
                everywhere = all(shape in one for one in shapes)
                intents.append(intent if everywhere else replace(intent, flags=intent.flags | {Flag.ONE_OF}))
        return intents, list(dict.fromkeys(unparsed_texts(runs)))

    def _statement(
        self, sql: Str, node: ast.Call, warehouse: ast.expr | None, scope: Scope, loc: Location
    ) -> tuple[list[Intent], list[Diagnostic]]:
        """The intents and diagnostics of one statement text run at `loc`."""
        if TOO_LONG in sql.params and _WHOLLY_PLACEHOLDER.fullmatch(sql.text):
            return [], [_too_long(loc, "its writes are not checked")]
        if _WHOLLY_PLACEHOLDER.fullmatch(sql.text):
            shown = sql.text.strip()
            return [], [
                Diagnostic(
                    DYNAMIC_SQL,
                    loc,
                    f"dynamic SQL: the statement is `{shown}`, a value delta-lint cannot know; its writes are not checked",
                    "info",
                )
            ]
        budget = self.host.budget
        spent_before = budget.exhausted
        if not budget.parse(len(sql.text)):  # the text built can be far larger than the code
            if not spent_before:  # said once, where the steps ran out
                why = (
                    f"more than {budget.steps:,} evaluation steps "
                    f"(the SQL text read counts a step per {SQL_CHARS_PER_STEP} characters)"
                )
                budget.note(self.host.own_path, node.lineno, why, lasting=True)
                self.host.values._budget_spent(node)
            return [], []
        session = self.host.session
        if warehouse is not None:  # a warehouse's session, not Spark's: `catalog=`/`schema=` of the call
            session = Session(non_delta=self.host.session.non_delta)
            for kind in ("catalog", "schema"):
                value = next((k.value for k in node.keywords if k.arg == kind), None)
                if value is not None:
                    session.use([self.host.string(value, scope).text.lower()], kind)
        intents, diags = analyze_sql(
            sql.text,
            self.host.path,
            session,
            fixed=loc,
            extra_params=tuple(p for p in sql.params),
            memo=self.host.memo,
        )
        if session is not self.host.session:
            self.host.session.non_delta = session.non_delta
        if TOO_LONG in sql.params:  # a part grew past what a string may hold: unknown, said as such
            broken = any(d.rule == PARSE_ERROR for d in diags)
            diags = [d for d in diags if d.rule != PARSE_ERROR]
            diags.append(
                _too_long(
                    loc,
                    "without it the statement does not parse: its writes are not checked"
                    if broken
                    else "that part is unknown",
                )
            )
        return intents, diags

    def _held_container(self, node: ast.expr, scope: Scope) -> object:
        """The dict or list a name holds, unless the code changes it in place."""
        if isinstance(node, ast.Name) and node.id not in self.host.mutated_names:
            return scope.env.get(node.id)
        return None


# What `session_sql_names` can find, in the text: a bare call of `sql` or `spark.sql`
# named without calling it (`q = spark.sql`). Most files only call `spark.sql(...)`
# and import `pyspark.sql`: they are not walked a second time for it.
MAY_NAME_SESSION_SQL = re.compile(r"(?<![\w.])sql\s*\(|\.\s*sql\b(?!\s*[(.]|\s+import\b)")


def session_sql_names(tree: ast.Module) -> frozenset[str]:
    """Bare names that run SQL on the Spark session.

    - `sql`, where the file never binds it: a Databricks notebook's global (the
      notebook defines `sql` and `table` for the session; in plain Python the call
      would raise `NameError`, so an unbound `sql(...)` can only be that global);
    - a name bound only to `spark.sql` / `sqlContext.sql` (`q = spark.sql`)."""
    bound: dict[str, list[ast.expr | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.setdefault(node.id, [])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.setdefault(node.name, []).append(None)
        elif isinstance(node, ast.arg):
            bound.setdefault(node.arg, []).append(None)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound.setdefault((alias.asname or alias.name).split(".")[0], []).append(None)
    names = {"sql"} if "sql" not in bound else set()
    for name, values in bound.items():
        if values and all(_is_session_sql(v) for v in values):
            names.add(name)
    return frozenset(names)


def _is_session_sql(value: ast.expr | None) -> bool:
    return (
        isinstance(value, ast.Attribute)
        and value.attr == "sql"
        and isinstance(value.value, ast.Name)
        and value.value.id in ("spark", "sqlContext")
    )


def as_session_sql(call: ast.Call) -> ast.Call:
    """`sql("...")` read as the `spark.sql("...")` it stands for, at the same place."""
    session = ast.copy_location(ast.Name("spark", ast.Load()), call.func)
    func = ast.copy_location(ast.Attribute(session, "sql", ast.Load()), call.func)
    return ast.copy_location(ast.Call(func, call.args, call.keywords), call)


# The SQL a warehouse runs for the code: the Databricks SDK's
# `w.statement_execution.execute_statement(statement=...)`, and lsql's
# `StatementExecutionExt.execute(...)` / `fetch_*` (told from a DB-API cursor's
# `execute(sql)` by its `statement=` keyword).
_WAREHOUSE_METHODS = {
    "execute_statement": "StatementExecutionAPI",
    "execute": "StatementExecutionExt",
    "fetch_all": "StatementExecutionExt",
    "fetch_one": "StatementExecutionExt",
    "fetch_value": "StatementExecutionExt",
}


def warehouse_statement(method: str, call: ast.Call) -> ast.expr | None:
    """The statement a warehouse call runs (None for any other call)."""
    owner = _WAREHOUSE_METHODS.get(method)
    if owner is None:
        return None
    if method != "execute_statement" and not any(k.arg == "statement" for k in call.keywords):
        return None
    return argument(call, owner, method, "statement")


def unparsed_texts(runs: list[tuple[list[Intent], list[Diagnostic]]]) -> list[Diagnostic]:
    """The diagnostics of a statement read once per text it may be (a dict's text for
    a key only a run knows here; in the Python reader, a statement whose names hold
    one of several values). When some texts parse, one that does not (`UPDATE t SET `
    before a loop that adds the assignments) is what a run would have only for
    another key or branch: not a syntax error of the code, a DL007 note naming the
    text left out. When no text parses, each error stands."""
    if all(any(d.rule == PARSE_ERROR for d in diags) for _, diags in runs):
        return [d for _, diags in runs for d in diags]
    out = []
    for _, diags in runs:
        for d in diags:
            if d.rule == PARSE_ERROR:
                why = d.message.removeprefix("cannot parse statement ")
                d = Diagnostic(
                    DYNAMIC_SQL,
                    d.location,
                    f"one of the texts this statement may have does not parse ({why}); the texts that parse are read",
                    "info",
                )
            out.append(d)
    return out


def _too_long(loc: Location, then: str) -> Diagnostic:
    """The DL008 of a statement a part of which is a string past MAX_BUILT_TEXT (a
    literal doubled again and again): never a parse error of the code, whose text
    has no such placeholder."""
    return Diagnostic(
        BUDGET_SPENT,
        loc,
        f"statement read in part: a part of its text is a string of more than {MAX_BUILT_TEXT:,} characters, "
        f"past the analysis budget of a file; {then}",
        "warning",
    )


def _shape(intent: Intent) -> tuple:
    """What tells two texts' intents apart (their location is the call's for both)."""
    return (intent.table, intent.kind, intent.flags, intent.predicate_sql, intent.subkind, intent.region)


_WHOLLY_PLACEHOLDER = re.compile(r"\s*\{[^{}]+\}\s*;?\s*")


# sqlglot's `Expression.sql(dialect, pretty=...)` turns a parsed tree into text: its
# argument is a dialect's name (or its keywords are the generator's), never a statement
_GENERATOR_KEYWORDS = frozenset({"dialect", "pretty", "identify", "normalize", "pad", "indent", "comments"})
_DIALECTS = frozenset(d.value for d in Dialects if d.value)  # `databricks`, `spark`, `duckdb`, ...


def _generates_sql(node: ast.Call) -> bool:
    """Whether an `x.sql(...)` call is sqlglot's SQL generator rather than a session's
    statement: a generator keyword, or one argument that is a dialect's name alone."""
    if any(k.arg in _GENERATOR_KEYWORDS for k in node.keywords):
        return True
    if len(node.args) != 1 or node.keywords:
        return False
    arg = node.args[0]
    return isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.strip().lower() in _DIALECTS
