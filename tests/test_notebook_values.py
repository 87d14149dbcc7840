"""Values a notebook hands another at run time: `dbutils.notebook.run` returns the
callee's `dbutils.notebook.exit` argument (often `json.dumps` of a dict the caller
`json.loads`). Unknown, never one branch picked, where the callee cannot tell."""

from __future__ import annotations

NB = "# Databricks notebook source\n"


def tables(result, path: str) -> list[str]:
    return sorted(i.table.name for i in result.intents if i.table is not None and i.location.path.endswith(path))


CONFIG = (
    NB + "import json\n"
    "user = spark.sql('select current_user()').first()[0]\n"
    "catalog_name = user.split('@')[0]\n"
    "database_name = 'mta'\n"
    'dbutils.notebook.exit(json.dumps({"database_name": database_name, "catalog_name": catalog_name}))\n'
)

JSON_CALLER = (
    NB + "import json\n"
    "params = json.loads(dbutils.notebook.run('./config/cfg', timeout_seconds=60))\n"
    "df.write.saveAsTable(f\"{params['database_name']}.bronze\")\n"
    "df.write.saveAsTable(f\"{params['catalog_name']}.{params['database_name']}.silver\")\n"
)


def test_a_json_dumped_exit_gives_the_caller_its_known_fields(lint):
    result = lint({"config/cfg.py": CONFIG, "load.py": JSON_CALLER})
    got = tables(result, "load.py")
    assert "mta.bronze" in got
    # the catalog comes from the user's name: a placeholder, never a guess
    assert any(t.endswith(".mta.silver") and t.startswith("{") for t in got)


def test_a_callee_that_does_not_exist_leaves_the_value_unknown(lint):
    result = lint({"config/other.py": CONFIG, "load.py": JSON_CALLER})
    assert not any(t.startswith("mta") or ".mta." in t for t in tables(result, "load.py"))


def test_a_string_exit_is_the_table_name(lint):
    child = NB + "dbutils.notebook.exit('main.s.t')\n"
    caller = NB + "t = dbutils.notebook.run('./child', 600)\ndf.write.saveAsTable(t)\n"
    result = lint({"child.py": child, "job.py": caller})
    assert tables(result, "job.py") == ["main.s.t"]


def test_exits_in_two_branches_with_different_values_stay_unknown(lint):
    child = NB + "if flag:\n    dbutils.notebook.exit('main.s.a')\ndbutils.notebook.exit('main.s.b')\n"
    caller = NB + "t = dbutils.notebook.run('./child', 600)\ndf.write.saveAsTable(t)\n"
    result = lint({"child.py": child, "job.py": caller})
    assert not any(t in ("main.s.a", "main.s.b") for t in tables(result, "job.py"))


def test_an_exit_only_inside_an_if_stays_unknown(lint):
    child = NB + "if flag:\n    dbutils.notebook.exit('main.s.a')\n"
    caller = NB + "t = dbutils.notebook.run('./child', 600)\ndf.write.saveAsTable(t)\n"
    result = lint({"child.py": child, "job.py": caller})
    assert "main.s.a" not in tables(result, "job.py")


# job task values: `taskValues.get` of a key is what the notebooks of the project
# that set that key set it to (every such notebook, whichever task runs it)
GETTER = (
    NB + "t = dbutils.jobs.taskValues.get(taskKey='prepare', key='target', default='x', debugValue='x')\n"
    "df.write.saveAsTable(t)\n"
)


def test_a_task_value_set_in_one_notebook_is_what_another_gets(lint):
    setter = NB + "dbutils.jobs.taskValues.set(key='target', value='main.s.t')\n"
    result = lint({"prepare.py": setter, "load.py": GETTER})
    assert tables(result, "load.py") == ["main.s.t"]


def test_a_task_value_set_to_two_values_is_one_of_them(lint):
    a = NB + "dbutils.jobs.taskValues.set(key='target', value='main.s.a')\n"
    b = NB + "dbutils.jobs.taskValues.set('target', 'main.s.b')\n"
    result = lint({"a.py": a, "b.py": b, "load.py": GETTER})
    assert tables(result, "load.py") == ["main.s.a", "main.s.b"]


def test_a_task_value_set_to_a_value_not_known_stays_unknown(lint):
    a = NB + "dbutils.jobs.taskValues.set(key='target', value='main.s.a')\n"
    b = NB + "dbutils.jobs.taskValues.set(key='target', value=spark.table('c').first()[0])\n"
    other = NB + "dbutils.jobs.taskValues.set(key='other', value='main.s.o')\n"
    result = lint({"a.py": a, "b.py": b, "o.py": other, "load.py": GETTER})
    assert not any(t.startswith("main.") for t in tables(result, "load.py"))


def test_a_run_inside_a_function_of_a_run_notebook_is_relative_to_the_running_notebook(lint):
    utils = (
        NB + "def get_params():\n"
        "    import json\n"
        "    params = json.loads(dbutils.notebook.run('./config/cfg', timeout_seconds=60))\n"
        "    database_name = params['database_name']\n"
        "    catalog_name = params['catalog_name']\n"
        '    return {"catalog_name": catalog_name, "database_name": database_name}\n'
    )
    job = (
        NB + "# MAGIC %run ./config/utils\n\n# COMMAND ----------\n\n"
        "params = get_params()\n"
        "catalog_name = params['catalog_name']\n"
        "database_name = params['database_name']\n"
        'df.writeStream.toTable(f"{catalog_name}.{database_name}.bronze")\n'
        'df.write.saveAsTable(f"{database_name}.silver")\n'
    )
    result = lint({"config/cfg.py": CONFIG, "config/utils.py": utils, "load.py": job})
    got = tables(result, "load.py")
    assert "mta.silver" in got
    assert any(t.endswith(".mta.bronze") and t.startswith("{") for t in got)


JOB_BUNDLE = """
bundle: {name: flow}
resources:
  jobs:
    flow:
      name: flow
      tasks:
        - task_key: prepare
          notebook_task: {notebook_path: ./prepare.py}
        - task_key: load
          depends_on: [{task_key: prepare}]
          notebook_task: {notebook_path: ./load.py}
"""


def test_a_task_value_of_a_job_is_what_the_named_task_sets(lint):
    prepare = NB + "dbutils.jobs.taskValues.set(key='target', value='main.s.t')\n"
    # another job's notebook sets the same key: not the task `prepare` names
    other = NB + "dbutils.jobs.taskValues.set(key='target', value='main.s.other')\n"
    result = lint({"databricks.yml": JOB_BUNDLE, "prepare.py": prepare, "other.py": other, "load.py": GETTER})
    assert tables(result, "load.py") == ["main.s.t"]


def test_a_task_of_a_job_that_sets_no_such_key_leaves_it_unknown(lint):
    prepare = NB + "dbutils.jobs.taskValues.set(key='table', value='main.s.t')\n"
    other = NB + "dbutils.jobs.taskValues.set(key='target', value='main.s.other')\n"
    result = lint({"databricks.yml": JOB_BUNDLE, "prepare.py": prepare, "other.py": other, "load.py": GETTER})
    assert not any(t.startswith("main.") for t in tables(result, "load.py"))


def test_a_task_value_set_in_a_function_stays_unknown(lint):
    a = NB + "dbutils.jobs.taskValues.set(key='target', value='main.s.a')\n"
    b = NB + "def publish():\n    dbutils.jobs.taskValues.set(key='target', value='main.s.b')\n"
    result = lint({"a.py": a, "b.py": b, "load.py": GETTER})
    assert not any(t.startswith("main.") for t in tables(result, "load.py"))
