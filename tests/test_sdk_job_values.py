"""Jobs defined in Python read on the one evaluator, and only where they are deployed.

The settings a call hands over are what the names hold where the call is: paths
that join give one of several values or unknown (the setting left out), never one
branch; a name rebound later is read as it is at the call. A job-shaped dict is a
job only when handed to something that creates, updates or deploys a job: a dict
only printed is none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.config import validate

NB = "# Databricks notebook source\n"
JOBS = {"jobs/a.py": NB + "print(1)\n", "jobs/b.py": NB + "print(2)\n"}
SDK = "from databricks.sdk import WorkspaceClient\nfrom databricks.sdk.service.jobs import NotebookTask, Task\n"


def _jobs(tmp_path: Path, files: dict[str, str]) -> dict:
    from delta_lint.run import overlap_schedule

    for name, text in {**JOBS, **files}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return overlap_schedule([tmp_path], validate({}, tmp_path / "x"), cwd=tmp_path).workflows.jobs


def _files(tmp_path: Path, deploy: str, job: str = "j", task: str = "t") -> tuple[str, ...]:
    return _jobs(tmp_path, {"deploy.py": deploy})[job].tasks[task].files


# -- paths that join -----------------------------------------------------------------------------

BRANCHES = SDK + (
    "def deploy(w: WorkspaceClient, prod: bool) -> None:\n"
    "    if prod:\n"
    '        nb = "jobs/a"\n'
    "    else:\n"
    '        nb = "jobs/b"\n'
    "    runs = 4 if prod else 1\n"
    '    w.jobs.create(name="j", max_concurrent_runs=runs, tasks=[Task("t", notebook_task=NotebookTask(nb))])\n'
)


def test_a_setting_made_one_way_or_another_is_left_out_never_one_branch(tmp_path):
    """Both branches of an `if` join: the notebook is one of two, so the task runs no
    known file (the old reader kept neither, by luck: `nb` is bound twice), and the
    runs are one of two numbers, so the default stands."""
    job = _jobs(tmp_path, {"deploy.py": BRANCHES})["j"]
    assert job.tasks["t"].files == () and job.max_concurrent_runs == 1
    # the near miss: one way only, the value is known
    one = BRANCHES.replace('    else:\n        nb = "jobs/b"\n', "").replace("4 if prod else 1", "4")
    one = one.replace('    if prod:\n        nb = "jobs/a"\n', '    nb = "jobs/a"\n')
    job = _jobs(tmp_path / "one", {"deploy.py": one})["j"]
    assert job.tasks["t"].files == ("jobs/a.py",) and job.max_concurrent_runs == 4


def test_a_name_is_read_as_it_is_at_the_call(tmp_path):
    """A name bound twice in order holds, at each call, the value bound last before
    it: the first job runs jobs/a, the second jobs/b (the single-assignment reader
    gave both up)."""
    deploy = SDK + (
        "w = WorkspaceClient()\n"
        'nb = "jobs/a"\n'
        'w.jobs.create(name="first", tasks=[Task("t", notebook_task=NotebookTask(nb))])\n'
        'nb = "jobs/b"\n'
        'w.jobs.create(name="second", tasks=[Task("t", notebook_task=NotebookTask(nb))])\n'
    )
    jobs = _jobs(tmp_path, {"deploy.py": deploy})
    assert jobs["first"].tasks["t"].files == ("jobs/a.py",)
    assert jobs["second"].tasks["t"].files == ("jobs/b.py",)


def test_a_loop_that_may_rebind_a_name_leaves_it_unknown(tmp_path):
    """A loop over items not known may run no turn or many: a name it rebinds is one
    of its values before and after, or unknown; a loop that binds another name
    leaves the setting known."""
    deploy = SDK + (
        "def deploy(w, names):\n"
        '    nb = "jobs/a"\n'
        "    for name in names:\n"
        '        nb = "jobs/" + name\n'
        '    w.jobs.create(name="j", tasks=[Task("t", notebook_task=NotebookTask(nb))])\n'
    )
    assert _files(tmp_path, deploy) == ()
    assert _files(tmp_path / "near", deploy.replace('        nb = "jobs/"', '        other = "jobs/"')) == (
        "jobs/a.py",
    )


def test_a_name_set_in_a_try_or_its_handler_is_either(tmp_path):
    """`try: nb = ... except: nb = ...`: the handler may run after any statement of
    the body, so the name is one of both (left out); a handler that binds nothing
    else leaves the body's value."""
    deploy = SDK + (
        "def deploy(w, conf):\n"
        "    try:\n"
        '        nb = "jobs/" + conf["nb"]\n'
        "    except KeyError:\n"
        '        nb = "jobs/a"\n'
        '    w.jobs.create(name="j", tasks=[Task("t", notebook_task=NotebookTask(nb))])\n'
    )
    assert _files(tmp_path, deploy) == ()
    near = deploy.replace('"jobs/" + conf["nb"]', '"jobs/b"').replace('        nb = "jobs/a"\n', "        pass\n")
    assert _files(tmp_path / "near", near) == ("jobs/b.py",)


