"""The conflict engine: verdicts for every pair of overlapping intents on one table.

Decisions follow docs/conflict-semantics.md in its check order — protocol, metadata,
then the matrix cell (files added that were read, files removed that were read,
files removed twice). Cells, runtime profiles and rule texts come from `rules/`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

from delta_lint.config import Config
from delta_lint.model import ROW_INSERTING_KINDS, Diagnostic, Flag, Intent, Kind, Location, OpClass
from delta_lint.predicates import OPAQUE, WHOLE, Overlap, Region, overlap
from delta_lint.rulepack import Profile, RulePack, load
from delta_lint.schedule import Concurrency, Schedule
from delta_lint.settings import ReadSettings, TableSettings, qualify, resolve_settings

SEVERITY_ORDER = {"info": 0, "warning": 1, "error": 2}
_MATRIX_CLASSES = {OpClass.INSERT, OpClass.DML, OpClass.OPTIMIZE}
_WRITE_CLASSES = _MATRIX_CLASSES | {OpClass.METADATA, OpClass.PROTOCOL, OpClass.CREATE}


@dataclass(frozen=True)
class Finding:
    rule: str
    name: str
    severity: str
    exception: str | None
    table: str | None
    message: str
    location: Location
    related: tuple[Location, ...] = ()
    overlap: str = ""
    fix: str = ""
    settings_source: str | None = None  # live | snapshot | declared | ddl | assumed

    def to_json(self) -> dict:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "exception": self.exception,
            "table": self.table,
            "message": self.message,
            "location": self.location.to_json(),
            "related": [r.to_json() for r in self.related],
            "overlap": self.overlap,
            "fix": self.fix,
            "settings_source": self.settings_source,
        }

    def sort_key(self) -> tuple:
        return (self.location, self.rule, self.table or "", self.message, self.related)


@dataclass
class _Pair:
    """One predicted conflict between a primary intent and one other, before grouping."""

    rule: str
    severity: str
    exception: str | None
    primary: Intent
    other: Intent
    table: str
    concurrency: Concurrency
    fields: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


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


class Engine:
    """Pair analysis over one run's intents."""

    def __init__(
        self, config: Config, schedule: Schedule, pack: RulePack | None = None, read: ReadSettings | None = None
    ) -> None:
        self.config = config
        self.read = read
        self.schedule = schedule
        self.pack = pack or load()
        self.profile: Profile = self.pack.profile(config.runtime)
        self.internal_errors: list[Diagnostic] = []
        self.settings: dict[str, TableSettings] = {}

    # -- entry -----------------------------------------------------------------

    def check(self, intents: list[Intent]) -> list[Finding]:
        by_table = self.by_table(intents)
        settings = resolve_settings(set(by_table), intents, self.config, self.profile, self.read)
        self.settings = settings
        findings: list[Finding] = []
        for table in sorted(by_table):
            findings += self.check_table(table, by_table[table], settings[table])
        findings += self.check_shared(intents, {name: s.source for name, s in settings.items()})
        return sorted(findings, key=Finding.sort_key)

    def by_table(self, intents: list[Intent]) -> dict[str, list[Intent]]:
        """Resolved writes and streaming reads per qualified table name."""
        out: dict[str, list[Intent]] = defaultdict(list)
        for intent in intents:
            if intent.table is None or Flag.UNRESOLVED in intent.flags:
                continue
            out[qualify(intent.table.name, self.config.default_schema)].append(intent)
        return out

    def check_table(self, table: str, intents: list[Intent], s: TableSettings) -> list[Finding]:
        """The findings of one table: they depend only on its intents, its settings and
        the schedule of their files, so an incremental run can keep them per table."""
        group = sorted(intents, key=lambda i: i.location)
        pairs: list[_Pair] = []
        for rule_fn in (self._pairs_of_table, self._append_caveat):
            try:
                pairs += rule_fn(table, group, s)
            except Exception as err:  # noqa: BLE001 - one rule must not stop the others
                self._internal(group[0], rule_fn.__name__, err)
        findings = self._group(pairs) + self._zorder_on_clustered(table, group, s)
        return [replace(f, settings_source=s.source) for f in findings]

    def check_shared(self, intents: list[Intent], sources: dict[str, str]) -> list[Finding]:
        """Checkpoints and transaction ids shared across tables; `sources` gives the
        settings source of tables these findings name."""
        return [
            replace(f, settings_source=sources[f.table]) if f.table in sources else f
            for f in self._group(self._shared_ids(intents))
        ]

    def _internal(self, intent: Intent, where: str, err: Exception) -> None:
        self.internal_errors.append(
            Diagnostic(
                "DL002",
                intent.location,
                f"internal error in rule {where} ({type(err).__name__}: {err}); please report it",
                "error",
            )
        )

    # -- pair rules --------------------------------------------------------------

    def _pairs_of_table(self, table: str, group: list[Intent], s: TableSettings) -> list[_Pair]:
        """Every pair (in order) whose verdict is not None. Pairs the matrices never
        let conflict are skipped before the schedule is asked, and on partitioned
        tables two writes pinned to different literal partition values are never
        paired at all: writes are bucketed by those values, which keeps typical
        tables near-linear instead of quadratic."""
        out = []
        overlap_of = self.schedule.overlap
        for i, j in self._candidate_pairs(group, s):  # only pairs of classes that can conflict
            a, b = group[i], group[j]
            conc = overlap_of(a, b)
            if conc is None:
                continue
            pair = self.verdict(a, b, s, conc, table)
            if pair is not None:
                out.append(pair)
        return out

    def _candidate_pairs(self, group: list[Intent], s: TableSettings):
        """(i, j), i <= j, in order, leaving out pairs of classes that never conflict
        and, on partitioned tables, pairs decided by the files or rows they touch
        whose partition literals differ."""
        column = s.partitioned_by[0] if s.partitioned_by else None
        keys = [_literal_keys(x, column) if column else None for x in group]
        classes: dict[tuple, list[int]] = defaultdict(list)
        for index, x in enumerate(group):
            classes[(x.op_class, x.kind == Kind.OPTIMIZE_ZORDER)].append(index)
        buckets: dict[tuple, dict[str, list[int]]] = {c: defaultdict(list) for c in classes}
        wildcards: dict[tuple, list[int]] = {c: [] for c in classes}
        for c, members in classes.items():
            for index in members:
                if keys[index] is None:
                    wildcards[c].append(index)
                else:
                    for k in keys[index]:
                        buckets[c][k].append(index)
        verdicts: dict[tuple, tuple[bool, bool]] = {}
        for i, a in enumerate(group):
            partners: set[int] = set()
            for c, members in classes.items():
                pair_kind = (a.op_class, c[0], c[1] or a.kind == Kind.OPTIMIZE_ZORDER)
                if pair_kind not in verdicts:
                    verdicts[pair_kind] = (
                        self._classes_can_conflict(*pair_kind, s),
                        self._decided_by_region(*pair_kind, s),
                    )
                can_conflict, by_region = verdicts[pair_kind]
                if not can_conflict:
                    continue
                if keys[i] is None or not by_region:
                    partners.update(j for j in members if j >= i)
                    continue
                partners.update(j for j in wildcards[c] if j >= i)
                for k in keys[i]:
                    partners.update(j for j in buckets[c].get(k, ()) if j >= i)
            yield from ((i, j) for j in sorted(partners))

    def _decided_by_region(self, ca: OpClass, cb: OpClass, zorder: bool, s: TableSettings) -> bool:
        """True when `verdict` for these classes returns None for two regions that are
        disjoint: both matrix classes, no identity columns, and no cell that
        conflicts "always" (with or without row-level concurrency)."""
        if ca not in _MATRIX_CLASSES or cb not in _MATRIX_CLASSES or s.identity_columns:
            return False
        for name in ("row_level", self.profile.matrix):
            cell = self.pack.matrices[name].cell(ca.value, cb.value)
            if cell is not None and cell.outcome_for(s.isolation_level, s.has_deletion_vectors) == "always":
                return False
        return True

    def _classes_can_conflict(self, ca: OpClass, cb: OpClass, zorder: bool, s: TableSettings) -> bool:
        """False only when `verdict` returns None for every pair of these classes on
        this table: both in the matrices, no identity-column rule, and a cell that
        says never (or ZORDER only without a ZORDER) with and without row-level
        concurrency. Lets the engine skip the schedule for most pairs."""
        if ca not in _MATRIX_CLASSES or cb not in _MATRIX_CLASSES:
            return True
        if s.identity_columns:
            return True
        for name in ("row_level", self.profile.matrix):
            cell = self.pack.matrices[name].cell(ca.value, cb.value)
            if cell is None:
                continue
            outcome = cell.outcome_for(s.isolation_level, s.has_deletion_vectors)
            if outcome == "never" or (outcome == "zorder_only" and not zorder):
                continue
            return True
        return False

    def verdict(self, a: Intent, b: Intent, s: TableSettings, conc: Concurrency, table: str) -> _Pair | None:
        """The first conflict check that fails, in the spec's order (section 7)."""
        ca, cb = a.op_class, b.op_class
        classes = {ca, cb}
        note = [s.note] if s.note else []
        if OpClass.PROTOCOL in classes:
            primary, other = (a, b) if ca == OpClass.PROTOCOL else (b, a)
            if other.op_class == OpClass.NONE and other is not primary:
                return None
            sev = self.profile.protocol_change_severity
            return _Pair("DL113", sev, "ProtocolChangedException", primary, other, table, conc, notes=note)
        creates = [x for x in (a, b) if x.kind in (Kind.CREATE, Kind.CREATE_OR_REPLACE)]
        if len(creates) == 2:
            both_guarded = all(Flag.IF_NOT_EXISTS in x.flags for x in creates)
            sev = "warning" if any(x.kind == Kind.CREATE for x in creates) else "error"
            if not both_guarded or a is b:
                return _Pair("DL114", sev, "ProtocolChangedException", a, b, table, conc, notes=note)
        if OpClass.METADATA in classes:
            primary, other = (a, b) if ca == OpClass.METADATA else (b, a)
            if ca == OpClass.METADATA and cb == OpClass.METADATA and _is_evolution(a) and not _is_evolution(b):
                primary, other = b, a
            if other.op_class == OpClass.NONE:
                return None
            explicit = not _is_evolution(primary)
            if other.op_class == OpClass.CREATE:
                if primary.kind == Kind.CREATE_OR_REPLACE and other.table and other.table.is_path:
                    return _Pair(
                        "DL114", "warning", "ProtocolChangedException", primary, other, table, conc, notes=note
                    )
                return None
            # a stream reading the table stops (DL112); any other write fails (DL110, DL111 when only possible)
            rule = "DL112" if other.op_class == OpClass.READ else "DL110" if explicit else "DL111"
            severity = "error" if explicit else "warning"
            return _Pair(rule, severity, "MetadataChangedException", primary, other, table, conc, notes=note)
        if OpClass.CREATE in classes:
            create, other = (a, b) if ca == OpClass.CREATE else (b, a)
            if other.table and other.table.is_path and other.op_class == OpClass.INSERT:
                return _Pair("DL114", "warning", "ProtocolChangedException", create, other, table, conc, notes=note)
            return None
        if s.identity_columns and ca in _WRITE_CLASSES and cb in _WRITE_CLASSES:
            inserting = [x for x in (a, b) if x.kind in ROW_INSERTING_KINDS or "not_matched_insert" in x.merge_clauses]
            if inserting:
                primary = inserting[0]
                other = b if primary is a else a
                return _Pair(
                    "DL115",
                    "error",
                    "MetadataChangedException",
                    primary,
                    other,
                    table,
                    conc,
                    fields={"columns": ", ".join(s.identity_columns)},
                    notes=note,
                )
        if ca in _MATRIX_CLASSES and cb in _MATRIX_CLASSES:
            return self._matrix_verdict(a, b, s, conc, table, note)
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
                if "explicit_target_predicate" in p.merge_requires and _region(x).is_whole():
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
    ) -> _Pair | None:
        rlc, why_not, why_about = self.row_level(s, a, b)
        matrix = self.pack.matrices["row_level" if rlc else self.profile.matrix]
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
            result = overlap(_region(a), _region(b), cols, conc.distinct_runs)
        if result == Overlap.DISJOINT:
            return None
        primary, other = _primary(a, b, rule_id)
        severity = "error" if result == Overlap.OVERLAP else "warning"
        explicit = self._non_explicit(a, b, s, conc, granularity)
        if explicit is not None:
            primary, other = explicit, (b if explicit is a else a)
        matrix_note = f"{matrix.title}, {s.isolation_level}"
        if not rlc and why_not and self.profile.matrix != "oss" and (s.clustered_by or s.has_deletion_vectors):
            if why_about is not None:
                why_not = f"{_role(why_about, primary)} {why_not}"
            matrix_note += f"; row-level concurrency does not apply: {why_not}"
        unit = "rows" if granularity == "same_rows" else "files"
        disjoint_on = (
            ", ".join(s.partitioned_by)
            if granularity == "same_files" and s.partitioned_by
            else (
                "the columns their conditions filter on"
                if granularity == "same_rows"
                else "partition columns (the table is unpartitioned: consider deletion vectors or liquid clustering)"
            )
        )
        fields = {"unit": unit, "matrix": matrix_note, "disjoint_on": disjoint_on}
        if result == Overlap.UNKNOWN:
            notes = notes + [f"could not prove the two touch different {unit}: {_why_unknown(a, b, conc, primary)}"]
        if explicit is not None:
            rule_id = "DL101"
            fields["columns"] = ", ".join(s.partitioned_by)
            fields["condition"] = _explicit_condition(primary, s)
        return _Pair(
            rule_id,
            severity,
            cell.exceptions[0] if cell.exceptions else None,
            primary,
            other,
            table,
            conc,
            fields,
            notes,
        )

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
            rx = _region(x).restrict(cols)
            if rx.opaque or not rx.is_whole():
                continue
            ry = _region(y).restrict(cols)
            if x is y or conc.distinct_runs or (not ry.opaque and not ry.is_whole()):
                return x
        return None

    def _append_caveat(self, table: str, group: list[Intent], s: TableSettings) -> list[_Pair]:
        """WriteSerializable caveat: one blind append, several concurrent DML that may read it."""
        if s.isolation_level != "WriteSerializable":
            return []
        out = []
        appends = [x for x in group if x.op_class == OpClass.INSERT]
        dmls = [x for x in group if x.op_class == OpClass.DML]
        cols = frozenset(s.partitioned_by)
        if not appends or not dmls:
            return []
        disjoint_pairs: dict[tuple[int, int], bool] = {}  # the same DML pairs recur for every append

        def concurrent_and_disjoint(d1: Intent, d2: Intent) -> bool:
            memo = (id(d1), id(d2))
            if memo not in disjoint_pairs:
                conc12 = self.schedule.overlap(d1, d2)
                if conc12 is None:
                    disjoint_pairs[memo] = False
                else:
                    rlc = self.row_level(s, d1, d2)[0]
                    cols12 = None if rlc else cols
                    disjoint_pairs[memo] = (
                        overlap(_region(d1), _region(d2), cols12, conc12.distinct_runs) == Overlap.DISJOINT
                    )
            return disjoint_pairs[memo]

        reported_of: dict[tuple[int, ...], list[int]] = {}  # appends often share their readers
        for app in appends:
            readers = []
            for d in dmls:
                conc = self.schedule.overlap(app, d)
                if conc is not None and overlap(_region(app), _region(d), cols, False) != Overlap.DISJOINT:
                    readers.append((d, conc))
            # A reader is reported when another concurrent reader does not conflict with it
            # directly (the pair is concurrent and disjoint; a DML conflict is reported
            # otherwise). The relation is symmetric, so the reported readers depend only on
            # the set of readers.
            key = tuple(id(d) for d, _ in readers)
            reported = reported_of.get(key)
            if reported is None:
                reported = reported_of[key] = [
                    i for i, (d1, _) in enumerate(readers) if any(concurrent_and_disjoint(d1, d2) for d2, _ in readers)
                ]
            note = [s.note] if s.note else []
            for i in reported:
                d, conc = readers[i]
                out.append(_Pair("DL104", "warning", "ConcurrentAppendException", app, d, table, conc, notes=note))
        return out

    def _shared_ids(self, intents: list[Intent]) -> list[_Pair]:
        """Streaming queries sharing a checkpoint; writers sharing a txnAppId."""
        out = []
        for attr, rule in (("checkpoint", "DL120"), ("txn_app_id", "DL121")):
            groups: dict[str, list[Intent]] = defaultdict(list)
            for x in intents:
                key = getattr(x, attr)
                if key and (attr == "txn_app_id" or x.kind in (Kind.STREAMING_WRITE, Kind.FULL_OVERWRITE)):
                    if attr == "checkpoint" and Flag.PER_BATCH in x.flags:
                        continue
                    groups[key.rstrip("/")].append(x)
            for key, members in sorted(groups.items()):
                members.sort(key=lambda i: i.location)
                for i, a in enumerate(members):
                    for b in members[i:]:
                        conc = self.schedule.overlap(a, b)
                        if conc is None or (conc.distinct_runs and "{" in key):
                            continue
                        if a is not b and self.schedule.job(a) == self.schedule.job(b) and not conc.distinct_runs:
                            continue
                        table = a.table.name if a.table else "-"
                        out.append(
                            _Pair(
                                rule, "error", "ConcurrentTransactionException", a, b, table, conc, {"checkpoint": key}
                            )
                        )
        return out

    def _zorder_on_clustered(self, table: str, group: list[Intent], s: TableSettings) -> list[Finding]:
        if not s.clustered_by:
            return []
        rule = self.pack.rules["DL130"]
        out = []
        for x in group:
            if x.kind == Kind.OPTIMIZE_ZORDER:
                fields = {"table": table, "columns": ", ".join(s.clustered_by)}
                out.append(
                    Finding(
                        rule.id,
                        rule.name,
                        "error",
                        None,
                        table,
                        rule.summary.format_map(_Fields(fields)),
                        x.location,
                        (),
                        "",
                        rule.fix.format_map(_Fields(fields)),
                    )
                )
        return out

    # -- grouping and rendering --------------------------------------------------------------

    def _group(self, pairs: list[_Pair]) -> list[Finding]:
        groups: dict[tuple, list[_Pair]] = defaultdict(list)
        for p in pairs:
            groups[(p.rule, p.primary.location, p.table, p.exception, p.severity)].append(p)
        out = []
        for (rule_id, _loc, table, exception, severity), members in groups.items():
            rule = self.pack.rules[rule_id]
            first = members[0]
            others = sorted({m.other.location: m.other for m in members}.values(), key=lambda i: i.location)
            other_labels = ", ".join(
                dict.fromkeys(
                    label(o) + (f" at {o.location}" if o is not first.primary else " (another run)") for o in others
                )
            )
            fields = {
                "this": label(first.primary),
                "others": other_labels,
                "table": table,
                "columns": "",
                "unit": "files",
                "matrix": "",
                "disjoint_on": "",
                "condition": "",
                "checkpoint": "",
                **first.fields,
            }
            message = rule.summary.format_map(_Fields(fields))
            notes = list(dict.fromkeys(n for m in members for n in m.notes if n))
            if notes:
                message += " (" + "; ".join(notes) + ")"
            overlaps = "; ".join(dict.fromkeys(m.concurrency.reason for m in members))
            out.append(
                Finding(
                    rule_id,
                    rule.name,
                    severity,
                    exception,
                    table,
                    message,
                    first.primary.location,
                    tuple(o.location for o in others),
                    overlaps,
                    rule.fix.format_map(_Fields(fields)),
                )
            )
        return out


