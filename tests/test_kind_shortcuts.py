"""The file-kind check's shortcuts for Python files read what its patterns read.

Python files are told apart (Lakeflow pipeline, app, job code) by case-insensitive
patterns; the check searches lower-cased text with case-sensitive ones instead, and
only where a word of a sign is. These tests hold, through a whole run, the signs it
must still see in any case and place (a comment, a string, a notebook cell, text
that is not ASCII) and the near misses it must still lint.
"""

from __future__ import annotations

import pytest

WRITE = "df.write.saveAsTable('s.t')\n"


@pytest.mark.parametrize(
    "text",
    [
        "IMPORT DLT\n\n@DLT.TABLE\ndef bronze():\n    return spark.readStream.table('x')\n",
        "  from pyspark import pipelines as dp\n\n@dp.materialized_view\ndef gold():\n    return 1\n",
        "import pyspark.pipelines\n",
        "@Dlt.Expect_Or_Drop('ok', 'id > 0')\ndef t():\n    return 1\n",
        # the SQL signs anywhere: a notebook cell, a string, a comment
        "# Databricks notebook source\n# MAGIC %sql\n# MAGIC Create Or Refresh Materialized View gold AS SELECT 1\n",
        'spark.sql("""CREATE OR REFRESH\n  STREAMING LIVE TABLE t AS SELECT 1""")\n',
        "# apply changes into live.target from stream(live.src)\n" + WRITE,
        '{"cells": [{"source": ["  import dlt\\n"]}]}\n',
        # not ASCII: a comment in another script, a sign spelt with a long s or a Kelvin sign
        "# données brutes → bronze\nimport dlt\n",
        "# ſ\nCREATE OR REFRESH LIVE TABLE t\n",
        "# \u212a\nspark.sql('APPLY CHANGES INTO t')\n",
        "x = 1\nspark.sql('create or refre\u017fh materialized view v as select 1')\n",
        "# \u212a\n@DLT.VIEW\ndef v():\n    return 1\n",
    ],
)
def test_lakeflow_python_is_skipped_in_any_spelling(lint, text):
    result = lint({"pipeline.py": text})
    assert result.skipped == {"pipeline.py": "Lakeflow pipeline"}
    assert result.intents == []


@pytest.mark.parametrize(
    "text",
    [
        "IMPORT Streamlit AS st\nst.write('hello')\n",
        "x = 1\n\tfrom  flask import Flask\n",
        "# café\nimport gradio as gr\n",
        # the long s is an `s` to a case-insensitive pattern, not to `lower`
        "import \u017ftreamlit as st\n",
    ],
)
def test_app_python_is_skipped_in_any_spelling(lint, text):
    result = lint({"app.py": text})
    assert result.skipped == {"app.py": "app"}


@pytest.mark.parametrize(
    "text",
    [
        # the words of the signs, where no sign is
        "spark.catalog.refreshTable('s.t')  # picks up the changes\n" + WRITE,
        "# recreate or refresh live table t\n# xapply changes into t\n" + WRITE,
        "import dltools\nfrom dashboard import x  # streamlit, flask\n" + WRITE,
        "x = 'create or refresh table t'\ny = 'apply changes intox'\n" + WRITE,
        "# données\nimport dltools  # pipelines\n" + WRITE,
        # an app framework imported by a job that writes a table is linted
        "import streamlit as st\n" + WRITE,
    ],
)
def test_job_python_holding_sign_words_is_still_linted(lint, text):
    result = lint({"job.py": text})
    assert result.skipped == {}
    assert len(result.intents) == 1