def test_a_check_that_may_fail_before_the_call_does_not_hide_the_job(tmp_path):
    """`assert` and a `raise` on one way end only the ways that fail: the job read at
    the call is the one the other ways reach; a `raise` on every way hides it."""
    deploy = SDK + (
        "def deploy(w, nb_root):\n"
        "    assert nb_root\n"
        "    if not w:\n"
        '        raise ValueError("no client")\n'
        '    w.jobs.create(name="j", tasks=[Task("t", notebook_task=NotebookTask("jobs/a"))])\n'
    )
    assert _files(tmp_path, deploy) == ("jobs/a.py",)
    always = deploy.replace('    if not w:\n        raise ValueError("no client")\n', '    raise ValueError("x")\n')
    assert "j" not in _jobs(tmp_path / "raises", {"deploy.py": always})


# -- `self` in an installer --------------------------------------------------------------------

INSTALLER = SDK + (
    "class Installer:\n"
    "    def __init__(self, w):\n"
    "        self.w = w\n"
    '        self.nb = "jobs/a"\n'
    "    def retarget(self):\n"
    '        self.nb = "jobs/b"\n'
    "    def install(self):\n"
    '        self.w.jobs.create(name="j", tasks=[Task("t", notebook_task=NotebookTask(self.nb))])\n'
)


def test_an_attribute_another_method_sets_is_one_of_its_values(tmp_path):
    """`self.nb` set in `__init__` and again in another method (when that runs is not
    known) is one of the two: the task runs no known file. The near miss: set in
    `__init__` only, or set again in `__init__` itself, it is the last value there."""
    assert _files(tmp_path, INSTALLER) == ()
    alone = INSTALLER.replace('    def retarget(self):\n        self.nb = "jobs/b"\n', "")
    assert _files(tmp_path / "alone", alone) == ("jobs/a.py",)
    again = alone.replace('        self.nb = "jobs/a"\n', '        self.nb = "jobs/a"\n        self.nb = "jobs/b"\n')
    assert _files(tmp_path / "again", again) == ("jobs/b.py",)


def test_an_attribute_changed_in_place_by_a_method_is_unknown(tmp_path):
    """Tasks appended to by another method are not the list `__init__` built: no job;
    a method that only reads them leaves them known."""
    base = SDK + (
        "class Installer:\n"
        "    def __init__(self, w):\n"
        "        self.w = w\n"
        '        self.tasks = [Task("t", notebook_task=NotebookTask("jobs/a"))]\n'
        "    def more(self, task):\n"
        "        self.tasks.append(task)\n"
        "    def install(self):\n"
        '        self.w.jobs.create(name="j", tasks=self.tasks)\n'
    )
    assert "j" not in _jobs(tmp_path, {"deploy.py": base})
    reads = base.replace("self.tasks.append(task)", "print(len(self.tasks), task)")
    assert _files(tmp_path / "reads", reads) == ("jobs/a.py",)


