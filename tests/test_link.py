"""The link stage: values other files and the jobs give a file (`%run`, imports of
project modules, job parameters), as real repositories use them. Each case has a
contrasting one that must stay as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.config import validate
from delta_lint.run import analyze

NB = "# Databricks notebook source\n"
SEP = "\n# COMMAND ----------\n"


def linked(tmp_path: Path, files: dict[str, str], config: dict | None = None, use_cache: bool = False) -> list:
    """Every file's result after linking, the files written into the project first."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    cfg = validate(config or {}, tmp_path / "delta-lint.yaml")
    results, _, _ = analyze([tmp_path], cfg, cwd=tmp_path, use_cache=use_cache)
    return results


def tables(tmp_path: Path, files: dict[str, str], config: dict | None = None, use_cache: bool = False) -> dict:
    """path -> sorted table names its intents write, after linking."""
    results = linked(tmp_path, files, config, use_cache)
    return {r.path: sorted(i.table.name for i in r.intents if i.table) for r in results if r.intents}


# -- %run ------------------------------------------------------------------------------


def test_a_run_notebook_gives_its_values_and_current_database(tmp_path):
    setup = (
        NB + "config = {}\nconfig['database'] = 'clickstream'\nspark.catalog.setCurrentDatabase(config['database'])\n"
    )
    job = (
        NB
        + '# MAGIC %run "./0a_Intro & Config"\n'
        + SEP
        + (
            "df.write.mode('overwrite').saveAsTable('events')\n"
            "spark.sql(f\"MERGE INTO {config['database']}.metrics t USING u ON t.id = u.id "
            'WHEN MATCHED THEN UPDATE SET *")\n'
        )
    )
    got = tables(tmp_path, {"0a_Intro & Config.py": setup, "1a_publish.py": job})
    assert got["1a_publish.py"] == ["clickstream.events", "clickstream.metrics"]


def test_a_run_notebook_above_the_checked_folder_in_its_repository_is_read(tmp_path):
    """`%run ../../_resources/global-setup` of a demo checked on its own: the shared
    setup is read for what it leaves (here the schema a helper's USE sets), never
    reported; outside a git work tree nothing above the folder is read."""
    import subprocess

    shared = (
        NB + "class Setup:\n    @staticmethod\n    def schema(catalog, db):\n        spark.sql(f'USE {catalog}.{db}')\n"
    )
    shared += "        spark.sql(f'ALTER TABLE {catalog}.{db}.audit SET TBLPROPERTIES (a = 1)')\n"
    files = {
        "_resources/global-setup.py": shared,
        "demos/cdc/_resources/00-setup.py": NB
        + "catalog = 'main'"
        + SEP
        + "# MAGIC %run ../../../_resources/global-setup\n"
        + SEP
        + "Setup.schema(catalog, 'cdc')\n",
        "demos/cdc/job.py": NB
        + "# MAGIC %run ./_resources/00-setup\n"
        + SEP
        + "spark.sql('DELETE FROM clients WHERE id = 1')\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    folder = tmp_path / "demos" / "cdc"
    alone = {
        r.path: [i.table.name for i in r.intents] for r in analyze([folder], validate({}, folder / "x"), cwd=folder)[0]
    }
    assert alone["job.py"] == ["clients"]  # no repository: the folder is all there is
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    got = {
        r.path: [i.table.name for i in r.intents] for r in analyze([folder], validate({}, folder / "x"), cwd=folder)[0]
    }
    assert got["job.py"] == ["main.cdc.clients"]
    # the setup's own ALTER runs where the setup calls the helper, inside the folder
    assert got["_resources/00-setup.py"] == ["main.cdc.audit"]
    assert not any(p.startswith("..") for p in got)


def test_run_follows_includes_of_includes_and_ignores_widget_arguments(tmp_path):
    files = {
        "_resources/00-global.py": NB + "catalog = 'main'\n",
        "_resources/00-setup.py": NB + "# MAGIC %run ./00-global\n" + SEP + "schema = 'cdc'\n",
        "pipeline.py": NB
        + "# MAGIC %run ./_resources/00-setup $reset_all_data=false\n"
        + SEP
        + "df.write.saveAsTable(f'{catalog}.{schema}.clients')\n",
    }
    assert tables(tmp_path, files)["pipeline.py"] == ["main.cdc.clients"]


def test_without_the_run_the_names_stay_unknown(tmp_path):
    files = {
        "config.py": NB + "catalog = 'main'\n",
        "job.py": NB + "df.write.saveAsTable(f'{catalog}.s.t')\n",  # no %run: `catalog` is not defined here
    }
    assert tables(tmp_path, files)["job.py"] == ["{catalog}.s.t"]


def test_a_run_loop_is_read_once(tmp_path):
    files = {
        "a.py": NB + "# MAGIC %run ./b\n" + SEP + "x = 'from_a'\n",
        "b.py": NB + "# MAGIC %run ./a\n" + SEP + "df.write.saveAsTable(f'{x}.t')\n",
    }
    assert tables(tmp_path, files)["b.py"] == ["from_a.t"]


# -- imports of project modules -------------------------------------------------------------


def test_constants_imported_from_a_project_module(tmp_path):
    files = {
        "config.py": "CATALOG = 'demos'\nSCHEMA = 'backfill'\nDEST_TABLE = f'{CATALOG}.{SCHEMA}.destination'\n",
        "jobs/settings.py": "class Config:\n    TARGET = 'main.gold.daily'\n",
        "jobs/setup.py": (
            "from config import DEST_TABLE, CATALOG as C\n"
            "import config\n"
            "from jobs.settings import Config\n"
            "spark.sql(f'CREATE TABLE IF NOT EXISTS {DEST_TABLE} (id INT)')\n"
            "df.write.saveAsTable(f'{C}.s.a')\n"
            "df.write.saveAsTable(config.SCHEMA + '.b')\n"
            "df.write.mode('overwrite').saveAsTable(Config.TARGET)\n"
        ),
    }
    assert tables(tmp_path, files)["jobs/setup.py"] == [
        "backfill.b",
        "demos.backfill.destination",
        "demos.s.a",
        "main.gold.daily",
    ]


def test_names_from_modules_outside_the_project_stay_unknown(tmp_path):
    files = {"job.py": "from somewhere_else import TABLE\ndf.write.saveAsTable(TABLE)\n"}
    got = tables(tmp_path, files)
    assert got["job.py"] == ["{TABLE}"]


def test_relative_imports_and_packages(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/names.py": "SILVER = 'main.silver.orders'\n",
        "pkg/jobs/load.py": "from ..names import SILVER\nfrom pkg import names\n"
        "df.write.saveAsTable(SILVER)\ndf.write.saveAsTable(names.SILVER + '_copy')\n",
    }
    assert tables(tmp_path, files)["pkg/jobs/load.py"] == ["main.silver.orders", "main.silver.orders_copy"]


# -- job parameters -----------------------------------------------------------------------------

BUNDLE = """
bundle: {name: costs}
variables:
  catalog: {default: billing}
  schema: {default: aws}
resources:
  jobs:
    costs:
      name: costs
      parameters:
        - {name: target_catalog_name, default: "${var.catalog}"}
        - {name: target_schema_name, default: "${var.schema}"}
      tasks:
%s
"""

WIDGET_NOTEBOOK = NB + (
    'dbutils.widgets.text("target_catalog_name", "")\n'
    'dbutils.widgets.text("target_schema_name", "")\n'
    'dbutils.widgets.text("table", "")\n'
    'catalog = dbutils.widgets.get("target_catalog_name")\n'
    'schema = dbutils.widgets.get("target_schema_name")\n'
    'table = dbutils.widgets.get("table")\n'
    "df.write.mode('append').saveAsTable(f'{catalog}.{schema}.{table}')\n"
)


def _task(key: str, table: str) -> str:
    return (
        f"        - task_key: {key}\n"
        f"          notebook_task:\n"
        f"            notebook_path: src/bronze.py\n"
        f"            base_parameters: {{table: {table}}}\n"
    )


def test_job_parameters_and_task_parameters_bind_widgets(tmp_path):
    files = {
        "aws/databricks.yml": BUNDLE % _task("bronze", "cost_bronze"),  # a bundle in a folder: found unconfigured
        "aws/src/bronze.py": WIDGET_NOTEBOOK,
    }
    assert tables(tmp_path, files)["aws/src/bronze.py"] == ["billing.aws.cost_bronze"]


def test_two_tasks_with_different_values_write_two_tables(tmp_path):
    tasks = _task("a", "cost_bronze") + _task("b", "cost_silver")
    files = {
        "databricks.yml": BUNDLE % tasks,
        "src/bronze.py": WIDGET_NOTEBOOK,
    }
    # the job parameters agree; the task parameter `table` differs: one table per task
    assert tables(tmp_path, files)["src/bronze.py"] == ["billing.aws.cost_bronze", "billing.aws.cost_silver"]
    # the same values in both tasks: one table
    same = _task("a", "cost_bronze") + _task("b", "cost_bronze")
    assert tables(tmp_path / "same", {**files, "databricks.yml": BUNDLE % same})["src/bronze.py"] == [
        "billing.aws.cost_bronze"
    ]


def test_run_time_values_and_job_parameter_references(tmp_path):
    task = (
        "        - task_key: each\n"
        "          for_each_task:\n"
        '            inputs: "{{tasks.list.values.ids}}"\n'
        "            task:\n"
        "              task_key: each_inner\n"
        "              notebook_task:\n"
        "                notebook_path: src/bronze.py\n"
        '                base_parameters: {table: "t_{{input}}", target_schema_name: "{{job.parameters.target_catalog_name}}"}\n'
    )
    files = {"databricks.yml": BUNDLE % task, "src/bronze.py": WIDGET_NOTEBOOK}
    # `{{input}}` is known only at run time; the job parameter wins over the task's own value
    assert tables(tmp_path, files)["src/bronze.py"] == ["billing.aws.{table}"]
    # inputs known in the bundle: one table per iteration
    known = {**files, "databricks.yml": files["databricks.yml"].replace('"{{tasks.list.values.ids}}"', '"[1, 2]"')}
    assert tables(tmp_path / "known", known)["src/bronze.py"] == ["billing.aws.t_1", "billing.aws.t_2"]


def test_script_arguments_bind_argv_and_argparse(tmp_path):
    bundle = """
bundle: {name: b}
resources:
  jobs:
    j:
      tasks:
        - task_key: t
          spark_python_task:
            python_file: load.py
            parameters: ["main.raw", "--schema", "gold", "--table=daily"]
"""
    code = (
        "import sys, argparse\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--schema')\np.add_argument('--table')\n"
        "args, _ = p.parse_known_args()\n"
        "args = p.parse_args()\n"
        "df.write.saveAsTable(sys.argv[1] + '.events')\n"
        "df.write.saveAsTable(f'main.{args.schema}.{args.table}')\n"
    )
    got = tables(tmp_path, {"databricks.yml": bundle, "load.py": code})
    assert got["load.py"] == ["main.gold.daily", "main.raw.events"]


def test_linked_results_are_cached_and_follow_the_module_they_read(tmp_path):
    files = {
        "config.py": "SCHEMA = 'a'\n",
        "job.py": "from config import SCHEMA\ndf.write.saveAsTable(SCHEMA + '.t')\n",
    }
    assert tables(tmp_path, files, use_cache=True)["job.py"] == ["a.t"]
    assert tables(tmp_path, {}, use_cache=True)["job.py"] == ["a.t"]
    assert tables(tmp_path, {"config.py": "SCHEMA = 'b'\n"}, use_cache=True)["job.py"] == ["b.t"]


# -- streams the code waits for ----------------------------------------------------------


def test_an_awaited_stream_does_not_overlap_the_code_after_it(lint):
    body = (
        "def upsert(batch_df, batch_id):\n"
        "    spark.sql('MERGE INTO main.s.tracker t USING u ON t.id = u.id WHEN MATCHED THEN UPDATE SET *')\n"
        "q = (src.writeStream.foreachBatch(upsert).trigger(availableNow=True).start())\n"
        "%s"
        "spark.sql(\"UPDATE main.s.tracker SET status = 'SUBMITTED' WHERE status = 'PENDING'\")\n"
    )
    awaited = lint({"job.py": body % "q.awaitTermination()\n"})
    assert not [f for f in awaited.findings if f.rule.startswith("DL1")]
    running = lint({"job.py": body % ""})
    assert [f.rule for f in running.findings if f.rule.startswith("DL1")]


# -- SQL: task parameters, IDENTIFIER, saved widget values -------------------------------------


def test_sql_task_parameters_bind_named_markers_and_identifier_concatenation(tmp_path):
    bundle = """
bundle: {name: b}
resources:
  jobs:
    copy:
      parameters:
        - {name: ctrl_catalog, default: lakefed}
        - {name: ctrl_schema, default: default}
        - {name: ctrl_table, default: control}
      tasks:
        - task_key: watermark
          sql_task:
            file: {path: update_watermark.sql}
"""
    sql = (
        "update identifier(:ctrl_catalog || '.' || :ctrl_schema || '.' || :ctrl_table)\n"
        "set start_value = :end_value\nwhere id = :task_id;\n"
    )
    assert tables(tmp_path, {"databricks.yml": bundle, "update_watermark.sql": sql})["update_watermark.sql"] == [
        "lakefed.default.control"
    ]


def test_identifier_concatenation_without_values_keeps_the_parameters(tmp_path):
    sql = "update identifier(:ctrl_catalog || '.' || :ctrl_schema || '.control') set a = 1 where id = :id;\n"
    assert tables(tmp_path, {"w.sql": sql})["w.sql"] == ["{ctrl_catalog}.{ctrl_schema}.control"]


def test_widget_values_saved_in_an_ipynb_bind_its_sql_and_python(tmp_path):
    import json

    meta = {
        "application/vnd.databricks.v1+notebook": {
            "language": "sql",
            "widgets": {
                "ctrl_catalog": {"widgetInfo": {"defaultValue": "lakefed"}},
                "ctrl_table": {"widgetInfo": {"defaultValue": "control"}},
                "empty": {"widgetInfo": {"defaultValue": ""}},
            },
        },
        "language_info": {"name": "sql"},
    }
    cells = [
        {"cell_type": "code", "source": ["use catalog identifier(:ctrl_catalog);\n", "use schema default;"]},
        {"cell_type": "code", "source": ["create table if not exists identifier(:ctrl_table) (id bigint)"]},
        {"cell_type": "code", "source": ["delete from identifier(:empty) where id = 1"]},
    ]
    nb = json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 0}, indent=1)
    assert tables(tmp_path, {"setup.ipynb": nb})["setup.ipynb"] == [
        "lakefed.default.control",
        "lakefed.default.{empty}",
    ]


