"""The pairing machinery's view of one table: its intents split into classes whose
members every verdict treats alike, so that the engine judges pairs of classes
instead of pairs of intents (tests/test_engine_classes.py holds it against judging
every pair)."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field

from delta_lint.engine.judgement import Sig, label, region_of
from delta_lint.model import Intent, OpClass
from delta_lint.predicates import Region
from delta_lint.schedule import Concurrency, Schedule

UNKNOWN = object()  # not yet in a memo (None is a real answer)


def location_key(x: Intent) -> tuple[str, int, int]:
    """The order of `Location`, as a plain tuple: sorting compares in C."""
    loc = x.location
    return (loc.path, loc.line, loc.column)


# What a verdict may read of an intent (see `judgement.PAIR_RULES` and
# `READERS_RULES`): the class key holds exactly these, in this order, besides the
# schedule key.
BEHAVIOUR_FIELDS = (
    "kind",
    "flags",
    "subkind",
    "zorder_by",
    "merge_clauses",
    "table.is_path",
    "params",
    "added_columns",
    "row_columns",
    "txn_app_id",
    "read_region",
    "region",  # last: `regionless` replaces it
)


class Classes:
    """One table's intents in location order, split into classes whose members meet
    every intent of another file alike: the same schedule key (how their file
    overlaps other files), kind, flags and region — the region as far as it can
    decide a verdict on this table (its partition columns, unless row-level
    concurrency may apply). A verdict found for one pair of members in different
    files holds for every such pair of the two classes, so the engine judges pairs
    of classes, not pairs of intents. The intents of one file are adjacent here;
    pairs inside a file are judged per pair of classes too when runs of the file
    overlap (every pair alike), one by one when a stream keeps running."""

    def __init__(
        self, group: list[Intent], schedule: Schedule, columns: frozenset[str] | None, behaviour_ids: dict[tuple, int]
    ) -> None:
        self.group = group
        self.schedule = schedule
        self.columns = columns
        self._overlaps: dict[tuple[int, int], Concurrency | None] = {}  # see files_overlap
        n = len(group)
        self.locations = [x.location for x in group]
        paths = [loc.path for loc in self.locations]
        starts = [i for i in range(n) if i == 0 or paths[i] != paths[i - 1]]  # where each file begins
        self.file_start: list[int] = []
        self.file_end: list[int] = []
        self.shared_files: list[range] = []  # the index ranges of files with several of these intents
        for start, end in zip(starts, starts[1:] + [n]):
            if end - start == 1:
                self.file_start.append(start)
                self.file_end.append(end)
            else:
                self.shared_files.append(range(start, end))
                self.file_start += [start] * (end - start)
                self.file_end += [end] * (end - start)
        self.first_at = list(range(n))  # the first index of each location (equal ones are adjacent)
        for shared in self.shared_files:
            for i in shared[1:]:
                if self.locations[i] == self.locations[i - 1]:
                    self.first_at[i] = self.first_at[i - 1]
        self.duplicate_locations = any(self.first_at[i] != i for r in self.shared_files for i in r)
        keys: dict[tuple, int] = {}
        # per class, numbers kept for the run (cheap to hash): of its behaviour (the key
        # without the schedule: what a verdict reads besides the overlap) and of its
        # schedule key
        self.behaviours: list[int] = []
        self.pins: list[dict[str, frozenset[str]] | None] = []  # see _pin
        self.regions: list[Region] = []  # as far as a verdict on this table reads it (see above)
        self.regionless: list[int] = []  # the number of the behaviour without its region
        self.region_blind: list[bool] = []  # a verdict with this class reads no region (see verdict)
        self.schedule_keys: list[int] = []
        self.cls: list[int] = []
        self.members: list[list[int]] = []
        pair_key_of, by_lines = schedule.pair_key, schedule.scoped
        for i, x in enumerate(group):
            region = region_of(x)
            if columns is not None:
                region = region.restrict(columns)
            # a file whose tasks run only some of its lines, or some of its writes (the
            # values they give it): keyed by the intent's own nodes
            pair_key = schedule.intent_pair_key(x) if by_lines and paths[i] in by_lines else pair_key_of(paths[i])
            behaviour = (  # BEHAVIOUR_FIELDS
                x.kind,
                x.flags,
                x.subkind,
                x.zorder_by,
                x.merge_clauses,
                bool(x.table and x.table.is_path),
                bool(x.params),
                x.added_columns,
                x.row_columns,
                x.txn_app_id,
                x.read_region,
                region,
            )
            # numbered first: the class key then hashes a number, not the behaviour's
            # fields (regions, enums) again
            behaviour_id = behaviour_ids.setdefault(behaviour, len(behaviour_ids))
            # a write of a thread pool's calls meets itself when read for any item (see
            # `schedule.pool_overlap`): not alike with other writes of its file
            key = (pair_key, behaviour_id, x.pool, x.pool is not None and x.pool_item is None)
            c = keys.get(key)
            if c is None:
                c = keys[key] = len(self.members)
                self.members.append([])
                self.behaviours.append(behaviour_id)
                self.pins.append(_pin(region) if columns is not None else None)
                self.regions.append(region)
                regionless = behaviour[:-1] + (_ANY_REGION,)
                self.regionless.append(behaviour_ids.setdefault(regionless, len(behaviour_ids)))
                self.region_blind.append(x.op_class in _REGION_BLIND)
                self.schedule_keys.append(pair_key)
            self.members[c].append(i)
            self.cls.append(c)
        self.reps = [group[m[0]] for m in self.members]
        # per class: its cron schedule's number when its file is a lone task of a cron
        # job (see Schedule.cron_id): most pairs of such classes never meet, and are
        # told apart here before any pair of files is looked at
        self.cron_ids = [schedule.cron_id(x.location.path) for x in self.reps]
        self._never: dict[int, dict[int, bool]] = schedule.never_meet_memo  # for the run

    def meeting(self, p: int, partners: list[int]) -> list[int]:
        """The partners (class numbers) whose files may run while class p's do: most
        pairs of lone cron tasks never meet, and are dropped here before any pair is
        formed. Inline, as a table's classes are paired quadratically."""
        mine = self.cron_ids[p]
        if mine is None:
            return partners
        cron_ids, known = self.cron_ids, self._never.setdefault(mine, {})  # filled by schedules_never_meet
        out = []
        for q in partners:
            other = cron_ids[q]
            if other is not None and other != mine:
                never = known.get(other)
                if never is None:
                    never = self.schedule.schedules_never_meet(mine, other)
                if never:
                    continue
            out.append(q)
        return out

    def never_meet(self, p: int, q: int) -> bool:
        """True when the files of classes p and q are of jobs whose runs never meet."""
        a, b = self.cron_ids[p], self.cron_ids[q]
        if a is None or b is None or a == b:
            return False
        found = self._never.get(a, {}).get(b)
        return self.schedule.schedules_never_meet(a, b) if found is None else found

    def cross_file(self, p: int, q: int) -> tuple[int, int] | None:
        """A member of class p and one of class q in different files, or None when
        every pair of them shares a file."""
        self.schedule.stats.class_pairs += 1
        mp, mq = self.members[p], self.members[q]
        b = self._outside(mq, mp[0])
        if b is not None:
            return mp[0], b
        a = self._outside(mp, mq[0])
        return (a, mq[0]) if a is not None else None

    def across(self, p: int, q: int) -> tuple[int, int, Concurrency] | None:
        """A member of class p and one of class q in different files (`cross_file`)
        with how their files overlap (`files_overlap`); None when every pair of them
        shares a file or their files never run together. One call per candidate
        pair of a table's classes, asked first of what is already known per pair of
        schedule keys."""
        a, b = self.schedule_keys[p], self.schedule_keys[q]
        between = (a, b) if a <= b else (b, a)
        found = self._overlaps.get(between, UNKNOWN)
        if found is None:
            return None
        reps = self.cross_file(p, q)
        if reps is None:
            return None
        if found is UNKNOWN:
            found = self._overlaps[between] = self.schedule.overlap(self.group[reps[0]], self.group[reps[1]])
            if found is None:
                return None
        return reps[0], reps[1], found  # type: ignore[return-value]

    def files_overlap(self, i: int, j: int) -> Concurrency | None:
        """`Schedule.overlap` of intents i and j of different files. It depends on
        their schedule keys only (and not on their order), so it is kept per pair of
        keys while this table is judged."""
        a, b = self.schedule_keys[self.cls[i]], self.schedule_keys[self.cls[j]]
        between = (a, b) if a <= b else (b, a)
        found = self._overlaps.get(between, UNKNOWN)
        if found is UNKNOWN:
            found = self._overlaps[between] = self.schedule.overlap(self.group[i], self.group[j])
        return found  # type: ignore[return-value]

    def _outside(self, members: list[int], i: int) -> int | None:
        """A member (sorted indices) that is not in the file of intent i."""
        if members[0] < self.file_start[i]:
            return members[0]
        k = bisect_left(members, self.file_end[i])
        return members[k] if k < len(members) else None

    def labels(self) -> tuple[list[str], list[str]]:
        """Each intent's label, and its `others` entry of a message: label and location."""
        known: dict[tuple, str] = {}
        labels, tags = [], []
        for x, loc in zip(self.group, self.locations):
            key = (x.kind, x.subkind, x.zorder_by, x.flags)
            text = known.get(key)
            if text is None:
                text = known[key] = label(x)
            labels.append(text)
            tags.append(f"{text} at {loc}")
        return labels, tags


