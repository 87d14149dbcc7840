"""Configuration: `delta-lint.yaml`, `[tool.delta-lint]` in pyproject.toml, or --config.

The keys are a public contract (README). Every problem names the file and the key,
and is raised as ConfigError so the CLI can exit 2 with one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from delta_lint.safeio import read_input_text

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


class ConfigError(Exception):
    """A configuration problem, already phrased for the user (file and key)."""


@dataclass(frozen=True)
class TableConfig:
    partitioned_by: tuple[str, ...] | None = None
    clustered_by: tuple[str, ...] | None = None
    deletion_vectors: bool | None = None
    isolation_level: str | None = None
    identity_columns: tuple[str, ...] | None = None


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
    strict: bool = False  # coverage gaps (DL000-DL007) fail the gate like predicted conflicts
    # files no job runs: anytime (they may run beside any job) | by-hand (setup and
    # exploration notebooks, run by hand: never paired with other files)
    unscheduled: str = "anytime"

    @property
    def snapshot_path(self) -> Path:
        return self.root / self.snapshot


_TOP_KEYS = {
    "runtime",
    "photon",
    "default_schema",
    "tables",
    "jobs",
    "exclusive",
    "exclude",
    "select",
    "ignore",
    "spark",
    "spark_timeout",
    "locations",
    "snapshot",
    "per-file-ignores",
    "bundle",
    "target",
    "job_definitions",
    "duration",
    "strict",
    "unscheduled",
}
_TABLE_KEYS = {"partitioned_by", "clustered_by", "deletion_vectors", "isolation_level", "identity_columns"}
_JOB_KEYS = {"paths", "concurrent_runs"}


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
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read TOML: {err}") from err
    return data.get("tool", {}).get("delta-lint")


def load_config(explicit: Path | None = None, cwd: Path | None = None, near: list[Path] | None = None) -> Config:
    """The explicit file, else the nearest one above the working directory, else
    the nearest one above the analysed paths (like ruff, config lives with code)."""
    cwd = cwd or Path.cwd()
    path = explicit or find_config(cwd)
    for candidate in near or []:
        if path is not None:
            break
        path = find_config(candidate if candidate.is_dir() else candidate.parent)
    if path is None:
        return Config(root=cwd)
    if not path.is_file():
        raise ConfigError(f"{path}: configuration file not found")
    # A file found (not named by the user) must not lead out of its folder: the
    # checkout decides what is found, and a parse error could echo what it read.
    root = None if explicit else path.parent
    if path.name == "pyproject.toml":
        data = _pyproject_section(path, root) or {}
    else:
        try:
            text = read_input_text(path, root)
        except OSError as err:
            raise ConfigError(f"{path}: cannot read configuration: {err}") from err
        data = parse_yaml(text, path)
    return validate(data, path)


def parse_yaml(text: str, path: Path, loader_class: type | None = None, what: str = "configuration") -> dict:
    """Safe YAML only; aliases are refused so an alias bomb cannot expand. Every
    problem is a ConfigError naming the file (and the line when YAML knows it)."""
    try:
        loader = (loader_class or getattr(yaml, "CSafeLoader", yaml.SafeLoader))(text)
        try:
            node = loader.get_single_node()
            # An alias (*name) needs an anchor (&name): a text without `&` has none to walk for.
            if node is not None and "&" in text and _has_alias(node, set()):
                raise ConfigError(f"{path}: YAML aliases (*name) are not allowed in {what}")
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{path}{where}: invalid YAML: {getattr(err, 'problem', None) or err}") from err
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: {what} must be a mapping of keys, not {type(data).__name__}")
    return data


def _has_alias(node, seen: set[int]) -> bool:
    if id(node) in seen:
        return True
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        return any(_has_alias(k, seen) or _has_alias(v, seen) for k, v in node.value)
    if isinstance(node, yaml.SequenceNode):
        return any(_has_alias(v, seen) for v in node.value)
    return False


def _err(path: Path, key: str, message: str) -> ConfigError:
    return ConfigError(f"{path}: `{key}`: {message}")


def _str_list(value, path: Path, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _err(path, key, "must be a list of strings")
    return tuple(value)


def validate(data: dict, path: Path) -> Config:
    unknown = sorted(set(map(str, data)) - _TOP_KEYS)
    if unknown:
        raise _err(path, unknown[0], f"unknown key (known keys: {', '.join(sorted(_TOP_KEYS))})")
    runtime = str(data.get("runtime", "latest"))
    if not RUNTIME_RE.match(runtime):
        raise _err(
            path, "runtime", f'must be a Databricks Runtime version like "15.4", "latest" or "oss", not {runtime!r}'
        )
    photon = data.get("photon")
    if photon is not None and not isinstance(photon, bool):
        raise _err(path, "photon", "must be true or false")
    default_schema = data.get("default_schema")
    if default_schema is not None and (not isinstance(default_schema, str) or not default_schema.strip()):
        raise _err(path, "default_schema", "must be a schema name such as main.sales")
    tables = {}
    raw_tables = data.get("tables") or {}
    if not isinstance(raw_tables, dict):
        raise _err(path, "tables", "must be a mapping of table name to settings")
    for name, settings in raw_tables.items():
        key = f"tables.{name}"
        settings = settings or {}
        if not isinstance(settings, dict):
            raise _err(path, key, "must be a mapping of settings")
        bad = sorted(set(settings) - _TABLE_KEYS)
        if bad:
            raise _err(path, f"{key}.{bad[0]}", f"unknown key (known: {', '.join(sorted(_TABLE_KEYS))})")
        iso = settings.get("isolation_level")
        if iso is not None and iso not in ("WriteSerializable", "Serializable"):
            raise _err(path, f"{key}.isolation_level", "must be WriteSerializable or Serializable")
        dv = settings.get("deletion_vectors")
        if dv is not None and not isinstance(dv, bool):
            raise _err(path, f"{key}.deletion_vectors", "must be true or false")
        lists = {}
        for list_key in ("partitioned_by", "clustered_by", "identity_columns"):
            if settings.get(list_key) is not None:
                lists[list_key] = tuple(c.lower() for c in _str_list(settings[list_key], path, f"{key}.{list_key}"))
        tables[str(name)] = TableConfig(deletion_vectors=dv, isolation_level=iso, **lists)
    jobs = []
    raw_jobs = data.get("jobs") or {}
    if not isinstance(raw_jobs, dict):
        raise _err(path, "jobs", "must be a mapping of job name to {paths, concurrent_runs}")
    for name, job in raw_jobs.items():
        key = f"jobs.{name}"
        if not isinstance(job, dict):
            raise _err(path, key, "must be a mapping with `paths`")
        bad = sorted(set(job) - _JOB_KEYS)
        if bad:
            raise _err(path, f"{key}.{bad[0]}", f"unknown key (known: {', '.join(sorted(_JOB_KEYS))})")
        if "paths" not in job:
            raise _err(path, f"{key}.paths", "is required")
        runs = job.get("concurrent_runs", 1)
        if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
            raise _err(path, f"{key}.concurrent_runs", "must be a whole number >= 1")
        jobs.append(JobConfig(str(name), _str_list(job["paths"], path, f"{key}.paths"), runs))
    exclusive = []
    raw_exclusive = data.get("exclusive") or []
    if not isinstance(raw_exclusive, list):
        raise _err(path, "exclusive", "must be a list of job-name lists")
    for i, group in enumerate(raw_exclusive):
        names = _str_list(group, path, f"exclusive[{i}]")
        exclusive.append(frozenset(names))
    rule_lists = {}
    for key in ("select", "ignore"):
        values = _str_list(data.get(key) or [], path, key)
        for v in values:
            if not RULE_RE.match(v):
                raise _err(path, key, f"`{v}` is not a rule id or prefix (like DL101 or DL1)")
        rule_lists[key] = values
    spark = data.get("spark", "auto")
    problem = spark_mode_problem(spark) if isinstance(spark, str) else "must be a string"
    if problem:
        raise _err(path, "spark", problem)
    timeout = data.get("spark_timeout", DEFAULT_SPARK_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise _err(path, "spark_timeout", "must be a number of seconds > 0")
    locations = data.get("locations") or {}
    if not isinstance(locations, dict) or not all(isinstance(v, str) and v for v in locations.values()):
        raise _err(path, "locations", "must be a mapping of table name to storage path")
    snapshot = data.get("snapshot", DEFAULT_SNAPSHOT)
    if not isinstance(snapshot, str) or not snapshot:
        raise _err(path, "snapshot", "must be a file path")
    per_file = data.get("per-file-ignores") or {}
    if not isinstance(per_file, dict):
        raise _err(path, "per-file-ignores", "must be a mapping of glob to a list of rule ids or prefixes")
    per_file_ignores = {}
    for glob, rules in per_file.items():
        codes = _str_list(rules, path, f"per-file-ignores.{glob}")
        for code in codes:
            if not RULE_RE.match(code):
                raise _err(path, f"per-file-ignores.{glob}", f"`{code}` is not a rule id or prefix (like DL101 or DL1)")
        per_file_ignores[str(glob)] = codes
    bundle = data.get("bundle")
    if bundle is False:
        bundle = ""
    if bundle is not None and not isinstance(bundle, str):
        raise _err(path, "bundle", "must be the path of a databricks.yml, or false to ignore bundles")
    for key in ("target", "job_definitions"):
        if data.get(key) is not None and (not isinstance(data[key], str) or not data[key]):
            raise _err(path, key, "must be a string")
    durations = data.get("duration") or {}
    if not isinstance(durations, dict):
        raise _err(path, "duration", "must be a mapping of job name (or `default`) to a duration like 50m or 2h")
    strict = data.get("strict", False)
    if not isinstance(strict, bool):
        raise _err(path, "strict", "must be true or false")
    unscheduled = data.get("unscheduled", "anytime")
    if unscheduled not in ("by-hand", "anytime"):
        raise _err(path, "unscheduled", "must be anytime or by-hand")
    from delta_lint.cron import CronError, parse_duration

    for job, value in durations.items():
        try:
            parse_duration(value)
        except CronError as err:
            raise _err(path, f"duration.{job}", str(err)) from err
    return Config(
        path=path,
        root=path.parent,
        runtime=runtime,
        photon=photon,
        default_schema=default_schema.lower() if default_schema else None,
        tables=tables,
        jobs=tuple(jobs),
        exclusive=tuple(exclusive),
        exclude=_str_list(data.get("exclude") or [], path, "exclude"),
        select=rule_lists["select"],
        ignore=rule_lists["ignore"],
        spark=spark,
        spark_timeout=float(timeout),
        locations={str(k).lower(): v for k, v in locations.items()},
        snapshot=snapshot,
        per_file_ignores=per_file_ignores,
        bundle=bundle,
        target=data.get("target"),
        job_definitions=data.get("job_definitions"),
        durations={str(k): str(v) if not isinstance(v, (int, float)) else v for k, v in durations.items()},
        strict=strict,
        unscheduled=unscheduled,
    )
