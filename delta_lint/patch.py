"""The output kept per finding, patched after a re-check in a new process.

A `check` whose output is kept for its view (`run.keep_output`) in the JSON or
JSON lines format (`LAYOUTS`) also keeps an index of it (`OutputIndex`): where
each finding's line is in the text, the finding's place in the sort order, and
which table's findings it is (or the findings across tables and the inputs'
diagnostics, or the notes the findings stage adds). A new process that re-checks the project from its
kept state (`kept`) then judges only the tables whose writers changed, and
`apply` writes its output from the last one: the lines of every other table's
findings are copied as stored bytes, those of the tables judged again are
rendered anew and put where a full sort puts them. The findings of the other
tables are never decoded, selected, suppressed or rendered.

The patch holds only where a full run's findings stage would treat the copied
findings as before, so it is refused (the caller decodes every table and
renders in full, `Patch.complete`) when a changed file's suppression comments
changed, when a suppression comment suppressed a finding of a table judged
again or suppresses a new one (which comments are used, and so the
unused-suppression notes, may change), or when a new finding sorts equal to a
copied one (a full sort keeps equal findings in table order, which an
insertion cannot promise).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from delta_lint import suppress
from delta_lint.findings import Gate, Suppressions, finish, gate_code, selected
from delta_lint.model import Finding, is_coverage
from delta_lint.report import JSON_SEPARATOR, clean_finding, json_frame, json_piece

if TYPE_CHECKING:
    from delta_lint.cache import Cache, TableEntry
    from delta_lint.suppress import FileSuppressions

OUTPUT_INDEX = "output-index:"  # kv blob: the `OutputIndex` of the output kept for a view
OTHERS = ""  # group of the findings across tables and of the inputs' diagnostics: worked out every run
NOTES = "\x00"  # group of the findings the findings stage adds (unused suppressions)


@dataclass(frozen=True)
class Layout:
    """How a format lays its findings out: a line each (`report.json_piece`), joined
    by `separator` (a newline, with what ends a line before it and begins the next
    after it), between a head and a tail made from the counts (`frame`: the
    findings, those that are not coverage gaps, and the run's files, intents,
    skipped files and notes). `head`: the head of an output with findings."""

    head: str
    separator: str
    frame: Callable[[int, int, tuple[int, int, dict[str, str], tuple[str, ...]]], tuple[str, str]]


# the formats whose kept output is patched: `report.to_json` and the `json-lines` reporter
LAYOUTS = {
    "json": Layout(
        json_frame(1, 0, 0, 0, None, ())[0],
        JSON_SEPARATOR,
        lambda count, conflicts, counts: json_frame(count, conflicts, *counts),
    ),
    "json-lines": Layout("", "\n", lambda count, conflicts, counts: ("", "\n" if count else "")),
}


class OutputIndex(msgspec.Struct, array_like=True):
    """Each finding of a kept output (`LAYOUTS`), in output order, by column: its line's
    span in the text, its sort key but for message and related locations (which
    only order findings of one table at one place, `Finding.sort_key`), its rule
    and severity (the exit code) and its group (a table's name, `OTHERS` or
    `NOTES`). `touched`: the groups with a finding a suppression comment
    suppresses (which makes the comment used)."""

    run: str  # the run key of the output it indexes (the text's first line)
    starts: list[int]
    ends: list[int]
    paths: list[str]
    lines: list[int]
    columns: list[int]
    rules: list[str]
    tables: list[str]
    severities: list[str]
    groups: list[str]
    touched: list[str]


_DECODER = msgspec.msgpack.Decoder(OutputIndex)
_ENCODER = msgspec.msgpack.Encoder()


@dataclass
class Patch:
    """What a re-check from a kept state gives the findings stage instead of every
    finding (`RunResult.patch`): `RunResult.findings` holds only the findings of
    the tables judged again (`groups`) and those across tables and of the inputs'
    diagnostics, sorted; `index` is the last run's output the patch starts from.
    `complete` decodes the other tables' findings and gives every finding and the
    suppressions as a full run's result holds them, for when the patch is refused."""

    index: OutputIndex
    groups: set[str]
    tables: dict[str, TableEntry]  # the tables judged again, by name
    others: list[Finding]
    scans_changed: bool  # a changed file's suppression comments are not what they were
    complete: Callable[[], tuple[list[Finding], Suppressions, dict[str, TableEntry], list[Finding]]]


