"""Every rule's cases (tests/rules/DLxxx.yaml): job files and configuration that
must give the rule's finding at a place (naming the exception `expect.exception`,
where a case gives one), or no finding of the rule at all. One runner for all of
them, as sqlfluff runs its rule fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from delta_lint.config import validate
from delta_lint.rulepack import load
from delta_lint.run import check

CASES = Path(__file__).resolve().parent / "rules"


def _case_files() -> list[Path]:
    return sorted(CASES.glob("*.yaml"))


def _cases() -> list:
    out = []
    for path in _case_files():
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for number, case in enumerate(doc.get("cases") or []):
            config = {**(doc.get("config") or {}), **(case.get("config") or {})}
            out.append(
                pytest.param(doc.get("rule"), case, config, id=f"{path.stem}-{number}-{case['expect'] != 'none'}")
            )
    return out


@pytest.mark.parametrize(("rule", "case", "config"), _cases())
def test_rule_case(rule, case, config, tmp_path, monkeypatch):
    for name, text in case["files"].items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    config = validate({"spark": "none", **config}, tmp_path / "delta-lint.yaml")
    found = [f for f in check([tmp_path], config, cwd=tmp_path, use_cache=False).findings if f.rule == rule]
    where = [f"{f.location.path}:{f.location.line}" for f in found]
    if case["expect"] == "none":
        assert found == [], f"{case['name']}: unexpected {rule} at {where}"
        return
    at = str(case["expect"]["finding"])
    assert any(w == at or w.startswith(at + ":") for w in where), f"{case['name']}: no {rule} at {at} (found {where})"
    if "exception" in case["expect"]:  # the exception the finding names, where the case says
        named = {f.exception for f, w in zip(found, where) if w == at or w.startswith(at + ":")}
        assert named == {case["expect"]["exception"]}, f"{case['name']}: {rule} at {at} names {named}"


def test_every_rule_has_cases_and_every_case_file_names_a_rule():
    rules = set(load().rules)
    named = {}
    for path in _case_files():
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        assert doc.get("rule") == path.stem, f"{path.name} names rule {doc.get('rule')!r}, not {path.stem}"
        assert doc.get("rule") in rules, f"{path.name}: no rule {doc.get('rule')!r} in rules/rules.yaml"
        assert doc.get("cases"), f"{path.name} has no cases"
        named[path.stem] = [c["expect"] for c in doc["cases"]]
    assert sorted(rules - set(named)) == [], "rules without a case file in tests/rules/"
    # a rule is shown both ways: a case with its finding and one without (DL002, an
    # internal error, has no job code that is meant to produce it)
    for rule, expects in named.items():
        assert "none" in expects, f"{rule}: no case without the finding"
        assert rule == "DL002" or any(e != "none" for e in expects), f"{rule}: no case with the finding"


def _units() -> dict[str, list]:
    """Every registered rule unit, by kind."""
    from delta_lint.engine import judgement

    return {
        "pair": judgement.PAIR_RULES,
        "readers": judgement.READERS_RULES,
        "intent": judgement.INTENT_RULES,
        "run": judgement.RUN_RULES,
    }


def test_every_conflict_rule_is_a_registered_unit():
    """The rules the engine reports are its units' (the coverage rules DL000-DL008
    are the front ends' and the run's diagnostics), so each has its unit, its
    declarations and, by the test above, its case file."""
    from delta_lint.model import is_coverage

    rules = set(load().rules)
    registered = {rule for units in _units().values() for unit in units for rule in unit.ids}
    assert all(units for units in _units().values())
    assert sorted(registered - rules) == [], "units naming rules not in rules/rules.yaml"
    assert sorted(rules - registered - {r for r in rules if is_coverage(r)}) == [], "rules without a unit"


def test_every_unit_judged_per_pair_of_classes_reads_only_what_the_class_key_holds():
    """The engine judges one pair of members of two classes for every such pair, and
    tables with equal settings share verdicts: a pair or readers rule reading an
    intent field or a setting outside those keys would be given another pair's
    verdict."""
    from delta_lint.engine.classes import BEHAVIOUR_FIELDS
    from delta_lint.engine.pairing import SETTINGS_FIELDS

    units = _units()
    for unit in units["pair"] + units["readers"]:
        assert unit.reads <= set(BEHAVIOUR_FIELDS), f"{unit.name} reads {sorted(unit.reads - set(BEHAVIOUR_FIELDS))}"
        missing = sorted(unit.settings - set(SETTINGS_FIELDS))
        assert not missing, f"{unit.name} reads {missing}"


def test_every_unit_reads_fields_that_exist():
    """Intent and run rules are judged intent by intent (nothing is kept per class):
    what they declare is checked against the model, as every unit's is."""
    from dataclasses import fields

    from delta_lint.model import Intent
    from delta_lint.settings import TableSettings

    def names(cls: type) -> set[str]:
        return {f.name for f in fields(cls)} | {n for n, v in vars(cls).items() if isinstance(v, property)}

    intent, settings = names(Intent), names(TableSettings)
    for units in _units().values():
        for unit in units:
            unknown = sorted(f for f in unit.reads if f.split(".")[0] not in intent)
            assert not unknown, f"{unit.name} reads no such intent field {unknown}"
            assert unit.settings <= settings, f"{unit.name} reads no such setting {sorted(unit.settings - settings)}"


