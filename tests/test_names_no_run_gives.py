"""A table name no text of the code tells is not paired: a table part of templates
alone (`{x}{y}`, as `{x}`) says so (DL001) rather than pairing two unrelated
locals by their text. A `USE` the texts agree on, or a whole name, stays known."""

from __future__ import annotations

PICK = 'c = dbutils.widgets.get("c") == "1"\n'


def _unresolved(result) -> list[str]:
    return sorted(f.location.path.rsplit("/", 1)[-1] for f in result.findings if f.rule == "DL001")


def _conflicts(result) -> list:
    return [f for f in result.findings if not f.rule.startswith("DL0")]


def test_a_table_part_of_templates_alone_is_not_paired(lint):
    sql = 'x = spark.table("a").first()[0]\ny = spark.table("b").first()[0]\nspark.sql(f"DELETE FROM {x}{y}")\n'
    api = 'x = spark.table("a").first()[0]\ny = spark.table("b").first()[0]\ndf.write.saveAsTable(f"{x}{y}")\n'
    result = lint({"a.py": sql, "b.py": sql, "c.py": api})
    assert not _conflicts(result)
    assert _unresolved(result) == ["a.py", "b.py", "c.py"]
    # near miss: a known part beside them names the table in part: paired by its text
    known = lint({"a.py": sql.replace("{x}{y}", "{x}{y}_log"), "b.py": sql.replace("{x}{y}", "{x}{y}_log")})
    assert [f.rule for f in _conflicts(known)] == ["DL102"]


def test_a_use_every_text_agrees_on_or_a_whole_name_stays_known(lint):
    same = PICK + 'spark.sql("USE main.ops" if c else "use main.ops")\nspark.sql("DELETE FROM t1 WHERE 1=1")\n'
    whole = PICK + 'spark.sql("USE main.ops" if c else "USE main.hr")\nspark.sql("DELETE FROM main.x.t1 WHERE 1=1")\n'
    result = lint({"same.py": same, "whole.py": whole})
    tables = {i.location.path.rsplit("/", 1)[-1]: i.table.name for i in result.intents}
    assert tables == {"same.py": "main.ops.t1", "whole.py": "main.x.t1"}
    assert not _unresolved(result)
