"""Peak memory of `delta-lint schedule` and `delta-lint check` on large trees: the
whole process tree (the run and its workers together), sampled from /proc.

    python benchmarks/memory.py [--files 10000] [--unscheduled 100000]

Targets: every command on the 10,000-file corpus (`benchmarks/corpus.py`) under
1 GB in all; `schedule` on a tree of 100,000 files that no job schedules under
1 GB and a few hundred bytes of output (it printed 254 MB at 2,000 such files
before it summarised). Linux only (reads /proc).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import Corpus  # noqa: E402

LIMIT_MB = 1024


def _tree_rss_kb(root_pid: int) -> int:
    """Resident memory of a process and all its descendants, in KB."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss[int(entry)] = int(line.split()[1])
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack += children.get(pid, [])
    return total


def measure(args: list[str], cwd: Path) -> tuple[float, float, int]:
    """(seconds, peak MB of the process tree, bytes of output) of one command."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "delta_lint", *args], cwd=cwd, stdout=out, stderr=out)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, _tree_rss_kb(proc.pid))
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        size = out.tell()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed with exit code {proc.returncode}")
    return seconds, peak / 1024, size


def unscheduled_tree(root: Path, files: int) -> None:
    for i in range(files):
        folder = root / "jobs" / str(i // 1000)
        if i % 1000 == 0:
            folder.mkdir(parents=True)
        (folder / f"f{i}.sql").write_text(f"DELETE FROM main.s.t{i % 50} WHERE id = {i};\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--unscheduled", type=int, default=100_000)
    opts = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="delta-lint-bench-cache-")
    os.environ["DELTA_LINT_CACHE_DIR"] = cache  # a fresh cache, not the user's
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        Corpus(opts.files, seed=0).write(corpus)
        for label, args in (
            (f"schedule, {opts.files:,} files", ["schedule", "."]),
            (f"check --no-cache, {opts.files:,} files", ["check", ".", "--no-cache", "--spark", "none"]),
            (f"check, cold cache, {opts.files:,} files", ["check", ".", "--spark", "none"]),
            (f"check, warm cache, {opts.files:,} files", ["check", ".", "--spark", "none"]),
        ):
            rows.append((label, *measure(args, corpus)))
        if opts.unscheduled:
            lone = Path(tmp) / "lone"
            unscheduled_tree(lone, opts.unscheduled)
            rows.append((f"schedule, {opts.unscheduled:,} unscheduled files", *measure(["schedule", "."], lone)))
    failed = False
    print(f"{'command':<48} {'seconds':>8} {'peak MB':>8} {'output':>12}  target")
    for label, seconds, mb, size in rows:
        ok = mb < LIMIT_MB
        failed |= not ok
        print(f"{label:<48} {seconds:>8.1f} {mb:>8.0f} {size:>12,}  {'PASS' if ok else 'FAIL'} (< {LIMIT_MB} MB)")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
