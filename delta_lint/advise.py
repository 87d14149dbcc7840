"""`delta-lint advise`: which changes remove the most predicted conflicts.

The run is judged again under candidate changes, each one of the levers the
conflict semantics name (table settings, the target condition of a write, the
schedule). A candidate is advised only when the engine, judging the changed
workload, proves that it removes findings; what it removes and what it adds are
both shown. Nothing here touches a table or, unless asked (`apply`), a file.

Re-judging is incremental: a table setting re-judges its table; an edited file
the tables its writes name (before and after the edit); a schedule change the
tables written by the files of the jobs it changes. The engine itself is reached
through `run.Pairing` only (see `_Judge`), so its inside can change freely.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from delta_lint.bundle import Job, Workflows
from delta_lint.config import Config
from delta_lint.edits import EditError, Rewrite, add_depends_on, add_exclusive, set_config_runs, set_cron, set_max_runs
from delta_lint.engine import Engine
from delta_lint.model import Finding, Intent, Kind, Location, OpClass, is_coverage
from delta_lint.run import Pairing, RunResult
from delta_lint.schedule import Node, Schedule
from delta_lint.settings import TableSettings

Key = tuple[str, str, str, str, int, int]
LOW_CARDINALITY = 1000  # distinct values: a partition column above this makes too many small directories  # rule, severity, table, path, line, column


def finding_key(f: Finding) -> Key:
    """What makes a finding the same before and after a change: its rule, severity,
    table and place. A finding that turns from error into warning is one error
    removed and one warning added."""
    return (f.rule, f.severity, f.table or "", f.location.path, f.location.line, f.location.column)


def conflicts(findings: list[Finding]) -> Counter[Key]:
    """The predicted conflicts of a run (coverage gaps DL000-DL008 are not conflicts)."""
    return Counter(finding_key(f) for f in findings if not is_coverage(f.rule))


# -- the workload and a changed one ---------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A workload with changes applied: table settings replaced, file texts replaced,
    jobs replaced, exclusive groups and configured concurrent runs added."""

    settings: tuple[tuple[str, TableSettings], ...] = ()
    texts: tuple[tuple[str, str], ...] = ()  # display path -> new text
    jobs: tuple[tuple[str, Job], ...] = ()
    exclusive: tuple[frozenset[str], ...] = ()
    config_runs: tuple[tuple[str, int], ...] = ()

    def with_settings(self, table: str, s: TableSettings) -> Scenario:
        return replace(self, settings=(*[(k, v) for k, v in self.settings if k != table], (table, s)))

    def with_text(self, path: str, text: str) -> Scenario:
        return replace(self, texts=(*[(k, v) for k, v in self.texts if k != path], (path, text)))

    def with_job(self, job: Job) -> Scenario:
        return replace(self, jobs=(*[(k, v) for k, v in self.jobs if k != job.key], (job.key, job)))

    @property
    def schedule_changed(self) -> bool:
        return bool(self.jobs or self.exclusive or self.config_runs)


@dataclass
class Judged:
    """A scenario's findings per table (as the engine gives them, before selection
    and suppressions)."""

    scenario: Scenario
    tables: dict[str, list[Finding]]


