"""Writes the Python reader saw but read nothing for, said at their line.

The reader follows a writer through names, helpers and builders; when it cannot
(`save = df.write.saveAsTable` then `save(name)`, `getattr(df.write,
"saveAsTable")(name)`, a terminal on a value no rule knows), a top-level statement
that calls a writer's terminal would leave nothing at its line: no intent, no
diagnostic, the write silently unchecked. This sweep runs after the reading and
gives each such statement a `DL001` at the call, so "nothing at a write" cannot
happen for the terminals below, however the writer was built.

Only the module's own top-level statements are swept (inside `if`, `for`, `with`,
`try`, not in functions or classes): a write in a function is read at the
function's calls, possibly in another file.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable

# The terminals of a PySpark writer that write a table by name.
WRITE_TERMINALS = frozenset({"saveAsTable", "insertInto", "toTable"})
_BODIES = ("body", "orelse", "finalbody")
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match)
_NEWLINE = re.compile(r"\n")


def unread_writes(
    tree: ast.Module,
    own_lines: int,
    lines_of: Callable[[ast.stmt], tuple[int, int]],
    marked: set[int],
    read: set[int],
    source: str,
) -> list[tuple[ast.Call, str]]:
    """(the call, the terminal it names) of each top-level statement whose lines
    (`lines_of`: its first and last line in the file) hold no line of `marked` (the
    lines of the file's intents, their statement sites and its diagnostics) and that
    calls a write terminal the reader did not read (`read`: the ids of the calls it
    read as terminals, whatever it decided: a Parquet table is no Delta write), or
    runs a Delta merge builder (`x.alias("t").merge(s, c).whenMatched...().execute()`,
    a Delta write whatever `x` is). `source`: the text `tree` was parsed from; only
    statements whose lines hold a word of such a call are walked."""
    statements = list(_top_level(tree.body, own_lines))
    aliases = _terminal_aliases(statements)
    lines = _word_lines(source, aliases)
    out: list[tuple[ast.Call, str]] = []
    for stmt in statements:
        if lines is not None:  # no word of a write on its lines: nothing to walk
            at = bisect_left(lines, stmt.lineno)
            if at == len(lines) or lines[at] > (stmt.end_lineno or stmt.lineno):
                continue
        found = next((c for c in _write_calls(stmt, aliases) if c[1] == "merge" or id(c[0]) not in read), None)
        if found is None:
            continue
        first, last = lines_of(stmt)
        if not any(first <= line <= last for line in marked):
            out.append(found)
    return out


def _word_lines(source: str, aliases: dict[str, str]) -> list[int] | None:
    """The lines (1-based, ascending, repeated) of `source` holding a word every call
    `_write_calls` finds has on its lines: a terminal (also `getattr`'s string), an
    alias of one, `merge`. None for text that is not ASCII: an identifier may be
    spelled in another (NFKC) form there, so every statement is walked."""
    if not source.isascii():
        return None
    words = sorted({*WRITE_TERMINALS, "merge", *aliases})
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b")
    starts = [m.start() for m in _NEWLINE.finditer(source)]
    return [bisect_left(starts, m.start()) + 1 for m in pattern.finditer(source)]


def _top_level(body: list[ast.stmt], own_lines: int) -> Iterable[ast.stmt]:
    """Simple statements of the module's own lines, through compound statements
    but not into functions or classes."""
    for stmt in body:
        if stmt.lineno > own_lines or isinstance(stmt, _DEFINITIONS):
            continue
        if isinstance(stmt, _COMPOUND):
            for name in _BODIES:
                yield from _top_level(getattr(stmt, name, None) or [], own_lines)
            for part in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or []:
                yield from _top_level(part.body, own_lines)
        else:
            yield stmt


def _terminal_aliases(statements: list[ast.stmt]) -> dict[str, str]:
    """Names the module binds to a writer's terminal (`save = df.write.saveAsTable`)."""
    out: dict[str, str] = {}
    for stmt in statements:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Attribute):
            if stmt.value.attr in WRITE_TERMINALS:
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        out[target.id] = stmt.value.attr
    return out


def _write_calls(stmt: ast.stmt, aliases: dict[str, str]) -> Iterable[tuple[ast.Call, str]]:
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        merge = _merge_builder(node)
        if merge is not None:
            yield merge, "merge"
        elif isinstance(func, ast.Attribute) and func.attr in WRITE_TERMINALS:
            yield node, func.attr
        elif isinstance(func, ast.Name) and func.id in aliases:
            yield node, aliases[func.id]
        elif (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Name)
            and func.func.id == "getattr"
            and len(func.args) >= 2
            and isinstance(func.args[1], ast.Constant)
            and func.args[1].value in WRITE_TERMINALS
        ):
            yield node, str(func.args[1].value)


def _merge_builder(call: ast.Call) -> ast.Call | None:
    """The `.merge(source, condition)` call of a chain `....merge(...).whenMatched...()
    ....execute()` (DeltaMergeBuilder's, which no other library spells so)."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "execute"):
        return None
    clauses, node = False, call.func.value
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        name = node.func.attr
        if name.startswith(("whenMatched", "whenNotMatched")):
            clauses = True
        elif name == "merge":
            return node if clauses and 1 <= len(node.args) + len(node.keywords) <= 2 else None
        node = node.func.value
    return None
