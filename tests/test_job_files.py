"""Job definitions found without a bundle: job YAML exported from the Jobs UI
(`resources: jobs:`), tasks whose files come from the repository (`source: GIT`,
`git_source`) and `condition_task`, in every reader that defines jobs."""

from __future__ import annotations

from tests.test_link import NB, _conflicts

LOAD = NB + "spark.sql(\"UPDATE main.ops.events SET x = 1 WHERE kind = 'a'\")\n"
FIX = NB + "spark.sql(\"UPDATE main.ops.events SET x = 2 WHERE kind = 'b'\")\n"
NOTEBOOKS = {"notebooks/load.py": LOAD, "notebooks/fix.py": FIX}

EXPORTED = """\
resources:
  jobs:
    events_nightly:
      name: events nightly
      schedule:
        quartz_cron_expression: 0 0 2 * * ?
        timezone_id: UTC
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: /Workspace/Users/someone@example.com/project/notebooks/load
        - task_key: fix
DEPENDS
          notebook_task:
            notebook_path: /Workspace/Users/someone@example.com/project/notebooks/fix
"""
AFTER_LOAD = "          depends_on:\n            - task_key: load"


def _not_analysed(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def test_a_job_yaml_exported_from_the_jobs_ui_orders_its_tasks(lint):
    ordered = lint({**NOTEBOOKS, "jobs/events_nightly.yml": EXPORTED.replace("DEPENDS", AFTER_LOAD)})
    assert _conflicts(ordered) == []  # fix runs after load, one run at a time


def test_parallel_tasks_of_an_exported_job_yaml_conflict(lint):
    parallel = lint({**NOTEBOOKS, "jobs/events_nightly.yml": EXPORTED.replace("DEPENDS\n", "")})
    assert _conflicts(parallel) == ["DL102"]
    assert "have no dependency between them" in str([f.overlap for f in parallel.findings if f.rule == "DL102"])


def test_a_broken_exported_job_yaml_is_a_diagnostic_at_its_line(lint):
    broken = EXPORTED.replace("DEPENDS", AFTER_LOAD).replace("      tasks:\n", "      tasks: 3\n      x:\n", 1)
    result = lint({**NOTEBOOKS, "jobs/events_nightly.yml": broken, "jobs/other.yml": EXPORTED.replace("DEPENDS\n", "")})
    problems = [f for f in result.findings if f.location.path == "jobs/events_nightly.yml"]
    assert problems and "tasks" in problems[0].message and problems[0].location.line > 1
    assert _conflicts(result) == ["DL102"]  # the other file is still read


GIT_JOB = """\
resources:
  jobs:
    events:
      git_source:
        git_url: https://github.com/example/project
        git_provider: gitHub
        git_branch: main
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: notebooks/load
SOURCE
        - task_key: fix
          depends_on:
            - task_key: load
          notebook_task:
            notebook_path: notebooks/fix
SOURCE
"""


def test_git_source_paths_are_relative_to_the_repository_root(lint):
    result = lint({**NOTEBOOKS, "jobs/events.yml": GIT_JOB.replace("SOURCE\n", "")})
    assert _not_analysed(result) == []
    assert _conflicts(result) == []  # both files found from the root, in order


def test_a_task_source_git_without_git_source_is_read_from_the_root(lint):
    job = GIT_JOB.replace("      git_source:\n", "      x_git_source:\n").replace("SOURCE", "            source: GIT")
    result = lint({**NOTEBOOKS, "jobs/events.yml": job})
    assert _not_analysed(result) == [] and _conflicts(result) == []


def test_a_workspace_task_of_a_git_job_stays_relative_to_its_file(lint):
    """`source: WORKSPACE` under a `git_source`: the path is not the repository's."""
    job = GIT_JOB.replace("SOURCE", "            source: WORKSPACE")
    result = lint({**NOTEBOOKS, "jobs/events.yml": job})
    assert len(_not_analysed(result)) == 2  # jobs/notebooks/load is not in this project


def test_git_paths_start_at_the_work_tree_holding_the_job_file(lint):
    files = {f"app/{k}": v for k, v in NOTEBOOKS.items()}
    files.update({"app/.git/HEAD": "ref: refs/heads/main\n", "app/jobs/events.yml": GIT_JOB.replace("SOURCE\n", "")})
    files["notebooks/load.py"] = NB + "spark.sql(\"UPDATE main.ops.events SET x = 3 WHERE kind = 'c'\")\n"
    result = lint(files)
    assert _not_analysed(result) == []
    # app/notebooks/load.py and app/notebooks/fix.py run in order; notebooks/load.py is no task's
    paths = sorted(
        {p for f in result.findings if f.rule == "DL102" for p in (f.location.path, *(r.path for r in f.related))}
    )
    assert "app/notebooks/fix.py" not in paths or "app/notebooks/load.py" not in paths


CONDITION_JOB = """\
resources:
  jobs:
    events:
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: /Repos/someone/project/notebooks/load
        - task_key: check
          depends_on:
            - task_key: load
          condition_task:
            op: EQUAL_TO
            left: "{{job.parameters.mode}}"
            right: full
        - task_key: fix
          depends_on:
            - task_key: DEP
              outcome: "true"
          notebook_task:
            notebook_path: /Repos/someone/project/notebooks/fix
"""


def test_a_condition_task_runs_no_file_and_orders_its_dependants(lint):
    result = lint({**NOTEBOOKS, "jobs/events.yml": CONDITION_JOB.replace("DEP", "check")})
    assert _not_analysed(result) == []  # a condition is not "code delta-lint cannot read"
    assert _conflicts(result) == []


def test_a_task_beside_a_condition_task_still_overlaps(lint):
    job = CONDITION_JOB.replace("DEP", "start").replace(
        "        - task_key: check\n          depends_on:\n            - task_key: load\n",
        "        - task_key: check\n",
    )
    job = job.replace(
        "      tasks:\n", "      tasks:\n        - task_key: start\n          condition_task: {op: EQUAL_TO}\n"
    )
    result = lint({**NOTEBOOKS, "jobs/events.yml": job})
    assert _not_analysed(result) == [] and _conflicts(result) == ["DL102"]


CONDITION_TF = """
resource "databricks_job" "this" {
  name = "events"
  task {
    task_key = "load"
    notebook_task {
      notebook_path = "${path.module}/../notebooks/load.py"
    }
  }
  task {
    task_key = "check"
    depends_on {
      task_key = "load"
    }
    condition_task {
      op    = "EQUAL_TO"
      left  = "a"
      right = "a"
    }
  }
  task {
    task_key = "fix"
    depends_on {
      task_key = "DEP"
    }
    notebook_task {
      notebook_path = "${path.module}/../notebooks/fix.py"
    }
  }
}
"""


def test_a_terraform_condition_task_is_no_unknown_task(lint):
    ordered = lint({**NOTEBOOKS, "infra/job.tf": CONDITION_TF.replace("DEP", "check")})
    assert _not_analysed(ordered) == [] and _conflicts(ordered) == []


def test_a_terraform_task_beside_a_condition_task_overlaps(lint):
    tf = CONDITION_TF.replace("DEP", "check").replace(
        '    depends_on {\n      task_key = "load"\n    }\n    condition_task', "    condition_task"
    )
    tf = tf.replace('    depends_on {\n      task_key = "check"\n    }\n', "")
    parallel = lint({**NOTEBOOKS, "infra/job.tf": tf})
    assert _not_analysed(parallel) == [] and _conflicts(parallel) == ["DL102"]


SDK_JOB = (
    NB
    + """\
from databricks.sdk import WorkspaceClient
from databricks.sdk.service.jobs import ConditionTask, NotebookTask, Task, TaskDependency

w = WorkspaceClient()
w.jobs.create(
    name="events",
    tasks=[
        Task(task_key="load", notebook_task=NotebookTask(notebook_path="/Repos/me/project/notebooks/load")),
        Task(task_key="check", depends_on=[TaskDependency(task_key="load")], condition_task=ConditionTask(op="EQUAL_TO")),
        Task(
            task_key="fix",
            depends_on=[TaskDependency(task_key="DEP")],
            notebook_task=NotebookTask(notebook_path="/Repos/me/project/notebooks/fix"),
        ),
    ],
)
"""
)


def test_an_sdk_condition_task_orders_its_dependants(lint):
    ordered = lint({**NOTEBOOKS, "deploy/install.py": SDK_JOB.replace("DEP", "check")})
    assert _not_analysed(ordered) == [] and _conflicts(ordered) == []