class _Fields(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _is_evolution(x: Intent) -> bool:
    return x.kind not in (Kind.METADATA_CHANGE, Kind.CREATE_OR_REPLACE) and Flag.SCHEMA_EVOLUTION in x.flags


def _literal_keys(x: Intent, column: str) -> frozenset[str] | None:
    """The literal values an intent's region pins `column` to, as comparison keys;
    None when it is not pinned to literals in every conjunct. Numbers get their
    float form as a second key and every value its text, so values the predicate
    engine might find equal (1, 1.0, '1') always share a key."""
    region = _region(x)
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


def _region(x: Intent) -> Region:
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


def _role(x: Intent, primary: Intent) -> str:
    """How a reason names one of a pair's writes: the finding is at the primary."""
    return f"this {label(x)}" if x is primary else f"the other {label(x)}"


def _why_unknown(a: Intent, b: Intent, conc: Concurrency, primary: Intent) -> str:
    for x in (a, b):
        if _region(x).opaque:
            if x.op_class == OpClass.INSERT:
                return f"{_role(x, primary)} can add rows to any partition"
            return f"the condition of {_role(x, primary)} cannot be read statically"
    if (a.params or b.params) and not conc.distinct_runs:
        return "they compare with parameters whose values may coincide"
    return "their conditions do not exclude each other"


def _explicit_condition(x: Intent, s: TableSettings) -> str:
    """The condition with explicit `t.<col> = <value or parameter>` terms added."""
    alias = x.target_alias or (x.table.name.split(".")[-1] if x.table else "t")
    constrained = _region(x).columns()
    terms = []
    for col in s.partitioned_by:
        if col in constrained:
            continue
        param = next((p for p in x.params if p.lower() == col or col in p.lower()), None)
        value = (":" + param) if param else f"<{col} value or parameter>"
        terms.append(f"{alias}.{col} = {value}")
    base = x.predicate_sql or "TRUE"
    return f"{base} AND " + " AND ".join(terms)


def diagnostics_as_findings(diagnostics: list[Diagnostic], pack: RulePack | None = None) -> list[Finding]:
    pack = pack or load()
    out = []
    for d in diagnostics:
        rule = pack.rules.get(d.rule)
        out.append(
            Finding(
                d.rule,
                rule.name if rule else d.rule,
                d.severity,
                None,
                None,
                d.message,
                d.location,
                (),
                "",
                rule.fix if rule else "",
            )
        )
    return out
