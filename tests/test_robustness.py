"""Any input, no crash, nothing lost, nothing executed, nothing written.

Hypothesis profiles: `ci` (the default here, quick) and `long` for the benchmark
machine: HYPOTHESIS_PROFILE=long pytest tests/test_robustness.py -k fuzz
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delta_lint.config import _TOP_KEYS, ConfigError, parse_yaml, validate
from delta_lint.frontend import analyze_data, analyze_source
from delta_lint.frontend.notebook import parse_databricks_source, parse_ipynb
from delta_lint.frontend.sqltext import split_statements
from tests.conftest import FIXTURES, ROOT, run_cli

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile(
    "long", max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

FIXTURE_TEXTS = sorted(
    (p.suffix, p.read_text(encoding="utf-8"))
    for p in (FIXTURES / "jobs").rglob("*")
    if p.is_file() and p.suffix in (".sql", ".py", ".ipynb")
)
SQL_TEXTS = [t for s, t in FIXTURE_TEXTS if s == ".sql"]
PY_TEXTS = [t for s, t in FIXTURE_TEXTS if s == ".py"]
NB_TEXTS = [t for s, t in FIXTURE_TEXTS if s == ".ipynb"]
SQL_ALPHABET = st.sampled_from(
    list("abcdefghijklmnopqrstuvwxyz0123456789 \n\t()[]{}'\"`;,.=<>*-/$:%#!?\\")
    + ["MERGE", "INTO", "USING", "ON", "WHEN", "MATCHED", "THEN", "UPDATE", "SET", "DELETE", "FROM", "WHERE"]
    + ["INSERT", "OVERWRITE", "SELECT", "OPTIMIZE", "ZORDER", "BY", "ALTER", "TABLE", "CREATE", "OR", "REPLACE"]
    + ["AND", "IN", "NOT", "NULL", "--", "/*", "*/", "$$", "{{", "}}", "${", "IDENTIFIER(", "%(x)s", ":p"]
)


def mutate(base: str, data: st.DataObject) -> str:
    """Cut, duplicate, splice and corrupt a real job file."""
    text = base
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["cut", "dup", "insert", "delete", "truncate"]))
        if not text:
            break
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 200)))
        if op == "cut":
            text = text[:i] + text[j:]
        elif op == "dup":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "insert":
            text = text[:i] + data.draw(st.lists(SQL_ALPHABET, max_size=20).map("".join)) + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i]
    return text


def assert_well_formed(result, display: str) -> None:
    assert result.path == display
    for intent in result.intents:
        assert intent.location.path == display and intent.location.line >= 1
    for d in result.diagnostics:
        assert d.location.path == display and d.rule.startswith("DL") and d.message


def run_twice(display: str, suffix: str, text: str):
    first = analyze_source(display, suffix, text)
    second = analyze_source(display, suffix, text)
    assert_well_formed(first, display)
    assert repr(first) == repr(second)  # deterministic
    assert not any(d.rule == "DL002" for d in first.diagnostics), first.diagnostics
    return first


# -- fuzzing ---------------------------------------------------------------------------------


@given(st.data())
def test_fuzz_sql_front_end_with_mutated_fixtures(data):
    text = mutate(data.draw(st.sampled_from(SQL_TEXTS)), data)
    statements = split_statements(text)
    assert all(s.text.strip() for s in statements)
    run_twice("f.sql", ".sql", text)


@given(st.lists(SQL_ALPHABET, max_size=60).map(" ".join))
def test_fuzz_sql_front_end_with_generated_token_soup(text):
    result = run_twice("g.sql", ".sql", text)
    writes = ("MERGE", "UPDATE", "DELETE", "INSERT", "OPTIMIZE", "ALTER", "CREATE")
    if any(s.text.split()[0].upper() in writes for s in split_statements(text) if s.text.split()):
        assert result.intents or result.diagnostics  # a write is understood or reported, never dropped


@given(st.data())
def test_fuzz_python_front_end_with_mutated_fixtures(data):
    text = mutate(data.draw(st.sampled_from(PY_TEXTS)), data)
    result = run_twice("f.py", ".py", text)
    try:
        compile(text, "f.py", "exec", flags=0x400, dont_inherit=True)  # PyCF_ONLY_AST: parse only, never run
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        if not text.lstrip().startswith("# Databricks notebook source"):
            assert any(d.rule == "DL000" for d in result.diagnostics)


@given(st.text(max_size=300))
def test_fuzz_python_front_end_with_arbitrary_text(text):
    run_twice("a.py", ".py", text)


@given(st.data())
def test_fuzz_notebook_sources(data):
    base = "# Databricks notebook source\n" + data.draw(st.sampled_from(PY_TEXTS + SQL_TEXTS))
    cells = base.split("\n")
    magic = data.draw(
        st.lists(st.sampled_from(["# COMMAND ----------", "# MAGIC %sql", "# MAGIC %run ./x", "# MAGIC"]), max_size=6)
    )
    for m in magic:
        cells.insert(data.draw(st.integers(0, len(cells))), m)
    text = mutate("\n".join(cells), data)
    parse_databricks_source(text) if text.startswith("# Databricks notebook source") else None
    run_twice("n.py", ".py", text)


@given(st.data())
def test_fuzz_ipynb_reader(data):
    text = mutate(data.draw(st.sampled_from(NB_TEXTS)), data)
    try:
        parse_ipynb(text)
    except ValueError:
        pass  # JSONDecodeError is a ValueError: reported as DL000 by the front end
    result = run_twice("n.ipynb", ".ipynb", text)
    try:
        json.loads(text)
    except ValueError:
        # a blank notebook holds no code; any other text that is not JSON is a DL000
        assert any(d.rule == "DL000" for d in result.diagnostics) or not text.strip()


YAML_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)
CONFIG_KEYS = st.sampled_from(sorted(_TOP_KEYS | {"nope"}))  # every key, and an unknown one


@given(st.dictionaries(CONFIG_KEYS, YAML_VALUES, max_size=6))
def test_fuzz_configuration_values(data):
    try:
        validate(data, Path("delta-lint.yaml"))
    except ConfigError as err:
        assert str(err).startswith("delta-lint.yaml")


@given(st.text(max_size=200))
def test_fuzz_configuration_yaml_text(text):
    try:
        validate(parse_yaml(text, Path("c.yaml")), Path("c.yaml"))
    except ConfigError as err:
        assert str(err).startswith("c.yaml")


# -- hostile files ----------------------------------------------------------------------------


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The CLI in this process: these tests are about what it reports and exits with."""
    return run_cli(*args, cwd=cwd)