class _Judge:
    """The one place that knows how the engine is called (through `run.Pairing`)."""

    def __init__(self, pairing: Pairing, config: Config, cwd: Path) -> None:
        self.pairing = pairing
        self.config = config
        self.cwd = cwd
        # (path, text, (job key, id of the scenario's job)...) -> (those jobs, the
        # file's writes): the entry holds its jobs, so that no job made later (every
        # change applied makes new ones) can take the id of one already read
        self._read: dict[tuple, tuple[tuple[tuple[str, Job], ...], list[Intent] | None]] = {}
        self.tables_of_file: dict[str, set[str]] = {}
        for table, intents in pairing.by_table.items():
            for i in intents:
                self.tables_of_file.setdefault(i.location.path, set()).add(table)

    def workflows(self, scenario: Scenario) -> Workflows:
        base = self.pairing.workflows
        return replace(base, jobs=dict(base.jobs) | dict(scenario.jobs)) if scenario.jobs else base

    def engine(self, scenario: Scenario) -> Engine:
        """The run's engine, or one over the scenario's schedule (its memos start empty:
        they hold answers of the old schedule)."""
        if not scenario.schedule_changed:
            return self.pairing.engine
        base = self.pairing.schedule
        schedule = Schedule(
            base.nodes_of,
            base.config_runs | dict(scenario.config_runs),
            base.exclusive + scenario.exclusive,
            replace(base.workflows, jobs=dict(base.workflows.jobs) | dict(scenario.jobs)),
            base.durations,
            base.default_duration,
            base.default_stated,
            by_hand=base.by_hand,
            by_hand_why=base.by_hand_why,
        )
        old = self.pairing.engine
        return Engine(self.config, schedule, pack=old.pack, read=old.read, names=old.names)

    def intents_of_text(self, path: str, text: str, scenario: Scenario | None = None) -> list[Intent] | None:
        """The file's writes as the run would read the edited text, with the values the
        scenario's jobs give it (None when the edit makes the file unreadable: such an
        edit is never advised)."""
        jobs = scenario.jobs if scenario is not None else ()
        key = (path, text, tuple((k, id(j)) for k, j in jobs))
        if key not in self._read:
            workflows = self.workflows(scenario) if scenario is not None else self.pairing.workflows
            result = self.pairing.reread(path, text.encode(), workflows)
            bad = [d for d in result.diagnostics if d.severity == "error"]
            self._read[key] = (jobs, None if bad else result.intents)
        return self._read[key][1]

    def judge(self, scenario: Scenario, base: Judged, touched: set[str]) -> Judged | None:
        """The scenario's findings: the `touched` tables judged again, the others as in
        `base`. None when a table is unknown (an edit that makes a file write a table
        whose settings were not read) or an edited file cannot be read."""
        pairing = self.pairing
        settings = pairing.settings | dict(scenario.settings)
        engine = self.engine(scenario)
        replaced: dict[str, list[Intent]] = {}
        for path, text in scenario.texts:
            intents = self.intents_of_text(path, text, scenario)
            if intents is None:
                return None
            replaced[path] = intents
        tables = dict(base.tables)
        for table in sorted(touched):
            intents = [i for i in pairing.by_table.get(table, []) if i.location.path not in replaced]
            for new in replaced.values():
                intents += engine.by_table(new).get(table, [])
            if not intents:
                tables[table] = []
                continue
            if table not in settings:
                return None
            tables[table] = engine.check_table(table, intents, settings[table])
        return Judged(scenario, tables)

    def visible(self, judged: Judged, tables: set[str] | None = None) -> list[Finding]:
        """The conflicts the run reports of these tables (all: every finding of the run)."""
        names = sorted(judged.tables if tables is None else tables & set(judged.tables))
        raw = [f for name in names for f in judged.tables[name]]
        found = self.pairing.finish(raw) if tables is None else self.pairing.visible(raw)
        return [f for f in found if not is_coverage(f.rule)]


# -- candidate changes ----------------------------------------------------------------------


@dataclass
class Change:
    """One thing to change, how to apply it, and what the engine says it does."""

    kind: str  # deletion-vectors | liquid-clustering | isolation-level | explicit-predicate | depends-on | ...
    lever: str  # table | code | schedule
    target: str  # the table, file or jobs it changes
    what: str  # one line: what to change
    cost: str  # one line: its cost or risk
    apply: Callable[[Scenario], Scenario]
    touched: set[str]  # tables to judge again
    statement: str | None = None  # for table settings: the statement to run (never run by delta-lint)
    rewrites: tuple[Rewrite, ...] = ()  # for files: how their text changes
    assumptions: tuple[str, ...] = ()
    scope: frozenset[str] = frozenset()  # the jobs and files it changes (`job:KEY`, `file:PATH`)
    judged: bool = False
    bound: tuple[int, int, int] = (0, 0, 0)  # at most this score (see Advisor.bound)
    removed: list[Finding] = field(default_factory=list)
    added: list[Finding] = field(default_factory=list)

    @property
    def ident(self) -> tuple[str, str, str]:
        return (self.kind, self.target, self.what)

    @property
    def score(self) -> tuple[int, int, int]:
        """Errors removed net, then warnings net, then findings removed."""
        net = Counter(f.severity for f in self.removed)
        net.subtract(Counter(f.severity for f in self.added))
        return (net["error"], net["warning"], len(self.removed))

    @property
    def useful(self) -> bool:
        errors, warnings, removed = self.score
        return removed > 0 and (errors, warnings) > (0, 0)


def _pick(findings: list[Finding], wanted: Counter[Key]) -> list[Finding]:
    left, out = Counter(wanted), []
    for f in findings:
        k = finding_key(f)
        if left[k] > 0 and not is_coverage(f.rule):
            left[k] -= 1
            out.append(f)
    return out


@dataclass
class Advice:
    baseline: list[Finding]
    ranked: list[Change]  # useful single changes, best first
    plan: list[Change] = field(default_factory=list)  # the greedy plan (--budget)
    left: list[Finding] = field(default_factory=list)  # conflicts after the plan
    not_advised: int = 0  # candidates the engine could not prove useful
    not_judged: int = 0  # candidates whose bound showed they could not rank among the shown
    notes: list[str] = field(default_factory=list)  # the run's: the target judged, no schedule known


