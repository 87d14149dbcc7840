"""Lexical helpers for SQL text: statement splitting and templating placeholders.

sqlglot raises on the first bad statement of a script and silently builds wrong
trees from templated SQL (field notes), so scripts are split here, and every
template is replaced by an identifier-shaped marker before parsing. Markers are
valid in identifier, value and string positions alike, and are mapped back to the
parameter names afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from delta_lint.predicates import param_name


@dataclass(frozen=True)
class Statement:
    text: str
    offset: int  # character offset of the first token in the script
    line: int  # 1-based
    column: int  # 1-based


_PLAIN = re.compile(r"[^\n'\"`;$/\-]+")  # characters that start no comment, quote or `;`


@dataclass(frozen=True)
class Unterminated:
    """A comment, string or `$$` body that never ends: Spark refuses the script. The
    split goes on as if it ended with its line, so later statements are still read."""

    what: str
    line: int  # 1-based
    column: int  # 1-based


def split_statements(script: str, unterminated: list[Unterminated] | None = None) -> list[Statement]:
    """Split a script on `;` outside strings, quoted identifiers and comments; a
    token that never ends is added to `unterminated` and taken to end with its line."""
    out: list[Statement] = []
    n = len(script)
    i = 0
    start = None  # offset of the first token of the current statement
    line = 1
    line_start = 0
    start_pos = (1, 1)
    endless: set[str] = set()  # quote characters already found unterminated

    def flush(end: int) -> None:
        nonlocal start
        if start is not None:
            text = script[start:end].strip()
            if text:
                out.append(Statement(text, start, *start_pos))
        start = None

    while i < n:
        if start is not None:  # inside a statement: jump over text that cannot end or quote it
            plain = _PLAIN.match(script, i)
            if plain is not None:
                i = plain.end()
                if i >= n:
                    break
        ch = script[i]
        if ch == "\n":
            line += 1
            line_start = i + 1
            i += 1
            continue
        if ch in " \t\r\f\v":
            i += 1
            continue
        if script.startswith("--", i):
            j = script.find("\n", i)
            i = n if j < 0 else j
            continue
        if script.startswith("/*", i):
            j = -1 if "/*" in endless else script.find("*/", i + 2)
            if j < 0:
                j = _line_end(script, i, "`/*` comment", line, line_start, unterminated, endless, "/*")
            else:
                j += 2
            line += script.count("\n", i, j)
            k = script.rfind("\n", i, j)
            if k >= 0:
                line_start = k + 1
            i = j
            continue
        if ch == ";":
            flush(i)
            i += 1
            continue
        if start is None:
            start = i
            start_pos = (line, i - line_start + 1)
        if ch in "'\"`":
            # once one quote of a kind never ends, later ones are taken to end with their
            # line without a scan to the end of the script each (linear on any input)
            j = -1 if ch in endless else _quoted_end(script, i)
            if j < 0:
                what = "quoted identifier" if ch == "`" else "string"
                j = _line_end(script, i, f"{what} ({ch})", line, line_start, unterminated, endless, ch)
            line += script.count("\n", i, j)
            k = script.rfind("\n", i, j)
            if k >= 0:
                line_start = k + 1
            i = j
            continue
        if script.startswith("$$", i):
            j = -1 if "$$" in endless else script.find("$$", i + 2)
            if j < 0:
                j = _line_end(script, i, "`$$` body", line, line_start, unterminated, endless, "$$")
            else:
                j += 2
            line += script.count("\n", i, j)
            k = script.rfind("\n", i, j)
            if k >= 0:
                line_start = k + 1
            i = j
            continue
        i += 1
    flush(n)
    return out


def _line_end(
    script: str,
    i: int,
    what: str,
    line: int,
    line_start: int,
    unterminated: list[Unterminated] | None,
    endless: set[str],
    token: str,
) -> int:
    """Where an unterminated token at `i` is taken to end: with its line. The first of
    each kind is noted (the others follow from it)."""
    if unterminated is not None and token not in endless:
        unterminated.append(Unterminated(what, line, i - line_start + 1))
    endless.add(token)
    j = script.find("\n", i)
    return len(script) if j < 0 else j


def _end_of_quoted(text: str, i: int) -> int:
    """Offset just past the quoted token starting at `i` (backslash escapes and doubled
    quotes); the end of the text when it never ends."""
    j = _quoted_end(text, i)
    return len(text) if j < 0 else j


def _quoted_end(text: str, i: int) -> int:
    """`_end_of_quoted`, but -1 when the token never ends. Jumps from quote to quote
    with `str.find` (stepping a character at a time costs ten times as much): a
    backslash before the next quote escapes the character after it, and the search
    goes on past that; backticks take no escapes."""
    quote = text[i]
    escapes = quote != "`"
    j = i + 1
    n = len(text)
    while (k := text.find(quote, j)) >= 0:
        if escapes and (b := text.find("\\", j, k)) >= 0:
            j = b + 2
            continue
        if k + 1 < n and text[k + 1] == quote:
            j = k + 2
            continue
        return k + 1
    return -1


# A statement longer than this that inserts VALUES of literal rows is parsed up to
# the end of its first row (see `values_head`).
LARGE_VALUES = 1 << 16
_VALUES_SCAN = re.compile(r"['\"`]|--|/\*|\(|\)|\bVALUES\b", re.I)
_SELECT_WORD = re.compile(r"\bSELECT\b", re.I)


def values_head(text: str) -> str | None:
    """`INSERT ... VALUES (row), (row), ...` up to the end of its first row; None when a
    SELECT follows VALUES (a row may read a table) or no such row is found. Everything
    delta-lint reads of such a statement (target, partition, columns, REPLACE WHERE)
    comes before its rows, and parsing a seed script of many thousand rows whole costs
    sqlglot time and memory that grow with the rows. Rows after the first are not
    checked for syntax."""
    depth, values_at, i, n = 0, None, 0, len(text)
    while (m := _VALUES_SCAN.search(text, i)) is not None:
        token, start = m.group(0), m.start()
        i = m.end()
        if token in ("'", '"', "`"):
            i = _end_of_quoted(text, start)
        elif token == "--":
            j = text.find("\n", start)
            i = n if j < 0 else j + 1
        elif token == "/*":
            j = text.find("*/", start + 2)
            i = n if j < 0 else j + 2
        elif token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            if depth == 0 and values_at is not None:
                return None if _SELECT_WORD.search(text, values_at) else text[:i]
        elif depth == 0 and values_at is None:  # VALUES, outside any parentheses
            values_at = i
    return None


# Template forms, most specific first. Each yields the parameter's display name.
_TEMPLATES = [
    (re.compile(r"\{\{\s*(.+?)\s*\}\}", re.S), "{{{{ {} }}}}"),
    (re.compile(r"\$\{\s*([A-Za-z_][\w.\-]*)\s*\}"), "${{{}}}"),
    (re.compile(r"%\(([A-Za-z_]\w*)\)s"), "%({})s"),
    # legacy widget substitution in SQL notebooks: `$catalog.$schema.orders`
    (re.compile(r"(?<![\w$'\"])\$([A-Za-z_]\w*)\b(?!\s*\()"), "${}"),
    (re.compile(r"\{\s*([A-Za-z_][\w.]*(?:\[[^\]{}]*\])?|\d*)\s*(?:![rsa])?(?::[^{}]*)?\}"), "{{{}}}"),
]
# legacy `$name` glued to an identifier (`db.visits_$year`): part of the name, as a
# parameter; read outside quotes only (`'a$b'` is text)
_GLUED_DOLLAR = re.compile(r"(?<=\w)\$([A-Za-z_]\w*)\b(?!\s*\()")
_JINJA_BLOCK = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.S)
_COLON_PARAM = re.compile(r"(?<![\w:\]\)\}\.`'\"])\s?:([A-Za-z_]\w*)")
_PLAIN_NAME = re.compile(r"[A-Za-z_]\w*")
_IDENTIFIER_FN = re.compile(r"IDENTIFIER\s*\(\s*'?(__dlp\d+__)'?\s*\)", re.I)
# `IDENTIFIER(:catalog || '.' || :schema || '.' || 'orders')`: parts joined into one name
_IDENTIFIER_CONCAT = re.compile(
    r"IDENTIFIER\s*\(\s*((?:__dlp\d+__|'[^']*')(?:\s*\|\|\s*(?:__dlp\d+__|'[^']*'))+)\s*\)", re.I
)
_CONCAT_PART = re.compile(r"(__dlp\d+__)|'([^']*)'", re.I)
_IDENTIFIER_LIT = re.compile(r"IDENTIFIER\s*\(\s*'([\w.`]+)'\s*\)", re.I)
MARKER = re.compile(r"__dlp(\d+)__", re.IGNORECASE)  # sqlglot may upper-case a marker
_IDENTIFIER_WORD = re.compile(r"IDENTIFIER", re.I)


def _may_template(text: str) -> bool:
    """Whether one of the patterns above may match: the text holds one of the
    characters without which none of them can (`{$%:<`, each tested with `in`, a
    quarter of the cost of a character-class search) or the word IDENTIFIER. The word
    is looked for in the lower-cased text (a case-insensitive search of a whole
    statement costs four times as much), except in text that is not ASCII: a
    case-insensitive pattern also matches some letters `lower` leaves (the dotless i)."""
    if "{" in text or "$" in text or "%" in text or ":" in text or "<" in text:
        return True
    if text.isascii():
        return "identifier" in text.lower()
    return _IDENTIFIER_WORD.search(text) is not None


@dataclass
class Templated:
    """A statement with its templates replaced by markers."""

    text: str
    names: list[str] = field(default_factory=list)  # marker index -> parameter name
    shown: list[str] = field(default_factory=list)  # marker index -> original template text

    def name_of(self, marker_text: str) -> str | None:
        """The parameter a whole token stands for; composite tokens keep their shape.
        Marker-like text the statement itself holds (no template of this index) is
        plain text, not a parameter."""
        if m := MARKER.fullmatch(marker_text):
            return self.names[int(m.group(1))] if self.is_marker(marker_text) else None
        if MARKER.search(marker_text):
            return self.restore(marker_text)
        return None

    def is_marker(self, text: str) -> bool:
        """Whether the whole text is a marker one of this statement's templates left."""
        if not self.names:  # most statements hold no template: nothing to match
            return False
        m = MARKER.fullmatch(text)
        return m is not None and int(m.group(1)) < len(self.names)

    def params_in(self, text: str) -> set[str]:
        """The parameters whose markers the text holds."""
        if not self.names:
            return set()
        return {self.names[int(i)] for i in MARKER.findall(text) if int(i) < len(self.names)}

    def restore(self, text: str) -> str:
        """Put the original template text back in place of markers."""
        if not self.names:  # most statements hold no template
            return text
        return MARKER.sub(lambda m: self._put_back(m, self.shown), text)

    def restore_names(self, text: str) -> str:
        if not self.names:
            return text
        braced = ["{" + name + "}" for name in self.names]
        return MARKER.sub(lambda m: self._put_back(m, braced), text)

    @staticmethod
    def _put_back(m: re.Match, texts: list[str]) -> str:
        """The text for one marker; marker-like text of the statement's own stays."""
        index = int(m.group(1))
        return texts[index] if index < len(texts) else m.group(0)


