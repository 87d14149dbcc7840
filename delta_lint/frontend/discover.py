"""Which files to read: `.sql`, `.py`, `.ipynb` and Databricks notebook sources,
in a deterministic order, skipping hidden directories, virtualenvs and binaries."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from delta_lint.globs import matches_any
from delta_lint.safeio import is_within, resolves_outside

# `.scala` and `.r` files are found to be said: skipped by kind (see `recognise.skip_reason`)
SOURCE_SUFFIXES = {".sql", ".py", ".ipynb", ".scala", ".r"}
# inside a dbt project (a folder holding `dbt_project.yml`): its seeds and YAML
# snapshots are read too, for the writes `dbt seed` / `dbt snapshot` make
DBT_PROJECT = "dbt_project.yml"
# what dbt writes beside its project: compiled SQL, installed packages, logs (not job code)
DBT_OUTPUT_DIRS = {"target", "dbt_packages", "dbt_modules", "logs"}
_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", ".git", "venv", ".venv", ".tox", ".nox"}
# names a team also gives a folder of its own (`env/prod/jobs.yml`, `env/dev/load.py`):
# skipped only when the folder is a virtual environment (`_is_venv`)
_VENV_LIKE = {"env"}


@dataclass(frozen=True)
class Discovered:
    files: list[Path]
    problems: list[tuple[Path, str]]  # explicitly named paths that cannot be read


def _is_venv(path: Path) -> bool:
    """A virtual environment: `python -m venv` writes pyvenv.cfg, conda a conda-meta folder."""
    return (path / "pyvenv.cfg").exists() or (path / "conda-meta").is_dir()


def _has_interpreter(path: Path) -> bool:
    """An older virtualenv's mark: only its interpreter (asked of `_VENV_LIKE` names only)."""
    return os.path.lexists(path / "bin" / "python") or os.path.lexists(path / "Scripts" / "python.exe")


def skips_folder(path: str | Path, name: str) -> bool:
    """Whether every walk of the project (discovery, the cache's tree, the bundle
    listings) leaves the folder out by its name: dependency and tool folders always,
    a folder named like a virtual environment (`env`) only when it is one. Discovery
    also leaves out any other virtual environment (`_is_venv`); the other walks may
    look at more than it reads, never less."""
    if name in _SKIP_DIRS:
        return True
    return name in _VENV_LIKE and (_is_venv(Path(path)) or _has_interpreter(Path(path)))


def _is_notebook_source(path: Path) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a pipe or device behind the name: never read
            return False
        head = os.read(fd, 64).lstrip(b"\xef\xbb\xbf")
    except OSError:
        return False
    finally:
        os.close(fd)
    return head.startswith(b"# Databricks notebook source") or head.startswith(b"-- Databricks notebook source")


def is_source(path: Path) -> bool:
    return path.suffix.lower() in SOURCE_SUFFIXES or (path.suffix == "" and _is_notebook_source(path))


OUTSIDE = "symbolic link leading outside the project; not read"


def discover(paths: list[Path], root: Path, exclude: tuple[str, ...] = ()) -> Discovered:
    """Expand paths to source files relative to `root`, sorted and de-duplicated.

    A file reached through a symbolic link is read only when the link resolves
    inside the project (`root`, or the folder that was given): a checkout may hold
    `creds.sql -> ~/.netrc`. A link given by name outside the project was named by
    the user and is read."""
    found: dict[str, Path] = {}
    problems: list[tuple[Path, str]] = []
    resolved_root = root.resolve()

    def rel(p: Path) -> str:
        try:
            return p.resolve().relative_to(resolved_root).as_posix()
        except (ValueError, OSError, RuntimeError):  # outside the root, or a loop of links
            return p.as_posix()

    for given in paths:
        try:
            exists, is_file, is_dir = given.exists(), given.is_file(), given.is_dir()
        except (OSError, ValueError):  # a name too long, a NUL byte
            problems.append((given, "cannot be looked up"))
            continue
        if not exists:
            broken = given.is_symlink()
            problems.append(
                (given, "broken symbolic link (or a loop of links)" if broken else "no such file or directory")
            )
            continue
        if is_file:
            if matches_any(rel(given), exclude):
                continue
            if is_within(os.path.abspath(given), os.path.abspath(root)) and resolves_outside(given, resolved_root):
                problems.append((given, OUTSIDE))
                continue
            if not is_source(given):
                problems.append((given, "not a SQL, Python or notebook file"))
                continue
            found.setdefault(rel(given), given)
            continue
        if not is_dir:
            problems.append((given, "not a regular file or directory"))
            continue
        named_outside = not is_within(os.path.abspath(given), os.path.abspath(root))
        if not named_outside and resolves_outside(given, resolved_root):  # `jobs -> /etc` in the checkout
            problems.append((given, OUTSIDE))
            continue
        roots = (str(resolved_root), os.path.realpath(given)) if named_outside else (str(resolved_root),)
        _walk(given, rel(given), resolved_root, roots, exclude, found, problems)
    return Discovered([found[k] for k in sorted(found)], problems)


