"""The link stage reads a file with its sources' last readings, in their order.

A file's context is made of what other files give it (`Linker.sources`): the
notebooks it `%run`s, the modules it imports, the notebook that runs it as a
child. When those are themselves read again with what *their* sources give, the
file's context changes once more. Reading every changed file each round read a
file again for each level under it, and stopped after three rounds: a value
passed down a chain of five notebooks (or modules, or a driver and its child)
reached the writer as a parameter. Each wave now reads only the files no other
pending reading can change, so every file is read once per change that reaches
it, and a chain deeper than three resolves.

The kind, in three shapes (a `%run` chain, an import chain, a value a driver
passes its child notebook through its own `%run` chain), each with a near miss
whose value no file gives and so stays a parameter.
"""

from __future__ import annotations

NB = "# Databricks notebook source\n"
CELL = "\n\n# COMMAND ----------\n\n"


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents)


def _run_chain(catalog_line: str) -> dict[str, str]:
    """job -> nb1 -> nb2 -> nb3 -> nb4 -> nb5, each deriving its value from the next."""
    return {
        "nb5.py": NB + catalog_line + "\n",
        "nb4.py": NB + "# MAGIC %run ./nb5" + CELL + 'SCHEMA4 = f"{CATALOG}.sales"\n',
        "nb3.py": NB + "# MAGIC %run ./nb4" + CELL + "SCHEMA3 = SCHEMA4\n",
        "nb2.py": NB + "# MAGIC %run ./nb3" + CELL + "SCHEMA2 = SCHEMA3\n",
        "nb1.py": NB + "# MAGIC %run ./nb2" + CELL + 'TABLE = f"{SCHEMA2}.orders"\n',
        "job.py": NB + "# MAGIC %run ./nb1" + CELL + 'spark.range(3).write.mode("append").saveAsTable(TABLE)\n',
    }


def test_a_value_five_run_notebooks_deep_reaches_the_write(lint):
    result = lint(_run_chain('CATALOG = "main"'))
    assert _tables(result) == ["main.sales.orders"]
    # each notebook read at most twice: alone, then once with its includes' last readings
    assert result.stats.files_analysed <= 2 * 6


def test_a_run_chain_whose_deepest_value_only_a_run_knows_stays_a_parameter(lint):
    result = lint(_run_chain('CATALOG = dbutils.widgets.get("catalog")'))
    [table] = _tables(result)
    assert table != "main.sales.orders" and "{" in table


def _import_chain(catalog_line: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/c5.py": catalog_line + "\n",
        "pkg/c4.py": 'from pkg.c5 import CATALOG\nS4 = CATALOG + ".sales"\n',
        "pkg/c3.py": "from pkg.c4 import S4\nS3 = S4\n",
        "pkg/c2.py": "from pkg.c3 import S3\nS2 = S3\n",
        "pkg/c1.py": 'from pkg.c2 import S2\nTABLE = S2 + ".orders"\n',
        "job.py": 'from pkg.c1 import TABLE\nspark.range(3).write.mode("append").saveAsTable(TABLE)\n',
    }


def test_a_value_five_imported_modules_deep_reaches_the_write(lint):
    result = lint(_import_chain('CATALOG = "main"'))
    assert _tables(result) == ["main.sales.orders"]
    assert result.stats.files_analysed <= 2 * 7


def test_an_import_chain_whose_deepest_value_is_read_from_the_environment_stays_a_parameter(lint):
    result = lint(_import_chain('import os\nCATALOG = os.environ["CATALOG"]'))
    [table] = _tables(result)
    assert table != "main.sales.orders"


def _driver_and_child(catalog_line: str) -> dict[str, str]:
    """A driver passes its child notebook a value its own `%run` chain builds."""
    return {
        "conf3.py": NB + catalog_line + "\n",
        "conf2.py": NB + "# MAGIC %run ./conf3" + CELL + 'SCHEMA = CATALOG + ".sales"\n',
        "conf1.py": NB + "# MAGIC %run ./conf2" + CELL + 'TARGET = SCHEMA + ".orders"\n',
        "driver.py": NB + "# MAGIC %run ./conf1" + CELL + 'dbutils.notebook.run("./child", 600, {"target": TARGET})\n',
        "child.py": NB
        + 'target = dbutils.widgets.get("target")\nspark.range(3).write.mode("append").saveAsTable(target)\n',
    }


