"""One declared schema per input file kind — configuration (`delta-lint.yaml`,
`[tool.delta-lint]`), bundle files (`databricks.yml` and what it includes), Jobs
JSON exports and the settings snapshot (`delta-lint.lock.yaml`) — and the loading
that keeps each value's line, so that every wrong value reads

    <file>:<line>: `tasks`: must be a list of tasks, got a number

The schemas are msgspec structs: typed declarations that a reader holds next to
the README, checked by a validator that is quick to import (delta-lint starts
on every pre-commit) and reports the first wrong value with its path. Semantic
checks (a runtime version's form, a known rule id, a cron expression) stay with the
stage that understands them; the types they rely on are guaranteed here.

Bundle and Jobs JSON schemas declare only what delta-lint reads and let every other
key through (Databricks adds keys every release); bundle values may be `${var.x}`
references, so numbers there also accept text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

import msgspec
import yaml

T = TypeVar("T")
MAX_DEPTH = 100  # nesting of mappings and lists: real files stay under 20
MAX_DIGITS = 100  # an integer longer than this is no setting anyone means


class ConfigError(Exception):
    """An input problem, already phrased for the user (file, line and key when known).
    `line` and `detail` (the message without the file) let a caller that found the
    file itself report it as a diagnostic at its line instead of stopping."""

    def __init__(self, message: str, line: int | None = None, detail: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.detail = detail or message


# -- loading, with lines --------------------------------------------------------------------


@dataclass
class Source:
    """Where a document came from, to put a line on a key path: the composed YAML
    tree, or the JSON text (searched only when there is an error to place)."""

    path: Path
    node: yaml.Node | None = None
    text: str | None = None  # JSON, or TOML when `toml`, or HCL when `hcl`
    toml: bool = False
    hcl: bool = False

    def line_of(self, keys: tuple) -> int | None:
        if self.node is not None:
            return _yaml_line(self.node, keys)
        if self.text is not None and self.toml:
            return _toml_line(self.text, keys)
        if self.text is not None and self.hcl:
            return _hcl_line(self.text, keys)
        if self.text is not None:
            node = _json_as_yaml(self.text)
            return _yaml_line(node, keys) if node is not None else _json_line(self.text, keys)
        return None


def _json_as_yaml(text: str) -> yaml.Node | None:
    """JSON composed as YAML (a flow document, with positions), or None where
    YAML reads it otherwise; only ever run to place an error on its line."""
    try:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, ValueError, RecursionError):
        return None


def _yaml_line(node: yaml.Node, keys: tuple) -> int | None:
    line = node.start_mark.line + 1
    for key in keys:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == str(key):
                    line, node = k.start_mark.line + 1, v
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _toml_line(text: str, keys: tuple) -> int | None:
    """The line of a key path in TOML (tomllib keeps no positions): each name in
    turn, as a key (`name =`) or in a table header (`[a.name]`), after the last."""
    pos, line = 0, None
    for key in keys:
        if not isinstance(key, str):
            continue
        name = re.escape(key)
        quoted = rf"(?<![\w-])(?:{name}|\"{name}\"|'{name}')(?![\w-])"
        found = re.compile(rf"^[ \t]*(?:{quoted}[ \t]*=|\[[^\]\n]*{quoted}[^\]\n]*\])", re.M).search(text, pos)
        if found:
            pos = found.start()
            line = text.count("\n", 0, pos) + 1
    return line


def _hcl_line(text: str, keys: tuple) -> int | None:
    """The line of a key path in HCL (python-hcl2 keeps no positions): a leading
    `("resource", kind, name)` is its block's header; then each name in turn as an
    attribute (`name =`) or a block (`name {`) after the last, the (n+1)-th of them
    when an index n follows."""
    pos, line = 0, None
    rest = list(keys)
    if rest[:1] == ["resource"] and len(rest) >= 3:
        kind, name = (re.escape(str(k).strip('"')) for k in rest[1:3])
        found = re.compile(rf'^[ \t]*resource[ \t]+"?{kind}"?[ \t]+"?{name}"?', re.M).search(text)
        if found is None:
            return None
        pos, line = found.end(), text.count("\n", 0, found.start()) + 1
        rest = rest[3:]
    for i, key in enumerate(rest):
        if not isinstance(key, str):
            continue
        times = rest[i + 1] + 1 if i + 1 < len(rest) and isinstance(rest[i + 1], int) else 1
        pattern = re.compile(rf'^[ \t]*"?{re.escape(key)}"?[ \t]*[={{]', re.M)
        for _ in range(times):
            found = pattern.search(text, pos)
            if found is None:
                return line
            pos, line = found.end(), text.count("\n", 0, found.start()) + 1
    return line


def _json_line(text: str, keys: tuple) -> int | None:
    """The line of the last named key of `keys` found in order in the text: JSON
    keeps no positions, and this runs only to place an error."""
    pos = 0
    for key in keys:
        if isinstance(key, str):
            found = text.find(json.dumps(key), pos)
            if found >= 0:
                pos = found
    return text.count("\n", 0, pos) + 1


def check_tree(node: yaml.Node | None, path: Path, what: str, anchors: bool = True, expand: int = 0) -> None:
    """Refuse aliases, nesting deeper than MAX_DEPTH (the constructor recurses) and
    integers of more than MAX_DIGITS digits, walking the tree without recursion.
    `anchors`: the text has an `&` (without an anchor there is no alias to look for).

    `expand`: how many nodes aliases may add to the document as written. An alias
    is the node it names, shared, so an alias bomb (each level ten aliases of the
    one before) is small to parse and astronomical to walk or copy. With 0 every
    alias is refused; otherwise each alias is walked as the readers will walk its
    copy, counting the nodes it adds, and the walk stops with an error at the line
    of the alias that passes the limit: time and memory stay bounded by the text
    and the limit, whatever the aliases multiply to. An alias of a node that holds
    itself nests without end and stops at MAX_DEPTH."""
    if node is None:
        return
    # (node, depth, line of its key or item, line of the alias it is a copy of or 0);
    # children are taken in the document's order, so an anchor is met before its aliases
    stack: list[tuple[yaml.Node, int, int, int]] = [(node, 1, 1, 0)]
    seen: set[int] = set()
    added = 0
    scalar = yaml.ScalarNode
    while stack:
        current, depth, line, alias = stack.pop()
        if anchors:
            if id(current) in seen:
                if not expand:
                    raise located(path, current.start_mark.line + 1, f"YAML aliases (*name) are not allowed in {what}")
                alias = alias or line  # an alias's own mark is its anchor's: its key's line places it
                added += 1
                if added > expand:
                    raise located(path, alias, f"YAML aliases expand to more than {expand:,} nodes")
            else:
                seen.add(id(current))
        if depth > MAX_DEPTH:
            raise located(path, current.start_mark.line + 1, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(current, yaml.MappingNode):
            pairs = [(child, key) for key, value in current.value for child in (key, value)]
        elif isinstance(current, yaml.SequenceNode):
            pairs = [(child, current) for child in current.value]  # an item: its list's line
        else:
            pairs = [(current, current)]
        for child, place in reversed(pairs):
            if child.__class__ is scalar and not anchors:  # most nodes: checked here, never stacked
                if len(child.value) > MAX_DIGITS and child.tag.endswith(":int"):
                    _too_many_digits(child, path)
            elif child is not current:
                stack.append((child, depth + 1, place.start_mark.line + 1, alias))
            elif child.tag.endswith(":int") and len(child.value) > MAX_DIGITS:
                _too_many_digits(child, path)


def _too_many_digits(node: yaml.Node, path: Path) -> None:
    if sum(c.isdigit() for c in node.value) > MAX_DIGITS:
        raise located(path, node.start_mark.line + 1, f"a number of more than {MAX_DIGITS} digits")


def located(path: Path, line: int | None, detail: str) -> ConfigError:
    return ConfigError(f"{path}:{line}: {detail}" if line is not None else f"{path}: {detail}", line, detail)


def _json_int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits")
    return int(text)


def load_json(text: str, path: Path, what: str) -> Any:
    """JSON with the same limits as YAML (depth, digits); a ConfigError at the line."""
    try:
        data = json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as err:
        raise located(path, err.lineno, f"invalid JSON in {what}: {err.msg}") from err
    except ValueError as err:
        found = re.search("[0-9]{" + str(MAX_DIGITS + 1) + "}", text)
        raise located(path, text.count("\n", 0, found.start()) + 1 if found else None, str(err)) from err
    except RecursionError as err:
        raise located(path, None, f"nested more than {MAX_DEPTH} levels deep") from err
    _check_depth(data, path)
    return data


def _check_depth(data: Any, path: Path) -> None:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise located(path, None, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            stack += [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            stack += [(v, depth + 1) for v in value]


# -- validation -----------------------------------------------------------------------------------


def convert(data: Any, schema: Any, source: Source, prefix: tuple = ()) -> Any:
    """`data` as `schema`, or a ConfigError naming the file, the line and the key."""
    try:
        return msgspec.convert(data, schema, strict=True)
    except msgspec.ValidationError as err:
        raise explain(str(err), data, schema, source, prefix) from None


def problem(source: Source, keys: tuple, message: str) -> ConfigError:
    """A ConfigError at a key path (for the semantic checks after the schema)."""
    return located(source.path, source.line_of(keys), f"`{dotted(keys)}`: {message}" if keys else message)


def dotted(keys: tuple) -> str:
    out = ""
    for key in keys:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


_AT = re.compile(r"^(?P<what>.*?)(?: - at `(?P<key>key` in `)?(?P<path>\$[^`]*)`)?$", re.DOTALL)
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\[\.\.\.\]")


def explain(message: str, data: Any, schema: Any, source: Source, prefix: tuple = ()) -> ConfigError:
    """msgspec's message (`Expected `array`, got `int` - at `$.jobs[...].tasks``) in
    the user's words, with the mapping keys msgspec leaves out (`[...]`) found again."""
    m = _AT.match(message)
    assert m is not None
    what, path_text, on_key = m.group("what"), m.group("path") or "$", bool(m.group("key"))
    keys: list = []
    value, kind = data, schema
    for seg in _SEGMENT.finditer(path_text[1:]):
        field, index = seg.group(1), seg.group(2)
        if field is not None:
            field_type = _field_type(kind, field)
            value = value.get(field) if isinstance(value, dict) else None
            keys.append(field)
            kind = field_type
        elif index is not None:
            keys.append(int(index))
            value = value[int(index)] if isinstance(value, list) and int(index) < len(value) else None
            kind = _item_type(kind)
        else:  # a mapping's value: the first whose value does not convert
            item = _item_type(kind)
            bad = (
                next((k for k, v in value.items() if not _converts(v, item)), next(iter(value), "?"))
                if isinstance(value, dict)
                else "?"
            )
            keys.append(bad)
            value = value.get(bad) if isinstance(value, dict) else None
            kind = item
    keys = [*prefix, *keys]
    if on_key:  # a mapping key of the wrong type
        bad = next((k for k in value if not isinstance(k, str)), None) if isinstance(value, dict) else None
        where = (*keys, str(bad)) if bad is not None else tuple(keys)
        return problem(source, where, f"must be a name, got {_kind(bad)}")
    if found := re.match(r"Object missing required field `(.+)`", what):
        return problem(source, (*keys, found.group(1)), "is required")
    if found := re.match(r"Object contains unknown field `(.+)`", what):
        known = (
            ", ".join(sorted(f.encode_name for f in msgspec.structs.fields(_bare(kind)))) if _is_struct(kind) else ""
        )
        return problem(source, (*keys, found.group(1)), f"unknown key (known: {known})")
    # a value of the wrong type is named by its kind; one of the right type that breaks
    # a constraint (a range, a pattern, a choice) is shown
    got = _kind(value) if "got `" in what or isinstance(value, (dict, list)) else _shown(value)
    return problem(source, tuple(keys), f"must be {describe(kind, what)}, got {got}")


