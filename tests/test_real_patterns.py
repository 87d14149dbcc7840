"""Patterns met in public Databricks repositories, rewritten as small cases of our
own: each case reads the way real job code is written, with a contrasting case
that must stay as it is."""

from __future__ import annotations

import ast
import inspect

import pytest

from delta_lint.frontend import analyze_source
from delta_lint.frontend.pyspark_api import SIGNATURES


def read(code: str, name: str = "job.py"):
    result = analyze_source(name, "." + name.rsplit(".", 1)[-1], code)
    return [(i.location.line, i.table.name if i.table else None, i.kind.value) for i in result.intents], result


def messages(result) -> list[str]:
    return [f"{d.rule} {d.message}" for d in result.diagnostics]


# -- arithmetic and other binary operations --------------------------------------


@pytest.mark.parametrize(
    "assignment",
    [
        "x = a - 1",
        "n = 8 * 1024",
        "p = Path(d) / 'x'",
        "c = (F.col('a') > 1) & (F.col('b') < 2)",
        "m = 2 ** 10",
        "s = {'a'} | {'b'}",
    ],
)
def test_any_binary_operation_keeps_the_file(assignment):
    got, result = read(f"{assignment}\ny = x\ndf.write.mode('append').saveAsTable('s.t')\n")
    assert got == [(3, "s.t", "blind_append")]
    assert not any("nested too deeply" in m for m in messages(result))


def test_arithmetic_on_known_integers_is_folded_into_sql():
    got, result = read('n = 8 * 1024\nspark.sql(f"DELETE FROM s.t WHERE id > {n - 1}")\n')
    assert got == [(2, "s.t", "delete")]
    assert result.intents[0].predicate_sql == "id > 8191"
    # an unknown operand stays a placeholder: the condition is not invented
    _, unknown = read('spark.sql(f"DELETE FROM s.t WHERE id > {limit - 1}")\n')
    assert "8191" not in (unknown.intents[0].predicate_sql or "")


# -- what a user reads ----------------------------------------------------------------


def test_a_broken_format_built_statement_names_no_internal_marker_or_parser_class():
    code = 'def purge(t, days):\n    sql = "DELETE FROM {} WHERE dt < {} AND".format(t, days)\n    spark.sql(sql)\n'
    _, result = read(code)
    (diag,) = [m for m in messages(result) if m.startswith("DL000")]
    assert "__dlp" not in diag.lower() and "sqlglot" not in diag and "<class" not in diag
    assert "DELETE FROM {t} WHERE dt < {days} AND" in diag and "incomplete AND condition" in diag


def test_use_catalog_from_a_template_names_the_parameter_not_a_marker():
    code = 'c = dbutils.widgets.get("catalog")\nspark.sql(f"USE CATALOG `{c}`")\ndf.write.saveAsTable("dw.t")\n'
    got, result = read(code)
    assert got == [(3, "{catalog}.dw.t", "create")]
    assert not any("dlp" in m.lower() for m in messages(result))
    # a literal USE CATALOG still qualifies the name
    got, _ = read('spark.sql("USE CATALOG main")\ndf.write.saveAsTable("dw.t")\n')
    assert got == [(2, "main.dw.t", "create")]


# -- the API surface ----------------------------------------------------------------------


def test_delta_table_arguments_by_keyword_as_delta_spark_names_them():
    got, result = read(
        "from delta.tables import DeltaTable\n"
        'DeltaTable.forName(spark, tableOrViewName="s.a").delete("id = 1")\n'
        'DeltaTable.forName(sparkSession=spark, tableOrViewName="s.b").update(condition="id = 2", set={"x": "1"})\n'
        'DeltaTable.forPath(spark, path="/data/c").delete(condition="id = 3")\n'
        'DeltaTable.forName(spark, "s.d").alias("t").merge(source=u, condition="t.id = u.id")'
        ".whenMatchedUpdateAll().execute()\n"
    )
    assert got == [(2, "s.a", "delete"), (3, "s.b", "update"), (4, "delta:/data/c", "delete"), (5, "s.d", "merge")]
    assert [i.predicate_sql for i in result.intents] == ["id = 1", "id = 2", "id = 3", "t.id = u.id"]


def test_writer_keywords_are_parameters_or_options_as_pyspark_names_them():
    got, result = read(
        'df.write.saveAsTable("s.a", mode="append", mergeSchema="true")\n'
        'df.write.saveAsTable(name="s.b", format="parquet")\n'
        'df.write.saveAsTable("s.c", partitionBy=["d"], mode="overwrite")\n'
    )
    assert got == [(1, "s.a", "blind_append"), (3, "s.c", "full_overwrite")]
    assert "schema_evolution" in {f.value for f in result.intents[0].flags}
    assert result.intents[1].declared.partitioned_by == ("d",)


def _real_parameters(owner: str, method: str) -> tuple[str, ...] | None:
    modules = {
        "DataFrameWriter": "pyspark.sql.readwriter",
        "DataFrameWriterV2": "pyspark.sql.readwriter",
        "DataStreamWriter": "pyspark.sql.streaming.readwriter",
        "DataStreamReader": "pyspark.sql.streaming.readwriter",
        "SparkSession": "pyspark.sql.session",
        "Catalog": "pyspark.sql.catalog",
        "DeltaTable": "delta.tables",
        "DeltaMergeBuilder": "delta.tables",
        "DeltaOptimizeBuilder": "delta.tables",
        "DeltaTableBuilder": "delta.tables",
        "DataFrame": "pyspark.pandas.frame",  # the pandas API on Spark: needs a pandas it supports
        # not dependencies of delta-lint: checked where installed
        "StatementExecutionAPI": "databricks.sdk.service.sql",
        "StatementExecutionExt": "databricks.labs.lsql.core",
    }
    module = pytest.importorskip(modules[owner], exc_type=ImportError)  # (a pandas pyspark.pandas does not support)
    fn = getattr(getattr(module, owner), method)
    params = [
        p.name
        for p in inspect.signature(fn).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "cls")
    ]
    return tuple(params)


