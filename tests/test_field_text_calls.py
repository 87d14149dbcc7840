"""A str method or `str()` in an f-string field reads as the same call bound to a name.

The kind: one expression read two ways by the value layer. `c = raw["catalog"].lower()`
then `f"{c}.s.t"` kept the job input (`{raw_catalog}`, paired by the job's inputs),
while `f"{raw['catalog'].lower()}.s.t"` named a new unknown part after the source
text (`{raw_catalog_lower}`), losing the input. Its shapes: a case or trim method,
`str(x)`, `"{}_x".format(x)` and `a or b` inside a field. Near misses: a method the
value layer does not read (`.title()`), a call of the code's own, stay unknown parts."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def _tables(code: str) -> list[tuple[str, tuple[str, ...]]]:
    result = analyze_source("job.py", ".py", code)
    return [(i.table.name, i.name_inputs) for i in result.intents]


_CODE = """import json, sys
raw = json.loads(sys.argv[1])
{bind}
spark.sql(f"DELETE FROM {{{field}}}.s.t WHERE d < 0")
"""


@pytest.mark.parametrize(
    ("field", "name"),
    [
        ("raw['catalog'].lower()", "{raw_catalog}"),
        ("raw['catalog'].strip().upper()", "{raw_catalog}"),
        ("str(raw['catalog'])", "{raw_catalog}"),
        ("'{}_x'.format(raw['catalog'])", "{raw_catalog}_x"),
        ("dbutils.widgets.get('env').lower()", "{env}"),
    ],
)
def test_a_text_call_in_a_field_reads_as_bound_to_a_name(field: str, name: str) -> None:
    inline = _tables(_CODE.format(bind="", field=field))
    bound = _tables(_CODE.format(bind=f"c = {field}", field="c"))
    assert inline == bound
    assert inline[0][0] == f"{name}.s.t" and inline[0][1]  # still the job's input


@pytest.mark.parametrize("field", ["raw['catalog'].title()", "pick(raw['catalog'])"])
def test_a_call_the_value_layer_does_not_read_stays_an_unknown_part(field: str) -> None:
    [(name, inputs)] = _tables(_CODE.format(bind="", field=field))
    assert name.endswith(".s.t") and name not in ("{raw_catalog}.s.t",) and inputs == ()


def test_a_known_or_in_a_field_takes_its_first_true_value() -> None:
    code = "import os\nenv = 'prod'\nspark.sql(f\"DELETE FROM {env or os.getenv('E')}.s.t WHERE d < 0\")\n"
    assert _tables(code) == [("prod.s.t", ())]
