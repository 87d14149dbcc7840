"""Names held by objects, read on the value layer's evaluator (Lakeflow dataset
names through `values.scopes.Scopes`).

The kind: an object the code builds holds what its `__init__` sets -- the one
the class writes, or the one Python writes for a record (a dataclass, an attrs
class, a named tuple) -- and a property or method of its class reads it through
`self`. Each shape both ways: the name is found; a near miss (a value only the
run gives, a method that sets the attribute at a time not known, a class defined
again in a branch) stays unresolved or is one of the values, never one picked.
"""

from __future__ import annotations

import pytest

from delta_lint.frontend.lakeflow import analyze_lakeflow
from delta_lint.model import Flag

_PIPELINE = (("shop", "bronze", ()),)
_DEF = "@dlt.table(name={})\ndef _t():\n    return spark.read.table('x')\n"
_HEAD = "import dlt\nfrom dataclasses import dataclass, field\n"


def _tables(code: str) -> list[tuple[str, bool, bool]]:
    """(table, one of several, unresolved) of each dataset the code defines."""
    found = analyze_lakeflow("p.py", ".py", code, _PIPELINE)
    return sorted((i.table.name, Flag.ONE_OF in i.flags, Flag.UNRESOLVED in i.flags) for i in found.intents)


FOUND = {
    "a default given by field()": (
        "@dataclass\nclass C:\n    name: str = field(default='raw_orders')\n\nc = C()\n",
        "c.name",
    ),
    "a method reading a field": (
        "@dataclass\nclass C:\n    prefix: str\n\n    def t(self, n):\n        return f'{self.prefix}_{n}'\n\nc = C('raw')\n",
        "c.t('orders')",
    ),
    "a property reading a field": (
        "@dataclass\nclass C:\n    prefix: str\n\n    @property\n    def t(self):\n"
        "        return f'{self.prefix}_orders'\n\nc = C(prefix='raw')\n",
        "c.t",
    ),
    "a cached property of a plain class": (
        "import functools\n\nclass C:\n    def __init__(self, prefix):\n        self.prefix = prefix\n\n"
        "    @functools.cached_property\n    def t(self):\n        return self.prefix + '_orders'\n\nc = C('raw')\n",
        "c.t",
    ),
    "a plain class whose __init__ keeps its arguments": (
        "class C:\n    def __init__(self, prefix, name='orders'):\n        self.prefix = prefix\n"
        "        self.name = name\n\n    def t(self):\n        return f'{self.prefix}_{self.name}'\n\nc = C('raw')\n",
        "c.t()",
    ),
    "a record holding another record": (
        "@dataclass\nclass S:\n    prefix: str\n\n    def t(self, n):\n        return f'{self.prefix}_{n}'\n\n"
        "@dataclass\nclass L:\n    store: S\n    name: str = 'orders'\n\n    @property\n    def t(self):\n"
        "        return self.store.t(self.name)\n\nc = L(S('raw'))\n",
        "c.t",
    ),
    "an object handed to a constructor and kept": (
        "class S:\n    def __init__(self, prefix):\n        self.prefix = prefix\n\n"
        "class Service:\n    def __init__(self, store):\n        self.store = store\n\n"
        "    def name(self):\n        return self.store.prefix + '_orders'\n\nc = Service(store=S('raw'))\n",
        "c.name()",
    ),
    "a field __post_init__ derives": (
        "@dataclass\nclass C:\n    prefix: str\n    full: str = field(init=False)\n\n"
        "    def __post_init__(self):\n        self.full = self.prefix + '_orders'\n\nc = C('raw')\n",
        "c.full",
    ),
    "a namedtuple": (
        "from collections import namedtuple\n\nC = namedtuple('C', 'prefix name')\nc = C('raw', name='orders')\n",
        "f'{c.prefix}_{c.name}'",
    ),
    "a base record's field": (
        "@dataclass\nclass B:\n    prefix: str\n\n@dataclass\nclass C(B):\n    name: str = 'orders'\n\nc = C('raw')\n",
        "f'{c.prefix}_{c.name}'",
    ),
    "a class method building the object from a class-level dict": (
        "@dataclass\nclass C:\n    prefix: str\n    ENVS = {'prod': {'prefix': 'raw'}}\n\n    @classmethod\n"
        "    def of(cls, env):\n        return cls(**cls.ENVS[env])\n\nc = C.of('prod')\n",
        "c.prefix + '_orders'",
    ),
}


@pytest.mark.parametrize(("code", "name"), FOUND.values(), ids=FOUND.keys())
def test_an_object_names_the_dataset(code: str, name: str) -> None:
    assert _tables(_HEAD + code + _DEF.format(name)) == [("shop.bronze.raw_orders", False, False)]


