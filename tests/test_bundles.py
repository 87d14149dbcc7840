"""Which jobs really run at the same time: bundles, Jobs JSON, DAGs, concurrency and
Quartz cron windows — checked as an exact overlap graph."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delta_lint.config import validate
from delta_lint.cron import CronError, describe, fire_times, first_overlap, horizon, parse_duration, translate
from delta_lint.run import check
from delta_lint.schedule import build_schedule, load_workflows
from tests.conftest import FIXTURES, run_cli

UTC = timezone.utc
YEAR = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The CLI in this process: these tests are about what it prints and exits with."""
    return run_cli(*args, cwd=cwd)


def graph(cwd: Path, *args: str) -> dict[frozenset, dict]:
    proc = cli("schedule", *args, "--format", "json", "--all", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return {frozenset((p["a"], p["b"])): p for p in json.loads(proc.stdout)["pairs"]}


# -- the fixture bundle: the exact graph ----------------------------------------------------

CE, CS = "customers_evolve.evolve", "customers_sync.sync"
DS, ES = "daily_summary.rebuild", "events_stream.clicks_and_customers"
LI, LP = "ledger_ingest.append_entries", "ledger_post.post"
MO, MA = "maintenance.optimize", "maintenance.archive"
NI, NM, NP = "nightly_orders.ingest", "nightly_orders.mark_late", "nightly_orders.purge_old"
UO, UE = "upsert_orders.upsert_per_country", "upsert_orders_explicit"
SCHEDULED = [CE, CS, DS, ES, LI, LP, MO, MA, NI, NM, NP, UO, UE]

NEVER = {
    # cron windows that never meet (daily 03:00 / 01:00 / 02:30 UTC, weekly Sun 03:00 Amsterdam, daily 02:00)
    frozenset((CE, CS)),
    frozenset((CE, LP)),
    frozenset((CE, MO)),
    frozenset((CE, MA)),
    frozenset((CE, NI)),
    frozenset((CE, NM)),
    frozenset((CE, NP)),
    frozenset((CS, LP)),
    frozenset((CS, NI)),
    frozenset((CS, NM)),
    frozenset((CS, NP)),
    # DAG order within one run, one run at a time
    frozenset((MO, MA)),
    frozenset((NI, NM)),
    frozenset((NI, NP)),
    # an exclusive group in the configuration
    frozenset((UO, UE)),
    # one run at a time
    *(frozenset((n,)) for n in (CE, CS, ES, LI, LP, MO, MA, NI, NM, NP)),
}


def test_fixture_bundle_overlap_graph_is_exact():
    pairs = graph(FIXTURES, "jobs")
    scheduled = {k: v for k, v in pairs.items() if k <= set(SCHEDULED)}
    assert len(scheduled) == len(SCHEDULED) * (len(SCHEDULED) + 1) // 2
    never = {k for k, v in scheduled.items() if not v["overlap"]}
    assert never == NEVER
    # files no job schedules may run at any time, with everything
    lone = [v for k, v in pairs.items() if "jobs/payments.py" in k and len(k) == 2]
    assert lone and all(v["overlap"] for v in lone)


def test_fixture_bundle_reasons():
    pairs = graph(FIXTURES, "jobs")
    assert pairs[frozenset((NM, NP))]["reason"] == (
        "tasks `mark_late` and `purge_old` of job `nightly_orders` have no dependency between them"
    )
    assert "`ingest` runs before `mark_late`" in pairs[frozenset((NI, NM))]["reason"]
    assert pairs[frozenset((UO,))]["reason"].startswith("4 concurrent runs of for_each task `upsert_per_country`")
    assert pairs[frozenset((UO,))]["distinct_runs"] is True
    assert pairs[frozenset((DS,))]["distinct_runs"] is False  # same parameters: same rows
    li_lp = pairs[frozenset((LI, LP))]["reason"]
    assert "`ledger_ingest` runs hourly at :00 for ~50 min" in li_lp and "daily at 02:30 UTC" in li_lp
    assert "never meet" in pairs[frozenset((CE, CS))]["reason"]
    # the weekly job in Amsterdam meets a 01:00 UTC job on the Sundays of summer time
    assert "2024-03-31 01:00 UTC" in pairs[frozenset((CS, MO))]["reason"]
    assert "runs continuously" in pairs[frozenset((ES, CE))]["reason"]


def test_fixture_findings_explain_the_overlap_and_unanalysable_tasks():
    proc = cli("check", ".", "--format", "json", cwd=FIXTURES)  # settings read live: the ledger is Serializable
    findings = json.loads(proc.stdout)["findings"]
    ledger = next(f for f in findings if f["table"] == "main.finance.ledger")
    assert "`ledger_ingest` runs hourly" in ledger["overlap"]
    infos = [f for f in findings if f["rule"] == "DL006"]
    assert {f["location"]["path"] for f in infos} == {"resources/finance_and_customers.yml"}
    assert any("python wheel task" in f["message"] for f in infos)
    # customers_sync (01:00) and customers_evolve (03:00) never meet: no pair between them
    assert not any(
        "customers_evolve.sql" in f["location"]["path"] and "customer_sync.py" in json.dumps(f["related"])
        for f in findings
    )


def test_development_target_pauses_schedules():
    pairs = graph(FIXTURES, "jobs", "--target", "dev")
    reason = pairs[frozenset((CE, CS))]["reason"]
    assert pairs[frozenset((CE, CS))]["overlap"] is True
    assert "development mode" in reason
    assert cli("schedule", "jobs", "--target", "nope", cwd=FIXTURES).returncode == 2


# -- bundles shaped like the public examples --------------------------------------------------

DEFAULT_PYTHON = {
    "databricks.yml": """\
bundle:
  name: my_project
include:
  - resources/*.yml
targets:
  dev:
    mode: development
    default: true
    workspace: {host: https://example.cloud.databricks.com}
  prod:
    mode: production
    workspace:
      host: https://example.cloud.databricks.com
      root_path: /Workspace/Users/someone/.bundle/${bundle.name}/${bundle.target}
""",
    "resources/my_project.job.yml": """\
resources:
  jobs:
    my_project_job:
      name: my_project_job
      trigger:
        periodic: {interval: 1, unit: DAYS}
      email_notifications: {on_failure: [someone@example.com]}
      tasks:
        - task_key: notebook_task
          notebook_task: {notebook_path: ../src/notebook.ipynb}
        - task_key: refresh_pipeline
          depends_on: [{task_key: notebook_task}]
          pipeline_task: {pipeline_id: "${resources.pipelines.my_project_pipeline.id}"}
        - task_key: main_task
          depends_on: [{task_key: refresh_pipeline}]
          python_wheel_task: {package_name: my_project, entry_point: main}
        - task_key: cleanup
          depends_on: [{task_key: notebook_task}]
          spark_python_task: {python_file: ../src/cleanup.py}
""",
    "src/notebook.ipynb": json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "metadata": {},
                    "source": ["spark.sql(\"DELETE FROM main.s.events WHERE day < '2024-01-01'\")\n"],
                    "outputs": [],
                    "execution_count": None,
                }
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    ),
    "src/cleanup.py": "spark.sql(\"UPDATE main.s.events SET x = 1 WHERE day < '2024-01-01'\")\n",
}


