"""Table settings, per table from the first source that has them:
read live via Spark > the snapshot (`delta-lint.lock.yaml`) > declared in
configuration > declared by CREATE statements in the workload > conservative
assumptions. Each TableSettings says which source it came from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from delta_lint.config import Config
from delta_lint.model import Intent, Kind, TableDDL
from delta_lint.rulepack import Profile
from delta_lint.settings.reader import LiveSettings, normalize_location


@dataclass(frozen=True)
class TableSettings:
    name: str
    partitioned_by: tuple[str, ...] = ()
    clustered_by: tuple[str, ...] = ()
    deletion_vectors: bool | None = None
    isolation_level: str = "WriteSerializable"
    identity_columns: tuple[str, ...] = ()
    source: str = "assumed"  # live | snapshot | declared | ddl | assumed
    note: str = ""  # what was assumed, for findings
    read: LiveSettings | None = None  # the full record when read live or from the snapshot
    # the columns the workload's own CREATE TABLE gives the table
    declared_columns: tuple[str, ...] = ()

    @property
    def has_deletion_vectors(self) -> bool:
        """Clustered tables have them unless disabled (spec section 3)."""
        if self.clustered_by:
            return self.deletion_vectors is not False
        return bool(self.deletion_vectors)

    def describe(self) -> str:
        parts = [
            f"partitioned by {', '.join(self.partitioned_by)}" if self.partitioned_by else "unpartitioned",
        ]
        if self.clustered_by:
            parts.append(f"clustered by {', '.join(self.clustered_by)}")
        parts.append("deletion vectors" if self.has_deletion_vectors else "no deletion vectors")
        parts.append(self.isolation_level)
        if self.identity_columns:
            parts.append(f"identity columns {', '.join(self.identity_columns)}")
        return ", ".join(parts)


@dataclass(frozen=True, eq=False)
class TableNames:
    """How a run names tables: one name per table, whichever way the workload or the
    configuration writes it. Made once per run from the configuration (`of`) and
    handed to every stage that compares table names.

    An unqualified name takes `default_schema` (`main.sales` or `sales`). A path table
    (`delta:/p`) is named by its normalised location, or by the catalog name that
    `locations:` gives that location: a write through a table's path and one through
    its name are writes to the same table."""

    default_schema: str | None = None
    aliases: dict[str, str] = field(default_factory=dict)  # location (`normalize_location` form) -> catalog name
    # a Hive metastore schema's location -> the schema: `delta:<location>/<t>` is its
    # managed table `<schema>.<t>` (unless `<schema>.<t>` is placed elsewhere)
    schemas: dict[str, str] = field(default_factory=dict)
    placed: frozenset[str] = frozenset()  # the tables `aliases` places (not in a schema's folder)

    @classmethod
    def of(cls, config: Config, declared: Iterable[Sequence[str]] = ()) -> TableNames:
        """The configuration's naming; `locations:` keys are taken as written and
        relative to the configuration's folder, both normalised. `declared`: where the
        workload's own statements place tables, (kind, name, location) as the front
        ends read them (`Links.located`): an external table's location is its name
        ("table"), a Hive metastore schema's location holds its managed tables
        ("schema"). The configuration wins; a location the workload gives two names
        (or a name two locations) names no table: which one holds is not known."""
        plain = cls(config.default_schema)
        aliases: dict[str, str] = {}
        for name, location in sorted(config.locations.items()):
            if not isinstance(location, str) or not location:
                continue
            qualified = plain.qualify(str(name))
            aliases.setdefault(normalize_location(location), qualified)
            aliases.setdefault(normalize_location(location, config.root), qualified)
        tables: dict[str, set[str]] = {}
        schemas: dict[str, set[str]] = {}
        places: dict[tuple[str, str], set[str]] = {}
        for kind, name, location in declared:
            path = normalize_location(location)
            named = plain.qualify(name) if kind == "table" else name
            (tables if kind == "table" else schemas).setdefault(path, set()).add(named)
            places.setdefault((kind, named), set()).add(path)
        for path, names in sorted(tables.items()):
            name = min(names)
            if len(names) == 1 and len(places[("table", name)]) == 1 and name not in aliases.values():
                aliases.setdefault(path, name)
        one = {path: min(names) for path, names in schemas.items() if len(names) == 1}
        schemas_at = {path: name for path, name in one.items() if len(places[("schema", name)]) == 1}
        return cls(config.default_schema, aliases, schemas_at, frozenset(aliases.values()))

    def qualify(self, name: str) -> str:
        """The run's name of the table `name` denotes."""
        if name.startswith("delta:"):
            path = normalize_location(name[len("delta:") :])
            found = self.aliases.get(path)
            if found is None and self.schemas:
                found = self._managed(path)
            return found or f"delta:{path}"
        if not self.default_schema:
            return name
        parts = name.split(".")
        schema_parts = self.default_schema.split(".")
        if len(parts) == 1:
            return ".".join([*schema_parts, name])
        if len(parts) == 2 and len(schema_parts) == 2:
            return ".".join([schema_parts[0], *parts])
        return name

    def _managed(self, path: str) -> str | None:
        """The managed table of a declared schema that `path` is the folder of: one
        folder below the schema's location, named as the metastore names it (lower
        case), and a name no declared location places elsewhere. A part only a run
        knows (`{x}`) names no table."""
        parent, _, leaf = path.rpartition("/")
        schema = self.schemas.get(parent)
        if schema is None or not leaf or leaf != leaf.lower() or "{" in path:
            return None
        name = self.qualify(f"{schema}.{leaf}")
        return None if name in self.placed else name


