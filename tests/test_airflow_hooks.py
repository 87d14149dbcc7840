"""SQL an Airflow task sends through the Databricks provider's `DatabricksSqlHook`
(`frontend/warehouse.py`): inside a `@task` function or a `PythonOperator`'s
callable, `hook.run(sql)` (and `get_records`, `get_pandas_df`) is a write at its
line, run by that task of the DAG; a hook of another database stays unread."""

from __future__ import annotations

from tests.test_airflow import _pairs
from tests.test_airflow_sql_operators import FIX, HEAD, NOTEBOOK, _writes

IMPORTS = (
    "from airflow.decorators import task\n"
    "from airflow.operators.python import PythonOperator\n"
    "from airflow.providers.databricks.hooks.databricks_sql import DatabricksSqlHook\n"
    "from airflow.providers.postgres.hooks.postgres import PostgresHook\n"
)
UPDATE = "UPDATE main.ops.events SET x = 1 WHERE kind = 'a'"
TASK = f"""\
    @task(task_id="wh")
    def load():
        hook = DatabricksSqlHook(databricks_conn_id="db", http_path="/sql/1.0/warehouses/w")
        hook.run("{UPDATE}")
        DatabricksSqlHook().get_records(sql="DELETE FROM main.ops.events WHERE kind = 'c'")

    wh = load()
"""


def _dag(body: str, order: str = "") -> dict[str, str]:
    return {"notebooks/fix.py": FIX, "dags/events.py": IMPORTS + HEAD + body + NOTEBOOK + order}


def test_a_hook_s_statements_in_a_task_are_writes_of_that_task(lint):
    parallel = lint(_dag(TASK))
    assert _writes(parallel) == [(19, "main.ops.events", "update"), (20, "main.ops.events", "delete")]
    assert _pairs(parallel) == {("dags/events.py", "notebooks/fix.py")}
    assert _pairs(lint(_dag(TASK, "    wh >> fix\n"))) == set()


def test_a_python_operator_s_callable_runs_its_hook_s_statements(lint):
    body = TASK.replace('    @task(task_id="wh")\n', "").replace(
        "    wh = load()\n", '    wh = PythonOperator(task_id="wh", python_callable=load)\n'
    )
    assert _pairs(lint(_dag(body))) == {("dags/events.py", "notebooks/fix.py")}


def test_a_hook_of_another_database_is_not_read(lint):
    """The near miss: `PostgresHook(...).run(...)` sends the same text elsewhere."""
    result = lint(_dag(TASK.replace("DatabricksSqlHook(", "PostgresHook(")))
    assert _writes(result) == [] and _pairs(result) == set()


def test_a_hook_task_beside_a_sql_operator_runs_its_own_function(lint):
    """Beside another task whose SQL is written in the DAG file, a `@task` function's
    statements run in its task alone (the function's lines): unordered, the two tasks
    meet on the table; `wh >> sq` keeps them apart."""
    operator = '    sq = DatabricksSqlOperator(task_id="sq", sql="DELETE FROM main.ops.events WHERE kind = \'d\'")\n'
    body = TASK.replace(
        "        DatabricksSqlHook().get_records(sql=\"DELETE FROM main.ops.events WHERE kind = 'c'\")\n", ""
    )
    parallel = lint(_dag(body + operator))
    assert _in_dag(parallel) == {(19, 22)}
    ordered = lint(_dag(body + operator, "    wh >> sq\n"))
    assert _in_dag(ordered) == set() and [f for f in ordered.findings if f.rule == "DL006"] == []


def _in_dag(result) -> set[tuple[int, int]]:
    """(line, related line) of the conflicts between two writes of the DAG file."""
    return {
        (f.location.line, r.line)
        for f in result.findings
        if f.rule.startswith("DL1") and f.location.path == "dags/events.py"
        for r in f.related
        if r.path == "dags/events.py"
    }
