"""A pull request is untrusted input: what a hostile checkout cannot make delta-lint
read, write, send or hide. One test per promise of the README's threat model."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest

from tests.conftest import run_cli

FORMATS = ("text", "json", "sarif", "github", "markdown")
SECRET = "hunter2-SECRET-VALUE"
DELETE_A = "DELETE FROM main.s.t WHERE id = 1;\n"
DELETE_B = "DELETE FROM main.s.t WHERE id = 2;\n"


def cli(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI in this process (`env` set for the call): these tests are about what a
    run reads, writes, reports and exits with."""
    return run_cli(*args, cwd=cwd, env=env)


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "delta-lint.yaml").write_text("spark: none\n")
    return root


def secret_file(tmp_path: Path) -> Path:
    outside = tmp_path / "home" / ".netrc"
    outside.parent.mkdir(parents=True)
    outside.write_text(f"machine example.com login me password {SECRET}\nDELETE FROM x.y WHERE a = 1;\n")
    return outside


# -- reads stay inside the project ------------------------------------------------------


def test_a_job_file_linked_outside_the_project_is_not_read_in_any_format(tmp_path):
    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    os.symlink(secret_file(tmp_path), root / "jobs" / "creds.sql")
    os.symlink("/etc/passwd", root / "jobs" / "passwd.sql")
    for fmt in FORMATS:
        proc = cli(root, "check", "jobs", "--format", fmt, "--no-cache")
        assert proc.returncode == 1, proc.stderr
        assert SECRET not in proc.stdout + proc.stderr and "root:" not in proc.stdout + proc.stderr, fmt
        assert "outside the project" in proc.stdout, fmt
    findings = json.loads(cli(root, "check", "jobs", "--format", "json", "--no-cache").stdout)["findings"]
    linked = {f["location"]["path"]: f for f in findings if f["rule"] == "DL003"}
    assert set(linked) == {"jobs/creds.sql", "jobs/passwd.sql"}
    assert {f["rule"] for f in findings} == {"DL003", "DL102"}  # the rest is still checked
    intents = cli(root, "intents", "jobs")
    assert SECRET not in intents.stdout + intents.stderr and "x.y" not in intents.stdout


def test_a_folder_of_the_checkout_linked_outside_is_not_walked(tmp_path):
    """`jobs -> /somewhere` in the checkout, and CI runs `delta-lint check jobs`."""
    root = project(tmp_path, {"a.sql": DELETE_A})
    outside = secret_file(tmp_path).parent
    (outside / "creds.sql").write_text(f"DELETE FROM x.y WHERE password = '{SECRET}';\n")
    (root / "jobs").symlink_to(outside, target_is_directory=True)
    proc = cli(root, "check", "jobs", "--format", "json", "--no-cache")
    findings = json.loads(proc.stdout)["findings"]
    assert [(f["rule"], f["location"]["path"]) for f in findings] == [("DL003", "jobs")]
    assert "outside the project" in findings[0]["message"] and SECRET not in proc.stdout + proc.stderr


