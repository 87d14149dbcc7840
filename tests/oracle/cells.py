"""The oracle's cells, generated: statement forms × table shapes, each pair run on real
open-source Delta with a forced interleaving in both orders, next to what delta-lint
predicts with `runtime: oss` for the same two statements.

A *form* is one statement shape (an INSERT with a PARTITION clause, a DELETE whose
predicate is a NOT IN, a MERGE whose WHEN MATCHED clause carries a condition…). It exists
twice: as the job file delta-lint reads (naming the table `s.t`, and `s.src` for a
source) and as what really runs (the same statement on a path table, or the same
DataFrame write). Forms declare the table features they need and the ones that refuse
them; a *shape* is a table with a set of features. The cells are every valid
(shape, partition values, form, form) combination, drawn with a fixed seed in an order
that covers every form first, then every (form, shape), then the rest: the CI draw is a
prefix of the full draw, so its rows are rows of the committed report.

    python -m tests.oracle.cells [--write]          # the full draw, printed or written to benchmarks/ORACLE.md
    python -m tests.oracle.cells --ci               # CI's draw only
    python -m tests.oracle.cells --count N --seed S # another draw
"""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from delta_lint.interleave import Outcome, failure, run_interleaved

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "benchmarks" / "ORACLE.md"

SEED = 36
FULL_DRAW = 520  # cells in the full draw (the report)
CI_DRAW = 80  # its prefix that CI races: about what the 159 hand-listed cells cost

# --- table shapes ----------------------------------------------------------------

COLUMNS = "id INT, p STRING, v INT"
ROWS = [
    "(1, 'a', 1), (2, 'b', 1), (3, 'a', 1), (4, 'b', 1)",
    "(5, 'a', 2), (6, 'b', 2), (7, 'a', 2), (8, 'b', 2)",
]  # two commits: every partition holds two files, so OPTIMIZE has work to do
SOURCE_ROWS = "(1, 'a', 9), (2, 'b', 9), (30, 'a', 9), (31, 'b', 9)"


@dataclass(frozen=True)
class Shape:
    """A table: its DDL after the column list, what is done to it after creation, the
    features the forms' rules look at, and delta-lint's `tables:` entry for it."""

    name: str
    ddl: str
    features: frozenset[str]
    settings: dict
    after: tuple[str, ...] = ()  # statements on the new table before the two commits of rows


def _shape(name: str, ddl: str, features: str, settings: dict, after: tuple[str, ...] = ()) -> Shape:
    return Shape(name, ddl, frozenset(features.split()), settings, after)


SHAPES = {
    s.name: s
    for s in [
        _shape("unpartitioned", "", "", {"deletion_vectors": False}),
        _shape("partitioned", "PARTITIONED BY (p)", "partitioned", {"partitioned_by": ["p"]}),
        _shape(
            "deletion vectors",
            "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')",
            "dv",
            {"deletion_vectors": True},
        ),
        _shape("liquid clustering", "CLUSTER BY (p)", "clustered", {"clustered_by": ["p"]}),
        _shape(
            "identity column",
            "PARTITIONED BY (p)",
            "partitioned identity",
            {"partitioned_by": ["p"], "identity_columns": ["id"]},
        ),
        _shape(
            "CHECK constraint",
            "",
            "check",
            {"deletion_vectors": False},
            ("ALTER TABLE {t} ADD CONSTRAINT v_nonneg CHECK (v >= 0)",),
        ),
        _shape(
            "droppable feature",
            "TBLPROPERTIES ('delta.feature.checkConstraints' = 'supported')",
            "droppable",
            {"deletion_vectors": False},
        ),
        _shape(
            "column mapping",
            "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
            "colmap",
            {"deletion_vectors": False},
        ),
    ]
}
# the two operations' partition values: the same partition, or two different ones
VALUES = {"same": ("a", "a"), "disjoint": ("a", "b")}

# --- statement forms ----------------------------------------------------------------

Run = Callable[[Any, dict[str, str]], None]  # (spark, the placeholders) runs the write


@dataclass(frozen=True)
class Form:
    """One statement form. `sql` (or `run`) executes on the real table; `source` is the job
    file delta-lint reads (defaults to `sql`). Placeholders: `{t}` the table, `{src}` the
    source table, `{p}` this operation's partition value, `{o}` the other value, `{i}`
    the id of a row the table holds in partition `{p}`.
    `needs`: shape features it requires; `refuses`: features it cannot run with;
    `alone`: it pairs only with itself."""

    name: str
    family: str
    sql: str | None = None
    run: Run | None = None
    source: str | None = None
    ext: str = "sql"
    needs: frozenset[str] = frozenset()
    refuses: frozenset[str] = frozenset()
    alone: bool = False

    def fits(self, shape: Shape) -> bool:
        return self.needs <= shape.features and not (self.refuses & shape.features)

    def execute(self, spark: Any, names: dict[str, str]) -> None:
        if self.run is not None:
            self.run(spark, names)
        else:
            spark.sql(self.sql.format(**names)).collect()

    def job(self, names: dict[str, str]) -> str:
        text = self.source if self.source is not None else self.sql
        return text.format(**names) + ("\n" if self.ext == "py" else ";\n")


def _form(name: str, family: str, sql: str | None = None, *, needs: str = "", refuses: str = "", **kw: Any) -> Form:
    return Form(name, family, sql, needs=frozenset(needs.split()), refuses=frozenset(refuses.split()), **kw)


