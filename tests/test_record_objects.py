"""Names held by objects of record classes: the `__init__` Python writes for a
dataclass, an attrs class or a named tuple (`values.records`), read as a plain
class's `__init__` is. Each shape is checked both ways: the table the object
names is found, and a near miss the code does not tell stays unknown (never a
value picked)."""

from __future__ import annotations

import pytest

from delta_lint.model import Flag

NOTEBOOK = "# Databricks notebook source\n"
WRITE = "df.write.mode('append').saveAsTable({})\n"
DATACLASSES = "from dataclasses import InitVar, KW_ONLY, dataclass, field\n"


def tables(result, path: str = "job.py") -> list[str | None]:
    """The tables of the intents reported in `path`, sorted; no file failed."""
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    return sorted(i.table.name if i.table else None for i in result.intents if i.location.path == path)


FOUND = {
    "a default given by field()": (
        DATACLASSES + "@dataclass\nclass Names:\n    catalog: str = field(default='main')\n"
        "    schema: str = 's'\n\n    def fq(self, t):\n        return f'{self.catalog}.{self.schema}.{t}'\n\n"
        "names = Names()\n" + WRITE.format("names.fq('a')")
    ),
    "a default a factory gives at each construction": (
        DATACLASSES + "def main_catalog():\n    return 'main'\n\n@dataclass\nclass Names:\n"
        "    catalog: str = field(default_factory=main_catalog)\n\n"
        "names = Names()\n" + WRITE.format("f'{names.catalog}.s.a'")
    ),
    "a field __post_init__ derives": (
        DATACLASSES + "@dataclass\nclass Names:\n    catalog: str\n    schema: str\n"
        "    fqn: str = field(init=False)\n\n    def __post_init__(self):\n"
        "        self.fqn = f'{self.catalog}.{self.schema}.a'\n\n"
        "names = Names('main', 's')\n" + WRITE.format("names.fqn")
    ),
    "a frozen record's __post_init__ through object.__setattr__": (
        DATACLASSES + "@dataclass(frozen=True)\nclass Names:\n    catalog: str\n"
        "    fqn: str = field(init=False)\n\n    def __post_init__(self):\n"
        "        object.__setattr__(self, 'fqn', f'{self.catalog}.s.a')\n\n"
        "names = Names('main')\n" + WRITE.format("names.fqn")
    ),
    "an InitVar handed to __post_init__": (
        DATACLASSES + "@dataclass\nclass Names:\n    env: InitVar[str]\n    fqn: str = field(init=False)\n\n"
        "    def __post_init__(self, env):\n        self.fqn = f'{env}.s.a'\n\n"
        "names = Names('main')\n" + WRITE.format("names.fqn")
    ),
    "keyword-only fields after KW_ONLY": (
        DATACLASSES + "@dataclass\nclass Names:\n    name: str = 'a'\n    _: KW_ONLY\n    catalog: str\n\n"
        "names = Names(catalog='main')\n" + WRITE.format("f'{names.catalog}.s.{names.name}'")
    ),
    "a base record's fields first": (
        DATACLASSES + "@dataclass\nclass Base:\n    catalog: str\n\n@dataclass\nclass Names(Base):\n"
        "    schema: str = 's'\n\nnames = Names('main')\n" + WRITE.format("f'{names.catalog}.{names.schema}.a'")
    ),
    "an attrs class made by define": (
        "from attrs import define, field\n\n@define\nclass Names:\n    catalog: str\n"
        "    schema: str = field(default='s')\n\nnames = Names('main')\n"
        + WRITE.format("f'{names.catalog}.{names.schema}.a'")
    ),
    "an attrs class of attr.ib() fields": (
        "import attr\n\n@attr.s\nclass Names:\n    catalog = attr.ib()\n    schema = attr.ib(default='s')\n"
        "    _table = attr.ib(default='a')\n\nnames = Names('main', table='b')\n"
        + WRITE.format("f'{names.catalog}.{names.schema}.{names._table}'")
    ),
    "a namedtuple of a list of names": (
        "from collections import namedtuple\n\nNames = namedtuple('Names', ['catalog', 'schema'], defaults=['s'])\n"
        "names = Names('main')\n" + WRITE.format("f'{names.catalog}.{names.schema}.a'")
    ),
    "a namedtuple of a text of names": (
        "import collections\n\nNames = collections.namedtuple('Names', 'catalog schema')\n"
        "names = Names('main', schema='s')\n" + WRITE.format("f'{names.catalog}.{names.schema}.a'")
    ),
    "a record holding another record, read through a property and its method": (
        DATACLASSES + "@dataclass\nclass Store:\n    spark: object\n    catalog: str\n\n"
        "    def table_path(self, name):\n        return f'{self.catalog}.s.{name}'\n\n"
        "@dataclass\nclass LogStore:\n    store: Store\n    table_name: str = 'a'\n\n"
        "    @property\n    def table(self):\n        return self.store.table_path(self.table_name)\n\n"
        "    def save(self, df):\n        df.write.mode('append').saveAsTable(self.table)\n\n"
        "LogStore(Store(spark, 'main')).save(df)\n"
    ),
}


