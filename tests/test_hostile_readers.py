"""Hostile inputs to the readers of what runs a file: `%run` includes, bundles,
Terraform, Jobs JSON and SDK job definitions. Each is answered in bounded time and
memory, by the same findings as before or by a diagnostic at its file, never by a
traceback or an "internal error"; each case has a near miss that must keep
behaving as it did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from delta_lint.cli import app
from tests.limits import allocating_at_most, within

NB = "# Databricks notebook source\n"
SEP = "\n# COMMAND ----------\n"


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def cli(root: Path, monkeypatch, *args: str, seconds: int = 30):
    """The CLI in-process in `root`, within a time limit, checked for the promises."""
    monkeypatch.chdir(root)
    with within(seconds):  # unwrapped messages whatever width another test left (COLUMNS)
        result = CliRunner().invoke(app, list(args), env={"COLUMNS": None})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def written_tables(root: Path, monkeypatch, seconds: int = 30) -> dict[str, list[str]]:
    """path -> the sorted tables its writes name, as `intents` finds them."""
    result = cli(root, monkeypatch, "intents", ".", "--format", "json", seconds=seconds)
    out: dict[str, list[str]] = {}
    for intent in json.loads(result.stdout):
        out.setdefault(intent["path"], []).append(intent["table"])
    return {path: sorted(tables) for path, tables in out.items()}


def check(root: Path, monkeypatch, *args: str, seconds: int = 30):
    return cli(root, monkeypatch, "check", ".", "--no-cache", "--spark", "none", *args, seconds=seconds)


# -- %run --------------------------------------------------------------------------------------


def test_notebooks_that_run_each_other_finish_with_their_values(tmp_path, monkeypatch):
    """Twelve notebooks each `%run` all the others (every path of includes: 11^8 of
    them); each is read once per include depth, and the names still arrive."""
    names = [f"n{i}" for i in range(12)]
    files = {
        f"{name}.py": NB
        + "".join(f"# MAGIC %run ./{other}\n" + SEP for other in names if other != name)
        + f"v{i} = 'x{i}'\n"
        for i, name in enumerate(names)
    }
    files["n0.py"] += "df.write.saveAsTable(f'{v11}.s.t')\n"
    assert written_tables(write(tmp_path, files), monkeypatch)["n0.py"] == ["x11.s.t"]


def test_a_notebook_run_again_later_leaves_its_values_last(tmp_path, monkeypatch):
    """Near miss of the one above: `b` runs `a` and changes its value, then the job
    runs `a` again, so `a`'s value holds (each notebook counts at its last run)."""
    files = {
        "a.py": NB + "x = 'from_a'\n",
        "b.py": NB + "# MAGIC %run ./a\n" + SEP + "x = 'from_b'\n",
        "job.py": NB + "# MAGIC %run ./b\n" + SEP + "# MAGIC %run ./a\n" + SEP + "df.write.saveAsTable(f'{x}.t')\n",
        "other.py": NB + "# MAGIC %run ./a\n" + SEP + "# MAGIC %run ./b\n" + SEP + "df.write.saveAsTable(f'{x}.u')\n",
    }
    got = written_tables(write(tmp_path, files), monkeypatch)
    assert got["job.py"] == ["from_a.t"] and got["other.py"] == ["from_b.u"]


def test_a_run_of_a_very_long_workspace_path_is_read_in_linear_time(tmp_path, monkeypatch):
    """A `%run` of an absolute path of 200,000 folders: only tails as long as the
    project's deepest path can name one of its notebooks (every tail was built)."""
    target = "/Workspace/" + "a/" * 200_000 + "setup"
    files = {
        "setup.py": NB + "T = 'c.s.t'\n",
        "main.py": NB + f"# MAGIC %run {target}\n" + SEP + "df.write.saveAsTable(T)\n",
        "near.py": NB + "# MAGIC %run /Workspace/Users/me/repo/setup\n" + SEP + "df.write.saveAsTable(T + '2')\n",
    }
    got = written_tables(write(tmp_path, files), monkeypatch, seconds=20)
    assert got["main.py"] == ["c.s.t"] and got["near.py"] == ["c.s.t2"]


# -- Terraform ---------------------------------------------------------------------------------

TF_JOB = """
resource "databricks_notebook" "nb{i}" {{
  source = "${{path.module}}/job.sql"
  path   = "/Shared/job{i}"
}}
resource "databricks_job" "j{i}" {{
  name = "job{i}"
  task {{
    task_key = "t{i}"
    notebook_task {{
      notebook_path = databricks_notebook.nb{i}.path
    }}
  }}
}}
"""


