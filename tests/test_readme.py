"""The README's rule table is generated from rules/ and kept in sync."""

from delta_lint.rulepack import load
from tests.conftest import ROOT


def test_readme_rule_table_matches_rule_pack():
    readme = (ROOT / "README.md").read_text()
    for rule in load().rules.values():
        assert f"| {rule.id} | {rule.name} | {rule.exception or '-'} |" in readme


def test_readme_starts_with_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "pip install -e '.[spark]' && delta-lint check fixtures/jobs" in readme
    assert "pip install -e '.[dev]' && pytest" in readme
    assert "pip install -e '.[dev]' && pytest" in (ROOT / ".ci" / "run").read_text()
