"""A helper the code calls and also uses as a value keeps what it writes read on
its own.

The kind: the walker reads a helper at each call and drops its body's own reading
once a call was read, as the calls say every table. A helper also kept or handed on
as a value (an alias, a one-entry dict or list, an argument of a caller the reading
does not follow, a `return`) runs elsewhere with values the reading does not see:
the write stays as read on its own (`{t}`, with its DL001 note) beside the tables of
the calls. A use the reading follows (a thread pool, builtin `map`, a registry its
calls dispatch through) adds nothing.
"""

from __future__ import annotations

import pytest

HELPER = (
    "df = spark.table('main.s.src')\n\ndef w(t):\n    df.write.mode('append').saveAsTable(t)\n\nw('main.s.direct')\n"
)

HANDED = {
    "alias": "save = w\nsave('main.s.other')\n",
    "one-entry dict": "steps = {'a': w}\nsteps['a']('main.s.other')\n",
    "list": "for f in [w]:\n    f('main.s.other')\n",
    "unfollowed caller": "run_later(w, 'main.s.other')\n",
    "returned": "def pick():\n    return w\npick()('main.s.other')\n",
}
FOLLOWED = {
    "thread pool": "from concurrent.futures import ThreadPoolExecutor\n"
    "with ThreadPoolExecutor() as ex:\n    ex.submit(w, 'main.s.other')\n",
    "builtin map": "list(map(w, ['main.s.other']))\n",
    "lambda": "go = lambda: w('main.s.other')\ngo()\n",
    "registry": "def v(t):\n    df.write.mode('overwrite').saveAsTable(t)\n"
    "STEPS = {'a': w, 'b': v}\nSTEPS[dbutils.widgets.get('s')]('main.s.other')\n",
}


def _read(lint, code: str) -> tuple[list[str], list[int]]:
    result = lint({"job.py": code})
    tables = sorted(i.table.name for r in result.files for i in r.intents)
    return tables, sorted(d.location.line for d in result.diagnostics if d.rule == "DL001")


@pytest.mark.parametrize("use", sorted(HANDED))
def test_a_helper_used_as_a_value_keeps_its_write_with_a_note(lint, use) -> None:
    tables, notes = _read(lint, HELPER + HANDED[use])
    assert "main.s.direct" in tables and "{t}" in tables
    assert 4 in notes  # the write's line says its table is unknown


@pytest.mark.parametrize("use", sorted(FOLLOWED))
def test_a_helper_only_called_where_the_reading_follows_adds_nothing(lint, use) -> None:
    tables, notes = _read(lint, HELPER + FOLLOWED[use])
    assert "main.s.direct" in tables and "{t}" not in tables and 4 not in notes
