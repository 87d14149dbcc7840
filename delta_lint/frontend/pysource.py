"""Python source as the runtimes that run it parse it.

delta-lint runs on Python 3.11 and reads code with its `ast`. Databricks Runtime 16
and later run Python 3.12, whose f-strings (PEP 701) may reuse their own quote
inside a replacement field: `f"{row["name"]}"`. Python 3.11 refuses those, so a
notebook that runs was a DL000. When a parse fails on an f-string, the quotes of
the strings nested inside replacement fields that reuse the f-string's quote are
swapped for the other quote (`f"{row['name']}"`), which Python 3.11 reads as the
same program, and the source is parsed again. The swap keeps every offset, so
lines and columns stay those of the file. Forms a swap cannot express (a nested
string holding both quotes, a backslash, comment or newline inside a field, nested
f-strings of the same quote) are read by `fstrings`, which builds the tree Python
3.12 builds for them.

Python 3.12's type parameter syntax (PEP 695) is read the same way: `type Row =
dict[str, int]`, `class Box[T]:` and `def first[T](xs: list[T]) -> T:` are
refused by Python 3.11. When a parse fails, the `type` soft keyword of an alias
statement is taken out (the alias's line starts at its name) and the `[...]` type
parameters of a class, function or alias are blanked out (spaces; newlines kept),
which leaves an assignment, a class and a function of the same names and lines:
what delta-lint reads of them (the writes in their bodies, the values they bind)
is the same. PEP 696's defaults (`class Box[T = int]:`, Python 3.13) stand inside
the same brackets and go with them; `except*` and `match` parse on 3.11 as they are.
"""

from __future__ import annotations

import ast
import io
import sys
import threading
import tokenize
from collections.abc import Callable
from typing import TypeVar

from delta_lint.frontend.fstrings import parse_with_fstrings

_OTHER = {'"': "'", "'": '"'}


# How deep delta-lint may recurse on a file nested past Python's default limit (1,000
# frames), and the stack of the thread that reads it (reserved, not used until
# needed): deep enough for the expressions of job code CPython runs (a `+` chain of a
# thousand strings building SQL), bounded so a pathological file still ends in a
# RecursionError.
_DEEP_RECURSION = 20_000
_DEEP_STACK_BYTES = 512 * 1024 * 1024

_T = TypeVar("_T")


def deeply(fn: Callable[..., _T], *args: object) -> _T:
    """`fn(*args)` on a thread of a large stack with a higher recursion limit: what
    it returns or raises, here. Python's limit of 1,000 frames also bounds the
    trees `ast.parse` builds, so a file CPython compiles and runs may be refused by
    `ast.parse` and by readers that recurse on its tree; read this way it is not.
    The limit is the process's while `fn` runs: the calling thread waits."""
    outcome: list[tuple[bool, object]] = []

    def run() -> None:
        before = sys.getrecursionlimit()
        sys.setrecursionlimit(max(before, _DEEP_RECURSION))
        try:
            outcome.append((True, fn(*args)))
        except BaseException as err:  # noqa: BLE001 - raised again in the caller
            outcome.append((False, err))
        finally:
            sys.setrecursionlimit(before)

    size = threading.stack_size(_DEEP_STACK_BYTES)
    try:
        reader = threading.Thread(target=run, name="delta-lint-deep-file", daemon=True)
        reader.start()
    finally:
        threading.stack_size(size)
    reader.join()
    ok, value = outcome[0]
    if not ok:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]


def _parse(source: str) -> ast.Module:
    """`ast.parse`, again on a deep stack when the tree is deeper than Python's
    default limit lets it build (see `deeply`); in a thread that already has the
    deep limit, the first RecursionError stands."""
    try:
        return ast.parse(source)
    except RecursionError:
        if sys.getrecursionlimit() >= _DEEP_RECURSION:
            raise
    return deeply(ast.parse, source)


def parse_module(source: str) -> ast.Module:
    """`ast.parse(source)`, reading Python 3.12's f-strings (PEP 701) and type
    parameters (PEP 695); raises the first `SyntaxError` when the source does not
    parse any way."""
    try:
        return _parse(source)
    except SyntaxError as err:
        first = err
    if (first.msg or "").startswith("f-string"):
        swapped = swap_nested_quotes(source)
        if swapped is not None:
            try:
                return ast.parse(swapped)
            except SyntaxError:
                pass
    else:
        plain = without_type_parameters(source)
        if plain is not None:
            try:
                return ast.parse(plain)
            except SyntaxError:
                pass
    # the f-strings a quote swap cannot express (backslashes, comments and newlines in a
    # field, nesting), with or without type parameters elsewhere (`fstrings`)
    try:
        tree = parse_with_fstrings(source, _parse_with_type_parameters)
    except SyntaxError:
        tree = None
    if tree is None:
        raise first
    return tree


def _parse_with_type_parameters(source: str) -> ast.Module:
    """`ast.parse(source)`, else the source read without PEP 695's syntax."""
    try:
        return ast.parse(source)
    except SyntaxError:
        plain = without_type_parameters(source)
        if plain is None:
            raise
        return ast.parse(plain)


