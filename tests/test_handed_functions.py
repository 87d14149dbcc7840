"""A function of another module that a file names only as a value (handed to a
caller the reading does not follow, or kept in a display) is not read at a call
there: its writes stay where they are written, never dropped by both files. A
call, or a caller the reading follows (a thread pool, `Thread(target=...)`,
builtin `map`, `foreachBatch`), reads it at the naming file."""

from __future__ import annotations

import pytest

STEPS = """\
def load():
    spark.sql("INSERT INTO db.t1 SELECT 1")


def upsert(df, batch_id):
    spark.sql("MERGE INTO db.t2 USING src ON a = b WHEN MATCHED THEN UPDATE SET *")
"""


def _run(lint, use: str):
    files = {"lib/__init__.py": "", "lib/steps.py": STEPS, "etl.py": use}
    return sorted((i.location.path, i.table.name) for i in lint(files).intents if i.table is not None)


@pytest.mark.parametrize(
    "use",
    [
        # an Airflow operator calls it in another process, with its own arguments
        "from airflow.operators.python import PythonOperator\nfrom lib.steps import load\n\n"
        't = PythonOperator(task_id="x", python_callable=load)\n',
        # by its module's name, as a keyword of an unknown caller
        "from airflow.operators.python import PythonOperator\nfrom lib import steps\n\n"
        't = PythonOperator(task_id="x", python_callable=steps.load)\n',
        # a project function that calls its parameter: the reading does not follow `fn()`
        "from lib.steps import load\n\n\ndef run_step(fn):\n    fn()\n\n\nrun_step(load)\n",
        # a `partial` kept for a later call
        "from functools import partial\n\nfrom lib.steps import load\n\np = partial(load)\np()\n",
        # a UDF registered: Spark calls it, not this file
        'from lib.steps import load\n\nspark.udf.register("f", load)\n',
    ],
)
def test_a_function_handed_to_a_caller_not_followed_keeps_its_writes_in_its_module(lint, use):
    assert ("lib/steps.py", "db.t1") in _run(lint, use)
    assert not any(path == "etl.py" for path, _ in _run(lint, use))


@pytest.mark.parametrize(
    "use",
    [
        "from lib.steps import load\n\nload()\n",
        # a thread pool's `submit`, read with the pool
        "from concurrent.futures import ThreadPoolExecutor\n\nfrom lib.steps import load\n\n"
        "with ThreadPoolExecutor() as ex:\n    ex.submit(load)\n",
        "import threading\n\nfrom lib.steps import load\n\nthreading.Thread(target=load).start()\n",
        # the lambda an operator is given calls it: read at that call
        "from airflow.operators.python import PythonOperator\nfrom lib.steps import load\n\n"
        't = PythonOperator(task_id="x", python_callable=lambda: load())\n',
        # handed on, and called too: read at the call
        "from airflow.operators.python import PythonOperator\nfrom lib.steps import load\n\n"
        't = PythonOperator(task_id="x", python_callable=load)\nload()\n',
    ],
)
def test_a_function_called_or_handed_to_a_followed_caller_is_read_at_the_naming_file(lint, use):
    writes = _run(lint, use)
    assert ("etl.py", "db.t1") in writes
    assert ("lib/steps.py", "db.t1") not in writes


def test_foreach_batch_reads_the_function_with_its_batch(lint):
    use = 'from lib.steps import upsert\n\nspark.readStream.table("db.s").writeStream.foreachBatch(upsert).start()\n'
    writes = _run(lint, use)
    assert ("etl.py", "db.t2") in writes
    assert ("lib/steps.py", "db.t2") not in writes


@pytest.mark.parametrize(
    "use",
    [
        'from airflow.operators.python import PythonOperator\n\nt = PythonOperator(task_id="x", python_callable=load)\n',
        "\n\ndef run_step(fn):\n    fn()\n\n\nrun_step(load)\n",
    ],
)
def test_in_one_file_a_handed_function_keeps_its_writes_too(lint, use):
    # the same kind inside one module: its writes stay at the definition, as across files
    files = {"etl.py": STEPS + "\n\n" + use}
    writes = sorted((i.location.path, i.location.line, i.table.name) for i in lint(files).intents if i.table)
    assert ("etl.py", 2, "db.t1") in writes


LIB_NOTEBOOK = '# Databricks notebook source\ndef load():\n    spark.sql("INSERT INTO db.t1 SELECT 1")\n'
RUNNER = "# Databricks notebook source\n# MAGIC %run ./lib\n\n# COMMAND ----------\n\n"


@pytest.mark.parametrize(
    ("use", "where"),
    [
        # a function of a `%run` notebook handed to callers not followed: kept where written
        ("def run_step(fn):\n    fn()\n\n\nrun_step(load)\n", "lib.py"),
        ('spark.udf.register("f", load)\n', "lib.py"),
        # the near miss: called, it is read at the call
        ("load()\n", "main.py"),
    ],
)
def test_a_function_of_a_run_notebook_handed_on_keeps_its_writes(lint, use, where):
    result = lint({"lib.py": LIB_NOTEBOOK, "main.py": RUNNER + use})
    assert [(i.location.path, i.table.name) for i in result.intents if i.table] == [(where, "db.t1")]
