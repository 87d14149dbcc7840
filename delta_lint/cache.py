"""The run's cache: one SQLite database per project in the user's cache folder,
with four tables that let a run skip work an earlier run did:

- `files`: what a file's front end produced and its summary, keyed by the file's
  content hash, its display path and the code's identity (`code_identity`);
- `tables`: one table's findings, keyed by its writers' files, its settings as
  read and the run's context (`TableEntry`), so only tables whose writers changed
  are paired again;
- `runs`: a whole run's findings, keyed by every input of the run, returned when
  nothing changed;
- `kv`: other stages' values (`get_value`, `put_value`): the file-stat index that
  saves hashing unchanged files, parsed bundles and job definitions, settings read
  live per table log state, and which cron schedules meet; and values a stage
  encodes itself (`get_blob`, `put_blob`): the project state a new process
  re-checks from (`kept.Kept`, typed msgspec), the output kept for a view and
  its index per finding (`patch.OutputIndex`).

Lookups for thousands of files are one query, concurrent runs are serialised by
SQLite's own locking, and a killed run leaves the last committed state. Any cache
problem only costs speed: the run goes on without it. A long-lived process (the
language server) keeps what its runs decoded in a `Memory`, consulted first.

The cache decides a gate's verdict, so it is never trusted:

- it lives outside the checkout by default (`$DELTA_LINT_CACHE_DIR`, else
  `$XDG_CACHE_HOME/delta-lint`, else `~/.cache/delta-lint`; one folder per project),
  and a cache folder inside the project is refused when it, or anything in it, is
  a symbolic link (a planted `frontend.sqlite3 -> victim.db` is never opened);
- every stored value carries a keyed BLAKE2b tag over its table, key and bytes;
  the key is kept outside the checkout (`$DELTA_LINT_CACHE_KEY`, else a random key
  in `$XDG_STATE_HOME/delta-lint/cache-key`), so a cache committed to the
  repository or restored from a scope a pull request can write is a miss;
- values are JSON of an allow-listed set of our own dataclasses (never pickle),
  and every value read back is checked against its declared types: a wrong type
  is a miss, never a traceback. The list is the front ends' result types; a stage
  that keeps other values (`get_value`, `put_value`) names the dataclasses its
  value holds with each call, and nothing else is built. A blob (`get_blob`) is
  bytes the caller decodes with a typed decoder of its own (msgspec with the
  declared types: a wrong shape is a miss there too).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import json
import os
import re
import stat
import types
import typing
import zlib
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from delta_lint import __version__
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
from delta_lint.safeio import is_within
from delta_lint.suppress import Directive, FileSuppressions

if TYPE_CHECKING:
    import sqlite3  # imported when a cache is opened (`Cache`): a run without one has no use for it

CACHE_DIR_ENV = "DELTA_LINT_CACHE_DIR"
CACHE_KEY_ENV = "DELTA_LINT_CACHE_KEY"
SCHEMA = 29  # bump when FileResult, the front ends or an encoding change what is stored
# The cache's own value types: a front end's result and what it is made of.
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
    )
}
_ENUMS = {e.__name__: e for e in (Flag, Kind, OpClass)}


_FIELDS = {c: tuple(f.name for f in dataclasses.fields(c)) for c in _CLASSES.values()}
_PLAIN = (str, int, float, bool, type(None))


def _encoder(fields: dict[type, tuple[str, ...]]) -> Callable[[Any], Any]:
    """The JSON-ready form of values made of the dataclasses `fields` names (type ->
    field names). Dispatches on the exact type first: filling the cache of a large
    repository encodes millions of values."""

    def encode(o: Any) -> Any:
        t = type(o)
        if t in _PLAIN:
            return o
        names = fields.get(t)
        if names is not None:
            out = {"__d": t.__name__}
            for name in names:
                out[name] = encode(getattr(o, name))
            return out
        if isinstance(o, Enum):
            return {"__e": t.__name__, "v": o.value}
        if isinstance(o, list):
            return [encode(v) for v in o]
        if isinstance(o, tuple):
            return {"__t": [encode(v) for v in o]}
        if isinstance(o, frozenset):
            return {"__f": [encode(v) for v in o]}
        if isinstance(o, dict):  # also YAML mappings that remember their line
            return {"__m": [[encode(k), encode(v)] for k, v in o.items()]}
        if isinstance(o, (str, int, float)):
            return o
        raise TypeError(f"cannot cache a {t.__name__}")

    return encode


def _object_hook(classes: dict[str, type]) -> Callable[[dict], Any]:
    """json.loads' object_hook for values made of the dataclasses `classes` names (the
    allow-list: name -> class). The C parser hands every JSON object over bottom-up,
    so a cached file result is rebuilt without a Python walk over its lists."""

    def hook(o: dict) -> Any:
        if "__d" in o:
            cls = classes[o.pop("__d")]  # KeyError for anything not allow-listed
            value = cls(**o)
            for name, ok in _field_checks(cls):
                if not ok(getattr(value, name)):
                    raise TypeError(f"{cls.__name__}.{name}: wrong type in the cache")
            return value
        if "__e" in o:
            return _ENUMS[o["__e"]](o["v"])
        if "__t" in o:
            return tuple(o["__t"])
        if "__f" in o:
            return frozenset(o["__f"])
        if "__m" in o:
            return {k: v for k, v in o["__m"]}
        raise ValueError("unknown cache value")

    return hook


_encode = _encoder(_FIELDS)
_object = _object_hook(_CLASSES)


def _with(holds: tuple[type, ...]) -> tuple[Callable[[Any], Any], Callable[[dict], Any]]:
    """The encoder and object hook of values that also hold the dataclasses `holds`
    (a caller's own types, named by the caller with each value)."""
    if not holds:
        return _encode, _object
    classes = dict(_CLASSES)
    for cls in holds:
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise TypeError(f"the cache holds dataclasses, not {cls!r}")
        if classes.setdefault(cls.__name__, cls) is not cls:
            raise TypeError(f"two cached types are named {cls.__name__}")
    return _encoder({c: tuple(f.name for f in dataclasses.fields(c)) for c in classes.values()}), _object_hook(classes)


@functools.cache
def _with_cached(holds: tuple[type, ...]) -> tuple[Callable[[Any], Any], Callable[[dict], Any]]:
    return _with(holds)


def encode_values(value: Any, holds: tuple[type, ...] = ()) -> str:
    """`value` (plain values, the cache's own types and the dataclasses `holds`
    names) as tagged JSON text, which `decode_values` gives back exactly (tuples
    stay tuples): for a caller that stores parts of a larger value of its own."""
    return json.dumps(_with_cached(holds)[0](value), separators=(",", ":"))


def decode_values(text: str, holds: tuple[type, ...] = ()) -> Any:
    """What `encode_values` wrote; ValueError, KeyError or TypeError for anything
    else (an unknown type, a field of the wrong type)."""
    return json.loads(text, object_hook=_with_cached(holds)[1])


@functools.cache
def _field_checks(cls: type) -> tuple[tuple[str, Callable[[Any], bool]], ...]:
    """A dataclass's fields and a check of each field's declared type, for what the
    cache gives back."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _checker(hints[f.name])) for f in dataclasses.fields(cls))


def _leaf_types(hint: Any) -> tuple[type, ...] | None:
    """The types `isinstance` checks a hint with, when no container is involved."""
    if hint is Any or hint is object:
        return (object,)
    if hint is type(None):
        return (type(None),)
    if hint is float:
        return (int, float)
    if hint is Path:
        return (str, Path)
    origin = typing.get_origin(hint)
    if origin is None:
        return (hint,) if isinstance(hint, type) else None
    if origin in (typing.Union, types.UnionType):
        parts = [_leaf_types(a) for a in typing.get_args(hint)]
        if all(p is not None for p in parts):
            return tuple(t for p in parts for t in p)  # type: ignore[union-attr]
    return None


@functools.cache
def _checker(hint: Any) -> Callable[[Any], bool]:
    """A function telling whether a decoded value has the declared type, containers
    element by element. Made once per type: a warm run checks tens of thousands of
    values. Our own dataclasses were checked as they were built (the JSON hook works
    bottom-up), so for them `isinstance` suffices."""
    leaf = _leaf_types(hint)
    if leaf is not None:
        return lambda v: isinstance(v, leaf)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        checks = [_checker(a) for a in args]
        return lambda v: any(c(v) for c in checks)
    if origin in (list, frozenset, set) or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        item_types = _leaf_types(args[0])
        if item_types is not None:
            return lambda v: isinstance(v, origin) and all(isinstance(x, item_types) for x in v)
        item = _checker(args[0])
        return lambda v: isinstance(v, origin) and all(map(item, v))
    if origin is tuple:
        checks, n = [_checker(a) for a in args], len(args)
        return lambda v: isinstance(v, tuple) and len(v) == n and all(c(x) for c, x in zip(checks, v))
    if origin is dict:
        key, value = _checker(args[0]), _checker(args[1])
        return lambda v: isinstance(v, dict) and all(key(k) and value(x) for k, x in v.items())
    return lambda v: isinstance(v, origin)


def _conforms(value: Any, hint: Any) -> bool:
    return _checker(hint)(value)


def _loads(blob: bytes, hook: Callable[[dict], Any] = _object) -> Any:
    return json.loads(zlib.decompress(blob), object_hook=hook)


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


def _dumps(value: Any, encode: Callable[[Any], Any] = _encode) -> bytes:
    return _pack(encode(value))


def _pack(doc: Any) -> bytes:
    """Plain JSON values as a stored blob: compact JSON, compressed fast. Written by
    orjson (a large run's findings are the cache's biggest values), by the standard library
    for what orjson refuses (an integer beyond 64 bits, as a literal in job code can be)."""
    import orjson

    try:
        text = orjson.dumps(doc)
    except orjson.JSONEncodeError:
        text = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    return zlib.compress(text, 1)


def _plain(blob: bytes) -> Any:
    """A stored blob of plain JSON values (summaries, table rows, runs), read by
    orjson: every run reads one per file. Tagged values (`_loads`) need the standard
    library's object hook."""
    import orjson

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
    objects tagged with their types are slower to read. Diagnostics and
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
        not _ints([n_intents])
        or not isinstance(diagnostics, list)
        or not all(isinstance(d, Diagnostic) for d in diagnostics)
        or not (suppressions is None or isinstance(suppressions, FileSuppressions))
        or not all(isinstance(i, Intent) for i in shared)
        or not (skipped is None or isinstance(skipped, str))
        or not (links is None or isinstance(links, Links))
        or not (isinstance(ddl, list) and all(isinstance(t, str) for t in ddl))
        or not (isinstance(tables, list) and all(isinstance(t, list) and len(t) == 4 for t in tables))
        or not all(isinstance(t[0], str) for t in tables)
    ):
        raise ValueError("not a file summary")
    return FileSummary(
        {name: _location([path, line, column]) for name, path, line, column in tables},
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
    if (
        not isinstance(rows, list)
        or not isinstance(errors, list)
        or not all(isinstance(e, Diagnostic) for e in errors)
        or not isinstance(source, str)
    ):
        raise ValueError("not a table entry")
    return TableEntry([_finding(r) for r in rows], errors, source)


def _row(f: Finding) -> list:
    """A finding as a flat JSON row: a warm run decodes thousands of them."""
    return [
        f.rule,
        f.name,
        f.severity,
        f.exception,
        f.table,
        f.message,
        _location_row(f.location),
        [_location_row(r) for r in f.related],
        f.overlap,
        f.fix,
        f.settings_source,
        f.related_more,
        f.overlap_basis,
        f.verdict,
    ]


def _location_row(loc: Location) -> list:
    """[path, line, column], and the statement sites of a write reported at a helper's
    call when it has them (see `Location.sites`)."""
    row: list = [loc.path, loc.line, loc.column]
    if loc.sites:
        row.append([[s.path, s.line, s.column] for s in loc.sites])
    return row


def _location(x: Any) -> Location:
    if type(x) is not list or len(x) not in (3, 4):
        raise ValueError("not a location")
    path, line, column = x[:3]
    if type(path) is not str or type(line) is not int or type(column) is not int:
        raise ValueError("not a location")
    if len(x) == 4:
        if type(x[3]) is not list or not x[3]:
            raise ValueError("not a location")
        return Location(path, line, column, tuple(map(_location, x[3])))
    return Location(path, line, column)


def _ints(values: Any) -> bool:
    return all(type(v) is int for v in values)


_OPTIONAL_TEXT = (str, type(None))


def _finding(r: list) -> Finding:
    if (
        type(r) is not list
        or len(r) != 14
        or type(r[0]) is not str
        or type(r[1]) is not str
        or type(r[2]) is not str
        or not isinstance(r[3], _OPTIONAL_TEXT)
        or not isinstance(r[4], _OPTIONAL_TEXT)
        or type(r[5]) is not str
        or type(r[7]) is not list
        or type(r[8]) is not str
        or type(r[9]) is not str
        or not isinstance(r[10], _OPTIONAL_TEXT)
        or type(r[11]) is not int
        or not isinstance(r[12], _OPTIONAL_TEXT)
        or not isinstance(r[13], _OPTIONAL_TEXT)
    ):
        raise ValueError("not a finding row")
    return Finding(*r[:6], _location(r[6]), tuple(_location(x) for x in r[7]), r[8], r[9], r[10], r[11], r[12], r[13])


@functools.cache
def code_identity() -> str:
    """The version, the schema and a hash of delta-lint's own code and rule pack: a
    cached result is only reused by the code that produced it, also in a development
    install where the version does not change with every edit (computed once per process)."""
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


def _user_folder(env: str, fallback: str) -> Path:
    """An XDG base folder: the variable when it names an absolute path, else the default under home."""
    value = os.environ.get(env, "")
    return Path(value) if os.path.isabs(value) else Path.home() / fallback


def cache_folder(root: Path) -> Path:
    """Where the cache of the project at `root` lives: one folder per project (its
    name and a hash of its resolved path) under the cache base folder."""
    base_text = os.environ.get(CACHE_DIR_ENV, "")
    base = Path(base_text).absolute() if base_text else _user_folder("XDG_CACHE_HOME", ".cache") / "delta-lint"
    resolved = os.path.realpath(root)
    slug = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(resolved))[:40] or "root"
    return base / f"{slug}-{hashlib.blake2b(resolved.encode(errors='surrogateescape'), digest_size=8).hexdigest()}"