@dataclass
class Found:
    """A table's predicted conflicts before they become findings. `sliced`: per class
    and verdict, the classes whose members (outside the primary's own file) are the
    others when they come before the primary (first list) or after it (second);
    `in_file`: the same for pairs inside one file, the others cut at the primary;
    `fixed`: per intent, verdicts with their others listed."""

    sliced: dict[int, dict[Sig, tuple[list[int], list[int]]]] = field(default_factory=lambda: defaultdict(dict))
    in_file: dict[int, dict[Sig, tuple[list[int], list[int]]]] = field(default_factory=lambda: defaultdict(dict))
    fixed: dict[int, list[tuple[Sig, list[int]]]] = field(default_factory=lambda: defaultdict(list))

    def add_sliced(self, primary: int, sig: Sig, members: list[int], before: bool) -> None:
        self._add(self.sliced, primary, sig, members, before)

    def add_in_file(self, primary: int, sig: Sig, members: list[int], before: bool) -> None:
        """Like `add_sliced` for pairs inside one file whose runs overlap: a member of
        the primary class gets those of `members` in its own file before it (or after)."""
        self._add(self.in_file, primary, sig, members, before)

    @staticmethod
    def _add(into: dict, primary: int, sig: Sig, members: list[int], before: bool) -> None:
        lists = into[primary].get(sig)
        if lists is None:
            lists = into[primary][sig] = ([], [])
        lists[0 if before else 1].extend(members)


