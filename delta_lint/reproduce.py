"""`delta-lint reproduce`: run a finding's two writes on scratch tables of real Delta.

What runs is not the job's code (delta-lint never executes it): each intent
becomes one representative statement of its kind on a scratch table, with the
intent's own target condition (read into a region by the front end) as its
WHERE clause. The scratch table gets the finding's table settings (partitioning,
clustering, deletion vectors, identity columns) and a few rows inside and outside
each condition, in a temporary folder that is removed afterwards. The user's
tables are never opened.

The race is forced with Delta's phase-locking observer (`delta_lint.interleave`),
in both orders: each write once as the one that commits second. The semantics
are open-source Delta's, in a local JVM; Databricks differs (row-level
concurrency, WriteSerializable), which the report says.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp

from delta_lint.interleave import Outcome, failure, run_interleaved
from delta_lint.model import Finding, Intent, Kind
from delta_lint.predicates import Constraint, Region
from delta_lint.settings import TableSettings


class CannotReproduce(Exception):
    """Phrased for the user: why this finding cannot be run here."""


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# The scratch table in a statement's tree until it runs: values from the job's code
# are literals of the tree, never text, so none can reach the table's place.
SCRATCH = "__delta_lint_scratch__"
_WHERE = "__delta_lint_where__"  # where a template takes the condition


def _table(path: str | None) -> exp.Table:
    """The scratch table `delta.`path`` (a path delta-lint made); `<scratch>` to show."""
    if path is None:
        return exp.Table(this=exp.Var(this="<scratch>"))
    return exp.Table(this=exp.to_identifier(path, quoted=True), db=exp.to_identifier("delta"))


@dataclass(frozen=True)
class Statement:
    """One representative statement, built from expressions over the `SCRATCH` table
    (sqlglot writes its literals, quotes and escapes them for Spark). `OPTIMIZE`,
    which sqlglot has no tree for, is its condition and whether it z-orders."""

    tree: exp.Expression | None = None
    optimize_where: exp.Expression | None = None
    zorder: bool = False

    def sql(self, path: str | None = None) -> str:
        """The statement on the scratch table at `path` (`<scratch>` without one)."""
        table = _table(path)
        if self.tree is None:
            where = "" if self.optimize_where is None else " WHERE " + self.optimize_where.sql(dialect="spark")
            return f"OPTIMIZE {table.sql(dialect='spark')}{where}{' ZORDER BY (`v`)' if self.zorder else ''}"

        def place(node: exp.Expression) -> exp.Expression:
            if isinstance(node, exp.Table) and node.name == SCRATCH and not node.args.get("db"):
                placed = node.copy()
                placed.set("this", table.this.copy())
                placed.set("db", table.args["db"].copy() if table.args.get("db") else None)
                return placed
            return node

        return self.tree.copy().transform(place).sql(dialect="spark")


@dataclass
class Plan:
    """The scratch table and the two statements."""

    columns: dict[str, str]  # name -> SQL type
    ddl: str  # PARTITIONED BY / CLUSTER BY / TBLPROPERTIES, of checked names only
    identity: str | None
    rows: list[dict[str, object]]
    statements: tuple[Statement, Statement]
    notes: list[str] = field(default_factory=list)


@dataclass
class Report:
    finding: str
    plan: Plan
    outcomes: list[tuple[str, Outcome]]  # (which commits second, what happened to it)
    semantics: str

    @property
    def reproduced(self) -> list[Outcome]:
        return [o for _, o in self.outcomes if o.conflicted]

    def text(self) -> str:
        lines = [f"finding: {self.finding}", f"semantics: {self.semantics}"]
        hit = self.reproduced
        if hit:
            lines.append(f"reproduced: {hit[0].exception}: {hit[0].message}")
        else:
            lines.append("did not conflict here")
        lines.append("scratch table: " + ", ".join(f"{c} {t}" for c, t in self.plan.columns.items()))
        if self.plan.ddl:
            lines.append(f"  {self.plan.ddl}")
        lines.append(f"  {len(self.plan.rows)} sample rows")
        for i, statement in enumerate(self.plan.statements, 1):
            lines.append(f"statement {i}: {statement.sql()}")
        for who, outcome in self.outcomes:
            lines.append(f"  {who}: {outcome.describe()}")
        lines += [f"note: {n}" for n in self.plan.notes]
        return "\n".join(lines) + "\n"


# -- planning ---------------------------------------------------------------------------


def _literal(value: object) -> exp.Expression:
    """A value of the job's code as a literal node (never as text)."""
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, (int, float)):
        return exp.Literal.number(value) if value >= 0 else exp.Neg(this=exp.Literal.number(-value))
    return exp.Literal.string(str(value))


