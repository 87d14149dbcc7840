"""The Python front end: PySpark and DeltaTable patterns, parameters, streaming."""

from __future__ import annotations

from delta_lint.frontend import analyze_source


def intents(code: str):
    result = analyze_source("job.py", ".py", code)
    return [
        (
            i.location.line,
            i.table.name if i.table else None,
            i.kind.value,
            i.predicate_sql,
            i.params,
            sorted(f.value for f in i.flags),
        )
        for i in result.intents
    ], result


def test_dataframe_writer_modes_and_options():
    got, _ = intents(
        'df.write.format("delta").mode("append").saveAsTable("s.a")\n'
        'df.write.mode("append").option("mergeSchema", "true").saveAsTable("s.b")\n'
        'df.write.mode("overwrite").option("replaceWhere", "d = \'1\'").save("/p/c")\n'
        'df.write.mode("overwrite").option("partitionOverwriteMode", "dynamic").partitionBy("d").saveAsTable("s.d")\n'
        'df.write.mode("overwrite").option("overwriteSchema", "true").saveAsTable("s.e")\n'
        'df.write.insertInto("s.f", overwrite=True)\n'
        'df.write.insertInto("s.g")\n'
        'df.write.format("parquet").mode("append").save("/not/delta")\n'
        'df.write.saveAsTable("s.h")\n'
        'df.write.option("txnAppId", "loader").option("txnVersion", 3).mode("append").saveAsTable("s.i")\n'
    )
    assert got == [
        (1, "s.a", "blind_append", None, (), []),
        (2, "s.b", "blind_append", None, (), ["schema_evolution"]),
        (3, "delta:/p/c", "replace_where", "d = '1'", (), []),
        (4, "s.d", "dynamic_partition_overwrite", None, (), []),
        (5, "s.e", "full_overwrite", None, (), ["schema_evolution"]),
        (6, "s.f", "full_overwrite", None, (), []),
        (7, "s.g", "blind_append", None, (), []),
        (9, "s.h", "create", None, (), []),
        (10, "s.i", "blind_append", None, (), []),
    ]


def test_write_to_v2():
    got, _ = intents(
        'df.writeTo("s.a").append()\n'
        'df.writeTo("s.b").overwrite(F.col("d") == "2024-01-01")\n'
        'df.writeTo("s.c").overwritePartitions()\n'
        'df.writeTo("s.d").using("delta").create()\n'
        'df.writeTo("s.e").createOrReplace()\n'
    )
    assert [(g[1], g[2], g[3]) for g in got] == [
        ("s.a", "blind_append", None),
        ("s.b", "replace_where", "d = '2024-01-01'"),
        ("s.c", "dynamic_partition_overwrite", None),
        ("s.d", "create", None),
        ("s.e", "create_or_replace", None),
    ]


def test_insert_reading_its_target():
    got, _ = intents('src = spark.table("s.t").where("x > 1")\nsrc.write.mode("append").saveAsTable("s.t")\n')
    assert got == [(2, "s.t", "insert_reading_target", None, (), ["reads_target"])]


def test_delta_table_api_chains_and_variables():
    got, _ = intents(
        "from delta.tables import DeltaTable\n"
        'dt = DeltaTable.forName(spark, "s.t")\n'
        'dt.alias("t").merge(src.alias("s"), "s.id = t.id AND t.d = \'1\'").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute()\n'
        "dt.delete(\"d < '2020-01-01'\")\n"
        'dt.update(condition=F.col("d") == "1", set={"x": "1"})\n'
        "dt.optimize().where(\"d = '1'\").executeCompaction()\n"
        'dt.optimize().executeZOrderBy("a", "b")\n'
        "dt.vacuum()\n"
        "dt.restoreToVersion(3)\n"
        'DeltaTable.forPath(spark, "/p/x").delete()\n'
        "dt.upgradeTableProtocol(3, 7)\n"
        'dt.alias("t").merge(src.alias("s"), "s.id = t.id").withSchemaEvolution().whenMatchedUpdateAll().execute()\n'
    )
    assert got == [
        (3, "s.t", "merge", "s.id = t.id AND t.d = '1'", (), []),
        (4, "s.t", "delete", "d < '2020-01-01'", (), []),
        (5, "s.t", "update", "d = '1'", (), []),
        (6, "s.t", "optimize", "d = '1'", (), []),
        (7, "s.t", "optimize_zorder", None, (), []),
        (8, "s.t", "vacuum", None, (), []),
        (9, "s.t", "restore", None, (), []),
        (10, "delta:/p/x", "delete", None, (), []),
        (11, "s.t", "protocol_change", None, (), []),
        (12, "s.t", "merge", "s.id = t.id", (), ["schema_evolution"]),
    ]


