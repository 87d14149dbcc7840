"""Gitignore-like globs over project-relative posix paths: `exclude`, a job's
`paths` and `per-file-ignores` all match files the same way. Below every stage, so
discovery, the schedule and suppressions can all use it.

Globs come from the repository's configuration, which a pull request can change.
Python's `re` backtracks: `*a*a*a*a*b` against a long name takes exponential time.
They are compiled with RE2 instead, which matches in time linear in the path, so no
glob can stall a run; a glob too long or too complex for RE2 is refused when the
configuration is read (`glob_problem`).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

MAX_GLOB = 1024  # characters: paths are short, and RE2's memory for a pattern is capped


def _translate(pattern: str) -> str:
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
    return "".join(out) + "(?:/.*)?$"


@cache
def _options():
    """RE2's options for globs. RE2 is imported with the first glob a run compiles:
    most runs have none to match, and loading it is a share of a short run's start."""
    import re2

    options = re2.Options()
    options.dot_nl = True  # a newline in a file name is still a character
    return options


@lru_cache(maxsize=256)
def glob_regex(pattern: str):
    """The compiled matcher of a glob (trailing `/` ignored); ValueError when RE2
    cannot compile it (see `glob_problem`)."""
    import re2

    if len(pattern) > MAX_GLOB:
        raise ValueError(f"a glob longer than {MAX_GLOB} characters")
    try:
        return re2.compile(_translate(pattern.rstrip("/")), _options())
    except re2.error as err:
        raise ValueError(f"cannot compile the glob: {err}") from err


def glob_problem(pattern: str) -> str | None:
    """Why `pattern` cannot be used as a glob, or None."""
    if "\0" in pattern:
        return "a glob cannot contain a NUL byte"
    try:
        glob_regex(pattern)
    except ValueError as err:
        return str(err)
    return None


def matches_any(rel_posix: str, patterns: tuple[str, ...]) -> bool:
    if not patterns:
        return False
    # RE2 matches UTF-8 text: a name that is not valid UTF-8 (surrogate escapes) is
    # matched with its undecodable bytes as `?`
    if not rel_posix.isascii():
        rel_posix = rel_posix.encode("utf-8", "replace").decode("utf-8")
    return any(glob_regex(p).match(rel_posix) for p in patterns)
