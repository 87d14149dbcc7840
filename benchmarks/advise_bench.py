"""`delta-lint advise` against one `delta-lint check`, on the benchmark corpus.

    python benchmarks/advise_bench.py [--files 1000] [--budget 5] [--repeat 2] [--write]

Both run cold and in their own process (`check --no-cache`: advise never uses the
cache either, it judges every table), each the best of --repeat runs. Target:
advise (its default --top 10, with a plan) under 10 x check. Also measured once:
`--top 0`, every candidate judged. --write records the numbers in benchmarks/ADVISE.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus import Corpus  # noqa: E402

TARGET = 10.0


def timed(corpus: Path, *args: str) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "delta_lint", *args], cwd=corpus, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"delta-lint {' '.join(args)} failed: {proc.stderr[-2000:]}")
    return elapsed, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--budget", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        Corpus(args.files, seed=0).write(corpus)
        check = min(timed(corpus, "check", "--no-cache", "--format", "json", "-o", os.devnull)[0] for _ in range(2))
        runs = [timed(corpus, "advise", "--format", "json", "--budget", str(args.budget)) for _ in range(args.repeat)]
        advise = min(t for t, _ in runs)
        doc = json.loads(runs[0][1])
        every, every_out = timed(corpus, "advise", "--format", "json", "--top", "0")
    ratio = advise / check
    plan = doc["plan"] or {"changes": [], "left": []}
    lines = [
        f"corpus: {args.files} files (benchmarks/corpus.py, seed 0); {doc['conflicts']} predicted conflicts",
        f"check --no-cache: {check:.2f} s (best of 2)",
        f"advise --budget {args.budget}: {advise:.2f} s (best of {args.repeat}); "
        f"{len(doc['changes'])} changes advised, {doc['not_advised']} judged and not advised",
        f"plan of {len(plan['changes'])}: {doc['conflicts']} -> {len(plan['left'])} predicted conflicts",
        f"advise --top 0 (every candidate judged, no plan): {every:.2f} s, {every / check:.1f} x check; "
        f"{len(json.loads(every_out)['changes'])} changes advised",
        f"advise / check: {ratio:.1f} x (target < {TARGET:.0f} x): {'PASS' if ratio < TARGET else 'FAIL'}",
    ]
    print("\n".join(lines))
    if args.write:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        text = (
            "# `delta-lint advise` speed\n\n"
            "Written by `python benchmarks/advise_bench.py --write` on "
            f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"load average {load:.1f} when it ran.\n\n```\n" + "\n".join(lines) + "\n```\n"
        )
        (ROOT / "benchmarks" / "ADVISE.md").write_text(text)


if __name__ == "__main__":
    main()