def _bare(kind: Any) -> Any:
    """The type under Annotated and Optional."""
    while True:
        if get_origin(kind) is Annotated:
            kind = get_args(kind)[0]
        elif get_origin(kind) is Union:
            args = [a for a in get_args(kind) if a is not type(None)]
            if len(args) != 1:
                return kind
            kind = args[0]
        else:
            return kind


def _is_struct(kind: Any) -> bool:
    return isinstance(_bare(kind), type) and issubclass(_bare(kind), msgspec.Struct)


def _options(kind: Any) -> list:
    bare = _bare(kind)
    return [_bare(a) for a in get_args(bare)] if get_origin(bare) is Union else [bare]


def _field_type(kind: Any, name: str) -> Any:
    for option in _options(kind):
        if isinstance(option, type) and issubclass(option, msgspec.Struct):
            for f in msgspec.structs.fields(option):
                if f.encode_name == name:
                    return f.type
    return Any


def _item_type(kind: Any) -> Any:
    for option in _options(kind):
        origin = get_origin(option)
        if origin is list:
            return get_args(option)[0]
        if origin is dict:
            return get_args(option)[1]
    return Any


def _converts(value: Any, kind: Any) -> bool:
    try:
        msgspec.convert(value, kind, strict=True)
    except msgspec.ValidationError:
        return False
    return True


