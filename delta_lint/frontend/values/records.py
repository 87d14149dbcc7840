"""The `__init__` Python writes for a record class, as the function it runs.

A dataclass, an attrs class, a `typing.NamedTuple` class and a class made by
`collections.namedtuple(...)` have no `__init__` in their source: the decorator
(or the base, or the factory) writes one from the class's fields. A reader that
only reads the `__init__` it finds in the source then knows nothing of what such
an object holds: a field holding another object (`store: Store`), a default given
by `field(default=...)`, a base dataclass's fields, a name `__post_init__`
derives from the others.

`record_init` writes that `__init__` as the AST of the function Python would run,
so every reader of values reads a record's construction as it reads a plain
class's: its parameters in field order (a base record's fields first, a field
declared again keeping its place with its new default), their defaults (`= v`,
`field(default=v)`, `field(default_factory=f)` and `attr.Factory(f)` called at
each construction), keyword-only fields, fields left out of `__init__`
(`field(init=False)`), `InitVar`s handed to `__post_init__` only, `ClassVar`s
left out, an attrs converter applied to what the call gives, and the body of
`__post_init__` (`__attrs_post_init__`) after the fields are set
(`object.__setattr__(self, "fqn", v)` of a frozen class read as the
`self.fqn = v` it is). Where the code does not tell what Python writes (a base
that is not a record of the project, a default a decorated method computes,
`init=False` on the class, a `__post_init__` that sets attributes by computed
names), there is no such function: the class's objects are not read from one.
The code is never imported or run.
"""

from __future__ import annotations

import ast
import copy
import weakref
from collections.abc import Callable
from dataclasses import dataclass

# what the decorators of a record class are called, by the library that writes the `__init__`
_DATACLASS = frozenset({"dataclass"})
_ATTRS = frozenset({"s", "attrs", "define", "frozen", "mutable"})
_ATTRS_BARE = frozenset({"attrs", "define", "frozen", "mutable"})  # `from attrs import define`
_ATTRS_MODULES = frozenset({"attr", "attrs"})
# the calls that describe one field (`field(default=...)`, `attr.ib(...)`)
_FIELD_CALLS = frozenset({"field", "ib", "attrib"})
# bases that give a record no field and no `__init__` of their own
_EMPTY_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})
# the method Python runs after the fields are set, by the kind of record
_POST_INIT = {"dataclass": "__post_init__", "attrs": "__attrs_post_init__"}

BaseOf = Callable[[ast.ClassDef, ast.expr], "ast.ClassDef | None"]


@dataclass(frozen=True)
class Field:
    """One field of a record: the attribute it sets, the parameter of `__init__`
    that gives it (attrs drops a leading underscore; `alias=`), its default (an
    expression read at each construction; None: the call must give it), and how
    `__init__` takes it."""

    name: str
    param: str
    default: ast.expr | None
    init: bool = True
    kw_only: bool = False
    initvar: bool = False
    converter: ast.expr | None = None


def record_kind(cls: ast.ClassDef) -> str | None:
    """ "dataclass", "attrs" or "namedtuple" for a record class whose `__init__` its
    decorator or base writes; None for any other class."""
    if any(_last_name(b) == "NamedTuple" for b in cls.bases):
        return "namedtuple"
    for decorator in cls.decorator_list:
        kind = _decorator_kind(decorator)
        if kind is not None:
            return kind
    return None


