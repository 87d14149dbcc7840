"""A bundle `for_each_task` whose `inputs` are known where it is defined (a JSON
array in a string, a YAML list, a variable holding a list) runs its notebook once
per input: each iteration is a reading of the file with its own value, so a table
named `main.sales.{{input}}` is a known table in each, and the iterations are
concurrent runs of the for_each task (up to its `concurrency`). Each write runs in
the tasks and iterations that give the values it was read with, so another job's
literal table meets the iteration that writes it, and no other. Inputs only a run
knows (`{{tasks.x.values.y}}`) leave the name to a run."""

from __future__ import annotations

from tests.conftest import run_cli

LOAD = (
    "# Databricks notebook source\n"
    'dbutils.widgets.text("table", "")\n'
    't = dbutils.widgets.get("table")\n'
    'spark.range(3).write.mode("overwrite").saveAsTable(t)\n'
)

LITERAL_JOB = """
    orders_hourly:
      name: orders_hourly
      schedule: {quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: src/load.py
            base_parameters: {table: main.sales.LITERAL}
"""


def _bundle(inputs: str, parameter: str = "main.sales.{{input}}", concurrency: int = 2, literal: str = "") -> str:
    """A bundle with an hourly for_each job over `inputs`, and, with `literal`, an
    hourly job writing `main.sales.<literal>` with the same notebook."""
    text = f"""bundle: {{name: fe}}
variables:
  tables:
    default: [orders, refunds]
resources:
  jobs:
    all_tables_hourly:
      name: all_tables_hourly
      schedule: {{quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}}
      tasks:
        - task_key: each
          for_each_task:
            inputs: {inputs}
            concurrency: {concurrency}
            task:
              task_key: load_one
              notebook_task:
                notebook_path: src/load.py
                base_parameters:
                  table: "{parameter}"
"""
    return text + (LITERAL_JOB.replace("LITERAL", literal) if literal else "")


def _findings(lint, bundle: str) -> list[tuple[str, str | None]]:
    result = lint({"databricks.yml": bundle, "src/load.py": LOAD})
    return sorted((f.rule, f.table) for f in result.findings)


def test_a_literal_jobs_table_meets_the_iteration_that_writes_it(lint):
    got = _findings(lint, _bundle("""'["orders", "refunds"]'""", literal="orders"))
    assert got == [("DL102", "main.sales.orders")]


def test_a_literal_job_writing_no_iterations_table_meets_none_of_them(lint):
    assert _findings(lint, _bundle("""'["orders", "refunds"]'""", literal="returns")) == []


def test_iterations_each_writing_a_table_of_its_own_do_not_meet(lint):
    assert _findings(lint, _bundle("""'["orders", "refunds"]'""")) == []


def test_iterations_with_one_input_twice_write_one_table_at_once(lint):
    got = _findings(lint, _bundle("""'["orders", "orders"]'"""))
    assert got == [("DL102", "main.sales.orders")]


def test_iterations_writing_one_table_meet_only_when_they_run_at_once(lint):
    # the parameter does not use the input: every iteration writes the one table
    assert _findings(lint, _bundle("""'["a", "b"]'""", parameter="main.sales.all")) == [("DL102", "main.sales.all")]
    assert _findings(lint, _bundle("""'["a", "b"]'""", parameter="main.sales.all", concurrency=1)) == []


def test_a_yaml_list_and_a_variable_holding_one_are_known_inputs(lint):
    for inputs in ("[orders, refunds]", "${var.tables}"):
        assert _findings(lint, _bundle(inputs, literal="orders")) == [("DL102", "main.sales.orders")], inputs


def test_a_key_of_each_object_input_names_its_table(lint):
    inputs = """'[{"name": "orders", "days": 1}, {"name": "refunds", "days": 2}]'"""
    got = _findings(lint, _bundle(inputs, parameter="main.sales.{{input.name}}", literal="refunds"))
    assert got == [("DL102", "main.sales.refunds")]


def test_a_key_the_objects_lack_is_left_to_a_run(lint):
    inputs = """'[{"name": "orders"}, {"name": "refunds"}]'"""
    got = _findings(lint, _bundle(inputs, parameter="main.sales.{{input.table}}", literal="orders"))
    assert [rule for rule, _ in got] == ["DL001"]


def test_inputs_only_a_run_knows_leave_the_table_to_a_run(lint):
    got = _findings(lint, _bundle('"{{tasks.list.values.tables}}"', literal="orders"))
    assert [rule for rule, _ in got] == ["DL001"]


def test_the_schedule_command_still_shows_the_iterations_overlap(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src/load.py").write_text(LOAD)
    (tmp_path / "databricks.yml").write_text(_bundle("""'["orders", "refunds"]'"""))
    out = run_cli("schedule", ".", cwd=tmp_path)
    assert "2 concurrent runs of for_each task `each` of job `all_tables_hourly` overlap" in out.stdout


def test_more_inputs_than_a_file_is_read_for_leave_the_table_to_a_run(lint):
    # 20 tables: past the readings of one file (link.MAX_VARIANTS); 300: past MAX_ITERATIONS
    for count in (20, 300):
        inputs = "'[" + ", ".join(f'"t{i}"' for i in range(count)) + "]'"
        got = _findings(lint, _bundle(inputs, literal="t1"))
        assert [rule for rule, _ in got] == ["DL001"], count


def test_parameters_too_large_to_copy_into_every_iteration_leave_the_table_to_a_run(lint):
    """Each iteration holds all of the task's parameters: 12 inputs of a task with
    1.5 MB of parameters would copy 18 MB, past the bound, so the inputs are a run's
    (the DL001 note), in bounded time and memory; two inputs are still read."""
    big = '                  log: "{{job.run_id}}-' + "x" * 1_500_000 + '"\n'
    many = "'[" + ", ".join(f'"t{i}"' for i in range(12)) + "]'"
    got = _findings(
        lint, _bundle(many, literal="t1").replace('                  table: "', big + '                  table: "')
    )
    assert [rule for rule, _ in got] == ["DL001"]
    few = _bundle("""'["t1", "t2"]'""", literal="t1").replace(
        '                  table: "', big + '                  table: "'
    )
    assert _findings(lint, few) == [("DL102", "main.sales.t1")]
