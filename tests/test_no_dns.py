"""`--spark local` and `reproduce` talk to nobody: their JVM's driver stays on
loopback and no name is looked up over the network. Checked on the system calls
themselves (strace), for the whole process tree: no DNS packet (nothing sent to
port 53) and no connection to any address but loopback. Both run in a copy of the
sample workload, which they leave as it was (no `spark-warehouse/`)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

# connect(5, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.2")}, 16)
_INET = re.compile(
    r"sa_family=AF_INET6?, sin6?_port=htons\((\d+)\).*?(?:inet_addr\(\"([^\"]+)\"\)|inet_pton\(AF_INET6, \"([^\"]+)\")"
)


def _loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1", "::ffff:127.0.0.1") or address.startswith("::ffff:127.")


def _traced(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[tuple[int, str]], Path]:
    """Run delta-lint under strace in a copy of the sample workload: its result, the
    (port, address) of every socket call, and the copy."""
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    if shutil.which("java") is None:
        pytest.skip("no Java on this machine")
    project = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, project, ignore=shutil.ignore_patterns("__pycache__"))
    trace = tmp_path / "trace.txt"
    command = [sys.executable, "-m", "delta_lint", *args]
    strace = ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", str(trace)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    proc = subprocess.run(strace + command, cwd=project, capture_output=True, text=True, timeout=900, env=env)
    if "ptrace" in proc.stderr and proc.returncode not in (0, 1) and not trace.exists():
        pytest.skip(f"strace cannot trace here: {proc.stderr[-300:]}")
    seen = [(int(port), v4 or v6) for port, v4, v6 in _INET.findall(trace.read_text())]
    return proc, seen, project


def _assert_private(seen: list[tuple[int, str]], project: Path) -> None:
    assert seen, "no socket call traced: the JVM's driver must at least listen and connect on loopback"
    assert not [s for s in seen if s[0] == 53], f"DNS queries: {[s for s in seen if s[0] == 53]}"
    assert all(_loopback(address) for _, address in seen), f"non-loopback addresses: {seen}"
    assert not (project / "spark-warehouse").exists(), "an empty spark-warehouse/ was left in the checkout"
    assert not (project / "metastore_db").exists()


@pytest.mark.jvm
def test_spark_local_makes_no_dns_query_and_connects_only_to_loopback(tmp_path):
    proc, seen, project = _traced(tmp_path, "tables", "jobs", "--format", "json", "--spark", "local")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert '"source": "live"' in proc.stdout  # the JVM did start and read the tables
    _assert_private(seen, project)


def _jars() -> str:
    """A folder holding open-source Delta's jars (`reproduce` needs them): the user's
    (this session's cache folder is a fresh one), else installed as the `delta_spark`
    fixture does."""
    from delta_lint.settings.jars import JarsUnavailable, cache_dir, install, installed_jars

    for folder in (os.environ.get("DELTA_LINT_JARS"), str(Path.home() / ".cache" / "delta-lint" / "jars")):
        if folder and installed_jars(folder=Path(folder)):
            return folder
    try:
        install()
    except JarsUnavailable as err:
        pytest.skip(f"open-source Delta's jars are not available: {err}")
    return str(cache_dir())


@pytest.mark.jvm
def test_reproduce_makes_no_dns_query_and_leaves_no_warehouse(tmp_path, monkeypatch):
    monkeypatch.setenv("DELTA_LINT_JARS", _jars())
    proc, seen, project = _traced(tmp_path, "reproduce", "jobs/purge_customers.sql:1", "jobs")
    assert proc.returncode == 1, proc.stderr[-2000:]  # 1: the conflict was reproduced
    assert "reproduced: Concurrent" in proc.stdout and "DELETE FROM <scratch> WHERE (" in proc.stdout
    _assert_private(seen, project)