def test_a_folder_of_150_terraform_job_files_is_parsed_once(tmp_path, monkeypatch):
    """Each job file read every `.tf` file of its folder again (55 s here for 150)."""
    files = {f"infra/j{i}.tf": TF_JOB.format(i=i) for i in range(150)}
    files["infra/job.sql"] = "DELETE FROM t WHERE a = 1;\n"
    write(tmp_path, files)
    result = cli(tmp_path, monkeypatch, "schedule", ".", "--format", "json", seconds=20)
    nodes = {node["node"]: node["files"] for node in json.loads(result.stdout)["nodes"]}
    assert len(nodes) == 150 and nodes["job7.t7"] == ["infra/job.sql"]


# -- Jobs JSON ---------------------------------------------------------------------------------


def test_a_job_of_6000_wheel_tasks_walks_the_project_once(tmp_path, monkeypatch):
    """Each wheel task walked the whole project for its entry point's module: the
    time grew with tasks times files (past 20 s here; one walk: 3 s)."""
    files = {f"src/pkg{i}/m{j}.py": "x = 1\n" for i in range(100) for j in range(5)}
    files["src/pkg0/main.py"] = "spark.sql('DELETE FROM t WHERE a = 1')\n"
    files["tools/pyproject.toml"] = '[project]\nname = "tools"\n[project.scripts]\ne7 = "lib.seven:run"\n'
    files["tools/src/lib/seven.py"] = "spark.sql('DELETE FROM u WHERE a = 1')\n"
    tasks = [
        {"task_key": f"t{i}", "python_wheel_task": {"package_name": "pkg", "entry_point": f"e{i}"}} for i in range(6000)
    ]
    tasks.append({"task_key": "main", "python_wheel_task": {"package_name": "pkg", "entry_point": "main"}})
    files["job.json"] = json.dumps({"job_id": 1, "settings": {"name": "wheels", "tasks": tasks}})
    write(tmp_path, files)
    result = cli(tmp_path, monkeypatch, "schedule", ".", "--format", "json", seconds=20)
    nodes = {node["task"]: node["files"] for node in json.loads(result.stdout)["nodes"] if node["job"] == "wheels"}
    assert nodes["main"] == ["src/pkg0/main.py"] and nodes["t7"] == ["tools/src/lib/seven.py"]
    assert "t8" not in nodes  # no module of that name: not analysed


# -- bundles -----------------------------------------------------------------------------------


def test_an_include_of_many_double_stars_over_a_deep_chain_of_folders_finishes(tmp_path, monkeypatch):
    """`**/d/**/d/...` over 40 nested folders named `d`: every way to split the chain
    between the `**`s was followed (never finished); each folder is now looked into
    once per part of the glob. The job of a file the other include matches is read."""
    deep = "/".join(["d"] * 40)
    job = {
        "resources": {
            "jobs": {
                "deep": {"tasks": [{"task_key": "t", "sql_task": {"file": {"path": "${workspace.file_path}/a.sql"}}}]}
            }
        }
    }
    files = {
        "a.sql": "DELETE FROM t WHERE a = 1;\n",
        f"{deep}/deep.yml": json.dumps(job),
        "databricks.yml": json.dumps(
            {"bundle": {"name": "b"}, "include": ["**/d/**/d/**/d/**/d/**/d/**/d/**/none.yml", "**/d/**/deep.yml"]}
        ),
    }
    result = cli(write(tmp_path, files), monkeypatch, "schedule", ".", "--format", "json", seconds=15)
    assert {(n["job"], n["task"], tuple(n["files"])) for n in json.loads(result.stdout)["nodes"]} == {
        ("deep", "t", ("a.sql",))
    }


def test_a_large_variable_referenced_thousands_of_times_stays_bounded(tmp_path, monkeypatch):
    """A 100 KB variable in 3,000 task parameters grew a 430 KB bundle to 375 MB:
    past a limit the references stay as written, with a diagnostic at the value."""
    tasks = [
        {"task_key": f"t{i}", "notebook_task": {"notebook_path": "./a.sql", "base_parameters": {"p": "v=${var.big}"}}}
        for i in range(3000)
    ]
    bundle = {"bundle": {"name": "b"}, "variables": {"big": {"default": "x" * 100_000}}}
    bundle["resources"] = {"jobs": {"j": {"tasks": tasks}}}
    write(tmp_path, {"a.sql": "DELETE FROM t WHERE a = 1;\n", "databricks.yml": json.dumps(bundle)})
    with allocating_at_most(120):
        result = check(tmp_path, monkeypatch, "--format", "json")
    findings = json.loads(result.stdout)["findings"]
    (problem,) = [f["message"] for f in findings if f["rule"] == "DL003"]
    assert problem.startswith("`${var.big}`: resolving the bundle's references would add more than 4 MB")
    assert {f["rule"] for f in findings} == {"DL003", "DL102"}  # the tasks are still read and paired


