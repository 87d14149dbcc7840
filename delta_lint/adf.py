"""Jobs defined as Azure Data Factory (or Synapse) pipelines in their git layout.

Azure teams often run their Databricks notebooks from Data Factory instead of a
bundle: the factory's git folder holds `pipeline/<name>.json` (the pipeline's
`activities`: `DatabricksNotebook`, `DatabricksSparkPython`, `DatabricksJob`,
`ExecutePipeline`, containers such as `ForEach`, `IfCondition`, `Switch`,
`Until`, ordered by `dependsOn`), `trigger/<name>.json` (`ScheduleTrigger`,
`TumblingWindowTrigger`, `BlobEventsTrigger`, ...), and its linked services and
datasets, which say nothing about when code runs. A published ARM template
(`ARMTemplateForFactory.json`) holds the same pipelines and triggers as
`resources`. This module reads those files as JSON (nothing is evaluated) into
the Jobs API settings the bundle reader already understands, one job per
pipeline, so the schedule treats them like any other job:

- an activity is a task; activities with no `dependsOn` path between them run at
  the same time in a run;
- the pipeline's `concurrency` is its `max_concurrent_runs`; without one, Data
  Factory starts every run it is asked for at once (no limit), so two runs of one
  pipeline can overlap;
- a started `ScheduleTrigger` is the job's cron where its recurrence maps onto one
  (else a schedule delta-lint cannot evaluate, an assumed overlap); a tumbling-window
  or event trigger starts it at any time; a pipeline no started trigger names is
  started by hand.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from delta_lint.bundle import Job, Workflows, found_problem, job_from_settings, listing
from delta_lint.config import ConfigError
from delta_lint.safeio import read_input_text
from delta_lint.schema import Source, load_json, located

# Data Factory sets no limit on a pipeline's concurrent runs when it gives no
# `concurrency`: counted as this many (a run note says so)
UNLIMITED_RUNS = 1000
# a ForEach without `isSequential: true` runs this many iterations at once when it
# sets no `batchCount` (Data Factory's default)
DEFAULT_BATCH_COUNT = 20
MAX_ACTIVITY_DEPTH = 16  # containers inside containers (Data Factory allows few levels)

_PIPELINE_TYPES = ("Microsoft.DataFactory/factories/pipelines", "Microsoft.Synapse/workspaces/pipelines")
_TRIGGER_TYPES = ("Microsoft.DataFactory/factories/triggers", "Microsoft.Synapse/workspaces/triggers")
# an ARM resource's name: `[concat(parameters('factoryName'), '/pl_load')]`, or `factory/pl_load`
_ARM_NAME = re.compile(r"'/([^']+)'\)\]$|^[^\[/]*/([^/]+)$")
# `@pipeline().parameters.x` (a whole expression) and `@{pipeline().parameters.x}` in text
_PARAMETER = re.compile(r"^@pipeline\(\)\.parameters\.([A-Za-z_]\w*)$")
_PARAMETER_IN_TEXT = re.compile(r"@\{\s*pipeline\(\)\.parameters\.([A-Za-z_]\w*)\s*\}")
_ITEM = re.compile(r"^@item\(\)((?:\.[A-Za-z_]\w*)*)$")
_ITEM_IN_TEXT = re.compile(r"@\{\s*item\(\)((?:\.[A-Za-z_]\w*)*)\s*\}")
_OTHER_IN_TEXT = re.compile(r"@\{[^}]*\}")
_UNKNOWN = "{{adf.expression}}"  # a value only a run knows (`bundle._argument` reads it as None)

# Windows time zone names Data Factory's recurrence uses -> IANA names the cron model knows
_WINDOWS_ZONES = {
    "UTC": "UTC",
    "Coordinated Universal Time": "UTC",
    "GMT Standard Time": "Europe/London",
    "W. Europe Standard Time": "Europe/Berlin",
    "Romance Standard Time": "Europe/Paris",
    "Central Europe Standard Time": "Europe/Budapest",
    "E. Europe Standard Time": "Europe/Chisinau",
    "Eastern Standard Time": "America/New_York",
    "Central Standard Time": "America/Chicago",
    "Mountain Standard Time": "America/Denver",
    "Pacific Standard Time": "America/Los_Angeles",
    "India Standard Time": "Asia/Kolkata",
    "China Standard Time": "Asia/Shanghai",
    "Tokyo Standard Time": "Asia/Tokyo",
    "AUS Eastern Standard Time": "Australia/Sydney",
    "E. South America Standard Time": "America/Sao_Paulo",
}
_WEEKDAYS = {
    "monday": "MON",
    "tuesday": "TUE",
    "wednesday": "WED",
    "thursday": "THU",
    "friday": "FRI",
    "saturday": "SAT",
    "sunday": "SUN",
}
_UNREADABLE = "a schedule delta-lint cannot evaluate"  # `schedule._started_by_hand` reads it as unknown


class _Placed(dict):
    """Settings that know their line, as the bundle reader's YAML mappings do."""

    line = 1


