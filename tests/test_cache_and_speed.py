"""The cache and the process pool change speed, never results."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from delta_lint.cache import Cache
from tests.conftest import ROOT, run_cli

sys.path.insert(0, str(ROOT / "benchmarks"))
from corpus import Corpus  # noqa: E402


def cache_file(project: Path) -> Path:
    from delta_lint.cache import cache_folder

    return cache_folder(project) / "frontend.sqlite3"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`check . --format json` in this process."""
    return run_cli("check", ".", "--format", "json", *args, cwd=cwd)


def cli_process(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`check . --format json` as a process of its own, for runs at the same time."""
    return subprocess.run(
        [sys.executable, "-m", "delta_lint", "check", ".", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    Corpus(120, seed=3).write(out)
    return out


def test_warm_cache_results_are_identical_to_cold(corpus):
    cold = cli(corpus, "--no-cache", "--jobs", "1")
    assert cold.returncode == 1 and not cache_file(corpus).exists()
    first = cli(corpus)  # fills the cache
    warm = cli(corpus)  # the whole run from the cache
    assert cache_file(corpus).is_file() and not (corpus / ".delta-lint-cache").exists()
    assert cold.stdout == first.stdout == warm.stdout
    assert json.loads(warm.stdout)["summary"]["files"] == 120


def test_parallel_front_ends_give_the_same_bytes(corpus):
    one = cli(corpus, "--no-cache", "--jobs", "1")
    two = cli(corpus, "--no-cache", "--jobs", "2")
    assert one.stdout == two.stdout


def test_a_changed_file_is_reanalysed(corpus, tmp_path):
    project = tmp_path / "p"
    Corpus(30, seed=5).write(project)
    before = json.loads(cli(project).stdout)
    victim = sorted(project.rglob("*.sql"))[0]
    victim.write_text(victim.read_text() + "\nDELETE FROM main.bench_0.t00000 WHERE id = 1;\n")
    after = cli(project)
    assert json.loads(after.stdout)["summary"]["intents"] == before["summary"]["intents"] + 1
    assert after.stdout == cli(project, "--no-cache").stdout


@pytest.mark.integration
def test_concurrent_runs_share_the_cache_safely(tmp_path):
    project = tmp_path / "p"
    Corpus(60, seed=7).write(project)
    reference = cli(project, "--no-cache").stdout
    with ThreadPoolExecutor(4) as pool:
        outputs = list(pool.map(lambda _: cli_process(project).stdout, range(4)))
    assert all(out == reference for out in outputs)
    assert cli(project).stdout == reference


def test_a_damaged_cache_costs_only_speed(tmp_path):
    project = tmp_path / "p"
    Corpus(20, seed=9).write(project)
    reference = cli(project, "--no-cache").stdout
    cli(project)
    cache_file(project).write_bytes(b"not a database")
    damaged = cli(project)
    assert damaged.returncode == 1 and damaged.stdout == reference


def test_cached_workflows_follow_bundle_edits_and_new_included_files(tmp_path):
    """The parsed bundle is cached; editing it or adding a file an `include` glob
    matches must change the schedule exactly as a run without the cache sees it."""
    project = tmp_path / "p"
    (project / "jobs").mkdir(parents=True)
    (project / "resources").mkdir()
    for name in ("a", "b"):
        (project / "jobs" / f"{name}.sql").write_text("DELETE FROM main.s.t WHERE id = 1;\n")
    (project / "delta-lint.yaml").write_text("spark: none\nunscheduled: anytime\n")  # a.sql alone: any time
    (project / "databricks.yml").write_text(
        "bundle: {name: x}\ninclude: ['resources/*.yml']\nresources:\n  jobs:\n    j:\n"
        "      schedule: {quartz_cron_expression: '0 0 1 * * ?', timezone_id: UTC}\n"
        "      tasks:\n        - task_key: a\n          sql_task: {warehouse_id: w, file: {path: jobs/a.sql}}\n"
        "        - task_key: b\n          depends_on: [{task_key: a}]\n"
        "          sql_task: {warehouse_id: w, file: {path: jobs/b.sql}}\n"
    )

    def both() -> str:
        cached, uncached = cli(project), cli(project, "--no-cache")
        assert cached.stdout == uncached.stdout, (cached.stderr, uncached.stderr)
        return cached.stdout

    assert json.loads(both())["findings"] == []  # a, then b: never at the same time
    assert json.loads(both())["findings"] == []  # from the cache
    bundle = project / "databricks.yml"
    bundle.write_text(bundle.read_text().replace("          depends_on: [{task_key: a}]\n", ""))
    assert {f["rule"] for f in json.loads(both())["findings"]} == {"DL102"}  # now parallel
    bundle.write_text(bundle.read_text().replace("      tasks:\n        - task_key: a\n", "      tasks:\n"))
    bundle.write_text(
        bundle.read_text().replace("          sql_task: {warehouse_id: w, file: {path: jobs/a.sql}}\n", "")
    )
    assert {f["rule"] for f in json.loads(both())["findings"]} == {"DL102"}  # a.sql: no job, any time
    assert {f["rule"] for f in json.loads(both())["findings"]} == {"DL102"}  # the bundle from the cache
    (project / "resources" / "a.yml").write_text(
        "resources:\n  jobs:\n    other:\n      schedule: {quartz_cron_expression: '0 0 9 * * ?', timezone_id: UTC}\n"
        "      tasks:\n        - task_key: a\n          sql_task: {warehouse_id: w, file: {path: ../jobs/a.sql}}\n"
    )
    assert json.loads(both())["findings"] == []  # a new included file: 09:00 and 01:00 never meet


def test_per_table_results_follow_ddl_config_and_shared_checkpoint_edits(tmp_path):
    """A cached run re-checks only tables whose writers changed; edits that reach a
    table from elsewhere (a CREATE's partitioning in another file, the configuration,
    a checkpoint shared across tables) must still change the output exactly as a run
    without the cache sees it."""
    project = tmp_path / "p"
    (project / "jobs").mkdir(parents=True)
    (project / "delta-lint.yaml").write_text("spark: none\n")
    ddl = project / "jobs" / "ddl.sql"
    ddl.write_text("CREATE TABLE IF NOT EXISTS main.s.a (id INT, d DATE) PARTITIONED BY (d);\n")
    (project / "jobs" / "a1.sql").write_text("DELETE FROM main.s.a WHERE d = '2024-01-01';\n")
    (project / "jobs" / "a2.sql").write_text("DELETE FROM main.s.a WHERE d = '2024-01-02';\n")
    (project / "jobs" / "b.sql").write_text("UPDATE main.s.b SET x = 1 WHERE id = 1;\n")
    stream = project / "jobs" / "s.py"
    query = "spark.readStream.table('main.s.src').writeStream.option('checkpointLocation', '/chk/{}').toTable('main.s.{}')\n"
    (project / "jobs" / "s1.py").write_text(query.format("one", "c"))
    stream = project / "jobs" / "s2.py"
    stream.write_text(query.format("two", "d"))

    def both() -> dict:
        cached, uncached = cli(project), cli(project, "--no-cache")
        assert cached.stdout == uncached.stdout, (cached.stderr, uncached.stderr)
        return json.loads(cached.stdout)

    def rules(doc: dict, table: str) -> set[str]:
        return {f["rule"] for f in doc["findings"] if f["table"] == table}

    assert rules(both(), "main.s.a") == set()  # different partitions
    assert rules(both(), "main.s.a") == set()  # from the cache
    ddl.write_text("CREATE TABLE IF NOT EXISTS main.s.a (id INT, d DATE) PARTITIONED BY (id);\n")
    assert "DL102" in rules(both(), "main.s.a")  # same partition column no longer separates them
    (project / "jobs" / "b.sql").write_text("UPDATE main.s.b SET x = 2 WHERE id = 1;\n")
    assert "DL102" in rules(both(), "main.s.a")  # table a from the cache, b checked again
    (project / "delta-lint.yaml").write_text(
        "spark: none\nunscheduled: anytime\njobs:\n  one: {paths: ['jobs/a1.sql', 'jobs/a2.sql', 'jobs/ddl.sql']}\n"
    )
    assert rules(both(), "main.s.a") == set()  # one job, one run at a time
    assert not any(f["rule"] == "DL120" for f in both()["findings"])
    stream.write_text(query.format("one", "d"))
    assert any(f["rule"] == "DL120" for f in both()["findings"])  # one checkpoint, two jobs


def _serial_and_forked(corpus, monkeypatch, threshold: str, jobs: int):
    """The run's results with one process, then with `jobs` forked workers (the
    worker threshold `threshold` lowered to nothing, the corpus being small)."""
    import delta_lint.run as run
    from delta_lint.config import load_config

    config = load_config(cwd=corpus)
    monkeypatch.chdir(corpus)
    single = run.check([corpus], config, cwd=corpus, use_cache=False, jobs=1)
    monkeypatch.setattr(run, threshold, 0)
    return single, run.check([corpus], config, cwd=corpus, use_cache=False, jobs=jobs)


def test_tables_paired_in_forked_workers_give_the_same_findings(corpus, monkeypatch):
    """Large runs pair tables in forked processes; forced here on a small corpus,
    the findings must equal the single-process ones, in the same order."""
    single, forked = _serial_and_forked(corpus, monkeypatch, "PARALLEL_MIN_INTENTS", 2)
    assert single.findings and forked.findings == single.findings
    assert forked.diagnostics == single.diagnostics


def test_the_cache_stays_bounded_while_files_keep_changing(tmp_path, monkeypatch):
    """Every edit adds entries; past KEEP_FACTOR times what a run uses, the entries
    the run did not use are dropped, and results stay those of an uncached run."""
    import sqlite3

    project = tmp_path / "p"
    Corpus(80, seed=11).write(project)
    victim = sorted(project.rglob("*.sql"))[0]
    original = victim.read_text()
    db = cache_file(project)
    counts = []
    monkeypatch.setattr(Cache, "KEEP_FACTOR", 1)
    for i in range(6):
        victim.write_text(original + f"\nDELETE FROM main.bench_0.t00000 WHERE id = {i};\n")
        cached = cli(project)
        assert cached.stdout == cli(project, "--no-cache").stdout
        with sqlite3.connect(db) as con:
            counts.append(con.execute("SELECT COUNT(*) FROM files").fetchone()[0])
    assert counts[0] == 80 and max(counts) <= 81  # without pruning: 80 + one per edit


@pytest.mark.parametrize("where", ["corpus", "fixtures"])
def test_fast_schedule_answers_equal_the_node_by_node_answers(where, corpus, monkeypatch):
    """`Schedule.overlap` answers most pairs of files from per-job and lone-file
    shortcuts; for every pair of intents in two different files the answer must be
    the first overlap found node by node (`node_overlap`), reason included."""
    from delta_lint.config import load_config
    from delta_lint.run import analyze
    from delta_lint.schedule import build_schedule, load_workflows

    root = corpus if where == "corpus" else ROOT / "fixtures"
    monkeypatch.chdir(root)
    config = load_config(cwd=root)
    results, _, rel_paths = analyze([root], config, cwd=root, use_cache=False)
    schedule = build_schedule(config, rel_paths, load_workflows(config))
    intents = [i for r in results for i in r.intents][:400]
    checked = 0
    for a in intents:
        for b in intents:
            if a.location.path == b.location.path:
                continue
            found = [schedule.node_overlap(na, nb)[0] for na in schedule.nodes(a) for nb in schedule.nodes(b)]
            assert schedule.overlap(a, b) == next((c for c in found if c is not None), None)
            checked += 1
    assert checked > 1000


def test_a_broken_bundle_is_reported_when_parsed_beside_the_front_ends(tmp_path):
    """Without cached workflows the bundle is parsed while the front-end workers
    run; a bundle the user named must still end the run with exit 2 and the file
    named, and one merely found at the root is a DL003 at its line."""
    project = tmp_path / "p"
    Corpus(80, seed=13).write(project)
    (project / "databricks.yml").write_text("resources: [unclosed\n")
    for args in ((), ("--no-cache",), ("--jobs", "2")):
        run = cli(project, "--bundle", "databricks.yml", *args)
        assert run.returncode == 2 and "databricks.yml" in run.stderr and "Traceback" not in run.stderr
        found = cli(project, *args)
        problems = [f for f in json.loads(found.stdout)["findings"] if f["location"]["path"] == "databricks.yml"]
        assert found.returncode in (0, 1) and [f["rule"] for f in problems] == ["DL003"], found.stderr


def test_file_summaries_come_back_from_the_cache_as_they_went_in(tmp_path):
    """Summaries are stored as plain arrays (one is read per file per run); the rare
    diagnostics and suppression comments keep the tagged form. Every field, an
    empty and a missing suppression scan. (Stored values of the wrong shape are
    misses: tests/security/test_threat_model.py.)"""
    from delta_lint.cache import Cache, encode_entry
    from delta_lint.model import Diagnostic, FileResult, FileSummary, Flag, Intent, Kind, Location, TableRef
    from delta_lint.suppress import FileSuppressions, scan

    here = Location("jobs/a.py", 3, 5)
    shared = (
        Intent(here, TableRef("s.t"), Kind.STREAMING_WRITE, checkpoint="/chk/a"),
        Intent(Location("jobs/a.py", 9, 1), TableRef("s.u"), Kind.MERGE, frozenset({Flag.PER_BATCH}), txn_app_id="x"),
    )
    summaries = [
        FileSummary({"s.t": here, "`s`.u": Location("jobs/a.py", 9, 1)}, ("s.t",), shared, 4, [], FileSuppressions()),
        FileSummary({}, (), (), 0, [], None),
        FileSummary(
            {"s.t": here},
            (),
            (),
            1,
            [Diagnostic("DL000", here, "cannot parse statement", "error")],
            scan("x = 1  # delta-lint: ignore[DL101]\n# delta-lint: ignore[nope]\n"),
        ),
    ]
    store = Cache(tmp_path)
    try:
        store.put_many({f"k{k}": encode_entry(FileResult("jobs/a.py"), s) for k, s in enumerate(summaries)})
        keys = [f"k{k}" for k in range(len(summaries))]
        assert store.get_summaries(keys) == dict(zip(keys, summaries))
    finally:
        store.close()
    assert summaries[2].suppressions.directives and summaries[2].suppressions.problems


def test_table_entries_and_values_beyond_64_bits_come_back_as_they_went_in(tmp_path):
    """Plain documents are written and read by orjson; what it refuses (an integer
    literal beyond 64 bits in a condition) falls back to the standard library, and a
    table's rare internal errors keep the tagged form."""
    from delta_lint.cache import Cache, TableEntry, decode_result, encode_result
    from delta_lint.model import Diagnostic, FileResult, Finding, Intent, Kind, Location, TableRef
    from delta_lint.predicates import Constraint, Region

    here = Location("jobs/a.sql", 3, 5)
    finding = Finding(
        "DL101", "name", "error", "ConcurrentAppendException", "s.t", "message \u00e9", here, (here,), "o", "fix", "cfg"
    )
    entries = [
        TableEntry([finding, finding], [], "declared"),
        TableEntry([], [Diagnostic("DL002", here, "internal error in a rule", "error")], "live"),
    ]
    huge = Region(((("id", Constraint(values=frozenset({("lit", 10**30)}))),),))
    result = FileResult("jobs/a.sql")
    result.intents.append(Intent(here, TableRef("s.t"), Kind.DELETE, region=huge))
    assert decode_result(encode_result(result)) == result
    store = Cache(tmp_path)
    try:
        store.put_tables({"k0": entries[0], "k1": entries[1]})
        assert store.get_tables(["k0", "k1"]) == {"k0": entries[0], "k1": entries[1]}
    finally:
        store.close()


