"""A write that runs only while its own table does not exist yet (a job's first run
creating the table it merges into on every later run) is flagged `only_when_absent`,
and meets only the writes that may create the same absent table."""

from __future__ import annotations

import json

import pytest

from delta_lint.model import Flag
from tests.conftest import run_cli

MERGE = 'DeltaTable.forName(spark, "main.s.t").alias("t").merge(df.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'


def _intents(result) -> dict[tuple[str, int], tuple[str, str, frozenset[str]]]:
    """(file, line) -> (table, kind, flags) of every intent of the run."""
    return {
        (f.path.rsplit("/", 1)[-1], i.location.line): (
            i.table.name if i.table else "",
            i.kind.value,
            frozenset(x.value for x in i.flags),
        )
        for f in result.files
        for i in f.intents
    }


def _flagged(lint, code: str) -> dict[int, str]:
    """Line -> table of the intents of `code` (one file) flagged only_when_absent."""
    result = lint({"job.py": "from delta.tables import DeltaTable\n" + code})
    return {line - 1: table for (_, line), (table, _, flags) in _intents(result).items() if "only_when_absent" in flags}


def _sites(result) -> set[str]:
    """The file:line of both sides of every conflict of the run."""
    return {
        f"{at.path.rsplit('/', 1)[-1]}:{at.line}"
        for f in result.findings
        if not f.rule.startswith("DL0")
        for at in (f.location, *f.related)
    }


def _conflicts(result) -> list[tuple[str, str, str]]:
    return sorted(
        (f.rule, f"{f.location.path.rsplit('/', 1)[-1]}:{f.location.line}", f.exception or "")
        for f in result.findings
        if not f.rule.startswith("DL0")
    )


# -- the guards the front end reads ------------------------------------------------------


@pytest.mark.parametrize(
    "check",
    [
        'spark.catalog.tableExists("main.s.t")',
        'spark.catalog.tableExists(tableName="main.s.t")',
        'spark.catalog.tableExists("t", "main.s")',
        'spark.catalog.tableExists("t", dbName="main.s")',
        'spark.catalog._jcatalog.tableExists("main.s", "t")',
        'spark.catalog._jcatalog.tableExists("main.s.t")',
        'spark._jsparkSession.catalog().tableExists("main.s", "t")',
    ],
)
def test_a_write_under_a_negated_table_exists_check_runs_only_when_absent(lint, check):
    code = f'if not {check}:\n    df.write.mode("overwrite").saveAsTable("main.s.t")\nelse:\n    {MERGE}'
    assert _flagged(lint, code) == {2: "main.s.t"}


def test_the_else_of_a_table_exists_check_runs_only_when_absent(lint):
    code = f'if spark.catalog.tableExists("main.s.t"):\n    {MERGE}else:\n    df.write.saveAsTable("main.s.t")\n'
    assert _flagged(lint, code) == {4: "main.s.t"}


def test_the_names_of_the_guard_and_the_write_are_resolved_alike(lint):
    code = (
        'catalog = "main"\n'
        'spark.sql("USE CATALOG main")\n'
        'spark.sql("USE SCHEMA s")\n'
        't = f"{catalog}.s.t"\n'
        'if not spark.catalog.tableExists("t"):\n'
        "    df.write.saveAsTable(t)\n"
    )
    assert _flagged(lint, code) == {6: "main.s.t"}


def test_an_elif_runs_only_when_an_earlier_test_of_existence_was_false(lint):
    code = (
        'if spark.catalog.tableExists("main.s.t"):\n'
        f"    {MERGE}"
        "elif full_load:\n"
        '    df.write.saveAsTable("main.s.t")\n'
        "else:\n"
        '    df.write.mode("overwrite").saveAsTable("main.s.t")\n'
    )
    assert _flagged(lint, code) == {4: "main.s.t", 6: "main.s.t"}


