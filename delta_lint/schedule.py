"""Which intents may run at the same time, and why.

Files belong to *nodes*: a task of a Databricks job (from a bundle or Jobs JSON
exports), a job of the configuration's `jobs:`, or — for files nobody schedules —
the file itself, which may run at any time. Two nodes overlap when:

* they are the same task and several runs of it can be active (`for_each_task`
  concurrency, `max_concurrent_runs`, `concurrent_runs`);
* they are tasks of one job with no path between them in the `depends_on` DAG
  (or the job allows concurrent runs);
* they are different jobs whose run windows can intersect: continuous jobs and
  jobs without a fixed schedule (manual, file arrival, table update, periodic,
  paused, development targets) overlap everything; two cron jobs overlap when a
  run of one (start + expected duration) can meet a run of the other;

unless an `exclusive` group holds both. Statements of one run execute in order —
except a streaming query, which keeps running for the rest of its file while its
`foreachBatch` body runs again and again.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from delta_lint.bundle import (
    WORKFLOWS_TYPES,
    FileTests,
    Job,
    Task,
    Workflows,
    bundle_label,
    bundle_targets,
    declares_bundle,
    for_each_notes,
    found_problem,
    listing,
    load_bundle,
    load_found_job_json,
    load_job_definitions,
    match_by_name,
    task_runs,
    wheel_modules,
)
from delta_lint.config import Config, ConfigError
from delta_lint.cron import (
    CronError,
    describe,
    fire_times,
    first_overlap,
    format_duration,
    horizon,
    parse_duration,
    shortest_reach,
)
from delta_lint.globs import matches_any
from delta_lint.model import Flag, Intent, Kind, Location, Pools
from delta_lint.safeio import read_input
from delta_lint.stats import RunStats


class Store(Protocol):
    """What the schedule keeps between runs (the cache's key-value part): the stage
    depends on this shape, not on the cache module, which sits above it. `holds`
    names the dataclasses a value is made of."""

    def get_value(self, key: str, holds: tuple[type, ...] = ()) -> Any: ...

    def put_value(self, key: str, value: Any, holds: tuple[type, ...] = ()) -> None: ...


DEFAULT_DURATION = timedelta(hours=1)
_UNKNOWN = object()  # not yet in a memo (None is a real answer: no overlap)
_PER_TASK = object()  # kept per pair of jobs: the answer differs by task (see `Schedule._task_pair`)


@dataclass(frozen=True)
class _NamesTaskOf:
    """Kept per pair of jobs: the answer names the task of `job` (see `Schedule._task_pair`)."""

    job: str


# What an overlap rests on (`Concurrency.basis`): a schedule delta-lint read shows
# the two runs meet (tasks of one DAG level, cron windows that meet, concurrent runs,
# a continuous or triggered job, a running stream, the configuration's `jobs:`), or
# it is only assumed because a side has no known schedule (a file no job runs, a
# job started by hand, a paused schedule, a cron that could not be evaluated).
SCHEDULE = "schedule"
ASSUMED = "assumed"
# assumed on two counts: a job's second run is one someone starts by hand, *and*
# only a default it did not choose allows it beside the first where a second doubt
# holds (`Job.runs_doubt`: a development deployment's runs, Airflow's unset
# `max_active_runs_per_dag`). A team that opts a job into concurrent runs itself
# states they meet: that job keeps its basis.
ASSUMED_TWICE = "assumed-twice"
CODE = "code"  # the code itself runs the two at once, in one run (a thread pool's calls)
# two runs that parameters keep apart meet only when they are given the same value: a
# second run started by hand, a repair run or a duplicate trigger beside one still
# running. The schedule shows runs meet, not that their values coincide, so a pair
# apart only while the values differ rests on that assumption (`info`, see
# `engine.messages.SEVERITY`).
SAME_VALUE = "same-value"
# two cron jobs whose runs never meet on the durations delta-lint assumes (no
# `duration:` entry says how long they run) but would if one ran up to twice as
# long: the overlap rests on a run lasting longer than assumed (`info`). Schedules
# farther apart stay apart.
LONGER_RUN = "longer-run"


@dataclass(frozen=True)
class Concurrency:
    reason: str
    distinct_runs: bool  # the two intents belong to different runs (their parameters differ)
    basis: str = SCHEDULE  # SCHEDULE | ASSUMED | ASSUMED_TWICE | CODE: what the overlap rests on
    # distinct runs of one job (or configured job) whose parameter values may still
    # coincide (`SAME_VALUE`); False where each run's own input differs by
    # construction (a for_each's iterations, a thread pool's items)
    values_may_repeat: bool = False
    # iterations of one for_each task: the parameters bound to its `{{input}}`, the only
    # ones that differ between them (every other parameter is the task's, shared)
    per_run_inputs: frozenset[str] | None = None
    # runs of one job whose parameters an orchestrator fills per run (`Task.run_values`):
    # those two overlapping runs always get different values of, and those they share
    run_unique: frozenset[str] = frozenset()
    run_shared: frozenset[str] = frozenset()


_ANYTIME_FILE = "a file that no job definition or configured job schedules can run at any time"
_BY_HAND = "a file that no job runs is run by hand (`unscheduled: by-hand`)"
_BY_HAND_AUTO = (
    "a file that none of the project's jobs runs is run by hand, not by a job"
    " (`unscheduled: anytime` pairs it with the jobs)"
)
LONE_FILES = Concurrency(
    "neither file is scheduled by a job definition or a configured job, so they may run at the same time",
    False,
    ASSUMED,
)


@dataclass(frozen=True)
class Node:
    """Where a file runs: (job, task); task None for a configured job or a lone file."""

    job: str
    task: str | None = None
    kind: str = "file"  # task | config | file

    def label(self) -> str:
        if self.kind == "task":
            return f"task `{self.task}` of job `{self.job}`"
        if self.kind == "config":
            return f"`{self.job}`"
        return f"job `{self.job}`"

    def key(self) -> str:
        return f"{self.job}.{self.task}" if self.task else self.job


@dataclass
class Schedule:
    nodes_of: dict[str, tuple[Node, ...]]  # display path -> nodes
    config_runs: dict[str, int] = field(default_factory=dict)  # configured job -> concurrent_runs
    exclusive: tuple[frozenset[str], ...] = ()
    workflows: Workflows = field(default_factory=Workflows)
    durations: dict[str, timedelta] = field(default_factory=dict)
    default_duration: timedelta = DEFAULT_DURATION
    # the configuration's `duration: {default: ...}` states every job's duration:
    # none is assumed then (see `duration_assumed`)
    default_stated: bool = False
    # `unscheduled: by-hand`: a file no job runs is run by hand (setup, exploration)
    # and is not paired with other files; `by_hand_why` says why it was chosen
    by_hand: bool = False
    by_hand_why: str = _BY_HAND
    _memo: dict = field(default_factory=dict, repr=False, compare=False)
    _path_memo: dict = field(default_factory=dict, repr=False, compare=False)
    _job_memo: dict = field(default_factory=dict, repr=False, compare=False)  # see _task_pair
    _named_memo: dict = field(default_factory=dict, repr=False, compare=False)  # see _task_pair
    _lone: dict = field(default_factory=dict, repr=False, compare=False)
    _lone_files: dict = field(default_factory=dict, repr=False, compare=False)
    _job_desc: dict = field(default_factory=dict, repr=False, compare=False)
    _pair_keys: dict = field(default_factory=dict, repr=False, compare=False)
    _pair_ids: dict = field(default_factory=dict, repr=False, compare=False)
    _schedule_of: dict = field(default_factory=dict, repr=False, compare=False)  # see _cron_schedule
    _schedule_ids: dict = field(default_factory=dict, repr=False, compare=False)
    _cron_ids: dict = field(default_factory=dict, repr=False, compare=False)  # see cron_id
    _path_kinds: dict = field(default_factory=dict, repr=False, compare=False)  # see _path_kind
    _schedules: list = field(default_factory=list, repr=False, compare=False)
    never_meet_memo: dict = field(default_factory=dict, repr=False, compare=False)  # see schedules_never_meet
    meetings: Meetings = field(default_factory=lambda: Meetings(), repr=False, compare=False)
    # a job with no schedule of its own that tasks of other jobs start (`run_job_task`,
    # Airflow's RunNow) -> those tasks: it runs inside them (see `_in_parents`)
    started_by: dict[str, tuple[Node, ...]] = field(default_factory=dict)
    _visiting: set = field(default_factory=set, repr=False, compare=False)
    # notebook -> every thread pool whose calls run it with `dbutils.notebook.run`
    # (`model.Pools`): notebooks a pool runs run at the same time as each other and,
    # run by several calls of it, as themselves (see `_run_by_one_pool`)
    pooled_runs: dict[str, Pools] = field(default_factory=dict)
    # display path -> (first line, last line, node) of the tasks that run only some
    # lines of the file (`Task.lines`: SQL tasks of an Airflow DAG file): a write
    # there runs in the tasks whose lines hold it (see `nodes`)
    line_nodes: dict[str, tuple[tuple[int, int, Node], ...]] = field(default_factory=dict)
    # display path -> node -> the values each of its runs gives the file's inputs (one
    # run per task, or per iteration of a for_each task with known inputs), for files
    # whose runs give different values: the file is read once per set of values, and a
    # write only some readings made (`Intent.given`) runs in the nodes giving one of them
    given_runs: dict[str, dict[Node, tuple[dict[str, str | None], ...]]] = field(default_factory=dict)
    # the paths whose writes may run in nodes of their own (`line_nodes`, `given_runs`)
    scoped: frozenset[str] = frozenset()
    _given_memo: dict = field(default_factory=dict, repr=False, compare=False)
    _file_steps: dict = field(default_factory=dict, repr=False, compare=False)  # see _in_one_file
    stats: RunStats = field(default_factory=RunStats, repr=False, compare=False)  # the run's, see stats.py

    def __post_init__(self) -> None:
        self.meetings.stats = self.stats
        # a pipeline's source file a job task runs too (a notebook switching on
        # `pipelines.id`): its datasets are written by the pipeline's updates, its
        # job code by the other tasks (see `nodes`)
        self.dual_mode = frozenset(
            path for path, nodes in self.nodes_of.items() if len({self._update_of(n) is not None for n in nodes}) == 2
        )
        self.scoped = frozenset(self.line_nodes) | frozenset(self.given_runs) | self.dual_mode

    def nodes(self, intent: Intent) -> tuple[Node, ...]:
        path = intent.location.path
        if path in self.line_nodes:
            return self._nodes_at(path, intent.location.line)
        found = self.nodes_of.get(path) or (Node(path),)
        if path in self.dual_mode:
            dataset = intent.subkind == "lakeflow"
            found = tuple(n for n in found if (self._update_of(n) is not None) == dataset)
        if intent.given and path in self.given_runs:
            return self._given_nodes(path, found, intent.given)
        return found

    def _given_nodes(
        self, path: str, nodes: tuple[Node, ...], given: tuple[tuple[tuple[str, str], ...], ...]
    ) -> tuple[Node, ...]:
        """The nodes of a file that make a write only some of its readings made: those
        with a run giving one of the readings' values, and those whose runs the
        schedule does not know (a caller's task running it as a child); all of them
        when none is left."""
        key = (path, given)
        found = self._given_memo.get(key)
        if found is None:
            runs = self.given_runs[path]
            kept = tuple(n for n in nodes if n not in runs or self._runs_giving(runs[n], given))
            found = self._given_memo[key] = kept or nodes
        return found

    @staticmethod
    def _runs_giving(runs: tuple[dict[str, str | None], ...], given: tuple[tuple[tuple[str, str], ...], ...]) -> list:
        """The indexes of the runs that give one of the sets of values in `given` (all
        of them for a write every reading made)."""
        if not given:
            return list(range(len(runs)))
        return [
            i
            for i, run in enumerate(runs)
            if any(all(run.get(k) is None or run.get(k) == v for k, v in values) for values in given)
        ]

    def _iterations_apart(self, node: Node, a: Intent, b: Intent) -> bool:
        """Whether the concurrent iterations of a for_each task with known inputs never
        make `a` in one and `b` in another: each is made by one and the same
        iteration (a table of its own per input), so they meet in no two runs of it."""
        runs = self.given_runs.get(a.location.path, {}).get(node)
        task = self._task(node)
        if runs is None or task is None or task.iterations is None or (task.for_each_concurrency or 1) < 2:
            return False
        made_a, made_b = self._runs_giving(runs, a.given), self._runs_giving(runs, b.given)
        return not any(i != j for i in made_a for j in made_b)

    def _runs_of_job(self, node: Node) -> Concurrency | None:
        """A task's runs that overlap, leaving out its for_each iterations: the job's
        concurrent runs."""
        job = self.workflows.jobs[node.job]
        if job.max_concurrent_runs > 1:
            task = job.tasks[node.task or ""]
            return self._concurrent_runs(job, bool(job.parameters) or bool(task.parameters), task, task)
        return None

    def _nodes_at(self, path: str, line: int) -> tuple[Node, ...]:
        """The nodes that run a line of a file some tasks run only lines of: those
        tasks whose lines hold it, else the file's nodes that run all of it (else the
        file alone: a DAG file's other code runs when Airflow parses it, in no task)."""
        spans = self.line_nodes[path]
        found = tuple(node for first, last, node in spans if first <= line <= last)
        if found:
            return found
        scoped = {node for _, _, node in spans}
        return tuple(n for n in self.nodes_of.get(path, ()) if n not in scoped) or (Node(path),)

    def scoped_by_lines(self, path: str) -> bool:
        """Whether the writes of a file may run in different tasks by their lines
        (`line_nodes`) or by the values that made them (`given_runs`): two of its
        writes then overlap as their own nodes do."""
        return path in self.scoped

    def intent_pair_key(self, intent: Intent) -> int:
        """`pair_key` of an intent's file, or of its own nodes in a file whose tasks run
        only some of its lines (`line_nodes`)."""
        path = intent.location.path
        if path not in self.scoped:
            return self.pair_key(path)
        if path not in self.line_nodes:  # its readings' values: its nodes, and its iterations
            mode = path in self.dual_mode and intent.subkind == "lakeflow"
            key = ("given", path, intent.given, self.pooled_runs.get(path), mode)
            return self._pair_ids.setdefault(key, len(self._pair_ids))
        key = ("lines", self.nodes(intent), self.pooled_runs.get(path))
        return self._pair_ids.setdefault(key, len(self._pair_ids))

    def job(self, intent: Intent) -> str:
        return self.nodes(intent)[0].job

    def same_table_every_run(self, intent: Intent) -> bool:
        """Whether an intent whose table name is known only as job inputs
        (`Intent.name_inputs`) writes one table in all the runs that can overlap it:
        its file is run by one for_each task alone, whose concurrent runs share the
        job's and the task's parameters and differ only in the ones the iteration's
        `{{input}}` feeds, none of which names the table; or the calls of every thread
        pool that runs it (`dbutils.notebook.run`) give each of those inputs one and
        the same known value, while other runs of it give another."""
        if not intent.name_inputs:
            return False
        if self._one_table_in_pool(intent.location.path, None, intent.name_inputs):
            return True
        nodes = self.nodes_of.get(intent.location.path) or ()
        task = self._task(nodes[0]) if len(nodes) == 1 else None
        if task is None or not task.for_each_concurrency or task.for_each_concurrency < 2:
            return False
        return not set(intent.name_inputs) & set(task.per_run_inputs)

    def _one_pipeline(self, a: Intent, b: Intent) -> bool:
        """Whether two pipeline datasets are written only by updates of one pipeline
        (the `pipeline_task`s that run it): a pipeline runs one update at a time (a
        second start fails while one is active), so they never meet."""
        pipelines = set()
        for node in self.nodes(a) + self.nodes(b):
            pipeline = self._update_of(node)
            if pipeline is None:
                return False
            pipelines.add(pipeline)
        return len(pipelines) == 1

    def _update_of(self, node: Node) -> str | None:
        """The pipeline a node runs an update of (a job's `pipeline_task`, or the job
        a pipeline no job starts is of its own), else None."""
        task = self._task(node)
        if task is None:
            return None
        return task.pipeline or (f"job {node.job}" if task.kind == "pipeline" else None)

    def names_differ_between_runs(self, intent: Intent) -> bool:
        """Whether the table name of an intent holds an input that the `{{input}}` of a
        for_each task running it feeds: each concurrent run writes a table of its own."""
        if not intent.name_inputs:
            return False
        for node in self.nodes_of.get(intent.location.path) or ():
            task = self._task(node)
            if task is not None and (task.for_each_concurrency or 1) > 1:
                if set(intent.name_inputs) & set(task.per_run_inputs):
                    return True
        return False

    def _task(self, node: Node) -> Task | None:
        if node.kind != "task":
            return None
        job = self.workflows.jobs.get(node.job)
        return job.tasks.get(node.task or "") if job is not None else None

    def overlap(self, a: Intent, b: Intent) -> Concurrency | None:
        """Can these two intents run at the same time? The first reason found.

        Intents of two different files get the answer of their files' nodes, the same
        in both orders, so it is kept per pair of paths (and the engine keeps it per
        pair of `pair_key`s)."""
        self.stats.schedule_questions += 1
        if a.subkind == b.subkind == "lakeflow" and self._one_pipeline(a, b):
            return None
        pa, pb = a.location.path, b.location.path
        if pa != pb:
            if pa > pb:  # the same answer in both orders, even for files of several tasks
                a, b, pa, pb = b, a, pb, pa
            kinds = self._path_kinds  # read inline: the engine asks this of every new pair of files
            (lone_a, ta), (lone_b, tb) = kinds.get(pa) or self._path_kind(pa), kinds.get(pb) or self._path_kind(pb)
            if lone_a and lone_b:
                pooled = self._run_by_one_pool(pa, pb, a.name_inputs + b.name_inputs)
                return pooled or (None if self.by_hand else LONE_FILES)
            if ta is not None and tb is not None and ta.job != tb.job:
                found = self._job_memo.get((ta.job, tb.job), _UNKNOWN)
                if found is None or type(found) is Concurrency:
                    return found  # type: ignore[return-value]
                return self._task_pair(ta, tb)
            memo = self._path_memo
            # notebooks a pool's calls run meet apart for names built of their inputs
            key = (pa, pb, a.name_inputs + b.name_inputs) if self.pooled_runs else (pa, pb)
            if self.scoped and (pa in self.scoped or pb in self.scoped):
                key = (*key, self.nodes(a), self.nodes(b))  # its writes run in their own tasks
            found = memo.get(key, _UNKNOWN)
            if found is _UNKNOWN:
                found = memo[key] = self._intents_overlap(a, b)
            return found  # type: ignore[return-value]
        if pa not in self.scoped:
            return self._in_one_file(pa, a, b)
        return self._intents_overlap(a, b)

    def _in_one_file(self, path: str, a: Intent, b: Intent) -> Concurrency | None:
        """`_intents_overlap` of two intents of a file whose writes all run in all its
        nodes (not `scoped`): what its nodes answer is the same for every pair of its
        intents, so what each pair of nodes answered is kept per file, in the order
        `_intents_overlap` asks them and as lazily (a file that 3,000 tasks run is
        asked of the pairs of nodes up to the first that overlaps, not of all nine
        million); only what the two intents themselves decide (a stream, a thread
        pool) is read per pair. The engine asks this of every pair of intents of one
        file that may conflict (61,351 pairs on the 10,000-file corpus)."""
        known = self._file_steps.get(path)
        if known is None:
            known = self._file_steps[path] = (self.nodes_of.get(path) or (Node(path),), [])
        nodes, steps = known
        count = len(nodes)
        if count == 1 and steps:  # most files: one node, asked before
            found = steps[0][0]
            if found is not None:
                return found
            return (
                _stream_overlap(a, b)
                or pool_overlap(a, b)
                or self._run_by_one_pool(path, path, a.name_inputs + b.name_inputs)
            )
        # what the two intents decide themselves (a stream, a thread pool) is the same at
        # every pair of a node with itself: asked at the first such pair only
        asked_own = False
        for k in range(count * count):
            if k < len(steps):
                found, same = steps[k]
            else:
                na, nb = nodes[k // count], nodes[k % count]
                # a for_each's iterations are told apart only for a file with `given_runs`,
                # which `scoped` holds: here a pair of nodes answers alone
                found, same = self.node_overlap(na, nb)[0], na == nb
                steps.append((found, same))
            if found is not None:
                return found
            if same and not asked_own:  # one file in one run: see `_intents_overlap`
                asked_own = True
                found = (
                    _stream_overlap(a, b)
                    or pool_overlap(a, b)
                    or self._run_by_one_pool(path, path, a.name_inputs + b.name_inputs)
                )
                if found is not None:
                    return found
        return None if asked_own else self._run_by_one_pool(path, path, a.name_inputs + b.name_inputs)

    def _intents_overlap(self, a: Intent, b: Intent) -> Concurrency | None:
        nodes_a, nodes_b = self.nodes(a), self.nodes(b)
        if len(nodes_a) == 1 and len(nodes_b) == 1 and not self.exclusive:
            na, nb = nodes_a[0], nodes_b[0]
            if na.kind == "task" and nb.kind == "task" and na.job != nb.job:
                return self._task_pair(na, nb)
        for na in nodes_a:
            for nb in nodes_b:
                if na == nb and a.location.path == b.location.path:
                    # one file in one run: in order, unless several runs overlap, a stream
                    # runs on or a thread pool runs calls at once (a write too, with itself)
                    if self._iterations_apart(na, a, b):  # a for_each's iterations, each its own table
                        found = self._runs_of_job(na)
                    else:
                        found = self.node_overlap(na, nb)[0]
                    if found is not None:
                        return found
                    found = (
                        _stream_overlap(a, b)
                        or pool_overlap(a, b)
                        or self._run_by_one_pool(a.location.path, a.location.path, a.name_inputs + b.name_inputs)
                    )
                    if found is not None:
                        return found
                    continue
                found = self.node_overlap(na, nb)[0]
                if found is not None:
                    return found
        return self._run_by_one_pool(a.location.path, b.location.path, a.name_inputs + b.name_inputs)

    def _run_by_one_pool(self, pa: str, pb: str, inputs: tuple[str, ...] = ()) -> Concurrency | None:
        """Two notebooks (or one with itself) that calls of one thread pool run with
        `dbutils.notebook.run`: they run at the same time unless, in every pool that
        runs both, one known call runs both, one after the other. A write whose table
        is named by the notebook's `inputs` meets the pool's other calls only when
        each names one table in every call (`_one_table_in_pool`): each call gives its
        own arguments, so such a name may be a table of its own in each call (as a
        for_each task's `{{input}}`)."""
        runs_a = self.pooled_runs.get(pa)
        if not runs_a:  # most files: no pool runs them
            return None
        b = {pool: calls for pool, calls, *_ in self.pooled_runs.get(pb, ())}
        for pool, calls, *_ in runs_a:
            other = b.get(pool)
            if other is None or (calls == other and len(calls) == 1 and calls[0]):
                continue  # not run by this pool, or one known call of it runs them both, in order
            if inputs and not (pa == pb and self._one_table_in_pool(pa, pool, inputs)):
                continue  # a table of its own in each call, or only a run knows
            return Concurrency(
                f"run by the calls of the thread pool at {pool} (`dbutils.notebook.run`), which run at the same time",
                True,
                CODE,
            )
        return None

    def _one_table_in_pool(self, path: str, pool: str | None, inputs: tuple[str, ...]) -> bool:
        """Whether a table named by a notebook's `inputs` is one table in all the calls
        of a thread pool that run it (of every pool that runs it, `pool` None): each
        call gives each of those inputs one and the same known value."""
        found = [given for at, _, given, _ in self.pooled_runs.get(path, ()) if pool is None or at == pool]
        return bool(found) and all(set(inputs) <= {name for name, _ in given} for given in found)

    def pair_key(self, path: str) -> int:
        """What decides how a file overlaps any *other* file, as a number: files with
        equal keys overlap every other file alike (`overlap` of two paths depends only
        on their nodes, and all files that no job schedules meet others alike)."""
        found = self._pair_keys.get(path)
        if found is None:
            key = "lone" if self._lone_file(path) else self.nodes_of.get(path) or (Node(path),)
            if path in self.pooled_runs:  # it meets the other notebooks of its pool apart
                key = (key, self.pooled_runs[path])
            found = self._pair_keys[path] = self._pair_ids.setdefault(key, len(self._pair_ids))
        return found

    def _path_kind(self, path: str) -> tuple[bool, Node | None]:
        """(`_lone_file`, `_lone_task`) of a path, kept together for the run."""
        found = self._path_kinds.get(path)
        if found is None:
            found = self._path_kinds[path] = (self._lone_file(path), self._lone_task(path))
        return found

    def _lone_file(self, path: str) -> bool:
        """True for a file no job schedules (its own node, which no `exclusive` group
        and no configured job's `concurrent_runs` can name): two such files always
        overlap, for the same reason, and no such file overlaps itself."""
        found = self._lone_files.get(path)
        if found is None:
            nodes = self.nodes_of.get(path)
            found = self._lone_files[path] = (
                (not nodes or (len(nodes) == 1 and nodes[0].kind == "file"))
                and not any(path in g for g in self.exclusive)
                and path not in self.config_runs
            )
        return found

    def _lone_task(self, path: str) -> Node | None:
        """The file's task when it is the only node of the file and no `exclusive`
        group exists: then two files of different jobs overlap exactly as their jobs do.
        Not for a file that task runs only lines of (`line_nodes`): its other lines run
        in no task."""
        found = self._lone.get(path, _UNKNOWN)
        if found is _UNKNOWN:
            nodes = self.nodes_of.get(path) or ()
            found = (
                nodes[0]
                if len(nodes) == 1 and nodes[0].kind == "task" and not self.exclusive and path not in self.line_nodes
                else None
            )
            self._lone[path] = found
        return found  # type: ignore[return-value]

    def _task_pair(self, na: Node, nb: Node) -> Concurrency | None:
        """`node_overlap(na, nb)[0]` for tasks of two different jobs, without writing
        the why-not text nobody reads here: a large workload asks this for hundreds
        of thousands of pairs of jobs. What decides it is kept per pair of jobs
        (`_jobs_pair`): the answer itself when it holds for every pair of their
        tasks (none, or cron windows that meet, which name only the jobs); a job that
        runs at any time "can overlap task `k` of job `j`", kept per task it names;
        a job that other jobs' tasks start, asked of the two nodes."""
        found = self._job_memo.get((na.job, nb.job), _UNKNOWN)
        if found is _UNKNOWN:
            found = self._job_memo[(na.job, nb.job)] = self._jobs_pair(na.job, nb.job)
        if found is _PER_TASK:
            return self.node_overlap(na, nb)[0]
        if type(found) is _NamesTaskOf:
            named = na if na.job == found.job else nb
            key = (na.job, nb.job, named.task)
            answer = self._named_memo.get(key, _UNKNOWN)
            if answer is _UNKNOWN:
                first, second = (na, nb) if na.key() <= nb.key() else (nb, na)
                answer = self._named_memo[key] = self._different_jobs(first, second)[0]
            return answer  # type: ignore[return-value]
        return found  # type: ignore[return-value]

    def _jobs_pair(self, job_a: str, job_b: str) -> Concurrency | None | object:
        """How tasks of two different jobs overlap when that is the same for all of
        them, else what it depends on (see `_task_pair`)."""
        if job_a in self.started_by or job_b in self.started_by:
            return _PER_TASK
        if self._windows_never_meet(job_a, job_b):
            return None  # most pairs of cron jobs, asked cheaply
        # in the order `node_overlap` takes their tasks (by `Node.key`, "job.task")
        first, second = (job_a, job_b) if f"{job_a}." <= f"{job_b}." else (job_b, job_a)
        ja, jb = self.workflows.jobs[first], self.workflows.jobs[second]
        if _job_runs_anytime(ja):  # `_different_jobs`: the first that runs at any time names the other
            return _NamesTaskOf(second)
        if _job_runs_anytime(jb):
            return _NamesTaskOf(first)
        assert ja.cron is not None and jb.cron is not None
        (da, _), (db, _) = self._cron_job(ja), self._cron_job(jb)
        if self.meetings.meet(ja.cron, da, jb.cron, db)[0] == "never" and not self.meetings.near(
            ja.cron, da, self.duration_assumed(ja), jb.cron, db, self.duration_assumed(jb)
        ):
            return None
        return self._cron_overlap(ja, jb)[0]

    def _windows_never_meet(self, job_a: str, job_b: str) -> bool:
        """True when both jobs run on cron schedules whose runs never meet. Decided per
        pair of schedules (cron and duration), which many jobs share: a large bundle
        has hundreds of thousands of pairs of jobs that write one table."""
        return self.schedules_never_meet(self._cron_schedule(job_a), self._cron_schedule(job_b))

    def cron_id(self, path: str) -> int | None:
        """The number of the (cron, duration) of the file's job when the file is its
        only node, a task of a job that runs on a cron schedule only: two such files
        of different jobs whose schedules never meet never overlap (`overlap` answers
        None for them through `_task_pair`). None otherwise."""
        found = self._cron_ids.get(path, _UNKNOWN)
        if found is _UNKNOWN:  # asked for every class of every table: kept per path
            task = self._lone_task(path)
            found = self._cron_ids[path] = self._cron_schedule(task.job) if task is not None else None
        return found  # type: ignore[return-value]

    def schedules_never_meet(self, a: int | None, b: int | None) -> bool:
        """True when runs of the numbered schedules a and b (see `cron_id`) never meet;
        kept in `never_meet_memo[a][b]` (and `[b][a]`), which the engine reads inline."""
        if a is None or b is None:
            return False
        known = self.never_meet_memo.get(a)
        found = known.get(b) if known is not None else None
        if found is None:
            lo, hi = (a, b) if a <= b else (b, a)
            (ca, da, sa), (cb, db, sb) = self._schedules[lo], self._schedules[hi]
            found = self.meetings.meet(ca, da, cb, db)[0] == "never" and not self.meetings.near(ca, da, sa, cb, db, sb)
            self.never_meet_memo.setdefault(a, {})[b] = self.never_meet_memo.setdefault(b, {})[a] = found
        return found

    def _cron_schedule(self, job_key: str) -> int | None:
        """A number for the job's (cron, duration), or None when it can run at any time."""
        found = self._schedule_of.get(job_key, _UNKNOWN)
        if found is _UNKNOWN:
            job = self.workflows.jobs[job_key]
            if job.cron is None or _job_runs_anytime(job):
                found = None
            else:
                # not `_cron_job`: its description costs fire times
                schedule = (job.cron, self.duration(job), self.duration_assumed(job))
                found = self._schedule_ids.get(schedule)
                if found is None:
                    found = self._schedule_ids[schedule] = len(self._schedules)
                    self._schedules.append(schedule)
            self._schedule_of[job_key] = found
        return found  # type: ignore[return-value]

    # -- nodes ------------------------------------------------------------------------------

    def node_overlap(self, a: Node, b: Node) -> tuple[Concurrency | None, str]:
        """(overlap, why not) for two nodes; cached since every intent pair asks."""
        found = self._memo.get((a, b))
        if found is None:
            first, second = (a, b) if a.key() <= b.key() else (b, a)
            found = self._node_overlap(first, second)
            self._memo[(a, b)] = self._memo[(b, a)] = found
        return found

    def _node_overlap(self, a: Node, b: Node) -> tuple[Concurrency | None, str]:
        if a.job != b.job and any(a.job in g and b.job in g for g in self.exclusive):
            return None, f"an `exclusive` group holds `{a.job}` and `{b.job}`"
        if a.job == b.job:
            return self._same_job(a, b)
        if a.kind == "file" or b.kind == "file":
            if self.by_hand:
                return None, f"{self.by_hand_why}; it is not paired with other files"
            if a.kind == b.kind:
                return LONE_FILES, ""
            # said of the file, never naming it: every unscheduled file meets `other` alike
            other = b if a.kind == "file" else a
            return Concurrency(f"{_ANYTIME_FILE}, so it can overlap {other.label()}", False, ASSUMED), ""
        if a.kind != "task" and b.kind != "task":
            return (
                Concurrency(
                    f"{a.label()} and {b.label()} may run at the same time (no `exclusive` group holds both)",
                    False,
                ),
                "",
            )
        started = self._in_parents(a, b) if self.started_by else None
        return started if started is not None else self._different_jobs(a, b)

    def _in_parents(self, a: Node, b: Node) -> tuple[Concurrency | None, str] | None:
        """A task of a job that only other jobs' tasks start overlaps what those tasks
        overlap: it runs while they do, after what they wait for. None when neither
        node's job is such a job."""
        for node, other in ((a, b), (b, a)):
            parents = self.started_by.get(node.job) if node.kind == "task" else None
            if not parents or node.job in self._visiting:
                continue
            self._visiting.add(node.job)
            try:
                why_not = []
                for parent in parents:
                    found, why = self.node_overlap(parent, other)
                    if found is not None:
                        reason = f"job `{node.job}` runs in {parent.label()}, and {found.reason}"
                        return replace(found, reason=reason), ""
                    why_not.append(f"job `{node.job}` runs in {parent.label()}: {why}")
                return None, "; ".join(why_not)
            finally:
                self._visiting.discard(node.job)
        return None

    def _same_job(self, a: Node, b: Node) -> tuple[Concurrency | None, str]:
        if a.kind != "task":
            runs = self.config_runs.get(a.job, 1)
            if runs > 1:
                reason = f"{a.label()} has concurrent_runs: {runs}, so two of its runs overlap"
                return Concurrency(reason, True, values_may_repeat=True), ""
            return None, f"{a.label()} runs one at a time"
        job = self.workflows.jobs[a.job]
        params = bool(job.parameters)
        if a == b:
            task = job.tasks[a.task]
            if task.for_each_concurrency and task.for_each_concurrency > 1:
                return (
                    Concurrency(
                        f"{task.for_each_concurrency} concurrent runs of for_each task `{task.key}` of job `{job.key}` "
                        "overlap (each with its own input)",
                        True,
                        per_run_inputs=frozenset(task.per_run_inputs),
                    ),
                    "",
                )
            if job.max_concurrent_runs > 1:
                return self._concurrent_runs(job, params or bool(task.parameters), task, task), ""
            return None, f"{a.label()}: one run at a time (max_concurrent_runs: 1)"
        order = _ordered(job, a.task, b.task) or _ordered(job, b.task, a.task)
        if order is None:
            return (
                Concurrency(
                    f"tasks `{a.task}` and `{b.task}` of job `{job.key}` have no dependency between them", False
                ),
                "",
            )
        if job.max_concurrent_runs > 1:
            return self._concurrent_runs(job, params, job.tasks[a.task or ""], job.tasks[b.task or ""]), ""
        return None, f"{order} in job `{job.key}` (depends_on), one run at a time"

    def _concurrent_runs(self, job: Job, distinct: bool, a: Task | None = None, b: Task | None = None) -> Concurrency:
        what = "with different parameters" if distinct else "with the same parameters"
        reason = f"job `{job.key}` allows {job.max_concurrent_runs} concurrent runs ({what})"
        unique, shared, said = _run_values(a, b)
        if said:
            reason += f"; {said}"
        runs = {"run_unique": unique, "run_shared": shared}
        if not job.runs_by_default:  # the job's own setting: the team states its runs meet
            return Concurrency(reason, distinct, values_may_repeat=distinct, **runs)
        reason += f", a default of {job.runs_by_default} (a second run is started by hand"
        if job.runs_doubt and _started_by_hand(job):
            reason = f"{reason}, and {job.runs_doubt}: two doubts)"
            return Concurrency(reason, distinct, ASSUMED_TWICE, values_may_repeat=distinct, **runs)
        return Concurrency(reason + ")", distinct, ASSUMED, values_may_repeat=distinct, **runs)

    def _different_jobs(self, a: Node, b: Node) -> tuple[Concurrency | None, str]:
        ja = self.workflows.jobs.get(a.job) if a.kind == "task" else None
        jb = self.workflows.jobs.get(b.job) if b.kind == "task" else None
        for node, job in ((a, ja), (b, jb)):
            anytime = self._runs_anytime(node, job)
            if anytime:
                other = b if node is a else a
                # a job only started by hand (on either side) meets others by assumption
                basis = ASSUMED if _started_by_hand(ja) or _started_by_hand(jb) else SCHEDULE
                return Concurrency(f"{anytime}, so it can overlap {other.label()}", False, basis), ""
        assert ja is not None and jb is not None and ja.cron and jb.cron
        return self._cron_overlap(ja, jb)

    def _runs_anytime(self, node: Node, job: Job | None) -> str | None:
        """Why a node can run at any time, or None when it has a fixed schedule."""
        if job is None:  # a configured job (lone files never get here: see _node_overlap)
            return f"{node.label()} has no schedule in delta-lint's view (configured job)"
        return _job_runs_anytime(job)

    def duration(self, job: Job) -> timedelta:
        return self.durations.get(job.key) or self.durations.get(job.name) or self.default_duration

    def duration_assumed(self, job: Job) -> bool:
        """Whether how long the job's runs last is delta-lint's assumption, not the
        configuration's statement."""
        return not (self.default_stated or job.key in self.durations or job.name in self.durations)

    def _cron_job(self, job: Job) -> tuple[timedelta, str]:
        """A cron job's expected duration and its description, once per job (every
        pair of jobs that write one table needs them)."""
        found = self._job_desc.get(job.key)
        if found is None:
            duration = self.duration(job)
            assert job.cron is not None
            described = self.meetings.describe(job.cron)
            found = self._job_desc[job.key] = (duration, f"{described} for ~{format_duration(duration)}")
        return found

    def _cron_overlap(self, ja: Job, jb: Job) -> tuple[Concurrency | None, str]:
        """Per pair of jobs (their tasks share the answer)."""
        memo_key = ("cron", ja.key, jb.key)
        if memo_key not in self._memo:
            self._memo[memo_key] = self._cron_overlap_uncached(ja, jb)
        return self._memo[memo_key]

    def _cron_overlap_uncached(self, ja: Job, jb: Job) -> tuple[Concurrency | None, str]:
        (da, desc_a), (db, desc_b) = self._cron_job(ja), self._cron_job(jb)
        outcome, when = self.meetings.meet(ja.cron, da, jb.cron, db)
        desc = f"`{ja.key}` runs {desc_a} and `{jb.key}` {desc_b}"
        if outcome == "never":
            sa, sb = self.duration_assumed(ja), self.duration_assumed(jb)
            if self.meetings.near(ja.cron, da, sa, jb.cron, db, sb):
                reach = _longer_run((ja.key, ja.cron, da, sa), (jb.key, jb.cron, db, sb), self.meetings)
                return (
                    Concurrency(
                        f"{desc}: their runs never meet on the assumed durations, but {reach} (no `duration:` "
                        "entry says how long they run)",
                        False,
                        LONGER_RUN,
                    ),
                    "",
                )
            return None, f"{desc}: their runs never meet"
        if outcome == "meet":
            return Concurrency(f"{desc}: their runs can overlap (e.g. {when})", False), ""
        return Concurrency(f"{desc}: {outcome}; assuming they overlap", False, ASSUMED), ""

    # -- the graph -----------------------------------------------------------------------------

    def all_nodes(self) -> list[Node]:
        return sorted({n for nodes in self.nodes_of.values() for n in nodes}, key=Node.key)

    def graph(self) -> list[tuple[Node, Node, Concurrency | None, str]]:
        nodes = self.all_nodes()
        out = []
        for i, a in enumerate(nodes):
            for b in nodes[i:]:
                conc, why_not = self.node_overlap(a, b)
                out.append((a, b, conc, why_not))
        return out


_UNREADABLE_SCHEDULE = "a schedule delta-lint cannot"


def _run_values(a: Task | None, b: Task | None) -> tuple[frozenset[str], frozenset[str], str]:
    """The parameters an orchestrator fills per run that one run of task `a` and
    another of task `b` both read, each filled alike in both: those whose values two
    overlapping runs never share, those they share, and what the shared ones are.
    A parameter the two tasks fill differently is neither."""
    if a is None or b is None or not (a.run_values and b.run_values):
        return frozenset(), frozenset(), ""
    theirs = {name: (apart, what) for name, apart, what in b.run_values}
    unique: set[str] = set()
    shared: dict[str, str] = {}
    for name, apart, what in a.run_values:
        if theirs.get(name) != (apart, what):
            continue
        if apart:
            unique.add(name)
        else:
            shared[name] = what
    said = "; ".join(f"`{n}` is {w}" for n, w in sorted(shared.items()))
    return frozenset(unique), frozenset(shared), said


def _started_by_hand(job: Job | None) -> bool:
    """Whether a bundle or Jobs JSON job runs only when someone starts it (no
    schedule, or a paused one): when it runs is not known, so its overlap with
    another run is assumed. A continuous job runs all the time and a trigger (file
    arrival, table update, periodic) starts it whenever it fires: their overlap is
    shown by the definition (not so for a schedule that could not be
    evaluated). A configured job (None here) is the user's statement
    that it may run with any job no `exclusive` group separates it from."""
    if job is None or job.continuous:
        return False
    # the readers describe a schedule they could not evaluate (a bad cron, an Airflow
    # timetable) as a trigger "a schedule delta-lint cannot ...": when it fires is unknown
    unreadable = bool(job.trigger) and job.trigger.startswith(_UNREADABLE_SCHEDULE)
    return bool(job.paused or unreadable or (job.cron is None and not job.trigger))


def _job_runs_anytime(job: Job) -> str | None:
    """Why a bundle or Jobs JSON job can run at any time, or None when it has a fixed schedule."""
    if job.continuous:
        return f"job `{job.key}` runs continuously"
    if job.note and job.paused:
        return f"job `{job.key}`: {job.note}; it runs when started by hand"
    if job.paused:
        return f"job `{job.key}` has a paused schedule and runs when started by hand"
    if job.trigger:
        return f"job `{job.key}` has {job.trigger} and can start at any time"
    if job.cron is None:
        return f"job `{job.key}` has no schedule (manual or API runs)"
    return None


@dataclass
class Meetings:
    """Whether runs of two cron schedules meet, per (cron, duration, cron, duration):
    many jobs share a few schedules, and the answer depends on nothing else, so a run
    with a cache starts with those of earlier runs (`remember`): an incremental run
    re-judges only the changed tables and need not work out fire times again.
    Each schedule's description (`cron.describe`, which takes its fire times over
    weeks) is kept the same way (`described`)."""

    known: dict[tuple, tuple[str, str]] = field(default_factory=dict)
    new: dict[tuple, tuple[str, str]] = field(default_factory=dict)  # worked out in this process
    stats: RunStats = field(default_factory=RunStats, repr=False, compare=False)  # its schedule's
    described: dict[tuple[str, str | None], str] = field(default_factory=dict)
    reaches: dict[tuple, tuple[timedelta, datetime, int] | None] = field(default_factory=dict)  # see `reach`

    def describe(self, cron: tuple[str, str | None]) -> str:
        """`cron.describe` of (expression, time zone), as known or worked out now."""
        found = self.described.get(cron)
        if found is None:
            self.stats.crons_described += 1
            found = self.described[cron] = describe(*cron)
        return found

    def meet(
        self, a: tuple[str, str | None], da: timedelta, b: tuple[str, str | None], db: timedelta
    ) -> tuple[str, str]:
        """("meet", when) | ("never", "") | (why it could not be decided, "")."""
        key = (a, da, b, db)
        found = self.known.get(key)
        if found is None:
            self.stats.windows_compared += 1
            found = self.known[key] = self.new[key] = _windows_meet(a, da, b, db)
        return found

    def near(
        self, a: tuple[str, str | None], da: timedelta, sa: bool, b: tuple[str, str | None], db: timedelta, sb: bool
    ) -> bool:
        """Whether runs that never meet on their durations would if those assumed
        (`sa`, `sb`) were up to twice as long: they miss each other by at most the
        assumed run length (a run window is half-open, so a second more takes in a
        later run starting exactly at twice the duration)."""
        if not (sa or sb):
            return False
        return self.meet(a, _stretched(da) if sa else da, b, _stretched(db) if sb else db)[0] == "meet"

    def reach(
        self, a: tuple[tuple[str, str | None], timedelta, bool], b: tuple[tuple[str, str | None], timedelta, bool]
    ) -> tuple[timedelta, datetime, int] | None:
        """The closest a run that may last longer comes to a run of the other
        schedule (see `_longer_run`), per pair of (cron, duration, assumed)."""
        key = (a, b)
        if key not in self.reaches:
            self.reaches[key] = _reach(a, b)
        return self.reaches[key]

    def remember(self, rows: object) -> None:
        """Take in answers stored by an earlier run (`rows` rows); rows of any other
        shape are ignored, as a damaged cache entry must not stop a run."""
        if not isinstance(rows, list):
            return
        for row in rows:
            if not (isinstance(row, list) and len(row) == 8):
                continue
            qa, za, sa, qb, zb, sb, outcome, when = row
            texts, zones, seconds = (qa, qb, outcome, when), (za, zb), (sa, sb)
            if not (
                all(isinstance(v, str) for v in texts)
                and all(v is None or isinstance(v, str) for v in zones)
                and all(type(v) is int for v in seconds)
            ):
                continue
            key = ((qa, za), timedelta(seconds=sa), (qb, zb), timedelta(seconds=sb))
            self.known.setdefault(key, (outcome, when))

    def mark(self) -> int:
        """Where `new_rows` starts for the answers worked out from now on."""
        return len(self.new)

    def new_rows(self, since: int = 0) -> list[list]:
        """Answers worked out in this process (from the `since`-th on), as rows to store."""
        return _meeting_rows(list(self.new.items())[since:])

    def rows(self) -> list[list]:
        """Every answer known (worked out, or taken in), as rows to store."""
        return _meeting_rows(self.known.items())


def _meeting_rows(items) -> list[list]:
    return [
        [a[0], a[1], int(da.total_seconds()), b[0], b[1], int(db.total_seconds()), *answer]
        for (a, da, b, db), answer in items
        if not (da.microseconds or db.microseconds)  # whole seconds only: the row keeps no more
    ]


def _windows_meet(
    a: tuple[str, str | None], da: timedelta, b: tuple[str, str | None], db: timedelta
) -> tuple[str, str]:
    start, end = horizon(max(da, db))
    try:
        ta = fire_times(a[0], a[1], start, end)
        tb = fire_times(b[0], b[1], start, end)
    except CronError as err:
        return f"cannot evaluate a schedule ({err})", ""
    if ta is None or tb is None:
        return "one of them runs almost all the time", ""
    if not ta or not tb:
        return "a schedule never fires in a year", ""
    hit = first_overlap(ta, da, tb, db)
    if hit is None:
        return "never", ""
    return "meet", f"{max(hit[0].start, hit[1].start):%Y-%m-%d %H:%M} UTC"


def _stretched(duration: timedelta) -> timedelta:
    """The longest an assumed run is taken to last for `Meetings.near`."""
    return duration * 2 + timedelta(seconds=1)


def _longer_run(
    a: tuple[str, tuple[str, str | None], timedelta, bool],
    b: tuple[str, tuple[str, str | None], timedelta, bool],
    meetings: Meetings,
) -> str:
    """How two cron jobs that never meet on assumed durations would: the run of a job
    whose duration is assumed that comes closest to a later run of the other, and
    how long it must last ("they meet if the 00:30 UTC run of `etl` lasts over 1 h
    30 min"); worked out once per pair of schedules (`Meetings.reach`)."""
    found = meetings.reach(a[1:], b[1:])
    if found is None:
        return "they would meet if a run lasted up to twice as long"
    gap, at, side = found
    key = (a, b)[side][0]
    return f"they meet if the {at:%H:%M} UTC run of `{key}` (e.g. on {at:%Y-%m-%d}) lasts over {format_duration(gap)}"


def _reach(
    a: tuple[tuple[str, str | None], timedelta, bool], b: tuple[tuple[str, str | None], timedelta, bool]
) -> tuple[timedelta, datetime, int] | None:
    """(gap, the run's start, 0 for a run of `a` or 1 for one of `b`) of `_longer_run`;
    None when no run that may last longer comes within twice its assumed length."""
    longest = _stretched(max(a[1], b[1]))
    start, end = horizon(longest)
    try:
        times = [fire_times(cron[0], cron[1], start, end) or () for cron, _, _ in (a, b)]
    except CronError:
        return None
    best: tuple[timedelta, datetime, int] | None = None
    for side, ((_, duration, assumed), other) in enumerate(((a, 1), (b, 0))):
        reach = shortest_reach(times[side], times[other]) if assumed else None
        if reach is not None and reach[1] < _stretched(duration) and (best is None or reach[1] < best[0]):
            best = (reach[1], reach[0], side)
    return best


def _ordered(job: Job, first: str, then: str) -> str | None:
    """`first` runs before `then` when `then` depends on it, directly or not."""
    seen = set()
    stack = [then]
    while stack:
        key = stack.pop()
        task = job.tasks.get(key)
        for dep in task.depends_on if task else ():
            if dep == first:
                return f"`{first}` runs before `{then}`"
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return None


def stream_start(intent: Intent) -> Location | None:
    """Where the streaming query an intent belongs to starts, if any (none for a
    query the code awaits: what follows runs once it has stopped)."""
    if Flag.AWAITED in intent.flags:
        return None
    if intent.stream is not None:
        return intent.stream
    if intent.kind == Kind.STREAMING_READ:
        return intent.location
    return None


def _stream_overlap(a: Intent, b: Intent) -> Concurrency | None:
    if a is b:  # a write and another run of itself: one query's step (see below), asked of every class
        return None
    for s, other in ((a, b), (b, a)):
        start = stream_start(s)
        if start is None or other.location.path != start.path:
            continue
        if stream_start(other) == start:
            continue  # one query's own steps run one micro-batch at a time
        if other.location > start:
            what = (
                "its foreachBatch body runs for every micro-batch"
                if s.stream and s.location != start
                else "it keeps running"
            )
            return Concurrency(
                f"the streaming query started at {start} keeps running ({what}) while {other.location} runs", False
            )
    return None


def pool_overlap(a: Intent, b: Intent) -> Concurrency | None:
    """Two writes of one file that calls of one thread pool make (`Intent.pool`) run
    at the same time, unless both were read for one known item (the same call, in
    order); a write read for any item (`pool_item` None) runs in every call, so it
    meets itself too. The items differ between the calls: distinct runs."""
    pool = a.pool
    if pool is None or pool != b.pool:
        return None
    if a.pool_item is not None and (a is b or a.pool_item == b.pool_item):
        return None
    return Concurrency(
        f"written from a thread pool at {pool}: its calls, one per item, run at the same time", True, CODE
    )


def load_workflows(
    config: Config, bundle: Path | None = None, target: str | None = None, store: Store | None = None
) -> Workflows:
    """Jobs from the bundle (explicit, configured, or databricks.yml at the root) and
    from the Jobs JSON folder; with a cache, the last result while no file it read and
    no directory listing it depends on changed (parsing a large bundle costs more than
    a warm run may)."""
    found = cached_workflows(config, bundle, target, store) if store is not None else None
    if found is not None:
        return found
    workflows = _load_workflows(config, bundle, target)
    if store is not None:
        files = [str(p) for p in workflows.files]
        digests = {p: _digest(Path(p)) for p in files}
        store.put_value(
            _workflows_key(config, bundle, target),
            {"workflows": replace(workflows, files=[]), "files": files, "digests": digests},
            WORKFLOWS_TYPES,
        )
    return workflows


def cached_workflows(
    config: Config, bundle: Path | None, target: str | None, store: Store, tests: FileTests | None = None
) -> Workflows | None:
    """The cached workflows while still valid, else None (they must be parsed).
    `tests`: the run's `bundle.FileTests`, which spare reading files to ask the
    listings again."""
    cached = store.get_value(_workflows_key(config, bundle, target), WORKFLOWS_TYPES)
    if not (isinstance(cached, dict) and _still_valid(cached, tests)):
        return None
    workflows = cached["workflows"]
    workflows.files = [Path(p) for p in cached["files"]]
    return workflows


def _workflows_key(config: Config, bundle: Path | None, target: str | None) -> str:
    return "workflows:" + hashlib.blake2b(repr((config, bundle, target)).encode(), digest_size=20).hexdigest()


def _digest(path: Path) -> str:
    try:
        return hashlib.blake2b(read_input(path), digest_size=20).hexdigest()
    except OSError:
        return "missing"


def _still_valid(cached: dict, tests: FileTests | None = None) -> bool:
    workflows = cached.get("workflows")
    if not isinstance(workflows, Workflows):
        return False
    if any(listing(kind, arg, tests) != tuple(answer) for kind, arg, answer in workflows.listings):
        return False
    return all(_digest(Path(p)) == digest for p, digest in cached["digests"].items())


def _load_workflows(config: Config, bundle: Path | None, target: str | None) -> Workflows:
    out = Workflows()
    path = bundle
    named = bundle is not None or bool(config.bundle)  # else found at the root: its problems are diagnostics
    if path is None and config.bundle != "":
        if config.bundle:
            path = config.root / config.bundle
        else:
            found = listing("bundle", str(config.root))
            out.listings.append(("bundle", str(config.root), found))
            path = Path(found[0]) if found else None
    fragment = None  # a root bundle file that is no bundle's root, beside bundles in folders below
    if path is not None and not named and not declares_bundle(path, config.root):
        below = listing("bundles", str(config.root))
        if below:
            fragment, path = path, None
        else:  # read as before; a bundle appearing below reads the project again
            out.listings.append(("bundles", str(config.root), below))
    if path is not None:
        if not path.is_file():
            raise ConfigError(f"{path}: bundle file not found")
        probes = out.listings
        # only a bundle named on the command line may lie outside the project
        out = load_bundle(path, target or config.target, config.root, named=named, contained=bundle is None)
        out.listings = probes + out.listings
        if not named:  # found at the root: the bundles in its folders are deployed too
            _load_nested_bundles(out, config, target or config.target)
    elif config.bundle is None and bundle is None:
        _load_nested_bundles(out, config, target or config.target)
        if fragment is not None:  # its edits (a `bundle:` mapping added) read the project again
            out.files.insert(0, fragment)
            out.notes.append(
                f"{fragment.relative_to(config.root).as_posix()} has no `bundle:` mapping, so it is no bundle's "
                "root: the bundles in the folders below are read, each with its own variables and targets"
            )
    exported = None
    if config.job_definitions:
        exported = load_job_definitions(config.root / config.job_definitions, config.root)
    elif config.job_definitions is None and bundle is None and config.bundle is None:
        dbx = None  # dbx deployment files: read as such, not as job definitions
        if found := _found(out, "dbx", config.root):
            from delta_lint.dbx import load_found_dbx

            dbx = load_found_dbx(config.root, found, target or config.target)
        exported = load_found_job_json(config.root, tuple(out.files) + tuple(dbx.files if dbx else ()))
        if found := _found(exported, "terraform", config.root):
            from delta_lint.terraform import load_found_terraform

            _add_jobs(exported, load_found_terraform(config.root, found))
        if found := _found(exported, "airflow", config.root):
            from delta_lint.airflow import load_found_airflow

            _add_jobs(exported, load_found_airflow(config.root, found))
        if found := _found(exported, "adf", config.root):
            from delta_lint.adf import load_found_adf

            _add_jobs(exported, load_found_adf(config.root, found))
        if dbx is not None:
            _add_jobs(exported, dbx)
    if exported is not None:
        _add_jobs(out, exported)
    if found := _found(out, "dbt", config.root):
        from delta_lint.dbt import load_found_dbt

        load_found_dbt(out, config.root, found)  # dbt tasks' nodes, and the writes of every dbt node
    if any(task.starts for job in out.jobs.values() for task in job.tasks.values()):
        from delta_lint.airflow import resolve_started_jobs

        resolve_started_jobs(out)  # Airflow's RunNow names jobs the other readers define
    match_by_name(out, config.root)  # workspace paths in folders the project does not have
    wheel_modules(out, config.root)  # wheel tasks of every reader (Airflow's too) run their entry point
    for_each_notes(out)
    # where each task's and pipeline's files were looked for: asked again with the listings
    out.listings += [probe for job in out.jobs.values() for task in job.tasks.values() for probe in task.probes]
    out.listings += [probe for pipeline in out.pipelines.values() for probe in pipeline.probes]
    return out


def _found(out: Workflows, kind: str, root: Path) -> tuple[str, ...]:
    """Whether the project holds inputs of a reader's `kind` (Terraform, Airflow,
    dbt): a reader is imported only for a project that has its inputs, so a SQL-only
    run never loads them (start-up time). An empty answer is kept in `out.listings`
    as the reader would have kept it, so the cache still notices such a file appear;
    a found one is given to its reader, which records it (the project is walked
    once per kind)."""
    found = listing(kind, str(root))
    if not found:
        out.listings.append((kind, str(root), found))
    return found


def _add_jobs(out: Workflows, more: Workflows) -> None:
    """`more`'s jobs into `out`, where `out` has no job of that name, and its pipelines
    (Terraform's), whose files the link stage reads as theirs: one whose key `out`
    holds is kept under its reader's source too (no task names it after loading)."""
    out.listings += more.listings
    out.jobs.update({k: v for k, v in more.jobs.items() if k not in out.jobs})
    for key, pipeline in more.pipelines.items():
        name = key if key not in out.pipelines else f"{more.source}:{key}"
        out.pipelines[name] = replace(pipeline, key=name)
    out.source = ", ".join(s for s in (out.source, more.source) if s)
    out.files += more.files
    out.notes += more.notes
    out.problems += more.problems


def _load_nested_bundles(out: Workflows, config: Config, target: str | None) -> None:
    """The bundles in a repository's folders, each with its own root, variables and
    default target (or the chosen one where it has it), beside the root's bundle when
    there is one: a monorepo deploys each of them from its folder, so a root bundle
    does not hide them. A broken bundle found this way is reported at its line; the
    others are still read. A bundle's jobs and pipelines defined in a file of its own
    folder that a bundle read before (a root bundle whose `include` reaches into the
    sub-bundle: one set of jobs, deployed from either) are left out with a note. A
    file outside its folder that several bundles include (`../common/*.yml`) is each
    one's: every bundle deploys its own copy of those jobs."""
    found = listing("bundles", str(config.root))
    out.listings.append(("bundles", str(config.root), found))
    sources = [out.source] if out.source else []
    for file in map(Path, found):
        read = {f.resolve() for f in out.files}
        if file.resolve() in read:
            out.notes.append(
                f"{_shown(file, config.root)} is included by a bundle already read, so it is not read as a bundle"
                " of its own"
            )
            continue
        try:
            targets = bundle_targets(file)
        except ConfigError as err:  # found, not named: reported at its line, the others are read
            out.problems.append(found_problem(file, config.root, err))
            out.files.append(file)
            continue
        loaded = load_bundle(file, target if target in targets else None, config.root, named=False)
        inside = bundle_label(file.parent, config.root) + "/"
        own = {label for label in (bundle_label(f, config.root) for f in read) if label.startswith(inside)}
        _drop_read_twice(loaded, own, _shown(file, config.root), out.notes)
        sources.append(loaded.source)
        out.files += [f for f in loaded.files if f.resolve() not in read]
        out.listings += loaded.listings
        out.notes += loaded.notes
        out.problems += loaded.problems
        _add_bundle_jobs(out, loaded, file.parent, config.root)
    out.source = ", ".join(sources)


def _shown(file: Path, root: Path) -> str:
    return file.relative_to(root).as_posix() if file.is_relative_to(root) else file.as_posix()


def _drop_read_twice(loaded: Workflows, read: set[str], shown: str, notes: list[str]) -> None:
    """Leave out the jobs and pipelines of a bundle (`shown`) that a file of its folder
    another bundle read defines (`read`: their labels), saying which."""
    twice = sorted({j.location.path for j in loaded.jobs.values() if j.location and j.location.path in read})
    twice += sorted(
        {p.location.path for p in loaded.pipelines.values() if p.location and p.location.path in read} - set(twice)
    )
    if not twice:
        return
    dropped = [k for k, j in loaded.jobs.items() if j.location and j.location.path in twice]
    for key in dropped:
        del loaded.jobs[key]
    for key in [k for k, p in loaded.pipelines.items() if p.location and p.location.path in twice]:
        del loaded.pipelines[key]
    files = ", ".join(twice)
    notes.append(
        f"bundle {shown}: {files} {'is' if len(twice) == 1 else 'are'} read by another bundle too (its `include` "
        "reaches into this bundle's folder), so the jobs defined there are read once, as that bundle's"
        + (f" ({', '.join(sorted(dropped))} left out here)" if dropped else "")
    )


def _add_bundle_jobs(out: Workflows, loaded: Workflows, folder: Path, root: Path) -> None:
    """The jobs and pipelines of one of a repository's bundles into `out`. A key another bundle
    already took (monorepos repeat `main_job`) becomes `<bundle folder>.<key>` (then
    its path from the root, then numbered), and the job takes that key too: the
    schedule finds a job and its tasks by its key (the second `main_job` with other
    task keys was an internal error). Its bundle's tasks that start it follow."""
    renamed: dict[str, str] = {}
    taken = set(out.jobs)
    shown = folder.relative_to(root).as_posix() if folder.is_relative_to(root) else folder.name
    for key in loaded.jobs:
        numbered = (f"{shown}.{key}.{n}" for n in itertools.count(2))
        renamed[key] = next(
            c for c in itertools.chain([key, f"{folder.name}.{key}", f"{shown}.{key}"], numbered) if c not in taken
        )
        taken.add(renamed[key])
    for key, job in loaded.jobs.items():
        tasks = {
            k: replace(t, starts=(renamed[t.starts[0]], t.starts[1])) if t.starts and t.starts[0] in renamed else t
            for k, t in job.tasks.items()
        }
        out.jobs[renamed[key]] = replace(job, key=renamed[key], tasks=tasks)
    taken_pipelines = set(out.pipelines)
    for key, pipeline in loaded.pipelines.items():  # their files are read as the pipeline's (the link stage)
        numbered = (f"{shown}.{key}.{n}" for n in itertools.count(2))
        name = next(c for c in itertools.chain([key, f"{shown}.{key}"], numbered) if c not in taken_pipelines)
        taken_pipelines.add(name)
        out.pipelines[name] = replace(pipeline, key=name)


def build_schedule(
    config: Config,
    paths: dict[str, str],
    workflows: Workflows | None = None,
    runs_in: dict[str, set[str]] | None = None,
    stats: RunStats | None = None,
    pooled: dict[str, Pools] | None = None,
) -> Schedule:
    """`paths` maps display paths to paths relative to the configuration root;
    `runs_in` maps a notebook to the files that run it (`dbutils.notebook.run`):
    it runs in their tasks; `pooled`, a notebook to the thread pools whose calls run
    it and which calls (see `Schedule.pooled_runs`). `stats`: the run's counters (see `delta_lint.stats`)."""
    workflows = workflows or Workflows()
    by_file: dict[str, list[Node]] = {}
    by_lines: dict[str, list[tuple[int, int, Node]]] = {}
    for job in workflows.jobs.values():
        for task in job.tasks.values():
            for file in task.files:
                by_file.setdefault(file, []).append(Node(job.key, task.key, "task"))
                if task.lines is not None:
                    by_lines.setdefault(file, []).append((*task.lines, Node(job.key, task.key, "task")))
    for child, callers in sorted((runs_in or {}).items()):
        for caller in sorted(callers):
            by_file.setdefault(child, []).extend(by_file.get(caller, []))
    nodes_of: dict[str, tuple[Node, ...]] = {}
    for display, rel in paths.items():
        nodes = by_file.get(rel)
        if not nodes:
            nodes = [Node(job.name, None, "config") for job in config.jobs if matches_any(rel, job.paths)][:1]
        nodes_of[display] = tuple(sorted(set(nodes), key=Node.key)) if nodes else (Node(display),)
    known = {j.name for j in config.jobs} | set(workflows.jobs) | {j.name for j in workflows.jobs.values()}
    for i, group in enumerate(config.exclusive):
        for name in sorted(group):
            if name not in known:
                raise ConfigError(
                    f"{config.path}: `exclusive[{i}]`: unknown job `{name}` (jobs: {', '.join(sorted(known)) or 'none'})"
                )
    # exclusive groups may name bundle jobs by key or by name
    name_to_key = {j.name: j.key for j in workflows.jobs.values()}
    exclusive = tuple(frozenset(name_to_key.get(n, n) for n in g) | g for g in config.exclusive)
    durations = {str(k): parse_duration(v) for k, v in config.durations.items() if k != "default"}
    # `auto`: once the project says how its jobs run (job definitions, configured
    # jobs), a file none of them runs is a setup or exploration notebook
    by_hand = config.unscheduled == "by-hand" or (
        config.unscheduled == "auto" and any(n.kind != "file" for nodes in nodes_of.values() for n in nodes)
    )
    default = parse_duration(config.durations["default"]) if "default" in config.durations else DEFAULT_DURATION
    return Schedule(
        nodes_of,
        {j.name: j.concurrent_runs for j in config.jobs},
        exclusive,
        workflows,
        durations,
        default,
        "default" in config.durations,
        by_hand=by_hand,
        by_hand_why=_BY_HAND if config.unscheduled == "by-hand" else _BY_HAND_AUTO,
        started_by=_started_by(workflows),
        stats=stats if stats is not None else RunStats(),
        pooled_runs={display: pooled[rel] for display, rel in paths.items() if rel in (pooled or {})},
        line_nodes={
            display: tuple(sorted(by_lines[rel], key=_span_key)) for display, rel in paths.items() if rel in by_lines
        },
        given_runs=_given_runs(workflows, paths),
    )


def _given_runs(
    workflows: Workflows, paths: dict[str, str]
) -> dict[str, dict[Node, tuple[dict[str, str | None], ...]]]:
    """display path -> node -> the values each run of it gives the file (see
    `Schedule.given_runs`), for the files whose runs do not all give the same values."""
    runs = task_runs(workflows)
    out: dict[str, dict[Node, tuple[dict[str, str | None], ...]]] = {}
    for display, rel in paths.items():
        found = runs.get(rel)
        if not found or len(found) < 2 or all(given == found[0][2] for _, _, given in found):
            continue
        by_node: dict[Node, list[dict[str, str | None]]] = {}
        for job, task, given in found:
            by_node.setdefault(Node(job, task, "task"), []).append(given)
        out[display] = {node: tuple(values) for node, values in by_node.items()}
    return out


def _span_key(span: tuple[int, int, Node]) -> tuple[int, int, str]:
    return span[0], span[1], span[2].key()


def _started_by(workflows: Workflows) -> dict[str, tuple[Node, ...]]:
    """job -> the tasks of other jobs that start it, for jobs with no schedule,
    trigger or continuous run of their own: such a job runs in its parents' order,
    not "by hand at any time"."""
    out: dict[str, list[Node]] = {}
    for job in workflows.jobs.values():
        for task in job.tasks.values():
            child = task.starts[0] if task.starts is not None else None
            if child is not None and child != job.key and child in workflows.jobs:
                out.setdefault(child, []).append(Node(job.key, task.key, "task"))
    return {
        key: tuple(sorted(set(nodes), key=Node.key))
        for key, nodes in out.items()
        if (j := workflows.jobs[key]).cron is None and not j.continuous and not j.trigger and not j.paused
    }


# Said once per run when nothing tells delta-lint when its files run: then every
# pairing rests on an assumption, and the one line that would change that is named.
NO_SCHEDULE_NOTE = (
    "no schedule is known (no bundle, job definition, Terraform root, Airflow DAG or configured job): "
    "every file is its own job that may run at any time, so every overlap between runs is assumed: only "
    "writes one run makes at once (a running stream, a thread pool's calls) can be errors; say which files "
    "form jobs with `jobs:` in delta-lint.yaml, or name the bundle with `--bundle databricks.yml`"
)


def run_notes(schedule: Schedule, intents: Iterable[Intent] = ()) -> list[str]:
    """What a run says once about the schedule it judged: the bundle target read and
    why, the readers' notes (a development target's paused schedules), that no
    schedule is known at all when no job of any reader or of the configuration runs
    a file of the project, and which notebooks' `intents` a thread pool's calls run
    with the inputs naming their tables known only at run time (`pool_notes`)."""
    wf = schedule.workflows
    notes = [f"judged {wf.target}"] if wf.target else []
    notes += wf.notes
    known = wf.jobs or schedule.config_runs or any(n.kind != "file" for ns in schedule.nodes_of.values() for n in ns)
    if not known:
        notes.append(NO_SCHEDULE_NOTE)
    return notes + pool_notes(schedule, intents)


MAX_NOTED_TABLES = 3  # tables a pool note names, the rest counted


def pool_notes(schedule: Schedule, intents: Iterable[Intent]) -> list[str]:
    """One note per notebook and thread pool whose calls run it giving an input that
    names a table of the notebook a value only a run knows: those writes are not
    paired with the pool's other calls (each call may write a table of its own, see
    `Schedule._one_table_in_pool`), so the run says it did not judge them, and which
    input would have to be known."""
    found: dict[tuple[str, str, tuple[str, ...]], set[str]] = {}
    for x in intents:
        if not x.name_inputs or x.table is None or x.location.path not in schedule.pooled_runs:
            continue
        for pool, _, same, differ in schedule.pooled_runs[x.location.path]:
            given = {name for name, _ in same} | set(differ)
            unknown = tuple(name for name in x.name_inputs if name not in given)
            if unknown:
                found.setdefault((x.location.path, pool, unknown), set()).add(x.table.name)
    notes = []
    for (path, pool, unknown), tables in sorted(found.items()):
        names = sorted(tables)
        shown = ", ".join(f"`{t}`" for t in names[:MAX_NOTED_TABLES])
        if len(names) > MAX_NOTED_TABLES:
            shown += f" and {len(names) - MAX_NOTED_TABLES} more"
        inputs = ", ".join(f"`{i}`" for i in unknown)
        notes.append(
            f"{path} is run by the calls of the thread pool at {pool} (`dbutils.notebook.run`), which give it "
            f"{inputs} as a value only a run knows: its writes to {shown} are not paired with the pool's other "
            "calls (each call may write a table of its own)"
        )
    return notes
