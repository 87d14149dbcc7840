"""`--target` on the commands that read a bundle, and the target they judged said on
stderr (`intents --format json` is a list on stdout, whose shape stays)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

# the default target `dev` is a development target, `prod` a production one: a run
# without --target judges prod; each target names its own catalog
BUNDLE = """\
bundle: {name: shop}
variables:
  catalog: {default: none}
targets:
  dev:
    mode: development
    default: true
    variables: {catalog: dev_cat}
  prod:
    mode: production
    variables: {catalog: prod_cat}
resources:
  jobs:
    nightly:
      name: nightly
      parameters:
        - {name: target_catalog_name, default: "${var.catalog}"}
      tasks:
        - task_key: load
          notebook_task: {notebook_path: src/load.py}
"""
LOAD = (
    "# Databricks notebook source\n"
    'dbutils.widgets.text("target_catalog_name", "")\n'
    'catalog = dbutils.widgets.get("target_catalog_name")\n'
    "df.write.mode('append').saveAsTable(f'{catalog}.sales.orders')\n"
)


def _project(root: Path) -> Path:
    (root / "src").mkdir()
    (root / "databricks.yml").write_text(BUNDLE)
    (root / "src" / "load.py").write_text(LOAD)
    return root


def _tables(proc) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return sorted({i["table"] for i in json.loads(proc.stdout)})


def test_intents_reads_the_chosen_target_and_says_the_judged_one(tmp_path):
    p = _project(tmp_path)
    default = run_cli("intents", ".", "--format", "json", cwd=p)
    assert _tables(default) == ["prod_cat.sales.orders"]
    assert "note: judged bundle databricks.yml: target `prod` (mode: production" in default.stderr
    dev = run_cli("intents", ".", "--format", "json", "--target", "dev", cwd=p)
    assert _tables(dev) == ["dev_cat.sales.orders"]
    assert "note: judged bundle databricks.yml: target `dev` (chosen with --target" in dev.stderr
    text = run_cli("intents", ".", "-t", "dev", cwd=p)
    assert "dev_cat.sales.orders" in text.stdout and "prod_cat" not in text.stdout
    assert "target `dev`" in text.stderr and "note:" not in text.stdout


def test_intents_with_an_unknown_target_is_a_usage_error(tmp_path):
    proc = run_cli("intents", ".", "--target", "nope", cwd=_project(tmp_path))
    assert proc.returncode == 2 and "no such target" in proc.stderr


def test_intents_without_a_bundle_says_no_target(tmp_path):
    (tmp_path / "a.sql").write_text("DELETE FROM s.t WHERE x = 1;\n")
    proc = run_cli("intents", ".", cwd=tmp_path)
    assert proc.returncode == 0 and "s.t" in proc.stdout and "judged" not in proc.stderr


def test_tables_reads_the_chosen_target_and_says_the_judged_one(tmp_path):
    p = _project(tmp_path)
    default = run_cli("tables", ".", "--spark", "none", cwd=p)
    assert "prod_cat.sales.orders" in default.stdout and "dev_cat" not in default.stdout
    assert "note: judged bundle databricks.yml: target `prod` (mode: production" in default.stderr
    dev = run_cli("tables", ".", "--spark", "none", "--target", "dev", cwd=p)
    assert "dev_cat.sales.orders" in dev.stdout and "prod_cat" not in dev.stdout
    assert "target `dev` (chosen with --target" in dev.stderr


def test_advise_says_the_judged_target_in_every_format(tmp_path):
    p = _project(tmp_path)
    text = run_cli("advise", ".", "--spark", "none", cwd=p)
    assert text.returncode == 0, text.stderr
    assert "note: judged bundle databricks.yml: target `prod` (mode: production" in text.stdout
    doc = json.loads(run_cli("advise", ".", "--spark", "none", "--format", "json", cwd=p).stdout)
    assert any("target `prod`" in n for n in doc["notes"])
    dev = json.loads(run_cli("advise", ".", "--spark", "none", "--format", "json", "-t", "dev", cwd=p).stdout)
    assert any("target `dev` (chosen with --target" in n for n in dev["notes"])
    md = run_cli("advise", ".", "--spark", "none", "--format", "markdown", cwd=p).stdout
    assert "note: judged bundle databricks.yml: target" in md


def test_history_says_the_judged_target_in_every_format(tmp_path):
    p = _project(tmp_path)
    text = run_cli("history", ".", "--spark", "none", cwd=p)
    assert text.returncode == 0, text.stderr
    assert "note: judged bundle databricks.yml: target `prod` (mode: production" in text.stdout
    doc = json.loads(run_cli("history", ".", "--spark", "none", "--format", "json", "-t", "dev", cwd=p).stdout)
    assert any("target `dev` (chosen with --target" in n for n in doc["notes"])
    md = run_cli("history", ".", "--spark", "none", "--format", "markdown", cwd=p).stdout
    assert "note: judged bundle databricks.yml: target `prod`" in md
