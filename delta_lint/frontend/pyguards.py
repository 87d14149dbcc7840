"""Existence guards: code that writes a table only while that table does not exist.

A job that creates its table on its first run and merges into it on every later one
is written with a guard on the table's existence:

    if not spark.catalog.tableExists(t):
        df.write.saveAsTable(t)            # the first run only
    else:
        DeltaTable.forName(spark, t).merge(...).execute()

While the table does not exist, no other write that needs it can commit (a MERGE,
UPDATE, DELETE or ALTER fails with "table not found", not with a commit conflict),
and once it exists the guarded write never runs again: the only race such a write
can have is with another write creating the same absent table (a CREATE, or a
DataFrame append or overwrite, which creates a missing table; see the engine's
DL114 unit `_only_when_absent`). The walk (`values.walker`) tells this reader where it enters and
leaves the branches it reads; the analyzer hands every intent to `mark`, which flags
`only_when_absent` the first write of a table the code stands under a guard for.

What counts as a guard (each names the table or path it checks, as the write would):
`spark.catalog.tableExists(name[, db])` (and the JVM catalog's `tableExists(db, name)`
through `_jcatalog` or `_jsparkSession`), `DeltaTable.isDeltaTable(spark, path)`,
`name [not] in [t.name for t in spark.catalog.listTables(db)]`, a project function
whose body returns one of those on its parameters, `not`, `and`/`or`, and a `try`
whose first statement looks the table up with `DeltaTable.forName`/`forPath`: its
handler of `AnalysisException` (or, when the lookup is all the `try` does, of any
exception) runs only while the table is absent. A guard whose table is not known
statically guards nothing.

What is never flagged, however it is guarded: a streaming write (the query keeps
committing once the table exists), a write in a loop or in a function defined under
the guard (it may run again once the first run created the table), a later write of
the table under the same guard (the first one created it), and a write a thread pool
makes (its calls run at once, the first creating the table for the others).
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Protocol

from delta_lint.frontend.pyspark_api import argument
from delta_lint.frontend.pyvalues import Scope, Str, held_alternatives
from delta_lint.model import Flag, Intent, Kind, TableRef

# the words a guard is written with: a file without any has no guard to read
_GUARD_WORDS = ("tableExists", "isDeltaTable", "listTables", "forName", "forPath")
# how deep a project function returning a check of another is followed
_MAX_DEPTH = 3
# the exceptions a missing table raises that a handler may name: what `forName` raises
# on a missing table, and what every exception it may raise derives from
_MISSING = frozenset({"AnalysisException"})
_ANY = frozenset({"Exception", "BaseException", "Py4JJavaError"})
_NEVER_FLAGGED = frozenset({Kind.STREAMING_WRITE, Kind.STREAMING_READ})


class Named:
    """A guard of a table whose name is one of several (`if spark.catalog.tableExists(T)`
    with `T` set one way or another): it names no table where it stands, but a write
    read once per value of `T` (see `pyalternatives`) reads it again with `T` bound
    to that value, in the scope the guard was read in."""

    __slots__ = ("db", "name", "scope", "reader")

    def __init__(self, reader: GuardReader, name: ast.expr, db: ast.expr | None, scope: Scope) -> None:
        self.reader, self.name, self.db, self.scope = reader, name, db, scope

    def table(self) -> TableRef | None:
        """The table the guard names with the scope's values as they are now."""
        return self.reader._table(self.name, self.db, self.scope, lazy=False)  # type: ignore[return-value]


Absent = frozenset[TableRef | Named]
NONE: Absent = frozenset()


class Host(Protocol):
    """What a `GuardReader` reads from the analyzer that owns it."""

    source: str
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    module_env: dict[str, object]

    def string(self, node: ast.expr | None, scope: Scope) -> Str: ...
    def _ref(self, target: Str, path: bool = False) -> tuple[TableRef, bool]: ...


