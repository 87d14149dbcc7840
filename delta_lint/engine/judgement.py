"""The spec's judgement: whether writes that can run at the same time conflict.

Every rule is a unit here, registered by what it is judged on (see "the rules"
below). The pair rules follow docs/conflict-semantics.md in its check order
(section 7): protocol, metadata, create, identity columns, then the matrix cell
(which matrix: row-level concurrency or not, the isolation level, deletion
vectors) and whether the two regions are disjoint. The other rules judge a write
with the writes that may read what it adds, one intent on its table, or the run's
intents across tables. The module knows nothing of how the engine finds what to
judge (`pairing`); the cells, runtime profiles and rule texts are data in `rules/`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from delta_lint.config import Config
from delta_lint.model import ROW_INSERTING_KINDS, Flag, Intent, Kind, OpClass
from delta_lint.predicates import OPAQUE, WHOLE, Overlap, Region, overlap
from delta_lint.rulepack import ROW_LEVEL, Profile, RulePack
from delta_lint.schedule import SAME_VALUE, Concurrency, Schedule
from delta_lint.settings import TableSettings
from delta_lint.stats import RunStats

MATRIX_CLASSES = {OpClass.INSERT, OpClass.DML, OpClass.OPTIMIZE}
WRITE_CLASSES = MATRIX_CLASSES | {OpClass.METADATA, OpClass.PROTOCOL, OpClass.CREATE}


@dataclass
class Pair:
    """One predicted conflict between a primary intent and one other, before grouping."""

    rule: str
    verdict: str  # CERTAIN | DATA_DEPENDENT (the severity follows from it and the overlap's basis)
    exception: str | None
    primary: Intent
    other: Intent
    table: str
    concurrency: Concurrency
    # the message's facts: kept per pair of behaviours and table settings for the run
    # and shared by tables with equal settings (`Engine._verdicts`), so they never name the
    # table; `Messages` fills in `{table}`
    fields: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def sig(self) -> Sig:
        return (
            self.rule,
            self.verdict,
            self.exception,
            tuple(self.fields.items()),
            tuple(dict.fromkeys(n for n in self.notes if n)),
            self.concurrency.reason,
            self.concurrency.basis,
        )


# Whether a conflict happens whenever both writes run (CERTAIN: they always share
# files, e.g. a metadata change and any write, or two whole-table writes without
# row-level concurrency) or only for some data (DATA_DEPENDENT: the same rows or
# partitions only for some parameter values, conditions not proven disjoint, a
# schema that changes only sometimes). `messages.severity` makes the severity of it.
CERTAIN = "certain"
DATA_DEPENDENT = "data-dependent"
# A race that only the first run can meet, while the table does not exist yet (two
# runs of one `CREATE TABLE IF NOT EXISTS`, a write guarded by `tableExists`): once
# the table exists the guarded write commits nothing. Shown, never failing the
# default gate (`messages.SEVERITY`).
FIRST_RUN = "first-run"
# A pair whose one side may commit nothing to the table's Delta log (a Unity Catalog
# policy set by ALTER TABLE, `CATALOG_POLICIES`): a conflict only if it does. Shown,
# never failing the default gate, saying what is not known.
MAY_NOT_COMMIT = "may-not-commit"
# Metadata changes of Unity Catalog policies whose commit to the Delta log is not
# documented (frontend `sql._CATALOG_POLICY`, with the source)
CATALOG_POLICIES = frozenset({"column_mask", "row_filter"})

# A verdict without its pair: (rule, verdict, exception, fields, notes, overlap
# reason, overlap basis). Every pair of members of two classes of intents shares one
# (see `Classes`). An intent rule's verdict has no overlap: reason and basis "".
Sig = tuple[str, str, "str | None", tuple[tuple[str, str], ...], tuple[str, ...], str, str]


_LABELS = {
    Kind.BLIND_APPEND: "blind append",
    Kind.INSERT_READING_TARGET: "INSERT reading its target",
    Kind.REPLACE_WHERE: "replaceWhere overwrite",
    Kind.DYNAMIC_OVERWRITE: "dynamic partition overwrite",
    Kind.FULL_OVERWRITE: "full overwrite",
    Kind.UPDATE: "UPDATE",
    Kind.DELETE: "DELETE",
    Kind.MERGE: "MERGE",
    Kind.OPTIMIZE: "OPTIMIZE",
    Kind.OPTIMIZE_ZORDER: "OPTIMIZE ZORDER BY",
    Kind.REORG_PURGE: "REORG ... APPLY (PURGE)",
    Kind.METADATA_CHANGE: "ALTER TABLE",
    Kind.PROTOCOL_CHANGE: "protocol change",
    Kind.CREATE: "CREATE TABLE",
    Kind.CREATE_OR_REPLACE: "CREATE OR REPLACE TABLE",
    Kind.STREAMING_WRITE: "streaming write",
    Kind.STREAMING_READ: "streaming read",
    Kind.VACUUM: "VACUUM",
    Kind.RESTORE: "RESTORE",
    Kind.TRUNCATE: "TRUNCATE",
    Kind.COPY_INTO: "COPY INTO",
}


def label(intent: Intent) -> str:
    text = _LABELS[intent.kind]
    if intent.kind == Kind.METADATA_CHANGE and intent.subkind:
        text = f"ALTER TABLE ({intent.subkind.replace('_', ' ')})"
    elif intent.kind == Kind.PROTOCOL_CHANGE and intent.subkind:
        text = f"protocol change ({intent.subkind.replace('_', ' ')})"
    elif intent.kind == Kind.OPTIMIZE_ZORDER:
        text = f"OPTIMIZE ZORDER BY ({', '.join(intent.zorder_by)})"
    if Flag.SCHEMA_EVOLUTION in intent.flags and intent.kind not in (Kind.METADATA_CHANGE, Kind.PROTOCOL_CHANGE):
        text += " with schema evolution"
    if Flag.PER_BATCH in intent.flags:
        text += " (per micro-batch)"
    return text


class Judge:
    """The verdict on one pair of intents on a table with settings `s`, under the
    configured runtime (its profile) and Photon."""

    def __init__(self, config: Config, pack: RulePack, profile: Profile, stats: RunStats | None = None) -> None:
        self.config = config
        self.pack = pack
        self.profile = profile
        self.stats = stats if stats is not None else RunStats()  # the run's, see delta_lint.stats

    def overlap(self, a: Intent, b: Intent, columns: frozenset[str] | None, distinct_runs: bool) -> Overlap:
        """`predicates.overlap` of the two intents' target regions (each as the other
        meets it, see `region_against`), counted."""
        self.stats.regions_compared += 1
        return overlap(region_against(a, b), region_against(b, a), columns, distinct_runs)

    def verdict(self, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str) -> Pair | None:
        """The first conflict check that decides, in the spec's order (section 7)."""
        note = [s.note] if s.note else []
        for rule in PAIR_RULES:
            found = rule.judge(self, a, b, s, conc, table, note)
            if found is not NEXT:
                return found  # type: ignore[return-value]
        return None

    def table_row_level(self, s: TableSettings) -> tuple[bool, str]:
        """Whether the table's settings and the runtime allow row-level concurrency at
        all (the operations may still fall back, see `row_level`), and why (not)."""
        p = self.profile
        if p.matrix == "oss":
            return False, "open-source Delta has no row-level concurrency"
        if s.clustered_by:
            if not s.has_deletion_vectors:
                return False, "deletion vectors are disabled on this clustered table"
            if not p.row_level_clustered:
                return False, f"runtime {self.config.runtime} has no row-level concurrency"
            return True, "liquid-clustered table"
        if s.partitioned_by:
            return False, "partitioned tables never get row-level concurrency"
        if not s.has_deletion_vectors:
            return False, "the table has no deletion vectors"
        if p.row_level_deletion_vectors == "false":
            return False, f"runtime {self.config.runtime} gives row-level concurrency only to liquid-clustered tables"
        if p.row_level_deletion_vectors == "preview":
            return True, "preview: needs spark.databricks.delta.rowLevelConcurrencyPreview = true"
        return True, "deletion vectors"

    def row_level(self, s: TableSettings, a: Intent, b: Intent) -> tuple[bool, str, Intent | None]:
        """Whether row-level concurrency applies to this pair, and if not why; the
        intent the reason is about (None when it is about the table or runtime), so
        that the reason can name it as "this" or "the other" write without a location:
        one reason then serves every pair of two classes of intents."""
        p = self.profile
        applies, why = self.table_row_level(s)
        if not applies:
            return False, why, None
        if (
            not s.clustered_by
            and p.row_level_deletion_vectors == "preview"
            and not all(Flag.ROW_LEVEL_PREVIEW in x.flags for x in (a, b) if x.op_class == OpClass.DML)
        ):
            return (
                False,
                f"on runtime {self.config.runtime} row-level concurrency is a preview that needs "
                "spark.databricks.delta.rowLevelConcurrencyPreview = true",
                None,
            )
        for x in (a, b):
            if x.op_class != OpClass.DML:
                continue
            if x.kind == Kind.DYNAMIC_OVERWRITE:
                # open-source Delta ignores the dynamic mode on an unpartitioned table
                # (WriteIntoDelta.scala): it overwrites every file, whatever rows it writes
                return False, "is a dynamic partition overwrite, which replaces the whole unpartitioned table", x
            for flag, why in (
                (Flag.COMPLEX_TYPE_CONDITION, "a condition on complex types"),
                (Flag.NON_DETERMINISTIC, "a non-deterministic condition"),
                (Flag.CORRELATED_SUBQUERY, "a correlated subquery"),
                (Flag.SUBQUERY, "a subquery in its condition"),
            ):
                if flag in x.flags:
                    return False, f"has {why}", x
            if p.without_photon_only and self.config.photon is not True and x.kind.value not in p.without_photon_only:
                return (
                    False,
                    f"without Photon, runtime {self.config.runtime} gives row-level concurrency only to "
                    f"{', '.join(k.upper() for k in p.without_photon_only)} (set `photon: true` if the job uses Photon)",
                    None,
                )
            if x.kind == Kind.MERGE:
                if "explicit_target_predicate" in p.merge_requires and region_of(x).is_whole():
                    return (
                        False,
                        f"has no explicit predicate on the target, which runtime {self.config.runtime} "
                        "needs to keep row-level concurrency for a MERGE",
                        x,
                    )
                if "photon" in p.merge_requires and self.config.photon is not True:
                    return (
                        False,
                        f"on runtime {self.config.runtime} MERGE gets row-level concurrency only with Photon (`photon: true`)",
                        None,
                    )
        return True, "", None

    def _matrix_verdict(
        self, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, notes: list[str]
    ) -> Pair | None:
        rlc, why_not, why_about = self.row_level(s, a, b)
        matrix = self.pack.matrices[ROW_LEVEL if rlc else self.profile.matrix]
        cell = matrix.cell(a.op_class.value, b.op_class.value)
        if cell is None:
            return None
        outcome = cell.outcome_for(s.isolation_level, s.has_deletion_vectors)
        if outcome == "never":
            return None
        rule_id = cell.rule
        if outcome == "zorder_only":
            if Kind.OPTIMIZE_ZORDER not in (a.kind, b.kind):
                return None
            rule_id = cell.zorder_rule
            granularity = "same_files"
        else:
            granularity = outcome
        partition_cols = frozenset(s.partitioned_by)
        if granularity == "always":
            result = Overlap.OVERLAP
        else:
            cols = partition_cols if granularity == "same_files" else None
            result = self.overlap(a, b, cols, conc.distinct_runs)
        same_value: list[str] = []
        shared: list[str] = []
        if result == Overlap.DISJOINT and conc.distinct_runs:
            params = _same_value_params(a, b, cols)
            if conc.run_unique & set(params):
                return None  # the orchestrator gives each run its own value of one of them
            if params and set(params) <= conc.run_shared:
                # runs that overlap get the same value of each (`{{ ds }}` of an hourly
                # schedule): judged as one value, as the runs' reason says
                shared = params
            elif conc.per_run_inputs is not None and params and not conc.per_run_inputs & set(params):
                # iterations of one for_each differ in their input alone: a parameter
                # of the task is the same in each, and keeps none of them apart
                shared = params
            elif conc.values_may_repeat:
                # apart only while two runs' parameter values differ: said at the lowest
                # severity, never assumed (a second run given the same value meets it)
                same_value = params
            result = self.overlap(a, b, cols, False)
            if not (same_value or shared) or result == Overlap.DISJOINT:
                return None
            # one statement given the same values in each iteration: its own region twice
            result = Overlap.OVERLAP if shared and a is b else Overlap.UNKNOWN
        elif result == Overlap.DISJOINT:
            return None
        primary, other = _primary(a, b, rule_id)
        verdict = CERTAIN if result == Overlap.OVERLAP else DATA_DEPENDENT
        explicit = self._non_explicit(a, b, s, conc, granularity)
        if explicit is not None:
            primary, other = explicit, (b if explicit is a else a)
        matrix_note = f"{matrix.title}, {s.isolation_level}"
        if not rlc and why_not and self.profile.matrix != "oss" and (s.clustered_by or s.has_deletion_vectors):
            if why_about is not None:
                why_not = f"{_role(why_about, primary)} {why_not}"
            matrix_note += f"; row-level concurrency does not apply: {why_not}"
        unit = "rows" if granularity == "same_rows" else "files"
        if granularity == "same_files" and s.partitioned_by:
            disjoint_on = ", ".join(s.partitioned_by)
        elif granularity == "same_rows":
            disjoint_on = "the columns their conditions filter on"
        else:
            disjoint_on = "partition columns (the table is unpartitioned" + self._settings_that_help(a, b, s) + ")"
        fields = {"unit": unit, "matrix": matrix_note, "disjoint_on": disjoint_on}
        if same_value:
            shown = ", ".join(f"`{p}`" for p in same_value)
            notes = notes + [
                f"they touch different {unit} only while the two runs get different values of {shown}: two "
                "runs given the same values conflict (a run started by hand, a rerun or a duplicate trigger "
                "beside one still running)"
            ]
            conc = replace(conc, basis=SAME_VALUE)
            # the fix: the conditions are disjoint already, while the values differ
            fields["disjoint_on"] += f" (they are while runs get different values of {shown}: start one run per value)"
        elif shared and set(shared) <= conc.run_shared:
            shown = ", ".join(f"`{p}`" for p in shared)
            notes = notes + [f"runs that overlap get the same value of {shown}, which the orchestrator fills per run"]
        elif shared:
            shown = ", ".join(f"`{p}`" for p in shared)
            notes = notes + [
                f"the for_each iterations share {shown}, a parameter of the task, not of the iteration's "
                "input: each iteration gets the same value"
            ]
        elif result == Overlap.UNKNOWN:
            notes = notes + [f"could not prove the two touch different {unit}: {_why_unknown(a, b, conc, primary)}"]
        if explicit is not None:
            rule_id = "DL101"
            fields["columns"] = ", ".join(s.partitioned_by)  # the condition is the primary's: see `_finding`
        elif rule_id == "DL106":
            fields.update(_optimize_fields(cell.outcome_for(s.isolation_level, True)))
        elif rule_id == "DL103":
            # a Serializable table may be told to use WriteSerializable only where the runtime has it
            fields["write_serializable"] = "yes" if "WriteSerializable" in self.profile.allowed_isolation else "no"
        if Kind.OPTIMIZE_ZORDER in (a.kind, b.kind):
            fields["clustering_ends_it"] = "yes" if self._clustering_ends_zorder(a, b, s) else "no"
        exceptions = cell.exceptions_of(a.kind.value, b.kind.value, bool(s.partitioned_by))
        return Pair(
            rule_id,
            verdict,
            exceptions[0] if exceptions else None,
            primary,
            other,
            table,
            conc,
            fields,
            notes,
        )

    def _settings_that_help(self, a: Intent, b: Intent, s: TableSettings) -> str:
        """The table settings a fix may propose for two writes on an unpartitioned table
        that conflict on files (": consider ..."), or "" when none would help: only
        ones the table does not have yet and that would give this pair row-level
        concurrency. A condition with a subquery, a runtime or Photon setting, or
        open-source Delta keeps the pair without it whatever the table's settings,
        and a ZORDER conflicts on files under any table settings but clustering
        (which replaces it)."""
        if Kind.OPTIMIZE_ZORDER in (a.kind, b.kind):
            return ": consider liquid clustering" if self._clustering_ends_zorder(a, b, s) else ""
        helps = []
        if not s.has_deletion_vectors and self.row_level(replace(s, deletion_vectors=True), a, b)[0]:
            helps.append("deletion vectors")
        if (
            not s.clustered_by
            and self.row_level(replace(s, clustered_by=("<columns>",), deletion_vectors=True), a, b)[0]
        ):
            helps.append("liquid clustering")
        return ": consider " + " or ".join(helps) if helps else ""

    def _clustering_ends_zorder(self, a: Intent, b: Intent, s: TableSettings) -> bool:
        """Whether moving the table to liquid clustering ends the conflict of a pair
        with a ZORDER: clustering replaces ZORDER BY (with deletion vectors, which its
        row-level concurrency needs), and the plain OPTIMIZE left still conflicts where
        the matrix cell says so with deletion vectors (open-source Delta). Asked only
        of tables not clustered yet: on a clustered one the ZORDER fails alone (DL130)
        and `_fails_alone` keeps it out of every pair."""
        moved = replace(s, clustered_by=("<columns>",), deletion_vectors=True)
        matrix = self.pack.matrices[ROW_LEVEL if self.row_level(moved, a, b)[0] else self.profile.matrix]
        cell = matrix.cell(a.op_class.value, b.op_class.value)
        return cell is None or cell.outcome_for(moved.isolation_level, True) in ("never", "zorder_only")

    def _non_explicit(
        self, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, granularity: str
    ) -> Intent | None:
        """The DML whose condition leaves the partition columns open while the other
        write is confined to partitions (or is another run of the same statement)."""
        if granularity != "same_files" or not s.partitioned_by:
            return None
        cols = frozenset(s.partitioned_by)
        for x, y in ((a, b), (b, a)):
            if x.kind not in (Kind.MERGE, Kind.UPDATE, Kind.DELETE) or Flag.READS_WHOLE_TARGET in x.flags:
                continue
            rx = region_of(x).restrict(cols)
            if rx.opaque or not rx.is_whole():
                continue
            ry = region_of(y).restrict(cols)
            if x is y or conc.distinct_runs or (not ry.opaque and not ry.is_whole()):
                return x
        return None

    def writes_protocol(self, x: Intent) -> bool:
        """Whether `x` commits a `protocol` action: a protocol change, or a metadata change
        the runtime's profile says upgrades the protocol of a table lacking its feature
        (`protocol_upgrading_alters`, rules/runtimes.yaml). When both commits of a pair do,
        the conflict checker fails the second on the protocol, which it checks before the
        metadata (open-source Delta: ConflictChecker.scala, checkProtocolCompatibility)."""
        if x.op_class == OpClass.PROTOCOL:
            return True
        return x.kind == Kind.METADATA_CHANGE and x.subkind in self.profile.protocol_upgrading_alters

    def spared_by_metadata_change(self, other: Intent, s: TableSettings) -> bool:
        """Whether the runtime's matrix says an ALTER TABLE never fails `other`'s class
        (rules/matrices.yaml: a `metadata change` cell that is `never`)."""
        cell = self.pack.matrices[self.profile.matrix].cell(OpClass.METADATA.value, other.op_class.value)
        return cell is not None and cell.outcome_for(s.isolation_level, s.has_deletion_vectors) == "never"

    def decided_by_rows(self, ca: OpClass, cb: OpClass, zorder: bool, s: TableSettings) -> bool:
        """On an unpartitioned table, for two writes that keep row-level concurrency:
        True when `verdict` returns None for two regions whose rows are disjoint (both
        matrix classes, no identity columns, and the row-level cell compares rows or
        never conflicts)."""
        if ca not in MATRIX_CLASSES or cb not in MATRIX_CLASSES or s.identity_columns:
            return False
        cell = self.pack.matrices[ROW_LEVEL].cell(ca.value, cb.value)
        if cell is None:
            return True
        outcome = cell.outcome_for(s.isolation_level, s.has_deletion_vectors)
        return outcome in ("same_rows", "never") or (outcome == "zorder_only" and not zorder)

    def decided_by_region(self, ca: OpClass, cb: OpClass, zorder: bool, s: TableSettings) -> bool:
        """True when `verdict` for these classes returns None for two regions that are
        disjoint: both matrix classes, no identity columns, and no cell that
        conflicts "always" (with or without row-level concurrency)."""
        if ca not in MATRIX_CLASSES or cb not in MATRIX_CLASSES or s.identity_columns:
            return False
        for name in (ROW_LEVEL, self.profile.matrix):
            cell = self.pack.matrices[name].cell(ca.value, cb.value)
            if cell is not None and cell.outcome_for(s.isolation_level, s.has_deletion_vectors) == "always":
                return False
        return True

    def classes_can_conflict(self, ca: OpClass, cb: OpClass, zorder: bool, s: TableSettings) -> bool:
        """False only when `verdict` returns None for every pair of these classes on
        this table: both in the matrices, no identity-column rule, and a cell that
        says never (or ZORDER only without a ZORDER) with and without row-level
        concurrency. Lets the engine skip the schedule for most pairs."""
        if ca not in MATRIX_CLASSES or cb not in MATRIX_CLASSES:
            return True
        if s.identity_columns:
            return True
        for name in (ROW_LEVEL, self.profile.matrix):
            cell = self.pack.matrices[name].cell(ca.value, cb.value)
            if cell is None:
                continue
            outcome = cell.outcome_for(s.isolation_level, s.has_deletion_vectors)
            if outcome == "never" or (outcome == "zorder_only" and not zorder):
                continue
            return True
        return False


