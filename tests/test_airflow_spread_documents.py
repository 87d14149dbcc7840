"""A Jobs API document an Airflow operator is handed may spread a part only a run
knows (`json={**Variable.get(...), "notebook_task": {...}}`, `tasks=[*more, {...}]`):
the document keeps the items it writes, so the task's notebook is read (the bundle
rules say what else is missing). Nothing else reads such a value as known: a loop
over a list with a spread only a run knows is read once for all its rounds, and a
document changed in place after it is written is not the display it was bound to."""

from __future__ import annotations

from tests.test_airflow import _pairs
from tests.test_airflow_loops import HEAD, NOTEBOOKS

HEAD_SUBMIT = HEAD.replace(
    "import DatabricksNotebookOperator",
    "import DatabricksNotebookOperator, DatabricksSubmitRunOperator\nfrom airflow.models import Variable",
)
TASK = '{"notebook_task": {"notebook_path": f"{BASE}/load"}}'
BASE_JSON = 'BASE_JSON = Variable.get("base", deserialize_json=True)\n'


def _dl006(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def _lint(lint, before: str, body: str):
    text = HEAD_SUBMIT.replace("\nwith DAG", "\n" + before + "\nwith DAG") + body
    fix = '    DatabricksNotebookOperator(task_id="fix", notebook_path=f"{BASE}/fix")\n'
    return lint({**NOTEBOOKS, "dags/events.py": text + fix})


def test_a_dict_spread_only_a_run_knows_keeps_the_written_keys(lint):
    body = '    DatabricksSubmitRunOperator(task_id="load", json={**BASE_JSON, "notebook_task": ' + TASK[17:-1] + "})\n"
    result = _lint(lint, BASE_JSON, body)
    assert not _dl006(result)
    assert ("notebooks/fix.py", "notebooks/load.py") in _pairs(result)


def test_a_list_spread_only_a_run_knows_keeps_the_written_tasks_through_a_name(lint):
    before = BASE_JSON + 'TASKS = [*BASE_JSON["tasks"], {"task_key": "load", ' + TASK[1:] + "]\n"
    body = '    DatabricksSubmitRunOperator(task_id="load", json={"tasks": TASKS})\n'
    result = _lint(lint, before, body)
    assert not _dl006(result)
    assert any("notebooks/load.py" in pair for pair in _pairs(result))


def test_a_document_changed_in_place_is_not_its_display(lint):
    """The near miss: `DOC["notebook_task"] = ...` after the display: what it holds is not known."""
    before = BASE_JSON + "DOC = {**BASE_JSON, " + TASK[1:] + '\nDOC["notebook_task"] = BASE_JSON["other"]\n'
    body = '    DatabricksSubmitRunOperator(task_id="load", json=DOC)\n'
    result = _lint(lint, before, body)
    (message,) = _dl006(result)
    assert "`load`" in message and "not static" in message


def test_a_loop_over_a_spread_only_a_run_knows_is_read_once(lint):
    """The near miss: `[*more, "load"]` has items a run adds: no round per written item."""
    body = (
        '    for name in [*BASE_JSON["names"], "load"]:\n'
        '        DatabricksNotebookOperator(task_id=name, notebook_path=f"{BASE}/" + name)\n'
    )
    result = _lint(lint, BASE_JSON, body)
    assert any("not static" in m for m in _dl006(result))
    assert not any("notebooks/load.py" in pair for pair in _pairs(result))