def test_variables_of_ordinary_size_are_resolved_without_a_diagnostic(tmp_path, monkeypatch):
    """Near miss: 3,000 references to a short variable resolve as before."""
    tasks = [{"task_key": f"t{i}", "notebook_task": {"notebook_path": "${var.folder}/a.sql"}} for i in range(3000)]
    bundle = {"bundle": {"name": "b"}, "variables": {"folder": {"default": "./jobs"}}}
    bundle["resources"] = {"jobs": {"j": {"tasks": tasks}}}
    write(tmp_path, {"jobs/a.sql": "DELETE FROM t WHERE a = 1;\n", "databricks.yml": json.dumps(bundle)})
    findings = json.loads(check(tmp_path, monkeypatch, "--format", "json").stdout)["findings"]
    assert {f["rule"] for f in findings} == {"DL102"}


# -- SDK job definitions -----------------------------------------------------------------------


def test_a_string_doubled_in_an_sdk_job_file_stays_bounded(tmp_path, monkeypatch):
    """A 128 KB literal doubled 8 times in an installer's attributes made a 32 MB
    notebook path, held many times over by the run; past 64 KB a built string is
    no value (the task is not analysable), as any path only a run knows."""
    lines = [
        "from databricks.sdk.service.jobs import NotebookTask, Task",
        "class Installer:",
        "    def __init__(self, w):",
        "        self.w = w",
        f"        self.s0 = '{'x' * 128 * 1024}'",
        *(f"        self.s{i} = self.s{i - 1} + self.s{i - 1}" for i in range(1, 9)),
        "        self.folder = './jobs'",
        "    def deploy(self):",
        "        task = NotebookTask(notebook_path='./a' + self.s8)",
        "        near = NotebookTask(notebook_path=self.folder + '/b')",
        "        self.w.jobs.create(name='j', tasks=[Task(task_key='t', notebook_task=task), Task('u', notebook_task=near)])",
    ]
    files = {"deploy.py": "\n".join(lines) + "\n", "jobs/b.sql": "DELETE FROM t WHERE a = 1;\n"}
    write(tmp_path, files)
    with allocating_at_most(100):
        result = cli(tmp_path, monkeypatch, "schedule", ".", "--format", "json")
    nodes = {node["task"]: node["files"] for node in json.loads(result.stdout)["nodes"] if node["job"] == "j"}
    assert nodes == {"u": ["jobs/b.sql"]}


# -- task keys ---------------------------------------------------------------------------------

BACKSLASH_KEY = {
    "bundle": {
        "databricks.yml": "bundle: {name: b}\nresources:\n  jobs:\n    j:\n      tasks:\n"
        "        - task_key: 'a\\q'\n          notebook_task:\n            notebook_path: ./a.sql\n"
        "            base_parameters: {name: '{{task.name}}', other: x}\n"
        "        - task_key: 'b'\n          notebook_task: {notebook_path: ./a.sql}\n"
    },
    "jobs json": {
        "job.json": json.dumps(
            {
                "job_id": 1,
                "settings": {
                    "name": "j",
                    "tasks": [
                        {"task_key": "a\\q", "spark_python_task": {"python_file": "a.sql", "parameters": ["x"]}},
                        {"task_key": "b", "sql_task": {"file": {"path": "a.sql"}}},
                    ],
                },
            }
        )
    },
    "terraform": {
        "job.tf": 'resource "databricks_job" "j" {\n  name = "j"\n'
        '  task {\n    task_key = "a\\u0041"\n    notebook_task {\n      notebook_path = "a.sql"\n'
        '      base_parameters = { name = "{{task.name}}" }\n    }\n  }\n'
        '  task {\n    task_key = "b"\n    notebook_task {\n      notebook_path = "a.sql"\n    }\n  }\n}\n'
    },
    "sdk": {
        "deploy.py": "from databricks.sdk.service.jobs import NotebookTask, Task\n"
        "w.jobs.create(name='j', tasks=[\n"
        "    Task(task_key='a\\\\q', notebook_task=NotebookTask('a.sql', base_parameters={'n': '{{task.name}}'})),\n"
        "    Task(task_key='b', notebook_task=NotebookTask('a.sql')),\n"
        "])\n"
    },
}


