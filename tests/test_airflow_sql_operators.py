"""Airflow's warehouse operators (`DatabricksSqlOperator`, `DatabricksCopyIntoOperator`):
their statements are writes at the operator's line, run by that task of the DAG."""

from __future__ import annotations

from typer.testing import CliRunner

from delta_lint.cli import app
from tests.test_airflow import _pairs
from tests.test_link import NB

HEAD = """\
from datetime import datetime

from airflow import DAG
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator
from airflow.providers.databricks.operators.databricks_sql import (
    DatabricksCopyIntoOperator,
    DatabricksSqlOperator,
)

with DAG(dag_id="events", schedule="0 2 * * *", start_date=datetime(2024, 1, 1), catchup=False) as dag:
"""
FIX = NB + "spark.sql(\"UPDATE main.ops.events SET x = 2 WHERE kind = 'b'\")\n"
NOTEBOOK = '    fix = DatabricksNotebookOperator(task_id="fix", notebook_path="/Workspace/Users/me/p/notebooks/fix")\n'


def _writes(result, path: str = "dags/events.py") -> list[tuple[int, str, str]]:
    return sorted((i.location.line, i.table.name, i.kind.value) for i in result.intents if i.location.path == path)


def test_statements_of_the_sql_operator_are_writes_at_its_line(lint):
    result = lint(
        {
            "dags/events.py": HEAD
            + (
                "    create = DatabricksSqlOperator(\n"
                '        task_id="create",\n'
                '        catalog="main",\n'
                '        schema="ops",\n'
                '        sql=["CREATE TABLE IF NOT EXISTS events (id INT) USING DELTA", "DELETE FROM events WHERE id = 1"],\n'
                "    )\n"
                '    TABLE = "main.ops.audit"\n'
                '    audit = DatabricksSqlOperator(task_id="audit", sql=f"INSERT INTO {TABLE} VALUES (1)")\n'
                '    other = SQLExecuteQueryOperator(task_id="other", conn_id="pg", sql="DELETE FROM main.ops.events")\n'
                "    create >> audit >> other\n"
            )
        }
    )
    assert _writes(result) == [
        (12, "main.ops.events", "create"),
        (12, "main.ops.events", "delete"),
        (19, "main.ops.audit", "blind_append"),
    ]


def test_copy_into_operator_builds_its_statement(lint):
    result = lint(
        {
            "dags/events.py": HEAD
            + (
                "    load = DatabricksCopyIntoOperator(\n"
                '        task_id="load",\n'
                '        table_name="main.ops.raw",\n'
                '        file_location="s3://bucket/raw/",\n'
                '        file_format="CSV",\n'
                '        copy_options={"mergeSchema": "true"},\n'
                "    )\n"
            )
        }
    )
    (intent,) = result.intents
    assert (intent.location.line, intent.table.name, intent.kind.value) == (12, "main.ops.raw", "copy_into")
    assert "schema_evolution" in {f.value for f in intent.flags}


def test_the_operator_runs_as_its_task_of_the_dag(lint):
    update = '    wh = DatabricksSqlOperator(task_id="wh", sql="UPDATE main.ops.events SET x = 1 WHERE kind = \'a\'")\n'
    files = {"notebooks/fix.py": FIX}
    parallel = lint({**files, "dags/events.py": HEAD + update + NOTEBOOK})
    assert _pairs(parallel) == {("dags/events.py", "notebooks/fix.py")}
    ordered = lint({**files, "dags/events.py": HEAD + update + NOTEBOOK + "    wh >> fix\n"})
    assert _pairs(ordered) == set()


def test_a_sql_file_of_the_template_folder_is_the_task_file(tmp_path, monkeypatch):
    files = {
        "dags/events.py": HEAD.replace("catchup=False)", 'catchup=False, template_searchpath="sql")')
        + '    load = DatabricksSqlOperator(task_id="load", sql="load.sql")\n'
        + '    lost = DatabricksSqlOperator(task_id="lost", sql="missing.sql")\n',
        "dags/sql/load.sql": "INSERT INTO main.ops.events VALUES (1);\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", "."]).output
    assert "load: dags/sql/load.sql" in out
    assert "its SQL file `missing.sql` is not in the DAG's template folder" in out


def _conflicts(result) -> list[tuple[str, int, tuple[int, ...]]]:
    return sorted(
        (f.rule, f.location.line, tuple(r.line for r in f.related)) for f in result.findings if f.rule.startswith("DL1")
    )


UPDATES = (
    '    a = DatabricksSqlOperator(task_id="a", sql="UPDATE main.ops.events SET x = 1 WHERE kind = \'a\'")\n'
    "    b = DatabricksSqlOperator(\n"
    '        task_id="b",\n'
    "        sql=\"UPDATE main.ops.events SET x = 2 WHERE kind = 'b'\",\n"
    "    )\n"
)


def test_each_sql_task_of_one_dag_file_runs_its_own_statements(lint):
    """Tasks whose SQL is written in one DAG file each run the lines of their own
    operator: two the DAG leaves unordered meet; `a >> b` (or `set_downstream`)
    keeps them apart, and no task is said not analysed."""
    parallel = lint({"dags/events.py": HEAD + UPDATES})
    (finding,) = [f for f in parallel.findings if f.rule.startswith("DL1")]
    assert (finding.rule, finding.location.line, [r.line for r in finding.related]) == ("DL102", 12, [13])
    assert finding.overlap == "tasks `a` and `b` of job `events` have no dependency between them"
    for order in ("    a >> b\n", "    a.set_downstream(b)\n"):
        ordered = lint({"dags/events.py": HEAD + UPDATES + order})
        assert _conflicts(ordered) == []
        assert [f for f in ordered.findings if f.rule == "DL006"] == []