GOOD = "DELETE FROM s.t WHERE id = 1;\n"
OTHER = "UPDATE s.t SET x = 1 WHERE id = 1;\n"


def findings_of(proc) -> list[dict]:
    return json.loads(proc.stdout)["findings"]


def test_hostile_files_each_get_a_diagnostic_and_the_run_goes_on(tmp_path):
    p = tmp_path
    (p / "good.sql").write_text(GOOD)
    (p / "other.sql").write_text(OTHER)
    (p / "latin1.sql").write_bytes("-- café\nDELETE FROM s.u WHERE name = 'é';\n".encode("latin-1"))
    (p / "bom.sql").write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    (p / "crlf.sql").write_bytes(b"DELETE FROM s.v WHERE id = 1;\r\nDELETE FROM s.v WHERE id = 2;\r\n")
    (p / "nul.sql").write_bytes(b"DELETE FROM s.w WHERE id = 1;\x00\x00\n")
    (p / "empty.sql").write_text("")
    (p / "long.sql").write_text("SELECT " + ", ".join(f"c{i}" for i in range(60_000)) + ";\n" + GOOD)
    (p / "nested.sql").write_text("DELETE FROM s.t WHERE " + "(" * 3000 + "id = 1" + ")" * 3000 + ";\n" + OTHER)
    (p / "nested.py").write_text("x = " + "[" * 5000 + "]" * 5000 + "\nspark.sql('DELETE FROM s.t WHERE id = 2')\n")
    (p / "bad.ipynb").write_text('{"cells": [ {"cell_type": "code", ')
    (p / "mixed.py").write_bytes(b"spark.sql('DELETE FROM s.t WHERE id = 3')  # \xff\xfe caf\xc3\xa9\n")
    os.symlink(p / "loop_a.sql", p / "loop_b.sql")
    os.symlink(p / "loop_b.sql", p / "loop_a.sql")
    os.mkfifo(p / "pipe.sql")  # a named pipe must never be opened (it would block)
    proc = cli(p, "check", ".", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    out = findings_of(proc)
    by_path: dict[str, list[str]] = {}
    for f in out:
        by_path.setdefault(f["location"]["path"], []).append(f["rule"])
    assert "DL003" in by_path["latin1.sql"] and "DL003" in by_path["nul.sql"] and "DL003" in by_path["mixed.py"]
    assert "DL000" in by_path["bad.ipynb"]
    assert "DL000" in by_path["nested.py"] or "DL003" in by_path["nested.py"]
    assert {"loop_a.sql", "loop_b.sql"} <= set(by_path)
    assert "pipe.sql" in by_path
    # the good files were analysed, and so was what follows the hostile parts
    assert "s.t" in {f["table"] for f in out}
    assert json.loads(proc.stdout)["summary"]["files"] >= 12
    intents = json.loads(cli(p, "intents", ".", "--format", "json").stdout)
    seen = {(i["path"], i["table"]) for i in intents}
    for path, table in [
        ("latin1.sql", "s.u"),
        ("bom.sql", "s.t"),
        ("crlf.sql", "s.v"),
        ("nul.sql", "s.w"),
        ("long.sql", "s.t"),
        ("nested.sql", "s.t"),
        ("mixed.py", "s.t"),
    ]:
        assert (path, table) in seen, (path, table)
    assert [i["line"] for i in intents if i["path"] == "crlf.sql"] == [1, 2]


def test_a_50_mb_file_is_reported_and_skipped(tmp_path):
    (tmp_path / "huge.sql").write_bytes(b"-- padding\n" * (50 * 1024 * 1024 // 11))
    (tmp_path / "a.sql").write_text(GOOD)
    (tmp_path / "b.sql").write_text(OTHER)
    proc = cli(tmp_path, "check", ".", "--format", "json")
    out = findings_of(proc)
    huge = [f for f in out if f["location"]["path"] == "huge.sql"]
    assert [f["rule"] for f in huge] == ["DL003"] and "MB" in huge[0]["message"]
    assert any(f["table"] == "s.t" for f in out)


def test_the_size_limit_is_exact_and_files_that_hide_their_size_are_read_whole(tmp_path, monkeypatch):
    import delta_lint.frontend as pipeline

    monkeypatch.setattr(pipeline, "MAX_FILE_BYTES", 64)
    (tmp_path / "at.sql").write_bytes(b"x" * 64)
    (tmp_path / "over.sql").write_bytes(b"x" * 65)
    assert pipeline.read_file(tmp_path / "at.sql", "at.sql") == b"x" * 64
    over = pipeline.read_file(tmp_path / "over.sql", "over.sql")
    assert [d.rule for d in over.diagnostics] == ["DL003"] and "MB" in over.diagnostics[0].message
    # a file whose reported size is 0 (as under /proc) is read to its end, and the
    # limit still holds for what it turns out to hold
    status = Path("/proc/self/status")
    if status.exists():
        monkeypatch.setattr(pipeline, "MAX_FILE_BYTES", 10 * 1024 * 1024)
        assert os.stat(status).st_size == 0
        assert pipeline.read_file(status, "status").startswith(b"Name:")
        monkeypatch.setattr(pipeline, "MAX_FILE_BYTES", 8)
        assert [d.rule for d in pipeline.read_file(status, "status").diagnostics] == ["DL003"]


@pytest.mark.integration
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a check as another user")
def test_unreadable_files_are_reported(tmp_path):
    probe = subprocess.run(
        ["runuser", "-u", "nobody", "--", sys.executable, "-c", "import delta_lint"],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if probe.returncode != 0:
        pytest.skip("this Python is not usable by the `nobody` user here (needed to make a file unreadable)")
    tmp_path.chmod(0o755)
    (tmp_path / "a.sql").write_text(GOOD)
    (tmp_path / "b.sql").write_text(OTHER)
    secret = tmp_path / "secret.sql"
    secret.write_text(GOOD)
    secret.chmod(0o000)
    proc = subprocess.run(
        [
            "runuser",
            "-u",
            "nobody",
            "--",
            sys.executable,
            "-m",
            "delta_lint",
            "check",
            ".",
            "--format",
            "json",
            "--no-cache",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)},
    )
    out = findings_of(proc)
    assert any(f["location"]["path"] == "secret.sql" and f["rule"] == "DL003" for f in out)
    assert any(f["table"] == "s.t" and f["rule"] != "DL003" for f in out)


def test_files_that_disappear_during_the_run(tmp_path, monkeypatch):
    from delta_lint import run as run_module
    from delta_lint.config import Config

    (tmp_path / "a.sql").write_text(GOOD)
    (tmp_path / "b.sql").write_text(OTHER)
    gone = tmp_path / "gone.sql"
    gone.write_text(GOOD)
    real_discover = run_module.discover

    def discover_then_delete(*args, **kwargs):
        found = real_discover(*args, **kwargs)
        gone.unlink()  # removed between discovery and reading
        return found

    monkeypatch.setattr(run_module, "discover", discover_then_delete)
    result = run_module.check([tmp_path], Config(root=tmp_path), cwd=tmp_path, use_cache=False)
    rules = {(f.location.path, f.rule) for f in result.findings}
    assert ("gone.sql", "DL003") in rules
    assert any(f.table == "s.t" and f.rule != "DL003" for f in result.findings)


def test_yaml_bombs_and_wrong_types_in_configuration(tmp_path):
    bomb = "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nruntime: *c\n"
    (tmp_path / "delta-lint.yaml").write_text(bomb)
    (tmp_path / "a.sql").write_text(GOOD)
    proc = cli(tmp_path, "check", ".")
    assert proc.returncode == 2 and "aliases" in proc.stderr and proc.stderr.count("\n") == 1
    (tmp_path / "delta-lint.yaml").write_text("tables:\n  s.t:\n    partitioned_by: 7\n")
    proc = cli(tmp_path, "check", ".")
    assert proc.returncode == 2 and "`tables.s.t.partitioned_by`" in proc.stderr
    (tmp_path / "delta-lint.yaml").write_text("!!python/object/apply:os.system ['touch pwned']\n")
    proc = cli(tmp_path, "check", ".")
    assert proc.returncode == 2 and not (tmp_path / "pwned").exists()
    (tmp_path / "delta-lint.yaml").write_text("runtime: [1, 2\n")
    proc = cli(tmp_path, "check", ".")
    assert proc.returncode == 2 and "delta-lint.yaml:" in proc.stderr and "Traceback" not in proc.stderr


# -- internal errors are contained ----------------------------------------------------------------


def test_an_exception_in_one_front_end_is_contained(monkeypatch):
    import delta_lint.frontend.sql as fsql

    def explode(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(fsql, "analyze_sql", explode)
    broken = analyze_data(b"DELETE FROM s.t WHERE id = 1;\n", ".sql", "a.sql")
    assert [d.rule for d in broken.diagnostics] == ["DL002"]
    assert "please report it" in broken.diagnostics[0].message
    fine = analyze_data(b"spark.sql('DELETE FROM s.t WHERE id = 1')\n", ".py", "b.py")
    assert fine.intents  # the Python front end still works


def test_an_exception_in_one_rule_is_contained(lint, monkeypatch):
    from delta_lint.engine import Engine

    def explode(self, *args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(Engine, "_readers_of_writes", explode)
    result = lint({"a.sql": GOOD, "b.sql": OTHER}, {})
    rules = [f.rule for f in result.findings]
    assert "DL002" in rules and any(r.startswith("DL1") for r in rules)


# -- nothing executed, nothing written --------------------------------------------------------------


def test_job_code_is_never_imported_or_run(tmp_path):
    marker = tmp_path / "EXECUTED"
    payload = f"open({str(marker)!r}, 'w').write('x')\n"
    (tmp_path / "job.py").write_text(
        payload
        + "import os\nos.system('touch "
        + str(marker)
        + "')\n"
        + "spark.sql('DELETE FROM s.t WHERE id = 1')\n"
        + "if __name__ == '__main__':\n    "
        + payload
    )
    (tmp_path / "nb.py").write_text(
        "# Databricks notebook source\n" + payload + "# COMMAND ----------\n# MAGIC %sh touch " + str(marker) + "\n"
    )
    (tmp_path / "n.ipynb").write_text(
        json.dumps(
            {
                "cells": [{"cell_type": "code", "source": [payload], "metadata": {}, "outputs": []}],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )
    (tmp_path / "conftest.py").write_text(payload)
    (tmp_path / "setup.py").write_text(payload)
    for command in (["check", "."], ["intents", "."], ["schedule", "."], ["tables", "."]):
        cli(tmp_path, *command)
    assert not marker.exists()


@pytest.mark.integration
def test_atomic_writes_survive_a_killed_process(tmp_path):
    target = tmp_path / "delta-lint.lock.yaml"
    old = "old content\n" * 1000
    target.write_text(old)
    new = "new content\n" * 2_000_000  # ~24 MB: the write takes a while
    (tmp_path / "payload").write_text(new)
    script = (
        "from pathlib import Path\nfrom delta_lint.atomic import write_atomic\n"
        f"write_atomic(Path({str(target)!r}), Path({str(tmp_path / 'payload')!r}).read_text())\n"
    )
    seen = set()
    for delay in (0.0, 0.02, 0.05, 0.1, 0.2):
        target.write_text(old)
        proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        content = target.read_text()
        assert content in (old, new), f"torn write after {delay}s ({len(content)} bytes)"
        seen.add(content == new)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".delta-lint.lock.yaml.")]
    assert len(leftovers) <= 5  # temporary files of killed runs; never the target itself


# -- determinism -------------------------------------------------------------------------------------


@pytest.mark.integration
@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_output_is_byte_identical_across_hash_seeds_jobs_and_cache(fmt, tmp_path):
    import shutil

    project = tmp_path / "p"
    shutil.copytree(FIXTURES, project, ignore=shutil.ignore_patterns(".delta-lint-cache", "*.lock.yaml"))
    outputs = set()
    for seed, extra in (
        ("0", ["--no-cache", "--jobs", "1"]),
        ("1", ["--no-cache", "--jobs", "2"]),
        ("2", []),
        ("3", []),
        ("random", ["--jobs", "2"]),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "delta_lint", "check", "jobs", "--format", fmt, "--spark", "none", *extra],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert proc.returncode == 1, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1


def test_a_file_that_cannot_be_read_is_reported_even_as_root(tmp_path):
    """/proc/self/mem is a regular file that fails with EIO when read from the start."""
    if not Path("/proc/self/mem").exists():
        pytest.skip("no /proc here")
    (tmp_path / "a.sql").write_text(GOOD)
    (tmp_path / "b.sql").write_text(OTHER)
    os.symlink("/proc/self/mem", tmp_path / "unreadable.sql")
    proc = cli(tmp_path, "check", ".", "--format", "json", "--no-cache")
    out = findings_of(proc)
    problem = [f for f in out if f["location"]["path"] == "unreadable.sql"]
    assert [f["rule"] for f in problem] == ["DL003"] and "outside the project" in problem[0]["message"]
    assert any(f["table"] == "s.t" and f["rule"] != "DL003" for f in out)
    # read directly (a file the user names), the read error itself is the diagnostic
    from delta_lint.frontend import read_file

    direct = read_file(Path("/proc/self/mem"), "mem.sql")
    assert [d.rule for d in direct.diagnostics] == ["DL003"] and "cannot read" in direct.diagnostics[0].message


@pytest.mark.integration
def test_a_killed_run_leaves_a_usable_cache(tmp_path):
    import sys as _sys

    _sys.path.insert(0, str(ROOT / "benchmarks"))
    from corpus import Corpus

    project = tmp_path / "p"
    Corpus(150, seed=11).write(project)
    reference = cli(project, "check", ".", "--format", "json", "--no-cache", "--jobs", "1").stdout
    for delay in (0.3, 0.6, 0.9, 1.2):
        proc = subprocess.Popen(
            [sys.executable, "-m", "delta_lint", "check", ".", "--format", "json", "--jobs", "1"],
            cwd=project,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert cli(project, "check", ".", "--format", "json", "--jobs", "1").stdout == reference