def _df_rows(extra_column: bool) -> str:
    return "SELECT 20 AS id, '{p}' AS p, 0 AS v" + (", 'x' AS note" if extra_column else "")


def _df_write(mode: str, options: dict[str, str], extra_column: bool = False) -> Run:
    def run(spark: Any, n: dict[str, str]) -> None:
        writer = spark.sql(_df_rows(extra_column).format(**n)).write.format("delta").mode(mode)
        for key, value in options.items():
            writer = writer.option(key, value.format(**n))
        writer.save(n["path"])

    return run


def _df_source(mode: str, options: dict[str, str], extra_column: bool = False) -> str:
    """The job file of a DataFrame write: the same rows, from the same query."""
    opts = "".join(f".option('{k}', \"{v}\")" for k, v in options.items())
    return (
        f'df = spark.sql("{_df_rows(extra_column)}")\n'
        f"df.write.format('delta'){opts}.mode('{mode}').saveAsTable('{{t}}')"
    )


def _df_form(name: str, mode: str, options: dict[str, str], extra_column: bool = False, **kw: Any) -> Form:
    return _form(
        name,
        kw.pop("family", "insert"),
        run=_df_write(mode, options, extra_column),
        source=_df_source(mode, options, extra_column),
        ext="py",
        **kw,
    )


def _parameter(sql: str) -> Run:
    def run(spark: Any, n: dict[str, str]) -> None:
        spark.sql(sql.format(**n), args={"v": n["p"]}).collect()

    return run


def _parameter_form(name: str, family: str, sql: str) -> Form:
    return _form(
        name,
        family,
        run=_parameter(sql),
        source=f'spark.sql("{sql}", args={{{{"v": "{{p}}"}}}})',
        ext="py",
    )


TXN_CONFS = ("spark.databricks.delta.write.txnAppId", "spark.databricks.delta.write.txnVersion")
BATCH_MERGE = (
    "MERGE INTO {t} AS t USING (SELECT {i} AS id, '{p}' AS p, 9 AS v) AS s ON s.id = t.id AND t.p = '{p}' "
    "WHEN MATCHED THEN UPDATE SET v = s.v"
)


def _batch_merge(spark: Any, n: dict[str, str]) -> None:
    # what a foreachBatch function runs for one micro-batch: an idempotent MERGE that names
    # its application and batch (both runs of one stream name the same), then unsets them
    spark.conf.set(TXN_CONFS[0], "nightly-upsert")
    spark.conf.set(TXN_CONFS[1], "7")
    spark.sql(BATCH_MERGE.format(**n)).collect()


BATCH_SOURCE = (
    "def upsert(batch_df, batch_id):\n"
    "    spark.conf.set('spark.databricks.delta.write.txnAppId', 'nightly-upsert')\n"
    "    spark.conf.set('spark.databricks.delta.write.txnVersion', batch_id)\n"
    '    spark.sql("' + BATCH_MERGE.replace("'{p}' AS p", "'{p}' AS p") + '")\n'
    "\n"
    "q = spark.readStream.table('s.src').writeStream.foreachBatch(upsert)"
    ".option('checkpointLocation', '/chk/upsert').start()\n"
    "q.awaitTermination()"
)

# predicates on the partition value, for UPDATE and DELETE (and MERGE's target condition)
PREDICATES = {
    "=": "p = '{p}'",
    "IN": "p IN ('{p}', 'z')",
    "NOT IN": "p NOT IN ('{o}', 'z')",
    "<>": "p <> '{o}'",
    "range": "p >= '{p}' AND p <= '{p}'",
    "AND another column": "p = '{p}' AND id < 4",
    "OR another column": "p = '{p}' OR id = 1",
    "another column only": "id < 4",
}
MERGE_HEAD = "MERGE INTO {t} AS t USING (SELECT 1 AS id, '{p}' AS p, 9 AS v) AS s ON s.id = t.id"
# a MERGE that changes no row commits nothing (Delta skips empty commits) and races no
# one: forms whose clauses only act on a match take a row of their partition (`{i}`),
# the insert-only one a new id
MERGE_ROW = MERGE_HEAD.replace("SELECT 1 AS id", "SELECT {i} AS id")
MERGE_NEW = MERGE_HEAD.replace("SELECT 1 AS id", "SELECT 40 AS id")
MATCHED = " WHEN MATCHED THEN UPDATE SET v = s.v"
NOT_MATCHED = " WHEN NOT MATCHED THEN INSERT (p, v) VALUES (s.p, s.v)"

