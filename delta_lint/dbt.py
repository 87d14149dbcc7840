"""dbt projects read as the writes their models, snapshots and seeds make.

A dbt project (a folder with `dbt_project.yml`) is read as text, never rendered
or run:

* `dbt_project.yml` with the project's safe YAML loader: its name, profile, model,
  snapshot and seed paths, and the `models:` / `snapshots:` / `seeds:` configs
  (`+materialized`, `+incremental_strategy`, `+schema`, `+alias`, `+unique_key`,
  `+partition_by`, `+liquid_clustered_by`, `+incremental_predicates`, `+tags`),
  inherited folder by folder below the project's name;
* each model's (and snapshot's) `{{ config(...) }}` call: its keyword arguments
  read by `ast` as literals (Jinja's `true`/`false`/`none` too); an argument that
  is not a literal (`var(...)`, an expression) is left unknown and the project's
  value stands; `ref('x')` names, for `+model` / `model+` selectors;
* YAML-defined snapshots (`snapshots:` entries of YAML files in snapshot paths);
* `profiles.yml` next to the project (or in a task's `profiles_directory`): the
  target's `catalog` and `schema` when they are literals, or the default of an
  environment variable (`{{ env_var('DATABRICKS_CATALOG', 'sales') }}`); for a
  project with none of its own, the repository's `profiles.yml` files that define
  its profile, where they agree (see `profile_elsewhere`).

A node's table is `catalog.schema.alias`, with dbt's default
`generate_schema_name` (the target schema, plus `_<custom>` for a `+schema`),
its `alias` else its name. What each materialization of dbt-databricks writes is
`DbtWrite`; `frontend.dbt` turns it into intents at the node's file.

A job's `dbt_task` runs the project at its `project_directory` with its
`commands`: `dbt run` (models), `dbt build` (models, snapshots, seeds),
`dbt snapshot`, `dbt seed`, each with `--select`/`-s` and `--exclude` by name,
`path:`, folder, `tag:` (a literal tag config) and the `+`/`@` graph operators
over `ref`s. A selector delta-lint cannot read selects every node of the command,
with a note. A project no job runs is a set of files run by hand.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from delta_lint.bundle import DBT_PROJECT as PROJECT_FILE
from delta_lint.bundle import Workflows, found_problem, listing
from delta_lint.config import ConfigError, load_yaml
from delta_lint.frontend.discover import DBT_DEFAULT_PATHS
from delta_lint.safeio import is_within, read_input_text

MAX_DBT_BYTES = 1024 * 1024  # a model or a project file is kilobytes
MAX_NODES = 20_000  # nodes read from one project at most
MAX_CONFIG_CHARS = 20_000  # a config() call's arguments read at most

CATALOG, SCHEMA = "{catalog}", "{schema}"  # the placeholders of what only a run knows

# the configs read from `dbt_project.yml` and `config()`; others are passed over
_CONFIGS = (
    "materialized",
    "incremental_strategy",
    "schema",
    "alias",
    "database",
    "catalog",
    "unique_key",
    "partition_by",
    "liquid_clustered_by",
    "incremental_predicates",
    "tags",
    "enabled",
    "strategy",
    "target_schema",
    "target_database",
)
_UNKNOWN = object()  # a config whose value the text does not tell

# `{{ config(` (`{{-` too) and `{% snapshot name %}`
_CONFIG_CALL = re.compile(r"\{\{-?\s*config\s*\(")
_SNAPSHOT_BLOCK = re.compile(r"\{%-?\s*snapshot\s+(\w+)\s*-?%\}")
_REF = re.compile(r"""\bref\s*\(\s*(?:['"][\w.-]+['"]\s*,\s*)?['"]([\w.-]+)['"]""")


@dataclass(frozen=True)
class DbtWrite:
    """What one run of a node writes, as dbt-databricks writes it: `materialized`
    (`incremental`, `table`, `snapshot`, `seed`, ...) and, for an incremental model,
    its `strategy`; the merge key, partition columns and the literal incremental
    predicates (None when they are not literals); where the node is."""

    table: str
    materialized: str
    strategy: str = ""
    unique_key: tuple[str, ...] = ()
    partition_by: tuple[str, ...] = ()
    predicates: tuple[str, ...] | None = ()
    line: int = 1
    name: str = ""

    def as_spec(self) -> tuple:
        """Plain values for a front end's context (they key its cache)."""
        return (
            self.table,
            self.materialized,
            self.strategy,
            list(self.unique_key),
            list(self.partition_by),
            None if self.predicates is None else list(self.predicates),
            self.line,
            self.name,
        )


@dataclass
class DbtNode:
    """A model, snapshot or seed of a project."""

    name: str
    resource: str  # model, snapshot, seed
    file: str  # relative to the configuration root
    in_project: str  # relative to the project folder (`models/staging/x.sql`)
    config: dict[str, Any] = field(default_factory=dict)  # resolved: project configs, then its own
    line: int = 1
    refs: tuple[str, ...] = ()
    schema_rule: str = "default"  # the project's `generate_schema_name` (`schema_rule`)


@dataclass
class DbtProject:
    folder: str  # relative to the configuration root ("" at the root)
    name: str
    profile: str
    nodes: list[DbtNode] = field(default_factory=list)


# -- finding and reading projects -----------------------------------------------------------


def _rel(path: Path, root: Path) -> str:
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return path.as_posix()


def _yaml(path: Path, root: Path, what: str) -> dict:
    try:
        text = read_input_text(path, root, MAX_DBT_BYTES)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read {what}: {err}", None, f"cannot read {what}: {err}") from err
    data, _ = load_yaml(text, path, what=what)
    return data


def read_project(file: Path, root: Path) -> tuple[DbtProject, list[Path]]:
    """A project and the files read for it (the project file, its nodes)."""
    doc = _yaml(file, root, "a dbt project file")
    folder = file.parent
    project = DbtProject(_rel(folder, root) if folder != root else "", str(doc.get("name") or ""), "")
    project.folder = "" if project.folder == "." else project.folder
    project.profile = str(doc.get("profile") or project.name)
    read = [file]
    rule, macros = schema_rule(folder, doc, root)
    read += macros
    for resource, key, suffixes in (
        ("model", "model-paths", (".sql",)),
        ("snapshot", "snapshot-paths", (".sql", ".yml", ".yaml")),
        ("seed", "seed-paths", (".csv",)),
    ):
        default = DBT_DEFAULT_PATHS[key]
        paths = doc.get(key) or doc.get(key.replace("model-", "source-")) or default
        tree = doc.get(resource + "s") if isinstance(doc.get(resource + "s"), dict) else {}
        for base in paths if isinstance(paths, list) else default:
            for path in _files_under(folder / str(base), suffixes, root):
                if len(project.nodes) >= MAX_NODES:
                    break
                in_project = _rel(path, folder)
                for node in _nodes(path, root, resource, in_project, str(base)):
                    inherited = _project_configs(tree, project.name, in_project, str(base), node.name)
                    node.config = {**inherited, **node.config}
                    node.schema_rule = rule
                    project.nodes.append(node)
                read.append(path)
    return project, read


_SCHEMA_MACRO = re.compile(r"\{%-?\s*macro\s+generate_schema_name\s*\((.*?)\{%-?\s*endmacro", re.S)
_OUTPUT = re.compile(r"\{\{-?(.*?)-?\}\}", re.S)
_DEFAULT_OUTPUTS = {"default_schema", "target.schema"}
_CUSTOM_OUTPUTS = {"custom_schema_name", "custom_schema_name|trim", "custom_schema_name.strip()"}


def schema_rule(folder: Path, doc: dict, root: Path) -> tuple[str, list[Path]]:
    """How the project names a node's schema, and the macro files read to tell:
    "default" (dbt's `generate_schema_name`: the target schema, `_<custom>` after
    it), "as_is" (the override dbt's documentation gives: a custom schema is the
    schema itself, the target schema where none is set) or "unknown" (an override
    of another shape, such as `generate_schema_name_for_env`, whose answer depends
    on the target: its schemas are what only a run knows, never dbt's default)."""
    paths = doc.get("macro-paths") if isinstance(doc.get("macro-paths"), list) else ["macros"]
    read: list[Path] = []
    for base in paths:
        for path in _files_under(folder / str(base), (".sql",), root):
            try:
                text = read_input_text(path, root, MAX_DBT_BYTES)
            except (OSError, UnicodeDecodeError, ValueError):
                continue
            read.append(path)
            found = _SCHEMA_MACRO.search(text)
            if found is None:
                continue
            outputs = {"".join(o.split()) for o in _OUTPUT.findall(found.group(1))}
            if outputs and outputs <= _DEFAULT_OUTPUTS | _CUSTOM_OUTPUTS and outputs & _CUSTOM_OUTPUTS:
                return "as_is", read
            return "unknown", read
    return "default", read


def _files_under(folder: Path, suffixes: tuple[str, ...], root: Path) -> list[Path]:
    """The files of a node folder, sorted; nothing for a folder that leads out of the
    project (`model-paths: ["/"]`, `../..`, a link): a project file never makes
    delta-lint walk the rest of the machine."""
    out: list[Path] = []
    if not folder.is_dir() or not is_within(os.path.realpath(folder), os.path.realpath(root)):
        return out
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out += [Path(here) / f for f in sorted(files) if f.endswith(suffixes) and not f.startswith(".")]
    return out


def _nodes(path: Path, root: Path, resource: str, in_project: str, base: str) -> list[DbtNode]:
    """The nodes one file defines (a SQL model or snapshot, a seed, YAML snapshots)."""
    rel = _rel(path, root)
    if resource == "seed":
        return [DbtNode(path.stem, "seed", rel, in_project)]
    if path.suffix in (".yml", ".yaml"):
        return _yaml_snapshots(path, root, rel, in_project)
    try:
        text = read_input_text(path, root, MAX_DBT_BYTES)
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    config, line = read_config(text)
    refs = tuple(dict.fromkeys(_REF.findall(text)))
    if resource == "snapshot":
        blocks = list(_SNAPSHOT_BLOCK.finditer(text))
        if not blocks:
            return []
        # a legacy snapshot block names the snapshot; its line is the block's
        first = blocks[0]
        line = line if line > 1 else text.count("\n", 0, first.start()) + 1
        return [DbtNode(first.group(1), "snapshot", rel, in_project, config, line, refs)]
    return [DbtNode(path.stem, "model", rel, in_project, config, line, refs)]


def _yaml_snapshots(path: Path, root: Path, rel: str, in_project: str) -> list[DbtNode]:
    """`snapshots: [{name, relation, config: {...}}]` (dbt 1.9's YAML snapshots)."""
    from delta_lint.bundle import LineLoader

    try:
        data, _ = load_yaml(read_input_text(path, root, MAX_DBT_BYTES), path, LineLoader, "a dbt YAML file")
    except (OSError, UnicodeDecodeError, ValueError, ConfigError):
        return []
    out = []
    for entry in data.get("snapshots") or [] if isinstance(data.get("snapshots"), list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            config = entry.get("config") if isinstance(entry.get("config"), dict) else {}
            kept = {k: v for k, v in config.items() if k in _CONFIGS}
            out.append(DbtNode(entry["name"], "snapshot", rel, in_project, kept, getattr(entry, "line", 1)))
    return out


def _project_configs(tree: Any, project: str, in_project: str, base: str, name: str) -> dict[str, Any]:
    """The configs `dbt_project.yml` gives a node: those at the resource's top, then
    under the project's name, then folder by folder down to the node's own name;
    deeper ones win."""
    out: dict[str, Any] = {}
    if not isinstance(tree, dict):
        return out
    _level(tree, out)
    scope = tree.get(project)
    parts = Path(in_project).relative_to(base).parts if in_project.startswith(base.rstrip("/") + "/") else ()
    steps = [*parts[:-1], name]
    for step in steps:
        if not isinstance(scope, dict):
            break
        _level(scope, out)
        scope = scope.get(step)
    if isinstance(scope, dict):
        _level(scope, out)
    return out


def _level(scope: dict, out: dict[str, Any]) -> None:
    for key, value in scope.items():
        name = str(key).lstrip("+")
        if name in _CONFIGS and (str(key).startswith("+") or not isinstance(value, dict)):
            out[name] = _literal_config(value)


def _literal_config(value: Any) -> Any:
    """A YAML config value; a Jinja template is not a literal."""
    if isinstance(value, str) and ("{{" in value or "{%" in value):
        return _UNKNOWN
    return value


def read_config(text: str) -> tuple[dict[str, Any], int]:
    """The literal keyword arguments of the file's first `{{ config(...) }}` call and
    its line (1 without one). A keyword whose value is not a literal is unknown."""
    m = _CONFIG_CALL.search(text)
    if m is None:
        return {}, 1
    line = text.count("\n", 0, m.start()) + 1
    args = _call_arguments(text, m.end())
    out: dict[str, Any] = {}
    for argument in args or ():
        name, eq, value = argument.partition("=")
        name = name.strip()
        if not eq or name not in _CONFIGS:
            continue
        try:
            node = ast.parse(value.strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):  # Jinja's `~`, filters: not a literal
            out[name] = _UNKNOWN
            continue
        out[name] = _literal(node)
    return out, line


def _call_arguments(text: str, start: int) -> list[str] | None:
    """The top-level arguments of a call whose parentheses open before `start`
    (strings and nesting skipped), or None when it does not close within
    MAX_CONFIG_CHARS."""
    depth, i, quote, begin = 1, start, "", start
    out = []
    end = min(len(text), start + MAX_CONFIG_CHARS)
    while i < end:
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return [*out, text[begin:i].replace("\n", " ")]
        elif c == "," and depth == 1:
            out.append(text[begin:i].replace("\n", " "))
            begin = i + 1
        i += 1
    return None


_JINJA_CONSTANTS = {"true": True, "True": True, "false": False, "False": False, "none": None, "None": None}


def _literal(node: ast.expr, depth: int = 0) -> Any:
    """A literal's value (strings, numbers, Jinja constants, lists, dicts of them)."""
    if depth > 20:
        return _UNKNOWN
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (str, int, float, bool))
        or (isinstance(node, ast.Constant) and node.value is None)
    ):
        return node.value
    if isinstance(node, ast.Name) and node.id in _JINJA_CONSTANTS:
        return _JINJA_CONSTANTS[node.id]
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_literal(e, depth + 1) for e in node.elts]
        return _UNKNOWN if any(i is _UNKNOWN for i in items) else items
    if isinstance(node, ast.Dict):
        keys = [_literal(k, depth + 1) if k is not None else _UNKNOWN for k in node.keys]
        values = [_literal(v, depth + 1) for v in node.values]
        if any(x is _UNKNOWN for x in keys + values):
            return _UNKNOWN
        return dict(zip(keys, values))
    return _UNKNOWN


# -- profiles and tables ----------------------------------------------------------------------


def _profile_outputs(folder: Path, root: Path, profile: str) -> tuple[dict, object] | None:
    """A profile's outputs in `folder`/profiles.yml and its `target`: None when
    there is no such file or profile."""
    file = folder / "profiles.yml"
    if not file.is_file():
        return None
    try:
        doc = _yaml(file, root, "a dbt profiles file")
    except ConfigError:
        return None
    spec = doc.get(profile)
    if not isinstance(spec, dict) or not isinstance(spec.get("outputs"), dict):
        return None
    return spec["outputs"], spec.get("target")


def profile_target(folder: Path, root: Path, profile: str, target: str | None) -> tuple[str | None, str | None] | None:
    """(catalog, schema) of a profile's target in `folder`/profiles.yml (None when
    there is no such file or profile); a value that is not a literal is None."""
    found = _profile_outputs(folder, root, profile)
    if found is None:
        return None
    outputs, default = found
    name = target or default
    output = outputs.get(name) if isinstance(name, str) and "{{" not in name else None
    if output is None and outputs:
        output = next(iter(outputs.values()))
    if not isinstance(output, dict):
        return None
    return _plain(output.get("catalog") or output.get("database")), _plain(output.get("schema"))


# dbt adapters whose tables are Delta tables on Databricks: `databricks`, and
# `spark` (dbt-spark), whose tables on a Databricks cluster are Delta by default
DELTA_ADAPTERS = frozenset({"databricks", "spark"})


def other_adapter(folder: Path, root: Path, profile: str) -> str | None:
    """The adapter of a project's profile when every output of it is a literal
    adapter other than Databricks' (`type: postgres`): its models build tables in
    that database, not Delta tables. None when one output may be Databricks, a
    type is not a literal, or there is no such profile here."""
    found = _profile_outputs(folder, root, profile)
    if found is None or not found[0]:
        return None
    types = {_plain(o.get("type")) if isinstance(o, dict) else None for o in found[0].values()}
    if None in types or types & DELTA_ADAPTERS:
        return None
    return ", ".join(sorted(t for t in types if t))


# `{{ env_var('DATABRICKS_CATALOG', 'sales') }}`: an environment variable with the
# project's own default, which is the value wherever the run does not set it (as
# `os.getenv`'s literal default is to the Python reader)
_ENV_DEFAULT = re.compile(r"""\{\{\s*env_var\(\s*(['"])\w+\1\s*,\s*(['"])([^'"{}]+)\2\s*\)\s*\}\}""")


def profile_elsewhere(
    workflows: Workflows, root: Path, profile: str, target: str | None
) -> tuple[str | None, str | None] | None:
    """(catalog, schema) of a profile's target for a project with no `profiles.yml`
    of its own: dbt then reads the one in the user's `~/.dbt`, which a repository
    keeps as a file it mounts or copies there (`docker/dbt/profiles.yml`). The one
    answer the repository's `profiles.yml` files that define the profile agree on;
    None when none does or they differ. The files count as read, so a change to
    one is seen by a cached run."""
    found = listing("dbt-profiles", str(root))
    workflows.listings.append(("dbt-profiles", str(root), found))
    answers = set()
    for file in map(Path, found):
        answer = profile_target(file.parent, root, profile, target)
        if answer is not None:
            answers.add(answer)
            workflows.files += [file] if file not in workflows.files else []
    return answers.pop() if len(answers) == 1 else None


def _plain(value: Any) -> str | None:
    """A profile's literal value, or the default of the one environment variable it
    is; None for any other template (a variable without a default, an expression)."""
    if isinstance(value, str) and (found := _ENV_DEFAULT.fullmatch(value.strip())):
        return found.group(3)
    return str(value) if isinstance(value, (str, int)) and "{{" not in str(value) and str(value) else None


def _names(value: Any) -> tuple[str, ...] | None:
    """A column config (`"id"`, `["id", "day"]`, `"id, day"`) as names; None unknown."""
    if isinstance(value, str):
        return tuple(p.strip().lower() for p in value.split(",") if p.strip())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip().lower() for v in value)
    if value is None:
        return ()
    return None