@dataclass
class ReadSettings:
    """The outcome of the live/snapshot stage for one run."""

    tables: dict[str, LiveSettings] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # name -> live | snapshot
    problems: dict[str, str] = field(default_factory=dict)  # name -> why it could not be read live
    warnings: list[str] = field(default_factory=list)
    mode: str = "none"  # what was used: embedded | local | sc://... | snapshot | none
    engine_started: bool = False  # Spark was started (or connected to) for this run
    read_now: tuple[str, ...] = ()  # tables read from Spark in this run (the cache gave the other live ones)


_ALTER_KINDS = (Kind.METADATA_CHANGE, Kind.PROTOCOL_CHANGE)


def declared_by_workload(intents: list[Intent], names: TableNames) -> dict[str, TableDDL]:
    """Settings the workload's own statements give each table: the first CREATE
    (else the first write that declares them, as `.partitionBy(...).saveAsTable`),
    amended by every ALTER TABLE that sets deletion vectors, the isolation level or
    clustering (a setup notebook's `SET TBLPROPERTIES`)."""
    base: dict[str, TableDDL] = {}
    weak: dict[str, TableDDL] = {}
    amendments: dict[str, list[TableDDL]] = {}
    for x in sorted(intents, key=lambda i: i.location):
        if x.declared is None or x.table is None:
            continue
        name = names.qualify(x.table.name)
        if x.kind in (Kind.CREATE, Kind.CREATE_OR_REPLACE):
            base.setdefault(name, x.declared)
        elif x.kind in _ALTER_KINDS:
            if x.declared.clustered_by or x.declared.deletion_vectors is not None or x.declared.isolation_level:
                amendments.setdefault(name, []).append(x.declared)  # not the columns an ALTER adds
        else:
            weak.setdefault(name, x.declared)
    out = {**weak, **base}
    for name, changes in amendments.items():
        d = out.get(name, TableDDL())
        for c in changes:
            d = replace(
                d,
                clustered_by=c.clustered_by or d.clustered_by,
                deletion_vectors=d.deletion_vectors if c.deletion_vectors is None else c.deletion_vectors,
                isolation_level=c.isolation_level or d.isolation_level,
            )
        out[name] = d
    return out


def resolve_settings(
    tables: set[str],
    intents: list[Intent],
    config: Config,
    profile: Profile,
    names: TableNames,
    read: ReadSettings | None = None,
) -> dict[str, TableSettings]:
    """Each table's settings from the first source that has them (see the module);
    `names`: the run's (tables and intents are named by it)."""
    declared = {names.qualify(k.lower()): v for k, v in config.tables.items()}
    ddl = declared_by_workload(intents, names)
    out = {}
    read = read or ReadSettings()
    for table in tables:
        default_iso = profile.default_isolation
        if table in read.tables:
            r = read.tables[table]
            s = TableSettings(
                table,
                r.partitioned_by,
                r.clustered_by,
                r.deletion_vectors,
                r.isolation_level or default_iso,
                r.identity_columns,
                read.sources.get(table, "live"),
                read=r,
            )
        elif table in declared:
            d = declared[table]
            s = TableSettings(
                table,
                d.partitioned_by or (),
                d.clustered_by or (),
                d.deletion_vectors,
                d.isolation_level or default_iso,
                d.identity_columns or (),
                "declared",
            )
        elif table in ddl:
            d = ddl[table]
            s = TableSettings(
                table,
                d.partitioned_by,
                d.clustered_by,
                d.deletion_vectors,
                d.isolation_level or default_iso,
                d.identity_columns,
                "ddl",
            )
        else:
            s = TableSettings(table, isolation_level=default_iso, source="assumed")
            # the finding names the table; a note without it lets tables share verdicts
            s = replace(s, note=f"the table's settings are not declared; assumed {s.describe()}")
        if s.isolation_level not in profile.allowed_isolation:
            s = replace(s, isolation_level=profile.allowed_isolation[0])
        if table in ddl and ddl[table].columns:
            s = replace(s, declared_columns=ddl[table].columns)
        out[table] = s
    return out
