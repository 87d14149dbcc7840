"""The conflict engine: every predicted write conflict of one run's intents.

`judgement` is the spec (docs/conflict-semantics.md) as code: every rule's unit,
most of them the verdict on one pair of intents. `pairing` finds the pairs worth
judging, calls the units and keeps the run's memos (`classes` is its view of a
table); `messages` turns verdicts into findings.
"""

from delta_lint.engine.messages import diagnostics_as_findings
from delta_lint.engine.pairing import Engine

__all__ = ["Engine", "diagnostics_as_findings"]