def _decorator_kind(decorator: ast.expr) -> str | None:
    """The kind of record one decorator makes (`@dataclass(frozen=True)`,
    `@attr.s`, `@define`, `@attr.dataclass`), or None."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = _last_name(target)
    if name in _DATACLASS:
        return "attrs" if _owner_in(target, _ATTRS_MODULES) else "dataclass"
    if (isinstance(target, ast.Name) and name in _ATTRS_BARE) or (name in _ATTRS and _owner_in(target, _ATTRS_MODULES)):
        return "attrs"
    return None


_INITS: weakref.WeakKeyDictionary[ast.ClassDef, tuple[ast.FunctionDef | None, object]] = weakref.WeakKeyDictionary()


def record_init(cls: ast.ClassDef, base_of: BaseOf) -> ast.FunctionDef | None:
    """The `__init__` Python writes for `cls` (see the module docstring), or None
    when `cls` is no record class, defines its own `__init__`, or the code does not
    tell what that `__init__` does. `base_of(cls, base)` is the project class a base
    expression names (None: not one of the project's). Written once per class and
    reader (`base_of`)."""
    cached = _INITS.get(cls)
    if cached is not None and cached[1] == base_of:  # (a bound method is made again at each use)
        return cached[0]
    made = _record_init(cls, base_of)
    _INITS[cls] = (made, base_of)
    return made


def post_init_name(cls: ast.ClassDef) -> str | None:
    """The method the written `__init__` of a record class runs last (its body is
    part of that `__init__`, not a method that runs at another time)."""
    kind = record_kind(cls)
    return _POST_INIT.get(kind) if kind is not None else None


def _record_init(cls: ast.ClassDef, base_of: BaseOf) -> ast.FunctionDef | None:
    kind = record_kind(cls)
    if kind is None or any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in cls.body):
        return None
    options = _options(cls)
    if options.get("init") is False:
        return None  # `@dataclass(init=False)`: the class's `__init__` is a base's, or object's
    fields = record_fields(cls, base_of)
    if fields is None:
        return None
    post = _post_init(cls, kind)
    if post is False:
        return None
    return _written(cls, fields, post if isinstance(post, ast.FunctionDef) else None)


def record_fields(cls: ast.ClassDef, base_of: BaseOf, depth: int = 0) -> list[Field] | None:
    """The fields of a record class in the order its `__init__` takes them: those of
    its record bases first (the first base last, as Python's MRO gathers them), a
    field declared again keeping its place; None when a base is not a record of the
    project (or an empty base), or the class is no record."""
    kind = record_kind(cls)
    if kind is None or depth > 8:
        return None
    inherited: dict[str, Field] = {}
    for base in reversed(cls.bases):
        if kind == "namedtuple" or _last_name(base) in _EMPTY_BASES:
            continue
        if isinstance(base, ast.Subscript) and _last_name(base.value) in _EMPTY_BASES:
            continue  # `Generic[T]`
        found = base_of(cls, base)
        if found is None:
            return None  # a base the project does not define: its fields are not known
        if record_kind(found) is None:
            # a plain base gives no field (its annotations are no fields); a record it
            # derives from would: not followed
            if any(_last_name(b) not in _EMPTY_BASES for b in found.bases):
                return None
            continue
        theirs = record_fields(found, base_of, depth + 1)
        if theirs is None:
            return None
        for each in theirs:
            inherited.pop(each.name, None)
            inherited[each.name] = each
    own = _own_fields(cls, kind)
    if own is None:
        return None
    for each in own:
        if each.name in inherited:
            inherited[each.name] = each  # declared again: its place, its new default
        else:
            inherited[each.name] = each
    return list(inherited.values())


def foreign_fields(cls: ast.ClassDef, base_of: BaseOf, depth: int = 0) -> bool:
    """Whether a record class derives from a class the project does not define
    (`@dataclass class Names(lib.Base)`): that base may give fields before the
    class's own, so which field a value of the call sets is not told."""
    if record_kind(cls) in (None, "namedtuple"):
        return False
    if depth > 8:
        return True  # deeper than followed (or a cycle)
    for base in cls.bases:
        if _last_name(base) in _EMPTY_BASES:
            continue
        if isinstance(base, ast.Subscript) and _last_name(base.value) in _EMPTY_BASES:
            continue
        found = base_of(cls, base)
        if found is None or foreign_fields(found, base_of, depth + 1):
            return True
    return False


_NAMEDTUPLES: weakref.WeakKeyDictionary[ast.stmt, ast.ClassDef | None] = weakref.WeakKeyDictionary()


def namedtuple_class(stmt: ast.stmt) -> ast.ClassDef | None:
    """The class a `namedtuple(...)` statement makes (see `_namedtuple_class`), the
    same definition each time it is asked."""
    if not (
        isinstance(stmt, ast.Assign)
        and type(stmt.value) is ast.Call
        and _last_name(stmt.value.func) in ("namedtuple", "NamedTuple")
    ):
        return None  # (told apart before the cache: most statements are no such call)
    if stmt not in _NAMEDTUPLES:
        _NAMEDTUPLES[stmt] = _namedtuple_class(stmt)
    return _NAMEDTUPLES[stmt]


def _namedtuple_class(stmt: ast.stmt) -> ast.ClassDef | None:
    """`C = namedtuple("C", ["catalog", "schema"], defaults=["s"])` (or a text of the
    names, `"catalog schema"`), `C = NamedTuple("C", [("catalog", str)])`: the class
    it makes, as the `class C(NamedTuple)` it is equal to (its location the
    statement's); None for any other statement, and where the names or defaults are
    not literals."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call)
        and _last_name(stmt.value.func) in ("namedtuple", "NamedTuple")
        and len(stmt.value.args) == 2
    ):
        return None
    call = stmt.value
    typed = _last_name(call.func) == "NamedTuple"
    try:
        names = ast.literal_eval(call.args[1]) if not typed else None
    except ValueError:
        return None
    if typed:
        items = call.args[1].elts if isinstance(call.args[1], (ast.List, ast.Tuple)) else None
        if items is None or not all(
            isinstance(i, ast.Tuple) and len(i.elts) == 2 and isinstance(i.elts[0], ast.Constant) for i in items
        ):
            return None
        names = [i.elts[0].value for i in items]  # type: ignore[attr-defined]
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and n.isidentifier() for n in names):
        return None
    defaults: list[ast.expr] = []
    for keyword in call.keywords:
        if keyword.arg == "defaults" and isinstance(keyword.value, (ast.List, ast.Tuple)):
            defaults = list(keyword.value.elts)
        elif keyword.arg in ("rename", "module") or keyword.arg is None or keyword.arg == "defaults":
            if keyword.arg != "module":
                return None  # renamed fields, or defaults not written out
    if len(defaults) > len(names):
        return None
    body: list[ast.stmt] = []
    first_default = len(names) - len(defaults)
    for index, name in enumerate(names):
        value = defaults[index - first_default] if index >= first_default else None
        field = ast.AnnAssign(
            target=ast.Name(id=name, ctx=ast.Store()),
            annotation=ast.Name(id="object", ctx=ast.Load()),
            value=value,
            simple=1,
        )
        body.append(ast.copy_location(field, stmt))
    extra = {"type_params": []} if "type_params" in ast.ClassDef._fields else {}
    made = ast.ClassDef(
        name=stmt.targets[0].id,
        bases=[ast.copy_location(ast.Name(id="NamedTuple", ctx=ast.Load()), stmt)],
        keywords=[],
        body=body or [ast.copy_location(ast.Pass(), stmt)],
        decorator_list=[],
        **extra,
    )
    return ast.fix_missing_locations(ast.copy_location(made, stmt))


# -- the parts ---------------------------------------------------------------------


def _own_fields(cls: ast.ClassDef, kind: str) -> list[Field] | None:
    """The fields the class's own body declares (see `Field`)."""
    options = _options(cls)
    kw_only = options.get("kw_only") is True
    if kind == "attrs" and _default_methods(cls):
        return None  # `@x.default def _x(self): ...`: a default a method computes
    auto = options.get("auto_attribs")
    if kind == "attrs" and auto is None:
        decorated = _last_name(
            next(d.func if isinstance(d, ast.Call) else d for d in cls.decorator_list if _decorator_kind(d) == "attrs")
        )
        if decorated in ("s", "attrs"):
            auto = False  # `@attr.s`: only `attr.ib()` names are fields
        else:  # `@define`: annotated names, unless an unannotated `x = field()` says otherwise
            auto = not any(isinstance(s, ast.Assign) and _field_call(s.value) is not None for s in cls.body)
    out: list[Field] = []
    keyword_only = kw_only
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            name, value, annotation = stmt.target.id, stmt.value, stmt.annotation
            if _annotation_named(annotation, "ClassVar"):
                continue
            if _annotation_named(annotation, "KW_ONLY"):
                keyword_only = True  # `_: KW_ONLY`: the fields after it are keyword-only
                continue
            if kind == "attrs" and not auto and _field_call(value) is None:
                continue  # a class attribute of `@attr.s`, no field
            initvar = kind == "dataclass" and _annotation_named(annotation, "InitVar")
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            if kind != "attrs" or _field_call(stmt.value) is None:
                continue  # a class attribute, no field
            name, value, initvar = stmt.targets[0].id, stmt.value, False
        else:
            continue
        field = _field(name, value, kind, keyword_only, initvar)
        if field is None:
            return None
        out.append(field)
    return out


def _field(name: str, value: ast.expr | None, kind: str, keyword_only: bool, initvar: bool) -> Field | None:
    """One field from its declaration (`name: T = value`, `name = attr.ib(...)`)."""
    param = name.lstrip("_") if kind == "attrs" else name
    call = _field_call(value) if kind != "namedtuple" else None
    if call is None:
        default = value
        if kind == "attrs" and _factory(value) is not None:
            default = _factory(value)
        return Field(name, param, default, kw_only=keyword_only, initvar=initvar)
    if call.args and kind == "dataclass":
        return None  # `field(...)` takes keywords only
    given = {k.arg: k.value for k in call.keywords if k.arg is not None}
    if any(k.arg is None for k in call.keywords):
        return None
    default: ast.expr | None = given.get("default")
    if kind == "attrs" and call.args:
        default = call.args[0]  # `attr.ib(v)`: the default
    if default is not None and kind == "attrs" and _factory(default) is not None:
        default = _factory(default)
    factory = given.get("default_factory", given.get("factory"))
    if factory is not None:
        default = ast.copy_location(ast.Call(func=factory, args=[], keywords=[]), factory)
    init = given.get("init")
    keyword = given.get("kw_only")
    alias = given.get("alias")
    if alias is not None:
        if not (isinstance(alias, ast.Constant) and isinstance(alias.value, str)):
            return None
        param = alias.value
    for flag in (init, keyword):
        if flag is not None and not (isinstance(flag, ast.Constant) and isinstance(flag.value, bool)):
            return None  # `init=INIT`: whether it is a parameter is not told
    return Field(
        name,
        param,
        default,
        init=init is None or bool(init.value),  # type: ignore[attr-defined]
        kw_only=keyword_only if keyword is None else bool(keyword.value),  # type: ignore[attr-defined]
        initvar=initvar,
        converter=given.get("converter") if kind == "attrs" else None,
    )


def _written(cls: ast.ClassDef, fields: list[Field], post: ast.FunctionDef | None) -> ast.FunctionDef | None:
    """The `__init__` itself: its signature, a `self.name = param` per field (the
    converter applied), a default set for the fields not in `__init__`, then the
    body of `__post_init__`, its parameters bound to the `InitVar`s."""
    positional = [f for f in fields if f.init and not f.kw_only]
    keyword = [f for f in fields if f.init and f.kw_only]
    seen_default = False
    for each in positional:
        if each.default is None and seen_default:
            return None  # a field without a default after one with: Python refuses the class
        seen_default = seen_default or each.default is not None
    if len({f.param for f in positional + keyword}) != len(positional + keyword):
        return None

    def arg(name: str) -> ast.arg:
        return ast.arg(arg=name, annotation=None)

    def here(node: ast.AST) -> ast.AST:
        return ast.copy_location(node, cls)

    body: list[ast.stmt] = []
    for each in fields:
        if each.initvar:
            continue
        if each.init:
            value: ast.expr = ast.Name(id=each.param, ctx=ast.Load())
            if each.converter is not None:
                value = ast.Call(func=each.converter, args=[value], keywords=[])
        elif each.default is not None:
            value = each.default
        else:
            continue  # `field(init=False)` without a default: not set until `__post_init__` sets it
        target = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=each.name, ctx=ast.Store())
        body.append(here(ast.Assign(targets=[target], value=value)))  # type: ignore[arg-type]
    if post is not None:
        given = post.args.posonlyargs + post.args.args
        if given[:1] == [] or given[0].arg != "self" or post.args.vararg or post.args.kwarg or post.args.kwonlyargs:
            return None
        initvars = [f for f in fields if f.initvar]
        if len(given) - 1 != len(initvars):
            return None  # Python hands `__post_init__` the InitVars in order: a TypeError otherwise
        for name, each in zip((a.arg for a in given[1:]), initvars):
            body.append(
                here(
                    ast.Assign(
                        targets=[ast.Name(id=name, ctx=ast.Store())], value=ast.Name(id=each.param, ctx=ast.Load())
                    )
                )
            )  # type: ignore[arg-type]
        for stmt in post.body:
            if isinstance(stmt, ast.Return):
                break  # what follows a `return` of `__post_init__` does not run
            body.append(_SetAttr().visit(copy.deepcopy(stmt)))
    if not body:
        body = [here(ast.Pass())]  # type: ignore[list-item]
    defaults = [f.default for f in positional if f.default is not None]
    args = ast.arguments(
        posonlyargs=[],
        args=[arg("self"), *(arg(f.param) for f in positional)],
        vararg=None,
        kwonlyargs=[arg(f.param) for f in keyword],
        kw_defaults=[f.default for f in keyword],
        kwarg=None,
        defaults=defaults,
    )
    extra = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}
    fn = ast.FunctionDef(name="__init__", args=args, body=body, decorator_list=[], returns=None, **extra)
    fn = ast.copy_location(fn, cls)
    fn.col_offset = cls.col_offset + 1  # not the class's own place (`resolver.frame` names a function by it)
    return ast.fix_missing_locations(fn)