def apply_templates(text: str) -> Templated:
    """Replace `{x}`, `{{x}}`, `${x}`, `%(x)s`, `:x` and `IDENTIFIER(...)` by markers."""
    t = Templated(text)
    if not _may_template(text):  # most statements: seven substitutions spared
        return t

    def add(name: str, shown: str) -> str:
        t.names.append(param_name(name) if not name.isdigit() and name else f"arg{name or len(t.names)}")
        t.shown.append(shown)
        return f"__dlp{len(t.names) - 1}__"

    out = _JINJA_BLOCK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for pattern, _shape in _TEMPLATES:
        out = pattern.sub(lambda m: add(m.group(1), m.group(0)), out)
    out = _replace_outside_strings(out, _GLUED_DOLLAR, lambda m: add(m.group(1), m.group(0)), needle="$")
    if "<" in out:
        out = _ANGLE.sub(lambda m: add(m.group(1), m.group(0)) if _names_a_table(out, m) else m.group(0), out)
    out = _unquote_markers(out)
    out = _replace_outside_strings(
        out, _COLON_PARAM, lambda m: m.group(0)[: m.start(1) - m.start(0) - 1] + add(m.group(1), ":" + m.group(1))
    )
    out = _IDENTIFIER_CONCAT.sub(_joined_identifier, out)
    out = _IDENTIFIER_FN.sub(lambda m: m.group(1), out)
    out = _IDENTIFIER_LIT.sub(lambda m: m.group(1), out)
    t.text = out
    return t


