"""Small value functions of the project evaluated on known arguments.

Real job code computes its table paths in functions of its own:
`load_config(env)` reads a YAML file that sits next to the code, and
`resolve_path(cloud_path, config)` rewrites a cloud path for the environment with
`if`s and a regular expression. When a call gives such a function only known
values, `Evaluator` interprets the function over Python's own values and gives
its result; the code is never imported or run. It interprets a small subset
without side effects: assignments, `if`, `with open(...)`, `return`, `for` over a
known sequence of up to MAX_LOOP items (other loops and `try` are not followed:
what they bind is unknown); string, number,
dict, list and path operations; `re`; `os.path`; `os.getenv` (the literal default:
no cluster's environment is read, but `DATABRICKS_RUNTIME_VERSION` is set on every
Databricks cluster); and `yaml`/`json` loads of a document of the project, which
the link stage gives (see `Context.documents`). Anything else makes the part it
decides `UNKNOWN`, and an unknown that decides a branch or a result makes the
whole result unknown. Where Python would raise (a missing key, `raise`, a failed
`assert`), or may (a `raise` in a loop the evaluator does not follow), the call
gives no value either; an error inside a call it does not follow (a library
function it does not know) is not seen.
"""

from __future__ import annotations

import ast
import operator
import posixpath
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import re2

from delta_lint.frontend.budget import (
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_TEXT,
    Budget,
    OutOfBudget,
    fits_int_bits,
    fits_items,
    fits_text,
)

# `__file__` of a module is this folder joined with the module's path relative to the
# configuration root: a file a function opens is a project document when its path,
# made normal, lies under it.
PROJECT_ROOT = "/__project__"
MAX_DEPTH = 6  # nested calls of the project's functions
MAX_LOOP = 256  # items of a known sequence a `for` loop is read over, turn by turn
MAX_PATTERN = 512  # longest regular expression evaluated
# environment variables every Databricks cluster sets: not None, value unknown
CLUSTER_VARIABLES = frozenset({"DATABRICKS_RUNTIME_VERSION"})


