"""A SQL procedure defined in one file and CALLed in another.

Jobs keep their procedures in a file of their own (`sql/procs.sql`: `CREATE OR
REPLACE PROCEDURE ops.load_orders() ... BEGIN MERGE INTO ... END`) and CALL them from
a job's SQL file, a notebook or `spark.sql("CALL ...")`. The defining file gives
each procedure to the link stage (`Links.procedures`), the calling file names the
procedures it CALLs without defining them (`Links.calls`), and the link stage gives
it their definitions (`Context.procedures`): the CALL makes the body's writes, at
the CALL, each naming the body's statement (in the defining file) as its site. A
CALL no file defines stays a note (DL007). A `DECLARE ... HANDLER`'s block runs
on an error: its write is one of the body's, as it is within one file."""

from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.config import validate
from delta_lint.run import check

PROCS = """USE CATALOG main;

CREATE OR REPLACE PROCEDURE ops.load_orders()
LANGUAGE SQL
AS BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    INSERT INTO ops.load_errors VALUES ('orders');
  END;
  MERGE INTO sales.orders t USING staging.orders s ON t.id = s.id
    WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
END;
"""


def _writes(result) -> list[tuple]:
    return sorted(
        (
            i.location.path,
            i.location.line,
            i.table.name,
            i.kind.value,
            tuple((s.path, s.line) for s in i.location.sites),
        )
        for i in result.intents
    )


def _notes(result) -> list[tuple[str, str, int]]:
    return [(d.rule, d.location.path, d.location.line) for d in result.diagnostics]


def test_a_call_in_another_sql_file_makes_the_bodys_writes_at_the_call(lint):
    result = lint({"sql/procs.sql": PROCS, "jobs/nightly.sql": "SELECT 1;\nCALL main.ops.load_orders();\n"})
    assert _writes(result) == [
        ("jobs/nightly.sql", 2, "main.ops.load_errors", "blind_append", (("sql/procs.sql", 8),)),
        ("jobs/nightly.sql", 2, "main.sales.orders", "merge", (("sql/procs.sql", 10),)),
    ]
    assert _notes(result) == []


def test_a_notebooks_spark_sql_call_makes_them_too(lint):
    notebook = (
        "# Databricks notebook source\n"
        'spark.sql("USE CATALOG main")\n'
        "\n# COMMAND ----------\n\n"
        'spark.sql("CALL ops.load_orders()")\n'
    )
    result = lint({"sql/procs.sql": PROCS, "notebooks/load.py": notebook})
    assert _writes(result) == [
        ("notebooks/load.py", 6, "main.ops.load_errors", "blind_append", (("sql/procs.sql", 8),)),
        ("notebooks/load.py", 6, "main.sales.orders", "merge", (("sql/procs.sql", 10),)),
    ]


def test_the_call_conflicts_with_another_jobs_write_as_the_body_would(lint):
    result = lint(
        {
            "sql/procs.sql": PROCS,
            "jobs/nightly.sql": "CALL main.ops.load_orders();\n",
            "jobs/fix.sql": "DELETE FROM main.sales.orders WHERE id = 0;\n",
        }
    )
    sides = {(f.location.path, f.location.line) for f in result.findings} | {
        (r.path, r.line) for f in result.findings for r in f.related
    }
    assert ("jobs/nightly.sql", 1) in sides and ("jobs/fix.sql", 1) in sides


def test_a_call_no_file_defines_is_a_note_and_a_near_name_is_not_taken(lint):
    """`ops2.load_orders` is not `ops.load_orders`: no write, and the note says no file
    of the project defines it."""
    result = lint({"sql/procs.sql": PROCS, "jobs/nightly.sql": "CALL main.ops2.load_orders();\n"})
    assert _writes(result) == []
    assert _notes(result) == [("DL007", "jobs/nightly.sql", 1)]
    assert "main.ops2.load_orders" in result.diagnostics[0].message


