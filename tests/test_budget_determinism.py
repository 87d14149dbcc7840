"""The analysis budget of a file binds in units the value layer counts (steps,
helper readings, items looked through), so a file's findings do not depend on how
fast or how busy the machine is; the CPU-time backstop behind them binds only far
past what the steps allow, and says so when it does. The machine is made to look
slower through the budget's public clock (`budget.clock`)."""

from __future__ import annotations

import itertools

import pytest

from delta_lint.frontend.values import budget

# a value function walks a 200-item list, called 250 times before the write that
# uses its last result: some 76,000 steps, about 300 looks at the backstop's clock
PARTS = "[" + ", ".join(f"'p{i}'" for i in range(200)) + "]"
SLOW_NAME_JOB = (
    "# Databricks notebook source\n"
    f"PARTS = {PARTS}\n\n\n"
    "def last_part(items):\n"
    '    last = ""\n'
    "    for item in items:\n"
    "        last = item\n"
    "    return last\n\n\n"
    + "".join(f"name{k} = last_part(PARTS)\n" for k in range(250))
    + 'spark.table("demo.raw.a").write.mode("overwrite").saveAsTable("demo.silver." + name249)\n'
)
OTHER_JOB = (
    '# Databricks notebook source\nspark.table("demo.raw.b").write.mode("overwrite").saveAsTable("demo.silver.p199")\n'
)
FILES = {"slow_name_job.py": SLOW_NAME_JOB, "other_job.py": OTHER_JOB}


def _ticking(seconds_per_look: float):
    """A clock that moves `seconds_per_look` each time it is read: a machine on which
    every 256 steps take that long, whatever this one's speed and load."""
    counter = itertools.count()
    return lambda: next(counter) * seconds_per_look


def _found(result) -> list[tuple[str, str, int, str]]:
    return sorted((f.rule, f.location.path.rsplit("/", 1)[-1], f.location.line, f.message) for f in result.findings)


def test_a_slow_machine_gives_the_same_findings(lint, monkeypatch):
    normal = _found(lint(FILES))
    assert ("DL102", "other_job.py", 2) in {f[:3] for f in normal}  # the name is read: the two writes meet
    assert not [f for f in normal if f[0] in ("DL000", "DL001")]
    # 0.1 s per 256 steps is 40 times slower than this reading takes on a laptop:
    # 30 s for the file, far past the old 10 s wall-clock guard, within the backstop
    monkeypatch.setattr(budget, "clock", _ticking(0.1))
    assert _found(lint(FILES)) == normal


def test_the_backstop_says_it_is_a_time_out_once_at_its_line(lint, monkeypatch):
    monkeypatch.setattr(budget, "clock", _ticking(10.0))  # past a minute at the 7th look
    found = lint(FILES).findings
    stops = [f for f in found if "seconds of CPU time" in f.message]
    assert len(stops) == 1, [f.message for f in found]
    stop = stops[0]
    assert stop.location.path.endswith("slow_name_job.py")
    assert 1 < stop.location.line < SLOW_NAME_JOB.count("\n")  # where it stopped: the function's loop or a call
    assert "where it stops depends on the machine" in stop.message
    assert "the names bound after it in the file are unknown" in stop.message
    # the write after it has no known name, and says so
    write_line = SLOW_NAME_JOB.count("\n")
    assert any(f.rule == "DL001" and f.location.line == write_line for f in found)


@pytest.mark.parametrize("size, charged", [(10_000, True), (10, False)])
def test_a_name_that_holds_many_items_costs_steps_to_compare(tmp_path, size, charged):
    """`-1 in L` over 10,000 items walks them all: 2,500 such comparisons would take
    a minute if each cost one step. They cost a step per two items, so the file's
    steps run out in a fraction of a second, and say so; a short list stays cheap."""
    from delta_lint.frontend import analyze_source

    turns = "[" + ", ".join(str(i) for i in range(50)) + "]"
    code = (
        "def pick(x):\n"
        f"    L = [7] * {size}\n"
        f"    for i in {turns}:\n"
        f"        for j in {turns}:\n"
        "            s = -1 in L\n"
        "    return x\n\n\n"
        'spark.table("s").write.saveAsTable("main.s." + pick("t"))\n'
    )
    result = analyze_source("job.py", ".py", code)
    spent = [(d.location.line, d.message) for d in result.diagnostics if "evaluation steps" in d.message]
    if charged:  # once, at the comparison where the steps ran out
        assert [line for line, _ in spent] == [5], spent
    else:
        assert spent == []
        assert [i.table.name for i in result.intents if i.table] == ["main.s.t"]


