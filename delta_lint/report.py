"""Reporters: one list of findings in, text or JSON out. Rules never print."""

from __future__ import annotations

import json
import os
import sys

from delta_lint.engine import Finding
from delta_lint.model import Intent

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def use_color(stream=None) -> bool:
    stream = stream or sys.stdout
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


def text(findings: list[Finding], files: int, intents: int, color: bool = False) -> str:
    lines = []
    for f in findings:
        exc = f" [{f.exception}]" if f.exception else ""
        code = f.rule
        loc = str(f.location)
        if color:
            code = f"{_COLORS.get(f.severity, '')}{_BOLD}{f.rule}{_RESET}"
            loc = f"{_BOLD}{loc}{_RESET}"
        lines.append(f"{loc}: {code}{exc} {f.message}")
        for r in f.related:
            lines.append(f"    related: {r}")
        if f.overlap:
            lines.append(f"    overlap: {f.overlap}")
        if f.fix:
            lines.append(f"    fix: {f.fix}")
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    if findings:
        summary = f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({counts['error']} error, {counts['warning']} warning, {counts['info']} info) in {files} files, {intents} intents."
    else:
        summary = f"All checks passed: {files} files, {intents} intents."
    lines.append(summary)
    return "\n".join(lines) + "\n"


def to_json(findings: list[Finding], files: int, intents: int) -> str:
    doc = {
        "version": 1,
        "findings": [f.to_json() for f in findings],
        "summary": {"files": files, "intents": intents, "findings": len(findings)},
    }
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def intents_text(intents: list[Intent]) -> str:
    lines = []
    for i in intents:
        flags = ",".join(sorted(f.value for f in i.flags)) or "-"
        extra = []
        if i.params:
            extra.append("params=" + ",".join(i.params))
        if i.zorder_by:
            extra.append("zorder=" + ",".join(i.zorder_by))
        if i.checkpoint:
            extra.append("checkpoint=" + i.checkpoint)
        if i.subkind:
            extra.append("subkind=" + i.subkind)
        table = i.table.name if i.table else "-"
        pred = i.predicate_sql or "-"
        lines.append(
            f"{i.location}  {table}  {i.kind.value}  {pred}  {flags}" + ("  " + " ".join(extra) if extra else "")
        )
    return "\n".join(lines) + ("\n" if lines else "")


def intents_json(intents: list[Intent]) -> str:
    return json.dumps([i.to_json() for i in intents], indent=2) + "\n"
