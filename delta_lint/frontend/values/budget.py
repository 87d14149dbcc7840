"""The analysis budget of one file: what reading its values may cost.

Reading a file's values follows its code: value functions evaluated on known
arguments (`values.evaluator`) and helpers read again at each call (`python`). Generated
or hostile code can make either unbounded: a loop of `pass` over a long
literal, a function called thousands of times, a string doubled until it takes
gigabytes. One `Budget` per file bounds all of it together, in units the layer
counts itself, so that a file gives the same findings on a fast machine and on a
busy one: evaluation steps (every statement and expression, whichever call they
belong to, and a step per `ITEMS_PER_STEP` items of a container looked through),
helper re-readings, and the sizes any value may grow to beside them. Behind the
steps, a backstop of CPU time (`clock`, this thread's) guards against a hang the
steps do not see (a bug, one step that never ends): it is set far above what the
steps allow (`MAX_STEPS` take at most a few seconds, `BACKSTOP_SECONDS` is a minute), so
it binds on no reading the steps bound, and when it does bind its diagnostic says
that this stop depends on the machine. The budget is passed explicitly to every
reader of the file's values (no process-global state): the analyser holds it, each
`Evaluator` it makes draws from it.

When the steps or the backstop run out, every value still to be read in the file is
unknown (`exhausted`); a value that would grow past a size is unknown on its
own. Either way `spent` keeps where it happened, once per place, for the
analyser to say so at that line.
"""

from __future__ import annotations

import ast
import time
from dataclasses import dataclass, field

# Evaluation steps per file: a statement or an expression each. Real value
# functions take tens to a few hundred steps per call; this is some thousand calls
# of them, and under a second of evaluation (see BACKSTOP_SECONDS).
MAX_STEPS = 200_000
# Helper functions read again at their calls, per file, all helpers together.
MAX_HELPER_READS = 1024
# Items of a list, tuple or dict looked through (a value's parts checked for what is
# not known, a library call's argument) that cost one step: comparing a list of
# 10,000 items took 2.5 ms, what 1,000 to 5,000 statements take, and costs 5,000.
ITEMS_PER_STEP = 2
# Nodes of a loop's body that cost a step at each turn the analyser reads (see `turn`).
NODES_PER_STEP = 4
# CPU seconds of this thread per file, counted from its first step: only a backstop
# against a hang behind the steps. MAX_STEPS take 0.1 to 0.4 seconds of CPU in value
# functions (a loop of `pass`, string and list operations, comparisons of a name that
# holds 10,000 items) and about 2 seconds in nested loops that write a table at each
# turn, so a minute binds on no reading the steps bound, and a busy machine (which
# stretches wall time, not this thread's CPU time) changes nothing.
BACKSTOP_SECONDS = 60.0
CLOCK_EVERY = 256  # steps between two looks at the clock

# The largest a value may grow to; past it, it is unknown (never built).
MAX_TEXT = 4_096  # characters of a string
MAX_ITEMS = 10_000  # items of a list, tuple or dict
# Characters of a job setting's string (`sdkjobs`): job settings hold paths, names
# and parameters; a literal doubled through names grows exponentially.
MAX_SETTING_TEXT = 64 * 1024
# Characters of a string the analyzer builds (a SQL statement of a megabyte is
# already far past real job code): past it the string is unknown.
MAX_STATEMENT_TEXT = 1_000_000
# Bits of an integer: about 3,900 decimal digits, under Python's own int-to-str
# limit (4,300 digits). No table name or condition holds a number that long.
MAX_INT_BITS = 13_000


def clock() -> float:
    """The backstop's clock: the CPU seconds this thread has used. CPU time and not
    wall time, so that other processes on the machine do not make a file's reading
    stop earlier; this thread's, so that a language server reading files on several
    threads charges each file its own. A test makes the machine look slower by
    replacing this function (`monkeypatch.setattr(budget, "clock", ...)`)."""
    return time.thread_time()


class OutOfBudget(Exception):
    """The file's steps or the backstop ran out: no value read from here on is known."""


@dataclass(frozen=True)
class Spent:
    """Where a value was given up: the module (path relative to the configuration
    root), its line, why, and whether the budget is used up for the rest of the file."""

    module: str
    line: int
    why: str
    lasting: bool = False


