"""Jobs defined in Terraform (`databricks_job` of the Databricks provider), as
repositories that deploy with Terraform instead of a bundle write them."""

from __future__ import annotations

from tests.conftest import run_cli
from tests.test_link import NB, _conflicts

JOB_TF = """
resource "databricks_job" "this" {
  name = "nightly"
  max_concurrent_runs = RUNS
  parameter {
    name    = "catalog"
    default = "main"
  }
  task {
    task_key = "load"
    notebook_task {
      notebook_path = databricks_notebook.load.path
    }
  }
  task {
    task_key = "fix"
    notebook_task {
      notebook_path = "${path.module}/fix.py"
    }
    depends_on {
      task_key = "load"
    }
  }
}
"""
# the notebook resource is declared in another file of the same module
NOTEBOOKS_TF = """
resource "databricks_notebook" "load" {
  path   = "${data.databricks_current_user.me.home}/jobs/load"
  source = "./load.py"
}
"""
LOAD = NB + (
    "catalog = dbutils.widgets.get('catalog')\nspark.sql(f\"UPDATE {catalog}.ops.events SET x = 1 WHERE kind = 'a'\")\n"
)
FIX = NB + "spark.sql(\"UPDATE main.ops.events SET x = 2 WHERE kind = 'b'\")\n"


def test_a_terraform_job_orders_its_tasks_and_binds_its_parameters(lint):
    files = {"infra/load.py": LOAD, "infra/fix.py": FIX}
    alone = lint(files)
    assert _conflicts(alone) == []  # `{catalog}.ops.events` is not main.ops.events: nothing to pair
    ordered = lint({**files, "infra/job.tf": JOB_TF.replace("RUNS", "1"), "infra/notebooks.tf": NOTEBOOKS_TF})
    intents = sorted((i.location.path, i.table.name) for r in ordered.files for i in r.intents)
    assert intents == [("infra/fix.py", "main.ops.events"), ("infra/load.py", "main.ops.events")]
    assert _conflicts(ordered) == []  # fix runs after load, one run at a time
    overlapping = lint({**files, "infra/job.tf": JOB_TF.replace("RUNS", "3"), "infra/notebooks.tf": NOTEBOOKS_TF})
    assert _conflicts(overlapping) == ["DL102", "DL102"]


def test_a_broken_terraform_file_is_a_diagnostic_and_the_rest_is_read(lint):
    result = lint({"infra/load.py": LOAD, "infra/job.tf": 'resource "databricks_job" "x" {\n  name = \n'})
    problems = [f for f in result.findings if f.location.path.endswith("job.tf")]
    assert problems and "not valid HCL" in problems[0].message
    assert "Traceback" not in problems[0].message


def test_a_test_looking_notebook_a_job_runs_is_job_code(lint):
    tf = JOB_TF.replace("RUNS", "1").replace("databricks_notebook.load.path", '"${path.module}/tests/load.py"')
    files = {"infra/tests/load.py": LOAD, "infra/fix.py": FIX}
    skipped = lint(files)
    assert not any(i.location.path.startswith("infra/tests/") for r in skipped.files for i in r.intents)
    run = lint({**files, "infra/job.tf": tf})
    assert any(i.location.path == "infra/tests/load.py" for r in run.files for i in r.intents)


def test_a_changed_terraform_job_makes_every_finding_count(tmp_path):
    """`check --changed infra/job.tf`: a job definition changes every overlap, as a
    bundle does."""
    import json

    (tmp_path / "infra").mkdir()
    (tmp_path / "infra" / "load.py").write_text(LOAD)
    (tmp_path / "infra" / "fix.py").write_text(FIX)
    (tmp_path / "infra" / "job.tf").write_text(JOB_TF.replace("RUNS", "3"))
    (tmp_path / "infra" / "notebooks.tf").write_text(NOTEBOOKS_TF)

    def run(*args: str) -> list:
        out = run_cli("check", *args, "--format", "json", "--no-cache", cwd=tmp_path)
        return [f["rule"] for f in json.loads(out.stdout)["findings"] if f["rule"].startswith("DL1")]

    assert run(".") == ["DL102", "DL102"]
    assert run("--changed", "infra/job.tf") == ["DL102", "DL102"]


