"""The writes of a dbt node, as the statements dbt-databricks runs for it.

The dbt reader (`delta_lint.dbt`) resolves each node's materialization, table,
merge key, partition columns and literal incremental predicates; this front end
writes the statement dbt-databricks issues for that materialization and reads it
with the SQL front end, so a dbt MERGE is judged exactly as a MERGE written by
hand (its key, its condition's region, its clauses). The intents are placed at
the node's `config()` call (line 1 without one) and named after the model:

* `incremental` + `merge` (the default): `MERGE INTO t USING ... ON` the
  `unique_key` columns and the incremental predicates, `WHEN MATCHED THEN UPDATE
  SET * WHEN NOT MATCHED THEN INSERT *` (`ON FALSE` without a key);
* `append`: `INSERT INTO t SELECT ...` (a blind append);
* `insert_overwrite`: a dynamic partition overwrite with `partition_by`, else a
  full overwrite;
* `replace_where` (and `microbatch`, which replaces each batch's rows):
  `INSERT INTO t REPLACE WHERE` the predicates;
* `snapshot`: the snapshot MERGE on `dbt_scd_id`;
* `table`, seeds: `CREATE OR REPLACE TABLE t AS SELECT ...`;
* `materialized_view` (a refresh) and `streaming_table` (an append stream).
"""

from __future__ import annotations

from dataclasses import replace

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.model import Flag, Intent, Kind, Location, TableRef

_STAND_IN = "dbt_target_catalog.dbt_target_schema.dbt_target_table"  # a table whose name holds placeholders
_SOURCE = "dbt_model_source"
_SNAPSHOT_MERGE = (
    "ON DBT_INTERNAL_SOURCE.dbt_scd_id = DBT_INTERNAL_DEST.dbt_scd_id "
    "WHEN MATCHED AND DBT_INTERNAL_DEST.dbt_valid_to IS NULL "
    "AND DBT_INTERNAL_SOURCE.dbt_change_type IN ('update', 'delete') "
    "THEN UPDATE SET dbt_valid_to = DBT_INTERNAL_SOURCE.dbt_valid_to "
    "WHEN NOT MATCHED AND DBT_INTERNAL_SOURCE.dbt_change_type = 'insert' THEN INSERT *"
)


def analyze_dbt(display: str, specs: tuple[tuple, ...], memo: FrontEndMemo | None = None) -> list[Intent]:
    """The intents of a dbt node's file: one per (table, materialization) it is run with."""
    from delta_lint.frontend.sql import Session, analyze_sql

    out: list[Intent] = []
    for table, materialized, strategy, key, partitions, predicates, line, name in specs:
        where = Location(display, int(line), 1)
        what = f"dbt {materialized}" + (f" ({strategy})" if strategy else "") + f" of model `{name}` into `{table}`"
        if materialized == "materialized_view":
            out.append(Intent(where, TableRef(table), Kind.FULL_OVERWRITE, subkind="dbt", statement=what))
            continue
        if materialized == "streaming_table":
            out.append(Intent(where, TableRef(table), Kind.STREAMING_WRITE, subkind="dbt", statement=what))
            continue
        target = _STAND_IN if "{" in table else table
        sql = _statement(materialized, strategy, target, tuple(key), tuple(partitions), predicates)
        if sql is None:
            continue
        session = Session()
        if materialized == "incremental" and strategy == "insert_overwrite" and partitions:
            session.dynamic_overwrite = True  # dbt-databricks sets partitionOverwriteMode to dynamic
        intents, _ = analyze_sql(sql, display, session, fixed=where, memo=memo)
        flags = frozenset({Flag.OPAQUE_CONDITION}) if predicates is None else frozenset()
        for intent in intents:
            if intent.table is None or intent.table.name != target.lower():
                continue
            out.append(
                replace(
                    intent,
                    table=TableRef(table),
                    location=where,
                    statement=what,
                    subkind="dbt",
                    flags=intent.flags | flags,
                )
            )
    return out


def _statement(
    materialized: str,
    strategy: str,
    table: str,
    key: tuple[str, ...],
    partitions: tuple[str, ...],
    predicates: list[str] | tuple[str, ...] | None,
) -> str | None:
    """The statement dbt-databricks runs for a materialization (None: no write)."""
    conditions = [f"({p})" for p in predicates or ()]
    if materialized in ("table", "seed"):
        return f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM {_SOURCE}"
    if materialized == "snapshot":
        return f"MERGE INTO {table} AS DBT_INTERNAL_DEST USING {_SOURCE} AS DBT_INTERNAL_SOURCE {_SNAPSHOT_MERGE}"
    if materialized != "incremental":
        return None  # a custom materialization: what it writes is its macro's
    if strategy == "append":
        return f"INSERT INTO {table} SELECT * FROM {_SOURCE}"
    if strategy == "insert_overwrite":
        return f"INSERT OVERWRITE TABLE {table} SELECT * FROM {_SOURCE}"
    if strategy in ("replace_where", "microbatch"):
        condition = " AND ".join(conditions) if conditions and strategy == "replace_where" else "TRUE"
        return f"INSERT INTO {table} REPLACE WHERE {condition} SELECT * FROM {_SOURCE}"
    if strategy == "merge":
        on = [f"DBT_INTERNAL_SOURCE.{k} = DBT_INTERNAL_DEST.{k}" for k in key] or ["FALSE"]
        condition = " AND ".join([*on, *conditions])
        return (
            f"MERGE INTO {table} AS DBT_INTERNAL_DEST USING {_SOURCE} AS DBT_INTERNAL_SOURCE ON {condition} "
            "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"
        )
    return None  # a custom strategy
