"""Rule documentation: finished prose in `explain`, each rule's page up to date, and
the findings' links to it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from delta_lint.rulepack import docs_page, explain_text, load
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent

PLACEHOLDER = re.compile(r"\{\w+\}")


def test_every_rule_documents_itself_in_prose_without_message_fields():
    for rule in load().rules.values():
        for name in ("what", "why", "use_instead"):
            text = getattr(rule, name)
            assert text.strip(), f"{rule.id}: no `{name}`"
            assert not PLACEHOLDER.search(text), f"{rule.id}.{name} is a template: {text}"
        title, url = rule.reference
        assert title and url, f"{rule.id}: no reference"
        assert not PLACEHOLDER.search(explain_text(rule)), rule.id


def test_committed_rule_pages_are_generated_from_rules():
    folder = ROOT / "docs" / "rules"
    pack = load()
    assert sorted(p.stem for p in folder.glob("*.md")) == sorted(pack.rules), (
        "regenerate with `python -m delta_lint.rulepack docs/rules`"
    )
    for rule in pack.rules.values():
        assert (folder / f"{rule.id}.md").read_text(encoding="utf-8") == docs_page(rule), (
            f"docs/rules/{rule.id}.md is out of date: regenerate with `python -m delta_lint.rulepack docs/rules`"
        )


def test_explain_prints_the_rule_page_prose():
    proc = run_cli("explain", "DL102")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    rule = load().rules["DL102"]
    assert rule.what in out and rule.use_instead in out and rule.reference[1] in out
    assert "{" not in out


def test_json_findings_link_their_rule_page_and_sarif_rules_their_reference():
    fixtures = ROOT / "fixtures"

    def run(fmt: str) -> str:
        return run_cli("check", ".", "--format", fmt, "--no-cache", cwd=fixtures).stdout

    findings = json.loads(run("json"))["findings"]
    assert findings and all(f["url"] == f"docs/rules/{f['rule']}.md" for f in findings)
    assert all((ROOT / f["url"]).is_file() for f in findings)
    rules = json.loads(run("sarif"))["runs"][0]["tool"]["driver"]["rules"]
    by_id = {r["id"]: r for r in rules}
    assert by_id["DL101"]["helpUri"] == load().rules["DL101"].reference[1]
    assert "{" not in by_id["DL102"]["shortDescription"]["text"]
