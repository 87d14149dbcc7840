"""Registries of functions: a dict of imported functions or of functions of imported
modules (`{"load_a": load_a.run, ...}`) that a call picks from by a key only a run
knows (`_STEPS[step](catalog=catalog)`)."""

from __future__ import annotations

LOAD = """\
from pyspark.sql import SparkSession


def run(catalog):
    spark = SparkSession.builder.getOrCreate()
    spark.range(5).write.mode("overwrite").saveAsTable(f"{catalog}.sales.TABLE")
"""
MAIN = """\
import sys
from pkg import load_a, load_b

_STEPS = {"load_a": load_a.run, "load_b": load_b.run}


def main():
    step, catalog = sys.argv[1], sys.argv[2]
    CALL
"""


def _files(call: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/load_a.py": LOAD.replace("TABLE", "daily_a"),
        "pkg/load_b.py": LOAD.replace("TABLE", "daily_b"),
        "pkg/main.py": MAIN.replace("CALL", call),
    }


def _writes(result) -> list[tuple[str, str]]:
    return sorted((i.location.path, i.table.name) for i in result.intents if i.table is not None)


def test_functions_of_modules_kept_only_in_a_registry_keep_their_writes(lint):
    result = lint(_files("_STEPS[step](catalog=catalog)"))
    assert [(path, table.split(".", 1)[1]) for path, table in _writes(result)] == [
        ("pkg/load_a.py", "sales.daily_a"),
        ("pkg/load_b.py", "sales.daily_b"),
    ]


def test_a_function_of_a_module_called_directly_is_read_at_its_call(lint):
    # the near miss: `load_a.run` is called, not only kept: its write is the caller's
    result = lint(_files('_STEPS[step](catalog=catalog)\n    load_a.run("main")'))
    assert ("pkg/main.py", "main.sales.daily_a") in _writes(result)
    assert not any(path == "pkg/load_a.py" for path, _ in _writes(result))
    assert ("pkg/load_b.py", "{catalog}.sales.daily_b") in _writes(result)
