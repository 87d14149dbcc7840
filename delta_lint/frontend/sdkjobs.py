"""Jobs that Python code deploys: the SDK's dataclasses, and dicts handed to a deployer.

Installers create the jobs they deploy with the SDK rather than a bundle:

    self.job_tasks = [Task(task_key="ingest", notebook_task=NotebookTask(
        notebook_path=self.notebook_root_path + "bronze_to_silver"))]
    ...
    self.w.jobs.create(name=self.job_name, tasks=self.job_tasks)

and solution notebooks hand a dict to their deployer (`deploy_compute(job_json)`),
a Jobs API endpoint (`requests.post(".../jobs/create", json=job)`) or a file
(`json.dump(job, f)`). Each such call (see `sdk_jobs`) becomes a Jobs API
document: `.jobs.create(...)`'s keyword arguments (`**settings` of a dict read
too), `.jobs.reset/update`'s `new_settings`, a deployer's argument that reads as a
job. A job-shaped dict handed to nothing of the kind (printed for a reader to
create by hand) is no job.

The values are the evaluator's (`values.scopes.Scopes`), read where the call is:
the names hold what every way that reaches the call leaves (a setting made one
way or another is one of several values, left out of the document; never one
branch), `self` is the object the class builds, and the file's `Budget` bounds the
reading. What the SDK's jobs add is this module's hook (`_hook`): an SDK
dataclass call (a capitalised callee not of the code's own: `Task`,
`NotebookTask`, `ForEachTask`, ...) reads as the dict of its keyword arguments (and
the first fields `POSITIONAL` names), `X.from_dict({...})` as its dict, a member of
one of the SDK's Jobs enums (`ENUMS`: `PauseStatus.PAUSED`) as its name, other
enum-like members not at all; the environment and `__file__` of the machine that
runs an installer are unknown; and a string whose leading part only a run knows
(`f"/Workspace/Users/{user}/app/jobs/" + "call_agents"`) keeps its known tail after
`UNKNOWN_FOLDER` (`values.settings`), which the schedule matches by tail
(`bundle._locate`), then by name (`bundle.match_by_name`). Once the budget is
spent the rest of the file's jobs are not read and the budget says where (a DL008
there).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from delta_lint.frontend.values.budget import Budget, OutOfBudget
from delta_lint.frontend.values.lattice import Unknown
from delta_lint.frontend.values.scopes import PASS, Point, Scopes
from delta_lint.frontend.values.settings import setting, text

# the settings `jobs.create(...)` is given, read as the call of an SDK dataclass (a name no
# code can bind)
_SETTINGS = "Create job settings"
# a value that cannot be read (its key is left out)
_NOT_READ = Unknown("not read as a job setting")
# the machine that runs an installer is not the one that runs its jobs

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

# the SDK's methods of `WorkspaceClient().jobs` that define a job: `create` with the
# settings as keywords, `reset` / `update` with them as `new_settings`
SDK_METHODS = ("create", "reset", "update")
# the Jobs API endpoints whose body is a job's settings (`requests.post(f"{host}/api/2.1/
# jobs/create", json=settings)`, a client's `do("POST", "/api/2.1/jobs/reset", body=...)`)
ENDPOINTS = re.compile(r"(?:^|/)jobs/(?:create|reset|update)\b")
# a function of the code's own that deploys what it is handed (`deploy_compute(job_json)`,
# `create_job(settings)`, `update_or_create_job(spec)`): its arguments that read as a job are one
DEPLOYERS = re.compile(r"deploy|(?:create|reset|update|upsert).*job|job.*(?:create|reset|update|upsert)")
# writers of a document to a file (`json.dump(job, f)`: a Jobs JSON file a CLI deploys)
DUMPERS = frozenset({"json.dump", "yaml.dump", "yaml.safe_dump"})
# what hands a document over as text: its argument is the document
SERIALISERS = frozenset({"json.dumps", "yaml.dump", "yaml.safe_dump"})


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


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else "?"


def _callee(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _owner_name(node: ast.expr) -> str:
    owner = node.value if isinstance(node, ast.Attribute) else node
    return owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""


# -- the hook: what the SDK's jobs add to the evaluator ---------------------------------------


def _hook(reader: Scopes, node: ast.expr, env: dict[str, object], depth: int) -> object:
    """The kinds of value job settings hold that the evaluator does not read itself:
    an SDK dataclass call as the dict of its arguments, `X.from_dict({...})` as its
    dict, a Jobs enum's member as its name (another upper-case member of a
    capitalised class, `DataSecurityMode.SINGLE_USER`, is not read); the strings
    every reader of job definitions builds alike (`settings.text`: templates of
    parts not known; the environment and `__file__` of the machine that runs the
    definition as unknown)."""
    if isinstance(node, ast.Attribute):
        if not node.attr.isupper():
            return PASS
        owner = _owner_name(node)
        if owner in ENUMS:
            return node.attr
        return _NOT_READ if owner[:1].isupper() else PASS
    built = text(reader, node, env, depth)
    if built is not PASS or not isinstance(node, ast.Call):
        return built
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "from_dict" and len(node.args) == 1 and not node.keywords:
        return reader.read(node.args[0], env, depth)
    name = _callee(func)
    if not name[:1].isupper():
        return PASS
    if isinstance(func, ast.Name) and (func.id in env or func.id in reader.module.classes):
        return PASS  # a class of the code's own: the evaluator builds its object
    out: dict[str, object] = {}
    for field_name, arg in zip(POSITIONAL.get(name, ()), node.args):
        if isinstance(arg, ast.Starred):
            break
        out[field_name] = reader.read(arg, env, depth)
    out.update(_keywords(reader, node, env, depth))
    return out


def _keywords(reader: Scopes, call: ast.Call, env: dict[str, object], depth: int) -> dict[str, object]:
    """A call's keyword arguments; `**settings`, `**settings.as_dict()` or
    `**settings.__dict__` of settings read as a dict gives its keys."""
    out: dict[str, object] = {}
    for k in call.keywords:
        if k.arg is not None:
            out[k.arg] = reader.read(k.value, env, depth)
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
        value = reader.read(spread, env, depth)
        if isinstance(value, dict):
            out.update(value)
    return out


# -- where jobs are defined ---------------------------------------------------------------------


def _statements(tree: ast.Module, own_lines: int) -> Iterator[tuple[ast.Call, ast.stmt, tuple[ast.AST, ...]]]:
    """Every call in the first `own_lines` lines, with its innermost statement and
    the functions and classes around it (outermost first)."""
    stack: list[tuple[ast.AST, ast.stmt | None, tuple[ast.AST, ...]]] = [(tree, None, ())]
    while stack:
        node, stmt, scope = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = (*scope, node)
            stack.extend((child, child, inner) for child in reversed(node.body))
            continue
        if isinstance(node, ast.Lambda):
            continue  # what a lambda's call is handed is known only where it is called
        if isinstance(node, ast.Call) and stmt is not None and getattr(node, "lineno", 0) <= own_lines:
            yield node, stmt, scope
        for child in reversed(list(ast.iter_child_nodes(node))):
            stack.append((child, child if isinstance(child, ast.stmt) else stmt, scope))


def _handed(node: ast.expr) -> ast.expr:
    """The document a call is handed (`json.dumps(doc)`: the document)."""
    if isinstance(node, ast.Call) and _dotted(node.func) in SERIALISERS and len(node.args) == 1:
        return node.args[0]
    return node


def _arguments(call: ast.Call) -> list[ast.expr]:
    return [_handed(a) for a in call.args if not isinstance(a, ast.Starred)] + [
        _handed(k.value) for k in call.keywords if k.arg is not None
    ]


class _Site:
    """A call that defines a job, and how its settings are read."""

    def __init__(self, call: ast.Call, stmt: ast.stmt, scope: tuple[ast.AST, ...], kind: str) -> None:
        self.call, self.stmt, self.scope, self.kind = call, stmt, scope, kind


def _sites(tree: ast.Module, own_lines: int, reader: Scopes | None) -> list[_Site]:
    """The calls that hand job settings to something that creates, updates or
    deploys a job (see `sdk_jobs`). A `from_dict` inside another such call's
    arguments is that call's, not a job of its own."""
    out: list[_Site] = []
    for call, stmt, scope in _statements(tree, own_lines):
        func = call.func
        name = _callee(func).lower()
        if any(_is_jobs_call(call, method) for method in SDK_METHODS):
            out.append(_Site(call, stmt, scope, "sdk"))
        elif name == "from_dict" and _callee(func.value if isinstance(func, ast.Attribute) else func)[:1].isupper():
            out.append(_Site(call, stmt, scope, "from_dict"))
        elif _dotted(func) in DUMPERS and len(call.args) >= 2:
            out.append(_Site(call, stmt, scope, "dump"))
        elif DEPLOYERS.search(name) and not _is_jobs_call(call, _callee(func)):
            out.append(_Site(call, stmt, scope, "deploy"))
        elif any(_names_endpoint(a, reader) for a in call.args[:2]) or any(
            k.arg in ("url", "path", "endpoint") and _names_endpoint(k.value, reader) for k in call.keywords
        ):
            out.append(_Site(call, stmt, scope, "endpoint"))
    inside = {
        id(node)
        for site in out
        if site.kind != "from_dict"
        for arg in site.call.args + [k.value for k in site.call.keywords]
        for node in ast.walk(arg)
    }
    return [s for s in out if id(s.call) not in inside]