def _placed(value: dict, line: int | None) -> _Placed:
    out = _Placed(value)
    out.line = line or 1
    return out


def load_found_adf(root: Path, found: tuple[str, ...] | None = None) -> Workflows:
    """One job per Data Factory pipeline of the project's factory folders and ARM
    templates, scheduled by the factory's triggers. A file in the factory's layout
    that cannot be read is reported at its line (`DL003`); JSON files of other shapes
    that merely say `"activities"` are passed over."""
    out = Workflows()
    found = listing("adf", str(root)) if found is None else found
    out.listings.append(("adf", str(root), found))
    pipelines: dict[str, tuple[dict, Path, Source, tuple]] = {}  # name -> (properties, file, source, keys)
    triggers: list[tuple[dict, Path, Source, tuple]] = []
    trigger_folders: set[Path] = set()
    for file in map(Path, found):
        factory_file = _in_layout(file)
        try:
            text = read_input_text(file, root)
            doc = load_json(text, file, "a Data Factory file")
        except ConfigError as err:
            if factory_file:
                out.problems.append(_problem(file, root, err))
            continue
        except (OSError, UnicodeDecodeError, ValueError) as err:
            if factory_file:
                out.problems.append(_problem(file, root, ConfigError(str(err), None, f"cannot read it: {err}")))
            continue
        source = Source(file, text=text)
        kind = _kind(doc)
        if kind is None:
            continue
        out.files.append(file)
        if kind == "arm":
            for i, resource in enumerate(doc.get("resources") or []):
                if not isinstance(resource, dict) or not isinstance(resource.get("properties"), dict):
                    continue
                name = _arm_name(resource.get("name"))
                keys = ("resources", i, "properties")
                if resource.get("type") in _PIPELINE_TYPES and name:
                    pipelines.setdefault(name, (resource["properties"], file, source, keys))
                elif resource.get("type") in _TRIGGER_TYPES and name:
                    triggers.append(({**resource["properties"], "name": name}, file, source, keys))
            continue
        props = doc["properties"]
        name = str(doc.get("name") or _unnamed(file))
        if kind == "pipeline":
            if not isinstance(props.get("activities"), list):
                line = source.line_of(("properties", "activities"))
                why = "`properties.activities` of a Data Factory pipeline must be a list; its pipeline is not analysed"
                out.problems.append(_problem(file, root, located(file, line, why)))
                continue
            pipelines.setdefault(name, (props, file, source, ("properties",)))
            if file.parent.name == "pipeline":  # the factory's triggers are in its `trigger` folder
                trigger_folders.add(file.parent.parent / "trigger")
        else:
            triggers.append(({**props, "name": name}, file, source, ("properties",)))
    for folder in sorted(trigger_folders):
        listed = listing("json", str(folder))
        out.listings.append(("json", str(folder), listed))
        for file in map(Path, listed):
            if file in out.files:
                continue
            try:
                text = read_input_text(file, root)
                doc = load_json(text, file, "a Data Factory trigger")
            except ConfigError as err:
                out.problems.append(_problem(file, root, err))
                out.files.append(file)
                continue
            except (OSError, UnicodeDecodeError, ValueError):
                continue
            out.files.append(file)
            if _kind(doc) == "trigger":
                triggers.append(
                    (
                        {**doc["properties"], "name": str(doc.get("name") or file.stem)},
                        file,
                        Source(file, text=text),
                        ("properties",),
                    )
                )
    starting = _triggers_by_pipeline(triggers, root)
    for name, (props, file, source, keys) in sorted(pipelines.items()):
        job = _pipeline_job(name, props, file, source, keys, root, out)
        _schedule(job, starting.get(name, []), out)
        _given_by_triggers(job, starting.get(name, []))
        out.jobs.setdefault(job.key, job)
    out.source = ", ".join(_label(f, root) for f in out.files)
    return out