# `<catalog>.sales.orders`: a placeholder left to fill in, where a name belongs
_ANGLE = re.compile(r"<([A-Za-z_]\w*)>")
_BEFORE_NAME = re.compile(
    r"(?:\.|\b(?:FROM|INTO|TABLE|UPDATE|JOIN|USE|CATALOG|SCHEMA|DATABASE|OPTIMIZE|VACUUM)\s+)$", re.IGNORECASE
)


def _names_a_table(text: str, m: re.Match) -> bool:
    """Whether `<x>` stands where a name part belongs (never `ARRAY<STRING>`)."""
    if text.startswith(".", m.end()):
        return True
    return _BEFORE_NAME.search(text, max(0, m.start() - 12), m.start()) is not None


def _joined_identifier(m: re.Match) -> str:
    return "".join(p.group(1) or p.group(2) for p in _CONCAT_PART.finditer(m.group(1)))


_NAMED_INPUT = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}|\$\{\s*([A-Za-z_]\w*)\s*\}")


def sql_inputs(text: str) -> list[str]:
    """The job inputs a SQL file reads: `:name` parameter markers, `{{name}}` and
    `${name}` substitutions (a SQL task's parameters bind them)."""
    names = {m.group(1) or m.group(2) for m in _NAMED_INPUT.finditer(text)}
    text = _unquote_markers(text)
    if ":" in text:
        _replace_outside_strings(text, _COLON_PARAM, lambda m: names.add(m.group(1)) or m.group(0))
    return sorted(names)


