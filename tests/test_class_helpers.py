"""A class of another module given to a file with only the methods its code may
call (`link._ClassPieces`): what the file reaches is read as before, the methods it
cannot reach are left out, and every location in the class stays where it is.

Each case is a path a method is reached by: named by the job, called by a kept
method (`self._write`), a property a kept method reads, named only by a helper of
another module; and the near miss, a writer no code of the job names, which gives
no write. The statement's line (a site of the intent) is checked in each, past 40
methods that are cut before it."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

# a builder of many methods, one of which writes: the shape of a REST client or a
# table builder library (its other methods are cut for a job that does not name them)
BUILDER = (
    "class Table:\n"
    "    def __init__(self, spark, name):\n"
    "        self.spark = spark\n"
    "        self.name = name\n"
    "        self.cols = []\n"
    "\n"
    + "".join(
        f"    def with_c{k}(self, kind='string'):\n"
        f"        '''Add column c{k}.'''\n"
        f"        self.cols.append(('c{k}', kind))\n"
        f"        return self\n"
        "\n"
        for k in range(40)
    )
    + "    @property\n"
    "    def target(self):\n"
    "        return self.name + '_t'\n"
    "\n"
    "    def save(self, df):\n"
    "        self._write(df, 'append')\n"
    "\n"
    "    def _write(self, df, mode):\n"
    "        df.write.mode(mode).saveAsTable(self.name)\n"
    "\n"
    "    def save_target(self, df):\n"
    "        df.write.mode('overwrite').saveAsTable(self.target)\n"
    "\n"
    "    def by_name(self, how, df):\n"
    "        return getattr(self, how)(df)\n"
    "\n"
    "    def never_named(self, df):\n"
    "        df.write.mode('overwrite').saveAsTable('main.s.never')\n"
)

HELPERS = (
    "from lib.core import Table\n\n\ndef load_and_save(spark, df):\n    Table(spark, 'main.s.loaded').save_target(df)\n"
)


def writes(result, path: str) -> list[tuple[int, str | None, list[tuple[str, int]]]]:
    """(line, table, statement sites) of every intent reported in `path`; no file failed."""
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    return sorted(
        (
            i.location.line,
            i.table.name if i.table else None,
            sorted((s.path, s.line) for s in i.location.sites),
        )
        for i in result.intents
        if i.location.path == path
    )


def project(job: str) -> dict[str, str]:
    return {
        "src/lib/__init__.py": "",
        "src/lib/core.py": BUILDER,
        "src/lib/helpers.py": HELPERS,
        "jobs/run.py": NOTEBOOK + "from lib.core import Table\nfrom lib.helpers import load_and_save\n" + job,
    }


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_chain_of_builder_methods_reaches_the_write_of_a_method_the_kept_one_calls(lint):
    result = lint(project("Table(spark, 'main.s.orders').with_c3().with_c7('int').save(df)\n"))
    write = line_of(BUILDER, "saveAsTable(self.name)")
    assert writes(result, "jobs/run.py") == [(4, "main.s.orders", [("src/lib/core.py", write)])]


def test_a_property_a_method_reads_is_kept_with_it(lint):
    result = lint(project("t = Table(spark, 'main.s.orders')\nt.save_target(df)\n"))
    write = line_of(BUILDER, "saveAsTable(self.target)")
    assert writes(result, "jobs/run.py") == [(5, "main.s.orders_t", [("src/lib/core.py", write)])]


def test_a_method_only_a_helper_of_another_module_names_is_kept(lint):
    result = lint(project("load_and_save(spark, df)\n"))
    write = line_of(BUILDER, "saveAsTable(self.target)")
    assert writes(result, "jobs/run.py") == [(4, "main.s.loaded_t", [("src/lib/core.py", write)])]


def test_a_writer_no_code_of_the_job_names_gives_no_write(lint):
    result = lint(project("Table(spark, 'main.s.orders').with_c1()\n"))
    assert writes(result, "jobs/run.py") == []