def _column(name: str, alias: str | None = None) -> exp.Column:
    return exp.column(exp.to_identifier(name, quoted=True), table=alias)


def _bump(value: object, step: int) -> object:
    """A value just past a bound: ISO dates by a day, numbers by one."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value + step
    text = str(value)
    try:
        return (date.fromisoformat(text[:10]) + timedelta(days=step)).isoformat() + text[10:]
    except ValueError:
        return text + "z" if step > 0 else text[:-1] or "0"


def _values(constraint: Constraint) -> list[object]:
    """Values inside the constraint, for sample rows (a parameter gets a stand-in)."""
    out: list[object] = []
    if constraint.values is not None:
        for kind, value in sorted(constraint.values, key=repr):
            out.append(value if kind == "lit" else f"param_{value}")
    elif constraint.low is not None:
        out.append(constraint.low if constraint.low_inclusive else _bump(constraint.low, 1))
    elif constraint.high is not None:
        out.append(constraint.high if constraint.high_inclusive else _bump(constraint.high, -1))
    return out


def _condition(region: Region | None, columns: dict[str, str], alias: str | None = None) -> exp.Expression | None:
    """The region as a condition over the scratch columns; None for the whole table."""
    if region is None or region.opaque or not region.conjuncts:
        return None
    ors: list[exp.Expression] = []
    for conj in region.conjuncts:
        ands: list[exp.Expression] = []
        for column, c in conj:
            if column not in columns:
                continue
            col = _column(column, alias)
            if c.values is not None:
                values = [_literal(v if k == "lit" else f"param_{v}") for k, v in sorted(c.values, key=repr)]
                ands.append(exp.In(this=col, expressions=values))
                continue
            if c.low is not None:
                ands.append((exp.GTE if c.low_inclusive else exp.GT)(this=col.copy(), expression=_literal(c.low)))
            if c.high is not None:
                ands.append((exp.LTE if c.high_inclusive else exp.LT)(this=col.copy(), expression=_literal(c.high)))
        if not ands:
            return None  # one disjunct holds everywhere: so does the condition
        ors.append(exp.Paren(this=exp.and_(*ands)))
    return exp.or_(*ors) if ors else None


def _from_template(template: str, where: exp.Expression | None, values: dict[str, exp.Expression]) -> Statement:
    """A statement parsed from one of our templates (over `SCRATCH`, with checked
    column names), its condition and values put in as nodes."""
    tree = sqlglot.parse_one(template, dialect="databricks")

    def put(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Column) and not node.table:
            if node.name == _WHERE:
                return where.copy() if where is not None else exp.true()
            if node.name in values:
                return values[node.name].copy()
        return node

    return Statement(tree.transform(put))


def _region_columns(intents: tuple[Intent, Intent]) -> dict[str, list[object]]:
    found: dict[str, list[object]] = {}
    for intent in intents:
        if intent.region is None:
            continue
        for conj in intent.region.conjuncts:
            for column, c in conj:
                found.setdefault(column, []).extend(_values(c))
    return found


def _type_of(values: list[object]) -> str:
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "BIGINT"
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "DOUBLE"
    return "STRING"


def _sample(kind: str, values: list[object], i: int) -> object:
    if values:
        return values[i % len(values)]
    return i if kind == "BIGINT" else float(i) if kind == "DOUBLE" else f"x{i}"


def _statement(
    intent: Intent, columns: dict[str, str], row: dict[str, object], identity: str | None, partitions: tuple[str, ...]
) -> Statement:
    where = _condition(intent.region, columns)
    insert_cols = [c for c in columns if c != identity]  # checked names (see `plan`)
    holes = {f"__delta_lint_value_{n}__": _literal(row[c]) for n, c in enumerate(insert_cols)}
    values = ", ".join(holes)
    names = ", ".join(f"`{c}`" for c in insert_cols)
    t, w = SCRATCH, _WHERE
    kind = intent.kind
    if kind in (Kind.BLIND_APPEND, Kind.COPY_INTO, Kind.STREAMING_WRITE):
        return _from_template(f"INSERT INTO {t} ({names}) VALUES ({values})", where, holes)
    if kind == Kind.INSERT_READING_TARGET:
        return _from_template(f"INSERT INTO {t} ({names}) SELECT {names} FROM {t} WHERE {w}", where, holes)
    if kind == Kind.UPDATE:
        return _from_template(f"UPDATE {t} SET `v` = `v` + 1 WHERE {w}", where, holes)
    if kind in (Kind.DELETE, Kind.TRUNCATE):
        return _from_template(f"DELETE FROM {t} WHERE {w}", where, holes)
    if kind in (Kind.REPLACE_WHERE, Kind.DYNAMIC_OVERWRITE, Kind.FULL_OVERWRITE, Kind.RESTORE):
        return _from_template(f"INSERT INTO {t} REPLACE WHERE {w} SELECT {names} FROM {t} WHERE {w}", where, holes)
    if kind == Kind.MERGE:
        source = ", ".join(f"{hole} AS `{c}`" for hole, c in zip(holes, insert_cols))
        matched = _condition(intent.region, columns, alias="t")
        on = "t.`v` = s.`v`" + ("" if matched is None else f" AND ({w})")
        return _from_template(
            f"MERGE INTO {t} AS t USING (SELECT {source}) AS s ON {on} "
            f"WHEN MATCHED THEN UPDATE SET t.`v` = s.`v` + 1 "
            f"WHEN NOT MATCHED THEN INSERT ({names}) VALUES ({', '.join(f's.`{c}`' for c in insert_cols)})",
            matched,
            holes,
        )
    if kind in (Kind.OPTIMIZE, Kind.OPTIMIZE_ZORDER, Kind.REORG_PURGE):
        # OPTIMIZE ... WHERE takes partition columns only
        region = intent.region.restrict(frozenset(partitions)) if intent.region and partitions else None
        on = _condition(region, {c: columns[c] for c in partitions if c in columns}) if region else None
        return Statement(optimize_where=on, zorder=kind == Kind.OPTIMIZE_ZORDER)
    if kind == Kind.METADATA_CHANGE:
        return _from_template(f"ALTER TABLE {t} SET TBLPROPERTIES ('delta-lint.reproduce' = 'metadata')", None, {})
    if kind == Kind.PROTOCOL_CHANGE:
        return _from_template(f"ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')", None, {})
    if kind == Kind.CREATE_OR_REPLACE:
        return _from_template(f"CREATE OR REPLACE TABLE {t} USING delta AS SELECT * FROM {t} WHERE {w}", where, {})
    raise CannotReproduce(f"a {kind.value} write has no representative statement to run")


def plan(a: Intent, b: Intent, settings: TableSettings) -> Plan:
    """The scratch table and the two statements for a pair of intents on one table."""
    region_values = _region_columns((a, b))
    identity = settings.identity_columns[0] if settings.identity_columns else None
    columns: dict[str, str] = {}
    for name in (*settings.partitioned_by, *settings.clustered_by, *region_values):
        if _IDENT.match(name) and name not in columns:
            columns[name] = _type_of(region_values.get(name, []))
    if identity and _IDENT.match(identity):
        columns[identity] = "BIGINT"
    else:
        identity = None
    columns.setdefault("id", "BIGINT")
    columns.setdefault("v", "BIGINT")
    ddl = []
    if settings.partitioned_by:
        ddl.append("PARTITIONED BY (" + ", ".join(f"`{c}`" for c in settings.partitioned_by if c in columns) + ")")
    if settings.clustered_by:
        ddl.append("CLUSTER BY (" + ", ".join(f"`{c}`" for c in settings.clustered_by if c in columns) + ")")
    props = {}
    if settings.deletion_vectors is not None:
        props["delta.enableDeletionVectors"] = str(bool(settings.deletion_vectors)).lower()
    if props:
        ddl.append("TBLPROPERTIES (" + ", ".join(f"'{k}' = '{v}'" for k, v in props.items()) + ")")
    # rows inside each condition's values and one outside: both writes find work to do
    rows = []
    for i in range(4):
        row = {c: _sample(t, region_values.get(c, []), i) for c, t in columns.items()}
        row["id"], row["v"] = i, i
        rows.append(row)
    outside = {c: (f"other{c}" if t == "STRING" else 10_000) for c, t in columns.items()}
    rows.append(outside)
    notes = []
    if settings.isolation_level != "Serializable":
        notes.append(
            f"the table is {settings.isolation_level}; open-source Delta runs Serializable only, "
            "so an INSERT racing a DELETE, UPDATE or MERGE may conflict here and not on Databricks"
        )
    if settings.source in ("assumed",):
        notes.append(f"the table's settings were not known; assumed: {settings.describe()}")
    parts = tuple(c for c in settings.partitioned_by if c in columns)
    statements = (
        _statement(a, columns, rows[0], identity, parts),
        _statement(b, columns, rows[1], identity, parts),
    )
    return Plan(columns, " ".join(ddl), identity, rows, statements, notes)


# -- running ----------------------------------------------------------------------------


def _create(spark: Any, path: str, p: Plan) -> None:
    if p.identity:
        from delta.tables import DeltaTable, IdentityGenerator

        builder = DeltaTable.create(spark).location(path)
        for column, kind in p.columns.items():
            if column == p.identity:
                builder = builder.addColumn(column, kind, generatedAlwaysAs=IdentityGenerator())
            else:
                builder = builder.addColumn(column, kind)
        if "PARTITIONED BY" in p.ddl:
            builder = builder.partitionedBy(*[c for c in p.columns if f"`{c}`" in p.ddl.split(")")[0]])
        builder.execute()
    else:
        cols = ", ".join(f"`{c}` {t}" for c, t in p.columns.items())  # checked names, our types
        spark.sql(f"CREATE TABLE {_table(path).sql(dialect='spark')} ({cols}) USING delta {p.ddl}").collect()
    for statement in _inserts(p):
        spark.sql(statement.sql(path)).collect()


def _inserts(p: Plan) -> list[Statement]:
    """The sample rows in two commits (two files per partition), as literal nodes."""
    names = [c for c in p.columns if c != p.identity]
    out = []
    for half in (p.rows[::2], p.rows[1::2]):
        rows = [exp.Tuple(expressions=[_literal(r[c]) for c in names]) for r in half]
        table = exp.Schema(this=exp.to_table(SCRATCH), expressions=[exp.to_identifier(c, quoted=True) for c in names])
        out.append(Statement(exp.Insert(this=table, expression=exp.Values(expressions=rows))))
    return out


def _execute(spark: Any, statement: Statement, path: str) -> None:
    spark.sql(statement.sql(path)).collect()


def run(spark: Any, finding: str, a: Intent, b: Intent, settings: TableSettings) -> Report:
    """Both orders on fresh scratch copies; the folder is removed afterwards."""
    p = plan(a, b, settings)
    from importlib.metadata import version

    semantics = (
        f"open-source Delta Lake {version('delta-spark')} on local Spark {spark.version} (Serializable); "
        "Databricks adds row-level concurrency and WriteSerializable, so an outcome there can differ"
    )
    outcomes: list[tuple[str, Outcome]] = []
    scratch = Path(tempfile.mkdtemp(prefix="delta-lint-reproduce-"))
    try:
        template = scratch / "template"
        _create(spark, str(template), p)
        orders = [(0, 1), (1, 0)] if p.statements[0] != p.statements[1] else [(0, 1)]
        for n, (first, second) in enumerate(orders):
            path = str(scratch / f"run{n}")
            shutil.copytree(template, path)
            try:
                outcome = run_interleaved(
                    spark,
                    lambda s, st=p.statements[first], pt=path: _execute(s, st, pt),
                    lambda s, st=p.statements[second], pt=path: _execute(s, st, pt),
                )
            except Exception as err:  # noqa: BLE001 - shown as the outcome
                name, message = failure(err)
                outcome = Outcome(name, message, "before")
            outcomes.append((f"statement {second + 1} committing second", outcome))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return Report(finding, p, outcomes, semantics)


def _at(intents: list[Intent], spec: str, table: str | None = None) -> Intent:
    m = re.match(r"^(.*):(\d+)(?::\d+)?$", spec)
    if m:
        path, line = m.group(1), int(m.group(2))
        for intent in intents:
            if (
                intent.location.path == path
                and intent.location.line == line
                and intent.table is not None
                and (table is None or intent.table.name == table)
            ):
                return intent
    raise CannotReproduce(f"no write{' to ' + table if table else ''} at `{spec}` (see `delta-lint intents`)")


def pair_of(intents: list[Intent], first: str, second: str) -> tuple[Intent, Intent]:
    """Two writes named by `path:line`, on one table: a pair the engine may call safe."""
    a = _at(intents, first)
    b = _at(intents, second, a.table.name)
    return a, b


def locate(findings: list[Finding], intents: list[Intent], spec: str) -> tuple[Finding, Intent, Intent]:
    """The finding named by its fingerprint or `path:line`, and its two intents."""
    from delta_lint.baseline import fingerprint

    chosen = (
        [f for f in findings if fingerprint(f) == spec or fingerprint(f).startswith(spec)] if len(spec) >= 8 else []
    )
    if not chosen:
        m = re.match(r"^(.*):(\d+)(?::\d+)?$", spec)
        if m:
            path, line = m.group(1), int(m.group(2))
            chosen = [f for f in findings if f.location.path == path and f.location.line == line]
            chosen += [
                f for f in findings if f not in chosen and any(r.path == path and r.line == line for r in f.related)
            ]
    chosen = [f for f in chosen if f.related and f.table]
    if not chosen:
        raise CannotReproduce(f"no conflict finding between two writes matches `{spec}` (see `delta-lint check`)")
    finding = chosen[0]

    def at(loc) -> Intent:
        for intent in intents:
            if intent.location == loc and intent.table is not None and intent.table.name == finding.table:
                return intent
        raise CannotReproduce(f"no write to {finding.table} at {loc}")

    return finding, at(finding.location), at(finding.related[0])