@pytest.mark.parametrize("owner,method", sorted(SIGNATURES))
def test_the_api_table_matches_the_installed_signatures(owner, method):
    real = _real_parameters(owner, method)
    ours = SIGNATURES[(owner, method)]
    assert real[: len(ours)] == ours, f"{owner}.{method}: ours {ours}, installed {real}"


# -- streams ---------------------------------------------------------------------------


def test_stream_writes_to_tables_without_a_format_are_delta_writes():
    got, _ = read(
        'df.writeStream.option("checkpointLocation", "/c/1").table("s.a")\n'
        'spark.readStream.format("cloudFiles").option("cloudFiles.format", "json").load("/in")'
        '.writeStream.option("checkpointLocation", "/c/2").toTable("s.b")\n'
        'df.writeStream.format("delta").option("checkpointLocation", "/c/3").table("s.c")\n'
        'df.writeStream.format("kafka").option("checkpointLocation", "/c/4").start()\n'
    )
    assert got == [(1, "s.a", "streaming_write"), (2, "s.b", "streaming_write"), (3, "s.c", "streaming_write")]


def test_a_readers_format_is_not_the_writers():
    got, _ = read('spark.read.format("csv").load("/raw").write.mode("append").saveAsTable("s.t")\n')
    assert got == [(1, "s.t", "blind_append")]
    got, _ = read('spark.read.table("s.a").write.format("parquet").save("/out")\n')
    assert got == []


def test_a_delta_stream_read_chained_into_a_write_is_a_read_and_a_write():
    got, _ = read('spark.readStream.table("s.src").writeStream.option("checkpointLocation", "/c").toTable("s.dst")\n')
    assert sorted(got) == [(1, "s.dst", "streaming_write"), (1, "s.src", "streaming_read")]


# -- notebooks -----------------------------------------------------------------------------


def test_a_titled_sql_cell_is_read():
    code = (
        "# Databricks notebook source\n# DBTITLE 1,Purge old rows\n# MAGIC %sql\n# MAGIC DELETE FROM s.t WHERE id = 1\n"
    )
    got, _ = read(code)
    assert got == [(4, "s.t", "delete")]


def test_bare_magics_in_a_python_cell_do_not_make_the_notebook_a_syntax_error():
    code = (
        "# Databricks notebook source\n"
        "%pip install some-package\n"
        "\n"
        "# COMMAND ----------\n"
        "\n"
        "!ls /dbfs\n"
        "df.write.mode('append').saveAsTable('s.t')\n"
        "\n"
        "# COMMAND ----------\n"
        "pip install gradio==4.27.0 -q\n"  # an automagic: notebooks run it without the %
        "\n"
        "# COMMAND ----------\n"
        "%sh ls /dbfs\n"  # a cell magic: Databricks runs the whole cell as shell
        "echo \"df.write.saveAsTable('s.u')\"\n"
    )
    got, result = read(code)
    assert got == [(7, "s.t", "blind_append")]
    assert not messages(result)
    # in a plain Python file it stays what it is, a syntax error
    _, plain = read("pip install gradio\n")
    assert [m for m in messages(plain) if m.startswith("DL000")]


def test_ipynb_sql_on_the_magics_own_line_is_read():
    cells = [
        {"cell_type": "code", "source": ["%sql TRUNCATE TABLE s.a\n"]},
        {"cell_type": "code", "source": ["%sql\n", "DELETE FROM s.b WHERE id = 1\n"]},
    ]
    import json

    got, _ = read(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1), "nb.ipynb")
    assert [(t, k) for _, t, k in got] == [("s.a", "truncate"), ("s.b", "delete")]


# -- the site-packages sweep, sampled ---------------------------------------------------------


def test_real_python_files_raise_no_internal_error_and_are_never_too_deep():
    """A sample of the installed libraries' own modules (the full sweep is
    benchmarks/sweep_site_packages.py)."""
    import pyspark
    import sqlglot
    import yaml

    files = []
    for package in (pyspark, sqlglot, yaml):
        root = __import__("pathlib").Path(package.__file__).parent
        files += sorted(root.rglob("*.py"))[:60]
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        result = analyze_source(str(path), ".py", text)
        bad = [m for m in messages(result) if m.startswith("DL002") or "nested too deeply" in m]
        assert not bad, (path, bad)


# -- values and helpers ------------------------------------------------------------------------


def test_a_helper_is_resolved_at_each_call_site_and_its_own_line_stays_quiet():
    code = (
        "def upsert(df, table, keys):\n"
        '    DeltaTable.forName(spark, table).alias("t").merge(df.alias("s"), "t.id = s.id")'
        ".whenMatchedUpdateAll().execute()\n"
        "\n"
        'upsert(a, "main.sales.orders", ["id"])\n'
        'upsert(b, table="main.sales.items", keys=["id"])\n'
    )
    got, result = read(code)
    assert got == [(4, "main.sales.orders", "merge"), (5, "main.sales.items", "merge")]
    assert not [m for m in messages(result) if m.startswith("DL001")]


def test_a_helper_nobody_calls_keeps_one_unresolved_intent():
    got, result = read("def save(df, t):\n    df.write.mode('append').saveAsTable(t)\n")
    assert got == [(2, "{t}", "blind_append")]
    assert [m for m in messages(result) if m.startswith("DL001")]


def test_helpers_call_helpers_and_methods_with_defaults():
    code = (
        "class Loader:\n"
        "    def write(self, df, name, mode='overwrite'):\n"
        "        df.write.mode(mode).saveAsTable(name)\n"
        "    def run(self, df):\n"
        "        self.write(df, 'main.s.a')\n"
        "def outer(df, t):\n"
        "    inner(df, t)\n"
        "def inner(df, t):\n"
        "    spark.sql(f'DELETE FROM {t} WHERE d < 1')\n"
        "outer(x, 'main.s.b')\n"
    )
    got, _ = read(code)
    assert (5, "main.s.a", "full_overwrite") in got
    assert (10, "main.s.b", "delete") in got


def test_a_recursive_helper_is_read_a_bounded_number_of_times():
    code = "def f(t):\n    spark.sql(f'DELETE FROM {t}')\n    f(t)\nf('s.a')\n"
    got, _ = read(code)
    assert got == [(4, "s.a", "delete")]


