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
members are left out. Everything else is the value layer's (`values.static`): a
name or `self.attr` holds its single assignment in the function, the class's
methods or the module, and a string whose leading part only a run knows
(`f"/Workspace/Users/{user}/app/jobs/" + "call_agents"`) keeps its known tail after
`UNKNOWN_FOLDER`, which the schedule matches by tail (`bundle._locate`), then by
name (`bundle.match_by_name`). The
documents join the module's literal job dicts (`Links.jobs`); one that does not
read as a job is passed over there.

What cannot be read (a `values.lattice.Unknown`, one of several values) is left out
of the document. Every expression read charges the file's `Budget`: once it is
spent, the rest of the file's jobs are not read and the budget says where (a DL000
there). `static_value` reads a literal job dict the same way without following names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from delta_lint.frontend.values.budget import Budget, OutOfBudget
from delta_lint.frontend.values.lattice import Unknown
from delta_lint.frontend.values.static import PASS, Scope, Static, setting

# a value that cannot be read (its key is left out)
_NOT_READ = Unknown("not read as a job setting")

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


def _is_jobs_call(call: ast.Call, method: str) -> bool:
    """`<anything>.jobs.<method>(...)`: the SDK's `WorkspaceClient().jobs`."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == method
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "jobs"
    )


def _document(value: object) -> object:
    """A setting's value with what is not known left out (the bundle rules then say
    what is missing: "has no file path")."""
    if isinstance(value, list):
        return [_document(v) for v in value if not isinstance(v, Unknown)]
    if isinstance(value, dict):
        return {k: _document(v) for k, v in value.items() if not isinstance(v, Unknown)}
    return value


def _owner_name(node: ast.expr) -> str:
    owner = node.value if isinstance(node, ast.Attribute) else node
    return owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""


def _sdk(static: Static, node: ast.expr, scope: Scope, depth: int) -> object:
    """The SDK's own kinds of value, read before the value layer's: a dataclass call
    as the dict of its arguments, `X.from_dict({...})` as its dict, a Jobs enum's
    member as its name; another upper-case member of a capitalised class
    (`DataSecurityMode.SINGLE_USER`) is not read."""
    if isinstance(node, ast.Attribute) and node.attr.isupper():
        owner = _owner_name(node)
        if owner in ENUMS:
            return node.attr
        if owner[:1].isupper():
            return _NOT_READ
        return PASS
    if not isinstance(node, ast.Call):
        return PASS
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "from_dict" and len(node.args) == 1:
        return static.read(node.args[0], scope, depth + 1)
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if not name[:1].isupper():
        return PASS
    out: dict[str, object] = {}
    for field_name, arg in zip(POSITIONAL.get(name, ()), node.args):
        if isinstance(arg, ast.Starred):
            break
        out[field_name] = static.read(arg, scope, depth + 1)
    out.update(_keywords(static, node, scope, depth))
    return out


def _keywords(static: Static, call: ast.Call, scope: Scope, depth: int) -> dict[str, object]:
    """A call's keyword arguments; `**settings`, `**settings.as_dict()` or
    `**settings.__dict__` of settings read as a dict gives its keys."""
    out: dict[str, object] = {}
    for k in call.keywords:
        if k.arg is not None:
            out[k.arg] = static.read(k.value, scope, depth + 1)
            continue
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
        value = static.read(spread, scope, depth + 1)
        if isinstance(value, dict):
            out.update(value)
    return out


def _calls(tree: ast.Module, own_lines: int) -> Iterator[tuple[ast.Call, Scope]]:
    """Every `.jobs.create(...)` / `.jobs.reset(...)` / `.jobs.update(...)` with where it is."""
    stack: list[tuple[ast.AST, Scope, ast.ClassDef | None]] = [(tree, Scope(), None)]
    while stack:
        node, scope, in_class = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = scope.enter(node, in_class)
            stack.extend((child, inner, None) for child in reversed(node.body))
            continue
        if isinstance(node, ast.ClassDef):
            stack.extend((child, scope, node) for child in reversed(node.body))
            continue
        if (
            isinstance(node, ast.Call)
            and getattr(node, "lineno", 0) <= own_lines
            and any(_is_jobs_call(node, method) for method in ("create", "reset", "update"))
        ):
            yield node, scope
        stack.extend((child, scope, None) for child in reversed(list(ast.iter_child_nodes(node))))


def _settings(static: Static, call: ast.Call, scope: Scope) -> dict | None:
    """The job settings a call gives, when they hold a task with a key (an `update`
    whose `new_settings` hold no task changes a job this file does not define, and
    is passed over)."""
    if not _is_jobs_call(call, "create"):
        node = call.args[1] if len(call.args) > 1 else None
        node = next((k.value for k in call.keywords if k.arg == "new_settings"), node)
        value = static.read(node, scope, 0) if node is not None else _NOT_READ
    else:
        value = _keywords(static, call, scope, 0)
    settings = _document(setting(value))
    if not isinstance(settings, dict):
        return None
    tasks = settings.get("tasks")
    if not isinstance(tasks, list) or not any(isinstance(t, dict) and "task_key" in t for t in tasks):
        return None
    return settings


def sdk_jobs(tree: ast.Module, own_lines: int, budget: Budget, module: str) -> list[dict]:
    """The Jobs API settings of every `.jobs.create/reset/update(...)` in
    the first `own_lines` lines of the module that reads as a job (a task with a key).
    Reading charges the file's `budget`; once it is spent no further job is read,
    and `budget` notes the call where it ran out (`module`: the file's path)."""
    static = Static(tree, module, budget, hook=_sdk)
    out = []
    for call, scope in _calls(tree, own_lines):
        try:
            doc = _settings(static, call, scope)
            static.said(call.lineno)
        except RecursionError:
            continue
        except OutOfBudget as err:
            budget.note(module, call.lineno, str(err) or "the analysis budget is spent", lasting=True)
            break
        if doc is not None:
            out.append(doc)
    return out


def static_value(node: ast.expr, budget: Budget, path: str = "") -> object:
    """A literal's value as job settings read it (`{"tasks": [...]}`, `Task(...)`,
    `f"{base}/nb"` as a folder only a run knows and its tail), names not followed;
    `Unknown` where it cannot be read (the budget spent included). `path`: the
    module the literal stands in, where a budget stop is said."""
    try:
        return _document(setting(Static(None, path, budget, hook=_sdk).read(node, Scope(), 0)))
    except (OutOfBudget, RecursionError):
        return Unknown("the analysis budget is spent")


# where the Python bundle resources' job dataclasses come from (`databricks-bundles`)
BUNDLE_JOBS_MODULE = "databricks.bundles.jobs"


def bundle_python_jobs(tree: ast.Module, budget: Budget, module: str) -> list[tuple[str, dict, int]]:
    """The jobs a module of Python bundle resources defines at its top level, as
    `load_resources_from_current_package_module` finds them: `name = Job(...)` or
    `name = Job.from_dict({...})` with `Job` imported from `databricks.bundles.jobs`,
    each as (its resource key: the name; its Jobs API settings, the dataclasses read
    as dicts of their fields; its line). Read as `sdk_jobs` reads SDK calls, within
    the file's `budget`; nothing is imported or run."""
    jobs = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == BUNDLE_JOBS_MODULE
        for alias in node.names
        if alias.name == "Job"
    }
    if not jobs:
        return []
    static = Static(tree, module, budget, hook=_sdk)
    out = []
    for stmt in tree.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else target
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(target, ast.Name) or not isinstance(value, ast.Call):
            continue
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr == "from_dict":
            func = func.value
        if not (isinstance(func, ast.Name) and func.id in jobs):
            continue
        try:
            settings = _document(setting(static.read(value, Scope(), 0)))
            static.said(stmt.lineno)
        except RecursionError:
            continue
        except OutOfBudget as err:
            budget.note(module, stmt.lineno, str(err) or "the analysis budget is spent", lasting=True)
            break
        if isinstance(settings, dict):
            out.append((target.id, settings, stmt.lineno))
    return out
