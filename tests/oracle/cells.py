"""The oracle's cells: pairs of operations × table shapes, run on real open-source
Delta with a forced interleaving, next to what delta-lint predicts with
`runtime: oss` for the same two statements.

Each operation exists twice: as the code delta-lint reads (a SQL or Python job
file naming the table `s.t`) and as what really runs (the same statement on a
path table, or the same DataFrame write). A cell runs both orders (each
operation once as the one that commits second), because a schedule lets either
commit second; delta-lint's finding is about the pair.

    python -m tests.oracle.cells [--write]   # run every cell, print or write benchmarks/ORACLE.md
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from delta_lint.interleave import Outcome, failure, run_interleaved

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "benchmarks" / "ORACLE.md"

# --- table shapes ----------------------------------------------------------------

COLUMNS = "id INT, p STRING, v INT"
ROWS = [
    "(1, 'a', 1), (2, 'b', 1), (3, 'a', 1), (4, 'b', 1)",
    "(5, 'a', 2), (6, 'b', 2), (7, 'a', 2), (8, 'b', 2)",
]  # two commits: every partition holds two files, so OPTIMIZE has work to do


@dataclass(frozen=True)
class Shape:
    name: str
    ddl: str  # after the column list
    settings: dict  # delta-lint's `tables:` entry for s.t
    disjoint: bool = False  # the two operations name different partitions (p = 'a' / 'b')

    def values(self) -> tuple[str, str]:
        return ("a", "b") if self.disjoint else ("a", "a")


SHAPES = {
    s.name: s
    for s in [
        Shape("partitioned, disjoint", "PARTITIONED BY (p)", {"partitioned_by": ["p"]}, disjoint=True),
        Shape("partitioned, overlapping", "PARTITIONED BY (p)", {"partitioned_by": ["p"]}),
        Shape("unpartitioned", "", {"deletion_vectors": False}),
        Shape(
            "unpartitioned, deletion vectors",
            "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')",
            {"deletion_vectors": True},
        ),
        Shape("liquid clustering", "CLUSTER BY (p)", {"clustered_by": ["p"]}),
        # shapes for the metadata and protocol cells that need a feature to remove
        Shape(
            "column mapping (name)",
            "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
            {"deletion_vectors": False},
        ),
        Shape(
            "droppable feature (checkConstraints)",
            "TBLPROPERTIES ('delta.feature.checkConstraints' = 'supported')",
            {"deletion_vectors": False},
        ),
        Shape(
            "identity column",
            "PARTITIONED BY (p)",
            {"partitioned_by": ["p"], "identity_columns": ["id"]},
            disjoint=True,
        ),
    ]
}
MATRIX_SHAPES = [
    "partitioned, disjoint",
    "partitioned, overlapping",
    "unpartitioned",
    "unpartitioned, deletion vectors",
    "liquid clustering",
]

# --- operations ----------------------------------------------------------------


@dataclass(frozen=True)
class Op:
    """One write. `sql` (or `run`) executes on the real table `{t}`; `source` is the job
    file delta-lint reads (`{t}` is `s.t` there). `{p}` is this operation's partition value."""

    name: str
    sql: str | None = None
    run: Callable[[Any, str, str, bool], None] | None = None  # (spark, path, value, partitioned)
    source: str | None = None  # defaults to `sql`
    ext: str = "sql"
    partitioned_sql: str | None = None  # on partitioned tables, when it differs (a static PARTITION clause)

    def _text(self, partitioned: bool) -> str:
        return self.partitioned_sql if partitioned and self.partitioned_sql else self.sql

    def execute(self, spark: Any, path: str, value: str, partitioned: bool) -> None:
        if self.run is not None:
            self.run(spark, path, value, partitioned)
        else:
            spark.sql(self._text(partitioned).format(t=f"delta.`{path}`", p=value)).collect()

    def job(self, value: str, partitioned: bool) -> str:
        text = self.source if self.source is not None else self._text(partitioned)
        return text.format(t="s.t", p=value) + ("\n" if self.ext == "py" else ";\n")


