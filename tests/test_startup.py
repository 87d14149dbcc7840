"""Start-up: a run imports only what its command and its inputs need.

Measured in a fresh interpreter (a subprocess), since `sys.modules` of the test
process holds everything the other tests imported. Times are ratios to importing
`json` and `typer` in the same process, never seconds: the machine may be slow or
shared, the ratio of two imports in one process is what moves when delta-lint's
own import graph grows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# readers and front ends a SQL-only check with `--spark none` has no use for
NOT_FOR_SQL = (
    "hcl2",
    "pyspark",
    "delta_lint.airflow",
    "delta_lint.adf",
    "delta_lint.dbt",
    "delta_lint.terraform",
    "delta_lint.frontend.dbt",
    "delta_lint.frontend.values.evaluator",
    "delta_lint.frontend.python",
    "delta_lint.formats_ci",
    "delta_lint.advise",
    # RE2 for globs, SQL scripting, and TOML for pyproject entry points: loaded by the
    # first glob, script or pyproject.toml a run meets
    "re2",
    "delta_lint.frontend.sqlscript",
    "tomllib",
)

_CHECK = (
    "import sys, json, typer\n"
    "from delta_lint.cli import app\n"
    "sys.argv = ['delta-lint', 'check', '--spark', 'none', '--no-cache', '.']\n"
    "try:\n    app()\nexcept SystemExit:\n    pass\n"
    "print('MODULES', sorted(m for m in {names!r} if m in sys.modules), file=sys.stderr)\n"
)


def _sql_project(root: Path) -> None:
    (root / "a.sql").write_text("MERGE INTO s.t USING s.u ON t.id = u.id WHEN MATCHED THEN UPDATE SET *;\n")
    (root / "b.sql").write_text("DELETE FROM s.t WHERE d < '2020-01-01';\n")


def _check(root: Path, names: tuple[str, ...]) -> tuple[list[str], str]:
    """The modules of `names` a `check` of `root` imported, and -X importtime's report."""
    code = _CHECK.format(names=names)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], cwd=root, capture_output=True, text=True, timeout=120
    )
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    return eval(line.removeprefix("MODULES "), {}), proc.stderr  # noqa: S307 - a list of our own names


def _top_level(report: str) -> list[tuple[str, int]]:
    """(module, cumulative microseconds) of the imports made at top level, in order."""
    out = []
    for line in report.splitlines():
        parts = line.split("|")
        if not line.startswith("import time:") or len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        if parts[2].startswith(" ") and not parts[2].startswith("  "):
            out.append((parts[2].strip(), int(parts[1])))
    return out


@pytest.mark.integration
def test_a_sql_check_imports_no_reader_it_does_not_use(tmp_path):
    _sql_project(tmp_path)
    imported, _ = _check(tmp_path, NOT_FOR_SQL)
    assert imported == []


@pytest.mark.integration
def test_a_project_with_an_airflow_dag_still_loads_its_reader(tmp_path):
    """The near miss: laziness by input kind must not drop a reader the project needs."""
    _sql_project(tmp_path)
    (tmp_path / "dag.py").write_text(
        "from airflow import DAG\n"
        "from airflow.providers.databricks.operators.databricks import DatabricksSubmitRunOperator\n"
        "with DAG('d', schedule='@daily') as dag:\n"
        "    DatabricksSubmitRunOperator(task_id='a', notebook_task={'notebook_path': 'a.sql'})\n"
    )
    imported, _ = _check(tmp_path, NOT_FOR_SQL)
    assert "delta_lint.airflow" in imported
    assert "delta_lint.dbt" not in imported and "hcl2" not in imported


@pytest.mark.integration
def test_a_project_with_globs_and_a_sql_script_still_loads_what_reads_them(tmp_path):
    """The near miss: RE2 and the SQL scripting reader load when the run meets a glob
    and a script, and do their work."""
    _sql_project(tmp_path)
    (tmp_path / "delta-lint.yaml").write_text("spark: none\nexclude: ['skip/**']\n")
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "c.sql").write_text("UPDATE s.t SET y = 1;\n")
    (tmp_path / "script.sql").write_text(
        "DECLARE stmt STRING DEFAULT 'UPDATE s.t SET y = 2';\nEXECUTE IMMEDIATE stmt;\n"
    )
    code = _CHECK.format(names=NOT_FOR_SQL).replace("'.']", "'.', '--format', 'json']")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    assert eval(line.removeprefix("MODULES "), {}) == ["delta_lint.frontend.sqlscript", "re2"]  # noqa: S307
    findings = json.loads(proc.stdout)["findings"]
    files = {site["path"] for f in findings for site in (f["location"], *f["related"])}
    assert "skip/c.sql" not in files and "script.sql" in files


