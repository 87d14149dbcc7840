"""Regular expressions of the checked code, run on RE2 with Python's meaning.

`re.match(pattern, s)` and friends, and the methods of `re.compile(...)`, as
`evaluator` reads them: a pattern the code chooses is never run on Python's
backtracking engine (`(a|a?){30}b` takes exponential time there); RE2 matches in
time linear in the subject. A pattern RE2 refuses, or may read otherwise, gives an
unknown value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import re2

from delta_lint.frontend.values.budget import check_text
from delta_lint.frontend.values.lattice import UNKNOWN, NoValue

MAX_PATTERN = 512  # longest regular expression evaluated


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Patterns taken from the checked code run on RE2, which matches in time linear in
# the subject: Python's backtracking `re` can take exponential time (`(a|a?){30}b`).
# Where RE2 and Python's `re` could differ the value is unknown: a pattern RE2 refuses
# (backreferences, lookaround, possessive repeats), Python syntax RE2 reads otherwise
# (`{,n}`, `[[:alpha:]]`), flags other than IGNORECASE, MULTILINE and DOTALL, text
# outside printable ASCII (`\w`, `\s` and case folding are Unicode in Python), `$`
# over text holding a newline, and an empty match in `sub`, `findall` or `split`
# (where the two step on differently). Python's own `re` only compiles a pattern
# (which does not match anything): its refusals are Python's, so the code raises.
MAX_REGEX_SUBJECT = 256
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_INLINE_FLAGS = ((int(re.IGNORECASE), "i"), (int(re.MULTILINE), "m"), (int(re.DOTALL), "s"))
_KNOWN_FLAGS = int(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.UNICODE)
_TEMPLATE_GROUP = re.compile(r"\\(?:g<(\w+)>|([1-9][0-9]?))")


def _plain_text(text: str) -> bool:
    return all(" " <= c <= "~" or c in "\t\n\r" for c in text)


@dataclass(frozen=True)
class Pattern:
    """`re.compile(pattern, flags)`: its methods run on RE2 as `re`'s functions do."""

    pattern: str
    flags: int


class Matched:
    """A match as `re` gives it (`group`, `groups`, `groupdict`, `m[k]`), read from
    RE2's spans."""

    def __init__(self, text: str, spans: list[tuple[int, int]], names: dict[str, int]) -> None:
        self._text = text
        self._spans = spans
        self._names = names

    def _one(self, key: object) -> str | None:
        if isinstance(key, str) and key in self._names:
            key = self._names[key]
        if not _integer(key) or not 0 <= key < len(self._spans):  # type: ignore[operator]
            raise IndexError("no such group")
        start, end = self._spans[key]  # type: ignore[index]
        return None if start < 0 else self._text[start:end]

    def group(self, *keys: object) -> object:
        if len(keys) <= 1:
            return self._one(keys[0] if keys else 0)
        return tuple(self._one(k) for k in keys)

    def __getitem__(self, key: object) -> str | None:
        return self._one(key)

    def groups(self, default: object = None) -> tuple:
        return tuple(default if v is None else v for v in (self._one(i) for i in range(1, len(self._spans))))

    def groupdict(self, default: object = None) -> dict:
        return {name: default if (v := self._one(i)) is None else v for name, i in self._names.items()}


def _compiled(pattern: str, flags: int):
    """The RE2 program of a pattern with Python's meaning; None where the two could
    differ (see above); NoValue where Python refuses the pattern."""
    if len(pattern) > MAX_PATTERN or flags & ~_KNOWN_FLAGS or not _plain_text(pattern):
        return None
    if "{," in pattern or "[:" in pattern or "\\Z" in pattern:
        return None
    try:
        python = re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError) as err:
        raise NoValue from err
    inline = "".join(letter for flag, letter in _INLINE_FLAGS if flags & flag)
    try:
        program = re2.compile(f"(?{inline}){pattern}" if inline else pattern, _RE2_OPTIONS)
    except re2.error:
        return None
    if program.groups != python.groups or program.groupindex != dict(python.groupindex):
        return None
    return program