def test_a_link_inside_the_project_is_still_followed(tmp_path):
    root = project(tmp_path, {"shared/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    os.symlink(root / "shared" / "a.sql", root / "jobs" / "a.sql")
    proc = cli(root, "check", "jobs", "--format", "json", "--no-cache")
    assert [f["rule"] for f in json.loads(proc.stdout)["findings"]] == ["DL102"]


def test_configuration_files_leading_outside_the_project_are_refused_without_their_content(tmp_path):
    root = project(tmp_path, {"jobs/a.sql": DELETE_A})
    outside = secret_file(tmp_path)
    (root / "delta-lint.lock.yaml").symlink_to(outside)  # the snapshot
    proc = cli(root, "check", "jobs")
    assert proc.returncode == 2 and "outside the project" in proc.stderr and SECRET not in proc.stderr
    (root / "delta-lint.lock.yaml").unlink()
    (root / "databricks.yml").write_text("bundle: {name: x}\ninclude: ['../home/*']\n")
    os.symlink(outside, tmp_path / "home" / "x.yml")
    proc = cli(root, "check", "jobs")
    # a file a found bundle includes is a diagnostic at its line (the rest is analysed), never its content
    assert proc.returncode in (0, 1) and "outside the project" in proc.stdout
    assert SECRET not in proc.stdout + proc.stderr
    (root / "databricks.yml").unlink()
    (root / "delta-lint.yaml").unlink()
    (root / "delta-lint.yaml").symlink_to(outside)  # the configuration found in the tree
    proc = cli(root, "check", "jobs")
    assert proc.returncode == 2 and "outside the project" in proc.stderr and SECRET not in proc.stderr


# -- special files, loops, depth and names: nothing blocks, nothing runs away ----------


def test_special_files_never_block_a_run(tmp_path):
    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    os.mkfifo(root / "jobs" / "pipe.sql")
    os.symlink("/dev/zero", root / "jobs" / "zero.sql")
    if Path("/proc/kmsg").exists():
        os.symlink("/proc/kmsg", root / "jobs" / "kmsg.sql")
    proc = cli(root, "check", "jobs", "--format", "json", "--no-cache")
    findings = json.loads(proc.stdout)["findings"]
    unread = {f["location"]["path"] for f in findings if f["rule"] == "DL003"}
    assert {"jobs/pipe.sql", "jobs/zero.sql"} <= unread and "DL102" in {f["rule"] for f in findings}
    # named on the command line, they are refused too (a.sql is checked in its project: b.sql conflicts with it)
    proc = cli(root, "check", "jobs/pipe.sql", "jobs/zero.sql", "jobs/a.sql", "--no-cache")
    assert proc.returncode == 1 and proc.stdout.count("DL003") == 2


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_snapshot_or_jobs_json_that_is_a_pipe_or_dev_zero_is_refused_at_once(tmp_path, kind):
    for name in ("delta-lint.lock.yaml", "exports/job.json"):
        root = project(tmp_path / name.replace("/", "_"), {"jobs/a.sql": DELETE_A})
        if name.startswith("exports"):
            (root / "exports").mkdir()
            (root / "delta-lint.yaml").write_text("spark: none\njob_definitions: exports\n")
        if kind == "fifo":
            os.mkfifo(root / name)
        else:
            (root / name).symlink_to("/dev/zero")
        proc = cli(root, "check", "jobs")
        assert "Traceback" not in proc.stderr
        if name.startswith("exports"):  # one file of the folder: a diagnostic at it, the rest analysed
            assert proc.returncode in (0, 1) and "job.json" in proc.stdout and "DL003" in proc.stdout
            assert "not a regular file" in proc.stdout or "outside the project" in proc.stdout
            continue
        assert proc.returncode == 2 and name.split("/")[-1] in proc.stderr, proc.stderr
        assert "not a regular file" in proc.stderr or "outside the project" in proc.stderr


def test_link_loops_in_a_bundle_include_do_not_hang(tmp_path):
    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    res = root / "resources"
    (res / "sub").mkdir(parents=True)
    for i in range(4):  # 4 links back up: glob.glob would walk 4^40 paths
        (res / f"up{i}").symlink_to("..")
    (res / "sub" / "loop").symlink_to("../..")
    (res / "sub" / "jobs.yml").write_text(
        "resources:\n  jobs:\n    j:\n      tasks:\n"
        "        - task_key: a\n          sql_task: {warehouse_id: w, file: {path: ../../jobs/a.sql}}\n"
        "        - task_key: b\n          sql_task: {warehouse_id: w, file: {path: ../../jobs/b.sql}}\n"
    )
    (root / "databricks.yml").write_text("bundle: {name: x}\ninclude: ['resources/**/*.yml']\n")
    proc = cli(root, "schedule", ".", "--format", "json", "--all")
    assert proc.returncode == 0, proc.stderr
    nodes = {n["node"] for n in json.loads(proc.stdout)["nodes"]}
    assert nodes == {"j.a", "j.b"}  # the included file is read once


def test_a_very_deep_tree_and_names_that_are_not_utf8_are_analysed():
    # Not under pytest's tmp_path: its clean-up (shutil.rmtree) recurses once per level.
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="delta-lint-deep-"))
    root = project(base, {"jobs/a.sql": DELETE_A})
    here = os.getcwd()
    try:
        os.chdir(root / "jobs")
        for _ in range(1500):  # deeper than Python's recursion limit
            os.mkdir("d")
            os.chdir("d")
        Path("b.sql").write_text(DELETE_B)
        os.chdir(here)
        bad = os.fsencode(root / "jobs") + b"/bad\xff\xfe.sql"
        with open(bad, "w") as out:
            out.write(DELETE_B)
        proc = cli(root, "check", "jobs", "--format", "json", "--no-cache")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        findings = json.loads(proc.stdout)["findings"]
        paths = {f["location"]["path"] for f in findings} | {r["path"] for f in findings for r in f["related"]}
        assert "jobs/bad\\udcff\\udcfe.sql" in paths  # named, escaped, analysed
        assert any(p.endswith("/d/b.sql") for p in paths)  # the file 1,500 levels down
        text = cli(root, "check", "jobs", "--no-cache")
        assert text.returncode == 1 and "bad\\udcff\\udcfe.sql" in text.stdout
    finally:
        os.chdir(here)
        if (root / "jobs" / "d").is_dir():
            _remove_deep(root / "jobs" / "d")
        import shutil

        shutil.rmtree(base)


