"""A name only the code binds, to values the reader cannot tell, is no input of the job.

A job input (`dbutils.widgets.get`, `sys.argv`, a task parameter) is one value per run:
two runs given the same value write one table, so a name known in part beside it
(`/mnt/gold/{name}`) is paired by its text. A loop's name over a collection the value
layer cannot list is every item of it in one run; what `with ... as`, `except ... as`
or a starred target binds is what a statement not followed gives. A table named with
such a value is unresolved (DL001 at the write), never held as a parameter and
silently compared by its text."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
SAVE = 'spark.table("main.raw.a").write.format("delta").mode("overwrite").save({})\n'


def _written(result, name: str = "job.py") -> list[tuple[str, bool]]:
    return sorted(
        (i.table.name, "unresolved" in {f.value for f in i.flags})
        for i in result.intents
        if i.location.path.endswith(name)
    )


def _dl001_lines(result, name: str = "job.py") -> list[int]:
    return sorted(d.location.line for d in result.diagnostics if d.rule == "DL001" and d.location.path.endswith(name))


def test_a_loop_name_over_a_collection_not_known_is_unresolved_at_the_write(lint):
    job = NB + "for name in load_names():\n    " + SAVE.format('f"/mnt/gold/{name}"')
    result = lint({"job.py": job})
    assert _written(result) == [("delta:/mnt/gold/{each_name}", True)]
    assert _dl001_lines(result) == [3]
    # the near miss: a job input of the same name is one value per run, a parameter
    widget = NB + 'name = dbutils.widgets.get("name")\n' + SAVE.format('f"/mnt/gold/{name}"')
    result = lint({"job.py": widget})
    assert _written(result) == [("delta:/mnt/gold/{name}", False)]
    assert _dl001_lines(result) == []


def test_a_loop_name_in_a_statement_s_text_is_unresolved_beside_known_parts(lint):
    """`{schema}.orders` names a table of its own when `schema` is an input; over a
    collection not known it is every schema's `orders`."""
    job = (
        NB + 'for schema in spark.catalog.listDatabases():\n    spark.sql(f"DELETE FROM {schema}.orders WHERE d < 1")\n'
    )
    result = lint({"job.py": job})
    assert _written(result) == [("{each_schema}.orders", True)]
    assert _dl001_lines(result) == [3]
    argv = NB + 'import sys\nschema = sys.argv[1]\nspark.sql(f"DELETE FROM {schema}.orders WHERE d < 1")\n'
    assert [u for _, u in _written(lint({"job.py": argv}))] == [False]


def test_a_comprehension_s_name_over_a_collection_not_known_is_unresolved(lint):
    job = NB + "[" + SAVE.format('f"/mnt/gold/{t}"').strip() + " for t in load_names()]\n"
    result = lint({"job.py": job})
    assert _written(result) == [("delta:/mnt/gold/{each_t}", True)]
    # the near miss: over a list the code states, one write per item
    listed = job.replace("load_names()", '["a", "b"]')
    assert _written(lint({"job.py": listed})) == [("delta:/mnt/gold/a", False), ("delta:/mnt/gold/b", False)]


def test_names_a_statement_not_followed_binds_are_unresolved(lint):
    """`with ... as d`, `except ... as e`, `first, *rest = ...`: what they bind is not
    known, and no input of the job."""
    with_as = NB + "import tempfile\nwith tempfile.TemporaryDirectory() as d:\n    " + SAVE.format('f"{d}/out"')
    assert _written(lint({"job.py": with_as})) == [("delta:{unknown_d}/out", True)]
    excepted = NB + "try:\n    run()\nexcept Exception as e:\n    " + SAVE.format('f"/mnt/errors/{e}"')
    assert _written(lint({"job.py": excepted})) == [("delta:/mnt/errors/{unknown_e}", True)]
    starred = NB + "first, *rest = load()\n" + SAVE.format('f"/mnt/out/{rest}"')
    assert _written(lint({"job.py": starred})) == [("delta:/mnt/out/{unknown_rest}", True)]
    # the near miss: a name the code binds to a value the reader knows stays known
    known = NB + 'first, second = "a", "b"\n' + SAVE.format('f"/mnt/out/{second}"')
    assert _written(lint({"job.py": known})) == [("delta:/mnt/out/b", False)]


def test_a_loop_name_of_a_helper_s_loop_is_unresolved_at_the_call(lint):
    """A helper read at its call: the write is reported there, unresolved, naming the
    write's own line as its statement."""
    job = (
        NB + "def write_all(frames, root):\n    for name in frames:\n        "
        "frames[name].write.format('delta').save(f'{root}/{name}')\n\n"
        'write_all(load_frames(), "s3a://lake/gold")\n'
    )
    result = lint({"job.py": job})
    assert _written(result) == [("delta:s3a://lake/gold/{each_name}", True)]
    (diag,) = [d for d in result.diagnostics if d.rule == "DL001"]
    assert diag.location.line == 6 and 4 in {s.line for s in diag.location.sites}


def test_a_part_of_a_loop_s_item_is_an_item_too(lint):
    """`row.table_name`, `row["t"]`, `row.name.lower()` of `for row in rows:` over rows
    only a run reads: every row's part in one run, never a name a run gives."""
    job = NB + 'for row in spark.sql("SELECT * FROM main.cfg.t").collect():\n'
    job += "    t = row.table_name\n    " + SAVE.format('f"/mnt/out/{t}"')
    job += "    " + SAVE.format("f\"/mnt/q/{row['t'].lower()}\"")
    result = lint({"job.py": job})
    assert _written(result) == [("delta:/mnt/out/{each_t}", True), ("delta:/mnt/q/{each_row_t}", True)]
    assert _dl001_lines(result) == [4, 5]
    # the near miss: a part of a job input is the input's (one value per run)
    widget = NB + 'row = dbutils.widgets.get("row")\nt = row.strip()\n' + SAVE.format('f"/mnt/out/{t}"')
    assert [u for _, u in _written(lint({"job.py": widget}))] == [False]
