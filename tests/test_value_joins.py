"""Values joined where control flow merges: a name bound differently on two paths
holds one of both values, never the last branch read; a write whose table is one of
several names is one intent per name, each flagged `one_of`. Each case has a near
miss that must stay as it is (one value, or unknown)."""

from __future__ import annotations

from delta_lint.frontend import analyze_source


def writes(code: str) -> list[tuple[int, str | None, bool]]:
    result = analyze_source("job.py", ".py", code)
    return sorted(
        (i.location.line, i.table.name if i.table else None, "one_of" in {f.value for f in i.flags})
        for i in result.intents
    )


def unresolved(code: str) -> list[int]:
    result = analyze_source("job.py", ".py", code)
    return [d.location.line for d in result.diagnostics if d.rule == "DL001"]


IF_ELSE = """
env = dbutils.widgets.get("env")
if env == "prod":
    t = "main.a.x"
else:
    t = "main.b.x"
df.write.mode("append").saveAsTable(t)
"""


def test_if_else_gives_one_intent_per_branch():
    assert writes(IF_ELSE) == [(7, "main.a.x", True), (7, "main.b.x", True)]


def test_if_else_that_agree_give_one_unflagged_intent():
    code = IF_ELSE.replace('"main.b.x"', '"main.a.x"')
    assert writes(code) == [(7, "main.a.x", False)]


def test_if_without_else_keeps_the_value_before_as_an_alternative():
    code = 't = "main.a.x"\nif dbutils.widgets.get("full") == "1":\n    t = "main.b.x"\nspark.table("s").write.saveAsTable(t)\n'
    assert writes(code) == [(4, "main.a.x", True), (4, "main.b.x", True)]


def test_a_branch_that_raises_does_not_reach_the_write():
    code = (
        't = "main.a.x"\n'
        'if dbutils.widgets.get("env") == "bad":\n'
        '    t = "main.b.x"\n'
        "    raise ValueError(t)\n"
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(5, "main.a.x", False)]


def test_alternatives_cross_f_strings_and_sql():
    code = (
        'schema = "gold" if dbutils.widgets.get("tier") == "g" else "silver"\n'
        'target = f"main.{schema}.orders"\n'
        'spark.sql(f"MERGE INTO {target} t USING updates s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")\n'
    )
    assert writes(code) == [(3, "main.gold.orders", True), (3, "main.silver.orders", True)]


def test_a_loop_that_may_not_run_joins_before_and_after():
    code = 't = "main.a.x"\nfor row in spark.table("c").collect():\n    t = "main.b.x"\nspark.table("s").write.saveAsTable(t)\n'
    assert writes(code) == [(4, "main.a.x", True), (4, "main.b.x", True)]


