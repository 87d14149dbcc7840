"""SQL scripting: the statements of a compound block and the SQL that
`EXECUTE IMMEDIATE` runs.

Databricks SQL scripts build statements as strings (`SET VAR q = 'INSERT INTO ' ||
:catalog || '.' || :schema || '.t ...'; EXECUTE IMMEDIATE q;`) inside `BEGIN ... END`
blocks with `IF ... THEN` branches. This module reads that layer so the SQL front end
sees the statements a run executes: block keywords are taken off the statement they
lead, variables keep the text they are given (string literals, `||`, `concat(...)`,
job parameters and other variables), and `EXECUTE IMMEDIATE` becomes the statement
its string holds. Both branches of an `IF` are read: a run may take either.

A part of a string nothing static gives (a variable set from a query, a function
call) stays a `{name}` placeholder, as in templated SQL: a table name built from one
is reported unresolved, never guessed. The variables whose text holds such a part
are kept apart (`unknown`): a job parameter's placeholder is a value the job gives,
theirs is not, so a `USE IDENTIFIER(v)` of one sets a catalog or schema only a run
knows (see `sql._use_identifier`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from delta_lint.frontend.sqltext import strip_leading_comments

# Words that open or close a compound statement or a branch, taken off the statement
# they lead (`BEGIN DECLARE q STRING`, `IF :x THEN SET q = ...`, `ELSE ...`).
_OPENERS = re.compile(
    r"""^\s*(?:
        (?:\w+\s*:\s*)?BEGIN\b
      | (?:ELSE)?IF\b.*?\bTHEN\b
      | ELSE\b
      | (?:\w+\s*:\s*)?(?:WHILE|FOR)\b.*?\bDO\b
      | (?:\w+\s*:\s*)?(?:LOOP|REPEAT)\b
      | WHEN\b.*?\bTHEN\b
      | CASE\b.*?(?=\bWHEN\b)
    )\s*""",
    re.I | re.S | re.X,
)
_CLOSER = re.compile(r"^\s*END(?:\s+(?:IF|WHILE|FOR|LOOP|CASE|REPEAT))?(?:\s+\w+)?\s*$", re.I)
# statements that only steer a loop: `LEAVE label`, `ITERATE label`
_STEER = re.compile(r"^\s*(?:LEAVE|ITERATE)\s+\w+\s*$", re.I)
# `SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = ...`, `SIGNAL cond`, `RESIGNAL`: raises an
# error (the block ends as on any exception); it writes no table
_SIGNAL = re.compile(r"^\s*(?:RE)?SIGNAL\b", re.I)
_DECLARE = re.compile(
    r"^\s*DECLARE\s+(?:OR\s+REPLACE\s+)?(?:VARIABLE\s+|VAR\s+)?(?P<names>\w+(?:\s*,\s*\w+)*)"
    r"(?:\s+(?!DEFAULT\b)[\w<>(),\s]*?)?(?:\s*(?:DEFAULT|=)\s*(?P<value>.*))?$",
    re.I | re.S,
)
_SET_VAR = re.compile(r"^\s*SET\s+(?P<var>VAR(?:IABLE)?\s+)?(?P<name>\w+)\s*=\s*(?P<value>.*)$", re.I | re.S)
# `SET VAR (a, b) = (SELECT ...)`: variables given the columns of a query's row
_SET_VARS = re.compile(r"^\s*SET\s+VAR(?:IABLE)?\s*\(\s*(?P<names>\w+(?:\s*,\s*\w+)*)\s*\)\s*=", re.I)
# one assignment of `SET VAR a = 1, b = 'x'` (the first word of each piece)
_ASSIGNMENT = re.compile(r"^\s*(?P<name>\w+)\s*=\s*(?P<value>.*)$", re.S)
_EXECUTE = re.compile(r"^\s*EXECUTE\s+IMMEDIATE\s+(?P<value>.*)$", re.I | re.S)
# Tokens of a string expression: a quoted literal, `||`, `:param`, a name, a bracket, a comma.
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<str>'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")
      | (?P<concat>\|\|)
      | :(?P<param>[A-Za-z_]\w*)
      | (?P<name>[A-Za-z_][\w.]*)
      | (?P<punct>[(),])
      | (?P<other>\S)
    )""",
    re.X | re.S,
)
_ESCAPE = re.compile(r"\\(.)|''|\"\"", re.S)


