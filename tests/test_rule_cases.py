"""Every rule's cases (tests/rules/DLxxx.yaml): job files and configuration that
must give the rule's finding at a place, or no finding of the rule at all. One
runner for all of them, as sqlfluff runs its rule fixtures."""

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
