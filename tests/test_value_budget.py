"""One analysis budget per file for reading values (`frontend.budget`): hostile value
functions finish in bounded time and memory, give no value, and say so with a DL008
at the line where the budget ran out; near misses keep their values. Regular
expressions of the checked code run on RE2 with Python's meaning."""

from __future__ import annotations

import re
import time
import tracemalloc

import pytest

from delta_lint.frontend.values.evaluator import Evaluator, Module
from delta_lint.frontend.values.lattice import UNKNOWN
from tests.test_link import linked

SECONDS = 5.0
PEAK_BYTES = 200 * 1024 * 1024


def _read(tmp_path, lib: str, calls: int = 1, trace: bool = True):
    """The job's tables and the DL008 diagnostics of reading a job that calls
    `name(...)` of lib.py `calls` times, with the CPU time and memory peak. CPU
    time, not wall time: a hostile value spins, and a loaded machine (a CI runner,
    two test sessions) stretches wall time past the bound without any spinning."""
    job = "from lib import name\n" + "".join(
        f"spark.sql(f\"INSERT INTO {{name('a{i}')}}.t SELECT 1\")\n" for i in range(calls)
    )
    if trace:
        tracemalloc.start()
    started = time.process_time()
    try:
        results = linked(tmp_path, {"lib.py": lib, "job.py": job})
        peak = tracemalloc.get_traced_memory()[1] if trace else 0
    finally:
        if trace:
            tracemalloc.stop()
    elapsed = time.process_time() - started
    by_path = {r.path: r for r in results}
    tables = [i.table.name for i in by_path["job.py"].intents if i.table]
    notes = [(d.location.path, d.location.line, d.message) for d in by_path["job.py"].diagnostics if d.rule == "DL008"]
    return tables, notes, elapsed, peak


HOSTILE = {
    "percent-star-width": ('def name(x):\n    return "%*s" % (3000000000, x)\n', "`%*` width", 2),
    "replace-with-itself": (
        'def name(x):\n    s = "' + "a" * 50_000 + '"\n    return s.replace("a", s)\n',
        "string",
        3,
    ),
    # "a0abcdefgh" is 10 characters: its 9th doubling (line 11) is past 4,096
    "doubled-18-times": (
        'def name(x):\n    s = x + "abcdefgh"\n' + "    s = s + s\n" * 18 + "    return s\n",
        "string",
        11,
    ),
    "string-repeated": ('def name(x):\n    return x + "x" * 10**9\n', "string", 2),
    "list-repeated": ("def name(x):\n    n = [x] * 10**9\n    return n[0]\n", "list", 2),
    "big-power": ("def name(x):\n    n = 2 ** 10**8\n    return x + str(n)\n", "integer", 2),
    "tower-power": ("def name(x):\n    n = 10**10**6\n    return x + str(n)\n", "integer", 2),
}