def test_delta_table_clone_and_convert_write_their_target_as_the_sql_forms_do():
    """`DeltaTable...clone(t, isShallow, replace)` and `cloneAtVersion`/`AtTimestamp`
    write the clone's target (`CREATE [OR REPLACE] TABLE t CLONE s`);
    `DeltaTable.convertToDelta(spark, "parquet.`/p`")` makes the table at the path a
    Delta table (`CONVERT TO DELTA`) with the partition columns given. A `replace`
    only a run knows reads as a replace. The near miss: a `.clone()` of something
    that is not a DeltaTable handle writes nothing."""
    got, result = intents(
        "from delta.tables import DeltaTable\n"
        'DeltaTable.forName(spark, "raw.a").clone("cat.s.t36", isShallow=True, replace=True)\n'
        'dt = DeltaTable.forPath(spark, "/mnt/src")\n'
        'dt.cloneAtVersion(3, "/mnt/lake/copy", isShallow=False)\n'
        'dt.cloneAtTimestamp("2024-01-01", target="main.s.c", isShallow=True, replace=flag)\n'
        'DeltaTable.convertToDelta(spark, "parquet.`/mnt/lake/t40`")\n'
        'DeltaTable.convertToDelta(spark, "main.s.old", "day DATE, region STRING")\n'
        "model.clone()\n"
        'repo.clone("main.s.not_delta")\n'
    )
    assert [(line, table, kind) for line, table, kind, *_ in got] == [
        (2, "cat.s.t36", "create_or_replace"),
        (4, "delta:/mnt/lake/copy", "create"),
        (5, "main.s.c", "create_or_replace"),
        (6, "delta:/mnt/lake/t40", "create"),
        (7, "main.s.old", "create"),
    ]
    assert [(i.subkind, i.declared.partitioned_by if i.declared else None) for i in result.intents][3:] == [
        ("convert_to_delta", ()),
        ("convert_to_delta", ("day", "region")),
    ]


def test_the_pandas_api_on_spark_writes_as_spark_does():
    """`psdf.to_table(name, format, mode, partition_cols)` (also through
    `psdf.spark.to_table`) and `psdf.to_delta(path, mode)` are Spark writes; pandas'
    mode `w`, the default, overwrites and `a` appends. Near misses: another format
    writes no Delta table, pyarrow's `dataset.to_table()` (no target) reads, and
    DuckDB's `to_table` writes no Delta table."""
    got, result = intents(
        "import pyspark.pandas as ps\n"
        'psdf = ps.read_table("raw.a")\n'
        'psdf.to_table("cat.s.t1", mode="append", partition_cols=["day"])\n'
        'psdf.to_table("cat.s.t2")\n'
        'psdf.spark.to_table(name="cat.s.t3", mode="a")\n'
        'psdf.to_delta("/mnt/lake/t4", mode="overwrite")\n'
        'psdf.to_table("cat.s.t5", format="parquet")\n'
        "tbl = dataset.to_table()\n"
        'tbl = dataset.to_table(columns=["a"])\n'
    )
    # DuckDB's relations have a `to_table(name)`: a file with no sign of the pandas
    # API on Spark writes no Delta table with it (`to_delta` is that API's alone)
    duck, _ = intents(
        'con = duckdb.connect("local.db")\n'
        'con.sql("SELECT * FROM read_csv(\'o.csv\')").to_table("orders")\n'
        'frame.to_delta("/mnt/lake/t6")\n'
    )
    assert [(line, table) for line, table, *_ in duck] == [(3, "delta:/mnt/lake/t6")]
    assert [(line, table, kind) for line, table, kind, *_ in got] == [
        (3, "cat.s.t1", "blind_append"),
        (4, "cat.s.t2", "full_overwrite"),
        (5, "cat.s.t3", "blind_append"),
        (6, "delta:/mnt/lake/t4", "full_overwrite"),
    ]
    assert not [d for d in result.diagnostics if d.rule in ("DL000", "DL001")]