FORMS_LIST = [
    # INSERT
    _form("INSERT VALUES", "insert", "INSERT INTO {t} VALUES (10, '{p}', 0)", refuses="identity"),
    _form("INSERT (p, v) VALUES", "insert", "INSERT INTO {t} (p, v) VALUES ('{p}', 0)"),
    _form(
        "INSERT PARTITION VALUES",
        "insert",
        "INSERT INTO {t} PARTITION (p = '{p}') VALUES (10, 0)",
        needs="partitioned",
        refuses="identity",
    ),
    _form(
        "INSERT PARTITION (v) VALUES",
        "insert",
        "INSERT INTO {t} PARTITION (p = '{p}') (v) VALUES (0)",
        needs="partitioned",
    ),
    _form(
        "INSERT SELECT constants", "insert", "INSERT INTO {t} SELECT 10 AS id, '{p}' AS p, 0 AS v", refuses="identity"
    ),
    _form(
        "INSERT SELECT from another table",
        "insert",
        "INSERT INTO {t} SELECT id, p, v FROM {src} WHERE p = '{p}'",
        refuses="identity",
    ),
    _form(
        "INSERT SELECT from the target",
        "insert",
        "INSERT INTO {t} SELECT id + 100, p, v FROM {t} WHERE p = '{p}'",
        refuses="identity",
    ),
    _form(
        "INSERT OVERWRITE PARTITION",
        "insert",
        "INSERT OVERWRITE {t} PARTITION (p = '{p}') SELECT 11, 0",
        needs="partitioned",
        refuses="identity",
    ),
    _form(
        "INSERT REPLACE WHERE",
        "insert",
        "INSERT INTO {t} REPLACE WHERE p = '{p}' SELECT 12, '{p}', 0",
        refuses="identity",
    ),
    _df_form("DataFrame append", "append", {}, refuses="identity"),
    _df_form("DataFrame replaceWhere", "overwrite", {"replaceWhere": "p = '{p}'"}, refuses="identity"),
    _df_form(
        "DataFrame dynamic partition overwrite",
        "overwrite",
        {"partitionOverwriteMode": "dynamic"},
        needs="partitioned",
        refuses="identity",
    ),
    # UPDATE and DELETE, one form per predicate
    *[_form(f"UPDATE WHERE {k}", "update", f"UPDATE {{t}} SET v = v + 1 WHERE {w}") for k, w in PREDICATES.items()],
    *[_form(f"DELETE WHERE {k}", "delete", f"DELETE FROM {{t}} WHERE {w}") for k, w in PREDICATES.items()],
    _parameter_form("UPDATE WHERE = parameter", "update", "UPDATE {t} SET v = v + 1 WHERE p = :v"),
    _parameter_form("DELETE WHERE = parameter", "delete", "DELETE FROM {t} WHERE p = :v"),
    # MERGE
    _form("MERGE ON id", "merge", MERGE_HEAD + MATCHED + NOT_MATCHED),
    *[
        _form(f"MERGE ON id AND t.{k}", "merge", MERGE_HEAD + " AND t." + PREDICATES[k] + MATCHED + NOT_MATCHED)
        for k in ("=", "IN", "NOT IN")
    ],
    _form("MERGE ON id AND t.p = s.p", "merge", MERGE_HEAD + " AND t.p = s.p" + MATCHED + NOT_MATCHED),
    _form(
        "MERGE WHEN MATCHED AND t.p =",
        "merge",
        MERGE_ROW + " WHEN MATCHED AND t.p = '{p}' THEN UPDATE SET v = s.v" + NOT_MATCHED,
    ),
    _form("MERGE insert-only ON id AND t.p =", "merge", MERGE_NEW + " AND t.p = '{p}'" + NOT_MATCHED),
    _form(
        "MERGE delete ON id AND t.p =",
        "merge",
        MERGE_ROW + " AND t.p = '{p}' WHEN MATCHED THEN DELETE",
    ),
    _form(
        "MERGE through a CTE",
        "merge",
        "WITH s AS (SELECT 1 AS id, '{p}' AS p, 9 AS v) MERGE INTO {t} AS t USING s ON s.id = t.id AND t.p = '{p}'"
        + MATCHED
        + NOT_MATCHED,
    ),
    _form(
        "MERGE USING another table",
        "merge",
        "MERGE INTO {t} AS t USING (SELECT * FROM {src} WHERE p = '{p}') AS s ON s.id = t.id AND t.p = '{p}'"
        + MATCHED
        + NOT_MATCHED,
    ),
    _form("foreachBatch MERGE with txnAppId", "stream", run=_batch_merge, source=BATCH_SOURCE, ext="py", alone=True),
    # OPTIMIZE
    _form("OPTIMIZE", "optimize", "OPTIMIZE {t}"),
    _form("OPTIMIZE WHERE", "optimize", "OPTIMIZE {t} WHERE p = '{p}'", needs="partitioned"),
    _form("OPTIMIZE ZORDER", "optimize", "OPTIMIZE {t} ZORDER BY (v)", refuses="clustered"),
    _form(
        "OPTIMIZE WHERE ZORDER",
        "optimize",
        "OPTIMIZE {t} WHERE p = '{p}' ZORDER BY (v)",
        needs="partitioned",
        refuses="clustered",
    ),
    # metadata and protocol
    _form("ADD COLUMNS", "metadata", "ALTER TABLE {t} ADD COLUMNS (extra STRING)"),
    _form("SET TBLPROPERTIES owner", "metadata", "ALTER TABLE {t} SET TBLPROPERTIES ('owner.team' = 'finance')"),
    _form(
        "SET TBLPROPERTIES logRetentionDuration",
        "metadata",
        "ALTER TABLE {t} SET TBLPROPERTIES ('delta.logRetentionDuration' = 'interval 60 days')",
    ),
    _form(
        "enable deletion vectors",
        "protocol",
        "ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')",
    ),
    _form(
        "disable deletion vectors",
        "metadata",
        "ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'false')",
        needs="dv",
    ),
    _form(
        "enable change data feed",
        "protocol",
        "ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
    ),
    _form(
        "column mapping on",
        "protocol",
        "ALTER TABLE {t} SET TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
        refuses="colmap",
    ),
    _form(
        "column mapping off",
        "metadata",
        "ALTER TABLE {t} SET TBLPROPERTIES ('delta.columnMapping.mode' = 'none')",
        needs="colmap",
    ),
    _form("RENAME COLUMN", "metadata", "ALTER TABLE {t} RENAME COLUMN v TO w", needs="colmap"),
    _form("DROP COLUMN", "metadata", "ALTER TABLE {t} DROP COLUMN v", needs="colmap"),
    _form("ADD CONSTRAINT", "protocol", "ALTER TABLE {t} ADD CONSTRAINT v_small CHECK (v < 1000)"),
    _form("DROP CONSTRAINT", "metadata", "ALTER TABLE {t} DROP CONSTRAINT v_nonneg", needs="check"),
    _form("DROP FEATURE", "protocol", "ALTER TABLE {t} DROP FEATURE checkConstraints", needs="droppable"),
    _df_form(
        "mergeSchema append",
        "append",
        {"mergeSchema": "true"},
        extra_column=True,
        family="metadata",
        refuses="identity",
    ),
    # with a query: a bare CREATE OR REPLACE of a path table with the same columns commits nothing
    _form(
        "CREATE OR REPLACE AS SELECT",
        "replace",
        "CREATE OR REPLACE TABLE {t} USING delta AS SELECT 1 AS id, '{p}' AS p, 1 AS v",
    ),
]
FORMS = {f.name: f for f in FORMS_LIST}
# families that change the table rather than its rows (`protocol`: may add or drop a
# table feature, depending on the table)
CHANGES = frozenset({"metadata", "protocol", "replace"})
assert len(FORMS) == len(FORMS_LIST), "form names are keys: they must be unique"


