"""A write reached through a helper is reported at the call and names the line of its
own statement (the statement site): as a related location in JSON and SARIF, as a
"written at" line in text, and as a location `--changed`, path filters and
suppression comments see. Baseline fingerprints do not change with it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from delta_lint.cli import app

HELPERS = """\
import datetime


def save(df, table):
    stamp = datetime.date.today()
    df.write.format("delta").mode("overwrite").saveAsTable(table)
"""
HELPERS_WRITE = 6  # the line of the helper's write statement (column 5)
JOB_A = """\
from helpers import save

save(df, "main.sales.orders")
"""
JOB_B = 'spark.sql("DELETE FROM main.sales.orders WHERE id = 1")\n'


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def check(tmp_path: Path, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "--no-cache", "--spark", "none", *args])
    return result.exit_code, result.output


def findings(tmp_path: Path, monkeypatch, *args: str) -> list[dict]:
    code, out = check(tmp_path, monkeypatch, ".", "--format", "json", *args)
    assert code in (0, 1), out
    return json.loads(out)["findings"]


def conflicts(found: list[dict]) -> list[dict]:
    return [f for f in found if not f["rule"].startswith("DL0")]


def test_a_helper_of_another_module_names_its_statement(tmp_path, monkeypatch):
    project(tmp_path, {"helpers.py": HELPERS, "job_a.py": JOB_A, "job_b.py": JOB_B})
    [found] = conflicts(findings(tmp_path, monkeypatch))
    assert found["location"] == {"path": "job_a.py", "line": 3, "column": 1}  # reported at the call, as before
    assert found["related"] == [{"path": "job_b.py", "line": 1, "column": 1}]
    assert found["sites"] == [{"path": "helpers.py", "line": HELPERS_WRITE, "column": 5}]
    code, text = check(tmp_path, monkeypatch, ".")
    assert code == 1 and f"    written at helpers.py:{HELPERS_WRITE}\n" in text
    code, sarif = check(tmp_path, monkeypatch, ".", "--format", "sarif")
    [result] = [r for r in json.loads(sarif)["runs"][0]["results"] if r["ruleId"] == found["rule"]]
    where = [r["physicalLocation"] for r in result["relatedLocations"]]
    assert where[-1] == {"artifactLocation": {"uri": "helpers.py"}, "region": {"startLine": 6, "startColumn": 5}}
    monkeypatch.chdir(tmp_path)
    intents = json.loads(CliRunner().invoke(app, ["intents", ".", "--format", "json"]).output)
    by_path = {i["path"]: i["sites"] for i in intents}
    assert by_path == {"job_a.py": [{"path": "helpers.py", "line": 6, "column": 5}], "job_b.py": []}


def test_a_direct_write_has_no_statement_site(tmp_path, monkeypatch):
    direct = 'df.write.format("delta").mode("overwrite").saveAsTable("main.sales.orders")\n'
    project(tmp_path, {"job_a.py": direct, "job_b.py": JOB_B})
    [found] = conflicts(findings(tmp_path, monkeypatch))
    assert found["location"]["path"] == "job_a.py" and found["sites"] == []
    code, text = check(tmp_path, monkeypatch, ".")
    assert code == 1 and "written at" not in text


def test_a_helper_of_the_same_file_and_both_writes_through_helpers(tmp_path, monkeypatch):
    job_b = 'def purge(t):\n    spark.sql(f"DELETE FROM {t} WHERE id = 1")\n\n\npurge("main.sales.orders")\n'
    project(tmp_path, {"helpers.py": HELPERS, "job_a.py": JOB_A, "job_b.py": job_b})
    helper = {"path": "helpers.py", "line": 6, "column": 5}
    purge = {"path": "job_b.py", "line": 2, "column": 5}
    found = {f["location"]["path"]: f for f in conflicts(findings(tmp_path, monkeypatch))}
    assert found["job_a.py"]["related"] == [{"path": "job_b.py", "line": 5, "column": 1}]
    assert found["job_a.py"]["sites"] == [helper, purge]  # its own write's statement first, then the other's
    if "job_b.py" in found:
        assert found["job_b.py"]["sites"] == [purge, helper]


def test_a_run_included_notebook_names_its_own_line(tmp_path, monkeypatch):
    common = (
        "# Databricks notebook source\n"
        'CATALOG = "main"\n'
        "\n"
        "# COMMAND ----------\n"
        "\n"
        "def overwrite(df, table):\n"
        "    (df.write\n"
        '       .mode("overwrite")\n'
        "       .saveAsTable(table))\n"
    )
    job = '# Databricks notebook source\n# MAGIC %run ../lib/common\n\n# COMMAND ----------\n\noverwrite(df, "main.s.t")\n'
    project(
        tmp_path, {"lib/common.py": common, "jobs/nb.py": job, "jobs/other.py": 'spark.sql("DELETE FROM main.s.t")\n'}
    )
    [found] = conflicts(findings(tmp_path, monkeypatch))
    assert found["location"] == {"path": "jobs/nb.py", "line": 6, "column": 1}
    assert found["sites"] == [{"path": "lib/common.py", "line": 7, "column": 6}]
    # run from the job's folder, paths shown relative to it
    code, text = check(tmp_path / "jobs", monkeypatch, "..")
    assert code == 1 and "    written at ../lib/common.py:7\n" in text


def test_changed_helper_fails_the_gate_and_an_unrelated_change_passes(tmp_path, monkeypatch):
    project(tmp_path, {"helpers.py": HELPERS, "job_a.py": JOB_A, "job_b.py": JOB_B, "notes.py": "x = 1\n"})
    code, out = check(tmp_path, monkeypatch, "--changed", "helpers.py")
    assert code == 1 and "written at helpers.py:6" in out
    code, out = check(tmp_path, monkeypatch, "--changed", "notes.py")
    assert code == 0, out


def git(cwd: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_diff_base_sees_an_edit_of_the_helpers_write(tmp_path, monkeypatch):
    project(tmp_path, {"helpers.py": HELPERS, "job_a.py": JOB_A, "job_b.py": JOB_B, "notes.py": "x = 1\n"})
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    git(tmp_path, "checkout", "-q", "-b", "feature")
    (tmp_path / "notes.py").write_text("x = 2\n")
    git(tmp_path, "commit", "-q", "-am", "unrelated")
    code, out = check(tmp_path, monkeypatch, ".", "--diff-base", "main")
    assert code == 0, out
    (tmp_path / "helpers.py").write_text(HELPERS.replace('mode("overwrite")', 'mode("overwrite").option("x", "1")'))
    git(tmp_path, "commit", "-q", "-am", "edit the helper's write")
    code, out = check(tmp_path, monkeypatch, ".", "--diff-base", "main")
    assert code == 1 and "job_a.py:3:1" in out and "written at helpers.py:6" in out


def test_a_path_filter_on_the_helper_reports_its_findings(tmp_path, monkeypatch):
    # with a configuration, `check PATHS` reads the whole project and reports the findings touching PATHS
    project(
        tmp_path,
        {
            "delta-lint.yaml": "tables: {}\n",
            "helpers.py": HELPERS,
            "job_a.py": JOB_A,
            "job_b.py": JOB_B,
            "notes.py": "x = 1\n",
        },
    )
    code, out = check(tmp_path, monkeypatch, "helpers.py")
    assert code == 1 and "job_a.py:3:1" in out
    code, out = check(tmp_path, monkeypatch, "notes.py")
    assert code == 0, out


def test_a_comment_at_the_statement_suppresses_the_write_at_every_call(tmp_path, monkeypatch):
    ignored = HELPERS.replace(".saveAsTable(table)\n", ".saveAsTable(table)  # delta-lint: ignore[DL102]\n")
    project(tmp_path, {"helpers.py": ignored, "job_a.py": JOB_A, "job_b.py": JOB_B})
    found = findings(tmp_path, monkeypatch)
    # the write's own finding is gone, and the comment is used (no DL005)
    assert not [f for f in found if f["location"]["path"] == "job_a.py"]
    assert not [f for f in found if f["rule"] == "DL005"]
    # near miss: a comment naming another rule suppresses nothing and is reported unused
    other = HELPERS.replace(".saveAsTable(table)\n", ".saveAsTable(table)  # delta-lint: ignore[DL101]\n")
    project(tmp_path, {"helpers.py": other})
    found = findings(tmp_path, monkeypatch)
    assert [f["location"]["path"] for f in found if f["rule"] == "DL102"][:1] == ["job_a.py"]
    assert [f["location"] for f in found if f["rule"] == "DL005"] == [{"path": "helpers.py", "line": 6, "column": 68}]


def test_a_baseline_absorbs_the_finding_when_the_helper_moves(tmp_path, monkeypatch):
    """The fingerprint leaves the statement site out (like every line number): a
    baseline written before sites existed still holds, and so does one when the
    helper moves. What the write does is in the message, so changing it is new."""
    project(tmp_path, {"helpers.py": HELPERS, "job_a.py": JOB_A, "job_b.py": JOB_B})
    code, out = check(tmp_path, monkeypatch, ".", "--write-baseline", "base.json")
    assert code == 0, out
    (tmp_path / "helpers.py").write_text("# moved down\n\n" + HELPERS)
    code, out = check(tmp_path, monkeypatch, ".", "--baseline", "base.json")
    assert code == 0, out
    replace_where = 'mode("overwrite").option("replaceWhere", "id = 2")'
    (tmp_path / "helpers.py").write_text(HELPERS.replace('mode("overwrite")', replace_where))
    code, out = check(tmp_path, monkeypatch, ".", "--baseline", "base.json")
    assert code == 1 and "replaceWhere overwrite" in out and "written at helpers.py:6" in out


def test_a_cached_run_keeps_the_sites(tmp_path, monkeypatch):
    project(tmp_path / "p", {"helpers.py": HELPERS, "job_a.py": JOB_A, "job_b.py": JOB_B})
    monkeypatch.setenv("DELTA_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path / "p")
    for _ in range(2):  # cold, then warm from the cache
        out = CliRunner().invoke(app, ["check", ".", "--spark", "none", "--format", "json"]).output
        [found] = conflicts(json.loads(out)["findings"])
        assert found["sites"] == [{"path": "helpers.py", "line": 6, "column": 5}]


# -- SQL text built on one line and run on another ---------------------------------------


def intents(tmp_path: Path, monkeypatch) -> list[dict]:
    monkeypatch.chdir(tmp_path)
    return json.loads(CliRunner().invoke(app, ["intents", ".", "--format", "json"]).output)


TEXT_IN_A_NAME = """\
check_code = '''
CASE WHEN a > 1 THEN "x" END
'''

