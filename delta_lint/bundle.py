"""Databricks jobs as the schedule sees them: from a Databricks Asset Bundle
(`databricks.yml`, its `include` globs and the chosen target) or from Jobs JSON
exports (`settings.tasks`).

Only static facts are read: tasks and their files, `depends_on`,
`max_concurrent_runs`, `for_each_task` and its `concurrency`, `continuous`,
`schedule` (Quartz cron + time zone), `trigger`, parameters. `${var.*}`,
`${bundle.*}` and `${workspace.*}` references are resolved where their values are
in the bundle; nothing is deployed, run or fetched.
"""

from __future__ import annotations

import ast
import fnmatch
import glob
import json
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from delta_lint.config import ConfigError, load_yaml
from delta_lint.cron import CronError
from delta_lint.cron import check as check_cron
from delta_lint.frontend.recognise import TEST_PATH
from delta_lint.model import PIPELINE_READING, UNKNOWN_FOLDER, Location, pipeline_reading
from delta_lint.safeio import read_input, read_input_text
from delta_lint.schema import BundleFile, JobsExport, JobSpec, Source, convert, load_json

BUNDLE_NAMES = ("databricks.yml", "databricks.yaml", "bundle.yml")
_REF = re.compile(r"\$\{([a-zA-Z0-9_.\-\[\]]+)\}")
# task types that carry a file we can analyse, and where the path is
_FILE_TASKS = {
    "notebook_task": ("notebook_path",),
    "spark_python_task": ("python_file",),
    "sql_task": ("file", "path"),
}
_OTHER_TASKS = (
    "python_wheel_task",
    "pipeline_task",
    "spark_jar_task",
    "spark_submit_task",
    "run_job_task",
    "dbt_task",
    "condition_task",
    "dashboard_task",
    "power_bi_task",
    "clean_rooms_notebook_task",
)


@dataclass
class Task:
    key: str
    kind: str  # notebook_task, spark_python_task, sql_task, python_wheel_task, ...
    files: tuple[str, ...]  # paths relative to the configuration root (posix)
    depends_on: tuple[str, ...] = ()
    for_each_concurrency: int | None = None  # set for for_each_task: runs of the inner task at once
    parameters: tuple[str, ...] = ()
    location: Location | None = None
    problem: str | None = None  # why it cannot be analysed
    # the values its parameters give the code (widgets, argv_N, --name); None: known only at run time
    arguments: tuple[tuple[str, str | None], ...] = ()
    # a run_job_task: the job of the bundle it starts, and the job parameters it gives each run
    starts: tuple[str, tuple[str, ...]] | None = None
    pipeline: str | None = None  # a pipeline_task: the bundle pipeline it runs
    # a for_each_task: its parameters bound to the iteration's `{{input}}`, the ones
    # that differ between its concurrent runs
    per_run_inputs: tuple[str, ...] = ()
    # and, when its `inputs` are known where it is defined, the arguments of each
    # iteration (the `{{input}}`s replaced); None when only a run knows them
    iterations: tuple[tuple[tuple[str, str | None], ...], ...] | None = None
    entry_point: str = ""  # a python_wheel_task: the entry point it runs (see `wheel_modules`)
    package: str = ""  # and the wheel's package_name
    # a dbt_task: (project folder relative to the root, or the path as written when no
    # project is there; commands; catalog; schema; profiles_directory; has a warehouse)
    dbt: tuple[str, tuple[str, ...], str | None, str | None, str | None, bool] | None = None
    # a for_each_task whose `inputs` are known but too many to list one by one (past
    # MAX_ITERATIONS or the size bounds of `_iterations`): how many, said in a run note
    unlisted_inputs: int = 0
    # how its file was looked for, as `listing` asks it again: a kept schedule holds
    # only while each answer does (the file deleted, or one appearing where none was)
    probes: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    # the lines of its one file it runs (first, last), None for the whole file: an
    # Airflow task whose SQL is written in the DAG file beside other tasks' SQL
    lines: tuple[int, int] | None = None
    # parameters an orchestrator fills per run (Airflow's `{{ ds }}`): (name, whether
    # two overlapping runs of the job always get different values, what the value is)
    run_values: tuple[tuple[str, bool, str], ...] = ()


@dataclass
class Job:
    key: str
    name: str
    tasks: dict[str, Task] = field(default_factory=dict)
    max_concurrent_runs: int = 1
    continuous: bool = False
    cron: tuple[str, str | None] | None = None  # (quartz expression, timezone id)
    trigger: str | None = None  # periodic / file arrival / table update, described
    paused: bool = False
    parameters: tuple[str, ...] = ()
    location: Location | None = None
    note: str | None = None  # e.g. development-mode targets pause schedules
    # job parameters and their defaults; they override task parameters of the same name
    parameter_defaults: tuple[tuple[str, str | None], ...] = ()
    cycle: tuple[str, ...] = ()  # tasks whose depends_on form a cycle (their order is not used)
    problem: tuple[Location, str] | None = None  # a schedule that cannot be evaluated: where, why
    # the workspace's id of the job when its export gives one (`{"job_id": 123, ...}`):
    # what Airflow's `DatabricksRunNowOperator(job_id=123)` names it by
    job_id: str = ""
    # its max_concurrent_runs is a default of where it is deployed (a target's
    # preset, `_Presets`; Airflow's `max_active_runs_per_dag` for a DAG started by
    # hand), not its own: a second run is one someone starts by hand, with the
    # job's defaults. Its overlap with itself is assumed, not shown by a schedule.
    # Whose default it is, in words ("" when the job sets its runs itself).
    runs_by_default: str = ""
    # a second doubt of those runs beside their being started by hand (a development
    # deployment's; a platform default no file of the project sets), in words: the
    # schedule rests such a job's self-overlap on `schedule.ASSUMED_TWICE` (info)
    runs_doubt: str = ""


@dataclass
class Pipeline:
    """A Lakeflow declarative pipeline of a bundle: its source files, written as one
    writer of their tables by each update."""

    key: str
    files: tuple[str, ...]  # paths relative to the configuration root (posix)
    catalog: str | None = None
    schema: str | None = None
    continuous: bool = False
    location: Location | None = None
    probes: tuple[tuple[str, str, tuple[str, ...]], ...] = ()  # how its files were looked for (see `Task`)
    # its `configuration` (`spark.conf.get(key)` in its Python, `${key}` in its SQL): the
    # values the bundle gives as text
    configuration: tuple[tuple[str, str | None], ...] = ()


@dataclass
class Workflows:
    pipelines: dict[str, Pipeline] = field(default_factory=dict)
    jobs: dict[str, Job] = field(default_factory=dict)
    source: str = ""  # what was read, for `delta-lint schedule`
    notes: list[str] = field(default_factory=list)
    target: str = ""  # the bundle target read and why ("bundle databricks.yml: target `prod` (...)")
    files: list[Path] = field(default_factory=list)  # every file read
    # every directory question the result depends on: (kind, argument, answer), asked
    # again through `listing` to tell whether a cached result still holds
    listings: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    # files found in the repository (a bundle at the root, an included file, a Jobs
    # JSON file) that cannot be read: (where, why); their jobs are left out
    problems: list[tuple[Location, str]] = field(default_factory=list)
    # dbt node files -> the writes each run of them makes (`dbt.DbtWrite.as_spec`)
    dbt: dict[str, tuple[tuple, ...]] = field(default_factory=dict)


# The dataclasses a Workflows value is made of (besides the model's Location): what a
# store that keeps one must allow (`cache.Cache.put_value`).
WORKFLOWS_TYPES = (Workflows, Job, Task, Pipeline)


# -- YAML with line numbers ---------------------------------------------------------------


class LineDict(dict):
    """A YAML mapping that knows the line it starts on (`line`), for findings placed
    in job files (bundles, dbx deployment files)."""

    line = 1


class LineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser when present: bundles can be large
    """Safe YAML whose mappings are `LineDict`s."""


def _construct_mapping(loader: LineLoader, node: yaml.MappingNode) -> LineDict:
    out = LineDict(loader.construct_mapping(node, deep=True))
    out.line = node.start_mark.line + 1
    return out


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _load_yaml(path: Path, root: Path | None) -> dict:
    """A bundle file, checked against its schema (`schema.BundleFile`); read only
    inside `root` when one is given (see `safeio`)."""
    try:
        text = read_input_text(path, root)
    except (OSError, UnicodeDecodeError, ValueError) as err:  # ValueError: a NUL byte in the path
        raise ConfigError(f"{path}: cannot read bundle file: {err}", None, f"cannot read bundle file: {err}") from err
    data, source = load_yaml(text, path, LineLoader, "a bundle file", aliases=True)
    convert(data, BundleFile, source)
    return data


def found_problem(path: Path, root: Path, err: ConfigError) -> tuple[Location, str]:
    """A file found in the repository that cannot be used, as (where, why): named as
    it was found, never as where a link of it leads."""
    try:
        shown = Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        shown = _rel(path, root)
    return Location(shown, err.line or 1, 1), f"{err.detail}; its jobs are not analysed"


# -- bundles -------------------------------------------------------------------------------


def declares_bundle(path: Path, root: Path) -> bool:
    """Whether a bundle file found at the root is a bundle's root: it has a
    `bundle:` mapping, as the Databricks CLI requires of the file it starts from.
    A `bundle.yml` holding only `resources:` or `variables:` (a fragment another
    file includes) is none. A file that cannot be read counts as one, so that its
    problem is still reported where the bundle is read. A top-level `bundle:` key
    holding a mapping (`_BUNDLE_KEY`) says so from the text, so a large root file is
    parsed once, by `load_bundle`; any other file is parsed to be sure."""
    try:
        text = read_input_text(path, root)
    except (OSError, UnicodeDecodeError, ValueError):
        return True
    if _BUNDLE_KEY.search(text):
        return True
    try:
        data = _load_yaml(path, root)
    except ConfigError:
        return True
    return isinstance(data.get("bundle"), dict)


# a `bundle:` key holding a mapping: in braces, or on the indented lines below it (a
# `bundle:` with nothing under it is null, and the file is parsed to tell)
_BUNDLE_KEY = re.compile(
    r"^bundle[ \t]*:[ \t]*(?:\{|(?:#[^\n]*)?\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]+[^\s#])", re.MULTILINE
)


def find_bundle(root: Path) -> Path | None:
    for name in BUNDLE_NAMES:
        if (root / name).is_file():
            return root / name
    return None


MAX_BUNDLE_DEPTH = 6  # folders below the root searched for bundles of a repository without one at its root


RACY_NS = 2_000_000_000  # as the stat index: a file changed this close to its test may change again unseen


@dataclass
class FileTests:
    """What the listings that look into files (Airflow DAGs, Jobs JSON, Terraform)
    found in each file, keyed by its stat, so that asking a listing again to prove a
    kept run still holds stats the files instead of reading them.

    `known` is what a cache kept: test -> root -> path -> [device, inode, size,
    mtime_ns, ctime_ns, answer]. A listing asked through `tests` answers a file
    from `known` while its stat is unchanged and reads it otherwise; each root's
    answers are replaced as a whole by what the walk met, so a deleted file's entry
    goes with it. Only a regular file (not a link) is kept, and not one changed
    within RACY_NS of the test (an edit in the same clock tick would keep its
    stat). `walks` holds this run's walk of each root, which every listing of the
    run shares. Folder contents are never kept across runs: a file added or
    removed is seen by walking."""

    known: dict[str, dict[str, dict[str, list]]] = field(default_factory=dict)
    walks: dict[str, list[tuple[Path, int, list[str]]]] = field(default_factory=dict)
    met: dict[tuple[str, str], dict[str, list]] = field(default_factory=dict)  # this run's, per (test, root)
    changed: bool = False  # `known` differs from what the cache kept: store it again
    read: int = 0  # files read to answer (`RunStats.listed_files_read`)

    @staticmethod
    def of(value: Any) -> FileTests:
        """The tests a cache kept (anything else is nothing kept)."""
        if not isinstance(value, dict):
            return FileTests()
        known = {}
        for test, roots in value.items():
            if isinstance(test, str) and isinstance(roots, dict):
                known[test] = {r: files for r, files in roots.items() if isinstance(files, dict)}
        return FileTests(known)

    def walk(self, root: Path) -> list[tuple[Path, int, list[str]]]:
        key = str(root)
        if key not in self.walks:
            self.walks[key] = list(_walk_project(root))
        return self.walks[key]

    def answer(self, test: str, root: Path, path: str, ask: Callable[[], bool]) -> bool:
        """`ask()` (which reads the file), unless the file's stat is the one kept."""
        files = self.known.get(test, {}).get(str(root), {})
        try:
            st = os.lstat(path)
        except (OSError, ValueError):
            st = None
        if st is None or not stat.S_ISREG(st.st_mode):
            self.read += 1
            return ask()
        sig = [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
        seen = files.get(path)
        if isinstance(seen, list) and len(seen) == 6 and seen[:5] == sig and isinstance(seen[5], bool):
            self.met.setdefault((test, str(root)), {})[path] = seen
            return seen[5]
        self.read += 1
        found = ask()
        if max(st.st_mtime_ns, st.st_ctime_ns) < time.time_ns() - RACY_NS:
            self.met.setdefault((test, str(root)), {})[path] = [*sig, found]
        return found

    def done(self, test: str, root: Path) -> None:
        """The listing of `test` under `root` has met every file it looks at: what it
        met replaces what was kept for that root."""
        met = self.met.pop((test, str(root)), {})
        if self.known.get(test, {}).get(str(root)) != met:
            self.known.setdefault(test, {})[str(root)] = met
            self.changed = True


def _project_folders(root: Path, tests: FileTests | None = None):
    """(folder, depth, file names) below the root, outside hidden, virtual-environment
    and dependency folders, at most MAX_BUNDLE_DEPTH deep; with `tests`, the walk
    this run already made of the root."""
    return tests.walk(root) if tests is not None else _walk_project(root)


def _walk_project(root: Path):
    from delta_lint.frontend.discover import skips_folder

    base = len(root.parts)
    for folder, dirs, files in os.walk(root):
        depth = len(Path(folder).parts) - base
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not skips_folder(os.path.join(folder, d), d))
        if depth >= MAX_BUNDLE_DEPTH:
            dirs[:] = []
        yield Path(folder), depth, files


