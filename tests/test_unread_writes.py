"""A top-level statement that calls a writer's terminal always leaves something at
its line: an intent, or a DL001 saying the write could not be followed
(`frontend/unread.py`), never nothing."""

from __future__ import annotations

import time

from delta_lint.frontend import analyze_source

UNFOLLOWED = "could not follow"


def _said(code: str, path: str = "job.py") -> tuple[list[tuple[int, str | None]], list[tuple[int, str]]]:
    result = analyze_source(path, ".py", code)
    intents = sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)
    return intents, sorted((d.location.line, d.rule) for d in result.diagnostics if UNFOLLOWED in d.message)


def test_a_terminal_bound_to_a_name_or_taken_with_getattr_is_said_at_its_call():
    code = (
        "save = df.write.mode('append').saveAsTable\n"
        'save("main.ops.events")\n'
        'if ready:\n    getattr(df.write, "insertInto")("main.ops.log")\n'
    )
    assert _said(code) == ([], [(2, "DL001"), (4, "DL001")])


def test_a_notebook_cells_unfollowed_write_is_said_at_its_line_in_the_file():
    code = "# Databricks notebook source\nx = 1\n\n# COMMAND ----------\n\nsave = df.write.saveAsTable\nsave('t')\n"
    assert _said(code)[1] == [(7, "DL001")]


def test_a_followed_write_or_one_in_a_function_gets_no_such_note():
    code = (
        'df.write.mode("append").saveAsTable("main.ops.events")\n'
        "w = df.write.format('delta')\n"
        'w.saveAsTable(f"{catalog}.ops.log")\n'
        "def save(frame, name):\n"
        "    writer = frame.write.saveAsTable\n"
        "    writer(name)\n"
        'pdf.to_csv("/tmp/x.csv")\n'
        'df.write.format("parquet").saveAsTable("main.ops.export")\n'  # read, and no Delta write
    )
    intents, unfollowed = _said(code)
    assert [line for line, _ in intents] == [1, 3] and unfollowed == []


def test_a_merge_builder_on_a_table_the_reader_does_not_know_is_said_at_its_merge():
    code = (
        'target = get_delta_table(spark, "main.ops.events")\n'
        'target.alias("t").merge(src.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'
        'tables["x"].alias("t").merge(\n    src.alias("s"), "t.id = s.id"\n).whenNotMatchedInsertAll().execute()\n'
    )
    assert _said(code) == ([], [(2, "DL001"), (3, "DL001")])


def test_a_merge_the_reader_follows_or_a_pandas_merge_gets_no_such_note():
    code = (
        "from delta.tables import DeltaTable\n"
        'DeltaTable.forName(spark, "main.ops.events").alias("t").merge(\n'
        '    src.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'
        'out = left.merge(right, on="id").execute()\n'
        'pd.merge(a, b, on="id")\n'
    )
    intents, unfollowed = _said(code)
    assert intents == [(2, "main.ops.events")] and unfollowed == []


def test_a_format_only_a_run_knows_is_read_as_a_delta_write_and_never_hides_the_table():
    code = (
        "import argparse, sys\n"
        "args = argparse.ArgumentParser().parse_args()\n"
        "df.write.format(args.fmt).mode('overwrite').saveAsTable('main.s.t')\n"
        "df.write.format(sys.argv[1]).save('/mnt/x')\n"
        "df.writeTo('main.s.u').using(f'{args.fmt}').append()\n"
        "df.writeStream.format(args.fmt).toTable('main.s.v')\n"
    )
    intents, _ = _said(code)
    assert [line for line, _ in intents] == [3, 4, 5, 6]
    assert not analyze_source("job.py", ".py", code).links.non_delta


def test_a_known_other_format_still_writes_no_delta_table():
    code = "fmt = 'parquet'\ndf.write.format(fmt).saveAsTable('main.s.t')\ndf.write.format(f'{fmt}').save('/mnt/x')\n"
    result = analyze_source("job.py", ".py", code)
    assert result.intents == [] and "main.s.t" in str(result.links.non_delta)


def test_a_write_spread_over_lines_is_said_whatever_line_holds_its_terminal():
    code = "x = 1\nif ready:\n    getattr(\n        df.write,\n        'insertInto',\n    )('main.ops.log')\n"
    assert _said(code) == ([], [(3, "DL001")])
    unicode_name = "café = 1\nsave = df.write.saveAsTable\nsave('main.ops.t')\n"  # not ASCII: every statement walked
    assert _said(unicode_name)[1] == [(3, "DL001")]


def test_writes_in_every_kind_of_block_are_swept_but_not_in_definitions():
    code = (
        "save = df.write.saveAsTable\n"
        "try:\n    save('a')\nexcept ValueError:\n    save('b')\nelse:\n    save('c')\nfinally:\n    save('d')\n"
        "match mode:\n    case 'x':\n        save('e')\n"
        "with ctx:\n    while go:\n        save('f')\n"
        "def later():\n    save('g')\n"
        "class K:\n    save('h')\n"
    )
    assert [line for line, _ in _said(code)[1]] == [3, 5, 7, 9, 12, 15]


def test_a_delta_write_whose_path_the_code_does_not_give_is_an_unresolved_intent():
    code = (
        "opts = load_options()\n"
        'df.write.format("delta").mode("append").options(**opts).save()\n'
        'df.writeStream.format("delta").options(**opts).start()\n'
    )
    result = analyze_source("job.py", ".py", code)
    assert sorted((i.location.line, i.table.name) for i in result.intents) == [(2, "delta:{path}"), (3, "delta:{path}")]
    assert sorted((d.location.line, d.rule) for d in result.diagnostics) == [(2, "DL001"), (3, "DL001")]