def _names_endpoint(node: ast.expr, reader: Scopes | None) -> bool:
    """Whether an argument names a Jobs API endpoint that takes settings (a literal,
    an f-string's text, or a module constant: `_JOBS_API = "/api/2.1/jobs/create"`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and ENDPOINTS.search(node.value) is not None
    if isinstance(node, ast.JoinedStr):
        return any(_names_endpoint(p, reader) for p in node.values if isinstance(p, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _names_endpoint(node.left, reader) or _names_endpoint(node.right, reader)
    if isinstance(node, ast.Name) and reader is not None and node.id in reader.module.assigned:
        held = reader.module.assigned[node.id]
        return isinstance(held, ast.Constant) and _names_endpoint(held, None)
    return False


def _settings(reader: Scopes, site: _Site, at: Point) -> list[dict]:
    """The job settings a site hands over, when they hold a task with a key (an
    `update` whose `new_settings` hold no task changes a job this file does not
    define, and is passed over)."""
    call = site.call
    if site.kind == "sdk" and _is_jobs_call(call, "create"):
        keywords = ast.Call(ast.Name(_SETTINGS, ast.Load()), [], call.keywords)  # read as an SDK dataclass's
        values = [reader.value(ast.copy_location(keywords, call), at)]
    elif site.kind == "sdk":
        node = call.args[1] if len(call.args) > 1 else None
        node = next((k.value for k in call.keywords if k.arg == "new_settings"), node)
        values = [reader.value(node, at)] if node is not None else []
    elif site.kind in ("from_dict", "dump"):
        values = [reader.value(call.args[0], at)]
    else:
        values = [reader.value(a, at) for a in _arguments(call)]
    out = []
    for value in values:
        settings = _document(setting(value))
        if isinstance(settings, dict) and isinstance(settings.get("new_settings"), dict):
            settings = settings["new_settings"]  # a `jobs/reset` request's body
        if _is_job(settings):
            out.append(settings)  # type: ignore[arg-type]
    return out


def _is_job(settings: object) -> bool:
    tasks = settings.get("tasks") if isinstance(settings, dict) else None
    return isinstance(tasks, list) and any(isinstance(t, dict) and "task_key" in t for t in tasks)


def might_define_jobs(source: str) -> bool:
    """Whether a module's text can define a job: every job names a task's key, as
    `task_key` or positionally in the SDK's `Task("load", ...)`."""
    return "task_key" in source or "Task(" in source


