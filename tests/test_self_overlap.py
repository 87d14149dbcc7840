"""Writes that overlap themselves: a job whose runs may overlap (`max_concurrent_runs`
read from every reader of job definitions), and the calls of one run that a thread
pool makes at the same time."""

from __future__ import annotations

import pytest

from tests.test_link import NB, _conflicts

LOAD = NB + "spark.sql(\"UPDATE main.ops.events SET x = 1 WHERE kind = 'a'\")\n"
NOTEBOOK = {"notebooks/load.py": LOAD}
TASKS = '[{"task_key": "load", "notebook_task": {"notebook_path": "/Repos/me/project/notebooks/load"}}]'


def _overlaps(result) -> list[str]:
    return sorted(f.overlap for f in result.findings if f.rule.startswith("DL1"))


# -- runs of one job ---------------------------------------------------------------------

SDK_UPDATE = """\
from databricks.sdk import WorkspaceClient
from databricks.sdk.service.jobs import JobSettings, NotebookTask, Task

w = WorkspaceClient()
w.jobs.update(
    job_id,
    new_settings=JobSettings(
        name="events",
        max_concurrent_runs=RUNS,
        tasks=[Task(task_key="load", notebook_task=NotebookTask(notebook_path="/Repos/me/project/notebooks/load"))],
    ),
)
"""

SDK_SPREAD = f"""\
from databricks.sdk import WorkspaceClient


def deploy(w: WorkspaceClient) -> None:
    settings = {{"name": "events", "max_concurrent_runs": RUNS, "tasks": {TASKS}}}
    w.jobs.create(**settings)
"""

RESET_BODY = f'{{"job_id": 7, "new_settings": {{"name": "events", "max_concurrent_runs": RUNS, "tasks": {TASKS}}}}}'

AIRFLOW_CREATE = f"""\
from airflow import DAG
from airflow.providers.databricks.operators.databricks import DatabricksCreateJobsOperator

with DAG("deploy", schedule=None) as dag:
    DatabricksCreateJobsOperator(task_id="create", json={{"name": "events", "max_concurrent_runs": RUNS, "tasks": {TASKS}}})
"""

AIRFLOW_CREATE_KEYWORDS = f"""\
from airflow import DAG
from airflow.providers.databricks.operators.databricks import DatabricksCreateJobsOperator

TASKS = {TASKS}
with DAG("deploy", schedule=None) as dag:
    DatabricksCreateJobsOperator(task_id="create", name="events", tasks=TASKS, max_concurrent_runs=RUNS)
"""

DEFINITIONS = {
    "sdk-update": "deploy/install.py",
    "sdk-spread": "deploy/install.py",
    "reset-body": "deploy/reset.json",
    "airflow-create-json": "dags/deploy.py",
    "airflow-create-keywords": "dags/deploy.py",
}
TEXTS = {
    "sdk-update": SDK_UPDATE,
    "sdk-spread": SDK_SPREAD,
    "reset-body": RESET_BODY,
    "airflow-create-json": AIRFLOW_CREATE,
    "airflow-create-keywords": AIRFLOW_CREATE_KEYWORDS,
}


@pytest.mark.parametrize("reader", sorted(DEFINITIONS))
def test_a_job_that_allows_concurrent_runs_pairs_its_write_with_itself(lint, reader):
    result = lint({**NOTEBOOK, DEFINITIONS[reader]: TEXTS[reader].replace("RUNS", "4")})
    assert _conflicts(result) == ["DL102"]
    assert _overlaps(result) == ["job `events` allows 4 concurrent runs (with the same parameters)"]


@pytest.mark.parametrize("reader", sorted(DEFINITIONS))
def test_a_job_that_runs_one_run_at_a_time_does_not_pair_its_write_with_itself(lint, reader):
    result = lint({**NOTEBOOK, DEFINITIONS[reader]: TEXTS[reader].replace("RUNS", "1")})
    assert _conflicts(result) == []
    # the job was read (its task runs the notebook): it is not a file run by hand
    assert not [f for f in result.findings if f.rule == "DL006"]


