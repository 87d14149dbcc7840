"""dbt projects: models, snapshots and seeds are the writes their materializations
make, run by the jobs' `dbt_task`s (or by hand), read from the project's text."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from delta_lint.cli import app
from delta_lint.frontend.discover import discover

PROJECT = """\
name: shop
profile: shop
models:
  shop:
    +materialized: view
    marts:
      +materialized: incremental
      +schema: marts
"""
ORDERS = """\
{{ config(unique_key='order_id', incremental_predicates=["DBT_INTERNAL_DEST.day >= '2024-01-01'"]) }}
select * from {{ ref('stg_orders') }}
"""
STAGING = "select * from {{ source('raw', 'orders') }}\n"
CLEANUP = "DELETE FROM main.analytics_marts.orders WHERE day < '2020-01-01';\n"


def _bundle(tasks: str, jobs_head: str = "nightly") -> str:
    return f"""\
bundle:
  name: shop
resources:
  jobs:
    {jobs_head}:
      name: {jobs_head}
      tasks:
{tasks}"""


DBT_TASK = """\
        - task_key: dbt
          dbt_task:
            project_directory: proj
            commands: ["dbt deps", "dbt build"]
            catalog: main
            schema: analytics
"""
CLEANUP_TASK = """\
        - task_key: cleanup
          sql_task:
            file:
              path: notebooks/cleanup.sql
"""


def _project(**more: str) -> dict[str, str]:
    return {
        "proj/dbt_project.yml": PROJECT,
        "proj/models/marts/orders.sql": ORDERS,
        "proj/models/stg_orders.sql": STAGING,
        "notebooks/cleanup.sql": CLEANUP,
        **more,
    }


def _conflicts(result) -> list[tuple[str, set[str]]]:
    return [
        (f.table, {f.location.path, *(r.path for r in f.related)}) for f in result.findings if f.rule.startswith("DL1")
    ]


def _intents(result) -> dict[str, list]:
    out: dict[str, list] = {}
    for i in result.intents:
        out.setdefault(i.location.path, []).append(i)
    return out


def test_incremental_merge_model_against_a_parallel_delete_conflicts(lint):
    result = lint(_project(**{"databricks.yml": _bundle(DBT_TASK + CLEANUP_TASK)}))
    assert _conflicts(result) == [
        ("main.analytics_marts.orders", {"notebooks/cleanup.sql", "proj/models/marts/orders.sql"})
    ]
    (merge,) = _intents(result)["proj/models/marts/orders.sql"]
    assert merge.kind.value == "merge"
    assert "DBT_INTERNAL_SOURCE.order_id = DBT_INTERNAL_DEST.order_id" in merge.predicate_sql
    assert "day >= '2024-01-01'" in merge.predicate_sql


def test_the_same_model_and_delete_chained_by_depends_on_are_quiet(lint):
    chained = CLEANUP_TASK + "          depends_on:\n            - task_key: dbt\n"
    result = lint(_project(**{"databricks.yml": _bundle(DBT_TASK + chained)}))
    assert _conflicts(result) == []
    assert "proj/models/marts/orders.sql" in _intents(result)  # still read: the order is what makes it quiet


def test_a_view_writes_nothing_and_a_model_no_command_selects_is_not_run(lint):
    task = DBT_TASK.replace('"dbt build"', '"dbt run --select stg_orders"')
    result = lint(_project(**{"databricks.yml": _bundle(task + CLEANUP_TASK)}))
    # the run builds only the view; the merge model is then run by hand, with the
    # project's profile (none here): a table whose catalog and schema only a run knows
    intents = _intents(result)
    assert "proj/models/stg_orders.sql" not in intents
    (merge,) = intents["proj/models/marts/orders.sql"]
    assert (merge.kind.value, merge.table.name) == ("merge", "{catalog}.{schema}_marts.orders")
    assert _conflicts(result) == []


def _profiles(*types: str) -> str:
    outputs = "".join(f"    t{n}:\n      type: {t}\n      schema: analytics\n" for n, t in enumerate(types))
    return f"shop:\n  target: t0\n  outputs:\n{outputs}"


def test_a_project_whose_profile_builds_in_another_database_writes_no_delta_table(lint):
    """A dbt project run by hand whose every profile output is another database
    (`type: postgres`) builds its models there: no Delta write, and a note says
    why. The near misses: a profile with one Databricks (or dbt-spark) output, or a
    type only a run knows, keeps the models' writes."""
    result = lint({**_project(), "proj/profiles.yml": _profiles("postgres", "snowflake")})
    assert [path for path in _intents(result) if path.startswith("proj/")] == []
    assert any("builds tables in postgres, snowflake, not Databricks" in n for n in result.notes)
    for types in (("postgres", "databricks"), ("spark",), ("\"{{ env_var('ADAPTER') }}\"",)):
        result = lint({**_project(), "proj/profiles.yml": _profiles(*types)})
        (merge,) = _intents(result)["proj/models/marts/orders.sql"]
        assert merge.kind.value == "merge"
        assert not any("not Databricks" in n for n in result.notes)