# -- files no job runs ------------------------------------------------------------------------------

JOB_BUNDLE = """
bundle: {name: b}
resources:
  jobs:
    nightly:
      schedule: {quartz_cron_expression: "0 0 2 * * ?", timezone_id: UTC}
      max_concurrent_runs: 1
      tasks:
        - task_key: upsert
          notebook_task: {notebook_path: jobs/upsert.py}
"""
UPSERT = "spark.sql('MERGE INTO main.s.orders t USING u ON t.id = u.id WHEN MATCHED THEN UPDATE SET *')\n"
BY_HAND = "spark.sql('DELETE FROM main.s.orders WHERE region = \"eu\"')\n"


def _conflict_sites(result) -> set[str]:
    return {loc.path for f in result.findings if f.rule.startswith("DL1") for loc in (f.location, *f.related)}


def test_files_no_job_runs_are_run_by_hand_once_the_project_defines_its_jobs(lint):
    """`unscheduled: auto` (the default): a project whose bundle runs `jobs/upsert.py`
    says how its jobs run, so `notebooks/cleanup.py`, which no job runs, is a setup or
    exploration notebook and is not paired; `anytime` pairs it, `by-hand` never does."""
    files = {"databricks.yml": JOB_BUNDLE, "jobs/upsert.py": UPSERT, "notebooks/cleanup.py": BY_HAND}
    assert _conflict_sites(lint(files)) == set()
    assert _conflict_sites(lint(files, {"unscheduled": "anytime"})) == {"jobs/upsert.py", "notebooks/cleanup.py"}
    assert _conflict_sites(lint(files, {"unscheduled": "by-hand"})) == set()


def test_files_of_a_project_without_job_definitions_may_run_any_time(lint):
    """Nothing says how the jobs run: any file may be a job, started at any time."""
    files = {"jobs/upsert.py": UPSERT, "notebooks/cleanup.py": BY_HAND}
    assert _conflict_sites(lint(files)) == {"jobs/upsert.py", "notebooks/cleanup.py"}
    assert _conflict_sites(lint(files, {"unscheduled": "by-hand"})) == set()


def test_the_schedule_says_why_files_no_job_runs_are_not_paired(tmp_path):
    from delta_lint.report import schedule_text
    from delta_lint.run import overlap_schedule

    for name, text in {"databricks.yml": JOB_BUNDLE, "jobs/upsert.py": UPSERT, "notebooks/cleanup.py": BY_HAND}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    shown = schedule_text(overlap_schedule([tmp_path], validate({}, tmp_path / "delta-lint.yaml"), cwd=tmp_path))
    assert "Files no job schedules (1; run by hand, never paired: a file that none of the project's jobs runs" in shown
    assert "`unscheduled: anytime` pairs it with the jobs" in shown
    # and lists them among the pairs that never overlap, not the ones that may
    may, never = shown.split("Never overlap:")
    assert "files no job schedules: with each other" not in may
    assert "they are run by hand, not by a job" in never
    anytime = validate({"unscheduled": "anytime"}, tmp_path / "delta-lint.yaml")
    shown = schedule_text(overlap_schedule([tmp_path], anytime, cwd=tmp_path))
    assert "they may run at any time" in shown.split("Never overlap:")[0]


def test_job_parameter_defaults_hold_for_concurrent_runs_only_where_their_starter_leaves_them(tmp_path):
    bundle = """
bundle: {name: b}
resources:
  jobs:
    controller:
      tasks:
        - task_key: each
          for_each_task:
            inputs: "[1, 2, 3]"
            concurrency: 4
            task:
              task_key: run_copy
              run_job_task:
                job_id: ${resources.jobs.copy.id}
                job_parameters: {task_id: "{{input}}"}
    copy:
      max_concurrent_runs: 32
      parameters:
        - {name: ctrl_table, default: main.ops.control}
        - {name: task_id, default: "1"}
      tasks:
        - task_key: watermark
          sql_task: {file: {path: watermark.sql}}
    backfill:
      max_concurrent_runs: 4
      parameters:
        - {name: target, default: main.ops.daily}
      tasks:
        - task_key: load
          sql_task: {file: {path: backfill.sql}}
"""
    files = {
        "databricks.yml": bundle,
        "watermark.sql": "UPDATE IDENTIFIER(:ctrl_table) SET done = true WHERE id = :task_id;\n",
        "backfill.sql": "DELETE FROM IDENTIFIER(:target) WHERE day = :day;\n",
    }
    got = tables(tmp_path, files)
    # the controller varies task_id only: ctrl_table keeps its default in every run
    assert got["watermark.sql"] == ["main.ops.control"]
    # started by hand, concurrent runs may each name another table
    assert got["backfill.sql"] == ["{target}"]


# -- jobs found without configuration --------------------------------------------------------------

UPDATE_A = "spark.sql(\"UPDATE main.s.events SET x = 1 WHERE kind = 'a'\")\n"
UPDATE_B = "spark.sql(\"UPDATE main.s.events SET x = 2 WHERE kind = 'b'\")\n"


def _conflicts(result) -> list[str]:
    return sorted(f.rule for f in result.findings if f.rule.startswith("DL1"))


