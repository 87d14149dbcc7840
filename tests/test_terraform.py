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
