"""Airflow dynamic task mapping (`Op.partial(...).expand(...)`, `.expand_kwargs(...)`,
a `@task` function's `f.expand(...)`): the DAG's mapped task runs one copy per value,
the copies side by side up to `max_active_tis_per_dagrun`. Known values make one task
per copy; values known only at run time make one task run as a for_each task, and a
notebook they choose is not guessed."""

from __future__ import annotations

from typer.testing import CliRunner

from delta_lint.cli import app
from tests.test_airflow import NOTEBOOKS, _pairs
from tests.test_link import _conflicts

HEAD = (
    "from datetime import datetime\n"
    "from airflow import DAG\n"
    "from airflow.decorators import task\n"
    "from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator\n"
    "ROOT = '/Repos/me/project/notebooks'\n"
    "with DAG('events', start_date=datetime(2024, 1, 1), schedule='@daily', catchup=False):\n"
)


def _dag(body: str) -> dict[str, str]:
    return {**NOTEBOOKS, "dags/events.py": HEAD + body}


def test_copies_of_a_mapped_operator_over_known_notebooks_run_side_by_side(lint):
    mapped = lint(
        _dag(
            "    DatabricksSubmitRunOperator.partial(task_id='run', existing_cluster_id='c').expand(\n"
            "        notebook_task=[{'notebook_path': f'{ROOT}/load'}, {'notebook_path': f'{ROOT}/fix'}]\n"
            "    )\n"
        )
    )
    assert ("notebooks/fix.py", "notebooks/load.py") in _pairs(mapped)
    overlaps = [f.overlap for f in mapped.findings if f.rule.startswith("DL1")]
    assert overlaps and all("job `events`" in o for o in overlaps), overlaps  # the DAG's copies, not files
    assert not [f for f in mapped.findings if f.rule == "DL006"]


def test_copies_limited_to_one_at_a_time_are_not_paired(lint):
    one_at_a_time = lint(
        _dag(
            "    DatabricksSubmitRunOperator.partial(\n"
            "        task_id='run', existing_cluster_id='c', max_active_tis_per_dagrun=1\n"
            "    ).expand(notebook_task=[{'notebook_path': f'{ROOT}/load'}, {'notebook_path': f'{ROOT}/fix'}])\n"
        )
    )
    assert _conflicts(one_at_a_time) == []
    assert not [f for f in one_at_a_time.findings if f.rule == "DL006"]


def test_expand_kwargs_maps_each_mapping_to_a_copy(lint):
    files = _dag(
        "    NBS = [\n"
        "        {'notebook_task': {'notebook_path': f'{ROOT}/load'}},\n"
        "        {'notebook_task': {'notebook_path': f'{ROOT}/audit'}},\n"
        "    ]\n"
        "    DatabricksSubmitRunOperator.partial(task_id='run', existing_cluster_id='c').expand_kwargs(NBS)\n"
    )
    assert ("notebooks/audit.py", "notebooks/load.py") in _pairs(lint(files))


def test_a_mapped_task_is_listed_in_the_schedule(tmp_path, monkeypatch):
    for name, text in _dag(
        "    DatabricksSubmitRunOperator.partial(task_id='run', existing_cluster_id='c').expand(\n"
        "        notebook_task=[{'notebook_path': f'{ROOT}/load'}, {'notebook_path': f'{ROOT}/fix'}]\n"
        "    )\n"
    ).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", str(tmp_path)]).output
    assert "run[0]: notebooks/load.py" in out
    assert "run[1]: notebooks/fix.py" in out


def test_values_known_at_run_time_run_the_one_notebook_as_a_for_each_task(lint):
    files = _dag(
        "    from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n"
        "    @task\n"
        "    def days():\n"
        "        return [{'day': '2024-01-01'}]\n"
        "    DatabricksNotebookOperator.partial(\n"
        "        task_id='run', source='WORKSPACE', notebook_path=f'{ROOT}/load'LIMIT\n"
        "    ).expand(notebook_params=days())\n"
    )
    side_by_side = lint({k: v.replace("LIMIT", "") for k, v in files.items()})
    assert ("notebooks/load.py",) in _pairs(side_by_side)  # a copy beside another copy
    one_at_a_time = lint({k: v.replace("LIMIT", ", max_active_tis_per_dag=1") for k, v in files.items()})
    assert ("notebooks/load.py",) not in _pairs(one_at_a_time)
    assert not [f for f in one_at_a_time.findings if f.rule == "DL006"]


def test_a_notebook_chosen_at_run_time_is_not_guessed(lint):
    result = lint(
        _dag(
            "    @task\n"
            "    def tasks():\n"
            "        return [{'notebook_path': '/Repos/me/project/notebooks/load'}]\n"
            "    DatabricksSubmitRunOperator.partial(task_id='run', existing_cluster_id='c').expand(\n"
            "        notebook_task=tasks()\n"
            "    )\n"
        )
    )
    notes = [f.message for f in result.findings if f.rule == "DL006"]
    assert any("`run`" in m and "not static" in m for m in notes), notes
