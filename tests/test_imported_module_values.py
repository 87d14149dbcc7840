"""A value function imported from another module reads that module's names as the
module leaves them once imported, as the same code in one file is read: every
top-level statement that binds or changes a name counts (an `if` that rebinds it,
`+=`, a loop, `try`, a list grown in place), not only its first plain
assignment. Where the
code goes one of several ways the value is one of several; where the change is not
followed it is unknown (DL001) -- never the first binding, certain."""

from __future__ import annotations

import pytest

JOB = 'from helpers import load\nspark.sql(f"DELETE FROM {load()} WHERE 1=1")\n'


def tables(result) -> list[tuple[str, bool]]:
    """(table, one of several) of each write; "?" for a name not known."""
    out = []
    for i in result.intents:
        flags = {f.value for f in i.flags}
        name = "?" if i.table is None or "unresolved" in flags else i.table.name
        out.append((name, "one_of" in flags))
    return sorted(out)


def run(lint, helpers: str):
    return lint({"helpers.py": helpers + "\n\ndef load():\n    return T\n", "job.py": JOB})


@pytest.mark.parametrize(
    ("helpers", "expected"),
    [
        # rebound under a test the code cannot decide: one of both
        (
            'import sys\nT = "main.s.a"\nif len(sys.argv) > 3:\n    T = "main.s.b"\n',
            [("main.s.a", True), ("main.s.b", True)],
        ),
        # grown with `+=`: the text Python holds
        ('T = "main.s.t"\nT += "_v2"\n', [("main.s.t_v2", False)]),
        # bound by a loop over a known list: its last item
        ('T = "main.s.a"\nfor t in ["main.s.b", "main.s.c"]:\n    T = t\n', [("main.s.c", False)]),
        # bound in a `try` whose body cannot fail
        ('try:\n    T = "main.s.b"\nexcept ImportError:\n    T = "main.s.c"\n', [("main.s.b", False)]),
        # two plain assignments: the later one
        ('T = "main.s.a"\nT = "main.s.b"\n', [("main.s.b", False)]),
    ],
)
def test_an_imported_value_is_what_the_module_leaves(lint, helpers, expected):
    assert tables(run(lint, helpers)) == expected


@pytest.mark.parametrize(
    "helpers",
    [
        # a list grown in place, read by its last item
        'TABLES = ["main.s.a"]\nTABLES.append("main.s.b")\nT = "main.s.a"\nT = TABLES[-1]\n',
        # rebound by a statement whose effect is not known
        'import lib\nT = "main.s.a"\nwith lib.session() as s:\n    T = s.table\n',
        # rebound, the second time by a library call not known
        'import lib\nT = "main.s.a"\nT = lib.name()\n',
    ],
)
def test_an_imported_value_changed_where_it_is_not_followed_is_not_known(lint, helpers):
    result = run(lint, helpers)
    assert tables(result) == [("?", False)]
    assert [d.rule for d in result.diagnostics if d.rule == "DL001"] == ["DL001"]


@pytest.mark.parametrize(
    "helpers",
    [
        'T = "main.s.a"\n',
        # only read by the module's own code: still its one value
        'T = "main.s.a"\nprint(T)\nfor c in T:\n    pass\n',
        # a function that changes a list of its own of the same name leaves the module's alone
        'T = "main.s.a"\n\n\ndef other(T):\n    T.append("x")\n',
    ],
)
def test_an_imported_value_bound_once_stays_known(lint, helpers):
    assert tables(run(lint, helpers)) == [("main.s.a", False)]


def test_the_same_code_in_one_file_reads_alike(lint):
    """The reading an importer gets is the one the module's own file gets."""
    code = 'import sys\nT = "main.s.a"\nif len(sys.argv) > 3:\n    T = "main.s.b"\n\n\ndef load():\n    return T\n\n\n'
    result = lint({"job.py": code + 'spark.sql(f"DELETE FROM {load()} WHERE 1=1")\n'})
    assert tables(result) == [("main.s.a", True), ("main.s.b", True)]