@pytest.mark.integration
def test_import_time_of_the_cli_and_the_check_path_stays_in_budget(tmp_path):
    """`delta_lint.cli` itself imports only typer (commands import their modules), and
    the whole `check` path of a SQL-only project costs a bounded multiple of
    json + typer. Best of five runs, against a shared machine's noise; the budgets
    are about twice what was measured at a load average of 6-7 on 2 cores (cli
    0.01×: typer is imported before it), and for the check path (3.1-4.4× in the
    better half of nine runs at a load average of 15, 3.1 at best: SQLite and
    orjson are no longer imported without the cache) half as much again."""
    _sql_project(tmp_path)
    cli_ratios, check_ratios = [], []
    for _ in range(5):
        _, report = _check(tmp_path, ())
        top = _top_level(report)
        names = [m for m, _ in top]
        base = sum(c for m, c in top if m in ("json", "typer"))
        cli_ratios.append(dict(top)["delta_lint.cli"] / base)
        check_ratios.append(sum(c for _, c in top[names.index("typer") + 1 :]) / base)
    assert min(cli_ratios) < 0.1, cli_ratios
    assert min(check_ratios) < 6.0, check_ratios


_SCRIPT_CHECK = (
    "import sys, json, typer\n"
    "sys.argv = ['delta-lint', 'check', '--spark', 'none', '--no-cache', '.']\n"
    "from delta_lint.__main__ import main\n"
    "main()\n"
)


@pytest.mark.integration
def test_the_console_scripts_check_builds_no_app_and_stays_in_budget(tmp_path):
    """The console script runs `check` without the typer app (`delta_lint.cli`): its
    imports after the yardstick are a bounded multiple of json + typer, tighter than
    the app's path above (measured 3.4-3.9x at a load average of 9 on 2 cores, where
    the app's path measured 1.3-5.7x; 3.0-4.3x in the better half of nine runs at a
    load average of 15, without SQLite and orjson). Best of five against a shared
    machine's noise."""
    _sql_project(tmp_path)
    ratios = []
    for _ in range(5):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", _SCRIPT_CHECK],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 1 and "DL" in proc.stdout  # the near miss: the check ran and found
        top = _top_level(proc.stderr)
        names = [m for m, _ in top]
        assert "delta_lint.cli" not in names and "delta_lint.console" in names
        base = sum(c for m, c in top if m in ("json", "typer"))
        ratios.append(sum(c for _, c in top[names.index("typer") + 1 :]) / base)
    assert min(ratios) < 5.0, ratios


