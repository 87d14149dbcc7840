"""A Lakeflow pipeline's source kept as a Jupyter notebook (`.ipynb`, a SQL or a
Python notebook): its datasets are read from its cells, at the notebook's own
lines, as its `.sql`/`.py` export would be — not from the notebook's JSON."""

from __future__ import annotations

import json

BUNDLE = """
bundle: {name: costs}
resources:
  pipelines:
    costs:
      catalog: billing
      schema: azure
      configuration:
        bronze_table_name: actuals_bronze
      libraries:
        - notebook: {path: src/pipeline.ipynb}
"""


def _notebook(language: str, cells: list[str]) -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": "code", "metadata": {}, "source": c.splitlines(keepends=True)} for c in cells],
            "metadata": {
                "application/vnd.databricks.v1+notebook": {"language": language},
                "language_info": {"name": language},
            },
            "nbformat": 4,
            "nbformat_minor": 0,
        },
        indent=1,
    )


def _lakeflow(lint, notebook: str) -> list[tuple[str, str, int]]:
    result = lint({"databricks.yml": BUNDLE, "src/pipeline.ipynb": notebook})
    return sorted(
        (i.table.name, i.kind.value, i.location.line)
        for r in result.files
        for i in r.intents
        if i.subkind == "lakeflow"
    )


def test_a_sql_notebooks_datasets_are_read_at_their_lines(lint):
    notebook = _notebook(
        "sql",
        [
            "CREATE OR REFRESH STREAMING TABLE ${bronze_table_name}\nCLUSTER BY AUTO\n"
            "AS SELECT * FROM STREAM read_files('/Volumes/x')",
            "CREATE OR REPLACE MATERIALIZED VIEW gold AS SELECT * FROM actuals_bronze",
        ],
    )
    found = _lakeflow(lint, notebook)
    lines = notebook.splitlines()
    assert [(t, k) for t, k, _ in found] == [
        ("billing.azure.actuals_bronze", "streaming_write"),
        ("billing.azure.gold", "full_overwrite"),
    ]
    for _, _, line in found:  # the line of the notebook file that holds the CREATE
        assert "CREATE" in lines[line - 1]


def test_a_python_notebooks_datasets_are_read(lint):
    notebook = _notebook(
        "python",
        ["import dlt", '@dlt.table(name="silver")\ndef silver():\n    return spark.readStream.table("bronze")'],
    )
    assert [(t, k) for t, k, _ in _lakeflow(lint, notebook)] == [("billing.azure.silver", "streaming_write")]


def test_a_notebooks_text_in_another_language_defines_nothing(lint):
    """A markdown cell that shows a CREATE is no dataset."""
    notebook = json.loads(_notebook("sql", ["SELECT 1"]))
    notebook["cells"].append(
        {"cell_type": "markdown", "metadata": {}, "source": ["CREATE OR REFRESH STREAMING TABLE shown AS SELECT 1"]}
    )
    assert _lakeflow(lint, json.dumps(notebook, indent=1)) == []


def test_a_notebook_written_on_one_line_keeps_every_dataset(lint):
    """`json.dumps` with no indent (one line), and a cell's source given as one
    string: each line of code is read in order, none overwrites another."""
    cells = [
        "CREATE OR REFRESH STREAMING TABLE ${bronze_table_name}\nAS SELECT * FROM STREAM read_files('/v')",
        "CREATE OR REPLACE MATERIALIZED VIEW gold AS SELECT * FROM actuals_bronze",
    ]
    one_line = json.dumps(json.loads(_notebook("sql", cells)))
    as_strings = json.loads(_notebook("sql", cells))
    for cell, text in zip(as_strings["cells"], cells, strict=True):
        cell["source"] = text
    for notebook in (one_line, json.dumps(as_strings)):
        assert [(t, k) for t, k, _ in _lakeflow(lint, notebook)] == [
            ("billing.azure.actuals_bronze", "streaming_write"),
            ("billing.azure.gold", "full_overwrite"),
        ]
