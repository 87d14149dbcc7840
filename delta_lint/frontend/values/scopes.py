"""What the names of a module or function hold at a statement, on the evaluator.

A reader of definitions written in Python (jobs made with the Databricks SDK,
Lakeflow pipelines) asks what an argument of a call holds where the call is. `Scopes` answers on
`evaluator.Evaluator` itself, so the answer joins where paths join and stops where
the file's budget stops: the statements of the scope holding the call (the module,
or the function, its parameters unknown) are read in order up to it, with the
evaluator's `if`/`else`, loops and `try`, and the names hold there what every way
that reaches it leaves (one of several values, or unknown; never one way picked).

What the reader adds to the evaluator:

- the names at a statement (`at`), joined over every time a way reaches it, or
  each time apart (`every`: a Lakeflow pipeline defines a dataset once per item
  of a loop over known items, once per call of a factory function);
- `self` in a method: the object its class builds (`Made`), its attributes those the
  class body and `__init__` set, each joined with what any other method of the class
  sets it to (when that method runs is not known); an attribute changed in place
  (`self.tasks.append(...)`) is unknown. `self.x = v` sets the attribute on a copy
  of the object (other names holding the object forget it), so the two ways of an
  `if` hold two objects, joined attribute by attribute;
- a statement that may raise (`assert`, a call of a helper that raises on some
  ways) ends no way at this level: the names it binds are unknown and the reading
  goes on, as the ways where it does not raise do;
- values whose lists and dicts keep the items that are not known (`value`): a
  document with one setting only a run knows is still a document; a list or dict
  the code changed in place is unknown;
- a `hook` that reads a reader's own kinds of expression first (PASS for the
  others), its parts through `read`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from delta_lint.frontend.values.brains import CHANGES_IN_PLACE
from delta_lint.frontend.values.budget import Budget, OutOfBudget, TooBig
from delta_lint.frontend.values.evaluator import Evaluator, Made, Module, bound_names, changed_names
from delta_lint.frontend.values.lattice import NoValue, OneOf, Unknown, alternatives

# the hook's answer for a node it does not read itself
PASS = object()
Function = ast.FunctionDef | ast.AsyncFunctionDef
Hook = Callable[["Scopes", ast.expr, dict[str, object], int], object]

_PARAMETER = Unknown("a parameter")
_ENCLOSING = Unknown("a name of an enclosing function")
_NOT_REACHED = Unknown("a statement the reading does not reach")
UNKNOWN_OBJECT = Unknown("no object")


class Scopes(Evaluator):
    """The values of one module's expressions where they are (see the module
    docstring). `hook(scopes, node, env, depth)` reads a reader's own kinds of node
    first."""

    def __init__(self, tree: ast.Module, path: str, budget: Budget, hook: Hook | None = None) -> None:
        super().__init__(Module.of(tree, path), {}, budget)
        self.tree, self.path, self.hook = tree, path, hook
        self._watch: set[int] = set()
        self._seen: dict[int, Point] = {}
        self._lenient = False
        self._instances: dict[int, object] = {}
        self._every: dict[int, list[Point]] | None = None  # each time a way reaches a watched statement
        self._kept: set[int] = set()  # watched definitions of the module's top level (`every`)

    # -- the public questions -------------------------------------------------------

    def at(self, statements: list[ast.stmt], scope: list[ast.AST]) -> dict[int, Point]:
        """The names at each of `statements` (by `id`), all inside the innermost of
        `scope` (the functions and classes around them, outermost first; empty: the
        module's top level), read from the start of that function or module. A
        statement no way reaches is missing."""
        fn = next((n for n in reversed(scope) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
        env: dict[str, object] = {}
        if fn is None:
            body = [s for s in self.tree.body if not isinstance(s, _DEFINITIONS) or id(s) in self._kept]
        else:
            body = fn.body
            outer = [n for n in scope[: scope.index(fn)] if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            for enclosing in outer:  # a closure's names: what they hold when it runs is not known
                for stmt in enclosing.body:
                    env.update(dict.fromkeys(bound_names(stmt), _ENCLOSING))
                env.update(dict.fromkeys(_params(enclosing), _ENCLOSING))
            env.update(dict.fromkeys(_params(fn), _PARAMETER))
            cls = scope[scope.index(fn) - 1] if scope.index(fn) > 0 else None
            me = _self_name(fn) if isinstance(cls, ast.ClassDef) else None
            if me is not None:
                env[me] = self.instance(cls)  # type: ignore[arg-type]
        # each reading starts from what the module and the objects hold: what one
        # reading hands to calls not followed is no change another one sees
        before = set(self._changed)
        self._watch, self._seen = {id(s) for s in statements}, {}
        try:
            self._read_body(fn, body, env)
        finally:
            self._watch, self._changed = set(), before
        return self._seen

    def every(self, statements: list[ast.stmt], scope: list[ast.AST]) -> dict[int, list[Point]]:
        """The names at each of `statements` (by `id`) each time a way reaches it, not
        joined: a loop over known items reaches a statement of its body once per item,
        a function of the module once per call the reading follows (the statements of
        the functions it calls are watched too). The ways of an `if` are joined where
        they meet, as in `at`; a definition of the module's top level among
        `statements` is reached where it is written (its decorators are read there)."""
        fn = any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in scope)
        kept = set() if fn else {id(s) for s in statements if isinstance(s, _DEFINITIONS)}
        outer, self._every, self._kept = (self._every, self._kept), {}, kept
        try:
            self.at(statements, scope)
            return self._every
        finally:
            self._every, self._kept = outer

    def within(
        self, statements: list[ast.stmt], body: list[ast.stmt], at: Point, fn: Function | None
    ) -> dict[int, Point]:
        """The names at each of `statements` (by `id`), all inside `body`, read from the
        names at a point: a reader that reads a body once per value itself (a loop's
        round, its names bound to one item; a function's body, its parameters bound to
        one call's arguments) starts from the names where the body is and binds
        those. `fn` is the function whose body holds `body` (None: the module)."""
        env = dict(at.env)
        before = set(self._changed)
        self._changed = before | at.changed
        self._watch, self._seen = {id(s) for s in statements}, {}
        try:
            self._read_body(fn, body, env)
        finally:
            self._watch, self._changed = set(), before
        return self._seen

    def joined(self, points: list[Point]) -> Point:
        """The names at a statement over every time a way reaches it (`every`'s
        points of one statement), joined as `at` joins them."""
        if len(points) == 1:
            return points[0]
        changed = frozenset().union(*(p.changed for p in points))
        return Point(self._join_envs([p.env for p in points]), changed)

    def value(self, node: ast.expr, at: Point) -> object:  # type: ignore[override]
        """What `node` holds at a point (see `at`): a value of the lattice whose lists
        and dicts may hold unknown items; a list or dict the code changed in place
        before that point is unknown (what the statement itself then does to them is
        not). Once the budget is spent `OutOfBudget` is raised."""
        later = self._changed
        self._changed = set(at.changed)
        try:
            return self._settled_parts(self._expr(node, dict(at.env), 0), 0)
        except OutOfBudget:
            raise
        except TooBig as err:
            self.budget.note(self.path, getattr(node, "lineno", 0), str(err))
            return Unknown(str(err))
        except (NoValue, RecursionError, ValueError, TypeError, IndexError, KeyError, AttributeError):
            return Unknown("the code raises, or may")
        except (OverflowError, MemoryError):
            return Unknown("the code raises, or may")
        finally:
            self._changed = later | self._changed

    def read(self, node: ast.expr, env: dict[str, object], depth: int) -> object:
        """What a part of an expression holds, within a reading (a hook's parts)."""
        return self._expr(node, env, depth)

    def lift(self, operation: Callable[..., object], *operands: object) -> object:
        """`operation` once per combination of the operands' alternatives, joined."""
        return self._lift(operation, *operands)

    def operate(self, op: ast.operator, left: object, right: object) -> object:
        """`left op right` as the evaluator does it (once per alternative)."""
        return self._lift(lambda a, b: self._binop(op, a, b), left, right)

    def instance(self, cls: ast.ClassDef) -> object:
        """The object `self` is in a method of `cls` (see the module docstring)."""
        if id(cls) in self._instances:
            return self._instances[id(cls)]
        self._instances[id(cls)] = Unknown("an object read while it is built")
        watched, self._watch = self._watch, set()  # the methods read here are not the reading asked
        try:
            out = self._instance(cls)
        finally:
            self._watch = watched
        self._instances[id(cls)] = out
        return out

    def _instance(self, cls: ast.ClassDef) -> object:
        fields: dict[str, object] = {}
        for stmt in cls.body:
            target = _plain_target(stmt)
            if target is not None:
                fields[target] = self._quiet_value(stmt.value, {})  # type: ignore[attr-defined]
        methods = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
        init = next((m for m in methods if m.name == "__init__"), None)
        built: object = Made(cls.name, fields)
        if init is not None:
            built = self._after(init, built)
        others: dict[str, list[object]] = {}
        before = set(self._changed)
        for method in methods:
            bound, changed = _attributes_set(method)
            if method is init or not (bound or changed):
                continue
            after = self._after(method, built)
            for name in bound:
                others.setdefault(name, []).extend(_field(each, name) for each in alternatives(after))
            for name in changed:
                others.setdefault(name, []).append(Unknown(f"`self.{name}` changed in place by a method"))
        # what the other methods hand to calls not followed is theirs: when they run
        # is not known, and what they change in place is unknown above
        self._changed = before
        out: object = built
        if others:
            merged = []
            for each in alternatives(built):
                if not isinstance(each, Made):
                    merged.append(each)
                    continue
                held = dict(each.fields)
                for name, values in others.items():
                    held[name] = self._join(([held[name]] if name in held else []) + values)
                merged.append(Made(each.cls, held))
            out = self._join(merged)
        return out

    # -- the evaluator, extended -------------------------------------------------------

    def _value_of(self, node: ast.expr, env: dict[str, object], depth: int) -> object:
        if self.hook is not None:
            got = self.hook(self, node, env, depth)
            if got is not PASS:
                return got
        return super()._value_of(node, env, depth)

    def _stmt(self, stmt: ast.stmt, env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        if id(stmt) in self._watch:
            seen = self._seen.get(id(stmt))
            here = Point(dict(env), frozenset(self._changed))
            self._seen[id(stmt)] = (
                here if seen is None else Point(self._join_envs([seen.env, here.env]), seen.changed | here.changed)
            )
            if self._every is not None:
                self._every.setdefault(id(stmt), []).append(here)
            if id(stmt) in self._kept and not depth:
                return [], True  # a definition of the module: the module's, not a name bound here
        return super()._stmt(stmt, env, depth)

    def _import(self, depth: int) -> None:
        """The module's top level read for the values of its names (a name a reading
        needs before its own reading binds it): not a time a way reaches a watched
        statement, whose names there are those of the reading asked."""
        watched, self._watch = self._watch, set()
        try:
            super()._import(depth)
        finally:
            self._watch = watched

    def _block(self, body: list[ast.stmt], env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        if not self._lenient or depth:
            return super()._block(body, env, depth)
        returned: list[object] = []
        for stmt in body:
            try:
                values, falls = self._stmt(stmt, env, depth)
            except (NoValue, TooBig) as err:
                if isinstance(stmt, ast.Raise):
                    return returned, False
                if isinstance(err, TooBig):
                    self.budget.note(self.path, stmt.lineno, str(err))
                self._forget(stmt, env)  # the ways where it does not raise go on
                continue
            returned += values
            if not falls:
                return returned, False
        return returned, True

    def _join(self, values: list[object]) -> object:
        """The evaluator's join; two objects of one class built on different ways
        are one object whose attributes are joined one by one."""
        made = [v for v in values if isinstance(v, Made)]
        if len(made) == len(values) > 1 and len({m.cls for m in made}) == 1 and any(m is not made[0] for m in made):
            names = dict.fromkeys(n for m in made for n in m.fields)
            fields = {n: self._join([m.fields[n] for m in made if n in m.fields]) for n in names}
            return Made(made[0].cls, fields)
        return super()._join(values)

    # -- helpers -----------------------------------------------------------------------

    def _read_body(self, fn: Function | None, body: list[ast.stmt], env: dict[str, object]) -> tuple[list, bool]:
        """Read a function's (or the module's) statements at this level, leniently."""
        outer = self._walrus, self._locals, self._lenient
        if fn is not None:
            walrus, _, local = self._shape(fn)  # type: ignore[arg-type]
        else:
            walrus, local = any(isinstance(n, ast.NamedExpr) for s in body for n in ast.walk(s)), frozenset()
        self._walrus, self._locals, self._lenient = walrus, local, True
        try:
            return self._block(body, env, 0)
        except (NoValue, RecursionError, ValueError, TypeError, IndexError, KeyError, AttributeError):
            return [], False
        except (OverflowError, MemoryError, TooBig):
            return [], False
        finally:
            self._walrus, self._locals, self._lenient = outer

    def _after(self, method: Function, built: object) -> object:
        """The object `self` is after `method` runs on `built` (unknown when it
        cannot be read, or its `self` is rebound)."""
        me = _self_name(method)
        if me is None:
            return built
        env: dict[str, object] = dict.fromkeys(_params(method), _PARAMETER)
        env[me] = built
        _, falls = self._read_body(method, method.body, env)
        after = env.get(me, _NOT_REACHED)
        return after if falls and all(isinstance(a, Made) for a in alternatives(after)) else Unknown("`self` not read")

    def _forget(self, stmt: ast.stmt, env: dict[str, object]) -> None:
        """What a statement that may raise binds, or sets on an object a name holds,
        is unknown. An object the evaluator built that the statement only sets or
        changes attributes of (`self.clusters = [...]`, not handing it to a call)
        stays that object, those attributes unknown and the lists and dicts it
        holds changed; any other name it changes is unknown."""
        bound = bound_names(stmt)
        kept = {
            name
            for name in changed_names(stmt, handed=False)
            - bound
            - (changed_names(stmt) - changed_names(stmt, handed=False))
            if all(isinstance(each, Made) for each in alternatives(env.get(name, UNKNOWN_OBJECT)))
        }
        for name in (bound | changed_names(stmt)) - kept:
            self._change(env.get(name))
            env[name] = Unknown("bound by a statement that may raise")
        for name in kept:
            for each in alternatives(env[name]):
                for value in each.fields.values():  # type: ignore[attr-defined]
                    self._change(value)
        for node in ast.walk(stmt):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in env
            ):
                self._assign(node, Unknown("set by a statement that may raise"), env)

    def _quiet_value(self, node: ast.expr, env: dict[str, object]) -> object:
        try:
            return self._expr(node, dict(env), 0)
        except OutOfBudget:
            raise
        except Exception:  # noqa: BLE001 - a class attribute that raises is no value
            return Unknown("the code raises, or may")

    def _settled_parts(self, value: object, depth: int) -> object:
        """The value with every list or dict the code changed in place unknown."""
        if depth > 32:
            return Unknown("nested too deep")
        if isinstance(value, (list, dict)) and id(value) in self._changed:
            return Unknown("changed in place")
        if isinstance(value, list):
            return [self._settled_parts(v, depth + 1) for v in value]
        if type(value) is tuple:
            return tuple(self._settled_parts(v, depth + 1) for v in value)
        if isinstance(value, dict):
            return {k: self._settled_parts(v, depth + 1) for k, v in value.items()}
        if type(value) is OneOf:
            return OneOf(tuple(self._settled_parts(v, depth + 1) for v in value.values))
        return value


@dataclass(frozen=True)
class Point:
    """What the names hold at a statement, and the lists and dicts (by `id`) the
    code changed in place before it."""

    env: dict[str, object]
    changed: frozenset[int] = frozenset()


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def _params(fn: Function) -> list[str]:
    a = fn.args
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    return names + [p.arg for p in (a.vararg, a.kwarg) if p is not None]


def _self_name(fn: Function) -> str | None:
    """The name of a method's `self` (none for a static or class method)."""
    if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in fn.decorator_list):
        return None
    params = fn.args.posonlyargs + fn.args.args
    return params[0].arg if params else None


def _plain_target(stmt: ast.stmt) -> str | None:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
        return stmt.target.id
    return None


def _attributes_set(method: Function) -> tuple[set[str], set[str]]:
    """The attributes of `self` a method binds (`self.x = v`), and those it changes
    in place (`self.tasks.append(t)`, `self.conf["k"] = v`, `self.n += 1`)."""
    me = _self_name(method)
    bound: set[str] = set()
    changed: set[str] = set()
    if me is None:
        return bound, changed

    def mine(node: ast.expr) -> str | None:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == me:
                return node.attr
            node = node.value
        return None

    # local names bound to an attribute (`tasks = self.tasks`): a change through one is the attribute's
    aliases = {
        node.targets[0].id: name
        for node in ast.walk(method)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        if (name := mine(node.value)) is not None
    }

    def mine_or_alias(node: ast.expr) -> str | None:
        while isinstance(node, (ast.Attribute, ast.Subscript)) and mine(node) is None:
            node = node.value
        return aliases.get(node.id) if isinstance(node, ast.Name) else mine(node)

    for node in ast.walk(method):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CHANGES_IN_PLACE:
            name = mine_or_alias(node.func.value)
        elif isinstance(node, ast.AugAssign):
            name = mine_or_alias(node.target)
        elif isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            name = mine_or_alias(node)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == me:
                bound.add(node.attr)
                continue
        else:
            continue
        if name is not None:
            changed.add(name)
    return bound, changed


def _field(held: object, name: str) -> object:
    if isinstance(held, Made):
        return held.fields.get(name, Unknown(f"`self.{name}` not set"))
    return Unknown(f"`self.{name}` not known")
