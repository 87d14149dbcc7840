"""Python front end: PySpark DataFrame / DeltaTable / spark.sql code becomes write intents.

The code is read with the stdlib `ast` module only; it is never imported or run.
Values are followed as far as they are static: string constants, f-strings,
`.format`, `%`, concatenation and `textwrap.dedent` are resolved; values that come
from `sys.argv`, argparse, `dbutils.widgets.get`, environment variables or function
parameters become named parameters (`{name}` in table names and predicates).
"""

from __future__ import annotations

import ast
import itertools
import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from delta_lint.frontend.frames import FrameReader, FrameRows
from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.pools import POOL_ITEM, PoolCall, Pools, first_parameter, literal_items, may_pool
from delta_lint.frontend.pysites import LineMap, SourceSites
from delta_lint.frontend.pysource import parse_module
from delta_lint.frontend.pyspark_api import SIGNATURES, TERMINALS, argument, options
from delta_lint.frontend.pyvalues import (
    MAX_ALTERNATIVES,
    Chain,
    DataFrame,
    OneOf,
    Scope,
    Step,
    Str,
    UnknownState,
    argument_at,
    exported_value,
    held_value,
    loop_names,
    param_str,
)
from delta_lint.frontend.sdkjobs import sdk_jobs
from delta_lint.frontend.sql import (
    PARSE_ERROR,
    TXN_KINDS,
    UNRESOLVED_TABLE,
    Session,
    analyze_sql,
    condition_info,
    read_tables,
    split_name,
    table_ref,
)
from delta_lint.frontend.sqlcall import bound_statement
from delta_lint.frontend.sqltext import apply_templates
from delta_lint.frontend.values import lattice
from delta_lint.frontend.values.brains import NOTEBOOK_EXIT, TASK_VALUES_SET, call_named
from delta_lint.frontend.values.budget import Budget
from delta_lint.frontend.values.changes import changed_in_place
from delta_lint.frontend.values.evaluator import Module
from delta_lint.frontend.values.resolver import (
    MAX_HELPER_DEPTH,
    ValueResolver,
)
from delta_lint.frontend.values.sources import is_value_function, module_source, number_text
from delta_lint.frontend.values.walker import Walker, called_name, is_config_class
from delta_lint.frontend.values.walker import walk as _walk
from delta_lint.model import (
    DYNAMIC_SQL,
    SCOPED,
    Context,
    Diagnostic,
    Flag,
    Intent,
    Kind,
    Links,
    Location,
    TableDDL,
    TableRef,
    digest,
    source_words,
)
from delta_lint.predicates import OPAQUE, WHOLE, Constraint, Region


@dataclass
class SqlCell:
    """A SQL cell of a notebook, analysed in document order with the Python code."""

    line: int  # first line, in the analysed source's numbering
    text: str
    line_map: LineMap


# see `_notebook_run`, `_notebook_exit`, `_task_value_set`, `_feature_table`
_EXTRA_WORDS = {"notebook", "taskValues", "create_table", "write_table"}
_TERMINAL_WORD = re.compile(r"\b(?:" + "|".join(sorted(TERMINALS | _EXTRA_WORDS)) + r")\b")
_NEWLINE = re.compile(r"\n")


