"""`words`: one sweep of a text's whole words answers as the patterns it replaces.

The sweep must find exactly what `\\b(?:w|...)\\b` and `[^\\W\\d]\\w*` find on ASCII
text (a word inside a longer one, after digits, next to punctuation or at the
text's ends), and give None for any other text so its readers keep the pattern.
"""

from __future__ import annotations

import random
import re

from delta_lint.frontend.sqlcall import MAY_NAME_SESSION_SQL
from delta_lint.model import source_words
from delta_lint.words import found_at, identifiers, word_lines

WORDS = ("save", "saveAsTable", "sql", "table", "merge", "_x", "a1")
PIECES = (
    *WORDS,
    "saveAsTables",
    "xsave",
    "save_",
    "1save",
    "sql2",
    ".",
    "(",
    " ",
    "\n",
    "\t",
    "#",
    '"',
    "_",
    "9",
    "07table",
    "\r\n",
    "x",
)


def _pattern_lines(text: str, words: tuple[str, ...]) -> list[int]:
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(words))) + r")\b")
    lines = [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]
    return sorted(set(lines))


def _texts(count: int) -> list[str]:
    rng = random.Random(7)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 40))) for _ in range(count)]


def test_word_lines_are_the_patterns_lines_on_ascii_text() -> None:
    wanted = frozenset(w.encode() for w in WORDS)
    for text in _texts(3000):
        assert word_lines(text, wanted) == _pattern_lines(text, WORDS), text


def test_a_word_inside_a_longer_one_is_no_line() -> None:
    wanted = frozenset({b"save", b"sql"})
    assert word_lines("df.saveAsTables(x)\nresave()\nsql_text = 1\n", wanted) == []
    assert word_lines("x\ndf.write.save(p)\n(sql)", wanted) == [2, 3]


def test_identifiers_are_the_patterns_words() -> None:
    for text in [*_texts(3000), "123abc 12_3 _ 9 x9y", ""]:
        assert identifiers(text) == set(re.findall(r"[^\W\d]\w*", text)), text


def test_non_ascii_text_is_left_to_the_pattern() -> None:
    text = "ｓａｖｅ = 1\ndf.saveAsTable('t')  # café\n"
    assert word_lines(text, frozenset({b"saveAsTable"})) is None
    assert identifiers(text) is None
    # the reader of a module's words keeps what its pattern finds (NFKC names included)
    assert {"save", "saveAsTable", "café"} <= source_words(text)


SQL_PIECES = ("sql", ".", " ", "\n", "(", "x", "import", "\u00a0", "_", "ssql", "spark", "\t", "=", "sqlsql")


def test_a_pattern_tried_where_its_literal_stands_finds_what_a_search_finds() -> None:
    """`sql(`, `.sql` handed on (`f(spark.sql)`, `.  sql`), but not `spark.sql(...)`, `x.sql.y`,
    `from m.sql import`, `mysql(`: every text of pieces gives `search`'s answer."""
    rng = random.Random(11)
    for _ in range(4000):
        text = "".join(rng.choice(SQL_PIECES) for _ in range(rng.randrange(0, 14)))
        assert found_at(MAY_NAME_SESSION_SQL, text, "sql", ".") == bool(MAY_NAME_SESSION_SQL.search(text)), text
    assert found_at(MAY_NAME_SESSION_SQL, "run(spark .\n  sql)", "sql", ".")
    assert found_at(MAY_NAME_SESSION_SQL, "q = sql ('x')", "sql", ".")
    assert not found_at(MAY_NAME_SESSION_SQL, "spark.sql('x'); mysql(1); a.sql.b", "sql", ".")