def test_loops_over_literal_lists_and_dicts_make_one_intent_per_element():
    code = (
        'TABLES = ["s.a", "s.b"]\n'
        "for t in TABLES:\n"
        '    spark.sql(f"OPTIMIZE {t}")\n'
        'config = {"database": "clickstream"}\n'
        'DeltaTable.forName(spark, f"{config[\'database\']}.events").delete("d < 1")\n'
        "for t in names_from_somewhere():\n"
        '    spark.sql(f"OPTIMIZE {t}")\n'
    )
    got, _ = read(code)
    assert got == [
        (3, "s.a", "optimize"),
        (3, "s.b", "optimize"),
        (5, "clickstream.events", "delete"),
        (7, "{each_t}", "optimize"),
    ]


def test_widget_defaults_bind_the_widgets_a_notebook_reads():
    code = (
        'dbutils.widgets.text("catalog", "main")\n'
        'dbutils.widgets.text("schema", "", "Schema")\n'
        'c = dbutils.widgets.get("catalog")\n'
        's = dbutils.widgets.get("schema")\n'
        'spark.sql(f"DELETE FROM {c}.sales.orders WHERE d < 1")\n'
        'spark.sql(f"DELETE FROM {c}.{s}.items WHERE d < 1")\n'
    )
    got, _ = read(code)
    assert got == [(5, "main.sales.orders", "delete"), (6, "main.{schema}.items", "delete")]


def test_dynamic_sql_is_its_own_diagnostic_not_a_parse_error():
    _, result = read("def run(statement):\n    spark.sql(statement)\n")
    assert [d.rule for d in result.diagnostics] == ["DL007"]
    assert "dynamic SQL" in result.diagnostics[0].message


# -- files that are not Databricks job code -------------------------------------------------------

TSQL = "CREATE PROC [dbo].[load] @id INT AS\nBEGIN\n  SET NOCOUNT ON;\n  INSERT INTO [dbo].[t] SELECT 1\nEND\nGO\n"
POSTGRES = "CREATE TABLE users (id SERIAL PRIMARY KEY, name TEXT);\nINSERT INTO users VALUES (1, 'a') ON CONFLICT DO NOTHING;\n"
MYSQL = "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB DEFAULT CHARSET=utf8;\n"
DBT = "{{ config(materialized='table') }}\nselect * from {{ ref('orders') }}\n"
LAKEFLOW_SQL = "CREATE OR REFRESH STREAMING TABLE bronze AS SELECT * FROM STREAM read_files('/in');\n"
LAKEFLOW_PY = "import dlt\n\n@dlt.table\ndef bronze():\n    return spark.readStream.table('x')\n"
APP = "import streamlit as st\nst.write('hello')\n"


@pytest.mark.parametrize(
    "name,text,kind",
    [
        ("load.sql", TSQL, "T-SQL"),
        ("pg.sql", POSTGRES, "PostgreSQL"),
        ("my.sql", MYSQL, "MySQL"),
        ("models/orders.sql", DBT, "dbt"),
        ("pipeline.sql", LAKEFLOW_SQL, "Lakeflow pipeline"),
        ("pipeline.py", LAKEFLOW_PY, "Lakeflow pipeline"),
        ("app.py", APP, "app"),
        ("tests/test_jobs.py", "df.write.saveAsTable('s.t')\n", "test"),
    ],
)
def test_files_that_are_not_databricks_jobs_are_skipped_with_their_kind(name, text, kind):
    got, result = read(text, name)
    assert result.skipped == kind and got == [] and result.diagnostics == []


@pytest.mark.parametrize(
    "name,text",
    [
        ("job.sql", "MERGE INTO s.t USING u ON s.t.id = u.id WHEN MATCHED THEN UPDATE SET *;\n"),
        ("ddl.sql", "CREATE TABLE s.t (id BIGINT GENERATED ALWAYS AS IDENTITY) USING DELTA;\nGO_ON = 1;\n"),
        ("tpl.sql", "DELETE FROM ${catalog}.s.t WHERE d < current_date() - 30;\n"),
        ("casts.sql", "INSERT INTO s.t SELECT id::bigint, `name` FROM s.src;\n"),
        ("job.py", "df.write.saveAsTable('s.t')\n"),
    ],
)
def test_databricks_files_with_look_alike_signs_are_still_linted(name, text):
    got, result = read(text, name)
    assert result.skipped is None and got


def test_tables_created_with_another_format_make_no_intent_and_no_error():
    got, result = read(
        "CREATE TABLE IF NOT EXISTS jdbc_orders USING org.apache.spark.sql.jdbc OPTIONS (url 'jdbc:x', dbtable 'o');\n"
        "CREATE TABLE raw.events (id INT) USING parquet LOCATION '/mnt/raw/events';\n",
        "setup.sql",
    )
    assert got == [] and result.diagnostics == []


def test_a_helper_write_that_reads_no_parameter_stays_where_it_is_written():
    code = (
        "class Job:\n"
        "    def write(self, df):\n"
        '        df.write.mode("append").saveAsTable("main.s.fixed")\n'
        "    def run(self, df):\n"
        "        self.write(df)\n"
        "def save(df, t):\n"
        '    df.write.mode("append").saveAsTable(t)\n'
        'save(x, "main.s.a")\n'
    )
    got, _ = read(code)
    assert got == [(3, "main.s.fixed", "blind_append"), (8, "main.s.a", "blind_append")]


def test_workspace_paths_start_no_engine_and_print_no_missing_table_note(tmp_path):
    from delta_lint.config import Config
    from delta_lint.settings.live import read_settings

    names = {"delta:/mnt/lake/orders", "delta:dbfs:/lake/x", "delta:/Volumes/main/raw/files"}
    read = read_settings(names, Config(root=tmp_path, snapshot="none.lock.yaml"))
    assert read.mode == "none" and read.problems == {}
    # a local folder is still read (and said to hold no table)
    local = read_settings({f"delta:{tmp_path}/t"}, Config(root=tmp_path, snapshot="none.lock.yaml"))
    assert local.mode == "embedded" and "no Delta table" in local.problems[f"delta:{tmp_path}/t"]