MATERIALIZATIONS = {
    "append.sql": "{{ config(materialized='incremental', incremental_strategy='append') }}\nselect 1",
    "dyn.sql": "{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['day']) }}\nselect 1",
    "full.sql": "{{ config(materialized='incremental', incremental_strategy='insert_overwrite') }}\nselect 1",
    "rw.sql": "{{ config(materialized='incremental', incremental_strategy='replace_where',\n"
    "    incremental_predicates=\"day = '2024-01-01'\") }}\nselect 1",
    "tbl.sql": "{{ config(materialized='table', alias='tbl_alias') }}\nselect 1",
    "eph.sql": "{{ config(materialized='ephemeral') }}\nselect 1",
    "off.sql": "{{ config(materialized='table', enabled=false) }}\nselect 1",
    "opaque.sql": "{{ config(materialized='incremental', unique_key=var('key')) }}\nselect 1",
}


def test_each_materialization_is_the_write_dbt_databricks_makes(lint):
    files = {"proj/dbt_project.yml": "name: shop\nprofile: shop\n"}
    files.update({f"proj/models/{k}": v for k, v in MATERIALIZATIONS.items()})
    files["proj/seeds/countries.csv"] = "code,name\nfr,France\n"
    files["proj/snapshots/orders_snap.sql"] = (
        "{% snapshot orders_snapshot %}\n{{ config(target_schema='snapshots', unique_key='id', strategy='timestamp',"
        " updated_at='ts') }}\nselect * from {{ source('raw', 'orders') }}\n{% endsnapshot %}\n"
    )
    files["proj/profiles.yml"] = (
        "shop:\n  target: prod\n  outputs:\n    prod:\n      type: databricks\n      catalog: cat\n      schema: sales\n"
    )
    result = lint(files)
    got = {
        path.rsplit("/", 1)[1]: [(i.kind.value, i.table.name) for i in found]
        for path, found in _intents(result).items()
    }
    assert got == {
        "append.sql": [("blind_append", "cat.sales.append")],
        "dyn.sql": [("dynamic_partition_overwrite", "cat.sales.dyn")],
        "full.sql": [("full_overwrite", "cat.sales.full")],
        "rw.sql": [("replace_where", "cat.sales.rw")],
        "tbl.sql": [("create_or_replace", "cat.sales.tbl_alias")],
        # a unique_key that is not a literal: a merge on an unknown key (dbt's default strategy)
        "opaque.sql": [("merge", "cat.sales.opaque")],
        "countries.csv": [("create_or_replace", "cat.sales.countries")],
        "orders_snap.sql": [("merge", "cat.snapshots.orders_snapshot")],
    }
    (rw,) = _intents(result)["proj/models/rw.sql"]
    assert rw.predicate_sql == "(day = '2024-01-01')" or "day = '2024-01-01'" in rw.predicate_sql
    assert rw.location.line == 1


def test_schema_rules_profile_task_and_placeholders(lint):
    project = (
        "name: shop\nprofile: shop\nmodels:\n  shop:\n    +materialized: table\n    raw:\n      +schema: landing\n"
    )
    files = {
        "a/dbt_project.yml": project,
        "a/models/raw/events.sql": "select 1",
        "a/models/top.sql": "select 1",
        "b/dbt_project.yml": project.replace("shop", "other"),
        "b/models/x.sql": "select 1",
    }
    result = lint(files)
    tables = sorted(i.table.name for i in result.intents)
    # no profile and no task: catalog and schema only a run knows
    assert tables == ["{catalog}.{schema}.top", "{catalog}.{schema}.x", "{catalog}.{schema}_landing.events"]


