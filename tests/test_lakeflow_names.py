"""The tables a Lakeflow pipeline's source files define when their names are not
literals: module constants, the pipeline's `configuration` (`spark.conf.get` in
Python, `${key}` in SQL), loops over a known list and factory functions — each
read through the whole run (a bundle defines the pipeline), and a name no reading
can tell kept as an unresolved intent with a note, never dropped or replaced by the
function's name."""

from __future__ import annotations

import pytest

from delta_lint.model import Flag

BUNDLE = """
bundle: {name: shop}
variables:
  catalog: {default: shop}
resources:
  pipelines:
    medallion:
      catalog: ${var.catalog}
      schema: bronze
      configuration:
        catalog: ${var.catalog}
        layer: silver
      libraries:
        - file: {path: src/pipeline.py}
        - file: {path: src/tables.sql}
"""
EMPTY_SQL = "-- no datasets\n"


def _read(lint, pipeline: str, sql: str = EMPTY_SQL):
    result = lint({"databricks.yml": BUNDLE, "src/pipeline.py": pipeline, "src/tables.sql": sql})
    intents = [i for r in result.files for i in r.intents if i.subkind == "lakeflow"]
    notes = [d for d in result.diagnostics if d.rule == "DL001"]
    return intents, notes


def _names(intents) -> list[str]:
    return sorted(i.table.name for i in intents)


def test_constants_name_decorated_tables_and_cdc_targets(lint):
    code = (
        "import dlt\nfrom pyspark import pipelines as dp\n"
        'CUSTOMERS = "shop.silver.customers"\nORDERS = "orders_clean"\n'
        "@dp.table(name=ORDERS)\ndef build_orders():\n    return spark.read.table('shop.raw.orders')\n"
        "dp.create_streaming_table(name=CUSTOMERS)\n"
        "dp.create_auto_cdc_flow(target=CUSTOMERS, source='feed', keys=['id'], sequence_by='ts')\n"
        'payments = "shop.silver.payments"\n'
        "dlt.apply_changes(target=payments, source='p', keys=['id'], sequence_by='ts')\n"
    )
    intents, notes = _read(lint, code)
    assert _names(intents) == ["shop.bronze.orders_clean", "shop.silver.customers", "shop.silver.payments"]
    assert notes == []


def test_the_configuration_names_the_catalog_and_a_missing_key_takes_the_default(lint):
    code = (
        "from pyspark import pipelines as dp\n"
        'CATALOG = spark.conf.get("catalog")\n'
        'LAYER = spark.conf.get("layer")\n'
        'REGION = spark.conf.get("region", "eu")\n'
        '@dp.table(name=f"{CATALOG}.{LAYER}.dim_store")\ndef dim_store():\n    return spark.read.table("x")\n'
        '@dp.table(name=f"{REGION}_stores")\ndef regional():\n    return spark.read.table("x")\n'
    )
    intents, notes = _read(lint, code)
    assert _names(intents) == ["shop.bronze.eu_stores", "shop.silver.dim_store"]
    assert notes == []


def test_a_name_only_a_run_knows_is_unresolved_never_the_function_name(lint):
    code = (
        "from pyspark import pipelines as dp\n"
        'CATALOG = spark.conf.get("not_configured")\n'
        '@dp.table(name=f"{CATALOG}.silver.dim_store")\ndef dim_store():\n    return spark.read.table("x")\n'
    )
    intents, notes = _read(lint, code)
    assert [i.table.name for i in intents] == ["{catalog}.silver.dim_store"]
    assert all("unresolved" in {f.value for f in i.flags} for i in intents)
    assert [n.location.line for n in notes] == [3]
    assert "shop.bronze.dim_store" not in _names(intents)


def test_a_loop_over_a_known_list_defines_one_table_per_item(lint):
    code = (
        "import dlt\n"
        "for source, target in [('raw_a', 'a'), ('raw_b', 'b')]:\n"
        "    dlt.create_streaming_table(f'bronze_{target}')\n"
        "    dlt.apply_changes(target=f'bronze_{target}', source=source, keys=['id'], sequence_by='ts')\n"
    )
    intents, notes = _read(lint, code)
    assert _names(intents) == ["shop.bronze.bronze_a", "shop.bronze.bronze_b"]
    assert notes == []


