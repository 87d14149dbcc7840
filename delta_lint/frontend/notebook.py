"""Notebooks: Databricks source files and Jupyter `.ipynb` become cells with their
original positions, so every intent points at the real line of the real file."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from delta_lint.frontend.pysource import still_open
from delta_lint.frontend.python import SqlCell

PY_HEADER = "# Databricks notebook source"
SQL_HEADER = "-- Databricks notebook source"
_SEPARATOR = re.compile(r"^\s*(#|--)\s*COMMAND\s*-+\s*$")
_MAGIC = re.compile(r"^(\s*(?:#|--)\s?MAGIC ?)(.*)$")
# `# DBTITLE 1,<title>` heads a cell exported with a title; it says nothing of its language
_TITLE = re.compile(r"^\s*(?:#|--)\s*DBTITLE\b")
# IPython line magics, shell escapes and automagics (`%pip install x`, `!ls`, a bare
# `pip install x`, which notebooks also run) are not Python syntax
_LINE_MAGIC = re.compile(r"^\s*(?:%|!(?!=)|(?:pip|conda)\s+(?:install|uninstall)\b)")


_TRIPLE_QUOTE = re.compile(r"""\"\"\"|'''|#""")


def _open_triple_quote(line: str, quote: str | None) -> str | None:
    """The triple quote a multi-line string is open with after `line` (None when
    none is): a `!` or `%` line inside a string (`!t.removed` in SQL) is text, not a
    shell escape or magic. A comment ends the scan of a line; one-line strings that
    hold a triple quote are not told apart (rare)."""
    for m in _TRIPLE_QUOTE.finditer(line):
        token = m.group(0)
        if quote is None and token == "#":
            break
        if quote is None:
            quote = token
        elif token == quote:
            quote = None
    return quote


# the cell magics of languages whose writes delta-lint does not read: said, not skipped silently
UNREAD_LANGUAGES = {"%scala": "Scala", "%r": "R", "%%scala": "Scala", "%%r": "R"}
# IPython cell magics (`%%name` as a Python cell's first line) whose body IPython
# runs as Python in the notebook's own namespace: timing, profiling, capturing output
_PYTHON_BODY_MAGICS = frozenset({"%%time", "%%timeit", "%%capture", "%%prun"})


def _ipython_cell_magic(word: str) -> str | None:
    """The language of a cell whose first line is the IPython cell magic `word`:
    "python" for the magics that run their body as Python, "sql" for `%%sql`, None
    for any other (`%%bash`, `%%writefile`, a library's `%%kepler`): its body is the
    magic's input, read by no runtime as Python, so it is said not read, never a
    syntax error of the notebook."""
    if word in _PYTHON_BODY_MAGICS or word in ("%%python", "%%py"):
        return "python"
    return "sql" if word == "%%sql" else None


def _python_cell_lines(cell: Cell, nb: Notebook) -> None:
    """A Python cell's lines as IPython runs them: a leading `%%name` cell magic
    decides how its body is read (see `_ipython_cell_magic`; an unread one is said
    in `nb.unread`), and line magics and shell escapes (`%pip install x`, `!ls`) are
    not Python (see `_magic_statement`). Databricks runs a `%python` cell of a SQL
    or Scala notebook, or a `# MAGIC %python` cell, through the same IPython kernel
    as a plain cell, so the same lines are not Python there either."""
    first = next((i for i, (_n, _c, t) in enumerate(cell.lines) if t.strip()), None)
    if first is not None and cell.lines[first][2].lstrip().startswith("%%"):
        n, col, text = cell.lines[first]
        word = text.split()[0].lower()
        lang = _ipython_cell_magic(word)
        if lang is None:
            nb.unread.append((n, col + len(text) - len(text.lstrip()) + 1, f"IPython `{word}`"))
            cell.lang, cell.lines = "other", []
            return
        cell.lang = lang
        cell.lines = [(n, col, ""), *cell.lines[first + 1 :]]
        if lang != "python":
            return
    quote: str | None = None
    depth = 0  # brackets open (see `still_open`)
    out = []
    for n, col, text in cell.lines:
        if quote is None and depth == 0 and _LINE_MAGIC.match(text):
            out.append((n, col, _magic_statement(text)))
            continue
        out.append((n, col, text))
        if quote is None:
            depth = still_open(text, depth)
        quote = _open_triple_quote(text, quote)
    cell.lines = out