def bind_inputs(text: str, values: dict[str, str]) -> str:
    """The text as a run with these parameter values reads it: `{{name}}` and
    `${name}` replaced by the value, `:name` by the value as a string literal."""

    def named(m: re.Match) -> str:
        value = values.get(m.group(1) or m.group(2))
        return m.group(0) if value is None else value

    def marker(m: re.Match) -> str:
        value = values.get(m.group(1))
        if value is None:
            return m.group(0)
        head = m.group(0)[: m.start(1) - m.start(0) - 1]
        return head + "'" + value.replace("'", "''") + "'"

    out = _NAMED_INPUT.sub(named, text)
    out = _unquote_markers(out, values)
    return _replace_outside_strings(out, _COLON_PARAM, marker) if ":" in out else out


_QUOTE_OR_COMMENT = re.compile(r"['\"`]|--")


def _unquote_markers(text: str, only: dict[str, str] | None = None) -> str:
    """`:`name`` (a parameter marker whose name is quoted) as `:name`, where the colon
    stands outside quotes and comments and could start a marker (`_COLON_PARAM`);
    `only`: just the names it holds."""
    if ":`" not in text:
        return text
    n = len(text)
    pieces = []
    for start, end, outside in _pieces(text):
        piece = name = text[start:end]
        if not outside:
            name = piece[1:-1]
        if (
            not outside
            and piece.startswith("`")
            and start > 0
            and text[start - 1] == ":"
            and (start < 2 or not (text[start - 2].isalnum() or text[start - 2] in "_:])}.`'\""))
            and len(piece) > 2
            and piece.endswith("`")
            and _PLAIN_NAME.fullmatch(name)
            and not (end < n and (text[end].isalnum() or text[end] == "_"))  # `:`a`b` is no marker
            and (only is None or name in only)
        ):
            piece = name
        pieces.append(piece)
    return "".join(pieces)


def _replace_outside_strings(text: str, pattern: re.Pattern, repl, needle: str = ":") -> str:
    """Apply `pattern` only to the parts of `text` outside quotes and comments
    (nothing to do where `needle`, a character every match holds, is absent)."""
    if needle not in text:
        return text
    return "".join(
        pattern.sub(repl, text[start:end]) if outside else text[start:end] for start, end, outside in _pieces(text)
    )