@dataclass
class Step:
    """What a script statement asks of the SQL front end: `text` to read in its place
    (None: nothing to read), and whether it was a scripting statement at all."""

    text: str | None
    scripting: bool
    start: int = 0  # where in the statement given the statement read begins
    sets: tuple[str, ...] = ()  # the variables this statement gives a value
    reads: tuple[str, ...] = ()  # the variables whose text `EXECUTE IMMEDIATE` runs


_LOOP_WORDS = frozenset({"WHILE", "FOR", "LOOP", "REPEAT"})
_BRANCH_WORDS = frozenset({"IF", "CASE"})
_NEXT_BRANCH_WORDS = frozenset({"ELSE", "ELSEIF", "WHEN"})


def branch_variables(statements: list[str]) -> dict[int, frozenset[str]]:
    """Where a script's control flow merges, the variables whose value is one of
    several there, by the index of the statement they are unknown from. Reading
    statements in text order keeps one value per variable, so `step` is told to
    forget these: at a further branch of an IF or CASE (ELSE, ELSEIF, WHEN) those
    its earlier branches set, at its END those any branch set; at a loop's start
    and END those its body sets (a later turn sees what a later SET gave). Each
    block's names reach the block around it. One pass, nesting tracked by the block
    words; a variable set outside any branch is forgotten nowhere."""
    frames: list[tuple[str, int, set[str]]] = []  # (block word, its statement, names set in it)
    forget: dict[int, set[str]] = {}
    for i, text in enumerate(statements):
        rest = strip_leading_comments(text)
        for word in _opener_words(rest):
            if word in _NEXT_BRANCH_WORDS:
                branch = next((f for f in reversed(frames) if f[0] in _BRANCH_WORDS), None)
                if branch is not None and branch[2]:
                    forget.setdefault(i, set()).update(branch[2])
            elif word in _LOOP_WORDS or word in _BRANCH_WORDS or word == "BEGIN":
                frames.append((word, i, set()))
        rest, _ = _strip_openers(rest)
        if _CLOSER.match(rest) or _UNTIL.match(rest):
            if frames:
                word, start, names = frames.pop()
                if names and (word in _BRANCH_WORDS or word in _LOOP_WORDS):
                    forget.setdefault(i, set()).update(names)
                    if word in _LOOP_WORDS:
                        forget.setdefault(start, set()).update(names)
                if frames:
                    frames[-1][2].update(names)
            continue
        if frames:
            frames[-1][2].update(_given(rest))
    return {i: frozenset(names) for i, names in forget.items()}


def _listed(names: str) -> tuple[str, ...]:
    """`a, B` of a DECLARE or `SET VAR (a, b)`: the variables' names."""
    return tuple(name.lower() for name in re.split(r"\s*,\s*", names))


def _given(rest: str) -> tuple[str, ...]:
    """The variables a DECLARE or SET statement (its block words taken off) gives a
    value, as `step` reads them."""
    if m := (_DECLARE.match(rest) or _SET_VARS.match(rest)):
        return _listed(m["names"])
    if m := _SET_VAR.match(rest):
        assignments = _assignments(rest[m.start("name") :]) if m["var"] else None
        return tuple(dict.fromkeys(name.lower() for name, _ in assignments or [(m["name"], "")]))
    return ()


def _opener_words(text: str) -> list[str]:
    """The block words a statement opens with, in order (`IF`, `ELSE`, `WHILE`...)."""
    words = []
    while (m := _OPENERS.match(text)) and m.end():
        word = _OPENER_WORD.match(m.group(0))
        words.append(word.group(1).upper() if word else "")
        text = strip_leading_comments(text[m.end() :])
    return words