def test_a_factory_function_called_per_table_defines_each(lint):
    code = (
        "import dlt\n"
        "TABLES = ['orders', 'customers']\n"
        "def make_bronze(name, schema='bronze'):\n"
        "    @dlt.table(name=f'{schema}_{name}')\n"
        "    def _t():\n"
        "        return spark.readStream.table(f'shop.raw.{name}')\n"
        "for t in TABLES:\n"
        "    make_bronze(t)\n"
        "make_bronze('payments', schema='silver')\n"
    )
    intents, notes = _read(lint, code)
    assert _names(intents) == [
        "shop.bronze.bronze_customers",
        "shop.bronze.bronze_orders",
        "shop.bronze.silver_payments",
    ]
    assert {i.kind.value for i in intents} == {"streaming_write"}
    assert notes == []


def test_a_factory_no_call_reaches_is_read_with_its_parameters_unknown(lint):
    code = (
        "import dlt\n"
        "def make_bronze(name):\n"
        "    @dlt.table(name=f'bronze_{name}')\n"
        "    def _t():\n"
        "        return spark.read.table('x')\n"
        "list(map(make_bronze, load_names()))\n"
    )
    intents, notes = _read(lint, code)
    assert _names(intents) == ["bronze_{name}"]
    assert [n.location.line for n in notes] == [3]


def test_a_name_bound_on_two_branches_is_unresolved_and_said(lint):
    code = (
        "import dlt\n"
        "if spark.conf.get('env_unknown', None) == 'prod':\n    TARGET = 'orders'\nelse:\n    TARGET = 'orders_dev'\n"
        "@dlt.table(name=TARGET)\ndef t():\n    return spark.read.table('x')\n"
    )
    intents, _ = _read(lint, code)
    # the configuration has no `env_unknown`: its default, None, is not 'prod'
    assert [i.table.name for i in intents] == ["shop.bronze.orders_dev"]
    # a test only a run can tell: the name is one of the two, each intent saying so
    intents, notes = _read(lint, code.replace("spark.conf.get('env_unknown', None)", "os.environ['ENV']"))
    assert sorted(i.table.name for i in intents) == ["shop.bronze.orders", "shop.bronze.orders_dev"]
    assert all(Flag.ONE_OF in i.flags for i in intents) and not notes


@pytest.mark.parametrize(
    ("sql", "expected", "unresolved"),
    [
        (
            "CREATE OR REFRESH STREAMING TABLE `${catalog}`.silver.customers AS SELECT 1;\n",
            "shop.silver.customers",
            False,
        ),
        ("CREATE OR REFRESH MATERIALIZED VIEW ${layer}_daily AS SELECT 1;\n", "shop.bronze.silver_daily", False),
        ("CREATE OR REFRESH STREAMING TABLE ${nowhere}.silver.x AS SELECT 1;\n", "{nowhere}.silver.x", True),
    ],
)
def test_sql_datasets_take_the_configuration_values(lint, sql, expected, unresolved):
    intents, notes = _read(lint, "import dlt\n", sql)
    assert [i.table.name for i in intents] == [expected]
    assert bool(notes) is unresolved


NESTED = """
bundle: {{name: {name}}}
resources:
  pipelines:
    medallion:
      catalog: shop
      schema: {schema}
      libraries:
        - file: {{path: src/tables.sql}}
"""


def test_the_pipelines_of_bundles_in_folders_below_the_root_are_read(lint):
    """A repository whose bundles sit in folders (no bundle at the root): each
    bundle's pipelines are read, a key two bundles share kept apart."""
    result = lint(
        {
            "sales/databricks.yml": NESTED.format(name="sales", schema="sales"),
            "sales/src/tables.sql": "CREATE OR REFRESH STREAMING TABLE orders AS SELECT 1;\n",
            "hr/databricks.yml": NESTED.format(name="hr", schema="hr"),
            "hr/src/tables.sql": "CREATE OR REFRESH MATERIALIZED VIEW staff AS SELECT 1;\n",
        }
    )
    intents = [i for r in result.files for i in r.intents if i.subkind == "lakeflow"]
    assert _names(intents) == ["shop.hr.staff", "shop.sales.orders"]
    assert not result.skipped


def test_a_configuration_value_only_a_run_knows_is_not_the_codes_default(lint):
    bundle = BUNDLE.replace(
        "        layer: silver\n",
        "        layer: silver\n        target: ${workspace.current_user.short_name}_orders\n",
    )
    code = (
        "import dlt\n@dlt.table(name=spark.conf.get('target', 'orders'))\ndef t():\n    return spark.read.table('x')\n"
    )
    result = lint({"databricks.yml": bundle, "src/pipeline.py": code, "src/tables.sql": EMPTY_SQL})
    intents = [i for r in result.files for i in r.intents if i.subkind == "lakeflow"]
    assert [i.table.name for i in intents] == ["{spark_conf_get_target_orders}"]


