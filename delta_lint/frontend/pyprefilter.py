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

from delta_lint.frontend.pyspark_api import TERMINALS
from delta_lint.frontend.warehouse import SQL_OPERATORS

# see `Walker.notebook_run`, `notebook_exit`, `task_value_set`, `module_call`,
# `WriterReader.feature_table`, `warehouse.operator_statements`
_EXTRA_WORDS = {"notebook", "taskValues", "create_table", "write_table", "import_module", *SQL_OPERATORS}
_TERMINAL_WORD = re.compile(r"\b(?:" + "|".join(sorted(TERMINALS | _EXTRA_WORDS)) + r")\b")
_NEWLINE = re.compile(r"\n")


class TerminalLines:
    """The sorted lines of one source that hold a word of a call of interest.

    `lines` is None until `scan` (and again after `renew`, once new words were
    found): the analyzer scans then, with the words it knows at that time."""

    def __init__(self) -> None:
        self.lines: list[int] | None = None
        # (the source scanned, the words scanned for, its lines' starts, the lines found)
        self._scanned: tuple[str | None, set[str], list[int], list[int]] = (None, set(), [], [])

    def renew(self) -> None:
        """New words of calls of interest were found (a round of helpers, the
        session's SQL functions): the next question scans the text for them."""
        self.lines = None

    def scan(self, source: str, extra: set[str]) -> list[int]:
        """The lines of `source` that hold a word of `TERMINALS`, of the walker's
        calls or of `extra` (the file's helpers, session SQL functions and client
        methods found so far). Those words only grow while a file is read (each
        round of the analyzer's helper search adds names), so a new round scans
        the text for the new words alone: a file given hundreds of helpers is not
        scanned again for every word at each round."""
        if self._scanned[0] is not source:  # (the foreign helpers' definitions grew it)
            self._scanned = (source, set(), [m.start() for m in _NEWLINE.finditer(source)], [])
        _, scanned, starts, lines = self._scanned
        new = (TERMINALS | _EXTRA_WORDS | extra) - scanned
        if new:
            if scanned or extra:
                words = re.compile(r"\b(?:" + "|".join(sorted(re.escape(w) for w in new)) + r")\b")
            else:
                words = _TERMINAL_WORD
            found = [bisect_left(starts, m.start()) + 1 for m in words.finditer(source)]
            lines = sorted(set(lines).union(found)) if lines else found
            self._scanned = (source, scanned | new, starts, lines)
        self.lines = lines
        return lines

    def holds(self, node: ast.expr | ast.stmt) -> bool:
        """Whether one of the lines `node` spans is among those `scan` found."""
        lines = self.lines or []
        first = node.lineno
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= (node.end_lineno or first)
