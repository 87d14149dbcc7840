"""The statement walk of a Python module: what each name holds, statement by statement.

`Walker` reads a module's statements in order and keeps the environment of values
its names hold (`Scope.env`): assignments, imports, class bodies, functions and
methods (a helper read again at each call with its arguments bound, an object's
methods with `self` bound to what its `__init__` or a configuration factory set),
loops over literal rows, and the joins where control flow meets again (an `if`,
a `try`, a loop that may not run, what a `break` or `continue` leaves: every
path's value, never the last one read). It also keeps what notebooks hand to
each other (`dbutils.notebook.run`/`exit`, `taskValues.set`).

The walker builds no intent. It is a part its host, the Python front end's
analyzer, owns and drives: every expression the walk meets goes back to the
host (`Host._calls`), which turns the writes in it into intents with the values
read here; the host's `ValueResolver` (`values.resolver`) answers what one
expression holds in a scope.
"""

from __future__ import annotations

import ast
import copy
import re
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from delta_lint.frontend.pyguards import NONE, Absent, GuardReader
from delta_lint.frontend.pysites import SourceSites
from delta_lint.frontend.pyvalues import (
    UNHELD,
    DataFrame,
    Document,
    InputDoc,
    Instance,
    Scope,
    Str,
    alternatives,
    argument_at,
    exported_value,
    is_texts,
    join_envs,
    join_held,
    joined_session,
    json_input,
    known_items,
    loop_names,
    member,
    one_of,
    param_str,
    to_plain,
)
from delta_lint.frontend.registries import (
    IMPORT_MODULE,
    ImportedModule,
    Registries,
    dispatched,
    imports_by_name,
    module_pattern,
)
from delta_lint.frontend.sql import Session
from delta_lint.frontend.values import brains
from delta_lint.frontend.values.brains import (
    DICT_CHANGES,
    JSON_DUMPS,
    MODEL_BASES,
    NOTEBOOK_EXIT,
    TASK_VALUES_SET,
    call_named,
    is_argv,
)
from delta_lint.frontend.values.budget import Budget, OutOfBudget
from delta_lint.frontend.values.changes import FOLLOWED, MUTATORS, keyed_root
from delta_lint.frontend.values.evaluator import MAX_LOOP, Evaluator, Module, rewritten_fields
from delta_lint.frontend.values.iteration import (
    Row,
    as_loop,
    bind,
    collection_of,
    free_names,
    iterable_names,
    may_loop,
    may_state,
    rows,
    target_names,
)
from delta_lint.frontend.values.lattice import EACH, UNTOLD, Collection, OneOf, Unknown, untold
from delta_lint.frontend.values.lattice import join as lattice_join
from delta_lint.frontend.values.narrowing import may_narrow, narrow
from delta_lint.frontend.values.readings import Readings
from delta_lint.frontend.values.records import foreign_fields, post_init_name, record_init, record_kind
from delta_lint.frontend.values.resolver import (
    MAX_HELPER_CALLS,
    MAX_HELPER_DEPTH,
    ValueResolver,
    _partly_known,
    frame,
    joined_objects,
    plus,
    self_attributes_set,
    with_attribute,
)
from delta_lint.frontend.values.uses import used_as_values
from delta_lint.model import SCOPED, UNKNOWN_FOLDER, Diagnostic, Flag, Intent, PooledRun
from delta_lint.predicates import param_name

NOT_READ = "DL006"  # task-not-analysable: code a call runs that is not read (see `module_call`)


def called_name(call: ast.Call) -> str | None:
    """`helper(...)`, `self.helper(...)`, `cls.helper(...)`: the function's name."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
        return func.attr
    return None


def _module_function(call: ast.Call) -> str | None:
    """`util.save(...)`: a function of an imported module, as `util.save`."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return None


class Host(Protocol):
    """What the walker reads from and hands back to the analyzer that owns it: the
    module's names and definitions, the intents found so far (a helper read at a call
    rewrites its own), the SQL session, and the value reading of one expression."""

    source: str
    session: Session
    intents: list[Intent]
    diagnostics: list[Diagnostic]
    module_env: dict[str, object]
    classes: dict[str, ast.ClassDef]
    widget_defaults: dict[str, str]
    batch_functions: set[str]
    imports: list[tuple[str, str, str]]
    job_definitions: list[dict]
    notebook_runs: list[tuple[str, dict[str, str]]]
    pooled_notebook_runs: list[PooledRun]
    own_path: str
    budget: Budget
    _helpers: set[str]
    _foreign_defs: dict[str, ast.stmt]
    _own_lines: int
    _homes: list[tuple[int, int, str]]
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    value_functions: dict[str, tuple[Module, str]]
    _tree: ast.Module | None
    values: ValueResolver
    sites: SourceSites  # where a node stands, and its text
    guards: GuardReader  # the tables known absent where the walk stands

    def _calls(self, expr: ast.expr, scope: Scope) -> None: ...
    def _flush_sql(self, before_line: int | None) -> None: ...
    def _guarded(self, node: ast.AST, read: Callable[..., None], *args: Any, **kwargs: Any) -> None: ...
    def _may_hold_terminal(self, node: ast.expr) -> bool: ...
    def _registry_of(self) -> Registries: ...


# The node classes of Python 3.10-3.11's grammar, whose fields `_plan` knows:
# a class added later (3.12's `TypeAlias` holds a node in `name`) is walked field
# by field.
_GRAMMAR = frozenset(
    "Module Interactive Expression FunctionType FunctionDef AsyncFunctionDef ClassDef Return Delete Assign "
    "AugAssign AnnAssign For AsyncFor While If With AsyncWith Match Raise Try TryStar Assert Import ImportFrom "
    "Global Nonlocal Expr Pass Break Continue BoolOp NamedExpr BinOp UnaryOp Lambda IfExp Dict Set ListComp "
    "SetComp DictComp GeneratorExp Await Yield YieldFrom Compare Call FormattedValue JoinedStr Constant "
    "Attribute Subscript Starred Name List Tuple Slice comprehension ExceptHandler arguments arg keyword alias "
    "withitem match_case MatchValue MatchSingleton MatchSequence MatchMapping MatchClass MatchStar MatchAs "
    "MatchOr TypeIgnore".split()
)
# Fields of those classes that hold a name, a number or a constant, never a node
# (`Global.names` and `MatchClass.kwd_attrs` are lists of names): not looked at.
_SCALAR_FIELDS = frozenset(
    {"id", "attr", "arg", "name", "asname", "module", "level", "rest", "kind", "conversion", "is_async", "simple"}
    | {"type_comment", "tag", "kwd_attrs", "lineno"}
)
_SCALAR_OF = {"Constant": ("value",), "MatchSingleton": ("value",), "Global": ("names",), "Nonlocal": ("names",)}
# Fields that hold a list of nodes (or of nodes and None: `Dict.keys`,
# `arguments.kw_defaults`), unless `_ONE_NODE` says the class holds one node there.
_LIST_FIELDS = frozenset(
    {"body", "orelse", "finalbody", "handlers", "targets", "elts", "args", "keywords", "values", "keys", "ops"}
    | {"comparators", "generators", "ifs", "decorator_list", "bases", "names", "items", "cases", "patterns"}
    | {"kwd_patterns", "posonlyargs", "kwonlyargs", "kw_defaults", "defaults", "type_ignores", "argtypes"}
)
_ONE_NODE = {
    "Lambda": ("args", "body"),
    "IfExp": ("body", "orelse"),
    "Expression": ("body",),
    "FunctionDef": ("args",),
    "AsyncFunctionDef": ("args",),
}
_PLANS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _plan(kind: type) -> tuple[tuple[str, bool], ...]:
    """The fields of a node class a walk looks at, in their order, each with whether
    it holds a list. Of the grammar's classes (`_GRAMMAR`), names and constants are
    left out; any other class (a newer grammar's, one a test builds) has every
    field looked at. A list is still checked to be one, and a field that is not
    one is checked for a node: a field these tables do not know is walked as before."""
    name = kind.__name__
    if kind.__module__ != "ast" or name not in _GRAMMAR:
        plan = tuple((f, False) for f in kind._fields)
    else:
        scalars, single = _SCALAR_OF.get(name, ()), _ONE_NODE.get(name, ())
        plan = tuple(
            (f, f in _LIST_FIELDS and f not in single)
            for f in kind._fields
            if f not in _SCALAR_FIELDS and f not in scalars
        )
    _PLANS[kind] = plan
    return plan


def walk(node: ast.AST) -> list[ast.AST]:
    """`ast.walk(node)` as a list, in its order (breadth first): without a generator
    per node it is quicker, and a job file is walked several times. Each class's
    fields are looked at as the grammar types them (`_plan`): names and constants
    not at all, a list without asking whether it is one."""
    todo = [node]
    plans, is_node = _PLANS, ast.AST
    append, extend = todo.append, todo.extend
    for current in todo:  # the list grows while it is read: breadth first
        plan = plans.get(current.__class__)
        if plan is None:
            plan = _plan(current.__class__)
        for name, many in plan:
            value = getattr(current, name, None)
            if many and type(value) is list:
                if value:
                    extend([v for v in value if isinstance(v, is_node)])
            elif isinstance(value, is_node):
                append(value)
            elif type(value) is list:
                extend([v for v in value if isinstance(v, is_node)])
    return todo


# statements of a configuration factory read (see `Walker._factory`)
MAX_FACTORY_STATEMENTS = 16


_WIDGET_KINDS = ("text", "dropdown", "combobox", "multiselect")


def _open_tail(before: object, after: object) -> bool:
    """Whether one turn of a loop appended to a text a part only a run knows: `after`
    is `before`'s text and then more, with a part not known in what was added."""
    if not (isinstance(before, Str) and isinstance(after, Str)) or before.scalar or after.scalar:
        return False
    if len(list(alternatives(after))) > 1:  # a turn's branches (`if first: s = s + ","`): each appends
        return all(a.text == before.text or _open_tail(before, a) for a in alternatives(after))
    if before.unknown or len(after.text) <= len(before.text) or not after.text.startswith(before.text):
        return False
    return after.unknown or bool(set(after.params) - set(before.params))


def _carried(body: list[ast.stmt]) -> set[str]:
    """Names a loop's body binds from their own value: `n += 1`, `n = n + 1`, `s = f"{s},{x}"`
    (not inside a function or class the body defines)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
            read = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            found |= named & read
        stack.extend(ast.iter_child_nodes(node))
    return found


def _bound_here(stmt: ast.stmt) -> set[str]:
    """The names a statement binds in its own scope (targets, loop and `with`
    names, walrus targets, imports, `except ... as e`, `match` captures), not those
    of a function, class or lambda it defines, nor a comprehension's own targets."""
    found: set[str] = set()
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if node is not stmt and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.add(node.id)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.add(node.name)
        elif hasattr(ast, "MatchAs") and isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            found.add(node.name)
        elif hasattr(ast, "MatchMapping") and isinstance(node, ast.MatchMapping) and node.rest:
            found.add(node.rest)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # a comprehension's targets are its own; a walrus in it binds the enclosing scope
            stack.extend(n for n in walk(node) if isinstance(n, ast.NamedExpr))
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _declared(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> tuple[set[str], set[str]]:
    """The names a function, or one defined in it, declares `global` (the module's)
    and `nonlocal` (an enclosing function's)."""
    declared: set[str] = set()
    outer: set[str] = set()
    for node in walk(fn):
        if isinstance(node, ast.Global):
            declared.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            outer.update(node.names)
    return declared, outer


def _own_globals(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[set[str], bool]:
    """The names a function's own body declares `global`, and whether each of them
    holds at the body's end what the function leaves it with: False when a `return`
    or `raise` may leave the body before its end (that way is not the end's)."""
    declared: set[str] = set()
    early = False
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Global):
            declared.update(node.names)
        elif isinstance(node, (ast.Return, ast.Raise)) and node is not fn.body[-1]:
            early = True
        todo.extend(ast.iter_child_nodes(node))
    return declared, not early


# a step per this many characters of a statement's own text (see `_cost`)
CHARS_PER_STEP = 8
_LINE_CHARS = 80  # what a line of a statement written on several counts
_SCOPE_WORDS = re.compile(r"\b(?:global|nonlocal)\b")


def _cost(stmt: ast.stmt) -> int:
    """What reading a statement costs the file's budget: a step, and one per
    `CHARS_PER_STEP` characters of its own text (up to its body, for a statement
    that holds others, each charged when read), as reading it walks what it
    writes: a line of a hundred f-string fields costs what a hundred short lines
    do. Found from its position alone, so as cheap as the step itself."""
    body = getattr(stmt, "body", None)
    first = body[0] if type(body) is list and body and isinstance(body[0], ast.stmt) else None
    if first is not None:
        end_line, end_col = first.lineno, first.col_offset
    else:
        end_line, end_col = stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0
    chars = (end_line - stmt.lineno) * _LINE_CHARS + max(end_col - stmt.col_offset, 0)
    return 1 + chars // CHARS_PER_STEP


def _own_nodes(stmt: ast.stmt) -> list[ast.AST]:
    """The nodes of a statement's own expressions: not those of the statements it
    holds (read as statements), nor of a function or lambda it defines (run
    elsewhere)."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        found.append(node)
        todo.extend(
            c
            for c in ast.iter_child_nodes(node)
            if not isinstance(c, (ast.stmt, ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        )
    return found


_MISSING = object()  # a name not bound (see `Walker._try`)
# statements read as paths that join again (see `Walker._branching`)
_BRANCHING = frozenset(
    {ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, *([ast.TryStar] if hasattr(ast, "TryStar") else [])}
)


def _forget(env: dict[str, object], name: str) -> None:
    """`name` holds a value not known: bound to a placeholder of its name, as a name
    read with nothing bound gives, and not left out: a join with a path where it is
    known keeps that it may be unknown (a name left out of one path's names is one
    that path never binds, and the join keeps the others' values)."""
    shown = param_name(name)
    env[name] = Str("{" + shown + "}", (shown,), True)


def _untold(env: dict[str, object], name: str, prefix: str = EACH) -> None:
    """`name` holds a value no run gives as an input (see `lattice.EACH`): an item of a
    collection not known (a loop's name, what a turn binds from it), or what a
    statement not followed binds (`with ... as f`, `except ... as e`, a starred
    target: `UNTOLD`). A placeholder `{each_name}` says so, and a table named with it
    is unresolved (DL001) rather than paired by its text as a job input's would be."""
    shown = prefix + param_name(name)
    env[name] = Str("{" + shown + "}", (shown,), True)


def _replace_env(scope: Scope, env: dict[str, object]) -> None:
    """In place: other readers hold the scope's dict (`scope.env is self.module_env`)."""
    scope.env.clear()
    scope.env.update(env)


LOOP_ELEMENTS = 256
# the methods that change a schema object in place (`StructType.add`), besides the
# list and dict changers: a name so changed holds no one schema (`single_binding`)
_SCHEMA_CHANGES = frozenset({"add", *MUTATORS})
# methods that change a list, dict or set in place besides `MUTATORS` and `DICT_CHANGES`
_IN_PLACE = frozenset({"remove", "discard", "sort", "reverse", "pop", "clear", "popitem", "difference_update"})


def _plain(held: object) -> object:
    """A held value as the evaluator reads a collection in it: a `Collection` its
    plain value, one of a few held values (`if`/`else` lists) one of their plain
    values, else as `to_plain` gives it."""
    if type(held) is Collection:
        return held.value
    if type(held) is OneOf:
        return lattice_join([_plain(v) for v in held.values])
    plain = to_plain(held)
    if type(held) is dict and type(plain) is Unknown:
        # a dict whose keys are all known and some values not (`{"daily": df}`): a
        # loop over its keys or items knows each key (see `Evaluator.items`)
        return {k: to_plain(v) if v is not UNHELD else Unknown("not held") for k, v in held.items()}
    return plain


def _alternatives_held(held: object) -> tuple[object, ...] | None:
    """The alternatives of a string that is one of several texts (`narrowing`'s
    view of the walker's values); None for any other value."""
    if isinstance(held, Str) and type(held.value) is OneOf:
        return held.value.values  # type: ignore[attr-defined]
    return None


def _rejoined(kept: list[object]) -> object:
    """The string that is one of `kept` (texts of one of several)."""
    return one_of(kept)  # type: ignore[arg-type]


def _unpacked(target: ast.Tuple | ast.List, held: object) -> Row | None:
    """What `schema, table = key` binds when `key` holds a sequence of known length:
    a loop's tuple item (a `Collection`, or a list of texts), as Python unpacks it;
    None when it is no such sequence or Python would raise (another length)."""
    if type(held) is Collection:
        row: Row = {}
        return row if bind(target, held.value, row) else None
    if is_texts(held) and len(held) == len(target.elts) and all(isinstance(t, ast.Name) for t in target.elts):  # type: ignore[arg-type]
        return {t.id: item for t, item in zip(target.elts, held)}  # type: ignore[attr-defined,arg-type]
    return None


def _written_list(node: ast.expr) -> bool:
    """A list or tuple written in the loop's header, of at most `LOOP_ELEMENTS`
    elements (as `ValueResolver._items` reads) and none unpacked (`*rest`): how many
    turns the loop runs is known."""
    return (
        isinstance(node, (ast.List, ast.Tuple))
        and 0 < len(node.elts) <= LOOP_ELEMENTS
        and not any(isinstance(e, ast.Starred) for e in node.elts)
    )


def _leaves(body: list[ast.stmt]) -> bool:
    """The block ends by leaving (`return`, `raise`, `break`, `continue`): what it
    binds does not reach the code after the statement that holds it."""
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue))