def test_a_job_written_as_a_literal_dict_in_a_runme_notebook_is_its_schedule(lint):
    runme = NB + (
        "job_json = {\n"
        '    "name": "clickstream",\n'
        '    "tasks": [\n'
        '        {"task_key": "a", "notebook_task": {"notebook_path": f"1a_Publish"}},\n'
        '        {"task_key": "b", "depends_on": [{"task_key": "a"}], "notebook_task": {"notebook_path": "1b_Train"}},\n'
        "    ],\n"
        "}\n"
        "NotebookSolutionCompanion().deploy_compute(job_json, run_job=True)\n"
    )
    files = {"1a_Publish.py": NB + UPDATE_A, "1b_Train.py": NB + UPDATE_B}
    assert _conflicts(lint(files)) == ["DL102"]  # unscheduled: they may run at the same time
    assert _conflicts(lint({**files, "RUNME.py": runme})) == []  # b depends on a


def test_jobs_json_files_are_found_by_their_shape(lint):
    import json

    job = {
        "job_id": 1,
        "settings": {
            "name": "ordered",
            "tasks": [
                {"task_key": "a", "notebook_task": {"notebook_path": "../jobs/a"}},
                {"task_key": "b", "depends_on": [{"task_key": "a"}], "notebook_task": {"notebook_path": "../jobs/b"}},
            ],
        },
    }
    files = {"jobs/a.py": UPDATE_A, "jobs/b.py": UPDATE_B}
    assert _conflicts(lint(files)) == ["DL102"]
    # a broken file merely found is not the user's configuration: the others are still read
    result = lint({**files, "exports/ordered.json": json.dumps(job), "exports/broken.json": '{"task_key": '})
    assert _conflicts(result) == []


# -- Lakeflow pipelines --------------------------------------------------------------------------------

PIPELINE_BUNDLE = """
bundle: {name: lf}
resources:
  pipelines:
    orders:
      catalog: main
      schema: sales
      libraries:
        - file: {path: pipelines/bronze.sql}
        - notebook: {path: pipelines/silver.py}
  jobs:
    refresh:
      tasks:
        - task_key: update
          pipeline_task: {pipeline_id: "${resources.pipelines.orders.id}"}
    gdpr:
      tasks:
        - task_key: purge
          sql_task: {file: {path: jobs/purge.sql}}
"""
PIPELINE_FILES = {
    "pipelines/bronze.sql": (
        "CREATE OR REFRESH STREAMING TABLE orders_bronze AS SELECT * FROM STREAM read_files('/Volumes/raw/o');\n"
        "CREATE OR REFRESH MATERIALIZED VIEW orders_daily AS SELECT day, count(*) FROM orders_bronze GROUP BY day;\n"
    ),
    "pipelines/silver.py": (
        "import dlt\n\n"
        '@dlt.table(name="orders_silver")\n'
        "def silver():\n"
        '    return spark.readStream.table("orders_bronze")\n\n'
        'dlt.create_streaming_table("customers")\n'
        'dlt.apply_changes(target="customers", source="cdc", keys=["id"], sequence_by="ts")\n'
    ),
    "jobs/purge.sql": "UPDATE main.sales.customers SET email = NULL WHERE id = 42;\n",
}


def test_a_bundle_pipeline_is_one_writer_of_the_tables_its_files_define(tmp_path, lint):
    got = tables(tmp_path, {"databricks.yml": PIPELINE_BUNDLE, **PIPELINE_FILES})
    assert got["pipelines/bronze.sql"] == ["main.sales.orders_bronze", "main.sales.orders_daily"]
    assert got["pipelines/silver.py"] == ["main.sales.customers", "main.sales.orders_silver"]
    result = lint({"databricks.yml": PIPELINE_BUNDLE, **PIPELINE_FILES})
    (finding,) = [f for f in result.findings if f.rule.startswith("DL1")]
    assert finding.table == "main.sales.customers" and finding.rule == "DL102"  # the GDPR update vs the CDC merge
    assert not result.skipped  # the pipeline's files are read, not skipped


def test_pipeline_files_no_bundle_pipeline_runs_stay_skipped(tmp_path):
    got = tables(tmp_path, PIPELINE_FILES)
    assert "pipelines/bronze.sql" not in got and "pipelines/silver.py" not in got


# -- dbutils.notebook.run ---------------------------------------------------------------------------


def test_a_child_notebook_runs_in_its_callers_task_with_its_arguments(tmp_path, lint):
    bundle = """
bundle: {name: b}
resources:
  jobs:
    nightly:
      tasks:
        - task_key: orchestrate
          notebook_task: {notebook_path: orchestrate.py}
"""
    child = NB + (
        'dbutils.widgets.text("schema", "")\n'
        'schema = dbutils.widgets.get("schema")\n'
        "spark.sql(f\"UPDATE main.{schema}.orders SET late = true WHERE status = 'open'\")\n"
    )
    caller = NB + (
        'dbutils.notebook.run("./children/load", 600, {"schema": "sales"})\n'
        "spark.sql(\"DELETE FROM main.sales.orders WHERE status = 'void'\")\n"
    )
    files = {"databricks.yml": bundle, "orchestrate.py": caller, "children/load.py": child}
    assert tables(tmp_path, files)["children/load.py"] == ["main.sales.orders"]
    # one task runs both in order: no conflict between them
    assert not [f for f in lint(files).findings if f.rule.startswith("DL1")]
    # the same notebook no job runs: run by hand, or, when said to, at any time beside the job
    alone = {**files, "orchestrate.py": NB + "spark.sql(\"DELETE FROM main.sales.orders WHERE status = 'void'\")\n"}
    alone["children/load.py"] = child.replace('"schema", ""', '"schema", "sales"')  # its widget's default
    assert not [f for f in lint(alone).findings if f.rule.startswith("DL1")]
    assert [f for f in lint(alone, {"unscheduled": "anytime"}).findings if f.rule.startswith("DL1")]


def test_a_child_notebook_whose_folder_only_a_run_knows_is_found_by_its_tail(tmp_path):
    child = NB + (
        'dbutils.widgets.text("schema", "")\n'
        'schema = dbutils.widgets.get("schema")\n'
        "spark.sql(f\"UPDATE main.{schema}.orders SET late = true WHERE status = 'open'\")\n"
    )
    caller = NB + 'dbutils.notebook.run(f"{base_path()}/children/load", 600, {"schema": "sales"})\n'
    files = {"orchestrate.py": caller, "children/load.py": child}
    assert tables(tmp_path, files)["children/load.py"] == ["main.sales.orders"]
    # a folder and a name both only a run knows: no child is guessed
    unknown = {**files, "orchestrate.py": caller.replace("/children/load", "/children/{name}")}
    assert tables(tmp_path / "unknown", unknown)["children/load.py"] == ["main.{schema}.orders"]


def test_a_workspace_path_finds_its_notebook_whatever_folder_is_checked(tmp_path):
    """A workspace path names a notebook by its tail whether delta-lint is run from
    the project's root, from above it or from outside it."""
    child = NB + (
        "schema = dbutils.widgets.get('schema')\n"
        "spark.sql(f\"UPDATE main.{schema}.orders SET late = true WHERE status = 'open'\")\n"
    )
    setup = NB + "SCHEMA = 'sales'\n"
    caller = NB + (
        "# MAGIC %run /Workspace/Repos/team/shop/notebooks/setup\n"
        + SEP
        + 'dbutils.notebook.run(f"{base_path()}/notebooks/children/load", 600, {"schema": SCHEMA})\n'
    )
    files = {"notebooks/orchestrate.py": caller, "notebooks/children/load.py": child, "notebooks/setup.py": setup}
    for name, text in files.items():
        path = tmp_path / "repo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    cfg = validate({}, tmp_path / "delta-lint.yaml")
    for checked, cwd in (
        (tmp_path / "repo" / "notebooks", tmp_path / "repo" / "notebooks"),
        (tmp_path / "repo" / "notebooks", tmp_path / "repo"),
        (tmp_path / "repo", tmp_path),
    ):
        results, _, _ = analyze([checked], cfg, cwd=cwd, use_cache=False)
        got = {r.path.rpartition("notebooks/")[2]: sorted(i.table.name for i in r.intents) for r in results}
        assert got["children/load.py"] == ["main.sales.orders"], (checked, cwd)
    # two notebooks end with the longest tail any file ends with: neither is guessed
    (tmp_path / "repo" / "other" / "children").mkdir(parents=True)
    (tmp_path / "repo" / "other" / "notebooks" / "children").mkdir(parents=True)
    (tmp_path / "repo" / "other" / "notebooks" / "children" / "load.py").write_text(child, encoding="utf-8")
    results, _, _ = analyze([tmp_path / "repo"], cfg, cwd=tmp_path, use_cache=False)
    got = {r.path: sorted(i.table.name for i in r.intents) for r in results}
    assert got["repo/notebooks/children/load.py"] == ["main.{schema}.orders"]


def test_a_literal_workspace_path_is_not_matched_by_its_name_alone_in_another_folder(tmp_path):
    """`%run /Shared/common/config` names a notebook of the workspace's `common`
    folder: the project's only `config` notebook, in `etl/`, is not taken for it (a
    folder only a run knows, `f"{base}/config"`, has nothing but its name to go by)."""
    config = NB + 'TABLE = "main.s.events"\n'
    caller = NB + "# MAGIC %run /Shared/common/config\n" + SEP + 'spark.sql(f"UPDATE {TABLE} SET x = 1 WHERE id = 7")\n'
    files = {"etl/config.py": config, "jobs/caller.py": caller}
    assert tables(tmp_path / "literal", files)["jobs/caller.py"] == ["{TABLE}"]
    files["jobs/caller.py"] = caller.replace("/Shared/common/config", "/Shared/etl/config")
    assert tables(tmp_path / "folder", files)["jobs/caller.py"] == ["main.s.events"]


# -- helpers of other files ------------------------------------------------------------------------


