"""Small value functions of the project evaluated over the value lattice.

Real job code computes its table paths in functions of its own:
`load_config(env)` reads a YAML file that sits next to the code, and
`resolve_path(cloud_path, config)` rewrites a cloud path for the environment with
`if`s and a regular expression. `Evaluator` interprets such a function on the
values of `lattice` (known Python values, templates, one of a few values,
unknown); the code is never imported or run. It interprets a small subset
without side effects: assignments (a key set on a dict a local name holds too,
see `_set_key`), `if`, `with open(...)`, `return`, `for` (over a
known sequence of up to MAX_LOOP items turn by turn; over any other, as a loop
that may run no turn or many, see `_loop`), `try` (see `_try`), `while` without
`break`/`continue`/`else` (see `_while`), list and dict comprehensions over
known sequences (and a generator a string's `join` consumes), `match` (see
`_match`); other `while`s and a `try` whose `finally` returns are not followed:
what they bind is unknown; string, number, dict, list and path operations, and
the library calls `brains` describes (`re` on RE2, `os.path`, `os.getenv`'s
literal default, `yaml`/`json` loads of a project document the link stage
gives, see `Context.documents`, a notebook widget as a named input of a template),
and the module's classes: a pydantic model called builds an object whose fields
it reads by attribute (`Made`); any other class whose `__init__` is told -- the
one Python writes for a record (a dataclass, an attrs class, a named tuple, see
`records`), or the class's own -- builds the object that `__init__` leaves
(`self.store = store` keeps the object it is given); a property, a
`cached_property` and a method of its class read it through `self` (a method's
own arguments are known where the object holds unknowns), an attribute a method
sets at a time not known is unknown, and a class or static method
(`Config.of("prod")`, `call_factory`) builds one from a class-level dict.

Where the code goes one of several ways the evaluator cannot decide (an `if` on
an unknown test, a conditional expression, `or`/`and`, a loop that may not run),
it reads every way and
joins what they bind and return (`lattice.join`): one of the values, or unknown
past `MAX_ALTERNATIVES`; an operation on one of several values is done once per
alternative. Anything else it does not interpret is unknown, and an unknown that
decides a result makes the result unknown. Where Python would raise (a missing
key, `raise`, a failed `assert`), or may (a `raise` in a statement not followed,
or on one of the ways it reads), the call gives no value; an error inside a call
it does not follow (a library function it does not know) is not seen.
"""

from __future__ import annotations

import ast
import itertools
import operator
import posixpath
import re
import string
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from delta_lint.frontend.values import brains
from delta_lint.frontend.values.brains import PROJECT_ROOT, plain_scalar
from delta_lint.frontend.values.budget import (
    MAX_INT_BITS,
    MAX_TEXT,
    Budget,
    OutOfBudget,
    TooBig,
    check_items,
    check_text,
    fits_int_bits,
    fits_text,
)
from delta_lint.frontend.values.formatting import PERCENT_DIRECTIVE, format_field, placeholder_name, small_spec
from delta_lint.frontend.values.jumps import without_jumps
from delta_lint.frontend.values.lattice import (
    MAX_ALTERNATIVES,
    UNKNOWN,
    NoValue,
    OneOf,
    Template,
    TextOf,
    Unknown,
    Unordered,
    alternatives,
    concat,
    join,
    join_envs,
    key,
    shown_unknown,
    unordered,
)
from delta_lint.frontend.values.listing import MAX_LISTED, glob_escape, listing_key
from delta_lint.frontend.values.records import namedtuple_class, post_init_name, record_init, record_kind
from delta_lint.frontend.values.regex import Matched, Pattern, regex_call
from delta_lint.predicates import param_name

MAX_DEPTH = 6  # nested calls of the project's functions
MAX_LOOP = 256  # items of a known sequence a `for` loop is read over, turn by turn
MAX_LOOP_ROUNDS = 4  # readings of a loop body over items not known, before its names are unknown
# combinations of alternatives one operation is done for (`a + b` of two OneOfs)
MAX_COMBINATIONS = MAX_ALTERNATIVES * MAX_ALTERNATIVES
# a name a `match` case may have bound before it failed (Python leaves such bindings)
MAY_HAVE_BOUND = Unknown("bound by a pattern that may have failed")


class _Set:
    """An environment variable the cluster sets: true and not None, its text unknown."""

    def __repr__(self) -> str:
        return "SET"


SET = _Set()


class _MaybeUnbound:
    """A name bound on some of the ways that met again, not on others: reading it may
    raise (an UnboundLocalError), so it gives no value."""


_MAYBE_UNBOUND = _MaybeUnbound()


@dataclass(frozen=True)
class Opened:
    """`open(path)`: a file handle, read only by `yaml.safe_load`/`json.load`."""

    path: str


class Made:
    """The object a configuration class builds (`Config(**data)` of a dataclass or
    a pydantic model): its fields by name, read by attribute (`cfg.catalog`). It is
    equal only to itself (see `lattice.key`), as two objects are."""

    __slots__ = ("cls", "fields")

    def __init__(self, cls: str, fields: dict[str, object]) -> None:
        self.cls = cls
        self.fields = fields

    def __repr__(self) -> str:
        return f"{self.cls}({self.fields!r})"


class Closure:
    """A lambda or a function defined inside the function being read (`fq = lambda t:
    f"{catalog}.{schema}.{t}"`, a nested `def fq(t)`), as a value a call reads: its
    definition (a lambda as a function returning its body), and the names of the
    enclosing function it reads, as they are when it is made. Python reads those
    when it is called: a name the enclosing function binds once is the same then,
    any other (bound again, in a loop, not yet bound, `nonlocal`) is not known.
    Equal only to itself (see `lattice.key`)."""

    __slots__ = ("fn", "captured")

    def __init__(self, fn: ast.FunctionDef, captured: dict[str, object]) -> None:
        self.fn = fn
        self.captured = captured

    def __repr__(self) -> str:
        return f"Closure({self.fn.name})"


def lambda_function(node: ast.Lambda) -> ast.FunctionDef:
    """A lambda as the function it is: its parameters, and a body that returns its
    expression."""
    body = ast.copy_location(ast.Return(node.body), node.body)
    extra = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}
    fn = ast.FunctionDef(name="<lambda>", args=node.args, body=[body], decorator_list=[], returns=None, **extra)
    return ast.copy_location(fn, node)


def bound_again(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The names a function binds more than once, or inside a loop (a closure made
    there would read the last binding, not the one it was made after): its
    parameters and every binding in its body (those of functions inside it too,
    which can only add names)."""
    counts: dict[str, int] = {}
    every = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs + [a for a in (fn.args.vararg, fn.args.kwarg) if a]
    for arg in every:
        counts[arg.arg] = counts.get(arg.arg, 0) + 1
    stack: list[tuple[ast.AST, bool]] = [(stmt, False) for stmt in fn.body]
    while stack:
        node, looped = stack.pop()
        names: list[str] = []
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names = [node.id]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.alias):
            names = [(node.asname or node.name).split(".")[0]]
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names = [node.name]
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names = [node.rest]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names = list(node.names) * 2
        for name in names:
            counts[name] = counts.get(name, 0) + (2 if looped else 1)
        inner = looped or isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.comprehension))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return frozenset(name for name, count in counts.items() if count > 1)


class _View(tuple):
    """`d.keys()`, `.values()`, `.items()`: iterable and searchable like the view, but
    neither equal to a list or tuple nor subscriptable, as the view is not."""


def _unknown(value: object) -> bool:
    return type(value) is Unknown


def _same_envs(a: dict[str, object], b: dict[str, object]) -> bool:
    """Whether two sets of names hold the same values (the same objects, or equal
    plain values of the same types)."""
    if a.keys() != b.keys():
        return False
    for name, value in a.items():
        other = b[name]
        if value is other or (_unknown(value) and _unknown(other)):
            continue
        try:
            if key(value) != key(other):
                return False
        except TypeError:
            return False
    return True


@dataclass
class Module:
    """A module's top-level functions, imports and assignments, the latter evaluated
    when a function first reads the name. A name bound once by a plain assignment is
    that assignment's value. A name the module's top-level code binds or changes in
    another way (`if c: T = "b"`, `T += "_v2"`, `TABLES.append(x)`, a loop) is
    `pending`: the first read of one evaluates, in order, the top-level statements
    that bind or change any of them (`body`), as Python runs them at import, and
    each holds what they leave it (one of several where a test is not known; a list
    changed in place, or a statement not followed, unknown). A name a function of
    the module rebinds (`global`) or changes in place is unknown: when the function
    runs is not known."""

    path: str  # relative to the configuration root
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    assigned: dict[str, ast.expr] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # name -> dotted module or function
    values: dict[str, object] = field(default_factory=dict)
    # configuration classes (see `config_fields`): what calling one builds is a `Made`
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    pending: frozenset[str] = frozenset()  # see the class docstring
    body: list[ast.stmt] = field(default_factory=list)  # the statements that bind them, in order
    handed: frozenset[str] = frozenset()  # pending names handed to a call: a list or dict they hold is not known

    @classmethod
    def of(cls, tree: ast.Module, path: str) -> Module:
        module = cls(path)
        rebound: set[str] = set()  # bound or changed by a statement other than one simple assignment
        handed: set[str] = set()  # handed to a call (`fill(CONFIG)`): a list or dict it holds may change
        # each statement, the names it binds or changes, and those it binds
        changing: list[tuple[ast.stmt, set[str], set[str]]] = []
        once: set[str] = set()
        declared: set[str] = set()  # named by a `global` statement
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef):
                module.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef) and buildable(stmt):
                module.classes[stmt.name] = stmt
            elif isinstance(stmt, (ast.Import, ast.ImportFrom, ast.ClassDef, ast.AsyncFunctionDef)):
                if isinstance(stmt, ast.Import):
                    for alias in stmt.names:
                        module.aliases[alias.asname or alias.name.split(".")[0]] = (
                            alias.name if alias.asname else alias.name.split(".")[0]
                        )
                elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
                    for alias in stmt.names:
                        module.aliases[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"
            elif (made := namedtuple_class(stmt)) is not None and made.name not in module.classes:
                module.classes[made.name] = made  # `Names = namedtuple("Names", [...])`: a class (see `records`)
                once.add(made.name)  # bound again later: no class this reading names (`redefined`)
            else:
                bound, changes, given, named = _effects(stmt)
                names = bound | changes
                changing.append((stmt, names, bound))
                target = _plain_target(stmt)
                if target is not None:
                    module.assigned[target] = stmt.value  # type: ignore[attr-defined]
                    if isinstance(stmt.value, ast.Lambda) and target not in once:  # `fq = lambda t: ...`
                        module.functions[target] = lambda_function(stmt.value)
                    rebound.update(names - {target} if target not in once else names)
                    once.add(target)
                else:
                    rebound.update(names)
                # `TABLES.append("x")`, `fill(CONFIG)`: a module value it names may change;
                # the function a call names does not (`print(load(p))` leaves `load` as
                # defined: only a `global` statement or an assignment rebinds it)
                handed.update(named if isinstance(stmt, ast.Expr) else given - names)
        # bound by a function (`global X`) or by another statement than its `def`
        # (`load = wrap(load)`): not the definition; changed in place by a function:
        # when it runs is not known
        redefined = rebound & (set(module.functions) | set(module.classes))
        changed: set[str] = set()
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found, globals_ = _changed_outside(stmt)
                changed |= found
                declared |= globals_
        redefined |= declared
        # names the top-level code binds (not by an import: a module's name stays one)
        bound = set(module.assigned).union(*(b for s, _, b in changing if _plain_target(s) is None))
        pending = ((rebound | handed) & bound) - redefined - changed
        if pending:  # its plain assignments too are read in order with the rest
            module.body = [s for s, names, _ in changing if names & pending]
            module.pending = frozenset(pending)
            module.handed = frozenset(handed & pending)
        for name in redefined | changed | ((rebound | handed) - bound):  # `CONF["k"] = v` of `from m import CONF`
            module.values[name] = Unknown("changed at import")
        for name in redefined:
            module.functions.pop(name, None)
            module.classes.pop(name, None)
        module.values["__file__"] = f"{PROJECT_ROOT}/{path}"
        return module


def _plain_target(stmt: ast.stmt) -> str | None:
    """The name `NAME = value` (or `NAME: T = value`) binds; None for other statements."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
        return stmt.target.id  # `TABLE: Final[str] = "..."`: one assignment too
    return None


def changed_names(stmt: ast.AST, handed: bool = True) -> set[str]:
    """The names whose value a statement may change in place: `CONFIG["k"] = v`,
    `del T[0]`, `T.append(x)` (a method of `brains.IN_PLACE`), `T += x` of any
    operator, and (`handed`) a name handed to a call (`fill(CONFIG)`) other than a
    builtin that only reads (`brains.READERS`)."""
    out: set[str] = set()
    for node in ast.walk(stmt):
        root: ast.expr | None = None
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            root = node.value
        elif isinstance(node, ast.AugAssign):
            root = node.target
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in brains.CHANGES_IN_PLACE:
                root = func.value
            if handed and not _reads_only(func):
                out.update(a.id for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Name))
        while isinstance(root, (ast.Subscript, ast.Attribute)):
            root = root.value
        if isinstance(root, ast.Name):
            out.add(root.id)
    return out


def _reads_only(func: ast.expr) -> bool:
    """Whether a call only reads the values it is given: a builtin of `brains.READERS`,
    a method of `brains.READ_METHODS` (`",".join(t)`), a function of a module
    `brains.MODULES` names (`os.path.join`, `json.dumps`)."""
    if isinstance(func, ast.Name):
        return func.id in brains.READERS
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in brains.READ_METHODS:
        return True
    root = func.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and root.id in brains.MODULES


def _effects(stmt: ast.stmt) -> tuple[set[str], set[str], set[str], set[str]]:
    """One walk of a statement: the names it binds (`bound_names`), those it changes
    in place (`changed_names` without `handed`), those it hands to a call (the rest
    of `changed_names`), and every name it reads other than a called one."""
    bound: set[str] = set()
    changed: set[str] = set()
    handed: set[str] = set()
    read: set[str] = set()
    called: set[int] = set()
    for node in ast.walk(stmt):
        kind = type(node)
        if kind is ast.Name and not isinstance(node.ctx, (ast.Store, ast.Del)):  # type: ignore[attr-defined]
            if id(node) not in called:
                read.add(node.id)  # type: ignore[attr-defined]
            continue
        if kind is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            called.add(id(func))
            if not _reads_only(func):
                handed.update(a.id for a in [*node.args, *(k.value for k in node.keywords)] if type(a) is ast.Name)  # type: ignore[attr-defined]
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            if node is not stmt:
                bound.add(node.name)  # type: ignore[attr-defined]
            continue
        if kind in _EFFECT_KINDS:
            _effects_here(node, bound, changed)
    return bound, changed, handed, read