class OutputDelta(msgspec.Struct, array_like=True):
    """An output kept as pieces of another output kept whole (`base`, the run whose
    text is stored): a re-check's patched output differs from it by a few lines, so
    storing the pieces spares compressing and writing tens of megabytes again.
    `pieces`: (start, end) of the base text, or (-1, n) for `literals[n]`."""

    run: str
    base: str
    pieces: list[tuple[int, int]]
    literals: list[bytes]


_DELTA_DECODER = msgspec.msgpack.Decoder(OutputDelta)
MAX_LITERAL_SHARE = 4  # new bytes past a quarter of the base text: the output is kept whole again


def encode_delta(delta: OutputDelta) -> bytes:
    return _ENCODER.encode(delta)


def decode_delta(blob: bytes) -> OutputDelta | None:
    try:
        delta = _DELTA_DECODER.decode(blob)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return delta


def materialize(delta: OutputDelta, base: bytes | memoryview) -> bytes | None:
    """The text `delta` describes, from its base text; None when a piece does not fit it."""
    view, size, out = memoryview(base), len(base), []
    for start, end in delta.pieces:
        if start >= 0:
            if not start <= end <= size:
                return None
            out.append(view[start:end])
        elif 0 <= end < len(delta.literals):
            out.append(delta.literals[end])
        else:
            return None
    return b"".join(out)


def compose(
    run: str,
    base: str,
    base_size: int,
    last: OutputDelta | None,
    segments: list[bytes | tuple[int, int]],
) -> OutputDelta | None:
    """The output `segments` describe (`apply`: new bytes and runs of the last text)
    as pieces of the base text: the last text is the base (`last` None) or `last`'s
    pieces of it. None when its new bytes exceed a quarter of the base: kept whole."""
    offsets, lengths = [0], []
    if last is not None:
        for start, end in last.pieces:
            lengths.append(end - start if start >= 0 else len(last.literals[end]))
            offsets.append(offsets[-1] + lengths[-1])
    pieces: list[tuple[int, int]] = []
    literals: list[bytes] = []
    added = 0

    def literal(data: bytes) -> None:
        nonlocal added
        if data:
            literals.append(data)
            pieces.append((-1, len(literals) - 1))
            added += len(data)

    def ranged(start: int, end: int) -> None:
        if start == end:
            return
        if pieces and pieces[-1][0] >= 0 and pieces[-1][1] == start:
            pieces[-1] = (pieces[-1][0], end)  # one run of the base
        else:
            pieces.append((start, end))

    for segment in segments:
        if isinstance(segment, bytes):
            literal(segment)
            continue
        a, b = segment
        if last is None:
            ranged(a, b)
            continue
        i = bisect.bisect_right(offsets, a) - 1
        while a < b and i < len(last.pieces):
            lo, hi = offsets[i], offsets[i + 1]
            cut_a, cut_b = a - lo, min(b, hi) - lo
            start, end = last.pieces[i]
            if start >= 0:
                ranged(start + cut_a, start + cut_b)
            else:
                literal(last.literals[end][cut_a:cut_b])
            a, i = lo + cut_b, i + 1
        if a < b:  # past the last text's end: not a text `apply` made from it
            return None
    if added * MAX_LITERAL_SHARE > base_size:
        return None
    return OutputDelta(run, base, pieces, literals)


def load_index(store: Cache, view: str, run: str | None) -> OutputIndex | None:
    """The index of the output kept for `view` when it is the output of run `run`."""
    if run is None:
        return None
    blob = store.get_blob(OUTPUT_INDEX + view)
    if blob is None:
        return None
    try:
        index = _DECODER.decode(blob)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    columns = (index.ends, index.paths, index.lines, index.columns, index.rules, index.tables, index.severities)
    if index.run != run or any(len(c) != len(index.starts) for c in (*columns, index.groups)):
        return None
    return index