def test_helpers_of_imported_modules_and_run_notebooks_are_read_at_each_call(tmp_path):
    util = (
        "from delta.tables import DeltaTable\n\n"
        "def save_table(df, table_name, mode='overwrite'):\n"
        "    df.write.format('delta').mode(mode).saveAsTable(table_name)\n\n"
        "def upsert(spark, df, table_name):\n"
        "    (DeltaTable.forName(spark, table_name).alias('t')\n"
        "        .merge(df.alias('s'), 't.id = s.id').whenMatchedUpdateAll().execute())\n"
    )
    files = {
        "lib/util.py": util,
        "jobs/load.py": (
            "from lib.util import save_table, upsert as merge_into\n"
            "import lib.util as u\n"
            "save_table(df, 'main.s.a')\n"
            "merge_into(spark, df, 'main.s.b')\n"
            "u.save_table(df, 'main.s.c', mode='append')\n"
        ),
        "setup.py": NB + "def purge(t):\n    spark.sql(f'DELETE FROM {t} WHERE old')\n",
        "nb.py": NB + "# MAGIC %run ./setup\n" + SEP + "purge('main.s.d')\n",
    }
    results = linked(tmp_path, files)
    got = {r.path: [(i.location.line, i.table.name, i.kind.value) for i in r.intents] for r in results}
    assert got["jobs/load.py"] == [
        (3, "main.s.a", "full_overwrite"),
        (4, "main.s.b", "merge"),
        (5, "main.s.c", "blind_append"),
    ]
    assert got["nb.py"] == [(5, "main.s.d", "delete")]
    # the module's own functions are read at those calls, not again where they are written
    assert got["lib/util.py"] == []
    alone = {"lib/util.py": util, "jobs/other.py": "print('no call')\n"}
    # nobody calls them: `mode` is then any mode, so `save_table` is one of an append and an overwrite
    assert tables(tmp_path / "alone", alone)["lib/util.py"] == ["{table_name}"] * 3


def test_a_package_of_the_project_installed_on_the_cluster_is_found_by_its_path(tmp_path):
    files = {
        "src/ddo_transform/ddo_transform/util.py": (
            "def save_overwrite(spark, dataframe, table_name):\n"
            "    dataframe.write.mode('overwrite').saveAsTable(table_name)\n"
        ),
        "databricks/notebooks/transform.py": NB
        + "import ddo_transform.util as util\nutil.save_overwrite(spark, df, table_name='main.dw.dim_location')\n",
        # two modules of one name: which one is meant cannot be told
        "a/common/names.py": "T = 'main.a.t'\n",
        "b/common/names.py": "T = 'main.b.t'\n",
        "c/job.py": "from common.names import T\ndf.write.saveAsTable(T)\n",
    }
    got = tables(tmp_path, files)
    assert got["databricks/notebooks/transform.py"] == ["main.dw.dim_location"]
    assert got["c/job.py"] == ["{T}"]


def test_a_run_notebook_that_sets_up_its_schema_through_a_class_of_its_own_run(tmp_path):
    files = {
        "_resources/00-global-setup.py": NB
        + (
            "class DBDemos:\n"
            "  @staticmethod\n"
            "  def setup_schema(catalog, db, reset_all_data):\n"
            "    def use_and_create_db(catalog, dbName):\n"
            '      spark.sql(f"USE CATALOG `{catalog}`")\n'
            '      spark.sql(f"CREATE DATABASE IF NOT EXISTS `{dbName}`")\n'
            "    use_and_create_db(catalog, db)\n"
            '    spark.sql(f"USE `{catalog}`.`{db}`")\n'
        ),
        "cdc/_resources/00-setup.py": NB
        + "# MAGIC %run ../../_resources/00-global-setup\n"
        + SEP
        + "catalog = 'main__build'\ndb = 'dbdemos_cdc'\nDBDemos.setup_schema(catalog, db, False)\n",
        "cdc/01-pipeline.py": NB
        + "# MAGIC %run ./_resources/00-setup $reset_all_data=false\n"
        + SEP
        + "df.writeStream.option('checkpointLocation', '/chk/a').table('clients_cdc')\n",
    }
    got = tables(tmp_path, files)
    assert got["cdc/01-pipeline.py"] == ["main__build.dbdemos_cdc.clients_cdc"]
    # without the global setup (outside the analysed folder) the name stays as written
    assert tables(tmp_path / "cdc", {})["01-pipeline.py"] == ["clients_cdc"]


# -- one file, several tasks, different values -----------------------------------------------------