_ANY_REGION = "any region"  # stands for the region in a behaviour a verdict does not read it of
# op classes whose pairs `verdict` decides before reading any region
_REGION_BLIND = frozenset({OpClass.PROTOCOL, OpClass.METADATA, OpClass.CREATE})


def _pin(region: Region) -> dict[str, frozenset[str]] | None:
    """The string literals a region (restricted to the partition columns) pins each
    column to, when it is one conjunct of such sets; None otherwise. Two such regions
    overlap exactly when they share a value on every column both constrain, and a
    verdict on a table without row-level concurrency reads nothing else of them: it
    is never whole or opaque, and the partition columns decide (see `_matrix_verdict`,
    `_non_explicit`, `_why_unknown`)."""
    if region.opaque or len(region.conjuncts) != 1 or not region.conjuncts[0]:
        return None
    out = {}
    for column, constraint in region.conjuncts[0]:
        if constraint.values is None:
            return None
        values = set()
        for kind, value in constraint.values:
            if kind != "lit" or type(value) is not str:
                return None
            values.add(value)
        out[column] = frozenset(values)
    return out


def most_pinned(intents) -> str | None:
    """The column the most of these intents pin to literal values (see
    `literal_keys`); None when none does."""
    counts: dict[str, int] = defaultdict(int)
    for x in intents:
        for column in region_of(x).columns():
            if literal_keys(x, column) is not None:
                counts[column] += 1
    return min(counts, key=lambda c: (-counts[c], c)) if counts else None


def literal_keys(x: Intent, column: str) -> frozenset[str] | None:
    """The literal values an intent's region pins `column` to, as comparison keys;
    None when it is not pinned to literals in every conjunct. Numbers get their
    float form as a second key and every value its text, so values the predicate
    engine might find equal (1, 1.0, '1') always share a key."""
    region = region_of(x)
    if region.opaque:
        return None
    keys: set[str] = set()
    for conj in region.conjuncts:
        constraint = next((k for c, k in conj if c == column), None)
        if constraint is None or constraint.values is None:
            return None
        for kind, value in constraint.values:
            if kind != "lit":
                return None
            keys.add(f"s:{value}")
            if isinstance(value, (int, float)):
                keys.add(f"n:{float(value)!r}")
    return frozenset(keys)
