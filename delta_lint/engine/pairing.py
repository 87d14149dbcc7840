"""The engine: every predicted conflict of one run's intents, table by table.

Judging every pair of writes of a table is quadratic; this module finds the pairs
worth judging and judges each kind of pair once. Intents are grouped into classes
(`classes.Classes`), pairs of classes that can never conflict or whose schedules
never meet are left out (buckets by pinned partition values, `_partners`), and
verdicts are kept for the run per pair of behaviours and settings. The verdict
itself is `judgement.Judge`'s; findings are made by `messages.Messages`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from delta_lint.config import Config
from delta_lint.engine.classes import UNKNOWN, Classes, Found, literal_keys, location_key, most_pinned
from delta_lint.engine.judgement import (
    DATA_DEPENDENT,
    FIRST_RUN,
    INTENT_RULES,
    MAY_NOT_COMMIT,
    READERS_RULES,
    RUN_RULES,
    Judge,
    Pair,
    Sig,
    Unit,
    without_known_evolution,
)
from delta_lint.engine.messages import Messages, severity
from delta_lint.model import Diagnostic, Finding, Flag, Intent, Kind
from delta_lint.predicates import overlap
from delta_lint.rulepack import Profile, RulePack, load
from delta_lint.schedule import SAME_VALUE, Concurrency, Schedule, stream_start
from delta_lint.settings import ReadSettings, TableNames, TableSettings, resolve_settings

if TYPE_CHECKING:
    from delta_lint.bundle import Task

# a placeholder of a table name: a part only a run knows (`{m_name}`); `{one_of}` is
# a name the code gives as one of several (see `frontend.pyvalues.ONE_OF`), no run's value
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_ONE_OF = "one_of"

# A file with more classes of one table than this has its pairs of classes formed
# from `Engine._partners` rather than every pair.
_FEW_CLASSES = 16
# What a verdict may read of a table's settings (see `judgement.PAIR_RULES` and
# `READERS_RULES`): tables equal in these share verdicts.
SETTINGS_FIELDS = (
    "partitioned_by",
    "clustered_by",
    "deletion_vectors",
    "isolation_level",
    "identity_columns",
    "declared_columns",
    "note",
)


class Engine:
    """Pair analysis over one run's intents. Its memos live for the run: verdicts
    per pair of behaviours and settings, class numbers, fix texts."""

    def __init__(
        self,
        config: Config,
        schedule: Schedule,
        pack: RulePack | None = None,
        read: ReadSettings | None = None,
        names: TableNames | None = None,
    ) -> None:
        self.config = config
        self.names = names if names is not None else TableNames.of(config)  # the run's
        self.read = read
        self.schedule = schedule
        self.stats = schedule.stats  # the run's counters: the schedule's questions are counted there too
        self.pack = pack or load()
        self.profile: Profile = self.pack.profile(config.runtime)
        self.judge = Judge(config, self.pack, self.profile, self.stats)
        self.messages = Messages(self.pack)
        self.internal_errors: list[Diagnostic] = []
        self.settings: dict[str, TableSettings] = {}
        self._verdicts: dict[tuple, tuple] = {}  # see _pairs_of_table
        self._kind_verdicts: dict[int, dict[tuple, tuple[bool, bool]]] = {}
        self._behaviour_ids: dict[tuple, int] = {}  # see Classes
        self._settings_ids: dict[tuple, int] = {}
        self._readers_answers: dict[tuple, dict[tuple, bool]] = {}  # per readers rule: see _readers_of_writes

    # -- entry -----------------------------------------------------------------

    def check(self, intents: list[Intent]) -> list[Finding]:
        by_table = self.by_table(intents)
        settings = resolve_settings(set(by_table), intents, self.config, self.profile, self.names, self.read)
        self.settings = settings
        findings: list[Finding] = []
        for table in sorted(by_table):
            findings += self.check_table(table, by_table[table], settings[table])
        findings += self.check_shared(intents, {name: s.source for name, s in settings.items()})
        return sorted(findings, key=Finding.sort_key)

    def by_table(self, intents: list[Intent]) -> dict[str, list[Intent]]:
        """Resolved writes and streaming reads per qualified table name, but for a
        name that an iteration's `{{input}}` feeds (each run of its for_each task
        writes a table of its own). A name known only as job inputs is one table
        within the concurrent runs of a for_each task (`Schedule.same_table_every_run`):
        the writes of its one file are judged together under that name; where two
        files write it, whose inputs may differ, neither is."""
        out: dict[str, list[Intent]] = defaultdict(list)
        by_inputs: dict[str, list[Intent]] = defaultdict(list)
        at_run_time: dict[str, list[Intent]] = defaultdict(list)
        for intent in intents:
            if intent.table is None:
                continue
            if Flag.UNRESOLVED not in intent.flags:
                if not ("{" in intent.table.name and self.name_varies(intent)):
                    out[self.names.qualify(intent.table.name)].append(intent)
            elif intent.name_inputs and self.schedule.same_table_every_run(intent):
                by_inputs[intent.table.name].append(intent)
            elif self.same_unknown_every_run(intent):
                at_run_time[intent.table.name].append(intent)
        for name, group in by_inputs.items():
            if name not in out and len({x.location.path for x in group}) == 1:
                out[name] = group
        for name, group in at_run_time.items():
            # runs of one statement only: two statements that name their table alike
            # (`{t}` of two functions) may each be given another table
            if name not in out and len({_statement_site(x) for x in group}) == 1:
                out[name] = group
        return out

    def same_unknown_every_run(self, intent: Intent) -> bool:
        """Whether an intent whose table name is not wholly known writes, in every
        run of its statement, whatever table one and the same source gives: the
        statement site is one, and the unknown parts of its name are computed there
        (a loop over a list or a table's rows read at run time, a caller's
        argument) or are job inputs no task that runs its file gives a value of its
        own. Such an intent is judged with other runs of the same file under its
        name: two tasks (of two jobs, or of one) run the same statement over the
        same unknown. Not when one task alone runs the file, nor a for_each task
        (its runs differ in their parameters or the iteration's input, which a
        value computed at run time may follow), nor when a task gives an input of
        the name per run (a dynamic value reference) or tasks give it different
        values: each run may write another table. A file no job schedules never
        overlaps itself."""
        if Flag.UNRESOLVED not in intent.flags or intent.table is None or intent.table.is_path:
            return False
        if self.name_varies(intent):
            return False
        tasks = self._tasks(intent.location.path)
        # one task's runs, or a for_each's iterations: a value computed at run time
        # may follow the run's own parameters or the iteration's input
        return len(tasks) > 1 and not any((task.for_each_concurrency or 1) > 1 for task in tasks)

    def name_varies(self, intent: Intent) -> bool:
        """Whether the job inputs of an intent's table name may differ between the
        runs that overlap: a for_each's `{{input}}` feeds one
        (`Schedule.names_differ_between_runs`), a task running the file gives one a
        value only its run knows (a dynamic value reference such as
        `{{job.start_time.iso_date}}`), or the tasks give one different values."""
        if intent.table is None:
            return False
        if intent.name_inputs and self.schedule.names_differ_between_runs(intent):
            return True
        path = intent.location.path
        runs = self.schedule.given_runs.get(path)
        tasks = self._tasks(path) if runs is None else []
        # the inputs the name is built of: those the front end traced, and its
        # placeholders (a SQL `:param`, a widget read where it is used)
        for name in dict.fromkeys([*intent.name_inputs, *_PLACEHOLDER.findall(intent.table.name)]):
            if runs is not None:  # the values each run gives (job parameters over task ones)
                given = {run[name] for by_node in runs.values() for run in by_node if name in run}
            else:
                given = {value for task in tasks for key, value in task.arguments if key == name}
            if None in given or len(given) > 1:
                return True
        return False

    def _tasks(self, path: str) -> list[Task]:
        """The job tasks that run the file at `path`."""
        tasks = []
        for node in self.schedule.nodes_of.get(path) or ():
            job = self.schedule.workflows.jobs.get(node.job) if node.kind == "task" else None
            task = job.tasks.get(node.task or "") if job is not None else None
            if task is not None:
                tasks.append(task)
        return tasks

    def check_table(self, table: str, intents: list[Intent], s: TableSettings) -> list[Finding]:
        """The findings of one table: they depend only on its intents, its settings and
        the schedule of their files, so an incremental run can keep them per table."""
        self.stats.tables_judged += 1
        group = sorted((without_known_evolution(x, s) for x in intents), key=location_key)
        columns = None if self.table_row_level(s)[0] else frozenset(s.partitioned_by)
        classes = Classes(group, self.schedule, columns, self._behaviour_ids)
        found = Found()
        try:
            self._pairs_of_table(table, classes, s, found)
        except Exception as err:  # noqa: BLE001 - one rule must not stop the others
            self._internal(group[0], "_pairs_of_table", err)
        for unit in READERS_RULES:
            try:
                self._readers_of_writes(unit, classes, s, found)
            except Exception as err:  # noqa: BLE001
                self._internal(group[0], unit.name, err)
        verdicts: list[tuple[Intent, Sig]] = []
        for unit in INTENT_RULES:
            try:
                for x in group:
                    sig = unit.judge(self.judge, x, s)
                    if sig is not None:
                        verdicts.append((x, sig))
            except Exception as err:  # noqa: BLE001
                self._internal(group[0], unit.name, err)
        pairs = self.messages.table_findings(table, classes, s, found)
        return self.run_time_name(table, group, pairs) + self.messages.intent_findings(table, s, verdicts)

    def run_time_name(self, table: str, group: list[Intent], findings: list[Finding]) -> list[Finding]:
        """The pair findings of a table whose name holds parts only a run knows, each
        saying how sure it is. Writes whose unknown parts are job inputs the
        concurrent runs share (a for_each's other iterations) are one table for
        certain: nothing is said. Otherwise the pairing rests on the runs giving the
        unknown part the same value (the same statement reading the same list or
        argument, or jobs leaving a parameter to one default): the finding says so,
        and its verdict is data-dependent, one step less sure, whether the rest of
        the name is known (`{m_name}_backfill`) or not (`{m_name}`, paired by
        `same_unknown_every_run`): which table a run writes is one of those its
        values name."""
        parts = [p for p in _PLACEHOLDER.findall(table) if p != _ONE_OF]
        if not parts or not findings:
            return findings
        if all(x.name_inputs and self.schedule.same_table_every_run(x) for x in group):
            return findings
        shown = ", ".join(f"`{{{p}}}`" for p in dict.fromkeys(parts))
        note = (
            f" (the name's {shown} is known only at run time: one table only where the runs give it the same "
            "value, as one statement over the same list or argument does)"
        )
        out = []
        for f in findings:
            if f.overlap_basis is None:
                out.append(f)
                continue
            out.append(
                replace(
                    f,
                    message=f.message + note,
                    verdict=f.verdict if f.verdict in (FIRST_RUN, MAY_NOT_COMMIT) else DATA_DEPENDENT,
                    severity=severity(
                        f.overlap_basis, f.verdict if f.verdict in (FIRST_RUN, MAY_NOT_COMMIT) else DATA_DEPENDENT
                    ),
                )
            )
        return out

    def check_shared(self, intents: list[Intent], sources: dict[str, str]) -> list[Finding]:
        """The run rules' findings, across tables; `sources` gives the settings source
        of tables these findings name."""
        pairs = [pair for unit in RUN_RULES for pair in unit.judge(self.judge, intents, self.schedule)]
        return self.messages.pair_findings(pairs, sources)

    def verdict(self, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str) -> Pair | None:
        """`Judge.verdict`: the pairing calls it through here, once per kind of pair."""
        self.stats.verdicts += 1
        return self.judge.verdict(a, b, s, conc, table)

    def row_level(self, s: TableSettings, a: Intent, b: Intent) -> tuple[bool, str, Intent | None]:
        return self.judge.row_level(s, a, b)

    def table_row_level(self, s: TableSettings) -> tuple[bool, str]:
        return self.judge.table_row_level(s)

    def _internal(self, intent: Intent, where: str, err: Exception) -> None:
        self.internal_errors.append(
            Diagnostic(
                "DL002",
                intent.location,
                f"internal error in rule {where} ({type(err).__name__}: {err}); please report it",
                "error",
            )
        )

    def _settings_id(self, s: TableSettings) -> int:
        """A number for the settings a verdict reads (not the table's name or where
        they came from): tables with equal settings share verdicts."""
        key = tuple(getattr(s, name) for name in SETTINGS_FIELDS)
        return self._settings_ids.setdefault(key, len(self._settings_ids))

    def _pairs_of_table(self, table: str, classes: Classes, s: TableSettings, found: Found) -> None:
        """Every pair (in location order) whose verdict is not None: pairs inside one
        file (and each statement with another run of itself) one by one; pairs across
        files once per pair of classes and order."""
        group, overlap_of = classes.group, self.schedule.overlap
        kinds: dict[tuple, bool] = {}

        def can_conflict(a: Intent, b: Intent) -> bool:
            kind = (a.op_class, b.op_class, a.kind == Kind.OPTIMIZE_ZORDER or b.kind == Kind.OPTIMIZE_ZORDER)
            known = kinds.get(kind)
            if known is None:
                known = kinds[kind] = self.judge.classes_can_conflict(*kind, s)
            return known

        # A verdict reads the two intents' behaviours and whether they are distinct
        # runs; the overlap only passes its reason through. Verdicts are kept for the
        # run per pair of behaviours: tables with equal settings share them.
        # Classes differ mostly in their regions, which verdicts read little of: none
        # when one side is a CREATE, metadata or protocol change; on a table without
        # row-level concurrency, whether each is opaque or whole and how the two overlap
        # on the partition columns (of two classes pinned to literal partition values,
        # see `_pin`, whether their values meet); on an unpartitioned table with
        # row-level concurrency, the same of their rows (a file-level verdict there
        # reads only whether a region is opaque). Such pairs are kept by their
        # behaviours without the regions.
        memo, settings_id = self._verdicts, self._settings_id(s)
        behaviours, pins, regionless, blind = classes.behaviours, classes.pins, classes.regionless, classes.region_blind
        regions, columns = classes.regions, classes.columns
        by_shape = columns is not None or not s.partitioned_by
        shapes: list[tuple[bool, bool] | None] = [None] * len(regions)  # per class: its region opaque, whole

        def judged(a: Intent, b: Intent, pa: int, pb: int, conc: Concurrency) -> tuple[bool, Sig] | None:
            """(whether a is the primary, the verdict) when a and b, members of classes
            pa and pb that overlap as `conc` says, conflict."""
            va, vb = pins[pa], pins[pb]
            # what a verdict reads of the runs
            runs = (conc.distinct_runs, conc.values_may_repeat, conc.per_run_inputs, conc.run_unique, conc.run_shared)
            if a.read_region is not None or b.read_region is not None:
                # a verdict reads what one of them reads apart from the class's region
                # (see `region_against`): kept per pair of whole behaviours
                key = (settings_id, behaviours[pa], behaviours[pb], a is b, runs)
            elif blind[pa] or blind[pb]:
                key = (settings_id, regionless[pa], regionless[pb], a is b, runs, None)
            elif va is not None and vb is not None:
                meet = all(va[c] & vb[c] for c in va.keys() & vb.keys())
                key = (settings_id, regionless[pa], regionless[pb], a is b, runs, meet)
            elif by_shape:
                ra, rb = regions[pa], regions[pb]
                self.stats.regions_compared += 1
                how = overlap(ra, rb, columns, conc.distinct_runs)
                sa, sb = shapes[pa], shapes[pb]  # read once per class, not per pair
                if sa is None:
                    sa = shapes[pa] = (ra.opaque, ra.is_whole())
                if sb is None:
                    sb = shapes[pb] = (rb.opaque, rb.is_whole())
                shape = (*sa, *sb, how)
                key = (settings_id, regionless[pa], regionless[pb], a is b, runs, shape)
            else:
                key = (settings_id, behaviours[pa], behaviours[pb], a is b, runs)
            verdict = memo.get(key, UNKNOWN)
            if verdict is UNKNOWN:
                asked = Concurrency(
                    "",
                    conc.distinct_runs,
                    values_may_repeat=conc.values_may_repeat,
                    per_run_inputs=conc.per_run_inputs,
                    run_unique=conc.run_unique,
                    run_shared=conc.run_shared,
                )
                pair = self.verdict(a, b, s, asked, table)
                # a pair apart only while the runs' values differ rests on them sharing one
                verdict = memo[key] = (
                    (pair.primary is a, pair.sig()[:5], pair.concurrency.basis == SAME_VALUE)
                    if pair is not None
                    else None
                )
            if verdict is None:
                return None
            return verdict[0], verdict[1] + (conc.reason, SAME_VALUE if verdict[2] else conc.basis)  # type: ignore[index]

        partners_of: Callable[[int], list[int]] | None = None  # see _partners: made once asked
        for shared in classes.shared_files:
            # Statements of one file run in order unless runs of the file overlap (then
            # every pair alike), a streaming query keeps running, a thread pool runs
            # calls at once or tasks run their own lines of it (an Airflow DAG's SQL
            # tasks): without those, one answer holds for every pair, and a long script
            # in one run costs nothing.
            alike = not any(stream_start(group[i]) is not None or group[i].pool is not None for i in shared)
            alike = alike and not self.schedule.scoped_by_lines(group[shared[0]].location.path)
            same_run = overlap_of(group[shared[0]], group[shared[1]]) if alike else None
            if alike and same_run is None:
                continue
            if alike:  # every pair alike: judged once per pair of classes, as across files
                in_file: dict[int, list[int]] = {}  # class -> its members in this file, ascending
                for i in shared:
                    in_file.setdefault(classes.cls[i], []).append(i)
                if len(in_file) <= _FEW_CLASSES:
                    ordered = [(p, q) for p in in_file for q in in_file]
                else:  # a long script of many classes: only pairs that may conflict
                    if partners_of is None:
                        partners_of = self._partners(classes, s)
                    ordered = [
                        pair
                        for p in in_file
                        for q in partners_of(p)
                        if q in in_file
                        for pair in (((p, q),) if p == q else ((p, q), (q, p)))
                    ]
                for p, q in ordered:
                    mp, mq = in_file[p], in_file[q]
                    if mp[0] >= mq[-1]:  # no member of p comes before one of q
                        continue
                    a, b = group[mp[0]], group[mq[-1]]
                    if not can_conflict(a, b):
                        continue
                    verdict = judged(a, b, p, q, same_run)
                    if verdict is None:
                        continue
                    if verdict[0]:  # a member of p gets the members of q after it
                        found.add_in_file(p, verdict[1], mq, before=False)
                    else:
                        found.add_in_file(q, verdict[1], mp, before=True)
                continue
            for i in shared:
                a, pa = group[i], classes.cls[i]
                for j in range(i + 1, shared.stop):
                    b = group[j]
                    if not can_conflict(a, b):
                        continue
                    conc = same_run if alike else overlap_of(a, b)
                    verdict = judged(a, b, pa, classes.cls[j], conc) if conc is not None else None
                    if verdict is not None:
                        primary, other = (i, j) if verdict[0] else (j, i)
                        found.fixed[primary].append((verdict[1], [other]))
        for pa, (members, a) in enumerate(zip(classes.members, classes.reps)):  # another run of itself
            if not can_conflict(a, a):
                continue
            conc = overlap_of(a, a)  # alike for the class: it depends on the file's nodes
            verdict = judged(a, a, pa, pa, conc) if conc is not None else None
            if verdict is not None:
                for i in members:
                    found.fixed[i].append((verdict[1], [i]))
        # Most pairs of scheduled files never run together, and then no pair of their
        # classes needs a verdict: the overlap is known per pair of schedule keys.
        if partners_of is None:
            partners_of = self._partners(classes, s)
        for p in range(len(classes.reps)):
            for q in partners_of(p):  # (p, q), p <= q: the pairs whose members may conflict
                across = classes.across(p, q)
                if across is None:
                    continue
                i, j, conc = across
                for first, second in ((p, q),) if p == q else ((p, q), (q, p)):
                    a, b = (group[i], group[j]) if first == p else (group[j], group[i])
                    if not can_conflict(a, b):
                        continue
                    verdict = judged(a, b, first, second, conc)
                    if verdict is None:
                        continue
                    if verdict[0]:  # a member of `first` gets the members of `second` after it
                        found.add_sliced(first, verdict[1], classes.members[second], before=False)
                    else:
                        found.add_sliced(second, verdict[1], classes.members[first], before=True)

    def _partners(self, classes: Classes, s: TableSettings) -> Callable[[int], list[int]]:
        """For a class p, the classes q >= p (ascending) whose members may conflict with
        its own, leaving out pairs of operation classes that never conflict; classes
        pinned to different literal values of one column where those values decide:
        on partitioned tables the first partition column, on unpartitioned tables with
        row-level concurrency the column most classes pin (for classes that keep
        row-level concurrency). Classes are bucketed by those values, which keeps
        tables with many partitions (or many single-row writes) near-linear instead
        of quadratic. Also left out: pairs of classes whose cron schedules never meet
        (see `Classes.meeting`). Kept per class once asked."""
        reps = classes.reps
        rows = classes.columns is None and not s.partitioned_by  # row-level concurrency, unpartitioned
        if s.partitioned_by:
            column = s.partitioned_by[0]
            keys = [literal_keys(x, column) for x in reps]
        elif rows:
            keep_rows = [self.row_level(s, x, x)[0] for x in reps]
            column = most_pinned(x for x, kept in zip(reps, keep_rows) if kept)
            keys = [literal_keys(x, column) if kept and column else None for x, kept in zip(reps, keep_rows)]
        else:
            keys = [None] * len(reps)
        decided = self.judge.decided_by_rows if rows else self.judge.decided_by_region
        kinds: dict[tuple, list[int]] = defaultdict(list)
        for index, x in enumerate(reps):
            kinds[(x.op_class, x.kind == Kind.OPTIMIZE_ZORDER)].append(index)
        buckets: dict[tuple, dict[str, list[int]]] = {k: defaultdict(list) for k in kinds}
        wildcards: dict[tuple, list[int]] = {k: [] for k in kinds}
        for k, members in kinds.items():
            for index in members:
                if keys[index] is None:
                    wildcards[k].append(index)
                else:
                    for value in keys[index]:
                        buckets[k][value].append(index)
        # alike for tables with equal settings (row-level or not follows from them)
        verdicts = self._kind_verdicts.setdefault(self._settings_id(s), {})
        known: dict[int, list[int]] = {}

        def partners_of(p: int) -> list[int]:
            found = known.get(p)
            if found is not None:
                return found
            a = reps[p]
            op_class, zorder = a.op_class, a.kind == Kind.OPTIMIZE_ZORDER
            parts: list[list[int]] = []  # ascending slices of classes from p on
            for k, members in kinds.items():
                pair_kind = (op_class, k[0], k[1] or zorder)
                if pair_kind not in verdicts:
                    back = (k[0], op_class, pair_kind[2])
                    verdicts[pair_kind] = (
                        self.judge.classes_can_conflict(*pair_kind, s) or self.judge.classes_can_conflict(*back, s),
                        decided(*pair_kind, s) and decided(*back, s),
                    )
                can_conflict, by_region = verdicts[pair_kind]
                if not can_conflict:
                    continue
                # member lists are ascending: the classes from p on are a slice
                if keys[p] is None or not by_region:
                    parts.append(members[bisect_left(members, p) :])
                    continue
                parts.append(wildcards[k][bisect_left(wildcards[k], p) :])
                for value in keys[p]:
                    bucket = buckets[k].get(value)
                    if bucket:
                        parts.append(bucket[bisect_left(bucket, p) :])
            parts = [part for part in parts if part]
            # one slice is ascending and distinct as it is (most classes: one kind of
            # write meets theirs); several are merged
            partners = parts[0] if len(parts) == 1 else sorted(set().union(*parts))
            found = known[p] = classes.meeting(p, partners)
            return found

        return partners_of

    def _readers_of_writes(self, unit: Unit, classes: Classes, s: TableSettings, found: Found) -> None:
        """A readers rule's findings (see `judgement.ReadersRule`): each write with
        the concurrent readers that may read what it adds and have another concurrent
        reader they do not conflict with directly (the two are `apart`)."""
        rule, judge = unit.judge, self.judge
        if not rule.applies(judge, s):
            return
        group, members, overlap_of = classes.group, classes.members, self.schedule.overlap
        writes = [i for i, x in enumerate(group) if rule.writes(x)]
        candidates = [i for i, x in enumerate(group) if rule.reader(x)]
        if not writes or not candidates:
            return
        verdict = rule.verdict(judge, s)
        candidate_classes = sorted({classes.cls[d] for d in candidates})

        def overlap_between(i: int, j: int) -> Concurrency | None:
            if classes.file_start[i] == classes.file_start[j]:
                return overlap_of(group[i], group[j])
            if classes.never_meet(classes.cls[i], classes.cls[j]):
                return None
            return classes.files_overlap(i, j)

        def reads(a: int, d: int) -> Concurrency | None:
            """How write a and reader d overlap, when d may read what a adds."""
            conc = overlap_between(a, d)
            if conc is None or not rule.may_read(judge, group[a], group[d], s):
                return None
            return conc

        apart: dict[tuple[int, int], bool] = {}

        def concurrent_and_apart(i: int, j: int) -> bool:
            if (i, j) not in apart:
                conc = overlap_between(i, j)
                apart[(i, j)] = conc is not None and rule.apart(judge, group[i], group[j], s, conc)
            return apart[(i, j)]

        run_memo = self._readers_answers.setdefault(unit.ids, {})
        settings_id = self._settings_id(s)
        schedule_keys, behaviours = classes.schedule_keys, classes.behaviours
        class_apart: dict[tuple[int, int], bool] = {}

        def classes_apart(c1: int, c2: int) -> bool:
            """For members of two classes in different files: kept for the run per
            schedule keys and behaviours, as verdicts are (see _pairs_of_table)."""
            if (c1, c2) not in class_apart:
                reps = classes.cross_file(c1, c2)
                answer = False
                if reps is not None:
                    key = (settings_id, schedule_keys[c1], behaviours[c1], schedule_keys[c2], behaviours[c2])
                    answer = run_memo.get(key)
                    if answer is None:
                        answer = run_memo[key] = concurrent_and_apart(*reps)
                class_apart[(c1, c2)] = answer
            return class_apart[(c1, c2)]

        itself: dict[int, bool] = {}  # per class: a member and another run of it are concurrent and apart

        def reported(readers: list[int]) -> list[int]:
            files: dict[int, set[int]] = defaultdict(set)  # reader class -> files of its readers
            for d in readers:
                files[classes.cls[d]].add(classes.file_start[d])
            out = []
            for d in readers:
                c, f = classes.cls[d], classes.file_start[d]
                if any((len(fs) > 1 or f not in fs) and classes_apart(c, c2) for c2, fs in files.items()):
                    out.append(d)  # a partner in another file
                    continue
                if c not in itself:
                    itself[c] = concurrent_and_apart(d, d)  # alike for the class, as its verdicts
                if itself[c]:
                    out.append(d)
                    continue
                end = classes.file_end[d]
                if end - f > 1:  # readers in the same file
                    lo, hi = bisect_left(readers, f), bisect_left(readers, end)
                    if any(concurrent_and_apart(d, e) for e in readers[lo:hi] if e != d):
                        out.append(d)
            return out

        reader_classes: dict[int, list[tuple[int, Concurrency]]] = {}  # write class -> (reader class, overlap)
        parts_of: dict[int, list[tuple[Sig, list[int]]]] = {}  # per class of writes alone in their file
        reported_of: dict[tuple[int, ...], list[int]] = {}
        for a in writes:
            ca = classes.cls[a]
            if ca not in reader_classes:
                reader_classes[ca] = []
                for cd in classes.meeting(ca, candidate_classes):
                    reps = classes.cross_file(ca, cd)
                    conc = reads(*reps) if reps is not None else None
                    if conc is not None:
                        reader_classes[ca].append((cd, conc))
            fs, fe = classes.file_start[a], classes.file_end[a]
            alone = fe - fs == 1  # then every member of a reader class reads it, as for its class
            if alone and ca in parts_of:
                found.fixed[a].extend(parts_of[ca])
                continue
            conc_of: dict[int, Concurrency] = {}
            for cd, conc in reader_classes[ca]:
                for d in members[cd]:
                    if alone or not fs <= d < fe:
                        conc_of[d] = conc
            # readers in the write's own file
            for d in candidates[bisect_left(candidates, fs) : bisect_left(candidates, fe)]:
                conc = reads(a, d)
                if conc is not None:
                    conc_of[d] = conc
            readers = tuple(sorted(conc_of))
            if readers not in reported_of:  # writes often share their readers
                reported_of[readers] = reported(list(readers))
            by_reason: dict[tuple[str, str], list[int]] = {}
            for d in reported_of[readers]:
                by_reason.setdefault((conc_of[d].reason, conc_of[d].basis), []).append(d)
            parts = [(verdict + why, others) for why, others in by_reason.items()]
            if alone:
                parts_of[ca] = parts
            found.fixed[a].extend(parts)


def _statement_site(intent: Intent) -> tuple[str, int, int]:
    """Where an intent's statement stands: the innermost site of a write reached
    through calls, else its own location."""
    at = intent.location.sites[-1] if intent.location.sites else intent.location
    return (at.path, at.line, at.column)
