"""A spike: could astroid's inference stand in for delta-lint's own value layer?

This answers "which Delta table does this write hit?" the way UCX's linters do:
parse each Python file and Databricks notebook with astroid, find the write
sites, and infer the table argument with astroid's multi-valued `.infer()`,
with a small adapter of our own on top:

- `dbutils.widgets.get("k")` (and `getArgument("k")`) infers to the value a job
  task gives the notebook (`base_parameters`, job `parameters`, every task's
  value when several tasks run it) or else to the widget's default from
  `dbutils.widgets.text("k", "default")` in the same notebook - as UCX swaps
  the call's function for a node that answers its named parameters;
- an f-string infers to its text with a `{expr}` placeholder for each part
  astroid cannot infer (astroid's own answer is Uninferable for the whole
  string, which loses the table when only a `WHERE` value is unknown);
- `%run ./setup` becomes `from <setup> import *`, the setup notebook parsed
  into astroid's module cache, as UCX attaches the child tree's globals;
- a write inside a function is inferred again at each call of it (in any file
  whose call astroid resolves to that function), with the call's arguments
  bound, and reported at the call - the corpus's expectation files locate
  helper writes at their call sites.

Everything else is astroid's: name lookup, imports of the project's modules
(the file's folder, the checked folder and its `src/` are on the search path),
constants of classes and instances, function returns, containers, `+` and
`%` and `str.format`, `if` branches joined as several values. Bounds:
astroid's `max_inferable_values`, a cap on the values one f-string gives, and
a per-file time limit (SIGALRM).

Never imported by delta-lint; run from the repository root with a separate
environment that has astroid (the project does not depend on it):

    python -m venv .venv-astroid && .venv-astroid/bin/pip install astroid pyyaml 'sqlglot[c]==30.30.0'
    PYTHONPATH=. .venv-astroid/bin/python -m benchmarks.astroid_spike scan DIR [--quiet] [--parse-only]
    PYTHONPATH=. DELTA_LINT_PYTHON=.venv/bin/python \
        .venv-astroid/bin/python -m benchmarks.astroid_spike realworld [--out DIR]

`realworld` scores the spike's intents with `benchmarks.realworld.measure.score`
exactly as delta-lint's are scored, next to delta-lint's own (the revision at
`$DELTA_LINT_BASELINE`, default this checkout, run by `$DELTA_LINT_PYTHON`; its
runs are kept in `--baseline` so a second call reruns only the spike), over
all writes and over the writes at Python statements; held-out repositories
print their counts only (`SPIKE_DETAIL=1` lists the spike's misses on learn
repositories). The figures and the decision are in docs/values.md.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import json
import logging
import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import astroid
import sqlglot
import yaml
from astroid import nodes
from astroid.context import CallContext, InferenceContext
from astroid.exceptions import AstroidError
from astroid.inference_tip import inference_tip
from astroid.manager import AstroidManager
from astroid.util import Uninferable
from sqlglot import exp

from benchmarks.realworld.__main__ import DEFAULT_OUT

NOTEBOOK = "# Databricks notebook source"
CELL = re.compile(r"^# COMMAND -+\s*$")
MAGIC = re.compile(r"^# MAGIC ?")
RUN = re.compile(r"^# MAGIC\s*%run\s+[\"']?([^\s\"']+)")
WIDGET_MAKERS = {"text", "dropdown", "combobox", "multiselect"}
WIDGET_READERS = {"get", "getArgument"}
MAX_VALUES = 16  # astroid's max_inferable_values: values one inference may give
MAX_FSTRING = 32  # texts one f-string may give (product of its parts' values)
FILE_SECONDS = 10.0
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv"}


class FileTimeout(Exception):
    """One file took longer than FILE_SECONDS."""


@dataclass
class Intent:
    path: str
    line: int
    table: str | None
    kind: str
    via: str = ""

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "table": self.table, "kind": self.kind, "via": self.via}


@dataclass
class Scan:
    intents: list[Intent] = field(default_factory=list)
    files: int = 0
    parse_errors: int = 0
    timeouts: int = 0
    errors: int = 0
    python_lines: dict[str, set[int]] = field(default_factory=dict)


# ---------------------------------------------------------------- notebooks


def python_source(text: str) -> tuple[str, set[int], list[tuple[int, str]]]:
    """A notebook source as one Python module with the same line numbers: cells
    that are not Python (`# MAGIC %sql`, `%md`, ...) stay comments; a `%run`
    line is returned with its line so the caller can import the child there.
    Returns the code, the 1-based lines of Python cells and the `%run`s."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != NOTEBOOK:
        return text, set(range(1, len(lines) + 1)), []
    python: set[int] = set()
    runs: list[tuple[int, str]] = []
    cell: list[int] = []

    def close(cell: list[int]) -> None:
        body = [n for n in cell if lines[n].strip() and not lines[n].startswith("# DBTITLE")]
        if not body:
            return
        first = lines[body[0]]
        if MAGIC.match(first) and MAGIC.sub("", first).lstrip().startswith("%"):
            m = RUN.match(first)
            if m:
                runs.append((body[0] + 1, m.group(1)))
            return
        python.update(n + 1 for n in cell)

    for n, line in enumerate(lines[1:], start=1):
        if CELL.match(line):
            close(cell)
            cell = []
        else:
            cell.append(n)
    close(cell)
    out = [line if (n + 1) in python else "" for n, line in enumerate(lines)]
    return "\n".join(out), python, runs


