"""Calls followed into other modules of the project: methods of a class imported
from a package, helpers that call their own module's functions, each read at the
call with the callee's own module scope. Each case has a near miss that must stay
as it is."""

from __future__ import annotations

LOADER = """from pyspark.sql import SparkSession


class DataLoader:
    def __init__(self, filepath: str, config) -> None:
        self.df = self._load(filepath)
        self.config = config

    def _load(self, filepath):
        return filepath

    def save_to_catalog(self, train_set, test_set) -> None:
        spark = SparkSession.builder.getOrCreate()
        spark.createDataFrame(train_set).write.mode("append").saveAsTable(
            f"{self.config.catalog_name}.{self.config.schema_name}.train_set"
        )
"""


def writes(result) -> dict[str, list[tuple[int, str]]]:
    """path -> (line, table) of every intent, sorted."""
    out: dict[str, list[tuple[int, str]]] = {}
    for intent in result.intents:
        if intent.table is not None:
            out.setdefault(intent.location.path, []).append((intent.location.line, intent.table.name))
    return {path: sorted(found) for path, found in out.items()}


def test_a_method_of_a_class_imported_from_a_src_package_is_read_at_its_call(lint):
    """Nothing of the object is known (its config comes from a call): the method's
    write is still read at the call, what the object holds as named placeholders."""
    job = (
        "from pkg.data_ingestion import DataLoader\n"
        "\n"
        "config = load_config()\n"
        "loader = DataLoader(filepath=path, config=config)\n"
        "loader.save_to_catalog(train_set=a, test_set=b)\n"
    )
    result = lint({"src/pkg/__init__.py": "", "src/pkg/data_ingestion.py": LOADER, "scripts/load.py": job})
    assert (5, "{self_config_catalog_name}.{self_config_schema_name}.train_set") in writes(result)["scripts/load.py"]


def test_an_imported_class_whose_method_is_not_called_gives_the_caller_nothing(lint):
    job = (
        "from pkg.data_ingestion import DataLoader\n"
        "\n"
        "loader = DataLoader(filepath=path, config=load_config())\n"
        "loader.describe()\n"
    )
    result = lint({"src/pkg/__init__.py": "", "src/pkg/data_ingestion.py": LOADER, "scripts/load.py": job})
    assert "scripts/load.py" not in writes(result)


def test_a_class_of_the_same_file_with_unknown_state_keeps_its_writes_where_written(lint):
    """The near miss of the imported class: the file's own class, nothing known of
    its object, is read where its methods stand (as before)."""
    job = LOADER + "\nloader = DataLoader(filepath=path, config=load_config())\nloader.save_to_catalog(a, b)\n"
    result = lint({"job.py": job})
    assert writes(result)["job.py"] == [(14, "{self_config_catalog_name}.{self_config_schema_name}.train_set")]


HELPERS = """CATALOG = "main"


def _write(df, name):
    df.write.mode("overwrite").saveAsTable(f"{CATALOG}.sales.{name}")


def load(df, name):
    _write(df, name)
"""


def test_a_helper_two_calls_deep_in_a_module_on_the_sys_path_is_read_at_the_call(lint):
    """`load` calls `_write` of its own module, which the caller never imports, and
    reads its own module's `CATALOG`, not the caller's of the same name."""
    job = 'import sys\n\nsys.path.append("../lib")\nfrom helpers import load\n\nCATALOG = "other"\nload(df, "orders")\n'
    result = lint({"lib/helpers.py": HELPERS, "jobs/a.py": job})
    assert writes(result)["jobs/a.py"] == [(7, "main.sales.orders")]


def test_a_callers_own_function_of_the_same_name_is_not_the_helpers(lint):
    """The caller defines its own `_write` (another table): the imported `load`
    still calls its module's `_write`, and the caller's own call reads its own."""
    job = (
        "from helpers import load\n"
        "\n"
        "def _write(df, name):\n"
        '    df.write.mode("append").saveAsTable(f"dev.scratch.{name}")\n'
        "\n"
        'load(df, "orders")\n'
        '_write(df, "tmp")\n'
    )
    result = lint({"helpers.py": HELPERS, "a.py": job})
    assert writes(result)["a.py"] == [(6, "main.sales.orders"), (7, "dev.scratch.tmp")]


def test_a_relative_import_inside_a_package_is_followed_from_the_caller(lint):
    """`publish` of `pkg.runner` calls `save` it imports with `from .io import save`;
    `save` reads `SCHEMA` of `pkg/io.py`."""
    io = 'SCHEMA = "ops"\n\n\ndef save(df, name):\n    df.write.mode("append").saveAsTable(f"main.{SCHEMA}.{name}")\n'
    runner = "from .io import save\n\n\ndef publish(df, name):\n    save(df, name)\n"
    job = 'from pkg.runner import publish\n\npublish(df, "runs")\n'
    files = {"lib/pkg/__init__.py": "", "lib/pkg/io.py": io, "lib/pkg/runner.py": runner, "jobs/b.py": job}
    result = lint(files)
    assert writes(result)["jobs/b.py"] == [(3, "main.ops.runs")]