query = "DELETE FROM main.ops.rules WHERE rule = 'r1' AND code = '" + check_code + "'"
print(query)
spark.sql(query)
"""


def test_sql_text_held_by_a_name_names_where_it_was_built(tmp_path, monkeypatch):
    project(
        tmp_path,
        {"job.py": TEXT_IN_A_NAME, "other.py": "spark.sql(\"DELETE FROM main.ops.rules WHERE rule = 'r1'\")\n"},
    )
    by_path = {i["path"]: i for i in intents(tmp_path, monkeypatch)}
    assert by_path["job.py"]["line"] == 7  # reported at the call, as before
    assert by_path["job.py"]["sites"] == [{"path": "job.py", "line": 5, "column": 9}]
    found = {f["location"]["path"]: f for f in conflicts(findings(tmp_path, monkeypatch))}
    assert found["job.py"]["sites"] == [{"path": "job.py", "line": 5, "column": 9}]


def test_each_branch_that_builds_the_text_is_named_by_its_own_write(tmp_path, monkeypatch):
    job = (
        "if flag:\n"
        '    q = "DELETE FROM main.ops.a WHERE x = 1"\n'
        "else:\n"
        '    q = "DELETE FROM main.ops.b WHERE x = 1"\n'
        'spark.sql(q.format() + "")\n'
    )
    project(tmp_path, {"job.py": job})
    sites = {i["table"]: [s["line"] for s in i["sites"]] for i in intents(tmp_path, monkeypatch)}
    assert sites == {"main.ops.a": [2], "main.ops.b": [4]}


def test_a_name_that_only_fills_in_a_part_is_not_the_statements_text(tmp_path, monkeypatch):
    job = (
        'table = "main.ops.d"\n'
        'spark.sql(f"OPTIMIZE {table}")\n'
        'spark.sql("DELETE FROM main.ops.e WHERE y = 2")\n'
        'q = "DELETE FROM main.ops.f WHERE y = 2"; spark.sql(q)\n'
    )
    project(tmp_path, {"job.py": job})
    assert {i["table"]: i["sites"] for i in intents(tmp_path, monkeypatch)} == {
        "main.ops.d": [],
        "main.ops.e": [],
        "main.ops.f": [],  # built on the call's own line
    }


SCRIPT = """\
BEGIN
  DECLARE qry STRING;
  SET qry =
    'MERGE INTO ' || :catalog || '.sales.orders AS t ' ||
    'USING src AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *';
  EXECUTE IMMEDIATE qry;