def test_a_conjunction_with_the_negated_check_guards_its_body(lint):
    code = 'if full_load and not spark.catalog.tableExists("main.s.t"):\n    df.write.saveAsTable("main.s.t")\n'
    assert _flagged(lint, code) == {2: "main.s.t"}
    # a disjunction does not: the body runs when the table exists and `full_load` holds
    code = 'if full_load or not spark.catalog.tableExists("main.s.t"):\n    df.write.saveAsTable("main.s.t")\n'
    assert _flagged(lint, code) == {}


def test_a_path_guard_with_a_write_to_that_path(lint):
    code = (
        'path = "/mnt/lake/t"\n'
        "if not DeltaTable.isDeltaTable(spark, path):\n"
        '    df.write.format("delta").save(path)\n'
        "else:\n"
        '    DeltaTable.forPath(spark, path).alias("t").merge(df.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'
        'if DeltaTable.isDeltaTable(spark, "/mnt/lake/u"):\n'
        "    pass\n"
        "else:\n"
        '    df.write.format("delta").mode("append").save("/mnt/lake/u")\n'
    )
    assert _flagged(lint, code) == {3: "delta:/mnt/lake/t", 9: "delta:/mnt/lake/u"}


def test_a_path_guard_does_not_guard_another_path_or_a_table_name(lint):
    code = (
        'if not DeltaTable.isDeltaTable(spark, "/mnt/lake/t"):\n'
        '    df.write.format("delta").save("/mnt/lake/other")\n'
        '    df.write.saveAsTable("main.s.t")\n'
    )
    assert _flagged(lint, code) == {}


@pytest.mark.parametrize("caught", ["AnalysisException", "(AnalysisException, ValueError)", "Exception", ""])
def test_the_handler_of_a_failed_table_lookup_runs_only_when_absent(lint, caught):
    code = (
        f'try:\n    target = DeltaTable.forName(spark, "main.s.t")\nexcept {caught}:\n'.replace("except :", "except:")
        + '    df.write.saveAsTable("main.s.t")\n'
        + "else:\n"
        + '    target.alias("t").merge(df.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'
    )
    assert _flagged(lint, code) == {4: "main.s.t"}


def test_a_handler_of_any_exception_after_more_than_the_lookup_is_no_guard(lint):
    # the MERGE in the body may fail on a commit conflict, and the handler then writes a table that exists
    code = (
        "try:\n"
        '    target = DeltaTable.forName(spark, "main.s.t")\n'
        '    target.alias("t").merge(df.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'
        "except Exception:\n"
        '    df.write.mode("overwrite").saveAsTable("main.s.t")\n'
    )
    assert _flagged(lint, code) == {}
    # a MERGE whose columns do not resolve raises AnalysisException on a table that exists too
    assert _flagged(lint, code.replace("except Exception", "except AnalysisException")) == {}


def test_a_handler_of_another_exception_is_no_guard(lint):
    code = 'try:\n    DeltaTable.forName(spark, "main.s.t")\nexcept ValueError:\n    df.write.saveAsTable("main.s.t")\n'
    assert _flagged(lint, code) == {}


def test_a_name_missing_from_the_schemas_listing(lint):
    code = (
        'if "t" not in [x.name for x in spark.catalog.listTables("main.s")]:\n'
        '    df.write.saveAsTable("main.s.t")\n'
        'if "u" in [x.name for x in spark.catalog.listTables(dbName="main.s")]:\n'
        "    pass\n"
        "else:\n"
        '    df.write.saveAsTable("main.s.u")\n'
    )
    assert _flagged(lint, code) == {2: "main.s.t", 6: "main.s.u"}


def test_a_filtered_listing_proves_nothing(lint):
    code = (
        'if "t" not in [x.name for x in spark.catalog.listTables("main.s") if not x.isTemporary]:\n'
        '    df.write.saveAsTable("main.s.t")\n'
    )
    assert _flagged(lint, code) == {}


def test_a_project_function_that_returns_the_check(lint):
    code = (
        "def table_exists(name: str, schema: str = 'main.s') -> bool:\n"
        '    """Whether the table exists."""\n'
        '    return spark.catalog.tableExists(f"{schema}.{name}")\n'
        "\n"
        'if not table_exists("t"):\n'
        '    df.write.saveAsTable("main.s.t")\n'
        'if not table_exists("t", schema="main.other"):\n'
        '    df.write.saveAsTable("main.s.t")\n'
    )
    assert _flagged(lint, code) == {6: "main.s.t"}


