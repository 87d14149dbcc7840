"""`values.walker.walk` is `ast.walk` as a list: the same nodes in the same order,
whichever shapes the grammar has. It skips the fields the grammar types as names
and constants, and a class it does not know is walked field by field."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

from delta_lint.frontend.values.walker import walk

EVERY_FORM = textwrap.dedent(
    '''
    import os, sys as system
    from .pkg import (a as b, c)
    from importlib import import_module
    global_name = 1

    @decorator(arg=1)
    async def run(p, /, q: int = 2, *rest, k=None, m, **kw) -> "str":
        global global_name
        def inner():
            nonlocal p
            p = 3
        async with ctx() as (x, y), other:
            async for i in aiter():
                await thing(i)
        yield from gen()
        yield
        return lambda a, *b, c=1, **d: a if b else c

    class Table(Base, metaclass=Meta):
        """doc"""
        x: int = 1
        y: "str"
        def method(self):
            return {**self.__dict__, "k": [v for v in self.values if v], **{}}

    try:
        t = f"{catalog!r:>{width}}.{schema}.{name:{fmt}}"
    except (ValueError, KeyError) as err:
        raise RuntimeError("x") from err
    else:
        del t, u[0], v.w
    finally:
        pass
    while (n := next(it)) is not None and not done or -n < 3:
        if n in {1, 2} and n not in (3,) and a < b <= c:
            break
        elif n:
            continue
        else:
            n += 1; m //= 2; s @= t
    for (i, *j), k in zip(a, b):
        assert i, "message"
    else:
        z = {k: v for k, v in d.items() if k}, {e for e in s}, (g for g in h), x[1:2:3], x[::], x[a, b:c]
    match command:
        case ["go", direction] | ["move", direction] if direction:
            pass
        case {"key": value, **others}:
            pass
        case Point(x=0, y=yy) | Point(1, 2):
            pass
        case [1, 2, *tail]:
            pass
        case None | True | -1 | 1.5 | "s" | b"b" | 1 + 2j:
            pass
        case _:
            pass
    with open("f") as f: spark.sql(f.read())
    '''
)


def _same(tree: ast.AST) -> None:
    expected = list(ast.walk(tree))
    got = walk(tree)
    assert len(got) == len(expected)
    assert all(a is b for a, b in zip(got, expected))


def test_every_form_of_the_grammar_in_ast_walk_order() -> None:
    _same(ast.parse(EVERY_FORM, type_comments=True))
    _same(ast.parse("x: int = 1  # type: ignore[x]\n", type_comments=True))
    _same(ast.parse("1 + x", mode="eval"))
    _same(ast.parse("(int, str) -> None", mode="func_type"))


@pytest.mark.skipif(sys.version_info < (3, 11), reason="`except*` is Python 3.11's")
def test_except_star() -> None:
    _same(ast.parse("try:\n    pass\nexcept* ValueError as e:\n    x = e\n"))


def test_large_sources_in_ast_walk_order() -> None:
    """Real modules, read as text: the standard library's own (no code is run)."""
    for name in ("ast.py", "dataclasses.py", "typing.py", "argparse.py"):
        path = Path(ast.__file__).with_name(name)
        _same(ast.parse(path.read_text(encoding="utf-8")))


def test_a_subtree_and_built_nodes() -> None:
    tree = ast.parse(EVERY_FORM)
    for node in ast.walk(tree):
        if isinstance(node, (ast.expr, ast.stmt)):
            _same(node)
    built = ast.Call(func=ast.Name("f", ast.Load()), args=[], keywords=[])  # no positions, no list filled
    _same(built)
    _same(ast.keyword(arg=None, value=ast.Constant(1)))  # `**kwargs` has no name


class Shape(ast.AST):
    """A class the grammar does not have, with a node in a field a grammar class
    holds a name in: walked field by field, the node found."""

    _fields = ("name", "body")


def test_a_class_not_of_the_grammar_is_walked_field_by_field() -> None:
    inner = ast.Name("t", ast.Load())
    shape = Shape()
    shape.name = inner
    shape.body = ast.Constant("x")
    got = walk(shape)
    assert inner in got and shape.body in got
    _same(shape)


def test_a_name_field_of_the_grammar_holds_no_node() -> None:
    """The near miss: `alias.name` and `FunctionDef.name` are strings, never walked into."""
    tree = ast.parse("import a.b as c\ndef f(): pass\n")
    assert not any(isinstance(n, str) for n in walk(tree))
    assert [type(n).__name__ for n in walk(tree)] == [type(n).__name__ for n in ast.walk(tree)]
