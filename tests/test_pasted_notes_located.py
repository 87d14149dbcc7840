"""A budget note about a line of a helper of another module, read as part of a file
(pasted after the file's own code), is said at the file's call being read, never
at a line past the file's end, and names the helper's own file and line in its
words. Near miss: a note about the file's own line is said there, with no file
named."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

SQLB = (
    "def _lit(v):\n"
    '    return "\'" + str(v).replace("\'", "\'\'") + "\'"\n'
    "\n"
    "\n"
    "def insert_audit(run_id):\n"
    '    return f"INSERT INTO main.shop.audit VALUES ({_lit(run_id)}, current_timestamp())"\n'
)


def test_a_note_in_a_pasted_helper_is_said_at_the_files_call(lint):
    counts = "".join(
        f'n{i} = spark.sql(f"SELECT count(*) FROM main.shop.t WHERE x = {{sqlb._lit({i})}}")\n' for i in range(70)
    )
    job = NOTEBOOK + "import sqlb\n" + counts + 'spark.sql(sqlb.insert_audit("r1"))\n'
    last = job.count("\n")
    result = lint({"sqlb.py": SQLB, "job.py": job})
    notes = [f for f in result.findings if f.rule == "DL008"]
    assert notes and all(f.location.line <= last for f in notes)
    pasted = [f for f in notes if "(in `" in f.message]
    assert [(f.location.line, "(in `sqlb.py` line 6)" in f.message) for f in pasted] == [(last, True)]
    # near miss: the file's own calls past the count are said at their own lines
    assert {f.location.line for f in notes if f not in pasted} == set(range(last - 6, last))