def _remove_deep(top: Path) -> None:
    """Remove a chain of nested folders too deep for shutil.rmtree (it recurses)."""
    here = os.getcwd()
    try:
        os.chdir(top)
        depth = 1
        while os.path.isdir("d"):
            os.chdir("d")
            depth += 1
        for _ in range(depth):
            for name in os.listdir("."):
                if name != "d":
                    os.unlink(name)
            os.chdir("..")
            os.rmdir("d")
    finally:
        os.chdir(here)


# -- output injection ------------------------------------------------------------------


def test_file_names_and_code_cannot_inject_lines_into_any_format(tmp_path):
    name = "x\n::error file=a::b.sql"
    hostile = "DELETE FROM main.s.`t\n::add-mask::x` WHERE id = 1;\n"
    root = project(tmp_path, {"jobs/a.sql": DELETE_A, name.replace("x", "jobs/x", 1): DELETE_B, "jobs/c.sql": hostile})
    (root / "jobs" / "d.sql").write_text(hostile)
    for fmt in FORMATS:
        proc = cli(root, "check", "jobs", "--format", fmt, "--no-cache")
        assert proc.returncode == 1, proc.stderr
        lines = proc.stdout.splitlines()
        commands = [line for line in lines if line.startswith("::")]
        if fmt == "github":
            assert commands and all(line.startswith(("::error file=", "::warning file=")) for line in commands)
            assert all(",line=" in line and "%0A::" not in line.split("::", 2)[1] for line in commands)
        else:
            assert commands == [], fmt
        assert not any(line.lstrip().startswith(("::error", "::add-mask")) for line in lines[1:] if fmt != "github")
        if fmt in ("json", "sarif"):
            json.loads(proc.stdout)
    for command in ("intents", "schedule"):
        out = cli(root, command, "jobs").stdout
        assert not any(line.startswith("::") for line in out.splitlines()), command


# -- the cache is never followed and never trusted --------------------------------------


def _victim(path: Path) -> bytes:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE results (key TEXT PRIMARY KEY, value BLOB)")
        db.execute("INSERT INTO results VALUES ('precious', x'00ff')")
    return path.read_bytes()


def test_the_cache_lives_outside_the_checkout_by_default(tmp_path):
    from delta_lint.cache import cache_folder

    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    assert cli(root, "check", "jobs").returncode == 1
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before  # nothing written in the tree
    assert (cache_folder(root) / "frontend.sqlite3").is_file()
    assert not str(cache_folder(root)).startswith(str(root))


