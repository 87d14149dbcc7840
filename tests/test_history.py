"""`delta-lint history` on files: the fixture's exported history, hand-written logs
with Databricks-style `job` fields, and hostile history files. The JVM tests (real
Delta tables written with forced interleavings) are in test_history_delta.py."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from delta_lint.settings.spark import ALLOWED_SQL
from tests.conftest import FIXTURES, ROOT, run_cli

CUSTOMERS = FIXTURES / "history" / "customers.jsonl"

BUNDLE = """\
bundle: {name: history_test}
resources:
  jobs:
    load_a:
      name: load_a
      schedule: {quartz_cron_expression: "0 0 1 * * ?", timezone_id: UTC}
      tasks:
        - task_key: a
          sql_task: {warehouse_id: w, file: {path: a.sql}}
    load_b:
      name: load_b
      schedule: {quartz_cron_expression: "0 %s * * ?", timezone_id: UTC}
      tasks:
        - task_key: b
          sql_task: {warehouse_id: w, file: {path: b.sql}}
"""
CONFIG = """\
default_schema: main.s
locations: {t: tables/t}
duration: {default: 30m}
"""
PROTOCOL = {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}
METADATA = {
    "metaData": {
        "id": "00000000-0000-4000-8000-000000000001",
        "format": {"provider": "parquet", "options": {}},
        "schemaString": json.dumps(
            {"type": "struct", "fields": [{"name": "day", "type": "string", "nullable": True, "metadata": {}}]}
        ),
        "partitionColumns": [],
        "configuration": {},
        "createdTime": 1700000000000,
    }
}
START = datetime(2026, 11, 1, 1, 0, tzinfo=timezone.utc)


def commit_info(minutes: int, operation: str, read: int | None, job: str | None = None, **extra) -> dict:
    info = {
        "timestamp": int((START + timedelta(minutes=minutes)).timestamp() * 1000),
        "operation": operation,
        "operationParameters": {},
        "isolationLevel": "WriteSerializable",
        "isBlindAppend": operation == "WRITE",
        **extra,
    }
    if read is not None:
        info["readVersion"] = read
    if job is not None:
        number = "1" if job == "load_a" else "2"
        info["job"] = {
            "jobId": number,
            "jobName": job,
            "runId": f"{number}00",
            "jobOwnerId": "7",
            "triggerType": "cron",
        }
    return info


def project(tmp_path: Path, b_cron: str, commits: list[dict]) -> Path:
    """A project of two cron jobs writing `main.s.t` (load_a at 01:00; load_b per
    `b_cron`, minutes and hours), whose table's log holds `commits` after the CREATE."""
    (tmp_path / "delta-lint.yaml").write_text(CONFIG)
    (tmp_path / "databricks.yml").write_text(BUNDLE % b_cron)
    (tmp_path / "a.sql").write_text("UPDATE t SET day = '2024-01-03' WHERE day = '2024-01-02';\n")
    (tmp_path / "b.sql").write_text("DELETE FROM t WHERE day < '2024-01-01';\n")
    log = tmp_path / "tables" / "t" / "_delta_log"
    log.mkdir(parents=True)
    create = commit_info(-60, "CREATE TABLE", None)
    actions = [[{"commitInfo": create}, PROTOCOL, METADATA]]
    for info in commits:
        add = {"add": {"path": f"part-{len(actions)}.parquet", "size": 1, "modificationTime": 0, "dataChange": True}}
        actions.append([{"commitInfo": info}, add])
    for version, lines in enumerate(actions):
        (log / f"{version:020d}.json").write_text("".join(json.dumps(a) + "\n" for a in lines))
    return tmp_path


def history(*args: str, cwd: Path = ROOT):
    return run_cli("history", *args, cwd=cwd)


# -- the fixture --------------------------------------------------------------------------------


def test_fixture_history_shows_two_jobs_meeting_that_the_bundle_says_never_meet():
    done = history("fixtures/jobs", "--history-file", str(CUSTOMERS.relative_to(ROOT)))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "main.sales.customers: 270 commits from 2026-10-27 to 2026-11-25 (30 days;" in done.stdout
    pair = lines.index(
        "    `customers_evolve` with `customers_sync`: 3 times, last 2026-11-21 03:08 UTC (versions 115, 187, 268)"
    )
    assert lines[pair + 1].startswith(
        "      the schedule is wrong: these jobs met 3 times in 30 days, but the schedule says they cannot overlap "
        "(`customers_evolve` runs daily at 03:00 UTC for ~30 min and `customers_sync` daily at 01:00 UTC"
    )
    assert "1 overlap the schedule says cannot happen" in lines[-1]


