"""The console script runs a `check` command line without typer, and exactly as the
typer app would: the same arguments reach `check`, the same output and exit code
come back, and every command line it does not read itself goes to the app."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from enum import Enum
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from delta_lint import console
from delta_lint.cli import app
from tests.conftest import ROOT

CHECK = typer.main.get_command(app).commands["check"]

# command lines after `check` the console script reads itself
READ = [
    [],
    ["."],
    ["a.sql", "sub"],
    ["--format", "json", "-o", "out.json", "-j", "1", "--no-cache"],
    ["--format=sarif", "--output-format", "concise"],
    ["--select", "DL1", "--select", "DL2", "--ignore=DL104", "--history-file", "t=h.json"],
    ["-q", "--exit-zero", "--statistics", "--strict", "--show-files", "--show-stats", "--debug", "--refresh"],
    ["--changed", "--show-settings", "a.sql"],
    ["--spark", "none", "--spark-timeout", "2.5", "--target", "dev", "-t", "prod", "--bundle", "b.yml"],
    ["--color", "never", "--fail-on", "error", "--durations-from", "history"],
    ["--stdin-filename", "a.sql", "-"],
    ["--diff-base", "origin/main", "--baseline", "base.json", "--write-baseline", "w.json"],
    ["x", "-j", "3", "y", "--jobs", " 2"],
    ["--target", "--no-cache"],  # an option's value may look like an option
    ["--config", "c.yaml", "--output", "-", "--spark-timeout", "1e3"],
    [""],
]
# command lines the console script leaves to typer: help, usage errors, forms it does not read
LEFT = [
    ["-h"],
    ["--help"],
    ["--format", "JSON"],
    ["-j", "x"],
    ["--exit-zero=1"],
    ["--", "a.sql"],
    ["-qj", "2"],
    ["-j2"],
    ["--bogus"],
    ["--format"],
    ["--spark-timeout", "abc"],
    ["--version"],
]


def _typer_arguments(args: list[str], monkeypatch) -> dict:
    """What the typer app passes to `console.check` for `check ARGS`."""
    seen: list[dict] = []

    def check(**kwargs) -> None:
        seen.append(kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(console, "check", check)
    result = CliRunner().invoke(app, ["check", *args])
    assert result.exit_code == 0 and len(seen) == 1, result.output
    return seen[0]


def _defaults() -> dict:
    return {name: p.default for name, p in inspect.signature(console.check).parameters.items()}


@pytest.mark.parametrize("args", READ, ids=lambda a: " ".join(a) or "none")
def test_a_read_command_line_gives_check_what_typer_gives_it(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.sql").write_text("DELETE FROM s.t WHERE x = 1;\n")
    read = console.check_arguments(args)
    assert read is not None
    assert {**_defaults(), **read} == _typer_arguments(args, monkeypatch)


@pytest.mark.parametrize("args", LEFT, ids=" ".join)
def test_help_errors_and_other_forms_are_left_to_typer(args):
    assert console.check_arguments(args) is None


def test_an_existing_path_typer_refuses_is_left_to_typer(tmp_path):
    """typer refuses an existing path it cannot read; a missing one is fine (the run
    says so). Root reads everything, so the near miss is all it can see."""
    locked = tmp_path / "locked.sql"
    locked.write_text("SELECT 1;\n")
    locked.chmod(0)
    try:
        expected = None if not os.access(locked, os.R_OK) else {"paths": [locked]}
        assert console.check_arguments([str(locked)]) == expected
    finally:
        locked.chmod(0o644)
    assert console.check_arguments([str(tmp_path / "missing.sql")]) == {"paths": [tmp_path / "missing.sql"]}


def test_the_options_read_are_the_options_typer_declares():
    """Every spelling of every option of `check` is read, with its parameter, its kind
    and its default; and nothing else is."""
    declared = {}
    defaults = _defaults()
    for param in CHECK.params:
        if param.param_type_name != "option":
            assert param.name == "paths" and param.nargs == -1
            continue
        if param.name == "help":
            continue
        for spelling in (*param.opts, *param.secondary_opts):
            declared[spelling] = param.name
        name, kind = console.CHECK_OPTIONS[param.opts[0]]
        assert name == param.name
        default = defaults[name]
        assert param.default == default, name
        if param.is_flag:
            assert kind == "flag" and default is False
        elif param.multiple:
            assert kind == "many" and default is None
        elif isinstance(kind, type) and issubclass(kind, Enum):
            assert list(param.type.choices) == [m.value for m in kind]
        else:
            expected = {"int": int, "float": float, "str": str, "path": console._path}
            assert kind is expected[param.type.name], name
    assert declared == {spelling: name for spelling, (name, _) in console.CHECK_OPTIONS.items()}


def _sql_project(root: Path) -> None:
    (root / "a.sql").write_text("MERGE INTO s.t USING s.u ON t.id = u.id WHEN MATCHED THEN UPDATE SET *;\n")
    (root / "b.sql").write_text("DELETE FROM s.t WHERE d < '2020-01-01';\n")
    (root / "delta-lint.yaml").write_text("spark: none\n")


def _script(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """`delta-lint ARGS` as the console script runs it, telling on stderr's last two
    lines whether the typer app was imported, and `subprocess` (for git)."""
    code = (
        "import os, sys\nfrom delta_lint.__main__ import main\n"
        f"sys.argv = ['delta-lint', *{args!r}]\n"
        "real = os._exit\n"
        "def _exit(code):\n"
        "    print('APP', 'typer' in sys.modules, 'delta_lint.cli' in sys.modules, file=sys.stderr)\n"
        "    print('GIT', 'subprocess' in sys.modules, file=sys.stderr)\n"
        "    sys.stderr.flush(); real(code)\n"
        "os._exit = _exit\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


def _typer(args: list[str], cwd: Path) -> tuple[int, str, str]:
    before = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, args, prog_name="delta-lint")
    finally:
        os.chdir(before)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.integration
@pytest.mark.parametrize(
    "args",
    [
        ["check", "--no-cache", "--format", "json"],
        ["check", "--no-cache", "--format=concise", "-j", "1", "--select", "DL1", "a.sql"],
        ["check", "--no-cache", "--exit-zero", "--color", "never"],
        ["check", "--changed", "--diff-base", "main"],  # a usage error `check` says itself
    ],
    ids=lambda a: " ".join(a[1:]),
)
def test_the_console_script_runs_a_check_without_typer_as_typer_would(args, tmp_path):
    _sql_project(tmp_path)
    proc = _script(args, tmp_path)
    *said, app, git = proc.stderr.splitlines()
    # nor git's module: `--diff-base` alone asks git, though every check imports `changed`
    assert (app, git) == ("APP False False", "GIT False")
    code, out, err = _typer(args, tmp_path)
    assert (proc.returncode, proc.stdout, "".join(f"{line}\n" for line in said)) == (code, out, err)


@pytest.mark.integration
@pytest.mark.parametrize(
    "args",
    [["check", "--format", "bogus"], ["check", "-j2", "--no-cache", "--format", "json"], ["--version"], ["rules"]],
    ids=" ".join,
)
def test_the_console_script_leaves_other_command_lines_to_the_app(args, tmp_path):
    """The near miss: what `check_arguments` does not read still runs, through typer."""
    _sql_project(tmp_path)
    proc = _script(args, tmp_path)
    *said, last, _ = proc.stderr.splitlines()
    assert last == "APP True True"
    code, out, err = _typer(args, tmp_path)
    assert proc.returncode == code and proc.stdout == out
    assert "".join(f"{line}\n" for line in said) == err
