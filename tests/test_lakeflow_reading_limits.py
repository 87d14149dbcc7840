"""Every limit of the value layer that stops the reading of a Lakeflow dataset's
name leaves the dataset, unresolved, with a note that says which limit.

The kind: a pipeline defines its datasets through code the evaluator reads within
limits (calls followed to a depth, a loop's items read one by one up to a count, a
number of alternatives, a string's size, the file's steps). A dataset the reading
does not reach with its name known must never disappear: it is an unresolved
intent whose `DL001` note names the limit. Each limit is crossed by one program
(the note is there) and approached by one just under it (the names are found, no
note).
"""

from __future__ import annotations

import itertools

import pytest

from delta_lint.frontend.lakeflow import analyze_lakeflow
from delta_lint.frontend.values import budget
from delta_lint.frontend.values.evaluator import MAX_DEPTH, MAX_LOOP

_PIPELINE = (("shop", "bronze", ()),)
_DEF = "@dlt.table(name={})\ndef _t():\n    return spark.read.table('x')\n"


def _indent(text: str) -> str:
    return "".join("    " + line + "\n" for line in text.splitlines())


def _read(code: str) -> tuple[list[str], list[str]]:
    """The table of each dataset, and the text of each note."""
    found = analyze_lakeflow("p.py", ".py", code, _PIPELINE)
    return sorted(i.table.name for i in found.intents), [d.message for d in found.diagnostics]


def _chain(calls: int) -> str:
    """A factory reached through `calls` nested calls of the module's functions, and
    called directly once as well (so the function is reached: only one call is deep)."""
    code = "import dlt\ndef f0(t):\n" + _indent(_DEF.format("t"))
    for i in range(1, calls):
        code += f"def f{i}(t):\n    f{i - 1}(t)\n"
    return code + f"f0('shallow')\nf{calls - 1}('deep')\n"


def _alternatives(ways: int) -> str:
    branches = "".join(f"{'if' if i == 0 else 'elif'} os.environ['X'] == '{i}':\n    c = 'c{i}'\n" for i in range(ways))
    return "import dlt, os\n" + branches + "else:\n    c = 'z'\n" + _DEF.format("f'{c}_t'")


def _items(count: int) -> str:
    return "import dlt\nfor t in [" + ", ".join(f"'t{i}'" for i in range(count)) + "]:\n" + _indent(_DEF.format("t"))


def _steps(inner: int) -> str:
    items = "[" + ", ".join(f"'a{i}'" for i in range(256)) + "]"
    calls = f"for i in {items}:\n    for j in {items}[:{inner}]:\n        make(i + j)\n"
    return "import dlt\ndef make(t):\n" + _indent(_DEF.format("t")) + calls


def _rounds(each_turn: str) -> str:
    """A name a loop of turns not known binds: still after a round, or never still."""
    loop = f"n = 't'\nfor x in os.environ['X'].split(','):\n    n = {each_turn}\n"
    return "import dlt, os\n" + loop + _DEF.format("n")


LIMITS = [
    # (limit, program just under it, program past it, what the note says)
    ("depth", _chain(MAX_DEPTH - 1), _chain(MAX_DEPTH), f"more than {MAX_DEPTH} calls deep"),
    ("loop items", _items(MAX_LOOP), _items(MAX_LOOP + 1), f"a loop over {MAX_LOOP + 1} items"),
    ("alternatives", _alternatives(7), _alternatives(8), "more than 8 values"),
    (
        "text size",
        "import dlt\nx = 'a' * 4000\n" + _DEF.format("x"),
        "import dlt\nx = 'a' * 5000\n" + _DEF.format("x"),
        "a string of 5,000 characters",
    ),
    ("steps", _steps(4), _steps(256), "evaluation steps"),
    ("loop rounds", _rounds("'t'"), _rounds("n + '_'"), "a loop whose names change on each of 4 readings"),
]


@pytest.mark.parametrize(("limit", "under", "past", "said"), LIMITS, ids=[row[0] for row in LIMITS])
def test_a_limit_crossed_leaves_an_unresolved_dataset_with_a_note_naming_it(limit, under, past, said) -> None:
    tables, notes = _read(under)
    assert tables and all(t.startswith("shop.bronze.") for t in tables) and notes == []
    tables, notes = _read(past)
    assert any(t.startswith("{") or "{" in t for t in tables)
    assert notes and all("a limit of the reading" in n for n in notes) and any(said in n for n in notes), notes


def test_a_deep_call_keeps_the_datasets_of_the_shallow_one() -> None:
    tables, _ = _read(_chain(MAX_DEPTH))
    assert "shop.bronze.shallow" in tables and "{t}" in tables


def test_a_generator_factory_is_read_on_its_own_and_said() -> None:
    made = "import dlt\ndef make(t):\n" + _indent(_DEF.format("t"))
    tables, notes = _read(made + "    return t\nmake('a')\n")
    assert tables == ["shop.bronze.a"] and notes == []
    tables, notes = _read(made + "    yield t\nlist(make('a'))\n")
    assert tables == ["{t}"] and "`make` is a generator" in notes[0]


def test_a_name_a_run_gives_is_unresolved_without_a_limit() -> None:
    tables, notes = _read("import dlt, os\n" + _DEF.format("os.environ['T']"))
    assert len(tables) == 1 and len(notes) == 1 and "a limit of the reading" not in notes[0]


def test_the_cpu_backstop_leaves_an_unresolved_dataset_with_a_note(monkeypatch) -> None:
    """The deadline behind the steps (`budget.BACKSTOP_SECONDS` of CPU): a machine on
    which every 256 steps take 10 s reaches it within the reading."""
    code = _steps(4)
    tables, notes = _read(code)
    assert notes == []
    counter = itertools.count()
    monkeypatch.setattr(budget, "clock", lambda: next(counter) * 10.0)
    tables, notes = _read(code)
    assert "{t}" in tables and any("seconds of CPU time" in n for n in notes), notes
