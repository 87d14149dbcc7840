"""Jobs that Python code creates with the Databricks SDK's dataclasses.

Installers create the jobs they deploy with the SDK rather than a bundle:

    self.job_tasks = [Task(task_key="ingest", notebook_task=NotebookTask(
        notebook_path=self.notebook_root_path + "bronze_to_silver"))]
    ...
    self.w.jobs.create(name=self.job_name, tasks=self.job_tasks)

A call `<anything>.jobs.create(...)` (or `.jobs.reset(job_id, new_settings=
JobSettings(...))`, or an `.jobs.update(...)` whose `new_settings` hold the tasks)
becomes a Jobs API document: its keyword arguments (`**settings` of a dict read
too) as the job's settings, with `max_concurrent_runs`, `continuous` and `trigger`
as the schedule reads them, read syntactically (the code is never run). An SDK dataclass call (a
capitalised callee: `Task`, `NotebookTask`, `ForEachTask`, `TaskDependency`, ...)
reads as the dict of its keyword arguments; a member of one of the SDK's Jobs enums
(`PauseStatus.PAUSED`) as its name, which is its value there; other enum-like
members are left out. A name or `self.attr` is
read from its single assignment in the function, the class's methods or the module;
a name assigned more than once, mutated or not found is left out, as is any value
that cannot be read. A string whose leading part only a run knows
(`f"/Workspace/Users/{user}/app/jobs/" + "call_agents"`) keeps its known tail after
`UNKNOWN_FOLDER`, which the schedule matches by tail (`bundle._locate`); a string
unknown elsewhere is left out. The documents join the module's literal job dicts
(`Links.jobs`); one that does not read as a job is passed over there.

What cannot be read is a `values.lattice.Unknown` (with why), left out of the
document. Every expression read charges the file's `Budget`: once it is spent, the
rest of the file's jobs are not read and the budget says where (a DL000 there).
`static_value` reads a literal job dict the same way without following names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from delta_lint.frontend.values.budget import MAX_SETTING_TEXT, Budget, OutOfBudget
from delta_lint.frontend.values.lattice import Unknown
from delta_lint.model import UNKNOWN_FOLDER

MAX_DEPTH = 24  # nested values and name lookups followed at most
# a value that cannot be read (its key is left out), by why
_NOT_READ = Unknown("not read as a job setting")
_TOO_DEEP = Unknown(f"nested more than {MAX_DEPTH} deep")
_TOO_LONG = Unknown(f"a string of more than {MAX_SETTING_TEXT:,} characters")

# SDK dataclasses real code calls with positional arguments: their first fields
# (databricks-sdk's order: `NotebookTask(f"{base_path}/validate")`)
POSITIONAL = {
    "JobParameterDefinition": ("name", "default"),
    "TaskDependency": ("task_key", "outcome"),
    "NotebookTask": ("notebook_path",),
    "SparkPythonTask": ("python_file",),
    "Task": ("task_key",),
}

# the SDK's Jobs enums whose members' values are their names (`PauseStatus.PAUSED` is
# "PAUSED"); a member of another class (`DataSecurityMode.SINGLE_USER`) is left out
ENUMS = frozenset(
    {"PauseStatus", "PeriodicTriggerConfigurationTimeUnit", "Source", "RunIf", "Condition", "ConditionTaskOp"}
)

# methods that change the object a name holds: such a name's assignment is not its value
MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "pop", "remove", "clear", "__setitem__"})


@dataclass(frozen=True)
class _Where:
    """Where an expression is: the functions around it (outermost first) and, in a
    method, its class and the name of its `self`."""

    fns: tuple[ast.FunctionDef | ast.AsyncFunctionDef, ...] = ()
    cls: ast.ClassDef | None = None
    self_name: str | None = None


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of a scope's statements, not those of the scopes it defines (a
    nested `def` or class is there, as the name it binds)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


class _Bindings:
    """Every binding of the names (or `self` attributes) of one scope: how many, and
    the value of a plain `x = value` / `x: T = value`."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.value: dict[str, tuple[ast.expr, _Where]] = {}

    def bind(self, name: str, value: ast.expr | None = None, where: _Where | None = None) -> None:
        self.count[name] = self.count.get(name, 0) + 1
        if value is not None and where is not None:
            self.value[name] = (value, where)

    def single(self, name: str) -> tuple[ast.expr, _Where] | None:
        return self.value.get(name) if self.count.get(name) == 1 else None