# -- the rules ----------------------------------------------------------------------
#
# Each rule is a unit that declares the rules it reports (their ids in
# rules/rules.yaml), the intent fields and the table settings it reads; the engine
# calls the units of each kind, and tests/test_rule_cases.py holds every unit to its
# declarations and its case file. Four kinds, by what a rule is judged on:
#
# - `pair_rule`: a pair of intents that can run at the same time (the spec's check
#   order, section 7);
# - `readers_rule`: one write and the concurrent writes that may read what it adds;
# - `intent_rule`: one intent on its table;
# - `run_rule`: the run's intents across tables.
#
# Pair and readers rules are judged once per pair of classes of intents and their
# answers kept for the run (see `pairing`): every field they read must be part of
# the class key (`classes.BEHAVIOUR_FIELDS`, `pairing.SETTINGS_FIELDS`), or one
# pair would be given another's answer.


@dataclass(frozen=True)
class Unit:
    ids: tuple[str, ...]  # the rules whose findings it predicts (rules/rules.yaml)
    reads: frozenset[str]  # intent fields it reads
    settings: frozenset[str]  # table settings it reads
    judge: Any  # the rule: a function, or for a readers rule an object (`ReadersRule`)

    @property
    def name(self) -> str:
        return getattr(self.judge, "__name__", type(self.judge).__name__)


