"""Narrowing at a test: the values a name may hold on one way out of an `if`.

After `if catalog is None: raise ...` the code below runs only with a catalog that
is not None, so a name that was one of `None`, `"prod"` and `"dev"` (a loop that may
find none, a `try` whose fallback is `None`) is one of `"prod"` and `"dev"` there;
without this, a write below is read once per alternative and `none.gold.t` is
reported beside the real tables. The same holds inside the branch an `if` takes
(`if env == "prod": ...` sees only `"prod"`) and after an `assert`.

The rule is sound by construction: an alternative is dropped from a way only when
the reader's own truth of the test, with the name holding that alternative alone,
says the way is not taken. Only tests made of names, constants, comparisons, `not`,
`and`/`or` and literal tuples are narrowed (no call is evaluated once per
alternative); a name whose alternatives all fail keeps them all (the way is dead,
which this module does not decide). Each reader gives its own view of values
(`split`: the alternatives, or None for a single value; `rejoin`: the value of a
few alternatives; `truth`: the test's truth with the names as they are now), so the
walker's strings and the evaluator's lattice values narrow alike.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

_SIMPLE = (
    ast.Name,
    ast.Constant,
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
    ast.Tuple,
    ast.List,
    ast.Set,
    ast.expr_context,
    ast.cmpop,
    ast.boolop,
    ast.Not,
)

_MISSING = object()


def tested_names(test: ast.expr) -> list[str]:
    """The names a test reads, in order, when the test is made only of names,
    constants, comparisons, `not`, `and`/`or` and literal collections; else none."""
    names: list[str] = []
    for node in ast.walk(test):
        if not isinstance(node, _SIMPLE):
            return []
        if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
            return []
        if isinstance(node, ast.Name) and node.id not in names:
            names.append(node.id)
    return names


def may_narrow(
    tests: list[ast.expr], env: dict[str, object], split: Callable[[object], tuple[object, ...] | None]
) -> bool:
    """Whether a test of `tests` reads a name that holds alternatives in `env`: the
    only tests `narrow` can narrow by (an `if` chain of others reads no way apart)."""
    return any(split(env.get(name)) for test in tests for name in tested_names(test))


def narrow(
    env: dict[str, object],
    conditions: list[tuple[ast.expr, bool]],
    truth: Callable[[ast.expr], bool | None],
    split: Callable[[object], tuple[object, ...] | None],
    rejoin: Callable[[list[object]], object],
) -> None:
    """Narrow `env` in place to the way where each test of `conditions` has its
    truth: each name holding alternatives keeps those for which `truth` (asked with
    the name holding that alternative alone) is the wanted truth or not known."""
    for test, wanted in conditions:
        for name in tested_names(test):
            held = env.get(name, _MISSING)
            if held is _MISSING:
                continue
            alternatives = split(held)
            if not alternatives:
                continue
            kept: list[object] = []
            try:
                for alternative in alternatives:
                    env[name] = alternative
                    told = truth(test)
                    if told is None or told is wanted:
                        kept.append(alternative)
            finally:
                env[name] = held
            if kept and len(kept) < len(alternatives):
                env[name] = rejoin(kept)
