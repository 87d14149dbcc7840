"""A method read where it is written (no object of its class is known: the class is
never made, or made from values only a run knows) reads `self.x` as its `__init__`
sets it, each of `__init__`'s parameters an unknown part named after it:
`self.t = f"{cat}.ops.c"` keeps `.ops.c` (its unknown part still unknown: nothing
binds `cat` here). Near misses: an attribute another method sets again, one `__init__` sets to
what is wholly unknown (a bare `{self_t}`), a default that a caller may override."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def tables(code: str) -> list[tuple[str, bool]]:
    result = analyze_source("job.py", ".py", code)
    return [(i.table.name, "unresolved" in {f.value for f in i.flags}) for i in result.intents]


CLASS = """import json, sys
from pydantic import BaseModel

class Params(BaseModel):
    catalog: str

class Ingest:
    def __init__(self, raw, cat):
        {init}
    def _delete(self, path):
        spark.sql(f"DELETE FROM {{self.t}} WHERE path = '{{path}}'")
    def run(self):
        self._delete("a")
{made}
"""


@pytest.mark.parametrize(
    ("init", "expected"),
    [
        ('self.t = f"{cat}.ops.control"', "{cat}.ops.control"),
        ("self.t = f\"{raw['catalog']}.ops.control\"", "{raw_catalog}.ops.control"),
        ("self.t = f\"{raw['catalog'].lower()}.ops.control\"", "{raw_catalog_lower}.ops.control"),
        ('p = Params(**raw)\n        self.t = f"{p.catalog}.ops.control"', "{p_catalog}.ops.control"),
        ('self.c = cat\n        self.t = f"{self.c}.ops.control"', "{self_c}.ops.control"),
    ],
)
@pytest.mark.parametrize(
    "made",
    ["", "Ingest(json.loads(sys.argv[1]), dbutils.widgets.get('c')).run()"],
    ids=["never-made", "made-from-run-inputs"],
)
def test_a_method_keeps_the_known_parts_init_gives_an_attribute(init: str, expected: str, made: str) -> None:
    assert tables(CLASS.format(init=init, made=made)) == [(expected, False)]


def test_a_known_object_still_reads_its_values() -> None:
    code = CLASS.format(init='self.t = f"{cat}.ops.control"', made='Ingest({}, "main").run()')
    assert tables(code) == [("main.ops.control", False)]


@pytest.mark.parametrize(
    "init",
    [
        "self.t = lookup(raw)",  # wholly unknown
        'self.t = f"{cat}.ops.control"\n    def swap(self):\n        self.t = other()',  # set again
    ],
)
def test_an_attribute_not_known_stays_unresolved(init: str) -> None:
    assert tables(CLASS.format(init=init, made="")) == [("{self_t}", True)]


def test_a_default_is_not_taken_for_a_parameter_a_caller_may_give() -> None:
    code = CLASS.replace("def __init__(self, raw, cat):", 'def __init__(self, raw, cat="main"):')
    assert tables(code.format(init='self.t = f"{cat}.ops.control"', made="")) == [("{cat}.ops.control", False)]