def test_an_sdk_update_without_tasks_defines_no_job(lint):
    text = SDK_UPDATE.replace(
        'tasks=[Task(task_key="load", notebook_task=NotebookTask(notebook_path="/Repos/me/project/notebooks/load"))],',
        "",
    )
    result = lint({**NOTEBOOK, "deploy/install.py": text.replace("RUNS", "4")})
    assert _conflicts(result) == []


BUNDLE = """\
bundle:
  name: events
resources:
  jobs:
    events:
      max_concurrent_runs: 4
CONTINUOUS
      tasks:
        - task_key: load
          notebook_task:
            notebook_path: notebooks/load.py
"""


def test_a_continuous_job_runs_one_run_at_a_time_whatever_its_maximum(lint):
    continuous = lint({**NOTEBOOK, "databricks.yml": BUNDLE.replace("CONTINUOUS", "      continuous: {}")})
    assert _conflicts(continuous) == []
    paused = "      continuous:\n        pause_status: PAUSED"
    assert _conflicts(lint({**NOTEBOOK, "databricks.yml": BUNDLE.replace("CONTINUOUS", paused)})) == []


def test_a_triggered_job_with_concurrent_runs_still_pairs_its_write(lint):
    trigger = "      trigger:\n        file_arrival:\n          url: /Volumes/main/raw/events/"
    result = lint({**NOTEBOOK, "databricks.yml": BUNDLE.replace("CONTINUOUS", trigger)})
    assert _overlaps(result) == ["job `events` allows 4 concurrent runs (with the same parameters)"]


TERRAFORM = """\
resource "databricks_job" "events" {
  name                = "events"
  max_concurrent_runs = 4
BLOCK
  task {
    task_key = "load"
    notebook_task {
      notebook_path = "/Repos/me/project/notebooks/load"
    }
  }
}
"""


def test_a_continuous_terraform_job_runs_one_run_at_a_time(lint):
    continuous = '  continuous {\n    pause_status = "UNPAUSED"\n  }'
    assert _conflicts(lint({**NOTEBOOK, "infra/job.tf": TERRAFORM.replace("BLOCK", continuous)})) == []
    result = lint({**NOTEBOOK, "infra/job.tf": TERRAFORM.replace("BLOCK\n", "")})
    assert _overlaps(result) == ["job `events` allows 4 concurrent runs (with the same parameters)"]


def test_a_terraform_trigger_is_read_as_the_jobs_trigger(tmp_path):
    from delta_lint.terraform import load_found_terraform

    trigger = '  trigger {\n    file_arrival {\n      url = "/Volumes/main/raw/events/"\n    }\n  }'
    (tmp_path / "job.tf").write_text(TERRAFORM.replace("BLOCK", trigger), encoding="utf-8")
    job = load_found_terraform(tmp_path).jobs["events"]
    assert job.trigger == "a file-arrival trigger" and job.max_concurrent_runs == 4 and not job.continuous


def test_an_airflow_continuous_dag_runs_one_run_at_a_time(tmp_path):
    from delta_lint.airflow import load_found_airflow

    dag = (
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator\n\n"
        'with DAG("events", schedule="@continuous", max_active_runs=MAX) as dag:\n'
        '    DatabricksNotebookOperator(task_id="load", notebook_path="/Repos/me/project/notebooks/load")\n'
    )
    (tmp_path / "dag.py").write_text(dag.replace("MAX", "3"), encoding="utf-8")
    job = load_found_airflow(tmp_path).jobs["events"]
    assert job.continuous and job.max_concurrent_runs == 1
    (tmp_path / "dag.py").write_text(dag.replace("@continuous", "@hourly").replace("MAX", "3"), encoding="utf-8")
    assert load_found_airflow(tmp_path).jobs["events"].max_concurrent_runs == 3


# -- calls of one run that a thread pool makes at once -------------------------------------

