"""Edits `delta-lint advise` proposes to the repository's own files: bundle YAML
(depends_on, max_concurrent_runs, the cron of a schedule) and the configuration
(exclusive groups, concurrent_runs). Each is a line edit that keeps the file's
layout and comments; a file whose shape the edit does not recognise is refused
(`EditError`) rather than rewritten, so the advice then has no such change.
Code edits (target conditions) are made in `advise`.

A `Rewrite` is a function of the file's current text, so several changes to one
file apply one after the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from delta_lint.model import Location


class EditError(Exception):
    """The edit cannot be made to the file as it is."""


@dataclass(frozen=True)
class Rewrite:
    path: str  # display path of the file
    fn: Callable[[str], str]
    summary: str  # the edit in a few words


_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(rows: list[str], first: int, indent: int) -> range:
    """The rows (0-based) of the mapping whose first key is on row `first` at
    `indent`: up to the next row that is less indented (or a sibling list item)."""
    end = first + 1
    while end < len(rows):
        row = rows[end]
        stripped = row.strip()
        if stripped and not stripped.startswith("#"):
            if _indent(row) < indent or (_indent(row) == indent - 2 and stripped.startswith("- ")):
                break
        end += 1
    return range(first, end)


def _nearest(rows: list[str], line: int, pattern: str) -> int:
    """The row (0-based) matching `pattern` nearest to `line` (1-based): an earlier edit
    of the same file may have moved it by a few lines."""
    regex = re.compile(pattern)
    hits = [r for r, row in enumerate(rows) if regex.match(row)]
    if not hits:
        raise EditError(f"no line near {line} matches the expected YAML")
    return min(hits, key=lambda r: (abs(r - (line - 1)), r))


def _task_row(rows: list[str], line: int, task: str) -> tuple[int, int]:
    """(row, indent of `task_key`) of the task's mapping."""
    quoted = f"(?:{re.escape(task)}|\"{re.escape(task)}\"|'{re.escape(task)}')"
    row = _nearest(rows, line, rf"^\s*(?:-\s+)*task_key:\s*{quoted}\s*(?:#.*)?$")
    return row, rows[row].index("task_key")


def _job_rows(rows: list[str], line: int, job: str) -> tuple[range, int]:
    """The rows of the job's mapping (under its `key:` line) and the indent of its keys."""
    head = _nearest(rows, line, rf"^\s*{re.escape(job)}:\s*(?:#.*)?$")
    body = head + 1
    while body < len(rows) and (not rows[body].strip() or rows[body].lstrip().startswith("#")):
        body += 1
    if body >= len(rows) or _indent(rows[body]) <= _indent(rows[head]):
        raise EditError(f"job `{job}` is not a block mapping")
    indent = _indent(rows[body])
    return _block(rows, body, indent), indent


def _find(rows: list[str], block: range, indent: int, key: str) -> int | None:
    for r in block:
        if _indent(rows[r]) == indent and rows[r].lstrip(" ").startswith(f"{key}:"):
            return r
    return None


def _scalar(name: str) -> str:
    return name if _SIMPLE.match(name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def add_depends_on(where: Location, task: str, first: str) -> Rewrite:
    """`depends_on: [{task_key: first}]` on the task (added to a flow list that exists)."""

    def fn(text: str) -> str:
        rows = text.split("\n")
        row, indent = _task_row(rows, where.line, task)
        block = _block(rows, row, indent)
        found = _find(rows, block, indent, "depends_on")
        item = f"{{task_key: {_scalar(first)}}}"
        if found is None:
            rows.insert(row + 1, " " * indent + f"depends_on: [{item}]")
        else:
            line = rows[found].rstrip()
            if not line.endswith("]"):
                raise EditError(f"{where.path}:{found + 1}: `depends_on` is not a flow list")
            rows[found] = line[:-1].rstrip() + (", " if not line[:-1].rstrip().endswith("[") else "") + item + "]"
        return "\n".join(rows)

    return Rewrite(where.path, fn, f"task `{task}`: depends_on `{first}`")


def set_max_runs(where: Location, job: str) -> Rewrite:
    """`max_concurrent_runs: 1` on the job: its line changed, or added as the job's
    first key when it has none (its runs then come from a default: a target's presets)."""

    def fn(text: str) -> str:
        rows = text.split("\n")
        block, indent = _job_rows(rows, where.line, job)
        found = _find(rows, block, indent, "max_concurrent_runs")
        if found is None:
            rows.insert(block.start, " " * indent + "max_concurrent_runs: 1")
            return "\n".join(rows)
        rows[found] = " " * indent + "max_concurrent_runs: 1"
        return "\n".join(rows)

    return Rewrite(where.path, fn, f"job `{job}`: max_concurrent_runs: 1")


def set_cron(where: Location, job: str, old: str, new: str) -> Rewrite:
    def fn(text: str) -> str:
        rows = text.split("\n")
        block, _ = _job_rows(rows, where.line, job)
        hits = [r for r in block if "quartz_cron_expression" in rows[r] and old in rows[r]]
        if len(hits) != 1:
            raise EditError(f"{where.path}: the schedule of job `{job}` is not one `quartz_cron_expression` line")
        rows[hits[0]] = rows[hits[0]].replace(old, new, 1)
        return "\n".join(rows)

    return Rewrite(where.path, fn, f"job `{job}`: cron `{new}`")


def add_exclusive(path: str, a: str, b: str) -> Rewrite:
    item = f"[{_scalar(a)}, {_scalar(b)}]"

    def fn(text: str) -> str:
        rows = text.split("\n")
        top = [r for r, row in enumerate(rows) if re.match(r"^exclusive:\s*(#.*)?$", row)]
        if not top:
            if any(re.match(r"^exclusive:", row) for row in rows):
                raise EditError(f"{path}: `exclusive` is not a block list")
            tail = "" if text.endswith("\n") or not text else "\n"
            return text + tail + f"exclusive:\n  - {item}\n"
        last, indent = top[0], 2
        for r in range(top[0] + 1, len(rows)):
            stripped = rows[r].strip()
            if not stripped or stripped.startswith("#"):
                continue
            if _indent(rows[r]) == 0:
                break
            if stripped.startswith("- "):
                indent = _indent(rows[r])
            last = r
        rows.insert(last + 1, " " * indent + f"- {item}")
        return "\n".join(rows)

    return Rewrite(path, fn, f"exclusive: {item}")


def set_config_runs(path: str, job: str) -> Rewrite:
    def fn(text: str) -> str:
        rows = text.split("\n")
        jobs = [r for r, row in enumerate(rows) if re.match(r"^jobs:\s*(#.*)?$", row)]
        if len(jobs) != 1:
            raise EditError(f"{path}: no `jobs:` block")
        block = _block(rows, jobs[0], 1)
        name = [r for r in block if re.match(rf"^\s+{re.escape(job)}:\s*(#.*)?$", rows[r])]
        if len(name) != 1:
            raise EditError(f"{path}: job `{job}` is not a block in `jobs:`")
        inner = _block(rows, name[0] + 1, _indent(rows[name[0] + 1]))
        found = _find(rows, inner, _indent(rows[name[0] + 1]), "concurrent_runs")
        if found is None:
            raise EditError(f"{path}: job `{job}` has no concurrent_runs line")
        rows[found] = " " * _indent(rows[found]) + "concurrent_runs: 1"
        return "\n".join(rows)

    return Rewrite(path, fn, f"`{job}`: concurrent_runs: 1")
