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

from delta_lint.frontend.pysource import still_open
from delta_lint.model import Intent, Kind, Location, TableRef

_SQL_DEFINITION = re.compile(
    r"\bCREATE\s+(?:OR\s+REFRESH\s+)?(?:PRIVATE\s+|TEMPORARY\s+)?"
    r"(?P<what>STREAMING\s+(?:LIVE\s+)?TABLE|MATERIALIZED\s+VIEW|LIVE\s+TABLE)\s+(?:IF\s+NOT\s+EXISTS\s+)?"
    r"(?P<name>[\w`.]+)"
    r"|\b(?:APPLY\s+CHANGES|AUTO\s+CDC)\s+INTO\s+(?P<cdc>[\w`.]+)"
    r"|\bCREATE\s+FLOW\s+[\w`.]+\s+AS\s+INSERT\s+INTO\s+(?:ONCE\s+)?(?P<flow>[\w`.]+)",
    re.IGNORECASE,
)
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


def analyze_lakeflow(display: str, suffix: str, text: str, catalog: str | None, schema: str | None) -> list[Intent]:
    """The writes a pipeline's update makes for the tables this file defines."""
    found = _python(text) if suffix != ".sql" and not _is_sql_notebook(text) else _sql(text)
    out = []
    seen: set[tuple[str, Kind]] = set()
    for line, col, name, kind in found:
        table = _qualify(name, catalog, schema)
        if table is None or (table, kind) in seen:
            continue
        seen.add((table, kind))
        out.append(
            Intent(
                location=Location(display, line, col),
                table=TableRef(table),
                kind=kind,
                subkind="lakeflow",
                statement=f"Lakeflow pipeline update of `{table}`",
            )
        )
    return out


def _is_sql_notebook(text: str) -> bool:
    return text.lstrip().startswith("-- Databricks notebook source")


def _sql(text: str) -> list[tuple[int, int, str, Kind]]:
    blanked = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out = []
    for m in _SQL_DEFINITION.finditer(blanked):
        line = blanked.count("\n", 0, m.start()) + 1
        col = m.start() - (blanked.rfind("\n", 0, m.start()) + 1) + 1
        if m["name"]:
            kind = Kind.FULL_OVERWRITE if m["what"].upper().startswith("MATERIALIZED") else Kind.STREAMING_WRITE
            if m["what"].upper().startswith("LIVE"):
                kind = Kind.FULL_OVERWRITE
            out.append((line, col, m["name"], kind))
        elif m["cdc"]:
            out.append((line, col, m["cdc"], Kind.MERGE))
        elif m["flow"]:
            out.append((line, col, m["flow"], Kind.STREAMING_WRITE))
    return out


def _python(text: str) -> list[tuple[int, int, str, Kind]]:
    lines, depth = [], 0
    for line in text.splitlines():  # magics only at a logical line's start (see `still_open`)
        lines.append(_cell_line(line) if depth == 0 else line)
        depth = still_open(lines[-1], depth)
    source = "\n".join(lines)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in node.decorator_list:
                attr = _pipeline_attr(deco.func if isinstance(deco, ast.Call) else deco)
                if attr not in _DECORATOR_KINDS:
                    continue
                call = deco if isinstance(deco, ast.Call) else None
                name = _keyword(call, "target" if attr == "append_flow" else "name") if call else None
                kind = _DECORATOR_KINDS[attr] or (
                    Kind.STREAMING_WRITE
                    if "readStream" in ast.unparse(node) or "read_stream" in ast.unparse(node)
                    else Kind.FULL_OVERWRITE
                )
                out.append((deco.lineno, deco.col_offset + 1, name or node.name, kind))
        elif isinstance(node, ast.Call):
            attr = _pipeline_attr(node.func)
            if attr in _CALL_KINDS:
                name = _keyword(node, "target" if "cdc" in attr or "changes" in attr else "name")
                if name is None and node.args and isinstance(node.args[0], ast.Constant):
                    name = str(node.args[0].value)
                if name:
                    out.append((node.lineno, node.col_offset + 1, name, _CALL_KINDS[attr]))
    return out


def _cell_line(line: str) -> str:
    """A Databricks source notebook's line as Python (magics blanked)."""
    stripped = line.lstrip()
    magic = stripped.startswith(("%", "# MAGIC")) or (stripped.startswith("!") and not stripped.startswith("!="))
    return "" if magic else line


def _pipeline_attr(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _MODULES:
        return node.attr
    return None


def _keyword(call: ast.Call | None, name: str) -> str | None:
    for k in call.keywords if call else ():
        if k.arg == name and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
            return k.value.value
    return None


def _qualify(name: str, catalog: str | None, schema: str | None) -> str | None:
    parts = [p.strip("`") for p in name.split(".") if p.strip("`")]
    if parts and parts[0].lower() == "live":
        parts = parts[1:]
    if not parts or any("{" in p or "$" in p for p in parts):
        return None
    if len(parts) == 1 and schema:
        parts = [schema, *parts]
    if len(parts) == 2 and catalog:
        parts = [catalog, *parts]
    return ".".join(parts).lower()