def describe(kind: Any, what: str = "") -> str:
    """What a value of this type is, in words: its declared description, else its shape."""
    if get_origin(kind) is Annotated:
        for meta in get_args(kind)[1:]:
            if isinstance(meta, msgspec.Meta) and meta.description:
                return meta.description
        return describe(get_args(kind)[0], what)
    options = [a for a in get_args(kind) if a is not type(None)] if get_origin(kind) is Union else [kind]
    if len(options) > 1:
        return " or ".join(dict.fromkeys(describe(o) for o in options))
    if options[0] is not kind:
        return describe(options[0], what)
    if get_origin(kind) is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(kind))
    if get_origin(kind) is list:
        return f"a list of {_plural(describe(get_args(kind)[0]))}"
    if get_origin(kind) is dict:
        return f"a mapping of name to {describe(get_args(kind)[1])}"
    if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
        return kind.__doc__.strip().split("\n")[0].rstrip(".") if kind.__doc__ else "a mapping"
    words = {str: "a string", int: "a whole number", float: "a number", bool: "true or false", Any: "a value"}
    return words.get(kind, what or "a value")


def _plural(phrase: str) -> str:
    for article in ("a ", "an "):
        if phrase.startswith(article):
            head, _, rest = phrase[len(article) :].partition(" ")
            return (head if head.endswith("s") else head + "s") + (" " + rest if rest else "")
    return phrase


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"  # a YAML date or time


