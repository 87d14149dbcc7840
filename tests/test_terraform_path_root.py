"""Terraform notebook sources written against `path.root` and `path.cwd` (the folder
of the root module Terraform runs in), as `path.module` already was: the file is
the project's, so the jobs that run it are paired. A module deployed from more than
one root has no one `path.root`: its path stays not static (DL006)."""

from __future__ import annotations

from tests.test_link import NB, _conflicts

LOAD = NB + "spark.range(3).write.mode('overwrite').saveAsTable('main.sales.orders')\n"

JOBS = """
resource "databricks_notebook" "load" {
  source = "SOURCE"
  path   = "/Shared/etl/load"
}
""" + "".join(
    f"""
resource "databricks_job" "{name}" {{
  name = "{name}"
  schedule {{
    quartz_cron_expression = "0 0 2 * * ?"
    timezone_id            = "UTC"
  }}
  task {{
    task_key = "load"
    notebook_task {{
      notebook_path = databricks_notebook.load.path
    }}
  }}
}}
"""
    for name in ("a", "b")
)


def _not_static(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006" and "not static" in f.message]


def test_path_root_in_the_root_module_names_the_project_file(lint):
    result = lint({"src/load.py": LOAD, "main.tf": JOBS.replace("SOURCE", "${path.root}/src/load.py")})
    assert _conflicts(result) == ["DL102"]
    assert _not_static(result) == []


def test_path_cwd_is_the_root_module_folder_too(lint):
    result = lint({"src/load.py": LOAD, "main.tf": JOBS.replace("SOURCE", "${path.cwd}/src/load.py")})
    assert _conflicts(result) == ["DL102"]


def test_path_root_in_a_called_module_is_the_callers_folder(lint):
    files = {
        "src/load.py": LOAD,
        "infra/main.tf": 'module "jobs" {\n  source = "../modules/jobs"\n}\n',
        "modules/jobs/jobs.tf": JOBS.replace("SOURCE", "${path.root}/../src/load.py"),
    }
    result = lint(files)
    assert _conflicts(result) == ["DL102"]
    assert _not_static(result) == []


def test_a_module_deployed_from_two_roots_has_no_one_path_root(lint):
    files = {
        "src/load.py": LOAD,
        "infra/main.tf": 'module "jobs" {\n  source = "../modules/jobs"\n}\n',
        "dr/main.tf": 'module "jobs" {\n  source = "../modules/jobs"\n}\n',
        "modules/jobs/jobs.tf": JOBS.replace("SOURCE", "${path.root}/../src/load.py"),
    }
    result = lint(files)
    assert _not_static(result), [f.message for f in result.findings]
