"""An Airflow worker runs in a container, so its DAGs name the container's paths:
`cd /opt/airflow/dbt && dbt run`, `dbt run --project-dir /usr/app/dbt_project`,
`python /opt/airflow/scripts/load.py`, a `spark_python_task` of `dbfs:/...`. They are
mapped to the repository's files by the project's compose volumes and Dockerfile
copies; with none, by the path's tail, with a note; when several places fit, the
task runs one of them, which it says, and no file is picked."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

HEAD = (
    "from airflow import DAG\n"
    "from airflow.operators.bash import BashOperator\n"
    "from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator\n"
    'with DAG("d", schedule="@daily") as dag:\n'
)
MODEL = "{{ config(materialized='table') }}\nselect 1 as id\n"
PROFILE = (
    "{name}:\n  target: prod\n  outputs:\n    prod:\n      type: databricks\n"
    "      catalog: {catalog}\n      schema: {schema}\n      host: x\n      http_path: y\n"
)
SCRIPT = 'spark.range(1).write.mode("append").saveAsTable("main.s.loaded")\n'


def _write(tmp_path: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)


def _dag(*tasks: str) -> dict[str, str]:
    return {"dags/d.py": HEAD + "".join(f"    {t}\n" for t in tasks)}


def _dbt(folder: str, name: str = "shop") -> dict[str, str]:
    return {f"{folder}/dbt_project.yml": f"name: {name}\nprofile: {name}\n", f"{folder}/models/orders.sql": MODEL}


def _schedule(tmp_path: Path) -> dict:
    return json.loads(run_cli("schedule", ".", "--format", "json", cwd=tmp_path).stdout)


def _files(doc: dict, task: str) -> list[str]:
    return next((n["files"] for n in doc["nodes"] if n.get("task") == task), [])


def _not_analysed(tmp_path: Path) -> list[str]:
    doc = json.loads(run_cli("check", ".", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    return [f["message"] for f in doc["findings"] if f["rule"] == "DL006"]


def test_a_compose_volume_maps_the_workers_dbt_folder_over_a_name_match(tmp_path):
    # the tail `dbt` names legacy/dbt; the volume says the worker's /opt/airflow/dbt is transform/
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="cd /opt/airflow/dbt && dbt run --select orders")'),
            **_dbt("transform"),
            **_dbt("legacy/dbt", "old"),
            "docker-compose.yaml": (
                "x-airflow-common: &common\n  volumes:\n    - ${AIRFLOW_PROJ_DIR:-.}/dags:/opt/airflow/dags\n"
                "    - ${AIRFLOW_PROJ_DIR:-.}/transform:/opt/airflow/dbt:ro\n    - pgdata:/var/lib/postgresql/data\n"
                "    - ${UNSET_DIR}/legacy/dbt:/opt/airflow/dbt\n"  # a variable with no default: not known
                "services:\n  worker:\n    <<: *common\n"
            ),
        },
    )
    doc = _schedule(tmp_path)
    assert _files(doc, "run") == ["transform/models/orders.sql"]
    assert not any("by name" in n for n in doc["notes"]), doc["notes"]


def test_the_long_volume_form_and_a_compose_file_in_a_sub_folder(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="dbt build --project-dir /srv/dbt_proj")'),
            **_dbt("warehouse/shop"),
            "airflow/compose.yml": (
                "services:\n  worker:\n    volumes:\n"
                "      - type: bind\n        source: ../warehouse/shop\n        target: /srv/dbt_proj\n"
            ),
        },
    )
    assert _files(_schedule(tmp_path), "run") == ["warehouse/shop/models/orders.sql"]


def test_a_dockerfile_copy_into_airflow_home_maps_the_folder(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="cd /opt/airflow/dbt_project && dbt run")'),
            **_dbt("dbt"),
            "Dockerfile": "FROM apache/airflow:2.9.1\nCOPY --chown=airflow:root dbt ${AIRFLOW_HOME}/dbt_project\n",
        },
    )
    doc = _schedule(tmp_path)
    assert _files(doc, "run") == ["dbt/models/orders.sql"]
    assert not any("by name" in n for n in doc["notes"]), doc["notes"]


def test_an_astro_image_holds_its_whole_folder_at_usr_local_airflow(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="dbt run --project-dir /usr/local/airflow/include/shop")'),
            **_dbt("include/shop"),
            "Dockerfile": "FROM quay.io/astronomer/astro-runtime:12.1.0\n",
        },
    )
    assert _files(_schedule(tmp_path), "run") == ["include/shop/models/orders.sql"]


def test_a_worker_path_no_mount_maps_is_matched_by_its_tail_with_a_note(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="dbt run --project-dir /usr/app/dbt_project")'),
            **_dbt("transform/dbt_project"),
        },
    )
    doc = _schedule(tmp_path)
    assert _files(doc, "run") == ["transform/dbt_project/models/orders.sql"]
    assert any("matched to `transform/dbt_project` by name" in n for n in doc["notes"]), doc["notes"]


def test_a_tail_two_dbt_projects_end_with_is_one_of_them_and_unknown(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="cd /opt/airflow/dbt && dbt run")'),
            **_dbt("team_a/dbt", "a"),
            **_dbt("team_b/dbt", "b"),
        },
    )
    assert _files(_schedule(tmp_path), "run") == []
    (message,) = _not_analysed(tmp_path)
    assert "one of team_a/dbt, team_b/dbt" in message


def test_a_multi_line_script_with_exported_dbt_folders_reads_the_mounted_profile(tmp_path):
    """The DAG exports DBT_PROFILES_DIR, the compose file mounts one profiles.yml
    there: the models build in that profile's catalog and schema."""
    command = (
        'BashOperator(task_id="run", bash_command="""\n'
        "    export DBT_PROFILES_DIR=/opt/airflow/.dbt\n"
        "    cd /opt/airflow/dbt/shop\n"
        "    dbt run\n"
        '    """)'
    )
    _write(
        tmp_path,
        {
            **_dag(command),
            **_dbt("dbt/shop"),
            "dbt/profiles.yml": PROFILE.format(name="shop", catalog="prod_cat", schema="sales"),
            "docker-compose.yml": (
                "services:\n  worker:\n    volumes:\n      - ./dbt/shop:/opt/airflow/dbt/shop\n"
                "      - ./dbt/profiles.yml:/opt/airflow/.dbt/profiles.yml\n"
            ),
        },
    )
    assert _files(_schedule(tmp_path), "run") == ["dbt/shop/models/orders.sql"]
    intents = json.loads(run_cli("intents", ".", "--format", "json", cwd=tmp_path).stdout)
    assert {i["table"] for i in intents if i["path"] == "dbt/shop/models/orders.sql"} == {"prod_cat.sales.orders"}


