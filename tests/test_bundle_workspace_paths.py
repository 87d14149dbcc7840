"""The folder a bundle's files are synced to, named any way the CLI resolves to it.

The CLI syncs the bundle's folder to `workspace.file_path`, by default
`${workspace.root_path}/files`. A bundle that sets `file_path: ${workspace.root_path}`
(no `files/` folder), or sets `root_path`/`file_path` to folders written out, lets a
task name its notebook through any of those texts; each is the bundle's file. A
folder the bundle does not sync its files to stays not static (DL006)."""

from __future__ import annotations

import pytest

from tests.test_link import NB, _conflicts

MERGE = NB + "spark.sql('MERGE INTO main.search.summaries t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *')\n"

BUNDLE = """bundle:
  name: wsp
WORKSPACE
resources:
  jobs:
    by_hand:
      name: by_hand
      tasks:
        - task_key: refresh
          notebook_task:
            notebook_path: PATH
    hourly:
      name: hourly
      schedule:
        quartz_cron_expression: "0 0 * * * ?"
        timezone_id: UTC
      tasks:
        - task_key: refresh
          notebook_task:
            notebook_path: ${workspace.file_path}/src/refresh
TARGETS"""


def _bundle(path: str, workspace: str = "", targets: str = "") -> dict[str, str]:
    text = BUNDLE.replace("PATH", path).replace("WORKSPACE", workspace).replace("TARGETS", targets)
    return {"src/refresh.py": MERGE, "databricks.yml": text}


def _not_static(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006" and "not static" in f.message]


ROOT_IS_FILES = "workspace:\n  root_path: /Workspace/Users/${workspace.current_user.userName}/wsp\n  file_path: ${workspace.root_path}"
SHARED = "workspace:\n  file_path: /Workspace/Shared/wsp/app"


@pytest.mark.parametrize(
    ("path", "workspace", "targets"),
    [
        ("${workspace.root_path}/src/refresh", ROOT_IS_FILES, ""),  # file_path is root_path itself
        ("/Workspace/Users/${workspace.current_user.userName}/wsp/src/refresh", ROOT_IS_FILES, ""),  # written out
        ("/Shared/wsp/app/src/refresh", SHARED, ""),  # a literal file_path, without its `/Workspace`
        (
            "${workspace.root_path}/src/refresh",
            "",
            "targets:\n  dev:\n    default: true\n    workspace:\n      file_path: ${workspace.root_path}\n",
        ),  # the target moves file_path
        (
            "/Workspace/Shared/.bundle/${bundle.name}/files/src/refresh",
            "workspace:\n  root_path: /Workspace/Shared/.bundle/wsp",
            "",
        ),  # `root_path` written out with the bundle's name filled in
        (
            "/Workspace/Users/${workspace.current_user.userName}/.bundle/wsp/dev/files/src/refresh",
            "",
            "targets:\n  dev:\n    default: true\n",
        ),  # the CLI's default root_path (`~/.bundle/<name>/<target>`) written out
    ],
)
def test_the_synced_folder_named_another_way_is_the_bundles_folder(lint, path, workspace, targets):
    result = lint(_bundle(path, workspace, targets))
    assert _not_static(result) == []
    assert _conflicts(result) == ["DL102"]  # by hand and hourly MERGE one table


@pytest.mark.parametrize(
    ("path", "workspace"),
    [
        ("${workspace.root_path}/src/refresh", SHARED),  # root_path is not where file_path is
        ("${workspace.root_path}/src/refresh", ""),  # the default file_path is root_path/files
    ],
)
def test_a_folder_the_bundle_does_not_sync_to_stays_unresolved(lint, path, workspace):
    """(A literal workspace path outside the synced folder is still looked for by
    its tail, with a note: `known_tail`; these name the bundle's own folders.)"""
    result = lint(_bundle(path, workspace))
    assert _conflicts(result) == []
    findings = [f.message for f in result.findings if f.rule == "DL006"]
    assert findings, result.findings  # the task is named, never dropped
