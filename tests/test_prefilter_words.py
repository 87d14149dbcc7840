"""The Python prefilter finds a call's word where the text holds it whole.

The analyzer walks an expression only when one of its lines names a call of
interest (`pyprefilter.TerminalLines`). A word counts where it stands whole, as a
pattern `\\bword\\b` finds it: at the text's ends, between punctuation, dotted
(`io.keep`, a helper of an imported module's namespace), found again in a later
round of helpers; never as a part of a longer name.
"""

from __future__ import annotations

import ast

from delta_lint.frontend import analyze_source
from delta_lint.frontend.pyprefilter import TerminalLines


def _lines(source: str, *rounds: set[str]) -> list[int]:
    found = TerminalLines()
    lines: list[int] = []
    for extra in rounds or (set(),):
        found.renew()
        lines = found.scan(source, extra)
    return lines


def test_a_terminal_word_stands_whole_at_the_ends_and_between_punctuation() -> None:
    source = "saveAsTable\nx = df.write.saveAsTable('t')\nmy_saveAsTable(1)\nsaveAsTable2 = 3\n(sql)"
    assert _lines(source) == [1, 2, 5]


def test_a_files_own_word_is_found_whole_and_not_inside_a_longer_name() -> None:
    source = "def load_rows(t):\n    pass\n\nload_rows('a')\nreload_rows('b')\nload_rows_count = 1\n"
    assert _lines(source, set(), {"load_rows"}) == [1, 4]


def test_a_dotted_word_is_found_whole() -> None:
    source = "import pkg.io as io\nio.keep(df)\nmyio.keep(df)\nio.keeper(df)\nx.io.keep(df)\n"
    assert _lines(source, {"io.keep"}) == [2, 5]


def test_a_later_round_adds_its_words_lines_to_those_found() -> None:
    source = "a(1)\nspark.sql('x')\nb(2)\n"
    found = TerminalLines()
    assert found.scan(source, {"a"}) == [1, 2]
    found.renew()
    assert found.scan(source, {"a", "b"}) == [1, 2, 3]
    assert found.holds(ast.parse(source).body[2]) and found.holds(ast.parse(source).body[0])


def test_a_helper_is_read_at_its_call_not_where_its_name_is_part_of_another() -> None:
    code = (
        "def purge(t):\n"
        '    spark.sql(f"DELETE FROM {t} WHERE d = 1")\n'
        "\n"
        'purge("s.a")\n'
        'repurge("s.b")\n'
        "purge_count = 0\n"
    )
    result = analyze_source("job.py", ".py", code)
    assert [(i.location.line, i.table.name) for i in result.intents] == [(4, "s.a")]