def _assigned(node: ast.AST) -> list[tuple[ast.expr, ast.expr | None]]:
    """(target, value) of an assignment: the value only for a plain one."""
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return [(node.target, node.value)]
    return []


def _mutated(node: ast.AST) -> ast.expr | None:
    """The object a statement changes in place: `x.append(...)`, `x[k] = v`, `del x[k]`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
        return node.func.value
    if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return node.value
    return None


def _scope_bindings(body: list[ast.stmt], where: _Where, params: list[str]) -> _Bindings:
    out = _Bindings()
    for name in params:
        out.bind(name)
    plain: dict[int, ast.expr] = {}
    for node in _own_nodes(body):
        for target, value in _assigned(node):
            if isinstance(target, ast.Name) and value is not None:
                plain[id(target)] = value
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            value = plain.get(id(node))
            out.bind(node.id, value, where if value is not None else None)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.bind(node.name)
        elif isinstance(node, ast.alias):
            out.bind((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                out.bind(name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.bind(node.name)
        owner = _mutated(node)
        if isinstance(owner, ast.Name):
            out.bind(owner.id)
    return out


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    a = fn.args
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    names += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    return names


def _is_jobs_call(call: ast.Call, method: str) -> bool:
    """`<anything>.jobs.<method>(...)`: the SDK's `WorkspaceClient().jobs`."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == method
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "jobs"
    )


def _known(value: object) -> bool:
    return not isinstance(value, Unknown)


