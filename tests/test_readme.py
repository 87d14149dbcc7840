"""The README's rule table is generated from rules/ and kept in sync."""

from delta_lint.report import rules_markdown
from delta_lint.rulepack import load
from tests.conftest import ROOT


def test_readme_rule_table_is_the_generated_one():
    readme = (ROOT / "README.md").read_text()
    start = readme.index("<!-- rules:start")
    table = readme[readme.index("\n", start) + 1 : readme.index("<!-- rules:end -->")]
    assert table == rules_markdown(load()), "regenerate with `delta-lint rules --format markdown`"
    assert all(f"| {rule.id} |" in table for rule in load().rules.values())


def test_readme_starts_with_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "pip install -e '.[spark]' && delta-lint check fixtures/jobs" in readme
    assert "pip install -e '.[dev]' && pytest" in readme
    assert "pip install -e '.[dev]' && pytest" in (ROOT / ".ci" / "run").read_text()
