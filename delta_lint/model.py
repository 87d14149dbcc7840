"""The values that flow between stages: intents, diagnostics, table settings, findings.

Every front end produces the same `Intent`, whatever the source language, so the
engine never needs to know whether a write came from SQL, PySpark or a notebook.
All values are frozen so a stage cannot change what an earlier stage produced.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter
from typing import Any

from delta_lint.predicates import Region
from delta_lint.words import identifiers


class OpClass(str, Enum):
    """The operation classes of the conflict matrices (spec section 2), plus the
    classes the matrices do not cover but other rules do."""

    INSERT = "INSERT"
    DML = "UPDATE/DELETE/MERGE"
    OPTIMIZE = "OPTIMIZE"
    METADATA = "metadata change"
    PROTOCOL = "protocol change"
    CREATE = "create"
    READ = "streaming read"
    NONE = "no conflict class"


class Kind(str, Enum):
    """The finer operation kinds users see in `delta-lint intents`."""

    BLIND_APPEND = "blind_append"
    INSERT_READING_TARGET = "insert_reading_target"
    REPLACE_WHERE = "replace_where"
    DYNAMIC_OVERWRITE = "dynamic_partition_overwrite"
    FULL_OVERWRITE = "full_overwrite"
    UPDATE = "update"
    DELETE = "delete"
    MERGE = "merge"
    OPTIMIZE = "optimize"
    OPTIMIZE_ZORDER = "optimize_zorder"
    REORG_PURGE = "reorg_purge"
    METADATA_CHANGE = "metadata_change"
    PROTOCOL_CHANGE = "protocol_change"
    CREATE = "create"
    CREATE_OR_REPLACE = "create_or_replace"
    STREAMING_WRITE = "streaming_write"
    STREAMING_READ = "streaming_read"
    VACUUM = "vacuum"
    RESTORE = "restore"
    TRUNCATE = "truncate"
    COPY_INTO = "copy_into"


# The spec class each kind belongs to when no flag moves it (schema evolution
# moves any write into the metadata class; see `Intent.op_class`).
KIND_CLASS: dict[Kind, OpClass] = {
    Kind.BLIND_APPEND: OpClass.INSERT,
    Kind.COPY_INTO: OpClass.INSERT,
    Kind.STREAMING_WRITE: OpClass.INSERT,
    Kind.INSERT_READING_TARGET: OpClass.DML,
    Kind.REPLACE_WHERE: OpClass.DML,
    Kind.DYNAMIC_OVERWRITE: OpClass.DML,
    Kind.FULL_OVERWRITE: OpClass.DML,
    Kind.UPDATE: OpClass.DML,
    Kind.DELETE: OpClass.DML,
    Kind.MERGE: OpClass.DML,
    Kind.RESTORE: OpClass.DML,
    Kind.TRUNCATE: OpClass.DML,
    Kind.OPTIMIZE: OpClass.OPTIMIZE,
    Kind.OPTIMIZE_ZORDER: OpClass.OPTIMIZE,
    Kind.REORG_PURGE: OpClass.OPTIMIZE,
    Kind.METADATA_CHANGE: OpClass.METADATA,
    Kind.CREATE_OR_REPLACE: OpClass.METADATA,
    Kind.PROTOCOL_CHANGE: OpClass.PROTOCOL,
    Kind.CREATE: OpClass.CREATE,
    Kind.STREAMING_READ: OpClass.READ,
    Kind.VACUUM: OpClass.NONE,
}

# Kinds that insert new rows (they advance an identity column's high watermark).
ROW_INSERTING_KINDS = frozenset(
    {
        Kind.BLIND_APPEND,
        Kind.COPY_INTO,
        Kind.STREAMING_WRITE,
        Kind.INSERT_READING_TARGET,
        Kind.REPLACE_WHERE,
        Kind.DYNAMIC_OVERWRITE,
        Kind.FULL_OVERWRITE,
        Kind.CREATE_OR_REPLACE,
    }
)


class Flag(str, Enum):
    """Facts about an intent that change its verdict."""

    READS_TARGET = "reads_target"
    SCHEMA_EVOLUTION = "schema_evolution"
    NON_DETERMINISTIC = "non_deterministic"
    SUBQUERY = "subquery"
    CORRELATED_SUBQUERY = "correlated_subquery"
    COMPLEX_TYPE_CONDITION = "complex_type_condition"
    READS_WHOLE_TARGET = "reads_whole_target"  # MERGE ... WHEN NOT MATCHED BY SOURCE
    STATIC_PARTITION = "static_partition"
    PER_BATCH = "per_batch"  # runs in a foreachBatch body, once per micro-batch
    IF_NOT_EXISTS = "if_not_exists"
    ROW_LEVEL_PREVIEW = "row_level_preview"  # rowLevelConcurrencyPreview set in the session
    OPAQUE_CONDITION = "opaque_condition"  # a condition the front end could not read
    UNRESOLVED = "unresolved"  # the table name could not be resolved statically
    FOREACH_BATCH_SINK = "foreach_batch_sink"
    AWAITED = "awaited"  # the streaming query is awaited: the code after it runs once it has stopped
    ONE_OF = "one_of"  # the table (or statement) is one of several the code may choose at run time
    # the statement runs only while its own table does not exist (a first run's create
    # under `if not spark.catalog.tableExists(t)`: see `frontend.pyguards`)
    ONLY_WHEN_ABSENT = "only_when_absent"


DYNAMIC_SQL = "DL007"


def is_coverage(rule: str) -> bool:
    """DL000-DL008 say what delta-lint could not analyse (coverage gaps), not a
    predicted conflict: by default they do not fail the gate."""
    return rule.startswith("DL0")


# A job's task path whose folder only a run knows (`f"{base_path}/02_process_data"`,
# with `base_path` read from the notebook context): the path is matched by its tail.
UNKNOWN_FOLDER = "{unknown folder}"

# The thread pools whose calls run a notebook (`dbutils.notebook.run`): each pool as
# (where it is made, the calls of it that run the notebook: "" for any of several, the
# inputs every call gives one known value: (input, value) pairs, the same in each call;
# and the inputs every call gives a known value that differs between calls), sorted.
Pools = tuple[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...], tuple[str, ...]], ...]
# One call's run of a notebook by a thread pool (`Links.pooled_notebooks`): the child
# notebook, where the pool is made, which call ran it ("": any of several calls), and
# the arguments known in that reading, as (input, value) pairs, sorted
PooledRun = tuple[str, str, str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True, order=True)
class Location:
    path: str
    line: int
    column: int
    # where the statement itself stands when the write is reported elsewhere: a write
    # in a helper (of this file, another module, a `%run` notebook) is reported at the
    # call and written here. Not part of equality or order, so a location is the same
    # place with or without them; the engine hands intent locations to findings as
    # they are, so a finding's locations carry the sites of its writes.
    sites: tuple[Location, ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column}


@dataclass(frozen=True)
class TableRef:
    """A normalised table identity: lower-cased dotted name, or `delta:` + path."""

    name: str
    is_path: bool = False

    def __str__(self) -> str:
        return self.name


class _kept:
    """`functools.cached_property` without its per-call lock (Python 3.11 takes one on
    every first access; the engine makes a hundred thousand of them): the first value
    lands in the instance dict, which then answers before the descriptor is asked."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.name = fn.__name__

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


