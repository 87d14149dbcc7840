"""The front-end cache: what a file's front end produced, keyed by the file's
content hash, its display path, the delta-lint version and the front-end schema.

One SQLite database in `.delta-lint-cache/` next to the configuration: lookups
for thousands of files are one query, concurrent runs are serialised by SQLite's
own locking, and a killed run leaves the last committed state. Values are JSON
of an allow-listed set of our own dataclasses (never pickle: a cache file must
not be able to run code). Any cache problem only costs speed: the run goes on
without it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import sqlite3
import zlib
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

import orjson

from delta_lint import __version__
from delta_lint.bundle import Job, Pipeline, Task, Workflows
from delta_lint.model import (
    Diagnostic,
    FileResult,
    FileSummary,
    Finding,
    Flag,
    Intent,
    Kind,
    Links,
    Location,
    OpClass,
    TableDDL,
    TableRef,
)
from delta_lint.predicates import Constraint, Region
from delta_lint.rulepack import rules_dir
from delta_lint.suppress import Directive, FileSuppressions

CACHE_DIR = ".delta-lint-cache"
SCHEMA = 8  # bump when FileResult, the front ends or an encoding change what is stored
_CLASSES = {
    c.__name__: c
    for c in (
        Diagnostic,
        FileResult,
        FileSummary,
        Intent,
        Links,
        Location,
        TableDDL,
        TableRef,
        Constraint,
        Region,
        Directive,
        FileSuppressions,
        Workflows,
        Job,
        Pipeline,
        Task,
    )
}
_ENUMS = {e.__name__: e for e in (Flag, Kind, OpClass)}


_FIELDS = {c: tuple(f.name for f in dataclasses.fields(c)) for c in _CLASSES.values()}
_PLAIN = (str, int, float, bool, type(None))


def _encode(o: Any) -> Any:
    """JSON-ready form of our values. Dispatches on the exact type first: filling the
    cache of a large repository encodes millions of values."""
    t = type(o)
    if t in _PLAIN:
        return o
    names = _FIELDS.get(t)
    if names is not None:
        out = {"__d": t.__name__}
        for name in names:
            out[name] = _encode(getattr(o, name))
        return out
    if isinstance(o, Enum):
        return {"__e": t.__name__, "v": o.value}
    if isinstance(o, list):
        return [_encode(v) for v in o]
    if isinstance(o, tuple):
        return {"__t": [_encode(v) for v in o]}
    if isinstance(o, frozenset):
        return {"__f": [_encode(v) for v in o]}
    if isinstance(o, dict):  # also YAML mappings that remember their line
        return {"__m": [[_encode(k), _encode(v)] for k, v in o.items()]}
    if isinstance(o, (str, int, float)):
        return o
    raise TypeError(f"cannot cache a {t.__name__}")


def _object(o: dict) -> Any:
    """json.loads' object_hook: the C parser hands every JSON object over bottom-up,
    so a cached file result is rebuilt without a Python walk over its lists."""
    if "__d" in o:
        cls = _CLASSES[o.pop("__d")]  # KeyError for anything not allow-listed
        return cls(**o)
    if "__e" in o:
        return _ENUMS[o["__e"]](o["v"])
    if "__t" in o:
        return tuple(o["__t"])
    if "__f" in o:
        return frozenset(o["__f"])
    if "__m" in o:
        return {k: v for k, v in o["__m"]}
    raise ValueError("unknown cache value")


def _loads(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob), object_hook=_object)


def encode_result(result: FileResult) -> bytes:
    return _dumps(result)


def encode_entry(result: FileResult, summary: FileSummary) -> tuple[bytes, bytes]:
    """A file's cache entry: its result and its summary, encoded."""
    return encode_result(result), _encode_summary(summary)


def decode_result(blob: bytes) -> FileResult:
    result = _loads(blob)
    if not isinstance(result, FileResult):
        raise ValueError("not a file result")
    return result