@pytest.mark.parametrize("reader", sorted(BACKSLASH_KEY))
def test_a_backslash_in_a_task_key_is_text_in_every_job_reader(tmp_path, monkeypatch, reader):
    """The key was the replacement template of `{{task.name}}`: `a\\q` was a bad
    escape and an internal error ended the run in every reader. Both tasks are read."""
    write(tmp_path, {"a.sql": "DELETE FROM t WHERE a = 1;\n", **BACKSLASH_KEY[reader]})
    result = cli(tmp_path, monkeypatch, "schedule", ".", "--format", "json")
    tasks = {node["task"]: node["files"] for node in json.loads(result.stdout)["nodes"] if node["job"] == "j"}
    assert tasks == {"a\\q" if reader != "terraform" else "a\\u0041": ["a.sql"], "b": ["a.sql"]}


def test_a_long_task_key_in_many_task_name_references_stays_bounded(tmp_path, monkeypatch):
    """A 100 KB task key put into 2,000 `{{task.name}}`s of one parameter made a
    200 MB value; past 64 KB the parameter is a value only a run knows."""
    key = "k" * 100_000
    params = {"name": "{{task.name}}" * 2000}
    tasks = [{"task_key": key, "notebook_task": {"notebook_path": "./a.sql", "base_parameters": params}}]
    bundle = {"bundle": {"name": "b"}, "resources": {"jobs": {"j": {"tasks": tasks}}}}
    write(tmp_path, {"a.sql": "DELETE FROM t WHERE a = 1;\n", "databricks.yml": json.dumps(bundle)})
    with allocating_at_most(100):
        result = cli(tmp_path, monkeypatch, "schedule", ".", "--format", "json")
    assert [node["files"] for node in json.loads(result.stdout)["nodes"] if node["job"] == "j"] == [["a.sql"]]


TF_WRONG = {
    "depends_on = 5": (
        '  task {\n    task_key = "a"\n    depends_on = 5\n    notebook_task {\n      notebook_path = "a.sql"\n'
        "    }\n  }\n",
        "job.tf:5:1: DL003 `resource.databricks_job.j.task[0].depends_on`: must be `depends_on` blocks, got a number",
    ),
    "task = 5": (
        "  task = 5\n",
        "job.tf:3:1: DL003 `resource.databricks_job.j.task`: must be `task` blocks, got a number",
    ),
    "parameter = 5": (
        "  parameter = 5\n",
        "job.tf:3:1: DL003 `resource.databricks_job.j.parameter`: must be `parameter` blocks, got a number",
    ),
}


@pytest.mark.parametrize("case", sorted(TF_WRONG))
def test_a_terraform_job_block_of_the_wrong_shape_is_a_diagnostic_at_its_line(tmp_path, monkeypatch, case):
    """`depends_on = 5` was an internal error (`'int' object is not iterable`) that
    ended the run; the job is left out at its line, the other job is read."""
    body, expected = TF_WRONG[case]
    other = 'resource "databricks_job" "k" {\n  task {\n    task_key = "b"\n    notebook_task {\n      notebook_path = "a.sql"\n    }\n  }\n}\n'
    files = {
        "a.sql": "DELETE FROM t WHERE a = 1;\n",
        "job.tf": f'resource "databricks_job" "j" {{\n  name = "j"\n{body}}}\n' + other,
    }
    result = check(write(tmp_path, files), monkeypatch)
    assert expected + "; job `j` is not analysed" in result.output
    shown = cli(tmp_path, monkeypatch, "schedule", ".", "--format", "json")
    assert [(n["job"], n["files"]) for n in json.loads(shown.stdout)["nodes"]] == [("k", ["a.sql"])]


# -- schedules ---------------------------------------------------------------------------------


def scheduled_bundle(zone: str) -> str:
    return (
        "bundle: {name: b}\nresources:\n  jobs:\n    j:\n"
        f"      schedule: {{quartz_cron_expression: '0 0 1 * * ?', timezone_id: '{zone}'}}\n"
        "      tasks:\n        - task_key: a\n          notebook_task: {notebook_path: ./a.sql}\n"
    )


@pytest.mark.parametrize("zone", ["Europe", "A" * 300], ids=["a folder of the zone database", "300 characters"])
def test_a_time_zone_that_is_no_zone_file_is_a_diagnostic_at_the_schedule(tmp_path, monkeypatch, zone):
    """`Europe` (IsADirectoryError) and a name too long for a file (OSError) ended the
    run with an internal error; they read as an unknown time zone."""
    write(tmp_path, {"a.sql": "DELETE FROM t WHERE a = 1;\n", "databricks.yml": scheduled_bundle(zone)})
    result = check(tmp_path, monkeypatch)
    shown = zone if len(zone) <= 60 else zone[:57] + "..."
    assert f"databricks.yml:5:1: DL003 job `j`: `schedule`: unknown time zone {shown!r}" in result.output