def test_a_project_function_that_does_more_than_return_the_check_is_no_guard(lint):
    code = (
        "def table_exists(name):\n"
        "    found = spark.catalog.tableExists(name)\n"
        "    return found or force_reload\n"
        "\n"
        'if not table_exists("main.s.t"):\n'
        '    df.write.saveAsTable("main.s.t")\n'
    )
    assert _flagged(lint, code) == {}


def test_a_guard_on_another_table_does_not_guard_the_write(lint):
    code = 'if not spark.catalog.tableExists("main.s.other"):\n    df.write.mode("overwrite").saveAsTable("main.s.t")\n'
    assert _flagged(lint, code) == {}


def test_a_write_when_the_table_exists_is_not_flagged(lint):
    code = 'if spark.catalog.tableExists("main.s.t"):\n    df.write.mode("overwrite").saveAsTable("main.s.t")\n'
    assert _flagged(lint, code) == {}


def test_a_guard_or_a_write_on_a_name_not_known_statically_flags_nothing(lint):
    code = (
        "t = compute_name()\n"
        "if not spark.catalog.tableExists(t):\n"
        '    df.write.saveAsTable("main.s.t")\n'
        'if not spark.catalog.tableExists("main.s.t"):\n'
        "    df.write.saveAsTable(t)\n"
    )
    assert _flagged(lint, code) == {}


def test_only_the_first_write_of_the_table_under_the_guard_is_flagged(lint):
    # the first write created the table: the ALTER after it runs while it exists
    code = (
        'if not spark.catalog.tableExists("main.s.t"):\n'
        '    df.write.saveAsTable("main.s.t")\n'
        "    spark.sql(\"ALTER TABLE main.s.t SET TBLPROPERTIES ('delta.appendOnly' = 'false')\")\n"
    )
    assert _flagged(lint, code) == {2: "main.s.t"}


def test_a_write_in_a_loop_or_a_function_under_the_guard_is_not_flagged(lint):
    code = (
        'if not spark.catalog.tableExists("main.s.t"):\n'
        "    for part in parts:\n"
        '        part.write.mode("append").saveAsTable("main.s.t")\n'
        'if not spark.catalog.tableExists("main.s.u"):\n'
        "    def load(df):\n"
        '        df.write.mode("append").saveAsTable("main.s.u")\n'
    )
    assert _flagged(lint, code) == {}
    # a loop around the guard asks again at every turn
    code = 'for part in parts:\n    if not spark.catalog.tableExists("main.s.t"):\n        part.write.saveAsTable("main.s.t")\n'
    assert _flagged(lint, code) == {3: "main.s.t"}


def test_a_stream_started_under_the_guard_is_not_flagged(lint):
    # the query keeps committing once its first batch created the table
    code = (
        'if not spark.catalog.tableExists("main.s.t"):\n'
        '    df.writeStream.option("checkpointLocation", "/chk/t").toTable("main.s.t")\n'
    )
    assert _flagged(lint, code) == {}


def test_a_helper_called_under_the_guard_writes_only_when_absent(lint):
    code = (
        "def create(df, name):\n"
        '    df.write.mode("overwrite").saveAsTable(name)\n'
        "\n"
        'if not spark.catalog.tableExists("main.s.t"):\n'
        '    create(df, "main.s.t")\n'
        'create(df, "main.s.u")\n'
    )
    assert _flagged(lint, code) == {5: "main.s.t"}


