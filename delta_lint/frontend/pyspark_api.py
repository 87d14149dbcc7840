"""The PySpark and delta-spark API surface the Python front end reads, as data.

Each entry is a method's parameters in order, exactly as pyspark 4.0 and
delta-spark 4.0 name them, so an argument is found whether it is passed by
position or by keyword (`DeltaTable.forName(spark, tableOrViewName="t")`).
`tests/test_real_patterns.py` holds this table against the installed libraries'
real signatures.
"""

from __future__ import annotations

import ast

# (owner, method) -> parameter names in order. Owners: the class whose method it is.
SIGNATURES: dict[tuple[str, str], tuple[str, ...]] = {
    # pyspark.sql.readwriter.DataFrameWriter
    ("DataFrameWriter", "saveAsTable"): ("name", "format", "mode", "partitionBy"),
    ("DataFrameWriter", "save"): ("path", "format", "mode", "partitionBy"),
    ("DataFrameWriter", "insertInto"): ("tableName", "overwrite"),
    ("DataFrameWriter", "mode"): ("saveMode",),
    ("DataFrameWriter", "format"): ("source",),
    ("DataFrameWriter", "option"): ("key", "value"),
    # pyspark.sql.streaming.readwriter.DataStreamWriter (`.table` is Databricks' alias of toTable)
    ("DataStreamWriter", "toTable"): ("tableName", "format", "outputMode", "partitionBy", "queryName"),
    ("DataStreamWriter", "start"): ("path", "format", "outputMode", "partitionBy", "queryName"),
    ("DataStreamWriter", "outputMode"): ("outputMode",),
    ("DataStreamWriter", "format"): ("source",),
    ("DataStreamWriter", "foreachBatch"): ("func",),
    # pyspark.sql.streaming.readwriter.DataStreamReader
    ("DataStreamReader", "table"): ("tableName",),
    ("DataStreamReader", "load"): ("path", "format", "schema"),
    ("DataStreamReader", "format"): ("source",),
    # pyspark.sql.readwriter.DataFrameWriterV2
    ("DataFrameWriterV2", "overwrite"): ("condition",),
    ("DataFrameWriterV2", "using"): ("provider",),
    ("DataFrameWriterV2", "tableProperty"): ("property", "value"),
    # pyspark.sql.session.SparkSession
    ("SparkSession", "sql"): ("sqlQuery", "args"),
    # databricks.sdk: WorkspaceClient.statement_execution (a SQL warehouse runs it)
    ("StatementExecutionAPI", "execute_statement"): ("statement", "warehouse_id"),
    # databricks.labs.lsql.core.StatementExecutionExt
    ("StatementExecutionExt", "execute"): ("statement",),
    ("StatementExecutionExt", "fetch_all"): ("statement",),
    ("StatementExecutionExt", "fetch_one"): ("statement",),
    ("StatementExecutionExt", "fetch_value"): ("statement",),
    # pyspark.sql.catalog.Catalog (what an existence guard asks: `frontend.pyguards`)
    ("Catalog", "tableExists"): ("tableName", "dbName"),
    ("Catalog", "listTables"): ("dbName", "pattern"),
    # delta.tables.DeltaTable
    ("DeltaTable", "forName"): ("sparkSession", "tableOrViewName"),
    ("DeltaTable", "isDeltaTable"): ("sparkSession", "identifier"),
    ("DeltaTable", "forPath"): ("sparkSession", "path", "hadoopConf"),
    ("DeltaTable", "alias"): ("aliasName",),
    ("DeltaTable", "merge"): ("source", "condition"),
    ("DeltaTable", "delete"): ("condition",),
    ("DeltaTable", "update"): ("condition", "set"),
    ("DeltaTable", "vacuum"): ("retentionHours",),
    ("DeltaTable", "restoreToVersion"): ("version",),
    ("DeltaTable", "restoreToTimestamp"): ("timestamp",),
    ("DeltaTable", "upgradeTableProtocol"): ("readerVersion", "writerVersion"),
    ("DeltaTable", "addFeatureSupport"): ("featureName",),
    ("DeltaTable", "dropFeatureSupport"): ("featureName", "truncateHistory"),
    ("DeltaTable", "clone"): ("target", "isShallow", "replace", "properties"),
    ("DeltaTable", "cloneAtVersion"): ("version", "target", "isShallow", "replace", "properties"),
    ("DeltaTable", "cloneAtTimestamp"): ("timestamp", "target", "isShallow", "replace", "properties"),
    ("DeltaTable", "convertToDelta"): ("sparkSession", "identifier", "partitionSchema"),
    # pyspark.pandas.frame.DataFrame (the pandas API on Spark; `psdf.spark.to_table` too)
    ("DataFrame", "to_table"): ("name", "format", "mode", "partition_cols", "index_col"),
    ("DataFrame", "to_delta"): ("path", "mode", "partition_cols", "index_col"),
    # delta.tables.DeltaMergeBuilder
    ("DeltaMergeBuilder", "whenMatchedUpdate"): ("condition", "set"),
    ("DeltaMergeBuilder", "whenMatchedUpdateAll"): ("condition",),
    ("DeltaMergeBuilder", "whenMatchedDelete"): ("condition",),
    ("DeltaMergeBuilder", "whenNotMatchedInsert"): ("condition", "values"),
    ("DeltaMergeBuilder", "whenNotMatchedInsertAll"): ("condition",),
    ("DeltaMergeBuilder", "whenNotMatchedBySourceUpdate"): ("condition", "set"),
    ("DeltaMergeBuilder", "whenNotMatchedBySourceDelete"): ("condition",),
    # delta.tables.DeltaOptimizeBuilder
    ("DeltaOptimizeBuilder", "where"): ("partitionFilter",),
    # delta.tables.DeltaTableBuilder
    ("DeltaTableBuilder", "tableName"): ("identifier",),
    ("DeltaTableBuilder", "location"): ("location",),
    ("DeltaTableBuilder", "addColumn"): (
        "colName",
        "dataType",
        "nullable",
        "generatedAlwaysAs",
        "generatedByDefaultAs",
        "comment",
    ),
    ("DeltaTableBuilder", "property"): ("key", "value"),
}

