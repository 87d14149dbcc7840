"""How `delta-lint advise` prints its advice: text, JSON and Markdown (a
pull-request comment). Pure functions of the advice; no judging here."""

from __future__ import annotations

import json
from collections import Counter

from delta_lint.advise import Advice, Change, unified_diff
from delta_lint.model import Finding
from delta_lint.report import clean, md_fence, md_untrusted, plain_lines

FORMAT_VERSION = 1
LEFT_SHOWN = 30  # findings left after a plan, listed in text (JSON lists all)

Edited = dict[str, str]  # display path -> the text now, of every file a change edits


def _counts(findings: list[Finding]) -> str:
    by = Counter(f.severity for f in findings)
    parts = [f"{by[s]} {s}" for s in ("error", "warning", "info") if by[s]]
    return f"{len(findings)} ({', '.join(parts)})" if findings else "0"


def _where(f: Finding) -> str:
    return clean(f"{f.rule} {f.location}" + (f" `{f.table}`" if f.table else ""))


def changed_lines(path: str, before: str, after: str) -> list[str]:
    """The lines an edit writes, as `path:line: text` (the new file's line numbers)."""
    out = []
    for line in unified_diff(path, before, after).splitlines():
        if line.startswith("@@"):
            new_start = int(line.split("+")[1].split(",")[0].split(" ")[0])
            number = new_start
            continue
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("+"):
            out.append(f"{path}:{number}: {line[1:]}")
            number += 1
        elif line.startswith(" "):
            number += 1
    return out


def edits_of(change: Change, edited: Edited) -> list[tuple[str, str, str]]:
    """(path, text now, text after) of each file the change edits, alone."""
    out = []
    for rw in change.rewrites:
        if rw.path in edited:
            before = edited[rw.path]
            out.append((rw.path, before, rw.fn(before)))
    return out


def text(advice: Advice, edited: Edited, diff: bool = False) -> str:
    lines: list[str] = []
    base = [f for f in advice.baseline if not f.rule.startswith("DL0")]
    lines.append(f"{_counts(base)} predicted conflicts now.")
    if not advice.ranked:
        lines.append("No change the engine can prove useful was found.")
    for n, change in enumerate(advice.ranked, 1):
        lines += _change_text(n, change, edited, diff)
    if advice.plan:
        lines.append("")
        lines.append(
            f"Plan of {len(advice.plan)} change{'s' if len(advice.plan) != 1 else ''} (greedy, each judged after the ones before):"
        )
        for n, change in enumerate(advice.plan, 1):
            lines.append(
                f"  {n}. {clean(change.what)}: removes {_counts(change.removed)}, adds {_counts(change.added)}"
            )
        lines.append(f"  left after the plan: {_counts(advice.left)} predicted conflicts")
        for f in advice.left[:LEFT_SHOWN]:
            lines.append(f"    {_where(f)}")
        if len(advice.left) > LEFT_SHOWN:
            lines.append(f"    ... and {len(advice.left) - LEFT_SHOWN} more (--format json lists every one)")
    if advice.not_advised:
        lines.append("")
        lines.append(
            f"{advice.not_advised} other candidate changes were judged and not advised (they remove no conflict, or add as many)."
        )
    for note in advice.notes:
        lines.append(f"note: {clean(note)}")
    return plain_lines("\n".join(lines) + "\n")


def _change_text(n: int, change: Change, edited: Edited, diff: bool) -> list[str]:
    lines = ["", f"{n}. [{change.lever}] {clean(change.what)}"]
    if change.statement:
        lines.append(f"   run: {clean(change.statement)}  (delta-lint never runs it)")
    for path, before, after in edits_of(change, edited):
        if diff:
            lines += ["   " + clean(x) for x in unified_diff(path, before, after).rstrip("\n").split("\n")]
        else:
            lines += [f"   edit: {clean(x)}" for x in changed_lines(path, before, after)]
    lines.append(f"   removes {_counts(change.removed)}: " + ", ".join(_where(f) for f in change.removed))
    lines.append(
        f"   adds {_counts(change.added)}" + (": " + ", ".join(_where(f) for f in change.added) if change.added else "")
    )
    lines.append(f"   cost: {clean(change.cost)}")
    for a in change.assumptions:
        lines.append(f"   assumes: {clean(a)}")
    return lines


def _change_json(change: Change, edited: Edited) -> dict:
    errors, warnings, _ = change.score
    return {
        "kind": change.kind,
        "lever": change.lever,
        "target": change.target,
        "what": change.what,
        "statement": change.statement,
        "edits": [
            {"path": path, "lines": changed_lines(path, before, after), "diff": unified_diff(path, before, after)}
            for path, before, after in edits_of(change, edited)
        ],
        "removed": [f.to_json() for f in change.removed],
        "added": [f.to_json() for f in change.added],
        "net": {"error": errors, "warning": warnings},
        "cost": change.cost,
        "assumptions": list(change.assumptions),
    }


def to_json(advice: Advice, edited: Edited) -> str:
    doc = {
        "version": FORMAT_VERSION,
        "conflicts": len([f for f in advice.baseline if not f.rule.startswith("DL0")]),
        "changes": [_change_json(c, edited) for c in advice.ranked],
        "plan": None
        if not advice.plan
        else {
            "changes": [_change_json(c, edited) for c in advice.plan],
            "left": [f.to_json() for f in advice.left],
        },
        "not_advised": advice.not_advised,
        "not_judged": advice.not_judged,
        "notes": advice.notes,
    }
    return json.dumps(doc, indent=2) + "\n"


def _md(text: str) -> str:
    return md_untrusted(text)


def markdown(advice: Advice, edited: Edited) -> str:
    base = [f for f in advice.baseline if not f.rule.startswith("DL0")]
    out = ["### delta-lint advise", "", f"{_counts(base)} predicted conflicts now."]
    out += [f"note: {_md(n)}" for n in advice.notes]
    if not advice.ranked:
        out += ["", "No change the engine can prove useful was found."]
        return "\n".join(out) + "\n"
    out += ["", "| # | change | removes | adds | cost |", "|---|---|---|---|---|"]
    for n, c in enumerate(advice.ranked, 1):
        out.append(f"| {n} | {_md(c.what)} | {_counts(c.removed)} | {_counts(c.added)} | {_md(c.cost)} |")
    for n, c in enumerate(advice.ranked, 1):
        out += ["", "<details>", f"<summary>{n}. {_md(c.what)}</summary>", ""]
        if c.statement:
            out += md_fence("sql", [c.statement])
        for path, before, after in edits_of(c, edited):
            out += md_fence("diff", unified_diff(path, before, after).rstrip("\n").split("\n"))
        out += [f"- removes: {', '.join(_md(_where(f)) for f in c.removed)}"]
        if c.added:
            out += [f"- adds: {', '.join(_md(_where(f)) for f in c.added)}"]
        out += [f"- assumes: {_md(a)}" for a in c.assumptions]
        out += ["", "</details>"]
    if advice.plan:
        out += ["", f"**Plan of {len(advice.plan)}**: " + "; ".join(_md(c.what) for c in advice.plan)]
        out += [f"left after it: {_counts(advice.left)} predicted conflicts"]
    return "\n".join(out) + "\n"
