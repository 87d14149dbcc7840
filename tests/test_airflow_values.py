"""The values an Airflow DAG file's operators are given, read by the value layer
(`values.scopes`) as the SDK job reader reads them: what it knows beyond literals
and names (a helper's return, a loop item's keys) makes tasks analysable, and what
only a run decides (a conditional, a helper over a run's variable) stays unknown."""

from __future__ import annotations

from tests.test_airflow import DAG, NOTEBOOKS, _pairs
from tests.test_airflow_loops import HEAD
from tests.test_airflow_loops import NOTEBOOKS as LOOP_NOTEBOOKS

ORDERED = "    start >> load >> fix >> audit"


def _dl006(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def test_a_notebook_path_a_helper_returns_is_read(lint):
    """`notebook("audit")` of the DAG file's own function is its return: the audit
    task runs notebooks/audit and, unordered, pairs with the others."""
    helper = 'def notebook(name):\n    return f"{BASE}/notebooks/{name}"\n\n\nwith DAG('
    dag = DAG.replace("with DAG(", helper).replace('f"{BASE}/notebooks/audit"', 'notebook("audit")')
    result = lint({**NOTEBOOKS, "dags/events.py": dag.replace("ORDER", "    start >> load >> fix")})
    assert not _dl006(result)
    assert any("notebooks/audit.py" in pair for pair in _pairs(result))


def test_a_helper_over_a_value_only_a_run_knows_keeps_its_known_tail(lint):
    """A helper's return crosses the call as it is: `Variable.get("root") + "/" +
    name` is a path in a folder only a run knows, matched by its tail as the same
    expression written at the operator is (it was unknown when helpers' returns
    were read without templates)."""
    helper = 'def notebook(name):\n    return Variable.get("root") + "/notebooks/" + name\n\n\nwith DAG('
    dag = DAG.replace("with DAG(", helper).replace('f"{BASE}/notebooks/audit"', 'notebook("audit")')
    result = lint({**NOTEBOOKS, "dags/events.py": dag.replace("ORDER", "    start >> load >> fix")})
    assert not _dl006(result)
    assert any("notebooks/audit.py" in pair for pair in _pairs(result))


def test_a_helper_over_a_value_only_a_run_knows_stays_unknown(lint):
    """The near miss: the whole path is an Airflow Variable, which only a run knows."""
    helper = "def notebook(name):\n    return Variable.get(name)\n\n\nwith DAG("
    dag = DAG.replace("with DAG(", helper).replace('f"{BASE}/notebooks/audit"', 'notebook("audit")')
    result = lint({**NOTEBOOKS, "dags/events.py": dag.replace("ORDER", ORDERED)})
    messages = _dl006(result)
    assert len(messages) == 1 and "audit" in messages[0] and "not static" in messages[0]


def test_one_of_two_notebook_paths_is_not_taken_for_either(lint):
    """`a if PROD else b`: the value layer knows it is one of two paths; a task runs
    one file, so neither is guessed and the task says it cannot be analysed."""
    chosen = 'f"{BASE}/notebooks/audit" if PROD else f"{BASE}/notebooks/fix"'
    dag = DAG.replace('f"{BASE}/notebooks/audit"', chosen).replace(
        "with DAG(", "PROD = Variable.get('prod')\nwith DAG("
    )
    result = lint({**NOTEBOOKS, "dags/events.py": dag.replace("ORDER", ORDERED)})
    messages = _dl006(result)
    assert len(messages) == 1 and "audit" in messages[0]


def test_a_loop_over_dicts_reads_each_round_s_keys(lint):
    """`for cfg in [{"id": ...}]` binds `cfg` to each dict: `cfg["id"]` names the
    task and its notebook, so both tasks are read and run side by side."""
    loop = (
        '    for cfg in [{"id": "load"}, {"id": "fix"}]:\n'
        '        DatabricksNotebookOperator(task_id=cfg["id"], notebook_path=f"{BASE}/{cfg[\'id\']}")\n'
    )
    result = lint({**LOOP_NOTEBOOKS, "dags/events.py": HEAD + loop})
    assert not _dl006(result)
    assert ("notebooks/fix.py", "notebooks/load.py") in _pairs(result)
