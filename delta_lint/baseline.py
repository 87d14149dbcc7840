"""Fingerprints and baselines: adopt delta-lint on a repository with known
conflicts, then fail only on new ones.

A fingerprint leaves out line and column numbers (of the finding and of every
location its message names), so unrelated edits that move code do not turn old
findings into new ones; it changes when the rule, table, file, the statements
involved or the other files change. Identical findings in one file are counted.

The statement sites of writes reached through helpers (`Finding.sites`) are left
out too: they are line positions, and a baseline written before findings had them
must keep matching. An edit of a helper's write that changes what the write does
changes the message (its kind, its condition) and so the fingerprint, as for a
write that stands at its call.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

from delta_lint import __version__
from delta_lint.atomic import write_atomic
from delta_lint.config import ConfigError
from delta_lint.model import Finding
from delta_lint.safeio import read_input_text

_POSITION = re.compile(r"(?<=\S):\d+:\d+\b")
FORMAT_VERSION = 1


def fingerprint(f: Finding) -> str:
    message = _POSITION.sub("", f.message)
    related = sorted({r.path for r in f.related})
    parts = [f.rule, f.table or "", f.location.path, message, _POSITION.sub("", f.fix), "|".join(related)]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]


def write_baseline(path: Path, findings: list[Finding]) -> int:
    entries = sorted(
        (
            {"fingerprint": fingerprint(f), "rule": f.rule, "path": f.location.path, "message": f.message}
            for f in findings
        ),
        key=lambda e: (e["path"], e["rule"], e["fingerprint"], e["message"]),
    )
    doc = {"version": FORMAT_VERSION, "generator": f"delta-lint {__version__}", "findings": entries}
    write_atomic(path, json.dumps(doc, indent=2) + "\n")
    return len(entries)


def load_baseline(path: Path) -> Counter[str]:
    if not path.exists() and not path.is_symlink():
        raise ConfigError(f"{path}: baseline not found (create it with --write-baseline)")
    try:
        text = read_input_text(path)
        doc = json.loads(text)
    except (OSError, ValueError, RecursionError) as err:
        raise ConfigError(f"{path}: cannot read the baseline: {err}") from err
    if not isinstance(doc, dict) or doc.get("version") != FORMAT_VERSION or not isinstance(doc.get("findings"), list):
        raise ConfigError(f"{path}: not a delta-lint baseline (expected version {FORMAT_VERSION} with `findings`)")
    from delta_lint.schema import BaselineFile, Source, convert

    baseline: BaselineFile = convert(doc, BaselineFile, Source(path, text=text))
    return Counter(e.fingerprint for e in baseline.findings)


def new_findings(findings: list[Finding], baseline: Counter[str]) -> list[Finding]:
    """Findings not in the baseline; each baseline entry absorbs one finding."""
    remaining = Counter(baseline)
    out = []
    for f in findings:
        fp = fingerprint(f)
        if remaining[fp] > 0:
            remaining[fp] -= 1
        else:
            out.append(f)
    return out
