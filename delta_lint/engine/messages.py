"""Findings from verdicts: one finding per primary location and rule, naming the
other writes (at most SHOWN_OTHERS of them), with the rule's message and fix
templates filled in."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable
from itertools import chain
from operator import itemgetter

from delta_lint.engine.classes import Classes, Found, location_key
from delta_lint.engine.judgement import (
    CERTAIN,
    DATA_DEPENDENT,
    FIRST_RUN,
    MAY_NOT_COMMIT,
    READERS_RULES,
    Pair,
    Sig,
    label,
    region_of,
)
from delta_lint.model import Diagnostic, Finding, Intent, Kind, Location
from delta_lint.rulepack import RulePack, load
from delta_lint.schedule import ASSUMED_TWICE, CODE, LONGER_RUN, SAME_VALUE
from delta_lint.settings import TableSettings

# A finding names at most this many other writes, in location order, in its message
# and its related locations; the rest are counted ("and N more"). Without a limit, a
# script of 2,000 statements whose runs overlap gives 2,000 findings of 2,000 others
# each (170 MB of JSON), and code scanning rejects a result of over 1,000 locations.
SHOWN_OTHERS = 20

# A conflict finding's severity, by what its overlap rests on (a schedule that shows
# the two runs meet, or an assumption: a side with no known schedule) and its
# verdict (files always shared, or the same rows or partitions only for some data).
# `error` means "fails whenever both run, and a schedule shows they do": the CI gate
# fails on it by default. Each doubt lowers the finding one step, so a pair that meets
# only by assumption *and* only for some data is `info`. An overlap assumed on two
# counts (`ASSUMED_TWICE`: a second run of a job someone starts by hand, that only a
# default of a development deployment or of the platform allows) is two steps
# down: `info` whatever the verdict, so the default `--fail-on warning` does not
# fail every project on a development target of the default bundle template. An
# intent rule judges no overlap (basis ""): a statement that always fails is an
# error on its own.
SEVERITY: dict[tuple[str, str], str] = {
    ("schedule", CERTAIN): "error",
    ("schedule", DATA_DEPENDENT): "warning",
    ("assumed", CERTAIN): "warning",
    ("assumed", DATA_DEPENDENT): "info",
    (ASSUMED_TWICE, CERTAIN): "info",
    (ASSUMED_TWICE, DATA_DEPENDENT): "info",  # the lowest: three doubts are still info
    # apart only while two runs' parameter values differ (`SAME_VALUE`): the schedule
    # shows the runs meet, a fan-out by value is the documented way to run them
    # concurrently, and they meet on one value only through a run given the same one
    # by hand or twice: shown, never failing the default gate
    (SAME_VALUE, CERTAIN): "info",
    (SAME_VALUE, DATA_DEPENDENT): "info",
    # cron runs that meet only if one lasts longer than its assumed duration
    (LONGER_RUN, CERTAIN): "info",
    (LONGER_RUN, DATA_DEPENDENT): "info",
    (CODE, CERTAIN): "error",  # one run makes both at once (a thread pool): no schedule needed
    (CODE, DATA_DEPENDENT): "warning",
    ("", CERTAIN): "error",
    ("", DATA_DEPENDENT): "warning",
    # a race only the first run meets, while the table does not exist yet (FIRST_RUN),
    # and a pair whose one side may commit nothing to the table's log (MAY_NOT_COMMIT)
    **{
        (basis, verdict): "info"
        for basis in ("schedule", "assumed", ASSUMED_TWICE, SAME_VALUE, LONGER_RUN, CODE, "")
        for verdict in (FIRST_RUN, MAY_NOT_COMMIT)
    },
}


def severity(basis: str, verdict: str) -> str:
    """The one place a conflict finding's severity is decided (see `SEVERITY`)."""
    return SEVERITY[(basis, verdict)]