def test_a_value_a_driver_builds_through_its_includes_reaches_its_child(lint):
    result = lint(_driver_and_child('CATALOG = "main"'))
    assert _tables(result) == ["main.sales.orders"]
    assert result.stats.files_analysed <= 2 * 5


def test_a_child_given_a_value_no_file_knows_stays_a_parameter(lint):
    result = lint(_driver_and_child('CATALOG = dbutils.widgets.get("catalog")'))
    [table] = _tables(result)
    assert table != "main.sales.orders" and "{" in table


def test_notebooks_that_run_each_other_are_read_together_and_end(lint):
    """A cycle of sources (each notebook `%run`s the other) has no first one: its
    files are read in one wave, and the stage ends within its bound."""
    result = lint(
        {
            "a.py": NB + "# MAGIC %run ./b" + CELL + 'A = "main"\nspark.range(1).write.saveAsTable(f"{B}.t")\n',
            "b.py": NB + "# MAGIC %run ./a" + CELL + 'B = f"{A}.sales"\n',
        }
    )
    assert result.intents  # read, whatever the cycle leaves each name
    assert result.stats.files_analysed <= 2 + 2 * 3


_PROC = "USE CATALOG main;\nCREATE OR REPLACE PROCEDURE ops.{name}()\nLANGUAGE SQL\nAS BEGIN\n  {body}\nEND;\n"


def test_a_procedure_chain_across_files_makes_its_writes_at_the_job_call(lint):
    """What a file asks of others is the same however it was read: `a.sql` read
    with `ops.b` given still asks for `ops.b` (`Links.calls`), so the job that CALLs
    `ops.a`, read after `a.sql`, is given `b` and `c` too and makes `c`'s write."""
    result = lint(
        {
            "sql/a.sql": _PROC.format(name="a", body="CALL main.ops.b();"),
            "sql/b.sql": _PROC.format(name="b", body="CALL main.ops.c();"),
            "sql/c.sql": _PROC.format(name="c", body="INSERT INTO sales.t VALUES (1);"),
            "jobs/job.sql": "CALL main.ops.a();\n",
        }
    )
    assert [(i.location.path, i.table.name) for i in result.intents] == [("jobs/job.sql", "main.sales.t")]


def test_a_procedure_no_file_defines_stays_unknown_at_the_end_of_a_chain(lint):
    result = lint(
        {
            "sql/a.sql": _PROC.format(name="a", body="CALL main.ops.b();"),
            "sql/b.sql": _PROC.format(name="b", body="CALL main.ops.missing();"),
            "jobs/job.sql": "CALL main.ops.a();\n",
        }
    )
    assert result.intents == []
    assert any("no file of the project defines" in d.message for d in result.diagnostics)


def _child_of_a_deferred_driver(catalog_line: str) -> dict[str, str]:
    """Which notebook the driver runs is known only once the driver is read (a
    notebook that `%run`s others is first read with their values); the child has
    includes of its own, so it has a context before its caller is known."""
    return {
        "conf.py": NB + catalog_line + "\n",
        "tools.py": NB + "# MAGIC %run ./conf" + CELL + 'TARGET = f"{CATALOG}.sales.orders"\n',
        "driver.py": NB + "# MAGIC %run ./tools" + CELL + 'dbutils.notebook.run("./child", 600, {"target": TARGET})\n',
        "child.py": NB
        + "# MAGIC %run ./conf"
        + CELL
        + 'target = dbutils.widgets.get("target")\nspark.range(3).write.mode("append").saveAsTable(target)\n',
    }


def test_a_notebook_reading_inputs_waits_for_the_notebook_that_runs_it(lint):
    """A notebook that reads inputs no job gives may be a child whose caller only a
    reading reveals: it is read after the other changed files, once, with the
    arguments its caller gives (7 readings; 8 when it was read beside its caller)."""
    result = lint(_child_of_a_deferred_driver('CATALOG = "main"'))
    assert _tables(result) == ["main.sales.orders"]
    assert result.stats.files_analysed <= 7


