"""The SQL path's shortcuts read what the long way reads.

Each shortcut skips work the front end used to do on every file or statement
(a whole-file pattern, a second generation of a tree, a type parsed again); these
tests hold the cases the shortcut must still see, and the near misses it must
still leave alone, through a whole run.
"""

from __future__ import annotations

import pytest
import sqlglot


def _intents(result) -> list[tuple[str, str, list[str]]]:
    return sorted((i.table.name, i.kind.value, sorted(f.value for f in i.flags)) for i in result.intents)


# -- Lakeflow SQL files are skipped whatever the case of their signs -----------------------------


@pytest.mark.parametrize(
    "text",
    [
        "create or refresh streaming table bronze as select * from stream read_files('/in');\n",
        "CREATE LIVE TABLE silver AS SELECT * FROM bronze;\n",
        "CREATE TEMPORARY STREAMING LIVE VIEW v AS SELECT 1;\n",
        "Apply Changes Into live.target FROM stream(live.src) KEYS (id) SEQUENCE BY ts;\n",
        "CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(s);\n",
        "AUTO CDC INTO target FROM stream(src) KEYS (id) SEQUENCE BY ts;\n",
        "CREATE TABLE t (id INT, CONSTRAINT ok EXPECT (id > 0)) AS SELECT 1 AS id;\n",
        "INSERT INTO t SELECT * FROM STREAM ( LIVE.src );\n",
        # not ASCII: `ſ` (long s) is an `s` to a case-insensitive pattern, not to `lower`
        "-- café\nCREATE OR REFREſH MATERIALIZED VIEW gold AS SELECT 1;\n",
    ],
)
def test_lakeflow_sql_is_skipped_in_any_spelling(lint, text):
    result = lint({"pipeline.sql": text})
    assert result.skipped == {"pipeline.sql": "Lakeflow pipeline"}
    assert result.intents == []


@pytest.mark.parametrize(
    "text",
    [
        # the words of Lakeflow's signs, in a job's table names, comments and strings
        "INSERT INTO main.live.refresh_flow SELECT * FROM main.s.apply_cdc;\n",
        "-- CREATE OR REFRESH STREAMING TABLE x\nDELETE FROM main.live.t WHERE note = 'expect (x)';\n",
    ],
)
def test_job_sql_holding_lakeflow_words_is_still_linted(lint, text):
    result = lint({"job.sql": text})
    assert result.skipped == {}
    assert len(result.intents) == 1


# -- COPY INTO's mergeSchema option -------------------------------------------------------------


@pytest.mark.parametrize(
    "options,evolves",
    [
        ("COPY_OPTIONS ('mergeSchema' = 'true')", True),
        ('COPY_OPTIONS ("MERGESCHEMA" = "TRUE")', True),
        ("FORMAT_OPTIONS ('header' = 'true') COPY_OPTIONS ('force' = 'true', 'mergeSchema' = 'true')", True),
        ("COPY_OPTIONS (mergeSchema = true)", True),
        ("COPY_OPTIONS ('mergeSchema' = 'false')", False),
        # merges the source files' schemas as they are read; the target's stays
        ("FORMAT_OPTIONS ('mergeSchema' = 'true')", False),
        ("COPY_OPTIONS ('force' = 'true')", False),
        ("", False),
    ],
)
def test_copy_into_evolves_the_schema_only_with_merge_schema_on(lint, options, evolves):
    result = lint({"copy.sql": f"COPY INTO main.s.t FROM '/Volumes/raw/in' FILEFORMAT = JSON {options};\n"})
    flags = ["schema_evolution"] if evolves else []
    assert _intents(result) == [("main.s.t", "copy_into", flags)]


# -- a column named like a temporal type ---------------------------------------------------------


def _count_parse_one(monkeypatch) -> list[str]:
    """Every `sqlglot.parse_one` of the run: sqlglot parses a type name with it each
    time its Spark parser asks whether a type is CHAR or VARCHAR."""
    calls: list[str] = []
    real = sqlglot.parse_one

    def counted(sql, *args, **kwargs):
        calls.append(sql)
        return real(sql, *args, **kwargs)

    monkeypatch.setattr(sqlglot, "parse_one", counted)
    return calls