# ---------------------------------------------------------------- the adapter


@dataclass
class Context:
    """What the adapter knows besides the code: job parameters per file."""

    root: Path
    params: dict[Path, dict[str, set[str]]] = field(default_factory=dict)
    widget_cache: dict[str, dict[str, str]] = field(default_factory=dict)
    modules: dict[Path, nodes.Module | None] = field(default_factory=dict)
    run_aliases: dict[str, nodes.Module] = field(default_factory=dict)


def _widget_defaults(module: nodes.Module, ctx: Context) -> dict[str, str]:
    key = module.file or module.name
    if key in ctx.widget_cache:
        return ctx.widget_cache[key]
    found: dict[str, str] = {}
    for call in module.nodes_of_class(nodes.Call):
        f = call.func
        if (
            isinstance(f, nodes.Attribute)
            and f.attrname in WIDGET_MAKERS
            and isinstance(f.expr, nodes.Attribute)
            and f.expr.attrname == "widgets"
            and len(call.args) >= 2
            and isinstance(call.args[0], nodes.Const)
            and isinstance(call.args[1], nodes.Const)
        ):
            found.setdefault(str(call.args[0].value), str(call.args[1].value))
    ctx.widget_cache[key] = found
    return found


def _is_widget_get(node: nodes.Call) -> bool:
    f = node.func
    if isinstance(f, nodes.Attribute) and f.attrname in WIDGET_READERS:
        return isinstance(f.expr, nodes.Attribute) and f.expr.attrname == "widgets" or f.attrname == "getArgument"
    return isinstance(f, nodes.Name) and f.name == "getArgument"


def _infer_widget_get(ctx: Context, node: nodes.Call, context: InferenceContext | None = None) -> Iterator:
    """`dbutils.widgets.get("k")`: the jobs' values for `k`, else the widget's default."""
    if not node.args:
        yield Uninferable
        return
    module = node.root()
    keys = [v.value for v in _safe_infer(node.args[0], context) if isinstance(v, nodes.Const)]
    if not keys:
        yield Uninferable
        return
    params = ctx.params.get(Path(module.file).resolve(), {}) if module.file else {}
    given = False
    for key in keys:
        if key in params:
            for value in sorted(params[key]):
                given = True
                yield nodes.Const(value, parent=node, lineno=node.lineno, col_offset=node.col_offset)
            continue
        default = _widget_defaults(module, ctx).get(str(key))
        if default is not None:
            given = True
            yield nodes.Const(default, parent=node, lineno=node.lineno, col_offset=node.col_offset)
    if not given:
        yield Uninferable


def _infer_fstring(node: nodes.JoinedStr, context: InferenceContext | None = None) -> Iterator:
    """An f-string's texts, a `{expr}` placeholder for each part astroid cannot infer."""
    choices: list[list[str]] = []
    for part in node.values:
        if isinstance(part, nodes.Const):
            choices.append([str(part.value)])
            continue
        if not isinstance(part, nodes.FormattedValue):
            choices.append(["{?}"])
            continue
        got: list[str] = []
        for v in _safe_infer(part.value, context):
            if isinstance(v, nodes.Const) and v.value is not None and not isinstance(v.value, bytes):
                got.append(str(v.value))
            else:
                got.append("{" + part.value.as_string() + "}")
        choices.append(list(dict.fromkeys(got)) or ["{" + part.value.as_string() + "}"])
    for n, combo in enumerate(itertools.product(*choices)):
        if n >= MAX_FSTRING:
            break
        yield nodes.Const("".join(combo), parent=node, lineno=node.lineno, col_offset=node.col_offset)


