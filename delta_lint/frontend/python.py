"""Python front end: PySpark DataFrame / DeltaTable / spark.sql code becomes write intents.

The code is read with the stdlib `ast` module only; it is never imported or run.
Values are followed as far as they are static: string constants, f-strings,
`.format`, `%`, concatenation and `textwrap.dedent` are resolved; values that come
from `sys.argv`, argparse, `dbutils.widgets.get`, environment variables or function
parameters become named parameters (`{name}` in table names and predicates).

`PythonAnalyzer` builds the intents: it runs the module's reading, finds the calls
of interest in each expression (`_calls`), tells which API a call chain ends in
(`_terminal`) and keeps the intents (`_emit`, `_add`). Before the walk, other
files' helpers it reads at their calls are pasted after its own code
(`pyforeign`), the functions and classes a call may run are gathered
(`pydefinitions`) and the widgets' defaults found (`pyinputs`); an expression is
walked only when one of its lines names a call of interest (`pyprefilter`). What
a call says is read by the parts it holds, each by what it reads: `values.walker`
(the statements, in order) and `values.resolver` (what one expression holds),
`pywriters` (DataFrame and stream writers), `pydelta` (the DeltaTable API),
`sqlcall` (the SQL a call runs), `pools` (work handed to thread pools),
`pyalternatives` (a write read once per value its names may hold) and `pysites`
(where a node stands). After the walk, the tables named by job inputs alone are
marked (`pyinputs`), and what the module gives other files is read from it
(`pylinks`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.pools import PoolReader
from delta_lint.frontend.pyalternatives import AlternativeReader
from delta_lint.frontend.pydefinitions import method_of_unknown_state, module_definitions
from delta_lint.frontend.pydelta import DeltaTableReader
from delta_lint.frontend.pyforeign import paste_helpers
from delta_lint.frontend.pyguards import NONE as NONE_ABSENT
from delta_lint.frontend.pyguards import GuardReader
from delta_lint.frontend.pyinputs import name_inputs, widget_defaults
from delta_lint.frontend.pylinks import module_links
from delta_lint.frontend.pyprefilter import TerminalLines
from delta_lint.frontend.pysites import LineMap, SourceSites
from delta_lint.frontend.pysource import parse_module
from delta_lint.frontend.pyspark_api import TERMINALS
from delta_lint.frontend.pyvalues import (
    TEXT,
    Chain,
    DataFrame,
    Scope,
    Step,
    Str,
    argument_at,
    held_value,
    named_in_part,
    param_str,
    placeholders,
)
from delta_lint.frontend.pywriters import (
    WriterReader,
    batch_calls,
    feature_clients,
    function_names,
    is_feature_table_call,
)
from delta_lint.frontend.registries import Registries, chosen
from delta_lint.frontend.sdkjobs import might_define_jobs, sdk_jobs
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
    warehouse_statement,
)
from delta_lint.frontend.sqltext import apply_templates
from delta_lint.frontend.unread import unread_writes
from delta_lint.frontend.values.brains import NOTEBOOK_EXIT, TASK_VALUES_SET, ends_run
from delta_lint.frontend.values.budget import Budget
from delta_lint.frontend.values.changes import changed_in_place
from delta_lint.frontend.values.evaluator import Module
from delta_lint.frontend.values.resolver import (
    MAX_HELPER_DEPTH,
    ValueResolver,
)
from delta_lint.frontend.values.sources import value_modules
from delta_lint.frontend.values.walker import Walker
from delta_lint.frontend.values.walker import walk as _walk
from delta_lint.frontend.warehouse import METHODS as CLIENT_METHODS
from delta_lint.frontend.warehouse import SQL_OPERATORS, client_methods, operator_statements
from delta_lint.model import (
    SCOPED,
    Context,
    Diagnostic,
    Flag,
    Intent,
    Kind,
    Links,
    Location,
    PooledRun,
    TableRef,
)
from delta_lint.words import found_at


@dataclass
class SqlCell:
    """A SQL cell of a notebook, analysed in document order with the Python code."""

    line: int  # first line, in the analysed source's numbering
    text: str
    line_map: LineMap


class PythonAnalyzer:
    """Turns one module's writes into intents: its `Walker` reads the statements in
    order for the values names hold and hands every expression back to `_calls`;
    its `ValueResolver` tells what one expression holds; its readers of writers,
    the DeltaTable API, SQL calls and thread pools read the calls `_calls` finds,
    each once per value its names may hold (`AlternativeReader`)."""

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
        self._lambda_source: str | None = None  # the source `_lambdas` was read from
        self._lambdas = False  # whether it holds a lambda (see `_lambda_scopes`)
        self._terminal_lines = TerminalLines()  # the lines naming a call of interest (`pyprefilter`)
        self.session = session or Session()
        self.sql_cells = sorted(sql_cells or [], key=lambda c: c.line)
        self.line_map = line_map
        self.intents: list[Intent] = []
        self.diagnostics: list[Diagnostic] = []
        # the functions and top-level classes a call may run, by name (`pydefinitions`; see `Instance`)
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        self.batch_functions: set[str] = set()
        context = context if context is not None else Context()
        self.module_env: dict[str, object] = {name: held_value(value) for name, value in context.values}
        self.bound_inputs: dict[str, str] = dict(context.inputs)  # job parameters given to this file
        self.inputs_read: set[str] = set()  # job inputs the code reads (see Links.inputs)
        # placeholder -> the job inputs it stands for (an unbound widget, a field of
        # a JSON widget): see `pyinputs.name_inputs`
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
        self._registers_widgets = False  # the source names `widgets.`: see `_widget_default`
        self._feature_clients: set[str] = set()  # names holding a feature store client (see `pywriters`)
        self._read_terminals: set[int] = set()  # ids of the calls read as terminals (see `unread`)
        # lines of calls (or of the calls of helpers) that run SQL in another database: nothing unread there
        self._elsewhere_lines: set[int] = set()
        self._ends_at: ast.stmt | None = None  # the statement every run ends at (`_run_ends`)
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
        # id of an expression -> (it, its nodes in `walk`'s order): `_calls` and `reads`
        # walk the same expressions (an assignment's value is read for its calls, then
        # for the tables it reads), each once; the node is kept so its id stays its own
        self._walks: dict[int, tuple[ast.AST, list[ast.AST]]] = {}
        # id of a chain -> (it, its first name, the steps it writes after that name): see `flatten`
        self._chains: dict[int, tuple[ast.expr, ast.Name | None, tuple[Step, ...]]] = {}
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
        self.alternatives = AlternativeReader(self)  # a write read once per value its names hold (`pyalternatives`)
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
        defined = module_definitions(tree, self._own_lines, self._foreign_defs)  # (`pydefinitions`)
        self.functions, self._parameter_names = defined.functions, defined.parameters
        self.classes, self._top_functions = defined.classes, defined.top_functions
        self.mutated_names = changed_in_place(tree, self.source)
        # helpers: functions that may write, or call a helper (a few rounds deep)
        for _ in range(MAX_HELPER_DEPTH):
            found = {name for name, fn in self.functions.items() if self._may_hold_terminal(fn)}
            self._terminal_lines.renew()  # the prefilter now also looks for calls of the helpers
            if found == self._helpers:
                break
            self._helpers = found
        widget_defaults(self.source, self.widget_defaults)
        self._registers_widgets = "widgets." in self.source
        if found_at(MAY_NAME_SESSION_SQL, self.source, "sql", "."):  # tried where `sql` stands (`words`)
            self._sql_names = session_sql_names(tree)
            self._terminal_lines.renew()  # the prefilter now also looks for calls of those names
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
        end = _run_ends(tree.body, self._own_lines)
        self._ends_at = end
        self.walker.block(tree.body if end is None else tree.body[: tree.body.index(end) + 1], scope, top_level=True)
        if end is not None:  # notebook SQL cells after the end never run either
            self.sql_cells = [c for c in self.sql_cells if c.line <= (end.end_lineno or end.lineno)]
        self._flush_sql(None)
        self.walker.drop_definition_intents()
        self.intents = self.guards.settled(self.intents)
        for call, why in self.sql_calls.client_doubts():  # once each, however often a helper is read
            self.diagnostics.append(Diagnostic(UNRESOLVED_TABLE, self.sites.loc(call), why))
        if self.input_params:
            name_inputs(self.intents, self.diagnostics, self.input_params, self._parameter_names, tree, self.source)
        self._say_unread_writes(tree)
        if might_define_jobs(self.source):  # `w.jobs.create(...)`, `deploy(job_json)`
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

        end = self._ends_at
        for node, message in unread_writes(tree, self._own_lines, lines_of, marked, self._read_terminals, self.source):
            never = next((why for a, b, why in self.walker.not_run if a <= node.lineno <= b), None)
            if never is not None:  # code Python never runs (see `Walker.not_run`)
                message = f"this write never runs: {never}; it is not checked"
                self.diagnostics.append(Diagnostic(UNRESOLVED_TABLE, self.sites.loc(node), message, "info"))
                continue
            if end is not None and node.lineno > (end.end_lineno or end.lineno):
                line = self.sites.loc(end).line
                message = (
                    f"this write never runs: every run ends at line {line} "
                    f"(`{self.sites.one_line_source(end) or 'exit'}`) before it; it is not checked"
                )
                self.diagnostics.append(Diagnostic(UNRESOLVED_TABLE, self.sites.loc(node), message, "info"))
                continue
            self.diagnostics.append(Diagnostic(UNRESOLVED_TABLE, self.sites.loc(node), message))

    def _with_foreign_helpers(self) -> ast.Module | None:
        """The file's tree with the foreign helpers' definitions after its own code
        (`pyforeign`), its source, lines and sites grown by them; None (the file
        alone) when there are none or they do not parse with it."""
        pasted = paste_helpers(self.source, self._foreign, self._scopes, self.memo)
        if pasted is None:
            return None
        self.source = pasted.source
        self._own_lines = pasted.own_lines  # the foreign definitions start after these
        self.sites = SourceSites(self.path, pasted.source, self.line_map, self._own_lines, pasted.spans)
        self._homes = pasted.homes
        self._foreign_defs.update(pasted.definitions)
        return pasted.tree

    def walked(self, node: ast.AST) -> list[ast.AST]:
        """`walk(node)`, worked out once per node of the file."""
        known = self._walks.get(id(node))
        if known is None:
            known = self._walks[id(node)] = (node, _walk(node))
        return known[1]

    def _widget_default(self, call: ast.Call, scope: Scope) -> None:
        """`dbutils.widgets.text(key, value)` where the walk knows both (a loop over a
        literal dict of widgets and their defaults): the widget's default from here
        on, as a literal one (`pyinputs.widget_defaults`) is; one a run gives or an
        empty one binds nothing."""
        name, default = argument_at(call, 0, "name"), argument_at(call, 1, "defaultValue")
        if name is None or default is None:
            return
        key, value = self.string(name, scope), self.string(default, scope)
        if any(s.params or s.unknown or s.value is not TEXT for s in (key, value)):
            return  # (a number, one of several texts, a part only a run gives)
        if key.text.strip() and value.text.strip() and "{" not in value.text:
            self.widget_defaults.setdefault(key.text.strip(), value.text.strip())

    def _may_hold_terminal(self, node: ast.expr) -> bool:
        """False when no name of a call of interest occurs on the expression's lines
        (`pyprefilter`): most expressions of a job are then skipped without walking them."""
        if self._terminal_lines.lines is None:
            # a helper of an imported module's namespace (`pkg/io.py::io.save`) is called as `io.save`
            extra = {h.rsplit(SCOPED, 1)[-1] for h in self._helpers} | self._sql_names | self._client_methods
            self._terminal_lines.scan(self.source, extra)
        return self._terminal_lines.holds(node)

    # -- values and chains -----------------------------------------------------------

    def string(self, node: ast.expr | None, scope: Scope) -> Str:
        """The text an expression holds in `scope`, `{name}` for the parts only a run
        knows (see `ValueResolver.string`)."""
        return self.values.string(node, scope)

    def flatten(self, node: ast.expr, scope: Scope) -> list[Step]:
        """`a.b(1).c` -> steps a, b(1), c; variables holding chains are spliced in.

        The steps the expression itself writes are worked out once per node (a
        terminal's chain is flattened where its calls are found and again where
        it is read); only its first name's value is looked up at each call."""
        known = self._chains.get(id(node))
        if known is None:
            known = self._chains[id(node)] = (node, *_written_steps(node))
        _, root, tail = known
        if root is None:
            return list(tail)
        held = scope.env.get(root.id)
        if isinstance(held, Chain):
            return [*held.steps, *tail]
        return [Step(root.id, None, root), *tail]

    def reads(self, node: ast.expr | None, scope: Scope) -> set[TableRef]:
        """Tables a DataFrame expression reads (for "insert reading target")."""
        found: set[TableRef] = set()
        if node is None:
            return found
        for sub in self.walked(node):
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
        if self._registers_widgets and type(expr) is ast.Call and _last_two(expr) in _WIDGET_MAKERS:
            self._widget_default(expr, scope)
        if not self._may_hold_terminal(expr) and not (self._helpers and self._registry_of().may_call(expr)):
            return
        if self.guards.absent and _runs_again(self.walked(expr)):
            # a lambda's or a comprehension's calls may run again once the first has
            # created the table: none of its writes is a first-run write
            with self.guards.inside(NONE_ABSENT):
                self._calls(expr, scope)
            return
        seen: set[int] = set()
        pooled = self.pools.pooled(expr, scope)
        if self.batch_functions:  # `foreachBatch(lambda df, i: upsert(df))`: the body runs per batch, not here
            pooled = pooled | _batch_lambda_calls(self.walked(expr))
        outer = scope
        if self._lambda_source is not self.source:  # once a source (helpers pasted make another)
            self._lambda_source, self._lambdas = self.source, "lambda" in self.source
        shadowed = _lambda_scopes(self.walked(expr), scope) if self._lambdas else {}
        for node in self.walked(expr):
            if not isinstance(node, ast.Call) or id(node) in pooled:
                continue
            scope = shadowed.get(id(node), outer)  # in a lambda: its parameters hide other names
            named = _last_two(node)  # (once for the three names below)
            if named == _NOTEBOOK_RUN and type(node.func.value) is ast.Attribute:  # type: ignore[attr-defined]
                self.walker.notebook_run(node, scope)
                continue
            if named == NOTEBOOK_EXIT:
                self.walker.notebook_exit(node, scope)
                continue
            if named == TASK_VALUES_SET:
                self.walker.task_value_set(node, scope)
                continue
            if self._feature_clients and is_feature_table_call(node, self._feature_clients):
                self.writers.feature_table(node, scope)
                continue
            if isinstance(node.func, ast.Name) and node.func.id in self._sql_names:
                self._guarded(node, self.alternatives.read, as_session_sql(node), scope)
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
                method = method_of_unknown_state(node, scope, self.classes, self._helpers) if found is None else None
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
                self._guarded(node, self.alternatives.read, node, scope)

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
            return
        if writer < 0 and last.name in _WRITER_ONLY and _not_followed(node.func, scope):
            self.diagnostics.append(
                Diagnostic(
                    UNRESOLVED_TABLE,
                    self.located(scope.site or self.sites.loc(node), scope, node),
                    f"`{last.name}` writes through a DataFrame writer delta-lint does not follow here (it comes "
                    "from a conditional expression or a function's return, not a `df.write...` chain): "
                    "this write is not checked",
                )
            )

    # -- emitting --------------------------------------------------------------------------

    def _ref(self, target: Str, path: bool = False) -> tuple[TableRef, bool]:
        """The table (or location) a write names, and whether it is named well enough to
        be paired: wholly known, known up to named parameters and inputs, or known in
        part beside values only a run knows (`pyvalues.named_in_part`), as the SQL front
        end reads the same name in a statement's text."""
        named = not target.unknown or named_in_part(target.text)
        if path:
            text = target.text.rstrip("/")
            return TableRef("delta:" + text, is_path=True), named
        tpl = apply_templates(target.text)
        ref, resolved = table_ref(split_name(tpl.text), self.session, tpl)
        return ref, resolved and named and bool(target.text.strip())

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
        for each in self.session.per_choice(intent):  # after a `USE` of one of several names
            self.intents.append(self.guards.mark(each))

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
            self.intents.extend(each for intent in intents for each in self.session.per_choice(intent))
            self.diagnostics.extend(diags)