@dataclass(frozen=True)
class Intent:
    """One write (or streaming read) the job code will perform."""

    location: Location
    table: TableRef | None
    kind: Kind
    flags: frozenset[Flag] = frozenset()
    predicate_sql: str | None = None  # the target condition as written (normalised SQL)
    region: Region | None = None  # the condition as per-column constraints; None = whole table
    target_alias: str | None = None
    params: tuple[str, ...] = ()
    subkind: str | None = None  # e.g. metadata change: add_columns, set_tblproperties
    zorder_by: tuple[str, ...] = ()
    merge_clauses: tuple[str, ...] = ()
    checkpoint: str | None = None
    txn_app_id: str | None = None
    stream: Location | None = None  # the streaming query this intent belongs to
    declared: TableDDL | None = None  # settings a CREATE statement declares
    statement: str = ""  # a short excerpt of the source, for messages
    job: str = ""  # filled by the schedule stage; the file path until configured
    # a table name with placeholders built only of constants and these job inputs
    # (widgets, arguments): the same table in every run given the same inputs (see
    # `Schedule.same_table_every_run`); empty when some part of it is not an input
    name_inputs: tuple[str, ...] = ()
    # an INSERT reading its own target: the part of `region` (what it reads and what it
    # writes) that it reads; an append, which reads nothing, meets it only there. None:
    # not such an INSERT, or what it reads is not known apart
    read_region: Region | None = None
    # written by a function a thread pool calls once per item (`ThreadPoolExecutor.map`,
    # `submit` in a loop, joblib's `Parallel`): where the pool hands out the calls, and
    # the item this reading stands for (None: any item, so every call makes this write).
    # Calls of one pool run at the same time (see `schedule.pool_overlap`).
    pool: Location | None = None
    pool_item: str | None = None
    # a file its tasks run with different values is read once per set of values
    # (`Context.variants`): the sets of the readings that made this write, when not
    # every reading did. It runs only in the tasks (or for_each iterations) that give
    # one of them (see `schedule.Schedule.nodes`); () in every run of its file.
    given: tuple[tuple[tuple[str, str], ...], ...] = ()
    # the columns a write with schema evolution brings, when the code states them all
    # (`INSERT INTO t (a, b) ...`, a frame made with a literal schema): it changes the
    # schema only if one is not the table's. (): not known
    row_columns: tuple[str, ...] = ()

    @property
    def added_columns(self) -> tuple[str, ...]:
        """The columns an `ALTER TABLE ... ADD COLUMNS` adds (none for other intents)."""
        return self.declared.columns if self.subkind == "add_columns" and self.declared else ()

    @_kept
    def op_class(self) -> OpClass:
        """Kept after the first use: the engine asks for every candidate pair."""
        if Flag.ONLY_WHEN_ABSENT in self.flags:  # it runs only while the table does not exist: it creates it
            return OpClass.CREATE
        if Flag.SCHEMA_EVOLUTION in self.flags and self.kind not in (
            Kind.PROTOCOL_CHANGE,
            Kind.CREATE,
        ):
            return OpClass.METADATA
        return KIND_CLASS[self.kind]

    def to_json(self) -> dict:
        return {
            "path": self.location.path,
            "line": self.location.line,
            "column": self.location.column,
            "table": self.table.name if self.table else None,
            "kind": self.kind.value,
            "class": self.op_class.value,
            "subkind": self.subkind,
            "predicate": self.predicate_sql,
            "target_alias": self.target_alias,
            "parameters": list(self.params),
            "name_inputs": list(self.name_inputs),
            "flags": sorted(f.value for f in self.flags),
            "zorder_by": list(self.zorder_by),
            "merge_clauses": list(self.merge_clauses),
            "checkpoint": self.checkpoint,
            "txn_app_id": self.txn_app_id,
            "stream": self.stream.to_json() if self.stream else None,
            **({"pool": self.pool.to_json(), "pool_item": self.pool_item} if self.pool else {}),
            "sites": [s.to_json() for s in self.location.sites],
        }


