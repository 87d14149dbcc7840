"""A warm or incremental run prints, byte for byte, what a cold run prints.

A run whose inputs equal an earlier run's gives back the earlier output (kept per
way of calling: format, options, terminal); a run after an edit re-reads what the
edit touched. Each step below compares the CLI's output and exit code with the
cache (twice: the second run takes the kept output) against `--no-cache`, for
the edits that reach findings by different roads: a file of the project, a helper
other files use, the configuration, the schedule.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

FORMATS = (("--format", "text"), ("--format", "json"), ("--format", "concise"), ("--format", "sarif"))

BUNDLE = """bundle: {name: x}
resources:
  jobs:
    nightly:
      schedule: {quartz_cron_expression: '0 0 1 * * ?', timezone_id: UTC}
      tasks:
        - task_key: a
          spark_python_task: {python_file: jobs/a.py}
        - task_key: b
          depends_on: [{task_key: a}]
          sql_task: {warehouse_id: w, file: {path: jobs/b.sql}}
    hourly:
      schedule: {quartz_cron_expression: '0 0 * * * ?', timezone_id: UTC}
      tasks:
        - task_key: c
          sql_task: {warehouse_id: w, file: {path: jobs/c.sql}}
"""


def write_project(root: Path) -> None:
    """Two jobs writing main.s.events: nightly runs a.py (its table from lib/names.py)
    then b.sql, hourly runs c.sql."""
    (root / "jobs").mkdir(parents=True)
    (root / "lib").mkdir()
    (root / "delta-lint.yaml").write_text("spark: none\ntables:\n  main.s.events: {partitioned_by: [d]}\n")
    (root / "databricks.yml").write_text(BUNDLE)
    (root / "lib" / "__init__.py").write_text("")
    (root / "lib" / "names.py").write_text('EVENTS = "main.s.events"\nOTHER = "main.s.other"\n')
    (root / "jobs" / "__init__.py").write_text("")
    (root / "jobs" / "a.py").write_text(
        "from pyspark.sql import SparkSession\n"
        "from lib.names import EVENTS\n"
        "spark = SparkSession.builder.getOrCreate()\n"
        "spark.sql(f\"DELETE FROM {EVENTS} WHERE d = '2024-01-01'\")\n"
    )
    (root / "jobs" / "b.sql").write_text("UPDATE main.s.events SET x = 1 WHERE id = 7;\n")
    (root / "jobs" / "c.sql").write_text(
        "MERGE INTO main.s.events t USING main.s.src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;\n"
    )


def _same_as_cold(root: Path) -> dict[tuple[str, ...], str]:
    """Every format's output, after asserting the cached runs print what a cold run prints."""
    out = {}
    for fmt in FORMATS:
        cold = run_cli("check", ".", *fmt, "--no-cache", cwd=root)
        first = run_cli("check", ".", *fmt, cwd=root)  # judges what changed, keeps its output
        again = run_cli("check", ".", *fmt, cwd=root)  # nothing changed: the kept output
        assert cold.returncode in (0, 1), cold.stderr
        assert (first.returncode, first.stdout) == (cold.returncode, cold.stdout), fmt
        assert (again.returncode, again.stdout) == (cold.returncode, cold.stdout), fmt
        out[fmt] = cold.stdout
    return out


def _tables(output: dict[tuple[str, ...], str]) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["table"] or "") for f in json.loads(output[("--format", "json")])["findings"])


@pytest.mark.parametrize(
    "edit",
    ["nothing", "one file", "helper", "config", "schedule", "task file deleted", "task file added"],
)
def test_cached_runs_print_what_a_cold_run_prints_after_each_kind_of_edit(tmp_path, edit):
    root = tmp_path / "p"
    write_project(root)
    c_sql = root / "jobs" / "c.sql"
    kept = c_sql.read_text()
    if edit == "task file added":  # the bundle names c.sql before it exists
        c_sql.unlink()
    before = _same_as_cold(root)
    assert _tables(before), "the project must have findings for the comparison to mean anything"
    if edit == "one file":
        (root / "jobs" / "b.sql").write_text("UPDATE main.s.events SET x = 1 WHERE d = '2024-01-01';\n")
    elif edit == "helper":  # a.py's table comes from the helper module
        (root / "lib" / "names.py").write_text('EVENTS = "main.s.other"\nOTHER = "main.s.events"\n')
    elif edit == "task file deleted":  # the bundle is unchanged; the task's file is gone
        c_sql.unlink()
    elif edit == "task file added":
        c_sql.write_text(kept)
    elif edit == "config":
        (root / "delta-lint.yaml").write_text("spark: none\ntables:\n  main.s.events: {partitioned_by: [id]}\n")
    elif edit == "schedule":  # c joins the nightly job after b: nothing of it runs hourly any more
        bundle = root / "databricks.yml"
        text = bundle.read_text().replace(
            "    hourly:\n      schedule: {quartz_cron_expression: '0 0 * * * ?', timezone_id: UTC}\n      tasks:\n", ""
        )
        bundle.write_text(
            text.replace(
                "          sql_task: {warehouse_id: w, file: {path: jobs/c.sql}}\n",
                "          depends_on: [{task_key: b}]\n          sql_task: {warehouse_id: w, file: {path: jobs/c.sql}}\n",
            )
        )
    after = _same_as_cold(root)
    if edit == "nothing":
        assert after == before
    else:
        assert after != before, f"the {edit} edit must change the findings"


