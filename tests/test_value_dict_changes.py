"""A dict the code changes in place holds what Python's dict would after each
change, in the order the code runs: `d.update({...})` and `d.update(k=v)` set
their keys, `d.setdefault(k, v)` adds a key the dict lacks, `d.pop(k)` and
`del d[k]` remove one, `d.clear()` empties it, and a change the reader cannot
follow (an update from a value only a run knows) leaves the dict unknown. The
old value must never survive a change. A literal dict that writes a key twice
holds its last value, and `.get(k)` of a dict a name holds is the dict's, even
when the name is one Spark's `conf.get` is matched by.

Each case has its near miss: the same change on another key, a dict the code
cannot follow, or a key that may or may not be there, which must stay as it is
(the old value, or unknown)."""

from __future__ import annotations

from delta_lint.frontend import analyze_source


def writes(code: str) -> list[tuple[int, str | None]]:
    """(line, table) of every intent of a Python job file, sorted."""
    result = analyze_source("job.py", ".py", code)
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


def save(expr: str) -> str:
    """A write to the table `expr` names."""
    return f'spark.table("src").write.mode("append").saveAsTable({expr})\n'


def test_update_with_a_literal_dict_sets_its_keys():
    code = 'conf = {"table": "main.s.a"}\nconf.update({"table": "main.s.b"})\n' + save('conf["table"]')
    assert writes(code) == [(3, "main.s.b")]


def test_update_of_another_key_keeps_the_value():
    code = 'conf = {"table": "main.s.a"}\nconf.update({"other": "main.s.b"})\n' + save('conf["table"]')
    assert writes(code) == [(3, "main.s.a")]


def test_update_with_keywords_sets_their_keys():
    code = 'conf = {"table": "main.s.a"}\nconf.update(table="main.s.c")\n' + save('conf["table"]')
    assert writes(code) == [(3, "main.s.c")]


def test_update_adds_a_key_read_later():
    code = 'conf = {"catalog": "main"}\nconf.update({"schema": f"{conf[\'catalog\']}.gold"})\n' + save(
        'conf["schema"] + ".orders"'
    )
    assert writes(code) == [(3, "main.gold.orders")]


def test_update_from_a_value_only_a_run_knows_leaves_the_dict_unknown():
    code = 'conf = {"table": "main.s.a"}\nconf.update(json.loads(dbutils.widgets.get("overrides")))\n' + save(
        'conf["table"]'
    )
    [(line, table)] = writes(code)
    assert line == 3 and table != "main.s.a"


def test_update_with_a_spread_leaves_the_dict_unknown():
    code = 'conf = {"table": "main.s.a"}\nconf.update({**extra, "x": "y"})\n' + save('conf["table"]')
    [(line, table)] = writes(code)
    assert line == 3 and table != "main.s.a"


def test_update_with_a_value_not_known_makes_that_key_unknown():
    code = 'conf = {"table": "main.s.a"}\nconf.update({"table": dbutils.widgets.get("t")})\n' + save('conf["table"]')
    [(line, table)] = writes(code)
    assert line == 3 and table != "main.s.a"


def test_update_reaches_a_name_bound_to_the_same_dict():
    code = 'conf = {"table": "main.s.a"}\nsame = conf\nconf.update({"table": "main.s.b"})\n' + save('same["table"]')
    assert writes(code) == [(4, "main.s.b")]


def test_update_on_one_path_gives_both_values():
    code = (
        'conf = {"table": "main.s.a"}\n'
        'if dbutils.widgets.get("env") == "prod":\n'
        '    conf.update({"table": "main.s.b"})\n' + save('conf["table"]')
    )
    assert writes(code) == [(4, "main.s.a"), (4, "main.s.b")]


def test_setdefault_adds_a_missing_key():
    code = 'conf = {"catalog": "main"}\nconf.setdefault("table", "main.s.d")\n' + save('conf["table"]')
    assert writes(code) == [(3, "main.s.d")]


def test_setdefault_keeps_a_key_that_is_there():
    code = 'conf = {"table": "main.s.a"}\nconf.setdefault("table", "main.s.d")\n' + save('conf["table"]')
    assert writes(code) == [(3, "main.s.a")]


def test_pop_and_del_remove_the_key():
    for change in ('conf.pop("table")', 'del conf["table"]'):
        code = f'conf = {{"table": "main.s.a", "other": "main.s.o"}}\n{change}\n' + save('conf["table"]')
        [(line, table)] = writes(code)
        assert line == 3 and table != "main.s.a", change
        kept = f'conf = {{"table": "main.s.a", "other": "main.s.o"}}\n{change}\n' + save('conf["other"]')
        assert writes(kept) == [(3, "main.s.o")], change


def test_clear_empties_the_dict():
    code = 'conf = {"table": "main.s.a"}\nconf.clear()\n' + save('conf["table"]')
    [(line, table)] = writes(code)
    assert line == 3 and table != "main.s.a"


def test_a_key_written_twice_holds_its_last_value():
    code = 'conf = {"table": "main.s.a", "table": "main.s.b"}\n' + save('conf["table"]')
    assert writes(code) == [(2, "main.s.b")]


def test_a_key_written_twice_with_an_unknown_last_value_is_unknown():
    code = 'conf = {"table": "main.s.a", "table": dbutils.widgets.get("t")}\n' + save('conf["table"]')
    [(line, table)] = writes(code)
    assert line == 2 and table != "main.s.a"


def test_get_of_a_dict_named_like_sparks_conf_reads_the_dict():
    code = 'conf = {"table": "main.s.a"}\n' + save('conf.get("table")') + save('conf.get("table", "main.s.z")')
    assert writes(code) == [(2, "main.s.a"), (3, "main.s.a")]


def test_get_of_sparks_conf_stays_a_job_input():
    code = 'conf = {"table": "main.s.a"}\n' + save('spark.conf.get("table")')
    [(line, table)] = writes(code)
    assert line == 2 and table == "{table}"


TABLE_OF = 'def table(cfg):\n    return cfg.get("table", "main.s.default")\n\n\n'


def test_a_dict_handed_to_a_value_function_gives_what_the_function_returns():
    code = TABLE_OF + 'c = {"table": "main.s.given", "x": "y"}\n' + save("table(c)")
    assert writes(code) == [(6, "main.s.given")]


def test_a_dict_with_a_value_not_held_is_not_handed_without_that_key():
    code = TABLE_OF + 'c = {"table": spark.table("q").first()[0]}\n' + save("table(c)")
    [(line, table)] = writes(code)
    assert line == 6 and table != "main.s.default"


def test_a_copy_changes_apart_from_the_dict_it_copies():
    for copy in ("dict(conf)", "conf.copy()"):
        code = (
            f'conf = {{"table": "main.s.a"}}\nmine = {copy}\nmine.update({{"table": "main.s.b"}})\n'
            + save('mine["table"]')
            + save('conf["table"]')
        )
        assert writes(code) == [(4, "main.s.b"), (5, "main.s.a")], copy


def test_a_copy_of_a_value_not_known_stays_unknown():
    code = 'mine = dict(json.loads(dbutils.widgets.get("c")))\nmine.update({"x": "y"})\n' + save('mine["table"]')
    [(line, table)] = writes(code)
    assert line == 3 and table == "{mine_table}"
