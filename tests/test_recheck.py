"""A long-lived caller's runs (the language server keeps a `cache.Memory` per project)
re-check a project after an edit: the changed files are read again and only the
tables they write are judged again. Each run here is compared with a cold
`--no-cache` run of the same project and buffers: the findings must be the same,
whether the edit could be re-checked (one SQL file, its buffer or its disk content,
a table it writes, a suppression comment) or needed a full run (a helper other
files use, a table written for the first time, the configuration, the schedule,
a new file). The run's statistics tell which way each run went: a re-check takes
no file from the cache, it reads the edited files alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.cache import Memory
from delta_lint.config import load_config
from delta_lint.run import RunResult, check
from tests.test_warm_output import BUNDLE as WARM_BUNDLE
from tests.test_warm_output import write_project

# test_warm_output's project, with a second hourly task writing another table
BUNDLE = WARM_BUNDLE + "        - task_key: d\n          sql_task: {warehouse_id: w, file: {path: jobs/d.sql}}\n"
B = "UPDATE main.s.events SET x = 1 WHERE id = 7;\n"
A_PY = (
    "from pyspark.sql import SparkSession\n"
    "from lib.names import EVENTS\n"
    "from lib import writers\n"
    "spark = SparkSession.builder.getOrCreate()\n"
    "spark.sql(f\"DELETE FROM {EVENTS} WHERE d = '2024-01-01'\")\n"
)


def _project(root: Path) -> None:
    write_project(root)
    (root / "databricks.yml").write_text(BUNDLE)
    (root / "lib" / "writers.py").write_text(
        "def purge(spark):\n    spark.sql(\"DELETE FROM main.s.events WHERE d < '2020-01-01'\")\n"
    )
    (root / "jobs" / "a.py").write_text(A_PY)
    (root / "jobs" / "d.sql").write_text("DELETE FROM main.s.other WHERE id = 3;\n")


def _findings(result: RunResult) -> list:
    """Everything a finding shows, the statement sites of helper writes too."""
    return [(f, f.location.sites, [r.sites for r in f.related]) for f in result.findings]


def _outcome(result: RunResult) -> tuple:
    """The findings and what the findings stage and the reports take besides them."""
    return (_findings(result), result.n_files, result.n_intents, result.skipped, result.analysed, result.suppressions)


def _run(root: Path, memory: Memory, overlay: dict[Path, bytes] | None = None) -> RunResult:
    """The run a long-lived caller makes, after asserting a cold run finds the same."""
    config = load_config(None, cwd=root)  # read again every run, as the language server does
    kept = check([root], config, cwd=root, overlay=overlay, jobs=1, memory=memory)
    cold = check([root], load_config(None, cwd=root), cwd=root, overlay=overlay, jobs=1, use_cache=False)
    assert _outcome(kept) == _outcome(cold)
    return kept


def _rechecked(result: RunResult, files: int = 1) -> bool:
    """Whether the run re-checked its project: `files` files read, none from the cache."""
    return result.stats.files_from_cache == 0 and result.stats.files_analysed == files


BUFFER = "buffer"  # what an edit gives: the bytes of b.sql's buffer, or None (the disk changed)


@pytest.mark.parametrize(
    ("edit", "rechecked"),
    [
        ("statement", True),
        ("on disk", True),
        ("another table", True),
        ("suppression", True),
        ("unreadable statement", True),
        ("python buffer", True),
        ("python buffer exports", False),
        ("python buffer calls a helper", False),
        ("first writer of a table", False),
        ("helper", False),
        ("config", False),
        ("schedule", False),
        ("new file", False),
    ],
)
def test_a_run_after_an_edit_finds_what_a_cold_run_finds(tmp_path, edit, rechecked):
    root = tmp_path / "p"
    _project(root)
    memory = Memory()
    b = root / "jobs" / "b.sql"
    first = _run(root, memory, {b: B.encode()})
    assert first.findings and not _rechecked(first)
    overlay: dict[Path, bytes] = {}
    if edit == "statement":  # the partition column now: a different conflict with a.py
        overlay = {b: b"UPDATE main.s.events SET x = 1 WHERE d = '2024-01-01';\n"}
    elif edit == "on disk":
        b.write_text("-- saved\nUPDATE main.s.events SET x = 2 WHERE d = '2024-01-02';\n")
    elif edit == "another table":  # main.s.other is d.sql's: both tables are judged again
        overlay = {b: b"UPDATE main.s.other SET x = 1 WHERE id = 4;\n"}
    elif edit == "suppression":
        overlay = {b: b"-- delta-lint: ignore\n" + B.encode()}
    elif edit == "unreadable statement":  # a diagnostic of its own; the table keeps its other writers
        overlay = {b: b"UPDATE main.s.events SET x = WHERE (;\n"}
    elif edit == "python buffer":  # read again with the value its import gives it (its context)
        overlay = {root / "jobs" / "a.py": A_PY.replace("d = '2024-01-01'", "id = 5").encode()}
    elif edit == "python buffer calls a helper":  # its words now name a helper it was not given: a full run
        overlay = {root / "jobs" / "a.py": (A_PY + "writers.purge(spark)\n").encode()}
    elif edit == "python buffer exports":  # a value other files could import: what it gives them changed
        overlay = {root / "jobs" / "a.py": (A_PY.replace("d = '2024-01-01'", "id = 5") + 'SHARED = "x"\n').encode()}
    elif edit == "first writer of a table":  # its settings are read anew: a full run
        overlay = {b: b"UPDATE main.s.fresh SET x = 1 WHERE id = 4;\n"}
    elif edit == "helper":  # a.py's table comes from the helper module
        (root / "lib" / "names.py").write_text('EVENTS = "main.s.other"\nOTHER = "main.s.events"\n')
    elif edit == "config":
        (root / "delta-lint.yaml").write_text("spark: none\ntables:\n  main.s.events: {partitioned_by: [id]}\n")
    elif edit == "schedule":  # c and d join the nightly job
        (root / "databricks.yml").write_text(
            BUNDLE.replace("    hourly:\n", "").replace("tasks:\n        - task_key: c", "        - task_key: c")
        )
    elif edit == "new file":  # no job runs it: a statement it cannot read is what it changes
        (root / "jobs" / "e.sql").write_text("UPDATE main.s.events SET x = WHERE (;\n")
    after = _run(root, memory, overlay or None)
    assert _rechecked(after) == rechecked, after.stats
    assert _findings(after) != _findings(first), f"the {edit} edit must change the findings"
    again = _run(root, memory, overlay or None)  # nothing changed since
    assert _findings(again) == _findings(after)


def test_a_buffer_no_longer_sent_is_read_from_disk_again(tmp_path):
    """An editor's runs send the buffer of the file saved: the file an earlier run
    read from its buffer is read from disk when another file's buffer is sent."""
    root = tmp_path / "p"
    _project(root)
    memory = Memory()
    b, d = root / "jobs" / "b.sql", root / "jobs" / "d.sql"
    _run(root, memory)
    edited = _run(root, memory, {b: b"UPDATE main.s.other SET x = 1 WHERE id = 4;\n"})
    assert _rechecked(edited)
    other = _run(root, memory, {d: b"-- only a comment\nDELETE FROM main.s.other WHERE id = 3;\n"})
    assert _rechecked(other, files=2), other.stats  # d's buffer, and b as on disk
    assert not any(f.location.path == "jobs/b.sql" and f.table == "main.s.other" for f in other.findings)


