"""Python source as the runtimes that run it parse it.

delta-lint runs on Python 3.11 and reads code with its `ast`. Databricks Runtime 16
and later run Python 3.12, whose f-strings (PEP 701) may reuse their own quote
inside a replacement field: `f"{row["name"]}"`. Python 3.11 refuses those, so a
notebook that runs was a DL000. When a parse fails on an f-string, the quotes of
the strings nested inside replacement fields that reuse the f-string's quote are
swapped for the other quote (`f"{row['name']}"`), which Python 3.11 reads as the
same program, and the source is parsed again. The swap keeps every offset, so
lines and columns stay those of the file. Forms a swap cannot express (a nested
string holding both quotes, a backslash inside a field) keep the first error.
"""

from __future__ import annotations

import ast

_OTHER = {'"': "'", "'": '"'}


def parse_module(source: str) -> ast.Module:
    """`ast.parse(source)`, reading Python 3.12 f-strings that reuse their quote;
    raises the first `SyntaxError` when the source does not parse either way."""
    try:
        return ast.parse(source)
    except SyntaxError as err:
        if not (err.msg or "").startswith("f-string"):
            raise
        swapped = swap_nested_quotes(source)
        if swapped is None:
            raise
        try:
            return ast.parse(swapped)
        except SyntaxError:
            raise err from None


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