ROOT_TF = """
provider "databricks" {
  host = "https://HOST.example.com"
}
resource "databricks_job" "nightly" {
  name = "nightly"
  schedule {
    quartz_cron_expression = "0 0 1 * * ?"
    timezone_id            = "UTC"
    pause_status           = "PAUSE"
  }
  task {
    task_key = "load"
    notebook_task {
      notebook_path = "${path.module}/NOTEBOOK"
    }
  }
}
"""


def _root_tf(host: str, pause: str = "UNPAUSED", notebook: str = "../../jobs/load.py") -> str:
    return ROOT_TF.replace("HOST", host).replace("PAUSE", pause).replace("NOTEBOOK", notebook)


def _schedule_jobs(tmp_path, monkeypatch, files: dict[str, str]) -> dict[str, dict]:
    """job -> its tasks' files and whether it overlaps itself, from `delta-lint schedule`."""
    import json

    from typer.testing import CliRunner

    from delta_lint.cli import app

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", ".", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    jobs: dict[str, dict] = {}
    for node in data["nodes"]:
        jobs.setdefault(node["job"], {"files": set()})["files"] |= set(node["files"])
    jobs["_pairs"] = {(p["a"], p["b"]): p["reason"] for p in data["pairs"]}
    return jobs


def test_two_terraform_roots_defining_the_same_job_are_two_deployments(tmp_path, monkeypatch):
    files = {
        "jobs/load.py": LOAD,
        "envs/primary/main.tf": _root_tf("primary"),
        "envs/dr/main.tf": _root_tf("dr", notebook="../../jobs/fix.py"),
        "jobs/fix.py": FIX,
    }
    jobs = _schedule_jobs(tmp_path, monkeypatch, files)
    assert jobs["envs/primary:nightly"]["files"] == {"jobs/load.py"}
    assert jobs["envs/dr:nightly"]["files"] == {"jobs/fix.py"}
    assert "nightly" not in jobs


def test_one_root_keeps_plain_job_names(tmp_path, monkeypatch):
    jobs = _schedule_jobs(tmp_path, monkeypatch, {"jobs/load.py": LOAD, "envs/primary/main.tf": _root_tf("primary")})
    assert set(jobs) - {"_pairs"} == {"nightly"}


def test_a_paused_copy_never_replaces_the_live_job(tmp_path, monkeypatch):
    live = _root_tf("primary", notebook="load.py")
    paused = "resource" + _root_tf("primary", "PAUSED", notebook="load.py").split("resource", 1)[1]
    # another job at 13:00: it meets the 01:00 job only if that one is paused (started by hand)
    other = paused.replace('"nightly"', '"midday"').replace("0 0 1 *", "0 0 13 *").replace("PAUSED", "UNPAUSED")
    other = other.replace("load.py", "fix.py")
    base = {"infra/load.py": LOAD, "infra/fix.py": FIX, "infra/other.tf": other}
    jobs = _schedule_jobs(tmp_path, monkeypatch, {**base, "infra/job.tf": live, "infra/job_paused.tf": paused})
    assert "paused" not in jobs["_pairs"][("midday.load", "nightly.load")]
    # near miss: a paused job with no live copy stays paused
    alone = _schedule_jobs(tmp_path / "alone", monkeypatch, {**base, "infra/job.tf": paused})
    assert "paused" in alone["_pairs"][("midday.load", "nightly.load")]


def test_a_module_two_roots_call_is_deployed_by_each(tmp_path, monkeypatch):
    module = _root_tf("x", notebook="../../jobs/load.py").split("resource", 1)[1]
    files = {
        "jobs/load.py": LOAD,
        "modules/jobs/main.tf": "resource" + module,
        "envs/primary/main.tf": 'module "jobs" {\n  source = "../../modules/jobs"\n}\n',
        "envs/dr/main.tf": 'module "jobs" {\n  source = "../../modules/jobs"\n}\n',
    }
    jobs = _schedule_jobs(tmp_path, monkeypatch, files)
    assert set(jobs) - {"_pairs"} == {"envs/primary:nightly", "envs/dr:nightly"}