class Advisor:
    def __init__(self, result: RunResult, config: Config, cwd: Path) -> None:
        if result.pairing is None:
            raise ValueError("advise needs a run without the cache (run.check(use_cache=False))")
        self.result = result
        self.config = config
        self.cwd = cwd
        self.judge = _Judge(result.pairing, config, cwd)
        pairing = result.pairing
        tables = {}
        for name, intents in pairing.by_table.items():
            tables[name] = pairing.engine.check_table(name, intents, pairing.settings[name]) if intents else []
        self.base = Judged(Scenario(), tables)
        self.base_findings = self.judge.visible(self.base)
        self._base_by_table: dict[str, list[Finding]] = {}
        for f in self.base_findings:
            self._base_by_table.setdefault(f.table or "", []).append(f)
        self.texts: dict[str, str] = {}

    # -- reading ----------------------------------------------------------------------------

    def text(self, display: str) -> str | None:
        if display not in self.texts:
            try:
                self.texts[display] = (self.cwd / display).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return None
        return self.texts[display]

    # -- candidates ---------------------------------------------------------------------------

    def candidates(self) -> list[Change]:
        conflict_findings = [f for f in self.base_findings if f.table]
        tables = sorted({f.table for f in conflict_findings if f.table in self.result.pairing.by_table})
        out: list[Change] = []
        for table in tables:
            out += self._table_changes(table)
        out += self._code_changes([f for f in conflict_findings if f.rule == "DL101"])
        out += self._schedule_changes(conflict_findings)
        seen, unique = set(), []
        for c in out:
            ident = c.ident
            if ident not in seen and self._editable(c):
                seen.add(ident)
                unique.append(c)
        return unique

    def _editable(self, change: Change) -> bool:
        """The change's file edits apply to the files as they are."""
        try:
            self.rewritten([change])
        except EditError:
            return False
        return True

    def originals(self, changes: list[Change]) -> dict[str, str]:
        """The text now of every file the changes edit."""
        return {rw.path: self.text(rw.path) or "" for c in changes for rw in c.rewrites}

    def _table_changes(self, table: str) -> list[Change]:
        s = self.result.pairing.settings[table]
        assumed = (
            (f"the settings of `{table}` were not read ({s.source}): {s.describe()}",)
            if s.source in ("assumed",)
            else ()
        )
        out = []

        def setting(kind: str, what: str, statement: str, cost: str, new: TableSettings, extra=()) -> Change:
            return Change(
                kind,
                "table",
                table,
                what,
                cost,
                lambda sc, new=new: sc.with_settings(table, new),
                {table},
                statement=statement,
                assumptions=assumed + tuple(extra),
            )

        if not s.has_deletion_vectors:
            out.append(
                setting(
                    "deletion-vectors",
                    f"enable deletion vectors on `{table}`",
                    f"ALTER TABLE {table} SET TBLPROPERTIES ('delta.enableDeletionVectors' = true);",
                    "a protocol upgrade: every reader and writer of the table needs deletion-vector support, and "
                    "the ALTER itself fails writers running at that moment (run it in a quiet window)",
                    replace(s, deletion_vectors=True),
                )
            )
        if not s.clustered_by and not s.partitioned_by:
            columns = self._filter_columns(table)
            if columns:
                out.append(
                    setting(
                        "liquid-clustering",
                        f"cluster `{table}` by ({', '.join(columns)}), the columns its writers filter on",
                        f"ALTER TABLE {table} CLUSTER BY ({', '.join(columns)});",
                        "existing files are clustered by later OPTIMIZE runs (a rewrite, compute cost); "
                        "OPTIMIZE ... ZORDER BY is refused on a clustered table",
                        replace(s, clustered_by=columns),
                    )
                )
        if not s.clustered_by and not s.partitioned_by:
            declared = self._cardinality(table)
            for column in self._filter_columns(table):
                distinct = declared.get(column)
                if distinct is None or distinct > LOW_CARDINALITY:
                    continue  # never partition by a key of unknown or high cardinality
                out.append(
                    setting(
                        "partition",
                        f"partition `{table}` by `{column}` (about {distinct} values), a column its writers filter on",
                        f"CREATE OR REPLACE TABLE {table} PARTITIONED BY ({column}) AS SELECT * FROM {table};",
                        "rewrites the whole table (writers running meanwhile fail); worth it only when each "
                        "partition holds a gigabyte or more",
                        replace(s, partitioned_by=(column,)),
                        (
                            f"`{column}` has about {distinct} distinct values, as `cardinality` in the configuration "
                            "declares (delta-lint reads no column statistics)",
                        ),
                    )
                )
        if s.isolation_level == "Serializable":
            out.append(
                setting(
                    "isolation-level",
                    f"set the isolation level of `{table}` to WriteSerializable",
                    f"ALTER TABLE {table} SET TBLPROPERTIES ('delta.isolationLevel' = 'WriteSerializable');",
                    "readers may see a history order that differs from the serial order of blind appends",
                    replace(s, isolation_level="WriteSerializable"),
                )
            )
        return out

    def _cardinality(self, table: str) -> dict[str, int]:
        """Distinct values per column that the configuration declares for the table."""
        names = self.judge.pairing.engine.names  # the run's
        for name, declared in self.config.tables.items():
            if names.qualify(str(name).lower()) == table and declared.cardinality:
                return dict(declared.cardinality)
        return {}

    def _filter_columns(self, table: str) -> tuple[str, ...]:
        """The target columns the table's updates, deletes and merges constrain, most
        often first (at most four: liquid clustering takes up to four keys)."""
        counts: Counter[str] = Counter()
        for i in self.result.pairing.by_table[table]:
            if i.op_class == OpClass.DML and i.region is not None:
                counts.update(sorted(i.region.columns()))
        return tuple(c for c, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:4])

    def _code_changes(self, findings: list[Finding]) -> list[Change]:
        out = []
        pairing = self.result.pairing
        for f in findings:
            table = f.table or ""
            s = pairing.settings.get(table)
            intent = next((i for i in pairing.by_table.get(table, []) if i.location == f.location), None)
            if s is None or intent is None or not s.partitioned_by:
                continue
            text = self.text(f.location.path)
            if text is None:
                continue
            try:
                rewrite = explicit_predicate(f.location.path, text, intent, s, self._task_parameters(f.location.path))
            except EditError:
                continue
            new_text = rewrite.fn(text)
            touched = set(self.judge.tables_of_file.get(f.location.path, ()))
            new_intents = self.judge.intents_of_text(f.location.path, new_text) or []
            touched |= set(self.result.pairing.engine.by_table(new_intents))
            out.append(
                Change(
                    "explicit-predicate",
                    "code",
                    f"{f.location.path}:{f.location.line}",
                    f"constrain the target partition of the {intent.kind.value.replace('_', ' ')} at "
                    f"{f.location} explicitly ({rewrite.summary})",
                    "none at run time; the statement must be given the partition values it writes",
                    lambda sc, path=f.location.path, rw=rewrite: sc.with_text(
                        path, rw.fn(dict(sc.texts).get(path, self.text(path) or ""))
                    ),
                    touched,
                    rewrites=(rewrite,),
                    scope=frozenset({f"file:{f.location.path}"}),
                )
            )
        return out

    def _task_parameters(self, display: str) -> set[str]:
        schedule = self.result.pairing.schedule
        names: set[str] = set()
        for node in schedule.nodes_of.get(display, ()):
            job = schedule.workflows.jobs.get(node.job) if node.kind == "task" else None
            if job is not None:
                names.update(job.parameters)
                task = job.tasks.get(node.task or "")
                if task is not None:
                    names.update(task.parameters)
        return names

    def _schedule_changes(self, findings: list[Finding]) -> list[Change]:
        """Levers on the pairs of nodes (tasks, configured jobs) that the findings' writes
        run in and that overlap."""
        schedule = self.result.pairing.schedule
        pairs: set[tuple[Node, Node]] = set()
        for f in findings:
            mine = schedule.nodes_of.get(f.location.path, ())
            others = {n for r in f.related for n in schedule.nodes_of.get(r.path, ())}
            if f.location.path in {r.path for r in f.related} or "another run" in f.message:
                others |= set(mine)
            for a in mine:
                for b in others:
                    pairs.add((a, b) if a.key() <= b.key() else (b, a))
        out: list[Change] = []
        partners: dict[str, set[str]] = {}  # cron job -> cron jobs it meets in a finding
        for a, b in sorted(pairs, key=lambda p: (p[0].key(), p[1].key())):
            if schedule.node_overlap(a, b)[0] is None:
                continue
            out += self._pair_levers(a, b)
            ja, jb = self._cron_job(a), self._cron_job(b)
            if ja is not None and jb is not None and ja.key != jb.key:
                partners.setdefault(ja.key, set()).add(jb.key)
                partners.setdefault(jb.key, set()).add(ja.key)
        for key in sorted(partners):
            change = self._cron_shift(key, sorted(partners[key]))
            if change is not None:
                out.append(change)
        return out

    def _cron_job(self, node: Node) -> Job | None:
        job = self.result.pairing.schedule.workflows.jobs.get(node.job) if node.kind == "task" else None
        return job if job is not None and job.cron and job.location is not None and not job.continuous else None

    def _tables_of_files(self, paths: set[str]) -> set[str]:
        return {t for p in paths for t in self.judge.tables_of_file.get(p, ())}

    def _files_of(self, job: str, tasks: set[str] | None = None) -> set[str]:
        """Files run by the job (by these of its tasks)."""
        return {
            path
            for path, nodes in self.result.pairing.schedule.nodes_of.items()
            if any(n.job == job and (tasks is None or n.task in tasks) for n in nodes)
        }

    def _shared_tables(self, left: set[str], right: set[str]) -> set[str]:
        """Tables written from both sets of files: the only ones whose pairs between
        the two sets can change."""
        return self._tables_of_files(left) & self._tables_of_files(right)

    def _loc(self, where: Location) -> Location:
        """A bundle location (relative to the configuration's folder) as a display path."""
        return replace(where, path=self._display(self.config.root / where.path))

    def _pair_levers(self, a: Node, b: Node) -> list[Change]:
        schedule = self.result.pairing.schedule
        workflows = schedule.workflows
        out: list[Change] = []
        bundle_job = workflows.jobs.get(a.job) if a.kind == "task" else None
        if a.job == b.job and bundle_job is not None and bundle_job.location is not None:
            job = bundle_job
            inside = self._files_of(job.key)
            within = self._tables_within(job.key)
            if a != b and not job.cycle:
                first, then = sorted((a.task or "", b.task or ""))
                task = job.tasks[then]
                if task.location is not None:

                    def edge(sc: Scenario, key=job.key, first=first, then=then) -> Scenario:
                        current = dict(sc.jobs).get(key) or workflows.jobs[key]
                        t = current.tasks[then]
                        tasks = current.tasks | {then: replace(t, depends_on=(*t.depends_on, first))}
                        return sc.with_job(replace(current, tasks=tasks))

                    out.append(
                        Change(
                            "depends-on",
                            "schedule",
                            f"job `{job.key}`: `{first}` -> `{then}`",
                            f"make task `{then}` of job `{job.key}` depend on task `{first}`",
                            "the two tasks run one after the other: the job takes longer",
                            edge,
                            within,
                            rewrites=(add_depends_on(self._loc(task.location), then, first),),
                            scope=frozenset({f"job:{job.key}"}),
                        )
                    )
            if job.max_concurrent_runs > 1:

                def one_run(sc: Scenario, key=job.key) -> Scenario:
                    return sc.with_job(replace(dict(sc.jobs).get(key) or workflows.jobs[key], max_concurrent_runs=1))

                out.append(
                    Change(
                        "max-concurrent-runs",
                        "schedule",
                        f"job `{job.key}`",
                        f"let job `{job.key}` run one run at a time (max_concurrent_runs: 1)",
                        "a run that comes due while the previous one runs is skipped or queued",
                        one_run,
                        self._tables_of_files(inside),
                        rewrites=(set_max_runs(self._loc(job.location), job.key),),
                        scope=frozenset({f"job:{job.key}"}),
                    )
                )
        config_yaml = self.config.path is not None and self.config.path.suffix in (".yaml", ".yml")
        if a.job == b.job and a.kind == "config" and schedule.config_runs.get(a.job, 1) > 1 and config_yaml:
            out.append(
                Change(
                    "concurrent-runs",
                    "schedule",
                    f"`{a.job}`",
                    f"run `{a.job}` one run at a time (concurrent_runs: 1 in the configuration; make the "
                    "scheduler do the same)",
                    "a run that comes due while the previous one runs waits",
                    lambda sc, key=a.job: replace(sc, config_runs=(*sc.config_runs, (key, 1))),
                    self._tables_of_files(self._files_of(a.job)),
                    rewrites=(set_config_runs(self._display(self.config.path), a.job),),  # type: ignore[arg-type]
                    scope=frozenset({f"job:{a.job}"}),
                )
            )
        if a.job != b.job and a.kind != "file" and b.kind != "file" and config_yaml:
            continuous = any(
                n.kind == "task" and getattr(workflows.jobs.get(n.job), "continuous", False) for n in (a, b)
            )  # a job that never stops cannot take turns with another
            if not continuous:
                group = frozenset({a.job, b.job})
                out.append(
                    Change(
                        "exclusive",
                        "schedule",
                        f"`{a.job}` and `{b.job}`",
                        f"never run `{a.job}` and `{b.job}` at the same time (an exclusive group)",
                        "delta-lint then takes it as given: make it true (one orchestrating job, or a lock)",
                        lambda sc, g=group: replace(sc, exclusive=(*sc.exclusive, g)),
                        self._shared_tables(self._files_of(a.job), self._files_of(b.job)),
                        rewrites=(add_exclusive(self._display(self.config.path), a.job, b.job),),  # type: ignore[arg-type]
                        scope=frozenset({f"job:{a.job}", f"job:{b.job}"}),
                    )
                )
        return out

    def _cron_shift(self, key: str, partners: list[str]) -> Change | None:
        """The smallest whole-hour shift of a cron with a fixed hour after which its runs
        meet none of `partners` (else the fewest), as the schedule works it out."""
        schedule = self.result.pairing.schedule
        jobs = schedule.workflows.jobs
        job = jobs[key]
        assert job.cron is not None and job.location is not None
        fields = job.cron[0].split()
        if len(fields) < 6 or not fields[2].isdigit():
            return None
        best: tuple[int, int, str] | None = None
        for hours in range(1, 24):
            fields[2] = str((int(job.cron[0].split()[2]) + hours) % 24)
            expression = " ".join(fields)
            moved = replace(job, cron=(expression, job.cron[1]))
            trial = Schedule(
                {},
                {},
                (),
                Workflows(jobs={key: moved} | {k: jobs[k] for k in partners}),
                schedule.durations,
                schedule.default_duration,
                schedule.default_stated,
            )
            node = Node(key, next(iter(job.tasks), "t"), "task")
            meets = sum(
                trial.node_overlap(node, Node(k, next(iter(jobs[k].tasks), "t"), "task"))[0] is not None
                for k in partners
            )
            if meets < len(partners) and (best is None or meets < best[0]):
                best = (meets, hours, expression)
            if meets == 0:
                break
        if best is None:
            return None
        _, hours, expression = best
        return Change(
            "cron-shift",
            "schedule",
            f"job `{key}`",
            f"start job `{key}` {hours} h later (`{expression}`) so that its runs meet fewer of "
            f"{', '.join(f'`{k}`' for k in partners)}",
            "results arrive later; jobs that read its output may need to move too",
            lambda sc: sc.with_job(replace(dict(sc.jobs).get(key) or job, cron=(expression, job.cron[1]))),  # type: ignore[index]
            self._tables_beside(key),
            rewrites=(set_cron(self._loc(job.location), key, job.cron[0], expression),),
            assumptions=(
                "runs take at most "
                + ", ".join(f"{_duration(schedule.duration(jobs[k]))} (`{k}`)" for k in [key, *partners])
                + ", as `duration:` says",
            ),
            scope=frozenset({f"job:{key}"}),
        )

    def _tables_within(self, job: str) -> set[str]:
        """Tables that two of the job's tasks (or two files of one task) write: the
        pairs whose order a depends_on can change."""
        writers: Counter[str] = Counter()
        for path, nodes in self.result.pairing.schedule.nodes_of.items():
            n = sum(node.job == job for node in nodes)
            for table in self.judge.tables_of_file.get(path, ()) if n else ():
                writers[table] += n
        return {t for t, n in writers.items() if n > 1}

    def _tables_beside(self, job: str) -> set[str]:
        """Tables the job writes that something outside it writes too: the pairs a new
        start time can change."""
        nodes_of = self.result.pairing.schedule.nodes_of
        mine = self._tables_of_files(self._files_of(job))
        outside = {p for p, nodes in nodes_of.items() if any(n.job != job for n in nodes)}
        outside |= {p for p in self.judge.tables_of_file if p not in nodes_of}
        return mine & self._tables_of_files(outside)

    def _display(self, path: Path) -> str:
        from delta_lint.run import display_path

        return display_path(path, self.cwd)

    # -- judging ----------------------------------------------------------------------------------

    def evaluate(self, change: Change, on: Judged | None = None) -> Change:
        """What the change removes and adds, on top of `on` (the run as it is): only
        the tables it touches are judged again, and the findings stage (selection,
        suppressions) is applied to theirs alone — it keeps or drops each one alone."""
        on = on or self.base
        change.judged = True
        after = self.judge.judge(change.apply(on.scenario), on, change.touched)
        if after is None:
            change.removed, change.added = [], []
            return change
        before_found = self.judge.visible(on, change.touched)
        after_found = self.judge.visible(after, change.touched)
        b, a = conflicts(before_found), conflicts(after_found)
        change.removed, change.added = _pick(before_found, b - a), _pick(after_found, a - b)
        return change

    def bound(self, change: Change) -> tuple[int, int, int]:
        """An upper bound of the change's score without judging it: it can only remove
        findings of the tables it touches that name a file it changes (a table setting:
        any of its table's; a finding that leaves out some of its writes may name any)."""
        files: set[str] | None = None
        jobs = {s[4:] for s in change.scope if s.startswith("job:")}
        if change.lever == "schedule":
            files = {p for j in jobs for p in self._files_of(j)}
        errors = warnings = removed = 0
        for table in change.touched:
            for f in self._base_by_table.get(table, ()):
                if (
                    files is None
                    or f.related_more
                    or f.location.path in files
                    or any(r.path in files for r in f.related)
                ):
                    removed += 1
                    errors += f.severity == "error"
                    warnings += f.severity == "warning"
        return (errors, warnings, removed)

    def advise(self, budget: int = 0, top: int = 0) -> Advice:
        """Every candidate judged (`top` 0), or enough to rank the best `top` exactly: the
        candidates are judged in the order of their bounds, until the next bound cannot
        beat the `top`-th change found."""
        candidates = self.candidates()
        for c in candidates:
            c.bound = self.bound(c)
        candidates.sort(key=_rank)
        useful: list[Change] = []
        judged = 0
        for c in candidates:
            if top and len(useful) >= top and c.bound[:2] < useful[top - 1].score[:2]:
                break
            self.evaluate(c)
            judged += 1
            if c.useful:
                useful.append(c)
                useful.sort(key=_rank)
        shown = useful[:top] if top else useful
        advice = Advice(
            self.base_findings,
            shown,
            not_advised=judged - len(useful),
            not_judged=len(candidates) - judged,
            notes=list(self.result.notes),
        )
        if budget > 0:
            pool = useful + [c for c in candidates if not c.judged]
            advice.plan, state = self.plan(pool, budget)
            advice.left = self.judge.visible(state)
        return advice

    def plan(self, ranked: list[Change], budget: int) -> tuple[list[Change], Judged]:
        """Greedy with lazy judging: the change with the best last judgement is judged
        again on the plan so far (unless nothing it touches changed since) and taken
        when it stays the best; each taken change's removed and added findings are
        judged on top of the changes before it."""
        state, chosen = self.base, []
        fresh = {c.ident: c for c in ranked if c.judged}  # judged on the current state
        pool = list(ranked)
        dirty_tables: set[str] = set()
        dirty_scope: set[str] = set()
        while pool and len(chosen) < budget:
            pool.sort(key=_rank)
            best = None
            while pool:
                c = pool[0]
                if c.ident not in fresh:
                    c = pool[0] = self.evaluate(replace(c, removed=[], added=[]), state)
                    fresh[c.ident] = c
                    pool.sort(key=_rank)
                    if pool[0] is not c:
                        continue
                if not c.useful:
                    pool = []
                    break
                best = pool.pop(0)
                break
            if best is None:
                break
            after = self.judge.judge(best.apply(state.scenario), state, best.touched)
            if after is None:  # cannot happen for a change judged useful on this state
                break
            chosen.append(best)
            state = after
            dirty_tables |= best.touched
            dirty_scope |= best.scope
            fresh = {
                k: c for k, c in fresh.items() if not (c.touched & dirty_tables or c.scope & dirty_scope)
            }  # the others judged tables nothing changed since
            dirty_tables, dirty_scope = set(best.touched), set(best.scope)
        return chosen, state

    def rewritten(self, changes: list[Change]) -> dict[str, tuple[str, str]]:
        """display path -> (text now, text after the changes' file edits, in order)."""
        out: dict[str, tuple[str, str]] = {}
        for change in changes:
            for rw in change.rewrites:
                before = self.text(rw.path)
                if before is None:
                    raise EditError(f"{rw.path}: cannot read it to edit it")
                current = out.get(rw.path, (before, before))[1]
                out[rw.path] = (before, rw.fn(current))
        return out