def _written_steps(node: ast.expr) -> tuple[ast.Name | None, tuple[Step, ...]]:
    """The steps of a chain as written (`a.b(1).c`: b(1), c after `a`): its first
    name, whose value may be a chain to splice in (see `flatten`), or None with
    every step when it starts with a call of a name or another expression."""
    cur = node
    pending: list[Step] = []
    root: ast.Name | None = None
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
            root = cur
            break
        else:
            pending.append(Step("<expr>", None, cur))
            break
    return root, tuple(reversed(pending))


def _names_pandas_target(node: ast.Call) -> bool:
    """Whether a `to_table`/`to_delta` call names its target, as the pandas API on
    Spark's must (a first argument, or `name=`/`path=`): pyarrow's `dataset.to_table()`
    reads a dataset and names none."""
    return bool(node.args) or any(k.arg in ("name", "path") for k in node.keywords)


# what shows a file uses the pandas API on Spark, whose `to_table(name)` writes a
# table: DuckDB's relations have a `to_table(name)` of their own (`to_delta` is the
# pandas API on Spark's alone)
_PANDAS_ON_SPARK = re.compile(r"\bpyspark\.pandas\b|\bpandas_api\b|\bpandas_on_spark\b|\bkoalas\b")


def _runs_again(nodes: list[ast.AST]) -> bool:
    """Whether an expression (its `nodes`) holds a lambda or a comprehension, whose
    calls may run more than once (see `pyguards`)."""
    return any(isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) for n in nodes)


