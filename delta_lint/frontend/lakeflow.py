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
from dataclasses import replace
from typing import NamedTuple

from delta_lint.frontend.pysource import still_open
from delta_lint.frontend.values.budget import Budget, OutOfBudget
from delta_lint.frontend.values.lattice import OneOf, Template, Unknown, alternatives, concat, join
from delta_lint.frontend.values.scopes import PASS, Point, Scopes
from delta_lint.model import (
    PIPELINE_READING,
    UNRESOLVED_TABLE,
    Diagnostic,
    Flag,
    Intent,
    Kind,
    Location,
    TableRef,
    pipeline_reading,
)

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
    why: str | None = None  # the limit of the reading that left the name unknown, if one did


def analyze_lakeflow(
    display: str,
    suffix: str,
    text: str,
    pipelines: tuple[tuple[str | None, str | None, tuple[tuple[str, str | None], ...]], ...],
) -> PipelineFile:
    """`_analyze_lakeflow`, with each dataset tied to the pipelines whose reading made
    it. A file several pipelines list with different catalogs, schemas or
    configurations defines one table per (pipeline, dataset): `shop.bronze.x` is
    bronze's, `shop.gold.x` gold's, and a pipeline runs one update at a time, so the
    two never pair. A dataset only some pipelines' readings make carries those
    readings (`Intent.given`, PIPELINE_READING); one every reading makes, none."""
    contexts = tuple(dict.fromkeys(pipelines))
    if len(contexts) < 2:
        return _analyze_lakeflow(display, suffix, text, contexts)
    made: dict[tuple, tuple[Intent, list[str]]] = {}
    diagnostics: dict[tuple, Diagnostic] = {}
    for context in contexts:
        read = _analyze_lakeflow(display, suffix, text, (context,))
        reading = pipeline_reading(*context)
        for intent in read.intents:
            key = (intent.location, intent.table, intent.kind, intent.flags)
            made.setdefault(key, (intent, []))[1].append(reading)
        for diagnostic in read.diagnostics:
            diagnostics.setdefault((diagnostic.rule, diagnostic.location, diagnostic.message), diagnostic)
    out = []
    for intent, readings in made.values():
        every = len(readings) == len(contexts)
        out.append(intent if every else replace(intent, given=tuple(((PIPELINE_READING, r),) for r in readings)))
    return PipelineFile(out, list(diagnostics.values()))