def _optimize(zorder: bool) -> Callable[[Any, str, str, bool], None]:
    def run(spark: Any, path: str, value: str, partitioned: bool) -> None:
        where = f" WHERE p = '{value}'" if partitioned else ""
        spark.sql(f"OPTIMIZE delta.`{path}`{where}{' ZORDER BY (v)' if zorder else ''}").collect()

    return run


def _append_df(options: dict[str, str], extra_column: bool = False) -> Callable[[Any, str, str, bool], None]:
    def run(spark: Any, path: str, value: str, partitioned: bool) -> None:
        cols = f"20 AS id, '{value}' AS p, 0 AS v" + (", 'x' AS note" if extra_column else "")
        writer = spark.sql(f"SELECT {cols}").write.format("delta").mode("append")
        for key, val in options.items():
            writer = writer.option(key, val)
        writer.save(path)

    return run


MERGE = (
    "MERGE INTO {t} AS t USING (SELECT 1 AS id, '{p}' AS p, 9 AS v) AS s ON s.id = t.id{cond} "
    "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, p, v) VALUES (s.id, s.p, s.v)"
)

DATA_OPS = {
    o.name: o
    for o in [
        Op(
            "INSERT",
            "INSERT INTO {t} VALUES (10, '{p}', 0)",
            partitioned_sql="INSERT INTO {t} PARTITION (p = '{p}') VALUES (10, 0)",
        ),
        Op(
            "INSERT reading the target",
            "INSERT INTO {t} SELECT id + 100, p, v FROM {t} WHERE p = '{p}'",
            partitioned_sql="INSERT INTO {t} PARTITION (p = '{p}') SELECT id + 100, v FROM {t} WHERE p = '{p}'",
        ),
        Op("UPDATE", "UPDATE {t} SET v = v + 1 WHERE p = '{p}'"),
        Op("DELETE", "DELETE FROM {t} WHERE p = '{p}' AND id < 4"),
        Op("MERGE", MERGE.replace("{cond}", "")),
        Op("MERGE, explicit target predicate", MERGE.replace("{cond}", " AND t.p = '{p}'")),
        Op("OPTIMIZE", run=_optimize(False), source="OPTIMIZE {t} WHERE p = '{p}'"),
        Op("OPTIMIZE ZORDER", run=_optimize(True), source="OPTIMIZE {t} WHERE p = '{p}' ZORDER BY (v)"),
    ]
}

META_OPS = {
    o.name: o
    for o in [
        Op("ADD COLUMNS", "ALTER TABLE {t} ADD COLUMNS (extra STRING)"),
        Op("SET TBLPROPERTIES", "ALTER TABLE {t} SET TBLPROPERTIES ('owner.team' = 'finance')"),
        Op(
            "schema evolution (mergeSchema append)",
            run=_append_df({"mergeSchema": "true"}, extra_column=True),
            source=(
                "df = spark.table('s.src')\n"
                "df.write.format('delta').option('mergeSchema', 'true').mode('append').saveAsTable('{t}')"
            ),
            ext="py",
        ),
        Op(
            "enable deletion vectors",
            "ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')",
        ),
        Op("column mapping on", "ALTER TABLE {t} SET TBLPROPERTIES ('delta.columnMapping.mode' = 'name')"),
        Op("column mapping off", "ALTER TABLE {t} SET TBLPROPERTIES ('delta.columnMapping.mode' = 'none')"),
        Op("DROP FEATURE", "ALTER TABLE {t} DROP FEATURE checkConstraints"),
        # with a query: a bare CREATE OR REPLACE of a path table with the same columns commits nothing
        Op("CREATE OR REPLACE", "CREATE OR REPLACE TABLE {t} USING delta AS SELECT 1 AS id, '{p}' AS p, 1 AS v"),
    ]
}
META_SHAPE = {"column mapping off": "column mapping (name)", "DROP FEATURE": "droppable feature (checkConstraints)"}
META_PARTNERS = ["INSERT", "UPDATE"]

TXN = (
    "df = spark.table('s.src')\n"
    "df.write.format('delta').option('txnAppId', 'nightly').option('txnVersion', 7).mode('append').saveAsTable('{t}')"
)
STREAM = (
    "q = spark.readStream.table('s.src').writeStream.option('checkpointLocation', '/chk/shared').toTable('{t}')\n"
    "q.awaitTermination()"
)


