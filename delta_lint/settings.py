"""Table settings: declared in configuration, declared by CREATE statements in the
workload, or conservative assumptions — in that order of precedence."""

from __future__ import annotations

from dataclasses import dataclass

from delta_lint.config import Config
from delta_lint.model import Intent, Kind
from delta_lint.rulepack import Profile


@dataclass(frozen=True)
class TableSettings:
    name: str
    partitioned_by: tuple[str, ...] = ()
    clustered_by: tuple[str, ...] = ()
    deletion_vectors: bool | None = None
    isolation_level: str = "WriteSerializable"
    identity_columns: tuple[str, ...] = ()
    source: str = "assumed"  # declared | ddl | assumed
    note: str = ""  # what was assumed, for findings

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


def qualify(name: str, default_schema: str | None) -> str:
    """Qualify an unqualified name with `default_schema` (`main.sales` or `sales`)."""
    if name.startswith("delta:") or not default_schema:
        return name
    parts = name.split(".")
    schema_parts = default_schema.split(".")
    if len(parts) == 1:
        return ".".join([*schema_parts, name])
    if len(parts) == 2 and len(schema_parts) == 2:
        return ".".join([schema_parts[0], *parts])
    return name


def resolve_settings(
    tables: set[str], intents: list[Intent], config: Config, profile: Profile
) -> dict[str, TableSettings]:
    declared = {qualify(k.lower(), config.default_schema): v for k, v in config.tables.items()}
    ddl = {}
    for intent in sorted(intents, key=lambda i: i.location):
        if (
            intent.declared is not None
            and intent.table is not None
            and intent.kind in (Kind.CREATE, Kind.CREATE_OR_REPLACE)
        ):
            ddl.setdefault(qualify(intent.table.name, config.default_schema), intent.declared)
    out = {}
    for table in tables:
        default_iso = profile.default_isolation
        if table in declared:
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
            s = TableSettings(
                **{**s.__dict__, "note": f"settings of `{table}` are not declared; assumed {s.describe()}"}
            )
        if s.isolation_level not in profile.allowed_isolation:
            s = TableSettings(**{**s.__dict__, "isolation_level": profile.allowed_isolation[0]})
        out[table] = s
    return out
