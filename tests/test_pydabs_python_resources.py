"""Python bundle resources (`python: resources: ["resources:load_resources"]`): the
`databricks.bundles.jobs` dataclasses `Job(...)` and `Job.from_dict({...})` at the
top of the package's modules are the bundle's jobs, keyed by their names, their
paths relative to the bundle root; read with `ast`, never imported. A loader that
builds its resources in code says its jobs are not read; a `Job` of another
module is no bundle job."""

from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.test_link import NB

LOAD = NB + "spark.range(3).write.mode('overwrite').saveAsTable('main.sales.orders')\n"

BUNDLE = (
    "bundle:\n  name: pydabs_demo\n"
    'python:\n  venv_path: .venv\n  resources:\n    - "resources:load_resources"\n'
    "targets:\n  prod:\n    mode: production\n    default: true\n"
)
LOADER = (
    "from databricks.bundles.core import Bundle, Resources, load_resources_from_current_package_module\n\n\n"
    "def load_resources(bundle: Bundle) -> Resources:\n"
    "    return load_resources_from_current_package_module()\n"
)
JOBS = """from databricks.bundles.jobs import CronSchedule, Job, NotebookTask, Task

hourly = Job(
    name="orders_hourly",
    schedule=CronSchedule(quartz_cron_expression="0 0 * * * ?", timezone_id="UTC"),
    tasks=[Task(task_key="load", notebook_task=NotebookTask(notebook_path="src/load_orders.py"))],
)

daily = Job.from_dict(
    {
        "name": "orders_daily",
        "schedule": {"quartz_cron_expression": "0 0 2 * * ?", "timezone_id": "UTC"},
        "tasks": [{"task_key": "load", "notebook_task": {"notebook_path": "src/load_orders.py"}}],
    }
)
"""


def _project(loader: str = LOADER, jobs: str = JOBS) -> dict[str, str]:
    return {
        "databricks.yml": BUNDLE,
        "resources/__init__.py": loader,
        "resources/jobs.py": jobs,
        "src/load_orders.py": LOAD,
    }


def _schedule(folder) -> dict:
    return json.loads(run_cli("schedule", ".", "--format", "json", cwd=folder).stdout)


def test_dataclass_and_from_dict_jobs_are_the_bundles_jobs(lint, tmp_path):
    result = lint(_project())
    nodes = {n["node"]: n["files"] for n in _schedule(tmp_path)["nodes"]}
    assert nodes == {"daily.load": ["src/load_orders.py"], "hourly.load": ["src/load_orders.py"]}
    assert not [f for f in result.findings if f.rule == "DL006"]
    conflicts = [f for f in result.findings if f.rule == "DL102"]
    assert conflicts and conflicts[0].severity == "error"  # both run at 02:00


def test_a_loader_that_builds_resources_in_code_is_not_guessed(lint, tmp_path):
    loader = (
        "from databricks.bundles.core import Bundle, Resources\n\n\n"
        "def load_resources(bundle: Bundle) -> Resources:\n"
        "    resources = Resources()\n"
        "    for name in bundle.variables:\n"
        "        resources.add_job(name, {})\n"
        "    return resources\n"
    )
    lint(_project(loader=loader))
    doc = _schedule(tmp_path)
    assert not [n for n in doc["nodes"] if n["job"] in ("hourly", "daily")]
    problems = json.dumps(doc["problems"])
    assert "builds the resources in code delta-lint does not run" in problems, problems


def test_a_job_class_of_another_module_is_no_bundle_job(lint, tmp_path):
    lint(_project(jobs=JOBS.replace("from databricks.bundles.jobs import", "from myjobs import")))
    assert not [n for n in _schedule(tmp_path)["nodes"] if n["job"] in ("hourly", "daily")]