class Messages:
    """Makes findings for one run; fix texts, which many findings share, are kept."""

    def __init__(self, pack: RulePack) -> None:
        self.pack = pack
        self._fixes: dict[tuple, str] = {}
        # the readers rules' writes of one class alone in their files share one list
        # of reported readers (see `Engine._readers_of_writes`)
        self._shared_others = frozenset(rule for unit in READERS_RULES for rule in unit.ids)

    def intent_findings(self, table: str, s: TableSettings, verdicts: list[tuple[Intent, Sig]]) -> list[Finding]:
        """Findings of the intent rules: each at its intent, naming no other write."""
        return [self.finding(sig[0], sig[2], table, x, [sig], (), "", s) for x, sig in verdicts]

    def table_findings(self, table: str, classes: Classes, s: TableSettings, found: Found) -> list[Finding]:
        """One finding per primary location, rule, exception, severity and claim (see
        `claim`), listing every other write of its pairs. Others are index lists cut from the classes' sorted
        members, so a table with thousands of conflicting pairs costs list slices."""
        for per_sig in chain(found.sliced.values(), found.in_file.values()):
            for before, after in per_sig.values():
                before.sort()
                after.sort()
        groups: dict[tuple, list[tuple[int, int, Sig, list[int]]]] = defaultdict(list)
        # what a message claims of every write it names: the conflict matrix (with or
        # without row-level concurrency, and why not) and whether the writes meet on
        # rows or on files; pairs that differ in it get findings of their own
        claims: dict[tuple, tuple[str, str]] = {}

        def claim(fields: tuple[tuple[str, str], ...]) -> tuple[str, str]:
            found = claims.get(fields)
            if found is None:
                named = dict(fields)
                found = claims[fields] = (named.get("matrix", ""), named.get("unit", ""))
            return found

        sliced, in_file, fixed = found.sliced, found.in_file, found.fixed
        for p, (c, fs, fe, at) in enumerate(zip(classes.cls, classes.file_start, classes.file_end, classes.first_at)):
            per_sig = sliced.get(c)
            if per_sig:
                for sig, (before, after) in per_sig.items():
                    others = before[: bisect_left(before, fs)] if before else []
                    if after:
                        k = bisect_left(after, fe)
                        others = others + after[k:] if others else after[k:]
                    if others:
                        groups[(at, sig[0], sig[2], sig[1], sig[6], claim(sig[3]))].append((others[0], p, sig, others))
            per_sig = in_file.get(c)
            if per_sig:  # the members of its own file before it, or after it
                for sig, (before, after) in per_sig.items():
                    others = before[bisect_left(before, fs) : bisect_left(before, p)] if before else []
                    if after:
                        tail = after[bisect_right(after, p) : bisect_left(after, fe)]
                        others = others + tail if others else tail
                    if others:
                        groups[(at, sig[0], sig[2], sig[1], sig[6], claim(sig[3]))].append((others[0], p, sig, others))
            if p in fixed:
                for sig, others in fixed[p]:
                    groups[(at, sig[0], sig[2], sig[1], sig[6], claim(sig[3]))].append((others[0], p, sig, others))
        labels, tags = classes.labels() if groups else ([], [])
        group, locations = classes.group, classes.locations
        # Findings whose parts share one list of others (see `_shared_others`)
        # differ only in location.
        made: dict[int, Finding] = {}
        out = []
        for (_at, rule_id, exception, _verdict, basis, _claim), parts in groups.items():
            if len(parts) > 1:
                parts.sort(key=_pair_order)
                others = sorted(chain.from_iterable(part[3] for part in parts))
            else:
                others = parts[0][3]
                like = made.get(id(others))
                if like is not None:
                    out.append(_moved(like, group[parts[0][1]].location))
                    continue
            this_index = parts[0][1]
            this = group[this_index]
            if classes.duplicate_locations:  # each other once, each location once
                others = sorted(set(others))
                shown = others
            else:  # only the shown others are looked at: a long list costs a slice
                shown = others[:SHOWN_OTHERS]
            named = list(map(tags.__getitem__, shown))
            k = bisect_left(others, this_index)
            if k < len(named) and others[k] == this_index:
                # the same write in another run, or in another call of a thread pool's run
                named[k] = f"{labels[this_index]} ({'another call' if basis == CODE else 'another run'})"
            if classes.duplicate_locations:  # texts of distinct intents differ by location, unless two share one
                named = list(dict.fromkeys(named))
                text = _named(named, len(named))
                related, related_more = _kept(list(dict.fromkeys(map(locations.__getitem__, others))))
            else:
                text = _named(named, len(others))
                related, related_more = _kept(list(map(locations.__getitem__, shown)), len(others))
            out.append(
                self.finding(
                    rule_id,
                    exception,
                    table,
                    this,
                    [part[2] for part in parts],
                    related,
                    text,
                    s,
                    labels[this_index],
                    related_more=related_more,
                )
            )
            if rule_id in self._shared_others and len(parts) == 1 and not classes.duplicate_locations:
                made[id(others)] = out[-1]
        return out

    def pair_findings(self, pairs: list[Pair], sources: dict[str, str]) -> list[Finding]:
        """Findings of pairs listed one by one (shared checkpoints and transaction ids)."""
        groups: dict[tuple, list[Pair]] = defaultdict(list)
        for pair in pairs:
            key = (pair.rule, pair.primary.location, pair.table, pair.exception, pair.verdict, pair.concurrency.basis)
            groups[key].append(pair)
        out = []
        for (rule_id, _loc, table, exception, _verdict, _basis), members in groups.items():
            this = members[0].primary
            others = sorted({id(m.other): m.other for m in members}.values(), key=location_key)
            texts = list(
                dict.fromkeys(label(o) + (f" at {o.location}" if o is not this else " (another run)") for o in others)
            )
            related, related_more = _kept(list(dict.fromkeys(o.location for o in others)))
            sigs = [m.sig() for m in members]
            out.append(
                self.finding(
                    rule_id,
                    exception,
                    table,
                    this,
                    sigs,
                    related,
                    _named(texts, len(texts)),
                    None,
                    source=sources.get(table),
                    related_more=related_more,
                )
            )
        return out

    def finding(
        self,
        rule_id: str,
        exception: str | None,
        table: str,
        this: Intent,
        sigs: list[Sig],
        related: tuple[Location, ...],
        others: str,
        s: TableSettings | None,
        this_label: str = "",
        source: str | None = None,
        related_more: int = 0,
    ) -> Finding:
        """The finding at `this`: fields from the first pair's verdict (`sigs` in pair
        order), notes and overlap reasons from all of them; its severity from the
        verdict and overlap basis they share (`severity`)."""
        rule = self.pack.rules[rule_id]
        fields = _Fields(_BASE_FIELDS, this=this_label or label(this), others=others, table=table)
        fields.update(sigs[0][3])
        if len(sigs) > 1 and fields["disjoint_on"].startswith(_UNPARTITIONED):
            # pairs whose blockers differ: only a setting that helps every pair may be proposed
            fields["disjoint_on"] = _helping_all(dict(sig[3]).get("disjoint_on", "") for sig in sigs)
        if rule_id == "DL101" and s is not None:
            fields["condition"] = _explicit_condition(this, s)
        elif rule_id == "DL106":
            # deletion vectors are proposed only where they end every pair's conflict
            fields["optimize_why"], enable_dv = _OPTIMIZE_TEXTS[_every(sigs, "deletion_vectors_end_it")]
            fields["enable_dv"] = enable_dv.format(table=table)
        elif rule_id == "DL103":
            fields["isolation_step"] = _ISOLATION_STEPS[_every(sigs, "write_serializable")]
        message = rule.summary.format_map(fields)
        if len(sigs) == 1:
            notes, reasons = sigs[0][4], sigs[0][5]
        else:
            # thousands of pairs share a handful of note tuples: those are merged
            notes = tuple(dict.fromkeys(chain.from_iterable(dict.fromkeys(map(itemgetter(4), sigs)))))
            reasons = "; ".join(dict.fromkeys(map(itemgetter(5), sigs)))
        if notes:
            message += " (" + "; ".join(notes) + ")"
        # many findings share a fix text (it never names the others)
        fix_rule = rule
        if rule_id == "DL106" and this.kind == Kind.OPTIMIZE_ZORDER:
            # deletion vectors do not stop a ZORDER's conflicts: its own fix applies
            fix_rule = self.pack.rules["DL105"]
        if fix_rule.id == "DL105":
            # liquid clustering is proposed only where it ends every pair's conflict
            fields["or_restrict"], fields["to_clustering"] = _ZORDER_STEPS[_every(sigs, "clustering_ends_it")]
        fix_key = (
            fix_rule.id,
            sigs[0][3],
            table,
            fields["this"],
            fields["condition"],
            fields["disjoint_on"],
            fields["enable_dv"],
            fields["isolation_step"],
            fields["to_clustering"],
        )
        fix = self._fixes.get(fix_key)
        if fix is None:
            fix = self._fixes[fix_key] = fix_rule.fix.format_map(fields)
        verdict, basis = sigs[0][1], sigs[0][6]
        return Finding(
            rule_id,
            rule.name,
            severity(basis, verdict),
            exception,
            table,
            message,
            this.location,
            related,
            reasons,
            fix,
            s.source if s is not None else source,
            related_more,
            basis or None,
            verdict if basis else None,  # an intent rule's finding judges no overlap
        )