def step(
    text: str, variables: dict[str, str], unknown: set[str] | None = None, forget: frozenset[str] = frozenset()
) -> Step:
    """Read one statement of a script, updating `variables` and `unknown` (the
    variables whose text holds a part nothing static gives); the statement the SQL
    front end reads in its place. `forget`: the variables whose value is one of
    several from this statement on, where control flow merges (`branch_variables`)."""
    unknown = unknown if unknown is not None else set()
    for name in forget:
        if name in variables:  # a variable (not a Spark setting a SET in a branch named)
            variables[name] = "{" + name + "}"
            unknown.add(name)
    rest, opened = _strip_openers(text)
    while handler := _HANDLER.match(rest):  # a handler's statement runs on an error: read as any other
        rest, opened = _strip_openers(strip_leading_comments(rest[handler.end() :]))[0], True
    if not rest.strip() or _CLOSER.match(rest) or _UNTIL.match(rest) or _STEER.match(rest):
        return Step(None, opened or bool(_CLOSER.match(rest) or _UNTIL.match(rest) or _STEER.match(rest)))
    if _SIGNAL.match(rest):  # an error raised: nothing written, nothing for the SQL front end to read
        return Step(None, True)
    if m := _DECLARE.match(rest):
        value = evaluate(m["value"], variables, m["names"]) if m["value"] else None
        known = value is not None and is_known(m["value"], variables, unknown)
        names = _listed(m["names"])
        for name in names:
            variables[name] = value if value is not None else "{" + name + "}"
            _mark(unknown, name, known)
        return Step(None, True, sets=names if value is not None else ())
    if m := _SET_VARS.match(rest):
        names = _listed(m["names"])
        for name in names:  # the columns of a row a query gives: only a run knows them
            variables[name] = "{" + name + "}"
            unknown.add(name)
        return Step(None, True, sets=names)
    m = _SET_VAR.match(rest)
    if m and (m["var"] or m["name"].lower() in variables):
        assignments = _assignments(rest[m.start("name") :]) if m["var"] else None
        if assignments is None:  # one assignment, or pieces that are not `name = value` each
            assignments = [(m["name"], m["value"])]
        for name, value in assignments:
            name = name.lower()
            text_of = evaluate(value, variables, name)
            known = is_known(value, variables, unknown)
            variables[name] = text_of
            _mark(unknown, name, known)
        return Step(None, True, sets=tuple(dict.fromkeys(name.lower() for name, _ in assignments)))
    start = len(text) - len(rest)
    if m := _EXECUTE.match(rest):
        value = _statement_expression(m["value"])
        reads = tuple(
            dict.fromkeys(
                t.group("name").lower()
                for t in _TOKEN.finditer(value)
                if t.lastgroup == "name" and t.group("name").lower() in variables
            )
        )
        # the text run is one statement, which Spark's grammar lets end in semicolons
        # (`EXECUTE IMMEDIATE "SET QUERY_TAGS['k'] = '" || v || "';"`), as `spark.sql` does
        executed = _TRAILING_SEMICOLONS.sub("", evaluate(value, variables, "statement"))
        return Step(executed, True, start, reads=reads)
    return Step(rest, opened, start)


_TRAILING_SEMICOLONS = re.compile(r"[\s;]+$")


def _statement_expression(text: str) -> str:
    """What `EXECUTE IMMEDIATE` runs: its text up to an `INTO` or `USING` clause
    outside quotes and brackets (`'INSERT INTO ' || t` keeps its literal's INTO)."""
    depth = 0
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "punct":
            depth += {"(": 1, ")": -1}.get(m.group(kind), 0)
        elif kind == "name" and depth == 0 and m.group(kind).upper() in ("INTO", "USING"):
            return text[: m.start(kind)].rstrip()
    return text


def _mark(unknown: set[str], name: str, known: bool) -> None:
    if known:
        unknown.discard(name)
    else:
        unknown.add(name)


def _assignments(text: str) -> list[tuple[str, str]] | None:
    """`a = 1, b = concat('x', a)` as its assignments, cut at the commas outside
    brackets and quotes; None when there is one, or a piece is not `name = value`."""
    pieces, depth, start = [], 0, 0
    for t in _TOKEN.finditer(text):
        if t.lastgroup != "punct":
            continue
        if t["punct"] == "(":
            depth += 1
        elif t["punct"] == ")":
            depth -= 1
        elif depth == 0:  # a comma between two assignments
            pieces.append(text[start : t.start("punct")])
            start = t.end()
    if not pieces:
        return None
    pieces.append(text[start:])
    matched = [_ASSIGNMENT.match(piece) for piece in pieces]
    if not all(matched):
        return None
    return [(m["name"], m["value"]) for m in matched if m is not None]


def is_known(expression: str, variables: dict[str, str], unknown: set[str] | frozenset[str]) -> bool:
    """Whether `evaluate` gives the whole text of `expression` from what the script
    shows: string literals, job parameters (`:name`, whose value the job gives),
    `||`, `concat(...)` and variables that are not `unknown`."""
    tokens = [(m.lastgroup, m.group(m.lastgroup)) for m in _TOKEN.finditer(expression.strip().rstrip(";"))]
    if not tokens or _concatenation(tokens, 0, variables, "")[1] != len(tokens):
        return False
    for index, (kind, text) in enumerate(tokens):
        if kind == "other":
            return False
        if kind == "name":
            called = index + 1 < len(tokens) and tokens[index + 1] == ("punct", "(")
            if (text.lower() != "concat") if called else (text.lower() not in variables or text.lower() in unknown):
                return False
    return True


