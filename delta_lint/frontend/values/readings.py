"""Helper readings that gave nothing, remembered so a repeat costs nothing.

The walker reads a helper again for each call (its parameters bound to the call's
values), up to a number of calls per helper (`resolver.MAX_HELPER_CALLS`). A loop
that calls a small helper many times with the same values (`_fq(catalog, schema,
t)` once per metric, `_sql_str(run_id)` in every statement) used that cap up on
readings that found nothing, and later, unrelated calls were then not read.
`Readings` remembers each reading that wrote nothing and said nothing, by the
helper and every value it can read (its parameters and the names it and the
helpers it calls read): the same call again is that same reading, so it is not
done and not counted. A reading that writes or says something is done at every
call (each call is its own site).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable, Mapping

# helpers a reading may go through (nested calls) whose names are taken into the key
_MAX_CALLEES = 32


class Readings:
    """The silent readings of one file's helpers (see the module docstring)."""

    def __init__(self) -> None:
        self._silent: set[Hashable] = set()
        self._read: dict[int, tuple[ast.AST, frozenset[str] | None]] = {}  # id(fn) -> (fn, the names it reads)

    def key(
        self,
        fn: ast.FunctionDef | ast.AsyncFunctionDef,
        env: Mapping[str, object],
        context: Hashable,
        callee: Callable[[ast.Call], ast.AST | None],
    ) -> Hashable | None:
        """What tells one reading of `fn` from another: the helper, `context` (the
        calls being read, the flags) and the values `env` gives every name the
        helper and its helpers read; None when a reading is not to be remembered (a
        helper that binds a `global` or `nonlocal`, a value that cannot be compared:
        a list or dict the code may change in place)."""
        names = self._names(fn, callee)
        if names is None:
            return None
        key = (id(fn), context, tuple((n, env[n]) for n in names if n in env))
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def silent(self, key: Hashable | None) -> bool:
        """Whether this reading was done before and wrote and said nothing."""
        return key is not None and key in self._silent

    def remember(self, key: Hashable | None) -> None:
        """This reading wrote and said nothing."""
        if key is not None:
            self._silent.add(key)

    def _names(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, callee: Callable[[ast.Call], ast.AST | None]
    ) -> frozenset[str] | None:
        known = self._read.get(id(fn))
        if known is not None and known[0] is fn:
            return known[1]
        names: set[str] = set()
        pending: list[ast.AST] = [fn]
        seen: set[int] = set()
        refused = False
        while pending and not refused:
            node = pending.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            refused = len(seen) > _MAX_CALLEES  # too many helpers deep: not remembered
            for inner in ast.walk(node):
                if refused or isinstance(inner, (ast.Global, ast.Nonlocal)):
                    refused = True
                    break
                if isinstance(inner, ast.Name):
                    names.add(inner.id)
                elif isinstance(inner, ast.Call):
                    called = callee(inner)
                    if called is not None:
                        pending.append(called)
        found = None if refused else frozenset(names)
        self._read[id(fn)] = (fn, found)
        return found
