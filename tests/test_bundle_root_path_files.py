"""`${workspace.root_path}/files/...` in a bundle is the folder the bundle's files
are synced to, `${workspace.file_path}`, while the bundle leaves `file_path` at its
default: the task runs the bundle's file. A bundle that moves `file_path`, or a
path under `root_path` outside `files/`, stays not static (DL006)."""

from __future__ import annotations

from tests.test_link import NB, _conflicts

LOAD = NB + "spark.range(3).write.mode('overwrite').saveAsTable('main.sales.orders')\n"

BUNDLE = """bundle:
  name: fp
WORKSPACE
resources:
  jobs:
    nightly:
      name: nightly
      schedule:
        quartz_cron_expression: "0 0 2 * * ?"
        timezone_id: UTC
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: NIGHTLY
    hourly:
      name: hourly
      schedule:
        quartz_cron_expression: "0 0 * * * ?"
        timezone_id: UTC
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: ${workspace.file_path}/notebooks/load
"""


def _bundle(nightly: str, workspace: str = "") -> dict[str, str]:
    text = BUNDLE.replace("NIGHTLY", nightly).replace("WORKSPACE", workspace)
    return {"notebooks/load.py": LOAD, "databricks.yml": text}


def _not_static(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006" and "not static" in f.message]


def test_root_path_files_is_the_synced_bundle_folder(lint):
    result = lint(_bundle("${workspace.root_path}/files/notebooks/load"))
    assert _not_static(result) == []
    assert _conflicts(result) == ["DL102"]  # nightly and hourly overwrite one table at 02:00


def test_a_bundle_that_moves_file_path_leaves_root_path_files_not_static(lint):
    result = lint(_bundle("${workspace.root_path}/files/notebooks/load", "workspace:\n  file_path: /Shared/fp"))
    assert _not_static(result)
    assert _conflicts(result) == []


def test_another_folder_under_root_path_stays_not_static(lint):
    result = lint(_bundle("${workspace.root_path}/notebooks/load"))
    assert _not_static(result)
    assert _conflicts(result) == []
