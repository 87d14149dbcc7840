"""Spark sessions for reading table settings, and the guard that keeps them read-only.

Modes: `embedded` (the in-process Sail engine behind the regular Spark Connect
client), `local` (a classic `local[1]` SparkSession), `sc://...` (any Spark
Connect endpoint). pyspark is imported only here, and only when a mode needs it.

Every SQL text we send passes `ReadOnlySession.sql`, which accepts only the few
DESCRIBE statements on validated, quoted identifiers listed in `ALLOWED_SQL`;
everything else raises before it reaches Spark. Data is read with the
DataFrame reader API only.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# The only statements delta-lint ever sends. Identifiers are backtick-quoted parts.
_QUOTED = r"`(?:[^`]|``)+`"
_NAME = rf"{_QUOTED}(?:\.{_QUOTED})*"
ALLOWED_SQL = (
    re.compile(rf"^DESCRIBE DETAIL (?:{_NAME}|delta\.{_QUOTED})$"),
    re.compile(rf"^DESCRIBE TABLE EXTENDED {_NAME}$"),
    # LIMIT 1 for a table's version; a larger bound for `delta-lint history`
    re.compile(rf"^DESCRIBE HISTORY (?:{_NAME}|delta\.{_QUOTED}) LIMIT [1-9][0-9]{{0,4}}$"),
)
# A name part as it may appear in job code: letters, digits, `_`, `-`, `$`, spaces
# (Unity Catalog allows some punctuation in quoted names). Never backticks,
# quotes, semicolons, control characters or comment starters.
_NAME_PART = re.compile(r"^[\w$\- ]{1,255}$", re.UNICODE)
_PATH_BAD = re.compile(r"[`\x00-\x1f*?\[\]{}]")


class SparkUnavailable(Exception):
    """Spark could not be started or reached; phrased for the user."""


class UnsafeStatement(Exception):
    """A statement outside the read-only allow-list; a bug in delta-lint if raised."""


class InvalidName(ValueError):
    """A table name or path from job code that must not reach SQL."""


def quote_name(name: str) -> str:
    """`a.b.c` -> `` `a`.`b`.`c` `` after validating every part."""
    parts = name.split(".")
    for part in parts:
        if not _NAME_PART.match(part):
            raise InvalidName(f"table name {name!r} has a part that is not a plain identifier")
    return ".".join(f"`{p}`" for p in parts)


def quote_path_table(path: str) -> str:
    """``delta.`/path` `` for a path table, refusing characters that could break out."""
    check_path(path)
    return f"delta.`{path}`"


def check_path(path: str) -> str:
    """A storage path we may hand to the readers: no glob or quoting characters, so a
    path from job code can neither escape its quotes nor widen what is read."""
    if not path or _PATH_BAD.search(path):
        raise InvalidName(f"location {path!r} contains characters delta-lint does not read (quotes, globs, control)")
    return path


@dataclass
class ReadOnlySession:
    """A Spark session wrapper that only lets read statements through.

    `sent` records every SQL text and every read call, so tests can check the
    whole conversation against the allow-list."""

    spark: Any
    mode: str
    sent: list[str] = field(default_factory=list)
    delta: bool = False  # the session runs Delta itself (DESCRIBE DETAIL may work)

    def sql(self, text: str) -> Any:
        if not any(p.match(text) for p in ALLOWED_SQL):
            raise UnsafeStatement(f"refusing to send a statement outside the read-only allow-list: {text!r}")
        self.sent.append(text)
        return self.spark.sql(text)

    def table_schema(self, quoted_name: str) -> Any:
        """The schema of a table (analysis only, no job); the name must be quoted."""
        if not re.match(rf"^(?:{_NAME}|delta\.{_QUOTED})$", quoted_name):
            raise UnsafeStatement(f"refusing an unquoted table name: {quoted_name!r}")
        self.sent.append(f"<schema of {quoted_name}>")
        return self.spark.table(quoted_name).schema

    def table(self, quoted_name: str) -> Any:
        """A DataFrame over a table, for filtered, aggregated reads through the
        DataFrame API (`delta-lint history` asks Databricks' system tables which job
        wrote which table and when each run ran); the name must be quoted. A
        DataFrame is only ever collected here, never written."""
        if not re.match(rf"^{_NAME}$", quoted_name):
            raise UnsafeStatement(f"refusing an unquoted table name: {quoted_name!r}")
        self.sent.append(f"<table {quoted_name}>")
        return self.spark.table(quoted_name)

    @property
    def read(self) -> Any:
        self.sent.append("<DataFrameReader>")
        return self.spark.read


@dataclass
class SparkHandle:
    """An open session plus what must be stopped when we are done."""

    session: ReadOnlySession
    _stop: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for stop in reversed(self._stop):
            try:
                stop()
            except Exception:  # noqa: BLE001, S110 - shutting down; nothing left to report
                pass
        self._stop.clear()

    def __enter__(self) -> SparkHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _with_timeout(fn: Callable[[], Any], timeout: float, what: str) -> Any:
    """Run `fn` in a daemon thread; give up after `timeout` seconds (gRPC clients retry
    for minutes on their own, and an unreachable endpoint must fail fast)."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = fn()
        except BaseException as err:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = err

    thread = threading.Thread(target=target, name="delta-lint-spark-connect", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise SparkUnavailable(f"{what}: no answer within {timeout:g} s (--spark-timeout)")
    if "error" in result:
        err = result["error"]
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise SparkUnavailable(f"{what}: {first[:300]}") from err
    return result["value"]


def _import_pyspark(mode: str) -> Any:
    try:
        from pyspark.sql import SparkSession
    except ImportError as err:
        raise SparkUnavailable(
            f"--spark {mode} needs pyspark: install `delta-lint[spark]` (or use --spark none)"
        ) from err
    return SparkSession


def open_spark(mode: str, timeout: float) -> SparkHandle:
    """Start or connect to Spark for `mode`; raises SparkUnavailable with one line."""
    if mode == "embedded":
        return _embedded(timeout)
    if mode == "local":
        return _local(timeout)
    if mode.startswith("sc://"):
        return _connect(mode, timeout)
    raise SparkUnavailable(f"--spark {mode}: not a Spark mode")


def _embedded(timeout: float) -> SparkHandle:
    os.environ.setdefault("RUST_LOG", "error")  # Sail logs every session at INFO otherwise
    try:
        from pysail.spark import SparkConnectServer
    except ImportError as err:
        raise SparkUnavailable(
            "--spark embedded needs the `pysail` package: install `delta-lint[spark]` (or use --spark none)"
        ) from err
    spark_session = _import_pyspark("embedded")
    server = SparkConnectServer("127.0.0.1", 0)
    server.start(background=True)
    handle = SparkHandle(ReadOnlySession(None, "embedded"), [server.stop])
    try:
        host, port = server.listening_address
        spark = _with_timeout(
            lambda: spark_session.builder.remote(f"sc://{host}:{port}").create(), timeout, "embedded Spark engine"
        )
    except BaseException:
        handle.close()
        raise
    handle.session.spark = spark
    handle._stop.append(spark.stop)
    return handle


# Every JVM delta-lint starts (`--spark local`, `reproduce`) keeps to loopback and
# looks no host name up: Spark asks the resolver for the machine's name unless
# SPARK_LOCAL_HOSTNAME is set, whatever `spark.driver.host` says. pyspark gives the
# JVM this process's environment, so that is where these go.
JVM_ENVIRONMENT = {"SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOCAL_HOSTNAME": "localhost"}


def private_jvm_settings(warehouse: str) -> dict[str, str]:
    """Spark settings of a JVM of delta-lint's own: its driver on loopback, and its
    warehouse (the folder Spark makes for its default database at the first use of
    its catalog) in `warehouse`, a temporary folder, instead of an empty
    `spark-warehouse/` left in the working directory, the user's checkout."""
    return {
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.sql.warehouse.dir": warehouse,
        "spark.ui.enabled": "false",
    }


def _local(timeout: float) -> SparkHandle:
    spark_session = _import_pyspark("local")
    from delta_lint.settings.jars import installed_jars, spark_configs

    # open-source Delta when `delta-lint install-delta` has cached its jars; the log
    # replay otherwise (no download here: a run never needs the network)
    jars = installed_jars()
    delta = spark_configs(jars) if jars else {}
    # a Spark Connect client in this process (or the user's shell) switches pyspark's
    # builder to Connect; --spark local means a classic session
    for variable in ("SPARK_CONNECT_MODE_ENABLED", "SPARK_REMOTE"):
        os.environ.pop(variable, None)
    # the driver listens on loopback only and does not look its host name up
    os.environ.update(JVM_ENVIRONMENT)
    warehouse = tempfile.TemporaryDirectory(prefix="delta-lint-warehouse-")

    options = {
        **delta,
        **private_jvm_settings(warehouse.name),
        "spark.master": "local[1]",
        "spark.app.name": "delta-lint",
        "spark.sql.shuffle.partitions": "1",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.sources.ignoreDataLocality": "true",
        # list a few hundred small log folders on the driver, not as a Spark job per path
        "spark.sql.sources.parallelPartitionDiscovery.threshold": "100000",
    }
    jvm_log = tempfile.TemporaryFile()  # noqa: SIM115 - the JVM writes to it for as long as it runs

    def start() -> Any:
        _launch_quiet_jvm(options, jvm_log)
        builder = spark_session.builder
        for key, value in options.items():
            builder = builder.config(key, value)
        return builder.getOrCreate()

    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)  # expected failures are ours to report
    try:
        spark = _with_timeout(start, max(timeout, 120.0), "local Spark")  # a JVM start is slow on busy machines
    except SparkUnavailable as err:
        said = _jvm_said(jvm_log)
        jvm_log.close()
        warehouse.cleanup()
        raise SparkUnavailable(f"{str(err).rstrip('.')}{f'; the JVM said: {said}' if said else ''}") from err
    spark.sparkContext.setLogLevel("ERROR")
    return SparkHandle(
        ReadOnlySession(spark, "local", delta=bool(delta)), [spark.stop, jvm_log.close, warehouse.cleanup]
    )


