"""Terraform `databricks_pipeline` resources read as a bundle's pipelines.

A pipeline's `library { file { path = databricks_workspace_file.x.path } }` (or
`notebook { path = databricks_notebook.x.path }`, or a `glob { include }`) names
the project file the resource's `source` uploads, as a job task's path does; a job's
`pipeline_task { pipeline_id = databricks_pipeline.p.id }` runs those files, and a
pipeline no job runs is a job of its own (triggered by hand, or continuous). A
pipeline the module does not define stays a task delta-lint cannot read."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

SQL = "CREATE OR REFRESH MATERIALIZED VIEW orders AS SELECT * FROM main.raw.orders;\n"
PY = "import dlt\n\n\n@dlt.table\ndef refunds():\n    return spark.read.table('main.raw.refunds')\n"
UPLOADS = (
    'resource "databricks_workspace_file" "orders" {\n  source = "${path.module}/../src/orders.sql"\n'
    '  path   = "/Shared/pipelines/orders.sql"\n}\n'
    'resource "databricks_notebook" "refunds" {\n  source = "../src/refunds.py"\n  path = "/Shared/pipelines/refunds"\n}\n'
)
PIPELINE = (
    'resource "databricks_pipeline" "bronze" {\n  name    = "bronze"\n  catalog = var.catalog\n'
    '  schema  = "bronze"\n  library {\n    file {\n      path = databricks_workspace_file.orders.path\n    }\n  }\n'
    "  library {\n    notebook {\n      path = databricks_notebook.refunds.path\n    }\n  }\n}\n"
)
VARIABLES = 'variable "catalog" {\n  default = "main"\n}\n'


def _job(pipeline_id: str) -> str:
    return (
        'resource "databricks_job" "refresh" {\n  name = "refresh"\n  task {\n    task_key = "bronze"\n'
        f"    pipeline_task {{\n      pipeline_id = {pipeline_id}\n    }}\n  }}\n}}\n"
    )


def _schedule(root: Path, files: dict[str, str]) -> str:
    for rel, text in {"src/orders.sql": SQL, "src/refunds.py": PY, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return run_cli("schedule", ".", cwd=root).stdout


def test_a_job_s_pipeline_task_runs_the_pipeline_s_libraries(tmp_path: Path) -> None:
    files = {"tf/uploads.tf": UPLOADS, "tf/pipelines.tf": PIPELINE, "tf/jobs.tf": _job("databricks_pipeline.bronze.id")}
    out = _schedule(tmp_path, {**files, "tf/variables.tf": VARIABLES})
    assert "bronze: src/orders.sql, src/refunds.py" in out, out
    assert "not analysed" not in out
    # the datasets are named in the pipeline's catalog (a variable's default) and schema
    intents = run_cli("intents", ".", cwd=tmp_path).stdout
    assert "main.bronze.orders" in intents and "main.bronze.refunds" in intents, intents


def test_a_pipeline_no_job_runs_is_a_job_of_its_own(tmp_path: Path) -> None:
    other = (
        _job("databricks_pipeline.bronze.id")
        .replace("pipeline_task", "notebook_task")
        .replace("pipeline_id = databricks_pipeline.bronze.id", 'notebook_path = "../src/refunds"')
    )
    out = _schedule(tmp_path, {"tf/uploads.tf": UPLOADS, "tf/pipelines.tf": PIPELINE, "tf/jobs.tf": other})
    assert "pipeline bronze" in out and "update: src/orders.sql, src/refunds.py" in out, out


def test_a_pipeline_the_module_does_not_define_is_not_read(tmp_path: Path) -> None:
    # near miss: its id is a variable's: which pipeline runs is known only to a deployment
    files = {"tf/uploads.tf": UPLOADS, "tf/jobs.tf": _job("var.pipeline_id")}
    out = _schedule(tmp_path, {**files, "tf/variables.tf": 'variable "pipeline_id" {}\n'})
    assert "bronze: not analysed: a pipeline task runs code delta-lint cannot read" in out, out


def test_a_pipeline_whose_libraries_are_not_project_files_says_so(tmp_path: Path) -> None:
    # near miss: its library is a workspace path the project does not hold: still not analysed, and said why
    pipeline = PIPELINE.replace("databricks_workspace_file.orders.path", '"/Shared/elsewhere/x.sql"')
    pipeline = pipeline.replace("databricks_notebook.refunds.path", '"/Shared/elsewhere/y"')
    files = {"tf/pipelines.tf": pipeline, "tf/jobs.tf": _job("databricks_pipeline.bronze.id")}
    out = _schedule(tmp_path, {**files, "tf/variables.tf": VARIABLES})
    assert "pipeline `bronze` names no file of the project" in out, out


CATALOG = 'resource "databricks_catalog" "lake" {{\n  name = {name}\n}}\n'


def test_a_catalog_named_by_another_resource_of_the_module(tmp_path: Path) -> None:
    pipeline = PIPELINE.replace("var.catalog", "databricks_catalog.lake.name")
    files = {"tf/uploads.tf": UPLOADS, "tf/pipelines.tf": pipeline, "tf/jobs.tf": _job("databricks_pipeline.bronze.id")}
    _schedule(tmp_path, {**files, "tf/catalog.tf": CATALOG.format(name='"lakehouse"')})
    intents = run_cli("intents", ".", cwd=tmp_path).stdout
    assert "lakehouse.bronze.orders" in intents, intents
    # near miss: the catalog resource's name is a variable without a value: the name stays unknown
    other = tmp_path / "unknown"
    files["tf/catalog.tf"] = CATALOG.format(name="var.catalog_name") + 'variable "catalog_name" {}\n'
    _schedule(other, files)
    intents = run_cli("intents", ".", cwd=other).stdout
    assert "lakehouse" not in intents and "databricks_catalog.lake.name" in intents, intents