LOAD_REGION = """\
def load(region):
    spark.sql(
        f"MERGE INTO main.sales.orders t USING main.raw.orders_{region} s ON t.id = s.id "
        "WHEN MATCHED THEN UPDATE SET *"
    )
"""
LOAD_TABLE = """\
def load(table):
    spark.sql(f"MERGE INTO main.sales.{table} t USING main.raw.{table} s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")
"""
POOLED = "written from a thread pool at nb.py:{line}: its calls, one per item, run at the same time"


def _pooled(result) -> list[tuple[str, str, str | None]]:
    """(rule, overlap, how sure) of the conflict findings."""
    return sorted((f.rule, f.overlap, f.overlap_basis) for f in result.findings if f.rule.startswith("DL1"))


def _notebook(*parts: str) -> dict[str, str]:
    return {"nb.py": NB + "\n".join(parts)}


def _at(files: dict[str, str], maker: str) -> str:
    """`line:column` of the first `maker` (what makes the pool) in the notebook."""
    for n, line in enumerate(files["nb.py"].splitlines(), 1):
        if maker in line:
            return f"{n}:{line.index(maker) + 1}"
    raise AssertionError(maker)


EXECUTOR_MAP = """\
from concurrent.futures import ThreadPoolExecutor

with ThreadPoolExecutor(max_workers=WORKERS) as executor:
    list(executor.map(load, ["eu", "us", "apac"]))
"""


def test_the_calls_of_a_thread_pool_that_write_one_table_conflict(lint):
    files = _notebook(LOAD_REGION, EXECUTOR_MAP.replace("WORKERS", "4"))
    result = lint(files)
    assert _pooled(result) == [("DL102", POOLED.format(line=_at(files, "ThreadPoolExecutor(")), "code")]
    (finding,) = [f for f in result.findings if f.rule == "DL102"]
    assert "(another call)" in finding.message and finding.severity == "error"


def test_a_pool_of_one_worker_runs_its_calls_in_order(lint):
    assert _pooled(lint(_notebook(LOAD_REGION, EXECUTOR_MAP.replace("WORKERS", "1")))) == []


def test_a_plain_loop_runs_its_calls_in_order(lint):
    loop = 'for region in ["eu", "us", "apac"]:\n    load(region)\n'
    assert _pooled(lint(_notebook(LOAD_REGION, loop))) == []


def test_pooled_calls_that_write_a_table_each_do_not_conflict(lint):
    pooled = EXECUTOR_MAP.replace("WORKERS", "4").replace('["eu", "us", "apac"]', '["orders", "customers"]')
    result = lint(_notebook(LOAD_TABLE, pooled))
    assert _pooled(result) == []
    tables = sorted(i.table.name for i in result.intents if i.table is not None)
    assert tables == ["main.sales.customers", "main.sales.orders"]


def test_pooled_calls_over_items_only_a_run_knows_write_a_table_each(lint):
    pooled = EXECUTOR_MAP.replace("WORKERS", "4").replace('["eu", "us", "apac"]', 'spark.catalog.listTables("raw")')
    result = lint(_notebook(LOAD_TABLE, pooled))
    assert _pooled(result) == []
    assert [i.table.name for i in result.intents if i.table is not None] == ["main.sales.{table}"]


def test_one_pooled_call_does_not_overlap_itself(lint):
    one = EXECUTOR_MAP.replace("WORKERS", "4").replace('["eu", "us", "apac"]', '["eu"]')
    assert _pooled(lint(_notebook(LOAD_REGION, one))) == []


SUBMIT_COMPREHENSION = """\
from concurrent.futures import ThreadPoolExecutor, as_completed

executor = ThreadPoolExecutor(8)
futures = [executor.submit(load, r) for r in dbutils.widgets.get("regions").split(",")]
"""


def test_submit_in_a_comprehension_over_items_only_a_run_knows(lint):
    files = _notebook(LOAD_REGION, SUBMIT_COMPREHENSION)
    assert _pooled(lint(files)) == [("DL102", POOLED.format(line=_at(files, "ThreadPoolExecutor(8)")), "code")]