def test_delta_writers_outside_spark_commit_to_the_same_log():
    """delta-rs (`deltalake.write_deltalake`) and polars' `write_delta` commit to
    the same Delta log as Spark's writers: a write of their target (a path, or a
    name), `error` by default; an overwrite with `predicate` replaces those rows
    only. Near misses: polars' `mode="merge"` hands back a merger (its `execute()`
    writes, not read here) and a `write_delta` of nothing named is no write."""
    got, result = intents(
        "from deltalake import write_deltalake\n"
        "import deltalake, polars as pl\n"
        'write_deltalake("s3://b/t1", pdf, mode="append", partition_by=["day"])\n'
        'deltalake.write_deltalake("/mnt/t2", pdf, mode="overwrite", predicate="day = \'2024-01-01\'")\n'
        'pl.DataFrame({"a": [1]}).write_delta("abfss://c@a/t3", mode="overwrite")\n'
        'pldf.write_delta("s3://b/t4")\n'
        'pldf.write_delta("s3://b/t5", mode="merge", delta_merge_options={})\n'
        "pldf.write_delta()\n"
    )
    assert [(line, table, kind, pred) for line, table, kind, pred, *_ in got] == [
        (3, "delta:s3://b/t1", "blind_append", None),
        (4, "delta:/mnt/t2", "replace_where", "day = '2024-01-01'"),
        (5, "delta:abfss://c@a/t3", "full_overwrite", None),
        (6, "delta:s3://b/t4", "create", None),  # `error`: it writes only a table that is not there
    ]


def test_spark_sql_string_building_and_parameters():
    got, _ = intents(
        "import sys, argparse\n"
        "from textwrap import dedent\n"
        'TABLE = "s.orders"\n'
        'day = dbutils.widgets.get("day")\n'
        "country = sys.argv[1]\n"
        "parser = argparse.ArgumentParser()\n"
        "args = parser.parse_args()\n"
        "spark.sql(f\"DELETE FROM {TABLE} WHERE d = '{day}'\")\n"
        "spark.sql(\"UPDATE s.orders SET x = 1 WHERE c = '%s'\" % country)\n"
        "spark.sql(\"DELETE FROM {t} WHERE d = '{d}'\".format(t=TABLE, d=args.run_date))\n"
        "spark.sql(dedent('''\n    DELETE FROM s.orders\n    WHERE d = 'x'\n'''))\n"
        "spark.sql('DELETE FROM ' + TABLE + ' WHERE d = 1')\n"
        "def job(run):\n"
        "    spark.sql(f\"DELETE FROM s.orders WHERE d = '{run}'\")\n"
    )
    assert got == [
        (8, "s.orders", "delete", "d = '{day}'", ("day",), []),
        (9, "s.orders", "update", "c = '{argv_1}'", ("argv_1",), []),
        (10, "s.orders", "delete", "d = '{run_date}'", ("run_date",), []),
        (11, "s.orders", "delete", "d = 'x'", (), []),
        (15, "s.orders", "delete", "d = 1", (), []),
        (17, "s.orders", "delete", "d = '{run}'", ("run",), []),
    ]