def _analyze_lakeflow(
    display: str,
    suffix: str,
    text: str,
    pipelines: tuple[tuple[str | None, str | None, tuple[tuple[str, str | None], ...]], ...],
) -> PipelineFile:
    """The writes each pipeline's update makes for the tables this file defines
    (`pipelines`: the catalog, schema and configuration of each pipeline whose source
    it is; a file two pipelines share is read once for each).

    A dataset's name is read on the evaluator (`values.scopes`), not taken
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
    said: dict[tuple, tuple[int, str | None]] = {}  # an unresolved dataset's note: its index, the limit it says
    sql = suffix == ".sql" or _is_sql_notebook(text)
    for catalog, schema, configuration in pipelines:
        conf = {key: value for key, value in configuration if value is not None}
        unknown = {key for key, value in configuration if value is None}
        if sql:
            unknown |= {key for key in _SQL_SET.findall(text)}
        found = _sql(text, conf, unknown) if sql else _python(display, text, conf, unknown)
        for line, col, value, kind, why in found:
            names = alternatives(value)
            for name in names:
                table, resolved = _qualify(name, catalog, schema)
                # two unresolved names alike are two datasets: each keeps its own place
                key = (table, kind) if resolved else (table, kind, line, col)
                location = Location(display, line, col)
                note = Diagnostic(
                    UNRESOLVED_TABLE,
                    location,
                    f"table name `{table}` of a pipeline dataset is dynamic and cannot be resolved "
                    "statically; this intent is not checked against others"
                    + (f" (a limit of the reading: {why})" if why else ""),
                )
                if key in seen:
                    # the same dataset read on another way: its note says a limit if any way met one
                    if not resolved and why and key in said and not said[key][1]:
                        diagnostics[said[key][0]] = note
                        said[key] = (said[key][0], why)
                    continue
                seen.add(key)
                flags = {Flag.ONE_OF} if len(names) > 1 else set()
                if not resolved:
                    flags.add(Flag.UNRESOLVED)
                    said[key] = (len(diagnostics), why)
                    diagnostics.append(note)
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
            if m["what"].upper().startswith("STREAMING") and not _has_query(blanked, m.end()):
                continue  # a flow's target declared with no query: the flows into it are its writes
            kind = Kind.FULL_OVERWRITE if m["what"].upper().startswith("MATERIALIZED") else Kind.STREAMING_WRITE
            if m["what"].upper().startswith("LIVE"):
                kind = Kind.FULL_OVERWRITE
            out.append(_Dataset(line, col, _substituted(m["name"], conf, unknown), kind))
        elif m["cdc"]:
            out.append(_Dataset(line, col, _substituted(m["cdc"], conf, unknown), Kind.MERGE))
        elif m["flow"]:
            out.append(_Dataset(line, col, _substituted(m["flow"], conf, unknown), Kind.STREAMING_WRITE))
    return out


# the query of a dataset's statement (`AS SELECT`, `AS (SELECT`, `AS FROM` of a pipe query)
_QUERY = re.compile(r"\bAS\s*(?:\(\s*)*(?:SELECT|FROM|WITH|VALUES|TABLE)\b", re.IGNORECASE)


def _has_query(text: str, start: int) -> bool:
    """Whether the statement going on at `start` (to its `;`) holds a query: a
    streaming table declared without one (`CREATE OR REFRESH STREAMING TABLE t;`,
    with columns or properties) is only the target of the flows into it, as
    `create_streaming_table` is in Python."""
    end = text.find(";", start)
    return _QUERY.search(text, start, end if end >= 0 else len(text)) is not None


def _substituted(name: str, conf: Mapping[str, str], unknown: set[str]) -> object:
    """A SQL dataset name with the pipeline configuration's `${key}` values put in;
    a template (its unknown keys as inputs) when the configuration lacks one or
    holds a value only a run knows."""
    missing = [key for key in _CONF_REF.findall(name) if key not in conf or key in unknown]
    text = _CONF_REF.sub(lambda m: "{" + m[1] + "}" if m[1] in missing else conf[m[1]], name)
    return Template(text, tuple(missing)) if missing else text


def _python(display: str, text: str, conf: Mapping[str, str], unknown: set[str]) -> list[_Dataset]:
    tree = _tree(text)
    return _Reading(tree, display, conf, unknown).datasets() if tree is not None else []


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


class _Reading:
    """The datasets a pipeline's Python source defines, each read where it is on the
    evaluator (`values.scopes.Scopes.every`): the module's statements in order, so a
    loop over known items defines a dataset once per item and a module function
    called with a table's name is read at each call the reading follows, its
    parameters bound; where ways join (`if`/`else`, a loop over items not known) a
    name is one of the values or unknown. A function no reading reached, or one
    handed elsewhere than to a call the reading follows (`map(make, names)`, a
    method, a call with `*args`), is read once more on its own, its parameters
    unknown, so no dataset is lost; a dataset no reading reaches is unresolved."""

    def __init__(self, tree: ast.Module, display: str, conf: Mapping[str, str], unknown: set[str]) -> None:
        self.tree, self.conf, self.unknown = tree, conf, unknown
        self.reader = Scopes(tree, display, Budget(), hook=self._hook)

    def datasets(self) -> list[_Dataset]:
        sites = _sites(self.tree)
        if not sites:
            return []
        functions = list(_functions(self.tree.body, []))
        statements = [
            *(s.stmt for s in sites),
            *(s.anchor for s in sites),
            *(fn.body[0] for fn, _ in functions if fn.body),
        ]
        watched = list({id(s): s for s in statements}.values())
        visits: dict[int, list[tuple[Point, str | None]]] = {}
        alone: set[int] = set()
        stopped: str | None = None  # why the reading stopped for good (the budget)
        recursed: str | None = None  # why one reading ended early (its sites no other reaches say it)
        try:
            recursed = self._read(watched, [], visits, None)
            # a function no reading reached, one handed on, or one a call of which the
            # reading did not follow (past its depth, a generator): read on its own,
            # its parameters unknown; reading one may leave another unfollowed
            while True:
                more = False
                reasons = _reasons(functions, self.reader.unfollowed)
                for fn, scope in functions:
                    if id(fn) in alone or not fn.body or not _holds(fn, sites):
                        continue
                    cut = id(fn) in self.reader.unfollowed
                    if id(fn.body[0]) not in visits or not _only_called(fn, self.tree) or cut:
                        alone.add(id(fn))
                        more = True
                        if (why := self._read(watched, [*scope, fn], visits, reasons.get(id(fn)))) is not None:
                            recursed = recursed or why
                if not more:
                    break
        except OutOfBudget as err:
            stopped = str(err) or "the analysis budget of the file is spent"
        # the limits of counts and sizes the reading met: a name unknown for no reason
        # of its own may be unknown for one of them (the note says which they are)
        met = [f"line {line}: {why}" for line, why in self.reader.limits]
        met += [f"line {spent.line}: {spent.why}" for spent in self.reader.budget.spent if spent.line]
        perhaps = "perhaps one of these: " + "; ".join(met[:3]) + ("; ..." if len(met) > 3 else "") if met else None
        out: list[_Dataset] = []
        for site in sites:
            points: list[tuple[Point | None, str | None]] = list(visits.get(id(site.stmt), []))
            if not points:
                points = [(_hidden(p, site.anchor), why) for p, why in visits.get(id(site.anchor), [])]
            if stopped or not points:
                points.append((None, stopped or recursed))  # a reading cut short: what else it holds is unknown
            for at, why in points:
                name, limit = self._name(site, at)
                out.append(_Dataset(site.line, site.col, name, site.kind, why or limit or perhaps))
        return out

    def _read(
        self,
        watched: list[ast.stmt],
        scope: list[ast.AST],
        visits: dict[int, list[tuple[Point, str | None]]],
        why: str | None,
    ) -> str | None:
        """Read a scope, keeping each point with why its names may be unknown (`why`:
        the limit that made this reading one on its own); the reason when the reading
        itself stops, None when it ends."""
        try:
            got = self.reader.every(watched, scope)
        except RecursionError:
            return _RECURSION
        for key, points in got.items():
            visits.setdefault(key, []).extend((p, why) for p in points)
        return None

    def _name(self, site: _Site, at: Point | None) -> tuple[object, str | None]:
        """What a dataset's name expression holds at a point: a string, one of
        several, or a template whose unknown parts are named after their code; and
        the limit of the reading that left it unknown, if one did."""
        if site.name is None:
            return site.default, None
        if at is None:
            return _labelled(Unknown("not reached"), site.name), None
        try:
            value = self.reader.value(site.name, at)
        except OutOfBudget as err:
            value = Unknown(str(err) or "the analysis budget of the file is spent")
        except RecursionError:
            value = Unknown(_RECURSION)
        if site.key is not None:  # `create_auto_cdc_flow(**kwargs)`: its key, if known
            named = value.get(site.key) if isinstance(value, dict) else None
            value = named if named is not None else Unknown("spread")
        return _labelled(value, site.name), _limit(value)

    def _hook(self, reader: Scopes, node: ast.expr, env: dict[str, object], depth: int) -> object:
        """The pipeline's own values: `spark.conf.get(key[, default])` is its
        configuration's value (the default when the configuration has none), and an
        f-string names each part it cannot tell after its code."""
        if isinstance(node, ast.Call) and _is_conf_get(node.func) and node.args:
            key = reader.read(node.args[0], env, depth + 1)
            if not isinstance(key, str):
                return Unknown("a configuration key only a run knows")
            if key in self.unknown:
                return Unknown(f"the pipeline's configuration gives `{key}` a value only a run knows")
            if key in self.conf:
                return self.conf[key]
            if len(node.args) > 1:
                return reader.read(node.args[1], env, depth + 1)
            return Unknown(f"the pipeline's configuration has no `{key}`")
        if isinstance(node, ast.JoinedStr):
            texts: list[object] = [""]
            for part in node.values:
                if isinstance(part, ast.Constant):
                    value: object = str(part.value)
                elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
                    value = _labelled(reader.read(part.value, env, depth + 1), part.value)
                else:
                    return PASS
                texts = [_concat(t, v) for t in texts for v in alternatives(value)]
                if len(texts) > _MAX_NAMES:
                    return Unknown(f"more than {_MAX_NAMES} names")
            return join(texts)
        return PASS


class _Site(NamedTuple):
    """Where a dataset is defined: the statement whose names its name is read at, the
    name's expression (None: the function's own name, `default`), and the key of a
    spread's dict that holds the name."""

    stmt: ast.stmt
    line: int
    col: int
    name: ast.expr | None
    kind: Kind
    default: str = ""
    key: str | None = None
    anchor: ast.stmt | None = None  # the statement of the function's (or module's) own body that holds it


