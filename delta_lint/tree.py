"""The project's folders by `stat`: what a re-check compares to learn which files
changed since the last run without reading them (`walk`, `Tree`). Both the run
(`run._recheck`, the language server's kept project) and the project state kept
in the cache for a new process (`kept`) hold one, so it is a module of its own.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from delta_lint.safeio import InputRefused, read_input

RACY_NS = 2_000_000_000  # a file changed this close to being read may change again unseen in the same tick


@dataclass
class Tree:
    """What the project's folders hold, by `stat` (see `walk`): `dirs` maps each
    folder walked (absolute) to its signature, its entries' names, the subfolders
    walked and its other entries; `files` maps each other entry to its signature."""

    taken: int  # time.time_ns() when the walk began
    dirs: dict[str, tuple[list[int], tuple[str, ...], tuple[str, ...], tuple[str, ...]]]
    files: dict[str, list[int]]
    git: list[int] | None  # the git index's signature: which documents git tracks (`DocumentReader`)
    digests: dict[str, str] = field(default_factory=dict)  # racy files' contents, hashed at the walk
    moved: list[str] = field(default_factory=list)  # files whose signature does not vouch they are as before

    def racy(self, sig: list[int]) -> bool:
        """Changed so close to the walk that a later change may have left it equal."""
        return max(sig[3], sig[4]) >= self.taken - RACY_NS

    def unchanged(self, path: str, sig: list[int]) -> bool:
        """Whether the file at `path`, now of signature `sig`, holds what it held at
        this walk: the same signature, not racy; or a racy one's content unchanged."""
        before = self.files.get(path)
        if before is None or before[:3] != sig[:3]:
            return False
        if before == sig and not self.racy(before):
            return True
        return path in self.digests and _content_digest(path) == self.digests[path]

    def changed(self, now: Tree) -> list[str] | None:
        """The files whose content changed, when `now`, walked with this tree as the
        old one (`walk`), found the project otherwise as this tree had it: the same
        folders holding the same names, the same git index, every other file of the
        same content (`unchanged`: its signature, or a racy one's digest), and each
        changed file on the same device and a regular file still (a save that writes
        a new file and renames it over the old one, or a checkout that replaces it,
        gives it a new inode; a pipe is not a file changed). Then whatever reads only inside the tree and looks at no changed
        file (the discovery of files, the other files' keys, the listings
        `kept.vouches` names) gives what it gave at this walk, without reading a
        file. None: a name came, went or was replaced."""
        if now.git != self.git or now.dirs.keys() != self.dirs.keys():
            return None
        if any(self.dirs[folder][1:] != entry[1:] for folder, entry in now.dirs.items()):
            return None
        changed = []
        for path in now.moved:
            sig = now.files[path]
            if self.unchanged(path, sig):
                continue
            before = self.files.get(path)
            if before is None or before[0] != sig[0] or (before[1] != sig[1] and not _regular(path)):
                return None
            changed.append(path)
        return changed


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


MAX_TREE_ENTRIES = 200_000  # a larger tree is not kept: every save is a full run


def walk(root: Path, old: Tree | None = None) -> Tree | None:
    """Every folder and file under `root` that discovery or the bundle listings can
    look at (hidden folders and those `skips_folder` names are skipped by both), by signature.
    Given the `old` tree, a folder whose signature is unchanged (and was not racy)
    is not listed again: its entries are stat'ed by name, so a save with nothing
    else changed costs one `stat` a file, no walk. None when the tree holds a
    symbolic link (what it leads to is outside this account), is too large or
    cannot be read: such a project is checked in full every time."""
    from delta_lint.frontend.discover import skips_folder

    top = os.path.abspath(root)
    taken = time.time_ns()
    dirs: dict[str, tuple[list[int], tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}
    files: dict[str, list[int]] = {}
    digests: dict[str, str] = {}
    moved: list[str] = []  # files not known unchanged from `old` by their signature
    old_files = old.files if old is not None else {}
    old_racy = old.taken - RACY_NS if old is not None else 0
    stack = [top]
    try:
        while stack:
            folder = stack.pop()
            sig = _signature(os.lstat(folder))
            seen = old.dirs.get(folder) if old is not None else None
            if seen is not None and seen[0] == sig and not old.racy(sig):  # type: ignore[union-attr]
                _, names, subdirs, others = seen
                for path in others:  # the common case of a save: inline, 10,000 files
                    st = os.lstat(path)
                    if stat.S_ISLNK(st.st_mode) or stat.S_ISDIR(st.st_mode):
                        return None
                    now = [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
                    before = old_files.get(path)
                    if before == now and before[3] < old_racy and before[4] < old_racy:  # type: ignore[index]
                        files[path] = before  # type: ignore[assignment]
                        continue
                    files[path] = now
                    moved.append(path)
                    _hash_if_racy(path, st, taken, digests)
            else:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
                names = tuple(e.name for e in entries)
                walked, rest = [], []
                for entry in entries:
                    if entry.is_symlink():
                        return None
                    if entry.is_dir(follow_symlinks=False):
                        if not entry.name.startswith(".") and not skips_folder(entry.path, entry.name):
                            walked.append(entry.path)
                        continue
                    st = entry.stat(follow_symlinks=False)
                    files[entry.path] = _signature(st)
                    moved.append(entry.path)
                    _hash_if_racy(entry.path, st, taken, digests)
                    rest.append(entry.path)
                subdirs, others = tuple(walked), tuple(rest)
            dirs[folder] = (sig, names, subdirs, others)
            stack.extend(subdirs)
            if len(files) + len(dirs) > MAX_TREE_ENTRIES:
                return None
        repository = repository_top(Path(top))
        git = None
        if repository is not None and (repository / ".git" / "index").exists():
            git = _signature(os.stat(repository / ".git" / "index"))
    except OSError:
        return None
    return Tree(taken, dirs, files, git, digests, moved)


def _signature(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _hash_if_racy(path: str, st: os.stat_result, taken: int, digests: dict[str, str]) -> None:
    """Keep the content digest of a regular file changed within RACY_NS of the walk
    (a file just saved, a project just made): its signature alone cannot tell a
    later change in the same tick, its content can."""
    if stat.S_ISREG(st.st_mode) and max(st.st_mtime_ns, st.st_ctime_ns) >= taken - RACY_NS:
        found = _content_digest(path)
        if found is not None:
            digests[path] = found


def _content_digest(path: str) -> str | None:
    try:
        data = read_input(Path(path), limit=MAX_DIGESTED_BYTES)
    except (InputRefused, OSError):
        return None
    return hashlib.blake2b(data, digest_size=20).hexdigest()


MAX_DIGESTED_BYTES = 16 * 1024 * 1024


def repository_top(root: Path) -> Path | None:
    """The git work tree holding the configuration root (None outside one)."""
    for folder in (root, *root.parents):
        if (folder / ".git").exists():
            return folder
    return None