END;
"""


def test_execute_immediate_names_the_statement_that_set_its_text(tmp_path, monkeypatch):
    project(tmp_path, {"merge.sql": SCRIPT})
    [merge] = intents(tmp_path, monkeypatch)
    assert (merge["line"], merge["kind"]) == (6, "merge")
    assert merge["sites"] == [{"path": "merge.sql", "line": 3, "column": 3}]


def test_execute_immediate_of_a_literal_names_no_other_statement(tmp_path, monkeypatch):
    script = "BEGIN\n  DECLARE qry STRING;\n  EXECUTE IMMEDIATE 'DELETE FROM main.sales.orders WHERE id = 1';\nEND;\n"
    project(tmp_path, {"purge.sql": script})
    [purge] = intents(tmp_path, monkeypatch)
    assert (purge["line"], purge["sites"]) == (3, [])


def test_sql_text_handed_to_a_helper_that_runs_it_names_both_lines(tmp_path, monkeypatch):
    helpers = "def run_sql(statement):\n    spark.sql(statement)\n"
    job = (
        "from helpers import run_sql\n"
        'q = "DELETE FROM main.ops.a WHERE x = 1"\n'
        "run_sql(q)\n"
        'run_sql("DELETE FROM main.ops.b WHERE x = 1")\n'
    )
    project(tmp_path, {"helpers.py": helpers, "job.py": job})
    sites = {i["table"]: [(s["path"], s["line"]) for s in i["sites"]] for i in intents(tmp_path, monkeypatch)}
    assert sites == {
        "main.ops.a": [("helpers.py", 2), ("job.py", 2)],  # the helper's statement, then the text
        "main.ops.b": [("helpers.py", 2)],  # the text stands at the call itself
    }


def test_statements_written_in_a_list_dict_or_loop_header_are_named_where_they_stand(tmp_path, monkeypatch):
    job = (
        'QUERIES = {"load": "INSERT INTO main.ops.g SELECT * FROM v"}\n'
        'spark.sql(QUERIES["load"])\n'
        'STEPS = ["DELETE FROM main.ops.h WHERE d = 1"]\n'
        "for step in STEPS:\n"
        "    spark.sql(step)\n"
        'for step in ["UPDATE main.ops.i SET ok = 1 WHERE d = 1"]:\n'
        "    spark.sql(step)\n"
    )
    project(tmp_path, {"job.py": job})
    sites = {i["table"]: (i["line"], [s["line"] for s in i["sites"]]) for i in intents(tmp_path, monkeypatch)}
    assert sites == {"main.ops.g": (2, [1]), "main.ops.h": (5, [3]), "main.ops.i": (7, [6])}


def test_a_list_that_only_fills_in_a_part_or_stands_on_the_calls_line_is_not_named(tmp_path, monkeypatch):
    job = (
        'TABLES = ["main.ops.j"]\n'
        "for t in TABLES:\n"
        '    spark.sql(f"DELETE FROM {t} WHERE d = 1")\n'
        'for q in ["DELETE FROM main.ops.k WHERE d = 1"]: spark.sql(q)\n'
    )
    project(tmp_path, {"job.py": job})
    assert {i["table"]: i["sites"] for i in intents(tmp_path, monkeypatch)} == {"main.ops.j": [], "main.ops.k": []}


NOTEBOOK_HELPER = """\
# Databricks notebook source
OUTPUT = {r.kind: r.target for r in spark.table("main.ops.config").collect()}


