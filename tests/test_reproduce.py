"""`delta-lint reproduce` on the fixture workload: a finding that conflicts on real Delta,
a pair the engine calls safe that does not, and the user's tables left byte-identical."""

from __future__ import annotations

import pytest

from delta_lint.baseline import fingerprint
from delta_lint.config import load_config
from delta_lint.reproduce import CannotReproduce, locate, pair_of
from delta_lint.reproduce import run as reproduce
from delta_lint.run import check
from tests.conftest import FIXTURES, ROOT, run_cli
from tests.test_settings_live import tree_digest

TABLES = FIXTURES / "tables"


@pytest.fixture(scope="module")
def workload(tmp_path_factory):
    config = load_config(FIXTURES / "delta-lint.yaml")
    result = check([FIXTURES / "jobs"], config, cwd=ROOT, use_cache=False)
    return result, [i for f in result.files for i in f.intents]


def test_a_conflicting_finding_reproduces_with_the_real_exception(delta_spark, workload):
    spark, _url = delta_spark
    result, intents = workload
    before = tree_digest(TABLES)
    finding, a, b = locate(result.findings, intents, "fixtures/jobs/purge_customers.sql:1")
    assert (finding.rule, finding.table) == ("DL102", "main.sales.customers_flat")
    # a fingerprint names the same finding
    assert locate(result.findings, intents, fingerprint(finding))[0] == finding
    report = reproduce(spark, str(finding.location), a, b, result.settings[finding.table])
    text = report.text()
    assert report.reproduced, text
    assert {o.exception for o in report.reproduced} <= {"ConcurrentAppendException", "ConcurrentDeleteReadException"}
    assert "reproduced: Concurrent" in text
    assert "open-source Delta Lake" in text and "Databricks" in text  # which semantics ran
    assert "DELETE FROM <scratch> WHERE (`signup_date` < '2010-01-01')" in text
    assert tree_digest(TABLES) == before


def test_a_pair_the_engine_calls_safe_does_not_conflict(delta_spark, workload):
    """Section 6 of the spec: UPDATE date > X and DELETE date < X on a table partitioned by date."""
    spark, _url = delta_spark
    result, intents = workload
    before = tree_digest(TABLES)
    a, b = pair_of(intents, "fixtures/jobs/mark_late.sql:2", "fixtures/jobs/purge_old.sql:1")
    assert not [f for f in result.findings if {f.location, *f.related[:1]} == {a.location, b.location}]
    report = reproduce(spark, "safe pair", a, b, result.settings["main.sales.orders"])
    text = report.text()
    assert not report.reproduced, text
    assert "did not conflict here" in text
    assert all(o.stage == "commit" and o.exception is None for _, o in report.outcomes), text
    assert "PARTITIONED BY (`date`, `country`)" in text
    assert tree_digest(TABLES) == before


def test_unknown_findings_and_spark_connect_are_refused_with_one_line(workload):
    result, intents = workload
    with pytest.raises(CannotReproduce):
        locate(result.findings, intents, "fixtures/jobs/nothing.sql:3")
    for args in (["nothing.sql:3"], ["fixtures/jobs/purge_customers.sql:1", "--spark", "sc://127.0.0.1:9"]):
        proc = run_cli("reproduce", *args, "fixtures/jobs", "--config", "fixtures/delta-lint.yaml")
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


# -- the scratch statements are built from expressions (no JVM) ------------------------


@pytest.mark.parametrize(
    ("first", "second", "kind"),
    [
        ("DELETE FROM main.s.t WHERE k IN ('a\\\\', ') OR TRUE --');", "DELETE FROM main.s.t WHERE k = 'b';", "Delete"),
        (
            "UPDATE main.s.t SET v = 1 WHERE k = 'x\\\\';",
            "DELETE FROM main.s.t WHERE k >= 'y\\\\' OR k = 'q';",
            "Update",
        ),
        (
            "MERGE INTO main.s.t t USING s ON t.id = s.id AND t.k = 'm\\\\' WHEN MATCHED THEN DELETE;",
            "INSERT INTO main.s.t SELECT * FROM main.s.t WHERE k = '{t}\\\\';",
            "Merge",
        ),
    ],
)
def test_a_value_ending_in_a_backslash_stays_one_literal(lint, first, second, kind):
    """Values of the job's code enter the scratch statements as literals: one ending in
    a backslash (Spark's escape character) cannot end its quotes and choose the
    statement's structure, and `{t}` in a value is no table."""
    import sqlglot
    from sqlglot import exp

    from delta_lint.reproduce import Report, plan

    result = lint({"a.sql": first + "\n", "b.sql": second + "\n"})
    a, b = sorted((i for i in result.intents if i.table and i.table.name == "main.s.t"), key=lambda i: i.location.path)
    expected = {str(v) for i in (a, b) for conj in i.region.conjuncts for _, c in conj for _, v in (c.values or ())}
    expected |= {str(x) for i in (a, b) for conj in i.region.conjuncts for _, c in conj for x in (c.low, c.high) if x}
    text = Report("f", plan(a, b, result.settings["main.s.t"]), [], "").text()
    shown = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("statement ")]
    assert len(shown) == 2
    literals = set()
    for statement in shown:
        trees = sqlglot.parse(statement.replace("<scratch>", "scratch"), dialect="spark")
        assert len(trees) == 1 and trees[0] is not None, statement
        assert [t.name for t in trees[0].find_all(exp.Table)] and {t.name for t in trees[0].find_all(exp.Table)} <= {
            "scratch",
            "s",
        }, statement
        literals |= {lit.this for lit in trees[0].find_all(exp.Literal) if lit.is_string}
    assert type(sqlglot.parse_one(shown[0].replace("<scratch>", "scratch"), dialect="spark")).__name__ == kind
    assert expected <= literals, (expected, literals)
    assert not any(
        isinstance(n, exp.Boolean)
        for s in shown
        for n in sqlglot.parse_one(s.replace("<scratch>", "x"), dialect="spark").find_all(exp.Boolean)
        if "OR TRUE" in s
    )