def _sites(tree: ast.Module) -> list[_Site]:
    """Every dataset definition of the module, in the order of its text."""
    out: list[_Site] = []

    def visit(stmt: ast.stmt, anchor: ast.stmt) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in stmt.decorator_list:
                attr = _pipeline_attr(deco.func if isinstance(deco, ast.Call) else deco)
                if attr not in _DECORATOR_KINDS:
                    continue
                call = deco if isinstance(deco, ast.Call) else None
                given = _keyword(call, "target" if attr == "append_flow" else "name")
                body = ast.unparse(stmt)
                kind = _DECORATOR_KINDS[attr] or (
                    Kind.STREAMING_WRITE if "readStream" in body or "read_stream" in body else Kind.FULL_OVERWRITE
                )
                out.append(_Site(stmt, deco.lineno, deco.col_offset + 1, given, kind, stmt.name, anchor=anchor))
        for node in _own_expressions(stmt):
            for call in ast.walk(node):
                if not isinstance(call, ast.Call):
                    continue
                attr = _pipeline_attr(call.func)
                if attr not in _CALL_KINDS:
                    continue
                key = "target" if "cdc" in attr or "changes" in attr else "name"
                given = _keyword(call, key)
                if given is None and call.args and not isinstance(call.args[0], ast.Starred):
                    given = call.args[0]
                where = (stmt, call.lineno, call.col_offset + 1)
                if given is not None:
                    out.append(_Site(*where, given, _CALL_KINDS[attr], anchor=anchor))
                elif (spread := _spread(call)) is not None:
                    out.append(_Site(*where, spread, _CALL_KINDS[attr], key=key, anchor=anchor))
        for body in _bodies(stmt):
            for inner in body:
                # a function's statements are its own; a class's or a branch's are its holder's
                visit(inner, inner if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else anchor)

    for stmt in tree.body:
        visit(stmt, stmt)
    return sorted(out, key=lambda s: (s.line, s.col))