def _create_at_empty_path(spark: Any, path: str, value: str, partitioned: bool) -> None:
    spark.sql(f"SELECT 30 AS id, '{value}' AS p, 0 AS v").write.format("delta").mode("append").save(path)


SPECIAL = [
    # (name, shape, first, second): the same op twice unless said otherwise
    (
        "identity-column INSERTs",
        "identity column",
        Op("identity INSERT", "INSERT INTO {t} PARTITION (p = '{p}') (v) VALUES (0)"),
        Op("identity INSERT", "INSERT INTO {t} PARTITION (p = '{p}') (v) VALUES (0)"),
    ),
    (
        "identity INSERT and DELETE of another partition",
        "identity column",
        Op("identity INSERT", "INSERT INTO {t} PARTITION (p = '{p}') (v) VALUES (0)"),
        Op("DELETE", "DELETE FROM {t} WHERE p = '{p}'"),
    ),
    (
        "shared txnAppId",
        "unpartitioned",
        Op("txnAppId write", run=_append_df({"txnAppId": "nightly", "txnVersion": "7"}), source=TXN, ext="py"),
        Op("txnAppId write", run=_append_df({"txnAppId": "nightly", "txnVersion": "7"}), source=TXN, ext="py"),
    ),
    (
        # a Delta stream sink commits each batch with SetTransaction(appId = the checkpoint's
        # query id, version = batch id): two runs of one checkpoint on two clusters are two
        # writers with one txnAppId; the same writes run here (one driver refuses the second
        # start of a query id before any commit)
        "streams on one checkpoint (their sink transactions)",
        "unpartitioned",
        Op("stream batch", run=_append_df({"txnAppId": "query-1", "txnVersion": "0"}), source=STREAM, ext="py"),
        Op("stream batch", run=_append_df({"txnAppId": "query-1", "txnVersion": "0"}), source=STREAM, ext="py"),
    ),
    (
        "writes to an empty path",
        None,
        Op(
            "append to empty path",
            run=_create_at_empty_path,
            source="df = spark.table('s.src')\ndf.write.format('delta').mode('append').save('/data/new_t')",
            ext="py",
        ),
        Op(
            "append to empty path",
            run=_create_at_empty_path,
            source="df = spark.table('s.src')\ndf.write.format('delta').mode('append').save('/data/new_t')",
            ext="py",
        ),
    ),
]


# --- cells -----------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    group: str
    shape: str | None
    a: Op
    b: Op

    @property
    def label(self) -> str:
        return f"{self.a.name} × {self.b.name}"


@dataclass
class Result:
    cell: Cell
    predicted: str | None  # exception delta-lint names, None: no conflict predicted
    rule: str | None
    severity: str | None
    observed: list[tuple[str, Outcome]] = field(default_factory=list)  # (which commits second, outcome)

    @property
    def conflicts(self) -> list[str]:
        return sorted({o.exception for _, o in self.observed if o.conflicted})

    @property
    def failed_before(self) -> list[str]:
        return [f"{who}: {o.describe()}" for who, o in self.observed if o.stage != "commit"]

    @property
    def agrees(self) -> bool:
        return (self.predicted is not None) == bool(self.conflicts)

    @property
    def same_exception(self) -> bool:
        return self.predicted is None or self.predicted in self.conflicts


def cells() -> list[Cell]:
    out = []
    for shape in MATRIX_SHAPES:
        names = list(DATA_OPS)
        if not SHAPES[shape].settings.get("partitioned_by"):
            # an explicit target predicate only prunes partitions: MERGE covers it here
            names.remove("MERGE, explicit target predicate")
        if shape in ("unpartitioned, deletion vectors", "liquid clustering"):
            names.remove("INSERT reading the target")  # the DML class, as UPDATE (unpartitioned covers it)
        if shape == "liquid clustering":
            names.remove("OPTIMIZE ZORDER")  # ZORDER BY is refused on clustered tables (DL130, one statement)
        for x, y in itertools.combinations_with_replacement(names, 2):
            out.append(Cell("matrix", shape, DATA_OPS[x], DATA_OPS[y]))
    for meta in META_OPS:
        for partner in META_PARTNERS:
            out.append(
                Cell("metadata and protocol", META_SHAPE.get(meta, "unpartitioned"), META_OPS[meta], DATA_OPS[partner])
            )
    out.append(
        Cell("metadata and protocol", "unpartitioned", META_OPS["CREATE OR REPLACE"], META_OPS["CREATE OR REPLACE"])
    )
    out.append(Cell("metadata and protocol", "unpartitioned", META_OPS["ADD COLUMNS"], META_OPS["SET TBLPROPERTIES"]))
    for _name, shape, a, b in SPECIAL:
        out.append(Cell("special", shape, a, b))
    return out


