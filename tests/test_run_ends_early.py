"""A notebook that ends in every run at a top-level `dbutils.notebook.exit(...)`,
`sys.exit(...)` or `raise` never runs what follows: its writes (Python or a SQL
cell) are not paired, and each says why at its line. An exit inside an `if` ends
only some runs: the notebook is read whole."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
CELL = "\n# COMMAND ----------\n\n"
WRITE = 'spark.table("main.raw.o").write.mode("overwrite").saveAsTable("main.bronze.orders")\n'
JOBS = """resources:
  jobs:
    nightly:
      name: nightly
      schedule: {quartz_cron_expression: "0 0 2 * * ?", timezone_id: UTC}
      tasks:
        - task_key: a
          notebook_task: {notebook_path: ../src/silver.py}
    rerun:
      name: rerun
      tasks:
        - task_key: a
          notebook_task: {notebook_path: ../src/silver.py}
"""
BUNDLE = "bundle: {name: b}\ninclude: [resources/*.yml]\n"


def _project(notebook: str) -> dict[str, str]:
    return {"databricks.yml": BUNDLE, "resources/jobs.yml": JOBS, "src/silver.py": notebook}


def _conflicts(result) -> list:
    return [f for f in result.findings if not f.rule.startswith("DL0")]


def test_writes_after_an_unconditional_exit_never_run(lint):
    for end in ('dbutils.notebook.exit("retired")\n', "import sys\nsys.exit(0)\n", 'raise RuntimeError("old")\n'):
        notebook = NB + end + CELL + WRITE + CELL + "# MAGIC %sql\n# MAGIC DELETE FROM main.bronze.orders WHERE x\n"
        result = lint(_project(notebook))
        assert not _conflicts(result), end
        notes = [f for f in result.findings if "never runs" in f.message]
        assert [f.location.line for f in notes] == [notebook.count("\n", 0, notebook.index("spark.table")) + 1]


def test_an_exit_on_a_condition_ends_only_some_runs(lint):
    notebook = NB + 'if dbutils.widgets.get("skip") == "yes":\n    dbutils.notebook.exit("skipped")\n'
    result = lint(_project(notebook + CELL + WRITE))
    assert [f.rule for f in _conflicts(result)] == ["DL102"]
    assert not [f for f in result.findings if "never runs" in f.message]
