"""Which files of the project exist, as code that searches for a document or lists
a folder of them asks (`Path.cwd().parents`, `.exists()`, `glob("*.yaml")`).

The value layer never touches the disk: a file's code names what it looks for, and
the link stage answers from the project's files, as it gives the documents the code
loads (`run.DocumentReader`). A question is a wanted "document" whose key is
`LISTING` followed by a glob pattern relative to the configuration root (an exact
path escaped, `glob_escape`, asks whether that one file or folder exists); its answer
is a plain value, `{"entries": [...], "more": bool}`: the project's files and folders
(a folder's entry ends with `/`) the pattern matches, sorted, at most `MAX_LISTED`
(`more` says there were others). Matching is pathlib's (`*`, `?`, `[...]` within one
name, `**` any number of folders), done here segment by segment, never by a regular
expression of the repository's. The project's files are those git tracks under the
root (the documents' own rule), else those a bounded walk of the root finds.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from pathlib import Path

LISTING = "//"  # no relative path a document is named by starts so
MAX_LISTED = 256  # entries of one answer: a loop reads at most this many items turn by turn
MAX_PATTERN = 1_024  # characters of a pattern asked
MAX_WALKED = 200_000  # files a walk of a root outside git looks at
_MAGIC = frozenset("*?[")


def listing_key(pattern: str) -> str:
    """The wanted key of a question about the files `pattern` matches."""
    return LISTING + pattern


def is_listing(key: str) -> bool:
    return key.startswith(LISTING)


def glob_escape(path: str) -> str:
    """`path` as a pattern that matches itself only."""
    return "".join(f"[{c}]" if c in _MAGIC else c for c in path)


def segment_matches(pattern: str, name: str) -> bool:
    """Whether one name matches one segment of a pattern (`*`, `?`, `[abc]`,
    `[!a-c]`), as `fnmatch` does on POSIX, by a table of prefixes (no regex)."""
    tokens = _tokens(pattern)
    if tokens is None:
        return pattern == name
    reach = [True] + [False] * len(name)  # reach[j]: the tokens so far match name[:j]
    for kind, chars in tokens:
        if kind == "*":
            for j in range(1, len(name) + 1):
                reach[j] = reach[j] or reach[j - 1]
            continue
        nxt = [False] * (len(name) + 1)
        for j in range(len(name)):
            if reach[j] and (kind == "?" or _in_class(kind, chars, name[j])):
                nxt[j + 1] = True
        reach = nxt
    return reach[len(name)]


def _tokens(pattern: str) -> list[tuple[str, str]] | None:
    """The tokens of a segment: ("*", ""), ("?", ""), ("=", c), ("[", set text),
    ("[!", set text); None when it has no wildcard."""
    if not _MAGIC & set(pattern):
        return None
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            if not out or out[-1][0] != "*":
                out.append(("*", ""))
            i += 1
        elif c == "?":
            out.append(("?", ""))
            i += 1
        elif c == "[":
            j = i + 1
            negated = j < len(pattern) and pattern[j] in "!^"
            j += negated
            j += j < len(pattern) and pattern[j] == "]"  # a leading `]` is a member
            end = pattern.find("]", j)
            if end < 0:
                out.append(("=", "["))
                i += 1
                continue
            out.append(("[!" if negated else "[", pattern[i + 1 + negated : end]))
            i = end + 1
        else:
            out.append(("=", c))
            i += 1
    return out


def _in_class(kind: str, chars: str, c: str) -> bool:
    if kind == "=":
        return c == chars
    found = False
    i = 0
    while i < len(chars):
        if i + 2 < len(chars) and chars[i + 1] == "-":
            found = found or chars[i] <= c <= chars[i + 2]
            i += 3
        else:
            found = found or chars[i] == c
            i += 1
    return found != (kind == "[!")


class ProjectFiles:
    """The files and folders of a project, by folder, answering listings (see the
    module docstring). Built once per run from the files' relative paths."""

    def __init__(self, files: Iterable[str]) -> None:
        self.children: dict[str, dict[str, bool]] = {"": {}}  # folder -> name -> is a folder
        for rel in files:
            parts = [p for p in rel.split("/") if p]
            folder = ""
            for n, part in enumerate(parts):
                is_folder = n < len(parts) - 1
                self.children.setdefault(folder, {})
                self.children[folder][part] = self.children[folder].get(part, False) or is_folder
                folder = f"{folder}/{part}" if folder else part

    @classmethod
    def walked(cls, root: Path, tracked: frozenset[str] | None) -> ProjectFiles:
        """The files git tracks (`tracked`), else those a walk of `root` finds (not
        following links, at most MAX_WALKED, `.git` left out)."""
        if tracked is not None:
            return cls(tracked)
        found: list[str] = []
        for folder, dirs, names in os.walk(root, followlinks=False):
            dirs[:] = sorted(d for d in dirs if d != ".git")
            rel = os.path.relpath(folder, root).replace(os.sep, "/")
            for name in sorted(names):
                found.append(name if rel == "." else f"{rel}/{name}")
            if len(found) > MAX_WALKED:
                break
        return cls(found[:MAX_WALKED])

    def answer(self, key: str) -> dict[str, object] | None:
        """The entries a listing key's pattern matches (see the module docstring)."""
        pattern = key[len(LISTING) :]
        if not pattern or len(pattern) > MAX_PATTERN or pattern.startswith("/"):
            return None
        segments = [s for s in pattern.split("/") if s and s != "."]
        if ".." in segments:
            return None
        found: dict[str, None] = {}
        more = self._match("", True, segments, found)
        return {"entries": sorted(found)[:MAX_LISTED], "more": more}

    def _match(self, path: str, is_folder: bool, segments: list[str], found: dict[str, None]) -> bool:
        """Add the entries under `path` that `segments` match; True once past MAX_LISTED."""
        if not segments:
            if path:
                found[path + "/" if is_folder else path] = None
            return len(found) > MAX_LISTED
        if not is_folder:
            return False
        first, rest = segments[0], segments[1:]
        children = self.children.get(path, {})
        if first == "**":
            if not rest:  # pathlib: a pattern ending in `**` gives folders only
                return self._folders(path, found)
            pending = [path]
            while pending:
                folder = pending.pop()
                if self._match(folder, True, rest, found):
                    return True
                pending.extend(
                    posixpath.join(folder, n) if folder else n
                    for n, sub in sorted(self.children.get(folder, {}).items(), reverse=True)
                    if sub
                )
            return False
        names = [first] if _tokens(first) is None else [n for n in children if segment_matches(first, n)]
        for name in names:
            if name in children and self._match(f"{path}/{name}" if path else name, children[name], rest, found):
                return True
        return False

    def _folders(self, path: str, found: dict[str, None]) -> bool:
        pending = [path]
        while pending:
            folder = pending.pop()
            if folder:
                found[folder + "/"] = None
                if len(found) > MAX_LISTED:
                    return True
            pending.extend(f"{folder}/{n}" if folder else n for n, sub in self.children.get(folder, {}).items() if sub)
        return False


def listed_documents(key: str, answer: object) -> list[str]:
    """The files a listing's answer names that may be documents the code then loads
    (given with the listing, so the code that lists and loads them is read once more,
    not once per step)."""
    if not is_listing(key) or not isinstance(answer, dict):
        return []
    entries = answer.get("entries")
    return [e for e in entries if isinstance(e, str) and not e.endswith("/")] if isinstance(entries, list) else []