# What `DeltaTable.create(spark)...execute()` returns (and `createIfNotExists`,
# `createOrReplace`, `replace`): the DeltaTable of the table the builder names, the
# one `DeltaTable.forName(spark, name)` gives, or of its location as `forPath` gives.
# (builder method, its parameter) -> (DeltaTable factory, its parameter), the name first.
DELTA_BUILDERS = frozenset({"create", "createIfNotExists", "createOrReplace", "replace"})
BUILT_TABLE_HANDLES: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = (
    (("tableName", "identifier"), ("forName", "tableOrViewName")),
    (("location", "location"), ("forPath", "path")),
)

# Keyword arguments of these calls that are not parameters are writer options
# (`saveAsTable("t", mergeSchema="true")`, pyspark's `**options`).
TAKES_OPTIONS = frozenset(
    {
        ("DataFrameWriter", "saveAsTable"),
        ("DataFrameWriter", "save"),
        ("DataStreamWriter", "toTable"),
        ("DataStreamWriter", "start"),
        ("DataStreamReader", "load"),
        ("DataFrame", "to_table"),
        ("DataFrame", "to_delta"),
    }
)


def argument(call: ast.Call, owner: str, method: str, param: str) -> ast.expr | None:
    """The expression passed for `param` of `owner.method`, by keyword or position;
    None when it is not passed (or passed inside `*args` / `**kwargs`)."""
    names = SIGNATURES[(owner, method)]
    for kw in call.keywords:
        if kw.arg == param:
            return kw.value
    index = names.index(param)
    positional = call.args
    if any(isinstance(a, ast.Starred) for a in positional[: index + 1]):
        return None
    return positional[index] if index < len(positional) else None


def options(call: ast.Call, owner: str, method: str) -> dict[str, ast.expr]:
    """The `**options` keywords of a writer call, lower-cased."""
    if (owner, method) not in TAKES_OPTIONS:
        return {}
    names = set(SIGNATURES[(owner, method)])
    return {kw.arg.lower(): kw.value for kw in call.keywords if kw.arg and kw.arg not in names}


# Methods that end a DataFrame / DeltaTable / SQL chain with an effect: where the
# Python front end looks for a write (or a session change) in a chain of calls.
TERMINALS = {
    "saveAsTable",
    "save",
    "insertInto",
    "toTable",
    "start",
    "append",
    "overwrite",
    "overwritePartitions",
    "create",
    "createOrReplace",
    "replace",
    "execute",
    "delete",
    "update",
    "updateExpr",
    "executeCompaction",
    "executeZOrderBy",
    "vacuum",
    "compact",  # delta-rs: `dt.optimize.compact()`, `dt.optimize.z_order(cols)`, `dt.restore(v)`
    "z_order",
    "restore",
    "restoreToVersion",
    "restoreToTimestamp",
    "upgradeTableProtocol",
    "addFeatureSupport",
    "dropFeatureSupport",
    "clone",
    "cloneAtVersion",
    "cloneAtTimestamp",
    "convertToDelta",
    "to_table",
    "to_delta",
    "write_deltalake",
    "write_delta",
    "sql",
    "execute_statement",
    "fetch_all",
    "fetch_one",
    "fetch_value",
    "set",
    "unset",
    "table",
    "load",
    "setCurrentDatabase",
    "setCurrentCatalog",
}
