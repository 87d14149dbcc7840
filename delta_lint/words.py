"""The whole words of a text, found by one sweep in C.

Several readers of a file ask its text which words it holds: the Python
prefilter the lines naming a call of interest, the link stage the names its code
may call a helper by. A regular expression of words answers that, but Python's
`re` tries it at every position of the file, at 50-150 ns a character, once per
question. For ASCII text (nearly every file) one `bytes.translate` turns every
character a word cannot hold into a blank, and `split` then gives the maximal
runs of word characters: what `\\b(?:w1|w2)\\b` and `\\w+` see, at a few ns a
character. Non-ASCII text gets None: its readers keep their patterns, whose `\\w`
knows every script.
"""

from __future__ import annotations

import re

_DIGITS = "0123456789"
# (spelled out: importing `string` compiles its `Template` pattern, a cost at every start)
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_NEWLINE = ord("\n")
# every byte `\w` does not match becomes a blank, but a newline (the lines' count)
_BLANKED = bytes(b if b in _WORD_BYTES or b == _NEWLINE else 0x20 for b in range(256))


def swept(text: str) -> bytes | None:
    """`text` with every character `\\w` does not match blanked (newlines kept), as
    ASCII bytes; None when `text` is not ASCII."""
    if not text.isascii():
        return None
    return text.encode("ascii").translate(_BLANKED)


def word_lines(text: str, words: frozenset[bytes]) -> list[int] | None:
    """The lines (1-based, ascending, each once) of `text` holding one of `words`
    (ASCII word characters each, as bytes) as a whole word, where a pattern
    `\\b(?:word|...)\\b` finds one; None when `text` is not ASCII."""
    blanked = swept(text)
    if blanked is None:
        return None
    if words.isdisjoint(blanked.split()):  # most files: no line to look for
        return []
    return [line for line, held in enumerate(blanked.split(b"\n"), 1) if not words.isdisjoint(held.split())]


def identifiers(text: str) -> set[str] | None:
    """Every identifier-shaped run of `text` (a letter or `_`, then word
    characters), as `re.findall(r"[^\\W\\d]\\w*", text)` finds them: a run of word
    characters that starts with digits gives what follows them. None when `text` is
    not ASCII."""
    blanked = swept(text)
    if blanked is None:
        return None
    runs = set(blanked.decode("ascii").split())
    out = {run for run in runs if not run[0].isdigit()}
    for run in runs:
        if run[0].isdigit():
            rest = run.lstrip(_DIGITS)
            if rest:
                out.add(rest)
    return out


def found_at(pattern: re.Pattern[str], text: str, literal: str, lead: str = "") -> bool:
    """`pattern.search(text)` for a pattern every match of which starts at
    `literal`, or at one of the characters of `lead` that only blanks (`\\s`)
    part from `literal` (`\\.\\s*sql`): tried only there. A pattern that opens
    with a lookbehind or an alternation makes `re` try each position of the text
    (70-140 us a job file); `str.find` finds where the literal stands in C. A
    lookbehind still sees the text before where a match is tried."""
    at = text.find(literal)
    while at >= 0:
        if pattern.match(text, at):
            return True
        if lead:
            before = at - 1
            while before >= 0 and text[before].isspace():
                before -= 1
            if before >= 0 and text[before] in lead and pattern.match(text, before):
                return True
        at = text.find(literal, at + 1)
    return False