class _Unknown:
    """A value the evaluator cannot tell."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


class _Set:
    """An environment variable the cluster sets: true and not None, its text unknown."""


SET = _Set()


@dataclass(frozen=True)
class Opened:
    """`open(path)`: a file handle, read only by `yaml.safe_load`/`json.load`."""

    path: str


class _TooBig(Exception):
    """An operation would build a value past the sizes of `budget` (a string of
    billions of characters, a number of millions of digits): it is not done, and
    the call gives no known value."""


class _NoValue(Exception):
    """The code raises here (a missing key, `raise`, a failed `assert`), or may
    (a `raise` in a statement not followed): the call gives no value."""


class _View(tuple):
    """`d.keys()`, `.values()`, `.items()`: iterable and searchable like the view, but
    neither equal to a list or tuple nor subscriptable, as the view is not."""


@dataclass
class Module:
    """A module's top-level functions, imports and assignments, the latter evaluated
    when a function first reads the name."""

    path: str  # relative to the configuration root
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    assigned: dict[str, ast.expr] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # name -> dotted module or function
    values: dict[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, tree: ast.Module, path: str) -> Module:
        module = cls(path)
        rebound: set[str] = set()  # bound by a statement other than one simple assignment
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef):
                module.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                module.assigned[stmt.targets[0].id] = stmt.value
            elif isinstance(stmt, ast.Expr):
                # `TABLES.append("x")`, `fill(CONFIG)`: a module value it names may change
                rebound.update(n.id for n in ast.walk(stmt) if isinstance(n, ast.Name))
            elif not isinstance(stmt, (ast.Import, ast.ImportFrom, ast.ClassDef, ast.AsyncFunctionDef)):
                rebound.update(bound_names(stmt))
                for node in ast.walk(stmt):  # `CONFIG["k"] = v`: the dict it changes
                    if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
                        root = node.value
                        while isinstance(root, (ast.Subscript, ast.Attribute)):
                            root = root.value
                        if isinstance(root, ast.Name):
                            rebound.add(root.id)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    module.aliases[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
            elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
                for alias in stmt.names:
                    module.aliases[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"
        for stmt in tree.body:  # `global X` in a function: what it binds is not followed
            for node in ast.walk(stmt):
                if isinstance(node, ast.Global):
                    rebound.update(node.names)
        for name in rebound:
            module.values[name] = UNKNOWN
            module.functions.pop(name, None)
        module.values["__file__"] = f"{PROJECT_ROOT}/{path}"
        return module


def bound_names(stmt: ast.AST) -> set[str]:
    """Every name a statement may bind: assignment targets (a walrus too), loop and
    `with` targets, nested definitions, imports, `match` captures, `except ... as`."""
    out: set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not stmt:
            out.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
    return out


def truth(value: object) -> bool | _Unknown:
    if value is UNKNOWN:
        return UNKNOWN
    if value is SET:
        return True
    if isinstance(value, (str, int, float, bool, type(None), dict, list, tuple, PurePosixPath)):
        return bool(value)
    return True  # a pattern, a match, a file handle


def document_path(opened: str, module: str) -> str | None:
    """The project document an opened path names (relative to the configuration
    root): under PROJECT_ROOT, or relative to the module's folder (a notebook's
    working directory)."""
    if opened.startswith(PROJECT_ROOT + "/"):
        path = posixpath.normpath(opened)
        return path[len(PROJECT_ROOT) + 1 :] if path.startswith(PROJECT_ROOT + "/") else None
    if opened.startswith("/"):
        return None
    path = posixpath.normpath(posixpath.join(posixpath.dirname(module), opened))
    return None if path.startswith("..") else path


class Evaluator:
    """Evaluates calls of one module's functions (see the module docstring).
    `opened` collects the project documents the calls load (given or not yet)."""

    def __init__(self, module: Module, documents: Mapping[str, object], budget: Budget | None = None) -> None:
        self.module = module
        self.documents = documents
        # the file's budget (see `budget`), shared with every other reader of its values
        self.budget = budget if budget is not None else Budget()
        self.opened: set[str] = set()
        self._line = 0  # the line of the expression being evaluated (where a budget runs out)
        # ids of lists and dicts the code changes in place (or may: a call it is given
        # to that is not followed, a statement not followed that names it): they are
        # no longer the values known
        self._changed: set[int] = set()
        self._held: list[object] = []  # keeps those objects alive, so their ids stay theirs
        self._walrus = False  # the function being read binds names inside expressions
        self._locals: frozenset[str] = frozenset()  # the names local to the function being read
        self._shapes: dict[int, tuple[bool, bool, frozenset[str]]] = {}

    def call(self, name: str, args: list[object], kwargs: dict[str, object]) -> object:
        fn = self.module.functions.get(name)
        if fn is None:
            return UNKNOWN
        try:
            value = self._call(fn, args, kwargs, 0)
        except OutOfBudget as err:
            if str(err):  # the step that used the budget up (later calls fail at once)
                self.budget.note(self.module.path, self._line, str(err), lasting=True)
            return UNKNOWN
        except _TooBig as err:
            self.budget.note(self.module.path, self._line, str(err))
            return UNKNOWN
        except (_NoValue, RecursionError):
            return UNKNOWN
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError, MemoryError):
            # an operation Python itself refuses on these values (`s[::0]`): the code
            # would raise here, so it gives no value
            return UNKNOWN
        # a list or dict it holds that the code changed in place is not the one known
        if value is not SET and (self._uncertain(value) or _holds_view(value)):
            return UNKNOWN  # a dict view is no list or tuple to the caller
        return value

    def _uncertain(self, value: object) -> bool:
        """Whether a value is, or holds, something not known (a list or dict the code
        changed in place included)."""
        return _holds(
            value,
            lambda v: v is UNKNOWN or v is SET or (isinstance(v, (list, dict)) and id(v) in self._changed),
        )

    # -- functions and statements ---------------------------------------------------

    def _call(self, fn: ast.FunctionDef, args: list[object], kwargs: dict[str, object], depth: int) -> object:
        if depth >= MAX_DEPTH or fn.args.vararg or fn.args.kwarg or fn.decorator_list or self._shape(fn)[1]:
            return UNKNOWN  # a decorator or a `yield` makes the call something else
        params = fn.args.posonlyargs + fn.args.args
        if len(args) > len(params):
            return UNKNOWN
        names = {p.arg for p in params + fn.args.kwonlyargs}
        if set(kwargs) - names:
            raise _NoValue  # an unexpected keyword argument: a TypeError
        env: dict[str, object] = {}
        defaults = dict(zip([p.arg for p in params][len(params) - len(fn.args.defaults) :], fn.args.defaults))
        defaults.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
        for index, param in enumerate(params + fn.args.kwonlyargs):
            if index < len(args) and param in params:
                env[param.arg] = args[index]
            elif param.arg in kwargs:
                env[param.arg] = kwargs[param.arg]
            elif param.arg in defaults:
                caller, self._locals = self._locals, frozenset()  # defaults read the module's names
                try:
                    env[param.arg] = self._expr(defaults[param.arg], {}, depth)
                finally:
                    self._locals = caller
            else:
                return UNKNOWN  # a required argument the call does not give
        outer = self._walrus, self._locals
        self._walrus, self._locals = self._shape(fn)[0], self._shape(fn)[2]
        try:
            done, value = self._block(fn.body, env, depth)
        finally:
            self._walrus, self._locals = outer
        return value if done else None

    def _shape(self, fn: ast.FunctionDef) -> tuple[bool, bool, frozenset[str]]:
        """(binds names with `:=`, is a generator, its local names)."""
        if id(fn) not in self._shapes:
            nodes = list(ast.walk(fn))
            walrus = any(isinstance(n, ast.NamedExpr) for n in nodes)
            generator = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes)
            declared = {name for n in nodes if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
            local = set().union(*(bound_names(stmt) for stmt in fn.body)) if fn.body else set()
            local |= {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
            self._shapes[id(fn)] = (walrus, generator, frozenset(local - declared))
        return self._shapes[id(fn)]

    def _block(self, body: list[ast.stmt], env: dict[str, object], depth: int) -> tuple[bool, object]:
        """(returned, value) after the statements."""
        for stmt in body:
            done, value = self._stmt(stmt, env, depth)
            if done:
                return True, value
        return False, None

    def _stmt(self, stmt: ast.stmt, env: dict[str, object], depth: int) -> tuple[bool, object]:
        self.budget.step()  # every statement costs a step (a loop of `pass` too)
        self._line = stmt.lineno
        if isinstance(stmt, ast.Return):
            return True, None if stmt.value is None else self._expr(stmt.value, env, depth)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            if stmt.value is not None:
                value = self._expr(stmt.value, env, depth)
                for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                    self._assign(target, value, env)
            return False, None
        if isinstance(stmt, ast.AugAssign):
            current = self._expr(stmt.target, env, depth) if isinstance(stmt.target, ast.Name) else UNKNOWN
            value = self._binop(stmt.op, current, self._expr(stmt.value, env, depth))
            if isinstance(current, list):
                self._change(current)  # `xs += [...]` extends the list in place: other names see it
            self._assign(stmt.target, value, env)
            return False, None
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
                    owner, key = self._expr(target.value, env, depth), self._expr(target.slice, env, depth)
                    if isinstance(owner, dict) and isinstance(key, (str, int)) and key not in owner:
                        raise _NoValue  # `del d["missing"]`: a KeyError
                self._assign(target, UNKNOWN, env)
            return False, None
        if isinstance(stmt, ast.If):
            test = truth(self._expr(stmt.test, env, depth))
            if test is UNKNOWN:
                return self._undecided(stmt, env)
            return self._block(stmt.body if test else stmt.orelse, env, depth)
        if isinstance(stmt, ast.With):
            for item in stmt.items:
                value = self._expr(item.context_expr, env, depth)
                if item.optional_vars is not None:
                    self._assign(item.optional_vars, value if isinstance(value, Opened) else UNKNOWN, env)
            return self._block(stmt.body, env, depth)
        if isinstance(stmt, ast.Expr):
            self._expr(stmt.value, env, depth)  # `parts.append(x)`: what it changes is no longer known
            return False, None
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            env[stmt.name] = UNKNOWN  # a local definition: not the module's function of that name
            return False, None
        if isinstance(stmt, ast.Assert):
            if truth(self._expr(stmt.test, env, depth)) is not True:
                raise _NoValue  # fails, or may
            return False, None
        if isinstance(stmt, (ast.Pass, ast.Import, ast.ImportFrom)):
            return False, None
        if isinstance(stmt, ast.Raise):
            raise _NoValue
        if isinstance(stmt, ast.For) and not stmt.orelse and not _jumps(stmt.body):
            items = self._expr(stmt.iter, env, depth)
            if isinstance(items, dict):
                items = list(items)
            if isinstance(items, (list, tuple, str)) and len(items) <= MAX_LOOP and not self._uncertain(items):
                for item in list(items):  # a known, short sequence: each turn is read
                    self._assign(stmt.target, item, env)
                    done, value = self._block(stmt.body, env, depth)
                    if done:
                        return True, value
                return False, None
        return self._undecided(stmt, env)  # loops, try, match: what they bind is not followed

    def _undecided(self, stmt: ast.stmt, env: dict[str, object]) -> tuple[bool, object]:
        """A statement whose effect is not known: the names it binds become unknown,
        so do the lists and dicts it names (it may change them), and a `return` or
        `raise` inside it makes the result unknown."""
        returns = False
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Raise, ast.Assert)):
                raise _NoValue  # it may raise: no value can be told
            if isinstance(node, ast.Return):
                returns = True
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                # only to find the lists and dicts it names: its own loop variable is no
                # unbound local here
                self._change(self._name(node.id, env, MAX_DEPTH, bound_only=False))
        for name in bound_names(stmt):
            env[name] = UNKNOWN
        return (True, UNKNOWN) if returns else (False, None)

    def _change(self, value: object, depth: int = 0) -> None:
        """The list or dict, and those it holds (a call may change any of them), are
        no longer the values known."""
        if isinstance(value, (list, dict)) and depth <= 32 and id(value) not in self._changed:
            self._changed.add(id(value))
            self._held.append(value)
            for inner in value.values() if isinstance(value, dict) else value:
                self._change(inner, depth + 1)

    def _known(self, value: object) -> object:
        """The value, or UNKNOWN when it is a list or dict the code may have changed."""
        if isinstance(value, (list, dict)) and id(value) in self._changed:
            return UNKNOWN
        return value

    def _assign(self, target: ast.expr, value: object, env: dict[str, object]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if _plain_scalar(value) and not isinstance(value, str):
                raise _NoValue  # `a, b = 5`: a number is not iterable
            values = list(value) if isinstance(value, (tuple, list, str)) else None
            starred = any(isinstance(t, ast.Starred) for t in target.elts)
            if values is not None and not starred and len(values) != len(target.elts):
                raise _NoValue  # too many or too few values to unpack
            if starred or values is None:
                values = [UNKNOWN] * len(target.elts)
            for t, v in zip(target.elts, values):
                self._assign(t.value if isinstance(t, ast.Starred) else t, v, env)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            # `d["a"] = x`, `cfg["parts"][0] = x`: the containers on the way are changed
            # in place (also where another name holds them): not followed
            node: ast.expr = target
            while isinstance(node, (ast.Subscript, ast.Attribute)):
                node = node.value
                if isinstance(node, ast.Name):
                    self._change(self._name(node.id, env, MAX_DEPTH))
                    if node.id in env:
                        env[node.id] = UNKNOWN
                else:
                    self._change(self._quiet(node, env))

    def _quiet(self, node: ast.expr, env: dict[str, object]) -> object:
        try:
            return self._expr(node, env, MAX_DEPTH)
        except (OutOfBudget, _TooBig, _NoValue):
            raise
        except Exception:  # noqa: BLE001 - only to find the container a store changes
            return UNKNOWN

    # -- expressions --------------------------------------------------------------

    def _expr(self, node: ast.expr, env: dict[str, object], depth: int) -> object:
        value = self._value_of(node, env, depth)
        if value is UNKNOWN and self._walrus:
            # a part not read (after an unknown value, in a comprehension) may bind a
            # name with `:=`: that name is no longer known
            for inner in ast.walk(node):
                if isinstance(inner, ast.NamedExpr) and isinstance(inner.target, ast.Name):
                    env[inner.target.id] = UNKNOWN
        return value

    def _value_of(self, node: ast.expr, env: dict[str, object], depth: int) -> object:
        self.budget.step()
        self._line = getattr(node, "lineno", self._line)
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, (str, int, float, bool, type(None))) else UNKNOWN
        if isinstance(node, ast.Name):
            return self._known(self._name(node.id, env, depth))
        if isinstance(node, ast.NamedExpr):
            value = self._expr(node.value, env, depth)
            self._assign(node.target, value, env)
            return value
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, env, depth)
        if isinstance(node, ast.BinOp):
            return self._binop(node.op, self._expr(node.left, env, depth), self._expr(node.right, env, depth))
        if isinstance(node, ast.BoolOp):
            value: object = None
            for part in node.values:
                value = self._expr(part, env, depth)
                test = truth(value)
                if test is UNKNOWN:
                    return UNKNOWN
                if test == isinstance(node.op, ast.Or):
                    return value
            return value
        if isinstance(node, ast.UnaryOp):
            operand = self._expr(node.operand, env, depth)
            if isinstance(node.op, ast.Not):
                test = truth(operand)
                return UNKNOWN if test is UNKNOWN else not test
            if isinstance(node.op, ast.USub) and _number(operand):
                return -operand  # type: ignore[operator]
            return UNKNOWN
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self._expr(node.left, env, depth), self._expr(node.comparators[0], env, depth)
            if isinstance(node.ops[0], (ast.Is, ast.IsNot)) and right is None and left is not UNKNOWN:
                return (left is None) == isinstance(node.ops[0], ast.Is)  # the cluster's `SET` is not None
            if self._uncertain(left) or self._uncertain(right):
                return UNKNOWN
            return _compare(node.ops[0], left, right)
        if isinstance(node, ast.IfExp):
            test = truth(self._expr(node.test, env, depth))
            if test is UNKNOWN:
                return UNKNOWN
            return self._expr(node.body if test else node.orelse, env, depth)
        if isinstance(node, ast.Subscript):
            owner = self._expr(node.value, env, depth)
            return self._known(_index(owner, node.slice, lambda n: self._expr(n, env, depth)))
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self._expr(e, env, depth) for e in node.elts if not isinstance(e, ast.Starred)]
            if len(items) != len(node.elts):
                return UNKNOWN
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                key = self._expr(k, env, depth) if k is not None else UNKNOWN
                if not isinstance(key, (str, int)):
                    return UNKNOWN
                out[key] = self._expr(v, env, depth)
            return out
        if isinstance(node, ast.Attribute):
            dotted = self._dotted(node.value, env)
            if dotted is not None:  # `re.IGNORECASE`: a module's constant
                return _RE_CONSTANTS.get(f"{dotted}.{node.attr}", UNKNOWN)
            return _attribute(self._expr(node.value, env, depth), node.attr)
        if isinstance(node, ast.Call):
            return self._call_expr(node, env, depth)
        return UNKNOWN

    def _name(self, name: str, env: dict[str, object], depth: int, bound_only: bool = True) -> object:
        if name in env:
            return env[name]
        if name in self._locals:
            if not bound_only:
                return UNKNOWN
            raise _NoValue  # a local name read before it is bound: an UnboundLocalError
        module = self.module
        if name in module.values:
            return module.values[name]
        if name in module.assigned:
            module.values[name] = UNKNOWN  # a definition that reads itself
            module.values[name] = self._expr(module.assigned[name], {}, depth)
            return module.values[name]
        return UNKNOWN

    def _fstring(self, node: ast.JoinedStr, env: dict[str, object], depth: int) -> object:
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
                continue
            if not isinstance(part, ast.FormattedValue):
                return UNKNOWN
            value = self._expr(part.value, env, depth)
            if not _plain_scalar(value):
                return UNKNOWN
            spec = self._fstring(part.format_spec, env, depth) if part.format_spec is not None else ""
            if not isinstance(spec, str) or not _small_spec(spec):
                return UNKNOWN
            converted = {ord("r"): repr, ord("s"): str, ord("a"): ascii}.get(part.conversion)
            try:  # `!r` and friends first, then the spec applies to that text
                shown = format(converted(value) if converted else value, spec)
            except (ValueError, TypeError) as err:
                raise _NoValue from err  # the value refuses the spec, in Python too
            out.append(shown)
        return _text("".join(out))

    def _binop(self, op: ast.operator, left: object, right: object) -> object:
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if isinstance(op, ast.Add) and (isinstance(left, str) != isinstance(right, str)):
            if _plain_scalar(left) and _plain_scalar(right):
                raise _NoValue  # `"a" + 1`: a TypeError
        if isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) and _number(left) and right == 0:
            raise _NoValue  # ZeroDivisionError
        if isinstance(op, ast.Add):
            if isinstance(left, str) and isinstance(right, str):
                _check_text(len(left) + len(right))
                return left + right
            if isinstance(left, list) and isinstance(right, list):
                _check_items(len(left) + len(right))
                return left + right
            if _number(left) and _number(right):
                return left + right  # type: ignore[operator]
            if not (_plain(left) and _plain(right)):
                return UNKNOWN
            # other plain values: Python's refusal (`[] + d.keys()`) is checked below
        if isinstance(op, ast.Div) and isinstance(left, PurePosixPath) and isinstance(right, (str, PurePosixPath)):
            return left / right
        if isinstance(op, ast.Mod) and isinstance(left, str) and isinstance(right, _View):
            return UNKNOWN  # `"%s" % d.keys()` shows the view
        if isinstance(op, ast.Mod) and isinstance(left, str):
            if re.search(r"%[-#0 +]*(\d{4,}|\d*\.\d{4,})", left):
                return UNKNOWN  # a width that would build a huge string
            values = tuple(right) if isinstance(right, tuple) else right
            if not all(_plain_scalar(v) for v in (values if isinstance(values, tuple) else (values,))):
                return UNKNOWN
            if "*" in left:  # `"%*s" % (n, x)`: a width (or precision) given as a value
                for value in values if isinstance(values, tuple) else (values,):
                    if _number(value) and abs(value) > MAX_TEXT:  # type: ignore[arg-type]
                        raise _TooBig(f"a `%*` width or precision of {_short(value)}, past {MAX_TEXT:,} characters")
            try:
                return _text(left % values)
            except (TypeError, ValueError, KeyError) as err:
                raise _NoValue from err
        if _number(left) and _number(right) and abs(left) < 10**12 and abs(right) < 10**12:  # type: ignore[operator]
            try:
                if isinstance(op, ast.Sub):
                    return left - right  # type: ignore[operator]
                if isinstance(op, ast.Mult):
                    return left * right  # type: ignore[operator]
                if isinstance(op, ast.FloorDiv):
                    return left // right  # type: ignore[operator]
                if isinstance(op, ast.Div):
                    return left / right  # type: ignore[operator]
            except ZeroDivisionError as err:
                raise _NoValue from err
        if isinstance(op, ast.BitOr) and _integer(left) and _integer(right):
            return left | right  # type: ignore[operator]  # `re.I | re.M`
        if isinstance(op, ast.Mult):
            repeated = _repeat(left, right)
            if repeated is not UNKNOWN:
                return repeated
        if isinstance(op, ast.Pow) and _integer(left) and _integer(right) and right >= 0:  # type: ignore[operator]
            # the result has at most `right` times the bits of `left`: never computed past the limit
            if abs(left) > 1 and not fits_int_bits(right * abs(left).bit_length()):  # type: ignore[arg-type]
                raise _TooBig(f"an integer of more than {MAX_INT_BITS:,} bits (`{_short(left)} ** {_short(right)}`)")
            return left**right  # type: ignore[operator]
        if _plain(left) and _plain(right) and type(op) in _SCALAR_OPS:
            if isinstance(op, (ast.Mult, ast.Pow)) and not (_plain_scalar(left) and _plain_scalar(right)):
                return UNKNOWN  # `[x] * n`: defined, not followed
            if isinstance(op, ast.Mult) and (isinstance(left, str) or isinstance(right, str)):
                return UNKNOWN  # `"ab" * n`: defined, not followed
            try:  # what Python does with these two plain values, when it refuses them
                _SCALAR_OPS[type(op)](left, right)
            except TypeError as err:
                raise _NoValue from err
            except (ArithmeticError, ValueError):
                raise _NoValue from None
        return UNKNOWN

    def _dotted(self, node: ast.expr, env: dict[str, object]) -> str | None:
        """`os.path` (or an alias of it) as a dotted module name; None for values."""
        if isinstance(node, ast.Name):
            if node.id in env or node.id in self.module.assigned or node.id in self.module.functions:
                return None
            return self.module.aliases.get(node.id, node.id if node.id in _MODULES else None)
        if isinstance(node, ast.Attribute):
            owner = self._dotted(node.value, env)
            return f"{owner}.{node.attr}" if owner is not None else None
        return None

    def _call_expr(self, node: ast.Call, env: dict[str, object], depth: int) -> object:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return UNKNOWN
        args = [self._expr(a, env, depth) for a in node.args]
        kwargs = {k.arg: self._expr(k.value, env, depth) for k in node.keywords if k.arg}
        func = node.func
        if isinstance(func, ast.Name) and func.id not in env:
            fn = self.module.functions.get(func.id)
            if fn is not None:
                return self._call(fn, args, kwargs, depth + 1)
            dotted = self.module.aliases.get(func.id, func.id)
            return self._unfollowed(self._library(dotted, args, kwargs), args, kwargs)
        if isinstance(func, ast.Attribute):
            dotted = self._dotted(func.value, env)
            if dotted is not None:
                return self._unfollowed(self._library(f"{dotted}.{func.attr}", args, kwargs), args, kwargs)
            owner = self._expr(func.value, env, depth)
            result = _method(owner, func.attr, args, kwargs)
            if isinstance(owner, (list, dict)) and func.attr not in _READ_ONLY:
                self._change(owner)  # `parts.append(x)`, `d.pop("a")`
            return self._unfollowed(result, args, kwargs)
        return self._unfollowed(UNKNOWN, args, kwargs)

    def _unfollowed(self, result: object, args: list[object], kwargs: dict[str, object]) -> object:
        """A call whose result is not known may have changed the lists and dicts it
        was given."""
        if result is UNKNOWN:
            for value in [*args, *kwargs.values()]:
                self._change(value)
        return result

    def _library(self, name: str, args: list[object], kwargs: dict[str, object]) -> object:
        """A call of the standard library (or yaml) by its dotted name."""
        if any(a is UNKNOWN for a in args) and name not in ("os.getenv", "os.environ.get"):
            return UNKNOWN
        if name in ("os.getenv", "os.environ.get"):
            key = args[0] if args else kwargs.get("key")
            if key in CLUSTER_VARIABLES:
                return SET
            default = args[1] if len(args) > 1 else kwargs.get("default", UNKNOWN)
            return default if isinstance(default, str) else UNKNOWN
        if name in _PATH_FUNCTIONS and args and all(isinstance(a, (str, PurePosixPath)) for a in args):
            return _PATH_FUNCTIONS[name](*[str(a) for a in args])
        if name in _PATH_FUNCTIONS and any(_plain_scalar(a) and not isinstance(a, str) for a in args):
            raise _NoValue  # `os.path.join(s, 1)`: a TypeError
        if name in ("pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "Path") and args:
            if all(isinstance(a, (str, PurePosixPath)) for a in args):
                return PurePosixPath(*[str(a) for a in args])
            return UNKNOWN
        if name == "open" and args and isinstance(args[0], (str, PurePosixPath)):
            return Opened(str(args[0]))
        if name in DOCUMENT_LOADERS and args:
            return self._load(args[0])
        if name.startswith("re.") and name[3:] in _RE_FUNCTIONS:
            return _regex(name[3:], args, kwargs)
        if name in _BUILTINS:
            return _BUILTINS[name](args)
        return UNKNOWN

    def _load(self, handle: object) -> object:
        if not isinstance(handle, Opened):
            return UNKNOWN
        path = document_path(handle.path, self.module.path)
        if path is None:
            return UNKNOWN
        self.opened.add(path)
        if path not in self.documents:
            return UNKNOWN
        return self.documents[path]


# binary operators checked on plain values for the TypeError Python raises (`"a" - 1`);
# only ever run on operands whose result would not be large (no `str * int` here)
_SCALAR_OPS = {
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Add: operator.add,
    ast.Mod: operator.mod,
    ast.Pow: lambda a, b: None if _number(a) and _number(b) else operator.pow(a, b),
}
_MODULES = frozenset({"os", "re", "yaml", "json", "posixpath", "pathlib"})
_READ_ONLY = frozenset({"get", "keys", "values", "items", "copy", "count", "index"})
DOCUMENT_LOADERS = frozenset({"yaml.safe_load", "yaml.load", "yaml.full_load", "json.load"})
_RE_FUNCTIONS = frozenset({"compile", "match", "fullmatch", "search", "sub", "findall", "split"})


def _normpath(path: str) -> str:
    return posixpath.normpath(path)


def _absolute(path: str) -> object:
    """An absolute path made normal; a relative one joins a working directory not known."""
    return posixpath.normpath(path) if path.startswith("/") else UNKNOWN


_PATH_FUNCTIONS = {
    "os.path.join": posixpath.join,
    "posixpath.join": posixpath.join,
    "os.path.dirname": posixpath.dirname,
    "os.path.basename": posixpath.basename,
    "os.path.normpath": _normpath,
    "os.path.abspath": _absolute,  # the module's path is already absolute (PROJECT_ROOT)
    "os.path.realpath": _absolute,
}


def _small_spec(spec: str) -> bool:
    """A format spec without a width or precision large enough to build a huge string."""
    return not re.search(r"\d{4,}", spec)


def _plain(value: object) -> bool:
    """A plain value or container (what Python's operators can be tried on cheaply)."""
    return _plain_scalar(value) or isinstance(value, (list, tuple, dict))


def _plain_scalar(value: object) -> bool:
    return isinstance(value, (str, int, float, bool, type(None)))


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value: str) -> str:
    """A string an operation built (its size checked before, where it could be large)."""
    if not fits_text(len(value)):
        raise _TooBig(f"a string of more than {MAX_TEXT:,} characters")
    return value


