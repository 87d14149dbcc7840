"""Settings read on real open-source Delta (delta-spark's jars in the session's one JVM):
through Spark Connect exactly as Databricks Connect reads them, and in a classic
session; DESCRIBE DETAIL and the log replay agree on every fixture table."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from delta_lint.settings.reader import Target, describe_detail, read_tables, replay_logs
from delta_lint.settings.spark import ALLOWED_SQL, ReadOnlySession, open_spark
from tests.conftest import FIXTURES, ROOT

sys.path.insert(0, str(FIXTURES))
from make_tables import EXPECTED  # noqa: E402

TABLES = FIXTURES / "tables"
COMPARED = ("partitioned_by", "clustered_by", "deletion_vectors", "isolation_level", "identity_columns")
# everything both strategies can see; DESCRIBE DETAIL lists reader and writer features as one set
SAME = (*COMPARED, "row_tracking", "min_reader_version", "min_writer_version", "table_version")


def as_expected(s) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in ((k, getattr(s, k)) for k in COMPARED)}


@pytest.fixture(scope="module")
def connect(delta_spark):
    """A Spark Connect client of the Delta-enabled server, as Databricks Connect is."""
    _spark, url = delta_spark
    with open_spark(url, 60) as handle:
        yield handle.session


def targets() -> list[Target]:
    return [Target(name, str(TABLES / name)) for name in EXPECTED]


def test_spark_connect_with_delta_reads_every_fixture_table_with_describe_detail(connect):
    sent_before = len(connect.sent)
    result = read_tables(connect, targets(), use_catalog=True, root=FIXTURES)
    assert result.problems == {}
    assert {n: as_expected(s) for n, s in result.tables.items()} == EXPECTED
    assert {s.strategy for s in result.tables.values()} == {"detail"}
    assert result.tables["orders"].table_version == 3
    sent = connect.sent[sent_before:]
    assert any(text.startswith("DESCRIBE DETAIL delta.`") for text in sent)
    for text in sent:
        assert text.startswith("<") or any(p.match(text) for p in ALLOWED_SQL), text


def test_describe_detail_and_log_replay_give_identical_settings(connect):
    replayed = replay_logs(connect, targets())
    assert replayed.problems == {}
    for target in targets():
        detail = describe_detail(connect, target)
        log = replayed.tables[target.name]
        if "identityColumns" in detail.writer_features and not detail.identity_columns:
            # open-source Delta's Spark schema carries no identity metadata; read_tables
            # takes the names from the log (tested above through read_tables)
            detail = read_tables(connect, [target], use_catalog=False, root=FIXTURES).tables[target.name]
        for key in SAME:
            assert getattr(detail, key) == getattr(log, key), (target.name, key)
        assert set(detail.writer_features) == set(log.reader_features) | set(log.writer_features), target.name


def test_the_cli_reads_through_sc_url_of_a_delta_connect_server(delta_spark):
    _spark, url = delta_spark
    proc = subprocess.run(
        [sys.executable, "-m", "delta_lint", "tables", "fixtures/jobs", "--format", "json", "--spark", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = {r["table"].rsplit(".", 1)[-1]: r for r in json.loads(proc.stdout)["tables"] if r["source"] == "live"}
    assert set(rows) == set(EXPECTED)
    for name, expected in EXPECTED.items():
        want = dict(expected, isolation_level=expected["isolation_level"] or "WriteSerializable")
        assert {k: rows[name][k] for k in COMPARED} == want, name


def test_a_classic_session_with_delta_uses_describe_detail(delta_spark, monkeypatch):
    spark, _url = delta_spark
    # a Connect client made earlier in this process switches pyspark's functions to
    # Connect columns; `--spark local` has none, so neither does this test
    monkeypatch.delenv("SPARK_CONNECT_MODE_ENABLED", raising=False)
    session = ReadOnlySession(spark, "local", delta=True)
    result = read_tables(session, targets(), use_catalog=False, root=FIXTURES)
    assert {n: as_expected(s) for n, s in result.tables.items()} == EXPECTED
    assert {s.strategy for s in result.tables.values()} == {"detail"}
