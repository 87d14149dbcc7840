"""The same write made again at the same place (each round of a loop makes it) is one
intent; different writes at one place, and one write at several places, stay apart
(`frontend.analyze_source`)."""

from __future__ import annotations

from delta_lint.frontend import analyze_source


def _writes(code: str) -> list[tuple[int, int, str, str]]:
    result = analyze_source("job.py", ".py", code)
    return [(i.location.line, i.location.column, i.table.name, i.kind.name) for i in result.intents]


def test_a_write_each_round_of_a_loop_makes_is_one_intent():
    code = 'for i in range(3):\n    spark.sql("DELETE FROM main.a.t WHERE d = 1")\n'
    assert _writes(code) == [(2, 5, "main.a.t", "DELETE")]


def test_the_writes_of_several_values_at_one_place_stay_apart_each_once():
    code = 'for t in ["main.a.x", "main.a.y", "main.a.x"]:\n    spark.sql(f"DELETE FROM {t} WHERE d = 1")\n'
    assert _writes(code) == [(2, 5, "main.a.x", "DELETE"), (2, 5, "main.a.y", "DELETE")]


def test_one_write_at_two_places_is_two_intents_and_a_condition_tells_writes_apart():
    code = (
        'for t in ["main.a.x", "main.a.y"]:\n'
        '    spark.sql(f"DELETE FROM {t} WHERE d = 1")\n'
        '    spark.sql(f"DELETE FROM {t} WHERE d = 1")\n'
        'for d in ["1", "2", "1"]:\n'
        '    spark.sql(f"DELETE FROM main.a.z WHERE d = {d}")\n'
    )
    found = _writes(code)
    assert found[:4] == [
        (2, 5, "main.a.x", "DELETE"),
        (2, 5, "main.a.y", "DELETE"),
        (3, 5, "main.a.x", "DELETE"),
        (3, 5, "main.a.y", "DELETE"),
    ]
    conditions = [i.predicate_sql for i in analyze_source("job.py", ".py", code).intents if i.table.name == "main.a.z"]
    assert sorted(conditions) == ["d = 1", "d = 2"]