def test_a_path_the_code_gives_and_a_save_of_no_writer_stay_as_they_were():
    code = (
        'df.write.format("delta").option("path", "/mnt/x").save()\n'
        'df.write.mode("append").save("/mnt/y")\n'
        "model.save()\n"
        'df.write.format("parquet").save()\n'
    )
    result = analyze_source("job.py", ".py", code)
    assert sorted((i.location.line, i.table.name) for i in result.intents) == [(1, "delta:/mnt/x"), (2, "delta:/mnt/y")]
    assert result.diagnostics == []


def test_write_text_handed_to_a_call_nothing_reads_is_said_at_the_text():
    code = (
        "import helpers\n"
        'helpers.run_sql(spark, "DELETE FROM main.ops.events WHERE d = 1")\n'
        "run = lambda s: spark.sql(s)\n"
        'run("""\n    INSERT INTO main.ops.log SELECT * FROM v\n""")\n'
        "with connect() as conn:\n"
        '    conn.cursor().execute(f"MERGE INTO main.ops.dim t USING {src} s ON t.id = s.id WHEN MATCHED THEN DELETE")\n'
        'submit_all(["UPDATE main.ops.runs SET ok = true WHERE id = 1"])\n'
    )
    assert _said(code)[1] == [(2, "DL001"), (4, "DL001"), (8, "DL001"), (9, "DL001")]


def test_the_session_sql_handed_on_as_a_value_is_said():
    code = (
        "import functools\n"
        'statements = ["INSERT INTO main.ops.log SELECT 1"]\n'
        "run_each(spark.sql, statements)\n"
        'later = functools.partial(df.sparkSession.sql, "DELETE FROM main.ops.log WHERE d = 1")\n'
    )
    assert _said(code)[1] == [(3, "DL001"), (4, "DL001")]
    # `list(map(spark.sql, statements))` runs it on each statement: a loop, read as one
    mapped = code.replace("run_each(spark.sql, statements)", "list(map(spark.sql, statements))")
    assert _said(mapped) == ([(3, "main.ops.log")], [(4, "DL001")])


def test_write_text_read_shown_in_another_dialect_or_not_a_write_gets_no_such_note():
    code = (
        'spark.sql("INSERT INTO main.ops.log SELECT 1")\n'  # read: an intent
        'print("DELETE FROM main.ops.log WHERE d = 1")\n'  # shown, not run
        'logger.info("MERGE INTO main.ops.dim t USING s ON t.id = s.id")\n'
        'cur.execute("INSERT INTO q (id) VALUES (%s) ON CONFLICT (id) DO NOTHING", (1,))\n'  # PostgreSQL
        'cur.execute("SELECT * FROM main.ops.log")\n'  # no write
        'send("the job will DELETE FROM the source keys")\n'  # prose: no statement starts the text
        "spark.sql(sql_text)\n"  # a statement of its own
        "x = spark.sql\n"  # named, handed to no call
    )
    intents, unfollowed = _said(code)
    assert intents == [(1, "main.ops.log")] and unfollowed == []


def test_text_opening_with_long_runs_of_blanks_or_dashes_is_read_in_linear_time(lint):
    """Text handed to a call that opens with blanks or dashes and holds no write is
    swept in linear time: `(?:\\s+|--[^\\n]*|...)*` tried every split of such a run
    (2^n), so 28 blanks took about a minute. The write beside it is still said."""
    code = (
        f'helpers.run_sql(spark, "{" " * 28}SELECT * FROM main.ops.log", "then insert")\n'
        f'helpers.run_sql(spark, "{"-" * 34}\\nSELECT * FROM main.ops.log", "then insert")\n'
        f'helpers.run_sql(spark, "{" " * 28}DELETE FROM main.ops.log WHERE d = 1")\n'
    )
    start = time.process_time()
    result = lint({"job.py": code})
    assert time.process_time() - start < 5
    assert [(f.rule, f.location.line) for f in result.findings if f.rule == "DL001"] == [("DL001", 3)]


def test_a_write_word_in_a_leading_comment_is_not_the_statement_it_opens(lint):
    """A leading `--` comment runs to its line's end and a `/* */` comment to its first
    close: the words in them are not the statement's first word."""
    code = (
        'helpers.run_sql(spark, "-- insert into the log below\\nSELECT * FROM main.ops.log")\n'
        'helpers.run_sql(spark, "/* a */ SELECT 1 */ DELETE FROM main.ops.log WHERE d = 1")\n'
        'helpers.run_sql(spark, "-- the rows to drop\\n/* old */ DELETE FROM main.ops.log WHERE d = 1")\n'
    )
    result = lint({"job.py": code})
    assert [(f.rule, f.location.line) for f in result.findings if f.rule == "DL001"] == [("DL001", 3)]


def test_an_alias_of_any_first_letter_and_write_words_of_any_case_are_swept_at_their_lines():
    # the sweep's scan looks only where a word of a call may start (the first letters
    # of the terminals, their aliases and the SQL words): an alias starting with a
    # letter none of those has, or `_`, is still found, on its own line
    code = (
        "# header\n\n"
        "Zsave = df.write.saveAsTable\n"
        "_keep = df.write.insertInto\n"
        "x = 1  # sql, merge\n"
        'Zsave("main.ops.a")\n'
        "\n"
        '_keep("main.ops.b")\n'
        'run_it("DeLeTe FROM main.ops.c WHERE d < 1")\n'
        "q = 2\n"
        'helpers.go(spark, "Update main.ops.e SET a = 1")\n'
    )
    assert _said(code) == ([], [(6, "DL001"), (8, "DL001"), (9, "DL001"), (11, "DL001")])