def _strip_openers(text: str) -> tuple[str, bool]:
    opened = False
    while m := _OPENERS.match(text):
        if m.end() == 0:
            break
        text, opened = strip_leading_comments(text[m.end() :]), True
    return text, opened


def evaluate(expression: str, variables: dict[str, str], name: str) -> str:
    """The text of a string expression: literals (adjacent ones joined), `||`,
    `concat(...)`, `:param` (kept as `{param}`) and variables; any other part is a
    `{name}` placeholder named after what it is assigned to."""
    tokens = [(m.lastgroup, m.group(m.lastgroup)) for m in _TOKEN.finditer(expression.strip().rstrip(";"))]
    value, end = _concatenation(tokens, 0, variables, name.lower())
    return value if end == len(tokens) else "{" + name.lower() + "}"


def _concatenation(tokens: list[tuple[str | None, str]], i: int, variables: dict[str, str], name: str):
    parts = []
    while True:
        part, i = _operand(tokens, i, variables, name)
        parts.append(part)
        if i < len(tokens) and tokens[i][0] == "concat":
            i += 1
            continue
        return "".join(parts), i


def _operand(tokens: list[tuple[str | None, str]], i: int, variables: dict[str, str], name: str):
    unknown = "{" + name + "}"
    if i >= len(tokens):
        return unknown, i
    kind, text = tokens[i]
    if kind == "str":
        out = []
        while i < len(tokens) and tokens[i][0] == "str":  # 'a' 'b' is 'ab'
            out.append(_unquote(tokens[i][1]))
            i += 1
        return "".join(out), i
    if kind == "param":
        return "{" + text.lower() + "}", i + 1
    if kind == "name" and text.lower() == "concat" and i + 1 < len(tokens) and tokens[i + 1] == ("punct", "("):
        parts, i = [], i + 2
        while i < len(tokens):
            part, i = _concatenation(tokens, i, variables, name)
            parts.append(part)
            if i < len(tokens) and tokens[i] == ("punct", ","):
                i += 1
                continue
            break
        if i < len(tokens) and tokens[i] == ("punct", ")"):
            return "".join(parts), i + 1
        return unknown, len(tokens)
    if kind == "name" and (i + 1 == len(tokens) or tokens[i + 1] != ("punct", "(")):
        return variables.get(text.lower(), "{" + text.lower() + "}"), i + 1
    if kind == "punct" and text == "(":
        inner, j = _concatenation(tokens, i + 1, variables, name)
        if j < len(tokens) and tokens[j] == ("punct", ")"):
            return inner, j + 1
    return unknown, _skip_operand(tokens, i)


def _skip_operand(tokens: list[tuple[str | None, str]], i: int) -> int:
    """The index after an operand this module does not evaluate (a call, a query)."""
    depth = 0
    while i < len(tokens):
        kind, text = tokens[i]
        if kind == "punct" and text == "(":
            depth += 1
        elif kind == "punct" and text == ")":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (kind == "concat" or text == ","):
            return i
        i += 1
    return i


def _unquote(literal: str) -> str:
    return _ESCAPE.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(0)[0], literal[1:-1])


# `IDENTIFIER(` where a name may be given, and the quoted text and comments a statement
# may hold the word in (kept as they are)
_IDENTIFIER_CALL = re.compile(
    r"""'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`[^`]*`|--[^\n]*|/\*.*?\*/|\bIDENTIFIER\s*\(""",
    re.I | re.S,
)
# what a table name read from a variable may be: name parts, `{x}` placeholders, dots
_NAME_TEXT = re.compile(r"(?:[\w$]+|`(?:[^`]|``)*`|\{\w+\})+(?:\s*\.\s*(?:[\w$]+|`(?:[^`]|``)*`|\{\w+\})+)*")