def test_an_unqualified_call_takes_the_one_definition_of_that_name(lint):
    """`CALL load_orders()` with no `USE`: the catalog and schema are the job's
    defaults, which the code does not say; the one procedure of that name is taken.
    When two files define it with different bodies, neither is (a note)."""
    one = lint({"sql/procs.sql": PROCS, "jobs/nightly.sql": "CALL load_orders();\n"})
    assert [(w[0], w[2]) for w in _writes(one)] == [
        ("jobs/nightly.sql", "main.ops.load_errors"),
        ("jobs/nightly.sql", "main.sales.orders"),
    ]
    other = PROCS.replace("USE CATALOG main;", "USE CATALOG dev;").replace("sales.orders", "sales.orders_v2")
    two = lint({"sql/procs.sql": PROCS, "sql/dev.sql": other, "jobs/nightly.sql": "CALL load_orders();\n"})
    assert _writes(two) == []
    assert _notes(two) == [("DL007", "jobs/nightly.sql", 1)]
    assert "several do differently" in two.diagnostics[0].message  # not "no file defines" alone


def test_an_edited_definition_reaches_the_caller_through_the_cache(tmp_path: Path, monkeypatch):
    """The caller's reading is keyed by the definitions it is given: editing the
    procedure's file alone changes what the unchanged caller writes."""
    monkeypatch.setenv("DELTA_LINT_CACHE_DIR", str(tmp_path / "cache"))
    project = tmp_path / "p"
    (project / "sql").mkdir(parents=True)
    (project / "jobs").mkdir()
    (project / "sql" / "procs.sql").write_text(PROCS, encoding="utf-8")
    (project / "jobs" / "nightly.sql").write_text("CALL main.ops.load_orders();\n", encoding="utf-8")
    monkeypatch.chdir(project)
    config = validate({}, project / "delta-lint.yaml")

    def tables() -> list[str]:
        return sorted(i.table.name for i in check([project], config, cwd=project, use_cache=True).intents)

    assert tables() == ["main.ops.load_errors", "main.sales.orders"]
    (project / "sql" / "procs.sql").write_text(PROCS.replace("sales.orders", "sales.orders_v2"), encoding="utf-8")
    assert tables() == ["main.ops.load_errors", "main.sales.orders_v2"]


def test_a_body_calling_another_files_procedure_makes_its_writes_at_each_call(lint):
    """`ops.a` (one file) CALLs `ops.b` (another): a job's `CALL ops.a()` makes b's
    write, and the file defining `ops.a` is given `ops.b` too (no note that no file
    defines it)."""
    head = "USE CATALOG main;\nCREATE OR REPLACE PROCEDURE ops.{name}()\nLANGUAGE SQL\nAS BEGIN\n  {body}\nEND;\n"
    result = lint(
        {
            "sql/a.sql": head.format(name="a", body="CALL main.ops.b();"),
            "sql/b.sql": head.format(name="b", body="INSERT INTO sales.t VALUES (1);"),
            "jobs/job.sql": "CALL main.ops.a();\n",
        }
    )
    assert [(w[0], w[2]) for w in _writes(result)] == [("jobs/job.sql", "main.sales.t")]
    assert _notes(result) == []


NAMED = """CREATE OR REPLACE PROCEDURE main.ops.load()
LANGUAGE SQL
AS BEGIN
  INSERT INTO main.sales.t VALUES (1);
END;
"""


@pytest.mark.parametrize(
    "files",
    [
        {"sql/procs.sql": NAMED, "jobs/nightly.sql": "CALL load();\n"},  # across files
        {"jobs/nightly.sql": NAMED + "CALL load();\n"},  # in the defining file
    ],
    ids=["across-files", "in-file"],
)
def test_a_call_less_qualified_than_the_definition_is_read_with_a_note(lint, files):
    """The job's default catalog and schema decide which `load` runs: the one the
    project defines is read, and a note says it was matched by name — the same in
    the defining file and in another."""
    result = lint(files)
    assert [w[2] for w in _writes(result) if w[0] == "jobs/nightly.sql" and w[4]] == ["main.sales.t"]
    (note,) = [d for d in result.diagnostics if d.rule == "DL007"]
    assert note.location.path == "jobs/nightly.sql"
    assert "read as `main.ops.load`" in note.message and "default catalog and schema" in note.message


