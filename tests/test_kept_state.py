"""A new process re-checks a project from the state the last run stored in the
cache: the files changed since are read again, the tables they write judged
again, the rest of the result taken from the state. Each run here is a fresh
`check` without a long-lived caller's memory (as every `delta-lint check` process
is), compared with a cold `--no-cache` run: the findings must be the same after
each kind of edit, whether the state could answer it (a SQL file's statement) or
the run had to be a full one (a helper, the configuration, the schedule, the
bundle target, a file deleted or added). The run's statistics tell which way
each run went: a re-check takes no file from the cache, it reads the edited file
alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.config import load_config
from delta_lint.run import RunResult, check
from tests.conftest import run_cli
from tests.test_recheck import A_PY, BUNDLE, _outcome, _project, _rechecked


def _run(root: Path, target: str | None = None) -> RunResult:
    """A new process's run, after asserting a cold run finds the same."""
    kept = check([root], load_config(None, cwd=root), cwd=root, jobs=1, target=target)
    cold = check([root], load_config(None, cwd=root), cwd=root, jobs=1, target=target, use_cache=False)
    assert _outcome(kept) == _outcome(cold)
    return kept


def _edit_b(root: Path, where: str) -> None:
    (root / "jobs" / "b.sql").write_text(f"UPDATE main.s.events SET x = 1 WHERE {where};\n")


@pytest.mark.parametrize(
    ("edit", "rechecked"),
    [
        ("statement", True),
        ("comment", True),
        ("python file", True),
        ("python file exports", False),
        ("helper", False),
        ("config", False),
        ("schedule", False),
        ("deleted file", False),
        ("new file", False),
    ],
)
def test_a_new_process_after_an_edit_finds_what_a_cold_run_finds(tmp_path, edit, rechecked):
    root = tmp_path / "p"
    _project(root)
    unread = root / "jobs" / "e.sql"  # no job runs it: a statement it cannot read is what it gives
    if edit == "deleted file":
        unread.write_text("UPDATE main.s.events SET x = WHERE (;\n")
    first = _run(root)
    assert first.findings and not _rechecked(first)
    if edit == "statement":  # the partition column now: a different conflict with a.py
        _edit_b(root, "d = '2024-01-01'")
    elif edit == "comment":  # the near miss: new content, the same findings
        (root / "jobs" / "b.sql").write_text((root / "jobs" / "b.sql").read_text() + "-- saved again\n")
    elif edit == "python file":  # read again with the value its import gives it; the listings asked again
        (root / "jobs" / "a.py").write_text(A_PY.replace("d = '2024-01-01'", "id = 5"))
    elif edit == "python file exports":  # a value other files could import: what it gives them changed
        (root / "jobs" / "a.py").write_text(A_PY.replace("d = '2024-01-01'", "id = 5") + 'SHARED = "x"\n')
    elif edit == "helper":  # a.py's table comes from the helper module
        (root / "lib" / "names.py").write_text('EVENTS = "main.s.other"\nOTHER = "main.s.events"\n')
    elif edit == "config":
        (root / "delta-lint.yaml").write_text("spark: none\ntables:\n  main.s.events: {partitioned_by: [id]}\n")
    elif edit == "schedule":  # c and d join the nightly job
        (root / "databricks.yml").write_text(
            BUNDLE.replace("    hourly:\n", "").replace("tasks:\n        - task_key: c", "        - task_key: c")
        )
    elif edit == "deleted file":
        unread.unlink()
    elif edit == "new file":
        unread.write_text("UPDATE main.s.events SET x = WHERE (;\n")
    after = _run(root)
    assert _rechecked(after) == rechecked, after.stats
    if edit == "comment":
        assert _outcome(after) == _outcome(first)
    else:
        assert _outcome(after) != _outcome(first), f"the {edit} edit must change the findings"
    _edit_b(root, "d = '2024-01-02'")  # and the state the run stored answers the next edit
    again = _run(root)
    assert _rechecked(again), again.stats


def test_each_bundle_target_keeps_a_state_of_its_own(tmp_path):
    """Two targets read the same files into different schedules: an edit checked
    under one target, then under the other, is re-checked from each one's state
    and finds what a cold run of that target finds."""
    root = tmp_path / "p"
    _project(root)
    (root / "databricks.yml").write_text(
        BUNDLE + "targets:\n  dev: {mode: development, default: true}\n  prod: {mode: production}\n"
    )
    for target in ("dev", "prod"):
        _run(root, target)
    outcomes = {}
    for target in ("dev", "prod"):
        _edit_b(root, f"d = '{target}'")
        outcomes[target] = _run(root, target)
        assert _rechecked(outcomes[target]), outcomes[target].stats
    assert _outcome(outcomes["dev"]) != _outcome(outcomes["prod"])  # the targets do differ