def test_a_planted_link_in_an_in_tree_cache_is_never_followed(tmp_path, monkeypatch):
    from delta_lint.cache import cache_folder

    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    victim = elsewhere / "victim.db"
    original = _victim(victim)
    reference = cli(root, "check", "jobs", "--format", "json", "--no-cache").stdout
    env = {"DELTA_LINT_CACHE_DIR": str(root / ".delta-lint-cache")}  # the user chose a cache in the tree
    monkeypatch.setenv("DELTA_LINT_CACHE_DIR", env["DELTA_LINT_CACHE_DIR"])
    folder = cache_folder(root)
    folder.mkdir(parents=True)
    (folder / "frontend.sqlite3").symlink_to(victim)
    (folder / ".gitignore").symlink_to(elsewhere / "created-by-a-run")
    proc = cli(root, "check", "jobs", "--format", "json", env=env)
    assert proc.stdout == reference and "cache not used" in proc.stderr and "symbolic link" in proc.stderr
    assert victim.read_bytes() == original and not (elsewhere / "created-by-a-run").exists()
    # a cache folder that is itself a link into somewhere else is refused as well
    for p in (folder / "frontend.sqlite3", folder / ".gitignore"):
        p.unlink()
    folder.rmdir()
    folder.symlink_to(elsewhere, target_is_directory=True)
    proc = cli(root, "check", "jobs", "--format", "json", env=env)
    assert proc.stdout == reference and "cache not used" in proc.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == ["victim.db"]


def _rows(db_path: Path, table: str) -> list[tuple]:
    with sqlite3.connect(db_path) as db:
        return db.execute(f"SELECT * FROM {table}").fetchall()  # noqa: S608 - our table names


def test_a_poisoned_cache_cannot_pass_the_gate(tmp_path):
    """Every runs row rewritten to 'no findings', tagged with a key that is not the
    user's (a cache committed to the repository or restored from a scope a pull
    request can write): the verdict is that of a run without the cache."""
    from delta_lint.cache import Cache, _pack, cache_folder

    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    reference = cli(root, "check", "jobs", "--format", "json", "--no-cache")
    assert cli(root, "check", "jobs").returncode == 1  # fills the cache
    db_path = cache_folder(root) / "frontend.sqlite3"
    attacker = Cache.__new__(Cache)
    attacker._key = b"k" * 32  # any key but the user's
    empty_files = {"findings": [], "warnings": [], "mode": "none", "schedule_files": [], "n_files": 2}
    with sqlite3.connect(db_path) as db:
        for key, _, _ in db.execute("SELECT * FROM runs").fetchall():
            doc = {**empty_files, "n_intents": 2, "skipped": {}, "analysed": {}}
            db.execute("UPDATE runs SET value = ? WHERE key = ?", (attacker._seal("runs.value", key, _pack(doc)), key))
        for (key,) in db.execute("SELECT key FROM tables").fetchall():
            db.execute(
                "UPDATE tables SET value = ? WHERE key = ?",
                (attacker._seal("tables.value", key, _pack([[], None, "assumed"])), key),
            )
    proc = cli(root, "check", "jobs", "--format", "json")
    assert proc.returncode == 1 and proc.stdout == reference.stdout
    # and the same holds when the whole cache comes from elsewhere: another user's key
    other = cli(root, "check", "jobs", "--format", "json", env={"DELTA_LINT_CACHE_KEY": "someone else"})
    assert other.returncode == 1 and other.stdout == reference.stdout