def test_every_reading_of_a_write_of_several_values_stands_under_the_guard(lint):
    # a write read once per value a name may hold: each reading is under the guard, so an
    # option that does not change the write leaves one intent, not a flagged and a plain one
    code = (
        'opt = "a" if x else "b"\n'
        'if not spark.catalog.tableExists("main.s.t"):\n'
        '    df.write.option("k", opt).mode("overwrite").saveAsTable("main.s.t")\n'
        'mode = "overwrite" if full else "append"\n'
        'if not spark.catalog.tableExists("main.s.u"):\n'
        '    df.write.mode(mode).saveAsTable("main.s.u")\n'
    )
    result = lint({"job.py": code})
    got = sorted(
        (i.location.line, i.kind.value, sorted(f.value for f in i.flags)) for f in result.files for i in f.intents
    )
    assert got == [
        (3, "full_overwrite", ["only_when_absent"]),
        (6, "blind_append", ["one_of", "only_when_absent"]),
        (6, "full_overwrite", ["one_of", "only_when_absent"]),
    ]


def test_a_guard_of_a_name_of_several_values_guards_each_reading(lint):
    # `T` is one of two names (a catalog fallback): the guard names no table where it
    # stands, but each reading of the write, `T` bound to one name, stands under it
    chosen = 'T = "main.s.t"\ntry:\n    spark.sql("USE CATALOG main")\nexcept Exception:\n    T = "hive.s.t"\n'
    code = chosen + "if spark.catalog.tableExists(T):\n    " + MERGE.replace('"main.s.t"', "T")
    code += 'else:\n    df.write.mode("overwrite").saveAsTable(T)\n'
    result = lint({"job.py": "from delta.tables import DeltaTable\n" + code})
    flagged = sorted(
        (i.table.name, i.kind.value)
        for f in result.files
        for i in f.intents
        if i.table and Flag.ONLY_WHEN_ABSENT in i.flags
    )
    assert flagged == [("hive.s.t", "full_overwrite"), ("main.s.t", "full_overwrite")]


def test_near_miss_a_guard_of_several_values_does_not_guard_another_table(lint):
    chosen = 'T = "main.s.t"\ntry:\n    spark.sql("USE CATALOG main")\nexcept Exception:\n    T = "hive.s.t"\n'
    code = chosen + 'if not spark.catalog.tableExists(T):\n    df.write.mode("overwrite").saveAsTable("main.s.other")\n'
    assert _flagged(lint, code) == {}