@dataclass(frozen=True)
class TableDDL:
    """Table settings a CREATE statement in the workload declares."""

    partitioned_by: tuple[str, ...] = ()
    clustered_by: tuple[str, ...] = ()
    deletion_vectors: bool | None = None
    isolation_level: str | None = None
    identity_columns: tuple[str, ...] = ()
    # a CREATE's columns; an ALTER TABLE ... ADD COLUMNS's added ones
    columns: tuple[str, ...] = ()


# the rule of a table name no reading of the code can tell (every front end says it)
UNRESOLVED_TABLE = "DL001"


@dataclass(frozen=True)
class Diagnostic:
    """A problem reading the input (not a predicted conflict)."""

    rule: str
    location: Location
    message: str
    severity: str = "warning"


@dataclass(frozen=True)
class Finding:
    rule: str
    name: str
    severity: str
    exception: str | None
    table: str | None
    message: str
    location: Location
    related: tuple[Location, ...] = ()
    overlap: str = ""
    fix: str = ""
    settings_source: str | None = None  # live | snapshot | declared | ddl | assumed
    related_more: int = 0  # other locations left out of `related` (see engine.messages.SHOWN_OTHERS)
    # how sure a conflict finding is (None for findings that judge no overlap):
    # "schedule" | "assumed" | "code" (what the overlap rests on), "certain" | "data-dependent"
    overlap_basis: str | None = None
    verdict: str | None = None

    def to_json(self) -> dict:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "exception": self.exception,
            "table": self.table,
            "message": self.message,
            "location": self.location.to_json(),
            "related": [r.to_json() for r in self.related],
            "related_more": self.related_more,
            "overlap": self.overlap,
            "overlap_basis": self.overlap_basis,
            "verdict": self.verdict,
            "fix": self.fix,
            "settings_source": self.settings_source,
            "sites": [s.to_json() for s in self.sites],
        }

    @property
    def sites(self) -> tuple[Location, ...]:
        """Where the statements of its writes stand when a write is reported at a
        helper's call (its own write's first, then the related ones'), once each."""
        loc, related = self.location, self.related
        if not loc.sites and not any(r.sites for r in related):
            return ()
        return tuple(dict.fromkeys(s for x in (loc, *related) for s in x.sites))

    def sort_key(self) -> tuple:
        """Location order, then rule, table, message; plain values so that sorting
        tens of thousands of findings compares in C."""
        loc = self.location
        return (loc.path, loc.line, loc.column, self.rule, self.table or "", self.message, self.related)