class _SetAttr(ast.NodeTransformer):
    """`object.__setattr__(self, "fqn", v)` (how a frozen record sets a field in
    `__post_init__`) as the `self.fqn = v` it does."""

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        call = node.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "__setattr__"
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "object"
            and len(call.args) == 3
            and not call.keywords
            and isinstance(call.args[0], ast.Name)
            and call.args[0].id == "self"
            and isinstance(call.args[1], ast.Constant)
            and isinstance(call.args[1].value, str)
        ):
            target = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=call.args[1].value, ctx=ast.Store())
            return ast.copy_location(ast.Assign(targets=[target], value=call.args[2]), node)
        return node


def _post_init(cls: ast.ClassDef, kind: str) -> ast.FunctionDef | bool:
    """The class's own `__post_init__` (False: one this reading does not follow, a
    decorated or async one, or one that sets attributes by names it computes)."""
    name = _POST_INIT.get(kind)
    found = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name]
    if not found:
        return True
    post = found[-1]
    if isinstance(post, ast.AsyncFunctionDef) or post.decorator_list:
        return False
    for node in ast.walk(post):
        if isinstance(node, ast.Name) and node.id == "setattr":
            return False
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return False
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__setattr__"
            and not (len(node.args) == 3 and isinstance(node.args[1], ast.Constant))
        ):
            return False
    return post


