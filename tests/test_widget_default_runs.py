"""A notebook two jobs run, one giving a widget and one leaving it to the widget's
default: the run that gives nothing takes the default the notebook's code creates
the widget with, so the two runs write one table when the values agree and two
when they differ (never a placeholder pairing them by chance)."""

from __future__ import annotations

BUNDLE = "bundle:\n  name: b\ninclude:\n  - resources/*.yml\n"
NOTEBOOK = (
    "# Databricks notebook source\n"
    'dbutils.widgets.text("catalog", "users")\n'
    'catalog = dbutils.widgets.get("catalog")\n'
    'spark.table("raw.t").write.mode("overwrite").saveAsTable(f"{catalog}.demo.seed")\n'
)


def _jobs(given: str) -> str:
    def job(name: str, params: str) -> str:
        return (
            f"    {name}:\n      name: {name}\n      tasks:\n        - task_key: seed\n"
            "          notebook_task:\n            notebook_path: ../src/seed.py\n" + params
        )

    params = f"            base_parameters:\n              catalog: {given}\n"
    return "resources:\n  jobs:\n" + job("setup", params) + job("redeploy", "")


def _run(lint, given: str):
    return lint({"databricks.yml": BUNDLE, "resources/jobs.yml": _jobs(given), "src/seed.py": NOTEBOOK})


def test_a_run_leaving_a_widget_to_its_default_writes_the_same_table(lint):
    result = _run(lint, "users")
    assert {i.table.name for i in result.intents} == {"users.demo.seed"}
    assert {f.table for f in result.findings if f.rule.startswith("DL1")} == {"users.demo.seed"}


def test_a_default_other_than_the_given_value_is_another_table(lint):
    result = _run(lint, "prod")
    assert {i.table.name for i in result.intents} == {"prod.demo.seed", "users.demo.seed"}
    assert not any(f.rule.startswith("DL1") and "{" in (f.table or "") for f in result.findings)
