"""A `for` loop with `break`, `continue` or `else`, as the same loop without them.

Code that searches for something stops at the first hit: `for folder in [cwd, *cwd.parents]:
if (folder / "config.yaml").exists(): break`, `for p in candidates: if not p.exists():
continue; ...`. The evaluator reads loops without jumps turn by turn (and joins the ways
an unknown test leaves), so a loop with jumps is rewritten into one without, which Python
runs alike: a flag says the loop broke, each turn runs only while it is down and binds
the loop's target itself (so after a `break` the target keeps the item it broke on), a
`continue` ends the turn's statements, and the `else` runs where the flag is down.
Statements after a jump inside an `if` (or a `try`'s handler) are moved into its
branches (into the `try`'s `else`), so nothing after a jump runs on the way that took
it. A loop whose jumps sit elsewhere (inside a `with`, a `match`, a `try` body), or
whose rewriting would pass `MAX_STATEMENTS` (branches copy the statements after
them), is not rewritten: the evaluator then reads it as not followed.
"""

from __future__ import annotations

import ast

MAX_STATEMENTS = 512  # statements of a rewritten loop body
_CACHE_SIZE = 4_096
_cache: dict[int, tuple[ast.For, list[ast.stmt] | None]] = {}


def without_jumps(loop: ast.For) -> list[ast.stmt] | None:
    """The statements that run as `loop` runs, with no `break`, `continue` or `else`
    of it; None when it cannot be rewritten (see the module docstring)."""
    found = _cache.get(id(loop))
    if found is not None and found[0] is loop:
        return found[1]
    if len(_cache) >= _CACHE_SIZE:
        _cache.clear()
    rewritten = _rewrite(loop)
    _cache[id(loop)] = (loop, rewritten)
    return rewritten


def _rewrite(loop: ast.For) -> list[ast.stmt] | None:
    flag = f"__broke_{loop.lineno}_{loop.col_offset}"
    item = f"__item_{loop.lineno}_{loop.col_offset}"
    size = [0]
    body = _block(loop.body, flag, size)
    if body is None:
        return None
    down = ast.UnaryOp(op=ast.Not(), operand=ast.Name(id=flag, ctx=ast.Load()))
    turn = ast.If(
        test=down,
        body=[ast.Assign(targets=[loop.target], value=ast.Name(id=item, ctx=ast.Load())), *body],
        orelse=[],
    )
    out: list[ast.stmt] = [
        ast.Assign(targets=[ast.Name(id=flag, ctx=ast.Store())], value=ast.Constant(False)),
        ast.For(target=ast.Name(id=item, ctx=ast.Store()), iter=loop.iter, body=[turn], orelse=[]),
    ]
    if loop.orelse:
        out.append(ast.If(test=down, body=list(loop.orelse), orelse=[]))
    for stmt in out:
        ast.copy_location(stmt, loop)
        ast.fix_missing_locations(stmt)
    return out


def _block(block: list[ast.stmt], flag: str, size: list[int]) -> list[ast.stmt] | None:
    """`block` as one turn runs it up to its first jump, the rest moved into the
    branches of the statement that holds a jump."""
    out: list[ast.stmt] = []
    for i, stmt in enumerate(block):
        size[0] += 1
        if size[0] > MAX_STATEMENTS:
            return None
        if isinstance(stmt, ast.Break):
            broke = ast.Assign(targets=[ast.Name(id=flag, ctx=ast.Store())], value=ast.Constant(True))
            out.append(ast.copy_location(broke, stmt))
            return out
        if isinstance(stmt, ast.Continue):
            return out
        if not _jumps(stmt):
            out.append(stmt)
            continue
        rest = block[i + 1 :]
        if isinstance(stmt, ast.If):
            body = _block([*stmt.body, *rest], flag, size)
            orelse = _block([*stmt.orelse, *rest], flag, size)
            if body is None or orelse is None:
                return None
            out.append(ast.copy_location(ast.If(test=stmt.test, body=body or [ast.Pass()], orelse=orelse), stmt))
            return out
        if isinstance(stmt, ast.Try) and not stmt.finalbody and not any(_jumps(s) for s in stmt.body):
            handlers = []
            for handler in stmt.handlers:
                handled = _block([*handler.body, *rest], flag, size)
                if handled is None:
                    return None
                handlers.append(
                    ast.copy_location(ast.ExceptHandler(type=handler.type, name=handler.name, body=handled), handler)
                )
            orelse = _block([*stmt.orelse, *rest], flag, size)
            if orelse is None:
                return None
            tried = ast.Try(body=stmt.body, handlers=handlers, orelse=orelse, finalbody=[])
            out.append(ast.copy_location(tried, stmt))
            return out
        return None
    return out


def _jumps(stmt: ast.stmt) -> bool:
    """A `break` or `continue` of the loop `stmt` stands in (not of a loop inside it)."""
    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
        return False  # its jumps are its own
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            return True
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(n for n in ast.iter_child_nodes(node) if isinstance(n, (ast.stmt, ast.excepthandler)))
    return False