# notebooks exported as source in a language delta-lint does not read: (comment, cell magic)
_FOREIGN_NOTEBOOKS = {".scala": ("//", "%scala"), ".r": ("#", "%r")}
# a native cell that may write a table (what it would lose unread); others hold nothing to check
_WRITE_WORDS = re.compile(r"saveAsTable|insertInto|toTable|\.save\(|\.(?:merge|delete|update)\(|\bsql\(|write_delta")


def as_python_notebook(text: str, suffix: str) -> str | None:
    """A Scala or R notebook exported as source, as the Python source notebook that
    holds the same cells on the same lines: its `%sql` and `%python` cells are read
    as in any notebook, and each cell of its own language that may write a table is
    a `%scala` / `%r` cell, said unread at its first line. None for a file that is not
    such a notebook (a plain Scala or R file stays skipped by kind)."""
    comment, magic = _FOREIGN_NOTEBOOKS.get(suffix, ("", ""))
    lines = text.split("\n")
    if not comment or lines[0].strip() != f"{comment} Databricks notebook source":
        return None
    out = ["# Databricks notebook source"]
    cell: list[str] = []

    def flush() -> None:
        nonblank = [line.strip() for line in cell if line.strip()]
        if nonblank and nonblank[0].startswith(f"{comment} MAGIC"):
            # the comment marker padded to its width: every cell line keeps its columns
            pad = "#".rjust(len(comment))
            out.extend(
                line.replace(comment, pad, 1) if line.strip().startswith(f"{comment} MAGIC") else "" for line in cell
            )
        elif nonblank and _WRITE_WORDS.search("\n".join(cell)):
            first = next(i for i, line in enumerate(cell) if line.strip())
            indent = len(cell[first]) - len(cell[first].lstrip())
            out.extend(" " * indent + magic if i == first else "" for i in range(len(cell)))
        else:
            out.extend("" for _ in cell)
        cell.clear()

    for line in lines[1:]:
        if line.strip() == f"{comment} COMMAND ----------":
            flush()
            out.append("# COMMAND ----------")
        else:
            cell.append(line)
    flush()
    return "\n".join(out)


@dataclass
class Cell:
    lang: str  # python | sql | other
    lines: list[tuple[int, int, str]] = field(default_factory=list)  # (file line, column offset, text)


@dataclass
class Notebook:
    cells: list[Cell]
    runs: list[tuple[int, int, str]] = field(default_factory=list)  # %run: line, col, target
    default_lang: str = "python"
    # widget values saved with a Databricks notebook: what its widgets read when run by hand
    widget_defaults: dict[str, str] = field(default_factory=dict)
    # cells in a language delta-lint does not read (`%scala`, `%r`): line, column, language
    unread: list[tuple[int, int, str]] = field(default_factory=list)

    def python_source(self, skip: frozenset[int] = frozenset()) -> tuple[str, dict[int, tuple[int, int]]]:
        """All Python cells as one module (cells share variables), plus a line map.
        Each cell is dedented as IPython does (`_cell_lines`); the cells numbered in
        `skip` (indexes into `cells`) are left blank, keeping the lines of the rest."""
        out: list[str] = []
        where: dict[int, tuple[int, int]] = {}
        for index, cell in enumerate(self.cells):
            if cell.lang != "python":
                continue
            for file_line, col, text in _cell_lines(cell):
                out.append("" if index in skip else text)
                where[len(out)] = (file_line, col)
            out.append("")  # cells end statements
        return "\n".join(out) + "\n", where

    def broken_python_cells(self) -> list[tuple[int, int, int, str]]:
        """The Python cells that do not parse on their own, as (cell index, file line,
        column, message). IPython compiles each cell by itself, so a cell that fails
        stops only itself: the notebook's other cells still run (and are read)."""
        from delta_lint.frontend.pysource import parse_module

        broken = []
        for index, cell in enumerate(self.cells):
            if cell.lang != "python":
                continue
            lines = _cell_lines(cell)
            try:
                parse_module("\n".join(text for _line, _col, text in lines) + "\n")
            except SyntaxError as err:
                at = min(max((err.lineno or 1) - 1, 0), len(lines) - 1) if lines else 0
                file_line, col = (lines[at][0], lines[at][1]) if lines else (1, 0)
                broken.append((index, file_line, col + max((err.offset or 1) - 1, 0), err.msg))
            except (ValueError, RecursionError, MemoryError) as err:
                file_line = lines[0][0] if lines else 1
                broken.append((index, file_line, 0, str(err)))
        return broken

    def sql_cells(self, python_where: dict[int, tuple[int, int]]) -> list[SqlCell]:
        """SQL cells, positioned in the virtual Python source so they run in order."""
        result = []
        file_to_virtual = {}
        for vline, (fline, _c) in sorted(python_where.items()):
            file_to_virtual.setdefault(fline, vline)
        for cell in self.cells:
            if cell.lang != "sql" or not cell.lines:
                continue
            first_file_line = cell.lines[0][0]
            # the first Python line after the cell marks its place in document order
            later = [v for f, v in file_to_virtual.items() if f > first_file_line]
            position = min(later) - 0.5 if later else float("inf")
            positions = {i + 1: (fl, col) for i, (fl, col, _t) in enumerate(cell.lines)}
            last = positions[len(cell.lines)]  # once: at each call it was a scan of every line

            def line_map(line: int, col: int, positions=positions, last=last) -> tuple[int, int]:
                fline, offset = positions.get(line, last)
                return fline, col + offset

            result.append(SqlCell(position, "\n".join(t for _l, _c, t in cell.lines), line_map))
        return result


