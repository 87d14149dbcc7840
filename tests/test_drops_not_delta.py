"""The ecosystem count (`benchmarks/realworld/ecosystem.py`, `drops`) counts a plain
write delta-lint says nothing at as a silent drop. A write to a table the project
creates in another format (`USING ICEBERG`, `.format("parquet").saveAsTable`) is
none: delta-lint's front end leaves it out on purpose, and the count takes that
decision from the front end (`Links.non_delta`), counting such writes apart with the
table named. A write the run misses on any other table is still a silent drop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.realworld import ecosystem
from tests.conftest import run_cli

# a statement delta-lint never runs (text held, not executed): an unmarked plain write
_HELD = 'UNUSED = """INSERT INTO main.ops.{table} SELECT 1 AS id"""\n'


def _measure(files: dict[str, str], root: Path) -> ecosystem.Ecosystem:
    """The count over what `delta-lint check` and `intents` print, as `drops` runs them."""
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    report = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)
    intents = json.loads(run_cli("intents", ".", "--format", "json", cwd=root).stdout)
    return ecosystem.measure(root, report, intents, None, [])


@pytest.mark.parametrize(
    "create",
    [
        {"create.sql": "CREATE TABLE IF NOT EXISTS main.ops.runs (id INT) USING ICEBERG;\n"},
        {"create.py": 'spark.range(1).write.format("parquet").saveAsTable("main.ops.runs")\n'},
    ],
)
def test_writes_to_a_table_made_in_another_format_are_no_drops(tmp_path, create):
    files = {
        **create,
        "ingest.sql": "MERGE INTO main.ops.runs AS t USING (SELECT 1 AS id) AS s ON t.id = s.id\n"
        "WHEN NOT MATCHED THEN INSERT *;\n",
        "held.py": _HELD.format(table="runs"),
    }
    eco = _measure(files, tmp_path)
    assert (eco.silent_drops, eco.not_delta) == (0, 2), (eco.drops, eco.not_delta_sites)
    assert all("main.ops.runs" in site for site in eco.not_delta_sites)


def test_a_missed_write_to_another_table_is_still_a_drop(tmp_path):
    files = {
        "create.sql": "CREATE TABLE IF NOT EXISTS main.ops.runs (id INT) USING ICEBERG;\n",
        # it reads the Iceberg table, and writes a Delta one
        "held.py": 'UNUSED = """INSERT INTO main.ops.totals SELECT * FROM main.ops.runs"""\n',
    }
    eco = _measure(files, tmp_path)
    assert (eco.silent_drops, eco.not_delta) == (1, 0)
    assert eco.drops == ["held.py:1"]
