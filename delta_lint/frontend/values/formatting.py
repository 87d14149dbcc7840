"""Python's own field formatting, bounded: what `f"{n:03d}"`, `"{!r}".format(s)` and
`"%05d" % n` show for a value the reader knows.

Table names are built this way (`f"part_{n:02d}"`, `"t_%03d" % i`), so a reader that
drops the spec names another table (`part_7` for `part_07`). Python does the
formatting itself, on plain values only (str, int, float, bool, None), after the spec
is checked to build no large string; a value the spec refuses (`f"{'a':d}"`) has no
text, as the program raises there.
"""

from __future__ import annotations

import hashlib
import re

from delta_lint.frontend.values.brains import plain_scalar
from delta_lint.frontend.values.budget import MAX_TEXT
from delta_lint.predicates import param_name

_CONVERSIONS = {ord("r"): repr, ord("s"): str, ord("a"): ascii}
# a width or precision of four digits or more builds a string past what a name needs
_LARGE = re.compile(r"\d{4,}")
# one printf-style directive: `%(key)s`, `%-5d`, `%.2f`, `%%`
PERCENT_DIRECTIVE = re.compile(r"%(?:\((\w+)\))?([-#0 +]*\d*(?:\.\d+)?)([sdifrxXoeEgGca%])")


def small_spec(spec: str) -> bool:
    """A format spec (or printf flags) without a width or precision large enough to
    build a huge string."""
    return not _LARGE.search(spec)


def format_field(value: object, spec: str, conversion: int) -> str | None:
    """`f"{value!conversion:spec}"` as Python shows it; None when the value refuses
    the spec or conversion (the program raises there), the spec asks for a large
    string, or the value is not plain."""
    if not plain_scalar(value) or not small_spec(spec):
        return None
    convert = _CONVERSIONS.get(conversion)
    try:
        shown = format(convert(value) if convert else value, spec)
    except (ValueError, TypeError):
        return None
    return shown if len(shown) <= MAX_TEXT else None


def percent_field(value: object, flags: str, kind: str) -> str | None:
    """One printf-style directive (`%` + `flags` + `kind`) applied to `value` as
    Python applies it; None as for `format_field`."""
    if not plain_scalar(value) or not small_spec(flags):
        return None
    try:
        shown = f"%{flags}{kind}" % (value,)
    except (ValueError, TypeError, OverflowError):
        return None
    return shown if len(shown) <= MAX_TEXT else None


def plain_directive(flags: str, kind: str) -> bool:
    """A directive that shows a string as it is (`%s`): the value's text is enough."""
    return kind == "s" and not flags


# an expression whose name would lose an operator (`t[1:]`, `t[:1]` and `t * 2` all read `t_1`)
_LOSSY = re.compile(r"[:*+\-/%]")
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")


def placeholder_name(shown: str) -> str:
    """The name of the placeholder a string shows for a value only a run knows,
    after the code that gives it (`{str_val_replace}` for `str(val).replace(...)`):
    the same for the file's own reading and the evaluator's, so that a statement
    built by a helper reads alike wherever the helper is. An expression whose
    operators the name would drop gets a short digest of its text, so two
    expressions never pair as one value of a run."""
    name = param_name(shown)
    if _LOSSY.search(_QUOTED.sub("", shown)):
        name += "_" + hashlib.blake2b(shown.replace(" ", "").encode(), digest_size=3).hexdigest()
    return name