def test_confs_set_in_python():
    got, _ = intents(
        'spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")\n'
        'spark.conf.set("spark.databricks.delta.rowLevelConcurrencyPreview", "true")\n'
        'spark.sql("MERGE INTO s.t t USING s ON s.id = t.id WHEN MATCHED THEN DELETE")\n'
    )
    assert got[0][5] == ["row_level_preview", "schema_evolution"]


def test_streaming_writes_reads_and_foreach_batch():
    code = (
        "def upsert(batch_df, batch_id):\n"
        '    DeltaTable.forName(spark, "s.t").alias("t").merge(batch_df.alias("s"), "s.id = t.id").whenMatchedUpdateAll().execute()\n'
        "\n"
        'q = spark.readStream.table("s.raw").writeStream.foreachBatch(upsert).option("checkpointLocation", "/chk/a").start()\n'
        'spark.readStream.format("delta").load("/p/in").writeStream.option("checkpointLocation", "/chk/b").outputMode("complete").toTable("s.agg")\n'
    )
    result = analyze_source("job.py", ".py", code)
    rows = [
        (
            i.location.line,
            i.table.name if i.table else None,
            i.kind.value,
            i.checkpoint,
            i.stream.line if i.stream else None,
        )
        for i in result.intents
    ]
    assert rows == [
        (2, "s.t", "merge", None, 4),
        (4, "s.raw", "streaming_read", None, None),
        (4, None, "streaming_write", "/chk/a", 4),
        (5, "delta:/p/in", "streaming_read", None, None),
        (5, "s.agg", "full_overwrite", "/chk/b", 5),
    ]
    assert "per_batch" in {f.value for f in result.intents[0].flags}


def test_unknown_table_name_is_unresolved_not_dropped():
    got, result = intents('spark.sql(f"DELETE FROM {pick()} WHERE x = 1")\n')
    assert got[0][1] == "{pick}" and "unresolved" in got[0][5]
    assert [d.rule for d in result.diagnostics] == ["DL001"]


def test_syntax_error_is_one_diagnostic():
    got, result = intents("def broken(:\n    pass\n")
    assert got == []
    assert [(d.rule, d.location.line) for d in result.diagnostics] == [("DL000", 1)]


def test_code_is_never_executed(tmp_path):
    marker = tmp_path / "marker"
    code = f"open({str(marker)!r}, 'w').write('x')\nimport os\nos.system('touch {marker}')\n"
    analyze_source("job.py", ".py", code)
    assert not marker.exists()


def test_calls_split_over_lines_and_non_ascii_sources_are_still_found():
    """Expressions with no call name of interest on their lines are skipped unwalked;
    a call name on a later line (after a comment) or a source with non-ASCII text
    must still be read."""
    split, _ = intents(
        "(df.write.mode('append')  # the target\n    .\n    saveAsTable('main.s.split'))\nx = helper(1)\n"
    )
    assert [(line, table, kind) for line, table, kind, *_ in split] == [(1, "main.s.split", "blind_append")]
    accented, _ = intents("café = 'main.s.é'\ndf.write.mode('append').saveAsTable('main.s.t')\n")
    assert [table for _, table, *_ in accented] == ["main.s.t"]


def test_a_dataframe_chain_is_followed_without_unparsing_it(monkeypatch):
    """A variable holding a DataFrame chain over several lines keeps the tables it
    reads (an append reading its own target is told apart) without `ast.unparse`, which
    cost a few percent of the front end for a name nobody reads; text-giving calls
    (format, join, dedent) still become text."""
    import ast

    unparsed = []
    real_unparse = ast.unparse

    code = (
        'src = (\n    spark.table("s.t")\n    .where("d = 1")\n    .select("a")\n)\n'
        "stamp = datetime.now()\n"
        'query = "INSERT INTO {} SELECT 1".format("s.u")\n'
        'src.write.mode("append").saveAsTable("s.t")\n'
        "spark.sql(query)\n"
    )
    monkeypatch.setattr(ast, "unparse", lambda node: unparsed.append(node) or real_unparse(node))
    got, result = intents(code)
    assert not result.diagnostics and unparsed == []
    assert [(line, table, kind) for line, table, kind, *_ in got] == [
        (8, "s.t", "insert_reading_target"),
        (9, "s.u", "blind_append"),
    ]


