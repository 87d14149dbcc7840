"""`delta-lint history`: what each target table's history shows, held against the
project's schedule and predicted conflicts.

For every table the project writes (the intents `check` finds), the commits come
from an exported history file, else the table's log or `DESCRIBE HISTORY`
(`history.py`). Each pair of writers that really overlapped is matched to the
project's jobs (a commit names its job on Databricks; elsewhere its
`userMetadata` may name it) and judged by the schedule's own overlap question
(`Schedule.node_overlap`): a pair the schedule says cannot meet is a
contradiction — the schedule delta-lint reasons with is wrong. Each predicted
conflict between two jobs is then either seen overlapping without failing (both
committed: evidence that row-level concurrency or disjoint conditions hold) or
never seen overlapping in the history read.

Under `sc://`, Databricks' system tables add the runs of each table's writers
that met in time (`observe_runs`), judged the same way. `observed_durations`
gives `check --durations-from history` each cron job's longest observed run.

Read-only: the history is read from files, the log's commit files, `DESCRIBE
HISTORY` and DataFrame reads of system tables; nothing is written anywhere.
"""

from __future__ import annotations

import json
import os
import re
import statistics
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

from delta_lint.config import Config
from delta_lint.history import (
    MAX_COMMITS,
    MAX_GAP,
    Histories,
    HistoryError,
    Observed,
    Overlap,
    RunWindow,
    SystemHistory,
    observe,
    observe_runs,
    read_described,
    read_history_file,
    read_log,
    read_system_tables,
)
from delta_lint.model import Finding, Location
from delta_lint.report import clean
from delta_lint.schedule import Node, Schedule

_NAMED_BY_METADATA = re.compile(r"^[A-Z][A-Z ]*\((.+)\)$")
_DEV_PREFIX = re.compile(r"^\[[^\]]{1,200}\]\s+")  # development-mode bundles prefix job names: `[dev alice] x`


@dataclass
class PairVerdict:
    """An observed overlap and what the schedule says of it."""

    overlap: Overlap
    jobs: tuple[str | None, str | None]  # the project's jobs the two writers are (None: not one of them)
    verdict: str  # contradicts | agrees | unmatched
    why: str  # the schedule's reason (why they meet, or why it thinks they never do)


@dataclass
class Prediction:
    """A predicted conflict between two jobs, and whether history saw them overlap."""

    finding: Finding
    related: Location  # the finding's other write that the second job makes
    jobs: tuple[str, str]
    seen: Overlap | None


@dataclass
class JobWindows:
    """The observed run windows of one writer (first to last commit of each run)."""

    writer: str
    runs: int
    median: timedelta
    longest: timedelta
    earliest_start: str  # time of day, UTC
    latest_start: str


@dataclass
class TableReport:
    table: str
    source: str
    observed: Observed
    pairs: list[PairVerdict] = field(default_factory=list)
    predictions: list[Prediction] = field(default_factory=list)
    windows: list[JobWindows] = field(default_factory=list)

    @property
    def days(self) -> int:
        o = self.observed
        return max(1, round((o.last - o.first) / timedelta(days=1))) if o.first and o.last else 0