def _pieces(text: str) -> Iterator[tuple[int, int, bool]]:
    """`text` cut into (start, end, outside) pieces: runs outside quotes and comments,
    and each quoted token or `--` comment (to its line's end) whole."""
    seg_start = 0
    n = len(text)
    while (m := _QUOTE_OR_COMMENT.search(text, seg_start)) is not None:  # the next quote or comment
        start = m.start()
        yield seg_start, start, True
        if m.group(0) == "--":
            j = text.find("\n", start)
            j = n if j < 0 else j
        else:
            j = _end_of_quoted(text, start)
        yield start, j, False
        seg_start = j
    yield seg_start, n, True


def strip_leading_comments(text: str) -> str:
    """The statement without leading comments (for keyword dispatch)."""
    while True:
        text = text.lstrip()
        if text.startswith("--"):
            j = text.find("\n")
            text = "" if j < 0 else text[j + 1 :]
        elif text.startswith("/*"):
            j = text.find("*/")
            text = "" if j < 0 else text[j + 2 :]
        else:
            return text


# A template that fills a whole clause of a DDL statement (`CREATE TABLE t
# ({schema}) TBLPROPERTIES ({props})`, `OPTIMIZE t {where_sql} {zorder_sql}`,
# `CREATE TABLE t {clone_type} CLONE s`): the clause keyword with nothing but
# templates in it, or a template standing alone as a token.
_TEMPLATED_CLAUSE = re.compile(
    r"\b(?:TBLPROPERTIES|OPTIONS|(?:PARTITIONED|CLUSTER|ZORDER)\s+BY)\s*"
    r"(?:\(\s*(?:__dlp\d+__[\s,]*)+\)|__dlp\d+__(?![\w.`'\"]))",
    re.I,
)
_LONE_MARKER = re.compile(r"(?<![\w.`'\"])__dlp\d+__(?![\w.`'\"])", re.I)
# what comes before a template that stands for a name, a value or a query, not a clause
_NOT_A_CLAUSE = re.compile(
    r"(?:\b(?:TABLE|EXISTS|OPTIMIZE|CLONE|AS|BY|LOCATION|COMMENT|WHERE|AND|OR|NOT|IN|SELECT|FROM)|[=<>!+\-*/|%])\s*$",
    re.I,
)
_EMPTY_COLUMNS = re.compile(
    r"^(\s*(?:CREATE|REPLACE)\b[^(]*?\bTABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[^\s(]+)\s*\(\s*\)", re.I
)


def drop_templated_clauses(text: str) -> str | None:
    """The statement without the clauses its templates fill, or None when no
    template fills a clause. The table a DDL statement names is known even when its
    columns, properties or options are built at run time; what those clauses say is
    not, and the caller treats it as unknown."""
    out = _TEMPLATED_CLAUSE.sub(" ", text)
    out = _LONE_MARKER.sub(
        lambda m: m.group(0) if _NOT_A_CLAUSE.search(out[max(0, m.start() - 40) : m.start()]) else " ", out
    )
    if out == text:
        return None
    for pattern, repl in ((r"\(\s*,", "("), (r",\s*\)", ")"), (r",\s*,", ",")):
        previous = None
        while previous != out:
            previous, out = out, re.sub(pattern, repl, out)
    return _EMPTY_COLUMNS.sub(r"\1", out)


_POSITIONAL_MARKER = re.compile(r"\?")
_FORMAT_FIELD = re.compile(r"\{([A-Za-z_]\w*)\}")