def test_try_handler_joins_with_the_body():
    code = (
        "try:\n"
        '    t = dbutils.widgets.get("t") and "main.a.x"\n'
        '    t = "main.a.x"\n'
        "except Exception:\n"
        '    t = "main.b.x"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(6, "main.a.x", True), (6, "main.b.x", True)]


def test_too_many_alternatives_stay_unknown():
    branches = "".join(f'{"if" if n == 0 else "elif"} k == "{n}":\n    t = "main.s.t{n}"\n' for n in range(9))
    code = 'k = dbutils.widgets.get("k")\nt = "main.s.base"\n' + branches + "spark.table('s').write.saveAsTable(t)\n"
    got = writes(code)
    assert len(got) == 1 and not got[0][2] and got[0][1] != "main.s.base"
    assert unresolved(code) == [got[0][0]]


def test_a_branch_dependent_use_leaves_one_of_its_names():
    code = (
        'db = "a" if dbutils.widgets.get("x") == "1" else "b"\n'
        'spark.sql(f"USE main.{db}")\n'
        'spark.sql("DELETE FROM orders WHERE id = 1")\n'
    )
    assert writes(code) == [(3, "main.a.orders", True), (3, "main.b.orders", True)]


def test_a_known_loop_still_runs_once_per_element():
    code = 'for t in ["main.s.a", "main.s.b"]:\n    spark.table("x").write.saveAsTable(t)\n'
    assert writes(code) == [(2, "main.s.a", False), (2, "main.s.b", False)]


def test_a_decided_condition_binds_only_its_branch():
    code = IF_ELSE.replace('env = dbutils.widgets.get("env")', 'env = "prod"')
    assert writes(code) == [(7, "main.a.x", False)]


def test_a_writer_built_two_ways_is_still_a_write():
    code = (
        "def save(df, table, cols):\n"
        '    writer = df.write.format("delta").mode("overwrite")\n'
        "    if cols:\n"
        "        writer = writer.partitionBy(*cols)\n"
        "    writer.saveAsTable(table)\n"
        'save(spark.table("s"), "main.s.t", part)\n'
    )
    assert [(line, table) for line, table, _ in writes(code)] == [(6, "main.s.t")]


def test_a_long_elif_chain_is_read_without_deep_recursion():
    chain = "".join(f'{"if" if n == 0 else "elif"} k == "{n}":\n    x = {n}\n' for n in range(400))
    code = 'k = dbutils.widgets.get("k")\n' + chain + "spark.table('s').write.saveAsTable('main.s.t')\n"
    result = analyze_source("job.py", ".py", code)
    assert [i.table.name for i in result.intents] == ["main.s.t"]
    assert not [d for d in result.diagnostics if d.rule in ("DL000", "DL002")]


def test_an_elif_chain_decided_by_known_text_binds_its_branch():
    code = (
        'env = "stg"\n'
        'if env == "prod":\n    t = "main.p.x"\nelif env == "stg":\n    t = "main.s.x"\nelse:\n    t = "main.d.x"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(8, "main.s.x", False)]


def test_too_many_alternatives_joined_into_text_stay_unknown():
    branches = "".join(f'{"if" if n == 0 else "elif"} k == "{n}":\n    s = "s{n}"\n' for n in range(9))
    code = (
        'k = dbutils.widgets.get("k")\ns = "base"\n' + branches + 'spark.table("x").write.saveAsTable(f"main.{s}.t")\n'
    )
    result = analyze_source("job.py", ".py", code)
    assert [d.rule for d in result.diagnostics] == ["DL001"]
    assert [i.table.name for i in result.intents] == ["main.{one_of}.t"]


# `break` and `continue`: a value bound before one leaves the loop (or the turn) with
# it, so the names after the loop hold it as well as what the turn's end holds.
ROWS = 'spark.table("c").collect()'


def test_a_value_set_before_break_reaches_the_code_after_the_loop():
    code = (
        't = "main.a.x"\n'
        f"for row in {ROWS}:\n"
        '    t = "main.b.x"\n'
        "    if row.done:\n"
        "        break\n"
        '    t = "main.c.x"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(7, "main.a.x", True), (7, "main.b.x", True), (7, "main.c.x", True)]


def test_a_loop_without_break_after_the_rebinding_keeps_only_the_turns_end():
    code = (
        't = "main.a.x"\n'
        f"for row in {ROWS}:\n"
        '    t = "main.b.x"\n'
        "    if row.done:\n"
        "        pass\n"
        '    t = "main.c.x"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(7, "main.a.x", True), (7, "main.c.x", True)]


def test_a_value_set_before_continue_reaches_the_code_after_the_loop():
    code = (
        't = "main.a.x"\n'
        f"while {ROWS}:\n"
        '    t = "main.b.x"\n'
        '    if dbutils.widgets.get("skip") == "1":\n'
        "        continue\n"
        '    t = "main.c.x"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(7, "main.a.x", True), (7, "main.b.x", True), (7, "main.c.x", True)]


def test_break_out_of_a_literal_loop_may_stop_at_any_element():
    code = (
        'for t in ["main.s.a", "main.s.b"]:\n'
        "    if spark.catalog.tableExists(t):\n"
        "        break\n"
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(4, "main.s.a", True), (4, "main.s.b", True)]


def test_a_literal_loop_without_break_leaves_its_last_element():
    code = 'for t in ["main.s.a", "main.s.b"]:\n    print(t)\nspark.table("s").write.saveAsTable(t)\n'
    assert writes(code) == [(3, "main.s.b", False)]


def test_for_else_runs_only_when_no_break_left_the_loop():
    code = (
        't = "main.a.x"\n'
        f"for row in {ROWS}:\n"
        "    if row.found:\n"
        '        t = "main.b.x"\n'
        "        break\n"
        "else:\n"
        '    t = "main.c.x"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(8, "main.b.x", True), (8, "main.c.x", True)]


def test_while_else_without_break_always_runs_its_else():
    code = (
        't = "main.a.x"\n'
        f"while {ROWS}:\n"
        '    t = "main.b.x"\n'
        "else:\n"
        '    t = "main.c.x"\n'
        "spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(6, "main.c.x", False)]


def test_a_break_of_an_inner_loop_stays_in_that_loop():
    code = (
        f"for row in {ROWS}:\n"
        '    t = "main.a.x"\n'
        f"    for other in {ROWS}:\n"
        '        t = "main.b.x"\n'
        "        break\n"
        '    t = "main.c.x"\n'
        "    spark.table('s').write.saveAsTable(t)\n"
    )
    assert writes(code) == [(7, "main.c.x", False)]


SET_BUILT_IN_A_LOOP = """
def set_config(params):
    s_sql = "UPDATE main.sat.workspaces SET "
    first = False
    for param in params:
        if first:
            s_sql = s_sql + ","
        s_sql = s_sql + param + "=" + str(params[param])
        first = True
    spark.sql(s_sql)

set_config(PARAMS)
"""


def diagnostics(code: str) -> list[tuple[str, int, str]]:
    result = analyze_source("job.py", ".py", code)
    return [(d.rule, d.location.line, d.severity) for d in result.diagnostics]


def test_a_text_that_parses_only_when_the_loop_ran_is_read_and_noted():
    """Before the loop `UPDATE ... SET ` does not parse; after it, it does. The
    statement is read from the texts that parse, the other is a DL007 note, not a
    syntax error of the code."""
    code = "PARAMS = dbutils.widgets.get('p')\n" + SET_BUILT_IN_A_LOOP
    assert writes(code) == [(11, "main.sat.workspaces", True)]
    assert diagnostics(code) == [("DL007", 13, "info")]


def test_a_loop_known_not_to_run_leaves_the_syntax_error():
    code = "PARAMS = {}\n" + SET_BUILT_IN_A_LOOP
    assert writes(code) == []
    assert [(rule, severity) for rule, _, severity in diagnostics(code)] == [("DL000", "error")]


def test_a_written_list_of_statements_with_parts_only_a_run_knows_runs_each():
    code = (
        "ddl = f\"CREATE TABLE IF NOT EXISTS {param('t')}_log (a INT) USING DELTA\"\n"
        "data = f\"INSERT INTO main.ops.events VALUES ('{param('day')}')\"\n"
        "for sql in [ddl, data]:\n"
        "    spark.sql(sql)\n"
    )
    result = analyze_source("job.py", ".py", code)
    assert sorted((i.kind.value, i.table.name) for i in result.intents) == [
        ("blind_append", "main.ops.events"),
        ("create", "{param_t}_log"),
    ]
    assert not [d for d in result.diagnostics if d.rule == "DL007"]


def test_a_loop_over_statements_only_a_run_knows_stays_one_dynamic_statement():
    code = "statements = load()\nfor sql in statements:\n    spark.sql(sql)\n"
    result = analyze_source("job.py", ".py", code)
    assert not result.intents and [d.rule for d in result.diagnostics] == ["DL007"]
    starred = "for sql in [*statements]:\n    spark.sql(sql)\n"
    assert [d.rule for d in analyze_source("job.py", ".py", starred).diagnostics] == ["DL007"]


LOOKUP = """
import sys
def own(kind, name):
    statements = {
        "table": f"DELETE FROM {name} WHERE owner IS NULL",
        "view": f"UPDATE {name} SET owner = 'admins' WHERE owner IS NULL",
    }
    spark.sql(statements[kind])
own(sys.argv[1], "main.ops.events")
"""


def dynamic_sql(code: str) -> list[int]:
    result = analyze_source("job.py", ".py", code)
    return [d.location.line for d in result.diagnostics if d.rule == "DL007"]


def test_a_literal_dict_read_with_a_key_only_a_run_knows_runs_one_of_its_statements():
    result = analyze_source("job.py", ".py", LOOKUP)
    got = sorted(
        (i.location.line, i.table.name, i.kind.value, "one_of" in {f.value for f in i.flags}) for i in result.intents
    )
    assert got == [(9, "main.ops.events", "delete", True), (9, "main.ops.events", "update", True)]
    assert dynamic_sql(LOOKUP) == []


def test_a_dict_read_with_a_known_key_or_changed_in_place_stays_as_it_was():
    known = LOOKUP.replace("own(sys.argv[1],", 'own("table",')
    assert writes(known) == [(9, "main.ops.events", False)]
    changed = LOOKUP.replace("    spark.sql(", '    statements["index"] = load()\n    spark.sql(')
    assert writes(changed) == [] and dynamic_sql(changed) == [10]


def test_a_table_name_read_from_a_dict_with_a_key_only_a_run_knows_keeps_its_name():
    code = (
        "import sys\n"
        'T = {"a": "main.s.a", "b": "main.s.b"}\n'
        'spark.table("x").write.mode("append").saveAsTable(T[sys.argv[1]])\n'
        'spark.sql(f"INSERT INTO {T[sys.argv[1]]} SELECT 1")\n'
    )
    result = analyze_source("job.py", ".py", code)
    assert sorted((i.location.line, i.table.name) for i in result.intents) == [
        (3, "{T_sys_argv_1}"),
        (4, "{T_sys_argv_1}"),
    ]


def test_a_dicts_statement_that_does_not_parse_is_a_note_when_another_parses():
    code = LOOKUP.replace("UPDATE {name} SET owner = 'admins' WHERE owner IS NULL", "FROBNICATE {name}")
    result = analyze_source("job.py", ".py", code)
    assert [(i.location.line, i.kind.value) for i in result.intents] == [(9, "delete")]
    assert [d.rule for d in result.diagnostics] == ["DL007"]  # the text left out
    none_parse = code.replace("DELETE FROM {name} WHERE owner IS NULL", "FROBNICATE {name} AGAIN")
    result = analyze_source("job.py", ".py", none_parse)
    assert result.intents == [] and sorted(d.rule for d in result.diagnostics) == ["DL000", "DL000"]
