"""Values across files: a dict known in part that one notebook hands another as
JSON text (`dbutils.notebook.run(path, t, {"conf": json.dumps(conf)})` and the
child's `json.loads(dbutils.widgets.get("conf"))`), dicts a `%run` notebook
defines, job parameters holding JSON, and configuration a helper module loads or
a class holds. A key the giver knows crosses as it is; a key it does not know (a
secret) stays unknown, never a default guessed."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
SEP = "\n# COMMAND ----------\n"


def tables(result, path: str) -> list[str]:
    return sorted(i.table.name for i in result.intents if i.table is not None and i.location.path.endswith(path))


SETUP = (
    NB + "import json\n"
    "conf = {\n"
    "    'schema': 'main.ops',\n"
    "    'secret_schema': dbutils.secrets.get(scope='s', key='schema'),\n"
    "}\n"
    "conf.update({'runs': f\"{conf['secret_schema']}.runs\"})\n"
)

CHILD = (
    NB + "import json\n"
    "conf = json.loads(dbutils.widgets.get('conf'))\n"
    "df.write.saveAsTable(f\"{conf['schema']}.known\")\n"
    "df.write.saveAsTable(conf['runs'])\n"
    "df.write.saveAsTable(f\"{conf['secret_schema']}.secret\")\n"
    "df.write.saveAsTable(conf.get('missing', 'main.ops.fallback'))\n"
)


def driver(call: str) -> str:
    return NB + "# MAGIC %run ./setup\n" + SEP + "import json\n" + call


def test_a_dict_known_in_part_crosses_notebook_run_as_json_text(lint):
    call = "dbutils.notebook.run('./child', 600, {'conf': json.dumps(conf)})\n"
    result = lint({"setup.py": SETUP, "driver.py": driver(call), "child.py": CHILD})
    got = tables(result, "child.py")
    assert "main.ops.known" in got  # a key the caller knows
    assert any(t.endswith(".runs") and t.startswith("{") and t != "{runs}" for t in got)  # a template, as it is
    # the secret stays unknown, and a key no caller gives is not the default
    assert not any(t.startswith("main.ops.") and t != "main.ops.known" for t in got)
    assert any(t.startswith("{") and t.endswith(".secret") for t in got)


def test_a_copy_updated_in_a_function_crosses_too(lint):
    call = (
        "def process(ws):\n"
        "    ws_conf = dict(conf)\n"
        "    ws_conf.update({'workspace': ws.id})\n"
        "    dbutils.notebook.run('./child', 600, {'conf': json.dumps(ws_conf)})\n"
        "for ws in spark.table('main.ops.workspaces').collect():\n"
        "    process(ws)\n"
    )
    child = CHILD + "df.write.saveAsTable(f\"main.ops.ws_{conf['workspace']}\")\n"
    result = lint({"setup.py": SETUP, "driver.py": driver(call), "child.py": child})
    got = tables(result, "child.py")
    assert "main.ops.known" in got
    assert not any(t.startswith("main.ops.ws_") and "{" not in t for t in got)  # the workspace: a run's


def test_callers_that_hand_different_dicts_bind_nothing(lint):
    call = (
        "dbutils.notebook.run('./child', 600, {'conf': json.dumps(conf)})\n"
        "other = dict(conf)\n"
        "other.update({'schema': 'main.other'})\n"
        "dbutils.notebook.run('./child', 600, {'conf': json.dumps(other)})\n"
    )
    result = lint({"setup.py": SETUP, "driver.py": driver(call), "child.py": CHILD})
    got = tables(result, "child.py")
    assert "main.ops.known" not in got and "main.other.known" not in got


def test_the_json_text_read_as_text_is_a_named_input(lint):
    call = "dbutils.notebook.run('./child', 600, {'conf': json.dumps(conf)})\n"
    child = NB + "df.write.saveAsTable(dbutils.widgets.get('conf'))\n"
    result = lint({"setup.py": SETUP, "driver.py": driver(call), "child.py": child})
    assert tables(result, "child.py") == ["{conf}"]  # never the dict's text as the analyzer keeps it


def test_a_fully_known_dict_crosses_as_its_json_text(lint):
    setup = NB + "conf = {'schema': 'main.ops'}\n"
    call = "dbutils.notebook.run('./child', 600, {'conf': json.dumps(conf)})\n"
    child = (
        NB
        + "import json\nconf = json.loads(dbutils.widgets.get('conf'))\ndf.write.saveAsTable(conf['schema'] + '.t')\n"
    )
    result = lint({"setup.py": setup, "driver.py": driver(call), "child.py": child})
    assert tables(result, "child.py") == ["main.ops.t"]


RUN_SETUP = (
    NB + "secret = dbutils.secrets.get(scope='s', key='schema')\n"
    "conf = {'runs': f'{secret}.ops.runs', 'schema': secret, 'nested': {'table': 'main.ops.nested'}, 'db': 'main'}\n"
)


def test_a_run_notebook_dict_keeps_templates_and_nested_dicts(lint):
    main = (
        NB + "# MAGIC %run ./setup\n" + SEP + "df.write.saveAsTable(conf['runs'])\n"
        "df.write.saveAsTable(conf['nested']['table'])\n"
    )
    got = tables(lint({"setup.py": RUN_SETUP, "main.py": main}), "main.py")
    assert "main.ops.nested" in got
    assert any(t.startswith("{") and t.endswith(".ops.runs") for t in got)


def test_a_run_notebook_dict_key_not_known_is_no_get_default(lint):
    main = NB + "# MAGIC %run ./setup\n" + SEP + "df.write.saveAsTable(conf.get('schema', 'main.ops') + '.t')\n"
    got = tables(lint({"setup.py": RUN_SETUP, "main.py": main}), "main.py")
    assert "main.ops.t" not in got  # `schema` is a secret: the key is there, its value unknown


def test_a_one_of_value_crosses_notebook_run(lint):
    setup = (
        NB + "s = dbutils.secrets.get(scope='s', key='schema')\n"
        "conf = {'schema': s}\n"
        "conf.update({'inter': 'main.inter' if '.' in s else 'hive_metastore.inter'})\n"
    )
    call = "dbutils.notebook.run('./child', 600, {'conf': json.dumps(conf)})\n"
    child = (
        NB
        + "import json\nconf = json.loads(dbutils.widgets.get('conf'))\nt = conf['inter'] + '.t'\ndf.write.saveAsTable(t)\n"
    )
    result = lint({"setup.py": setup, "driver.py": driver(call), "child.py": child})
    assert tables(result, "child.py") == ["hive_metastore.inter.t", "main.inter.t"]


def test_job_parameters_holding_json_bind_the_child_fields(lint):
    child = (
        NB
        + "import json\nconf = json.loads(dbutils.widgets.get('conf'))\ndf.write.saveAsTable(conf['schema'] + '.t')\n"
    )
    bundle = (
        "bundle: {name: b}\n"
        "resources:\n"
        "  jobs:\n"
        "    j:\n"
        "      name: j\n"
        "      tasks:\n"
        "        - task_key: t\n"
        "          notebook_task:\n"
        "            notebook_path: ./child.py\n"
        "            base_parameters:\n"
        '              conf: \'{"schema": "main.ops"}\'\n'
    )
    result = lint({"child.py": child, "databricks.yml": bundle})
    assert tables(result, "child.py") == ["main.ops.t"]


def test_a_sql_child_is_never_given_the_dict_as_text(lint):
    call = "dbutils.notebook.run('./child', 600, {'conf': json.dumps(conf)})\n"
    child = "INSERT INTO main.ops.t_${conf} VALUES (1);\n"
    result = lint({"setup.py": SETUP, "driver.py": driver(call), "child.sql": child})
    got = tables(result, "child.sql")
    assert got and not any("\x00" in t or "json" in t for t in got)


ONE_OF_SETUP = (
    NB + "s = dbutils.secrets.get(scope='s', key='schema')\n"
    "conf = {'schema': s}\n"
    "conf.update({'inter': f\"{s.split('.')[0]}.inter\" if '.' in s else 'hive_metastore.inter'})\n"
)


def test_a_use_of_one_of_several_schemas_leaves_the_parts_they_share(lint):
    main = NB + "# MAGIC %run ./setup\n" + SEP + "spark.sql(f\"USE {conf['inter']}\")\ndf.write.saveAsTable('t')\n"
    got = tables(lint({"setup.py": ONE_OF_SETUP, "main.py": main}), "main.py")
    # the schema both give; the catalog one of two, one of them known only at run time
    assert got == ["{one_of}.inter.t"]


def test_a_use_of_one_schema_is_that_schema(lint):
    setup = NB + "conf = {'inter': 'hive_metastore.inter'}\n"
    main = NB + "# MAGIC %run ./setup\n" + SEP + "spark.sql(f\"USE {conf['inter']}\")\ndf.write.saveAsTable('t')\n"
    assert tables(lint({"setup.py": setup, "main.py": main}), "main.py") == ["hive_metastore.inter.t"]


def test_a_use_of_a_name_holding_one_of_several_never_keeps_the_session_before(lint):
    main = (
        NB + "spark.sql('USE main.before')\n"
        "x = 'a.s' if flag else 'b.s'\n"
        "spark.sql(f'USE {x}')\n"
        "df.write.saveAsTable('t')\n"
    )
    got = tables(lint({"main.py": main}), "main.py")
    assert got == ["a.s.t", "b.s.t"]  # one write per name, never `main.before.t`


def test_a_dict_set_two_ways_crosses_run_key_by_key(lint):
    setup = (
        NB + "conf = {'schema': 'main.ops', 'cloud': 'aws'}\n"
        "if cloud == 'azure':\n"
        "    conf.update({'cloud': 'azure', 'tenant': dbutils.secrets.get('s', 't')})\n"
    )
    call = "dbutils.notebook.run('./child', 600, {'conf': json.dumps(conf)})\n"
    child = (
        NB + "import json\nconf = json.loads(dbutils.widgets.get('conf'))\n"
        "df.write.saveAsTable(conf['schema'] + '.t')\n"
        "df.write.saveAsTable('main.ops.' + conf.get('tenant', 'none'))\n"
    )
    result = lint({"setup.py": setup, "driver.py": driver(call), "child.py": child})
    got = tables(result, "child.py")
    assert "main.ops.t" in got  # the same on both paths
    assert "main.ops.none" not in got  # a key one path lacks: not known, never the default


def test_a_child_path_built_under_a_workspace_folder_is_found_by_its_tail(lint):
    call = "dbutils.notebook.run(f'/Workspace{base}/jobs/child', 600, {'conf': json.dumps(conf)})\n"
    files = {"setup.py": SETUP, "driver.py": driver(call), "jobs/child.py": CHILD}
    assert "main.ops.known" in tables(lint(files), "jobs/child.py")


def test_a_path_with_no_known_tail_runs_no_child(lint):
    call = "dbutils.notebook.run(f'/Workspace{base}', 600, {'conf': json.dumps(conf)})\n"
    files = {"setup.py": SETUP, "driver.py": driver(call), "jobs/child.py": CHILD}
    assert "main.ops.known" not in tables(lint(files), "jobs/child.py")


def test_pool_calls_handing_a_dict_known_in_part_write_tables_of_their_own(lint):
    call = (
        "from concurrent.futures import ThreadPoolExecutor\n"
        "def process(ws):\n"
        "    ws_conf = dict(conf)\n"
        "    ws_conf.update({'workspace': ws.id})\n"
        "    dbutils.notebook.run('./child', 600, {'conf': json.dumps(ws_conf)})\n"
        "with ThreadPoolExecutor(4) as pool:\n"
        "    pool.map(process, spark.table('main.ops.workspaces').collect())\n"
    )
    child = NB + "import json\nconf = json.loads(dbutils.widgets.get('conf'))\n"
    child += "df.write.mode('overwrite').saveAsTable(f\"{conf['schema']}.ws_{conf['workspace']}\")\n"
    result = lint({"setup.py": SETUP, "driver.py": driver(call), "child.py": child})
    assert any(t.startswith("main.ops.ws_") for t in tables(result, "child.py"))
    assert not [f for f in result.findings if f.rule == "DL102"]  # each call its workspace's table
    # the dict made in the driver itself, so its first reading already hands it on
    own = NB + "import json\n" + SETUP.removeprefix(NB).removeprefix("import json\n") + call
    result = lint({"driver.py": own, "child.py": child})
    assert any(t.startswith("main.ops.ws_") for t in tables(result, "child.py"))
    assert not [f for f in result.findings if f.rule == "DL102"]


def test_pool_calls_under_a_use_of_one_of_several_schemas_write_tables_of_their_own(lint):
    call = (
        "from concurrent.futures import ThreadPoolExecutor\n"
        "def process(ws):\n"
        "    ws_conf = dict(conf)\n"
        "    ws_conf.update({'workspace': ws.id})\n"
        "    dbutils.notebook.run('./child', 600, {'conf': json.dumps(ws_conf)})\n"
        "with ThreadPoolExecutor(4) as pool:\n"
        "    pool.map(process, spark.table('main.ops.workspaces').collect())\n"
    )
    child = (
        NB + "import json\nconf = json.loads(dbutils.widgets.get('conf'))\n"
        "spark.sql(f\"USE {conf['inter']}\")\n"
        "df.write.mode('overwrite').saveAsTable(f\"ws_{conf['workspace']}\")\n"
    )
    result = lint({"setup.py": ONE_OF_SETUP, "driver.py": driver(call), "child.py": child})
    assert tables(result, "child.py") == ["{one_of}.inter.ws_{conf_workspace}"]
    assert not [f for f in result.findings if f.rule == "DL102"]  # each call its workspace's table


HELPERS = (
    "import yaml\n"
    "def load_config(path):\n"
    "    with open(path) as f:\n"
    "        return yaml.safe_load(f)\n"
    "def table(name):\n"
    "    return load_config('conf/x.yml')['tables'][name]\n"
)
YML = "tables:\n  orders: main.sales.orders\n  items: main.sales.items\n"


def test_a_helper_module_loading_a_project_config_gives_its_keys(lint):
    job = (
        "from helpers import load_config, table\n"
        "cfg = load_config('conf/x.yml')\n"
        "df.write.saveAsTable(cfg['tables']['orders'])\n"
        "df.write.saveAsTable(table('items'))\n"
    )
    got = tables(lint({"helpers.py": HELPERS, "conf/x.yml": YML, "job.py": job}), "job.py")
    assert got == ["main.sales.items", "main.sales.orders"]


def test_a_config_path_only_a_run_knows_stays_unknown(lint):
    job = "import sys\nfrom helpers import load_config\ncfg = load_config(sys.argv[1])\n"
    job += "df.write.saveAsTable(cfg['tables']['orders'])\n"
    got = tables(lint({"helpers.py": HELPERS, "conf/x.yml": YML, "job.py": job}), "job.py")
    assert got and not any(t.startswith("main.") for t in got)


def config_module(envs: str) -> str:
    return (
        "from dataclasses import dataclass\n"
        "class Names:\n"
        "    CATALOG = 'main'\n"
        "    SCHEMA = 'sales'\n"
        f"ENVS = {envs}\n"
        "@dataclass\n"
        "class Env:\n"
        "    catalog: str\n"
        "    schema: str\n"
        "    @classmethod\n"
        "    def get(cls, env='dev'):\n"
        "        return cls(**ENVS[env])\n"
    )


ENVS = "{'dev': {'catalog': 'dev', 'schema': 's'}, 'prod': {'catalog': 'prod', 'schema': 's'}}"


def test_a_config_class_of_another_module_gives_its_attributes(lint):
    job = "from config import Names\ncfg = Names\ndf.write.saveAsTable(f'{cfg.CATALOG}.{cfg.SCHEMA}.orders')\n"
    assert tables(lint({"config.py": config_module(ENVS), "job.py": job}), "job.py") == ["main.sales.orders"]


def test_a_factory_over_a_module_level_dict_of_another_module_builds_the_entry(lint):
    job = "from config import Env\ncfg = Env.get('prod')\ndf.write.saveAsTable(f'{cfg.catalog}.{cfg.schema}.orders')\n"
    assert tables(lint({"config.py": config_module(ENVS), "job.py": job}), "job.py") == ["prod.s.orders"]


def test_a_factory_over_a_dict_known_in_part_or_an_unknown_entry_stays_unknown(lint):
    secret = "{'prod': {'catalog': dbutils.secrets.get('s', 'c'), 'schema': 's'}}"
    job = "from config import Env\ncfg = Env.get('prod')\ndf.write.saveAsTable(f'{cfg.catalog}.{cfg.schema}.orders')\n"
    got = tables(lint({"config.py": config_module(secret), "job.py": job}), "job.py")
    assert got and not any(t.startswith("prod.") or t.startswith("main.") for t in got)
    job = "from config import Env\ncfg = Env.get(dbutils.widgets.get('env'))\n"
    job += "df.write.saveAsTable(f'{cfg.catalog}.{cfg.schema}.orders')\n"
    got = tables(lint({"config.py": config_module(ENVS), "job.py": job}), "job.py")
    assert got and got not in (["prod.s.orders"], ["dev.s.orders"])  # never one entry picked


def test_a_json_round_trip_of_a_dict_known_in_part_is_its_copy(lint):
    main = (
        NB + "import json\n"
        "conf = {'schema': 'main.ops', 'secret': dbutils.secrets.get('s', 'k')}\n"
        "copy = json.loads(json.dumps(conf))\n"
        "df.write.saveAsTable(copy['schema'] + '.t')\n"
        "df.write.saveAsTable(copy.get('secret', 'main.ops') + '.u')\n"
    )
    got = tables(lint({"main.py": main}), "main.py")
    assert "main.ops.t" in got and "main.ops.u" not in got


def test_a_json_round_trip_of_a_value_not_known_stays_unknown(lint):
    main = NB + "import json\ncopy = json.loads(json.dumps(load()))\ndf.write.saveAsTable(copy['schema'] + '.t')\n"
    got = tables(lint({"main.py": main}), "main.py")
    assert got and not got[0].startswith("main.")
