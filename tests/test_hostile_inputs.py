"""Hostile inputs: every one is answered by a message naming the file (and the
line and key when known), in bounded time, never by a traceback or an
"internal error"; a broken file found in the repository never stops the others."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from delta_lint.cli import app
from delta_lint.globs import glob_problem, matches_any
from delta_lint.suppress import scan

MERGE = "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE;\n"
DELETE = "DELETE FROM t WHERE x = 1;\n"


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"a.sql": MERGE, "b.sql": DELETE, **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def cli(tmp_path: Path, monkeypatch, *args: str):
    """The CLI in-process (a subprocess costs a second of imports per case)."""
    monkeypatch.chdir(tmp_path)
    # a wide terminal whatever runs the tests (a pytest-xdist worker has none): no wrapping
    result = CliRunner().invoke(app, ["check", ".", "--no-cache", "--spark", "none", *args], env={"COLUMNS": "400"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


# -- hangs ------------------------------------------------------------------------------------


def test_a_glob_shaped_for_backtracking_matches_in_linear_time():
    evil = "*a" * 40 + "b"
    start = time.perf_counter()
    for n in (60, 600, 6000):
        assert not matches_any("a" * n + ".sql", (evil,))
        assert not matches_any("x/" * n + "a" * n, ("**/" * 20 + evil,))
    assert time.perf_counter() - start < 5  # Python's `re` takes hours on the first of these


def test_globs_keep_their_meaning():
    assert matches_any("jobs/x.sql", ("jobs",))
    assert matches_any("jobs/x.sql", ("jobs/",))
    assert matches_any("a/b/c/x.sql", ("**/x.sql",))
    assert matches_any("x.sql", ("**/x.sql",))
    assert not matches_any("a/b/x.sql", ("a/*.sql",))
    assert matches_any("a/b/x.sql", ("a/**",))
    assert matches_any("a/x1.sql", ("a/x?.sql",))
    assert matches_any("a/[x].sql", ("a/[x].sql",))  # brackets are literal
    assert matches_any("a/x\udcff.sql", ("a/*.sql",))  # a name that is not UTF-8
    assert matches_any("a/line\nbreak.sql", ("a/*.sql",))


def test_pathological_globs_are_refused_in_configuration(tmp_path, monkeypatch):
    assert glob_problem("x" * 5000) and glob_problem("a\0b") and glob_problem("**/*.sql") is None
    project(tmp_path, {"delta-lint.yaml": f"exclude: ['{'x' * 5000}']\n"})
    result = cli(tmp_path, monkeypatch)
    assert result.exit_code == 2 and "delta-lint.yaml" in result.output and "`exclude[0]`" in result.output


def test_pathological_globs_everywhere_in_the_configuration_finish(tmp_path, monkeypatch):
    evil = "*a" * 40 + "b"
    config = (
        f"exclude: ['{evil}']\n"
        f"per-file-ignores:\n  '{evil}': [DL1]\n"
        f"jobs:\n  nightly:\n    paths: ['{evil}', '**/{evil}']\n"
    )
    project(tmp_path, {"delta-lint.yaml": config, "a" * 200 + ".sql": DELETE, "d/" + "a" * 100 + "/b.sql": DELETE})
    result = cli(tmp_path, monkeypatch)
    assert result.exit_code == 1 and "DL10" in result.output


def test_fifty_thousand_suppression_comments_are_fast(tmp_path, monkeypatch):
    comments = "-- delta-lint: ignore[DL101]\n" * 50_000
    scanned = scan(comments + DELETE)
    assert len(scanned.directives) == 50_000 and {d.applies_to for d in scanned.directives} == {50_001}
    blank = "# delta-lint: ignore[DL101]\n\n   \n" * 50_000
    project(tmp_path, {"b.sql": comments + DELETE, "c.py": blank + 'spark.sql("DELETE FROM t")\n'})
    result = cli(tmp_path, monkeypatch, "--statistics")  # one line per rule, not 100,000 findings
    assert result.exit_code == 1 and "DL005" in result.output


def test_a_notebook_of_twenty_thousand_statements_is_placed_in_linear_time(tmp_path, monkeypatch):
    """Each node's place in the notebook file is a lookup: the last cell line's place
    (for a line past the cells) was found by a scan of every line at each node, 13 s of
    CPU for this notebook. Its write is still placed at its line."""
    statements = "".join(f'spark.sql("SELECT {i}")\n' for i in range(20_000))
    nb = "# Databricks notebook source\n" + statements + 'spark.sql("DELETE FROM main.s.t WHERE id = 1")\n'
    project(tmp_path, {"nb.py": nb, "a.sql": "DELETE FROM main.s.t WHERE id = 2;\n"})
    start = time.process_time()
    result = cli(tmp_path, monkeypatch, "--format", "concise", "--select", "DL1")
    assert time.process_time() - start < 6
    assert "at nb.py:20002:1 " in result.output


def test_a_sql_cell_of_thirty_thousand_statements_is_placed_in_linear_time(tmp_path, monkeypatch):
    """The same for a `%sql` cell's lines: its last line's place was found by a scan of
    the cell at each statement placed (about 13 s of CPU here)."""
    statements = "".join(f"# MAGIC DELETE FROM main.s.t{i} WHERE id = {i};\n" for i in range(30_000))
    nb = "# Databricks notebook source\n# MAGIC %sql\n" + statements
    project(tmp_path, {"nb.py": nb, "a.sql": "DELETE FROM main.s.t29999 WHERE id = 2;\n"})
    start = time.process_time()
    result = cli(tmp_path, monkeypatch, "--format", "concise", "--select", "DL1")
    assert time.process_time() - start < 7
    assert "at nb.py:30002:9 " in result.output


# -- tracebacks and internal errors become messages at the file, line and key -------------------

BIG = "9" * 5000
JOB = "      tasks:\n        - task_key: t\n          sql_task: {file: {path: a.sql}}\n"


@pytest.mark.parametrize(
    "name,text,needle",
    [
        ("delta-lint.yaml", f"spark_timeout: {BIG}\n", "delta-lint.yaml:1: a number of more than 100 digits"),
        ("delta-lint.yaml", "duration:\n  default: 99999999999999999999h\n", "delta-lint.yaml:2: `duration.default`"),
        ("delta-lint.yaml", "duration:\n  default: 1.0e+400\n", "delta-lint.yaml:2: `duration.default`"),
        ("delta-lint.yaml", 'exclude: ["a\\0b"]\n', "delta-lint.yaml:1: `exclude[0]`: must be a glob"),
        ("delta-lint.yaml", 'snapshot: "x\\0y"\n', "delta-lint.yaml:1: `snapshot`: must be a file path"),
        ("delta-lint.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n", "delta-lint.yaml"),
        ("delta-lint.yaml", "tables:\n  t:\n    partitioned_by: 7\n", ":3: `tables.t.partitioned_by`: must be a list"),
        ("delta-lint.yaml", "select: [DL999]\n", "`select[0]`: `DL999` is not a rule id"),
        ("delta-lint.yaml", "per-file-ignores:\n  'x/*': [DL1O1]\n", "did you mean DL101?"),
        ("pyproject.toml", '[tool]\ndelta-lint = "x"\n', "`tool.delta-lint`: must be a table"),
        ("pyproject.toml", 'tool = "x"\n', "`tool`: must be a table"),
        (
            "pyproject.toml",
            '[tool.delta-lint]\nruntime = "oss"\n[tool.delta-lint.tables."s.t"]\npartitioned_by = "d"\n',
            "pyproject.toml:4: `tool.delta-lint.tables.s.t.partitioned_by`: must be a list of column names",
        ),
        ("pyproject.toml", f"[tool.delta-lint]\nspark_timeout = {BIG}\n", "pyproject.toml: cannot read TOML"),
        (
            "pyproject.toml",
            "[tool.delta-lint]\nstrict = 1\n",
            "pyproject.toml:2: `tool.delta-lint.strict`: must be true or false, got a number",
        ),
        (
            "delta-lint.lock.yaml",
            "format: 1\ntables:\n  t: {partitioned_by: country}\n",
            ":3: `tables.t.partitioned_by`",
        ),
        ("delta-lint.lock.yaml", "format: 1\ntables:\n  t: {deletion_vectors: 'false'}\n", "must be true or false"),
        ("delta-lint.lock.yaml", "format: 1\ntables:\n  5: {}\n", ":3: `tables.5`: must be a name, got a number"),
        ("delta-lint.lock.yaml", f"format: 1\ntables:\n  t: {{table_version: {BIG}}}\n", ":3: a number of more than"),
        ("delta-lint.lock.yaml", "format: 1\ntables:\n  t: {location: [1]}\n", "`tables.t.location`: must be a string"),
    ],
)
def test_bad_values_in_configuration_and_snapshot_name_file_line_and_key(tmp_path, monkeypatch, name, text, needle):
    project(tmp_path, {name: text})
    result = cli(tmp_path, monkeypatch)
    assert result.exit_code == 2 and needle in result.output, result.output


@pytest.mark.parametrize(
    "bundle,needle",
    [
        (
            "resources:\n  jobs:\n    j:\n      tasks: 3\n",
            "databricks.yml:4:1: DL003 `resources.jobs.j.tasks`: must be a list of tasks, got a number",
        ),
        ("targets: [1, 2]\n", "databricks.yml:1:1: DL003 `targets`: must be a mapping of targets, got a list"),
        ("resources: [1]\n", "databricks.yml:1:1: DL003 `resources`: must be"),
        ("include: 1\n", "databricks.yml:1:1: DL003 `include`: must be a list of globs, got a number"),
        ('include: ["a\\0b/*.yml"]\n', "databricks.yml:1:1: DL003 `include[0]`: must be a glob"),
        (
            "resources:\n  jobs:\n    j:\n      tasks:\n        - task_key: a\n          for_each_task: x\n",
            ":6:1: DL003 `resources.jobs.j.tasks[0].for_each_task`",
        ),
        (
            "resources:\n  jobs:\n    j:\n      schedule: {quartz_cron_expression: '0 0 * * * ?', timezone_id: [1]}\n"
            + JOB,
            ":4:1: DL003 `resources.jobs.j.schedule.timezone_id`: must be a time zone",
        ),
        (
            "resources:\n  jobs:\n    j:\n      schedule: {quartz_cron_expression: '0 0 * * * ?', timezone_id: 5}\n"
            + JOB,
            "got a number",
        ),
        (
            "resources:\n  jobs:\n    j:\n      parameters: 1\n" + JOB,
            ":4:1: DL003 `resources.jobs.j.parameters`: must be a list",
        ),
        ("a: " + "[" * 5000 + "]" * 5000 + "\n", "databricks.yml:1:1: DL003 nested more than 100 levels"),
        (
            f"resources:\n  jobs:\n    j:\n      max_concurrent_runs: {BIG}\n",
            ":4:1: DL003 a number of more than 100 digits",
        ),
    ],
)
def test_a_broken_bundle_found_at_the_root_is_a_diagnostic_at_its_line(tmp_path, monkeypatch, bundle, needle):
    project(tmp_path, {"databricks.yml": bundle})
    result = cli(tmp_path, monkeypatch)
    # the rest is still analysed; the text may wrap a long message at any space
    assert result.exit_code == 1 and needle in " ".join(result.output.split()), result.output
    assert "DL101" in result.output or "DL10" in result.output
    named = cli(tmp_path, monkeypatch, "--bundle", "databricks.yml")
    assert named.exit_code == 2 and "databricks.yml" in named.output, named.output


def test_a_broken_included_file_or_jobs_json_is_reported_and_the_others_are_used(tmp_path, monkeypatch):
    bundle = "include: ['resources/*.yml']\n"
    good = "resources:\n  jobs:\n    j:\n" + JOB.replace("a.sql", "../a.sql")
    project(
        tmp_path,
        {
            "databricks.yml": bundle,
            "resources/good.yml": good,
            "resources/bad.yml": "resources:\n  jobs:\n    k:\n      tasks: {a: 1}\n",
            "delta-lint.yaml": "job_definitions: exports\n",
            "exports/bad.json": '{"settings": {"name": "x", "tasks": 3}}',
            "exports/broken.json": '{"settings": ',
            "exports/deep.json": "[" * 100_000 + "]" * 100_000,
            "exports/big.json": '{"job_id": ' + BIG + "}",
            "exports/good.json": '{"job_id": 1, "settings": {"name": "nightly", "tasks": [{"task_key": "t", '
            '"sql_task": {"file": {"path": "b.sql"}}}]}}',
        },
    )
    result = cli(tmp_path, monkeypatch)
    out = result.output
    assert result.exit_code == 1, out
    assert "resources/bad.yml:4:1: DL003 `resources.jobs.k.tasks`: must be a list of tasks, got a mapping" in out
    assert "exports/bad.json:1:1: DL003 `settings.tasks`: must be a list of tasks, got a number" in out
    assert "exports/broken.json:1:1: DL003 invalid JSON" in out and "exports/deep.json:1:1: DL003 nested" in out
    assert "exports/big.json:1:1: DL003 a number of more than 100 digits" in out
    assert "job `j` has no schedule" in out and "job `nightly`" in out  # the good files' jobs are used


@pytest.mark.parametrize("cron", ["0 0 0 0W * ?", "0 0 ² * * ?", "0 0 0 L-99999999999 * ?", "0 0 0 ? * ²"])
def test_malformed_cron_expressions_are_reported_at_the_schedule(tmp_path, monkeypatch, cron):
    jobs = "".join(
        f"    {name}:\n      schedule: {{quartz_cron_expression: '{expr}'}}\n" + JOB.replace("a.sql", file)
        for name, expr, file in (("j", cron, "a.sql"), ("k", "0 0 3 * * ?", "b.sql"))
    )
    project(tmp_path, {"databricks.yml": "resources:\n  jobs:\n" + jobs})
    result = cli(tmp_path, monkeypatch)
    assert result.exit_code == 1 and "databricks.yml:4:1: DL003 job `j`: `schedule`" in result.output, result.output
    assert "can start at any time" in result.output  # judged conservatively, not dropped
    tz = project(
        tmp_path,
        {
            "databricks.yml": "resources:\n  jobs:\n"
            + jobs.replace(cron, "0 0 1 * * ?").replace("'}", "', timezone_id: Mars/Base}", 1)
        },
    )
    assert "unknown time zone" in cli(tz, monkeypatch).output


def test_odd_notebook_metadata_types_read_as_python(tmp_path, monkeypatch):
    cell = {"cell_type": "code", "source": ['spark.sql("DELETE FROM t WHERE x = 2")\n'], "metadata": {}, "outputs": []}
    for meta in ({"language_info": "x"}, {"kernelspec": [1]}, {"language_info": {"name": 5}}, {"metadata": None}):
        nb = {"cells": [cell], "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
        project(tmp_path, {"n.ipynb": json.dumps(nb)})
        result = cli(tmp_path, monkeypatch)
        assert result.exit_code == 1 and "n.ipynb:1" in result.output or "n.ipynb" in result.output, result.output


@pytest.mark.parametrize(
    "args,needle",
    [
        (("--select", "XYZ"), "--select: `XYZ` is not a rule id or prefix"),
        (("--ignore", ""), "--ignore: an empty rule id"),
        (("--ignore", "DL1O1"), "did you mean DL101?"),
        (("--select", "DL999"), "`DL999` is not a rule id"),
    ],
)
def test_unknown_rule_ids_on_the_command_line_are_refused(tmp_path, monkeypatch, args, needle):
    project(tmp_path, {})
    result = cli(tmp_path, monkeypatch, *args)
    assert result.exit_code == 2 and needle in result.output, result.output


def test_rule_prefixes_keep_working(tmp_path, monkeypatch):
    project(tmp_path, {})
    assert cli(tmp_path, monkeypatch, "--select", "DL1").exit_code == 1
    assert cli(tmp_path, monkeypatch, "--ignore", "DL1").exit_code == 0


@pytest.mark.parametrize("value", ["nan", "inf", "1e400", "-1", "0"])
def test_a_spark_timeout_that_is_no_number_of_seconds_is_refused(tmp_path, monkeypatch, value):
    project(tmp_path, {})
    result = cli(tmp_path, monkeypatch, "--spark-timeout", value)
    assert result.exit_code == 2 and "--spark-timeout must be a number of seconds" in result.output, result.output


def test_the_schedule_command_shows_a_broken_job_definition_it_found(tmp_path, monkeypatch):
    project(tmp_path, {"databricks.yml": "resources:\n  jobs:\n    j:\n      tasks: 3\n"})
    monkeypatch.chdir(tmp_path)
    text = CliRunner().invoke(app, ["schedule", "."])
    assert text.exit_code == 0 and "not read: databricks.yml:4:1: `resources.jobs.j.tasks`" in text.output
    doc = json.loads(CliRunner().invoke(app, ["schedule", ".", "--format", "json"]).stdout)
    assert doc["problems"][0]["line"] == 4 and "must be a list of tasks" in doc["problems"][0]["message"]


def test_a_wrong_value_in_a_jobs_json_list_is_placed_on_its_own_line(tmp_path, monkeypatch):
    good = {"name": "a", "tasks": [{"task_key": "t", "sql_task": {"file": {"path": "a.sql"}}}]}
    bad = {"name": "b", "tasks": [{"task_key": "t", "depends_on": "t0"}]}
    text = json.dumps({"jobs": [{"job_id": 1, "settings": good}, {"job_id": 2, "settings": bad}]}, indent=2)
    project(tmp_path, {"delta-lint.yaml": "job_definitions: exports\n", "exports/jobs.json": text})
    line = next(i for i, row in enumerate(text.split("\n"), 1) if '"depends_on"' in row)
    result = cli(tmp_path, monkeypatch)
    assert f"exports/jobs.json:{line}:1: DL003 `jobs[1].settings.tasks[0].depends_on`: must be a list" in result.output


@pytest.mark.parametrize(
    "text,needle",
    [
        ('{"version": 1, "findings": [1]}', "bl.json:1: `findings[0]`: must be a baseline entry"),
        ('{"version": 1,\n "findings": [{"fingerprint": "x", "path": [1]}]}', "bl.json:2: `findings[0].path`"),
        ("[" * 100_000, "bl.json: cannot read the baseline"),
    ],
)
def test_a_damaged_baseline_is_refused_with_its_line(tmp_path, monkeypatch, text, needle):
    project(tmp_path, {"bl.json": text})
    result = cli(tmp_path, monkeypatch, "--baseline", "bl.json")
    assert result.exit_code == 2 and needle in result.output, result.output
