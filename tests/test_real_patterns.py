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
        "DeltaTable": "delta.tables",
        "DeltaMergeBuilder": "delta.tables",
        "DeltaOptimizeBuilder": "delta.tables",
        "DeltaTableBuilder": "delta.tables",
    }
    module = pytest.importorskip(modules[owner])
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
        "%sh ls /dbfs\n"
        "df.write.mode('append').saveAsTable('s.t')\n"
    )
    got, result = read(code)
    assert got == [(7, "s.t", "blind_append")]
    assert not messages(result)


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
