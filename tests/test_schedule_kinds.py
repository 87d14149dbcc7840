"""Job definitions in the shapes teams keep them: a complex bundle variable given as
a task's whole parameters, YAML anchors and aliases in job files, and workspace
paths whose folders differ from the repository's. Each is read, and its near miss
stays what it was."""

from __future__ import annotations

from tests.test_link import NB

WRITE_TABLE = NB + 't = dbutils.widgets.get("table")\nspark.table("x").write.mode("overwrite").saveAsTable(t)\n'
WRITE_ARGV = 'import sys\n\nspark.table("x").write.mode("overwrite").saveAsTable(sys.argv[2])\n'


def _rules(result) -> list[str]:
    return sorted(f.rule for f in result.findings)


def _messages(result, rule: str) -> list[str]:
    return [f.message for f in result.findings if f.rule == rule]


# -- a complex variable used whole ---------------------------------------------------------------

COMPLEX = """\
bundle: {name: shop}
variables:
  user_config:
    type: complex
    default: {region: eu, table: main.sales.orders}
  params:
    type: complex
    default: ["--table", "main.sales.orders"]
targets:
  dev: {default: true}
  prod:
    variables:
      user_config: {region: us, table: main.sales.orders_us}
  staging:
    variables:
      user_config:
        default: {region: eu, table: main.sales.orders_staging}
resources:
  jobs:
    orders:
      schedule: {quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}
      tasks:
        - task_key: load
          notebook_task: {notebook_path: ./src/load.py, base_parameters: "${var.user_config}"}
        - task_key: script
          spark_python_task: {python_file: ./src/script.py, parameters: "${var.params}"}
"""
COMPLEX_FILES = {"databricks.yml": COMPLEX, "src/load.py": WRITE_TABLE, "src/script.py": WRITE_ARGV}


def test_a_complex_variable_given_whole_is_the_tasks_parameters(lint):
    result = lint(COMPLEX_FILES)
    assert "DL003" not in _rules(result), _messages(result, "DL003")
    # both tasks write main.sales.orders, unordered in one job: a conflict
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == ["DL102"]
    assert {i.table.name for i in result.intents} == {"main.sales.orders"}


def test_a_targets_complex_value_replaces_the_default_in_either_form(lint):
    # the short form (the mapping itself) and `default:` both give the target's value
    for target, table in (("prod", "main.sales.orders_us"), ("staging", "main.sales.orders_staging")):
        result = lint(COMPLEX_FILES, {"target": target})
        assert "DL003" not in _rules(result)
        assert {i.table.name for i in result.intents if i.location.path == "src/load.py"} == {table}, target


def test_a_complex_variable_inside_text_stays_as_written(lint):
    bundle = COMPLEX.replace(
        'base_parameters: "${var.user_config}"', 'base_parameters: {table: "t_${var.user_config}"}'
    )
    result = lint({**COMPLEX_FILES, "databricks.yml": bundle})
    tables = {i.table.name for i in result.intents if i.location.path == "src/load.py"}
    assert not any("region" in t for t in tables), tables  # never the mapping's text


def test_a_whole_reference_to_no_variable_leaves_the_parameters_to_a_run(lint):
    bundle = COMPLEX.replace("${var.user_config}", "${var.missing}")
    result = lint({**COMPLEX_FILES, "databricks.yml": bundle})
    assert "DL003" not in _rules(result)
    assert any(f.rule == "DL001" and f.location.path == "src/load.py" for f in result.findings)


def test_a_reference_where_a_mapping_belongs_must_be_whole(lint):
    bundle = COMPLEX.replace('"${var.user_config}"', '"x ${var.user_config}"')
    result = lint({**COMPLEX_FILES, "databricks.yml": bundle})
    assert any("base_parameters" in m for m in _messages(result, "DL003"))
