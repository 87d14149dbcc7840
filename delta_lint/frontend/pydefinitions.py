"""A Python module's definitions, by the names its code calls them.

Before the analyzer (`python.PythonAnalyzer`) walks a file, it needs to know which
functions and classes a call may run: the file's own (nested ones too, the
shallowest of a name winning) and other files' helpers pasted after its code (see
`pyforeign`), each called by the name it is imported as. `module_definitions`
gathers them once from the tree; `method_of_unknown_state` answers, at a call on
an object the value layer knows nothing of, which of a class's methods runs.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from delta_lint.frontend.pyvalues import Instance, Scope, UnknownState
from delta_lint.model import SCOPED


@dataclass
class Definitions:
    """`functions`: every function by the name a call runs it by (this file's, the
    shallowest of a name first, then the pasted helpers'); `parameters`: the names
    of the parameters of every function the file defines; `classes`: the top-level
    classes by name (the file's own before pasted ones); `top_functions`: the file's
    own top-level functions."""

    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    parameters: set[str]
    classes: dict[str, ast.ClassDef]
    top_functions: set[str]


def module_definitions(tree: ast.Module, own_lines: int, foreign: Mapping[str, ast.stmt]) -> Definitions:
    """The definitions of `tree`, whose first `own_lines` lines are the file's own
    code; `foreign`: the pasted definitions by the name each is called by here
    (`pyforeign.Pasted.definitions`)."""
    functions, parameters = _functions(tree)
    classes: dict[str, ast.ClassDef] = {}
    for stmt in tree.body:  # the file's own class wins over a pasted one of the same name
        if isinstance(stmt, ast.ClassDef):
            classes.setdefault(stmt.name, stmt)
    for bound, stmt in foreign.items():  # `import m` then `m.Setup.schema(...)` is not followed
        if isinstance(stmt, ast.ClassDef) and "." not in bound and SCOPED not in bound:
            classes.setdefault(bound, stmt)
    top_functions = {
        stmt.name
        for stmt in tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.lineno <= own_lines
    }
    # a foreign helper is called by the name it is imported as (`g` of `import f as g`,
    # `util.f` of `import util`)
    for bound, stmt in foreign.items():
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if SCOPED in bound:  # its own module's name for it: that definition, whatever this file defines
                functions[bound] = stmt
            else:
                functions.setdefault(bound, stmt)
    return Definitions(functions, parameters, classes, top_functions)


def _functions(tree: ast.Module) -> tuple[dict[str, ast.FunctionDef | ast.AsyncFunctionDef], set[str]]:
    """Every function definition by name, the shallowest first (as `ast.walk`
    would meet them), walking statements only: expressions cannot define one; and
    the names of their parameters."""
    found: list[tuple[int, int, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    stack: list[tuple[list, int]] = [(tree.body, 1)]
    while stack:
        body, depth = stack.pop()
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((depth, len(found), stmt))
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    stack.append((inner, depth + 1))
            for holder in (getattr(stmt, "handlers", None) or []) + (getattr(stmt, "cases", None) or []):
                stack.append((holder.body, depth + 2))
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for _, _, fn in sorted(found, key=lambda f: (f[0], f[1])):
        functions.setdefault(fn.name, fn)
    parameters = {a.arg for _, _, fn in found for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    return functions, parameters


def method_of_unknown_state(
    call: ast.Call, scope: Scope, classes: Mapping[str, ast.ClassDef], helpers: set[str]
) -> ast.FunctionDef | None:
    """`w.save("main.x.y", df)` on `w = Store(spark, load())` (`UnknownState`), or
    on an object made in the call itself of which nothing is known, given
    arguments (`Db().run(q)`): the method that may write (one of `helpers`), read at
    the call with its own arguments bound and no object (its `self.x` reads unknown;
    a write that reads none of its arguments stays where it is written). Such an
    object's method called with nothing (`RunLog(ctx).start()`) is read as written."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value
    if isinstance(owner, ast.Name):
        held = scope.env.get(owner.id)
        cls = held.cls if isinstance(held, UnknownState) else None
    elif not (call.args or call.keywords):
        return None
    else:
        made = owner.func if isinstance(owner, ast.Call) else None
        # (a name bound to an object of its own is no class: `Db = Db(); Db().run(q)`)
        cls = made.id if isinstance(made, ast.Name) and not isinstance(scope.env.get(made.id), Instance) else None
    if cls not in classes:
        return None
    method = next((f for f in classes[cls].body if isinstance(f, ast.FunctionDef) and f.name == func.attr), None)
    return method if method is not None and method.name in helpers else None