class _Reader:
    """Reads job settings out of the module's syntax; `tree` None: a literal only,
    names not followed."""

    def __init__(self, tree: ast.Module | None, budget: Budget) -> None:
        self.tree = tree
        self.budget = budget
        self._scopes: dict[int, _Bindings] = {}
        self._attrs: dict[int, _Bindings] = {}
        self._resolving: set[int] = set()

    # -- finding the calls ------------------------------------------------------------------

    def calls(self, own_lines: int) -> Iterator[tuple[ast.Call, _Where]]:
        """Every `.jobs.create(...)` / `.jobs.reset(...)` / `.jobs.update(...)` with where it is."""
        assert self.tree is not None
        stack: list[tuple[ast.AST, _Where, ast.ClassDef | None]] = [(self.tree, _Where(), None)]
        while stack:
            node, where, in_class = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = _Where((*where.fns, node), where.cls, where.self_name)
                if in_class is not None:
                    params = _params(node)
                    is_static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
                    self_name = params[0] if params and not is_static else None
                    inner = _Where((*where.fns, node), in_class, self_name)
                stack.extend((child, inner, None) for child in reversed(node.body))
                continue
            if isinstance(node, ast.ClassDef):
                stack.extend((child, where, node) for child in reversed(node.body))
                continue
            if (
                isinstance(node, ast.Call)
                and getattr(node, "lineno", 0) <= own_lines
                and any(_is_jobs_call(node, method) for method in ("create", "reset", "update"))
            ):
                yield node, where
            stack.extend((child, where, None) for child in reversed(list(ast.iter_child_nodes(node))))

    def document(self, call: ast.Call, where: _Where) -> dict | None:
        """The job settings a call gives, when they hold a task with a key (an
        `update` whose `new_settings` hold no task changes a job this file does not
        define, and is passed over)."""
        if not _is_jobs_call(call, "create"):
            node = call.args[1] if len(call.args) > 1 else None
            node = next((k.value for k in call.keywords if k.arg == "new_settings"), node)
            settings = self.value(node, where) if node is not None else _NOT_READ
        else:
            settings = self._keywords(call, where)
        if not isinstance(settings, dict):
            return None
        tasks = settings.get("tasks")
        if not isinstance(tasks, list) or not any(isinstance(t, dict) and "task_key" in t for t in tasks):
            return None
        return settings

    # -- values ---------------------------------------------------------------------------

    def value(self, node: ast.expr, where: _Where, depth: int = 0) -> object:
        """The plain value of a setting's expression, or `Unknown`."""
        self.budget.step()
        if depth > MAX_DEPTH:
            return _TOO_DEEP
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, (str, int, float, bool, type(None))) else _NOT_READ
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.value(e, where, depth + 1) for e in node.elts if not isinstance(e, ast.Starred)]
            return [i for i in items if _known(i)]
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    value = self.value(v, where, depth + 1)
                    if _known(value):
                        out[k.value] = value
            return out
        if isinstance(node, ast.Call):
            return self._dataclass(node, where, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left, where, depth + 1), self.value(node.right, where, depth + 1)
            if isinstance(left, list) and isinstance(right, list):
                return left + right
            if isinstance(left, list) or isinstance(right, list):
                return _NOT_READ
            return self._string(node, where, depth)
        if isinstance(node, ast.JoinedStr):
            return self._string(node, where, depth)
        if isinstance(node, ast.Attribute) and self._enum_member(node):
            return node.attr
        if self._enum_like(node):
            return _NOT_READ
        if isinstance(node, (ast.Name, ast.Attribute)):
            found = self._resolve(node, where)
            if found is None:
                return _NOT_READ
            target, at = found
            self._resolving.add(id(target))
            try:
                return self.value(target, at, depth + 1)
            finally:
                self._resolving.discard(id(target))
        return _NOT_READ

    def _keywords(self, call: ast.Call, where: _Where, depth: int = 0) -> dict:
        """A call's keyword arguments; `**settings`, `**settings.as_dict()` or
        `**settings.__dict__` of settings read as a dict gives its keys."""
        out = {}
        for k in call.keywords:
            if k.arg is None:
                spread = k.value
                if isinstance(spread, ast.Call) and not spread.args and not spread.keywords:
                    method = spread.func
                    if not (isinstance(method, ast.Attribute) and method.attr in ("as_dict", "as_shallow_dict")):
                        continue
                    spread = method.value
                elif isinstance(spread, ast.Attribute) and spread.attr == "__dict__":
                    spread = spread.value
                elif not isinstance(spread, (ast.Name, ast.Dict)):
                    continue
                value = self.value(spread, where, depth + 1)
                if isinstance(value, dict):
                    out.update(value)
            else:
                value = self.value(k.value, where, depth + 1)
                if _known(value):
                    out[k.arg] = value
        return out

    def _dataclass(self, call: ast.Call, where: _Where, depth: int) -> object:
        """`Task(task_key=..., ...)` as the dict of its arguments; `X.from_dict({...})`
        as its dict."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "from_dict" and len(call.args) == 1:
            return self.value(call.args[0], where, depth + 1)
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if not name[:1].isupper():
            return _NOT_READ
        out = {}
        for field_name, arg in zip(POSITIONAL.get(name, ()), call.args):
            if isinstance(arg, ast.Starred):
                break
            value = self.value(arg, where, depth + 1)
            if _known(value):
                out[field_name] = value
        out.update(self._keywords(call, where, depth))
        return out

    @staticmethod
    def _enum_member(node: ast.expr) -> bool:
        """`PauseStatus.PAUSED`, `jobs.Source.WORKSPACE`: a member of a Jobs enum."""
        if not isinstance(node, ast.Attribute):
            return False
        owner = node.value
        owner_name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        return owner_name in ENUMS and node.attr.isupper()

    @staticmethod
    def _enum_like(node: ast.expr) -> bool:
        """`Source.WORKSPACE`, `DataSecurityMode.SINGLE_USER`: an upper-case member of
        a capitalised class, whose value is not read."""
        if not isinstance(node, ast.Attribute):
            return False
        owner = node.value
        owner_name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        return owner_name[:1].isupper() and node.attr.isupper()

    # -- strings ----------------------------------------------------------------------------

    def _string(self, node: ast.expr, where: _Where, depth: int) -> object:
        """A string built of parts (`+`, f-strings); past MAX_SETTING_TEXT characters no value."""
        parts = self._pieces(node, where, depth)
        if sum(len(p) for p in parts if p is not None) > MAX_SETTING_TEXT:
            return _TOO_LONG
        if None not in parts:
            return "".join(p for p in parts if p is not None)
        last = max(i for i, p in enumerate(parts) if p is None)
        tail = "".join(p for p in parts[last + 1 :] if p is not None)
        if tail.startswith("/") and tail.strip("/"):  # a path whose folder only a run knows
            return UNKNOWN_FOLDER + tail
        return _NOT_READ

    def _pieces(self, node: ast.expr, where: _Where, depth: int, formatted: bool = False) -> list[str | None]:
        """A string expression's parts: known text, or None for a part only a run knows."""
        self.budget.step()
        if depth > MAX_DEPTH:
            return [None]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if formatted and isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool, type(None))):
            return [str(node.value)]
        if isinstance(node, ast.JoinedStr):
            out: list[str | None] = []
            for v in node.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    out.append(v.value)
                elif isinstance(v, ast.FormattedValue) and v.format_spec is None and v.conversion in (-1, 115):
                    out += self._pieces(v.value, where, depth + 1, formatted=True)
                else:
                    out.append(None)
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._pieces(node.left, where, depth + 1) + self._pieces(node.right, where, depth + 1)
        if isinstance(node, (ast.Name, ast.Attribute)) and not self._enum_like(node):
            found = self._resolve(node, where)
            if found is not None:
                target, at = found
                self._resolving.add(id(target))
                try:
                    return self._pieces(target, at, depth + 1, formatted)
                finally:
                    self._resolving.discard(id(target))
        return [None]

    # -- names ----------------------------------------------------------------------------

    def _resolve(self, node: ast.expr, where: _Where) -> tuple[ast.expr, _Where] | None:
        """The one value a name or `self.attr` is assigned, with where it is (None for
        a literal read alone)."""
        if self.tree is None:
            return None
        found = None
        if isinstance(node, ast.Name):
            found = self._name(node.id, where)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and where.cls is not None
            and node.value.id == where.self_name
        ):
            found = self._class_attrs(where.cls).single(node.attr)
        if found is None or id(found[0]) in self._resolving:
            return None
        return found

    def _name(self, name: str, where: _Where) -> tuple[ast.expr, _Where] | None:
        for i in range(len(where.fns) - 1, -1, -1):
            fn = where.fns[i]
            bindings = self._function(fn, _Where(where.fns[: i + 1], where.cls, where.self_name))
            if name in bindings.count:
                if any(isinstance(n, ast.Global) and name in n.names for n in _own_nodes(fn.body)):
                    break
                return bindings.single(name)
        return self._module().single(name)

    def _function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, where: _Where) -> _Bindings:
        if id(fn) not in self._scopes:
            self._scopes[id(fn)] = _scope_bindings(fn.body, where, _params(fn))
        return self._scopes[id(fn)]

    def _module(self) -> _Bindings:
        assert self.tree is not None
        if id(self.tree) not in self._scopes:
            self._scopes[id(self.tree)] = _scope_bindings(self.tree.body, _Where(), [])
        return self._scopes[id(self.tree)]

    def _class_attrs(self, cls: ast.ClassDef) -> _Bindings:
        """`self.x = ...` in every method of the class, and its class attributes."""
        if id(cls) in self._attrs:
            return self._attrs[id(cls)]
        out = _Bindings()
        for stmt in cls.body:
            for target, value in _assigned(stmt):
                if isinstance(target, ast.Name):
                    out.bind(target.id, value, _Where())
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = _params(stmt)
            if not params or any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in stmt.decorator_list):
                continue
            me = params[0]
            where = _Where((stmt,), cls, me)
            plain: dict[int, ast.expr] = {}
            for node in ast.walk(stmt):
                for target, value in _assigned(node):
                    if isinstance(target, ast.Attribute) and value is not None:
                        plain[id(target)] = value
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, (ast.Store, ast.Del))
                    and isinstance(node.value, ast.Name)
                    and node.value.id == me
                ):
                    value = plain.get(id(node))
                    out.bind(node.attr, value, where if value is not None else None)
                owner = _mutated(node)
                if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == me:
                    out.bind(owner.attr)
        self._attrs[id(cls)] = out
        return out


def sdk_jobs(tree: ast.Module, own_lines: int, budget: Budget, module: str) -> list[dict]:
    """The Jobs API settings of every `.jobs.create/reset/update(...)` in
    the first `own_lines` lines of the module that reads as a job (a task with a key).
    Reading charges the file's `budget`; once it is spent no further job is read,
    and `budget` notes the call where it ran out (`module`: the file's path)."""
    reader = _Reader(tree, budget)
    out = []
    for call, where in reader.calls(own_lines):
        try:
            doc = reader.document(call, where)
        except RecursionError:
            continue
        except OutOfBudget as err:
            budget.note(module, call.lineno, str(err) or "the analysis budget is spent", lasting=True)
            break
        if doc is not None:
            out.append(doc)
    return out


def static_value(node: ast.expr, budget: Budget) -> object:
    """A literal's value as job settings read it (`{"tasks": [...]}`, `Task(...)`,
    `f"{base}/nb"` as a folder only a run knows and its tail), names not followed;
    `Unknown` where it cannot be read (the budget spent included)."""
    try:
        return _Reader(None, budget).value(node, _Where())
    except (OutOfBudget, RecursionError):
        return Unknown("the analysis budget is spent")