def test_fixture_history_as_json_matches_predictions_to_what_was_seen():
    done = history("fixtures/jobs", "--history-file", str(CUSTOMERS), "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    customers = next(t for t in report["tables"] if t["table"] == "main.sales.customers")
    verdicts = {tuple(sorted(o["jobs"])): (o["schedule"], o["times"]) for o in customers["overlaps"]}
    assert verdicts == {
        ("customers_evolve", "customers_sync"): ("contradicts", 3),
        ("customers_sync", "events_stream"): ("agrees", 27),
    }
    seen = {(p["rule"], tuple(sorted(p["jobs"]))): p["seen_overlapping"] for p in customers["predicted_conflicts"]}
    # UPDATE (customers_sync) and the stream's MERGE met 27 times and both committed;
    # the schema-evolving MERGE (customers_evolve) never met the stream
    assert seen == {
        ("DL102", ("customers_sync", "events_stream")): 27,
        ("DL111", ("customers_evolve", "events_stream")): 0,
    }
    windows = {w["writer"]: w for w in customers["run_windows"]}
    assert windows["customers_sync"]["runs"] == 30 and windows["customers_sync"]["latest_start"] == "03:08"
    assert report["contradictions"] == 1


def test_fixture_history_in_markdown_names_the_contradiction():
    done = history("fixtures/jobs", "--history-file", str(CUSTOMERS), "--format", "markdown")
    assert done.returncode == 1
    assert "| `customers_evolve` with `customers_sync` | 3 times | 2026-11-21 03:08 UTC | the schedule is wrong" in (
        done.stdout
    )


# -- hand-written logs with Databricks-style job fields ------------------------------------------


def test_log_gap_between_jobs_the_schedule_keeps_apart_is_a_contradiction(tmp_path):
    # load_b (03:00) read version 1 and committed version 3: load_a's version 2 came in between
    commits = [
        commit_info(0, "WRITE", 0, "load_a"),
        commit_info(125, "WRITE", 1, "load_a"),
        commit_info(130, "DELETE", 1, "load_b"),
    ]
    done = history(cwd=project(tmp_path, "0 3", commits))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "`load_a` with `load_b`: once, last 2026-11-01 03:10 UTC (versions 3)" in done.stdout
    assert "the schedule is wrong: these jobs met once in 1 day" in done.stdout
    assert "their runs never meet" in done.stdout


def test_log_without_gap_shows_no_overlap(tmp_path):
    commits = [
        commit_info(0, "WRITE", 0, "load_a"),
        commit_info(125, "WRITE", 1, "load_a"),
        commit_info(130, "DELETE", 2, "load_b"),  # read the version just before: ran after
    ]
    done = history(cwd=project(tmp_path, "0 3", commits))
    assert done.returncode == 0, done.stdout
    assert "main.s.t: 4 commits" in done.stdout
    assert "no writers overlapped" in done.stdout


def test_log_gap_between_jobs_the_schedule_lets_meet_agrees(tmp_path):
    commits = [commit_info(5, "WRITE", 0, "load_a"), commit_info(20, "DELETE", 0, "load_b")]
    done = history(cwd=project(tmp_path, "15 1", commits))  # load_b at 01:15 meets load_a's ~30 min
    assert done.returncode == 0, done.stdout
    assert "`load_a` with `load_b`: once" in done.stdout
    assert (
        "the schedule agrees: `load_a` runs daily at 01:00 UTC for ~30 min and `load_b` daily at 01:15" in done.stdout
    )
    # the predicted DELETE/INSERT conflict was seen overlapping and both committed
    assert "(`load_a`, `load_b`): seen overlapping once without failing" in done.stdout


def test_writer_named_by_user_metadata_is_matched_to_its_job(tmp_path):
    commits = [
        commit_info(125, "WRITE", 0, userMetadata="load_a"),
        commit_info(130, "DELETE", 0, userMetadata="load_b"),
    ]
    done = history("--format", "json", cwd=project(tmp_path, "0 3", commits))
    assert done.returncode == 1
    (overlap,) = json.loads(done.stdout)["tables"][0]["overlaps"]
    assert overlap["writers"] == ["WRITE (load_a)", "DELETE (load_b)"]
    assert overlap["jobs"] == ["load_a", "load_b"] and overlap["schedule"] == "contradicts"


def test_writers_outside_the_project_are_listed_unmatched(tmp_path):
    commits = [commit_info(125, "OPTIMIZE", 0), commit_info(130, "DELETE", 0, "load_b")]
    done = history(cwd=project(tmp_path, "0 3", commits))
    assert done.returncode == 0
    assert "`OPTIMIZE` with `load_b`: once" in done.stdout
    assert "not matched to the schedule: `OPTIMIZE` not among the project's jobs" in done.stdout


def test_spark_none_reads_no_log(tmp_path):
    commits = [commit_info(125, "WRITE", 0, "load_a"), commit_info(130, "DELETE", 0, "load_b")]
    done = history("--spark", "none", cwd=project(tmp_path, "0 3", commits))
    assert done.returncode == 0
    assert "history not read (--spark none reads no history live (give --history-file)): main.s.t" in done.stdout


# -- history files: options and hostile input -----------------------------------------------------


def rows(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "history.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def row(version: int, read: int, job: str, minutes: int, **extra) -> str:
    stamp = (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    data = {"version": version, "timestamp": stamp, "operation": "WRITE", "readVersion": read}
    data["job"] = {"jobId": 1, "jobName": job, "jobRunId": 10 + version, "runId": 100 + version}
    return json.dumps({**data, **extra})


def test_history_file_with_table_prefix_and_bad_rows(tmp_path):
    root = project(tmp_path, "0 3", [])
    path = rows(
        tmp_path,
        row(1, 0, "load_a", 125),
        '{"version": "two", "operation": "WRITE"}',
        "not json",
        json.dumps({"operation": "WRITE", "readVersion": 0}),
        row(2, 0, "load_b", 130),
        json.dumps({"version": 3, "readVersion": 7}),
    )
    done = history("--history-file", f"t={path}", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "`load_a` with `load_b`: once" in done.stdout
    assert f"; {path})" in done.stdout  # the table's source
    errors = done.stderr.splitlines()
    assert f"delta-lint: warning: {path}:2: `version`: expected `int | null`, got `str`" in errors
    assert any(e.startswith(f"delta-lint: warning: {path}:3: not JSON") for e in errors)
    assert f"delta-lint: warning: {path}:4: `version`: is required" in errors
    assert f"delta-lint: warning: {path}:6: `readVersion`: 7 is not a version before 3" in errors
    assert "Traceback" not in done.stderr


def test_history_files_of_the_configuration_are_read_from_its_folder(tmp_path):
    """`history_files:` in delta-lint.yaml, relative to its folder, stands in for
    `--history-file`; an option given replaces it, a missing file is exit 2."""
    root = project(tmp_path, "0 3", [])
    (root / "history").mkdir()
    (root / "history" / "t.jsonl").write_text(row(1, 0, "load_a", 125) + "\n" + row(2, 0, "load_b", 130) + "\n")
    (root / "delta-lint.yaml").write_text(CONFIG + "history_files: [t=history/t.jsonl]\n")
    done = history(cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "`load_a` with `load_b`: once" in done.stdout
    quiet = rows(tmp_path, row(1, 0, "load_a", 125), row(2, 1, "load_b", 130))
    done = history("--history-file", f"t={quiet}", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    (root / "delta-lint.yaml").write_text(CONFIG + "history_files: [t=history/gone.jsonl]\n")
    done = history(cwd=root)
    assert done.returncode == 2
    assert "history_files: history/gone.jsonl: no such file" in done.stderr


def test_history_file_rows_need_a_table(tmp_path):
    root = project(tmp_path, "0 3", [])
    path = rows(tmp_path, row(1, 0, "load_a", 125))
    done = history("--history-file", str(path), "--spark", "none", cwd=root)
    assert done.returncode == 2  # not one row read
    assert "names no `table` (add one, or give the file as TABLE=FILE)" in done.stderr


def test_history_file_naming_another_table_is_said(tmp_path):
    root = project(tmp_path, "0 3", [])
    path = rows(tmp_path, row(1, 0, "load_a", 125, table="main.s.other"))
    done = history("--history-file", str(path), "--spark", "none", cwd=root)
    assert "main.s.other: in the history file, but the project writes no such table" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--history-file", "missing.jsonl"), "--history-file missing.jsonl: no such file"),
        (("--since", "30 days"), "--since must be a number of hours, days or weeks"),
        (("--history-file", "tables"), "--history-file tables: not a regular file"),
        (("--history-file", "a.sql"), "a.sql: no history rows (first problem: a.sql:1: not JSON: Expecting value)"),
        (("--history-file", "latin1.jsonl"), "latin1.jsonl: not UTF-8 text (byte 11)"),
        (("--history-file", "empty.jsonl"), "empty.jsonl: no history rows"),
    ],
)
def test_bad_options_exit_2_with_one_line(tmp_path, args, message):
    root = project(tmp_path, "0 3", [])
    (root / "latin1.jsonl").write_bytes(b'{"table": "\xe9"}\n')
    (root / "empty.jsonl").write_text("\n")
    done = history(*args, cwd=root)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_oversized_history_file_is_refused(tmp_path, monkeypatch):
    import delta_lint.history

    monkeypatch.setattr(delta_lint.history, "MAX_FILE_BYTES", 100)
    root = project(tmp_path, "0 3", [])
    path = rows(tmp_path, *(row(v, v - 1, "load_a", v) for v in range(1, 10)))
    done = history("--history-file", f"t={path}", cwd=root)
    assert done.returncode == 2
    assert f"delta-lint: error: {path}: file is 0.0 MB; files over 0 MB are not read" in done.stderr


def test_since_leaves_out_older_meetings(tmp_path):
    now = datetime.now(timezone.utc)
    old, recent = now - timedelta(days=20), now - timedelta(days=1)

    def at(version: int, read: int, job: str, when: datetime) -> str:
        return json.dumps(
            {
                "version": version,
                "timestamp": when.isoformat(),
                "operation": "WRITE",
                "readVersion": read,
                "job": {"jobName": job},
            }
        )

    path = rows(tmp_path, at(1, 0, "load_a", old), at(2, 0, "load_b", old), at(3, 2, "load_a", recent))
    root = project(tmp_path, "0 3", [])
    assert history("--history-file", f"t={path}", cwd=root).returncode == 1
    done = history("--history-file", f"t={path}", "--since", "7d", cwd=root)
    assert done.returncode == 0, done.stdout
    assert "main.s.t: 1 commit from" in done.stdout


def test_describe_history_allow_list_takes_a_bounded_limit_only():
    assert any(p.match("DESCRIBE HISTORY `main`.`s`.`t` LIMIT 20000") for p in ALLOWED_SQL)
    assert any(p.match("DESCRIBE HISTORY delta.`/data/t` LIMIT 1") for p in ALLOWED_SQL)
    for text in (
        "DESCRIBE HISTORY `t`",
        "DESCRIBE HISTORY `t` LIMIT 0",
        "DESCRIBE HISTORY `t` LIMIT 100000",
        "DESCRIBE HISTORY `t` LIMIT 1; DROP TABLE `t`",
    ):
        assert not any(p.match(text) for p in ALLOWED_SQL), text


def test_the_example_of_docs_history_is_real_output():
    page = (ROOT / "docs" / "history.md").read_text()
    block = page.split("$ delta-lint history fixtures/jobs --history-file fixtures/history/customers.jsonl\n")[1]
    shown = [line for line in block.split("```")[0].splitlines() if line != "..."]
    done = history("fixtures/jobs", "--history-file", str(CUSTOMERS.relative_to(ROOT)))
    lines = done.stdout.splitlines()
    assert len(shown) > 10
    for line in shown:
        assert line in lines, line


# -- check --durations-from history --------------------------------------------------------------


def dl111_related(*args: str) -> tuple[list[str], str]:
    done = run_cli("check", "fixtures/jobs", "--format", "json", *args)
    assert done.returncode == 1, done.stderr
    (found,) = [f for f in json.loads(done.stdout)["findings"] if f["rule"] == "DL111"]
    return sorted(r["path"] for r in found["related"]), done.stderr


def test_check_with_durations_from_history_sees_the_late_runs_meet():
    related, said = dl111_related("--durations-from", "history", "--history-file", str(CUSTOMERS))
    # customers_sync, queued until 02:40 on three days, wrote until 03:15: 135 minutes after its
    # 01:00 cron time, so its runs meet customers_evolve's (03:00) and its UPDATE joins the finding
    assert related == ["fixtures/jobs/notebooks/customer_sync.py", "fixtures/jobs/stream_events.py"]
    assert "note: duration of `customers_sync` from history: 135m (longest of 30 runs" in said
    assert "configured 30m" in said


def test_check_without_durations_from_history_keeps_the_configured_ones():
    related, said = dl111_related()
    assert related == ["fixtures/jobs/stream_events.py"]
    assert "from history" not in said


def test_durations_from_history_needs_a_history_file():
    done = run_cli("check", "fixtures/jobs", "--durations-from", "history")
    assert done.returncode == 2
    assert "--durations-from history and --history-file (or `history_files:` in the configuration) go together" in (
        done.stderr
    )


def test_hostile_history_rows_stay_bounded(tmp_path):
    from tests.limits import within

    root = project(tmp_path, "0 3", [])
    lines = [row(v, v - 1, "load_a", v % 1000) for v in range(1, 5001)]
    # a commit that claims to have read nothing of a trillion versions, and a name of 100,000 characters
    lines.append(
        json.dumps({"version": 10**12, "readVersion": -1, "operation": "WRITE", "job": {"jobName": "x" * 10**5}})
    )
    lines.append('{"version": 7, "operationParameters": ' + "[" * 50_000 + "]" * 50_000 + "}")
    path = rows(tmp_path, *lines)
    with within(60):
        done = history("--history-file", f"t={path}", "--format", "json", cwd=root)
    assert done.returncode == 0, done.stderr
    (table,) = json.loads(done.stdout)["tables"]
    (overlap,) = table["overlaps"]
    assert overlap["writers"] == ["load_a", "x" * 200] and overlap["times"] == 200  # the nearest MAX_GAP
    assert f"{path}:5002: not JSON" in done.stderr
    assert "Traceback" not in done.stderr


def test_history_file_as_a_json_array_names_bad_rows_by_number(tmp_path):
    root = project(tmp_path, "0 3", [])
    path = tmp_path / "history.json"
    path.write_text(
        json.dumps([json.loads(row(1, 0, "load_a", 125)), {"version": "x"}, json.loads(row(2, 0, "load_b", 130))])
    )
    done = history("--history-file", f"t={path}", cwd=root)
    assert done.returncode == 1
    assert f"{path}:2: `version`: expected `int | null`, got `str`" in done.stderr


def test_history_writes_nothing_to_the_tables_it_reads():
    import hashlib

    def digest() -> dict[str, str]:
        folder = FIXTURES / "tables"
        return {
            str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }

    before = digest()
    done = history("fixtures/jobs", "--history-file", str(CUSTOMERS))
    assert done.returncode == 1 and "log tables/orders/_delta_log" in done.stdout
    assert digest() == before


def test_a_prediction_with_several_other_writes_is_matched_per_job(tmp_path):
    root = project(tmp_path, "0 3", [])
    bundle = (root / "databricks.yml").read_text() + (
        "    alter_c:\n"
        "      name: alter_c\n"
        "      continuous: {pause_status: UNPAUSED}\n"
        "      tasks:\n"
        "        - task_key: c\n"
        "          sql_task: {warehouse_id: w, file: {path: c.sql}}\n"
    )
    (root / "databricks.yml").write_text(bundle)
    (root / "c.sql").write_text("ALTER TABLE t ADD COLUMNS (extra STRING);\n")
    path = rows(tmp_path, row(1, 0, "load_b", 130), row(2, 0, "alter_c", 131))
    done = history("--history-file", f"t={path}", "--format", "json", cwd=root)
    (table,) = json.loads(done.stdout)["tables"]
    seen = {
        (p["location"], p["related"], tuple(p["jobs"])): p["seen_overlapping"] for p in table["predicted_conflicts"]
    }
    assert seen[("c.sql:1:1", "a.sql:1:1", ("alter_c", "load_a"))] == 0
    assert seen[("c.sql:1:1", "b.sql:1:1", ("alter_c", "load_b"))] == 1
