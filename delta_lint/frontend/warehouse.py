"""SQL a Python client sends to a Databricks SQL warehouse, told from SQL sent elsewhere.

A DB-API `cursor.execute(sql)` may run on any database (sqlite3, psycopg, pymysql):
read blindly, every local `INSERT` of a script would become a Delta write. A
statement is read as the warehouse's only when the object it is sent through is
known to come from a Databricks client, by where the code made it:

- the databricks-sql-connector: `from databricks import sql` (or `import
  databricks.sql`, `from databricks.sql import connect`), then `sql.connect(...)` is
  a connection, its `.cursor()` a cursor, whose `execute(operation, ...)` and
  `executemany(operation, seq_of_parameters)` run SQL;
- SQLAlchemy with the Databricks dialect: `create_engine("databricks://...")` (or
  `URL.create("databricks", ...)`) is an engine, its `.connect()` / `.begin()` a
  connection, whose `execute(text(q))` runs `q`;
- Airflow's `DatabricksSqlHook` (of the Databricks provider): an instance's
  `run(sql)`, `get_records(sql)`, `get_pandas_df(sql)` and `get_first(sql)` run
  `sql` in the warehouse its connection names (the same kind of client as the
  connector, which it wraps).

What an object is follows the module's names: an assignment (all of a name's
assignments in its scope must agree; a parameter, a loop variable or anything
else is not known), `with ... as name`, an attribute `self.x` set in the class's
methods (`self._cur = self._conn.cursor()` in `_open`, read by `execute`), and a
function of the module whose every `return` / `yield` gives one (a context
manager that yields a cursor), and a parameter of a function when every call
of the function in the module gives it the same client (`def load(cur):
cur.execute(...)` called as `load(conn.cursor())`). Across modules, the kinds a
module's top-level names hold (`module_clients`: `from databricks import sql`,
`conn = sql.connect(...)`, a function giving a cursor) cross with the link stage
(`Links.clients`, `Context.clients`): a file that imports such a name knows what
it holds, and a wrapper of another module read at a call here (its definition
pasted after the file's code) names its own module's clients, not this file's.

A receiver this cannot tell is left alone: no intent is made of its statements
(a write's text at a top-level statement gets `unread`'s note that it was not
followed). One that comes from another database's driver (`OTHER_DATABASES`:
`sqlite3.connect`, `psycopg2.connect`, `snowflake.connector.connect`...) runs on
no Delta table, so nothing is said of it either (`runs_elsewhere`). A parameter
some calls give a Databricks client and others something else is said so at the
statement (`doubt`). A known client's statement is read as the SDK's
`execute_statement(statement=...)` is (`sqlcall.SqlCallReader.read`), with the
text resolved by the value layer where the call is read (a helper's text at the
call that gives it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

MAX_DEPTH = 16  # names, attributes and functions followed to tell one object's origin

# what an expression holds, as far as the origin goes
_DATABRICKS = "package databricks"
_DBSQL = "module databricks.sql"
_CONNECT = "databricks.sql.connect"
_CONNECTION = "connection"
_CURSOR = "cursor"
_SQLALCHEMY = "module sqlalchemy"
_CREATE_ENGINE = "sqlalchemy.create_engine"
_URL = "sqlalchemy URL"
_ENGINE = "engine"
_SA_CONNECTION = "sqlalchemy connection"
_HOOK_CLASS = "airflow DatabricksSqlHook"
_HOOK = "a DatabricksSqlHook"
_PARAM = "a parameter"  # a value the caller gives: not known here
_GIVES = "a function giving "  # + a kind: a function of another module, called (see `module_clients`)
_MIXED = "a parameter some calls give a client and others not"
_OTHER = "unknown"
# another database's client, told by the module it comes from (`OTHER_DATABASES`)
_ELSEWHERE_MODULE = "module of another database"
_ELSEWHERE_CONNECT = "connect of another database"
_ELSEWHERE_CONNECTION = "connection to another database"
_ELSEWHERE_CURSOR = "cursor of another database"
_ELSEWHERE_RECEIVERS = frozenset({_ELSEWHERE_MODULE, _ELSEWHERE_CONNECTION, _ELSEWHERE_CURSOR})
_PACKAGE = "the package "  # + a dotted name: a package holding such a module (`snowflake` of `snowflake.connector`)

# The DB-API drivers and in-process engines of other databases: a connection their
# module's `connect(...)` (polars: `SQLContext(...)`) makes, and its `.cursor()`, run
# SQL in that database, never on a Delta table; so do the module's own `sql(...)` and
# `execute(...)` (DuckDB's default connection). Told by the import
# (`import sqlite3`, `from mysql import connector`, `from psycopg2 import connect`),
# as the Databricks clients are.
OTHER_DATABASES = {
    "sqlite3": "SQLite",
    "psycopg2": "PostgreSQL",
    "psycopg": "PostgreSQL",
    "pg8000": "PostgreSQL",
    "pymysql": "MySQL",
    "MySQLdb": "MySQL",
    "mysql.connector": "MySQL",
    "snowflake.connector": "Snowflake",
    "pymssql": "SQL Server",
    "oracledb": "Oracle",
    "cx_Oracle": "Oracle",
    "duckdb": "DuckDB",
    "polars": "Polars",
    "redshift_connector": "Redshift",
    "teradatasql": "Teradata",
}
# Left out: generic drivers that reach Databricks too (`pyodbc` with the Databricks ODBC
# driver) or engines that write Delta tables themselves (Trino's Delta Lake
# connector): their SQL may write the tables of the workload.
# what runs SQL there: a connection's or cursor's `execute`/`executemany` (among `METHODS`:
# read where a client's would be), DuckDB's `sql` on a connection or the module (read
# where `spark.sql` would be, `sqlcall.SqlCallReader.read`), polars' `execute`
_ELSEWHERE_RUNS = frozenset({"execute", "executemany", "sql"})
# what makes a connection of another database: `sqlite3.connect(...)`, `polars.SQLContext()`
_CONNECTORS = frozenset({"connect", "SQLContext"})

# the method of each client that runs its argument as SQL
_RUNS = {
    _CURSOR: ("execute", "executemany"),
    _SA_CONNECTION: ("execute", "exec_driver_sql"),
    _ENGINE: ("execute",),
    _HOOK: ("run", "get_records", "get_pandas_df", "get_first"),
}
METHODS = frozenset(m for methods in _RUNS.values() for m in methods)  # what a terminal's last step may be
# what a Databricks client or another database's is, or the way to one: the kinds a
# module tells the modules that import it
_TOLD_KINDS = frozenset(
    {_DATABRICKS, _DBSQL, _CONNECT, _CONNECTION, _CURSOR, _SQLALCHEMY, _CREATE_ENGINE, _URL, _ENGINE, _SA_CONNECTION}
    | {_HOOK_CLASS, _HOOK, _ELSEWHERE_MODULE, _ELSEWHERE_CONNECT, _ELSEWHERE_CONNECTION, _ELSEWHERE_CURSOR}
)
SQL_HOOK = "DatabricksSqlHook"  # a module that never names it holds no hook


def client_methods(source: str, imported: frozenset[str] = frozenset()) -> frozenset[str]:
    """The methods by which a module's warehouse clients may run SQL beyond the front
    end's own terminals, as far as its text tells: a cursor's `executemany` always
    (no other library's method of that name runs anything but SQL), a hook's only
    where it names the hook, a SQLAlchemy connection's only where it names
    SQLAlchemy (`run` and `get_first` are common names). The front end reads these
    calls as it reads its own terminals; which of them are a client's is decided by
    where the object comes from. `imported`: the kinds of the clients other modules
    give this one (`Context.clients`), whose names its text need not show."""
    kinds = {k.removeprefix(_GIVES) for k in imported}
    found: set[str] = {"executemany"}
    if SQL_HOOK in source or kinds & {_HOOK_CLASS, _HOOK}:
        found.update(_RUNS[_HOOK])
    if "sqlalchemy" in source or kinds & {_SQLALCHEMY, _CREATE_ENGINE, _URL, _ENGINE, _SA_CONNECTION}:
        found.update(_RUNS[_SA_CONNECTION])
    return frozenset(found)


def module_clients(tree: ast.Module, source: str) -> dict[str, str]:
    """What a module's top-level names hold that is a Databricks client or another
    database's, or leads to one, as the plain text the link stage hands the modules
    that import it (see `ClientOrigins`): `sql` of `from databricks import sql`,
    `conn = sql.connect(...)`, `engine = create_engine("databricks://...")`, and a
    function whose every return or yield gives one (`_GIVES` and the kind: called,
    it gives it). A name bound to anything else is left out: unknown, as it is here."""
    origins = ClientOrigins(tree, source)
    if not origins.active:
        return {}
    out: dict[str, str] = {}
    for name, values in origins._scope_bindings(tree).items():
        if len(values) == 1 and isinstance(values[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            gives = origins._returned(values[0], 0)
            if gives in _TOLD_KINDS:
                out[name] = _GIVES + gives
            continue
        kind = origins._agreed(values, (tree,), 0)
        if kind in _TOLD_KINDS:
            out[name] = kind
    return out


# a module that imports neither the connector nor SQLAlchemy holds no client (every
# notebook names "databricks" in its header: not enough); one that calls no `connect`
# makes no connection of another database's driver
_WORDS = ("databricks.sql", "from databricks import", "import databricks", "sqlalchemy", "DatabricksSqlHook")
_OTHER_WORDS = tuple(sorted({m.split(".")[0] for m in OTHER_DATABASES}))


def _may_hold_client(source: str) -> bool:
    """Whether a module's text may make a client `ClientOrigins` tells (most job code
    makes none: it is then not indexed). Another database's module runs SQL without
    a connection too (`duckdb.sql(...)`), so naming one is enough."""
    return any(w in source for w in _WORDS) or any(w in source for w in _OTHER_WORDS)


# where Airflow's Databricks provider defines its SQL hook
_HOOK_MODULES = ("airflow.providers.databricks.hooks.databricks_sql", "airflow.providers.databricks.hooks")


def _module_kind(module: str) -> str:
    """What a module of another database's driver, or a package holding one, is."""
    if module in OTHER_DATABASES:
        return _ELSEWHERE_MODULE
    if any(m.startswith(module + ".") for m in OTHER_DATABASES):
        return _PACKAGE + module
    return _OTHER


