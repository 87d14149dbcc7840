"""A bundle at the repository's root does not hide the bundles in its folders: a
monorepo deploys each of them from its own folder, with its own root, variables and
targets, so `schedule` and `check` read every one of them. A job another bundle
already read (a root `include` reaching into a sub-bundle) is read once, with a
note; a bundle named on the command line is read alone."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

LOAD = (
    "# Databricks notebook source\n"
    'dbutils.widgets.text("table", "")\n'
    't = dbutils.widgets.get("table")\n'
    'spark.range(3).write.mode("overwrite").saveAsTable(t)\n'
)


def _bundle(folder: str, name: str, table: str, job: str | None = None) -> dict[str, str]:
    """A bundle in `folder` ("" for the root) whose one job writes `table` daily at 02:00."""
    at = f"{folder}/" if folder else ""
    job = job or f"job_{name}"
    root = (
        f"bundle:\n  name: {name}\ninclude:\n  - resources/*.yml\n"
        f"variables:\n  table:\n    default: {table}\n"
        "targets:\n  prod:\n    default: true\n    mode: production\n"
    )
    resources = (
        f"resources:\n  jobs:\n    {job}:\n      name: {job}\n"
        "      schedule:\n        quartz_cron_expression: 0 0 2 * * ?\n        timezone_id: UTC\n"
        "      tasks:\n        - task_key: t\n          notebook_task:\n"
        "            notebook_path: ../src/load.py\n            base_parameters:\n              table: ${var.table}\n"
    )
    return {f"{at}databricks.yml": root, f"{at}resources/job.yml": resources, f"{at}src/load.py": LOAD}


def _write(tmp_path: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)


def _schedule(tmp_path: Path, *args: str) -> dict:
    return json.loads(run_cli("schedule", ".", "--format", "json", *args, cwd=tmp_path).stdout)


def _check(tmp_path: Path) -> list[str]:
    doc = json.loads(run_cli("check", ".", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    return sorted(f["rule"] for f in doc["findings"])


def test_the_bundles_below_a_root_bundle_are_read_with_their_own_variables(tmp_path):
    _write(
        tmp_path,
        {
            **_bundle("", "top", "main.sales.top"),
            **_bundle("projects/a", "a", "main.sales.orders"),
            **_bundle("projects/b", "b", "main.sales.orders"),
        },
    )
    doc = _schedule(tmp_path)
    assert doc["source"] == (
        "databricks.yml (target prod), projects/a/databricks.yml (target prod), projects/b/databricks.yml (target prod)"
    )
    nodes = {n["node"]: n["files"] for n in doc["nodes"] if n["kind"] == "task"}
    assert nodes == {
        "job_top.t": ["src/load.py"],
        "job_a.t": ["projects/a/src/load.py"],
        "job_b.t": ["projects/b/src/load.py"],
    }
    # a and b write main.sales.orders (their own variables) at the same time; top its own table
    assert "DL102" in _check(tmp_path)


def test_a_job_key_two_bundles_share_is_named_by_its_bundle_folder(tmp_path):
    _write(
        tmp_path,
        {**_bundle("", "top", "main.sales.top", job="main_job"), **_bundle("etl", "etl", "main.x.y", job="main_job")},
    )
    jobs = {n["job"] for n in _schedule(tmp_path)["nodes"] if n["kind"] == "task"}
    assert jobs == {"main_job", "etl.main_job"}


def test_a_bundle_nested_in_a_nested_bundle_is_read_too(tmp_path):
    _write(
        tmp_path, {**_bundle("", "top", "main.a.t"), **_bundle("x", "x", "main.b.t"), **_bundle("x/y", "y", "m.c.t")}
    )
    doc = _schedule(tmp_path)
    assert {n["job"] for n in doc["nodes"] if n["kind"] == "task"} == {"job_top", "job_x", "job_y"}
    # each read as a bundle (its variables resolved), not its resource file as a loose job definition
    assert (
        doc["source"]
        == "databricks.yml (target prod), x/databricks.yml (target prod), x/y/databricks.yml (target prod)"
    )


def test_a_sub_bundle_file_the_root_bundle_includes_is_read_once_with_a_note(tmp_path):
    files = {**_bundle("", "top", "main.sales.top"), **_bundle("projects/a", "a", "main.sales.orders")}
    files["databricks.yml"] = files["databricks.yml"].replace(
        "  - resources/*.yml\n", "  - resources/*.yml\n  - projects/*/resources/*.yml\n"
    )
    _write(tmp_path, files)
    doc = _schedule(tmp_path)
    tasks = [n["node"] for n in doc["nodes"] if n["kind"] == "task"]
    assert sorted(tasks) == ["job_a.t", "job_top.t"]  # job_a once, as the root bundle's
    assert any("projects/a/resources/job.yml is read by another bundle too" in n for n in doc["notes"]), doc["notes"]


def test_a_job_file_sibling_bundles_share_is_each_bundles_own_copy(tmp_path):
    """`include: ../common/*.yml` in two bundles: each deploys its own copy of the
    job, with its own variables, so both copies are read (the near miss of the
    root bundle reaching into a sub-bundle's folder)."""
    files = {**_bundle("", "top", "main.sales.top")}
    for name in ("a", "b"):
        files[f"{name}/databricks.yml"] = (
            f"bundle:\n  name: {name}\ninclude:\n  - ../common/*.yml\n"
            f"variables:\n  table:\n    default: main.{name}.orders\n"
            "targets:\n  prod:\n    default: true\n    mode: production\n"
        )
    files["common/job.yml"] = _bundle("", "x", "t", job="shared")["resources/job.yml"].replace("../src", "src")
    files["common/src/load.py"] = LOAD
    _write(tmp_path, files)
    doc = _schedule(tmp_path)
    assert {n["job"] for n in doc["nodes"] if n["kind"] == "task"} == {"job_top", "shared", "b.shared"}
    assert not any("read by another bundle" in n for n in doc["notes"]), doc["notes"]


def test_a_broken_sub_bundle_is_a_problem_and_the_others_are_read(tmp_path):
    files = {**_bundle("", "top", "main.sales.top"), **_bundle("b", "b", "main.x.y")}
    files["bad/databricks.yml"] = "bundle: [unclosed\n"
    _write(tmp_path, files)
    doc = _schedule(tmp_path)
    assert {n["job"] for n in doc["nodes"] if n["kind"] == "task"} == {"job_top", "job_b"}
    assert any(p["path"] == "bad/databricks.yml" for p in doc["problems"]), doc["problems"]


def test_a_bundle_named_on_the_command_line_is_read_alone(tmp_path):
    _write(tmp_path, {**_bundle("", "top", "main.sales.top"), **_bundle("projects/a", "a", "main.sales.orders")})
    doc = _schedule(tmp_path, "--bundle", "databricks.yml")
    assert {n["job"] for n in doc["nodes"] if n["kind"] == "task"} == {"job_top"}
    assert doc["source"] == "databricks.yml (target prod)"


def test_a_root_bundle_alone_reads_as_before(tmp_path):
    _write(tmp_path, _bundle("", "top", "main.sales.top"))
    doc = _schedule(tmp_path)
    assert doc["source"] == "databricks.yml (target prod)" and not doc["notes"]
    assert [n["node"] for n in doc["nodes"] if n["kind"] == "task"] == ["job_top.t"]


def test_a_sub_bundle_added_after_a_cached_run_is_read(tmp_path):
    _write(tmp_path, {**_bundle("", "top", "main.sales.orders"), "pyproject.toml": ""})
    first = json.loads(run_cli("check", ".", "--format", "json", cwd=tmp_path).stdout)
    assert "DL102" not in [f["rule"] for f in first["findings"]]
    _write(tmp_path, _bundle("projects/a", "a", "main.sales.orders"))
    again = json.loads(run_cli("check", ".", "--format", "json", cwd=tmp_path).stdout)
    assert "DL102" in [f["rule"] for f in again["findings"]]
