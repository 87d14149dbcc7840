"""A job input with a fallback (`dbutils.widgets.get("catalog") or "staging"`):
where the task gives the input a non-empty value, the fallback is not taken and
the table is named by the task's value; where no task that runs the file gives it
(every such task known), a run reads no such input, so the fallback; where the task
gives it empty, the fallback too."""

from __future__ import annotations

BUNDLE = "bundle:\n  name: b\ninclude:\n  - resources/*.yml\n"


def _jobs(params: str) -> str:
    def job(name: str) -> str:
        return (
            f"    {name}:\n      name: {name}\n      tasks:\n        - task_key: clean\n"
            "          notebook_task:\n            notebook_path: ../src/clean.py\n" + params
        )

    return "resources:\n  jobs:\n" + job("clean_a") + job("clean_b")


GIVEN = "            base_parameters:\n              catalog: hp_prod\n"
NOTEBOOK = (
    "# Databricks notebook source\n"
    'catalog = dbutils.widgets.get("catalog") or "hp_staging"\n'
    'spark.table("raw.t").write.mode("overwrite").saveAsTable(f"{catalog}.silver.listings")\n'
)


def _tables(result) -> set[str]:
    return {i.table.name for i in result.intents}


def test_an_input_the_task_gives_is_taken_before_its_fallback(lint):
    result = lint({"databricks.yml": BUNDLE, "resources/jobs.yml": _jobs(GIVEN), "src/clean.py": NOTEBOOK})
    assert _tables(result) == {"hp_prod.silver.listings"}
    assert {f.table for f in result.findings if f.rule.startswith("DL1")} == {"hp_prod.silver.listings"}


def test_an_input_no_task_gives_or_an_empty_one_is_the_fallback(lint):
    none_given = lint({"databricks.yml": BUNDLE, "resources/jobs.yml": _jobs(""), "src/clean.py": NOTEBOOK})
    assert _tables(none_given) == {"hp_staging.silver.listings"}
    empty = GIVEN.replace("hp_prod", '""')
    given_empty = lint({"databricks.yml": BUNDLE, "resources/jobs.yml": _jobs(empty), "src/clean.py": NOTEBOOK})
    assert "hp_prod.silver.listings" not in _tables(given_empty)