def sdk_jobs(tree: ast.Module, own_lines: int, budget: Budget, module: str) -> list[dict]:
    """The Jobs API settings that the first `own_lines` lines of the module hand to
    something that creates, updates or deploys a job, and that read as a job (a task
    with a key): the SDK's `.jobs.create/reset/update(...)`, `Job.from_dict(...)`
    (or any capitalised class's), a Jobs API endpoint that takes settings
    (`requests.post(".../jobs/create", json=...)`), a document dumped to a file
    (`json.dump(job, f)`) and a function of the code's own that deploys a job
    (`deploy_compute(job_json)`). A job-shaped dict only printed is no job.
    Each call's arguments are read where the call is (`Scopes.at`). Reading charges
    the file's `budget`; once it is spent no further job is read, and `budget`
    notes the call where it ran out (`module`: the file's path)."""
    reader = Scopes(tree, module, budget, hook=_hook)
    sites = _sites(tree, own_lines, reader)
    by_scope: dict[tuple[int, ...], list[_Site]] = {}
    for site in sites:
        by_scope.setdefault(tuple(id(n) for n in site.scope), []).append(site)
    found: dict[int, list[dict]] = {}
    for group in by_scope.values():
        line = group[0].call.lineno
        try:
            envs = reader.at([s.stmt for s in group], list(group[0].scope))
            for site in group:
                line = site.call.lineno
                at = envs.get(id(site.stmt))
                if at is not None:
                    found[id(site.call)] = _settings(reader, site, at)
        except RecursionError:
            continue
        except OutOfBudget as err:
            budget.note(module, line, str(err) or "the analysis budget is spent", lasting=True)
            break
    return [doc for site in sites for doc in found.get(id(site.call), [])]


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
    reader = Scopes(tree, module, budget, hook=_hook)
    found: list[tuple[str, ast.expr, ast.stmt]] = []
    for stmt in tree.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else target
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(target, ast.Name) or not isinstance(value, ast.Call):
            continue
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr == "from_dict":
            func = func.value
        if isinstance(func, ast.Name) and func.id in jobs:
            found.append((target.id, value, stmt))
    out: list[tuple[str, dict, int]] = []
    line = found[0][2].lineno if found else 0
    try:
        envs = reader.at([stmt for _, _, stmt in found], [])
        for name, value, stmt in found:
            line = stmt.lineno
            settings = _document(setting(reader.value(value, envs.get(id(stmt), Point({})))))
            if isinstance(settings, dict):
                out.append((name, settings, stmt.lineno))
    except RecursionError:
        pass
    except OutOfBudget as err:
        budget.note(module, line, str(err) or "the analysis budget is spent", lasting=True)
    return out
