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