def _changed_outside(definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[set[str], set[str]]:
    """The names a function (or a class's methods) may change in place that are not
    its own -- a module name it appends to or stores an item into -- and those it
    declares `global`. (A name it hands to a call is not counted: a function reads
    its module's constants so, and a list a call it runs changes is no longer known
    where the call is read.) Each function's scope is walked once."""
    out: set[str] = set()
    declared: set[str] = set()
    scopes: list[ast.AST] = [definition]
    while scopes:
        scope = scopes.pop()
        own: set[str] = set()
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            given = scope.args
            own = {a.arg for a in [*given.posonlyargs, *given.args, *given.kwonlyargs, given.vararg, given.kwarg] if a}
        body = scope.body if isinstance(scope.body, list) else [scope.body]  # type: ignore[attr-defined]
        changes: set[str] = set()
        outer: set[str] = set()  # `global`/`nonlocal`: bound in it, not its own
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                if not isinstance(node, ast.Lambda):
                    own.add(node.name)
                    stack.extend(node.decorator_list)
                scopes.append(node)  # a scope of its own
                continue
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                outer.update(node.names)
                if isinstance(node, ast.Global):
                    declared.update(node.names)
                continue
            _effects_here(node, own, changes)
            stack.extend(ast.iter_child_nodes(node))
        out |= changes - (own - outer)
    return out, declared


# the kinds of node `_effects_here` reads (any other binds and changes nothing itself)
_EFFECT_KINDS = frozenset(
    {
        ast.Name,
        ast.Call,
        ast.Subscript,
        ast.Attribute,
        ast.AugAssign,
        ast.MatchAs,
        ast.MatchStar,
        ast.MatchMapping,
        ast.ExceptHandler,
        ast.Import,
        ast.ImportFrom,
    }
)


def _effects_here(node: ast.AST, bound: set[str], changed: set[str]) -> None:
    """What one node (not those below it) binds and changes in place, added to
    `bound` and `changed`: the one reading `_effects` and `_changed_outside` share."""
    root: ast.expr | None = None
    kind = type(node)
    if kind is ast.Name:
        if isinstance(node.ctx, (ast.Store, ast.Del)):  # type: ignore[attr-defined]
            bound.add(node.id)  # type: ignore[attr-defined]
    elif kind is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        if isinstance(func, ast.Attribute) and func.attr in brains.CHANGES_IN_PLACE:
            root = func.value
    elif kind in (ast.Subscript, ast.Attribute):
        if isinstance(node.ctx, (ast.Store, ast.Del)):  # type: ignore[attr-defined]
            root = node.value  # type: ignore[attr-defined]
    elif kind is ast.AugAssign:
        root = node.target  # type: ignore[attr-defined]
    elif kind in (ast.MatchAs, ast.MatchStar, ast.ExceptHandler):
        if node.name:  # type: ignore[attr-defined]
            bound.add(node.name)  # type: ignore[attr-defined]
    elif kind is ast.MatchMapping:
        if node.rest:  # type: ignore[attr-defined]
            bound.add(node.rest)  # type: ignore[attr-defined]
    elif kind in (ast.Import, ast.ImportFrom):
        bound.update((a.asname or a.name).split(".")[0] for a in node.names)  # type: ignore[attr-defined]
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        root = root.value
    if isinstance(root, ast.Name):
        changed.add(root.id)


# bases whose classes take their fields by keyword and ignore other keys (pydantic)
_MODEL_BASES = frozenset({"BaseModel", "BaseSettings"})


def config_fields(cls: ast.ClassDef) -> tuple[list[str], bool] | None:
    """A configuration class's fields (its annotated class-level names, in order) and
    whether it is a pydantic model (keywords only, other keys ignored) rather than a
    dataclass (fields in order, another key a TypeError); None for other classes,
    whose calls are not followed."""
    fields = [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    bases = {b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in cls.bases}
    if bases & _MODEL_BASES:
        return fields, True
    if "NamedTuple" in bases:  # made as a dataclass is: fields in order, no other keyword
        return fields, False
    for decorator in cls.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")) == "dataclass":
            return fields, False
    return None


def buildable(cls: ast.ClassDef) -> bool:
    """A class the evaluator reads: one whose objects it builds (`Made`) -- a
    configuration class (see `config_fields`), a record whose `__init__` Python
    writes (a dataclass, an attrs class, a named tuple, see `records`), a class of
    its own `__init__` (`self.catalog = catalog`) -- or one with a class or static
    method that may build one (`Config.of("prod")`)."""
    return (
        config_fields(cls) is not None
        or record_kind(cls) is not None
        or any(
            isinstance(s, ast.FunctionDef)
            and (s.name == "__init__" or any(_decorator_named(d, k) for d in s.decorator_list for k in _FACTORIES))
            for s in cls.body
        )
    )


# the decorators of a class's factories (`Config.of("prod")`, see `Evaluator._class_method`)
_FACTORIES = ("classmethod", "staticmethod")


# decorators of a pydantic model's methods that may change the fields it is given:
# the fields they name, or every field
_FIELD_VALIDATORS = frozenset({"validator", "field_validator"})
_MODEL_VALIDATORS = frozenset({"root_validator", "model_validator"})
# keywords of `Field(...)` that make a field take another key than its name
_ALIASES = frozenset({"alias", "validation_alias"})


def rewritten_fields(cls: ast.ClassDef) -> frozenset[str] | None:
    """The fields of a dataclass or model whose value may not be the one it is given:
    those a field validator names, those `__post_init__` sets, those given by another
    key (`Field(alias="catalogName")`); None when any may be (a model validator, a
    validator of every field, an alias generator, a `__post_init__` that sets what
    this reading cannot name)."""
    out: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name in ("__post_init__", "model_post_init"):
            for node in ast.walk(stmt):
                if (isinstance(node, ast.Name) and node.id == "setattr") or (
                    isinstance(node, ast.Attribute) and node.attr in ("__setattr__", "__dict__")
                ):
                    return None  # `object.__setattr__(self, "t", ...)` of a frozen dataclass: any field
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    if isinstance(node.value, ast.Name) and node.value.id == "self":
                        out.add(node.attr)
        for decorator in stmt.decorator_list if isinstance(stmt, ast.FunctionDef) else ():
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in _MODEL_VALIDATORS:
                return None
            if name in _FIELD_VALIDATORS:
                named = decorator.args if isinstance(decorator, ast.Call) else []
                if not named or not all(isinstance(a, ast.Constant) and a.value != "*" for a in named):
                    return None
                out |= {str(a.value) for a in named}  # type: ignore[attr-defined]
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and isinstance(stmt.value, ast.Call):
            if any(k.arg in _ALIASES for k in stmt.value.keywords):
                out.add(stmt.target.id)
    if any(
        (isinstance(n, ast.keyword) and n.arg == "alias_generator")
        or (isinstance(n, ast.Name) and n.id == "alias_generator" and isinstance(n.ctx, ast.Store))
        for n in ast.walk(cls)
    ):
        return None
    return frozenset(out)


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


def truth(value: object) -> object:
    """Python's truth of a value of the lattice: True, False or UNKNOWN (one of
    several values whose truths differ, a template, an unknown)."""
    if _unknown(value) or isinstance(value, Template):
        return UNKNOWN
    if value is SET:
        return True
    if type(value) is OneOf:
        truths = {truth(v) for v in value.values}
        return truths.pop() if len(truths) == 1 else UNKNOWN
    return brains.truth(value)


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

    def __init__(
        self,
        module: Module,
        documents: Mapping[str, object],
        budget: Budget | None = None,
        inputs: Callable[[str], object] | None = None,
        working: str | None = None,
    ) -> None:
        self.module = module
        # the folder the run works in, relative to the configuration root (`Path.cwd()`):
        # the running file's; None when not known
        self.working = working
        # what a job input (`dbutils.widgets.get("env")`) holds in the run being read:
        # the task's value, the widget's default, or a named input (the front end's
        # reader of inputs); without one, every input is a named input
        self.inputs = inputs
        self.documents = documents
        # the file's budget (see `budget`), shared with every other reader of its values
        self.budget = budget if budget is not None else Budget()
        self.opened: set[str] = set()
        # those opened by a path the code placed under the project (`__file__`, the
        # working folder, a package's folder), not relative to a working folder
        self.placed: set[str] = set()
        self._line = 0  # the line of the expression being evaluated (where a budget runs out)
        # ids of lists and dicts the code changes in place (or may: a call it is given
        # to that is not followed, a statement not followed that names it): they are
        # no longer the values known
        self._changed: set[int] = set()
        self._held: list[object] = []  # keeps those objects alive, so their ids stay theirs
        self._walrus = False  # the function being read binds names inside expressions
        self._locals: frozenset[str] = frozenset()  # the names local to the function being read
        self._shapes: dict[int, tuple[bool, bool, frozenset[str]]] = {}
        self._reading: ast.FunctionDef | None = None  # the function being read (a closure's maker)
        self._bound_again: dict[int, frozenset[str]] = {}  # see `bound_again`: worked out at a closure only
        self._lambdas: dict[int, ast.FunctionDef] = {}  # a lambda's function, made once (see `_closure`)
        # parts read so far that were not known or not followed (where Python may
        # raise unseen); none in a `try` body means it surely runs to its end
        self._unsure = 0
        # the module's functions a call of which was not read (by `id`), each with the
        # first reason: a reader that watches their statements (a Lakeflow dataset in
        # a factory) reads them once more on their own and says why, so that what such
        # a call would define is never lost without a note
        self.unfollowed: dict[int, str] = {}
        # the limits of counts the reading met (a loop or comprehension past MAX_LOOP
        # items, alternatives past MAX_COMBINATIONS), each once, by line: a reader that
        # finds a name unknown says which of them it may be (the file's budget keeps
        # its own stops, `Budget.spent`)
        self.limits: dict[tuple[int, str], None] = {}
        # a string built of a value not known shows it as a placeholder (see `call`)
        self._placeholders = False

    def call(self, name: str, args: list[object], kwargs: dict[str, object], placeholders: bool = False) -> object:
        """What `name(*args, **kwargs)` returns: a value of the lattice (see the
        module docstring); an `Unknown` says why it is not known. With
        `placeholders`, a string the function builds of a value not known (an
        argument only a run knows, `uuid4()`, `date.today()`) shows it as a named
        placeholder (`lattice.shown_unknown`, named by the `Unknown`'s own name or
        after the code that gives it) in a template `unknown` in part, rather than
        being unknown whole: a builder of another module, whose statement has no
        other reading, keeps its known parts (the table), as the file's own
        reading of a builder of its own does."""
        fn = self.module.functions.get(name)
        if fn is None:
            return Unknown(f"no value function `{name}`")
        self._placeholders = placeholders
        return self._settled(lambda: self._call(fn, args, kwargs, 0))

    def call_factory(
        self, cls: ast.ClassDef, method: ast.FunctionDef, args: list[object], kwargs: dict[str, object]
    ) -> object:
        """What a class or static method of `cls` returns (`Config.from_yaml(path)`:
        a loader that builds the class's object from a document), `cls` bound to the
        class. The class and its module's configuration classes are the objects the
        method can build (see `Made`)."""
        kinds = {d.id for d in method.decorator_list if isinstance(d, ast.Name)}
        if len(method.decorator_list) != 1 or not kinds & {"classmethod", "staticmethod"}:
            return Unknown("not a class or static method")
        if "classmethod" in kinds:
            if not (method.args.posonlyargs + method.args.args):
                return Unknown("a class method without `cls`")
            args = [cls, *args]
        return self._settled(lambda: self._call(method, args, kwargs, 0, decorated=True))

    def value(self, node: ast.expr, env: dict[str, object]) -> object:
        """What the expression gives with its names bound as `env` says (names not in
        it are the module's): a value of the lattice, as `call` gives."""
        return self._settled(lambda: self._expr(node, dict(env), 0))

    def collection(self, node: ast.expr, env: dict[str, object], partial: bool = False) -> object:
        """The collection `node` gives, its names bound as `env` says (names not in it
        are the module's): a list, tuple, dict or set (`Unordered`), or one of a few
        of them (`lattice.OneOf`), whose items may be templates or one of a few
        values (`[(f"{env}_bronze", "a")]`), as a loop binds them turn by turn; a
        dict view as the list of its items. Unknown when it is no collection known
        item by item, or holds more than MAX_LOOP items. With `partial`, items may
        hold values not known (a dict of names to DataFrames a helper returns:
        `{"daily": df, ...}.items()`): a loop's name bound to one is not known on
        that turn, while the others are (see `iteration.rows`)."""

        def read() -> object:
            value = self._expr(node, dict(env), 0)
            out: list[object] = []
            for each in alternatives(value):
                if _unknown(each):
                    return Unknown(f"a collection not known: {each.reason}")  # type: ignore[attr-defined]
                if isinstance(each, _View):
                    each = list(each)
                if not isinstance(each, (list, tuple, dict)):
                    return Unknown("no collection")
                if len(each) > MAX_LOOP:
                    return Unknown(f"a collection of more than {MAX_LOOP} items")
                parts = list(each.items()) if isinstance(each, dict) else each
                if _holds(
                    parts,
                    lambda v: (
                        (_unknown(v) and not partial)
                        or v is SET
                        or isinstance(v, (_View, Opened, Made, PurePosixPath))
                        or (isinstance(v, (list, dict)) and id(v) in self._changed)
                    ),
                ):
                    return Unknown("a collection of items not all known")
                out.append(each)
            return out[0] if len(out) == 1 else OneOf(tuple(out))

        return self._settled_items(read)

    def items(self, node: ast.expr, env: dict[str, object]) -> list[tuple[list[object], bool]] | Unknown:
        """What a loop over `node` runs through (see `collection`): for each
        collection it may be, its items in turn and whether their order is Python's
        (a set's is not, see `Unordered`); a dict its keys. An item may hold values
        not known (see `collection`'s `partial`)."""
        value = self.collection(node, env, partial=True)
        if _unknown(value):
            return value  # type: ignore[return-value]
        return [
            (list(each), not isinstance(each, Unordered))  # type: ignore[call-overload]
            for each in alternatives(value)
        ]

    def _settled_items(self, read: Callable[[], object]) -> object:
        """`read()`, where an error or the budget used up give unknown (as `_settled`,
        without its refusal of templates inside a container)."""
        try:
            return read()
        except OutOfBudget as err:
            if str(err):
                self.budget.note(self.module.path, self._line, str(err), lasting=True)
            return Unknown("the file's budget is used up")
        except TooBig as err:
            self.budget.note(self.module.path, self._line, str(err))
            return Unknown(str(err))
        except (NoValue, RecursionError, ValueError, TypeError, IndexError, KeyError, AttributeError):
            return Unknown("the code raises, or may")
        except (OverflowError, MemoryError):
            return Unknown("the code raises, or may")

    def _settled(self, evaluate: Callable[[], object]) -> object:
        """`evaluate()`, where an error, the budget used up or a value the code may
        have changed give unknown."""
        try:
            value = evaluate()
        except OutOfBudget as err:
            if str(err):  # the step that used the budget up (later calls fail at once)
                self.budget.note(self.module.path, self._line, str(err), lasting=True)
            return Unknown("the file's budget is used up")
        except TooBig as err:
            self.budget.note(self.module.path, self._line, str(err))
            return Unknown(str(err))
        except (NoValue, RecursionError):
            return Unknown("the code raises, or may")
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError, MemoryError):
            # an operation Python itself refuses on these values (`s[::0]`): the code
            # would raise here, so it gives no value
            return Unknown("the code raises, or may")
        # a list or dict it holds that the code changed in place is not the one known
        if any(
            v is not SET and type(v) is not Template and (self._uncertain(v) or _holds_view(v))
            for v in alternatives(value)
        ):
            return Unknown("it holds a value not known")  # a dict view is no list or tuple to the caller
        return value

    def _uncertain(self, value: object) -> bool:
        """Whether a value is, or holds, something not known (a list or dict the code
        changed in place included, and one of several values inside a container).
        The walk is charged to the file's budget by the container's size."""
        self.budget.look_through(value)
        return _holds(
            value,
            lambda v: type(v) in _NOT_PLAIN or v is SET or (isinstance(v, (list, dict)) and id(v) in self._changed),
        )

    # -- functions and statements ---------------------------------------------------

    def _call(
        self,
        fn: ast.FunctionDef,
        args: list[object],
        kwargs: dict[str, object],
        depth: int,
        decorated: bool = False,
        captured: Mapping[str, object] | None = None,
        keep: dict[str, object] | None = None,
    ) -> object:
        """What a call of `fn` returns; `keep` (when given) gets the names as the
        ways that run to its end leave them (`self` after an `__init__`)."""
        if (
            depth >= MAX_DEPTH
            or fn.args.vararg
            or fn.args.kwarg
            or (fn.decorator_list and not decorated)
            or self._shape(fn)[1]
        ):
            # a decorator or a `yield` makes the call something else: what it changes is not known
            if id(fn) not in self.unfollowed:
                self.unfollowed[id(fn)] = _why_unfollowed(fn, depth, decorated, self._shape(fn)[1])
            return self._unfollowed(Unknown("a call not followed"), args, kwargs)
        params = fn.args.posonlyargs + fn.args.args
        if len(args) > len(params):
            if id(fn) not in self.unfollowed:
                self.unfollowed[id(fn)] = f"`{fn.name}` is called with more arguments than parameters"
            return self._unfollowed(Unknown("more arguments than parameters"), args, kwargs)
        names = {p.arg for p in params + fn.args.kwonlyargs}
        if set(kwargs) - names:
            raise NoValue  # an unexpected keyword argument: a TypeError
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
                if id(fn) not in self.unfollowed:
                    self.unfollowed[id(fn)] = f"`{fn.name}` is called without a required argument"
                return Unknown("a required argument not given")
        for name, value in (captured or {}).items():
            env.setdefault(name, value)  # a closure's names of the function it was made in
        outer = self._walrus, self._locals, self._reading
        self._walrus, self._locals, self._reading = self._shape(fn)[0], self._shape(fn)[2], fn
        try:
            returned, falls = self._block(fn.body, env, depth)
        finally:
            self._walrus, self._locals, self._reading = outer
        if falls:
            returned.append(None)
            if keep is not None:
                keep.update(env)
        return self._join(returned)

    def _limit(self, line: int, why: str) -> None:
        """A limit of counts met at a line (see `limits`): only kept, never a stop."""
        if len(self.limits) < 64:
            self.limits.setdefault((line, why), None)

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

    def _closure(self, fn: ast.FunctionDef, env: dict[str, object]) -> object:
        """A lambda or a nested function made here (see `Closure`): the names of the
        function being read that it reads, as they are now where that function binds
        them once, else not known."""
        walrus, generator, own = self._shape(fn)
        if walrus or generator or fn.decorator_list or any(isinstance(n, ast.Nonlocal) for n in ast.walk(fn)):
            return Unknown("a local definition")
        read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        maker = self._reading
        if maker is not None and id(maker) not in self._bound_again:
            self._bound_again[id(maker)] = bound_again(maker)
        bound = self._bound_again[id(maker)] if maker is not None else frozenset()
        captured: dict[str, object] = {}
        for name in (read & self._locals) - own:
            held = env.get(name, _MAYBE_UNBOUND)
            again = name in bound or held is _MAYBE_UNBOUND
            captured[name] = Unknown("a name the enclosing function binds again") if again else held
        return Closure(fn, captured)

    def _block(self, body: list[ast.stmt], env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        """(the values returned on the ways that return, whether a way goes on past
        the statements); `env` is then what the ways that go on bind."""
        returned: list[object] = []
        for stmt in body:
            values, falls = self._stmt(stmt, env, depth)
            returned += values
            if not falls:
                return returned, False
        return returned, True

    def _stmt(self, stmt: ast.stmt, env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        self.budget.step()  # every statement costs a step (a loop of `pass` too)
        self._line = stmt.lineno
        if isinstance(stmt, ast.Return):
            return [None if stmt.value is None else self._expr(stmt.value, env, depth)], False
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            if self.module.classes and self._makes_class(stmt, env):
                return [], True
            if stmt.value is not None:
                value = self._expr(stmt.value, env, depth)
                for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                    self._assign(target, value, env)
            return [], True
        if isinstance(stmt, ast.AugAssign):
            current = self._expr(stmt.target, env, depth) if isinstance(stmt.target, ast.Name) else UNKNOWN
            value = self._lift(lambda a, b: self._binop(stmt.op, a, b), current, self._expr(stmt.value, env, depth))
            for each in alternatives(current):
                if isinstance(each, list):
                    self._change(each)  # `xs += [...]` extends the list in place: other names see it
            self._assign(stmt.target, value, env)
            return [], True
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
                    owner, key = self._expr(target.value, env, depth), self._expr(target.slice, env, depth)
                    if isinstance(owner, dict) and isinstance(key, (str, int)) and key not in owner:
                        raise NoValue  # `del d["missing"]`: a KeyError
                self._assign(target, Unknown("deleted"), env)
            return [], True
        if isinstance(stmt, ast.If):
            test = truth(self._expr(stmt.test, env, depth))
            if _unknown(test):
                return self._both(stmt.body, stmt.orelse, env, depth)
            return self._block(stmt.body if test else stmt.orelse, env, depth)
        if isinstance(stmt, ast.With):
            for item in stmt.items:
                value = self._expr(item.context_expr, env, depth)
                if item.optional_vars is not None:
                    opened = value if isinstance(value, Opened) else Unknown("a context manager")
                    self._assign(item.optional_vars, opened, env)
            return self._block(stmt.body, env, depth)
        if isinstance(stmt, ast.Expr):
            self._expr(stmt.value, env, depth)  # `parts.append(x)`: what it changes is no longer known
            return [], True
        if isinstance(stmt, ast.FunctionDef):  # `def fq(t): ...` inside a function
            env[stmt.name] = self._closure(stmt, env)
            return [], True
        if isinstance(stmt, (ast.AsyncFunctionDef, ast.ClassDef)):
            env[stmt.name] = Unknown("a local definition")  # not the module's function of that name
            return [], True
        if isinstance(stmt, ast.Assert):
            if truth(self._expr(stmt.test, env, depth)) is not True:
                raise NoValue  # fails, or may
            return [], True
        if isinstance(stmt, (ast.Pass, ast.Import, ast.ImportFrom)):
            return [], True
        if isinstance(stmt, ast.Raise):
            raise NoValue
        if isinstance(stmt, ast.For) and (stmt.orelse or _jumps(stmt.body)):
            unjumped = without_jumps(stmt)  # `for p in candidates: if p.exists(): break`
            if unjumped is not None:
                return self._block(unjumped, env, depth)
        if isinstance(stmt, ast.For) and not stmt.orelse and not _jumps(stmt.body):
            items = self._expr(stmt.iter, env, depth)
            if isinstance(items, dict):
                items = list(items)
            if isinstance(items, Unordered) and len(items) > 1:
                return self._loop(stmt, env, depth)  # (a listing, a set) its turns' order only a run tells
            if isinstance(items, (list, tuple, str)) and len(items) <= MAX_LOOP and not self._uncertain(items):
                returned: list[object] = []
                for item in list(items):  # a known, short sequence: each turn is read
                    self._assign(stmt.target, item, env)
                    values, falls = self._block(stmt.body, env, depth)
                    returned += values
                    if not falls:
                        return returned, False
                return returned, True
            if plain_scalar(items) and not isinstance(items, str):
                raise NoValue  # `for x in 5`: a TypeError
            if isinstance(items, (list, tuple, str)) and len(items) > MAX_LOOP:
                self._limit(stmt.lineno, f"a loop over {len(items):,} items, more than the {MAX_LOOP} read one by one")
            return self._loop(stmt, env, depth)
        if isinstance(stmt, ast.While) and not stmt.orelse and not _jumps(stmt.body):
            return self._while(stmt, env, depth)
        if isinstance(stmt, ast.Try) and not _exits(stmt.finalbody):
            return self._try(stmt, env, depth)
        if isinstance(stmt, ast.Match):
            return self._match(stmt, env, depth)
        return self._undecided(stmt, env)  # other while, try, match: what they bind is not followed

    def _while(self, stmt: ast.While, env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        """A `while` (no `break`, `continue` or `else`): while its test is known it is
        read turn by turn, as Python runs it (`while n < 3: ... n = n + 1`); from the
        first turn whose test is not known, as a loop that may run no more turns or
        any number of them (see `_loop`). A test still true after MAX_LOOP turns is
        a loop that does not end here: what it binds is not followed."""
        returned: list[object] = []
        for _ in range(MAX_LOOP):
            test = truth(self._expr(stmt.test, env, depth))
            if _unknown(test):
                more, falls = self._loop(stmt, env, depth)
                return returned + more, falls
            if not test:
                return returned, True
            values, falls = self._block(stmt.body, env, depth)
            returned += values
            if not falls:
                return returned, False
        self._limit(stmt.lineno, f"a `while` loop still running after {MAX_LOOP} turns")
        more, falls = self._undecided(stmt, env)
        return returned + more, falls

    def _try(self, stmt: ast.Try, env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        """`try`: the body (then `else`) runs to its end, or any part of it runs and
        a handler then does. Both ways are read and joined; a handler starts from the
        names as before the body, those the body binds unknown (it may have stopped
        anywhere). A body whose every part is known and followed surely ends: no
        handler runs; handlers that all end by raising add no way either (the body
        is read as outside a `try`). Where the body surely raises, handlers that catch every error
        (`except:`, `except Exception:`) make only a reading of the whole statement
        as not followed sound; with none, or with handlers of some errors only (which
        error it is is not known), Python may raise: no value. An error a handler of
        some errors does not catch, in a part not followed, is not seen (as a call's
        error is not). A `finally` (without `return`, `break` or `continue`, see
        `_exits`) runs after the ways that go on, and is read for the error it raises
        after the ways that return."""
        if stmt.handlers and all(map(_catches_all, stmt.handlers)):
            try:
                returned, falls = self._handled(stmt, env, depth)
            except NoValue:
                return self._undecided(stmt, env)
        else:
            returned, falls = self._handled(stmt, env, depth)
        if not stmt.finalbody:
            return returned, falls
        if returned or not falls:  # `finally` runs before the `return`: does it raise?
            seen = dict(env)
            for name in set().union(*(bound_names(s) for s in [*stmt.body, *stmt.handlers, *stmt.orelse])):
                seen[name] = Unknown("bound in a `try` before its `finally`")
            self._block(stmt.finalbody, seen, depth)
        if falls:
            _, falls = self._block(stmt.finalbody, env, depth)
        return returned, falls

    def _match(self, stmt: ast.Match, env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        """`match`: the cases are tried in order, as Python tries them, on the
        subject's value. A case whose pattern (and guard) surely matches is the last
        one tried; one that surely does not is passed over; one that may match (a
        subject or guard not known, a class pattern) is read from the names before it
        with its captures bound, and the cases after it are read too, from the names
        before it with those it may have bound unknown (a failed pattern may leave
        some bound). What the ways that go on bind, no case matching included unless
        one surely matches, is joined."""
        subject = self._expr(stmt.subject, env, depth)
        ways: list[dict[str, object]] = []
        returned: list[object] = []
        current = dict(env)
        for case in stmt.cases:
            captured: dict[str, object] = {}
            matched = self._pattern(case.pattern, subject, captured, current, depth)
            if matched is False:
                continue
            may_bind = bound_names(case.pattern) | set(captured)
            if matched is None:  # where it matches, it binds every name it captures
                for name in may_bind:
                    captured.setdefault(name, Unknown("captured from a value not known"))
            own = {**current, **captured}
            if case.guard is not None:
                guard = truth(self._expr(case.guard, own, depth))
                if guard is False:  # the captures stay bound when the guard fails
                    current = own if matched else {**current, **dict.fromkeys(may_bind, MAY_HAVE_BOUND)}
                    continue
                if _unknown(guard):
                    matched = None
            values, falls = self._block(case.body, own, depth)
            returned += values
            if falls:
                ways.append(own)
            if matched is True:
                break
            for name in may_bind:
                current[name] = MAY_HAVE_BOUND
        else:
            ways.append(current)
        return returned, self._join_into(env, ways)

    def _pattern(
        self, pattern: ast.pattern, value: object, captured: dict[str, object], env: dict[str, object], depth: int
    ) -> bool | None:
        """Whether `value` matches `pattern` (None: not known), its captures added to
        `captured` as Python binds them."""
        if isinstance(pattern, ast.MatchAs):
            matched = True if pattern.pattern is None else self._pattern(pattern.pattern, value, captured, env, depth)
            if pattern.name and matched is not False:
                captured[pattern.name] = value
            return matched
        if isinstance(pattern, ast.MatchOr):
            unsure = False
            for option in pattern.patterns:
                own: dict[str, object] = {}
                matched = self._pattern(option, value, own, env, depth)
                if matched is True and not unsure:
                    captured.update(own)
                    return True
                if matched is not False:
                    unsure = True
                    captured.update({name: Unknown("bound by one of several patterns") for name in own})
            return None if unsure else False
        if _unknown(value) or type(value) is OneOf or self._uncertain(value):
            return None
        if isinstance(pattern, ast.MatchSingleton):
            return value is pattern.value
        if isinstance(pattern, ast.MatchValue):
            expected = self._expr(pattern.value, env, depth)
            if not (plain_scalar(expected) and (plain_scalar(value) or isinstance(value, (list, tuple, dict)))):
                return None  # an object the evaluator models: its `==` is not told here
            return value == expected
        if isinstance(pattern, ast.MatchSequence):
            if not isinstance(value, (list, tuple)):
                return False if isinstance(value, (str, dict)) or plain_scalar(value) else None
            star = next((i for i, p in enumerate(pattern.patterns) if isinstance(p, ast.MatchStar)), None)
            count = len(pattern.patterns)
            if (len(value) != count) if star is None else (len(value) < count - 1):
                return False
            items = list(value)
            if star is not None:
                tail = count - 1 - star
                parts = [*items[:star], items[star : len(items) - tail], *items[len(items) - tail :]]
            else:
                parts = items
            result: bool | None = True
            for sub, item in zip(pattern.patterns, parts):
                if isinstance(sub, ast.MatchStar):
                    if sub.name:
                        captured[sub.name] = list(item)  # type: ignore[call-overload]
                    continue
                matched = self._pattern(sub, item, captured, env, depth)
                if matched is False:
                    return False
                if matched is None:
                    result = None
            return result
        if isinstance(pattern, ast.MatchMapping):
            if not isinstance(value, dict):
                return False if isinstance(value, (str, list, tuple)) or plain_scalar(value) else None
            result = True
            for key_node, sub in zip(pattern.keys, pattern.patterns):
                found = self._expr(key_node, env, depth)
                if not isinstance(found, (str, int)):
                    return None
                if found not in value:
                    return False
                matched = self._pattern(sub, value[found], captured, env, depth)
                if matched is False:
                    return False
                if matched is None:
                    result = None
            if pattern.rest:
                keys = {self._expr(k, env, depth) for k in pattern.keys}
                captured[pattern.rest] = {k: v for k, v in value.items() if k not in keys}
            return result
        return None  # a class pattern: which classes the value is of is not told here

    def _handled(self, stmt: ast.Try, env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        """The body, `else` and handlers of a `try` read as `_try` says, `env` left as
        the ways that go on bind."""
        ran = dict(env)
        unsure = self._unsure
        returned, falls = self._block(stmt.body, ran, depth)
        # every part known and followed: no error, no handler; or every handler ends by
        # raising (`logger.error(...)` then `raise`): a way through one goes on no more
        # than the error it caught would, and an error in a part not followed is not
        # seen (as outside a `try`)
        if self._unsure == unsure or all(map(_ends_raising, stmt.handlers)):
            if falls and stmt.orelse:
                more, falls = self._block(stmt.orelse, ran, depth)
                returned += more
            env.clear()
            env.update(ran)
            return returned, falls
        if falls and stmt.orelse:
            more, falls = self._block(stmt.orelse, ran, depth)
            returned += more
        ways = [ran] if falls else []
        stopped = dict(env)
        for name in set().union(*(bound_names(s) for s in stmt.body)):
            stopped[name] = Unknown("bound in a `try` body that may stop anywhere")
        for handler in stmt.handlers:
            caught = dict(stopped)
            if handler.name:
                caught[handler.name] = Unknown("the error caught")
            values, handled = self._block(handler.body, caught, depth)
            returned += values
            if handled:
                if handler.name:  # Python unbinds it after the handler
                    caught.pop(handler.name, None)
                ways.append(caught)
        return returned, self._join_into(env, ways)

    def _join_into(self, env: dict[str, object], ways: list[dict[str, object]]) -> bool:
        """Bind `env` to the join of the ways that go on past a `match`, `try` or
        loop; False (env untouched) when none does."""
        if ways:
            joined = self._join_envs(ways)
            env.clear()
            env.update(joined)
        return bool(ways)

    def _loop(self, stmt: ast.For | ast.While, env: dict[str, object], depth: int) -> tuple[list[object], bool]:
        """A `for` over items not known one by one, or a `while` whose test is not
        known: it may run no turn or any number of them. The body is read (on an
        unknown item; after the `while` test, read for the error it may raise) from
        what the names hold before it, and joined with that, until the names hold
        still (MAX_LOOP_ROUNDS rounds); a name that never holds still, and what
        depends on it, is unknown."""
        item = Unknown("an item of a sequence not known")
        returned: list[object] = []
        current = dict(env)
        for _ in range(MAX_LOOP_ROUNDS):
            turn = dict(current)
            if isinstance(stmt, ast.While):
                self._expr(stmt.test, turn, depth)
            else:
                self._assign(stmt.target, item, turn)
            values, falls = self._block(stmt.body, turn, depth)
            returned += values
            joined = self._join_envs([current, turn]) if falls else current
            if _same_envs(joined, current):
                break
            current = joined
        else:  # never held still: what the loop binds is not known
            self._limit(stmt.lineno, f"a loop whose names change on each of {MAX_LOOP_ROUNDS} readings of its body")
            for name in bound_names(stmt):
                current[name] = Unknown("changed on every turn of a loop")
        env.clear()
        env.update(current)
        return returned, True

    def _both(
        self, body: list[ast.stmt], orelse: list[ast.stmt], env: dict[str, object], depth: int
    ) -> tuple[list[object], bool]:
        """An `if` whose test is not known: both ways are read, each on its own copy
        of the names, and what the ways that go on bind is joined."""
        ways = []
        returned: list[object] = []
        for branch in (body, orelse):
            own = dict(env)
            values, falls = self._block(branch, own, depth)
            returned += values
            if falls:
                ways.append(own)
        return returned, self._join_into(env, ways)

    def _join_envs(self, ways: list[dict[str, object]]) -> dict[str, object]:
        """`lattice.join_envs` with this evaluator's `_join`; a name some way leaves
        unbound may be unbound (reading it gives no value)."""
        return join_envs(ways, self._join, unbound=_MAYBE_UNBOUND)

    def _join(self, values: list[object]) -> object:
        """`lattice.join`, with the lists and dicts of the evaluator: the same object
        on every way stays itself; two built on different ways are not joined (which
        of them another name holds is no longer known, nor what changes them)."""
        first = values[0] if values else None
        if all(v is first for v in values):
            return first
        if any(_holds(v, lambda x: isinstance(x, (list, dict))) for v in values):
            return Unknown("a list or dict built on each way")
        joined = join(values)
        if type(joined) is Unknown and joined.reason.startswith("more than") and len(values) > 1:
            self._limit(self._line, f"{joined.reason} where ways meet, more than the alternatives kept")
        return joined

    def _undecided(self, stmt: ast.stmt, env: dict[str, object]) -> tuple[list[object], bool]:
        """A statement whose effect is not known: the names it binds become unknown,
        so do the lists and dicts it names (it may change them), and a `return` or
        `raise` inside it makes the result unknown."""
        returns = False
        self._unsure += 1
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Raise, ast.Assert)):
                raise NoValue  # it may raise: no value can be told
            if isinstance(node, ast.Return):
                returns = True
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                # only to find the lists and dicts it names: its own loop variable is no
                # unbound local here
                self._change(self._name(node.id, env, MAX_DEPTH, bound_only=False))
        not_followed = Unknown(f"a `{type(stmt).__name__.lower()}` statement not followed")
        for name in bound_names(stmt):
            env[name] = not_followed
        return ([not_followed], True) if returns else ([], True)

    def _change(self, value: object, depth: int = 0) -> None:
        """The list or dict, and those it holds (a call may change any of them), are
        no longer the values known."""
        if isinstance(value, (list, dict)) and depth <= 32 and id(value) not in self._changed:
            self._changed.add(id(value))
            self._held.append(value)
            for inner in value.values() if isinstance(value, dict) else value:
                self._change(inner, depth + 1)

    def _known(self, value: object) -> object:
        """The value, or unknown when it is a list or dict the code may have changed."""
        if isinstance(value, (list, dict)) and id(value) in self._changed:
            return Unknown("changed in place")
        return value

    def _assign(self, target: ast.expr, value: object, env: dict[str, object]) -> None:
        if isinstance(target, (ast.Attribute, ast.Subscript)) and self._set_on_object(target, value, env):
            return
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            starred = any(isinstance(t, ast.Starred) for t in target.elts)
            unpacked = [self._unpack(len(target.elts), each, starred) for each in alternatives(value)]
            for i, t in enumerate(target.elts):
                self._assign(t.value if isinstance(t, ast.Starred) else t, self._join([u[i] for u in unpacked]), env)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            if self._set_key(target, value, env):
                return
            # `d["a"] = x`, `cfg["parts"][0] = x`: the containers on the way are changed
            # in place (also where another name holds them): not followed
            node: ast.expr = target
            while isinstance(node, (ast.Subscript, ast.Attribute)):
                node = node.value
                if isinstance(node, ast.Name):
                    for each in alternatives(self._name(node.id, env, MAX_DEPTH)):
                        self._change(each)
                    if node.id in env:
                        env[node.id] = Unknown("changed in place")
                else:
                    for each in alternatives(self._quiet(node, env)):
                        self._change(each)

    def _makes_class(self, stmt: ast.Assign | ast.AnnAssign, env: dict[str, object]) -> bool:
        """`C = namedtuple("C", [...])` of a class the module knows (see `Module.of`):
        the name holds that class, as a `class` statement's name does."""
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        if not (isinstance(target, ast.Name) and target.id in self.module.classes):
            return False
        made = namedtuple_class(stmt)
        if made is None or self.module.classes[target.id] is not made:
            return False
        env[target.id] = made
        return True

    def _set_on_object(self, target: ast.Attribute | ast.Subscript, value: object, env: dict[str, object]) -> bool:
        """`self.x = v` where the name holds an object the evaluator built (`Made`):
        the name holds a copy with the attribute set (other names holding the object
        forget it: which of them sees the change is not followed), so the two ways
        of an `if` hold two objects. `self.conf["k"] = v`, `self.a.b = v`: what
        `self.conf` holds is changed in place, the attribute unknown. False where
        the name holds no such object."""
        root: ast.expr = target
        while isinstance(root, (ast.Subscript, ast.Attribute)):
            root = root.value
        held = env.get(root.id) if isinstance(root, ast.Name) else None
        if held is None or not all(isinstance(each, Made) for each in alternatives(held)):
            return False
        assert isinstance(root, ast.Name)
        if isinstance(target, ast.Attribute) and target.value is root:
            new = value
        else:
            for each in alternatives(self._quiet(target.value, env)):
                self._change(each)
            new = Unknown("changed in place")
        first: ast.expr = target
        while isinstance(first, (ast.Subscript, ast.Attribute)) and first.value is not root:
            first = first.value
        if not isinstance(first, ast.Attribute):
            return False
        copies = [Made(each.cls, {**each.fields, first.attr: new}) for each in alternatives(held)]  # type: ignore[attr-defined]
        for name, other in list(env.items()):
            if other is held and name != root.id:
                env[name] = Unknown("an object changed through another name")
        env[root.id] = copies[0] if len(copies) == 1 else self._join(copies)
        return True

    def _set_key(self, target: ast.expr, value: object, env: dict[str, object]) -> bool:
        """`d["catalog"] = d[env]["catalog"]` where `d` is a local name holding a known
        dict and the key is known (a loader filling in a configuration's fields):
        the name holds a copy with that key set, and the dict it held before counts
        as changed in place, so any other name or container that still holds it
        reads it as unknown, as it would for any other store. False where this is
        not such a store (a nested target, an unknown key, a name of the module or
        several dicts): the caller treats it as a change of unknown effect."""
        if not (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and not isinstance(target.slice, ast.Slice)
            and target.value.id in env
        ):
            return False
        held = env[target.value.id]
        if type(held) is not dict or id(held) in self._changed:
            return False
        key = self._quiet(target.slice, env)
        if type(key) not in (str, int):
            return False
        check_items(len(held) + 1)
        self._changed.add(id(held))  # the dict itself only: what it holds is not changed
        self._held.append(held)
        env[target.value.id] = {**held, key: value}
        return True

    def _dict_change(
        self, name: str, method: str, args: list[object], kwargs: dict[str, object], env: dict[str, object]
    ) -> object:
        """`d.setdefault(k, v)` and `d.update(...)` where `d` is a local
        name holding a known dict and the keys are known (a loader filling in a
        document's defaults): as `_set_key` does, the name holds a copy so changed
        and the dict it held counts as changed in place; the call's result is
        Python's. `_NOT_CHANGED` for any other call (the caller's generic reading)."""
        held = env.get(name)
        if type(held) is not dict or id(held) in self._changed:
            return _NOT_CHANGED
        if any(_unknown(k) or isinstance(k, Template) for k in args[:1]):
            return _NOT_CHANGED
        if method == "setdefault" and 1 <= len(args) <= 2 and not kwargs and type(args[0]) in (str, int):
            if args[0] in held:
                return held[args[0]]
            new = {**held, args[0]: args[1] if len(args) == 2 else None}
            result = new[args[0]]
        elif method == "update" and len(args) <= 1 and (not args or type(args[0]) is dict):
            added = {**(args[0] if args else {}), **kwargs}  # type: ignore[dict-item]
            if not all(type(k) in (str, int) for k in added):
                return _NOT_CHANGED
            new, result = {**held, **added}, None
        else:
            return _NOT_CHANGED
        check_items(len(new))
        self._changed.add(id(held))  # the dict itself only: what it holds is not changed
        self._held.append(held)
        env[name] = new
        return result

    @staticmethod
    def _unpack(count: int, value: object, starred: bool) -> list[object]:
        """The values `a, b = value` binds, in order (unknown where not told)."""
        if plain_scalar(value) and not isinstance(value, str):
            raise NoValue  # `a, b = 5`: a number is not iterable
        values = list(value) if isinstance(value, (tuple, list, str)) else None
        if values is not None and not starred and len(values) != count:
            raise NoValue  # too many or too few values to unpack
        if starred or values is None:
            return [Unknown("unpacked")] * count
        return values

    def _quiet(self, node: ast.expr, env: dict[str, object]) -> object:
        try:
            return self._expr(node, env, MAX_DEPTH)
        except (OutOfBudget, TooBig, NoValue):
            raise
        except Exception:  # noqa: BLE001 - only to find the container a store changes
            return UNKNOWN

    # -- expressions --------------------------------------------------------------

    def _expr(self, node: ast.expr, env: dict[str, object], depth: int) -> object:
        value = self._value_of(node, env, depth)
        if _unknown(value):
            self._unsure += 1  # a part not followed: Python may raise there (see `_try`)
        if self._walrus and _unknown(value):
            # a part not read (after an unknown value, in a comprehension) may bind a
            # name with `:=`: that name is no longer known
            for inner in ast.walk(node):
                if isinstance(inner, ast.NamedExpr) and isinstance(inner.target, ast.Name):
                    env[inner.target.id] = Unknown("bound by `:=` in a part not read")
        return value

    def _lift(self, operation: Callable[..., object], *operands: object) -> object:
        """`operation` on plain operands; on one of several values, once per
        combination of alternatives, joined (unknown past MAX_COMBINATIONS)."""
        if not any(type(o) is OneOf for o in operands):
            return operation(*operands)
        combinations = itertools.product(*(alternatives(o) for o in operands))
        results = []
        for combination in itertools.islice(combinations, MAX_COMBINATIONS + 1):
            results.append(operation(*combination))
        if len(results) > MAX_COMBINATIONS:
            self._limit(self._line, f"more than {MAX_COMBINATIONS} combinations of alternatives")
            return Unknown(f"more than {MAX_COMBINATIONS} combinations of alternatives")
        return self._join(results)

    def _value_of(self, node: ast.expr, env: dict[str, object], depth: int) -> object:
        self.budget.step()
        self._line = getattr(node, "lineno", self._line)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, int, float, bool, type(None))):
                return node.value
            return Unknown("a constant of another kind")
        if isinstance(node, ast.Name):
            return self._known(self._name(node.id, env, depth))
        if isinstance(node, ast.NamedExpr):
            value = self._expr(node.value, env, depth)
            self._assign(node.target, value, env)
            return value
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, env, depth)
        if isinstance(node, ast.BinOp):
            left, right = self._expr(node.left, env, depth), self._expr(node.right, env, depth)
            if self._placeholders and isinstance(node.op, ast.Add):  # `"INSERT ... VALUES " + rows`
                if _unknown(left) and _texts(right):
                    left = self._shown(left, node.left)
                elif _unknown(right) and _texts(left):
                    right = self._shown(right, node.right)
            if self._placeholders and isinstance(node.op, ast.Mod) and isinstance(left, str):
                # `"... WHERE run_id = '%s'" % run_id`, `% (table, run_id)`: as an f-string shows them
                if isinstance(node.right, ast.Tuple) and isinstance(right, tuple):
                    right = tuple(self._shown(v, n) if _unknown(v) else v for v, n in zip(right, node.right.elts))
                elif _unknown(right):
                    right = self._shown(right, node.right)
                if any(isinstance(v, Template) for v in (right if isinstance(right, tuple) else (right,))):
                    return _percent_shown(left, right)
            return self._lift(lambda a, b: self._binop(node.op, a, b), left, right)
        if isinstance(node, ast.BoolOp):
            return self._boolop(node, env, depth)
        if isinstance(node, ast.UnaryOp):
            return self._lift(lambda v: _unary(node.op, v), self._expr(node.operand, env, depth))
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self._expr(node.left, env, depth), self._expr(node.comparators[0], env, depth)
            return self._lift(lambda a, b: self._compare(node.ops[0], a, b), left, right)
        if isinstance(node, ast.IfExp):
            test = truth(self._expr(node.test, env, depth))
            if _unknown(test):
                if self._walrus:
                    return Unknown("a condition not known")
                return self._join([self._expr(node.body, env, depth), self._expr(node.orelse, env, depth)])
            return self._expr(node.body if test else node.orelse, env, depth)
        if isinstance(node, ast.Subscript):
            owner = self._expr(node.value, env, depth)
            if isinstance(node.slice, ast.Slice):
                bounds = [
                    self._expr(b, env, depth) if b is not None else None
                    for b in (node.slice.lower, node.slice.upper, node.slice.step)
                ]
                return self._lift(lambda o, *b: self._known(_slice(o, b)), owner, *bounds)
            key = self._expr(node.slice, env, depth)
            if isinstance(key, str) and _unknown(owner) and self._dotted(node.value, env) == "os.environ":
                return _environment(key)  # `os.environ["CATALOG"]`, as `os.getenv("CATALOG")`
            return self._lift(lambda o, k: self._known(_index(o, k)), owner, key)
        if isinstance(node, (ast.List, ast.Tuple)):
            items = self._displayed(node.elts, env, depth)
            if _unknown(items):
                return items
            return items if isinstance(node, ast.List) else tuple(items)  # type: ignore[arg-type]
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                key = self._expr(k, env, depth) if k is not None else UNKNOWN
                if not isinstance(key, (str, int)) and not _plain_tuple(key):
                    return Unknown("a key not known")  # (`{("silver", "t"): cols}`: a tuple of known items)
                out[key] = self._expr(v, env, depth)
            return out
        if isinstance(node, ast.Attribute):
            dotted = self._dotted(node.value, env)
            if dotted is not None:  # `re.IGNORECASE`: a module's constant
                return brains.RE_CONSTANTS.get(f"{dotted}.{node.attr}", UNKNOWN)
            return self._lift(lambda o: self._member(o, node.attr, depth), self._expr(node.value, env, depth))
        if isinstance(node, ast.Call):
            return self._call_expr(node, env, depth)
        if isinstance(node, (ast.ListComp, ast.DictComp)):
            return self._comprehension(node, env, depth)
        if isinstance(node, ast.Lambda):
            if id(node) not in self._lambdas:
                self._lambdas[id(node)] = lambda_function(node)
            return self._closure(self._lambdas[id(node)], env)
        if isinstance(node, ast.Set):
            items = self._displayed(node.elts, env, depth, unordered=True)
            return items if _unknown(items) else _set_of(items)  # type: ignore[arg-type]
        if isinstance(node, ast.SetComp):
            built = self._comprehension(ast.copy_location(ast.ListComp(node.elt, node.generators), node), env, depth)
            return _set_of(built) if isinstance(built, list) else built
        return Unknown(f"a `{type(node).__name__}` expression")

    def _displayed(
        self, elts: list[ast.expr], env: dict[str, object], depth: int, unordered: bool = False
    ) -> list[object] | Unknown:
        """The items a list, tuple or set display gives (`[*A, *B, "x"]`): a starred
        part's items in turn, when it is a known collection (a set's only inside a
        set: elsewhere their order would be guessed)."""
        items: list[object] = []
        for element in elts:
            if not isinstance(element, ast.Starred):
                items.append(self._expr(element, env, depth))
                continue
            part = self._expr(element.value, env, depth)
            spread = brains.ITERATION_BUILTINS["list"]([part], {}) if not _unknown(part) else part
            if _unknown(spread) or (type(spread) is Unordered and not unordered):
                return Unknown("a starred item not known")
            items.extend(spread)  # type: ignore[arg-type]
            check_items(len(items))
        return items

    def _comprehension(self, node: ast.ListComp | ast.DictComp, env: dict[str, object], depth: int) -> object:
        """`[f(x) for x in xs if c]` (and a dict's) as Python runs it: over known
        sequences of up to MAX_LOOP items in all, each item read in a scope of its
        own (the loop names do not reach the function's). An iterable not known one
        by one, a condition not known, or a `:=` inside (it binds the function's
        name on some turns) give unknown; iterating a number raises."""
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
            return Unknown("a `:=` in a comprehension")
        rows = [dict(env)]
        in_no_order = False  # over a set or a listing: the list's order only a run tells
        for generator in node.generators:
            if generator.is_async:
                return Unknown("an async comprehension")
            turns: list[dict[str, object]] = []
            for row in rows:
                items = self._expr(generator.iter, row, depth)
                if isinstance(items, dict):
                    items = list(items)
                if plain_scalar(items) and not isinstance(items, str):
                    raise NoValue  # `[x for x in 5]`: a TypeError
                if not isinstance(items, (list, tuple, str)) or self._uncertain(items):
                    return Unknown("a comprehension over items not known one by one")
                in_no_order = in_no_order or (isinstance(items, Unordered) and len(items) > 1)
                for item in list(items):
                    turn = dict(row)
                    self._assign(generator.target, item, turn)
                    kept = True
                    for test in generator.ifs:
                        kept = truth(self._expr(test, turn, depth))
                        if _unknown(kept):
                            return Unknown("a comprehension's condition not known")
                        if not kept:
                            break
                    if kept:
                        turns.append(turn)
                    if len(turns) > MAX_LOOP:
                        self._limit(node.lineno, f"a comprehension of more than {MAX_LOOP} items")
                        return Unknown(f"a comprehension of more than {MAX_LOOP} items")
            rows = turns
        if isinstance(node, ast.ListComp):
            built = [self._expr(node.elt, row, depth) for row in rows]
            return unordered(built) if in_no_order else built
        out: dict[object, object] = {}
        for row in rows:
            key = self._expr(node.key, row, depth)
            if not isinstance(key, (str, int)):
                return Unknown("a key not known")
            out[key] = self._expr(node.value, row, depth)
        return out

    def _boolop(self, node: ast.BoolOp, env: dict[str, object], depth: int) -> object:
        """`a or b`, `a and b`: the operand that decides; where its truth is not known
        (one of values that differ), each way: the values that decide it, joined with
        what the rest gives."""
        deciding = isinstance(node.op, ast.Or)
        kept: list[object] = []  # values of the operands read so far that decide on some way
        value: object = None
        for index, part in enumerate(node.values):
            value = self._expr(part, env, depth)
            if index == len(node.values) - 1:
                break
            test = truth(value)
            if _unknown(test):
                if type(value) is not OneOf or self._walrus:
                    return Unknown("a condition not known")
                kept += [v for v in value.values if brains.truth(v) == deciding]
                continue
            if test == deciding:
                return self._join([*kept, value]) if kept else value
        return self._join([*kept, value]) if kept else value

    def _name(self, name: str, env: dict[str, object], depth: int, bound_only: bool = True) -> object:
        if name in env:
            value = env[name]
            if value is _MAYBE_UNBOUND:
                if not bound_only:
                    return UNKNOWN
                raise NoValue  # bound on some ways only: may be an UnboundLocalError
            return value
        if name in self._locals:
            if not bound_only:
                return UNKNOWN
            raise NoValue  # a local name read before it is bound: an UnboundLocalError
        module = self.module
        if name in module.values:
            return module.values[name]
        if name in module.pending:
            self._import(depth)
            return module.values[name]
        if name in module.assigned:
            module.values[name] = Unknown("a definition that reads itself")
            module.values[name] = self._expr(module.assigned[name], {}, depth)
            return module.values[name]
        return Unknown(f"`{name}` not known")

    def _import(self, depth: int) -> None:
        """The values the module's pending names hold once its top-level statements
        that bind them have run, in order (see `Module`); each unknown when they
        raise, or may, or leave it changed in place or bound on some ways only."""
        module = self.module
        for name in module.pending:  # read while they run: not yet bound (Python: a NameError)
            module.values[name] = Unknown("a definition that reads itself")
        env: dict[str, object] = {}
        outer = self._walrus, self._locals
        self._walrus = any(isinstance(n, ast.NamedExpr) for s in module.body for n in ast.walk(s))
        self._locals = frozenset()
        try:
            for stmt in module.body:
                try:
                    self._stmt(stmt, env, depth)
                except (NoValue, RecursionError, ValueError, TypeError, IndexError, KeyError, AttributeError):
                    # it raises, or may: where it does not, what it binds or changes is not known
                    for name in bound_names(stmt) | changed_names(stmt):
                        self._change(env.get(name))
                        env[name] = Unknown("bound by a statement that may raise")
                except (OverflowError, MemoryError):
                    for name in bound_names(stmt) | changed_names(stmt):
                        env[name] = Unknown("bound by a statement that may raise")
        finally:
            self._walrus, self._locals = outer
        for name in module.pending:
            value = env.get(name, _MAYBE_UNBOUND)
            if name in module.handed and _holds(value, lambda v: isinstance(v, (list, dict, Made))):
                value = Unknown("handed to a call at import")
            elif value is _MAYBE_UNBOUND or any(
                v is not SET and type(v) is not Template and (self._uncertain(v) or _holds_view(v))
                for v in alternatives(value)
            ):
                value = Unknown("changed at import")
            module.values[name] = value

    def _fstring(self, node: ast.JoinedStr, env: dict[str, object], depth: int) -> object:
        parts: list[object] = []  # texts, and (value, spec, conversion) of the fields
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
                continue
            if not isinstance(part, ast.FormattedValue):
                return Unknown("an f-string part")
            value = self._expr(part.value, env, depth)
            spec = self._fstring(part.format_spec, env, depth) if part.format_spec is not None else ""
            if not isinstance(spec, str) or not small_spec(spec):
                return Unknown("a format spec not known")
            if self._placeholders and _unknown(value) and not spec and part.conversion in _AS_TEXT:
                value = self._shown(value, part.value)
            parts.append((value, spec, part.conversion))
        fields = [p for p in parts if isinstance(p, tuple)]
        return self._lift(lambda *values: _formatted(parts, values), *(f[0] for f in fields))

    def _shown(self, value: Unknown, node: ast.expr) -> Template:
        """A value not known as a string shows it (see `call`): its own name (an
        argument's, as the caller names it), else one after the code that gives it."""
        if value.name is not None:
            return shown_unknown(value.name)
        try:
            return shown_unknown(placeholder_name(ast.unparse(node)))
        except Exception:  # noqa: BLE001 - unparse of odd nodes; a name is enough
            return shown_unknown("value")

    def _binop(self, op: ast.operator, left: object, right: object) -> object:
        if _unknown(left) or _unknown(right):
            return Unknown("an operand not known")
        if isinstance(op, ast.Add) and (isinstance(left, Template) or isinstance(right, Template)):
            if isinstance(left, (str, Template)) and isinstance(right, (str, Template)):
                template = concat(left, right)
                check_text(len(template.text))
                return template
            return Unknown("a template and another value")
        if isinstance(left, Template) or isinstance(right, Template):
            return Unknown("an operation on a template")
        if isinstance(op, ast.Add) and (isinstance(left, str) != isinstance(right, str)):
            if plain_scalar(left) and plain_scalar(right):
                raise NoValue  # `"a" + 1`: a TypeError
        if isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) and _number(left) and right == 0:
            raise NoValue  # ZeroDivisionError
        if isinstance(op, ast.Add):
            if isinstance(left, str) and isinstance(right, str):
                check_text(len(left) + len(right))
                return left + right
            if isinstance(left, list) and isinstance(right, list):
                check_items(len(left) + len(right))
                return left + right
            if _number(left) and _number(right):
                return left + right  # type: ignore[operator]
            if not (_plain(left) and _plain(right)):
                return Unknown("an operand of another kind")
            # other plain values: Python's refusal (`[] + d.keys()`) is checked below
        if isinstance(op, ast.Div) and isinstance(left, PurePosixPath) and isinstance(right, (str, PurePosixPath)):
            return left / right
        if isinstance(op, ast.Mod) and isinstance(left, str) and isinstance(right, _View):
            return Unknown("a dict view formatted")  # `"%s" % d.keys()` shows the view
        if isinstance(op, ast.Mod) and isinstance(left, str):
            return _percent(left, right)
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
                raise NoValue from err
        if isinstance(op, ast.BitOr) and _integer(left) and _integer(right):
            return left | right  # type: ignore[operator]  # `re.I | re.M`
        if isinstance(op, ast.Mult):
            repeated = _repeat(left, right)
            if not _unknown(repeated):
                return repeated
        if isinstance(op, ast.Pow) and _integer(left) and _integer(right) and right >= 0:  # type: ignore[operator]
            # the result has at most `right` times the bits of `left`: never computed past the limit
            if abs(left) > 1 and not fits_int_bits(right * abs(left).bit_length()):  # type: ignore[arg-type]
                raise TooBig(f"an integer of more than {MAX_INT_BITS:,} bits (`{_short(left)} ** {_short(right)}`)")
            return left**right  # type: ignore[operator]
        if _plain(left) and _plain(right) and type(op) in _SCALAR_OPS:
            if isinstance(op, (ast.Mult, ast.Pow)) and not (plain_scalar(left) and plain_scalar(right)):
                return Unknown("a repeated sequence")  # `[x] * n`: defined, not followed
            if isinstance(op, ast.Mult) and (isinstance(left, str) or isinstance(right, str)):
                return Unknown("a repeated string")  # `"ab" * n`: defined, not followed
            try:  # what Python does with these two plain values, when it refuses them
                _SCALAR_OPS[type(op)](left, right)
            except TypeError as err:
                raise NoValue from err
            except (ArithmeticError, ValueError):
                raise NoValue from None
        return Unknown("an operation not followed")

    def _compare(self, op: ast.cmpop, left: object, right: object) -> object:
        if isinstance(op, (ast.Is, ast.IsNot)) and right is None and not _unknown(left):
            return (left is None) == isinstance(op, ast.Is)  # the cluster's `SET` and a template are not None
        if self._uncertain(left) or self._uncertain(right):
            return Unknown("compared with a value not known")
        return _compare(op, left, right)

    def _dotted(self, node: ast.expr, env: dict[str, object]) -> str | None:
        """`os.path` (or an alias of it) as a dotted module name; None for values."""
        if isinstance(node, ast.Name):
            module = self.module
            if node.id in env or node.id in module.assigned or node.id in module.functions or node.id in module.pending:
                return None
            known = node.id in brains.MODULES or node.id in brains.NOTEBOOK_GLOBALS
            return self.module.aliases.get(node.id, node.id if known else None)
        if isinstance(node, ast.Attribute):
            owner = self._dotted(node.value, env)
            return f"{owner}.{node.attr}" if owner is not None else None
        return None

    def _call_expr(self, node: ast.Call, env: dict[str, object], depth: int) -> object:
        if any(isinstance(a, ast.Starred) for a in node.args):
            return Unknown("a starred argument")
        func = node.func
        made = self._class_called(func, env)
        if made is not None:
            return self._construct(made, node, env, depth)
        namespace = self._dotted(func, env)
        if namespace in brains.NAMESPACES:
            return self._namespace(namespace, node, env, depth)
        if any(k.arg is None for k in node.keywords):
            return Unknown("a starred argument")
        # `", ".join(f"{c} STRING" for c in cols)`: a generator a string's `join`
        # consumes gives what the list of its items gives
        consumed = (
            isinstance(func, ast.Attribute) and func.attr == "join" and self._dotted(func.value, env) is None
        ) or (
            # `sorted(t for t in TABLES)`, `set(f"s.{n}" for n in NAMES)`: the builtin consumes it too
            isinstance(func, ast.Name)
            and func.id in brains.ITERATION_BUILTINS
            and func.id not in env
            and func.id not in self.module.functions
        )
        args = [
            self._expr(
                ast.copy_location(ast.ListComp(a.elt, a.generators), a)
                if consumed and isinstance(a, ast.GeneratorExp)
                else a,
                env,
                depth,
            )
            for a in node.args
        ]
        kwargs = {k.arg: self._expr(k.value, env, depth) for k in node.keywords if k.arg}
        if isinstance(func, ast.Name) and isinstance(env.get(func.id), Closure):  # `fq("orders")`
            closure: Closure = env[func.id]  # type: ignore[assignment]
            return self._call(closure.fn, args, kwargs, depth + 1, captured=closure.captured)
        if isinstance(func, ast.Name) and func.id not in env:
            fn = self.module.functions.get(func.id)
            if fn is not None:  # the project's own function: it reads its alternatives itself
                return self._call(fn, args, kwargs, depth + 1)
            dotted = self.module.aliases.get(func.id, func.id)
            self._charge_items(args, kwargs)
            result = self._lift_call(lambda a, k: self._library(dotted, a, k), args, kwargs)
            if dotted in brains.READERS:
                return result  # `print(tasks)`: a builtin that only reads what it is given
            return self._unfollowed(result, args, kwargs)
        self._charge_items(args, kwargs)  # a library function or a method goes through them
        if isinstance(func, ast.Attribute):
            factory = self._class_method(func, env)
            if factory is not None:  # `Config.of("prod")`: a class or static method of the module's class
                cls, method = factory
                given = [cls, *args] if _decorator_named(method.decorator_list[0], "classmethod") else args
                return self._call(method, given, kwargs, depth + 1, decorated=True)
            dotted = self._dotted(func.value, env)
            if dotted is not None:
                name = f"{dotted}.{func.attr}"
                result = self._lift_call(lambda a, k: self._library(name, a, k), args, kwargs)
                return self._unfollowed(result, args, kwargs)
            if isinstance(func.value, ast.Name) and func.attr in brains.DICT_CHANGES:
                changed = self._dict_change(func.value.id, func.attr, args, kwargs, env)
                if changed is not _NOT_CHANGED:  # `config.setdefault("k", 24)` on a known dict
                    return changed
            owner = self._expr(func.value, env, depth)
            self.budget.look_through(owner)
            if func.attr in ("read", "read_text") and not node.args and not node.keywords:
                result = self._lift(lambda o: self._text(o, func.attr), owner)
                return self._unfollowed(result, args, kwargs)
            if func.attr in brains.PATH_QUERIES:  # `p.exists()`, `folder.glob("*.yaml")`
                result = self._lift_call(
                    lambda a, k: self._lift(lambda o: self._asked(o, func.attr, a, k), owner), args, kwargs
                )
                return self._unfollowed(result, args, kwargs)
            if self._placeholders and func.attr == "format" and isinstance(owner, str):
                # `"INSERT INTO {} SELECT '{}'".format(table, run_id)`: as an f-string shows them
                shown = [self._shown(a, n) if _unknown(a) else a for a, n in zip(args, node.args)]
                named: dict[str, object] = {}
                for keyword in node.keywords:
                    if keyword.arg:
                        value = kwargs[keyword.arg]
                        named[keyword.arg] = self._shown(value, keyword.value) if _unknown(value) else value
                if any(isinstance(v, Template) for v in [*shown, *named.values()]):
                    return self._lift_call(lambda a, k: _format_shown(owner, a, k), shown, named)
            result = self._lift_call(
                lambda a, k: self._lift(lambda o: self._object_method(o, func.attr, a, k, depth), owner), args, kwargs
            )
            for each in alternatives(owner):
                if isinstance(each, (list, dict)) and func.attr not in brains.READ_ONLY:
                    self._change(each)  # `parts.append(x)`, `d.pop("a")`
            return self._unfollowed(result, args, kwargs)
        return self._unfollowed(Unknown("a call not followed"), args, kwargs)

    def _class_method(self, func: ast.Attribute, env: dict[str, object]) -> tuple[ast.ClassDef, ast.FunctionDef] | None:
        """`Config.of` (or `cls.of` in a class method): the class and its class or
        static method of that name (one decorator, that one)."""
        if not isinstance(func.value, ast.Name):
            return None
        name = func.value.id
        held = env.get(name) if name in env else (None if name in self._locals else self.module.classes.get(name))
        if not isinstance(held, ast.ClassDef):
            return None
        method = next((s for s in held.body if isinstance(s, ast.FunctionDef) and s.name == func.attr), None)
        if method is None or len(method.decorator_list) != 1:
            return None
        kind = method.decorator_list[0]
        if not (_decorator_named(kind, "classmethod") or _decorator_named(kind, "staticmethod")):
            return None
        return held, method

    def _object_method(
        self, owner: object, name: str, args: list[object], kwargs: dict[str, object], depth: int
    ) -> object:
        """`owner.name(*args, **kwargs)`: a method of the class of an object the
        evaluator built, read with `self` bound to it (its own arguments known
        even where the object holds unknowns); a method of a known value otherwise
        (see `_method`)."""
        if isinstance(owner, Made):
            method = self._method_of(owner, name)
            if method is not None and not _property(method) and _self_param(method):
                return self._call(method, [owner, *args], kwargs, depth + 1)
        return _method(owner, name, args, kwargs)

    def _charge_items(self, args: list[object], kwargs: dict[str, object]) -> None:
        """Charge the file's budget for the items of a library call's arguments (a
        `join` or `sorted` goes through each; see `Budget.look_through`)."""
        for value in (*args, *kwargs.values()):
            self.budget.look_through(value)

    def _class_called(self, func: ast.expr, env: dict[str, object]) -> ast.ClassDef | None:
        """The configuration class a call builds an object of: `Config(...)` of the
        module's class, or `cls(...)` in a class method of it."""
        if not isinstance(func, ast.Name):
            return None
        if func.id in env:
            held = env[func.id]
        elif func.id in self._locals:
            return None  # a local name not bound yet: the call raises
        else:
            held = self.module.classes.get(func.id)
        return held if isinstance(held, ast.ClassDef) else None

    def _namespace(self, name: str, node: ast.Call, env: dict[str, object], depth: int) -> object:
        """`Namespace(**yaml.safe_load(f))`, `SimpleNamespace(table="t")`: an object
        whose attributes are the keywords (a mapping's keys by `**`), read as a
        configuration object is (`Made`); positional arguments are a TypeError."""
        if node.args:
            raise NoValue
        fields: dict[str, object] = {}
        for keyword in node.keywords:
            value = self._expr(keyword.value, env, depth)
            if keyword.arg is not None:
                fields[keyword.arg] = value
            elif type(value) is dict and all(isinstance(k, str) for k in value):
                fields.update(value)
            else:
                return Unknown("a mapping of keys not known")
        return Made(name.rsplit(".", 1)[-1], fields)

    def _construct(self, cls: ast.ClassDef, node: ast.Call, env: dict[str, object], depth: int) -> object:
        """`Config(**data)`, `Env(catalog="main", schema=s)`: the object a dataclass or a
        pydantic model holds (`Made`), its fields those the call gives (a mapping's
        keys by `**`), else their class-level defaults. Where Python (or pydantic)
        would refuse the call, a field missing, an unexpected keyword or positional
        argument, it gives no value; nested models stay as the values given."""
        shape = config_fields(cls)
        if shape is None or not shape[1]:
            init = self._init_of(cls)
            if init is not None:  # a record's written `__init__`, or the class's own
                return self._built(cls, init, node, env, depth)
            if shape is None or record_kind(cls) is not None:
                return Unknown("a class not followed")  # (a record whose `__init__` is not told)
        fields, model = shape
        given: dict[str, object] = {}
        for arg in node.args:
            if model or len(given) >= len(fields):
                raise NoValue  # a model takes keywords only; more arguments than fields
            given[fields[len(given)]] = self._expr(arg, env, depth)
        for keyword in node.keywords:
            value = self._expr(keyword.value, env, depth)
            if keyword.arg is not None:
                pairs = [(keyword.arg, value)]
            elif type(value) is dict and all(isinstance(k, str) for k in value):
                pairs = list(value.items())
            else:
                return Unknown("a mapping of keys not known")
            for name, item in pairs:
                if name in given:
                    raise NoValue  # the same keyword twice: a TypeError
                if name not in fields and not model:
                    raise NoValue  # a dataclass has no such field: a TypeError
                given[name] = item
        out: dict[str, object] = {}
        for stmt in cls.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            name = stmt.target.id
            if name in given:
                out[name] = given[name]
            elif stmt.value is not None:
                caller, self._locals = self._locals, frozenset()  # defaults read the module's names
                try:
                    out[name] = self._expr(stmt.value, {}, depth)
                finally:
                    self._locals = caller
            else:
                raise NoValue  # a required field not given
        rewritten = rewritten_fields(cls)
        if rewritten is None:
            return Unknown("a validator may change any field")
        out.update({name: Unknown("a validator may change it") for name in rewritten if name in out})
        return Made(cls.name, out)

    def _init_of(self, cls: ast.ClassDef) -> ast.FunctionDef | None:
        """The `__init__` an object of `cls` runs: the one Python writes for a record
        (`records.record_init`), else the class's own; None when neither is told (a
        base of the class may hold it)."""
        written = record_init(cls, self._base_of)
        if written is not None:
            return written
        own = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if (
            own is None
            or own.decorator_list
            or any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases)
        ):
            return None  # a decorated one, or a base whose `__init__` or attributes may be others
        return own

    def _base_of(self, cls: ast.ClassDef, base: ast.expr) -> ast.ClassDef | None:
        """The class of the module a base of `cls` names (see `records.record_init`)."""
        return self.module.classes.get(base.id) if isinstance(base, ast.Name) else None

    def _built(
        self, cls: ast.ClassDef, init: ast.FunctionDef, node: ast.Call, env: dict[str, object], depth: int
    ) -> object:
        """The object `cls(...)` builds: `init` read with `self` an object of the class
        holding its class-level texts and numbers, the call's arguments bound to its
        parameters; what `init` sets on `self` are its attributes. A class one of
        whose methods sets an attribute (when it runs is not known), or changes one
        in place, holds that attribute unknown."""
        if any(isinstance(a, ast.Starred) for a in node.args):
            return Unknown("a class built of a starred argument")
        args = [self._expr(a, env, depth) for a in node.args]
        kwargs: dict[str, object] = {}
        for keyword in node.keywords:
            value = self._expr(keyword.value, env, depth)
            if keyword.arg is not None:
                pairs = [(keyword.arg, value)]
            elif type(value) is dict and all(isinstance(k, str) for k in value):
                pairs = list(value.items())  # `cls(**CONFIGS[env])`: the mapping's keys
            else:
                return Unknown("a mapping of keys not known")
            for name, item in pairs:
                if name in kwargs:
                    raise NoValue  # the same keyword twice: a TypeError
                kwargs[name] = item
        held: dict[str, object] = {}
        for stmt in cls.body:  # `TABLE = "main.s.t"`: read as `self.TABLE` where `__init__` sets nothing else
            target = _plain_target(stmt)
            if target is not None and isinstance(stmt.value, ast.Constant):  # type: ignore[attr-defined]
                held[target] = stmt.value.value  # type: ignore[attr-defined]
        kept: dict[str, object] = {}
        self._call(init, [Made(cls.name, held), *args], kwargs, depth + 1, decorated=True, keep=kept)
        after = kept.get("self", Unknown("`self` not read"))
        if not all(isinstance(each, Made) for each in alternatives(after)):
            return Unknown("an object whose `__init__` is not followed")
        later = _set_elsewhere(cls, init)
        if later is None:
            return Unknown("an object whose attributes its methods set by names not told")
        if not later:
            return after
        unknown = dict.fromkeys(later, Unknown("an attribute a method sets, at a time not known"))
        built = [Made(each.cls, {**each.fields, **unknown}) for each in alternatives(after)]  # type: ignore[attr-defined]
        return built[0] if len(built) == 1 else self._join(built)

    def _member(self, owner: object, name: str, depth: int) -> object:
        """`owner.name`: a field of an object the evaluator built, else what a
        property (or `functools.cached_property`) of its class returns for it; an
        attribute of a path; unknown otherwise."""
        if isinstance(owner, Made) and name not in owner.fields:
            method = self._method_of(owner, name)
            if method is not None and _property(method):
                return self._call(method, [owner], {}, depth + 1, decorated=True)
            cls = self.module.classes.get(owner.cls)
            if method is None and cls is not None:
                return self._class_attribute(cls, name, depth)
        if isinstance(owner, ast.ClassDef):  # `cls.ENVS` in a class method, `Config.ENVS`
            return self._class_attribute(owner, name, depth)
        return _attribute(owner, name)

    def _class_attribute(self, cls: ast.ClassDef, name: str, depth: int) -> object:
        """What the class body binds `name` to (`ENVS = {...}`), read in the module's
        names as Python reads a class body; unknown when the body binds it in
        another way (or not at all: a base may)."""
        bound = [s for s in cls.body if name in bound_names(s)]
        if len(bound) != 1 or _plain_target(bound[0]) != name:
            return Unknown(f"the attribute `{name}`")
        caller, self._locals = self._locals, frozenset()  # a class body reads the module's names
        try:
            return self._expr(bound[0].value, {}, depth)  # type: ignore[attr-defined]
        finally:
            self._locals = caller

    def _method_of(self, owner: Made, name: str) -> ast.FunctionDef | None:
        """The function `name` of the class of an object the evaluator built (its
        own, or a base's of the module, a few deep)."""
        cls = self.module.classes.get(owner.cls)
        for _ in range(MAX_DEPTH):
            if cls is None:
                return None
            found = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == name), None)
            if found is not None:
                return found
            bases = [b for b in cls.bases if not (isinstance(b, ast.Name) and b.id == "object")]
            cls = self._base_of(cls, bases[0]) if len(bases) == 1 else None
        return None

    def _lift_call(
        self, call: Callable[[list[object], dict[str, object]], object], args: list[object], kwargs: dict[str, object]
    ) -> object:
        """`call` once per combination of its arguments' alternatives (see `_lift`)."""
        names = list(kwargs)

        def once(*values: object) -> object:
            return call(list(values[: len(args)]), dict(zip(names, values[len(args) :])))

        return self._lift(once, *args, *kwargs.values())

    def _unfollowed(self, result: object, args: list[object], kwargs: dict[str, object]) -> object:
        """A call whose result is not known may have changed the lists and dicts it
        was given."""
        if _unknown(result):
            for value in [*args, *kwargs.values()]:
                for each in alternatives(value):
                    self._change(each)
        return result

    def _library(self, name: str, args: list[object], kwargs: dict[str, object]) -> object:
        """A call of the standard library (or yaml) by its dotted name, as `brains`
        describes it."""
        if name in brains.ENV_GETTERS:
            key = args[0] if args else kwargs.get("key")
            if key in brains.CLUSTER_VARIABLES:
                return SET
            default = args[1] if len(args) > 1 else kwargs.get("default", UNKNOWN)
            return default if isinstance(default, str) else _environment(key)
        if name in brains.SECRETS:
            return Unknown("a secret")
        if name in brains.JOB_INPUTS:
            given = args[0] if args else kwargs.get("name")
            if not isinstance(given, str) or not given.strip():
                return Unknown("a job input of a name not known")
            if self.inputs is not None:
                return self.inputs(given)
            input_name = param_name(given)
            return Template("{" + input_name + "}", (input_name,))
        if any(_unknown(a) or isinstance(a, Template) for a in args):
            return Unknown("an argument not known")
        if name in brains.PATH_FUNCTIONS and args and all(isinstance(a, (str, PurePosixPath)) for a in args):
            result = brains.PATH_FUNCTIONS[name](*[str(a) for a in args])
            if isinstance(result, str):
                check_text(len(result))
            return result
        if name in brains.PATH_FUNCTIONS and any(plain_scalar(a) and not isinstance(a, str) for a in args):
            raise NoValue  # `os.path.join(s, 1)`: a TypeError
        if name in brains.PATH_CONSTRUCTORS and args:
            if all(isinstance(a, (str, PurePosixPath)) for a in args):
                return PurePosixPath(*[str(a) for a in args])
            return Unknown("a path of other values")
        if name in brains.OPENERS and args and isinstance(args[0], (str, PurePosixPath)):
            return Opened(str(args[0]))
        if name in brains.WORKING_FOLDER and not args and not kwargs:
            working = self._working_folder()
            return str(working) if name == "os.getcwd" and isinstance(working, PurePosixPath) else working
        if name in brains.EXISTS and len(args) == 1 and not kwargs and isinstance(args[0], (str, PurePosixPath)):
            return self._exists(str(args[0]), brains.EXISTS[name])
        if name in brains.LISTINGS:
            return self._listing_call(name, args, kwargs)
        if name in brains.PACKAGE_FOLDERS and len(args) == 1 and not kwargs and isinstance(args[0], str):
            return self._package_folder(args[0])
        packaged = brains.PACKAGE_TEXTS | brains.PACKAGE_OPENERS
        if name in packaged and len(args) == 2 and not kwargs and all(isinstance(a, str) for a in args):
            folder = self._package_folder(args[0])  # type: ignore[arg-type]
            if not isinstance(folder, PurePosixPath):
                return folder
            path = str(folder / args[1])  # type: ignore[operator]
            return Opened(path) if name in brains.PACKAGE_OPENERS else TextOf(path)
        if name in brains.DOCUMENT_LOADERS and args:
            return self._load(Opened(args[0].path) if type(args[0]) is TextOf else args[0])
        if name in brains.TEXT_LOADERS and args and type(args[0]) is TextOf:
            if args[0].path.endswith(brains.TEXT_LOADERS[name]):
                return self._load(Opened(args[0].path))  # `json.loads(Path(p).read_text())`
            return Unknown(f"`{name}` of the text of another kind of document")
        if name.startswith("re.") and name[3:] in brains.RE_FUNCTIONS:
            return regex_call(name[3:], args, kwargs)
        if name in brains.BUILTINS:
            return brains.BUILTINS[name](args)
        if name in brains.ITERATION_BUILTINS:
            return brains.ITERATION_BUILTINS[name](args, kwargs)
        return Unknown(f"`{name}` not known")

    def _text(self, owner: object, method: str) -> object:
        """`open(p).read()` (a `with open(p) as f` handle too) or `Path(p).read_text()`
        of a SQL file of the project: its text, a document the link stage gives
        (`run.DocumentReader`); another file's text, or another object's `read()`,
        is not known."""
        if method == "read" and isinstance(owner, Opened):
            handle = owner
        elif method == "read_text" and isinstance(owner, PurePosixPath):
            handle = Opened(str(owner))
        else:
            return Unknown(f"the method `{method}`")
        if not handle.path.endswith(brains.TEXT_DOCUMENTS):
            return TextOf(handle.path)
        return self._load(handle)

    def _working_folder(self) -> object:
        """`Path.cwd()`: the running file's folder under PROJECT_ROOT (docs/values.md)."""
        if self.working is None:
            return Unknown("the working folder of the run")
        return PurePosixPath(posixpath.normpath(posixpath.join(PROJECT_ROOT, self.working)))

    def _in_project(self, path: str) -> str | None:
        """A path as the project's relative path ("" its root), a relative one taken in
        the working folder; None outside the project or where the folder is not known."""
        if not path.startswith("/"):
            if self.working is None:
                return None
            path = posixpath.join(PROJECT_ROOT, self.working, path)
        path = posixpath.normpath(path)
        if path == PROJECT_ROOT:
            return ""
        return path[len(PROJECT_ROOT) + 1 :] if path.startswith(PROJECT_ROOT + "/") else None

    def _answer(self, pattern: str, noted: bool = True) -> dict[str, object] | Unknown:
        """The link stage's answer to which project files `pattern` (relative to the
        root) matches (`listing`); unknown until it is given, or past its bound (a
        limit the reading says, when `noted`)."""
        key = listing_key(pattern)
        self.opened.add(key)
        answer = self.documents.get(key)
        if not isinstance(answer, dict) or not isinstance(answer.get("entries"), list):
            return Unknown(f"which project files match {pattern}, not given")
        if answer.get("more"):
            why = f"a listing of more than {MAX_LISTED} files"
            if noted:  # said at the line (DL008), as a value past a size is
                self._limit(self._line, why)
                self.budget.note(self.module.path, self._line, why)
            return Unknown(why)
        return answer

    def _package_folder(self, name: str) -> object:
        """The folder of the project's package `name` (`pkg.conf`): the one folder
        that holds `pkg/conf/__init__.py`; unknown when none does (a package
        installed from elsewhere) or several do."""
        parts = name.split(".")
        if not all(p.isidentifier() for p in parts) or len(parts) > 32:
            return Unknown("a package of a name not read")
        # the files of every folder so named, asked at once: the documents among them
        # are given with the answer (`listing.listed_documents`)
        answer = self._answer("**/" + "/".join([*parts, "*"]))
        if isinstance(answer, Unknown):
            return answer
        found = [str(e) for e in answer["entries"] if str(e).endswith("/__init__.py")]  # type: ignore[union-attr]
        if len(found) != 1:
            return Unknown(f"the package {name}, {'not in the project' if not found else 'one of several'}")
        return PurePosixPath(PROJECT_ROOT, posixpath.dirname(found[0]))

    def _exists(self, path: str, kind: str) -> object:
        """Whether a path exists (`kind`: "any", "file" or "folder"): known for the
        project's files, not known outside the project."""
        rel = self._in_project(path)
        if rel is None:
            return Unknown("whether a path outside the project exists")
        if rel == "":
            return kind != "file"
        # every file of that name in the project, asked at once: a search that walks up
        # (or tries folders in turn) has its answers in one reading, not one a reading
        answer = self._answer("**/" + glob_escape(posixpath.basename(rel)), noted=False)
        if isinstance(answer, Unknown):  # (too many of that name: this one path)
            answer = self._answer(glob_escape(rel))
        if isinstance(answer, Unknown):
            return answer
        entries = answer["entries"]
        if rel in entries:  # type: ignore[operator]
            return kind != "folder"
        return kind != "file" if rel + "/" in entries else False  # type: ignore[operator]

    def _asked(self, owner: object, method: str, args: list[object], kwargs: dict[str, object]) -> object:
        """A question a path object asks of the project's files (`exists`, `glob`,
        `rglob`, `iterdir`); another object's method of the same name as `_method`."""
        if not isinstance(owner, PurePosixPath):
            return _method(owner, method, args, kwargs)
        if method in brains.PATH_EXISTS:
            return self._exists(str(owner), brains.PATH_EXISTS[method]) if not args and not kwargs else UNKNOWN
        if method == "iterdir" and not args and not kwargs:
            return self._listed(str(owner), ["*"], "path", hidden=True)
        if method in ("glob", "rglob") and len(args) == 1 and not kwargs and isinstance(args[0], str):
            segments = args[0].split("/")
            if not args[0] or args[0].startswith("/"):
                raise NoValue  # pathlib: a non-relative or empty pattern is an error
            return self._listed(str(owner), (["**"] if method == "rglob" else []) + segments, "path", hidden=True)
        return Unknown(f"the method `{method}` of a path")

    def _listing_call(self, name: str, args: list[object], kwargs: dict[str, object]) -> object:
        """`os.listdir(p)` (names) and `glob.glob(pattern)` (texts, as spelled)."""
        if name == "os.listdir":
            folder = args[0] if args else kwargs.get("path", ".")
            if len(args) > 1 or set(kwargs) - {"path"} or not isinstance(folder, (str, PurePosixPath)):
                return Unknown("a listing of a folder not known")
            return self._listed(str(folder), ["*"], "name", hidden=True)
        pattern = args[0] if args else kwargs.get("pathname")
        if len(args) != 1 or set(kwargs) - {"recursive"} or not isinstance(pattern, str) or not pattern:
            return Unknown("a glob of arguments not read")
        segments = pattern.split("/")
        if kwargs.get("recursive") is not True:
            segments = ["*" if s == "**" else s for s in segments]  # `**` is `*` unless recursive
        literal = 0
        while literal < len(segments) - 1 and not set(segments[literal]) & set("*?["):
            literal += 1
        base = "/".join(segments[:literal]) or ("/" if pattern.startswith("/") else ".")
        return self._listed(base, segments[literal:], "text", hidden=False, spelled="/".join(segments[:literal]))

    def _listed(self, folder: str, segments: list[str], form: str, hidden: bool, spelled: str | None = None) -> object:
        """The project's entries under `folder` that `segments` match, in an order not
        known (`Unordered`): path objects under the folder as given (`form` "path"),
        names (`"name"`), or texts under the pattern's literal folder (`"text"`).
        Names starting with a dot are left out unless `hidden` (as `glob.glob` does)."""
        rel = self._in_project(folder)
        if rel is None:
            return Unknown("a listing of a folder outside the project")
        if any(s in ("..", "") for s in segments) or len(segments) > 64:
            return Unknown("a listing pattern not read")
        answer = self._answer("/".join([glob_escape(rel)] * bool(rel) + segments))
        if isinstance(answer, Unknown):
            return answer
        out: list[object] = []
        for entry in answer["entries"]:  # type: ignore[union-attr]
            suffix = str(entry).rstrip("/")[len(rel) + 1 if rel else 0 :]
            if not hidden and any(p.startswith(".") for p in suffix.split("/")):
                continue
            if form == "name":
                out.append(suffix)
            elif form == "text":
                out.append(f"{spelled}/{suffix}" if spelled else suffix)
            else:
                out.append(PurePosixPath(folder) / suffix)
        return unordered(out)

    def _load(self, handle: object) -> object:
        if not isinstance(handle, Opened):
            return Unknown("a load of a file not opened here")
        path = document_path(handle.path, self.module.path)
        if path is None:
            return Unknown("a file outside the project")
        self.opened.add(path)
        if handle.path.startswith("/"):
            self.placed.add(path)
        if path not in self.documents:
            return Unknown(f"the document {path} not given")
        return self.documents[path]


