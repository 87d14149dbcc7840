"""Front-end throughput next to the raw parse floor, measured side by side in one run.

The parse floor is what any tool that reads the same code must pay: `ast.parse` of
every Python file (notebook Python cells included) plus `sqlglot.parse_one` of every
SQL statement the linter parses. Usage: python benchmarks/frontend_speed.py [repeat]
"""

from __future__ import annotations

import ast
import sys
import time
from pathlib import Path

import sqlglot

from delta_lint.frontend import analyze_path, decode
from delta_lint.frontend.discover import discover
from delta_lint.frontend.notebook import is_databricks_source, parse_databricks_source, parse_ipynb
from delta_lint.frontend.sqltext import apply_templates, split_statements

ROOT = Path(__file__).resolve().parent.parent


def floor_inputs(files: list[Path]) -> tuple[list[str], list[str]]:
    """The Python sources and SQL statements of the corpus (setup, not timed)."""
    python, sql = [], []
    for path in files:
        text, _ = decode(path.read_bytes())
        if path.suffix == ".ipynb" or is_databricks_source(text):
            nb = parse_ipynb(text) if path.suffix == ".ipynb" else parse_databricks_source(text)
            python.append(nb.python_source()[0])
            for cell in nb.cells:
                if cell.lang == "sql":
                    sql += [s.text for s in split_statements("\n".join(t for _, _, t in cell.lines))]
        elif path.suffix == ".sql":
            sql += [s.text for s in split_statements(text)]
        else:
            python.append(text)
    return python, [apply_templates(s).text for s in sql]


def parse_floor(python: list[str], sql: list[str]) -> None:
    for src in python:
        ast.parse(src)
    for stmt in sql:
        try:
            sqlglot.parse_one(stmt, read="databricks")
        except sqlglot.errors.ParseError:
            pass


def main(repeat: int = 20) -> None:
    files = discover([ROOT / "fixtures" / "jobs"], ROOT / "fixtures", ("jobs/scratch/**",)).files
    python, sql = floor_inputs(files)
    n_files = len(files) * repeat

    start = time.perf_counter()
    for _ in range(repeat):
        parse_floor(python, sql)
    floor = time.perf_counter() - start

    start = time.perf_counter()
    for _ in range(repeat):
        for path in files:
            analyze_path(path, path.name)
    frontend = time.perf_counter() - start

    compiled = "compiled" if Path(sqlglot.parser.__file__).suffix == ".so" else "pure Python"
    print(
        f"corpus: {len(files)} fixture files x {repeat} = {n_files} files, {len(sql) * repeat} SQL statements (sqlglot {sqlglot.__version__}, {compiled})"
    )
    print(f"{'stage':<28}{'seconds':>10}{'files/s':>12}")
    print(f"{'parse floor (ast + sqlglot)':<28}{floor:>10.3f}{n_files / floor:>12.0f}")
    print(f"{'delta-lint front ends':<28}{frontend:>10.3f}{n_files / frontend:>12.0f}")
    print(f"ratio front ends / floor: {frontend / floor:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
