"""What the expressions of an Airflow DAG file hold, on the one value layer.

The DAG reader (`airflow`) walks a file once per loop round and once per call of a
function that builds a DAG, and asks what an operator's arguments hold there. The
answer is `values.scopes.Scopes`' (the evaluator's, which joins where ways join and
stops where the file's budget stops): the names at the statement that holds the
expression, read from the start of its function (or the module) in order, so a name
bound on two ways of an `if` is one of both values (unknown as a setting), never the
last one written.

What this module adds:

- `Where`: the bindings the walker makes itself, innermost last. A loop round binds
  the loop's names to one item; a DAG builder read per call binds its parameters to
  that call's arguments; a mapped task's copy binds its mapped arguments. The names
  at a statement inside such a body are read from the names where the body starts
  (the loop statement, the function's entry), those bound, up to the statement
  (`Scopes.within`), so a name the body computes from the loop's names holds that
  round's value.
- The walker reads a copy of a body per round (each copy's calls make tasks of
  their own); a copied node is read as the node it copies (`copied`).
- What a job setting holds that the evaluator does not say itself (`_hook`): a
  string some of whose parts are not known is a template (`settings.joined`), the
  environment of the machine that reads the definition and `__file__` are unknown.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from delta_lint.frontend.values.budget import Budget, OutOfBudget
from delta_lint.frontend.values.evaluator import bound_names, changed_names
from delta_lint.frontend.values.lattice import Unknown
from delta_lint.frontend.values.scopes import PASS, Point, Scopes
from delta_lint.frontend.values.settings import setting, text

_SPENT = Unknown("the analysis budget is spent")
_TOO_DEEP = Unknown("nested too deep")
# where the module is on the machine that runs it: not known (`os.path.dirname(__file__)`)
_NOWHERE = Point({})
_MAX_NESTED = 24  # nested documents (and names of them) read at most

Function = ast.FunctionDef | ast.AsyncFunctionDef
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class Where:
    """The names the walker binds itself where it reads a value, innermost last:
    each frame the body it binds them for (a loop, a function) and the names, or
    None for names only the walker's own nodes read (a mapped task's arguments)."""

    frames: tuple[tuple[ast.AST | None, dict[str, object]], ...] = ()

    def bind(self, names: dict[str, object], owner: ast.AST | None = None) -> Where:
        """These names bound to these values for the statements of `owner`'s body."""
        return Where((*self.frames, (owner, dict(names))))

    @property
    def given(self) -> bool:
        return bool(self.frames)


