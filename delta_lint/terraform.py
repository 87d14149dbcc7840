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
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from delta_lint.bundle import Workflows, found_problem, job_from_settings, listing
from delta_lint.config import ConfigError
from delta_lint.safeio import read_input_text
from delta_lint.schema import Source, TerraformJob, convert

# `${databricks_notebook.setup.path}`, `${databricks_workspace_file.f.path}`
_RESOURCE_PATH = re.compile(r"^\$\{(databricks_notebook|databricks_workspace_file)\.([\w-]+)\.path\}$")
_MODULE_FOLDER = "${path.module}/"
_KIND = "databricks_job"
_FILE_TASKS = {"notebook_task": "notebook_path", "spark_python_task": "python_file"}


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
    deployments = _deployments(root, [Path(f).parent for f in found], module)
    defined: list[tuple[str, str, Any]] = []  # (deployment root, job name, job)
    for file in map(Path, found):
        document = module.parsed(file)
        if isinstance(document, ConfigError):
            out.problems.append(found_problem(file, root, document))
            continue
        notebooks, module_files = module.sources(file.parent)
        jobs = list(_resources(document, _KIND))
        for key, spec in jobs:
            try:  # the blocks delta-lint reads have the provider's shape (`task = 5` is none)
                convert(spec, TerraformJob, Source(file, text=module.text(file), hcl=True), ("resource", _KIND, key))
            except ConfigError as err:
                where, _ = found_problem(file, root, err)
                out.problems.append((where, f"{err.detail}; job `{key}` is not analysed"))
                continue
            settings = _settings(spec, notebooks)
            name = str(settings.get("name") or key)
            job = job_from_settings(name, settings, file, root, base=file.parent)
            defined += [
                (deployment, name, job) for deployment in deployments.get(file.parent, (_label(file.parent, root),))
            ]
        if jobs:  # the module's other files name the notebooks: a change there changes the jobs
            out.files += [f for f in dict.fromkeys([file, *module_files]) if f not in read]
            read.update(module_files, [file])
    _keyed(out, defined)
    out.source = ", ".join(str(f.relative_to(root)) for f in out.files if f.is_relative_to(root))
    return out


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
                    callers.setdefault((file.parent / source).resolve(), set()).add(file.parent.resolve())
    out: dict[Path, tuple[str, ...]] = {}
    for folder in folders:
        seen: set[Path] = set()
        todo, tops = [folder.resolve()], set()
        while todo:
            here = todo.pop()
            if here in seen:
                continue
            seen.add(here)
            above = callers.get(here)
            if above:
                todo += sorted(above)
            else:
                tops.add(_label(here, root))
        out[folder] = tuple(sorted(tops))
    return out


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
                    out.update(_sources(document, folder, self.root))
            self._sources[folder] = (out, files)
        return self._sources[folder]


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


def _sources(document: dict, folder: Path, root: Path) -> dict[str, str]:
    """`databricks_notebook.<name>` -> the project path its `source` names."""
    out = {}
    for kind in ("databricks_notebook", "databricks_workspace_file"):
        for name, body in _resources(document, kind):
            source = _text(body.get("source")).replace(_MODULE_FOLDER, "")
            if source and "${" not in source:
                try:
                    path = (folder / source).resolve()
                except (OSError, ValueError, RuntimeError):  # a NUL byte, a link loop
                    continue
                if path.is_relative_to(root.resolve()):
                    out[f"{kind}.{name}"] = str(path)
    return out


def _settings(spec: dict, sources: dict[str, str]) -> dict[str, Any]:
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
    settings["tasks"] = [_task(_one(t), sources) for t in spec.get("task") or [] if _one(t).get("task_key")]
    return settings


def _task(block: dict, sources: dict[str, str]) -> dict[str, Any]:
    task: dict[str, Any] = {"task_key": _text(block.get("task_key"))}
    depends = [_text(_one(d).get("task_key")) for d in block.get("depends_on") or []]
    if depends:
        task["depends_on"] = [{"task_key": d} for d in depends if d]
    for kind, path_key in _FILE_TASKS.items():
        body = _one(block.get(kind))
        if not body:
            continue
        path = _text(body.get(path_key))
        ref = _RESOURCE_PATH.match(path or "")
        if ref:
            path = sources.get(f"{ref.group(1)}.{ref.group(2)}", path)
        path = path.replace(_MODULE_FOLDER, "")  # relative to the module's folder, as task paths are read
        inner: dict[str, Any] = {path_key: path}
        params = body.get("base_parameters") or body.get("parameters")
        if isinstance(params, dict):
            inner["base_parameters"] = {k: _text(v) for k, v in params.items()}
        elif isinstance(params, list):
            inner["parameters"] = [_text(v) for v in params]
        task[kind] = inner
    dbt = _one(block.get("dbt_task"))
    if dbt:  # the dbt reader finds its project's nodes (`delta_lint.dbt`)
        task["dbt_task"] = {k: [_text(c) for c in v] if isinstance(v, list) else _text(v) for k, v in dbt.items()}
    if _one(block.get("condition_task")):  # runs no file: its dependants still order after it
        task["condition_task"] = {}
    elif not any(kind in task for kind in (*_FILE_TASKS, "dbt_task")):
        task["unknown_task"] = {}  # a task of another kind: not analysed, as in a bundle
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