def test_intents_json_carries_the_flag(tmp_path):
    (tmp_path / "job.py").write_text(
        'if not spark.catalog.tableExists("main.s.t"):\n    df.write.mode("overwrite").saveAsTable("main.s.t")\n',
        encoding="utf-8",
    )
    out = run_cli("intents", str(tmp_path / "job.py"), "--format", "json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (intent,) = json.loads(out.stdout)
    # an overwrite of a table that does not exist creates it: its class is a create's
    assert (intent["kind"], intent["class"], intent["flags"]) == ("full_overwrite", "create", ["only_when_absent"])


# -- what the engine pairs it with --------------------------------------------------------

FIRST_RUN = (
    "from delta.tables import DeltaTable\n"
    'if not spark.catalog.tableExists("main.s.t"):\n'
    '    df.write.mode("overwrite").saveAsTable("main.s.t")\n'
    "else:\n"
    f"    {MERGE}"
)
TWO_JOBS = {"jobs": {"a": {"paths": ["a.py"]}, "b": {"paths": ["b.py"]}}}


@pytest.mark.parametrize(
    "other",
    [
        "from delta.tables import DeltaTable\n" + MERGE,
        'spark.sql("UPDATE main.s.t SET x = 1 WHERE id = 2")\n',
        'spark.sql("ALTER TABLE main.s.t ADD COLUMNS (y INT)")\n',
        "spark.sql(\"ALTER TABLE main.s.t SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')\")\n",
        'spark.sql("OPTIMIZE main.s.t")\n',
    ],
)
def test_the_first_run_write_meets_no_write_that_needs_the_table(lint, other):
    result = lint({"a.py": FIRST_RUN, "b.py": other}, TWO_JOBS)
    assert "a.py:3" not in _sites(result)


def test_the_same_overwrite_unguarded_still_meets_the_merge(lint):
    unguarded = 'df.write.mode("overwrite").saveAsTable("main.s.t")\n'
    result = lint({"a.py": unguarded, "b.py": "from delta.tables import DeltaTable\n" + MERGE}, TWO_JOBS)
    assert ("DL102", "a.py:1", "ConcurrentAppendException") in _conflicts(result)


@pytest.mark.parametrize(
    "other",
    [
        'spark.sql("CREATE TABLE main.s.t (id INT)")\n',
        'spark.sql("CREATE OR REPLACE TABLE main.s.t AS SELECT 1 AS id")\n',
        'df.write.mode("append").saveAsTable("main.s.t")\n',
    ],
)
def test_the_first_run_write_races_with_another_create_of_the_absent_table(lint, other):
    result = lint({"a.py": FIRST_RUN, "b.py": other}, TWO_JOBS)
    found = [f for f in result.findings if f.rule == "DL114"]
    assert [(f.location.line, f.exception, f.verdict) for f in found] == [(3, "ProtocolChangedException", "first-run")]
    assert "runs only while the table does not exist" in found[0].message, found[0].message


@pytest.mark.parametrize(
    "other",
    [
        'spark.sql("CREATE TABLE IF NOT EXISTS main.s.t (id INT)")\n',
        FIRST_RUN,  # another job's first run
    ],
)
def test_two_first_runs_are_left_quiet_as_two_if_not_exists_creates(lint, other):
    result = lint({"a.py": FIRST_RUN, "b.py": other}, TWO_JOBS)
    assert [f for f in result.findings if f.rule == "DL114"] == []
    assert not [c for c in _conflicts(result) if c[1] == "a.py:3"]


def test_concurrent_runs_of_one_first_run_write_race_on_the_first_run(lint):
    # both runs find the table absent and both create it, as two runs of one
    # CREATE TABLE IF NOT EXISTS do; the steady state's MERGE meets itself as before
    config = {"jobs": {"a": {"paths": ["a.py"], "concurrent_runs": 2}}}
    result = lint({"a.py": FIRST_RUN}, config)
    assert _conflicts(result) == [
        ("DL102", "a.py:5", "ConcurrentAppendException"),
        ("DL114", "a.py:3", "ProtocolChangedException"),
    ]
    assert [f.verdict for f in result.findings if f.rule == "DL114"] == ["first-run"]


def test_a_first_run_append_adds_no_rows_for_concurrent_merges_to_read(lint):
    first = 'if not spark.catalog.tableExists("main.s.t"):\n    df.write.mode("append").saveAsTable("main.s.t")\n'
    others = {
        "b.py": "spark.sql(\"DELETE FROM main.s.t WHERE date = '2024-01-01'\")\n",
        "c.py": "spark.sql(\"UPDATE main.s.t SET v = 1 WHERE date = '2024-01-02'\")\n",
    }
    config = {
        "tables": {"main.s.t": {"partitioned_by": ["date"]}},
        "jobs": {name[0]: {"paths": [name]} for name in ("a.py", "b.py", "c.py")},
    }
    unguarded = lint({"a.py": 'df.write.mode("append").saveAsTable("main.s.t")\n', **others}, config)
    assert [f.rule for f in unguarded.findings if f.rule == "DL104"] == ["DL104"]
    guarded = lint({"a.py": first, **others}, config)
    assert [f.rule for f in guarded.findings if f.rule == "DL104"] == []


def test_a_write_in_a_lambda_or_a_comprehension_under_the_guard_is_no_first_run_write(lint):
    """A stream's batches and a comprehension's turns run again once the first has
    created the table: none of those writes is a first-run write."""
    stream = (
        'if not spark.catalog.tableExists("main.s.t"):\n'
        '    df = spark.readStream.table("main.s.a")\n'
        '    df.writeStream.foreachBatch(lambda b, i: b.write.mode("overwrite").saveAsTable("main.s.t")).start()\n'
    )
    assert _flagged(lint, stream) == {}
    turns = (
        "def write(p):\n"
        '    spark.read.parquet(p).write.mode("overwrite").saveAsTable("main.s.t")\n\n\n'
        'if not spark.catalog.tableExists("main.s.t"):\n'
        '    [write(p) for p in ["/a", "/b"]]\n'
    )
    assert _flagged(lint, turns) == {}