class DagValues:
    """The values of one DAG file's expressions (see the module docstring)."""

    def __init__(self, tree: ast.Module, path: str, budget: Budget) -> None:
        self.tree, self.path, self.budget = tree, path, budget
        # a function of another project module a call names (`from submit_config import
        # spark_submit_cmd`): (its module's path, its tree, its name), or None; set by the reader
        self.imported: Callable[[ast.expr], tuple[str, ast.Module, str] | None] | None = None
        self._others: dict[str, Scopes] = {}
        self.scopes = Scopes(tree, path, budget, hook=self._hook)
        self._origin: dict[ast.AST, ast.AST] = {}  # a copied node -> the node of the file it copies
        self._stmt: dict[int, ast.stmt] = {}  # a node of the file -> its innermost statement
        self._up: dict[int, ast.AST] = {}  # a statement -> the statement, function or class holding it
        self._chain: dict[int, tuple[ast.AST, ...]] = {}  # a statement -> the functions and classes around it
        self._members: dict[int | None, list[ast.stmt]] = {}  # a function (None: the module) -> its statements
        self._points: dict[int, Point] = {}  # a statement -> the names there (no binding of the walker)
        self._read: set[int | None] = set()
        self._bound: dict[tuple[int, ...], tuple[Where, dict[int, Point]]] = {}
        self._index()

    # -- the public questions ---------------------------------------------------------

    def copied(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """A copy of a body the walker reads once per round; its nodes are read as
        the file's nodes they copy."""
        out = copy.deepcopy(body)
        for new, old in zip(_nodes(out), _nodes(body)):
            self._origin[new] = self._origin.get(old, old)
        return out

    def original(self, node: ast.AST) -> ast.AST:
        return self._origin.get(node, node)

    def value(self, node: ast.expr | None, where: Where | None = None) -> object:
        """What `node` holds where the walker reads it: a value of the lattice, whose
        lists and dicts may hold unknown items. Once the budget is spent every value
        is unknown, and the budget says where it ran out."""
        if node is None:
            return Unknown("not given")
        where = where or Where()
        line = getattr(node, "lineno", 0)
        try:
            at = self._point(self.original(node), where)
            return self.scopes.value(node, at)
        except OutOfBudget as err:
            if str(err):  # the step that spent it (later reads fail at once)
                self.budget.note(self.path, line, str(err), lasting=True)
            return _SPENT
        except RecursionError:
            return _TOO_DEEP

    def setting(self, node: ast.expr | None, where: Where | None = None) -> object:
        """What `node` holds as a job setting (`values.settings.setting`), a document
        read as `document` reads it."""
        return setting(self.document(node, where))

    def document(self, node: ast.expr | None, where: Where | None = None, depth: int = 0) -> object:
        """What `node` holds as a document an operator is handed: its value, or, when
        that is not known because a `**`/`*` spread in a dict or list display is a
        part only a run knows (`{**base, "notebook_task": {...}}`), the items the
        display writes (the spread's keys left out: the bundle rules then say what
        is missing). A name bound once in its function (or the module), to such a
        display, and never changed in place, is read as that display. A loop or a
        mapping reads `value`, which stays unknown: not every item is known."""
        value = self.value(node, where)
        if node is None or depth > _MAX_NESTED or not _holds_unknown(value):
            return value
        where = where or Where()
        if isinstance(node, ast.Dict):
            out: dict[object, object] = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    spread = self.value(v, where)
                    if isinstance(spread, dict):
                        out.update(spread)
                    continue  # a spread only a run knows: its keys are not the document's
                key = self.value(k, where)
                if isinstance(key, (str, int)) and not isinstance(key, bool):
                    out[key] = self.document(v, where, depth + 1)
            return out
        if isinstance(node, (ast.List, ast.Tuple)):
            items: list[object] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    spread = self.value(e.value, where)
                    if isinstance(spread, (list, tuple)):
                        items.extend(spread)
                    continue  # a spread only a run knows: its items are not the document's
                items.append(self.document(e, where, depth + 1))
            return items
        if isinstance(node, ast.Name):
            display = self._display(self.original(node))
            if display is not None:
                return self.document(display, where, depth + 1)
        return value

    def _display(self, name: ast.AST) -> ast.expr | None:
        """The dict or list display a name is bound to once in the function (or the
        module) that reads it, when nothing there binds it otherwise or changes it
        in place; None otherwise."""
        assert isinstance(name, ast.Name)
        stmt = self._stmt.get(id(name))
        if stmt is None:
            return None
        fn = _function_of(self._chain.get(id(stmt), ()))
        found: list[ast.expr] = []
        for member in self._members.get(id(fn) if fn is not None else None, []):
            if isinstance(member, (ast.Assign, ast.AnnAssign)):
                targets = member.targets if isinstance(member, ast.Assign) else [member.target]
                if any(isinstance(t, ast.Name) and t.id == name.id for t in targets):
                    if len(targets) != 1 or member.value is None:
                        return None
                    found.append(member.value)
                    continue
            if isinstance(member, _SCOPES):  # a definition binds its own name; its body is another's
                if member.name == name.id:
                    return None
                continue
            for part in _own_parts(member):  # a block's statements are members of their own
                if name.id in bound_names(part) or name.id in changed_names(part, handed=False):
                    return None
        if len(found) == 1 and isinstance(found[0], (ast.Dict, ast.List, ast.Tuple)):
            return found[0]
        return None

    def _hook(self, reader: Scopes, node: ast.expr, env: dict[str, object], depth: int) -> Any:
        """`_hook`, and a call of a function another module of the project defines
        (`bash_command=spark_submit_cmd("/opt/airflow/src/x.py", extra_args="daily")`,
        the helper imported from the DAG folder): what it returns for the call's
        arguments, read in its own module (its names, its constants), an argument
        only a run knows unknown there. Functions that module imports are not
        followed further (unknown)."""
        got = _hook(reader, node, env, depth)
        if got is not PASS or not isinstance(node, ast.Call) or self.imported is None:
            return got
        head = node.func
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name) or head.id in env or head.id in reader.module.functions:
            return PASS
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return PASS
        found = self.imported(node.func)
        if found is None:
            return PASS
        path, tree, name = found
        args = [reader.read(a, env, depth) for a in node.args]
        kwargs = {k.arg: reader.read(k.value, env, depth) for k in node.keywords if k.arg}
        if path not in self._others:
            self._others[path] = Scopes(tree, path, self.budget, hook=_hook)
        return self._others[path].call(name, args, kwargs)

    # -- where a node is ----------------------------------------------------------------

    def _index(self) -> None:
        # (node, its innermost statement, the functions and classes around it)
        stack: list[tuple[ast.AST, ast.stmt | None, tuple[ast.AST, ...]]] = [(self.tree, None, ())]
        while stack:
            node, stmt, chain = stack.pop()
            if isinstance(node, ast.stmt):
                if stmt is not None:
                    self._up[id(node)] = stmt
                self._chain[id(node)] = chain
                fn = _function_of(chain)
                self._members.setdefault(id(fn) if fn is not None else None, []).append(node)
                stmt = node
            if stmt is not None:
                self._stmt[id(node)] = stmt
            inner = (*chain, node) if isinstance(node, _SCOPES) else chain
            for child in reversed(list(ast.iter_child_nodes(node))):
                # a function's decorators and defaults, a class's bases, are read where it is written
                stack.append((child, stmt, inner if isinstance(child, (ast.stmt, ast.excepthandler)) else chain))

    def _holds(self, owner: ast.AST, stmt: ast.stmt) -> bool:
        """Whether `stmt` is inside the body of `owner` (a loop or a function)."""
        up = self._up.get(id(stmt))
        while up is not None:
            if up is owner:
                return True
            up = self._up.get(id(up))
        return False

    def _point(self, node: ast.AST, where: Where) -> Point:
        """The names where `node` is read: those at its statement, with the names
        the walker binds over them."""
        stmt = self._stmt.get(id(node))
        given: dict[str, object] = {}
        for owner, names in where.frames:
            if owner is None:
                given.update(names)
        if stmt is None:  # a node the walker made: only the names it binds
            return Point(given)
        frames = [f for f in where.frames if f[0] is not None and self._holds(f[0], stmt)]
        at = self._bound_point(stmt, tuple(frames)) if frames else self._plain(stmt)
        return Point({**at.env, **given}, at.changed) if given else at

    def _plain(self, stmt: ast.stmt) -> Point:
        """The names at a statement of the file, read from the start of its function
        (or the module), its parameters unknown."""
        chain = self._chain.get(id(stmt), ())
        fn = next((c for c in reversed(chain) if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
        key = id(fn) if fn is not None else None
        if key not in self._read:
            self._read.add(key)
            members = self._members.get(key, [])
            if fn is None:
                for sid, points in self.scopes.every(members, []).items():
                    self._points[sid] = self.scopes.joined(points)
            else:
                self._points.update(self.scopes.at(members, list(chain[: chain.index(fn) + 1])))
        found = self._points.get(id(stmt))
        if found is not None:
            return found
        up = self._up.get(id(stmt))  # a statement no way reaches: the names of the one holding it
        return self._plain(up) if isinstance(up, ast.stmt) else _NOWHERE

    def _bound_point(self, stmt: ast.stmt, frames: tuple[tuple[ast.AST, dict[str, object]], ...]) -> Point:
        """The names at a statement inside bodies the walker binds names for: the
        innermost body read from the names where it starts, its names bound."""
        key = tuple(id(names) for _, names in frames)
        if key not in self._bound:
            owner, names = frames[-1]
            if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = self._plain(owner.body[0]) if owner.body else _NOWHERE
                fn: Function | None = owner
            else:  # a loop: the names where it is, its own bound per round
                start = self._bound_point(owner, frames[:-1]) if frames[:-1] else self._plain(owner)  # type: ignore[arg-type]
                fn = _function_of(self._chain.get(id(owner), ()))
            body: list[ast.stmt] = owner.body  # type: ignore[attr-defined]
            inside = [s for s in _statements(body)]
            got = self.scopes.within(inside, body, Point({**start.env, **names}, start.changed), fn)
            self._bound[key] = (Where(frames), got)  # the frames kept: their ids are the key
        found = self._bound[key][1].get(id(stmt))
        if found is not None:
            return found
        up = self._up.get(id(stmt))
        if isinstance(up, ast.stmt) and up is not frames[-1][0]:
            return self._bound_point(up, frames)
        return self._plain(stmt)


def _holds_unknown(value: object, depth: int = 0) -> bool:
    """Whether a value is unknown, or a list or dict holding an unknown item."""
    if isinstance(value, Unknown) or depth > _MAX_NESTED:
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_unknown(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_holds_unknown(v, depth + 1) for v in value.values())
    return False


def _function_of(chain: tuple[ast.AST, ...]) -> Function | None:
    return next((c for c in reversed(chain) if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef))), None)


