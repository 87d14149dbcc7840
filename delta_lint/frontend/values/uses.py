"""Functions of a file that its code also uses as values the reading does not follow.

The walker reads a helper's body at each call of it, with the call's values, and
drops what it read of the body on its own (its parameters placeholders) once some
call was read: the calls then say every table it writes. That holds only when
every way the function runs is such a call. A function the code also keeps or
hands on as a value runs where, when and with what the reading does not see:

    save = w                    # an alias called later: `save("t")`
    steps = {"a": w}            # a dict or list of one function: `steps["a"]("t")`
    run_later(w)                # handed to a caller the reading does not follow
    return w                    # handed out

Its writes read on its own (a table `{t}` with its DL001 note) must stay beside
those of its calls, or the tables those other runs write are lost without a note.
A use the reading does follow is no such value: the function of a call, an
argument of a thread pool's `submit` / `map`, `Thread(target=...)`, builtin `map`
or `foreachBatch` (`frontend.pools`, the walker), a `partial(...)` handed straight
to one of those, and an entry of a registry the module's calls dispatch through
(`registries.dispatched`).
"""

from __future__ import annotations

import ast
from collections.abc import Collection

from delta_lint.frontend.values.brains import BINDERS, FOLLOWED_CALLERS, callee


def used_as_values(tree: ast.Module | None, names: Collection[str], dispatched: Collection[int] = ()) -> set[str]:
    """Those of `names` (functions of the module) the code loads somewhere other
    than as the function of a call or where the reading follows it (see the module
    docstring); `dispatched`: ids of the registry entries the module's calls run."""
    if tree is None or not names:
        return set()
    wanted = set(names)
    followed: set[int] = set()  # ids of the expressions whose function values are followed
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        followed.add(id(node.func))
        if callee(node) in FOLLOWED_CALLERS:
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                followed.add(id(arg))
                if isinstance(arg, ast.Call) and callee(arg) in BINDERS and arg.args:
                    followed.add(id(arg.args[0]))
    found: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and node.id in wanted
            and id(node) not in followed
            and id(node) not in dispatched
        ):
            found.add(node.id)
    return found
