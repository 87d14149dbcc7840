"""Jobs defined in dbx deployment files (`conf/deployment.yml`).

dbx (Databricks Labs' deployment tool before bundles) deploys the workflows of a
deployment file: `environments: <env>: workflows: [...]` (older files say `jobs:`;
before dbx 0.7 a JSON file held the environments at its top level), each workflow a
Jobs API 2.1 job (`tasks`) or a 2.0 one (one task's settings at the workflow's
level). `dbx deploy --environment <env>` deploys one environment to its own
workspace: workflows of different environments never run in one workspace, so
one environment is judged, as one bundle target is. Files are read as data:
nothing is rendered or run.

- `file://jobs/x.py` (and `file:fuse://`) name a file of the dbx project (the
  folder holding `conf/` and `.dbx/`), which dbx uploads: a task's file, and in a
  task's parameters the path the code opens (`--conf-file file:fuse://conf/x.yml`)
  when the project has that file, else a value only a run knows;
- Jinja (a `.j2` file, or `inplace_jinja_support` in `.dbx/project.json`) is
  rendered only by a deployment: a value holding `{{ ... }}` is unknown, and a
  file with `{% ... %}` blocks, whose workflows only a rendering tells, is a
  diagnostic at the block's line;
- YAML anchors and `<<:` merges are read as YAML reads them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from delta_lint.bundle import LineDict, LineLoader, Workflows, found_problem, job_from_settings, probe_file
from delta_lint.config import ConfigError, load_yaml
from delta_lint.safeio import read_input_text
from delta_lint.schema import Source, load_json, located

DEFAULT_ENVIRONMENT = "default"  # what `dbx deploy` deploys without `--environment`
_PREFIXES = ("file:fuse://", "file://")
# a value only a deployment knows (`bundle._argument` reads it as None)
_UNKNOWN = "{{dbx.unknown}}"
_JINJA_BLOCK = re.compile(r"\{%")
# task settings that name a file dbx uploads, and the key of its path
_FILE_KEYS = {"spark_python_task": "python_file", "notebook_task": "notebook_path"}
# a Jobs API 2.0 workflow: one task's settings at the workflow's level
_SINGLE_TASK = (
    "notebook_task",
    "spark_python_task",
    "python_wheel_task",
    "spark_jar_task",
    "spark_submit_task",
    "pipeline_task",
    "sql_task",
    "dbt_task",
)


def load_found_dbx(root: Path, found: tuple[str, ...], target: str | None = None) -> Workflows:
    """The workflows of one environment of each dbx deployment file found: `target`
    where a file defines it, else dbx's `default`, else the file's only one (a
    note says which, and which others `--target` judges). A file in a `conf`
    folder (dbx's own place) that cannot be read, and a workflow dbx would refuse,
    are reported at their line; other files of the name that are no deployment
    file (a Kubernetes `deployment.yaml`) are passed over."""
    out = Workflows()
    out.listings.append(("dbx", str(root), found))
    for file in map(Path, found):
        own_place = file.parent.name == "conf"
        base = _project_folder(file, root)
        jinja = file.name.endswith(".j2") or _inplace_jinja(base, root)
        try:
            text = read_input_text(file, root)
            if jinja and (block := _JINJA_BLOCK.search(text)):  # no YAML or JSON before it is rendered
                line = text.count("\n", 0, block.start()) + 1
                why = "a Jinja `{% ... %}` block: which workflows it deploys only a rendering tells"
                raise located(file, line, why)
            doc, source = _parse(text, file)
        except ConfigError as err:
            if own_place or jinja:
                out.problems.append(found_problem(file, root, err))
                out.files.append(file)
            continue
        except (OSError, UnicodeDecodeError, ValueError) as err:
            if own_place:
                why = ConfigError(str(err), None, f"cannot read it: {err}")
                out.problems.append(found_problem(file, root, why))
                out.files.append(file)
            continue
        environments, prefix = _environments(doc)
        chosen, why = _chosen(list(environments or ()), target)
        if environments is None or chosen is None:
            continue
        spec = environments[chosen]
        keys = (*prefix, chosen)
        listed_key = "workflows" if isinstance(spec, dict) and "workflows" in spec else "jobs"
        workflows = spec.get(listed_key) if isinstance(spec, dict) else None
        if not isinstance(workflows, list) and not own_place:  # `environments` of another tool's file
            continue
        out.files.append(file)
        out.notes.append(f"judged dbx {_shown(file, root)}: environment `{chosen}` ({why})")
        if not isinstance(workflows, list):  # dbx refuses it
            line = source.line_of(keys)
            detail = f"environment `{chosen}` of a dbx deployment file needs a `workflows` list"
            out.problems.append(found_problem(file, root, located(file, line, detail)))
            continue
        for i, workflow in enumerate(workflows):
            where = (*keys, listed_key, i)
            _add_workflow(out, workflow, where, file, source, base, root, jinja)
    out.source = ", ".join(_shown(f, root) for f in out.files)
    # the project file that turns Jinja on: its edits read the deployment files again
    out.files += sorted({p for p in (_project_file(f, root) for f in out.files) if p is not None})
    return out


def _parse(text: str, file: Path) -> tuple[Any, Source]:
    if ".json" in file.suffixes:
        return load_json(text, file, "a dbx deployment file"), Source(file, text=text)
    return load_yaml(text, file, LineLoader, "a dbx deployment file", aliases=True)


def _environments(doc: Any) -> tuple[dict | None, tuple]:
    """The environments of a deployment file and their key path: `environments:`,
    or (before dbx 0.7, JSON) the top level, each environment holding `jobs`."""
    if not isinstance(doc, dict):
        return None, ()
    if isinstance(doc.get("environments"), dict):
        return doc["environments"], ("environments",)
    if (
        doc
        and "build" not in doc
        and all(isinstance(v, dict) and isinstance(v.get("jobs"), list) for v in doc.values())
    ):
        return doc, ()
    return None, ()


def _chosen(names: list[str], target: str | None) -> tuple[str | None, str]:
    others = lambda chosen: [n for n in names if n != chosen]  # noqa: E731
    said = lambda chosen: (  # noqa: E731
        f"; also defined: {', '.join(f'`{n}`' for n in others(chosen))}, which `--target` judges"
        if others(chosen)
        else ""
    )
    if target and target in names:
        return target, "chosen with --target or the configuration's `target:`" + said(target)
    missed = f"`{target}` names none of its environments; " if target else ""
    if DEFAULT_ENVIRONMENT in names:
        return DEFAULT_ENVIRONMENT, f"{missed}the environment `dbx deploy` deploys by default" + said("default")
    if len(names) == 1:
        return names[0], f"{missed}its only environment"
    if not names:
        return None, ""
    return names[0], (
        f"{missed}none is named `default`, which `dbx deploy` deploys without `--environment`: the first is "
        "judged" + said(names[0])
    )


def _add_workflow(
    out: Workflows, workflow: Any, keys: tuple, file: Path, source: Source, base: Path, root: Path, jinja: bool
) -> None:
    if not isinstance(workflow, dict):
        return
    line = getattr(workflow, "line", None) or source.line_of(keys) or 1
    name = workflow.get("name")
    if not isinstance(name, str) or not name:
        why = "a dbx workflow needs a `name`; it is not analysed"
        out.problems.append(found_problem(file, root, located(file, line, why)))
        return
    if name in out.jobs:
        defined = out.jobs[name].location
        if defined is not None and defined.path == _shown(file, root):
            why = f"dbx refuses a second workflow named `{name}` in one environment; this one is not analysed"
            out.problems.append(found_problem(file, root, located(file, line, why)))
        else:  # another deployment file deploys a job of that name: one job, updated by whichever runs last
            out.notes.append(
                f"dbx workflow `{name}` of {_shown(file, root)} is deployed by {defined.path if defined else 'another'}"
                " file too: one job of the workspace, read once (as the first file defines it)"
            )
        return
    if workflow.get("workflow_type") == "pipeline":
        out.notes.append(
            f"dbx workflow `{name}` is a Delta Live Tables pipeline, whose source files are not read from a "
            "deployment file"
        )
        return
    settings = LineDict(workflow)
    settings.line = line
    if not isinstance(workflow.get("tasks"), list):  # Jobs API 2.0: the workflow is its one task
        one = LineDict({k: workflow[k] for k in _SINGLE_TASK if k in workflow}, task_key=name)
        one.line = line
        settings["tasks"] = [one] if len(one) > 1 else []
    dynamic: dict[str, str] = {}
    tasks = []
    for task in settings["tasks"]:
        if not isinstance(task, dict):
            continue
        placed = LineDict(task)
        placed.line = getattr(task, "line", line)
        tasks.append(_task(placed, base, root, jinja, dynamic, out))
    settings["tasks"] = tasks
    if jinja:
        settings = _without_jinja(settings)
    job = job_from_settings(name, settings, file, root, base=base)
    for key, why in dynamic.items():
        if key in job.tasks:
            job.tasks[key] = _with_problem(job.tasks[key], why)
    out.jobs[name] = job


def _task(task: LineDict, base: Path, root: Path, jinja: bool, dynamic: dict[str, str], out: Workflows) -> LineDict:
    """A task's settings with its `file://` paths the project's and its parameters as
    the code sees them."""
    key = str(task.get("task_key"))
    for kind, path_key in _FILE_KEYS.items():
        inner = task.get(kind)
        if not isinstance(inner, dict):
            continue
        inner = dict(inner)
        path = inner.get(path_key)
        if isinstance(path, str):
            if jinja and "{{" in path:
                dynamic[key] = f"its path `{path}` is a Jinja template, which only a deployment renders"
                inner[path_key] = None
            elif path.startswith(_PREFIXES):
                inner[path_key] = path.split("://", 1)[1]
        task[kind] = inner
    for kind in ("spark_python_task", "python_wheel_task", "notebook_task"):
        inner = task.get(kind)
        if not isinstance(inner, dict):
            continue
        for field in ("parameters", "named_parameters", "base_parameters"):
            if field in inner:
                inner[field] = _parameters(inner[field], base, root, jinja, out)
    return task


def _parameters(given: Any, base: Path, root: Path, jinja: bool, out: Workflows) -> Any:
    if isinstance(given, list):
        return [_parameter(v, base, root, jinja, out) for v in given]
    if isinstance(given, dict):
        return {k: _parameter(v, base, root, jinja, out) for k, v in given.items()}
    return given


def _parameter(value: Any, base: Path, root: Path, jinja: bool, out: Workflows) -> Any:
    """A parameter as the code sees it: a `file://` or `file:fuse://` reference the
    project file dbx uploads (its path under the project root, as the value layer
    reads `__file__`), or unknown when the project has no such file; a Jinja
    expression unknown."""
    if not isinstance(value, str):
        return value
    if jinja and ("{{" in value or "{%" in value):
        return _UNKNOWN
    if not value.startswith(_PREFIXES):
        return value
    from delta_lint.frontend.values.brains import PROJECT_ROOT

    probe = probe_file("locate", value.split("://", 1)[1], base, root)
    out.listings.append(probe)
    return f"{PROJECT_ROOT}/{probe[2][0]}" if probe[2] else _UNKNOWN


def _without_jinja(value: Any) -> Any:
    """Settings with every text holding a Jinja expression made unknown (a schedule's
    cron, a cluster's name): only a deployment renders them."""
    if isinstance(value, str):
        return _UNKNOWN if "{{" in value else value
    if isinstance(value, list):
        return [_without_jinja(v) for v in value]
    if isinstance(value, dict):
        out = LineDict({k: _without_jinja(v) for k, v in value.items()})
        out.line = getattr(value, "line", 1)
        return out
    return value


def _with_problem(task: Any, why: str) -> Any:
    from dataclasses import replace

    return replace(task, files=(), problem=why)


def _project_folder(file: Path, root: Path) -> Path:
    """The dbx project's folder, where `file://` paths start: the nearest folder
    holding `.dbx`, else the parent of `conf`, else the configuration root."""
    here = file.parent
    top = root.resolve()
    while True:
        if (here / ".dbx").is_dir():
            return here
        if here.resolve() == top or here.parent == here:
            break
        here = here.parent
    return file.parent.parent if file.parent.name == "conf" else root


def _project_file(file: Path, root: Path) -> Path | None:
    project = _project_folder(file, root) / ".dbx" / "project.json"
    return project if project.is_file() else None


def _inplace_jinja(base: Path, root: Path) -> bool:
    """`.dbx/project.json` says `"inplace_jinja_support": true`: dbx renders every
    deployment file as a Jinja template."""
    project = base / ".dbx" / "project.json"
    if not project.is_file():
        return False
    try:
        doc = json.loads(read_input_text(project, root))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("inplace_jinja_support") is True


def _shown(file: Path, root: Path) -> str:
    try:
        return file.relative_to(root).as_posix()
    except ValueError:
        return file.as_posix()
