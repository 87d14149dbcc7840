"""The console script (`delta-lint`, `python -m delta_lint`)."""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Run the command line. A `check` command line that `console.check_arguments`
    reads runs `console.check` without importing typer or building the app (about
    30 ms of a short run's start); every other one runs the typer app of
    `delta_lint.cli`, which says the help, the usage errors and runs the other
    commands."""
    from delta_lint import console

    def command() -> None:
        argv = sys.argv[1:]
        completing = any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)
        kwargs = console.check_arguments(argv[1:]) if argv[:1] == ["check"] and not completing else None
        if kwargs is None:
            from delta_lint.cli import app

            app()
        else:
            console.run_check(kwargs)

    console.finish(command)


if __name__ == "__main__":
    main()