@pytest.mark.parametrize("lib, why, line", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_value_past_a_size_is_not_built_and_is_said_at_its_line(tmp_path, lib, why, line):
    tables, notes, elapsed, peak = _read(tmp_path, lib)
    assert elapsed < SECONDS
    assert peak < PEAK_BYTES
    assert tables == ["{name_a0}.t"]  # unknown, by the call's name
    assert len(notes) == 1
    path, at, message = notes[0]
    assert (path, at) == ("job.py", 2)  # at the call: the code is lib.py's
    assert "past the analysis budget" in message and why in message
    assert f"(in `lib.py` line {line})" in message


NEAR_MISSES = {
    "percent-star-precision": ('def name(x):\n    return "%.*s_t" % (2, x)\n', "a0_t.t"),
    "replace": ('def name(x):\n    return "_a_".replace("a", x)\n', "_a0_.t"),
    "doubled-twice": ("def name(x):\n    s = x\n    s = s + s\n    s = s + s\n    return s\n", "a0a0a0a0.t"),
    "string-repeated": ('def name(x):\n    return x * 2 + "_" * 3\n', "a0a0___.t"),
    "small-power": ("def name(x):\n    return x + str(2 ** 10)\n", "a01024.t"),
}


@pytest.mark.parametrize("lib, table", list(NEAR_MISSES.values()), ids=list(NEAR_MISSES))
def test_a_value_within_the_sizes_stays_known(tmp_path, lib, table):
    tables, notes, _, _ = _read(tmp_path, lib)
    assert tables == [table]
    assert notes == []


def test_the_steps_are_counted_per_file_and_a_loop_of_pass_costs_them(tmp_path):
    # every turn of the loop is a statement: 6,000 calls of this would take minutes
    loop = "def name(x):\n    for i in " + repr(list(range(250))) + ":\n        pass\n    return x\n"
    tables, notes, elapsed, _ = _read(tmp_path, loop, calls=1500, trace=False)
    assert elapsed < 30  # the whole run, the front end of 1,500 statements included
    assert tables[0] == "a0.t"  # the first calls are read
    assert tables[-1] == "{name_a1499}.t"  # then the file's budget is used up
    assert len(notes) == 1, notes
    assert "evaluation steps" in notes[0][2] and "bound after it in the file" in notes[0][2]


def evaluator(source: str) -> Evaluator:
    import ast

    return Evaluator(Module.of(ast.parse(source), "src/m.py"), {})


@pytest.mark.parametrize(
    "pattern, subject",
    [(r"(a|a?){40}b", "a" * 40), (r"(?:a?){34}a{34}", "a" * 34), (r"(a+)+b", "a" * 60), (r"(x+x+)+y", "x" * 60)],
)
def test_patterns_that_backtrack_for_ever_in_python_end_at_once(pattern, subject):
    ev = evaluator(
        "import re\n"
        f"def m():\n    return re.match({pattern!r}, {subject!r}) is None\n"
        f"def s():\n    return re.sub({pattern!r}, '-', {subject!r})\n"
        f"def c():\n    return re.compile({pattern!r}).search({subject!r}) is None\n"
    )
    started = time.monotonic()
    got = [ev.call(n, [], {}) for n in ("m", "s", "c")]
    assert time.monotonic() - started < 1.0
    if pattern.startswith("(?:a?)"):
        assert got == [False, "-", False]  # Python's answer (it takes Python minutes)
    else:
        assert got == [True, subject, True]


def test_patterns_re2_refuses_give_no_value_and_python_refusals_raise():
    ev = evaluator(
        "import re\n"
        "def back(s):\n    return re.match(r'(a)\\1', s)\n"
        "def look(s):\n    return re.search(r'a(?=b)', s)\n"
        "def bad(s):\n    return re.match(r'(a', s)\n"
    )
    assert ev.call("back", ["aa"], {}) == UNKNOWN
    assert ev.call("look", ["ab"], {}) == UNKNOWN
    assert ev.call("bad", ["a"], {}) == UNKNOWN


REGEX_CASES = [
    ("re.match(r'([a-z]+)_(\\d+)', s).groups()", "dev_12x"),
    ("re.match(r'(?P<env>dev|prod)/(?P<t>\\w+)', s).groupdict()", "prod/orders"),
    ("re.search(r'(a)(b)?(c)', s).group(0, 1, 2, 3)", "xxac"),
    ("re.match(r'(a)(b)?', s)[2]", "a"),
    ("re.sub(r'(\\w+)\\.(\\w+)', r'\\2_\\g<1>', s)", "db.t and x.y"),
    ("re.sub('a', 'b', s, count=2)", "aaaa"),
    ("re.sub('A', 'b', s, flags=re.I)", "aAa"),
    ("re.findall(r'(\\w)(\\d)', s)", "a1 b2 c"),
    ("re.findall(r'\\d+', s)", "a1 b22 c333"),
    ("re.split(r'(,)|;', s)", "a,b;c"),
    ("re.split(',', s, maxsplit=1)", "a,b,c"),
    ("re.search('^b$', s, flags=re.M) is not None", "a\nb\nc"),
    ("re.match('a.b', s, flags=re.S) is not None", "a\nb"),
    ("re.match('a.b', s) is None", "a\nb"),
    ("re.compile('X(\\\\d)', re.I | re.M).match(s).group(1)", "x7"),
    ("re.fullmatch(r'[a-z]+', s) is None", "abc1"),
]


@pytest.mark.parametrize("expr, subject", REGEX_CASES)
def test_regular_expressions_on_re2_give_what_pythons_re_gives(expr, subject):
    source = f"import re\ndef f(s):\n    return {expr}\n"
    namespace: dict = {}
    exec(compile(source, "<ours>", "exec"), namespace)  # our own test code: Python's answer
    assert evaluator(source).call("f", [subject], {}) == namespace["f"](subject)
    assert re is not None


def test_nested_loops_over_literal_lists_stay_within_the_budget():
    """The analyzer reads a loop over a literal list once per element; three nested
    loops of 256 would be 16 million readings. Each turn costs a step: past the
    budget the rest of the loop is read once with its names unknown, and says so."""
    import time

    from delta_lint.frontend import analyze_source

    items = "[" + ", ".join(f'"x{n}"' for n in range(256)) + "]"
    code = (
        f"A = {items}\n"
        "for a in A:\n"
        "    for b in A:\n"
        "        for c in A:\n"
        '            spark.table("s").write.saveAsTable(f"main.{a}.{b}_{c}")\n'
    )
    start = time.monotonic()
    result = analyze_source("job.py", ".py", code)
    assert time.monotonic() - start < 30
    assert any(d.rule == "DL008" and "budget" in d.message for d in result.diagnostics)
    assert result.intents  # the write is still there, its later names unknown
    small = analyze_source("job.py", ".py", code.replace(items, '["x0", "x1"]'))
    assert len(small.intents) == 8 and not [d for d in small.diagnostics if d.rule == "DL008"]


def test_a_string_doubled_at_module_level_stays_bounded():
    """`s = s + s` eighteen times on a 50 KB literal is 13 GB of text: the analyzer's
    strings stop at 64 KB (MAX_BUILT_TEXT) and are unknown past it (the write is still found)."""
    import time
    import tracemalloc

    from delta_lint.frontend import analyze_source

    code = (
        's = "' + "a" * 50_000 + '"\n' + "s = s + s\n" * 18 + "spark.sql(f\"DELETE FROM main.x.t WHERE c = '{s}'\")\n"
    )
    tracemalloc.start()
    start = time.monotonic()
    try:
        result = analyze_source("job.py", ".py", code)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 30 and peak < 200 * 2**20
    assert [i.table.name for i in result.intents] == ["main.x.t"]


def test_the_helper_read_limit_is_said_once_per_file():
    """Past the file's helper reads, every later call is left unread: one DL008 at the
    first call refused says so ("those read after it ... are unknown"), not one at
    each of the hundreds of calls after it."""
    from delta_lint.frontend import analyze_source

    lines = ["# Databricks notebook source"]
    for h in range(20):
        lines += [f"def save{h}(name):", "    spark.table('a').write.saveAsTable('main.s.' + name)", ""]
    lines += [f"save{h}('t{h}_{i}')" for i in range(60) for h in range(20)]
    result = analyze_source("job.py", ".py", "\n".join(lines) + "\n")
    said = [d for d in result.diagnostics if "calls of helpers read" in d.message]
    assert len(said) == 1
    assert len(result.intents) >= 1000  # the calls read before the limit keep their writes