def test_the_command_line_prints_what_a_cold_run_prints_after_a_recheck(tmp_path):
    """The CLI, each run a new `check`: a re-checked run's output and exit code are
    byte for byte a cold run's, in every format, and the next unchanged run prints
    them again from what the re-checked run kept."""
    root = tmp_path / "p"
    _project(root)
    formats = (("--format", "text"), ("--format", "json"), ("--format", "sarif"), ("--format", "concise"))
    run_cli("check", ".", "--format", "json", cwd=root)
    for n, fmt in enumerate(formats):
        _edit_b(root, f"d = '2024-01-0{n + 1}'")
        cold = run_cli("check", ".", *fmt, "--no-cache", cwd=root)
        first = run_cli("check", ".", *fmt, "--show-stats", cwd=root)
        assert "files from cache    0\n" in first.stderr and "files analysed      1\n" in first.stderr, first.stderr
        kept = run_cli("check", ".", *fmt, cwd=root)
        again = run_cli("check", ".", *fmt, cwd=root)
        assert cold.returncode == 1, cold.stderr
        assert (first.returncode, first.stdout) == (cold.returncode, cold.stdout), fmt
        assert (kept.returncode, kept.stdout) == (cold.returncode, cold.stdout), fmt
        assert (again.returncode, again.stdout) == (cold.returncode, cold.stdout), fmt


@pytest.mark.parametrize("suppression", [False, True])
def test_a_state_whose_summaries_the_cache_lost_gives_a_full_run(tmp_path, suppression):
    """The state names each file's summary in the cache's files table; when another
    run bounded the table meanwhile, the re-check that needs them cannot be made:
    the run is a full one and finds what a cold run finds. (A file with a
    suppression comment has its summary read as the state is restored.)"""
    import sqlite3

    from tests.test_cache_and_speed import cache_file

    root = tmp_path / "p"
    _project(root)
    if suppression:
        d = root / "jobs" / "d.sql"
        d.write_text("-- delta-lint: ignore DL102\n" + d.read_text())
    _run(root)
    _edit_b(root, "d = '2024-01-01'")
    with sqlite3.connect(cache_file(root)) as db:
        db.execute("DELETE FROM files")
    after = _run(root)
    assert not _rechecked(after) and after.stats.files_analysed >= after.stats.files, after.stats
    _edit_b(root, "d = '2024-01-02'")
    assert _rechecked(_run(root))  # the full run stored a state of its own


def test_a_python_file_that_becomes_an_airflow_dag_is_not_rechecked(tmp_path):
    """A Python file's content decides whether it is an Airflow DAG (a listing the
    schedule depends on): an edit that makes it one changes what the listings
    answer, and the run reads the schedule again instead of re-checking the file."""
    root = tmp_path / "p"
    _project(root)
    _run(root)
    (root / "jobs" / "a.py").write_text(
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator\n" + A_PY
    )
    after = _run(root)
    assert not _rechecked(after), after.stats
    _edit_b(root, "d = '2024-01-02'")
    assert _rechecked(_run(root))


def test_notebooks_a_thread_pool_runs_keep_overlapping_after_a_recheck(tmp_path):
    """Which notebooks a thread pool's calls run at once is part of the schedule the
    state restores: re-checking one of those notebooks judges its table with the
    pool's overlap, as a cold run does."""
    from tests.test_link import NB
    from tests.test_self_overlap import CHILD_UPDATE, RUN_EACH

    root = tmp_path / "p"
    (root / "jobs").mkdir(parents=True)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    for child in ("a", "b"):
        (root / "jobs" / f"{child}.py").write_text(CHILD_UPDATE)
    (root / "jobs" / "parent.py").write_text(NB + RUN_EACH.replace("ITEMS", '["./a", "./b"]'))
    first = _run(root)
    assert any("thread pool" in f.overlap for f in first.findings), first.findings
    (root / "jobs" / "a.py").write_text(CHILD_UPDATE.replace(NB, NB + "# edited: the write a line lower\n", 1))
    after = _run(root)
    assert _rechecked(after), after.stats
    assert any("thread pool" in f.overlap for f in after.findings)
    assert _outcome(after) != _outcome(first)


