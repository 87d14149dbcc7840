"""The README's facts: its first two commands, and the pages it hands topics to (the
rule table generated from rules/, the usage block that matches `--help`)."""

from delta_lint.report import rules_markdown
from delta_lint.rulepack import load
from tests.conftest import ROOT


def test_rule_table_is_the_generated_one():
    readme = (ROOT / "docs" / "rules.md").read_text()
    start = readme.index("<!-- rules:start")
    table = readme[readme.index("\n", start) + 1 : readme.index("<!-- rules:end -->")]
    # `delta-lint rules --format markdown` links the pages from the repository root
    generated = rules_markdown(load()).replace("](docs/rules/", "](rules/")
    assert table == generated, "regenerate with `delta-lint rules --format markdown` (links relative to docs/)"
    assert all(f"| {rule.id} |" in table for rule in load().rules.values())


def test_readme_starts_with_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "pip install -e '.[spark]' && delta-lint check fixtures/jobs" in readme
    assert "pip install -e '.[dev]' && pytest" in readme


def test_ci_installs_once_and_runs_the_readme_test_commands():
    """CI runs the README's fast tier as written, then its slow tiers (on workers)."""
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    slow = 'pytest -m "jvm or oracle or integration or benchmark"'
    assert ci.count("pip install -e '.[dev]'") == 1
    assert "\ntier pytest\n" in ci and f"\ntier {slow} " in ci
    assert slow in readme


def test_usage_names_every_command_and_option_of_the_help():
    """The usage block of docs/usage.md is what `--help` offers: every command, and
    for each option one of its spellings."""
    import re

    import typer.main

    from delta_lint.cli import app

    readme = (ROOT / "docs" / "usage.md").read_text()
    start = readme.index("```", readme.index("## Usage"))
    block = readme[start : readme.index("```", start + 3)]
    missing = []
    for name, command in typer.main.get_command(app).commands.items():
        if f"delta-lint {name}" not in block:
            missing.append(name)
        for param in command.params:
            spellings = [o for o in (*param.opts, *param.secondary_opts) if o.startswith("--")]
            if param.param_type_name != "option" or param.hidden or "--help" in spellings:
                continue
            if not any(re.search(re.escape(o) + r"(?![\w-])", block) for o in spellings):
                missing.append(f"{name} {spellings[0]}")
    assert not missing, f"not in the usage block of docs/usage.md: {missing}"


def test_readme_names_every_extra_and_stays_short():
    import tomllib

    readme = (ROOT / "README.md").read_text()
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert all(f"`[{name}]`" in readme for name in extras), "an extra of pyproject.toml is not in the README"
    assert len(readme.encode("utf-8")) <= 12_000
