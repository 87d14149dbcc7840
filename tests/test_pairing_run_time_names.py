"""A table known only at run time, written by the same statement that two tasks run.

The rule: where two tasks (of two jobs, or of one) run the same statement, and the
unknown parts of its table name come from that statement's own source (a list read
from a file, a control table's rows, a caller's argument, a script variable a query
sets), both runs write whatever table that source names: the runs are paired, and
each finding says the name is known only at run time (verdict data-dependent, one
step less sure). Whether another part of the name is a job input no longer decides
it. Not paired: a name whose input the tasks give different values or a value only
a run knows (`{{job.start_time...}}`), a file one task alone runs, and the same
unknown name written by two files (their sources differ)."""

from __future__ import annotations

_TWO_JOBS = """bundle:
  name: t
resources:
  jobs:
    backfill:
      name: backfill
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: ./src/driver.py
            base_parameters:
              mode: {a}
    monthly:
      name: monthly
      schedule:
        quartz_cron_expression: "0 0 1 5 * ?"
        timezone_id: UTC
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: ./src/driver.py
            base_parameters:
              mode: {b}
"""

_DRIVER = """# Databricks notebook source
import json

mode = dbutils.widgets.get("mode")
with open("/Workspace/Shared/tables.json") as f:
    for m in json.load(f)["tables"]:
        spark.sql(f"MERGE INTO main.bronze.{NAME} t USING main.landing.x s ON t.id = s.id "
                  "WHEN MATCHED THEN UPDATE SET *")
for row in spark.table("main.ops.control").collect():
    spark.sql(f"DELETE FROM main.silver.{row.table_name} WHERE d = current_date()")
for row in spark.table("main.ops.control").collect():
    dbutils.notebook.run("./child", 600, {"table": row.table_name})
"""

_CHILD = """# Databricks notebook source
table = dbutils.widgets.get("table")
spark.sql(f"UPDATE main.gold.{table} SET refreshed = true WHERE NOT refreshed")
"""


def _conflicts(result) -> list[tuple[str, str, str, int, str | None]]:
    return sorted(
        (f.rule, f.table or "", f.location.path.rsplit("/", 1)[-1], f.location.line, f.verdict)
        for f in result.findings
        if f.rule.startswith("DL1")
    )


def _project(lint, name: str = "{m['name']}", a: str = "backfill", b: str = "incremental"):
    return lint(
        {
            "databricks.yml": _TWO_JOBS.format(a=a, b=b),
            "src/driver.py": _DRIVER.replace("{NAME}", name),
            "src/child.py": _CHILD,
        }
    )


def test_two_jobs_running_one_statement_over_a_run_time_list_are_paired(lint):
    result = _project(lint)
    assert _conflicts(result) == [
        ("DL102", "main.bronze.{each_m_name}", "driver.py", 7, "data-dependent"),
        ("DL102", "main.gold.{table}", "child.py", 3, "data-dependent"),
        ("DL102", "main.silver.{each_row_table_name}", "driver.py", 10, "data-dependent"),
    ]
    merge = next(f for f in result.findings if f.table == "main.bronze.{each_m_name}")
    assert "`{each_m_name}` is known only at run time" in merge.message
    assert merge.severity == "info"  # assumed overlap (a manual job) and data-dependent


def test_a_job_parameter_beside_the_run_time_part_is_judged_alike(lint):
    # the same list, a job parameter both jobs give the same value: the same pair,
    # equally sure (before: a warning with no note, while the bare name was a DL001)
    result = _project(lint, name="{m['name']}_{mode}", a="backfill", b="backfill")
    merge = [c for c in _conflicts(result) if c[2] == "driver.py" and c[3] == 7]
    assert merge == [("DL102", "main.bronze.{each_m_name}_backfill", "driver.py", 7, "data-dependent")]


def test_jobs_giving_the_parameter_different_values_are_not_paired(lint):
    # near miss: each job's mode is part of the name, so each writes its own tables
    result = _project(lint, name="{m['name']}_{mode}", a="backfill", b="incremental")
    assert [c for c in _conflicts(result) if c[2] == "driver.py" and c[3] == 7] == []


def test_a_file_one_task_runs_is_not_paired_with_itself(lint):
    bundle = _TWO_JOBS.format(a="x", b="y").split("    monthly:")[0]
    result = lint({"databricks.yml": bundle, "src/driver.py": _DRIVER.replace("{NAME}", "{m['name']}")})
    assert _conflicts(result) == []
    assert any(d.rule == "DL001" and "{each_m_name}" in d.message for d in result.diagnostics)


def test_the_same_unknown_name_in_two_files_is_not_one_table(lint):
    # near miss: two files loop over lists of their own; the text alike proves nothing
    code = (
        "# Databricks notebook source\nfor m in spark.table('main.ops.c').collect():\n"
        "    spark.sql(f'DELETE FROM main.s.{m.name} WHERE d < 0')\n"
    )
    bundle = """bundle:
  name: t
resources:
  jobs:
    a:
      name: a
      tasks:
        - task_key: x
          notebook_task:
            notebook_path: ./one.py
    b:
      name: b
      tasks:
        - task_key: x
          notebook_task:
            notebook_path: ./two.py
"""
    result = lint({"databricks.yml": bundle, "one.py": code, "two.py": code})
    assert _conflicts(result) == []


