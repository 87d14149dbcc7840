"""Python front end: PySpark DataFrame / DeltaTable / spark.sql code becomes write intents.

The code is read with the stdlib `ast` module only; it is never imported or run.
Values are followed as far as they are static: string constants, f-strings,
`.format`, `%`, concatenation and `textwrap.dedent` are resolved; values that come
from `sys.argv`, argparse, `dbutils.widgets.get`, environment variables or function
parameters become named parameters (`{name}` in table names and predicates).

`PythonAnalyzer` builds the intents: it runs the module's reading, finds the calls
of interest in each expression (`_calls`), tells which API a call chain ends in
(`_terminal`) and keeps the intents (`_emit`, `_add`). What a call says is read by
the parts it holds, each by what it reads: `values.walker` (the statements, in
order) and `values.resolver` (what one expression holds), `pywriters` (DataFrame
and stream writers), `pydelta` (the DeltaTable API), `sqlcall` (the SQL a call
runs), `pools` (work handed to thread pools) and `pysites` (where a node stands).
"""

from __future__ import annotations

import ast
import itertools
import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.pools import PoolReader
from delta_lint.frontend.pydelta import DeltaTableReader
from delta_lint.frontend.pyguards import NONE as NONE_ABSENT
from delta_lint.frontend.pyguards import GuardReader
from delta_lint.frontend.pysites import LineMap, SourceSites
from delta_lint.frontend.pysource import parse_module
from delta_lint.frontend.pyspark_api import TERMINALS
from delta_lint.frontend.pyvalues import (
    MAX_ALTERNATIVES,
    ONE_OF,
    Chain,
    DataFrame,
    Instance,
    Scope,
    Step,
    Str,
    UnknownState,
    exported_object,
    exported_value,
    held_alternatives,
    held_value,
    joined_session,
    member_alternatives,
    placeholders,
)
from delta_lint.frontend.pywriters import (
    WriterReader,
    batch_calls,
    feature_clients,
    function_names,
    is_feature_table_call,
)
from delta_lint.frontend.registries import Registries, chosen, dispatched
from delta_lint.frontend.sdkjobs import sdk_jobs
from delta_lint.frontend.sql import (
    PARSE_ERROR,
    TXN_KINDS,
    UNRESOLVED_TABLE,
    Session,
    analyze_sql,
    read_tables,
    split_name,
    table_ref,
)
from delta_lint.frontend.sqlcall import (
    MAY_NAME_SESSION_SQL,
    SqlCallReader,
    as_session_sql,
    session_sql_names,
    unparsed_texts,
    warehouse_statement,
)
from delta_lint.frontend.sqltext import apply_templates
from delta_lint.frontend.unread import unread_writes
from delta_lint.frontend.values.brains import NOTEBOOK_EXIT, TASK_VALUES_SET, call_named
from delta_lint.frontend.values.budget import Budget
from delta_lint.frontend.values.changes import changed_in_place
from delta_lint.frontend.values.evaluator import Module
from delta_lint.frontend.values.resolver import (
    MAX_HELPER_DEPTH,
    ValueResolver,
)
from delta_lint.frontend.values.sources import is_value_function, module_source, one_definition, value_modules
from delta_lint.frontend.values.walker import Walker, is_config_class
from delta_lint.frontend.values.walker import walk as _walk
from delta_lint.frontend.warehouse import METHODS as CLIENT_METHODS
from delta_lint.frontend.warehouse import SQL_OPERATORS, client_methods, module_clients, operator_statements
from delta_lint.model import (
    SCOPED,
    ClassShape,
    Context,
    Diagnostic,
    Flag,
    Intent,
    Kind,
    Links,
    Location,
    PooledRun,
    TableRef,
    digest,
    source_words,
    without_imports,
)


@dataclass
class SqlCell:
    """A SQL cell of a notebook, analysed in document order with the Python code."""

    line: int  # first line, in the analysed source's numbering
    text: str
    line_map: LineMap


# see `Walker.notebook_run`, `notebook_exit`, `task_value_set`, `WriterReader.feature_table`,
# `warehouse.operator_statements`
_EXTRA_WORDS = {"notebook", "taskValues", "create_table", "write_table", "import_module", *SQL_OPERATORS}
_TERMINAL_WORD = re.compile(r"\b(?:" + "|".join(sorted(TERMINALS | _EXTRA_WORDS)) + r")\b")
_NEWLINE = re.compile(r"\n")


