"""What a Python file's job inputs mean to its reading: widget defaults and input-named tables.

A notebook reads its job parameters through widgets (`dbutils.widgets.get`), a
script through argparse or `sys.argv`; the value layer gives each such read a
placeholder (`{name}`) and records which job inputs it stands for. Two questions
about those inputs are the Python front end's own, and sit on either side of the
walk: before it, the value a widget falls back to when no job parameter binds it
(`widget_defaults`); after it, which intents' tables are named by inputs alone, so
the engine can tell whether concurrent runs of a for_each task write one table or
several (`name_inputs`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from delta_lint.frontend.pyvalues import ONE_OF
from delta_lint.frontend.sql import UNRESOLVED_TABLE
from delta_lint.frontend.values.walker import walk as _walk
from delta_lint.model import Diagnostic, Flag, Intent, Location

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_WIDGET_DEFAULT = re.compile(
    r"\bwidgets\.(?:text|dropdown|combobox|multiselect)\(\s*(?:name\s*=\s*)?([\"'])(\w+)\1\s*,"
    r"\s*(?:defaultValue\s*=\s*)?([\"'])([^\"'\n]*)\3"
)


def widget_defaults(source: str, defaults: dict[str, str]) -> None:
    """`dbutils.widgets.text("schema", "sales")`: the value a notebook reads when no
    job parameter binds the widget, added to `defaults` unless it holds the widget
    already (a value the notebook was saved with). An empty default binds nothing."""
    if "widgets" not in source:
        return
    for m in _WIDGET_DEFAULT.finditer(source):
        name, value = m.group(2), m.group(4)
        if value.strip() and "{" not in value:
            defaults.setdefault(name, value.strip())


def name_inputs(
    intents: list[Intent],
    diagnostics: list[Diagnostic],
    input_params: dict[str, frozenset[str]],
    parameters: set[str],
    tree: ast.Module,
    source: str,
) -> None:
    """A table name whose every placeholder is a job input (and no function's
    parameter of the same name) is the same table in every run given the same
    inputs: the intent keeps those inputs (`Intent.name_inputs`), which tell the
    engine whether concurrent runs of a for_each task write one table or several.
    `intents` and `diagnostics` (the file's) are rewritten in place, the unresolved
    table's diagnostic saying which inputs name it; `input_params`: placeholder ->
    the job inputs it stands for; `parameters`: the names of every function's
    parameters (a lambda's are read from `tree` when `source` has one)."""
    candidates = []
    for n, intent in enumerate(intents):
        names = _PLACEHOLDER.findall(intent.table.name) if intent.table is not None else []
        # a `{one_of}` part (a catalog `USE`d as one of several names the code
        # gives) is no value a run gives: the inputs beside it still name the table
        names = [p for p in names if p != ONE_OF]
        if names and all(p in input_params for p in names):
            candidates.append((n, names))
    if not candidates:
        return
    parameters = set(parameters)  # every function's, however many share a name
    if "lambda" in source:
        parameters |= {a.arg for node in _walk(tree) if isinstance(node, ast.Lambda) for a in node.args.args}
    renamed: dict[tuple[Location, str], list[str]] = {}
    for n, names in candidates:
        intent = intents[n]
        if any(p in parameters for p in names):
            continue
        inputs = sorted(set().union(*(input_params[p] for p in names)))
        intents[n] = replace(intent, name_inputs=tuple(inputs))
        if Flag.UNRESOLVED in intent.flags:
            renamed[(intent.location, intent.table.name)] = inputs
    for n, diag in enumerate(diagnostics):
        for (at, name), inputs in renamed.items() if diag.rule == UNRESOLVED_TABLE else ():
            if at == diag.location and f"`{name}`" in diag.message:
                shown = ", ".join(f"`{i}`" for i in inputs)
                message = (
                    f"table name `{name}` is built from job inputs ({shown}) known only at run time; it is "
                    "not checked against other files' writes, only against runs of this file that share "
                    "those inputs (the concurrent iterations of a for_each task)"
                )
                diagnostics[n] = replace(diag, message=message)
                break
