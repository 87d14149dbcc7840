"""Notebooks keep the line and column of the original file."""

from __future__ import annotations

import json

from delta_lint.frontend import analyze_source

DATABRICKS = """# Databricks notebook source
x = 1

# COMMAND ----------

# MAGIC %sql
# MAGIC UPDATE s.t
# MAGIC SET a = 1 WHERE d = '1'

# COMMAND ----------

# MAGIC %run ./setup

# COMMAND ----------

df.write.mode("append").saveAsTable("s.u")
"""


def test_databricks_python_notebook():
    r = analyze_source("nb.py", ".py", DATABRICKS)
    assert [(i.location.line, i.location.column, i.table.name, i.kind.value) for i in r.intents] == [
        (7, 9, "s.t", "update"),
        (16, 1, "s.u", "blind_append"),
    ]
    assert [(loc.line, target) for loc, target in r.runs] == [(12, "./setup")]


def test_databricks_sql_notebook_with_python_cell():
    text = (
        "-- Databricks notebook source\nDELETE FROM s.t WHERE d = '1';\n\n-- COMMAND ----------\n\n"
        '-- MAGIC %python\n-- MAGIC spark.sql("UPDATE s.t SET a = 1")\n'
    )
    r = analyze_source("nb.sql", ".sql", text)
    assert sorted((i.location.line, i.kind.value) for i in r.intents) == [(2, "delete"), (7, "update")]


