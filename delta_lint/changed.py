"""Changed-files mode: conflicts are pairwise across the whole project, but a hook
or a pull request cares about what changed. A finding is reported when one of
its locations (the primary or a related one, or the statement a helper's write
reported at its call stands at) is in a changed file — or always, when the
configuration or the settings snapshot changed."""

from __future__ import annotations

import os
from pathlib import Path

from delta_lint.config import ConfigError
from delta_lint.model import Finding


def git_changed(base: str, cwd: Path) -> set[Path]:
    """Files changed since the merge base of `base` and HEAD, including uncommitted
    and untracked ones (so the same command works in a hook, locally and in CI)."""
    import subprocess  # here: every check imports this module, few ask git

    def git(*args: str) -> str:
        try:
            proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise ConfigError(f"--diff-base: cannot run git: {err}") from err
        if proc.returncode != 0:
            first = (proc.stderr.strip().splitlines() or ["git failed"])[0]
            raise ConfigError(f"--diff-base {base}: {first}")
        return proc.stdout

    top = Path(git("rev-parse", "--show-toplevel").strip())
    merge_base = git("merge-base", base, "HEAD").strip()
    names = git("diff", "--name-only", "-z", merge_base, "--").split("\0")
    names += git("ls-files", "--others", "--exclude-standard", "-z").split("\0")
    return {(top / n).resolve() for n in names if n}


def only_changed(findings: list[Finding], changed: set[Path], cwd: Path, always: set[Path]) -> list[Finding]:
    """Findings touching a changed file; all of them when an `always` file changed."""
    resolved = {p.resolve() for p in changed}
    if resolved & {p.resolve() for p in always}:
        return findings

    def touches(f: Finding) -> bool:
        return any((cwd / loc.path).resolve() in resolved for loc in (f.location, *f.related, *f.sites))

    return [f for f in findings if touches(f)]


def project_scope(given: list[Path], root: Path) -> list[Path] | None:
    """The paths whose findings a plain `check PATHS` reports once the whole project
    (the configuration's folder) is analysed: conflicts are between files, so a file
    checked alone would pass while the job it conflicts with sits next to it. None
    when PATHS cover the project already (nothing to narrow)."""
    top = root.resolve()
    for path in given:
        resolved = path.resolve()
        if resolved == top or resolved in top.parents:
            return None
    return given


PROJECT_INPUTS = {".yml", ".yaml", ".json", ".toml", ".tf"}  # configuration, snapshot, bundles, Jobs JSON, Terraform


def within(findings: list[Finding], scope: list[Path], cwd: Path, shared: set[Path]) -> list[Finding]:
    """Findings with a location (the primary or a related one, or a statement site of
    either) in a file of `scope` or under one of its folders. Findings on the project's shared inputs (`shared`:
    configuration, snapshot, bundle and job files; or any YAML, JSON or TOML file)
    are kept: a broken bundle or an unreadable task concerns every file."""
    # where a path is written and where it leads: a symbolic link under a checked
    # folder is in it, wherever it points
    roots = [q for p in scope for q in (Path(os.path.abspath(p)), p.resolve())]
    kept = {q for p in shared for q in (Path(os.path.abspath(p)), p.resolve())}
    inside: dict[str, bool] = {}  # one answer per path: a large run names a file thousands of times

    def touches(path: str) -> bool:
        if path not in inside:
            written = Path(os.path.abspath(cwd / path))
            inside[path] = written.suffix.lower() in PROJECT_INPUTS or any(
                candidate in kept or any(candidate == r or r in candidate.parents for r in roots)
                for candidate in (written, _resolved(written))
            )
        return inside[path]

    return [f for f in findings if any(touches(loc.path) for loc in (f.location, *f.related, *f.sites))]


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of links
        return path
