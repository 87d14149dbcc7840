"""Databricks' system tables as `delta-lint history` reads them, on tables of the
documented schemas made in the embedded engine (Sail): `system.access.table_lineage`
(which job wrote which table), `system.lakeflow.jobs` (job names, an SCD2 table) and
`system.lakeflow.job_run_timeline` (run windows, long runs in hourly slices). The
column names follow https://docs.databricks.com/admin/system-tables/lineage.html and
https://docs.databricks.com/admin/system-tables/jobs.html; a real workspace is not
reachable from the tests."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from delta_lint.config import load_config
from delta_lint.history import observe_runs, read_system_tables
from delta_lint.history_match import JobIndex, match_table
from delta_lint.run import overlap_schedule
from delta_lint.settings.spark import open_spark
from tests.conftest import FIXTURES

LINEAGE = (
    "account_id STRING, metastore_id STRING, workspace_id STRING, entity_type STRING, entity_id STRING, "
    "entity_run_id STRING, source_table_full_name STRING, source_type STRING, target_table_full_name STRING, "
    "target_type STRING, created_by STRING, event_time TIMESTAMP, event_date DATE"
)
TIMELINE = (
    "account_id STRING, workspace_id STRING, job_id STRING, run_id STRING, period_start_time TIMESTAMP, "
    "period_end_time TIMESTAMP, trigger_type STRING, run_type STRING, run_name STRING, result_state STRING, "
    "termination_code STRING"
)
JOBS = (
    "account_id STRING, workspace_id STRING, job_id STRING, name STRING, description STRING, creator_id STRING, "
    "change_time TIMESTAMP, delete_time TIMESTAMP, run_as STRING"
)
NAMES = {"lineage": "table_lineage", "runs": "job_run_timeline", "jobs": "jobs"}
CUSTOMERS = "main.sales.customers"


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=timezone.utc)


def lineage(job: str, table: str, when: datetime, kind: str = "JOB", ws: str = "ws") -> tuple:
    return ("acc", "meta", ws, kind, job, "r", "main.staging.src", "TABLE", table, "TABLE", "etl", when, when.date())


def run(
    job: str, run_id: str, start: datetime, end: datetime, state: str | None = "SUCCEEDED", ws: str = "ws"
) -> tuple:
    return ("acc", ws, job, run_id, start, end, "CRON", "JOB_RUN", run_id, state, None)


def job(job_id: str, name: str, changed: datetime, ws: str = "ws") -> tuple:
    return ("acc", ws, job_id, name, None, "u", changed, None, "u")


@pytest.fixture(scope="module")
def session():
    with open_spark("embedded", 30) as handle:
        yield handle.session


def make_tables(session, late_run_end: datetime, elsewhere: list[tuple] = ()) -> None:
    """The fixture's two writers of customers; `elsewhere` adds run rows (of other
    workspaces)."""
    spark = session.spark
    spark.createDataFrame(
        [
            lineage("101", CUSTOMERS, at(2, 1, 20)),
            lineage("101", CUSTOMERS, at(3, 3, 8)),
            lineage("102", CUSTOMERS, at(3, 3, 5)),
            lineage("555", CUSTOMERS, at(3, 3, 5), kind="NOTEBOOK"),  # not a job
            lineage("999", "main.sales.orders", at(3, 3, 5)),  # another table
        ],
        LINEAGE,
    ).createOrReplaceTempView("table_lineage")
    spark.createDataFrame(
        [
            job("101", "customers_sync_v1", at(1, 0)),
            job("101", "customers_sync", at(2, 0)),  # renamed: the newest row names it
            job("102", "customers_evolve", at(1, 0)),
            job("999", "orders_job", at(1, 0)),
        ],
        JOBS,
    ).createOrReplaceTempView("jobs")
    spark.createDataFrame(
        [
            run("101", "1", at(2, 1, 0), at(2, 1, 30)),
            # a late run, in two hourly slices (the first without a result)
            run("101", "2", at(3, 2, 40), at(3, 3, 0), None),
            run("101", "2", at(3, 3, 0), late_run_end),
            run("102", "3", at(2, 3, 0), at(2, 3, 25)),
            run("102", "4", at(3, 3, 2), at(3, 3, 30)),
            run("999", "5", at(3, 3, 0), at(3, 4, 0)),
            *elsewhere,
        ],
        TIMELINE,
    ).createOrReplaceTempView("job_run_timeline")


def fixture_index() -> JobIndex:
    config = load_config(FIXTURES / "delta-lint.yaml")
    return JobIndex(overlap_schedule([FIXTURES], config))


def test_system_tables_give_writers_names_and_whole_run_windows(session):
    make_tables(session, at(3, 3, 15))
    system = read_system_tables(session, [CUSTOMERS], None, NAMES)
    assert system.writers == {CUSTOMERS: {"101": 2, "102": 1}}
    assert system.names == {"101": "customers_sync", "102": "customers_evolve"}
    windows = {(r.job_id, r.run_id): (r.start, r.end) for r in system.runs}
    assert windows == {
        ("101", "1"): (at(2, 1, 0), at(2, 1, 30)),
        ("101", "2"): (at(3, 2, 40), at(3, 3, 15)),  # both slices
        ("102", "3"): (at(2, 3, 0), at(2, 3, 25)),
        ("102", "4"): (at(3, 3, 2), at(3, 3, 30)),
    }
    assert all(s.startswith("<table `") for s in session.sent[-3:])  # DataFrame reads only, no SQL text


def test_runs_that_met_contradict_the_fixture_schedule(session):
    make_tables(session, at(3, 3, 15))
    observed = observe_runs(CUSTOMERS, read_system_tables(session, [CUSTOMERS], None, NAMES))
    report = match_table(CUSTOMERS, "system tables", observed, fixture_index(), [], [])
    (pair,) = report.pairs
    assert {pair.overlap.first, pair.overlap.second} == {"customers_sync", "customers_evolve"}
    assert pair.overlap.times == 1 and pair.overlap.last_seen == at(3, 3, 15)
    assert pair.verdict == "contradicts" and "their runs never meet" in pair.why
    sync = next(w for w in report.windows if w.writer == "customers_sync")
    assert (sync.runs, sync.longest, sync.latest_start) == (2, at(3, 3, 15) - at(3, 2, 40), "02:40")


def test_runs_that_ended_before_the_other_began_did_not_meet(session):
    make_tables(session, at(3, 3, 1))  # the late run ended before customers_evolve's began (03:02)
    observed = observe_runs(CUSTOMERS, read_system_tables(session, [CUSTOMERS], None, NAMES))
    assert observed.overlaps == []
    assert match_table(CUSTOMERS, "system tables", observed, fixture_index(), [], []).pairs == []


def test_a_job_of_the_same_id_in_another_workspace_is_another_job(session):
    """Job ids are unique within a workspace: workspace `ws2`'s job 102 ran while
    `customers_sync` did, but it never wrote the table, so nothing met."""
    make_tables(session, at(3, 3, 1), elsewhere=[run("102", "9", at(3, 2, 45), at(3, 2, 55), ws="ws2")])
    system = read_system_tables(session, [CUSTOMERS], None, NAMES)
    assert ("102", "9") not in {(r.job_id, r.run_id) for r in system.runs}
    assert observe_runs(CUSTOMERS, system).overlaps == []


def test_writers_in_two_workspaces_are_named_apart(session):
    make_tables(session, at(3, 3, 1))
    spark = session.spark
    spark.createDataFrame(
        [lineage("101", CUSTOMERS, at(2, 1, 20)), lineage("101", CUSTOMERS, at(2, 1, 25), ws="ws2")], LINEAGE
    ).createOrReplaceTempView("table_lineage")
    system = read_system_tables(session, [CUSTOMERS], None, NAMES)
    assert system.writers == {CUSTOMERS: {"101@ws": 1, "101@ws2": 1}}
    assert system.names == {"101@ws": "customers_sync"}


def test_since_keeps_recent_lineage_and_runs(session):
    make_tables(session, at(3, 3, 15))
    system = read_system_tables(session, [CUSTOMERS], at(3, 0), NAMES)
    assert system.writers == {CUSTOMERS: {"101": 1, "102": 1}}
    assert {(r.job_id, r.run_id) for r in system.runs} == {("101", "2"), ("102", "4")}


@pytest.mark.parametrize("name", ["table_lineage", "`a`; DROP TABLE `b`", "`a`.`b` WHERE 1=1"])
def test_the_session_hands_out_tables_by_quoted_name_only(session, name):
    from delta_lint.settings.spark import UnsafeStatement

    with pytest.raises(UnsafeStatement):
        session.table(name)