def _safe_infer(node: nodes.NodeNG, context: InferenceContext | None = None) -> list:
    try:
        return list(itertools.islice(node.infer(context=context.clone() if context else None), MAX_VALUES))
    except FileTimeout:
        raise
    except (AstroidError, RecursionError, KeyError, AttributeError, TypeError, ValueError, IndexError):
        return [Uninferable]


def register(ctx: Context) -> None:
    manager = AstroidManager()
    manager.max_inferable_values = MAX_VALUES
    manager.register_transform(nodes.Call, inference_tip(functools.partial(_infer_widget_get, ctx)), _is_widget_get)
    manager.register_transform(nodes.JoinedStr, inference_tip(_infer_fstring))


# ---------------------------------------------------------------- values


def strings(node: nodes.NodeNG, context: InferenceContext | None = None) -> list[str | None]:
    """The texts `node` may hold; None for a value astroid cannot know."""
    out: list[str | None] = []
    for v in _safe_infer(node, context):
        if isinstance(v, nodes.Const) and isinstance(v.value, str):
            out.append(v.value)
        else:
            out.append(None)
    return list(dict.fromkeys(out)) or [None]


PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _table_name(table: exp.Expression, holes: dict[str, str]) -> str | None:
    if isinstance(table, exp.Schema):
        table = table.this
    if not isinstance(table, exp.Table):
        return None
    parts = [p.name for p in table.parts]
    if len(parts) == 2 and parts[0].lower() == "delta" and ("/" in parts[1] or parts[1] in holes):
        path = holes.get(parts[1], parts[1])
        return "delta:" + path
    name = ".".join(parts).lower()
    for token, text in holes.items():
        name = name.replace(token, text)
    return name or None


_SQL_KINDS = (
    (exp.Merge, "merge"),
    (exp.Update, "update"),
    (exp.Delete, "delete"),
    (exp.TruncateTable, "truncate"),
    (exp.Alter, "metadata_change"),
    (exp.Copy, "copy_into"),
)
_COMMAND = re.compile(r"^\s*(OPTIMIZE|VACUUM|RESTORE\s+TABLE|REORG\s+TABLE)\s+([\w.`{}\-]+)", re.I)
_FALLBACK = re.compile(
    r"\b(INSERT\s+(?:INTO|OVERWRITE)(?:\s+TABLE)?|MERGE\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE\s+TABLE"
    r"|CREATE\s+(?:OR\s+REPLACE\s+)?TABLE(?:\s+IF\s+NOT\s+EXISTS)?|OPTIMIZE|VACUUM)\s+([\w.`{}\-]+)",
    re.I,
)


def sql_writes(text: str) -> list[tuple[str | None, str]]:
    """The (table, kind) pairs a SQL text writes; `{x}` placeholders stay in names."""
    holes: dict[str, str] = {}

    def hole(m: re.Match) -> str:
        token = f"ph{len(holes)}zz"
        holes[token] = m.group(0)
        return token

    prepared = PLACEHOLDER.sub(hole, text)
    out: list[tuple[str | None, str]] = []
    try:
        statements = sqlglot.parse(prepared, read="databricks")
    except Exception:  # sqlglot's ParseError and TokenError alike: fall back to the keywords
        for m in _FALLBACK.finditer(prepared):
            name = m.group(2).replace("`", "").lower()
            for token, t in holes.items():
                name = name.replace(token, t)
            out.append((name, m.group(1).split()[0].lower()))
        return out
    for st in statements:
        if st is None:
            continue
        if isinstance(st, exp.Use):
            kind = str(st.args.get("kind") or "").upper()
            name = _table_name(st.this, holes) if isinstance(st.this, exp.Table) else st.this.name.lower()
            out.append((name, "use_catalog" if kind == "CATALOG" else "use_schema"))
            continue
        if isinstance(st, exp.Insert):
            kind = "full_overwrite" if st.args.get("overwrite") else "blind_append"
            out.append((_table_name(st.this, holes), kind))
            continue
        if isinstance(st, exp.Create) and str(st.args.get("kind", "")).upper() == "TABLE":
            out.append((_table_name(st.this, holes), "create_or_replace" if st.args.get("replace") else "create"))
            continue
        for cls, kind in _SQL_KINDS:
            if isinstance(st, cls):
                out.append((_table_name(st.this, holes), kind))
                break
        else:
            if isinstance(st, exp.Command):
                m = _COMMAND.match(st.sql(dialect="databricks"))
                if m:
                    name = m.group(2).replace("`", "").lower()
                    for token, t in holes.items():
                        name = name.replace(token, t)
                    out.append((name, m.group(1).split()[0].lower()))
    return out