def test_a_bash_task_running_a_mounted_script_runs_that_file(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="load", bash_command="python3 -u /opt/airflow/etl/load.py --day {{ ds }}")'),
            "pipelines/etl/load.py": SCRIPT,
            "other/etl/load.py": SCRIPT,  # the tail alone would be two files
            "docker-compose.yml": "services:\n  worker:\n    volumes:\n      - ./pipelines/etl:/opt/airflow/etl\n",
        },
    )
    assert _files(_schedule(tmp_path), "load") == ["pipelines/etl/load.py"]


def test_a_script_no_mount_maps_is_matched_by_name_or_left_unknown(tmp_path):
    _write(
        tmp_path,
        {
            **_dag(
                'BashOperator(task_id="one", bash_command="cd /opt/airflow && spark-submit --conf a=b scripts/x.py")',
                'BashOperator(task_id="two", bash_command="python /opt/airflow/jobs/load.py")',
                'BashOperator(task_id="mod", bash_command="python -W ignore -m jobs.load")',
            ),
            "scripts/x.py": SCRIPT,
            "a/jobs/load.py": SCRIPT,
            "b/jobs/load.py": SCRIPT,
        },
    )
    doc = _schedule(tmp_path)
    assert _files(doc, "one") == ["scripts/x.py"]
    assert any("`/opt/airflow/scripts/x.py`" in n and "by name" in n for n in doc["notes"]), doc["notes"]
    assert _files(doc, "two") == [] and _files(doc, "mod") == []
    assert any("one of a/jobs/load.py, b/jobs/load.py" in m for m in _not_analysed(tmp_path))


def test_two_compose_files_mounting_different_folders_there_leave_it_unknown(tmp_path):
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="cd /opt/airflow/dbt && dbt run")'),
            **_dbt("dbt_dev", "dev"),
            **_dbt("dbt_prod", "prod"),
            "docker-compose.yml": "services:\n  w:\n    volumes:\n      - ./dbt_dev:/opt/airflow/dbt\n",
            "docker-compose.prod.yml": "services:\n  w:\n    volumes:\n      - ./dbt_prod:/opt/airflow/dbt\n",
        },
    )
    doc = _schedule(tmp_path)
    assert _files(doc, "run") == []
    assert any("`/opt/airflow/dbt` is one of dbt_dev, dbt_prod" in n for n in doc["notes"]), doc["notes"]


def test_a_cosmos_group_of_an_astro_project_names_its_dbt_folder_by_the_image_path(tmp_path):
    _write(
        tmp_path,
        {
            "dags/d.py": (
                "from airflow import DAG\n"
                "from cosmos import DbtTaskGroup, ProjectConfig\n"
                'with DAG("d", schedule="@daily") as dag:\n'
                '    DbtTaskGroup(group_id="shop", project_config=ProjectConfig("/usr/local/airflow/dags/dbt/shop"))\n'
                "    # DatabricksSubmitRunOperator: named so the file is read as a DAG\n"
            ),
            **_dbt("dags/dbt/shop"),
            **_dbt("archive/dbt/shop", "old"),  # the tail alone would be two projects
            "Dockerfile": "FROM quay.io/astronomer/astro-runtime:12.1.0\n",
        },
    )
    assert _files(_schedule(tmp_path), "shop") == ["dags/dbt/shop/models/orders.sql"]


def test_a_compose_file_of_nested_aliases_is_read_once_per_anchor(tmp_path):
    """Eleven levels of ten aliases each name 10^11 values; each anchor's value is
    one object, walked once, so the mount below them is still read at once."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    lines.append("services:\n  w:\n    x: *a11\n    volumes:\n      - ./transform:/opt/airflow/dbt")
    _write(
        tmp_path,
        {
            **_dag('BashOperator(task_id="run", bash_command="cd /opt/airflow/dbt && dbt run")'),
            **_dbt("transform"),
            "docker-compose.yml": "\n".join(lines) + "\n",
        },
    )
    assert _files(_schedule(tmp_path), "run") == ["transform/models/orders.sql"]
