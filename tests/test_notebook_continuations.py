"""A notebook line that starts with `!=` or `%` inside open brackets (or after a
backslash) continues a Python expression: IPython reads magics and shell escapes
only at the start of a logical line, so the line stays code. At the start of a
logical line, `%pip install x` and `!ls` are still magics."""

from __future__ import annotations

import json

NB = "# Databricks notebook source\n"
CONTINUED = (
    "labelled = spark.table('main.raw.a').select(\n"
    "    F.when(\n"
    "        F.col('status')\n"
    "        != 'done',\n"
    "        'open'\n"
    "    ).alias('state')\n"
    ")\n"
    "labelled.write.mode('overwrite').saveAsTable('main.s.t')\n"
)


def _result(lint, name: str, text: str):
    result = lint({name: text})
    tables = sorted(i.table.name for i in result.intents if i.location.path.endswith(name))
    errors = [d.rule for d in result.diagnostics if d.location.path.endswith(name) and d.rule == "DL000"]
    return tables, errors


def test_an_inequality_on_a_continuation_line_is_code(lint):
    assert _result(lint, "job.py", NB + CONTINUED) == (["main.s.t"], [])
    cell = {"cell_type": "code", "metadata": {}, "source": CONTINUED.splitlines(keepends=True), "outputs": []}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    assert _result(lint, "job.ipynb", json.dumps(notebook)) == (["main.s.t"], [])


def test_a_remainder_on_a_continuation_line_is_python_s(lint):
    code = NB + "shard = (\n    7\n    % 4\n)\nspark.table('a').write.saveAsTable(f'main.s.t{shard}')\n"
    assert _result(lint, "job.py", code) == (["main.s.t3"], [])
    slashed = NB + "shard = 7 \\\n    % 4\nspark.table('a').write.saveAsTable(f'main.s.t{shard}')\n"
    assert _result(lint, "other.py", slashed) == (["main.s.t3"], [])


def test_magics_at_the_start_of_a_logical_line_are_still_magics(lint):
    code = NB + "x = (1,\n     2)\n%pip install foo\n!ls /dbfs\nspark.table('a').write.saveAsTable('main.s.m')\n"
    assert _result(lint, "job.py", code) == (["main.s.m"], [])


def test_a_pipeline_source_reads_continuation_lines_as_code_too():
    """A Lakeflow pipeline's Python source: a `@dlt.table` whose body continues an
    expression on a line starting `!=` is read (before, the source did not parse and
    the pipeline's tables were lost)."""
    from delta_lint.frontend.lakeflow import analyze_lakeflow

    source = NB + (
        "import dlt\n"
        "@dlt.table(name='orders_open')\n"
        "def orders_open():\n"
        "    return spark.read.table('main.raw.orders').where(\n"
        "        F.col('status')\n"
        "        != 'done')\n"
        "%pip install nothing\n"
    )
    intents = analyze_lakeflow("p.py", ".py", source, (("main", "s", ()),)).intents
    assert [i.table.name for i in intents] == ["main.s.orders_open"]