class PythonAnalyzer:
    """Turns one module's writes into intents: its `Walker` reads the statements in
    order for the values names hold and hands every expression back to `_calls`;
    its `ValueResolver` tells what one expression holds; its readers of writers,
    the DeltaTable API, SQL calls and thread pools read the calls `_calls` finds."""

    def __init__(
        self,
        path: str,
        source: str,
        session: Session | None = None,
        sql_cells: list[SqlCell] | None = None,
        line_map: LineMap | None = None,
        context: Context | None = None,
        memo: FrontEndMemo | None = None,
    ) -> None:
        self.path = path
        self.memo = memo if memo is not None else FrontEndMemo()  # the run's (see FrontEndMemo)
        self.source = source
        self._terminal_lines: list[int] | None = None
        # (the source scanned, the words scanned for, its lines' starts, the lines found): see `_lines_naming_terminals`
        self._scanned: tuple[str | None, set[str], list[int], list[int]] = (None, set(), [], [])
        self.session = session or Session()
        self.sql_cells = sorted(sql_cells or [], key=lambda c: c.line)
        self.line_map = line_map
        self.intents: list[Intent] = []
        self.diagnostics: list[Diagnostic] = []
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.classes: dict[str, ast.ClassDef] = {}  # the module's top-level classes (see `Instance`)
        self.batch_functions: set[str] = set()
        context = context or Context()
        self.module_env: dict[str, object] = {name: held_value(value) for name, value in context.values}
        self.bound_inputs: dict[str, str] = dict(context.inputs)  # job parameters given to this file
        self.inputs_read: set[str] = set()  # job inputs the code reads (see Links.inputs)
        # placeholder -> the job inputs it stands for (an unbound widget, a field of
        # a JSON widget): see `_name_inputs`
        self.input_params: dict[str, frozenset[str]] = {}
        self.imports: list[tuple[str, str, str]] = []
        # literal dicts shaped as a job (see `_job_definition`), then jobs made with the SDK (`sdk_jobs`)
        self.job_definitions: list[dict] = []
        self.notebook_runs: list[tuple[str, dict[str, str]]] = []  # see `Walker.notebook_run`
        self.pooled_notebook_runs: list[PooledRun] = []  # see `Links.pooled_notebooks`
        self.exits: dict[str, object] = dict(context.exits)  # what the notebooks it runs hand back
        # (task key, key) -> the values the project sets it to (see `Context.task_values`)
        self.task_values: dict[tuple[str, str], tuple[object, ...]] = {
            (task, key): values for task, key, values in context.task_values
        }
        self.task_value_reads: set[tuple[str, str]] = set()  # see `Links.task_value_reads`
        self.widget_defaults: dict[str, str] = {}
        self._feature_clients: set[str] = set()  # names holding a feature store client (see `pywriters`)
        self._read_terminals: set[int] = set()  # ids of the calls read as terminals (see `unread`)
        # lines of calls (or of the calls of helpers) that run SQL in another database: nothing unread there
        self._elsewhere_lines: set[int] = set()
        self._helpers: set[str] = set()  # functions that may write: read again at each call
        # functions of other files (imported modules, `%run` notebooks) read at their calls here:
        # their source follows the file's own, past its last line
        self._foreign = context.helpers
        # the module scope of each imported module whose helpers are pasted (see
        # `Context.scopes`), and where its pasted definitions stand here: (first line,
        # last line, module); a helper read there resolves names in its own module
        self._scopes: dict[str, dict[str, object]] = {
            module: {name: held_value(value) for name, value in values} for module, values in context.scopes
        }
        self._homes: list[tuple[int, int, str]] = []
        # the Databricks SQL clients other modules hold, by module ("" for the names this
        # file imports): see `Context.clients`, `warehouse.ClientOrigins`
        self.imported_clients: dict[str, dict[str, str]] = {}
        for module, name, kind in context.clients:
            self.imported_clients.setdefault(module, {})[name] = kind
        self._foreign_defs: dict[str, ast.stmt] = {}  # name a foreign definition is called by -> it
        self._own_lines = source.count("\n") + 1
        # lines, columns and excerpts of the source (grown by the foreign helpers, see `_with_foreign_helpers`)
        self.sites = SourceSites(path, source, line_map, self._own_lines)
        self._own_source = source  # `source` grows the foreign helpers' definitions (see `_with_foreign_helpers`)
        self._top_functions: set[str] = set()  # the module's own top-level functions
        self._parameter_names: set[str] = set()  # the parameters of every function of the file
        self.mutated_names: frozenset[str] = frozenset()  # see `values.changes`
        # value functions evaluated at calls with known values (see `values.evaluator`): other files'
        # by the name they are called here, and this file's own module once needed
        self.value_functions: dict[str, tuple[Module, str]] = value_modules(context.value_functions, self.memo)
        self.documents: dict[str, object] = dict(context.documents)
        self.documents_wanted: set[str] = set()  # project documents the evaluated code loads
        self.value_calls: set[str] = set()  # names called for a value that are no function of the file
        self.own_path = context.path or path.removeprefix("./")
        self._tree: ast.Module | None = None
        # bare names that run SQL on the session: the notebook global `sql`, `q = spark.sql`
        self._sql_names: frozenset[str] = frozenset()
        # the file's analysis budget (see `values.budget`), which every evaluation and
        # helper reading of the file draws from: the front end's (`analyze_module`)
        self.budget = Budget()
        # what one expression holds in a scope (`values.resolver`)
        self.values = ValueResolver(self)
        # the statement walk (`values.walker`): what each name holds, statement by statement;
        # functions other files call are read there with their arguments, not as written here
        self.walker = Walker(self, tuple(context.called))
        self.pools = PoolReader(self)  # the calls the module hands to thread pools (`pools`)
        self._registries: Registries | None = None  # found when the file is given helpers (`_registry_call`)
        self.writers = WriterReader(self)  # DataFrame and stream writers (`pywriters`)
        self.delta_tables = DeltaTableReader(self)  # the DeltaTable API (`pydelta`)
        self.sql_calls = SqlCallReader(self)  # `spark.sql(...)` and warehouse statements (`sqlcall`)
        self.guards = GuardReader(self)  # the tables known absent where the walk stands (`pyguards`)
        self._sql_operators = False  # names an Airflow warehouse operator (see `warehouse.operator_statements`)
        # what a warehouse client the module may hold runs SQL with, beyond `TERMINALS`
        # (a DatabricksSqlHook's `run(sql)`, SQLAlchemy's `exec_driver_sql`)
        self._client_methods: frozenset[str] = frozenset()

    # -- entry point ---------------------------------------------------------

    def run(self) -> None:
        tree = self._with_foreign_helpers()
        try:
            tree = tree or parse_module(self.source)
        except SyntaxError as err:
            line, col = self.sites.pos(err.lineno or 1, (err.offset or 1) - 1)
            why = f"Python syntax error: {err.msg}"
            if err.msg.startswith("f-string"):  # Python 3.12 (PEP 701) f-strings parse only on 3.12+
                why += " (valid from Python 3.12 if the f-string reuses its quotes inside braces; delta-lint reads Python 3.11 syntax)"
            self.diagnostics.append(Diagnostic(PARSE_ERROR, Location(self.path, line, col), why, "error"))
            self._flush_sql(None)
            return
        except (ValueError, RecursionError, MemoryError) as err:
            self.diagnostics.append(
                Diagnostic(PARSE_ERROR, Location(self.path, 1, 1), f"cannot parse Python source: {err}", "error")
            )
            return
        self._tree = tree
        self._sql_operators = any(name in self.source for name in SQL_OPERATORS)  # with the pasted helpers
        imported_kinds = frozenset(k for held in self.imported_clients.values() for k in held.values())
        self._client_methods = client_methods(self.source, imported_kinds)
        self._collect_functions(tree)
        self.mutated_names = changed_in_place(tree, self.source)
        self.classes = {}
        for stmt in tree.body:  # the file's own class wins over a pasted one of the same name
            if isinstance(stmt, ast.ClassDef):
                self.classes.setdefault(stmt.name, stmt)
        for bound, stmt in self._foreign_defs.items():  # `import m` then `m.Setup.schema(...)` is not followed
            if isinstance(stmt, ast.ClassDef) and "." not in bound and SCOPED not in bound:
                self.classes.setdefault(bound, stmt)
        self._top_functions = {
            stmt.name
            for stmt in tree.body
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.lineno <= self._own_lines
        }
        # a foreign helper is called by the name it is imported as (`g` of `import f as g`,
        # `util.f` of `import util`)
        for bound, stmt in self._foreign_defs.items():
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if SCOPED in bound:  # its own module's name for it: that definition, whatever this file defines
                    self.functions[bound] = stmt
                else:
                    self.functions.setdefault(bound, stmt)
        # helpers: functions that may write, or call a helper (a few rounds deep)
        for _ in range(MAX_HELPER_DEPTH):
            found = {name for name, fn in self.functions.items() if self._may_hold_terminal(fn)}
            self._terminal_lines = None  # the prefilter now also looks for calls of the helpers
            if found == self._helpers:
                break
            self._helpers = found
        self._widget_defaults()
        if MAY_NAME_SESSION_SQL.search(self.source):
            self._sql_names = session_sql_names(tree)
            self._terminal_lines = None  # the prefilter now also looks for calls of those names
        if "FeatureStoreClient" in self.source or "FeatureEngineeringClient" in self.source:
            self._feature_clients = feature_clients(tree)
        if "foreachBatch" in self.source:
            for node in _walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "foreachBatch"
                ):
                    self.batch_functions |= function_names(node.args[0] if node.args else None)
        scope = Scope(env=self.module_env)
        self.walker.block(tree.body, scope, top_level=True)
        self._flush_sql(None)
        self.walker.drop_definition_intents()
        self.intents = self.guards.settled(self.intents)
        for call, why in self.sql_calls.client_doubts():  # once each, however often a helper is read
            self.diagnostics.append(Diagnostic(UNRESOLVED_TABLE, self.sites.loc(call), why))
        if self.input_params:
            self._name_inputs(tree)
        self._say_unread_writes(tree)
        if ".jobs" in self.source:  # `w.jobs.create(...)`: jobs made with the SDK
            self.job_definitions.extend(sdk_jobs(tree, self._own_lines, self.budget, self.own_path))
        # every place the budget gave a value up and no reader said yet (a job
        # definition's, a path call's), the first stop included, is said now
        self.values._budget_spent(tree)

    def _say_unread_writes(self, tree: ast.Module) -> None:
        """A top-level write the reading left nothing at gets a DL001 there (see `unread`)."""
        own = self.path
        marked = {d.location.line for d in self.diagnostics if d.location.path == own} | self._elsewhere_lines
        for intent in self.intents:
            marked |= {at.line for at in (intent.location, *intent.location.sites) if at.path == own}

        def lines_of(stmt: ast.stmt) -> tuple[int, int]:
            return self.sites.pos(stmt.lineno, 0)[0], self.sites.pos(stmt.end_lineno or stmt.lineno, 0)[0]

        for node, message in unread_writes(tree, self._own_lines, lines_of, marked, self._read_terminals, self.source):
            self.diagnostics.append(Diagnostic(UNRESOLVED_TABLE, self.sites.loc(node), message))

    def _name_inputs(self, tree: ast.Module) -> None:
        """A table name whose every placeholder is a job input (and no function's
        parameter of the same name) is the same table in every run given the same
        inputs: the intent keeps those inputs (`Intent.name_inputs`), which tell the
        engine whether concurrent runs of a for_each task write one table or several."""
        candidates = []
        for n, intent in enumerate(self.intents):
            names = _PLACEHOLDER.findall(intent.table.name) if intent.table is not None else []
            # a `{one_of}` part (a catalog `USE`d as one of several names the code
            # gives) is no value a run gives: the inputs beside it still name the table
            names = [p for p in names if p != ONE_OF]
            if names and all(p in self.input_params for p in names):
                candidates.append((n, names))
        if not candidates:
            return
        parameters = set(self._parameter_names)  # every function's, however many share a name
        if "lambda" in self.source:
            parameters |= {a.arg for node in _walk(tree) if isinstance(node, ast.Lambda) for a in node.args.args}
        renamed: dict[tuple[Location, str], list[str]] = {}
        for n, names in candidates:
            intent = self.intents[n]
            if any(p in parameters for p in names):
                continue
            inputs = sorted(set().union(*(self.input_params[p] for p in names)))
            self.intents[n] = replace(intent, name_inputs=tuple(inputs))
            if Flag.UNRESOLVED in intent.flags:
                renamed[(intent.location, intent.table.name)] = inputs
        for n, diag in enumerate(self.diagnostics):
            for (at, name), inputs in renamed.items() if diag.rule == UNRESOLVED_TABLE else ():
                if at == diag.location and f"`{name}`" in diag.message:
                    shown = ", ".join(f"`{i}`" for i in inputs)
                    message = (
                        f"table name `{name}` is built from job inputs ({shown}) known only at run time; it is "
                        "not checked against other files' writes, only against runs of this file that share "
                        "those inputs (the concurrent iterations of a for_each task)"
                    )
                    self.diagnostics[n] = replace(diag, message=message)
                    break

    def _with_foreign_helpers(self) -> ast.Module | None:
        """The file's tree with the foreign helpers' definitions after its own code;
        None (the file alone) when there are none or they do not parse with it."""
        if not self._foreign:
            return None
        parts = [self.source.rstrip("\n") + "\n"]
        spans = []
        homes = []
        firsts: dict[int, list[str]] = {}  # first line of each pasted definition -> its names here
        pasted: dict[tuple[str, str, object], int] = {}  # (module, source, start) -> its first line
        lines = parts[0].count("\n")
        definitions = self.memo.definitions
        for bound, module, text, start in self._foreign:
            # one definition that several modules import (each module's `path::name`
            # for it) is pasted once and called by each of those names
            first = pasted.get((module, text, start))
            if first is not None:
                firsts[first].append(bound)
                continue
            if text not in definitions:  # a summary's source is checked once a run, not once per file given it
                definitions[text] = one_definition(text)
            if definitions[text]:
                part = "\n" + text.rstrip("\n") + "\n"
                parts.append(part)
                first, last = lines + 2, lines + part.count("\n")  # its first line follows the blank one
                firsts[first] = [bound]
                pasted[(module, text, start)] = first
                if start:
                    spans.append((first, last, *start))
                if module in self._scopes:
                    homes.append((first, last, module))
                lines += part.count("\n")
        combined = "".join(parts)
        try:
            tree = ast.parse(combined)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        self.source = combined
        self._own_lines = parts[0].count("\n")  # the foreign definitions start after these
        self.sites = SourceSites(self.path, combined, self.line_map, self._own_lines, spans)
        self._homes = homes
        for stmt in tree.body:
            first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
            for bound in firsts.get(first, ()):
                self._foreign_defs[bound] = stmt
        return tree

    def _widget_defaults(self) -> None:
        """`dbutils.widgets.text("schema", "sales")`: the value a notebook reads when no
        job parameter binds the widget. An empty default binds nothing."""
        if "widgets" not in self.source:
            return
        for m in _WIDGET_DEFAULT.finditer(self.source):
            name, value = m.group(2), m.group(4)
            if value.strip() and "{" not in value:
                self.widget_defaults.setdefault(name, value.strip())

    def _collect_functions(self, tree: ast.Module) -> None:
        """Every function definition by name, the shallowest first (as `ast.walk`
        would meet them), walking statements only: expressions cannot define one."""
        found: list[tuple[int, int, ast.FunctionDef | ast.AsyncFunctionDef]] = []
        stack: list[tuple[list, int]] = [(tree.body, 1)]
        while stack:
            body, depth = stack.pop()
            for stmt in body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.append((depth, len(found), stmt))
                for name in ("body", "orelse", "finalbody"):
                    inner = getattr(stmt, name, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        stack.append((inner, depth + 1))
                for holder in (getattr(stmt, "handlers", None) or []) + (getattr(stmt, "cases", None) or []):
                    stack.append((holder.body, depth + 2))
        for _, _, fn in sorted(found, key=lambda f: (f[0], f[1])):
            self.functions.setdefault(fn.name, fn)
        self._parameter_names = {
            a.arg for _, _, fn in found for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)
        }

    def _may_hold_terminal(self, node: ast.expr) -> bool:
        """False when no name of a call of interest occurs on the expression's lines:
        most expressions of a job are then skipped without walking them."""
        if not self.source.isascii():  # identifiers may be spelled in other (NFKC) forms
            return True
        lines = self._terminal_lines
        if lines is None:
            lines = self._terminal_lines = self._lines_naming_terminals()
        first = node.lineno
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= (node.end_lineno or first)

    def _lines_naming_terminals(self) -> list[int]:
        """The sorted lines of the source that hold a word of a call of interest: a
        write's or statement's name, or a helper's, a session SQL function's or a
        client method's found so far. Those sets only grow while a file is read (each
        round of `run`'s helper search adds names), so a new round scans the text for
        the new words alone: a file given hundreds of helpers is not scanned again
        for every word at each round."""
        if self._scanned[0] is not self.source:  # (the foreign helpers' definitions grew it)
            self._scanned = (self.source, set(), [m.start() for m in _NEWLINE.finditer(self.source)], [])
        _, scanned, starts, lines = self._scanned
        # a helper of an imported module's namespace (`pkg/io.py::io.save`) is called as `io.save`
        extra = {h.rsplit(SCOPED, 1)[-1] for h in self._helpers} | self._sql_names | self._client_methods
        new = (TERMINALS | _EXTRA_WORDS | extra) - scanned
        if new:
            if scanned or extra:
                words = re.compile(r"\b(?:" + "|".join(sorted(re.escape(w) for w in new)) + r")\b")
            else:
                words = _TERMINAL_WORD
            found = [bisect_left(starts, m.start()) + 1 for m in words.finditer(self.source)]
            lines = sorted(set(lines).union(found)) if lines else found
            self._scanned = (self.source, scanned | new, starts, lines)
        return lines

    def links(self) -> Links:
        """The module's static top-level values (for files that `%run` or import it),
        the session it leaves, what it imports and which job inputs it reads."""
        exports = {}
        shared = self._shared_classes() if self.classes else set()
        for name, held in self.module_env.items():  # an object of a class given with it crosses with its class
            plain = exported_object(held, shared) if shared else None
            plain = plain if plain is not None else exported_value(held)
            if plain is not None and not name.startswith("__"):
                exports[name] = plain
        session = {k: v for k, v in (("catalog", self.session.catalog), ("schema", self.session.schema)) if v}
        links = Links(exports, session, list(dict.fromkeys(self.imports)), [], sorted(self.inputs_read))
        links.non_delta = sorted(self.session.non_delta)
        links.jobs = self.job_definitions
        links.notebooks = list(self.notebook_runs)
        links.pooled_notebooks = list(dict.fromkeys(self.pooled_notebook_runs))
        links.exit = self.walker.exit_value()
        links.task_values = self.walker.task_values()
        links.task_value_reads = [list(r) for r in sorted(self.task_value_reads)]
        for name in sorted(self._helpers & self._top_functions):
            text = self.sites.segment(self.functions[name])
            if text:
                links.functions[name] = text
                links.function_lines[name] = self.sites.start(self.functions[name])
        if self._tree is not None:
            own = [s for s in self._tree.body if s.lineno <= self._own_lines]
            values = [s.name for s in own if isinstance(s, ast.FunctionDef) and is_value_function(s)]
            if values:
                # the same code gives the same source: a file read again with what
                # other files give it writes it once a run
                key = digest(self._own_source)
                if key not in self.memo.value_sources:
                    self.memo.value_sources[key] = module_source(ast.Module(body=own, type_ignores=[]), values)
                links.value_functions = values
                links.value_source = self.memo.value_sources[key]
        # the code but its import statements, which call nothing: what it may call a helper by
        given = self.imports or self.line_map is not None  # may be given helpers: what its code names
        code = without_imports(self._own_source) if given else ""
        if given:
            links.names = " ".join(sorted(source_words(code)))
        imported = {bound for _, _, bound in self.imports}
        # (`names.table_name` of `import names` by the module's name)
        links.value_calls = sorted(c for c in self.value_calls if c in imported or c.split(".", 1)[0] in imported)
        if self._tree is not None and imported:
            # only where an imported name stands as a display's element: one scan of the text
            # (`load_a.run` of `from pkg import load_a` by the name it is imported by)
            candidates = {m.group(1) for m in _ELEMENT_WORD.finditer(code) if m.group(1).split(".", 1)[0] in imported}
            if candidates:
                # a registry this module calls through (`_STEPS[step](...)`) calls its functions here
                called = dispatched(self._tree, self._registry_of().by_name)
                links.stored = _only_stored(self._tree, candidates, called)
        links.documents = sorted(self.documents_wanted)
        if self._tree is not None:
            own_tree = ast.Module(body=[s for s in self._tree.body if s.lineno <= self._own_lines], type_ignores=[])
            links.clients = module_clients(own_tree, self._own_source)
        for name, cls in self.classes.items():  # `Setup.schema(...)`, `Logger(...).start()` elsewhere
            if name in shared:
                text = self.sites.segment(cls)
                if text:
                    line, shift = self.sites.start(cls)
                    decorators = self.sites.decorator_lines(cls)  # `@dataclass` makes its fields
                    links.functions[name] = "".join(d + "\n" for d in decorators) + text
                    links.function_lines[name] = (line - len(decorators), shift)
                    shape = _class_shape(cls, len(decorators))
                    if shape[1] and links.functions[name].count("\n") == cls.end_lineno - cls.lineno + len(decorators):
                        links.methods[name] = shape
        return links

    def _shared_classes(self) -> set[str]:
        """The file's own classes other files are given with its helpers: those with a
        method that may write, configuration classes (a dataclass, a class or static
        method factory: their objects' values are read where the importer builds
        them, see `_factory`), and the classes that derive from one of those here
        (`class OrdersLoader(BaseLoader): table = "..."`, whose object runs the
        base's writing method with its own attributes)."""
        own = {name: cls for name, cls in self.classes.items() if cls.lineno <= self._own_lines}
        shared = {
            name
            for name, cls in own.items()
            if {f.name for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))} & self._helpers
            or is_config_class(cls)
        }
        grown = True
        while grown:
            derived = {
                name
                for name, cls in own.items()
                if name not in shared and any(isinstance(b, ast.Name) and b.id in shared for b in cls.bases)
            }
            shared |= derived
            grown = bool(derived)
        return shared

    # -- values and chains -----------------------------------------------------------

    def string(self, node: ast.expr | None, scope: Scope) -> Str:
        """The text an expression holds in `scope`, `{name}` for the parts only a run
        knows (see `ValueResolver.string`)."""
        return self.values.string(node, scope)

    def flatten(self, node: ast.expr, scope: Scope) -> list[Step]:
        """`a.b(1).c` -> steps a, b(1), c; variables holding chains are spliced in."""
        steps: list[Step] = []
        cur = node
        pending: list[Step] = []
        while True:
            if isinstance(cur, ast.Call) and isinstance(cur.func, ast.Attribute):
                pending.append(Step(cur.func.attr, cur, cur))
                cur = cur.func.value
            elif isinstance(cur, ast.Attribute):
                pending.append(Step(cur.attr, None, cur))
                cur = cur.value
            elif isinstance(cur, ast.Call) and isinstance(cur.func, ast.Name):
                pending.append(Step(cur.func.id, cur, cur))
                break
            elif isinstance(cur, ast.Name):
                held = scope.env.get(cur.id)
                if isinstance(held, Chain):
                    steps.extend(held.steps)
                else:
                    pending.append(Step(cur.id, None, cur))
                break
            else:
                pending.append(Step("<expr>", None, cur))
                break
        steps.extend(reversed(pending))
        return steps

    def reads(self, node: ast.expr | None, scope: Scope) -> set[TableRef]:
        """Tables a DataFrame expression reads (for "insert reading target")."""
        found: set[TableRef] = set()
        if node is None:
            return found
        for sub in _walk(node):
            if isinstance(sub, ast.Name):
                held = scope.env.get(sub.id)
                if isinstance(held, DataFrame):
                    found |= held.reads
            elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.args:
                attr = sub.func.attr
                if attr == "table":
                    found.add(self._ref(self.string(sub.args[0], scope))[0])
                elif attr == "load":
                    found.add(self._ref(self.string(sub.args[0], scope), path=True)[0])
                elif attr == "sql":
                    found |= read_tables(self.string(sub.args[0], scope).text, self.session)
                elif attr in ("forName", "forPath") and len(sub.args) > 1:
                    found.add(self._ref(self.string(sub.args[1], scope), path=attr == "forPath")[0])
        return found

    def _calls(self, expr: ast.expr, scope: Scope) -> None:
        """Find every terminal call of interest in an expression, outermost first."""
        if not self._may_hold_terminal(expr) and not (self._helpers and self._registry_of().may_call(expr)):
            return
        if self.guards.absent and _runs_again(expr):
            # a lambda's or a comprehension's calls may run again once the first has
            # created the table: none of its writes is a first-run write
            with self.guards.inside(NONE_ABSENT):
                self._calls(expr, scope)
            return
        seen: set[int] = set()
        pooled = self.pools.pooled(expr, scope)
        if self.batch_functions:  # `foreachBatch(lambda df, i: upsert(df))`: the body runs per batch, not here
            pooled = pooled | _batch_lambda_calls(expr)
        for node in _walk(expr):
            if not isinstance(node, ast.Call) or id(node) in pooled:
                continue
            if _is_notebook_run(node):
                self.walker.notebook_run(node, scope)
                continue
            if call_named(node, NOTEBOOK_EXIT):
                self.walker.notebook_exit(node, scope)
                continue
            if call_named(node, TASK_VALUES_SET):
                self.walker.task_value_set(node, scope)
                continue
            if self._feature_clients and is_feature_table_call(node, self._feature_clients):
                self.writers.feature_table(node, scope)
                continue
            if isinstance(node.func, ast.Name) and node.func.id in self._sql_names:
                self._guarded(node, self._each_alternative, as_session_sql(node), scope)
                continue
            statements = operator_statements(node) if self._sql_operators else None  # an Airflow operator's SQL
            if statements is not None:
                for statement in statements:
                    self._guarded(node, self.sql_calls.read, node, statement, scope)
                continue
            if type(node.func) is ast.Subscript and self._helpers and self._registry_call(node, scope):
                continue
            if self.walker.module_call(node, scope):  # `importlib.import_module(name).run(...)`
                continue
            attribute = isinstance(node.func, ast.Attribute)
            if self.classes and attribute:
                found = self.walker.method(node, scope)
                if found is not None and found[0].name in self._helpers:
                    self._guarded(node, self.walker.call_helper, found[0], node, scope, instance=found[1])
                    continue
                method = self._method_of_unknown_state(node, scope) if found is None else None
                if method is not None:
                    self._guarded(node, self.walker.call_helper, method, node, scope)
                    continue
            if self._helpers:
                callee = self.walker.callee(node)
                if callee is not None:
                    self._guarded(node, self.walker.call_helper, callee, node, scope)
                    continue
            terminal = attribute and (node.func.attr in TERMINALS or node.func.attr in self._client_methods)
            # `from deltalake import write_deltalake` then `write_deltalake(...)`: a writer called by its name
            terminal = terminal or (type(node.func) is ast.Name and node.func.id == "write_deltalake")
            if terminal and id(node) not in seen:
                steps = self.flatten(node, scope)
                for step in steps:
                    if step.call is not None:
                        seen.add(id(step.call))
                self._guarded(node, self._each_alternative, node, scope)

    def _registry_call(self, node: ast.Call, scope: Scope) -> bool:
        """`_STEPS[step](catalog=catalog)` of a module's registry of functions
        (`registries`): read as a call of the function a literal key names, else of
        each of the registry's functions (`registries.chosen`), every write of one
        flagged as one of the alternatives (`Flag.ONE_OF`). False for any other call
        through a subscript."""
        sub = node.func
        if not isinstance(sub, ast.Subscript) or not isinstance(sub.value, ast.Name):
            return False
        entries = self._registry_of().by_name.get(sub.value.id)
        if not entries:
            return False
        functions = chosen(entries, sub.slice)  # as `registries.dispatched` counts them
        for fn in functions:
            call = ast.copy_location(ast.Call(func=fn, args=node.args, keywords=node.keywords), node)
            callee = self.walker.callee(call)
            if callee is None:
                continue
            before = len(self.intents)
            self._guarded(node, self.walker.call_helper, callee, call, scope)
            if len(functions) > 1:
                self.intents[before:] = [replace(x, flags=x.flags | {Flag.ONE_OF}) for x in self.intents[before:]]
        return True

    def _registry_of(self) -> Registries:
        if self._registries is None:
            self._registries = Registries.of(self._tree, self.mutated_names)
        return self._registries

    def _calls_with_alternatives(self, node: ast.Call, scope: Scope) -> list[tuple[ast.Call, object]]:
        """Calls of value functions among a write's arguments (`saveAsTable(table())`,
        `f"... {table()} ..."`) whose result is one of several values: the write is
        read once per value, as for a name (see `_each_alternative`)."""
        if not (self.value_functions or self._top_functions):
            return []
        found: list[tuple[ast.Call, object]] = []
        todo: list[ast.expr] = [*node.args, *(k.value for k in node.keywords)]
        while todo:
            arg = todo.pop()
            kind = type(arg)
            if kind is ast.Call and type(arg.func) is ast.Name:  # type: ignore[attr-defined]
                name = arg.func.id  # type: ignore[attr-defined]
                if name in self.value_functions or name in self._top_functions:
                    held = self.values._evaluated(arg, scope)  # type: ignore[arg-type]
                    if held_alternatives(held):
                        found.append((arg, held))  # type: ignore[arg-type]
            elif kind is ast.JoinedStr:
                todo.extend(v.value for v in arg.values if type(v) is ast.FormattedValue)  # type: ignore[attr-defined]
            elif kind is ast.BinOp:
                todo += [arg.left, arg.right]  # type: ignore[attr-defined]
        return found

    def _method_of_unknown_state(self, call: ast.Call, scope: Scope) -> ast.FunctionDef | None:
        """`w.save("main.x.y", df)` on `w = Store(spark, load())` (`UnknownState`), or
        on an object made in the call itself of which nothing is known, given
        arguments (`Db().run(q)`): the method that may write, read at the call with its
        own arguments bound and no object (its `self.x` reads unknown; a write that
        reads none of its arguments stays where it is written). Such an object's
        method called with nothing (`RunLog(ctx).start()`) is read as written."""
        func = call.func
        if not isinstance(func, ast.Attribute):
            return None
        owner = func.value
        if isinstance(owner, ast.Name):
            held = scope.env.get(owner.id)
            cls = held.cls if isinstance(held, UnknownState) else None
        elif not (call.args or call.keywords):
            return None
        else:
            made = owner.func if isinstance(owner, ast.Call) else None
            # (a name bound to an object of its own is no class: `Db = Db(); Db().run(q)`)
            cls = made.id if isinstance(made, ast.Name) and not isinstance(scope.env.get(made.id), Instance) else None
        if cls not in self.classes:
            return None
        method = next(
            (f for f in self.classes[cls].body if isinstance(f, ast.FunctionDef) and f.name == func.attr), None
        )
        return method if method is not None and method.name in self._helpers else None

    def _each_alternative(self, node: ast.Call, scope: Scope) -> None:
        """Read a write once per value its names may hold (`OneOf`): a table that is one
        of several names is one intent per name, each flagged `one_of`; what every
        alternative agrees on is one intent, unflagged. Past `MAX_ALTERNATIVES`
        combinations the names stay unknown, as any unknown value."""
        env = scope.env
        names = (
            sorted({n.id for n in _walk(node) if type(n) is ast.Name and held_alternatives(env.get(n.id))})
            if any(held_alternatives(v) for v in env.values())
            else []
        )
        # `conf["schema"]` of a dict whose key holds one of several texts: read per text too
        keyed = member_alternatives(_walk(node), env) if names or any(type(v) is dict for v in env.values()) else []
        calls = self._calls_with_alternatives(node, scope)
        choices = [held_alternatives(scope.env[n]) for n in names] + [texts for *_, texts in keyed]
        choices += [held_alternatives(held) for _, held in calls]
        combos = list(itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES + 1))
        if not (names or keyed or calls) or len(combos) > MAX_ALTERNATIVES:
            self._terminal(self.flatten(node, scope), node, scope)
            return
        saved = {n: scope.env[n] for n in [*names, *(name for name, *_ in keyed)]}
        session = dict(self.session.__dict__)
        runs: list[tuple[list[Intent], list[Diagnostic]]] = []
        states: list[dict] = []
        absent = self.guards.absent  # each reading of the one statement stands where it does
        try:
            for combo in combos:
                scope.env.update(saved)
                scope.env.update(zip(names, combo))
                for (name, key, _), text in zip(keyed, combo[len(names) :]):
                    scope.env[name] = {**scope.env[name], key: text}  # type: ignore[dict-item]
                given = combo[len(names) + len(keyed) :]
                self.values._fixed.update((id(call), value) for (call, _), value in zip(calls, given))
                self.session.__dict__.update(session)
                first_intent, first_diag = len(self.intents), len(self.diagnostics)
                with self.guards.inside(absent):
                    self._terminal(self.flatten(node, scope), node, scope)
                runs.append((self.intents[first_intent:], self.diagnostics[first_diag:]))
                del self.intents[first_intent:], self.diagnostics[first_diag:]
                states.append(dict(self.session.__dict__))
        finally:
            for call, _ in calls:
                self.values._fixed.pop(id(call), None)
            scope.env.update(saved)
        # a USE/SET whose value depends on the branch: what the readings agree on
        self.session.__dict__.update(joined_session(session, states))
        # one intent per shape; a table declared two ways (a PARTITIONED BY there or
        # not) has unknown settings, never the first alternative's
        groups: dict[tuple, list[Intent]] = {}
        for intent in (i for intents, _ in runs for i in intents):
            groups.setdefault(_shape_but_declared(intent), []).append(intent)
        for same in groups.values():
            intent = same[0]
            if any(i.declared != intent.declared for i in same):
                params = tuple(sorted({p for i in same for p in i.params}))
                intent = replace(intent, declared=None, params=params)
            everywhere = all(
                any(_shape_but_declared(i) == _shape_but_declared(intent) for i in made) for made, _ in runs
            )
            self.intents.append(intent if everywhere else replace(intent, flags=intent.flags | {Flag.ONE_OF}))
        self.diagnostics.extend(dict.fromkeys(unparsed_texts(runs)))

    def _guarded(self, node: ast.AST, read: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        """One odd call must not stop the file: its error becomes a DL002 at the call."""
        try:
            read(*args, **kwargs)
        except RecursionError:
            raise
        except Exception as err:  # noqa: BLE001
            self._internal(node, err)

    def _internal(self, node: ast.AST, err: Exception) -> None:
        self.diagnostics.append(
            Diagnostic(
                "DL002",
                self.sites.loc(node) if hasattr(node, "lineno") else Location(self.path, *self.sites.pos(1, 0)),
                f"internal error while reading this call ({type(err).__name__}: {err}); please report it",
                "error",
            )
        )

    # -- terminals ----------------------------------------------------------------------

    def _terminal(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        """Read a call chain by the API it ends in: SQL run by the session or a
        warehouse, the session's configuration and current catalog or schema, a
        DataFrame or stream writer, a stream reader, or the DeltaTable API."""
        self._read_terminals.add(id(node))
        names = [s.name for s in steps]
        last = steps[-1]
        warehouse = warehouse_statement(last.name, node)
        if warehouse is None and last.name in CLIENT_METHODS and self._tree is not None:
            # a DB-API cursor's or SQLAlchemy connection's, when it comes from a Databricks client
            warehouse = self.sql_calls.client_statement(node, self._tree, self.source)
            if warehouse is None and self.sql_calls.runs_elsewhere(node):
                # another database's (sqlite3, psycopg2...): no Delta write, and nothing to say at the call
                self._elsewhere_lines.add((scope.site or self.sites.loc(node)).line)
                return
        if last.name == "sql" or warehouse is not None:
            self.sql_calls.read(node, warehouse, scope)
            return
        if last.name == "set" and len(steps) >= 2 and steps[-2].name == "conf" and len(node.args) >= 2:
            self.session.set_conf(self.string(node.args[0], scope).text, self.string(node.args[1], scope).text)
            return
        if last.name == "unset" and len(steps) >= 2 and steps[-2].name == "conf" and len(node.args) == 1:
            self.session.set_conf(self.string(node.args[0], scope).text, None)
            return
        if last.name in ("setCurrentDatabase", "setCurrentCatalog") and node.args:
            value = self.string(node.args[0], scope).text.lower()
            self.session.use([value], "CATALOG" if last.name == "setCurrentCatalog" else "SCHEMA")
            return
        # A chain can read and then write (`spark.readStream.format("cloudFiles")...
        # .writeStream...toTable(t)`): the writer's settings are the steps after its
        # last `write`/`writeStream`, and what comes before is its source.
        writer = max((i for i, n in enumerate(names) if n in ("write", "writeStream", "writeTo")), default=-1)
        if writer < 0 and "readStream" in names and last.name in ("table", "load"):
            self.writers.stream_read(steps, node, scope)
            return
        if writer >= 0 and names[writer] == "writeStream" and last.name in ("toTable", "start", "table"):
            self.writers.stream_write(steps, writer, node, scope)
            return
        if writer >= 0 and names[writer] == "writeTo":
            self.writers.write_to(steps, node, scope)
            return
        if writer >= 0 and names[writer] == "write" and last.name in ("saveAsTable", "save", "insertInto"):
            self.writers.batch_write(steps, writer, node, scope)
            return
        if last.name in ("write_deltalake", "write_delta") and (last.name == "write_deltalake" or len(steps) > 1):
            self.writers.delta_rs_write(steps, node, scope)
            return
        if (
            last.name in ("to_table", "to_delta")
            and len(steps) > 1
            and _names_pandas_target(node)
            and (last.name == "to_delta" or _PANDAS_ON_SPARK.search(self.source) is not None)
        ):
            self.writers.pandas_write(steps, node, scope)
            return
        if "DeltaTable" in names or "forName" in names or "forPath" in names:
            self.delta_tables.read(steps, node, scope)

    # -- emitting --------------------------------------------------------------------------

    def _ref(self, target: Str, path: bool = False) -> tuple[TableRef, bool]:
        if path:
            text = target.text.rstrip("/")
            return TableRef("delta:" + text, is_path=True), not target.unknown
        tpl = apply_templates(target.text)
        ref, resolved = table_ref(split_name(tpl.text), self.session, tpl)
        return ref, resolved and not target.unknown and bool(target.text.strip())

    def _emit(self, node: ast.Call, ref: TableRef, resolved: bool, kind: Kind, scope: Scope, **kw) -> None:
        flags = set(kw.pop("flags", ())) | set(self.session.session_flags())
        params = tuple(kw.pop("params", ()))
        loc = scope.site or self.sites.loc(node)
        if not resolved:
            flags.add(Flag.UNRESOLVED)
            self.diagnostics.append(
                Diagnostic(
                    UNRESOLVED_TABLE,
                    self.located(loc, scope, node),
                    f"table name `{ref.name}` is dynamic and cannot be resolved statically; "
                    "this intent is not checked against others",
                )
            )
        if kind in TXN_KINDS and kw.get("txn_app_id") is None and self.session.txn_app_id is not None:
            kw["txn_app_id"] = self.session.txn_app_id  # `spark.conf.set("...write.txnAppId", ...)` before
        table_params = tuple(p[1:-1] for p in placeholders(ref.name))
        intent = Intent(
            location=loc,
            table=ref,
            kind=kind,
            flags=frozenset(flags),
            params=tuple(sorted(set(params) | set(table_params))),
            statement=self.sites.excerpt(node),
            **kw,
        )
        self._add(intent, scope, node)

    def _add(self, intent: Intent, scope: Scope, node: ast.AST | None = None, built: tuple = ()) -> None:
        """Keep an intent; inside a helper read for a call it is reported at the call
        (`scope.site`), naming where `node`, its statement, stands, and `built`, where
        the SQL text it runs was built (see `text_sites`)."""
        if scope.site is not None:
            site = self.located(scope.site, scope, node, built)
            if intent.location != site or intent.location.sites != site.sites:
                intent = replace(intent, location=site)
        if scope.flags or scope.stream:
            intent = replace(intent, flags=intent.flags | scope.flags, stream=intent.stream or scope.stream)
        self.intents.append(self.guards.mark(intent))

    def located(self, loc: Location, scope: Scope, node: ast.AST | None, built: tuple = ()) -> Location:
        """Where an intent or a diagnostic of `node`'s statement is reported: at
        `loc`; inside a helper read for a call, `loc` is the call (`scope.site`) and
        names where the statement stands and `built`, where its SQL text was built,
        so path filters, `--changed` and baselines see an edit of the helper."""
        if scope.site is None or loc != scope.site:
            return loc
        stands = self.sites.statement_site(node) if node is not None else None
        named = [at for at in (stands, *built) if at is not None and at != loc]
        return Location(loc.path, loc.line, loc.column, tuple(dict.fromkeys(named))) if named else loc

    def text_sites(self, loc: Location, arg: ast.expr, scope: Scope) -> tuple[Location, ...]:
        """Where the SQL text a call runs was built, when that is on other lines than
        `loc` (`q = "INSERT ..."` read by `spark.sql(q)` later, or handed to a helper
        that runs it): its statement sites, so suppressions, `--changed` and baselines
        see an edit of the text."""
        sites = {
            site: None
            for built in self.walker.text_sites(arg, scope)
            if (site := self.sites.statement_site(built)) is not None and site.line != loc.line
        }
        return tuple(sites)

    def _flush_sql(self, before_line: int | None) -> None:
        """Analyse notebook SQL cells that come before `before_line` (all when None)."""
        while self.sql_cells and (before_line is None or self.sql_cells[0].line < before_line):
            cell = self.sql_cells.pop(0)
            intents, diags = analyze_sql(cell.text, self.path, self.session, line_map=cell.line_map, memo=self.memo)
            self.intents.extend(intents)
            self.diagnostics.extend(diags)


def _names_pandas_target(node: ast.Call) -> bool:
    """Whether a `to_table`/`to_delta` call names its target, as the pandas API on
    Spark's must (a first argument, or `name=`/`path=`): pyarrow's `dataset.to_table()`
    reads a dataset and names none."""
    return bool(node.args) or any(k.arg in ("name", "path") for k in node.keywords)


# what shows a file uses the pandas API on Spark, whose `to_table(name)` writes a
# table: DuckDB's relations have a `to_table(name)` of their own (`to_delta` is the
# pandas API on Spark's alone)
_PANDAS_ON_SPARK = re.compile(r"\bpyspark\.pandas\b|\bpandas_api\b|\bpandas_on_spark\b|\bkoalas\b")
# a name or a dotted name standing as an element of a dict, list or set display
# (`{"a": f, ...}`, `[f]`, `{"a": load_a.run}`)
_ELEMENT_WORD = re.compile(r"[:\[{,]\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*[,\]}]")


def _only_stored(tree: ast.Module, names: set[str], called: set[int]) -> list[str]:
    """Those of `names` (imported names, or attributes of imported modules:
    `load_a.run`) the code uses (loads) only as an element of a dict, list, tuple or
    set display: a registry of functions another call picks from at run time. Any
    other use (a call, an argument, an assignment, a return) may call it, and so may
    an element the module's own calls through its registry run (`called`: their ids,
    see `registries.dispatched`; `PythonAnalyzer._registry_call` reads those calls)."""
    if not names:
        return []
    stored: set[str] = set()
    used: set[str] = set()
    for node in _walk(tree):
        element = isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Set))
        for child in ast.iter_child_nodes(node):
            name = _dotted(child) if isinstance(child, (ast.Name, ast.Attribute)) else None
            if name in names and isinstance(child.ctx, ast.Load):  # type: ignore[attr-defined]
                kept = element and id(child) not in called and not (isinstance(node, ast.Dict) and child in node.keys)
                (stored if kept else used).add(name)
    return sorted(stored - used)


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` of a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_WIDGET_DEFAULT = re.compile(
    r"\bwidgets\.(?:text|dropdown|combobox|multiselect)\(\s*(?:name\s*=\s*)?([\"'])(\w+)\1\s*,"
    r"\s*(?:defaultValue\s*=\s*)?([\"'])([^\"'\n]*)\3"
)


def _shape_but_declared(intent: Intent) -> tuple:
    # the region too: rows of one of several values (`VALUES ({x})`, a DataFrame of
    # constants built two ways) land in different partitions under one predicate text
    return (
        intent.location,
        intent.table,
        intent.kind,
        intent.flags,
        intent.predicate_sql,
        intent.subkind,
        intent.region,
    )


def _runs_again(expr: ast.expr) -> bool:
    """Whether the expression holds a lambda or a comprehension, whose calls may run
    more than once (see `pyguards`)."""
    return any(
        isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) for n in _walk(expr)
    )


def _batch_lambda_calls(expr: ast.expr) -> set[int]:
    """The calls inside a lambda handed to `foreachBatch` in `expr` that the batch
    reader reads (see `pywriters.batch_calls`): they run once per micro-batch, not
    where the lambda is written."""
    found: set[int] = set()
    for node in _walk(expr):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "foreachBatch":
            for arg in [*node.args[:1], *(k.value for k in node.keywords if k.arg == "func")]:
                if isinstance(arg, ast.Lambda):
                    found |= {id(n) for n in batch_calls(arg)}
    return found


def _is_notebook_run(node: ast.Call) -> bool:
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "run"
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "notebook"
    )


def analyze_module(
    path: str,
    source: str,
    session: Session | None = None,
    sql_cells: list[SqlCell] | None = None,
    line_map: LineMap | None = None,
    context: Context | None = None,
    widget_defaults: dict[str, str] | None = None,
    memo: FrontEndMemo | None = None,
    budget: Budget | None = None,
) -> tuple[list[Intent], list[Diagnostic], Links]:
    """Intents and diagnostics of a module, and what it gives and needs across files.
    `widget_defaults`: widget values a notebook was saved with; `memo`: the run's;
    `budget`: the file's (see `budget`), shared by every reading of it."""
    budget = budget if budget is not None else Budget()
    session = session if session is not None else Session()
    before = replace(session)
    analyzer = PythonAnalyzer(path, source, session, sql_cells, line_map, context, memo)
    analyzer.budget = budget
    analyzer.widget_defaults.update(widget_defaults or {})
    analyzer.run()
    if analyzer.walker.sole_instances:
        # a class the file makes one object of, known only once the code that makes it
        # is read: read again with its methods reading that object where they stand
        session.__dict__.update(before.__dict__)
        placed = analyzer.walker.sole_instances
        analyzer = PythonAnalyzer(path, source, session, sql_cells, line_map, context, memo)
        analyzer.budget = budget
        analyzer.widget_defaults.update(widget_defaults or {})
        analyzer.walker.placed = placed
        analyzer.run()
    # a helper read at one call once per path that reaches it (`if`/`else` around two
    # calls of it) says the same thing at the same call each time: once is enough
    diagnostics = list({(d, d.location.sites): d for d in analyzer.diagnostics}.values())
    return analyzer.intents, diagnostics, analyzer.links()


def _class_shape(cls: ast.ClassDef, decorators: int) -> ClassShape:
    """Where a class's methods but the dunder ones are in its text as `Links.functions`
    holds it (its decorator lines first), for the link stage to cut those a file
    does not call (see `Links.methods`)."""
    first_line = cls.lineno - decorators  # the text's first line, in the file
    spans = [
        (
            stmt.name,
            min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)]) - first_line,
            (stmt.end_lineno or stmt.lineno) - first_line + 1,
            stmt.lineno - first_line,
        )
        for stmt in cls.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not (stmt.name.startswith("__") and stmt.name.endswith("__"))
    ]
    return len(cls.body), spans
