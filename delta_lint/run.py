"""One run of the pipeline: discover -> front ends -> schedule -> engine.

Pure orchestration, no printing: the CLI and the tests call the same function.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from delta_lint import suppress
from delta_lint.bundle import Workflows
from delta_lint.cache import Cache
from delta_lint.cache import key as cache_key
from delta_lint.config import Config
from delta_lint.engine import Engine, Finding, diagnostics_as_findings
from delta_lint.frontend import READ_ERROR, analyze_data, read_file
from delta_lint.frontend.discover import discover
from delta_lint.model import Diagnostic, FileResult, Flag, Intent, Location
from delta_lint.schedule import build_schedule, load_workflows
from delta_lint.settings import ReadSettings, TableSettings, qualify

SETTINGS_NOT_READ = "DL004"
TASK_NOT_ANALYSABLE = "DL006"


@dataclass
class RunResult:
    files: list[FileResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    read: ReadSettings | None = None
    settings: dict[str, TableSettings] = field(default_factory=dict)
    schedule_files: tuple[Path, ...] = ()  # bundle and job-definition files: changing them changes every overlap

    @property
    def intents(self) -> list[Intent]:
        return [i for f in self.files for i in f.intents]


def display_path(path: Path, cwd: Path) -> str:
    """Paths relative to the working directory, posix style, for stable output."""
    try:
        return path.resolve().relative_to(cwd.resolve()).as_posix()
    except ValueError:
        return os.path.relpath(path.resolve(), cwd.resolve()).replace(os.sep, "/")


def analyze(
    paths: list[Path],
    config: Config,
    cwd: Path | None = None,
    on_file: Callable[[int, int], None] | None = None,
    use_cache: bool = True,
    jobs: int | None = None,
) -> tuple[list[FileResult], list[Diagnostic], dict[str, str]]:
    """Front ends over every discovered file; returns results, discovery problems and
    the display-path -> config-root-relative path map used by the schedule.

    Each file is read once and hashed; results come from the cache when its
    content, path and delta-lint version are unchanged, otherwise from the front
    ends — in `jobs` processes when there are enough files to pay for them."""
    cwd = cwd or Path.cwd()
    found = discover(paths, config.root, config.exclude)
    diagnostics = [
        Diagnostic(READ_ERROR, Location(display_path(p, cwd), 1, 1), f"cannot analyse `{p}`: {why}", "error")
        for p, why in found.problems
    ]
    rel_paths = {}
    slots: list[FileResult | None] = []
    todo: list[tuple[int, bytes, str, str, str]] = []  # index, data, suffix, display, cache key
    for index, path in enumerate(found.files):
        display = display_path(path, cwd)
        rel_paths[display] = display_path(path, config.root)
        data = read_file(path, display)
        if isinstance(data, FileResult):
            slots.append(data)
            continue
        slots.append(None)
        todo.append((index, data, path.suffix.lower(), display, cache_key(display, data)))
    store = Cache(config.root) if use_cache and todo else None
    hits = store.get_many([t[4] for t in todo]) if store else {}
    misses = [t for t in todo if t[4] not in hits]
    for index, _, _, _, key in todo:
        if key in hits:
            slots[index] = hits[key]
    done = len(found.files) - len(misses)
    fresh = {}
    for (index, _, _, _, key), result in zip(misses, _run_front_ends(misses, jobs)):
        slots[index] = result
        fresh[key] = result
        done += 1
        if on_file is not None:
            on_file(done, len(found.files))
    if store is not None:
        store.put_many(fresh)
        store.close()
    return [r for r in slots if r is not None], diagnostics, rel_paths


PARALLEL_MIN_FILES = 64  # below this, starting processes costs more than it saves


def _run_front_ends(misses: list[tuple[int, bytes, str, str, str]], jobs: int | None):
    """Results in input order, serially or in a process pool."""
    workers = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    if workers <= 1 or len(misses) < PARALLEL_MIN_FILES:
        for _, data, suffix, display, _ in misses:
            yield analyze_data(data, suffix, display)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    items = [(data, suffix, display) for _, data, suffix, display, _ in misses]
    chunk = max(1, min(64, len(items) // (workers * 4)))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from pool.map(_analyze_item, items, chunksize=chunk)


def _analyze_item(item: tuple[bytes, str, str]) -> FileResult:
    return analyze_data(*item)


def target_tables(intents: list[Intent], config: Config) -> dict[str, Intent]:
    """Every written or streamed table (qualified name) and its first intent."""
    out: dict[str, Intent] = {}
    for intent in sorted(intents, key=lambda i: i.location):
        if intent.table is not None and Flag.UNRESOLVED not in intent.flags:
            out.setdefault(qualify(intent.table.name, config.default_schema), intent)
    return out


def check(
    paths: list[Path],
    config: Config,
    cwd: Path | None = None,
    spark: str | None = None,
    refresh: bool = False,
    read: ReadSettings | None = None,
    on_file: Callable[[int, int], None] | None = None,
    bundle: Path | None = None,
    target: str | None = None,
    use_cache: bool = True,
    jobs: int | None = None,
) -> RunResult:
    """The whole pipeline. `read` skips the settings stage (tests, `tables`);
    otherwise settings are read per `spark` (default: the configuration's mode)."""
    results, diagnostics, rel_paths = analyze(paths, config, cwd, on_file, use_cache, jobs)
    intents = [i for r in results for i in r.intents]
    tables = target_tables(intents, config)
    if read is None:
        from delta_lint.settings.live import read_settings

        read = read_settings(set(tables), config, spark, refresh)
    settings_diags = [
        Diagnostic(
            SETTINGS_NOT_READ,
            tables[name].location,
            f"settings of `{name}` were not read: {why}; {_fallback(name, read, config)}",
            "info",
        )
        for name, why in sorted(read.problems.items())
        if name in tables
    ]
    workflows = load_workflows(config, bundle, target)
    schedule = build_schedule(config, rel_paths, workflows)
    settings_diags += task_diagnostics(workflows)
    engine = Engine(config, schedule, read=read)
    findings = engine.check(intents)
    all_diags = diagnostics + settings_diags + [d for r in results for d in r.diagnostics] + engine.internal_errors
    findings = sorted(findings + diagnostics_as_findings(all_diags), key=Finding.sort_key)
    is_selected = lambda rule: selected(rule, config.select, config.ignore)  # noqa: E731
    findings = [f for f in findings if is_selected(f.rule)]
    scans = {r.path: r.suppressions for r in results if r.suppressions is not None}
    findings, unused = suppress.apply(findings, scans, config.per_file_ignores, rel_paths, is_selected)
    findings = sorted(findings + [u for u in unused if is_selected(u.rule)], key=Finding.sort_key)
    return RunResult(results, findings, all_diags, read, engine.settings, tuple(workflows.files))


def task_diagnostics(workflows: Workflows) -> list[Diagnostic]:
    """Job tasks whose code delta-lint cannot read (wheels, pipelines, paths outside
    the project): their writes are not checked."""
    out = []
    for job in sorted(workflows.jobs.values(), key=lambda j: j.key):
        for task in sorted(job.tasks.values(), key=lambda t: t.key):
            if task.problem and task.location is not None:
                out.append(
                    Diagnostic(
                        TASK_NOT_ANALYSABLE,
                        task.location,
                        f"task `{task.key}` of job `{job.key}` is not analysed: {task.problem}",
                        "info",
                    )
                )
    return out


def _fallback(name: str, read: ReadSettings, config: Config) -> str:
    if read.sources.get(name) == "snapshot":
        return "using the snapshot"
    declared = {qualify(k.lower(), config.default_schema) for k in config.tables}
    return "using the declared settings" if name in declared else "assuming conservative settings"


def selected(rule: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """ruff-style: the longest matching prefix of select/ignore decides."""
    best_select = max((len(p) for p in select if rule.startswith(p)), default=-1 if select else 0)
    best_ignore = max((len(p) for p in ignore if rule.startswith(p)), default=-1)
    return best_select >= 0 and best_select >= best_ignore + (0 if best_ignore < 0 else 1)