def test_switching_the_bundle_target_is_never_answered_from_the_other_targets_run(tmp_path):
    """Two targets of one bundle read the same files into different schedules (here a
    production target where both jobs run at 01:00, a development one where schedules
    are paused): the cached run and the tables' cached results of one target must not
    answer the other."""
    root = tmp_path / "p"
    (root / "jobs").mkdir(parents=True)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    (root / "jobs" / "a.sql").write_text("DELETE FROM main.s.t WHERE id = 1;\n")
    (root / "jobs" / "b.sql").write_text("UPDATE main.s.t SET x = 1 WHERE id = 2;\n")
    jobs = "".join(
        f"    j{n}:\n      schedule: {{quartz_cron_expression: '0 0 1 * * ?', timezone_id: UTC}}\n"
        f"      tasks:\n        - task_key: {n}\n          sql_task: {{warehouse_id: w, file: {{path: jobs/{n}.sql}}}}\n"
        for n in ("a", "b")
    )
    (root / "databricks.yml").write_text(
        "bundle: {name: x}\nresources:\n  jobs:\n" + jobs + "targets:\n  dev: {mode: development, default: true}\n"
        "  prod: {mode: production}\n"
    )
    seen = {}
    for target in ("dev", "prod", "dev", "prod"):
        cold = run_cli("check", ".", "--target", target, "--format", "json", "--no-cache", cwd=root)
        cached = run_cli("check", ".", "--target", target, "--format", "json", cwd=root)
        assert (cached.returncode, cached.stdout) == (cold.returncode, cold.stdout), target
        seen[target] = cold.stdout
    assert seen["dev"] != seen["prod"]  # the near miss: the targets do differ


def test_an_unchanged_run_says_the_stored_runs_warnings_again(tmp_path, monkeypatch):
    """A run's warnings (a Spark engine that could not start, settings taken from
    elsewhere instead) go to standard error; a later unchanged run, answered from
    what the first one printed, must say them again, as the first did."""
    import delta_lint.settings.live as live

    real = live.read_settings

    def read_settings(*args, **kwargs):
        read = real(*args, **kwargs)
        read.warnings.append("the engine did not start; using declared settings instead")
        return read

    monkeypatch.setattr(live, "read_settings", read_settings)
    root = tmp_path / "p"
    write_project(root)
    first = run_cli("check", ".", cwd=root)
    again = run_cli("check", ".", cwd=root)
    assert "using declared settings instead" in first.stderr
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)


# a new process's `check`: the modules it imported of these, then what it printed
_NEW_PROCESS = (
    "import sys\nfrom delta_lint.cli import app\nsys.argv = ['delta-lint', 'check', '.', '--format', 'json']\n"
    "try:\n    app()\nexcept SystemExit:\n    pass\nsys.stdout.flush()\n"
    "print('MODULES', sorted(m for m in {names!r} if m in sys.modules), file=sys.stderr)\n"
)


def _new_process(root: Path, names: tuple[str, ...]) -> tuple[list[str], str]:
    code = _NEW_PROCESS.format(names=names)
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    return eval(line.removeprefix("MODULES "), {}), proc.stdout  # noqa: S307 - a list of our own names


