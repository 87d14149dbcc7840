"""Narrowing at a test: below `if t is None: raise`, `t` is no longer None, and the
branch an `if` takes sees only the values its test lets through. A name that is one
of several values (a loop that may find none, a `try` with a `None` fallback) must
not give a write on `none.gold.t` beside the real tables. Each case has a near miss
where the test cannot tell, and every alternative stays."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def tables(code: str) -> list[tuple[int, str | None]]:
    result = analyze_source("job.py", ".py", code)
    return sorted({(i.location.line, i.table.name if i.table else None) for i in result.intents})


SEARCH = """
catalog = None
for c in ["prod_cat", "dev_cat"]:
    try:
        spark.sql(f"USE CATALOG {c}")
        catalog = c
        break
    except Exception:
        pass
{guard}
spark.sql(f"MERGE INTO {catalog}.gold.scores t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")
"""

FOUND = ["dev_cat.gold.scores", "prod_cat.gold.scores"]
WITH_NONE = ["dev_cat.gold.scores", "none.gold.scores", "prod_cat.gold.scores"]


def search(guard: str) -> list[str | None]:
    return sorted(name for _, name in tables(SEARCH.replace("{guard}", guard)))


@pytest.mark.parametrize(
    "guard",
    [
        'if catalog is None:\n    raise RuntimeError("no catalog")',
        'if not catalog:\n    raise RuntimeError("no catalog")',
        "if catalog is None:\n    sys.exit(1)",
        'if catalog is None:\n    dbutils.notebook.exit("no catalog")',
        "assert catalog is not None",
        "assert catalog",
        'if catalog is not None:\n    pass\nelse:\n    raise RuntimeError("no catalog")',
    ],
)
def test_a_test_that_leaves_narrows_the_name_below_it(guard: str) -> None:
    assert search(guard) == FOUND


@pytest.mark.parametrize(
    "guard",
    [
        "pass",  # no test
        'if catalog is None:\n    print("no catalog")',  # the branch goes on
        "if check(catalog):\n    raise RuntimeError()",  # a call: not read once per value
        'if catalog is None and dbutils.widgets.get("strict") == "1":\n    raise RuntimeError()',
        "if catalog is None:\n    log(1)",  # not a call that ends the run
    ],
)
def test_a_test_that_cannot_tell_keeps_every_value(guard: str) -> None:
    assert search(guard) == WITH_NONE


BRANCH = """
env = "prod" if dbutils.widgets.get("p") == "1" else "dev"
if env == "prod":
    spark.sql(f"DELETE FROM {env}_cat.ops.runs WHERE d < current_date()")
else:
    spark.sql(f"OPTIMIZE {env}_cat.ops.runs")
"""


def test_each_branch_sees_the_values_its_test_lets_through() -> None:
    assert tables(BRANCH) == [(4, "prod_cat.ops.runs"), (6, "dev_cat.ops.runs")]


def test_a_branch_test_on_another_name_narrows_nothing() -> None:
    code = BRANCH.replace('if env == "prod":', 'if dbutils.widgets.get("q") == "prod":')
    assert tables(code) == [
        (4, "dev_cat.ops.runs"),
        (4, "prod_cat.ops.runs"),
        (6, "dev_cat.ops.runs"),
        (6, "prod_cat.ops.runs"),
    ]


def test_an_elif_chain_narrows_each_branch_by_the_tests_before_it() -> None:
    code = (
        'env = dbutils.widgets.get("e")\n'
        'env = "a" if env == "1" else ("b" if env == "2" else "c")\n'
        'if env == "a":\n'
        '    t = "main.x.one"\n'
        'elif env == "b":\n'
        '    t = f"main.x.{env}"\n'
        "else:\n"
        '    t = f"main.y.{env}"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert tables(code) == [(9, "main.x.b"), (9, "main.x.one"), (9, "main.y.c")]


@pytest.mark.parametrize("exit_call", ['dbutils.notebook.exit("done")', "sys.exit(0)", "quit()"])
def test_an_exit_call_at_the_top_level_ends_the_notebook_with_one_note(exit_call: str) -> None:
    result = analyze_source("job.py", ".py", f'{exit_call}\nspark.sql("DELETE FROM main.a.t")\n')
    assert not result.intents
    assert [d.rule for d in result.diagnostics if "never runs" in d.message] == ["DL001"]
