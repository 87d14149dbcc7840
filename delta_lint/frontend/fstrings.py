"""Python 3.12 f-strings (PEP 701) read on Python 3.11.

Python 3.12 reads an f-string's replacement fields as ordinary expressions: they may
reuse the f-string's own quote (`f"{row["name"]}"`), hold backslashes
(`f"{'\\n'.join(xs)}"`, `f"'{s.replace("'", "\\'")}'"`), comments and newlines (in a
single-quoted f-string too), and nest f-strings of the same quote to any depth.
Python 3.11, which delta-lint runs on, refuses all of these. Swapping quotes
(`pysource.swap_nested_quotes`) expresses only the first, so the rest are read here
the way Python 3.12's tokenizer reads them:

1. `scan` walks the source as Python 3.12 tokenizes it (strings of every prefix,
   comments, brackets) and collects each group of adjacent string literals that holds
   an f-string (`"a" f"{b}"` is one literal) with its parts: literal text, and fields
   with their expression text, `=`, conversion and format spec.
2. A group Python 3.11 does not read as written is replaced by a placeholder name in
   parentheses, of the same UTF-8 length on every line, so every other node keeps
   its line and column; the source is parsed.
3. Each placeholder name in the tree becomes the `ast.JoinedStr` Python 3.12 builds:
   literal text decoded as the string's prefix says, each field's expression parsed
   alone (recursively, for nested f-strings) and placed at its own line and column.

Nothing is executed: literal text is decoded with `ast.literal_eval` of a plain
string, expressions with `ast.parse`. A group that cannot be read this way (an
unterminated string, a field that does not parse, nesting deeper than
`MAX_NESTING`) is left as written, so the parse keeps Python 3.11's first error.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, field

# f-strings nested deeper than this inside one another are not rewritten (bounded time:
# each level's expression text is scanned again when it is parsed)
MAX_NESTING = 12

_PREFIXES = frozenset({"", "r", "u", "f", "b", "br", "rb", "fr", "rf"})
_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_OPEN, _CLOSE = "([{", ")]}"
# an f-string's opening (`f"`, `rf'`, `Fr"""`): a source without one has none to read
_MAY_HOLD_FSTRING = re.compile(r"(?<![\w])(?:[fF][rR]?|[rR][fF])['\"]")


class _Unreadable(Exception):
    """The f-string cannot be read as Python 3.12 reads it (invalid there too, or
    beyond the nesting bound)."""


@dataclass
class _Field:
    """One replacement field: `{expr=!r:spec}` with source offsets."""

    start: int  # offset of `{`
    end: int  # offset past `}`
    expr: tuple[int, int]  # offsets of the expression's text
    debug: str | None  # `=`: the text Python 3.12 prints before the value (`x = `)
    conversion: int  # -1, or ord of `s`, `r`, `a`
    spec: list[_Literal | _Field] | None  # the format spec's parts
    spec_span: tuple[int, int] = (0, 0)


@dataclass
class _Literal:
    """Literal text of an f-string or a plain string, already decoded."""

    value: str


@dataclass
class _Group:
    """Adjacent string literals (`"a" f"{b}"`), one of them an f-string."""

    start: int
    end: int
    parts: list[_Literal | _Field] = field(default_factory=list)


def _string_start(source: str, i: int) -> tuple[int, str] | None:
    """When a string literal starts at `i` (its prefix or its quote): the offset of
    its quote and its lower-cased prefix."""
    n = len(source)
    k = i
    while k < n and source[k] in _IDENT and k - i < 2:
        k += 1
    if k < n and source[k] in "\"'" and source[i:k].lower() in _PREFIXES:
        if i == 0 or source[i - 1] not in _IDENT:
            return k, source[i:k].lower()
    return None


class _Reader:
    """One pass over a source as Python 3.12 tokenizes strings."""

    def __init__(self, source: str, nesting: int = 0) -> None:
        self.source = source
        self.nesting = nesting

    # -- strings -------------------------------------------------------------

    def plain_end(self, q: int, quote: str, raw: bool) -> int:
        """Offset past the plain string whose quote starts at `q`."""
        source, n = self.source, len(self.source)
        k = q + len(quote)
        while k < n:
            c = source[k]
            if c == "\\":
                k += 2
                continue
            if source.startswith(quote, k):
                return k + len(quote)
            if c == "\n" and len(quote) == 1:
                raise _Unreadable("unterminated string")
            k += 1
        raise _Unreadable("unterminated string")

    def fstring(self, q: int, quote: str, prefix: str) -> tuple[int, list[_Literal | _Field]]:
        """The f-string whose quote starts at `q`: the offset past it and its parts."""
        if self.nesting > MAX_NESTING:
            raise _Unreadable("f-strings nested too deeply")
        raw = "r" in prefix
        parts: list[_Literal | _Field] = []
        k = q + len(quote)
        k = self.literal(k, quote, raw, parts, in_spec=False)
        return k + len(quote), parts

    def literal(self, k: int, quote: str, raw: bool, parts: list[_Literal | _Field], in_spec: bool) -> int:
        """Read literal text and fields from `k` up to the closing quote (or, in a
        format spec, the `}` that closes its field); the offset of that end."""
        source, n = self.source, len(self.source)
        chunk = k
        text: list[str] = []

        def flush(upto: int) -> None:
            if upto > chunk:
                text.append(_decode(source[chunk:upto], quote, raw))

        while k < n:
            c = source[k]
            if source.startswith(quote, k):
                if in_spec:
                    raise _Unreadable("unterminated format spec")
                break
            if c == "\\":
                if k + 1 < n and source[k + 1] in "{}":
                    k += 1  # `\{`: a backslash, then the brace is read as a brace
                    continue
                if not raw and source.startswith("N{", k + 1):
                    close = source.find("}", k)
                    if close < 0:
                        raise _Unreadable("bad \\N escape")
                    k = close + 1
                    continue
                k += 2
                continue
            if c == "\n" and len(quote) == 1:
                raise _Unreadable("unterminated f-string")
            if c == "{":
                if source.startswith("{{", k) and not in_spec:
                    flush(k + 1)
                    k += 2
                    chunk = k
                    continue
                flush(k)
                if text:
                    parts.append(_Literal("".join(text)))
                    text = []
                k = self.field(k, quote, raw, parts)
                chunk = k
                continue
            if c == "}":
                if in_spec:
                    break
                if source.startswith("}}", k):
                    flush(k + 1)
                    k += 2
                    chunk = k
                    continue
                raise _Unreadable("single '}' in f-string")
            k += 1
        else:
            raise _Unreadable("unterminated f-string")
        flush(k)
        if text:
            parts.append(_Literal("".join(text)))
        return k

    def field(self, k: int, quote: str, raw: bool, parts: list[_Literal | _Field]) -> int:
        """Read the replacement field whose `{` is at `k`; the offset past its `}`."""
        source, n = self.source, len(self.source)
        start = k
        k = self.expression(k + 1)
        expr = (start + 1, k)
        if not source[expr[0] : expr[1]].strip():
            raise _Unreadable("empty expression in f-string")
        debug = None
        if source[k] == "=":
            k += 1
            while k < n and source[k] in " \t\n\r\f":
                k += 1
            debug = source[start + 1 : k]
        explicit = None
        if k < n and source[k] == "!":
            name = source[k + 1 : k + 2]
            if name not in ("s", "r", "a"):
                raise _Unreadable("bad conversion")
            explicit = ord(name)
            k += 2
        spec: list[_Literal | _Field] | None = None
        spec_span = (k, k)
        if k < n and source[k] == ":":
            spec = []
            end = self.literal(k + 1, quote, raw, spec, in_spec=True)
            spec_span = (k + 1, end)
            k = end
        # `{x=}` is the repr of x unless a conversion or a format spec says otherwise
        conversion = explicit if explicit is not None else ord("r") if debug is not None and spec is None else -1
        if k >= n or source[k] != "}":
            raise _Unreadable("expected '}' in f-string")
        parts.append(_Field(start, k + 1, expr, debug, conversion, spec, spec_span))
        return k + 1

    def expression(self, k: int) -> int:
        """From `k` inside a field, the offset where its expression ends: a `}`, `!`
        (not `!=`), `:` or `=` (not `==`, `<=`, ...) outside brackets."""
        source, n = self.source, len(self.source)
        depth = 0
        while k < n:
            c = source[k]
            if c == "#":
                end = source.find("\n", k)
                if end < 0:
                    raise _Unreadable("unterminated f-string")
                k = end
                continue
            start = _string_start(source, k) if (c in "\"'" or c in _IDENT) else None
            if start is not None:
                k = self.string(k, *start)
                continue
            if c in _IDENT:
                while k < n and source[k] in _IDENT:
                    k += 1
                continue
            if c in _OPEN:
                depth += 1
            elif c in _CLOSE:
                if depth == 0:
                    if c == "}":
                        return k
                    raise _Unreadable("unmatched bracket in f-string")
                depth -= 1
            elif depth == 0 and c == "!" and not source.startswith("!=", k):
                return k
            elif depth == 0 and c == ":":
                return k
            elif depth == 0 and c == "=":
                if source.startswith("==", k):
                    k += 2
                    continue
                if k > 0 and source[k - 1] in "=!<>":
                    k += 1
                    continue
                return k
            elif c == "\\" and source.startswith("\\\n", k):
                k += 2
                continue
            k += 1
        raise _Unreadable("unterminated f-string")

    def string(self, i: int, q: int, prefix: str) -> int:
        """Offset past the string literal starting at `i` (prefix) with its quote at `q`."""
        c = self.source[q]
        quote = c * 3 if self.source.startswith(c * 3, q) else c
        if "f" in prefix:
            inner = _Reader(self.source, self.nesting + 1)
            return inner.fstring(q, quote, prefix)[0]
        return self.plain_end(q, quote, "r" in prefix)

    # -- the module ----------------------------------------------------------

    def groups(self) -> list[_Group]:
        """Every group of adjacent string literals holding an f-string, in order; a group
        that cannot be read ends the walk (the rest is left as written)."""
        source, n = self.source, len(self.source)
        found: list[_Group] = []
        depth = 0
        k = 0
        while k < n:
            c = source[k]
            if c == "#":
                end = source.find("\n", k)
                k = n if end < 0 else end
                continue
            start = _string_start(source, k) if (c in "\"'" or c in _IDENT) else None
            if start is None:
                if c in _IDENT:
                    while k < n and source[k] in _IDENT:
                        k += 1
                    continue
                if c in _OPEN:
                    depth += 1
                elif c in _CLOSE:
                    depth = max(depth - 1, 0)
                k += 1
                continue
            try:
                group, k = self.group(k, depth)
            except _Unreadable:
                return found
            if group is not None:
                found.append(group)
        return found

    def group(self, k: int, depth: int) -> tuple[_Group | None, int]:
        """The adjacent string literals from `k` on: a group when one is an f-string."""
        source, n = self.source, len(self.source)
        parts: list[_Literal | _Field] = []
        has_f = has_bytes = False
        begin, end = k, k
        while True:
            start = _string_start(source, k)
            if start is None:
                break
            q, prefix = start
            c = source[q]
            quote = c * 3 if source.startswith(c * 3, q) else c
            if "f" in prefix:
                has_f = True
                end, pieces = _Reader(source, self.nesting).fstring(q, quote, prefix)
                parts.extend(pieces)
            else:
                end = self.plain_end(q, quote, "r" in prefix)
                if "b" in prefix:
                    has_bytes = True
                else:
                    parts.append(_Literal(_decode(source[q + len(quote) : end - len(quote)], quote, "r" in prefix)))
            k = _skip_between(source, end, depth)
            if k >= n:
                break
        if has_f and has_bytes:
            raise _Unreadable("bytes next to an f-string")
        return (_Group(begin, end, parts) if has_f else None), end


def _skip_between(source: str, k: int, depth: int) -> int:
    """From `k` past what may stand between two adjacent string literals: spaces, a
    backslash continuation, and inside brackets newlines and comments."""
    n = len(source)
    while k < n:
        c = source[k]
        if c in " \t\f":
            k += 1
        elif c == "\\" and source.startswith("\\\n", k):
            k += 2
        elif c == "\\" and source.startswith("\\\r\n", k):
            k += 3
        elif depth > 0 and c in "\r\n":
            k += 1
        elif depth > 0 and c == "#":
            end = source.find("\n", k)
            k = n if end < 0 else end
        else:
            break
    return k


def _decode(text: str, quote: str, raw: bool) -> str:
    """The value of literal text of a string with `quote` (raw or not). A space is
    appended and dropped again, so a trailing backslash (`\\{`) reads as itself."""
    wrapper = quote[0] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = ast.literal_eval(("r" if raw else "") + wrapper + text + " " + wrapper)
        except (SyntaxError, ValueError) as err:
            raise _Unreadable(str(err)) from None
    return value[:-1]


class Rewrite:
    """A source whose Python 3.12-only f-strings are placeholders (see the module's
    docstring); `restore` puts the f-strings into a tree parsed from `text`."""

    def __init__(self, source: str, nesting: int = 0) -> None:
        self.source = source
        self.nesting = nesting
        self._line_starts = [0]
        for i, c in enumerate(source):
            if c == "\n":
                self._line_starts.append(i + 1)
        self._byte_cols: dict[int, list[int]] = {}
        self.groups: dict[str, _Group] = {}
        self.text = self._replace(_Reader(source, nesting).groups())

    def _replace(self, groups: list[_Group]) -> str:
        """The source with each group Python 3.11 refuses replaced by a placeholder."""
        source = self.source
        names = {w for w in _words(source)}
        out: list[str] = []
        done = 0
        counters: dict[int, int] = {}  # name length -> names of that length handed out
        for group in groups:
            text = source[group.start : group.end]
            if _parses(text):
                continue
            name = _name(text, names, counters)
            placeholder = _placeholder(text, name) if name is not None else None
            if placeholder is None:
                continue
            self.groups[name] = group
            out.append(source[done : group.start])
            out.append(placeholder)
            done = group.end
        out.append(source[done:])
        return "".join(out)

    def position(self, offset: int) -> tuple[int, int]:
        """Line (1-based) and UTF-8 column of a source offset, as `ast` reports them."""
        lo, hi = 0, len(self._line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        start = self._line_starts[lo]
        return lo + 1, len(self.source[start:offset].encode("utf-8"))

    def _locate(self, node: ast.AST, start: int, end: int) -> ast.AST:
        node.lineno, node.col_offset = self.position(start)  # type: ignore[attr-defined]
        node.end_lineno, node.end_col_offset = self.position(end)  # type: ignore[attr-defined]
        return node

    def restore(self, tree: ast.AST) -> ast.AST:
        """`tree` with each placeholder name replaced by its f-string's `JoinedStr`."""
        if not self.groups:
            return tree
        rewrite = self

        class _Put(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.AST:
                group = rewrite.groups.get(node.id)
                if group is None:
                    return node
                return rewrite._locate(
                    ast.JoinedStr(values=rewrite._values(group.parts, group)), group.start, group.end
                )

        return _Put().visit(tree)

    def _values(self, parts: list[_Literal | _Field], group: _Group) -> list[ast.expr]:
        """The `JoinedStr` values of parts: adjacent literal text joined, empty text dropped."""
        values: list[ast.expr] = []
        pending: list[str] = []

        def flush() -> None:
            if pending and "".join(pending):
                values.append(self._locate(ast.Constant(value="".join(pending)), group.start, group.end))  # type: ignore[arg-type]
            pending.clear()

        for part in parts:
            if isinstance(part, _Literal):
                pending.append(part.value)
                continue
            if part.debug is not None:
                pending.append(part.debug)
            flush()
            spec = None
            if part.spec is not None:
                spec = self._locate(ast.JoinedStr(values=self._values(part.spec, group)), *part.spec_span)
            value = self._expression(*part.expr)
            values.append(
                self._locate(
                    ast.FormattedValue(value=value, conversion=part.conversion, format_spec=spec), part.start, part.end
                )  # type: ignore[arg-type]
            )
        flush()
        return values

    def _expression(self, start: int, end: int) -> ast.expr:
        """A field's expression, parsed alone and placed where it stands in the source."""
        text = self.source[start:end]
        wrapped = "(" + text + "\n)"
        try:
            body = parse_expression(wrapped, self.nesting + 1)
        except (SyntaxError, ValueError) as err:
            raise _Unreadable(str(err)) from None
        line, col = self.position(start)
        for node in ast.walk(body):
            if "lineno" not in node._attributes or not hasattr(node, "lineno"):
                continue
            for which in ("", "end_"):
                node_line = getattr(node, which + "lineno", None)
                if node_line is None:
                    continue
                node_col = getattr(node, which + "col_offset")
                if node_line == 1:
                    node_col = node_col - 1 + col
                setattr(node, which + "lineno", node_line + line - 1)
                setattr(node, which + "col_offset", node_col)
        return body


def _words(source: str) -> set[str]:
    """Identifier-like words of the source (placeholder names avoid them)."""
    words: set[str] = set()
    word: list[str] = []
    for c in source:
        if c in _IDENT:
            word.append(c)
        elif word:
            words.add("".join(word))
            word = []
    if word:
        words.add("".join(word))
    return words


def _parses(text: str) -> bool:
    """Whether Python 3.11 reads the string group `text` as written."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse("(" + text + "\n)", mode="eval")
    except (SyntaxError, ValueError):
        return False
    return True


_NAME_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _name(text: str, taken: set[str], counters: dict[int, int]) -> str | None:
    """A placeholder name for the group `text` that is no word of the source and
    fits its first line (`(name` on a line of its own, `(name)` on one line): of
    the longest length up to 8 that fits, so that the 62 two-character names stay
    for groups whose first line is as short as `f"{`; None when none is left."""
    first = text.split("\n", 1)[0]
    room = len(first.encode("utf-8")) - (1 if "\n" in text else 2)
    for length in range(min(room, 8), 1, -1):
        while counters.get(length, 0) < len(_NAME_CHARS) ** (length - 1):
            n = counters.get(length, 0)
            counters[length] = n + 1
            digits = []
            for _ in range(length - 1):
                n, d = divmod(n, len(_NAME_CHARS))
                digits.append(_NAME_CHARS[d])
            name = "_" + "".join(reversed(digits))
            if name not in taken:
                return name
    return None


def _placeholder(text: str, name: str) -> str | None:
    """`(name)` padded with spaces to the UTF-8 length of `text` on each of its lines
    (the parentheses make the expressions around it start and end where the literal
    does); None when it does not fit."""
    lines = text.split("\n")
    sizes = [len(line.encode("utf-8")) for line in lines]
    head = "(" + name
    if len(lines) == 1:
        return head + " " * (sizes[0] - len(head) - 1) + ")" if sizes[0] >= len(head) + 1 else None
    if sizes[0] < len(head) or sizes[-1] < 1:
        return None
    body = [head + " " * (sizes[0] - len(head))]
    for line, size in zip(lines[1:-1], sizes[1:-1], strict=True):
        body.append(" " * (size - 1) + "\r" if line.endswith("\r") else " " * size)
    body.append(" " * (sizes[-1] - 1) + ")")
    return "\n".join(body)


def parse_expression(source: str, nesting: int = 0) -> ast.expr:
    """`ast.parse(source, mode="eval").body`, reading Python 3.12 f-strings."""
    try:
        return ast.parse(source, mode="eval").body
    except SyntaxError as err:
        first = err
    if nesting > MAX_NESTING:
        raise first
    rewrite = Rewrite(source, nesting)
    if not rewrite.groups:
        raise first
    try:
        tree = ast.parse(rewrite.text, mode="eval")
        return rewrite.restore(tree).body  # type: ignore[attr-defined]
    except (SyntaxError, _Unreadable):
        raise first from None


def parse_with_fstrings(source: str, parse) -> ast.Module | None:  # noqa: ANN001
    """The module read with its Python 3.12-only f-strings (see the module's
    docstring), `parse` reading the rewritten text; None when there is none or a
    group cannot be read."""
    if _MAY_HOLD_FSTRING.search(source) is None:
        return None  # (the scan is Python, a character at a time: only where it may find one)
    rewrite = Rewrite(source)
    if not rewrite.groups:
        return None
    tree = parse(rewrite.text)
    try:
        return rewrite.restore(tree)  # type: ignore[return-value]
    except _Unreadable:
        return None