def _registry(into: list[Unit], ids: tuple[str, ...], reads: set[str], settings: set[str]):
    def register(rule):
        into.append(Unit(ids, frozenset(reads), frozenset(settings), rule))
        return rule

    return register


# -- pair rules, in the spec's check order ------------------------------------------
#
# Each judges a pair of intents that can run at the same time: a `Pair` (the
# conflict it predicts), None (no conflict: the pair is decided), or NEXT (not this
# unit's kind of pair: the next unit judges it). A finding's notes name what was
# assumed of the table's settings: every pair rule reads `note`.

NEXT = object()
Judgement = Callable[["Judge", Intent, Intent, TableSettings, Concurrency, str, list[str]], "Pair | None | object"]

PAIR_RULES: list[Unit] = []


def pair_rule(*ids: str, reads: set[str], settings: set[str] = set()) -> Callable[[Judgement], Judgement]:  # noqa: B006
    return _registry(PAIR_RULES, ids, reads, settings | {"note"})


# How a protocol change is made (the first word of its subkind) when it is open-source
# Delta's AlterTableSetPropertiesDeltaCommand: `ALTER TABLE ... SET TBLPROPERTIES`, and
# `DeltaTable.upgradeTableProtocol` / `addFeatureSupport`, which run that command
# (io/delta/tables/DeltaTable.scala). It commits metadata and protocol, and neither
# reads nor writes a data file (unlike DROP FEATURE, whose pre-downgrade steps may
# rewrite files, or a REORG applying an upgrade).
_SET_PROPERTIES = frozenset({"set", "upgradeTableProtocol", "addFeatureSupport"})


