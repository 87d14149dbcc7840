"""A job's task is read one way wherever it stands and whichever file defines it: a
wheel task inside a `for_each_task` is followed to its entry point as one at the
top level is; Terraform's `task` blocks carry what the bundle reader takes from
YAML (a wheel's entry point, a `for_each_task`, a `sql_task` file, `source = "GIT"`
with the job's `git_source`: paths from the repository root, not the .tf folder)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

MERGE_SQL = (
    "MERGE INTO main.sales.orders t USING main.staging.orders s ON t.id = s.id "
    "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"
)
MERGE_NOTEBOOK = f'# Databricks notebook source\nspark.sql("{MERGE_SQL}")\n'
WHEEL = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "0.1.0"\n[project.scripts]\nshop-load = "shop.load:main"\n',
    "src/shop/__init__.py": "",
    "src/shop/load.py": f'def main() -> None:\n    spark.sql("{MERGE_SQL}")\n',
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _findings(root: Path) -> list[dict]:
    proc = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def _rules(root: Path) -> list[str]:
    return sorted(f["rule"] for f in _findings(root))


# -- a wheel task inside a for_each task ---------------------------------------------------

WHEEL_TASK = "python_wheel_task: {package_name: shop, entry_point: shop-load}"


def _for_each_bundle(concurrency: int, adhoc: bool) -> str:
    jobs = (
        "  jobs:\n    nightly:\n      schedule: {quartz_cron_expression: '0 0 2 * * ?', timezone_id: UTC}\n"
        "      tasks:\n        - task_key: load_all\n          for_each_task:\n"
        f'            inputs: \'["orders", "refunds"]\'\n            concurrency: {concurrency}\n'
        f"            task: {{task_key: load_one, {WHEEL_TASK}}}\n"
    )
    if adhoc:
        jobs += f"    adhoc:\n      tasks: [{{task_key: load, {WHEEL_TASK}}}]\n"
    return "bundle: {name: shop}\nresources:\n" + jobs


def test_a_wheel_task_inside_a_for_each_task_runs_its_entry_point(tmp_path: Path) -> None:
    root = _write(tmp_path, {**WHEEL, "databricks.yml": _for_each_bundle(1, adhoc=True)})
    found = _findings(root)
    assert [f["rule"] for f in found] == ["DL102"]
    assert found[0]["location"]["path"] == "src/shop/load.py"


def test_iterations_of_a_wheel_for_each_task_meet_only_when_they_run_at_once(tmp_path: Path) -> None:
    sequential = _write(tmp_path / "one", {**WHEEL, "databricks.yml": _for_each_bundle(1, adhoc=False)})
    assert _rules(sequential) == []  # read (no DL006), and one iteration at a time
    parallel = _write(tmp_path / "two", {**WHEEL, "databricks.yml": _for_each_bundle(2, adhoc=False)})
    assert _rules(parallel) == ["DL102"]


# -- Terraform task blocks -----------------------------------------------------------------

GIT_SOURCE = '  git_source {\n    url      = "https://github.com/example/repo"\n    provider = "gitHub"\n  }\n'


def _tf_job(name: str, task: str, job_extra: str = "") -> str:
    return f'resource "databricks_job" "{name}" {{\n  name = "{name}"\n{job_extra}  task {{\n{task}  }}\n}}\n'


def _notebook(source: str = "") -> str:
    line = f'      source        = "{source}"\n' if source else ""
    return f'    task_key = "load"\n    notebook_task {{\n      notebook_path = "notebooks/load"\n{line}    }}\n'


def _tf_project(root: Path, jobs: str, files: dict[str, str] | None = None) -> Path:
    given = files if files is not None else {"notebooks/load.py": MERGE_NOTEBOOK}
    return _write(root, {**given, "terraform/jobs.tf": jobs})


def test_terraform_git_source_paths_start_at_the_repository_root(tmp_path: Path) -> None:
    # the job's `git_source` with the task's `source = "GIT"`; a task's `source = "GIT"` alone
    jobs = _tf_job("nightly", _notebook("GIT"), GIT_SOURCE) + _tf_job("adhoc", _notebook("GIT"))
    assert _rules(_tf_project(tmp_path, jobs)) == ["DL102"]
    # the job's `git_source` makes a task without `source` read from the repository too
    jobs = _tf_job("nightly", _notebook(), GIT_SOURCE) + _tf_job("adhoc", _notebook(), GIT_SOURCE)
    assert _rules(_tf_project(tmp_path / "implicit", jobs)) == ["DL102"]


def test_terraform_workspace_paths_stay_beside_the_tf_file(tmp_path: Path) -> None:
    # near misses: no git source (the path is the .tf folder's), and `source = "WORKSPACE"`
    # beside a `git_source`: neither names notebooks/load.py at the root
    jobs = _tf_job("nightly", _notebook()) + _tf_job("adhoc", _notebook("WORKSPACE"), GIT_SOURCE)
    found = _findings(_tf_project(tmp_path, jobs))
    assert sorted(f["rule"] for f in found) == ["DL006", "DL006"]
    assert all("is not in this project" in f["message"] for f in found)


def test_terraform_sql_task_file_from_git(tmp_path: Path) -> None:
    task = (
        '    task_key = "load"\n    sql_task {\n      warehouse_id = "abc"\n'
        '      file {\n        path   = "sql/load.sql"\n        source = "GIT"\n      }\n    }\n'
    )
    jobs = _tf_job("nightly", task, GIT_SOURCE) + _tf_job("adhoc", task, GIT_SOURCE)
    assert _rules(_tf_project(tmp_path, jobs, {"sql/load.sql": MERGE_SQL + ";\n"})) == ["DL102"]


def _tf_wheel(key: str = "load") -> str:
    return (
        f'    task_key = "{key}"\n    python_wheel_task {{\n      package_name = "shop"\n'
        '      entry_point  = "shop-load"\n    }\n'
    )


def test_terraform_wheel_tasks_run_their_entry_point(tmp_path: Path) -> None:
    jobs = _tf_job("nightly", _tf_wheel()) + _tf_job("adhoc", _tf_wheel())
    found = _findings(_tf_project(tmp_path, jobs, WHEEL))
    assert [f["rule"] for f in found] == ["DL102"] and found[0]["location"]["path"] == "src/shop/load.py"


def _tf_for_each(concurrency: int) -> str:
    return (
        '    task_key = "load_all"\n    for_each_task {\n      inputs      = "[\\"orders\\", \\"refunds\\"]"\n'
        f"      concurrency = {concurrency}\n      task {{\n"
        + _tf_wheel("load_one").replace("\n    ", "\n        ").replace("    task_key", "        task_key", 1)
        + "      }\n    }\n"
    )


def test_terraform_for_each_task_runs_its_inner_task(tmp_path: Path) -> None:
    parallel = _tf_project(tmp_path / "two", _tf_job("nightly", _tf_for_each(2)), WHEEL)
    assert _rules(parallel) == ["DL102"]
    sequential = _tf_project(tmp_path / "one", _tf_job("nightly", _tf_for_each(1)), WHEEL)
    assert _rules(sequential) == []


# -- a Terraform module nothing deploys ----------------------------------------------------------


def _module_project(root: Path, genai_folder: str, genai_extra: str = "", caller: bool = True) -> Path:
    cron = '  schedule {\n    quartz_cron_expression = "0 0 2 * * ?"\n    timezone_id = "UTC"\n  }\n'
    task = '    task_key = "load"\n    notebook_task {\n      notebook_path = "${path.module}/../../notebooks/load"\n    }\n'
    files = {
        "notebooks/load.py": MERGE_NOTEBOOK,
        "modules/jobs/main.tf": _tf_job("nightly", task, cron),
        f"{genai_folder}/main.tf": genai_extra
        + _tf_job("agent", task.replace("/../..", "/.." * (genai_folder.count("/") + 1))),
    }
    if caller:
        files["infra/main.tf"] = 'module "jobs" {\n  source = "../modules/jobs"\n}\n'
    return _write(root, files)


def test_a_module_no_root_calls_deploys_no_job(tmp_path: Path) -> None:
    doc = json.loads(
        run_cli("check", ".", "--no-cache", "--format", "json", cwd=_module_project(tmp_path, "modules/genai")).stdout
    )
    assert doc["findings"] == []
    assert any("`modules/genai`" in n and "deploys nothing" in n for n in doc["summary"]["notes"])


def test_modules_that_may_be_deployed_keep_their_jobs(tmp_path: Path) -> None:
    # near misses: a provider of its own (a root), a folder outside `modules`, no local calls at all
    provider = _module_project(tmp_path / "provider", "modules/genai", 'provider "databricks" {}\n')
    assert _rules(provider) == ["DL102"]
    assert _rules(_module_project(tmp_path / "root", "genai")) == ["DL102"]
    assert _rules(_module_project(tmp_path / "library", "modules/genai", caller=False)) == ["DL102"]


# -- Terraform values read through an object's attribute -------------------------------------------


def _object_schedules(early: str, late: str) -> str:
    variable = (
        'variable "jobs" {\n  default = {\n'
        '    early = { quartz_cron_expression = "0 0 1 * * ?" }\n'
        '    "late" = { quartz_cron_expression = "0 0 13 * * ?" }\n  }\n}\n'
    )
    task = '    task_key = "load"\n    notebook_task {\n      notebook_path = "../notebooks/load"\n    }\n'
    schedule = '  schedule {{\n    quartz_cron_expression = {cron}\n    timezone_id = "UTC"\n  }}\n'
    return (
        variable
        + _tf_job("early", task, schedule.format(cron=early))
        + _tf_job("late", task, schedule.format(cron=late))
    )


def test_a_terraform_schedule_from_an_object_variable_is_read(tmp_path: Path) -> None:
    jobs = _object_schedules("var.jobs.early.quartz_cron_expression", 'var.jobs["late"].quartz_cron_expression')
    assert _rules(_tf_project(tmp_path, jobs)) == []  # 01:00 and 13:00 never meet
    # near miss: an attribute the object lacks is unknown: the job may start at any time (DL003)
    jobs = _object_schedules("var.jobs.early.quartz_cron_expression", "var.jobs.late.cron")
    rules = _rules(_tf_project(tmp_path / "missing", jobs))
    assert "DL003" in rules and "DL102" in rules


# -- a wheel task in an Airflow run ------------------------------------------------------------------

_SUBMIT = """
with DAG("NAME", schedule=CRON, start_date=datetime(2024, 1, 1), catchup=False):
    DatabricksSubmitRunOperator(
        task_id="load",
        tasks=[{"task_key": "load", "python_wheel_task": {"package_name": "shop", "entry_point": "ENTRY"}}],
    )
