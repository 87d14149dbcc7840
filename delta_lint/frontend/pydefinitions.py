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
from delta_lint.frontend.values.records import namedtuple_class
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
    own = _own_statements(tree, own_lines)
    classes = _own_classes(tree.body[:own])
    for stmt in tree.body[own:]:  # the file's own class wins over a pasted one of the same name
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


def made_class(stmt: ast.stmt) -> ast.ClassDef | None:
    """The class a module-level statement makes other than by `class`
    (`C = namedtuple("C", ["catalog", "schema"])`, see `records.namedtuple_class`),
    the same definition each time it is asked."""
    return namedtuple_class(stmt)


def _own_statements(tree: ast.Module, own_lines: int) -> int:
    """How many of the module's top-level statements are the file's own code (the
    rest are definitions pasted after it, see `pyforeign`)."""
    count = 0
    for stmt in tree.body:
        if stmt.lineno > own_lines:
            break
        count += 1
    return count


# top-level statements that bind a name where they stand (no branch, loop or `with`)
_SIMPLE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.AnnAssign, ast.AugAssign)
_SIMPLE += (ast.Import, ast.ImportFrom, ast.Delete, ast.Expr)


def _own_classes(body: list[ast.stmt]) -> dict[str, ast.ClassDef]:
    """The classes the file's own top-level code defines, by name: by `class`, or
    made by a call (`made_class`). A name the code binds in another way too -- a
    `class` or an assignment inside an `if`, `try`, loop or `with` (`if legacy:
    class Store: ...`), an assignment, import or `del` after the definition, a
    second definition that differs -- is no class this reading can name: which
    class an object of it is, is not told. The same definition written twice (a
    notebook cell run again) is one class."""
    defined: dict[str, list[ast.ClassDef]] = {}
    last: dict[str, int] = {}  # where each name is defined last
    for index, stmt in enumerate(body):
        made = stmt if isinstance(stmt, ast.ClassDef) else made_class(stmt)
        if made is not None:
            defined.setdefault(made.name, []).append(made)
            last[made.name] = index
    out: dict[str, ast.ClassDef] = {}
    for name, each in defined.items():
        if len(each) == 1 or len({ast.dump(c) for c in each}) == 1:
            out[name] = each[0]
    if not out:
        return out
    for index, stmt in enumerate(body):
        simple = isinstance(stmt, _SIMPLE)
        if isinstance(stmt, ast.ClassDef) or made_class(stmt) is not None:
            continue
        for name in _binds(stmt) & set(out):
            if not simple or index > last[name]:
                del out[name]
    return out


def _binds(stmt: ast.stmt) -> set[str]:
    """The module names a top-level statement binds (inside its branches too)."""
    if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return {stmt.name}
    out: set[str] = set()
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            out.add(node.name)
            continue  # its body is a scope of its own
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return out


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


def calls_injected(cls: ast.ClassDef) -> bool:
    """Whether a method of the class calls a method of an object `__init__` keeps
    from its parameters (`self.log_store = log_store`, then
    `self.log_store.upsert(df)`): a collaborator the code that builds the object
    gives it. What the call runs is that object's class's, which only a file that
    builds the object knows, so the class goes with its module's helpers."""
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return False
    params = {a.arg for a in (*init.args.posonlyargs, *init.args.args[1:], *init.args.kwonlyargs)}
    kept = {
        target.attr
        for stmt in ast.walk(init)
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id in params
        for target in stmt.targets
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
    }
    return bool(kept) and any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr in kept
        and isinstance(node.func.value.value, ast.Name)
        and node.func.value.value.id == "self"
        for method in cls.body
        if isinstance(method, ast.FunctionDef) and method is not init
        for node in ast.walk(method)
    )