def test_a_notebook_read_with_what_its_run_gives_is_rechecked_with_it(tmp_path):
    """A notebook that `%run`s a setup notebook is read with the values it defines
    (its context, kept in the state): edited, it is re-read with that context in a
    new process and finds what a cold run finds; the setup notebook edited gives
    others other values, a full run."""
    from tests.test_link import NB, SEP

    root = tmp_path / "p"
    (root / "jobs").mkdir(parents=True)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    (root / "jobs" / "setup.py").write_text(NB + "catalog = 'main'\nschema = 's'\n")
    load = NB + "# MAGIC %run ./setup\n" + SEP + 'spark.sql(f"DELETE FROM {catalog}.{schema}.events WHERE id = 1")\n'
    (root / "jobs" / "load.py").write_text(load)
    (root / "jobs" / "b.sql").write_text("UPDATE main.s.events SET x = 1 WHERE id = 2;\n")
    first = _run(root)
    assert _meets_load(first)
    (root / "jobs" / "load.py").write_text(load.replace(SEP, SEP + "# the write a line lower\n"))
    after = _run(root)
    assert _rechecked(after), after.stats
    assert _outcome(after) != _outcome(first)
    (root / "jobs" / "setup.py").write_text(NB + "catalog = 'main'\nschema = 'other'\n")
    again = _run(root)
    assert not _rechecked(again), again.stats
    assert not _meets_load(again)  # load.py writes main.other.events now


def _meets_load(result: RunResult) -> bool:
    """Whether a finding on main.s.events involves load.py's write."""
    return any(
        f.table == "main.s.events" and "jobs/load.py" in {f.location.path, *(r.path for r in f.related)}
        for f in result.findings
    )


# two more tables whose writers run at once: their findings are the lines a re-check
# of an edit elsewhere copies from the last output
THIRD = (
    "        - task_key: x\n          sql_task: {warehouse_id: w, file: {path: jobs/x.sql}}\n"
    "        - task_key: y\n          sql_task: {warehouse_id: w, file: {path: jobs/y.sql}}\n"
)


def _wider_project(root: Path) -> None:
    _project(root)
    (root / "databricks.yml").write_text(BUNDLE + THIRD)
    (root / "jobs" / "x.sql").write_text(
        "UPDATE main.s.third SET x = 1 WHERE id = 1;\nDELETE FROM main.s.fourth WHERE id = 2;\n"
    )
    (root / "jobs" / "y.sql").write_text(
        "MERGE INTO main.s.third t USING main.s.src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;\n"
        "UPDATE main.s.fourth SET x = 2 WHERE id = 3;\n"
    )


def _same_json_as_cold(root: Path, fmt: str = "json") -> str:
    """A new `check`'s output in `fmt` and its exit code, after asserting they are a
    cold run's."""
    cold = run_cli("check", ".", "--format", fmt, "--no-cache", cwd=root)
    kept = run_cli("check", ".", "--format", fmt, cwd=root)
    assert cold.returncode == 1, cold.stderr
    assert (kept.returncode, kept.stdout) == (cold.returncode, cold.stdout)
    return kept.stdout


EDITS = (
    "statement",
    "comment",
    "no finding left",
    "another table",
    "python file",
    "helper",
    "config",
    "new file",
    "suppression added",
    "suppression left unused",
    "suppression elsewhere",
    "unused suppression beside",
    "suppression now used",
)