# -- settings the workload's own code gives a table (defect 7) ----------------------------------


def _settings(code: str) -> dict:
    from delta_lint.settings import TableNames, declared_by_workload

    _, result = read(code)
    return declared_by_workload(result.intents, TableNames())


def test_partitioning_and_clustering_declared_by_the_writing_code_are_the_tables_settings():
    got = _settings(
        'df.write.format("delta").partitionBy("country").mode("overwrite").saveAsTable("s.a")\n'
        'df.write.clusterBy("id").saveAsTable("s.b")\n'
        'spark.sql("CREATE TABLE IF NOT EXISTS s.c (id INT, d DATE) USING DELTA PARTITIONED BY (d)")\n'
    )
    assert got["s.a"].partitioned_by == ("country",)
    assert got["s.b"].clustered_by == ("id",)
    assert got["s.c"].partitioned_by == ("d",)


def test_alter_table_set_tblproperties_amends_what_create_declared():
    got = _settings(
        'spark.sql("CREATE TABLE s.d (id INT) USING DELTA PARTITIONED BY (id)")\n'
        "spark.sql(\"ALTER TABLE s.d SET TBLPROPERTIES ('delta.enableDeletionVectors' = true, "
        "'delta.isolationLevel' = 'Serializable')\")\n"
        'spark.sql("ALTER TABLE s.e CLUSTER BY (k)")\n'
    )
    assert got["s.d"].partitioned_by == ("id",)
    assert got["s.d"].deletion_vectors is True and got["s.d"].isolation_level == "Serializable"
    assert got["s.e"].clustered_by == ("k",)
    # a property delta-lint does not model changes nothing
    other = _settings("spark.sql(\"ALTER TABLE s.f SET TBLPROPERTIES ('delta.appendOnly' = true)\")\n")
    assert "s.f" not in other


def test_a_merge_on_a_table_partitioned_by_its_setup_code_is_judged_partitioned(lint):
    setup = "spark.sql('CREATE TABLE IF NOT EXISTS main.s.t (id INT, day DATE) USING DELTA PARTITIONED BY (day)')\n"
    merge = (
        "spark.sql(\"MERGE INTO main.s.t t USING u ON t.id = u.id AND t.day = '{d}' "
        'WHEN MATCHED THEN UPDATE SET *".format(d="2024-01-0%s"))\n'
    )
    result = lint({"setup.py": setup, "a.py": merge % "1", "b.py": merge % "2"})
    assert not [f for f in result.findings if f.rule == "DL102"]  # different partitions
    result = lint({"setup.py": "", "a.py": merge % "1", "b.py": merge % "2"})  # no setup: assumed unpartitioned
    assert [f for f in result.findings if f.rule == "DL102"]


def test_a_zorder_conflict_is_not_told_to_enable_deletion_vectors(lint):
    result = lint({"a.sql": "OPTIMIZE main.s.t ZORDER BY (id);\n", "b.sql": "DELETE FROM main.s.t WHERE id = 3;\n"})
    (finding,) = [f for f in result.findings if f.location.path == "a.sql"]
    assert "deletion vectors" not in finding.fix and "liquid clustering" in finding.fix
    plain = lint({"a.sql": "OPTIMIZE main.s.t;\n", "b.sql": "DELETE FROM main.s.t WHERE id = 3;\n"})
    (compaction,) = [f for f in plain.findings if f.location.path == "a.sql"]
    assert "enableDeletionVectors" in compaction.fix  # there deletion vectors do remove the conflict


# -- values delta-lint cannot know equal nothing (defect 8) -------------------------------------


def test_two_functions_parameters_of_one_name_are_not_one_checkpoint(lint):
    code = (
        "def %s(checkpoint_location):\n"
        "    src.writeStream.option('checkpointLocation', checkpoint_location).toTable('main.s.%s')\n"
    )
    files = {"bronze.py": code % ("bronze", "bronze"), "silver.py": code % ("silver", "silver")}
    assert not [f for f in lint(files).findings if f.rule == "DL120"]
    shared = {name: text.replace(", checkpoint_location)", ", '/chk/one')") for name, text in files.items()}
    assert [f for f in lint(shared).findings if f.rule == "DL120"]


# -- templating dialects (capability 5) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "table"),
    [
        ("DELETE FROM <catalog>.sales.orders WHERE id = 1", "{catalog}.sales.orders"),
        ("INSERT INTO <your_schema>.kpis SELECT * FROM t", "{your_schema}.kpis"),
        ("DELETE FROM $catalog.$schema.orders WHERE id = 1", "{catalog}.{schema}.orders"),
        ("DELETE FROM {{ catalog }}.sales.orders WHERE id = 1", "{catalog}.sales.orders"),
        ("DELETE FROM IDENTIFIER(:cat || '.' || :sch || '.orders') WHERE id = 1", "{cat}.{sch}.orders"),
    ],
)
def test_placeholders_in_table_names_become_parameters(sql, table):
    got, result = read(sql, "job.sql")
    assert [t for _, t, _ in got] == [table]
    assert not [m for m in messages(result) if m.startswith("DL000")]


def test_angle_brackets_of_types_and_comparisons_are_not_placeholders():
    got, result = read(
        "CREATE TABLE s.t (a ARRAY<STRING>, m MAP<STRING,INT>) USING DELTA;\nDELETE FROM s.t WHERE a<b AND c>d;\n",
        "job.sql",
    )
    assert [t for _, t, _ in got] == ["s.t", "s.t"]
    assert result.intents[1].predicate_sql == "a < b AND c > d"


# -- objects of the file's classes (self.x) -----------------------------------------------------------

LOGGER = """
class RunLog:
    def __init__(self, run_id, catalog="main"):
        self.run_id = run_id
        schema = "ops"
        self.table = f"{catalog}.{schema}.runs"
    def _mark(self, status):
        spark.sql(f"UPDATE {self.table} SET status = '{status}' WHERE run = '{self.run_id}'")
    def start(self):
        self._mark("STARTED")
        return self
    def finish(self):
        self._mark("DONE")
"""


