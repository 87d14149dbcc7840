"""One run of the pipeline: discover -> front ends -> schedule -> engine.

Pure orchestration, no printing: the CLI and the tests call the same function.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from delta_lint.config import Config
from delta_lint.engine import Engine, Finding, diagnostics_as_findings
from delta_lint.frontend import READ_ERROR, analyze_path
from delta_lint.frontend.discover import discover
from delta_lint.model import Diagnostic, FileResult, Intent, Location
from delta_lint.schedule import build_schedule


@dataclass
class RunResult:
    files: list[FileResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def intents(self) -> list[Intent]:
        return [i for f in self.files for i in f.intents]


def display_path(path: Path, cwd: Path) -> str:
    """Paths relative to the working directory, posix style, for stable output."""
    try:
        return path.resolve().relative_to(cwd.resolve()).as_posix()
    except ValueError:
        return os.path.relpath(path.resolve(), cwd.resolve()).replace(os.sep, "/")


def analyze(
    paths: list[Path], config: Config, cwd: Path | None = None
) -> tuple[list[FileResult], list[Diagnostic], dict[str, str]]:
    """Front ends over every discovered file; returns results, discovery problems and
    the display-path -> config-root-relative path map used by the schedule."""
    cwd = cwd or Path.cwd()
    found = discover(paths, config.root, config.exclude)
    diagnostics = [
        Diagnostic(READ_ERROR, Location(display_path(p, cwd), 1, 1), f"cannot analyse `{p}`: {why}", "error")
        for p, why in found.problems
    ]
    results = []
    rel_paths = {}
    for path in found.files:
        display = display_path(path, cwd)
        results.append(analyze_path(path, display))
        rel_paths[display] = display_path(path, config.root)
    return results, diagnostics, rel_paths


def check(paths: list[Path], config: Config, cwd: Path | None = None) -> RunResult:
    results, diagnostics, rel_paths = analyze(paths, config, cwd)
    intents = [i for r in results for i in r.intents]
    engine = Engine(config, build_schedule(config, rel_paths))
    findings = engine.check(intents)
    all_diags = diagnostics + [d for r in results for d in r.diagnostics] + engine.internal_errors
    findings = sorted(findings + diagnostics_as_findings(all_diags), key=Finding.sort_key)
    findings = [f for f in findings if selected(f.rule, config.select, config.ignore)]
    return RunResult(results, findings, all_diags)


def selected(rule: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """ruff-style: the longest matching prefix of select/ignore decides."""
    best_select = max((len(p) for p in select if rule.startswith(p)), default=-1 if select else 0)
    best_ignore = max((len(p) for p in ignore if rule.startswith(p)), default=-1)
    return best_select >= 0 and best_select >= best_ignore + (0 if best_ignore < 0 else 1)