def test_a_package_module_imported_whole_is_followed_through_its_attribute(lint):
    """`from pkg import tools` then `tools.publish(...)`, where `publish` calls
    `tools`' own `_save`."""
    tools = (
        'SCHEMA = "ops"\n\n\ndef _save(df, name):\n    df.write.saveAsTable(f"main.{SCHEMA}.{name}")\n\n\n'
        "def publish(df, name):\n    _save(df, name)\n"
    )
    job = 'from pkg import tools\n\ntools.publish(df, "runs")\n'
    result = lint({"pkg/__init__.py": "", "pkg/tools.py": tools, "b.py": job})
    assert writes(result)["b.py"] == [(3, "main.ops.runs")]


def test_a_name_the_helpers_module_does_not_define_is_not_followed(lint):
    """`load` calls `_write`, which its module neither defines nor imports: the
    caller's own `_write` is not what runs there (it keeps its write where it is
    written, as a function nothing calls)."""
    helpers = "def load(df, name):\n    _write(df, name)\n    df.write.saveAsTable('main.sales.log')\n"
    job = (
        "from helpers import load\n"
        "\n"
        "def _write(df, name):\n"
        '    df.write.mode("append").saveAsTable(f"dev.scratch.{name}")\n'
        "\n"
        'load(df, "orders")\n'
    )
    result = lint({"helpers.py": helpers, "a.py": job})
    assert writes(result)["a.py"] == [(4, "dev.scratch.{name}"), (6, "main.sales.log")]


CONFIG = """from dataclasses import dataclass


@dataclass(frozen=True)
class Env:
    catalog: str
    schema: str


class Config:
    CONFIGS = {
        "dev": {"catalog": "dev_cat", "schema": "sales"},
        "prod": {"catalog": "prod_cat", "schema": "sales"},
    }

    @classmethod
    def get(cls, env):
        d = cls.CONFIGS[env]
        return Env(**d)
"""

WRITE = 'df.write.mode("append").saveAsTable(f"{cfg.catalog}.{cfg.schema}.orders")\n'


def test_a_configuration_object_built_by_an_imported_factory_is_resolved(lint):
    """`Config.get("prod")` picks an entry of a class-level dict and builds a
    dataclass of another module (`Env(**d)`): `cfg.catalog` is that entry's."""
    job = 'from config import Config\n\ncfg = Config.get("prod")\n' + WRITE
    result = lint({"config.py": CONFIG, "job.py": job})
    assert writes(result)["job.py"] == [(4, "prod_cat.sales.orders")]


def test_a_factory_given_a_job_parameters_default_is_resolved(lint):
    """`cls(**CONFIGS[env])` in the same file, `env` the widget's default."""
    job = (
        "from dataclasses import dataclass\n\n\n"
        "@dataclass\nclass Env:\n    catalog: str\n    schema: str\n\n"
        '    CONFIGS = {"dev": {"catalog": "dev_cat", "schema": "sales"}}\n\n'
        "    @classmethod\n    def get(cls, env):\n        return cls(**cls.CONFIGS[env])\n\n\n"
        'dbutils.widgets.text("env", "dev")\n'
        'cfg = Env.get(dbutils.widgets.get("env"))\n' + WRITE
    )
    result = lint({"job.py": job})
    assert writes(result)["job.py"] == [(18, "dev_cat.sales.orders")]


def test_a_factory_given_an_environment_only_a_run_knows_keeps_named_placeholders(lint):
    """The near miss: the entry is not known, so the attributes stay named
    placeholders (never the whole statement unknown), as before."""
    job = "import sys\nfrom config import Config\n\ncfg = Config.get(sys.argv[1])\n" + WRITE
    result = lint({"config.py": CONFIG, "job.py": job})
    assert writes(result)["job.py"] == [(5, "{cfg_catalog}.{cfg_schema}.orders")]


def test_a_dataclass_built_with_keywords_gives_its_fields(lint):
    """`Env(catalog="main", schema=...)` of a dataclass (no `__init__` written):
    its fields are the call's values; one only a run knows stays a placeholder."""
    job = (
        "import sys\nfrom dataclasses import dataclass\n\n\n"
        "@dataclass\nclass Env:\n    catalog: str\n    schema: str\n\n\n"
        'cfg = Env(catalog="main", schema=sys.argv[1])\n' + WRITE
    )
    result = lint({"job.py": job})
    assert writes(result)["job.py"] == [(12, "main.{argv_1}.orders")]