_NOT_PLAIN = (Unknown, OneOf, Template)
_NOT_CHANGED = object()  # `Evaluator._dict_change`: not a change it reads
_AS_TEXT = (-1, ord("s"))  # an f-string field shown as its text (`{x}`, `{x!s}`)


def _environment(key: object) -> Unknown:
    """An environment variable of the cluster the reader has no value of: named as the
    front end names it (`{CATALOG}`) where a string shows it."""
    if not isinstance(key, str):
        return Unknown("an environment variable of a name not known")
    return Unknown(f"the environment variable {key!r}", param_name(key))


def _texts(value: object) -> bool:
    """A string or template, or one of several of them (the other side of a `+` that
    then builds a string)."""
    return all(isinstance(v, (str, Template)) for v in alternatives(value))


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


def _unary(op: ast.unaryop, operand: object) -> object:
    if isinstance(op, ast.Not):
        test = truth(operand)
        return UNKNOWN if _unknown(test) else not test
    if isinstance(op, ast.USub) and _number(operand):
        return -operand  # type: ignore[operator]
    return Unknown("a unary operation not followed")


def _formatted(parts: list[object], values: tuple[object, ...]) -> object:
    """An f-string's text from its literal parts and its fields' (plain) values; a
    template when a field is one (with no spec or conversion)."""
    out: list[object] = []
    fields = iter(values)
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value = next(fields)
        _, spec, conversion = part  # type: ignore[misc]
        if isinstance(value, Template) and not spec and conversion in _AS_TEXT:
            out.append(value)
            continue
        if not plain_scalar(value):
            return Unknown("an f-string field not known")
        shown = format_field(value, spec, conversion)  # `!r` and friends first, then the spec
        if shown is None:
            raise NoValue  # the value refuses the spec, in Python too
        out.append(shown)
    if any(isinstance(p, Template) for p in out):
        template = Template("", ())
        for p in out:
            template = concat(template, p)
        check_text(len(template.text))
        return template
    return _text("".join(out))  # type: ignore[arg-type]


