"""The documentation holds together: generated pages are current, and every
relative link of README.md, docs/**/*.md and the rules' references resolves to a
file and, for `#anchor`, to a heading of that file."""

from __future__ import annotations

import re
from pathlib import Path

from delta_lint import configdoc
from delta_lint.rulepack import load
from tests.conftest import ROOT

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped,
    spaces as `-`."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    anchors, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            anchors.add(_slug(line.lstrip("#")))
    return anchors


def _broken(source: Path, target: str) -> str | None:
    """Why `target`, linked from `source`, does not resolve; None when it does."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
        return None
    path_part, _, anchor = target.partition("#")
    resolved = (source.parent / path_part).resolve() if path_part else source
    if not resolved.exists():
        return f"{target}: no such file"
    if anchor and resolved.is_file() and anchor not in _anchors(resolved):
        return f"{target}: no heading #{anchor} in {resolved.relative_to(ROOT)}"
    return None


def _links(page: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    text = re.sub(r"`[^`]*`", "", text)  # code spans (`_STEPS[step](catalog=c)`) hold no link
    return LINK.findall(text)


def test_every_relative_link_of_the_readme_and_docs_resolves():
    broken = [
        f"{page.relative_to(ROOT)}: {why}"
        for page in _pages()
        for target in _links(page)
        if (why := _broken(page, target))
    ]
    assert not broken, "\n".join(broken)


def test_every_rule_reference_resolves():
    """rules/rules.yaml `reference.url` is relative to the repository root."""
    broken = [
        f"{rule.id}: {why}"
        for rule in load().rules.values()
        if (why := _broken(ROOT / "rules.yaml", rule.reference[1]))
    ]
    assert not broken, "\n".join(broken)


def test_the_link_check_finds_a_broken_file_and_a_broken_anchor(tmp_path):
    page = ROOT / "README.md"
    assert _broken(page, "docs/usage.md#exit-codes") is None
    assert _broken(page, "docs/usage.md#no-such-heading") is not None
    assert _broken(page, "docs/no-such-page.md") is not None
    assert _broken(page, "https://docs.delta.io/") is None


def test_configuration_page_is_generated_from_the_schema():
    committed = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert committed == configdoc.page(), "regenerate with `python -m delta_lint.configdoc docs/configuration.md`"


def test_every_configuration_key_is_documented_and_no_other():
    declared, documented = set(configdoc.schema_keys()), set(configdoc.KEYS)
    assert declared - documented == set(), "schema keys without a text in delta_lint/configdoc.py"
    assert documented - declared == set(), "texts in delta_lint/configdoc.py for keys the schema lacks"


def test_the_configuration_example_loads(tmp_path):
    """The page's example file is a configuration the loader accepts as written."""
    from delta_lint.config import load_config

    page = configdoc.page()
    example = page[page.index("```yaml\n") + 8 : page.index("```", page.index("```yaml\n") + 8)]
    (tmp_path / "delta-lint.yaml").write_text(example)
    (tmp_path / "databricks.yml").write_text("bundle: {name: b}\n")
    config = load_config(tmp_path / "delta-lint.yaml")
    assert config.runtime == "15.4" and config.spark_timeout == 30