def test_every_run_rule_reads_a_field_the_file_summaries_keep():
    """Run rules see only the intents a file summary keeps, those naming one of
    SHARED_FIELDS (a cached run decodes no other): a rule keyed on another field
    would see none of its intents."""
    from delta_lint.model import SHARED_FIELDS

    for unit in _units()["run"]:
        assert unit.reads & set(SHARED_FIELDS), f"{unit.name} reads none of {SHARED_FIELDS}"


def test_the_class_key_holds_each_behaviour_field_and_nothing_else():
    """Intents differing in one of BEHAVIOUR_FIELDS fall into different classes; intents
    differing only elsewhere (their text, condition as written, alias, checkpoint,
    line) share one."""
    from dataclasses import replace

    from delta_lint.config import validate
    from delta_lint.engine.classes import BEHAVIOUR_FIELDS, Classes
    from delta_lint.model import Flag, Intent, Kind, Location, TableDDL, TableRef
    from delta_lint.predicates import Constraint, Region
    from delta_lint.schedule import build_schedule

    day = Region(((("date", Constraint(values=frozenset({("lit", "2024-01-01")}))),),))
    base = Intent(Location("a.sql", 1, 1), TableRef("s.t"), Kind.MERGE, region=day, predicate_sql="x")
    changed = {
        "kind": replace(base, kind=Kind.UPDATE),
        "flags": replace(base, flags=frozenset({Flag.SUBQUERY})),
        "subkind": replace(base, subkind="other"),
        "zorder_by": replace(base, zorder_by=("id",)),
        "merge_clauses": replace(base, merge_clauses=("matched_delete",)),
        "table.is_path": replace(base, table=TableRef("s.t", is_path=True)),
        "params": replace(base, params=("run_date",)),
        "region": replace(base, region=None),
        "added_columns": replace(base, subkind="add_columns", declared=TableDDL(columns=("c",))),
        "txn_app_id": replace(base, txn_app_id="a"),
        "row_columns": replace(base, row_columns=("id",)),
        "read_region": replace(base, read_region=day),
    }
    assert sorted(changed) == sorted(BEHAVIOUR_FIELDS)
    alike = [
        replace(base, statement="MERGE ...", predicate_sql="y", target_alias="t", checkpoint="/c"),
        replace(base, location=Location("a.sql", 2, 1)),
    ]
    config = validate({"spark": "none"}, Path("/r/delta-lint.yaml"))
    schedule = build_schedule(config, {"a.sql": "a.sql"})
    for field_name, other in changed.items():
        group = [base, replace(other, location=Location("a.sql", 3, 1))]
        assert len(Classes(group, schedule, None, {}).members) == 2, field_name
    assert len(Classes([base, *alike], schedule, None, {}).members) == 1
    # two ADD COLUMNS that differ only in the columns they add
    adds = [replace(changed["added_columns"], location=Location("a.sql", n, 1)) for n in (4, 5)]
    adds[1] = replace(adds[1], declared=TableDDL(columns=("d",)))
    assert len(Classes(adds, schedule, None, {}).members) == 2