class GuardReader:
    """The tables known absent where the walk stands (`absent`), and the tables of
    every write read so far (`written`, in order): a branch, a loop or a function
    body is read `inside` a stretch of its own, and what it wrote is not absent after
    it, on any path."""

    def __init__(self, host: Host) -> None:
        # weak: the host owns this reader (see `pydelta.DeltaTableReader`)
        self.host: Host = weakref.proxy(host)
        self.absent: Absent = NONE
        self.written: list[TableRef] = []
        self._enabled: bool | None = None

    @property
    def enabled(self) -> bool:
        """Whether the source has a word a guard is written with (with the helpers pasted
        from other files: a guard function may be one of them)."""
        if self._enabled is None:
            self._enabled = any(word in self.host.source for word in _GUARD_WORDS)
        return self._enabled

    # -- where the walk stands -----------------------------------------------------------

    @contextmanager
    def inside(self, absent: Absent) -> Iterator[None]:
        """Read a stretch of code (a branch, a loop's body, a function's body) with
        `absent` the tables known absent in it; after it, the tables known absent before
        it but those it wrote."""
        before, mark = self.absent, len(self.written)
        self.absent = absent
        try:
            yield
        finally:
            self.absent = before - frozenset(self.written[mark:])

    def mark(self, intent: Intent) -> Intent:
        """The intent, flagged `only_when_absent` when its statement runs only while its
        own table does not exist; a write of a table makes that table exist for the rest
        of the stretch."""
        table = intent.table
        if table is None:
            return intent
        named = [e for e in self.absent if type(e) is Named and e.table() == table]
        guarded = table in self.absent or bool(named)
        if guarded and intent.kind not in _NEVER_FLAGGED and Flag.UNRESOLVED not in intent.flags:
            intent = replace(intent, flags=intent.flags | {Flag.ONLY_WHEN_ABSENT})
        if intent.kind != Kind.STREAMING_READ:
            self.written.append(table)
            if guarded:
                self.absent = self.absent - {table, *named}
        return intent

    @staticmethod
    def settled(intents: list[Intent]) -> list[Intent]:
        """The file's intents once read, without the flag on writes a thread pool makes:
        the pool's calls run at once, and the first to commit creates the table the
        others then write while it exists."""
        return [
            replace(x, flags=x.flags - {Flag.ONLY_WHEN_ABSENT})
            if x.pool is not None and Flag.ONLY_WHEN_ABSENT in x.flags
            else x
            for x in intents
        ]

    # -- guards ----------------------------------------------------------------------------

    def if_bodies(self, tests: list[ast.expr], scope: Scope) -> list[Absent]:
        """For an `if`/`elif` chain of `tests`, the tables each body runs only while
        absent: each link's body (its test true, the earlier ones false), then the last
        `else` (every test false)."""
        if not self.enabled:
            return [NONE] * (len(tests) + 1)
        out: list[Absent] = []
        earlier_false: Absent = NONE
        for test in tests:
            when_true, when_false = self._test(test, scope, 0)
            out.append(earlier_false | when_true)
            earlier_false = earlier_false | when_false
        out.append(earlier_false)
        return out

    def handlers(self, stmt: ast.Try, scope: Scope) -> list[Absent]:
        """For a `try` whose first statement looks a table up (`DeltaTable.forName(spark,
        t)`, `forPath(spark, p)`), the tables each handler runs only while absent: a
        handler of `AnalysisException` (what the lookup of a missing table raises) or of
        any exception, when the lookup is all the body does: anything after it may
        raise them too, on a table that exists."""
        none = [NONE] * len(stmt.handlers)
        if not self.enabled or not stmt.body:
            return none
        ref = self._lookup(stmt.body[0], scope)
        if ref is None:
            return none
        out = []
        for handler in stmt.handlers:
            names = _caught(handler.type)
            # what the body does after the lookup may raise it too (a MERGE whose
            # columns do not resolve raises `AnalysisException` on a table that exists)
            caught = names is None or bool(names & _ANY) or bool(names & _MISSING)
            out.append(frozenset({ref}) if caught and len(stmt.body) == 1 else NONE)
        return out

    def _test(self, test: ast.expr, scope: Scope, depth: int) -> tuple[Absent, Absent]:
        """(the tables absent when `test` is true, those absent when it is false)."""
        kind = type(test)
        if kind is ast.UnaryOp and type(test.op) is ast.Not:  # type: ignore[attr-defined]
            when_true, when_false = self._test(test.operand, scope, depth)  # type: ignore[attr-defined]
            return when_false, when_true
        if kind is ast.BoolOp:
            parts = [self._test(v, scope, depth) for v in test.values]  # type: ignore[attr-defined]
            if type(test.op) is ast.And:  # type: ignore[attr-defined]
                return frozenset().union(*(t for t, _ in parts)), NONE
            return NONE, frozenset().union(*(f for _, f in parts))
        if kind is ast.Compare:
            return self._listed(test, scope)  # type: ignore[arg-type]
        if kind is ast.Call:
            ref = self._exists(test, scope)  # type: ignore[arg-type]
            if ref is not None:
                return NONE, frozenset({ref})
            return self._helper(test, scope, depth)  # type: ignore[arg-type]
        return NONE, NONE

    def _exists(self, call: ast.Call, scope: Scope) -> TableRef | Named | None:
        """The table an existence check names: `catalog.tableExists(...)` or
        `DeltaTable.isDeltaTable(spark, path)`; None for any other call, or a table not
        known statically."""
        func = call.func
        if type(func) is not ast.Attribute:
            return None
        if func.attr == "tableExists":
            jvm = _jvm_catalog(func.value)
            if jvm:  # the JVM catalog's `tableExists(dbName, tableName)` or `(tableName)`
                args = call.args
                name, db = (args[1], args[0]) if len(args) == 2 else (args[0] if args else None, None)
            else:  # pyspark's `Catalog.tableExists(tableName, dbName=None)`
                name = argument(call, "Catalog", "tableExists", "tableName")
                db = argument(call, "Catalog", "tableExists", "dbName")
            return self._table(name, db, scope)
        if func.attr == "isDeltaTable" and _names(func.value, "DeltaTable"):
            path = argument(call, "DeltaTable", "isDeltaTable", "identifier")
            if path is None:
                return None
            ref, resolved = self.host._ref(self.host.string(path, scope), path=True)
            return ref if resolved else None
        return None

    def _listed(self, test: ast.Compare, scope: Scope) -> tuple[Absent, Absent]:
        """`name not in [t.name for t in spark.catalog.listTables(db)]` (or `in`): every
        table of the schema is listed, so the name is missing exactly when the table is.
        A comprehension that filters (`if ...`) lists only some and proves nothing."""
        if len(test.ops) != 1 or type(test.ops[0]) not in (ast.In, ast.NotIn):
            return NONE, NONE
        listing = test.comparators[0]
        if type(listing) not in (ast.ListComp, ast.SetComp, ast.GeneratorExp) or len(listing.generators) != 1:  # type: ignore[attr-defined]
            return NONE, NONE
        gen = listing.generators[0]  # type: ignore[attr-defined]
        elt = listing.elt  # type: ignore[attr-defined]
        if gen.ifs or gen.is_async or type(gen.target) is not ast.Name or type(gen.iter) is not ast.Call:
            return NONE, NONE
        if not (
            type(elt) is ast.Attribute
            and elt.attr == "name"
            and type(elt.value) is ast.Name
            and elt.value.id == gen.target.id
        ):
            return NONE, NONE
        lister = gen.iter
        if type(lister.func) is not ast.Attribute or lister.func.attr != "listTables":
            return NONE, NONE
        db = argument(lister, "Catalog", "listTables", "dbName")
        if db is None and (lister.args or lister.keywords):
            return NONE, NONE  # a pattern alone lists only the names it matches
        if argument(lister, "Catalog", "listTables", "pattern") is not None:
            return NONE, NONE
        ref = self._table(test.left, db, scope)
        if ref is None:
            return NONE, NONE
        present = frozenset({ref})
        return (present, NONE) if type(test.ops[0]) is ast.NotIn else (NONE, present)

    def _helper(self, call: ast.Call, scope: Scope, depth: int) -> tuple[Absent, Absent]:
        """A project function whose body returns a check (`def table_exists(name):
        return spark.catalog.tableExists(name)`), read with its parameters bound to what
        the call's arguments hold here: the check of the table the call names."""
        if depth >= _MAX_DEPTH or type(call.func) is not ast.Name:
            return NONE, NONE
        fn = self.host.functions.get(call.func.id)
        if fn is None:
            return NONE, NONE
        body = [s for s in fn.body if not (type(s) is ast.Expr and type(s.value) is ast.Constant)]  # its docstring
        if len(body) != 1 or type(body[0]) is not ast.Return or body[0].value is None:
            return NONE, NONE
        env = dict(self.host.module_env)
        params = [*fn.args.posonlyargs, *fn.args.args]
        defaults = dict(zip([a.arg for a in params][len(params) - len(fn.args.defaults) :], fn.args.defaults))
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        outer = Scope(env=dict(self.host.module_env))
        for index, param in enumerate([*params, *fn.args.kwonlyargs]):
            if index < len(call.args) and param in params:
                given = call.args[index]
                if type(given) is ast.Starred:
                    return NONE, NONE
                env[param.arg] = self.host.string(given, scope)
            elif param.arg in keywords:
                env[param.arg] = self.host.string(keywords[param.arg], scope)
            elif param.arg in defaults:
                env[param.arg] = self.host.string(defaults[param.arg], outer)
            else:
                env.pop(param.arg, None)  # not given: not known
        return self._test(body[0].value, Scope(env=env), depth + 1)

    def _lookup(self, stmt: ast.stmt, scope: Scope) -> TableRef | None:
        """The table a statement looks up: `DeltaTable.forName(spark, t)` or
        `forPath(spark, p)` as the statement, or the value it assigns."""
        if type(stmt) is ast.Expr:
            value = stmt.value
        elif type(stmt) in (ast.Assign, ast.AnnAssign):
            value = stmt.value  # type: ignore[attr-defined]
        else:
            return None
        if type(value) is not ast.Call or type(value.func) is not ast.Attribute:
            return None
        method = value.func.attr
        if method not in ("forName", "forPath") or not _names(value.func.value, "DeltaTable"):
            return None
        param = "tableOrViewName" if method == "forName" else "path"
        target = argument(value, "DeltaTable", method, param)
        if target is None:
            return None
        ref, resolved = self.host._ref(self.host.string(target, scope), path=method == "forPath")
        return ref if resolved else None

    def _table(
        self, name: ast.expr | None, db: ast.expr | None, scope: Scope, lazy: bool = True
    ) -> TableRef | Named | None:
        """The table `name` (in schema `db` when given) names, as a write's name resolves
        in the session; a `Named` guard when it is one of several (`lazy`); None when
        not known statically."""
        if name is None:
            return None
        text = self.host.string(name, scope)
        if db is not None:
            schema = self.host.string(db, scope)
            if lazy and (held_alternatives(schema) or held_alternatives(text)):
                return Named(self, name, db, scope)
            text = Str(f"{schema.text}.{text.text}", schema.params + text.params, schema.unknown or text.unknown)
        elif lazy and held_alternatives(text):
            return Named(self, name, db, scope)
        ref, resolved = self.host._ref(text)
        return ref if resolved else None


def _names(node: ast.expr, name: str) -> bool:
    """Whether an expression is the name (`DeltaTable`) or an attribute of that name
    (`delta.tables.DeltaTable`)."""
    return (type(node) is ast.Name and node.id == name) or (type(node) is ast.Attribute and node.attr == name)


def _jvm_catalog(node: ast.expr) -> bool:
    """Whether a `tableExists` is the JVM catalog's, which takes the schema first:
    `spark.catalog._jcatalog`, `spark._jsparkSession.catalog()`."""
    for sub in ast.walk(node):
        if type(sub) is ast.Attribute and sub.attr in ("_jcatalog", "_jsparkSession"):
            return True
    return False


def _caught(node: ast.expr | None) -> frozenset[str] | None:
    """The names of the exceptions a handler catches (`except (A, m.B):` gives A and
    B); None for a bare `except:`."""
    if node is None:
        return None
    elements = node.elts if type(node) is ast.Tuple else [node]  # type: ignore[attr-defined]
    names = set()
    for e in elements:
        if type(e) is ast.Name:
            names.add(e.id)
        elif type(e) is ast.Attribute:
            names.add(e.attr)
    return frozenset(names)