def _format_shown(template: str, args: list[object], kwargs: dict[str, object]) -> object:
    """`str.format` where a field's value is a template (see `Evaluator.call`): each
    field plain (`{}`, `{0}`, `{name}`, no spec or conversion) takes a template as
    its text; any other form is not followed."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return Unknown("a format template Python refuses")
    out: object = ""
    auto = 0
    for literal, field_name, spec, conversion in parsed:
        out = concat(out, literal) if isinstance(out, Template) else out + literal  # type: ignore[operator]
        if field_name is None:
            continue
        if spec or conversion or "." in field_name or "[" in field_name:
            return Unknown("a format field not followed")
        if field_name == "":
            index: int | str = auto
            auto += 1
        else:
            index = int(field_name) if field_name.isdigit() else field_name
        if isinstance(index, int):
            if index >= len(args):
                raise NoValue  # an IndexError in Python
            value = args[index]
        elif index in kwargs:
            value = kwargs[index]
        else:
            raise NoValue  # a KeyError in Python
        if not isinstance(value, Template) and not plain_scalar(value):
            return Unknown("a value formatted not known")
        out = concat(out, value if isinstance(value, Template) else format_field(value, "", -1) or "")
    if isinstance(out, Template):
        check_text(len(out.text))
    return out


def _percent_shown(template: str, right: object) -> object:
    """`template % right` where a value is a template (see `Evaluator.call`): `%s`
    directives only, each taking its value's text; any other is not followed."""
    values = right if isinstance(right, tuple) else (right,)
    out: object = ""
    at, index = 0, 0
    for match in PERCENT_DIRECTIVE.finditer(template):
        literal = template[at : match.start()]
        at = match.end()
        key, flags, kind = match.groups()
        if kind == "%":
            literal += "%"
        elif key is not None or flags or kind != "s" or index >= len(values):
            return Unknown("a directive not followed")
        out = concat(out, literal)
        if kind == "%":
            continue
        value = values[index]
        index += 1
        if not isinstance(value, Template) and not plain_scalar(value):
            return Unknown("a value formatted not known")
        out = concat(out, value if isinstance(value, Template) else str(value))
    if index != len(values):
        raise NoValue  # not all arguments converted: a TypeError in Python
    out = concat(out, template[at:])
    check_text(len(out.text))  # type: ignore[union-attr]
    return out