def _walk(
    top: Path,
    top_rel: str,
    resolved_root: Path,
    roots: tuple[str, ...],
    exclude: tuple[str, ...],
    found: dict[str, Path],
    problems: list[tuple[Path, str]],
) -> None:
    """Each directory sorted, then its subdirectories in order (a stack, not
    recursion: a tree may be thousands of folders deep). `os.scandir` entries
    answer "file? link?" from the directory listing, and a file's root-relative path
    is its directory's plus its name (only links are resolved one by one): on large
    repositories resolving every path cost more than reading the files."""
    # each folder to read, its path from the root, and the dbt project it is in: the
    # project's folder and its data folders by suffix (see `dbt.data_folders`)
    stack: list[tuple[Path, str, tuple[str, dict[str, tuple[str, ...]]] | None]] = [(top, top_rel, None)]
    while stack:
        directory, dir_rel, dbt = stack.pop()
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:  # unreadable, vanished, or a name too long for the system
            continue
        dbt_here = any(e.name == DBT_PROJECT for e in entries)
        if dbt_here:
            dbt = (dir_rel, dbt_data_folders(directory / DBT_PROJECT, resolved_root))
        subdirs = []
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            path = directory / name
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if not skips_folder(path, name) and not _is_venv(path) and not (dbt_here and name in DBT_OUTPUT_DIRS):
                    subdirs.append(path)
                continue
            suffix = os.path.splitext(name)[1]
            if suffix.lower() not in SOURCE_SUFFIXES and suffix != "":
                if dbt is None or not _dbt_data(dir_rel, dbt, suffix.lower()):
                    continue
            if is_link:
                if not path.exists():
                    if suffix.lower() in SOURCE_SUFFIXES:
                        problems.append((path, "broken symbolic link (or a loop of links)"))
                    continue
                if path.is_dir():  # a link to a directory is not followed (like os.walk)
                    continue
                if not any(not resolves_outside(path, r) for r in roots):
                    if suffix.lower() in SOURCE_SUFFIXES:
                        problems.append((path, OUTSIDE))
                    continue
            try:
                regular = entry.is_file()
            except OSError:
                regular = False
            if not regular:  # named pipes, sockets, devices: never opened
                if suffix.lower() in SOURCE_SUFFIXES:
                    problems.append((path, "not a regular file"))
                continue
            if suffix == "" and not _is_notebook_source(path):
                continue
            rel = _link_rel(path, resolved_root) if is_link else (f"{dir_rel}/{name}" if dir_rel != "." else name)
            if matches_any(rel, exclude):
                continue
            found.setdefault(rel, path)
        for sub in reversed(subdirs):
            sub_rel = f"{dir_rel}/{sub.name}" if dir_rel != "." else sub.name
            if not matches_any(sub_rel, exclude):
                stack.append((sub, sub_rel, dbt))


# the files of a dbt project that are not SQL or Python but are read for its writes:
# seeds (`dbt seed`) and YAML snapshots, under the folders the project names for them
# (`dbt.read_project` reads them as nodes); a project file is read up to this size
# dbt's own default folders for the keys that name them (`dbt.read_project` reads these too)
DBT_DEFAULT_PATHS = {"model-paths": ["models"], "seed-paths": ["seeds"], "snapshot-paths": ["snapshots"]}
_DBT_DATA_PATHS = (("seed-paths", (".csv",)), ("snapshot-paths", (".yml", ".yaml")))
_MAX_PROJECT_FILE = 1024 * 1024


def dbt_data_folders(file: Path, root: Path) -> dict[str, tuple[str, ...]]:
    """The folders (relative to the project's, each ending in `/`) under which a
    file of each suffix is a seed or a YAML snapshot of the project `file` (its
    `dbt_project.yml`) defines: `seed-paths` and `snapshot-paths`, dbt's defaults
    where the file does not say or cannot be read (the project's own reading then
    says why)."""
    from delta_lint.config import ConfigError, load_yaml  # (only where a dbt project is)
    from delta_lint.safeio import read_input_text

    try:
        doc, _ = load_yaml(read_input_text(file, root, _MAX_PROJECT_FILE), file, what="a dbt project file")
    except (OSError, UnicodeDecodeError, ValueError, ConfigError):
        doc = {}
    doc = doc if isinstance(doc, dict) else {}
    out: dict[str, tuple[str, ...]] = {}
    for key, suffixes in _DBT_DATA_PATHS:
        paths = doc.get(key) if isinstance(doc.get(key), list) else DBT_DEFAULT_PATHS[key]
        folders = tuple(dict.fromkeys(str(p).strip("/").removeprefix("./") + "/" for p in paths if str(p).strip("/")))
        for suffix in suffixes:
            out[suffix] = folders
    return out


def _dbt_data(dir_rel: str, dbt: tuple[str, dict[str, tuple[str, ...]]], suffix: str) -> bool:
    """Whether a file of `suffix` in `dir_rel` is a seed or a YAML snapshot of the dbt
    project `dbt` (its folder, and the folders its `seed-paths` and `snapshot-paths`
    name: `seeds/`, `snapshots/` by default, `src/seeds/` where it says so)."""
    dbt_rel, data = dbt
    folders = data.get(suffix)
    if not folders or dir_rel == dbt_rel:
        return False
    inside = dir_rel + "/" if dbt_rel == "." else dir_rel[len(dbt_rel) + 1 :] + "/"
    return inside.startswith(folders)


def _link_rel(path: Path, resolved_root: Path) -> str:
    try:
        return path.resolve().relative_to(resolved_root).as_posix()
    except (ValueError, OSError, RuntimeError):  # outside the root, or a loop of links
        return path.as_posix()
