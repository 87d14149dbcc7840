"""Configuration lists: a literal list of literal dicts (`TABLES = [{"name": ...}]`),
the shape most jobs that write several tables keep their settings in. A loop over
one binds each dict in turn, `TABLES[0]["name"]` reads one, and a helper called
with each dict reads its keys; a list the code changes in place stays unknown."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def tables(code: str) -> tuple[list[tuple[int, str | None]], list[str]]:
    result = analyze_source("job.py", ".py", code)
    found = sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)
    return found, [d.rule for d in result.diagnostics]


TWO = '[{"name": "main.s.a", "key": "id"}, {"name": "main.s.b", "key": "id"}]'


@pytest.mark.parametrize(
    "code",
    [
        f'TABLES = {TWO}\nfor cfg in TABLES:\n    df.write.mode("append").saveAsTable(cfg["name"])\n',
        f"for cfg in {TWO}:\n    spark.sql(f\"DELETE FROM {{cfg['name']}} WHERE x = 1\")\n",
        f'CONF = {{"tables": {TWO}}}\nfor cfg in CONF["tables"]:\n    df.write.mode("append").saveAsTable(cfg["name"])\n',
        'CONF = {"a": {"name": "main.s.a"}, "b": {"name": "main.s.b"}}\n'
        'for cfg in CONF.values():\n    df.write.mode("append").saveAsTable(cfg["name"])\n',
        'CONF = {"a": {"name": "main.s.a"}, "b": {"name": "main.s.b"}}\n'
        'for key, cfg in CONF.items():\n    df.write.mode("append").saveAsTable(cfg["name"])\n',
    ],
    ids=["list", "literal", "nested", "dict values", "dict items"],
)
def test_a_loop_over_a_configuration_list_writes_each_table(code):
    found, rules = tables(code)
    assert ([t for _, t in found], rules) == (["main.s.a", "main.s.b"], [])
    assert len({line for line, _ in found}) == 1  # one statement, one intent per dict


def test_a_helper_called_with_each_dict_reads_its_keys():
    code = (
        f"TABLES = {TWO}\n"
        "def load(cfg):\n"
        "    spark.sql(f\"MERGE INTO {cfg['name']} t USING src s ON t.{cfg['key']} = s.id "
        'WHEN MATCHED THEN UPDATE SET *")\n'
        "for cfg in TABLES:\n"
        "    load(cfg)\n"
    )
    assert tables(code) == ([(5, "main.s.a"), (5, "main.s.b")], [])  # at the call


def test_one_dict_of_the_list_is_read_by_its_index():
    assert tables(f"CONFIGS = {TWO}\nspark.sql(f\"DELETE FROM {{CONFIGS[1]['name']}} WHERE x = 1\")\n") == (
        [(2, "main.s.b")],
        [],
    )


def test_a_list_changed_in_place_stays_unknown():
    code = (
        f"TABLES = {TWO}\n"
        'TABLES.append({"name": dbutils.widgets.get("t")})\n'
        "for cfg in TABLES:\n"
        "    df.write.mode(\"append\").saveAsTable(cfg['name'])\n"
    )
    found, rules = tables(code)
    assert [t for _, t in found] == ["{each_cfg_name}"] and rules == ["DL001"]


def test_a_value_only_a_run_knows_stays_a_named_input():
    code = (
        'TABLES = [{"name": dbutils.widgets.get("t")}, {"name": "main.s.b"}]\n'
        "for cfg in TABLES:\n"
        "    df.write.mode(\"append\").saveAsTable(cfg['name'])\n"
    )
    found, rules = tables(code)
    assert sorted(t for _, t in found) == ["main.s.b", "{t}"] and rules == ["DL001"]


def test_an_index_past_the_end_is_not_a_table():
    found, rules = tables(f"CONFIGS = {TWO}\nspark.sql(f\"DELETE FROM {{CONFIGS[5]['name']}} WHERE x = 1\")\n")
    assert [t for _, t in found] != ["main.s.a"] and "DL001" in rules