class PythonAnalyzer:
    """Turns one module's writes into intents: its `Walker` reads the statements in
    order for the values names hold and hands every expression back to `_calls`;
    its `ValueResolver` tells what one expression holds."""

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
        self.exits: dict[str, object] = dict(context.exits)  # what the notebooks it runs hand back
        # (task key, key) -> the values the project sets it to (see `Context.task_values`)
        self.task_values: dict[tuple[str, str], tuple[object, ...]] = {
            (task, key): values for task, key, values in context.task_values
        }
        self.task_value_reads: set[tuple[str, str]] = set()  # see `Links.task_value_reads`
        self.widget_defaults: dict[str, str] = {}
        self._awaited: set[int] = set()  # ids of streaming `start()`/`toTable()` calls the code awaits
        self._feature_clients: set[str] = set()  # names holding a feature store client (see `_feature_table`)
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
        self.value_functions: dict[str, tuple[Module, str]] = _value_modules(context.value_functions, self.memo)
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
        if _MAY_NAME_SESSION_SQL.search(self.source):
            self._sql_names = _session_sql_names(tree)
            self._terminal_lines = None  # the prefilter now also looks for calls of those names
        if "awaitTermination" in self.source:
            self._awaited = _awaited_queries(tree)
        if "FeatureStoreClient" in self.source or "FeatureEngineeringClient" in self.source:
            self._feature_clients = _feature_clients(tree)
        if "foreachBatch" in self.source:
            for node in _walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "foreachBatch"
                ):
                    self.batch_functions |= self._function_names(node.args[0] if node.args else None)
        scope = Scope(env=self.module_env)
        self.walker.block(tree.body, scope, top_level=True)
        self._flush_sql(None)
        self.walker.drop_definition_intents()
        if self.input_params:
            self._name_inputs(tree)
        if ".jobs" in self.source:  # `w.jobs.create(...)`: jobs made with the SDK
            seen = len(self.budget.spent)
            self.job_definitions.extend(sdk_jobs(tree, self._own_lines, self.budget, self.own_path))
            self.values._budget_spent(seen, tree)  # (where it ran out: a call of this file)

    def _name_inputs(self, tree: ast.Module) -> None:
        """A table name whose every placeholder is a job input (and no function's
        parameter of the same name) is the same table in every run given the same
        inputs: the intent keeps those inputs (`Intent.name_inputs`), which tell the
        engine whether concurrent runs of a for_each task write one table or several."""
        candidates = []
        for n, intent in enumerate(self.intents):
            names = _PLACEHOLDER.findall(intent.table.name) if intent.table is not None else []
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
        firsts: dict[int, str] = {}  # first line of each pasted definition -> its name here
        lines = parts[0].count("\n")
        definitions = self.memo.definitions
        for bound, module, text, start in self._foreign:
            if text not in definitions:  # a summary's source is checked once a run, not once per file given it
                definitions[text] = _one_definition(text)
            if definitions[text]:
                part = "\n" + text.rstrip("\n") + "\n"
                parts.append(part)
                first, last = lines + 2, lines + part.count("\n")  # its first line follows the blank one
                firsts[first] = bound
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
            if first in firsts:
                self._foreign_defs[firsts[first]] = stmt
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
            starts = [m.start() for m in _NEWLINE.finditer(self.source)]
            words = _TERMINAL_WORD
            if self._helpers or self._sql_names:
                # a helper of an imported module's namespace (`pkg/io.py::io.save`) is called as `io.save`
                extra = {h.rsplit(SCOPED, 1)[-1] for h in self._helpers} | self._sql_names
                names = sorted(re.escape(w) for w in TERMINALS | extra | _EXTRA_WORDS)
                words = re.compile(r"\b(?:" + "|".join(names) + r")\b")
            lines = self._terminal_lines = [bisect_left(starts, m.start()) + 1 for m in words.finditer(self.source)]
        first = node.lineno
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= (node.end_lineno or first)

    def _function_names(self, node: ast.expr | None) -> set[str]:
        if isinstance(node, ast.Name):
            return {node.id}
        if isinstance(node, ast.Attribute):
            return {node.attr}
        if isinstance(node, ast.Lambda):
            return {n.func.id for n in _walk(node.body) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        return set()

    # -- statements ------------------------------------------------------------

    def _feature_table(self, node: ast.Call, scope: Scope) -> None:
        """`fs.create_table(name=...)` and `fs.write_table(name=..., df=..., mode=...)`
        of a Feature Store / Feature Engineering client: feature tables are Delta
        tables; `write_table` merges on the primary keys unless `mode="overwrite"`."""
        method = node.func.attr  # type: ignore[union-attr]
        ref, resolved = self._ref(self.string(argument_at(node, 0, "name"), scope))
        if method == "create_table":
            self._emit(node, ref, resolved, Kind.CREATE, scope, subkind="feature_table")
            return
        mode = argument_at(node, 2, "mode")
        overwrite = mode is not None and self.string(mode, scope).text.lower() == "overwrite"
        kind = Kind.FULL_OVERWRITE if overwrite else Kind.MERGE
        self._emit(node, ref, resolved, kind, scope, subkind="feature_table")

    def links(self) -> Links:
        """The module's static top-level values (for files that `%run` or import it),
        the session it leaves, what it imports and which job inputs it reads."""
        exports = {}
        for name, held in self.module_env.items():
            plain = exported_value(held)
            if plain is not None and not name.startswith("__"):
                exports[name] = plain
        session = {k: v for k, v in (("catalog", self.session.catalog), ("schema", self.session.schema)) if v}
        links = Links(exports, session, list(dict.fromkeys(self.imports)), [], sorted(self.inputs_read))
        links.non_delta = sorted(self.session.non_delta)
        links.jobs = self.job_definitions
        links.notebooks = list(self.notebook_runs)
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
        if self.imports or self.line_map is not None:  # may be given helpers: what its code names
            links.names = " ".join(sorted(source_words(self._own_source)))
        imported = {bound for _, _, bound in self.imports}
        links.value_calls = sorted(self.value_calls & imported)
        links.documents = sorted(self.documents_wanted)
        for name, cls in self.classes.items():  # `Setup.schema(...)`, `Logger(...).start()` elsewhere
            methods = {f.name for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
            # a configuration class (a dataclass, a class or static method factory): its
            # objects' values, read where the importer builds them (see `_factory`)
            if cls.lineno <= self._own_lines and (methods & self._helpers or is_config_class(cls)):
                text = self.sites.segment(cls)
                if text:
                    line, shift = self.sites.start(cls)
                    decorators = self.sites.decorator_lines(cls)  # `@dataclass` makes its fields
                    links.functions[name] = "".join(d + "\n" for d in decorators) + text
                    links.function_lines[name] = (line - len(decorators), shift)
        return links

    # -- value resolution ---------------------------------------------------------

    # -- chains ----------------------------------------------------------------------

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
                    found |= read_tables(_sql_text(self.string(sub.args[0], scope)), self.session)
                elif attr in ("forName", "forPath") and len(sub.args) > 1:
                    found.add(self._ref(self.string(sub.args[1], scope), path=attr == "forPath")[0])
        return found

    _pools: Pools | None = None  # the module's thread pools, found when an expression may hand work to one

    def _calls(self, expr: ast.expr, scope: Scope) -> None:
        """Find every terminal call of interest in an expression, outermost first."""
        if not self._may_hold_terminal(expr):
            return
        seen: set[int] = set()
        if self._pools is None:  # once per module: most never make a pool, and are not walked for one
            self._pools = Pools(self._tree if self._tree is not None and may_pool(self.source) else None)
        pooled = self._pooled(expr, scope) if self._pools else set()
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
            if self._feature_clients and _feature_table_call(node, self._feature_clients):
                self._feature_table(node, scope)
                continue
            if isinstance(node.func, ast.Name) and node.func.id in self._sql_names:
                self._guarded(node, self._each_alternative, _as_session_sql(node), scope)
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
            if attribute and node.func.attr in TERMINALS and id(node) not in seen:
                steps = self.flatten(node, scope)
                for step in steps:
                    if step.call is not None:
                        seen.add(id(step.call))
                self._guarded(node, self._each_alternative, node, scope)

    def _pooled(self, expr: ast.expr, scope: Scope) -> set[int]:
        """Read each hand-out of work to a thread pool in an expression as the calls it
        makes (`_pool_call`); the ids of its nodes, which are not read again."""
        skip: set[int] = set()
        for hand_out in self._pools.calls_in(expr) if self._pools else ():
            skip.update(id(n) for n in _walk(hand_out.call))
            self._guarded(hand_out.call, self._pool_call, hand_out, scope)
        return skip

    def _pool_call(self, hand_out: PoolCall, scope: Scope) -> None:
        """What the calls a pool makes write: its function read as called with each
        item's values (one reading per item when the items are literal, else one with
        the item unknown). Those writes run at the same time as each other: they are
        marked with the pool (`Intent.pool`, where it is made) and the call they were
        read for (`pool_item`; None for a reading that stands for several calls, and
        for a write that does not depend on the call, which every call makes)."""
        for part in (hand_out.items, *hand_out.args, *(k.value for k in hand_out.keywords)):
            if part is not None:
                self._calls(part, scope)
        pool, site = self.sites.loc(hand_out.pool), f"{hand_out.call.lineno}:{hand_out.call.col_offset}"
        readings, counted = self._pool_readings(hand_out, scope)
        several = hand_out.repeated and not (counted and len(readings) == 1)  # one literal item: one call
        first_diagnostic = len(self.diagnostics)
        for bound, args, label in readings:
            local = replace(scope, env={**scope.env, **bound})
            values = [self.string(a, local) for a in args] if label is None else []
            known = label is not None or all(not v.unknown and not v.params for v in values)
            # this call: its item as far as known, or which of the literal items it is
            call = "|".join([site, *(v.text for v in values)] if label is None else [site, label])
            item = None if several and not known else call
            every = None if several else site  # a write the same in every call
            # a table named by the item (`bronze_{t}`) is a table of its own in each call
            per_item = {f"{{{p}}}" for v in values for p in v.params} if item is None else set()
            before, kept = len(self.intents), set(self.walker.kept_in_place)
            self._pool_function(hand_out, args, local)
            for n in [*range(before, len(self.intents)), *(self.walker.kept_in_place - kept)]:
                x = self.intents[n]
                own = per_item and x.table is not None and per_item & set(_braced(x.table.name))
                which = call if own else item if n >= before else every
                self.intents[n] = replace(x, pool=pool, pool_item=which)
        # what the readings could not read is said once, however many items were read
        self.diagnostics[first_diagnostic:] = list(dict.fromkeys(self.diagnostics[first_diagnostic:]))

    def _pool_readings(
        self, hand_out: PoolCall, scope: Scope
    ) -> tuple[list[tuple[dict[str, object], list[ast.expr], str | None]], bool]:
        """(names bound, the arguments of the call, which literal item it is when that
        is not its text) for each reading of a hand-out, and whether the readings are
        its calls one by one (its items are literal): `map` once per literal item (a
        string, a dict; `starmap` each item unpacked), else once with the item unknown;
        a `submit` in a comprehension once per literal item of its one loop, else with
        the loop's names unknown."""
        call = hand_out.call
        if hand_out.items is not None:
            first = (
                hand_out.items.elts[0]
                if isinstance(hand_out.items, (ast.List, ast.Tuple)) and hand_out.items.elts
                else None
            )
            width = len(first.elts) if hand_out.unpack and isinstance(first, (ast.List, ast.Tuple)) else 1
            rows = self.values._rows(hand_out.items, scope, width) if not hand_out.unpack or first is not None else None
            names = [f"{POOL_ITEM}{i}" for i in range(width)]
            args: list[ast.expr] = [ast.copy_location(ast.Name(id=n, ctx=ast.Load()), call) for n in names]
            if rows is not None:
                return [(dict(zip(names, row)), args, _row_label(n, row)) for n, row in enumerate(rows)], True
            if hand_out.unpack:
                return [({}, [], None)], False  # each parameter a value only a run knows
            elements = literal_items(hand_out.items, self._tree, self.mutated_names)
            if elements is not None:
                return [
                    ({names[0]: self.values._value(e, scope, "item")}, args, f"#{n}") for n, e in enumerate(elements)
                ], True
            return [({names[0]: param_str(first_parameter(hand_out.fn, self.functions))}, args, None)], False
        args = list(hand_out.args)
        if len(hand_out.loops) == 1:
            loop = hand_out.loops[0]
            names = loop_names(loop.target)
            rows = self.values._rows(loop.iter, scope, len(names)) if names and not loop.ifs else None
            if rows is not None:
                return [(dict(zip(names, row)), args, _row_label(n, row)) for n, row in enumerate(rows)], True
            elements = literal_items(loop.iter, self._tree, self.mutated_names) if len(names) == 1 else None
            if elements is not None:
                return [
                    ({names[0]: self.values._value(e, scope, names[0])}, args, f"#{n}") for n, e in enumerate(elements)
                ], True
        unknown = {n: param_str(n) for loop in hand_out.loops for n in loop_names(loop.target)}
        return [(unknown, args, None)], not hand_out.repeated  # a `for` around it repeats it

    def _pool_function(self, hand_out: PoolCall, args: list[ast.expr], scope: Scope) -> None:
        """Read one call of a pool's function with these arguments: a lambda's body with
        its parameters bound, a `partial`'s function with its own arguments first, any
        other function as a call written where the pool hands the work out."""
        fn, keywords = hand_out.fn, list(hand_out.keywords)
        if (
            isinstance(fn, ast.Call)
            and called_name(fn) == "partial"
            or (isinstance(fn, ast.Call) and isinstance(fn.func, ast.Attribute) and fn.func.attr == "partial")
        ):
            if not fn.args:
                return
            args, keywords = [*fn.args[1:], *args], [*fn.keywords, *keywords]
            fn = fn.args[0]
        if isinstance(fn, ast.Lambda):
            params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            env = {**scope.env, **{p: self.string(a, scope) for p, a in zip(params, args)}}
            self._calls(fn.body, replace(scope, env=env, site=scope.site or self.sites.loc(hand_out.call)))
            return
        call = ast.Call(func=fn, args=args, keywords=keywords)
        self._calls(ast.copy_location(call, hand_out.call), scope)

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
                    if _alternatives(held):
                        found.append((arg, held))  # type: ignore[arg-type]
            elif kind is ast.JoinedStr:
                todo.extend(v.value for v in arg.values if type(v) is ast.FormattedValue)  # type: ignore[attr-defined]
            elif kind is ast.BinOp:
                todo += [arg.left, arg.right]  # type: ignore[attr-defined]
        return found

    def _method_of_unknown_state(self, call: ast.Call, scope: Scope) -> ast.FunctionDef | None:
        """`w.save("main.x.y", df)` on `w = Store(spark, load())` (`UnknownState`): the
        method that may write, read at the call with its own arguments bound and no
        object (its `self.x` reads unknown; a write that reads none of its arguments
        stays where it is written)."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        held = scope.env.get(func.value.id)
        if not isinstance(held, UnknownState) or held.cls not in self.classes:
            return None
        method = next(
            (f for f in self.classes[held.cls].body if isinstance(f, ast.FunctionDef) and f.name == func.attr), None
        )
        return method if method is not None and method.name in self._helpers else None

    def _each_alternative(self, node: ast.Call, scope: Scope) -> None:
        """Read a write once per value its names may hold (`OneOf`): a table that is one
        of several names is one intent per name, each flagged `one_of`; what every
        alternative agrees on is one intent, unflagged. Past `MAX_ALTERNATIVES`
        combinations the names stay unknown, as any unknown value."""
        env = scope.env
        names = (
            sorted({n.id for n in _walk(node) if type(n) is ast.Name and _alternatives(env.get(n.id))})
            if any(type(v) in _JOINED for v in env.values())
            else []
        )
        calls = self._calls_with_alternatives(node, scope)
        choices = [_alternatives(scope.env[n]) for n in names] + [_alternatives(held) for _, held in calls]
        combos = list(itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES + 1))
        if not (names or calls) or len(combos) > MAX_ALTERNATIVES:
            self._terminal(self.flatten(node, scope), node, scope)
            return
        saved = {n: scope.env[n] for n in names}
        session = dict(self.session.__dict__)
        runs: list[tuple[list[Intent], list[Diagnostic]]] = []
        states: list[dict] = []
        try:
            for combo in combos:
                scope.env.update(zip(names, combo))
                self.values._fixed.update((id(call), value) for (call, _), value in zip(calls, combo[len(names) :]))
                self.session.__dict__.update(session)
                first_intent, first_diag = len(self.intents), len(self.diagnostics)
                self._terminal(self.flatten(node, scope), node, scope)
                runs.append((self.intents[first_intent:], self.diagnostics[first_diag:]))
                del self.intents[first_intent:], self.diagnostics[first_diag:]
                states.append(dict(self.session.__dict__))
        finally:
            for call, _ in calls:
                self.values._fixed.pop(id(call), None)
            scope.env.update(saved)
        # a USE/SET whose value depends on the branch: the session is not known to change
        self.session.__dict__.update(states[0] if all(st == states[0] for st in states) else session)
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
        self.diagnostics.extend(dict.fromkeys(_unparsed_alternatives(runs)))

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
        names = [s.name for s in steps]
        last = steps[-1]
        warehouse = _warehouse_statement(last.name, node)
        if last.name == "sql" or warehouse is not None:
            if not node.args and not node.keywords:
                return
            arg = warehouse or argument(node, "SparkSession", "sql", "sqlQuery")
            if arg is None:
                return
            sql = self.string(arg, scope)
            if warehouse is None:  # what `spark.sql(q, args, **kwargs)` binds in its statement
                sql = bound_statement(
                    sql, node, lambda value: self.string(value, scope), lambda held: self._held_container(held, scope)
                )
            loc = scope.site or self.sites.loc(node)
            if _WHOLLY_PLACEHOLDER.fullmatch(sql.text):
                shown = sql.text.strip()
                self.diagnostics.append(
                    Diagnostic(
                        DYNAMIC_SQL,
                        loc,
                        f"dynamic SQL: the statement is `{shown}`, a value delta-lint cannot know; its writes are not checked",
                        "info",
                    )
                )
                return
            session = self.session
            if warehouse is not None:  # a warehouse's session, not Spark's: `catalog=`/`schema=` of the call
                session = Session(non_delta=self.session.non_delta)
                for kind in ("catalog", "schema"):
                    value = next((k.value for k in node.keywords if k.arg == kind), None)
                    if value is not None:
                        session.use([self.string(value, scope).text.lower()], kind)
            intents, diags = analyze_sql(
                _sql_text(sql),
                self.path,
                session,
                fixed=loc,
                extra_params=tuple(p for p in sql.params),
                memo=self.memo,
            )
            if session is not self.session:
                self.session.non_delta = session.non_delta
            for i in intents:
                self._add(i, scope, node)
            self.diagnostics.extend(diags)
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
            self._stream_read(steps, node, scope)
            return
        if writer >= 0 and names[writer] == "writeStream" and last.name in ("toTable", "start", "table"):
            self._stream_write(steps, writer, node, scope)
            return
        if writer >= 0 and names[writer] == "writeTo":
            self._write_to(steps, node, scope)
            return
        if writer >= 0 and names[writer] == "write" and last.name in ("saveAsTable", "save", "insertInto"):
            self._batch_write(steps, writer, node, scope)
            return
        if "DeltaTable" in names or "forName" in names or "forPath" in names:
            self._delta_table(steps, node, scope)

    def _held_container(self, node: ast.expr, scope: Scope) -> object:
        """The dict or list a name holds, unless the code changes it in place."""
        if isinstance(node, ast.Name) and node.id not in self.mutated_names:
            return scope.env.get(node.id)
        return None

    def _options(self, steps: list[Step], scope: Scope) -> dict[str, Str]:
        opts: dict[str, Str] = {}
        for step in steps:
            if step.call is None:
                continue
            if step.name == "option" and len(step.call.args) >= 2:
                opts[self.string(step.call.args[0], scope).text.lower()] = self.string(step.call.args[1], scope)
            elif step.name == "options":
                for kw in step.call.keywords:
                    if kw.arg:
                        opts[kw.arg.lower()] = self.string(kw.value, scope)
                for arg in step.call.args:
                    if isinstance(arg, ast.Dict):
                        for k, v in zip(arg.keys, arg.values):
                            if k is not None:
                                opts[self.string(k, scope).text.lower()] = self.string(v, scope)
        return opts

    def _arg(self, steps: list[Step], name: str, scope: Scope, index: int = 0, kw: str | None = None) -> Str | None:
        for step in reversed(steps):
            if step.name == name and step.call is not None:
                value = _argument(step.call, index, kw)
                return self.string(value, scope) if value is not None else Str("")
        return None

    def _cols(self, steps: list[Step], name: str, scope: Scope) -> tuple[str, ...]:
        for step in reversed(steps):
            if step.name == name and step.call is not None:
                args = step.call.args
                if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
                    args = args[0].elts
                return tuple(self.string(a, scope).text.lower() for a in args)
        return ()

    def _batch_write(self, steps: list[Step], writer: int, node: ast.Call, scope: Scope) -> None:
        source_steps, steps = steps[: writer + 1], steps[writer:]
        last = steps[-1]
        fmt = self._arg(steps, "format", scope)
        # `saveAsTable` and `save` take format, mode, partitionBy and options as keywords too
        keywords = last.name != "insertInto"
        fmt_kw = argument(node, "DataFrameWriter", last.name, "format") if keywords else None
        if fmt_kw is not None:
            fmt = self.string(fmt_kw, scope)
        if fmt is not None and fmt.text.lower() not in ("delta", "") and not fmt.unknown:
            if last.name == "saveAsTable":  # creates (or writes) a table of another format
                ref, resolved = self._ref(self.string(argument(node, "DataFrameWriter", "saveAsTable", "name"), scope))
                if resolved:
                    self.session.non_delta = self.session.non_delta | {ref.name}
            return
        mode_str = self._arg(steps, "mode", scope)
        mode_kw = argument(node, "DataFrameWriter", last.name, "mode") if keywords else None
        if mode_kw is not None:
            mode_str = self.string(mode_kw, scope)
        mode = mode_str.text.lower() if mode_str else None
        opts = self._options(steps, scope)
        partition_by = self._cols(steps, "partitionBy", scope)
        cluster_by = self._cols(steps, "clusterBy", scope)
        if keywords:
            opts.update({k: self.string(v, scope) for k, v in options(node, "DataFrameWriter", last.name).items()})
            partition_kw = argument(node, "DataFrameWriter", last.name, "partitionBy")
            if partition_kw is not None:
                elts = partition_kw.elts if isinstance(partition_kw, (ast.List, ast.Tuple)) else [partition_kw]
                partition_by = tuple(self.string(e, scope).text.lower() for e in elts)
        if last.name == "insertInto":
            target = self.string(argument(node, "DataFrameWriter", "insertInto", "tableName"), scope)
            ref, resolved = self._ref(target)
            overwrite = argument(node, "DataFrameWriter", "insertInto", "overwrite")
            mode = (
                "overwrite" if isinstance(overwrite, ast.Constant) and overwrite.value is True else (mode or "append")
            )
        elif last.name == "saveAsTable":
            ref, resolved = self._ref(self.string(argument(node, "DataFrameWriter", "saveAsTable", "name"), scope))
        else:
            path_node = argument(node, "DataFrameWriter", "save", "path")
            target = self.string(path_node, scope) if path_node is not None else opts.get("path")
            if target is None:
                return
            ref, resolved = self._ref(target, path=True)
        source = self._source_reads(source_steps, "write", scope)
        # `insertInto` matches columns by position, the others by name: only those read the rows' columns
        rows = self._source_rows(source_steps, "write", scope) if last.name != "insertInto" else ()
        self._write(
            ref, resolved, mode or "errorifexists", opts, partition_by, cluster_by, source, node, scope, rows=rows
        )

    def _write(
        self,
        ref: TableRef,
        resolved: bool,
        mode: str,
        opts: dict[str, Str],
        partition_by: tuple[str, ...],
        cluster_by: tuple[str, ...],
        source_reads: set[TableRef],
        node: ast.Call,
        scope: Scope,
        overwrite_condition: ast.expr | None = None,
        rows: FrameRows = (),
    ) -> None:
        """One DataFrame write; `rows`: what its rows hold in some columns (`frames`), which
        confines an append to the partitions they name, and a dynamic partition overwrite."""
        flags: set[Flag] = set()
        predicate_sql = None
        region = None
        kind: Kind
        params: tuple[str, ...] = ()
        declared = None
        if _true(opts.get("mergeschema")) or _true(opts.get("overwriteschema")) or self.session.auto_merge:
            flags.add(Flag.SCHEMA_EVOLUTION)
        reads_target = ref in source_reads
        if reads_target:
            flags.add(Flag.READS_TARGET)
        if mode == "append":
            kind = Kind.INSERT_READING_TARGET if reads_target else Kind.BLIND_APPEND
            region = WHOLE if reads_target else None
            if rows and not reads_target:
                region = _rows_region(rows)
                flags.add(Flag.STATIC_PARTITION)  # the rows' own values say which partitions they land in
        elif mode == "overwrite":
            replace_where = opts.get("replacewhere")
            if replace_where is not None or overwrite_condition is not None:
                kind = Kind.REPLACE_WHERE
                cond_text = (
                    _sql_text(replace_where)
                    if replace_where is not None
                    else self._condition_sql(overwrite_condition, scope)
                )
                info = condition_info(cond_text, {ref.name.split(".")[-1]}, True, self.session, ref, self.memo)
                predicate_sql, region, params = info.sql, info.region, info.params
                flags |= info.flags
                if replace_where is not None:
                    params = tuple(dict.fromkeys(params + replace_where.params))
            elif (opts.get("partitionoverwritemode") and opts["partitionoverwritemode"].text.lower() == "dynamic") or (
                self.session.dynamic_overwrite and opts.get("partitionoverwritemode") is None
            ):
                # it replaces the partitions its rows hold (all of them, as far as they are not known)
                kind, region = Kind.DYNAMIC_OVERWRITE, _rows_region(rows) if rows else OPAQUE
            else:
                kind = Kind.FULL_OVERWRITE
                if _true(opts.get("overwriteschema")) or partition_by or cluster_by:
                    declared = TableDDL(partitioned_by=partition_by, clustered_by=cluster_by)
        elif mode == "ignore" or mode in ("error", "errorifexists", "default"):
            kind = Kind.CREATE
            declared = TableDDL(partitioned_by=partition_by, clustered_by=cluster_by)
            if mode == "ignore":
                flags.add(Flag.IF_NOT_EXISTS)
        else:
            kind = Kind.BLIND_APPEND
        txn = opts.get("txnappid")
        self._emit(
            node,
            ref,
            resolved,
            kind,
            scope,
            flags=flags,
            predicate_sql=predicate_sql,
            region=region,
            params=params,
            declared=declared,
            txn_app_id=txn.text if txn else None,
        )

    def _source_rows(self, steps: list[Step], marker: str, scope: Scope) -> FrameRows:
        """What the rows of the DataFrame a write writes hold, as far as `frames` knows."""
        for i, step in enumerate(steps):
            if step.name == marker and i > 0:
                return FrameReader(scope.env.get, lambda value: self.string(value, scope)).rows(steps[i - 1].node)
        return ()

    def _source_reads(self, steps: list[Step], marker: str, scope: Scope) -> set[TableRef]:
        for i, step in enumerate(steps):
            if step.name == marker and i > 0:
                return self.reads(steps[i - 1].node, scope)
        return set()

    def _write_to(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        last = steps[-1]
        target = self._arg(steps, "writeTo", scope)
        if target is None:
            return
        using = self._arg(steps, "using", scope)
        if using is not None and using.text.lower() not in ("delta", "") and not using.unknown:
            return
        ref, resolved = self._ref(target)
        opts = self._options(steps, scope)
        partition_by = self._cols(steps, "partitionedBy", scope)
        cluster_by = self._cols(steps, "clusterBy", scope)
        source = self._source_reads(steps, "writeTo", scope)
        rows = self._source_rows(steps, "writeTo", scope)  # DataFrameWriterV2 matches columns by name
        name = last.name
        if name == "append":
            self._write(ref, resolved, "append", opts, partition_by, cluster_by, source, node, scope, rows=rows)
        elif name == "overwrite":
            cond = argument(node, "DataFrameWriterV2", "overwrite", "condition")
            self._write(ref, resolved, "overwrite", opts, partition_by, cluster_by, source, node, scope, cond)
        elif name == "overwritePartitions":
            opts = {**opts, "partitionoverwritemode": Str("dynamic")}
            self._write(ref, resolved, "overwrite", opts, partition_by, cluster_by, source, node, scope, rows=rows)
        elif name in ("create", "createOrReplace", "replace"):
            kind = Kind.CREATE if name == "create" else Kind.CREATE_OR_REPLACE
            props = {}
            for step in steps:
                if step.name == "tableProperty" and step.call is not None and len(step.call.args) >= 2:
                    props[self.string(step.call.args[0], scope).text.lower()] = self.string(
                        step.call.args[1], scope
                    ).text
            self._emit(node, ref, resolved, kind, scope, declared=_ddl(partition_by, cluster_by, props))

    def _stream_write(self, steps: list[Step], writer: int, node: ast.Call, scope: Scope) -> None:
        source_steps, steps = steps[:writer], steps[writer:]
        if "readStream" in [s.name for s in source_steps]:
            start = [s.name for s in source_steps].index("readStream")
            source = next((s for s in source_steps[start:] if s.name in ("table", "load") and s.call is not None), None)
            if source is not None:
                end = source_steps.index(source) + 1
                self._stream_read(source_steps[:end], source.call, scope)
        opts = self._options(steps, scope)
        opts.update({k: self.string(v, scope) for k, v in options(node, "DataStreamWriter", _sink(steps)).items()})
        checkpoint = opts.get("checkpointlocation")
        fmt = self._arg(steps, "format", scope)
        batch = next((s for s in steps if s.name == "foreachBatch" and s.call is not None), None)
        loc = self.sites.loc(node)
        flags: set[Flag] = set()
        if _true(opts.get("mergeschema")) or self.session.auto_merge:
            flags.add(Flag.SCHEMA_EVOLUTION)
        awaited = {Flag.AWAITED} if id(node) in self._awaited else set()
        flags |= awaited
        common = {"checkpoint": checkpoint.text if checkpoint else None, "stream": loc}
        if batch is not None:
            self._add(
                Intent(
                    location=loc,
                    table=None,
                    kind=Kind.STREAMING_WRITE,
                    flags=frozenset({Flag.FOREACH_BATCH_SINK} | awaited),
                    statement=self.sites.excerpt(node),
                    **common,
                ),
                scope,
                node,
            )
            for fn_name in sorted(self._function_names(batch.call.args[0] if batch.call.args else None)):
                fn = self.functions.get(fn_name)
                if fn is not None:
                    self.walker.function(
                        fn, scope, flags=frozenset({Flag.PER_BATCH} | awaited), stream=loc, batch_df=True
                    )
            return
        sink = _sink(steps)
        fmt_kw = argument(node, "DataStreamWriter", sink, "format")
        if fmt_kw is not None:
            fmt = self.string(fmt_kw, scope)
        if fmt is not None and fmt.text.lower() not in ("delta", "") and not fmt.unknown:
            return
        if sink == "toTable":
            ref, resolved = self._ref(self.string(argument(node, "DataStreamWriter", "toTable", "tableName"), scope))
        else:
            path_node = argument(node, "DataStreamWriter", "start", "path")
            target = self.string(path_node, scope) if path_node is not None else opts.get("path")
            if target is None:
                return
            ref, resolved = self._ref(target, path=True)
        mode = self._arg(steps, "outputMode", scope)
        mode_kw = argument(node, "DataStreamWriter", sink, "outputMode")
        if mode_kw is not None:
            mode = self.string(mode_kw, scope)
        kind = Kind.FULL_OVERWRITE if mode is not None and mode.text.lower() == "complete" else Kind.STREAMING_WRITE
        txn = opts.get("txnappid")
        self._emit(
            node,
            ref,
            resolved,
            kind,
            scope,
            flags=flags,
            subkind="streaming_complete" if kind == Kind.FULL_OVERWRITE else None,
            txn_app_id=txn.text if txn else None,
            **common,
        )

    def _stream_read(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        fmt = self._arg(steps, "format", scope)
        if fmt is not None and fmt.text.lower() not in ("delta", "") and not fmt.unknown:
            return
        if steps[-1].name == "table":
            ref, resolved = self._ref(self.string(argument(node, "DataStreamReader", "table", "tableName"), scope))
        else:
            path_node = argument(node, "DataStreamReader", "load", "path")
            if path_node is None:
                return
            ref, resolved = self._ref(self.string(path_node, scope), path=True)
        self._emit(node, ref, resolved, Kind.STREAMING_READ, scope)

    def _delta_table(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        names = [s.name for s in steps]
        last = steps[-1].name
        builder = next((n for n in names if n in ("create", "createIfNotExists", "createOrReplace", "replace")), None)
        if builder is not None and "DeltaTable" in names and last == "execute" and "merge" not in names:
            self._delta_builder(steps, node, builder, scope)
            return
        handle = next((s for s in steps if s.name in ("forName", "forPath") and s.call is not None), None)
        if handle is None:
            return
        target = argument(
            handle.call, "DeltaTable", handle.name, "tableOrViewName" if handle.name == "forName" else "path"
        )
        ref, resolved = self._ref(self.string(target, scope), path=handle.name == "forPath")
        alias = self._arg(steps, "alias", scope)
        alias_name = alias.text.lower() if alias and not alias.unknown else None
        table_names = {ref.name.split(".")[-1], *([alias_name] if alias_name else [])}
        if last == "execute" and "merge" in names:
            merge = next(s for s in steps if s.name == "merge")
            source = argument(merge.call, "DeltaTable", "merge", "source")
            cond = argument(merge.call, "DeltaTable", "merge", "condition")
            cond_sql = self._condition_sql(cond, scope)
            info = condition_info(cond_sql, table_names, False, self.session, ref, self.memo)
            flags = set(info.flags)
            clauses = []
            for s in steps:
                if s.name.startswith("whenNotMatchedBySource"):
                    clauses.append("not_matched_by_source_" + ("delete" if "Delete" in s.name else "update"))
                    flags.add(Flag.READS_WHOLE_TARGET)
                elif s.name.startswith("whenNotMatched"):
                    clauses.append("not_matched_insert")
                elif s.name.startswith("whenMatched"):
                    clauses.append("matched_" + ("delete" if "Delete" in s.name else "update"))
                if s.name.startswith("when") and s.call is not None:
                    c = (
                        argument(s.call, "DeltaMergeBuilder", s.name, "condition")
                        if ("DeltaMergeBuilder", s.name) in SIGNATURES
                        else None
                    )
                    if (
                        c is not None
                        and s.name not in ("whenMatchedUpdate", "whenNotMatchedInsert")
                        or (c is not None and not isinstance(c, ast.Dict))
                    ):
                        extra = condition_info(
                            self._condition_sql(c, scope), table_names, False, self.session, ref, self.memo
                        )
                        flags |= extra.flags - {Flag.OPAQUE_CONDITION}
            if "withSchemaEvolution" in names or self.session.auto_merge:
                flags.add(Flag.SCHEMA_EVOLUTION)
            if ref in self.reads(source, scope):
                flags.add(Flag.READS_TARGET)
            region = WHOLE if Flag.READS_WHOLE_TARGET in flags else info.region
            self._emit(
                node,
                ref,
                resolved,
                Kind.MERGE,
                scope,
                flags=flags,
                predicate_sql=info.sql,
                region=region,
                params=info.params,
                target_alias=alias_name,
                merge_clauses=tuple(clauses),
            )
        elif last in ("delete", "update", "updateExpr"):
            # `updateExpr` is the Scala API's; read it like `update` where it appears
            cond = argument(node, "DeltaTable", "delete" if last == "delete" else "update", "condition")
            if last != "delete" and cond is not None and isinstance(cond, ast.Dict):
                cond = None  # update(set=...) with no condition
            if cond is None:
                self._emit(node, ref, resolved, Kind.DELETE if last == "delete" else Kind.UPDATE, scope, region=WHOLE)
                return
            info = condition_info(self._condition_sql(cond, scope), table_names, True, self.session, ref, self.memo)
            self._emit(
                node,
                ref,
                resolved,
                Kind.DELETE if last == "delete" else Kind.UPDATE,
                scope,
                flags=info.flags,
                predicate_sql=info.sql,
                region=info.region,
                params=info.params,
                target_alias=alias_name,
            )
        elif last in ("executeCompaction", "executeZOrderBy"):
            where = self._arg(steps, "where", scope)
            info = condition_info(_sql_text(where) if where else "", table_names, True, self.session, ref, self.memo)
            zorder = ()
            if last == "executeZOrderBy":
                args = (
                    node.args[0].elts
                    if len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))
                    else node.args
                )
                zorder = tuple(self.string(a, scope).text.lower() for a in args)
            self._emit(
                node,
                ref,
                resolved,
                Kind.OPTIMIZE_ZORDER if zorder else Kind.OPTIMIZE,
                scope,
                flags=info.flags,
                predicate_sql=info.sql,
                region=info.region,
                params=info.params,
                zorder_by=zorder,
            )
        elif last == "vacuum":
            self._emit(node, ref, resolved, Kind.VACUUM, scope)
        elif last in ("restoreToVersion", "restoreToTimestamp"):
            self._emit(node, ref, resolved, Kind.RESTORE, scope)
        elif last in ("upgradeTableProtocol", "addFeatureSupport", "dropFeatureSupport"):
            self._emit(node, ref, resolved, Kind.PROTOCOL_CHANGE, scope, subkind=last)

    def _delta_builder(self, steps: list[Step], node: ast.Call, builder: str, scope: Scope) -> None:
        name = self._arg(steps, "tableName", scope)
        location = self._arg(steps, "location", scope)
        if name is not None:
            ref, resolved = self._ref(name)
        elif location is not None:
            ref, resolved = self._ref(location, path=True)
        else:
            return
        identity = []
        props = {}
        for step in steps:
            if step.call is None:
                continue
            if step.name == "addColumn":
                gen = [k for k in step.call.keywords if k.arg in ("generatedAlwaysAs", "generatedByDefaultAs")]
                if gen and isinstance(gen[0].value, ast.Call) and "Identity" in ast.unparse(gen[0].value.func):
                    column = argument(step.call, "DeltaTableBuilder", "addColumn", "colName")
                    identity.append(self.string(column, scope).text.lower())
            elif step.name == "property" and len(step.call.args) >= 2:
                props[self.string(step.call.args[0], scope).text.lower()] = self.string(step.call.args[1], scope).text
        ddl = _ddl(
            self._cols(steps, "partitionedBy", scope), self._cols(steps, "clusterBy", scope), props, tuple(identity)
        )
        kind = Kind.CREATE if builder in ("create", "createIfNotExists") else Kind.CREATE_OR_REPLACE
        flags = {Flag.IF_NOT_EXISTS} if builder == "createIfNotExists" else set()
        self._emit(node, ref, resolved, kind, scope, declared=ddl, flags=flags)

    # -- conditions ----------------------------------------------------------------------

    def _condition_sql(self, node: ast.expr | None, scope: Scope) -> str | None:
        """A condition given as a SQL string or as a Column expression, as SQL text."""
        if node is None:
            return None
        if isinstance(node, (ast.Constant, ast.JoinedStr, ast.Name)) or (
            isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod))
        ):
            s = self.string(node, scope)
            if isinstance(node, ast.Name) and not isinstance(scope.env.get(node.id), Str):
                return None
            return _sql_text(s)
        return _column_sql(node, self, scope)

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
                    loc,
                    f"table name `{ref.name}` is dynamic and cannot be resolved statically; "
                    "this intent is not checked against others",
                )
            )
        if kind in TXN_KINDS and kw.get("txn_app_id") is None and self.session.txn_app_id is not None:
            kw["txn_app_id"] = self.session.txn_app_id  # `spark.conf.set("...write.txnAppId", ...)` before
        table_params = tuple(p[1:-1] for p in _braced(ref.name))
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

    def _add(self, intent: Intent, scope: Scope, node: ast.AST | None = None) -> None:
        """Keep an intent; inside a helper read for a call it is reported at the call
        (`scope.site`), naming where `node`, its statement, stands."""
        if scope.site is not None:
            stands = self.sites.statement_site(node) if node is not None else None
            site = scope.site
            if stands is not None and stands != site:
                site = Location(site.path, site.line, site.column, (stands,))
            if intent.location != site or intent.location.sites != site.sites:
                intent = replace(intent, location=site)
        if scope.flags or scope.stream:
            intent = replace(intent, flags=intent.flags | scope.flags, stream=intent.stream or scope.stream)
        self.intents.append(intent)

    def _flush_sql(self, before_line: int | None) -> None:
        """Analyse notebook SQL cells that come before `before_line` (all when None)."""
        while self.sql_cells and (before_line is None or self.sql_cells[0].line < before_line):
            cell = self.sql_cells.pop(0)
            intents, diags = analyze_sql(cell.text, self.path, self.session, line_map=cell.line_map, memo=self.memo)
            self.intents.extend(intents)
            self.diagnostics.extend(diags)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_WIDGET_DEFAULT = re.compile(
    r"\bwidgets\.(?:text|dropdown|combobox|multiselect)\(\s*(?:name\s*=\s*)?([\"'])(\w+)\1\s*,"
    r"\s*(?:defaultValue\s*=\s*)?([\"'])([^\"'\n]*)\3"
)


# What `_session_sql_names` can find, in the text: a bare call of `sql` or `spark.sql`
# named without calling it (`q = spark.sql`). Most files only call `spark.sql(...)`
# and import `pyspark.sql`: they are not walked a second time for it.
_MAY_NAME_SESSION_SQL = re.compile(r"(?<![\w.])sql\s*\(|\.\s*sql\b(?!\s*[(.]|\s+import\b)")


def _session_sql_names(tree: ast.Module) -> frozenset[str]:
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


def _as_session_sql(call: ast.Call) -> ast.Call:
    """`sql("...")` read as the `spark.sql("...")` it stands for, at the same place."""
    session = ast.copy_location(ast.Name("spark", ast.Load()), call.func)
    func = ast.copy_location(ast.Attribute(session, "sql", ast.Load()), call.func)
    return ast.copy_location(ast.Call(func, call.args, call.keywords), call)


_JOINED = (OneOf, lattice.OneOf)  # the values `_alternatives` reads (exact types: subclasses hold none)


def _alternatives(value: object) -> tuple[object, ...]:
    """The values a name may hold when the code cannot tell which (none otherwise)."""
    return value.values if isinstance(value, _JOINED) else ()


def _unparsed_alternatives(runs: list[tuple[list[Intent], list[Diagnostic]]]) -> list[Diagnostic]:
    """The diagnostics of a statement read once per value its names may hold. When
    some of its texts parse, one that does not (`UPDATE t SET ` before a loop that
    adds the assignments, `UPDATE t SET a=1` after it) is what a run would have only
    on the branch not taken: not a syntax error of the code, a DL007 note that says
    which text was left out. When no text parses, each error stands."""
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


def _value_modules(given: tuple[tuple[str, str, str, str], ...], memo: FrontEndMemo) -> dict[str, tuple[Module, str]]:
    """name here -> (module, function) for the value functions other files give.
    Each module's source is parsed once a run (`memo.modules`), however many files
    call its functions; the `Module` is this file's own, as the values its
    assignments evaluate to are worked out under this file's budget and documents."""
    modules: dict[tuple[str, str], Module | None] = {}
    out = {}
    for bound, path, function, source in given:
        if (path, source) not in modules:
            if source not in memo.modules:
                try:
                    memo.modules[source] = ast.parse(source)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    memo.modules[source] = None
            tree = memo.modules[source]
            modules[(path, source)] = Module.of(tree, path) if tree is not None else None
        module = modules[(path, source)]
        if module is not None:
            out[bound] = (module, function)
    return out


def _one_definition(text: str) -> bool:
    """Whether a helper's source, as another file's summary gives it, parses as one
    function or class definition (else it is not given to the file that imports it)."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return bool(body) and isinstance(body[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))


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


def _warehouse_statement(method: str, call: ast.Call) -> ast.expr | None:
    owner = _WAREHOUSE_METHODS.get(method)
    if owner is None:
        return None
    if method != "execute_statement" and not any(k.arg == "statement" for k in call.keywords):
        return None
    return argument(call, owner, method, "statement")


def _reads_self(intent: Intent) -> bool:
    """Whether the write names an attribute of the object its method runs on."""
    table = intent.table.name if intent.table else ""
    return "{self_" in table or any(p.startswith("self_") for p in intent.params)


_WHOLLY_PLACEHOLDER = re.compile(r"\s*\{[^{}]+\}\s*;?\s*")


def _row_label(n: int, row: tuple[object, ...]) -> str | None:
    """Which literal item a pooled call's row is, when its values are not all text
    (a dict of a configuration list): its text cannot tell the calls apart."""
    return None if all(isinstance(v, Str) for v in row) else f"#{n}"


def _rows_region(rows: FrameRows) -> Region:
    """The region of rows whose columns hold these values (the rest any)."""
    return Region((tuple((column, Constraint(values=values)) for column, values in rows),))


def _sink(steps: list[Step]) -> str:
    """The DataStreamWriter method a chain ends in (`table` is Databricks' `toTable`)."""
    return "start" if steps[-1].name == "start" else "toTable"


def _braced(text: str) -> list[str]:
    return re.findall(r"\{[^{}]+\}", text)


def _true(value: Str | None) -> bool:
    return value is not None and value.text.strip().lower() == "true"


def _argument(call: ast.Call, index: int | None, keyword: str | None) -> ast.expr | None:
    if keyword is not None:
        for kw in call.keywords:
            if kw.arg == keyword:
                return kw.value
    if index is not None and index < len(call.args):
        return call.args[index]
    return None


def _sql_text(value: Str) -> str:
    """Python-side placeholders are `{name}`; the SQL templating layer reads them."""
    return value.text


def _ddl(
    partition_by: tuple[str, ...], cluster_by: tuple[str, ...], props: dict[str, str], identity: tuple[str, ...] = ()
) -> TableDDL:
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


_COMPARE = {ast.Eq: "=", ast.NotEq: "<>", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def _column_sql(node: ast.expr, analyzer: PythonAnalyzer, scope: Scope) -> str | None:
    """Translate a PySpark Column expression (`F.col("d") == "x"`, `&`, `|`, `isin`) to SQL."""
    if isinstance(node, ast.BoolOp):
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        left = _column_sql(node.left, analyzer, scope)
        right = _column_sql(node.right, analyzer, scope)
        if left is None or right is None:
            return None
        return f"({left}) {'AND' if isinstance(node.op, ast.BitAnd) else 'OR'} ({right})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        inner = _column_sql(node.operand, analyzer, scope)
        return None if inner is None else f"NOT ({inner})"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        left = _operand_sql(node.left, analyzer, scope)
        right = _operand_sql(node.comparators[0], analyzer, scope)
        if left is None or right is None:
            return None
        return f"{left} {_COMPARE[type(node.ops[0])]} {right}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "isin":
            col = _operand_sql(node.func.value, analyzer, scope)
            args = (
                node.args[0].elts
                if len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))
                else node.args
            )
            values = [_operand_sql(a, analyzer, scope) for a in args]
            if col is None or any(v is None for v in values):
                return None
            return f"{col} IN ({', '.join(values)})"
        if node.func.attr == "expr" and node.args:
            return analyzer.string(node.args[0], scope).text
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "expr" and node.args:
        return analyzer.string(node.args[0], scope).text
    return None


def _operand_sql(node: ast.expr, analyzer: PythonAnalyzer, scope: Scope) -> str | None:
    if isinstance(node, ast.Call):
        fname = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if fname in ("col", "column") and node.args:
            return analyzer.string(node.args[0], scope).text
        if fname == "lit" and node.args:
            return _operand_sql(node.args[0], analyzer, scope)
        if fname == "expr" and node.args:
            return analyzer.string(node.args[0], scope).text
        return None
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return "'" + node.value.replace("'", "\\'") + "'"
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return number_text(node.value)  # None (unknown) for an integer too long to write
        return None
    if isinstance(node, (ast.Name, ast.JoinedStr)):
        s = analyzer.string(node, scope)
        return "'" + s.text + "'"
    return None


_FEATURE_CLIENTS = ("FeatureStoreClient", "FeatureEngineeringClient")


def _feature_clients(tree: ast.Module) -> set[str]:
    """Names assigned a feature store client: `fs = feature_store.FeatureStoreClient()`."""
    out = set()
    for node in _walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in _FEATURE_CLIENTS:
                out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out


def _feature_table_call(node: ast.Call, clients: set[str]) -> bool:
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("create_table", "write_table")
        and isinstance(func.value, ast.Name)
        and func.value.id in clients
    )


def _is_notebook_run(node: ast.Call) -> bool:
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "run"
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "notebook"
    )


def _awaited_queries(tree: ast.Module) -> set[int]:
    """Streaming queries the code waits for: `....start().awaitTermination()`, or
    `q = ....start()` and later `q.awaitTermination()`. The statements after the
    wait run once the query has stopped (an `availableNow` or `once` trigger, or a
    failure), never beside it."""
    waited: set[str] = set()
    out: set[int] = set()
    for node in _walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "awaitTermination":
            owner = node.func.value
            if node.args or node.keywords:
                continue  # a timeout: the query may still run afterwards
            if isinstance(owner, ast.Name):
                waited.add(owner.id)
            elif isinstance(owner, ast.Call):
                out.add(id(owner))
    if waited:
        for node in _walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                if any(isinstance(t, ast.Name) and t.id in waited for t in node.targets):
                    out.add(id(node.value))
    return out


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
    return analyzer.intents, analyzer.diagnostics, analyzer.links()
