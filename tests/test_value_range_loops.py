"""`for i in range(...)` with bounds the code knows runs its body once per number,
as a loop over a literal list does: `range(3)`, `range(1, N + 1)`, `range(3, 0, -1)`,
and `range(len(TABLES))` with `TABLES[i]` of a literal list. Each case has its near
miss, read as before (the body once, the number unknown): a bound only a run
knows, a range with no turn or more turns than a literal list may hold, a list
the code changes in place, and a `range` of the code's own."""

from __future__ import annotations

from delta_lint.frontend import analyze_source


def tables(code: str) -> list[tuple[int, str | None]]:
    """(line, table) of every intent of a Python job file, sorted."""
    result = analyze_source("job.py", ".py", code)
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


INSERT = '    spark.sql(f"INSERT INTO main.s.t{i} SELECT 1")\n'


def test_range_of_a_known_count_runs_once_per_number():
    assert tables("for i in range(3):\n" + INSERT) == [(2, "main.s.t0"), (2, "main.s.t1"), (2, "main.s.t2")]


def test_range_with_a_start_a_step_and_a_named_bound():
    code = "N = 2\nfor i in range(1, N + 1):\n" + INSERT
    assert tables(code) == [(3, "main.s.t1"), (3, "main.s.t2")]
    assert tables("for i in range(3, 0, -1):\n" + INSERT) == [(2, "main.s.t1"), (2, "main.s.t2"), (2, "main.s.t3")]


def test_range_over_the_length_of_a_literal_list_reads_each_element():
    code = 'TABLES = ["orders", "users"]\nfor i in range(len(TABLES)):\n    spark.sql(f"INSERT INTO main.s.{TABLES[i]} SELECT 1")\n'
    assert tables(code) == [(3, "main.s.orders"), (3, "main.s.users")]


def test_a_name_built_each_turn_holds_what_the_turns_build():
    code = 'name = "t"\nfor i in range(3):\n    name = name + "x"\nspark.sql(f"INSERT INTO main.s.{name} SELECT 1")\n'
    assert tables(code) == [(4, "main.s.txxx")]


def test_range_of_a_count_only_a_run_knows_stays_unknown():
    code = 'n = int(dbutils.widgets.get("n"))\nfor i in range(n):\n' + INSERT
    assert tables(code) == [(3, "main.s.t{each_i}")]


def test_range_with_no_turn_or_too_many_is_read_once():
    for bounds in ("0", "5, 5", "10**30", "1000"):
        assert tables(f"for i in range({bounds}):\n" + INSERT) == [(2, "main.s.t{each_i}")], bounds


def test_range_of_the_codes_own_is_not_the_builtin():
    # the code's own `range` is evaluated as the code's value function, not as the builtin
    code = 'def range(n):\n    return ["x"]\nfor i in range(2):\n' + INSERT
    assert tables(code) == [(4, "main.s.tx")]
    code = "def range(n):\n    return spark.table(n).collect()\nfor i in range(2):\n" + INSERT
    assert tables(code) == [(4, "main.s.t{each_i}")]


def test_length_of_a_list_changed_in_place_is_not_known():
    code = (
        'TABLES = ["orders"]\nTABLES.append(dbutils.widgets.get("t"))\n'
        'for i in range(len(TABLES)):\n    spark.sql(f"INSERT INTO main.s.{TABLES[i]} SELECT 1")\n'
    )
    assert tables(code) == [(4, "main.s.{each_TABLES_i}")]


def test_the_same_write_each_turn_makes_is_one_intent():
    """Every turn of `range(3)` makes the same write: one intent, not three. A turn
    that writes another table, or another kind of write, stays its own."""
    assert tables('for i in range(3):\n    spark.sql("INSERT INTO main.s.t SELECT 1")\n') == [(2, "main.s.t")]
    code = 'for t in ["main.s.a", "main.s.b", "main.s.a"]:\n    df.write.mode("append").saveAsTable(t)\n'
    assert tables(code) == [(2, "main.s.a"), (2, "main.s.b")]
    code = 'for m in ["append", "overwrite"]:\n    df.write.mode(m).saveAsTable("main.s.t")\n'
    result = analyze_source("job.py", ".py", code)
    assert sorted(i.kind.value for i in result.intents) == ["blind_append", "full_overwrite"]
