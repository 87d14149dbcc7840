"""Overlap (schedule) and the rules the conformance matrix does not cover."""

from __future__ import annotations

import pytest


def rules(result):
    return [(f.rule, f.severity) for f in result.findings]


def test_exclusive_group_removes_the_overlap(lint):
    files = {"a.sql": "DELETE FROM s.t WHERE id = 1;", "b.sql": "UPDATE s.t SET v = 1 WHERE id = 2;"}
    jobs = {"a": {"paths": ["a.sql"]}, "b": {"paths": ["b.sql"]}}
    assert rules(lint(files, {"jobs": jobs})) == [("DL102", "error")]
    assert rules(lint(files, {"jobs": jobs, "exclusive": [["a", "b"]]})) == []


def test_statements_of_one_run_do_not_race(lint):
    result = lint({"a.sql": "DELETE FROM s.t WHERE id = 1;\nALTER TABLE s.t ADD COLUMNS (c INT);"})
    assert rules(result) == []


def test_a_stream_keeps_running_for_the_rest_of_its_file(lint):
    code = (
        'spark.sql("ALTER TABLE s.t ADD COLUMNS (a INT)")\n'
        'spark.readStream.table("s.t").writeStream.option("checkpointLocation", "/c").toTable("s.u")\n'
        'spark.sql("ALTER TABLE s.t ADD COLUMNS (b INT)")\n'
    )
    result = lint({"job.py": code})
    assert [(f.rule, f.location.line) for f in result.findings] == [("DL112", 3)]


def test_foreach_batch_body_races_with_later_statements(lint):
    code = (
        "def upsert(df, i):\n"
        '    spark.sql("DELETE FROM s.t WHERE id = 1")\n'
        'spark.readStream.table("s.raw").writeStream.foreachBatch(upsert).option("checkpointLocation", "/c").start()\n'
        'spark.sql("UPDATE s.t SET v = 2 WHERE id = 1")\n'
    )
    result = lint({"job.py": code})
    assert rules(result) == [("DL102", "error")]
    assert "foreachBatch body runs for every micro-batch" in result.findings[0].overlap


def test_shared_txn_app_id(lint):
    code = 'df.write.option("txnAppId", "loader").option("txnVersion", 1).mode("append").saveAsTable("s.t")\n'
    # files no job runs meet by assumption: a certain conflict is a warning
    assert ("DL121", "warning") in rules(lint({"a.py": code, "b.py": code}))


def test_concurrent_create_of_one_table(lint):
    sql = "CREATE TABLE s.t (a INT);"
    # only while the table does not exist yet, and the files meet by assumption
    assert rules(lint({"a.sql": sql, "b.sql": sql})) == [("DL114", "info")]


def test_runtime_14_2_merge_needs_a_target_predicate_and_photon(lint):
    """Unpartitioned table with deletion vectors: row-level concurrency makes two
    MERGEs on different rows safe, unless 14.2's MERGE conditions are not met."""
    files = {
        "a.sql": "MERGE INTO s.t t USING s ON s.id = t.id AND t.id = 1 WHEN MATCHED THEN DELETE;",
        "b.sql": "MERGE INTO s.t t USING s ON s.id = t.id AND t.id = 2 WHEN MATCHED THEN DELETE;",
    }
    table = {"tables": {"s.t": {"deletion_vectors": True}}}
    assert rules(lint(files, {**table, "runtime": "14.3"})) == []
    assert rules(lint(files, {**table, "runtime": "14.2", "photon": True})) == []
    without_photon = lint(files, {**table, "runtime": "14.2"})
    assert rules(without_photon) == [("DL102", "warning")]  # unscheduled files: overlap assumed
    assert "only with Photon" in without_photon.findings[0].message


def test_runtime_14_1_needs_the_preview_conf(lint):
    files = {
        "a.sql": "SET spark.databricks.delta.rowLevelConcurrencyPreview = true; DELETE FROM s.t WHERE id = 1;",
        "b.sql": "SET spark.databricks.delta.rowLevelConcurrencyPreview = true; DELETE FROM s.t WHERE id = 2;",
    }
    table = {"runtime": "14.1", "photon": True, "tables": {"s.t": {"deletion_vectors": True}}}
    assert rules(lint(files, table)) == []
    no_preview = {
        k: v.replace("SET spark.databricks.delta.rowLevelConcurrencyPreview = true; ", "") for k, v in files.items()
    }
    assert rules(lint(no_preview, table)) == [("DL102", "warning")]  # unscheduled files: overlap assumed


def test_condition_with_subquery_falls_back_to_file_level(lint):
    files = {
        "a.sql": "DELETE FROM s.t WHERE id = 1;",
        "b.sql": "DELETE FROM s.t WHERE id = 2 AND v IN (SELECT v FROM s.other);",
    }
    result = lint(files, {"tables": {"s.t": {"deletion_vectors": True}}})
    assert rules(result) == [("DL102", "warning")]  # unscheduled files: overlap assumed
    assert "subquery" in result.findings[0].message


def test_only_the_row_level_matrix_may_compare_rows(tmp_path, monkeypatch):
    """The engine judges tables without row-level concurrency on their partition
    columns only; a `same_rows` cell anywhere else in the rule pack is refused."""
    import shutil

    from delta_lint import rulepack

    pack = tmp_path / "rules"
    shutil.copytree(rulepack.rules_dir(), pack)
    text = (pack / "matrices.yaml").read_text()
    head, _, tail = text.partition("  no_row_level:")
    assert "Serializable: same_files" in tail
    (pack / "matrices.yaml").write_text(
        head + "  no_row_level:" + tail.replace("Serializable: same_files", "Serializable: same_rows", 1)
    )
    monkeypatch.setattr(rulepack, "rules_dir", lambda: pack)
    rulepack.load.cache_clear()
    try:
        with pytest.raises(ValueError, match="same_rows in no_row_level"):
            rulepack.load()
    finally:
        rulepack.load.cache_clear()