def test_submit_in_a_loop_conflicts_and_two_submits_of_different_tables_do_not(lint):
    loop = (
        "from concurrent.futures import ThreadPoolExecutor\n\n"
        "with ThreadPoolExecutor() as pool:\n"
        '    for region in ["eu", "us"]:\n'
        "        pool.submit(load, region)\n"
    )
    files = _notebook(LOAD_REGION, loop)
    assert _pooled(lint(files)) == [("DL102", POOLED.format(line=_at(files, "ThreadPoolExecutor()")), "code")]
    apart = (
        "from concurrent.futures import ThreadPoolExecutor\n\n"
        "with ThreadPoolExecutor() as pool:\n"
        '    pool.submit(load, "orders")\n'
        '    pool.submit(load, "customers")\n'
    )
    assert _pooled(lint(_notebook(LOAD_TABLE, apart))) == []
    files = _notebook(LOAD_TABLE, apart.replace('"customers"', '"orders"'))
    assert _pooled(lint(files)) == [("DL102", POOLED.format(line=_at(files, "ThreadPoolExecutor()")), "code")]


def test_a_single_submit_with_an_unknown_item_does_not_overlap_itself(lint):
    single = (
        "from concurrent.futures import ThreadPoolExecutor\n\n"
        "with ThreadPoolExecutor() as pool:\n"
        '    pool.submit(load, dbutils.widgets.get("region"))\n'
    )
    assert _pooled(lint(_notebook(LOAD_REGION, single))) == []


JOBLIB = """\
from joblib import Parallel, delayed

Parallel(JOBS)(delayed(load)(r) for r in ["eu", "us"])
"""


def test_joblib_parallel_calls_conflict_and_a_default_parallel_runs_in_order(lint):
    files = _notebook(LOAD_REGION, JOBLIB.replace("JOBS", "n_jobs=4"))
    assert _pooled(lint(files)) == [("DL102", POOLED.format(line=_at(files, "Parallel(n_jobs")), "code")]
    assert _pooled(lint(_notebook(LOAD_REGION, JOBLIB.replace("JOBS", "")))) == []  # n_jobs unset: one worker
    assert _pooled(lint(_notebook(LOAD_REGION, JOBLIB.replace("JOBS", "n_jobs=1")))) == []


def test_a_multiprocessing_thread_pool_and_a_lambda(lint):
    pooled = (
        "from multiprocessing.pool import ThreadPool\n\n"
        "regions = spark.conf.get('regions').split(',')\n"
        "ThreadPool(4).map(lambda r: load(r), regions)\n"
    )
    files = _notebook(LOAD_REGION, pooled)
    assert _pooled(lint(files)) == [("DL102", POOLED.format(line=_at(files, "ThreadPool(4)")), "code")]
    assert _pooled(lint(_notebook(LOAD_REGION, pooled.replace("ThreadPool(4)", "ThreadPool(1)")))) == []


def test_two_writes_of_one_pooled_call_pair_across_calls(lint):
    both = """\
def refresh(region):
    spark.sql(f"DELETE FROM main.sales.daily WHERE region = '{region}'")
    spark.sql(f"INSERT INTO main.sales.daily SELECT * FROM main.raw.daily_{region}")
"""
    pooled = EXECUTOR_MAP.replace("WORKERS", "4").replace("load", "refresh")
    conflicts = _pooled(lint(_notebook(both, pooled)))
    assert conflicts and {basis for _, _, basis in conflicts} == {"code"}
    assert _pooled(lint(_notebook(both, 'for region in ["eu", "us", "apac"]:\n    refresh(region)\n'))) == []


REFRESH = """\
def refresh(t):
    spark.sql(f"CREATE OR REPLACE TABLE main.cdc.silver_{t} AS SELECT * FROM main.cdc.bronze_{t}")
    spark.sql(f"ALTER TABLE main.cdc.silver_{t} SET TBLPROPERTIES (delta.enableChangeDataFeed = true)")
    spark.sql("DELETE FROM main.cdc.audit WHERE kind = 'refresh'")
"""


