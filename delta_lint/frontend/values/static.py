"""What an expression of a job definition holds, read where it is written.

The reader of Airflow DAG files (Lakeflow pipelines and jobs made with the SDK
are read on the evaluator itself, see `values.scopes`; this module goes once the
Airflow walk does too) asks the value layer one question: what does this
expression hold, in its module? `Static` answers it on the lattice of
`lattice` (a known value, a `Template`, `OneOf`, `Unknown`), charging the file's
`Budget`; the code is never imported or run.

- A name, or `self.attr` in a method, holds the value of its single binding in
  the innermost scope that binds it: the functions around the expression, then
  the module (`self` attributes: the class body and every method's `self.x =`).
  A name bound more than once, changed in place (`x.append(...)`, `x[k] = v`),
  bound by a loop, an import, `global` or a parameter is unknown. A reader may
  bind names itself (`Scope.bind`: the rounds of a loop it reads once per value).
- Lists, tuples, sets and dicts (and `dict(k=v)`) are read item by item, so one
  item not known leaves the others: a Jobs API document with one value only a
  run knows is still a document (a `*`/`**` spread makes it `Some`/`SomeKeys`:
  a document keeps the items written, an evaluation or a loop refuses it). A
  reader reads its own calls (the SDK's dataclasses) through its hook.
- An environment variable (`os.getenv("X", "me")`, `os.environ[...]`) and
  `__file__` are unknown: they are the machine's that reads the definition (an
  Airflow worker, an installer), and a default is no more their value than any
  other. Values cut short (names nested past MAX_NAMES, a string past
  MAX_SETTING_TEXT, a list past MAX_ITEMS) are noted in the budget at a line.
- A string built of parts (`+`, an f-string, `os.path.join`) is a `Template`
  when some part is not known: each such part is the input `UNKNOWN_PART`.
- Every other expression is `evaluator.Evaluator`'s, over the module's functions,
  with the names it reads bound as above: a helper's return, a conditional
  expression (one of several values), a subscript, a string method.

`values.settings.setting` turns a value into what a job document holds. The one
rule the job readers add: a template whose known text after its last input is a path stands
for that path in a folder only a run knows, `UNKNOWN_FOLDER` and the tail
(`f"/Users/{who}/etl/load"` is `{unknown folder}/etl/load`), which the schedule
matches by its tail (`bundle._locate`); other templates, one of several values
and unknown values are unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from delta_lint.frontend.values.brains import CHANGES_IN_PLACE, ENV_GETTERS
from delta_lint.frontend.values.budget import MAX_ITEMS, Budget, OutOfBudget
from delta_lint.frontend.values.evaluator import Evaluator, Made, Module
from delta_lint.frontend.values.lattice import Template, Unknown
from delta_lint.frontend.values.settings import TOO_LONG, joined, setting

MAX_NAMES = 24  # names (and nested items) followed one from the next at most
_TOO_DEEP = Unknown(f"nested more than {MAX_NAMES} deep")
_SPENT = Unknown("the analysis budget is spent")
# where the module is on the machine that runs it: not known (`os.path.dirname(__file__)`)
_FILE = Unknown("the folder the code runs from")
_ENVIRONMENT = Unknown("an environment variable of the machine that reads the definition")

# methods that change the object a name holds: such a name's assignment is not its value
MUTATORS = CHANGES_IN_PLACE  # see `brains.IN_PLACE`

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_SCALARS = (str, int, float, bool, type(None))

Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Scope:
    """Where an expression is read: the functions around it (outermost first), in a
    method its class and the name of its `self`, and the names a reader binds
    itself (innermost last), which hide every other binding."""

    fns: tuple[Function, ...] = ()
    cls: ast.ClassDef | None = None
    self_name: str | None = None
    given: tuple[tuple[str, object], ...] = ()

    def enter(self, fn: Function, cls: ast.ClassDef | None = None) -> Scope:
        """The scope of a function's body (a method's when `cls` is its class: its
        first parameter is `self`, unless it is a static method)."""
        if cls is None:
            return replace(self, fns=(*self.fns, fn))
        params = _params(fn)
        is_static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)
        return Scope((*self.fns, fn), cls, params[0] if params and not is_static else None, self.given)

    def bind(self, names: dict[str, object]) -> Scope:
        """This scope with `names` holding these values (a loop round's)."""
        return replace(self, given=(*self.given, *names.items()))


class Some(list):
    """The items written of a list some of whose items are not known (`[*other, x]`):
    a document keeps them, an evaluation or a loop over it does not."""


class SomeKeys(dict):
    """The items written of a dict some of whose keys are not known (`{**other, "k": v}`)."""


def partial(value: object, depth: int = 0) -> bool:
    """Whether a value is, or holds, a container some of whose items are not known."""
    if isinstance(value, (Some, SomeKeys)):
        return True
    if depth > MAX_NAMES:
        return True
    if isinstance(value, (list, tuple)):
        return any(partial(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(partial(v, depth + 1) for v in value.values())
    return False


@dataclass(frozen=True)
class _Bound:
    """A name's one binding: the expression it is assigned and where that is."""

    node: ast.expr
    scope: Scope


# the hook's answer for a node it does not read itself
PASS = object()
Hook = Callable[["Static", ast.expr, Scope, int], object]


class Static:
    """The values of one module's expressions (see the module docstring). `tree`
    None reads literals alone, names not followed. `hook(static, node, scope,
    depth)` reads a reader's own kinds of node first (PASS for the others), its
    parts through `read(..., depth + 1)`."""

    def __init__(self, tree: ast.Module | None, path: str, budget: Budget, hook: Hook | None = None) -> None:
        self.tree, self.path, self.budget, self.hook = tree, path, budget, hook
        self._frames: dict[int, _Bindings] = {}
        self._attrs: dict[int, _Bindings] = {}
        self._resolving: set[int] = set()
        self._module: Module | None = None
        # why a value read since `said` was cut short (names nested too deep), if it was
        self.cut: str | None = None

    def value(self, node: ast.expr | None, scope: Scope | None = None) -> object:
        """What `node` holds in `scope` (the module's, when not given): a value of the
        lattice, whose lists and dicts may hold unknown items. Once the budget is
        spent every value is unknown, and the budget says where it ran out."""
        if node is None:
            return Unknown("not given")
        try:
            value = self.read(node, scope or Scope(), 0)
            self.said(getattr(node, "lineno", 0))
            return value
        except OutOfBudget as err:
            if str(err):  # the step that spent it (later reads fail at once)
                self.budget.note(self.path, getattr(node, "lineno", 0), str(err), lasting=True)
            return _SPENT
        except RecursionError:
            return _TOO_DEEP

    def said(self, line: int) -> None:
        """Note at `line` (once) that a value read since the last note was cut short."""
        if self.cut is not None:
            self.budget.note(self.path, line, self.cut)
            self.cut = None

    def setting(self, node: ast.expr | None, scope: Scope | None = None) -> object:
        """What `node` holds as a job setting (see `setting`)."""
        return setting(self.value(node, scope))

    # -- reading ----------------------------------------------------------------------

    def read(self, node: ast.expr, scope: Scope, depth: int) -> object:
        """`value` within a reading (a hook's parts): the budget is charged, and a
        spent budget raises `OutOfBudget`."""
        self.budget.step()
        if depth > MAX_NAMES:
            self.cut = self.cut or _TOO_DEEP.reason
            return _TOO_DEEP
        if self.hook is not None:
            got = self.hook(self, node, scope, depth)
            if got is not PASS:
                return got
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, _SCALARS) else Unknown("a constant of another kind")
        if isinstance(node, ast.Name) or self._is_attr(node, scope):
            return self._named(node, scope, depth)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            if len(node.elts) > MAX_ITEMS:
                return Unknown(f"more than {MAX_ITEMS:,} items")
            items = [self.read(e, scope, depth + 1) for e in node.elts if not isinstance(e, ast.Starred)]
            if len(items) < len(node.elts):
                return Some(items)  # `[*other, x]`: the items written, not all there are
            return tuple(items) if isinstance(node, ast.Tuple) else items  # a set: its items as written
        if isinstance(node, ast.Dict):
            return self._dict(zip(node.keys, node.values), scope, depth)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
            return self._dict(((ast.Constant(k.arg), k.value) for k in node.keywords if k.arg), scope, depth)
        if _is_environment(node):
            return _ENVIRONMENT
        if isinstance(node, (ast.JoinedStr, ast.BinOp)) or _is_path_join(node):
            parts = self._parts(node, scope, depth)
            if parts is not None:
                return parts
        return self._evaluated(node, scope, depth)

    def _dict(self, items: Iterator[tuple[ast.expr | None, ast.expr]], scope: Scope, depth: int) -> dict:
        """A dict's items whose keys are known (a `**` spread's are not)."""
        out: dict[object, object] = {}
        for k, v in items:
            if k is None:
                out = SomeKeys(out)  # `{**other, "k": v}`: the keys written, not all there are
                continue
            key = self.read(k, scope, depth + 1)
            if isinstance(key, (str, int)) and not isinstance(key, bool):
                out[key] = self.read(v, scope, depth + 1)
        return out

    def _parts(self, node: ast.expr, scope: Scope, depth: int) -> object:
        """A string built of parts, a template where a part is not known (each such
        part the input UNKNOWN_PART); lists joined by `+`. None: the evaluator's."""
        if isinstance(node, ast.BinOp):
            if not isinstance(node.op, ast.Add):
                return None
            left, right = self.read(node.left, scope, depth + 1), self.read(node.right, scope, depth + 1)
            if isinstance(left, list) and isinstance(right, list):
                if len(left) + len(right) > MAX_ITEMS:
                    return self._too_big(node, f"a list of {len(left) + len(right):,} items (more than {MAX_ITEMS:,})")
                return Some(left + right) if isinstance(left, Some) or isinstance(right, Some) else left + right
            if _number(left) and _number(right):
                return None  # arithmetic
            if not any(isinstance(v, (str, Template)) for v in (left, right)):
                return Unknown("an operand not known")  # a list, a number or a string: not told
            if isinstance(left, (list, tuple, dict)) or isinstance(right, (list, tuple, dict)):
                return Unknown("a container added to another value")
            return self._sized(node, joined([left, right], formatted=False))
        if isinstance(node, ast.JoinedStr):
            values: list[object] = []
            for part in node.values:
                if isinstance(part, ast.Constant):
                    values.append(str(part.value))
                elif isinstance(part, ast.FormattedValue) and part.format_spec is None and part.conversion in (-1, 115):
                    values.append(self.read(part.value, scope, depth + 1))
                else:
                    return None  # a format spec or `!r`: the evaluator formats it
            return self._sized(node, joined(values, formatted=True))
        assert isinstance(node, ast.Call)
        if any(isinstance(a, ast.Starred) for a in node.args) or node.keywords:
            return None
        args = [self.read(a, scope, depth + 1) for a in node.args]
        if all(isinstance(a, str) for a in args):
            return None  # Python's own join of known paths
        # an unknown folder and known names below it: joined by one `/` each
        return self._sized(
            node, joined([a if i == 0 or not isinstance(a, str) else "/" + a.lstrip("/") for i, a in enumerate(args)])
        )

    def _sized(self, node: ast.expr, value: object) -> object:
        return self._too_big(node, TOO_LONG.reason) if value is TOO_LONG else value

    def _too_big(self, node: ast.expr, why: str) -> Unknown:
        """A value past the sizes the layer builds: unknown, and the budget says where."""
        self.budget.note(self.path, getattr(node, "lineno", 0), why)
        return Unknown(why)

    def _evaluated(self, node: ast.expr, scope: Scope, depth: int) -> object:
        """The evaluator's value of `node`, the names it reads bound as this layer
        reads them (a name no scope binds is the module's: a function, an import)."""
        env: dict[str, object] = {}
        fields: dict[str, object] = {}
        for inner in ast.walk(node):
            if self._is_attr(inner, scope):
                fields.setdefault(inner.attr, self._named(inner, scope, depth))  # type: ignore[attr-defined]
            elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load) and inner.id not in env:
                if inner.id == "__file__":
                    env[inner.id] = _FILE
                    continue
                found = self._lookup(inner.id, scope)
                if found is not None:
                    held = self._follow(found, depth)
                    env[inner.id] = Unknown("a container not all of whose items are known") if partial(held) else held
        if fields and scope.self_name is not None and scope.cls is not None:
            env[scope.self_name] = Made(scope.cls.name, fields)
        return Evaluator(self._evaluator_module(), {}, self.budget).value(node, env)

    def _evaluator_module(self) -> Module:
        if self._module is None:
            body = self.tree.body if self.tree is not None else []
            self._module = Module.of(ast.Module(body=body, type_ignores=[]), self.path)
        return self._module

    # -- names ------------------------------------------------------------------------

    def _is_attr(self, node: ast.AST, scope: Scope) -> bool:
        """`self.x` in a method (the attributes this layer reads)."""
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and scope.cls is not None
            and node.value.id == scope.self_name
        )

    def _named(self, node: ast.expr, scope: Scope, depth: int) -> object:
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return _FILE
            found = self._lookup(node.id, scope)
            return Unknown(f"`{node.id}` not bound here") if found is None else self._follow(found, depth)
        assert isinstance(node, ast.Attribute) and scope.cls is not None
        if self.tree is None:
            return Unknown("names not followed")
        held = self._class_attrs(scope.cls).single(node.attr)
        return self._follow(held if held is not None else Unknown(f"`self.{node.attr}` not one value"), depth)

    def _follow(self, found: object, depth: int) -> object:
        """A lookup's value: its binding read where it is (once: a definition that
        reads itself is unknown), or the value a reader gave."""
        if not isinstance(found, _Bound):
            return found
        if id(found.node) in self._resolving:
            return Unknown("a definition that reads itself")
        self._resolving.add(id(found.node))
        try:
            return self.read(found.node, found.scope, depth + 1)
        finally:
            self._resolving.discard(id(found.node))

    def _lookup(self, name: str, scope: Scope) -> object:
        """The binding of `name` in `scope`: a `_Bound`, a value a reader gave, an
        `Unknown` (bound, but not once to a value), or None (no scope here binds it,
        or the module binds it by `def`, `class` or `import`: the evaluator's)."""
        for given, value in reversed(scope.given):
            if given == name:
                return value
        if self.tree is None:
            return Unknown("names not followed")
        for i in range(len(scope.fns) - 1, -1, -1):
            fn = scope.fns[i]
            bindings = self._frame(fn)
            if name in bindings.count:
                if any(isinstance(n, ast.Global) and name in n.names for n in _own_nodes(fn.body)):
                    break
                return bindings.found(name, replace(scope, fns=scope.fns[: i + 1]))
        module = self._frame(self.tree)
        if name not in module.count or name in module.defined:
            return None
        return module.found(name, Scope(given=scope.given))

    def _frame(self, owner: ast.Module | Function) -> _Bindings:
        """The bindings of a function's body (or the module's)."""
        cached = self._frames.get(id(owner))
        if cached is None:
            params = _params(owner) if not isinstance(owner, ast.Module) else []
            cached = self._frames[id(owner)] = _scope_bindings(owner.body, params)
        return cached

    def _class_attrs(self, cls: ast.ClassDef) -> _Bindings:
        """`self.x = ...` in every method of the class, and its class attributes."""
        if id(cls) in self._attrs:
            return self._attrs[id(cls)]
        out = _Bindings()
        for stmt in cls.body:
            for target, value in _assigned(stmt):
                if isinstance(target, ast.Name):
                    out.bind(target.id, value, Scope())
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            inner = Scope().enter(stmt, cls)
            me = inner.self_name
            if me is None:
                continue
            plain: dict[int, ast.expr] = {}
            for node in ast.walk(stmt):
                for target, value in _assigned(node):
                    if isinstance(target, ast.Attribute) and value is not None:
                        plain[id(target)] = value
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, (ast.Store, ast.Del))
                    and isinstance(node.value, ast.Name)
                    and node.value.id == me
                ):
                    value = plain.get(id(node))
                    out.bind(node.attr, value, inner if value is not None else None)
                owner = _mutated(node)
                if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == me:
                    out.bind(owner.attr)
        self._attrs[id(cls)] = out
        return out


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else "?"


