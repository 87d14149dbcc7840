"""`Scopes.every` and `Scopes.at` give the names at a statement each time the reading
asked reaches it. The evaluator also reads the module's top level on its own, for the
value of a module name a reading needs before its own reading binds it (a name read
in a `with` block and imported there): that is not a time a way reaches the
statement, and its names (none bound yet) must not join the reading's. (An Airflow
DAG imports its operators inside its `with DAG(...)` block.)"""

from __future__ import annotations

import ast

from delta_lint.frontend.values.budget import Budget
from delta_lint.frontend.values.lattice import Unknown
from delta_lint.frontend.values.scopes import Scopes

SOURCE = """\
from lib import Ctx
ROOT = "/Repos/etl"
with Ctx("x"):
    from operators import Op
    Op.partial(path=f"{ROOT}/load")
"""


def _last_statement_points(source: str) -> tuple[Scopes, ast.stmt, list]:
    tree = ast.parse(source)
    statements = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    reader = Scopes(tree, "dag.py", Budget())
    last = max(statements, key=lambda s: s.lineno)
    return reader, last, reader.every(statements, []).get(id(last), [])


def test_a_statement_of_a_with_block_is_reached_once_with_the_module_s_names():
    reader, last, points = _last_statement_points(SOURCE)
    assert len(points) == 1
    call = last.value  # type: ignore[attr-defined]
    assert reader.value(call.keywords[0].value, points[0]) == "/Repos/etl/load"


def test_a_name_bound_on_some_ways_only_stays_unknown():
    """The near miss: a name the module binds on one way of an `if` only."""
    source = SOURCE.replace('ROOT = "/Repos/etl"', 'if flag():\n    ROOT = "/Repos/etl"')
    reader, last, points = _last_statement_points(source)
    assert len(points) == 1
    call = last.value  # type: ignore[attr-defined]
    assert isinstance(reader.value(call.keywords[0].value, points[0]), Unknown)
