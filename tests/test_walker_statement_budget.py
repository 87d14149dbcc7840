"""Every statement the walker reads costs the file's one budget: a helper's body read
again at each call too, and a long line (a hundred f-string fields) what its nodes
do. When the budget runs out, the rest of the file is still read for its writes,
but what each statement after that point binds is not known, a helper called after
it is not read again (its writes stay as read where written, their parameters
unresolved), and one DL008 says so at the line where it ran out (the outermost
call, when a helper's body spent it)."""

from __future__ import annotations

from delta_lint.frontend import analyze_source
from delta_lint.frontend.values.resolver import MAX_HELPER_DEPTH


def _job(calls: int, fields: int = 20, statements: int = 400) -> str:
    parts = "_".join("{t}" for _ in range(fields))
    body = "".join(f"    x{i} = f'{parts}'\n" for i in range(statements))
    return (
        "def helper(t):\n"
        + body
        + "    spark.sql(f'DELETE FROM {t}')\n"
        + "".join(f"helper('main.s.t{i}')\n" for i in range(calls))
        + 'after = "main.s.after"\n'
        + 'spark.sql(f"DELETE FROM {after}")\n'
        + 'spark.sql("DELETE FROM main.s.lit")\n'
    )


def test_helper_bodies_read_again_at_each_call_spend_the_budget():
    code = _job(calls=60)
    result = analyze_source("job.py", ".py", code)
    stops = [d for d in result.diagnostics if d.rule == "DL008"]
    assert len(stops) == 1
    line = stops[0].location.line
    assert code.splitlines()[line - 1].startswith("helper(")  # said at the call, not in the body
    assert "the names bound after it in the file are unknown" in stops[0].message
    tables = [i.table.name for i in result.intents]
    # calls read before the stop are exact; the name bound after it is not known
    assert "main.s.t0" in tables and "main.s.t59" not in tables
    assert "{after}" in tables and "main.s.after" not in tables
    # a write after the stop is still found: a literal, and the helper's own (unresolved)
    assert "main.s.lit" in tables and "{t}" in tables


def test_a_small_helper_called_often_is_read_at_every_call():
    """The near miss: the same shape at a size real jobs have is read whole."""
    result = analyze_source("job.py", ".py", _job(calls=40, fields=2, statements=20))
    assert [d for d in result.diagnostics if d.rule == "DL008"] == []
    tables = sorted(i.table.name for i in result.intents)
    assert tables == sorted([f"main.s.t{i}" for i in range(40)] + ["main.s.after", "main.s.lit"])


def test_long_lines_cost_what_their_nodes_do():
    """One line of 250 f-string fields costs as a hundred short lines: 64 calls of a
    helper of 100 such lines stop; the same number of calls of short lines do not."""
    long = _job(calls=64, fields=250, statements=100)
    assert any(d.rule == "DL008" for d in analyze_source("job.py", ".py", long).diagnostics)
    short = _job(calls=64, fields=1, statements=100)
    assert not any(d.rule == "DL008" for d in analyze_source("job.py", ".py", short).diagnostics)


def test_a_helper_call_a_cap_leaves_unread_keeps_its_written_writes():
    """A call past the per-helper cap, or too deep, is not read: the helper's write
    as written (its table a parameter: unresolved, DL001) stays, so the write is not
    silently lost; a helper whose every call is read keeps only the calls' writes."""
    last = MAX_HELPER_DEPTH
    deep = "".join(f"def h{i}(t):\n    h{i + 1}(t)\n\n" for i in range(last))
    deep += f"def h{last}(t):\n    spark.sql(f'DELETE FROM {{t}}')\n\nh0('main.s.deep')\n"
    result = analyze_source("job.py", ".py", deep)
    assert [i.table.name for i in result.intents] == ["{t}"]
    assert any(d.rule == "DL008" for d in result.diagnostics)
    shallow = deep.replace(f"    h{last}(t)", "    spark.sql(f'DELETE FROM {t}')")
    shallow = shallow.replace(f"def h{last}(t):\n", f"def h{last}():\n")
    shallow = shallow.replace("    spark.sql(f'DELETE FROM {t}')\n\nh0", "    pass\n\nh0")
    result = analyze_source("job.py", ".py", shallow)
    assert [i.table.name for i in result.intents] == ["main.s.deep"]
