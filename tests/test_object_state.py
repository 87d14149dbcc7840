"""What an object holds, read where its methods write: a configuration object
kept whole by `__init__` (`self.config = config`, then
`self.config.catalog_name`), names built from it in `__init__`, and the values
the construction site gives. Each case has its near miss: state the code
changes outside `__init__` (in another method, or on the object after it is
made) stays unknown, and two objects the code cannot tell apart give both
tables, never one of them."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

STORE = """class Store:
    def __init__(self, spark, config):
        self.spark = spark
        self.df = self._load(spark)
        self.config = config
        self.catalog_name = self.config.catalog_name
        self.feature_table_name = f"{self.catalog_name}.{self.config.schema_name}.features"

    def _load(self, spark):
        return spark.table("main.raw.input")

    def save(self, df):
        df.write.mode("append").saveAsTable(f"{self.config.catalog_name}.{self.config.schema_name}.train_set")
        self.spark.sql(f"INSERT INTO {self.feature_table_name} SELECT * FROM src")
"""

CONFIG = """from dataclasses import dataclass


@dataclass
class Config:
    catalog_name: str
    schema_name: str
"""


def tables(result, path: str) -> list[tuple[int, str | None]]:
    """(line, table) of every intent reported in `path`, sorted; no file failed."""
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    return sorted(
        (i.location.line, i.table.name if i.table else None) for i in result.intents if i.location.path == path
    )


def test_a_configuration_object_kept_by_init_names_the_methods_tables(lint):
    """The one object the file makes, one method called: its writes stand where
    they are written, with the object's values."""
    job = "cfg = Config(catalog_name='main', schema_name='sales')\nStore(spark, cfg).save(df)\n"
    result = lint({"job.py": CONFIG + STORE + job})
    assert [t for _, t in tables(result, "job.py")] == ["main.sales.train_set", "main.sales.features"]


def test_an_imported_configuration_object_names_the_tables_of_an_imported_class(lint):
    files = {
        "src/pkg/__init__.py": "",
        "src/pkg/config.py": CONFIG,
        "src/pkg/store.py": STORE,
        "notebooks/load.py": NOTEBOOK + "from pkg.config import Config\n"
        "from pkg.store import Store\n"
        "CONFIG = Config(catalog_name='main', schema_name='sales')\n"
        "store = Store(spark, config=CONFIG)\n"
        "store.save(df)\n",
    }
    result = lint(files)
    assert tables(result, "notebooks/load.py") == [(6, "main.sales.features"), (6, "main.sales.train_set")]


def test_a_configuration_object_changed_in_init_keeps_the_fields_it_did_not_change(lint):
    """`self.config.schema_name = ...` in `__init__` changes that one field of the
    object: the other stays known, the changed one is what the code set."""
    store = STORE.replace(
        "        self.config = config\n",
        "        self.config = config\n        self.config.schema_name = pick()\n",
    )
    job = "cfg = Config(catalog_name='main', schema_name='sales')\nStore(spark, cfg).save(df)\n"
    result = lint({"job.py": CONFIG + store + job})
    found = [t for _, t in tables(result, "job.py")]
    assert "main.sales.train_set" not in found and "main.sales.features" not in found
    assert "main.{self_config_schema_name}.train_set" in found


def test_an_attribute_another_method_sets_is_unknown_in_the_method_that_writes(lint):
    job = (
        "class Writer:\n"
        "    def __init__(self, spark, table_fqn):\n"
        "        self.spark = spark\n"
        "        self.table_fqn = table_fqn\n"
        "\n"
        "    def retarget(self, name):\n"
        "        self.table_fqn = name\n"
        "\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "w = Writer(spark, 'main.x.z')\n"
        "w.retarget(other)\n"
        "w.save(df)\n"
    )
    result = lint({"job.py": job})
    assert "main.x.z" not in [t for _, t in tables(result, "job.py")]


def test_an_attribute_set_on_the_object_after_it_is_made_is_what_the_code_set(lint):
    job = (
        "class Writer:\n"
        "    def __init__(self, spark, table_fqn):\n"
        "        self.table_fqn = table_fqn\n"
        "\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "w = Writer(spark, 'main.x.z')\n"
        "w.table_fqn = 'main.x.other'\n"
        "w.save(df)\n"
        "v = Writer(spark, 'main.x.z')\n"
        "v.table_fqn = pick()\n"
        "v.save(df)\n"
    )
    found = tables(lint({"job.py": job}), "job.py")
    assert (10, "main.x.other") in found
    assert (10, "main.x.z") not in found and (13, "main.x.z") not in found


def test_the_one_object_of_a_class_changed_after_it_is_made_is_not_read_as_made(lint):
    job = (
        "class Writer:\n"
        "    def __init__(self, spark, table_fqn):\n"
        "        self.table_fqn = table_fqn\n"
        "\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "w = Writer(spark, 'main.x.z')\n"
        "w.table_fqn = pick()\n"
        "w.save(df)\n"
    )
    assert "main.x.z" not in [t for _, t in tables(lint({"job.py": job}), "job.py")]


