"""What really ran on a table: its commit history, read without writing anything.

Every Delta commit records a `commitInfo` (what `DESCRIBE HISTORY` shows): the
operation, `readVersion` (the version the transaction read), the isolation level,
a timestamp and, on Databricks, the job run that made it (`job.jobId`,
`jobName`, `jobRunId`, `runId`, `triggerType`) and the notebook. A commit `v`
whose `readVersion` is older than `v - 1` ran concurrently with every commit in
between, and both succeeded: that is observed overlap, not inferred.

Three sources, each giving the same `Commit` records:

* a history file a user exports (JSON lines of `DESCRIBE HISTORY` rows, a
  `table` key per row or the table given with the file): untrusted input,
  size-bounded, each row checked against `HistoryRow` (msgspec), a bad row a
  diagnostic at its line while the other rows count;
* the `_delta_log/*.json` commit files of a table with a local location: only
  the `commitInfo` line of each, read from a bounded head of the file (no Spark
  is needed to read JSON text);
* `DESCRIBE HISTORY` through a Spark session that has Delta (`--spark local`
  with the jars, `sc://...`), sent through the read-only session's allow-list.

`observe` turns a table's commits into the writer pairs that overlapped and the
run windows (first and last commit) of each job run. On Databricks,
`read_system_tables` reads which jobs wrote which table and their run windows
from the system tables, and `observe_runs` the runs that met in time.
"""

from __future__ import annotations

import json
import os
import re
import stat
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import msgspec

from delta_lint.safeio import InputRefused, read_input_text, resolves_outside
from delta_lint.schema import ConfigError

MAX_FILE_BYTES = 64 * 1024 * 1024  # an exported history: ~100,000 rows of DESCRIBE HISTORY
MAX_COMMITS = 20_000  # per table: Delta keeps 30 days of log by default; a busy table writes ~700 a day
MAX_LINE = 256 * 1024  # one row of history; a longer one is refused, not parsed
MAX_ROWS = 200_000  # per history file
MAX_GAP = 200  # commits in between one commit's read and its own version that are paired with it
MAX_NAME = 200  # characters of a job name or userMetadata kept
COMMIT_HEAD = 16 * 1024  # of a commit file: `commitInfo` is its first action
COMMIT_HEAD_MAX = 256 * 1024  # when that first action is longer (large predicates and metrics)
MAX_DIAGNOSTICS = 50  # per file; more are counted, not listed
_COMMIT_FILE = re.compile(r"^(\d{20})\.json$")
_SINCE = re.compile(r"^([1-9][0-9]{0,3})([hdw])$")


# -- the schema of one history row ---------------------------------------------------------


class HistoryJob(msgspec.Struct):
    """`job` of a commit on Databricks; identifiers are numbers or text depending on
    who exported them. Other keys (`jobOwnerId`, ...) are let through."""

    jobId: int | str | None = None  # noqa: N815 - Delta's field names
    jobName: str | None = None  # noqa: N815
    jobRunId: int | str | None = None  # noqa: N815
    runId: int | str | None = None  # noqa: N815
    triggerType: str | None = None  # noqa: N815


class HistoryNotebook(msgspec.Struct):
    notebookId: int | str | None = None  # noqa: N815
    notebookPath: str | None = None  # noqa: N815


class HistoryRow(msgspec.Struct):
    """One row of `DESCRIBE HISTORY` (or one `commitInfo` of the log, whose version is
    its file's name). Only what delta-lint reads is declared; Delta adds columns."""

    version: int | None = None
    timestamp: int | str | None = None  # epoch milliseconds (the log) or ISO text (an export)
    inCommitTimestamp: int | None = None  # noqa: N815
    operation: str | None = None
    operationParameters: dict[str, Any] | None = None  # noqa: N815
    readVersion: int | None = None  # noqa: N815
    isolationLevel: str | None = None  # noqa: N815
    isBlindAppend: bool | None = None  # noqa: N815
    userMetadata: str | None = None  # noqa: N815
    job: HistoryJob | None = None
    notebook: HistoryNotebook | None = None
    table: str | None = None  # an exported row may name its table