_LEVER_ORDER = {"code": 0, "schedule": 1, "table": 2}


def _rank(c: Change) -> tuple:
    """Best first: judged changes by their score, the others by their bound."""
    errors, warnings, removed = c.score if c.judged else c.bound
    return (-errors, -warnings, -removed, len(c.added), _LEVER_ORDER[c.lever], c.kind, c.target)


def _duration(d) -> str:
    from delta_lint.cron import format_duration

    return format_duration(d)


def unified_diff(path: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}"))


# -- the explicit target predicate ----------------------------------------------------------------


def explicit_predicate(path: str, text: str, intent: Intent, s: TableSettings, parameters: set[str]) -> Rewrite:
    """The edit that adds `t.<col> = <value>` for every partition column the write's
    condition leaves open, as DL101's fix reads. Values are the job's own parameters:
    `:col` in SQL when a task running the file has a parameter `col`; in Python the
    variable holding the widget `col` (or the widget read itself)."""
    open_columns = [c for c in s.partitioned_by if c not in (intent.region.columns() if intent.region else set())]
    if not open_columns:
        raise EditError("every partition column is constrained")
    alias = intent.target_alias or ""
    qual = f"{alias}." if alias else ""
    suffix = Path(path).suffix.lower()
    if suffix == ".sql":
        missing = [c for c in open_columns if c not in parameters]
        if missing:
            raise EditError(f"no job parameter for {', '.join(missing)}")
        terms = " AND ".join(f"{qual}{c} = :{c}" for c in open_columns)
        return _sql_rewrite(path, text, intent, terms)
    if suffix == ".py" and not text.startswith("# Databricks notebook source"):
        return _python_rewrite(path, text, intent, open_columns, qual)
    raise EditError("only SQL files and Python scripts are edited")


