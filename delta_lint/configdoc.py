"""The configuration page, docs/configuration.md, generated from the schema.

The keys, their types and their defaults come from `schema.ConfigFile` and the
structs it nests (`TableSettings`, `ConfiguredJob`), so the page cannot name a key
the loader refuses or miss one it accepts; this module adds what a schema cannot
say: an example value and what the key does. `tests/test_docs.py` fails when a
schema key has no text here, a text names no key, or the committed page differs
from `python -m delta_lint.configdoc docs/configuration.md`.
"""

from __future__ import annotations

import sys
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec

from delta_lint.schema import ConfigFile, ConfiguredJob, TableSettings


@dataclass(frozen=True)
class Key:
    example: str  # the value in the page's example file (YAML); "" leaves the key out
    text: str  # what the key does, in Markdown


# Key paths as written in a file: nested structs under `tables.<table>.` and `jobs.<job>.`.
KEYS: dict[str, Key] = {
    "runtime": Key(
        '"15.4"',
        'Databricks Runtime version (`"13.3"`, `"14.1"`, `"14.2"`, `"14.3"`, `"15.4"`, ...), `"latest"` or `"oss"` '
        "(open-source Delta). It decides which conflict matrix applies and whether row-level concurrency does.",
    ),
    "photon": Key(
        "true",
        "Whether the jobs run on Photon: matters for runtime 14.2 MERGE (and for <= 14.1, where only DELETE gets "
        "row-level concurrency without Photon).",
    ),
    "default_schema": Key("main.sales", "Qualifies unqualified table names."),
    "tables": Key(
        "", "Declared settings per table, used when nothing better is known ([table settings](table-settings.md))."
    ),
    "tables.<table>.partitioned_by": Key("[date, country]", "Partition columns."),
    "tables.<table>.clustered_by": Key("[]", "Liquid clustering columns."),
    "tables.<table>.deletion_vectors": Key("false", "Whether deletion vectors are enabled."),
    "tables.<table>.isolation_level": Key("WriteSerializable", "`WriteSerializable` or `Serializable`."),
    "tables.<table>.identity_columns": Key("[]", "Identity columns (concurrent writes to such a table fail)."),
    "tables.<table>.cardinality": Key(
        "{country: 40}",
        "Distinct values per column, as the team estimates them, for `advise`: it proposes a partition column only "
        "from such a declared low cardinality (below 1,000); delta-lint reads no column statistics.",
    ),
    "jobs": Key("", "Jobs the configuration defines, for projects whose jobs no bundle or job definition describes."),
    "jobs.<job>.paths": Key(
        "[jobs/upsert_orders.py]",
        "Files or globs whose intents form this job (relative to the configuration file).",
    ),
    "jobs.<job>.concurrent_runs": Key(
        "4", "Runs of this job that may overlap (a configured job overlaps every other)."
    ),
    "exclusive": Key(
        "[[mark_late, purge_old]]",
        "Groups of jobs (job names or bundle job keys) that never run at the same time: removes their overlap.",
    ),
    "exclude": Key('["jobs/scratch/**"]', "Globs of files not to analyse."),
    "select": Key("[DL1]", "Only these rule ids or prefixes."),
    "ignore": Key("[DL104]", "Turn these rules off everywhere."),
    "per-file-ignores": Key(
        '{"jobs/legacy/**": [DL101]}', "Rules turned off per glob ([suppressions](usage.md#suppressions))."
    ),
    "bundle": Key(
        "databricks.yml",
        "The Databricks Asset Bundle to read; by default `databricks.yml` next to this file; `false` ignores "
        "bundles ([schedules](schedules.md)).",
    ),
    "target": Key("prod", "The bundle target (default: the bundle's default target)."),
    "job_definitions": Key("exports/", "A folder of Jobs JSON exports."),
    "duration": Key(
        "{default: 1h, nightly_orders: 50m}",
        "Expected run durations per job (`default` for the rest), for whether two cron schedules' runs meet. "
        "Without one a run is assumed to last 1 h, and two schedules that miss each other by at most that "
        "are reported at `info`, saying how long a run must last to meet the other.",
    ),
    "history_files": Key(
        "[main.sales.orders=history/orders.jsonl]",
        "Exported DESCRIBE HISTORY rows (`[TABLE=]FILE`, relative to this file) that `history` and "
        "`check --durations-from history` read when no `--history-file` is given ([history](history.md)).",
    ),
    "spark": Key(
        "auto",
        "Where table settings are read: `auto`, `embedded`, `local`, `none` or `sc://host:port[/;params]` "
        "([table settings](table-settings.md)).",
    ),
    "spark_timeout": Key("30", "Seconds to reach Spark before giving up."),
    "locations": Key("{sales.orders: tables/orders}", "Where catalog tables live (relative to this file, or URIs)."),
    "snapshot": Key("delta-lint.lock.yaml", "The settings snapshot `delta-lint tables snapshot` writes."),
    "strict": Key("false", "`true`: coverage gaps (DL000-DL008) fail the gate like conflicts."),
    "unscheduled": Key(
        "auto",
        "Files no job runs: `auto` (paired only while the project defines no job), `anytime` (beside any job) or "
        "`by-hand` (never paired) ([schedules](schedules.md)).",
    ),
}