# -- the schemas ---------------------------------------------------------------------------------

_NO_NUL = r"^[^\x00]*$"
Name = Annotated[str, msgspec.Meta(min_length=1, pattern=_NO_NUL, description="a name")]
Names = Annotated[list[Name], msgspec.Meta(description="a list of names")]
Columns = Annotated[list[Name], msgspec.Meta(description="a list of column names")]
FilePath = Annotated[str, msgspec.Meta(min_length=1, pattern=_NO_NUL, description="a file path")]
Glob = Annotated[str, msgspec.Meta(min_length=1, max_length=1024, pattern=_NO_NUL, description="a glob")]
Globs = Annotated[list[Glob], msgspec.Meta(description="a list of globs")]
RuleId = Annotated[str, msgspec.Meta(description="a rule id or prefix (like DL101 or DL1)")]  # known ids: rulepack
# a bundle scalar (YAML reads `name: 2024` as a number), a number or a `${var.x}` reference
Text = Annotated[Union[str, int, float], msgspec.Meta(description="a name")]
Count = Annotated[Union[int, str], msgspec.Meta(description="a whole number or a ${var.name} reference")]
Duration = Annotated[Union[str, int, float], msgspec.Meta(description="a duration like 50m, 1h30m or 2h")]
# a whole value given as one bundle reference (`base_parameters: ${var.user_config}`): a
# complex variable's mapping or list, put in place when the bundle is resolved
Reference = Annotated[str, msgspec.Meta(pattern=r"^\s*\$\{[^}]+\}\s*$", description="a ${var.name} reference")]


class TableSettings(msgspec.Struct, forbid_unknown_fields=True):
    """a mapping of table settings"""

    partitioned_by: Union[Columns, None] = None
    clustered_by: Union[Columns, None] = None
    deletion_vectors: Union[bool, None] = None
    isolation_level: Union[Literal["WriteSerializable", "Serializable"], None] = None
    identity_columns: Union[Columns, None] = None
    # distinct values per column, as the team estimates them: `advise` proposes a
    # partition column only from such a declared low cardinality
    cardinality: Union[dict[str, Annotated[int, msgspec.Meta(ge=1, description="a whole number >= 1")]], None] = None


class ConfiguredJob(msgspec.Struct, forbid_unknown_fields=True):
    """a mapping with `paths`"""

    paths: Globs
    concurrent_runs: Annotated[int, msgspec.Meta(ge=1, description="a whole number >= 1")] = 1


