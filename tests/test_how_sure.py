"""How sure a conflict finding is: its overlap rests on a schedule or is assumed, its
verdict is certain or data-dependent, and its severity follows from both."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from delta_lint.cli import app

CERTAIN_PAIR = {"a.sql": "DELETE FROM s.t WHERE id = 1;", "b.sql": "UPDATE s.t SET v = 1 WHERE id = 2;"}
# on a table partitioned by date, two parameters whose values may coincide
DATA_PAIR = {
    "a.sql": "DELETE FROM s.t WHERE date = :run_date;",
    "b.sql": "UPDATE s.t SET v = 1 WHERE date = :day;",
}
PARTITIONED = {"tables": {"s.t": {"partitioned_by": ["date"]}}}
BOTH_JOBS = {"jobs": {"a": {"paths": ["a.sql"]}, "b": {"paths": ["b.sql"]}}}
# b.sql is run by no job: `anytime` pairs it with job a all the same
ONE_JOB = {"jobs": {"a": {"paths": ["a.sql"]}}, "unscheduled": "anytime"}


def sure(result) -> list[tuple[str, str, str | None, str | None]]:
    return [(f.rule, f.severity, f.overlap_basis, f.verdict) for f in result.findings]


def test_certain_conflict_on_a_scheduled_overlap_is_an_error(lint):
    assert sure(lint(CERTAIN_PAIR, BOTH_JOBS)) == [("DL102", "error", "schedule", "certain")]


def test_the_same_pair_with_one_side_unscheduled_is_a_warning(lint):
    assert sure(lint(CERTAIN_PAIR, ONE_JOB)) == [("DL102", "warning", "assumed", "certain")]


def test_data_dependent_conflict_on_a_scheduled_overlap_is_a_warning(lint):
    result = lint(DATA_PAIR, {**PARTITIONED, **BOTH_JOBS})
    assert sure(result) == [("DL102", "warning", "schedule", "data-dependent")]
    assert "parameters whose values may coincide" in result.findings[0].message


def test_assumed_overlap_and_data_dependent_verdict_is_info(lint):
    assert sure(lint(DATA_PAIR, PARTITIONED)) == [("DL102", "info", "assumed", "data-dependent")]


def test_schema_evolution_is_data_dependent_and_an_alter_is_certain(lint):
    evolve = {"a.sql": "MERGE WITH SCHEMA EVOLUTION INTO s.t t USING s ON s.id = t.id WHEN MATCHED THEN UPDATE SET *;"}
    alter = {"a.sql": "ALTER TABLE s.t ADD COLUMNS (c INT);"}
    write = {"b.sql": "INSERT INTO s.t VALUES (1);"}
    assert sure(lint({**evolve, **write}, BOTH_JOBS)) == [("DL111", "warning", "schedule", "data-dependent")]
    assert sure(lint({**alter, **write}, BOTH_JOBS)) == [("DL110", "error", "schedule", "certain")]


def test_a_statement_that_always_fails_judges_no_overlap(lint):
    result = lint({"a.sql": "OPTIMIZE s.t ZORDER BY (v);"}, {"tables": {"s.t": {"clustered_by": ["p"]}}})
    assert sure(result) == [("DL130", "error", None, None)]


BUNDLE = """\
bundle: {name: b}
targets: {prod: {default: true}}
resources:
  jobs:
    nightly:
      schedule: {quartz_cron_expression: "0 0 2 * * ?", timezone_id: UTC}
      tasks: [{task_key: t, notebook_task: {notebook_path: ./a.sql}}]
    stream:
      continuous: {pause_status: UNPAUSED}
      tasks: [{task_key: t, notebook_task: {notebook_path: ./b.sql}}]
    by_hand:
      tasks: [{task_key: t, notebook_task: {notebook_path: ./c.sql}}]