def write_of(node: DbtNode, catalog: str | None, schema: str | None) -> DbtWrite | None:
    """What one run of the node writes (None: a view, an ephemeral model, a disabled
    node). Incremental models default to `merge`, dbt-databricks' default strategy."""
    c = node.config
    if c.get("enabled") is False:
        return None
    materialized = {"snapshot": "snapshot", "seed": "seed"}.get(node.resource) or c.get("materialized") or "view"
    if not isinstance(materialized, str) or materialized in ("view", "ephemeral"):
        return None
    materialized = materialized.lower()
    custom = c.get("schema") if node.resource != "snapshot" or not c.get("target_schema") else None
    target_schema = schema or SCHEMA
    if node.resource == "snapshot" and isinstance(c.get("target_schema"), str):
        table_schema = c["target_schema"]  # a legacy snapshot's schema is used as written
    elif node.schema_rule == "unknown":
        table_schema = SCHEMA
    elif node.schema_rule == "as_is" and isinstance(custom, str) and custom:
        table_schema = custom.strip()
    elif node.schema_rule == "as_is" and custom is _UNKNOWN:
        table_schema = SCHEMA
    elif isinstance(custom, str) and custom:
        table_schema = f"{target_schema}_{custom}"  # dbt's default generate_schema_name
    elif custom is _UNKNOWN:
        table_schema = f"{target_schema}_{SCHEMA}"
    else:
        table_schema = target_schema
    database = next((c[k] for k in ("catalog", "database", "target_database") if isinstance(c.get(k), str)), None)
    alias = c.get("alias") if isinstance(c.get("alias"), str) else node.name
    table = ".".join((database or catalog or CATALOG, table_schema, alias)).lower()
    strategy = ""
    if materialized == "incremental":
        strategy = c.get("incremental_strategy") if isinstance(c.get("incremental_strategy"), str) else "merge"
    predicates = c.get("incremental_predicates")
    if isinstance(predicates, str):
        predicates = [predicates]
    literal = (
        tuple(predicates) if isinstance(predicates, list) and all(isinstance(p, str) for p in predicates) else None
    )
    key = _names(c.get("unique_key")) if node.resource != "snapshot" else ("dbt_scd_id",)
    return DbtWrite(
        table,
        materialized,
        strategy.lower(),
        key or (),
        _names(c.get("partition_by")) or (),
        () if predicates is None else literal,
        node.line,
        node.name,
    )