class ConfigFile(msgspec.Struct, forbid_unknown_fields=True, rename={"per_file_ignores": "per-file-ignores"}):
    """The configuration (`delta-lint.yaml` or `[tool.delta-lint]`): README, Configuration."""

    runtime: Annotated[
        Union[str, float], msgspec.Meta(description='a Databricks Runtime version like "15.4", "latest" or "oss"')
    ] = "latest"
    photon: Union[bool, None] = None
    default_schema: Union[Annotated[str, msgspec.Meta(min_length=1, description="a schema name")], None] = None
    tables: Union[dict[str, Union[TableSettings, None]], None] = None
    jobs: Union[dict[str, ConfiguredJob], None] = None
    exclusive: Union[Annotated[list[Names], msgspec.Meta(description="a list of job-name lists")], None] = None
    exclude: Union[Globs, None] = None
    select: Union[list[RuleId], None] = None
    ignore: Union[list[RuleId], None] = None
    spark: Annotated[str, msgspec.Meta(pattern=_NO_NUL, description="a Spark mode")] = "auto"
    spark_timeout: Annotated[
        float, msgspec.Meta(gt=0, le=86_400, description="a number of seconds between 0 and 86400")
    ] = 30.0
    locations: Union[dict[str, FilePath], None] = None
    snapshot: FilePath = "delta-lint.lock.yaml"
    per_file_ignores: Union[dict[str, list[RuleId]], None] = None
    bundle: Union[
        Annotated[Union[FilePath, bool], msgspec.Meta(description="the path of a databricks.yml, or false")], None
    ] = None
    target: Union[Name, None] = None
    job_definitions: Union[FilePath, None] = None
    duration: Union[dict[str, Duration], None] = None
    history_files: Union[Annotated[list[FilePath], msgspec.Meta(description="a list of [TABLE=]FILE")], None] = None
    strict: bool = False
    unscheduled: Literal["auto", "anytime", "by-hand"] = "auto"


# Bundles and Jobs JSON: only what delta-lint reads is declared; other keys pass.


class DependsOn(msgspec.Struct):
    """a mapping with `task_key`"""

    task_key: Union[Text, None] = None


class NotebookTask(msgspec.Struct):
    """a mapping with `notebook_path`"""

    notebook_path: Union[str, None] = None
    base_parameters: Union[dict[str, Any], Reference, None] = None


class PythonTask(msgspec.Struct):
    """a mapping with `python_file`"""

    python_file: Union[str, None] = None
    parameters: Union[list[Any], Reference, None] = None


class SqlFile(msgspec.Struct):
    """a mapping with `path`"""

    path: Union[str, None] = None


class SqlTask(msgspec.Struct):
    """a mapping with `file`"""

    file: Union[SqlFile, None] = None
    parameters: Union[dict[str, Any], Reference, None] = None


class ForEachTask(msgspec.Struct):
    """a mapping with `inputs` and `task`"""

    concurrency: Union[Count, None] = None
    task: Union[TaskSpec, None] = None


class TaskSpec(msgspec.Struct):
    """a task (a mapping with `task_key`)"""

    task_key: Union[Text, None] = None
    depends_on: Union[list[DependsOn], None] = None
    for_each_task: Union[ForEachTask, None] = None
    notebook_task: Union[NotebookTask, None] = None
    spark_python_task: Union[PythonTask, None] = None
    sql_task: Union[SqlTask, None] = None


class CronSchedule(msgspec.Struct):
    """a mapping with `quartz_cron_expression`"""

    quartz_cron_expression: Union[str, None] = None
    timezone_id: Union[Annotated[str, msgspec.Meta(description="a time zone name like Europe/Amsterdam")], None] = None
    pause_status: Union[str, None] = None


class Continuous(msgspec.Struct):
    """a mapping with `pause_status`"""

    pause_status: Union[str, None] = None


class Trigger(msgspec.Struct):
    """a mapping with `periodic`, `file_arrival` or `table_update`"""

    pause_status: Union[str, None] = None
    periodic: Union[dict[str, Any], None] = None


class JobParameter(msgspec.Struct):
    """a parameter (a mapping with `name`)"""

    name: Union[Text, None] = None


class JobSpec(msgspec.Struct):
    """a job (a mapping with `tasks`)"""

    name: Union[Text, None] = None
    max_concurrent_runs: Union[Count, None] = None
    continuous: Union[Continuous, None] = None
    schedule: Union[CronSchedule, None] = None
    trigger: Union[Trigger, None] = None
    parameters: Union[list[JobParameter], Reference, None] = None
    tasks: Union[Annotated[list[TaskSpec], msgspec.Meta(description="a list of tasks")], None] = None


class Resources(msgspec.Struct):
    """a mapping with `jobs`"""

    jobs: Union[dict[str, JobSpec], None] = None


