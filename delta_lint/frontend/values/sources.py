"""Values of one module given to other files, and kept out of messages.

The link stage gives a module's value functions to the files that import it or
`%run` it as source (`module_source`, `is_value_function`), and a file gets them
back as modules to evaluate (`value_modules`) and helpers' definitions it may
paste after its own code (`one_definition`); numbers cross as text
(`number_text`). What a project document holds is kept out of every message
(`DocumentText`): a table name it forms is the one thing of its delta-lint prints.
"""

from __future__ import annotations

import ast

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.values.budget import MAX_INT_BITS
from delta_lint.frontend.values.evaluator import Module, _changed_outside, bound_names, changed_names
from delta_lint.frontend.values.listing import is_listing

MAX_VALUE_FUNCTION_LINES = 120  # longer functions are not given to other files
MAX_SOURCE_STATEMENTS = 64  # top-level statements the value functions of a module need


def is_value_function(fn: ast.FunctionDef) -> bool:
    """A short top-level function that returns a value (what `Evaluator` may give)."""
    if (fn.end_lineno or fn.lineno) - fn.lineno > MAX_VALUE_FUNCTION_LINES:
        return False
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn))


def number_text(value: int | float) -> str | None:
    """The text of a number as `str()` gives it, or None for an integer too long to
    keep (a 5,000-digit hex literal is valid Python, and its decimal text is refused)."""
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        return None
    return str(value)


DOCUMENT_MASK = "<value of a project document>"
_MIN_LEAF = 4  # a whole value this long or longer is masked wherever it stands
_WINDOW = 8  # pieces of a longer value: any 15 characters of one are found


class DocumentText:
    """What the project documents a file's code loaded hold, to keep it out of every
    message: a table name they form is the one thing of theirs delta-lint prints.
    `mask` replaces each part of a text that is a document's value (a whole value of
    4 or more characters, or 15 or more characters of a longer one, such as a slice
    of a key), matched without case (a parser's message upper-cases what it quotes).
    Keys are left alone: they name settings, as the code that reads them does."""

    def __init__(self, documents: tuple[tuple[str, object], ...]) -> None:
        leaves: set[str] = set()
        # (a listing names the project's files, no value of a document: `listing`)
        pending: list[object] = [value for path, value in documents if not is_listing(path)]
        while pending:
            value = pending.pop()
            if isinstance(value, dict):
                pending.extend(value.values())
            elif isinstance(value, (list, tuple)):
                pending.extend(value)
            elif isinstance(value, str) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
                text = value if isinstance(value, str) else number_text(value)
                if text and len(text) >= _MIN_LEAF:
                    leaves.add(text.lower())
        self.leaves = sorted(leaves, key=len, reverse=True)
        self.haystack = "\0".join(leaf for leaf in self.leaves if len(leaf) > _WINDOW)

    def mask(self, text: str) -> str:
        low = text.lower()
        if not self.leaves or not low:
            return text
        covered = bytearray(len(low))
        for leaf in self.leaves:
            start = low.find(leaf)
            while start >= 0:
                covered[start : start + len(leaf)] = b"\1" * len(leaf)
                start = low.find(leaf, start + 1)
        for i in range(0, len(low) - _WINDOW + 1, _WINDOW):
            if low[i : i + _WINDOW] not in self.haystack:
                continue
            first, last = i, i + _WINDOW
            while first > 0 and low[first - 1 : last] in self.haystack:
                first -= 1
            while last < len(low) and low[first : last + 1] in self.haystack:
                last += 1
            covered[first:last] = b"\1" * (last - first)
        if not any(covered):
            return text
        if len(low) != len(text):  # lower-casing moved the characters: mask it all
            return DOCUMENT_MASK
        out, i = [], 0
        while i < len(text):
            if covered[i]:
                while i < len(text) and covered[i]:
                    i += 1
                out.append(DOCUMENT_MASK)
            else:
                out.append(text[i])
                i += 1
        return "".join(out)

    def mask_quoted(self, message: str) -> str:
        """`mask` of each `quoted` part of a message (the words around are delta-lint's
        own); of the whole message when it quotes nothing."""
        parts = message.split("`")
        if len(parts) < 3:
            return self.mask(message)
        return "`".join(self.mask(p) if i % 2 else p for i, p in enumerate(parts))