INGEST = (
    "import argparse\n\n"
    "def parse_arguments():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--task_key')\n"
    "    parser.add_argument('--env', default='dev')\n"
    "    args = parser.parse_args()\n"
    "    return args\n\n"
    "def setup_configuration(args):\n"
    "    ref_name = args.task_key.split('__')[1]\n"
    "    table = args.task_key.split('__')[2]\n"
    "    cfg = {'catalog': f'uc_bronze_{args.env}', 'schema': ref_name, 'table': table}\n"
    "    return cfg, {'header': 'true'}\n\n"
    "def save(df, catalog, schema, table):\n"
    "    df.write.mode('overwrite').option('overwriteSchema', 'true').saveAsTable(f'{catalog}.{schema}.{table}')\n\n"
    "def main():\n"
    "    args = parse_arguments()\n"
    "    cfg, read_opt = setup_configuration(args)\n"
    "    save(df, catalog=cfg['catalog'], schema=cfg['schema'], table=cfg['table'])\n\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def _ingest_bundle(keys: list[str], runs: int = 1) -> str:
    tasks = "".join(
        f"        - task_key: {key}\n"
        "          spark_python_task:\n"
        "            python_file: ingest.py\n"
        '            parameters: ["--env", "${bundle.target}", "--task_key", "{{task.name}}"]\n'
        for key in keys
    )
    return (
        "bundle: {name: lake}\ntargets: {dev: {default: true}}\n"
        f"resources:\n  jobs:\n    ingestion:\n      max_concurrent_runs: {runs}\n      tasks:\n{tasks}"
    )


def test_each_task_that_runs_a_file_with_its_own_values_names_its_own_table(tmp_path):
    bundle = _ingest_bundle(["bronze__olist__customers", "bronze__olist__orders"])
    got = tables(tmp_path, {"databricks.yml": bundle, "ingest.py": INGEST})
    # {{task.name}} is each task's key; split, a returned dict and tuple, the helper's keywords
    assert got["ingest.py"] == ["uc_bronze_dev.olist.customers", "uc_bronze_dev.olist.orders"]


def test_one_task_one_table_and_a_value_known_only_at_run_time_stays_a_parameter(tmp_path):
    one = tables(
        tmp_path / "one", {"databricks.yml": _ingest_bundle(["bronze__olist__customers"]), "ingest.py": INGEST}
    )
    assert one["ingest.py"] == ["uc_bronze_dev.olist.customers"]
    run_time = _ingest_bundle(["a__b__c", "d__e__f"]).replace("{{task.name}}", "{{job.start_time.iso_date}}")
    got = tables(tmp_path / "rt", {"databricks.yml": run_time, "ingest.py": INGEST})
    assert len(got["ingest.py"]) == 1 and "{" in got["ingest.py"][0]


def test_concurrent_runs_of_each_task_conflict_on_that_tasks_table(lint):
    bundle = _ingest_bundle(["bronze__olist__customers", "bronze__olist__orders"], runs=3)
    result = lint({"databricks.yml": bundle, "ingest.py": INGEST})
    tables_hit = {f.table for f in result.findings if f.rule.startswith("DL1")}
    assert tables_hit == {"uc_bronze_dev.olist.customers", "uc_bronze_dev.olist.orders"}


def test_variables_declared_in_included_files_resolve(tmp_path):
    bundle = """
bundle: {name: b}
include: [vars/*.yml, resources/*.yml]
"""
    files = {
        "databricks.yml": bundle,
        "vars/common.vars.yml": "variables:\n  catalog: {default: mon}\n  schema: {default: ops}\n",
        "resources/job.yml": (
            "resources:\n  jobs:\n    j:\n      parameters:\n"
            '        - {name: target_catalog_name, default: "${var.catalog}"}\n'
            '        - {name: target_schema_name, default: "${var.schema}"}\n'
            "      tasks:\n        - task_key: t\n          notebook_task: {notebook_path: ../src/bronze.py}\n"
        ),
        "src/bronze.py": WIDGET_NOTEBOOK,
    }
    assert tables(tmp_path, files)["src/bronze.py"] == ["mon.ops.{table}"]


def test_a_parameter_naming_a_bundle_schema_resource_takes_its_name(tmp_path):
    """`${resources.schemas.monitoring.name}` is the name the schema resource is
    given (itself from a variable); a reference to a resource the bundle does not
    define stays a parameter."""
    bundle = """
bundle: {name: b}
include: [resources/*.yml]
variables:
  catalog: {default: mon}
  schema: {default: ops}
"""
    job = (
        "resources:\n  jobs:\n    j:\n      tasks:\n        - task_key: t\n          notebook_task:\n"
        "            notebook_path: ../src/bronze.py\n            base_parameters:\n"
        '              target_catalog_name: "${resources.schemas.monitoring.catalog_name}"\n'
        '              target_schema_name: "${resources.schemas.SCHEMA.name}"\n'
        '              table: "t"\n'
    )
    schema = "resources:\n  schemas:\n    monitoring:\n      name: ${var.schema}\n      catalog_name: ${var.catalog}\n"
    files = {
        "databricks.yml": bundle,
        "resources/schema.yml": schema,
        "resources/job.yml": job.replace("SCHEMA", "monitoring"),
        "src/bronze.py": WIDGET_NOTEBOOK,
    }
    assert tables(tmp_path / "a", files)["src/bronze.py"] == ["mon.ops.t"]
    unknown = {**files, "resources/job.yml": job.replace("SCHEMA", "other")}
    assert tables(tmp_path / "b", unknown)["src/bronze.py"] == ["mon.{target_schema_name}.t"]


def test_more_tasks_than_readings_allowed_keep_the_parameter(tmp_path):
    from delta_lint.link import MAX_VARIANTS

    keys = [f"bronze__olist__t{i}" for i in range(MAX_VARIANTS + 1)]
    got = tables(tmp_path, {"databricks.yml": _ingest_bundle(keys), "ingest.py": INGEST})
    assert len(got["ingest.py"]) == 1 and "{" in got["ingest.py"][0]
    at_most = tables(tmp_path / "cap", {"databricks.yml": _ingest_bundle(keys[:MAX_VARIANTS]), "ingest.py": INGEST})
    assert len(at_most["ingest.py"]) == MAX_VARIANTS


def test_a_pipeline_no_job_starts_is_a_writer_of_its_own(lint):
    bundle = PIPELINE_BUNDLE.replace(
        'pipeline_task: {pipeline_id: "${resources.pipelines.orders.id}"}',
        "notebook_task: {notebook_path: jobs/none.py}",
    )
    bundle = bundle.replace("      schema: sales\n", "      schema: sales\n      continuous: true\n")
    result = lint({"databricks.yml": bundle, **PIPELINE_FILES, "jobs/none.py": "print(1)\n"})
    (finding,) = [f for f in result.findings if f.rule.startswith("DL1")]
    assert finding.table == "main.sales.customers" and "job `pipeline orders`" in finding.overlap


SDK_JOB = NB + (
    "notebook_path = dbutils.notebook.entry_point.getDbutils().notebook().getContext().notebookPath().get()\n"
    "base_path = f\"/Workspace{notebook_path}\".rsplit('/', 1)[0]\n"
    "config = Job.from_dict({\n"
    '    "name": "process",\n'
    '    "max_concurrent_runs": RUNS,\n'
    '    "tasks": [{"task_key": "p", "notebook_task": {\n'
    '        "notebook_path": f"{base_path}/process", "base_parameters": {"day": ""}}}],\n'
    "})\n"
    "w.jobs.create(**config.as_dict())\n"
)
PROCESS = NB + (
    "day = dbutils.widgets.get('day')\n"
    "spark.sql(f\"DELETE FROM main.s.log WHERE day = '{day}'\")\n"
    "spark.sql(\"UPDATE main.s.totals SET n = 0 WHERE kind = 'x'\")\n"
)


def test_a_job_handed_to_the_sdk_with_a_folder_only_a_run_knows_is_its_schedule(lint):
    """`Job.from_dict({...})` defines the job; `f"{base_path}/process"` names the
    notebook by its tail, next to the file that defines the job."""
    alone = lint({"process.py": PROCESS})
    assert _conflicts(alone) == []  # a file no job runs: one run at a time
    settings = {"tables": {"main.s.log": {"partitioned_by": ["day"]}}}
    many = lint({"process.py": PROCESS, "jobs.py": SDK_JOB.replace("RUNS", "10")}, settings)
    # ten runs at once: the UPDATE meets itself; each run deletes its own day while
    # the runs' days differ (an empty default is the value a run is started with, not
    # the value ''): two runs given one day meet, said at info
    found = [(f.rule, f.table, f.severity) for f in many.findings if f.rule.startswith("DL1")]
    assert found == [("DL102", "main.s.log", "info"), ("DL102", "main.s.totals", "error")]
    one = lint({"process.py": PROCESS, "jobs.py": SDK_JOB.replace("RUNS", "1")}, settings)
    assert _conflicts(one) == []


def test_the_schedule_command_shows_the_jobs_only_the_code_defines(tmp_path):
    """`delta-lint schedule` draws the graph `check` judges with: a job handed to the
    SDK in a notebook is there, with where it was found."""
    from delta_lint import report
    from delta_lint.config import validate
    from delta_lint.run import overlap_schedule

    (tmp_path / "process.py").write_text(PROCESS)
    (tmp_path / "jobs.py").write_text(SDK_JOB.replace("RUNS", "10"))
    lines = list(report.schedule_lines(overlap_schedule([tmp_path], validate({}, tmp_path / "x"), cwd=tmp_path)))
    assert lines[0] == "Jobs from jobs.py:"
    assert any("allows 10 concurrent runs" in line for line in lines)


# -- a table named by job inputs, written by the concurrent runs of a for_each task --------

FOR_EACH_BUNDLE = """
bundle: {name: b}
resources:
  jobs:
    transform:
      parameters:
        - {name: app_configs, default: ""}
      tasks:
        - task_key: ingest
          notebook_task: {notebook_path: ./ingest.py}
        - task_key: call_agents
          depends_on: [{task_key: ingest}]
          for_each_task:
            inputs: "{{tasks.ingest.values.ids}}"
            concurrency: 8
            task:
              task_key: call_agent
              notebook_task:
                notebook_path: ./call_agents.py
                base_parameters: {record_id: "{{input}}"}
"""

CALL_AGENTS = """# Databricks notebook source
import json
app_configs = json.loads(dbutils.widgets.get("app_configs"))
record_id = dbutils.widgets.get("record_id")
target = f'{app_configs["CATALOG"]}.{app_configs["SCHEMA"]}.{TABLE}'
spark.sql(f"MERGE INTO {target} AS t USING response{record_id} AS s ON t.id = s.id "
          "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")
"""


def _for_each_findings(lint, table_expr: str, concurrency: int = 8):
    code = CALL_AGENTS.replace("{TABLE}", table_expr)
    bundle = FOR_EACH_BUNDLE.replace("concurrency: 8", f"concurrency: {concurrency}")
    result = lint({"databricks.yml": bundle, "ingest.py": "print(1)\n", "call_agents.py": code})
    return [(f.rule, f.table, f.exception) for f in result.findings if not f.rule.startswith("DL0")]


def test_a_table_named_by_job_inputs_is_one_table_in_every_run_of_a_for_each_task(lint):
    # the name is a JSON job parameter's fields: unknown, but the same in each
    # iteration (only record_id, fed by {{input}}, differs between them)
    got = _for_each_findings(lint, '{app_configs["TABLE"]}')
    assert got == [
        (
            "DL102",
            "{app_configs_CATALOG}.{app_configs_SCHEMA}.{app_configs_TABLE}",
            "ConcurrentAppendException",
        )
    ]


def test_the_intents_json_names_the_job_inputs_a_table_name_is_built_from(tmp_path):
    code = CALL_AGENTS.replace("{TABLE}", '{app_configs["TABLE"]}')
    results = linked(tmp_path, {"databricks.yml": FOR_EACH_BUNDLE, "ingest.py": "print(1)\n", "call_agents.py": code})
    written = [i.to_json() for r in results for i in r.intents if r.path == "call_agents.py" and i.table]
    assert written and all(w["name_inputs"] == ["app_configs"] for w in written)


def test_a_table_named_by_the_iteration_input_differs_between_runs(lint):
    assert _for_each_findings(lint, "{record_id}") == []


def test_a_table_named_by_something_only_a_run_knows_is_not_judged(lint):
    assert _for_each_findings(lint, "{datetime.now().strftime('%Y')}") == []


def test_a_for_each_task_running_one_at_a_time_has_no_concurrent_runs(lint):
    assert _for_each_findings(lint, '{app_configs["TABLE"]}', concurrency=1) == []


def test_a_json_job_parameter_with_a_value_gives_its_fields(lint):
    bundle = FOR_EACH_BUNDLE.replace(
        '{name: app_configs, default: ""}', """{name: app_configs, default: '{"CATALOG": "main", "SCHEMA": "ops"}'}"""
    )
    code = CALL_AGENTS.replace("{TABLE}", "log")
    result = lint({"databricks.yml": bundle, "ingest.py": "print(1)\n", "call_agents.py": code})
    assert [(f.rule, f.table) for f in result.findings if not f.rule.startswith("DL0")] == [("DL102", "main.ops.log")]


def test_a_schema_named_by_the_iteration_input_differs_between_runs(lint):
    # `{record_id}.s.t` is paired by its text elsewhere (the same widget, the same
    # schema); in a for_each task each iteration gives the widget its own value
    code = CALL_AGENTS.replace(
        'target = f\'{app_configs["CATALOG"]}.{app_configs["SCHEMA"]}.{TABLE}\'', "target = f'{record_id}.s.t'"
    )
    result = lint({"databricks.yml": FOR_EACH_BUNDLE, "ingest.py": "print(1)\n", "call_agents.py": code})
    assert [f.rule for f in result.findings if not f.rule.startswith("DL0")] == []


# -- jobs an installer creates with the SDK's dataclasses -------------------------------------------

INSTALLER = (
    "from databricks.sdk.service.jobs import Task, NotebookTask, TaskDependency, ForEachTask, JobParameterDefinition\n"
    "from databricks.sdk.service import jobs\n"
    "\n"
    "\n"
    "class JobsInfra:\n"
    "    def __init__(self, config, workspace_client):\n"
    "        self.w = workspace_client\n"
    '        self.job_name = "code_transformation"\n'
    '        self.notebook_root_path = f"/Workspace/Users/{self.w.current_user.me().user_name}/.assistant/jobs/"\n'
    '        self.job_parameters = [JobParameterDefinition("app_configs", "")]\n'
    "        self.job_tasks = [\n"
    "            Task(\n"
    '                task_key="ingest_to_holding",\n'
    '                notebook_task=NotebookTask(notebook_path=self.notebook_root_path + "bronze_to_silver"),\n'
    "            ),\n"
    "            Task(\n"
    '                task_key="call_agents",\n'
    "                for_each_task=ForEachTask(\n"
    '                    inputs="{{tasks.ingest_to_holding.values.new_record_ids}}",\n'
    "                    task=Task(\n"
    '                        task_key="call_agent",\n'
    "                        notebook_task=NotebookTask(\n"
    '                            notebook_path=self.notebook_root_path + "call_agents",\n'
    '                            base_parameters={"record_id": "{{input}}"},\n'
    "                            source=jobs.Source.WORKSPACE,\n"
    "                        ),\n"
    "                    ),\n"
    "                    concurrency=8,\n"
    "                ),\n"
    '                depends_on=[TaskDependency(task_key="ingest_to_holding")],\n'
    "            ),\n"
    "        ]\n"
    "\n"
    "    def create_transformation_job(self):\n"
    "        job_id = self.w.jobs.create(name=self.job_name, tasks=self.job_tasks, parameters=self.job_parameters)\n"
    '        self.config["JOB_ID"] = job_id.job_id\n'
)
AGENT = NB + (
    "record_id = dbutils.widgets.get('record_id')\n"
    'spark.sql("MERGE INTO main.s.code_intent t USING (SELECT 1 AS id) s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *")\n'
)
INSTALLED = {"jobs/bronze_to_silver.py": NB + "print(1)\n", "jobs/call_agents.py": AGENT}


def _defined_jobs(tmp_path: Path, files: dict[str, str]) -> dict:
    from delta_lint.run import overlap_schedule

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return overlap_schedule([tmp_path], validate({}, tmp_path / "x"), cwd=tmp_path).workflows.jobs


def test_a_job_an_installer_creates_with_sdk_dataclasses_is_its_schedule(tmp_path):
    """`self.w.jobs.create(tasks=self.job_tasks)` in a method, the tasks built in
    `__init__` from `Task(...)` calls and a workspace folder only the install knows:
    the for_each task runs jobs/call_agents.py eight at a time after the first task,
    each iteration with its own `{{input}}`."""
    jobs = _defined_jobs(tmp_path, {**INSTALLED, "infra/jobs_infra.py": INSTALLER})
    job = jobs["code_transformation"]
    assert job.location.path == "infra/jobs_infra.py" and job.parameters == ("app_configs",)
    assert job.tasks["ingest_to_holding"].files == ("jobs/bronze_to_silver.py",)
    each = job.tasks["call_agents"]
    assert (each.kind, each.files, each.for_each_concurrency) == ("for_each_task", ("jobs/call_agents.py",), 8)
    assert each.depends_on == ("ingest_to_holding",) and each.problem is None
    assert ("record_id", None) in each.arguments  # `{{input}}`: known only at run time


def test_eight_iterations_of_an_installed_for_each_task_meet_on_their_merge(lint):
    alone = lint(INSTALLED)
    assert _conflicts(alone) == []  # no job: each file runs alone, one run at a time
    installed = lint({**INSTALLED, "infra/jobs_infra.py": INSTALLER})
    # the MERGEs of eight iterations at once read the same files
    assert [(f.rule, f.table) for f in installed.findings if f.rule.startswith("DL1")] == [
        ("DL102", "main.s.code_intent")
    ]


def test_the_schedule_command_names_the_job_an_installer_creates(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from delta_lint.cli import app

    for name, text in {**INSTALLED, "infra/jobs_infra.py": INSTALLER}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["schedule", "."])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:3] == [
        "Jobs from infra/jobs_infra.py:",
        "  code_transformation (no schedule; max_concurrent_runs 1; parameters app_configs)",
        "    ingest_to_holding: jobs/bronze_to_silver.py",
    ]
    assert "    call_agents after ingest_to_holding for_each x8: jobs/call_agents.py" in lines


