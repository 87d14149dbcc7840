"""The benchmark script keeps working (a tiny run; timings are never asserted)."""

import subprocess
import sys

from tests.conftest import ROOT


def test_settings_read_benchmark_runs():
    proc = subprocess.run(
        [sys.executable, "benchmarks/settings_read.py", "--tables", "3", "--commits", "2", "--modes", "embedded"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.stdout.count("embedded") >= 2, proc.stderr
    assert "per 100 tables" in proc.stdout


def test_lint_speed_benchmark_runs():
    proc = subprocess.run(
        [sys.executable, "benchmarks/bench.py", "--smoke"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    assert "parse floor" in proc.stdout and "targets:" in proc.stdout
    assert proc.stdout.count("PASS") + proc.stdout.count("FAIL") >= 6
