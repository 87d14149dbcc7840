"""Everything delta-lint prints. `render(name, Report)` gives a finding list in
one of the registered output formats (`@reporter`: text/full, concise, json,
json-lines, sarif, github, markdown, gitlab, junit); the other commands' outputs
(`intents`, `tables`, `schedule`, `rules`, `--statistics`, the summary line) are
built here too. Text from the repository passes through `clean` (and
`md_untrusted` in Markdown) so a file name or code cannot inject a terminal escape
or a workflow command. Rules and stages never print."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Callable

from delta_lint import __version__
from delta_lint.model import Finding, Intent, Location, is_coverage
from delta_lint.safeio import printable

_COMMAND = "::"  # a line starting with it is a GitHub workflow command (`::error`, `::add-mask::`)


def clean(text: str) -> str:
    """Text from file names, job code or job definitions made safe for any output:
    control characters, terminal escapes and line separators as backslash escapes
    (`safeio.printable`), and a leading `::` (after blanks) written `\x3a:`, so the
    text cannot start a workflow command where it begins a line."""
    text = printable(text)
    return _no_command(text) if _COMMAND in text else text


def _no_command(line: str) -> str:
    body = line.lstrip()
    if not body.startswith(_COMMAND):
        return line
    return line[: len(line) - len(body)] + "\\x3a" + body[1:]


def plain_lines(text: str) -> str:
    """A plain-text report with no line that starts a workflow command: the last
    guard of `text`, `concise`, `intents` and `tables`, whose lines may begin (or,
    wrapped, continue) with code text."""
    if _COMMAND not in text:
        return text
    return "\n".join(_no_command(line) for line in text.split("\n"))


def clean_finding(f: Finding) -> Finding:
    """A finding whose every text field is `clean`; the same object when nothing needs it."""
    texts = (f.name, f.message, f.table or "", f.overlap, f.fix, f.location.path, *(r.path for r in f.related))
    if all(clean(t) == t for t in texts) and all(clean(s.path) == s.path for s in f.sites):
        return f
    return dataclasses.replace(
        f,
        name=clean(f.name),
        message=clean(f.message),
        table=None if f.table is None else clean(f.table),
        overlap=clean(f.overlap),
        fix=clean(f.fix),
        location=_clean_location(f.location),
        related=tuple(_clean_location(r) for r in f.related),
    )


def _clean_location(loc: Location) -> Location:
    sites = tuple(dataclasses.replace(s, path=clean(s.path)) for s in loc.sites)
    return dataclasses.replace(loc, path=clean(loc.path), sites=sites)


def written_at(f: Finding) -> str:
    """Where the statements of a finding's writes reached through helpers stand, as
    one short text (`helpers.py:12`); empty when every write is where it is reported."""
    return ", ".join(f"{s.path}:{s.line}" for s in f.sites)


_COLORS = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def use_color(stream=None, choice: str = "auto") -> bool:
    """`--color always|never` decides; with `auto`, a non-empty NO_COLOR turns colour
    off, a non-empty FORCE_COLOR or CLICOLOR_FORCE (other than `0`) turns it on in
    pipes and files too (CI logs render it), else colour only on a terminal."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR", ""):
        return False
    if any(os.environ.get(name, "0") not in ("", "0") for name in ("FORCE_COLOR", "CLICOLOR_FORCE")):
        return True
    stream = stream or sys.stdout
    return hasattr(stream, "isatty") and stream.isatty()


def text(
    findings: list[Finding],
    files: int,
    intents: int,
    color: bool = False,
    quiet: bool = False,
    skipped: dict[str, str] | None = None,
    concise: bool = False,
    width: int | None = None,
    source: Callable[[str], list[str] | None] | None = None,
    notes: tuple[str, ...] = (),
) -> str:
    """ruff-like text. `path:line:col: CODE [Exception] message [severity]` always comes
    first (the severity last: `CODE message` stays one greppable run); the full form then wraps the message to `width`, shows the statement from
    `source` (a file's lines, by display path) with the finding's line marked, and the
    related locations, overlap and fix; `concise` is that first line alone. Findings
    of one rule on one line are one entry: the others' messages follow it."""
    lines = []
    for f, more, also in _grouped(_merged(findings)):
        exc = f" [{f.exception}]" if f.exception else ""
        code, loc, sev = f.rule, str(f.location), f"[{f.severity}]"
        if color:
            code = f"{_COLORS.get(f.severity, '')}{_BOLD}{f.rule}{_RESET}"
            loc = f"{_BOLD}{loc}{_RESET}"
            sev = f"{_COLORS.get(f.severity, '')}{sev}{_RESET}"
        head = f"{loc}: {code}{exc}"
        if concise:
            extra = f" (and {len(more)} more {f.rule} on this line)" if more else ""
            if also:
                extra += f" (the same at {_places(also)})"
            lines.append(f"{head} {f.message}{extra} {sev}")
            continue
        lines += _wrap(head, f"{f.message} {sev}", width)
        for message in dict.fromkeys(o.message for o in more if o.message != f.message):
            lines += _wrap("    also:", message, width)  # (the same words again: their partners are related)
        if source is not None:
            lines += _snippet(source(f.location.path), f.location.line, f.location.column, width)
        related = [r for g in (f, *more) for r in g.related]
        for r in dict.fromkeys(related):
            lines.append(f"    related: {r}")
        hidden = sum(g.related_more for g in (f, *more))
        if hidden:
            lines.append(f"    related: and {hidden:,} more")
        for at in also[:_SHOWN_ALSO]:
            lines.append(f"    also at: {at}")
        if len(also) > _SHOWN_ALSO:
            lines.append(f"    also at: and {len(also) - _SHOWN_ALSO:,} more (every one in --format json)")
        written = dict.fromkeys(w for g in (f, *more) if (w := written_at(g)))
        if written:
            lines.append(f"    written at {', '.join(written)}")
        for label, value in (("overlap", f.overlap), ("how sure", how_sure(f)), ("fix", f.fix)):
            if value:
                lines += _wrap(f"    {label}:", value, width, indent=8)
    summary = summary_line(findings, files, intents, skipped or {})
    if not quiet:  # the notes, then the summary: it stays the last line
        for note in notes:
            lines += _wrap("note:", note, width)
        lines.append(summary)
    if not lines:
        return ""
    return "\n".join(lines) + "\n"