def test_a_configuration_object_changed_after_it_is_handed_over_is_unknown_in_the_holder(lint):
    """The object is shared: a field set on it after `Store(spark, cfg)` took it is
    what the store's methods read too."""
    job = (
        "cfg = Config(catalog_name='main', schema_name='sales')\n"
        "s = Store(spark, cfg)\n"
        "cfg.catalog_name = pick()\n"
        "s.save(df)\n"
    )
    found = [t for _, t in tables(lint({"job.py": CONFIG + STORE + job}), "job.py")]
    assert "main.sales.train_set" not in found


def test_objects_made_on_two_paths_give_each_table(lint):
    job = (
        "class Writer:\n"
        "    def __init__(self, spark, table_fqn):\n"
        "        self.table_fqn = table_fqn\n"
        "\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "if env == 'prod':\n"
        "    w = Writer(spark, 'main.x.a')\n"
        "else:\n"
        "    w = Writer(spark, 'main.x.b')\n"
        "w.save(df)\n"
    )
    found = tables(lint({"job.py": job}), "job.py")
    assert (12, "main.x.a") in found and (12, "main.x.b") in found
    assert all(t in ("main.x.a", "main.x.b") for _, t in found if t is not None)


def test_an_annotated_attribute_and_an_inherited_init_give_the_objects_table(lint):
    job = (
        "class Base:\n"
        "    def __init__(self, spark, table_fqn: str) -> None:\n"
        "        self.table_fqn: str = table_fqn\n"
        "\n"
        "class Writer(Base):\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "Writer(spark, 'main.x.a').save(df)\n"
        "Writer(spark, 'main.x.b').save(df)\n"
    )
    assert tables(lint({"job.py": job}), "job.py") == [(9, "main.x.a"), (10, "main.x.b")]


def test_a_derived_class_that_sets_the_attribute_again_is_not_read_as_its_base(lint):
    job = (
        "class Base:\n"
        "    def __init__(self, spark, table_fqn: str) -> None:\n"
        "        self.table_fqn: str = table_fqn\n"
        "\n"
        "class Writer(Base):\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "    def point(self, other):\n"
        "        self.table_fqn = other\n"
        "\n"
        "Writer(spark, 'main.x.a').save(df)\n"
        "Writer(spark, 'main.x.b').save(df)\n"
    )
    found = [t for _, t in tables(lint({"job.py": job}), "job.py")]
    assert "main.x.a" not in found and "main.x.b" not in found


def test_an_object_an_attribute_holds_writes_its_table_through_the_holders_method(lint):
    job = (
        "class Writer:\n"
        "    def __init__(self, spark, table_fqn):\n"
        "        self.table_fqn = table_fqn\n"
        "\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "class Job:\n"
        "    def __init__(self, spark, target):\n"
        "        self.writer = Writer(spark, f'main.gold.{target}')\n"
        "\n"
        "    def run(self, df):\n"
        "        self.writer.save(df)\n"
        "\n"
        "Job(spark, 'orders').run(df)\n"
        "Job(spark, 'users').run(df)\n"
    )
    assert tables(lint({"job.py": job}), "job.py") == [(15, "main.gold.orders"), (16, "main.gold.users")]


def test_an_object_an_attribute_holds_that_a_method_replaces_is_unknown(lint):
    job = (
        "class Writer:\n"
        "    def __init__(self, spark, table_fqn):\n"
        "        self.table_fqn = table_fqn\n"
        "\n"
        "    def save(self, df):\n"
        "        df.write.mode('append').saveAsTable(self.table_fqn)\n"
        "\n"
        "class Job:\n"
        "    def __init__(self, spark, target):\n"
        "        self.writer = Writer(spark, f'main.gold.{target}')\n"
        "\n"
        "    def swap(self, other):\n"
        "        self.writer = other\n"
        "\n"
        "    def run(self, df):\n"
        "        self.writer.save(df)\n"
        "\n"
        "Job(spark, 'orders').run(df)\n"
        "Job(spark, 'users').run(df)\n"
    )
    found = [t for _, t in tables(lint({"job.py": job}), "job.py")]
    assert "main.gold.orders" not in found and "main.gold.users" not in found


MODELS = """import yaml
from dataclasses import dataclass
from pydantic import BaseModel


class Config(BaseModel):
    catalog: str
    schema_name: str


@dataclass
class DConfig:
    catalog: str
    schema_name: str


"""


def test_a_model_built_from_a_project_document_names_the_table(lint):
    code = (
        "cfg = Config(**yaml.safe_load(open('../conf.yml')))\n"
        "df.write.mode('append').saveAsTable(f'{cfg.catalog}.{cfg.schema_name}.a')\n"
        "with open('../conf.yml') as f:\n"
        "    raw = yaml.safe_load(f)\n"
        "dcfg = DConfig(**raw)\n"
        "df.write.mode('append').saveAsTable(f'{dcfg.catalog}.{dcfg.schema_name}.b')\n"
    )
    files = {"conf.yml": "catalog: main\nschema_name: sales\n", "nb/job.py": NOTEBOOK + MODELS + code}
    found = [t for _, t in tables(lint(files), "nb/job.py")]
    assert found == ["main.sales.a", "main.sales.b"]