# A value a file gives the files that `%run` or import it: a string, a list of
# strings or a dict of strings (plain JSON, so it keys the cache).
Value = Any


# a class's shape as the first reading gives it (see `Links.methods`)
ClassShape = tuple[int, list[tuple[str, int, int, int]]]

# A SQL procedure's definition as the file defining it gives it to the files that CALL
# it: (qualified name, the text from `CREATE` to its `END`, the line and column of
# `CREATE` in the file, the catalog and schema in force there ("" for none), whether
# the text is SQL a Python call runs (its statements then all stand at that call))
ProcedureDef = tuple[str, str, int, int, str, str, bool]


@dataclass
class Links:
    """What a file tells the files that depend on it, and what it needs from others:
    read by the link stage to give each file its `Context`."""

    exports: dict[str, Value] = field(default_factory=dict)  # top-level names with static values
    session: dict[str, Any] = field(default_factory=dict)  # SQL session state it leaves (USE ...)
    imports: list[tuple[str, str, str]] = field(default_factory=list)  # (module, name or "", bound as)
    runs: list[str] = field(default_factory=list)  # `%run` targets, in order
    inputs: list[str] = field(default_factory=list)  # job inputs it reads: widgets, argv_N, argparse names
    # the literal defaults of the widgets it creates (`dbutils.widgets.text("c", "dev")`):
    # the value of a run that does not give the widget (see `link._with_defaults`)
    defaults: dict[str, str] = field(default_factory=dict)
    jobs: list[dict] = field(default_factory=list)  # job definitions written as literal dicts (a RUNME notebook)
    # `dbutils.notebook.run(path, timeout, {args})`: the child notebook and its widget values
    notebooks: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    # those of them a thread pool's calls run (see `frontend.pools.PoolReader.call`)
    pooled_notebooks: list[PooledRun] = field(default_factory=list)
    functions: dict[str, str] = field(default_factory=dict)  # top-level functions that may write: their source
    # where each of `functions` starts in the file: (line, columns its text is shifted
    # by, as a notebook cell's `# MAGIC ` prefix), so a write read at a call elsewhere
    # names its statement's own line
    function_lines: dict[str, tuple[int, int]] = field(default_factory=dict)
    # each class of `functions`: how many statements its body holds, and each of its
    # methods but the dunder ones as (name, first line with its decorators, one past
    # its last, its `def` line), counted from 0 in the class's text: the link stage
    # gives a file the class with the methods its code may call (`link._ClassPieces`)
    methods: dict[str, ClassShape] = field(default_factory=dict)
    non_delta: list[str] = field(default_factory=list)  # tables it creates in another format (USING parquet)
    # where its statements place tables in storage: [kind, name, location], kind "table"
    # (an external table) or "schema" (a Hive metastore schema's managed tables)
    located: list[list[str]] = field(default_factory=list)
    # top-level functions that compute a value (no writes), and the module's source
    # they need to be evaluated elsewhere (see `frontend.values.evaluator`)
    value_functions: list[str] = field(default_factory=list)
    value_source: str = ""
    value_calls: list[str] = field(default_factory=list)  # names it calls for a value (imported ones matter)
    documents: list[str] = field(default_factory=list)  # project documents (YAML, JSON) its code loads
    # what `dbutils.notebook.exit(value)` hands the notebooks that run this one (see
    # `frontend.python`'s `_exit_value`): {"text": v} or {"json": {key: v}}, v a string
    # or a template as `exported_value` gives it; {"unknown": why} where it cannot be
    # told; None when the notebook never exits with a value
    exit: Value = None
    # job task values it sets at the top level: key -> each value (as `exported_value`
    # gives it; None for one not known); "" keys a set whose key is not known
    task_values: dict[str, list[Value]] = field(default_factory=dict)
    # what it gets with `taskValues.get(taskKey, key)`: [task key ("" when not known), key]
    task_value_reads: list[list[str]] = field(default_factory=list)
    # the words of its own Python code (names, attributes, and words of strings and
    # comments too: a superset of what it calls), sorted and joined by spaces (one
    # string a file: 10,000 files' lists of words cost 40 MB), kept for a file that
    # imports or is a notebook (which may `%run` others); the link stage gives it
    # only the helpers these name, so editing a helper re-reads the files that may
    # call it and no other. None: not known, every helper is given
    names: str | None = None
    # imported names its code only keeps in a dict, list, tuple or set (a registry
    # `{"batch": batch_load}`), never calls, hands to a call or binds to another name:
    # such a helper is not read at a call here, so its module keeps its writes
    stored: list[str] = field(default_factory=list)
    # its top-level names that hold a Databricks SQL client or lead to one, and what
    # each holds (`frontend.warehouse.module_clients`): a wrapper of it read elsewhere,
    # and a file that imports the name, tell its statements' warehouse by them
    clients: dict[str, str] = field(default_factory=dict)
    # the SQL procedures it defines (`CREATE PROCEDURE ... BEGIN ... END`), each as a
    # `ProcedureDef`: a file that CALLs one is given its definition (`Context.procedures`)
    procedures: list[ProcedureDef] = field(default_factory=list)
    # the procedures it CALLs that it does not define, by qualified name
    calls: list[str] = field(default_factory=list)

    def empty(self) -> bool:
        return not (
            self.exports
            or self.session
            or self.imports
            or self.runs
            or self.inputs
            or self.jobs
            or self.notebooks
            or self.pooled_notebooks
            or self.functions
            or self.non_delta
            or self.located
            or self.value_functions
            or self.value_calls
            or self.documents
            or self.exit is not None
            or self.task_values
            or self.task_value_reads
            or self.clients
            or self.procedures
            or self.calls
        )