# How a conflict finding's overlap basis and verdict read in words (`Finding`).
BASIS_WORDS = {
    "schedule": "the schedule shows the two can run at the same time",
    "assumed": "the overlap is assumed: a side has no known schedule",
    "assumed-twice": "the overlap is assumed twice: a run started by hand, beside one only a default allows",
    "code": "the code runs the two at the same time in one run",
    "longer-run": "the schedules meet only if a run lasts longer than its assumed duration",
    "same-value": "the schedule shows the runs meet; they conflict only if two runs get the same parameter values",
}
VERDICT_WORDS = {
    "certain": "they conflict whenever both run",
    "data-dependent": "they conflict only for some data (the same rows, partitions or values)",
    "first-run": "they conflict only on the first run, while the table does not exist yet",
    "may-not-commit": "they conflict only if one side commits to the table's log, which is not known",
}


def how_sure(f: Finding) -> str:
    """A conflict finding's overlap basis and verdict in words ("" for other findings)."""
    if f.overlap_basis is None or f.verdict is None:
        return ""
    return f"{BASIS_WORDS.get(f.overlap_basis, f.overlap_basis)}; {VERDICT_WORDS.get(f.verdict, f.verdict)}"


def _merged(findings: list[Finding]) -> list[tuple[Finding, list[Finding]]]:
    """Findings in order, those of one rule at one location folded into the first
    when they are as sure (one severity, overlap basis and verdict: the entry shows
    the first's)."""
    out: list[tuple[Finding, list[Finding]]] = []
    for f in findings:
        first = out[-1][0] if out else None
        if (
            first is not None
            and first.location == f.location
            and first.rule == f.rule
            and (first.severity, first.overlap_basis, first.verdict) == (f.severity, f.overlap_basis, f.verdict)
        ):
            out[-1][1].append(f)
        else:
            out.append((f, []))
    return out


# A text entry lists at most this many of the places it stands for (`_grouped`); the
# JSON output keeps each finding.
_SHOWN_ALSO = 10


def _grouped(
    entries: list[tuple[Finding, list[Finding]]],
) -> list[tuple[Finding, list[Finding], list[Location]]]:
    """Text entries with the findings that repeat an earlier one folded into it, as
    ruff shows a violation once: (entry, its findings on the same line, the other
    places it stands for). Folded, when as sure (one rule, table, exception,
    severity, overlap basis and verdict):

    - a conflict finding whose writes (its own and the related ones) are all writes
      of an earlier entry: the same pairs seen from another of their writes (the
      statements of one helper, each reported with the ones after it);
    - a finding reported at a helper's call (`sites`) with the message of an earlier
      one at another call of the same statement: one problem of the helper, once
      per calling notebook.

    Nothing is dropped: the places are listed, and every other format keeps each
    finding."""
    out: list[tuple[Finding, list[Finding], list[Location]]] = []
    heads: dict[tuple, list[int]] = {}
    covered: list[set[Location]] = []
    for f, more in entries:
        group = (f, *more)
        sure = (f.rule, f.table, f.exception, f.severity, f.overlap_basis, f.verdict)
        keys: list[tuple] = []
        if f.overlap_basis is not None:
            keys.append(("pairs", *sure))
        if f.sites and not more:
            keys.append(("calls", *sure, f.message, f.sites[0]))
        mine = {g.location for g in group} | {r for g in group for r in g.related}
        folded = False
        for key in keys:
            for at in heads.get(key, ()):
                if key[0] == "calls" or mine <= covered[at]:
                    head, _, also = out[at]
                    # a place the entry's related locations show already is not repeated
                    shown = {*also, head.location, *(head.related if key[0] == "pairs" else ())}
                    also.extend(dict.fromkeys(g.location for g in group if g.location not in shown))
                    folded = True
                    break
            if folded:
                break
        if folded:
            continue
        for key in keys:
            heads.setdefault(key, []).append(len(out))
        covered.append(mine)
        out.append((f, list(more), []))
    return out


def _places(locations: list[Location]) -> str:
    shown = ", ".join(str(loc) for loc in locations[:3])
    return shown + (f" and {len(locations) - 3} more" if len(locations) > 3 else "")