def _statement_span(text: str, line: int, column: int) -> tuple[int, int]:
    lines = text.split("\n")
    start = sum(len(x) + 1 for x in lines[: line - 1]) + column - 1
    end = text.find(";", start)
    return start, (len(text) if end < 0 else end)


def _sql_rewrite(path: str, text: str, intent: Intent, terms: str) -> Rewrite:
    start, end = _statement_span(text, intent.location.line, intent.location.column)
    statement = text[start:end]
    if "--" in statement or "/*" in statement:
        raise EditError("a comment inside the statement")
    if intent.kind == Kind.MERGE:
        when = re.search(r"\bWHEN\b", statement, re.IGNORECASE)
        if when is None:
            raise EditError("no WHEN clause")
        cut = start + len(statement[: when.start()].rstrip())
        if re.search(r"\bOR\b", statement[: when.start()], re.IGNORECASE):
            raise EditError("an OR in the ON condition")
        return Rewrite(path, lambda t, cut=cut: t[:cut] + f" AND {terms}" + t[cut:], f"AND {terms}")
    if intent.kind in (Kind.UPDATE, Kind.DELETE):
        where = re.search(r"\bWHERE\b", statement, re.IGNORECASE)
        cut = start + len(statement.rstrip())
        if where is None:
            return Rewrite(path, lambda t, cut=cut: t[:cut] + f" WHERE {terms}" + t[cut:], f"WHERE {terms}")
        at = start + where.end()
        return Rewrite(
            path,
            lambda t, at=at, cut=cut: t[:at] + " (" + t[at:cut].strip() + f") AND {terms}" + t[cut:],
            f"AND {terms}",
        )
    raise EditError(f"a {intent.kind.value} has no condition to edit")


