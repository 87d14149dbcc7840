"""The builtins that build or walk a collection (`enumerate`, `zip`, `sorted`,
`reversed`, `list`, `tuple`, `set`, `dict`) and set literals and comprehensions, as
the value evaluator reads them: what Python gives where the order is Python's own,
the same items in no known order where it is not (a set), unknown where only a run
could tell (`enumerate` of a set, `sorted(..., key=...)` of rows)."""

from __future__ import annotations

import ast

from delta_lint.frontend.values.evaluator import Evaluator, Module
from delta_lint.frontend.values.lattice import Template, Unknown, Unordered
from tests.test_pyeval_differential import check


def _value(source: str, *args: object) -> object:
    return Evaluator(Module.of(ast.parse(source), "src/m.py"), {}).call("f", list(args), {})


def test_ordered_builtins_give_what_python_gives():
    programs = [
        "def f(xs):\n    return [f'{i}:{t}' for i, t in enumerate(xs)]",
        "def f(xs):\n    return list(enumerate(xs, 1))",
        "def f(xs):\n    return [f'{a}.{b}' for a, b in zip(xs, reversed(xs))]",
        "def f(xs):\n    return sorted(xs)",
        "def f(xs):\n    return tuple(sorted(t.upper() for t in xs))",
        "def f(xs):\n    return dict(zip(xs, range(3)))",
        "def f(xs):\n    return list(dict(a=1, b=2).items())",
        "def f(xs):\n    return [k for k in dict(zip(xs, xs))]",
        "def f(xs):\n    return sorted(set(xs))",
        "def f(xs):\n    return list(zip(xs, xs[1:], strict=False))",
    ]
    for source in programs:
        check(source, [["s.b", "s.a", "s.c"]], {}, say=lambda _: None)


def test_where_python_raises_the_value_is_unknown():
    for source in (
        "def f(xs):\n    return list(zip(xs, xs[1:], strict=True))",
        "def f(xs):\n    return list(5)",
        "def f(xs):\n    return {[1], [2]}",
    ):
        check(source, [["s.a", "s.b"]], {}, say=lambda _: None)
        assert isinstance(_value(source, ["s.a", "s.b"]), Unknown), source


def test_a_set_keeps_its_items_in_no_known_order():
    got = _value("def f(xs):\n    return {t for t in xs}", ["s.b", "s.a", "s.b"])
    assert type(got) is Unordered and sorted(got) == ["s.a", "s.b"]
    literal = _value("def f():\n    return {'s.b', 's.a'}")
    assert type(literal) is Unordered and set(literal) == {"s.a", "s.b"}
    # sorted of strings is Python's order again; of templates or with a key, not known
    assert _value("def f():\n    return sorted({'s.b', 's.a'})") == ["s.a", "s.b"]
    keyed = _value("def f(xs):\n    return sorted(xs, key=len)", ["s.bb", "s.a"])
    assert type(keyed) is Unordered and set(keyed) == {"s.a", "s.bb"}
    # a loop's collection keeps templates as items (`Evaluator.collection`)
    reader = Evaluator(Module.of(ast.parse(""), "src/m.py"), {})
    node = ast.parse("sorted([env + '.b', env + '.a'])", mode="eval").body
    templated = reader.collection(node, {"env": Template("{env}", ("env",))})
    assert type(templated) is Unordered and len(templated) == 2
    assert reader.items(node, {"env": Template("{env}", ("env",))}) == [(list(templated), False)]


def test_a_pairing_only_a_run_orders_is_unknown():
    assert isinstance(_value("def f(xs):\n    return list(enumerate(set(xs)))", ["a", "b"]), Unknown)
    assert isinstance(_value("def f(xs):\n    return list(zip(set(xs), xs))", ["a", "b"]), Unknown)
    assert isinstance(_value("def f(xs):\n    return sorted(xs, key=lambda r: r[1])", [("a", 2)]), Unknown)


def test_starred_parts_of_a_display_spread_their_items():
    for source in (
        "def f(xs):\n    return [*xs, 's.z', *reversed(xs)]",
        "def f(xs):\n    return (*enumerate(xs),)",
        "def f(xs):\n    return sorted({*xs, 's.a'})",
    ):
        check(source, [["s.b", "s.a"]], {}, say=lambda _: None)
        assert not isinstance(_value(source, ["s.b", "s.a"]), Unknown), source
    # a set spread into a list would fix an order Python does not promise
    assert isinstance(_value("def f(xs):\n    return [*set(xs)]", ["a", "b"]), Unknown)