def pair_fits(a: Form, b: Form, shape: Shape) -> bool:
    """The grammar's rules for a pair on a shape (each form's own rules, and forms that
    pair only with themselves)."""
    if not (a.fits(shape) and b.fits(shape)):
        return False
    if (a.alone or b.alone) and a != b:
        return False
    return True


# hand-made cells that are not a form on a table: writes to a path that holds no table
# yet, and the idempotent-write and stream-sink transactions of DataFrame writes

TXN = (
    "df = spark.table('s.src')\n"
    "df.write.format('delta').option('txnAppId', 'nightly').option('txnVersion', 7).mode('append').saveAsTable('{t}')"
)
STREAM = (
    "q = spark.readStream.table('s.src').writeStream.option('checkpointLocation', '/chk/shared').toTable('{t}')\n"
    "q.awaitTermination()"
)
EMPTY_PATH = "df = spark.table('s.src')\ndf.write.format('delta').mode('append').save('/data/new_t')"

SPECIAL_FORMS = [
    # a Delta stream sink commits each batch with SetTransaction(appId = the checkpoint's
    # query id, version = batch id): two runs of one checkpoint on two clusters are two
    # writers with one txnAppId; the same writes run here (one driver refuses the second
    # start of a query id before any commit)
    (
        "unpartitioned",
        _form(
            "txnAppId append",
            "append",
            run=_df_write("append", {"txnAppId": "nightly", "txnVersion": "7"}),
            source=TXN,
            ext="py",
        ),
    ),
    (
        "unpartitioned",
        _form(
            "stream batch",
            "stream",
            run=_df_write("append", {"txnAppId": "query-1", "txnVersion": "0"}),
            source=STREAM,
            ext="py",
        ),
    ),
    (None, _form("append to empty path", "append", run=_df_write("append", {}), source=EMPTY_PATH, ext="py")),
]


# --- cells -----------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    shape: str | None  # None: a path that holds no table
    values: str  # a VALUES key
    a: Form
    b: Form

    @property
    def label(self) -> str:
        return f"{self.a.name} × {self.b.name}"

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.shape or "empty path", self.values, self.a.name, self.b.name)


def space() -> list[Cell]:
    """Every valid cell of the grammar, in a fixed order."""
    out = []
    for shape in SHAPES.values():
        for values in VALUES:
            for x, y in itertools.combinations_with_replacement(FORMS_LIST, 2):
                if pair_fits(x, y, shape):
                    out.append(Cell(shape.name, values, x, y))
    for shape, form in SPECIAL_FORMS:
        out.append(Cell(shape, "same", form, form))
    return out


def draw(count: int = FULL_DRAW, seed: int = SEED) -> list[Cell]:
    """`count` cells of the space in the draw's order: cells that bring a form not drawn
    yet, then a (form, shape) not drawn yet, then the rest, each pass in the seed's
    shuffled order; the hand-made cells come first. A prefix of a draw is a draw."""
    cells = space()
    special = [c for c in cells if c.a.name in {f.name for _, f in SPECIAL_FORMS}]
    rest = [c for c in cells if c not in special]
    random.Random(seed).shuffle(rest)
    order = list(special)
    for key in (lambda f, s: f.name, lambda f, s: (f.name, s)):
        seen: set = set()
        left = []
        for c in rest:
            new = {key(c.a, c.shape), key(c.b, c.shape)} - seen
            if new:
                order.append(c)
                seen |= {key(c.a, c.shape), key(c.b, c.shape)}
            else:
                left.append(c)
        rest = left
    # the rest: three cells of two data writes for one with a metadata change or a
    # replacement (most pairs hold one, and any of them is a MetadataChangedException)
    data = [c for c in rest if not {c.a.family, c.b.family} & CHANGES]
    meta = [c for c in rest if {c.a.family, c.b.family} & CHANGES]
    while data or meta:
        order += data[:3] + meta[:1]
        data, meta = data[3:], meta[1:]
    return order[:count]


