"""Code its runtime accepts is read, never a DL000 or an internal error.

Each kind below was met on public Databricks projects no rule was tuned to: a file
CPython (or Databricks SQL) runs that delta-lint called unparseable, or a file that
stopped its reading with an internal error. Each test reads the kind through the
CLI both ways: the shape that runs is read, and a near miss that really does not
run stays a DL000 with a plain message.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from delta_lint.cli import app


def _write(tmp_path: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def check(tmp_path: Path, monkeypatch, files: dict[str, bytes]) -> list[dict]:
    """The findings of `check` on the files, in-process."""
    _write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app, ["check", ".", "--no-cache", "--spark", "none", "--format", "json", "-o", "out.json"]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return json.loads((tmp_path / "out.json").read_text())["findings"]


def intents(tmp_path: Path, monkeypatch, files: dict[str, bytes]) -> list[tuple[str, str]]:
    """(path, table) of every write intent, in-process."""
    _write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["intents", ".", "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return [(i["path"], i["table"]) for i in json.loads(result.stdout)]


def gaps(findings: list[dict]) -> list[tuple[str, str, str]]:
    return [
        (f["rule"], f["location"]["path"], f["message"]) for f in findings if f["rule"] in ("DL000", "DL002", "DL003")
    ]


# -- a PEP 263 coding cookie: CPython decodes the file with it --------------------------------


def test_a_latin1_cookie_is_honoured_in_a_module_and_a_notebook(tmp_path, monkeypatch):
    files = {
        "mod.py": b'# -*- coding: latin-1 -*-\ncaf\xe9 = "x"\nspark.sql("INSERT INTO sales SELECT 1")\n',
        # a notebook's header is the first line, the cookie the second
        "nb.py": b'# Databricks notebook source\n# vim: set fileencoding=cp1252 :\nna\xefve = "\x80"\n'
        b'df.write.saveAsTable("orders")\n',
    }
    found = check(tmp_path, monkeypatch, files)
    assert gaps(found) == []
    assert sorted(intents(tmp_path, monkeypatch, {})) == [("mod.py", "sales"), ("nb.py", "orders")]


def test_bytes_no_cookie_explains_stay_a_utf8_note(tmp_path, monkeypatch):
    files = {
        # no cookie: the bytes are not UTF-8, as CPython also says
        "plain.py": b'caf\xe9 = "x"\nspark.sql("INSERT INTO sales SELECT 1")\n',
        # a cookie on the third line is no cookie (CPython looks at two lines)
        "late.py": b"x = 1\ny = 2\n# -*- coding: latin-1 -*-\ncaf\xe9 = 1\n",
        # a cookie Python does not know is no decoding to follow
        "odd.py": b"# -*- coding: no-such-codec -*-\ncaf\xe9 = 1\n",
    }
    rules = {(r, p) for r, p, _ in gaps(check(tmp_path, monkeypatch, files))}
    for name in files:
        assert ("DL003", name) in rules
        assert ("DL000", name) in rules


# -- IPython magics inside a `%python` cell: IPython's input, not Python's ----------------------

NB = "# Databricks notebook source\n"
SEP = "\n# COMMAND ----------\n\n"


def test_magics_in_a_magic_python_cell_are_read_as_ipython_runs_them(tmp_path, monkeypatch):
    notebook = NB + SEP.join(
        [
            # a library's cell magic: its body is the magic's input
            '# MAGIC %python\n# MAGIC %%kepler\n# MAGIC frame "h3_cell" "h3" 5000',
            # a cell magic that runs its body as Python
            '# MAGIC %python\n# MAGIC %%capture\n# MAGIC df.write.mode("append").saveAsTable("events")',
            # line magics and shell escapes among Python lines
            "# MAGIC %python\n# MAGIC %pip install geopandas\n# MAGIC !ls /dbfs\n"
            '# MAGIC if True:\n# MAGIC     %load_ext autoreload\n# MAGIC spark.sql("DELETE FROM audit WHERE d < 1")',
        ]
    )
    # the same `%python` cell in a SQL notebook runs through the same kernel
    sql_notebook = '-- Databricks notebook source\n-- MAGIC %python\n-- MAGIC %%time\n-- MAGIC spark.sql("INSERT INTO logs SELECT 1")\n'
    # a Jupyter notebook's `%%time` cell
    ipynb = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "source": ["%%time\n", "spark.sql('INSERT INTO runs SELECT 1')\n"]}
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    files = {"nb.py": notebook.encode(), "q.sql": sql_notebook.encode(), "j.ipynb": json.dumps(ipynb).encode()}
    found = check(tmp_path, monkeypatch, files)
    assert [g for g in gaps(found) if g[0] != "DL003"] == []
    said = [(f["location"]["path"], f["location"]["line"], f["message"]) for f in found if f["rule"] == "DL006"]
    assert said == [
        (
            "nb.py",
            3,
            "this IPython `%%kepler` cell is not read (delta-lint reads Python and SQL): its writes are not checked",
        )
    ]
    assert sorted(intents(tmp_path, monkeypatch, {})) == [
        ("j.ipynb", "runs"),
        ("nb.py", "audit"),
        ("nb.py", "events"),
        ("q.sql", "logs"),
    ]


def test_a_magic_cells_body_is_not_read_as_python_and_broken_python_stays_a_dl000(tmp_path, monkeypatch):
    notebook = NB + SEP.join(
        [
            # a shell cell magic whose body looks like a write: it is not Python, so not read
            '# MAGIC %python\n# MAGIC %%bash\n# MAGIC spark.sql("DELETE FROM shadow")',
            # a `%python` cell that really does not parse
            "# MAGIC %python\n# MAGIC def broken(:\n# MAGIC     pass",
            'df.write.saveAsTable("kept")',
        ]
    )
    found = check(tmp_path, monkeypatch, {"nb.py": notebook.encode()})
    assert [(r, p) for r, p, _ in gaps(found)] == [("DL000", "nb.py")]
    assert any(f["rule"] == "DL006" and "`%%bash`" in f["message"] for f in found)
    assert intents(tmp_path, monkeypatch, {}) == [("nb.py", "kept")]


# -- a SQL comment that ends with a bracket is a comment, not an `IDENTIFIER(` call ----------


def test_a_commented_out_call_is_not_read_as_an_identifier_call(tmp_path, monkeypatch):
    files = {
        # a statement holding the word identifier (here in a string) and a commented-out call
        "drop_column.sql": b"INSERT INTO sales.returns\nSELECT id\n  -- , concat(\n  --   'x', b.code\n  -- ) AS link\n"
        b"FROM src b\nWHERE get_json_object(j, '$.identifier') IS NOT NULL;\n",
        "kept_column.sql": b"INSERT INTO sales.orders\nSELECT id,\n  -- concat(\n  --   'x', b.code\n  -- ) AS link,\n"
        b"  get_json_object(j, '$.identifier') AS ident\nFROM src b;\n",
    }
    found = check(tmp_path, monkeypatch, files)
    assert gaps(found) == []
    got = json.loads(
        CliRunner().invoke(app, ["intents", ".", "--format", "json"]).stdout,
    )
    # the commented-out column was read as a `{b_code}` job parameter before
    assert sorted((i["path"], i["table"], tuple(i["parameters"])) for i in got) == [
        ("drop_column.sql", "sales.returns", ()),
        ("kept_column.sql", "sales.orders", ()),
    ]


def test_an_identifier_call_after_a_commented_out_call_is_still_read(tmp_path, monkeypatch):
    script = (
        b"BEGIN\n  DECLARE target STRING DEFAULT 'sales.orders';\n  -- old: concat(\n"
        b"  INSERT INTO IDENTIFIER(target) SELECT * FROM src;\nEND;\n"
    )
    assert intents(tmp_path, monkeypatch, {"script.sql": script}) == [("script.sql", "sales.orders")]


# -- expressions nested past Python's default recursion limit --------------------------------


def test_long_chains_that_cpython_runs_are_read(tmp_path, monkeypatch):
    files = {
        # SQL built by a thousand `+` (generated code): delta-lint's readers recursed past 1,000
        "concat.py": (
            "q = 'INSERT INTO wide SELECT ' + "
            + " + ".join(f"'c{i}, '" for i in range(1500))
            + " + '1'\nspark.sql(q)\n"
        ).encode(),
        # the same with lists
        "lists.py": (
            "cols = ['a'] + " + " + ".join(f"['c{i}']" for i in range(1500)) + "\n"
            "df.select(*cols).write.mode('append').saveAsTable('narrow')\n"
        ).encode(),
        # a method chain `ast.parse` itself refuses under the default limit (CPython compiles it)
        "chain.py": (
            "df = spark.table('src')"
            + "".join(f".withColumn('c{i}', F.lit({i}))" for i in range(1500))
            + "\ndf.write.mode('append').saveAsTable('chained')\n"
        ).encode(),
    }
    assert [g for g in gaps(check(tmp_path, monkeypatch, files)) if g[0] != "DL008"] == []
    assert sorted(intents(tmp_path, monkeypatch, {})) == [
        ("chain.py", "chained"),
        ("concat.py", "wide"),
        ("lists.py", "narrow"),
    ]


def test_a_chain_deeper_than_any_job_writes_stays_a_plain_dl000(tmp_path, monkeypatch):
    deep = (
        "q = 'INSERT INTO huge SELECT ' + " + " + ".join(f"'c{i}, '" for i in range(25000)) + " + '1'\nspark.sql(q)\n"
    )
    found = gaps(check(tmp_path, monkeypatch, {"deep.py": deep.encode(), "ok.py": b"spark.sql('DELETE FROM t')\n"}))
    assert found == [("DL000", "deep.py", "file is nested too deeply to analyse")]


# -- the statement EXECUTE IMMEDIATE runs may end in semicolons, as Spark's grammar allows -----


def test_an_executed_statement_ending_in_a_semicolon_is_read(tmp_path, monkeypatch):
    script = (
        b"DECLARE OR REPLACE VARIABLE cat STRING DEFAULT 'main';\n"
        b"EXECUTE IMMEDIATE \"SET QUERY_TAGS['catalog'] = '\" || cat || \"';\";\n"
        b"EXECUTE IMMEDIATE 'SET QUERY_TAGS[''team''] = ''data'' ; ;';\n"
        b"EXECUTE IMMEDIATE 'INSERT INTO sales.orders SELECT 1;';\n"
    )
    assert gaps(check(tmp_path, monkeypatch, {"tags.sql": script})) == []
    assert intents(tmp_path, monkeypatch, {}) == [("tags.sql", "sales.orders")]


def test_an_executed_statement_that_is_not_sql_stays_a_dl000(tmp_path, monkeypatch):
    script = b"EXECUTE IMMEDIATE 'INSERT INTO sales.returns VALUES (1;';\nINSERT INTO sales.orders SELECT 1;\n"
    assert [(r, p) for r, p, _ in gaps(check(tmp_path, monkeypatch, {"tags.sql": script}))] == [("DL000", "tags.sql")]