# The writes that can commit to a table that does not exist yet, creating it: the
# creates, and the DataFrame writes that create a missing table (an append or an
# overwrite by `saveAsTable` or `save`, a stream's sink). A SQL INSERT of these kinds
# fails on a missing table instead, but an intent does not say which API made it:
# both are taken to create it. A write that reads the target (MERGE, UPDATE, DELETE,
# an INSERT reading it), OPTIMIZE or a metadata change fails on a missing table.
_MAY_CREATE = frozenset(
    {
        Kind.CREATE,
        Kind.CREATE_OR_REPLACE,
        Kind.BLIND_APPEND,
        Kind.FULL_OVERWRITE,
        Kind.DYNAMIC_OVERWRITE,
        Kind.REPLACE_WHERE,
        Kind.STREAMING_WRITE,
    }
)


@pair_rule("DL114", reads={"kind", "flags"})
def _only_when_absent(j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]):
    """A write that runs only while its table does not exist (`only_when_absent`: the
    first run's create under `if not spark.catalog.tableExists(t)`) meets no write that
    needs the table: while it is absent their commits fail with "table not found", not
    a conflict, and once it exists the guarded write no longer runs. Judged first, as
    no metadata or protocol change can commit to a table that does not exist. It races
    only with another write creating the absent table (spec section 7: several writers
    creating a table or writing to an empty path fail with ProtocolChangedException),
    and only on that first run: data-dependent. Two runs of it at once both find the
    table absent and both create it, as DL114 reports two runs of one `IF NOT EXISTS`
    create; another write guarded the same way, or a `CREATE ... IF NOT EXISTS`, is
    left quiet, as DL114 leaves two `IF NOT EXISTS` creates."""
    first = next((x for x in (a, b) if Flag.ONLY_WHEN_ABSENT in x.flags), None)
    if first is None:
        return NEXT
    other = b if first is a else a
    if other is not first and (Flag.ONLY_WHEN_ABSENT in other.flags or Flag.IF_NOT_EXISTS in other.flags):
        return None
    if other is not first and other.kind not in _MAY_CREATE:
        return None
    why = (
        "the first-run write runs only while the table does not exist: it races only with a write creating it, "
        "on the run that finds the table absent"
    )
    return Pair("DL114", FIRST_RUN, "ProtocolChangedException", first, other, table, conc, notes=[*note, why])