def _touches(f: Finding, scans: dict[str, FileSuppressions]) -> bool:
    """Whether the findings stage looks at `f` with a file's suppression comments
    (`suppress.apply`: its location's file and the files of its statement sites)."""
    return f.location.path in scans or any(site.path in scans for site in f.location.sites)


def _commented(findings: list[Finding], scans: dict[str, FileSuppressions], rel_of: dict[str, str], gate: Gate) -> bool:
    """Whether a suppression comment suppresses one of `findings` as the findings
    stage sees them (selected, not ignored by `per-file-ignores` first): such a
    finding makes its comment used, so whether it is reported or gone decides
    which comments the unused-suppression notes name."""
    is_selected = lambda rule: selected(rule, gate.select, gate.ignore)  # noqa: E731
    near = [f for f in findings if _touches(f, scans) and is_selected(f.rule)]
    if not near:
        return False
    by_comments, _ = suppress.apply(near, scans, gate.per_file_ignores, rel_of, is_selected)
    by_globs, _ = suppress.apply(near, {}, gate.per_file_ignores, rel_of, is_selected)
    return len(by_comments) != len(by_globs)


def _short_key(f: Finding) -> tuple:
    loc = f.location
    return (loc.path, loc.line, loc.column, f.rule, f.table or "")


def build_index(
    run: str,
    text: str,
    findings: list[Finding],
    tables: dict[str, TableEntry],
    others: list[Finding],
    suppressions: Suppressions,
    gate: Gate,
    layout: Layout,
) -> OutputIndex | None:
    """The index of `text`, the output in `layout` of `findings` (the findings
    stage's, under `gate` and `suppressions`, in output order) from a run whose
    tables' findings are `tables` and whose findings across tables and of its
    diagnostics are `others`. None when the text is not laid out one finding a
    line as `layout` says."""
    if not text.isascii():  # the spans are byte offsets in the stored text: ASCII, as `json.dumps` writes
        return None
    group_of = {id(f): name for name, entry in tables.items() for f in entry.findings}
    group_of.update((id(f), OTHERS) for f in others)
    scans, rel_of = suppressions.scans, suppressions.rel_of
    touched: list[str] = []
    if scans:
        groups = [*((name, entry.findings) for name, entry in tables.items()), (OTHERS, others)]
        touched = sorted(name for name, found in groups if _commented(found, scans, rel_of, gate))
    starts, ends = [], []
    at, n = len(layout.head), len(findings)
    if n and not text.startswith(layout.head):
        return None
    before, after = layout.separator.split("\n")  # what ends a line and what begins the next
    for i in range(n):
        end = text.find("\n", at)  # a line holds no newline: `json.dumps` escapes them
        if end < 0:
            return None
        stop = end - len(before) if i < n - 1 else end
        if text[stop:end] != (before if i < n - 1 else ""):
            return None
        starts.append(at)
        ends.append(stop)
        at = end + 1 + len(after)
    locations = [f.location for f in findings]
    return OutputIndex(
        run,
        starts,
        ends,
        [loc.path for loc in locations],
        [loc.line for loc in locations],
        [loc.column for loc in locations],
        [f.rule for f in findings],
        [f.table or "" for f in findings],
        [f.severity for f in findings],
        [group_of.get(id(f), NOTES) for f in findings],
        touched,
    )


def encode_index(index: OutputIndex) -> bytes:
    return _ENCODER.encode(index)


