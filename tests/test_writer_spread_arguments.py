"""A writer's terminal given its arguments spread from a dict or a list.

The kind: `saveAsTable(**opts)`, `insertInto(*args)`, `save(**{"path": p})` name
the table (and the mode) inside the spread. A spread whose value the reading holds
(a literal, a name bound to a dict or list of known strings) is laid out as the
keywords or positions it gives; one only a run fills (a call's result, a dict the
code changes) leaves the table unknown, named after the spread with a note, never
an empty name.
"""

from __future__ import annotations

import pytest

HEAD = "df = spark.table('main.s.src')\n"
KNOWN = {
    "dict name": (
        "opts = {'name': 'main.s.t', 'mode': 'append'}\ndf.write.saveAsTable(**opts)\n",
        "main.s.t",
        "blind_append",
    ),
    "dict literal": ("df.write.mode('overwrite').saveAsTable(**{'name': 'main.s.t'})\n", "main.s.t", "full_overwrite"),
    "list name": ("args = ['main.s.t']\ndf.write.mode('append').insertInto(*args)\n", "main.s.t", "blind_append"),
    "path": (
        "df.write.format('delta').mode('append').save(**{'path': '/mnt/x/t'})\n",
        "delta:/mnt/x/t",
        "blind_append",
    ),
}
UNKNOWN = {
    "call": ("df.write.mode('append').saveAsTable(**get_opts())\n", "{get_opts}"),
    "changed dict": (
        "cfg = {'name': 'main.s.t'}\ncfg['name'] = dbutils.widgets.get('t')\ndf.write.mode('append').saveAsTable(**cfg)\n",
        "{cfg}",
    ),
    "parameter": ("def w(a):\n    df.write.mode('append').insertInto(*a)\nw(rows())\n", "{a}"),
}


def _read(lint, code: str):
    result = lint({"job.py": HEAD + code})
    intents = [(i.table.name, i.kind.value) for r in result.files for i in r.intents]
    return intents, [d.message for d in result.diagnostics if d.rule == "DL001"]


@pytest.mark.parametrize("shape", sorted(KNOWN))
def test_a_spread_the_reading_holds_names_the_table(lint, shape) -> None:
    code, table, kind = KNOWN[shape]
    intents, notes = _read(lint, code)
    assert intents == [(table, kind)] and notes == []


@pytest.mark.parametrize("shape", sorted(UNKNOWN))
def test_a_spread_only_a_run_fills_is_an_unknown_named_table_with_a_note(lint, shape) -> None:
    code, table = UNKNOWN[shape]
    intents, notes = _read(lint, code)
    assert [t for t, _ in intents] == [table] and len(notes) == 1 and f"`{table}`" in notes[0]