def _holds_huge_integer(stmt: ast.stmt) -> bool:
    return any(
        isinstance(n, ast.Constant) and isinstance(n.value, int) and number_text(n.value) is None
        for n in ast.walk(stmt)
    )


def module_source(tree: ast.Module, names: list[str]) -> str:
    """The module's top-level statements that functions `names` need, as source: its
    imports, the functions, and every statement that binds or changes a name they
    read (`T = "a"`, `if c: T = "b"`, `T += "_v2"`, `TABLES.append(x)`, a function
    that rebinds it with `global` or changes it in place), transitively (a bounded
    number). The importer's `Module.of` then reads what the module gives a name as
    one file would, never a first binding that a later statement replaces. A name
    with more binding statements than the bound is left out whole (unknown to
    other files), as is a name bound by a statement holding an integer too long to
    print (`0xfff...` of 5,000 digits, which `ast.unparse` cannot write)."""
    statements: dict[str, list[ast.stmt]] = {}  # name -> the statements that bind or change it
    imports: list[ast.stmt] = []
    refused: set[str] = set()
    defined: set[str] = set()  # bound here (a name only changed or handed here is another module's)
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            if not getattr(stmt, "level", 0):
                imports.append(stmt)
            continue
        if isinstance(stmt, ast.ClassDef):
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined.add(stmt.name)
            changed, declared = _changed_outside(stmt)
            bound = {stmt.name} | changed | declared
        else:
            defined.update(bound_names(stmt))
            bound = bound_names(stmt) | changed_names(stmt)
            if isinstance(stmt, ast.Expr):  # `fill(CONFIG)`: as `Module.of` reads it
                called = {id(n.func) for n in ast.walk(stmt) if isinstance(n, ast.Call)}
                bound |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and id(n) not in called}
        if _holds_huge_integer(stmt):
            refused |= bound
            continue
        for name in bound:
            statements.setdefault(name, []).append(stmt)
    statements = {name: found for name, found in statements.items() if name in defined}
    wanted = [n for n in names if n in statements and n not in refused]
    kept: dict[int, ast.stmt] = {}
    done: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in done or name in refused:
            continue
        done.add(name)
        new = [s for s in statements[name] if id(s) not in kept]
        if len(kept) + len(new) > MAX_SOURCE_STATEMENTS:
            continue  # all its statements, or none: reading it then says it is not known
        for stmt in new:
            kept[id(stmt)] = stmt
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and node.id in statements and node.id not in done:
                    wanted.append(node.id)
    ordered = [s for s in tree.body if id(s) in kept]
    return "\n".join(ast.unparse(s) for s in imports + ordered) + "\n"


def value_modules(given: tuple[tuple[str, str, str, str], ...], memo: FrontEndMemo) -> dict[str, tuple[Module, str]]:
    """name here -> (module, function) for the value functions other files give.
    Each module's source is parsed once a run (`memo.modules`), however many files
    call its functions; the `Module` is this file's own, as the values its
    assignments evaluate to are worked out under this file's budget and documents."""
    modules: dict[tuple[str, str], Module | None] = {}
    out = {}
    for bound, path, function, source in given:
        if (path, source) not in modules:
            if source not in memo.modules:
                try:
                    memo.modules[source] = ast.parse(source)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    memo.modules[source] = None
            tree = memo.modules[source]
            modules[(path, source)] = Module.of(tree, path) if tree is not None else None
        module = modules[(path, source)]
        if module is not None:
            out[bound] = (module, function)
    return out


def one_definition(text: str) -> bool:
    """Whether a helper's source, as another file's summary gives it, parses as one
    function or class definition (else it is not given to the file that imports it)."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return bool(body) and isinstance(body[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
