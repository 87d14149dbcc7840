"""The corpus's numbers that need no annotation (`benchmarks/realworld/ecosystem.py`):
a plain write with nothing at it is a silent drop, one inside a helper function is
counted apart until an intent names its statement, and DL000 on code CPython parses
is counted as ours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.realworld import ecosystem
from tests.conftest import ROOT

JOB = (
    "def save(df, t):\n"
    "    df.write.saveAsTable(t)\n"
    "\n"
    'spark.table("s").write.mode("append").saveAsTable("main.s.a")\n'
    'spark.sql("""\n'
    "    MERGE INTO main.s.b t USING u ON t.id = u.id\n"
    '    WHEN MATCHED THEN DELETE""")\n'
)


def _run(tmp_path: Path, intents: list[dict], findings: list[dict] | None = None) -> ecosystem.Ecosystem:
    (tmp_path / "job.py").write_text(JOB)
    report = {"findings": findings or []}
    return ecosystem.measure(tmp_path, report, intents, None, [])


def test_plain_writes_with_nothing_at_them_are_silent_drops(tmp_path):
    eco = _run(tmp_path, [])
    assert (eco.plain_writes, eco.silent_drops, eco.helper_unlocated) == (3, 2, 1)
    assert (eco.drops, eco.unlocated) == (["job.py:4", "job.py:6"], ["job.py:2"])


def test_an_intent_or_diagnostic_inside_the_statement_covers_it(tmp_path):
    intents = [
        {"path": "job.py", "line": 4, "kind": "blind_append", "table": "main.s.a"},
        {"path": "job.py", "line": 5, "kind": "merge", "table": "main.s.b"},  # the spark.sql( line
        {"path": "job.py", "line": 9, "kind": "full_overwrite", "table": "x", "sites": [{"path": "job.py", "line": 2}]},
    ]
    eco = _run(tmp_path, intents)
    assert (eco.silent_drops, eco.helper_unlocated, eco.intents) == (0, 0, 3)


def test_dl000_counts_as_ours_only_on_code_cpython_parses(tmp_path):
    (tmp_path / "bad.py").write_text("def (:\n")
    findings = [
        {"rule": "DL000", "location": {"path": "bad.py", "line": 1}},
        {"rule": "DL000", "location": {"path": "job.py", "line": 4}},
    ]
    eco = _run(tmp_path, [], findings)
    assert (eco.dl000, eco.dl000_valid, eco.dl000_sites) == (2, 1, ["job.py:4"])


def test_a_docstring_that_names_a_write_is_not_a_plain_write(tmp_path):
    (tmp_path / "doc.py").write_text(
        '"""Silver orders.\n\n  6. MERGE INTO Bronze -> Silver (upsert, not append)\n"""\n'
        "def f():\n"
        '    """Runs MERGE INTO silver.orders USING updates."""\n'
        '    q = "MERGE INTO main.s.o t USING u ON t.id = u.id WHEN MATCHED THEN DELETE"\n'
    )
    writes = ecosystem.plain_writes(tmp_path, [])
    assert [(w.path, w.line) for w in writes] == [("doc.py", 7)]


def _notebook(cells: list[dict]) -> str:
    """A notebook as nbformat writes it: one source line per line of the file."""
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 0}, indent=1) + "\n"


def test_a_notebook_is_read_from_its_code_cells_at_the_files_lines(tmp_path):
    titled = {"application/vnd.databricks.v1+cell": {"title": "Merge into the control table"}}
    text = _notebook(
        [
            {"cell_type": "markdown", "metadata": {}, "source": ["## Load\n", "- merge into the control table"]},
            {"cell_type": "code", "metadata": titled, "outputs": [], "source": ["x = 1"]},
            {
                "cell_type": "code",
                "metadata": {},
                "outputs": [],
                "source": ["%sql\n", "MERGE WITH SCHEMA EVOLUTION INTO main.s.c t\n", "USING u ON t.id = u.id"],
            },
        ]
    )
    (tmp_path / "nb.ipynb").write_text(text)
    merge = text.split("\n").index('    "MERGE WITH SCHEMA EVOLUTION INTO main.s.c t\\n",') + 1
    eco = ecosystem.measure(tmp_path, {"findings": []}, [], None, [])
    assert (eco.plain_writes, eco.drops) == (1, [f"nb.ipynb:{merge}"])
    at_merge = [{"path": "nb.ipynb", "line": merge, "kind": "merge", "table": "main.s.c"}]
    assert ecosystem.measure(tmp_path, {"findings": []}, at_merge, None, []).silent_drops == 0


