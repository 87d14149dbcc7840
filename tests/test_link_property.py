"""Properties of the link stage on generated projects.

The link stage reads a file again with what other files give it (`delta_lint.link`):
the values a `%run` notebook or an imported module defines, the helpers it offers,
the value functions it returns names with, the parameters a job gives a widget.
Three bugs of one kind were found there, each where a file's own reading (or one
made from it) fed its next context, so the file was read again and again or read a
value it wrote itself. These properties hold for every project, whatever its
includes, imports, cycles and self-imports:

- the stage ends within its bound: a file is read at most once without a context
  and `MAX_LINKED_READINGS` times with one;
- no value goes round a cycle: each file marks the value it derives (`_f2` where
  file 2 appends to another file's value, `_n2` where its function returns one), and
  no table's name holds a file's mark twice (a file of a cycle given what the
  others derived from its own last reading would add its mark again);
- the findings do not depend on the files' names (so on the order the files are
  listed and read): the same project under other names gives the same writes,
  with the same tables, at the same lines of the same (renamed) files;
- adding a file that no other file includes, imports or runs changes no other
  file's writes.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from delta_lint.config import validate
from delta_lint.run import MAX_LINKED_READINGS, check

NB = "# Databricks notebook source\n"
CELL = "\n\n# COMMAND ----------\n\n"
NAMES = ("alpha", "bravo", "charlie", "dorado", "echo")

# one file: how it is read (a notebook that `%run`s, or a module that imports), what it
# takes from which files, how it makes its value, whether it writes and how
files_ = st.fixed_dictionaries(
    {
        "notebook": st.booleans(),
        "takes": st.lists(st.integers(0, len(NAMES) - 1), max_size=3),  # self and cycles included
        # 0 literal, 1 from a file it takes, 2 a widget, 3 a value function of a file it takes
        "value": st.tuples(st.integers(0, 3), st.integers(0, len(NAMES) - 1)),
        "returns": st.booleans(),  # defines a value function returning a name from its value
        "saves": st.booleans(),  # defines a helper that writes its value's table
        "calls": st.lists(st.integers(0, len(NAMES) - 1), max_size=2),  # helpers of these it calls
        "writes": st.booleans(),  # writes its value's table itself
    }
)
projects = st.fixed_dictionaries(
    {
        "files": st.lists(files_, min_size=2, max_size=len(NAMES)),
        "job": st.lists(st.tuples(st.integers(0, len(NAMES) - 1), st.booleans()), max_size=2),
    }
)


def source(k: int, f: dict, name: dict[int, str], n: int) -> str:
    """File k's text, naming file j `name[j]` (only files of the project are named)."""
    takes = [j for j in dict.fromkeys(f["takes"]) if j < n]
    lines: list[str] = []
    for j in takes:
        if f["notebook"]:
            lines.append(f"# MAGIC %run ./{name[j]}")
        else:
            lines.append(f"from {name[j]} import *")
    how, j = f["value"]
    if how == 1 and takes:
        value = f'V{takes[j % len(takes)]} + "_f{k}"'
    elif how == 2:
        value = f'dbutils.widgets.get("p{k}")'
    elif how == 3 and takes:
        value = f"name{takes[j % len(takes)]}()"
    else:
        value = f'"v{k}"'
    body = [f"V{k} = {value}"]
    if f["returns"]:
        body.append(f'def name{k}():\n    return V{k} + "_n{k}"')
    if f["saves"]:
        body.append(f'def save{k}(df):\n    df.write.mode("append").saveAsTable(f"main.s{k}.{{V{k}}}")')
    for c in dict.fromkeys(f["calls"]):
        if c in takes:
            body.append(f"save{c}(spark.range({k + 1}))")
    if f["writes"]:
        body.append(f'spark.range(1).write.mode("append").saveAsTable(f"main.w{k}.{{V{k}}}")')
    head = "\n".join(lines)
    if f["notebook"]:
        return NB + (head + CELL if head else "") + "\n".join(body) + "\n"
    return (head + "\n" if head else "") + "\n".join(body) + "\n"


