"""Job definitions in the shapes teams keep them: a complex bundle variable given as
a task's whole parameters, YAML anchors and aliases in job files, and workspace
paths whose folders differ from the repository's. Each is read, and its near miss
stays what it was."""

from __future__ import annotations

from tests.test_link import NB, _conflicts

WRITE_TABLE = NB + 't = dbutils.widgets.get("table")\nspark.table("x").write.mode("overwrite").saveAsTable(t)\n'
WRITE_ARGV = 'import sys\n\nspark.table("x").write.mode("overwrite").saveAsTable(sys.argv[2])\n'


def _rules(result) -> list[str]:
    return sorted(f.rule for f in result.findings)


def _messages(result, rule: str) -> list[str]:
    return [f.message for f in result.findings if f.rule == rule]


# -- a complex variable used whole ---------------------------------------------------------------

COMPLEX = """\
bundle: {name: shop}
variables:
  user_config:
    type: complex
    default: {region: eu, table: main.sales.orders}
  params:
    type: complex
    default: ["--table", "main.sales.orders"]
targets:
  dev: {default: true}
  prod:
    variables:
      user_config: {region: us, table: main.sales.orders_us}
  staging:
    variables:
      user_config:
        default: {region: eu, table: main.sales.orders_staging}
resources:
  jobs:
    orders:
      schedule: {quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}
      tasks:
        - task_key: load
          notebook_task: {notebook_path: ./src/load.py, base_parameters: "${var.user_config}"}
        - task_key: script
          spark_python_task: {python_file: ./src/script.py, parameters: "${var.params}"}
"""
COMPLEX_FILES = {"databricks.yml": COMPLEX, "src/load.py": WRITE_TABLE, "src/script.py": WRITE_ARGV}


def test_a_complex_variable_given_whole_is_the_tasks_parameters(lint):
    result = lint(COMPLEX_FILES)
    assert "DL003" not in _rules(result), _messages(result, "DL003")
    # both tasks write main.sales.orders, unordered in one job: a conflict
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == ["DL102"]
    assert {i.table.name for i in result.intents} == {"main.sales.orders"}


def test_a_targets_complex_value_replaces_the_default_in_either_form(lint):
    # the short form (the mapping itself) and `default:` both give the target's value
    for target, table in (("prod", "main.sales.orders_us"), ("staging", "main.sales.orders_staging")):
        result = lint(COMPLEX_FILES, {"target": target})
        assert "DL003" not in _rules(result)
        assert {i.table.name for i in result.intents if i.location.path == "src/load.py"} == {table}, target


def test_a_complex_variable_inside_text_stays_as_written(lint):
    bundle = COMPLEX.replace(
        'base_parameters: "${var.user_config}"', 'base_parameters: {table: "t_${var.user_config}"}'
    )
    result = lint({**COMPLEX_FILES, "databricks.yml": bundle})
    tables = {i.table.name for i in result.intents if i.location.path == "src/load.py"}
    assert not any("region" in t for t in tables), tables  # never the mapping's text


def test_a_whole_reference_to_no_variable_leaves_the_parameters_to_a_run(lint):
    bundle = COMPLEX.replace("${var.user_config}", "${var.missing}")
    result = lint({**COMPLEX_FILES, "databricks.yml": bundle})
    assert "DL003" not in _rules(result)
    assert any(f.rule == "DL001" and f.location.path == "src/load.py" for f in result.findings)


def test_a_reference_where_a_mapping_belongs_must_be_whole(lint):
    bundle = COMPLEX.replace('"${var.user_config}"', '"x ${var.user_config}"')
    result = lint({**COMPLEX_FILES, "databricks.yml": bundle})
    assert any("base_parameters" in m for m in _messages(result, "DL003"))


# -- YAML anchors and aliases in job files -------------------------------------------------------

ORDERS = NB + 'spark.table("x").write.mode("overwrite").saveAsTable("main.sales.orders")\n'
REFUNDS = NB + 'spark.sql("DELETE FROM main.sales.orders WHERE id = 1")\n'
ANCHORED = """\
bundle: {name: shop}
definitions:
  cluster: &cluster {spark_version: 15.4.x-scala2.12, num_workers: 2}
  hourly: &hourly
    schedule: {quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}
resources:
  jobs:
    orders:
      <<: *hourly
      tasks:
        - task_key: load
          new_cluster: *cluster
          notebook_task: {notebook_path: ./src/orders.py}
    refunds:
      <<: *hourly
      tasks:
        - task_key: fix
          new_cluster: *cluster
          notebook_task: {notebook_path: ./src/refunds.py}
"""
ANCHORED_FILES = {"databricks.yml": ANCHORED, "src/orders.py": ORDERS, "src/refunds.py": REFUNDS}