SNAPSHOT = """\
{% snapshot customers_snapshot %}
{{ config(target_schema='snapshots', unique_key='id', strategy='check', check_cols='all') }}
select * from {{ source('crm', 'customers') }}
{% endsnapshot %}
"""


def _snapshot_job(name: str, cron: str) -> str:
    return f"""\
    {name}:
      name: {name}
      schedule:
        quartz_cron_expression: "{cron}"
        timezone_id: UTC
      tasks:
        - task_key: snap
          dbt_task:
            project_directory: dbt
            commands: ["dbt snapshot"]
            catalog: main
            schema: crm
"""


def _three_snapshot_jobs(crons: list[str]) -> dict[str, str]:
    jobs = "".join(_snapshot_job(f"snap_{i}", c) for i, c in enumerate(crons))
    return {
        "dbt/dbt_project.yml": "name: crm\nprofile: crm\n",
        "dbt/snapshots/customers.sql": SNAPSHOT,
        "databricks.yml": "bundle:\n  name: crm\nresources:\n  jobs:\n" + jobs,
    }


def test_three_jobs_snapshotting_the_same_tables_on_overlapping_crons_conflict(lint):
    result = lint(_three_snapshot_jobs(["0 0 * * * ?", "0 0 * * * ?", "0 0 */2 * * ?"]))
    found = [f for f in result.findings if f.rule.startswith("DL1")]
    assert found and {f.table for f in found} == {"main.snapshots.customers_snapshot"}
    assert all("snap_" in f.overlap for f in found)


def test_snapshot_jobs_whose_crons_never_meet_are_quiet(lint):
    config = {"duration": {"default": "30m"}}
    for_jobs = _three_snapshot_jobs(["0 0 1 * * ?", "0 0 9 * * ?", "0 0 17 * * ?"])
    assert [f for f in lint(for_jobs, config).findings if f.rule.startswith("DL1")] == []


def test_yaml_snapshots_and_tag_selection(lint):
    files = {
        "dbt/dbt_project.yml": "name: crm\nprofile: crm\nmodels:\n  crm:\n    +materialized: table\n",
        "dbt/models/a.sql": "{{ config(tags=['nightly']) }}\nselect 1",
        "dbt/models/b.sql": "select 1",
        "dbt/snapshots/snaps.yml": (
            "snapshots:\n  - name: accounts_snapshot\n    relation: source('crm', 'accounts')\n"
            "    config:\n      schema: snaps\n      unique_key: id\n      strategy: timestamp\n"
        ),
        "databricks.yml": (
            "bundle:\n  name: crm\nresources:\n  jobs:\n    j:\n      name: j\n      tasks:\n"
            "        - task_key: t\n          dbt_task:\n            project_directory: dbt\n"
            '            commands: ["dbt run -s tag:nightly", "dbt snapshot"]\n'
            "            catalog: main\n            schema: crm\n"
        ),
    }
    result = lint(files)
    tables = {i.location.path: i.table.name for i in result.intents}
    assert tables["dbt/models/a.sql"] == "main.crm.a"
    assert tables["dbt/snapshots/snaps.yml"] == "main.crm_snaps.accounts_snapshot"
    # b is not tagged: no task runs it, so it is read with the project's (absent) profile
    assert tables["dbt/models/b.sql"] == "{catalog}.{schema}.b"