@pytest.mark.parametrize("code", FOUND.values(), ids=FOUND.keys())
def test_a_record_object_names_its_table(lint, code: str) -> None:
    assert set(tables(lint({"job.py": code}))) & {"main.s.a", "main.s.b"}


NOT_TOLD = {
    "a field only the run's arguments give": (
        DATACLASSES + "import sys\n\n@dataclass\nclass Names:\n    catalog: str\n    name: str = 'a'\n\n"
        "    def fq(self):\n        return f'{self.catalog}.s.{self.name}'\n\n"
        "names = Names(sys.argv[1])\n" + WRITE.format("names.fq()")
    ),
    "a __post_init__ that sets fields by computed names": (
        DATACLASSES + "@dataclass(frozen=True)\nclass Names:\n    catalog: str\n    fqn: str = ''\n\n"
        "    def __post_init__(self):\n        for k in ['fqn']:\n            object.__setattr__(self, k, pick())\n\n"
        "names = Names('main', 'main.s.a')\n" + WRITE.format("names.fqn")
    ),
    "an attrs converter the code does not tell": (
        "import attr\n\n@attr.s\nclass Names:\n    catalog = attr.ib(converter=pick)\n\n"
        "names = Names('main')\n" + WRITE.format("f'{names.catalog}.s.a'")
    ),
    "a base record the project does not define": (
        DATACLASSES + "from lib import Base\n\n@dataclass\nclass Names(Base):\n    catalog: str = 'dev'\n\n"
        "names = Names('main')\n" + WRITE.format("f'{names.catalog}.s.a'")
    ),
    "a namedtuple whose fields may be renamed": (
        "from collections import namedtuple\n\nNames = namedtuple('Names', ['catalog', 'def'], rename=True)\n"
        "names = Names('main', 'x')\n" + WRITE.format("f'{names.catalog}.s.a'")
    ),
    "a record class defined again in a branch": (
        DATACLASSES + "@dataclass\nclass Names:\n    catalog: str = 'main'\n\nif legacy:\n"
        "    @dataclass\n    class Names:\n        catalog: str = 'dev'\n\n"
        "names = Names()\n" + WRITE.format("f'{names.catalog}.s.a'")
    ),
    "a class bound again after its definition": (
        "from collections import namedtuple\n\nNames = namedtuple('Names', ['catalog'])\nNames = wrap(Names)\n"
        "names = Names('main')\n" + WRITE.format("f'{names.catalog}.s.a'")
    ),
    "a composed record whose field a method sets": (
        DATACLASSES
        + "@dataclass\nclass Store:\n    catalog: str\n\n    def point(self, c):\n        self.catalog = c\n\n"
        "    def table_path(self, name):\n        return f'{self.catalog}.s.{name}'\n\n"
        "@dataclass\nclass LogStore:\n    store: Store\n\n    @property\n    def table(self):\n"
        "        return self.store.table_path('a')\n\n"
        "LogStore(Store('main')).store.point(pick())\n" + WRITE.format("LogStore(Store('main')).table")
    ),
}


