"""What a user points delta-lint at, and where its findings point back: one file of
a project, a subfolder as the working directory, bundle files in every format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_integrations import CONFIG, DELETE_B, MERGE_A, cli, findings, project

OTHER_A = "DELETE FROM s.t WHERE k = 1;\n"
OTHER_B = "DELETE FROM s.t WHERE k = 2;\n"


@pytest.fixture
def jobs(tmp_path: Path) -> Path:
    """A project whose jobs/a.sql and jobs/b.sql conflict on s.orders and whose
    other/ folder holds a second, unrelated conflict on s.t."""
    return project(
        tmp_path,
        {
            "jobs/a.sql": MERGE_A,
            "jobs/b.sql": DELETE_B,
            "jobs/harmless.sql": "SELECT 1;\n",
            "other/x.sql": OTHER_A,
            "other/y.sql": OTHER_B,
        },
    )


def paths_of(found: list[dict]) -> set[str]:
    return {loc["path"] for f in found for loc in (f["location"], *f["related"])}


def test_checking_one_file_reports_its_conflict_with_a_job_in_another_file(jobs):
    """b.sql alone makes no conflict; with a.sql beside it, it does: checking b.sql
    must say so (the finding's own location is a.sql, b.sql is the related one)."""
    proc = cli("check", "jobs/b.sql", "--format", "json", cwd=jobs)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    found = findings(proc)
    assert [f["rule"] for f in found] == ["DL101"]
    assert found[0]["location"]["path"] == "jobs/a.sql"
    assert [r["path"] for r in found[0]["related"]] == ["jobs/b.sql"]
    # the other folder's conflict does not touch b.sql: not reported
    assert "other/x.sql" not in paths_of(found)
    text = cli("check", "jobs/b.sql", cwd=jobs)
    assert text.returncode == 1 and "All checks passed" not in text.stdout
    assert "jobs/a.sql:1:1: DL101" in text.stdout


def test_checking_a_harmless_file_of_a_project_passes_and_counts_the_project(jobs):
    proc = cli("check", "jobs/harmless.sql", "--format", "json", cwd=jobs)
    assert proc.returncode == 0 and findings(proc) == []
    assert json.loads(proc.stdout)["summary"]["files"] == 5  # the whole project was analysed


def test_a_folder_of_a_project_and_the_project_from_a_subfolder(jobs):
    other = findings(cli("check", "other", "--format", "json", cwd=jobs))
    assert paths_of(other) == {"other/x.sql", "other/y.sql"}
    # the working directory inside the project: `check` alone reports that folder's findings
    here = findings(cli("check", "--format", "json", cwd=jobs / "jobs"))
    assert paths_of(here) == {"a.sql", "b.sql"}
    # the project's folder itself: everything
    everything = findings(cli("check", "..", "--format", "json", cwd=jobs / "jobs"))
    assert paths_of(everything) == {"a.sql", "b.sql", "../other/x.sql", "../other/y.sql"}


def test_without_a_configuration_only_the_paths_are_analysed(tmp_path):
    for name, text in {"a.sql": MERGE_A, "b.sql": DELETE_B}.items():
        (tmp_path / name).write_text(text)
    # no delta-lint.yaml: there is no project to widen to
    proc = cli("check", "b.sql", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]["files"] == 1


def test_help_and_readme_say_that_one_file_is_checked_in_its_project():
    from tests.conftest import ROOT

    help_text = " ".join(cli("check", "--help", cwd=ROOT).stdout.replace("│", " ").split())
    assert "checking one file (or folder) of a project analyses the whole project" in help_text
    assert "the whole project is analysed and the findings touching PATHS are reported" in help_text
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    manual = " ".join(" ".join(p.read_text() for p in pages).split())
    assert "Checking one file or folder of a project analyses the whole project" in manual


# -- findings on bundle files -------------------------------------------------------------

BUNDLE = """\
bundle: {name: b}
include: [resources/*.yml]
"""
RESOURCES = """\
resources:
  jobs:
    reporting:
      tasks:
        - task_key: build
          python_wheel_task: {package_name: marts, entry_point: build}
"""


def test_findings_on_bundle_files_are_relative_to_the_working_directory(tmp_path):
    p = project(
        tmp_path,
        {"databricks.yml": BUNDLE, "resources/jobs.yml": RESOURCES, "jobs/a.sql": MERGE_A, "ci/.keep": ""},
    )
    cwd = p / "ci"
    text = cli("check", "..", "--fail-on", "info", cwd=cwd)
    assert text.returncode == 1, text.stderr
    line = next(line for line in text.stdout.splitlines() if "DL006" in line)
    path = line.split(":")[0]
    assert path == "../resources/jobs.yml" and (cwd / path).is_file()
    github = cli("check", "..", "--format", "github", cwd=cwd).stdout
    annotation = next(line for line in github.splitlines() if "DL006" in line)
    assert "file=../resources/jobs.yml," in annotation
    sarif = json.loads(cli("check", "..", "--format", "sarif", cwd=cwd).stdout)
    uris = [
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for result in sarif["runs"][0]["results"]
        if result["ruleId"] == "DL006"
        for loc in result["locations"]
    ]
    assert uris == ["../resources/jobs.yml"]
    # from the project's folder the same finding names resources/jobs.yml
    here = findings(cli("check", ".", "--format", "json", cwd=p))
    assert [f["location"]["path"] for f in here if f["rule"] == "DL006"] == ["resources/jobs.yml"]


def test_per_file_ignores_still_match_bundle_files_from_a_subfolder(tmp_path):
    p = project(
        tmp_path,
        {"databricks.yml": BUNDLE, "resources/jobs.yml": RESOURCES, "jobs/a.sql": MERGE_A, "ci/.keep": ""},
    )
    (p / "delta-lint.yaml").write_text(CONFIG + 'per-file-ignores: {"resources/*.yml": [DL006]}\n')
    found = findings(cli("check", "..", "--format", "json", cwd=p / "ci"))
    assert not any(f["rule"] == "DL006" for f in found)


# -- options are honoured or refused, never ignored ----------------------------------------


def test_rules_as_json_carry_every_rule_and_its_texts():
    from delta_lint.rulepack import load
    from tests.conftest import ROOT

    proc = cli("rules", "--format", "json", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    rules = json.loads(proc.stdout)["rules"]
    pack = load().rules
    assert [r["id"] for r in rules] == list(pack)
    assert all(r["why"] == pack[r["id"]].why and r["fix"] == pack[r["id"]].fix for r in rules)


@pytest.mark.parametrize("command", [["tables", "."], ["intents", "."], ["schedule", "."]])
def test_markdown_is_refused_where_there_is_none(jobs, command):
    proc = cli(*command, "--format", "markdown", cwd=jobs)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "'markdown' is not one of 'text', 'json'" in proc.stderr


def test_statistics_as_json_and_refused_in_other_formats(jobs):
    proc = cli("check", ".", "--statistics", "--format", "json", cwd=jobs)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["statistics"] == [
        {
            "rule": "DL101",
            "name": "non-explicit-partition-predicate",
            "exception": "ConcurrentAppendException",
            "count": 1,
        },
        {"rule": "DL102", "name": "concurrent-dml-same-files", "exception": "ConcurrentAppendException", "count": 1},
    ]
    assert doc["findings"] == 2
    for other in ("sarif", "github", "markdown"):
        refused = cli("check", ".", "--statistics", "--format", other, cwd=jobs)
        assert refused.returncode == 2 and refused.stdout == ""
        assert f"--statistics prints text or json, not --format {other}" in refused.stderr


# -- --show-settings ------------------------------------------------------------------------


def test_show_settings_names_where_each_value_came_from(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.delta-lint]\nruntime = "14.3"\nexclude = ["scratch/**"]\n')
    (tmp_path / "jobs").mkdir()
    proc = cli(
        "check", "--show-settings", "--format", "json", "--select", "DL1", "--spark", "none", cwd=tmp_path / "jobs"
    )
    assert proc.returncode == 0, proc.stderr
    rows = {row["key"]: (row["value"], row["source"]) for row in json.loads(proc.stdout)["settings"]}
    pyproject = f"{tmp_path / 'pyproject.toml'} [tool.delta-lint]"
    assert rows["runtime"] == ("14.3", pyproject)
    assert rows["exclude"] == (["scratch/**"], pyproject)
    assert rows["select"] == (["DL1"], "command line") and rows["spark"] == ("none", "command line")
    assert rows["snapshot"] == ("delta-lint.lock.yaml", "default")
    assert rows["root"] == (str(tmp_path), pyproject)
    text = cli("check", "--show-settings", cwd=tmp_path).stdout
    assert 'runtime          = "14.3"  # ' + pyproject in text


def test_show_settings_of_a_yaml_file_and_of_no_file(tmp_path):
    p = project(tmp_path / "p", {})
    rows = json.loads(cli("check", "--show-settings", "--format", "json", cwd=p).stdout)["settings"]
    tables = next(row for row in rows if row["key"] == "tables")
    assert tables == {
        "key": "tables",
        "value": {"s.orders": {"partitioned_by": ["date"]}},
        "source": str(p / "delta-lint.yaml"),
    }
    (tmp_path / "none").mkdir()
    bare = json.loads(cli("check", "--show-settings", "--format", "json", cwd=tmp_path / "none").stdout)["settings"]
    assert {row["source"] for row in bare if row["key"] != "root"} == {"default"}


def test_paths_shown_relative_to_a_relative_folder_follow_the_working_directory(tmp_path, monkeypatch):
    # the language server is one long process: a folder named relative to where it
    # stands is not remembered from another working directory
    from delta_lint.run import display_path

    for name in ("a", "b"):
        (tmp_path / name / "jobs").mkdir(parents=True)
        (tmp_path / name / "jobs" / "x.py").write_text("")
    monkeypatch.chdir(tmp_path / "a")
    assert display_path(Path("jobs/x.py"), Path(".")) == "jobs/x.py"
    monkeypatch.chdir(tmp_path / "b")
    assert display_path(tmp_path / "b" / "jobs" / "x.py", Path(".")) == "jobs/x.py"
    assert display_path(tmp_path / "a" / "jobs" / "x.py", Path(".")) == "../a/jobs/x.py"


def test_files_of_a_project_checked_from_outside_it_are_shown_from_the_working_folder(tmp_path):
    # each file outside the working folder is shown as its folder (worked out once)
    # and its name: from a sibling folder, and through a linked folder, where the
    # path shown is the one the link leads to
    real = project(tmp_path / "real" / "p", {"jobs/a.sql": MERGE_A, "jobs/sub/b.sql": DELETE_B, "src/d.sql": DELETE_B})
    (tmp_path / "away").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    shown = ["jobs/a.sql", "jobs/sub/b.sql", "src/d.sql"]
    for cwd, named, prefix in ((tmp_path / "away", "../real/p", "../real/p/"), (real.parent, "../alias/p", "p/")):
        proc = cli("check", named, "--no-cache", "--show-files", "--format", "concise", cwd=cwd)
        listed = [line.split()[-1] for line in proc.stdout.splitlines() if line.startswith("analysed ")]
        assert listed == [prefix + name for name in shown], proc.stdout
        paths = {
            f["location"]["path"] for f in findings(cli("check", named, "--no-cache", "--format", "json", cwd=cwd))
        }
        assert paths and paths <= set(listed)