def _percent(template: str, right: object) -> object:
    """`template % right` with plain values, its size checked before it is built."""
    if re.search(r"%[-#0 +]*(\d{4,}|\d*\.\d{4,})", template):
        return Unknown("a width that would build a huge string")
    values = tuple(right) if isinstance(right, tuple) else right
    if not all(plain_scalar(v) for v in (values if isinstance(values, tuple) else (values,))):
        return Unknown("a value formatted not known")
    if "*" in template:  # `"%*s" % (n, x)`: a width (or precision) given as a value
        for value in values if isinstance(values, tuple) else (values,):
            if _number(value) and abs(value) > MAX_TEXT:  # type: ignore[arg-type]
                raise TooBig(f"a `%*` width or precision of {_short(value)}, past {MAX_TEXT:,} characters")
    try:
        return _text(template % values)
    except (TypeError, ValueError, KeyError) as err:
        raise NoValue from err


def _plain(value: object) -> bool:
    """A plain value or container (what Python's operators can be tried on cheaply)."""
    return plain_scalar(value) or isinstance(value, (list, tuple, dict))


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value: str) -> str:
    """A string an operation built (its size checked before, where it could be large)."""
    if not fits_text(len(value)):
        raise TooBig(f"a string of more than {MAX_TEXT:,} characters")
    return value


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: object) -> str:
    """A number as a message shows it (a long one by its size only)."""
    return str(value) if isinstance(value, int) and value.bit_length() < 64 else "<a long integer>"