def test_methods_read_self_attributes_set_by_init_at_each_call():
    code = LOGGER + (
        "log = RunLog(run_id='r1').start()\n"  # line 14: start() returns the object
        "log.finish()\n"
        "RunLog('r2', catalog='dev').finish()\n"
    )
    got, _ = read(code)
    assert got == [(14, "main.ops.runs", "update"), (15, "main.ops.runs", "update"), (16, "dev.ops.runs", "update")]


def test_an_object_of_which_nothing_is_known_keeps_its_writes_where_they_are_written():
    code = LOGGER.replace('schema = "ops"', "schema = load()").replace("{catalog}.{schema}", "{schema}") + (
        "log = RunLog(run_id=job_run_id)\nlog.finish()\n"
    )
    got, _ = read(code)
    assert [line for line, _, _ in got] == [8]  # the method's own line, as without the object


# -- feature tables -------------------------------------------------------------------------------------


def test_feature_store_tables_are_delta_writes():
    code = (
        "from databricks import feature_store\n"
        "fs = feature_store.FeatureStoreClient()\n"
        "fs.create_table(name='hive_metastore.features.orders', primary_keys='order_id', schema=df.schema)\n"
        "fs.write_table(name='hive_metastore.features.orders', df=df, mode='overwrite')\n"
        "fs.write_table('hive_metastore.features.orders', df)\n"  # the default mode merges on the keys
        "other.create_table(name='not.a.feature_table')\n"
        "spark.catalog.createTable('x.y')\n"
    )
    got, _ = read(code)
    assert got == [
        (3, "hive_metastore.features.orders", "create"),
        (4, "hive_metastore.features.orders", "full_overwrite"),
        (5, "hive_metastore.features.orders", "merge"),
    ]


# -- loops that unpack literal rows ------------------------------------------------------


def test_a_loop_unpacking_literal_tuples_or_dict_items_runs_once_per_row():
    code = (
        't = "c.s.log"\n'
        'for name, kind in [("a", "STRING"), ("b", "INT")]:\n'
        '    spark.sql(f"ALTER TABLE {t} ADD COLUMNS ({name} {kind})")\n'
        'for table, day in {"c.s.u": "1", "c.s.w": "2"}.items():\n'
        "    spark.sql(f\"DELETE FROM {table} WHERE day = '{day}'\")\n"
    )
    got, result = read(code)
    assert got == [(3, "c.s.log", "metadata_change")] * 2 + [(5, "c.s.u", "delete"), (5, "c.s.w", "delete")]
    assert [i.predicate_sql for i in result.intents[2:]] == ["day = '1'", "day = '2'"]
    assert not messages(result)
    # rows of another width, or not all literal, bind nothing: the names stay unknown
    _, unknown = read('for a, b in [("x", "y", "z")]:\n    spark.sql(f"DELETE FROM c.s.{a} WHERE k = 1")\n')
    assert [i.table.name for i in unknown.intents] == ["c.s.{each_a}"]


# -- methods of a known object ---------------------------------------------------------------

RUN_LOG = (
    'log_table = "c.s.log"\n'
    "class RunLog:\n"
    "    def __init__(self, run_id, job):\n"
    "        self.run_id = str(run_id)\n"
    "        self.job = job\n"
    "    def start(self):\n"
    "        self._upsert('STARTED')\n"
    "        return self\n"
    "    def _upsert(self, status):\n"
    "        DeltaTable.forName(spark, log_table).alias('t').merge(src.alias('s'), 't.run_id = s.run_id')"
    ".whenMatchedUpdateAll().execute()\n"
    "    def mark(self, value):\n"
    "        spark.sql(f\"UPDATE {log_table} SET v = '{value}' WHERE run_id = '{self.run_id}'\")\n"
)


def test_a_method_called_on_a_known_object_writes_at_each_call():
    """The job's lines that run the write are the calls (`log.start()`, `log.mark()`),
    also when the write reads none of the call's values or an attribute the object
    does not know (`self.run_id` from the run's context)."""
    code = RUN_LOG + (
        "log = RunLog(run_id=context.jobRunId().get(), job='daily').start()\n"  # line 13
        "log.mark('x')\n"
        "log._upsert('DONE')\n"
    )
    got, _ = read(code)
    assert got == [(13, "c.s.log", "merge"), (14, "c.s.log", "update"), (15, "c.s.log", "merge")]
    # an object of which nothing is known: its methods are read where they are written
    unknown = RUN_LOG + "log = RunLog(context.jobRunId().get(), context.job()).start()\nlog.mark('x')\n"
    got, _ = read(unknown)
    assert got == [(7, "c.s.log", "merge"), (12, "c.s.log", "update")]


def test_attributes_set_in_init_read_the_ones_set_before_them():
    code = (
        "class Importer:\n"
        "    def __init__(self, catalog, schema, table):\n"
        "        self.catalog = catalog.strip()\n"
        "        self.schema = schema.strip()\n"
        '        self.fqn = f"`{self.catalog}`.`{self.schema}`.`{table}`"\n'
        "    def load(self):\n"
        '        spark.sql(f"DELETE FROM {self.fqn} WHERE day = 1")\n'
        "Importer('main', 'ops', 'events').load()\n"
        "Importer(dbutils.widgets.get('c'), 'ops', 'events').load()\n"
    )
    got, _ = read(code)
    assert got == [(8, "main.ops.events", "delete"), (9, "{c}.ops.events", "delete")]


def test_a_widget_default_taken_from_a_literal_list_binds_the_widget():
    code = (
        'SCALES = ["10", "100"]\n'
        'dbutils.widgets.dropdown("scale", SCALES[0], SCALES)\n'
        'dbutils.widgets.text("db", "")\n'
        "sf = dbutils.widgets.get('scale')\n"
        "db = dbutils.widgets.get('db')\n"
        'spark.sql(f"DELETE FROM tpcdi.{db}_{sf}.t WHERE a = 1")\n'
    )
    got, _ = read(code)
    assert got == [(6, "tpcdi.{db}_10.t", "delete")]  # an empty default binds nothing