def ci_draw() -> list[Cell]:
    return draw(CI_DRAW)


# --- running -----------------------------------------------------------------------


class Tables:
    """One template table per shape (made once), copied for every run: a fresh table
    costs a folder copy instead of a CREATE and two INSERTs. Also the source table the
    forms read (`{src}`), made once."""

    def __init__(self, spark: Any, folder: Path) -> None:
        self.spark = spark
        self.folder = folder
        self.templates: dict[str, Path] = {}
        self.count = 0
        self._source: Path | None = None

    @property
    def source(self) -> Path:
        if self._source is None:
            self._source = self.folder / "source"
            self.spark.sql(f"CREATE TABLE delta.`{self._source}` ({COLUMNS}) USING delta").collect()
            self.spark.sql(f"INSERT INTO delta.`{self._source}` VALUES {SOURCE_ROWS}").collect()
        return self._source

    def fresh(self, shape: str | None) -> Path:
        self.count += 1
        path = self.folder / f"run{self.count:04d}"
        if shape is None:
            return path  # an empty path
        if shape not in self.templates:
            self.templates[shape] = self._template(SHAPES[shape], self.folder / f"template-{len(self.templates)}")
        shutil.copytree(self.templates[shape], path)
        return path

    def _template(self, shape: Shape, template: Path) -> Path:
        table = f"delta.`{template}`"
        identity = "identity" in shape.features
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
            self.spark.sql(f"CREATE TABLE {table} ({COLUMNS}) USING delta {shape.ddl}").collect()
        for statement in shape.after:
            self.spark.sql(statement.format(t=table)).collect()
        for rows in ROWS:
            if identity:  # the identity column is generated
                self.spark.sql(f"INSERT INTO {table} (p, v) VALUES ('a', 1), ('b', 1), ('a', 1), ('b', 1)").collect()
            else:
                self.spark.sql(f"INSERT INTO {table} VALUES {rows}").collect()
        return template


def _names(cell: Cell, which: str) -> dict[str, str]:
    first, second = VALUES[cell.values]
    p, o = (first, second) if which == "a" else (second, first)
    # {i}: the id of a row the table holds in partition {p} (see ROWS)
    return {"p": p, "o": o if o != p else ("b" if p == "a" else "a"), "i": "1" if p == "a" else "2"}


def predict(cell: Cell, folder: Path) -> tuple[str | None, str | None, str | None]:
    """delta-lint's finding for the pair on `s.t` (runtime oss), or Nones."""
    from delta_lint.config import validate
    from delta_lint.run import check

    shape = SHAPES[cell.shape] if cell.shape else None
    folder.mkdir(parents=True)
    for which, form in (("a", cell.a), ("b", cell.b)):
        (folder / f"{which}.{form.ext}").write_text(form.job({"t": "s.t", "src": "s.src", **_names(cell, which)}))
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


@dataclass
class Result:
    cell: Cell
    predicted: str | None  # exception delta-lint names, None: no conflict predicted
    rule: str | None
    severity: str | None
    observed: list[tuple[str, Outcome]] = field(default_factory=list)  # (which commits second, outcome)
    seconds: float = 0.0

    @property
    def conflicts(self) -> list[str]:
        return sorted({o.exception for _, o in self.observed if o.conflicted})

    @property
    def raced(self) -> bool:
        """Every order reached its commit (a form that fails on its own is no race)."""
        return all(o.stage == "commit" for _, o in self.observed)

    @property
    def agrees(self) -> bool:
        return (self.predicted is not None) == bool(self.conflicts)

    @property
    def both_conflict(self) -> bool:
        return self.predicted is not None and bool(self.conflicts)

    @property
    def same_exception(self) -> bool:
        return not self.both_conflict or self.predicted in self.conflicts


def run_cell(spark: Any, tables: Tables, cell: Cell, scratch: Path) -> Result:
    started = time.monotonic()
    predicted, rule, severity = predict(cell, scratch)
    result = Result(cell, predicted, rule, severity)
    orders = [("b", cell.a, "a", cell.b, "b")]
    if cell.a != cell.b or VALUES[cell.values][0] != VALUES[cell.values][1]:
        orders.append(("a", cell.b, "b", cell.a, "a"))  # the same write twice on one value: its mirror image
    source = f"delta.`{tables.source}`"
    for who, first, first_side, second, second_side in orders:
        path = str(tables.fresh(cell.shape))
        names = {"t": f"delta.`{path}`", "path": path, "src": source}
        try:
            outcome = run_interleaved(
                spark,
                lambda s, op=first, n={**names, **_names(cell, first_side)}: op.execute(s, n),
                lambda s, op=second, n={**names, **_names(cell, second_side)}: op.execute(s, n),
            )
        except Exception as err:  # noqa: BLE001 - a setup failure is an outcome to show, not a crash
            name, message = failure(err)
            outcome = Outcome(name, message, "before")
        finally:
            for conf in TXN_CONFS:  # a foreachBatch form's confs stay with its cell
                spark.conf.unset(conf)
        result.observed.append((f"{second.name} ({who}) second", outcome))
    result.seconds = time.monotonic() - started
    return result


