"""Parallel tasks that run one notebook with different parameters write different
tables, however the notebook reads its widgets: in a value function the evaluator
reads (`table("x")` returning an f-string over `dbutils.widgets.get`), in a
comprehension (`{k: dbutils.widgets.get(k).strip() for k in WIDGETS}`), beside an
input no task gives (its name part stays the run's: `{catalog}`). Each task's reading
names its own table, so no pair is reported; two tasks giving the same value still
write one table."""

from __future__ import annotations

NB = "# Databricks notebook source\n"


def _bundle(first: str = "orders", second: str = "refunds") -> dict[str, str]:
    job = f"""bundle: {{name: land}}
resources:
  jobs:
    land:
      name: land
      tasks:
        - task_key: land_a
          notebook_task: {{notebook_path: nb/land.py, base_parameters: {{entity: {first}}}}}
        - task_key: land_b
          notebook_task: {{notebook_path: nb/land.py, base_parameters: {{entity: {second}}}}}
"""
    return {"databricks.yml": job}


VALUE_FUNCTION = NB + (
    "def table(name):\n"
    "    return f\"main.bronze.{dbutils.widgets.get('entity')}_{name}\"\n\n\n"
    'spark.range(1).write.mode("overwrite").saveAsTable(table("x"))\n'
)
COMPREHENSION = NB + (
    'WIDGETS = {"entity": "orders", "catalog": "main"}\n'
    "args = {key: dbutils.widgets.get(key).strip() for key in WIDGETS}\n"
    'spark.range(1).write.mode("overwrite").saveAsTable(f\'{args["catalog"]}.bronze.{args["entity"]}\')\n'
)


def _tables(result) -> list[str]:
    return sorted({i.table.name for i in result.intents})


def _conflicts(result) -> list:
    return [f for f in result.findings if f.rule.startswith("DL1")]


def test_a_value_function_reads_each_task_s_widget(lint):
    result = lint({**_bundle(), "nb/land.py": VALUE_FUNCTION})
    assert _tables(result) == ["main.bronze.orders_x", "main.bronze.refunds_x"]
    assert not _conflicts(result)


def test_a_comprehension_of_widgets_and_an_input_no_task_gives(lint):
    result = lint({**_bundle(), "nb/land.py": COMPREHENSION})
    assert _tables(result) == ["{catalog}.bronze.orders", "{catalog}.bronze.refunds"]
    assert not _conflicts(result)


def test_tasks_giving_the_same_value_write_one_table(lint):
    """The near miss: both tasks give `orders`; one table, two writers that overlap."""
    for notebook in (VALUE_FUNCTION, COMPREHENSION):
        result = lint({**_bundle("orders", "orders"), "nb/land.py": notebook})
        assert len(_tables(result)) == 1
        assert _conflicts(result)


LOOP_DEFAULTS = NB + (
    'for key, value in {"catalog": "main", "entity": "x"}.items():\n'
    "    dbutils.widgets.text(key, value)\n"
    'catalog = dbutils.widgets.get("catalog")\n'
    'entity = dbutils.widgets.get("entity")\n'
    'spark.range(1).write.mode("overwrite").saveAsTable(f"{catalog}.bronze.{entity}")\n'
)


def test_widget_defaults_made_in_a_loop_are_the_defaults(lint):
    """A widget made in a loop over a literal dict of names and defaults holds its
    default where no task gives it; a task's value wins."""
    assert _tables(lint({"nb/land.py": LOOP_DEFAULTS})) == ["main.bronze.x"]
    result = lint({**_bundle(), "nb/land.py": LOOP_DEFAULTS})
    assert _tables(result) == ["main.bronze.orders", "main.bronze.refunds"]
    assert not _conflicts(result)


def test_widget_defaults_only_a_run_knows_are_no_default(lint):
    notebook = LOOP_DEFAULTS.replace(
        '{"catalog": "main", "entity": "x"}.items()', 'json.loads(dbutils.widgets.get("conf")).items()'
    )
    assert _tables(lint({"nb/land.py": "import json\n" + notebook})) == ["{catalog}.bronze.{entity}"]