def test_an_attribute_changed_through_another_name_by_a_method_is_unknown(tmp_path):
    """`tasks = self.tasks; tasks.append(t)` in another method changes the attribute:
    no job. Two methods that each only hand the attribute to `jobs.create` are two
    jobs of the same tasks (what one hands to a call is no change the other sees)."""
    base = SDK + (
        "class Installer:\n"
        "    def __init__(self, w):\n"
        "        self.w = w\n"
        '        self.tasks = [Task("t", notebook_task=NotebookTask("jobs/a"))]\n'
        "    def more(self, task):\n"
        "        tasks = self.tasks\n"
        "        tasks.append(task)\n"
        "    def install(self):\n"
        '        self.w.jobs.create(name="j", tasks=self.tasks)\n'
    )
    assert "j" not in _jobs(tmp_path, {"deploy.py": base})
    two = base.replace(
        "    def more(self, task):\n        tasks = self.tasks\n        tasks.append(task)\n",
        '    def staging(self):\n        self.w.jobs.create(name="k", tasks=self.tasks)\n',
    )
    jobs = _jobs(tmp_path / "two", {"deploy.py": two})
    assert jobs["j"].tasks["t"].files == jobs["k"].tasks["t"].files == ("jobs/a.py",)


# -- a dict is a job where it is deployed ---------------------------------------------------------

JOB_DICT = (
    'job = {\n    "name": "j",\n    "tasks": [{"task_key": "t", "notebook_task": {"notebook_path": "jobs/a"}}],\n}\n'
)


@pytest.mark.parametrize(
    "handed",
    [
        'requests.post(f"{host}/api/2.1/jobs/create", json=job)\n',
        'ENDPOINT = "/api/2.1/jobs/reset"\nclient.do("POST", ENDPOINT, body={"job_id": 1, "new_settings": job})\n',
        'with open("job.json", "w") as f:\n    json.dump(job, f)\n',
        "NotebookSolutionCompanion().deploy_compute(job, run_job=False)\n",
        "create_or_update_job(workspace, job)\n",
        "settings = JobSettings.from_dict(job)\n",
        "WorkspaceClient().jobs.create(**job)\n",
    ],
)
def test_a_job_dict_handed_to_what_deploys_a_job_is_a_job(tmp_path, handed):
    assert _files(tmp_path, "import json, requests\n" + JOB_DICT + handed) == ("jobs/a.py",)


@pytest.mark.parametrize(
    "used",
    [
        'print(job["name"], job["tasks"])\n',
        "print(json.dumps(job, indent=2))\n",
        "displayHTML(str(job))\n",
        'requests.post(f"{host}/api/2.1/jobs/runs/list", json=job)\n',
        "",
    ],
)
def test_a_job_shaped_dict_only_shown_is_no_job(tmp_path, used):
    """A notebook that prints the job a reader should create by hand (hunt N2):
    neither a job nor a DL006 about its task."""
    assert _jobs(tmp_path, {"deploy.py": "import json, requests\n" + JOB_DICT + used}) == {}


def test_a_printed_job_dict_gives_no_finding_about_its_tasks(lint):
    printed = (
        NB
        + 'spark.sql("OPTIMIZE main.gold.insights")\n'
        + JOB_DICT.replace("jobs/a", "/Repos/me/x/opt")
        + ('print(job["name"])\n')
    )
    result = lint({"optimize.py": printed})
    assert [f.rule for f in result.findings if f.rule == "DL006"] == []
    deployed = printed + "WorkspaceClient().jobs.create(**job)\n"
    result = lint({"optimize.py": deployed})
    assert [f.rule for f in result.findings if f.rule == "DL006"] == ["DL006"]


def test_a_task_list_printed_before_the_job_is_created_is_still_the_list(tmp_path):
    """`print(tasks)` only reads the list (a builtin of `brains.READERS`): the job keeps
    its tasks. The near miss: a list handed to a function not followed may change."""
    deploy = SDK + (
        "w = WorkspaceClient()\n"
        'tasks = [Task("t", notebook_task=NotebookTask("jobs/a"))]\n'
        "print(tasks)\n"
        'w.jobs.create(name="j", tasks=tasks)\n'
    )
    assert _files(tmp_path, deploy) == ("jobs/a.py",)
    changed = deploy.replace("print(tasks)", "extend_tasks(tasks)")
    assert "j" not in _jobs(tmp_path / "changed", {"deploy.py": changed})  # its tasks not known: no job read
