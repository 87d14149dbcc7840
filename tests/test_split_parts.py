"""A part of a known string split with `split`/`rsplit`: the separator and the most
splits the call gives are Python's (`rsplit("/", 1)[1]` was read as the second of all
the parts, a wrong table), and an argument the reader cannot tell leaves the part
unknown; an empty separator (which Python refuses) was an internal error that lost
the whole file."""

from __future__ import annotations

import pytest

NB = "# Databricks notebook source\n"
PATH = 'path = "/mnt/lake/bronze/orders"\n'


@pytest.mark.parametrize(
    ("expr", "table"),
    [
        ("path.rsplit('/', 1)[1]", "s.orders"),
        ("path.rsplit('/', 1)[-1]", "s.orders"),
        ("path.rsplit('/', maxsplit=2)[1]", "s.bronze"),
        ("path.split('/', 3)[2]", "s.lake"),
        ("'x y  z'.split()[2]", "s.z"),
        ("'a.b.c'.rsplit(sep='.', maxsplit=1)[1]", "s.c"),
        ("'a.b.c'.split('.')[-2]", "s.b"),
    ],
)
def test_a_split_part_is_the_one_python_gives(lint, expr, table):
    result = lint({"job.py": NB + PATH + f"name = {expr}\nspark.sql(f'DELETE FROM s.{{name}} WHERE id < 0')\n"})
    assert [i.table.name for i in result.intents] == [table]


@pytest.mark.parametrize(
    "expr",
    [
        "'a.b'.split('')[0]",  # Python refuses an empty separator
        "path.split('/', n)[1]",  # how many splits only a run knows
        "path.split(sep)[1]",
        "path.split('/', 1, 2)[1]",
    ],
)
def test_a_split_the_reader_cannot_tell_is_unresolved_and_the_file_still_read(lint, expr):
    code = NB + PATH + "n = int(dbutils.widgets.get('n'))\nsep = dbutils.widgets.get('sep')\n"
    code += f"name = {expr}\nspark.sql(f'DELETE FROM s.{{name}} WHERE id < 0')\n"
    code += "spark.sql('DELETE FROM s.other WHERE id < 0')\n"
    result = lint({"job.py": code})
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    names = sorted(i.table.name for i in result.intents)
    assert len(names) == 2 and "s.other" in names
    assert [n for n in names if n != "s.other"][0].startswith("s.{")