def _check_items(count: int) -> None:
    """Refuse to build a list or tuple of this many items past MAX_ITEMS (before building it)."""
    if not fits_items(count):
        raise _TooBig(f"a list of {count:,} items (more than {MAX_ITEMS:,})")


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: object) -> str:
    """A number as a message shows it (a long one by its size only)."""
    return str(value) if isinstance(value, int) and value.bit_length() < 64 else "<a long integer>"


def _repeat(left: object, right: object) -> object:
    """`"ab" * n`, `[x] * n`, `n * (x,)`: the sequence repeated, its size checked
    before it is built; UNKNOWN for other operands."""
    if _integer(left) and isinstance(right, (str, list, tuple)):
        left, right = right, left
    if not (isinstance(left, (str, list, tuple)) and isinstance(right, int)):
        return UNKNOWN  # `True * "a"` included: a bool repeats too, but is left to Python's check
    if isinstance(right, bool):
        return UNKNOWN
    size = len(left) * max(right, 0)
    if isinstance(left, str):
        _check_text(size)
    else:
        _check_items(size)
    return left * right


def _check_text(length: int) -> None:
    """Refuse to build a string of this length past MAX_TEXT (before building it)."""
    if not fits_text(length):
        raise _TooBig(f"a string of {length:,} characters (more than {MAX_TEXT:,})")


