"""`--help` fits the terminal it is read in: bracketed text survives, lines wrap at
the terminal's width, option names are never cut, and `-V` prints the version."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

from delta_lint import __version__
from delta_lint.cli import app

COMMANDS = [[], *([name] for name in typer.main.get_command(app).commands)]


def _help(args: list[str], columns: int) -> str:
    # CliRunner pins click's width to 80 whatever COLUMNS says; a terminal's width
    # reaches click as the context's `terminal_width`, which this passes the same way.
    result = CliRunner().invoke(
        app, [*args, "--help"], env={"COLUMNS": str(columns)}, prog_name="delta-lint", terminal_width=columns
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("columns", [80, 120])
def test_bracketed_text_renders(columns: int) -> None:
    out = _help(["check"], columns)
    assert "[tool.delta-lint]" in " ".join(out.split()).replace("delta- lint", "delta-lint")
    assert "delta-lint.yaml or )" not in out


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "top")
def test_help_wraps_at_the_terminal_and_cuts_no_option_name(args: list[str], columns: int) -> None:
    out = _help(args, columns)
    assert max(len(line) for line in out.splitlines()) <= columns, out
    assert "…" not in out
    command = typer.main.get_command(app)
    for name in args:
        command = command.commands[name]
    for param in command.params:
        if param.param_type_name == "option" and not param.hidden:
            for spelling in (*param.opts, *param.secondary_opts):
                assert spelling in out.replace(",", " ").split(), f"{spelling} cut from {' '.join(args)} --help"


def test_wider_terminals_get_longer_lines() -> None:
    narrow, wide = _help(["check"], 80), _help(["check"], 120)
    assert max(map(len, wide.splitlines())) > 80 >= max(map(len, narrow.splitlines()))


def test_help_follows_columns_of_a_real_terminal() -> None:
    command = [sys.executable, "-m", "delta_lint", "check", "--help"]
    widths = {}
    for columns in (80, 120):
        env = {**os.environ, "COLUMNS": str(columns)}
        out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
        widths[columns] = max(map(len, out.splitlines()))
    assert widths[80] <= 80 < widths[120] <= 120


def test_check_help_shows_examples() -> None:
    out = _help(["check"], 80)
    assert "Examples:" in out
    assert "delta-lint check --diff-base origin/main" in out


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_flags(flag: str) -> None:
    result = CliRunner().invoke(app, [flag])
    assert result.exit_code == 0 and result.output.strip() == f"delta-lint {__version__}"
