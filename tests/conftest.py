from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

from delta_lint.config import validate
from delta_lint.run import check

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
ORACLE = ROOT / "tests" / "oracle"


def pytest_collection_modifyitems(config, items):
    """Tiers assigned where they cannot be forgotten: every test that uses the session
    JVM (`delta_spark`, directly or through another fixture) is `jvm`, and every test
    of the real-Delta oracle is `oracle`. Other tiers are marked in their files. Plain
    `pytest` deselects them all (`addopts` in pyproject.toml). Under pytest-xdist
    (`--dist loadgroup`, as `.ci/run` runs the slow tiers) the JVM tests form two
    groups, each run by one worker with one JVM: the oracle (most of the slow
    tiers' time) and the other `jvm` tests."""
    for item in items:
        if "delta_spark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.jvm)
        if ORACLE in Path(item.path).parents:
            item.add_marker(pytest.mark.oracle)
        if item.get_closest_marker("jvm") is not None and config.pluginmanager.hasplugin("xdist"):
            item.add_marker(pytest.mark.xdist_group("oracle" if item.get_closest_marker("oracle") else "jvm"))


def run_cli(
    *args: str, cwd: Path = ROOT, env: Mapping[str, str | None] | None = None, input: str | None = None
) -> subprocess.CompletedProcess:
    """`delta-lint ARGS` in this process, answered as a finished subprocess would be
    (returncode, stdout, stderr): for tests about what the CLI prints and exits with,
    where a subprocess would only add a second of imports per call. `env` entries are
    set (None: removed) for the call only. An exception escaping the command is raised
    here, so a test sees the traceback a user would have seen."""
    from typer.testing import CliRunner

    from delta_lint.cli import app

    before = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), input=input, env=env)
    finally:
        os.chdir(before)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(["delta-lint", *args], result.exit_code, result.stdout, result.stderr)


@pytest.fixture(autouse=True, scope="session")
def _own_cache_and_key(tmp_path_factory):
    """Every test (and every delta-lint process it starts) keeps its cache and cache
    key in a folder of this session, never in the user's own."""
    import os

    home = tmp_path_factory.mktemp("xdg")
    saved = {k: os.environ.get(k) for k in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "DELTA_LINT_CACHE_DIR")}
    os.environ["XDG_CACHE_HOME"] = str(home / "cache")
    os.environ["XDG_STATE_HOME"] = str(home / "state")
    os.environ.pop("DELTA_LINT_CACHE_DIR", None)
    os.environ.pop("DELTA_LINT_CACHE_KEY", None)
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture
def lint(tmp_path, monkeypatch):
    """Write files into a temporary project and run the whole pipeline on them."""

    def run(files: dict[str, str], config: dict | None = None):
        for name, text in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        cfg = validate(config or {}, tmp_path / "delta-lint.yaml")
        monkeypatch.chdir(tmp_path)
        return check([tmp_path], cfg, cwd=tmp_path, use_cache=False)

    return run


@pytest.fixture(scope="session")
def delta_spark():
    """The test session's one JVM: a classic local SparkSession with open-source Delta
    (the jars from `delta-lint install-delta`), which also serves Spark Connect on a
    loopback port through Spark's own Connect service (`SparkConnectPlugin`, the
    server `SparkConnectServer` starts). Yields (session, "sc://127.0.0.1:PORT")."""
    import shutil
    import socket

    if shutil.which("java") is None:
        pytest.skip("no Java on this machine")
    from delta_lint.interleave import start_session
    from delta_lint.settings.jars import JarsUnavailable, install

    try:
        install()  # offline when cached (CI runs `delta-lint install-delta` first)
    except JarsUnavailable as err:
        pytest.skip(f"open-source Delta's jars are not available: {err}")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    spark = start_session(
        {
            "spark.plugins": "org.apache.spark.sql.connect.SparkConnectPlugin",
            "spark.connect.grpc.binding.address": "127.0.0.1",
            "spark.connect.grpc.binding.port": str(port),
        },
        app="delta-lint-tests",
    )
    try:
        yield spark, f"sc://127.0.0.1:{port}"
    finally:
        spark.stop()