@dataclasses.dataclass
class TableEntry:
    """One table's engine result: its findings, internal errors, settings source."""

    findings: list[Finding]
    errors: list[Diagnostic]
    source: str


def _dumps(value: Any) -> bytes:
    return _pack(_encode(value))


def _pack(doc: Any) -> bytes:
    """Plain JSON values as a stored blob: compact JSON, compressed fast. Written by
    orjson (a run's findings at 10,000 files: 104 -> 27 ms), by the standard library
    for what orjson refuses (an integer beyond 64 bits, as a literal in job code can be)."""
    try:
        text = orjson.dumps(doc)
    except orjson.JSONEncodeError:
        text = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    return zlib.compress(text, 1)


def _plain(blob: bytes) -> Any:
    """A stored blob of plain JSON values (summaries, table rows, runs): orjson reads
    these five times as fast. Tagged values (`_loads`) need the standard library's
    object hook."""
    return orjson.loads(zlib.decompress(blob))


def _tagged(value: Any) -> str:
    """Values of our own types inside a plain document (diagnostics, suppressions, a
    table's internal errors, intents naming checkpoints: few entries have any), as
    tagged JSON text; `_untagged` reads it back."""
    return json.dumps(_encode(value), separators=(",", ":"))


def _untagged(text: str | None, empty: Any) -> Any:
    """What `_tagged` wrote, or `empty` where nothing was (None)."""
    return empty if text is None else json.loads(text, object_hook=_object)


def _encode_summary(summary: FileSummary) -> bytes:
    """A file summary as plain JSON arrays: every run decodes one for every file, and
    objects tagged with their types took twice as long to read. Diagnostics and
    suppression comments, which few files have, keep the tagged form."""
    tables = [[name, loc.path, loc.line, loc.column] for name, loc in summary.tables.items()]
    rest = summary.diagnostics, summary.suppressions
    plain = not rest[0] and rest[1] == _NO_SUPPRESSIONS
    shared = _tagged(list(summary.shared)) if summary.shared else None
    doc = [
        tables,
        list(summary.ddl_tables),
        shared,
        summary.n_intents,
        None if plain else _tagged(rest),
        summary.skipped,
        None if summary.links is None else _tagged(summary.links),
    ]
    return _pack(doc)


_NO_SUPPRESSIONS = FileSuppressions()


def _decode_summary(blob: bytes) -> FileSummary:
    tables, ddl, shared, n_intents, rest, skipped, links = _plain(blob)
    diagnostics, suppressions = _untagged(rest, ([], FileSuppressions()))
    links = _untagged(links, None)
    shared = tuple(_untagged(shared, ()))
    if (
        not isinstance(n_intents, int)
        or not all(isinstance(d, Diagnostic) for d in diagnostics)
        or not all(isinstance(i, Intent) for i in shared)
        or not (skipped is None or isinstance(skipped, str))
        or not (links is None or isinstance(links, Links))
    ):
        raise ValueError("not a file summary")
    return FileSummary(
        {name: Location(path, line, column) for name, path, line, column in tables},
        tuple(ddl),
        shared,
        n_intents,
        list(diagnostics),
        suppressions,
        skipped,
        links,
    )


def _encode_table(entry: TableEntry) -> bytes:
    """A table's findings as plain rows (see `_row`); its rare internal errors tagged."""
    errors = _tagged(entry.errors) if entry.errors else None
    return _pack([[_row(f) for f in entry.findings], errors, entry.source])


def _decode_table(blob: bytes) -> TableEntry:
    rows, tagged, source = _plain(blob)
    errors = _untagged(tagged, [])
    if not all(isinstance(e, Diagnostic) for e in errors) or not isinstance(source, str):
        raise ValueError("not a table entry")
    return TableEntry([_finding(r) for r in rows], errors, source)