# ---------------------------------------------------------------- write sites


def _chain(call: nodes.Call) -> list[tuple[str, nodes.Call]]:
    """The method calls of a fluent chain, innermost first: `df.write.mode(m).saveAsTable(t)`."""
    out: list[tuple[str, nodes.Call]] = []
    node: nodes.NodeNG = call
    while True:
        if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute):
            out.append((node.func.attrname, node))
            node = node.func.expr
        elif isinstance(node, nodes.Attribute):
            node = node.expr
        else:
            break
    return out[::-1]


def _arg(call: nodes.Call, index: int, keyword: str) -> nodes.NodeNG | None:
    for kw in call.keywords or []:
        if kw.arg == keyword:
            return kw.value
    return call.args[index] if len(call.args) > index else None


def _writer_kind(chain: list[tuple[str, nodes.Call]], streaming: bool) -> str:
    mode, replace_where = "", False
    for name, call in chain:
        if name == "mode" and call.args and isinstance(call.args[0], nodes.Const):
            mode = str(call.args[0].value).lower()
        if name == "option" and call.args and isinstance(call.args[0], nodes.Const):
            replace_where |= str(call.args[0].value).lower() == "replacewhere"
    if streaming:
        return "streaming_write"
    if replace_where:
        return "replace_where"
    return "full_overwrite" if mode == "overwrite" else "blind_append"


def _format(chain: list[tuple[str, nodes.Call]]) -> str | None:
    for name, call in chain:
        if name == "format" and call.args and isinstance(call.args[0], nodes.Const):
            return str(call.args[0].value).lower()
        if name in ("parquet", "csv", "json", "orc", "text", "jdbc"):
            return name
    return None


@dataclass
class Site:
    """One write: the node whose value names the table, how to turn values into tables."""

    stmt: nodes.NodeNG
    value: nodes.NodeNG | None
    kind: str
    how: str  # "table" | "sql" | "path"


def _delta_table_source(node: nodes.NodeNG, depth: int = 0) -> nodes.Call | None:
    """`DeltaTable.forName(spark, t)` / `forPath` a merge/update/delete chain starts from."""
    if depth > 4:
        return None
    while isinstance(node, (nodes.Call, nodes.Attribute)):
        if (
            isinstance(node, nodes.Call)
            and isinstance(node.func, nodes.Attribute)
            and node.func.attrname
            in (
                "forName",
                "forPath",
            )
        ):
            return node
        node = node.func if isinstance(node, nodes.Call) else node.expr
    if isinstance(node, nodes.Name):
        try:
            _, assigns = node.lookup(node.name)
        except AstroidError:
            return None
        for a in assigns:
            parent = a.parent
            if isinstance(parent, nodes.Assign) and parent.value is not None:
                got = _delta_table_source(parent.value, depth + 1)
                if got is not None:
                    return got
    return None


def _site_node(call: nodes.Call) -> nodes.NodeNG:
    """The outermost expression of the statement the call is in: its first line is the
    write's line (`_ = (\n  df.write...saveAsTable(t)\n)` is at `df`'s line)."""
    node: nodes.NodeNG = call
    while node.parent is not None and not node.parent.is_statement:
        node = node.parent
    return node