def _matched(program, found, text: str) -> Matched | None:
    if found is None:
        return None
    return Matched(text, [found.span(i) for i in range(program.groups + 1)], dict(program.groupindex))


def _template(repl: str, program) -> list[object] | None:
    """A `sub` replacement as literal parts and group numbers; None for escapes other
    than group references (`\n`, octal), NoValue for a group the pattern lacks."""
    parts: list[object] = []
    last = 0
    for ref in _TEMPLATE_GROUP.finditer(repl):
        parts.append(repl[last : ref.start()])
        key = ref.group(1) or ref.group(2)
        number = int(key) if key.isdigit() else program.groupindex.get(key)
        if number is None or number > program.groups:
            raise NoValue  # an invalid group reference: re.error
        parts.append(number)
        last = ref.end()
    parts.append(repl[last:])
    if any(isinstance(p, str) and "\\" in p for p in parts) or re.search(r"\\[0-7]{3}", repl):
        return None
    return parts


def regex_call(name: str, args: list[object], kwargs: dict[str, object]) -> object:
    """`re.<name>(...)` on RE2 (see above): compile, match, fullmatch, search, sub,
    findall, split."""
    if name == "compile" and len(args) == 2 and "flags" not in kwargs:
        args, kwargs = args[:1], {**kwargs, "flags": args[1]}
    flags = kwargs.get("flags", 0)
    if not args or not isinstance(args[0], str) or not _integer(flags):
        return UNKNOWN
    extra = {"sub": "count", "split": "maxsplit"}.get(name)
    if set(kwargs) - {"flags", extra}:
        return UNKNOWN
    wanted = {"compile": 1, "sub": 3}.get(name, 2)
    if len(args) != wanted:
        return UNKNOWN
    program = _compiled(args[0], flags)  # type: ignore[arg-type]
    if program is None:
        return UNKNOWN
    if name == "compile":
        return Pattern(args[0], flags)  # type: ignore[arg-type]
    subject = args[-1]
    if not isinstance(subject, str) or len(subject) > MAX_REGEX_SUBJECT or not _plain_text(subject):
        return UNKNOWN
    if "$" in args[0] and "\n" in subject and not flags & re.MULTILINE:  # type: ignore[operator]
        return UNKNOWN  # Python's `$` also matches before a final newline
    if name in ("match", "fullmatch", "search"):
        return _matched(program, getattr(program, name)(subject), subject)
    limit = kwargs.get(extra, 0) if extra else 0
    if not _integer(limit) or limit < 0:  # type: ignore[operator]
        return UNKNOWN
    template = None
    if name == "sub":
        if not isinstance(args[1], str) or not _plain_text(args[1]):
            return UNKNOWN
        template = _template(args[1], program)
        if template is None:
            return UNKNOWN
    found = []
    for each in program.finditer(subject):
        if each.start() == each.end():
            return UNKNOWN  # an empty match: RE2 and Python step on differently
        found.append(_matched(program, each, subject))
        if limit and len(found) == limit:
            break
    if name == "findall":
        if program.groups == 0:
            return [m.group() for m in found]  # type: ignore[union-attr]
        if program.groups == 1:
            return [m.group(1) or "" for m in found]  # type: ignore[union-attr]
        return [m.groups("") for m in found]  # type: ignore[union-attr]
    out: list[object] = []
    last = 0
    for m in found:
        start, end = m._spans[0]  # type: ignore[union-attr]
        out.append(subject[last:start])
        if name == "split":
            out.extend(m.groups())  # type: ignore[union-attr]
        else:
            out.extend(p if isinstance(p, str) else m[p] or "" for p in template)  # type: ignore[union-attr,index]
        last = end
    out.append(subject[last:])
    if name == "split":
        return out
    check_text(sum(len(p) for p in out))  # type: ignore[arg-type]
    return "".join(out)  # type: ignore[arg-type]
