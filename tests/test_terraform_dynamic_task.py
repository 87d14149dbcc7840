"""Terraform `dynamic "task" { for_each = ...; content { ... } }` blocks of a
`databricks_job`: the content is one task per element of a known `for_each` (a
local, a variable's default, a literal list or map, `toset(...)`), its iterator put
in place; nested `dynamic` blocks (`depends_on`) in turn. A `for_each` of no known
value makes one task that is not analysed, with its reason: never a guess."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli
from tests.test_link import NB, _conflicts

LOAD_A = NB + "spark.range(3).write.mode('overwrite').saveAsTable('main.sales.orders')\n"
LOAD_B = NB + "spark.range(4).write.mode('overwrite').saveAsTable('main.sales.orders')\n"
NOTEBOOKS = {"infra/notebooks/load_a.py": LOAD_A, "infra/notebooks/load_b.py": LOAD_B}

JOB = """
locals {
  notebooks = ["load_a", "load_b"]
}
variable "given" {
  type = list(string)
}
resource "databricks_job" "loads" {
  name = "loads"
  schedule {
    quartz_cron_expression = "0 0 2 * * ?"
    timezone_id            = "UTC"
  }
  dynamic "task" {
    for_each = FOR_EACH
    ITERATOR
    content {
      task_key = KEY
      notebook_task {
        notebook_path = "${path.module}/notebooks/NOTEBOOK"
      }
      DEPENDS
    }
  }
}
"""


def _job(for_each="local.notebooks", key="task.value", notebook="${task.value}", iterator="", depends=""):
    text = (
        JOB.replace("FOR_EACH", for_each)
        .replace("ITERATOR", iterator)
        .replace("KEY", key)
        .replace("NOTEBOOK", notebook)
        .replace("DEPENDS", depends)
    )
    return {**NOTEBOOKS, "infra/jobs.tf": text}


def _schedule(folder: Path) -> dict:
    return json.loads(run_cli("schedule", ".", "--format", "json", "--all", cwd=folder).stdout)


def _tasks_of(folder: Path) -> dict[str, tuple[str, ...]]:
    """The tasks the schedule reads (task -> its files), from `delta-lint schedule`."""
    return {n["task"]: tuple(n["files"]) for n in _schedule(folder)["nodes"] if n["kind"] == "task"}


def test_a_dynamic_task_over_a_local_list_is_a_task_per_element(lint, tmp_path):
    result = lint(_job())
    assert _tasks_of(tmp_path) == {
        "load_a": ("infra/notebooks/load_a.py",),
        "load_b": ("infra/notebooks/load_b.py",),
    }
    # two tasks of one job with no dependency: an error, not the unscheduled-files warning
    assert [(f.rule, f.severity) for f in result.findings if f.rule.startswith("DL1")] == [("DL102", "error")]


def test_a_map_with_an_iterator_and_object_values(lint, tmp_path):
    lint(
        _job(
            for_each='{\n    a = { nb = "load_a" }\n    b = { nb = "load_b" }\n  }',
            iterator="iterator = t",
            key="t.key",
            notebook="${t.value.nb}",
        )
    )
    assert _tasks_of(tmp_path) == {"a": ("infra/notebooks/load_a.py",), "b": ("infra/notebooks/load_b.py",)}


def test_toset_of_a_local(lint, tmp_path):
    result = lint(_job(for_each="toset(local.notebooks)", key="task.key"))
    assert set(_tasks_of(tmp_path)) == {"load_a", "load_b"}
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == ["DL102"]


def test_a_nested_dynamic_depends_on_orders_the_copies(lint, tmp_path):
    result = lint(
        _job(
            for_each='{\n    load_a = []\n    load_b = ["load_a"]\n  }',
            key="task.key",
            notebook="${task.key}",
            depends='dynamic "depends_on" {\n        for_each = task.value\n'
            "        content {\n          task_key = depends_on.value\n        }\n      }",
        )
    )
    assert set(_tasks_of(tmp_path)) == {"load_a", "load_b"}
    pair = next(p for p in _schedule(tmp_path)["pairs"] if {p["a"], p["b"]} == {"loads.load_a", "loads.load_b"})
    assert pair["overlap"] is False, pair
    assert _conflicts(result) == []


def test_a_for_each_of_no_known_value_is_one_task_not_analysed(lint):
    result = lint(_job(for_each="var.given"))
    notes = [f.message for f in result.findings if f.rule == "DL006"]
    assert len(notes) == 1 and 'dynamic "task"' in notes[0] and "var.given" in notes[0], notes
    assert "task `dynamic task over ${var.given}` of job `loads`" in notes[0]


def test_static_task_blocks_are_read_as_before(lint, tmp_path):
    text = _job()["infra/jobs.tf"]
    start = text.index('  dynamic "task"')
    static = (
        '  task {\n    task_key = "load_a"\n    notebook_task {\n'
        '      notebook_path = "${path.module}/notebooks/load_a"\n    }\n  }\n}\n'
    )
    lint({**NOTEBOOKS, "infra/jobs.tf": text[:start] + static})
    assert _tasks_of(tmp_path) == {"load_a": ("infra/notebooks/load_a.py",)}


def test_more_copies_than_the_bound_are_one_task_not_analysed(lint):
    many = "[" + ", ".join(f'"n{i}"' for i in range(300)) + "]"
    result = lint(_job(for_each=many))
    notes = [f.message for f in result.findings if f.rule == "DL006"]
    assert len(notes) == 1 and 'dynamic "task"' in notes[0], notes
