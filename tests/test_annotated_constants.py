"""A module's constants written with a type annotation (`TABLE: Final[str] = "x"`)
are assignments like any other: a value function of another module reading them
gives its table (one annotated constant made the whole function unknown, DL001); an
annotation without a value binds nothing."""

from __future__ import annotations

import pytest

JOB = "# Databricks notebook source\nfrom lib.config import table\nspark.range(1).write.mode('append').saveAsTable(table('{arg}'))\n"


@pytest.mark.parametrize(
    ("config", "arg", "expected"),
    [
        (
            'from typing import Final\nSCHEMA: Final[str] = "bronze"\nORDERS: str = "orders_raw"\n'
            'def table(entity):\n    name = {"orders": ORDERS}[entity]\n    return f"{SCHEMA}.{name}"\n',
            "orders",
            "bronze.orders_raw",
        ),
        (
            'CATALOG: str = "main"\ndef table(name):\n    if name == "x":\n        return f"{CATALOG}.s.{name}"\n'
            '    return f"{CATALOG}.t.{name}"\n',
            "x",
            "main.s.x",
        ),
    ],
)
def test_an_annotated_constant_is_read_by_another_modules_value_function(lint, config, arg, expected):
    result = lint({"lib/__init__.py": "", "lib/config.py": config, "job.py": JOB.format(arg=arg)})
    assert [i.table.name for i in result.intents] == [expected]


def test_an_annotation_without_a_value_binds_nothing(lint):
    config = (
        'CATALOG: str\ndef table(name):\n    if name == "x":\n        return f"{CATALOG}.s.{name}"\n    return name\n'
    )
    result = lint({"lib/__init__.py": "", "lib/config.py": config, "job.py": JOB.format(arg="x")})
    assert [i.table.name.startswith("{") or "{" in i.table.name for i in result.intents] == [True]
