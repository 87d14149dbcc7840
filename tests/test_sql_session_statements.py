"""Session statements sqlglot does not parse: valid Databricks SQL that sets the
session's catalog or schema (`USE IDENTIFIER(...)`, `SET CATALOG`, a quoted catalog)
or writes nothing (query tags, the time zone, reading or resetting the
configuration, the session's resources). None of them is a parse error (DL000); a
`USE` whose name only a run knows makes the names that lean on it unresolved, with a
note, instead of keeping the old catalog and schema."""

from __future__ import annotations

import pytest

CONFIG = {"spark": "none", "runtime": "oss"}
# a second job writing the table the script's INSERT names: a conflict shows which
# table the INSERT was read as
OTHER = "UPDATE demo.silver.events SET v = 1 WHERE id = 2;\n"


def _rules(result) -> list[tuple[str, str, int]]:
    return sorted((f.rule, f.location.path, f.location.line) for f in result.findings)


def _conflict_tables(result) -> set[str]:
    return {f.table for f in result.findings if not f.rule.startswith("DL0")}


def test_use_identifier_of_script_variables_sets_catalog_and_schema(lint):
    script = (
        "DECLARE OR REPLACE VARIABLE cat_name STRING DEFAULT 'demo';\n"
        "DECLARE OR REPLACE VARIABLE sch_name STRING DEFAULT 'silver';\n"
        "USE IDENTIFIER(cat_name || '.' || sch_name);\n"
        "SET QUERY_TAGS['team'] = 'data', QUERY_TAGS['job'] = 'nightly';\n"
        "INSERT INTO events SELECT * FROM demo.raw.events;\n"
    )
    result = lint({"load.sql": script, "fix.sql": OTHER}, CONFIG)
    assert not [f for f in result.findings if f.rule.startswith("DL0")]
    assert _conflict_tables(result) == {"demo.silver.events"}


@pytest.mark.parametrize(
    "use",
    [
        "DECLARE c STRING DEFAULT 'demo'; USE CATALOG IDENTIFIER(c); USE SCHEMA silver",
        "SET VAR c = 'demo', s = 'silver'; USE CATALOG IDENTIFIER(c); USE SCHEMA IDENTIFIER(s)",
        "USE CATALOG 'demo'; USE silver",
        "SET CATALOG demo; USE DATABASE silver",
        "DECLARE s = 'silver'; USE SCHEMA IDENTIFIER(concat('demo', '.', s))",
    ],
)
def test_other_shapes_of_a_session_statement_set_the_same_names(lint, use):
    result = lint({"load.sql": f"{use};\nINSERT INTO events SELECT 1;\n", "fix.sql": OTHER}, CONFIG)
    assert not [f for f in result.findings if f.rule.startswith("DL0")]
    assert _conflict_tables(result) == {"demo.silver.events"}


def test_a_name_only_a_run_knows_is_not_guessed_and_the_old_one_not_kept(lint):
    """`v` is read from a table at run time: the INSERT's `events` is in a schema
    nobody knows statically, not in the `silver` the script used before."""
    script = (
        "USE demo.silver;\n"
        "DECLARE v STRING;\n"
        "SET VAR v = (SELECT schema_name FROM demo.ops.targets LIMIT 1);\n"
        "USE SCHEMA IDENTIFIER(v);\n"
        "INSERT INTO events SELECT 1;\n"
        "INSERT INTO demo.silver.events SELECT 2;\n"
    )
    result = lint({"load.sql": script, "fix.sql": OTHER}, CONFIG)
    assert [r for r in _rules(result) if r[0].startswith("DL0")] == [
        ("DL001", "load.sql", 5),  # the unqualified name: unresolved, not checked
        ("DL007", "load.sql", 4),  # the note at the USE
    ]
    note = next(f for f in result.findings if f.rule == "DL007")
    assert "USE SCHEMA IDENTIFIER(v)" in note.message and "`{v}`" in note.message
    # the fully qualified write after it is still read and checked, the other is not
    conflicts = [f for f in result.findings if not f.rule.startswith("DL0")]
    lines = {loc.line for f in conflicts for loc in (f.location, *f.related) if loc.path == "load.sql"}
    assert lines == {6} and _conflict_tables(result) == {"demo.silver.events"}


def test_a_job_parameter_in_identifier_is_kept_as_the_parameter_it_names(lint):
    """Near miss of the above: a job parameter is a value the job gives, so the name
    stays as it was read before (no note), whether given directly or through a
    variable."""
    for script in (
        "USE SCHEMA IDENTIFIER(:env);\nINSERT INTO events SELECT 1;\n",
        "DECLARE s STRING DEFAULT :env;\nUSE SCHEMA IDENTIFIER(s);\nINSERT INTO events SELECT 1;\n",
    ):
        result = lint({"load.sql": script}, CONFIG)
        assert [r for r in _rules(result) if r[0].startswith("DL0")] == []