RESET = (
    "from databricks.sdk.service.jobs import JobSettings, CronSchedule, PauseStatus, Task, SparkPythonTask\n"
    "from databricks.sdk.service import jobs\n"
    'ROOT = "/Workspace/Shared/app"\n'
    "def nightly(w, job_id):\n"
    "    script = ROOT + '/jobs/bronze_to_silver.py'\n"
    "    settings = JobSettings(\n"
    '        name="nightly",\n'
    "        max_concurrent_runs=2,\n"
    '        schedule=CronSchedule(quartz_cron_expression="0 0 2 * * ?", timezone_id="UTC", pause_status=STATUS),\n'
    '        tasks=[jobs.Task(task_key="load", spark_python_task=SparkPythonTask(python_file=script))],\n'
    "    )\n"
    "    w.jobs.reset(job_id, settings)\n"
)


def test_a_job_reset_with_sdk_settings_reads_names_and_enum_members(tmp_path):
    """`w.jobs.reset(job_id, JobSettings(...))`: the settings from a local name, the
    path from a module constant; a Jobs enum member is its name (`PauseStatus.PAUSED`
    is "PAUSED"), so a paused schedule stays paused."""
    paused = _defined_jobs(tmp_path / "p", {**INSTALLED, "deploy.py": RESET.replace("STATUS", "PauseStatus.PAUSED")})
    job = paused["nightly"]
    assert job.tasks["load"].files == ("jobs/bronze_to_silver.py",) and job.max_concurrent_runs == 2
    assert job.cron == ("0 0 2 * * ?", "UTC") and job.paused
    running = _defined_jobs(
        tmp_path / "r", {**INSTALLED, "deploy.py": RESET.replace("STATUS", "jobs.PauseStatus.UNPAUSED")}
    )
    assert not running["nightly"].paused


HELPERS = NB + (
    "def get_validation_job_id():\n"
    '    job_name = "validation_" + get_current_username()\n'
    "    notebook_path = dbutils.entry_point.getDbutils().notebook().getContext().notebookPath().get()\n"
    "    base_path = '/'.join(notebook_path.split('/')[:-1])\n"
    "    from databricks.sdk.service.jobs import Task, NotebookTask\n"
    "    job = w.jobs.create(\n"
    "        name=job_name,\n"
    "        tasks=[Task(task_key='validate', notebook_task=NotebookTask(f'{base_path}/validate'))],\n"
    "    )\n"
    "    return job.job_id\n"
)
DEPLOY = NB + (
    "job_settings = jobs.JobSettings(\n"
    '    name="deploy", max_concurrent_runs=3,\n'
    '    tasks=[jobs.Task(task_key="d", notebook_task=jobs.NotebookTask(notebook_path="jobs/deploy"))],\n'
    ")\n"
    "if job_id:\n"
    "    w.jobs.update(job_id=job_id, new_settings=job_settings)\n"
    "else:\n"
    "    created_job = w.jobs.create(**job_settings.__dict__)\n"
)


def test_sdk_jobs_with_positional_fields_and_settings_spread_into_create(tmp_path):
    """`NotebookTask(f"{base_path}/validate")` names its notebook by position (a job
    with an unknown name is keyed by its file); `jobs.create(**job_settings.__dict__)`
    reads the settings the name holds."""
    jobs = _defined_jobs(
        tmp_path, {"validate.py": NB + "print(1)\n", "jobs/deploy.py": NB + "print(1)\n", "helpers.py": HELPERS}
    )
    assert jobs["helpers"].tasks["validate"].files == ("validate.py",)
    jobs = _defined_jobs(tmp_path, {"deploy_job.py": DEPLOY})
    assert jobs["deploy"].tasks["d"].files == ("jobs/deploy.py",) and jobs["deploy"].max_concurrent_runs == 3


OTHER_CREATES = (
    "from databricks.sdk import WorkspaceClient\n"
    "w = WorkspaceClient()\n"
    'w.clusters.create(cluster_name="c", spark_version="15.4.x-scala2.12", num_workers=1)\n'
    'spark.catalog.createTable("main.s.t", source="delta")\n'
    'w.pipelines.create(name="p", libraries=[PipelineLibrary(notebook=NotebookLibrary(path="/x"))])\n'
)
UNREADABLE_TASKS = (
    "from databricks.sdk import WorkspaceClient\n"
    "def deploy(w: WorkspaceClient, tasks, settings):\n"
    '    w.jobs.create(name="from_arguments", tasks=tasks)\n'
    "    w.jobs.create(**settings.as_dict())\n"
    '    built = [Task(task_key="a", notebook_task=NotebookTask(notebook_path="jobs/call_agents"))]\n'
    '    built.append(Task(task_key="b", notebook_task=NotebookTask(notebook_path="jobs/bronze_to_silver")))\n'
    '    w.jobs.create(name="appended", tasks=built)\n'
    '    w.jobs.create(name="either", tasks=TASKS)\n'
    "    w.jobs.reset(job_id=1, new_settings=settings)\n"
    'TASKS = [Task(task_key="a", notebook_task=NotebookTask(notebook_path="jobs/call_agents"))]\n'
    "if w.current_user.me().user_name.endswith('@ops.org'):\n"
    '    TASKS = [Task(task_key="b", notebook_task=NotebookTask(notebook_path="jobs/bronze_to_silver"))]\n'
)


def test_other_creates_and_unreadable_sdk_jobs_define_no_job(tmp_path):
    """Only `.jobs.create(...)` / `.jobs.reset(...)` define a job, and only with tasks
    that read as tasks: tasks from a parameter, a list appended to or a name set one
    way or another (the evaluator's join: neither list is picked) make no job (and
    no error)."""
    assert _defined_jobs(tmp_path / "other", {**INSTALLED, "deploy.py": OTHER_CREATES}) == {}
    assert _defined_jobs(tmp_path / "unread", {**INSTALLED, "deploy.py": UNREADABLE_TASKS}) == {}
    result = linked(tmp_path / "unread", {})
    assert not [d for r in result for d in r.diagnostics if r.path == "deploy.py"]


# -- Jobs API YAML files and wheel entry points ---------------------------------------------------

JOB_YAML = """
name: nightly
tasks:
  - task_key: bronze
    python_wheel_task:
      package_name: lake
      entry_point: bronze_orders
      parameters: ["--env", "dev"]
  - task_key: gold
    depends_on: [{task_key: bronze}]
    python_wheel_task: {package_name: lake, entry_point: gold_daily}
"""


def test_a_jobs_yaml_file_is_a_schedule_and_a_wheel_runs_the_module_its_entry_point_names(tmp_path):
    from delta_lint.bundle import load_found_job_json

    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs/nightly.yml").write_text(JOB_YAML)
    (tmp_path / "src/bronze").mkdir(parents=True)
    (tmp_path / "src/bronze/bronze_orders.py").write_text("print(1)\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/gold_daily.py").write_text("print(1)\n")  # a test is not what the wheel runs
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/ci.yml").write_text("on: push\njobs: {}\n")  # names no task_key: no job
    workflows = load_found_job_json(tmp_path)
    tasks = workflows.jobs["nightly"].tasks
    assert tasks["bronze"].files == ("src/bronze/bronze_orders.py",)
    assert dict(tasks["bronze"].arguments)["env"] == "dev"  # `--env dev`, as a script task reads it
    assert tasks["gold"].files == () and "cannot read" in (tasks["gold"].problem or "")
    # two modules of the entry point's name: which one the wheel runs is not known
    (tmp_path / "src/other").mkdir()
    (tmp_path / "src/other/bronze_orders.py").write_text("print(2)\n")
    assert load_found_job_json(tmp_path).jobs["nightly"].tasks["bronze"].files == ()


