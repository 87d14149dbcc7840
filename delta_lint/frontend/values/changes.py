"""The names a module's code changes in place (`tables.append(t)`, `conf["k"] = v`,
`parts += [x]`): such a name does not hold the literal it was bound to, so a
loop over it or a read of it is not the literal's.

A list a dict holds can also change through another name bound to it (`t =
CFG["tables"]; t.append(x)`). The statement walk follows such a change where it
can tell what it does: a name bound once, at the module's top level, to a name or
a part of one, and used only to be read or, in top-level statements, grown with
`append`/`extend` (`values.walker` then changes the list every name holding it
sees); so too a top-level `CFG["tables"].append(x)`. Otherwise the first name counts as changed too: the other name bound or
changed in a function, handed to a call, kept in a container, returned or changed
in another way; so too a part of a name handed on so (`holder = {"t":
CFG["tables"]}`, `add(CFG["tables"])`).

Read from the syntax tree, so text in strings and comments changes nothing. To stay
cheap on every file, a pattern over the text first finds the lines that may hold a
change (a superset: `.append(`, `.sort(`, `-=`, `] =`, `del`), and only the parts of the tree
that span those lines are walked; the whole tree only when some change is found.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left

from delta_lint.frontend.values.brains import CHANGES_IN_PLACE, READ_METHODS, READERS

# methods that change the list, dict or set they are called on (`brains.IN_PLACE`)
MUTATORS = CHANGES_IN_PLACE
# the changes of a list through another name that the statement walk follows
FOLLOWED = frozenset({"append", "extend"})
# calls that only read the value they are given
_READERS = READERS
_READ_METHODS = READ_METHODS

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_LEAVES = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)  # nothing below them
# a line that may change a name: a method of `MUTATORS` called, an augmented
# assignment of any operator (`-=` on a set, `*=` on a list) or an item stored, an
# item deleted. Searched apart (`del` only in a text that holds it): Python's `re`
# runs one alternation of them (and a `\b`) several times slower over a file.
_MAY_CHANGE = (
    re.compile(r"\.\s*(?:" + "|".join(sorted(MUTATORS)) + r")\s*\("),
    re.compile(r"[-+*/%@&|^<>\]]\s*=(?!=)"),  # `t -= x`, `t[k] = v` (and a few more: a superset)
)
_MAY_DELETE = re.compile(r"del[ \t(\[]")


def changed_in_place(tree: ast.Module, source: str) -> frozenset[str]:
    """The names `tree` (parsed from `source`) changes in place, with the attribute
    names on the way (`self.tables.append(t)`: `tables` and `self`)."""
    lines: list[int] = []
    line, last = 1, 0
    patterns = (*_MAY_CHANGE, _MAY_DELETE) if "del" in source else _MAY_CHANGE
    for start in sorted(found.start() for pattern in patterns for found in pattern.finditer(source)):
        line += source.count("\n", last, start)
        last = start
        if not lines or lines[-1] != line:
            lines.append(line)
    if not lines:
        return frozenset()
    out: set[str] = set()
    last_line = lines[-1]
    # `CFG["tables"].append(x)` as a top-level statement: followed by the walk
    followed = {id(s.value) for s in tree.body if isinstance(s, ast.Expr) and _grows_a_part(s.value)}
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
            if type(func) is ast.Attribute and func.attr in MUTATORS and id(node) not in followed:
                _names(func.value, out)
        elif kind is ast.AugAssign:  # every operator: `s -= {x}`, `t *= 2` change in place
            _names(node.target, out)  # type: ignore[attr-defined]
        elif kind is ast.Subscript and type(node.ctx) in (ast.Store, ast.Del):  # type: ignore[attr-defined]
            _names(node.value, out)  # type: ignore[attr-defined]
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST) and not isinstance(value, _LEAVES):
                stack.append(value)
    if out or followed:
        out |= _changed_through_others(tree, out)
    return frozenset(out)


def _grows_a_part(node: ast.expr) -> bool:
    """`CFG["tables"].append(x)`, `CFG.get("t").extend([...])`: a list a name holds
    under known keys grown as the walk follows it (see `Walker._change_list`)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FOLLOWED):
        return False
    part = node.func.value
    if isinstance(part, ast.Name):
        return False  # the name itself: changed in place (its own loops are not the literal's)
    return keyed_root(part) is not None