@pytest.mark.parametrize(
    "select",
    [
        "SELECT id, date, amount FROM main.s.u",
        "SELECT date, amount FROM main.s.u",
        "SELECT id, timestamp FROM main.s.u",
        "SELECT DISTINCT id, Date, amount FROM main.s.u",
        # text that is not ASCII takes the case-insensitive search, not the lower-cased test
        "SELECT id, date, amount FROM main.s.u /* café */",
        # `date` inside a longer word is no column: the pass leaves those tokens alone
        "SELECT id, date, updated_at FROM main.s.u",
    ],
)
def test_a_temporal_column_in_a_select_list_is_read_as_a_column_at_once(lint, monkeypatch, select):
    calls = _count_parse_one(monkeypatch)
    result = lint({"load.sql": f"INSERT INTO main.s.t PARTITION (date = '2024-01-01') {select};\n"})
    assert _intents(result) == [("main.s.t", "blind_append", ["static_partition"])]
    assert calls == []


def test_temporal_types_in_lists_stay_types(lint):
    """A type after a column's name, a cast's type and a nested type's arguments are
    types: the table's declared columns and partitioning come out as before."""
    result = lint(
        {
            "ddl.sql": (
                "CREATE TABLE main.s.t (id BIGINT, date DATE, ts TIMESTAMP, m MAP<STRING, DATE>) "
                "USING DELTA PARTITIONED BY (date);\n"
                "INSERT INTO main.s.t SELECT id, CAST(d AS DATE), ts, map('a', date'2024-01-01') FROM main.s.u;\n"
                "INSERT INTO main.s.t (id, date, ts, m) SELECT id, d::date, to_timestamp(x), m FROM main.s.u;\n"
            )
        }
    )
    assert result.diagnostics == []
    create = next(i for i in result.intents if i.kind.value == "create")
    assert create.declared.columns == ("id", "date", "ts", "m")
    assert create.declared.partitioned_by == ("date",)
    assert sorted(i.kind.value for i in result.intents) == ["blind_append", "blind_append", "create"]


# -- the statement loop's quick tests -------------------------------------------------------------


def test_identifier_and_table_options_are_read_in_any_case(lint):
    result = lint(
        {
            "job.sql": (
                "DELETE FROM Identifier('main.s.a') WHERE d = '1';\n"
                "INSERT INTO main.s.b SELECT * FROM main.jdbc.src With (fetchSize = 1000);\n"
                "-- café\nUPDATE identifier('main.s.c') SET x = 'é' WHERE d = '1';\n"
            )
        }
    )
    assert result.diagnostics == []
    assert _intents(result) == [
        ("main.s.a", "delete", []),
        ("main.s.b", "blind_append", []),
        ("main.s.c", "update", []),
    ]


def test_one_statement_under_two_sessions_is_read_for_each(lint):
    """The run reads a statement met again once, keyed by the session it meets."""
    statement = "DELETE FROM t WHERE d = '1';\n"
    result = lint({"job.sql": f"USE main.a;\n{statement}USE main.b;\n{statement}SET x = 1;\n{statement}"})
    assert [i.table.name for i in result.intents] == ["main.a.t", "main.b.t", "main.b.t"]


def test_a_merge_narrowed_by_its_clauses_keeps_its_on_condition_whole(lint):
    """The region of ON and the clauses' common condition is read from copies: the
    MERGE's own ON condition, printed with the finding, is left as it was."""
    merge = (
        "MERGE INTO main.s.t AS t USING main.s.u AS s ON s.id = t.id AND t.p = 'x' "
        "WHEN MATCHED AND t.q = 'a' THEN UPDATE SET * WHEN MATCHED AND t.q = 'a' THEN DELETE;\n"
    )
    result = lint({"a.sql": merge, "b.sql": merge.replace("'a'", "'b'")})
    assert sorted(i.predicate_sql for i in result.intents) == ["s.id = t.id AND t.p = 'x'"] * 2
    assert {str(i.region) for i in result.intents} != {str(result.intents[0].region)}
