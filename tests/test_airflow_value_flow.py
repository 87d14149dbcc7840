"""An Airflow operator's arguments are read where the operator is, in the order the
file runs (`airflow_values` on `values.scopes`): a name holds what the ways that
reach the operator leave in it. A name rebound before the operator holds its last
value; a name bound in a branch holds that branch's value inside it; a name bound
on two ways of an `if` that meet before the operator is one of both, so the task's
file is not guessed (never the last branch written)."""

from __future__ import annotations

from tests.test_airflow import _pairs
from tests.test_airflow_loops import HEAD, NOTEBOOKS


def _dl006(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def _lint(lint, body: str):
    return lint({**NOTEBOOKS, "dags/events.py": HEAD + body})


def test_a_name_rebound_before_the_operator_holds_its_last_value(lint):
    result = _lint(
        lint,
        '    nb = f"{BASE}/draft"\n'
        '    nb = f"{BASE}/load"\n'
        '    DatabricksNotebookOperator(task_id="load", notebook_path=nb)\n'
        '    DatabricksNotebookOperator(task_id="fix", notebook_path=f"{BASE}/fix")\n',
    )
    assert not _dl006(result)
    assert ("notebooks/fix.py", "notebooks/load.py") in _pairs(result)


def test_a_name_bound_in_a_branch_holds_that_branch_s_value_there(lint):
    """Each branch's operator reads its own branch's `nb` (both branches are read:
    either may build the DAG)."""
    result = _lint(
        lint,
        '    if dag.dag_id == "events":\n'
        '        nb = f"{BASE}/load"\n'
        '        DatabricksNotebookOperator(task_id="load", notebook_path=nb)\n'
        "    else:\n"
        '        nb = f"{BASE}/fix"\n'
        '        DatabricksNotebookOperator(task_id="fix", notebook_path=nb)\n',
    )
    assert not _dl006(result)
    assert ("notebooks/fix.py", "notebooks/load.py") in _pairs(result)


def test_a_name_bound_on_two_ways_is_one_of_both_and_not_guessed(lint):
    """The near miss: the ways meet before the operator; `nb` is load or fix, and a
    task runs one file, so the task is not analysable rather than the last branch's."""
    result = _lint(
        lint,
        '    if dag.dag_id == "events":\n'
        '        nb = f"{BASE}/load"\n'
        "    else:\n"
        '        nb = f"{BASE}/fix"\n'
        '    DatabricksNotebookOperator(task_id="run", notebook_path=nb)\n'
        '    DatabricksNotebookOperator(task_id="fix", notebook_path=f"{BASE}/fix")\n',
    )
    (message,) = _dl006(result)
    assert "`run`" in message and "not static" in message
    assert not _pairs(result)


def test_a_round_s_names_computed_in_the_loop_body_are_that_round_s(lint):
    """A loop over known items: the body's own names are read per round, from the
    round's item."""
    result = _lint(
        lint,
        '    for name in ["load", "fix"]:\n'
        '        nb = f"{BASE}/" + name\n'
        "        DatabricksNotebookOperator(task_id=name, notebook_path=nb)\n",
    )
    assert not _dl006(result)
    assert ("notebooks/fix.py", "notebooks/load.py") in _pairs(result)
