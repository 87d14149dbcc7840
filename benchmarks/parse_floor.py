"""The parse floor of a corpus as a process of its own, to time beside `delta-lint check`.

    python benchmarks/parse_floor.py record CORPUS OUT.json   (what the front ends parse)
    python benchmarks/parse_floor.py replay OUT.json          (parse it all, once)

`record` runs the front ends over CORPUS and writes the Python sources and SQL
statements they parse (`bench.parsed_by_linter`, the floor RESULTS.md uses);
`replay` imports `ast` and sqlglot and parses exactly those, single process, and
prints the seconds the parsing took (the floor as bench.py reports it). Timed from
outside, `replay` is the floor with its interpreter start and sqlglot's import:
what any linter built on these parsers pays at least.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def record(corpus: Path, out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench import parsed_by_linter

    sources, statements, files = parsed_by_linter(corpus)
    out.write_text(json.dumps({"files": files, "python": sources, "sql": statements}))
    print(f"{files} files: {len(sources)} Python sources, {len(statements)} SQL statements")


def replay(recorded: Path) -> None:
    import ast

    import sqlglot

    doc = json.loads(recorded.read_text())
    start = time.perf_counter()
    for source in doc["python"]:
        ast.parse(source)
    for statement in doc["sql"]:
        try:
            sqlglot.parse_one(statement, read="databricks")
        except sqlglot.errors.SqlglotError:
            pass
    print(f"parse floor: {time.perf_counter() - start:.3f} s for {doc['files']} files")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("corpus", type=Path)
    r.add_argument("out", type=Path)
    p = sub.add_parser("replay")
    p.add_argument("recorded", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.corpus.resolve(), args.out)
    else:
        replay(args.recorded)
    return 0


if __name__ == "__main__":
    sys.exit(main())