def _jumps(body: list[ast.stmt]) -> bool:
    """A `break` or `continue` of this loop (not of a loop inside it)."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            return True
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt))
    return False


def _holds(value: object, test, depth: int = 0) -> bool:
    """Whether `test` holds for the value or any value it holds (past 32 levels: yes)."""
    if test(value) or depth > 32:
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds(v, test, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_holds(v, test, depth + 1) for v in value.values())
    return False


def _holds_view(value: object) -> bool:
    return _holds(value, lambda v: isinstance(v, _View))


def _uncertain(value: object) -> bool:
    """Whether a value is, or holds, something not known."""
    return _holds(value, lambda v: v is UNKNOWN or v is SET)


def _compare(op: ast.cmpop, left: object, right: object) -> object:
    if isinstance(op, (ast.Is, ast.IsNot)) and right is None and left is not UNKNOWN:
        return (left is None) == isinstance(op, ast.Is)
    if _uncertain(left) or _uncertain(right):
        return UNKNOWN
    try:
        if isinstance(op, (ast.Eq, ast.NotEq)) and (isinstance(left, _View) or isinstance(right, _View)):
            return UNKNOWN  # a view equals no list or tuple
        if isinstance(op, ast.Eq):
            return left == right
        if isinstance(op, ast.NotEq):
            return left != right
        if isinstance(op, ast.In) and isinstance(right, (str, list, tuple, dict)):
            return left in right  # type: ignore[operator]
        if isinstance(op, ast.NotIn) and isinstance(right, (str, list, tuple, dict)):
            return left not in right  # type: ignore[operator]
        if isinstance(left, _View) or isinstance(right, _View):
            return UNKNOWN
        ordering = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
        compare = ordering.get(type(op))
        if compare is not None and _plain_scalar(left) and _plain_scalar(right):
            return compare(left, right)  # `"a" < 1` raises, as in Python
        if isinstance(op, (ast.In, ast.NotIn)) and _plain_scalar(right) and not isinstance(right, str):
            raise _NoValue  # `x in 5`: a TypeError
    except TypeError as err:
        raise _NoValue from err
    return UNKNOWN


def _index(owner: object, key_node: ast.expr, evaluate) -> object:
    if isinstance(key_node, ast.Slice):
        if isinstance(owner, _View) or owner is None:
            raise _NoValue  # not subscriptable
        if not isinstance(owner, (str, list, tuple)):
            return UNKNOWN
        bounds = [evaluate(b) if b is not None else None for b in (key_node.lower, key_node.upper, key_node.step)]
        if not all(b is None or (isinstance(b, int) and not isinstance(b, bool)) for b in bounds):
            return UNKNOWN
        if bounds[2] == 0:
            raise _NoValue  # slice step cannot be zero
        return owner[slice(*bounds)]
    key = evaluate(key_node)
    if owner is None or isinstance(owner, _View) or key is UNKNOWN or owner is UNKNOWN:
        if owner is None or isinstance(owner, _View):
            raise _NoValue  # not subscriptable
        return UNKNOWN
    try:
        if isinstance(owner, dict) and isinstance(key, (str, int)):
            return owner[key]
        if isinstance(owner, (str, list, tuple)) and isinstance(key, int) and not isinstance(key, bool):
            return owner[key]
        if isinstance(owner, Matched) and isinstance(key, (int, str)):
            return owner[key]
    except (IndexError, KeyError) as err:
        raise _NoValue from err
    return UNKNOWN


def _attribute(owner: object, attr: str) -> object:
    if isinstance(owner, PurePosixPath) and attr in ("parent", "name", "stem", "suffix"):
        return getattr(owner, attr)
    return UNKNOWN


_STR_METHODS = frozenset(
    {
        "lower",
        "upper",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "split",
        "rsplit",
        "startswith",
        "endswith",
        "removeprefix",
        "removesuffix",
        "join",
        "capitalize",
        "title",
    }
)


def _method(owner: object, name: str, args: list[object], kwargs: dict[str, object]) -> object:
    """A method of a known value, from an allow-list of those without side effects."""
    if owner is UNKNOWN or any(a is UNKNOWN for a in args) or any(v is UNKNOWN for v in kwargs.values()):
        return UNKNOWN
    if owner is None:
        raise _NoValue  # `None.group(1)`: an AttributeError (a match that failed)
    try:
        if isinstance(owner, str):
            if name == "format":
                return _format(owner, args, kwargs)
            if name == "join":
                items = args[0] if args else None
                if isinstance(items, (list, tuple)) and all(isinstance(i, str) for i in items):
                    _check_text(sum(len(i) for i in items) + len(owner) * max(len(items) - 1, 0))
                    return owner.join(items)
                return UNKNOWN
            if name == "replace" and (not args or args[0] == ""):
                return UNKNOWN  # `s.replace("", t)` puts t between every character
            if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
                times = owner.count(args[0])  # its size, known before it is built
                if len(args) > 2 and _integer(args[2]) and args[2] >= 0:  # type: ignore[operator]
                    times = min(times, args[2])  # type: ignore[type-var]
                _check_text(len(owner) + times * max(len(args[1]) - len(args[0]), 0))
            if name in _STR_METHODS and all(_plain_scalar(a) for a in args):
                result = getattr(owner, name)(*args, **kwargs)
                return _text(result) if isinstance(result, str) else result
            return UNKNOWN
        if isinstance(owner, dict) and name == "get" and 1 <= len(args) <= 2 and not kwargs:
            return (
                owner.get(args[0], args[1] if len(args) > 1 else None) if isinstance(args[0], (str, int)) else UNKNOWN
            )
        if isinstance(owner, dict) and name in ("keys", "values", "items") and not args:
            return _View(getattr(owner, name)())
        if isinstance(owner, Pattern) and name in ("match", "fullmatch", "search", "sub", "findall", "split"):
            if "flags" in kwargs:
                return UNKNOWN  # no such keyword of a pattern's methods
            return _regex(name, [owner.pattern, *args], {**kwargs, "flags": owner.flags})
        if isinstance(owner, Matched) and name in ("group", "groups", "groupdict") and not kwargs:
            return getattr(owner, name)(*args)
        if isinstance(owner, PurePosixPath):
            if name in ("resolve", "absolute"):
                return PurePosixPath(posixpath.normpath(str(owner)))
            if name == "joinpath" and all(isinstance(a, str) for a in args):
                return owner.joinpath(*args)  # type: ignore[arg-type]
            if name == "open":
                return Opened(str(owner))
    except (TypeError, ValueError, IndexError) as err:
        raise _NoValue from err  # Python raises on these values too
    return UNKNOWN


def _format(template: str, args: list[object], kwargs: dict[str, object]) -> object:
    """`str.format` with plain values and plain fields only (no attribute or index
    lookups in a field: they could reach into the evaluator's values)."""
    try:
        parsed = [(f, spec) for _, f, spec, _ in string.Formatter().parse(template) if f is not None]
    except ValueError:
        return UNKNOWN
    if any("." in f or "[" in f or "{" in (spec or "") or not _small_spec(spec or "") for f, spec in parsed):
        return UNKNOWN
    if not all(_plain_scalar(v) for v in [*args, *kwargs.values()]):
        return UNKNOWN
    try:
        return _text(template.format(*args, **kwargs))
    except (IndexError, KeyError, ValueError) as err:
        raise _NoValue from err


# Patterns taken from the checked code run on RE2, which matches in time linear in
# the subject: Python's backtracking `re` can take exponential time (`(a|a?){30}b`).
# Where RE2 and Python's `re` could differ the value is unknown: a pattern RE2 refuses
# (backreferences, lookaround, possessive repeats), Python syntax RE2 reads otherwise
# (`{,n}`, `[[:alpha:]]`), flags other than IGNORECASE, MULTILINE and DOTALL, text
# outside printable ASCII (`\w`, `\s` and case folding are Unicode in Python), `$`
# over text holding a newline, and an empty match in `sub`, `findall` or `split`
# (where the two step on differently). Python's own `re` only compiles a pattern
# (which does not match anything): its refusals are Python's, so the code raises.
MAX_REGEX_SUBJECT = 256
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_INLINE_FLAGS = ((int(re.IGNORECASE), "i"), (int(re.MULTILINE), "m"), (int(re.DOTALL), "s"))
_KNOWN_FLAGS = int(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.UNICODE)
_RE_CONSTANTS = {
    f"re.{name}": int(getattr(re, name))
    for name in ("I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "U", "UNICODE", "X", "VERBOSE", "A", "ASCII")
}
_TEMPLATE_GROUP = re.compile(r"\\(?:g<(\w+)>|([1-9][0-9]?))")


def _plain_text(text: str) -> bool:
    return all(" " <= c <= "~" or c in "\t\n\r" for c in text)


@dataclass(frozen=True)
class Pattern:
    """`re.compile(pattern, flags)`: its methods run on RE2 as `re`'s functions do."""

    pattern: str
    flags: int


class Matched:
    """A match as `re` gives it (`group`, `groups`, `groupdict`, `m[k]`), read from
    RE2's spans."""

    def __init__(self, text: str, spans: list[tuple[int, int]], names: dict[str, int]) -> None:
        self._text = text
        self._spans = spans
        self._names = names

    def _one(self, key: object) -> str | None:
        if isinstance(key, str) and key in self._names:
            key = self._names[key]
        if not _integer(key) or not 0 <= key < len(self._spans):  # type: ignore[operator]
            raise IndexError("no such group")
        start, end = self._spans[key]  # type: ignore[index]
        return None if start < 0 else self._text[start:end]

    def group(self, *keys: object) -> object:
        if len(keys) <= 1:
            return self._one(keys[0] if keys else 0)
        return tuple(self._one(k) for k in keys)

    def __getitem__(self, key: object) -> str | None:
        return self._one(key)

    def groups(self, default: object = None) -> tuple:
        return tuple(default if v is None else v for v in (self._one(i) for i in range(1, len(self._spans))))

    def groupdict(self, default: object = None) -> dict:
        return {name: default if (v := self._one(i)) is None else v for name, i in self._names.items()}


def _compiled(pattern: str, flags: int):
    """The RE2 program of a pattern with Python's meaning; None where the two could
    differ (see above); _NoValue where Python refuses the pattern."""
    if len(pattern) > MAX_PATTERN or flags & ~_KNOWN_FLAGS or not _plain_text(pattern):
        return None
    if "{," in pattern or "[:" in pattern or "\\Z" in pattern:
        return None
    try:
        python = re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError) as err:
        raise _NoValue from err
    inline = "".join(letter for flag, letter in _INLINE_FLAGS if flags & flag)
    try:
        program = re2.compile(f"(?{inline}){pattern}" if inline else pattern, _RE2_OPTIONS)
    except re2.error:
        return None
    if program.groups != python.groups or program.groupindex != dict(python.groupindex):
        return None
    return program


def _matched(program, found, text: str) -> Matched | None:
    if found is None:
        return None
    return Matched(text, [found.span(i) for i in range(program.groups + 1)], dict(program.groupindex))


def _template(repl: str, program) -> list[object] | None:
    """A `sub` replacement as literal parts and group numbers; None for escapes other
    than group references (`\n`, octal), _NoValue for a group the pattern lacks."""
    parts: list[object] = []
    last = 0
    for ref in _TEMPLATE_GROUP.finditer(repl):
        parts.append(repl[last : ref.start()])
        key = ref.group(1) or ref.group(2)
        number = int(key) if key.isdigit() else program.groupindex.get(key)
        if number is None or number > program.groups:
            raise _NoValue  # an invalid group reference: re.error
        parts.append(number)
        last = ref.end()
    parts.append(repl[last:])
    if any(isinstance(p, str) and "\\" in p for p in parts) or re.search(r"\\[0-7]{3}", repl):
        return None
    return parts


def _regex(name: str, args: list[object], kwargs: dict[str, object]) -> object:
    """`re.<name>(...)` on RE2 (see above): compile, match, fullmatch, search, sub,
    findall, split."""
    if name == "compile" and len(args) == 2 and "flags" not in kwargs:
        args, kwargs = args[:1], {**kwargs, "flags": args[1]}
    flags = kwargs.get("flags", 0)
    if not args or not isinstance(args[0], str) or not _integer(flags):
        return UNKNOWN
    extra = {"sub": "count", "split": "maxsplit"}.get(name)
    if set(kwargs) - {"flags", extra}:
        return UNKNOWN
    wanted = {"compile": 1, "sub": 3}.get(name, 2)
    if len(args) != wanted:
        return UNKNOWN
    program = _compiled(args[0], flags)  # type: ignore[arg-type]
    if program is None:
        return UNKNOWN
    if name == "compile":
        return Pattern(args[0], flags)  # type: ignore[arg-type]
    subject = args[-1]
    if not isinstance(subject, str) or len(subject) > MAX_REGEX_SUBJECT or not _plain_text(subject):
        return UNKNOWN
    if "$" in args[0] and "\n" in subject and not flags & re.MULTILINE:  # type: ignore[operator]
        return UNKNOWN  # Python's `$` also matches before a final newline
    if name in ("match", "fullmatch", "search"):
        return _matched(program, getattr(program, name)(subject), subject)
    limit = kwargs.get(extra, 0) if extra else 0
    if not _integer(limit) or limit < 0:  # type: ignore[operator]
        return UNKNOWN
    template = None
    if name == "sub":
        if not isinstance(args[1], str) or not _plain_text(args[1]):
            return UNKNOWN
        template = _template(args[1], program)
        if template is None:
            return UNKNOWN
    found = []
    for each in program.finditer(subject):
        if each.start() == each.end():
            return UNKNOWN  # an empty match: RE2 and Python step on differently
        found.append(_matched(program, each, subject))
        if limit and len(found) == limit:
            break
    if name == "findall":
        if program.groups == 0:
            return [m.group() for m in found]  # type: ignore[union-attr]
        if program.groups == 1:
            return [m.group(1) or "" for m in found]  # type: ignore[union-attr]
        return [m.groups("") for m in found]  # type: ignore[union-attr]
    out: list[object] = []
    last = 0
    for m in found:
        start, end = m._spans[0]  # type: ignore[union-attr]
        out.append(subject[last:start])
        if name == "split":
            out.extend(m.groups())  # type: ignore[union-attr]
        else:
            out.extend(p if isinstance(p, str) else m[p] or "" for p in template)  # type: ignore[union-attr,index]
        last = end
    out.append(subject[last:])
    if name == "split":
        return out
    _check_text(sum(len(p) for p in out))  # type: ignore[arg-type]
    return "".join(out)  # type: ignore[arg-type]


def _builtin_str(args: list[object]) -> object:
    if len(args) == 1 and (_plain_scalar(args[0]) or isinstance(args[0], PurePosixPath)):
        return str(args[0])
    return UNKNOWN


def _builtin_len(args: list[object]) -> object:
    if len(args) == 1 and _plain_scalar(args[0]) and not isinstance(args[0], str):
        raise _NoValue  # `len(5)`: a TypeError
    return len(args[0]) if len(args) == 1 and isinstance(args[0], (str, list, tuple, dict)) else UNKNOWN


def _builtin_bool(args: list[object]) -> object:
    return truth(args[0]) if len(args) == 1 else UNKNOWN


_BUILTINS = {"str": _builtin_str, "len": _builtin_len, "bool": _builtin_bool}


MAX_VALUE_FUNCTION_LINES = 120  # longer functions are not given to other files
MAX_SOURCE_STATEMENTS = 64  # top-level statements the value functions of a module need


def is_value_function(fn: ast.FunctionDef) -> bool:
    """A short top-level function that returns a value (what `Evaluator` may give)."""
    if (fn.end_lineno or fn.lineno) - fn.lineno > MAX_VALUE_FUNCTION_LINES:
        return False
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn))