def run_all(spark: Any, selection: list[Cell], log: Path | None = None) -> tuple[list[Result], str]:
    """The cells, in one session; returns the results and what isolation levels exist.

    With `log`, each cell's observed outcomes are appended to it as a JSON line as soon
    as the cell is raced, and cells the log already holds are not raced again: a long
    draw survives an interruption."""
    levels = isolation_levels(spark)
    done = _read_log(log) if log is not None and log.exists() else {}
    with tempfile.TemporaryDirectory(prefix="delta-lint-oracle-") as tmp:
        tables = Tables(spark, Path(tmp) / "tables")
        results = []
        for i, cell in enumerate(selection):
            if cell.key in done:
                result = Result(cell, *predict(cell, Path(tmp) / "jobs" / str(i)))
                result.observed, result.seconds = done[cell.key]
            else:
                result = run_cell(spark, tables, cell, Path(tmp) / "jobs" / str(i))
                if log is not None:
                    with log.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(_log_entry(result)) + "\n")
            results.append(result)
    return results, levels


def _log_entry(result: Result) -> dict:
    return {
        "key": list(result.cell.key),
        "seconds": round(result.seconds, 3),
        "observed": [[who, o.exception, o.message, o.stage] for who, o in result.observed],
    }


def _read_log(log: Path) -> dict[tuple[str, ...], tuple[list[tuple[str, Outcome]], float]]:
    out = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        observed = [(who, Outcome(name, message, stage)) for who, name, message, stage in entry["observed"]]
        out[tuple(entry["key"])] = (observed, entry["seconds"])
    return out


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


# --- known differences ----------------------------------------------------------------


@dataclass(frozen=True)
class Known:
    """A disagreement kept on purpose, keyed by what generation keeps stable: one or two
    form selectors (a form's name, its family such as `optimize`, or `*`; two match the
    pair in either order, one matches either side), optionally the shapes and the
    partition values, and whether only the exception name differs (the outcome agrees)."""

    forms: tuple[str, ...]
    cause: str
    shapes: tuple[str, ...] = ()
    values: str | None = None
    exception_only: bool = False

    def matches(self, cell: Cell) -> bool:
        def hit(selector: str, form: Form) -> bool:
            return selector in ("*", form.name, form.family)

        if len(self.forms) == 1:
            pair = hit(self.forms[0], cell.a) or hit(self.forms[0], cell.b)
        else:
            x, y = self.forms
            pair = (hit(x, cell.a) and hit(y, cell.b)) or (hit(x, cell.b) and hit(y, cell.a))
        return (
            pair
            and (not self.shapes or (cell.shape or "empty path") in self.shapes)
            and (self.values is None or self.values == cell.values)
        )


KNOWN_DIFFERENCES: list[Known] = [
    Known(
        ("append to empty path", "append to empty path"),
        "Two first writes to a path that holds no table yet fail with ProtocolChangedException "
        "(observed in both orders). delta-lint cannot know from code alone that a path is empty; "
        "a live read reports the missing table as DL004 instead.",
    ),
    Known(
        ("INSERT SELECT from another table",),
        (
            "A positional INSERT without a column list into a table the code does not create: "
            "which of the row's values lands in `p` depends on the table's column order, which is "
            "not in the code (delta-lint reads it from a column list or a CREATE TABLE earlier in "
            "the script), so the rows may land in any partition a concurrent write reads. In "
            "Delta they land in partition `a` only."
        ),
        values="disjoint",
    ),
]


def explanation(result: Result) -> Known | None:
    """The known difference that explains a disagreeing result, or None: one about the
    outcome when the outcome differs, one about the exception name when only that does."""
    if result.agrees and result.same_exception:
        return None
    return next((k for k in KNOWN_DIFFERENCES if k.exception_only == result.agrees and k.matches(result.cell)), None)


def unexplained(results: list[Result]) -> list[Result]:
    """Raced cells whose outcome or exception name disagrees with no known difference."""
    return [r for r in results if r.raced and not (r.agrees and r.same_exception) and explanation(r) is None]


# --- the report ----------------------------------------------------------------------

# What reading open-source Delta's conflict checker suggested; the oracle confirms or
# refutes each from the drawn cells that pair the forms named: (claim, forms, shapes
# (empty: any), expected: a conflict exception name, "conflict" or "commit").
CLAIMS = [
    (
        "enabling deletion vectors or column mapping does not fail a concurrent INSERT",
        [("enable deletion vectors", "INSERT VALUES"), ("column mapping on", "INSERT VALUES")],
        (),
        "commit",
    ),
    ("dropping a feature fails a concurrent writer", [("DROP FEATURE", "*")], (), "conflict"),
    (
        "removing column mapping fails a concurrent writer, as a metadata change (MetadataChangedException)",
        [("column mapping off", "*")],
        (),
        "MetadataChangedException",
    ),
    (
        "two concurrent OPTIMIZE raise ConcurrentDeleteReadException",
        [("OPTIMIZE", "OPTIMIZE")],
        (),
        "ConcurrentDeleteReadException",
    ),
    (
        "identity-column INSERTs conflict with each other (MetadataChangedException)",
        [
            ("INSERT (p, v) VALUES", "INSERT (p, v) VALUES"),
            ("INSERT PARTITION (v) VALUES", "INSERT PARTITION (v) VALUES"),
        ],
        ("identity column",),
        "MetadataChangedException",
    ),
]


