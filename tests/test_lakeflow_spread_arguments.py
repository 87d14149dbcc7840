"""A Lakeflow flow whose target comes in spread arguments (`create_auto_cdc_flow(**kw)`,
`apply_changes(*args)`) is a write of the pipeline: its target when the spread dict
names it, else an unresolved dataset with a note, never nothing."""

from __future__ import annotations

import pytest

BUNDLE = """
bundle: {name: shop}
resources:
  pipelines:
    medallion:
      catalog: shop
      schema: silver
      libraries:
        - file: {path: src/pipeline.py}
"""
HEAD = "from pyspark import pipelines as dp\n\n"


def _read(lint, code: str):
    result = lint({"databricks.yml": BUNDLE, "src/pipeline.py": HEAD + code})
    intents = sorted(
        (i.location.line, i.table.name) for r in result.files for i in r.intents if i.subkind == "lakeflow"
    )
    notes = [d.location.line for d in result.diagnostics if d.rule == "DL001"]
    return intents, notes


@pytest.mark.parametrize(
    "code",
    [
        'kw = {"target": "customers", "source": "raw", "keys": ["id"], "sequence_by": "ts"}\n'
        "dp.create_auto_cdc_flow(**kw)\n",
        'dp.create_auto_cdc_flow(**{"target": "customers", "source": "raw", "keys": ["id"], "sequence_by": "ts"})\n',
        # the near miss: the target as a keyword, read as before
        'dp.create_auto_cdc_flow(target="customers", source="raw", keys=["id"], sequence_by="ts")\n',
    ],
)
def test_a_spread_dict_naming_the_target_gives_it(lint, code):
    intents, notes = _read(lint, code)
    assert [name for _, name in intents] == ["shop.silver.customers"]
    assert notes == []


def test_a_target_only_a_run_gives_is_an_unresolved_dataset_with_a_note(lint):
    code = "def flow(kw):\n    dp.create_auto_cdc_flow(**kw)\n\n\nflow(load_settings())\n"
    intents, notes = _read(lint, code)
    assert len(intents) == 1 and "{" in intents[0][1]
    assert notes == [intents[0][0]]
