"""Gitignore-like globs over project-relative posix paths: `exclude`, a job's
`paths` and `per-file-ignores` all match files the same way. Below every stage, so
discovery, the schedule and suppressions can all use it."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern:
    """A gitignore-like glob (`**` spans directories) as a regex over posix paths."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + "(?:/.*)?$")


def matches_any(rel_posix: str, patterns: tuple[str, ...]) -> bool:
    return any(glob_regex(p.rstrip("/")).match(rel_posix) for p in patterns)
