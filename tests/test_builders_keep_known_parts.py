"""A statement or a table name built by a function of another module, called with a
value only a run knows (a run id from `uuid4()`, `date.today()`, a watermark read
back with `.collect()`, a value of a configuration document not in the project, a
widget passed through a second helper): the value is a named placeholder of the
statement, and its known parts (the table) are kept, as the job's own reading of
the same builder keeps them. Near misses: when the unknown value is the table's
name itself, or the whole statement, the table stays unnamed."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

SQLB = (
    "def lit(val):\n"
    '    return "\'" + str(val).replace("\'", "\'\'") + "\'"\n'
    "\n"
    "\n"
    "def merge_orders(run_id):\n"
    '    return (f"MERGE INTO main.shop.orders t USING (SELECT * FROM main.shop.staging "\n'
    '            f"WHERE run_id = {lit(run_id)}) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")\n'
    "\n"
    "\n"
    "def merge_sql(target, src, batch):\n"
    "    return (f\"MERGE INTO {target} t USING (SELECT * FROM {src} WHERE batch = '{batch}') s \"\n"
    '            "ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")\n'
    "\n"
    "\n"
    "def insert_checks(table, run_id, checks):\n"
    "    rows = []\n"
    "    for name, status in checks:\n"
    '        rows.append("(" + ", ".join([lit(run_id), lit(name), lit(status)]) + ")")\n'
    '    return f"INSERT INTO {table} VALUES " + ", ".join(rows)\n'
    "\n"
    "\n"
    "def whole(run_id):\n"
    '    return run_id.upper() + " INTO main.shop.audit SELECT 1"\n'
)

NAMES = "def target(cfg, t):\n    return f\"{cfg['catalog']}.silver.{t}\"\n"


def _intents(result, path: str) -> list[tuple[int, str, str, bool]]:
    return sorted(
        (i.location.line, i.table.name, i.kind.value, "unresolved" in {f.value for f in i.flags})
        for i in result.intents
        if i.location.path.endswith(path)
    )


def _rules(result, path: str) -> list[tuple[int, str]]:
    return sorted((d.location.line, d.rule) for d in result.diagnostics if d.location.path.endswith(path))


def test_a_builder_of_another_module_given_a_run_value_keeps_the_table(lint):
    job = NOTEBOOK + (
        "import uuid\n"
        "from datetime import date\n"
        "import sqlb\n"
        "run_id = str(uuid.uuid4())[:8]\n"
        "spark.sql(sqlb.merge_orders(run_id))\n"
        "max_ts = spark.table('main.shop.src').agg({'ts': 'max'}).collect()[0][0]\n"
        "spark.sql(sqlb.merge_sql('main.shop.t_collect', 'main.shop.src', max_ts))\n"
        "spark.sql(sqlb.merge_sql('main.shop.t_today', 'main.shop.src', date.today().isoformat()))\n"
        "run_date = dbutils.widgets.get('run_date')\n"
        "spark.sql(sqlb.merge_orders(run_date))\n"
    )
    result = lint({"sqlb.py": SQLB, "job.py": job})
    assert _intents(result, "job.py") == [
        (6, "main.shop.orders", "merge", False),
        (8, "main.shop.t_collect", "merge", False),
        (9, "main.shop.t_today", "merge", False),
        (11, "main.shop.orders", "merge", False),
    ]
    assert not [r for r in _rules(result, "job.py") if r[1] == "DL007"]
    # the value the run gives is a placeholder of the statement, named as the job names it
    [collect] = [i for i in result.intents if i.location.line == 8 and i.location.path.endswith("job.py")]
    assert collect.params == ("max_ts",)


def test_a_builder_read_in_the_job_and_in_another_module_reads_alike(lint):
    same = NOTEBOOK + SQLB + "import uuid\nspark.sql(merge_orders(str(uuid.uuid4())[:8]))\n"
    other = NOTEBOOK + "import uuid\nimport sqlb\nspark.sql(sqlb.merge_orders(str(uuid.uuid4())[:8]))\n"
    result = lint({"sqlb.py": SQLB, "same.py": same, "other.py": other})
    [in_job] = [i for i in result.intents if i.location.path.endswith("same.py")]
    [imported] = [i for i in result.intents if i.location.path.endswith("other.py")]
    assert (in_job.table.name, in_job.kind, in_job.params) == (imported.table.name, imported.kind, imported.params)
    assert imported.table.name == "main.shop.orders"


def test_a_name_helper_of_another_module_given_a_document_value_keeps_the_known_parts(lint):
    job = NOTEBOOK + (
        "import json\n"
        "import names\n"
        "cfg = json.load(open('/dbfs/cfg.json'))\n"
        "df = spark.table('main.bronze.x')\n"
        "df.write.mode('append').saveAsTable(names.target(cfg, 'orders_a'))\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.silver.orders_b\")\n"
    )
    result = lint({"names.py": NAMES, "job.py": job})
    # as the same f-string written in the job: the catalog only a run gives, the rest known
    assert _intents(result, "job.py") == [
        (6, "{cfg_catalog}.silver.orders_a", "blind_append", False),
        (7, "{cfg_catalog}.silver.orders_b", "blind_append", False),
    ]
    assert not [r for r in _rules(result, "job.py") if r[1] == "DL001"]


def test_rows_built_in_a_loop_keep_the_insert_head(lint):
    job = NOTEBOOK + (
        "import sqlb\n"
        "CHECKS = [('not_null', 'PASS'), ('fresh', 'WARN')]\n"
        "spark.sql(sqlb.insert_checks('main.shop.audit_log', 'r1', CHECKS))\n"
    )
    result = lint({"sqlb.py": SQLB, "job.py": job})
    assert _intents(result, "job.py") == [(4, "main.shop.audit_log", "blind_append", False)]


def test_near_miss_a_run_value_that_is_the_table_or_the_statement_stays_unnamed(lint):
    job = NOTEBOOK + (
        "import uuid\n"
        "import sqlb\n"
        "t = str(uuid.uuid4())\n"
        "spark.sql(sqlb.merge_sql(t, 'main.shop.src', 'b1'))\n"
        "spark.sql(sqlb.whole(t))\n"
    )
    result = lint({"sqlb.py": SQLB, "job.py": job})
    named = [i for i in result.intents if i.location.path.endswith("job.py") and "unresolved" not in i.flags]
    assert not [i for i in named if "{" not in i.table.name and i.table.name != "main.shop.src"], named
    assert all(
        i.table.name.startswith("{") and "unresolved" in {f.value for f in i.flags}
        for i in result.intents
        if i.location.path.endswith("job.py")
    )
    assert (6, "DL007") in _rules(result, "job.py")


FORMATTED = (
    "def merge_fmt(target, batch):\n"
    "    return (\"MERGE INTO {} t USING (SELECT * FROM main.s.src WHERE batch = '{}') s \"\n"
    '            "ON t.id = s.id WHEN MATCHED THEN UPDATE SET *").format(target, batch)\n'
    "def insert_pct(table, run_id):\n"
    "    return \"INSERT INTO %s SELECT '%s' AS run_id, '100%%' AS pct\" % (table, run_id)\n"
    "def insert_kw(run_id):\n"
    "    return \"INSERT INTO main.s.audit_kw SELECT '{run}' AS r\".format(run=run_id)\n"
)


def test_format_and_percent_builders_keep_the_table_as_an_f_string_does(lint):
    job = NOTEBOOK + (
        "import uuid\n"
        "import sqlb\n"
        "run_id = str(uuid.uuid4())\n"
        "spark.sql(sqlb.merge_fmt('main.s.t_fmt', run_id))\n"
        "spark.sql(sqlb.insert_pct('main.s.t_pct', run_id))\n"
        "spark.sql(sqlb.insert_kw(run_id))\n"
        "spark.sql(sqlb.merge_fmt(run_id, 'b1'))\n"  # near miss: the run's value is the table
    )
    result = lint({"sqlb.py": FORMATTED, "job.py": job})
    assert _intents(result, "job.py") == [
        (5, "main.s.t_fmt", "merge", False),
        (6, "main.s.t_pct", "blind_append", False),
        (7, "main.s.audit_kw", "blind_append", False),
        (8, "{run_id}", "merge", True),
    ]