# --- running -----------------------------------------------------------------------


class Tables:
    """One template table per shape (made once), copied for every run: a fresh table
    costs a folder copy instead of a CREATE and two INSERTs."""

    def __init__(self, spark: Any, folder: Path) -> None:
        self.spark = spark
        self.folder = folder
        self.templates: dict[str, Path] = {}
        self.count = 0

    def fresh(self, shape: str | None) -> Path:
        self.count += 1
        path = self.folder / f"run{self.count:04d}"
        if shape is None:
            return path  # an empty path
        if shape not in self.templates:
            template = self.folder / f"template-{len(self.templates)}"
            ddl = SHAPES[shape].ddl
            identity = shape == "identity column"
            if identity:  # Spark's SQL refuses identity columns here; delta-spark's builder makes them
                from delta.tables import DeltaTable, IdentityGenerator

                (
                    DeltaTable.create(self.spark)
                    .location(str(template))
                    .addColumn("id", "BIGINT", generatedAlwaysAs=IdentityGenerator())
                    .addColumn("p", "STRING")
                    .addColumn("v", "INT")
                    .partitionedBy("p")
                    .execute()
                )
            else:
                self.spark.sql(f"CREATE TABLE delta.`{template}` ({COLUMNS}) USING delta {ddl}").collect()
            for rows in ROWS:
                if identity:  # the identity column is generated
                    rows = "('a', 1), ('b', 1), ('a', 1), ('b', 1)"
                    self.spark.sql(f"INSERT INTO delta.`{template}` (p, v) VALUES {rows}").collect()
                else:
                    self.spark.sql(f"INSERT INTO delta.`{template}` VALUES {rows}").collect()
            self.templates[shape] = template
        shutil.copytree(self.templates[shape], path)
        return path


def predict(cell: Cell, folder: Path) -> tuple[str | None, str | None, str | None]:
    """delta-lint's finding for the pair on `s.t` (runtime oss), or Nones."""
    from delta_lint.config import validate
    from delta_lint.run import check

    shape = SHAPES[cell.shape] if cell.shape else None
    first, second = shape.values() if shape else ("a", "b")
    folder.mkdir(parents=True)
    partitioned = bool(shape and shape.settings.get("partitioned_by"))
    (folder / f"a.{cell.a.ext}").write_text(cell.a.job(first, partitioned))
    (folder / f"b.{cell.b.ext}").write_text(cell.b.job(second, partitioned))
    tables = {"s.t": shape.settings} if shape else {}
    config = validate({"runtime": "oss", "spark": "none", "tables": tables}, folder / "delta-lint.yaml")
    result = check([folder], config, cwd=folder, use_cache=False)
    pair = [
        f
        for f in result.findings
        if f.rule.startswith("DL1")
        and f.rule != "DL130"
        and f.related
        and {f.location.path, f.related[0].path} != {f.location.path}
    ]
    if not pair:
        return None, None, None
    top = sorted(pair, key=lambda f: (f.severity != "error", f.rule))[0]
    return top.exception, top.rule, top.severity


def run_cell(spark: Any, tables: Tables, cell: Cell, scratch: Path) -> Result:
    predicted, rule, severity = predict(cell, scratch)
    result = Result(cell, predicted, rule, severity)
    shape = SHAPES[cell.shape] if cell.shape else None
    va, vb = shape.values() if shape else ("a", "b")
    partitioned = bool(shape and shape.settings.get("partitioned_by"))
    orders = [("b", cell.a, va, cell.b, vb)]
    if cell.a != cell.b:  # the same write twice: the other order is its mirror image
        orders.append(("a", cell.b, vb, cell.a, va))
    for who, first, v1, second, v2 in orders:
        path = str(tables.fresh(cell.shape))
        try:
            outcome = run_interleaved(
                spark,
                lambda s, op=first, v=v1, p=path: op.execute(s, p, v, partitioned),
                lambda s, op=second, v=v2, p=path: op.execute(s, p, v, partitioned),
            )
        except Exception as err:  # noqa: BLE001 - a setup failure is an outcome to show, not a crash
            name, message = failure(err)
            outcome = Outcome(name, message, "before")
        result.observed.append((f"{second.name} ({'b' if who == 'b' else 'a'}) second", outcome))
    return result