def test_a_name_the_body_assigns_again_is_not_the_bound_value(lint):
    code = (
        "import dlt\n"
        "for t in ['l1', 'l2']:\n    t = t + '_v2'\n    dlt.create_streaming_table(t)\n"
        "def make(t):\n    t = 'fixed_' + t\n    dlt.apply_changes(target=t, source='s', keys=['id'], sequence_by='ts')\n"
        "make('m1')\n"
        "def kw(**options):\n    dlt.apply_changes(target=TABLE, source='s', keys=['id'], sequence_by='ts')\n"
        "TABLE = 'constant'\nkw(TABLE='not_a_parameter')\n"
    )
    intents, _ = _read(lint, code)
    names = _names(intents)
    assert "shop.bronze.l1" not in names and "shop.bronze.m1" not in names
    assert "shop.bronze.constant" in names and "shop.bronze.not_a_parameter" not in names


def test_calls_past_the_budget_and_functions_handed_on_are_read_unbound(lint):
    calls = "".join(f"make('t{i}')\n" for i in range(300))
    code = (
        "import dlt\ndef make(t):\n    @dlt.table(name=t)\n    def _f():\n        return spark.read.table('x')\n"
        + calls
    )
    intents, notes = _read(lint, code)
    # each call the module's reading follows defines its own table
    assert len(intents) == 300 and "{t}" not in _names(intents) and not notes
    mapped = "import dlt\ndef make(t):\n    dlt.create_streaming_table(t)\n    dlt.apply_changes(target=t, source='s', keys=['id'], sequence_by='ts')\nmake('a')\nlist(map(make, ['b', 'c']))\n"
    intents, _ = _read(lint, mapped)
    assert _names(intents) == ["shop.bronze.a", "{t}"]


def test_datasets_in_match_cases_try_star_and_class_bodies_are_read(lint):
    code = (
        "import dlt\nkind = spark.conf.get('layer')\n"
        "match kind:\n    case 'silver':\n        @dlt.table(name='in_match')\n        def m():\n            return spark.read.table('x')\n"
        "try:\n    pass\nexcept* ValueError:\n    @dlt.table(name='in_except_star')\n    def e():\n        return spark.read.table('x')\n"
        "class Tables:\n    @dlt.table(name='in_class')\n    def c(self):\n        return spark.read.table('x')\n"
    )
    intents, _ = _read(lint, code)
    assert _names(intents) == ["shop.bronze.in_class", "shop.bronze.in_except_star", "shop.bronze.in_match"]


def test_a_file_two_pipelines_share_is_read_with_each_configuration(lint):
    bundle = """
bundle: {name: shop}
resources:
  pipelines:
    eu:
      catalog: shop
      schema: bronze
      configuration: {target: eu_orders}
      libraries: [{file: {path: src/pipeline.py}}]
    us:
      catalog: shop
      schema: bronze
      configuration: {target: us_orders}
      libraries: [{file: {path: src/pipeline.py}}]
"""
    code = "import dlt\n@dlt.table(name=spark.conf.get('target'))\ndef t():\n    return spark.read.table('x')\n"
    result = lint({"databricks.yml": bundle, "src/pipeline.py": code})
    assert _names([i for r in result.files for i in r.intents]) == ["shop.bronze.eu_orders", "shop.bronze.us_orders"]


def test_a_key_the_sql_sets_itself_and_alike_unresolved_names_stay_apart(lint):
    sql = "SET layer = gold;\nCREATE OR REFRESH MATERIALIZED VIEW ${layer}_mv AS SELECT 1;\n"
    intents, notes = _read(lint, "import dlt\n", sql)
    assert [i.table.name for i in intents] == ["{layer}_mv"] and notes
    code = (
        "import dlt\nimport os\nNAME = os.environ['A']\n"
        "@dlt.table(name=NAME)\ndef one():\n    return spark.read.table('x')\n"
        "@dlt.table(name=NAME)\ndef two():\n    return spark.read.table('x')\n"
    )
    intents, notes = _read(lint, code)
    assert [i.location.line for i in intents] == [4, 7] and len(notes) == 2
    # a name bound twice holds the last value at both: one table, both resolved
    intents, notes = _read(lint, code.replace("import os\nNAME = os.environ['A']\n", "NAME = 'a'\nNAME = 'b'\n"))
    assert _names(intents) == ["shop.bronze.b"] and not notes
