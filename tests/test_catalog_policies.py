"""Unity Catalog's governance of a table set by ALTER TABLE. Tags are the catalog's
alone (as `SET TAG ON TABLE`): nothing is written to the table's log. Whether a
column mask or a row filter commits to the Delta log is not documented (Databricks
names their concurrent change a catalog metadata change): the pair with a concurrent
write is reported at `info`, saying that it holds only if the policy commits to the
log. Other column changes stay metadata changes judged as before."""

from __future__ import annotations

import pytest

PARALLEL = {"jobs": {"a": {"paths": ["a.sql"], "concurrent_runs": 2}}}
INSERT = "INSERT INTO main.s.t SELECT * FROM main.raw.t;\n"


def _intents(lint, sql: str) -> list[tuple[str, str, str | None]]:
    return [(i.table.name, i.kind.value, i.subkind) for i in lint({"a.sql": sql}).intents]


@pytest.mark.parametrize(
    ("sql", "subkind"),
    [
        ("ALTER TABLE main.s.t ALTER COLUMN ssn SET MASK main.sec.mask_ssn;", "column_mask"),
        ("ALTER TABLE main.s.t ALTER COLUMN ssn SET MASK main.sec.m USING COLUMNS (id, 'x');", "column_mask"),
        ("ALTER TABLE main.s.t CHANGE COLUMN `ssn` DROP MASK;", "column_mask"),
        ("ALTER TABLE main.s.t SET ROW FILTER main.sec.by_region ON (region);", "row_filter"),
        ("ALTER TABLE main.s.t DROP ROW FILTER;", "row_filter"),
    ],
)
def test_a_mask_or_row_filter_is_a_policy_change_of_its_own(lint, sql, subkind):
    assert _intents(lint, sql) == [("main.s.t", "metadata_change", subkind)]


@pytest.mark.parametrize(
    "sql",
    [
        "ALTER TABLE main.s.t SET TAGS ('pii' = 'true');",
        "ALTER TABLE main.s.t UNSET TAGS ('pii');",
        "ALTER TABLE main.s.t ALTER COLUMN ssn SET TAGS ('pii' = 'true');",
    ],
)
def test_tags_write_nothing_to_the_table(lint, sql):
    assert _intents(lint, sql) == []


def test_a_mask_beside_a_write_is_info_saying_what_is_not_known(lint):
    result = lint({"a.sql": "ALTER TABLE main.s.t ALTER COLUMN ssn SET MASK main.sec.m;\n" + INSERT}, PARALLEL)
    found = [f for f in result.findings if f.location.line == 1]
    assert [(f.rule, f.severity, f.verdict) for f in found] == [("DL110", "info", "may-not-commit")]
    assert "Unity Catalog policy" in found[0].message and "not documented" in found[0].message


@pytest.mark.parametrize(
    "sql",
    [
        "ALTER TABLE main.s.t ALTER COLUMN ssn COMMENT 'social security number';",
        "ALTER TABLE main.s.t ADD COLUMNS (masked STRING);",
        "ALTER TABLE main.s.t ALTER COLUMN mask SET NOT NULL;",
    ],
)
def test_other_column_changes_stay_certain_metadata_changes(lint, sql):
    result = lint({"a.sql": sql + "\n" + INSERT}, PARALLEL)
    found = [f for f in result.findings if f.location.line == 1]
    assert [(f.rule, f.severity, f.verdict) for f in found] == [("DL110", "error", "certain")]