def test_an_unknown_selector_selects_every_model_with_a_note(tmp_path, monkeypatch):
    files = _project(
        **{"databricks.yml": _bundle(DBT_TASK.replace('"dbt build"', '"dbt run -s state:modified+"') + CLEANUP_TASK)}
    )
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["schedule", ".", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    text = json.dumps(data)
    assert "state:modified+" in text and "is not read" in text
    checked = CliRunner().invoke(app, ["check", ".", "--no-cache"])
    assert "main.analytics_marts.orders" in checked.output  # every model runs, the merge among them


def test_seeds_and_yaml_are_read_only_inside_a_dbt_project(tmp_path):
    (tmp_path / "proj/seeds").mkdir(parents=True)
    (tmp_path / "proj/dbt_project.yml").write_text("name: x\n")
    (tmp_path / "proj/seeds/a.csv").write_text("a\n1\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data/b.csv").write_text("b\n1\n")
    (tmp_path / "data/c.yml").write_text("c: 1\n")
    found = [p.relative_to(tmp_path).as_posix() for p in discover([tmp_path], tmp_path).files]
    assert found == ["proj/seeds/a.csv"]


def test_seeds_and_snapshots_are_read_under_the_folders_the_project_names(tmp_path):
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj/dbt_project.yml").write_text(
        'name: x\nseed-paths: ["src/seeds"]\nsnapshot-paths: ["src/snapshots"]\n'
    )
    for rel, text in {
        "src/seeds/a.csv": "a\n1\n",
        "src/snapshots/s.yml": "snapshots: []\n",
        "seeds/b.csv": "b\n1\n",  # dbt's default folder, which this project does not use: not a seed
        "snapshots/t.yml": "snapshots: []\n",
    }.items():
        (tmp_path / "proj" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "proj" / rel).write_text(text)
    found = [p.relative_to(tmp_path).as_posix() for p in discover([tmp_path], tmp_path).files]
    assert found == ["proj/src/seeds/a.csv", "proj/src/snapshots/s.yml"]


def test_a_seed_under_a_nested_seed_path_is_a_write(lint):
    files = {
        "p/dbt_project.yml": 'name: p\nmodel-paths: ["src/models"]\nseed-paths: ["src/seeds"]\n',
        "p/src/seeds/cities.csv": "id,name\n1,a\n",
        "p/src/models/m.sql": "{{ config(materialized='table') }}\nselect 1",
    }
    result = lint(files)
    assert {i.location.path: i.table.name for i in result.intents} == {
        "p/src/models/m.sql": "{catalog}.{schema}.m",
        "p/src/seeds/cities.csv": "{catalog}.{schema}.cities",
    }


def test_a_config_call_that_never_closes_or_holds_expressions_is_read_safely(lint):
    files = {
        "p/dbt_project.yml": "name: p\n",
        "p/models/broken.sql": "{{ config(materialized='table', alias=('x' ~ var('y')) " + "[" * 5000,
        "p/models/expr.sql": "{{ config(materialized='table', alias='a' ~ 'b', schema=none) }}\nselect 1",
    }
    result = lint(files)
    tables = {i.location.path: i.table.name for i in result.intents}
    assert tables == {"p/models/expr.sql": "{catalog}.{schema}.expr"}
    assert not [d for d in result.diagnostics if d.rule == "DL002"]


def test_a_broken_project_file_is_reported_at_its_line_and_others_still_read(lint):
    files = {
        "bad/dbt_project.yml": "name: [unclosed\n",
        "bad/models/m.sql": "{{ config(materialized='table') }}\nselect 1",
        "good/dbt_project.yml": "name: good\n",
        "good/models/n.sql": "{{ config(materialized='table') }}\nselect 1",
    }
    result = lint(files)
    assert [i.table.name for i in result.intents] == ["{catalog}.{schema}.n"]
    assert any(d.location.path == "bad/dbt_project.yml" for d in result.diagnostics)


def test_a_terraform_dbt_task_runs_the_project(lint):
    tf = """
resource "databricks_job" "nightly" {
  name = "nightly"
  task {
    task_key = "dbt"
    dbt_task {
      project_directory = "proj"
      commands          = ["dbt build"]
      catalog           = "main"
      schema            = "analytics"
    }
  }
  task {
    task_key = "cleanup"
    notebook_task {
      notebook_path = "notebooks/cleanup.sql"
    }
  }
}
"""
    result = lint(_project(**{"main.tf": tf}))
    assert _conflicts(result) == [
        ("main.analytics_marts.orders", {"notebooks/cleanup.sql", "proj/models/marts/orders.sql"})
    ]


