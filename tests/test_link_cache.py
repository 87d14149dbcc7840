"""A file's cached reading is keyed by its content and what other files gave it.

Editing a helper module must reach the unchanged files that call it (their
reading used the helper's summary), through the cache, with the link stage's
waves: a chain of imports and a `%run` chain, each edited at its far end. A file
that takes nothing from the edited one keeps its cached reading.
"""

from __future__ import annotations

from pathlib import Path

from delta_lint.config import validate
from delta_lint.run import check

NB = "# Databricks notebook source\n"
CELL = "\n\n# COMMAND ----------\n\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _check(project: Path):
    return check([project], validate({}, project / "delta-lint.yaml"), cwd=project, use_cache=True)


def _writes(result) -> list[tuple[str, str]]:
    return sorted((i.location.path, i.table.name) for i in result.intents)


def test_editing_a_helper_two_imports_away_re_reads_its_users(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("DELTA_LINT_CACHE_DIR", str(tmp_path / "cache"))
    project = tmp_path / "p"
    _write(
        project,
        {
            "delta-lint.yaml": "",
            "lib/__init__.py": "",
            "lib/io.py": 'def save(df):\n    df.write.mode("append").saveAsTable("main.sales.orders")\n',
            "lib/steps.py": "from lib.io import save\n\n\ndef load(df):\n    save(df)\n",
            "job.py": "from lib.steps import load\n\nload(spark.range(3))\n",
            "other.py": 'spark.range(1).write.mode("append").saveAsTable("main.ops.log")\n',
        },
    )
    monkeypatch.chdir(project)
    first = _check(project)
    assert ("job.py", "main.sales.orders") in _writes(first)
    (project / "lib" / "io.py").write_text(
        'def save(df):\n    df.write.mode("append").saveAsTable("main.sales.orders_v2")\n', encoding="utf-8"
    )
    edited = _check(project)
    assert ("job.py", "main.sales.orders_v2") in _writes(edited)
    assert ("job.py", "main.sales.orders") not in _writes(edited)
    # the unchanged file that takes nothing from the helper is not read again
    assert edited.stats.files_analysed < first.stats.files_analysed
    assert edited.stats.files_from_cache >= 1


def test_editing_the_far_end_of_a_run_chain_reaches_the_writer(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("DELTA_LINT_CACHE_DIR", str(tmp_path / "cache"))
    project = tmp_path / "p"
    files = {
        "delta-lint.yaml": "",
        "conf.py": NB + 'CATALOG = "main"\n',
        "mid.py": NB + "# MAGIC %run ./conf" + CELL + 'SCHEMA = f"{CATALOG}.sales"\n',
        "top.py": NB + "# MAGIC %run ./mid" + CELL + 'TABLE = f"{SCHEMA}.orders"\n',
        "job.py": NB + "# MAGIC %run ./top" + CELL + 'spark.range(3).write.mode("append").saveAsTable(TABLE)\n',
    }
    _write(project, files)
    monkeypatch.chdir(project)
    assert _writes(_check(project)) == [("job.py", "main.sales.orders")]
    (project / "conf.py").write_text(NB + 'CATALOG = "dev"\n', encoding="utf-8")
    assert _writes(_check(project)) == [("job.py", "dev.sales.orders")]
    (project / "conf.py").write_text(NB + 'CATALOG = dbutils.widgets.get("catalog")\n', encoding="utf-8")
    [(path, table)] = _writes(_check(project))  # near miss: a value only a run knows
    assert path == "job.py" and table != "dev.sales.orders" and "{" in table
