"""Scala and R notebooks exported as source: their `%sql` and `%python` cells are
read as any notebook's, and a cell of their own language that may write a table is
said unread at its line (it was skipped with the whole file, with no note)."""

from __future__ import annotations

SCALA = (
    "// Databricks notebook source\n"
    'spark.range(3).write.mode("overwrite").saveAsTable("main.sales.orders")\n'
    "\n// COMMAND ----------\n\n"
    "// MAGIC %sql\n"
    "// MAGIC DELETE FROM main.sales.refunds WHERE id < 0\n"
    "\n// COMMAND ----------\n\n"
    "// MAGIC %python\n"
    '// MAGIC spark.sql("DELETE FROM main.sales.returns WHERE id < 0")\n'
    "\n// COMMAND ----------\n\n"
    'val n = spark.table("main.sales.orders").count()\n'
)
R = (
    "# Databricks notebook source\n"
    "library(SparkR)\n"
    'saveAsTable(createDataFrame(data.frame(id = 1)), "main.sales.orders", mode = "overwrite")\n'
    "\n# COMMAND ----------\n\n"
    "# MAGIC %sql\n"
    "# MAGIC UPDATE main.sales.orders SET id = 2 WHERE id = 1\n"
)


def _read(result, path):
    intents = [
        (i.table.name, i.location.line, i.location.column) for r in result.files if r.path == path for i in r.intents
    ]
    unread = [
        (d.location.line, d.location.column)
        for d in result.diagnostics
        if d.rule == "DL006" and d.location.path == path
    ]
    return sorted(intents), unread


def test_a_scala_notebook_reads_its_sql_and_python_cells_at_their_columns(lint):
    result = lint({"load.scala": SCALA})
    intents, unread = _read(result, "load.scala")
    assert intents == [("main.sales.refunds", 7, 10), ("main.sales.returns", 12, 10)]
    assert unread == [(2, 1)]  # the Scala write cell; the last cell only reads


def test_an_r_notebook_reads_its_sql_cells(lint):
    result = lint({"load.r": R})
    intents, unread = _read(result, "load.r")
    assert intents == [("main.sales.orders", 8, 9)]
    assert unread == [(2, 1)]


def test_a_plain_scala_file_stays_skipped_by_kind(lint):
    result = lint({"Job.scala": 'object Job { spark.range(1).write.saveAsTable("main.s.t") }\n'})
    assert _read(result, "Job.scala") == ([], [])
    assert "Job.scala" not in {r.path for r in result.files if r.intents}
