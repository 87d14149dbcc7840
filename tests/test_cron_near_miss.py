"""Two cron jobs whose runs never meet only because of the run length delta-lint
assumes (no `duration:` entry) are reported at `info`, saying which run would have
to last how long; schedules farther apart than one more assumed run length, and jobs
whose durations the configuration states, stay apart."""

from __future__ import annotations

ETL = "UPDATE s.t SET v = 1 WHERE id = 1;\n"
MAINTENANCE = "DELETE FROM s.t WHERE id = 2;\n"


def _bundle(etl_cron: str, maintenance_cron: str) -> str:
    return f"""\
bundle: {{name: b}}
targets: {{prod: {{default: true}}}}
resources:
  jobs:
    etl:
      schedule: {{quartz_cron_expression: "{etl_cron}", timezone_id: UTC}}
      tasks: [{{task_key: t, notebook_task: {{notebook_path: ./etl.sql}}}}]
    maintenance:
      schedule: {{quartz_cron_expression: "{maintenance_cron}", timezone_id: UTC}}
      tasks: [{{task_key: t, notebook_task: {{notebook_path: ./maintenance.sql}}}}]
"""


def _files(etl_cron: str, maintenance_cron: str) -> dict[str, str]:
    return {"etl.sql": ETL, "maintenance.sql": MAINTENANCE, "databricks.yml": _bundle(etl_cron, maintenance_cron)}


def test_a_maintenance_job_just_after_the_assumed_etl_run_is_an_info(lint):
    result = lint(_files("0 30 0 * * ?", "0 0 2 * * ?"))
    assert [(f.rule, f.severity, f.overlap_basis) for f in result.findings] == [("DL102", "info", "longer-run")]
    overlap = result.findings[0].overlap
    assert "the 00:30 UTC run of `etl`" in overlap
    assert "lasts over 1 h 30 min" in overlap
    assert "`duration:`" in overlap


def test_a_weekly_job_one_assumed_run_length_after_a_daily_one_is_an_info(lint):
    result = lint(_files("0 0 2 * * ?", "0 0 4 ? * SUN"))
    assert [f.severity for f in result.findings] == ["info"]
    assert "the 02:00 UTC run of `etl`" in result.findings[0].overlap
    assert "lasts over 2 h" in result.findings[0].overlap


def test_schedules_far_apart_stay_apart(lint):
    assert lint(_files("0 30 0 * * ?", "0 0 12 * * ?")).findings == []


def test_stated_durations_are_not_stretched(lint):
    stated = {"duration": {"etl": "1h", "maintenance": "1h"}}
    assert lint(_files("0 30 0 * * ?", "0 0 2 * * ?"), stated).findings == []
    assert lint(_files("0 30 0 * * ?", "0 0 2 * * ?"), {"duration": {"default": "1h"}}).findings == []


def test_schedules_that_meet_on_the_assumed_length_keep_their_severity(lint):
    result = lint(_files("0 30 0 * * ?", "0 0 1 * * ?"))
    assert [(f.severity, f.overlap_basis) for f in result.findings] == [("error", "schedule")]