@pytest.mark.integration
@pytest.mark.parametrize("entry", ["script", "app"])
def test_a_checks_imports_are_not_walked_by_the_collector_again_and_again(tmp_path, entry):
    """`check` raises the collector's thresholds before it imports the run's modules
    (sqlglot, the engine), not after: at the default ones (a first generation of 700
    objects) those imports started 18-20 collections on this project and 41 on 298
    SQL files; now 1 and 2. Counted from the import of the run's first module on,
    through the console script and the typer app alike."""
    _sql_project(tmp_path)
    run = "from delta_lint.__main__ import main\nmain()\n" if entry == "script" else _RUN_APP
    code = (
        "import gc, os, sys\n"
        "seen, start = [], []\n"
        "gc.callbacks.append(lambda phase, info: seen.append(info['generation']) if phase == 'stop' else None)\n"
        "class Mark:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'delta_lint.findings' and not start:\n"
        "            start.append(len(seen))\n"
        "sys.meta_path.insert(0, Mark())\n"
        "sys.argv = ['delta-lint', 'check', '--spark', 'none', '--no-cache', '.']\n"
        "real = os._exit\n"
        "def _exit(code):\n"
        "    print('COLLECTIONS', len(seen) - start[0], file=sys.stderr)\n"
        "    sys.stderr.flush()\n"
        "    real(code)\n"
        "os._exit = _exit\n" + run + "_exit(0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "DL" in proc.stdout  # the near miss: the check ran, imports and all
    line = next(x for x in proc.stderr.splitlines() if x.startswith("COLLECTIONS "))
    assert int(line.split()[1]) < 8, line


_RUN_APP = "from delta_lint.cli import app\ntry:\n    app()\nexcept SystemExit:\n    pass\n"


# what a `check` whose inputs and options equal the last run's has no use for: it
# prints the output it kept, without reading code, pairing writes or rendering
NOT_FOR_AN_UNCHANGED_RUN = (
    *NOT_FOR_SQL,
    "sqlglot",
    "delta_lint.frontend.sql",
    "delta_lint.frontend.notebook",
    "delta_lint.engine",
    "delta_lint.engine.messages",
    "delta_lint.engine.judgement",
    "delta_lint.schedule",
    "delta_lint.link",
    "delta_lint.settings.live",
    "delta_lint.interleave",
)

_WARM_CHECK = (
    "import sys, json, typer\n"
    "from delta_lint.cli import app\n"
    "sys.argv = ['delta-lint', 'check', '.']\n"
    "try:\n    app()\nexcept SystemExit:\n    pass\n"
    "print('MODULES', sorted(m for m in {names!r} if m in sys.modules), file=sys.stderr)\n"
)


def _warm_check(root: Path, names: tuple[str, ...]) -> tuple[list[str], str, str]:
    """The modules of `names` a `check` of `root` imported, -X importtime's report and
    what the check printed (the earlier run's cache in place)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", _WARM_CHECK.format(names=names)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    return eval(line.removeprefix("MODULES "), {}), proc.stderr, proc.stdout  # noqa: S307 - our own names


@pytest.mark.integration
def test_an_unchanged_check_imports_no_stage_it_skips_and_stays_in_budget(tmp_path):
    """The second `check` of an unchanged project prints the first one's output without
    importing a reader, sqlglot, the schedule, the linker or the engine; its import
    time stays a bounded multiple of json + typer (measured 1.4-1.5x; the cold SQL
    path's budget above is 8x). Best of three against a shared machine's noise."""
    _sql_project(tmp_path)
    (tmp_path / "notebook.py").write_text(
        "# Databricks notebook source\nspark.sql(\"DELETE FROM s.t WHERE d < '2020-01-01'\")\n"
    )
    (tmp_path / "delta-lint.yaml").write_text("spark: none\n")
    first, _, printed = _warm_check(tmp_path, NOT_FOR_AN_UNCHANGED_RUN)
    assert "delta_lint.engine" in first and "sqlglot" in first  # the near miss: a first run needs them
    ratios = []
    for _ in range(3):
        imported, report, again = _warm_check(tmp_path, NOT_FOR_AN_UNCHANGED_RUN)
        assert imported == [] and again == printed
        top = _top_level(report)
        names = [m for m, _ in top]
        base = sum(c for m, c in top if m in ("json", "typer"))
        ratios.append(sum(c for _, c in top[names.index("typer") + 1 :]) / base)
    assert min(ratios) < 3.0, ratios


@pytest.mark.integration
def test_check_help_imports_nothing_of_the_run(tmp_path):
    """`check --help` is typer's: no stage of a run, not even the cache, is imported
    (`delta_lint.console`, which `check` runs in, imports none at its top)."""
    code = (
        "import sys\nfrom delta_lint.cli import app\nsys.argv = ['delta-lint', 'check', '--help']\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print('MODULES', sorted(m for m in sys.modules if m.startswith(('delta_lint.', 'sqlglot'))), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    assert "--changed" in proc.stdout  # the near miss: the help was printed
    assert eval(line.removeprefix("MODULES "), {}) == ["delta_lint.cli", "delta_lint.console"]  # noqa: S307


# what a `check --no-cache` has no use for: SQLite and the cache's encoder, random
# names for files it never writes, Unicode tables for ASCII source
NOT_WITHOUT_CACHE = ("sqlite3", "secrets", "orjson", "unicodedata")

_CHECK_ANY = (
    "import sys\n"
    "from delta_lint.__main__ import main\n"
    "sys.argv = ['delta-lint', 'check', '--spark', 'none', '--format', 'json', '.', *{extra!r}]\n"
    "import os\n"
    "real = os._exit\n"
    "def _exit(code):\n"
    "    print('MODULES', sorted(m for m in {names!r} if m in sys.modules), file=sys.stderr)\n"
    "    sys.stderr.flush()\n"
    "    real(code)\n"
    "os._exit = _exit\n"
    "main()\n"
)


def _check_modules(root: Path, names: tuple[str, ...], *extra: str) -> tuple[list[str], list[dict]]:
    """The modules of `names` a `check` of `root` (console script) imported, and its findings."""
    code = _CHECK_ANY.format(names=names, extra=extra)
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    return eval(line.removeprefix("MODULES "), {}), json.loads(proc.stdout)["findings"]  # noqa: S307 - our own names


def _mixed_project(root: Path) -> None:
    _sql_project(root)
    (root / "job.py").write_text("spark.sql(\"UPDATE s.t SET y = 1 WHERE d = '2020-01-01'\")\n")
    (root / "nb.py").write_text("# Databricks notebook source\nspark.sql(\"DELETE FROM s.t WHERE d < '2020-01-01'\")\n")


@pytest.mark.integration
def test_a_check_without_the_cache_imports_none_of_its_modules(tmp_path):
    """`--no-cache` of SQL, a PySpark job and a notebook, all ASCII: no SQLite, no
    encoder of cache entries, no `secrets`, no Unicode database. The near misses: the
    same check with the cache imports SQLite and the encoder and finds the same; a
    fullwidth spelling of a write (NFKC) loads the Unicode database and is found."""
    _mixed_project(tmp_path)
    imported, cold = _check_modules(tmp_path, NOT_WITHOUT_CACHE, "--no-cache")
    assert imported == [] and cold
    cached, found = _check_modules(tmp_path, NOT_WITHOUT_CACHE)
    assert {"sqlite3", "orjson"} <= set(cached) and found == cold
    (tmp_path / "wide.py").write_text("spark.ｓｑｌ(\"DELETE FROM s.t WHERE d < '2021-01-01'\")\n")
    imported, findings = _check_modules(tmp_path, NOT_WITHOUT_CACHE, "--no-cache")
    assert "unicodedata" in imported
    assert any(site["path"] == "wide.py" for f in findings for site in (f["location"], *f["related"]))
