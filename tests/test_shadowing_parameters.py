"""A name bound by an inner scope -- a function's parameter, a lambda's parameter, a
comprehension's or a loop's variable -- hides a module literal of the same name:
`TABLE = "main.s.module"` then `lambda TABLE: spark.sql(f"DELETE FROM {TABLE}")`
writes what the lambda is given, never the module's table. Where the inner scope
binds another name, the module's literal is read as before."""

from __future__ import annotations

import pytest

MODULE = 'import sys\n\nTABLE = "main.s.module"\n\n\n'


def tables(result) -> list[str]:
    return sorted(
        "?" if i.table is None or "unresolved" in {f.value for f in i.flags} else i.table.name for i in result.intents
    )


@pytest.mark.parametrize(
    "code",
    [
        # a lambda in a function, called there
        'def run(x):\n    f = lambda TABLE: spark.sql(f"DELETE FROM {TABLE} WHERE 1=1")\n    f(x)\n\n\nrun(sys.argv[1])\n',
        # a lambda at the top level, bound to a name and called
        'f = lambda TABLE: spark.sql(f"DELETE FROM {TABLE} WHERE 1=1")\nf(sys.argv[1])\n',
        # a lambda's keyword-only and star parameters too
        'f = lambda *, TABLE: spark.sql(f"DELETE FROM {TABLE} WHERE 1=1")\nf(TABLE=sys.argv[1])\n',
        # a function's parameter, the function called with a value only a run knows
        'def purge(TABLE):\n    spark.sql(f"DELETE FROM {TABLE} WHERE 1=1")\n\n\npurge(sys.argv[1])\n',
        # a comprehension's variable
        '[spark.sql(f"DELETE FROM {TABLE} WHERE 1=1") for TABLE in sys.argv[1:]]\n',
    ],
)
def test_an_inner_binding_hides_the_module_literal(lint, code):
    assert tables(lint({"job.py": MODULE + code})) == ["?"]


@pytest.mark.parametrize(
    "code",
    [
        'f = lambda other: spark.sql(f"DELETE FROM {TABLE} WHERE 1=1")\nf(sys.argv[1])\n',
        'f = lambda: spark.sql(f"DELETE FROM {TABLE} WHERE 1=1")\nf()\n',
        'def purge(other):\n    spark.sql(f"DELETE FROM {TABLE} WHERE 1=1")\n\n\npurge(sys.argv[1])\n',
    ],
)
def test_the_module_literal_is_read_where_nothing_hides_it(lint, code):
    assert tables(lint({"job.py": MODULE + code})) == ["main.s.module"]
