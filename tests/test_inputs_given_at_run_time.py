"""A widget's default is the table only where no run gives the input a value. A
for_each task that gives it a value only a run knows (`{{input}}` over a list read
at run time), or tasks of which some give a value and others do not, leave the
name to the run: a named input (DL001 says so), in Python and in a SQL cell alike,
never the default's table paired with itself."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
CELL = "\n# COMMAND ----------\n\n"
PY = NB + (
    'dbutils.widgets.text("table", "main.sales.default")\n'
    't = dbutils.widgets.get("table")\n'
    'spark.sql(f"DELETE FROM {t} WHERE day = current_date()")\n'
)
SQL = (
    NB
    + 'dbutils.widgets.text("table", "main.sales.default")\n'
    + CELL
    + "# MAGIC %sql\n# MAGIC DELETE FROM ${table} WHERE old\n"
)


def _bundle(task_parameters: str, second: str = "") -> dict[str, str]:
    job = f"""bundle: {{name: fe}}
resources:
  jobs:
    hourly:
      name: hourly
      schedule: {{quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}}
      tasks:
        - task_key: list
          notebook_task: {{notebook_path: src/list.py}}
        - task_key: each
          depends_on: [{{task_key: list}}]
          for_each_task:
            inputs: "{{{{tasks.list.values.tables}}}}"
            concurrency: 4
            task:
              task_key: load_one
              notebook_task:
                notebook_path: src/load.py
                base_parameters: {task_parameters}
{second}"""
    return {"databricks.yml": job, "src/list.py": NB + 'dbutils.jobs.taskValues.set("tables", ["a"])\n'}


def _tables(result) -> list[str]:
    return sorted({i.table.name for i in result.intents if i.location.path.endswith("load.py")})


def _conflicts(result) -> list:
    return [f for f in result.findings if not f.rule.startswith("DL0")]


def test_a_value_only_a_run_knows_is_never_the_widgets_default(lint):
    for notebook in (PY, SQL):
        result = lint({**_bundle('{table: "main.sales.{{input}}"}'), "src/load.py": notebook})
        assert "main.sales.default" not in _tables(result)
        assert not _conflicts(result)
        assert [f.rule for f in result.findings if f.location.path.endswith("load.py")] == ["DL001"]


def test_some_tasks_giving_a_value_and_others_not_is_not_the_default_alone(lint):
    other = """    manual:
      name: manual
      tasks:
        - task_key: one
          notebook_task: {notebook_path: src/load.py}
"""
    files = {**_bundle('{table: "main.sales.{{input}}"}', other), "src/load.py": PY}
    assert "main.sales.default" not in _tables(lint(files))


def test_a_value_every_run_gives_alike_or_none_gives_is_known(lint):
    result = lint({**_bundle("{table: main.sales.fixed}"), "src/load.py": PY})
    assert _tables(result) == ["main.sales.fixed"]
    result = lint({**_bundle("{other: x}"), "src/load.py": PY})
    assert _tables(result) == ["main.sales.default"]