def test_a_wheel_runs_the_module_its_pyproject_declares_for_the_entry_point(tmp_path):
    from delta_lint.bundle import load_found_job_json

    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs/nightly.yml").write_text(JOB_YAML.replace("entry_point: bronze_orders", "entry_point: main"))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "lake"\n[project.scripts]\nmain = "lake.cli:run"\n')
    (tmp_path / "src/lake").mkdir(parents=True)
    (tmp_path / "src/lake/cli.py").write_text("def run():\n    pass\n")
    (tmp_path / "main.py").write_text("print(1)\n")  # a module of the entry point's name: the declaration wins
    (tmp_path / "other").mkdir()  # another project declaring `main`: not the wheel's package
    (tmp_path / "other/pyproject.toml").write_text(
        '[tool.poetry]\nname = "other"\n[tool.poetry.scripts]\nmain = "o:m"\n'
    )
    (tmp_path / "other/o.py").write_text("print(2)\n")
    assert load_found_job_json(tmp_path).jobs["nightly"].tasks["bronze"].files == ("src/lake/cli.py",)
    # without the pyproject, the one module named after the entry point
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "other/pyproject.toml").unlink()
    assert load_found_job_json(tmp_path).jobs["nightly"].tasks["bronze"].files == ("main.py",)


# -- templates crossing `%run` and imports -------------------------------------------------


def test_a_template_crosses_run_and_imports_as_it_is(tmp_path):
    setup = 'secret = dbutils.secrets.get("s", "k")\nT = f"{secret}.ops.runs"\nU = load()\n'
    files = {
        "setup.py": NB + setup,
        "conf.py": setup,
        "main.py": NB + "# MAGIC %run ./setup\n" + SEP + 'df.write.mode("append").saveAsTable(T)\n',
        "job.py": 'from conf import T\ndf.write.mode("overwrite").saveAsTable(T)\n',
        # a value wholly unknown where it is made stays named where it is used
        "other.py": NB + "# MAGIC %run ./setup\n" + SEP + 'df.write.mode("append").saveAsTable(U)\n',
    }
    got = tables(tmp_path, files)
    assert got["main.py"] == ["{secret}.ops.runs"]
    assert got["job.py"] == ["{secret}.ops.runs"]
    assert got["other.py"] == ["{U}"]


def test_a_template_crosses_the_cache_as_it_is(tmp_path):
    files = {
        "setup.py": NB + "T = f\"{dbutils.widgets.get('env')}.ops.runs\"\n",
        "main.py": NB + "# MAGIC %run ./setup\n" + SEP + 'df.write.mode("append").saveAsTable(T)\n',
    }
    first = tables(tmp_path, files, use_cache=True)
    again = tables(tmp_path, {}, use_cache=True)
    assert first["main.py"] == again["main.py"] == ["{env}.ops.runs"]


def test_a_job_dict_handed_to_a_deployer_reads_joined_paths_task_calls_and_names(tmp_path):
    """A job dict a solution notebook hands to its deployer (`deploy_compute(job_json)`)
    is read as the SDK's jobs are (one reader), where the call is: a path joined
    with `+`, a `NotebookTask(...)` call and a name the module binds are its values."""
    runme = NB + (
        "NB = 'jobs/b'\n"
        "job_json = {\n"
        '    "name": "joined",\n'
        '    "tasks": [\n'
        '        {"task_key": "a", "notebook_task": {"notebook_path": "jobs/" + "a"}},\n'
        '        {"task_key": "c", "notebook_task": NotebookTask(notebook_path="jobs/c")},\n'
        '        {"task_key": "b", "notebook_task": {"notebook_path": NB}},\n'
        "    ],\n"
        "}\n"
        "NotebookSolutionCompanion().deploy_compute(job_json, run_job=False)\n"
    )
    files = {"jobs/a.py": NB + "print(1)\n", "jobs/b.py": NB + "print(1)\n", "jobs/c.py": NB + "print(1)\n"}
    tasks = _defined_jobs(tmp_path, {**files, "RUNME.py": runme})["joined"].tasks
    assert tasks["a"].files == ("jobs/a.py",) and tasks["c"].files == ("jobs/c.py",)
    assert tasks["b"].files == ("jobs/b.py",)


