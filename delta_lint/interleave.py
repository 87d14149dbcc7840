"""Run two writes on real open-source Delta with a forced interleaving.

The second operation takes its snapshot and prepares its commit; then the first
runs to completion; only then does the second try to commit. That is the race a
conflict needs, made deterministic: no sleeps, no timing.

How: Delta's main jar ships the hooks its own concurrency tests use.
`TransactionExecutionObserver` is a thread-local observer every
`OptimisticTransaction` reports its phases to, and
`fuzzer.PhaseLockingTransactionExecutionObserver` blocks the transaction at the
entry of each phase (start, prepare, commit, backfill, post-commit) until the
controlling thread unblocks it. With pyspark's pinned threads a Python thread is
one JVM thread, so the observer set from the thread that runs the second
operation watches exactly that operation. (A sleeping UDF in the second
operation's read would also delay it, but only for operations that evaluate a
UDF on the target, and only by guessing a duration.)

Classic local Spark only (py4j reaches the JVM); a Spark Connect client cannot set
a thread-local observer in the server.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from delta_lint.settings.jars import JarsUnavailable, installed_jars, spark_configs
from delta_lint.settings.spark import JVM_ENVIRONMENT, private_jvm_settings

Operation = Callable[[Any], object]  # gets the SparkSession; runs one write

_DELTA_PACKAGES = ("io.delta.", "org.apache.spark.sql.delta.")


@dataclass(frozen=True)
class Outcome:
    """What happened to the operation that committed second."""

    exception: str | None  # simple class name of the failure, None when it committed
    message: str = ""  # first line of the failure
    stage: str = "commit"  # commit: raced as intended; before: failed before the race; first: the first failed

    @property
    def conflicted(self) -> bool:
        return self.exception is not None and self.stage == "commit"

    def describe(self) -> str:
        if self.stage == "first":
            return f"the first operation failed: {self.exception}: {self.message}"
        if self.stage == "before":
            return f"the second operation failed before the race: {self.exception}: {self.message}"
        return f"{self.exception}: {self.message}" if self.exception else "committed"


def start_session(extra: dict[str, str] | None = None, app: str = "delta-lint") -> Any:
    """A classic `local[1]` SparkSession with open-source Delta, bound to loopback.

    `extra` adds Spark settings (the tests start a Spark Connect endpoint in the
    same JVM with `spark.plugins`). Raises JarsUnavailable when the jars are not
    installed."""
    jars = installed_jars()
    if not jars:
        raise JarsUnavailable("open-source Delta's jars are not installed: run `delta-lint install-delta`")
    from pyspark.sql import SparkSession

    for variable in ("SPARK_CONNECT_MODE_ENABLED", "SPARK_REMOTE"):
        os.environ.pop(variable, None)
    os.environ.update(JVM_ENVIRONMENT)  # no look-up of this machine's name (see there)
    warehouse = tempfile.mkdtemp(prefix="delta-lint-warehouse-")
    settings = {
        **spark_configs(jars),
        **private_jvm_settings(warehouse),
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "1",
        # small tables: one task for Delta's state reconstruction instead of 50
        "spark.databricks.delta.snapshotPartitions": "1",
        "spark.sql.sources.ignoreDataLocality": "true",
        # tiny tables: compiling whole-stage code and re-planning cost more than they save
        "spark.sql.codegen.wholeStage": "false",
        "spark.sql.adaptive.enabled": "false",
        **(extra or {}),
    }
    builder = SparkSession.builder.master("local[1]").appName(app)
    for key, value in settings.items():
        builder = builder.config(key, value)
    logging.getLogger("py4j").setLevel(logging.ERROR)
    spark = builder.getOrCreate()
    weakref.finalize(spark, shutil.rmtree, warehouse, True)  # removed with the session, or at exit
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _observer_api(spark: Any) -> tuple[Any, Any, Any]:
    jvm = spark._jvm  # noqa: SLF001 - py4j is the only way to the JVM's observers
    delta = jvm.org.apache.spark.sql.delta
    noop = getattr(getattr(delta, "NoOpTransactionExecutionObserver$"), "MODULE$")
    return delta.TransactionExecutionObserver, delta.fuzzer, noop


def failure(err: BaseException) -> tuple[str, str]:
    """(simple class name, first message line) of a Spark failure: the Delta exception
    in the JVM cause chain when there is one, else the outermost error."""
    java = getattr(err, "java_exception", None) or getattr(err, "_origin", None)
    names: list[tuple[str, str]] = []
    seen = 0
    while java is not None and seen < 20:
        try:
            names.append((str(java.getClass().getName()), str(java.getMessage() or "")))
            java = java.getCause()
        except Exception:  # noqa: BLE001 - a gateway that went away: keep what we have
            break
        seen += 1
    for name, message in names:
        if name.startswith(_DELTA_PACKAGES) and name.endswith("Exception"):
            return name.rsplit(".", 1)[-1], _first_line(message)
    if names:
        return names[0][0].rsplit(".", 1)[-1], _first_line(names[0][1])
    return type(err).__name__, _first_line(str(err))


def _first_line(text: str) -> str:
    text = re.sub(r"\s+", " ", text.strip().split("\n\n")[0]) if text else ""
    return text[:300]


def run_interleaved(spark: Any, first: Operation, second: Operation, timeout: float = 300.0) -> Outcome:
    """Second reads, first commits, second commits: what happened to the second."""
    observers, fuzzer, noop = _observer_api(spark)
    phases = fuzzer.OptimisticTransactionPhases.forName("delta-lint-second")
    observer = fuzzer.PhaseLockingTransactionExecutionObserver(phases)
    # after its first transaction the second operation's later ones (if any) run freely;
    # the observer then waits for the last phase's exit, which nothing else opens
    observer.setNextObserver(noop, True)
    phases.postCommitPhase().exitBarrier().unblock()
    result: dict[str, BaseException | None] = {}

    def second_thread() -> None:
        observers.setObserver(observer)
        try:
            second(spark)
            result["error"] = None
        except BaseException as err:  # noqa: BLE001 - reported as the outcome
            result["error"] = err
        finally:
            observers.setObserver(noop)

    thread = threading.Thread(target=second_thread, name="delta-lint-second", daemon=True)
    thread.start()
    phases.initialPhase().entryBarrier().unblock()
    phases.preparePhase().entryBarrier().unblock()
    deadline = time.monotonic() + timeout
    while not phases.preparePhase().hasLeft() and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    if not thread.is_alive():  # it ended without reaching its commit: no race happened
        err = result.get("error")
        if err is None:
            return Outcome(None, "the second operation made no transaction", "before")
        name, message = failure(err)
        return Outcome(name, message, "before")
    first_error: BaseException | None = None
    try:
        first(spark)
    except BaseException as err:  # noqa: BLE001
        first_error = err
    for phase in (phases.commitPhase(), phases.backfillPhase(), phases.postCommitPhase()):
        phase.entryBarrier().unblock()
    thread.join(max(1.0, deadline - time.monotonic()))
    if thread.is_alive():
        return Outcome("Timeout", f"the second operation did not finish within {timeout:g} s", "commit")
    if first_error is not None:
        name, message = failure(first_error)
        return Outcome(name, message, "first")
    err = result.get("error")
    if err is None:
        return Outcome(None)
    name, message = failure(err)
    return Outcome(name, message, "commit")