# The magics that set a cell's language (or run a notebook) from its first line.
_CELL_MAGICS = frozenset({"%sql", "%python", "%py", "%md", "%md-sandbox", "%sh", "%scala", "%r", "%fs", "%run"})


def _cell_magic(first: str) -> str | None:
    """The language magic a Python cell's first non-blank line is, if any."""
    word = first.strip().split(None, 1)[0].lower() if first.strip() else ""
    return word if word in _CELL_MAGICS else None


_LEADING_INDENT = re.compile(r"^[ \t]+")


def _cell_lines(cell: Cell) -> list[tuple[int, int, str]]:
    """A Python cell's lines as IPython compiles them: when its first non-blank line
    is indented, that indentation is taken off every line that starts with it
    (IPython's `leading_indent` clean-up, which Databricks' IPython kernel applies),
    the column offsets moved to match."""
    first = next((text for _line, _col, text in cell.lines if text.strip()), "")
    m = _LEADING_INDENT.match(first)
    if m is None:
        return cell.lines
    space = m.group(0)
    n = len(space)
    return [
        (line, col + n, text[n:]) if text.startswith(space) else (line, col, text) for line, col, text in cell.lines
    ]


def is_databricks_source(text: str) -> bool:
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    return first in (PY_HEADER, SQL_HEADER)


def parse_databricks_source(text: str) -> Notebook:
    """Split `# COMMAND ----------` cells; `# MAGIC %sql` cells are SQL, `-- MAGIC %python` Python."""
    lines = text.split("\n")
    default = "sql" if lines and lines[0].lstrip("\ufeff").strip() == SQL_HEADER else "python"
    raw_cells: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(lines[1:], start=2):
        if _SEPARATOR.match(line):
            raw_cells.append([])
        else:
            raw_cells[-1].append((number, line.rstrip("\r")))
    nb = Notebook([], default_lang=default)
    for raw in raw_cells:
        raw = [(n, "" if _TITLE.match(t) else t) for n, t in raw]
        nonblank = [t for _n, t in raw if t.strip()]
        if nonblank and all(_MAGIC.match(t) for t in nonblank):
            cell = Cell("other")
            first = True
            for n, t in raw:
                m = _MAGIC.match(t)
                if m is None:
                    continue
                prefix, content = m.group(1), m.group(2)
                if first and content.strip():
                    first = False
                    word = content.strip().split()[0].lower()
                    if word in ("%sql", "%python", "%py"):
                        cell.lang = "sql" if word == "%sql" else "python"
                        rest = content.strip()[len(word) :]
                        if rest.strip():
                            cell.lines.append((n, len(prefix) + content.index(rest), rest))
                        continue
                    if word == "%run":
                        nb.runs.append((n, len(prefix) + 1, content.strip()[4:].strip()))
                        continue
                    if word in UNREAD_LANGUAGES:
                        nb.unread.append((n, len(prefix) + 1, UNREAD_LANGUAGES[word]))
                    cell.lang = "other"
                if cell.lang != "other":
                    cell.lines.append((n, len(prefix), content))
            if cell.lang == "python":
                _python_cell_lines(cell, nb)
            nb.cells.append(cell)
        elif default == "python" and nonblank and (word := _cell_magic(nonblank[0])):
            # `%sql` typed as a cell's first line without `# MAGIC ` (a notebook edited
            # as a file): Databricks takes the cell's language from its first line
            cell = Cell("sql" if word == "%sql" else "python" if word in ("%python", "%py") else "other")
            if word in UNREAD_LANGUAGES:
                n, t = next((n, t) for n, t in raw if t.strip())
                nb.unread.append((n, len(t) - len(t.lstrip()) + 1, UNREAD_LANGUAGES[word]))
            started = False
            for n, t in raw:
                if not started and t.strip():
                    started = True
                    rest = t.strip()[len(word) :]
                    if word == "%run":
                        nb.runs.append((n, t.index("%") + 1, rest.strip()))
                    elif rest.strip() and cell.lang != "other":
                        cell.lines.append((n, t.index(rest), rest))
                elif started and cell.lang != "other":
                    cell.lines.append((n, 0, t))
            if cell.lang == "python":
                _python_cell_lines(cell, nb)
            nb.cells.append(cell)
        else:
            cell = Cell(default)
            quote: str | None = None
            depth = 0  # brackets open (see `still_open`)
            for n, t in raw:
                if default == "python" and quote is None and depth == 0 and (_MAGIC.match(t) or _LINE_MAGIC.match(t)):
                    cell.lines.append((n, 0, "" if _MAGIC.match(t) else _magic_statement(t)))
                else:
                    cell.lines.append((n, 0, t))
                    if default == "python" and quote is None:
                        depth = still_open(t, depth)
                quote = _open_triple_quote(t, quote) if default == "python" else None
            nb.cells.append(cell)
    return nb