def test_the_stat_index_reads_only_changed_files_and_sees_every_change(tmp_path, monkeypatch):
    """With the cache, a file whose device, inode, size and modification and change
    times are as recorded is not read again. A same-size edit with its modification
    time set back is still seen (the change time moves), and a file recorded within
    RACY_NS of a change is read again the next time."""
    import os

    from delta_lint import run as pipeline
    from delta_lint.config import load_config

    project = tmp_path / "p"
    Corpus(20, seed=11).write(project)
    config = load_config(cwd=project)
    reads: list[int] = []  # files read by each run

    def findings() -> list:
        result = pipeline.check([project], config, cwd=project, read=None, spark="none")
        reads.append(result.stats.files_read)
        return [f.to_json() for f in result.findings]

    monkeypatch.setattr(pipeline, "RACY_NS", 0)  # the files were just written
    first = findings()
    assert reads == [20]
    assert findings() == first and reads[-1] == 0  # nothing changed: nothing read

    victim = sorted(project.rglob("*.sql"))[0]
    text, stat = victim.read_text(), victim.stat()
    changed = text.replace("DELETE", "delete", 1) if "DELETE" in text else text.replace("INSERT", "insert", 1)
    assert changed != text and len(changed) == len(text)
    victim.write_text(changed)
    os.utime(victim, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # as if the edit never happened
    after = findings()
    assert reads[-1] == 1  # only the edited file is read, and it is
    cold = [f.to_json() for f in pipeline.check([project], config, cwd=project, spark="none", use_cache=False).findings]
    assert after == cold

    # the index vouches for every file, but the cache lost their entries (and the
    # project state, which names them): they are read then
    import sqlite3

    with sqlite3.connect(cache_file(project)) as db:
        db.execute("DELETE FROM files")
        db.execute("DELETE FROM runs")
        db.execute("DELETE FROM kv WHERE key LIKE '%:project-state:%'")
    assert findings() == after and reads[-1] == 20

    # the stat index alone from here on: the walk the last run kept (`kept.Warm`), which
    # vouches for every file without the index, is dropped before each run
    def indexed() -> list:
        with sqlite3.connect(cache_file(project)) as db:
            db.execute("DELETE FROM kv WHERE key LIKE '%:warm-gate:%'")
        return findings()

    monkeypatch.setattr(pipeline, "RACY_NS", 3600 * 10**9)  # from now on every file changed "just now"
    assert indexed() == after and reads[-1] == 0  # what was recorded still holds
    victim.write_text(text)
    assert indexed() == first and reads[-1] == 1
    assert indexed() == first and reads[-1] == 1  # recorded too close to its change: read again


def test_cron_schedule_answers_come_from_the_cache_in_a_later_run(tmp_path, monkeypatch):
    """Whether two cron schedules meet is worked out once and kept in the cache: a
    later run that re-judges a changed table asks no fire times for the schedules an
    earlier run judged (also when forked workers judged them), and its findings are
    those of an uncached run."""
    import delta_lint.run as run
    from delta_lint.config import load_config

    project = tmp_path / "p"
    Corpus(60, seed=7).write(project)
    monkeypatch.chdir(project)
    config = load_config(cwd=project)
    monkeypatch.setattr(run, "PARALLEL_MIN_INTENTS", 0)  # the first run's pairs are judged in workers
    run.check([project], config, cwd=project, use_cache=True, jobs=2)
    from delta_lint.cache import Cache

    store = Cache(project)
    stored = store.get_value(run.MEETINGS)
    store.close()
    assert stored and all(len(row) == 8 for row in stored)

    victim = sorted(project.rglob("*.sql"))[0]
    victim.write_text(victim.read_text() + "\nDELETE FROM main.bench_0.t00000 WHERE id = 1;\n")
    cached = run.check([project], config, cwd=project, use_cache=True, jobs=1)
    assert cached.stats.tables_judged > 0 and cached.stats.windows_compared == 0
    uncached = run.check([project], config, cwd=project, use_cache=False, jobs=1)
    assert cached.findings == uncached.findings
    assert uncached.stats.windows_compared > 0  # the uncached run did work them out


def test_stored_cron_answers_are_read_back_and_damaged_rows_ignored():
    from datetime import timedelta

    from delta_lint.schedule import Meetings

    meetings = Meetings()
    a, b = ("0 0 1 * * ?", "UTC"), ("0 30 1 * * ?", None)
    first = meetings.meet(a, timedelta(minutes=20), b, timedelta(hours=1))
    rows = meetings.new_rows()
    assert rows == [["0 0 1 * * ?", "UTC", 1200, "0 30 1 * * ?", None, 3600, *first]]
    later = Meetings()
    damaged = [["x"], ["a", 1, 2, "b", None, 3, "never", ""], ["a", None, "2", "b", None, 3, "never", ""], "row", None]
    later.remember(damaged + rows)
    later.remember({"not": "rows"})
    assert later.known == {(a, timedelta(minutes=20), b, timedelta(hours=1)): first}
    assert later.rows() == rows  # what a run stores: taken-in answers too


def test_front_ends_in_worker_processes_give_the_serial_results(corpus, monkeypatch):
    """Large runs read files in worker processes, each with a memo of its own; forced
    here on a small corpus (three workers), every file's result, the findings and the
    diagnostics equal the single-process ones, in the same order."""
    single, three = _serial_and_forked(corpus, monkeypatch, "PARALLEL_MIN_FILES", 3)
    assert single.findings and three.findings == single.findings
    assert three.diagnostics == single.diagnostics and three.files == single.files


@pytest.mark.parametrize("failure", ["raises", "exits"])
def test_a_front_end_worker_that_fails_fails_the_run(failure, tmp_path, monkeypatch):
    """An error in a worker is raised in the run; a worker that ends without answering
    (killed, out of memory) is a RuntimeError, not a run waiting for ever."""
    import os

    import delta_lint.run as run
    from delta_lint.config import Config
    from delta_lint.settings import ReadSettings

    for k in range(6):
        (tmp_path / f"j{k}.sql").write_text(f"DELETE FROM main.s.t{k} WHERE id = 1;\n")

    def fail(data, suffix, display, *args, **kwargs):
        if display == "j4.sql":
            if failure == "exits":
                os._exit(3)
            raise ZeroDivisionError("j4")
        return real(data, suffix, display, *args, **kwargs)

    real = run.analyze_data  # the front ends' entry point, as the run calls it
    monkeypatch.setattr(run, "analyze_data", fail)
    monkeypatch.setattr(run, "PARALLEL_MIN_FILES", 0)
    with pytest.raises(ZeroDivisionError if failure == "raises" else RuntimeError, match="j4|exit code 3"):
        run.check([tmp_path], Config(root=tmp_path), cwd=tmp_path, use_cache=False, read=ReadSettings(), jobs=2)


def test_what_a_run_reads_is_kept_for_that_run_alone(tmp_path):
    """A statement copied into several files is parsed once a run (the run's memo),
    and once again by the next run in the same process: runs share nothing."""
    import delta_lint.run as run
    from delta_lint.config import Config
    from delta_lint.settings import ReadSettings

    statement = "DELETE FROM main.s.t WHERE date = '1' AND id IN (SELECT id FROM main.s.u)"
    for k in range(3):
        (tmp_path / f"j{k}.sql").write_text(f"{statement};\n")
    (tmp_path / "j3.py").write_text(f'spark.sql("{statement}")\n')
    for _ in range(2):
        found = run.check([tmp_path], Config(root=tmp_path), cwd=tmp_path, use_cache=False, read=ReadSettings())
        assert len(found.intents) == 4 and found.stats.files_analysed == 4
        assert found.stats.statements_parsed == 1


def test_the_cache_builds_only_the_types_its_caller_names(tmp_path):
    """The cache knows the front ends' result types; a stage keeping other values
    (the schedule's workflows, the settings read live) names the dataclasses they
    are made of with each call. A stored value holding a type not named is a miss;
    a value holding one not named is not kept."""
    from delta_lint.bundle import WORKFLOWS_TYPES, Job, Task, Workflows
    from delta_lint.cache import Cache
    from delta_lint.model import Location

    task = Task("t", "notebook_task", ("a.py",), location=Location("databricks.yml", 3, 1))
    value = {"workflows": Workflows(jobs={"j": Job("j", "J", tasks={"t": task}, cron=("0 0 * * * ?", None))})}
    store = Cache(tmp_path)
    try:
        store.put_value("w", value, WORKFLOWS_TYPES)
        assert store.get_value("w", WORKFLOWS_TYPES) == value
        assert store.get_value("w") is None
        assert store.get_value("w", (Workflows, Job)) is None  # a Task inside
        store.put_value("x", value)
        assert store.get_value("x", WORKFLOWS_TYPES) is None
    finally:
        store.close()


def test_runs_keeping_memory_between_edits_give_uncached_findings_and_stay_bounded(tmp_path, monkeypatch):
    """A long-lived caller (the language server) keeps decoded state between runs
    (`cache.Memory`): each run after an edit must find what a run without any cache
    finds, and what is kept must not grow with the number of edits."""
    from delta_lint.cache import Memory
    from delta_lint.config import load_config
    from delta_lint.run import check

    project = tmp_path / "p"
    Corpus(60, seed=13).write(project)
    config = load_config(None, cwd=project)
    victim = sorted(project.rglob("*.sql"))[0]
    original = victim.read_text()
    memory = Memory()
    monkeypatch.setattr(Memory, "KEEP_FACTOR", 1)  # trimmed as soon as it holds more than a run uses
    monkeypatch.setattr(Memory, "KEEP_AT_LEAST", 1)
    sizes = []
    for i in range(8):
        edit = f"\nDELETE FROM main.bench_0.t00000 WHERE id = {i};\n" if i % 3 else ""
        victim.write_text(original + edit)
        kept = check([project], config, cwd=project, memory=memory, jobs=1)
        uncached = check([project], config, cwd=project, use_cache=False, jobs=1)
        assert kept.findings == uncached.findings, i
        sizes.append(sum(len(values) for values in memory.slots.values()))
    # the first run fills the database, the second the memory; every edit adds
    # a file and its tables, which the next trim drops
    assert max(sizes[2:]) <= sizes[1] + 8, sizes


def test_stored_states_of_another_delta_lint_code_are_dropped(tmp_path):
    """kv entries (parsed workflows, the kept project state) are read only by the code
    that wrote them: those another version left are dropped when this one stores."""
    import sqlite3

    (tmp_path / "a.sql").write_text("UPDATE main.s.t SET x = 1 WHERE id = 1;\n")
    (tmp_path / "b.sql").write_text("DELETE FROM main.s.t WHERE id = 2;\n")
    assert cli(tmp_path).returncode in (0, 1)
    db = sqlite3.connect(cache_file(tmp_path))
    ours = db.execute("SELECT COUNT(*) FROM kv").fetchone()[0]
    assert ours > 0
    with db:
        db.execute("INSERT INTO kv (key, value) VALUES (?, ?)", ("0" * 24 + ":project-state:old", b"x" * 1000))
    db.close()
    (tmp_path / "b.sql").write_text("DELETE FROM main.s.t WHERE id = 3;\n")  # a run that stores again
    assert cli(tmp_path).returncode in (0, 1)
    db = sqlite3.connect(cache_file(tmp_path))
    keys = [k for (k,) in db.execute("SELECT key FROM kv")]
    db.close()
    assert not any(k.startswith("0" * 24) for k in keys) and len(keys) >= ours