def test_sql_tasks_of_one_dag_file_do_not_take_each_others_statements(lint):
    """A statement of one task is not paired with itself as if another task ran it
    too: two MERGEs on tables of their own, in one run of the DAG, meet nothing."""
    merges = (
        '    a = DatabricksSqlOperator(task_id="a", sql="MERGE INTO main.ops.a t USING s ON t.id = s.id '
        'WHEN MATCHED THEN UPDATE SET *")\n'
        '    b = DatabricksSqlOperator(task_id="b", sql="MERGE INTO main.ops.b t USING s ON t.id = s.id '
        'WHEN MATCHED THEN UPDATE SET *")\n'
    )
    result = lint({"dags/events.py": HEAD + merges})
    assert _pairs(result) == set()
    assert [f for f in result.findings if f.rule == "DL006"] == []


LOOP = (
    '    for t in ["a", "b"]:\n'
    "        DatabricksSqlOperator(\n"
    '            task_id=f"m_{t}",\n'
    '            sql=f"MERGE INTO main.ops.{t} x USING main.raw.{t} s ON x.id = s.id WHEN MATCHED THEN UPDATE SET *",\n'
    "        )\n"
)


def test_sql_tasks_a_loop_makes_from_one_operator_are_not_analysed(lint):
    """The rounds of a loop make several tasks of one operator call, whose statements
    are read once for all rounds: which are whose is not told apart, so a round's
    MERGE is not paired with itself as another round's (a false conflict), and the
    tasks are said not analysed. A task of its own beside them runs its lines."""
    result = lint({"dags/events.py": HEAD + LOOP + UPDATES})
    assert _conflicts(result) == [("DL102", 17, (18,))]
    problems = sorted((f.location.line, f.message) for f in result.findings if f.rule == "DL006")
    assert [line for line, _ in problems] == [13, 13]
    assert all("at lines another task runs too" in message for _, message in problems)


def test_a_statement_no_task_runs_is_not_taken_as_the_one_lined_tasks(lint):
    """Beside a loop's tasks (not analysed), one task runs its own lines of the DAG
    file: the loop's MERGE is in no task, so it does not meet another DAG's notebook
    as that task's write would (their crons meet); the task's own UPDATE still does."""
    loop = LOOP.replace('["a", "b"]', '["events", "b"]')
    own = '    u = DatabricksSqlOperator(task_id="u", sql="UPDATE main.ops.events SET x = 1 WHERE kind = \'a\'")\n'
    other = HEAD.replace('dag_id="events"', 'dag_id="other"') + NOTEBOOK
    files = {"notebooks/fix.py": FIX, "dags/other.py": other}
    assert _conflicts(lint({**files, "dags/events.py": HEAD + loop})) == []
    assert _conflicts(lint({**files, "dags/events.py": HEAD + loop + own})) == [("DL102", 17, (2,))]


def test_a_sql_task_in_a_task_group_keeps_the_groups_order(lint):
    """Inside a `TaskGroup` the tasks are `group.task`; the order set on the group holds
    for the SQL each of its tasks runs."""
    grouped = HEAD.replace(
        "from airflow import DAG\n", "from airflow import DAG\nfrom airflow.utils.task_group import TaskGroup\n"
    )
    body = (
        '    with TaskGroup(group_id="first") as first:\n'
        + "".join("    " + line + "\n" for line in UPDATES.splitlines()[:1])
        + '    with TaskGroup(group_id="second") as second:\n'
        + "".join("    " + line + "\n" for line in UPDATES.splitlines()[1:])
    )
    assert len(_conflicts(lint({"dags/events.py": grouped + body}))) == 1
    assert _conflicts(lint({"dags/events.py": grouped + body + "    first >> second\n"})) == []


def test_a_cached_run_sees_a_template_sql_file_appear_and_go(tmp_path, monkeypatch):
    """The template file an operator names is looked for as a cached schedule asks
    again: a file added or deleted after the run that kept the schedule is seen."""
    project = tmp_path / "p"
    files = {
        "dags/events.py": HEAD
        + '    a = DatabricksSqlOperator(task_id="a", sql="a.sql")\n'
        + '    b = DatabricksSqlOperator(task_id="b", sql="b.sql")\n',
        "dags/a.sql": "UPDATE main.ops.events SET x = 1 WHERE kind = 'a';\n",
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    monkeypatch.setenv("DELTA_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(project)

    def check(*more: str) -> str:
        return CliRunner().invoke(app, ["check", ".", "--spark", "none", "--format", "json", *more]).stdout

    assert "b.sql` is not in the DAG's template folder" in check()
    (project / "dags" / "b.sql").write_text("UPDATE main.ops.events SET x = 2 WHERE kind = 'a';\n")
    assert check() == check("--no-cache")
    assert "DL102" in check() and "not in the DAG's template folder" not in check()
    (project / "dags" / "a.sql").unlink()
    assert check() == check("--no-cache")
    assert "a.sql` is not in the DAG's template folder" in check()
