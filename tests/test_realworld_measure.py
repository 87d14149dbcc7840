"""How the corpus measure matches an expected conflict with a finding
(`benchmarks/realworld/measure.py`'s `score`): the finding's sites must be the
expected ones; its table may name parts only a run knows by the value that gives
them."""

from __future__ import annotations

from pathlib import Path

from benchmarks.realworld.measure import Run, score


def _found(tmp_path: Path, expected: str, found: str) -> int:
    expect = {
        "repo": "me/demo",
        "folder": ".",
        "conflicts": [{"table": expected, "sites": ["a.py:3", "b.py:4"], "exception": "X"}],
    }
    finding = {
        "rule": "DL110",
        "table": found,
        "location": {"path": "a.py", "line": 3},
        "related": [{"path": "b.py", "line": 4}],
        "message": "",
    }
    return score(expect, tmp_path, Run(1, {"findings": [finding]}, [], None, "", 0.0)).conflicts_found


def test_a_value_only_a_run_knows_may_stand_for_several_parts_of_the_name(tmp_path):
    assert _found(tmp_path, "?.security.results", "{json__analysis_schema_name}.results") == 1
    assert _found(tmp_path, "?.security.results", "{catalog}.security.results") == 1
    assert _found(tmp_path, "main.security.results", "{catalog}.{schema}.results") == 1


def test_the_known_parts_must_still_be_the_expected_ones(tmp_path):
    assert _found(tmp_path, "?.security.results", "{json__analysis_schema_name}.other") == 0
    assert _found(tmp_path, "?.results", "{a}.{b}.results") == 0  # each value holds a part at least
    assert _found(tmp_path, "?.security.results", "main.audit.results") == 0


def test_held_out_rows_are_left_out_of_the_per_repository_table_unless_asked():
    from benchmarks.realworld.__main__ import rows_table, summary_table
    from benchmarks.realworld.measure import Outcome

    rows = [Outcome("me/seen", "positive", writes=3), Outcome("me/unseen", "positive", writes=5, split="held-out")]
    assert "me/seen" in rows_table(rows)
    assert "me/unseen" not in rows_table(rows)
    assert "me/unseen" in rows_table(rows, held_out_rows=True)
    assert "| repositories | 1 | 1 |" in summary_table(rows)  # the split's totals stay


def test_a_site_is_the_statement_that_holds_the_line(tmp_path):
    (tmp_path / "a.py").write_text(
        "x = 1\nq = (\n    df.writeStream\n    .toTable('m.s.t')\n)\nfor t in ts:\n    df.write.saveAsTable(t)\n"
    )
    expect = {
        "repo": "me/demo",
        "folder": ".",
        "writes": [{"site": "a.py:2", "table": "m.s.t"}, {"site": "a.py:6", "table": "?"}],
    }

    def found(line: int) -> int:
        intent = {"path": "a.py", "line": line, "table": "m.s.t", "kind": "streaming_write"}
        return score(expect, tmp_path, Run(0, {"findings": []}, [intent], None, "", 0.0)).found_tables

    assert found(3) == 1  # annotated at `q = (`, reported at the writer's line inside it
    assert found(2) == 1
    assert found(7) == 0  # a loop's header line is not its body's statement


def test_a_helper_write_may_be_annotated_at_its_own_statement(tmp_path):
    expect = {"repo": "me/demo", "folder": ".", "writes": [{"site": "helpers.py:6", "table": "m.s.t"}]}
    at_call = {"path": "job.py", "line": 3, "table": "m.s.t", "kind": "merge", "sites": []}

    def found(intent: dict) -> tuple[int, int]:
        row = score(expect, tmp_path, Run(0, {"findings": []}, [intent], None, "", 0.0))
        return row.found_tables, row.false_intents

    assert found(at_call) == (0, 1)
    assert found({**at_call, "sites": [{"path": "helpers.py", "line": 6, "column": 5}]}) == (1, 0)


def test_places_finds_the_same_findings_from_inside_a_project_and_from_outside(tmp_path, capsys):
    """`places` runs `check .` inside each folder and `check /abs/folder` from an empty
    folder: a project whose bundle orders two writers gives the same findings both
    ways (outside, the bundle was once not read, and the two writers conflicted)."""
    from benchmarks.realworld.__main__ import main

    root = tmp_path / "proj"
    (root / "jobs").mkdir(parents=True)
    (root / "databricks.yml").write_text(
        "bundle: {name: p}\nresources:\n  jobs:\n    nightly:\n      tasks:\n"
        "        - task_key: a\n          sql_task: {warehouse_id: w, file: {path: jobs/a.sql}}\n"
        "        - task_key: b\n          depends_on: [{task_key: a}]\n"
        "          sql_task: {warehouse_id: w, file: {path: jobs/b.sql}}\n"
    )
    (root / "jobs" / "a.sql").write_text("DELETE FROM main.s.t WHERE id = 1;\n")
    (root / "jobs" / "b.sql").write_text("UPDATE main.s.t SET v = 1;\n")
    assert main(["places", str(root)]) == 0
    assert "0 of 1 folders differ" in capsys.readouterr().out


def test_a_coverage_note_of_any_rule_is_no_false_alarm(tmp_path):
    # DL008 (a value past the analysis budget) says what was not analysed, as DL000-DL007
    # do: it is counted as coverage, never as a predicted conflict nobody expected
    expect = {"repo": "me/demo", "folder": ".", "conflicts": []}
    for rule, alarms in (("DL008", 0), ("DL001", 0), ("DL102", 1)):
        finding = {"rule": rule, "table": "main.s.t", "location": {"path": "a.py", "line": 3}, "message": ""}
        outcome = score(expect, tmp_path, Run(1, {"findings": [finding]}, [], None, "", 0.0))
        assert (outcome.false_alarms, outcome.coverage) == (alarms, 1 - alarms)