def apply(
    patch: Patch,
    gate: Gate,
    rel_of: dict[str, str],
    scans: dict[str, FileSuppressions],
    counts: tuple[int, int, dict[str, str], tuple[str, ...]],
    run: str | None,
    layout: Layout,
) -> tuple[list[bytes | tuple[int, int]], int, OutputIndex | None] | None:
    """The output of a re-checked run made from the last one (the output
    `patch.index` indexes): its segments (the text as new bytes and (start, end)
    runs of the last text, in order: what `render` joins and `compose` keeps),
    exit code and index (None without a run key, `run`). The findings of the tables judged again go through the findings stage
    (`gate`, `rel_of`: as `findings.finish` with the run's suppressions; `scans`:
    the files with suppression comments) and are rendered here; `counts`: the
    run's files, intents, skipped files and notes, for the frame `layout` (the
    kept output's format) makes of them. None: the patch does not hold (see above)."""
    index = patch.index
    if patch.scans_changed or set(index.touched) & (patch.groups | {OTHERS}):
        return None
    candidates = [f for name in sorted(patch.tables) for f in patch.tables[name].findings] + patch.others
    if scans and _commented(candidates, scans, rel_of, gate):
        return None
    new = finish(sorted(candidates, key=Finding.sort_key), Suppressions({}, rel_of), gate).findings
    dropped = patch.groups | {OTHERS}
    paths, lines, columns, rules, tables, groups = (
        index.paths,
        index.lines,
        index.columns,
        index.rules,
        index.tables,
        index.groups,
    )
    keep = [i for i, group in enumerate(groups) if group not in dropped]

    def key_of(i: int) -> tuple:
        return (paths[i], lines[i], columns[i], rules[i], tables[i])

    places = []
    for f in new:
        k = _short_key(f)
        at = bisect.bisect_left(keep, k, key=key_of)
        if at < len(keep) and key_of(keep[at]) == k:
            return None  # equal to a copied finding: their order is the tables'
        places.append(at)
    # the copied rows in runs that were neighbours in the last output, cut where a new line goes
    bounds = sorted({0, len(keep), *places} | {j for j in range(1, len(keep)) if keep[j] != keep[j - 1] + 1})
    sequence: list[tuple[int | None, int]] = []  # (first row, last row) of a run, or (None, a new finding)
    j = 0
    for a, b in zip(bounds, bounds[1:]):
        while j < len(new) and places[j] == a:
            sequence.append((None, j))
            j += 1
        sequence.append((keep[a], keep[b - 1]))
    sequence.extend((None, j) for j in range(j, len(new)))
    group_of = {id(f): name for name, entry in patch.tables.items() for f in entry.findings}
    conflicts = sum(1 for i in keep if not is_coverage(rules[i])) + sum(1 for f in new if not is_coverage(f.rule))
    head, tail = layout.frame(len(keep) + len(new), conflicts, counts)
    parts: list[bytes | tuple[int, int]] = []  # a new line, or a run of the last text's (start, end)
    starts: list[int] = []
    ends: list[int] = []
    olds = (paths, lines, columns, rules, tables, index.severities, groups)
    out: tuple[list, ...] = tuple([] for _ in olds)
    at = len(head)
    for n, (first, last) in enumerate(sequence):
        if n:
            at += len(layout.separator)
        if first is None:
            f = new[last]
            piece = json_piece(clean_finding(f)).encode()
            parts.append(piece)
            starts.append(at)
            at += len(piece)
            ends.append(at)
            loc = f.location
            row = (loc.path, loc.line, loc.column, f.rule, f.table or "", f.severity, group_of.get(id(f), OTHERS))
            for column, value in zip(out, row):
                column.append(value)
        else:  # the run's lines and the separators between them, as one slice
            shift = at - index.starts[first]
            parts.append((index.starts[first], index.ends[last]))
            starts.extend(x + shift for x in index.starts[first : last + 1])
            ends.extend(x + shift for x in index.ends[first : last + 1])
            at = ends[-1]
            for column, old in zip(out, olds):
                column.extend(old[first : last + 1])
    separator = layout.separator.encode()
    segments: list[bytes | tuple[int, int]] = [head.encode()]
    for n, part in enumerate(parts):
        if n and separator:
            segments.append(separator)
        segments.append(part)
    segments.append(tail.encode())
    code = gate_code(zip(out[3], out[5]), gate)
    if run is None:
        return segments, code, None
    return segments, code, OutputIndex(run, starts, ends, *out, list(index.touched))  # type: ignore[arg-type]


def render(segments: list[bytes | tuple[int, int]], text: bytes | memoryview) -> bytes:
    """The text `segments` (`apply`) describe, from the last text."""
    body = memoryview(text)
    return b"".join(body[p[0] : p[1]] if isinstance(p, tuple) else p for p in segments)
