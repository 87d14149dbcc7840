"""Jobs defined in Terraform: `databricks_job` resources of the Databricks provider.

Many repositories deploy their jobs with Terraform instead of a bundle. A
`databricks_job` resource has the Jobs API's shape written as HCL blocks (`task {
task_key = ... notebook_task { notebook_path = ... } depends_on { task_key = ... } }`,
`schedule { quartz_cron_expression = ... }`, `continuous {}`, `trigger { file_arrival
{ ... } }`, `parameter { name default }`); its
notebook is usually a `databricks_notebook` resource whose `source` is the file in
the repository (`notebook_path = databricks_notebook.setup.path`). This module reads
those files with python-hcl2 (a parser: nothing is evaluated) into the job settings
the bundle reader already understands, so the schedule treats them like any other job.

Values are often Terraform's own (`quartz_cron_expression = var.nightly_cron`,
`"${local.prefix}-load"`): `_Values` reads what the module's `variable` defaults,
`locals`, variables files (`terraform.tfvars`, `*.auto.tfvars` and their `.json`
forms, which Terraform loads without being told) and the `module` blocks calling it
give them, and puts the known ones in place before the job is read. A reference with no known value (a variable
without a default, set with `-var` at deploy time) stays as written; where it makes
the schedule unreadable, the job's problem names it at the attribute's line.
`dynamic "task"` blocks (and nested `dynamic` blocks) are written out once per
element of a `for_each` whose value is known that way (`_dynamic`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from delta_lint.bundle import (
    Workflows,
    found_problem,
    job_from_settings,
    listing,
    pipelines_of_settings,
    tail_notes,
    wheel_modules,
)
from delta_lint.config import ConfigError
from delta_lint.safeio import read_input_text
from delta_lint.schema import Source, TerraformJob, convert

# `${databricks_notebook.setup.path}`, `${databricks_workspace_file.f.path}`
_RESOURCE_PATH = re.compile(r"^\$\{(databricks_notebook|databricks_workspace_file)\.([\w-]+)\.path\}$")
# `pipeline_id = databricks_pipeline.bronze.id`: a pipeline of the same module
_PIPELINE_ID = re.compile(r"^\$\{databricks_pipeline\.([\w-]+)\.id\}$")
_PIPELINE = "databricks_pipeline"
# `${path.module}`, `${path.root}`, `${path.cwd}` at the start of a local path (see `_local`)
_PATH_FOLDER = re.compile(r"^\$\{\s*path\.(module|root|cwd)\s*\}")
_KIND = "databricks_job"
# `${var.name}` / `${local.name}` (a fixed pattern of ours, not the repository's)
# and an attribute or key of an object's value: `${var.job.cron}`, `${local.jobs["nightly"].cron}`
_REFERENCE = re.compile(r"\$\{\s*(var|local)\.([A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*|\[\s*\"[\w .-]*\"\s*\])*)\s*\}")
_ATTRIBUTE = re.compile(r"\.([A-Za-z_][\w-]*)|\[\s*\"([\w .-]*)\"\s*\]")
# Bounds on reading values: locals naming locals, and the text references build
MAX_REFERENCE_DEPTH = 16
MAX_VALUE_TEXT = 64 * 1024
# the variables files Terraform loads without being told, the later overriding the earlier
_TFVARS = ("terraform.tfvars", "terraform.tfvars.json")
_AUTO_TFVARS = (".auto.tfvars", ".auto.tfvars.json")
_FILE_TASKS = {"notebook_task": "notebook_path", "spark_python_task": "python_file"}
# the provider's other task blocks: not analysed, named by their kind (their settings are not read)
_OTHER_TASKS = (
    "pipeline_task",
    "python_wheel_task",
    "spark_jar_task",
    "spark_submit_task",
    "run_job_task",
    "dashboard_task",
    "power_bi_task",
    "clean_rooms_notebook_task",
)


def load_found_terraform(root: Path, found: tuple[str, ...] | None = None) -> Workflows:
    """The jobs of every Terraform file of the project that defines a
    `databricks_job`; a file that does not parse is reported at its line. Each
    `.tf` file is parsed once per run, however many job files share its folder."""
    out = Workflows()
    found = listing("terraform", str(root)) if found is None else found
    out.listings.append(("terraform", str(root), found))
    if not found:
        return out
    module = _Modules(root)
    read: set[Path] = set()  # the files already in `out.files`
    said: set[Path] = set()  # the module folders whose variables files' problems are reported
    deployments = _deployments(root, [Path(f).parent for f in found], module)
    defined: list[tuple[str, str, Any]] = []  # (deployment root, job name, job)
    uncalled: dict[Path, int] = {}  # module folders nothing deploys -> their jobs left out
    # module folder -> its `databricks_pipeline`s: name -> (key, spec, file, line)
    piped: dict[Path, dict[str, tuple[str, dict, Path, int]]] = {}
    pipeline_names: set[str] = set()
    for file in map(Path, found):
        document = module.parsed(file)
        if isinstance(document, ConfigError):
            out.problems.append(found_problem(file, root, document))
            continue
        if _uncalled_module(file.parent, root, module):
            uncalled[file.parent] = uncalled.get(file.parent, 0) + len(list(_resources(document, _KIND)))
            out.files.append(file)  # a call written later makes its jobs deployed
            continue
        notebooks, module_files = module.sources(file.parent)
        values, value_files, unread = module.values(file.parent)
        if file.parent not in piped:  # the module's pipelines, once: its jobs' `pipeline_task`s name them
            piped[file.parent] = _pipelines(module, file.parent, notebooks, values, set(pipeline_names))
            pipeline_names.update(piped[file.parent])
        notebooks = {**notebooks, **{f"{_PIPELINE}.{n}": k for n, (k, *_) in piped[file.parent].items()}}
        if file.parent not in said:  # a variables file that cannot be read, once per module
            said.add(file.parent)
            for unread_file, err in unread:
                where, _ = found_problem(unread_file, root, err)
                out.problems.append((where, f"{err.detail}; its values are not read (variables keep their defaults)"))
        jobs = list(_resources(document, _KIND))
        source = Source(file, text=module.text(file), hcl=True)
        for key, spec in jobs:
            spec, unknown_tasks = _dynamic(values.resolved(spec), values)
            try:  # the blocks delta-lint reads have the provider's shape (`task = 5` is none)
                convert(spec, TerraformJob, source, ("resource", _KIND, key))
            except ConfigError as err:
                where, _ = found_problem(file, root, err)
                out.problems.append((where, f"{err.detail}; job `{key}` is not analysed"))
                continue
            settings = _place(_settings(spec, notebooks, module.places(file.parent)), source, key)
            name = str(settings.get("name") or key)
            job = job_from_settings(name, settings, file, root, base=file.parent)
            for task_key, why in unknown_tasks.items():  # copies of a `dynamic "task"` no one can count
                if task_key in job.tasks:
                    job.tasks[task_key] = replace(job.tasks[task_key], files=(), problem=why)
            _name_unknown_schedule(job, settings, values)
            defined += [
                (deployment, name, job) for deployment in deployments.get(file.parent, (_label(file.parent, root),))
            ]
        if jobs:  # the module's other files name the notebooks and values: a change there changes the jobs
            out.files += [f for f in dict.fromkeys([file, *module_files, *value_files]) if f not in read]
            read.update(module_files, value_files, [file])
    _keyed(out, defined)
    pipelines_of_settings(out, [p for pipelines in piped.values() for p in pipelines.values()], root)
    if uncalled:  # whether a root calls them: the files with `module` blocks, asked again on a warm run
        calling = listing("terraform-modules", str(root))
        out.listings.append(("terraform-modules", str(root), calling))
        out.files += [f for f in map(Path, calling) if f not in out.files]
    for folder, count in sorted(uncalled.items()):
        out.notes.append(
            f"Terraform module `{_label(folder, root)}` is in a `modules` folder, has no provider or backend of "
            f"its own, and no module of the project calls it: it deploys nothing, so its {count} "
            f"job{'s are' if count != 1 else ' is'} not read"
        )
    wheel_modules(out, root)
    tail_notes(out)
    out.source = ", ".join(str(f.relative_to(root)) for f in out.files if f.is_relative_to(root))
    return out


class _Placed(dict):
    """Settings that know their line, as the bundle reader's YAML mappings do, so
    that a problem of the job is reported where it is written."""

    line = 1


def _place(settings: dict[str, Any], source: Source, key: str) -> _Placed:
    """The settings at the resource's line, and their schedule at the line of its
    `quartz_cron_expression` (where a schedule that cannot be read is reported)."""
    head = ("resource", _KIND, key)
    placed = _Placed(settings)
    placed.line = source.line_of(head) or 1
    schedule = settings.get("schedule")
    if isinstance(schedule, dict):
        cron = _Placed(schedule)
        cron.line = source.line_of((*head, "schedule", "quartz_cron_expression")) or placed.line
        placed["schedule"] = cron
    return placed


def _name_unknown_schedule(job: Any, settings: dict[str, Any], values: _Values) -> None:
    """A schedule that cannot be read because a variable or local has no known value
    says which (the cron parser would only see `${var.x}`)."""
    schedule = settings.get("schedule")
    cron = schedule.get("quartz_cron_expression", "") if isinstance(schedule, dict) else ""
    unknown = values.unknown_in(cron)
    if job.problem is not None and unknown:
        job.problem = (
            job.problem[0],
            f"`schedule`: `quartz_cron_expression` is `{cron}`: {unknown}",
        )


@dataclass
class _Values:
    """What `var.<name>` and `local.<name>` hold in one Terraform module, in python-hcl2's
    form (a string keeps its quotes): a variable's `default`, overridden by the
    module's variables files; a local's expression, its own references read in turn
    (at most MAX_REFERENCE_DEPTH deep). Nothing is evaluated: a value is known only
    when it is written out, or is a reference to one that is, or a string that puts
    such references in its text."""

    written: dict[str, Any] = field(default_factory=dict)  # "var.x" / "local.x" -> as written
    declared: set[str] = field(default_factory=set)  # "var.x" of every `variable "x"` block
    varied: dict[str, str] = field(default_factory=dict)  # "var.x" -> why its callers leave it unknown
    _known: dict[str, Any] = field(default_factory=dict)

    def resolved(self, value: Any, depth: int = 0) -> Any:
        """`value` (a parsed block, list or attribute) with the references of known
        value put in place; the others left as written."""
        if isinstance(value, dict):
            return {k: self.resolved(v, depth) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolved(v, depth) for v in value]
        if not isinstance(value, str) or "${" not in value:
            return value
        quoted = len(value) >= 2 and value[0] == value[-1] == '"'
        inner = value[1:-1] if quoted else value
        whole = _REFERENCE.fullmatch(inner)
        if whole:  # `var.x` or `"${var.x}"`: the value itself, whatever its type
            held = self._value(whole.group(0), depth)
            return value if held is None else held
        text = _REFERENCE.sub(lambda m: self._text(m, depth), inner)
        if len(text) > MAX_VALUE_TEXT:
            return value
        return f'"{text}"' if quoted else text

    def unknown_in(self, text: str) -> str:
        """Why the references left in `text` have no known value ("" when none is left)."""
        whys = []
        for match in dict.fromkeys(m.group(0) for m in _REFERENCE.finditer(text)):
            name = _REFERENCE.fullmatch(match)
            ref = f"{name.group(1)}.{name.group(2)}" if name else match
            if ref in self.varied:
                whys.append(f"`{ref}`: {self.varied[ref]}")
            elif ref.startswith("var.") and ref not in self.declared:
                whys.append(f"`{ref}` is not declared in the module")
            elif ref.startswith("var."):
                whys.append(
                    f"`{ref}` has no default and no value in the module's terraform.tfvars or *.auto.tfvars "
                    "(a value given with -var or -var-file at deploy time is not seen)"
                )
            elif ref in self.written:
                whys.append(f"`{ref}` is not a value delta-lint reads without evaluating it")
            else:
                whys.append(f"`{ref}` is not defined in the module's `locals`")
        return "; ".join(whys)

    def _value(self, reference: str, depth: int) -> Any:
        """What `${var.x}` / `${local.x}` holds, or None when it is not known."""
        match = _REFERENCE.fullmatch(reference)
        if match is None or depth >= MAX_REFERENCE_DEPTH:
            return None
        ref = f"{match.group(1)}.{match.group(2)}"
        if ref in self._known:
            held = self._known[ref]
        elif ref not in self.written:
            return None
        else:
            self._known[ref] = None  # a local naming itself, even through others, is not known
            held = self.resolved(self.written[ref], depth + 1)
            if isinstance(held, str) and _REFERENCE.search(held):
                held = None  # a reference left inside: not known
            self._known[ref] = held
        return _attribute(held, match.group(3))

    def _text(self, match: re.Match, depth: int) -> str:
        """A reference inside a string: the text of a known scalar, else as written."""
        held = self._value(match.group(0), depth)
        if isinstance(held, bool):
            return "true" if held else "false"
        if isinstance(held, (int, float)):
            return str(held)
        if isinstance(held, str):
            return _text(held)
        return match.group(0)


def _attribute(held: Any, chain: str) -> Any:
    """The value an object's attributes or keys (`.cron`, `["nightly"]`) name in a
    known value (python-hcl2 keeps a key written in quotes with them); None when one
    is missing, or the value is not an object (nothing is evaluated)."""
    for m in _ATTRIBUTE.finditer(chain):
        key = m.group(1) or m.group(2)
        if not isinstance(held, dict):
            return None
        held = held.get(key, held.get(f'"{key}"'))
    return held


# `${task.value}`, `${task.key}`, `${task.value.notebook}`: a `dynamic` block's iterator
_ITERATOR = r"\$\{\s*%s\.(key|value)((?:\.[A-Za-z_][\w-]*)*)\s*\}"
_TOSET = re.compile(r"^\$\{\s*toset\(\s*((?:var|local)\.[A-Za-z_][\w-]*)\s*\)\s*\}$")
MAX_DYNAMIC_COPIES = 256  # copies a job's `dynamic` blocks make at most, nested ones included; past it, not known


def _dynamic(spec: dict, values: _Values) -> tuple[dict, dict[str, str]]:
    """A `databricks_job` body with its `dynamic "<block>" { for_each = ...; content {
    ... } }` blocks written out (Terraform's own expansion, nothing evaluated): the
    content once per element when `for_each` is a list, a map or `toset(...)` of a
    known value, its iterator's `key` and `value` (and `value.<attribute>` of an
    object) put in place; nested `dynamic` blocks in turn. A `for_each` of no known
    value makes no copies of its block, except a `dynamic "task"`: one task stands
    for its copies, not analysed (returned: its key -> why), so the job says it runs
    code no one can tell rather than seeming to run none."""
    unknown: dict[str, str] = {}
    return _expand(spec, values, unknown, 0, [MAX_DYNAMIC_COPIES]), unknown


def _expand(body: Any, values: _Values, unknown: dict[str, str], depth: int, left: list[int]) -> Any:
    """`_dynamic` of one body; `left` holds the copies the job may still make (nested
    blocks multiply them), past which a `for_each` counts as not known."""
    if isinstance(body, list):
        return [_expand(b, values, unknown, depth, left) for b in body]
    if not isinstance(body, dict) or depth > MAX_REFERENCE_DEPTH:
        return body
    out = {k: _expand(v, values, unknown, depth + 1, left) for k, v in body.items() if k != "dynamic"}
    for block in body.get("dynamic") or [] if isinstance(body.get("dynamic"), list) else []:
        for label, dynamic in block.items() if isinstance(block, dict) else ():
            label, dynamic = _text(label), _one(dynamic) if isinstance(dynamic, list) else dynamic
            if not isinstance(dynamic, dict):
                continue
            content = _one(dynamic.get("content"))
            iterator = _text(dynamic.get("iterator")) or label
            given = dynamic.get("for_each")
            elements = _elements(given, values)
            if elements is not None and len(elements) > left[0]:
                elements = None  # past the job's copies: as if not known
            if elements is not None:
                left[0] -= len(elements)
            if elements is None:
                if label == "task":
                    copy = _substituted(content, iterator, None, None)
                    key = _text(copy.get("task_key"))
                    key = key if key and "${" not in key else f"dynamic task over {_text(given)}"
                    copy["task_key"] = key
                    unknown[key] = (
                        f'it is a `dynamic "task"` block over `for_each = {_text(given)}`, whose elements '
                        "delta-lint does not know: how many tasks it makes, and what they run, is not read"
                    )
                    out.setdefault("task", []).append(_expand(copy, values, unknown, depth + 1, left))
                continue
            for element_key, element in elements:
                copy = _substituted(content, iterator, element_key, element)
                out.setdefault(label, []).append(_expand(copy, values, unknown, depth + 1, left))
    return out


def _elements(given: Any, values: _Values) -> list[tuple[Any, Any]] | None:
    """(key, value) of each element a `for_each` goes over (a list: its index; a set
    or a map: the element or the map's key), or None when it is not known."""
    if isinstance(given, str):
        found = _TOSET.match(given)
        if not found:
            return None
        held = values.resolved(f"${{{found.group(1)}}}")
        if not isinstance(held, list) or _open(held):
            return None
        items = [(v, v) for v in dict.fromkeys(h for h in held if isinstance(h, (str, int, float)))]
        return items if len(items) == len(held) and len(items) <= MAX_DYNAMIC_COPIES else None
    if _open(given):
        return None
    if isinstance(given, list) and len(given) <= MAX_DYNAMIC_COPIES:
        return list(enumerate(given))
    if isinstance(given, dict) and len(given) <= MAX_DYNAMIC_COPIES:
        return [(f'"{k}"', v) for k, v in given.items() if not k.startswith("__")]
    return None


def _substituted(content: Any, iterator: str, key: Any, value: Any) -> Any:
    """A `dynamic` block's content with `${<iterator>.key}`, `${<iterator>.value}` and
    `${<iterator>.value.<attribute>}` put in place (python-hcl2's form: a string in
    its quotes); a reference to an element that is not known (`key` None), or that
    the element does not hold, left as written."""
    if isinstance(content, dict):
        return {k: _substituted(v, iterator, key, value) for k, v in content.items()}
    if isinstance(content, list):
        return [_substituted(v, iterator, key, value) for v in content]
    if not isinstance(content, str) or "${" not in content:
        return content
    pattern = re.compile(_ITERATOR % re.escape(iterator))

    def held(match: re.Match) -> Any:
        if key is None:
            return None
        found = key if match.group(1) == "key" else value
        for attribute in [a for a in match.group(2).split(".") if a]:
            found = found.get(attribute) if isinstance(found, dict) else None
        return found

    quoted = len(content) >= 2 and content[0] == content[-1] == '"'
    whole = None if quoted else pattern.fullmatch(content)
    if whole:  # `task_key = task.value`: the element itself, whatever its type
        found = held(whole)
        return content if found is None else found

    def text(match: re.Match) -> str:
        found = held(match)
        if isinstance(found, bool):
            return "true" if found else "false"
        return _text(found) if isinstance(found, (str, int, float)) else match.group(0)

    return pattern.sub(text, content)


def _module_values(documents: list[dict], tfvars: list[dict]) -> _Values:
    """The `variable` defaults and `locals` of a module's parsed files, the variables
    files' values over the defaults (in the order Terraform loads them)."""
    values = _Values()
    for document in documents:
        for block in document.get("variable") or []:
            for name, body in block.items() if isinstance(block, dict) else ():
                ref = f"var.{_text(name)}"
                values.declared.add(ref)
                if isinstance(body, dict) and "default" in body:
                    values.written[ref] = body["default"]
        for block in document.get("locals") or []:
            for name, value in block.items() if isinstance(block, dict) else ():
                if not name.startswith("__"):
                    values.written[f"local.{name}"] = value
    for assigned in tfvars:
        for name, value in assigned.items():
            if f"var.{name}" in values.declared:  # Terraform warns of the others and drops them
                values.written[f"var.{name}"] = value
    return values


def _open(value: Any) -> bool:
    """Whether a value still holds a reference (`${...}`) anywhere in it."""
    if isinstance(value, str):
        return "${" in value
    if isinstance(value, list):
        return any(map(_open, value))
    if isinstance(value, dict):
        return any(map(_open, value.values()))
    return False


def _json_as_hcl(value: Any) -> Any:
    """A `.tfvars.json` value in python-hcl2's form (strings in quotes)."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return [_json_as_hcl(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_as_hcl(v) for k, v in value.items()}
    return value


def _keyed(out: Workflows, defined: list[tuple[str, str, Any]]) -> None:
    """Each Terraform root is a deployment of its own (a primary and a
    disaster-recovery workspace): a job name two roots define is keyed
    `<root>:<name>` in each. Within one root a paused copy of a job never replaces
    an unpaused one (the live job is the one that runs)."""
    roots: dict[str, set[str]] = {}
    for deployment, name, _ in defined:
        roots.setdefault(name, set()).add(deployment)
    for deployment, name, job in defined:
        key = name if len(roots[name]) == 1 else f"{deployment}:{name}"
        kept = out.jobs.get(key)
        if kept is not None and not kept.paused and job.paused:
            continue
        out.jobs[key] = replace(job, key=key) if key != job.key else job


def _label(folder: Path, root: Path) -> str:
    try:
        rel = folder.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return folder.as_posix()
    return rel or "."


def _deployments(root: Path, folders: list[Path], module: _Modules) -> dict[Path, tuple[str, ...]]:
    """The Terraform roots that deploy each folder: the folder itself, unless another
    folder calls it as a module (`module "x" { source = "./modules/y" }`), then the
    roots that deploy its callers."""
    callers: dict[Path, set[Path]] = {}
    found = listing("terraform-modules", str(root))
    for file in map(Path, found):
        document = module.parsed(file)  # each file parsed once per run
        if isinstance(document, ConfigError):  # a file that does not parse calls no module
            continue
        for block in document.get("module") or []:
            for body in block.values() if isinstance(block, dict) else ():
                source = _text(_one(body).get("source") if isinstance(body, list) else (body or {}).get("source"))
                if source.startswith(("./", "../")):
                    callee = (file.parent / source).resolve()
                    callers.setdefault(callee, set()).add(file.parent.resolve())
                    module.calls.setdefault(callee, []).append(
                        (file.parent, _one(body) if isinstance(body, list) else body)
                    )
    out: dict[Path, tuple[str, ...]] = {}
    for folder in folders:
        tops = _top_callers(folder.resolve(), lambda here: callers.get(here, ()))
        out[folder] = tuple(sorted(_label(top, root) for top in tops))
    return out


def _uncalled_module(folder: Path, root: Path, module: _Modules) -> bool:
    """Whether a folder's jobs are a child module's that nothing deploys: it sits in
    a `modules` folder (Terraform's standard module structure), configures no
    `provider` or `terraform { backend }` of its own (a root's), no module calls it,
    and the project deploys modules of its own without it: its roots call other
    local modules, or the folder holding `modules` has `.tf` files (the root module
    of that structure) and does not call this one. A project of modules only, with
    neither, may be a library others call: its jobs are read.
    Read after `_deployments` has found the calls."""
    if folder.resolve() in module.calls:
        return False
    try:
        parts = folder.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return False
    if "modules" not in parts:
        return False
    for tf in sorted(folder.glob("*.tf")):
        document = module.parsed(tf)
        if not isinstance(document, dict):
            return False  # a file that cannot be read may configure anything
        blocks = document.get("terraform")
        if document.get("provider") or any(
            isinstance(b, dict) and "backend" in b for b in (blocks if isinstance(blocks, list) else ())
        ):
            return False
    above = root.resolve().joinpath(*parts[: len(parts) - 1 - parts[::-1].index("modules")])
    return bool(module.calls) or any(above.glob("*.tf"))


def _top_callers(folder: Path, callers_of: Callable[[Path], Iterable[Path]]) -> set[Path]:
    """The folders no module calls that lead, through `module` blocks, to `folder`
    (itself when none calls it); a cycle of calls leads nowhere."""
    seen: set[Path] = set()
    todo, tops = [folder], set()
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        above = list(callers_of(here))
        if above:
            todo += above
        else:
            tops.add(here)
    return tops


class _Modules:
    """The Terraform files of one run, each parsed once: every job file of a folder
    needs the notebook resources of all the folder's files, which were parsed again
    for each job file (quadratic in the files of a folder)."""

    def __init__(self, root: Path) -> None:
        import hcl2  # only where a project has Terraform jobs: its imports would slow every start

        self.root = root
        self.hcl2 = hcl2
        self._parsed: dict[Path, dict | ConfigError] = {}
        self._texts: dict[Path, str] = {}
        self._sources: dict[Path, tuple[dict[str, str], list[Path]]] = {}
        self._values: dict[Path, tuple[_Values, list[Path], list[tuple[Path, ConfigError]]]] = {}
        self._reading: set[Path] = set()  # the modules whose values are being read (a cycle of calls)
        # a module's folder -> (the calling module's folder, the `module` block's arguments)
        self.calls: dict[Path, list[tuple[Path, Any]]] = {}

    def parsed(self, file: Path) -> dict | ConfigError:
        """The file's HCL as python-hcl2 gives it, or why it cannot be read."""
        if file not in self._parsed:
            self._parsed[file] = self._parse(file)
        return self._parsed[file]

    def text(self, file: Path) -> str:
        """The text of a file `parsed` read (to place a wrong value on its line)."""
        return self._texts.get(file, "")

    def _parse(self, file: Path) -> dict | ConfigError:
        try:
            self._texts[file] = read_input_text(file, self.root)
            document = self.hcl2.loads(self._texts[file])
        except (OSError, ConfigError) as err:
            return ConfigError(f"{file}: {err}")
        except Exception as err:  # noqa: BLE001 - the HCL parser's own errors: the file is not read
            return ConfigError(f"{file}: not valid HCL ({_first_line(err)})")
        return document if isinstance(document, dict) else ConfigError(f"{file}: not a Terraform file")

    def sources(self, folder: Path) -> tuple[dict[str, str], list[Path]]:
        """The notebook and file resources of a Terraform module, and the files read:
        every `.tf` file of the folder (a job and the notebooks it runs are often
        declared apart). A module file that does not parse names no notebook."""
        if folder not in self._sources:
            out: dict[str, str] = {}
            files = sorted(folder.glob("*.tf"))
            for tf in files:
                document = self.parsed(tf)
                if not isinstance(document, ConfigError):
                    out.update(_sources(document, folder, self.root, self.places(folder)))
            self._sources[folder] = (out, files)
        return self._sources[folder]

    def places(self, folder: Path) -> tuple[Path, Path | None]:
        """The module's folder and the folder of the root module that deploys it
        (`path.module`, `path.root`): the module itself when no other module calls it,
        the one root all its callers lead to, else None (deployed from several roots,
        or a cycle of calls: `path.root` is not one folder). Read once the `module`
        blocks are known (`_deployments`)."""
        tops = _top_callers(folder.resolve(), lambda here: [caller.resolve() for caller, _ in self.calls.get(here, ())])
        return folder, (tops.pop() if len(tops) == 1 else None)

    def values(self, folder: Path) -> tuple[_Values, list[Path], list[tuple[Path, ConfigError]]]:
        """What the module's variables and locals hold (see `_Values`), the files its
        values were read from, and why variables files that cannot be read were not
        (their variables keep their defaults). A module other modules call takes the
        values their `module` blocks give its variables (see `_given`), not those of
        its own variables files, which Terraform reads only in the root it runs in;
        the callers' files are among those its values were read from."""
        if folder in self._values:
            return self._values[folder]
        if folder in self._reading:  # modules that call each other: no value passes round the cycle
            return _Values(), [], []
        self._reading.add(folder)
        try:
            documents = [d for d in map(self.parsed, sorted(folder.glob("*.tf"))) if isinstance(d, dict)]
            callers = self.calls.get(folder.resolve(), [])
            files: list[Path] = []
            if not callers:  # Terraform reads variables files in the root it runs in, never in a called module
                files = [folder / name for name in _TFVARS if (folder / name).is_file()]
                files += sorted(p for suffix in _AUTO_TFVARS for p in folder.glob(f"*{suffix}") if p.is_file())
            read = [self._tfvars(f) for f in files]
            assigned = [r for r in read if isinstance(r, dict)]
            problems = [(f, r) for f, r in zip(files, read) if isinstance(r, ConfigError)]
            values = _module_values(documents, assigned)
            self._given(values, folder)
            # the callers' `module` blocks give its variables: their files change its values too
            for caller, _ in callers:
                files += [f for f in [*sorted(caller.glob("*.tf")), *self.values(caller)[1]] if f not in files]
        finally:
            self._reading.discard(folder)
        self._values[folder] = (values, files, problems)
        return self._values[folder]

    def _given(self, values: _Values, folder: Path) -> None:
        """The values the modules calling this one give its variables (`module "x" {
        source = "./jobs" nightly_cron = var.cron }`, read in the caller's own values),
        over the defaults: a variable every call leaves the same known value is that
        value; one the calls set differently, or to a value not known, is unknown and
        says so."""
        calls = self.calls.get(folder.resolve(), [])
        passed = {f"var.{name}" for _, body in calls if isinstance(body, dict) for name in body}
        for ref in sorted(passed & values.declared):
            held = []
            for caller, body in calls:
                name = ref[len("var.") :]
                if isinstance(body, dict) and name in body:
                    held.append(self.values(caller)[0].resolved(body[name]))
                else:
                    held.append(values.written.get(ref))  # its default, or nothing
            if any(h is None or _open(h) for h in held):
                values.varied[ref] = "a `module` block calling the module gives it no known value"
            elif any(h != held[0] for h in held):
                values.varied[ref] = "the `module` blocks calling the module give it different values"
            else:
                values.written[ref] = held[0]
                continue
            values.written.pop(ref, None)

    def _tfvars(self, file: Path) -> dict | ConfigError:
        """A variables file's assignments (python-hcl2's form), or why it cannot be read."""
        try:
            text = read_input_text(file, self.root)
            document = _json_as_hcl(json.loads(text)) if file.name.endswith(".json") else self.hcl2.loads(text)
        except (OSError, ConfigError) as err:
            return ConfigError(f"{file}: {err}")
        except Exception as err:  # noqa: BLE001 - the parsers' own errors: the file sets nothing
            return ConfigError(f"{file}: not a valid variables file ({_first_line(err)})")
        if not isinstance(document, dict):
            return ConfigError(f"{file}: not a variables file (no `name = value` assignments)")
        return document


def _resources(document: dict, kind: str):
    """(name, body) of each `resource "<kind>" "<name>" { ... }` of a parsed file."""
    blocks = document.get("resource")
    for block in blocks if isinstance(blocks, list) else ():
        for resource_kind, named in block.items() if isinstance(block, dict) else ():
            if _text(resource_kind) != kind or not isinstance(named, dict):
                continue
            for name, body in named.items():
                if isinstance(body, dict):
                    yield _text(name), body


def _local(path: str, places: tuple[Path, Path | None]) -> str:
    """A local path of a module relative to its folder: `${path.module}/x` is `x`;
    `${path.root}/x` and `${path.cwd}/x` (where `terraform` runs: the root module's
    folder) are `x` in the root module's folder. Terraform's `path.module` and
    `path.root` of a root module run in its folder are `.`, so a value written
    against them without a slash (`"${path.module}./src/x"`) is `../src/x`. A
    folder that is not known (a module deployed from several roots; `path.cwd`,
    which is absolute, glued to text) leaves the path as written (not static)."""
    found = _PATH_FOLDER.match(path)
    if found is None:
        return path
    rest = path[found.end() :]
    folder, top = places
    start = folder if found.group(1) == "module" else top
    if start is None:
        return path
    if not rest.startswith("/"):  # glued: `.` only for a root module, run in its own folder
        if found.group(1) == "cwd" or top is None or top.resolve() != folder.resolve():
            return path
        return "." + rest
    if start.resolve() == folder.resolve():
        return rest[1:]
    return os.path.relpath(start.resolve() / rest[1:], folder.resolve()).replace(os.sep, "/")


def _sources(document: dict, folder: Path, root: Path, places: tuple[Path, Path | None]) -> dict[str, str]:
    """`databricks_notebook.<name>` -> the project path its `source` names."""
    out = {}
    for kind in ("databricks_notebook", "databricks_workspace_file"):
        for name, body in _resources(document, kind):
            source = _local(_text(body.get("source")), places)
            if source and "${" not in source:
                try:
                    path = (folder / source).resolve()
                except (OSError, ValueError, RuntimeError):  # a NUL byte, a link loop
                    continue
                if path.is_relative_to(root.resolve()):
                    out[f"{kind}.{name}"] = str(path)
    return out


def _pipelines(
    module: _Modules, folder: Path, sources: dict[str, str], values: Any, taken: set[str]
) -> dict[str, tuple[str, dict, Path, int]]:
    """The `databricks_pipeline` resources of a module (every `.tf` file of its
    folder), in a bundle pipeline's shape: each `library`'s `notebook { path }` or
    `file { path }` (a `databricks_notebook` / `databricks_workspace_file`
    resource's `path` is its `source`, as for a job's task) or `glob { include }`,
    its `catalog`, `schema` (or `target`), `continuous` and `configuration`, with
    the module's values. Keyed by its resource name, made unique across modules."""
    out: dict[str, tuple[str, dict, Path, int]] = {}
    places = module.places(folder)
    named = _resource_texts(module, folder, values)
    for tf in sorted(folder.glob("*.tf")):
        document = module.parsed(tf)
        if isinstance(document, ConfigError):
            continue
        for name, body in _resources(document, _PIPELINE):
            body = values.resolved(body)
            libraries: list[dict[str, Any]] = []
            for library in body.get("library") or []:
                library = _one(library)
                for kind in ("notebook", "file"):
                    path = _text(_one(library.get(kind)).get("path"))
                    ref = _RESOURCE_PATH.match(path)
                    if ref:
                        path = sources.get(f"{ref.group(1)}.{ref.group(2)}", path)
                    if path:
                        libraries.append({kind: {"path": _local(path, places)}})
                include = _text(_one(library.get("glob")).get("include"))
                if include:
                    libraries.append({"glob": {"include": _local(include, places)}})
            configuration = body.get("configuration")
            spec = {
                "libraries": libraries,
                "catalog": _resource_attribute(_text(body.get("catalog")), named) or None,
                "schema": _resource_attribute(_text(body.get("schema") or body.get("target")), named) or None,
                "continuous": body.get("continuous") in (True, "true"),
                "configuration": {k: _text(v) for k, v in _one(configuration).items()} if configuration else {},
            }
            key = name if name not in taken and name not in out else f"{_label(folder, module.root)}:{name}"
            line = Source(tf, text=module.text(tf), hcl=True).line_of(("resource", _PIPELINE, name)) or 1
            out[name] = (key, spec, tf, line)
    return out


# `${databricks_catalog.main.name}`: an attribute of another resource of the module
_RESOURCE_ATTRIBUTE = re.compile(r"^\$\{([a-z][\w]*\.[\w-]+\.[\w-]+)\}$")


def _resource_texts(module: _Modules, folder: Path, values: Any) -> dict[str, str]:
    """`<kind>.<name>.<attribute>` -> its text, for every attribute of the module's
    resources whose value (after the module's values) is text without references:
    what `catalog = databricks_catalog.main.name` stands for."""
    out: dict[str, str] = {}
    for tf in sorted(folder.glob("*.tf")):
        document = module.parsed(tf)
        blocks = document.get("resource") if isinstance(document, dict) else None
        for block in blocks if isinstance(blocks, list) else ():
            for kind, named in block.items() if isinstance(block, dict) else ():
                for name, body in named.items() if isinstance(named, dict) else ():
                    for attribute, value in values.resolved(body).items() if isinstance(body, dict) else ():
                        text = _text(value) if isinstance(value, str) else ""
                        if text and "${" not in text:
                            out[f"{_text(kind)}.{_text(name)}.{attribute}"] = text
    return out


def _resource_attribute(value: str, named: dict[str, str]) -> str:
    """A value that is a whole reference to another resource's attribute (see
    `_resource_texts`) as that attribute's text; any other value as it is."""
    found = _RESOURCE_ATTRIBUTE.match(value)
    return named.get(found.group(1), value) if found else value


def _settings(spec: dict, sources: dict[str, str], places: tuple[Path, Path | None]) -> dict[str, Any]:
    """The Jobs API settings an HCL `databricks_job` body stands for."""
    settings: dict[str, Any] = {"name": _text(spec.get("name"))}
    if isinstance(spec.get("max_concurrent_runs"), int):
        settings["max_concurrent_runs"] = spec["max_concurrent_runs"]
    schedule = _one(spec.get("schedule"))
    if schedule:
        settings["schedule"] = {k: _text(v) for k, v in schedule.items() if not k.startswith("__")}
    if "continuous" in spec:  # runs all the time, one run at a time (`continuous {}` holds only its pause)
        settings["continuous"] = _plain(_one(spec["continuous"]))
    if _one(spec.get("trigger")):  # file arrival, table update, periodic: the job starts when they fire
        settings["trigger"] = _plain(_one(spec["trigger"]))
    parameters = [_one(p) for p in spec.get("parameter") or []]
    settings["parameters"] = [
        {"name": _text(p.get("name")), "default": _text(p.get("default"))} for p in parameters if p.get("name")
    ]
    git = _one(spec.get("git_source"))
    if git:  # its tasks' files come from a checkout of the repository (see `_task`'s `source`)
        settings["git_source"] = _plain(git)
    settings["tasks"] = [_task(_one(t), sources, places) for t in spec.get("task") or [] if _one(t).get("task_key")]
    return settings


def _task(block: dict, sources: dict[str, str], places: tuple[Path, Path | None]) -> dict[str, Any]:
    """The Jobs API task a `task` block stands for, in the bundle reader's shape, so
    that a task is read alike wherever it stands: at the top level, or as the
    `task` of a `for_each_task` (its files, a wheel's entry point, its `source`)."""
    task: dict[str, Any] = {"task_key": _text(block.get("task_key"))}
    depends = [_text(_one(d).get("task_key")) for d in block.get("depends_on") or []]
    if depends:
        task["depends_on"] = [{"task_key": d} for d in depends if d]
    for_each = _one(block.get("for_each_task"))
    if for_each:
        inner = _one(for_each.get("task"))
        task["for_each_task"] = {
            "inputs": _text(for_each.get("inputs")),
            "task": _task(inner, sources, places) if inner else {},
        }
        if isinstance(for_each.get("concurrency"), int):
            task["for_each_task"]["concurrency"] = for_each["concurrency"]
        return task
    for kind, path_key in _FILE_TASKS.items():
        body = _one(block.get(kind))
        if not body:
            continue
        path = _text(body.get(path_key))
        ref = _RESOURCE_PATH.match(path or "")
        if ref:
            path = sources.get(f"{ref.group(1)}.{ref.group(2)}", path)
        path = _local(path, places)  # relative to the module's folder, as task paths are read
        inner: dict[str, Any] = {path_key: path}
        if body.get("source"):  # `GIT`: the path is relative to the repository's root, not to this folder
            inner["source"] = _text(body["source"])
        params = body.get("base_parameters") or body.get("parameters")
        if isinstance(params, dict):
            inner["base_parameters"] = {k: _text(v) for k, v in params.items()}
        elif isinstance(params, list):
            inner["parameters"] = [_text(v) for v in params]
        task[kind] = inner
    sql_file = _one(_one(block.get("sql_task")).get("file"))
    if sql_file.get("path"):  # `sql_task { file { path source } }`: a SQL file, read as a bundle's
        task["sql_task"] = {"file": {k: _text(v) for k, v in sql_file.items() if k in ("path", "source")}}
    wheel = _one(block.get("python_wheel_task"))
    if wheel.get("entry_point"):  # followed to the project module its entry point names
        task["python_wheel_task"] = {
            k: _text(wheel[k]) for k in ("package_name", "entry_point") if isinstance(wheel.get(k), str)
        }
        if isinstance(wheel.get("parameters"), list):
            task["python_wheel_task"]["parameters"] = [_text(v) for v in wheel["parameters"]]
        elif isinstance(wheel.get("named_parameters"), dict):
            task["python_wheel_task"]["named_parameters"] = {k: _text(v) for k, v in wheel["named_parameters"].items()}
    dbt = _one(block.get("dbt_task"))
    if dbt:  # the dbt reader finds its project's nodes (`delta_lint.dbt`)
        task["dbt_task"] = {k: [_text(c) for c in v] if isinstance(v, list) else _text(v) for k, v in dbt.items()}
    pipeline = _PIPELINE_ID.match(_text(_one(block.get("pipeline_task")).get("pipeline_id")))
    if pipeline and f"{_PIPELINE}.{pipeline.group(1)}" in sources:  # runs the module's pipeline (`_pipelines`)
        task["pipeline_task"] = {
            "pipeline_id": f"${{resources.pipelines.{sources[f'{_PIPELINE}.{pipeline.group(1)}']}.id}}"
        }
    if _one(block.get("condition_task")):  # runs no file: its dependants still order after it
        task["condition_task"] = {}
    elif not any(kind in task for kind in (*_FILE_TASKS, "sql_task", "python_wheel_task", "dbt_task", "pipeline_task")):
        # a task of another kind: not analysed, as in a bundle, and named by its kind
        kind = next((k for k in _OTHER_TASKS if k in block), "unknown_task")
        task[kind] = {}
    return task


def _plain(block: dict) -> dict[str, Any]:
    """A block's attributes and nested blocks as Jobs API settings: strings without
    their quotes, a block written once as its dict (python-hcl2's own keys left out)."""
    return {
        k: _plain(_one(v)) if isinstance(v, (list, dict)) else _text(v)
        for k, v in block.items()
        if not k.startswith("__")
    }


def _one(value: Any) -> dict:
    """A block written once (hcl2 gives a list of one dict)."""
    if isinstance(value, list):
        value = value[0] if value else {}
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str:
    """An HCL string as written, without its quotes (python-hcl2 keeps them)."""
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value if isinstance(value, str) else ("" if value is None else str(value))


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0][:200] if str(err).strip() else type(err).__name__
