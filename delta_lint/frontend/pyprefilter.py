"""Which lines of a Python source name a call of interest: the analyzer's prefilter.

Most expressions of a job write nothing. Before the analyzer (`python.PythonAnalyzer`)
walks an expression for the calls it reads, it asks whether any of the expression's
lines holds a word of such a call: a write's or statement's name (`TERMINALS`), a
name the walker reads a call of (`dbutils.notebook.run`, task values, a feature
table, an Airflow SQL operator), or the names found while the file is read (its
helpers, the session's SQL functions, a warehouse client's methods). One scan of
the text answers for every expression.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Iterable

from delta_lint.frontend.pyspark_api import TERMINALS
from delta_lint.frontend.warehouse import SQL_OPERATORS
from delta_lint.words import word_lines

# see `Walker.notebook_run`, `notebook_exit`, `task_value_set`, `module_call`,
# `WriterReader.feature_table`, `warehouse.operator_statements`
_EXTRA_WORDS = {"notebook", "taskValues", "create_table", "write_table", "import_module", *SQL_OPERATORS}
_BASE_WORDS = frozenset(TERMINALS | _EXTRA_WORDS)
_BASE_BYTES = frozenset(w.encode("ascii") for w in _BASE_WORDS)  # (`words.word_lines`)


def _words_pattern(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern of `words`, whole. The class of every word's first letter leads it,
    so the engine skips to the places one may start instead of trying each position
    (half the scan's time)."""
    words = sorted(words)
    firsts = "".join(sorted({w[0] for w in words}))
    return re.compile("(?=[" + re.escape(firsts) + r"])\b(?:" + "|".join(map(re.escape, words)) + r")\b")


_TERMINAL_WORD = _words_pattern(_BASE_WORDS)


def identifier_text(source: str) -> str:
    """`source` as Python reads its identifiers: NFKC-normalised (PEP 3131), so
    `ｓａｖｅＡｓＴａｂｌｅ` is searched as `saveAsTable`. No character normalises to
    one holding a newline, so every line keeps its number; ASCII text is itself.
    Text outside identifiers (strings, comments) is normalised too: a word found
    there only makes the prefilter read an expression it could have skipped."""
    if source.isascii():
        return source
    import unicodedata

    return unicodedata.normalize("NFKC", source)


class TerminalLines:
    """The sorted lines of one source that hold a word of a call of interest.

    `lines` is None until `scan` (and again after `renew`, once new words were
    found): the analyzer scans then, with the words it knows at that time.

    The words every file is scanned for are one pattern, compiled once. A file's
    own words (its helpers, its SQL functions, its client methods) are found by a
    plain search of the text for each (`_starts_of`): building and compiling a
    pattern of them per file cost more than the search."""

    def __init__(self) -> None:
        self.lines: list[int] | None = None
        self._source: str | None = None
        self._text = ""  # `_source` as its identifiers read (`identifier_text`)
        self._scanned: set[str] = set()  # the words of `extra` looked for so far
        self._found: list[int] = []

    def renew(self) -> None:
        """New words of calls of interest were found (a round of helpers, the
        session's SQL functions): the next question scans the text for them."""
        self.lines = None

    def scan(self, source: str, extra: set[str] | frozenset[str]) -> list[int]:
        """The lines of `source` that hold a word of `TERMINALS`, of the walker's
        calls or of `extra` (the file's helpers, session SQL functions and client
        methods found so far). Those words only grow while a file is read (each
        round of the analyzer's helper search adds names), so a new round looks
        for the new words alone: a file given hundreds of helpers is not
        scanned again for every word at each round."""
        if self._source is not source:  # (the foreign helpers' definitions grew it)
            self._source, self._scanned = source, set()
            self._text = identifier_text(source)
            # one sweep of an ASCII text's words (`words`); the pattern for any other
            found = word_lines(self._text, _BASE_BYTES)
            if found is None:
                found = _lines_at(self._text, [m.start() for m in _TERMINAL_WORD.finditer(self._text)])
            self._found = found
        text = self._text
        new = [w for w in extra if w not in self._scanned and w not in _BASE_WORDS]
        if new:
            self._scanned.update(new)
            found = _lines_at(text, sorted({i for w in new for i in _starts_of(text, w)}))
            if found:
                self._found = sorted(set(self._found).union(found))
        self.lines = self._found
        return self._found

    def holds(self, node: ast.expr | ast.stmt) -> bool:
        """Whether one of the lines `node` spans is among those `scan` found."""
        lines = self.lines or []
        first = node.lineno
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= (node.end_lineno or first)


def _lines_at(source: str, starts: list[int]) -> list[int]:
    """The sorted lines (1-based, each once) of the ascending offsets `starts`,
    counting the newlines since the one before: a list of every line's start was
    most of the scan's time for files with few such words."""
    out: list[int] = []
    line, last = 1, 0
    for start in starts:
        line += source.count("\n", last, start)
        last = start
        if not out or out[-1] != line:
            out.append(line)
    return out


def _starts_of(source: str, word: str) -> list[int]:
    """Where `word` stands in `source` with a word boundary (`\\b`) on both sides,
    as a pattern `\\bword\\b` finds it: the characters either side of it are
    not both word characters or both not (the text's ends count as not)."""
    if not word:
        return []
    first, last = _is_word(word[0]), _is_word(word[-1])
    out: list[int] = []
    size, end = len(word), len(source)
    i = source.find(word)
    while i >= 0:
        j = i + size
        before = i > 0 and _is_word(source[i - 1])
        after = j < end and _is_word(source[j])
        if before != first and after != last:
            out.append(i)
        i = source.find(word, i + 1)
    return out


def _is_word(char: str) -> bool:
    """A character `\\w` matches in a text pattern: a letter, a digit or `_`."""
    return char.isalnum() or char == "_"
