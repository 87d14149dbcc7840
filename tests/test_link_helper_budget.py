"""The helper text one file is given is bounded, with a note where it is cut.

A file is read again with the helpers its imports and `%run`s offer that its code
names, and, in turn, those their text names (`Linker._named_helpers`). A helper
that names many others (a client whose `__init__` makes an object of every API
class, a registry, a dispatch table) makes that closure a whole library: every
example of an SDK that names its client was given megabytes of helper text and
read with it, and a run of the examples took gigabytes and ended in the link
stage. The kind, in three shapes, each with a near miss small enough to be given
whole (its writes found, no note):

- a client class whose `__init__` names every API class;
- a function that calls every handler of a module;
- a `%run` notebook that defines hundreds of functions calling one another.
"""

from __future__ import annotations

import time
import tracemalloc

from delta_lint.link import MAX_HELPER_TEXT

NB = "# Databricks notebook source\n"
CELL = "\n\n# COMMAND ----------\n\n"
VERBS = ("create", "get", "list", "update", "delete")


def _method(verb: str, k: int) -> str:
    return (
        f"    def {verb}(self, name):\n"
        f'        """{verb.capitalize()} one row of the table of API {k}, whatever its name is, for the example."""\n'
        f"        spark.sql(f\"INSERT INTO main.api.t{k}_{verb} VALUES ('{{name}}')\")\n"
    )


def _client(apis: int) -> dict[str, str]:
    """`lib/client.py`: `Client` makes one object of each of `apis` API classes (and
    writes itself, so it is a helper)."""
    classes = "".join(
        f"class Api{k}:\n    def __init__(self, spark):\n        self.spark = spark\n\n"
        + "".join(_method(verb, k) for verb in VERBS)
        + "\n\n"
        for k in range(apis)
    )
    hub = (
        "class Client:\n    def __init__(self, spark):\n"
        + "".join(f"        self.api{k} = Api{k}(spark)\n" for k in range(apis))
        + "\n    def log(self, what):\n        spark.sql(f\"INSERT INTO main.api.calls VALUES ('{what}')\")\n"
    )
    return {"lib/__init__.py": "", "lib/client.py": classes + hub}


def _examples(count: int) -> dict[str, str]:
    return {
        f"examples/ex{n}.py": 'from lib.client import Api3, Client\n\nclient = Client(spark)\nclient.log("ex")\napi = Api3(spark)\n'
        + "".join(f'api.{verb}("x{n}")\n' for verb in VERBS)
        for n in range(count)
    }


def _notes(result) -> list:
    return [f for f in result.findings if f.rule == "DL008" and f.message.startswith("read without")]


def test_examples_of_a_library_whose_client_names_every_api_are_read_within_the_budget(lint):
    files = _client(90) | _examples(2)
    assert len(files["lib/client.py"]) > MAX_HELPER_TEXT
    tracemalloc.start()
    started = time.monotonic()
    try:
        result = lint(files)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 240
    assert peak < 400 * 2**20
    # each example said to be read without some of the helpers its code names
    assert sorted(n.location.path for n in _notes(result)) == sorted(f"examples/ex{n}.py" for n in range(2))
    assert all(f"{MAX_HELPER_TEXT:,} characters" in n.message for n in _notes(result))


def test_a_client_small_enough_is_given_whole_and_its_write_found(lint):
    result = lint(_client(6) | _examples(2))
    assert not _notes(result)
    tables = {(i.location.path, i.table.name) for i in result.intents if i.location.path.startswith("examples")}
    assert tables == {
        (f"examples/ex{n}.py", table)
        for n in range(2)
        for table in ["main.api.calls", *(f"main.api.t3_{verb}" for verb in VERBS)]
    }


def _fan_out(handlers: int) -> dict[str, str]:
    """A module whose `run_all` calls every handler, and a job that calls it."""
    body = "".join(
        f"def handle_{k}(spark):\n"
        f'    """Load the rows of command {k} into its own table, as `run_all` runs every one."""\n'
        f'    spark.sql("INSERT INTO main.cmd.t{k} SELECT * FROM main.raw.source_of_command_{k}")\n\n\n'
        for k in range(handlers)
    )
    run_all = "def run_all(spark):\n" + "".join(f"    handle_{k}(spark)\n" for k in range(handlers))
    return {
        "tasks/__init__.py": "",
        "tasks/steps.py": body + run_all,
        "job.py": "from tasks.steps import run_all\n\nrun_all(spark)\n",
    }


def test_a_function_calling_handlers_past_the_budget_is_cut_with_a_note(lint):
    files = _fan_out(400)
    assert len(files["tasks/steps.py"]) > MAX_HELPER_TEXT
    result = lint(files)
    assert [n.location.path for n in _notes(result)] == ["job.py"]


def test_a_function_calling_a_few_handlers_gives_each_write_and_no_note(lint):
    result = lint(_fan_out(5))
    assert not _notes(result)
    assert sorted(i.table.name for i in result.intents if i.location.path == "job.py") == [
        f"main.cmd.t{k}" for k in range(5)
    ]


def _common(functions: int) -> dict[str, str]:
    """A `%run` notebook of functions each calling the next, and a notebook calling the first."""
    body = "".join(
        f"def step_{k}(spark):\n"
        f'    """Step {k} of the chain of the common notebook: its own table, then the next step."""\n'
        f'    spark.sql("INSERT INTO main.steps.t{k} SELECT * FROM main.raw.steps_source_{k}")\n'
        + (f"    step_{k + 1}(spark)\n" if k + 1 < functions else "")
        + "\n\n"
        for k in range(functions)
    )
    return {"common.py": NB + body, "main.py": NB + "# MAGIC %run ./common" + CELL + "step_0(spark)\n"}


def test_a_run_notebook_of_functions_calling_one_another_is_cut_with_a_note(lint):
    files = _common(400)
    assert len(files["common.py"]) > MAX_HELPER_TEXT
    result = lint(files)
    assert [n.location.path for n in _notes(result)] == ["main.py"]
    # the steps nearest the call are given: the first write is found
    assert ("main.py", "main.steps.t0") in {(i.location.path, i.table.name) for i in result.intents}


def test_a_short_chain_of_run_functions_is_given_whole(lint):
    result = lint(_common(3))
    assert not _notes(result)
    assert sorted(i.table.name for i in result.intents if i.location.path == "main.py") == [
        f"main.steps.t{k}" for k in range(3)
    ]
