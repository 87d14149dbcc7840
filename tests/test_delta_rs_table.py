"""delta-rs' (`deltalake`) own table API writes the same Delta log as Spark's: a
table opened by calling its class (`DeltaTable(table_uri)`) and merged, deleted
from, updated or vacuumed is an intent at the table's path. A merge builder of
either library on a table the reader cannot tell is said, never dropped."""

from __future__ import annotations

from delta_lint.frontend import analyze_source
from delta_lint.model import Kind


def _intents(code: str) -> list[tuple[int, str, Kind, str | None, tuple[str, ...]]]:
    result = analyze_source("job.py", ".py", code)
    return [(i.location.line, i.table.name, i.kind, i.predicate_sql, i.merge_clauses) for i in result.intents]


def test_a_delta_rs_table_merge_delete_update_and_vacuum_are_writes_at_its_path():
    code = (
        "from deltalake import DeltaTable\n"
        'DeltaTable("/mnt/lake/g").merge(src, "t.id = s.id", source_alias="s", target_alias="t")'
        ".when_matched_update_all().when_not_matched_insert_all().execute()\n"
        'dt = DeltaTable("s3://b/orders")\n'
        "dt.delete(\"d < '2024-01-01'\")\n"
        'dt.update({"x": "1"}, predicate="id = 2")\n'
        'dt.update(updates={"x": "1"})\n'
        "dt.vacuum()\n"
    )
    assert _intents(code) == [
        (2, "delta:/mnt/lake/g", Kind.MERGE, "t.id = s.id", ("matched_update", "not_matched_insert")),
        (4, "delta:s3://b/orders", Kind.DELETE, "d < '2024-01-01'", ()),
        (5, "delta:s3://b/orders", Kind.UPDATE, "id = 2", ()),
        (6, "delta:s3://b/orders", Kind.UPDATE, None, ()),
        (7, "delta:s3://b/orders", Kind.VACUUM, None, ()),
    ]


def test_a_delta_rs_optimize_and_restore_are_writes_at_its_path():
    code = (
        "import deltalake\n"
        'dt = deltalake.DeltaTable("/mnt/lake/t")\n'
        "dt.optimize.compact()\n"
        'dt.optimize.z_order(["Day", "id"])\n'
        "dt.restore(3)\n"
        "plan.optimize.compact()\n"  # not a table the code opened
    )
    result = analyze_source("job.py", ".py", code)
    got = [(i.location.line, i.table.name, i.kind, i.zorder_by) for i in result.intents]
    assert got == [
        (3, "delta:/mnt/lake/t", Kind.OPTIMIZE, ()),
        (4, "delta:/mnt/lake/t", Kind.OPTIMIZE_ZORDER, ("day", "id")),
        (5, "delta:/mnt/lake/t", Kind.RESTORE, ()),
    ]


def test_a_merge_clearing_rows_the_source_lacks_reads_the_whole_target():
    code = (
        "from deltalake import DeltaTable\n"
        'dt = DeltaTable("/mnt/lake/t")\n'
        '(dt.merge(source=df, predicate="t.k = s.k", source_alias="s", target_alias="t")\n'
        "   .when_not_matched_by_source_delete()\n   .execute())\n"
    )
    result = analyze_source("job.py", ".py", code)
    [intent] = result.intents
    assert intent.merge_clauses == ("not_matched_by_source_delete",)
    assert "reads_whole_target" in {f.value for f in intent.flags}


def test_spark_tables_and_other_objects_named_so_are_read_as_before():
    code = (
        "from delta.tables import DeltaTable\n"
        'DeltaTable.forName(spark, "main.s.t").delete("id = 1")\n'
        "pdf.update(other)\n"
        'frame.delete("x")\n'
    )
    assert _intents(code) == [(2, "main.s.t", Kind.DELETE, "id = 1", ())]


def test_a_merge_builder_of_either_library_on_an_unknown_table_is_said():
    code = (
        'target = open_table("orders")\n'
        'target.merge(src, "t.id = s.id", source_alias="s", target_alias="t").when_matched_update_all().execute()\n'
    )
    result = analyze_source("job.py", ".py", code)
    assert result.intents == []
    assert [(d.location.line, d.rule) for d in result.diagnostics] == [(2, "DL001")]