def _wrap(head: str, message: str, width: int | None, indent: int = 4) -> list[str]:
    """`head message`, wrapped at `width` with the head kept whole on the first line."""
    if not width or len(head) + 1 + len(message) <= width:
        return [f"{head} {message}"]
    import textwrap

    return textwrap.wrap(
        f"{head} {message}",
        width=max(width, len(head) + 20),
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [head]


SNIPPET_LINES = 4  # at most this many lines of a statement are shown


def _snippet(source: list[str] | None, line: int, column: int, width: int | None) -> list[str]:
    """The statement starting at `line` (to its `;`, a blank line, or SNIPPET_LINES),
    numbered, the finding's line marked with `>` and its column with `^`. Control
    characters are shown escaped: the code is the user's, the terminal is theirs."""
    if not source or not 1 <= line <= len(source):
        return []
    shown = []
    for number in range(line, min(len(source), line + SNIPPET_LINES - 1) + 1):
        code = source[number - 1].rstrip("\r\n").expandtabs(4)
        if number > line and not code.strip():
            break
        shown.append((number, code))
        if code.rstrip().endswith(";"):
            break
    gutter = len(str(shown[-1][0]))
    limit = max((width or 120) - gutter - 7, 40)
    out = [f"    {'':>{gutter}} |"]
    for number, code in shown:
        safe = "".join(c if c.isprintable() else repr(c)[1:-1] for c in code)
        if len(safe) > limit:
            safe = safe[: limit - 1] + "…"
        out.append(f"    {number:>{gutter}} {'>' if number == line else '|'} {safe}".rstrip())
        if number == line and column >= 1:
            out.append(f"    {'':>{gutter}} | {' ' * min(column - 1, limit)}^")
    return out


# what a coverage rule's findings are called in the summary line
_GAP_WORDS = {
    "DL000": "unparseable",
    "DL001": "dynamic table name",
    "DL002": "internal error",
    "DL003": "unreadable file",
    "DL004": "settings not read",
    "DL005": "unused suppression",
    "DL006": "task not analysable",
    "DL007": "dynamic SQL",
    "DL008": "past the analysis budget",
}


def summary_line(findings: list[Finding], files: int, intents: int, skipped: dict[str, str]) -> str:
    """One line that keeps predicted conflicts apart from what was not analysed:
    `Found 2 predicted conflicts (2 error, 0 warning, 0 info) in 300 files, 900
    intents; 31 not analysed: 24 dynamic SQL, 7 unparseable; 140 files skipped:
    T-SQL 40, dbt 13.`"""
    conflicts = [f for f in findings if not is_coverage(f.rule)]
    # an info DL000 tells how a file was read past text that is not SQL (a notebook
    # magic): nothing of it is left unanalysed
    gaps = Counter(f.rule for f in findings if is_coverage(f.rule) and not (f.rule == "DL000" and f.severity == "info"))
    counted = f"{files} files, {intents} intents"
    if conflicts:
        counts = Counter(f.severity for f in conflicts)
        n = len(conflicts)
        parts = [
            f"Found {n} predicted conflict{'s' if n != 1 else ''} "
            f"({counts['error']} error, {counts['warning']} warning, {counts['info']} info) in {counted}"
        ]
    elif not gaps:
        parts = [f"All checks passed: {counted}"]
    else:
        parts = [f"No predicted conflicts: {counted}"]
    if gaps:
        listed = ", ".join(f"{count} {_GAP_WORDS.get(rule, rule)}" for rule, count in sorted(gaps.items()))
        parts.append(f"{sum(gaps.values())} not analysed: {listed}")
    if skipped:
        kinds = Counter(skipped.values())
        listed = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        parts.append(f"{len(skipped)} file{'s' if len(skipped) != 1 else ''} skipped: {listed}")
    return "; ".join(parts) + "."


def files_list(analysed: dict[str, int], skipped: dict[str, str]) -> str:
    """`--show-files`: every discovered file, what was done with it and why."""
    rows = [(path, f"analysed  {n} intent{'s' if n != 1 else ''}") for path, n in analysed.items()]
    rows += [(path, f"skipped   {kind}") for path, kind in skipped.items()]
    lines = [f"{status:<30} {path}" for path, status in sorted(rows)]
    lines.append(f"{len(analysed)} analysed, {len(skipped)} skipped")
    return "\n".join(lines) + "\n"


def _json_text(doc: object) -> str:
    """`doc` as `json.dumps(doc, indent=2)` writes it (ASCII, two-space indents). Written
    by orjson, as the cache is: the standard library's indenting encoder is pure
    Python, slow on the SARIF of a large run. orjson writes the same
    text for these documents, except that it leaves non-ASCII characters unescaped:
    such a document (rare: a path with an accent), and one orjson refuses (integers
    beyond 64 bits, keys that are not strings), is written by the standard library."""
    import orjson

    try:
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode()
    except TypeError:
        return json.dumps(doc, indent=2)
    return text if text.isascii() else json.dumps(doc, indent=2)


def to_json(
    findings: list[Finding],
    files: int,
    intents: int,
    skipped: dict[str, str] | None = None,
    notes: tuple[str, ...] = (),
) -> str:
    """One finding per line, in the standard library's spacing (`"rule": "DL101"`), so
    that the output stays diffable and greppable; each line by its C encoder (the
    indenting one is pure Python). The summary counts predicted conflicts apart from
    coverage gaps, and the skipped files by kind, and holds the run's notes (the
    target judged, no schedule known)."""
    conflicts = sum(1 for f in findings if not is_coverage(f.rule))
    head, tail = json_frame(len(findings), conflicts, files, intents, skipped, notes)
    return head + JSON_SEPARATOR.join(json_piece(f) for f in findings) + tail


JSON_SEPARATOR = ",\n    "  # between two findings' lines of `to_json`


def json_piece(f: Finding) -> str:
    """One finding's line of `to_json` (`f` as `render` gives it, cleaned): a run
    that keeps its output per finding (`patch`) renders only the findings that changed."""
    return json.dumps(finding_json(f))


def json_frame(
    count: int, conflicts: int, files: int, intents: int, skipped: dict[str, str] | None, notes: tuple[str, ...]
) -> tuple[str, str]:
    """What `to_json` writes before the first finding's line and after the last:
    the summary, from the counts of the findings (`conflicts`: those that are not
    coverage gaps), so a patched output (`patch`) is framed as a rendered one."""
    summary = json.dumps(
        {
            "files": files,
            "intents": intents,
            "findings": count,
            "conflicts": conflicts,
            "not_analysed": count - conflicts,
            "skipped": dict(sorted(Counter((skipped or {}).values()).items())),
            "notes": list(notes),
        }
    )
    if not count:
        return '{\n  "version": 1,\n  "findings": [', f'],\n  "summary": {summary}\n}}\n'
    return '{\n  "version": 1,\n  "findings": [\n    ', f'\n  ],\n  "summary": {summary}\n}}\n'


def finding_json(f: Finding) -> dict:
    """A finding as `--format json` and `json-lines` give it: its JSON form and the
    page documenting its rule."""
    from delta_lint.rulepack import DOCS_PATH

    return {**f.to_json(), "url": DOCS_PATH.format(id=f.rule)}


def intents_text(intents: list[Intent]) -> str:
    lines = []
    for i in intents:
        flags = ",".join(sorted(f.value for f in i.flags)) or "-"
        extra = []
        if i.params:
            extra.append("params=" + ",".join(i.params))
        if i.zorder_by:
            extra.append("zorder=" + ",".join(i.zorder_by))
        if i.checkpoint:
            extra.append("checkpoint=" + i.checkpoint)
        if i.subkind:
            extra.append("subkind=" + i.subkind)
        table = i.table.name if i.table else "-"
        pred = i.predicate_sql or "-"
        lines.append(
            clean(f"{i.location}  {table}  {i.kind.value}  {pred}  {flags}" + ("  " + " ".join(extra) if extra else ""))
        )
    return plain_lines("\n".join(lines) + ("\n" if lines else ""))


def intents_json(intents: list[Intent]) -> str:
    return _json_text([_clean_doc(i.to_json()) for i in intents]) + "\n"


def _clean_doc(doc):
    """Every string of a JSON document `clean`."""
    if isinstance(doc, str):
        return clean(doc)
    if isinstance(doc, dict):
        return {clean(k) if isinstance(k, str) else k: _clean_doc(v) for k, v in doc.items()}
    if isinstance(doc, (list, tuple)):
        return [_clean_doc(v) for v in doc]
    return doc


# -- tables ---------------------------------------------------------------------------


def table_rows(result, engine_row_level) -> list[dict]:
    """One row per target table: its settings, their source and row-level concurrency."""
    rows = []
    problems = result.read.problems if result.read else {}
    for name in sorted(result.settings):
        s = result.settings[name]
        r = s.read
        applies, why = engine_row_level(s)
        rows.append(
            {
                "table": name,
                "source": s.source,
                "location": r.location if r else None,
                "table_version": r.table_version if r else None,
                "read_at": r.read_at if r else None,
                "partitioned_by": list(s.partitioned_by),
                "clustered_by": list(s.clustered_by),
                "deletion_vectors": s.has_deletion_vectors,
                "isolation_level": s.isolation_level,
                "identity_columns": list(s.identity_columns),
                "row_tracking": r.row_tracking if r else None,
                "protocol": f"{r.min_reader_version}/{r.min_writer_version}" if r and r.min_reader_version else None,
                "features": sorted(set(r.reader_features) | set(r.writer_features)) if r else [],
                "row_level_concurrency": applies,
                "row_level_reason": why,
                "problem": problems.get(name),
            }
        )
    return rows


def tables_text(rows: list[dict], runtime: str, mode: str) -> str:
    header = [
        "table",
        "source",
        "version",
        "partitioned by",
        "clustered by",
        "DV",
        "isolation",
        "identity",
        "row-level",
    ]
    body = []
    for r in rows:
        body.append(
            [
                clean(r["table"]),
                r["source"],
                "-" if r["table_version"] is None else str(r["table_version"]),
                clean(", ".join(r["partitioned_by"])) or "-",
                clean(", ".join(r["clustered_by"])) or "-",
                "yes" if r["deletion_vectors"] else "no",
                clean(r["isolation_level"]),
                clean(", ".join(r["identity_columns"])) or "-",
                ("yes" if r["row_level_concurrency"] else "no") + f" ({clean(r['row_level_reason'])})",
            ]
        )
    widths = [max(len(x) for x in col) for col in zip(header, *body)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in [header, *body]]
    for r in rows:
        extra = []
        if r["location"]:
            extra.append(f"location {r['location']}")
        if r["features"]:
            extra.append(f"protocol {r['protocol']} features {', '.join(r['features'])}")
        if r["row_tracking"]:
            extra.append("row tracking")
        if r["problem"]:
            extra.append(f"not read: {r['problem']}")
        if extra:
            lines.append(clean(f"  {r['table']}: {'; '.join(extra)}"))
    lines.append(f"{len(rows)} tables; settings via {mode}; row-level concurrency for runtime {runtime}.")
    return plain_lines("\n".join(lines) + "\n")


def tables_json(rows: list[dict], runtime: str, mode: str) -> str:
    return _json_text({"version": 1, "runtime": runtime, "spark": mode, "tables": rows}) + "\n"


# -- statistics, SARIF, GitHub annotations, Markdown -------------------------------------


def statistics(findings: list[Finding]) -> str:
    """ruff-style `--statistics`: one line per rule, most frequent first."""
    counts: dict[str, list] = {}
    for f in findings:
        entry = counts.setdefault(f.rule, [0, f.name, f.exception or "-"])
        entry[0] += 1
    rows = sorted(counts.items(), key=lambda kv: (-kv[1][0], kv[0]))
    width = max((len(str(v[0])) for _, v in rows), default=1)
    name_width = max((len(v[1]) for _, v in rows), default=1)
    lines = [f"{v[0]:>{width}}  {rule}  {v[1]:<{name_width}}  [{v[2]}]" for rule, v in rows]
    return "\n".join(lines) + ("\n" if lines else "")


def statistics_json(findings: list[Finding]) -> str:
    """`--statistics --format json`: the same counts, most frequent first."""
    counts = Counter(f.rule for f in findings)
    first = {}
    for f in findings:
        first.setdefault(f.rule, f)
    rows = [
        {"rule": rule, "name": first[rule].name, "exception": first[rule].exception, "count": n}
        for rule, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    return _json_text({"version": 1, "statistics": rows, "findings": len(findings)}) + "\n"


_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _generic(text: str) -> str:
    """A rule template without its per-finding fields, for rule metadata."""
    return _PLACEHOLDER.sub(lambda m: f"<{m.group(1)}>", text).strip()


def sarif(findings: list[Finding], pack) -> str:
    """SARIF 2.1.0: one run, every rule's metadata from rules/, the other intent(s)
    as relatedLocations, and line-independent partialFingerprints."""
    from delta_lint.baseline import fingerprint

    rules = list(pack.rules.values())
    index = {r.id: i for i, r in enumerate(rules)}
    driver_rules = []
    for r in rules:
        help_text = f"{r.what}\n\n{r.why.strip()}"
        help_md = f"{r.what}\n\n{r.why.strip()}"
        if r.example.strip():
            help_text += f"\n\nExample:\n{r.example.rstrip()}"
            help_md += f"\n\n**Example**\n\n```\n{r.example.rstrip()}\n```"
        title, url = r.reference
        help_text += f"\n\nUse instead: {r.use_instead}\n\nReference: {title} ({url})\nRule page: {r.url}"
        help_md += f"\n\n**Use instead:** {r.use_instead}\n\n**Reference:** [{title}]({url})\n\nRule page: {r.url}"
        driver_rules.append(
            {
                "id": r.id,
                "name": r.name,
                "shortDescription": {"text": r.what},
                "fullDescription": {"text": r.why.strip()},
                # the documentation section the rule follows (the rule's page is a path
                # in this repository, not a URI a SARIF viewer can open)
                **({"helpUri": url} if url.startswith("https://") else {}),
                "help": {"text": help_text, "markdown": help_md},
                "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
                "properties": {"exception": r.exception, "tags": ["delta-lake", "concurrency"]},
            }
        )

    def location(loc, message: str | None = None, ident: int | None = None) -> dict:
        out: dict = {
            "physicalLocation": {
                "artifactLocation": {"uri": _uri(loc.path)},
                "region": {"startLine": loc.line, "startColumn": loc.column},
            }
        }
        if ident is not None:
            out = {"id": ident, **out}
        if message:
            out["message"] = {"text": message}
        return out

    results = []
    for f in findings:
        text = f.message
        if f.fix:
            text += f"\nFix: {f.fix}"
        result = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": _SARIF_LEVEL.get(f.severity, "warning"),
            "message": {"text": text},
            "locations": [location(f.location)],
            "partialFingerprints": {"deltaLint/v1": fingerprint(f)},
            "properties": {
                "table": f.table,
                "exception": f.exception,
                "overlap": f.overlap,
                "overlapBasis": f.overlap_basis,
                "verdict": f.verdict,
                "settingsSource": f.settings_source,
                "relatedMore": f.related_more,
            },
        }
        if f.related or f.sites:
            result["relatedLocations"] = [
                location(r, "the other write that can run at the same time", i) for i, r in enumerate(f.related, 1)
            ] + [
                location(s, "the statement of a write reported at a helper's call", i)
                for i, s in enumerate(f.sites, len(f.related) + 1)
            ]
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "delta-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": driver_rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return _json_text(doc) + "\n"


def _uri(path: str) -> str:
    """A display path as a SARIF `uri-reference`: percent-encoded (`my job.sql` ->
    `my%20job.sql`; `%`, `#`, `?` and a `:` that would read as a scheme too), `/` kept."""
    from urllib.parse import quote

    return quote(path, safe="/", errors="surrogateescape")


def _related_list(f: Finding, shown) -> str:
    """A finding's related locations on one line, and how many it leaves out."""
    text = ", ".join(shown(r) for r in f.related)
    return f"{text} and {f.related_more:,} more" if f.related_more else text


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GH_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def github(findings: list[Finding]) -> str:
    """GitHub Actions workflow commands: one annotation per finding on the diff."""
    lines = []
    for f in findings:
        title = f"{f.rule} {f.name}" + (f" ({f.exception})" if f.exception else "")
        body = f.message
        if f.related:
            body += "\nrelated: " + _related_list(f, str)
        if f.sites:
            body += f"\nwritten at {written_at(f)}"
        if f.fix:
            body += f"\nfix: {f.fix}"
        props = ",".join(
            f"{k}={_gh_escape(str(v), prop=True)}"
            for k, v in (
                ("file", f.location.path),
                ("line", f.location.line),
                ("col", f.location.column),
                ("title", title),
            )
        )
        lines.append(f"::{_GH_LEVEL.get(f.severity, 'warning')} {props}::{_gh_escape(body)}")
    return "\n".join(lines) + ("\n" if lines else "")


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_MD_ESCAPED = str.maketrans({c: "\\" + c for c in "\\`*_[]()!~"} | {"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_WORD_JOINER = "\u2060"  # invisible; it keeps GitHub from linking a user, an issue or a bare address
_MD_LINKED = (
    ("@", "@" + _WORD_JOINER),
    ("#", "#" + _WORD_JOINER),
    ("://", ":" + _WORD_JOINER + "//"),
    ("www.", "www" + _WORD_JOINER + "."),
)


def md_untrusted(text: str, code: bool = False) -> str:
    """Text from file names, code or job definitions for a Markdown comment (a cell,
    a list item, a `<summary>`; with `code`, a code span): the one Markdown guard of
    `check` and `advise`. No cell or line break, no HTML, no image, link or emphasis
    (their punctuation is escaped), no @mention or #reference (a word joiner follows
    `@` and `#`), no end of the code span. Control characters are escaped first."""
    text = _md_cell(clean(text))
    if code:  # inside a code span only its own end is special; nothing in it is linked
        return text.replace("`", "'")
    text = text.translate(_MD_ESCAPED)
    for mark, broken in _MD_LINKED:
        text = text.replace(mark, broken)
    return text


def md_fence(lang: str, lines: list[str]) -> list[str]:
    """A fenced code block of `lines` (cleaned) whose fence no backtick run in them
    can close."""
    body = [clean(line) for line in lines]
    longest = max((len(run) for line in body for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + lang, *body, fence]


def markdown(findings: list[Finding], files: int, intents: int) -> str:
    """A summary for a pull-request comment."""
    if not findings:
        return f"### delta-lint: no predicted write conflicts\n\nChecked {files} files, {intents} write intents.\n"
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    out = [
        f"### delta-lint: {len(findings)} finding{'s' if len(findings) != 1 else ''} "
        f"({counts['error']} error, {counts['warning']} warning, {counts['info']} info)",
        "",
        f"Checked {files} files, {intents} write intents.",
        "",
        "| severity | rule | location | table | exception | message |",
        "|---|---|---|---|---|---|",
    ]
    for f in findings:
        out.append(
            f"| {f.severity} | `{f.rule}` {f.name} | `{md_untrusted(str(f.location), code=True)}` "
            f"| {md_untrusted(f.table or '-')} | {f.exception or '-'} | {md_untrusted(f.message)} |"
        )
    detailed = [f for f in findings if f.fix or f.related or f.overlap]
    if detailed:
        out += ["", "<details><summary>Why they overlap, and the fixes</summary>", ""]
        for f in detailed:
            out.append(f"- **`{md_untrusted(str(f.location), code=True)}` {f.rule}**")
            if f.related:
                out.append(f"  - related: {_related_list(f, lambda r: f'`{md_untrusted(str(r), code=True)}`')}")
            if f.sites:
                out.append(f"  - written at `{md_untrusted(written_at(f), code=True)}`")
            if f.overlap:
                out.append(f"  - overlap: {md_untrusted(f.overlap)}")
            if how_sure(f):
                out.append(f"  - how sure: {how_sure(f)}")
            if f.fix:
                out.append(f"  - fix: {md_untrusted(f.fix)}")
        out += ["", "</details>"]
    return "\n".join(out) + "\n"


def rules_markdown(pack) -> str:
    """The README's rule table, generated from rules/ (tests keep the README in sync)."""
    lines = ["| id | name | severity | exception | what it reports |", "|---|---|---|---|---|"]
    for r in pack.rules.values():
        what = f"[{_md_cell(r.what)}]({r.url})"
        lines.append(f"| {r.id} | {r.name} | {r.severity} | {r.exception or '-'} | {what} |")
    return "\n".join(lines) + "\n"


def rules_json(pack) -> str:
    """Every rule with its texts as rules/ holds them: its documentation, and the
    templates of its findings' message and fix (`summary`, `fix`: with their `{fields}`)."""
    fields = ("id", "name", "severity", "exception", "what", "why", "example", "use_instead", "summary", "fix", "url")
    rules = [
        {**{k: getattr(r, k) for k in fields}, "reference": dict(zip(("title", "url"), r.reference))}
        for r in pack.rules.values()
    ]
    return _json_text({"version": 1, "rules": rules}) + "\n"


# -- schedule ------------------------------------------------------------------------------


def _job_summary(sched, job) -> str:
    from delta_lint.cron import describe, format_duration

    parts = []
    if job.continuous:
        parts.append("continuous")
    elif job.cron:
        parts.append(f"{describe(*job.cron)}, ~{format_duration(sched.duration(job))}")
    elif job.trigger:
        parts.append(job.trigger)
    else:
        parts.append("no schedule")
    if job.paused:
        parts.append("paused")
    parts.append(f"max_concurrent_runs {job.max_concurrent_runs}")
    if job.parameters:
        parts.append(f"parameters {', '.join(job.parameters)}")
    return "; ".join(parts)


SHOWN_EXAMPLES = 10  # names shown for a group of nodes in the summarised schedule


def _schedule_head(sched) -> list[str]:
    wf = sched.workflows
    lines = [f"Jobs from {wf.source}:" if wf.source else "No bundle or job definitions: every file is its own job."]
    lines += [f"  judged: {wf.target}"] if wf.target else []
    lines += [f"  note: {n}" for n in wf.notes]
    lines += [f"  not read: {where}: {why}" for where, why in wf.problems]  # broken files found in the project
    for job in sorted(wf.jobs.values(), key=lambda j: j.key):
        lines.append(f"  {job.key} ({_job_summary(sched, job)})")
        for task in job.tasks.values():
            after = f" after {', '.join(task.depends_on)}" if task.depends_on else ""
            each = f" for_each x{task.for_each_concurrency}" if task.for_each_concurrency else ""
            target = (
                ", ".join(task.files)
                if task.files
                else f"not analysed: {task.problem}"
                if task.problem
                else f"starts job `{task.starts[0]}`"
                if task.starts
                else "runs no file"
            )
            lines.append(f"    {task.key}{after}{each}: {target}")
    return [clean(line) for line in lines]


def _split_nodes(sched) -> tuple[list, list]:
    """(files no job schedules, every other node): the first meet everything alike."""
    nodes = sched.all_nodes()
    return [n for n in nodes if n.kind == "file"], [n for n in nodes if n.kind != "file"]


def _pairs(nodes: list):
    for i, a in enumerate(nodes):
        for b in nodes[i:]:
            yield a, b


def _examples(names: list[str], total: int | None = None) -> str:
    total = len(names) if total is None else total
    shown = ", ".join(names[:SHOWN_EXAMPLES])
    return f"{shown} and {total - SHOWN_EXAMPLES:,} more" if total > SHOWN_EXAMPLES else shown


def schedule_lines(sched, full: bool = False):
    """The overlap graph as lines of text. By default a summary whose size does not
    grow with the number of files: files no job schedules are counted (they meet
    every other file and every job alike, for one reason said once), and a cause
    that makes one node overlap many others is said once with a count. `full`
    lists every pair, one line each (generated, never held in memory)."""
    yield from _schedule_head(sched)
    if full:
        pairs = ((a, b, *sched.node_overlap(a, b)) for a, b in _pairs(sched.all_nodes()))
        yield "May overlap:"
        empty = True
        for a, b, c, _ in pairs:
            if c is not None:
                empty = False
                yield clean(f"  {a.key()} ~ {b.key()}: {c.reason}")
        if empty:
            yield "  (none)"
        yield "Never overlap:"
        empty = True
        for a, b, c, why in ((a, b, *sched.node_overlap(a, b)) for a, b in _pairs(sched.all_nodes())):
            if c is None:
                empty = False
                yield clean(f"  {a.key()} ~ {b.key()}: {why}")
        if empty:
            yield "  (none)"
        return
    files, others = _split_nodes(sched)
    if files:
        when = f"run by hand, never paired: {sched.by_hand_why}" if sched.by_hand else "each may run at any time"
        yield clean(f"Files no job schedules ({len(files):,}; {when}):")
        yield clean(f"  {_examples([n.key() for n in files])}")
    may, never = _Section(), _Section()
    anytime: dict[str, list[str]] = {}  # a cause that makes one job meet every other -> the jobs it meets
    by_job: dict[str, list] = {}
    for node in others:
        by_job.setdefault(node.job, []).append(node)
    jobs = sorted(by_job)
    for i, job_a in enumerate(jobs):
        within: dict[tuple[bool, str], list[tuple[str, str]]] = {}  # one reason said once per job
        for a, b in _pairs(by_job[job_a]):  # tasks of one job: DAG order and concurrent runs
            c, why = sched.node_overlap(a, b)
            reason = why if c is None else c.reason
            generic = reason
            for task in {a.task, b.task} - {None}:
                generic = generic.replace(f"`{task}`", "`…`")
            within.setdefault((c is None, generic), []).append((f"{a.key()} ~ {b.key()}", reason))
        for (apart, generic), pairs in within.items():
            section = never if apart else may
            if len(pairs) == 1:
                section.add(f"  {pairs[0][0]}: {pairs[0][1]}")
            else:
                shown = _examples([p for p, _ in pairs])
                section.add(f"  {len(pairs):,} pairs of tasks of job `{job_a}`: {generic}: {shown}", len(pairs))
        for job_b in jobs[i + 1 :]:
            # two jobs meet, or not, alike for every pair of their tasks: asked once
            c, why = sched.node_overlap(by_job[job_a][0], by_job[job_b][0])
            n = len(by_job[job_a]) * len(by_job[job_b])
            label = f"{job_a} ~ {job_b}" + (f" ({n:,} pairs of tasks)" if n > 1 else "")
            if c is None:
                never.add(f"  {label}: {why}", n)
                continue
            cause, sep, _ = c.reason.partition(", so it can overlap ")
            if sep:  # one of the two runs at any time: said once for all it meets
                runs_anytime = job_a if f"`{job_a}`" in cause else job_b
                anytime.setdefault(cause, []).append(job_b if runs_anytime == job_a else job_a)
                may.count(n)
            else:
                may.add(f"  {label}: {c.reason}", n)
    for cause, met in sorted(anytime.items()):
        word = "job" if len(met) == 1 else "jobs"
        may.lines.insert(0, f"  {cause}, so it can overlap {len(met):,} other {word}: {_examples(sorted(met))}")
    if files:
        n = len(files)
        met = (
            f"  {n:,} files no job schedules: with each other ({n * (n - 1) // 2:,} pairs) and with each of the "
            f"{len(others):,} jobs and tasks ({n * len(others):,} pairs): "
        )
        never.lines.insert(0, f"  each of the {n:,} files no job schedules with itself: one run at a time")
        if sched.by_hand:  # `unscheduled: by-hand` (or `auto` with job definitions): never paired
            never.lines.insert(0, met + "they are run by hand, not by a job")
        else:
            may.lines.insert(0, met + "they may run at any time")
    yield from may.render("May overlap:")
    yield from never.render("Never overlap:")
    yield "(`delta-lint schedule --all` lists every pair of tasks and files)"


class _Section:
    """Lines of one part of the summarised schedule: at most SHOWN_PAIRS of them, and
    how many pairs of tasks the rest stand for."""

    SHOWN_PAIRS = 40

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.hidden_lines = 0
        self.pairs = 0

    def add(self, line: str, pairs: int = 1) -> None:
        self.pairs += pairs
        if len(self.lines) < self.SHOWN_PAIRS:
            self.lines.append(line)
        else:
            self.hidden_lines += 1

    def count(self, pairs: int) -> None:
        self.pairs += pairs

    def render(self, title: str):
        yield title
        yield from (clean(line) for line in self.lines) if self.lines else ["  (none)"]
        if self.hidden_lines:
            yield f"  ... and {self.hidden_lines:,} more lines like these ({self.pairs:,} pairs of tasks in all)"


def schedule_text(sched, full: bool = False) -> str:
    return "\n".join(schedule_lines(sched, full)) + "\n"


def schedule_json_chunks(sched, full: bool = False):
    """The overlap graph as JSON text, in pieces. By default files no job schedules
    are one entry (`unscheduled_files`: count, examples, pair counts) and `pairs`
    holds the other nodes' pairs; `full` lists every node and pair."""
    wf = sched.workflows
    files, others = _split_nodes(sched)
    nodes = sched.all_nodes() if full else others
    files_of: dict = {}
    for path, ns in sched.nodes_of.items():
        for n in ns:
            if full or n.kind != "file":
                files_of.setdefault(n, []).append(path)
    head = {
        "version": 1,
        "source": wf.source,
        "target": wf.target,
        "notes": wf.notes,
        "problems": [{**where.to_json(), "message": why} for where, why in wf.problems],
        "nodes": [
            {"node": n.key(), "job": n.job, "task": n.task, "kind": n.kind, "files": sorted(files_of.get(n, []))}
            for n in nodes
        ],
    }
    if not full:
        n = len(files)
        head["unscheduled_files"] = {
            "count": n,
            "examples": [f.key() for f in files[:SHOWN_EXAMPLES]],
            "pairs_with_each_other": n * (n - 1) // 2,
            "pairs_with_jobs": n * len(others),
            "overlap": not sched.by_hand,
            "reason": sched.by_hand_why
            if sched.by_hand
            else "a file that no job definition or configured job schedules can run at any time",
        }
    text = _json_text(_clean_doc(head))
    yield text[: text.rindex("}")].rstrip() + ',\n  "pairs": ['
    first = True
    for a, b in _pairs(nodes):
        c, why = sched.node_overlap(a, b)
        pair = {
            "a": a.key(),
            "b": b.key(),
            "overlap": c is not None,
            "reason": c.reason if c is not None else why,
            "distinct_runs": c.distinct_runs if c is not None else None,
        }
        item = json.dumps(_clean_doc(pair), indent=2).replace("\n", "\n    ")  # the layout of indent=2
        yield ("\n    " if first else ",\n    ") + item
        first = False
    yield ("\n  ]\n}\n" if not first else "]\n}\n")


def schedule_json(sched, full: bool = False) -> str:
    return "".join(schedule_json_chunks(sched, full))


# The output formats of `delta-lint check`: one small function per format over the
# findings stage's list. A new format is one function registered here (and its name
# among the CLI's `--format` choices).


@dataclasses.dataclass(frozen=True)
class Report:
    """What every format is made from: the findings to report and the run's counts."""

    findings: list[Finding]
    files: int = 0
    intents: int = 0
    skipped: dict[str, str] = dataclasses.field(default_factory=dict)  # display path -> kind of file not linted
    quiet: bool = False  # text: no summary line
    color: bool = False
    width: int | None = None  # text: wrap messages to this width
    source: Callable[[str], list[str] | None] | None = None  # text: a file's lines, by display path
    notes: tuple[str, ...] = ()  # said once about the run (the target judged, no schedule known)


Reporter = Callable[[Report], str]
REPORTERS: dict[str, Reporter] = {}


def reporter(*names: str) -> Callable[[Reporter], Reporter]:
    def register(fn: Reporter) -> Reporter:
        for name in names:
            REPORTERS[name] = fn
        return fn

    return register


def render(name: str, report: Report) -> str:
    """The findings in format `name`, file names and code text without control
    characters; plain-text formats without a line that starts a workflow command."""
    out = REPORTERS[name](dataclasses.replace(report, findings=[clean_finding(f) for f in report.findings]))
    return plain_lines(out) if name in _PLAIN else out


_PLAIN = ("text", "full", "concise")


@reporter("text", "full")
def _full_text(r: Report) -> str:
    return text(
        r.findings, r.files, r.intents, r.color, r.quiet, r.skipped, width=r.width, source=r.source, notes=r.notes
    )


@reporter("concise")
def _concise_text(r: Report) -> str:
    return text(r.findings, r.files, r.intents, r.color, r.quiet, r.skipped, concise=True, width=r.width, notes=r.notes)


@reporter("json")
def _json(r: Report) -> str:
    return to_json(r.findings, r.files, r.intents, r.skipped, r.notes)


@reporter("sarif")
def _sarif(r: Report) -> str:
    from delta_lint.rulepack import load

    return sarif(r.findings, load())


@reporter("github")
def _github(r: Report) -> str:
    return github(r.findings)


@reporter("markdown")
def _markdown(r: Report) -> str:
    return markdown(r.findings, r.files, r.intents)


@reporter("gitlab")
def _gitlab(r: Report) -> str:
    from delta_lint import formats_ci

    return formats_ci.gitlab(r.findings)


@reporter("junit")
def _junit(r: Report) -> str:
    from delta_lint import formats_ci

    return formats_ci.junit(r.findings)


@reporter("json-lines")
def _json_lines(r: Report) -> str:
    """One finding per line, the `--format json` objects, nothing else: made for
    `jq -c`, log shippers and streaming readers. No findings is no line."""
    return "".join(json_piece(f) + "\n" for f in r.findings)
