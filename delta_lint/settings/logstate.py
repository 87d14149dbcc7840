"""Settings read live, kept per table and keyed by the state of the table's log.

Reading settings through Spark costs seconds per run (an engine to start, two
jobs over the logs) even when no table changed. A Delta table's log only grows:
a change of its settings is a new commit file, so while the newest commit and
checkpoint files in `_delta_log` are the same files (name, size, inode, times),
the settings read from the table are the same. Each run lists the logs (no
Spark), takes what it read before for unchanged tables, and reads live only the
others; with none left, Spark is not started at all.

Only tables in folders of this machine qualify (embedded and local modes): a
Spark Connect server's paths are its own, and a remote store cannot be listed
without Spark. Tables using coordinated commits (`_delta_log/_staged_commits`)
are read every time: their newest commit need not be in `_delta_log` yet.

The entries live in the project's cache (outside the checkout, every value
tagged with the user's key, types checked when read back: see `cache.py`).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any, Protocol

from delta_lint.settings.reader import LiveSettings, Target, normalize_location

LIVE_SETTINGS = "live-settings"  # the cache's kv key
KEPT = 2_000  # entries kept: the tables of a large project, a few states each

_COMMIT = re.compile(r"^\d{20}\.json$")
_CHECKPOINT = re.compile(r"^\d{20}\.checkpoint(?:\.\d{10}\.\d{10}|\.[0-9a-fA-F-]{36})?\.parquet$")
_REMOTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class ValueStore(Protocol):
    """What this module needs of the cache (`cache.Cache`); `holds` names the
    dataclasses a value is made of."""

    def get_value(self, key: str, holds: tuple[type, ...] = ()) -> Any: ...

    def put_value(self, key: str, value: Any, holds: tuple[type, ...] = ()) -> None: ...


def log_state(location: str, root: Path) -> str | None:
    """A digest of the newest commit and checkpoint files of the table at `location`
    (a local folder, relative to `root` when not absolute), or None when it cannot
    be told without Spark: not a local folder, no `_delta_log`, coordinated commits."""
    location = normalize_location(location, root)
    if _REMOTE.match(location) or not location.startswith("/"):
        return None
    log = os.path.join(os.path.realpath(location), "_delta_log")
    newest_commit: tuple[str, os.stat_result] | None = None
    checkpoints: list[tuple[str, os.stat_result]] = []
    try:
        with os.scandir(log) as entries:
            for entry in entries:
                name = entry.name
                if name == "_staged_commits":
                    return None
                if _COMMIT.match(name):
                    if newest_commit is None or name > newest_commit[0]:
                        newest_commit = (name, entry.stat(follow_symlinks=False))
                elif _CHECKPOINT.match(name):
                    checkpoints.append((name, entry.stat(follow_symlinks=False)))
    except OSError:
        return None
    if newest_commit is None:
        return None
    newest_version = max((name[:20] for name, _ in checkpoints), default="")
    files = [newest_commit, *sorted(c for c in checkpoints if c[0].startswith(newest_version))]
    h = hashlib.blake2b(digest_size=16)
    h.update(log.encode(errors="surrogateescape"))
    for name, st in files:
        h.update(f"\0{name}\0{st.st_size}\0{st.st_ino}\0{st.st_mtime_ns}\0{st.st_ctime_ns}".encode())
    return h.hexdigest()


def entry_key(target: Target, mode: str, state: str) -> str:
    """What an entry is valid for: the table's name and location as configured (both
    are in what was read), the engine (strategies differ in what they report), the
    log state."""
    return hashlib.blake2b(f"{target.name}\0{target.location}\0{mode}\0{state}".encode(), digest_size=16).hexdigest()


def recall(
    store: ValueStore | None, targets: list[Target], mode: str, root: Path
) -> tuple[dict[str, LiveSettings], list[Target], dict[str, str]]:
    """(settings of unchanged tables, targets to read live, entry key of each target
    whose log state is known). A target without a location is left out: the
    engines of this machine read locations only (`reader.read_tables`). Computed before reading: a commit made while Spark
    reads gives the next run a new key, never old settings under a new one."""
    if store is None or mode.startswith("sc://") or mode in ("none", "snapshot"):
        return {}, list(targets), {}
    keys = {}
    for target in targets:
        if target.location is not None and (state := log_state(target.location, root)) is not None:
            keys[target.name] = entry_key(target, mode, state)
    stored = store.get_value(LIVE_SETTINGS, (LiveSettings,)) if keys else None
    stored = stored if isinstance(stored, dict) else {}
    found: dict[str, LiveSettings] = {}
    todo = []
    for target in targets:
        if target.location is None:
            continue  # an engine of this machine has no catalog of the user's tables: nothing to read
        hit = stored.get(keys.get(target.name, ""))
        if isinstance(hit, LiveSettings) and hit.name == target.name:
            found[target.name] = hit
        else:
            todo.append(target)
    return found, todo, keys


def remember(store: ValueStore | None, keys: dict[str, str], read: dict[str, LiveSettings]) -> None:
    """Keep what was read of tables whose log state was known, the newest entries first."""
    fresh = {keys[name]: settings for name, settings in read.items() if name in keys}
    if store is None or not fresh:
        return
    stored = store.get_value(LIVE_SETTINGS, (LiveSettings,))
    stored = stored if isinstance(stored, dict) else {}
    kept = {**fresh, **{k: v for k, v in stored.items() if k not in fresh}}
    store.put_value(LIVE_SETTINGS, dict(list(kept.items())[:KEPT]), (LiveSettings,))
