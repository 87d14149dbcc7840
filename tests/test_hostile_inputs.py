"""Hostile inputs: every one is answered by a message naming the file (and the
line and key when known), in bounded time, never by a traceback or an
"internal error"; a broken file found in the repository never stops the others."""

from __future__ import annotations

import time
from pathlib import Path

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
    result = CliRunner().invoke(app, ["check", ".", "--no-cache", "--spark", "none", *args])
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
