"""`"${path.module}./src/x"`: Terraform's `path.module` of a root module run in its
own folder is `.`, so the glued text is `../src/x`, the project's file. In a module
another module calls, `path.module` is a longer folder: the glued path stays not
static. A Terraform `pipeline_task` (and other kinds) is named by its kind, as in
a bundle, with the right article."""

from __future__ import annotations

from tests.test_link import NB, _conflicts

LOAD = NB + "spark.range(3).write.mode('overwrite').saveAsTable('main.sales.orders')\n"

MAIN = """
resource "databricks_workspace_file" "load" {
  source = "${path.module}./src/load.py"
  path   = "/Shared/etl/load.py"
}
resource "databricks_pipeline" "p" {
  name = "p"
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
    spark_python_task {{
      python_file = databricks_workspace_file.load.path
    }}
  }}
  task {{
    task_key = "refresh"
    depends_on {{
      task_key = "load"
    }}
    pipeline_task {{
      pipeline_id = databricks_pipeline.p.id
    }}
  }}
}}
"""
    for name in ("a", "b")
)


def _notes(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def test_path_module_glued_to_dot_slash_is_the_parent_folder(lint):
    result = lint({"src/load.py": LOAD, "terraform/main.tf": MAIN})
    assert _conflicts(result) == ["DL102"]
    assert not [m for m in _notes(result) if "not static" in m]


def test_the_glued_form_in_a_called_module_stays_not_static(lint):
    files = {
        "src/load.py": LOAD,
        "terraform/jobs/main.tf": MAIN,
        "terraform/main.tf": 'module "jobs" {\n  source = "./jobs"\n}\n',
    }
    result = lint(files)
    assert _conflicts(result) == []
    assert [m for m in _notes(result) if "not static" in m]


def test_a_terraform_pipeline_task_is_named_by_its_kind(lint):
    notes = _notes(lint({"src/load.py": LOAD, "terraform/main.tf": MAIN}))
    assert notes and all("a pipeline task runs code delta-lint cannot read" in m for m in notes), notes


def test_a_task_of_an_unknown_kind_reads_an_unknown_task_type(lint):
    bundle = (
        "bundle:\n  name: b\n"
        "resources:\n  jobs:\n    j:\n      name: j\n      tasks:\n"
        "        - task_key: t\n          some_new_task:\n            x: 1\n"
    )
    notes = _notes(lint({"databricks.yml": bundle}))
    assert notes and "an unknown task type runs code" in notes[0], notes