def test_a_table_named_by_an_item_only_a_run_knows_is_a_table_of_its_own_in_each_call(lint):
    pooled = (
        "from concurrent.futures import ThreadPoolExecutor\n\n"
        "tables = [f.name[:-1] for f in dbutils.fs.ls('/Volumes/main/cdc/raw')]\n"
        "with ThreadPoolExecutor(max_workers=3) as executor:\n"
        "    executor.map(refresh, tables)\n"
    )
    result = lint(_notebook(REFRESH, pooled))
    # the audit table is the same in every call: its DELETE meets itself; silver_{t} is not shared
    assert {f.table for f in result.findings if f.rule.startswith("DL1")} == {"main.cdc.audit"}
    assert _pooled(result) == [
        ("DL102", POOLED.format(line=_at(_notebook(REFRESH, pooled), "ThreadPoolExecutor(")), "code")
    ]


LOAD_CONFIG = """\
def load(cfg):
    spark.sql(f"MERGE INTO main.sales.{cfg['table']} t USING main.raw.{cfg['table']} s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")
"""
CONFIGS = """\
from concurrent.futures import ThreadPoolExecutor

CONFIGS = [{"table": "orders", "load": "full"}, {"table": "customers", "load": "full"}SAME]
with ThreadPoolExecutor(max_workers=4) as executor:
    executor.map(load, CONFIGS)
"""


def test_pooled_calls_get_each_literal_dict_of_a_configuration_list(lint):
    apart = lint(_notebook(LOAD_CONFIG, CONFIGS.replace("SAME", "")))
    assert _pooled(apart) == []
    assert sorted(i.table.name for i in apart.intents if i.table) == ["main.sales.customers", "main.sales.orders"]
    files = _notebook(LOAD_CONFIG, CONFIGS.replace("SAME", ', {"table": "orders", "load": "late"}'))
    result = lint(files)
    assert _pooled(result) == [("DL102", POOLED.format(line=_at(files, "ThreadPoolExecutor(")), "code")]
    assert {f.table for f in result.findings if f.rule == "DL102"} == {"main.sales.orders"}


def test_a_submit_comprehension_over_a_literal_configuration_list(lint):
    submit = CONFIGS.replace("SAME", "").replace(
        "    executor.map(load, CONFIGS)", "    futures = [executor.submit(load, c) for c in CONFIGS]"
    )
    result = lint(_notebook(LOAD_CONFIG, submit))
    assert _pooled(result) == []
    assert sorted(i.table.name for i in result.intents if i.table) == ["main.sales.customers", "main.sales.orders"]


def test_odd_pool_calls_are_read_without_an_internal_error(lint):
    odd = """\
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from joblib import Parallel, delayed
from multiprocessing.pool import ThreadPool

pool = ThreadPool(processes="many")
pool.map()
pool.starmap(load, [("eu", 1), ("us",)])
pool.starmap(load, rows)
pool.apply_async(load, args="eu")
pool.apply_async(partial())
with ThreadPoolExecutor(max_workers=2) as ex:
    ex.map(load)
    ex.map(load, a, b)
    ex.submit()
    ex.submit(lambda: None)
    ex.submit(partial(load, "eu"))
    [ex.submit(load, r) for r in ["eu", "us"] if r]
    {ex.submit(load, k): v for k, v in {"eu": 1}.items()}
Parallel(n_jobs=2)()
Parallel(n_jobs=2)(delayed(load) for r in ["eu"])
Parallel(n_jobs=2)([delayed()(r) for r in ["eu"]])
"""
    result = lint(_notebook(LOAD_REGION, odd))
    assert not [f for f in result.findings if f.rule in ("DL002", "DL003")]


def test_what_the_readings_of_a_pool_cannot_read_is_said_once(lint):
    refresh = """\
def refresh(t):
    target = lookup(t)
    spark.sql(f"MERGE INTO {target} x USING main.raw.{t} s ON x.id = s.id WHEN MATCHED THEN UPDATE SET *")
    spark.sql(build_sql(t))
"""
    pooled = EXECUTOR_MAP.replace("WORKERS", "3").replace("load", "refresh")
    result = lint(_notebook(refresh, pooled))
    assert sorted(f.rule for f in result.findings) == ["DL001", "DL007"]  # not once per item


