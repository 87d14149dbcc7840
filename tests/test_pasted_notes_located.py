"""A budget note about a line of a helper of another module, read as part of a file
(pasted after the file's own code), is said at the file's call being read, never
at a line past the file's end, and names the helper's own file and line in its
words. Near miss: a note about the file's own line is said there, with no file
named."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

SQLB = (
    "def _fq(cat, sch, t):\n"
    "    return f'`{cat}`.`{sch}`.`{t}`'\n"
    "def _lit(v):\n"
    '    return "\'" + str(v).replace("\'", "\'\'") + "\'"\n'
    "def merge_orders(cat, sch, run_id):\n"
    '    return (f\'MERGE INTO {_fq(cat, sch, "orders")} t USING (SELECT * FROM {_fq(cat, sch, "stage")} \'\n'
    "            f'WHERE run_id = {_lit(run_id)}) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *')\n"
)


def _job(counts: int) -> str:
    lines = "".join(
        f"n{i} = spark.sql(f\"SELECT count(*) FROM {{sqlb._fq(CAT, SCH, 'o')}} WHERE x = {{sqlb._lit({i})}}\").collect()\n"
        for i in range(counts)
    )
    return (
        NOTEBOOK
        + "import sqlb\nCAT, SCH = 'main', 'shop'\nrun_id = 'r1'\n"
        + lines
        + "spark.sql(sqlb.merge_orders(CAT, SCH, run_id))\n"
    )


def _notes(result) -> list[tuple[int, str]]:
    return [
        (f.location.line, f.message)
        for f in result.findings
        if f.rule == "DL008" and f.location.path.endswith("job.py")
    ]


def test_a_note_in_a_pasted_helper_is_said_at_the_files_call(lint):
    job = _job(64)  # the helper's 64 calls used by the file's own lines: its 65th is in `merge_orders`
    last = job.count("\n")
    [(line, message)] = _notes(lint({"sqlb.py": SQLB, "job.py": job}))
    assert line == last  # the file's call of `merge_orders`, not a line past the file's end
    assert "(in `sqlb.py` line 7)" in message and "`_lit`" in message


def test_near_miss_a_note_on_the_files_own_line_is_said_there(lint):
    job = _job(66)
    [(line, message)] = _notes(lint({"sqlb.py": SQLB, "job.py": job}))
    assert line == 5 + 64 and "(in `" not in message  # the 65th call, on the file's own line
