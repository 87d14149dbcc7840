"""Table settings read live through real engines (no mocked Spark): the embedded Sail
engine for the bulk, a Spark Connect round trip to a server started here, and one
classic local SparkSession (slow)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from delta_lint.config import validate
from delta_lint.settings.live import read_settings
from delta_lint.settings.reader import LiveSettings, Target, read_tables, settings_from_detail
from delta_lint.settings.snapshot import load_snapshot, write_snapshot
from delta_lint.settings.spark import (
    ALLOWED_SQL,
    InvalidName,
    UnsafeStatement,
    open_spark,
    quote_name,
)
from tests.conftest import FIXTURES, ROOT, run_cli

sys.path.insert(0, str(FIXTURES))
from make_tables import EXPECTED  # noqa: E402

TABLES = FIXTURES / "tables"
COMPARED = ("partitioned_by", "clustered_by", "deletion_vectors", "isolation_level", "identity_columns")


def as_expected(s: LiveSettings) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in ((k, getattr(s, k)) for k in COMPARED)}


def tree_digest(root: Path) -> str:
    """Every file name and byte under root: proves a run changed nothing."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The CLI in this process: these tests are about what it reads and reports."""
    return run_cli(*args, cwd=cwd)


@pytest.fixture(scope="module")
def embedded():
    with open_spark("embedded", 30) as handle:
        yield handle.session


def test_fixture_tables_read_live_equal_what_the_script_created(embedded):
    targets = [Target(name, f"tables/{name}") for name in EXPECTED]
    result = read_tables(embedded, targets, use_catalog=False, root=FIXTURES)
    assert result.problems == {}
    assert {n: as_expected(s) for n, s in result.tables.items()} == EXPECTED
    orders = result.tables["orders"]
    assert orders.table_version == 3  # checkpoint at 2, one commit after it
    assert orders.location == "tables/orders"
    assert result.tables["payments"].writer_features == ("appendOnly", "identityColumns", "invariants")
    assert "clustering" in result.tables["events"].writer_features


def test_the_fixture_script_reproduces_the_tables(tmp_path, embedded):
    proc = subprocess.run(
        [sys.executable, str(FIXTURES / "make_tables.py"), str(tmp_path / "t")],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    result = read_tables(embedded, [Target(n, f"t/{n}") for n in EXPECTED], use_catalog=False, root=tmp_path)
    assert {n: as_expected(s) for n, s in result.tables.items()} == EXPECTED
    # an independent reader of the same tables agrees on what it can see
    from deltalake import DeltaTable

    orders = DeltaTable(str(tmp_path / "t" / "orders"))
    assert orders.metadata().partition_columns == ["date", "country"]
    assert orders.version() == result.tables["orders"].table_version


def test_only_allow_listed_statements_are_sent_and_tables_are_unchanged(embedded):
    before = tree_digest(TABLES)
    sent_before = len(embedded.sent)
    read_tables(embedded, [Target(n, f"tables/{n}") for n in EXPECTED], use_catalog=False, root=FIXTURES)
    read_tables(embedded, [Target("main.sales.nowhere")], use_catalog=True, root=FIXTURES)
    sent = embedded.sent[sent_before:]
    assert sent, "the reader talked to Spark"
    for text in sent:
        assert text == "<DataFrameReader>" or any(p.match(text) for p in ALLOWED_SQL), text
    assert tree_digest(TABLES) == before


def test_a_full_cli_run_changes_no_table(tmp_path):
    before = tree_digest(TABLES)
    assert cli("check", "fixtures/jobs", "--spark", "embedded").returncode == 1
    assert cli("tables", "fixtures/jobs", "--spark", "embedded").returncode == 0
    assert tree_digest(TABLES) == before


@pytest.mark.parametrize(
    "hostile",
    ["x`; DROP TABLE y; --", "a.b`c", "t; DELETE FROM t", "x\nDROP TABLE y", "t/*", "`t`"],
)
def test_hostile_names_never_reach_spark(embedded, hostile):
    with pytest.raises(InvalidName):
        quote_name(hostile)
    sent_before = len(embedded.sent)
    result = read_tables(embedded, [Target(hostile)], use_catalog=True, root=FIXTURES)
    assert hostile in result.problems
    assert all(hostile not in text for text in embedded.sent[sent_before:])


def test_hostile_paths_are_not_read(embedded):
    result = read_tables(embedded, [Target("delta:/x`y", "/x`y"), Target("g", "/data/*")], False, FIXTURES)
    assert set(result.problems) == {"delta:/x`y", "g"}


def test_the_guard_refuses_anything_but_reads(embedded):
    for statement in (
        "DROP TABLE `t`",
        "DESCRIBE DETAIL `t`; DROP TABLE `u`",
        "DESCRIBE DETAIL t",
        "SET spark.x = 1",
        "OPTIMIZE `t`",
    ):
        with pytest.raises(UnsafeStatement):
            embedded.sql(statement)
    assert quote_name("main.sales.orders") == "`main`.`sales`.`orders`"


def test_missing_and_non_delta_tables_are_problems_and_do_not_hide_others(tmp_path, embedded):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "data.csv").write_text("a\n1\n")
    targets = [
        Target("orders", str(TABLES / "orders")),
        Target("missing", str(tmp_path / "missing")),
        Target("plain", str(plain)),
    ]
    result = read_tables(embedded, targets, use_catalog=False, root=tmp_path)
    assert set(result.tables) == {"orders"}
    assert set(result.problems) == {"missing", "plain"}
    assert "no Delta table" in result.problems["missing"]