# -- notebooks the calls of a thread pool run ----------------------------------------------

CHILD_UPDATE = NB + "spark.sql(\"UPDATE main.ops.events SET x = 1 WHERE kind = 'a'\")\n"
RUN_EACH = """\
from concurrent.futures import ThreadPoolExecutor


def run(path):
    return dbutils.notebook.run(path, 3600, {"env": "prod"})


with ThreadPoolExecutor(max_workers=4) as pool:
    results = list(pool.map(run, ITEMS))
"""
POOL_RUNS = (
    "run by the calls of the thread pool at jobs/parent.py:{line} (`dbutils.notebook.run`), which run at the same time"
)


def _run_children(
    lint, items: str, children: tuple[str, ...] = ("a", "b"), parent: str = RUN_EACH, extra: dict | None = None
):
    files = {f"jobs/{c}.py": CHILD_UPDATE for c in children}
    files["jobs/parent.py"] = NB + parent.replace("ITEMS", items)
    return lint({**files, **(extra or {})})


def test_notebooks_the_calls_of_a_pool_run_overlap_each_other(lint):
    result = _run_children(lint, '["./a", "./b"]')
    assert _pooled(result) == [("DL102", POOL_RUNS.format(line="9:6"), "code")]
    (finding,) = [f for f in result.findings if f.rule == "DL102"]
    assert {finding.location.path, *(r.path for r in finding.related)} == {"jobs/a.py", "jobs/b.py"}


def test_notebooks_a_plain_loop_runs_run_one_after_the_other(lint):
    loop = 'for path in ["./a", "./b"]:\n    dbutils.notebook.run(path, 3600)\n'
    one_worker = RUN_EACH.replace("max_workers=4", "max_workers=1")
    for result in (_run_children(lint, "", parent=loop), _run_children(lint, '["./a", "./b"]', parent=one_worker)):
        # no job runs the files: they are only assumed to meet, as any two such files
        assert [basis for _, _, basis in _pooled(result)] == ["assumed"]


def test_a_notebook_each_call_of_a_pool_runs_overlaps_itself(lint):
    parent = RUN_EACH.replace("dbutils.notebook.run(path", 'dbutils.notebook.run(f"{base}/jobs/load"')
    result = _run_children(lint, "spark.table('main.ops.regions').collect()", ("load",), parent)
    assert _pooled(result) == [("DL102", POOL_RUNS.format(line="9:6"), "code")]
    (finding,) = [f for f in result.findings if f.rule == "DL102"]
    assert finding.location.path == "jobs/load.py" and "(another call)" in finding.message


def test_a_notebook_one_call_of_a_pool_runs_does_not_overlap_itself(lint):
    parent = RUN_EACH.replace("list(pool.map(run, ITEMS))", 'pool.submit(run, "./load").result()')
    assert _pooled(_run_children(lint, "", ("load",), parent)) == []


def test_notebooks_a_pool_of_a_scheduled_task_runs_overlap_each_other(lint):
    bundle = BUNDLE.replace("CONTINUOUS", "").replace("max_concurrent_runs: 4", "max_concurrent_runs: 1")
    bundle = bundle.replace("notebooks/load.py", "jobs/parent.py")
    files = {"jobs/a.py": CHILD_UPDATE, "jobs/b.py": CHILD_UPDATE, "databricks.yml": bundle}
    result = lint({**files, "jobs/parent.py": NB + RUN_EACH.replace("ITEMS", '["./a", "./b"]')})
    assert _pooled(result) == [("DL102", POOL_RUNS.format(line="9:6"), "code")]
    loop = NB + 'for path in ["./a", "./b"]:\n    dbutils.notebook.run(path, 3600)\n'
    assert _pooled(lint({**files, "jobs/parent.py": loop})) == []  # in order within one run of the task