def _lambda_scopes(nodes: list[ast.AST], scope: Scope) -> dict[int, Scope]:
    """id of each node inside a lambda of an expression (its `nodes`) -> the scope
    its calls are read in: `scope` with the lambda's parameters (and those of the
    lambdas around it) bound to named placeholders, as a function's are where it is
    read as written. `lambda TABLE: spark.sql(f"... {TABLE}")` never reads a module's
    `TABLE`."""
    lambdas = sorted((n for n in nodes if type(n) is ast.Lambda), key=lambda n: (n.lineno, n.col_offset))
    out: dict[int, Scope] = {}
    for lam in lambdas:  # outer ones first: an inner one starts from its outer one's scope
        given = lam.args  # type: ignore[attr-defined]
        names = [a.arg for a in [*given.posonlyargs, *given.args, *given.kwonlyargs, given.vararg, given.kwarg] if a]
        around = out.get(id(lam), scope)
        inner = replace(around, env={**around.env, **{n: param_str(n) for n in names}})
        for node in ast.walk(lam.body):  # type: ignore[attr-defined]
            out[id(node)] = inner
    return out


def _batch_lambda_calls(nodes: list[ast.AST]) -> set[int]:
    """The calls inside a lambda handed to `foreachBatch` in an expression (its
    `nodes`) that the batch reader reads (see `pywriters.batch_calls`): they run
    once per micro-batch, not where the lambda is written."""
    found: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "foreachBatch":
            for arg in [*node.args[:1], *(k.value for k in node.keywords if k.arg == "func")]:
                if isinstance(arg, ast.Lambda):
                    found |= {id(n) for n in batch_calls(arg)}
    return found