def run_all(spark: Any, selection: list[Cell] | None = None) -> tuple[list[Result], str]:
    """Every cell, in one session; returns the results and what isolation levels exist."""
    levels = isolation_levels(spark)
    with tempfile.TemporaryDirectory(prefix="delta-lint-oracle-") as tmp:
        tables = Tables(spark, Path(tmp) / "tables")
        results = [
            run_cell(spark, tables, cell, Path(tmp) / "jobs" / str(i)) for i, cell in enumerate(selection or cells())
        ]
    return results, levels


def isolation_levels(spark: Any) -> str:
    """Which `delta.isolationLevel` values open-source Delta accepts, tried on a table."""
    out = []
    with tempfile.TemporaryDirectory(prefix="delta-lint-iso-") as tmp:
        for level in ("Serializable", "WriteSerializable"):
            try:
                spark.sql(
                    f"CREATE TABLE delta.`{tmp}/{level}` (id INT) USING delta "
                    f"TBLPROPERTIES ('delta.isolationLevel' = '{level}')"
                ).collect()
                out.append(f"{level}: accepted")
            except Exception as err:  # noqa: BLE001
                name, message = failure(err)
                out.append(f"{level}: refused ({name}: {message[:160]})")
    return "; ".join(out)


# --- the report ----------------------------------------------------------------------

# Disagreements kept on purpose, with the evidence (the cell's observed outcome is in the table).
KNOWN_DIFFERENCES = {
    ("special", "append to empty path × append to empty path"): (
        "Two first writes to a path that holds no table yet fail with ProtocolChangedException "
        "(observed in both orders). delta-lint cannot know from code alone that a path is empty; "
        "a live read reports the missing table as DL004 instead."
    ),
}


# What reading open-source Delta's conflict checker suggested; the oracle confirms or
# refutes each from the cells named: (claim, [(shape, pair label)], expected: a conflict
# exception name, "conflict" or "commit").
CLAIMS = [
    (
        "enabling deletion vectors or column mapping does not fail a concurrent writer",
        [("unpartitioned", "enable deletion vectors × INSERT"), ("unpartitioned", "column mapping on × INSERT")],
        "commit",
    ),
    (
        "dropping a feature fails a concurrent writer",
        [("droppable feature (checkConstraints)", "DROP FEATURE × INSERT")],
        "conflict",
    ),
    (
        "removing column mapping fails a concurrent writer, as a metadata change (MetadataChangedException)",
        [("column mapping (name)", "column mapping off × INSERT")],
        "MetadataChangedException",
    ),
    (
        "two concurrent OPTIMIZE raise ConcurrentDeleteReadException",
        [("unpartitioned", "OPTIMIZE × OPTIMIZE"), ("partitioned, overlapping", "OPTIMIZE × OPTIMIZE")],
        "ConcurrentDeleteReadException",
    ),
    (
        "an identity-column INSERT and a DELETE of another partition both commit",
        [("identity column", "identity INSERT × DELETE")],
        "commit",
    ),
    (
        "identity-column INSERTs conflict with each other (MetadataChangedException)",
        [("identity column", "identity INSERT × identity INSERT")],
        "MetadataChangedException",
    ),
]


def claims(results: list[Result]) -> list[str]:
    by_cell = {(r.cell.shape, r.cell.label): r for r in results}
    out = []
    for claim, where, expected in CLAIMS:
        found = [by_cell[w] for w in where if w in by_cell]
        if not found:
            continue
        if expected == "commit":
            holds = all(not r.conflicts for r in found)
        elif expected == "conflict":
            holds = all(r.conflicts for r in found)
        else:
            holds = all(expected in r.conflicts for r in found)
        seen = "; ".join(
            f"{r.cell.label} ({r.cell.shape}): {', '.join(r.conflicts) or 'both orders committed'}" for r in found
        )
        out.append(f"- {'Confirmed' if holds else 'Refuted'}: {claim}. Observed: {seen}.")
    return out


