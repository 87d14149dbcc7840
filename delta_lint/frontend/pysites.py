"""Where a piece of Python code stands: the lines, columns and text a finding shows.

The Python front end reads a file's source, and sometimes more: other files'
helpers are pasted after its last line so that a call can be read with its
arguments (see `python.PythonAnalyzer`). `ast` numbers the lines of that text and
counts columns in UTF-8 bytes, while a finding names the file's own line (a
notebook's cells are mapped back to it), counts characters, quotes the statement,
and, for a statement of a pasted helper, names the helper's own file. A
`SourceSites` answers those questions for one source; it only reads the text.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable

from delta_lint.model import Location

LineMap = Callable[[int, int], tuple[int, int]]

# characters `str.splitlines` ends a line at but Python does not (see `one_line_source`)
_OTHER_LINE_ENDS = "\x0b\x0c\x1c\x1d\x1e"


class SourceSites:
    """Locations and excerpts of one analysed source (`path` as findings show it).

    `own_lines`: how many of its lines are the file's own; `foreign_spans`: where
    each pasted definition stands here and in its own file (first line, last line,
    its file's path relative to this file's folder, the line there, the column
    shift there)."""

    def __init__(
        self,
        path: str,
        source: str,
        line_map: LineMap | None = None,
        own_lines: int | None = None,
        foreign_spans: list[tuple[int, int, str, int, int]] | None = None,
    ) -> None:
        self.path = path
        self.source = source
        self.line_map = line_map
        self.own_lines = own_lines if own_lines is not None else source.count("\n") + 1
        self.foreign_spans = foreign_spans or []
        self._lines: list[str] | None = None
        self._plain: bool | None = None  # see `one_line_source`

    def statement_site(self, node: ast.AST) -> Location | None:
        """Where a statement stands in its own file: here, or in the file a foreign
        helper comes from (None when that is not known)."""
        line = getattr(node, "lineno", None)
        if line is None:
            return None
        if line <= self.own_lines:
            return self.loc(node)
        for first, last, module, start, shift in self.foreign_spans:
            if first <= line <= last:
                path = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), module))
                column = self.char_offset(line, node.col_offset) + 1  # type: ignore[attr-defined]
                return Location(path, start + line - first, column + shift)
        return None

    def start(self, node: ast.AST) -> tuple[int, int]:
        """Where a definition starts in the file (its first line, as `segment` cuts
        it), and the columns its text is shifted by there (a notebook cell's prefix)."""
        col = self.char_offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        line, column = self.pos(node.lineno, col)  # type: ignore[attr-defined]
        return line, column - 1 - col

    def loc(self, node: ast.AST) -> Location:
        """The node's location as a finding shows it."""
        line, col = self.pos(node.lineno, self.char_offset(node.lineno, node.col_offset))  # type: ignore[attr-defined]
        return Location(self.path, line, col)

    def lines(self) -> list[str]:
        """The source's lines as `ast` numbers them: the front end hands it text whose
        line ends are all `\n`, and `str.splitlines` would also split at form feeds
        and other separators that are no line end to Python."""
        if self._lines is None:
            self._lines = self.source.split("\n")
        return self._lines

    def char_offset(self, line: int, byte_offset: int) -> int:
        """`ast` column offsets count UTF-8 bytes; columns shown and slices count characters."""
        lines = self.lines()
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))

    def pos(self, line: int, col0: int) -> tuple[int, int]:
        """(line, 1-based column) in the file of a 0-based character column here."""
        if self.line_map is not None:
            return self.line_map(line, col0 + 1)
        return line, col0 + 1

    def one_line_source(self, node: ast.AST) -> str | None:
        """The node's source text when it sits on one line of a plain ASCII file (where
        `ast` offsets, UTF-8 bytes, are string indices, and only \\r and \\n end
        lines), else None: slicing costs far less than `ast.unparse`."""
        if self._plain is None:
            self._plain = self.source.isascii() and not any(c in self.source for c in _OTHER_LINE_ENDS)
        line, end_line = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0)
        if not self._plain or not line or line != end_line:
            return None
        lines = self.lines()
        if line > len(lines):
            return None
        return lines[line - 1][node.col_offset : node.end_col_offset]  # type: ignore[attr-defined]

    def decorator_lines(self, node: ast.ClassDef) -> list[str]:
        """The lines of a definition's decorators (which its `segment` leaves out),
        cut at the column its first line starts."""
        if not node.decorator_list:
            return []
        first = min(d.lineno for d in node.decorator_list) - 1
        lines = self.lines()[first : node.lineno - 1]
        return [line[self.char_offset(first + 1 + n, node.col_offset) :] for n, line in enumerate(lines)]

    def segment(self, node: ast.AST) -> str:
        """The node's exact source text, as `ast.get_source_segment` gives it, from the
        lines already split (that function splits the whole source again per call);
        empty for a node without positions."""
        source_lines = self.lines()
        start, end = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0)
        if not start or not end or end > len(source_lines):
            return ""
        lines = source_lines[start - 1 : end]
        end_col = getattr(node, "end_col_offset", None)
        if end_col is not None:
            lines[-1] = lines[-1][: self.char_offset(end, end_col)]
        lines[0] = lines[0][self.char_offset(start, getattr(node, "col_offset", 0)) :]
        return "\n".join(lines)

    def excerpt(self, node: ast.AST) -> str:
        """The node's source text, whitespace-collapsed and cut at 160 characters
        (sliced from the source: `ast.unparse` costs a tenth of the front end)."""
        text = " ".join(self.segment(node).split())
        return text if len(text) <= 160 else text[:157] + "..."
