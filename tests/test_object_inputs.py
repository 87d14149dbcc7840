"""A value bound on `self` in `__init__` reads as the same expression does at module
level, for an object whose construction the code shows (issue 34, kind K1).

The kind: a job input (a JSON task parameter, a widget) carried into a table name
through an object's attributes. Module level kept the name (`{raw_catalog}.ops.c`,
`main.ops.c` once the job gives the input); the attribute lost all of it
(`{self_control_table}`, DL001). Its shapes: a configuration record built from the
input (a pydantic model over `**raw`, a `NamedTuple` from `dbutils.widgets.get`), a
str method in an f-string field (`{raw['catalog'].lower()}`), a property returning an
f-string over the record. Near misses stay unknown or unflagged: a name each task
gives its own part of, a validator that may rewrite the field, a subclass or the
code outside the class setting the attribute again, a class the code never makes."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source

_JSON_JOB = """bundle:
  name: t
resources:
  jobs:
    ingest:
      name: ingest
      parameters:
        - name: catalog
          default: Main
      tasks:
        - task_key: csv_files
          spark_python_task:
            python_file: ./src/ingest.py
            parameters:
              - '{"catalog": "{{job.parameters.catalog}}", "file_type": "csv"}'
        - task_key: json_files
          spark_python_task:
            python_file: ./src/ingest.py
            parameters:
              - '{"catalog": "{{job.parameters.catalog}}", "file_type": "json"}'
"""

_WIDGET_JOB = """bundle:
  name: t
resources:
  jobs:
    ingest:
      name: ingest
      tasks:
        - task_key: csv_files
          notebook_task:
            notebook_path: ./src/ingest.py
            base_parameters: {catalog: main, file_type: csv}
        - task_key: json_files
          notebook_task:
            notebook_path: ./src/ingest.py
            base_parameters: {catalog: main, file_type: json}
"""

_INGEST = """import json
import sys

from pydantic import BaseModel, field_validator


class TaskParams(BaseModel):
    catalog: str
    file_type: str
{validator}

class FileIngestion:
    def __init__(self, raw: dict) -> None:
        params = TaskParams(**raw)
        self.file_type = params.file_type
        self.control_table = {control}
        self.audit_table = {audit}

    def mark_done(self, path: str) -> None:
        spark.sql(f"UPDATE {{self.control_table}} SET status = 'done' WHERE path = '{{path}}'")

    def audit(self, path: str) -> None:
        spark.sql(f"DELETE FROM {{self.audit_table}} WHERE path = '{{path}}'")

{made}
job.mark_done("a")
job.audit("a")
"""

_MODEL = 'f"{params.catalog}.ops.file_control"'
_LOWER = "f\"{raw['catalog'].lower()}.ops.file_audit\""
_MADE = "job = FileIngestion(json.loads(sys.argv[1]))"


def _ingest(control: str = _MODEL, audit: str = _LOWER, made: str = _MADE, validator: str = "") -> str:
    return _INGEST.format(control=control, audit=audit, made=made, validator=validator)


def _conflicts(result) -> list[tuple[str, str]]:
    return sorted((f.rule, f.table or "") for f in result.findings if f.rule.startswith("DL1"))


def _dynamic(result) -> list[str]:
    return sorted(d.message.split("`")[1] for d in result.diagnostics if d.rule == "DL001")


def test_a_model_over_a_task_parameter_and_a_str_method_in_init_name_the_table(lint) -> None:
    result = lint({"databricks.yml": _JSON_JOB, "src/ingest.py": _ingest()})
    assert _conflicts(result) == [("DL102", "main.ops.file_audit"), ("DL102", "main.ops.file_control")]
    assert _dynamic(result) == []


def test_a_name_each_task_gives_its_own_part_of_is_not_paired(lint) -> None:
    control = "f\"{params.catalog}.ops.file_control_{raw['file_type']}\""
    audit = "f\"{raw['catalog'].lower()}.ops.file_audit_{self.file_type}\""
    result = lint({"databricks.yml": _JSON_JOB, "src/ingest.py": _ingest(control, audit)})
    assert _conflicts(result) == []
    assert _dynamic(result) == []


def test_a_validator_that_may_rewrite_the_field_leaves_it_unknown(lint) -> None:
    validator = (
        '\n    @field_validator("catalog")\n    @classmethod\n'
        '    def _env(cls, v: str) -> str:\n        return v + "_" + lookup()\n'
    )
    result = lint({"databricks.yml": _JSON_JOB, "src/ingest.py": _ingest(validator=validator)})
    # the model's field is no longer the input: its table is known only at run time
    # (paired as any run-time name of one statement is), never `main.ops.file_control`
    tables = [t for _, t in _conflicts(result)]
    assert "main.ops.file_control" not in tables and "main.ops.file_audit" in tables  # `raw` is not validated
    assert "{params_catalog}.ops.file_control" in tables


def test_an_attribute_set_again_outside_the_class_is_not_read_as_init_gives_it(lint) -> None:
    made = _MADE + "\njob.control_table = pick_table()\njob.audit_table = pick_table()"
    result = lint({"databricks.yml": _JSON_JOB, "src/ingest.py": _ingest(made=made)})
    assert [t for _, t in _conflicts(result) if t.startswith("main.")] == []  # `{self_x}` at most


def test_a_subclass_that_sets_the_attribute_again_is_read_with_its_own_value(lint) -> None:
    made = (
        "class PerType(FileIngestion):\n"
        "    def __init__(self, raw: dict) -> None:\n"
        "        super().__init__(raw)\n"
        "        self.control_table = self.control_table + '_' + raw['file_type']\n"
        "        self.audit_table = self.audit_table + '_' + raw['file_type']\n\n\n"
        "job = PerType(json.loads(sys.argv[1]))"
    )
    result = lint({"databricks.yml": _JSON_JOB, "src/ingest.py": _ingest(made=made)})
    assert _conflicts(result) == []  # each task its own table, or not known: never the base's


_RECORD = """from typing import NamedTuple