def _helper_flood(calls_per_helper: int) -> str:
    """20 write helpers, each called `calls_per_helper` times: 60 times is 1,200
    helper readings, past the 1,024 a file may use; 50 times (1,000) is within."""
    lines = ["# Databricks notebook source"]
    for h in range(20):
        lines += [
            f"def save{h}(name):",
            "    spark.table('demo.raw.src').write.saveAsTable('demo.silver.' + name)",
            "",
        ]
    lines += [f"save{h}('t{h}_{i}')" for i in range(calls_per_helper) for h in range(20)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("calls, stopped", [(60, True), (50, False)])
def test_a_budget_stop_is_its_own_kind_in_the_summary(tmp_path, calls, stopped):
    """The stop is one DL008 at the first call refused, with a fix about the code's
    values (not a syntax error's), and the summary counts it as past the budget, not
    as unparseable."""
    import json

    from tests.conftest import run_cli

    (tmp_path / "job.py").write_text(_helper_flood(calls), encoding="utf-8")
    text = run_cli("check", ".", "--no-cache", "--spark", "none", "--format", "concise", cwd=tmp_path)
    summary = text.stdout.strip().splitlines()[-1]
    doc = json.loads(run_cli("check", ".", "--no-cache", "--spark", "none", "--format", "json", cwd=tmp_path).stdout)
    gaps = [(f["rule"], f["location"]["line"], f["fix"]) for f in doc["findings"] if f["rule"] in ("DL000", "DL008")]
    if stopped:
        first_refused = 1 + 20 * 3 + 1024 + 1  # the header, the helpers, the calls read
        assert [(rule, line) for rule, line, _ in gaps] == [("DL008", first_refused)]
        assert "syntax" not in gaps[0][2]
        assert "1 past the analysis budget" in summary and "unparseable" not in summary
    else:
        assert gaps == [] and "past the analysis budget" not in summary


@pytest.mark.parametrize("n, stopped", [(40, True), (10, False)])
def test_nested_loops_that_write_stop_once_at_the_loop(n, stopped):
    """Each turn of a loop read element by element costs a step per 4 nodes of its
    body: 64,000 turns that each write a table (a minute of reading and 64,000
    intents if a turn cost one step) stop at the inner loop, said once for the file
    (not again at every loop read after it); 1,000 turns are read whole."""
    from delta_lint.frontend import analyze_source

    items = "[" + ", ".join(f'"x{i}"' for i in range(n)) + "]"
    code = (
        f"A = {items}\n"
        "for a in A:\n"
        "    for b in A:\n"
        "        for c in A:\n"
        '            spark.table("s").write.saveAsTable(f"main.{a}.{b}_{c}")\n'
        "for d in A:\n"
        '    spark.table("s").write.saveAsTable(f"main.d.{d}")\n'
    )
    result = analyze_source("job.py", ".py", code)
    said = [(d.rule, d.location.line) for d in result.diagnostics if d.rule == "DL008"]
    if stopped:
        assert said == [("DL008", 5)]  # the inner loop's write: each statement read costs its steps
        assert len(result.intents) < 40_000
    else:
        assert said == [] and len(result.intents) == n**3 + n


@pytest.mark.parametrize("items", [6000, 60])
def test_a_job_literal_past_the_size_budget_is_said_at_its_line_and_loses_nothing(lint, items):
    """A Jobs API literal deployed with the SDK holding a list past the size budget
    (two lists of 6,000 joined) is one DL008 at the dict's line, said when the file
    ends; the file's writes are still read and no internal error is raised. The
    near miss: a small list says nothing."""
    items_text = "[" + ",".join(["1"] * items) + "]"
    deploy = (
        "# Databricks notebook source\n"
        f'job = {{"name": "n", "tags": {items_text} + {items_text},\n'
        '  "tasks": [{"task_key": "load", "notebook_task": {"notebook_path": "./load"}}]}\n'
        'spark.table("a").write.mode("overwrite").saveAsTable("s.t")\n'
        "WorkspaceClient().jobs.create(**job)\n"
    )
    result = lint({"deploy.py": deploy})
    assert [f.rule for f in result.findings if f.rule == "DL002"] == []
    spent = [(f.location.line, f.message.split(":")[0]) for f in result.findings if f.rule == "DL008"]
    assert spent == ([(2, "value not computed")] if items > 5000 else [])
    assert [i.table.name for i in result.intents] == ["s.t"]