def _row(f: Finding) -> list:
    """A finding as a flat JSON row: a warm run decodes thousands of them."""
    loc = f.location
    return [
        f.rule,
        f.name,
        f.severity,
        f.exception,
        f.table,
        f.message,
        [loc.path, loc.line, loc.column],
        [[r.path, r.line, r.column] for r in f.related],
        f.overlap,
        f.fix,
        f.settings_source,
        f.related_more,
    ]


def _finding(r: list) -> Finding:
    if len(r) != 12:
        raise ValueError("not a finding row")
    return Finding(*r[:6], Location(*r[6]), tuple(Location(*x) for x in r[7]), r[8], r[9], r[10], r[11])


@functools.cache
def code_identity() -> str:
    """The version, the schema and a hash of delta-lint's own code and rule pack: a
    cached result is only reused by the code that produced it, also in a development
    install where the version does not change with every edit (about 2 ms once)."""
    h = hashlib.blake2b(digest_size=12)
    h.update(f"{__version__}\0{SCHEMA}\0".encode())
    package = Path(__file__).resolve().parent
    try:
        rules = sorted(rules_dir().glob("*.yaml"))
    except FileNotFoundError:  # the run reports a missing rule pack itself
        rules = []
    for path in [*sorted(package.rglob("*.py")), *rules]:
        try:
            h.update(path.read_bytes())
        except OSError:
            continue
    return h.hexdigest()


def key(display: str, data: bytes) -> str:
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{code_identity()}\0{display}\0".encode())
    h.update(data)
    return h.hexdigest()