def test_a_dataclass_given_a_document_with_a_key_it_lacks_or_missing_a_field_builds_nothing(lint):
    """`DConfig(**doc)` raises on a key it has no field for and on a field the
    document lacks; a pydantic model ignores the extra key, and lacks the field."""
    code = (
        "extra = DConfig(**yaml.safe_load(open('../extra.yml')))\n"
        "df.write.mode('append').saveAsTable(f'{extra.catalog}.s.a')\n"
        "short = DConfig(**yaml.safe_load(open('../short.yml')))\n"
        "df.write.mode('append').saveAsTable(f'{short.catalog}.s.b')\n"
        "model = Config(**yaml.safe_load(open('../extra.yml')))\n"
        "df.write.mode('append').saveAsTable(f'{model.catalog}.s.c')\n"
        "lacking = Config(**yaml.safe_load(open('../short.yml')))\n"
        "df.write.mode('append').saveAsTable(f'{lacking.catalog}.s.d')\n"
    )
    files = {
        "extra.yml": "catalog: main\nschema_name: sales\nowner: me\n",
        "short.yml": "catalog: main\n",
        "nb/job.py": NOTEBOOK + MODELS + code,
    }
    found = [t for _, t in tables(lint(files), "nb/job.py")]
    assert "main.s.a" not in found and "main.s.b" not in found and "main.s.d" not in found
    assert "main.s.c" in found


BENCH = """from dataclasses import dataclass


@dataclass
class Bench:
    catalog: str = "main"
    schema: str = "bench"
    target_table: str = "telemetry"

    @property
    def fq_target(self) -> str:
        return f"{self.catalog}.{self.schema}.{self.target_table}"

    def fq_source(self, scenario: str) -> str:
        name = f"src_{scenario}"
        return f"{self.catalog}.{self.schema}.{name}"


"""


def test_a_property_and_a_method_of_a_configuration_object_name_the_tables(lint):
    code = (
        "cfg = Bench(schema='gpu')\n"
        "spark.sql(f'OPTIMIZE {cfg.fq_target}')\n"
        "df.write.mode('append').saveAsTable(cfg.fq_source('full'))\n"
    )
    found = tables(lint({"job.py": BENCH + code}), "job.py")
    line = BENCH.count("\n") + 2
    assert found == [(line, "main.gpu.telemetry"), (line + 1, "main.gpu.src_full")]


def test_a_property_of_an_object_whose_field_a_method_changes_is_unknown(lint):
    bench = BENCH.replace(
        "    def fq_source(",
        "    def rename(self, t: str) -> None:\n        self.target_table = t\n\n    def fq_source(",
    )
    code = "cfg = Bench(schema='gpu')\nspark.sql(f'OPTIMIZE {cfg.fq_target}')\n"
    found = [t for _, t in tables(lint({"job.py": bench + code}), "job.py")]
    assert "main.gpu.telemetry" not in found


UNPACKING = """class Writer:
    def __init__(self, spark, name, pair):
        self.spark, self.name, self.cols = spark, name, []
        self.first, self.second = "main.s.one", "main.s.two"
        self.first, self.second = self.second, self.first
        self.left, self.right = pair
        self.head, *self.rest = ["main.s.head", "main.s.tail"]

    def save(self, df):
        df.write.saveAsTable(self.name)

    def save_first(self, df):
        df.write.saveAsTable(self.first)

    def save_left(self, df):
        df.write.saveAsTable(self.left)

    def save_head(self, df):
        df.write.saveAsTable(self.head)
"""


def test_attributes_set_by_one_unpacking_assignment_in_init_are_each_known(lint):
    """`self.a, self.b = a, b` sets each attribute; every value is read before any is
    set, so a swap gives the other's value."""
    job = "w = Writer(spark, 'main.s.orders', pair)\nw.save(df)\nw.save_first(df)\n"
    files = {"src/pkg/__init__.py": "", "src/pkg/writer.py": UNPACKING}
    result = lint({**files, "jobs/run.py": NOTEBOOK + "from pkg.writer import Writer\n" + job})
    assert tables(result, "jobs/run.py") == [(4, "main.s.orders"), (5, "main.s.two")]


def test_attributes_unpacked_from_a_value_or_into_a_starred_target_stay_unknown(lint):
    job = "w = Writer(spark, 'main.s.orders', pair)\nw.save_left(df)\nw.save_head(df)\n"
    files = {"src/pkg/__init__.py": "", "src/pkg/writer.py": UNPACKING}
    result = lint({**files, "jobs/run.py": NOTEBOOK + "from pkg.writer import Writer\n" + job})
    found = tables(result, "jobs/run.py")
    assert [line for line, _ in found] == [4, 5]
    assert all(table is None or "{" in table for _, table in found), found