class CacheRefused(Exception):
    """Why a cache folder or key is not used (the run goes on without the cache)."""


def _no_links(folder: Path, root: Path) -> None:
    """A cache folder inside the project must not be, lead through, or hold a symbolic
    link: the project's files are not ours to write through."""
    abs_root, abs_folder = os.path.abspath(root), os.path.abspath(folder)
    if not is_within(abs_folder, abs_root):
        if is_within(os.path.realpath(folder), os.path.realpath(root)):
            raise CacheRefused(f"the cache folder `{folder}` leads into the project through a symbolic link")
        return  # the user's own folder, outside the project
    step = Path(abs_root)
    for part in Path(abs_folder).relative_to(abs_root).parts:
        step = step / part
        if step.is_symlink():
            raise CacheRefused(f"the cache folder `{folder}` is inside the project and `{step}` is a symbolic link")
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_symlink():
                    raise CacheRefused(f"the cache folder `{folder}` holds a symbolic link (`{entry.name}`)")
    except FileNotFoundError:
        pass


def cache_key_bytes(root: Path) -> bytes:
    """The key that tags every stored value: `$DELTA_LINT_CACHE_KEY` (a CI secret, so
    that caches restored between CI runs stay usable), else a random key made once
    per user in `$XDG_STATE_HOME/delta-lint/cache-key`. It must live outside the project."""
    secret = os.environ.get(CACHE_KEY_ENV, "")
    if secret:
        return hashlib.blake2b(secret.encode(errors="surrogateescape"), digest_size=32).digest()
    path = _user_folder("XDG_STATE_HOME", ".local/state") / "delta-lint" / "cache-key"
    if is_within(os.path.realpath(path), os.path.realpath(root)):
        raise CacheRefused(f"the cache key `{path}` would be inside the project")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        import secrets

        fresh = secrets.token_bytes(32)
        try:  # created whole or not at all: two first runs at once agree on one key
            tmp = path.with_name(f".cache-key.{os.getpid()}.{secrets.token_hex(4)}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(fresh)
            try:
                os.link(tmp, path)
            finally:
                os.unlink(tmp)
        except FileExistsError:
            pass
        fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size != 32:
            raise CacheRefused(f"the cache key `{path}` is not a 32-byte file")
        return os.read(fd, 32)
    finally:
        os.close(fd)


_ABSENT = object()


class Memory:
    """Decoded cache values kept in a long-lived process between runs (the language
    server's), so that a run after one edit decodes only what the edit changed:
    file summaries and results, table results and runs are keyed by content, so a
    kept value never goes stale; a kv value (`get_value`) is kept until it is put
    again, and every stage that keeps one checks it still holds, as it checks one
    read from the database. Only values read back or tables judged are kept, never
    an object a caller may still change, but for the run stage's own state of a
    project (slot "projects", see `run._recheck`), which only that stage changes.
    The owner holds it; nothing is global.

    A slot a run used drops the entries that run did not use once it holds more
    than KEEP_FACTOR times as many (as the database's own `prune`); runs are kept for
    the last RUNS_KEPT keys (each holds a whole run's findings)."""

    KEEP_FACTOR = 2
    KEEP_AT_LEAST = 64  # a slot is not trimmed below this many entries
    RUNS_KEPT = 4

    def __init__(self) -> None:
        self.slots: dict[str, dict[Any, Any]] = {}
        self.used: dict[str, set[Any]] = {}

    def get(self, slot: str, key: Any) -> Any:
        value = self.slots.get(slot, {}).get(key, _ABSENT)
        if value is not _ABSENT:
            self.used.setdefault(slot, set()).add(key)
        return value

    def find(self, slot: str, key: Any) -> Any:
        """The value kept under `key` in `slot`, or None."""
        value = self.get(slot, key)
        return None if value is _ABSENT else value

    def put(self, slot: str, key: Any, value: Any) -> None:
        values = self.slots.setdefault(slot, {})
        values.pop(key, None)  # insertion order is age: the runs slot drops its oldest
        values[key] = value
        self.used.setdefault(slot, set()).add(key)

    def drop(self, slot: str, key: Any) -> None:
        self.slots.get(slot, {}).pop(key, None)

    def mark(self, slot: str, keys: Any) -> None:
        """Count `keys` as used by this run though it did not ask for them (a re-check
        takes the tables it did not judge again from its own state): `trim` keeps them."""
        self.used.setdefault(slot, set()).update(keys)

    def clear(self, slot: str) -> None:
        """Drop everything kept in `slot`."""
        self.slots.pop(slot, None)
        self.used.pop(slot, None)

    def trim(self) -> None:
        """End of a run: bound what is kept (see the class)."""
        for slot, used in self.used.items():
            values = self.slots.get(slot, {})
            if len(values) > self.KEEP_FACTOR * max(len(used), self.KEEP_AT_LEAST):
                for key in [k for k in values if k not in used]:
                    del values[key]
        runs = self.slots.get("runs", {})
        for key in list(runs)[: max(len(runs) - self.RUNS_KEPT, 0)]:
            del runs[key]
        self.used = {}


class Cache:
    """get_many / put_many over one SQLite file; every failure disables the cache.
    `refused` says why a cache was not used when that was a choice (a warning for
    the user), not a fault. `memory`: decoded values kept between the runs of a
    long-lived process (see `Memory`), consulted before the database."""

    def __init__(self, root: Path, memory: Memory | None = None) -> None:
        global sqlite3  # every use of the module is a cache's, made after this
        import sqlite3

        self.memory = memory
        self.path = Path(os.devnull)
        self.db: sqlite3.Connection | None = None
        self.refused: str | None = None
        self._key = b""
        self._swept = False  # kv entries of other code dropped (see `_drop_other_codes`)
        try:
            folder = cache_folder(root)
            self.path = folder / "frontend.sqlite3"
            self._key = cache_key_bytes(root)
            _no_links(folder, root)
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            _no_links(folder, root)  # also once made: nothing raced a link in meanwhile
            for name in ("frontend.sqlite3", "frontend.sqlite3-wal", "frontend.sqlite3-shm"):
                if (folder / name).is_symlink():
                    raise CacheRefused(f"`{folder / name}` is a symbolic link")
            if is_within(os.path.abspath(folder), os.path.abspath(root)):
                self._ignore_in_git(folder)
            self.db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS files (key TEXT PRIMARY KEY, value BLOB NOT NULL, summary BLOB NOT NULL)"
            )
            self.db.execute("CREATE TABLE IF NOT EXISTS tables (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS runs (key TEXT PRIMARY KEY, value BLOB NOT NULL, at REAL NOT NULL)"
            )
            self.db.execute("CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
        except CacheRefused as why:
            self.refused = f"cache not used: {why}"
            self.close()
        except (OSError, sqlite3.Error, RuntimeError, ValueError):  # RuntimeError: no home folder
            self.close()

    @staticmethod
    def _ignore_in_git(folder: Path) -> None:
        """A cache folder in the project ignores itself in git; the file is created, never
        written through (O_EXCL, O_NOFOLLOW)."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(folder / ".gitignore", flags, 0o644)
        except FileExistsError:
            return
        with os.fdopen(fd, "w") as out:
            out.write("# created by delta-lint\n*\n")

    def _tag(self, table: str, key: str, payload: bytes) -> bytes:
        h = hashlib.blake2b(digest_size=16, key=self._key)
        h.update(f"{table}\0{key}\0".encode(errors="surrogateescape"))
        h.update(payload)
        return h.digest()

    def _seal(self, table: str, key: str, payload: bytes) -> bytes:
        """A value as stored: its tag, then its bytes."""
        return self._tag(table, key, payload) + payload

    def _open(self, table: str, key: str, blob: Any) -> bytes:
        """The bytes of a stored value whose tag is right; ValueError otherwise (a miss)."""
        if not isinstance(blob, bytes) or len(blob) < 16:
            raise ValueError("not a stored value")
        payload = blob[16:]
        if not hmac.compare_digest(blob[:16], self._tag(table, key, payload)):
            raise ValueError("a stored value not written by this user's delta-lint")
        return payload

    def _select(self, table: str, column: str, keys: list[str], decode: Callable[[bytes], Any]) -> dict[str, Any]:
        """{key: decode(column)} for the keys present; a damaged entry is a miss."""
        if self.db is None or not keys:
            return {}
        kept: dict[str, Any] = {}
        slot = f"{table}.{column}"
        memory = self.memory
        if memory is not None:
            for k in keys:
                value = memory.get(slot, k)
                if value is not _ABSENT:
                    kept[k] = value
            keys = [k for k in keys if k not in kept] if kept else keys
        out: dict[str, Any] = {}
        try:
            for start in range(0, len(keys), 900):  # SQLite's bound-parameter limit
                chunk = keys[start : start + 900]
                marks = ",".join("?" * len(chunk))
                query = f"SELECT key, {column} FROM {table} WHERE key IN ({marks})"  # noqa: S608 - our names
                for k, blob in self.db.execute(query, chunk):
                    try:
                        out[k] = decode(self._open(slot, k, blob))
                    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, zlib.error):
                        continue
                    if memory is not None:
                        memory.put(slot, k, out[k])
        except sqlite3.Error:
            return kept
        return kept | out if kept else out

    def get_many(self, keys: list[str]) -> dict[str, FileResult]:
        return self._select("files", "value", keys, decode_result)

    def get_summaries(self, keys: list[str]) -> dict[str, FileSummary]:
        return self._select("files", "summary", keys, _decode_summary)

    def get_entries(self, keys: list[str]) -> dict[str, tuple[bytes, bytes]]:
        """The entries of `keys` as `encode_entry` made them (tags checked, not
        decoded): a reading is compared with an earlier one by its bytes."""
        if self.db is None or not keys:
            return {}
        out: dict[str, tuple[bytes, bytes]] = {}
        try:
            for start in range(0, len(keys), 900):  # SQLite's bound-parameter limit
                chunk = keys[start : start + 900]
                marks = ",".join("?" * len(chunk))
                query = f"SELECT key, value, summary FROM files WHERE key IN ({marks})"  # noqa: S608 - our names
                for k, value, summary in self.db.execute(query, chunk):
                    try:
                        out[k] = (self._open("files.value", k, value), self._open("files.summary", k, summary))
                    except ValueError:  # damaged, or not this user's: no reading to compare with
                        continue
        except sqlite3.Error:
            return {}
        return out

    def put_many(self, items: dict[str, tuple[bytes, bytes]]) -> None:
        """Entries made by `encode_entry` (in the front-end workers)."""
        if self.db is None or not items:
            return
        try:
            rows = [
                (k, self._seal("files.value", k, value), self._seal("files.summary", k, summary))
                for k, (value, summary) in items.items()
            ]
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
            rows = [(k, self._seal("tables.value", k, _encode_table(e))) for k, e in items.items()]
            with self.db:
                self.db.execute("BEGIN")
                self.db.executemany("INSERT OR REPLACE INTO tables (key, value) VALUES (?, ?)", rows)
        except (sqlite3.Error, TypeError):
            return
        if self.memory is not None:  # a table's entry is the engine's, never changed after
            for k, e in items.items():
                self.memory.put("tables.value", k, e)

    def get_value(self, key: str, holds: tuple[type, ...] = ()) -> Any:
        """A value stored with put_value (e.g. parsed workflows), or None. `holds`: the
        dataclasses the value may be made of besides the cache's own; a stored value
        holding any other type is a miss."""
        if self.db is None:
            return None
        stored = f"{code_identity()}:{key}"
        kept = (stored, tuple(f"{c.__module__}.{c.__qualname__}" for c in holds))
        if self.memory is not None and (value := self.memory.get("kv", kept)) is not _ABSENT:
            return value
        try:
            row = self.db.execute("SELECT value FROM kv WHERE key = ?", (stored,)).fetchone()
            value = None if row is None else _loads(self._open("kv.value", stored, row[0]), _with(holds)[1])
        except (sqlite3.Error, ValueError, KeyError, TypeError, AttributeError, RecursionError, zlib.error):
            return None
        if self.memory is not None and value is not None:
            self.memory.put("kv", kept, value)
        return value

    def has_value(self, key: str) -> bool:
        """Whether a value is stored under `key` by this code, without reading it."""
        if self.db is None:
            return False
        try:
            row = self.db.execute("SELECT 1 FROM kv WHERE key = ?", (f"{code_identity()}:{key}",)).fetchone()
        except sqlite3.Error:
            return False
        return row is not None

    def put_value(self, key: str, value: Any, holds: tuple[type, ...] = ()) -> None:
        """Keep `value`, made of plain values, the cache's own types and the dataclasses
        `holds` names; a value holding anything else is not kept."""
        if self.db is None:
            return
        stored = f"{code_identity()}:{key}"
        if self.memory is not None:  # read back from the database next time: the caller keeps `value`
            for kept in [k for k in self.memory.slots.get("kv", {}) if k[0] == stored]:
                self.memory.drop("kv", kept)
        try:
            blob = self._seal("kv.value", stored, _dumps(value, _with(holds)[0]))
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", (stored, blob))
                self._drop_other_codes()
        except (sqlite3.Error, TypeError):
            pass

    def get_blob(self, key: str) -> bytes | None:
        """Bytes stored with `put_blob` under `key` by this code, tag checked; None
        when absent or not written by this user's delta-lint. The caller decodes
        them with a typed decoder of its own (a wrong shape is its miss)."""
        if self.db is None:
            return None
        stored = f"{code_identity()}:{key}"
        try:
            row = self.db.execute("SELECT value FROM kv WHERE key = ?", (stored,)).fetchone()
            return None if row is None else zlib.decompress(self._open("kv.blob", stored, row[0]))
        except (sqlite3.Error, ValueError, zlib.error):
            return None

    def put_blob(self, key: str, payload: bytes) -> None:
        """Keep `payload` (a caller's own compact encoding) under `key`, sealed as
        every stored value is; compressed fast."""
        if self.db is None:
            return
        stored = f"{code_identity()}:{key}"
        try:
            blob = self._seal("kv.blob", stored, zlib.compress(payload, 1))
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", (stored, blob))
                self._drop_other_codes()
        except (sqlite3.Error, TypeError):
            pass

    def _drop_other_codes(self) -> None:
        """Drop the kv entries another delta-lint code wrote (`code_identity`: an
        upgrade, an edit of a development install): no run of this code reads them,
        and a project state with its workflows is hundreds of KB. Once per cache
        opened, inside the caller's transaction."""
        if self._swept or self.db is None:
            return
        self._swept = True
        prefix = f"{code_identity()}:"
        self.db.execute("DELETE FROM kv WHERE substr(key, 1, ?) != ?", (len(prefix), prefix))

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
        if self.memory is not None and (kept := self.memory.get("runs", run_key)) is not _ABSENT:
            return kept
        try:
            row = self.db.execute("SELECT value FROM runs WHERE key = ?", (run_key,)).fetchone()
            if row is None:
                return None
            data = _plain(self._open("runs.value", run_key, row[0]))
            data["findings"] = [_finding(r) for r in data["findings"]]
            data["scans"] = _untagged(data["scans"], {})
            if not (
                isinstance(data["scans"], dict)
                and all(isinstance(v, FileSuppressions) for v in data["scans"].values())
                and _conforms(data["rel_of"], dict[str, str])
                and _conforms(data["warnings"], list[str])
                and isinstance(data["mode"], str)
                and _conforms(data["schedule_files"], list[str])
                and _ints([data["n_files"], data["n_intents"]])
                and _conforms(data["skipped"], dict[str, str])
                and _conforms(data["analysed"], dict[str, int])
                and _conforms(data["notes"], list[str])
            ):
                return None
        except (sqlite3.Error, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, zlib.error):
            return None
        if self.memory is not None:
            self.memory.put("runs", run_key, data)
        return data

    def put_run(self, run_key: str, kept: dict) -> None:
        """Keep a run's outcome: `findings` (a list of `Finding`), `scans` (suppression
        comments by path, tagged) and plain JSON values under the other keys."""
        if self.db is None:
            return
        import time

        doc = dict(kept, findings=[_row(f) for f in kept["findings"]], scans=_tagged(kept["scans"]))
        try:
            blob = self._seal("runs.value", run_key, _pack(doc))
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
        if self.memory is not None:
            self.memory.trim()
        if self.db is not None:
            self.db.close()
            self.db = None
