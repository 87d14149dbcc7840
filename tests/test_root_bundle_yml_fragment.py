"""A root `bundle.yml` with no `bundle:` mapping is a fragment, no bundle's root:
the bundles in the folders below are read as their own bundles, each with its own
variables and targets (as the Databricks CLI reads them from their folders). A
root file with a `bundle:` mapping is still the bundle; a fragment with no bundle
below is read as before."""

from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.test_link import _conflicts

LOAD = (
    "# Databricks notebook source\n"
    'dbutils.widgets.text("table", "")\n'
    't = dbutils.widgets.get("table")\n'
    'spark.range(3).write.mode("overwrite").saveAsTable(t)\n'
)


def _sub_bundle(name: str) -> dict[str, str]:
    root = (
        f"bundle:\n  name: {name}\ninclude:\n  - resources/*.yml\n"
        'variables:\n  cron:\n    default: "0 0 2 * * ?"\n  table:\n    default: main.sales.orders\n'
        "targets:\n  prod:\n    default: true\n    mode: production\n"
    )
    job = (
        f"resources:\n  jobs:\n    job_{name}:\n      name: job_{name}\n"
        "      schedule:\n        quartz_cron_expression: ${var.cron}\n        timezone_id: UTC\n"
        "      tasks:\n        - task_key: t\n          notebook_task:\n"
        "            notebook_path: ../src/load.py\n            base_parameters:\n              table: ${var.table}\n"
    )
    return {f"{name}/databricks.yml": root, f"{name}/resources/job.yml": job, f"{name}/src/load.py": LOAD}


def _project(root_bundle: str) -> dict[str, str]:
    return {**_sub_bundle("a"), **_sub_bundle("b"), "bundle.yml": root_bundle}


def _rules(result) -> list[str]:
    return sorted(f.rule for f in result.findings)


def test_a_root_fragment_leaves_the_sub_bundles_their_own_variables(lint, tmp_path):
    result = lint(_project("resources:\n  jobs: {}\n"))
    assert "DL003" not in _rules(result) and "DL001" not in _rules(result), _rules(result)
    assert _conflicts(result) == ["DL102"]  # both write main.sales.orders daily at 02:00
    doc = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)
    assert doc["source"] == "a/databricks.yml (target prod), b/databricks.yml (target prod)"
    assert any("bundle.yml has no `bundle:` mapping" in n for n in doc["notes"]), doc["notes"]


def test_a_root_file_with_a_bundle_mapping_is_still_the_bundle(lint, tmp_path):
    lint(_project("bundle:\n  name: top\nresources:\n  jobs: {}\n"))
    doc = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)
    assert doc["source"].startswith("bundle.yml")
    assert not any("no `bundle:` mapping" in n for n in doc["notes"])


def test_a_fragment_with_no_bundle_below_is_read_as_before(lint, tmp_path):
    fragment = (
        "resources:\n  jobs:\n    solo:\n      name: solo\n      tasks:\n"
        "        - task_key: t\n          notebook_task:\n            notebook_path: src/load.py\n"
    )
    lint({"bundle.yml": fragment, "src/load.py": LOAD})
    doc = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)
    assert doc["source"].startswith("bundle.yml")
    assert [n["node"] for n in doc["nodes"]] == ["solo.t"]


def test_a_root_file_whose_bundle_key_holds_nothing_is_a_fragment(lint, tmp_path):
    """`bundle:` with nothing under it (or only a comment) is null, not the mapping a
    bundle's root holds: the bundles below are read as their own. The mapping in
    braces is a root."""
    for empty in ("bundle:\nresources:\n  jobs: {}\n", "bundle: # set by CI\nresources:\n  jobs: {}\n"):
        lint(_project(empty))
        doc = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)
        assert doc["source"] == "a/databricks.yml (target prod), b/databricks.yml (target prod)", empty
    lint(_project("bundle: {name: top}\nresources:\n  jobs: {}\n"))
    doc = json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)
    assert doc["source"].startswith("bundle.yml")