"""
DAG = (
    "from datetime import datetime\n\nfrom airflow import DAG\n"
    "from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator\n"
    + _SUBMIT.replace("NAME", "nightly").replace("CRON", '"0 2 * * *"')
    + _SUBMIT.replace("NAME", "adhoc").replace("CRON", "None")
)


def test_a_wheel_task_an_airflow_run_submits_runs_its_entry_point(tmp_path: Path) -> None:
    found = _findings(_write(tmp_path / "shop", {**WHEEL, "dags/load.py": DAG.replace("ENTRY", "shop-load")}))
    assert [f["rule"] for f in found] == ["DL102"] and found[0]["location"]["path"] == "src/shop/load.py"
    # near miss: an entry point the project does not define stays code delta-lint cannot read
    other = _findings(_write(tmp_path / "other", {**WHEEL, "dags/load.py": DAG.replace("ENTRY", "shop-bill")}))
    assert {f["rule"] for f in other} == {"DL006"}


def test_a_module_beside_a_root_that_calls_none_deploys_no_job(tmp_path: Path) -> None:
    # Terraform's standard structure: the root above `modules/` calls no module at all
    task = '    task_key = "load"\n    notebook_task {\n      notebook_path = "PATH"\n    }\n'
    cron = '  schedule {\n    quartz_cron_expression = "0 0 2 * * ?"\n    timezone_id = "UTC"\n  }\n'
    files = {
        "notebooks/load.py": MERGE_NOTEBOOK,
        "terraform/providers.tf": 'provider "databricks" {}\n',
        "terraform/jobs.tf": _tf_job("nightly", task.replace("PATH", "../notebooks/load"), cron),
        "terraform/modules/genai/main.tf": _tf_job("agent", task.replace("PATH", "../../../notebooks/load")),
    }
    doc = _check_json(_write(tmp_path, files))
    assert doc["findings"] == []
    assert any("`terraform/modules/genai`" in n for n in doc["summary"]["notes"])
    # near miss: the same module called by the root deploys its job (manual x nightly)
    files["terraform/main.tf"] = 'module "genai" {\n  source = "./modules/genai"\n}\n'
    assert _rules(_write(tmp_path / "called", files)) == ["DL102"]


def _check_json(root: Path) -> dict:
    return json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root).stdout)