def _import_kind(module: str, name: str | None) -> str:
    """What an imported name holds: `module` imported, or `name` from it."""
    if name is None:
        known = {"databricks": _DATABRICKS, "databricks.sql": _DBSQL, "sqlalchemy": _SQLALCHEMY}.get(module)
        return known or _module_kind(module)
    full = f"{module}.{name}"
    if module in OTHER_DATABASES and name in _CONNECTORS:
        return _ELSEWHERE_CONNECT
    if full in OTHER_DATABASES:
        return _ELSEWHERE_MODULE
    if name == "DatabricksSqlHook" and module in _HOOK_MODULES:
        return _HOOK_CLASS
    return {
        "databricks.sql": _DBSQL,
        "databricks.sql.connect": _CONNECT,
        "sqlalchemy.create_engine": _CREATE_ENGINE,
        "sqlalchemy.engine.create_engine": _CREATE_ENGINE,
        "sqlalchemy.URL": _URL,
        "sqlalchemy.engine.URL": _URL,
        "sqlalchemy.engine.url.URL": _URL,
    }.get(full, _OTHER)


def _is_scope(node: ast.AST) -> bool:
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a scope's body, not those of the scopes nested in it (whose
    definitions are yielded, their insides not)."""
    body = scope.body if isinstance(scope.body, list) else [scope.body]  # type: ignore[attr-defined]
    todo: list[ast.AST] = list(reversed(body))
    while todo:
        node = todo.pop()
        yield node
        if _is_scope(node):
            continue
        todo.extend(reversed(list(ast.iter_child_nodes(node))))


class ClientOrigins:
    """Which calls of one module (its own code and the helpers pasted after it) send
    SQL through a Databricks client, and the statement each sends."""

    def __init__(
        self,
        tree: ast.Module,
        source: str,
        clients: dict[str, dict[str, str]] | None = None,
        homes: list[tuple[int, int, str]] | None = None,
    ) -> None:
        # what other modules' top-level names hold (`Context.clients`), by module: ""
        # for the names this module imports from others of the project
        self._clients = clients or {}
        self._imported = self._clients.get("", {})
        # the pasted definitions of other modules: (first line, last line, the module),
        # whose own names are read in that module's scope
        self._homes = homes or []
        self.active = _may_hold_client(source) or any(self._clients.values())
        self._chains: dict[int, tuple[ast.AST, ...]] = {}  # id(scope or call) -> enclosing scopes
        self._bindings: dict[int, dict[str, list[object]]] = {}
        self._attributes: dict[tuple[int, str], list[tuple[ast.expr, tuple[ast.AST, ...]]]] = {}
        self._kinds: dict[int, str] = {}
        self._calls: dict[str, list[ast.Call]] = {}  # calls of a name (`load(cur)`), for its parameters
        # a call sending SQL through a parameter some calls give a client and others not: (it, why not read)
        self.doubts: dict[int, tuple[ast.Call, str]] = {}
        # id of a client's `execute(operation, parameters)` -> the values it binds to the
        # statement's markers (None: none given), as `spark.sql`'s `args` are bound
        self.parameters: dict[int, ast.expr | None] = {}
        if self.active:
            self._index(tree)

    def _index(self, tree: ast.Module) -> None:
        stack: list[tuple[ast.AST, tuple[ast.AST, ...]]] = [(tree, (tree,))]
        while stack:
            node, chain = stack.pop()
            for child in ast.iter_child_nodes(node):
                if _is_scope(child):
                    inner = (*chain, child)
                    self._chains[id(child)] = inner
                    stack.append((child, inner))
                    continue
                if (
                    isinstance(child, ast.Call)
                    and isinstance(child.func, ast.Attribute)
                    and (child.func.attr in METHODS or child.func.attr in _ELSEWHERE_RUNS)
                ):
                    self._chains[id(child)] = chain
                elif isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
                    self._chains[id(child)] = chain
                    self._calls.setdefault(child.func.id, []).append(child)
                stack.append((child, chain))

    def statement(self, call: ast.Call) -> ast.expr | None:
        """The SQL `call` sends to a Databricks warehouse, or None when it is not known
        to send any (not a client's method, or a receiver of unknown origin)."""
        if not self.active or not isinstance(call.func, ast.Attribute) or not (call.args or call.keywords):
            return None
        chain = self._chains.get(id(call))
        if chain is None:
            return None
        kind = self._kind(call.func.value, chain, 0)
        if kind == _MIXED:
            self.doubts[id(call)] = (
                call,
                (
                    f"SQL sent through `{ast.unparse(call.func.value)[:60]}`, a parameter some calls give a Databricks "
                    "client and others something else: it is not read, so its writes are not checked"
                ),
            )
        if call.func.attr not in _RUNS.get(kind, ()):
            return None
        given = call.args[0] if call.args else None
        for keyword in call.keywords:
            if keyword.arg in ("operation", "statement", "sql"):
                given = keyword.value
        if given is None or isinstance(given, ast.Starred):
            return None
        if call.func.attr in ("execute", "exec_driver_sql") and kind in (_CURSOR, _SA_CONNECTION, _ENGINE):
            self.parameters[id(call)] = _parameters_of(call)
        return self._text_of(given, chain) if kind in (_SA_CONNECTION, _ENGINE) else given

    def runs_elsewhere(self, call: ast.Call) -> bool:
        """Whether `call` runs its statement through another database's connection,
        cursor or module (`OTHER_DATABASES`: `con.sql(q)` of `con = duckdb.connect()`,
        `duckdb.sql(q)`, `ctx.execute(q)` of `ctx = polars.SQLContext()`): no Delta
        table is written, whatever its text. The receiver's origin decides, not the
        method's name: `spark.sql(q)` and a receiver of unknown origin are not."""
        if not self.active or not isinstance(call.func, ast.Attribute) or call.func.attr not in _ELSEWHERE_RUNS:
            return False
        chain = self._chains.get(id(call))
        return chain is not None and self._kind(call.func.value, chain, 0) in _ELSEWHERE_RECEIVERS

    def _text_of(self, node: ast.expr, chain: tuple[ast.AST, ...]) -> ast.expr:
        """SQLAlchemy's `text(q)` (or a name assigned it once in the same scope) as `q`."""
        if isinstance(node, ast.Name):
            held = self._lookup(node.id, chain)
            if held is not None and len(held[0]) == 1 and isinstance(held[0][0], ast.Call) and held[1] is chain[-1]:
                node = held[0][0]
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name == "text":
                return node.args[0]
        return node

    # -- origins ---------------------------------------------------------------------

    def _kind(self, node: ast.expr, chain: tuple[ast.AST, ...], depth: int) -> str:
        if depth > MAX_DEPTH:
            return _OTHER
        key = id(node)
        if key in self._kinds:
            return self._kinds[key]
        self._kinds[key] = _OTHER  # a name defined by itself (`cur = cur.next()`) is not known
        kind = self._kind_uncached(node, chain, depth + 1)
        self._kinds[key] = kind
        return kind

    def _kind_uncached(self, node: ast.expr, chain: tuple[ast.AST, ...], depth: int) -> str:
        if isinstance(node, ast.Await):
            return self._kind(node.value, chain, depth)
        if isinstance(node, ast.Name):
            held = self._lookup(node.id, chain)
            if (
                held is not None
                and held[0] == [_PARAM]
                and isinstance(held[1], (ast.FunctionDef, ast.AsyncFunctionDef))
            ):
                return self._parameter(held[1], node.id, depth)
            return self._agreed(held[0], held[2], depth) if held is not None else _OTHER
        if isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and (cls := self._method_class(base.id, chain)) is not None:
                return self._agreed_pairs(list(self._self_attributes(cls, node.attr)), depth)
            owner = self._kind(base, chain, depth)
            if owner.startswith(_PACKAGE):  # `snowflake.connector`
                return _module_kind(f"{owner.removeprefix(_PACKAGE)}.{node.attr}")
            return {
                **{(_ELSEWHERE_MODULE, name): _ELSEWHERE_CONNECT for name in _CONNECTORS},
                (_DATABRICKS, "sql"): _DBSQL,
                (_DBSQL, "connect"): _CONNECT,
                (_SQLALCHEMY, "create_engine"): _CREATE_ENGINE,
                (_SQLALCHEMY, "URL"): _URL,
            }.get((owner, node.attr), _OTHER)
        if isinstance(node, ast.Call):
            return self._call_kind(node, chain, depth)
        return _OTHER

    def _call_kind(self, node: ast.Call, chain: tuple[ast.AST, ...], depth: int) -> str:
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = self._kind(func.value, chain, depth)
            made = {
                (_ELSEWHERE_CONNECTION, "cursor"): _ELSEWHERE_CURSOR,
                (_CONNECTION, "cursor"): _CURSOR,
                (_ENGINE, "connect"): _SA_CONNECTION,
                (_ENGINE, "begin"): _SA_CONNECTION,
                (_URL, "create"): _URL,
            }.get((owner, func.attr))
            if made == _URL:
                return _URL if self._databricks_url(node, chain, depth) else _OTHER
            if made is not None:
                return made
        callee = self._kind(func, chain, depth)
        if callee.startswith(_GIVES):  # a function of another module that gives a client
            return callee.removeprefix(_GIVES)
        if callee == _CONNECT:
            return _CONNECTION
        if callee == _ELSEWHERE_CONNECT:
            return _ELSEWHERE_CONNECTION
        if callee == _HOOK_CLASS:
            return _HOOK
        if callee == _CREATE_ENGINE:
            url = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "url"), None)
            return _ENGINE if url is not None and self._databricks_url(url, chain, depth) else _OTHER
        if isinstance(func, ast.Name):
            held = self._lookup(func.id, chain)
            if (
                held is not None
                and len(held[0]) == 1
                and isinstance(held[0][0], (ast.FunctionDef, ast.AsyncFunctionDef))
            ):
                return self._returned(held[0][0], depth)
        return _OTHER

    def _parameter(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str, depth: int) -> str:
        """What a parameter of a function of the module holds: the one client every
        call of the function by its name gives it (by position or keyword); `_MIXED`
        when some calls give a client and others not; else not known."""
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        kinds = set()
        calls = [c for c in self._calls.get(fn.name, ()) if self._calls_function(c, fn)]
        # never bound again in the function: a call of itself handing it on gives what its callers give
        kept = not any(
            isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in ast.walk(fn)
        )
        for call in calls:
            given = next((k.value for k in call.keywords if k.arg == name), None)
            if given is None and name in params and params.index(name) < len(call.args):
                before = call.args[: params.index(name) + 1]
                given = None if any(isinstance(a, ast.Starred) for a in before) else call.args[params.index(name)]
            chain = self._chains.get(id(call))
            if kept and isinstance(given, ast.Name) and given.id == name and chain is not None and fn in chain:
                continue  # `load(cur, n - 1)` inside `load`: the recursion passes the parameter on
            kinds.add(self._kind(given, chain, depth) if given is not None and chain is not None else _OTHER)
        clients = kinds & set(_RUNS)
        if len(kinds) == 1 and clients:
            return kinds.pop()
        return _MIXED if clients else _PARAM

    def _calls_function(self, call: ast.Call, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether `call` (a call by a name) calls `fn`: the name is bound there to it alone."""
        chain = self._chains.get(id(call))
        held = self._lookup(call.func.id, chain) if chain is not None else None  # type: ignore[attr-defined]
        return held is not None and held[0] == [fn]

    def _databricks_url(self, node: ast.expr, chain: tuple[ast.AST, ...], depth: int) -> bool:
        """Whether a SQLAlchemy URL names the Databricks dialect: a string starting
        `databricks` (`databricks://token:...@host?http_path=...`, also as the first
        part of an f-string or a `+`), or `URL.create("databricks", ...)`."""
        for _ in range(MAX_DEPTH):
            if isinstance(node, ast.Constant):
                return isinstance(node.value, str) and node.value.startswith("databricks")
            if isinstance(node, ast.JoinedStr):
                node = node.values[0] if node.values else ast.Constant(None)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                node = node.left
            elif isinstance(node, ast.Name):
                held = self._lookup(node.id, chain)
                if held is None or len(held[0]) != 1 or not isinstance(held[0][0], ast.expr):
                    return False
                node, chain = held[0][0], held[2]
            elif isinstance(node, ast.Call):
                if isinstance(node.func, ast.Attribute) and node.func.attr == "create":
                    if self._kind(node.func.value, chain, depth) != _URL:
                        return False
                    node = (
                        node.args[0]
                        if node.args
                        else next((k.value for k in node.keywords if k.arg == "drivername"), ast.Constant(None))
                    )
                else:
                    return self._kind(node, chain, depth) == _URL
            else:
                return False
        return False

    def _returned(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, depth: int) -> str:
        """What a function of the module gives: the one kind of all it returns and yields."""
        chain = self._chains.get(id(fn))
        if chain is None:
            return _OTHER
        given = [
            n.value
            for n in _own_nodes(fn)
            if isinstance(n, (ast.Return, ast.Yield)) and n.value is not None and n is not fn
        ]
        return self._agreed(given, chain, depth)

    def _agreed(self, values: list[object], chain: tuple[ast.AST, ...] | None, depth: int) -> str:
        """The one kind every value a name is given (in `chain`) agrees on; `None`
        assigned (a slot before it is opened, one closed) agrees with any."""
        return self._agreed_pairs([(v, chain) for v in values], depth)

    def _agreed_pairs(self, pairs: list[tuple[object, tuple[ast.AST, ...] | None]], depth: int) -> str:
        kinds = set()
        for value, chain in pairs:
            if isinstance(value, ast.Constant) and value.value is None:
                continue
            if isinstance(value, str):  # an import's kind, a parameter
                kinds.add(value)
            elif isinstance(value, ast.expr) and chain is not None:
                kinds.add(self._kind(value, chain, depth))
            else:
                kinds.add(_OTHER)  # a definition, a loop variable, an exception
        return kinds.pop() if len(kinds) == 1 else _OTHER

    # -- names -----------------------------------------------------------------------

    def _lookup(self, name: str, chain: tuple[ast.AST, ...]) -> tuple[list[object], ast.AST, tuple] | None:
        """The values `name` is given in the nearest scope of `chain` that binds it
        (class bodies are skipped from inside their methods, as Python does), that
        scope, and the chain its values are read in."""
        for i in range(len(chain) - 1, -1, -1):
            scope = chain[i]
            if isinstance(scope, ast.ClassDef) and i != len(chain) - 1:
                continue
            bound = self._scope_bindings(scope)
            if i == 0 and len(chain) > 1 and (home := self._home(chain[1])) is not None:
                return self._home_lookup(name, home, bound, chain)
            if name in bound:
                return bound[name], scope, chain[: i + 1]
        return None

    def _home(self, definition: object) -> str | None:
        """The module a pasted top-level definition comes from (None: the file's own
        code, or a `%run` notebook's, which shares its namespace)."""
        line = getattr(definition, "lineno", 0)
        for first, last, module in self._homes:
            if first <= line <= last:
                return module
        return None

    def _home_lookup(
        self, name: str, home: str, bound: dict[str, list[object]], chain: tuple[ast.AST, ...]
    ) -> tuple[list[object], ast.AST, tuple] | None:
        """A module-level name read in another module's pasted definition: what that
        module's name holds (`Links.clients`), or one of that module's definitions
        pasted here too; never a name of this file's own code, which that module
        does not see."""
        held = self._clients.get(home, {})
        if name in held:
            return [held[name]], chain[0], chain[:1]
        pasted = [v for v in bound.get(name, []) if self._home(v) == home]
        return (pasted, chain[0], chain[:1]) if pasted else None

    def _scope_bindings(self, scope: ast.AST) -> dict[str, list[object]]:
        key = id(scope)
        if key in self._bindings:
            return self._bindings[key]
        out: dict[str, list[object]] = {}
        scope_is_module = isinstance(scope, ast.Module)
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = scope.args
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if a is not None:
                    out.setdefault(a.arg, []).append(_PARAM)
        for node in _own_nodes(scope):
            if node is scope:
                continue
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    _bind(out, target, node.value)
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                _bind(out, node.target, node.value)
            elif isinstance(node, (ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.comprehension)):
                _bind(out, node.target, None)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                _bind(out, node.optional_vars, node.context_expr)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                out.setdefault(node.name, []).append(_OTHER)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        out.setdefault(alias.asname, []).append(_import_kind(alias.name, None))
                    else:
                        top = alias.name.split(".")[0]
                        out.setdefault(top, []).append(_import_kind(top, None))
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    kind = _import_kind(node.module or "", alias.name) if not node.level else _OTHER
                    bound = alias.asname or alias.name
                    if kind == _OTHER and scope_is_module and bound in self._imported:
                        kind = self._imported[bound]  # a client another module of the project holds
                    out.setdefault(bound, []).append(kind)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                for name in node.names:
                    out.setdefault(name, []).append(_OTHER)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.setdefault(node.name, []).append(node)
        # a nested function's `global x` / `nonlocal x` binds this scope's `x` from there
        # (`conn = sqlite3.connect(...)` in a function of the module): not known here
        declared = ast.Global if isinstance(scope, ast.Module) else ast.Nonlocal
        for node in ast.walk(scope):
            if isinstance(node, declared):
                for name in node.names:
                    out.setdefault(name, []).append(_OTHER)
        self._bindings[key] = out
        return out

    def _method_class(self, name: str, chain: tuple[ast.AST, ...]) -> ast.ClassDef | None:
        """The class whose method `chain` ends in, when `name` is its first parameter."""
        if len(chain) < 2 or not isinstance(chain[-1], (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        fn, cls = chain[-1], chain[-2]
        params = (*fn.args.posonlyargs, *fn.args.args)
        if not isinstance(cls, ast.ClassDef) or not params or params[0].arg != name:
            return None
        return cls

    def _self_attributes(self, cls: ast.ClassDef, attr: str) -> list[tuple[ast.expr, tuple[ast.AST, ...]]]:
        """The values the class's methods give `self.attr`, each with the chain of the
        method that gives it."""
        key = (id(cls), attr)
        if key in self._attributes:
            return self._attributes[key]
        out: list[tuple[ast.expr, tuple[ast.AST, ...]]] = []
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = (*fn.args.posonlyargs, *fn.args.args)
            chain = self._chains.get(id(fn))
            if not params or chain is None:
                continue
            me = params[0].arg
            for node in _own_nodes(fn):
                pairs: list[tuple[ast.expr, ast.expr]] = []
                if isinstance(node, ast.Assign):
                    pairs = [(t, node.value) for t in node.targets]
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    pairs = [(node.target, node.value)]
                elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                    pairs = [(node.optional_vars, node.context_expr)]
                elif isinstance(node, ast.AugAssign):
                    pairs = [(node.target, ast.Constant(...))]
                pairs = [p for target, value in pairs for p in _unpacked(target, value)]
                for target, value in pairs:
                    for sub in ast.walk(target):
                        if (
                            isinstance(sub, ast.Attribute)
                            and isinstance(sub.value, ast.Name)
                            and sub.value.id == me
                            and sub.attr == attr
                        ):
                            # a tuple target (`self.a, self.b = ...`) gives a part: not known
                            out.append((value if sub is target else ast.Constant(...), chain))
        self._attributes[key] = out
        return out


def _parameters_of(call: ast.Call) -> ast.expr | None:
    """The parameters a DB-API `execute(operation, parameters)` (or SQLAlchemy's
    `execute(text(q), parameters)`, `exec_driver_sql(q, parameters)`) binds: a dict
    for the connector's named `:name` markers, a list for its `?` markers. Not those
    of `executemany`, which binds each row in turn."""
    given = call.args[1] if len(call.args) > 1 else None
    for keyword in call.keywords:
        if keyword.arg == "parameters":
            given = keyword.value
    return None if isinstance(given, ast.Starred) else given


def _unpacked(target: ast.expr, value: ast.expr) -> list[tuple[ast.expr, ast.expr]]:
    """`a, b = x, y` as `a = x` and `b = y` (a literal tuple of as many values)."""
    if (
        isinstance(target, (ast.Tuple, ast.List))
        and isinstance(value, (ast.Tuple, ast.List))
        and len(target.elts) == len(value.elts)
        and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
    ):
        return [p for t, v in zip(target.elts, value.elts) for p in _unpacked(t, v)]
    return [(target, value)]


def _bind(out: dict[str, list[object]], target: ast.expr, value: ast.expr | None) -> None:
    """`target = value`: a name is given `value`; a name unpacked from a tuple, or given
    by a loop, is given something not known."""
    if value is not None and isinstance(target, (ast.Tuple, ast.List)) and len(_unpacked(target, value)) > 1:
        for t, v in _unpacked(target, value):
            _bind(out, t, v)
        return
    if isinstance(target, ast.Name):
        out.setdefault(target.id, []).append(value if value is not None else _OTHER)
        return
    for sub in ast.walk(target):
        if isinstance(sub, ast.Name):
            out.setdefault(sub.id, []).append(_OTHER)


# Airflow's operators that run SQL in a warehouse as a task of the DAG
SQL_OPERATORS = frozenset({"DatabricksSqlOperator", "DatabricksCopyIntoOperator"})


def operator_statements(call: ast.Call) -> list[ast.expr] | None:
    """The statements an Airflow warehouse operator runs, as expressions whose text
    the value layer resolves at the operator; None for any other call.

    - `DatabricksSqlOperator(sql=...)`: a string, or each string of a literal list;
      a `.sql` file name (a template of the DAG's folder) is read as its own file,
      not here;
    - `DatabricksCopyIntoOperator(table_name=, file_location=, file_format=, ...)`:
      the `COPY INTO` it builds, with `COPY_OPTIONS ('mergeSchema' = 'true')` when its
      `copy_options` say so (a literal dict)."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if name not in SQL_OPERATORS:
        return None
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    if name == "DatabricksSqlOperator":
        given = keywords.get("sql")
        items = given.elts if isinstance(given, (ast.List, ast.Tuple)) else [given] if given is not None else []
        return [
            item
            for item in items
            if not isinstance(item, ast.Starred)
            and not (isinstance(item, ast.Constant) and isinstance(item.value, str) and _is_file_name(item.value))
        ]
    table, location = keywords.get("table_name"), keywords.get("file_location")
    if table is None or location is None:
        return []
    fmt = keywords.get("file_format") or ast.Constant("CSV")
    parts: list[ast.expr] = [
        ast.Constant("COPY INTO "),
        ast.FormattedValue(table, -1, None),
        ast.Constant(" FROM '"),
        ast.FormattedValue(location, -1, None),
        ast.Constant("' FILEFORMAT = "),
        ast.FormattedValue(fmt, -1, None),
    ]
    options = keywords.get("copy_options")
    if isinstance(options, ast.Dict) and any(
        isinstance(k, ast.Constant)
        and k.value == "mergeSchema"
        and isinstance(v, ast.Constant)
        and str(v.value).lower() == "true"
        for k, v in zip(options.keys, options.values)
    ):
        parts.append(ast.Constant(" COPY_OPTIONS ('mergeSchema' = 'true')"))
    return [ast.copy_location(ast.JoinedStr(parts), call)]


def _is_file_name(text: str) -> bool:
    """`"load.sql"`: a template file Airflow reads (its own file of the project)."""
    stripped = text.strip()
    return stripped.lower().endswith(".sql") and "\n" not in stripped and " " not in stripped
