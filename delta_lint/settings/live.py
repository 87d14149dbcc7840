"""The settings stage: decide where settings come from (live Spark, the snapshot or
neither), read them, and report what could not be read.

`--spark auto` (the default) uses the snapshot when one exists, otherwise reads
live with the embedded engine when some target has a local location, otherwise
uses declared settings only. An explicit live mode always reads live.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from delta_lint.config import Config
from delta_lint.safeio import is_within
from delta_lint.settings import ReadSettings, TableNames
from delta_lint.settings.logstate import ValueStore, recall, remember
from delta_lint.settings.reader import ReadResult, Target, normalize_location, read_tables
from delta_lint.settings.snapshot import Snapshot, load_snapshot
from delta_lint.settings.spark import SparkUnavailable, open_spark

_REMOTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# Databricks workspace storage: DBFS, its mounts, Unity Catalog volumes and workspace
# files. Never a folder of this machine, whatever this machine's disk holds.
_WORKSPACE = re.compile(r"^(?:dbfs:|/dbfs/|/mnt/|/Volumes/|/Workspace/|/FileStore/)", re.IGNORECASE)


def targets_for(names: set[str], config: Config, naming: TableNames) -> list[Target]:
    """A Target per table name (of the run's `naming`): path tables carry their path,
    catalog names the `locations:` entry when there is one."""
    locations = {naming.qualify(k): v for k, v in config.locations.items()}
    out = []
    for name in sorted(names):
        if name.startswith("delta:"):
            out.append(Target(name, name[len("delta:") :]))
        else:
            out.append(Target(name, locations.get(name)))
    return out


def is_local(location: str | None) -> bool:
    return (
        location is not None
        and not _WORKSPACE.match(location)
        and (not _REMOTE.match(location) or location.startswith("file:"))
    )


def from_code_refused(target: Target, config: Config, snapshot: Snapshot | None) -> str | None:
    """Why an engine on this machine (embedded, local) must not read the location of a
    path table that job code names, or None when it may. Job code is the pull
    request's to choose: `hdfs://host:port/x` would make the engine connect to that
    host, `s3://bucket/x` send requests signed with this machine's credentials. Read
    are local folders inside the project, and locations under one that the
    configuration (`locations:`) or the snapshot names."""
    if not target.name.startswith("delta:") or target.location is None:
        return None
    location = normalize_location(target.location, config.root)
    named = [normalize_location(v, config.root) for v in config.locations.values() if isinstance(v, str) and v]
    if snapshot is not None:
        named += [normalize_location(s.location, config.root) for s in snapshot.tables.values() if s.location]
    if any(location == n or location.startswith(n.rstrip("/") + "/") for n in named):
        return None
    if location.startswith("/") and not _REMOTE.match(location):
        if is_within(os.path.realpath(location), os.path.realpath(config.root)):
            return None
        where = "a folder outside the project"
    else:
        where = "a remote location"
    return (
        f"its location is {where} named by job code; delta-lint reads only locations the configuration "
        "(`locations:`) or the snapshot names, and local folders inside the project"
    )


def choose_mode(requested: str, snapshot: Snapshot | None, targets: list[Target], refresh: bool) -> str:
    if requested != "auto":
        return requested
    if snapshot is not None and not refresh:
        return "snapshot"
    return "embedded" if any(is_local(t.location) for t in targets) else "none"


_ENGINES = {"embedded": "the embedded engine", "local": "local Spark (a JVM)"}


def read_settings(
    names: set[str],
    config: Config,
    mode: str | None = None,
    refresh: bool = False,
    timeout: float | None = None,
    store: ValueStore | None = None,
    on_stage: Callable[[str | None], None] | None = None,
    naming: TableNames | None = None,
) -> ReadSettings:
    """Raises SparkUnavailable only when a live mode was asked for explicitly and
    there is no snapshot to fall back on; ConfigError for a damaged snapshot.
    With `store` (the project's cache), tables whose log has not changed since they
    were last read are not read again (see `logstate`). `on_stage` hears what is
    being waited for (an engine starting, tables read), then None. `naming`: the
    run's, which named `names` (the configuration's when not given)."""
    requested = mode or config.spark
    snapshot = load_snapshot(config.snapshot_path, config.root)
    targets = targets_for(names, config, naming if naming is not None else TableNames.of(config))
    chosen = choose_mode(requested, snapshot, targets, refresh)
    out = ReadSettings(mode=chosen)
    if chosen not in ("snapshot", "none"):
        if requested == "embedded" or chosen != "embedded":
            live_targets = targets
        else:  # auto: the embedded engine reads local locations only
            live_targets = [t for t in targets if t.location is None or is_local(t.location)]
        if not chosen.startswith("sc://"):  # the engine runs here: only locations the user named
            kept = []
            for t in live_targets:
                why = from_code_refused(t, config, snapshot)
                if why is None:
                    kept.append(t)
                elif not _WORKSPACE.match(t.location or ""):  # workspace storage: never here, no note
                    out.problems[t.name] = why
            live_targets = kept
        known, live_targets, log_keys = recall(store, live_targets, chosen, config.root)
        try:
            if live_targets:
                tell = on_stage or (lambda _: None)
                count = f"{len(live_targets)} table{'s' if len(live_targets) != 1 else ''}"
                try:
                    tell(f"starting {_ENGINES.get(chosen, 'Spark Connect')} to read {count}")
                    with open_spark(chosen, timeout or config.spark_timeout) as handle:
                        out.engine_started = True
                        tell(f"reading the settings of {count}")
                        result = read_tables(handle.session, live_targets, chosen.startswith("sc://"), config.root)
                    out.read_now = tuple(sorted(result.tables))
                finally:
                    tell(None)
                remember(store, log_keys, result.tables)
            else:
                result = ReadResult()
            result.tables.update(known)
        except SparkUnavailable as err:
            if snapshot is None and requested != "auto":
                raise
            fallback = "the snapshot" if snapshot is not None else "declared settings"
            out.warnings.append(f"{err}; using {fallback} instead")
            out.mode = "snapshot" if snapshot is not None else "none"
        else:
            out.tables.update(result.tables)
            out.sources.update(dict.fromkeys(result.tables, "live"))
            out.problems.update(result.problems)
    if snapshot is not None:
        for name in names:
            if name not in out.tables and name in snapshot.tables:
                out.tables[name] = snapshot.tables[name]
                out.sources[name] = "snapshot"
    return out