def _repeat(left: object, right: object) -> object:
    """`"ab" * n`, `[x] * n`, `n * (x,)`: the sequence repeated, its size checked
    before it is built; unknown for other operands."""
    if _integer(left) and isinstance(right, (str, list, tuple)):
        left, right = right, left
    if not (isinstance(left, (str, list, tuple)) and isinstance(right, int)):
        return UNKNOWN  # `True * "a"` included: a bool repeats too, but is left to Python's check
    if isinstance(right, bool):
        return UNKNOWN
    size = len(left) * max(right, 0)
    if isinstance(left, str):
        check_text(size)
    else:
        check_items(size)
    return left * right


def _catches_all(handler: ast.ExceptHandler) -> bool:
    """`except:`, `except Exception:`, `except BaseException:`."""
    kind = handler.type
    return kind is None or (isinstance(kind, ast.Name) and kind.id in ("Exception", "BaseException"))


def _ends_raising(handler: ast.ExceptHandler) -> bool:
    """A handler whose last statement raises and which holds no `return`, `break` or
    `continue`: no way through it goes on past the `try`."""
    return bool(handler.body) and isinstance(handler.body[-1], ast.Raise) and not _exits(handler.body)


def _exits(body: list[ast.stmt]) -> bool:
    """A `return`, `break` or `continue` anywhere in a `finally` (which would replace
    what the `try` returns or raises): such a `try` is not followed."""
    return any(isinstance(n, (ast.Return, ast.Break, ast.Continue)) for s in body for n in ast.walk(s))


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


