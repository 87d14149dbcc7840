"""Where users run it: output formats, suppressions, baselines, changed-files mode on
a real git repository, and the real pre-commit tool with the hook from this repo."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ROOT, run_cli

SARIF_SCHEMA = json.loads((ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text())

MERGE_A = """\
MERGE INTO s.orders t USING updates u
  ON u.id = t.id AND u.date = t.date
WHEN MATCHED THEN UPDATE SET *;
"""
DELETE_B = "DELETE FROM s.orders WHERE date = '2024-01-01';\n"
CONFIG = "tables:\n  s.orders:\n    partitioned_by: [date]\n"


def cli(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI in this process (`env` set for the call): these tests are about what it
    prints and exits with."""
    return run_cli(*args, cwd=cwd, env=env)


def cli_process(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The console script in a subprocess, for what only a real process has (its
    standard streams' encoding)."""
    return subprocess.run(
        [sys.executable, "-m", "delta_lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, **(env or {})},
    )


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"delta-lint.yaml": CONFIG, **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def findings(proc: subprocess.CompletedProcess) -> list[dict]:
    return json.loads(proc.stdout)["findings"]


# -- output formats --------------------------------------------------------------------


def test_sarif_validates_against_the_2_1_0_schema_and_carries_related_locations(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    proc = cli("check", ".", "--format", "sarif", cwd=p)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.Draft7Validator(SARIF_SCHEMA).validate(doc)
    run = doc["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert "DL101" in rule_ids and all(r["help"]["text"] for r in run["tool"]["driver"]["rules"])
    result = next(r for r in run["results"] if r["ruleId"] == "DL101")
    assert rule_ids[result["ruleIndex"]] == "DL101"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a.sql"
    assert result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "b.sql"
    assert len(result["partialFingerprints"]["deltaLint/v1"]) == 32


def test_a_long_script_with_overlapping_runs_names_twenty_others_and_counts_the_rest(tmp_path):
    """30 DELETEs of one unpartitioned table in a job with two concurrent runs: every
    statement meets all 30 of the other run, each pair reported at its earlier
    statement (the k-th lists itself and the later ones: 31 - k). A finding names the
    first 20 (in its message and related locations, in every format) and counts the
    rest, so the output grows with the statements, not with their pairs, and a SARIF
    result stays far below the 1,000 locations code scanning accepts."""
    script = "".join(f"DELETE FROM s.events WHERE id = {k};\n" for k in range(30))
    config = "jobs:\n  backfill:\n    paths: [backfill.sql]\n    concurrent_runs: 2\n"
    p = project(tmp_path, {"backfill.sql": script, "delta-lint.yaml": config})
    doc = json.loads(cli("check", ".", "--format", "json", cwd=p).stdout)
    got = [f for f in doc["findings"] if f["rule"] == "DL102"]
    assert len(got) == 30
    for f in got:
        k = f["location"]["line"]
        assert [r["line"] for r in f["related"]] == list(range(k, min(k + 20, 31)))  # itself, then in order
        assert f["related_more"] == max(11 - k, 0)
        assert f["message"].count(" at backfill.sql:") == min(19, 30 - k)
        assert (f" and {11 - k} more on `" in f["message"]) == (k < 11)
    first = next(f for f in got if f["location"]["line"] == 1)
    assert "DELETE (another run), DELETE at backfill.sql:2:1" in first["message"]

    text = cli("check", ".", cwd=p).stdout
    assert text.count("    related: and 10 more\n") == 1 and text.count("    related: and 1 more\n") == 1
    sarif = json.loads(cli("check", ".", "--format", "sarif", cwd=p).stdout)
    jsonschema.Draft7Validator(SARIF_SCHEMA).validate(sarif)
    results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "DL102"]
    assert max(len(r["relatedLocations"]) for r in results) == 20
    assert sorted(r["properties"]["relatedMore"] for r in results) == [0] * 20 + list(range(1, 11))
    for fmt in ("github", "markdown"):
        out = cli("check", ".", "--format", fmt, cwd=p).stdout
        assert "backfill.sql:20:1 and 10 more" in out and "backfill.sql:29:1 and 1 more" in out, fmt


def test_sarif_of_the_fixture_workload_validates_and_is_deterministic():
    first = cli("check", "fixtures/jobs", "--format", "sarif", "--spark", "none", cwd=ROOT)
    second = cli_process(  # another hash seed: fixed when an interpreter starts
        "check", "fixtures/jobs", "--format", "sarif", "--spark", "none", cwd=ROOT, env={"PYTHONHASHSEED": "7"}
    )
    jsonschema.Draft7Validator(SARIF_SCHEMA).validate(json.loads(first.stdout))
    assert first.stdout == second.stdout
    # written by orjson, in the standard library's layout, byte for byte
    assert first.stdout == json.dumps(json.loads(first.stdout), indent=2) + "\n"
    for command in (("intents", "fixtures/jobs"), ("schedule", "fixtures/jobs")):
        out = cli(*command, "--format", "json", cwd=ROOT).stdout
        assert out == json.dumps(json.loads(out), indent=2) + "\n", command


@pytest.mark.integration
def test_a_path_the_terminal_cannot_show_is_escaped_not_a_traceback(tmp_path):
    """An ASCII-only standard output (a C locale, an old CI runner) and a file named
    with an accent: the text shows an escape, JSON and SARIF stay valid, ASCII JSON."""
    p = project(tmp_path, {"café.sql": MERGE_A, "b.sql": DELETE_B})
    ascii_out = {"PYTHONIOENCODING": "ascii"}
    text = cli_process("check", ".", cwd=p, env=ascii_out)
    assert text.returncode == 1 and "Traceback" not in text.stderr
    assert "caf\\xe9.sql:1:1: DL101" in text.stdout
    for fmt in ("json", "sarif"):
        proc = cli_process("check", ".", "--format", fmt, cwd=p, env=ascii_out)
        assert proc.returncode == 1 and proc.stdout.isascii() and "Traceback" not in proc.stderr, fmt
        shown = json.dumps(json.loads(proc.stdout), ensure_ascii=False)
        assert ("café.sql" if fmt == "json" else "caf%C3%A9.sql") in shown, fmt  # SARIF: a percent-encoded URI


def test_github_annotations_escape_their_payload(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    lines = cli("check", ".", "--format", "github", cwd=p).stdout.splitlines()
    assert lines and all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    first = lines[0]
    assert "file=a.sql,line=1,col=1,title=DL101" in first
    assert "\n" not in first and "%0Afix: " in first


def test_markdown_summary_and_output_file(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    proc = cli("check", ".", "--format", "markdown", "--output", "out/report.md", cwd=p)
    assert proc.returncode == 1 and proc.stdout == ""
    text = (p / "out" / "report.md").read_text()
    assert text.startswith("### delta-lint: ") and "| `DL101` non-explicit-partition-predicate | `a.sql:1:1` |" in text
    assert "<details>" in text


def test_quiet_and_statistics(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    quiet = cli("check", ".", "-q", cwd=p).stdout
    assert "Found" not in quiet and "DL101" in quiet
    stats = cli("check", ".", "--statistics", cwd=p).stdout.splitlines()
    assert any(line.split()[:2] == ["1", "DL101"] for line in stats)
    clean = project(tmp_path / "clean", {"a.sql": "SELECT 1;\n"})
    assert cli("check", ".", "-q", cwd=clean).stdout == ""


def test_no_color_when_not_a_terminal(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    assert "\x1b[" not in cli("check", ".", cwd=p).stdout


# -- suppressions ------------------------------------------------------------------------


def test_inline_suppression_on_the_line_and_above(tmp_path):
    p = project(
        tmp_path,
        {
            "a.sql": "-- nightly upsert, reviewed\n-- delta-lint: ignore[DL101]\n" + MERGE_A,
            "b.sql": DELETE_B.rstrip("\n") + "  -- delta-lint: ignore[DL101]\n",
        },
    )
    proc = cli("check", ".", "--format", "json", cwd=p)
    rules = [(f["rule"], f["location"]["path"]) for f in findings(proc)]
    assert ("DL101", "a.sql") not in rules
    # b.sql's comment matched nothing (the DL101 finding is reported at a.sql): reported
    assert ("DL005", "b.sql") in rules
    unused = next(f for f in findings(proc) if f["rule"] == "DL005")
    assert "no DL101 finding on line 1" in unused["message"]


def test_python_and_spark_sql_string_suppressions(tmp_path):
    job = (
        "# delta-lint: ignore[DL101, DL102]\n"
        "spark.sql('''\n"
        "  MERGE INTO s.orders t USING updates u\n"
        "  ON u.id = t.id WHEN MATCHED THEN UPDATE SET *''')\n"
    )
    one_line = 'spark.sql("DELETE FROM s.orders WHERE id > 0")  # delta-lint: ignore[DL101,DL102]\n'
    in_sql = 'spark.sql("UPDATE s.orders SET x = 1 -- delta-lint: ignore[DL101,DL102]")\n'
    p = project(tmp_path, {"a.py": job, "b.py": one_line, "d.py": in_sql, "c.sql": DELETE_B})
    out = findings(cli("check", ".", "--format", "json", cwd=p))
    assert [f["rule"] for f in out if f["location"]["path"] != "c.sql" and f["rule"] != "DL005"] == []


def test_file_level_and_bare_suppressions(tmp_path):
    p = project(
        tmp_path,
        {"a.sql": "-- delta-lint: ignore-file[DL1]\n" + MERGE_A, "b.sql": DELETE_B},
    )
    out = findings(cli("check", ".", "--format", "json", cwd=p))
    # DL1 is not a rule id: the directive is malformed and reported, nothing is suppressed
    assert {"DL005", "DL101"} <= {f["rule"] for f in out}
    (p / "a.sql").write_text("-- delta-lint: ignore-file[DL101]\n" + MERGE_A)
    assert findings(cli("check", ".", "--format", "json", cwd=p)) == []
    (p / "a.sql").write_text(MERGE_A.replace("ON u.id", "-- delta-lint: ignore\nON u.id"))
    (p / "a.sql").write_text(
        "MERGE INTO s.orders t USING updates u  -- delta-lint: ignore\n" + MERGE_A.split("\n", 1)[1]
    )
    assert findings(cli("check", ".", "--format", "json", cwd=p)) == []


def test_per_file_ignores_in_configuration(tmp_path):
    p = project(tmp_path, {"legacy/a.sql": MERGE_A, "b.sql": DELETE_B})
    (p / "delta-lint.yaml").write_text(CONFIG + "per-file-ignores:\n  'legacy/**': [DL101]\n")
    assert findings(cli("check", ".", "--format", "json", cwd=p)) == []
    (p / "delta-lint.yaml").write_text(CONFIG + "per-file-ignores:\n  'legacy/**': [XX1]\n")
    proc = cli("check", ".", cwd=p)
    assert proc.returncode == 2 and "per-file-ignores.legacy/**" in proc.stderr


def test_unused_suppressions_of_deselected_rules_are_not_reported(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A + "-- delta-lint: ignore[DL130]\nSELECT 1;\n", "b.sql": DELETE_B})
    out = findings(cli("check", ".", "--format", "json", "--select", "DL101", cwd=p))
    assert [f["rule"] for f in out] == ["DL101"]


# -- baseline --------------------------------------------------------------------------


def test_baseline_survives_shifted_lines_and_reports_only_new_findings(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    proc = cli("check", ".", "--write-baseline", "baseline.json", cwd=p)
    assert proc.returncode == 0 and "wrote 1 findings" in proc.stderr
    # unrelated edits move every statement down
    (p / "a.sql").write_text("-- owner: data-eng\n\n\n" + MERGE_A)
    (p / "b.sql").write_text("-- cleanup\n\n" + DELETE_B)
    proc = cli("check", ".", "--baseline", "baseline.json", "--format", "json", cwd=p)
    assert proc.returncode == 0 and findings(proc) == []
    # a new conflicting job is new
    (p / "c.sql").write_text("UPDATE s.orders SET x = 1 WHERE id = 3;\n")
    new = findings(cli("check", ".", "--baseline", "baseline.json", "--format", "json", cwd=p))
    assert new and all("c.sql" in json.dumps(f) for f in new)
    # a changed statement is a new finding too
    (p / "c.sql").unlink()
    (p / "a.sql").write_text(MERGE_A.replace("u.date = t.date", "u.day = t.date"))
    assert findings(cli("check", ".", "--baseline", "baseline.json", "--format", "json", cwd=p))


def test_missing_baseline_is_a_clear_error(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A})
    proc = cli("check", ".", "--baseline", "nope.json", cwd=p)
    assert proc.returncode == 2 and "nope.json: baseline not found" in proc.stderr


# -- changed files ---------------------------------------------------------------------


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_diff_base_reports_only_findings_touching_changed_files(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B, "other/x.sql": "DELETE FROM s.t WHERE k = 1;\n"})
    (p / "other" / "y.sql").write_text("DELETE FROM s.t WHERE k = 2;\n")
    git(p, "init", "-q", "-b", "main")
    git(p, "add", ".")
    git(p, "commit", "-q", "-m", "base")
    git(p, "checkout", "-q", "-b", "feature")
    (p / "b.sql").write_text("-- touched\n" + DELETE_B)
    git(p, "commit", "-q", "-am", "touch b")
    everything = findings(cli("check", ".", "--format", "json", cwd=p))
    assert {f["table"] for f in everything} == {"s.orders", "s.t"}
    changed = findings(cli("check", ".", "--format", "json", "--diff-base", "main", cwd=p))
    assert {f["table"] for f in changed} == {"s.orders"}  # b.sql is the related side of a.sql's finding
    # an uncommitted change counts too
    (p / "other" / "y.sql").write_text("DELETE FROM s.t WHERE k = 3;\n")
    assert {f["table"] for f in findings(cli("check", ".", "--format", "json", "--diff-base", "main", cwd=p))} == {
        "s.orders",
        "s.t",
    }
    # the configuration changing makes every finding relevant
    git(p, "checkout", "-q", "--", "other/y.sql")
    (p / "delta-lint.yaml").write_text(CONFIG + "runtime: '15.4'\n")
    assert len(findings(cli("check", ".", "--format", "json", "--diff-base", "main", cwd=p))) == len(everything)
    bad = cli("check", ".", "--diff-base", "no-such-ref", cwd=p)
    assert bad.returncode == 2 and bad.stderr.startswith("delta-lint: error: --diff-base no-such-ref")


def test_changed_files_analyse_the_whole_project(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B, "c.sql": "SELECT 1;\n"})
    only_c = cli("check", "--changed", "c.sql", "--format", "json", cwd=p)
    assert only_c.returncode == 0 and findings(only_c) == []
    only_b = cli("check", "--changed", "b.sql", "--format", "json", cwd=p)
    assert only_b.returncode == 1 and [f["rule"] for f in findings(only_b)] == ["DL101"]


# -- pre-commit -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hook_rev():
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("the hook is installed from this repository's git history")
    return git(ROOT, "rev-parse", "HEAD").strip()


@pytest.mark.integration
def test_real_pre_commit_blocks_a_conflicting_change_and_passes_a_harmless_one(tmp_path, hook_rev):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT.as_posix()}\n    rev: {hook_rev}\n    hooks:\n      - id: delta-lint\n"
    )
    (repo / "delta-lint.yaml").write_text(CONFIG)
    (repo / "jobs").mkdir()
    (repo / "jobs" / "a.sql").write_text(MERGE_A.replace("u.date = t.date", "t.date = :run_date"))
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    precommit = [sys.executable, "-m", "pre_commit"]
    commit_env = {
        **env,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    subprocess.run([*precommit, "install"], cwd=repo, check=True, capture_output=True, env=env, timeout=120)
    git(repo, "add", ".")

    def commit(message: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["git", "commit", "-q", "-m", message],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=900,
            env=commit_env,
        )

    first = commit("harmless")
    assert first.returncode == 0, first.stdout + first.stderr
    (repo / "jobs" / "b.sql").write_text("DELETE FROM s.orders WHERE id = 7;\n")  # whole table vs a.sql's rows
    (repo / "jobs" / "a.sql").write_text(MERGE_A)
    git(repo, "add", ".")
    second = commit("conflicting")
    assert second.returncode != 0
    assert re.search(r"jobs/[ab]\.sql:\d+:\d+: DL1\d\d \[Concurrent", second.stdout + second.stderr)
    assert git(repo, "log", "--oneline").count("\n") == 1  # the conflicting commit was blocked


@pytest.mark.integration
def test_progress_bar_only_on_a_terminal_for_long_runs(tmp_path):
    import pty
    import select

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from corpus import Corpus

    Corpus(1200, seed=2).write(tmp_path)  # long enough (> 1 s of front ends) for the bar to appear
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["DELTA_LINT_PROGRESS_DELAY"] = "0.05"  # the machine may read 1,200 files in under a second
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "delta_lint", "check", ".", "--no-cache", "--jobs", "1", "-o", "out.txt"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=300)
    os.close(master)
    assert b"checking" in seen and b"/1200" in seen  # the bar, on the terminal
    piped = subprocess.run(
        [sys.executable, "-m", "delta_lint", "check", ".", "--no-cache", "--jobs", "1", "-o", "out.txt"],
        cwd=tmp_path,
        capture_output=True,
        env=env,
    )
    assert b"checking" not in piped.stderr  # never when stderr is not a terminal


def test_action_and_hook_definitions_are_well_formed():
    """The composite action cannot run here (no GitHub runner); hold its shape to what the README promises."""
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    scripts = "\n".join(step.get("run", "") for step in action["runs"]["steps"])
    assert "--format sarif" in scripts and "--format github" in scripts and "--diff-base" in scripts
    assert "GITHUB_STEP_SUMMARY" in scripts
    assert set(action["outputs"]) == {"sarif-file"}
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hooks[0]["id"] == "delta-lint" and hooks[0]["require_serial"] is True
    assert hooks[0]["entry"] == "delta-lint check --changed"