def test_a_zone_of_the_database_is_read_as_before(tmp_path, monkeypatch):
    write(tmp_path, {"a.sql": "DELETE FROM t WHERE a = 1;\n", "databricks.yml": scheduled_bundle("Europe/Amsterdam")})
    assert "DL003" not in check(tmp_path, monkeypatch).output


def test_bundles_of_a_monorepo_may_use_the_same_job_key_with_other_tasks(tmp_path, monkeypatch):
    """The second bundle's `j` was stored under another key but kept `j` as its own:
    the schedule looked its task up in the first `j` (`KeyError` in `_same_job`, an
    internal error in `check`, a traceback in `schedule`). Three bundles, two of them
    in folders of the same name: each job keeps its tasks under a key of its own."""
    files = {}
    for folder in ("one", "two", "x/one"):
        task = folder.replace("/", "_")
        files[f"{folder}/a.sql"] = f"DELETE FROM t WHERE a = '{task}';\n"
        files[f"{folder}/databricks.yml"] = (
            f"bundle: {{name: {task}}}\nresources:\n  jobs:\n    j:\n      tasks:\n"
            f"        - task_key: t_{task}\n          notebook_task: {{notebook_path: ./a.sql}}\n"
        )
    write(tmp_path, files)
    shown = cli(tmp_path, monkeypatch, "schedule", ".", "--format", "json")
    nodes = {(n["job"], n["task"], tuple(n["files"])) for n in json.loads(shown.stdout)["nodes"]}
    assert nodes == {
        ("j", "t_one", ("one/a.sql",)),
        ("two.j", "t_two", ("two/a.sql",)),
        ("one.j", "t_x_one", ("x/one/a.sql",)),
    }
    assert "DL002" not in check(tmp_path, monkeypatch).output


# -- path arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "schedule", "intents", "tables", "advise"])
def test_a_path_argument_with_a_name_over_255_bytes_is_refused_with_a_message(tmp_path, monkeypatch, command):
    """`check jobs/<300 characters>` was a traceback (OSError: File name too long)."""
    write(tmp_path, {"jobs/a.sql": "DELETE FROM t WHERE a = 1;\n"})
    long = "jobs/" + "a" * 300
    result = cli(tmp_path, monkeypatch, command, long)
    assert result.exit_code == 2 and result.output == f"delta-lint: error: {long}: File name too long\n"


def test_a_path_argument_that_does_not_exist_is_reported_as_before(tmp_path, monkeypatch):
    write(tmp_path, {"jobs/a.sql": "DELETE FROM t WHERE a = 1;\n"})
    result = cli(tmp_path, monkeypatch, "check", "jobs/" + "a" * 200, "--no-cache")
    assert "DL003 cannot analyse" in result.output and "no such file or directory" in result.output


# -- files outside the project -----------------------------------------------------------------


def test_pipeline_globs_and_task_paths_never_list_files_outside_the_project(tmp_path, monkeypatch):
    """A pipeline's `glob: {include: ../outside/**}` (and a task or library path
    leading out) listed files from anywhere on the machine in `schedule`. They are
    not in the project; the pipeline's own glob inside it still lists its files."""
    outside = write(tmp_path / "outside", {"secret/creds.py": "KEY = 'x'\n"})
    bundle = f"""bundle: {{name: b}}
resources:
  pipelines:
    p:
      libraries:
        - glob: {{include: ../outside/secret/**}}
        - glob: {{include: ../outside/secret/creds.py}}
        - notebook: {{path: ../outside/secret/creds.py}}
        - file: {{path: {outside}/secret/creds.py}}
        - glob: {{include: pipes/**}}
  jobs:
    j:
      tasks:
        - task_key: a
          notebook_task: {{notebook_path: ../outside/secret/creds.py}}
        - task_key: b
          spark_python_task: {{python_file: {outside}/secret/creds.py}}
        - task_key: c
          notebook_task: {{notebook_path: ./pipes/a.sql}}
"""
    root = write(tmp_path / "proj", {"pipes/a.sql": "DELETE FROM t WHERE a = 1;\n", "databricks.yml": bundle})
    shown = cli(root, monkeypatch, "schedule", ".").stdout
    assert "    update: pipes/a.sql\n" in shown and "    c: pipes/a.sql\n" in shown
    listed = [line for line in shown.splitlines() if "creds.py" in line and "is not in this project" not in line]
    assert listed == [], shown
    assert "a: not analysed: `../outside/secret/creds.py` is not in this project" in shown