def test_a_python_3_12_f_string_is_read():
    """One that reuses its quote, and one with a backslash in a field, are read
    (tests/test_python_versions.py); an f-string Python 3.12 refuses too is a DL000,
    and another syntax error says nothing of f-strings."""
    _, result = read('x = {"a": 1}\ny = f"*{x["a"]}*"\n')
    assert not [m for m in messages(result) if m.startswith("DL000")]
    _, result = read("x = ['a']\ny = f\"*{'\\n'.join(x)}*\"\n")
    assert not [m for m in messages(result) if m.startswith("DL000")]
    _, result = read('x = 1\ny = f"*{x!z}*"\n')
    assert [m for m in messages(result) if m.startswith("DL000")]
    _, other = read("def f(:\n    pass\n")
    assert not any("3.12" in m for m in messages(other))


# -- DDL whose clauses are templates ---------------------------------------------------


def test_a_create_whose_columns_and_properties_are_templates_is_still_a_create():
    sql = "CREATE OR REPLACE TABLE s.dim (\n  ${tgt_schema}\n  ${constraints}\n)\nTBLPROPERTIES (${tbl_props});\n"
    got, result = read(sql, "dim.sql")
    assert got == [(1, "s.dim", "create_or_replace")]
    assert not [m for m in messages(result) if m.startswith("DL000")]
    # what the templated clauses say is not known: the CREATE declares no settings
    assert result.intents[0].declared is None
    # the query of an INSERT is not a clause to pass over: its text is the run's, and said so
    _, insert = read("INSERT INTO s.dim\n${source_sql};\n", "insert.sql")
    assert [m for m in messages(insert) if m.startswith("DL007")]


def test_an_optimize_whose_where_and_zorder_are_templates_has_an_unknown_condition():
    got, result = read('spark.sql(f"OPTIMIZE delta.`{path}` {where_sql} {z_order_sql}")\n')
    assert got == [(1, "delta:{path}", "optimize")]
    assert "opaque_condition" in {f.value for f in result.intents[0].flags}
    # a templated value in a written WHERE is read as before
    _, plain = read("spark.sql(f\"OPTIMIZE s.t WHERE day = '{d}'\")\n")
    assert "opaque_condition" not in {f.value for f in plain.intents[0].flags}


def test_a_templated_clone_type_is_still_a_clone():
    got, result = read('spark.sql(f"CREATE OR REPLACE TABLE s.t {clone_type} CLONE s.staging_t")\n')
    assert got == [(1, "s.t", "create_or_replace")]
    assert result.intents[0].subkind == "clone"


HELPER_WITH_OPTIONAL_CLAUSES = """
def create_table(spark, path, schema_ddl, partition_cols=None, z_order_cols=None):
    partition_sql = f"PARTITIONED BY ({', '.join(partition_cols)})" if partition_cols else ""
    spark.sql(f"CREATE TABLE delta.`{path}` ({schema_ddl}) USING DELTA {partition_sql}")
    z_order_sql = f"ZORDER BY ({', '.join(z_order_cols)})" if z_order_cols is not None else ""
    spark.sql(f"OPTIMIZE delta.`{path}` {z_order_sql}")

create_table(spark, "/lake/orders", "id INT, day DATE", partition_cols=["day"], z_order_cols=["id"])
create_table(spark, "/lake/events", "id INT")
"""


def test_an_optional_clause_chosen_by_a_known_argument_is_read_at_each_call():
    got, result = read(HELPER_WITH_OPTIONAL_CLAUSES)
    assert sorted(got) == [
        (8, "delta:/lake/orders", "create"),
        (8, "delta:/lake/orders", "optimize_zorder"),
        (9, "delta:/lake/events", "create"),
        (9, "delta:/lake/events", "optimize"),
    ]
    by = {(i.table.name, i.kind.value): i for i in result.intents}
    assert by["delta:/lake/orders", "create"].declared.partitioned_by == ("day",)
    assert by["delta:/lake/events", "create"].declared.partitioned_by == ()  # `None`: no clause
    assert by["delta:/lake/orders", "optimize_zorder"].zorder_by == ("id",)
    assert not any(f.value == "opaque_condition" for i in result.intents for f in i.flags)


def test_an_optional_clause_chosen_by_an_unknown_value_stays_unknown():
    code = HELPER_WITH_OPTIONAL_CLAUSES.split("\ncreate_table(")[0] + "\ncreate_table(spark, p, s, cols, z)\n"
    _, result = read(code)
    (create,) = [i for i in result.intents if i.kind.value == "create"]
    assert create.declared is None  # the partition clause may be there or not


# -- environment variables and `or` ------------------------------------------------------


def test_an_environment_variable_with_a_default_reads_the_default():
    code = (
        "import os\n"
        "spark.sql(f\"DELETE FROM {os.getenv('SCHEMA', 'sales')}.a WHERE x = 1\")\n"
        "spark.sql(f\"DELETE FROM {os.environ.get('SCHEMA', default='sales')}.b WHERE x = 1\")\n"
        "spark.sql(f\"DELETE FROM {os.getenv('SCHEMA')}.c WHERE x = 1\")\n"
    )
    got, _ = read(code)
    # without a default the variable stays a parameter: no value is invented
    assert got == [(2, "sales.a", "delete"), (3, "sales.b", "delete"), (4, "{SCHEMA}.c", "delete")]


def test_or_takes_the_first_value_known_to_be_true():
    code = (
        "import os\n"
        "def load_config(env=None):\n"
        '    env = env or os.getenv("ENV_NAME", "dev")\n'
        "    return env\n"
        "a, b, c = load_config(), load_config('prod'), load_config(dbutils.widgets.get('env'))\n"
        'spark.sql(f"DELETE FROM {a}_db.t WHERE x = 1")\n'
        'spark.sql(f"DELETE FROM {b}_db.t WHERE x = 1")\n'
        'spark.sql(f"DELETE FROM {c}_db.t WHERE x = 1")\n'
    )
    got, _ = read(code)
    assert got[:2] == [(6, "dev_db.t", "delete"), (7, "prod_db.t", "delete")]
    # a value only a run knows may be empty or not: one of the input and the default
    assert sorted(t for _, t, _ in got[2:]) == ["dev_db.t", "{env}_db.t"]