class Cache:
    """get_many / put_many over one SQLite file; every failure disables the cache."""

    def __init__(self, root: Path) -> None:
        self.path = root / CACHE_DIR / "frontend.sqlite3"
        self.db: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            ignore = self.path.parent / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# created by delta-lint\n*\n")
            self.db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("DROP TABLE IF EXISTS results")  # before file summaries (schema 2)
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS files (key TEXT PRIMARY KEY, value BLOB NOT NULL, summary BLOB NOT NULL)"
            )
            self.db.execute("CREATE TABLE IF NOT EXISTS tables (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS runs (key TEXT PRIMARY KEY, value BLOB NOT NULL, at REAL NOT NULL)"
            )
            self.db.execute("CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
        except (OSError, sqlite3.Error):
            self.db = None

    def _select(self, table: str, column: str, keys: list[str], decode: Callable[[bytes], Any]) -> dict[str, Any]:
        """{key: decode(column)} for the keys present; a damaged entry is a miss."""
        if self.db is None or not keys:
            return {}
        out: dict[str, Any] = {}
        try:
            for start in range(0, len(keys), 900):  # SQLite's bound-parameter limit
                chunk = keys[start : start + 900]
                marks = ",".join("?" * len(chunk))
                query = f"SELECT key, {column} FROM {table} WHERE key IN ({marks})"  # noqa: S608 - our names
                for k, blob in self.db.execute(query, chunk):
                    try:
                        out[k] = decode(blob)
                    except (ValueError, KeyError, TypeError, IndexError, zlib.error):
                        continue
        except sqlite3.Error:
            return {}
        return out

    def get_many(self, keys: list[str]) -> dict[str, FileResult]:
        return self._select("files", "value", keys, decode_result)

    def get_summaries(self, keys: list[str]) -> dict[str, FileSummary]:
        return self._select("files", "summary", keys, _decode_summary)

    def put_many(self, items: dict[str, tuple[bytes, bytes]]) -> None:
        """Entries made by `encode_entry` (in the front-end workers)."""
        if self.db is None or not items:
            return
        try:
            rows = [(k, value, summary) for k, (value, summary) in items.items()]
            with self.db:
                self.db.execute("BEGIN")
                self.db.executemany("INSERT OR REPLACE INTO files (key, value, summary) VALUES (?, ?, ?)", rows)
        except (sqlite3.Error, TypeError):
            pass

    def get_tables(self, keys: list[str]) -> dict[str, TableEntry]:
        """Per-table engine results of earlier runs (see run._table_key)."""
        return self._select("tables", "value", keys, _decode_table)

    def put_tables(self, items: dict[str, TableEntry]) -> None:
        if self.db is None or not items:
            return
        try:
            rows = [(k, _encode_table(e)) for k, e in items.items()]
            with self.db:
                self.db.execute("BEGIN")
                self.db.executemany("INSERT OR REPLACE INTO tables (key, value) VALUES (?, ?)", rows)
        except (sqlite3.Error, TypeError):
            pass

    def get_value(self, key: str) -> Any:
        """A value stored with put_value (e.g. parsed workflows), or None."""
        if self.db is None:
            return None
        try:
            row = self.db.execute("SELECT value FROM kv WHERE key = ?", (f"{code_identity()}:{key}",)).fetchone()
            return None if row is None else _loads(row[0])
        except (sqlite3.Error, ValueError, KeyError, TypeError, zlib.error):
            return None

    def put_value(self, key: str, value: Any) -> None:
        if self.db is None:
            return
        try:
            blob = _dumps(value)
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute(
                    "INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", (f"{code_identity()}:{key}", blob)
                )
        except (sqlite3.Error, TypeError):
            pass

    KEEP_FACTOR = 4  # entries kept per entry a run uses, before the unused are dropped

    def prune(self, table: str, used: list[str]) -> None:
        """Bound the cache: when `table` ("files" or "tables") holds more than
        KEEP_FACTOR times the entries this run used, drop those it did not use.
        Switching between a few branches keeps its entries; months of edits do not
        pile up."""
        if self.db is None or table not in ("files", "tables"):
            return
        try:
            (count,) = self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()  # noqa: S608 - our names
            if count <= self.KEEP_FACTOR * max(len(used), 64):
                return
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute("CREATE TEMP TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY)")
                self.db.execute("DELETE FROM used")
                self.db.executemany("INSERT OR IGNORE INTO used (key) VALUES (?)", [(k,) for k in used])
                self.db.execute(f"DELETE FROM {table} WHERE key NOT IN (SELECT key FROM used)")  # noqa: S608
        except sqlite3.Error:
            pass

    RUNS_KEPT = 16

    def get_run(self, run_key: str) -> dict | None:
        """What `put_run` kept of an earlier run, its findings decoded, or None; the
        run stage makes its result of it (this module sits below that stage)."""
        if self.db is None:
            return None
        try:
            row = self.db.execute("SELECT value FROM runs WHERE key = ?", (run_key,)).fetchone()
            if row is None:
                return None
            data = _plain(row[0])
            data["findings"] = [_finding(r) for r in data["findings"]]
            if not (
                isinstance(data["warnings"], list)
                and isinstance(data["mode"], str)
                and isinstance(data["schedule_files"], list)
                and isinstance(data["n_files"], int)
                and isinstance(data["n_intents"], int)
                and isinstance(data["skipped"], dict)
                and isinstance(data["analysed"], dict)
            ):
                return None
        except (sqlite3.Error, ValueError, KeyError, TypeError, IndexError, zlib.error):
            return None
        return data

    def put_run(self, run_key: str, result) -> None:
        if self.db is None:
            return
        import time

        doc = {
            "findings": [_row(f) for f in result.findings],
            "warnings": list(result.read.warnings),
            "mode": result.read.mode,
            "schedule_files": [str(p) for p in result.schedule_files],
            "n_files": result.n_files,
            "n_intents": result.n_intents,
            "skipped": result.skipped,
            "analysed": result.analysed,
        }
        try:
            blob = _pack(doc)
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute(
                    "INSERT OR REPLACE INTO runs (key, value, at) VALUES (?, ?, ?)", (run_key, blob, time.time())
                )
                self.db.execute(
                    "DELETE FROM runs WHERE key NOT IN (SELECT key FROM runs ORDER BY at DESC LIMIT ?)",
                    (self.RUNS_KEPT,),
                )
        except (sqlite3.Error, TypeError):
            pass

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