def _holds(value: object, test: Callable[[object], bool], depth: int = 0) -> bool:
    """Whether `test` holds for the value or any value it holds (past 32 levels: yes)."""
    if test(value) or depth > 32:
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds(v, test, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_holds(v, test, depth + 1) for v in value.values())
    return False


def _set_of(items: list[object]) -> object:
    """A set of these items: unknown when one is not known (whether it equals another
    only a run tells)."""
    if any(isinstance(i, (list, dict)) for i in items):
        raise NoValue  # `{[1]}`: an unhashable item, a TypeError
    if any(_unknown(i) for i in items):
        return Unknown("a set of items not known")
    return unordered(items)


def _holds_view(value: object) -> bool:
    return _holds(value, lambda v: isinstance(v, _View))


def _compare(op: ast.cmpop, left: object, right: object) -> object:
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
        if compare is not None and plain_scalar(left) and plain_scalar(right):
            return compare(left, right)  # `"a" < 1` raises, as in Python
        if isinstance(op, (ast.In, ast.NotIn)) and plain_scalar(right) and not isinstance(right, str):
            raise NoValue  # `x in 5`: a TypeError
    except TypeError as err:
        raise NoValue from err
    return UNKNOWN


def _slice(owner: object, bounds: tuple[object, ...]) -> object:
    if isinstance(owner, _View) or owner is None:
        raise NoValue  # not subscriptable
    if not isinstance(owner, (str, list, tuple)) or (isinstance(owner, Unordered) and len(owner) > 1):
        return Unknown("a slice of a value not known")
    if not all(b is None or (isinstance(b, int) and not isinstance(b, bool)) for b in bounds):
        return Unknown("a slice bound not known")
    if bounds[2] == 0:
        raise NoValue  # slice step cannot be zero
    return owner[slice(*bounds)]  # type: ignore[misc]


