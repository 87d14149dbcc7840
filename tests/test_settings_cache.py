"""Settings read live are kept per table, keyed by the state of its `_delta_log`: an
unchanged table is not read through Spark again, a new commit (made here by real
open-source Delta in the session's JVM) is read, and the entries are as safe as the
rest of the cache (outside the checkout, tagged with the user's key)."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from delta_lint.cache import Cache
from delta_lint.config import validate
from delta_lint.settings import live
from delta_lint.settings.logstate import LIVE_SETTINGS, log_state
from tests.conftest import FIXTURES

NAMES = {"s.orders", "s.ledger", "s.elsewhere"}


@pytest.fixture
def tables(tmp_path) -> tuple[Path, object]:
    for name in ("orders", "ledger"):
        shutil.copytree(FIXTURES / "tables" / name, tmp_path / "tables" / name)
    config = validate(
        {"locations": {"s.orders": "tables/orders", "s.ledger": "tables/ledger"}}, tmp_path / "delta-lint.yaml"
    )
    return tmp_path, config


def read(config, root: Path):
    store = Cache(root)
    try:
        return live.read_settings(NAMES, config, "embedded", store=store)
    finally:
        store.close()


def test_an_unchanged_table_is_not_read_again_and_a_new_commit_is(tables, delta_spark, monkeypatch):
    root, config = tables
    first = read(config, root)
    assert first.engine_started and first.read_now == ("s.ledger", "s.orders")
    assert set(first.tables) == {"s.orders", "s.ledger"}
    assert first.tables["s.orders"].deletion_vectors is False

    again = read(config, root)
    assert not again.engine_started and again.read_now == (), "nothing changed: Spark is not started"
    assert again.tables == first.tables and again.sources == first.sources == dict.fromkeys(first.tables, "live")
    assert again.problems == first.problems

    # a real commit by open-source Delta changes the orders table's settings
    spark, _url = delta_spark
    monkeypatch.delenv("SPARK_CONNECT_MODE_ENABLED", raising=False)
    location = (root / "tables" / "orders").resolve()
    before = log_state("tables/orders", root)
    spark.sql(f"ALTER TABLE delta.`{location}` SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')")
    assert log_state("tables/orders", root) != before
    assert log_state("tables/ledger", root) is not None

    changed = read(config, root)
    assert changed.engine_started and changed.read_now == ("s.orders",)
    assert changed.tables["s.orders"].deletion_vectors is True
    assert changed.tables["s.orders"].table_version == first.tables["s.orders"].table_version + 1
    assert changed.tables["s.ledger"] == first.tables["s.ledger"]  # kept, not read again
    assert not read(config, root).engine_started


def test_a_new_checkpoint_or_a_rewritten_commit_changes_the_state(tables):
    root, _ = tables
    log = root / "tables" / "ledger" / "_delta_log"
    state = log_state("tables/ledger", root)
    newest = max(log.glob("0*.json"))
    newest.write_bytes(newest.read_bytes() + b"\n")  # a table deleted and written again under the same version
    assert log_state("tables/ledger", root) != state
    state = log_state("tables/ledger", root)
    shutil.copy(newest, log / f"{newest.stem}.checkpoint.parquet")
    assert log_state("tables/ledger", root) != state
    assert log_state("tables/nowhere", root) is None
    assert log_state("s3://bucket/t", root) is None
    (log / "_staged_commits").mkdir()
    assert log_state("tables/ledger", root) is None  # coordinated commits: always read


def test_entries_that_were_tampered_with_are_read_again(tables):
    root, config = tables
    first = read(config, root)
    store = Cache(root)
    db_path = store.path
    store.close()
    db = sqlite3.connect(db_path)
    rows = db.execute("SELECT key, value FROM kv WHERE key LIKE ?", (f"%:{LIVE_SETTINGS}",)).fetchall()
    assert len(rows) == 1
    key, value = rows[0]
    # one byte of the stored value changed, its tag left as it was
    forged = bytearray(value)
    forged[-1] ^= 0xFF
    db.execute("UPDATE kv SET value = ? WHERE key = ?", (bytes(forged), key))
    db.commit()
    db.close()
    again = read(config, root)
    assert again.engine_started and again.read_now == first.read_now == ("s.ledger", "s.orders")
    without_time = lambda r: {n: replace(s, read_at="") for n, s in r.tables.items()}  # noqa: E731
    assert without_time(again) == without_time(first)


def test_the_cache_is_not_used_without_a_store_or_through_spark_connect(tables):
    root, config = tables
    assert read(config, root).engine_started
    assert live.read_settings(NAMES, config, "embedded").engine_started  # --no-cache


def test_a_cli_run_after_a_warm_one_starts_no_engine(tables):
    """The whole pipeline: the second `check` finds every table unchanged and starts
    no engine: a millisecond to start one would fail it (`--spark embedded` given,
    no snapshot: exit 2), yet it answers as the first did. Each run is a process of
    its own, as a user's runs are: one that started an engine before has it at hand."""
    import json

    from tests.test_integrations import cli_process as cli

    root, _ = tables
    (root / "delta-lint.yaml").write_text("locations:\n  s.orders: tables/orders\n  s.ledger: tables/ledger\n")
    (root / "a.sql").write_text("DELETE FROM s.orders WHERE amount > 5;\n")
    (root / "b.sql").write_text("UPDATE s.orders SET amount = 0 WHERE country = 'FR';\n")
    first = cli("check", ".", "--format", "json", "--spark", "embedded", cwd=root)
    assert first.returncode == 1, first.stderr
    second = cli("check", ".", "--format", "json", "--spark", "embedded", "--spark-timeout", "0.001", cwd=root)
    assert second.returncode == 1, second.stderr
    assert json.loads(first.stdout) == json.loads(second.stdout)
    assert {f["settings_source"] for f in json.loads(second.stdout)["findings"] if f["table"]} == {"live"}
    (root / "b.sql").write_text("UPDATE s.orders SET amount = 1 WHERE country = 'FR';\n")  # code, not tables
    assert cli("check", ".", "--spark", "embedded", "--spark-timeout", "0.001", cwd=root).returncode == 1
    cold = cli("check", ".", "--no-cache", "--spark", "embedded", "--spark-timeout", "0.001", cwd=root)
    assert cold.returncode == 2 and "no answer within" in cold.stderr  # the probe would catch a start
