"""The names a module's code changes in place (`tables.append(t)`, `conf["k"] = v`,
`parts += [x]`): such a name does not hold the literal it was bound to, so a
loop over it or a read of it is not the literal's.

Read from the syntax tree, so text in strings and comments changes nothing. To stay
cheap on every file, a pattern over the text first finds the lines that may hold a
change (a superset: `.append(`, `+=`, `|=`, `] =`), and only the parts of the tree
that span those lines are walked.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left

# methods that change the list, dict or set they are called on
MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "add"})

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_LEAVES = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)  # nothing below them
_MAY_CHANGE = re.compile(r"\.\s*(?:append|extend|insert|update|setdefault|add)\s*\(|\+=|\|=|\]\s*=(?!=)")


def changed_in_place(tree: ast.Module, source: str) -> frozenset[str]:
    """The names `tree` (parsed from `source`) changes in place, with the attribute
    names on the way (`self.tables.append(t)`: `tables` and `self`)."""
    lines: list[int] = []
    line, last = 1, 0
    for found in _MAY_CHANGE.finditer(source):
        line += source.count("\n", last, found.start())
        last = found.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    if not lines:
        return frozenset()
    out: set[str] = set()
    last_line = lines[-1]
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        kind = type(node)
        first = getattr(node, "lineno", None)
        if first is not None:
            if kind in _DEFINITIONS and node.decorator_list:  # type: ignore[attr-defined]
                first = node.decorator_list[0].lineno  # type: ignore[attr-defined]  # above the `def`
            if first > last_line:
                continue
            index = bisect_left(lines, first)
            if lines[index] > (node.end_lineno or first):  # type: ignore[attr-defined]
                continue  # spans no line that may hold a change
        if kind is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is ast.Attribute and func.attr in MUTATORS:
                _names(func.value, out)
        elif kind is ast.AugAssign:
            if type(node.op) in (ast.Add, ast.BitOr):  # type: ignore[attr-defined]
                _names(node.target, out)  # type: ignore[attr-defined]
        elif kind is ast.Subscript and type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
            _names(node.value, out)  # type: ignore[attr-defined]
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST) and not isinstance(value, _LEAVES):
                stack.append(value)
    return frozenset(out)


def _names(node: ast.expr, out: set[str]) -> None:
    """The name and the attribute names of `a.b[0].c`: `a`, `b`, `c`."""
    while True:
        if isinstance(node, ast.Name):
            out.add(node.id)
            return
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return
