"""A configuration record's field is the value it was given, unless its class may
change it.

The kind: a class whose call builds a record of named fields from what it is given.
A dataclass and a pydantic model were read; a `NamedTuple` is made the same way
(fields in order or by keyword) and was not, so its fields lost the job input
(`{cfg_catalog}` where the widget `catalog` names it). Near misses: a class that may
change a field after it is given (a pydantic field or model validator, `__post_init__`,
`object.__setattr__` in a frozen dataclass) or take it by another key (an alias, an
alias generator) gives no field value, in the module's reading and in a value
function's evaluation alike."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def _tables(code: str) -> list[tuple[str, tuple[str, ...]]]:
    result = analyze_source("job.py", ".py", code)
    return [(i.table.name, i.name_inputs) for i in result.intents]


_NAMED_TUPLE = "from typing import NamedTuple\nclass Cfg(NamedTuple):\n    catalog: str\n    schema: str = 'ops'\n"
_DATACLASS = "from dataclasses import dataclass\n@dataclass\nclass Cfg:\n    catalog: str\n    schema: str = 'ops'\n"
_MODEL = "from pydantic import BaseModel\nclass Cfg(BaseModel):\n    catalog: str\n    schema: str = 'ops'\n"

_AT_MODULE = """{cls}
cfg = Cfg(catalog=dbutils.widgets.get("catalog"))
spark.sql(f"DELETE FROM {{cfg.catalog}}.{{cfg.schema}}.t WHERE d < 0")
"""

_IN_FUNCTION = """{cls}
def table(env):
    cfg = Cfg(catalog=env)
    return f"{{cfg.catalog}}.{{cfg.schema}}.t"
spark.sql(f"DELETE FROM {{table('prod')}} WHERE d < 0")
"""


@pytest.mark.parametrize("cls", [_NAMED_TUPLE, _DATACLASS, _MODEL], ids=["named-tuple", "dataclass", "model"])
def test_a_record_gives_the_value_its_field_was_given(cls: str) -> None:
    assert _tables(_AT_MODULE.format(cls=cls)) == [("{catalog}.ops.t", ("catalog",))]
    assert _tables(_IN_FUNCTION.format(cls=cls)) == [("prod.ops.t", ())]


def test_a_named_tuple_takes_its_fields_in_order() -> None:
    code = _AT_MODULE.format(cls=_NAMED_TUPLE).replace("catalog=dbutils", "dbutils")
    assert _tables(code) == [("{catalog}.ops.t", ("catalog",))]


_VALIDATOR = "    @field_validator('catalog')\n    @classmethod\n    def v(cls, x):\n        return other(x)\n"


@pytest.mark.parametrize(
    "cls",
    [
        _MODEL + _VALIDATOR,
        _MODEL + _VALIDATOR.replace("'catalog'", "'*'"),
        _MODEL + "    @model_validator(mode='after')\n    def v(self):\n        return self\n",
        _MODEL + "    @root_validator\n    def v(cls, values):\n        return values\n",
        _MODEL.replace("catalog: str", "catalog: str = Field(alias='Catalog')"),
        _MODEL + "    model_config = ConfigDict(alias_generator=to_camel)\n",
        _DATACLASS + "    def __post_init__(self):\n        self.catalog = other(self.catalog)\n",
        _DATACLASS + "    def __post_init__(self):\n        object.__setattr__(self, 'catalog', other())\n",
    ],
    ids=["field", "every-field", "model", "root", "alias", "alias-generator", "post-init", "frozen-post-init"],
)
def test_a_field_its_class_may_change_is_not_the_value_given(cls: str) -> None:
    [(name, inputs)] = _tables(_AT_MODULE.format(cls=cls))
    assert name != "{catalog}.ops.t" and inputs == ()
    assert _tables(_IN_FUNCTION.format(cls=cls)) != [("prod.ops.t", ())]


def test_a_validator_of_another_field_leaves_this_one_known() -> None:
    cls = _MODEL + _VALIDATOR.replace("'catalog'", "'schema'")
    [(name, inputs)] = _tables(_AT_MODULE.format(cls=cls))
    assert name.startswith("{catalog}.") and name != "{catalog}.ops.t" and inputs == ()  # `schema` not known
