"""Differential property of the statement walk (`values.walker`): for small random
module-level programs whose control flow turns on values only a run knows
(`if cond():`, `for x in items():`, `while cond():`, a `try` whose `boom()` may
raise, `break`, `continue`, a walrus in a test), every table CPython writes at a
line is among the tables the analyzer says that line writes, or the analyzer says
that line's table is not known. It never drops a write Python makes, and never
says "certain" of one table where Python writes another.

Python's answer comes from `exec` of the generated source, only here in the test,
for our own generated, deterministic code, under many outcomes of the unknown
calls (a script of booleans for `cond()`, of lists for `items()`, of raises for
`boom()`): the union of what each run writes at each line.
"""

from __future__ import annotations

import random
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delta_lint.frontend import analyze_source
from delta_lint.model import Flag

TABLES = tuple(f"main.s.{c}" for c in "abcde")
RUNS = 40  # outcomes of the unknown calls tried per program


class _Program:
    """Source lines built from a draw, with loops nested at most two deep."""

    def __init__(self, draw) -> None:
        self.draw = draw
        self.lines: list[str] = []

    def block(self, indent: int, depth: int, in_loop: bool) -> None:
        count = self.draw(st.integers(1, 3))
        for _ in range(count):
            self.stmt(indent, depth, in_loop)

    def stmt(self, indent: int, depth: int, in_loop: bool) -> None:
        pad = "    " * indent
        kinds = ["assign", "assign", "write", "write"]
        if depth < 2:
            kinds += ["if", "for", "while", "try"]
        if in_loop:
            kinds += ["break", "continue"]
        kinds += ["walrus"]
        kind = self.draw(st.sampled_from(kinds))
        if kind == "assign":
            self.lines.append(f'{pad}t = "{self.draw(st.sampled_from(TABLES))}"')
        elif kind == "write":
            self.lines.append(f'{pad}spark.sql(f"DELETE FROM {{t}} WHERE 1=1")')
        elif kind == "walrus":
            table = self.draw(st.sampled_from(TABLES))
            self.lines.append(f'{pad}if cond() and (t := "{table}"):')
            self.lines.append(f"{pad}    pass")
        elif kind in ("break", "continue"):
            self.lines.append(f"{pad}if cond():")
            self.lines.append(f"{pad}    {kind}")
        elif kind == "if":
            self.lines.append(f"{pad}if cond():")
            self.block(indent + 1, depth + 1, in_loop)
            if self.draw(st.booleans()):
                self.lines.append(f"{pad}else:")
                self.block(indent + 1, depth + 1, in_loop)
        elif kind == "for":
            self.lines.append(f"{pad}for x in items():")
            self.block(indent + 1, depth + 1, True)
            if self.draw(st.booleans()):
                self.lines.append(f"{pad}else:")
                self.block(indent + 1, depth + 1, in_loop)
        elif kind == "while":
            self.lines.append(f"{pad}while cond():")
            self.block(indent + 1, depth + 1, True)
        else:
            self.lines.append(f"{pad}try:")
            self.block(indent + 1, depth + 1, in_loop)
            self.lines.append(f"{pad}    boom()")
            self.block(indent + 1, depth + 1, in_loop)
            self.lines.append(f"{pad}except ValueError:")
            self.block(indent + 1, depth + 1, in_loop)


@st.composite
def programs(draw) -> str:
    program = _Program(draw)
    program.lines.append(f't = "{draw(st.sampled_from(TABLES))}"')
    program.block(0, 0, False)
    program.lines.append('spark.sql(f"DELETE FROM {t} WHERE 1=1")')
    return "\n".join(program.lines) + "\n"


def _python_writes(code: str) -> dict[int, set[str]]:
    """Line -> the tables some run of `code` writes there."""
    compiled = compile(code, "job.py", "exec")
    found: dict[int, set[str]] = {}
    for seed in range(RUNS):
        rng = random.Random(seed)
        calls = {"cond": 0}

        def cond(rng=rng, calls=calls) -> bool:
            calls["cond"] += 1  # every loop ends: after a few calls, always False
            return calls["cond"] < 12 and rng.random() < 0.5

        def items(rng=rng) -> list[int]:
            return list(range(rng.choice((0, 1, 2, 3))))

        def boom(rng=rng) -> None:
            if rng.random() < 0.4:
                raise ValueError

        class Spark:
            @staticmethod
            def sql(text: str) -> None:
                line = sys._getframe(1).f_lineno
                found.setdefault(line, set()).add(text.split()[2])

        try:
            exec(compiled, {"cond": cond, "items": items, "boom": boom, "spark": Spark()})  # noqa: S102 - our own generated code
        except (ValueError, NameError):
            pass
    return found


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_every_write_python_makes_is_among_the_analyzers(code: str) -> None:
    python = _python_writes(code)
    result = analyze_source("job.py", ".py", code)
    said: dict[int, set[str]] = {}
    unknown: set[int] = set()
    certain: dict[int, set[str]] = {}
    for intent in result.intents:
        line = intent.location.line
        if intent.table is None or Flag.UNRESOLVED in intent.flags or "{" in intent.table.name:
            unknown.add(line)
            continue
        said.setdefault(line, set()).add(intent.table.name)
        if Flag.ONE_OF not in intent.flags:
            certain.setdefault(line, set()).add(intent.table.name)
    for line, tables in python.items():
        if line in unknown:
            continue
        assert line in said, f"line {line}: Python writes {tables}, the analyzer nothing\n{code}"
        assert tables <= said[line], f"line {line}: Python writes {tables}, the analyzer {said[line]}\n{code}"
        # one table said certain at a line: every run that writes there writes it
        if len(certain.get(line, ())) == 1 and line not in unknown and said[line] == certain[line]:
            assert tables == certain[line], f"line {line}: Python {tables}, certain {certain[line]}\n{code}"


def test_the_generator_draws_every_form() -> None:
    """The property sees loops, `try`, `break`, `continue` and walruses at all."""
    seen: set[str] = set()

    @settings(max_examples=120, deadline=None, derandomize=True, database=None)
    @given(programs())
    def collect(code: str) -> None:
        for word in ("for x", "while", "try:", "break", "continue", ":=", "else:"):
            if word in code:
                seen.add(word)

    collect()
    assert seen == {"for x", "while", "try:", "break", "continue", ":=", "else:"}