def _bomb(levels: int) -> str:
    """An alias bomb: each level nine aliases of the one before (9**levels leaves)."""
    lines = ["bundle: {name: b}", "x:", "  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    lines += ["resources:", "  jobs:", "    j:", f"      tags: {{t: *a{levels}}}"]
    lines += ["      tasks: [{task_key: t, notebook_task: {notebook_path: ./src/orders.py}}]"]
    return "\n".join(lines) + "\n"


def test_a_bundle_with_anchors_and_merge_keys_is_read(lint):
    result = lint(ANCHORED_FILES)
    assert "DL003" not in _rules(result), _messages(result, "DL003")
    # both jobs hourly at :00 (from `<<: *hourly`): their writes meet
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == ["DL102"]
    assert "hourly" in str([f.overlap for f in result.findings if f.rule == "DL102"])


def test_a_job_yaml_with_an_aliased_task_is_read(lint):
    job = (
        "name: orders\ntasks:\n  - &load\n    task_key: load\n    notebook_task: {notebook_path: ./orders.py}\n"
        "  - <<: *load\n    task_key: fix\n    notebook_task: {notebook_path: ./refunds.py}\n"
    )
    result = lint({"jobs/orders.yml": job, "jobs/orders.py": ORDERS, "jobs/refunds.py": REFUNDS})
    assert "DL003" not in _rules(result), _messages(result, "DL003")
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == ["DL102"]


def test_an_alias_bomb_is_a_diagnostic_at_its_line_in_bounded_time(lint):
    import time

    start = time.monotonic()
    result = lint({**ANCHORED_FILES, "databricks.yml": _bomb(9), "jobs/other.yml": "name: o\ntasks: []\n"})
    assert time.monotonic() - start < 30
    problems = [f for f in result.findings if f.rule == "DL003"]
    assert len(problems) == 1 and "aliases expand to more than" in problems[0].message
    assert problems[0].location.path == "databricks.yml" and 4 <= problems[0].location.line <= 12
    assert result.n_files >= 2  # the other files are still read


def test_a_small_expansion_passes_and_a_self_holding_alias_stops_at_the_depth_limit(lint):
    small = lint({**ANCHORED_FILES, "databricks.yml": _bomb(3)})  # 9**3 nodes: well inside the limit
    assert "DL003" not in _rules(small), _messages(small, "DL003")
    looped = ANCHORED.replace("definitions:\n", "definitions:\n  loop: &loop {again: [*loop]}\n")
    result = lint({**ANCHORED_FILES, "databricks.yml": looped})
    assert any("nested more than 100 levels" in m for m in _messages(result, "DL003"))


def test_aliases_stay_refused_in_delta_lints_own_configuration(tmp_path):
    from tests.conftest import run_cli

    (tmp_path / "delta-lint.yaml").write_text("a: &a [x]\nexclude: *a\n")
    (tmp_path / "a.sql").write_text("SELECT 1;\n")
    proc = run_cli("check", ".", cwd=tmp_path)
    assert proc.returncode == 2 and "aliases (*name) are not allowed" in proc.stderr


# -- a workspace path in a folder the repository does not have -----------------------------------

UPDATE_A = NB + "spark.sql(\"UPDATE main.ops.events SET x = 1 WHERE kind = 'a'\")\n"
UPDATE_B = NB + "spark.sql(\"UPDATE main.ops.events SET x = 2 WHERE kind = 'b'\")\n"
AIRFLOW = """\
from datetime import datetime

from airflow import DAG
from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator

with DAG("events", start_date=datetime(2024, 1, 1), schedule="@hourly", catchup=False):
    DatabricksSubmitRunOperator(
        task_id="load",
        existing_cluster_id="abc",
        notebook_task={"notebook_path": "/Workspace/Shared/shop/load_events"},
    )
    DatabricksSubmitRunOperator(
        task_id="fix",
        existing_cluster_id="abc",
        notebook_task={"notebook_path": "/Repos/someone@example.com/etl/notebooks/fix_events"},
    )
"""
JOBS_JSON = """\
{"job_id": 1, "settings": {"name": "events", "tasks": [
  {"task_key": "load", "notebook_task": {"notebook_path": "/Workspace/observability-etl/01_load_events"}},
  {"task_key": "fix", "notebook_task": {"notebook_path": "/Production/02_fix_events"}}
]}}
"""
TERRAFORM = """
resource "databricks_job" "events" {
  name = "events"
  task {
    task_key = "load"
    notebook_task {
      notebook_path = "/Production/Bronze/load_events"
    }
  }
  task {
    task_key = "fix"
    notebook_task {
      notebook_path = "/Production/Bronze/fix_events"
    }
  }
}
"""


def _dl006(result) -> list[str]:
    return [f.message for f in result.findings if f.rule == "DL006"]


def _by_name_note(result) -> list[str]:
    return [n for n in result.notes if "matched to a project file by name" in n]


def test_an_airflow_tasks_workspace_path_is_matched_by_the_notebooks_name(lint):
    result = lint(
        {"dags/events.py": AIRFLOW, "notebooks/load_events.py": UPDATE_A, "notebooks/fix_events.py": UPDATE_B}
    )
    assert _dl006(result) == []
    assert _conflicts(result) == ["DL102"]  # two unordered tasks of one DAG
    (note,) = _by_name_note(result)
    # `/Repos/.../notebooks/fix_events` ends with the project's own path: found by its tail
    assert "1 task " in note and "notebooks/load_events.py" in note and "/Workspace/Shared/shop/load_events" in note


def test_jobs_json_and_terraform_paths_are_matched_alike_whatever_the_suffix(lint):
    files = {"notebooks/01_load_events.sql": "UPDATE main.ops.events SET x = 1 WHERE kind = 'a';\n"}
    files["notebooks/02_fix_events.py"] = UPDATE_B
    result = lint({**files, "jobs/events.json": JOBS_JSON})
    assert _dl006(result) == [] and _conflicts(result) == ["DL102"]
    tf = {"infra/main.tf": TERRAFORM, "src/load_events.py": UPDATE_A, "src/fix_events.py": UPDATE_B}
    result = lint(tf)
    assert _dl006(result) == [] and _conflicts(result) == ["DL102"]
    assert len(_by_name_note(result)) == 1


def test_parent_folders_choose_among_files_of_one_name(lint):
    # `etl/notebooks/` of the path agrees with one of the two files named fix_events
    dag = AIRFLOW.replace("/Repos/someone@example.com/etl/notebooks/fix_events", "/Shared/etl/notebooks/fix_events")
    files = {"dags/events.py": dag, "notebooks/load_events.py": UPDATE_A}
    files |= {"src/etl/notebooks/fix_events.py": UPDATE_B, "old/fix_events.py": UPDATE_B}
    result = lint(files)
    assert _dl006(result) == []
    assert "`/Shared/etl/notebooks/fix_events` as src/etl/notebooks/fix_events.py" in _by_name_note(result)[0]


def test_several_equally_named_files_are_one_of_them_never_a_silent_pick(lint):
    files = {"dags/events.py": AIRFLOW, "notebooks/fix_events.py": UPDATE_B}
    files |= {"a/load_events.py": UPDATE_A, "b/load_events.ipynb": "{}"}
    result = lint(files)
    (message,) = _dl006(result)
    assert "runs one of a/load_events.py, b/load_events.ipynb" in message
    assert "task `load` of job `events`" in message


def test_a_workspace_path_whose_name_no_file_has_stays_not_analysed(lint):
    files = {"dags/events.py": AIRFLOW, "notebooks/load_event.py": UPDATE_A, "notebooks/fix_events.py": UPDATE_B}
    result = lint(files)
    (message,) = _dl006(result)
    assert "`/Workspace/Shared/shop/load_events` is not in this project" in message
    assert "one of" not in message


def test_a_relative_path_found_nowhere_is_not_matched_by_name(lint):
    job = '{"name": "j", "tasks": [{"task_key": "t", "notebook_task": {"notebook_path": "../elsewhere/load_events"}}]}'
    result = lint({"jobs/j.json": job, "notebooks/load_events.py": UPDATE_A})
    assert any("is not in this project" in m for m in _dl006(result))
    assert _by_name_note(result) == []


# -- a for_each task with more inputs than are read one by one -----------------------------------


def _fan(inputs: str) -> dict[str, str]:
    bundle = f"""\
bundle: {{name: b}}
resources:
  jobs:
    fan:
      tasks:
        - task_key: each
          for_each_task:
            inputs: '{inputs}'
            concurrency: 4
            task:
              task_key: each_inner
              notebook_task: {{notebook_path: ./src/load.py, base_parameters: {{table: "{{{{input}}}}"}}}}
"""
    load = (
        NB + 't = dbutils.widgets.get("table")\nspark.table("x").write.mode("overwrite").saveAsTable(f"main.s.{t}")\n'
    )
    return {"databricks.yml": bundle, "src/load.py": load}


def _fan_notes(result) -> list[str]:
    return [n for n in result.notes if "for_each task `each`" in n]


def test_a_for_each_task_past_the_listed_inputs_says_so(lint):
    import json

    result = lint(_fan(json.dumps([f"t{i}" for i in range(300)])))
    (note,) = _fan_notes(result)
    assert "has 300 inputs" in note and "`table`" in note


def test_a_for_each_task_within_the_limit_or_given_its_inputs_by_a_run_has_no_note(lint):
    result = lint(_fan('["orders", "refunds"]'))
    assert _fan_notes(result) == [] and {i.table.name for i in result.intents} == {"main.s.orders", "main.s.refunds"}


def test_a_for_each_task_whose_inputs_a_run_gives_has_no_note(lint):
    result = lint(_fan("{{tasks.list.values.ids}}"))
    assert _fan_notes(result) == []


# -- a pipeline library in a folder the repository does not have ---------------------------------

PIPELINE = """\
bundle: {name: shop}
resources:
  pipelines:
    orders:
      name: orders
      libraries:
        - notebook: {path: /Workspace/Shared/dlt/orders_pipeline}
        - file: {path: /Workspace/Shared/dlt/returns}
        - notebook: {path: /Workspace/Shared/dlt/nowhere}
  jobs:
    nightly:
      tasks:
        - task_key: refresh
          pipeline_task: {pipeline_id: "${resources.pipelines.orders.id}"}
"""
DLT = NB + "import dlt\n\n@dlt.table\ndef orders():\n    return spark.read.table('raw.orders')\n"


def _workflows(tmp_path, files: dict[str, str]):
    from delta_lint.config import validate
    from delta_lint.schedule import load_workflows

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return load_workflows(validate({}, tmp_path / "delta-lint.yaml"))


def test_a_pipeline_library_in_another_folder_is_matched_by_name_and_the_rest_said(tmp_path):
    files = {"databricks.yml": PIPELINE, "src/orders_pipeline.py": DLT}
    files |= {"src/a/returns.py": DLT, "src/b/returns.sql": "SELECT 1;\n"}
    workflows = _workflows(tmp_path, files)
    assert workflows.pipelines["orders"].files == ("src/orders_pipeline.py",)
    assert workflows.jobs["nightly"].tasks["refresh"].files == ("src/orders_pipeline.py",)
    notes = [n for n in workflows.notes if "pipeline `orders`" in n]
    assert any("`/Workspace/Shared/dlt/orders_pipeline`" in n and "by name" in n for n in notes)
    assert any("one of src/a/returns.py, src/b/returns.sql" in n for n in notes)
    assert any("`/Workspace/Shared/dlt/nowhere`" in n and "is not in this project" in n for n in notes)


def test_a_pipeline_library_found_by_its_path_gets_no_note(tmp_path):
    bundle = PIPELINE.replace("/Workspace/Shared/dlt/orders_pipeline", "./src/orders_pipeline.py")
    bundle = "\n".join(line for line in bundle.splitlines() if "returns" not in line and "nowhere" not in line)
    workflows = _workflows(tmp_path, {"databricks.yml": bundle + "\n", "src/orders_pipeline.py": DLT})
    assert workflows.pipelines["orders"].files == ("src/orders_pipeline.py",)
    assert not [n for n in workflows.notes if "pipeline `orders`" in n]


# -- Airflow starting a job of the project by its id ---------------------------------------------

RUN_NOW = """\
from datetime import datetime

from airflow import DAG
from airflow.providers.databricks.operators.databricks import DatabricksRunNowOperator

with DAG("nightly", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False):
    DatabricksRunNowOperator(task_id="run_orders", job_id=JOB_ID)
"""
EXPORT = (
    '{"job_id": 123, "settings": {"name": "orders", "tasks": [{"task_key": "load", '
    '"notebook_task": {"notebook_path": "./load_orders.py"}}]}}\n'
)


def test_a_run_now_by_job_id_starts_the_exported_job_of_that_id(lint):
    for given in ("123", '"123"'):
        files = {"dags/run.py": RUN_NOW.replace("JOB_ID", given), "jobs/orders.json": EXPORT}
        result = lint({**files, "jobs/load_orders.py": ORDERS})
        assert _dl006(result) == [], given


def test_a_run_now_by_an_id_no_export_gives_stays_not_analysed(lint):
    files = {"dags/run.py": RUN_NOW.replace("JOB_ID", "456"), "jobs/orders.json": EXPORT}
    (message,) = _dl006(lint({**files, "jobs/load_orders.py": ORDERS}))
    assert "it starts job `456`, and no job definition of this project defines it" in message