def bind_markers(text: str, named: dict[str, str], positional: list[str | None]) -> str:
    """The statement as Spark runs it with `args` bound (`spark.sql(q, args=...)`): each
    `:name` marker outside quotes and comments replaced by the SQL literal `named` gives
    it, or each `?` by the literal at its place in `positional`. A marker without a
    known literal (a value the code does not give statically) stays a marker, a
    parameter of the statement; Spark takes one kind of marker per statement."""
    if named and ":" in text:
        text = _unquote_markers(text, named)  # `:`v`` is the marker `:v`

        def marker(m: re.Match) -> str:
            value = named.get(m.group(1))
            if value is None:
                return m.group(0)
            return m.group(0)[: m.start(1) - m.start(0) - 1] + value

        text = _replace_outside_strings(text, _COLON_PARAM, marker)
    if positional and "?" in text:
        count = iter(range(1 << 30))

        def place(m: re.Match) -> str:
            index = next(count)
            value = positional[index] if index < len(positional) else None
            return m.group(0) if value is None else value

        text = _replace_outside_strings(text, _POSITIONAL_MARKER, place, needle="?")
    return text


def format_fields(text: str, values: dict[str, str], own: set[str]) -> str:
    """`spark.sql(q, name=value)`: pyspark formats `q` with Python's formatter first,
    each `{name}` becoming the value's SQL text. Only a bare `{name}` with a known text
    is replaced; `own` are the names the reader already uses for values of the code it
    does not know (they are not the call's fields, and stay)."""
    if not values or "{" not in text:
        return text
    return _FORMAT_FIELD.sub(
        lambda m: values[m.group(1)] if m.group(1) in values and m.group(1) not in own else m.group(0), text
    )


_RAW_PREFIX = re.compile(r"(?<![\w$])[rR]$")
_CHAIN_GAP = re.compile(r"\s*[rR]?")


def chain_string_literals(text: str) -> str:
    """The statement with each chain of adjacent string literals written as one.

    Databricks SQL joins string literals that follow each other (`'a' 'b'` is `'ab'`),
    in any mix of single and double quotes and raw `r'...'` forms, and Spark's lexer
    knows no doubled-quote escape: `'customer''s'` is two literals chained, `'customer'`
    and `'s'`. sqlglot reads a chain only where an expression stands and refuses it
    where one literal must (`COMMENT ON TABLE t IS '...'`, a column's `COMMENT`), so a
    statement it refuses is parsed again with its chains joined. The joined literal is
    single-quoted, other quotes escaped with a backslash; text without a chain is
    returned unchanged."""
    if "'" not in text and '"' not in text:
        return text
    out: list[str] = []
    chain: list[str] = []  # the bodies, single-quote escaped, of the chain's literals
    original: list[str] = []  # the chain's own text, kept when it holds one literal
    gap = ""  # what stands after the chain's last literal (blanks, a raw prefix)

    def flush() -> None:
        nonlocal gap
        if chain:
            out.append("'" + "".join(chain) + "'" if len(chain) > 1 else "".join(original))
            chain.clear()
            original.clear()
        out.append(gap)
        gap = ""

    for start, end, outside in _pieces(text):
        piece = text[start:end]
        if outside:
            if chain and _CHAIN_GAP.fullmatch(piece):
                gap = piece
                continue
            flush()
            out.append(piece)
            continue
        if piece[0] not in "'\"":  # a quoted identifier or a comment ends a chain
            flush()
            out.append(piece)
            continue
        if chain:
            raw = gap.endswith(("r", "R"))
            original.append(gap)
            gap = ""
        else:
            raw = bool(out and _RAW_PREFIX.search(out[-1]))
            if raw:
                out[-1] = out[-1][:-1]
                original.append(text[start - 1])
        original.append(piece)
        chain.extend(_literal_bodies(piece, raw))
    flush()
    return "".join(out)


def _literal_bodies(piece: str, raw: bool) -> list[str]:
    """The bodies of the literals one quoted token holds (`'a''b'` holds two), each as
    the body of a single-quoted literal with backslash escapes."""
    quote = piece[0]
    bodies: list[str] = []
    body: list[str] = []
    i = 1
    n = len(piece)
    while i < n:
        c = piece[i]
        if c == "\\" and not raw:
            body.append(piece[i : i + 2])
            i += 2
        elif c == quote:
            bodies.append("".join(body))
            body = []
            i += 2  # past the closing quote and the next literal's opening one
        else:
            body.append("\\\\" if raw and c == "\\" else "\\'" if c == "'" else c)
            i += 1
    if body or not bodies:
        bodies.append("".join(body))
    return bodies