def test_a_table_named_by_the_inputs_a_pools_calls_give_a_notebook_is_one_per_call(lint):
    by_input = NB + (
        'region = dbutils.widgets.get("region")\n'
        "spark.sql(f\"UPDATE main.ops.events_{region} SET x = 1 WHERE kind = 'a'\")\n"
    )
    parent = RUN_EACH.replace("run(path, 3600", 'run("./load", 3600').replace('{"env": "prod"}', '{"region": path}')
    files = {"jobs/load.py": by_input, "jobs/parent.py": NB + parent.replace("ITEMS", "spark.table('r').collect()")}
    assert _pooled(lint(files)) == []
    fixed = by_input.replace("events_{region}", "events")  # the same table whatever the call gives
    assert [rule for rule, _, _ in _pooled(lint({**files, "jobs/load.py": fixed}))] == ["DL102"]


def test_a_table_named_by_an_input_every_call_of_a_pool_gives_alike_is_one_table(lint):
    """A notebook whose table is named by an input stays unbound when its runs give
    that input different values (here another notebook runs it with "us"); the calls
    of a pool that all give it the same known value write one table at once. Near
    misses: calls that give it their item, or literal items of their own, write a
    table each (or one only a run knows), and are not paired."""
    by_input = NB + (
        'region = dbutils.widgets.get("region")\n'
        "spark.sql(f\"UPDATE main.ops.events_{region} SET x = 1 WHERE kind = 'a'\")\n"
    )
    alone = NB + 'dbutils.notebook.run("./load", 3600, {"region": "us"})\n'
    parent = RUN_EACH.replace("run(path, 3600", 'run("./load", 3600')
    alike = parent.replace('{"env": "prod"}', '{"region": "eu", "item": path}')
    files = {"jobs/load.py": by_input, "jobs/alone.py": alone}
    found = lint({**files, "jobs/parent.py": NB + alike.replace("ITEMS", "spark.table('r').collect()")})
    assert _pooled(found) == [("DL102", POOL_RUNS.format(line="9:6"), "code")]
    (finding,) = [f for f in found.findings if f.rule == "DL102"]
    assert finding.table == "main.ops.events_{region}" and "(another call)" in finding.message
    per_item = parent.replace('{"env": "prod"}', '{"region": path}')
    for items in ("spark.table('r').collect()", '["eu", "us"]'):
        assert _pooled(lint({**files, "jobs/parent.py": NB + per_item.replace("ITEMS", items)})) == []


def test_a_table_named_by_an_input_a_pools_calls_give_unknown_is_said_not_paired(lint):
    """A pool's calls that give the input naming the child's table a value only a run
    knows: the child's writes are not paired with the other calls, and the run says
    so once. Near misses say nothing: one known value in every call (paired), a
    literal value of its own in each call (a table each)."""
    by_input = NB + (
        'region = dbutils.widgets.get("region")\n'
        "spark.sql(f\"UPDATE main.ops.events_{region} SET x = 1 WHERE kind = 'a'\")\n"
    )
    alone = NB + 'dbutils.notebook.run("./load", 3600, {"region": "us"})\n'
    parent = RUN_EACH.replace("run(path, 3600", 'run("./load", 3600')
    files = {"jobs/load.py": by_input, "jobs/alone.py": alone}
    per_item = parent.replace('{"env": "prod"}', '{"region": path}')
    unknown = lint({**files, "jobs/parent.py": NB + per_item.replace("ITEMS", "spark.table('r').collect()")})
    assert [n for n in unknown.notes if "run by the calls" in n] == [
        "jobs/load.py is run by the calls of the thread pool at jobs/parent.py:9:6 (`dbutils.notebook.run`), which "
        "give it `region` as a value only a run knows: its writes to `main.ops.events_{region}` are not paired "
        "with the pool's other calls (each call may write a table of its own)"
    ]
    alike = parent.replace('{"env": "prod"}', '{"region": "eu", "item": path}')
    for near in (per_item.replace("ITEMS", '["eu", "us"]'), alike.replace("ITEMS", "spark.table('r').collect()")):
        assert [n for n in lint({**files, "jobs/parent.py": NB + near}).notes if "run by the calls" in n] == []