@pytest.mark.parametrize(
    ("edit", "fmt"),
    [(edit, "json") for edit in EDITS]
    + [(edit, "json-lines") for edit in ("statement", "no finding left", "another table", "suppression now used")],
)
def test_a_json_output_patched_from_the_kept_one_is_what_a_cold_run_prints(tmp_path, edit, fmt):
    """The JSON (and JSON lines) output of a re-check in a new process is the last
    run's with the lines of the tables judged again rendered anew (`patch`): byte
    for byte a cold run's output and exit code after each kind of edit, those the
    patch takes and those it refuses (a full render), and again after the next
    edit, patched from the output the patched run kept."""
    root = tmp_path / "p"
    _wider_project(root)
    if edit == "suppression elsewhere":  # an unused one: its note is copied too
        (root / "jobs" / "x.sql").write_text("-- delta-lint: ignore[DL104]\n" + (root / "jobs" / "x.sql").read_text())
    b = root / "jobs" / "b.sql"
    if edit == "suppression left unused":  # used by b's findings until b writes no more
        b.write_text("-- delta-lint: ignore\n" + b.read_text())
    elif edit == "suppression now used":  # the same comment, unused until b's new statement
        b.write_text("-- delta-lint: ignore[DL106]\n" + b.read_text())
    elif edit == "unused suppression beside":  # in a file of the table judged again: it stays unused
        c = root / "jobs" / "c.sql"
        c.write_text("-- delta-lint: ignore[DL130]\n" + c.read_text())
    first = _same_json_as_cold(root, fmt)
    assert '"table": "main.s.third"' in first and '"table": "main.s.events"' in first
    if edit in ("statement", "suppression elsewhere", "unused suppression beside"):
        _edit_b(root, "d = '2024-01-01'")
    elif edit == "comment":
        b.write_text(b.read_text() + "-- saved again\n")
    elif edit == "no finding left":
        b.write_text("SELECT 1;\n")
    elif edit == "another table":  # b now writes main.s.third as well: both tables judged again
        b.write_text(b.read_text() + "DELETE FROM main.s.third WHERE id = 9;\n")
    elif edit == "python file":
        (root / "jobs" / "a.py").write_text(A_PY.replace("d = '2024-01-01'", "id = 5"))
    elif edit == "helper":
        (root / "lib" / "names.py").write_text('EVENTS = "main.s.other"\nOTHER = "main.s.events"\n')
    elif edit == "config":
        (root / "delta-lint.yaml").write_text("spark: none\ntables:\n  main.s.events: {partitioned_by: [id]}\n")
    elif edit == "new file":
        (root / "jobs" / "e.sql").write_text("UPDATE main.s.events SET x = WHERE (;\n")
    elif edit == "suppression added":
        b.write_text("-- delta-lint: ignore\n" + b.read_text())
    elif edit == "suppression left unused":  # the same comment: its note is new
        b.write_text("-- delta-lint: ignore\nSELECT 1;\n")
    elif edit == "suppression now used":  # an OPTIMIZE the comment suppresses: its note goes
        b.write_text("-- delta-lint: ignore[DL106]\nOPTIMIZE main.s.events;\n")
    after = _same_json_as_cold(root, fmt)
    if edit == "comment":
        assert after == first
    else:
        assert after != first, f"the {edit} edit must change the output"
    _edit_b(root, "d = '2024-01-02'")  # the output the run kept is patched in turn
    _same_json_as_cold(root, fmt)


def test_an_output_kept_by_another_run_since_the_state_is_not_patched(tmp_path):
    """An edit taken back is answered by the run stored before it (the runs table):
    the output kept for the view is then that run's, not the one the state's index
    describes. The next re-check renders in full, and prints a cold run's output."""
    root = tmp_path / "p"
    _wider_project(root)
    b = root / "jobs" / "b.sql"
    original = b.read_text()
    first = _same_json_as_cold(root)
    _edit_b(root, "d = '2024-01-01'")
    edited = _same_json_as_cold(root)  # patched; the state names this run
    b.write_text(original)
    assert _same_json_as_cold(root) == first  # the first run's findings, from the runs table
    _edit_b(root, "d = '2024-01-01'")
    assert _same_json_as_cold(root) == edited


def test_outputs_patched_one_after_another_and_the_unchanged_run_after_them_are_cold_runs(tmp_path):
    """A patched output is kept as pieces of the output last kept whole: each re-check
    in turn patches the one before it, and an unchanged run after them prints the
    last from those pieces. Every output, byte for byte, is a cold run's; so is the
    first output again once its edit is taken back (kept whole: another run's)."""
    import sqlite3

    from tests.test_cache_and_speed import cache_file

    root = tmp_path / "p"
    _wider_project(root)
    for name in ("x", "y"):  # more tables with findings: an edit of b changes a few lines of many
        more = "".join(f"UPDATE main.s.more{n} SET x = 1 WHERE id = {n};\n" for n in range(12))
        (root / "jobs" / f"{name}.sql").write_text((root / "jobs" / f"{name}.sql").read_text() + more)
    b = root / "jobs" / "b.sql"
    original = b.read_text()
    first = _same_json_as_cold(root)
    outputs = [first]
    for edit in ("partition", "another table", "no finding left"):
        if edit == "partition":
            _edit_b(root, "d = '2024-01-01'")
        elif edit == "another table":
            b.write_text(b.read_text() + "DELETE FROM main.s.third WHERE id = 9;\n")
        else:
            b.write_text("SELECT 1;\n")
        outputs.append(_same_json_as_cold(root))
        assert outputs[-1] != outputs[-2], f"the {edit} edit must change the output"
        assert _same_json_as_cold(root) == outputs[-1]  # unchanged: the kept pieces
        with sqlite3.connect(cache_file(root)) as db:
            assert db.execute("SELECT COUNT(*) FROM kv WHERE key LIKE '%:output-delta:%'").fetchone()[0] == 1
    b.write_text(original)
    assert _same_json_as_cold(root) == first
