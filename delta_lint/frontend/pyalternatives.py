"""A write read once per value its names may hold: the analyzer's alternatives.

The value layer says when a name holds one of a few values (`OneOf`: a table
chosen by an `if`, a dict entry set two ways, a value function that returns one
of several names). A write that reads such a name is read once per combination
of those values, with the SQL session as it stands before the write each time:
a table that is one of several names becomes one intent per name, each flagged
`one_of`, and what every combination agrees on stays one intent, unflagged. Past
`MAX_ALTERNATIVES` combinations the names stay unknown, as any unknown value.
`AlternativeReader` is a part the analyzer (`python.PythonAnalyzer`, its `Host`)
owns; the analyzer hands it each call chain it reads as a terminal, and it hands
each combination back to the analyzer's `_terminal`.
"""

from __future__ import annotations

import ast
import itertools
import weakref
from dataclasses import replace
from typing import Protocol

from delta_lint.frontend.pyguards import GuardReader
from delta_lint.frontend.pyvalues import (
    MAX_ALTERNATIVES,
    Chain,
    Scope,
    Step,
    held_alternatives,
    joined_session,
    member_alternatives,
)
from delta_lint.frontend.sql import Session
from delta_lint.frontend.sqlcall import unparsed_texts
from delta_lint.frontend.values.evaluator import Module
from delta_lint.frontend.values.resolver import ValueResolver
from delta_lint.frontend.values.walker import walk as _walk
from delta_lint.model import Diagnostic, Flag, Intent

# names of a scope looked through before each write read (see `AlternativeReader.read`)
_SCANNED_SCOPE = 64


class Host(Protocol):
    """What an `AlternativeReader` reads from and hands back to the analyzer that owns it."""

    session: Session
    intents: list[Intent]
    diagnostics: list[Diagnostic]
    values: ValueResolver
    guards: GuardReader
    value_functions: dict[str, tuple[Module, str]]
    _top_functions: set[str]

    def flatten(self, node: ast.expr, scope: Scope) -> list[Step]: ...
    def _terminal(self, steps: list[Step], node: ast.Call, scope: Scope) -> None: ...


