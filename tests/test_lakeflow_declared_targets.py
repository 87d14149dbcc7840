"""A streaming table a pipeline's SQL declares with no query is the target of the
flows into it, not a write of its own.

The kind: `CREATE OR REFRESH STREAMING TABLE t;` (or with columns, properties, a
generated column's `AS (expr)`) only declares `t`, as `create_streaming_table` does
in Python; the writes are the flows into it (`CREATE FLOW f AS INSERT INTO t ...`,
`APPLY CHANGES INTO t`, `AUTO CDC INTO t`), each at its own statement. Read as a
dataset, the declaration took the flow's place (one intent per table and kind), so
a flow on the next lines had nothing at it. A streaming table with a query is its
own write, at its line.
"""

from __future__ import annotations

import pytest

from delta_lint.frontend.lakeflow import analyze_lakeflow
from delta_lint.model import Kind

_PIPELINE = (("main", "s", ()),)


def _writes(sql: str) -> list[tuple[int, str, Kind]]:
    found = analyze_lakeflow("p.sql", ".sql", sql, _PIPELINE)
    return sorted((i.location.line, i.table.name, i.kind) for i in found.intents)


DECLARATIONS = {
    "bare": "CREATE OR REFRESH STREAMING TABLE t;\n",
    "columns and properties": "CREATE OR REFRESH STREAMING TABLE t (\n  id INT,\n  d DATE GENERATED ALWAYS AS (CAST(ts AS DATE))\n)\nTBLPROPERTIES ('a' = 'b');\n",
    "no OR REFRESH": "CREATE STREAMING TABLE IF NOT EXISTS t\nCOMMENT 'target';\n",
}
FLOWS = {
    "flow on two lines": (
        "CREATE FLOW f AS\nINSERT INTO t BY NAME\nSELECT * FROM STREAM(src);\n",
        Kind.STREAMING_WRITE,
    ),
    "apply changes": ("APPLY CHANGES INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY ts;\n", Kind.MERGE),
}


@pytest.mark.parametrize("declared", sorted(DECLARATIONS))
@pytest.mark.parametrize("flow", sorted(FLOWS))
def test_a_declared_target_is_written_by_its_flows_at_their_lines(declared, flow) -> None:
    head = DECLARATIONS[declared]
    text, kind = FLOWS[flow]
    flow_line = head.count("\n") + 2
    assert _writes(head + "\n" + text) == [(flow_line, "main.s.t", kind)]


def test_a_streaming_table_with_a_query_is_its_own_write() -> None:
    sql = "CREATE OR REFRESH STREAMING TABLE t\nAS SELECT * FROM STREAM(src);\n"
    assert _writes(sql) == [(1, "main.s.t", Kind.STREAMING_WRITE)]
    piped = "CREATE OR REFRESH STREAMING TABLE t AS (\n  FROM STREAM(src) |> WHERE x > 1\n);\n"
    assert _writes(piped) == [(1, "main.s.t", Kind.STREAMING_WRITE)]
