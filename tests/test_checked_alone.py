"""A notebook checked alone (`delta-lint check nb.py`, as pre-commit passes the
changed files) reads the notebooks it `%run`s beside it as the whole project
does: the catalog and schema they leave name its tables the same way."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from delta_lint.cli import app

SETUP = '# Databricks notebook source\nspark.sql("USE main.claims")\n'
MAIN = (
    "# Databricks notebook source\n# MAGIC %run ./setup/init\n\n# COMMAND ----------\n\n"
    'spark.table("s").write.mode("append").saveAsTable("rules")\n'
)


def tables(root: Path, *paths: str) -> list[str]:
    """`delta-lint intents PATHS --format json` run in the project, as a user would."""
    result = CliRunner().invoke(app, ["intents", *paths, "--format", "json"])
    assert result.exit_code == 0, result.output
    return sorted(i["table"] for i in json.loads(result.output) if i["table"])


def project(tmp_path: Path, setup: str | None = SETUP) -> Path:
    (tmp_path / "setup").mkdir()
    if setup is not None:
        (tmp_path / "setup" / "init.py").write_text(setup)
    (tmp_path / "main.py").write_text(MAIN)
    return tmp_path


def test_a_notebook_checked_alone_reads_its_included_setup(tmp_path, monkeypatch):
    root = project(tmp_path)
    monkeypatch.chdir(root)
    assert tables(root, ".") == ["main.claims.rules"]
    assert tables(root, "main.py") == ["main.claims.rules"]


def test_the_included_notebook_is_read_not_reported(tmp_path, monkeypatch):
    root = project(tmp_path, SETUP + 'spark.sql("DELETE FROM main.claims.audit WHERE id = 1")\n')
    monkeypatch.chdir(root)
    assert tables(root, "main.py") == ["main.claims.rules"]


def test_a_missing_include_changes_nothing(tmp_path, monkeypatch):
    root = project(tmp_path, setup=None)
    monkeypatch.chdir(root)
    assert tables(root, "main.py") == ["rules"]