# -- selection ------------------------------------------------------------------------------

# the resources each command builds
_COMMANDS = {
    "run": ("model",),
    "build": ("model", "snapshot", "seed"),
    "snapshot": ("snapshot",),
    "seed": ("seed",),
}


def selected(project: DbtProject, command: str) -> tuple[list[DbtNode], str | None]:
    """The nodes a `dbt ...` command builds, and a note when it says something
    delta-lint cannot read (that selector then selects every node it could)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if len(words) < 2 or words[0] != "dbt" or words[1] not in _COMMANDS:
        return [], None
    kinds = _COMMANDS[words[1]]
    nodes = [n for n in project.nodes if n.resource in kinds]
    select: list[str] = []
    exclude: list[str] = []
    current: list[str] | None = None
    for word in words[2:]:
        if word in ("-s", "--select", "-m", "--models"):
            current = select
        elif word == "--exclude":
            current = exclude
        elif word.startswith("-"):
            current = None
        elif current is not None:
            current.extend(w for w in re.split(r"[\s]+", word) if w)
    note = None
    if select:
        chosen: dict[str, DbtNode] = {}
        for selector in select:
            found = _select(project, nodes, selector)
            if found is None:
                note = f"`{command}`: selector `{selector}` is not read; every node it builds is taken"
                chosen = {n.file + n.name: n for n in nodes}
                break
            chosen.update({n.file + n.name: n for n in found})
        nodes = [n for n in nodes if n.file + n.name in chosen]
    for selector in exclude:
        found = _select(project, nodes, selector)
        if found is not None:
            gone = {n.file + n.name for n in found}
            nodes = [n for n in nodes if n.file + n.name not in gone]
    return nodes, note


def _select(project: DbtProject, nodes: list[DbtNode], selector: str) -> list[DbtNode] | None:
    """The nodes one selector names (an intersection `a,b` too); None when unknown:
    a placeholder (`{selection}`, `{{ ... }}`) is what only a run knows, never a name."""
    if "{" in selector:
        return None
    if "," in selector:
        parts = [_select(project, nodes, s) for s in selector.split(",") if s]
        if any(p is None for p in parts) or not parts:
            return None
        keep = set.intersection(*({n.file + n.name for n in p} for p in parts))  # type: ignore[union-attr]
        return [n for n in nodes if n.file + n.name in keep]
    m = re.fullmatch(r"(@)?(\d*\+)?([^+]+?)(\+\d*)?", selector)
    if m is None:
        return None
    at, up, core, down = m.groups()
    method, _, value = core.rpartition(":")
    if method in ("", "fqn"):
        base = [n for n in nodes if n.name == value or _in_folder(n, value) or value == project.name]
    elif method == "path":
        base = [n for n in nodes if _in_folder(n, value) or n.in_project == value.strip("/")]
    elif method == "tag":
        if any(n.config.get("tags") is _UNKNOWN for n in nodes):
            return None
        base = [n for n in nodes if value in _tags(n)]
    elif method == "resource_type":
        base = [n for n in nodes if n.resource == value]
    else:
        return None
    names = {n.name for n in base}
    if up or at:
        names |= _graph(project, names, upstream=True)
    if down or at:
        names |= _graph(project, names, upstream=False)
    return [n for n in nodes if n.name in names]


def _in_folder(node: DbtNode, folder: str) -> bool:
    folder = folder.strip("/")
    return bool(folder) and (node.in_project.startswith(folder + "/") or f"/{folder}/" in f"/{node.in_project}")


def _tags(node: DbtNode) -> set[str]:
    tags = node.config.get("tags")
    return (
        {tags}
        if isinstance(tags, str)
        else {t for t in tags if isinstance(t, str)}
        if isinstance(tags, list)
        else set()
    )


def _graph(project: DbtProject, names: set[str], upstream: bool) -> set[str]:
    """Every node above (or below) `names` through `ref`s."""
    edges: dict[str, set[str]] = {}
    for n in project.nodes:
        for parent in n.refs:
            a, b = (n.name, parent) if upstream else (parent, n.name)
            edges.setdefault(a, set()).add(b)
    out: set[str] = set()
    todo = list(names)
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in out:
                out.add(nxt)
                todo.append(nxt)
    return out


# -- wiring into the workflows ------------------------------------------------------------


@dataclass
class _Found:
    project: DbtProject
    file: Path


def load_found_dbt(workflows: Workflows, root: Path, found: tuple[str, ...] | None = None) -> None:
    """Read the project's dbt projects into `workflows`: every `dbt_task` runs the
    files of the nodes its commands build, with its catalog and schema; every node
    file's writes go to `workflows.dbt` (a file run by tasks of different catalogs
    writes each one's table). A project without dbt pays one listing."""
    found = listing("dbt", str(root)) if found is None else found
    workflows.listings.append(("dbt", str(root), found))
    if not found:
        return
    projects: dict[str, _Found] = {}
    for file in map(Path, found):
        try:
            project, read = read_project(file, root)
        except ConfigError as err:
            workflows.problems.append(found_problem(file, root, err))
            workflows.files.append(file)
            continue
        projects[project.folder] = _Found(project, file)
        workflows.files += [p for p in read if p not in workflows.files]
    run: set[str] = set()
    writes: dict[str, list[tuple]] = {}
    for job in workflows.jobs.values():
        for key, task in list(job.tasks.items()):
            if task.dbt is None:  # a dbt task, or a for_each task running one
                continue
            folder, commands, task_catalog, task_schema, profiles, warehouse = task.dbt
            target = projects.get(folder) or _by_tail(projects, folder)
            if target is None:
                named = _by_name(projects, folder)
                if len(named) == 1:
                    target = projects[named[0]]
                    workflows.notes.append(
                        f"job `{job.key}` task `{key}`: the dbt project folder `{folder}` is not a folder of this "
                        f"project (a path of the machine that runs it); matched to `{named[0]}` by name"
                    )
                elif named:
                    why = f"its name matches several dbt projects: it runs one of {', '.join(named)}"
                    job.tasks[key] = replace(task, problem=f"no dbt project at `{folder}` in this project, and {why}")
                    continue
            if target is None:
                job.tasks[key] = replace(task, problem=f"no dbt project at `{folder or '.'}` in this project")
                continue
            where = (target.file.parent / profiles) if profiles else target.file.parent
            files: list[str] = []
            for command in commands:
                # a SQL warehouse task runs with the profile Databricks writes from the task
                profile = None if warehouse else profile_target(where, root, target.project.profile, _target(command))
                if profile is None and not warehouse and not (where / "profiles.yml").is_file():
                    profile = profile_elsewhere(workflows, root, target.project.profile, _target(command))
                catalog, schema = profile or (None, None)
                nodes, note = selected(target.project, command)
                if note:
                    workflows.notes.append(f"job `{job.key}` task `{key}`: {note}")
                for node in nodes:
                    files.append(node.file)
                    _add(writes, node, catalog or task_catalog, schema or task_schema)
            run.update(files)
            job.tasks[key] = replace(task, files=tuple(dict.fromkeys(files)), problem=None)
    for f in projects.values():  # nodes no job runs: run by hand with the project's profile
        adapter = other_adapter(root / f.project.folder, root, f.project.profile)
        if adapter is not None:
            if any(node.file not in run for node in f.project.nodes):
                workflows.notes.append(
                    f"dbt project `{f.project.folder or '.'}`: its profile `{f.project.profile}` builds "
                    f"tables in {adapter}, not Databricks: its models are not read as Delta writes"
                )
            continue
        place = profile_target(root / f.project.folder, root, f.project.profile, None)
        if place is None and not (root / f.project.folder / "profiles.yml").is_file():
            place = profile_elsewhere(workflows, root, f.project.profile, None)
        place = place or (None, None)
        for node in f.project.nodes:
            if node.file not in run:
                _add(writes, node, *place)
    workflows.dbt.update({file: tuple(dict.fromkeys(specs)) for file, specs in writes.items()})
    workflows.source = ", ".join(
        s for s in (workflows.source, *(f.project.folder or PROJECT_FILE for f in projects.values())) if s
    )