def sites(module: nodes.Module) -> list[Site]:
    out: list[Site] = []
    for call in module.nodes_of_class(nodes.Call):
        f = call.func
        if not isinstance(f, nodes.Attribute):
            continue
        name = f.attrname
        stmt = _site_node(call)
        if name == "sql" and call.args:
            out.append(Site(stmt, _arg(call, 0, "sqlQuery"), "", "sql"))
        elif name in ("saveAsTable", "insertInto", "toTable"):
            chain = _chain(call)
            fmt = _format(chain)
            if fmt not in (None, "delta"):
                continue
            kind = "blind_append" if name == "insertInto" else _writer_kind(chain, name == "toTable")
            out.append(Site(stmt, _arg(call, 0, "tableName" if name != "toTable" else "tableName"), kind, "table"))
        elif name in ("save", "start") and (call.args or call.keywords):
            chain = _chain(call)
            if not any(n in ("write", "writeStream") for n, _ in chain) and not isinstance(call.func.expr, nodes.Call):
                continue
            if _format(chain) not in (None, "delta"):
                continue
            out.append(Site(stmt, _arg(call, 0, "path"), _writer_kind(chain, name == "start"), "path"))
        elif name in ("setCurrentDatabase", "setCurrentCatalog") and call.args:
            kind = "use_schema" if name == "setCurrentDatabase" else "use_catalog"
            out.append(Site(stmt, _arg(call, 0, "dbName"), kind, "table"))
        elif name in ("merge", "update", "delete", "execute"):
            if name == "execute":
                continue  # the merge that `execute()` ends is found at its `merge`
            source = _delta_table_source(f.expr)
            if source is None:
                continue
            how = "table" if source.func.attrname == "forName" else "path"
            out.append(Site(stmt, _arg(source, 1, "tableOrViewName" if how == "table" else "path"), name, how))
    return out


def _tables(site: Site, context: InferenceContext | None) -> list[tuple[str | None, str]]:
    if site.value is None:
        return [(None, site.kind or "unknown")]
    texts = strings(site.value, context)
    out: list[tuple[str | None, str]] = []
    for text in texts:
        if text is None:
            out.append((None, site.kind or "unknown"))
        elif site.how == "sql":
            out.extend(sql_writes(text))
        elif site.how == "path":
            out.append(("delta:" + text, site.kind))
        else:
            out.append((text.replace("`", "").lower(), site.kind))
    return out


def _place(fn: nodes.FunctionDef) -> tuple[str, int, str]:
    """A function by where it is written: astroid may parse one file twice (once
    as our notebook, once imported by module name)."""
    return (str(Path(fn.root().file or "").resolve()), fn.lineno, fn.name)


def _needs_call_site(site: Site, tables: list[tuple[str | None, str]]) -> nodes.FunctionDef | None:
    """The function a write sits in when some table is unknown or a placeholder."""
    scope = site.stmt.scope()
    if not isinstance(scope, nodes.FunctionDef):
        return None
    if any(t is None or "{" in t for t, _ in tables):
        return scope
    return None


def qualify(found: list[Intent]) -> list[Intent]:
    """Names the file's `USE CATALOG` / `USE SCHEMA` / `spark.catalog.setCurrentDatabase`
    above them complete (the last one above each write; one value each)."""
    uses = sorted((i.line, i.kind, i.table) for i in found if i.kind.startswith("use_") and i.table)
    out = []
    for i in found:
        if i.kind.startswith("use_"):
            continue
        if i.table and not i.table.startswith("delta:") and i.table.count(".") < 2:
            catalog = schema = None
            for line, kind, name in uses:
                if line > i.line:
                    break
                if kind == "use_catalog":
                    catalog = name
                elif name.count(".") == 1:
                    catalog, schema = name.split(".")
                else:
                    schema = name
            if i.table.count(".") == 0 and schema:
                i.table = f"{schema}.{i.table}"
            if i.table.count(".") == 1 and catalog:
                i.table = f"{catalog}.{i.table}"
        out.append(i)
    return out


# ---------------------------------------------------------------- jobs


def _job_params(root: Path) -> dict[Path, dict[str, set[str]]]:
    """`base_parameters` and job `parameters` of the notebook tasks of bundle YAML
    and Jobs JSON under `root`: file -> name -> every value a task gives."""
    out: dict[Path, dict[str, set[str]]] = {}

    def visit(obj: object, base: Path, job_params: dict[str, str]) -> None:
        if isinstance(obj, dict):
            if isinstance(obj.get("parameters"), list) and "tasks" in obj:
                job_params = {
                    str(p.get("name")): str(p.get("default"))
                    for p in obj["parameters"]
                    if isinstance(p, dict) and "name" in p
                }
            task = obj.get("notebook_task")
            if isinstance(task, dict) and isinstance(task.get("notebook_path"), str):
                given = dict(task.get("base_parameters") or {}) if isinstance(task.get("base_parameters"), dict) else {}
                given = {str(k): str(v) for k, v in given.items()}
                given.update(job_params)
                raw = task["notebook_path"]
                for candidate in _notebook_files(base, raw):
                    slot = out.setdefault(candidate, {})
                    for k, v in given.items():
                        if "{{" not in v and "${" not in v:
                            slot.setdefault(k, set()).add(v)
            for v in obj.values():
                visit(v, base, job_params)
        elif isinstance(obj, list):
            for v in obj:
                visit(v, base, job_params)

    for path in _walk(root, (".yml", ".yaml", ".json")):
        try:
            text = path.read_text(encoding="utf-8")
            data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        except Exception:  # any unreadable job file is skipped, as it is not this spike's subject
            continue
        visit(data, path.parent, {})
    return out