def _is_environment(node: ast.AST) -> bool:
    """`os.getenv("X", "me")`, `os.environ.get(...)`, `os.environ["X"]`: the
    environment of the machine that reads the definition (an Airflow worker, an
    installer), which is not this one: its default is no more its value than
    any other."""
    if isinstance(node, ast.Call):
        return _dotted(node.func) in ENV_GETTERS or _dotted(node.func) == "getenv"
    return isinstance(node, ast.Subscript) and _dotted(node.value) == "os.environ"


def _is_path_join(node: ast.AST) -> bool:
    """`os.path.join(...)`, also as `path.join` (`from os import path`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "path"
    )


# -- bindings --------------------------------------------------------------------------


class _Bindings:
    """Every binding of the names (or `self` attributes) of one scope: how many, and
    the value of a plain `x = value` / `x: T = value`, with where it is read when
    that is not the scope's own body."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.value: dict[str, tuple[ast.expr, Scope | None]] = {}
        self.defined: set[str] = set()  # bound by `def`, `class` or `import` (the evaluator's)

    def bind(self, name: str, value: ast.expr | None = None, scope: Scope | None = None) -> None:
        self.count[name] = self.count.get(name, 0) + 1
        if value is not None:
            self.value[name] = (value, scope)

    def single(self, name: str, scope: Scope | None = None) -> _Bound | None:
        """The one binding of `name` to a value, read in its own scope or `scope`."""
        found = self.value.get(name) if self.count.get(name) == 1 else None
        if found is None or (found[1] or scope) is None:
            return None
        return _Bound(found[0], found[1] or scope)  # type: ignore[arg-type]

    def found(self, name: str, scope: Scope) -> object:
        single = self.single(name, scope)
        return single if single is not None else Unknown(f"`{name}` is not bound once to a value")


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of a scope's statements, not those of the scopes it defines (a
    nested `def` or class is there, as the name it binds)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _assigned(node: ast.AST) -> list[tuple[ast.expr, ast.expr | None]]:
    """(target, value) of an assignment: the value only for a plain one."""
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return [(node.target, node.value)]
    return []


def _mutated(node: ast.AST) -> ast.expr | None:
    """The object a statement changes in place: `x.append(...)`, `x[k] = v`, `del x[k]`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
        return node.func.value
    if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return node.value
    return None


def _scope_bindings(body: list[ast.stmt], params: list[str]) -> _Bindings:
    """The bindings of a scope's own statements; the values are read in the scope
    `_Bindings.at` gives them."""
    out = _Bindings()
    for name in params:
        out.bind(name)
    plain: dict[int, ast.expr] = {}
    for node in _own_nodes(body):
        for target, value in _assigned(node):
            if isinstance(target, ast.Name) and value is not None:
                plain[id(target)] = value
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.bind(node.id, plain.get(id(node)))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.bind(node.name)
            out.defined.add(node.name)
        elif isinstance(node, ast.alias):
            out.bind((node.asname or node.name).split(".")[0])
            out.defined.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                out.bind(name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.bind(node.name)
        owner = _mutated(node)
        if isinstance(owner, ast.Name):
            out.bind(owner.id)
    return out


def _params(fn: Function) -> list[str]:
    a = fn.args
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    names += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    return names