_BASE_FIELDS = {
    "columns": "",
    "unit": "files",
    "matrix": "",
    "disjoint_on": "",
    "condition": "",
    "checkpoint": "",
    "enable_dv": "",
    "isolation_step": "",
    "or_restrict": "",
    "to_clustering": "",
}

# DL106's reason in its summary and the first step of its fix, by whether enabling
# deletion vectors ends the conflict (the verdict's `deletion_vectors_end_it`). The
# table is named here, not in the verdict, which tables with equal settings share.
_OPTIMIZE_TEXTS = {
    True: (
        "no deletion vectors",
        "Enable deletion vectors (ALTER TABLE {table} SET TBLPROPERTIES ('delta.enableDeletionVectors' = true)), ",
    ),
    False: (
        "deletion vectors or not, on this runtime",
        "Deletion vectors do not prevent this conflict on this runtime: ",
    ),
}

# DL103's first step, by whether the runtime has WriteSerializable (the verdict's
# `write_serializable`; open-source Delta has only Serializable).
_ISOLATION_STEPS = {
    True: "Use WriteSerializable unless you need serializable history, or make",
    False: "Tables are always Serializable on this runtime: make",
}

# DL105's fix ("... (exclusive group), {or_restrict}restrict it ...{to_clustering}."),
# by whether moving the table to liquid clustering ends the conflict (the verdict's
# `clustering_ends_it`).
_ZORDER_STEPS = {True: ("", ", or move the table to liquid clustering"), False: ("or ", "")}