def _is_dataclass(cls: ast.ClassDef) -> bool:
    """`@dataclass`, `@dataclass(frozen=True)`, `@dataclasses.dataclass`; a
    `NamedTuple` class too, made the same way (its fields in order or by keyword,
    a keyword it has no field for a TypeError)."""
    if any((b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")) == "NamedTuple" for b in cls.bases):
        return True
    for decorator in cls.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "dataclass":
            return True
    return False


def is_config_class(cls: ast.ClassDef) -> bool:
    """A dataclass, a configuration model, or a class with a class or static
    method (a factory)."""
    return (
        _is_dataclass(cls)
        or _is_model(cls)
        or any(
            isinstance(f, ast.FunctionDef)
            and any(isinstance(d, ast.Name) and d.id in ("classmethod", "staticmethod") for d in f.decorator_list)
            for f in cls.body
        )
    )


def _is_model(cls: ast.ClassDef) -> bool:
    """A configuration model (`class Config(BaseModel)`, see `MODEL_BASES`) with no
    `__init__` of its own: its fields are its annotated names."""
    named = {b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in cls.bases}
    return bool(named & MODEL_BASES) and not any(
        isinstance(f, ast.FunctionDef) and f.name == "__init__" for f in cls.body
    )


def _required_fields(cls: ast.ClassDef) -> list[str]:
    """The fields a dataclass or model must be given: annotated names with no default."""
    return [
        s.target.id
        for s in cls.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value is None
    ]


def _defaults(cls: ast.ClassDef) -> dict[str, object]:
    """The fields of a dataclass or model whose default is a literal text or number."""
    out: dict[str, object] = {}
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            value = stmt.value.value if isinstance(stmt.value, ast.Constant) else None
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                out[stmt.target.id] = value
    return out


def _dataclass_fields(cls: ast.ClassDef) -> list[str]:
    """A dataclass's fields in order: its annotated class-level names."""
    return [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]


def _literal_in(body: list[ast.stmt], name: str) -> object:
    """`NAME = <literal>` of a class or module body (`CONFIGS = {"dev": {...}}`) as
    plain Python, read with `ast.literal_eval` (no code runs); None otherwise."""
    for stmt in body:
        value = None
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            value = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            value = stmt.value
        if value is not None:
            try:
                return ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return None
    return None


def _objects_made(tree: ast.Module | None, classes: set[str], own_lines: int) -> dict[str, tuple[int, int]]:
    """class -> (objects the code makes of it, calls of methods on them): on the
    object made (`Cls(...).run()`) or on a name bound to it (`p = Cls(...)`, `p.run()`)."""
    made: dict[str, int] = {}
    held: dict[str, str] = {}  # name -> the class of the object it is bound to
    calls: list[ast.Call] = []
    nodes = walk(tree) if tree is not None else []
    # an object made in a method (`self.writer = Writer(...)` in `Job.__init__`) is
    # made once per object of that class: as many as the code makes, not one
    in_methods = {id(n) for c in nodes if isinstance(c, ast.ClassDef) for n in walk(c)}
    for node in nodes:
        if not isinstance(node, (ast.Call, ast.Assign)) or node.lineno > own_lines:
            continue
        if isinstance(node, ast.Call):
            calls.append(node)
            if isinstance(node.func, ast.Name) and node.func.id in classes:
                made[node.func.id] = made.get(node.func.id, 0) + (2 if id(node) in in_methods else 1)
        elif len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                value = value.func.value  # `p = Cls(...).start()`
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes:
                held[node.targets[0].id] = value.func.id
    used: dict[str, int] = {}
    for call in calls:
        if not isinstance(call.func, ast.Attribute):
            continue
        owner = call.func.value
        cls = None
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id in classes:
            cls = owner.func.id
        elif isinstance(owner, ast.Name):
            cls = held.get(owner.id)
        if cls is not None:
            used[cls] = used.get(cls, 0) + 1
    return {cls: (n, used.get(cls, 0)) for cls, n in made.items()}


def _swap(held: object, old: object, new: object, made: dict[int, object], depth: int = 0) -> object:
    """`held` with the value `old` (the same one, not an equal one: an object, a
    dict, a list) replaced by `new`, inside the objects and dicts it holds too
    (three deep at most); an attribute that held `old` is no longer known when
    `new` is None, nor a key (UNHELD). `made`: the dicts made so far by this
    change, by the old one's id, so two names holding one dict still hold one."""
    if held is old:
        return new
    if depth >= 3 or not (isinstance(held, Instance) or type(held) is dict):
        return held
    if id(held) in made:
        return made[id(held)]
    if type(held) is dict:
        values = {k: _swap(v, old, new, made, depth + 1) for k, v in held.items()}
        if all(values[k] is v for k, v in held.items()):
            return held
        swapped: object = {k: UNHELD if v is None else v for k, v in values.items()}
    else:
        assert isinstance(held, Instance)
        items = tuple((k, _swap(v, old, new, made, depth + 1)) for k, v in held.items)
        if all(a[1] is b[1] for a, b in zip(items, held.items)):
            return held
        swapped = Instance(tuple((k, v) for k, v in items if v is not None), cls=held.cls)
    made[id(held)] = swapped
    return swapped


def _is_widget_definition(node: ast.expr) -> bool:
    """`dbutils.widgets.text(...)` (or dropdown, combobox, multiselect)."""
    func = node.func if isinstance(node, ast.Call) else None
    return (
        isinstance(func, ast.Attribute)
        and func.attr in _WIDGET_KINDS
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "widgets"
    )


def _shape(intent: Intent) -> tuple:
    """What a write is, wherever it is reported: a helper's write read at a call that
    comes out the same as read on its own does not depend on the call. Its statement's
    own form counts (`subkind`, what it declares): a `COMMENT ON TABLE` and an
    `ALTER COLUMN` of one table are two writes, not one kept twice."""
    return (
        intent.table,
        intent.kind,
        intent.subkind,
        intent.declared,
        intent.predicate_sql,
        intent.flags,
        intent.checkpoint,
        intent.region,
    )


def _parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """Every name a function's parameters bind."""
    a = fn.args
    named = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x is not None)]
    return frozenset(x.arg for x in named)


def is_self_call(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"


def _header_exprs(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.iter]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in stmt.items]
    return []


def _task_value_key(node: ast.Call) -> str:
    """The key a `taskValues.set` call sets; "" when it is not a literal (any key)."""
    key = argument_at(node, 0, "key")
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""