def _python_rewrite(path: str, text: str, intent: Intent, columns: list[str], qual: str) -> Rewrite:
    """A DeltaTable `.merge(source, "cond")`, `.update("cond", ...)` or `.delete("cond")`
    whose condition is a string literal: it becomes an f-string with the terms added."""
    tree = ast.parse(text)
    widgets: dict[str, str] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and ast.unparse(node.value.func) == "dbutils.widgets.get"
            and node.value.args
            and isinstance(node.value.args[0], ast.Constant)
        ):
            widgets.setdefault(str(node.value.args[0].value), node.targets[0].id)
    missing = [c for c in columns if c not in widgets]
    if missing:
        raise EditError(f"no widget for {', '.join(missing)}")
    wanted = {Kind.MERGE: ("merge", 1), Kind.UPDATE: ("update", 0), Kind.DELETE: ("delete", 0)}.get(intent.kind)
    if wanted is None:
        raise EditError(f"a {intent.kind.value} has no condition to edit")
    method, index = wanted
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == method
        and len(n.args) > index
        and isinstance(n.args[index], ast.Constant)
        and isinstance(n.args[index].value, str)
        and n.lineno <= intent.location.line <= (n.end_lineno or n.lineno)
    ]
    if len(calls) != 1:
        raise EditError("the condition is not one string literal")
    literal = calls[0].args[index]
    if literal.lineno != literal.end_lineno:
        raise EditError("the condition spans lines")
    source = ast.get_source_segment(text, literal) or ""
    if not source or source[0] not in "\"'" or "{" in source or "}" in source:
        raise EditError("the condition is not a plain string literal")
    quote = source[0]
    inner_quote = "'" if quote == '"' else '"'
    terms = " AND ".join(f"{qual}{c} = {inner_quote}{{{widgets[c]}}}{inner_quote}" for c in columns)
    new = "f" + source[:-1] + f" AND {terms}" + source[-1]
    lines = text.split("\n")
    line_no, col, end_col = literal.lineno, literal.col_offset, literal.end_col_offset

    def fn(t: str, line_no=line_no, col=col, end_col=end_col, source=source, new=new) -> str:
        rows = t.split("\n")
        row = rows[line_no - 1]
        if row[col:end_col] != source:
            raise EditError(f"{path}:{line_no}: the condition changed")
        rows[line_no - 1] = row[:col] + new + row[end_col:]
        return "\n".join(rows)

    del lines
    return Rewrite(path, fn, f"AND {terms}")


