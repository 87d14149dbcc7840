"""Imported functions a module names but never calls where its reading follows them.

A function another module defines reaches a file's code as a value in two ways
besides a call: kept in a registry (`{"batch": load}`), or handed to a call
(`PythonOperator(python_callable=load)`, `run_step(load)`,
`spark.udf.register("f", load)`, `partial(load, x)` kept for later). The file's
reading follows a call of the function (`load()`, `lambda: load()`), and the
callers it knows to run what they are given with arguments it reads: a thread
pool's `submit` / `map` / `starmap`, `threading.Thread(target=...)`, builtin
`map`, joblib's `delayed`, `foreachBatch` (`frontend.pools`, the walker) and a
`partial(...)` handed straight to one of those. Any other caller runs the
function where, when and with what this file does not tell. A name used only in
those two ways is not read at a call here, so the link stage leaves its writes to
its own module, where they are written (as those of a function nothing calls);
otherwise the module would drop them as called elsewhere and this file would
report none (a silent drop). The same holds for a notebook's functions that the
notebooks it `%run`s define (names it loads and never binds). Nothing here makes
an intent.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from delta_lint.frontend.pyvalues import dotted_name
from delta_lint.frontend.values.brains import BINDERS, FOLLOWED_CALLERS, callee
from delta_lint.frontend.values.walker import walk

# a name or a dotted name standing as an element of a display or as an argument
# (`{"a": f, ...}`, `[f]`, `g(f)`, `g(x, key=mod.f)`): a quick scan of the text
# before the tree is walked
VALUE_WORD = re.compile(r"[:\[{,(=]\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*[,\]})]")


def _followed_calls(nodes: list[ast.AST]) -> set[int]:
    """Ids of the calls whose function arguments the reading follows."""
    out: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Call) and callee(node) in FOLLOWED_CALLERS:
            out.add(id(node))
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Call) and callee(arg) in BINDERS:
                    out.add(id(arg))
    return out


def _uses(node: ast.AST, followed: set[int], dispatched: set[int]) -> Iterator[tuple[ast.AST, bool]]:
    """Each child expression of `node` with whether it stands where it is only kept
    or handed on (True) rather than possibly called here (False)."""
    if isinstance(node, ast.keyword):
        return  # its value is read with the call it belongs to
    if isinstance(node, ast.Call):
        yield node.func, False
        handed = id(node) not in followed
        for arg in node.args:
            yield arg, handed
        for keyword in node.keywords:
            yield keyword.value, handed
        return
    display = isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Set))
    for child in ast.iter_child_nodes(node):
        kept = display and id(child) not in dispatched and not (isinstance(node, ast.Dict) and child in node.keys)
        yield child, kept


def not_called_here(tree: ast.Module, names: set[str], dispatched: set[int]) -> list[str]:
    """Those of `names` (imported names, or attributes of imported modules:
    `load_a.run`) the code loads only as an element of a dict, list, tuple or set
    display or as an argument of a call whose function argument the reading does
    not follow (see the module docstring). Any other use (a call, an argument of a
    followed caller, an assignment, a return) may call it here, and so may an
    element the module's own calls through its registry run (`dispatched`: their
    ids, see `registries.dispatched`)."""
    if not names:
        return []
    nodes = walk(tree)
    followed = _followed_calls(nodes)
    kept: set[str] = set()
    used: set[str] = set()
    for node in nodes:
        for child, handed in _uses(node, followed, dispatched):
            if not isinstance(child, (ast.Name, ast.Attribute)) or not isinstance(child.ctx, ast.Load):
                continue
            name = dotted_name(child)
            if name in names:
                (kept if handed else used).add(name)
    return sorted(kept - used)


def free_names(tree: ast.Module | None, own_lines: int) -> set[str]:
    """The names a module's own code (its statements up to line `own_lines`) loads
    but never binds (by an assignment, a definition, an import, a parameter, a
    `for`, a `with`, an `except`): in a notebook, those of the functions the
    notebooks it `%run`s define (and builtins)."""
    if tree is None:
        return set()
    bound: set[str] = set()
    loaded: set[str] = set()
    for node in walk(ast.Module(body=[s for s in tree.body if s.lineno <= own_lines], type_ignores=[])):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".", 1)[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return loaded - bound