def _every(sigs: list[Sig], fact: str) -> bool:
    """Whether the verdict of every pair of a finding says yes to `fact`: a step that
    leaves one pair's conflict in place is not proposed for the finding."""
    return all(dict(sig[3]).get(fact) == "yes" for sig in sigs)


# How `Judge._matrix_verdict` names the disjointness an unpartitioned table allows,
# before the settings that would give a pair row-level concurrency (": consider ...").
_UNPARTITIONED = "partition columns (the table is unpartitioned"
_CONSIDER = ": consider "


def _helping_all(values: Iterable[str]) -> str:
    """One `disjoint_on` for a finding of several pairs: the settings it proposes are
    those every pair's own text proposes, since a setting that leaves one pair without
    row-level concurrency does not remove that pair's conflict."""
    common: list[str] | None = None
    for value in values:
        rest = value.removeprefix(_UNPARTITIONED).removesuffix(")")
        helps = rest.removeprefix(_CONSIDER).split(" or ") if rest.startswith(_CONSIDER) else []
        common = helps if common is None else [x for x in common if x in helps]
    return _UNPARTITIONED + (_CONSIDER + " or ".join(common) if common else "") + ")"


def _moved(like: Finding, location: Location) -> Finding:
    """`like` at another location (cheaper than `dataclasses.replace`)."""
    return Finding(
        like.rule,
        like.name,
        like.severity,
        like.exception,
        like.table,
        like.message,
        location,
        like.related,
        like.overlap,
        like.fix,
        like.settings_source,
        like.related_more,
        like.overlap_basis,
        like.verdict,
    )


def _kept(where: list[Location], total: int | None = None) -> tuple[tuple[Location, ...], int]:
    """The related locations a finding keeps (the first SHOWN_OTHERS of `total`;
    `where` holds at least those), and how many it leaves out."""
    kept = tuple(where[:SHOWN_OTHERS])
    return kept, (len(where) if total is None else total) - len(kept)


def _named(texts: list[str], total: int) -> str:
    """The others of a message: the first SHOWN_OTHERS of `total` texts (`texts` holds
    at least those), then how many more there are."""
    shown = ", ".join(texts[:SHOWN_OTHERS])
    return shown if total <= SHOWN_OTHERS else f"{shown} and {total - SHOWN_OTHERS:,} more"


def _pair_order(part: tuple[int, int, Sig, list[int]]) -> tuple[int, int]:
    """Where a part's first pair comes when pairs (i, j), i <= j, are taken in order
    (its first other, its primary): the first part gives a finding its fields."""
    first_other, primary = part[0], part[1]
    return (first_other, primary) if first_other < primary else (primary, first_other)


class _Fields(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _explicit_condition(x: Intent, s: TableSettings) -> str:
    """The condition with explicit `t.<col> = <value or parameter>` terms added."""
    alias = x.target_alias or (x.table.name.split(".")[-1] if x.table else "t")
    constrained = region_of(x).columns()
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