# methods only a DataFrame writer has: a call of one is a write whatever its receiver
_WRITER_ONLY = frozenset({"saveAsTable", "insertInto"})


def _not_followed(func: ast.expr, scope: Scope) -> bool:
    """Whether a writer method's receiver is a value the reader holds but does not
    follow as a writer: a conditional expression, a call's return, or a name bound
    here to such a value. A name bound nowhere here (a function's parameter read
    before its calls bind it, a global of another file) is quiet: its calls tell."""
    if not isinstance(func, ast.Attribute):
        return False
    receiver = func.value
    if isinstance(receiver, (ast.IfExp, ast.BoolOp, ast.Call)):
        return True
    return isinstance(receiver, ast.Name) and scope.env.get(receiver.id) is not None


def _run_ends(body: list[ast.stmt], own_lines: int) -> ast.stmt | None:
    """The first top-level statement of the file's own code after which no line of it
    runs: an unconditional `dbutils.notebook.exit(...)`, `sys.exit(...)`, `exit()`,
    or `raise`. A notebook that ends early in every run (a cell that retired the
    job's old code) writes nothing after it; one that ends only on a condition
    (`if done: dbutils.notebook.exit(...)`) is read whole."""
    for stmt in body:
        if stmt.lineno > own_lines:
            return None
        if isinstance(stmt, ast.Raise):
            return stmt
        if isinstance(stmt, ast.Expr) and ends_run(stmt.value):  # see `brains.EXIT_CALLS`
            return stmt
    return None


# `dbutils.notebook.run(...)`: its owner an attribute (see `Walker.notebook_run`)
_NOTEBOOK_RUN = ("notebook", "run")


# the calls that make a widget with a default (`dbutils.widgets.text("env", "dev")`)
_WIDGET_MAKERS = frozenset(("widgets", kind) for kind in ("text", "dropdown", "combobox", "multiselect"))


def _last_two(node: ast.Call) -> tuple[str | None, str] | None:
    """The last two dotted parts of a call's function (`dbutils.notebook.exit(x)`:
    `("notebook", "exit")`), as `brains.call_named` compares them; None for a call
    of a bare name or of another expression."""
    func = node.func
    if type(func) is not ast.Attribute:
        return None
    owner = func.value
    kind = type(owner)
    return (owner.attr if kind is ast.Attribute else owner.id if kind is ast.Name else None, func.attr)  # type: ignore[attr-defined]


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
    return analyzer.intents, diagnostics, module_links(analyzer)