def _options(cls: ast.ClassDef) -> dict[str, object]:
    """The literal keywords of the class's record decorator (`frozen=True`, `init=False`)."""
    for decorator in cls.decorator_list:
        if isinstance(decorator, ast.Call) and _decorator_kind(decorator) is not None:
            out: dict[str, object] = {}
            for keyword in decorator.keywords:
                if keyword.arg is not None and isinstance(keyword.value, ast.Constant):
                    out[keyword.arg] = keyword.value.value
                elif keyword.arg in ("init", "kw_only", "auto_attribs"):
                    out[keyword.arg] = None  # not told
            return out
    return {}


def _field_call(value: ast.expr | None) -> ast.Call | None:
    """`field(...)`, `dataclasses.field(...)`, `attr.ib(...)`, `attrs.field(...)`."""
    if isinstance(value, ast.Call) and _last_name(value.func) in _FIELD_CALLS:
        return value
    return None


def _factory(value: ast.expr | None) -> ast.expr | None:
    """`attr.Factory(list)` as a default: the call of the factory made at each construction."""
    if isinstance(value, ast.Call) and _last_name(value.func) == "Factory" and len(value.args) == 1:
        if value.keywords:
            return None
        return ast.copy_location(ast.Call(func=value.args[0], args=[], keywords=[]), value)
    return None


def _default_methods(cls: ast.ClassDef) -> bool:
    """A method decorated `@x.default` (attrs): a field whose default it computes."""
    return any(
        isinstance(s, ast.FunctionDef)
        and any(isinstance(d, ast.Attribute) and d.attr == "default" for d in s.decorator_list)
        for s in cls.body
    )


def _annotation_named(annotation: ast.expr, name: str) -> bool:
    """`ClassVar`, `ClassVar[str]`, `typing.ClassVar[str]`, a string `"ClassVar[str]"`."""
    if isinstance(annotation, ast.Subscript):
        annotation = annotation.value
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.split("[")[0].split(".")[-1] == name
    return _last_name(annotation) == name


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _owner_in(node: ast.expr, modules: frozenset[str]) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