def find_bundles(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """Every bundle file below the root (a repository of several bundles, or one
    in a subfolder)."""
    found = []
    for folder, depth, files in _project_folders(root, tests):
        name = next((n for n in BUNDLE_NAMES[:2] if n in files), None)
        if name is not None and depth > 0:
            found.append(str(folder / name))
    return tuple(sorted(found))


MAX_JOB_JSON_BYTES = 2 * 1024 * 1024


def find_job_json(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """JSON files shaped as Databricks jobs (`databricks jobs get` exports, job
    settings: they name a `task_key`), anywhere in the project; dashboards and
    files over 2 MB are not read."""
    return _files_saying(
        root, lambda name: name.endswith(".json") and not name.endswith(".lvdash.json"), b'"task_key"', tests
    ) + _files_saying(
        root, lambda name: name.endswith((".yml", ".yaml")) and name not in BUNDLE_NAMES, b"task_key:", tests
    )


MAX_PYPROJECT_BYTES = 256 * 1024


_ENTRY = re.compile(r"[A-Za-z_][\w.-]*")


def find_entry_modules(root: Path, entry: str, package: str = "") -> tuple[str, ...]:
    """Project modules a wheel task's `entry_point` may name (see `entry_modules`)."""
    return entry_modules(root, [(package, entry)]).get((package, entry), ())


def entry_modules(root: Path, wanted: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(package, entry point) -> the project modules a wheel task with that
    `package_name` and `entry_point` may run, for every wheel task of a run in one
    walk of the project (a walk per task grew with tasks times files). The entry
    points a `pyproject.toml` of the project declares (`[project.scripts]`,
    `[project.entry-points.*]`, `[tool.poetry.scripts]`), or a `setup.py`'s
    `setup(entry_points=...)` or a `setup.cfg`'s `[options.entry_points]`, come first, those of the
    wheel's `package_name` before others; else `<entry>.py` files outside tests
    (one such module is the one the wheel runs)."""
    wanted = sorted({(package, entry) for package, entry in wanted if _ENTRY.fullmatch(entry)})
    if not wanted:
        return {}
    files_of = {entry + ".py": entry for _, entry in wanted}
    declared: dict[str, list[tuple[frozenset[str], str]]] = {}  # entry -> (its projects' names, module file)
    fallback: dict[str, list[str]] = {}
    for folder, _, files in _project_folders(root):
        for manifest in _MANIFESTS.keys() & set(files):
            names, points = _MANIFESTS[manifest](folder / manifest, root)
            for entry, modules in points.items():
                if entry + ".py" not in files_of:
                    continue
                for module in modules:
                    found = _module_file(folder, module)
                    if found is not None:
                        declared.setdefault(entry, []).append((names, str(found)))
        for name in files_of.keys() & set(files):
            rel = (folder / name).relative_to(root).as_posix()
            if not TEST_PATH.search(rel):
                fallback.setdefault(files_of[name], []).append(str(folder / name))
    out = {}
    for package, entry in wanted:
        if entry in declared:
            own = [path for names, path in declared[entry] if package and _norm(package) in names]
            out[package, entry] = tuple(sorted(set(own or [path for _, path in declared[entry]])))
        else:
            out[package, entry] = tuple(sorted(fallback.get(entry, ())))
    return out


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _entry_points(path: Path, root: Path) -> tuple[frozenset[str], dict[str, list[str]]]:
    """The project names a pyproject declares (normalised) and, by entry point name,
    the modules its entry points run. tomllib is imported here: only a project
    holding a pyproject.toml needs it."""
    import tomllib

    try:
        doc = tomllib.loads(read_input_text(path, root, MAX_PYPROJECT_BYTES))
    except (OSError, ValueError, tomllib.TOMLDecodeError):
        return frozenset(), {}
    project = doc.get("project") if isinstance(doc.get("project"), dict) else {}
    poetry = (doc.get("tool") or {}).get("poetry") if isinstance(doc.get("tool"), dict) else None
    poetry = poetry if isinstance(poetry, dict) else {}
    tables = [project.get("scripts"), poetry.get("scripts")]
    groups = project.get("entry-points")
    if isinstance(groups, dict):
        tables.extend(groups.values())
    names = frozenset(_norm(str(n)) for n in (project.get("name"), poetry.get("name")) if isinstance(n, str))
    out: dict[str, list[str]] = {}
    for table in tables:
        for entry, target in table.items() if isinstance(table, dict) else ():
            if isinstance(target, str) and re.fullmatch(r"\s*[\w.]+\s*(:\s*[\w.]+\s*)?", target):
                out.setdefault(str(entry), []).append(target.split(":")[0].strip())
    return names, out


_TARGET = re.compile(r"\s*([\w.]+)\s*(?::\s*[\w.]+\s*)?(?:\[[\w\s,.-]*\])?\s*")


def _targets(tables: list[object]) -> dict[str, list[str]]:
    """Entry point name -> the modules it runs, of entry point tables each given as
    a mapping (`{"etl": "pkg.tasks.etl:main"}`), a list of `name = module:function`
    lines, or those lines as one text (setuptools takes the three)."""
    out: dict[str, list[str]] = {}
    for table in tables:
        if isinstance(table, str):
            table = table.splitlines()
        if isinstance(table, (list, tuple)):
            pairs = [str(line).split("=", 1) for line in table if isinstance(line, str) and "=" in line]
            table = {name.strip(): target for name, target in pairs}
        for entry, target in table.items() if isinstance(table, dict) else ():
            m = _TARGET.fullmatch(target) if isinstance(target, str) else None
            if m is not None:
                out.setdefault(str(entry).strip(), []).append(m.group(1))
    return out


def _setup_py_entry_points(path: Path, root: Path) -> tuple[frozenset[str], dict[str, list[str]]]:
    """What a `setup.py` declares, read as a syntax tree (never run): the `name` and
    `entry_points` of its `setup(...)` call, each a literal or a module-level name
    bound once to a literal (`ENTRY_POINTS = {...}`). A value the code computes
    (`entry_points=find_entries()`) declares nothing known: the `<entry>.py` files
    are looked for instead."""
    try:
        tree = ast.parse(read_input_text(path, root, MAX_PYPROJECT_BYTES))
    except (OSError, ValueError, SyntaxError, RecursionError):
        return frozenset(), {}
    bound: dict[str, list[ast.expr]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            bound.setdefault(stmt.targets[0].id, []).append(stmt.value)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and isinstance(stmt.target, ast.Name):
            bound.setdefault(stmt.target.id, []).extend([stmt.value, stmt.value] if stmt.value else [])

    def literal(node: ast.expr) -> object:
        if isinstance(node, ast.Name) and len(bound.get(node.id, ())) == 1:
            node = bound[node.id][0]
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None

    names: set[str] = set()
    tables: list[object] = []
    for node in ast.walk(tree):
        func = node.func if isinstance(node, ast.Call) else None
        if not (isinstance(func, ast.Name) and func.id == "setup") and not (
            isinstance(func, ast.Attribute) and func.attr == "setup"
        ):
            continue
        for keyword in node.keywords:  # type: ignore[union-attr]
            value = literal(keyword.value) if keyword.arg in ("name", "entry_points") else None
            if keyword.arg == "name" and isinstance(value, str):
                names.add(_norm(value))
            elif keyword.arg == "entry_points" and isinstance(value, dict):
                tables.extend(value.values())
            elif keyword.arg == "entry_points" and isinstance(value, str):  # an INI text
                tables.extend(_ini_entry_points(value).values())
    return frozenset(names), _targets(tables)


def _ini_entry_points(text: str, section: str = "") -> dict[str, object]:
    """The groups of entry points an INI text declares (`[console_scripts]`, or
    the options of `section`, whose values are their lines)."""
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return {}
    if section:
        return dict(parser[section]) if parser.has_section(section) else {}
    return {group: [f"{k} = {v}" for k, v in parser[group].items()] for group in parser.sections()}


def _setup_cfg_entry_points(path: Path, root: Path) -> tuple[frozenset[str], dict[str, list[str]]]:
    """What a `setup.cfg` declares: `[metadata] name` and `[options.entry_points]`
    (each group's value the lines `name = module:function`)."""
    try:
        text = read_input_text(path, root, MAX_PYPROJECT_BYTES)
    except (OSError, ValueError):
        return frozenset(), {}
    metadata = _ini_entry_points(text, "metadata")
    name = metadata.get("name")
    names = frozenset([_norm(name.strip())] if isinstance(name, str) and name.strip() else [])
    return names, _targets(list(_ini_entry_points(text, "options.entry_points").values()))


_MANIFESTS: dict[str, Callable[[Path, Path], tuple[frozenset[str], dict[str, list[str]]]]] = {
    "pyproject.toml": _entry_points,
    "setup.cfg": _setup_cfg_entry_points,
    "setup.py": _setup_py_entry_points,
}


def _module_file(folder: Path, module: str) -> Path | None:
    """The file of a dotted module in a project folder (a `src/` layout or flat)."""
    parts = module.split(".")
    for base in (folder / "src", folder):
        for candidate in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts, "__init__.py")):
            if candidate.is_file():
                return candidate
    return None


def find_terraform(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """Terraform files of the project that define a `databricks_job` resource."""
    return _files_saying(root, lambda name: name.endswith(".tf"), b"databricks_job", tests)


def find_dbx_deployments(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """dbx deployment files of the project: named `deployment*` (`.yml`, `.yaml`,
    `.json`, each also as a `.j2` template) and saying `environments`, or (before
    dbx 0.7, JSON) `"jobs"`."""
    named = lambda name: name.startswith("deployment") and name.endswith(_DBX_SUFFIXES)  # noqa: E731
    return _files_saying(root, named, (b"environments", b'"jobs"'), tests)  # one walk of the project


_DBX_SUFFIXES = (".yml", ".yaml", ".json", ".yml.j2", ".yaml.j2", ".json.j2")


def find_dbt_projects(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """The `dbt_project.yml` files of the project: folder names only, no file opened
    (what a project without dbt pays for the dbt reader)."""
    return tuple(
        str(folder / DBT_PROJECT) for folder, _, files in _project_folders(root, tests) if DBT_PROJECT in files
    )


def find_container_files(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """The compose files and Dockerfiles of the project: where an Airflow worker's
    folders come from (`delta_lint.container`)."""
    from delta_lint.container import is_container_file

    found = []
    for folder, _, files in _project_folders(root, tests):
        found += [str(folder / name) for name in sorted(files) if is_container_file(name)]
    return tuple(found)


def find_dbt_profiles(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """The `profiles.yml` files of the project, by folder names only (asked by the
    dbt reader for a project that has none of its own, see `dbt.profile_elsewhere`)."""
    return tuple(
        str(folder / DBT_PROFILES) for folder, _, files in _project_folders(root, tests) if DBT_PROFILES in files
    )


def find_airflow_dags(root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """Python files of the project whose first 64 KB name Airflow and a DAG (`DAG`,
    `@dag`) or a Databricks or dbt operator: the DAG files `airflow.load_found_airflow`
    reads (a DAG that runs Spark standalone, a script or a container runs project code
    as surely as one that runs Databricks). Most projects have no DAG yet many Python files, and the answer is asked
    again on every cached run: so only a file's head is read, with plain system
    calls (a regular file, not through a link; `safeio` reads the few found), and
    with `tests` not even that while the file's stat is the one kept."""
    found = []
    for folder, _, files in _project_folders(root, tests):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            if tests is None:
                is_dag = _names_airflow_and_databricks(path)
            else:
                is_dag = tests.answer("airflow", root, path, lambda path=path: _names_airflow_and_databricks(path))
            if is_dag:
                found.append(path)
    if tests is not None:
        tests.done("airflow", root)
    return tuple(found)


def _names_airflow_and_databricks(path: str) -> bool:
    """Whether the head of the regular file at `path` names Airflow and a DAG or a
    Databricks or dbt operator (`find_airflow_dags`)."""
    try:  # asked of the name first: a device or a pipe is never opened
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return False
    try:
        head = os.read(fd, 65536) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        head = b""
    finally:
        os.close(fd)
    return b"airflow" in head and any(word in head for word in (b"DAG", b"@dag", b"Databricks", b"Dbt", b"dbt "))


def _files_saying(
    root: Path, named: Callable[[str], bool], sign: bytes | tuple[bytes, ...], tests: FileTests | None = None
) -> tuple[str, ...]:
    """Project files whose name passes `named` and whose bytes hold `sign` (one of
    them, given several) (with `tests`, read only when the file's stat is not the one kept)."""
    found = []
    test = "holds:" + "|".join(s.decode("latin-1") for s in ((sign,) if isinstance(sign, bytes) else sign))
    for folder, _, files in _project_folders(root, tests):
        for name in sorted(files):
            if not named(name):
                continue
            path = folder / name
            if tests is None:
                says = _file_says(path, root, sign)
            else:
                says = tests.answer(test, root, str(path), lambda path=path: _file_says(path, root, sign))
            if says:
                found.append(str(path))
    if tests is not None:
        tests.done(test, root)
    return tuple(found)


def _file_says(path: Path, root: Path, sign: bytes | tuple[bytes, ...]) -> bool:
    try:
        data = read_input(path, root, MAX_JOB_JSON_BYTES)
        return sign in data if isinstance(sign, bytes) else any(s in data for s in sign)
    except OSError:  # not a regular file, too large, leading out of the project
        return False


def listing(kind: str, argument: str, tests: FileTests | None = None) -> tuple[str, ...]:
    """The answers a bundle or job-definition load depends on besides file contents:
    which files a bundle `include` glob matches, which JSON files a job-definitions
    folder holds, which bundle file a root has. `tests`: the project walks and file
    answers of this run and the last (see `FileTests`), for a caller asking many
    listings again to tell whether a kept result holds."""
    if kind == "glob":
        return tuple(sorted(p for p in include_glob(argument) if Path(p).is_file()))
    if kind == "json":
        folder = Path(argument)
        if not folder.is_dir():
            return ()
        return tuple(sorted(str(p) for p in _subfolders(folder, files=True) if p.suffix == ".json"))
    if kind == "bundle":
        found = find_bundle(Path(argument))
        return (str(found),) if found else ()
    if kind == "bundles":
        return find_bundles(Path(argument), tests)
    if kind == "job-json":
        return find_job_json(Path(argument), tests)
    if kind == "terraform":
        return find_terraform(Path(argument), tests)
    if kind == "airflow":
        return find_airflow_dags(Path(argument), tests)
    if kind == "adf":  # Data Factory pipelines (and ARM templates holding them): `adf.load_found_adf`
        return _files_saying(Path(argument), lambda name: name.endswith(".json"), b'"activities"', tests)
    if kind == "dbx":  # dbx deployment files (`conf/deployment.yml`): `dbx.load_found_dbx`
        return find_dbx_deployments(Path(argument), tests)
    if kind == "terraform-modules":  # asked only of projects with Terraform jobs
        return _files_saying(Path(argument), lambda name: name.endswith(".tf"), b"module", tests)
    if kind == "dbt":
        return find_dbt_projects(Path(argument), tests)
    if kind == "containers":
        return find_container_files(Path(argument), tests)
    if kind == "dbt-profiles":
        return find_dbt_profiles(Path(argument), tests)
    if kind == "locate":
        value, base, root = json.loads(argument)
        return _answer(_locate_text(value, base, root))
    if kind == "pipeline-glob":
        base, root = json.loads(argument)
        return _pipeline_glob(Path(base), Path(root))
    if kind == "names":  # [root, [tail parts, ...]]: one JSON list of files per tail
        top, tails = json.loads(argument)
        return names_in_project(tails, Path(top), tests)
    if kind == "locate-git":
        value, folder, root = _located_question(argument)
        return _answer(_locate_from_git(value, folder, root))
    if kind == "entry":
        folder, package, entry = argument.split("\n", 2)
        return find_entry_modules(Path(folder), entry, package)
    if kind == "entries":  # [root, [[package, entry point], ...]]: one line per module found
        folder, wanted = json.loads(argument)
        found = entry_modules(Path(folder), [(package, entry) for package, entry in wanted])
        return tuple(json.dumps([*key, path]) for key, paths in sorted(found.items()) for path in paths)
    raise ValueError(f"unknown listing {kind}")


MAX_INCLUDED = 10_000  # files one `include` glob may match
MAX_GLOB_FOLDERS = 100_000  # (folder, part of the glob) pairs one `include` glob may look into


def include_glob(pattern: str) -> list[str]:
    """The paths an `include` glob matches, as `glob.glob(recursive=True)` finds them
    but without following links to folders: a checkout may hold `a -> ..` (a loop
    that `glob` walks until the names grow too long, forever when several). A stack
    instead of recursion, so a deep tree cannot exhaust Python's; at most
    MAX_INCLUDED matches.

    Each folder is looked into once for each part of the glob (`**/**` is `**`), at
    most MAX_GLOB_FOLDERS times in all: following every way the `**`s of a glob can
    split a chain of folders grew as the folders to the power of the `**`s, and
    eight of them over 40 nested folders never finished."""
    head, *parts = Path(pattern).parts
    start = Path(head)
    while parts and not glob.has_magic(parts[0]):
        start /= parts.pop(0)
    if not parts:
        return [str(start)] if start.exists() else []
    parts = [p for i, p in enumerate(parts) if not (p == "**" and i and parts[i - 1] == "**")]
    out: set[str] = set()
    seen: set[tuple[Path, int]] = set()
    stack = [(start, 0)]
    while stack and len(out) < MAX_INCLUDED and len(seen) < MAX_GLOB_FOLDERS:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        directory, i = state
        part, last = parts[i], i == len(parts) - 1
        if part == "**":
            if last:
                out.update(str(p) for p in _subfolders(directory, files=True))
                continue
            # `**` matches no folder (the next part here) or one more (`**` again below)
            stack += [(d, i) for d in _folders_in(directory)]
            stack.append((directory, i + 1))
            continue
        if not glob.has_magic(part):
            child = directory / part
            if last and child.exists():
                out.add(str(child))
            elif not last and child.is_dir() and not child.is_symlink():
                stack.append((child, i + 1))
            continue
        try:
            with os.scandir(directory) as it:
                names = sorted(e.name for e in it if not e.name.startswith("."))
        except OSError:
            continue
        for name in fnmatch.filter(names, part):
            child = directory / name
            if last:
                out.add(str(child))
            elif child.is_dir() and not child.is_symlink():
                stack.append((child, i + 1))
    return sorted(out)[:MAX_INCLUDED]


def _folders_in(directory: Path) -> list[Path]:
    """The folders right below `directory`, not links to folders, not hidden."""
    try:
        with os.scandir(directory) as it:
            entries = [e for e in it if not e.name.startswith(".")]
    except OSError:
        return []
    out = []
    for e in entries:
        try:
            if e.is_dir(follow_symlinks=False):
                out.append(Path(e.path))
        except OSError:
            continue
    return out


def _subfolders(top: Path, files: bool = False) -> list[Path]:
    """Every folder below `top` (with `files`, every file instead), not through links to
    folders; hidden names are left out, as `glob` does."""
    out: list[Path] = []
    stack = [top]
    while stack and len(out) < MAX_INCLUDED:
        try:
            with os.scandir(stack.pop()) as it:
                entries = [e for e in it if not e.name.startswith(".")]
        except OSError:
            continue
        for e in entries:
            try:
                folder = e.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if folder:
                stack.append(Path(e.path))
            if folder != files:
                out.append(Path(e.path))
    return out


def _merge(base: Any, override: Any) -> Any:
    """Target overrides: mappings merge key by key, task lists by task_key."""
    if isinstance(base, dict) and isinstance(override, dict):
        out = LineDict(base)
        out.line = getattr(base, "line", 1)
        for key, value in override.items():
            out[key] = _merge(base[key], value) if key in base else value
        return out
    if isinstance(base, list) and isinstance(override, list) and all(isinstance(t, dict) for t in base + override):
        by_key = {t.get("task_key"): t for t in base}
        if None not in by_key and all(t.get("task_key") for t in override):
            for t in override:
                by_key[t["task_key"]] = _merge(by_key[t["task_key"]], t) if t["task_key"] in by_key else t
            return list(by_key.values())
    return override


def bundle_targets(path: Path) -> set[str]:
    """The names of a bundle file's targets."""
    targets = _load_yaml(path, path.parent).get("targets")
    return {str(t) for t in targets} if isinstance(targets, dict) else set()


def default_target(targets: Any) -> tuple[str | None, str]:
    """The target a run judges when none is chosen, and why. The bundle's default
    target, unless it is a development target (`mode: development`: schedules and
    triggers paused, names prefixed) and a production target exists: the schedule
    that runs in production is the one whose conflicts fail jobs, so the gate judges
    that (`--target` overrides). A bundle of one target deploys it without `-t`,
    `default:` or not, as the CLI does. Several targets and no default: the CLI
    deploys one only when `-t` names it, so which one CI deploys is not in the
    bundle; the gate judges the production target (the first by name, with the
    others named, when there are several), and with none in production mode no
    target: the jobs as written, which `target_note` says."""
    if not isinstance(targets, dict):
        return None, ""
    mode = lambda name: targets[name].get("mode") if isinstance(targets[name], dict) else None  # noqa: E731
    default = next((n for n, t in targets.items() if isinstance(t, dict) and t.get("default")), None)
    production = sorted(str(n) for n in targets if mode(n) == "production")
    if default is not None and mode(default) == "development" and production:
        return production[0], (
            f"mode: production; the default target `{default}` is a development target whose schedules are "
            f"paused: `--target {default}` judges it"
        )
    if default is not None:
        return default, "the bundle's default target"
    only = next(iter(targets)) if len(targets) == 1 else None
    if isinstance(only, str):  # the CLI's default when there is one target (`SelectDefaultTarget`)
        return only, "the bundle's only target"
    if production:
        others = ", ".join(f"`{n}`" for n in production[1:])
        return production[0], (
            "mode: production; no target is the default, so the CLI deploys one only with `-t`"
            + (f"; also in production mode: {others}, which `--target` judges" if others else "")
        )
    return None, ""


def target_note(targets: Any) -> str:
    """What a run of a bundle that names targets but judges none says: the jobs are
    read as written, without any target's overrides, presets or variables."""
    if not isinstance(targets, dict) or len(targets) < 2:
        return ""
    names = ", ".join(f"`{n}`" for n in targets)
    return (
        f"no target judged: of the targets {names}, none is the default or in production mode, and the CLI "
        "deploys one only with `-t`; the jobs are read as written, without a target's overrides "
        "(`--target` judges one)"
    )


def load_bundle(
    path: Path, target: str | None, root: Path, named: bool = True, contained: bool | None = None
) -> Workflows:
    """Jobs of a bundle. `root` is the configuration root that file paths are relative
    to, and that every file read must resolve into (the bundle itself too unless it
    is not `contained`: named on the command line; by default, unless `named`).

    A bundle the user named (`--bundle`, `bundle:`) that cannot be read stops the run
    (ConfigError); one merely found at the root, and any file it includes, is a
    problem reported at its line while the rest is analysed."""
    try:
        main = _load_yaml(path, root if (contained if contained is not None else not named) else None)
    except ConfigError as err:
        if named:
            raise
        return Workflows(source=_rel(path, root), files=[path], problems=[found_problem(path, root, err)])
    bundle_root = path.parent
    sources: dict[int, Path] = {}  # id(job mapping) -> file that defined it
    resources = LineDict()
    files = [path]
    listings = []
    problems = []
    for pattern in main.get("include") or []:
        matched = listing("glob", str(bundle_root / pattern))
        listings.append(("glob", str(bundle_root / pattern), matched))
        files += [Path(p) for p in matched]
    pipeline_specs: dict[str, tuple[dict, Path]] = {}
    named_resources: dict[str, str] = {}  # `resources.schemas.x.name` -> its text
    declared_elsewhere: dict = {}
    python_jobs, python_files = _python_resources(main, path, root, listings, problems)
    for file in files:
        try:
            data = main if file == path else _load_yaml(file, root)
        except ConfigError as err:
            problems.append(found_problem(file, root, err))
            continue
        for key, job in ((data.get("resources") or {}).get("jobs") or {}).items():
            if isinstance(job, dict):
                sources[id(job)] = file
                resources.setdefault("jobs", LineDict())[key] = job
        for key, spec in ((data.get("resources") or {}).get("pipelines") or {}).items():
            if isinstance(spec, dict):
                pipeline_specs[str(key)] = (spec, file)
        named_resources.update(_resource_names(data.get("resources")))
        if data is not main and isinstance(data.get("variables"), dict):
            declared_elsewhere.update(data["variables"])  # variables may be declared in included files
    for key, job, file in python_jobs:  # the YAML's job of a key wins, as the CLI refuses both
        if key not in (resources.get("jobs") or {}):
            sources[id(job)] = file
            resources.setdefault("jobs", LineDict())[key] = job
    files += [f for f in python_files if f not in files]
    targets = main.get("targets") or {}
    if target is None:
        target, why = default_target(targets)
    elif target not in targets:
        known = ", ".join(sorted(targets)) or "none"
        raise ConfigError(f"{path}: `targets.{target}`: no such target (targets: {known})")
    else:
        why = "chosen with --target or the configuration's `target:`"
    tconf = targets.get(target) or {} if target else {}
    for key, job in ((tconf.get("resources") or {}).get("jobs") or {}).items():
        base = resources.setdefault("jobs", LineDict()).get(key)
        merged = _merge(base, job) if base is not None else job
        sources[id(merged)] = sources.get(id(base), path) if base is not None else path
        resources["jobs"][key] = merged
    declared = {**declared_elsewhere, **(main.get("variables") or {})}
    variables = {}
    for name, spec in declared.items():
        variables[name] = spec.get("default") if isinstance(spec, dict) else spec
    for name, value in (tconf.get("variables") or {}).items():
        variables[name] = _target_value(value, declared.get(name))
    bundle_name = str((main.get("bundle") or {}).get("name") or "")
    refs = {f"var.{k}": v for k, v in variables.items() if isinstance(v, (str, int, float))}
    # a complex variable (a list or a mapping) stands for its value where it is a whole
    # value (`inputs: ${var.tables}`, `base_parameters: ${var.user_config}`), never inside text
    refs.update({f"var.{k}": v for k, v in variables.items() if isinstance(v, (list, dict))})
    refs.update({"bundle.name": bundle_name, "bundle.target": target or ""})
    refs["workspace.file_path"] = str(bundle_root)  # files are synced from the bundle root
    synced = _synced_folder_texts(main, tconf, {"bundle.name": bundle_name, "bundle.target": target or ""})
    # `${resources.schemas.monitoring.name}`: the name the schema resource is given
    growth = _Growth()
    refs.update({k: v for k, v in _resolve(named_resources, refs, growth).items() if not _REF.search(v)})
    dev = isinstance(tconf, dict) and tconf.get("mode") == "development"
    presets = _presets(main, tconf, target if dev else None)
    out = Workflows(
        source=f"{_rel(path, root)}" + (f" (target {target})" if target else ""),
        files=list(files),
        listings=listings,
        problems=problems,
        target=f"bundle {_rel(path, root)}: target `{target}` ({why})" if target else "",
    )
    if target is None and target_note(targets):
        out.notes.append(f"bundle {_rel(path, root)}: {target_note(targets)}")
    if dev:
        out.notes.append(
            f"target `{target}` is in development mode: its schedules and triggers are paused, so jobs only run "
            f"when started by hand, and a job that does not set max_concurrent_runs allows "
            f"{presets.max_runs} concurrent runs"
        )
    labels: dict[Path, str] = {}  # resolving a path costs system calls; a file holds many jobs
    stopped_in: list[Path] = []  # the file of the first value left unresolved (see `_Growth`)
    for key, job in (resources.get("jobs") or {}).items():
        file = sources.get(id(job), path)
        if file not in labels:
            labels[file] = _rel(file, root)
        job = _as_file_path(job, synced)
        out.jobs[key] = _job(
            key,
            _resolve(job, refs, growth),
            file,
            root,
            dev_target=target if dev else None,
            presets=presets,
            base=bundle_root if file.suffix == ".py" else None,  # Python resources: paths from the bundle root
            label=labels[file],
            cli_paths=True,
        )
        if growth.stopped is not None and not stopped_in:
            stopped_in.append(file)
    for key, (spec, file) in pipeline_specs.items():
        override = ((tconf.get("resources") or {}).get("pipelines") or {}).get(key) if isinstance(tconf, dict) else None
        merged = _merge(spec, override) if isinstance(override, dict) else spec
        merged = _as_file_path(merged, synced)
        out.pipelines[key] = _pipeline(key, _resolve(merged, refs, growth), file, root)
        if growth.stopped is not None and not stopped_in:
            stopped_in.append(file)
    problem = _growth_problem(growth, stopped_in[0] if stopped_in else path, root)
    if problem is not None:
        out.problems.append(problem)
    _match_pipeline_libraries(out, root)  # before the jobs that run a pipeline take its files
    _run_pipelines(out, paused=presets.pause == "PAUSED")
    wheel_modules(out, root)
    tail_notes(out)
    return out


DEVELOPMENT_CONCURRENT_RUNS = 4  # the CLI's `jobs_max_concurrent_runs` of a development target


@dataclass(frozen=True)
class _Presets:
    """The target's defaults for the jobs it deploys (`presets:` at the top level,
    overridden by the target's own). Databricks, "Databricks Asset Bundle deployment
    modes" (https://docs.databricks.com/aws/en/dev-tools/bundles/deployment-modes):
    a development target "pauses all schedules and triggers" and "enables
    concurrent runs on all deployed jobs"; a job opts out of either with its own
    setting (`max_concurrent_runs: 1`, `pause_status: UNPAUSED`), and `presets:`
    (`jobs_max_concurrent_runs`, `trigger_pause_status`) sets them in any mode. The
    page does not give the number of runs; the CLI sets 4 where neither the job nor
    the presets give one (its `max_concurrent_runs` unset or 0), and applies the
    pause only where the job's schedule, trigger or continuous block names no
    `pause_status`. Without presets a job keeps the Jobs API's defaults (one run at
    a time, unpaused)."""

    max_runs: int = 1
    pause: str = ""  # "PAUSED", "UNPAUSED", or "" (each job's own)


def _presets(main: dict, tconf: Any, development: str | None) -> _Presets:
    given: dict = {}
    for config in (main, tconf):
        if isinstance(config, dict) and isinstance(config.get("presets"), dict):
            given.update(config["presets"])
    runs = given.get("jobs_max_concurrent_runs")
    runs = runs if isinstance(runs, int) and not isinstance(runs, bool) and runs >= 1 else None
    pause = given.get("trigger_pause_status")
    pause = pause if pause in ("PAUSED", "UNPAUSED") else ""
    if development is not None:
        runs = runs or DEVELOPMENT_CONCURRENT_RUNS
        pause = pause or "PAUSED"
    return _Presets(runs or 1, pause)


def _target_value(value: Any, declared: Any) -> Any:
    """A target's value of a variable: `{default: ..}` (or `{lookup: ..}`, which only a
    deployment answers: None), or the value itself. The CLI reads a mapping without
    those keys as the value of a variable declared `type: complex` (its short form),
    so a target gives a complex variable its own mapping as written."""
    if not isinstance(value, dict):
        return value
    if "default" in value:
        return value["default"]
    complex_ = isinstance(declared, dict) and declared.get("type") == "complex"
    return value if complex_ and "lookup" not in value else None


def _resource_names(resources: Any) -> dict[str, str]:
    """The names bundle resources other than jobs and pipelines are given
    (`schemas`, `volumes`, `registered_models`...): what `${resources.<kind>.<key>.name}`
    (and `catalog_name`, `schema_name`) stand for."""
    out: dict[str, str] = {}
    if not isinstance(resources, dict):
        return out
    for kind, entries in resources.items():
        if kind in ("jobs", "pipelines") or not isinstance(entries, dict):
            continue
        for key, spec in entries.items():
            if not isinstance(spec, dict):
                continue
            for field_name in ("name", "catalog_name", "schema_name"):
                if isinstance(spec.get(field_name), str):
                    out[f"resources.{kind}.{key}.{field_name}"] = spec[field_name]
    return out


def _pipeline(key: str, spec: dict, file: Path, root: Path) -> Pipeline:
    """A bundle pipeline: the files of its `libraries` (notebook, file, glob)."""
    found: list[str] = []
    probes: list[tuple[str, str, tuple[str, ...]]] = []
    for library in spec.get("libraries") or []:
        if not isinstance(library, dict):
            continue
        for kind in ("notebook", "file"):
            ref = library.get(kind)
            value = ref.get("path") if isinstance(ref, dict) else None
            value = known_tail(value) if isinstance(value, str) else None  # a deployment's folder: by its tail
            if value is not None:
                probe = probe_file("locate", value, file.parent, root)
                probes.append(probe)
                found.extend(probe[2])
        pattern = library.get("glob")
        include = pattern.get("include") if isinstance(pattern, dict) else None
        if isinstance(include, str) and not _REF.search(include) and "\0" not in include:
            try:
                base = (file.parent / (include.rstrip("/*") if "*" in include else include)).resolve()
            except (OSError, RuntimeError):  # a link loop, a name too long
                continue
            if _project_file(base, root) is None:  # `../**`: never walked, never listed
                continue
            argument = json.dumps([str(base), str(root)])
            probe = ("pipeline-glob", argument, listing("pipeline-glob", argument))
            probes.append(probe)
            found.extend(probe[2])
    schema = spec.get("schema") or spec.get("target")
    return Pipeline(
        key,
        tuple(dict.fromkeys(found)),
        str(spec["catalog"]) if isinstance(spec.get("catalog"), str) else None,
        str(schema) if isinstance(schema, str) else None,
        spec.get("continuous") is True,
        Location(_rel(file, root), getattr(spec, "line", 1), 1),
        tuple(probes),
        _configuration(spec.get("configuration")),
    )


def _configuration(given: object) -> tuple[tuple[str, str | None], ...]:
    """A pipeline's `configuration` as the text values Spark holds; a key whose value
    is not a scalar, or names a variable no target gave, is kept with None: it is
    set, to a value only a run knows (a default in the code is not its value)."""
    if not isinstance(given, dict):
        return ()
    out: list[tuple[str, str | None]] = []
    for key, value in given.items():
        if isinstance(value, bool):
            value = str(value).lower()
        known = isinstance(value, (str, int, float)) and not _REF.search(str(value))
        out.append((str(key), str(value) if known else None))
    return tuple(out)


def _pipeline_glob(base: Path, root: Path) -> tuple[str, ...]:
    """The source files of a pipeline library `glob` whose folder (or file) is `base`."""
    found = []
    candidates = sorted(_subfolders(base, files=True)) if base.is_dir() else [base]
    for candidate in candidates:
        if candidate.suffix in (".py", ".sql", ".ipynb"):
            resolved = _existing_file(candidate)
            inside = _project_file(resolved, root) if resolved is not None else None
            if inside is not None:
                found.append(inside)
    return tuple(found)


def pipelines_of_settings(out: Workflows, specs: list[tuple[str, dict, Path, int]], root: Path) -> None:
    """Pipelines another reader built in a bundle pipeline's shape (Terraform's
    `databricks_pipeline`: key, `libraries`/`catalog`/`schema`/`continuous`/
    `configuration`, the defining file, its line), read by the bundle's rules: their
    libraries' files, workspace paths matched by name, a job's `pipeline_task` runs
    them and one no job runs is a job of its own (`_run_pipelines`)."""
    for key, spec, file, line in specs:
        pipeline = _pipeline(key, spec, file, root)
        out.pipelines[key] = replace(pipeline, location=replace(pipeline.location, line=line))  # type: ignore[arg-type]
    _match_pipeline_libraries(out, root)
    _run_pipelines(out, paused=False)


def _run_pipelines(out: Workflows, paused: bool) -> None:
    """A job's `pipeline_task` runs its pipeline's files; a pipeline no job runs is
    a job of its own (continuous, or triggered by hand). `paused`: the target's
    presets pause triggers (development mode), which the CLI applies to a
    continuous pipeline by making it triggered (see `_Presets`)."""
    started = set()
    for job in out.jobs.values():
        for task in job.tasks.values():
            pipeline = out.pipelines.get(task.pipeline or "")
            if pipeline is not None:
                # a pipeline none of whose libraries is a project file runs code delta-lint cannot read
                unread = f"a pipeline task runs code delta-lint cannot read (pipeline `{pipeline.key}` names no file of the project)"
                task.files, task.problem = pipeline.files, None if pipeline.files else unread
                started.add(pipeline.key)
    for key, pipeline in out.pipelines.items():
        if key in started or not pipeline.files:
            continue
        job = Job(key=f"pipeline {key}", name=f"pipeline {key}", location=pipeline.location)
        job.continuous = pipeline.continuous and not paused
        job.tasks["update"] = Task("update", "pipeline", pipeline.files, location=pipeline.location)
        out.jobs[job.key] = job


MAX_RESOLVED_GROWTH = 4 * 1024 * 1024  # characters `${...}` references may add to one bundle


@dataclass
class _Growth:
    """What resolving a bundle's references may still add: each reference is a copy
    of its value, so a large variable referenced thousands of times grew a small
    bundle to hundreds of megabytes. From the value that
    would pass the limit on, values that grow keep their references as written (a
    path or parameter that is then not static); the first is reported at its line."""

    left: int = MAX_RESOLVED_GROWTH
    stopped: tuple[int, str] | None = None  # (line, reference) of the first value left unresolved


def _resolve(value: Any, refs: dict[str, Any], growth: _Growth | None = None, line: int = 1) -> Any:
    if isinstance(value, str):
        if "${" not in value:  # most values name no reference: no regex, no new string
            return value
        whole = _REF.fullmatch(value.strip())
        if whole is not None and isinstance(refs.get(whole.group(1)), (list, dict)):
            size = len(json.dumps(refs[whole.group(1)], default=str))
            if growth is not None:
                if size > growth.left:
                    growth.stopped = growth.stopped or (line, whole.group(0))
                    growth.left = 0
                    return value
                growth.left -= size
            return _resolve(refs[whole.group(1)], {}, None, line)  # a copy, its text as written
        found = [(m, refs.get(m.group(1))) for m in _REF.finditer(value)]
        found = [(m, v) for m, v in found if not isinstance(v, (list, dict))]
        added = sum(len(str(v)) - len(m.group(0)) for m, v in found if v is not None)
        if growth is not None and added > 0:
            if added > growth.left:
                if growth.stopped is None:
                    growth.stopped = (line, next(m.group(0) for m, v in found if v is not None))
                growth.left = 0
                return value
            growth.left -= added
        return _REF.sub(lambda m: _ref_text(refs, m), value)
    if isinstance(value, dict):
        here = getattr(value, "line", line)
        out = LineDict({k: _resolve(v, refs, growth, here) for k, v in value.items()})
        out.line = getattr(value, "line", 1)
        return out
    if isinstance(value, list):
        return [_resolve(v, refs, growth, line) for v in value]
    return value


def _ref_text(refs: dict[str, Any], m: re.Match) -> str:
    """A reference inside text: its scalar value; a list or a mapping stays as written."""
    value = refs.get(m.group(1))
    return m.group(0) if value is None or isinstance(value, (list, dict)) else str(value)


def _growth_problem(growth: _Growth, file: Path, root: Path) -> tuple[Location, str] | None:
    if growth.stopped is None:
        return None
    line, reference = growth.stopped
    why = (
        f"`{reference}`: resolving the bundle's references would add more than "
        f"{MAX_RESOLVED_GROWTH // (1024 * 1024)} MB of text; from this value on, references are left as written"
    )
    return Location(_rel(file, root), line, 1), why


def _rel(path: Path, root: Path, resolved: Path | None = None) -> str:
    resolved = resolved or path.resolve()
    try:
        return resolved.relative_to(_resolved_dir(root)).as_posix()
    except ValueError:
        return resolved.as_posix()


def bundle_label(path: Path, root: Path) -> str:
    """A file's path as jobs and pipelines read from it are located (`Job.location`)."""
    return _rel(path, root)


def _resolved_dir(directory: Path) -> Path:
    # kept per working directory for a relative one: a long-lived process may move
    return _resolved_in(directory, "" if directory.is_absolute() else os.getcwd())


@lru_cache(maxsize=1024)
def _resolved_in(directory: Path, cwd: str) -> Path:  # `cwd`: the key a relative directory is kept under
    return directory.resolve()


def _existing_file(path: Path) -> Path | None:
    """`path.resolve()` when it names a file, else None. A bundle names thousands of
    files in a few folders: a plain file costs one lstat, its folder is resolved once
    (a full resolve is an lstat per path component). See `_existing_text`."""
    found = _existing_text(os.fspath(path))
    return Path(found) if found is not None else None


def _job(
    key: str,
    spec: dict,
    file: Path,
    root: Path,
    dev_target: str | None,
    base: Path | None = None,
    label: str | None = None,
    presets: _Presets | None = None,
    cli_paths: bool = False,
) -> Job:
    label = label or _rel(file, root)  # `file` as the locations of the job and its tasks name it
    where = Location(label, getattr(spec, "line", 1), 1)
    job = Job(key=key, name=str(spec.get("name") or key), location=where)
    presets = presets or _Presets()
    runs = spec.get("max_concurrent_runs")
    own = runs if isinstance(runs, int) and not isinstance(runs, bool) and runs >= 1 else None
    job.max_concurrent_runs = own or presets.max_runs
    job.runs_by_default = "its target's presets" if own is None and presets.max_runs > 1 else ""
    if job.runs_by_default and dev_target is not None:
        job.runs_doubt = f"target `{dev_target}` is a development deployment"
    continuous = spec.get("continuous")
    job.continuous = isinstance(continuous, dict) and _pause(continuous, presets) != "PAUSED"
    if isinstance(continuous, dict):  # Databricks keeps one run of a continuous job, whatever its maximum
        job.max_concurrent_runs = 1
    schedule = spec.get("schedule")
    if isinstance(schedule, dict) and schedule.get("quartz_cron_expression"):
        job.cron = (str(schedule["quartz_cron_expression"]), schedule.get("timezone_id") or "UTC")
        job.paused = _pause(schedule, presets) == "PAUSED"
        try:
            check_cron(*job.cron)
        except CronError as err:  # reported at the schedule; the job may then start at any time
            job.cron = None
            if not job.paused:  # a paused schedule starts nothing: its cron is never used, right or wrong
                where_cron = Location(label, getattr(schedule, "line", where.line), 1)
                job.problem = (where_cron, f"`schedule`: {str(err)[:200]}")
                job.trigger = "a schedule delta-lint cannot evaluate"
    trigger = spec.get("trigger")
    if isinstance(trigger, dict):
        job.paused = job.paused or _pause(trigger, presets) == "PAUSED"
        if isinstance(trigger.get("periodic"), dict):
            p = trigger["periodic"]
            job.trigger = f"a periodic trigger every {p.get('interval')} {str(p.get('unit', '')).lower()}"
        elif trigger.get("file_arrival"):
            job.trigger = "a file-arrival trigger"
        elif trigger.get("table_update") or trigger.get("table"):
            job.trigger = "a table-update trigger"
    running = job.continuous or ((job.cron is not None or job.trigger is not None) and not job.paused)
    if dev_target is not None and not running:  # its own `pause_status: UNPAUSED` keeps it running
        job.paused = True
        job.note = f"target `{dev_target}` is in development mode (schedules and triggers paused)"
        if own is None:
            job.note = job.note[:-1] + f", {job.max_concurrent_runs} concurrent runs)"
    job.parameters = tuple(str(p.get("name")) for p in spec.get("parameters") or [] if isinstance(p, dict))
    job.parameter_defaults = tuple(
        (str(p.get("name")), _argument(p.get("default")))
        for p in spec.get("parameters") or []
        if isinstance(p, dict) and p.get("name")
    )
    base = base or file.parent
    # `git_source`: the job's tasks read their files from a checkout of the repository
    # (unless a task says `source: WORKSPACE`); a task's `source: GIT` without one too
    git = isinstance(spec.get("git_source"), dict)
    for task_spec in spec.get("tasks") or []:
        if isinstance(task_spec, dict) and task_spec.get("task_key"):
            task = _task(task_spec, base, root, label, file.parent, git, cli_paths)
            job.tasks[task.key] = task
    _break_cycles(job)
    return job


def _pause(block: dict, presets: _Presets) -> str:
    """A schedule's, trigger's or continuous block's pause status: its own, else the
    target's preset (see `_Presets`)."""
    own = block.get("pause_status")
    return own if own in ("PAUSED", "UNPAUSED") else presets.pause


def _break_cycles(job: Job) -> None:
    """Databricks refuses a job whose `depends_on` form a cycle. Taken as written,
    a cycle would order every task in it before every other, so that no two of them
    could ever overlap and their conflicts would be hidden: the first cycle found
    is kept on the job (reported at its task's line) and the edges inside it are not
    used, so its tasks count as unordered."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(job.tasks):
        if state.get(start):
            continue
        path = [start]
        stack = [iter(sorted(job.tasks[start].depends_on))]
        state[start] = 1
        while stack:
            dep = next(stack[-1], None)
            if dep is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            if dep not in job.tasks:
                continue
            if state.get(dep) == 1:
                cycle = path[path.index(dep) :]
                if not job.cycle:
                    job.cycle = (*cycle, dep)
                members = set(cycle)
                for key in members:
                    task = job.tasks[key]
                    job.tasks[key] = replace(task, depends_on=tuple(d for d in task.depends_on if d not in members))
                continue
            if not state.get(dep):
                state[dep] = 1
                path.append(dep)
                stack.append(iter(sorted(job.tasks[dep].depends_on)))


def _repository_root(folder: Path, root: Path) -> Path:
    """The top of the git work tree holding `folder` when it is inside the
    configuration root, else the root: what `source: GIT` paths are relative to."""
    top = os.path.abspath(root)
    here = os.path.abspath(folder)
    while here.startswith(top) and len(here) > len(top):
        if os.path.exists(os.path.join(here, ".git")):
            return Path(here)
        here = os.path.dirname(here)
    return root


def _from_git(task: dict, git: bool) -> bool:
    """Whether a file task's path is relative to the repository root: `source: GIT`,
    or the job's `git_source` without `source: WORKSPACE`."""
    source = task.get("source") if isinstance(task, dict) else None
    if isinstance(task, dict) and isinstance(task.get("file"), dict):  # sql_task: {file: {path, source}}
        source = task["file"].get("source", source)
    return source == "GIT" or (git and source != "WORKSPACE")


def _task(
    spec: dict,
    base: Path,
    root: Path,
    file_label: str,
    folder: Path | None = None,
    git: bool = False,
    cli_paths: bool = False,
) -> Task:
    """A task of a job defined in a file in `folder` (`base`: what its relative paths
    start from; `git`: the job has a `git_source`; `cli_paths`: a bundle's, whose
    relative paths the CLI resolves and checks at deployment, `_from_project_root`)."""
    key = str(spec["task_key"])
    depends = tuple(str(d.get("task_key")) for d in spec.get("depends_on") or [] if isinstance(d, dict))
    location = Location(file_label, getattr(spec, "line", 1), 1)
    if isinstance(spec.get("for_each_task"), dict):
        inner_spec = spec["for_each_task"].get("task") or {}
        inner = _task(
            {**inner_spec, "task_key": inner_spec.get("task_key") or key},
            base,
            root,
            file_label,
            folder,
            git,
            cli_paths,
        )
        concurrency = spec["for_each_task"].get("concurrency", 1)
        concurrency = concurrency if isinstance(concurrency, int) and concurrency >= 1 else 1
        inputs = spec["for_each_task"].get("inputs")
        fed = _iteration_inputs(inner_spec)
        iterations = _iterations(inputs, inner_spec, inner_spec.get("task_key") or key)
        known = _known_inputs(inputs)
        # the inner task as read at the top level (its files, a wheel's entry point, a
        # pipeline or dbt project it runs), run once per input
        return replace(
            inner,
            key=key,
            kind="for_each_task",
            depends_on=depends,
            for_each_concurrency=concurrency,
            parameters=("inputs", *inner.parameters),
            location=location,
            per_run_inputs=fed,
            iterations=iterations,
            unlisted_inputs=len(known) if known and fed and iterations is None else 0,
        )
    for kind, path_keys in _FILE_TASKS.items():
        if isinstance(spec.get(kind), dict):
            value: Any = spec[kind]
            for k in path_keys:
                value = value.get(k) if isinstance(value, dict) else None
            params = spec[kind].get("base_parameters") or spec[kind].get("parameters") or {}
            if not isinstance(params, (dict, list)):  # a whole reference no variable answers: a run's
                params = {}
            names = (
                tuple(sorted(params)) if isinstance(params, dict) else tuple(f"argv_{i}" for i in range(len(params)))
            )
            arguments = _arguments(_task_name(params, key))
            if not isinstance(value, str) or not value:
                return Task(key, kind, (), depends, None, names, location, f"`{kind}` has no file path")
            written = value
            if _REF.search(value):  # a folder only a deployment knows: its known tail is looked for
                tail = known_tail(value)
                if tail is None:
                    return Task(key, kind, (), depends, None, names, location, f"its path `{value}` is not static")
                probe = probe_file("locate", tail, base, root)
            elif _from_git(spec[kind], git):  # relative to the repository's root; its tail when not found there
                probe = probe_file("locate-git", value, folder or base, root)
            else:
                probe = probe_file("locate", value, base, root)
            if not probe[2]:  # a workspace path may still be matched by its name (`match_by_name`)
                problem, probes = f"`{written}` is not in this project", (probe,)
                relative = cli_paths and probe[0] == "locate"
                beside = _from_project_root(value, base, root) if relative else None
                if beside is not None:
                    problem, probes = f"`{written}` {beside[0]}", (probe, beside[1])
                return Task(key, kind, (), depends, None, names, location, problem, arguments, probes=probes)
            return Task(key, kind, probe[2], depends, None, names, location, arguments=arguments, probes=(probe,))
    if isinstance(spec.get("condition_task"), dict):  # decides which branch runs; runs no file itself
        return Task(key, "condition_task", (), depends, location=location)
    if isinstance(spec.get("dbt_task"), dict):  # its nodes' files are found with the project (`dbt`)
        return Task(key, "dbt_task", (), depends, location=location, dbt=_dbt_task(spec["dbt_task"], base, root))
    kind = next((k for k in _OTHER_TASKS if k in spec), "unknown task type")
    wheel = spec.get("python_wheel_task")
    if isinstance(wheel, dict) and isinstance(wheel.get("entry_point"), str):
        params = wheel.get("parameters") or wheel.get("named_parameters") or []
        names = tuple(sorted(params)) if isinstance(params, dict) else tuple(f"argv_{i}" for i in range(len(params)))
        return Task(
            key,
            kind,
            (),
            depends,
            None,
            names,
            location,
            f"{_article(kind)} {kind.replace('_', ' ')} runs code delta-lint cannot read",
            _arguments(_task_name(params, key)),
            entry_point=wheel["entry_point"],
            package=str(wheel.get("package_name") or ""),
        )
    return Task(
        key,
        kind,
        (),
        depends,
        None,
        (),
        location,
        RUN_JOB_UNREAD
        if kind == "run_job_task"
        else f"{_article(kind)} {kind.replace('_', ' ')} runs code delta-lint cannot read",
        starts=_started_job(spec.get("run_job_task")),
        pipeline=_started_pipeline(spec.get("pipeline_task")),
    )


def known_tail(value: str) -> str | None:
    """A path holding references nothing in the project resolves (the deploying
    user's `${workspace.current_user.userName}`, `${workspace.root_path}`, a
    variable without a default or given with `--var` at deploy time): the folder
    they name is known only to a deployment, so the path is its known tail after
    UNKNOWN_FOLDER (`/Repos/${workspace.current_user.userName}/repo/notebooks/load`
    is `{unknown folder}/repo/notebooks/load`), looked for by its tail and then by
    name as any workspace path in a folder the project does not have
    (`match_by_name`). None when a reference is in the file's own name
    (`notebooks/${var.step}`): which file runs is then known only to a deployment;
    and when it names one of the bundle's own deployment folders
    (`${workspace.root_path}/notebooks/x` outside the synced files, or with
    `file_path` moved): a folder the bundle does not sync the project's files to."""
    found = list(_REF.finditer(value))
    if not found:
        return value
    if any(m.group(1).startswith("workspace.") and m.group(1).endswith("_path") for m in found):
        return None
    rest = value[found[-1].end() :]
    parts = [p for p in rest.split("/") if p and p != "."]
    if not rest.startswith("/") or not parts or ".." in parts:
        return None
    return UNKNOWN_FOLDER + "/" + "/".join(parts)


def tail_notes(workflows: Workflows) -> None:
    """A note naming the tasks whose path was found by the known tail after a
    folder only a deployment knows (`known_tail`): the file is the project's
    file of that tail, not one the path names outright."""
    matched = []
    for job in workflows.jobs.values():
        for key, task in job.tasks.items():
            for kind, argument, answer in task.probes:
                value = json.loads(argument)[0] if kind == "locate" and answer else ""
                if isinstance(value, str) and value.startswith(UNKNOWN_FOLDER):
                    matched.append(f"task `{key}` of job `{job.key}` (`{value}` as {answer[0]})")
    _say_matched(
        workflows,
        matched,
        "whose path holds a folder only a deployment resolves (the deploying user, a variable without a value)",
        "by the path's known tail",
    )


# a run_job_task's note until the job it starts is known (see `airflow.resolve_started_jobs`)
RUN_JOB_UNREAD = "a run job task runs code delta-lint cannot read"
# the `databricks.bundles.core` loader that reads every module of the package it is called in
_PACKAGE_LOADER = "load_resources_from_current_package_module"
MAX_PYTHON_RESOURCE_FILES = 500


def _python_resources(
    main: dict, path: Path, root: Path, listings: list, problems: list
) -> tuple[list[tuple[str, LineDict, Path]], list[Path]]:
    """The jobs a bundle defines in Python (`python: resources: ["pkg:fn"]`, before
    that `experimental: python: resources:`), read with `ast`, never imported: when
    `fn` of the package `pkg` (relative to the bundle root) returns
    `load_resources_from_current_package_module()`, each module of the package's
    `Job(...)` / `Job.from_dict(...)` at its top level (see
    `sdkjobs.bundle_python_jobs`), keyed by its name, its paths relative to the
    bundle root as the CLI reads them. A function that builds its resources some
    other way is code delta-lint does not run: a problem says its jobs are not read.
    Returns (key, settings at their line, file) and the files read."""
    python = main.get("python") if isinstance(main.get("python"), dict) else None
    experimental = main.get("experimental") if isinstance(main.get("experimental"), dict) else {}
    python = python or (experimental.get("python") if isinstance(experimental.get("python"), dict) else {})
    entries = python.get("resources") if isinstance(python, dict) else None
    jobs: list[tuple[str, LineDict, Path]] = []
    files: list[Path] = []
    for entry in entries if isinstance(entries, list) else []:
        module, _, function = str(entry).partition(":")
        parts = module.split(".")
        if not function or not all(p.isidentifier() for p in parts):
            continue
        package = path.parent.joinpath(*parts)
        init = package / "__init__.py"
        why = None
        try:
            tree = ast.parse(read_input_text(init, root)) if init.is_file() else None
        except (OSError, UnicodeDecodeError, ValueError, SyntaxError, RecursionError) as err:
            tree, why = None, f"cannot be read ({type(err).__name__})"
        if tree is not None:
            files.append(init)
            fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function), None)
            body = [n for n in fn.body if not _docstring(n)] if fn is not None else []
            returned = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
            if not (isinstance(returned, ast.Call) and _callee_name(returned) == _PACKAGE_LOADER):
                why = f"`{function}` builds the resources in code delta-lint does not run"
        elif why is None:
            why = f"`{module}` is not a package of the bundle"
        if why is not None:
            where = Location(_rel(path, root), getattr(main, "line", 1), 1)
            problems.append((where, f"python resources `{entry}`: {why}; its jobs are not analysed"))
            continue
        pattern = str(package / "**" / "*.py")
        matched = listing("glob", pattern)
        listings.append(("glob", pattern, matched))
        for file in map(Path, matched[:MAX_PYTHON_RESOURCE_FILES]):
            jobs += _python_jobs(file, root)
            files.append(file)
    return jobs, files


def _python_jobs(file: Path, root: Path) -> list[tuple[str, LineDict, Path]]:
    """One module's jobs (`sdkjobs.bundle_python_jobs`); a module that cannot be read
    defines none (the Python front end reports it where it checks the file)."""
    from delta_lint.frontend.sdkjobs import bundle_python_jobs
    from delta_lint.frontend.values.budget import Budget

    try:
        tree = ast.parse(read_input_text(file, root))
    except (OSError, UnicodeDecodeError, ValueError, SyntaxError, RecursionError):
        return []
    out = []
    for key, settings, line in bundle_python_jobs(tree, Budget(), _rel(file, root)):
        placed = LineDict(settings)
        placed.line = line
        out.append((key, placed, file))
    return out


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _callee_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


_FILE_PATH = "${workspace.file_path}"
_DEFAULT_ROOT_PATH = "~/.bundle/${bundle.name}/${bundle.target}"  # the CLI's `workspace.root_path` default
_HOME = "/Workspace/Users/${workspace.current_user.userName}"


def _workspace_setting(main: dict, tconf: Any, key: str) -> str | None:
    """`workspace.<key>` as the target gives it, else as the bundle does."""
    for conf in (tconf, main):
        workspace = conf.get("workspace") if isinstance(conf, dict) else None
        if isinstance(workspace, dict) and isinstance(workspace.get(key), str) and workspace[key].strip():
            return workspace[key].strip().rstrip("/") or "/"
    return None


def _synced_folder_texts(main: dict, tconf: Any, known: dict[str, str]) -> list[str]:
    """The texts that name the workspace folder the bundle's files are synced to,
    longest first. The CLI syncs the bundle's folder to `workspace.file_path`,
    which defaults to `${workspace.root_path}/files` (Databricks, "Databricks Asset
    Bundle configuration", `workspace`); a bundle may set it to `${workspace.root_path}`
    itself (no `files/` folder) or to any folder. So a path may name that folder as
    `${workspace.file_path}`, as the `file_path` text, or as that text with
    `root_path` written out (`/Workspace/Users/${workspace.current_user.userName}/app`):
    each is the bundle's folder. A path under `root_path` outside `file_path` is
    a folder the bundle does not sync its files to, and stays not static."""
    file_path = _workspace_setting(main, tconf, "file_path") or "${workspace.root_path}/files"
    root_path = _workspace_setting(main, tconf, "root_path") or _DEFAULT_ROOT_PATH
    if root_path.startswith("~/"):  # the CLI's `~`: the deploying user's home folder
        root_path = _HOME + root_path[1:]
    texts = {file_path}
    if "${workspace.root_path}" in file_path and "${workspace.root_path}" not in root_path:
        texts.add(file_path.replace("${workspace.root_path}", root_path))
    for text in list(texts):  # `${bundle.name}`, `${bundle.target}` as the CLI fills them in
        texts.add(_REF.sub(lambda m: known.get(m.group(1), m.group(0)), text))
    for text in list(texts):  # `/Workspace/Users/..` and `/Users/..` name one folder
        if text.startswith("/Workspace/"):
            texts.add(text[len("/Workspace") :])
        elif text.startswith(("/Users/", "/Shared/")):
            texts.add("/Workspace" + text)
    texts.discard(_FILE_PATH)
    return sorted((t for t in texts if t not in ("", "/")), key=len, reverse=True)


def _as_file_path(value: Any, synced: list[str]) -> Any:
    """Settings with each text naming the synced folder (`_synced_folder_texts`)
    written as `${workspace.file_path}`, which resolves to the bundle's folder: a
    folder text followed by `/` or the end of the value, anywhere in a value."""
    if isinstance(value, str):
        if not synced or not any(t in value for t in synced):
            return value
        for text in synced:
            value = _replace_folder(value, text)
        return value
    if isinstance(value, dict):
        out = LineDict({k: _as_file_path(v, synced) for k, v in value.items()})
        out.line = getattr(value, "line", 1)
        return out
    if isinstance(value, list):
        return [_as_file_path(v, synced) for v in value]
    return value


def _replace_folder(value: str, folder: str) -> str:
    """`value` with `folder` replaced where it is a whole run of leading path
    segments: not inside a longer folder name (`/Shared/app` in `/Shared/apps`
    or in `/x/Shared/app`)."""
    out, at = [], 0
    while (found := value.find(folder, at)) >= 0:
        end = found + len(folder)
        before = value[found - 1] if found else ""
        if (end == len(value) or value[end] == "/") and not (before and (before.isalnum() or before in "/._-$}")):
            out += [value[at:found], _FILE_PATH]
        else:
            out.append(value[at:end])
        at = end
    return "".join(out) + value[at:]


def _article(word: str) -> str:
    """ "a" or "an" before a task kind ("an unknown task type", "a pipeline task")."""
    return "an" if word[:1] in "aeiou" else "a"


DBT_PROJECT = "dbt_project.yml"
DBT_PROFILES = "profiles.yml"


def _dbt_task(spec: dict, base: Path, root: Path) -> tuple:
    """A `dbt_task` as `Task.dbt`: its `project_directory` (relative to the file that
    defines the job, else to the root as a `git_source` checkout is; as written
    when neither holds a dbt project), commands, catalog, schema, profiles
    directory and whether it runs on a SQL warehouse."""
    directory = spec.get("project_directory")
    directory = directory if isinstance(directory, str) and not _REF.search(directory) else ""
    folder = directory.strip("/")
    for start in (base, root):
        candidate = start / directory
        if (candidate / DBT_PROJECT).is_file():
            folder = Path(os.path.relpath(os.path.abspath(candidate), os.path.abspath(root))).as_posix()
            break
    commands = tuple(c for c in spec.get("commands") or [] if isinstance(c, str))
    text = lambda v: v if isinstance(v, str) and v and not _REF.search(v) else None  # noqa: E731
    return (
        "" if folder == "." else folder,
        commands,
        text(spec.get("catalog")),
        text(spec.get("schema")),
        text(spec.get("profiles_directory")),
        bool(spec.get("warehouse_id")),
    )


_ITERATION_INPUT = re.compile(r"\{\{\s*input\b")
_ITERATION_MARK = "\x00"


def _iteration_inputs(inner_spec: Any) -> tuple[str, ...]:
    """The parameters of a for_each task's inner task that its `{{input}}` feeds
    (`base_parameters: {record_id: "{{input}}"}`, `["--table", "{{input.name}}"]`),
    by the names the code reads them with."""
    names: set[str] = set()
    for kind in _FILE_TASKS:
        task = inner_spec.get(kind) if isinstance(inner_spec, dict) else None
        if not isinstance(task, dict):
            continue
        params = task.get("base_parameters") or task.get("parameters") or {}
        if isinstance(params, dict):
            marked: Any = {k: _ITERATION_MARK if _ITERATION_INPUT.search(str(v)) else v for k, v in params.items()}
        elif isinstance(params, list):
            marked = [_marked(v) if _ITERATION_INPUT.search(str(v)) else v for v in params]
        else:
            continue
        names |= {name for name, value in _arguments(marked) if value == _ITERATION_MARK}
    return tuple(sorted(names))


MAX_ITERATIONS = 256  # known inputs of one for_each task; past it, they are as a run's


def _known_inputs(inputs: Any) -> list | None:
    """A for_each task's `inputs` when they are known where it is defined: a YAML list
    or a JSON array in a string; None when a run gives them."""
    if isinstance(inputs, str):
        try:
            inputs = json.loads(inputs) if inputs.lstrip().startswith("[") else None
        except ValueError:
            return None
    return inputs if isinstance(inputs, list) else None


def for_each_notes(workflows: Workflows) -> None:
    """A run note for each for_each task whose inputs are known but too many to read
    one iteration at a time: their parameters are then taken as values only a run
    knows, which the note says rather than leaving the iterations out unsaid."""
    for job in workflows.jobs.values():
        for key, task in job.tasks.items():
            if task.unlisted_inputs:
                workflows.notes.append(
                    f"for_each task `{key}` of job `{job.key}` has {task.unlisted_inputs} inputs, more than "
                    f"delta-lint reads one by one (at most {MAX_ITERATIONS}, of bounded size): each iteration "
                    f"gives {', '.join(f'`{n}`' for n in task.per_run_inputs)} one of those values, taken as "
                    "values only a run knows"
                )


def _iterations(inputs: Any, inner_spec: Any, key: str) -> tuple[tuple[tuple[str, str | None], ...], ...] | None:
    """The arguments each iteration of a for_each task gives its inner file task, when
    its `inputs` are known where the task is defined: a YAML list, a JSON array in a
    string (`'["orders", "refunds"]'`) or a variable holding either. Each item
    replaces `{{input}}` (and `{{input.key}}` of an object item); a key the item
    lacks leaves that value to a run. None when a run gives the inputs
    (`{{tasks.x.values.y}}`), past MAX_ITERATIONS, or when the task has no file."""
    inputs = _known_inputs(inputs)
    if not isinstance(inputs, list) or not inputs or len(inputs) > MAX_ITERATIONS:
        return None
    params = None
    for kind in _FILE_TASKS:
        task = inner_spec.get(kind) if isinstance(inner_spec, dict) else None
        if isinstance(task, dict):
            params = task.get("base_parameters") or task.get("parameters") or {}
            break
    if not isinstance(params, (dict, list)):
        return None
    written = json.dumps(params, default=str)
    uses = len(_ITERATION_INPUT.findall(written))
    if uses * len(json.dumps(inputs, default=str)) > MAX_PARAMETER * MAX_ITERATIONS:
        return None  # each item copied into every `{{input}}`: left to a run past this
    if len(written) * len(inputs) > MAX_PARAMETER * MAX_ITERATIONS:
        return None  # every iteration holds all the parameters: left to a run past this
    return tuple(_arguments(_task_name(_with_input(params, item), key)) for item in inputs)


def _with_input(params: Any, item: Any) -> Any:
    """A task's parameters with one iteration's input in place of `{{input}}` and
    `{{input.key}}`; a reference the item cannot fill is kept, a value only a run knows."""

    def text(value: Any) -> str | None:
        if isinstance(value, str):
            return value
        if isinstance(value, bool) or value is None:
            return None if value is None else str(value).lower()
        if isinstance(value, (int, float)):
            return str(value)
        return json.dumps(value, separators=(",", ":"))

    def filled(m: re.Match) -> str:
        path = m.group(1)
        if path == "input":
            found = text(item)
        elif path.startswith("input.") and isinstance(item, dict) and path[6:] in item:
            value = item[path[6:]]
            found = None if isinstance(value, (dict, list)) else text(value)
        else:
            found = None
        return m.group(0) if found is None else found

    def each(value: Any) -> Any:
        return _DYNAMIC.sub(filled, value) if isinstance(value, str) and "{{" in value else value

    if isinstance(params, dict):
        return {k: each(v) for k, v in params.items()}
    return [each(v) for v in params]


def _marked(item: Any) -> str:
    """A list parameter fed by the iteration's input, its `--name=` kept."""
    text = str(item)
    if text.startswith("--") and "=" in text:
        return text.split("=", 1)[0] + "=" + _ITERATION_MARK
    return _ITERATION_MARK


_PIPELINE_ID_REF = re.compile(r"\$\{resources\.pipelines\.([\w-]+)\.id\}")


def _started_pipeline(spec: Any) -> str | None:
    if not isinstance(spec, dict):
        return None
    found = _PIPELINE_ID_REF.fullmatch(str(spec.get("pipeline_id", "")).strip())
    return found.group(1) if found else None


_JOB_ID_REF = re.compile(r"\$\{resources\.jobs\.([\w-]+)\.id\}")


def _started_job(spec: Any) -> tuple[str, tuple[str, ...]] | None:
    """`run_job_task: {job_id: ${resources.jobs.copy.id}, job_parameters: {...}}`."""
    if not isinstance(spec, dict):
        return None
    found = _JOB_ID_REF.fullmatch(str(spec.get("job_id", "")).strip())
    params = spec.get("job_parameters")
    names = tuple(sorted(str(k) for k in params)) if isinstance(params, dict) else ()
    return (found.group(1), names) if found else None


_DYNAMIC = re.compile(r"\{\{\s*([^}]*?)\s*\}\}")


def _argument(value: Any) -> str | None:
    """A parameter's value as the code sees it; None when only a run knows it
    (`{{input}}`, `{{tasks.x.values.y}}`, `{{job.start_time...}}`)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    if not isinstance(value, str) or _REF.search(value) or not value.strip():
        return None  # an empty default is the value a run is started with, not a value
    unknown = False

    def dynamic(m: re.Match) -> str:
        nonlocal unknown
        if m.group(1).startswith("job.parameters."):  # the link stage gives it the job's value
            return m.group(0)
        unknown = True
        return ""

    text = _DYNAMIC.sub(dynamic, value)
    return None if unknown else text


_TASK_NAME = re.compile(r"\{\{\s*task\.name\s*\}\}")
MAX_PARAMETER = 64 * 1024  # characters of a parameter value with its `{{task.name}}`s replaced


def _task_name(params: Any, key: str) -> Any:
    """`{{task.name}}` in a task's parameters is its own task key: put in as text
    (a key is no replacement template: `a\\q` is a task key, not a bad escape). A
    value that would grow past MAX_PARAMETER keeps its `{{task.name}}`s, a value
    only a run knows (a long key in thousands of them would take gigabytes)."""

    def named(value: Any) -> Any:
        if not isinstance(value, str) or "{{" not in value:
            return value
        count = len(_TASK_NAME.findall(value))
        if not count or len(value) + count * len(key) > MAX_PARAMETER:
            return value
        return _TASK_NAME.sub(lambda _: key, value)

    if isinstance(params, dict):
        return {k: named(v) for k, v in params.items()}
    if isinstance(params, list):
        return [named(v) for v in params]
    return params


def _arguments(params: Any) -> tuple[tuple[str, str | None], ...]:
    """Task parameters by the name the code reads them with, with their values as
    the code sees them (see `named_parameters`)."""
    return tuple((name, _argument(value)) for name, value in named_parameters(params))


def named_parameters(params: Any) -> tuple[tuple[str, Any], ...]:
    """Task parameters by the name the code reads them with, their values as written:
    a notebook's widgets (`base_parameters`), a script's `sys.argv[N]` (`argv_N`)
    and `--name value`."""
    if isinstance(params, dict):
        return tuple((str(k), v) for k, v in params.items())
    if not isinstance(params, list):
        return ()
    out = [(f"argv_{i + 1}", v) for i, v in enumerate(params)]
    for i, item in enumerate(params):
        if isinstance(item, str) and item.startswith("--") and len(item) > 2:
            name, eq, value = item[2:].partition("=")
            if eq:
                out.append((name.replace("-", "_"), value))
            elif i + 1 < len(params) and not str(params[i + 1]).startswith("--"):
                out.append((name.replace("-", "_"), params[i + 1]))
    return tuple(out)


def _from_project_root(value: str, base: Path, root: Path) -> tuple[str, tuple[str, str, tuple[str, ...]]] | None:
    """Why a relative task path found nowhere beside the file that defines it names
    no file, when it names one from the project root (`src/x.py` in
    `resources/job.yml`): the CLI resolves a relative path from the defining file's
    folder and refuses to deploy a file it does not find there, so the task runs
    nothing until the path is written from that folder, which the text proposes.
    With the probe that found it (a cached schedule asks it again); None otherwise."""
    if value.startswith("/") or _STORAGE.match(value) or _resolved_dir(base) == _resolved_dir(root):
        return None
    probe = probe_file("locate", value, root, root)
    if not probe[2]:
        return None
    found = probe[2][0]
    proposed = Path(os.path.relpath(_resolved_dir(root) / found, _resolved_dir(base))).as_posix()
    return (
        f"is not in `{_rel(base, root)}/`, the folder of the file that defines it, from which the CLI resolves a relative "
        f"path (and refuses to deploy one it does not find there); the project's `{found}` is `{proposed}` "
        "from that folder",
        probe,
    )


def probe_file(kind: str, value: str, base: Path, root: Path) -> tuple[str, str, tuple[str, ...]]:
    """A task or library file looked for as the listing `kind` ("locate" or
    "locate-git") asks it, with its answer: kept with the schedule, so a cached
    schedule is asked again whether the file is still (or now) there."""
    argument = json.dumps([value, str(base), str(root)])
    return kind, argument, listing(kind, argument)


def _located_question(argument: str) -> tuple[str, Path, Path]:
    value, base, root = json.loads(argument)
    return value, Path(base), Path(root)


def _answer(found: str | None) -> tuple[str, ...]:
    return (found,) if found is not None else ()


def _locate_from_git(value: str, folder: Path, root: Path) -> str | None:
    """A `source: GIT` task path: relative to the top of the repository holding the
    defining file's `folder`; its tail in the project when not found there."""
    top = _repository_root(folder, root)
    return _locate(value.lstrip("/"), top, root) or _by_tail(Path(value).parts, root)


_SUFFIXES = (".py", ".sql", ".ipynb")


def _locate_text(value: str, base: str, root: str) -> str | None:
    """`_locate` of a task path given as text, as a cached schedule asks it again of
    every task on every run: a plain relative or absolute path (no empty, `.` or
    trailing part, which pathlib would drop) is looked for with `os.path`, with no
    Path objects (10,000 tasks cost 0.6 s of pathlib otherwise); anything else, and
    a path found nowhere, goes to `_locate`, which gives the same answers."""
    plain = (
        value
        and not value.startswith((UNKNOWN_FOLDER, "./"))
        and not value.endswith(("/", "/."))
        and "//" not in value
        and "/./" not in value
        and "\x00" not in value
        and value != "."
    )
    if plain:
        first = value if value.startswith("/") else os.path.join(base, value)
        name = first.rpartition("/")[2]
        dot = name.rfind(".")
        candidates = [first] if 0 < dot < len(name) - 1 else [first, *(first + s for s in _SUFFIXES)]
        top = _resolved_dir_text(root)
        prefix = top if top.endswith("/") else top + "/"
        for candidate in candidates:
            resolved = _existing_text(candidate)
            if resolved is not None and resolved.startswith(prefix):
                return resolved[len(prefix) :]
        if not value.startswith("/"):
            return None
    return _locate(value, Path(base), Path(root))


def _existing_text(path: str) -> str | None:
    """The path, resolved, when it names a file (through links), else None: one lstat
    for a plain file, whose folder is resolved once a run."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        folder, slash, name = path.rpartition("/")
        if not slash:
            folder = "."
        elif not folder:
            folder = "/"
        return os.path.join(_resolved_dir_text(folder), name)
    return os.path.realpath(path) if stat.S_ISLNK(mode) and os.path.isfile(path) else None


def _resolved_dir_text(directory: str) -> str:
    """`_resolved_dir` of a folder given as text, kept per working folder as it is."""
    return _resolved_text_in(directory, "" if directory.startswith("/") else os.getcwd())


@lru_cache(maxsize=1024)
def _resolved_text_in(directory: str, cwd: str) -> str:  # `cwd`: the key a relative folder is kept under
    return str(Path(directory).resolve())


# a storage location a deployment copied a project file to (`dbfs:/scripts/load.py`,
# `s3://bucket/jobs/load.py`): its path is matched by name as a workspace path's
_STORAGE = re.compile(r"^(?:(?:dbfs|file):(?=/)|(?:s3a?|s3n|gs|abfss?|wasbs?|oci)://[^/]+(?=/))")


def _storage_path(value: str) -> str:
    """A storage URI's path (`dbfs:/a/b.py` -> `/a/b.py`); any other value as it is."""
    m = _STORAGE.match(value)
    return value[m.end() :] if m else value


def _locate(value: str, base: Path, root: Path) -> str | None:
    """A task path (relative to the file that defines it, or absolute into the
    workspace) as a path relative to the configuration root. A path whose folder
    only a run knows is looked for by its tail: next to the file that defines the
    task, then as the longest matching tail in the project. A storage location
    (`_storage_path`) is found nowhere here: `match_by_name` matches it, with a note."""
    if value.startswith(UNKNOWN_FOLDER):
        tail = value[len(UNKNOWN_FOLDER) :].lstrip("/")
        if not tail:
            return None
        return _locate(tail, base, root) or _by_tail(Path(tail).parts, root)  # else by name: `match_by_name`
    candidates = [base / value] if not value.startswith("/") else [Path(value)]
    for candidate in list(candidates):
        if not candidate.suffix and candidate.name:  # (`/` has no name to give a suffix)
            candidates += [candidate.with_suffix(s) for s in (".py", ".sql", ".ipynb")]
    for candidate in candidates:
        resolved = _existing_file(candidate)
        inside = _project_file(resolved, root) if resolved is not None else None
        if inside is not None:
            return inside
    if value.startswith("/"):  # a workspace path: match the longest suffix inside the project
        return _by_tail(Path(value).parts[1:], root)
    return None


def _project_file(resolved: Path, root: Path) -> str | None:
    """A file's path (resolved: where its links lead) relative to the configuration
    root, or None when it is outside: a task or pipeline library `../../etc/x`, `/etc/x`
    or a glob `../**` names no file of the project, and the schedule must not list
    files from elsewhere on the machine."""
    try:
        return resolved.relative_to(_resolved_dir(root)).as_posix()
    except ValueError:
        return None


def _by_tail(parts: tuple[str, ...], root: Path) -> str | None:
    """The project file whose root-relative path is the longest tail of `parts`."""
    for i in range(len(parts)):
        tail = Path(*parts[i:])
        for suffix in ("", ".py", ".sql", ".ipynb"):
            probe = root / (str(tail) + suffix)
            resolved = _existing_file(probe)
            inside = _project_file(resolved, root) if resolved is not None else None
            if inside is not None:
                return inside
    return None


MAX_NAMED = 5  # candidates a task matched by name to several files names


def match_by_name(workflows: Workflows, root: Path) -> None:
    """Tasks whose workspace path names no project file by its folder, matched to
    the one project file their path's tail names: teams deploy `notebooks/load.py`
    to `/Workspace/Shared/shop/load` or `/Repos/someone/repo/notebooks/load`, a
    folder the repository does not have. The notebook's name (without its suffix)
    picks the candidates, in any folder of the project, and the parent folders of
    the path choose among them as far as they agree with the file's. One best file:
    the task runs it, and a note says so (it was matched by name, not by path).
    Several equally good: the task runs one of them, which only a deployment tells;
    it stays not analysed, naming them. This is the one matching of every reader
    (bundles, Jobs JSON/YAML, Terraform, Airflow, job code), done once a load: the
    project is walked once for all tasks (see `names_in_project`), and the question
    is kept with the listings, so a cached schedule sees a file added or renamed."""
    wanted: list[tuple[Job, str, tuple[str, ...], str]] = []
    for job in workflows.jobs.values():
        for key, task in job.tasks.items():
            found = _unmatched_workspace_path(task)
            if found is not None:
                wanted.append((job, key, *found))
    if not wanted:
        return
    found_for = _named_files({parts for _, _, parts, _ in wanted}, root, workflows)
    matched = []
    for job, key, parts, value in wanted:
        task = job.tasks[key]
        candidates = found_for.get(parts) or []
        if len(candidates) == 1:
            job.tasks[key] = replace(task, files=(candidates[0],), problem=None)
            matched.append(f"task `{key}` of job `{job.key}` (`{value}` as {candidates[0]})")
        elif candidates:
            listed = ", ".join(candidates[:MAX_NAMED]) + (" and more" if len(candidates) > MAX_NAMED else "")
            problem = (
                f"`{value}` is not in this project by its folder, and its name matches several project files "
                f"equally: it runs one of {listed}, which only a deployment tells"
            )
            job.tasks[key] = replace(task, problem=problem)
    _say_matched(workflows, matched, "whose workspace path names a folder the project does not have", "by name")


def _say_matched(workflows: Workflows, matched: list[str], whose: str, how: str) -> None:
    """One run note for the tasks matched to a project file other than by their
    path (`matched`: each task, shown), the first few named."""
    if not matched:
        return
    matched.sort()
    shown = "; ".join(matched[:MAX_NAMED]) + (
        f"; and {len(matched) - MAX_NAMED} more" if len(matched) > MAX_NAMED else ""
    )
    several = len(matched) != 1
    workflows.notes.append(
        f"{len(matched)} task{'s' if several else ''} {whose} {'were' if several else 'was'} matched to a project "
        f"file {how}: {shown}"
    )


def _named_files(tails: set[tuple[str, ...]], root: Path, workflows: Workflows) -> dict[tuple[str, ...], list[str]]:
    """The best project files each path tail names (`names_in_project`), asked as one
    listing kept in `workflows.listings`."""
    ordered = sorted(tails)
    argument = json.dumps([str(root), [list(t) for t in ordered]])
    answer = listing("names", argument)
    workflows.listings.append(("names", argument, answer))
    return {tail: json.loads(line) for tail, line in zip(ordered, answer)}


def _match_pipeline_libraries(workflows: Workflows, root: Path) -> None:
    """A pipeline library (`notebook: {path: ...}`, `file: {path: ...}`) given as a
    workspace path in a folder the project does not have, matched by name as a
    task's path is (`match_by_name`), before the jobs that run the pipeline take its
    files. One best file joins the pipeline's files; several, or none, are a run
    note: a library is never left out unsaid."""
    wanted: list[tuple[str, tuple[str, ...], str]] = []
    for key, pipeline in workflows.pipelines.items():
        for probe in pipeline.probes:
            found = _unfound_workspace_path(probe)
            if found is not None:
                wanted.append((key, *found))
    if not wanted:
        return
    found_for = _named_files({parts for _, parts, _ in wanted}, root, workflows)
    for key, parts, value in wanted:
        pipeline = workflows.pipelines[key]
        candidates = found_for.get(parts) or []
        if len(candidates) == 1:
            workflows.pipelines[key] = replace(pipeline, files=tuple(dict.fromkeys((*pipeline.files, candidates[0]))))
            why = f"was matched to {candidates[0]} by name"
        elif candidates:
            listed = ", ".join(candidates[:MAX_NAMED]) + (" and more" if len(candidates) > MAX_NAMED else "")
            why = f"names several project files equally: it is one of {listed}, which only a deployment tells"
        else:
            why = "is not in this project"
        workflows.notes.append(f"library `{value}` of pipeline `{key}` {why}")


def _unmatched_workspace_path(task: Task) -> tuple[tuple[str, ...], str] | None:
    """(the parts of its path, the path as written) of a task that runs no file because
    its workspace path (absolute, or with a folder only a run knows) was found
    nowhere in the project by its folder; None for any other task."""
    if task.files or not task.problem or len(task.probes) != 1:
        return None
    return _unfound_workspace_path(task.probes[0])


def _unfound_workspace_path(probe: tuple[str, str, tuple[str, ...]]) -> tuple[tuple[str, ...], str] | None:
    """(the parts of the path, the path as written) a `locate` probe found nowhere
    when it is a workspace path (absolute, or with a folder only a run knows); None
    for any other probe."""
    kind, argument, answer = probe
    if kind != "locate" or answer:
        return None
    try:
        value = json.loads(argument)[0]
    except (ValueError, TypeError, IndexError):
        return None
    if not isinstance(value, str) or "\x00" in value:
        return None
    if value.startswith(UNKNOWN_FOLDER):
        text = value[len(UNKNOWN_FOLDER) :]
    elif _storage_path(value).startswith("/"):
        text = _storage_path(value)
    else:
        return None
    parts = tuple(p for p in text.split("/") if p and p != ".")
    if not parts or ".." in parts:
        return None
    return parts, value


def names_in_project(tails: list[list[str]], root: Path, tests: FileTests | None = None) -> tuple[str, ...]:
    """For each path tail (its parts), the project files it names best, as a JSON
    list: files whose name is the tail's last part, with or without a notebook's
    suffix, in any folder (within MAX_BUNDLE_DEPTH), ranked by how many of their
    parent folders agree with the tail's, from the innermost; the best rank kept
    (MAX_NAMED + 1 of them at most, enough to tell one from several). One walk of
    the project answers every tail."""
    lasts = {tail[-1] for tail in tails if tail}
    by_name: dict[str, list[str]] = {}
    for folder, _, files in _project_folders(root, tests):
        for name in files:
            stem, suffix = os.path.splitext(name)
            keys = [name] + ([stem] if suffix in _SUFFIXES and stem != name else [])
            for key in keys:
                if key in lasts:
                    resolved = _existing_file(folder / name)
                    rel = _project_file(resolved, root) if resolved is not None else None
                    if rel is not None:
                        by_name.setdefault(key, []).append(rel)
    out = []
    for tail in tails:
        best: list[str] = []
        longest = 0
        for rel in sorted(set(by_name.get(tail[-1], []))) if tail else []:
            found = rel.split("/")
            n = 1
            while n < min(len(tail), len(found)) and tail[-1 - n] == found[-1 - n]:
                n += 1
            if n > longest:
                best, longest = [rel], n
            elif n == longest:
                best.append(rel)
        out.append(json.dumps(best[: MAX_NAMED + 1]))
    return tuple(out)


# -- Jobs JSON exports ------------------------------------------------------------------------


def add_defined_jobs(workflows: Workflows, defined: list[tuple[str, list[dict]]], root: Path) -> Workflows:
    """The workflows with the jobs that job code defines as literal dicts (see
    `Links.jobs`): `defined` holds (root-relative file, its job documents). Jobs the
    bundle or Jobs JSON already define (same key or name) are kept as they are."""
    if not defined:
        return workflows
    jobs = dict(workflows.jobs)
    names = {j.name for j in jobs.values()}
    files = list(workflows.files)
    for rel, docs in defined:
        file = root / rel
        for doc in docs:
            settings = doc.get("settings", doc)
            try:  # a literal dict of another shape is no job: passed over
                convert(settings, JobSpec, Source(file))
            except ConfigError:
                continue
            key = str(settings.get("name") or Path(rel).stem)
            if key in jobs or key in names:
                continue
            jobs[key] = _job(key, _resolve(settings, {}), file, root, None, base=file.parent)
            files.append(file)
    added = Workflows(jobs={k: v for k, v in jobs.items() if k not in workflows.jobs})
    match_by_name(added, root)
    for_each_notes(added)
    jobs.update(added.jobs)
    sources = [workflows.source] if workflows.source else []
    sources += sorted({rel for rel, _ in defined if root / rel in files})
    return replace(
        workflows,
        jobs=jobs,
        files=files,
        source=", ".join(sources),
        listings=workflows.listings + added.listings,
        notes=workflows.notes + added.notes,
    )


def job_from_settings(key: str, settings: dict, file: Path, root: Path, base: Path) -> Job:
    """A job from Jobs API settings another reader built (Terraform): task paths
    relative to `base`."""
    return _job(key, settings, file, root, None, base=base)


def load_job_definitions(folder: Path, root: Path) -> Workflows:
    """`databricks jobs get` / UI exports: {"job_id": .., "settings": {...}} or bare settings."""
    out = Workflows(source=_rel(folder, root))
    if not folder.is_dir():
        raise ConfigError(f"{folder}: `job_definitions` must be a folder of Jobs JSON files")
    found = listing("json", str(folder))
    out.listings.append(("json", str(folder), found))
    for file in map(Path, found):
        out.files.append(file)  # read, so a change to it (or a fix) is seen by the cache
        try:
            jobs = _exported_jobs(file)
        except ConfigError as err:  # one broken export never hides the others
            out.problems.append(found_problem(file, root, err))
            continue
        for key, settings, job_id in jobs:
            key = key or file.stem
            out.jobs[key] = replace(_job(key, settings, file, root, None, base=root), job_id=job_id)
    return out


def _exported_jobs(file: Path, root: Path | None = None) -> list[tuple[str, dict, str]]:
    """(key, settings, the job's id or "") of every job in a Jobs JSON file, checked against its schema
    (`schema.JobsExport`, `schema.JobSpec`): a document, a list of them,
    `{"jobs": [...]}` as `databricks jobs list` prints, a `jobs/reset` request body
    (`{"job_id": .., "new_settings": {...}}`), or a `resources: jobs:`
    document as the Jobs UI exports a job for a bundle (`schema.BundleFile`; keyed
    by its resource key). JSON that holds no job (no `tasks`) is not a job
    definition and is passed over."""
    try:
        text = read_input_text(file, root)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise ConfigError(
            f"{file}: cannot read job definition: {err}", None, f"cannot read job definition: {err}"
        ) from err
    if file.suffix in (".yml", ".yaml"):  # the Jobs API's YAML form (`databricks jobs create --json @job.yml`)
        doc, source = load_yaml(text, file, LineLoader, what="a job definition", aliases=True)
    else:
        doc = load_json(text, file, "a job definition")
        source = Source(file, text=text)
    resources = doc.get("resources") if isinstance(doc, dict) else None
    if isinstance(resources, dict) and isinstance(resources.get("jobs"), dict):
        # a bundle resource file on its own (exported from the Jobs UI, no `databricks.yml`)
        convert(doc, BundleFile, source)
        return [(str(k), s, "") for k, s in resources["jobs"].items() if isinstance(s, dict) and "tasks" in s]
    listed = doc if isinstance(doc, list) else doc.get("jobs") if isinstance(doc, dict) and "jobs" in doc else [doc]
    prefix: tuple = () if isinstance(doc, list) else ("jobs",) if isinstance(doc, dict) and "jobs" in doc else ()
    if not isinstance(listed, list):
        convert(doc, JobsExport, source)  # names `jobs` and what it should be
        return []
    out = []
    for i, d in enumerate(listed):
        if not isinstance(d, dict):
            continue
        keys = (*prefix, i) if prefix or isinstance(doc, list) else ()
        if "settings" in d:
            convert(d, JobsExport, source, keys)
            settings = d["settings"]
            keys = (*keys, "settings")
        elif isinstance(d.get("new_settings"), dict):  # a `jobs/reset` (or `update`) request body
            settings = d["new_settings"]
            keys = (*keys, "new_settings")
        else:
            settings = d
        if not isinstance(settings, dict) or "tasks" not in settings:
            continue
        convert(settings, JobSpec, source, keys)
        job_id = d.get("job_id")
        job_id = str(job_id) if isinstance(job_id, (str, int)) and not isinstance(job_id, bool) else ""
        out.append((str(settings.get("name") or d.get("job_id") or ""), settings, job_id))
    return out


def load_found_job_json(root: Path, read: tuple[Path, ...] = ()) -> Workflows:
    """Jobs JSON and YAML files found by their shape anywhere in the project (no
    `job_definitions` configured); a broken one is reported at its line, the others
    are read. Task paths are relative to the file's folder, else to the root. Files
    in `read` (a bundle's own files, read with its target and variables) are not
    read again. A bundle resource file (`resources: jobs:`) in the folder of a
    bundle read that does not include it is not deployed by that bundle: not read
    as jobs, and a note says so."""
    out = Workflows()
    found = listing("job-json", str(root))
    out.listings.append(("job-json", str(root), found))
    skip = {os.path.abspath(p) for p in read}
    bundles = [os.path.dirname(p) + os.sep for p in skip if os.path.basename(p) in BUNDLE_NAMES]
    for file in map(Path, found):
        if os.path.abspath(file) in skip:
            continue
        home = max((b for b in bundles if os.path.abspath(file).startswith(b)), key=len, default=None)
        if home is not None and file.suffix in (".yml", ".yaml") and _is_resource_file(file, root):
            out.files.append(file)  # read: an `include` added later reads the project again
            out.notes.append(
                f"{_rel(file, root)} defines bundle resources, but the bundle in "
                f"{_rel(Path(home), root) or '.'} does not include it: it is not deployed, so its jobs are not read"
            )
            continue
        try:
            jobs = _exported_jobs(file, root)
        except ConfigError as err:
            out.problems.append(found_problem(file, root, err))
            out.files.append(file)
            continue
        for key, settings, job_id in jobs:
            # a YAML file of `resources:` is a bundle's, whose paths the CLI resolves from its folder
            yaml = file.suffix in (".yml", ".yaml")
            job = _job(key or file.stem, settings, file, root, None, base=file.parent, cli_paths=yaml)
            out.jobs[key or file.stem] = replace(job, job_id=job_id)
        if jobs:
            out.files.append(file)
    wheel_modules(out, root)
    tail_notes(out)
    out.source = ", ".join(_rel(f, root) for f in out.files)
    return out


_RESOURCES_KEY = re.compile(r"^resources\s*:", re.M)


def _is_resource_file(file: Path, root: Path) -> bool:
    """A YAML file with a top-level `resources:` mapping: a bundle's resource file."""
    try:
        return bool(_RESOURCES_KEY.search(read_input_text(file, root)))
    except (OSError, UnicodeDecodeError, ValueError):
        return False


def wheel_modules(workflows: Workflows, root: Path) -> None:
    """A wheel task runs the project module its entry point names, when exactly one
    is found (see `entry_modules`): one listing for every wheel task of the jobs."""
    tasks = [
        (job, key, task)
        for job in workflows.jobs.values()
        for key, task in job.tasks.items()
        if task.entry_point and not task.files  # a wheel task, or a for_each task running one
    ]
    if not tasks:
        return
    argument = json.dumps([str(root), sorted({(task.package, task.entry_point) for _, _, task in tasks})])
    found = listing("entries", argument)
    workflows.listings.append(("entries", argument, found))
    modules: dict[tuple[str, str], list[str]] = {}
    for line in found:
        package, entry, path = json.loads(line)
        modules.setdefault((package, entry), []).append(path)
    for job, key, task in tasks:
        paths = modules.get((task.package, task.entry_point), [])
        if len(paths) == 1:
            rel = Path(paths[0]).relative_to(root).as_posix()
            job.tasks[key] = replace(task, files=(rel,), problem=None)


_JOB_PARAMETER = re.compile(r"\{\{\s*job\.parameters\.([\w.-]+)\s*\}\}")


def task_runs(workflows: Workflows) -> dict[str, list[tuple[str, str, dict[str, str | None]]]]:
    """file -> (job, task, the values it gives the file's inputs) for each run a task
    makes of it: one per task, or one per iteration of a for_each task whose `inputs`
    are known (`Task.iterations`). The link stage reads a file once per set of values
    its runs give; the schedule tells by them which tasks make a write that only some
    of those readings made (`Intent.given`)."""
    seen: dict[str, list[tuple[str, str, dict[str, str | None]]]] = {}
    started = _started_with(workflows)
    readings = _pipeline_readings(workflows)
    for job in workflows.jobs.values():
        job_values = dict(job.parameter_defaults)
        if job.max_concurrent_runs > 1 and not job.runs_by_default:
            # runs that overlap each other are started with values of their own: the
            # defaults hold only for parameters that what starts them leaves alone
            # (not so for runs a development target allows: a developer's, with defaults)
            varying = started.get(job.key)
            job_values = {k: (None if varying is None or k in varying else v) for k, v in job_values.items()}
        for task in job.tasks.values():
            for arguments in task.iterations if task.iterations is not None else (task.arguments,):
                given = dict(arguments)
                given.update(job_values)  # job parameters win over task parameters of the same name
                resolved = {k: _job_value(v, job_values) for k, v in given.items()}
                pipeline = task.pipeline or (job.key.removeprefix("pipeline ") if task.kind == "pipeline" else None)
                for file in task.files:
                    reading = readings.get((pipeline, file)) if pipeline is not None else None
                    values = resolved if reading is None else {**resolved, PIPELINE_READING: reading}
                    seen.setdefault(file, []).append((job.key, task.key, values))
    return seen


def _pipeline_readings(workflows: Workflows) -> dict[tuple[str, str], str]:
    """(pipeline, file) -> the PIPELINE_READING an update of the pipeline gives the
    file, for files pipelines of different catalogs, schemas or configurations
    share: the datasets each reading makes are that pipeline's own (see
    `frontend.lakeflow.analyze_lakeflow`)."""
    by_file: dict[str, dict[str, str]] = {}
    for key, pipeline in workflows.pipelines.items():
        reading = pipeline_reading(pipeline.catalog, pipeline.schema, pipeline.configuration)
        for file in pipeline.files:
            by_file.setdefault(file, {})[key] = reading
    return {
        (key, file): reading
        for file, found in by_file.items()
        if len(set(found.values())) > 1
        for key, reading in found.items()
    }


def _started_with(workflows: Workflows) -> dict[str, set[str]]:
    """job -> the parameters `run_job_task`s of the project give its runs, for jobs
    only such tasks start (a job with a schedule or trigger of its own is also
    started with its defaults, or by hand with any value)."""
    out: dict[str, set[str]] = {}
    for job in workflows.jobs.values():
        for task in job.tasks.values():
            if task.starts is not None:
                out.setdefault(task.starts[0], set()).update(task.starts[1])
    return {
        key: names
        for key, names in out.items()
        if key in workflows.jobs and not workflows.jobs[key].cron and not workflows.jobs[key].trigger
    }


def _job_value(value: str | None, job_values: dict[str, str | None]) -> str | None:
    """`{{job.parameters.x}}` in a task parameter: the job parameter's value."""
    if value is None or "{{" not in value:
        return value
    missing = False

    def sub(m: re.Match) -> str:
        nonlocal missing
        found = job_values.get(m.group(1))
        if found is None:
            missing = True
            return ""
        return found

    text = _JOB_PARAMETER.sub(sub, value)
    return None if missing else text