def test_cached_values_of_the_wrong_type_are_misses_never_tracebacks(tmp_path):
    """Values tagged with the user's own key (a bug, a disk error) but of the wrong
    types: each is a miss."""
    from delta_lint.cache import Cache, _pack

    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    reference = cli(root, "check", "jobs", "--format", "json", "--no-cache").stdout
    assert cli(root, "check", "jobs").returncode == 1
    store = Cache(root)
    wrong = {
        "runs": [{"findings": [["DL101", 1, None, None, None, "m", ["a", "x", 1], [], "", "", None, 0]]}],
        "tables": [[[["DL101"] * 12], None, "x"], {"x": 1}],
        "files": [[[["t", "p", "one", 1]], [], None, 1, None, None], 3],
    }
    with sqlite3.connect(store.path) as db:
        for table, values in wrong.items():
            keys = [k for (k,) in db.execute(f"SELECT key FROM {table}").fetchall()]  # noqa: S608
            assert keys, table
            for key, value in zip(keys, values * len(keys)):
                blob = store._seal(f"{table}.value", key, _pack(value))
                db.execute(f"UPDATE {table} SET value = ? WHERE key = ?", (blob, key))  # noqa: S608
                if table == "files":
                    db.execute(
                        "UPDATE files SET summary = ? WHERE key = ?",
                        (store._seal("files.summary", key, _pack(value)), key),
                    )
        kv = [k for (k,) in db.execute("SELECT key FROM kv").fetchall()]
        for key in kv:
            bad = zlib.compress(b'{"__d": "Location", "path": 1, "line": "x", "column": null}', 1)
            db.execute("UPDATE kv SET value = ? WHERE key = ?", (store._seal("kv.value", key, bad), key))
    store.close()
    proc = cli(root, "check", "jobs", "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and proc.stdout == reference


# -- network only where the user said so ----------------------------------------------


class Listener:
    """A loopback TCP listener that counts the connections it is offered."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop = True
        self.thread.join()
        self.sock.close()


def test_job_code_cannot_make_the_engine_contact_a_host(tmp_path):
    pytest.importorskip("pysail")
    listener = Listener()
    try:
        port = listener.port
        root = project(
            tmp_path,
            {
                "jobs/hdfs.sql": f"DELETE FROM delta.`hdfs://127.0.0.1:{port}/x` WHERE id = 1;\n",
                "jobs/s3.sql": "DELETE FROM delta.`s3://bucket/x` WHERE id = 1;\n",
                "jobs/http.sql": f"DELETE FROM delta.`http://127.0.0.1:{port}/x` WHERE id = 1;\n",
                "jobs/outside.sql": "DELETE FROM delta.`/var/lib/x` WHERE id = 1;\n",
            },
        )
        env = {
            "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
            "AWS_ENDPOINT_URL_S3": f"http://127.0.0.1:{port}",
            "AWS_ACCESS_KEY_ID": "AKIA-TEST",
            "AWS_SECRET_ACCESS_KEY": "test",
        }
        proc = cli(root, "check", "jobs", "--spark", "embedded", "--format", "json", "--no-cache", env=env)
        assert proc.returncode in (0, 1), proc.stderr
        notes = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "DL004"]
        assert len(notes) == 4 and all("named by job code" in f["message"] for f in notes), notes
    finally:
        listener.close()
    assert listener.connections == 0


def test_a_location_the_configuration_names_is_read(tmp_path):
    """The allow-list is the configuration: the same path, named in `locations:`, is
    read (and a write through the path pairs with one through the name)."""
    pytest.importorskip("pysail")
    from tests.conftest import FIXTURES

    tables = FIXTURES / "tables"
    orders = next(p for p in sorted(tables.iterdir()) if (p / "_delta_log").is_dir())
    root = project(
        tmp_path,
        {
            "jobs/by_name.sql": "DELETE FROM main.s.orders;\n",
            "jobs/by_path.sql": f"DELETE FROM delta.`file://{orders}/../{orders.name}`;\n",
        },
    )
    (root / "delta-lint.yaml").write_text(f"spark: embedded\nlocations:\n  main.s.orders: {orders}\n")
    proc = cli(root, "check", "jobs", "--format", "json", "--no-cache")
    findings = json.loads(proc.stdout)["findings"]
    pairs = [f for f in findings if f["rule"] not in ("DL003", "DL004")]
    assert pairs and all(f["table"] == "main.s.orders" for f in pairs), findings
    assert all(f["settings_source"] == "live" for f in pairs)
    assert not [f for f in findings if f["rule"] == "DL004"]


def test_the_local_engine_binds_its_driver_to_loopback(monkeypatch):
    """`--spark local` starts a JVM; what it is told is checked here, with neither a
    JVM nor pyspark (the live-settings suite runs the real one, under strace). Both
    the JVM's launcher and the session builder are told; a launched JVM would stay
    this process's pyspark gateway, without Delta, for every later test."""
    from delta_lint.settings import spark as spark_module

    seen: dict[str, str] = {}
    launched: dict[str, str] = {}
    monkeypatch.setattr(spark_module, "_launch_quiet_jvm", lambda options, log: launched.update(options))

    class Builder:
        def master(self, _):
            return self

        def appName(self, _):  # noqa: N802 - pyspark's name
            return self

        def config(self, key, value):
            seen[key] = value
            return self

        def getOrCreate(self):  # noqa: N802
            raise RuntimeError("stop here")

    class Session:
        builder = Builder()

    monkeypatch.setattr(spark_module, "_import_pyspark", lambda mode: Session)
    monkeypatch.delenv("SPARK_LOCAL_IP", raising=False)
    monkeypatch.delenv("SPARK_LOCAL_HOSTNAME", raising=False)
    with pytest.raises(spark_module.SparkUnavailable):
        spark_module.open_spark("local", 1)
    for told in (seen, launched):
        assert told["spark.driver.host"] == "127.0.0.1" and told["spark.driver.bindAddress"] == "127.0.0.1"
    assert os.environ["SPARK_LOCAL_IP"] == "127.0.0.1"


# -- bounded resources -----------------------------------------------------------------


def test_schedule_output_stays_short_at_10_000_unscheduled_files(tmp_path):
    root = tmp_path / "repo"
    for i in range(10_000):
        d = root / "jobs" / str(i // 500)
        if i % 500 == 0:
            d.mkdir(parents=True)
        (d / f"f{i}.sql").write_text(f"DELETE FROM s.t{i % 7} WHERE id = {i};\n")
    proc = cli(root, "schedule", ".")
    assert proc.returncode == 0 and len(proc.stdout) < 2_000, proc.stdout[:500]
    assert "10,000 files no job schedules" in proc.stdout and "49,995,000 pairs" in proc.stdout
    doc = json.loads(cli(root, "schedule", ".", "--format", "json").stdout)
    assert doc["unscheduled_files"]["count"] == 10_000 and doc["pairs"] == []


@pytest.mark.integration
def test_a_killed_run_leaves_no_worker_behind(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import time

    from corpus import Corpus

    root = tmp_path / "repo"
    Corpus(3000, seed=4).write(root)
    proc = subprocess.Popen(
        [sys.executable, "-m", "delta_lint", "check", ".", "--jobs", "2", "--no-cache"],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def children() -> list[int]:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(proc.pid)], capture_output=True, text=True).stdout
        return [int(p) for p in out.split()]

    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None and len(workers) < 2:
        workers = children()
        time.sleep(0.05)
    assert len(workers) == 2, "the run ended before its workers could be seen"
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        alive = [p for p in workers if Path(f"/proc/{p}").exists() and _not_zombie(p)]
        time.sleep(0.1)
    assert alive == []


def _not_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


# -- findings that must not be lost -----------------------------------------------------


def test_a_table_written_by_name_and_by_path_is_one_table(tmp_path):
    root = project(
        tmp_path,
        {
            "jobs/a.sql": "DELETE FROM main.sales.orders WHERE id = 1;\n",
            "jobs/b.sql": "DELETE FROM delta.`file:///data/x/../orders` WHERE id = 2;\n",
            "jobs/c.py": 'spark.read.table("x").write.format("delta").mode("overwrite").save("/data/orders/")\n',
        },
    )
    (root / "delta-lint.yaml").write_text("spark: none\nlocations:\n  main.sales.orders: /data/orders\n")
    proc = cli(root, "check", "jobs", "--format", "json", "--no-cache")
    findings = [f for f in json.loads(proc.stdout)["findings"] if not f["rule"].startswith("DL0")]
    assert proc.returncode == 1 and findings
    assert {f["table"] for f in findings} == {"main.sales.orders"}
    involved = {f["location"]["path"] for f in findings} | {r["path"] for f in findings for r in f["related"]}
    assert involved == {"jobs/a.sql", "jobs/b.sql", "jobs/c.py"}


def test_a_depends_on_cycle_is_reported_at_its_line_and_hides_no_conflict(tmp_path):
    root = project(tmp_path, {"jobs/a.sql": DELETE_A, "jobs/b.sql": DELETE_B})
    (root / "databricks.yml").write_text(
        "bundle: {name: x}\nresources:\n  jobs:\n    j:\n      tasks:\n"
        "        - task_key: a\n          depends_on: [{task_key: b}]\n"
        "          sql_task: {warehouse_id: w, file: {path: jobs/a.sql}}\n"
        "        - task_key: b\n          depends_on: [{task_key: a}]\n"
        "          sql_task: {warehouse_id: w, file: {path: jobs/b.sql}}\n"
    )
    proc = cli(root, "check", "jobs", "--format", "json", "--no-cache")
    findings = json.loads(proc.stdout)["findings"]
    cycle = [f for f in findings if "cycle" in f["message"]]
    assert proc.returncode == 1 and len(cycle) == 1
    assert cycle[0]["location"] == {"path": "databricks.yml", "line": 6, "column": 1}
    assert cycle[0]["severity"] == "error" and "`a` -> `b` -> `a`" in cycle[0]["message"]
    assert "DL102" in {f["rule"] for f in findings}


def test_unterminated_comments_and_bodies_are_reported_and_later_statements_read(tmp_path):
    from delta_lint.frontend import analyze_source

    script = (
        "DELETE FROM s.t WHERE id = 1;\n"
        "/* never closed\n"
        "DELETE FROM s.u WHERE id = 2;\n"
        "SELECT $$ never closed\n"
        ";\nDELETE FROM s.v WHERE id = 3;\n"
    )
    result = analyze_source("a.sql", ".sql", script)
    assert [(i.table.name, i.location.line) for i in result.intents] == [("s.t", 1), ("s.u", 3), ("s.v", 6)]
    problems = [(d.rule, d.location.line, d.severity) for d in result.diagnostics]
    assert problems == [("DL000", 2, "error"), ("DL000", 4, "error")]
    assert "unterminated `/*` comment" in result.diagnostics[0].message
    assert "unterminated `$$` body" in result.diagnostics[1].message


def test_a_delete_with_1200_or_terms_is_analysed(tmp_path):
    from delta_lint.frontend import analyze_source

    terms = " OR ".join(f"id = {i}" for i in range(1200))
    result = analyze_source("a.sql", ".sql", f"DELETE FROM s.t WHERE {terms};\nDELETE FROM s.t WHERE x = 1;\n")
    assert result.diagnostics == [] and len(result.intents) == 2
    region = result.intents[0].region
    assert region is not None and len(region.conjuncts) == 1
    ((column, constraint),) = region.conjuncts[0]
    assert column == "id" and len(constraint.values) == 1200


def test_every_test_the_threat_model_names_exists():
    """The security page's promises name their tests: each must exist."""
    import re

    root = Path(__file__).resolve().parents[2]
    section = (root / "docs" / "security.md").read_text()
    assert section.startswith("# Running delta-lint on untrusted pull requests")
    named = set(re.findall(r"\b(test_[a-z0-9_]+)\b(?!\.py)", section))
    defined = set()
    for path in (root / "tests").rglob("test_*.py"):
        defined |= set(re.findall(r"^def (test_[a-z0-9_]+)", path.read_text(), re.M))
    assert len(named) >= 15 and named <= defined, named - defined