# -- SQL a warehouse runs for the code ----------------------------------------------------


def test_statements_sent_to_a_sql_warehouse_are_writes_in_the_warehouse_session():
    code = (
        'spark.sql("USE CATALOG dev")\n'
        "w.statement_execution.execute_statement(\n"
        '    statement="DELETE FROM orders WHERE day = 1", warehouse_id=wid, catalog="prod", schema="ops")\n'
        'see.execute(statement="CREATE TABLE IF NOT EXISTS main.app.code_intent (id BIGINT)")\n'
        'see.fetch_all(statement="UPDATE main.app.prompts SET n = 1 WHERE id = 2")\n'
    )
    got, _ = read(code)
    # the warehouse does not run the notebook's USE: its catalog and schema are the call's
    assert got == [
        (2, "prod.ops.orders", "delete"),
        (4, "main.app.code_intent", "create"),
        (5, "main.app.prompts", "update"),
    ]


def test_a_db_api_cursor_execute_is_not_a_delta_write():
    # pyodbc, JDBC bridges, sqlite: `execute(sql)` without `statement=` is another database's
    got, _ = read('cursor.execute("DELETE FROM dbo.orders WHERE day = 1")\nconn.execute(sql="DELETE FROM t")\n')
    assert got == []


def test_a_list_the_code_fills_in_place_is_not_its_literal():
    # `tables = []` then `tables.append(t)`: the loop runs over what the run adds, not
    # over nothing; its write is kept (with an unknown name), not dropped
    code = (
        "tables = []\n"
        "for n in names:\n"
        "    tables.append(n)\n"
        "for t in tables:\n"
        '    spark.sql(f"DELETE FROM s.t_{t} WHERE x = 1")\n'
        'done = ["a"]\n'
        "done += extra\n"
        "for t in done:\n"
        '    spark.sql(f"DELETE FROM s.u_{t} WHERE x = 1")\n'
    )
    got, _ = read(code)
    assert got == [(5, "s.t_{each_t}", "delete"), (9, "s.u_{each_t}", "delete")]
    # a literal list nothing changes still runs once per element
    got, _ = read('for t in ["a", "b"]:\n    spark.sql(f"DELETE FROM s.t_{t} WHERE x = 1")\n')
    assert got == [(2, "s.t_a", "delete"), (2, "s.t_b", "delete")]


def test_a_list_filled_in_place_decides_no_optional_clause():
    code = (
        "cols = []\n"
        "cols.append(c)\n"
        'p = f"PARTITIONED BY ({\', \'.join(cols)})" if cols else ""\n'
        'spark.sql(f"CREATE TABLE s.t (id INT) USING DELTA {p}")\n'
    )
    _, result = read(code)
    (create,) = result.intents
    assert create.declared is None  # not "unpartitioned": the clause is not known
    _, literal = read(code.replace("cols.append(c)\n", ""))
    assert literal.intents[0].declared.partitioned_by == ()


def test_an_alter_table_whose_change_a_template_fills_is_a_change_of_that_table():
    """`ALTER TABLE t SET TBLPROPERTIES ({props})` (properties built at run time),
    `ALTER COLUMN {c} SET NOT NULL`: the table is known, what changes only a run
    knows: a metadata change of the table, not a DL000. Near misses: literal
    properties read as before, a change that is a template as a whole names no
    internal marker, and a template in the table's name stays a dynamic name."""
    code = (
        'spark.sql(f"ALTER TABLE s.orders SET TBLPROPERTIES ({props_sql})")\n'
        'spark.sql(f"ALTER TABLE s.orders ALTER COLUMN {c} SET NOT NULL")\n'
        "spark.sql(\"ALTER TABLE s.orders SET TBLPROPERTIES ('owner' = 'x')\")\n"
        'spark.sql(f"ALTER TABLE s.orders {op}")\n'
        'spark.sql(f"ALTER TABLE s.{t} SET TBLPROPERTIES ({props_sql})")\n'
    )
    got, result = read(code)
    assert got == [
        (1, "s.orders", "metadata_change"),
        (2, "s.orders", "metadata_change"),
        (3, "s.orders", "metadata_change"),
        (4, "s.orders", "metadata_change"),
        (5, "s.{t}", "metadata_change"),
    ]
    assert [i.subkind for i in result.intents][:4] == [
        "set_tblproperties",
        "alter_column",
        "set_tblproperties",
        "alter",
    ]
    assert [d.rule for d in result.diagnostics if d.rule == "DL000"] == []


# -- the value a DeltaTable builder returns ------------------------------------------------


@pytest.mark.parametrize("builder", ["createIfNotExists", "create", "createOrReplace", "replace"])
def test_the_delta_table_a_builder_returns_is_the_table_it_names(builder):
    code = (
        "from delta.tables import DeltaTable\n"
        f'dt = DeltaTable.{builder}(spark).tableName("s.t").addColumn("id", "INT").execute()\n'
        'dt.alias("t").merge(src.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'
        'dt.delete("id = 3")\n'
        'dt.update("id = 4", {"x": "1"})\n'
        'dt.optimize().where("d = 1").executeCompaction()\n'
    )
    got, _ = read(code)
    assert [(line, table, kind) for line, table, kind in got if line > 2] == [
        (3, "s.t", "merge"),
        (4, "s.t", "delete"),
        (5, "s.t", "update"),
        (6, "s.t", "optimize"),
    ]


def test_a_builder_with_a_location_returns_the_delta_table_at_that_path():
    code = (
        'dt = DeltaTable.createIfNotExists(spark).location("/mnt/x/t").addColumn("id", "INT").execute()\n'
        'dt.delete("id = 3")\n'
    )
    got, _ = read(code)
    assert got == [(1, "delta:/mnt/x/t", "create"), (2, "delta:/mnt/x/t", "delete")]


def test_a_builder_that_names_no_table_or_another_library_builder_gives_no_table():
    # no name and no location: the DeltaTable it returns is not known
    code = 'dt = DeltaTable.create(spark).addColumn("id", "INT").execute()\ndt.delete("id = 3")\n'
    got, _ = read(code)
    assert all(table != "s.t" for _, table, _ in got)
    # a builder of something else that happens to use the same method names
    code = 'dt = Other.create(spark).tableName("s.t").execute()\ndt.delete("id = 3")\n'
    got, _ = read(code)
    assert got == []


