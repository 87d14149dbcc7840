"""The fuzzing suite (tests/fuzz/) for longer than CI runs it: fresh random cases
instead of CI's fixed sample, and the numbers benchmarks/FUZZ.md records.

    python benchmarks/fuzz.py                 # 2,000 cases per property
    python benchmarks/fuzz.py --examples 300  # a shorter run
    python benchmarks/fuzz.py --seed 7        # reproduce a run

Prints, per property, the cases run and how long they took (Hypothesis'
statistics), and the pytest verdict; a failure prints the smallest failing input.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=2000, help="cases per property")
    parser.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: random)")
    parser.add_argument("--case-seconds", type=int, default=120, help="a case running longer is a hang")
    parser.add_argument("-k", default=None, help="only the properties matching this pytest expression")
    args = parser.parse_args()
    env = {**os.environ, "FUZZ_EXAMPLES": str(args.examples), "FUZZ_CASE_SECONDS": str(args.case_seconds)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/fuzz"]
    command += ["--hypothesis-show-statistics"]
    if args.seed is not None:
        command += [f"--hypothesis-seed={args.seed}"]
    if args.k:
        command += ["-k", args.k]
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    print(proc.stdout[-20_000:])
    print(proc.stderr[-5_000:], file=sys.stderr)
    cases = sum(int(n) for n in re.findall(r"(\d+) passing", proc.stdout))
    failing = sum(int(n) for n in re.findall(r"(\d+) failing", proc.stdout))
    print(f"fuzz: {cases} passing cases, {failing} failing, {elapsed:.0f} s, exit {proc.returncode}")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
