"""Conformance with docs/conflict-semantics.md: every cell of the matrices, both
isolation levels, every table shape, a disjoint and an overlapping variant.

The expectations below are written from the spec's text, not read from rules/,
so the rule pack is checked against the spec rather than against itself.
"""

from __future__ import annotations

import itertools

import pytest

INSERT, DML, OPT = "INSERT", "DML", "OPTIMIZE"
WS, SER = "WriteSerializable", "Serializable"

# name -> (table settings, row-level concurrency on runtime latest?, deletion vectors?)
SHAPES = {
    "partitioned": ({"partitioned_by": ["p"], "deletion_vectors": False}, False, False),
    "partitioned_dv": ({"partitioned_by": ["p"], "deletion_vectors": True}, False, True),
    "unpartitioned": ({"deletion_vectors": False}, False, False),
    "unpartitioned_dv": ({"deletion_vectors": True}, True, True),
    "clustered": ({"clustered_by": ["p"]}, True, True),
}


def spec_outcome(a: str, b: str, iso: str, rlc: bool, dv: bool, zorder: bool, oss: bool = False) -> str:
    """Sections 4 and 5 (and the older page for open-source Delta)."""
    pair = {a, b}
    if pair == {INSERT} or pair == {OPT, INSERT}:
        return "never"
    if pair == {DML, INSERT}:
        if iso == WS:
            return "never"
        return "same_rows" if rlc else "same_files"
    if pair == {DML}:
        return "same_rows" if rlc else "same_files"
    # OPTIMIZE with UPDATE/DELETE/MERGE or with OPTIMIZE
    if oss:
        return "same_files"
    if rlc or dv:
        return "same_files" if zorder else "never"
    return "same_files"


def spec_exception(a: str, b: str, oss: bool = False) -> str:
    pair = {a, b}
    if pair == {OPT}:
        # open-source Delta: measured by the oracle (tests/oracle, benchmarks/ORACLE.md)
        return "ConcurrentDeleteReadException" if oss else "ConcurrentDeleteDeleteException"
    if pair == {OPT, DML}:
        return "ConcurrentAppendException" if oss else "ConcurrentDeleteReadException"
    return "ConcurrentAppendException"


def statement(cls: str, value: str, row: int, partitioned: bool, zorder: bool, second: bool) -> str:
    if cls == INSERT:
        if partitioned:
            return f"INSERT INTO s.t PARTITION (p = '{value}') SELECT id, v FROM s.src;"
        return "INSERT INTO s.t SELECT p, id, v FROM s.src;"
    if cls == DML:
        if second:
            return f"DELETE FROM s.t WHERE p = '{value}' AND id = {row};"
        return f"UPDATE s.t SET v = 1 WHERE p = '{value}' AND id = {row};"
    z = " ZORDER BY (v)" if zorder else ""
    return f"OPTIMIZE s.t WHERE p = '{value}'{z};"


# The two files as two configured jobs: their overlap rests on the configuration, so a
# cell's verdict alone decides the severity (certain: error, data-dependent: warning).
TWO_JOBS = {"a": {"paths": ["a.sql"]}, "b": {"paths": ["b.sql"]}}


def expected_severity(outcome: str, a: str, b: str, partitioned: bool, disjoint: bool) -> str | None:
    if outcome == "never":
        return None
    if outcome == "same_files":
        if partitioned:
            return None if disjoint else "error"
        return "error"  # an unpartitioned table: every write shares the files
    # same rows: appended rows are unknown, so only DML pairs can be proven either way
    if INSERT in (a, b):
        return "warning"
    return None if disjoint else "error"


CASES = []
for shape, (a, b), iso, zorder, disjoint in itertools.product(
    SHAPES,
    [(INSERT, INSERT), (DML, INSERT), (INSERT, DML), (DML, DML), (OPT, INSERT), (OPT, DML), (DML, OPT), (OPT, OPT)],
    [WS, SER],
    [False, True],
    [True, False],
):
    if zorder and OPT not in (a, b):
        continue
    if zorder and shape == "clustered":
        continue  # ZORDER on a clustered table is invalid (DL130, tested separately)
    CASES.append((shape, a, b, iso, zorder, disjoint))


@pytest.mark.parametrize("shape,a,b,iso,zorder,disjoint", CASES)
def test_matrix_cell(lint, shape, a, b, iso, zorder, disjoint):
    settings, rlc, dv = SHAPES[shape]
    partitioned = bool(settings.get("partitioned_by"))
    first = statement(a, "A", 1, partitioned, zorder, second=False)
    second = statement(b, "B" if disjoint else "A", 2 if disjoint else 1, partitioned, zorder, second=True)
    result = lint(
        {"a.sql": first, "b.sql": second},
        {"runtime": "latest", "tables": {"s.t": {**settings, "isolation_level": iso}}, "jobs": TWO_JOBS},
    )
    conflicts = [f for f in result.findings if f.table == "s.t"]
    outcome = spec_outcome(a, b, iso, rlc, dv, zorder)
    severity = expected_severity(outcome, a, b, partitioned, disjoint)
    if severity is None:
        assert conflicts == [], conflicts
    else:
        assert len(conflicts) == 1, conflicts
        assert conflicts[0].severity == severity
        assert conflicts[0].exception == spec_exception(a, b)


OSS_CASES = [
    c
    for c in itertools.product(
        ["partitioned", "unpartitioned"], [(DML, INSERT), (DML, DML), (OPT, DML), (OPT, OPT)], [True, False]
    )
]


