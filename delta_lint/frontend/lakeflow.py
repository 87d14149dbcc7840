"""Lakeflow declarative pipelines (DLT): the tables a pipeline's source files
define, as the writes of the pipeline's update.

A pipeline file is not job code: it declares tables and the pipeline writes them.
The link stage reads a pipeline file with this front end only when a bundle
defines the pipeline (and a job's `pipeline_task` or the pipeline's own trigger
runs it), with the pipeline's catalog and schema; elsewhere the file is skipped.
A streaming table is appended to (`STREAMING_WRITE`), a materialized view is
recomputed (`FULL_OVERWRITE`), `APPLY CHANGES INTO` / `AUTO CDC` merges (`MERGE`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from delta_lint.frontend.pysource import still_open
from delta_lint.frontend.values.budget import Budget
from delta_lint.frontend.values.lattice import OneOf, Template, Unknown, alternatives, concat, join
from delta_lint.frontend.values.static import PASS, Scope, Static
from delta_lint.model import UNRESOLVED_TABLE, Diagnostic, Flag, Intent, Kind, Location, TableRef

_SQL_DEFINITION = re.compile(
    r"\bCREATE\s+(?:OR\s+(?:REFRESH|REPLACE)\s+)?(?:PRIVATE\s+|TEMPORARY\s+)?"
    r"(?P<what>STREAMING\s+(?:LIVE\s+)?TABLE|MATERIALIZED\s+VIEW|LIVE\s+TABLE)\s+(?:IF\s+NOT\s+EXISTS\s+)?"
    r"(?P<name>(?:[\w`.]|\$\{[\w.\-]+\})+)"
    r"|\b(?:APPLY\s+CHANGES|AUTO\s+CDC)\s+INTO\s+(?P<cdc>(?:[\w`.]|\$\{[\w.\-]+\})+)"
    r"|\bCREATE\s+FLOW\s+[\w`.]+\s+AS\s+INSERT\s+INTO\s+(?:ONCE\s+)?(?P<flow>(?:[\w`.]|\$\{[\w.\-]+\})+)",
    re.IGNORECASE,
)
# a key a pipeline's SQL sets itself (`SET catalog = dev;`): its value there is the file's
_SQL_SET = re.compile(r"^\s*SET\s+([\w.\-]+)\s*=", re.I | re.M)
# a pipeline configuration value substituted into SQL text (`${catalog}`)
_CONF_REF = re.compile(r"\$\{([\w.\-]+)\}")
_COMMENT = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)
_DECORATOR_KINDS = {
    "table": None,  # a streaming table when its query reads a stream, else a materialized view
    "materialized_view": Kind.FULL_OVERWRITE,
    "streaming_table": Kind.STREAMING_WRITE,
    "append_flow": Kind.STREAMING_WRITE,
}
# (`create_streaming_table` only declares a target: the flows into it are the writes)
_CALL_KINDS = {
    "apply_changes": Kind.MERGE,
    "create_auto_cdc_flow": Kind.MERGE,
    "apply_changes_from_snapshot": Kind.MERGE,
    "create_auto_cdc_from_snapshot_flow": Kind.MERGE,
}
_MODULES = ("dlt", "dp")
MAX_ROUNDS = 256  # loop rounds and factory calls a file's walk reads, nested loops multiplying
MAX_CALL_DEPTH = 8  # factory functions called from factory functions, at most


class PipelineFile(NamedTuple):
    """What a pipeline's update writes for the tables one source file defines, and
    the notes of the names no reading could tell."""

    intents: list[Intent]
    diagnostics: list[Diagnostic]


class _Dataset(NamedTuple):
    line: int
    col: int
    name: object  # a value of the lattice: a str when known
    kind: Kind


def analyze_lakeflow(
    display: str,
    suffix: str,
    text: str,
    pipelines: tuple[tuple[str | None, str | None, tuple[tuple[str, str | None], ...]], ...],
) -> PipelineFile:
    """The writes each pipeline's update makes for the tables this file defines
    (`pipelines`: the catalog, schema and configuration of each pipeline whose source
    it is; a file two pipelines share is read once for each).

    A dataset's name is read with the value layer (`values.static`), not taken
    from literals only: a module constant, an f-string over the pipeline's
    `configuration` (`spark.conf.get("catalog")`, `${catalog}` in SQL), a loop over
    a literal list and a factory function called with its table: pipelines that
    generate their tables from metadata name them so. A name one of a few values is
    one intent per value, each flagged one of the alternatives; a name no reading
    can tell is an unresolved intent with a `DL001` note, never dropped and never
    replaced by the function's name (which the pipeline uses only when no name is
    given). A configuration key whose value only a run knows (a variable no target
    gives, a key the file's SQL sets itself) is unknown, its default in the code
    not taken for it."""
    out: list[Intent] = []
    diagnostics: list[Diagnostic] = []
    seen: set[tuple] = set()
    sql = suffix == ".sql" or _is_sql_notebook(text)
    for catalog, schema, configuration in pipelines:
        conf = {key: value for key, value in configuration if value is not None}
        unknown = {key for key, value in configuration if value is None}
        if sql:
            unknown |= {key for key in _SQL_SET.findall(text)}
        found = _sql(text, conf, unknown) if sql else _python(display, text, conf, unknown)
        for line, col, value, kind in found:
            names = alternatives(value)
            for name in names:
                table, resolved = _qualify(name, catalog, schema)
                # two unresolved names alike are two datasets: each keeps its own place
                key = (table, kind) if resolved else (table, kind, line, col)
                if key in seen:
                    continue
                seen.add(key)
                flags = {Flag.ONE_OF} if len(names) > 1 else set()
                location = Location(display, line, col)
                if not resolved:
                    flags.add(Flag.UNRESOLVED)
                    diagnostics.append(
                        Diagnostic(
                            UNRESOLVED_TABLE,
                            location,
                            f"table name `{table}` of a pipeline dataset is dynamic and cannot be resolved "
                            "statically; this intent is not checked against others",
                        )
                    )
                out.append(
                    Intent(
                        location=location,
                        table=TableRef(table),
                        kind=kind,
                        flags=frozenset(flags),
                        subkind="lakeflow",
                        statement=f"Lakeflow pipeline update of `{table}`",
                    )
                )
    return PipelineFile(out, diagnostics)


def _is_sql_notebook(text: str) -> bool:
    return text.lstrip().startswith("-- Databricks notebook source")


def _sql(text: str, conf: Mapping[str, str], unknown: set[str]) -> list[_Dataset]:
    blanked = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out = []
    for m in _SQL_DEFINITION.finditer(blanked):
        line = blanked.count("\n", 0, m.start()) + 1
        col = m.start() - (blanked.rfind("\n", 0, m.start()) + 1) + 1
        if m["name"]:
            kind = Kind.FULL_OVERWRITE if m["what"].upper().startswith("MATERIALIZED") else Kind.STREAMING_WRITE
            if m["what"].upper().startswith("LIVE"):
                kind = Kind.FULL_OVERWRITE
            out.append(_Dataset(line, col, _substituted(m["name"], conf, unknown), kind))
        elif m["cdc"]:
            out.append(_Dataset(line, col, _substituted(m["cdc"], conf, unknown), Kind.MERGE))
        elif m["flow"]:
            out.append(_Dataset(line, col, _substituted(m["flow"], conf, unknown), Kind.STREAMING_WRITE))
    return out


def _substituted(name: str, conf: Mapping[str, str], unknown: set[str]) -> object:
    """A SQL dataset name with the pipeline configuration's `${key}` values put in;
    a template (its unknown keys as inputs) when the configuration lacks one or
    holds a value only a run knows."""
    missing = [key for key in _CONF_REF.findall(name) if key not in conf or key in unknown]
    text = _CONF_REF.sub(lambda m: "{" + m[1] + "}" if m[1] in missing else conf[m[1]], name)
    return Template(text, tuple(missing)) if missing else text


def _python(display: str, text: str, conf: Mapping[str, str], unknown: set[str]) -> list[_Dataset]:
    tree = _tree(text)
    return _Walk(tree, display, conf, unknown).datasets() if tree is not None else []


def _tree(text: str) -> ast.Module | None:
    lines, depth = [], 0
    for line in text.splitlines():  # magics only at a logical line's start (see `still_open`)
        lines.append(_cell_line(line) if depth == 0 else line)
        depth = still_open(lines[-1], depth)
    try:
        return ast.parse("\n".join(lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def dataset_lines(text: str) -> list[tuple[int, int]]:
    """The (first, last) lines of each function a pipeline decorator (`@dlt.table`,
    `@dp.materialized_view`, `@dlt.append_flow`, ...) makes a dataset's query of.
    A notebook that is a pipeline's source and a job's task too is read twice: as
    the pipeline's datasets here and as job code; the job's reading leaves out what
    these lines read (only the pipeline's update runs those queries)."""
    tree = _tree(text) if any(f"{m}." in text for m in _MODULES) else None
    if tree is None:
        return []
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            _pipeline_attr(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list
        ):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first, node.end_lineno or node.lineno))
    return spans