def _hidden(at: Point, anchor: ast.stmt) -> Point:
    """The names at a statement no way reaches (a class's body, an `except*`) from
    the names at the statement that holds it: those bound inside that statement
    are not known there."""
    inside = {n.id for n in ast.walk(anchor) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    inside |= {n.name for n in ast.walk(anchor) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    inside |= {
        a.asname or a.name.split(".")[0]
        for n in ast.walk(anchor)
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }
    return Point({**at.env, **dict.fromkeys(inside, Unknown("bound where the reading does not go"))}, at.changed)


def _own_expressions(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The expressions of a statement itself, not of the statements it holds (a
    function's decorators and defaults are its own)."""
    for _, value in ast.iter_fields(stmt):
        for node in value if isinstance(value, list) else [value]:
            if isinstance(node, ast.expr):
                yield node
            elif isinstance(node, ast.withitem):
                yield node.context_expr
            elif isinstance(node, ast.arguments):
                yield from (d for d in (*node.defaults, *node.kw_defaults) if d is not None)


def _holds(fn: ast.FunctionDef | ast.AsyncFunctionDef, sites: list[_Site]) -> bool:
    """Whether a function's statements hold a dataset, or call a function (which may)."""
    inside = {id(n) for n in ast.walk(fn)}
    return any(id(s.stmt) in inside and s.stmt is not fn for s in sites) or any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) for n in ast.walk(fn)
    )


def _reasons(
    functions: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, list[ast.AST]]], unfollowed: Mapping[int, str]
) -> dict[int, str]:
    """Why each function the reading may not have reached with its arguments was not:
    one a call of which it did not follow (`Evaluator.unfollowed`: past its depth, a
    generator, ...), and every function those call by name, which that call would
    have reached (by `id`)."""
    by_name = {fn.name: fn for fn, _ in functions}
    reasons = {id(fn): unfollowed[id(fn)] for fn, _ in functions if id(fn) in unfollowed}
    stack = [fn for fn, _ in functions if id(fn) in reasons]
    while stack:
        fn = stack.pop()
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                callee = by_name.get(node.func.id)
                if callee is not None and id(callee) not in reasons:
                    reasons[id(callee)] = reasons[id(fn)]
                    stack.append(callee)
    return reasons


def _only_called(fn: ast.FunctionDef | ast.AsyncFunctionDef, tree: ast.Module) -> bool:
    """Whether every use of a function's name is a call the evaluator follows: a
    plain call of a module function with no decorator, `*args` or `**kwargs`, not
    from its own body (a recursion is read to a depth only)."""
    if fn.decorator_list or fn.args.vararg or fn.args.kwarg or fn not in tree.body:
        return False
    calls = {
        id(n.func)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and not any(isinstance(a, ast.Starred) for a in n.args)
        and all(k.arg is not None for k in n.keywords)
    }
    own = {id(n) for n in ast.walk(fn)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == fn.name and isinstance(node.ctx, ast.Load):
            if id(node) not in calls or id(node) in own:
                return False
    return True


_MAX_NAMES = 8  # alternatives a dataset's name may be before it is unknown
_RECURSION = "the code nests past the interpreter's recursion limit"


def _limit(value: object) -> str | None:
    """The limit of the value layer that left a name unknown: its reason when it is one
    of them (a value past a size, a count or the budget says `more than`, `past` or
    `budget`), else None (a name a run gives is unknown for no limit)."""
    if isinstance(value, Unknown) and any(w in value.reason for w in ("more than", "past ", "budget")):
        return value.reason
    return None


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


def _functions(
    body: list[ast.stmt], scope: list[ast.AST]
) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, list[ast.AST]]]:
    """Every function of a module (methods and nested ones too, in any branch, case or
    handler), outermost first, with the functions and classes around it."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node, scope
            yield from _functions(node.body, [*scope, node])
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node.body, [*scope, node])
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