def claims(results: list[Result]) -> list[str]:
    out = []
    for claim, pairs, shapes, expected in CLAIMS:
        found = [
            r
            for r in results
            if r.raced
            and (not shapes or r.cell.shape in shapes)
            and any(
                sorted((r.cell.a.name, r.cell.b.name)) == sorted((x, y))
                or (y == "*" and x in (r.cell.a.name, r.cell.b.name))
                for x, y in pairs
            )
        ]
        if not found:
            out.append(f"- Not drawn: {claim}.")
            continue
        if expected == "commit":
            holds = all(not r.conflicts for r in found)
        elif expected == "conflict":
            holds = all(r.conflicts for r in found)
        else:
            holds = all(expected in r.conflicts for r in found)
        seen = "; ".join(
            f"{r.cell.label} ({r.cell.shape}, {r.cell.values}): {', '.join(r.conflicts) or 'both orders committed'}"
            for r in found[:6]
        )
        more = f" (and {len(found) - 6} more)" if len(found) > 6 else ""
        out.append(f"- {'Confirmed' if holds else 'Refuted'}: {claim}. Observed: {seen}{more}.")
    return out


def _short(outcome: Outcome) -> str:
    if outcome.stage == "first":
        return f"first failed: {outcome.exception}"
    if outcome.stage == "before":
        return f"no race: {outcome.exception or 'no transaction'}"
    return outcome.exception or "committed"


def _verdicts(r: Result) -> tuple[str, str]:
    if not r.raced:
        return "no race", "-"
    known = explanation(r)
    outcome = "yes" if r.agrees else ("known difference" if known else "NO")
    if not r.both_conflict:
        exception = "-"
    elif r.same_exception:
        exception = "yes"
    else:
        exception = "known difference" if known else "NO"
    return outcome, exception


def row(r: Result) -> str:
    predicted = f"{r.rule} {r.severity}: {r.predicted}" if r.predicted else "no conflict"
    observed = "; ".join(f"{who}: {_short(o)}" for who, o in r.observed)
    outcome, exception = _verdicts(r)
    shape = r.cell.shape or "empty path"
    return f"| {shape} | {r.cell.values} | {r.cell.label} | {predicted} | {observed} | {outcome} | {exception} |"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def render(results: list[Result], levels: str, versions: str, seed: int = SEED, timing: str | None = None) -> str:
    raced = [r for r in results if r.raced]
    agree = sum(r.agrees for r in raced)
    both = [r for r in raced if r.both_conflict]
    exact = sum(r.same_exception for r in both)
    runs = sum(len(r.observed) for r in results)
    seconds = sum(r.seconds for r in results)
    disagreements = [r for r in raced if not (r.agrees and r.same_exception)]
    lines = [
        "# Oracle: `runtime: oss` predictions against real open-source Delta",
        "",
        "Generated by `python -m tests.oracle.cells --write` from the cells `tests/oracle/cells.py`",
        "generates: statement forms (INSERT with and without a PARTITION clause or column list,",
        "from VALUES, constants, another table or the target, INSERT OVERWRITE and REPLACE WHERE,",
        "DataFrame appends, replaceWhere and dynamic partition overwrites; UPDATE and DELETE with",
        "`=`, `IN`, `NOT IN`, `<>`, ranges, `AND` / `OR` with another column or a parameter; MERGE",
        "with target predicates in ON or in WHEN MATCHED, insert-only, deleting, through a CTE or",
        "from another table; a foreachBatch MERGE with txnAppId; OPTIMIZE with and without",
        "WHERE / ZORDER BY; metadata, property and protocol changes; CREATE OR REPLACE) crossed",
        "with table shapes and with the same or different partition values, invalid combinations",
        "filtered by each form's rules. `tests/oracle/test_oracle.py` races a prefix of this draw in",
        "CI (one JVM) and fails when a row differs from this file or a disagreement is not a known",
        "difference; it also judges every row's observed outcome again with the tree's delta-lint",
        "(`--replay`, no JVM), so a change that moves a prediction moves a row here.",
        "",
        f"- Draw: seed {seed}, {len(results)} cells of the {len(space())} the grammar allows "
        f"({len(FORMS)} forms, {len(SHAPES)} shapes); CI races its first {CI_DRAW}."
        + (" Rendered by `--replay` from a race's observed outcomes." if timing else ""),
        f"- Engine: {versions}, `local[1]`, tables on the local file system.",
        "- Interleaving: Delta's own `PhaseLockingTransactionExecutionObserver` (main jar,",
        "  `org.apache.spark.sql.delta.fuzzer`), set as the thread's `TransactionExecutionObserver`",
        "  on the thread that runs the operation committing second: it takes its snapshot and",
        "  prepares its commit, the other operation then runs to completion, and only then is the",
        "  second let into its commit. Deterministic, no sleeps.",
        "- Each cell runs both orders (each operation once as the one committing second) on a",
        "  fresh copy of a table of the shape; a pair conflicts when either order fails.",
        f"- Isolation levels open-source Delta allows: {levels}. Every cell runs at Serializable.",
        "- Predicted: delta-lint's finding for the two job files (`runtime: oss`, the table's",
        "  settings declared as the shape's).",
        timing
        or f"- Time: {seconds:.0f} s for the draw's {runs} interleaved runs, {seconds / max(1, len(results)):.2f} s a cell.",
        "",
        f"**{len(results)} cells, {runs} interleaved runs, {len(raced)} raced "
        f"({len(results) - len(raced)} whose form failed on its own). Outcome (conflict or not) agrees in "
        f"{agree} of {len(raced)} ({_percent(agree, len(raced))}); the exception name agrees in {exact} of the "
        f"{len(both)} cells where both delta-lint and Delta see a conflict ({_percent(exact, len(both))}).**",
        "",
        "## Disagreements",
        "",
    ]
    if not disagreements:
        lines.append("None.")
    number = {id(k): i for i, k in enumerate(KNOWN_DIFFERENCES, 1)}
    for r in disagreements:
        known = explanation(r)
        what = "outcome" if not r.agrees else "exception name"
        cause = f"known difference {number[id(known)]}" if known else "UNEXPLAINED"
        lines.append(f"- {r.cell.label} ({r.cell.shape or 'empty path'}, {r.cell.values}), {what}: {cause}.")
    used = {id(explanation(r)) for r in disagreements}
    lines += [
        "",
        f"{sum(explanation(r) is None for r in disagreements)} unexplained.",
        "",
        "## Known differences (the causes, keyed by form, family, shape and values)",
        "",
    ]
    for known in KNOWN_DIFFERENCES:
        where = ", ".join(known.shapes) or "any table"
        lines.append(
            f"{number[id(known)]}. {' × '.join(known.forms)} ({where}"
            f"{', ' + known.values + ' values' if known.values else ''}"
            f"{', exception name only' if known.exception_only else ''}"
            f"{'' if id(known) in used else ', not met in this draw'}): {known.cause}"
        )
    lines += [
        "",
        "## Claims from reading the open-source conflict checker",
        "",
        *claims(results),
        "",
        "## Cells",
        "",
        "| table | values | pair (A × B) | delta-lint (oss) | observed | outcome agrees | exception agrees |",
        "|---|---|---|---|---|---|---|",
        *(row(r) for r in results),
        "",
    ]
    return "\n".join(lines)