@pair_rule("DL113", reads={"kind", "flags", "subkind"}, settings={"isolation_level", "deletion_vectors"})
def _protocol_change(j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]):
    """A protocol change fails every concurrent operation (the exception depends on how it is made),
    except an OPTIMIZE where the runtime spares it from metadata changes: open-source
    Delta's OPTIMIZE retries its commit after any concurrent commit as long as every file
    it compacted is still in the table and the partitioning is unchanged
    (OptimizeTableCommand.scala, `commitAndRetry`), which a property change keeps."""
    ca = a.op_class
    if OpClass.PROTOCOL not in (ca, b.op_class):
        return NEXT
    primary, other = (a, b) if ca == OpClass.PROTOCOL else (b, a)
    if other.op_class == OpClass.NONE and other is not primary:
        return None
    if (
        other.op_class == OpClass.OPTIMIZE
        and (primary.subkind or "").split(" ", 1)[0] in _SET_PROPERTIES
        and j.spared_by_metadata_change(other, s)
    ):
        return None
    # a protocol change always fails the other commit (the profile may say it only can)
    verdict = CERTAIN if j.profile.protocol_change_severity == "error" else DATA_DEPENDENT
    # both commits carry a protocol action: the protocol check, first, fails the second
    exc = "ProtocolChangedException" if j.writes_protocol(other) else j.profile.protocol_exception(primary.subkind)
    return Pair("DL113", verdict, exc, primary, other, table, conc, notes=note)


@pair_rule("DL114", reads={"kind", "flags"})
def _both_create(j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]):
    """Two creates of one table race, unless both only create it when it does not exist."""
    creates = [x for x in (a, b) if x.kind in (Kind.CREATE, Kind.CREATE_OR_REPLACE)]
    if len(creates) == 2:
        both_guarded = all(Flag.IF_NOT_EXISTS in x.flags for x in creates)
        # a plain CREATE fails the other only while the table does not exist yet
        first_create = any(x.kind == Kind.CREATE for x in creates)
        verdict = DATA_DEPENDENT if first_create else CERTAIN
        # two first creates both write a protocol; two replaces of a table that exists
        # may not (the runtime's `replace_exception`, rules/runtimes.yaml)
        exc = "ProtocolChangedException" if first_create else j.profile.replace_exception
        if not both_guarded:
            return Pair("DL114", verdict, exc, a, b, table, conc, notes=note)
        if a is b:  # two runs of one IF NOT EXISTS create: a no-op once the table exists
            why = (
                "IF NOT EXISTS commits nothing once the table exists: two runs race only on the first run, "
                "while the table does not exist yet"
            )
            return Pair("DL114", FIRST_RUN, exc, a, b, table, conc, notes=[*note, why])
    return NEXT


