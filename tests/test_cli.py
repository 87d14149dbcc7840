"""The command line: JSON contract, exit codes, config errors, fixtures, start-up cost."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from tests.conftest import FIXTURES, ROOT, run_cli

FINDINGS_SCHEMA = {
    "type": "object",
    "required": ["version", "findings", "summary"],
    "additionalProperties": False,
    "properties": {
        "version": {"const": 1},
        "findings": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "rule",
                    "name",
                    "severity",
                    "exception",
                    "table",
                    "message",
                    "location",
                    "related",
                    "related_more",
                    "overlap",
                    "fix",
                    "settings_source",
                    "sites",
                    "overlap_basis",
                    "verdict",
                    "url",
                ],
                "properties": {
                    "rule": {"type": "string", "pattern": "^DL\\d{3}$"},
                    "name": {"type": "string"},
                    "severity": {"enum": ["error", "warning", "info"]},
                    "exception": {"type": ["string", "null"]},
                    "table": {"type": ["string", "null"]},
                    "message": {"type": "string"},
                    "location": {"$ref": "#/$defs/location"},
                    "related": {"type": "array", "items": {"$ref": "#/$defs/location"}, "maxItems": 20},
                    "related_more": {"type": "integer", "minimum": 0},
                    "overlap": {"type": "string"},
                    "fix": {"type": "string"},
                    "settings_source": {"enum": ["live", "snapshot", "declared", "ddl", "assumed", None]},
                    "overlap_basis": {
                        "enum": ["schedule", "assumed", "assumed-twice", "code", "same-value", "longer-run", None]
                    },
                    "verdict": {"enum": ["certain", "data-dependent", None]},
                    "url": {"type": "string", "pattern": "^docs/rules/DL\\d{3}\\.md$"},
                    # where the statements of writes reported at a helper's call stand
                    "sites": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                },
            },
        },
        "summary": {
            "type": "object",
            "additionalProperties": False,
            "required": ["files", "intents", "findings", "conflicts", "not_analysed", "skipped", "notes"],
            "properties": {
                **{k: {"type": "integer"} for k in ("files", "intents", "findings", "conflicts", "not_analysed")},
                "skipped": {"type": "object", "additionalProperties": {"type": "integer"}},
                "notes": {"type": "array", "items": {"type": "string"}},
            },
        },
    },
    "$defs": {
        "location": {
            "type": "object",
            "additionalProperties": False,
            "required": ["path", "line", "column"],
            "properties": {"path": {"type": "string"}, "line": {"type": "integer"}, "column": {"type": "integer"}},
        }
    },
}


def cli(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    """The CLI in this process: these tests are about what it prints and exits with."""
    return run_cli(*args, cwd=cwd)


def test_check_fixtures_json_matches_the_contract():
    proc = cli("check", "fixtures/jobs", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.validate(doc, FINDINGS_SCHEMA)
    rules = {f["rule"] for f in doc["findings"]}
    # a realistic mix, including the spec's worked examples
    assert {
        "DL000",
        "DL101",
        "DL102",
        "DL103",
        "DL106",
        "DL110",
        "DL112",
        "DL113",
        "DL114",
        "DL115",
        "DL120",
        "DL130",
    } <= rules
    assert all(not f["location"]["path"].startswith("/") for f in doc["findings"])
    assert doc["findings"] == sorted(
        doc["findings"],
        key=lambda f: (
            f["location"]["path"],
            f["location"]["line"],
            f["location"]["column"],
            f["rule"],
            f["table"] or "",
            f["message"],
        ),
    )
    # the explicit upsert (worked example, safe version) is never blamed for its own runs
    assert not any(f["rule"] == "DL101" and "upsert_orders_explicit" in f["location"]["path"] for f in doc["findings"])
    # ... its runs are apart only while their date and country differ: said at info
    explicit = [f for f in doc["findings"] if "upsert_orders_explicit" in f["location"]["path"]]
    assert [(f["rule"], f["severity"], f["overlap_basis"]) for f in explicit] == [("DL102", "info", "same-value")]
    # the excluded scratch job is not analysed
    assert doc["summary"]["files"] == 23


def test_intents_lists_every_kind_of_the_fixture_workload():
    proc = cli("intents", "fixtures/jobs", "--format", "json")
    assert proc.returncode == 0
    kinds = {i["kind"] for i in json.loads(proc.stdout)}
    assert kinds == {
        "blind_append",
        "insert_reading_target",
        "replace_where",
        "dynamic_partition_overwrite",
        "full_overwrite",
        "update",
        "delete",
        "merge",
        "optimize",
        "optimize_zorder",
        "reorg_purge",
        "metadata_change",
        "protocol_change",
        "create",
        "create_or_replace",
        "streaming_write",
        "streaming_read",
        "vacuum",
        "restore",
        "truncate",
        "copy_into",
    }


def test_unparseable_statement_in_the_middle_hides_nothing():
    proc = cli("intents", "fixtures/jobs/order_files_cleanup.sql")
    lines = proc.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        "fixtures/jobs/order_files_cleanup.sql:2:1",
        "fixtures/jobs/order_files_cleanup.sql:4:1",
    ]
    assert "order_files_cleanup.sql:3:1: DL000" in proc.stderr


def test_intents_text_format():
    proc = cli("intents", "fixtures/jobs/purge_old.sql")
    assert proc.stdout == "fixtures/jobs/purge_old.sql:1:1  main.sales.orders  delete  date < '2010-01-01'  -\n"


def test_clean_project_exits_zero(tmp_path):
    (tmp_path / "a.sql").write_text("INSERT INTO s.t SELECT 1;\n")
    (tmp_path / "b.sql").write_text("INSERT INTO s.t SELECT 2;\n")
    proc = cli("check", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0 and "All checks passed" in proc.stdout


@pytest.mark.parametrize(
    "config,needle",
    [
        ("runtime: '15.4'\nbogus: 1\n", "`bogus`: unknown key"),
        (
            "tables:\n  t:\n    partitioned_by: date\n",
            "delta-lint.yaml:3: `tables.t.partitioned_by`: must be a list of column names, got the text 'date'",
        ),
        ("jobs:\n  a:\n    paths: [x.sql]\nexclusive:\n  - [a, b]\n", "unknown job `b`"),
        ("runtime: 'fast'\n", "`runtime`"),
        ("a: &a [1]\nb: *a\n", "aliases"),
        ("- just a list\n", "must be a mapping"),
    ],
)
def test_bad_config_names_the_key_and_file(tmp_path, config, needle):
    (tmp_path / "delta-lint.yaml").write_text(config)
    (tmp_path / "a.sql").write_text("DELETE FROM t;\n")
    proc = cli("check", "a.sql", cwd=tmp_path)
    assert proc.returncode == 2
    assert needle in proc.stderr and "delta-lint.yaml" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_pyproject_configuration(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.delta-lint]\nruntime = "oss"\n[tool.delta-lint.tables."s.t"]\npartitioned_by = ["d"]\n'
    )
    (tmp_path / "a.sql").write_text("UPDATE s.t SET x = 1 WHERE d = '1';\n")
    (tmp_path / "b.sql").write_text("UPDATE s.t SET x = 1 WHERE d = '2';\n")
    assert cli("check", ".", cwd=tmp_path).returncode == 0


def test_missing_path_is_reported_not_fatal(tmp_path):
    (tmp_path / "a.sql").write_text("DELETE FROM t WHERE x = 1;\n")
    proc = cli("check", "a.sql", "nope.sql", "--format", "json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert [f["rule"] for f in doc["findings"]] == ["DL003"]
    assert doc["summary"]["intents"] == 1


@pytest.mark.integration
def test_version_and_check_do_not_import_pyspark():
    """Nor pydantic: typer 0.29 and later coerce every option through it (~0.1 s on
    every run, pre-commit included), which is why pyproject keeps typer below 0.29."""
    code = "import sys; from delta_lint.cli import app; sys.argv=['delta-lint','check','--spark','none','fixtures/jobs']\ntry:\n    app()\nexcept SystemExit: pass\nprint(sorted(m for m in ('pyspark', 'pydantic') if m in sys.modules), file=sys.stderr)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip().endswith("[]")
    imports = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "delta_lint", "--version"], cwd=ROOT, capture_output=True, text=True
    )
    assert imports.stdout.startswith("delta-lint ")
    assert "pyspark" not in imports.stderr and "sqlglot" not in imports.stderr


@pytest.mark.integration
def test_a_check_of_sql_files_imports_no_python_or_notebook_front_end(tmp_path):
    (tmp_path / "a.sql").write_text("DELETE FROM s.t WHERE x = 1;\n")
    (tmp_path / "b.sql").write_text(
        "-- Databricks notebook source\nUPDATE s.t SET y = 2;\n\n-- COMMAND ----------\n\n"
        '-- MAGIC %python\n-- MAGIC spark.sql("DELETE FROM s.u WHERE x = 1")\n'
    )
    code = (
        "import sys; from delta_lint.cli import app; sys.argv=['delta-lint','check','--spark','none','a.sql']\n"
        "try:\n    app()\nexcept SystemExit: pass\n"
        "print([m for m in ('delta_lint.frontend.python', 'delta_lint.frontend.notebook') if m in sys.modules], "
        "file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip().endswith("[]"), proc.stderr
    # a notebook exported as SQL still goes to the notebook reader (its Python cell)
    doc = json.loads(cli("check", "b.sql", "--format", "json", cwd=tmp_path).stdout)
    assert doc["summary"]["intents"] == 2


def test_help_on_every_command():
    for args in ([], ["check"], ["intents"], ["rules"], ["explain"]):
        proc = cli(*args, "--help")
        assert proc.returncode == 0 and "Usage" in proc.stdout


def test_rules_and_explain():
    assert "DL101  non-explicit-partition-predicate" in cli("rules").stdout
    out = cli("explain", "DL101").stdout
    assert "Why is this bad?" in out and "Example" in out and "Use instead" in out and "Reference" in out
    assert cli("explain", "DL999").returncode == 2


def test_select_and_ignore():
    doc = json.loads(cli("check", "fixtures/jobs", "--format", "json", "--select", "DL10", "--ignore", "DL101").stdout)
    assert {f["rule"] for f in doc["findings"]} <= {"DL102", "DL103", "DL104", "DL105", "DL106", "DL107"}
    assert doc["findings"]


def test_fixture_config_exists():
    assert (FIXTURES / "delta-lint.yaml").is_file()


def test_fixture_intents_are_exactly_the_reviewed_ones():
    """Every intent of every fixture file (location, table, kind, predicate, flags,
    parameters), reviewed by hand against the job code; see tests/golden/."""
    expected = (ROOT / "tests" / "golden" / "fixture_intents.txt").read_text()
    assert cli("intents", "fixtures/jobs").stdout == expected


@pytest.mark.integration
def test_buffered_output_is_complete_when_the_process_ends_early(tmp_path):
    """The entry point ends the process with os._exit once a command is done; what
    sits in a buffered stdout (a pipe, without PYTHONUNBUFFERED) must be flushed first."""
    import os

    (tmp_path / "a.sql").write_text("DELETE FROM s.t WHERE id = 1;\nDELETE FROM s.t WHERE id = 2;\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    for args, needle in (((), "All checks passed: 1 files, 2 intents."), (("--format", "json"), '"intents": 2')):
        proc = subprocess.run(
            [sys.executable, "-m", "delta_lint", "check", ".", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert proc.returncode == 0 and needle in proc.stdout, proc.stdout + proc.stderr


def _gaps_only_project(tmp_path):
    """A repository whose only problems are coverage gaps: a broken statement, dynamic
    SQL, and a T-SQL script that is skipped."""
    (tmp_path / "broken.sql").write_text("UPDATE s.t SET WHERE d = 1;\n")
    (tmp_path / "dynamic.py").write_text("def run(statement):\n    spark.sql(statement)\n")
    (tmp_path / "dw.sql").write_text("CREATE PROC [dbo].[load] AS\nBEGIN\n  SET NOCOUNT ON;\nEND\nGO\n")
    (tmp_path / "job.sql").write_text("INSERT INTO s.t SELECT 1;\n")
    return tmp_path


def test_coverage_gaps_alone_exit_zero_unless_asked_for(tmp_path):
    root = _gaps_only_project(tmp_path)
    default = cli("check", ".", "--no-cache", cwd=root)
    assert default.returncode == 0, default.stdout
    assert default.stdout.splitlines()[-1] == (
        "No predicted conflicts: 4 files, 1 intents; 2 not analysed: 1 unparseable, 1 dynamic SQL; "
        "1 file skipped: T-SQL 1."
    )
    assert cli("check", ".", "--no-cache", "--fail-on", "info", cwd=root).returncode == 1
    assert cli("check", ".", "--no-cache", "--strict", cwd=root).returncode == 1
    assert cli("check", ".", "--no-cache", "--fail-on", "error", cwd=root).returncode == 0
    (root / "delta-lint.yaml").write_text("strict: true\n")
    assert cli("check", ".", "--no-cache", cwd=root).returncode == 1


def test_predicted_conflicts_still_fail_the_gate_next_to_gaps(tmp_path):
    root = _gaps_only_project(tmp_path)
    (root / "a.sql").write_text("DELETE FROM s.u WHERE d = 1;\n")
    (root / "b.sql").write_text("UPDATE s.u SET x = 1;\n")
    proc = cli("check", ".", "--no-cache", cwd=root)
    assert proc.returncode == 1 and proc.stdout.splitlines()[-1].startswith("Found 1 predicted conflict")


def test_skipped_files_are_counted_in_json_listed_by_show_files_and_kept_by_a_warm_run(tmp_path):
    root = _gaps_only_project(tmp_path)
    doc = json.loads(cli("check", ".", "--format", "json", cwd=root).stdout)
    assert doc["summary"]["skipped"] == {"T-SQL": 1}
    assert (doc["summary"]["conflicts"], doc["summary"]["not_analysed"]) == (0, 2)
    warm = cli("check", ".", cwd=root)  # served from the cache's earlier run
    assert warm.stdout.splitlines()[-1].endswith("1 file skipped: T-SQL 1.")
    listed = cli("check", ".", "--show-files", cwd=root).stdout.splitlines()
    assert any(line.startswith("skipped   T-SQL ") and line.endswith("dw.sql") for line in listed)
    assert listed[-1] == "3 analysed, 1 skipped"
    assert any(line.startswith("analysed  1 intent ") and line.endswith("job.sql") for line in listed)


def test_show_stats_says_what_a_run_did(tmp_path):
    """`--show-stats` adds the run's counters on standard error and changes nothing
    on standard output; a run of an unchanged project is answered from the cache."""
    (tmp_path / "a.sql").write_text("DELETE FROM s.t WHERE id = 1;\n")
    (tmp_path / "b.sql").write_text("UPDATE s.t SET x = 1;\n")
    plain = cli("check", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    cold = cli("check", ".", "--format", "json", "--show-stats", cwd=tmp_path)
    warm = cli("check", ".", "--format", "json", "--show-stats", cwd=tmp_path)
    assert plain.returncode == cold.returncode == warm.returncode == 1
    assert cold.stdout == warm.stdout == plain.stdout and plain.stderr == ""
    cold_stats, warm_stats = (dict(line.rsplit(None, 1) for line in p.stderr.splitlines()) for p in (cold, warm))
    assert cold_stats["from cache"] == "False" and warm_stats["from cache"] == "True"
    assert cold_stats["files"] == cold_stats["files read"] == cold_stats["files analysed"] == "2"
    assert cold_stats["statements parsed"] == "2" and int(cold_stats["verdicts"]) >= 1
    assert warm_stats["files analysed"] == warm_stats["verdicts"] == "0"