def test_columns_and_statements_count_characters_and_python_line_ends():
    """`ast` offsets count UTF-8 bytes and only \\n ends a line (after the front end
    normalises line ends): a write after non-ASCII text on its line is shown at its
    character column with its own text, and a form feed in a comment shifts nothing."""
    _, result = intents('x = "é€"; df.write.mode("append").saveAsTable("s.t")\n')
    (write,) = result.intents
    assert (write.location.line, write.location.column) == (1, 11)
    assert write.statement == 'df.write.mode("append").saveAsTable("s.t")'
    _, result = intents('# a \x0c form feed\ndf.write.mode("append").saveAsTable("s.t")\n')
    assert [(i.location.line, i.statement) for i in result.intents] == [
        (2, 'df.write.mode("append").saveAsTable("s.t")')
    ]


def test_session_sql_by_another_name_and_the_notebook_global():
    """`q = spark.sql` then `q(...)`, and a bare `sql(...)` where the file never binds
    `sql` (a notebook's global), run SQL; a file that only calls `spark.sql(...)`
    and defines a function of its own named `sql` does not."""
    got, _ = intents('q = spark.sql\nq("DELETE FROM s.a WHERE d = 1")\nsql ("DELETE FROM s.b WHERE d = 1")\n')
    assert [(line, table) for line, table, *_ in got] == [(2, "s.a"), (3, "s.b")]
    got, _ = intents(
        'def sql(text):\n    return text\n\nsql("DELETE FROM s.c WHERE d = 1")\n'
        'spark.sql("DELETE FROM s.d WHERE d = 1")\n'
    )
    assert [(line, table) for line, table, *_ in got] == [(5, "s.d")]
    # beside the imports of `pyspark.sql` every PySpark file has, the name still counts
    got, _ = intents(
        "from pyspark.sql import functions as F\nimport pyspark.sql.types as T\n"
        'run = spark.sql\nrun("DELETE FROM s.e WHERE d = 1")\n'
    )
    assert [(line, table) for line, table, *_ in got] == [(4, "s.e")]


def test_a_literal_changed_in_place_is_not_looped_over_but_text_about_it_is():
    """A loop over a literal list writes each table, unless the code changes the list
    in place (in a decorated function too); `TABLES.append(` inside a string or a
    comment changes nothing. A dict the code sets a key of is no literal for a loop
    over its items, the key written over several lines too."""
    loop = 'for t in TABLES:\n    df.write.mode("append").saveAsTable(t)\n'
    plain = 'TABLES = ["s.a", "s.b"]\nprint("call TABLES.append(x) to add one")  # TABLES += [x]\n' + loop
    got, _ = intents(plain)
    assert sorted(table for _, table, *_ in got) == ["s.a", "s.b"]
    method = 'TABLES = ["s.a", "s.b"]\n\n@register\ndef more():\n    TABLES.append("s.c")\n\n' + loop
    got, _ = intents(method)
    assert [table for _, table, *_ in got] == ["{each_t}"]
    items = 'for k, v in CONF.items():\n    df.write.mode("append").saveAsTable(v)\n'
    conf = 'CONF = {"a": "s.a", "b": "s.b"}\n'
    got, _ = intents(conf + items)
    assert sorted(table for _, table, *_ in got) == ["s.a", "s.b"]
    got, _ = intents(conf + 'CONF[\n    "a"\n] = "s.c"\n' + items)
    assert "s.a" not in [table for _, table, *_ in got]