def save(df, table_name):
    df.write.mode("overwrite").saveAsTable(table_name)


def keep(df, table_name):
    df.write.mode("append").saveAsTable("main.ops.audit")


save(df, OUTPUT["daily"])
keep(df, OUTPUT["daily"])
"""


def test_a_write_naming_a_parameter_given_a_run_time_value_stays_at_the_call(tmp_path, monkeypatch):
    """The call gives the helper's table a value only a run knows: the write reads it
    as it reads itself alone (`{table_name}`), yet it is the call's write: reported
    where the job calls it, its statement a related location. A write that names no
    parameter stays where it is written."""
    project(tmp_path, {"job.py": NOTEBOOK_HELPER})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["intents", ".", "--format", "json"])
    assert result.exit_code == 0, result.output
    at = {(i["table"], i["line"]) for i in json.loads(result.stdout[result.stdout.index("[") :])}
    assert ("{table_name}", 13) in at and ("{table_name}", 6) not in at
    assert ("main.ops.audit", 10) in at


def test_a_note_of_a_helpers_statement_names_it_once_at_each_call(tmp_path, monkeypatch):
    """A diagnostic about a helper's statement (a table path only a run knows) is
    reported at the call, as its write is, and names the statement's own line (a
    location path filters, `--changed` and baselines see). A helper read
    on two paths of one call (`if`/`else` around two calls of it) says it once.
    The near miss: a diagnostic of the job's own statement names no other line."""
    writers = (
        "def write_table(spark, name, mode):\n"
        "    spark.sql(f\"ALTER TABLE delta.`{name}` SET TBLPROPERTIES ('a' = 'b')\")\n"
    )
    job = (
        "from writers import write_table\n"
        "def save(spark, length, target):\n"
        '    if length == "short":\n'
        '        write_table(spark, target, "overwrite")\n'
        "    else:\n"
        '        write_table(spark, target, "append")\n'
        "save(spark, length, compute())\n"
        "spark.sql(f\"ALTER TABLE delta.`{compute()}` SET TBLPROPERTIES ('a' = 'b')\")\n"
    )
    project(tmp_path, {"writers.py": writers, "job.py": job})
    notes = [f for f in findings(tmp_path, monkeypatch) if f["rule"] == "DL001"]
    assert [
        (f["location"]["path"], f["location"]["line"], [(s["path"], s["line"]) for s in f["sites"]]) for f in notes
    ] == [
        ("job.py", 7, [("writers.py", 2)]),
        ("job.py", 8, []),
    ]