def _root(node: ast.expr) -> ast.Name | None:
    """The name a part of a value is read from: `CFG` of `CFG["t"]`, `CFG.get("t")`,
    `CFG.a.b`; None for any other expression."""
    while True:
        if isinstance(node, ast.Name):
            return node
        if isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and not node.keywords
        ):
            node = node.func.value
        else:
            return None


def _changed_through_others(tree: ast.Module, changed: set[str]) -> set[str]:
    """The names whose value may change through another name where the walk does
    not follow it (see the module docstring), to a fixed point: a name bound to a
    part of one of those is itself one."""
    parent: dict[int, ast.AST] = {}
    top = {id(s) for s in tree.body}
    stores: dict[str, int] = {}
    aliases: dict[str, tuple[str, bool]] = {}  # name -> (the name it is bound to (a part of), at the top level)
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent[id(child)] = node
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            stores[node.arg] = stores.get(node.arg, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            root = _root(node.value)
            if root is not None and root.id != node.targets[0].id:
                aliases[node.targets[0].id] = (root.id, id(node) in top)
    escaped: set[str] = set()  # names handed on (an alias), or a part of which is (any name)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            continue
        part, above = _part(node, parent)
        use = _use(part, above, parent, top)
        if use == "handed" and (part is not node or node.id in aliases):
            escaped.add(node.id)
    out: set[str] = set()
    for name in escaped:
        if name not in aliases:
            out.add(name)  # a part of it handed on: it may change there
    grown = True
    while grown:
        grown = False
        for name, (root, at_top) in aliases.items():
            followed = at_top and stores.get(name) == 1 and name not in escaped
            if root not in out and (name in escaped or (name in changed or name in out) and not followed):
                out.add(root)
                grown = True
    return out - changed


def _part(node: ast.Name, parent: dict[int, ast.AST]) -> tuple[ast.AST, ast.AST | None]:
    """The part of a name's value an expression reads (`CFG["t"]`, `CFG.a`,
    `CFG.get("t")`, or the name itself) and the node above it."""
    part: ast.AST = node
    above = parent.get(id(part))
    while True:
        if isinstance(above, ast.Subscript) and above.value is part:
            part, above = above, parent.get(id(above))
        elif isinstance(above, ast.Attribute) and above.value is part:
            call = parent.get(id(above))
            if isinstance(call, ast.Call) and call.func is above:
                if above.attr != "get":
                    return part, above  # a method of it
                part, above = call, parent.get(id(call))
            else:
                part, above = above, call
        else:
            return part, above


def _use(part: ast.AST, above: ast.AST | None, parent: dict[int, ast.AST], top: set[int]) -> str:
    """How an expression uses a part of a value: "read" in place (a loop over it, an
    index, a comparison or operation, a text, a call or method that only reads, bound
    to a name), "grown" (`x.append(...)`, `x.extend(...)` as a top-level statement), or
    "handed" on (to a call, into a container, returned, kept in an attribute or an
    index, changed by another method)."""
    if isinstance(above, (ast.For, ast.comprehension)):
        return "read" if above.iter is part else "handed"
    if isinstance(above, (ast.Subscript, ast.Compare, ast.FormattedValue, ast.Expr, ast.BinOp, ast.BoolOp, ast.If)):
        return "read"
    if isinstance(above, ast.Assign):
        single = above.value is part and len(above.targets) == 1 and isinstance(above.targets[0], ast.Name)
        return "read" if single else "handed"
    if isinstance(above, ast.Attribute):  # a method of it: `_part` stops there
        if above.attr in _READ_METHODS:
            return "read"
        statement = parent.get(id(parent.get(id(above))))
        if above.attr in FOLLOWED and isinstance(statement, ast.Expr) and id(statement) in top:
            return "grown"
        return "handed"
    if isinstance(above, ast.Call) and part is not above.func:
        func = above.func
        reads = (isinstance(func, ast.Name) and func.id in _READERS) or (
            isinstance(func, ast.Attribute) and func.attr in _READ_METHODS
        )
        return "read" if reads else "handed"
    return "handed"


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


def keyed_root(node: ast.expr) -> ast.Name | None:
    """The name a value is read from by known keys only (`CFG`, `CFG["tables"]`,
    `CFG.get("t")["x"]`); None for any other expression."""
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            node = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and not node.keywords
        ):
            node = node.func.value
        else:
            return None
    return node