class AlternativeReader:
    """Reads one call chain once per combination of the values its names may hold."""

    def __init__(self, host: Host) -> None:
        # weak: the host owns this reader (see `pydelta.DeltaTableReader`)
        self.host: Host = weakref.proxy(host)

    def read(self, node: ast.Call, scope: Scope) -> None:
        """Read a write once per value its names may hold (`OneOf`): a table that is one
        of several names is one intent per name, each flagged `one_of`; what every
        alternative agrees on is one intent, unflagged. Past `MAX_ALTERNATIVES`
        combinations the names stay unknown, as any unknown value."""
        host = self.host
        env = scope.env
        # a look at every value of a small scope says quickly that no name holds one of
        # several; a large one (a notebook of thousands of names) is not looked through
        # at each write: the write's own names decide, as they do once either look passes
        small = len(env) <= _SCANNED_SCOPE
        names = (
            sorted(n for n in _names_read(node, env) if held_alternatives(env.get(n)))
            if not small or any(held_alternatives(v) for v in env.values())
            else []
        )
        # `conf["schema"]` of a dict whose key holds one of several texts: read per text too
        keyed = (
            member_alternatives(_walk(node), env)
            if names or not small or any(type(v) is dict for v in env.values())
            else []
        )
        calls = self._calls_with_alternatives(node, scope)
        choices = [held_alternatives(scope.env[n]) for n in names] + [texts for *_, texts in keyed]
        choices += [held_alternatives(held) for _, held in calls]
        combos = list(itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES + 1))
        if not (names or keyed or calls) or len(combos) > MAX_ALTERNATIVES:
            host._terminal(host.flatten(node, scope), node, scope)
            return
        saved = {n: scope.env[n] for n in [*names, *(name for name, *_ in keyed)]}
        session = dict(host.session.__dict__)
        runs: list[tuple[list[Intent], list[Diagnostic]]] = []
        states: list[dict] = []
        absent = host.guards.absent  # each reading of the one statement stands where it does
        try:
            for combo in combos:
                scope.env.update(saved)
                scope.env.update(zip(names, combo))
                for (name, key, _), text in zip(keyed, combo[len(names) :]):
                    scope.env[name] = {**scope.env[name], key: text}  # type: ignore[dict-item]
                given = combo[len(names) + len(keyed) :]
                host.values._fixed.update((id(call), value) for (call, _), value in zip(calls, given))
                host.session.__dict__.update(session)
                first_intent, first_diag = len(host.intents), len(host.diagnostics)
                with host.guards.inside(absent):
                    host._terminal(host.flatten(node, scope), node, scope)
                runs.append((host.intents[first_intent:], host.diagnostics[first_diag:]))
                del host.intents[first_intent:], host.diagnostics[first_diag:]
                states.append(dict(host.session.__dict__))
        finally:
            for call, _ in calls:
                host.values._fixed.pop(id(call), None)
            scope.env.update(saved)
        # a USE/SET whose value depends on the branch: what the readings agree on
        host.session.__dict__.update(joined_session(session, states))
        # one intent per shape; a table declared two ways (a PARTITIONED BY there or
        # not) has unknown settings, never the first alternative's
        groups: dict[tuple, list[Intent]] = {}
        for intent in (i for intents, _ in runs for i in intents):
            groups.setdefault(_shape_but_declared(intent), []).append(intent)
        for same in groups.values():
            intent = same[0]
            if any(i.declared != intent.declared for i in same):
                params = tuple(sorted({p for i in same for p in i.params}))
                intent = replace(intent, declared=None, params=params)
            everywhere = all(
                any(_shape_but_declared(i) == _shape_but_declared(intent) for i in made) for made, _ in runs
            )
            host.intents.append(intent if everywhere else replace(intent, flags=intent.flags | {Flag.ONE_OF}))
        host.diagnostics.extend(dict.fromkeys(unparsed_texts(runs)))

    def _calls_with_alternatives(self, node: ast.Call, scope: Scope) -> list[tuple[ast.Call, object]]:
        """Calls of value functions among a write's arguments (`saveAsTable(table())`,
        `f"... {table()} ..."`) whose result is one of several values: the write is
        read once per value, as for a name (see `read`)."""
        host = self.host
        if not (host.value_functions or host._top_functions):
            return []
        found: list[tuple[ast.Call, object]] = []
        todo: list[ast.expr] = [*node.args, *(k.value for k in node.keywords)]
        while todo:
            arg = todo.pop()
            kind = type(arg)
            if kind is ast.Call and type(arg.func) is ast.Name:  # type: ignore[attr-defined]
                name = arg.func.id  # type: ignore[attr-defined]
                if name in host.value_functions or name in host._top_functions:
                    held = host.values._evaluated(arg, scope)  # type: ignore[arg-type]
                    if held_alternatives(held):
                        found.append((arg, held))  # type: ignore[arg-type]
            elif kind is ast.JoinedStr:
                todo.extend(v.value for v in arg.values if type(v) is ast.FormattedValue)  # type: ignore[attr-defined]
            elif kind is ast.BinOp:
                todo += [arg.left, arg.right]  # type: ignore[attr-defined]
        return found


def _names_read(node: ast.Call, env: dict[str, object]) -> set[str]:
    """The names a write reads: its own, and those of the calls a chain it continues
    was built with (`dt = DeltaTable.forName(spark, TABLE)` then `dt.alias("t").merge(...)`
    reads `TABLE`, resolved where the write stands, as the chain's steps are)."""
    found = {n.id for n in _walk(node) if type(n) is ast.Name}
    for name in list(found):
        held = env.get(name)
        if type(held) is Chain:
            for step in held.steps:
                if step.call is not None:
                    found.update(n.id for n in _walk(step.call) if type(n) is ast.Name)
    return found


def _shape_but_declared(intent: Intent) -> tuple:
    """What makes two readings' intents one: all but the settings a table is declared with.

    The region too: rows of one of several values (`VALUES ({x})`, a DataFrame of
    constants built two ways) land in different partitions under one predicate text."""
    return (
        intent.location,
        intent.table,
        intent.kind,
        intent.flags,
        intent.predicate_sql,
        intent.subkind,
        intent.region,
    )