INTRO = """\
# Configuration

<!-- generated by `python -m delta_lint.configdoc docs/configuration.md` from delta_lint/schema.py -->

`delta-lint.yaml` (or `.delta-lint.yaml`) in the working directory or a parent,
else next to the analysed paths; or `[tool.delta-lint]` in `pyproject.toml`; or
`--config FILE`. Unknown keys, wrong types, unknown rule ids and unknown job names
are errors that name the file, the line and the key (exit 2), as in
``delta-lint.yaml:7: `jobs.etl.paths`: must be a list of globs, got the text 'jobs/**'``;
the keys and their types are declared once, in `delta_lint/schema.py`, and this
page is generated from them. YAML is loaded with the safe loader; aliases are
refused. `delta-lint check --show-settings` prints the effective configuration,
each value with where it came from (the file, `[tool.delta-lint]` of a
`pyproject.toml`, the command line, or the default; `--format json` too).
"""


def _type_text(tp: Any) -> str:
    """The type as the loader's messages say it (`must be <this>`)."""
    if get_origin(tp) is Annotated:
        base, *metas = get_args(tp)
        for meta in metas:
            if isinstance(meta, msgspec.Meta) and meta.description:
                return meta.description
        return _type_text(base)
    if get_origin(tp) in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        return " or ".join(_type_text(a) for a in options)
    if get_origin(tp) is Literal:
        return "one of " + ", ".join(f"`{v}`" for v in get_args(tp))
    if get_origin(tp) is dict:
        return f"a mapping to {_type_text(get_args(tp)[1])}"
    if get_origin(tp) is list:
        return f"a list, each {_type_text(get_args(tp)[0])}"
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return (tp.__doc__ or tp.__name__).strip()
    return {bool: "true or false", str: "a text", int: "a whole number", float: "a number"}.get(tp, str(tp))


def _default_text(field: msgspec.structs.FieldInfo) -> str:
    if field.required:
        return "required"
    default = field.default
    if default is None:
        return "not set"
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    if isinstance(default, float) and default.is_integer():
        default = int(default)
    return f"`{default}`"


def schema_keys() -> dict[str, tuple[str, str]]:
    """Every key the schema declares, as `KEYS` names it: (type text, default text)."""
    hints = {ConfigFile: typing.get_type_hints(ConfigFile, include_extras=True)}
    out: dict[str, tuple[str, str]] = {}
    for field in msgspec.structs.fields(ConfigFile):
        out[field.encode_name] = (_type_text(hints[ConfigFile][field.name]), _default_text(field))
        nested = {"tables": (TableSettings, "tables.<table>."), "jobs": (ConfiguredJob, "jobs.<job>.")}
        if field.encode_name in nested:
            struct, prefix = nested[field.encode_name]
            struct_hints = typing.get_type_hints(struct, include_extras=True)
            for sub in msgspec.structs.fields(struct):
                out[prefix + sub.encode_name] = (_type_text(struct_hints[sub.name]), _default_text(sub))
    return out


def _example() -> list[str]:
    lines = ["```yaml"]
    for path, key in KEYS.items():
        parts = path.split(".")
        if len(parts) == 1:
            if key.example:
                lines.append(f"{path}: {key.example}")
            else:
                lines.append(f"{path}:")
                name = {"tables": "sales.orders", "jobs": "upsert_orders"}[path]
                lines.append(f"  {name}:")
        elif key.example:
            lines.append(f"    {parts[-1]}: {key.example}")
    return [*lines, "```"]


def page() -> str:
    """docs/configuration.md."""
    declared = schema_keys()
    lines = [INTRO, "An example with every key:", "", *_example(), "", "## Keys", ""]
    for path, key in KEYS.items():
        type_text, default = declared[path]
        shape = f"Type: {type_text}. " + ("Required." if default == "required" else f"Default: {default}.")
        lines += [f"### `{path}`", "", shape, "", key.text, ""]
    return "\n".join(lines)


if __name__ == "__main__":  # python -m delta_lint.configdoc docs/configuration.md
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/configuration.md")
    target.write_text(page(), encoding="utf-8")
    print(target)
