from delta_lint.cli import run

run()
