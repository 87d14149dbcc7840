"""Tasks made in a loop over values only a run knows (`for ts in make_list():`,
a `while`) are read once for all rounds: each task stands for its copies, which
run side by side unless the body orders each round after the last. A value that
differs per round is unknown, so a file it names is not picked."""

from __future__ import annotations

from tests.test_link import _conflicts

MERGE = (
    "from pyspark.sql import SparkSession\n"
    "spark = SparkSession.builder.getOrCreate()\n"
    'spark.sql("MERGE INTO delta.`s3a://wh/audit` AS t USING s ON t.id = s.id WHEN MATCHED THEN DELETE")\n'
)
HEAD = (
    "from datetime import datetime, timedelta\n"
    "from airflow import DAG\n"
    "from airflow.operators.empty import EmptyOperator\n"
    "from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator\n"
    "def batches():\n"
    "    out, t = [], datetime(2026, 1, 1)\n"
    "    while t < datetime(2026, 1, 2):\n"
    "        out.append(t.isoformat())\n"
    "        t += timedelta(minutes=15)\n"
    "    return out\n"
    'with DAG("backfill", schedule=None, start_date=datetime(2026, 1, 1), max_active_runs=1) as dag:\n'
    '    start = EmptyOperator(task_id="start")\n'
    "    previous = start\n"
    "    for ts in batches():\n"
    '        run = SparkSubmitOperator(task_id=f"merge_{ts}", application=APP, application_args=[ts])\n'
)


def _files(body: str, app: str = '"/opt/airflow/jobs/merge.py"') -> dict[str, str]:
    return {"dags/backfill.py": HEAD.replace("APP", app) + body, "jobs/merge.py": MERGE}


def test_rounds_of_an_unknown_loop_run_side_by_side(lint):
    # one run at a time, yet the rounds' copies of one task meet each other
    assert _conflicts(lint(_files("        start >> run\n"))) == ["DL102"]


def test_rounds_each_ordered_after_the_last_never_meet(lint):
    assert _conflicts(lint(_files("        previous >> run\n        previous = run\n"))) == []


def test_a_file_named_by_the_round_s_value_is_not_picked(lint):
    result = lint(_files("        start >> run\n", app='f"/opt/airflow/jobs/{ts}.py"'))
    assert _conflicts(result) == []
    assert any("is not static" in f.message for f in result.findings if f.rule == "DL006")
