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

import ast
import posixpath
from typing import TYPE_CHECKING

from delta_lint.frontend.values.brains import ENV_GETTERS
from delta_lint.frontend.values.budget import MAX_SETTING_TEXT
from delta_lint.frontend.values.lattice import OneOf, Template, Unknown, concat
from delta_lint.frontend.values.scopes import PASS
from delta_lint.model import UNKNOWN_FOLDER

if TYPE_CHECKING:
    from delta_lint.frontend.values.scopes import Scopes

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


FILE = Unknown("the folder the code runs from")
ENVIRONMENT = Unknown("an environment variable of the machine that reads the definition")


def text(reader: Scopes, node: ast.expr, env: dict[str, object], depth: int) -> object:
    """The strings both readers build alike, as their `Scopes` hook reads them (PASS
    for any other node): an f-string of plain fields or a `+` of a part not known and
    a string as a template (each such part the input UNKNOWN_PART), `os.path.join` of
    an unknown folder and known names as one; the environment (`os.getenv("X", "me")`,
    `os.environ[...]`) and `__file__`, the machine's that reads the definition:
    unknown, a default no more their value than any other."""
    if isinstance(node, ast.Name):
        return FILE if node.id == "__file__" and node.id not in env else PASS
    if isinstance(node, ast.Subscript):
        return ENVIRONMENT if _dotted(node.value) == "os.environ" else PASS
    if isinstance(node, ast.JoinedStr):
        if any(
            isinstance(p, ast.FormattedValue) and (p.format_spec is not None or p.conversion not in (-1, 115))
            for p in node.values
        ):
            return PASS
        parts = [str(p.value) if isinstance(p, ast.Constant) else reader.read(p.value, env, depth) for p in node.values]  # type: ignore[attr-defined]
        return reader.lift(lambda *each: sized(reader, node, joined(list(each), formatted=True)), *parts)
    if isinstance(node, ast.BinOp):
        if not isinstance(node.op, ast.Add):
            return PASS
        left, right = reader.read(node.left, env, depth), reader.read(node.right, env, depth)
        return reader.lift(lambda a, b: _added(reader, node, a, b), left, right)
    if not isinstance(node, ast.Call):
        return PASS
    if _dotted(node.func) in ENV_GETTERS or _dotted(node.func) == "getenv":
        return ENVIRONMENT
    if _is_path_join(node):
        args = [reader.read(a, env, depth) for a in node.args]
        return reader.lift(lambda *each: _path(reader, node, each), *args) if args else PASS
    return PASS


def sized(reader: Scopes, node: ast.expr, value: object) -> object:
    """A built string, or unknown past MAX_SETTING_TEXT (said at the node's line)."""
    if value is TOO_LONG:
        reader.budget.note(reader.path, getattr(node, "lineno", 0), TOO_LONG.reason)
        return Unknown(TOO_LONG.reason)
    return value


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else "?"


def _added(reader: Scopes, node: ast.BinOp, left: object, right: object) -> object:
    """`a + b`: a part not known and a string, or a template and a string, make a
    template; anything else is the evaluator's sum."""
    texts = (str, Template)
    if (isinstance(left, Unknown) and isinstance(right, texts)) or (
        isinstance(right, Unknown) and isinstance(left, texts)
    ):
        return sized(reader, node, joined([left, right], formatted=False))
    if isinstance(left, Template) or isinstance(right, Template):
        if isinstance(left, texts) and isinstance(right, texts):
            return sized(reader, node, joined([left, right], formatted=False))
    return reader.operate(node.op, left, right)


def _is_path_join(node: ast.Call) -> bool:
    """`os.path.join(...)`, also as `path.join` (`from os import path`)."""
    return (
        isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "path"
        and not node.keywords
        and not any(isinstance(a, ast.Starred) for a in node.args)
    )


def _path(reader: Scopes, node: ast.Call, parts: tuple[object, ...]) -> object:
    """Paths joined: Python's join of known paths; an unknown folder and known names
    below it joined by one `/` each (a template)."""
    if all(isinstance(a, str) for a in parts):
        return posixpath.join(*parts)  # type: ignore[arg-type]
    if not all(isinstance(a, (str, Template, Unknown)) for a in parts):
        return Unknown("a path of parts not known")
    pieces = [a if i == 0 or not isinstance(a, str) else "/" + a.lstrip("/") for i, a in enumerate(parts)]
    return sized(reader, node, joined(pieces))