NOT_TOLD = {
    "a property reading the environment": (
        "import os\n\n@dataclass\nclass C:\n    @property\n    def t(self):\n        return os.environ['T']\n\nc = C()\n",
        "c.t",
    ),
    "a field a method sets again": (
        "@dataclass\nclass C:\n    prefix: str\n\n    def use(self, p):\n        self.prefix = p\n\n"
        "    def t(self):\n        return self.prefix + '_orders'\n\nc = C('raw')\n",
        "c.t()",
    ),
    "a class defined again in a branch": (
        "import os\n\n@dataclass\nclass C:\n    prefix: str = 'raw'\n\nif os.environ['LEGACY']:\n"
        "    @dataclass\n    class C:\n        prefix: str = 'old'\n\nc = C()\n",
        "c.prefix + '_orders'",
    ),
    "a __post_init__ setting attributes by computed names": (
        "@dataclass\nclass C:\n    prefix: str\n\n    def __post_init__(self):\n"
        "        for k in ['prefix']:\n            setattr(self, k, pick())\n\nc = C('raw')\n",
        "c.prefix + '_orders'",
    ),
}


@pytest.mark.parametrize(("code", "name"), NOT_TOLD.values(), ids=NOT_TOLD.keys())
def test_an_object_the_code_does_not_tell_leaves_the_dataset_unresolved(code: str, name: str) -> None:
    assert [unresolved for _, _, unresolved in _tables(_HEAD + code + _DEF.format(name))] == [True]


def test_an_object_built_two_ways_names_each_dataset_as_one_of_them() -> None:
    code = (
        "import os\n\n@dataclass\nclass C:\n    prefix: str\n\n    def t(self):\n        return self.prefix + '_orders'\n\n"
        "if os.environ['PROD']:\n    c = C('raw')\nelse:\n    c = C('old')\n"
    )
    assert _tables(_HEAD + code + _DEF.format("c.t()")) == [
        ("shop.bronze.old_orders", True, False),
        ("shop.bronze.raw_orders", True, False),
    ]


def test_a_methods_own_arguments_are_read_where_the_objects_state_is_not_known() -> None:
    code = (
        "import os\n\nclass C:\n    def __init__(self, p):\n        self.p = p\n\n"
        "    def t(self, n):\n        return n + '_orders'\n\nc = C(os.environ['P'])\n"
    )
    assert _tables(_HEAD + code + _DEF.format("c.t('raw')")) == [("shop.bronze.raw_orders", False, False)]


_FACTORY = (
    "@dataclass(frozen=True)\nclass Env:\n    prefix: str\n    name: str\n\nclass Config:\n"
    "    CONFIGS = {'dev': {'prefix': 'dev', 'name': 'orders'}, 'prod': {'prefix': 'raw', 'name': 'orders'}}\n\n"
    "    @classmethod\n    def get(cls, env):\n        d = cls.CONFIGS[env]\n        return Env(**d)\n\n"
)


def test_a_class_method_of_another_class_builds_the_object_of_the_entry_it_names() -> None:
    code = _HEAD + _FACTORY + "c = Config.get('prod')\n" + _DEF.format("f'{c.prefix}_{c.name}'")
    assert _tables(code) == [("shop.bronze.raw_orders", False, False)]


def test_a_class_method_given_an_entry_only_the_run_knows_leaves_the_dataset_unresolved() -> None:
    code = _HEAD + "import os\n" + _FACTORY + "c = Config.get(os.environ['E'])\n" + _DEF.format("c.prefix")
    assert [unresolved for _, _, unresolved in _tables(code)] == [True]


def test_a_statement_of_init_that_may_raise_leaves_the_rest_of_the_object_known() -> None:
    """`self.cluster = TYPES[self.cloud]` raises on one of the clouds a method may
    give: the attribute it sets is unknown, the object and its other attributes
    stay (never the whole object unknown, and its job with it)."""
    import ast

    from delta_lint.frontend.sdkjobs import sdk_jobs
    from delta_lint.frontend.values.budget import Budget

    code = (
        "from databricks.sdk.service.jobs import NotebookTask, Task\n\n"
        "class Infra:\n    def __init__(self, w):\n        self.w = w\n        self.name = 'nightly'\n"
        "        self.types = {'azure': 'DS3', 'aws': 'm5d'}\n        self.cloud = self._cloud()\n"
        "        self.cluster = [self.types[self.cloud]]\n        self.tasks = [Task(task_key='t', "
        "notebook_task=NotebookTask(notebook_path='/Workspace/jobs/a'))]\n\n"
        "    def _cloud(self):\n        if 'adb' in self.w.config.host:\n            return 'azure'\n"
        "        elif 'gcp' in self.w.config.host:\n            return 'gcp'\n        return 'aws'\n\n"
        "    def create(self):\n        self.w.jobs.create(name=self.name, tasks=self.tasks)\n"
    )
    jobs = sdk_jobs(ast.parse(code), code.count("\n") + 1, Budget(), "infra.py")
    assert [job.get("name") for job in jobs] == ["nightly"]
