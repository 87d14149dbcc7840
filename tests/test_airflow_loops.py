"""Airflow tasks made in a loop over values the DAG file gives (`delta_lint/airflow.py`):
one task per value, its id and notebook path from that value, ordered as the loop's
`>>` says; a loop over values only a run knows keeps its note."""

from __future__ import annotations

from typer.testing import CliRunner

from delta_lint.cli import app
from tests.test_airflow import FIX, LOAD, _pairs

HEAD = """\
from datetime import datetime

from airflow import DAG
from airflow.operators.empty import EmptyOperator
from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator

BASE = "/Workspace/Users/someone@example.com/project/notebooks"

with DAG(dag_id="events", schedule="0 2 * * *", start_date=datetime(2024, 1, 1), catchup=False) as dag:
    start = EmptyOperator(task_id="start")
"""
NOTEBOOKS = {"notebooks/load.py": LOAD, "notebooks/fix.py": FIX}


PIPELINES = """
PIPELINES = {
    "load": {"depends_on": []},
    "fix": {"depends_on": ["load"]},
}
"""


def _lint(lint, body: str):
    return lint({**NOTEBOOKS, "dags/events.py": HEAD.replace("\nwith DAG", PIPELINES + "\nwith DAG") + body})


def test_a_loop_over_a_literal_list_makes_a_task_per_value(lint):
    side_by_side = _lint(
        lint,
        '    for name in ["load", "fix"]:\n'
        '        run = DatabricksNotebookOperator(task_id=f"run_{name}", notebook_path=f"{BASE}/{name}")\n'
        "        start >> run\n",
    )
    assert _pairs(side_by_side) == {("notebooks/fix.py", "notebooks/load.py")}
    chained = _lint(
        lint,
        "    previous = start\n"
        '    for name in ("load", "fix"):\n'
        '        run = DatabricksNotebookOperator(task_id=f"run_{name}", notebook_path=f"{BASE}/{name}")\n'
        "        previous >> run\n"
        "        previous = run\n",
    )
    assert _pairs(chained) == set()  # load, then fix: the loop's `>>` orders them


def test_a_dict_of_tasks_ordered_by_a_second_loop(lint):
    pipelines = (
        "    tasks = {}\n"
        "    for name, info in PIPELINES.items():\n"
        '        tasks[name] = DatabricksNotebookOperator(task_id=name, notebook_path=f"{BASE}/{name}")\n'
    )
    assert _pairs(_lint(lint, pipelines)) == {("notebooks/fix.py", "notebooks/load.py")}
    ordered = pipelines + (
        "    for name, info in PIPELINES.items():\n"
        '        for dependency in info["depends_on"]:\n'
        "            tasks[dependency] >> tasks[name]\n"
    )
    assert _pairs(_lint(lint, ordered)) == set()


def test_a_loop_over_unknown_values_keeps_its_note(tmp_path, monkeypatch):
    dag = HEAD + (
        "    for name in load_names():\n"
        '        DatabricksNotebookOperator(task_id=f"run_{name}", notebook_path=f"{BASE}/{name}")\n'
    )
    known = dag.replace("load_names()", '["load"]')
    for name, text in {**NOTEBOOKS, "dags/events.py": dag, "dags/known.py": known.replace("events", "known")}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", "."]).output
    assert "dags/events.py:11: tasks made in a loop over values delta-lint cannot know" in out
    assert "dags/known.py:11" not in out
    assert "run_load" in out


def test_names_of_the_with_dag_block_are_read_as_a_dag_functions(lint):
    """A value assigned once in the `with DAG(...)` block (a path, the list a loop
    goes over) is known there, as in a `@dag` function."""
    body = (
        '    ROOT = f"{BASE}"\n'
        '    NAMES = ["load", "fix"]\n'
        "    previous = start\n"
        "    for name in NAMES:\n"
        '        run = DatabricksNotebookOperator(task_id=name, notebook_path=f"{ROOT}/{name}")\n'
        "        previous >> run\n"
        "        previous = run\n"
    )
    result = _lint(lint, body)
    assert _pairs(result) == set()
    assert not [f for f in result.findings if f.rule == "DL006"]
    assert {i.location.path for i in result.intents} == {"notebooks/load.py", "notebooks/fix.py"}


def test_a_chain_built_in_a_loop_keeps_every_round_with_a_repeated_task_id(tmp_path, monkeypatch):
    """A loop round reads a copy of the body: a call of it that makes no new task (a
    task id met before) must not stand for a later round's task (each round's copy
    is freed, its nodes' ids reused)."""
    names = ["a", "b", "c", "d", "e", "f", "g", "h"]
    body = (
        "    previous = EmptyOperator(task_id='begin')\n"
        f"    for name in {names!r}:\n"
        "        run = DatabricksNotebookOperator(task_id=f'run_{name}', notebook_path=f'{BASE}/{name}')\n"
        "        again = EmptyOperator(task_id='start')\n"
        "        previous >> run\n"
        "        previous = run\n"
    )
    files = {"dags/events.py": HEAD + body, **{f"notebooks/{n}.py": LOAD for n in names}}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", "."]).output
    for before, after in zip(names, names[1:]):
        assert f"run_{after} after run_{before}:" in out, out


def test_nested_loops_read_at_most_the_file_budget_of_rounds(lint):
    """Three nested loops of 40 values are 64,000 rounds: past the file's budget the
    loop is not read and says so, in bounded time."""
    values = [f"v{i}" for i in range(40)]
    body = (
        f"    for a in {values!r}:\n"
        f"        for b in {values!r}:\n"
        f"            for c in {values!r}:\n"
        "                DatabricksNotebookOperator(task_id=f't_{a}_{b}_{c}', notebook_path=f'{BASE}/load')\n"
    )
    result = lint({**NOTEBOOKS, "dags/events.py": HEAD + body})
    assert any("or more than 256 rounds in the file" in n for n in result.notes)