def _unnamed(file: Path) -> str:
    """The name of a pipeline whose file gives none: a Fabric item's folder
    (`Load.DataPipeline/pipeline-content.json` is `Load`), else the file's."""
    if file.name == "pipeline-content.json" and file.parent.suffix == ".DataPipeline":
        return file.parent.stem
    return file.stem


def _problem(file: Path, root: Path, err: ConfigError) -> tuple:
    where, why = found_problem(file, root, err)
    return where, why.replace("its jobs are not analysed", "its pipelines are not analysed")


def _in_layout(file: Path) -> bool:
    """Whether `file` sits where a factory keeps its pipelines and triggers (its
    problems are then the factory's, reported; elsewhere a JSON that does not
    parse is no pipeline and is passed over)."""
    return file.parent.name in ("pipeline", "trigger") or file.name.startswith("ARMTemplateForFactory")


def _kind(doc: Any) -> str | None:
    """`pipeline`, `trigger`, `arm` (a template whose resources hold them) or None."""
    if not isinstance(doc, dict):
        return None
    if isinstance(doc.get("resources"), list) and any(
        isinstance(r, dict) and r.get("type") in (*_PIPELINE_TYPES, *_TRIGGER_TYPES) for r in doc["resources"]
    ):
        return "arm"
    props = doc.get("properties")
    if not isinstance(props, dict):
        return None
    kind = doc.get("type")
    if kind in _PIPELINE_TYPES or (kind is None and "activities" in props):
        return "pipeline"
    if kind in _TRIGGER_TYPES or (
        kind is None
        and str(props.get("type", "")).endswith("Trigger")
        and ("pipelines" in props or "pipeline" in props)
    ):
        return "trigger"
    return None