@pair_rule(
    "DL110",
    "DL111",
    "DL112",
    "DL114",
    reads={"kind", "flags", "table.is_path", "subkind", "added_columns", "row_columns"},
    settings={"declared_columns", "isolation_level", "deletion_vectors", "clustered_by"},
)
def _metadata_change(j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]):
    """A metadata change fails every concurrent write and stops a stream reading the table."""
    ca, cb = a.op_class, b.op_class
    if OpClass.METADATA not in (ca, cb):
        return NEXT
    if s.declared_columns and any(x.added_columns and set(x.added_columns) <= set(s.declared_columns) for x in (a, b)):
        # the workload's CREATE TABLE already has these columns: the ALTER fails
        # ("already exists") and commits nothing, so it fails no other commit
        return None
    primary, other = (a, b) if ca == OpClass.METADATA else (b, a)
    if ca == OpClass.METADATA and cb == OpClass.METADATA and _is_evolution(a) and not _is_evolution(b):
        primary, other = b, a
    if other.op_class == OpClass.NONE or _fails_alone(other, s):
        return None
    explicit = not _is_evolution(primary)
    if primary.kind == Kind.METADATA_CHANGE and j.spared_by_metadata_change(other, s):
        if primary.subkind != "add_constraint":
            return None
        # The runtime's OPTIMIZE survives the metadata change, but ADD CONSTRAINT reads
        # every file to check the existing rows (open-source Delta's
        # AlterTableAddConstraintDeltaCommand scans `txn.filterFiles()`): an OPTIMIZE
        # that commits first has rewritten files it read, and it fails the check for
        # added files (ConcurrentAppendException), whatever the partitions.
        notes = note + [
            f"{_role(other, primary)} retries; {_role(primary, primary)} reads every file to check the "
            "existing rows and fails when the OPTIMIZE rewrote them first"
        ]
        return Pair("DL110", CERTAIN, "ConcurrentAppendException", primary, other, table, conc, notes=notes)
    if other.op_class == OpClass.CREATE:
        if primary.kind == Kind.CREATE_OR_REPLACE and other.table and other.table.is_path:
            # only while the path holds no table yet
            return Pair("DL114", DATA_DEPENDENT, "ProtocolChangedException", primary, other, table, conc, notes=note)
        return None
    # a stream reading the table stops (DL112); any other write fails (DL110, DL111 when only possible)
    rule = "DL112" if other.op_class == OpClass.READ else "DL110" if explicit else "DL111"
    if primary.subkind in CATALOG_POLICIES and (
        other.subkind in CATALOG_POLICIES or other.kind != Kind.METADATA_CHANGE
    ):
        what = "column mask" if primary.subkind == "column_mask" else "row filter"
        why = (
            f"a {what} is Unity Catalog policy: whether setting it commits to the table's Delta log is not "
            "documented (Databricks names its concurrent change a catalog metadata change); only if it does "
            "is this a metadata change that fails the other write"
        )
        return Pair(rule, MAY_NOT_COMMIT, "MetadataChangedException", primary, other, table, conc, notes=[*note, why])
    # schema evolution changes the metadata only when the data brings new columns
    verdict = CERTAIN if explicit else DATA_DEPENDENT
    if not explicit and (why := _assumed_evolution(primary, s)):
        note = [*note, why]
    # two that both upgrade the protocol (two ADD CONSTRAINT on `oss`) fail on it first
    both_protocol = j.writes_protocol(primary) and j.writes_protocol(other)
    exc = "ProtocolChangedException" if both_protocol else "MetadataChangedException"
    return Pair(rule, verdict, exc, primary, other, table, conc, notes=note)


@pair_rule("DL114", reads={"kind", "flags", "table.is_path"})
def _create_with_write(
    j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]
):
    """A create races with a blind append to the same path (which would create the table too)."""
    ca = a.op_class
    if OpClass.CREATE not in (ca, b.op_class):
        return NEXT
    create, other = (a, b) if ca == OpClass.CREATE else (b, a)
    if other.table and other.table.is_path and other.op_class == OpClass.INSERT:
        # only while the path holds no table yet
        return Pair("DL114", DATA_DEPENDENT, "ProtocolChangedException", create, other, table, conc, notes=note)
    return None


@pair_rule("DL115", reads={"kind", "flags", "merge_clauses"}, settings={"identity_columns"})
def _identity_columns(j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]):
    """A table with identity columns takes no concurrent writers that insert rows."""
    if not (s.identity_columns and a.op_class in WRITE_CLASSES and b.op_class in WRITE_CLASSES):
        return NEXT
    inserting = [x for x in (a, b) if x.kind in ROW_INSERTING_KINDS or "not_matched_insert" in x.merge_clauses]
    # open-source Delta: only two inserting writers race for the identity high
    # watermark; any other pair is judged by the matrix (tests/oracle)
    both = j.profile.identity_conflicts == "both_insert"
    if inserting and (not both or len(inserting) == 2 or a is b):
        primary = inserting[0]
        other = b if primary is a else a
        fields = {"columns": ", ".join(s.identity_columns)}
        return Pair("DL115", CERTAIN, "MetadataChangedException", primary, other, table, conc, fields, note)
    return NEXT


@pair_rule(reads={"kind", "flags", "txn_app_id"})
def _shared_transaction(
    j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]
):
    """Two data writes that name one application (`txnAppId`, an option or the
    session's `spark.databricks.delta.write.txnAppId`): the second fails on the first
    one's SetTransaction (ConcurrentTransactionException) before its files are compared
    (open-source Delta 4.0.1: tests/oracle, "foreachBatch MERGE with txnAppId"), which
    the run rule DL121 reports; their files decide nothing more. A metadata, protocol or
    identity conflict, checked before, is still named."""
    app = a.txn_app_id
    data = (OpClass.INSERT, OpClass.DML)
    if app and "{" not in app and app == b.txn_app_id and a.op_class in data and b.op_class in data:
        return None
    return NEXT


@pair_rule(
    "DL101",
    "DL102",
    "DL103",
    "DL105",
    "DL106",
    "DL107",
    reads={"kind", "flags", "subkind", "zorder_by", "region", "read_region", "params"},
    settings={"partitioned_by", "clustered_by", "deletion_vectors", "isolation_level"},
)
def _matrix_cell(j: Judge, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str, note: list[str]):
    """INSERT, UPDATE/DELETE/MERGE and OPTIMIZE: the conflict matrices in rules/."""
    if _fails_alone(a, s) or _fails_alone(b, s):
        return None
    if a.op_class in MATRIX_CLASSES and b.op_class in MATRIX_CLASSES:
        return j._matrix_verdict(a, b, s, conc, table, note)
    return None