def test_a_notebook_not_laid_out_line_by_line_is_read_as_text(tmp_path):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "merge into the control table"}]
    (tmp_path / "nb.ipynb").write_text('{"cells": ' + json.dumps(cells) + "}\n")
    eco = ecosystem.measure(tmp_path, {"findings": []}, [], None, [])
    assert (eco.plain_writes, eco.drops) == (1, ["nb.ipynb:1"])  # as before: prose is not told apart


def test_sql_text_printed_or_logged_is_not_a_plain_write(tmp_path):
    (tmp_path / "show.py").write_text(
        'print(f"""\nUPDATE control SET x = 1\nWHERE t = \'{t}\';\n""")\n'
        'logger.info("MERGE INTO main.s.o t USING u ON t.id = u.id WHEN MATCHED THEN DELETE")\n'
        'spark.sql(f"""\nUPDATE control SET x = 1\nWHERE t = \'{t}\';\n""")\n'
    )
    eco = ecosystem.measure(tmp_path, {"findings": []}, [], None, [])
    assert [d for d in eco.drops if d.startswith("show.py")] == ["show.py:7"]  # only the run one


def test_a_write_in_prose_or_in_another_dialect_is_no_plain_write(tmp_path):
    (tmp_path / "report.py").write_text(
        'TEMPLATE = """# Findings\n'
        "| Dynamic overwrite | REPLACE USING | derives the partition-level DELETE from the source keys |\n"
        '"""\n'
        'cur.execute("INSERT INTO app.queue (id) VALUES (%s) ON CONFLICT (id) DO NOTHING", (1,))\n'
    )
    assert ecosystem.plain_writes(tmp_path, []) == []


def test_a_write_starting_a_line_or_after_a_cte_is_still_a_plain_write(tmp_path):
    (tmp_path / "job.py").write_text(
        'q = """\n-- load\n  MERGE INTO main.s.o t USING u ON t.id = u.id\n"""\n'
        'r = """WITH u AS (SELECT 1) INSERT INTO main.s.p SELECT * FROM u\n"""\n'
        's = """\nSELECT 1; DELETE FROM main.s.q WHERE d = 1\n"""\n'
    )
    assert [w.line for w in ecosystem.plain_writes(tmp_path, [])] == [3, 5, 8]


def test_a_writer_chain_naming_another_format_is_no_plain_write(tmp_path):
    (tmp_path / "job.py").write_text(
        'df.write.format("parquet").mode("overwrite").saveAsTable("export.t")\n'
        'df.write.format("delta").mode("overwrite").saveAsTable("main.s.t")\n'
        'df.write.format(fmt).insertInto("main.s.u")\n'
    )
    assert [w.line for w in ecosystem.plain_writes(tmp_path, [])] == [2, 3]


def test_a_write_in_a_file_skipped_by_kind_is_counted_apart_unless_a_job_runs_it(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "load_test.py").write_text('spark.sql("DELETE FROM main.s.ctl WHERE id = 1")\n')
    eco = ecosystem.measure(tmp_path, {"findings": []}, [], None, [])
    assert (eco.silent_drops, eco.in_skipped, eco.skipped_sites) == (0, 1, ["tests/load_test.py:1 (test)"])
    scheduled = {"nodes": [{"files": ["tests/load_test.py"]}]}
    eco = ecosystem.measure(tmp_path, {"findings": []}, [], scheduled, [])
    assert (eco.silent_drops, eco.in_skipped, eco.drops) == (1, 0, ["tests/load_test.py:1"])