# -- entry points ---------------------------------------------------------------------------------


def advise_paths(
    paths: list[Path],
    config: Config,
    budget: int = 0,
    top: int = 0,
    cwd: Path | None = None,
    bundle: Path | None = None,
    target: str | None = None,
    refresh: bool = False,
    read=None,
) -> tuple[Advisor, Advice]:
    """Run the pipeline once (without the cache: every table is judged) and advise."""
    from delta_lint.run import check

    cwd = cwd or Path.cwd()
    result = check(paths, config, cwd=cwd, refresh=refresh, bundle=bundle, target=target, use_cache=False, read=read)
    advisor = Advisor(result, config, cwd)
    return advisor, advisor.advise(budget, top)


def apply_changes(advisor: Advisor, changes: list[Change]) -> list[str]:
    """Write the changes' file edits (code, bundle YAML, configuration) and return the
    files written. Only files inside the project (the configuration's folder) are
    written; table settings are never applied (their statements are printed)."""
    from delta_lint.atomic import write_atomic

    root = advisor.config.root.resolve()
    edited = advisor.rewritten(changes)
    for path in edited:
        target = (advisor.cwd / path).resolve()
        if not target.is_relative_to(root) or (advisor.cwd / path).is_symlink():
            raise EditError(f"{path}: outside the project ({root}) or a symbolic link; not edited")
    written = []
    for path, (before, after) in sorted(edited.items()):
        if before != after:
            write_atomic(advisor.cwd / path, after)
            written.append(path)
    return written
