"""Run the Python front end over every `.py` file of the installed environment and
count what must never happen on a file CPython parses: an internal error (DL002)
or "nested too deeply". Reads only; imports and runs nothing it reads.

    python benchmarks/sweep_site_packages.py [ROOT ...] [--show 20]

ROOT defaults to the running interpreter's site-packages. The test suite keeps a
sample (tests/test_real_patterns.py); this is the full sweep, numbers in the notes.
"""

from __future__ import annotations

import argparse
import ast
import site
import sys
import time
from collections import Counter
from pathlib import Path

from delta_lint.frontend import analyze_source


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("roots", nargs="*", type=Path)
    parser.add_argument("--show", type=int, default=20, help="list this many bad files")
    args = parser.parse_args()
    roots = args.roots or [Path(p) for p in site.getsitepackages()]
    counts: Counter[str] = Counter()
    bad: list[tuple[str, str]] = []
    start = time.perf_counter()
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                counts["unreadable"] += 1
                continue
            try:
                ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                counts["not parsed by CPython"] += 1
                continue
            counts["files"] += 1
            # read as a job file would be: a path under tests/ would be skipped as a test
            result = analyze_source("sweep.py", ".py", text)
            counts["intents"] += len(result.intents)
            counts["skipped"] += result.skipped is not None
            for d in result.diagnostics:
                if d.rule == "DL002" or "nested too deeply" in d.message:
                    counts["internal or too deep"] += 1
                    bad.append((str(path), f"{d.rule} {d.message[:160]}"))
    counts["seconds"] = round(time.perf_counter() - start)
    for key, value in counts.items():
        print(f"{key:>24}: {value:,}")
    for path, message in bad[: args.show]:
        print(f"{path}: {message}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
