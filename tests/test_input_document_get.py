"""A field of a job input's document (`params = json.loads(dbutils.widgets.get(
"params"))`, `json.loads(sys.argv[1])`) is one job input however the code reads
it: `params.get("catalog")` names the same input as `params["catalog"]`, in a
text or bound to a name first, so the engine pairs the writes by that input
(`Intent.name_inputs`). A `.get` with a default may give the default instead: it
is not the input alone and keeps no input."""

from __future__ import annotations

import pytest

HEAD = 'import json\nimport sys\n\nparams = json.loads(dbutils.widgets.get("params"))\nargs = json.loads(sys.argv[1])\n'


def written(result) -> list[tuple[str, tuple[str, ...]]]:
    return sorted((i.table.name, i.name_inputs) for i in result.intents)


@pytest.mark.parametrize(
    "read",
    [
        "spark.sql(f\"DELETE FROM {params.get('catalog')}.s.t WHERE 1=1\")\n",
        'c = params.get("catalog")\nspark.sql(f"DELETE FROM {c}.s.t WHERE 1=1")\n',
    ],
)
def test_get_of_a_widget_document_names_the_same_input_as_an_index(lint, read):
    indexed = HEAD + "spark.sql(f\"DELETE FROM {params['catalog']}.s.t WHERE 1=1\")\n"
    result = lint({"a/job.py": indexed, "b/job.py": HEAD + read})
    assert written(result) == [("{params_catalog}.s.t", ("params",))] * 2


def test_get_of_an_argument_document_names_the_argument(lint):
    result = lint({"job.py": HEAD + "spark.sql(f\"DELETE FROM {args.get('catalog')}.s.t WHERE 1=1\")\n"})
    assert written(result) == [("{args_catalog}.s.t", ("argv_1",))]


@pytest.mark.parametrize(
    "read",
    [
        # a default the code gives: not the input alone
        "spark.sql(f\"DELETE FROM {params.get('catalog', 'main')}.s.t WHERE 1=1\")\n",
        # a literal dict's `.get`: its own value, no input
        'conf = {"catalog": "main"}\nspark.sql(f"DELETE FROM {conf.get(\'catalog\')}.s.t WHERE 1=1")\n',
    ],
)
def test_other_gets_name_no_input(lint, read):
    result = lint({"job.py": HEAD + read})
    assert all(not inputs for _, inputs in written(result))
