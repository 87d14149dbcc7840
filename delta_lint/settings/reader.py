"""Read a table's conflict-relevant settings through Spark.

Two strategies behind `read_tables`:

* `DESCRIBE DETAIL` (plus the schema for identity columns and `DESCRIBE HISTORY`
  for the version) where the session has Delta (Databricks, Databricks Connect,
  a Spark Connect server with Delta). One small query per table.
* A replay of `_delta_log` with Spark's own readers where it does not (Sail,
  classic Spark without the Delta jars): one listing job over every table's log
  (the binaryFile source), then one job that reads the last checkpoint (Parquet)
  and the later commits (JSON, explicit schema) of every table together.

Catalog names become locations through the `locations:` map or, on sessions
with a catalog of the user's tables, `DESCRIBE TABLE EXTENDED`.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import reduce
from pathlib import Path
from typing import Any

from delta_lint.settings.spark import InvalidName, ReadOnlySession, check_path, quote_name, quote_path_table

_COMMIT = re.compile(r"^(\d{20})\.json$")
# classic single-file, multi-part (V.checkpoint.i.n.parquet) and v2 (V.checkpoint.<uuid>.parquet)
_CHECKPOINT = re.compile(r"^(\d{20})\.checkpoint(?:\.(\d{10})\.(\d{10})|\.[0-9a-fA-F-]{36})?\.parquet$")


@dataclass(frozen=True)
class Target:
    """A table to read: its qualified name and, when known, its storage location."""

    name: str
    location: str | None = None  # None: ask the catalog


@dataclass(frozen=True)
class LiveSettings:
    """What was read of one table, exactly as stored (names lower-cased)."""

    name: str
    location: str | None
    partitioned_by: tuple[str, ...] = ()
    clustered_by: tuple[str, ...] = ()
    deletion_vectors: bool = False
    isolation_level: str | None = None  # None: the runtime's default
    identity_columns: tuple[str, ...] = ()
    row_tracking: bool = False
    min_reader_version: int | None = None
    min_writer_version: int | None = None
    reader_features: tuple[str, ...] = ()
    writer_features: tuple[str, ...] = ()
    table_version: int | None = None
    strategy: str = "log"  # log | detail
    read_at: str = ""

    def to_json(self) -> dict:
        return {
            "location": self.location,
            "table_version": self.table_version,
            "read_at": self.read_at,
            "strategy": self.strategy,
            "partitioned_by": list(self.partitioned_by),
            "clustered_by": list(self.clustered_by),
            "deletion_vectors": self.deletion_vectors,
            "isolation_level": self.isolation_level,
            "identity_columns": list(self.identity_columns),
            "row_tracking": self.row_tracking,
            "min_reader_version": self.min_reader_version,
            "min_writer_version": self.min_writer_version,
            "reader_features": list(self.reader_features),
            "writer_features": list(self.writer_features),
        }

    @classmethod
    def from_json(cls, name: str, data: dict) -> LiveSettings:
        tuples = {
            "partitioned_by",
            "clustered_by",
            "identity_columns",
            "reader_features",
            "writer_features",
        }
        known = {k: (tuple(v) if k in tuples else v) for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(name=name, **known)


@dataclass
class ReadResult:
    tables: dict[str, LiveSettings] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)  # name -> why it was not read


def now_utc() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# -- log schema -------------------------------------------------------------------


# Only the actions that carry settings, as a DDL schema both readers accept.
# `configuration` must be a map: schema inference would turn
# `delta.enableDeletionVectors` into a struct field with a dotted name.
LOG_SCHEMA = (
    "protocol STRUCT<minReaderVersion: INT, minWriterVersion: INT, "
    "readerFeatures: ARRAY<STRING>, writerFeatures: ARRAY<STRING>>, "
    "metaData STRUCT<id: STRING, schemaString: STRING, partitionColumns: ARRAY<STRING>, "
    "configuration: MAP<STRING, STRING>>, "
    "domainMetadata STRUCT<domain: STRING, configuration: STRING, removed: BOOLEAN>"
)


def _norm(path: str) -> str:
    """Compare paths as Spark reports them: without scheme and leading slashes."""
    path = re.sub(r"^[A-Za-z][A-Za-z0-9+.-]*:", "", path)
    return path.lstrip("/").rstrip("/")


# -- settings from actions ---------------------------------------------------------


@dataclass
class _LogState:
    protocol: Any = None
    metadata: Any = None
    domains: dict[str, Any] = field(default_factory=dict)
    version: int = -1


def _as_dict(row: Any) -> dict:
    if row is None:
        return {}
    return row.asDict(recursive=True) if hasattr(row, "asDict") else dict(row)


def settings_from_log(name: str, location: str, state: _LogState) -> LiveSettings:
    """Interpret the latest protocol, metaData and domainMetadata per the Delta protocol."""
    meta = _as_dict(state.metadata)
    proto = _as_dict(state.protocol)
    conf = {str(k): str(v) for k, v in (meta.get("configuration") or {}).items()}
    fields = _schema_fields(meta.get("schemaString"))
    physical = {(f.get("metadata") or {}).get("delta.columnMapping.physicalName", f["name"]): f["name"] for f in fields}
    clustered: tuple[str, ...] = ()
    domain = state.domains.get("delta.clustering")
    if domain and not domain.get("removed"):
        try:
            cols = json.loads(domain.get("configuration") or "{}").get("clusteringColumns") or []
            clustered = tuple(".".join(physical.get(p, p) for p in parts).lower() for parts in cols)
        except (ValueError, AttributeError, TypeError):
            clustered = ()
    return LiveSettings(
        name=name,
        location=location,
        partitioned_by=tuple(c.lower() for c in meta.get("partitionColumns") or ()),
        clustered_by=clustered,
        deletion_vectors=_true(conf.get("delta.enableDeletionVectors")),
        isolation_level=conf.get("delta.isolationLevel") or None,
        identity_columns=_identity(fields),
        row_tracking=_true(conf.get("delta.enableRowTracking")),
        min_reader_version=proto.get("minReaderVersion"),
        min_writer_version=proto.get("minWriterVersion"),
        reader_features=tuple(sorted(proto.get("readerFeatures") or _legacy(proto.get("minReaderVersion"), True))),
        writer_features=tuple(sorted(proto.get("writerFeatures") or _legacy(proto.get("minWriterVersion"), False))),
        table_version=state.version,
        strategy="log",
        read_at=now_utc(),
    )


# Features a legacy protocol version implies (Delta protocol, "Table Features"): what
# DESCRIBE DETAIL lists as `tableFeatures` for such a table, so both strategies agree.
_LEGACY_WRITER = (
    (2, ("appendOnly", "invariants")),
    (3, ("checkConstraints",)),
    (4, ("changeDataFeed", "generatedColumns")),
    (5, ("columnMapping",)),
    (6, ("identityColumns",)),
)


def _legacy(version: int | None, reader: bool) -> tuple[str, ...]:
    if not isinstance(version, int):
        return ()
    if reader:
        return ("columnMapping",) if version == 2 else ()
    if version >= 7:
        return ()
    return tuple(f for since, names in _LEGACY_WRITER if version >= since for f in names)


def _true(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def _schema_fields(schema_string: str | None) -> list[dict]:
    try:
        schema = json.loads(schema_string or "{}")
    except ValueError:
        return []
    fields = schema.get("fields") if isinstance(schema, dict) else None
    return [f for f in fields or [] if isinstance(f, dict) and isinstance(f.get("name"), str)]


def _identity(fields: list[dict]) -> tuple[str, ...]:
    return tuple(
        f["name"].lower()
        for f in fields
        if any(str(k).startswith("delta.identity.") for k in (f.get("metadata") or {}))
    )


# -- strategy 1: log replay ---------------------------------------------------------


def _list_logs(session: ReadOnlySession, targets: list[Target]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """File names in each table's `_delta_log`, in one listing job; a failing batch is
    retried table by table so one unreadable location does not hide the others."""
    files: dict[str, list[str]] = {t.name: [] for t in targets}
    problems: dict[str, str] = {}

    def listing(batch: list[Target]) -> list[Any]:
        globs = [f"{t.location.rstrip('/')}/_delta_log/0*" for t in batch]
        return session.read.format("binaryFile").load(globs).select("path").collect()

    def attribute(rows: list[Any], batch: list[Target]) -> None:
        by_log = {_norm(t.location) + "/_delta_log": t.name for t in batch}
        for row in rows:
            parent, _, base = _norm(row.path).rpartition("/")
            if parent in by_log:
                files[by_log[parent]].append(base)

    try:
        attribute(listing(targets), targets)
    except Exception:  # noqa: BLE001 - narrowed below, per table
        for target in targets:
            try:
                attribute(listing([target]), [target])
            except Exception as err:  # noqa: BLE001
                problems[target.name] = _missing_or(err, target)
    return files, problems


def _missing_or(err: Exception, target: Target) -> str:
    text = str(err)
    if re.search(r"PATH_NOT_FOUND|does not exist|No such file|not found", text, re.IGNORECASE):
        return f"no Delta table at `{target.location}`"
    return (
        f"cannot read `{target.location}`: {text.strip().splitlines()[0][:200] if text.strip() else type(err).__name__}"
    )


def _plan(names: list[str]) -> tuple[int | None, list[int], int]:
    """(checkpoint version, commit versions after it, table version) from file names."""
    commits = sorted(int(m.group(1)) for n in names if (m := _COMMIT.match(n)))
    parts: dict[int, set[int]] = defaultdict(set)
    wanted: dict[int, int] = {}
    for n in names:
        m = _CHECKPOINT.match(n)
        if m:
            version = int(m.group(1))
            parts[version].add(int(m.group(2) or 1))
            wanted[version] = int(m.group(3) or 1)
    complete = [v for v in parts if len(parts[v]) == wanted[v]]
    checkpoint = max(complete) if complete else None
    after = [v for v in commits if checkpoint is None or v > checkpoint]
    latest = max([*commits, *(complete or [])], default=-1)
    return checkpoint, after, latest


def replay_logs(session: ReadOnlySession, targets: list[Target]) -> ReadResult:
    """Settings of every target from its transaction log, in two Spark jobs."""
    from pyspark.sql import functions as F

    result = ReadResult()
    files, result.problems = _list_logs(session, targets)
    schema = LOG_SCHEMA
    frames = []
    commit_paths: list[str] = []
    owner: dict[str, tuple[str, int]] = {}  # normalised file path -> (table, version)
    latest: dict[str, int] = {}
    for target in targets:
        if target.name in result.problems:
            continue
        checkpoint, after, version = _plan(files[target.name])
        if version < 0:
            result.problems[target.name] = f"no Delta table at `{target.location}` (no `_delta_log` commits found)"
            continue
        latest[target.name] = version
        log = target.location.rstrip("/") + "/_delta_log"
        if checkpoint is not None:
            cp_files = sorted(
                n for n in files[target.name] if (m := _CHECKPOINT.match(n)) and int(m.group(1)) == checkpoint
            )
            key = f"{log}/{cp_files[0]}"
            owner[_norm(key)] = (target.name, checkpoint)
            frames.append(
                session.read.schema(schema)
                .parquet(*[f"{log}/{n}" for n in cp_files])
                .select(F.lit(key).alias("path"), "protocol", "metaData", "domainMetadata")
            )
        for v in after:
            path = f"{log}/{v:020d}.json"
            owner[_norm(path)] = (target.name, v)
            commit_paths.append(path)
    if commit_paths:
        # binaryFile keeps each file's path, which the JSON reader does not on every engine
        lines = (
            session.read.format("binaryFile")
            .load(commit_paths)
            .select("path", F.explode(F.split(F.decode("content", "UTF-8"), "\n")).alias("line"))
            .where(F.length("line") > 0)
        )
        frames.append(
            lines.select("path", F.from_json("line", schema).alias("a")).select(
                "path", "a.protocol", "a.metaData", "a.domainMetadata"
            )
        )
    states: dict[str, _LogState] = {name: _LogState(version=v) for name, v in latest.items()}
    if frames:
        actions = reduce(lambda a, b: a.unionByName(b), frames).where(
            "protocol IS NOT NULL OR metaData IS NOT NULL OR domainMetadata IS NOT NULL"
        )
        rows = sorted(
            ((owner[_norm(r.path)], r) for r in actions.collect() if _norm(r.path) in owner),
            key=lambda item: item[0][1],
        )
        for (name, _version), row in rows:
            state = states[name]
            if row.protocol is not None:
                state.protocol = row.protocol
            if row.metaData is not None:
                state.metadata = row.metaData
            if row.domainMetadata is not None and row.domainMetadata.domain:
                state.domains[row.domainMetadata.domain] = _as_dict(row.domainMetadata)
    by_name = {t.name: t for t in targets}
    for name, state in states.items():
        if state.metadata is None:
            result.problems[name] = f"`{by_name[name].location}` has a `_delta_log` without table metadata"
            continue
        result.tables[name] = settings_from_log(name, by_name[name].location, state)
    return result


# -- strategy 2: DESCRIBE DETAIL ------------------------------------------------------


def _sql_name(target: Target) -> str:
    return quote_path_table(target.location) if target.location else quote_name(target.name)


def settings_from_detail(name: str, detail: dict, schema_fields: list[dict], version: int | None) -> LiveSettings:
    """Interpret a DESCRIBE DETAIL row (Databricks / Delta Lake column names)."""
    props = {str(k): str(v) for k, v in (detail.get("properties") or {}).items()}
    features = tuple(sorted(detail.get("tableFeatures") or ()))
    return LiveSettings(
        name=name,
        location=detail.get("location"),
        partitioned_by=tuple(c.lower() for c in detail.get("partitionColumns") or ()),
        clustered_by=tuple(c.lower() for c in detail.get("clusteringColumns") or ()),
        deletion_vectors=_true(props.get("delta.enableDeletionVectors")),
        isolation_level=props.get("delta.isolationLevel") or None,
        identity_columns=_identity(schema_fields),
        row_tracking=_true(props.get("delta.enableRowTracking")),
        min_reader_version=detail.get("minReaderVersion"),
        min_writer_version=detail.get("minWriterVersion"),
        reader_features=features,
        writer_features=features,
        table_version=version,
        strategy="detail",
        read_at=now_utc(),
    )


def describe_detail(session: ReadOnlySession, target: Target) -> LiveSettings:
    sql_name = _sql_name(target)
    detail = _as_dict(session.sql(f"DESCRIBE DETAIL {sql_name}").collect()[0])
    if str(detail.get("format", "delta")).lower() != "delta":
        raise NotDelta(f"`{target.name}` is a {detail.get('format')} table, not Delta")
    fields = json.loads(session.table_schema(sql_name).json()).get("fields", [])
    history = session.sql(f"DESCRIBE HISTORY {sql_name} LIMIT 1").collect()
    version = int(history[0]["version"]) if history else None
    return settings_from_detail(target.name, detail, fields, version)


class NotDelta(Exception):
    pass


def _detail_unsupported(err: Exception) -> bool:
    """The session does not know DESCRIBE DETAIL at all (no Delta), as opposed to a
    missing table."""
    text = str(err)
    return bool(
        re.search(
            r"PARSE_SYNTAX_ERROR|syntax error|found DETAIL|mismatched input|UNSUPPORTED|`DETAIL` cannot be found",
            text,
            re.I,
        )
    )


# -- catalog names -----------------------------------------------------------------------


def catalog_location(session: ReadOnlySession, name: str) -> tuple[str | None, str | None]:
    """(location, provider) of a catalog table from DESCRIBE TABLE EXTENDED."""
    rows = session.sql(f"DESCRIBE TABLE EXTENDED {quote_name(name)}").collect()
    info = {str(r[0]).strip().lower(): (r[1] or "") for r in rows}
    return (info.get("location") or None), (info.get("provider") or None)


def read_tables(session: ReadOnlySession, targets: list[Target], use_catalog: bool, root: Path) -> ReadResult:
    """Read every target; each unreadable table becomes a problem, never an exception."""
    result = ReadResult()
    located: list[Target] = []
    for target in sorted(targets, key=lambda t: t.name):
        try:
            if target.location is not None:
                located.append(Target(target.name, _absolute(check_path(target.location), root)))
                continue
            if not use_catalog:
                continue  # embedded: no catalog of the user's tables; declared settings apply
            location, provider = catalog_location(session, target.name)
            if provider and provider.lower() != "delta":
                result.problems[target.name] = f"`{target.name}` is a {provider} table, not Delta"
            elif location:
                located.append(Target(target.name, check_path(location)))
            else:
                result.problems[target.name] = f"the catalog has no location for `{target.name}`"
        except InvalidName as err:
            result.problems[target.name] = str(err)
        except Exception as err:  # noqa: BLE001 - one table never stops the others
            result.problems[target.name] = f"table `{target.name}` not found ({_first_line(err)})"
    if not located:
        return result
    remaining = located
    if session.delta:  # Sail and classic Spark without the jars have no Delta: replay the logs
        remaining = []
        for i, target in enumerate(located):
            try:
                result.tables[target.name] = describe_detail(session, target)
            except NotDelta as err:
                result.problems[target.name] = str(err)
            except Exception as err:  # noqa: BLE001
                if _detail_unsupported(err):
                    remaining = located[i:]  # no Delta in this session: replay the logs instead
                    break
                remaining.append(target)
    if remaining:
        replayed = replay_logs(session, remaining)
        result.tables.update(replayed.tables)
        result.problems.update(replayed.problems)
    _identity_from_log(session, located, result)
    # report locations as configured (relative to the configuration), not as resolved here
    given = {t.name: t.location for t in targets if t.location is not None}
    for name, settings in result.tables.items():
        if name in given:
            result.tables[name] = replace(settings, location=given[name])
    return result


_FILE_URI = re.compile(r"^file:(?://(?:localhost)?)?(?=/)", re.IGNORECASE)
_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://([^/]*)(.*)$")


def normalize_location(location: str, root: Path | None = None) -> str:
    """One spelling per storage location, so that `file:///p/t`, `/p/x/../t` and
    `t` (relative to `root`, the configuration's folder) name the same table: a
    local `file:` URI becomes its path, `..` and `.` steps are folded (also in the
    path of a remote URI), a relative path is taken from `root` when given."""
    location = _FILE_URI.sub("", location)
    uri = _URI.match(location)
    if uri:
        scheme, netloc, path = uri.groups()
        return f"{scheme}://{netloc}" + (posixpath.normpath(path) if path else "")
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", location):  # dbfs:/x and other scheme:path forms
        scheme, _, path = location.partition(":")
        return f"{scheme}:{posixpath.normpath(path)}" if path else location
    if root is not None and not location.startswith("/"):
        location = os.path.join(root, location)
    return posixpath.normpath(location) if location else location


def _identity_from_log(session: ReadOnlySession, located: list[Target], result: ReadResult) -> None:
    """Open-source Delta hands Spark a table schema without the `delta.identity.*`
    field metadata, so DESCRIBE DETAIL plus the schema cannot name identity columns.
    When the protocol says the table has them, take the names from the log's schema."""
    lacking = [
        t
        for t in located
        if (s := result.tables.get(t.name)) is not None
        and s.strategy == "detail"
        and not s.identity_columns
        and "identityColumns" in s.writer_features
    ]
    if not lacking:
        return
    replayed = replay_logs(session, lacking)
    for name, settings in replayed.tables.items():
        result.tables[name] = replace(result.tables[name], identity_columns=settings.identity_columns)


def _absolute(location: str, root: Path) -> str:
    """Relative locations are relative to the configuration's folder; a symbolic link
    in a local path is resolved (Spark lists the folder it leads to)."""
    location = normalize_location(location, root)
    if location.startswith("/"):
        return os.path.realpath(location)
    return location


def _first_line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0][:200] if text else type(err).__name__