@dataclass
class Budget:
    """What reading one file's values may still cost (see the module docstring)."""

    steps: int = MAX_STEPS
    seconds: float = BACKSTOP_SECONDS
    helper_reads: int = MAX_HELPER_READS
    used: int = 0
    reads: int = 0
    exhausted: bool = False
    spent: list[Spent] = field(default_factory=list)
    _started: float | None = None
    _turn_costs: dict[int, int] = field(default_factory=dict)  # loop statement id -> nodes of its body
    _said: int = 0  # how many of `spent` the analyser has said

    def step(self, cost: int = 1) -> None:
        """One statement or expression evaluated (`cost` steps for work that counts
        as several); OutOfBudget once the steps or the backstop are used up (and
        from then on at every step)."""
        if self.exhausted:
            raise OutOfBudget
        before = self.used
        self.used += cost
        if self._started is None:
            self._started = clock()
        if self.used > self.steps:
            self.exhausted = True
            raise OutOfBudget(f"more than {self.steps:,} evaluation steps")
        if self.used // CLOCK_EVERY != before // CLOCK_EVERY and clock() - self._started > self.seconds:
            self.exhausted = True
            raise OutOfBudget(
                f"more than {self.seconds:g} seconds of CPU time reading values (a guard against a hang, "
                "which the steps did not bound: where it stops depends on the machine)"
            )

    def look_through(self, value: object) -> None:
        """Charge looking through a container's items (a step per `ITEMS_PER_STEP`):
        a walk over a value's parts costs what its items do, not nothing. It only
        counts (the next `step` stops when they are used up), so that a walk made
        after a reading's last step cannot raise where nothing catches it."""
        if isinstance(value, (list, tuple, dict)) and len(value) >= ITEMS_PER_STEP:
            self.used += len(value) // ITEMS_PER_STEP

    def turn(self, loop: ast.For | ast.AsyncFor) -> None:
        """One turn of a loop the analyser reads element by element: a step, and one
        per `NODES_PER_STEP` nodes of its body, as reading a turn walks them: a turn
        that writes a table (25 nodes, 7 steps) takes some 75 microseconds, so the
        steps end a file of nested loops that write after about 2 seconds of CPU."""
        cost = self._turn_costs.get(id(loop))
        if cost is None:
            nodes = sum(1 for stmt in loop.body for _ in ast.walk(stmt))
            cost = self._turn_costs[id(loop)] = 1 + nodes // NODES_PER_STEP
        self.step(cost)

    def read_helper(self) -> bool:
        """Whether one more helper may be read again at a call (and count it)."""
        if self.reads >= self.helper_reads:
            return False
        self.reads += 1
        return True

    def give_back_read(self) -> None:
        """A helper read counted but not done (it is read where it is written)."""
        self.reads -= 1

    def note(self, module: str, line: int, why: str, lasting: bool = False) -> None:
        """A value given up at this place (once per place and reason)."""
        spent = Spent(module, line, why, lasting)
        if spent not in self.spent:
            self.spent.append(spent)

    def unsaid(self) -> list[Spent]:
        """The places noted since the last call, to be said now: whichever reader
        noted one, the analyser says each once, the first stop included."""
        fresh = self.spent[self._said :]
        self._said = len(self.spent)
        return fresh


class TooBig(Exception):
    """An operation would build a value past these sizes (a string of billions of
    characters, a number of millions of digits): it is not done, and the value is
    unknown."""


def check_text(length: int) -> None:
    """Refuse to build a string of this length past MAX_TEXT (before building it)."""
    if not fits_text(length):
        raise TooBig(f"a string of {length:,} characters (more than {MAX_TEXT:,})")


def check_items(count: int) -> None:
    """Refuse to build a list or tuple of this many items past MAX_ITEMS (before building it)."""
    if not fits_items(count):
        raise TooBig(f"a list of {count:,} items (more than {MAX_ITEMS:,})")


def fits_text(length: int) -> bool:
    return length <= MAX_TEXT


def fits_items(count: int) -> bool:
    return count <= MAX_ITEMS


def fits_int_bits(bits: int) -> bool:
    return bits <= MAX_INT_BITS