def test_reading_sdk_jobs_charges_the_file_budget_and_says_where_it_ran_out(tmp_path):
    """Names that join a task list four times over, 40 times, would hold 4**40 tasks:
    the list is refused where it grows past the sizes the value layer builds, the
    job is not read, and a DL008 names that line; a short chain is read (the near
    miss)."""
    chain = "".join(f"T{i + 1} = T{i} + T{i} + T{i} + T{i}\n" for i in range(40))
    deploy = (
        "from databricks.sdk import WorkspaceClient\n"
        'T0 = [Task(task_key="a", notebook_task=NotebookTask(notebook_path="jobs/a"))]\n'
        f'{chain}w = WorkspaceClient()\nw.jobs.create(name="huge", tasks=T40)\n'
    )
    results = {r.path: r for r in linked(tmp_path / "huge", {"deploy.py": deploy})}
    notes = [d for d in results["deploy.py"].diagnostics if d.rule == "DL008"]
    assert [d.location.line for d in notes] == [9] and "more than 10,000" in notes[0].message
    assert _defined_jobs(tmp_path / "huge", {}) == {}
    short = deploy.replace("tasks=T40", "tasks=T2")
    assert list(_defined_jobs(tmp_path / "short", {"deploy.py": short})) == ["huge"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_editing_a_helper_reads_again_the_files_that_name_it_and_no_other(tmp_path, monkeypatch, jobs):
    """A file is given, and its reading keyed by, the helpers its code names: editing
    one re-reads the shared notebook (or module) that defines it and the files that
    call it, not every file that `%run`s or imports its module. The near miss: a
    file that names the edited helper in a string it hands on (`foreachBatch`-style
    references count as words too) is read again, and every run's findings equal
    those of a run without the cache. With two processes the words of each file's
    code reach the link stage from the front-end workers."""
    import delta_lint.run as run_module
    from delta_lint.config import Config
    from delta_lint.run import check
    from delta_lint.settings import ReadSettings

    monkeypatch.setattr(run_module, "PARALLEL_MIN_FILES", 0)

    common = NB + (
        "def save_orders(df):\n"
        "    df.write.mode('append').saveAsTable('main.s.orders')\n\n"
        "def save_events(df):\n"
        "    df.write.mode('append').saveAsTable('main.s.{}')\n"
    )
    files = {
        "common.py": common.format("events"),
        "orders.py": NB + "# MAGIC %run ./common\n" + SEP + "save_orders(df)\n",
        "events.py": NB + "# MAGIC %run ./common\n" + SEP + "save_events(df)\n",
        "stream.py": NB
        + "# MAGIC %run ./common\n"
        + SEP
        + "q = df.writeStream.foreachBatch(globals()['save_events'])\n",
        "jobs/load.py": "import helpers\nhelpers.save_customers(df)\n",
        "jobs/report.py": "import helpers\nhelpers.save_report(df)\n",
        "jobs/helpers.py": (
            "def save_customers(df):\n"
            "    df.write.mode('overwrite').saveAsTable('main.s.customers')\n\n"
            "def save_report(df):\n"
            "    df.write.mode('overwrite').saveAsTable('main.s.{}')\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text.format("report"), encoding="utf-8")

    def run(use_cache: bool = True):
        """The run's counts, and every file's tables as the cache now gives them."""
        config = Config(root=tmp_path)
        stats = check([tmp_path], config, cwd=tmp_path, use_cache=use_cache, read=ReadSettings(), jobs=jobs).stats
        results, _, _ = analyze([tmp_path], config, cwd=tmp_path, use_cache=use_cache, jobs=jobs)
        return stats, sorted((r.path, i.table.name) for r in results for i in r.intents if i.table)

    first, tables = run()
    assert ("orders.py", "main.s.orders") in tables and ("jobs/report.py", "main.s.report") in tables
    assert run()[0].files_analysed == 0  # nothing changed: nothing read

    # `save_events` changes: the notebook defining it, then the two naming it
    (tmp_path / "common.py").write_text(common.format("events_v2"), encoding="utf-8")
    edited, tables = run()
    reread = edited.files_analysed - 1  # the notebook's first reading
    assert ("events.py", "main.s.events_v2") in tables and ("stream.py", "main.s.events_v2") not in tables
    assert reread == 3  # common.py (read again with its functions called elsewhere), events.py, stream.py
    assert tables == run(use_cache=False)[1]

    # `save_report` changes: the module, and the one file that calls it
    (tmp_path / "jobs/helpers.py").write_text(files["jobs/helpers.py"].format("report_v2"), encoding="utf-8")
    edited, tables = run()
    assert ("jobs/report.py", "main.s.report_v2") in tables
    assert edited.files_analysed - 1 == 2  # jobs/helpers.py read again with its called functions, jobs/report.py
    assert tables == run(use_cache=False)[1]


def test_a_string_line_that_looks_like_an_open_import_hides_no_call(tmp_path):
    """A docstring line `from pkg.io import (` with no closing parenthesis is no
    import statement: the call after the string still names the helper, and its
    write is read there. The near miss: a real parenthesised import, comments
    inside it, imports nothing the file does not call."""
    files = {
        "pkg/__init__.py": "",
        "pkg/io.py": "def other(df):\n    df.write.mode('overwrite').saveAsTable('main.s.other_t')\n",
        "job1.py": (
            "from pkg.io import other\n"
            'USAGE = """Import the writers you need:\n'
            "    from pkg.io import (\n"
            '"""\n'
            'other(spark.table("a"))\n'
        ),
        "job2.py": "from pkg.io import (\n    other,  # the writer (of t)\n)\nother(spark.table('b'))\n",
    }
    results = {r.path: r for r in linked(tmp_path, files)}
    assert [(i.location.line, i.table.name) for i in results["job1.py"].intents] == [(5, "main.s.other_t")]
    assert [(i.location.line, i.table.name) for i in results["job2.py"].intents] == [(4, "main.s.other_t")]


def test_an_import_statement_alone_does_not_make_a_file_read_again_when_a_helper_changes(tmp_path):
    """`from helpers import a, b` calls neither: a file that imports every helper of
    a module and calls one is given, and keyed by, that one (a package's modules
    often import all of each other's functions; each file read with hundreds of
    definitions took minutes). Editing the helper it imports but does not call
    reads it no more; the near miss, a file that calls the edited helper, is read
    again, and every run's tables equal those of a run without the cache."""
    from delta_lint.config import Config
    from delta_lint.run import check
    from delta_lint.settings import ReadSettings

    helpers = (
        "def save_customers(df):\n"
        "    df.write.mode('overwrite').saveAsTable('main.s.customers')\n\n"
        "def save_report(df):\n"
        "    df.write.mode('overwrite').saveAsTable('main.s.{}')\n"
    )
    files = {
        "jobs/helpers.py": helpers.format("report"),
        "jobs/load.py": "from helpers import (\n    save_customers,\n    save_report,\n)\nsave_customers(df)\n",
        "jobs/other.py": "import os; from helpers import save_customers, \\\n    save_report\nsave_customers(df)\n",
        "jobs/report.py": "from helpers import save_customers, save_report\nsave_report(df)\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")

    def run(use_cache: bool = True):
        config = Config(root=tmp_path)
        stats = check([tmp_path], config, cwd=tmp_path, use_cache=use_cache, read=ReadSettings(), jobs=1).stats
        results, _, _ = analyze([tmp_path], config, cwd=tmp_path, use_cache=use_cache, jobs=1)
        return stats, sorted((r.path, i.table.name) for r in results for i in r.intents if i.table)

    _, tables = run()
    assert ("jobs/load.py", "main.s.customers") in tables and ("jobs/report.py", "main.s.report") in tables
    (tmp_path / "jobs/helpers.py").write_text(helpers.format("report_v2"), encoding="utf-8")
    edited, tables = run()
    assert ("jobs/report.py", "main.s.report_v2") in tables
    # jobs/helpers.py (its own reading and again with its called functions), jobs/report.py
    # and jobs/other.py, whose `import os;` hides the import after it: more helpers, never fewer
    assert edited.files_analysed == 4
    assert tables == run(use_cache=False)[1]


def test_a_helper_named_only_by_a_helper_or_through_a_class_is_still_given(tmp_path):
    """Giving a file only the helpers its code names keeps those it reaches
    indirectly: a helper that only another helper calls, a method of a class the
    file makes an object of, and a helper of an imported module's own imports."""
    files = {
        "common.py": NB
        + (
            "def _save(df, t):\n"
            "    df.write.mode('overwrite').saveAsTable(t)\n\n"
            "def load_all(df):\n"
            "    _save(df, 'main.s.all')\n\n"
            "class Writer:\n"
            "    def put(self, df):\n"
            "        df.write.mode('overwrite').saveAsTable('main.s.put')\n\n"
            "def unused(df):\n"
            "    df.write.mode('overwrite').saveAsTable('main.s.unused')\n"
        ),
        "job.py": NB + "# MAGIC %run ./common\n" + SEP + "load_all(df)\nw = Writer()\nw.put(df)\n",
        "pkg/io.py": "def _raw(df, t):\n    df.write.mode('append').saveAsTable(t)\n",
        "pkg/api.py": "from pkg.io import _raw\n\ndef publish(df, t):\n    _raw(df, t)\n",
        "app.py": "from pkg.api import publish\npublish(df, 'main.s.published')\n",
    }
    got = tables(tmp_path, files)
    assert got["job.py"] == ["main.s.all", "main.s.put"]
    assert got["app.py"] == ["main.s.published"]


# -- a notebook read once where one reading gives what two give ---------------------------

_SETUP = NB + (
    "catalog = 'main'\n\ndef save(df, name):\n    df.write.mode('append').saveAsTable(f'{catalog}.sales.{name}')\n"
)


def _readings(tmp_path: Path, files: dict[str, str], use_cache: bool) -> tuple[int, list[tuple[str, int, str]]]:
    """How many readings a run made, and every write it found (file, line, table)."""
    from delta_lint.config import Config
    from delta_lint.run import check
    from delta_lint.settings import ReadSettings

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = check([tmp_path], Config(root=tmp_path), cwd=tmp_path, use_cache=use_cache, read=ReadSettings())
    writes = sorted((i.location.path, i.location.line, i.table.name) for i in result.intents if i.table)
    return result.stats.files_analysed, writes


def test_a_notebook_that_runs_another_is_read_once_without_a_cache(tmp_path):
    """Its reading without context gives no other file anything and its own context
    only its `%run`s and words: it is read once, with what `setup` gives it, and finds
    what two readings find. With a cache the first reading is kept for later runs."""
    files = {"setup.py": _SETUP, "job.py": NB + "# MAGIC %run ./setup\n" + SEP + "save(df, 'orders')\n"}
    once, writes = _readings(tmp_path, files, use_cache=False)
    assert ("job.py", 5, "main.sales.orders") in writes
    # setup.py, again with its function job.py calls (`Context.called`), job.py with its context
    assert once == 3
    twice, cached = _readings(tmp_path, files, use_cache=True)
    assert (twice, cached) == (4, writes)


@pytest.mark.parametrize(
    "job, extra",
    [
        # it runs a child notebook: what the child gives back is its context's
        (NB + "# MAGIC %run ./setup\n" + SEP + "dbutils.notebook.run('./child', 60)\nsave(df, 'orders')\n", {}),
        # another notebook runs it: what it leaves is that notebook's context
        (NB + "# MAGIC %run ./setup\n" + SEP + "save(df, 'orders')\n", {"main.py": NB + "# MAGIC %run ./job\n"}),
        # a word of its code names a module of the project, which it may import
        (NB + "# MAGIC %run ./setup\n" + SEP + "import tools\nsave(df, 'orders')\n", {"tools.py": "X = 1\n"}),
    ],
    ids=["runs-a-child", "run-by-another", "imports-a-module"],
)
def test_a_notebook_others_take_from_is_read_without_context_first(tmp_path, job, extra):
    files = {"setup.py": _SETUP, "job.py": job, "child.py": NB + "x = 1\n", **extra}
    readings, writes = _readings(tmp_path, files, use_cache=False)
    assert ("job.py", 6 if "import" in job or "notebook.run" in job else 5, "main.sales.orders") in writes
    assert readings == len(files) + 2  # job.py and setup.py (see above) twice, each other file once
    assert _readings(tmp_path, files, use_cache=True)[1] == writes


def test_a_notebook_read_once_whose_cells_do_not_all_parse_is_read_again(tmp_path):
    """Its cells that parse are read apart from the broken one, so its words are not
    those `included_links` gave its context. It includes `setup`, which is read again
    with what job.py calls, so job.py is read after that, with the waves (`_link`):
    the context its own reading's words make is the one it was read with, so it is
    not read again (when they make another, the next wave reads it with that one);
    the same writes as with a cache."""
    job = NB + "# MAGIC %run ./setup\n" + SEP + "save(df, 'orders')\n" + SEP + "def broken(:\n"
    files = {"setup.py": _SETUP, "job.py": job}
    readings, writes = _readings(tmp_path, files, use_cache=False)
    assert ("job.py", 5, "main.sales.orders") in writes
    assert readings == 3  # setup.py twice; job.py once, with its context (5 before the waves read it)
    assert _readings(tmp_path, files, use_cache=True)[1] == writes


def test_one_module_name_imported_from_two_folders_is_each_folders_own(tmp_path):
    """Which file an import names is worked out once per (importer's folder, module):
    two folders' `settings` are two modules, two files of one folder share one, and a
    relative import is its package's."""
    files = {
        "eu/settings.py": 'TABLE = "main.eu.orders"\n',
        "us/settings.py": 'TABLE = "main.us.orders"\n',
        "eu/load.py": "from settings import TABLE\nspark.sql(f'DELETE FROM {TABLE} WHERE d = 1')\n",
        "eu/fix.py": "from settings import TABLE\nspark.sql(f'UPDATE {TABLE} SET x = 1')\n",
        "us/load.py": "from settings import TABLE\nspark.sql(f'DELETE FROM {TABLE} WHERE d = 1')\n",
        "us/pkg/__init__.py": "",
        "us/pkg/settings.py": 'TABLE = "main.pkg.orders"\n',
        "us/pkg/load.py": "from .settings import TABLE\nspark.sql(f'DELETE FROM {TABLE} WHERE d = 1')\n",
    }
    assert tables(tmp_path, files) == {
        "eu/fix.py": ["main.eu.orders"],
        "eu/load.py": ["main.eu.orders"],
        "us/load.py": ["main.us.orders"],
        "us/pkg/load.py": ["main.pkg.orders"],
    }


# -- a file its tasks run with different values: each write runs in the tasks giving its own --

TWO_TABLES_BUNDLE = """
bundle: {name: b}
resources:
  jobs:
    orders:
      schedule: {quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}
      tasks:
        - task_key: load
          notebook_task: {notebook_path: ./load.py, base_parameters: {table: main.sales.orders}}
    other:
      schedule: {quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}
      tasks:
        - task_key: load
          notebook_task: {notebook_path: ./load.py, base_parameters: {table: main.sales.OTHER}}
"""

LOAD_TABLE = (
    "# Databricks notebook source\n"
    't = dbutils.widgets.get("table")\n'
    'spark.range(3).write.mode("overwrite").saveAsTable(t)\n'
)


def test_a_file_read_per_task_writes_each_table_only_in_the_task_naming_it(lint):
    # read once per task's value; `orders` is written only by job `orders`, `refunds`
    # only by job `other`: the jobs overlap, the tables do not
    bundle = TWO_TABLES_BUNDLE.replace("OTHER", "refunds")
    result = lint({"databricks.yml": bundle, "load.py": LOAD_TABLE})
    assert sorted(i.table.name for i in result.intents if i.table) == ["main.sales.orders", "main.sales.refunds"]
    assert _conflicts(result) == []


def test_two_tasks_giving_a_file_the_same_table_still_meet(lint):
    bundle = TWO_TABLES_BUNDLE.replace("OTHER", "orders")
    assert _conflicts(lint({"databricks.yml": bundle, "load.py": LOAD_TABLE})) == ["DL102"]
