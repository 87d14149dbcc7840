"""Changed-files mode: conflicts are pairwise across the whole project, but a hook
or a pull request cares about what changed. A finding is reported when one of
its locations (the primary or a related one) is in a changed file — or always,
when the configuration or the settings snapshot changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from delta_lint.config import ConfigError
from delta_lint.model import Finding


def git_changed(base: str, cwd: Path) -> set[Path]:
    """Files changed since the merge base of `base` and HEAD, including uncommitted
    and untracked ones (so the same command works in a hook, locally and in CI)."""

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
        return any((cwd / loc.path).resolve() in resolved for loc in (f.location, *f.related))

    return [f for f in findings if touches(f)]