def test_a_pooled_notebooks_table_named_by_its_inputs_still_meets_its_own_pools_calls(lint):
    own_pool = NB + (
        "from concurrent.futures import ThreadPoolExecutor\n"
        'region = dbutils.widgets.get("region")\n'
        "\n"
        "\n"
        "def load(kind):\n"
        "    spark.sql(f\"UPDATE main.ops.events_{region} SET x = 1 WHERE kind = 'a'\")\n"
        "\n"
        "\n"
        "with ThreadPoolExecutor(max_workers=4) as inner:\n"
        '    list(inner.map(load, ["a", "b"]))\n'
    )
    parent = RUN_EACH.replace("run(path, 3600", 'run("./load", 3600').replace('{"env": "prod"}', '{"region": path}')
    files = {"jobs/load.py": own_pool, "jobs/parent.py": NB + parent.replace("ITEMS", "spark.table('r').collect()")}
    inner = "written from a thread pool at jobs/load.py:10:6: its calls, one per item, run at the same time"
    assert _pooled(lint(files)) == [("DL102", inner, "code")]  # not the parent's pool: one table per call there


def test_notebooks_a_pool_runs_overlap_beside_a_notebook_read_once(lint):
    """Without the cache a notebook that only `%run`s another is read once, with its
    context (`run._read_deferred`); which notebooks a pool's calls run is still
    told from the first readings."""
    files = {
        "jobs/setup.py": NB + "region = 'eu'\n",
        "jobs/report.py": NB + "# MAGIC %run ./setup\n\n# COMMAND ----------\nprint(region)\n",
    }
    result = _run_children(lint, '["./a", "./b"]', extra=files)
    assert result.stats.files_analysed == 6  # jobs/report.py once, setup.py once (nothing given to it)
    assert _pooled(result) == [("DL102", POOL_RUNS.format(line="9:6"), "code")]


def test_a_notebook_two_pools_run_meets_the_notebooks_of_each(lint):
    """A notebook run by the calls of two pools overlaps the notebooks of either pool,
    not of the first pool only."""
    first_alone = (
        "from concurrent.futures import ThreadPoolExecutor\n"
        "with ThreadPoolExecutor(2) as p1:\n"
        "    p1.submit(dbutils.notebook.run, './a', 60)\n"
    )
    both = "with ThreadPoolExecutor(2) as p2:\n    p2.submit(dbutils.notebook.run, './a', 60)\n"
    both += "    p2.submit(dbutils.notebook.run, './b', 60)\n"
    result = _run_children(lint, "", parent=first_alone + both)
    assert _pooled(result) == [("DL102", POOL_RUNS.format(line="5:6"), "code")]
    # near miss: each notebook in a pool of its own, one pool after the other
    apart = first_alone + "with ThreadPoolExecutor(2) as p2:\n    p2.submit(dbutils.notebook.run, './b', 60)\n"
    assert [basis for _, _, basis in _pooled(_run_children(lint, "", parent=apart))] == ["assumed"]


NESTED_POOL = """\
from concurrent.futures import ThreadPoolExecutor


def run_all(regions):
    with ThreadPoolExecutor(max_workers=4) as ex:
        done = sorted(str(f) for f in list(HAND_OUT))
        ex.shutdown(wait=True)
    return done


print(len(run_all(["eu", "us"])))
"""


def test_a_hand_out_deep_in_a_helpers_expression_is_found_and_a_pools_other_calls_are_not(lint):
    """The module is walked once for which of its expressions hold a hand-out: one
    three calls and a comprehension deep in a function read at its call is found; the
    same expression calling the function in turn, beside the pool, hands nothing out."""
    files = _notebook(LOAD_REGION, NESTED_POOL.replace("HAND_OUT", "ex.map(load, regions)"))
    assert _pooled(lint(files)) == [("DL102", POOLED.format(line=_at(files, "ThreadPoolExecutor(")), "code")]
    in_turn = _notebook(LOAD_REGION, NESTED_POOL.replace("HAND_OUT", "map(load, regions)"))
    assert _pooled(lint(in_turn)) == []
