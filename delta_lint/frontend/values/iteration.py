"""Loops and comprehensions over collections the code states.

Job code writes one table per item of a collection it spells out: `for schema,
table in TABLES:` over a list of tuples, `for i, t in enumerate(TABLES)`, `for t, q
in zip(TABLES, QUERIES)`, `for t in sorted(S)`, `[spark.sql(s) for s in STATEMENTS]`,
`list(map(spark.sql, STATEMENTS))`. The front end holds strings, lists of strings
and dicts (`pyvalues`); a list of tuples, a set or the pairs `zip` gives have no
form there. Such a collection is held as the value layer's plain value
(`Collection`), read only where a loop runs over it: the evaluator
(`Evaluator.items`) tells the items, `rows` binds each item to the loop's target
(tuples unpacked, nested ones too), and `as_loop` reads a comprehension or `map`
whose items write as the `for` loop Python runs. A collection that is one of a few
(`if`/`else`) is read once per collection; one not known item by item (a table's
rows, a parameter no caller gives) is left to the walker's reading of a loop of
unknown turns.
"""

from __future__ import annotations

import ast

from delta_lint.frontend.pyvalues import Str, from_plain
from delta_lint.frontend.values import brains
from delta_lint.frontend.values.evaluator import MAX_LOOP
from delta_lint.frontend.values.lattice import Collection, OneOf, Unknown

# one turn's bindings: each name the target binds, with what it holds (None: not known)
Row = dict[str, object]


def collection_of(value: object) -> Collection | None:
    """A plain value the evaluator gives as a `Collection`, when it is one (or one
    of a few) of lists, tuples, dicts or sets."""
    alts = value.values if type(value) is OneOf else (value,)
    if alts and all(isinstance(a, (list, tuple, dict)) for a in alts):
        return Collection(value)
    return None


def held_item(value: object) -> object:
    """What a name bound to one item holds: a string, template or scalar as a `Str`,
    a dict as a document, a list of strings as one; any other collection as a
    `Collection`; None when it is not known."""
    held = from_plain(value)
    if held is not None:
        return held
    return collection_of(value)


def bind(target: ast.expr, item: object, row: Row) -> bool:
    """Bind `item` to a loop's `target` as Python unpacks it (`schema, (table, key)`,
    `first, *rest`); False where this reading does not follow the target (an
    attribute, a subscript) or Python would raise (a tuple of another length)."""
    if isinstance(target, ast.Name):
        row[target.id] = held_item(item)
        return True
    if not isinstance(target, (ast.Tuple, ast.List)):
        return False
    if not isinstance(item, (list, tuple)) or isinstance(item, (dict, str)):
        return False
    starred = [i for i, t in enumerate(target.elts) if isinstance(t, ast.Starred)]
    if len(starred) > 1:
        return False
    elts = target.elts
    if not starred:
        if len(item) != len(elts):
            return False
        return all(bind(t, v, row) for t, v in zip(elts, item))
    at = starred[0]
    after = len(elts) - at - 1
    if len(item) < len(elts) - 1:
        return False
    rest = list(item[at : len(item) - after])
    heads = zip(elts[:at], item[:at])
    tails = zip(elts[at + 1 :], item[len(item) - after :])
    return all(bind(t, v, row) for t, v in [*heads, *tails]) and bind(elts[at].value, rest, row)  # type: ignore[attr-defined]


def _kind(held: object) -> str:
    """Text, another scalar (a number, a flag, None), or a collection or document."""
    if isinstance(held, Str):
        return "scalar" if held.scalar else "text"
    return "none" if held is None else "other"


def rows(target: ast.expr, items: list[object]) -> list[Row] | None:
    """Each turn's bindings of `target` over `items`; None when one item cannot be
    unpacked into it (the loop raises there, or the target is not followed), or a
    name holds values of different kinds on different turns (`["main.s.a", 3]`: a
    list that is not all names is not read as names)."""
    out: list[Row] = []
    for item in items:
        row: Row = {}
        if not bind(target, item, row):
            return None
        out.append(row)
    for name in out[0] if out else ():
        if len({_kind(row[name]) for row in out} - {"none"}) > 1:
            return None
    return out


