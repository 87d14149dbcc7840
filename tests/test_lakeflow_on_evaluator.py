"""Lakeflow dataset names read on the evaluator (`values.scopes.Scopes.every`).

The kind: a dataset's name is what the names hold where the definition is, on
every way that reaches it. A loop over known items and a factory called per table
define one dataset per item or call; where ways join (`if`/`else`, a loop over
items not known) the name is one of the values or unknown, never the last
assignment; a statement no reading reaches (a class body) knows the names bound
around it, not those bound inside it.
"""

from __future__ import annotations

from delta_lint.frontend.lakeflow import analyze_lakeflow
from delta_lint.model import Flag

_PIPELINE = (("shop", "bronze", ()),)


def _tables(code: str) -> list[tuple[str, bool, bool]]:
    """(table, one of several, unresolved) of each dataset the code defines."""
    found = analyze_lakeflow("p.py", ".py", code, _PIPELINE)
    return sorted((i.table.name, Flag.ONE_OF in i.flags, Flag.UNRESOLVED in i.flags) for i in found.intents)


_DEF = "@dlt.table(name={})\ndef _t():\n    return spark.read.table('x')\n"


def test_a_loop_over_known_items_defines_one_dataset_per_item() -> None:
    code = "import dlt\nfor t in ['a', 'b']:\n    full = t + '_raw'\n" + _indent(_DEF.format("full"))
    assert _tables(code) == [("shop.bronze.a_raw", False, False), ("shop.bronze.b_raw", False, False)]


def test_a_name_set_either_way_in_each_round_is_one_of_per_round() -> None:
    body = "    if os.environ['X']:\n        n = t\n    else:\n        n = t + '_v2'\n" + _indent(_DEF.format("n"))
    code = "import dlt, os\nfor t in ['a']:\n" + body
    assert _tables(code) == [("shop.bronze.a", True, False), ("shop.bronze.a_v2", True, False)]


def test_a_loop_over_items_not_known_leaves_the_name_unresolved() -> None:
    code = "import dlt, os\nfor t in os.environ['T'].split(','):\n" + _indent(_DEF.format("t"))
    assert [(u) for _, _, u in _tables(code)] == [True]


def test_a_factory_called_from_a_function_no_one_calls_is_read_there() -> None:
    code = "import dlt\ndef main():\n    make('orders')\ndef make(t):\n" + _indent(_DEF.format("t"))
    # `main` is read on its own (no one calls it), and reads `make` at its call
    assert _tables(code) == [("shop.bronze.orders", False, False)]
    # handed to `map` as well: read on its own too, its parameter unknown
    handed = code + "list(map(make, NAMES))\n"
    assert ("shop.bronze.orders", False, False) in _tables(handed) and any(u for _, _, u in _tables(handed))


def test_a_class_body_knows_the_module_names_not_its_own() -> None:
    code = "import dlt\nBASE = 'orders'\nclass T:\n" + _indent(_DEF.format("BASE"))
    assert _tables(code) == [("shop.bronze.orders", False, False)]
    shadowed = "import dlt\nBASE = 'orders'\nclass T:\n    BASE = 'other'\n" + _indent(_DEF.format("BASE"))
    assert [u for _, _, u in _tables(shadowed)] == [True]


def _indent(text: str) -> str:
    return "".join("    " + line + "\n" for line in text.splitlines())