def _add(writes: dict[str, list[tuple]], node: DbtNode, catalog: str | None, schema: str | None) -> None:
    write = write_of(node, catalog, schema)
    if write is not None:
        writes.setdefault(node.file, []).append(tuple(_frozen(v) for v in write.as_spec()))


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _by_tail(projects: dict[str, _Found], folder: str) -> _Found | None:
    """The project whose folder ends with the path a task names (a workspace or
    checkout path of the repository's folder)."""
    tail = folder.strip("/")
    found = [f for rel, f in projects.items() if tail and (rel == tail or rel.endswith("/" + tail))]
    if not tail and len(projects) == 1:
        return next(iter(projects.values()))
    return found[0] if len(found) == 1 else None


def _by_name(projects: dict[str, _Found], folder: str) -> list[str]:
    """The project folders matched by the longest tail of a folder the project does
    not have (`/opt/airflow/dbt` -> `dbt`, `/usr/app/dbt_project` ->
    `transform/dbt_project`): a worker's or a checkout's path whose leading folders
    are the machine's. Several at that length: each is one answer; none: []."""
    parts = [p for p in folder.split("/") if p and p != "."]
    for size in range(len(parts) - 1, 0, -1):
        tail = "/".join(parts[-size:])
        found = sorted(rel for rel in projects if rel and (rel == tail or rel.endswith("/" + tail)))
        if found:
            return found
    return []


def _target(command: str) -> str | None:
    m = re.search(r"(?:--target|-t)[ =](\S+)", command)
    return m.group(1) if m else None