@pytest.mark.benchmark
def test_drops_prints_each_silent_drop_of_any_folder(tmp_path):
    """`python -m benchmarks.realworld drops DIR`: delta-lint runs on a folder outside the
    manifest and each plain write it says nothing at is printed at its file and line."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "job.py").write_text(
        'spark.table("s").write.mode("append").saveAsTable("main.s.a")\n'  # read: an intent
        "def save(df, t):\n"
        "    df.write.saveAsTable(t)\n"  # a helper never called: a DL001 at its line
        'spark.sql("""\n'
        "    MERGE INTO main.s.b t USING u ON t.id = u.id\n"
        '    WHEN MATCHED THEN DELETE""")\n'
        "spark.sql(QUERY)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.realworld", "drops", str(repo), "--helpers"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"  DL007  {repo / 'job.py'}:7" in proc.stdout.splitlines()
    assert "0 silent drops of 3 plain writes" in proc.stdout
    (repo / "more.py").write_text(
        "getattr(df.write, name)(t)\nsave = df.write.insertInto\nINSERT = 'INSERT INTO x SELECT 1'\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.realworld", "drops", str(repo)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1
    assert [line for line in proc.stdout.splitlines() if line.startswith("  drop")] == [
        f"  drop   {repo / 'more.py'}:3"
    ]


def test_a_diagnostic_at_the_call_covers_the_text_it_names_as_its_site(tmp_path):
    """A DL007 (or DL001) stands at `spark.sql(q)` and names where `q`'s text was
    written in `sites`: the write in that text has a diagnostic, it is no drop."""
    (tmp_path / "op.py").write_text(
        'if kind == "insert":\n'
        '    q = f"""\n        INSERT INTO {t} {cols} VALUES {vals}\n        """\n'
        "else:\n"
        '    q = f"""\n        DELETE FROM {t} WHERE {cond}\n        """\n'
        "spark.sql(q)\n"
    )
    finding = {"rule": "DL007", "location": {"path": "op.py", "line": 10}, "related": []}
    eco = ecosystem.measure(tmp_path, {"findings": [finding]}, [], None, [])
    assert eco.drops == ["op.py:3", "op.py:7"]  # the call's own line covers neither text
    finding["sites"] = [{"path": "op.py", "line": 2, "column": 9}]
    eco = ecosystem.measure(tmp_path, {"findings": [finding]}, [], None, [])
    assert eco.drops == ["op.py:7"]  # the site covers its own text's statement only


def test_a_write_in_a_hidden_folder_is_out_of_scope_as_discovery_skips_it(tmp_path):
    """Discovery never reads a hidden folder (an assistant's skill scripts, CI
    configuration): a write there is no file delta-lint lost. The folder the run
    starts in may itself sit under a hidden one."""
    root = tmp_path / ".cache" / "repo"
    (root / ".claude" / "skills").mkdir(parents=True)
    (root / "jobs").mkdir()
    (root / ".claude" / "skills" / "gen.py").write_text('df.write.saveAsTable("main.s.tmp")\n')
    (root / "jobs" / "load.py").write_text('df.write.saveAsTable("main.s.t")\n')
    assert [w.path for w in ecosystem.plain_writes(root, [])] == ["jobs/load.py"]


def test_sql_sent_to_another_database_is_no_plain_write(tmp_path):
    """A statement a psycopg2 cursor (made through a helper), a sqlite3 connection or
    DuckDB's module runs writes no Delta table; `spark.sql` and a cursor of unknown
    origin (a parameter) in the same file still do."""
    (tmp_path / "lake.py").write_text(
        "import duckdb\nimport psycopg2\nimport sqlite3\n\n"
        "def _pg(db):\n    for _ in range(3):\n        conn = psycopg2.connect(database=db)\n        return conn\n\n"
        "_conn = _pg('app')\n_cur = _conn.cursor()\n"
        '_cur.execute("""\n    INSERT INTO public.notes (id) VALUES (%s)\n""", (1,))\n'  # 13
        'sqlite3.connect("x.db").execute("DELETE FROM cache WHERE k = 1")\n'  # 15
        'duckdb.sql("INSERT INTO staging SELECT 1")\n'  # 16
        'spark.sql("INSERT INTO main.s.notes SELECT * FROM v")\n'  # 17
        "def load(cur):\n"
        '    cur.execute("DELETE FROM main.s.notes WHERE id = 1")\n'  # 19
    )
    assert [(w.line, w.in_function) for w in ecosystem.plain_writes(tmp_path, [])] == [(17, False), (19, True)]


def test_path_writes_writer_v2_and_delta_table_dml_are_plain_writes(tmp_path):
    """The other plain ways to write a Delta table: a writer chain naming Delta that
    saves or starts at a path, `writeTo(t)` with its action, and a DELETE or UPDATE
    of a table the chain opens. Their near misses are none: a path write of another
    format or of no named format, `writeTo` with another provider, `pd.DataFrame.update`,
    and a `.delete(` of an object the chain did not open as a Delta table."""
    (tmp_path / "job.py").write_text(
        'df.write.format("delta").mode("overwrite").save(f"{BASE}/gold")\n'  # 1
        'df.writeStream.format("delta").option("checkpointLocation", c).start("/mnt/t")\n'  # 2
        'df.writeTo("main.s.t").append()\n'  # 3
        'df.writeTo("main.s.t").using("delta").createOrReplace()\n'  # 4
        'DeltaTable.forName(spark, "main.s.t").delete("d < 1")\n'  # 5
        'DeltaTable.forPath(spark, p).update("id = 1", {"x": "2"})\n'  # 6
        'df.write.format("parquet").save("/mnt/x")\n'
        'df.write.mode("overwrite").save(path)\n'
        'df.writeTo("ice.s.t").using("iceberg").append()\n'
        "pdf.update(other)\n"
        'requests.delete("https://x")\n'
        "dt.delete()\n"
    )
    assert [w.line for w in ecosystem.plain_writes(tmp_path, [])] == [1, 2, 3, 4, 5, 6]


def test_a_terminal_handed_on_uncalled_is_a_plain_write_where_it_is_named(tmp_path):
    """`partial(df.write.saveAsTable)` writes where the partial is called: the terminal
    is the plain write. A name bound to it (`save = w.saveAsTable`), a printed one
    and an attribute of another name are none."""
    (tmp_path / "job.py").write_text(
        'save = partial(df.write.mode("append").saveAsTable)\n'  # 1
        'pool.map(df.write.insertInto, ["a", "b"])\n'  # 2
        'ops = {"load": w.toTable}\n'  # 3
        "alias = df.write.saveAsTable\n"
        "print(df.write.saveAsTable)\n"
        "partial(df.write.save)\n"
    )
    assert [w.line for w in ecosystem.plain_writes(tmp_path, [])] == [1, 2, 3]


def test_a_merge_any_builder_clause_follows_is_a_plain_write(tmp_path):
    """A `.merge(` followed by a merge builder's clause is a Delta merge whatever the
    receiver's name (Spark's or delta-rs' spelling); a pandas merge is none."""
    (tmp_path / "job.py").write_text(
        'dt.merge(src, "t.id = s.id", source_alias="s", target_alias="t").when_matched_update_all().execute()\n'
        'target.merge(src, "t.id = s.id").whenNotMatchedInsertAll().execute()\n'
        'left.merge(right, on="id").dropna()\n'
    )
    assert [w.line for w in ecosystem.plain_writes(tmp_path, [])] == [1, 2]


def test_a_merge_builder_kept_in_a_name_spans_to_the_statement_executing_it(tmp_path):
    """`m = t.merge(s, c)`, clauses added to `m` over later statements, `m.execute()`:
    delta-lint reports the merge at the execute, which is inside the write's span.
    A builder no later statement executes keeps its own statement's span."""
    (tmp_path / "job.py").write_text(
        'm = DeltaTable.forName(spark, "main.s.t").alias("t").merge(src.alias("s"), "t.id = s.id")\n'
        "m = m.whenMatchedUpdateAll()\n"
        "m.execute()\n"
        'n = DeltaTable.forName(spark, "main.s.u").alias("t").merge(src.alias("s"), "t.id = s.id")\n'
        "other.execute()\n"
    )
    intents = [{"path": "job.py", "line": 3, "kind": "merge", "table": "main.s.t"}]
    eco = ecosystem.measure(tmp_path, {"findings": []}, intents, None, [])
    assert [w.span for w in ecosystem.plain_writes(tmp_path, [])] == [(1, 3), (4, 4)]
    assert eco.drops == ["job.py:4"]