def _optimize_fields(with_deletion_vectors: str) -> dict[str, str]:
    """DL106's facts: whether enabling deletion vectors ends the conflict (`Messages`
    words the summary's reason and the fix's first step from it). Only where the
    matrix cell says so (an OPTIMIZE without ZORDER BY then never fails) is it
    proposed; on open-source Delta the cell conflicts with or without them, so a
    table that has them is not told to enable them, nor one that lacks them."""
    return {"deletion_vectors_end_it": "yes" if with_deletion_vectors in ("never", "zorder_only") else "no"}


def _fails_alone(x: Intent, s: TableSettings) -> bool:
    """An OPTIMIZE ... ZORDER BY on a liquid-clustered table fails before it commits
    (DL130 says so on its own), so it conflicts with nothing: pairing it would report
    the same broken statement twice, once as a race it can never run."""
    return x.kind == Kind.OPTIMIZE_ZORDER and bool(s.clustered_by)


# the appends whose schema evolution adds only the columns their rows bring
_EVOLVING_APPENDS = (Kind.BLIND_APPEND, Kind.INSERT_READING_TARGET)


def without_known_evolution(x: Intent, s: TableSettings) -> Intent:
    """`x` as a plain append when its schema evolution (mergeSchema, the session's
    autoMerge) cannot change the schema: every column its rows bring (`row_columns`, as
    the code states them) is one the workload's CREATE TABLE declares. Schema
    evolution changes the metadata only when the rows bring a column the table lacks
    (conflict-semantics: auto-merge is a metadata change when the schema changes)."""
    if (
        x.row_columns
        and s.declared_columns
        and x.kind in _EVOLVING_APPENDS
        and Flag.SCHEMA_EVOLUTION in x.flags
        and set(x.row_columns) <= set(s.declared_columns)
    ):
        return replace(x, flags=x.flags - {Flag.SCHEMA_EVOLUTION})
    return x


def _assumed_evolution(x: Intent, s: TableSettings) -> str:
    """Why a write with schema evolution is taken to change the schema."""
    if x.kind not in _EVOLVING_APPENDS:
        return ""
    if not x.row_columns:
        return "the columns its rows bring are not known: it is assumed to bring one the table lacks"
    if not s.declared_columns:
        return "the table's columns are not declared in the project: its rows are assumed to bring one it lacks"
    return ""


def _is_evolution(x: Intent) -> bool:
    return x.kind not in (Kind.METADATA_CHANGE, Kind.CREATE_OR_REPLACE) and Flag.SCHEMA_EVOLUTION in x.flags


def region_against(x: Intent, other: Intent) -> Region:
    """What of `x` a conflict with `other` depends on: an INSERT reading its own target
    fails on an append (which reads nothing, and fails on nothing) only where it reads,
    wherever its own rows land (open-source Delta 4.0.1: tests/oracle, "INSERT SELECT
    from the target"); against any other write, what it reads and writes together."""
    if x.read_region is not None and other.op_class == OpClass.INSERT:
        return x.read_region
    return region_of(x)


def region_of(x: Intent) -> Region:
    """What an intent reads or writes on the target, for disjointness."""
    if x.op_class == OpClass.INSERT:
        if Flag.STATIC_PARTITION in x.flags and x.region is not None:
            return x.region
        return OPAQUE  # appended rows can land anywhere
    return x.region if x.region is not None else WHOLE


def _primary(a: Intent, b: Intent, rule_id: str | None) -> tuple[Intent, Intent]:
    if rule_id == "DL103":
        return (a, b) if a.op_class == OpClass.DML else (b, a)
    if rule_id in ("DL105", "DL106"):
        if a.op_class == b.op_class:
            return (a, b) if a.kind == Kind.OPTIMIZE_ZORDER or b.kind != Kind.OPTIMIZE_ZORDER else (b, a)
        return (a, b) if a.op_class == OpClass.OPTIMIZE else (b, a)
    return (a, b)


def _same_value_params(a: Intent, b: Intent, columns: frozenset[str] | None) -> list[str]:
    """The parameters the two regions (on `columns`) compare with: what keeps two runs
    apart when they are told apart only by their parameters."""
    found: dict[str, None] = {}
    for x, y in ((a, b), (b, a)):
        region = region_against(x, y)
        if columns is not None:
            region = region.restrict(columns)
        for conj in region.conjuncts:
            for _, k in conj:
                for v in (*(k.values or ()), *(k.excluded or ())):
                    if v[0] == "param":
                        found[str(v[1])] = None
    return sorted(found)


def _role(x: Intent, primary: Intent) -> str:
    """How a reason names one of a pair's writes: the finding is at the primary."""
    return f"this {label(x)}" if x is primary else f"the other {label(x)}"


def _why_unknown(a: Intent, b: Intent, conc: Concurrency, primary: Intent) -> str:
    for x in (a, b):
        if region_of(x).opaque:
            if x.op_class == OpClass.INSERT:
                return f"{_role(x, primary)} can add rows to any partition"
            return f"the condition of {_role(x, primary)} cannot be read statically"
    if (a.params or b.params) and not conc.distinct_runs:
        return "they compare with parameters whose values may coincide"
    return "their conditions do not exclude each other"


# -- readers rules --------------------------------------------------------------------
#
# A readers rule reports a write together with the concurrent writes that may read
# what it adds, when such a reader has another concurrent reader it does not conflict
# with directly (a direct conflict is a pair rule's finding). `pairing` searches a
# table's classes for them: the rule answers its questions about single intents and
# pairs, and gives the verdict (a `Sig` without its overlap reason and basis).


class ReadersRule(ABC):
    """What a readers rule answers; `Engine._readers_of_writes` asks it."""

    @abstractmethod
    def applies(self, j: Judge, s: TableSettings) -> bool:
        """Whether the rule looks at this table at all."""

    @abstractmethod
    def writes(self, x: Intent) -> bool:
        """Whether x is a write the rule is about."""

    @abstractmethod
    def reader(self, x: Intent) -> bool:
        """Whether x is a write that may read what such a write adds."""

    @abstractmethod
    def may_read(self, j: Judge, w: Intent, r: Intent, s: TableSettings) -> bool:
        """Whether reader r, running with write w, may read what w adds."""

    @abstractmethod
    def apart(self, j: Judge, r1: Intent, r2: Intent, s: TableSettings, conc: Concurrency) -> bool:
        """Whether two readers that overlap as `conc` says do not conflict directly."""

    @abstractmethod
    def verdict(self, j: Judge, s: TableSettings) -> tuple:
        """A write's verdict on this table: a `Sig` without its overlap reason and basis (each
        reader's overlap gives it one)."""