def test_missing_tables_are_info_findings_and_the_rest_is_checked(tmp_path):
    shutil.copytree(TABLES / "ledger", tmp_path / "ledger")
    (tmp_path / "a.sql").write_text(
        "DELETE FROM fin.ledger WHERE date = '2024-01-01';\nINSERT INTO fin.ledger SELECT * FROM s;\n"
        "DELETE FROM fin.gone WHERE id = 1;\n"
    )
    (tmp_path / "b.sql").write_text("INSERT INTO fin.ledger SELECT * FROM s2;\nDELETE FROM fin.gone WHERE id = 2;\n")
    (tmp_path / "delta-lint.yaml").write_text("locations:\n  fin.ledger: ledger\n  fin.gone: gone\n")
    proc = cli("check", ".", "--format", "json", "--spark", "embedded", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    by_rule = {}
    for f in doc["findings"]:
        by_rule.setdefault(f["rule"], []).append(f)
    assert [f["severity"] for f in by_rule["DL004"]] == ["info"]
    assert "fin.gone" in by_rule["DL004"][0]["message"]
    # the ledger was read live (Serializable, partitioned by date): the appends conflict with the delete
    ledger = [f for f in doc["findings"] if f["table"] == "fin.ledger"]
    assert ledger and all(f["settings_source"] == "live" for f in ledger)


def test_snapshot_round_trips(tmp_path, embedded):
    result = read_tables(embedded, [Target(n, f"tables/{n}") for n in EXPECTED], use_catalog=False, root=FIXTURES)
    path = tmp_path / "delta-lint.lock.yaml"
    write_snapshot(path, result.tables, "embedded")
    loaded = load_snapshot(path)
    assert loaded is not None and loaded.tables == result.tables
    first = path.read_text()
    write_snapshot(path, dict(reversed(list(result.tables.items()))), "embedded")
    strip = lambda text: [ln for ln in text.splitlines() if "generated:" not in ln]  # noqa: E731
    assert strip(path.read_text()) == strip(first)  # stable ordering


def test_precedence_live_over_snapshot_over_declared(tmp_path):
    shutil.copytree(TABLES / "orders", tmp_path / "orders")
    config = validate(
        {
            "locations": {"s.orders": "orders"},
            "tables": {"s.orders": {"partitioned_by": ["wrong"]}, "s.other": {"partitioned_by": ["d"]}},
        },
        tmp_path / "delta-lint.yaml",
    )
    names = {"s.orders", "s.other"}
    none = read_settings(names, config, "none")
    assert none.tables == {}
    live = read_settings(names, config, "embedded")
    assert live.sources == {"s.orders": "live"}
    assert live.tables["s.orders"].partitioned_by == ("date", "country")
    stale = LiveSettings("s.orders", "orders", partitioned_by=("stale",), table_version=0)
    other = LiveSettings("s.other", None, partitioned_by=("snap",))
    write_snapshot(config.snapshot_path, {"s.orders": stale, "s.other": other}, "embedded")
    auto = read_settings(names, config)  # auto: the snapshot, no Spark
    assert auto.mode == "snapshot" and auto.sources == {"s.orders": "snapshot", "s.other": "snapshot"}
    refreshed = read_settings(names, config, refresh=True)  # live where readable, snapshot for the rest
    assert refreshed.sources == {"s.orders": "live", "s.other": "snapshot"}
    assert refreshed.tables["s.orders"].partitioned_by == ("date", "country")


def test_tables_snapshot_then_check_offline(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(FIXTURES, project, ignore=shutil.ignore_patterns("*.lock.yaml"))
    proc = cli("tables", "snapshot", "jobs", "--spark", "embedded", cwd=project)
    assert proc.returncode == 0, proc.stderr
    snap = load_snapshot(project / "delta-lint.lock.yaml")
    assert snap is not None
    assert {n.rsplit(".", 1)[-1] for n in snap.tables} == set(EXPECTED)
    live = json.loads(cli("check", "jobs", "--format", "json", "--spark", "embedded", cwd=project).stdout)
    offline = json.loads(cli("check", "jobs", "--format", "json", "--spark", "none", cwd=project).stdout)

    def conflicts(doc):
        return [{k: v for k, v in f.items() if k != "settings_source"} for f in doc["findings"] if f["rule"] != "DL004"]

    assert conflicts(offline) == conflicts(live)
    assert {f["settings_source"] for f in offline["findings"] if f["table"] == "main.sales.orders"} == {"snapshot"}


def test_tables_command_json(tmp_path):
    proc = cli("tables", "fixtures/jobs", "--format", "json", "--spark", "embedded")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    rows = {r["table"]: r for r in doc["tables"]}
    assert rows["main.sales.events"]["source"] == "live"
    assert rows["main.sales.events"]["row_level_concurrency"] is True
    assert rows["main.sales.orders"]["row_level_concurrency"] is False
    assert rows["main.sales.orders"]["table_version"] == 3
    assert rows["main.sales.payments"]["identity_columns"] == ["payment_id"]
    assert rows["main.sales.sessions"]["source"] == "assumed"


def test_unreachable_endpoint_fails_fast_or_falls_back_to_the_snapshot(tmp_path):
    (tmp_path / "a.sql").write_text("DELETE FROM t WHERE id = 1;\n")
    (tmp_path / "b.sql").write_text("DELETE FROM t WHERE id = 2;\n")
    proc = cli("check", ".", "--spark", "sc://127.0.0.1:9", "--spark-timeout", "3", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Spark Connect at sc://127.0.0.1:9" in proc.stderr
    assert "Traceback" not in proc.stderr
    write_snapshot(tmp_path / "delta-lint.lock.yaml", {"t": LiveSettings("t", None, deletion_vectors=False)}, "x")
    args = ("check", ".", "--format", "json", "--spark", "sc://127.0.0.1:9", "--spark-timeout", "3")
    proc = cli(*args, cwd=tmp_path)
    assert proc.returncode == 1
    assert "warning" in proc.stderr and "using the snapshot" in proc.stderr
    assert [f["settings_source"] for f in json.loads(proc.stdout)["findings"]] == ["snapshot"]


def test_describe_detail_rows_are_interpreted():
    detail = {
        "format": "delta",
        "location": "s3://b/t",
        "partitionColumns": [],
        "clusteringColumns": ["Event_Date"],
        "properties": {"delta.enableDeletionVectors": "true", "delta.enableRowTracking": "true"},
        "minReaderVersion": 3,
        "minWriterVersion": 7,
        "tableFeatures": ["deletionVectors", "clustering", "rowTracking"],
    }
    fields = [{"name": "id", "metadata": {"delta.identity.start": 1}}, {"name": "x", "metadata": {}}]
    s = settings_from_detail("t", detail, fields, 12)
    assert (s.clustered_by, s.deletion_vectors, s.row_tracking, s.identity_columns) == (
        ("event_date",),
        True,
        True,
        ("id",),
    )
    assert s.table_version == 12 and s.strategy == "detail"


def test_spark_connect_round_trip_to_a_server_started_here():
    """A separate Spark Connect server (Sail's), reached by URL: DESCRIBE DETAIL is
    refused there, so the reader falls back to replaying the logs."""
    os.environ.setdefault("RUST_LOG", "error")
    from pysail.spark import SparkConnectServer

    server = SparkConnectServer("127.0.0.1", 0)
    server.start(background=True)
    try:
        host, port = server.listening_address
        proc = subprocess.run(  # a client process of its own, as a user's run would be
            [sys.executable, "-m", "delta_lint", "tables", "fixtures/jobs", "--format", "json"]
            + ["--spark", f"sc://{host}:{port}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert proc.returncode == 0, proc.stderr
        doc = json.loads(proc.stdout)
        assert doc["spark"] == f"sc://{host}:{port}"
        rows = {r["table"].rsplit(".", 1)[-1]: r for r in doc["tables"] if r["source"] == "live"}
        assert set(rows) == set(EXPECTED)
        for name, expected in EXPECTED.items():
            got = {k: rows[name][k] for k in COMPARED}
            want = dict(expected, isolation_level=expected["isolation_level"] or "WriteSerializable")
            assert got == want, name
    finally:
        server.stop()


@pytest.mark.jvm
def test_classic_local_spark_session_reads_the_same_settings(tmp_path):
    """Also the one JVM of the suite: under strace (where it can trace), every socket
    it binds and every connection it makes is on loopback, and no name is looked up
    (no connection to port 53)."""
    if shutil.which("java") is None:
        pytest.skip("no Java on this machine")
    trace = tmp_path / "network.txt"
    strace = ["strace", "-f", "--seccomp-bpf", "-e", "trace=connect,bind", "-o", str(trace)]
    traced = shutil.which("strace") is not None and subprocess.run([*strace, "true"]).returncode == 0
    proc = subprocess.run(
        [*(strace if traced else []), sys.executable, "-m", "delta_lint"]
        + ["tables", "fixtures/jobs", "--format", "json", "--spark", "local"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    # the JVM's own warnings (incubator modules, log4j's profile, native Hadoop) are not shown
    noise = ("WARN", "log4j", "incubator", "NativeCodeLoader", "setLogLevel")
    assert not any(word in proc.stderr for word in noise), proc.stderr[-2000:]
    if traced:
        calls = [line for line in trace.read_text().splitlines() if "AF_INET" in line]
        assert calls, "strace saw no network call at all"
        for line in calls:
            loopback = 'inet_addr("127.0.0.1")' in line or '"::ffff:127.0.0.1"' in line or '"::1"' in line
            assert loopback and "htons(53)" not in line, line
    rows = {r["table"].rsplit(".", 1)[-1]: r for r in json.loads(proc.stdout)["tables"] if r["source"] == "live"}
    assert set(rows) == set(EXPECTED)
    assert rows["orders"]["partitioned_by"] == ["date", "country"]
    assert rows["events"]["clustered_by"] == ["event_date"]
    assert rows["payments"]["identity_columns"] == ["payment_id"]
