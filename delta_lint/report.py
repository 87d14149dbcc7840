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


# -- tables ---------------------------------------------------------------------------


def table_rows(result, engine_row_level) -> list[dict]:
    """One row per target table: its settings, their source and row-level concurrency."""
    rows = []
    problems = result.read.problems if result.read else {}
    for name in sorted(result.settings):
        s = result.settings[name]
        r = s.read
        applies, why = engine_row_level(s)
        rows.append(
            {
                "table": name,
                "source": s.source,
                "location": r.location if r else None,
                "table_version": r.table_version if r else None,
                "read_at": r.read_at if r else None,
                "partitioned_by": list(s.partitioned_by),
                "clustered_by": list(s.clustered_by),
                "deletion_vectors": s.has_deletion_vectors,
                "isolation_level": s.isolation_level,
                "identity_columns": list(s.identity_columns),
                "row_tracking": r.row_tracking if r else None,
                "protocol": f"{r.min_reader_version}/{r.min_writer_version}" if r and r.min_reader_version else None,
                "features": sorted(set(r.reader_features) | set(r.writer_features)) if r else [],
                "row_level_concurrency": applies,
                "row_level_reason": why,
                "problem": problems.get(name),
            }
        )
    return rows


def tables_text(rows: list[dict], runtime: str, mode: str) -> str:
    header = [
        "table",
        "source",
        "version",
        "partitioned by",
        "clustered by",
        "DV",
        "isolation",
        "identity",
        "row-level",
    ]
    body = []
    for r in rows:
        body.append(
            [
                r["table"],
                r["source"],
                "-" if r["table_version"] is None else str(r["table_version"]),
                ", ".join(r["partitioned_by"]) or "-",
                ", ".join(r["clustered_by"]) or "-",
                "yes" if r["deletion_vectors"] else "no",
                r["isolation_level"],
                ", ".join(r["identity_columns"]) or "-",
                ("yes" if r["row_level_concurrency"] else "no") + f" ({r['row_level_reason']})",
            ]
        )
    widths = [max(len(x) for x in col) for col in zip(header, *body)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in [header, *body]]
    for r in rows:
        extra = []
        if r["location"]:
            extra.append(f"location {r['location']}")
        if r["features"]:
            extra.append(f"protocol {r['protocol']} features {', '.join(r['features'])}")
        if r["row_tracking"]:
            extra.append("row tracking")
        if r["problem"]:
            extra.append(f"not read: {r['problem']}")
        if extra:
            lines.append(f"  {r['table']}: {'; '.join(extra)}")
    lines.append(f"{len(rows)} tables; settings via {mode}; row-level concurrency for runtime {runtime}.")
    return "\n".join(lines) + "\n"


def tables_json(rows: list[dict], runtime: str, mode: str) -> str:
    return json.dumps({"version": 1, "runtime": runtime, "spark": mode, "tables": rows}, indent=2) + "\n"