class Cfg(NamedTuple):
    catalog: str
    schema: str = "ops"


class Loader:
    def __init__(self, cfg: Cfg) -> None:
        self.cfg = cfg

    @property
    def control(self) -> str:
        return f"{{self.cfg.catalog}}.{{self.cfg.schema}}.{table}"

    def mark(self) -> None:
        spark.sql(f"UPDATE {{self.control}} SET status = 'done' WHERE path = 'a'")


Loader(Cfg(catalog=dbutils.widgets.get("catalog"))).mark()
"""


def test_a_record_from_widgets_read_through_a_property_names_the_table(lint) -> None:
    result = lint({"databricks.yml": _WIDGET_JOB, "src/ingest.py": _RECORD.format(table="control")})
    assert _conflicts(result) == [("DL102", "main.ops.control")]


def test_a_record_field_each_task_sets_apart_is_not_paired(lint) -> None:
    code = _RECORD.format(table="control_{self.cfg.schema}").replace(
        'Cfg(catalog=dbutils.widgets.get("catalog"))',
        'Cfg(dbutils.widgets.get("catalog"), dbutils.widgets.get("file_type"))',
    )
    result = lint({"databricks.yml": _WIDGET_JOB, "src/ingest.py": code})
    assert _conflicts(result) == []


def _tables(code: str) -> list[tuple[str, tuple[str, ...], bool]]:
    result = analyze_source("job.py", ".py", code)
    return sorted((i.table.name, i.name_inputs, "unresolved" in {f.value for f in i.flags}) for i in result.intents)


_MODULE = """import json, sys
{head}
raw = json.loads(sys.argv[1])
{bind}
spark.sql(f"UPDATE {{t}} SET status = 'done' WHERE path = 'a'")
"""

_IN_INIT = """import json, sys
{head}
class Loader:
    def __init__(self, raw: dict) -> None:
        {bind}
        self.t = t

    def mark(self) -> None:
        spark.sql(f"UPDATE {{self.t}} SET status = 'done' WHERE path = 'a'")


Loader(json.loads(sys.argv[1])).mark()
"""

_PYDANTIC = "from pydantic import BaseModel\nclass P(BaseModel):\n    catalog: str\n"
_DATACLASS = "from dataclasses import dataclass\n@dataclass\nclass P:\n    catalog: str\n"


@pytest.mark.parametrize(
    ("head", "bind"),
    [
        ("", "t = f\"{raw['catalog'].lower()}.ops.c\""),
        ("", "c = raw['catalog'].lower(); t = f'{c}.ops.c'"),
        ("", "t = f\"{str(raw['catalog']).strip()}.ops.c\""),
        ("", "t = \"{}.ops.c\".format(raw['catalog'].upper())"),
        (_PYDANTIC, 'p = P(**raw); t = f"{p.catalog}.ops.c"'),
        (_DATACLASS, "p = P(raw['catalog']); t = f\"{p.catalog}.ops.c\""),
    ],
)
def test_a_value_reads_the_same_at_module_level_and_in_init(head: str, bind: str) -> None:
    module = _tables(_MODULE.format(head=head, bind=bind))
    in_init = _tables(_IN_INIT.format(head=head, bind=bind))
    assert module == in_init
    [(name, inputs, unresolved)] = in_init
    assert name.endswith("}.ops.c") and inputs == ("argv_1",) and not unresolved


def test_a_model_over_a_job_input_document_keeps_each_field_a_job_input() -> None:
    code = _PYDANTIC + 'import json, sys\np = P(**json.loads(sys.argv[1]))\nspark.sql(f"DELETE FROM {p.catalog}.s.t")\n'
    assert _tables(code) == [("{argv_1_catalog}.s.t", ("argv_1",), False)]


@pytest.mark.parametrize(
    "model",
    [
        _PYDANTIC + '    @field_validator("catalog")\n    def v(cls, x):\n        return other(x)\n',
        _PYDANTIC + "    @model_validator(mode='after')\n    def v(self):\n        return self\n",
        _PYDANTIC.replace("catalog: str", 'catalog: str = Field(alias="Catalog")'),
        _DATACLASS + "    def __post_init__(self):\n        self.catalog = other(self.catalog)\n",
        _DATACLASS + "    def __post_init__(self):\n        object.__setattr__(self, 'catalog', other())\n",
    ],
    ids=["field-validator", "model-validator", "alias", "post-init", "frozen-post-init"],
)
def test_a_field_the_class_may_rewrite_is_not_the_input(model: str) -> None:
    bind = 'p = P(**raw); t = f"{p.catalog}.ops.c"'
    for code in (_MODULE.format(head=model, bind=bind), _IN_INIT.format(head=model, bind=bind)):
        assert all(inputs == () for _, inputs, _ in _tables(code)), code


def test_a_method_of_a_class_never_made_reads_self_as_unknown() -> None:
    # the reading 765fa97 took back: no object, so no `__init__` value for `self.t`
    code = _IN_INIT.format(head="", bind="t = f\"{raw['catalog']}.ops.c\"").rsplit("\n\n\n", 1)[0] + "\n"
    assert _tables(code) == [("{self_t}", (), True)]