# MAX_INT_BITS (see `budget`): the longest integer whose value is kept, under Python's
# own int-to-str limit (4,300 digits, which raises ValueError); past it, unknown.


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
        pending: list[object] = [value for _, value in documents]
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
    imports, the functions, and the assignments and functions they read,
    transitively (a bounded number). A statement holding an integer too long to
    print (`0xfff...` of 5,000 digits, which `ast.unparse` cannot write) is left
    out: what it defines stays unknown to other files."""
    defined: dict[str, ast.stmt] = {}
    imports: list[ast.stmt] = []
    for stmt in tree.body:
        if _holds_huge_integer(stmt):
            continue
        if isinstance(stmt, ast.FunctionDef):
            defined[stmt.name] = stmt
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            defined[stmt.targets[0].id] = stmt
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)) and not getattr(stmt, "level", 0):
            imports.append(stmt)
    wanted = [n for n in names if n in defined]
    kept: dict[str, ast.stmt] = {}
    while wanted and len(kept) < MAX_SOURCE_STATEMENTS:
        name = wanted.pop()
        if name in kept:
            continue
        kept[name] = defined[name]
        for node in ast.walk(defined[name]):
            if isinstance(node, ast.Name) and node.id in defined and node.id not in kept:
                wanted.append(node.id)
    ordered = [s for s in tree.body if any(s is k for k in kept.values())]
    return "\n".join(ast.unparse(s) for s in imports + ordered) + "\n"