@dataclass(frozen=True)
class Commit:
    """One commit as delta-lint reads it."""

    version: int
    timestamp: datetime | None
    operation: str
    read_version: int | None = None
    isolation_level: str | None = None
    blind_append: bool | None = None
    job_id: str | None = None
    job_name: str | None = None
    job_run_id: str | None = None  # the job's run (tasks of one run share it)
    run_id: str | None = None  # the task's run
    trigger_type: str | None = None
    notebook: str | None = None
    user_metadata: str | None = None

    @property
    def writer(self) -> str:
        """Who made the commit, as the report names it: the job when the commit names
        one, else the operation and the commit's `userMetadata`."""
        if self.job_name:
            return self.job_name
        if self.job_id:
            return f"job {self.job_id}"
        if self.user_metadata:
            return f"{self.operation} ({self.user_metadata})"
        if self.notebook:
            return f"{self.operation} (notebook {self.notebook})"
        return self.operation

    @property
    def run(self) -> str | None:
        """The run the commit belongs to: the job's run, else the task's."""
        return self.job_run_id or self.run_id


class HistoryError(ConfigError):
    """A history source that cannot be read at all, phrased for the user (a
    ConfigError: the command line reports it in one line, exit 2)."""


@dataclass
class Histories:
    """Commits per table name (as the source names the table), and what went wrong."""

    commits: dict[str, list[Commit]] = field(default_factory=dict)
    diagnostics: list[str] = field(default_factory=list)  # `file:line: what`
    sources: dict[str, str] = field(default_factory=dict)  # table -> history file | log | DESCRIBE HISTORY
    truncated: dict[str, int] = field(default_factory=dict)  # table -> commits left out over MAX_COMMITS


def parse_since(text: str) -> timedelta:
    """`30d`, `12h`, `2w`: how far back history is read."""
    m = _SINCE.match(text.strip())
    if not m:
        raise HistoryError(f"--since must be a number of hours, days or weeks such as 30d, 12h or 2w, not {text!r}")
    count, unit = int(m.group(1)), m.group(2)
    return {"h": timedelta(hours=count), "d": timedelta(days=count), "w": timedelta(weeks=count)}[unit]


def _text(value: int | str | None) -> str | None:
    return None if value is None or value == "" else str(value)


def _timestamp(row: HistoryRow) -> datetime | None:
    value = row.inCommitTimestamp if row.inCommitTimestamp is not None else row.timestamp
    if value is None:
        return None
    if isinstance(value, int):
        try:
            return datetime.fromtimestamp(value / 1000, tz=timezone.utc)
        except (OverflowError, OSError, ValueError) as err:
            raise ValueError(f"`timestamp`: {value} is not a time in milliseconds") from err
    text = value.strip().replace(" ", "T", 1)
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError as err:
        raise ValueError(f"`timestamp`: {value[:40]!r} is not an ISO time") from err
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)


def commit_of(row: HistoryRow, version: int | None = None) -> Commit:
    """A row as a Commit; ValueError naming the key when a value makes no sense."""
    version = row.version if version is None else version
    if version is None:
        raise ValueError("`version`: is required")
    if version < 0 or (row.readVersion is not None and not -1 <= row.readVersion < version):
        raise ValueError(f"`readVersion`: {row.readVersion} is not a version before {version}")
    job, notebook = row.job, row.notebook
    return Commit(
        version=version,
        timestamp=_timestamp(row),
        operation=(row.operation or "UNKNOWN")[:100],
        read_version=row.readVersion,
        isolation_level=row.isolationLevel,
        blind_append=row.isBlindAppend,
        job_id=_text(job.jobId) if job else None,
        job_name=(job.jobName[:MAX_NAME] or None) if job and job.jobName else None,
        job_run_id=_text(job.jobRunId) if job else None,
        run_id=_text(job.runId) if job else None,
        trigger_type=job.triggerType if job else None,
        notebook=((_text(notebook.notebookPath) or _text(notebook.notebookId) or "")[:MAX_NAME] or None)
        if notebook
        else None,
        user_metadata=row.userMetadata[:MAX_NAME] if row.userMetadata else None,
    )


def _row(data: Any) -> HistoryRow:
    """`data` as a HistoryRow; ValueError with msgspec's path in plain words."""
    try:
        return msgspec.convert(data, HistoryRow, strict=True)
    except msgspec.ValidationError as err:
        message = str(err)
        where = re.search(r" - at `\$\.?(.*)`$", message)
        what = message[: where.start()] if where else message
        key = where.group(1) if where else ""
        raise ValueError(f"`{key}`: {what[0].lower() + what[1:]}" if key else what) from None


