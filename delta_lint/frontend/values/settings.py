"""What a value of the lattice is as a setting of a job document.

Both readers of job definitions written in Python (`airflow_values` for Airflow
DAG files, `sdkjobs` for jobs made with the SDK, both on `values.scopes`) end with
the same step: a value becomes what a Jobs API document holds.
A string whose leading part only a run knows (`f"/Users/{who}/etl/load"`) is
built as a template whose unknown parts are the input `UNKNOWN_PART` (`joined`);
`setting` then keeps its known text after the last input when that is a path,
after `UNKNOWN_FOLDER` (`{unknown folder}/etl/load`), which the schedule matches
by its tail (`bundle._locate`); other templates, one of several values and unknown
values are unknown, and the document leaves their keys out.
"""

from __future__ import annotations

from delta_lint.frontend.values.budget import MAX_SETTING_TEXT
from delta_lint.frontend.values.lattice import OneOf, Template, Unknown, concat
from delta_lint.model import UNKNOWN_FOLDER

# the input a part of a string only a run knows is: a template that starts with it
# reads as UNKNOWN_FOLDER
UNKNOWN_PART = UNKNOWN_FOLDER[1:-1]
PART = Template(UNKNOWN_FOLDER, (UNKNOWN_PART,))
TOO_LONG = Unknown(f"a string of more than {MAX_SETTING_TEXT:,} characters (a job setting)")
_SCALARS = (str, int, float, bool, type(None))


def setting(value: object) -> object:
    """A value as a job document holds it: lists for tuples and sets, a template
    whose known text after its last input is a path as that path after
    UNKNOWN_FOLDER (see the module docstring), other templates, one of several
    values and the objects only the evaluator knows as unknown."""
    if isinstance(value, _SCALARS) or type(value) is Unknown:
        return value
    if type(value) is Template:
        return path_tail(value)
    if isinstance(value, (list, tuple)):
        return [setting(v) for v in value]
    if isinstance(value, dict):
        return {k: setting(v) for k, v in value.items()}
    if type(value) is OneOf:
        return Unknown("one of several values")
    return Unknown("not a value of a job setting")


def path_tail(template: Template) -> object:
    """A template's known text after its last input, after UNKNOWN_FOLDER, when it
    is a path (`/etl/load`, `etl/load`); else unknown."""
    end = max((at + len(p) + 2 for p in template.params if (at := template.text.rfind("{" + p + "}")) >= 0), default=0)
    tail = template.text[end:]
    if (tail.startswith("/") and tail.strip("/")) or "/" in tail.strip("/"):
        return UNKNOWN_FOLDER + tail
    return Unknown("a string whose leading part only a run knows")


def joined(parts: list[object], formatted: bool = True) -> object:
    """Strings put together (plain scalars as an f-string shows them when
    `formatted`); a part not known is the input UNKNOWN_PART."""
    pieces: list[str | Template] = []
    size = 0
    for part in parts:
        if isinstance(part, str) or (formatted and isinstance(part, _SCALARS)):
            piece: str | Template = str(part)
        else:
            piece = part if type(part) is Template else PART
        size += len(piece.text) if isinstance(piece, Template) else len(piece)
        if size > MAX_SETTING_TEXT:
            return TOO_LONG
        pieces.append(piece)
    if not any(isinstance(p, Template) for p in pieces):
        return "".join(pieces)  # type: ignore[arg-type]
    out = Template("", ())
    for piece in pieces:
        out = concat(out, piece)
    return out
