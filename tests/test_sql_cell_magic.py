"""A notebook's `%sql` magic in a plain `.sql` file (a cell pasted without the
`-- Databricks notebook source` header): the magic is skipped with an info note and
the SQL after it is read, whether the magic stands alone on the first line, shares a
line with its statement, or opens each of several pasted cells. Another language's
magic is not SQL and stays unparseable."""

from __future__ import annotations

from tests.conftest import run_cli

JOBS = {"jobs": {"a": {"paths": ["a.sql"]}, "b": {"paths": ["b.sql"]}}}
OTHER = {"b.sql": "DELETE FROM s.t WHERE id = 9;\n"}


def _parse_notes(result) -> list[tuple[int, str]]:
    return [(f.location.line, f.severity) for f in result.findings if f.rule == "DL000"]


def _conflict_lines(result) -> list[int]:
    return sorted(f.location.line for f in result.findings if f.rule == "DL102" and f.location.path == "a.sql")


def test_a_leading_magic_line_is_skipped_and_the_rest_read(lint):
    result = lint({"a.sql": "%sql\nGRANT SELECT ON TABLE s.t TO `x`;\nDELETE FROM s.t WHERE id = 1;\n", **OTHER}, JOBS)
    assert _parse_notes(result) == [(1, "info")]
    assert _conflict_lines(result) == [3]


def test_a_magic_sharing_its_statement_line_keeps_the_statement_column(lint):
    result = lint({"a.sql": "%sql DELETE FROM s.t WHERE id = 1;\n", **OTHER}, JOBS)
    assert _parse_notes(result) == [(1, "info")]
    (conflict,) = [f for f in result.findings if f.rule == "DL102" and f.location.path == "a.sql"]
    assert (conflict.location.line, conflict.location.column) == (1, 6)


def test_several_pasted_cells_give_one_note(lint):
    text = "%sql\nDELETE FROM s.t WHERE id = 1;\n\n  %SQL\nUPDATE s.t SET v = 1 WHERE id = 2;\n"
    result = lint({"a.sql": text, **OTHER}, JOBS)
    notes = [f for f in result.findings if f.rule == "DL000"]
    assert [(f.location.line, f.severity) for f in notes] == [(1, "info")]
    assert "lines 1, 4" in notes[0].message
    assert _conflict_lines(result) == [2, 5]


def test_another_language_magic_stays_unparseable(lint):
    result = lint({"a.sql": "%md\n# Title\n", **OTHER}, JOBS)
    assert [sev for _, sev in _parse_notes(result)] == ["error"]


def test_a_percent_inside_sql_is_no_magic(lint):
    text = "DELETE FROM s.t WHERE name LIKE\n'%sql';\n"
    result = lint({"a.sql": text, **OTHER}, JOBS)
    assert _parse_notes(result) == []


def test_the_note_is_not_counted_as_unanalysed(tmp_path):
    (tmp_path / "a.sql").write_text("%sql\nGRANT SELECT ON TABLE s.t TO `x`;\n")
    done = run_cli("check", str(tmp_path), "--no-cache", cwd=tmp_path)
    assert done.returncode == 0
    assert "not analysed" not in done.stdout
