"""A value function a helper's module imports (`from settings import
fully_qualified_table`), called inside that helper where a job file imports the
helper: it evaluates as the helper's module names it, the same as in one file.
Near misses: a function of the job of the same name is never taken for the
module's, and a part of a module's function's result only a run knows stays a
placeholder."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

SETTINGS = 'def fully_qualified_table(name):\n    return f"main.sales.{name}"\n'

JOB = NOTEBOOK + (
    "from helpers import save\n"
    "\n"
    "\n"
    "def fully_qualified_table(name):\n"
    '    return f"other.place.{name}"\n'
    "\n"
    "\n"
    'save(spark.range(3), "orders")\n'
)


def tables(result) -> list[tuple[int, str | None]]:
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


def test_a_value_function_the_helpers_module_imports_names_the_table(lint):
    helpers = (
        "from settings import fully_qualified_table\n"
        "import settings\n"
        "\n"
        "\n"
        "def save(df, name):\n"
        '    df.write.mode("append").saveAsTable(fully_qualified_table(name))\n'
        '    df.write.mode("append").saveAsTable(settings.fully_qualified_table(name + "_copy"))\n'
    )
    job = NOTEBOOK + 'from helpers import save\n\nsave(spark.range(3), "orders")\n'
    found = lint({"settings.py": SETTINGS, "helpers.py": helpers, "job.py": job})
    assert tables(found) == [(4, "main.sales.orders"), (4, "main.sales.orders_copy")]
    assert not [d for d in found.diagnostics if d.rule == "DL001"]


def test_the_helpers_module_function_wins_over_the_jobs_of_the_same_name(lint):
    helpers = (
        "def fully_qualified_table(name):\n"
        '    return f"main.sales.{name}"\n'
        "\n"
        "\n"
        "def save(df, name):\n"
        '    df.write.mode("append").saveAsTable(fully_qualified_table(name))\n'
    )
    assert tables(lint({"helpers.py": helpers, "job.py": JOB})) == [(9, "main.sales.orders")]


def test_a_module_function_only_a_run_knows_stays_unknown_not_the_jobs(lint):
    helpers = (
        "import os\n"
        "\n"
        "\n"
        "def fully_qualified_table(name):\n"
        '    return os.environ["CATALOG"] + ".sales." + name\n'
        "\n"
        "\n"
        "def save(df, name):\n"
        '    df.write.mode("append").saveAsTable(fully_qualified_table(name))\n'
    )
    found = lint({"helpers.py": helpers, "job.py": JOB})
    [(line, name)] = tables(found)
    # the variable only a run gives is a placeholder beside the known parts, named
    # as the job's own `os.environ["CATALOG"] + ".sales." + name` names it
    assert (line, name) == (9, "{CATALOG}.sales.orders")
    assert [d.rule for d in found.diagnostics] == []