def identifiers(text: str, variables: dict[str, str], unknown: frozenset[str]) -> str:
    """`text` with each `IDENTIFIER(expr)` whose `expr` reads a session or script
    variable or calls a function (`INSERT INTO IDENTIFIER(target)`, `IDENTIFIER(v ||
    '.orders')`, `IDENTIFIER(concat(c, '.t'))`) replaced by the name it gives, in
    statement order: what `DECLARE ... DEFAULT` or `SET VAR` last gave the variables.
    A name that is not wholly known (a variable set from a query or never declared
    here, a call other than `concat`, among `unknown` or not in `variables`) becomes
    one `{name}` placeholder, so the table is reported unresolved (DL001), never named
    after the function nor bound to a job parameter of that name. An `expr` of
    literals, job parameters and `||` alone is left to the templates
    (`sqltext.apply_templates`)."""
    out: list[str] = []
    at = 0
    for m in _IDENTIFIER_CALL.finditer(text):
        if not m.group(0)[:1].isalpha() or m.start() < at:
            # a string, a quoted name or a comment (`-- concat(` ends with a bracket
            # too); or inside the one replaced
            continue
        end, first = _argument_end(text, m.end())
        if end is None:
            break  # never closed: nor is any after it (each would be scanned to the end)
        if first is None:
            continue
        expression = text[m.end() : end]
        value = evaluate(expression, variables, first).strip()
        if not is_known(expression, variables, unknown) or not _NAME_TEXT.fullmatch(value):
            value = "{" + first + "}"  # a name only a run knows
        out.append(text[at : m.start()])
        out.append(value)
        at = end + 1
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)


def _argument_end(text: str, start: int) -> tuple[int | None, str | None]:
    """Where the `)` closing an `IDENTIFIER(` whose argument starts at `start` is, and
    the first name the argument holds (a variable, or a function it calls), or None
    for either."""
    depth, first = 0, None
    for t in _TOKEN.finditer(text, start):
        kind = t.lastgroup
        if kind == "punct" and t["punct"] == "(":
            depth += 1
        elif kind == "punct" and t["punct"] == ")":
            if depth == 0:
                return t.start("punct"), first
            depth -= 1
        elif kind == "name" and first is None:
            first = t["name"].lower()
        elif kind == "other" and t["other"] == ";":
            break
    return None, first


# `CREATE PROCEDURE name (params) characteristics AS [label:] BEGIN`: the header of a
# procedure, up to the compound statement that is its body (kept: read as a block)
PROCEDURE_HEADER = re.compile(
    r"CREATE\s+(?:OR\s+REPLACE\s+)?PROCEDURE\s+(?:IF\s+NOT\s+EXISTS\s+)?"
    r"(?P<name>(?:`(?:[^`]|``)*`|[\w$]+)(?:\s*\.\s*(?:`(?:[^`]|``)*`|[\w$]+))*)\s*\(.*?\bAS\s+"
    r"(?=(?:\w+\s*:\s*)?BEGIN\b)",
    re.I | re.S,
)
# a label (`lbl: WHILE ...`) leads only a compound or a loop: `IF :env = ...` is no label
_OPENER_WORD = re.compile(r"\s*(?:\w+\s*:\s*(?=(?:BEGIN|WHILE|FOR|LOOP|REPEAT)\b))?(\w+)", re.I)
_CASE = re.compile(r"CASE\b", re.I)
# `DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ...`: the handler's own statement follows
_CONDITION = r"(?:SQLEXCEPTION|NOT\s+FOUND|SQLSTATE\s+(?:VALUE\s+)?'[^']*'|\w+)"
_HANDLER = re.compile(
    rf"\s*DECLARE\s+(?:CONTINUE|EXIT)\s+HANDLER\s+FOR\s+{_CONDITION}(?:\s*,\s*{_CONDITION})*\s*", re.I
)
_UNTIL = re.compile(r"UNTIL\b.*\bEND\s+REPEAT\b(?:\s+\w+)?\s*$", re.I | re.S)


def block_depth(text: str) -> int:
    """How many compound statements a script statement opens (`BEGIN`, `IF ... THEN`,
    `WHILE ... DO`, `FOR ... DO`, `LOOP`, `REPEAT`, `CASE`) less the one its `END`
    closes: a procedure's body ends where the depth its `BEGIN` opened comes back to
    nought. `ELSE`, `ELSEIF` and `WHEN` continue a statement they do not open; a
    `DECLARE ... HANDLER FOR ...` opens what its statement (`BEGIN ...`) opens."""
    depth = 0
    rest = strip_leading_comments(text)
    while True:
        handler = _HANDLER.match(rest)
        if handler is not None:  # a handler opens what its own statement opens
            rest = strip_leading_comments(rest[handler.end() :])
        m = _OPENERS.match(rest)
        if not (m and m.end()):
            break
        word = _OPENER_WORD.match(m.group(0))
        if word is not None and word[1].upper() not in ("ELSE", "ELSEIF", "WHEN"):
            depth += 1
        rest = strip_leading_comments(rest[m.end() :])
    if _CASE.match(rest):
        depth += 1
    if _CLOSER.match(rest) or _UNTIL.match(rest):
        depth -= 1
    return depth