def test_a_changed_project_config_is_seen_by_a_cached_run(tmp_path, monkeypatch):
    files = _project(**{"databricks.yml": _bundle(DBT_TASK + CLEANUP_TASK)})
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    first = CliRunner().invoke(app, ["check", "."])
    assert first.exit_code == 1 and "main.analytics_marts.orders" in first.output
    # the folder's models become views: nothing is written any more
    (tmp_path / "proj/dbt_project.yml").write_text(PROJECT.replace("+materialized: incremental", "+materialized: view"))
    (tmp_path / "proj/models/marts/orders.sql").write_text(STAGING)
    second = CliRunner().invoke(app, ["check", "."])
    assert second.exit_code == 0, second.output


PROFILES = """\
shop:
  target: prod
  outputs:
    dev:
      type: databricks
      catalog: dev_cat
      schema: "{{ env_var('DBT_SCHEMA') }}"
    prod:
      type: databricks
      catalog: prod_cat
      schema: sales
"""


def test_the_profile_a_task_runs_with_names_the_tables(lint):
    def tables(task: str) -> set[str]:
        result = lint(_project(**{"proj/profiles.yml": PROFILES, "databricks.yml": _bundle(task)}))
        return {i.table.name for i in _intents(result).get("proj/models/marts/orders.sql", [])}

    assert tables(DBT_TASK) == {"prod_cat.sales_marts.orders"}  # the project's profiles.yml, its target
    # `--target dev`: a schema only the environment knows falls back to the task's
    assert tables(DBT_TASK.replace('"dbt build"', '"dbt build --target dev"')) == {"dev_cat.analytics_marts.orders"}
    # on a SQL warehouse Databricks writes the profile from the task
    warehouse = DBT_TASK + "            warehouse_id: abc123\n"
    assert tables(warehouse) == {"main.analytics_marts.orders"}


ENV_PROFILES = """\
shop:
  target: prod
  outputs:
    prod:
      type: databricks
      catalog: "{{ env_var('DATABRICKS_CATALOG', 'prod_cat') }}"
      schema: "{{ env_var('DATABRICKS_SCHEMA', 'sales') }}"
    dev:
      type: databricks
      catalog: "{{ env_var('DATABRICKS_CATALOG') }}"
      schema: "{{ env_var('DBT_USER', 'dev') ~ '_sales' }}"
"""


def test_a_profile_of_environment_variables_with_defaults_names_the_tables(lint):
    """`{{ env_var('DATABRICKS_CATALOG', 'prod_cat') }}`: the project's own default is
    the value wherever the run does not set the variable. A variable without a
    default, or an expression around one, stays unknown: the task's value stands."""

    def tables(task: str) -> set[str]:
        result = lint(_project(**{"proj/profiles.yml": ENV_PROFILES, "databricks.yml": _bundle(task)}))
        return {i.table.name for i in _intents(result).get("proj/models/marts/orders.sql", [])}

    assert tables(DBT_TASK) == {"prod_cat.sales_marts.orders"}
    assert tables(DBT_TASK.replace('"dbt build"', '"dbt build --target dev"')) == {"main.analytics_marts.orders"}


def test_a_project_without_profiles_reads_the_one_the_repository_keeps_elsewhere(lint):
    """No `profiles.yml` beside the project: dbt reads `~/.dbt/profiles.yml`, which the
    repository keeps as a file it mounts there (`docker/dbt/profiles.yml`). When the
    repository's profiles files that define the project's profile agree, they name
    its tables; a file of another profile is not read for it."""
    other = "other:\n  target: dev\n  outputs:\n    dev:\n      catalog: x\n      schema: y\n"
    files = {**_project(), "docker/dbt/profiles.yml": PROFILES, "tools/profiles.yml": other}
    result = lint(files)
    assert {i.table.name for i in _intents(result)["proj/models/marts/orders.sql"]} == {"prod_cat.sales_marts.orders"}


def test_profiles_kept_elsewhere_that_disagree_leave_the_tables_unknown(lint):
    """The near miss: two files define the project's profile with different catalogs;
    which one the run reads is not known."""
    files = {
        **_project(),
        "docker/dbt/profiles.yml": PROFILES,
        "ci/profiles.yml": PROFILES.replace("prod_cat", "ci_cat"),
    }
    result = lint(files)
    assert {i.table.name for i in _intents(result)["proj/models/marts/orders.sql"]} == {
        "{catalog}.{schema}_marts.orders"
    }


