"""A bundle `run_job_task` that starts a job of the same bundle: the started job
runs inside the task (the schedule places it there), so the task is analysed
through it, with no "cannot read" note (DL006). A job the project does not define,
or one that also runs on its own schedule, keeps a note that says why."""

from __future__ import annotations

from tests.test_link import NB, _conflicts

LOAD = NB + "spark.range(3).write.mode('overwrite').saveAsTable('main.sales.orders')\n"

BUNDLE = """bundle:
  name: rj
resources:
  jobs:
    parent:
      name: parent
      schedule:
        quartz_cron_expression: "0 0 2 * * ?"
        timezone_id: UTC
      tasks:
        - task_key: start_child
          run_job_task:
            job_id: STARTED
    child:
      name: child
CHILD_SCHEDULE      tasks:
        - task_key: load
          notebook_task:
            notebook_path: src/load.py
    other:
      name: other
      schedule:
        quartz_cron_expression: "0 0 2 * * ?"
        timezone_id: UTC
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: src/load.py
"""


def _bundle(started: str = "${resources.jobs.child.id}", child_schedule: str = "") -> dict[str, str]:
    text = BUNDLE.replace("STARTED", started).replace("CHILD_SCHEDULE", child_schedule)
    return {"src/load.py": LOAD, "databricks.yml": text}


def _notes(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def test_a_run_job_task_starting_a_job_of_the_bundle_has_no_note(lint):
    result = lint(_bundle())
    assert _notes(result) == []
    assert _conflicts(result) == ["DL102"]  # the child's run at 02:00 beside `other`


def test_a_job_the_project_does_not_define_keeps_the_note(lint):
    notes = _notes(lint(_bundle(started="1234")))
    assert len(notes) == 1 and "`start_child`" in notes[0] and "cannot read" in notes[0], notes


def test_a_started_job_with_its_own_schedule_says_so(lint):
    schedule = '      schedule:\n        quartz_cron_expression: "0 0 5 * * ?"\n        timezone_id: UTC\n'
    notes = _notes(lint(_bundle(child_schedule=schedule)))
    assert len(notes) == 1 and "it starts job `child`, which also runs on its own" in notes[0], notes


def test_a_started_job_with_a_paused_schedule_is_not_said_to_run_on_its_own(lint):
    """A paused schedule starts nothing: the started job runs only by hand or when
    another job starts it, and the note says that, not "its schedule"."""
    schedule = (
        '      schedule:\n        quartz_cron_expression: "0 0 5 * * ?"\n'
        "        timezone_id: UTC\n        pause_status: PAUSED\n"
    )
    notes = _notes(lint(_bundle(child_schedule=schedule)))
    assert len(notes) == 1, notes
    assert "also runs on its own" not in notes[0], notes
    assert "paused: it runs only when started by hand or by another job" in notes[0], notes