# -- a history file --------------------------------------------------------------------------


def read_history_file(path: Path, table: str | None, histories: Histories, qualify=lambda n: n) -> None:
    """Add the rows of an exported history file (JSON lines; a JSON array is read as
    rows too) to `histories`. `table`: the table of rows without a `table` key.
    `qualify` names a table as the run does. A file that cannot be read raises
    HistoryError; a bad row is a diagnostic and the others are kept."""
    try:
        text = read_input_text(path, limit=MAX_FILE_BYTES)
    except InputRefused as err:
        raise HistoryError(f"{path}: {err}") from None
    lines: Iterable[tuple[int, Any]]
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            rows = json.loads(stripped)
        except (ValueError, RecursionError) as err:
            raise HistoryError(f"{path}: not a JSON array of history rows ({err})") from None
        if not isinstance(rows, list):
            raise HistoryError(f"{path}: not a JSON array of history rows")
        lines = enumerate(rows, 1)  # numbered by row: a JSON array is often one line
    else:
        lines = _json_lines(path, text, histories)
    bad = 0
    found = 0
    first_problem = len(histories.diagnostics)
    for line, data in lines:
        found += 1
        if found > MAX_ROWS:
            histories.diagnostics.append(f"{path}: more than {MAX_ROWS} rows; the rest is not read")
            break
        try:
            if not isinstance(data, dict):
                raise ValueError("a history row must be a JSON object")
            row = _row(data)
            name = row.table or table
            if not name:
                raise ValueError("the row names no `table` (add one, or give the file as TABLE=FILE)")
            commit = commit_of(row)
        except ValueError as err:
            bad += 1
            if bad <= MAX_DIAGNOSTICS:
                histories.diagnostics.append(f"{path}:{line}: {err}")
            continue
        key = qualify(name)
        histories.commits.setdefault(key, []).append(commit)
        histories.sources[key] = str(path)
    if bad > MAX_DIAGNOSTICS:
        histories.diagnostics.append(f"{path}: {bad - MAX_DIAGNOSTICS} more rows not read")
    if found == bad:  # not one row: the wrong file, not a file with a few bad rows
        said = histories.diagnostics[first_problem:]
        raise HistoryError(f"{path}: no history rows" + (f" (first problem: {said[0]})" if said else ""))


def _json_lines(path: Path, text: str, histories: Histories) -> Iterable[tuple[int, Any]]:
    for number, line in enumerate(text.split("\n"), 1):  # JSON strings may hold U+2028, never a newline
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            histories.diagnostics.append(f"{path}:{number}: a row longer than {MAX_LINE} characters; not read")
            continue
        try:
            yield number, json.loads(line)
        except (ValueError, RecursionError) as err:
            histories.diagnostics.append(f"{path}:{number}: not JSON: {str(err).split(':')[0]}")


# -- the log of a local table --------------------------------------------------------------


def read_log(location: str, root: Path, since: datetime | None = None) -> tuple[list[Commit], list[str], int]:
    """The commits of the table at the local folder `location` (inside `root`) from the
    `commitInfo` of its newest commit files: (commits, problems, commits left out).
    Only the head of each file is read; the data files are never opened."""
    log = os.path.join(location, "_delta_log")
    if resolves_outside(log, root):
        raise HistoryError(f"{location}: its `_delta_log` leads outside the project; it is not read")
    try:
        names = [n for n in os.listdir(log) if _COMMIT_FILE.match(n)]
    except OSError as err:
        raise HistoryError(f"{location}: no Delta log to read ({err.strerror or err})") from None
    names.sort(reverse=True)
    left_out = max(0, len(names) - MAX_COMMITS)
    commits: list[Commit] = []
    problems: list[str] = []
    for name in names[:MAX_COMMITS]:
        where = os.path.join(log, name)
        try:
            head = _head(where, root)
        except InputRefused as err:
            problems.append(f"{where}: {err}")
            continue
        info = _commit_info(head)
        if info is None:
            continue  # a commit without commitInfo (another writer): nothing to attribute
        try:
            commit = commit_of(_row(info), int(name[:20]))
        except ValueError as err:
            problems.append(f"{where}: {err}")
            continue
        if since is not None and commit.timestamp is not None and commit.timestamp < since:
            break  # older commits only from here
        commits.append(commit)
    commits.reverse()
    return commits, problems[:MAX_DIAGNOSTICS], left_out