"""


def test_continuous_jobs_overlap_by_schedule_and_manual_jobs_by_assumption(lint):
    files = {**CERTAIN_PAIR, "c.sql": "DELETE FROM s.u WHERE id = 3;", "databricks.yml": BUNDLE}
    files["a.sql"] += "\nUPDATE s.u SET v = 2 WHERE id = 4;"
    by_table = {f.table: (f.severity, f.overlap_basis) for f in lint(files).findings}
    assert by_table == {"s.t": ("error", "schedule"), "s.u": ("warning", "assumed")}


def test_json_and_sarif_carry_both_facts_and_fail_on_error_gates_on_errors_only(tmp_path, monkeypatch):
    for name, text in DATA_PAIR.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "delta-lint.yaml").write_text("tables:\n  s.t:\n    partitioned_by: [date]\n")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    out = runner.invoke(app, ["check", ".", "--format", "json"])
    assert out.exit_code == 0, out.output  # an info finding does not fail the default gate (warning)
    [finding] = json.loads(out.output)["findings"]
    assert (finding["severity"], finding["overlap_basis"], finding["verdict"]) == ("info", "assumed", "data-dependent")
    sarif = json.loads(runner.invoke(app, ["check", ".", "--format", "sarif"]).output)
    [result] = sarif["runs"][0]["results"]
    assert result["level"] == "note"
    assert (result["properties"]["overlapBasis"], result["properties"]["verdict"]) == ("assumed", "data-dependent")
    assert runner.invoke(app, ["check", ".", "--fail-on", "info"]).exit_code == 1
    text = " ".join(runner.invoke(app, ["check", "."]).output.split())  # the width a terminal wraps at varies
    assert "how sure: the overlap is assumed: a side has no known schedule; they conflict only for some data" in text

    for name, text in CERTAIN_PAIR.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "delta-lint.yaml").write_text("jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\n")
    assert runner.invoke(app, ["check", ".", "--fail-on", "error"]).exit_code == 1
    (tmp_path / "delta-lint.yaml").write_text("jobs:\n  a: {paths: [a.sql]}\nunscheduled: anytime\n")
    assert runner.invoke(app, ["check", ".", "--fail-on", "error"]).exit_code == 0  # now a warning
    assert runner.invoke(app, ["check", "."]).exit_code == 1


def test_a_run_without_any_schedule_says_so_once_and_names_the_fix(tmp_path, monkeypatch):
    for name, text in {**CERTAIN_PAIR, "c.sql": "DELETE FROM s.t WHERE id = 3;"}.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    doc = json.loads(runner.invoke(app, ["check", ".", "--format", "json"]).output)
    assert {f["severity"] for f in doc["findings"]} == {"warning"}  # no pairing is an error
    [note] = doc["summary"]["notes"]
    assert note.startswith("no schedule is known") and "`jobs:` in delta-lint.yaml" in note
    text = runner.invoke(app, ["check", "."]).output
    assert text.count("no schedule is known") == 1
    assert text.splitlines()[-1].startswith("Found 2 predicted conflicts (0 error, 2 warning")
    # one configured job is a schedule: the note goes
    (tmp_path / "delta-lint.yaml").write_text("jobs:\n  a: {paths: [a.sql]}\nunscheduled: anytime\n")
    assert json.loads(runner.invoke(app, ["check", ".", "--format", "json"]).output)["summary"]["notes"] == []


DEV_ONLY = """\
bundle: {name: b}
targets:
  dev: {default: true, mode: development}
  staging: {}
resources:
  jobs:
    j:
      tasks: [{task_key: t, notebook_task: {notebook_path: ./a.sql}}]
"""


def test_a_development_default_without_a_production_target_is_judged_and_named(tmp_path, monkeypatch):
    (tmp_path / "a.sql").write_text("DELETE FROM s.t WHERE id = 1;\n")
    (tmp_path / "databricks.yml").write_text(DEV_ONLY)
    monkeypatch.chdir(tmp_path)
    notes = json.loads(CliRunner().invoke(app, ["check", ".", "--format", "json"]).output)["summary"]["notes"]
    assert notes[0] == "judged bundle databricks.yml: target `dev` (the bundle's default target)"
    assert "development mode" in notes[1]
