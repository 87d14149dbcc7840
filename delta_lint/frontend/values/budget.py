"""The analysis budget of one file: what reading its values may cost.

Reading a file's values follows its code: value functions evaluated on known
arguments (`values.evaluator`) and helpers read again at each call (`python`). Generated
or hostile code can make either unbounded: a loop of `pass` over a long
literal, a function called thousands of times, a string doubled until it takes
gigabytes. One `Budget` per file bounds all of it together: evaluation steps
(every statement and expression, whichever call they belong to), helper
re-readings, and a wall-clock deadline as a last guard, with the sizes any value
may grow to beside it. It is passed explicitly to every reader of the file's
values (no process-global state): the analyser holds it, each `Evaluator` it
makes draws from it.

When the steps or the time run out, every value still to be read in the file is
unknown (`exhausted`); a value that would grow past a size is unknown on its
own. Either way `spent` keeps where it happened, once per place, for the
analyser to say so at that line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

# Evaluation steps per file: a statement or an expression each. Real value
# functions take tens to a few hundred steps per call; this is some thousand calls
# of them, and about a second of evaluation.
MAX_STEPS = 200_000
# Helper functions read again at their calls, per file, all helpers together.
MAX_HELPER_READS = 1024
# Wall-clock seconds of evaluation per file: only a guard behind the steps (which
# bind first on any machine, so results do not depend on the machine's speed).
MAX_SECONDS = 10.0
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


class OutOfBudget(Exception):
    """The file's steps or time ran out: no value read from here on is known."""


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
    seconds: float = MAX_SECONDS
    helper_reads: int = MAX_HELPER_READS
    used: int = 0
    reads: int = 0
    exhausted: bool = False
    spent: list[Spent] = field(default_factory=list)
    _started: float | None = None

    def step(self) -> None:
        """One statement or expression evaluated; OutOfBudget once the steps or the
        time are used up (and from then on at every step)."""
        if self.exhausted:
            raise OutOfBudget
        self.used += 1
        if self._started is None:
            self._started = time.monotonic()
        if self.used > self.steps:
            self.exhausted = True
            raise OutOfBudget(f"more than {self.steps:,} evaluation steps")
        if self.used % CLOCK_EVERY == 0 and time.monotonic() - self._started > self.seconds:
            self.exhausted = True
            raise OutOfBudget(f"more than {self.seconds:g} seconds of evaluation")

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