@pytest.mark.parametrize(
    "statement",
    [
        "SET QUERY_TAGS['team'] = 'engineering', QUERY_TAGS['env'] = 'prod', QUERY_TAGS['cost_center'] = UNSET",
        "SET QUERY_TAGS['experiment'] = NULL",
        "SET QUERY_TAGS",
        "SET TIME ZONE 'America/Los_Angeles'",
        "SET TIME ZONE LOCAL",
        "SET TIME ZONE INTERVAL '08:30:00' HOUR TO SECOND",
        "SET",
        "SET -v",
        "SET spark.sql.shuffle.partitions",
        "RESET",
        "RESET spark.sql.shuffle.partitions",
        "SET VARIABLE (a, b) = (SELECT 1, 2)",
        "ADD JAR /Volumes/main/libs/udfs.jar",
        "ADD FILE '/Volumes/main/libs/lookup.csv'",
        "CLEAR CACHE",
        "SET TAG ON CATALOG demo `cost_center` = `hr`",
        "UNSET TAG ON SCHEMA demo.silver cost_center",
        "SET TAG ON VOLUME demo.raw.landing pii",
        "COMMIT",
        "ROLLBACK",
    ],
)
def test_statements_that_write_nothing_are_read_without_a_diagnostic(lint, statement):
    result = lint(
        {"load.sql": f"USE demo.silver;\n{statement};\nINSERT INTO events SELECT 1;\n", "fix.sql": OTHER}, CONFIG
    )
    assert [r for r in _rules(result) if r[0].startswith("DL0")] == []
    assert _conflict_tables(result) == {"demo.silver.events"}


@pytest.mark.parametrize(
    ("statement", "reason"),
    [
        ("SET QUERY_TAGS['team'] =", "unrecognised statement"),
        ("SET QUERY_TAGS['team'] = 'data' 'more' x", "unrecognised statement"),
        ("SET TIME ZONE", "unrecognised statement"),
        ("USE SCHEMA 'silver'", "only a catalog's name may be given as a string"),
        ("DECLARE v = 'a b'; USE IDENTIFIER(v)", "which is not a name"),
        ("USE IDENTIFIER(   )", "IDENTIFIER() names nothing"),
    ],
)
def test_malformed_session_statements_are_still_parse_errors(lint, statement, reason):
    result = lint({"load.sql": f"{statement};\n"}, CONFIG)
    (error,) = [f for f in result.findings if f.rule == "DL000"]
    assert reason in error.message


def test_reset_turns_off_what_set_turned_on(lint):
    """RESET is read, not skipped: schema evolution set before it no longer applies."""
    merge = "MERGE INTO demo.silver.events t USING demo.raw.s s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;\n"
    on = "SET spark.databricks.delta.schema.autoMerge.enabled = true;\n"
    for reset, evolves in (("", True), ("RESET spark.databricks.delta.schema.autoMerge.enabled;\n", False)):
        result = lint({"load.sql": on + reset + merge, "fix.sql": OTHER}, CONFIG)
        assert ("DL111" in {f.rule for f in result.findings}) is evolves


def test_session_statements_run_by_spark_sql_are_read_the_same(lint):
    """A notebook's `spark.sql(...)` runs the statement in the same session: the
    Python front end reads it through the SQL one."""
    notebook = (
        "# Databricks notebook source\n"
        "spark.sql(\"SET TIME ZONE 'UTC'\")\n"
        "spark.sql(\"SET QUERY_TAGS['team'] = 'data'\")\n"
        "spark.sql(\"USE CATALOG 'demo'\")\n"
        'spark.sql("USE SCHEMA silver")\n'
        'spark.sql("INSERT INTO events SELECT 1")\n'
    )
    result = lint({"load.py": notebook, "fix.sql": OTHER}, CONFIG)
    assert [r for r in _rules(result) if r[0].startswith("DL0")] == []
    assert _conflict_tables(result) == {"demo.silver.events"}


def test_a_use_statement_of_many_blanks_or_parentheses_is_read_in_linear_time(lint):
    """The USE pattern has one greedy part inside IDENTIFIER(...): a statement that
    does not match (blanks, or `x)` repeated, before a trailing word) fails in
    linear time. With three overlapping parts, 3,000 blanks took 11 s."""
    import time

    texts = ["USE IDENTIFIER(" + " " * 200_000 + "x) y;\n", "USE IDENTIFIER(" + "x)" * 100_000 + " y;\n"]
    start = time.process_time()
    for n, text in enumerate(texts):
        result = lint({f"use{n}.sql": text}, CONFIG)
        assert {f.rule for f in result.findings} == {"DL000"}
    assert time.process_time() - start < 30  # (seconds here; hours with a backtracking pattern)