class Walker:
    """Reads a module's statements for the values its names hold, for the analyzer
    (`Host`) that owns it; see the module docstring."""

    def __init__(self, host: Host, called: tuple[str, ...] = ()) -> None:
        # a weak reference: the host owns the walker, and a cycle between them would keep
        # every file's tree alive until the garbage collector's next full pass (10% more
        # time on 10,000 files, spent collecting)
        self.host: Host = weakref.proxy(host)
        self.values = host.values  # what one expression holds (the host's `ValueResolver`)
        # `dbutils.notebook.exit(x)` calls read in the module's scope: id of the call ->
        # the values it was read with (see `notebook_exit`)
        self.notebook_exits: dict[int, list[object]] = {}
        self.task_values_set: dict[str, list[object]] = {}  # see `task_value_set`
        self._sets_read: set[int] = set()  # ids of the `taskValues.set` calls read
        # functions other files call: read there with their arguments, so not kept as written here
        self._helper_calls: dict[str, int] = dict.fromkeys(called, 0)
        self._readings = Readings()  # helper readings that found nothing (see `values.readings`)
        self._instance_calls: set[str] = set()  # methods read with their object (see `Instance`)
        # helpers a call of which is not read (a cap, the budget spent): their writes
        # as read where written stay, their parameters not resolved
        self._unread: set[str] = set()
        self._items_unknown: str | None = None  # why the last collection read was not known item by item
        self._bound: dict[str, list[ast.expr]] | None = None  # (`_bindings`)
        self._binders: frozenset[str] | None = None  # (`_other_binders`)
        # how the path being read has certainly left the block it is in ("return",
        # "raise", "break", "continue"; None: it goes on): see `block`
        self._left: str | None = None
        # each `try` being read, innermost last: its scope, the names before it, and
        # every value each name held after a statement of its body (see `_try`)
        self._trying: list[tuple[Scope, dict[str, object], dict[str, list[object]], frozenset[str]]] = []
        self._try_names: dict[int, tuple[ast.stmt, frozenset[str]]] = {}  # see `_try`
        # (first line, last line, why) of the file's statements Python never runs
        # (after a known `return`, in the body of a test known false): see `_not_run`
        self.not_run: list[tuple[int, int, str]] = []
        # (the text, whether it holds a walrus, a `global` or `nonlocal`): see `_text_has`
        self._flags: tuple[object, bool, bool] = (None, False, False)
        # (the functions, how many, those that change a parameter in place): see `_changers`
        self._changing: tuple[object, int, dict[str, frozenset[str]]] = (None, 0, {})
        # id of a statement -> (it, its calls of such functions): see `_handed_on`
        self._calls_in: dict[int, tuple[ast.stmt, list[ast.Call]]] = {}
        self._entries: dict[int, tuple[ast.AST, dict[str, list[ast.expr] | None]]] = {}  # see `_entry_bindings`
        # id of a helper -> (it, the names it declares `global`, whether its end is its only way out)
        self._globals_of: dict[int, tuple[ast.AST, set[str], bool]] = {}
        # class -> the one object the file makes of it, with known attributes (see `instance`)
        self.sole_instances: dict[str, Instance] = {}
        # such objects given to this reading: their methods are read where they are written,
        # with `self` bound to the object, and calls on it read no method again
        self.placed: dict[str, Instance] = {}
        self._class: str | None = None  # the class whose body is being read
        self._class_session: dict[str, Session] = {}  # the SQL session where each class is defined
        self._session_changers: set[str] = set()  # classes with a method that runs USE or SET
        # class -> (objects the file makes of it, method calls on them): see `_objects_made`
        self._made: dict[str, tuple[int, int]] | None = None
        # helper intents that do not depend on the call, kept where written (the
        # analyzer marks those a pooled call reaches)
        self.kept_in_place: set[int] = set()
        # helper -> its intents and diagnostics read without a call
        self._from_definition: dict[str, tuple[list[int], list[int]]] = {}
        # for each loop being read, innermost last: the environments its `break`s and
        # its `continue`s leave a turn with (see `_turn`)
        self._exits: list[tuple[list[dict[str, object]], list[dict[str, object]]]] = []
        # id of a string a name was first bound to -> (the string, the expression that built
        # it): SQL text assigned to a name and run by `spark.sql(name)` lines later stands
        # there (see `text_sites`). The string is kept so its id is never reused.
        self._built_at: dict[int, tuple[Str, ast.expr]] = {}
        # id of a class -> (the class, what its methods other than `__init__` may set)
        self._changed: dict[int, tuple[ast.ClassDef, frozenset[str] | None]] = {}
        self._rebound: dict[str, frozenset[str] | None] | None = None  # see `_class_rebound`
        self._empty: Module | None = None  # the module a collection is read in (see `_collection_reader`)

    def home(self, line: int) -> str | None:
        """The imported module whose pasted definition holds `line`: names there are
        that module's (None: this file's own code, or a `%run` notebook's, which
        shares this file's namespace)."""
        if line <= self.host._own_lines:
            return None
        for first, last, module in self.host._homes:
            if first <= line <= last:
                return module
        return None

    def callee(self, node: ast.Call) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The helper a call names: inside an imported module's definition, by that
        module's names (its own functions and what it imports); elsewhere by this file's."""
        name = called_name(node) or _module_function(node)
        if name is None:
            return None
        functions, helpers = self.host.functions, self.host._helpers
        home = self.home(node.lineno)
        if home is not None and not is_self_call(node):
            key = f"{home}{SCOPED}{name}"
            return functions[key] if key in helpers and key in functions else None
        if name in helpers and name in functions:
            return functions[name]
        return None

    def module_call(self, node: ast.Call, scope: Scope) -> bool:
        """`importlib.import_module(name).run(...)`, or `mod.run(...)` of a name bound
        to such an import (`imported_module`): a call of a function of the module the
        name holds (see `registries`). A known name, that module's function; one of
        several (`MODULES[step]` by a key only a run knows, `"a" if x else "b"`), or a
        template (`f"pkg.{step}"`), each project module's it may name, every write of
        one flagged as one of the alternatives (`Flag.ONE_OF`), as for a registry of
        functions. A name only a run knows, or a template that names no function
        given here, is a DL006 note at the line: the code it runs is not read. False
        for any other call."""
        func = node.func
        if type(func) is not ast.Attribute:
            return False
        if type(func.value) is ast.Call:
            module = self.imported_module(func.value, scope)
        elif type(func.value) is ast.Name and type(scope.env.get(func.value.id)) is ImportedModule:
            module = scope.env[func.value.id]  # type: ignore[assignment]
        else:
            return False
        if module is None:
            return False
        wanted = [f"{name}.{func.attr}" for name in module.names]
        for template in module.templates:
            matches = module_pattern(template)
            wanted += sorted(
                h
                for h in self.host._helpers
                if h.endswith(f".{func.attr}") and matches and matches(h[: -len(func.attr) - 1])
            )
        functions = [
            self.host.functions[h]
            for h in dict.fromkeys(wanted)
            if h in self.host._helpers and h in self.host.functions
        ]
        if (module.templates and not functions) or not (module.names or module.templates):
            self.host.diagnostics.append(
                Diagnostic(
                    NOT_READ,
                    self.host.sites.loc(node),
                    f"`{module.shown}` imports a module by a name only a run knows: the code it runs is not read, "
                    "its writes are not checked",
                    "info",
                )
            )
        call = ast.copy_location(ast.Call(func=func, args=node.args, keywords=node.keywords), node)
        several = len(module.names) + len(module.templates) > 1 or bool(module.templates)
        for fn in functions:
            before = len(self.host.intents)
            self.host._guarded(node, self.call_helper, fn, call, scope)
            if several:
                self.host.intents[before:] = [
                    replace(x, flags=x.flags | {Flag.ONE_OF}) for x in self.host.intents[before:]
                ]
        return True

    def imported_module(self, call: ast.expr, scope: Scope) -> ImportedModule | None:
        """The module `importlib.import_module(name)` imports, as far as the name's
        value tells (see `_module_names`); None for any other expression. The names
        are recorded as imports (a template as itself, which the link stage matches
        against the project's modules), so the link stage gives this file their
        functions."""
        if type(call) is not ast.Call or (type(call.func) is ast.Attribute and call.func.attr != IMPORT_MODULE[1]):
            return None  # `spark.read.format("delta")`: most calls, told apart without the imports
        if not imports_by_name(call, self.host.imports):
            return None
        assert isinstance(call, ast.Call)
        names, templates = self._module_names(call.args[0], scope)
        self.host.imports.extend((name, "", name) for name in [*names, *templates])
        shown = self.host.sites.one_line_source(call) or "importlib.import_module(...)"
        return ImportedModule(tuple(names), tuple(templates), shown)

    def _module_names(self, node: ast.expr, scope: Scope) -> tuple[list[str], list[str]]:
        """The module names an `import_module` argument may hold: known names, and
        templates with a known part (`pkg.{step}`); both empty when only a run knows
        it (or past MAX_ALTERNATIVES: `one_of` gives up)."""
        text = self.values.string(node, scope)
        if (
            text.unknown
            and isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and self.values._key(node.slice, scope) is None
        ):
            text = self.values.any_value(node.value, scope) or text  # `MODULES[step]`: any of its names
        names: list[str] = []
        templates: list[str] = []
        for each in alternatives(text):
            if not each.unknown and not each.params and not each.scalar:
                names.append(each.text)
            elif each.params and module_pattern(each.text) is not None:
                templates.append(each.text)
            else:
                return [], []
        return names, templates

    def _widget_default(self, call: ast.Call, scope: Scope) -> None:
        """`dbutils.widgets.dropdown("scale", SCALES[0], SCALES)`: a default the code
        builds (the literal ones are read before, from the text)."""
        name, default = argument_at(call, 0, "name"), argument_at(call, 1, "defaultValue")
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or default is None:
            return
        value = self.values.string(default, scope)
        if not value.unknown and not value.params and value.text.strip() and "{" not in value.text:
            self.host.widget_defaults.setdefault(name.value, value.text.strip())

    def drop_definition_intents(self) -> None:
        """A helper's writes are reported where it is called with known values; read on
        its own (parameters as placeholders) it keeps them only when nothing calls it."""
        for name in self._instance_calls:  # reported at the calls on its object: not where it is written
            self.kept_in_place.difference_update(self._from_definition.get(name, ([], []))[0])
        # a helper the code also uses as a value runs where the reading does not see
        # (`save = w`, `{"a": w}`, `run_later(w)`): what it writes read on its own stays
        read = [name for name in self._from_definition if name in self._helper_calls and name not in self._unread]
        handed = used_as_values(self.host._tree, read, self._dispatched()) if read else set()
        called = [self._from_definition[name] for name in read if name not in handed]
        intents = {i for marks in called for i in marks[0]} - self.kept_in_place
        diagnostics = {i for marks in called for i in marks[1]}
        if intents:
            self.host.intents = [x for n, x in enumerate(self.host.intents) if n not in intents]
        if diagnostics:
            self.host.diagnostics = [x for n, x in enumerate(self.host.diagnostics) if n not in diagnostics]

    def _dispatched(self) -> set[int]:
        """Ids of the registry entries the module's own calls run (`registries.dispatched`)."""
        found = self.host._registry_of().by_name if self._from_definition else {}
        return dispatched(self.host._tree, found) if found and self.host._tree is not None else set()

    def block(self, body: list[ast.stmt], scope: Scope, top_level: bool = False) -> None:
        """Read a block's statements in order, up to one after which the path has
        certainly left it (`self._left`: a `return`, `raise`, `break` or `continue`
        reached, on a known condition too): Python runs none after it."""
        for stmt in body:
            if top_level:
                if stmt.lineno > self.host._own_lines:
                    return  # foreign helpers: read at their calls only
                self.host._flush_sql(stmt.lineno)
            self._stmt(stmt, scope)
            if self._left is not None:
                rest = body[body.index(stmt) + 1 :]
                if rest and not scope.calls:
                    self._not_run(rest, f"the code leaves at line {stmt.lineno} before it")
                if top_level:  # the module's code ends here (a `raise` on a known condition)
                    self._left = None
                return

    def _not_run(self, body: list[ast.stmt], why: str) -> None:
        """Statements of the file's own code Python never runs, read where they are
        (not at a helper's call, which another call may run): their lines, and why."""
        first, last = body[0].lineno, body[-1].end_lineno or body[-1].lineno
        if first <= self.host._own_lines:
            self.not_run.append((first, min(last, self.host._own_lines), why))

    def _stmt(self, stmt: ast.stmt, scope: Scope) -> None:
        """Read one statement. Every statement read costs the file's budget a step,
        a helper's body at each of its calls too; once the budget is spent, the
        statement is still read for its writes, but what it binds is not known."""
        budget = self.host.budget
        if not budget.exhausted:
            try:
                budget.step(_cost(stmt))
            except OutOfBudget as err:
                # said at the outermost call when a helper read again there ran out
                line = scope.site.line if scope.site is not None and scope.calls else stmt.lineno
                budget.note(self.host.own_path, line, str(err), lasting=True)
                self.values._budget_spent(stmt)
        flags = self._flags
        if flags[0] is not self.host.source:
            flags = self._scan_text()
        if flags[1]:
            self._walrus(stmt, scope)
        self._read(stmt, scope)
        if self._changing[2] or self._changing[0] is not self.host.functions:
            self._handed_on(stmt, scope)
        kind = type(stmt)
        if kind is ast.Assert:  # the code below runs only where the assertion holds
            self._narrow(scope, [(stmt.test, True)])
        elif kind is ast.Return:
            self._left = "return"
        elif kind is ast.Raise or (kind is ast.Expr and brains.ends_run(stmt.value)):  # type: ignore[attr-defined]
            self._left = "raise"
        if budget.exhausted and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for name in _bound_here(stmt):
                _forget(scope.env, name)
        for trying, before, seen, names in self._trying if self._trying else ():  # an `except` may start here
            if trying is scope:
                env = scope.env
                for name in names:
                    value = env.get(name, _MISSING)
                    if value is _MISSING or value is before.get(name, _MISSING):
                        continue
                    values = seen.setdefault(name, [])
                    if not any(v is value for v in values):
                        values.append(value)

    def _text_has(self) -> tuple[bool, bool]:
        """Whether the file's text (its own and the helpers pasted after it) holds a
        walrus, and a `global` or `nonlocal` declaration: most files hold neither,
        and then no statement is searched for them."""
        flags = self._flags if self._flags[0] is self.host.source else self._scan_text()
        return flags[1], flags[2]

    def _scan_text(self) -> tuple[object, bool, bool]:
        """`_text_has`'s answers, worked out once per text: the words searched for
        as plain text first (the pattern's word boundaries cost a look at every
        character; most files hold neither word)."""
        source = self.host.source
        scoped = ("global" in source or "nonlocal" in source) and bool(_SCOPE_WORDS.search(source))
        self._flags = (source, ":=" in source, scoped)
        return self._flags

    def _handed_on(self, stmt: ast.stmt, scope: Scope) -> None:
        """A list or dict a name holds, given to a function of the file that changes
        its parameter in place (`def add(lst): lst.append(x)`, `c["t"] = ...`): the
        name, and every name holding the same value, is no longer known after the
        call, whether or not the call is read."""
        changers = self._changers()
        if not changers or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return
        known = self._calls_in.get(id(stmt))
        if known is None or known[0] is not stmt:
            calls = [
                n
                for n in _own_nodes(stmt)
                if type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in changers
            ]
            known = self._calls_in[id(stmt)] = (stmt, calls)  # the statement kept: its id is never reused
        for call in known[1]:
            fn = self.host.functions[call.func.id]  # type: ignore[attr-defined]
            changed = changers[call.func.id]  # type: ignore[attr-defined]
            params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
            given = list(zip(params, call.args)) + [(k.arg, k.value) for k in call.keywords]
            for param, arg in given:
                if param in changed and isinstance(arg, ast.Name):
                    held = scope.env.get(arg.id)
                    if held is not None and not isinstance(held, (Str, DataFrame, Instance)):
                        self._set_dict(arg.id, scope, None)

    def _changers(self) -> dict[str, frozenset[str]]:
        """The file's functions (by the name a call gives) that change a parameter in
        place, with those parameters: a store or `del` into an item of it, `+=` on
        it, a method that changes a list, dict or set (not `self`'s attributes: an
        object is followed by `_set_attribute`). Found once per set of functions."""
        functions = self.host.functions
        if self._changing[0] is not functions or self._changing[1] != len(functions):
            methods = MUTATORS | DICT_CHANGES | _IN_PLACE
            found: dict[str, frozenset[str]] = {}
            for name, fn in functions.items():
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs} - {"self", "cls"}
                changed: set[str] = set()
                for node in walk(fn) if params else ():
                    kind = type(node)  # by identity: a parsed tree holds no subclass of the grammar's
                    if kind is ast.Subscript:
                        if type(node.ctx) is ast.Load:
                            continue
                        part: ast.expr = node
                    elif kind is ast.AugAssign:
                        part = node.target
                    elif kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr in methods:
                        part = node.func.value
                    else:
                        continue
                    while type(part) is ast.Subscript or type(part) is ast.Attribute:
                        part = part.value  # type: ignore[attr-defined]
                    if type(part) is ast.Name and part.id in params:
                        changed.add(part.id)
                if changed:
                    found[name] = frozenset(changed)
            self._changing = (functions, len(functions), found)
        return self._changing[2]

    def _walrus(self, stmt: ast.stmt, scope: Scope) -> None:
        """The names a statement's own expressions bind with `:=` (an `if` or `while`
        test, a call's argument, a comprehension's, which binds the enclosing scope):
        bound before the statement is read, as Python binds them before its body
        runs. One that is the whole test or value holds its value; one that may not
        be evaluated (behind `and`/`or`, a conditional) or is evaluated again (a
        comprehension's, a `while` test's) holds its old value or the new one, or is
        not known."""
        header = getattr(stmt, "test", None) if isinstance(stmt, (ast.If, ast.While)) else getattr(stmt, "value", None)
        once = not isinstance(stmt, ast.While)
        again: set[int] = set()  # walruses in comprehensions, evaluated once per item
        for node in _own_nodes(stmt):
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                again.update(id(n) for n in walk(node) if isinstance(n, ast.NamedExpr))
        for node in _own_nodes(stmt):
            if not (isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name)):
                continue
            name = node.target.id
            if not once or id(node) in again:
                _forget(scope.env, name)
                continue
            value = self.values._value(node.value, scope, name)
            if node is header or name not in scope.env:
                held = {name: value} if value is not None else {}
            else:
                held = join_envs([{name: scope.env[name]}, {name: value}]) if value is not None else {}
            if name in held:
                scope.env[name] = held[name]
            else:
                _forget(scope.env, name)

    def _read(self, stmt: ast.stmt, scope: Scope) -> None:
        # the statement's class, compared by identity: a parsed tree holds the
        # grammar's own classes (no subclass), and one look costs less than each isinstance
        kind = type(stmt)
        if kind is ast.Break or kind is ast.Continue:  # the names leave the turn as they are
            if self._exits:
                self._exits[-1][kind is ast.Continue].append(dict(scope.env))
            self._left = "continue" if kind is ast.Continue else "break"
            return
        if kind is ast.Expr and _is_widget_definition(stmt.value):
            self._widget_default(stmt.value, scope)  # type: ignore[arg-type]
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            if stmt.name not in self.host.batch_functions:
                self.function(stmt, scope)
            # a name it (or a function in it) rebinds with `global`/`nonlocal` changes
            # wherever it is called, which a call not read does not tell: not known
            # from here on (a call read again says what it holds after, see `call_helper`)
            declared, outer = _declared(stmt) if self._text_has()[1] else (set(), set())
            for name in declared | outer:
                _forget(scope.env, name)
                if name in declared and scope.env is not self.host.module_env:
                    _forget(self.host.module_env, name)
            return
        if kind is ast.ClassDef:
            self._class_session[stmt.name] = replace(self.host.session)
            outer, self._class = self._class, stmt.name
            try:
                for item in stmt.body:
                    self._stmt(item, scope)
                    if self._left is not None:
                        break
            finally:
                self._class = outer
                self._left = None
            # `Config.CATALOG` reads a class constant, unless the file's code sets it
            # again (`Config.CATALOG = ...`, `setattr(Config, ...)`): then it is not
            # what the body says, here or in a module that imports the class
            names = [t.id for a in stmt.body if isinstance(a, ast.Assign) for t in a.targets if isinstance(t, ast.Name)]
            held = [(n, scope.env.get(n)) for n in names]
            rebound = self._class_rebound().get(stmt.name, frozenset())
            scope.env[stmt.name] = (
                {n: v for n, v in held if isinstance(v, Str) and not v.unknown and n not in rebound}
                if rebound is not None
                else {}
            )
            return
        if kind is ast.Import or kind is ast.ImportFrom:
            self._import(stmt, scope)
            return
        headed = False  # the loop's iterable read for its writes (a lambda or call written there)
        if kind is ast.For and not stmt.orelse:
            names = loop_names(stmt.target)
            rows = self.values._rows(stmt.iter, scope, len(names)) if names else None
            if rows is None and len(names) == 1 and _written_list(stmt.iter):
                # `for q in [ddl, insert]:` with a part of an element only a run knows:
                # still one turn per element, each with what it holds
                rows = [(self.values._value(e, scope, names[0]),) for e in stmt.iter.elts]  # type: ignore[attr-defined]
            if rows is not None:  # `for t in ["a", "b"]:` runs its body once per element
                if type(stmt.iter) in (ast.List, ast.Tuple):  # statements written in the loop's header stand there
                    for row in rows:
                        for one in (a for v in row if isinstance(v, Str) for a in alternatives(v)):
                            self._built_at.setdefault(id(one), (one, stmt.iter))
                ordered = not isinstance(stmt.iter, (ast.Set, ast.SetComp))  # a set's order is Python's own
                # what the header's items make runs once, before the turns (`[lambda: w(a), ...]`)
                self.host._calls(stmt.iter, scope)
                headed = True
                if self._read_rows(stmt, [dict(zip(names, row)) for row in rows], scope, ordered):
                    return
            else:
                self.host._calls(stmt.iter, scope)
                headed = True
                if self._read_collection(stmt, scope):
                    return
                self._past_items(stmt)
        if kind is ast.For or kind is ast.AsyncFor:
            for target in walk(stmt.target):  # names a loop binds: items of a collection not known
                if isinstance(target, ast.Name):
                    _untold(scope.env, target.id)
        if kind in _BRANCHING:
            for expr in _header_exprs(stmt):
                if not headed:
                    self.host._calls(expr, scope)
            self._branching(stmt, scope)
            return
        if kind is ast.With or kind is ast.AsyncWith:
            for item in stmt.items:  # `with open("conf/dev.yml") as f:`: `yaml.safe_load(f)` reads it
                opened = None
                if kind is ast.With and isinstance(item.optional_vars, ast.Name):
                    opened = self.values._opened(item.context_expr, scope)
                if opened is not None:
                    scope.env[item.optional_vars.id] = opened  # type: ignore[union-attr]
                    continue
                for target in walk(item.optional_vars) if item.optional_vars is not None else ():
                    if type(target) is ast.Name:  # what `__enter__` returns: not known
                        _untold(scope.env, target.id, UNTOLD)
        if kind is ast.With or kind is ast.AsyncWith:
            for expr in _header_exprs(stmt):
                self.host._calls(expr, scope)
            self.block(stmt.body, scope)
            if self._left == "raise":  # a context manager may suppress what is raised
                self._left = None
            return
        if kind is ast.Match:
            self.host._calls(stmt.subject, scope)
            for case in stmt.cases:  # what a pattern captures (on a failed match too) is not known
                for name in _bound_here(ast.Expr(case.pattern)):  # type: ignore[arg-type]
                    _forget(scope.env, name)
            self._paths(scope, [case.body for case in stmt.cases], may_skip=True)
            return
        if (kind is ast.Assign or kind is ast.AnnAssign) and stmt.value is not None:
            loop = self._loop_of(stmt.value, scope)
            if loop is not None:  # `done = [w(t) for t in TABLES]`: the loop it runs writes
                self._comprehension(loop, scope)
            else:
                self.host._calls(stmt.value, scope)
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                self._bind(target, stmt.value, scope)
            module = self.imported_module(stmt.value, scope) if len(targets) == 1 else None
            if module is not None and isinstance(targets[0], ast.Name):  # `mod = import_module(...)`
                scope.env[targets[0].id] = module
            return
        if kind is ast.AugAssign and type(stmt.target) is ast.Name:
            self.host._calls(stmt.value, scope)
            if isinstance(stmt.op, ast.Add):
                left = scope.env.get(stmt.target.id)
                if isinstance(left, Str):
                    added = plus(left, self.values.string(stmt.value, scope))
                    if added is not None:
                        scope.env[stmt.target.id] = added
                        return
            _forget(scope.env, stmt.target.id)  # `n -= 1`, `t += x` on what is not held: not known
            return
        if kind is ast.Expr and (loop := self._loop_of(stmt.value, scope)) is not None:
            self._comprehension(loop, scope)  # `[spark.sql(s) for s in STATEMENTS]`: a loop
            return
        if kind is ast.Expr and type(stmt.value) is ast.Call:
            self.host._calls(stmt.value, scope)  # the arguments are read before the change
            self._change_dict(stmt.value, scope)
            self._change_list(stmt.value, scope)
            return
        if kind is ast.Delete:
            for target in stmt.targets:
                self.host._calls(target, scope)
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and isinstance(scope.env.get(target.value.id), dict)
                ):  # `del conf["k"]`
                    self._set_dict(target.value.id, scope, self._removed(target.value.id, target.slice, scope))
                elif isinstance(target, (ast.Subscript, ast.Attribute)):  # `del u[0]`, `del cfg["a"]["b"]`
                    self._stored_into(target, scope)
            return
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr):
                self.host._calls(child, scope)
        if kind is ast.AugAssign:  # `u[0] += "_x"`, `cfg["t"] += "_v2"`
            self._stored_into(stmt.target, scope)

    def _change_dict(self, call: ast.Call, scope: Scope) -> None:
        """`d.update(...)`, `d.setdefault(k, v)`, `d.pop(k)`, `d.clear()` on a dict
        a name holds: the dict Python holds after the call, or no dict known when
        the call's change cannot be followed (an update from a value only a run
        knows, a key not known). The old value never survives a change it may not
        have: reading it would give a table the code no longer writes."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in DICT_CHANGES):
            return
        name = func.value.id
        held = scope.env.get(name)
        if not isinstance(held, dict):
            return
        if type(held) is not dict or any(isinstance(a, ast.Starred) for a in call.args):
            self._set_dict(name, scope, None)  # a document holds only some of its keys
            return
        if func.attr == "clear":
            self._set_dict(name, scope, {} if not call.args and not call.keywords else None)
        elif func.attr == "pop" and len(call.args) in (1, 2) and not call.keywords:
            self._set_dict(name, scope, self._removed(name, call.args[0], scope))
        elif func.attr == "setdefault" and len(call.args) in (1, 2) and not call.keywords:
            key = self.values._key(call.args[0], scope)
            if key is None:
                self._set_dict(name, scope, None)
            elif key not in held:  # `d.setdefault(k)` adds None, which no table name is
                value = self.values._member(call.args[1], scope) if len(call.args) == 2 else None
                self._set_dict(name, scope, {**held, key: UNHELD if value is None else value})
        elif func.attr == "update" and len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.Name):
            # `json_.update(sp_auth)` of a dict another name holds (one of several dicts
            # where paths joined): each key as every path leaves it, else not held
            self._set_dict(name, scope, _updated_by(held, scope.env.get(call.args[0].id)))
        elif func.attr == "update" and len(call.args) <= 1:
            given = call.args[0] if call.args else ast.Dict(keys=[], values=[])
            if (
                not isinstance(given, ast.Dict)
                or not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in given.keys)
                or any(k.arg is None for k in call.keywords)
            ):  # from a value only a run knows, or `**` of one: any key may change
                self._set_dict(name, scope, None)
                return
            pairs = [(str(k.value), self.values._member(v, scope)) for k, v in zip(given.keys, given.values)]  # type: ignore[union-attr]
            pairs += [(str(k.arg), self.values._member(k.value, scope)) for k in call.keywords]
            updated = dict(held)
            for key, value in pairs:  # a later pair of the same key wins, as in Python
                updated[key] = UNHELD if value is None else value
            self._set_dict(name, scope, updated)
        else:  # `popitem()`, or a form not read above
            self._set_dict(name, scope, None)

    def _change_list(self, call: ast.Call, scope: Scope) -> None:
        """`t.append(x)`, `t.extend([...])` on a list of texts a name holds (or a dict
        holds under known keys: `CFG["tables"].append(x)`): the list
        Python holds after the call, in every name and dict holding it (`t =
        CFG["tables"]`: `CFG["tables"]` too; `values.changes` leaves such a list
        known only where every change through another name is one of these, at the
        top level); any other change of it, or a value not known, leaves it not
        known."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in MUTATORS):
            return
        part = func.value
        root = keyed_root(part)
        if root is None:
            return
        held = scope.env.get(root.id) if part is root else self.values._held(part, scope)
        if part is not root and held is not None and not is_texts(held):
            self._set_dict(root.id, scope, None)  # a list of configurations, a dict: not followed
            return
        if not is_texts(held):
            return
        new: list | None = None  # type: ignore[type-arg]
        if func.attr in FOLLOWED and len(call.args) == 1 and not call.keywords:
            arg = call.args[0]
            added = [self.values.string(arg, scope)] if func.attr == "append" else self.values._items(arg, scope)
            if added is not None and not any(a.unknown for a in added) and len(held) + len(added) <= LOOP_ELEMENTS:  # type: ignore[arg-type]
                new = [*held, *added]  # type: ignore[misc]
        self._replace(held, scope, new)
        if part is not root and self.values._held(part, scope) is held:
            # held where the change cannot reach (a loaded document, an object): the
            # whole value is no longer known
            self._set_dict(root.id, scope, None)

    def _removed(self, name: str, key_node: ast.expr, scope: Scope) -> dict | None:  # type: ignore[type-arg]
        """The dict `name` holds without the key `key_node` names (`d.pop(k)`,
        `del d[k]`); None when the key or the dict is not known."""
        held = scope.env.get(name)
        key = self.values._key(key_node, scope)
        if type(held) is not dict or key is None:
            return None
        return {k: v for k, v in held.items() if k != key}

    def _set_dict(self, name: str, scope: Scope, new: dict | list | None) -> None:  # type: ignore[type-arg]
        """The dict (or list) `name` holds is now `new` (None: not known), in that
        name and in every name, object and dict holding the same one (`same = conf`,
        `t = conf["tables"]`)."""
        self._replace(scope.env.get(name), scope, new)

    def _replace(self, old: object, scope: Scope, new: dict | list | None) -> None:  # type: ignore[type-arg]
        """`old` (a dict or a list, the same one) is now `new` (None: not known) in
        every name, object and dict of the scope holding it."""
        if old is None or new is old:
            return
        made: dict[int, object] = {}  # (the old dicts are held by `scope.env` meanwhile: their ids stay theirs)
        for other, held in list(scope.env.items()):
            if held is old:
                if new is None:
                    _forget(scope.env, other)
                else:
                    scope.env[other] = new
                continue
            swapped = _swap(held, old, new, made)
            if swapped is not held:
                scope.env[other] = swapped

    def _read_rows(self, stmt: ast.For, rows: list[Row], scope: Scope, ordered: bool = True) -> bool:
        """Read a loop's body once per row of what its target binds (None: a name not
        known on that turn). False when the file's budget ran out on the way: the
        caller reads the rest as a loop of unknown turns. Over a set (`ordered`
        False) the names hold after the loop one of the items, never the last read."""
        breaks: list[dict[str, object]] = []
        for row in rows:
            if not self._loop_turn(stmt):
                return False  # past the file's budget: the rest read once, the names unknown
            for name, held in row.items():
                if held is None:  # an item not known on this turn
                    _untold(scope.env, name)
                else:
                    scope.env[name] = held
            left, goes_on, gone = self._turn(stmt.body, scope)
            breaks += left
            if not goes_on:  # every way leaves this turn: no later element is reached
                if breaks:
                    _replace_env(scope, join_envs(breaks))
                else:  # nor the code after the loop (`return`, `raise`)
                    self._left = gone
                return True
        if not ordered and rows:
            bound = join_envs([{n: v for n, v in row.items() if v is not None} for row in rows])
            for name in rows[0]:
                if name in bound:
                    scope.env[name] = bound[name]
                else:
                    _untold(scope.env, name)
        if breaks:  # the loop may stop at any element that breaks
            _replace_env(scope, join_envs([dict(scope.env), *breaks]))
        return True

    def _stated(self, node: ast.expr, scope: Scope, partial: bool = False) -> Collection | None:
        """The collection `node` states, as held (see `lattice.Collection`); with
        `partial`, one whose items may hold values not known (see
        `Evaluator.collection`), which only a loop over it reads."""
        evaluator, node, env = self._collection_reader(node, scope)
        if evaluator is None:
            return None
        found = evaluator.collection(node, env, partial)
        self.values._budget_spent(node)
        self.host.documents_wanted |= evaluator.opened
        return collection_of(found)

    def _of_an_untold_item(self, value: ast.expr, held: object, scope: Scope) -> bool:
        """Whether `value` reads a part of an item of a collection not known
        (`row.table_name`, `row["t"]`, `row.name.lower()` of `for row in rows:`) that
        the front end holds as no text of that item: what it gives is such an item
        too, never a name of its own (`{t}`) a run would give."""
        root = value
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            root = root.func if isinstance(root, ast.Call) else root.value
        if root is value or not isinstance(root, ast.Name):
            return False
        item = scope.env.get(root.id)
        if not (type(item) is Str and item.params and all(untold(p) for p in item.params)):  # type: ignore[union-attr]
            return False
        return not (type(held) is Str and held.params and all(untold(p) for p in held.params))  # type: ignore[union-attr]

    def _project_call(self, node: ast.expr) -> bool:
        """Whether `node` calls a function of the project (`build(spark)`,
        `helpers.build(spark)`), whose result the evaluator may tell as a collection."""
        if not isinstance(node, ast.Call):
            return False
        name = node.func.id if isinstance(node.func, ast.Name) else _module_function(node)
        return name is not None and (name in self.host.functions or name in self.host.value_functions)

    def _collection_items(self, node: ast.expr, scope: Scope) -> list[tuple[list[object], bool]] | None:
        """The items of a collection the code states (see `iteration`), for each
        collection it may be; None when they are not known item by item."""
        evaluator, node, env = self._collection_reader(node, scope)
        if evaluator is None:
            return None
        found = evaluator.items(node, env)
        self.values._budget_spent(node)
        self.host.documents_wanted |= evaluator.opened  # `for s in Path(p).read_text().split(";")`
        if isinstance(found, Unknown):
            self._items_unknown = found.reason
            return None
        return found

    def _past_items(self, stmt: ast.For) -> None:
        """A loop over a collection the code states with more than MAX_LOOP items is
        read as a loop of turns not known, so a table its body writes is unknown: when
        the loop's lines name a write (`pyprefilter`), a DL008 at the loop says it is
        this limit, not a value only a run gives (the write's own DL001 says the table
        is unknown). The collection: a literal, `range` of literal bounds, a name
        every assignment of the file binds to such a literal (past the limit the front
        end holds no list of it), or one the evaluator gave up on."""
        reason, self._items_unknown = self._items_unknown, None
        count = _stated_count(stmt.iter)
        if count is None and isinstance(stmt.iter, ast.Name):
            counts = [_stated_count(value) for value in self._bindings().get(stmt.iter.id, [])]
            count = min(counts) if counts and None not in counts else None  # type: ignore[type-var]
        past = count > MAX_LOOP if count is not None else f"more than {MAX_LOOP} items" in (reason or "")
        if past and self.host._may_hold_terminal(stmt):
            told = f"{count:,}" if count is not None else f"more than {MAX_LOOP}"
            self._not_followed(
                stmt,
                f"a loop over {told} items, more than the {MAX_LOOP} read one by one: its writes are not read turn by turn",
                once=False,
            )

    def _bindings(self) -> dict[str, list[ast.expr]]:
        """The values each name of the file is assigned (`NAME = value`), once per file."""
        if self._bound is None:
            self._bound = {}
            for node in ast.walk(self.host._tree) if self.host._tree is not None else ():
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            self._bound.setdefault(target.id, []).append(node.value)
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and isinstance(
                    node.target, ast.Name
                ):
                    self._bound.setdefault(node.target.id, []).append(
                        node.value if isinstance(node, ast.AnnAssign) and node.value is not None else ast.Constant(None)
                    )
        return self._bound

    def single_binding(self, name: str, line: int) -> ast.expr | None:
        """The one expression the file binds `name` to (`SCHEMA = StructType([...])`),
        read at `line` of the file's own code, where no other statement of the file
        or of the helpers pasted into it binds it (no second assignment, no
        parameter, loop, `with`, `except`, import or `global` of that name) and none
        changes it in place (`SCHEMA.add(...)`, `SCHEMA.x = ...`, `SCHEMA[k] = ...`):
        what the name holds wherever it is read. None otherwise, and at a line of an
        imported module's pasted definition (its names are that module's)."""
        if self.home(line) is not None:
            return None
        values = self._bindings().get(name)
        if values is None or len(values) != 1 or name in self._other_binders():
            return None
        return values[0] if values[0].lineno <= self.host._own_lines else None

    def _other_binders(self) -> frozenset[str]:
        """The names the file binds other than by `NAME = value`, or changes in place
        through an attribute or item (see `single_binding`), once per file."""
        if self._binders is None:
            names: set[str] = set()
            for node in ast.walk(self.host._tree) if self.host._tree is not None else ():
                if isinstance(node, ast.arg):
                    names.add(node.arg)
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    names.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
                elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                    names.update(n.id for n in ast.walk(node.optional_vars) if isinstance(n, ast.Name))
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    names.add(node.name)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    names.update((a.asname or a.name).split(".")[0] for a in node.names)
                elif isinstance(node, (ast.Global, ast.Nonlocal)):
                    names.update(node.names)
                elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                    for target in node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]:
                        if isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
                            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
                        elif isinstance(target, (ast.Attribute, ast.Subscript)) and isinstance(target.value, ast.Name):
                            names.add(target.value.id)
                        elif isinstance(node, ast.Delete) and isinstance(target, ast.Name):
                            names.add(target.id)
                elif (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.attr in _SCHEMA_CHANGES
                ):
                    names.add(node.func.value.id)
            self._binders = frozenset(names)
        return self._binders

    def _loop_of(self, value: ast.expr, scope: Scope) -> ast.For | None:
        """The loop a statement's comprehension or `map` runs (see `iteration.as_loop`),
        when its items may write: the host's prefilter of calls of interest (and of the
        project's helpers) says so, as it does before reading any expression."""
        if not may_loop(value):
            return None
        if not self.host._may_hold_terminal(value) and not (
            self.host._helpers and self.host._registry_of().may_call(value)
        ):
            return None  # `[F.col(c) for c in cols]`: no write, read as a value only
        return as_loop(value, self._shadowed(scope))

    def _shadowed(self, scope: Scope) -> frozenset[str]:
        """The builtins of collections (`map`, `list`, `sorted`) the code binds itself."""
        return frozenset(n for n in (*brains.CONSUMERS, *brains.MAPPERS) if n in scope.env or n in self.host.functions)

    def _collection_reader(self, node: ast.expr, scope: Scope) -> tuple[Evaluator | None, ast.expr, dict[str, object]]:
        """The evaluator that reads a collection `node` states, the expression it reads
        (an attribute of a held object or module, `self.tables`, `conf.TABLES`, given
        as what it holds, see `_attributes_held`), and its names' values (a name the
        code changes in place, or a builtin's name the project defines, is not
        known); no evaluator when nothing in `node` may state one."""
        env: dict[str, object] = {}
        names = iterable_names(node)
        if any(type(scope.env.get(n)) in (dict, Instance) for n in names):  # `conf.TABLES`, `self.tables`
            node = self._attributes_held(node, scope, env)
            names = iterable_names(node)
        if any(self._foreign_call(n) for n in walk(node)):  # `for n, df in helpers.build(spark).items()`
            node = self._returns_held(node, scope, env)
            names = iterable_names(node)
        # a value function of this file runs (`for s in load_statements(p)`), or a file of
        # the project is read (`for s in Path(__file__).with_name(q).read_text().split(";")`)
        called = _reads_text(node)
        for name in names - set(env):
            held = scope.env.get(name)
            if name in self.host.mutated_names:
                env[name] = Unknown("changed in place")
            elif name in self.host.functions and name not in scope.env:
                if (function := self.values._value_function(name)) is not None and function[1] == name:
                    called = True
                    continue
                env[name] = Unknown("a function of the project")  # a builtin's name shadowed
            elif held is not None:
                env[name] = _plain(held)
        if called:  # the file's own code, whose value functions the evaluator calls
            return self.values.evaluator(self.values._own()), node, env
        if not any(type(v) is not Unknown for v in env.values()) and (not may_state(node) or free_names(node)):
            return None, node, env  # nothing the code states: no evaluation
        if self._empty is None:  # names not in `env` are not known (never the module's, unread here)
            self._empty = Module.of(ast.Module(body=[], type_ignores=[]), self.host.own_path)
        return self.values.evaluator(self._empty), node, env

    def _foreign_call(self, node: ast.AST) -> bool:
        """Whether `node` calls a function another module of the project gives (which
        the evaluator of this file's own code cannot run)."""
        if not isinstance(node, ast.Call) or not self._project_call(node):
            return False
        name = node.func.id if isinstance(node.func, ast.Name) else _module_function(node)
        return name in self.host.value_functions and self.host.value_functions[name][0] is not self.values._own()  # type: ignore[index]

    def _returns_held(self, node: ast.expr, scope: Scope, env: dict[str, object]) -> ast.expr:
        """`node` with each call of another module's function read as what the front
        end holds it returns (a dict of names to DataFrames: its keys), as a name of
        its own in `env`, as `_attributes_held` does for attributes."""
        walker = self

        class Returned(ast.NodeTransformer):
            def visit_Call(self, call: ast.Call) -> ast.expr:
                if not walker._foreign_call(call):
                    return self.generic_visit(call)  # type: ignore[return-value]
                plain = _plain(walker.values._value(call, scope))
                if type(plain) not in (dict, list, tuple):
                    return call
                name = f"\u0000returned{len(env)}"
                env[name] = plain
                return ast.copy_location(ast.Name(name, ast.Load()), call)

        return Returned().visit(copy.deepcopy(node))  # type: ignore[no-any-return]

    def _attributes_held(self, node: ast.expr, scope: Scope, env: dict[str, object]) -> ast.expr:
        """`node` with each attribute of a name the front end holds an object or module
        of (`self.tables` set in `__init__`, `conf.TABLES` of `import conf`) read as
        what it holds: a name of its own in `env` (a name no code can spell). The
        evaluator reads no attribute of such objects itself."""
        walker = self

        class Held(ast.NodeTransformer):
            def visit_Attribute(self, attribute: ast.Attribute) -> ast.expr:
                root: ast.expr = attribute
                while isinstance(root, ast.Attribute):
                    root = root.value
                if (
                    not isinstance(root, ast.Name)
                    or root.id in walker.host.mutated_names
                    or type(scope.env.get(root.id)) not in (dict, Instance)
                ):
                    return attribute
                held = walker.values._held(attribute, scope)
                owner = scope.env.get(root.id) if attribute.value is root else None
                if held is None and type(owner) is dict:  # `conf.TABLES` of a module imported whole
                    held = member(owner, attribute.attr)
                plain = _plain(held) if held is not None else Unknown("not held")
                if type(plain) is Unknown:
                    return self.generic_visit(attribute)  # type: ignore[return-value]
                name = f"\u0000held{len(env)}"
                env[name] = plain
                return ast.copy_location(ast.Name(name, ast.Load()), attribute)

        return Held().visit(copy.deepcopy(node))  # type: ignore[no-any-return]

    def _read_collection(self, stmt: ast.For, scope: Scope) -> bool:
        """`for schema, table in TABLES:` over a collection the code states (a list of
        tuples, `enumerate`, `zip`, `sorted`, a set, a dict's items): the body once per
        item, each turn's names bound by unpacking it. A collection that is one of a
        few is read once per collection from the same start, and the names after the
        loop joined. False (nothing read) when the items are not known one by one, a
        target is not followed, or every collection is empty."""
        collections = self._collection_items(stmt.iter, scope)
        if not collections:
            return False
        readings = [(rows(stmt.target, items), ordered) for items, ordered in collections]
        if any(r is None for r, _ in readings) or not any(r for r, _ in readings):
            return False
        start = dict(scope.env)
        outcomes: list[dict[str, object]] = []
        for found, ordered in readings:
            _replace_env(scope, start)
            if not self._read_rows(stmt, found or [], scope, ordered):  # type: ignore[arg-type]
                _replace_env(scope, start)
                return False
            outcomes.append(dict(scope.env))
        if len(outcomes) > 1:
            _replace_env(scope, join_envs(outcomes))
        return True

    def _comprehension(self, loop: ast.For, scope: Scope) -> None:
        """A comprehension or `map` whose items write, read as the loop it runs (see
        `iteration.as_loop`); its names do not outlive it, as in Python."""
        names = [n for f in ast.walk(loop) if isinstance(f, ast.For) for n in target_names(f.target)]
        before = {n: scope.env[n] for n in names if n in scope.env}
        self._stmt(loop, scope)
        for name in names:
            if name in before:
                scope.env[name] = before[name]
            else:
                scope.env.pop(name, None)

    def _loop_turn(self, stmt: ast.For) -> bool:
        """One turn of a loop read element by element costs the file's budget a step,
        and its body's statements theirs as they are read (nested loops over literal
        lists multiply); False once it is spent, with the diagnostic at the loop
        when the turn is what spent it."""
        try:
            self.host.budget.step()
        except OutOfBudget as err:
            if str(err):  # the turn that spent it (a budget spent before was said where it was)
                self.host.budget.note(self.host.own_path, stmt.lineno, str(err), lasting=True)
            self.values._budget_spent(stmt)
            return False
        return True

    def _branching(self, stmt: ast.stmt, scope: Scope) -> None:
        """Read every branch of an `if`, loop or `try` (each may write), and leave the
        names each path may bind joined: `if c: t = "a" else: t = "b"` gives `t` one of
        both, never the last branch read."""
        if isinstance(stmt, ast.If):
            # an `elif` chain as one statement of many branches (no recursion per `elif`);
            # every branch is read, and where the conditions are known only the taken one binds
            bodies: list[list[ast.stmt]] = []
            tests: list[ast.expr] = []
            taken: int | None = -1
            dead: list[int] = []  # bodies whose test is known false before any not known
            link: ast.If = stmt
            while True:
                if link is not stmt:
                    self.host._calls(link.test, scope)
                tests.append(link.test)
                if taken == -1:
                    truth = self.values._truth(link.test, scope)
                    taken = None if truth is None else len(bodies) if truth else -1
                    if truth is False:
                        dead.append(len(bodies))
                bodies.append(link.body)
                if len(link.orelse) == 1 and isinstance(link.orelse[0], ast.If):
                    link = link.orelse[0]
                    continue
                bodies.append(link.orelse)
                break
            absent = self.host.guards.if_bodies(tests, scope)  # a body that runs only while a table is absent
            taken = len(bodies) - 1 if taken == -1 else taken
            # each body sees its names as its way has them: the tests before it false, its own
            # true (only where a test reads a name of several values: the rest narrow nothing)
            ways = (
                [
                    [(t, False) for t in tests[:n]] + ([(tests[n], True)] if n < len(tests) else [])
                    for n in range(len(bodies))
                ]
                if taken is None and may_narrow(tests, scope.env, _alternatives_held)
                else None
            )
            left = self._paths(scope, bodies, taken=taken, absent=absent, dead=dead, ways=ways)
            if taken is not None:  # the path known: it leaves where its body does
                self._left = left[taken]
            elif None not in left:  # every branch Python may take leaves
                self._left = next((kind for n, kind in enumerate(left) if n not in dead), None)
        elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            # the body may run no time, once or more: before and after it are both possible;
            # the `else` runs when no `break` left the loop, and what a `break` leaves
            # joins the code after it
            start = dict(scope.env)
            self._loop_entry(stmt, scope)
            breaks, goes_on, _ = self._turn(stmt.body, scope)
            turned = dict(scope.env)
            _replace_env(scope, join_envs([start, turned] if goes_on else [start]))
            # a name each turn builds from its own last value (`n += 1`, `s = s + "x"`)
            # holds after a second turn what one turn cannot tell: not known here, unless
            # each turn appends text only a run knows (`sql = sql + f"{k}={v},"`), whose
            # unknown tail stands for what later turns append too
            for name in _carried(stmt.body):
                if turned.get(name) is not start.get(name) and not _open_tail(start.get(name), turned.get(name)):
                    _forget(scope.env, name)
            self.block(stmt.orelse, scope)
            left, self._left = self._left, None
            if breaks:
                _replace_env(scope, join_envs(([] if left else [dict(scope.env)]) + breaks))
            elif left:  # no `break`: every way out of the loop runs the `else`, which leaves
                self._left = left
        else:
            self._try(stmt, scope)  # type: ignore[arg-type]

    def _try(self, stmt: ast.Try, scope: Scope) -> None:
        """A `try`: a handler starts from the names as any statement of the body may
        leave them (the join of the states before it and after each of its
        statements, nested ones too), the `else` from the body's end; the
        `finally` runs on every way, and the statement leaves when each way does."""
        before = dict(scope.env)
        absent = self.host.guards.handlers(stmt, scope)  # a lookup that fails on a missing table
        seen: dict[str, list[object]] = {}
        known = self._try_names.get(id(stmt))
        if known is None or known[0] is not stmt:  # every name the body spells: what it may change
            spelled = {n.id for s in stmt.body for n in walk(s) if type(n) is ast.Name}
            known = self._try_names[id(stmt)] = (stmt, frozenset(spelled))
        self._trying.append((scope, before, seen, known[1]))
        try:
            self.block(stmt.body, scope)
        finally:
            self._trying.pop()
        left, self._left = self._left, None
        if left is None:
            self.block(stmt.orelse, scope)
            left, self._left = self._left, None
        after = dict(scope.env)
        start: dict[str, object] = {}
        for name, values in seen.items():  # a name unbound on a way keeps the others' values (Python raises there)
            start.update(join_envs([{name: v} for v in ([before[name]] if name in before else []) + values]))
        for name, value in before.items():
            if name not in seen:
                start[name] = value
        _replace_env(scope, start)
        for handler in stmt.handlers:  # `except Exception as e:`: what is raised is not known
            if handler.name:
                _untold(scope.env, handler.name, UNTOLD)
        handlers = [h.body for h in stmt.handlers]
        lefts = self._paths(scope, handlers, given=[] if left else [after], absent=absent)
        gone = left is not None and None not in lefts
        self.block(stmt.finalbody, scope)
        if self._left is None and gone:
            self._left = left

    def _loop_entry(self, stmt: ast.For | ast.AsyncFor | ast.While, scope: Scope) -> None:
        """The names a loop of unknown turns starts a turn with: a turn may follow
        others, so a name its body binds holds what it held before the loop or what
        the body binds it to (read in the body, or left by a `break` before the body
        binds it again). A name only bound to what the names before the
        loop give (`t = "main.s.b"`, `t = f"{prefix}_b"`) is one of those; one built
        from its own value that each turn extends (`sql = sql + part`, `n += 1`) is
        left as it was (the loop's end tells what it holds after); any other (bound by
        unpacking, from a name the body binds, in a `with` or `except`) is not known."""
        for name, values in self._entry_bindings(stmt).items():
            if values is None:
                _forget(scope.env, name)
                continue
            held = [scope.env[name]] if name in scope.env else []
            for value in values:
                one = self.values._value(value, scope, name)
                if one is None:
                    held = []
                    break
                held.append(one)
            joined = join_envs([{name: h} for h in held]) if held else {}
            if name in joined:
                scope.env[name] = joined[name]
            else:
                _forget(scope.env, name)

    def _entry_bindings(self, stmt: ast.For | ast.AsyncFor | ast.While) -> dict[str, list[ast.expr] | None]:
        """For `_loop_entry`, once per loop: each name the body binds (not the loop's
        target, not one each turn extends: see `_carried`), with the expressions
        `name = <expr>` statements bind it to when these are its only bindings and
        read no name the body binds; None for any other."""
        known = self._entries.get(id(stmt))
        if known is not None and known[0] is stmt:
            return known[1]
        body_names = set().union(*(_bound_here(s) for s in stmt.body)) if stmt.body else set()
        targets = set(target_names(stmt.target)) if isinstance(stmt, (ast.For, ast.AsyncFor)) else set()
        names = body_names - targets - _carried(stmt.body)
        values: dict[str, list[ast.expr]] = {}
        stores: dict[str, int] = {}
        other: set[str] = set()  # bound by a function, class or import of that name
        read: set[str] = set()
        leaves = False  # a `break` or `continue`: its state may hold a name the body binds later
        for node in (n for s in stmt.body for n in walk(s)):
            if type(node) is ast.Name and type(node.ctx) is ast.Load:
                read.add(node.id)
            elif type(node) in (ast.Break, ast.Continue):
                leaves = True
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                other.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom, ast.NamedExpr, ast.ExceptHandler)):
                other.update(_bound_here(ast.Expr(node)) if isinstance(node, ast.NamedExpr) else _bound_here(node))  # type: ignore[arg-type]
            elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                stores[node.id] = stores.get(node.id, 0) + 1
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                values.setdefault(node.targets[0].id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                values.setdefault(node.target.id, []).append(node.value)
        result: dict[str, list[ast.expr] | None] = {}
        for name in sorted(names if leaves else names & read):  # what no reading sees needs no entry
            found = values.get(name, [])
            simple = name not in other and stores.get(name, 0) == len(found)
            result[name] = found if simple and not any(free_names(v) & body_names for v in found) else None
        self._entries[id(stmt)] = (stmt, result)
        return result

    def _turn(self, body: list[ast.stmt], scope: Scope) -> tuple[list[dict[str, object]], bool, str | None]:
        """Read one turn of a loop's body: the environments its `break`s leave the loop
        with, whether a way goes on to the next turn (the body's end, a `continue`),
        `scope` left as those ways join, and how the turn leaves the loop's code
        when it certainly does (`return`, `raise`; None otherwise)."""
        self._exits.append(([], []))
        try:
            with self.host.guards.inside(NONE):  # a turn may follow one that created the table
                self.block(body, scope)
        finally:
            breaks, continues = self._exits.pop()
        left, self._left = self._left, None
        falls = left is None
        if continues:  # (no copy of the names otherwise: a literal loop reads many turns)
            _replace_env(scope, join_envs(([dict(scope.env)] if falls else []) + continues))
        return breaks, falls or bool(continues), left if left in ("return", "raise") and not continues else None

    def _paths(
        self,
        scope: Scope,
        bodies: list[list[ast.stmt]],
        may_skip: bool = False,
        given: list | None = None,
        taken: int | None = None,
        absent: list[Absent] | None = None,
        dead: list[int] | None = None,
        ways: list[list[tuple[ast.expr, bool]]] | None = None,
    ) -> list[str | None]:
        """Read each body from the same start and join what the paths leave (only
        the `taken` body, when the condition is known: Python runs no other, so
        none writes); each body with the tables known absent before it and
        `absent`'s for it (see `pyguards`), and its names narrowed by the tests of
        its way (`ways`, see `narrowing`: below `if t is None: raise`, `t` is not
        None); a `dead` body (its test known false) is not read. How each body
        leaves (None: it may end normally; a body not run leaves, as no way
        through it reaches the code after)."""
        start = dict(scope.env)
        outcomes = list(given or []) + ([start] if may_skip else [])
        # the SQL session each path leaves (a `USE` in one branch): joined as the names
        # are, never the last branch's (`joined_session`: one of several, or as before)
        session = self.host.session.__dict__
        first = dict(session)
        sessions = [first] if may_skip or given else []
        known = self.host.guards.absent
        lefts: list[str | None] = []
        for n, body in enumerate(bodies):
            if taken not in (None, n) or (dead and n in dead):
                lefts.append("not run")
                if body and not scope.calls:
                    self._not_run(body, "its branch of the `if` is known not to be taken")
                continue
            _replace_env(scope, start)
            if ways and ways[n]:
                self._narrow(scope, ways[n])
            session.update(first)
            with self.host.guards.inside(known | absent[n] if absent else known):
                self.block(body, scope)
            left, self._left = self._left, None
            lefts.append(left)
            if left is None:
                outcomes.append(dict(scope.env))
                sessions.append(dict(session))
        _replace_env(scope, join_envs(outcomes) if outcomes else start)
        session.update(joined_session(first, sessions) if sessions else first)
        return lefts

    def _narrow(self, scope: Scope, conditions: list[tuple[ast.expr, bool]]) -> None:
        """Narrow the names of `scope` to the way where each test has its truth
        (`narrowing.narrow`, with the resolver's truth of a test)."""
        narrow(scope.env, conditions, lambda test: self.values._truth(test, scope), _alternatives_held, _rejoined)

    def function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, **extra) -> None:
        before, before_diags = len(self.host.intents), len(self.host.diagnostics)
        # a definition runs nothing: a USE or SET in its body changes the session only
        # where the function is called (a foreachBatch body runs, so it keeps them)
        session = None if extra else dict(self.host.session.__dict__)
        self._read_function(fn, scope, **extra)
        if session is not None and self._class is not None and self.host.session.__dict__ != session:
            self._session_changers.add(self._class)
        if session is not None:
            session.pop("non_delta", None)  # tables it creates in another format stay known
            self.host.session.__dict__.update(session)
        if fn.name in self.host._helpers and not extra and scope.site is None:
            marks = self._from_definition.setdefault(fn.name, ([], []))
            marks[0].extend(range(before, len(self.host.intents)))
            marks[1].extend(range(before_diags, len(self.host.diagnostics)))

    def call_helper(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, scope: Scope, instance: object = None
    ) -> None:
        """Read a helper again for one call, its parameters bound to the call's values
        (defaults for the rest), its writes reported at the outermost call. A method
        of an `Instance` reads `self.x` as the instance holds it. A name it declares
        `global` holds after the call what the reading leaves it with (not known
        when the call is not read, or a way out of the body is not its end)."""
        local = self._call_helper(fn, call, scope, instance)
        known = self._globals_of.get(id(fn))
        if known is None or known[0] is not fn:
            known = self._globals_of[id(fn)] = (fn, *_own_globals(fn))
        _, declared, at_end = known
        for name in declared:
            for env in {id(scope.env): scope.env, id(self.host.module_env): self.host.module_env}.values():
                if local is not None and at_end and name in local.env:
                    env[name] = local.env[name]
                else:
                    _forget(env, name)

    def _call_helper(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, scope: Scope, instance: object = None
    ) -> Scope | None:
        """`call_helper`'s reading: the scope the body was read in, None when not read."""
        if frame(fn) in scope.calls:  # a recursion: its writes are read once, at its first call
            return None
        if self.host.budget.exhausted:  # said where the budget ran out: nothing is read again
            self._unread.add(fn.name)
            return None
        count = self._helper_calls.get(fn.name, 0)
        env = self.values._bound_call(fn, call, scope)
        silent = None  # a reading of these values found nothing before: not done again, not counted
        if instance is None and "self" not in env:
            silent = self._readings.key(fn, env, (scope.calls, scope.flags, scope.stream), self.callee)
            if self._readings.silent(silent):
                return None
        if len(scope.calls) >= MAX_HELPER_DEPTH:
            self._unread.add(fn.name)
            self._not_followed(
                call, f"`{fn.name}` is called {MAX_HELPER_DEPTH + 1} helpers deep: its writes are not read"
            )
            return None
        if count >= MAX_HELPER_CALLS:
            self._unread.add(fn.name)
            self._not_followed(
                call, f"`{fn.name}` is called more than {MAX_HELPER_CALLS} times: its later calls are not read"
            )
            return None
        if not self.values._may_read_helper(call):
            self._unread.add(fn.name)
            return None
        objects = (Instance, OneOf)  # an object, or one of several a name may hold (see `method`)
        if instance is None and is_self_call(call) and isinstance(scope.env.get("self"), objects):
            instance = scope.env["self"]  # `self.helper(...)` inside a method: the same object
        placed = isinstance(instance, Instance) and self.placed.get(instance.cls) == instance
        if placed and not call.args and not call.keywords:
            self.host.budget.give_back_read()
            return None  # read where it is written, with this same object
        if isinstance(instance, objects):
            # `self` of one of several objects: a write reads each (`pyalternatives`)
            env["self"] = instance
            if not placed:
                self._instance_calls.add(fn.name)
        self._helper_calls[fn.name] = count + 1
        site = scope.site or self.host.sites.loc(call)
        local = Scope(env=env, flags=scope.flags, stream=scope.stream, site=site, calls=(*scope.calls, frame(fn)))
        before = len(self.host.intents)
        said = len(self.host.diagnostics), len(self.host.budget.spent)
        outer, self.values.site = self.values.site, site
        try:
            self.block(fn.body, local)
        finally:
            self.values.site = outer
        if len(self.host.intents) == before and said == (len(self.host.diagnostics), len(self.host.budget.spent)):
            self._readings.remember(silent)
        self._left = None  # a `return` leaves the helper, not its caller
        # a write that reads none of the helper's parameters stays where it is written
        # (a method called on a known object reports its writes at that call: which
        # object, and where the job uses it, is what tells two writes apart); one that
        # names a parameter is the call's, even when the call gives a value only a run
        # knows and the write comes out as it does read on its own
        own = {_shape(self.host.intents[i]): i for i in self._from_definition.get(fn.name, ([], []))[0]}
        by_object = isinstance(instance, objects) and not placed
        parameters = _parameters(fn)
        in_place = (
            []
            if by_object
            else [x for x in self.host.intents[before:] if _shape(x) in own and parameters.isdisjoint(x.params)]
        )
        self.kept_in_place.update(own[_shape(x)] for x in in_place)
        self.host.intents[before:] = [x for x in self.host.intents[before:] if not any(x is y for y in in_place)]
        return local

    def _not_followed(self, call: ast.Call | ast.stmt, why: str, once: bool = True) -> None:
        """A helper call a cap leaves unread (its depth, or its count of calls), said
        at the outermost call of this file (once per place and reason): a write it
        makes is lost otherwise, with nothing at its line. Its writes as read where
        it is written (a parameter a placeholder: not resolved) are kept. Said once a
        cause, at its first call: the words say the later calls are not read. A loop
        past the items read one by one is said so at each such loop (`_past_items`)."""
        if once and any(spent.why == why for spent in self.host.budget.spent):
            return
        self.host.budget.note(self.host.own_path, call.lineno, why)
        self.values._budget_spent(call)

    def instance(self, call: ast.Call, scope: Scope) -> Instance | None:
        """`Cls(args)` of a class of this file: the attributes its `__init__` sets
        (`self.table = f"{catalog}.sales.orders"`) from the call's values."""
        if not (isinstance(call.func, ast.Name) and call.func.id in self.host.classes):
            return None
        cls = self.host.classes[call.func.id]
        if foreign_fields(cls, self._base_of):
            return None  # a base of another library may give fields first: which the call sets is not told
        init = self._init_of(cls)
        # `Env(**doc)`: a record's fields from a document, read by the configuration reading
        spread = any(k.arg is None for k in call.keywords) and record_kind(cls) is not None
        if (init is None or spread) and (_is_dataclass(cls) or _is_model(cls)):  # `Env(catalog="main", schema=s)`
            made = self._config_value(call, cls, scope, {})
            if isinstance(made, Instance):
                return self._settled(made, cls)
        if spread:  # a mapping not known: its fields are not the written `__init__`'s parameters
            init = self.method_named(cls, "__init__")
        held = self.class_attributes(cls)
        if init is not None:
            # `self` is of the object's class from the first statement: `self.conf =
            # self._provide_config()` reads the method an object of it runs
            owner = Instance(tuple(held.items()), cls=cls.name)
            attrs = self.values._evaluate(init, call, scope, owner)[0]
        else:
            attrs = held
        changed = self._changed_outside_init(cls)
        attrs = {} if changed is None else {k: v for k, v in attrs.items() if k not in changed}
        # an object of which nothing is known reads its methods as they are written
        # (each write where it stands), not once more at every call of a method; a
        # class of another file is not read here where it is written: its methods are
        # read at the calls, what the object holds as named placeholders
        static = any(self._tells(v) for v in attrs.values())
        if not static and cls.lineno <= self.host._own_lines:
            return None
        instance = Instance(tuple(attrs.items()), cls=cls.name)
        if (
            cls.lineno <= self.host._own_lines
            and self._entered_once(cls.name)
            # read where its methods stand, they would not see a USE or SET run between the
            # class and the object, nor leave theirs to the code after the call
            and cls.name not in self._session_changers
            and self._class_session.get(cls.name) == self.host.session
            and not scope.flags
        ):
            self.sole_instances[cls.name] = instance
        return instance

    def _tells(self, held: object) -> bool:
        """Whether an attribute of an object tells more than reading its methods where
        they are written would (`{self_t}`): a known text, a text with known parts
        (`{raw_catalog}.ops.c`), one named by job inputs only (`{raw_catalog}`, which
        pairs runs by their inputs), an object holding something, a dict (a loaded
        configuration document) with something of that kind in it."""
        if isinstance(held, Str):
            return not held.params or _partly_known(held) or all(p in self.host.input_params for p in held.params)
        if isinstance(held, dict):
            return any(self._tells(v) for v in held.values())
        return isinstance(held, Instance) and bool(held.items)

    def class_attributes(self, cls: ast.ClassDef) -> dict[str, object]:
        """The text attributes the class's body and its project bases' bodies assign
        (`table = "main.sales.orders"`): what `self.table` reads where no `__init__`
        sets it, a derived class's own before its base's, as Python looks them up.
        Empty when a base is not a class of the project or there are several (an
        outside base's `__init__` may set any attribute), and for a dataclass or a
        model, whose class-level names are its fields' defaults. A name the body
        binds to anything but a known text is not known, and hides its base's."""
        if _is_dataclass(cls) or _is_model(cls):
            return {}
        chain: list[ast.ClassDef] = []
        current: ast.ClassDef | None = cls
        while current is not None and len(chain) < MAX_HELPER_DEPTH:
            chain.append(current)
            bases = [b for b in current.bases if not (isinstance(b, ast.Name) and b.id == "object")]
            if not bases:
                break
            if len(bases) > 1 or not isinstance(bases[0], ast.Name):
                return {}
            current = self.class_named(bases[0].id, current.lineno)
            if current is None:
                return {}
        else:
            if current is not None:
                return {}  # deeper than followed
        rebound = self._class_rebound()
        if any(k.name in rebound and rebound[k.name] is None for k in chain):
            return {}
        module = Scope(env=self.host.module_env)
        attrs: dict[str, object] = {}
        for klass in reversed(chain):
            for stmt in klass.body:
                if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                    targets, value = [stmt.target], stmt.value
                elif isinstance(stmt, ast.Assign):
                    targets, value = stmt.targets, stmt.value
                else:
                    continue
                text = self.values.string(value, module)
                for target in targets:
                    if isinstance(target, ast.Name):
                        if text.unknown or text.params:
                            attrs.pop(target.id, None)
                        else:
                            attrs[target.id] = text
        for klass in chain:  # `Loader.table = ...` anywhere in the file: not what the body says
            for name in rebound.get(klass.name) or ():
                attrs.pop(name, None)
        return attrs

    def _class_rebound(self) -> dict[str, frozenset[str] | None]:
        """The attributes the file's code sets on a name outside its class body
        (`Loader.table = "..."`, `del Loader.table`; None for any, `setattr(Loader,
        ...)`), by that name: a class attribute so set is not what the class body
        says. Found once per file, over its own code and the definitions pasted after
        it."""
        if self._rebound is None:
            found: dict[str, set[str] | None] = {}
            tree = self.host._tree
            for node in walk(tree) if tree is not None else ():
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, (ast.Store, ast.Del))
                    and isinstance(node.value, ast.Name)
                    and node.value.id != "self"
                ):
                    held = found.setdefault(node.value.id, set())
                    if held is not None:
                        held.add(node.attr)
                elif (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("setattr", "delattr")
                    and node.args
                    and isinstance(node.args[0], ast.Name)
                ):
                    found[node.args[0].id] = None
            self._rebound = {k: (frozenset(v) if v is not None else None) for k, v in found.items()}
        return self._rebound

    def _init_of(self, cls: ast.ClassDef) -> ast.FunctionDef | None:
        """The `__init__` an object of the class runs: the one Python writes for a
        record class (a dataclass, an attrs class, a named tuple: `records`), its
        own, or the first of the project classes it derives from (left first, a few
        deep); None when none of them defines one, or a base is not a class of the
        project (its `__init__` may be that base's)."""
        return record_init(cls, self._base_of) or self.method_named(cls, "__init__")

    def _base_of(self, cls: ast.ClassDef, base: ast.expr) -> ast.ClassDef | None:
        """The project class a base of `cls` names (see `records.record_init`)."""
        return self.class_named(base.id, cls.lineno) if isinstance(base, ast.Name) else None

    def _changed_outside_init(self, cls: ast.ClassDef) -> frozenset[str] | None:
        """The attributes of `self` a method other than `__init__` may set, of the
        class or of a class of the project it derives from: what `__init__` set
        there is not what every method reads (None: any attribute, `setattr`)."""
        known = self._changed.get(id(cls))
        if known is not None:
            return known[1]
        methods: list[ast.stmt] = []
        todo, seen = [cls], set()
        while todo:
            current = todo.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            # (a record's `__post_init__` is part of the `__init__` Python writes for it)
            post = post_init_name(current) if record_init(current, self._base_of) is not None else None
            methods += [
                f for f in current.body if not (isinstance(f, ast.FunctionDef) and f.name in ("__init__", post))
            ]
            for base in current.bases:
                found = self.class_named(base.id, current.lineno) if isinstance(base, ast.Name) else None
                if found is not None:
                    todo.append(found)
        changed = self_attributes_set(methods)
        self._changed[id(cls)] = (cls, changed)  # the class kept: its id is never reused
        return changed

    def _settled(self, instance: Instance, cls: ast.ClassDef) -> Instance:
        """The object without the attributes a method may set again (see
        `_changed_outside_init`)."""
        changed = self._changed_outside_init(cls)
        if changed is not None and not any(k in changed for k, _ in instance.items):
            return instance
        kept = () if changed is None else tuple((k, v) for k, v in instance.items if k not in changed)
        return Instance(kept, cls=instance.cls)

    def class_named(self, name: str, line: int) -> ast.ClassDef | None:
        """The class `name` means on `line`: in an imported module's pasted
        definition, that module's own; elsewhere this file's."""
        home = self.home(line)
        if home is None:
            return self.host.classes.get(name)
        found = self.host._foreign_defs.get(f"{home}{SCOPED}{name}")
        return found if isinstance(found, ast.ClassDef) else None

    def _factory(self, method: ast.FunctionDef, cls: ast.ClassDef, call: ast.Call, scope: Scope) -> Instance | None:
        """A class or static method that builds a configuration object from a
        class-level dict (`d = cls.CONFIGS[env]; return Env(**d)`, `return
        cls(**CONFIGS[env])`), read with the call's values: the object, its fields
        those of the entry the call names. A factory this reading does not follow (a
        `with open(...)` of a document, a `try`) is evaluated by the value layer
        (`ValueResolver.factory_object`). None when the entry is not known (an
        environment only a run knows): the attributes stay named placeholders."""
        if not any(isinstance(d, ast.Name) and d.id in ("classmethod", "staticmethod") for d in method.decorator_list):
            return None
        if frame(method) in scope.calls or len(scope.calls) >= MAX_HELPER_DEPTH:
            return None
        env: dict[str, object] = {"cls": cls} if method.args.args[:1] and method.args.args[0].arg == "cls" else {}
        local = Scope(env={**self.values._bound_call(method, call, scope), **env}, calls=(*scope.calls, frame(method)))
        plain: dict[str, object] = {}  # names the factory binds to plain Python (see `_config_value`)
        for stmt in method.body[:MAX_FACTORY_STATEMENTS]:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name, value = stmt.targets[0].id, self._config_value(stmt.value, cls, local, plain)
                plain.pop(name, None)
                if value is None or isinstance(value, (ast.ClassDef, Instance)):
                    local.env[name] = value
                else:  # plain Python, no value the analyzer holds: its text is not known
                    local.env[name], plain[name] = UNHELD, value
            elif isinstance(stmt, ast.Return):
                made = self._config_value(stmt.value, cls, local, plain) if stmt.value is not None else None
                return made if isinstance(made, Instance) else self.values.factory_object(method, cls, call, scope)
            elif not isinstance(stmt, (ast.Expr, ast.Pass)):
                break  # a branch, loop, `with` or `try`: the value layer reads them
        return self.values.factory_object(method, cls, call, scope)

    def _config_value(self, node: ast.expr, cls: ast.ClassDef, scope: Scope, plain: dict[str, object]) -> object:
        """A value inside a factory (see `_factory`): a class-level literal
        (`cls.CONFIGS`, `Config.CONFIGS`, its module's `CONFIGS`) as plain Python, an
        entry of one by a known key, or the object a dataclass call builds from it;
        None when not known. `plain` holds what the factory's own assignments bound
        to plain Python."""
        if isinstance(node, ast.Name):
            if node.id in plain:
                found = plain[node.id]
                return found if isinstance(found, dict) else None
            held = scope.env.get(node.id)
            if isinstance(held, (ast.ClassDef, Instance)):
                return held
            home = self.home(node.lineno)
            if isinstance(held, dict) and home is None and self.host._tree is not None:
                # a module-level literal of this file (`CONFIGS = {...}`), as written
                return _literal_in([s for s in self.host._tree.body if s.lineno <= self.host._own_lines], node.id)
            if type(held) is dict and home is not None:
                # a module-level dict of the imported module whose class this is, as
                # that module's scope holds it (`Context.scopes`): known in full, or not
                plain = to_plain(held)
                return plain if isinstance(plain, dict) else None
            return None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = scope.env.get(node.value.id)
            if node.value.id == cls.name or owner is cls:
                return _literal_in(cls.body, node.attr)
            return None
        if isinstance(node, ast.Subscript):
            mapping = self._config_value(node.value, cls, scope, plain)
            key = self.values.string(node.slice, scope)
            if isinstance(mapping, dict) and not key.params and not key.unknown:
                return mapping.get(key.text)
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            held = scope.env.get(node.func.id)
            target = held if isinstance(held, ast.ClassDef) else self.class_named(node.func.id, node.lineno)
            model = target is not None and _is_model(target)
            if target is None or not (model or _is_dataclass(target)):
                return None
            given: dict[str, object] = {}
            loose = False  # a field a spread dict lacks may still be given by it at run time
            for keyword in node.keywords:
                value = self._config_value(keyword.value, cls, scope, plain)
                if keyword.arg is None and value is None:
                    # `**yaml.safe_load(f)`, `**raw`: a project document, as loaded
                    held = self.values._value(keyword.value, scope)
                    if isinstance(keyword.value, ast.Name) and isinstance(scope.env.get(keyword.value.id), InputDoc):
                        held = scope.env[keyword.value.id]  # `raw = json.loads(sys.argv[1])`
                    if isinstance(held, Document) and isinstance(held.plain, dict):
                        value = held.plain
                    elif type(held) is dict or isinstance(held, InputDoc):
                        value, loose = self._spread(keyword.value, held, target), True
                if keyword.arg is None and isinstance(value, dict):
                    given.update(value)
                elif keyword.arg is None:
                    return None  # `**d` of an unknown mapping: which fields it sets is not known
                else:
                    given[keyword.arg] = value if value is not None else self.values.string(keyword.value, scope)
            fields = _dataclass_fields(target)
            for name, arg in zip(fields, node.args):
                given[name] = self.values.string(arg, scope)
            for name, default in _defaults(target).items() if not loose else ():  # `schema: str = "bench"`
                given.setdefault(name, default)
            if any(f not in given for f in _required_fields(target)) or (
                not model and any(k not in fields for k in given)
            ):
                return None  # raises: a field not given, or (a dataclass) a keyword it has no field for
            rewritten = rewritten_fields(target)
            if rewritten is None:
                return None  # a validator or `__post_init__` may set any field to anything
            attrs = {}
            for name in (f for f in fields if f not in rewritten):
                value = given.get(name)
                if isinstance(value, Str):
                    attrs[name] = value
                elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
                    attrs[name] = Str(str(value))
            return Instance(tuple(attrs.items()), cls=target.name) if attrs else None
        return None

    def _spread(self, node: ast.expr, held: object, cls: ast.ClassDef) -> dict[str, object]:
        """The fields `**node` gives a configuration class (`TaskParams(**raw)`): a held
        dict's keys as it holds them (`json.loads` of a task parameter the job gives);
        of a job input's document (`InputDoc`), each field a job input of its own,
        named as `raw["catalog"]` names it where it is read (`{raw_catalog}`), so the
        table it names stays paired by the job's inputs."""
        if type(held) is dict:
            return {k: v for k, v in held.items() if isinstance(k, str)}
        assert isinstance(held, InputDoc)
        if isinstance(node, (ast.Name, ast.Attribute)):
            root = ast.unparse(node)
        else:  # `**json.loads(sys.argv[1])`: named after the input, as `json_input`'s fields are
            root = next(iter(held.inputs)) if len(held.inputs) == 1 else cls.name
        out: dict[str, object] = {}
        for name in _dataclass_fields(cls):
            field = param_str(param_name(f"{root}_{name}"))
            self.host.input_params[field.params[0]] = held.inputs
            out[name] = field
        return out

    def _entered_once(self, cls: str) -> bool:
        """Whether the file's own code makes one object of the class and calls one
        method on it (`Pipeline(spark, config).run()`): reported at that one call,
        every write of the object would stand on one line; where they are written,
        they stand apart. An object whose methods the job calls step by step
        (`log.start()`, then `log.mark(...)`) is reported at each step."""
        if self._made is None:
            self._made = _objects_made(self.host._tree, set(self.host.classes), self.host._own_lines)
        made, used = self._made.get(cls, (0, 0))
        return made == 1 and used <= 1

    def method(self, call: ast.Call, scope: Scope) -> tuple[ast.FunctionDef, Instance | None] | None:
        """`obj.method(...)` (or `Cls(...).method(...)`) on an instance of a class of
        this file: the method and the instance."""
        func = call.func
        if not isinstance(func, ast.Attribute):
            return None
        owner = func.value
        if (
            isinstance(owner, ast.Name)
            and owner.id in self.host.classes
            and not isinstance(scope.env.get(owner.id), Instance)
        ):
            # `Setup.schema(catalog, db)`: a static or class method, read with no object
            cls = self.host.classes[owner.id]
            method = next(
                (f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == func.attr),
                None,
            )
            return (method, None) if method is not None else None
        if isinstance(owner, ast.Name):
            held = scope.env.get(owner.id)
        elif isinstance(owner, ast.Call):
            held = self.instance(owner, scope) or self.returned_instance(owner, scope)
        elif isinstance(owner, ast.Attribute):  # `self.writer.save(df)`: the object an attribute holds
            held = self.values._held(owner, scope)
        else:
            return None
        # objects of one class made on paths that join (`OneOf`): the method is read
        # once, each write in it once per object (see `call_helper`)
        joined = joined_objects(held.values) if type(held) is OneOf else held
        cls = self.host.classes.get(joined.cls) if isinstance(joined, Instance) else None
        if cls is None:  # (`self` inside `__init__` read for its values is of no class)
            return None
        method = self.method_named(cls, func.attr)
        return (method, held) if method is not None else None  # type: ignore[return-value]

    def method_named(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        """The method `name` an object of the class runs: its own, or the first of the
        project classes it derives from that defines it (left first, a few deep, as
        `_init_of` follows them)."""
        current: ast.ClassDef | None = cls
        for _ in range(MAX_HELPER_DEPTH):
            found = next((f for f in current.body if isinstance(f, ast.FunctionDef) and f.name == name), None)
            if found is not None or not current.bases:
                return found
            base = current.bases[0]
            current = self.class_named(base.id, current.lineno) if isinstance(base, ast.Name) else None
            if current is None:
                return None
        return None

    def returned_instance(self, call: ast.Call, scope: Scope) -> Instance | None:
        """`Cls(...).start()` where `start` ends in `return self`: the same object;
        `Config.get("prod")`, a class or static method that builds an object (see
        `_factory`): that object."""
        found = self.method(call, scope)
        if found is not None and found[1] is None and isinstance(call.func, ast.Attribute):
            owner = call.func.value
            return self._factory(found[0], self.host.classes[owner.id], call, scope)  # type: ignore[attr-defined]
        if (
            found is not None
            and isinstance(found[1], Instance)
            and any(
                isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id == "self"
                for n in walk(found[0])
            )
        ):
            return found[1]
        return None

    def _read_function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, **extra) -> None:
        env = dict(self.host.module_env)
        names = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
        for name in names:
            if name in ("self", "cls", "spark"):
                continue
            env[name] = param_str(name)
        placed = self.placed.get(self._class) if self._class is not None else None
        if placed is not None and names[:1] == ["self"]:
            env["self"] = placed
        if extra and names[:1] == ["self"] and isinstance(scope.env.get("self"), Instance):
            env["self"] = scope.env["self"]  # `.foreachBatch(self._write_batch)`: the same object
        local = Scope(
            env=env,
            flags=scope.flags | extra.get("flags", frozenset()),
            stream=extra.get("stream"),
            # a foreachBatch function read inside a helper's call: its writes are that call's
            site=scope.site if extra else None,
            calls=(*scope.calls, frame(fn)),  # a function defined inside a helper is as deep as its caller
        )
        batch = names[1:] if names[:1] == ["self"] else names  # a method's (batch_df, batch_id) follow `self`
        if "batch_df" in extra and batch:
            env[batch[0]] = DataFrame(frozenset())
            if len(batch) > 1:
                env[batch[1]] = param_str("batch_id")
        with self.host.guards.inside(NONE):  # it runs where it is called, not where it is defined
            self.block(fn.body, local)
        self._left = None  # a `return` leaves the function, not the code around its definition

    def _bind(self, target: ast.expr, value: ast.expr, scope: Scope) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            starred = [t.value for t in target.elts if isinstance(t, ast.Starred)]
            for rest in (n for s in starred for n in walk(s) if type(n) is ast.Name):
                _untold(scope.env, rest.id, UNTOLD)  # `first, *rest = ...`: the rest is not known
            if starred:
                for t in target.elts:
                    if isinstance(t, ast.Name):  # `first, *rest = sys.argv[1:]`: `first` names a parameter
                        scope.env[t.id] = param_str(t.id) if is_argv(value) else Str("{" + t.id + "}", (t.id,), True)
                return
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts):
                    self._bind(t, v, scope)
            elif isinstance(held := self.values._value(value, scope), tuple) and len(held) == len(target.elts):
                for t, v in zip(target.elts, held):  # `cfg, opts = setup(args)`
                    if isinstance(t, ast.Name):
                        scope.env[t.id] = v
            elif (
                isinstance(value, ast.Name)
                and value.id not in self.host.mutated_names
                and (row := _unpacked(target, scope.env.get(value.id))) is not None
            ):
                for name, item in row.items():  # `schema, table = key` of a loop over tuples
                    if item is None:
                        scope.env.pop(name, None)
                    else:
                        scope.env[name] = item
            else:
                for t in target.elts:
                    if isinstance(t, ast.Name):
                        # `a, b = sys.argv[1:3]` names parameters; anything else is unknown
                        scope.env[t.id] = param_str(t.id) if is_argv(value) else Str("{" + t.id + "}", (t.id,), True)
            return
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and isinstance(target.slice, ast.Constant)
            and isinstance(scope.env.get(target.value.id), (dict, Instance))
        ):  # `config["db"] = "sales"` on a dict of strings: a literal dict of what is known
            held: dict | Instance = scope.env[target.value.id]  # type: ignore[assignment,type-arg]
            key, text = str(target.slice.value), self.values.string(value, scope)
            kept = {k: v for k, v in known_items(held) if k != key}
            if type(held) is dict:  # every name holding the same dict sees the change (`same = config`)
                self._set_dict(target.value.id, scope, {**kept, key: text} if not text.unknown else kept)
            else:
                scope.env[target.value.id] = {**kept, key: text} if not text.unknown else kept
            return
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            self._set_attribute(target, value, scope)
            self._stored_into(target, scope, value)
        if not isinstance(target, ast.Name):
            return
        held = scope.env[target.id] = self.values._value(value, scope, target.id)
        if self._of_an_untold_item(value, held, scope):  # `t = row.table_name` of `for row in rows:`
            _untold(scope.env, target.id)
            return
        returned = not may_state(value) and self._project_call(value)
        if (
            type(held) in (Str, DataFrame)
            and (returned or may_state(value))
            and (type(held) is DataFrame or held.unknown)  # type: ignore[union-attr]
            and target.id not in self.host.mutated_names  # `TABLES.append(...)` somewhere: not the literal
        ):
            # `TABLES = [("bronze", "a"), ...]`, `S = {"s.a", "s.b"}`, `P = list(zip(T, Q))`:
            # a collection the front end has no form for, held for the loops over it; or
            # what a function of the project returns (`outputs = build(spark)` of a dict
            # of names to DataFrames), its keys known where its values are not
            stated = self._stated(value, scope, partial=returned)
            if stated is not None:
                held = scope.env[target.id] = stated
        if (
            not is_texts(held)
            and _written_list(value)
            and all(isinstance(e, (ast.JoinedStr, ast.Constant, ast.BinOp)) for e in value.elts)  # type: ignore[attr-defined]
        ):
            # `STMTS = [f"OPTIMIZE {cfg.catalog}.s.a", ...]` with a part only a run knows:
            # a loop over it still runs once per element, each with what it holds
            items = [self.values._value(e, scope, target.id) for e in value.elts]  # type: ignore[attr-defined]
            if all(type(i) is Str for i in items):
                held = scope.env[target.id] = items
        if isinstance(held, Str):
            texts = list(alternatives(held))
        elif isinstance(held, (list, dict)):
            # a list or dict of statements: each runs with its text standing here (a
            # configuration list holds dicts, no text)
            items = held if type(held) is list else [v for _, v in known_items(held)]  # type: ignore[arg-type]
            texts = [one for item in items if isinstance(item, Str) for one in alternatives(item)]
        else:
            texts = []
        for one in texts:
            self._built_at.setdefault(id(one), (one, value))

    def _stored_into(self, target: ast.expr, scope: Scope, value: ast.expr | None = None) -> None:
        """A store into a part of a list or dict a name holds (`u[0] = x`, `cfg["a"]["b"]
        = x`, `u[0] += x`, `del u[0]`) that `_bind` does not follow: an item of a list
        of texts at a known index holds the new text; otherwise the name, and every
        name holding the same value, is no longer known. An object (`Instance`) is
        `_set_attribute`'s."""
        root = target
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if not isinstance(root, ast.Name):
            return
        held = scope.env.get(root.id)
        if held is None or isinstance(held, (Instance, Str, DataFrame)):
            return  # nothing held, an object (`_set_attribute`), or a value no store changes
        if type(held) is dict and isinstance(target, ast.Attribute) and target.value is root:
            # `conf.TABLE = ...` on a module (or class) held as its names: that name changes
            self._set_dict(root.id, scope, {k: v for k, v in held.items() if k != target.attr})
            return
        if (
            value is not None
            and type(held) is list
            and isinstance(target, ast.Subscript)
            and target.value is root
            and isinstance(target.slice, ast.Constant)
            and type(target.slice.value) is int
            and -len(held) <= target.slice.value < len(held)
            and is_texts(held)
        ):
            text = self.values.string(value, scope)
            if not text.unknown:
                new = list(held)
                new[target.slice.value] = text
                self._set_dict(root.id, scope, new)
                return
        self._set_dict(root.id, scope, None)

    def _set_attribute(self, target: ast.Attribute | ast.Subscript, value: ast.expr, scope: Scope) -> None:
        """`w.table = "main.x.y"` (or `cfg.schema = s`, `w.tables["a"] = t`) on an
        object a name holds: the attribute is what the code set (known text, an
        object) or no longer known, in that name and wherever the same object is
        held (`s = Store(spark, cfg)` holds `cfg` as `s.config`)."""
        path: list[str] = []
        node: ast.expr = target
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            path = [node.attr, *path] if isinstance(node, ast.Attribute) else []
            node = node.value
        old = scope.env.get(node.id) if isinstance(node, ast.Name) else None
        if not isinstance(old, Instance) or not path:
            return
        inner = member(old, path[0])
        direct = isinstance(target, ast.Attribute) and len(path) <= 2
        if direct and len(path) == 1:
            new = with_attribute(old, path[0], self.values._attribute_value(value, scope))
        elif direct and isinstance(inner, Instance):  # `s.config.schema = x`: one field of the object it holds
            new = with_attribute(
                old, path[0], with_attribute(inner, path[1], self.values._attribute_value(value, scope))
            )
        else:
            new = with_attribute(old, path[0], None)
        made: dict[int, object] = {}
        for name, held in list(scope.env.items()):
            swapped = _swap(held, old, new, made)
            if swapped is not held:
                scope.env[name] = swapped
        for cls, sole in list(self.sole_instances.items()):
            if _swap(sole, old, new, {}) is not sole:  # changed after it was made: read at its calls
                del self.sole_instances[cls]

    def text_sites(self, expr: ast.expr, scope: Scope) -> list[ast.expr]:
        """Where the string a statement's text starts with was built, when a name holds
        it (`q = "INSERT INTO ..."` then `spark.sql(q)`, `q.format(...)`, `q + where`,
        `f"{q} WHERE ..."`): the statement's text stands there, and an edit there changes
        what the call runs. Names that only fill a part in (`f"OPTIMIZE {table}"`) are
        not the statement's text."""
        node = expr
        while True:
            kind = type(node)
            if kind is ast.Call and type(node.func) is ast.Attribute:  # type: ignore[attr-defined]
                node = node.func.value  # type: ignore[attr-defined]
            elif kind is ast.BinOp:
                node = node.left  # type: ignore[attr-defined]
            elif kind is ast.JoinedStr and node.values and type(node.values[0]) is ast.FormattedValue:  # type: ignore[attr-defined]
                node = node.values[0].value  # type: ignore[attr-defined]
            else:
                break
        if type(node) is ast.Subscript and type(node.value) is ast.Name:  # type: ignore[attr-defined]
            held: object = self.values._dict_value(node, scope)  # `QUERIES["load"]`: an item of a dict or list
        elif type(node) is ast.Name:
            held = scope.env.get(node.id)  # type: ignore[attr-defined]
        else:
            return []
        out: list[ast.expr] = []
        for one in alternatives(held) if isinstance(held, Str) else ():
            built = self._built_at.get(id(one))
            if built is not None and built[0] is one:
                out.append(built[1])
        return out

    def notebook_run(self, node: ast.Call, scope: Scope) -> None:
        """`dbutils.notebook.run("./child", 600, {"schema": s})`: the child runs in
        this notebook's task with its widgets bound to the arguments known here. A
        path whose folder only a run knows (`f"{base}/jobs/child"`, or
        `f"/Workspace{base}/jobs/child"` as a helper builds it) is its known tail
        after `UNKNOWN_FOLDER`, which the link stage matches by tail."""
        path = self.values.string(argument_at(node, 0, "path"), scope)
        child = path.text
        if path.params or path.unknown:
            tail = child[child.rfind("}") + 1 :]
            if not ("}" in child and tail.startswith("/") and tail.strip("/")):
                return
            child = UNKNOWN_FOLDER + tail
        if not child:
            return
        given = argument_at(node, 2, "arguments")
        values: dict[str, str] = {}
        if isinstance(given, ast.Dict):
            for k, v in zip(given.keys, given.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    text = self.values.string(v, scope)
                    if not (text.params or text.unknown):
                        values[k.value] = text.text
                    elif call_named(v, JSON_DUMPS) and v.args:  # type: ignore[attr-defined]
                        dumped = self._dumped_dict(v.args[0], scope)  # type: ignore[attr-defined]
                        if dumped is not None:
                            values[k.value] = dumped
        self.host.notebook_runs.append((child, values))

    def _dumped_dict(self, node: ast.expr, scope: Scope) -> str | None:
        """The argument text of `json.dumps(conf)` where `conf` is a dict known in
        part (a key from a secret, a template, one of a few texts), or one of a few
        dicts (joined key by key, see `joined_dict`): the dict key by key (see `JSON_INPUT`), so the child's `json.loads` of the widget gets back
        what is known of each key and no more. None when no key's value is known."""
        held = self.values._value(node, scope)
        fields = exported_value(held) if type(held) in (dict, OneOf) else None
        return json_input(fields) if isinstance(fields, dict) else None

    def notebook_exit(self, node: ast.Call, scope: Scope) -> None:
        """`dbutils.notebook.exit(x)`: what the notebooks that run this one get back,
        in the JSON form `Links.exit` keeps (None when not known: an exit inside a
        function, a value no part of which is known)."""
        given = argument_at(node, 0, "value")
        value: object = None
        if given is not None and scope.env is self.host.module_env:
            if call_named(given, JSON_DUMPS) and given.args:  # type: ignore[attr-defined]
                held = self.values._value(given.args[0], scope)  # type: ignore[attr-defined]
                if isinstance(held, dict):
                    fields = {k: exported_value(v) if isinstance(v, Str) else None for k, v in held.items()}
                    value = {"json": fields}
            else:
                text = exported_value(self.values.string(given, scope))
                value = {"text": text} if text is not None else None
        self.notebook_exits.setdefault(id(node), []).append(value)

    def task_value_set(self, node: ast.Call, scope: Scope) -> None:
        """`dbutils.jobs.taskValues.set(key="k", value=v)`: what `taskValues.get` of
        "k" reads in the project's other notebooks. A value set inside a function, or
        one no part of which is known, is not known (None); a key not known here
        keys "" (it may set any key)."""
        given = argument_at(node, 1, "value")
        value = None
        if given is not None and scope.env is self.host.module_env:
            value = exported_value(self.values.string(given, scope))
        self._set_task_value(_task_value_key(node), value)
        self._sets_read.add(id(node))

    def _set_task_value(self, key: str, value: object) -> None:
        found = self.task_values_set.setdefault(key, [])
        if value not in found:
            found.append(value)

    def task_values(self) -> dict[str, list[object]]:
        """`Links.task_values`: the values read at its `taskValues.set` calls, and
        None (not known) for each call the reading never reached (in a function
        not called here, a block not read)."""
        if self.host._tree is None or "taskValues" not in self.host.source:  # no call to name: no walk
            return self.task_values_set
        for stmt in self.host._tree.body:
            if stmt.lineno > self.host._own_lines:
                break
            for node in ast.walk(stmt):
                if call_named(node, TASK_VALUES_SET) and id(node) not in self._sets_read:
                    self._set_task_value(_task_value_key(node), None)  # type: ignore[arg-type]
        return self.task_values_set

    def exit_value(self) -> object:
        """What a run of this notebook hands back (`Links.exit`): the value of its
        `dbutils.notebook.exit` calls when they all agree and one stands at the top
        level (so every run ends there); else unknown, with the reason. None when it
        has no such call."""
        if self.host._tree is None or "exit" not in self.host.source or "notebook" not in self.host.source:
            return None  # no `notebook.exit` call can be in the text: no walk
        own = [s for s in self.host._tree.body if s.lineno <= self.host._own_lines]
        calls = [n for s in own for n in ast.walk(s) if call_named(n, NOTEBOOK_EXIT)]
        if not calls:
            return None
        top = {id(s.value) for s in own if isinstance(s, ast.Expr)}
        values: list[object] = []
        for call in calls:
            read = self.notebook_exits.get(id(call), [None])
            if any(v is None for v in read):
                return {"unknown": f"the value of dbutils.notebook.exit at line {call.lineno} is not known"}
            values.extend(v for v in read if v not in values)
        if len(values) > 1:
            lines = ", ".join(str(c.lineno) for c in calls)
            return {"unknown": f"dbutils.notebook.exit gives different values (lines {lines})"}
        if not any(id(c) in top for c in calls):
            return {"unknown": "every dbutils.notebook.exit stands inside a block: a run may end without one"}
        return values[0]

    def _import(self, stmt: ast.Import | ast.ImportFrom, scope: Scope) -> None:
        """Names an import binds hold nothing known here; the link stage gives them
        the values a module of the project defines (see `Links.imports`)."""
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                bound = alias.asname or alias.name.split(".")[0]
                if bound not in self.host.module_env or scope.env is not self.host.module_env:
                    scope.env.pop(bound, None)
                if alias.asname or "." not in alias.name:
                    self.host.imports.append((alias.name, "", bound))
            return
        module = "." * stmt.level + (stmt.module or "")
        for alias in stmt.names:
            bound = alias.asname or alias.name
            if alias.name == "*":
                self.host.imports.append((module, "*", ""))
                continue
            if bound not in self.host.module_env or scope.env is not self.host.module_env:
                scope.env.pop(bound, None)
            self.host.imports.append((module, alias.name, bound))


def _updated_by(held: dict, given: object) -> dict | None:
    """`held.update(given)` where `given` is a dict a name holds, or one of several
    dicts (paths that joined): the dict each way gives, joined key by key (a key
    every way agrees on is kept, values that differ are one of them, and a key only
    some ways have is not held).
    None (no dict known) when `given` is no plain dict on some way."""
    ways = given.values if type(given) is OneOf else (given,)  # type: ignore[attr-defined]
    if not ways or not all(type(w) is dict for w in ways):
        return None
    merged = [{**held, **w} for w in ways]  # type: ignore[dict-item]
    out: dict = {}
    for key in dict.fromkeys(k for m in merged for k in m):
        values = [m.get(key, UNHELD) for m in merged]
        # a key only some ways have, or a value no way holds, is not held; values that
        # differ are one of them (`join_held`), as a name's are where paths meet
        out[key] = UNHELD if any(v is UNHELD for v in values) else join_held(values)
    return out


def _stated_count(node: ast.expr) -> int | None:
    """How many items a collection the code spells out holds: a literal list, tuple,
    set or dict, or `range` of literal integer bounds; None for any other expression."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return len(node.elts)
    if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
        return len(node.keys)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "range"
        and not node.keywords
        and 1 <= len(node.args) <= 3
        and all(isinstance(a, ast.Constant) and type(a.value) is int for a in node.args)
    ):
        bounds = [a.value for a in node.args]  # type: ignore[attr-defined]
        return len(range(*bounds)) if len(bounds) < 3 or bounds[2] != 0 else None
    return None


def _reads_text(node: ast.expr) -> bool:
    """Whether `node` reads a file's text itself (`Path(p).read_text()`, `open(p).read()`):
    its path is the file's own code's to tell (`__file__`, the module's names)."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("read_text", "read")
        and not n.args
        and not n.keywords
        for n in ast.walk(node)
    )