def _index(owner: object, key: object) -> object:
    if owner is None or isinstance(owner, _View):
        raise NoValue  # not subscriptable
    if isinstance(owner, Unordered) and len(owner) > 1:
        return Unknown("an item of a collection whose order only a run tells")
    if _unknown(key) or _unknown(owner):
        return Unknown("an index or owner not known")
    try:
        if isinstance(owner, dict) and isinstance(key, (str, int)):
            return owner[key]
        if isinstance(owner, (str, list, tuple)) and isinstance(key, int) and not isinstance(key, bool):
            return owner[key]
        if isinstance(owner, Matched) and isinstance(key, (int, str)):
            return owner[key]
    except (IndexError, KeyError) as err:
        raise NoValue from err
    return Unknown("an index not followed")


def _property(fn: ast.FunctionDef) -> bool:
    """`@property`, `@functools.cached_property` (read as an attribute is)."""
    return any(
        (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) in ("property", "cached_property")
        for d in fn.decorator_list
    )


def _decorator_named(decorator: ast.expr, name: str) -> bool:
    return isinstance(decorator, ast.Name) and decorator.id == name


def _self_param(fn: ast.FunctionDef) -> bool:
    """A plain method: undecorated, its first parameter the object."""
    return not fn.decorator_list and bool(fn.args.posonlyargs + fn.args.args)


_ELSEWHERE: weakref.WeakKeyDictionary[ast.ClassDef, frozenset[str] | None] = weakref.WeakKeyDictionary()


def _set_elsewhere(cls: ast.ClassDef, init: ast.FunctionDef) -> frozenset[str] | None:
    """The attributes of `self` a method of `cls` other than its `__init__` (and a
    record's `__post_init__`, part of the written one) binds or changes in place;
    None when one sets attributes by names not told (`setattr(self, k, v)`).
    Worked out once per class."""
    if cls not in _ELSEWHERE:
        _ELSEWHERE[cls] = _methods_set(cls, init)
    return _ELSEWHERE[cls]


def _methods_set(cls: ast.ClassDef, init: ast.FunctionDef) -> frozenset[str] | None:
    """`_set_elsewhere`, worked out."""
    post = post_init_name(cls)
    out: set[str] = set()
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or method is init:
            continue
        if method.name in ("__init__", post):
            continue
        me = (method.args.posonlyargs + method.args.args)[:1]
        if not me or method.decorator_list and not _property(method):  # type: ignore[arg-type]
            continue  # a class or static method: no `self`
        name = me[0].arg
        for node in ast.walk(method):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("setattr", "delattr")
            ):
                return None
            if isinstance(node, ast.Attribute) and node.attr == "__dict__":
                return None
            root: ast.expr | None = None
            if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
                root = node
            elif isinstance(node, ast.AugAssign):
                root = node.target
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in brains.CHANGES_IN_PLACE
            ):
                root = node.func.value
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                if isinstance(root, ast.Attribute) and isinstance(root.value, ast.Name) and root.value.id == name:
                    out.add(root.attr)
                    break
                root = root.value
    return frozenset(out)


def _attribute(owner: object, attr: str) -> object:
    if isinstance(owner, PurePosixPath) and attr in brains.PATH_ATTRIBUTES:
        return getattr(owner, attr)
    if isinstance(owner, PurePosixPath) and attr == "parents":  # `Path(__file__).parents[2]`: a tuple of them
        return tuple(owner.parents)
    if isinstance(owner, Made):
        return owner.fields[attr] if attr in owner.fields else Unknown(f"the attribute `{attr}`")
    return Unknown(f"the attribute `{attr}`")


def _method(owner: object, name: str, args: list[object], kwargs: dict[str, object]) -> object:
    """A method of a known value, from the allow-lists of `brains` (no side effects)."""
    if _unknown(owner) or any(_unknown(a) for a in args) or any(_unknown(v) for v in kwargs.values()):
        return Unknown("a method of a value not known")
    if (
        isinstance(owner, Template)
        and name in brains.CASE_AND_TRIM
        and not args
        and not kwargs
        and owner.text == "{" + owner.params[0] + "}"
    ):
        # `dbutils.widgets.get("env").strip()`: the input as the run gives it, named as
        # the front end names it (`{env}`, as `c = c.lower()` then `{c}` reads)
        return owner
    if any(isinstance(v, Template) for v in (owner, *args, *kwargs.values())):
        return Unknown("a method of a template")
    if owner is None:
        raise NoValue  # `None.group(1)`: an AttributeError (a match that failed)
    try:
        if isinstance(owner, str):
            if name == "format":
                return _format(owner, args, kwargs)
            if name == "join":
                items = args[0] if args else None
                if isinstance(items, (list, tuple)) and all(isinstance(i, str) for i in items):
                    check_text(sum(len(i) for i in items) + len(owner) * max(len(items) - 1, 0))
                    return owner.join(items)
                return Unknown("a join of values not known")
            if name == "replace" and (not args or args[0] == ""):
                return Unknown("a replace of the empty string")  # `s.replace("", t)` puts t between every character
            if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
                times = owner.count(args[0])  # its size, known before it is built
                if len(args) > 2 and _integer(args[2]) and args[2] >= 0:  # type: ignore[operator]
                    times = min(times, args[2])  # type: ignore[type-var]
                check_text(len(owner) + times * max(len(args[1]) - len(args[0]), 0))
            if name in brains.STR_METHODS and all(plain_scalar(a) for a in args):
                result = getattr(owner, name)(*args, **kwargs)
                return _text(result) if isinstance(result, str) else result
            return Unknown(f"`str.{name}` not known")
        if isinstance(owner, dict) and name == "get" and 1 <= len(args) <= 2 and not kwargs:
            if isinstance(args[0], (str, int)):
                return owner.get(args[0], args[1] if len(args) > 1 else None)
            return Unknown("a key not known")
        if isinstance(owner, dict) and name in ("keys", "values", "items") and not args:
            return _View(getattr(owner, name)())
        if isinstance(owner, Pattern) and name in brains.PATTERN_METHODS:
            if "flags" in kwargs:
                return Unknown("no such keyword")  # no such keyword of a pattern's methods
            return regex_call(name, [owner.pattern, *args], {**kwargs, "flags": owner.flags})
        if isinstance(owner, Matched) and name in brains.MATCH_METHODS and not kwargs:
            return getattr(owner, name)(*args)
        if isinstance(owner, PurePosixPath):
            if name in ("resolve", "absolute"):
                return PurePosixPath(posixpath.normpath(str(owner)))
            if name == "as_posix" and not args and not kwargs:
                return str(owner)
            if name == "joinpath" and all(isinstance(a, str) for a in args):
                return owner.joinpath(*args)  # type: ignore[arg-type]
            if name in ("with_name", "with_suffix", "with_stem") and len(args) == 1 and isinstance(args[0], str):
                return getattr(owner, name)(args[0])  # `Path(__file__).with_name("build.sql")`
            if name == "open":
                return Opened(str(owner))
    except (TypeError, ValueError, IndexError) as err:
        raise NoValue from err  # Python raises on these values too
    return Unknown(f"the method `{name}`")


def _plain_tuple(value: object) -> bool:
    """A tuple of known texts and numbers (nested ones too): a dict key as Python
    hashes it, with no template or unknown in it."""
    return type(value) is tuple and all(
        type(v) in (str, int, bool, float) or v is None or _plain_tuple(v) for v in value
    )


def _format(template: str, args: list[object], kwargs: dict[str, object]) -> object:
    """`str.format` with plain values and plain fields only (no attribute or index
    lookups in a field: they could reach into the evaluator's values)."""
    try:
        parsed = [(f, spec) for _, f, spec, _ in string.Formatter().parse(template) if f is not None]
    except ValueError:
        return Unknown("a format template Python refuses")
    if any("." in f or "[" in f or "{" in (spec or "") or not small_spec(spec or "") for f, spec in parsed):
        return Unknown("a format field not followed")
    if not all(plain_scalar(v) for v in [*args, *kwargs.values()]):
        return Unknown("a value formatted not known")
    try:
        return _text(template.format(*args, **kwargs))
    except (IndexError, KeyError, ValueError) as err:
        raise NoValue from err


def _why_unfollowed(fn: ast.FunctionDef, depth: int, decorated: bool, generator: bool) -> str:
    """Why a call of one of the module's functions is not read (see `Evaluator.unfollowed`)."""
    if depth >= MAX_DEPTH:
        return f"`{fn.name}` is called more than {MAX_DEPTH} calls deep, past the calls the reading follows"
    if fn.args.vararg or fn.args.kwarg:
        return f"`{fn.name}` takes `*args` or `**kwargs`, whose calls the reading does not follow"
    if fn.decorator_list and not decorated:
        return f"`{fn.name}` is decorated: what a call of it runs is the decorator's"
    if generator:
        return f"`{fn.name}` is a generator: its body runs as it is consumed, not at the call"
    return f"a call of `{fn.name}` is not followed"
