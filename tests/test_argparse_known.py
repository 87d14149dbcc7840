"""`args, rest = parser.parse_known_args(argv)` in a helper gives the parsed
arguments as `parse_args` does: `args.catalog` is the job's `--catalog` input
(a named input the task's parameters fill), not an unknown `{args_catalog}` that
never meets the same table written elsewhere. What `rest` holds stays unknown."""

from __future__ import annotations

HELPER = """import argparse


def parse(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--catalog", required=True)
    args, rest = parser.parse_known_args(argv)
    return {use}


"""


def test_parse_known_args_in_a_helper_names_the_input(lint):
    code = HELPER.format(use="args.catalog") + 'spark.range(1).write.saveAsTable(f"{parse()}.gold.t")\n'
    result = lint({"job.py": code})
    assert [(i.table.name, i.params) for i in result.intents] == [("{catalog}.gold.t", ("catalog",))]


def test_the_arguments_not_declared_stay_unknown(lint):
    code = HELPER.format(use="rest[0]") + 'spark.range(1).write.saveAsTable(f"main.gold.{parse()}")\n'
    result = lint({"job.py": code})
    assert [f.rule for f in result.findings] == ["DL001"]