_SQL_JOBS = """bundle:
  name: t
resources:
  jobs:
    a:
      name: a
      tasks:
        - task_key: s
          sql_task:
            warehouse_id: abc
            file:
              path: ./purge.sql
    b:
      name: b
      tasks:
        - task_key: s
          sql_task:
            warehouse_id: abc
            file:
              path: ./purge.sql
        - task_key: w
          notebook_task:
            notebook_path: ./w.py
            base_parameters:
              table: "{{job.start_time.iso_date}}"
    c:
      name: c
      tasks:
        - task_key: w
          notebook_task:
            notebook_path: ./w.py
            base_parameters:
              table: "{{job.start_time.iso_date}}"
"""


def test_a_script_variable_a_query_sets_is_one_unknown_in_both_runs(lint):
    sql = (
        "BEGIN\n  DECLARE target STRING;\n  SET VAR target = (SELECT max(name) FROM main.ops.targets);\n"
        "  EXECUTE IMMEDIATE 'DELETE FROM main.s.' || target || ' WHERE d < current_date()';\nEND;\n"
    )
    widget = (
        "# Databricks notebook source\ntable = dbutils.widgets.get('table')\n"
        "spark.sql(f'UPDATE main.gold.t_{table} SET x = 1')\nspark.sql(f'UPDATE main.gold.{table} SET x = 1')\n"
    )
    result = lint({"databricks.yml": _SQL_JOBS, "purge.sql": sql, "w.py": widget})
    # near miss: w.py's name is a value each run is given (the run's start time):
    # neither the bare name nor the one with a literal part is paired
    assert _conflicts(result) == [("DL102", "main.s.{target}", "purge.sql", 4, "data-dependent")]


_BY_SCHEMA = """# Databricks notebook source
mode = dbutils.widgets.get("mode")
for row in spark.table("main.ops.control").collect():
    spark.sql(f"DELETE FROM main.{mode}.{row.table_name} WHERE d = current_date()")
"""


def _by_schema(lint, a: str, b: str) -> list[tuple[str, str, str, int, str | None]]:
    return _conflicts(lint({"databricks.yml": _TWO_JOBS.format(a=a, b=b), "src/driver.py": _BY_SCHEMA}))


def test_a_wholly_unknown_table_in_a_schema_each_job_names_is_not_paired(lint):
    # near miss: the rows name the table, the job parameter its schema: each job's
    # runs write tables of their own schema
    assert _by_schema(lint, "backfill", "incremental") == []


def test_a_wholly_unknown_table_in_a_schema_both_jobs_name_is_paired(lint):
    assert _by_schema(lint, "backfill", "backfill") == [
        ("DL102", "main.backfill.{each_row_table_name}", "driver.py", 4, "data-dependent")
    ]


_TASK_OUTPUT_JOBS = """bundle:
  name: t
resources:
  jobs:
    a:
      name: a
      tasks:
        - task_key: s
          sql_task:
            warehouse_id: abc
            file:
              path: ./purge.sql
            parameters:
              target: "{VALUE}"
    b:
      name: b
      tasks:
        - task_key: s
          sql_task:
            warehouse_id: abc
            file:
              path: ./purge.sql
            parameters:
              target: "{VALUE}"
"""


def test_a_sql_parameter_each_run_takes_from_a_task_output_is_not_paired(lint):
    # near miss: the parameter is what an earlier task of the run returned: each run
    # may name another table (the placeholder is the parameter, not a traced input)
    sql = "DELETE FROM IDENTIFIER('main.s.' || :target) WHERE d < current_date();\n"
    bundle = _TASK_OUTPUT_JOBS.replace("{VALUE}", "{{tasks.get.output.first_row.t}}")
    result = lint({"databricks.yml": bundle, "purge.sql": sql})
    assert _conflicts(result) == []
    # the same parameter set to one value by both jobs names one known table
    result = lint({"databricks.yml": _TASK_OUTPUT_JOBS.replace("{VALUE}", "orders"), "purge.sql": sql})
    assert [c[:4] for c in _conflicts(result)] == [("DL102", "main.s.orders", "purge.sql", 1)]


def test_two_statements_that_name_their_table_alike_are_not_paired(lint):
    """`{t}` of two functions, each read from its own row: only runs of one
    statement write the same table, not two statements whose names look alike."""
    driver = (
        "# Databricks notebook source\n"
        "def orders():\n"
        '    t = spark.table("main.cfg.orders_target").first()[0]\n'
        '    spark.sql(f"DELETE FROM {t} WHERE day = current_date()")\n'
        "\n"
        "def refunds():\n"
        '    t = spark.table("main.cfg.refunds_target").first()[0]\n'
        '    spark.sql(f"DELETE FROM {t} WHERE day = current_date()")\n'
        "\n"
        'if dbutils.widgets.get("mode") == "orders":\n'
        "    orders()\n"
        "else:\n"
        "    refunds()\n"
    )
    result = lint({"databricks.yml": _TWO_JOBS.format(a="x", b="x"), "src/driver.py": driver})
    assert _conflicts(result) == []
