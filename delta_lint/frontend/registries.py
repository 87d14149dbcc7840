"""Registries of functions in job code: a module-level dict whose values are
functions (`_STEPS = {"load_a": load_a.run, "load_b": load_b.run}`) that a call
picks from by a key (`_STEPS[step](catalog=catalog)`).

Such a call runs one of the registry's functions: the one its key names when the
key is known where the call is read, else any of them. Nothing is run: the dict is
read from the module's syntax, once per module.

A module imported by name (`importlib.import_module(MODULES[step]).run(...)`,
`import_module(f"pkg.{name}")`) is the same dispatch with the project's modules as
the registry: the call runs the function of the module the name holds, of each
module it may hold when it is one of several, or of each project module a
template of the name can name (`module_pattern`, which the link stage and the
call's reading both match). The name's value is the value layer's.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_FUNCTIONS = 64  # functions of one registry read at a call at most
MAX_MODULE_NAME = 200  # longest module name (or template of one) matched
IMPORT_MODULE = ("importlib", "import_module")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class ImportedModule:
    """What `importlib.import_module(name)` gives where a name holds it (`mod =
    import_module(MODULES[step])`, then `mod.run()`): the module names it may be,
    and templates of them (both empty: a name only a run knows), with the import's
    text for a note."""

    names: tuple[str, ...]
    templates: tuple[str, ...]
    shown: str


def imports_by_name(call: ast.expr, imports: list[tuple[str, str, str]]) -> bool:
    """Whether a call imports a module by a name it computes: `importlib.import_module(x)`,
    or `import_module(x)` of `from importlib import import_module` (`imports`: the
    module's imports as (module, name, bound))."""
    if not isinstance(call, ast.Call) or not call.args:
        return False
    func = call.func
    if isinstance(func, ast.Attribute):
        return isinstance(func.value, ast.Name) and (func.value.id, func.attr) == IMPORT_MODULE
    return isinstance(func, ast.Name) and ("importlib", "import_module", func.id) in imports


def module_pattern(template: str) -> Callable[[str], bool] | None:
    """Whether a module name is one a template of it can be (`pkg.{step}`:
    `pkg.load_a`, not `pkg.sub.load_a`): each placeholder one name of a dotted path,
    the rest as written (matched on RE2: the template is the checked code's). None
    for a template with no known part that names a module (`{x}`, `{x}.{y}`: any
    module at all), or past MAX_MODULE_NAME."""
    parts = _PLACEHOLDER.split(template)
    if len(template) > MAX_MODULE_NAME or len(parts) < 2 or not any(p.strip(".") for p in parts):
        return None
    import re2  # loaded by the runs that meet such a template: a SQL-only check never does

    pattern = re2.compile(r"[A-Za-z_]\w*".join(re2.escape(p) for p in parts))
    return lambda name: len(name) <= MAX_MODULE_NAME and pattern.fullmatch(name) is not None


def function_ref(node: ast.expr) -> bool:
    """Whether an expression names a function as written: a name or a chain of
    attributes on a name (`load_a.run`)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def registries(tree: ast.Module | None, mutated: frozenset[str]) -> dict[str, list[tuple[str | None, ast.expr]]]:
    """name -> (key, function) of each module-level dict display of at least two
    functions by name, bound once and never changed in place (`mutated`): a key
    that is no literal string is None. A dict holding anything but names of
    functions (a value, a call, a `**` spread) is no registry."""
    if tree is None:
        return {}
    bound: dict[str, list[ast.expr]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append(value)
    found: dict[str, list[tuple[str | None, ast.expr]]] = {}
    for name, values in bound.items():
        if len(values) != 1 or name in mutated or not isinstance(values[0], ast.Dict):
            continue
        display = values[0]
        if not 2 <= len(display.values) <= MAX_FUNCTIONS or any(k is None for k in display.keys):
            continue
        if not all(function_ref(v) for v in display.values):
            continue
        found[name] = [
            (k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None, v)
            for k, v in zip(display.keys, display.values)
        ]
    return found


def dispatched(tree: ast.Module, found: dict[str, list[tuple[str | None, ast.expr]]]) -> set[int]:
    """The ids of the functions of registries (`found`) that the module's own calls
    through them may run: `NAME["key"](...)` the one of that key, `NAME[step](...)`
    any of them."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Subscript)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in found
        ):
            continue
        out.update(id(fn) for fn in chosen(found[node.func.value.id], node.func.slice))
    return out


def chosen(entries: list[tuple[str | None, ast.expr]], key: ast.expr) -> list[ast.expr]:
    """The functions a call through a registry by `key` may run: a literal key's one
    (the last entry of that key, as a dict keeps it), else each of them. Both the
    call's reading and `dispatched` ask this, so a function the call may run is
    never left to its module too, nor one it cannot run taken from it."""
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        named = [fn for k, fn in entries if k == key.value]
        if named:
            return named[-1:]
    return [fn for _, fn in entries]


@dataclass(frozen=True)
class Registries:
    """A module's registries (`registries`) and the lines of its calls through them,
    found once per module: most expressions a front end reads hold no such call and
    are answered by a line search, without walking them."""

    by_name: dict[str, list[tuple[str | None, ast.expr]]] = field(default_factory=dict)
    lines: tuple[int, ...] = ()  # sorted lines of the calls `NAME[key](...)` of a registry

    @classmethod
    def of(cls, tree: ast.Module | None, mutated: frozenset[str]) -> Registries:
        found = registries(tree, mutated)
        if not found or tree is None:
            return cls()
        lines = sorted(
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Subscript)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in found
        )
        return cls(found, tuple(lines))

    def may_call(self, node: ast.expr) -> bool:
        """Whether a call through a registry stands on the expression's lines."""
        index = bisect_left(self.lines, node.lineno)
        return index < len(self.lines) and self.lines[index] <= (node.end_lineno or node.lineno)
