"""Other files' helpers pasted after a Python file's own code, to be read at its calls.

A function of an imported module or of a `%run` notebook that may write is read
where this file calls it, with the arguments it is given here (see
`values.walker`). Its definition comes from the other file's summary
(`Context.helpers`), as text; the analyzer (`python.PythonAnalyzer`) parses the
file's own source and those definitions as one module, so every name, line and
node of a helper is a node of the one tree it walks. `paste_helpers` makes that
text and says where each definition stands in it, which `pysites.SourceSites`
needs to report a pasted statement in its own file.
"""

from __future__ import annotations

import ast
from collections.abc import Container
from dataclasses import dataclass

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.values.sources import one_definition


@dataclass
class Pasted:
    """A file's source with the helpers' definitions after its own code.

    `own_lines`: how many of its lines are the file's own (the definitions start
    after them); `spans`: where each definition whose home is known stands here and
    in its own file (see `SourceSites`); `homes`: (first line, last line, module) of
    each definition of a module whose scope is given (`Context.scopes`), whose names
    it resolves in that module; `definitions`: the name each definition is called by
    here -> its statement in `tree`."""

    source: str
    tree: ast.Module
    own_lines: int
    spans: list[tuple[int, int, str, int, int]]
    homes: list[tuple[int, int, str]]
    definitions: dict[str, ast.stmt]


def paste_helpers(
    source: str,
    helpers: tuple[tuple[str, str, str, tuple[str, int, int] | tuple[()]], ...],
    scoped: Container[str],
    memo: FrontEndMemo,
) -> Pasted | None:
    """The file's source and tree with the helpers' definitions (`Context.helpers`)
    after its own code; None (the file alone) when there are none or they do not
    parse with it. `scoped`: the modules whose scope is given; `memo`: the run's,
    which keeps whether a definition's text parses alone."""
    if not helpers:
        return None
    parts = [source.rstrip("\n") + "\n"]
    spans = []
    homes = []
    firsts: dict[int, list[str]] = {}  # first line of each pasted definition -> its names here
    pasted: dict[tuple[str, str, object], int] = {}  # (module, source, start) -> its first line
    lines = parts[0].count("\n")
    definitions = memo.definitions
    for bound, module, text, start in helpers:
        # one definition that several modules import (each module's `path::name`
        # for it) is pasted once and called by each of those names
        first = pasted.get((module, text, start))
        if first is not None:
            firsts[first].append(bound)
            continue
        if text not in definitions:  # a summary's source is checked once a run, not once per file given it
            definitions[text] = one_definition(text)
        if definitions[text]:
            part = "\n" + text.rstrip("\n") + "\n"
            parts.append(part)
            first, last = lines + 2, lines + part.count("\n")  # its first line follows the blank one
            firsts[first] = [bound]
            pasted[(module, text, start)] = first
            if start:
                spans.append((first, last, *start))
            if module in scoped:
                homes.append((first, last, module))
            lines += part.count("\n")
    combined = "".join(parts)
    try:
        tree = ast.parse(combined)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found: dict[str, ast.stmt] = {}
    for stmt in tree.body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        for bound in firsts.get(first, ()):
            found[bound] = stmt
    return Pasted(combined, tree, parts[0].count("\n"), spans, homes, found)