_WORD = re.compile(r"[^\W\d]\w*")


def source_words(text: str) -> set[str]:
    """The words of Python source that can be names (`Links.names`): every
    identifier-shaped run of characters, in code, strings and comments alike, a
    superset of the names its code uses. Non-ASCII words are also given as the
    parser reads them (NFKC: `ﬁle` names `file`). ASCII text by one sweep (`words`)."""
    found = identifiers(text)
    if found is not None:
        return found
    words = set(_WORD.findall(text))
    if not text.isascii():
        import unicodedata

        words |= {unicodedata.normalize("NFKC", w) for w in words if not w.isascii()}
    return words


# an import statement from its line's start: its names, in parentheses or joined by
# backslashes, up to the statement's end (`;`, the line's end); each alternative
# starts with its own character, so a match takes linear time
_IMPORT_STATEMENT = re.compile(
    r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]*(?:\((?:[\s\w,.\\]|#[^\n]*)*\)|(?:[^\n;\\]|\\\n)*)"
    r"|import[ \t]+(?:[^\n;\\]|\\\n)*"
    # `__all__ = ["run", ...]` (or `+=`): the names a star import takes, never a call
    r"|__all__[ \t]*\+?=[ \t]*[\[(][^\])]*[\])])",
    re.MULTILINE,
)


def without_imports(text: str) -> str:
    """Python source with its import statements (and `__all__` lists) blanked: the
    code that may call what it imports. `from m import f` calls nothing, so a
    module that imports every helper of a package, and calls one, is read with that
    one; a package's `__init__.py` that re-exports a function names it in no code. Parentheses
    hold only what an import list can (names, commas, `as`, comments), so a line
    of a string that looks like an open import (`from m import (` in a docstring)
    takes its own line alone, never the code after it. A statement this misses
    (after a `;`, a comment holding `)` inside the parentheses) keeps its words:
    more helpers, never fewer."""
    return _IMPORT_STATEMENT.sub(" ", text)


def code_words(text: str) -> set[str]:
    """The words of Python source but those of its import statements
    (`Links.names`): the names its code may call a helper by (see `without_imports`)."""
    return source_words(without_imports(text))


def digest(text: str) -> str:
    """A short digest of a helper's or module's source: what a cache key holds in
    its place (see `Context.key`)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


# A value other files give a file (an imported module's names, its scope) is in the
# file's cache key by a digest past this many characters of JSON: every importer is
# given the same objects of the module's summary, so each is serialised and hashed
# once a process, not once per importer (150 importers of a module of 100 strings of
# 32 KB serialised a gigabyte). Digests are kept by the object (its identity: the
# object held with it), at most _KEYED_KEPT of them.
_KEYED_TEXT = 4096
_KEYED_KEPT = 4096
_KEYED_DICT = 64  # a dict of this many keys keeps what it gives (a document given to many files)
_keyed_digests: dict[int, tuple[object, object]] = {}


def _keyed(value: object, descend: bool = True) -> object:
    """`value` as a cache key holds it: itself when small, else a digest of its JSON
    (kept by object, see `_KEYED_TEXT`). A dict is looked into once (an importer's
    dict of a module's members is its own, their values are the module's); what a
    large one gives is kept by object too."""
    found = _keyed_digests.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    if descend and type(value) is dict:
        keyed: object = {k: _keyed(v, False) for k, v in value.items()}
        if len(value) >= _KEYED_DICT:
            _keep(value, keyed)
        return keyed
    if type(value) is str:
        if len(value) <= _KEYED_TEXT:
            return value
        text = "text:" + value
    elif value is None or type(value) in (bool, int, float):
        return value
    else:
        text = json.dumps(value, sort_keys=True, default=str)
        if len(text) <= _KEYED_TEXT:
            return value
        text = "json:" + text
    keyed = "\u0000digest:" + digest(text)
    _keep(value, keyed)
    return keyed


def _keyed_source(source: str) -> str:
    """A helper's or module's source in a cache key: its digest, kept by object as
    `_keyed` keeps one (every importer of a module is given the same source)."""
    found = _keyed_digests.get(id(source))
    if found is not None and found[0] is source:
        return found[1]  # type: ignore[return-value]
    keyed = digest(source)
    _keep(source, keyed)
    return keyed


def _keep(value: object, keyed: object) -> None:
    if len(_keyed_digests) >= _KEYED_KEPT:
        _keyed_digests.clear()
    _keyed_digests[id(value)] = (value, keyed)


# the separator of a helper's name in its own module's namespace (`pkg/io.py::save`,
# see `Context.scopes`): not a Python name, so no call of the file's own code names it
SCOPED = "::"


@dataclass(frozen=True)
class Context:
    """What other files and the jobs tell a file's front end before it reads the
    file: the values of names a `%run` notebook or an imported project module
    defines, the SQL session a `%run` notebook leaves (USE), and the values job
    parameters give its widgets and arguments. Plain JSON values, so it keys the cache."""

    values: tuple[tuple[str, Value], ...] = ()
    session: tuple[tuple[str, Any], ...] = ()
    inputs: tuple[tuple[str, str], ...] = ()
    # (catalog, schema, configuration) of each Lakeflow pipeline whose source file this is
    pipeline: tuple[tuple[str | None, str | None, tuple[tuple[str, str | None], ...]], ...] | None = None
    # functions of imported modules and `%run` notebooks that may write: (name here, module,
    # source, where it starts: the module's path relative to this file's folder, its line,
    # the column shift of `Links.function_lines`; empty when not known)
    helpers: tuple[tuple[str, str, str, tuple[str, int, int] | tuple[()]], ...] = ()
    # its own functions other files call: their writes are reported at those calls
    called: tuple[str, ...] = ()
    # the values its tasks give it where they differ: the file is read once per set
    variants: tuple[tuple[tuple[str, str], ...], ...] = ()
    # a job task runs it: job code, even where its path looks like a test's
    scheduled: bool = False
    # value functions of imported modules: (name here, module path, function, module source)
    value_functions: tuple[tuple[str, str, str, str], ...] = ()
    # the project documents its code loads: (path relative to the configuration root, content)
    documents: tuple[tuple[str, Any], ...] = ()
    # the file's path relative to the configuration root, when the above are given or
    # the path shown is another (a project checked from outside it: `run.placed`)
    path: str = ""
    # a dbt node's file: the writes each run of it makes (`dbt.DbtWrite.as_spec`)
    dbt: tuple[tuple, ...] = ()
    # the imported modules whose helpers are read here: (path relative to the
    # configuration root, its top-level values), the scope their functions read
    scopes: tuple[tuple[str, tuple[tuple[str, Value], ...]], ...] = ()
    # `dbutils.notebook.run(path, ...)` calls: (the path as written, what the notebook
    # it names hands back: `Links.exit`, or {"unknown": why})
    exits: tuple[tuple[str, Value], ...] = ()
    # what its `taskValues.get(taskKey, key)` calls may read: (task key, key, the values
    # the notebooks of that task, or of the project, set the key to; None among them
    # for one not known)
    task_values: tuple[tuple[str, str, tuple[Value, ...]], ...] = ()
    # Databricks SQL clients other modules hold (`Links.clients`): (the module's path
    # as in `scopes` for a module whose helpers are read here, "" for a name this file
    # imports; the name; what it holds)
    clients: tuple[tuple[str, str, str], ...] = ()
    # the SQL procedures other files define that it CALLs: (the name its CALL gives,
    # the defining file's path relative to this file's folder, its `Links.procedures` entry)
    procedures: tuple[tuple[str, str, ProcedureDef], ...] = ()

    def __bool__(self) -> bool:
        return bool(
            self.dbt
            or self.values
            or self.session
            or self.inputs
            or self.pipeline
            or self.helpers
            or self.called
            or self.variants
            or self.scheduled
            or self.value_functions
            or self.documents
            or self.exits
            or self.task_values
            or self.clients
            or self.procedures
        )

    def key(self) -> str:
        """What the file's reading depends on, as text: the cache keys the reading by
        it. The helpers and value functions given are in it by a digest of their
        source (what other files' summaries give), not by the source itself: the key
        stays small however many helpers a file is given, and changes exactly when
        one of them does."""
        helpers = [(name, module, _keyed_source(source), start) for name, module, source, start in self.helpers]
        values = [(name, _keyed(value)) for name, value in self.values]
        fields = [values, self.session, self.inputs, self.pipeline, helpers, self.called, self.variants]
        if self.scheduled:
            fields.append(self.scheduled)
        if self.value_functions or self.documents:
            functions = [
                (name, module, function, _keyed_source(source))
                for name, module, function, source in self.value_functions
            ]
            documents = [(path, _keyed(content, False)) for path, content in self.documents]
            fields += [functions, documents, self.path]
        if self.dbt:
            fields.append(self.dbt)
        if self.scopes:
            fields.append([(path, [(k, _keyed(v)) for k, v in given]) for path, given in self.scopes])
        if self.exits:
            fields.append(self.exits)
        if self.task_values:
            fields.append(self.task_values)
        if self.clients:
            fields.append(["clients", self.clients])
        if self.procedures:  # by a digest of each definition's text, as helpers are
            given = [(called, path, d[0], digest(d[1]), *d[2:]) for called, path, d in self.procedures]
            fields.append(["procedures", given])
        return json.dumps(fields, sort_keys=True, default=str)


@dataclass
class FileResult:
    """What the front ends learned from one file."""

    path: str
    intents: list[Intent] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    runs: list[tuple[Location, str]] = field(default_factory=list)  # notebook %run targets
    suppressions: Any = None  # suppress.FileSuppressions: the file's delta-lint: ignore comments
    skipped: str | None = None  # the kind of a file that is not Databricks job code (not linted)
    links: Links | None = None  # what it gives and needs across files (Python and notebooks)


# The intent fields the rules judged across tables key on (`engine.judgement.RUN_RULES`):
# a file summary keeps the intents that name one, and only those reach the rules.
SHARED_FIELDS = ("checkpoint", "txn_app_id")
_shared_of = attrgetter(*SHARED_FIELDS)


@dataclass
class FileSummary:
    """What a run needs of a file without decoding its intents: the tables it writes
    (with the first location of each, for messages), the tables its CREATE
    statements declare settings for, its intents that name a checkpoint or a
    transaction id (checked across tables on every run), its counts, diagnostics and
    suppressions. A cached run decodes full results only for the tables it checks
    again."""

    tables: dict[str, Location] = field(default_factory=dict)  # raw table name -> first location
    ddl_tables: tuple[str, ...] = ()
    shared: tuple[Intent, ...] = ()
    n_intents: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    suppressions: Any = None
    skipped: str | None = None
    links: Links | None = None

    @classmethod
    def of(cls, result: FileResult) -> FileSummary:
        tables: dict[str, Location] = {}
        ddl: set[str] = set()
        for i in sorted(result.intents, key=lambda i: i.location):
            # a name known only at run time may be one table in concurrent runs of its
            # statement (the engine decides with the schedule: `Engine.by_table`)
            if i.table is not None and (Flag.UNRESOLVED not in i.flags or not i.table.is_path):
                tables.setdefault(i.table.name, i.location)
            if i.declared is not None and i.table is not None:
                ddl.add(i.table.name)
        return cls(
            tables,
            tuple(sorted(ddl)),
            tuple(i for i in result.intents if any(_shared_of(i))),
            len(result.intents),
            list(result.diagnostics),
            result.suppressions,
            result.skipped,
            result.links if result.links is not None and not result.links.empty() else None,
        )


# -- values crossing files (see `frontend.pyvalues`; here so that the link stage reads
# them without the value layer's imports) ----------------------------------------------

# An object of a class its module gives other files (`DEFAULT = LakeConfig()`) crosses
# imports as a JSON object of this one key: [the class's name, {attribute: value as
# `exported_value` gives it, None where not known}]. The link stage names the class as
# the importer is given it (`link.Linker._object`), or, where it gives no class, turns
# it back into the dict of its text attributes (`object_fields`).
OBJECT_KEY = "\u0000object"

# A notebook argument that is `json.dumps` of a dict the code knows only in part
# (`{"json_": json.dumps(conf)}`, `conf` holding secrets) crosses as this prefix and
# the dict's `exported_value` as JSON: a text no run hands a notebook, so where the
# child reads the widget as text it is a named input (what a run gives it), and
# where it `json.loads` it the child gets the dict back, key by key.
JSON_INPUT = "\u0000json:"
# A job input some run of a file gives a value only that run knows (a for_each's
# `{{input}}` over values read at run time, a task that gives it where another
# does not): no text, and never the widget's default either. Like `JSON_INPUT`, it
# starts with a character no value a run hands a notebook holds.
RUN_TIME_INPUT = "\u0000run-time"


def object_fields(value: object) -> object:
    """What an object crossing with its class (see `OBJECT_KEY`) is to an importer not
    given the class: the dict of its attributes known as text; the value itself when
    it is no such object."""
    if not (isinstance(value, dict) and set(value) == {OBJECT_KEY}):
        return value
    found = value[OBJECT_KEY]
    fields = found[1] if isinstance(found, list) and len(found) == 2 and isinstance(found[1], dict) else {}
    static = {k: v for k, v in fields.items() if isinstance(v, str)}
    return static if static else None


# The input a pipeline's update gives each source file it runs: the catalog, schema
# and configuration its datasets are qualified with. A file several pipelines list
# is read once per pipeline; a dataset only some of those readings made is theirs
# alone (`Intent.given`), so each pipeline's tables are paired only with its updates.
PIPELINE_READING = "{pipeline}"


def pipeline_reading(catalog: str | None, schema: str | None, configuration: tuple) -> str:
    """The value of PIPELINE_READING for one pipeline's reading of its files."""
    return json.dumps([catalog, schema, [list(kv) for kv in configuration]])
