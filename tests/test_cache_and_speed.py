"""The cache and the process pool change speed, never results."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from corpus import Corpus  # noqa: E402


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "delta_lint", "check", ".", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    Corpus(120, seed=3).write(out)
    return out


def test_warm_cache_results_are_identical_to_cold(corpus):
    cold = cli(corpus, "--no-cache", "--jobs", "1")
    assert cold.returncode == 1 and not (corpus / ".delta-lint-cache").exists()
    first = cli(corpus)  # fills the cache
    warm = cli(corpus)  # the whole run from the cache
    assert (corpus / ".delta-lint-cache" / "frontend.sqlite3").is_file()
    assert cold.stdout == first.stdout == warm.stdout
    assert json.loads(warm.stdout)["summary"]["files"] == 120


def test_parallel_front_ends_give_the_same_bytes(corpus):
    one = cli(corpus, "--no-cache", "--jobs", "1")
    two = cli(corpus, "--no-cache", "--jobs", "2")
    assert one.stdout == two.stdout


def test_a_changed_file_is_reanalysed(corpus, tmp_path):
    project = tmp_path / "p"
    Corpus(30, seed=5).write(project)
    before = json.loads(cli(project).stdout)
    victim = sorted(project.rglob("*.sql"))[0]
    victim.write_text(victim.read_text() + "\nDELETE FROM main.bench_0.t00000 WHERE id = 1;\n")
    after = cli(project)
    assert json.loads(after.stdout)["summary"]["intents"] == before["summary"]["intents"] + 1
    assert after.stdout == cli(project, "--no-cache").stdout


def test_concurrent_runs_share_the_cache_safely(tmp_path):
    project = tmp_path / "p"
    Corpus(60, seed=7).write(project)
    reference = cli(project, "--no-cache").stdout
    with ThreadPoolExecutor(4) as pool:
        outputs = list(pool.map(lambda _: cli(project).stdout, range(4)))
    assert all(out == reference for out in outputs)
    assert cli(project).stdout == reference


def test_a_damaged_cache_costs_only_speed(tmp_path):
    project = tmp_path / "p"
    Corpus(20, seed=9).write(project)
    reference = cli(project, "--no-cache").stdout
    cli(project)
    (project / ".delta-lint-cache" / "frontend.sqlite3").write_bytes(b"not a database")
    damaged = cli(project)
    assert damaged.returncode == 1 and damaged.stdout == reference