def test_a_child_whose_caller_passes_a_value_no_file_knows_stays_a_parameter(lint):
    result = lint(_child_of_a_deferred_driver('CATALOG = dbutils.widgets.get("catalog")'))
    [table] = _tables(result)
    assert table != "main.sales.orders" and "{" in table


def test_notebooks_growing_a_value_through_each_other_are_read_a_bounded_number_of_times(lint):
    """`A = B + "_a"` where `b` `%run`s `a` and `B = A + "_b"`: each reading gives
    the other a longer value, so the contexts never settle. Each file is read with
    a context at most three times (as the three rounds did), not once per wave."""
    result = lint(
        {
            "a.py": NB + "# MAGIC %run ./b" + CELL + 'A = B + "_a"\nspark.range(1).write.saveAsTable(f"main.s.{A}")\n',
            "b.py": NB + "# MAGIC %run ./a" + CELL + 'B = A + "_b"\n',
        }
    )
    assert len(result.intents) == 1
    assert result.stats.files_analysed <= 2 + 2 * 3


def _deep_import_chain(depth: int, deepest: str) -> dict[str, str]:
    """job imports m1, which imports m2, ... to m{depth}, each deriving its value."""
    files = {"pkg/__init__.py": "", f"pkg/m{depth}.py": deepest + "\n"}
    for k in range(1, depth):
        files[f"pkg/m{k}.py"] = f'from pkg.m{k + 1} import V{k + 1}\nV{k} = V{k + 1} + "_{k}"\n'
    files["job.py"] = 'from pkg.m1 import V1\nspark.range(3).write.mode("append").saveAsTable(f"main.s.{V1}")\n'
    return files


def test_a_value_twelve_imported_modules_deep_reaches_the_write(lint):
    """More levels than the waves' floor (8): the waves are as many as the chain of
    sources is deep (`Linker.depth`), so the value reaches the write, with no note."""
    result = lint(_deep_import_chain(12, 'V12 = "t"'))
    assert _tables(result) == ["main.s.t" + "".join(f"_{k}" for k in range(11, 0, -1))]
    assert not [d for d in result.findings if d.rule == "DL008"]


def test_a_twelve_deep_chain_whose_deepest_value_is_unknown_stays_a_parameter(lint):
    result = lint(_deep_import_chain(12, 'import os\nV12 = os.environ["T"]'))
    [table] = _tables(result)
    assert not table.startswith("main.s.t_")


def test_a_chain_deeper_than_the_waves_bound_ends_with_a_note(lint, monkeypatch):
    """Past MAX_LINK_WAVES the stage stops, and says which files it left changing."""
    import delta_lint.run

    monkeypatch.setattr(delta_lint.run, "MAX_LINK_WAVES", 4)
    monkeypatch.setattr(delta_lint.run, "LINK_WAVES", 4)
    result = lint(_deep_import_chain(8, 'V8 = "t"'))
    assert _tables(result) != ["main.s.t" + "".join(f"_{k}" for k in range(7, 0, -1))]
    noted = sorted(d.location.path for d in result.findings if d.rule == "DL008" and "still changing" in d.message)
    assert noted and set(noted) <= {"job.py", *(f"pkg/m{k}.py" for k in range(1, 8))}


def test_a_call_read_with_the_procedure_it_names_is_read_once_with_it(lint):
    """Read with the procedure's body, a CALL asks for it no more; what the file asks
    stays what its reading without context asked, so its context does not empty and
    come back at each reading (plain, with, without, with: four readings and a note)."""
    result = lint(
        {
            "sql/a.sql": _PROC.format(name="a", body="INSERT INTO sales.t VALUES (1);"),
            "jobs/job.sql": "CALL main.ops.a();\n",
        }
    )
    assert [(i.location.path, i.table.name) for i in result.intents] == [("jobs/job.sql", "main.sales.t")]
    assert result.stats.files_analysed == 3
    assert not [f for f in result.findings if f.rule == "DL008"]


def test_a_call_no_file_defines_is_read_once_alone(lint):
    result = lint({"sql/a.sql": "SELECT 1;\n", "jobs/job.sql": "CALL main.ops.missing();\n"})
    assert result.intents == [] and result.stats.files_analysed == 2
