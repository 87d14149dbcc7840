"""The settings snapshot (`delta-lint.lock.yaml`): what a live read found, committed
next to the code so that pre-commit and CI run without a cluster.

Stable ordering (tables by name, keys in a fixed order) so that a refresh that
changes nothing changes no byte apart from the times; written atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import yaml

from delta_lint import __version__
from delta_lint.atomic import write_atomic
from delta_lint.config import ConfigError, load_yaml
from delta_lint.safeio import read_input_text
from delta_lint.schema import SnapshotFile, convert
from delta_lint.settings.reader import LiveSettings, now_utc

FORMAT_VERSION = 1
HEADER = (
    "# Table settings read by `delta-lint tables snapshot`; `delta-lint check` uses them\n"
    "# when it does not read live. Regenerate rather than edit.\n"
)


@dataclass
class Snapshot:
    path: Path
    generated: str = ""
    spark: str = ""
    tables: dict[str, LiveSettings] = field(default_factory=dict)


def load_snapshot(path: Path, root: Path | None = None) -> Snapshot | None:
    """The snapshot at `path`, None when there is none; a damaged one is a ConfigError.
    With `root` (the project), a snapshot leading out of it is refused."""
    if not path.exists() and not path.is_symlink():
        return None
    try:
        text = read_input_text(path, root)
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read the settings snapshot: {err}") from err
    data, source = load_yaml(text, path, what="the settings snapshot")
    if data.get("format") != FORMAT_VERSION:
        raise ConfigError(f"{path}: `format`: expected {FORMAT_VERSION}; regenerate with `delta-lint tables snapshot`")
    snapshot: SnapshotFile = convert(data, SnapshotFile, source)
    out = {name: LiveSettings.from_json(name, msgspec.structs.asdict(entry)) for name, entry in snapshot.tables.items()}
    return Snapshot(path, snapshot.generated, snapshot.spark, out)


def write_snapshot(path: Path, tables: dict[str, LiveSettings], spark: str) -> Snapshot:
    doc = {
        "format": FORMAT_VERSION,
        "generated": now_utc(),
        "generator": f"delta-lint {__version__}",
        "spark": spark.split(";")[0],  # never write Spark Connect tokens
        "tables": {name: tables[name].to_json() for name in sorted(tables)},
    }
    write_atomic(path, HEADER + yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100))
    return Snapshot(path, doc["generated"], doc["spark"], dict(tables))