def test_node_paths_leading_out_of_the_project_are_not_walked(lint, tmp_path):
    outside = tmp_path.parent / (tmp_path.name + "_outside")
    (outside / "models").mkdir(parents=True, exist_ok=True)
    (outside / "models" / "leak.sql").write_text("{{ config(materialized='table') }}\nselect 1")
    files = {
        "p/dbt_project.yml": f'name: p\nmodel-paths: ["../../{outside.name}/models", "/", "models"]\n',
        "p/models/inside.sql": "{{ config(materialized='table') }}\nselect 1",
    }
    result = lint(files)
    assert [i.table.name for i in result.intents] == ["{catalog}.{schema}.inside"]


AS_IS_MACRO = """\
{% macro generate_schema_name(custom_schema_name, node) -%}
    {%- set default_schema = target.schema -%}
    {%- if custom_schema_name is none -%}
        {{ default_schema }}
    {%- else -%}
        {{ custom_schema_name | trim }}
    {%- endif -%}
{%- endmacro %}
"""


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents)


def test_a_project_that_uses_custom_schemas_as_written_names_them_so(lint):
    # dbt's documented override: a `+schema` is the schema itself, not `<target>_<custom>`
    files = _project(**{"databricks.yml": _bundle(DBT_TASK + CLEANUP_TASK), "proj/macros/schemas.sql": AS_IS_MACRO})
    files["notebooks/cleanup.sql"] = CLEANUP.replace("analytics_marts", "marts")
    result = lint(files)
    assert "main.marts.orders" in _tables(result)
    assert _conflicts(result) == [("main.marts.orders", {"notebooks/cleanup.sql", "proj/models/marts/orders.sql"})]


def test_an_override_of_schema_names_delta_lint_cannot_read_leaves_the_schema_unknown(lint):
    env_macro = AS_IS_MACRO.replace("{{ custom_schema_name | trim }}", "{{ target.name ~ '_' ~ custom_schema_name }}")
    result = lint(_project(**{"databricks.yml": _bundle(DBT_TASK), "proj/macros/schemas.sql": env_macro}))
    # never dbt's default rule silently: the schema is what only a run knows
    assert "main.{schema}.orders" in _tables(result)
    for_env = "{% macro generate_schema_name(custom_schema_name, node) -%}\n"
    for_env += "{{ generate_schema_name_for_env(custom_schema_name, node) }}\n{%- endmacro %}\n"
    result = lint(_project(**{"databricks.yml": _bundle(DBT_TASK), "proj/macros/x.sql": for_env}))
    assert "main.{schema}.orders" in _tables(result)
    # a macro of another name changes nothing
    other = AS_IS_MACRO.replace("generate_schema_name", "my_schema_name")
    result = lint(_project(**{"databricks.yml": _bundle(DBT_TASK), "proj/macros/x.sql": other}))
    assert "main.analytics_marts.orders" in _tables(result)


def test_dbt_build_output_beside_a_project_is_not_read_as_job_code(lint):
    compiled = "merge into main.analytics_marts.orders as t using s on t.id = s.id when matched then update set *;\n"
    files = _project(
        **{
            "databricks.yml": _bundle(DBT_TASK),
            "proj/target/run/shop/models/marts/orders.sql": compiled,
            "proj/dbt_packages/util/models/x.sql": "select 1",
            "tools/target/cleanup.sql": CLEANUP,  # a `target` folder of no dbt project is code
        }
    )
    paths = {i.location.path for i in lint(files).intents}
    assert not any("/target/run/" in p or "dbt_packages" in p for p in paths)
    assert "tools/target/cleanup.sql" in paths


def test_a_selector_only_a_run_knows_selects_every_model_with_a_note(lint):
    task = DBT_TASK.replace('"dbt build"', '"dbt build --select {{job.parameters.models}}"')
    result = lint(_project(**{"databricks.yml": _bundle(task + CLEANUP_TASK)}))
    assert _conflicts(result) == [
        ("main.analytics_marts.orders", {"notebooks/cleanup.sql", "proj/models/marts/orders.sql"})
    ]
