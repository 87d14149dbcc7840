"""Colour and progress on the terminal: `--color`, NO_COLOR / FORCE_COLOR /
CLICOLOR_FORCE, progress while table settings are read, and a JVM that cannot
start said in one line instead of a screen of its output."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, run_cli
from tests.test_integrations import DELETE_B, MERGE_A, project

ESC = "\x1b["


COLOUR_VARIABLES = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE")


def run(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """`check .` in this process, its standard output not a terminal (like a pipe),
    with only the colour variables of `env` set."""
    return run_cli(
        "check", ".", "--format", "concise", *args, cwd=cwd, env={**dict.fromkeys(COLOUR_VARIABLES), **(env or {})}
    )


@pytest.fixture(scope="module")
def conflict(tmp_path_factory) -> Path:
    return project(tmp_path_factory.mktemp("colour"), {"a.sql": MERGE_A, "b.sql": DELETE_B})


@pytest.mark.parametrize(
    ("args", "env", "coloured"),
    [
        ((), {}, False),  # a pipe: no colour
        (("--color", "always"), {}, True),
        (("--color", "always"), {"NO_COLOR": "1"}, True),  # the option decides
        (("--color", "never"), {"FORCE_COLOR": "1"}, False),
        ((), {"FORCE_COLOR": "1"}, True),
        ((), {"CLICOLOR_FORCE": "1"}, True),
        ((), {"FORCE_COLOR": "0"}, False),
        ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),  # the user's "no" wins over a tool's "force"
        ((), {"NO_COLOR": ""}, False),
    ],
)
def test_colour_choice(conflict, args, env, coloured):
    proc = run(conflict, *args, env=env)
    assert proc.returncode == 1, proc.stderr
    assert (ESC in proc.stdout) is coloured, proc.stdout
    assert "a.sql:1:1" in proc.stdout


def test_an_unknown_colour_choice_is_a_usage_error(conflict):
    proc = run(conflict, "--color", "sometimes")
    assert proc.returncode == 2 and "--color" in proc.stderr


def on_a_terminal(args: list[str], cwd: Path, env: dict) -> bytes:
    """Everything the run writes to a terminal (a pty) as its standard error."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=300)
    os.close(master)
    return seen


@pytest.mark.integration
def test_progress_while_table_settings_are_read(tmp_path):
    shutil.copytree(FIXTURES / "tables" / "orders", tmp_path / "orders")
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    (p / "delta-lint.yaml").write_text("locations:\n  s.orders: orders\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["DELTA_LINT_PROGRESS_DELAY"] = "0"
    command = [sys.executable, "-m", "delta_lint", "check", ".", "--spark", "embedded", "-o", "out.txt"]
    seen = on_a_terminal([*command, "--no-cache"], p, env)
    assert b"starting the embedded engine to read 1 table" in seen or b"reading the settings of 1 table" in seen
    assert "s.orders" in (p / "out.txt").read_text()
    # warm: the table's log is unchanged, nothing is read and nothing is waited for
    on_a_terminal(command, p, env)
    seen = on_a_terminal(command, p, env)
    assert b"engine" not in seen and b"reading the settings" not in seen
    piped = subprocess.run([*command, "--no-cache"], cwd=p, capture_output=True, env=env, timeout=180)
    assert b"engine" not in piped.stderr  # never when standard error is not a terminal


@pytest.mark.integration
def test_a_jvm_that_cannot_start_is_one_line_with_its_reason(conflict):
    """In a subprocess: what the JVM's launcher writes goes to the process's own
    standard error, below anything this process could capture."""
    proc = subprocess.run(
        [sys.executable, "-m", "delta_lint", "check", ".", "--spark", "local", "--no-cache"],
        cwd=conflict,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "JAVA_HOME": str(conflict / "no-java")},
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("delta-lint: error: local Spark"), proc.stderr
    assert "the JVM said:" in lines[0] and "no-java/bin/java" in lines[0]
    assert "Traceback" not in proc.stderr
