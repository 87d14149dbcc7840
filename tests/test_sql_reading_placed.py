"""A statement met again is taken from the run's memo and placed where it stands: the
placed intents and diagnostics must be what reading it anew there gives, holding
nothing the first place's intents came to keep of themselves."""

from __future__ import annotations

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.sql import Session, analyze_sql
from delta_lint.model import Location

# a write of a table only a run names: an intent and a diagnostic to place
_TEXT = "DELETE FROM main.sales.{table} WHERE day = '{ds}'"


def test_a_statement_met_again_is_what_reading_it_anew_there_gives():
    memo = FrontEndMemo()
    (first,), _ = analyze_sql(_TEXT, "a.sql", Session(), memo=memo)
    assert first.op_class is not None  # the engine's first use keeps it on the intent
    again, again_diags = analyze_sql("\n\n" + _TEXT, "b.sql", Session(), memo=memo)
    fresh, fresh_diags = analyze_sql("\n\n" + _TEXT, "b.sql", Session())
    assert memo.statements_read == 1  # the second was placed, not read
    assert again == fresh and again_diags == fresh_diags and len(again_diags) == 1
    assert [vars(i) for i in again] == [vars(i) for i in fresh]  # nothing carried over
    assert again[0].location == again_diags[0].location == Location("b.sql", 3, 1)
    assert first.location == Location("a.sql", 1, 1)  # the kept reading is not moved


def test_a_statement_met_under_another_schema_is_read_anew():
    """The near miss: the same text after a `USE` of another schema reads another table."""
    memo = FrontEndMemo()
    text = "DELETE FROM orders WHERE day = '2024-01-01'"
    (first,), _ = analyze_sql(f"USE a;\n{text}", "a.sql", Session(), memo=memo)
    (second,), _ = analyze_sql(f"USE b;\n{text}", "b.sql", Session(), memo=memo)
    assert memo.statements_read == 2
    assert (first.table.name, second.table.name) == ("a.orders", "b.orders")