class Target(msgspec.Struct):
    """a target (a mapping with `resources`, `variables`, `mode`, `default`)"""

    default: Union[bool, None] = None
    mode: Union[str, None] = None
    resources: Union[Resources, None] = None
    variables: Union[dict[str, Any], None] = None


class BundleInfo(msgspec.Struct):
    """a mapping with `name`"""

    name: Union[Text, None] = None


class BundleFile(msgspec.Struct):
    """A bundle file: `databricks.yml` or a file it includes."""

    bundle: Union[BundleInfo, None] = None
    include: Union[Globs, None] = None
    variables: Union[dict[str, Any], None] = None
    resources: Union[Resources, None] = None
    targets: Union[
        Annotated[dict[str, Union[Target, None]], msgspec.Meta(description="a mapping of targets")], None
    ] = None


class JobsExport(msgspec.Struct):
    """A Jobs JSON document: `{"job_id": .., "settings": {...}}`, bare settings, or `{"jobs": [...]}`."""

    job_id: Union[Text, None] = None
    settings: Union[JobSpec, None] = None
    jobs: Union[list[dict[str, Any]], None] = None


# Terraform: a `databricks_job` resource of the Databricks provider as python-hcl2
# reads it (`delta_lint.terraform`): each block is a list of mappings (`task { ... }`
# is `task: [{...}]`), strings keep their quotes. Only what delta-lint reads.


_Block = Annotated[Union[list[T], T], msgspec.Meta(description="a block")]  # written once: `x { ... }`, `x = {...}`


class TerraformDependsOn(msgspec.Struct):
    """a `depends_on` block with `task_key`"""

    task_key: Union[Text, None] = None


class TerraformFileTask(msgspec.Struct):
    """a `notebook_task` or `spark_python_task` block"""

    notebook_path: Union[Text, None] = None
    python_file: Union[Text, None] = None


class TerraformTask(msgspec.Struct):
    """a `task` block with `task_key`"""

    task_key: Union[Text, None] = None
    depends_on: Union[Annotated[list[TerraformDependsOn], msgspec.Meta(description="`depends_on` blocks")], None] = None
    notebook_task: Union[_Block[TerraformFileTask], None] = None
    spark_python_task: Union[_Block[TerraformFileTask], None] = None


class TerraformParameter(msgspec.Struct):
    """a `parameter` block with `name` and `default`"""

    name: Union[Text, None] = None


class TerraformJob(msgspec.Struct):
    """A `resource "databricks_job"` block."""

    name: Union[Text, None] = None
    max_concurrent_runs: Union[Count, None] = None
    schedule: Union[_Block[CronSchedule], None] = None
    parameter: Union[Annotated[list[TerraformParameter], msgspec.Meta(description="`parameter` blocks")], None] = None
    task: Union[Annotated[list[TerraformTask], msgspec.Meta(description="`task` blocks")], None] = None


class SnapshotTable(msgspec.Struct, forbid_unknown_fields=True):
    """a mapping of table settings"""

    location: Union[str, None] = None
    table_version: Union[Annotated[int, msgspec.Meta(ge=0)], None] = None
    read_at: str = ""
    strategy: Literal["log", "detail"] = "log"
    partitioned_by: Columns = []
    clustered_by: Columns = []
    deletion_vectors: bool = False
    isolation_level: Union[Literal["WriteSerializable", "Serializable"], None] = None
    identity_columns: Columns = []
    row_tracking: bool = False
    min_reader_version: Union[Annotated[int, msgspec.Meta(ge=0)], None] = None
    min_writer_version: Union[Annotated[int, msgspec.Meta(ge=0)], None] = None
    reader_features: Names = []
    writer_features: Names = []


class SnapshotFile(msgspec.Struct, forbid_unknown_fields=True):
    """The settings snapshot (`delta-lint.lock.yaml`), as `delta-lint tables snapshot` writes it."""

    format: Literal[1]
    generated: str = ""
    generator: str = ""
    spark: str = ""
    tables: dict[str, SnapshotTable] = {}


class BaselineEntry(msgspec.Struct):
    """a baseline entry (a mapping with `fingerprint`)"""

    fingerprint: str
    rule: Union[str, None] = None
    path: Union[str, None] = None
    message: Union[str, None] = None


class BaselineFile(msgspec.Struct):
    """A baseline (`--write-baseline`): the fingerprints of accepted findings."""

    version: Literal[1]
    findings: Annotated[list[BaselineEntry], msgspec.Meta(description="a list of baseline entries")]
    generator: str = ""
