"""`--spark local` talks to nobody: its JVM's driver stays on loopback and no name
is looked up over the network. Checked on the system calls themselves (strace),
for the whole process tree: no DNS packet (nothing sent to port 53) and no
connection to any address but loopback."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# connect(5, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.2")}, 16)
_INET = re.compile(
    r"sa_family=AF_INET6?, sin6?_port=htons\((\d+)\).*?(?:inet_addr\(\"([^\"]+)\"\)|inet_pton\(AF_INET6, \"([^\"]+)\")"
)


def _loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1", "::ffff:127.0.0.1") or address.startswith("::ffff:127.")


@pytest.mark.jvm
def test_spark_local_makes_no_dns_query_and_connects_only_to_loopback(tmp_path):
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    if shutil.which("java") is None:
        pytest.skip("no Java on this machine")
    trace = tmp_path / "trace.txt"
    command = [sys.executable, "-m", "delta_lint", "tables", "fixtures/jobs", "--format", "json", "--spark", "local"]
    strace = ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", str(trace)]
    proc = subprocess.run(strace + command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    if "ptrace" in proc.stderr and proc.returncode != 0 and not trace.exists():
        pytest.skip(f"strace cannot trace here: {proc.stderr[-300:]}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert '"source": "live"' in proc.stdout  # the JVM did start and read the tables
    calls = trace.read_text()
    seen = [(int(port), v4 or v6) for port, v4, v6 in _INET.findall(calls)]
    assert seen, "no socket call traced: the JVM's driver must at least listen and connect on loopback"
    assert not [s for s in seen if s[0] == 53], f"DNS queries: {[s for s in seen if s[0] == 53]}"
    assert all(_loopback(address) for _, address in seen), f"non-loopback addresses: {seen}"