@pytest.mark.parametrize("code", NOT_TOLD.values(), ids=NOT_TOLD.keys())
def test_a_record_object_the_code_does_not_tell_names_no_table(lint, code: str) -> None:
    found = tables(lint({"job.py": code}))
    assert "main.s.a" not in found and "dev.s.a" not in found


def test_a_record_built_two_ways_names_each_table_as_one_of_them(lint) -> None:
    code = (
        DATACLASSES + "@dataclass\nclass Names:\n    catalog: str\n\n    def fq(self):\n"
        "        return f'{self.catalog}.s.a'\n\nif prod:\n    names = Names('main')\nelse:\n"
        "    names = Names('dev')\n" + WRITE.format("names.fq()")
    )
    result = lint({"job.py": code})
    assert tables(result) == ["dev.s.a", "main.s.a"]
    assert all(Flag.ONE_OF in i.flags for i in result.intents if i.location.path == "job.py")


SERVICE = """class Service:
    def __init__(self, log_store):
        self.log_store = log_store

    def process(self, df):
        self.log_store.upsert(df)
"""

STORES = (
    DATACLASSES
    + """

@dataclass
class Store:
    spark: object
    catalog: str
    schema: str

    def table_path(self, name):
        return f"{self.catalog}.{self.schema}.{name}"


@dataclass
class LogStore:
    store: Store
    table_name: str = "run_log"

    @property
    def _table(self):
        return self.store.table_path(self.table_name)

    def upsert(self, df):
        self.store.spark.sql(f"MERGE INTO {self._table} t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET *")
"""
)


def _injected(job: str) -> dict[str, str]:
    return {
        "src/app/__init__.py": "",
        "src/app/infra/__init__.py": "",
        "src/app/infra/store.py": STORES,
        "src/app/service.py": SERVICE,
        "src/notebooks/job.py": NOTEBOOK
        + "from app.infra.store import Store, LogStore\nfrom app.service import Service\n\n"
        + job,
    }


def test_an_object_injected_through_a_constructor_of_another_module_writes_its_table(lint) -> None:
    """The service's module names no class that writes: it calls a method of the
    object its builder gives it, which the notebook builds."""
    job = (
        "store = Store(spark=spark, catalog='ops', schema='default')\n"
        "service = Service(log_store=LogStore(store=store))\n"
        "service.process(df)\n"
    )
    assert tables(lint(_injected(job)), "src/notebooks/job.py") == ["ops.default.run_log"]


def test_an_object_injected_in_one_of_two_ways_is_neither_table_alone(lint) -> None:
    """The store is one of two objects: the log store it is handed to names no
    single one of their tables (unknown, with the DL001 that says so)."""
    job = (
        "if prod:\n    store = Store(spark, 'ops', 'default')\nelse:\n    store = Store(spark, 'dev', 'default')\n"
        "service = Service(LogStore(store))\n"
        "service.process(df)\n"
    )
    result = lint(_injected(job))
    assert not {"ops.default.run_log", "dev.default.run_log"} & set(tables(result, "src/notebooks/job.py"))
    assert any(d.rule == "DL001" for d in result.diagnostics)


def test_an_injected_object_the_service_replaces_is_unknown(lint) -> None:
    files = _injected("service = Service(LogStore(Store(spark, 'ops', 'default')))\nservice.process(df)\n")
    files["src/app/service.py"] = SERVICE + "\n    def use(self, other):\n        self.log_store = other\n"
    assert "ops.default.run_log" not in tables(lint(files), "src/notebooks/job.py")