TABLE_NAME = 'CATALOG = dbutils.widgets.get("catalog")\n\n\ndef table_name(t):\n    return f"{CATALOG}.s.{t}"\n\n\n'


def test_a_helpers_template_of_its_argument_used_inline_as_the_table(lint):
    """`saveAsTable(table_name("x"))`: the template the helper returns, built from
    its argument and a job input, is the table, as it is through a name."""
    job = TABLE_NAME + 'df.write.mode("append").saveAsTable(table_name("orders"))\n'
    result = lint({"job.py": job})
    assert writes(result)["job.py"] == [(8, "{catalog}.s.orders")]
    assert not [d for d in result.diagnostics if d.rule == "DL001"]


def test_a_helpers_template_inline_in_an_f_string_and_in_sql(lint):
    job = (
        TABLE_NAME
        + 'df.write.mode("append").saveAsTable(f"{table_name(\'orders\')}_tmp")\n'
        + "spark.sql(f\"DELETE FROM {table_name('runs')} WHERE day = 1\")\n"
    )
    result = lint({"job.py": job})
    assert writes(result)["job.py"] == [(8, "{catalog}.s.orders_tmp"), (9, "{catalog}.s.runs")]


def test_a_helper_returning_what_only_a_run_knows_stays_unresolved_inline(lint):
    """The near miss: the helper returns a value nothing tells (a lookup at run
    time), so the inline call stays one unresolved table, named after the call."""
    job = 'def table_name(t):\n    return lookup(t)\n\n\ndf.write.mode("append").saveAsTable(table_name("orders"))\n'
    result = lint({"job.py": job})
    assert writes(result)["job.py"] == [(5, "{table_name_orders}")]
    assert [d.location.line for d in result.diagnostics if d.rule == "DL001"] == [5]


def test_a_helper_kept_only_in_a_registry_keeps_its_writes(tmp_path, monkeypatch):
    """A module that imports helpers only into a dict (`{"batch": batch_load}`) and a
    job that calls what a run-time key picks: no call reads the helpers, so their
    writes stay where they are written (they were dropped as "called elsewhere").
    A module that calls one of them directly still reads its write at that call."""
    import json

    from typer.testing import CliRunner

    from delta_lint.cli import app

    loads = (
        "def batch_load(spark, df):\n"
        '    df.write.mode("overwrite").saveAsTable("main.s.batch")\n\n\n'
        "def stream_load(spark, df):\n"
        '    df.writeStream.toTable("main.s.stream")\n'
    )
    registry = (
        "from pkg._load import batch_load, stream_load\n\n"
        'LOADERS = {"batch": batch_load, "stream": stream_load}\n\n\n'
        "def get_load(kind):\n    return LOADERS[kind]\n"
    )
    job = 'from pkg.factory import get_load\n\nget_load(dbutils.widgets.get("kind"))(spark, df)\n'
    files = {"pkg/__init__.py": "", "pkg/_load.py": loads, "pkg/factory.py": registry, "job.py": job}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)

    def intents() -> set[tuple[str, int, str]]:
        out = CliRunner().invoke(app, ["intents", ".", "--format", "json"]).stdout
        return {(i["path"], i["line"], i["table"]) for i in json.loads(out[out.index("[") :])}

    assert intents() == {("pkg/_load.py", 2, "main.s.batch"), ("pkg/_load.py", 6, "main.s.stream")}
    (tmp_path / "pkg" / "factory.py").write_text(registry + "\n\nbatch_load(spark, df)\n")
    assert intents() == {("pkg/factory.py", 10, "main.s.batch"), ("pkg/_load.py", 6, "main.s.stream")}


def test_a_value_function_of_a_module_imported_whole_names_the_table(lint):
    """`import names` then `names.table_name("main", "a")`: the function's value,
    as for `from names import table_name`."""
    names = 'def table_name(catalog, t):\n    return f"{catalog}.sales.{t}"\n'
    job = (
        "import names\n"
        "\n"
        'df.write.mode("append").saveAsTable(names.table_name("main", "a"))\n'
        "spark.sql(f\"INSERT INTO {names.table_name('main', 'c')} SELECT 1\")\n"
    )
    result = lint({"names.py": names, "job.py": job})
    assert writes(result)["job.py"] == [(3, "main.sales.a"), (4, "main.sales.c")]


def test_a_function_the_module_imported_whole_does_not_define_stays_unknown(lint):
    names = 'def table_name(catalog, t):\n    return f"{catalog}.sales.{t}"\n'
    job = 'import names\n\ndf.write.mode("append").saveAsTable(names.other_name("main", "a"))\n'
    result = lint({"names.py": names, "job.py": job})
    assert [t for _, t in writes(result)["job.py"]] == ["{names_other_name_main_a}"]