def test_ipynb_cells_map_to_file_lines():
    nb = {
        "cells": [
            {"cell_type": "markdown", "source": ["# t\n"], "metadata": {}},
            {
                "cell_type": "code",
                "source": ["%sql\n", "DELETE FROM s.t\n", "WHERE d = '1'\n"],
                "metadata": {},
                "outputs": [],
            },
            {"cell_type": "code", "source": ["x = 1\n", 'df.writeTo("s.u").append()\n'], "metadata": {}, "outputs": []},
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    text = json.dumps(nb, indent=1)
    r = analyze_source("nb.ipynb", ".ipynb", text)
    lines = text.splitlines()
    got = [(i.location.line, i.kind.value) for i in r.intents]
    assert [k for _, k in got] == ["delete", "blind_append"]
    assert "DELETE FROM s.t" in lines[got[0][0] - 1]
    assert "writeTo" in lines[got[1][0] - 1]


def test_invalid_ipynb_is_a_diagnostic():
    r = analyze_source("nb.ipynb", ".ipynb", "{not json")
    assert [d.rule for d in r.diagnostics] == ["DL000"]


def test_a_bang_line_inside_a_multi_line_string_is_sql_not_a_shell_escape():
    """`!t.removed` opens a line of SQL in a triple-quoted string: it stays (Spark
    SQL's NOT), while a `!pip install` line of the cell itself is a shell escape."""
    cell = (
        "!pip install x\n"
        'spark.sql("""\n'
        "  MERGE INTO main.ops.watch t USING main.ops.src s ON\n"
        "  !t.removed\n"
        "  AND t.id = s.id\n"
        "  WHEN MATCHED THEN UPDATE SET *\n"
        '""")\n'
    )
    source = "# Databricks notebook source\n" + cell
    ipynb = json.dumps({"cells": [{"cell_type": "code", "source": cell.splitlines(keepends=True)}], "metadata": {}})
    for name, suffix, text in (("a.py", ".py", source), ("a.ipynb", ".ipynb", ipynb)):
        result = analyze_source(name, suffix, text)
        assert [d.message for d in result.diagnostics] == []
        (intent,) = result.intents
        assert intent.predicate_sql == "NOT t.removed AND t.id = s.id"


def test_a_nul_in_an_ipynb_cell_loses_no_write(tmp_path):
    """Found by the reader fuzzer: a comment cell holding `\\u0000` made every write
    of the notebook disappear behind one DL000 (CPython refuses NUL in source)."""
    import json

    from delta_lint.frontend import analyze_source

    cells = ["df = spark.table('src')", 'df.write.format("delta").mode("append").saveAsTable("t_a")', "# \u0000"]
    nb = {
        "cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": []} for c in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    result = analyze_source("nb.ipynb", ".ipynb", json.dumps(nb))
    assert [i.table.name for i in result.intents] == ["t_a"]
    assert not [d for d in result.diagnostics if d.rule == "DL000"]


INDENTED_CELL = """# Databricks notebook source
spark.sql("USE CATALOG main")

# COMMAND ----------

 def f(df):
     df.write.mode("overwrite").saveAsTable("s.t")

# COMMAND ----------

f(spark.range(3))
"""


def test_a_cell_indented_as_a_whole_runs_as_ipython_dedents_it():
    """IPython (Databricks' Python kernel) takes the first line's indentation off
    every line of a cell: a cell indented as a whole is valid and read, its
    location still the file's column."""
    r = analyze_source("nb.py", ".py", INDENTED_CELL)
    assert [d.rule for d in r.diagnostics] == []
    assert [(i.location.line, i.location.column, str(i.table)) for i in r.intents] == [(7, 6, "main.s.t")]


def test_a_cell_whose_later_line_alone_is_indented_is_still_a_syntax_error():
    text = INDENTED_CELL.replace(" def f(df):", "def f(df):\n    pass\n  x = 1")
    r = analyze_source("nb.py", ".py", text)
    assert [(d.rule, d.location.line) for d in r.diagnostics] == [("DL000", 8)]


def test_a_cell_that_does_not_parse_stops_only_itself():
    """IPython compiles each cell alone: the write of the next cell is read, and the
    broken cell is one DL000 at its line."""
    text = INDENTED_CELL.replace(" def f(df):\n", "def f(df:\n") + 'spark.range(1).write.saveAsTable("u")\n'
    r = analyze_source("nb.py", ".py", text)
    assert [(d.rule, d.location.line) for d in r.diagnostics] == [("DL000", 6)]
    assert "the notebook's other cells are" in r.diagnostics[0].message
    assert [(i.location.line, str(i.table)) for i in r.intents] == [(12, "u")]


def test_an_ipynb_with_one_broken_cell_keeps_the_others():
    nb = {
        "cells": [
            {"cell_type": "code", "source": ["x = (\n"], "metadata": {}, "outputs": []},
            {"cell_type": "code", "source": ['  df.writeTo("s.u").append()\n'], "metadata": {}, "outputs": []},
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    r = analyze_source("nb.ipynb", ".ipynb", json.dumps(nb, indent=1))
    assert [d.rule for d in r.diagnostics] == ["DL000"]
    assert [i.kind.value for i in r.intents] == ["blind_append"]


def test_a_notebook_of_one_broken_cell_keeps_its_one_error():
    r = analyze_source("nb.py", ".py", "# Databricks notebook source\nx = (\n")
    assert [(d.rule, d.message) for d in r.diagnostics] == [("DL000", "Python syntax error: '(' was never closed")]


RAW_MAGIC = """# Databricks notebook source
x = 1

# COMMAND ----------
%sql
DELETE FROM s.t WHERE d = '1'

# COMMAND ----------
%md
# A heading, not Python

# COMMAND ----------
%run ./setup

# COMMAND ----------
df.write.mode("append").saveAsTable("s.u")
"""


def test_a_cell_magic_typed_without_the_magic_prefix_sets_the_cells_language():
    """A notebook edited as a file: `%sql` as a cell's first line without `# MAGIC `.
    Databricks takes the cell's language from its first line; the SQL is read as
    SQL, the Markdown is not Python, the `%run` is an include."""
    r = analyze_source("nb.py", ".py", RAW_MAGIC)
    assert [d.rule for d in r.diagnostics] == []
    assert [(i.location.line, i.table.name, i.kind.value) for i in r.intents] == [
        (6, "s.t", "delete"),
        (16, "s.u", "blind_append"),
    ]
    assert [(loc.line, target) for loc, target in r.runs] == [(13, "./setup")]


def test_a_percent_line_after_python_in_a_cell_is_still_a_line_magic():
    text = '# Databricks notebook source\nx = 1\n%sql\ndf.write.saveAsTable("s.u")\n'
    r = analyze_source("nb.py", ".py", text)
    assert [(i.table.name, i.location.line) for i in r.intents] == [("s.u", 4)]


def test_a_notebook_saved_as_source_under_a_jupyter_name_is_read_as_source():
    text = '# Databricks notebook source\nspark.sql("DELETE FROM s.t WHERE d = 1")\n'
    r = analyze_source("setup.ipynb", ".ipynb", text)
    assert [d.rule for d in r.diagnostics] == []
    assert [(i.location.line, i.table.name) for i in r.intents] == [(2, "s.t")]


def test_an_empty_ipynb_holds_no_code_and_no_error():
    assert analyze_source("empty.ipynb", ".ipynb", " \n").diagnostics == []
    # a truncated one is still invalid JSON
    assert [d.rule for d in analyze_source("cut.ipynb", ".ipynb", '{"cells": [').diagnostics] == ["DL000"]


def test_an_indented_line_magic_is_a_statement_of_its_block():
    """IPython runs `    %pip install x` inside an `if` (or `!ls` in a loop) as a
    statement of that block: the cell parses, and its writes are read. The near
    miss: a magic at the start of a line, between two statements, still stands for
    nothing, and a `%` inside open brackets is still code (a remainder)."""
    text = (
        "# Databricks notebook source\n"
        'if dbutils.widgets.get("extra") == "yes":\n'
        "    %pip install -q great-expectations==0.18.8\n"
        "for p in paths:\n"
        "    !ls {p}\n"
        'spark.table("raw.e").write.mode("append").saveAsTable("main.s.events")\n'
        "%pip install x\n"
        "n = (7\n"
        "    % 4)\n"
        'df.write.mode("append").saveAsTable(f"main.s.t{n}")\n'
    )
    r = analyze_source("nb.py", ".py", text)
    assert not [d for d in r.diagnostics if d.rule == "DL000"]
    assert [(i.table.name, i.location.line) for i in r.intents] == [("main.s.events", 6), ("main.s.t3", 10)]
    cell = ['if extra == "yes":\n', "    %pip install x\n", 'df.write.saveAsTable("s.u")\n']
    nb = {
        "cells": [{"cell_type": "code", "source": cell, "metadata": {}, "outputs": []}],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    r = analyze_source("nb.ipynb", ".ipynb", json.dumps(nb, indent=1))
    assert not [d for d in r.diagnostics if d.rule == "DL000"]
    assert [i.table.name for i in r.intents] == ["s.u"]


def test_scala_and_r_code_is_said_not_read_never_skipped_silently(lint):
    """Scala and R notebooks and cells write Delta tables too: a `%scala`/`%r` cell (of
    a Databricks source or an .ipynb) is a DL006 note at its magic, and so is a
    Scala or R notebook's own cell that may write (its SQL and Python cells are
    read, see test_foreign_notebooks.py), while the notebook's Python is read as
    before; an R notebook that writes nothing has nothing to say."""
    cell = {"cell_type": "code", "metadata": {}, "outputs": []}
    ipynb = {
        "cells": [
            {**cell, "source": ["%%scala\n", 'spark.table("a").write.saveAsTable("s.u")\n']},
            {**cell, "source": ['spark.sql("DELETE FROM s.u WHERE id = 2")\n']},
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    result = lint(
        {
            "load.scala": '// Databricks notebook source\nspark.table("a").write.saveAsTable("s.t")\n',
            "report.r": "# Databricks notebook source\nlibrary(SparkR)\n",
            "nb.py": (
                '# Databricks notebook source\nspark.sql("DELETE FROM s.t WHERE id = 1")\n'
                "\n# COMMAND ----------\n\n# MAGIC %r\n# MAGIC x <- 1\n"
            ),
            "nb2.ipynb": json.dumps(ipynb),
        }
    )
    assert result.skipped == {}
    notes = [
        (f.location.path, f.location.line, f.message.split(" cell")[0]) for f in result.findings if f.rule == "DL006"
    ]
    assert sorted(notes)[:2] == [("load.scala", 2, "this Scala"), ("nb.py", 6, "this R")]
    assert [(p, m) for p, _, m in sorted(notes)[2:]] == [("nb2.ipynb", "this Scala")]
    assert sorted((i.location.path, i.table.name) for i in result.intents) == [("nb.py", "s.t"), ("nb2.ipynb", "s.u")]