def test_an_unchanged_project_is_answered_without_asking_its_bundle_again(tmp_path):
    """With nothing changed, a new process tells so from one walk of the project's
    folders against the walk the last run kept: it prints the kept output without
    asking the bundle's listings again (every task's file looked for, the project
    walked for Airflow DAGs and job files), so the bundle reader is not imported.
    The near miss: a file added to a folder is seen, the listings are asked again,
    and the output is a cold run's."""
    root = tmp_path / "p"
    write_project(root)
    cold = run_cli("check", ".", "--format", "json", "--no-cache", cwd=root)
    imported, first = _new_process(root, ("delta_lint.bundle",))
    assert (imported, first) == (["delta_lint.bundle"], cold.stdout)
    # the second run asks the listings once more, keeping what they found in each file
    # by its stat (`bundle.FileTests`) for a later run that must ask them
    imported, printed = _new_process(root, ("delta_lint.bundle",))
    assert (imported, printed) == (["delta_lint.bundle"], first)
    imported, printed = _new_process(root, ("delta_lint.bundle",))
    assert (imported, printed) == ([], first)
    (root / "jobs" / "e.sql").write_text("DELETE FROM main.s.events WHERE id = 3;\n")
    cold = run_cli("check", ".", "--format", "json", "--no-cache", cwd=root)
    imported, printed = _new_process(root, ("delta_lint.bundle",))
    assert (imported, printed) == (["delta_lint.bundle"], cold.stdout)
    assert printed != first


@pytest.mark.parametrize("edit", ["same size and times", "folder added", "hidden folder", "include outside"])
def test_an_unchanged_run_is_told_from_the_walk_only_when_nothing_it_read_changed(tmp_path, edit):
    """What the walk of the project must see, or leave to the listings asked again:
    a file rewritten to the same size with its modification time put back (its
    change time moved); a new folder with a file that writes the table; a file in
    a hidden folder (no reader looks there: the output is the kept one); a bundle
    include outside the project gaining a job (the walk cannot vouch for a folder
    it does not walk). Each run a fresh `check` with the cache, against a cold one."""
    import os

    root = tmp_path / "p"
    write_project(root)
    if edit == "include outside":
        (tmp_path / "shared").mkdir()
        (root / "databricks.yml").write_text(
            BUNDLE.replace("bundle: {name: x}\n", "bundle: {name: x}\ninclude: ['../shared/*.yml']\n")
        )
    before = _same_as_cold(root)
    b_sql = root / "jobs" / "b.sql"
    if edit == "same size and times":
        st = b_sql.stat()
        b_sql.write_text(b_sql.read_text().replace("id = 7", "d = 77"))  # as long, another conflict
        assert b_sql.stat().st_size == st.st_size
        os.utime(b_sql, ns=(st.st_atime_ns, st.st_mtime_ns))
    elif edit == "folder added":
        (root / "jobs" / "more").mkdir()
        (root / "jobs" / "more" / "e.sql").write_text("DELETE FROM main.s.events WHERE d = '2024-01-01';\n")
        (root / "databricks.yml").write_text(
            BUNDLE + "        - task_key: e\n          sql_task: {warehouse_id: w, file: {path: jobs/more/e.sql}}\n"
        )
    elif edit == "hidden folder":
        (root / ".cache").mkdir()
        (root / ".cache" / "e.sql").write_text("DELETE FROM main.s.events WHERE id = 3;\n")
    elif edit == "include outside":
        (tmp_path / "shared" / "more.yml").write_text(
            "resources:\n  jobs:\n    extra:\n      schedule: {quartz_cron_expression: '0 0 1 * * ?', timezone_id: UTC}\n"
            "      tasks:\n        - task_key: b2\n          sql_task: {warehouse_id: w, file: {path: ../p/jobs/b.sql}}\n"
        )
    after = _same_as_cold(root)
    if edit == "hidden folder":
        assert after == before
    else:
        assert after != before, f"the {edit} edit must change the output"


@pytest.mark.parametrize("edit", [None, "c.sql rewritten"])
def test_a_run_of_other_named_files_is_never_answered_from_the_last_ones(tmp_path, edit):
    """Without a configuration file, `check jobs/b.sql jobs/c.sql` and `check
    jobs/b.sql` check different files of the same folders: the second must print
    its own findings, not the kept output (or the kept files) of the first, with or
    without an edit between them."""
    root = tmp_path / "p"
    write_project(root)
    (root / "delta-lint.yaml").unlink()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    both = ("jobs/b.sql", "jobs/c.sql")
    for _ in range(3):  # the third run is answered from the walk
        run_cli("check", *both, "--format", "concise", cwd=root)
    if edit:
        (root / "jobs" / "c.sql").write_text("DELETE FROM main.s.events WHERE id = 9;\n")
    cold = run_cli("check", "jobs/b.sql", "--format", "concise", "--no-cache", cwd=root)
    for _ in range(2):
        warm = run_cli("check", "jobs/b.sql", "--format", "concise", cwd=root)
        assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
    assert cold.returncode == 0, cold.stdout  # one file alone: nothing to conflict with