def test_a_file_named_beside_the_project_shares_its_kept_state(tmp_path):
    """The language server names the saved file and the project's folder: saves of
    different files of one project re-check one kept state."""
    root = tmp_path / "p"
    _project(root)
    memory = Memory()
    config = load_config(None, cwd=root)
    for name in ("b.sql", "c.sql", "b.sql"):
        path = root / "jobs" / name
        kept = check([path, root], config, cwd=root, overlay={path: path.read_bytes() + b"-- edited\n"}, memory=memory)
        cold = check(
            [path, root], config, cwd=root, overlay={path: path.read_bytes() + b"-- edited\n"}, use_cache=False
        )
        assert _outcome(kept) == _outcome(cold)
    assert _rechecked(kept, files=2)  # b's buffer, and c as on disk


def test_a_memory_keeps_one_project_state(tmp_path):
    """A changed configuration makes a new kept state (its runs differ): the one it
    replaces is dropped, not kept beside it (each holds a large project's state)."""
    root = tmp_path / "p"
    _project(root)
    memory = Memory()
    _run(root, memory)
    for partitions in ("[id]", "[x]", "[y]"):  # each new: no stored run answers it
        (root / "delta-lint.yaml").write_text(
            f"spark: none\ntables:\n  main.s.events: {{partitioned_by: {partitions}}}\n"
        )
        _run(root, memory)
        assert len(memory.slots["projects"]) == 1
    again = _run(root, memory, {root / "jobs" / "b.sql": b"-- edited\n" + B.encode()})
    assert _rechecked(again)


def test_a_recheck_leaves_the_tables_it_did_not_judge_in_memory(tmp_path, monkeypatch):
    """A re-check takes the tables it does not judge again from its own state; the
    memory must still hold them afterwards, or the next full run (after an edit a
    re-check cannot take) decodes every table's findings from the database again."""
    monkeypatch.setattr(Memory, "KEEP_FACTOR", 1)  # trimmed as soon as it holds more than a run uses
    monkeypatch.setattr(Memory, "KEEP_AT_LEAST", 1)
    root = tmp_path / "p"
    _project(root)
    memory = Memory()
    first = _run(root, memory)
    tables = set(memory.slots["tables.value"])
    assert len(tables) >= 2 and first.stats.tables_judged == len(tables)
    edited = _run(root, memory, {root / "jobs" / "d.sql": b"-- edited\nDELETE FROM main.s.other WHERE id = 3;\n"})
    assert _rechecked(edited) and edited.stats.tables_judged == 1
    assert len(tables & set(memory.slots["tables.value"])) == len(tables) - 1  # all but the table judged again
