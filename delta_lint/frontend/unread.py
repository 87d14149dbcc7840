"""Writes the Python reader saw but read nothing for, said at their line.

The reader follows a writer through names, helpers and builders; when it cannot
(`save = df.write.saveAsTable` then `save(name)`, `getattr(df.write,
"saveAsTable")(name)`, a terminal on a value no rule knows), a top-level statement
that calls a writer's terminal would leave nothing at its line: no intent, no
diagnostic, the write silently unchecked. This sweep runs after the reading and
gives each such statement a `DL001` at the call, so "nothing at a write" cannot
happen for the terminals below, however the writer was built.

The same holds for SQL the reader never runs: the text of a write statement
handed to a call it does not follow (`helpers.run_sql(spark, "DELETE FROM ...")`,
a lambda's call, a connector's `cursor.execute(...)`), and the session's `sql`
itself handed on as a value (`map(spark.sql, statements)`, `partial(spark.sql,
q)`), and so for a writer's terminal handed on or kept in a literal
(`partial(df.write.saveAsTable)`, `pool.map(w.insertInto, tables)`,
`{"append": w.saveAsTable}`): such a statement gets a `DL001` at it naming what
was not followed. Text
in another dialect (`ON CONFLICT`, T-SQL...: `recognise`) or sent through another
database's driver (`warehouse.OTHER_DATABASES`: the reader marks the call's line)
runs on no Delta table, and text only shown (`print`, a logger) runs nowhere:
none is said.

Only the module's own top-level statements are swept (inside `if`, `for`, `with`,
`try`, not in functions or classes): a write in a function is read at the
function's calls, possibly in another file.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable

from delta_lint.frontend.pychains import delta_write_terminal
from delta_lint.frontend.pyprefilter import identifier_text
from delta_lint.frontend.recognise import skip_reason

# The terminals of a PySpark writer that write a table by name.
WRITE_TERMINALS = frozenset({"saveAsTable", "insertInto", "toTable"})
# words on the lines of a chain that writes a Delta table by its text (a path's
# `save`/`start`, `writeTo`; a DeltaTable's `delete`/`update` are SQL words too):
# see `pychains.delta_write_terminal`
_CHAIN_WORDS = frozenset({"save", "start", "writeTo"})
_BODIES = ("body", "orelse", "finalbody")
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match)
# The first word of a write statement's text, after blanks, comments and a CTE's `WITH`
# (the write itself must follow: `_SQL_WRITE`); and the write it runs. One blank per
# repeat, a `--` comment to its line's end and a `/* */` one to its first close, so
# text is read one way: `(?:\s+|--[^\n]*)*` split a run of n blanks or dashes 2^n
# ways before failing (and found words inside a comment).
_WRITE_HEAD = re.compile(
    r"(?:\s|\(|/\*(?:(?!\*/).)*\*/|--[^\n]*(?![^\n]))*(?:MERGE|INSERT|DELETE|UPDATE|WITH)\b", re.I | re.S
)
_SQL_WRITE = re.compile(
    r"\b(?:MERGE\s+(?:WITH\s+SCHEMA\s+EVOLUTION\s+)?INTO|INSERT\s+(?:INTO|OVERWRITE)|DELETE\s+FROM"
    r"|UPDATE\s+[\w.`{}$]+\s+(?:\w+\s+)?SET)\s",
    re.I,
)
# The words of the text a sweep of SQL looks for (any case), and `sql` of a runner handed on.
_SQL_WORDS = r"(?i:insert|merge|delete|update)|sql"
_SQL_FIRSTS = ("insert", "merge", "delete", "update", "sql")  # the first letters `_SQL_WORDS` may start with
# Calls that show text to a person (its SQL is printed, never run).
_SHOWN = frozenset({"print", "debug", "info", "warning", "warn", "error", "exception", "critical", "display"})
# The session objects whose `sql` runs a statement when handed on as a value.
_SESSIONS = frozenset({"spark", "sqlContext", "sparkSession"})
_EXCERPT = 60


def unread_writes(
    tree: ast.Module,
    own_lines: int,
    lines_of: Callable[[ast.stmt], tuple[int, int]],
    marked: set[int],
    read: set[int],
    source: str,
) -> list[tuple[ast.AST, str]]:
    """(where, what) of each top-level statement whose lines (`lines_of`: its first
    and last line in the file) hold no line of `marked` (the lines of the file's
    intents, their statement sites and its diagnostics) and that

    - calls a write terminal the reader did not read (`read`: the ids of the calls it
      read as terminals, whatever it decided: a Parquet table is no Delta write), or
      runs a Delta merge builder (`x.alias("t").merge(s, c).whenMatched...().execute()`,
      a Delta write whatever `x` is);
    - hands the text of a write statement to a call (or holds it in the call's list,
      tuple or dict), which the reader did not follow since nothing stands there;
    - hands the session's `sql` on as a value, or a writer's terminal
      (`partial(df.write.saveAsTable)`, `pool.map(w.insertInto, tables)`, a dict of
      them): the write happens where that value is called, which is not followed.

    `what` says which, for the diagnostic at `where`. `source`: the text `tree` was
    parsed from; only statements whose lines hold a word of such a call or text are
    walked."""
    statements = list(_top_level(tree.body, own_lines))
    aliases = _terminal_aliases(statements)
    lines = _word_lines(source, aliases)
    out: list[tuple[ast.AST, str]] = []
    for stmt in statements:
        if lines is not None:  # no word of a write on its lines: nothing to walk
            at = bisect_left(lines, stmt.lineno)
            if at == len(lines) or lines[at] > (stmt.end_lineno or stmt.lineno):
                continue
        first, last = lines_of(stmt)
        if any(first <= line <= last for line in marked):
            continue
        found = next((c for c in _write_calls(stmt, aliases) if c[1] == "merge" or id(c[0]) not in read), None)
        if found is not None:
            call, terminal = found
            out.append(
                (
                    call,
                    f"a write (`{terminal}`) delta-lint could not follow: its table is not known and it is not "
                    "checked against others",
                )
            )
            continue
        handed = _handed_sql(stmt)
        if handed is not None:
            out.append(handed)
    return out


def _word_lines(source: str, aliases: dict[str, str]) -> list[int] | None:
    """The lines (1-based, ascending, repeated) of `source` holding a word every call
    `_write_calls` or `_handed_sql` finds has on its lines: a terminal (also
    `getattr`'s string), an alias of one, `merge`, a write statement's first word
    in any case, `sql`, in the text as Python reads its identifiers (an identifier
    may be spelled in another, NFKC, form: `identifier_text`)."""
    source = identifier_text(source)
    pattern = _words_pattern(WRITE_TERMINALS | _CHAIN_WORDS | set(aliases)) if aliases else _WORDS
    # a line number per match, counting the newlines since the one before: a list of
    # every line's start was most of the sweep's time for files with few such words
    out: list[int] = []
    line, last = 1, 0
    for m in pattern.finditer(source):
        start = m.start()
        line += source.count("\n", last, start)
        last = start
        out.append(line)
    return out


def _words_pattern(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern of `words` and `_SQL_WORDS`, whole words. The class of every word's
    first letter leads it, so the engine skips to the places one may start instead
    of trying each position (a third of the scan's time)."""
    words = sorted(words)
    firsts = "".join(sorted({c for w in (*words, *_SQL_FIRSTS) for c in (w[0].lower(), w[0].upper())}))
    return re.compile(
        "(?=[" + re.escape(firsts) + r"])\b(?:" + "|".join(map(re.escape, words)) + "|" + _SQL_WORDS + r")\b"
    )


_WORDS = _words_pattern(WRITE_TERMINALS | _CHAIN_WORDS)  # a module without aliases of a terminal


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
    """Names the module binds to a writer's terminal: `save = df.write.saveAsTable`,
    annotated (`save: Callable = ...`) or unpacked (`add, put = w.insertInto, w.saveAsTable`)."""
    out: dict[str, str] = {}
    for stmt in statements:
        for target, value in _bindings(stmt):
            if isinstance(target, ast.Name) and isinstance(value, ast.Attribute) and value.attr in WRITE_TERMINALS:
                out[target.id] = value.attr
    return out


def _bindings(stmt: ast.stmt) -> Iterable[tuple[ast.expr, ast.expr]]:
    """(target, value) of each name an assignment binds, a tuple unpacked item by item."""
    if isinstance(stmt, ast.Assign):
        pairs = [(t, stmt.value) for t in stmt.targets]
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        pairs = [(stmt.target, stmt.value)]
    else:
        return
    for target, value in pairs:
        if isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List):
            if len(target.elts) == len(value.elts):
                yield from zip(target.elts, value.elts)
        else:
            yield target, value


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
        elif (terminal := delta_write_terminal(node)) is not None:
            yield node, terminal
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
    ....execute()` (DeltaMergeBuilder's, which no other library spells so; delta-rs'
    `TableMerger` spells its clauses `when_matched_update_all()` and takes up to
    four arguments: `source`, `predicate`, `source_alias`, `target_alias`)."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "execute"):
        return None
    clauses, node = False, call.func.value
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        name = node.func.attr
        if name.startswith(("whenMatched", "whenNotMatched", "when_matched", "when_not_matched")):  # Spark's, delta-rs
            clauses = True
        elif name == "merge":
            return node if clauses and 1 <= len(node.args) + len(node.keywords) <= 4 else None
        node = node.func.value
    return None


def _handed_sql(stmt: ast.stmt) -> tuple[ast.AST, str] | None:
    """The first write statement's text, session `sql` or writer's terminal that a
    call of `stmt` is handed (or a container `stmt` binds holds) and that nothing
    read (see `unread_writes`), with what to say."""
    kept = [v for _, v in _bindings(stmt) if isinstance(v, ast.List | ast.Tuple | ast.Set | ast.Dict)]
    for value in kept:  # `ops = {"load": df.write.saveAsTable}`: a terminal kept to be called later
        for item in _items(value):
            if isinstance(item, ast.Attribute) and item.attr in WRITE_TERMINALS:
                return item, (
                    f"a write (`{item.attr}`) is kept in a {type(value).__name__.lower()} as a value: delta-lint "
                    "could not follow where it is called; its table is not known and it is not checked against others"
                )
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call) or _callee(node.func).rsplit(".", 1)[-1] in _SHOWN:
            continue
        for value in (*node.args, *(k.value for k in node.keywords)):
            if isinstance(value, ast.Starred):
                value = value.value
            for item in _items(value):
                text = _write_text(item)
                if text is not None:
                    return item, (
                        f"the text of a write (`{text}`) is handed to `{_callee(node.func)}`, which delta-lint "
                        "could not follow: where it runs is not known and its write is not checked against others"
                    )
                if _is_session_sql(item):
                    return item, (
                        f"`{_callee(item)}` is handed to `{_callee(node.func)}` as a value: delta-lint could not "
                        "follow the statements it runs, and their writes are not checked against others"
                    )
                if isinstance(item, ast.Attribute) and item.attr in WRITE_TERMINALS:
                    return item, (
                        f"a write (`{item.attr}`) is handed to `{_callee(node.func)}` as a value: delta-lint could "
                        "not follow where it is called; its table is not known and it is not checked against others"
                    )
    return None


def _items(value: ast.expr) -> list[ast.expr]:
    """The values a list, tuple, set or dict literal holds, or the value itself."""
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        return list(value.elts)
    if isinstance(value, ast.Dict):
        return [v for v in value.values if v is not None]  # (`None`: a `**mapping` unpacked)
    return [value]


def _write_text(node: ast.expr) -> str | None:
    """An excerpt of the write statement a string (or an f-string's leading text)
    holds, or None: not a write statement, or text of another dialect or of dbt or
    a Lakeflow pipeline, which writes no table a Databricks job writes so."""
    if isinstance(node, ast.JoinedStr):
        node = node.values[0] if node.values else node
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    text = node.value
    head = _WRITE_HEAD.match(text)
    write = _SQL_WRITE.search(text)
    if head is None or write is None or skip_reason("", ".sql", text) is not None:
        return None
    shown = " ".join(text[write.start() :].split())
    return shown if len(shown) <= _EXCERPT else shown[: _EXCERPT - 1] + "\u2026"


def _is_session_sql(node: ast.expr) -> bool:
    """`spark.sql`, `sqlContext.sql`, `df.sparkSession.sql` named, not called."""
    if not (isinstance(node, ast.Attribute) and node.attr == "sql"):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id in _SESSIONS) or (
        isinstance(owner, ast.Attribute) and owner.attr == "sparkSession"
    )


def _callee(node: ast.expr) -> str:
    """A call's function as written, shortened (`helpers.run_sql`, `cur.execute`)."""
    text = ast.unparse(node)
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "\u2026"
