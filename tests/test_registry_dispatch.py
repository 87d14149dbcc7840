"""Registries of functions: a dict of imported functions or of functions of imported
modules (`{"load_a": load_a.run, ...}`) that a call picks from by a key only a run
knows (`_STEPS[step](catalog=catalog)`)."""

from __future__ import annotations

from delta_lint.model import Flag

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


def _flagged(result) -> list[tuple[str, int, str, bool]]:
    """(path, line, table, one of several) of every intent, sorted."""
    return sorted(
        (i.location.path, i.location.line, i.table.name, Flag.ONE_OF in i.flags)
        for i in result.intents
        if i.table is not None
    )


def test_functions_of_modules_kept_only_in_a_registry_keep_their_writes(lint):
    # the registry is handed out (`get_step(step)(...)` elsewhere), not called through here
    files = _files("pass")
    files["pkg/main.py"] += "\n\ndef get_step(step):\n    return _STEPS[step]\n"
    assert _writes(lint(files)) == [
        ("pkg/load_a.py", "{catalog}.sales.daily_a"),
        ("pkg/load_b.py", "{catalog}.sales.daily_b"),
    ]


def test_a_function_of_a_module_called_directly_is_read_at_its_call(lint):
    # the near miss: `load_a.run` is called, not only kept: its write is the caller's
    files = _files('load_a.run("main")')
    files["pkg/main.py"] += "\n\ndef get_step(step):\n    return _STEPS[step]\n"
    assert _writes(lint(files)) == [("pkg/load_b.py", "{catalog}.sales.daily_b"), ("pkg/main.py", "main.sales.daily_a")]


def test_a_call_through_a_registry_is_a_call_of_one_of_its_functions(lint):
    result = lint(_files('_STEPS[sys.argv[1]](catalog="main")'))
    assert _flagged(result) == [
        ("pkg/main.py", 9, "main.sales.daily_a", True),
        ("pkg/main.py", 9, "main.sales.daily_b", True),
    ]


def test_a_call_through_a_registry_by_a_known_key_is_a_call_of_that_function(lint):
    result = lint(_files('_STEPS["load_b"](catalog="main")'))
    assert _flagged(result) == [
        ("pkg/load_a.py", 6, "{catalog}.sales.daily_a", False),  # never called: read as written
        ("pkg/main.py", 9, "main.sales.daily_b", False),
    ]


def test_a_dict_holding_more_than_functions_is_no_registry(lint):
    files = _files('_STEPS[sys.argv[1]](catalog="main")')
    files["pkg/main.py"] = files["pkg/main.py"].replace('"load_b": load_b.run}', '"load_b": load_b.run, "c": "x"}')
    assert _writes(lint(files)) == [
        ("pkg/load_a.py", "{catalog}.sales.daily_a"),
        ("pkg/load_b.py", "{catalog}.sales.daily_b"),
    ]


SAME_FILE = """\
# Databricks notebook source
def load_a(catalog):
    spark.range(5).write.mode("overwrite").saveAsTable(f"{catalog}.sales.daily_a")


def load_b(catalog):
    spark.range(5).write.mode("overwrite").saveAsTable(f"{catalog}.sales.daily_b")


STEPS = {"a": load_a, "b": load_b}
CALL
"""


def test_a_registry_of_the_files_own_functions_is_called_through(lint):
    result = lint({"job.py": SAME_FILE.replace("CALL", 'STEPS[dbutils.widgets.get("step")]("main")')})
    assert _flagged(result) == [("job.py", 11, "main.sales.daily_a", True), ("job.py", 11, "main.sales.daily_b", True)]
    # the near miss: the registry handed out, never called through here: the functions as written
    result = lint({"job.py": SAME_FILE.replace("CALL", "run_all(STEPS)")})
    assert _flagged(result) == [
        ("job.py", 3, "{catalog}.sales.daily_a", False),
        ("job.py", 7, "{catalog}.sales.daily_b", False),
    ]


def test_a_key_a_name_holds_reads_every_function_and_a_repeated_key_the_last(lint):
    """`_STEPS[STEP]` with `STEP = "load_a"`: every function counts as called (no
    module keeps its writes), so the call reads each as one of them, never one alone;
    a key written twice in the dict is its last function, as Python keeps it."""
    files = _files('_STEPS[STEP](catalog="main")')
    files["pkg/main.py"] = files["pkg/main.py"].replace("\n\n\ndef main", '\nSTEP = "load_a"\n\n\ndef main')
    tables = [t for _, _, t, _ in _flagged(lint(files))]
    assert "main.sales.daily_b" in tables or "{catalog}.sales.daily_b" in tables, tables
    files = _files('_STEPS["load"](catalog="main")')
    files["pkg/main.py"] = files["pkg/main.py"].replace(
        '{"load_a": load_a.run, "load_b": load_b.run}', '{"load": load_a.run, "load": load_b.run}'
    )
    assert ("pkg/main.py", "main.sales.daily_b") in _writes(lint(files))