# -- methods of an object whose state is unknown ------------------------------------------

_STORE = (
    "class Store:\n"
    "    def __init__(self, spark, conf):\n"
    "        self.spark = spark\n"
    "        self.conf = conf\n"
    "\n"
    "    def save(self, table, df):\n"
    '        df.write.mode("overwrite").saveAsTable(table)\n'
    "\n"
    "    def save_in(self, name, df):\n"
    '        df.write.mode("overwrite").saveAsTable(f"{self.conf}.{name}")\n'
    "\n"
)


def test_a_method_of_an_object_of_unknown_state_binds_its_own_arguments():
    code = _STORE + 'w = Store(spark, load())\nw.save("main.x.y", df)\nw.save_in("y", df)\n'
    got, _ = read(code)
    assert got == [(13, "main.x.y", "full_overwrite"), (14, "{self_conf}.y", "full_overwrite")]
    # the object's own state stays unknown: `self.conf` is never invented
    assert all("load" not in table for _, table, _ in got)


def test_a_method_that_reads_only_unknown_state_stays_where_it_is_written():
    code = (
        "class Log:\n"
        "    def __init__(self, conf):\n"
        '        self.table = conf["t"]\n'
        "\n"
        "    def flush(self):\n"
        '        df.write.mode("append").saveAsTable(self.table)\n'
        "\n"
        "log = Log(load())\n"
        "log.flush()\n"
        "log.flush()\n"
    )
    got, _ = read(code)
    assert got == [(6, "{self_table}", "blind_append")]
    # an object that is not one of the file's classes is not followed
    got, _ = read(_STORE.replace("class Store", "class Other") + 'w = Store(spark, load())\nw.save("main.x.y", df)\n')
    assert got == [(7, "{table}", "full_overwrite"), (10, "{self_conf}.{name}", "full_overwrite")]


# -- `.format()` with a value only a run knows, loops over a dict ---------------------------


def test_a_format_with_one_unknown_argument_keeps_its_template():
    code = "T = \"DELETE FROM s.c WHERE d = '{}'\"\nq = T.format(compute())\nspark.sql(q)\n"
    got, result = read(code)
    assert got == [(3, "s.c", "delete")]
    assert result.intents[0].predicate_sql == "d = '{compute}'"
    assert not any(m.startswith("DL007") for m in messages(result))
    # a template nothing knows stays a whole-statement placeholder, said so
    got, result = read("q = tmpl.format(compute())\nspark.sql(q)\n")
    assert got == []
    assert any(m.startswith("DL007") for m in messages(result))


def test_a_loop_over_a_literal_dict_reads_its_keys_values_and_items():
    code = (
        'QUERIES = {"a": "DELETE FROM s.a WHERE d = \'{}\'", "b": "DELETE FROM s.b WHERE d = \'{}\'"}\n'
        "for k in QUERIES:\n"
        "    spark.sql(QUERIES[k].format(run_date()))\n"
        "for q in QUERIES.values():\n"
        "    spark.sql(q.format(run_date()))\n"
        "for k, q in QUERIES.items():\n"
        "    spark.sql(q.format(run_date()))\n"
    )
    got, result = read(code)
    assert got == [(line, f"s.{t}", "delete") for line in (3, 5, 7) for t in "ab"]
    assert not any(m.startswith("DL007") for m in messages(result))


def test_a_dict_with_a_value_not_known_still_runs_once_per_key():
    code = (
        'CONF = {"a": load(), "b": "x"}\n'
        "for k in CONF:\n"
        '    spark.sql(f"DELETE FROM s.t_{k} WHERE y = 1")\n'
        "for v in CONF.values():\n"
        '    spark.sql(f"DELETE FROM s.u_{v} WHERE y = 1")\n'
    )
    got, _ = read(code)
    # every key, not only those with known values; a loop over the values runs once
    # per value, a value not known that turn's item, never a job input
    assert got == [
        (3, "s.t_a", "delete"),
        (3, "s.t_b", "delete"),
        (5, "s.u_{each_v}", "delete"),
        (5, "s.u_x", "delete"),
    ]
    # a key only a run knows reads one of the dict's values (a key it lacks raises and
    # runs nothing): here its only one; a dict the code changes stays unknown
    got, result = read('CONF = {"a": "DELETE FROM s.a"}\nspark.sql(CONF[key])\n')
    assert got == [(2, "s.a", "delete")]
    got, result = read('CONF = {"a": "DELETE FROM s.a"}\nCONF[k] = load()\nspark.sql(CONF[key])\n')
    assert got == [] and any(m.startswith("DL007") for m in messages(result))


# -- legacy `$name` templating glued to an identifier ---------------------------------------


def test_legacy_templating_glued_to_an_identifier_is_part_of_the_name():
    code = (
        "DELETE FROM db.visits_$year WHERE x = 1;\n"
        "INSERT INTO db.out SELECT * FROM db.visits_$year v;\n"
        "INSERT INTO db.visits_${year} SELECT * FROM db.visits_$year;\n"
    )
    got, result = read(code, "job.sql")
    # the read of line 3 is the table it writes: `$year` and `${year}` are one parameter
    assert got == [
        (1, "db.visits_{year}", "delete"),
        (2, "db.out", "blind_append"),
        (3, "db.visits_{year}", "insert_reading_target"),
    ]
    assert not any(m.startswith("DL000") for m in messages(result))


def test_legacy_templating_in_a_notebook_sql_cell_and_inside_a_string():
    notebook = "# Databricks notebook source\n# MAGIC %sql\n# MAGIC DELETE FROM db.t_$env WHERE x = 1\n"
    got, _ = read(notebook, "nb.py")
    assert got == [(3, "db.t_{env}", "delete")]
    # inside a string literal a `$` is text, not a parameter
    got, result = read("DELETE FROM db.w WHERE x = 'a$b';\n", "job.sql")
    assert got == [(1, "db.w", "delete")] and result.intents[0].params == ()
