"""Code text and job definitions cannot steer the output: `tables`, `intents` and
the plain-text formats print no terminal escape and no line that starts a GitHub
workflow command; the Markdown of `check` and `advise` (a pull-request comment)
holds no HTML, image, link or @mention taken from the repository."""

from __future__ import annotations

from pathlib import Path

from tests.security.test_threat_model import cli

HOSTILE_NAME = "::error title=x::pwned.sql"
IMAGE = "![p](https://e.invalid/p.png)"
HOSTILE_SQL = (
    "DELETE FROM main.s.t WHERE id = 2;\n"
    "INSERT INTO `a\x1b[31mred` SELECT 1;\n"
    "INSERT INTO `::warning::tbl` SELECT 1;\n"
    f"DELETE FROM `{IMAGE} @octocat <img src=x>` WHERE id = 2;\n"
)
BUNDLE = """
bundle:
  name: demo
resources:
  jobs:
    nightly:
      name: nightly
      tasks:
        - task_key: "<img src=x onerror=alert(1)>"
          sql_task:
            file:
              path: ./jobs/a.sql
            warehouse_id: w
        - task_key: "b ![p](https://e.invalid/p.png) @octocat"
          sql_task:
            file:
              path: ./jobs/b.sql
            warehouse_id: w
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "jobs").mkdir(parents=True)
    # at the root, so that its name begins the lines that show it
    (root / HOSTILE_NAME).write_text(
        f"DELETE FROM main.s.t WHERE id = 1;\nDELETE FROM `{IMAGE} @octocat <img src=x>`;\n"
    )
    (root / "jobs" / "b.sql").write_text(HOSTILE_SQL)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    return root


def _outside_fences(md: str) -> str:
    """The Markdown outside fenced code blocks (in which nothing is rendered)."""
    kept, fence = [], None
    for line in md.splitlines():
        run = line[: len(line) - len(line.lstrip("`"))]
        if fence is None and len(run) >= 3:
            fence = run
        elif fence is not None and line.strip() == fence:
            fence = None
        elif fence is None:
            kept.append(line)
    assert fence is None, "a fence left open"
    return "\n".join(kept)


def _commands(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.lstrip().startswith("::")]


def test_tables_intents_and_text_formats_print_no_escape_and_no_workflow_command(tmp_path):
    root = _project(tmp_path)
    for args in (
        ("intents", "."),
        ("tables", "."),
        ("check", ".", "--no-cache"),
        ("check", ".", "--no-cache", "--format", "concise"),
    ):
        proc = cli(root, *args)
        assert proc.returncode in (0, 1), proc.stderr
        assert "\x1b" not in proc.stdout, args
        assert _commands(proc.stdout) == [], args
    # the names are still shown, escaped
    intents = cli(root, "intents", ".").stdout
    assert "a\\x1b[31mred" in intents and "\\x3a:error title=x::pwned.sql:1:1" in intents
    assert "\\x3a:warning::tbl" in cli(root, "tables", ".").stdout


def test_check_markdown_keeps_no_image_mention_or_html_in_its_table(tmp_path):
    root = _project(tmp_path)
    md = cli(root, "check", ".", "--no-cache", "--format", "markdown").stdout
    assert "p.png" in md  # the finding is there, its table name neutralised
    assert IMAGE not in md and "@octocat" not in md and "<img" not in md and "https://e.invalid" not in md
    assert "main.s.t" in md  # an ordinary name is unchanged


def test_advise_markdown_keeps_no_html_from_a_task_key(tmp_path):
    root = tmp_path / "bundle"
    (root / "jobs").mkdir(parents=True)
    (root / "jobs" / "a.sql").write_text("DELETE FROM main.s.t WHERE id = 1;\n")
    (root / "jobs" / "b.sql").write_text("DELETE FROM main.s.t WHERE id = 2;\n")
    (root / "databricks.yml").write_text(BUNDLE)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    proc = cli(root, "advise", "--format", "markdown")
    assert proc.returncode == 0, proc.stderr
    md = _outside_fences(proc.stdout)
    assert "depend on task" in md and "onerror" in md  # the change is advised, its keys shown
    assert "<img" not in md and IMAGE not in md and "@octocat" not in md and "https://e.invalid" not in md
    assert "<details>" in md and "<summary>" in md  # delta-lint's own HTML stays
