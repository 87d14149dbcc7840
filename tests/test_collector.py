"""The cyclic collector in a `check`: paused for the console script's one run when
the run reads little, kept in every process that runs again.

The collector frees almost nothing a run allocates (trees and intents live to the
end); in the 400-file corpus its three collections were a twentieth of the CPU.
The console script ends right after its run, so a small run needs none of them.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from tests.conftest import run_cli

_SCRIPT = (
    "import gc, os, sys\n"
    "seen = []\n"
    "gc.callbacks.append(lambda phase, info: seen.append(1) if phase == 'stop' and 'delta_lint.frontend.sql' in"
    " sys.modules else None)\n"
    "sys.argv = ['delta-lint', 'check', '--spark', 'none', '--no-cache', '.']\n"
    "import delta_lint.run\n"
    "delta_lint.run.COLLECT_BYTES = {collect_bytes}\n"
    "real = os._exit\n"
    "def _exit(code):\n"
    "    print('COLLECTOR', gc.isenabled(), len(seen), file=sys.stderr)\n"
    "    sys.stderr.flush()\n"
    "    real(code)\n"
    "os._exit = _exit\n"
    "from delta_lint.__main__ import main\n"
    "main()\n"
)


def _project(root: Path) -> None:
    (root / "a.sql").write_text("MERGE INTO s.t USING s.u ON t.id = u.id WHEN MATCHED THEN UPDATE SET *;\n")
    (root / "job.py").write_text("spark.sql(\"DELETE FROM s.t WHERE d < '2020-01-01'\")\n")


def _console_check(root: Path, collect_bytes: int) -> tuple[bool, int, str]:
    """Whether the collector was on when the console script's check ended, how many
    collections ran once it read its first SQL, and what it printed."""
    proc = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(collect_bytes=collect_bytes)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(x for x in proc.stderr.splitlines() if x.startswith("COLLECTOR "))
    _, enabled, collections = line.split()
    return enabled == "True", int(collections), proc.stdout


def test_the_console_scripts_small_check_pauses_the_collector(tmp_path):
    _project(tmp_path)
    enabled, collections, printed = _console_check(tmp_path, 4 << 20)
    assert "DL" in printed  # the run checked and found
    assert not enabled and collections == 0


def test_a_check_reading_more_than_the_bound_turns_the_collector_on_again(tmp_path):
    """The near miss: the same run, with a bound below its source's size, collects."""
    _project(tmp_path)
    enabled, _, printed = _console_check(tmp_path, 1)
    assert enabled and "DL" in printed


def test_a_check_in_a_process_that_runs_again_keeps_the_collector(tmp_path):
    """The tests, the language server and library callers run `check` in a process
    that goes on: the collector is never paused there."""
    _project(tmp_path)
    assert gc.isenabled()
    done = run_cli("check", ".", "--no-cache", "--spark", "none", cwd=tmp_path)
    assert done.returncode == 1 and gc.isenabled()