def _head(path: str, root: Path) -> str:
    """The first COMMIT_HEAD bytes of a regular file inside `root`, as text."""
    if resolves_outside(path, root):
        raise InputRefused("a symbolic link leading outside the project; it is not read")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise InputRefused(err.strerror or str(err)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputRefused("not a regular file; it is not read")
        data = os.read(fd, COMMIT_HEAD)
        if data.startswith(b'{"commitInfo"') and b"\n" not in data and len(data) == COMMIT_HEAD:
            data += os.read(fd, COMMIT_HEAD_MAX - COMMIT_HEAD)  # a long first action: read on, bounded
    finally:
        os.close(fd)
    return data.decode("utf-8", errors="replace")


def _commit_info(head: str) -> dict | None:
    for line in head.splitlines():
        if line.startswith('{"commitInfo"'):
            try:
                action = json.loads(line)
            except (ValueError, RecursionError):
                return None  # cut by the head's bound, or damaged
            info = action.get("commitInfo") if isinstance(action, dict) else None
            return info if isinstance(info, dict) else None
    return None


# -- DESCRIBE HISTORY through Spark ------------------------------------------------------------


def read_described(session: Any, sql_name: str) -> tuple[list[Commit], list[str]]:
    """`DESCRIBE HISTORY <sql_name> LIMIT MAX_COMMITS` on a read-only session whose
    engine has Delta; `sql_name` already quoted (`settings.spark.quote_name`)."""
    rows = session.sql(f"DESCRIBE HISTORY {sql_name} LIMIT {MAX_COMMITS}").collect()
    commits, problems = [], []
    for row in rows:
        data = row.asDict(recursive=True)
        if isinstance(data.get("timestamp"), datetime):
            stamp = data["timestamp"]
            data["timestamp"] = _utc(stamp).isoformat()
        data = {k: v for k, v in data.items() if v is not None}
        try:
            commits.append(commit_of(_row(data)))
        except ValueError as err:
            problems.append(f"{sql_name} version {data.get('version')}: {err}")
    commits.sort(key=lambda c: c.version)
    return commits, problems[:MAX_DIAGNOSTICS]


# -- Databricks system tables ------------------------------------------------------------------

# Where Databricks keeps them; column names from its reference pages:
# https://docs.databricks.com/admin/system-tables/lineage.html (`table_lineage`: entity_type,
# entity_id, entity_run_id, target_table_full_name, event_time) and
# https://docs.databricks.com/admin/system-tables/jobs.html (`job_run_timeline`: job_id, run_id,
# period_start_time, period_end_time, hourly slices of long runs; `jobs`, an SCD2 table: job_id,
# name, change_time). Tested against tables of those schemas in the embedded engine only.
SYSTEM_TABLES = {
    "lineage": "system.access.table_lineage",
    "runs": "system.lakeflow.job_run_timeline",
    "jobs": "system.lakeflow.jobs",
}
MAX_SYSTEM_ROWS = 100_000  # per query, after aggregation


@dataclass(frozen=True)
class JobRun:
    """One job run's window, from the first to the last slice of `job_run_timeline`."""

    job_id: str
    run_id: str
    start: datetime
    end: datetime


@dataclass
class SystemHistory:
    """What the system tables say of the project's tables."""

    # table -> job -> write events; a job is its id, `id@workspace` when the writers
    # span several workspaces (ids are unique within a workspace only)
    writers: dict[str, dict[str, int]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # job id -> its latest name
    runs: list[JobRun] = field(default_factory=list)


def read_system_tables(
    session: Any, tables: list[str], since: datetime | None = None, names: dict[str, str] | None = None
) -> SystemHistory:
    """Which jobs wrote `tables` (three-part names), their names and run windows, from
    Databricks' system tables (`names` replaces their locations; tests). Reads
    through the DataFrame API of the read-only session: filters, aggregates, a
    bounded collect; no SQL text. Raises what Spark raises when a table is not
    there or not readable."""
    from pyspark.sql import functions as F

    from delta_lint.settings.spark import quote_name

    where = {**SYSTEM_TABLES, **(names or {})}
    out = SystemHistory()
    if not tables:
        return out
    lineage = session.table(quote_name(where["lineage"]))
    wrote = (F.col("entity_type") == "JOB") & F.col("target_table_full_name").isin(sorted(tables))
    if since is not None:
        wrote = wrote & (F.col("event_time") >= F.lit(since))
    rows = (
        lineage.where(wrote & F.col("entity_id").isNotNull())
        .groupBy("target_table_full_name", "workspace_id", "entity_id")
        .agg(F.count(F.lit(1)).alias("events"))
        .limit(MAX_SYSTEM_ROWS)
        .collect()
    )
    # A job id is unique within its workspace only: the jobs and run rows are kept
    # when workspace and id both match a writer's.
    writers = {(str(row["workspace_id"]), str(row["entity_id"])) for row in rows}
    one_workspace = len({ws for ws, _ in writers}) <= 1

    def key(workspace: object, job: object) -> str | None:
        found = (str(workspace), str(job))
        if found not in writers:
            return None
        return found[1] if one_workspace else f"{found[1]}@{found[0]}"

    for row in rows:
        job_key = key(row["workspace_id"], row["entity_id"])
        table_writers = out.writers.setdefault(str(row["target_table_full_name"]), {})
        table_writers[job_key] = table_writers.get(job_key, 0) + int(row["events"])  # type: ignore[index]
    job_ids = sorted({job for _, job in writers})
    if not job_ids:
        return out
    jobs = session.table(quote_name(where["jobs"]))
    latest: dict[str, tuple[datetime | None, str]] = {}  # SCD2: the newest row names the job
    for row in (
        jobs.where(F.col("job_id").isin(job_ids))
        .select("workspace_id", "job_id", "name", "change_time")
        .limit(MAX_SYSTEM_ROWS)
        .collect()
    ):
        job, when, named = key(row["workspace_id"], row["job_id"]), row["change_time"], row["name"]
        if job is None:
            continue  # the same id in another workspace: another job
        held = latest.get(job)
        if named and (held is None or (when is not None and (held[0] is None or _utc(when) >= held[0]))):
            latest[job] = (_utc(when) if when is not None else None, str(named))
    out.names = {job: named for job, (_, named) in latest.items()}
    timeline = session.table(quote_name(where["runs"]))
    ran = F.col("job_id").isin(job_ids)
    if since is not None:
        ran = ran & (F.col("period_end_time") >= F.lit(since))
    for row in (
        timeline.where(ran)
        .groupBy("workspace_id", "job_id", "run_id")
        .agg(F.min("period_start_time").alias("start"), F.max("period_end_time").alias("end"))
        .limit(MAX_SYSTEM_ROWS)
        .collect()
    ):
        job = key(row["workspace_id"], row["job_id"])
        if job is None or row["start"] is None or row["end"] is None:
            continue
        out.runs.append(JobRun(job, str(row["run_id"]), _utc(row["start"]), _utc(row["end"])))
    out.runs.sort(key=lambda r: (r.start, r.job_id, r.run_id))
    return out


def _utc(stamp: datetime) -> datetime:
    """A time from pyspark in UTC: pyspark hands timestamps over as naive times of this
    machine's time zone."""
    return stamp.astimezone(timezone.utc)


def observe_runs(table: str, system: SystemHistory) -> Observed:
    """The runs of the jobs that wrote `table` whose windows intersected, per pair of
    jobs (by name when the jobs table names them), and every run's window. Two runs
    that meet in time need not have written at the same moment: this is what the
    schedule claims, not what the log shows."""
    writers = system.writers.get(table, {})
    runs = [r for r in system.runs if r.job_id in writers]

    def name(job_id: str) -> str:
        return system.names.get(job_id) or f"job {job_id}"

    out = Observed(table, 0)
    if runs:
        out.first, out.last = min(r.start for r in runs), max(r.end for r in runs)
    pairs: dict[tuple[str, str], Overlap] = {}
    for i, run in enumerate(runs):
        for other in runs[i + 1 :]:
            if other.start >= run.end:
                break  # sorted by start: no later run meets this one
            if (other.job_id, other.run_id) == (run.job_id, run.run_id):
                continue
            key = tuple(sorted((name(run.job_id), name(other.job_id))))
            found = pairs.get(key)  # type: ignore[arg-type]
            if found is None:
                found = pairs[key] = Overlap(name(run.job_id), name(other.job_id))  # type: ignore[index]
            found.times += 1
            met = min(run.end, other.end)
            if found.last_seen is None or met > found.last_seen:
                found.last_seen = met
    out.overlaps = sorted(pairs.values(), key=lambda o: (-o.times, o.writers))
    out.windows = [RunWindow(name(r.job_id), r.run_id, r.start, r.end, 0) for r in runs]
    for r in runs:
        out.writers[name(r.job_id)] = out.writers.get(name(r.job_id), 0) + 1
    return out


# -- what the commits show ---------------------------------------------------------------------


@dataclass
class Overlap:
    """Two writers whose commits really overlapped on one table."""

    first: str  # the writer that committed in between
    second: str  # the writer whose commit read an older version
    times: int = 0
    last_seen: datetime | None = None
    versions: list[int] = field(default_factory=list)  # the later commit of each meeting (a few)

    @property
    def writers(self) -> tuple[str, str]:
        return tuple(sorted((self.first, self.second)))  # type: ignore[return-value]


@dataclass(frozen=True)
class RunWindow:
    """A job run's first and last commit on a table."""

    writer: str
    run: str
    start: datetime
    end: datetime
    commits: int


@dataclass
class Observed:
    """What one table's history shows."""

    table: str
    commits: int = 0
    first: datetime | None = None
    last: datetime | None = None
    overlaps: list[Overlap] = field(default_factory=list)
    windows: list[RunWindow] = field(default_factory=list)
    without_read_version: int = 0  # commits that do not say what they read
    gaps_cut: int = 0  # commits that met more than MAX_GAP others: only the nearest were paired
    writers: dict[str, int] = field(default_factory=dict)  # writer -> commits


def observe(table: str, commits: list[Commit], since: datetime | None = None) -> Observed:
    """The overlaps and run windows of a table's commits (any order; a version listed
    twice counts once). A commit `v` that read `r < v - 1` met each commit after `r`
    and before `v`; writers are counted per unordered pair."""
    by_version = {c.version: c for c in commits if since is None or c.timestamp is None or c.timestamp >= since}
    ordered = [by_version[v] for v in sorted(by_version)]
    out = Observed(table, len(ordered))
    stamps = [c.timestamp for c in ordered if c.timestamp is not None]
    out.first, out.last = (min(stamps), max(stamps)) if stamps else (None, None)
    pairs: dict[tuple[str, str], Overlap] = {}
    versions = [c.version for c in ordered]
    for index, commit in enumerate(ordered):
        out.writers[commit.writer] = out.writers.get(commit.writer, 0) + 1
        if commit.read_version is None:
            out.without_read_version += 1
            continue
        # the commits after the one it read and before its own: the nearest MAX_GAP of them
        start = max(bisect_right(versions, commit.read_version, 0, index), index - MAX_GAP)
        if start > 0 and versions[start - 1] > commit.read_version:
            out.gaps_cut += 1
        for other in ordered[start:index]:
            key = tuple(sorted((other.writer, commit.writer)))
            found = pairs.get(key)  # type: ignore[arg-type]
            if found is None:
                found = pairs[key] = Overlap(other.writer, commit.writer)  # type: ignore[index]
            found.times += 1
            if len(found.versions) < 5:
                found.versions.append(commit.version)
            if commit.timestamp is not None and (found.last_seen is None or commit.timestamp > found.last_seen):
                found.last_seen = commit.timestamp
    out.overlaps = sorted(pairs.values(), key=lambda o: (-o.times, o.writers))
    out.windows = _windows(ordered)
    return out


def _windows(commits: list[Commit]) -> list[RunWindow]:
    runs: dict[tuple[str, str], list[datetime]] = {}
    for c in commits:
        if c.run is not None and c.timestamp is not None:
            runs.setdefault((c.writer, c.run), []).append(c.timestamp)
    return sorted(
        (RunWindow(writer, run, min(s), max(s), len(s)) for (writer, run), s in runs.items()),
        key=lambda w: (w.writer, w.start),
    )
