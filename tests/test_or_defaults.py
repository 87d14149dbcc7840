"""`x or y or "literal"`: the first operand that is true, read soundly.

Where an operand's truth is not known (a job input, which may be empty; a name set to
`None` on one way) the value is one of the operands that may be true, the last among
them: a write to it is one write per value, each flagged `one_of`, never an opaque
`{x_or_y_or_literal}` name. Where every task that runs the file is known and none
gives the input, a run reads no such input (a widget never defined raises, `sys.argv`
is shorter): the literal."""

from __future__ import annotations

INGEST = """import sys
try:
    target = dbutils.widgets.get("target_table")
except Exception:
    target = None
target = target or (sys.argv[1] if len(sys.argv) > 1 else None) or "main.bronze.snapshots"
spark.sql(f"MERGE INTO {target} AS t USING incoming AS s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *")
"""
MIGRATE = 'spark.sql("CREATE OR REPLACE TABLE main.bronze.snapshots (id INT) USING DELTA")\n'
BUNDLE = "bundle:\n  name: b\ntargets:\n  prod:\n    default: true\ninclude:\n  - resources/*.yml\n"
JOBS = """resources:
  jobs:
    ingest:
      name: ingest
      schedule:
        quartz_cron_expression: "0 0/5 * * * ?"
        timezone_id: UTC
      tasks:
        - task_key: ingest
          spark_python_task:
            python_file: ../jobs/ingest.py{params}
    migrate:
      name: migrate
      tasks:
        - task_key: migrate
          spark_python_task:
            python_file: ../jobs/migrate.py
"""


def _tables(result, name: str) -> list[tuple[str, bool]]:
    return sorted(
        (i.table.name, "one_of" in {f.value for f in i.flags}) for i in result.intents if i.location.path.endswith(name)
    )


def test_an_or_of_inputs_a_run_may_not_give_is_one_of_them_or_the_literal(lint):
    result = lint({"jobs/ingest.py": INGEST})
    assert _tables(result, "ingest.py") == [
        ("main.bronze.snapshots", True),
        ("{argv_1}", True),
        ("{target_table}", True),
    ]
    # the near miss: an operand known true decides, the others are never read
    known = INGEST.replace("target or (sys.argv", '"main.bronze.given" or (sys.argv')
    assert _tables(lint({"jobs/ingest.py": known}), "ingest.py") == [("main.bronze.given", False)]


def test_an_or_of_values_not_known_keeps_the_literal_among_them(lint):
    job = 't = load_target() or "main.s.fallback"\nspark.sql(f"DELETE FROM {t} WHERE d < 1")\n'
    names = [n for n, _ in _tables(lint({"job.py": job}), "job.py")]
    assert "main.s.fallback" in names and not any("_or_" in n for n in names)


def test_inputs_no_task_gives_are_absent_so_the_literal(lint):
    files = {
        "databricks.yml": BUNDLE,
        "resources/jobs.yml": JOBS.format(params=""),
        "jobs/ingest.py": INGEST,
        "jobs/migrate.py": MIGRATE,
    }
    result = lint(files)
    assert _tables(result, "ingest.py") == [("main.bronze.snapshots", False)]
    assert [f.rule for f in result.findings] == ["DL110"]
    # the near miss: a task that gives the argument writes the table it names
    given = dict(files, **{"resources/jobs.yml": JOBS.format(params='\n            parameters: ["main.bronze.other"]')})
    assert _tables(lint(given), "ingest.py") == [("main.bronze.other", True), ("main.bronze.snapshots", True)]


def test_a_widget_or_a_default_takes_the_task_s_value(lint):
    clean = 'catalog = dbutils.widgets.get("catalog") or "hp_staging"\n'
    clean += 'spark.table("x").write.mode("overwrite").saveAsTable(f"{catalog}.silver.listings")\n'
    job = (
        "resources:\n  jobs:\n    clean:\n      name: clean\n      tasks:\n        - task_key: clean\n"
        "          notebook_task:\n            notebook_path: ../src/clean.py\n{params}"
    )
    files = {"databricks.yml": BUNDLE, "src/clean.py": "# Databricks notebook source\n" + clean}
    given = lint(
        dict(
            files,
            **{
                "resources/jobs.yml": job.format(
                    params="            base_parameters:\n              catalog: hp_prod\n"
                )
            },
        )
    )
    assert _tables(given, "clean.py") == [("hp_prod.silver.listings", False)]
    absent = lint(dict(files, **{"resources/jobs.yml": job.format(params="")}))
    assert _tables(absent, "clean.py") == [("hp_staging.silver.listings", False)]
