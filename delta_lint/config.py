"""Configuration: `delta-lint.yaml`, `[tool.delta-lint]` in pyproject.toml, or --config.

The keys are a public contract (README). Every problem names the file and the key,
and is raised as ConfigError so the CLI can exit 2 with one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import msgspec
import yaml

from delta_lint.globs import glob_problem
from delta_lint.safeio import read_input_text
from delta_lint.schema import MAX_DEPTH, ConfigError, ConfigFile, Source, check_tree, convert, located, problem

__all__ = ["Config", "ConfigError", "JobConfig", "TableConfig", "load_config", "parse_yaml", "validate"]

CONFIG_NAMES = ("delta-lint.yaml", ".delta-lint.yaml", "delta-lint.yml")
RUNTIME_RE = re.compile(r"^(latest|oss|\d+\.\d+)$")
RULE_RE = re.compile(r"^DL\d{0,3}$")
SPARK_MODES = ("auto", "embedded", "local", "none")
DEFAULT_SPARK_TIMEOUT = 30.0
DEFAULT_SNAPSHOT = "delta-lint.lock.yaml"


def spark_mode_problem(mode: str) -> str | None:
    """Why `mode` is not a valid --spark / `spark:` value, or None."""
    if mode in SPARK_MODES or re.match(r"^sc://[^/\s;:]+(:\d+)?(/.*)?$", mode):
        return None
    return f"must be one of {', '.join(SPARK_MODES)} or a Spark Connect URL sc://host:port, not {mode!r}"


@dataclass(frozen=True)
class TableConfig:
    partitioned_by: tuple[str, ...] | None = None
    clustered_by: tuple[str, ...] | None = None
    deletion_vectors: bool | None = None
    isolation_level: str | None = None
    identity_columns: tuple[str, ...] | None = None
    cardinality: tuple[tuple[str, int], ...] | None = None  # declared distinct values per column (see `advise`)


@dataclass(frozen=True)
class JobConfig:
    name: str
    paths: tuple[str, ...]
    concurrent_runs: int = 1


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # the file it came from (None: defaults)
    root: Path = field(default_factory=Path.cwd)  # paths in the config are relative to this
    runtime: str = "latest"
    photon: bool | None = None
    default_schema: str | None = None
    tables: dict[str, TableConfig] = field(default_factory=dict)
    jobs: tuple[JobConfig, ...] = ()
    exclusive: tuple[frozenset[str], ...] = ()
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    spark: str = "auto"  # auto | embedded | local | none | sc://host:port
    spark_timeout: float = DEFAULT_SPARK_TIMEOUT
    locations: dict[str, str] = field(default_factory=dict)  # table name -> storage location
    snapshot: str = DEFAULT_SNAPSHOT  # lock file, relative to root
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)  # glob -> rule prefixes
    bundle: str | None = None  # databricks.yml (default: found at the root); "" = do not read one
    target: str | None = None
    job_definitions: str | None = None  # folder of Jobs JSON exports
    durations: dict[str, str] = field(default_factory=dict)  # job -> expected run time; "default" for all
    # exported DESCRIBE HISTORY files (`[TABLE=]FILE`, relative to root) for `history`
    # and `check --durations-from history` when no --history-file is given
    history_files: tuple[str, ...] = ()
    strict: bool = False  # coverage gaps (DL000-DL008) fail the gate like predicted conflicts
    # files no job runs: anytime (they may run beside any job) | by-hand (setup and
    # exploration notebooks, run by hand: never paired with other files) | auto
    # (by hand when the project's job definitions or configured jobs run any of its
    # files: then a file none of them runs is not a job; any time otherwise)
    unscheduled: str = "auto"

    @property
    def snapshot_path(self) -> Path:
        return self.root / self.snapshot


_TOP_KEYS = {f.encode_name for f in msgspec.structs.fields(ConfigFile)}


def find_config(start: Path) -> Path | None:
    """The nearest delta-lint.yaml, or pyproject.toml with [tool.delta-lint], upwards."""
    start = start.resolve()
    for directory in (start, *start.parents):
        for name in CONFIG_NAMES:
            if (directory / name).is_file():
                return directory / name
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file() and _pyproject_section(pyproject, directory) is not None:
            return pyproject
    return None


def _pyproject_section(path: Path, root: Path | None = None) -> dict | None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        data = tomllib.loads(read_input_text(path, root))
    except (OSError, ValueError, RecursionError) as err:  # ValueError: also a 5,000-digit integer
        raise ConfigError(f"{path}: cannot read TOML: {err}") from err
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool`: must be a table ([tool]), got {type(tool).__name__} ({tool!r:.40})")
    section = tool.get("delta-lint")
    if section is not None and not isinstance(section, dict):
        raise ConfigError(
            f"{path}: `tool.delta-lint`: must be a table ([tool.delta-lint]), got {type(section).__name__} ({section!r:.40})"
        )
    return section


def load_config(explicit: Path | None = None, cwd: Path | None = None, near: list[Path] | None = None) -> Config:
    """The explicit file, else the nearest one above the working directory, else
    the nearest one above the analysed paths (like ruff, config lives with code).
    An explicit file outside the analysed paths (`near`) configures without moving
    the project root (see `_project_outside`)."""
    cwd = cwd or Path.cwd()
    path = explicit or find_config(cwd)
    for candidate in near or []:
        if path is not None:
            break
        path = find_config(candidate if candidate.is_dir() else candidate.parent)
    if path is None:
        return Config(root=_default_root(cwd, near or []))
    if not path.is_file():
        raise ConfigError(f"{path}: configuration file not found")
    # A file found (not named by the user) must not lead out of its folder: the
    # checkout decides what is found, and a parse error could echo what it read.
    root = None if explicit else path.parent
    try:
        text = read_input_text(path, root)
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read configuration: {err}") from err
    if path.name == "pyproject.toml":
        source = Source(path, text=text, toml=True)
        config = validate(_pyproject_section(path, root) or {}, path, source, ("tool", "delta-lint"))
    else:
        data, source = load_yaml(text, path)
        config = validate(data, path, source)
    # with the checked paths known (the command line), a file outside them only configures
    project = _project_outside(explicit, cwd, near) if explicit is not None and near else None
    return config if project is None else replace(config, root=project)


def _default_root(cwd: Path, near: list[Path]) -> Path:
    """The project root without a configuration file: the working directory, unless
    what is checked is a project of its own elsewhere. The job definitions (bundle,
    job files, Airflow DAGs) are found under the root, so a root that holds other
    projects reads their jobs too, and one outside the project reads none of its
    own: `delta-lint check repo/` from the folder above several checkouts, or
    `delta-lint check /path/to/repo` from anywhere, must say what `delta-lint check
    .` says inside it. So the root is the git work tree that holds every checked
    path when the working directory lies outside it or holds it (inside it, the
    working directory stays the root, as in a monorepo's sub-project); without a
    work tree, the one checked folder when the working directory does not hold it."""
    if not near:
        return cwd
    here = cwd.resolve()
    places = [(p if p.is_dir() else p.parent).resolve() for p in near]
    trees = {next((d for d in (place, *place.parents) if (d / ".git").exists()), None) for place in places}
    if len(trees) == 1:
        (tree,) = trees
        if tree is not None:
            return cwd if here == tree or tree in here.parents else tree
        if len(set(places)) == 1 and here != places[0] and here not in places[0].parents:
            return places[0]
    return cwd


def _project_outside(explicit: Path, cwd: Path, near: list[Path]) -> Path | None:
    """The project root when the named configuration lies outside what is checked
    (the way to keep an untrusted pull request from configuring its own check): the
    root stays where it is without `--config` (the folder of the configuration
    found from the working directory or the checked paths, else the working
    directory), so the bundle, `locations:` and job paths are the project's and the
    file only configures. None, and its folder is the root as before, when every
    checked path lies in that folder and in the same git work tree."""
    folder = explicit.resolve().parent
    if all(_holds(folder, place.resolve()) for place in near):
        return None
    found = find_config(cwd)
    for candidate in near:
        if found is not None:
            break
        found = find_config(candidate if candidate.is_dir() else candidate.parent)
    return found.parent if found is not None else cwd.resolve()


def _holds(folder: Path, place: Path) -> bool:
    """`place` lies in `folder`, and `folder` in the git work tree of `place` (a
    configuration beside the checkout, in the folder above it, is outside it)."""
    if place != folder and folder not in place.parents:
        return False
    checkout = next((d for d in (place, *place.parents) if (d / ".git").exists()), None)
    return checkout is None or checkout == folder or checkout in folder.parents


def parse_yaml(text: str, path: Path, loader_class: type | None = None, what: str = "configuration") -> dict:
    """Safe YAML only (see `load_yaml`), without the lines."""
    return load_yaml(text, path, loader_class, what)[0]


# nodes YAML aliases may add to a job file (`<<: *defaults`, `*cluster`): real files
# add hundreds; an alias bomb passes it within milliseconds and stops at its line
MAX_ALIAS_NODES = 100_000


def load_yaml(
    text: str, path: Path, loader_class: type | None = None, what: str = "configuration", aliases: bool = False
) -> tuple[dict, Source]:
    """Safe YAML only, nesting past a hundred levels and integers of hundreds of
    digits refused. Aliases are refused in delta-lint's own files; with `aliases`
    (job files: bundles and job definitions use them, `<<: *defaults`), they may
    add at most MAX_ALIAS_NODES nodes, so an alias bomb cannot expand
    (`schema.check_tree`). Every problem is a ConfigError naming the file (and the
    line when YAML knows it); the Source places later errors on their lines."""
    try:
        loader = (loader_class or getattr(yaml, "CSafeLoader", yaml.SafeLoader))(text)
        try:
            node = loader.get_single_node()
            check_tree(node, path, what, anchors="&" in text, expand=MAX_ALIAS_NODES if aliases else 0)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(err, "problem", None) or str(err)
        if "nesting depth" in problem:  # libyaml's own limit (PyYAML >= 6.0.3), met before ours
            raise located(path, line, f"nested more than {MAX_DEPTH} levels deep") from err
        raise located(path, line, f"invalid YAML: {problem}") from err
    except (ValueError, RecursionError) as err:  # a date YAML cannot hold (`2024-99-99`), deep flow nesting
        raise located(path, None, f"invalid YAML: {err}") from err
    source = Source(path, node)
    if data is None:
        return {}, source
    if not isinstance(data, dict):
        raise located(path, 1, f"{what} must be a mapping of keys, not {type(data).__name__}")
    return data, source


def validate(data: dict, path: Path, source: Source | None = None, prefix: tuple = ()) -> Config:
    """The configuration as its schema (`schema.ConfigFile`) declares it, then the
    checks of meaning: a runtime's form, a Spark mode, globs RE2 can compile,
    durations. `prefix` is where the section sits in its file (pyproject.toml)."""
    source = source or Source(path)
    raw: ConfigFile = convert(data, ConfigFile, source, prefix)

    def err(keys: tuple, message: str) -> ConfigError:
        return problem(source, (*prefix, *keys), message)

    runtime = str(raw.runtime)
    if not RUNTIME_RE.match(runtime):
        raise err(("runtime",), f'must be a Databricks Runtime version like "15.4", "latest" or "oss", not {runtime!r}')
    if raw.default_schema is not None and not raw.default_schema.strip():
        raise err(("default_schema",), "must be a schema name such as main.sales")
    tables = {}
    for name, settings in (raw.tables or {}).items():
        lists = {}
        for list_key in ("partitioned_by", "clustered_by", "identity_columns"):
            values = getattr(settings, list_key) if settings is not None else None
            if values is not None:
                lists[list_key] = tuple(c.lower() for c in values)
        tables[name] = TableConfig(
            deletion_vectors=settings.deletion_vectors if settings is not None else None,
            isolation_level=settings.isolation_level if settings is not None else None,
            cardinality=tuple(sorted((str(k).lower(), v) for k, v in settings.cardinality.items()))
            if settings is not None and settings.cardinality is not None
            else None,
            **lists,
        )
    globs = [(("exclude", i), g) for i, g in enumerate(raw.exclude or [])]
    globs += [
        (("jobs", name, "paths", i), g) for name, job in (raw.jobs or {}).items() for i, g in enumerate(job.paths)
    ]
    globs += [(("per-file-ignores", g), g) for g in raw.per_file_ignores or {}]
    for keys, glob in globs:
        why = glob_problem(glob)
        if why:
            raise err(keys, why)
    from delta_lint.rulepack import selector_problem

    selectors = [((key, i), v) for key in ("select", "ignore") for i, v in enumerate(getattr(raw, key) or [])]
    selectors += [
        (("per-file-ignores", g, i), v)
        for g, codes in (raw.per_file_ignores or {}).items()
        for i, v in enumerate(codes)
    ]
    for keys, value in selectors:
        if why := selector_problem(value):
            raise err(keys, why)
    spark_problem = spark_mode_problem(raw.spark)
    if spark_problem:
        raise err(("spark",), spark_problem)
    if raw.bundle is True:
        raise err(("bundle",), "must be the path of a databricks.yml, or false to ignore bundles")
    from delta_lint.cron import CronError, parse_duration

    durations = raw.duration or {}
    for job, value in durations.items():
        try:
            parse_duration(value)
        except CronError as why:
            raise err(("duration", job), str(why)) from why
    return Config(
        path=path,
        root=path.parent,
        runtime=runtime,
        photon=raw.photon,
        default_schema=raw.default_schema.lower() if raw.default_schema else None,
        tables=tables,
        jobs=tuple(JobConfig(name, tuple(job.paths), job.concurrent_runs) for name, job in (raw.jobs or {}).items()),
        exclusive=tuple(frozenset(group) for group in raw.exclusive or []),
        exclude=tuple(raw.exclude or ()),
        select=tuple(raw.select or ()),
        ignore=tuple(raw.ignore or ()),
        spark=raw.spark,
        spark_timeout=float(raw.spark_timeout),
        locations={k.lower(): v for k, v in (raw.locations or {}).items()},
        snapshot=raw.snapshot,
        per_file_ignores={glob: tuple(codes) for glob, codes in (raw.per_file_ignores or {}).items()},
        bundle="" if raw.bundle is False else raw.bundle,
        target=raw.target,
        job_definitions=raw.job_definitions,
        durations=dict(durations),
        history_files=tuple(raw.history_files or ()),
        strict=raw.strict,
        unscheduled=raw.unscheduled,
    )


_FIELD_OF_KEY = {"per-file-ignores": "per_file_ignores", "duration": "durations"}


def _plain(value: object) -> object:
    """A configuration value as JSON would hold it (tables, jobs, groups included)."""
    if isinstance(value, TableConfig):
        return {k: _plain(v) for k, v in vars(value).items() if v is not None}
    if isinstance(value, JobConfig):
        return {"paths": list(value.paths), "concurrent_runs": value.concurrent_runs}
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, (tuple, list)):
        if value and all(isinstance(v, JobConfig) for v in value):
            return {v.name: _plain(v) for v in value}
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Path):
        return str(value)
    return value


def settings_sources(config: Config, overrides: dict[str, object]) -> list[tuple[str, object, str]]:
    """`--show-settings`: every configuration key with its effective value and where
    it came from — the command line (`overrides`, key -> value), the configuration
    file (naming `[tool.delta-lint]` for pyproject.toml), or the default."""
    given: set[str] = set()
    origin = "default"
    if config.path is not None:
        if config.path.name == "pyproject.toml":
            given = set(map(str, _pyproject_section(config.path) or {}))
            origin = f"{config.path} [tool.delta-lint]"
        else:
            given = set(map(str, parse_yaml(config.path.read_text(encoding="utf-8"), config.path)))
            origin = str(config.path)
    root_source = origin if config.path is not None else "no configuration file: the working directory"
    if config.path is None and config.root.resolve() != Path.cwd().resolve():
        root_source = "no configuration file: the checked project (the working directory lies outside it)"
    if config.path is not None and config.root.resolve() != config.path.resolve().parent:
        root_source = "the checked project (the configuration file lies outside it)"
    rows: list[tuple[str, object, str]] = [("root", str(config.root), root_source)]
    for key in sorted(_TOP_KEYS):
        if key in overrides:
            rows.append((key, _plain(overrides[key]), "command line"))
            continue
        value = getattr(config, _FIELD_OF_KEY.get(key, key))
        rows.append((key, _plain(value), origin if key in given else "default"))
    return rows
