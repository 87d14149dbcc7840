"""Time to read the settings of N Delta tables once the engine is up, for the
embedded engine and a classic local SparkSession side by side.

    python benchmarks/settings_read.py [--tables 100] [--commits 10] [--modes embedded,local]

Tables are copies of the fixture tables (partitioned, deletion vectors, liquid
clustering, identity column, a checkpoint) each given `--commits` more append
commits, so the log replay has real work. Target: under 5 s for 100 tables on
`embedded`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from delta_lint.settings.reader import Target, read_tables  # noqa: E402
from delta_lint.settings.spark import open_spark  # noqa: E402

FIXTURE_TABLES = ROOT / "fixtures" / "tables"
TARGET_SECONDS = 5.0


def make_tables(out: Path, count: int, commits: int) -> list[Target]:
    sources = sorted(p for p in FIXTURE_TABLES.iterdir() if (p / "_delta_log").is_dir())
    targets = []
    for i in range(count):
        src = sources[i % len(sources)]
        dst = out / f"{src.name}_{i:04d}"
        shutil.copytree(src, dst)
        log = dst / "_delta_log"
        last = max(int(p.stem) for p in log.glob("*.json"))
        for v in range(last + 1, last + 1 + commits):
            actions = [
                {"commitInfo": {"timestamp": 1704067200000 + v, "operation": "WRITE", "isBlindAppend": True}},
                {
                    "add": {
                        "path": f"part-{v:05d}.parquet",
                        "partitionValues": {},
                        "size": 1024,
                        "modificationTime": 1704067200000 + v,
                        "dataChange": True,
                    }
                },
            ]
            (log / f"{v:020d}.json").write_text("".join(json.dumps(a) + "\n" for a in actions))
        targets.append(Target(f"bench.t{i:04d}", dst.as_posix()))
    return targets


def measure(mode: str, targets: list[Target], root: Path) -> dict:
    start = time.perf_counter()
    with open_spark(mode, 300) as handle:
        up = time.perf_counter() - start
        read_tables(handle.session, targets[:1], False, root)  # warm-up: first plan, JIT
        t0 = time.perf_counter()
        result = read_tables(handle.session, targets, False, root)
        elapsed = time.perf_counter() - t0
    assert not result.problems, result.problems
    assert len(result.tables) == len(targets)
    return {"mode": mode, "startup_s": up, "read_s": elapsed, "tables": len(result.tables)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--commits", type=int, default=10)
    parser.add_argument("--modes", default="embedded,local")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        targets = make_tables(Path(tmp), args.tables, args.commits)
        rows = [measure(mode, targets, Path(tmp)) for mode in args.modes.split(",") if mode]
    print(f"settings of {args.tables} tables ({args.commits} extra commits each), engine already up")
    print(f"{'mode':<10} {'start (s)':>10} {'read (s)':>10} {'tables/s':>10}")
    for r in rows:
        print(f"{r['mode']:<10} {r['startup_s']:>10.2f} {r['read_s']:>10.2f} {r['tables'] / r['read_s']:>10.1f}")
    by_mode = {r["mode"]: r for r in rows}
    if "embedded" in by_mode and "local" in by_mode:
        ratio = by_mode["local"]["read_s"] / by_mode["embedded"]["read_s"]
        print(f"local / embedded read time: {ratio:.2f}x")
    ok = True
    if "embedded" in by_mode:
        scaled = by_mode["embedded"]["read_s"] * 100 / args.tables
        ok = scaled < TARGET_SECONDS
        print(f"target: embedded < {TARGET_SECONDS:g} s per 100 tables: {scaled:.2f} s -> {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