def without_type_parameters(source: str) -> str | None:
    """The source without PEP 695's syntax (see the module's docstring): the `type`
    of a `type X = ...` statement taken out, the `[...]` after a `class` or `def`
    name and after an alias's name blanked. None when there is none, or the
    source does not tokenize."""
    try:
        tokens = [
            t
            for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type not in (tokenize.NL, tokenize.COMMENT)
        ]
    except (tokenize.TokenError, SyntaxError):
        return None
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    blank: list[tuple[int, int]] = []  # (start, end) offsets made blank
    cut: list[tuple[int, int]] = []  # (start, end) offsets taken out: an alias's `type `

    def offset(pos: tuple[int, int]) -> int:
        return starts[pos[0] - 1] + pos[1]

    def bracketed(i: int) -> None:  # tokens[i] is `[`: blank it to its `]`
        depth = 0
        for j in range(i, len(tokens)):
            if tokens[j].type == tokenize.OP and tokens[j].string in "([{":
                depth += 1
            elif tokens[j].type == tokenize.OP and tokens[j].string in ")]}":
                depth -= 1
                if depth == 0:
                    blank.append((offset(tokens[i].start), offset(tokens[j].end)))
                    return

    line_start = True
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        after = tokens[i + 2] if i + 2 < len(tokens) else None
        opens = after is not None and after.type == tokenize.OP and after.string == "["
        if tok.type == tokenize.NAME and nxt is not None and nxt.type == tokenize.NAME:
            if tok.string in ("class", "def") and opens:
                bracketed(i + 2)
            elif line_start and tok.string == "type" and after is not None and after.string in ("=", "["):
                cut.append((offset(tok.start), offset(nxt.start)))  # a blank start would indent it
                if opens:
                    bracketed(i + 2)
        line_start = tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) or tok.string == ";"
    if not blank and not cut:
        return None
    out = list(source)
    for start, end in blank:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "
    for start, end in sorted(cut, reverse=True):
        del out[start:end]
    return "".join(out)


def swap_nested_quotes(source: str) -> str | None:
    """The source with each string nested in an f-string's replacement field that
    uses the f-string's own (single-character) quote re-quoted with the other
    quote; None when there is none, or one holds the other quote too."""
    out = list(source)
    changed = False
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "#":
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if c not in "\"'":
            i += 1
            continue
        start = i
        while start > 0 and source[start - 1].isalpha():
            start -= 1
        prefix = source[start:i].lower()
        quote = c * 3 if source.startswith(c * 3, i) else c
        if "f" not in prefix or len(quote) == 3:
            i = _string_end(source, i, quote, raw="r" in prefix)
            continue
        i, swapped = _fstring(source, out, i, c, raw="r" in prefix)
        if swapped is None:
            return None
        changed = changed or swapped
    return "".join(out) if changed else None


def _string_end(source: str, i: int, quote: str, raw: bool) -> int:
    """Offset past the plain string starting at `i` (its end of line when a
    one-line string does not end)."""
    k, n = i + len(quote), len(source)
    while k < n:
        if source[k] == "\\" and not raw:
            k += 2
            continue
        if source.startswith(quote, k):
            return k + len(quote)
        if source[k] == "\n" and len(quote) == 1:
            return k
        k += 1
    return n


def _fstring(source: str, out: list[str], i: int, quote: str, raw: bool) -> tuple[int, bool | None]:
    """Scan the one-line f-string starting at `i`: the offset past it, and whether a
    nested string was re-quoted (None: one cannot be)."""
    k, n, depth, changed = i + 1, len(source), 0, False
    other = _OTHER[quote]
    while k < n:
        ch = source[k]
        if depth == 0:
            if ch == quote:
                return k + 1, changed
            if ch == "\n":
                return k, changed
            if ch == "\\" and not raw:
                k += 2
                continue
            if ch == "{":
                if source.startswith("{{", k):
                    k += 2
                    continue
                depth = 1
            k += 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch in "\"'":
            end = _string_end(source, k, ch, raw=True)
            if ch == quote:
                body = source[k + 1 : end - 1]
                if other in body or "\\" in body or end > n or source[end - 1] != quote:
                    return k, None
                out[k], out[end - 1] = other, other
                changed = True
            k = end
            continue
        elif ch == "\n":
            return k, changed
        k += 1
    return n, changed


def still_open(line: str, depth: int) -> int:
    """How many brackets are open after `line` (`depth` before it), negative (-1 - that
    number) when the line ends in a backslash: the next line continues this logical line, so a `%`
    or `!` there is Python's operator (`!= "done"`, `% 4`), never a magic (IPython
    reads magics only at the start of a logical line). Strings on the line and a
    comment are skipped; a string over several lines is left to the caller
    (`notebook._open_triple_quote`)."""
    depth = depth if depth >= 0 else -depth - 1
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            break
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(depth - 1, 0)
        i += 1
    return -depth - 1 if not quote and line.rstrip().endswith("\\") and "#" not in line else depth
