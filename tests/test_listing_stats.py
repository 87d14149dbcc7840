"""The listings asked again to prove a kept run still holds (Airflow DAGs, Jobs JSON)
answer an unchanged file from its stat, and see every change a cold run sees.

A cached `check` asks each listing the last run depended on again (which Python
files are Airflow DAGs, which JSON files are jobs). Those answers are kept per file
by its stat (`bundle.FileTests`): an unchanged run stats the files instead of
reading them (`RunStats.listed_files_read`). Each edit below (a DAG added, a DAG
edited until it is not one, a DAG deleted, a Jobs JSON file that stops naming a
task) must give the findings of `--no-cache`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from delta_lint import bundle
from delta_lint import run as pipeline
from delta_lint.config import load_config

DAG = """from airflow import DAG
from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator

with DAG("{name}", schedule="0 1 * * *") as dag:
    DatabricksSubmitRunOperator(task_id="t", notebook_task={{"notebook_path": "{path}"}})
"""

JOB_JSON = {
    "name": "exported",
    "schedule": {"quartz_cron_expression": "0 0 1 * * ?", "timezone_id": "UTC"},
    "tasks": [{"task_key": "c", "sql_task": {"warehouse_id": "w", "file": {"path": "jobs/c.sql"}}}],
}


def _project(root: Path) -> None:
    (root / "jobs").mkdir(parents=True)
    (root / "dags").mkdir()
    (root / "delta-lint.yaml").write_text("spark: none\n")
    (root / "jobs" / "a.sql").write_text("DELETE FROM main.s.t WHERE id = 1;\n")
    (root / "jobs" / "b.sql").write_text("UPDATE main.s.t SET x = 1 WHERE id = 2;\n")
    (root / "jobs" / "c.sql").write_text(
        "MERGE INTO main.s.t t USING main.s.u u ON t.id = u.id WHEN MATCHED THEN DELETE;\n"
    )
    (root / "dags" / "a.py").write_text(DAG.format(name="a", path="jobs/a.sql"))
    for n in range(5):  # Python files that are not DAGs: what a listing reads in vain
        (root / "jobs" / f"helper{n}.py").write_text(f"VALUE = {n}\n")


def _run(root: Path, use_cache: bool = True):
    config = load_config(cwd=root)
    return pipeline.check([root], config, cwd=root, spark="none", use_cache=use_cache)


def _findings(result) -> list:
    return [f.to_json() for f in result.findings]


def _same_as_cold(root: Path) -> tuple[list, int]:
    """The cached run's findings (asserted equal to `--no-cache`'s) and the files its
    listings read."""
    cached = _run(root)
    cold = _run(root, use_cache=False)
    assert _findings(cached) == _findings(cold)
    return _findings(cold), cached.stats.listed_files_read


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "p"
    _project(root)
    monkeypatch.chdir(root)
    monkeypatch.setattr(bundle, "RACY_NS", 0)  # the files were just written
    return root


def test_an_unchanged_run_stats_the_files_a_listing_read_before(project):
    """The first cached run parses the bundle; the next asks its listings again and
    reads the files (keeping their answers); from then on none is read."""
    first, _ = _same_as_cold(project)
    _, filled = _same_as_cold(project)
    _, read = _same_as_cold(project)
    _, again = _same_as_cold(project)
    assert first, "the DAG must schedule the writes for the comparison to mean anything"
    assert filled == 7  # the near miss: the DAG, five helpers and delta-lint.yaml (a YAML job?) were read
    assert read == 0 and again == 0


def test_a_file_changed_just_now_is_read_again_each_time(project, monkeypatch):
    """The near miss of the stat: a file changed within RACY_NS of its test may change
    again in the same clock tick, so its answer is not kept."""
    import sqlite3

    from tests.test_cache_and_speed import cache_file

    monkeypatch.setattr(bundle, "RACY_NS", 3600 * 10**9)
    reads = []
    for _ in range(3):  # the listings alone: the walk the last run kept (`kept.Warm`), which
        # vouches for the files by their content, is dropped before each run
        if cache_file(project).exists():
            with sqlite3.connect(cache_file(project)) as db:
                db.execute("DELETE FROM kv WHERE key LIKE '%:warm-gate:%'")
        reads.append(_same_as_cold(project)[1])
    assert reads[1:] == [7, 7]  # the DAG, the five helpers and delta-lint.yaml, read each time


@pytest.mark.parametrize("edit", ["added", "no longer a DAG", "same size, time set back", "deleted", "job json"])
def test_each_edit_gives_the_findings_of_a_cold_run(project, edit):
    if edit == "job json":  # a Jobs JSON export schedules c.sql beside the DAG's a.sql
        (project / "job.json").write_text(json.dumps(JOB_JSON))
    if edit == "same size, time set back":  # no Databricks operator named: not a DAG of ours
        (project / "dags" / "b.py").write_text(
            DAG.format(name="b", path="jobs/b.sql").replace("Databricks", "Xatabricks")
        )
    before, _ = _same_as_cold(project)
    _same_as_cold(project)  # keeps the listings' answers
    assert _same_as_cold(project)[1] == 0
    dag = project / "dags" / "a.py"
    if edit == "added":  # a second DAG schedules b.sql: b meets a
        (project / "dags" / "b.py").write_text(DAG.format(name="b", path="jobs/b.sql"))
    elif edit == "no longer a DAG":
        dag.write_text("# retired\n")
    elif edit == "same size, time set back":  # a file the bundle never read becomes a DAG
        other, st = project / "dags" / "b.py", (project / "dags" / "b.py").stat()
        other.write_text(DAG.format(name="b", path="jobs/b.sql"))
        os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))  # only its change time says so
    elif edit == "deleted":
        dag.unlink()
    else:
        (project / "job.json").write_text(json.dumps({**JOB_JSON, "tasks": []}).replace("task_key", "key"))
    after, read = _same_as_cold(project)
    assert after != before, f"the edit ({edit}) must change the findings"
    assert read <= 2  # the edited file (and a new one): the others answer from their stat
    assert _same_as_cold(project)[0] == after