READERS_RULES: list[Unit] = []


def readers_rule(*ids: str, reads: set[str], settings: set[str] = set()):  # noqa: B006
    def register(cls: type[ReadersRule]) -> type[ReadersRule]:
        _registry(READERS_RULES, ids, reads, settings | {"note"})(cls())
        return cls

    return register


@readers_rule(
    "DL104",
    reads={"kind", "flags", "region", "read_region"},
    settings={"isolation_level", "partitioned_by", "clustered_by", "deletion_vectors"},
)
class _AppendCaveat(ReadersRule):
    """The WriteSerializable caveat (spec section 7, ConcurrentAppendException): a
    blind append fails several concurrent UPDATE/DELETE/MERGE that may read the rows
    it adds, though it fails none of them alone."""

    def applies(self, j: Judge, s: TableSettings) -> bool:
        return s.isolation_level == "WriteSerializable"  # under Serializable a DML conflicts with any append

    def writes(self, x: Intent) -> bool:
        return x.op_class == OpClass.INSERT

    def reader(self, x: Intent) -> bool:
        return x.op_class == OpClass.DML

    def may_read(self, j: Judge, w: Intent, r: Intent, s: TableSettings) -> bool:
        # appended rows land anywhere unless the append is confined to partitions
        return j.overlap(w, r, frozenset(s.partitioned_by), False) != Overlap.DISJOINT

    def apart(self, j: Judge, r1: Intent, r2: Intent, s: TableSettings, conc: Concurrency) -> bool:
        rows = j.row_level(s, r1, r2)[0]
        cols = None if rows else frozenset(s.partitioned_by)
        return j.overlap(r1, r2, cols, conc.distinct_runs) == Overlap.DISJOINT

    def verdict(self, j: Judge, s: TableSettings) -> tuple:
        # the appended rows fail a reader only when it reads them
        return ("DL104", DATA_DEPENDENT, "ConcurrentAppendException", (), (s.note,) if s.note else ())


# -- intent rules -----------------------------------------------------------------------
#
# Each judges one intent on its table with its settings: the verdict (a `Sig`; the
# finding is at the intent and names no other write), or None.

IntentJudgement = Callable[["Judge", Intent, TableSettings], "Sig | None"]
INTENT_RULES: list[Unit] = []


def intent_rule(*ids: str, reads: set[str], settings: set[str] = set()) -> Callable[[IntentJudgement], IntentJudgement]:  # noqa: B006
    return _registry(INTENT_RULES, ids, reads, settings)


@intent_rule("DL130", reads={"kind"}, settings={"clustered_by"})
def _zorder_on_clustered(j: Judge, x: Intent, s: TableSettings) -> Sig | None:
    """ZORDER BY cannot be used on a liquid-clustered table: the statement fails (spec section 5)."""
    if s.clustered_by and x.kind == Kind.OPTIMIZE_ZORDER:
        return ("DL130", CERTAIN, None, (("columns", ", ".join(s.clustered_by)),), (), "", "")
    return None


# -- run rules --------------------------------------------------------------------------
#
# Each judges the run's intents across tables: the pairs it predicts. They see only
# the intents naming one of `model.SHARED_FIELDS` (a file summary keeps those), so
# each reads one of them.

RunJudgement = Callable[["Judge", list[Intent], Schedule], list[Pair]]
RUN_RULES: list[Unit] = []


def run_rule(*ids: str, reads: set[str]) -> Callable[[RunJudgement], RunJudgement]:
    return _registry(RUN_RULES, ids, reads, set())


@run_rule("DL120", reads={"checkpoint", "kind", "flags"})
def _shared_checkpoint(j: Judge, intents: list[Intent], schedule: Schedule) -> list[Pair]:
    """Streaming queries with one checkpoint location fail when started concurrently
    and both write (ConcurrentTransactionException, spec section 7). A write inside a
    foreachBatch function is part of its stream's query, counted at the sink."""

    def checkpoint(x: Intent) -> str | None:
        if x.kind in (Kind.STREAMING_WRITE, Kind.FULL_OVERWRITE) and Flag.PER_BATCH not in x.flags:
            return x.checkpoint
        return None

    return _sharing("DL120", intents, schedule, checkpoint)


@run_rule("DL121", reads={"txn_app_id"})
def _shared_txn_app_id(j: Judge, intents: list[Intent], schedule: Schedule) -> list[Pair]:
    """Idempotent writes name their application by txnAppId: two concurrent writers
    with one id conflict (ConcurrentTransactionException)."""
    return _sharing("DL121", intents, schedule, lambda x: x.txn_app_id)


def _sharing(
    rule: str, intents: list[Intent], schedule: Schedule, key_of: Callable[[Intent], str | None]
) -> list[Pair]:
    """The pairs of intents with one key that can run at the same time (each with
    another run of itself too; two of one job only in concurrent runs)."""
    groups: dict[str, list[Intent]] = defaultdict(list)
    for x in intents:
        key = key_of(x)
        # a value not known statically is equal to nothing, not to a namesake
        if key and "{" not in key:
            groups[key.rstrip("/")].append(x)
    out = []
    for key, members in sorted(groups.items()):
        members.sort(key=lambda i: i.location)
        for i, a in enumerate(members):
            for b in members[i:]:
                conc = schedule.overlap(a, b)
                if conc is None:
                    continue
                if a is not b and schedule.job(a) == schedule.job(b) and not conc.distinct_runs:
                    continue
                table = a.table.name if a.table else "-"
                out.append(
                    Pair(rule, CERTAIN, "ConcurrentTransactionException", a, b, table, conc, {"checkpoint": key})
                )
    return out
