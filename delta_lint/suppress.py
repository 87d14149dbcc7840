"""Suppressions: inline `delta-lint: ignore[...]` comments, file-level
`delta-lint: ignore-file[...]`, and `per-file-ignores` in the configuration.

A suppression that matches no finding is itself reported (DL005), like ruff's
RUF100, so suppressions do not outlive the code they were written for.

Comment forms (in `#` or `--` comments, also inside `spark.sql` strings):

    -- delta-lint: ignore[DL101]          on the statement's first line, or
    # delta-lint: ignore[DL101, DL104]    alone on the line(s) above it
    # delta-lint: ignore                  every rule
    -- delta-lint: ignore-file[DL104]     anywhere: the whole file

A write in a helper is reported at the helper's call; a line comment at the write's
own statement (the finding's statement site) suppresses it too, at every call, as
the author of the helper means it. File-level comments and `per-file-ignores` of
the helper's file do not reach findings reported in other files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from delta_lint.globs import matches_any

if TYPE_CHECKING:
    from delta_lint.model import Finding

UNUSED_SUPPRESSION = "DL005"
_DIRECTIVE = re.compile(
    r"(?P<lead>#|--)\s*delta-lint:\s*(?P<kind>ignore-file|ignore)\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE
)
_CODE = re.compile(r"^DL\d{1,3}$")
_COMMENT_ONLY = re.compile(r"^\s*(?:[\"']?\s*)?(?:#|--)")


@dataclass(frozen=True)
class Directive:
    line: int  # where the comment is
    column: int
    applies_to: int | None  # the line it covers; None for ignore-file
    codes: frozenset[str] | None  # None: every rule
    text: str


@dataclass
class FileSuppressions:
    directives: list[Directive] = field(default_factory=list)
    problems: list[tuple[int, int, str]] = field(default_factory=list)  # malformed directives


def scan(text: str) -> FileSuppressions:
    """Every directive in a file, with the line each one covers."""
    out = FileSuppressions()
    lines = text.split("\n")
    next_code: list[int] | None = None  # per line, the next code line below it; made on first use
    for index, line in enumerate(lines):
        if "delta-lint" not in line:
            continue
        for m in _DIRECTIVE.finditer(line):
            codes = None
            if m.group("codes") is not None:
                parts = [c.strip().upper() for c in m.group("codes").split(",") if c.strip()]
                bad = [c for c in parts if not _CODE.match(c)]
                if bad or not parts:
                    out.problems.append(
                        (index + 1, m.start() + 1, f"`{m.group(0)}`: expected rule ids like ignore[DL101]")
                    )
                    continue
                codes = frozenset(parts)
            if m.group("kind").lower() == "ignore-file":
                applies = None
            elif _COMMENT_ONLY.match(line[: m.start()] + m.group("lead")):
                if next_code is None:
                    next_code = _next_code_lines(lines)
                applies = next_code[index]
            else:
                applies = index + 1
            out.directives.append(Directive(index + 1, m.start() + 1, applies, codes, m.group(0)))
    return out


def _next_code_lines(lines: list[str]) -> list[int]:
    """For each line, the first line after it that is not a comment or blank
    (1-based; the line after it when there is none). One pass from the end: a file
    of 50,000 comment lines must not be walked once per comment."""
    out = [0] * len(lines)
    following: int | None = None
    for j in range(len(lines) - 1, -1, -1):
        out[j] = following if following is not None else j + 2
        if lines[j].strip() and not _COMMENT_ONLY.match(lines[j]):
            following = j + 1
    return out


def _covers(codes: frozenset[str] | None, rule: str) -> bool:
    return codes is None or rule in codes


def apply(
    findings: list[Finding],
    scans: dict[str, FileSuppressions],
    per_file_ignores: dict[str, tuple[str, ...]],
    rel_path: dict[str, str],
    selected: Callable[[str], bool],
) -> tuple[list[Finding], list[Finding]]:
    """(findings that remain, DL005 findings for suppressions that matched nothing).

    `rel_path` maps a display path to the path relative to the configuration root,
    which is what `per-file-ignores` globs are written against."""

    used: set[tuple[str, int, str | None]] = set()
    kept = []
    # directives by the line they cover (None: the whole file), so each finding looks
    # only at its own line's: a file may hold tens of thousands of comments
    by_line: dict[str, dict[int | None, list[Directive]]] = {}
    for path, scan_result in scans.items():
        index = by_line[path] = {}
        for d in scan_result.directives:
            index.setdefault(d.applies_to, []).append(d)
    for f in findings:
        path = f.location.path
        rel = rel_path.get(path, path)
        if any(matches_any(rel, (glob,)) and _prefix_match(f.rule, rules) for glob, rules in per_file_ignores.items()):
            continue
        suppressed = False
        index = by_line.get(path, {})
        for d in index.get(None, []) + index.get(f.location.line, []):
            if _covers(d.codes, f.rule):
                suppressed = True
                used.add((path, d.line, f.rule if d.codes is not None else None))
        for site in f.location.sites:  # the statement of its own write, in a helper
            for d in by_line.get(site.path, {}).get(site.line, []):
                if _covers(d.codes, f.rule):
                    suppressed = True
                    used.add((site.path, d.line, f.rule if d.codes is not None else None))
        if not suppressed:
            kept.append(f)
    unused = []
    for path, scan_result in sorted(scans.items()):
        for d in scan_result.directives:
            codes = sorted(d.codes) if d.codes is not None else [None]
            for code in codes:
                if (path, d.line, code) in used:
                    continue
                if code is not None and not selected(code):
                    continue  # deselected rules cannot be matched; not the comment's fault
                what = f"no {code} finding" if code else "no finding"
                where = "in this file" if d.applies_to is None else f"on line {d.applies_to}"
                unused.append(_unused(path, d, f"unused suppression `{d.text}`: {what} {where}"))
        for line, column, message in scan_result.problems:
            unused.append(_unused(path, Directive(line, column, None, None, ""), f"malformed suppression {message}"))
    return kept, unused


def _prefix_match(rule: str, prefixes: tuple[str, ...]) -> bool:
    return any(rule.startswith(p) for p in prefixes)


def _unused(path: str, d: Directive, message: str) -> Finding:
    from delta_lint.model import Finding, Location
    from delta_lint.rulepack import load

    rule = load().rules[UNUSED_SUPPRESSION]
    return Finding(
        UNUSED_SUPPRESSION,
        rule.name,
        rule.severity,
        None,
        None,
        message,
        Location(path, d.line, d.column),
        fix=rule.fix,
    )