class _Walk:
    """The datasets a pipeline's Python source defines, read statement by statement:
    a loop over a known list reads its body once per item and a factory function
    called with a table's name reads its body at each call, its parameters bound;
    a function no walk reached (a method, one called from an expression) is read
    once where it is, its parameters unknown, so no dataset is lost."""

    def __init__(self, tree: ast.Module, display: str, conf: Mapping[str, str], unknown: set[str]) -> None:
        self.tree, self.conf, self.unknown = tree, conf, unknown
        self.static = Static(tree, display, Budget(), hook=self._hook)
        defined: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defined.setdefault(node.name, []).append(node)
        # module functions a call may read: those defined once (a name defined twice is ambiguous)
        self.functions = {name: fns[0] for name, fns in defined.items() if len(fns) == 1}
        self.out: list[_Dataset] = []
        self.entered: set[int] = set()  # functions whose body a walk read
        self.stack: list[int] = []  # the factory calls being read (no recursion)
        self.declined: set[int] = set()  # functions a call did not read (budget, depth, recursion)
        self.rounds = MAX_ROUNDS

    def datasets(self) -> list[_Dataset]:
        self._body(self.tree.body, Scope())
        for fn, scope in _functions(self.tree.body, Scope()):
            if id(fn) not in self.entered or id(fn) in self.declined:
                self.declined.discard(id(fn))
                self.entered.add(id(fn))
                self._body(fn.body, scope)
        return self.out

    # -- statements -----------------------------------------------------------------

    def _body(self, body: list[ast.stmt], scope: Scope) -> None:
        for stmt in body:
            self._stmt(stmt, scope)

    def _stmt(self, stmt: ast.stmt, scope: Scope) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._defined(stmt, scope)
            return
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            self._calls(stmt.iter, scope)
            for round_scope in self._rounds(stmt, scope):
                self._body(stmt.body, round_scope)
            self._body(stmt.orelse, scope)
            return
        # every other statement: its own expressions, then every body it holds (a class's,
        # each branch of an `if`, a `match` case, a `try`'s parts: a dataset either may define)
        for _, value in ast.iter_fields(stmt):
            for node in value if isinstance(value, list) else [value]:
                if isinstance(node, ast.expr):
                    self._calls(node, scope)
                elif isinstance(node, ast.withitem):
                    self._calls(node.context_expr, scope)
        for body in _bodies(stmt):
            self._body(body, scope)

    def _rounds(self, loop: ast.For | ast.AsyncFor, scope: Scope) -> Iterator[Scope]:
        """The scope of each round of a loop over a known list (its target bound to
        the item), or the scope once (the target unknown) over anything else."""
        items = self.static.value(loop.iter, scope)
        if isinstance(items, dict):
            items = list(items)
        if isinstance(items, (list, tuple)) and 0 < len(items) <= self.rounds:
            self.rounds -= len(items)
            stored = _stored(loop.body)
            for item in items:
                bound = _bind(loop.target, item)
                if bound is None or not stored.isdisjoint(bound):
                    break  # a target the body assigns again holds what the body gives it
                yield scope.bind(bound)
            else:
                return
        yield scope

    def _defined(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        for deco in fn.decorator_list:
            attr = _pipeline_attr(deco.func if isinstance(deco, ast.Call) else deco)
            if attr not in _DECORATOR_KINDS:
                continue
            call = deco if isinstance(deco, ast.Call) else None
            given = _keyword(call, "target" if attr == "append_flow" else "name")
            name = self._name(given, scope) if given is not None else fn.name
            body = ast.unparse(fn)
            kind = _DECORATOR_KINDS[attr] or (
                Kind.STREAMING_WRITE if "readStream" in body or "read_stream" in body else Kind.FULL_OVERWRITE
            )
            self.out.append(_Dataset(deco.lineno, deco.col_offset + 1, name, kind))

    def _calls(self, node: ast.AST, scope: Scope) -> None:
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            attr = _pipeline_attr(call.func)
            if attr in _CALL_KINDS:
                key = "target" if "cdc" in attr or "changes" in attr else "name"
                given = _keyword(call, key)
                if given is None and call.args and not isinstance(call.args[0], ast.Starred):
                    given = call.args[0]
                if given is not None:
                    self.out.append(
                        _Dataset(call.lineno, call.col_offset + 1, self._name(given, scope), _CALL_KINDS[attr])
                    )
                elif (spread := _spread(call)) is not None:  # `create_auto_cdc_flow(**kwargs)`: its `key` if known
                    held = self.static.value(spread, scope)
                    named = held.get(key) if isinstance(held, dict) else None
                    name = _labelled(named, spread) if named is not None else _labelled(Unknown("spread"), spread)
                    self.out.append(_Dataset(call.lineno, call.col_offset + 1, name, _CALL_KINDS[attr]))
            elif isinstance(call.func, ast.Name) and call.func.id in self.functions:
                self._factory(self.functions[call.func.id], call, scope)
            for arg in (*call.args, *(k.value for k in call.keywords)):
                if isinstance(arg, ast.Name) and arg.id in self.functions:  # `map(make, names)`
                    self.declined.add(id(self.functions[arg.id]))

    def _factory(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, scope: Scope) -> None:
        """A module function called here: its body read with its parameters bound
        to the call's arguments (a parameter neither gives stays unknown)."""
        if id(fn) in self.stack or len(self.stack) >= MAX_CALL_DEPTH or self.rounds <= 0:
            self.declined.add(id(fn))  # read once more with its parameters unknown (`datasets`)
            return
        self.rounds -= 1
        self.entered.add(id(fn))
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
        bound: dict[str, object] = {}
        for name, arg in zip(params, call.args):
            if isinstance(arg, ast.Starred):
                break
            bound[name] = self.static.value(arg, scope)
        for keyword in call.keywords:
            if keyword.arg in params:  # a `**kw` parameter binds no name of its own
                bound[keyword.arg] = self.static.value(keyword.value, scope)
        positional = [*fn.args.posonlyargs, *fn.args.args]
        defaults = list(zip(positional[len(positional) - len(fn.args.defaults) :], fn.args.defaults))
        defaults += [(a, d) for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None]
        for arg, default in defaults:
            bound.setdefault(arg.arg, self.static.value(default))
        stored = _stored(fn.body)
        bound = {name: value for name, value in bound.items() if name not in stored}
        self.stack.append(id(fn))
        try:
            self._body(fn.body, Scope().enter(fn).bind(bound))
        finally:
            self.stack.pop()

    # -- values ---------------------------------------------------------------------

    def _name(self, node: ast.expr, scope: Scope) -> object:
        """What a dataset's name expression holds: a string, one of several, or a
        template whose unknown parts are named after their code."""
        value = self.static.value(node, scope)
        return _labelled(value, node)

    def _hook(self, static: Static, node: ast.expr, scope: Scope, depth: int) -> object:
        """The pipeline's own values: `spark.conf.get(key[, default])` is its
        configuration's value (the default when the configuration has none), and an
        f-string names each part it cannot tell after its code."""
        if isinstance(node, ast.Call) and _is_conf_get(node.func) and node.args:
            key = static.read(node.args[0], scope, depth + 1)
            if not isinstance(key, str):
                return Unknown("a configuration key only a run knows")
            if key in self.unknown:
                return Unknown(f"the pipeline's configuration gives `{key}` a value only a run knows")
            if key in self.conf:
                return self.conf[key]
            if len(node.args) > 1:
                return static.read(node.args[1], scope, depth + 1)
            return Unknown(f"the pipeline's configuration has no `{key}`")
        if isinstance(node, ast.JoinedStr):
            texts: list[object] = [""]
            for part in node.values:
                if isinstance(part, ast.Constant):
                    value: object = str(part.value)
                elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
                    value = _labelled(static.read(part.value, scope, depth + 1), part.value)
                else:
                    return PASS
                texts = [_concat(t, v) for t in texts for v in alternatives(value)]
                if len(texts) > _MAX_NAMES:
                    return Unknown(f"more than {_MAX_NAMES} names")
            return join(texts)
        return PASS


_MAX_NAMES = 8  # alternatives a dataset's name may be before it is unknown


def _spread(call: ast.Call) -> ast.expr | None:
    """What a call's arguments are spread from (`f(**kwargs)`, `f(*args)`): the
    dataset's name may be among them, a value the call's text does not show."""
    for keyword in call.keywords:
        if keyword.arg is None:
            return keyword.value
    return next((a.value for a in call.args if isinstance(a, ast.Starred)), None)


def _labelled(value: object, node: ast.expr) -> object:
    """A value as a dataset name's part: strings, templates and one of several as
    they are, a number as its text, anything else a template named after its code."""
    if isinstance(value, (str, Template)) or type(value) is OneOf:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    label = re.sub(r"\W+", "_", ast.unparse(node)).strip("_")[:40] or "name"
    return Template("{" + label + "}", (label,))


def _concat(left: object, right: object) -> object:
    if isinstance(left, str) and isinstance(right, str):
        return left + right
    return concat(left, right)


def _bind(target: ast.expr, item: object) -> dict[str, object] | None:
    """The names a loop target binds to one item, or None when the item does not fit."""
    if isinstance(target, ast.Name):
        return {target.id: item}
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(item, (list, tuple)) and len(item) == len(target.elts):
        out: dict[str, object] = {}
        for sub, value in zip(target.elts, item):
            got = _bind(sub, value)
            if got is None:
                return None
            out.update(got)
        return out
    return None


def _bodies(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists a statement holds: a class's body, each branch of an
    `if`, `while`, `with`, `try`/`try*` (with its handlers) and `match` (its cases)."""
    for field in ("body", "orelse", "finalbody"):
        part = getattr(stmt, field, None)
        if isinstance(part, list) and part and isinstance(part[0], ast.stmt):
            yield part
    for handler in getattr(stmt, "handlers", None) or ():
        yield handler.body
    for case in getattr(stmt, "cases", None) or ():
        yield case.body


def _stored(body: list[ast.stmt]) -> set[str]:
    """The names a body assigns (`=`, `+=`, `:=`, a loop's or a `with`'s target,
    `del`), its nested functions and classes aside: a name bound for a round or a
    call is that value only where the body never stores to it."""
    out: set[str] = set()
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if not isinstance(node, ast.Lambda):
                out.add(node.name)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _functions(body: list[ast.stmt], scope: Scope) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, Scope]]:
    """Every function of a module (methods and nested ones too, in any branch, case or
    handler), outermost first, with the scope of its body."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = scope.enter(node)
            yield node, inner
            yield from _functions(node.body, inner)
        else:
            for part in _bodies(node):
                yield from _functions(part, scope)


def _is_conf_get(func: ast.expr) -> bool:
    """`spark.conf.get`."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "get"
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "conf"
        and isinstance(func.value.value, ast.Name)
        and func.value.value.id == "spark"
    )


def _cell_line(line: str) -> str:
    """A Databricks source notebook's line as Python (magics blanked)."""
    stripped = line.lstrip()
    magic = stripped.startswith(("%", "# MAGIC")) or (stripped.startswith("!") and not stripped.startswith("!="))
    return "" if magic else line


def _pipeline_attr(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _MODULES:
        return node.attr
    return None


def _keyword(call: ast.Call | None, name: str) -> ast.expr | None:
    for k in call.keywords if call else ():
        if k.arg == name:
            return k.value
    return None


def _qualify(name: object, catalog: str | None, schema: str | None) -> tuple[str, bool]:
    """A dataset's table: a name of one or two parts in the pipeline's catalog and
    schema; and whether it is resolved (a template keeps its text, unqualified)."""
    if not isinstance(name, str):
        return (name.text if isinstance(name, Template) else "{name}").lower(), False
    parts = [p.strip("`") for p in name.split(".") if p.strip("`")]
    if parts and parts[0].lower() == "live":
        parts = parts[1:]
    if not parts:
        return "{name}", False
    if len(parts) == 1 and schema:
        parts = [schema, *parts]
    if len(parts) == 2 and catalog:
        parts = [catalog, *parts]
    return ".".join(parts).lower(), True
