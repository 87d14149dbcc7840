"""A write that reads a name holding one of several values is read once per value,
however many names the module binds: a scope of thousands of names is not looked
through at every write (that made a long notebook quadratic), the write's own names
decide. Both ways, in a small scope and past the look's bound, with the near miss
(no name the write reads holds one of several: one plain intent)."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source
from delta_lint.model import Flag


def _writes(code: str) -> list[tuple[str, bool]]:
    result = analyze_source("job.py", ".py", code)
    return sorted((i.table.name, Flag.ONE_OF in i.flags) for i in result.intents if i.table)


def _filler(n: int) -> str:
    return "".join(f'v{i} = "main.s.f{i}"\n' for i in range(n))


CHOSEN = 'if dbutils.widgets.get("env") == "prod":\n    t = "main.s.a"\nelse:\n    t = "main.s.b"\n'
KEYED = 'conf = {"t": "main.s.c"}\nif dbutils.widgets.get("env") == "prod":\n    conf["t"] = "main.s.d"\n'


@pytest.mark.parametrize("names", [0, 10, 500])
def test_a_name_of_several_values_in_any_scope(names: int) -> None:
    code = _filler(names) + CHOSEN + 'spark.sql(f"DELETE FROM {t} WHERE 1=1")\n'
    assert _writes(code) == [("main.s.a", True), ("main.s.b", True)]


@pytest.mark.parametrize("names", [0, 500])
def test_a_dict_key_of_several_values_in_any_scope(names: int) -> None:
    code = _filler(names) + KEYED + "spark.sql(f\"DELETE FROM {conf['t']} WHERE 1=1\")\n"
    small = _writes(KEYED + "spark.sql(f\"DELETE FROM {conf['t']} WHERE 1=1\")\n")
    assert _writes(code) == small
    assert {name for name, _ in small} == {"main.s.c", "main.s.d"}


@pytest.mark.parametrize("names", [0, 500])
def test_near_miss_the_write_reads_no_such_name(names: int) -> None:
    code = _filler(names) + CHOSEN + 'spark.sql("DELETE FROM main.s.z WHERE 1=1")\n'
    assert _writes(code) == [("main.s.z", False)]


BUILT = 'dt = DeltaTable.forName(spark, t)\ndt.alias("x").merge(src.alias("s"), "x.id = s.id").whenMatchedUpdateAll().execute()\n'


@pytest.mark.parametrize("names", [0, 500])
def test_a_handle_built_from_a_name_of_several_values_is_read_per_value(names: int) -> None:
    # the name is read where the handle is used: `dt.alias(...).merge(...)` reads `t`
    code = "from delta.tables import DeltaTable\n" + _filler(names) + CHOSEN + BUILT
    assert _writes(code) == [("main.s.a", True), ("main.s.b", True)]


def test_near_miss_a_handle_of_one_table_stays_one_intent() -> None:
    code = (
        "from delta.tables import DeltaTable\n"
        + CHOSEN
        + BUILT.replace("forName(spark, t)", 'forName(spark, "main.s.z")')
    )
    assert _writes(code) == [("main.s.z", False)]
