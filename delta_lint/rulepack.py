"""The rule pack in `rules/`: conflict matrices, runtime profiles and rule texts.

The engine has no conflict table of its own; everything it decides per cell comes
from here, so a reviewer can hold `rules/` next to the spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

OUTCOMES = {"never", "same_rows", "same_files", "zorder_only", "always"}
ROW_LEVEL = "row_level"  # the matrix that applies with row-level concurrency
ISOLATION_LEVELS = ("WriteSerializable", "Serializable")


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: str
    exception: str | None
    summary: str
    why: str
    example: str
    fix: str


@dataclass(frozen=True)
class Cell:
    classes: frozenset[str]
    outcome: dict[str, str]  # isolation level -> outcome
    with_deletion_vectors: dict[str, str] | None
    exceptions: tuple[str, ...]
    rule: str | None
    zorder_rule: str | None

    def outcome_for(self, isolation: str, deletion_vectors: bool) -> str:
        if deletion_vectors and self.with_deletion_vectors:
            return self.with_deletion_vectors[isolation]
        return self.outcome[isolation]


@dataclass(frozen=True)
class Matrix:
    name: str
    title: str
    cells: tuple[Cell, ...]

    def cell(self, a: str, b: str) -> Cell | None:
        """The cell of two operation classes (in either order); None when the matrix has
        none. Looked up in a table built on first use: the engine asks for every
        candidate pair of classes."""
        table = self.__dict__.get("_by_classes")
        if table is None:
            table = {}
            for c in self.cells:
                table.setdefault(c.classes, c)  # the first cell of two classes, as a scan finds it
            object.__setattr__(self, "_by_classes", table)
        return table.get(frozenset((a, b)))


@dataclass(frozen=True)
class Profile:
    """What a runtime version does about row-level concurrency and defaults."""

    name: str
    matrix: str  # matrix used when row-level concurrency does not apply
    row_level_clustered: bool
    row_level_deletion_vectors: str  # "true" | "false" | "preview"
    without_photon_only: tuple[str, ...]
    merge_requires: tuple[str, ...]
    default_isolation: str
    allowed_isolation: tuple[str, ...]
    protocol_change_severity: str
    # the exception a protocol change makes the other writer see, by how it is made
    # (`set` for a feature enabled or removed through table properties, `drop_feature`,
    # `reorg_upgrade_uniform`); unlisted: ProtocolChangedException
    protocol_change_exceptions: tuple[tuple[str, str], ...] = ()
    # which writes conflict on a table with identity columns: `any_write` (every pair in
    # which one inserts rows) or `both_insert` (only two writers that both insert rows)
    identity_conflicts: str = "any_write"

    def protocol_exception(self, subkind: str | None) -> str:
        how = (subkind or "").split(" ", 1)[0]
        return dict(self.protocol_change_exceptions).get(how, "ProtocolChangedException")


@dataclass(frozen=True)
class RulePack:
    rules: dict[str, Rule]
    matrices: dict[str, Matrix]
    runtimes: dict

    def profile(self, runtime: str) -> Profile:
        data = self.runtimes
        if runtime == "oss":
            oss = data["oss"]
            return Profile(
                "oss",
                oss["matrix"],
                bool(oss["row_level"]["clustered"]),
                str(oss["row_level"]["deletion_vectors"]).lower(),
                (),
                (),
                oss["default_isolation"],
                tuple(oss["allowed_isolation"]),
                oss.get("protocol_change_severity", "error"),
                tuple(sorted((oss.get("protocol_change_exceptions") or {}).items())),
                oss.get("identity_conflicts", "any_write"),
            )
        version = data["latest"] if runtime == "latest" else runtime
        chosen = None
        for prof in data["profiles"]:
            if version_key(prof["since"]) <= version_key(version):
                chosen = prof
        assert chosen is not None
        return Profile(
            runtime,
            "no_row_level",
            bool(chosen["row_level"]["clustered"]),
            str(chosen["row_level"]["deletion_vectors"]).lower(),
            tuple(chosen.get("without_photon_only", ())),
            tuple(chosen.get("merge_requires", ())),
            data["default_isolation"],
            ISOLATION_LEVELS,
            "error",
        )


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in str(version).split(".") if p.isdigit())


def rules_dir() -> Path:
    """`rules/` next to the package (source checkout) or inside it (wheel)."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "rules", here.parent / "rules"):
        if (candidate / "rules.yaml").exists():
            return candidate
    raise FileNotFoundError("rule pack not found (rules/rules.yaml)")


def _read_yaml(path: Path):
    """The rule pack is read on every run: libyaml's loader when present reads it in
    3 ms instead of 22 ms (the pure-Python one)."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@lru_cache(maxsize=1)
def load() -> RulePack:
    base = rules_dir()
    rules_data = _read_yaml(base / "rules.yaml")
    rules = {}
    for entry in rules_data["rules"]:
        rule = Rule(
            id=entry["id"],
            name=entry["name"],
            severity=entry["severity"],
            exception=entry.get("exception"),
            summary=entry["summary"],
            why=" ".join(str(entry["why"]).split()),
            example=str(entry.get("example") or ""),
            fix=entry["fix"],
        )
        rules[rule.id] = rule
    matrices_data = _read_yaml(base / "matrices.yaml")
    matrices = {}
    for name, m in matrices_data["matrices"].items():
        cells = []
        for c in m["cells"]:
            outcome = {lvl: c[lvl] for lvl in ISOLATION_LEVELS}
            dv = c.get("with_deletion_vectors")
            for value in list(outcome.values()) + list((dv or {}).values()):
                if value not in OUTCOMES:
                    raise ValueError(f"rules/matrices.yaml: unknown outcome {value!r} in {name}")
                if value == "same_rows" and name != ROW_LEVEL:
                    # the engine judges tables without row-level concurrency on their
                    # partition columns only (engine._Classes, its verdict keys)
                    raise ValueError(f"rules/matrices.yaml: same_rows in {name}: only {ROW_LEVEL} compares rows")
            cells.append(
                Cell(
                    frozenset(c["classes"]),
                    outcome,
                    dv,
                    tuple(c.get("exceptions") or ()),
                    c.get("rule"),
                    c.get("zorder_rule"),
                )
            )
        matrices[name] = Matrix(name, m["title"], tuple(cells))
    runtimes = _read_yaml(base / "runtimes.yaml")
    return RulePack(rules, matrices, runtimes)


def selector_problem(value: str) -> str | None:
    """Why `value` selects no rule (`--select`, `--ignore`, `select:`, `ignore:`,
    `per-file-ignores`), with the nearest valid id; None for a rule id or a prefix of
    one (`DL1`). A typo must not turn the gate off silently."""
    import difflib

    known = sorted(load().rules)
    if value and any(rule.startswith(value) for rule in known) and value.startswith("DL"):
        return None
    typed = value.strip().upper()
    if typed.startswith("DL"):  # letters typed for digits: DL1O1, DL1l1
        typed = "DL" + typed[2:].replace("O", "0").replace("I", "1").replace("L", "1")
    near = [typed] if typed in known else difflib.get_close_matches(typed, known, n=1, cutoff=0.0) if value else []
    hint = f"; did you mean {near[0]}?" if near else ""
    shown = f"`{value}`" if value else "an empty rule id"
    return f"{shown} is not a rule id or prefix (like DL101 or DL1){hint}"