def _notebook_files(base: Path, raw: str) -> list[Path]:
    rel = raw.lstrip("/") if not raw.startswith(".") else raw
    out = []
    for start in (base, base.parent, base.parent.parent):
        p = (start / rel).resolve()
        for candidate in (p, p.with_suffix(".py"), Path(str(p) + ".py")):
            if candidate.is_file():
                out.append(candidate)
                break
        if out:
            break
    return out


# ---------------------------------------------------------------- scanning


def _walk(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(suffixes):
                yield Path(dirpath) / name


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def fire(signum: int, frame: object) -> None:
        raise FileTimeout

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("") if path.is_relative_to(root) else Path(path.stem)
    return ".".join(re.sub(r"\W", "_", p) for p in rel.parts)


def _parse(path: Path, root: Path, scan: Scan, ctx: Context, depth: int = 0) -> nodes.Module | None:
    """The file as an astroid module, parsed once per scan: notebook cells joined, each
    `%run` child imported with `*` where the `%run` stands (under an alias in astroid's
    module cache, as a notebook's name need not be an identifier)."""
    key = path.resolve()
    if key in ctx.modules:
        return ctx.modules[key]  # None while in progress: a `%run` cycle imports nothing
    ctx.modules[key] = None
    text = path.read_text(encoding="utf-8", errors="replace")
    code, python, runs = python_source(text)
    lines = code.split("\n")
    if key.is_relative_to(root):
        scan.python_lines[str(key.relative_to(root))] = python
    for line, target in runs:
        child = _resolve_run(path, target)
        mod = _parse(child, root, scan, ctx, depth + 1) if child is not None and depth < 4 else None
        if mod is None:
            continue
        alias = f"_run_{len(ctx.run_aliases)}"
        ctx.run_aliases[alias] = mod
        AstroidManager().astroid_cache[alias] = mod
        lines[line - 1] = f"from {alias} import *"
    try:
        module = astroid.parse("\n".join(lines), module_name=_module_name(key, root), path=str(path))
    except FileTimeout:
        raise
    except Exception:  # astroid's syntax error and anything its tree builder raises on odd code
        scan.parse_errors += 1
        return None
    AstroidManager().astroid_cache[module.name] = module
    ctx.modules[key] = module
    return module


def _resolve_run(path: Path, target: str) -> Path | None:
    p = (path.parent / target).resolve()
    for candidate in (p, Path(str(p) + ".py")):
        if candidate.is_file():
            return candidate
    return None


def scan(root: Path, time_limit: float = FILE_SECONDS, parse_only: bool = False) -> Scan:
    """Every write site of the Python files and notebooks under `root`, tables inferred
    (with `parse_only`, astroid's trees only: the floor any use of astroid pays)."""
    root = root.resolve()
    manager = AstroidManager()
    manager.clear_cache()  # astroid's module cache and transforms are process-wide: one scan at a time
    ctx = Context(root, _job_params(root))
    register(ctx)
    result = Scan()
    search = [str(root), str(root / "src")]
    saved_path = list(sys.path)
    sys.path[:0] = search
    pending: dict[str, list[tuple[nodes.FunctionDef, Site]]] = {}
    modules: list[tuple[Path, nodes.Module]] = []
    try:
        for path in _walk(root, (".py",)):
            result.files += 1
            rel = str(path.relative_to(root))
            try:
                with _time_limit(time_limit):
                    module = _parse(path, root, result, ctx)
                    if module is None or parse_only:
                        continue
                    modules.append((path, module))
                    found: list[Intent] = []
                    for site in sites(module):
                        tables = _tables(site, None)
                        fn = _needs_call_site(site, tables)
                        if fn is not None:
                            pending.setdefault(fn.name, []).append((fn, site))
                        for table, kind in tables:
                            found.append(Intent(rel, site.stmt.lineno, table, kind, "site"))
                    result.intents.extend(qualify(found))
            except FileTimeout:
                result.timeouts += 1
            except Exception:  # counted: one file's failure never stops the others
                result.errors += 1
        # second pass: a helper's write at every call astroid resolves to the helper
        if pending:
            for path, module in modules:
                rel = str(path.relative_to(root))
                try:
                    with _time_limit(time_limit):
                        for call in module.nodes_of_class(nodes.Call):
                            f = call.func
                            name = f.attrname if isinstance(f, nodes.Attribute) else getattr(f, "name", None)
                            if name not in pending:
                                continue
                            targets = {_place(t) for t in _safe_infer(f) if isinstance(t, nodes.FunctionDef)}
                            for fn, site in pending[name]:
                                if _place(fn) not in targets:
                                    continue
                                context = InferenceContext()
                                # astroid binds parameters only for the callee the call context names
                                context.callcontext = CallContext(call.args, call.keywords, callee=fn)
                                for table, kind in _tables(site, context):
                                    if not kind.startswith("use_"):
                                        line = _site_node(call).lineno
                                        result.intents.append(Intent(rel, line, table, kind, "call-site"))
                except FileTimeout:
                    result.timeouts += 1
                except Exception:  # counted: one file's failure never stops the others
                    result.errors += 1
    finally:
        sys.path[:] = saved_path
    return result


# ---------------------------------------------------------------- the real-world corpus


def _python_subset(expect: dict, python_lines: dict[str, set[int]]) -> dict:
    """The expectation with only the writes at Python statements (.py files, Python cells)."""
    from benchmarks.realworld.measure import _site

    keep = []
    for w in expect.get("writes") or []:
        path, line = _site(w["site"])
        if path.endswith(".py") and line in python_lines.get(path, set()):
            keep.append(w)
    return dict(expect, writes=keep, conflicts=[])


def _by_site(intents: list[dict]) -> dict[tuple[str, int], list[str | None]]:
    out: dict[tuple[str, int], list[str | None]] = {}
    for i in intents:
        if i.get("kind") != "streaming_read":
            out.setdefault((str(i["path"]).lstrip("./"), i["line"]), []).append(i.get("table"))
    return out


def realworld(out: Path, baseline_cache: Path, only: str | None) -> int:
    from benchmarks.realworld.__main__ import _expectation, _key, manifest
    from benchmarks.realworld.measure import Run, _same_table, _site, run_repo, score

    base_tree = os.environ.get("DELTA_LINT_BASELINE", str(Path(__file__).resolve().parents[1]))
    base_python = os.environ.get("DELTA_LINT_PYTHON", "python")
    cached = json.loads(baseline_cache.read_text()) if baseline_cache.is_file() else {}
    totals: dict[tuple[str, str, str], list[int]] = {}
    seconds = {"spike": {"learn": 0.0, "held-out": 0.0}, "delta-lint": {"learn": 0.0, "held-out": 0.0}}
    counts = {"timeouts": 0, "parse_errors": 0, "errors": 0}
    learn_rows = []
    for entry in manifest():
        key = _key(entry)
        if only and only not in key:
            continue
        expect, checkout = _expectation(entry), out / _key(entry)
        if expect is None or not checkout.is_dir():
            continue
        split = entry.get("split", "learn")
        folder = checkout / expect.get("folder", ".")
        start = time.perf_counter()
        result = scan(folder)
        spent = time.perf_counter() - start
        for k in counts:
            counts[k] += getattr(result, k)
        seconds["spike"][split] += spent
        spike_run = Run(0, {"findings": []}, [i.as_dict() for i in result.intents], None, "", spent)
        if key not in cached:
            env = dict(os.environ, PYTHONPATH=base_tree)
            run = run_repo(expect, checkout, [base_python, "-m", "delta_lint"], env)
            cached[key] = {"intents": run.intents, "report": run.report, "seconds": run.seconds, "code": run.exit_code}
            baseline_cache.parent.mkdir(parents=True, exist_ok=True)
            baseline_cache.write_text(json.dumps(cached))
        b = cached[key]
        base_run = Run(b["code"], b["report"], b["intents"], None, "", b["seconds"])
        seconds["delta-lint"][split] += b["seconds"]
        subset = _python_subset(expect, result.python_lines)
        # value inference alone: the Python writes both located, whose table each got right
        located = {label: _by_site(run.intents) for label, run in (("spike", spike_run), ("delta-lint", base_run))}
        for w in subset["writes"]:
            site, want = _site(w["site"]), str(w.get("table", "?")).lower()
            if site in located["spike"] and site in located["delta-lint"]:
                t = totals.setdefault(("both-located", "python", split), [0, 0, 0, 0])
                t[0] += 1
                t[1] += any(_same_table(want, g) for g in located["spike"][site])
                t[2] += any(_same_table(want, g) for g in located["delta-lint"][site])
        for label, run in (("spike", spike_run), ("delta-lint", base_run)):
            py_run = Run(
                run.exit_code,
                run.report,
                [
                    i
                    for i in run.intents
                    if i.get("line") in result.python_lines.get(i.get("path", "").lstrip("./"), ())
                ],
                None,
                "",
                run.seconds,
            )
            for scope, exp_, r in (("all", expect, run), ("python", subset, py_run)):
                o = score(exp_, checkout, r)
                t = totals.setdefault((label, scope, split), [0, 0, 0, 0])
                t[0] += o.writes
                t[1] += o.found_sites
                t[2] += o.found_tables
                t[3] += o.false_intents
                if split == "learn" and scope == "python":
                    learn_rows.append((key, label, o))
    print("| measure | spike learn | delta-lint learn | spike held-out | delta-lint held-out |")
    print("|---|---|---|---|---|")
    for scope in ("all", "python"):
        for col, label in ((1, "site recall"), (2, "table recall"), (3, "false intents")):
            cells = []
            for split in ("learn", "held-out"):
                for who in ("spike", "delta-lint"):
                    t = totals.get((who, scope, split), [0, 0, 0, 0])
                    cells.append(f"{100 * t[col] / t[0]:.0f}% ({t[col]}/{t[0]})" if col < 3 and t[0] else str(t[col]))
            print(f"| {label} ({scope} writes) | " + " | ".join(cells) + " |")
    for split in ("learn", "held-out"):
        t = totals.get(("both-located", "python", split), [0, 0, 0, 0])
        if t[0]:
            print(
                f"| {split}: Python writes both located, table right | spike {100 * t[1] / t[0]:.0f}% ({t[1]}/{t[0]}) "
                f"| delta-lint {100 * t[2] / t[0]:.0f}% ({t[2]}/{t[0]}) | | |"
            )
    print(
        f"| seconds (spike scan; delta-lint check) | {seconds['spike']['learn']:.1f} | {seconds['delta-lint']['learn']:.1f} "
        f"| {seconds['spike']['held-out']:.1f} | {seconds['delta-lint']['held-out']:.1f} |"
    )
    print(f"\nspike: {counts}")
    if os.environ.get("SPIKE_DETAIL"):  # learn repositories only: held-out ones are never debugged
        for key, label, o in learn_rows:
            if label == "spike" and o.misses:
                print(f"\n## {key} (python writes, spike)")
                for m in o.misses:
                    print(f"  miss {m}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.astroid_spike", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("scan", help="print the intents of the Python files under DIR as JSON")
    s.add_argument("dir", type=Path)
    s.add_argument("--quiet", action="store_true", help="print counts only")
    s.add_argument("--parse-only", action="store_true", help="build astroid's trees, infer nothing")
    r = sub.add_parser("realworld", help="score the spike and delta-lint on the real-world corpus")
    r.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder of the checkouts (owner+name)")
    r.add_argument(
        "--baseline", type=Path, default=Path(tempfile.gettempdir()) / "astroid-spike" / "baseline-runs.json"
    )
    r.add_argument("--only")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    logging.getLogger("sqlglot").setLevel(logging.ERROR)  # its "falling back to Command" notes
    if args.command == "scan":
        result = scan(args.dir, parse_only=args.parse_only)
        if args.quiet:
            known = sum(1 for i in result.intents if i.table and "{" not in i.table)
            print(
                json.dumps(
                    {
                        "files": result.files,
                        "intents": len(result.intents),
                        "resolved": known,
                        "parse_errors": result.parse_errors,
                        "timeouts": result.timeouts,
                        "errors": result.errors,
                    }
                )
            )
        else:
            print(json.dumps([i.as_dict() for i in result.intents], indent=1))
        return 0
    return realworld(args.out, args.baseline, args.only)


if __name__ == "__main__":
    sys.exit(main())
