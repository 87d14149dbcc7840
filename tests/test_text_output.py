"""Text findings as ruff users expect them: `path:line:col: CODE` first, the severity last,
the statement with the finding's line marked (full) or one line (concise), long
messages wrapped, several findings of one rule on one line merged."""

from __future__ import annotations

from delta_lint.model import Finding, Location
from delta_lint.report import text
from tests.test_integrations import CONFIG, DELETE_B, MERGE_A, cli, project

LONG = "MERGE on `s.orders` " + "does not constrain the partition columns " * 12


def finding(message: str = "short", line: int = 2, column: int = 3, rule: str = "DL101", **kw) -> Finding:
    return Finding(
        rule,
        "non-explicit-partition-predicate",
        kw.pop("severity", "error"),
        "ConcurrentAppendException",
        "s.orders",
        message,
        Location("jobs/a.sql", line, column),
        **kw,
    )


SOURCE = [
    "-- nightly",
    "MERGE INTO s.orders t USING u",
    "  ON u.id = t.id",
    "WHEN MATCHED THEN DELETE;",
    "",
    "SELECT 1;",
]


def test_the_severity_closes_the_first_line():
    out = text([finding(severity="warning")], 1, 1)
    assert out.splitlines()[0] == "jobs/a.sql:2:3: DL101 [ConcurrentAppendException] short [warning]"


def test_full_shows_the_statement_with_its_line_and_column_marked():
    lines = text([finding()], 1, 1, source=lambda path: SOURCE if path == "jobs/a.sql" else None).splitlines()
    start = lines.index("    2 > MERGE INTO s.orders t USING u")
    assert lines[start + 1] == "      |   ^"  # column 3
    assert lines[start + 2 : start + 4] == ["    3 |   ON u.id = t.id", "    4 | WHEN MATCHED THEN DELETE;"]
    assert "SELECT 1;" not in "\n".join(lines)  # the statement ends at its `;`


def test_code_with_control_characters_is_shown_escaped():
    out = text([finding(line=1)], 1, 1, source=lambda path: ["DELETE FROM s.t\x1b[2J WHERE k = 1;"])
    assert "\x1b" not in out and "\\x1b[2J" in out


def test_long_messages_wrap_and_keep_the_location_and_code_first():
    lines = text([finding(LONG)], 1, 1, width=100).splitlines()
    assert lines[0].startswith("jobs/a.sql:2:3: DL101 [ConcurrentAppendException] MERGE")
    assert lines[-2].endswith("[error]")
    body = [line for line in lines[:-1]]
    assert len(body) > 3 and all(len(line) <= 100 for line in body)
    assert all(line.startswith("    ") for line in body[1:])


def test_concise_is_one_line_per_finding_and_merges_a_line_s_findings():
    same_line = [finding("first", related=(Location("b.sql", 1, 1),)), finding("second")]
    out = text(same_line + [finding("elsewhere", line=9)], 1, 1, concise=True, quiet=True)
    assert out.splitlines() == [
        "jobs/a.sql:2:3: DL101 [ConcurrentAppendException] first (and 1 more DL101 on this line) [error]",
        "jobs/a.sql:9:3: DL101 [ConcurrentAppendException] elsewhere [error]",
    ]
    full = text(same_line, 1, 1, quiet=True).splitlines()
    assert (
        full[0].endswith("first [error]")
        and full[1] == "    also: second"
        and full.count("    related: b.sql:1:1") == 1
    )


def test_the_same_words_on_one_line_are_said_once_with_each_partner_related():
    """One statement against two partners: one message, both partners related, no
    `also:` repeating the headline."""
    twice = [finding("same", related=(Location("b.sql", 1, 1),)), finding("same", related=(Location("c.sql", 4, 1),))]
    full = text(twice, 1, 1, quiet=True).splitlines()
    assert full[0].endswith("same [error]") and not any(line.startswith("    also:") for line in full)
    assert "    related: b.sql:1:1" in full and "    related: c.sql:4:1" in full


def test_cli_full_is_the_default_and_concise_is_chosen_with_output_format(tmp_path):
    jobs = "jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\n"  # configured: an error, not an assumed overlap
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B, "delta-lint.yaml": CONFIG + jobs})
    full = cli("check", ".", cwd=p, env={"COLUMNS": "100"})
    assert full.returncode == 1
    assert "a.sql:1:1: DL101 [ConcurrentAppendException] MERGE on `s.orders`" in full.stdout
    assert "[error]\n" in full.stdout
    assert "    1 > MERGE INTO s.orders t USING updates u" in full.stdout
    assert max(len(line) for line in full.stdout.splitlines()[:-1]) <= 100
    concise = cli("check", ".", "--output-format", "concise", "-q", cwd=p)
    assert concise.returncode == 1 and len(concise.stdout.splitlines()) == 1
    assert concise.stdout.startswith("a.sql:1:1: DL101 [ConcurrentAppendException] MERGE on `s.orders`")
    assert concise.stdout.endswith(" [error]\n")
    # without a terminal or COLUMNS, messages are not wrapped (grep keeps working)
    piped = cli("check", ".", cwd=p, env={"COLUMNS": ""})
    assert piped.stdout.splitlines()[0].endswith("[error]") and len(piped.stdout.splitlines()[0]) > 100
    assert cli("check", ".", "--format", "full", cwd=p, env={"COLUMNS": "100"}).stdout == full.stdout