@pytest.mark.parametrize("shape,pair,disjoint", OSS_CASES)
def test_open_source_matrix(lint, shape, pair, disjoint):
    """Open-source Delta: Serializable only, no row-level concurrency, OPTIMIZE conflicts with DML."""
    a, b = pair
    settings, _rlc, _dv = SHAPES[shape]
    partitioned = bool(settings.get("partitioned_by"))
    first = statement(a, "A", 1, partitioned, False, second=False)
    second = statement(b, "B" if disjoint else "A", 1, partitioned, False, second=True)
    result = lint({"a.sql": first, "b.sql": second}, {"runtime": "oss", "tables": {"s.t": settings}, "jobs": TWO_JOBS})
    conflicts = [f for f in result.findings if f.table == "s.t"]
    outcome = spec_outcome(a, b, SER, False, False, False, oss=True)
    severity = expected_severity(outcome, a, b, partitioned, disjoint)
    if severity is None:
        assert conflicts == []
    else:
        assert [c.severity for c in conflicts] == [severity]
        assert conflicts[0].exception == spec_exception(a, b, oss=True)


def test_zorder_on_clustered_table_is_invalid(lint):
    result = lint({"a.sql": "OPTIMIZE s.t ZORDER BY (v);"}, {"tables": {"s.t": {"clustered_by": ["p"]}}})
    assert [(f.rule, f.severity, f.exception) for f in result.findings] == [("DL130", "error", None)]


# --- the spec's examples -------------------------------------------------------


@pytest.mark.parametrize("partitioned", [True, False])
def test_section6_update_and_delete_on_date(lint, partitioned):
    """UPDATE ... date > '2010-01-01' and DELETE ... date < '2010-01-01' conflict
    unless the table is partitioned by date."""
    table = {"partitioned_by": ["date"]} if partitioned else {}
    result = lint(
        {
            "a.sql": "UPDATE s.t SET x = 1 WHERE date > '2010-01-01';",
            "b.sql": "DELETE FROM s.t WHERE date < '2010-01-01';",
        },
        {"tables": {"s.t": table}, "jobs": TWO_JOBS},
    )
    if partitioned:
        assert result.findings == []
    else:
        assert [(f.rule, f.severity, f.exception) for f in result.findings] == [
            ("DL102", "error", "ConcurrentAppendException")
        ]


MERGE_SQL = """
MERGE INTO s.orders t USING s.updates s
ON s.user_id = t.user_id AND s.date = t.date AND s.country = t.country{extra}
WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
"""

MERGE_PY = """
from delta.tables import DeltaTable
run_date = dbutils.widgets.get("date")
country = dbutils.widgets.get("country")
(DeltaTable.forName(spark, "s.orders").alias("t")
    .merge(updates.alias("s"), "s.user_id = t.user_id AND s.date = t.date AND s.country = t.country"{extra})
    .whenMatchedUpdateAll().whenNotMatchedInsertAll().execute())
"""

WORKED = {
    "tables": {"s.orders": {"partitioned_by": ["date", "country"]}},
    "jobs": {"upsert": {"paths": ["job.*"], "concurrent_runs": 4}},
}


@pytest.mark.parametrize(
    "name,template,explicit",
    [
        ("job.sql", MERGE_SQL, " AND t.date = :date AND t.country = :country"),
        ("job.py", MERGE_PY, " + f\" AND t.date = '{run_date}' AND t.country = '{country}'\""),
    ],
)
def test_worked_example_non_explicit_merge(lint, name, template, explicit):
    """Section 6: concurrent runs of the MERGE for different dates conflict until the
    target partition is explicit."""
    result = lint({name: template.format(extra="")}, WORKED)
    assert [(f.rule, f.severity, f.exception) for f in result.findings] == [
        ("DL101", "error", "ConcurrentAppendException")
    ]
    fix = result.findings[0].fix
    assert "t.date = " in fix and "t.country = " in fix
    assert "concurrent_runs: 4" in result.findings[0].overlap


@pytest.mark.parametrize(
    "name,template,explicit",
    [
        ("job.sql", MERGE_SQL, " AND t.date = :date AND t.country = :country"),
        ("job.py", MERGE_PY, " + f\" AND t.date = '{run_date}' AND t.country = '{country}'\""),
    ],
)
def test_worked_example_explicit_merge_is_safe(lint, name, template, explicit):
    """Safe while the runs' dates and countries differ: only an info says that two runs
    given the same values (a hand run, a duplicate trigger) conflict."""
    result = lint({name: template.format(extra=explicit)}, WORKED)
    assert [(f.rule, f.severity, f.overlap_basis) for f in result.findings] == [("DL102", "info", "same-value")]


@pytest.mark.parametrize("iso,expected", [("Serializable", ["DL103"]), ("WriteSerializable", [])])
def test_section8_long_delete_and_insert(lint, iso, expected):
    result = lint(
        {"a.sql": "DELETE FROM s.t WHERE status = 'void';", "b.py": 'df.write.mode("append").saveAsTable("s.t")'},
        {"tables": {"s.t": {"isolation_level": iso}}},
    )
    assert [f.rule for f in result.findings] == expected


def test_undeclared_table_says_what_it_assumed(lint):
    result = lint({"a.sql": "DELETE FROM s.t WHERE id = 1;", "b.sql": "UPDATE s.t SET v = 2 WHERE id = 2;"})
    assert len(result.findings) == 1
    assert "not declared; assumed unpartitioned, no deletion vectors, WriteSerializable" in result.findings[0].message