def _launch_quiet_jvm(options: dict[str, str], log: Any) -> None:
    """Start the JVM of a classic session with its standard output and error going to
    `log`: a JVM prints a screen of warnings (incubator modules, log4j's profile,
    native Hadoop) that are not the user's business, and its standard output would
    mix with delta-lint's report. A JVM this process already runs is kept."""
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    if SparkContext._gateway is not None:
        return
    conf = SparkConf(loadDefaults=False)
    for key, value in options.items():
        conf.set(key, value)
    gateway = launch_gateway(conf, popen_kwargs={"stdout": log, "stderr": log})
    SparkContext._ensure_initialized(gateway=gateway)


# what the JVM writes that explains a failed start (the rest is routine noise)
_JVM_PROBLEM = re.compile(
    r"error|exception|not found|no such file|not set|cannot|could not|unable|denied|failed|fatal", re.IGNORECASE
)
_JVM_NOISE = re.compile(r"NativeCodeLoader|incubator modules|log4j|setLogLevel|default log level", re.IGNORECASE)


def _jvm_said(log: Any) -> str:
    """The lines of the JVM's output that say why it did not start (at most three)."""
    try:
        log.seek(0)
        text = log.read(200_000).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return ""
    lines = [ln.strip() for ln in text.splitlines() if _JVM_PROBLEM.search(ln) and not _JVM_NOISE.search(ln)]
    return " | ".join(list(dict.fromkeys(ln[:300] for ln in lines if ln))[:3])


def _connect(url: str, timeout: float) -> SparkHandle:
    spark_session = _import_pyspark(url)

    def connect() -> Any:
        spark = spark_session.builder.remote(url).create()
        spark.version  # noqa: B018 - the first round trip: fails here if nobody answers
        return spark

    spark = _with_timeout(connect, timeout, f"Spark Connect at {url.split(';')[0]}")
    # a remote server may have Delta (Databricks, a Connect server with the jars): try DESCRIBE DETAIL
    return SparkHandle(ReadOnlySession(spark, url, delta=True), [spark.stop])
