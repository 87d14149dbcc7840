"""A `USE` of one of several names leaves the session one of several: each later
write whose name leans on it is one write per name, flagged `one_of` ("one of
these"), never the first name, the name before the `USE`, nor a `{one_of}` text
paired with unrelated files' (review of the value layer, F17)."""

from __future__ import annotations

from delta_lint.model import Flag

PICK = 'c = dbutils.widgets.get("c") == "1"\n'
DELETE = 'spark.sql("DELETE FROM t1 WHERE 1=1")\n'


def _tables(result, name: str) -> list[tuple[str, bool]]:
    return sorted((i.table.name, Flag.ONE_OF in i.flags) for i in result.intents if i.location.path.endswith(name))


def test_a_use_of_a_value_that_is_one_of_several_names_each(lint):
    fstring = PICK + 'schema = "sales" if c else "finance"\nspark.sql(f"USE main.{schema}")\n' + DELETE
    texts = PICK + 'spark.sql("USE main.ops" if c else "USE main.hr")\n' + DELETE
    api = PICK + 'spark.sql("USE CATALOG dev" if c else "USE CATALOG prod")\ndf.write.saveAsTable("s.t1")\n'
    result = lint({"fstring.py": fstring, "texts.py": texts, "api.py": api})
    assert _tables(result, "fstring.py") == [("main.finance.t1", True), ("main.sales.t1", True)]
    assert _tables(result, "texts.py") == [("main.hr.t1", True), ("main.ops.t1", True)]
    assert _tables(result, "api.py") == [("dev.s.t1", True), ("prod.s.t1", True)]


def test_each_name_pairs_with_another_file_writing_it(lint):
    job = PICK + 'schema = "sales" if c else "finance"\nspark.sql(f"USE main.{schema}")\n' + DELETE
    result = lint({"job.py": job, "other.py": 'spark.sql("DELETE FROM main.sales.t1 WHERE 1=1")\n'})
    assert {f.table for f in result.findings if f.rule == "DL102"} == {"main.sales.t1"}


def test_a_later_use_a_full_name_or_a_notebook_cell_after_it(lint):
    # near misses: a USE of one name ends the choice; a name in full never leaned on it
    again = PICK + 'spark.sql("USE main.ops" if c else "USE main.hr")\nspark.sql("USE main.x")\n' + DELETE
    full = PICK + 'spark.sql("USE main.ops" if c else "USE main.hr")\nspark.sql("DELETE FROM a.b.t1 WHERE 1=1")\n'
    result = lint({"again.py": again, "full.py": full})
    assert _tables(result, "again.py") == [("main.x.t1", False)]
    assert _tables(result, "full.py") == [("a.b.t1", False)]


def test_more_names_than_the_cap_leave_the_names_unresolved(lint):
    chosen = " if c == '1' else ".join(f"'s{n}'" for n in range(10))
    many = f"c = dbutils.widgets.get('c')\nx = {chosen}\nspark.sql(f'USE main.{{x}}')\n"
    result = lint({"many.py": many + DELETE})
    assert [f.rule for f in result.findings] == ["DL001"]
    assert [i.table.name for i in result.intents if Flag.ONE_OF in i.flags] == []


def test_a_use_in_a_branch_leaves_one_of_the_sessions(lint):
    ifelse = PICK + 'if c:\n    spark.sql("USE main.a")\nelse:\n    spark.sql("USE main.b")\n' + DELETE
    ifonly = PICK + 'if c:\n    spark.sql("USE main.a")\n' + DELETE
    known = 'c = True\nif c:\n    spark.sql("USE main.a")\nelse:\n    spark.sql("USE main.b")\n' + DELETE
    result = lint({"ifelse.py": ifelse, "ifonly.py": ifonly, "known.py": known})
    assert _tables(result, "ifelse.py") == [("main.a.t1", True), ("main.b.t1", True)]
    assert _tables(result, "ifonly.py") == [("main.a.t1", True), ("t1", True)]
    assert _tables(result, "known.py") == [("main.a.t1", False)]  # near miss: the branch taken is known
