"""Target predicates as per-column constraints, and proofs of (dis)jointness.

sqlglot's `simplify` will not decide disjointness of partition predicates (NULL
semantics), so a condition is normalised here to disjunctive normal form over the
*target* columns, each conjunct mapping a column to a set of values or a range.
Atoms the analysis cannot read become TRUE: the region only grows, so a
"disjoint" verdict stays sound. Reading a sqlglot condition into a region is the
SQL front end's (`delta_lint.frontend.conditions`); the engine only reads regions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

MAX_CONJUNCTS = 64  # DNF expansion cap; beyond it the region is "whole table"

# A parameter value is ("param", name); a literal is ("lit", value).
Value = tuple[str, object]


@dataclass(frozen=True)
class Constraint:
    """Values one column may take: a finite set, or a range (bounds are literals), or
    any value but the `excluded` ones (`p NOT IN ('US')`, `p <> 'US'`: a row whose `p`
    is NULL is not selected either, so the writes of exactly those values are apart)."""

    values: frozenset[Value] | None = None
    low: object = None
    low_inclusive: bool = True
    high: object = None
    high_inclusive: bool = True
    excluded: frozenset[Value] | None = None  # only with no values and no bounds


# One conjunct: sorted (column, constraint) pairs. A region is a tuple of conjuncts
# (their union). A conjunct with no constraints covers the whole table.
Conjunct = tuple[tuple[str, Constraint], ...]


@dataclass(frozen=True)
class Region:
    conjuncts: tuple[Conjunct, ...]
    opaque: bool = False  # the condition could not be read: nothing can be proven

    def restrict(self, columns: frozenset[str]) -> Region:
        """The region judged on `columns` only; kept per column set, since the engine
        restricts the same intent's region for every candidate pair."""
        cache = self.__dict__.get("_restricted")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_restricted", cache)  # a cache, not state: eq and hash ignore it
        found = cache.get(columns)
        if found is None:
            if not columns and self.conjuncts:  # judged on no column: every row, or unknown
                found = OPAQUE if self.opaque else WHOLE
            else:
                found = Region(
                    tuple(tuple((c, k) for c, k in conj if c in columns) for conj in self.conjuncts),
                    self.opaque,
                )
            cache[columns] = found
        return found

    def __hash__(self) -> int:
        """Kept after the first use: regions key the engine's memo of overlaps."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.conjuncts, self.opaque))
            object.__setattr__(self, "_hash", found)
        return found

    def is_whole(self) -> bool:
        """True when some conjunct constrains nothing (covers every row)."""
        return not self.opaque and any(not conj for conj in self.conjuncts)

    def columns(self) -> frozenset[str]:
        return frozenset(c for conj in self.conjuncts for c, _ in conj)


WHOLE = Region(((),))
OPAQUE = Region(((),), opaque=True)


class Overlap(str, Enum):
    DISJOINT = "disjoint"
    OVERLAP = "overlap"
    UNKNOWN = "unknown"


def merge_conjuncts(a: dict, b: dict) -> dict | None:
    """AND of two conjuncts; None when provably empty."""
    out = dict(a)
    for col, k in b.items():
        if col in out:
            both = _intersect(out[col], k)
            if both is None:
                return None
            out[col] = both
        else:
            out[col] = k
    return out


def _intersect(a: Constraint, b: Constraint) -> Constraint | None:
    """Both constraints at once, kept conservative; None when provably empty."""
    if a.excluded is not None or b.excluded is not None:
        return _intersect_excluded(a, b)
    if a.values is not None and b.values is not None:
        same = a.values & b.values
        params = {v for v in a.values | b.values if v[0] == "param"}
        if not same and not params:
            return None
        return Constraint(values=frozenset(same | params))
    if a.values is not None or b.values is not None:
        vals, rng = (a, b) if a.values is not None else (b, a)
        kept = frozenset(v for v in vals.values if _in_range(v, rng) is not False)
        return Constraint(values=kept) if kept else None
    low, low_inc = _tighter_low(a, b)
    high, high_inc = _tighter_high(a, b)
    if low is not None and low_inc and high_inc and low == high and _comparable(low, high):
        # `p >= 'b' AND p <= 'b'` holds one value: as `p = 'b'` it can be told apart from
        # an exclusion (`p <> 'b'`) and from other values, which a range cannot
        return Constraint(values=frozenset({("lit", low)}))
    return Constraint(low=low, low_inclusive=low_inc, high=high, high_inclusive=high_inc)


def _intersect_excluded(a: Constraint, b: Constraint) -> Constraint | None:
    """One of the two excludes values: both exclusions add up; values lose the
    excluded literals; a range is kept as it is (a wider region: still sound)."""
    if a.excluded is not None and b.excluded is not None:
        return Constraint(excluded=a.excluded | b.excluded)
    kept, other = (a, b) if b.excluded is not None else (b, a)
    if kept.values is not None:
        left = frozenset(v for v in kept.values if not _excluded(v, other.excluded))
        return Constraint(values=left) if left else None
    return kept


def _excluded(value: Value, excluded: frozenset[Value] | None) -> bool:
    """Whether a literal is certainly one of the excluded literals (a parameter may be
    any value)."""
    return bool(excluded) and value[0] == "lit" and any(_values_distinct(value, x, False) is False for x in excluded)


def _tighter_low(a: Constraint, b: Constraint):
    if a.low is None:
        return b.low, b.low_inclusive
    if b.low is None or not _comparable(a.low, b.low):
        return a.low, a.low_inclusive
    if a.low == b.low:
        return a.low, a.low_inclusive and b.low_inclusive
    return (a.low, a.low_inclusive) if a.low > b.low else (b.low, b.low_inclusive)


def _tighter_high(a: Constraint, b: Constraint):
    if a.high is None:
        return b.high, b.high_inclusive
    if b.high is None or not _comparable(a.high, b.high):
        return a.high, a.high_inclusive
    if a.high == b.high:
        return a.high, a.high_inclusive and b.high_inclusive
    return (a.high, a.high_inclusive) if a.high < b.high else (b.high, b.high_inclusive)


# ---------------------------------------------------------------------------
# Deciding overlap


def _comparable(a, b) -> bool:
    numeric = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    if isinstance(a, numeric) and isinstance(b, numeric):
        return True
    return isinstance(a, str) and isinstance(b, str)


def _in_range(value: Value, rng: Constraint) -> bool | None:
    """Whether a value lies in a range: True, False, or None (unknown)."""
    if value[0] != "lit":
        return None
    v = value[1]
    if rng.low is not None:
        if not _comparable(v, rng.low):
            return None
        if v < rng.low or (v == rng.low and not rng.low_inclusive):
            return False
    if rng.high is not None:
        if not _comparable(v, rng.high):
            return None
        if v > rng.high or (v == rng.high and not rng.high_inclusive):
            return False
    return True


def _values_distinct(a: Value, b: Value, distinct_runs: bool) -> bool | None:
    """Proven different (True), proven equal (False) or unknown (None)."""
    if a[0] == "lit" and b[0] == "lit":
        if not _comparable(a[1], b[1]):
            return None if str(a[1]) == str(b[1]) else True
        return a[1] != b[1]
    if a[0] == "param" and b[0] == "param" and a[1] == b[1]:
        # Parameters of different runs count as distinct values (spec section 6).
        return True if distinct_runs else None
    return None


def _constraints_disjoint(a: Constraint, b: Constraint, distinct_runs: bool) -> bool | None:
    """True: no common value. False: a common value certainly exists. None: unknown.
    One value against one value or a range, the common case, is answered directly;
    `_constraints_disjoint_by_pairs` says the same of every case."""
    if a.excluded is not None or b.excluded is not None:
        return _excluded_disjoint(a, b)
    if a.values is not None and len(a.values) == 1:
        (x,) = a.values
        if b.values is not None and len(b.values) == 1:
            (y,) = b.values
            return _values_distinct(x, y, distinct_runs)
        if b.values is None:
            inside = _in_range(x, b)
            return None if inside is None else not inside
    elif b.values is not None and len(b.values) == 1 and a.values is None:
        (y,) = b.values
        inside = _in_range(y, a)
        return None if inside is None else not inside
    return _constraints_disjoint_by_pairs(a, b, distinct_runs)


def _excluded_disjoint(a: Constraint, b: Constraint) -> bool | None:
    """Disjointness when one constraint excludes values: apart from values it excludes
    every one of; sharing a value with values it does not exclude; two exclusions (or
    an exclusion and a range) leave values both may take, which need not exist in the
    table: not known."""
    ex, other = (a, b) if a.excluded is not None else (b, a)
    if other.excluded is not None or other.values is None:
        return None
    if all(_excluded(v, ex.excluded) for v in other.values):
        return True
    literals = [v for v in other.values if v[0] == "lit"]
    if any(all(_values_distinct(v, x, False) is True for x in ex.excluded or ()) for v in literals):
        return False
    return None


def _constraints_disjoint_by_pairs(a: Constraint, b: Constraint, distinct_runs: bool) -> bool | None:
    if a.values is not None and b.values is not None:
        verdicts = [_values_distinct(x, y, distinct_runs) for x in a.values for y in b.values]
        if all(v is True for v in verdicts):
            return True
        if any(v is False for v in verdicts):
            return False
        return None
    if a.values is not None or b.values is not None:
        vals, rng = (a, b) if a.values is not None else (b, a)
        inside = [_in_range(v, rng) for v in vals.values]
        if all(v is False for v in inside):
            return True
        if any(v is True for v in inside):
            return False
        return None
    # range vs range
    low, low_inc = _tighter_low(a, b)
    high, high_inc = _tighter_high(a, b)
    bounds = [x for x in (a.low, b.low, a.high, b.high) if x is not None]
    if any(not _comparable(bounds[0], x) for x in bounds):
        return None
    if low is not None and high is not None:
        if low > high or (low == high and not (low_inc and high_inc)):
            return True
        if isinstance(low, str):  # a non-empty string range may hold no actual value
            return None
    return False


def overlap(a: Region | None, b: Region | None, columns: frozenset[str] | None, distinct_runs: bool) -> Overlap:
    """Whether two regions can select common rows, judged on `columns` only
    (the partition columns for "same files"; None for "same rows": every column)."""
    return _overlap(a or WHOLE, b or WHOLE, columns, distinct_runs)


@lru_cache(maxsize=1 << 16)
def _overlap(a: Region, b: Region, columns: frozenset[str] | None, distinct_runs: bool) -> Overlap:
    """Kept per pair of regions: a workload has far fewer distinct conditions than
    pairs of writes."""
    if columns is not None:
        a, b = a.restrict(columns), b.restrict(columns)
    if a.opaque or b.opaque:
        # an unknown region still meets a region that covers every row
        other = b if a.opaque else a
        return Overlap.OVERLAP if other.is_whole() else Overlap.UNKNOWN
    if len(a.conjuncts) == 1 and len(b.conjuncts) == 1:
        (ca,), (cb,) = a.conjuncts, b.conjuncts
        if len(ca) == 1 and len(cb) == 1:  # one condition on one column each: the common case
            if ca[0][0] != cb[0][0]:
                return Overlap.OVERLAP
            disjoint = _constraints_disjoint(ca[0][1], cb[0][1], distinct_runs)
            return Overlap.DISJOINT if disjoint is True else Overlap.OVERLAP if disjoint is False else Overlap.UNKNOWN
    return _conjuncts_overlap(a, b, distinct_runs)


def _conjuncts_overlap(a: Region, b: Region, distinct_runs: bool) -> Overlap:
    """Every pair of conjuncts of two (restricted, readable) regions."""
    unknown = False
    for ca in a.conjuncts:
        for cb in b.conjuncts:
            da, db = dict(ca), dict(cb)
            verdicts = [_constraints_disjoint(da[c], db[c], distinct_runs) for c in da.keys() & db.keys()]
            if any(v is True for v in verdicts):
                continue
            if all(v is False for v in verdicts):
                return Overlap.OVERLAP
            unknown = True
    return Overlap.UNKNOWN if unknown else Overlap.DISJOINT


_PARAM_NAME = re.compile(r"[^0-9A-Za-z_]+")


def param_name(raw: str) -> str:
    """A readable identifier for a templating expression (`{{ ds }}` -> `ds`)."""
    name = _PARAM_NAME.sub("_", raw.strip()).strip("_")
    # a placeholder is read back as an identifier: one that starts with a digit
    # (`{0.name}`, `{1 + n}`) would not be one
    return ("p" + name if name[:1].isdigit() else name) or "param"