def test_a_fully_qualified_call_of_another_schema_is_not_matched_by_name(lint):
    result = lint({"jobs/nightly.sql": NAMED + "CALL main.dev.load();\n"})
    assert [w for w in _writes(result) if w[4]] == []
    assert "which no file of the project defines" in result.diagnostics[0].message


def _chain(n: int, *, back: bool = False) -> dict[str, str]:
    """`p1` CALLs `p2` ... `pn`, each writing its own table, one file each (with
    `back`, `pn` CALLs `p1` again: a recursion)."""
    files = {}
    for k in range(1, n + 1):
        call = f"CALL main.ops.p{k + 1}();" if k < n else ("CALL main.ops.p1();" if back else "")
        files[f"sql/p{k}.sql"] = (
            f"CREATE OR REPLACE PROCEDURE main.ops.p{k}()\nLANGUAGE SQL\nAS BEGIN\n"
            f"  INSERT INTO main.db.t{k} VALUES (1);\n  {call}\nEND;\n"
        )
    files["jobs/job.sql"] = "CALL main.ops.p1();\n"
    return files


def test_a_chain_of_calls_deeper_than_four_files_makes_every_write(lint):
    writes = [w for w in _writes(lint(_chain(6))) if w[0] == "jobs/job.sql"]
    assert sorted(w[2] for w in writes) == [f"main.db.t{k}" for k in range(1, 7)]
    # each write names its statement and the CALLs it came through, once each
    deepest = next(w for w in writes if w[2] == "main.db.t6")
    assert len(deepest[4]) == len(set(deepest[4])) == 6  # the CALLs of p1..p5, the INSERT of p6


def test_a_recursion_makes_each_write_once(lint):
    writes = [w for w in _writes(lint(_chain(2, back=True))) if w[0] == "jobs/job.sql"]
    assert sorted(w[2] for w in writes) == ["main.db.t1", "main.db.t2"]


def test_the_same_text_under_another_use_is_another_definition(lint):
    body = (
        "CREATE OR REPLACE PROCEDURE main.ops.load()\nLANGUAGE SQL\nAS BEGIN\n  INSERT INTO events VALUES (1);\nEND;\n"
    )
    result = lint(
        {
            "sql/a.sql": "USE main.sales;\n" + body,
            "sql/b.sql": "USE main.finance;\n" + body,
            "jobs/c.sql": "CALL main.ops.load();\n",
        }
    )
    assert [w for w in _writes(result) if w[0] == "jobs/c.sql"] == []
    assert ("DL007", "jobs/c.sql", 1) in _notes(result)
    same = lint({"sql/a.sql": "USE main.sales;\n" + body, "sql/b.sql": "USE main.sales;\n" + body})
    assert _notes(same) == []


def test_a_call_above_its_own_files_create_runs_what_the_last_run_made(lint):
    script = "CALL main.ops.load();\n" + NAMED
    result = lint({"jobs/nightly.sql": script})
    assert [(w[1], w[2]) for w in _writes(result) if w[4]] == [(1, "main.sales.t")]
    assert _notes(result) == []


def test_a_chain_of_calls_in_one_file_names_each_site_once(lint):
    """`p16` CALLs `p15` ... CALLs `p1`: the write of `p1` names 16 places (the CALL of
    each procedure above it, its own INSERT), not a copy of every chain below each."""
    parts = [
        "CREATE OR REPLACE PROCEDURE main.ops.p1()\nLANGUAGE SQL\nAS BEGIN\n  INSERT INTO main.db.t VALUES (1);\nEND;\n"
    ]
    for k in range(2, 17):
        parts.append(
            f"CREATE OR REPLACE PROCEDURE main.ops.p{k}()\nLANGUAGE SQL\nAS BEGIN\n  CALL main.ops.p{k - 1}();\nEND;\n"
        )
    result = lint({"jobs/job.sql": "".join(parts) + "CALL main.ops.p16();\n"})
    (write,) = [w for w in _writes(result) if w[4]]
    assert len(write[4]) == len(set(write[4])) == 16
    # a site holds no sites of its own: a chain stored in the cache grows with its
    # depth, not twice per level (18 levels took 6.9 s and 419 MB that way)
    (intent,) = [i for i in result.intents if i.location.sites]
    assert all(site.sites == () for site in intent.location.sites)