@dataclass
class HistoryReport:
    tables: list[TableReport] = field(default_factory=list)
    not_read: dict[str, str] = field(default_factory=dict)  # table -> why its history was not read
    diagnostics: list[str] = field(default_factory=list)
    unknown_tables: list[str] = field(default_factory=list)  # in a history file, not written by the project
    # runs that met in time, per table, from Databricks' system tables (`--spark sc://...`)
    timeline: list[TableReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the check's: the bundle target judged and why

    @property
    def contradictions(self) -> int:
        return sum(1 for t in (*self.tables, *self.timeline) for p in t.pairs if p.verdict == "contradicts")


# -- the project's jobs ----------------------------------------------------------------------------


class JobIndex:
    """The project's jobs by every name a commit may give them, and their nodes."""

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.by_name: dict[str, str] = {}
        self.nodes: dict[str, list[Node]] = {}
        for node in schedule.all_nodes():
            if node.kind != "file":
                self.nodes.setdefault(node.job, []).append(node)
                self.by_name.setdefault(node.job, node.job)
        for key, job in schedule.workflows.jobs.items():
            for task in job.tasks:
                node = Node(key, task, "task")
                if node not in self.nodes.setdefault(key, []):
                    self.nodes[key].append(node)
            self.by_name.setdefault(key, key)
            self.by_name.setdefault(job.name, key)

    def job_of(self, writer: str) -> str | None:
        """The project's job a writer is: its job name, or the `userMetadata` of a commit
        that names no job."""
        for name in (writer, _DEV_PREFIX.sub("", writer)):
            if name in self.by_name:
                return self.by_name[name]
        named = _NAMED_BY_METADATA.match(writer)
        if named:
            return self.by_name.get(named.group(1).strip())
        return None

    def meet(self, a: list[Node], b: list[Node]) -> tuple[bool, str]:
        """Whether the schedule lets some node of `a` overlap some node of `b`, with its
        reason (or its reason why not, from the first pair asked)."""
        why_not = ""
        for na in a:
            for nb in b:
                found, why = self.schedule.node_overlap(na, nb)
                if found is not None:
                    return True, found.reason
                why_not = why_not or why
        return False, why_not


def _writing_nodes(index: JobIndex, job: str, intents) -> list[Node]:
    """The job's nodes that write the table, else all its nodes (history shows it
    writes the table even where the code does not say so)."""
    writing = [n for i in intents for n in index.schedule.nodes(i) if n.job == job]
    return list(dict.fromkeys(writing)) or index.nodes.get(job, [])


# -- matching ------------------------------------------------------------------------------------


def match_table(
    table: str, source: str, observed: Observed, index: JobIndex, intents: list, findings: list[Finding]
) -> TableReport:
    """`observed` held against the project: each overlap's writers matched to jobs and
    judged by the schedule; each predicted conflict on the table (`findings`) between
    two jobs marked with the overlap of those jobs, if one was seen; run windows per
    writer. `intents`: the table's, which say which tasks of a job write it."""
    out = TableReport(table, source, observed)
    seen: dict[frozenset, Overlap] = {}
    for overlap in observed.overlaps:
        ja, jb = index.job_of(overlap.first), index.job_of(overlap.second)
        if ja is None or jb is None or not index.nodes.get(ja) or not index.nodes.get(jb):
            missing = [w for w, j in ((overlap.first, ja), (overlap.second, jb)) if j is None or not index.nodes.get(j)]
            why = " and ".join(f"`{w}`" for w in dict.fromkeys(missing)) + " not among the project's jobs"
            out.pairs.append(PairVerdict(overlap, (ja, jb), "unmatched", why))
            continue
        seen.setdefault(frozenset((ja, jb)), overlap)
        meets, why = index.meet(_writing_nodes(index, ja, intents), _writing_nodes(index, jb, intents))
        out.pairs.append(PairVerdict(overlap, (ja, jb), "agrees" if meets else "contradicts", why))
    for finding in findings:
        if finding.table != table or not finding.related or not finding.rule.startswith("DL1"):
            continue
        pairs: dict[tuple[str, str], Location] = {}  # the jobs -> the other write (the first that gives them)
        for related in finding.related:
            for ja in _jobs_at(index, finding.location.path):
                for jb in _jobs_at(index, related.path):
                    pairs.setdefault((ja, jb), related)
        for (ja, jb), related in sorted(pairs.items()):
            out.predictions.append(Prediction(finding, related, (ja, jb), seen.get(frozenset((ja, jb)))))
    out.windows = _job_windows(observed.windows)
    return out


def _jobs_at(index: JobIndex, path: str) -> list[str]:
    return sorted({n.job for n in index.schedule.nodes_of.get(path, ()) if n.kind != "file"})


def _job_windows(windows: list[RunWindow]) -> list[JobWindows]:
    by_writer: dict[str, list[RunWindow]] = {}
    for w in windows:
        by_writer.setdefault(w.writer, []).append(w)
    out = []
    for writer, runs in sorted(by_writer.items()):
        spans = [r.end - r.start for r in runs]
        starts = sorted(r.start.astimezone(timezone.utc).strftime("%H:%M") for r in runs)
        out.append(JobWindows(writer, len(runs), statistics.median_low(spans), max(spans), starts[0], starts[-1]))
    return out


# -- the run ------------------------------------------------------------------------------------------


def history_report(
    paths: list[Path],
    config: Config,
    history_files: list[tuple[str | None, Path]],
    since: timedelta | None = None,
    bundle: Path | None = None,
    target: str | None = None,
    now: datetime | None = None,
) -> HistoryReport:
    """The project's check (intents, schedule, predicted conflicts; settings per
    `config.spark`), then every target table's history from `history_files`
    ((table or None, file)), else live per `config.spark`, matched to both."""
    from delta_lint.run import check
    from delta_lint.settings import TableNames

    result = check(paths, config, use_cache=False, bundle=bundle, target=target)
    assert result.pairing is not None  # a run without the cache keeps what it judged
    pairing = result.pairing
    naming = TableNames.of(config)
    tables = sorted(name for name, intents in pairing.by_table.items() if intents)
    cutoff = (now or datetime.now(timezone.utc)) - since if since is not None else None
    histories = Histories()
    for table, path in history_files:
        read_history_file(path, table, histories, naming.qualify)
    report = HistoryReport(diagnostics=list(histories.diagnostics), notes=list(result.notes))
    report.unknown_tables = sorted(set(histories.commits) - set(tables))
    system = _read_live(config, naming, [t for t in tables if t not in histories.commits], cutoff, histories, report)
    index = JobIndex(pairing.schedule)
    for table in sorted(system.writers if system else ()):
        if table in pairing.by_table:
            observed = observe_runs(table, system)  # type: ignore[arg-type]
            report.timeline.append(match_table(table, "system tables", observed, index, pairing.by_table[table], []))
    for table in tables:
        commits = histories.commits.get(table)
        if commits is None:
            continue
        if len(commits) > MAX_COMMITS:  # the newest: what a table's log keeps, and a bound on the pairing
            commits = sorted(commits, key=lambda c: c.version)
            histories.truncated[table] = len(commits) - MAX_COMMITS
            commits = commits[-MAX_COMMITS:]
        observed = observe(table, commits, cutoff)
        if histories.truncated.get(table):
            report.diagnostics.append(
                f"`{table}`: the newest {len(commits)} commits read, {histories.truncated[table]} older ones not"
            )
        report.tables.append(
            match_table(table, histories.sources[table], observed, index, pairing.by_table[table], result.findings)
        )
    return report


def _read_live(
    config: Config, naming, tables: list[str], cutoff: datetime | None, histories: Histories, report: HistoryReport
) -> SystemHistory | None:
    """History of `tables` per the configuration's Spark mode, as the settings stage
    reads settings: `none` reads nothing live; `local` and `sc://` ask `DESCRIBE
    HISTORY` of a session with Delta (a table with a local location falls back on
    its log when the session cannot); `auto` and `embedded` read the log of tables
    with a local location (the embedded engine has no DESCRIBE HISTORY, and JSON
    text needs no engine). An engine on this machine reads only locations the
    configuration names or folders inside the project. Tables that cannot be read
    are said in `not_read`. Under `sc://` the system tables are asked too (what
    they say is returned; a session that cannot read them is a diagnostic)."""
    from delta_lint.settings.live import from_code_refused, is_local, targets_for
    from delta_lint.settings.reader import normalize_location

    if not tables:
        return None
    if config.spark == "none":
        for table in tables:
            report.not_read[table] = "--spark none reads no history live (give --history-file)"
        return None
    remote = config.spark.startswith("sc://")
    described = remote or config.spark == "local"
    ask, logs = [], []
    for t in targets_for(set(tables), config, naming):
        local = t.location is not None and is_local(t.location)
        if local and not remote and (why := from_code_refused(t, config, None)) is not None:
            report.not_read[t.name] = why
            continue
        if local:
            t = replace(t, location=normalize_location(t.location, config.root))
        if described:
            ask.append(t)
        elif local:
            logs.append(t)
        else:
            report.not_read[t.name] = (
                "no local location to read its log from (`locations:`); DESCRIBE HISTORY needs --spark local or "
                "sc://..., or export its history (--history-file)"
            )
    system = None
    if ask:
        from delta_lint.settings.spark import open_spark

        with open_spark(config.spark, config.spark_timeout) as handle:
            logs += _describe_history(handle.session, ask, histories, report)
            if remote:
                system = _system_tables(handle.session, [t.name for t in ask], cutoff, report)
    for t in logs:
        assert t.location is not None
        try:
            commits, problems, left_out = read_log(t.location, config.root, cutoff)
        except HistoryError as err:
            report.not_read[t.name] = str(err)
            continue
        histories.commits[t.name] = commits
        histories.sources[t.name] = f"log {os.path.relpath(t.location, config.root)}/_delta_log"
        histories.truncated[t.name] = left_out
        report.not_read.pop(t.name, None)
        report.diagnostics += problems
    return system


def _system_tables(session, tables: list[str], cutoff: datetime | None, report: HistoryReport) -> SystemHistory | None:
    """The system tables' view of the catalog tables among `tables`, or None (with a
    diagnostic) when the session cannot read them: not Databricks, or no grant."""
    named = [t for t in tables if not t.startswith("delta:") and t.count(".") == 2]
    if not named:
        return None
    try:
        return read_system_tables(session, named, cutoff)
    except Exception as err:  # noqa: BLE001 - any Spark error: the rest of the report stands
        first = str(err).strip().splitlines()[0][:300] if str(err).strip() else type(err).__name__
        report.diagnostics.append(f"system tables not read (run windows and lineage on Databricks): {first}")
        return None


def _describe_history(session, targets, histories: Histories, report: HistoryReport) -> list:
    """DESCRIBE HISTORY of each target; returns the targets with a local location it
    could not read that way (their logs are read instead)."""
    from delta_lint.settings.live import is_local
    from delta_lint.settings.spark import InvalidName, quote_name, quote_path_table

    fallback = []
    for t in targets:
        local = t.location is not None and is_local(t.location)
        if not session.delta:
            report.not_read[t.name] = "the session has no Delta (DESCRIBE HISTORY); run `delta-lint install-delta`"
            if local:
                fallback.append(t)
            continue
        try:
            sql_name = quote_path_table(t.location) if t.location else quote_name(t.name)
        except InvalidName as err:
            report.not_read[t.name] = str(err)
            continue
        try:
            commits, problems = read_described(session, sql_name)
        except Exception as err:  # noqa: BLE001 - Spark's error for one table; the others are read
            first = str(err).strip().splitlines()[0][:300] if str(err).strip() else type(err).__name__
            report.not_read[t.name] = f"DESCRIBE HISTORY failed: {first}"
            if local:
                fallback.append(t)
            continue
        histories.commits[t.name] = commits
        histories.sources[t.name] = "DESCRIBE HISTORY"
        report.diagnostics += problems
    return fallback


# -- output ------------------------------------------------------------------------------------------


def _when(stamp: datetime | None) -> str:
    return stamp.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC") if stamp else "an unknown time"


def _day(stamp: datetime | None) -> str:
    return stamp.astimezone(timezone.utc).strftime("%Y-%m-%d") if stamp else "?"


def _span(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    if minutes < 1:
        return f"{int(delta.total_seconds())}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m"


def _by_reason(not_read: dict[str, str]) -> list[tuple[str, list[str]]]:
    grouped: dict[str, list[str]] = {}
    for table, why in sorted(not_read.items()):
        grouped.setdefault(why, []).append(table)
    return sorted(grouped.items())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _pair_name(p: PairVerdict) -> str:
    return f"`{p.overlap.first}` with `{p.overlap.second}`"


def _verdict_text(p: PairVerdict, days: int) -> str:
    if p.verdict == "contradicts":
        return (
            f"the schedule is wrong: these jobs met {_times(p.overlap.times)} in {_plural(days, 'day')}, "
            f"but the schedule says they cannot overlap ({p.why})"
        )
    if p.verdict == "agrees":
        return f"the schedule agrees: {p.why}"
    return f"not matched to the schedule: {p.why}"


def _prediction_text(pr: Prediction, table: TableReport) -> str:
    f = pr.finding
    head = f"{f.rule} {f.exception or ''} {f.location} with {pr.related} (`{pr.jobs[0]}`, `{pr.jobs[1]}`)"
    if pr.seen is not None:
        return (
            f"{head}: seen overlapping {_times(pr.seen.times)} without failing, last {_when(pr.seen.last_seen)}: "
            "evidence that row-level concurrency or disjoint conditions hold"
        )
    if table.observed.without_read_version == table.observed.commits:
        return f"{head}: the history cannot tell (no commit says which version it read)"
    return f"{head}: never seen overlapping in {_plural(table.days, 'day')} of history"


def text(report: HistoryReport) -> str:
    lines: list[str] = []
    for t in report.tables:
        o = t.observed
        lines.append(
            f"{t.table}: {_plural(o.commits, 'commit')} from {_day(o.first)} to {_day(o.last)} "
            f"({_plural(t.days, 'day')}; {t.source})"
        )
        if o.without_read_version:
            lines.append(f"  {_plural(o.without_read_version, 'commit')} without a readVersion (not judged)")
        if o.gaps_cut:
            lines.append(
                f"  {_plural(o.gaps_cut, 'commit')} read a version more than {MAX_GAP} commits old; "
                f"each was paired with the nearest {MAX_GAP}"
            )
        if t.pairs:
            lines.append("  overlapped (a commit read a version older than the one before it; both committed):")
            for p in t.pairs:
                lines.append(
                    f"    {_pair_name(p)}: {_times(p.overlap.times)}, last {_when(p.overlap.last_seen)} "
                    f"(versions {', '.join(map(str, p.overlap.versions))}{', ...' if p.overlap.times > 5 else ''})"
                )
                lines.append(f"      {_verdict_text(p, t.days)}")
        else:
            lines.append("  no writers overlapped")
        if t.predictions:
            lines.append("  predicted conflicts:")
            lines += [f"    {_prediction_text(pr, t)}" for pr in t.predictions]
        if t.windows:
            lines.append("  run windows (first to last commit of a run on this table):")
            for w in t.windows:
                starts = (
                    w.earliest_start if w.earliest_start == w.latest_start else f"{w.earliest_start}-{w.latest_start}"
                )
                lengths = _span(w.longest) if w.runs == 1 else f"median {_span(w.median)}, longest {_span(w.longest)}"
                lines.append(f"    `{w.writer}`: {_plural(w.runs, 'run')}, first commit at {starts} UTC, {lengths}")
    for t in report.timeline:
        lines += _timeline_lines(t)
    for why, tables in _by_reason(report.not_read):
        lines.append(f"history not read ({why}): {', '.join(tables)}")
    for table in report.unknown_tables:
        lines.append(f"{table}: in the history file, but the project writes no such table")
    lines += [f"note: {note}" for note in report.notes]
    n = report.contradictions
    lines.append(
        f"{len(report.tables)} table{'s' if len(report.tables) != 1 else ''} read, "
        f"{n} overlap{'s' if n != 1 else ''} the schedule says cannot happen"
    )
    return "\n".join(clean(line) for line in lines) + "\n"


def _timeline_lines(t: TableReport) -> list[str]:
    """A table's runs as the system tables show them: the jobs `table_lineage` says
    wrote it, their runs from `job_run_timeline`, and the pairs whose runs met."""
    o = t.observed
    lines = [
        f"{t.table}: {_plural(len(o.windows), 'run')} of {_plural(len(o.writers), 'job')} that wrote it, "
        f"from {_day(o.first)} to {_day(o.last)} (system tables: table_lineage, job_run_timeline)"
    ]
    if t.pairs:
        lines.append("  runs that met in time:")
        for p in t.pairs:
            lines.append(f"    {_pair_name(p)}: {_times(p.overlap.times)}, last {_when(p.overlap.last_seen)}")
            lines.append(f"      {_verdict_text(p, t.days)}")
    else:
        lines.append("  no runs of two writers met")
    for w in t.windows:
        starts = w.earliest_start if w.earliest_start == w.latest_start else f"{w.earliest_start}-{w.latest_start}"
        lengths = _span(w.longest) if w.runs == 1 else f"median {_span(w.median)}, longest {_span(w.longest)}"
        lines.append(f"  `{w.writer}`: {_plural(w.runs, 'run')} starting {starts} UTC, {lengths}")
    return lines


def markdown(report: HistoryReport) -> str:
    lines = ["## delta-lint history", "", *(f"note: {n}" for n in report.notes)]
    for t in report.tables:
        o = t.observed
        lines += [f"### `{t.table}`", "", f"{o.commits} commits, {_day(o.first)} to {_day(o.last)} ({t.source}).", ""]
        if t.pairs:
            lines += ["| writers | met | last | schedule |", "|---|---|---|---|"]
            for p in t.pairs:
                cell = _verdict_text(p, t.days).replace("|", "\\|")
                lines.append(f"| {_pair_name(p)} | {_times(p.overlap.times)} | {_when(p.overlap.last_seen)} | {cell} |")
            lines.append("")
        if t.predictions:
            lines += [f"- {_prediction_text(pr, t)}" for pr in t.predictions]
            lines.append("")
    for why, tables in _by_reason(report.not_read):
        lines.append(f"- history not read ({why}): {', '.join(f'`{t}`' for t in tables)}")
    for t in report.timeline:
        lines += ["", f"### `{t.table}` (system tables)", "", *(f"    {line}" for line in _timeline_lines(t)), ""]
    lines.append(f"\n{report.contradictions} overlaps the schedule says cannot happen.")
    return "\n".join(clean(line) for line in lines) + "\n"


def to_json(report: HistoryReport) -> str:
    def stamp(s: datetime | None) -> str | None:
        return s.astimezone(timezone.utc).isoformat() if s else None

    tables = []
    for t in report.tables:
        o = t.observed
        tables.append(
            {
                "table": t.table,
                "source": t.source,
                "commits": o.commits,
                "first": stamp(o.first),
                "last": stamp(o.last),
                "days": t.days,
                "commits_without_read_version": o.without_read_version,
                "overlaps": [
                    {
                        "writers": [p.overlap.first, p.overlap.second],
                        "jobs": list(p.jobs),
                        "times": p.overlap.times,
                        "last_seen": stamp(p.overlap.last_seen),
                        "versions": p.overlap.versions,
                        "schedule": p.verdict,
                        "why": p.why,
                    }
                    for p in t.pairs
                ],
                "predicted_conflicts": [
                    {
                        "rule": pr.finding.rule,
                        "exception": pr.finding.exception,
                        "location": str(pr.finding.location),
                        "related": str(pr.related),
                        "jobs": list(pr.jobs),
                        "seen_overlapping": pr.seen.times if pr.seen else 0,
                        "last_seen": stamp(pr.seen.last_seen) if pr.seen else None,
                    }
                    for pr in t.predictions
                ],
                "run_windows": [_window_json(w) for w in t.windows],
            }
        )
    return (
        json.dumps(
            {
                "tables": tables,
                "timeline": [
                    {
                        "table": t.table,
                        "runs": len(t.observed.windows),
                        "met": [
                            {
                                "jobs": [p.overlap.first, p.overlap.second],
                                "times": p.overlap.times,
                                "last_seen": stamp(p.overlap.last_seen),
                                "schedule": p.verdict,
                                "why": p.why,
                            }
                            for p in t.pairs
                        ],
                        "run_windows": [_window_json(w) for w in t.windows],
                    }
                    for t in report.timeline
                ],
                "not_read": report.not_read,
                "unknown_tables": report.unknown_tables,
                "contradictions": report.contradictions,
                "diagnostics": report.diagnostics,
                "notes": report.notes,
            },
            indent=2,
        )
        + "\n"
    )


def _window_json(w: JobWindows) -> dict:
    return {
        "writer": w.writer,
        "runs": w.runs,
        "median_seconds": int(w.median.total_seconds()),
        "longest_seconds": int(w.longest.total_seconds()),
        "earliest_start": w.earliest_start,
        "latest_start": w.latest_start,
    }


# -- durations for `check` -------------------------------------------------------------------------


@dataclass(frozen=True)
class ObservedDuration:
    """How long after its cron time a job was still writing, at the longest."""

    job: str  # the job's key
    duration: timedelta
    runs: int  # runs measured

    @property
    def setting(self) -> str:
        """As `duration:` in the configuration takes it: whole minutes, rounded up."""
        return f"{max(1, -(-int(self.duration.total_seconds()) // 60))}m"


def observed_durations(
    config: Config,
    history_files: list[tuple[str | None, Path]],
    bundle: Path | None = None,
    target: str | None = None,
) -> tuple[list[ObservedDuration], list[str]]:
    """Each cron job's longest observed run in the history files, measured from the
    cron time its run started at (the latest fire time at or before the run's first
    commit) to the run's last commit: the window `check` assumes is start + duration,
    so a run that was queued late lengthens it as a long run does. Jobs without a
    cron (continuous, triggered) overlap everything anyway and are left out; so are
    commits of no known run. Returns the durations and diagnostics."""
    from bisect import bisect_right

    from delta_lint.cron import MAX_DURATION, CronError, fire_times
    from delta_lint.schedule import load_workflows

    histories = Histories()
    for table, path in history_files:
        read_history_file(path, table or "-", histories)  # any table: a job's runs are its runs
    workflows = load_workflows(config, bundle, target)
    by_name: dict[str, str] = {}
    for key, job in workflows.jobs.items():
        by_name.setdefault(key, key)
        by_name.setdefault(job.name, key)
    runs: dict[tuple[str, str], list[datetime]] = {}
    for commits in histories.commits.values():
        for c in commits:
            writer = _DEV_PREFIX.sub("", c.job_name or "") or (c.user_metadata or "")
            key = by_name.get(writer)
            if key is None or c.run is None or c.timestamp is None or workflows.jobs[key].cron is None:
                continue
            runs.setdefault((key, c.run), []).append(c.timestamp)
    per_job: dict[str, list[list[datetime]]] = {}
    for (key, _), stamps in runs.items():
        per_job.setdefault(key, []).append(sorted(stamps))
    out, notes = [], list(histories.diagnostics)
    for key, job_runs in sorted(per_job.items()):
        quartz, tz = workflows.jobs[key].cron  # type: ignore[misc]
        first = min(r[0] for r in job_runs)
        last = max(r[0] for r in job_runs)
        try:
            fires = fire_times(quartz, tz, first - timedelta(days=2), last + timedelta(seconds=1))
        except CronError as err:
            notes.append(f"`{key}`: {err}")
            continue
        if not fires:
            notes.append(f"`{key}`: too many cron times to match its runs to; its duration is kept")
            continue
        longest = timedelta(0)
        for stamps in job_runs:
            at = bisect_right(fires, stamps[0])
            if at:
                longest = max(longest, stamps[-1] - fires[at - 1])
        if longest > timedelta(0):
            out.append(ObservedDuration(key, min(longest, MAX_DURATION), len(job_runs)))
    return out, notes