def bundle(project: dict, name: dict[int, str], n: int) -> str | None:
    """A job whose tasks run some of the files, each giving its widget a value or not."""
    tasks = []
    for t, (k, gives) in enumerate(project["job"]):
        if k >= n:
            continue
        task = f"        - task_key: t{t}\n          notebook_task:\n            notebook_path: ./{name[k]}.py\n"
        if gives:
            task += f"            base_parameters:\n              p{k}: given{k}\n"
        tasks.append(task)
    if not tasks:
        return None
    return "bundle: {name: b}\nresources:\n  jobs:\n    j:\n      name: j\n      tasks:\n" + "".join(tasks)


def lint(project: dict, name: dict[int, str], extra: dict[str, str] | None = None):
    """The run's writes by logical file: (file, line, kind, table), and its stats."""
    n = len(project["files"])
    root = Path(tempfile.mkdtemp(prefix="link-property-"))
    try:
        for k, f in enumerate(project["files"]):
            (root / f"{name[k]}.py").write_text(source(k, f, name, n), encoding="utf-8")
        jobs = bundle(project, name, n)
        if jobs is not None:
            (root / "databricks.yml").write_text(jobs, encoding="utf-8")
        for path, text in (extra or {}).items():
            (root / path).write_text(text, encoding="utf-8")
        result = check([root], validate({}, root / "delta-lint.yaml"), cwd=root, use_cache=False)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    logical = {f"{name[k]}.py": k for k in range(n)}
    writes = sorted(
        (
            logical.get(Path(i.location.path).name, -1),
            i.location.line,
            str(i.kind),
            i.table.name if i.table is not None else "",
        )
        for i in result.intents
    )
    return writes, result.stats


PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def _file(notebook: bool, takes: list[int], value: tuple[int, int], **more: object) -> dict:
    return {
        "notebook": notebook,
        "takes": takes,
        "value": value,
        "returns": False,
        "saves": False,
        "calls": [],
        "writes": True,
    } | more


# two notebooks that `%run` each other, each deriving its value from the other's; a
# module that imports itself and derives its value from its own; a package-like
# cycle whose value comes from below it, through a function
CYCLES = (
    {"files": [_file(True, [1], (1, 0)), _file(True, [0], (1, 0), saves=True)], "job": []},
    {"files": [_file(False, [0], (1, 0)), _file(False, [], (0, 0))], "job": []},
    {
        "files": [
            _file(False, [1, 2], (3, 1), returns=True),
            _file(False, [0], (1, 0), returns=True),
            _file(False, [], (2, 0), returns=True),
        ],
        "job": [(2, True)],
    },
)


@PROPERTY
@given(projects, st.permutations(NAMES))
@example(CYCLES[0], list(reversed(NAMES)))
@example(CYCLES[1], list(reversed(NAMES)))
@example(CYCLES[2], list(reversed(NAMES)))
def test_the_link_stage_ends_and_does_not_depend_on_the_files_names(project: dict, shuffled: list[str]) -> None:
    n = len(project["files"])
    first, stats = lint(project, dict(enumerate(NAMES)))
    # each file read once without a context, at most MAX_LINKED_READINGS times with one
    assert stats.files_analysed <= n * (1 + MAX_LINKED_READINGS)
    for *_, table in first:
        assert all(table.count(f"_f{k}") <= 1 and table.count(f"_n{k}") <= 1 for k in range(n)), table
    again, _ = lint(project, dict(enumerate(shuffled)))
    assert again == first


@PROPERTY
@given(projects)
def test_a_file_no_other_file_takes_from_changes_no_other_files_writes(project: dict) -> None:
    name = dict(enumerate(NAMES))
    before, _ = lint(project, name)
    unrelated = 'V9 = "lonely"\ndef name9():\n    return V9\nspark.range(1).write.saveAsTable(f"main.u.{V9}")\n'
    after, _ = lint(project, name, {"zulu.py": unrelated})
    assert [w for w in after if w[0] != -1] == before