def _magic_statement(line: str) -> str:
    """What a line magic or shell escape stands for in the Python read: nothing at
    the start of a line; `pass` at its indentation when it is indented, as IPython
    runs `    %pip install x` inside an `if` block as a statement of that block (a
    blank line there would leave the block empty: a syntax error, and the cell's
    writes lost)."""
    indent = line[: len(line) - len(line.lstrip())]
    return indent + "pass" if indent else ""


def _meta_text(meta: dict, section: str, key: str) -> str | None:
    """`meta[section][key]` when it is text; notebook metadata of any other shape
    (`"language_info": "x"`) says nothing about the language."""
    value = meta.get(section)
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def ipynb_as_source(text: str) -> tuple[str, str] | None:
    """A Jupyter notebook as the plain source a reader of `.sql` or `.py` files
    takes: the cells of the notebook's own language (SQL for a SQL notebook, else
    Python), each line at its line of the `.ipynb` file (a SQL line also at its
    column), the rest blank; where lines share a line of the file (a notebook
    written on one line), each its own line in order from the first; with the
    suffix that language reads by. None when the
    text is not a notebook. A pipeline's source kept as a Jupyter notebook is read
    so, as its `.sql`/`.py` export would be."""
    try:
        nb = parse_ipynb(text)
    except ValueError:
        return None
    lang = "sql" if nb.default_lang == "sql" else "python"
    suffix = ".sql" if lang == "sql" else ".py"
    kept = [(line, col, code) for cell in nb.cells if cell.lang == lang for line, col, code in cell.lines]
    if not kept:
        return "", suffix
    if len({line for line, _, _ in kept}) < len(kept):
        # lines that share a line of the file (a notebook written on one line, a cell's
        # source one string): each line of code its own line, in order, from the first
        first = kept[0][0]
        return "\n" * (first - 1) + "\n".join(code for _, _, code in kept) + "\n", suffix
    lines = {line: (" " * max(col - 1, 0) + code) if lang == "sql" else code for line, col, code in kept}
    return "\n".join(lines.get(n, "") for n in range(1, max(lines) + 1)) + "\n", suffix


