"""The findings stage: everything between the engine's findings and what a user sees.

Rule selection, suppression comments and `per-file-ignores`, the narrowing to the
paths a user named, the baseline, changed files, and the exit code are decided
here, in this order, by one pure function. The orchestrator produces the engine's
findings and the files' suppression comments; the CLI builds a `Gate` from its
options and calls `finish` once; reporters print the list it returns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from delta_lint import suppress
from delta_lint.model import Finding, is_coverage

SEVERITY_ORDER = {"info": 0, "warning": 1, "error": 2}
CONFIG_ERROR = "DL002"  # a configuration problem found while running: exit 2, as a usage error


@dataclass(frozen=True)
class Suppressions:
    """What suppression needs of a run: each file's `delta-lint: ignore` comments (by
    display path) and, for `per-file-ignores` globs, each display path as written
    against the configuration's folder."""

    scans: dict[str, suppress.FileSuppressions] = field(default_factory=dict)
    rel_of: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Gate:
    """The user's choices about which findings to report and which fail the run."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    fail_on: str = "warning"
    strict: bool = False  # coverage gaps (DL000-DL008) fail the gate too
    exit_zero: bool = False
    cwd: Path = field(default_factory=Path.cwd)  # what findings' paths are relative to
    # files whose change concerns every finding: configuration, snapshot, bundle and job files
    shared: frozenset[Path] = frozenset()
    scope: tuple[Path, ...] | None = None  # report findings touching these paths (files or folders)
    baseline: Counter[str] | None = None  # fingerprints of accepted findings
    changed: frozenset[Path] | None = None  # report findings touching these changed files

    @classmethod
    def of(cls, config, **choices) -> Gate:
        """The configuration's selection, ignores and strictness, with `choices` on top."""
        base = dict(
            select=tuple(config.select),
            ignore=tuple(config.ignore),
            per_file_ignores=dict(config.per_file_ignores),
            strict=bool(config.strict),
        )
        return cls(**{**base, **choices})


@dataclass(frozen=True)
class Outcome:
    findings: list[Finding]
    exit_code: int  # 0 nothing fails the gate, 1 findings fail it, 2 a configuration error


def selected(rule: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """ruff-style: the longest matching prefix of select/ignore decides."""
    best_select = max((len(p) for p in select if rule.startswith(p)), default=-1 if select else 0)
    best_ignore = max((len(p) for p in ignore if rule.startswith(p)), default=-1)
    return best_select >= 0 and best_select >= best_ignore + (0 if best_ignore < 0 else 1)


def finish(findings: list[Finding], suppressions: Suppressions, gate: Gate) -> Outcome:
    """The findings to report, sorted, and the exit code they give."""
    is_selected = lambda rule: selected(rule, gate.select, gate.ignore)  # noqa: E731
    kept = [f for f in findings if is_selected(f.rule)]
    kept, unused = suppress.apply(kept, suppressions.scans, gate.per_file_ignores, suppressions.rel_of, is_selected)
    kept = sorted(kept + [u for u in unused if is_selected(u.rule)], key=Finding.sort_key)
    if gate.scope is not None:
        from delta_lint.changed import within

        kept = within(kept, list(gate.scope), gate.cwd, set(gate.shared))
    if gate.baseline is not None:
        from delta_lint.baseline import new_findings

        kept = new_findings(kept, gate.baseline)
    if gate.changed is not None:
        from delta_lint.changed import only_changed

        kept = only_changed(kept, set(gate.changed), gate.cwd, set(gate.shared))
    return Outcome(kept, exit_code(kept, gate))


def exit_code(findings: list[Finding], gate: Gate) -> int:
    return gate_code(((f.rule, f.severity) for f in findings), gate)


def gate_code(reported: Iterable[tuple[str, str]], gate: Gate) -> int:
    """`exit_code` from each reported finding's rule and severity: an output patched
    from a kept one (`patch`) knows those of the findings it copies, not the findings."""
    threshold = SEVERITY_ORDER[gate.fail_on]
    # coverage gaps (DL000-DL008) are not predicted conflicts: they fail the gate only
    # when asked for (`--fail-on info`, `--strict`, `strict: true`)
    gaps_count = gate.strict or gate.fail_on == "info"
    failing = False
    for rule, severity in reported:
        if rule == CONFIG_ERROR:
            return 2
        if not failing and SEVERITY_ORDER.get(severity, 0) >= threshold and (gaps_count or not is_coverage(rule)):
            failing = True
    return 1 if failing and not gate.exit_zero else 0
