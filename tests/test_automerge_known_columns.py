"""Schema evolution (the session's autoMerge, `mergeSchema`) changes a table's
metadata only when the rows bring a column the table lacks (conflict-semantics:
auto-merge is a metadata change when the schema changes). An append whose columns
the code states in full (`INSERT INTO t (a, b) ...`, a frame made with a literal
schema: a DDL string, a list of names, a StructType) and that are all columns the
workload's CREATE TABLE declares is a plain append. Where the columns are not known,
or the table's are not declared, the pair is kept and says what is assumed."""

from __future__ import annotations

import pytest

PARALLEL = {"jobs": {"a": {"paths": ["a.py"], "concurrent_runs": 2}}}
HEAD = (
    'spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")\n'
    'spark.sql("CREATE TABLE IF NOT EXISTS ops.audit.log (pipeline STRING, n BIGINT) USING DELTA")\n'
)


def _evolution(result) -> list[tuple[str, str]]:
    return [(f.rule, f.severity, f.message) for f in result.findings if f.rule in ("DL110", "DL111")]


@pytest.mark.parametrize(
    "append",
    [
        "spark.sql(\"INSERT INTO ops.audit.log (pipeline, n) VALUES ('a', 1)\")\n",
        'spark.createDataFrame([(p, c)], "pipeline STRING, n BIGINT").write.mode("append").saveAsTable("ops.audit.log")\n',
        'spark.createDataFrame([(p, c)], ["pipeline", "n"]).write.mode("append").saveAsTable("ops.audit.log")\n',
        "from pyspark.sql.types import StructType, StructField, StringType, LongType\n"
        "spark.createDataFrame([(p, c)], schema=StructType([StructField('pipeline', StringType()), "
        "StructField('n', LongType())])).write.mode('append').saveAsTable('ops.audit.log')\n",
    ],
)
def test_an_append_of_the_tables_own_columns_changes_no_schema(lint, append):
    assert _evolution(lint({"a.py": HEAD + append}, PARALLEL)) == []


@pytest.mark.parametrize(
    "append",
    [
        # a column the table lacks: the schema changes
        "spark.sql(\"INSERT INTO ops.audit.log (pipeline, n, extra) VALUES ('a', 1, 2)\")\n",
        'spark.createDataFrame([(p, c, 1)], "pipeline STRING, n BIGINT, extra INT")'
        '.write.mode("append").saveAsTable("ops.audit.log")\n',
    ],
)
def test_an_append_bringing_another_column_evolves_the_schema(lint, append):
    found = _evolution(lint({"a.py": HEAD + append}, PARALLEL))
    assert [(r, s) for r, s, _ in found] == [("DL111", "warning")]


def test_columns_not_known_are_assumed_to_evolve_and_the_finding_says_so(lint):
    found = _evolution(lint({"a.py": HEAD + 'df.write.mode("append").saveAsTable("ops.audit.log")\n'}, PARALLEL))
    assert [(r, s) for r, s, _ in found] == [("DL111", "warning")]
    assert "the columns its rows bring are not known" in found[0][2]


def test_a_table_whose_columns_are_not_declared_keeps_the_pair(lint):
    source = (
        'spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")\n'
        "spark.sql(\"INSERT INTO ops.audit.log (pipeline, n) VALUES ('a', 1)\")\n"
    )
    found = _evolution(lint({"a.py": source}, PARALLEL))
    assert [(r, s) for r, s, _ in found] == [("DL111", "warning")]
    assert "the table's columns are not declared" in found[0][2]


SCHEMA = (
    "from pyspark.sql.types import StructType, StructField, StringType, LongType\n"
    "AUDIT = StructType([StructField('pipeline', StringType()), StructField('n', LongType())])\n"
)


@pytest.mark.parametrize(
    "append",
    [
        # a schema bound once to a name, then used
        SCHEMA + "spark.createDataFrame([(p, c)], schema=AUDIT).write.mode('append').saveAsTable('ops.audit.log')\n",
        # a frame made on a line of its own, written below
        SCHEMA
        + "rows = spark.createDataFrame([(p, c)], AUDIT)\nrows.write.mode('append').saveAsTable('ops.audit.log')\n",
        # the file's own helper, reading the module's schema
        SCHEMA + "def log_row(p, c):\n"
        "    spark.createDataFrame([(p, c)], schema=AUDIT).write.mode('append').saveAsTable('ops.audit.log')\n"
        "log_row('a', 1)\n",
        # a DDL string bound to a name
        "DDL = 'pipeline STRING, n BIGINT'\n"
        "spark.createDataFrame([(p, c)], DDL).write.mode('append').saveAsTable('ops.audit.log')\n",
    ],
)
def test_a_schema_or_frame_bound_to_a_name_states_its_columns(lint, append):
    assert _evolution(lint({"a.py": HEAD + append}, PARALLEL)) == []


@pytest.mark.parametrize(
    "append",
    [
        # the schema changed in place: a column the table lacks
        SCHEMA + "AUDIT.add('extra', LongType())\n"
        "spark.createDataFrame([(p, c, 1)], schema=AUDIT).write.mode('append').saveAsTable('ops.audit.log')\n",
        # bound twice: which schema a write uses is not told by the name alone
        SCHEMA + "if flag:\n    AUDIT = StructType([StructField('extra', LongType())])\n"
        "spark.createDataFrame([(p, c)], schema=AUDIT).write.mode('append').saveAsTable('ops.audit.log')\n",
        # a helper's parameter of the same name: the caller's schema, not the module's
        SCHEMA + "def log_row(AUDIT):\n"
        "    spark.createDataFrame([('a', 1)], schema=AUDIT).write.mode('append').saveAsTable('ops.audit.log')\n"
        "log_row(other_schema)\n",
        # a frame name bound to another frame in a loop
        SCHEMA + "rows = spark.createDataFrame([(p, c)], AUDIT)\nfor rows in frames:\n"
        "    rows.write.mode('append').saveAsTable('ops.audit.log')\n",
    ],
)
def test_a_name_that_may_hold_another_schema_states_no_columns(lint, append):
    found = _evolution(lint({"a.py": HEAD + append}, PARALLEL))
    assert [(r, s) for r, s, _ in found] == [("DL111", "warning")]
