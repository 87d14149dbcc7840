"""The cache under faults: concurrent runs, runs killed at any point, damaged cache
files, a read-only tree and cache, a full disk. Whatever happened, the next run's
findings are those of a run without the cache, with at most a warning."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from corpus import Corpus  # noqa: E402

# processes sharing, killed over, and locked out of one cache: each run is its own process
pytestmark = pytest.mark.integration


def run(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "delta_lint", "check", ".", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def start(cwd: Path, *args: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "delta_lint", "check", ".", "--format", "json", *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def corpus(tmp_path) -> tuple[Path, str]:
    root = tmp_path / "p"
    Corpus(150, seed=21).write(root)
    reference = run(root, "--no-cache", "--jobs", "1")
    assert reference.returncode == 1
    return root, reference.stdout


def cache_db(root: Path, env: dict | None = None) -> Path:
    code = "import sys; from delta_lint.cache import cache_folder; print(cache_folder(sys.argv[1]))"
    out = subprocess.run(
        [sys.executable, "-c", code, str(root)], capture_output=True, text=True, env={**os.environ, **(env or {})}
    )
    return Path(out.stdout.strip()) / "frontend.sqlite3"


def test_eight_concurrent_runs_on_one_tree(corpus):
    root, reference = corpus
    with ThreadPoolExecutor(8) as pool:
        outputs = list(pool.map(lambda i: run(root, "--jobs", str(1 + i % 2)), range(8)))
    assert all(p.returncode == 1 and p.stdout == reference for p in outputs)
    assert run(root).stdout == reference


def test_runs_killed_at_any_point(corpus):
    root, reference = corpus
    rng = random.Random(5)
    victim = sorted(root.rglob("*.sql"))[0]
    text = victim.read_text()
    for i in range(8):
        victim.write_text(text + f"\nDELETE FROM main.bench_0.t00000 WHERE id = {i};\n")  # something to write
        proc = start(root, "--jobs", "2")
        time.sleep(rng.uniform(0.05, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    victim.write_text(text)
    after = run(root)
    assert after.returncode == 1 and after.stdout == reference


def test_truncated_and_corrupted_cache_files(corpus):
    root, reference = corpus
    assert run(root).stdout == reference
    db = cache_db(root)
    data = db.read_bytes()
    rng = random.Random(9)
    damages = {
        "truncated": data[: len(data) // 2],
        "empty": b"",
        "garbage": bytes(rng.randrange(256) for _ in range(4096)),
        "flipped": bytes(b ^ 0xFF if rng.random() < 0.01 else b for b in data),
    }
    for what, damaged in damages.items():
        for extra in ("-wal", "-shm"):
            Path(str(db) + extra).unlink(missing_ok=True)
        db.write_bytes(damaged)
        after = run(root)
        assert after.returncode == 1 and "Traceback" not in after.stderr, (what, after.stderr)
        assert after.stdout == reference, what
        assert run(root).stdout == reference, what  # and the run after it (the cache rebuilt or left alone)


@contextlib.contextmanager
def mount(*args: str):
    target = args[-1]
    proc = subprocess.run(["mount", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount here ({proc.stderr.strip()[:80]}): needs CAP_SYS_ADMIN")
    try:
        yield
    finally:
        subprocess.run(["umount", target], check=False)


def test_a_read_only_tree_and_cache(corpus, tmp_path):
    """Mounted read-only (permissions do not stop root): the run goes on without
    writing its cache; a cache filled earlier is still read."""
    root, reference = corpus
    view = tmp_path / "ro"
    view.mkdir()
    env = {"DELTA_LINT_CACHE_DIR": str(view / ".cache")}
    with mount("--bind", str(root.parent), str(view)):
        project = view / "p"
        (view / ".cache").mkdir(exist_ok=True)
        assert run(project, env=env).stdout == reference  # a writable cache, filled
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        with pytest.raises(OSError):
            (project / "probe").write_text("x")
        for _ in range(2):
            ro = run(project, env=env)
            assert ro.returncode == 1 and ro.stdout == reference and "Traceback" not in ro.stderr
        empty = run(project, env={"DELTA_LINT_CACHE_DIR": str(project / "no-cache-here")})
        assert empty.returncode == 1 and empty.stdout == reference


def test_a_full_disk(tmp_path):
    """The cache on a 256 KB tmpfs that the run fills: the run goes on without it."""
    root = tmp_path / "p"
    Corpus(400, seed=23).write(root)
    reference = run(root, "--no-cache").stdout
    small = tmp_path / "small"
    small.mkdir()
    with mount("-t", "tmpfs", "-o", "size=256k", "tmpfs", str(small)):
        env = {"DELTA_LINT_CACHE_DIR": str(small)}
        for _ in range(3):
            full = run(root, env=env)
            assert full.returncode == 1 and "Traceback" not in full.stderr, full.stderr
            assert full.stdout == reference
        assert os.statvfs(small).f_bavail * os.statvfs(small).f_frsize < 64 * 1024  # it was really filled