def target_names(target: ast.expr) -> list[str]:
    """Every name a loop's target binds."""
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def iterable_names(node: ast.expr) -> set[str]:
    """The names an iterable expression reads."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def free_names(node: ast.expr) -> set[str]:
    """The names an expression reads that it does not bind itself (a comprehension's
    targets) and does not call (`sorted`, `zip`): those a value must come from."""
    nodes = list(ast.walk(node))
    bound = {
        n.id for g in nodes if isinstance(g, ast.comprehension) for n in ast.walk(g.target) if isinstance(n, ast.Name)
    }
    called = {id(c.func) for c in nodes if isinstance(c, ast.Call)}
    return {
        n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in called
    } - bound


def may_state(node: ast.expr) -> bool:
    """Whether an expression bound to a name may be a collection the code states: a
    literal container, a comprehension, or a call of an iteration builtin (the only
    expressions `Collection` is tried for, so that other assignments cost nothing)."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return len(node.elts) <= MAX_LOOP  # a longer literal is never read item by item: not evaluated
    if isinstance(node, ast.Dict):
        return len(node.keys) <= MAX_LOOP
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp)):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in brains.ITERATION_BUILTINS


def _comprehension_loop(node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> ast.For | None:
    """`[E for T in I if C]` as the loop it runs: `for T in I: if C: E` (nested
    generators nested loops); None for an async one."""
    if any(g.is_async for g in node.generators):
        return None
    if isinstance(node, ast.DictComp):
        body: list[ast.stmt] = [ast.Expr(ast.Tuple([node.key, node.value], ast.Load()))]
    else:
        body = [ast.Expr(node.elt)]
    for generator in reversed(node.generators):
        for test in reversed(generator.ifs):
            body = [ast.If(test, body, [])]
        body = [ast.For(generator.target, generator.iter, body, [])]
    loop = body[0]
    for made in ast.walk(loop):
        if not hasattr(made, "lineno") or getattr(made, "lineno", None) is None:
            ast.copy_location(made, node)
    return loop  # type: ignore[return-value]


def _writes(node: ast.expr) -> bool:
    """Whether an expression calls anything (a write needs a call); comprehensions that
    only build values are read as values, not as loops."""
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


def _concurrent(node: ast.expr) -> bool:
    """Whether an expression hands work to a thread or a pool (`pool.submit(f, t)`,
    `Thread(target=f)`): its calls run at the same time, as `frontend.pools` reads them."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            func = call.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in brains.CONCURRENT_CALLS:
                return True
    return False


def may_loop(node: ast.expr) -> bool:
    """Whether a statement's expression may be a comprehension or `map` that runs a
    loop (a cheap test made before `as_loop`, on every statement)."""
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp)):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in brains.CONSUMERS


def as_loop(node: ast.expr, shadowed: set[str] | frozenset[str] = frozenset()) -> ast.For | None:
    """The loop a comprehension or `map` statement runs, when its items call
    something: `[spark.sql(s) for s in S]`, `{t: df.write.saveAsTable(t) for t in T}`,
    `list(map(spark.sql, S))`, `list(map(lambda t: w(t), T))`, `sorted(f(x) for x
    in X)`. A bare generator or `map` runs nothing, so is no loop; `shadowed` are
    builtins the code defines itself. Calls handed to threads or pools are not one
    after another: such a comprehension is left to the pool reader."""
    loop = _as_loop(node, shadowed)
    return None if loop is None or _concurrent(loop) else loop


def _as_loop(node: ast.expr, shadowed: set[str] | frozenset[str]) -> ast.For | None:
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp)):
        inner = [node.elt] if not isinstance(node, ast.DictComp) else [node.key, node.value]
        return _comprehension_loop(node) if any(_writes(e) for e in inner) else None
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in brains.CONSUMERS
        and node.func.id not in shadowed
        and len(node.args) == 1
    ):
        return None
    consumed = node.args[0]
    if isinstance(consumed, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return _comprehension_loop(consumed) if _writes(consumed.elt) else None
    if (
        isinstance(consumed, ast.Call)
        and isinstance(consumed.func, ast.Name)
        and consumed.func.id in brains.MAPPERS
        and consumed.func.id not in shadowed
        and len(consumed.args) == 2
        and not consumed.keywords
    ):
        function, iterable = consumed.args
        if isinstance(function, ast.Lambda):
            arguments = function.args
            if arguments.vararg or arguments.kwarg or arguments.kwonlyargs or len(arguments.args) != 1:
                return None
            target: ast.expr = ast.Name(arguments.args[0].arg, ast.Store())
            called = function.body
        else:
            target = ast.Name("\u0000item", ast.Store())  # a name no code can read
            called = ast.Call(function, [ast.Name("\u0000item", ast.Load())], [])
        if not _writes(called):
            return None
        generator = ast.comprehension(target, iterable, [], 0)
        return _comprehension_loop(ast.copy_location(ast.GeneratorExp(called, [generator]), consumed))
    return None


def reason(value: object) -> str:
    """Why a loop's collection is not known, for a note."""
    return value.reason if isinstance(value, Unknown) else "a collection not known"
