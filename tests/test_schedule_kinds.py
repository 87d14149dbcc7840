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


# -- YAML anchors and aliases in job files -------------------------------------------------------

ORDERS = NB + 'spark.table("x").write.mode("overwrite").saveAsTable("main.sales.orders")\n'
REFUNDS = NB + 'spark.sql("DELETE FROM main.sales.orders WHERE id = 1")\n'
ANCHORED = """\
bundle: {name: shop}
definitions:
  cluster: &cluster {spark_version: 15.4.x-scala2.12, num_workers: 2}
  hourly: &hourly
    schedule: {quartz_cron_expression: "0 0 * * * ?", timezone_id: UTC}
resources:
  jobs:
    orders:
      <<: *hourly
      tasks:
        - task_key: load
          new_cluster: *cluster
          notebook_task: {notebook_path: ./src/orders.py}
    refunds:
      <<: *hourly
      tasks:
        - task_key: fix
          new_cluster: *cluster
          notebook_task: {notebook_path: ./src/refunds.py}
"""
ANCHORED_FILES = {"databricks.yml": ANCHORED, "src/orders.py": ORDERS, "src/refunds.py": REFUNDS}


def _bomb(levels: int) -> str:
    """An alias bomb: each level nine aliases of the one before (9**levels leaves)."""
    lines = ["bundle: {name: b}", "x:", "  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    lines += ["resources:", "  jobs:", "    j:", f"      tags: {{t: *a{levels}}}"]
    lines += ["      tasks: [{task_key: t, notebook_task: {notebook_path: ./src/orders.py}}]"]
    return "\n".join(lines) + "\n"


def test_a_bundle_with_anchors_and_merge_keys_is_read(lint):
    result = lint(ANCHORED_FILES)
    assert "DL003" not in _rules(result), _messages(result, "DL003")
    # both jobs hourly at :00 (from `<<: *hourly`): their writes meet
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == ["DL102"]
    assert "hourly" in str([f.overlap for f in result.findings if f.rule == "DL102"])


def test_a_job_yaml_with_an_aliased_task_is_read(lint):
    job = (
        "name: orders\ntasks:\n  - &load\n    task_key: load\n    notebook_task: {notebook_path: ./orders.py}\n"
        "  - <<: *load\n    task_key: fix\n    notebook_task: {notebook_path: ./refunds.py}\n"
    )
    result = lint({"jobs/orders.yml": job, "jobs/orders.py": ORDERS, "jobs/refunds.py": REFUNDS})
    assert "DL003" not in _rules(result), _messages(result, "DL003")
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == ["DL102"]


def test_an_alias_bomb_is_a_diagnostic_at_its_line_in_bounded_time(lint):
    import time

    start = time.monotonic()
    result = lint({**ANCHORED_FILES, "databricks.yml": _bomb(9), "jobs/other.yml": "name: o\ntasks: []\n"})
    assert time.monotonic() - start < 30
    problems = [f for f in result.findings if f.rule == "DL003"]
    assert len(problems) == 1 and "aliases expand to more than" in problems[0].message
    assert problems[0].location.path == "databricks.yml" and 4 <= problems[0].location.line <= 12
    assert result.n_files >= 2  # the other files are still read


def test_a_small_expansion_passes_and_a_self_holding_alias_stops_at_the_depth_limit(lint):
    small = lint({**ANCHORED_FILES, "databricks.yml": _bomb(3)})  # 9**3 nodes: well inside the limit
    assert "DL003" not in _rules(small), _messages(small, "DL003")
    looped = ANCHORED.replace("definitions:\n", "definitions:\n  loop: &loop {again: [*loop]}\n")
    result = lint({**ANCHORED_FILES, "databricks.yml": looped})
    assert any("nested more than 100 levels" in m for m in _messages(result, "DL003"))


def test_aliases_stay_refused_in_delta_lints_own_configuration(tmp_path):
    from tests.conftest import run_cli

    (tmp_path / "delta-lint.yaml").write_text("a: &a [x]\nexclude: *a\n")
    (tmp_path / "a.sql").write_text("SELECT 1;\n")
    proc = run_cli("check", ".", cwd=tmp_path)
    assert proc.returncode == 2 and "aliases (*name) are not allowed" in proc.stderr
