"""A Delta write known by its chain's text alone (a writer naming `format("delta")`
ending in `save` / a stream's `start`, `writeTo(t)` and an action, a DeltaTable
opened by name or path and its `delete` / `update`) that the reader leaves unread
(code after a notebook's exit) gets a note
at its line, as a `saveAsTable` does: never nothing. The same shapes of another
format, or calls that only share a terminal's name, stay unsaid."""

from __future__ import annotations

import pytest

HEAD = """\
# Databricks notebook source
from delta.tables import DeltaTable

ROOT = "abfss://c@acct.dfs.core.windows.net"
df = spark.read.json(f"{ROOT}/raw")
dbutils.notebook.exit("SKIP")

"""


def _notes(lint, body: str) -> list[tuple[int, str]]:
    result = lint({"nb.py": HEAD + body})
    return [(d.location.line, d.message) for d in result.diagnostics if d.rule == "DL001"]


@pytest.mark.parametrize(
    "write",
    [
        'df.write.mode("overwrite").format("delta").save(f"{ROOT}/bronze")',
        'df.write.format("delta").mode("append").save(path=f"{ROOT}/bronze")',
        'df.write.mode("append").save(f"{ROOT}/bronze", format="delta")',
        'df.writeStream.format("delta").option("checkpointLocation", "/c").start(f"{ROOT}/s")',
        'df.writeTo("c.s.t").using("delta").append()',
        'df.writeTo("c.s.t").overwritePartitions()',
        'DeltaTable.forName(spark, "c.s.t").delete("d < 1")',
        'DeltaTable.forPath(spark, f"{ROOT}/bronze").update("d < 1", {"v": "1"})',
    ],
)
def test_a_delta_write_after_the_notebook_exits_is_said_never_to_run(lint, write):
    notes = _notes(lint, write + "\n")
    assert len(notes) == 1
    line, message = notes[0]
    assert line == 8 and "never runs" in message


@pytest.mark.parametrize(
    "call",
    [
        'df.write.mode("overwrite").format("parquet").save(f"{ROOT}/bronze")',
        'df.write.format(fmt).save(f"{ROOT}/bronze")',  # a format only a run knows: not plainly Delta
        'model.save(f"{ROOT}/model")',
        "threading.Thread(target=print).start()",
        'requests.delete("https://x")',
        'df.writeTo("c.s.t").option("k", "v")',  # no action: nothing written
    ],
)
def test_calls_that_only_share_a_terminal_name_stay_unsaid(lint, call):
    assert _notes(lint, call + "\n") == []


def test_a_delta_write_the_reader_reads_gets_its_intent_and_no_note(lint):
    result = lint({"nb.py": 'spark.range(1).write.format("delta").mode("append").save("/mnt/x")\n'})
    assert [(i.location.line, i.table.name) for i in result.intents] == [(1, "delta:/mnt/x")]
    assert [d for d in result.diagnostics if d.rule == "DL001"] == []