def write(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_default_python_template_bundle(tmp_path):
    p = write(tmp_path, DEFAULT_PYTHON)
    pairs = graph(p, ".")
    nb, cleanup = "my_project_job.notebook_task", "my_project_job.cleanup"
    assert pairs[frozenset((nb, cleanup))]["overlap"] is False
    # the default target `dev` is a development target and `prod` is a production one: prod is judged
    doc = json.loads(cli("schedule", ".", "--format", "json", cwd=p).stdout)
    assert "target `prod` (mode: production; the default target `dev` is a development" in doc["target"]
    assert doc["notes"] == []
    doc = json.loads(cli("schedule", ".", "--format", "json", "--target", "dev", cwd=p).stdout)
    assert "target `dev` is in development mode" in doc["notes"][0]
    assert "(chosen with --target" in doc["target"]
    run = json.loads(cli("check", ".", "--format", "json", cwd=p).stdout)
    assert run["summary"]["notes"][0].startswith("judged bundle databricks.yml: target `prod` (mode: production")
    out = run["findings"]
    assert sorted(f["rule"] for f in out) == ["DL006", "DL006"]  # ordered tasks: no conflict; wheel + pipeline
    assert all(f["location"]["path"] == "resources/my_project.job.yml" for f in out)


def test_a_conflict_between_dag_ordered_tasks_disappears_and_parallel_branches_report_it(tmp_path):
    files = dict(DEFAULT_PYTHON)
    files["resources/my_project.job.yml"] = files["resources/my_project.job.yml"].replace(
        "          depends_on: [{task_key: notebook_task}]\n          spark_python_task",
        "          spark_python_task",
    )
    p = write(tmp_path, files)
    out = json.loads(cli("check", ".", "--format", "json", cwd=p).stdout)["findings"]
    conflict = [f for f in out if f["table"] == "main.s.events"]
    assert conflict
    assert conflict[0]["overlap"] == (
        "tasks `cleanup` and `notebook_task` of job `my_project_job` have no dependency between them"
    )


@pytest.mark.parametrize(
    ("job_extra", "params", "expect"),
    [
        ("", "", []),  # one run at a time
        ("      max_concurrent_runs: 3\n", "", [("DL102", "error")]),  # same parameters: same rows, conflict
        (
            "      max_concurrent_runs: 3\n      parameters: [{name: day, default: '2024-01-01'}]\n",
            ":day",
            [("DL102", "info")],
        ),  # apart while the runs' values differ: info, naming the parameter
    ],
)
def test_max_concurrent_runs_and_parameters(tmp_path, job_extra, params, expect):
    condition = "day = :day" if params else "day = '2024-01-01'"
    files = {
        "databricks.yml": "bundle: {name: b}\nresources:\n  jobs:\n    load:\n"
        + job_extra
        + "      tasks:\n        - task_key: t\n          sql_task: {warehouse_id: w, file: {path: load.sql}}\n",
        "load.sql": f"DELETE FROM s.t WHERE {condition};\nUPDATE s.t SET x = 1 WHERE {condition};\n",
        "delta-lint.yaml": "tables:\n  s.t:\n    partitioned_by: [day]\n",
    }
    p = write(tmp_path, files)
    out = json.loads(cli("check", ".", "--format", "json", cwd=p).stdout)["findings"]
    assert sorted({(f["rule"], f["severity"]) for f in out}) == expect


def test_jobs_json_exports(tmp_path):
    export = {
        "job_id": 123,
        "settings": {
            "name": "nightly",
            "schedule": {"quartz_cron_expression": "0 0 2 * * ?", "timezone_id": "UTC"},
            "tasks": [
                {"task_key": "a", "notebook_task": {"notebook_path": "/Workspace/Repos/me/proj/jobs/a"}},
                {"task_key": "b", "spark_python_task": {"python_file": "jobs/b.py"}},
            ],
        },
    }
    p = write(
        tmp_path,
        {
            "exports/nightly.json": json.dumps(export),
            "jobs/a.py": "spark.sql('DELETE FROM s.t WHERE id = 1')\n",
            "jobs/b.py": "spark.sql('UPDATE s.t SET x = 1 WHERE id = 1')\n",
            "delta-lint.yaml": "job_definitions: exports\n",
        },
    )
    pairs = graph(p, ".")
    assert pairs[frozenset(("nightly.a", "nightly.b"))]["overlap"] is True
    config = validate({"job_definitions": "exports"}, p / "delta-lint.yaml")
    wf = load_workflows(config)
    assert wf.jobs["nightly"].tasks["a"].files == ("jobs/a.py",)  # a workspace path matched in the project


def test_bundle_variables_and_workspace_paths_resolve(tmp_path):
    p = write(
        tmp_path,
        {
            "databricks.yml": """\
bundle: {name: b}
variables:
  folder: {default: sql}
targets:
  prod:
    default: true
    variables: {folder: jobs}
resources:
  jobs:
    j:
      tasks:
        - task_key: t
          sql_task: {warehouse_id: w, file: {path: "${workspace.file_path}/${var.folder}/x.sql"}}
""",
            "jobs/x.sql": "DELETE FROM s.t WHERE id = 1;\n",
        },
    )
    config = validate({}, p / "delta-lint.yaml")
    assert load_workflows(config).jobs["j"].tasks["t"].files == ("jobs/x.sql",)


def test_bad_bundle_and_duration_configuration(tmp_path):
    p = write(tmp_path, {"databricks.yml": "resources: [1, 2\n", "a.sql": "SELECT 1;\n"})
    # found at the root: reported at its line, and the rest is analysed
    proc = cli("check", ".", cwd=p)
    assert proc.returncode == 0 and "databricks.yml:2:1: DL003 invalid YAML" in proc.stdout, proc.stdout
    # named by the user: a configuration error
    proc = cli("check", ".", "--bundle", "databricks.yml", cwd=p)
    assert proc.returncode == 2 and "databricks.yml" in proc.stderr and "Traceback" not in proc.stderr
    p2 = write(tmp_path / "d", {"delta-lint.yaml": "duration:\n  nightly: soon\n", "a.sql": "SELECT 1;\n"})
    proc = cli("check", ".", cwd=p2)
    assert proc.returncode == 2 and "`duration.nightly`" in proc.stderr


# -- cron semantics ----------------------------------------------------------------------------


def runs(expr: str, tz: str | None = "UTC") -> list[datetime]:
    return list(fire_times(expr, tz, *YEAR))


def test_quartz_day_of_week_numbering_and_specials():
    assert translate("0 0 12 ? * 2").expr == "0 0 12 * * 1"  # Quartz 2 = Monday
    assert runs("0 0 12 ? * 2")[0] == datetime(2024, 1, 1, 12, tzinfo=UTC)  # a Monday
    assert runs("0 0 12 ? * MON-FRI")[:2] == [
        datetime(2024, 1, 1, 12, tzinfo=UTC),
        datetime(2024, 1, 2, 12, tzinfo=UTC),
    ]
    assert runs("0 0 12 ? * 6L")[0] == datetime(2024, 1, 26, 12, tzinfo=UTC)  # last Friday of January
    assert runs("0 0 12 ? * 2#1")[1] == datetime(2024, 2, 5, 12, tzinfo=UTC)  # first Monday of February
    assert runs("0 0 12 L * ?")[1] == datetime(2024, 2, 29, 12, tzinfo=UTC)
    june = [r for r in runs("0 0 12 15W * ?") if r.month == 6]
    assert june == [datetime(2024, 6, 14, 12, tzinfo=UTC)]  # the 15th is a Saturday: Friday
    assert [r for r in runs("0 0 12 1W * ?") if r.month == 6] == [datetime(2024, 6, 3, 12, tzinfo=UTC)]
    assert [r for r in runs("0 0 12 LW * ?") if r.month == 3] == [datetime(2024, 3, 29, 12, tzinfo=UTC)]
    assert [r for r in runs("0 0 12 L-3 * ?") if r.month == 2] == [datetime(2024, 2, 26, 12, tzinfo=UTC)]
    assert len(runs("0 0/15 * * * ?")) == 366 * 96  # every 15 minutes of the leap year
    with pytest.raises(CronError):
        translate("0 0 12 * *")


def test_utc_weekly_schedules_equal_the_zone_conversion():
    """UTC schedules shift their first week instead of converting every run; a zone
    with the same rules (Etc/UTC) takes the converting path and must agree."""
    start, end = horizon(timedelta(hours=3))
    for expr in ("0 15 9 * * ?", "0 0/15 * * * ?", "0 30 2 ? * MON-FRI", "0 0 3 ? * SUN", "0 5 */2 * * ?"):
        utc = fire_times(expr, "UTC", start, end)
        assert utc and utc == fire_times(expr, "Etc/UTC", start, end), expr
        assert utc[0] >= start and utc[-1] < end


@pytest.mark.parametrize("tz", ["UTC", None, "Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe"])
def test_weekly_schedules_agree_with_the_day_by_day_path_in_every_week(tz):
    """A schedule that constrains only the time and the weekday is laid over the
    horizon from one week's times, kept per week (a zone's week that holds a clock
    change has other times than the week before it). Asked first for one week, then
    for windows across clock changes, it must give what the same schedule written
    with a day-of-month range (evaluated day by day) gives."""
    windows = [
        (datetime(2024, 1, 3, tzinfo=UTC), timedelta(days=2)),
        (datetime(2024, 3, 29, tzinfo=UTC), timedelta(days=4)),  # Europe's spring change (Mar 31)
        (datetime(2024, 3, 9, tzinfo=UTC), timedelta(days=3)),  # America's (Mar 10)
        (datetime(2024, 4, 6, tzinfo=UTC), timedelta(days=2)),  # Lord Howe's half hour (Apr 7)
        (datetime(2024, 10, 25, tzinfo=UTC), timedelta(days=10)),  # autumn, both sides
    ]
    for weekly, daily in (("0 30 2 * * ?", "0 30 2 1-31 * ?"), ("0 0/20 2-3 * * ?", "0 0/20 2-3 1-31 * ?")):
        for start, length in windows:
            got = fire_times(weekly, tz, start, start + length)
            assert got == fire_times(daily, tz, start, start + length), (weekly, tz, start)


def test_cron_windows_across_a_time_zone_and_a_day_boundary():
    ny = runs("0 30 23 * * ?", "America/New_York")
    assert ny[0] == datetime(2024, 1, 1, 4, 30, tzinfo=UTC)  # 23:30 EST on Dec 31 is 04:30 UTC on Jan 1
    assert datetime(2024, 7, 1, 3, 30, tzinfo=UTC) in ny  # 23:30 EDT
    five = runs("0 0 5 * * ?")
    hit = first_overlap(tuple(ny), timedelta(hours=1), tuple(five), timedelta(minutes=30))
    assert hit is not None and hit[1].start.hour == 5
    assert first_overlap(tuple(ny), timedelta(minutes=20), tuple(five), timedelta(minutes=30)) is None
    four = runs("0 0 4 * * ?")  # meets the New York job only in summer time
    summer = first_overlap(tuple(ny), timedelta(hours=1), tuple(four), timedelta(minutes=20))
    assert summer is not None and summer[0].start.month == 3


def test_descriptions_and_durations():
    assert describe("0 0 * * * ?", "UTC") == "hourly at :00"
    assert describe("0 30 2 * * ?", "UTC") == "daily at 02:30 UTC"
    assert describe("0 0 3 ? * SUN", "Europe/Amsterdam") == "weekly on Sun at 03:00 Europe/Amsterdam"
    assert describe("0 0/10 * * * ?", None) == "every 10 min"
    assert parse_duration("1h30m") == timedelta(minutes=90)
    assert parse_duration(45) == timedelta(minutes=45)
    with pytest.raises(CronError):
        parse_duration("0m")


def test_schedule_without_bundle_keeps_file_jobs(tmp_path):
    config = validate({"bundle": False}, tmp_path / "delta-lint.yaml")
    sched = build_schedule(config, {"a.sql": "a.sql", "b.sql": "b.sql"}, load_workflows(config))
    pairs = {frozenset((a.key(), b.key())): c for a, b, c, _ in sched.graph()}
    assert pairs[frozenset(("a.sql", "b.sql"))] is not None
    assert pairs[frozenset(("a.sql",))] is None
    assert check  # the pipeline entry point used by the other tests


def test_absurd_durations_are_configuration_errors(tmp_path):
    """Found by the long fuzz run: a huge number of minutes overflowed timedelta."""
    for value in (1440000000000.0, float("inf"), "100000h", 0, -5):
        with pytest.raises(CronError):
            parse_duration(value)
    assert parse_duration("31d".replace("31d", "744h")) == timedelta(days=31)


def test_task_paths_resolve_through_links_and_linked_folders(tmp_path):
    """A task file is found with one lstat and its folder's resolution; a linked file
    and a file in a linked folder still resolve to where they really are, a missing
    file or a folder is not a task file, and a path without a suffix finds `.py`."""
    from delta_lint.bundle import load_bundle

    write(tmp_path, {"src/a.py": "x = 1\n", "src/b.sql": "SELECT 1;\n"})
    os.symlink(tmp_path / "src" / "a.py", tmp_path / "link.py")
    os.symlink(tmp_path / "src", tmp_path / "linked")
    tasks = {
        "plain": "notebook_task: {notebook_path: src/a.py}",
        "bare": "notebook_task: {notebook_path: src/a}",
        "file_link": "notebook_task: {notebook_path: link.py}",
        "folder_link": "sql_task: {warehouse_id: w, file: {path: linked/b.sql}}",
        "missing": "notebook_task: {notebook_path: src/none.py}",
        "folder": "notebook_task: {notebook_path: src}",
    }
    body = "".join(f"        - task_key: {k}\n          {v}\n" for k, v in tasks.items())
    (tmp_path / "databricks.yml").write_text(f"resources:\n  jobs:\n    j:\n      tasks:\n{body}")
    job = load_bundle(tmp_path / "databricks.yml", None, tmp_path).jobs["j"]
    files = {key: task.files for key, task in job.tasks.items()}
    assert files == {
        "plain": ("src/a.py",),
        "bare": ("src/a.py",),
        "file_link": ("src/a.py",),
        "folder_link": ("src/b.sql",),
        "missing": (),
        "folder": (),
    }
    assert job.tasks["missing"].problem and job.tasks["folder"].problem


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 600), max_size=20),
    st.lists(st.integers(0, 600), max_size=20),
    st.integers(1, 60),
    st.integers(1, 60),
)
def test_the_overlap_sweep_finds_intersecting_runs_exactly_when_there_are_some(xs, ys, da, db):
    """Against every pair of windows: the sweep answers None only when no two runs'
    windows intersect, and otherwise two windows of the inputs that do."""
    base = datetime(2024, 1, 1, tzinfo=UTC)
    a = tuple(base + timedelta(minutes=x) for x in sorted(set(xs)))
    b = tuple(base + timedelta(minutes=y) for y in sorted(set(ys)))
    wa, wb = timedelta(minutes=da), timedelta(minutes=db)
    any_hit = any(s < t + wb and t < s + wa for s in a for t in b)
    hit = first_overlap(a, wa, b, wb)
    assert (hit is not None) == any_hit
    if hit is not None:
        assert hit[0].start in a and hit[1].start in b
        assert hit[0].end - hit[0].start == wa and hit[1].end - hit[1].start == wb
        assert hit[0].start < hit[1].end and hit[1].start < hit[0].end


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([15, 20, 30, 45, 60, 90, 120, 180]),
    st.sampled_from([15, 20, 30, 45, 60, 90, 120, 180]),
    st.integers(0, 179),
    st.integers(0, 179),
    st.integers(1, 120),
    st.integers(1, 120),
)
def test_the_sweep_of_periodic_runs_looks_at_one_common_period_only_when_that_suffices(pa, pb, oa, ob, da, db):
    """Two strictly periodic schedules are swept over one common period: the answer
    must be the one of the whole horizon."""
    base = datetime(2024, 1, 1, tzinfo=UTC)
    a = tuple(base + timedelta(minutes=oa + k * pa) for k in range(3 * 24 * 60 // pa))
    b = tuple(base + timedelta(minutes=ob + k * pb) for k in range(3 * 24 * 60 // pb))
    wa, wb = timedelta(minutes=da), timedelta(minutes=db)
    any_hit = any(s < t + wb and t < s + wa for s in a for t in b)
    assert (first_overlap(a, wa, b, wb) is not None) == any_hit