def _own_parts(stmt: ast.stmt) -> list[ast.AST]:
    """A statement's own parts: itself, or for a block (`if`, `for`, `with`, `try`,
    `match`) its expressions, targets and handler names, not the statements it holds."""
    if not any(isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case)) for c in ast.iter_child_nodes(stmt)):
        return [stmt]
    out: list[ast.AST] = []
    for child in ast.iter_child_nodes(stmt):
        if isinstance(child, ast.excepthandler):
            if child.name:
                out.append(ast.Name(id=child.name, ctx=ast.Store()))
            if child.type is not None:
                out.append(child.type)
        elif isinstance(child, ast.match_case):
            out.append(child.pattern)
            if child.guard is not None:
                out.append(child.guard)
        elif not isinstance(child, ast.stmt):
            out.append(child)
    return out


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a body and of the blocks in it, not of functions or
    classes it defines (a definition itself is one)."""
    out: list[ast.stmt] = []
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        if isinstance(stmt, _SCOPES):
            continue
        for child in reversed(list(ast.iter_child_nodes(stmt))):
            if isinstance(child, ast.stmt):
                stack.append(child)
            elif isinstance(child, (ast.excepthandler, ast.match_case)):
                stack.extend(s for s in reversed(child.body))
    return out


def _nodes(body: list[ast.stmt]) -> list[ast.AST]:
    out: list[ast.AST] = []
    for stmt in body:
        out.extend(ast.walk(stmt))
    return out


# -- the hook: what a job setting holds that the evaluator does not say --------------------


def _hook(reader: Scopes, node: ast.expr, env: dict[str, object], depth: int) -> Any:
    """The strings a DAG file builds, as every reader of job definitions reads them
    (`settings.text`): the environment and `__file__` are an Airflow worker's."""
    return text(reader, node, env, depth)