def parse_ipynb(text: str) -> Notebook:
    """Code cells of a Jupyter notebook; `%sql` / `%%sql` cells are SQL.

    Positions are lines of the `.ipynb` file itself: each source line is found in
    the raw JSON (one string per line in notebooks as Jupyter writes them).
    """
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise ValueError("not a Jupyter notebook: no `cells` list")
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    lang = str(
        _meta_text(meta, "language_info", "name")
        or _meta_text(meta, "kernelspec", "language")
        or _meta_text(meta, "application/vnd.databricks.v1+notebook", "language")
        or "python"
    ).lower()
    default = "sql" if lang == "sql" else "python" if lang == "python" else "other"
    nb = Notebook([], default_lang=default, widget_defaults=_saved_widgets(meta))
    cursor = 0
    last_line = 1
    counted, line_start = 0, 0  # newlines are counted once up to `counted` (positions only grow)
    for raw in data["cells"]:
        if not isinstance(raw, dict) or raw.get("cell_type") != "code":
            continue
        source = raw.get("source", "")
        if isinstance(source, str):
            source_lines = source.splitlines(keepends=True)
        elif isinstance(source, list) and all(isinstance(s, str) for s in source):
            source_lines = "".join(source).splitlines(keepends=True)
        else:
            continue
        positions = []
        for s in source_lines:
            pos, cursor = _find(text, s, cursor)
            if pos is not None:
                if pos < counted:  # never expected; stay right rather than fast
                    counted, last_line, line_start = 0, 1, 0
                newlines = text.count("\n", counted, pos)
                if newlines:
                    last_line += newlines
                    line_start = text.rfind("\n", counted, pos) + 1
                counted = pos
                col = pos - line_start + 2  # past the opening quote
                positions.append((last_line, col - 1))
            else:
                positions.append((last_line, 0))
        # a NUL in a cell (`"# \u0000"` in the JSON) would make the whole notebook
        # unparseable Python: read it as a space, as NULs in plain files are
        stripped = [s.rstrip("\r\n").replace("\0", " ") for s in source_lines]
        cell_lang = default
        first_code = next((i for i, s in enumerate(stripped) if s.strip()), None)
        start = 0
        first_line: Cell | None = None
        if first_code is not None:
            head = stripped[first_code].strip()
            word = head.split()[0].lower()
            if word in ("%sql", "%%sql", "%python", "%%python", "%py") or word in _PYTHON_BODY_MAGICS:
                cell_lang, start = "sql" if word.endswith("sql") else "python", first_code + 1
                rest = stripped[first_code].lstrip()[len(word) :]
                if (
                    rest.strip() and word not in _PYTHON_BODY_MAGICS
                ):  # `%sql TRUNCATE TABLE t`: the statement starts on the magic's line
                    line, col = positions[first_code]
                    offset = len(stripped[first_code]) - len(rest)
                    first_line = Cell(cell_lang, [(line, col + offset, rest)])
            elif word == "%run":
                line, col = positions[first_code]
                nb.runs.append((line, col + 1, head[4:].strip()))
                continue
            elif word.startswith("%") and word not in ("%sql", "%python"):
                if word.startswith("%%") or word in ("%md", "%sh", "%fs", "%scala", "%r", "%pip"):
                    if word in UNREAD_LANGUAGES:
                        line, col = positions[first_code]
                        nb.unread.append(
                            (line, col + len(stripped[first_code]) - len(head) + 1, UNREAD_LANGUAGES[word])
                        )
                    continue
        cell = Cell(cell_lang, list(first_line.lines) if first_line else [])
        quote = None
        depth = 0  # brackets open (see `still_open`)
        for i in range(start, len(stripped)):
            line, col = positions[i]
            content = stripped[i]
            if cell_lang == "python" and quote is None and depth == 0 and _LINE_MAGIC.match(content):
                content = _magic_statement(content)
            elif cell_lang == "python":
                if quote is None:
                    depth = still_open(content, depth)
                quote = _open_triple_quote(content, quote)
            cell.lines.append((line, col, content))
        nb.cells.append(cell)
    return nb


def _saved_widgets(meta: dict) -> dict[str, str]:
    """`metadata["application/vnd.databricks.v1+notebook"]["widgets"]`: each widget's
    default value as the notebook was saved (an empty default binds nothing)."""
    databricks = meta.get("application/vnd.databricks.v1+notebook")
    widgets = databricks.get("widgets") if isinstance(databricks, dict) else None
    out = {}
    for name, widget in (widgets or {}).items() if isinstance(widgets, dict) else ():
        info = widget.get("widgetInfo") if isinstance(widget, dict) else None
        value = info.get("defaultValue") if isinstance(info, dict) else None
        if isinstance(name, str) and isinstance(value, str) and value.strip() and "{" not in value:
            out[name] = value.strip()
    return out


def _find(text: str, line: str, start: int) -> tuple[int | None, int]:
    for encoded in (json.dumps(line, ensure_ascii=False), json.dumps(line)):
        idx = text.find(encoded, start)
        if idx >= 0:
            return idx, idx + len(encoded)
    return None, start