def _short(outcome: Outcome) -> str:
    if outcome.stage == "first":
        return f"first failed: {outcome.exception}"
    if outcome.stage == "before":
        return f"no race: {outcome.exception or 'no transaction'}"
    return outcome.exception or "committed"


def rows(results: list[Result]) -> list[str]:
    out = []
    for r in results:
        predicted = f"{r.rule} {r.severity}: {r.predicted}" if r.predicted else "no conflict"
        observed = "; ".join(f"{who}: {_short(o)}" for who, o in r.observed)
        if r.agrees:
            verdict = "yes" if r.same_exception else "yes (other exception)"
        else:
            verdict = "known difference" if (r.cell.group, r.cell.label) in KNOWN_DIFFERENCES else "NO"
        out.append(
            f"| {r.cell.group} | {r.cell.shape or 'empty path'} | {r.cell.label} | {predicted} | {observed} | {verdict} |"
        )
    return out


def render(results: list[Result], levels: str, versions: str) -> str:
    agree = sum(r.agrees for r in results)
    exact = sum(r.agrees and r.same_exception for r in results)
    runs = sum(len(r.observed) for r in results)
    lines = [
        "# Oracle: `runtime: oss` predictions against real open-source Delta",
        "",
        "Generated by `python -m tests.oracle.cells --write`; `tests/oracle/test_oracle.py` runs every",
        "cell in CI (one JVM) and fails when an outcome differs from this file or a disagreement is",
        "not a known difference.",
        "",
        f"- Engine: {versions}, `local[1]`, tables on the local file system.",
        "- Interleaving: Delta's own `PhaseLockingTransactionExecutionObserver` (main jar,",
        "  `org.apache.spark.sql.delta.fuzzer`), set as the thread's `TransactionExecutionObserver`",
        "  on the thread that runs the operation committing second: it takes its snapshot and",
        "  prepares its commit, the other operation then runs to completion, and only then is the",
        "  second let into its commit. Deterministic, no sleeps; a sleeping UDF would only delay",
        "  operations that evaluate a UDF over the target, by a guessed duration.",
        "- Each cell runs both orders (each operation once as the one committing second) on a",
        "  fresh copy of a table of the shape; a pair conflicts when either order fails.",
        f"- Isolation levels open-source Delta allows: {levels}. Every cell runs at Serializable.",
        "- Predicted: delta-lint's finding for the two job files (`runtime: oss`, the table's",
        "  settings declared as the shape's).",
        "",
        f"**{len(results)} cells, {runs} interleaved runs: the conflict / no-conflict outcome agrees in "
        f"{agree} ({100 * agree / len(results):.1f} %); the predicted exception is among those observed in "
        f"{exact} of them.**",
        "",
        "## Claims from reading the open-source conflict checker",
        "",
        *claims(results),
        "",
        "## Known differences",
        "",
    ]
    for (group, label), why in KNOWN_DIFFERENCES.items():
        lines.append(f"- {group}, {label}: {why}")
    lines += [
        "",
        "## Cells",
        "",
        "| group | table | pair (A × B) | delta-lint (oss) | observed | agrees |",
        "|---|---|---|---|---|---|",
        *rows(results),
        "",
    ]
    return "\n".join(lines)


def versions(spark: Any) -> str:
    from importlib.metadata import version

    return f"delta-spark {version('delta-spark')} (open-source Delta Lake), Spark {spark.version}"


def table_rows(text: str) -> list[str]:
    """The cell rows of a rendered report."""
    part = text.split("## Cells", 1)[-1]
    return [ln for ln in part.splitlines() if ln.startswith("| ") and not ln.startswith("| group")]


def main(argv: list[str] | None = None) -> int:
    import argparse

    from delta_lint.interleave import start_session

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {REPORT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    spark = start_session(app="delta-lint-oracle")
    try:
        results, levels = run_all(spark)
        text = render(results, levels, versions(spark))
    finally:
        spark.stop()
    if args.write:
        REPORT.write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
