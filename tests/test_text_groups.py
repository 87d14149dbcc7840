"""The text output shows a repeated finding once, as ruff shows a violation once: the
pairs of one table's writes seen from each of their writes (the statements of one
helper, each reported with the ones after it) are one entry, and a helper's problem
reported at each call is one entry listing the other calls. JSON keeps every
finding, and the exit code is the same."""

from __future__ import annotations

import json

from tests.conftest import run_cli

HELPER = """\
def start(spark, run):
    spark.sql(f"MERGE INTO s.log t USING (SELECT '{run}' AS id) s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *")


def finish(spark, run):
    spark.sql(f"UPDATE s.log SET done = true WHERE id = '{run}'")


def save(df, path):
    df.write.format("delta").mode("append").save(path)


def save_other(df, path):
    df.write.format("delta").mode("append").save(path)
"""

NOTEBOOK = """\
# Databricks notebook source
from helper import start, finish, save, save_other
from paths import somewhere
start(spark, "x")
finish(spark, "x")
save(spark.table("s.src"), somewhere())
"""

CONFIG = "jobs:\n  a: {paths: [nb_a.py], concurrent_runs: 3}\n  b: {paths: [nb_b.py]}\n  c: {paths: [nb_c.py]}\n"


def _project(tmp_path, notebook: str = NOTEBOOK):
    (tmp_path / "helper.py").write_text(HELPER)
    (tmp_path / "delta-lint.yaml").write_text(CONFIG)
    for name in ("a", "b", "c"):
        (tmp_path / f"nb_{name}.py").write_text(notebook)
    return tmp_path


def _entries(out: str, rule: str) -> list[str]:
    return [line for line in out.splitlines() if f": {rule} " in line and not line.startswith(" ")]


def test_the_pairs_of_one_helper_are_one_text_entry_and_json_keeps_each(tmp_path):
    root = _project(tmp_path)
    text = run_cli("check", ".", "--no-cache", cwd=root)
    doc = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)
    conflicts = [f for f in doc["findings"] if f["rule"] == "DL102"]
    assert len(conflicts) > 1
    assert len(_entries(text.stdout, "DL102")) == 1
    shown = {line.split("related: ")[1] for line in text.stdout.splitlines() if "related: " in line}
    everywhere = {f"{f['location']['path']}:{f['location']['line']}:{f['location']['column']}" for f in conflicts}
    assert everywhere <= shown  # every write stays reachable
    assert text.returncode == 1


def test_a_helper_problem_at_each_call_is_one_entry_naming_the_calls(tmp_path):
    root = _project(tmp_path)
    text = run_cli("check", ".", "--no-cache", cwd=root)
    doc = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)
    assert len([f for f in doc["findings"] if f["rule"] == "DL001"]) == 3
    (entry,) = _entries(text.stdout, "DL001")
    assert entry.startswith("nb_a.py:6:1:")
    assert "    also at: nb_b.py:6:1" in text.stdout
    assert "    also at: nb_c.py:6:1" in text.stdout
    concise = run_cli("check", ".", "--no-cache", "--format", "concise", cwd=root)
    assert "(the same at nb_b.py:6:1, nb_c.py:6:1)" in concise.stdout


def test_different_helper_statements_stay_apart(tmp_path):
    varied = NOTEBOOK.replace("save(spark.table", "save_other(spark.table", 1)
    root = _project(tmp_path)
    (root / "nb_b.py").write_text(varied)
    text = run_cli("check", ".", "--no-cache", cwd=root)
    assert len(_entries(text.stdout, "DL001")) == 2


def test_pairs_of_different_severity_stay_apart(tmp_path):
    root = tmp_path
    (root / "a.sql").write_text("DELETE FROM s.t WHERE id = 1;\n")
    (root / "b.sql").write_text("UPDATE s.t SET v = 1 WHERE id = 2;\n")
    (root / "c.sql").write_text("DELETE FROM s.t WHERE id = 3;\n")
    (root / "delta-lint.yaml").write_text("jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\nunscheduled: anytime\n")
    text = run_cli("check", ".", "--no-cache", cwd=root)
    doc = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)
    severities = {f["severity"] for f in doc["findings"] if f["rule"] == "DL102"}
    assert severities == {"error", "warning"}
    assert len(_entries(text.stdout, "DL102")) >= 2