def _arm_name(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    found = _ARM_NAME.search(value.strip())
    return (found.group(1) or found.group(2)) if found else None


def _label(file: Path, root: Path) -> str:
    try:
        return file.relative_to(root).as_posix()
    except ValueError:
        return file.as_posix()


# -- pipelines -----------------------------------------------------------------------------


class _Flattened:
    """A pipeline's activities as Jobs API tasks: a container's inner activities are
    tasks of their own (`<container>/<activity>`), between the container's
    dependencies and the container itself, which waits for them."""

    def __init__(self, pipeline: str, source: Source) -> None:
        self.pipeline = pipeline
        self.source = source
        self.tasks: list[_Placed] = []
        self.no_wait: dict[str, list[str]] = {}  # ExecutePipeline without waitOnCompletion -> its dependencies
        self.starts: dict[str, tuple[str, tuple[str, ...]]] = {}  # task -> (pipeline or job it starts, parameters)
        self.notes: list[str] = []
        self.dynamic: dict[str, str] = {}  # task -> why its file is known only to a run

    def add(
        self,
        activities: list,
        keys: tuple,
        prefix: str = "",
        after: tuple[str, ...] = (),
        batch: int | None = None,
        items: Any = None,
        depth: int = 0,
    ) -> list[str]:
        """Tasks for `activities` (at `keys` in the file), each after `after` and its
        own `dependsOn`; `batch`: the iterations of an enclosing ForEach that run at
        once. The keys of the tasks made."""
        made: list[str] = []
        names = {str(a.get("name")) for a in activities if isinstance(a, dict) and a.get("name")}
        for i, activity in enumerate(activities):
            if not isinstance(activity, dict) or not activity.get("name"):
                continue
            key = prefix + str(activity["name"])
            line = self.source.line_of((*keys, i))
            own = [
                prefix + str(d.get("activity"))
                for d in activity.get("dependsOn") or []
                if isinstance(d, dict) and str(d.get("activity")) in names
            ]
            if batch is not None and batch > 1:  # iterations run at once: one's later activity meets another's earlier
                own = []
            depends = own or list(after)
            made += self._activity(activity, key, depends, line, (*keys, i), batch, items, depth)
        return made

    def _activity(
        self, activity: dict, key: str, depends: list[str], line: int | None, keys: tuple, batch, items, depth: int
    ) -> list[str]:
        kind = str(activity.get("type", ""))
        props = activity.get("typeProperties") if isinstance(activity.get("typeProperties"), dict) else {}
        spec: dict[str, Any] = {"task_key": key, "depends_on": [{"task_key": d} for d in depends]}
        inner_keys = (*keys, "typeProperties")
        if depth < MAX_ACTIVITY_DEPTH and kind in ("ForEach", "Until", "IfCondition", "Switch"):
            inner: list[str] = []
            if kind == "ForEach":
                sequential = props.get("isSequential") is True
                count = props.get("batchCount")
                count = count if isinstance(count, int) and not isinstance(count, bool) and count >= 1 else None
                runs = 1 if sequential else count or DEFAULT_BATCH_COUNT
                runs = max(runs, batch or 1)
                inner = self.add(
                    _list(props.get("activities")),
                    (*inner_keys, "activities"),
                    key + "/",
                    tuple(depends),
                    runs,
                    props.get("items"),
                    depth + 1,
                )
            elif kind == "Until":  # its iterations follow one another
                inner = self.add(
                    _list(props.get("activities")),
                    (*inner_keys, "activities"),
                    key + "/",
                    tuple(depends),
                    batch,
                    items,
                    depth + 1,
                )
            else:  # one branch runs in a run: each after the one before, so no two are paired within a run
                branches = (
                    [("ifTrueActivities",), ("ifFalseActivities",)]
                    if kind == "IfCondition"
                    else [("cases", j, "activities") for j in range(len(_list(props.get("cases"))))]
                    + [("defaultActivities",)]
                )
                before = tuple(depends)
                filled = 0  # branches that run an activity
                for branch in branches:
                    value: Any = props
                    for part in branch:
                        value = (
                            value.get(part)
                            if isinstance(value, dict)
                            else value[part]
                            if isinstance(value, list) and isinstance(part, int) and part < len(value)
                            else None
                        )
                    made = self.add(_list(value), (*inner_keys, *branch), key + "/", before, batch, items, depth + 1)
                    if made:
                        inner += made
                        before = tuple(made)
                        filled += 1
                if filled > 1:
                    self.notes.append(
                        f"{kind} `{key}` of pipeline `{self.pipeline}`: one of its branches runs in a run, so its "
                        "branches' activities are not paired with each other within a run"
                    )
            spec["depends_on"] = [{"task_key": k} for k in inner] or spec["depends_on"]
            spec["condition_task"] = {}
            self.tasks.append(_placed(spec, line))
            return [*inner, key]
        if kind in ("DatabricksNotebook", "DatabricksSparkPython"):
            notebook = kind == "DatabricksNotebook"
            written = props.get("notebookPath" if notebook else "pythonFile")
            path = _value(written)
            if isinstance(path, str) and "{{" in path:  # `@pipeline().parameters.notebook`, `@concat(...)`
                shown = written.get("value") if isinstance(written, dict) else written
                self.dynamic[key] = f"its {'notebook path' if notebook else 'Python file'} is the expression `{shown}`"
                path = None
            given = _parameters(props.get("baseParameters" if notebook else "parameters"))
            if notebook:
                spec["notebook_task"] = {"notebook_path": path, "base_parameters": given}
            else:
                spec["spark_python_task"] = {"python_file": path, "parameters": given}
        elif kind == "ExecutePipeline":
            reference = props.get("pipeline")
            child = reference.get("referenceName") if isinstance(reference, dict) else None
            spec["run_job_task"] = {}
            if isinstance(child, str) and child:
                given = props.get("parameters")
                self.starts[key] = (child, tuple(sorted(given)) if isinstance(given, dict) else ())
            if props.get("waitOnCompletion") is not True:  # Data Factory's default: the next activity starts at once
                self.no_wait[key] = depends
        elif kind == "DatabricksJob":
            job = props.get("jobId") if props.get("jobId") is not None else props.get("jobName")
            spec["run_job_task"] = {}
            named = _value(job)
            if isinstance(named, str) and named and "{{" not in named:
                given = props.get("jobParameters")
                self.starts[key] = (named, tuple(sorted(given)) if isinstance(given, dict) else ())
        else:  # copies, lookups, waits, web calls: no project code; kept for the order they give
            spec["condition_task"] = {}
        if batch is not None and ("notebook_task" in spec or "spark_python_task" in spec):
            inner_spec = {k: v for k, v in spec.items() if k != "depends_on"}
            spec = {
                "task_key": key,
                "depends_on": spec["depends_on"],
                "for_each_task": {"concurrency": batch, "inputs": _value(items), "task": inner_spec},
            }
        self.tasks.append(_placed(spec, line))
        return [key]

    def settled(self) -> list[_Placed]:
        """The tasks, a wait on an ExecutePipeline that does not wait for its child
        replaced by that activity's own dependencies (it ends as soon as the child starts)."""

        def resolved(key: str, seen: frozenset[str] = frozenset()) -> list[str]:
            if key not in self.no_wait or key in seen:
                return [key]
            return [k for d in self.no_wait[key] for k in resolved(d, seen | {key})]

        for spec in self.tasks:
            deps = [k for d in spec.get("depends_on") or [] for k in resolved(d["task_key"])]
            spec["depends_on"] = [{"task_key": d} for d in dict.fromkeys(deps)]
        return self.tasks


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _value(value: Any) -> Any:
    """A value as the code sees it, in the bundle reader's terms: a literal as
    written; `@pipeline().parameters.x` the job's parameter `{{job.parameters.x}}`
    (a named input); `@item()` the ForEach's `{{input}}`; any other expression a
    value only a run knows."""
    if isinstance(value, dict) and value.get("type") == "Expression":
        value = value.get("value")
        if isinstance(value, str) and not value.startswith("@"):
            value = "@" + value
    if not isinstance(value, str):
        return value
    if value.startswith("@@"):  # an escaped `@`: the text itself
        return value[1:]
    if not value.startswith("@"):
        return value
    if found := _PARAMETER.fullmatch(value.strip()):
        return "{{job.parameters." + found.group(1) + "}}"
    if found := _ITEM.fullmatch(value.strip()):
        return "{{input" + found.group(1) + "}}"
    if value.startswith("@{") or "@{" in value:
        text = _PARAMETER_IN_TEXT.sub(lambda m: "{{job.parameters." + m.group(1) + "}}", value)
        text = _ITEM_IN_TEXT.sub(lambda m: "{{input" + m.group(1) + "}}", text)
        text = _OTHER_IN_TEXT.sub(_UNKNOWN, text)
        return text[1:] if text.startswith("@") and not text.startswith("@{") else text
    return _UNKNOWN


def _parameters(given: Any) -> Any:
    if isinstance(given, dict):
        return {str(k): _value(v) for k, v in given.items()}
    if isinstance(given, list):
        return [_value(v) for v in given]
    return {}


def _pipeline_job(name: str, props: dict, file: Path, source: Source, keys: tuple, root: Path, out: Workflows) -> Job:
    flat = _Flattened(name, source)
    flat.add(_list(props.get("activities")), (*keys, "activities"))
    concurrency = props.get("concurrency")
    limited = isinstance(concurrency, int) and not isinstance(concurrency, bool) and concurrency >= 1
    declared = props.get("parameters") if isinstance(props.get("parameters"), dict) else {}
    settings = _placed(
        {
            "name": name,
            "max_concurrent_runs": concurrency if limited else UNLIMITED_RUNS,
            "parameters": [
                {"name": str(k), "default": v.get("defaultValue") if isinstance(v, dict) else None}
                for k, v in declared.items()
            ],
            "tasks": flat.settled(),
        },
        source.line_of(keys[:-1]) if len(keys) > 1 else 1,
    )
    job = job_from_settings(name, settings, file, root, base=root)
    for key, starts in flat.starts.items():
        if key in job.tasks:
            job.tasks[key] = replace(job.tasks[key], starts=starts, problem=None)  # as Airflow's RunNow
    for key, why in flat.dynamic.items():
        if key in job.tasks:
            job.tasks[key] = replace(job.tasks[key], problem=f"{why}, which only a run knows")
    out.notes += flat.notes
    if not limited and any(task.files or task.starts or task.problem for task in job.tasks.values()):
        out.notes.append(
            f"pipeline `{name}` sets no `concurrency`: Data Factory starts every run it is asked for at once, so its "
            f"runs may overlap (counted as {UNLIMITED_RUNS} concurrent runs); `concurrency: 1` queues them"
        )
    return job


# -- triggers -------------------------------------------------------------------------------


def _triggers_by_pipeline(triggers: list[tuple[dict, Path, Source, tuple]], root: Path) -> dict[str, list[dict]]:
    """pipeline name -> the triggers naming it (each trigger's properties and name)."""
    out: dict[str, list[dict]] = {}
    for props, _file, _source, _keys in triggers:
        named: dict[str, set[str]] = {}  # pipeline -> the parameters the trigger gives it
        for entry in _list(props.get("pipelines")) + [props.get("pipeline")]:
            reference = entry.get("pipelineReference") if isinstance(entry, dict) else None
            if isinstance(reference, dict) and isinstance(reference.get("referenceName"), str):
                given = entry.get("parameters")
                named.setdefault(reference["referenceName"], set()).update(given if isinstance(given, dict) else ())
        for pipeline, given in named.items():
            out.setdefault(pipeline, []).append({**props, "given": sorted(map(str, given))})
    return out


def _given_by_triggers(job: Job, triggers: list[dict]) -> None:
    """A pipeline parameter a started trigger passes (`"p_date": "@trigger().scheduledTime"`)
    has the trigger's value in its runs, not its `defaultValue`: unknown, as a run's."""
    given = {name for t in triggers if t.get("runtimeState") != "Stopped" for name in t.get("given", ())}
    if given:
        job.parameter_defaults = tuple((k, None if k in given else v) for k, v in job.parameter_defaults)


def _schedule(job: Job, triggers: list[dict], out: Workflows) -> None:
    """The job's cron, trigger or pause from the triggers that start its pipeline."""
    started = [t for t in triggers if t.get("runtimeState") != "Stopped"]
    if not triggers:
        return  # started by hand (or by another pipeline's ExecutePipeline)
    if not started:
        job.paused = True
        job.note = "its triggers are stopped (`runtimeState: Stopped`)"
        return
    crons: list[tuple[str, str]] = []
    others: list[str] = []
    for trigger in started:
        kind = str(trigger.get("type", ""))
        recurrence = (
            (trigger.get("typeProperties") or {}).get("recurrence")
            if isinstance(trigger.get("typeProperties"), dict)
            else None
        )
        if kind == "ScheduleTrigger":
            found = _cron(recurrence)
            if isinstance(found, tuple):
                crons.append(found)
            else:
                others.append(f"{_UNREADABLE} (trigger `{trigger.get('name')}`: {found})")
        elif kind == "TumblingWindowTrigger":
            tp = trigger.get("typeProperties") if isinstance(trigger.get("typeProperties"), dict) else {}
            most = tp.get("maxConcurrency")
            others.append(
                f"a tumbling-window trigger `{trigger.get('name')}` every {tp.get('interval')} "
                f"{str(tp.get('frequency', '')).lower()} (maxConcurrency {most if most is not None else 'not set'})"
            )
        elif kind in ("BlobEventsTrigger", "CustomEventsTrigger"):
            others.append(f"an event trigger `{trigger.get('name')}` ({kind})")
        else:
            others.append(f"a trigger `{trigger.get('name')}` ({kind or 'of no type'})")
    unreadable = [o for o in others if o.startswith(_UNREADABLE)]
    if len(set(crons)) > 1:
        names = ", ".join(f"`{c[0]}`" for c in dict.fromkeys(crons))
        unreadable.append(f"{_UNREADABLE} as one (several schedule triggers: {names})")
    if unreadable:
        job.trigger = unreadable[0]
    elif others:
        job.trigger = others[0]
    if crons and not unreadable:
        from delta_lint.cron import CronError
        from delta_lint.cron import check as check_cron

        try:
            check_cron(*crons[0])
            job.cron = crons[0]
        except CronError as err:
            job.trigger = f"{_UNREADABLE} (`{crons[0][0]}`: {err})"


def _cron(recurrence: Any) -> tuple[str, str] | str:
    """A ScheduleTrigger's recurrence as (quartz cron, time zone), or why it maps onto none."""
    if not isinstance(recurrence, dict):
        return "no recurrence"
    frequency = str(recurrence.get("frequency", ""))
    interval = recurrence.get("interval", 1)
    if not isinstance(interval, int) or isinstance(interval, bool) or interval < 1:
        return f"interval `{interval}`"
    zone = str(recurrence.get("timeZone") or "UTC")
    start_text = str(recurrence.get("startTime") or "")
    try:
        start = datetime.fromisoformat(start_text.replace("Z", "+00:00")) if start_text else None
    except ValueError:
        return f"startTime `{start_text}`"
    if zone not in _WINDOWS_ZONES and "/" not in zone:
        return f"time zone `{zone}`"
    zone = _WINDOWS_ZONES.get(zone, zone)
    plan = recurrence.get("schedule") if isinstance(recurrence.get("schedule"), dict) else {}
    if plan.get("monthlyOccurrences"):
        return "monthly occurrences"
    minutes = _numbers(plan.get("minutes"), 0, 59)
    hours = _numbers(plan.get("hours"), 0, 23)
    if minutes is None or hours is None:
        return "its schedule's minutes or hours"
    minute = minutes or (str(start.minute) if start else "0")
    hour = hours or (str(start.hour) if start else "0")
    if frequency == "Minute" and not plan and 60 % interval == 0:
        return (f"0 {(start.minute if start else 0) % interval}/{interval} * * * ?", zone)
    if frequency == "Hour" and not hours and 24 % interval == 0:
        return (f"0 {minute} {(start.hour if start else 0) % interval}/{interval} * * ?", zone)
    if frequency == "Day" and interval == 1:
        return (f"0 {minute} {hour} * * ?", zone)
    if frequency == "Week" and interval == 1:
        days = [_WEEKDAYS.get(str(d).lower()) for d in _list(plan.get("weekDays"))]
        if None in days:
            return "its week days"
        if not days:
            days = [list(_WEEKDAYS.values())[start.weekday()]] if start else []
        if days:
            return (f"0 {minute} {hour} ? * {','.join(dict.fromkeys(days))}", zone)
    if frequency == "Month" and interval == 1:
        month_days = plan.get("monthDays")
        if month_days is None:
            month_days = [start.day] if start else None
        if isinstance(month_days, list) and month_days and all(isinstance(d, int) for d in month_days):
            if all(1 <= d <= 31 for d in month_days):
                return (f"0 {minute} {hour} {','.join(map(str, sorted(set(month_days))))} * ?", zone)
            if month_days == [-1]:
                return (f"0 {minute} {hour} L * ?", zone)
    return f"every {interval} {frequency.lower() or 'unit of no name'}"


def _numbers(value: Any, low: int, high: int) -> str | None:
    """A schedule's `minutes` or `hours` as a cron field ("" when not given; None when unreadable)."""
    if value is None:
        return ""
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in value
    ):
        return None
    return ",".join(map(str, sorted(set(value))))