def versions(spark: Any) -> str:
    from importlib.metadata import version

    return f"delta-spark {version('delta-spark')} (open-source Delta Lake), Spark {spark.version}"


def table_rows(text: str) -> list[str]:
    """The cell rows of a rendered report."""
    part = text.split("## Cells", 1)[-1]
    return [ln for ln in part.splitlines() if ln.startswith("| ") and not ln.startswith("| table")]


_WHO = re.compile(r"^(.*? \((?:a|b)\) second): (.*)$")


def _outcome(short: str) -> Outcome:
    """The inverse of `_short` (the message is not in a row)."""
    if short == "committed":
        return Outcome(None)
    if short.startswith("first failed: "):
        return Outcome(short.removeprefix("first failed: "), "", "first")
    if short.startswith("no race: "):
        name = short.removeprefix("no race: ")
        return Outcome(None if name == "no transaction" else name, "", "before")
    return Outcome(short)


def replay(text: str, selection: list[Cell]) -> list[Result]:
    """Results for `selection` from a report's observed outcomes and delta-lint's
    predictions now: a change to delta-lint is judged against what Delta did without
    racing again (Delta's outcomes do not depend on delta-lint). Raises KeyError for a
    cell the report does not hold."""
    observed = {}
    for line in table_rows(text):
        shape, values, label, _predicted, seen, *_ = (part.strip() for part in line.strip("|").split(" | "))
        runs = []
        for part in seen.split("; "):
            match = _WHO.match(part)
            if match is None:
                raise ValueError(f"not an observed outcome: {part!r}")
            runs.append((match.group(1), _outcome(match.group(2))))
        observed[(shape, values, label)] = runs
    results = []
    with tempfile.TemporaryDirectory(prefix="delta-lint-replay-") as tmp:
        for i, cell in enumerate(selection):
            result = Result(cell, *predict(cell, Path(tmp) / str(i)))
            result.observed = observed[(cell.shape or "empty path", cell.values, cell.label)]
            results.append(result)
    return results


def main(argv: list[str] | None = None) -> int:
    import argparse

    from delta_lint.interleave import start_session

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {REPORT.relative_to(ROOT)}")
    parser.add_argument("--ci", action="store_true", help=f"CI's draw only (the first {CI_DRAW} cells)")
    parser.add_argument("--count", type=int, default=FULL_DRAW, help="cells to draw")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--list", action="store_true", help="list the drawn cells without running them")
    parser.add_argument(
        "--log", type=Path, help="append each cell's outcomes to this JSON-lines file; skip cells it holds"
    )
    parser.add_argument(
        "--replay",
        type=Path,
        metavar="REPORT",
        help="no racing: Delta's outcomes from REPORT, delta-lint's predictions from this tree",
    )
    args = parser.parse_args(argv)
    selection = draw(CI_DRAW if args.ci else args.count, args.seed)
    if args.replay:
        old = args.replay.read_text(encoding="utf-8")
        levels = re.search(r"Isolation levels open-source Delta allows: (.*)\. Every cell", old).group(1)
        engine = re.search(r"- Engine: (.*), `local\[1\]`", old).group(1)
        timing = re.search(r"^- Time: .*$", old, re.M).group(0)
        text = render(replay(old, selection), levels, engine, args.seed, timing)
        if args.write:
            REPORT.write_text(text, encoding="utf-8")
        else:
            print(text)
        return 0
    if args.list:
        for cell in selection:
            print(" | ".join(cell.key))
        print(f"{len(selection)} cells of {len(space())}")
        return 0
    spark = start_session(app="delta-lint-oracle")
    try:
        results, levels = run_all(spark, selection, args.log)
        text = render(results, levels, versions(spark), args.seed)
    finally:
        spark.stop()
    if args.write:
        REPORT.write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
