"""A list a literal dict holds, read by a loop (`for name in CFG["tables"]:`), and
changed through another name bound to it (`t = CFG["tables"]; t.append(x)`) or
through the dict (`CFG["tables"].append(x)`) at the top level: the loop runs over
the list as the code left it. Where the other name's changes cannot
be followed (handed to a function, kept in another container, bound in a function,
changed with `+=`), the list is not known and the write says so (DL001)."""

from __future__ import annotations

import pytest

WRITE = """\
for name in CFG["tables"]:
    spark.table("src").write.mode("overwrite").saveAsTable(name)
"""


def tables(result) -> list[str | None]:
    return sorted(i.table.name if i.table else "?" for i in result.intents)


def dynamic(result) -> list[int]:
    return sorted(d.location.line for d in result.diagnostics if d.rule == "DL001")


def test_a_list_of_a_literal_dict_is_looped_over(lint):
    result = lint({"job.py": 'CFG = {"tables": ["main.s.a"]}\n' + WRITE})
    assert tables(result) == ["main.s.a"]


@pytest.mark.parametrize(
    "change",
    [
        't = CFG["tables"]\nt.append("main.s.b")\n',
        't = CFG.get("tables")\nt.extend(["main.s.b"])\n',
        'same = CFG\nt = same["tables"]\nt.append("main.s.b")\n',
        'CFG["tables"].append("main.s.b")\n',
    ],
)
def test_a_list_changed_through_another_name_is_read_as_changed(lint, change):
    result = lint({"job.py": 'CFG = {"tables": ["main.s.a"]}\n' + change + WRITE})
    assert tables(result) == ["main.s.a", "main.s.b"]
    assert dynamic(result) == []


@pytest.mark.parametrize(
    "change",
    [
        # handed to a function that changes it
        'def add(x):\n    x.append("main.s.b")\n\n\nt = CFG["tables"]\nadd(t)\n',
        # kept in another container and changed there
        'holder = {"t": CFG["tables"]}\nholder["t"].append("main.s.b")\n',
        # bound and changed in a function
        'def grow():\n    t = CFG["tables"]\n    t.append("main.s.b")\n\n\ngrow()\n',
        # changed with an operator the reading does not follow
        't = CFG["tables"]\nt += ["main.s.b"]\n',
        # changed through the dict in a function, or by a method the reading does not follow
        'def grow():\n    CFG["tables"].append("main.s.b")\n\n\ngrow()\n',
        'CFG["tables"].insert(0, "main.s.b")\n',
    ],
)
def test_a_change_that_cannot_be_followed_leaves_the_list_unknown(lint, change):
    code = 'CFG = {"tables": ["main.s.a"]}\n' + change + WRITE
    result = lint({"job.py": code})
    assert "main.s.a" not in tables(result)
    assert dynamic(result) == [len(code.splitlines())]


def test_a_list_of_configurations_grown_through_the_dict_stays_unknown(lint):
    code = (
        'CFG = {"jobs": [{"t": "main.s.a"}]}\n'
        'CFG["jobs"].append({"t": "main.s.b"})\n'
        'for job in CFG["jobs"]:\n    spark.table("src").write.mode("overwrite").saveAsTable(job["t"])\n'
    )
    result = lint({"job.py": code})
    assert tables(result) == ["{each_job_t}"]
    assert dynamic(result) == [4]
