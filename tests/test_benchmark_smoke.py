"""The benchmark script keeps working (a tiny run; timings are never asserted)."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.benchmark


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
    assert proc.stdout.count("long script: 60 ") >= 2 and "x one run at a time" in proc.stdout
    assert proc.stdout.count("PASS") + proc.stdout.count("FAIL") >= 6


def test_the_parse_floor_records_what_a_fresh_process_parses(tmp_path, monkeypatch):
    """The front ends remember statements read in a process; the floor of a corpus must
    not depend on which corpus was measured before it in the benchmark's process."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench
    from corpus import Corpus

    Corpus(40, seed=0).write(tmp_path / "c")
    first = bench.parsed_by_linter(tmp_path / "c")
    again = bench.parsed_by_linter(tmp_path / "c")
    assert first[1] and first[0] and first[2] == 40
    assert again == first


def test_language_server_save_benchmark_runs():
    proc = subprocess.run(
        [sys.executable, "benchmarks/lsp_save.py", "--saves", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "open (cold cache)" in proc.stdout and "save: median" in proc.stdout, proc.stderr
    assert "PASS" in proc.stdout or "FAIL" in proc.stdout
