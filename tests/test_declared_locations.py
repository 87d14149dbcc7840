"""A table written by its name and by its storage path is one table when the
workload's own statements say where it lives: a Hive metastore `CREATE SCHEMA ...
LOCATION` (its managed tables live in `<location>/<table>`) or an external `CREATE
TABLE ... LOCATION`. Only known text places a table: Unity Catalog's `MANAGED
LOCATION`, a catalog other than the Hive metastore, a part only a run knows, or a
location given two names leaves the path and the name apart."""

from __future__ import annotations

BY_PATH = """\
from delta.tables import DeltaTable
src = spark.table("stage.results")
DeltaTable.forPath(spark, "/mnt/lake/processed/results").alias("t").merge(
    src.alias("s"), "t.id = s.id"
).whenMatchedUpdateAll().execute()
"""
BY_NAME = 'spark.table("stage.results").write.mode("overwrite").saveAsTable("f1_processed.results")\n'
JOBS = {"jobs": {"a": {"paths": ["merge.py"]}, "b": {"paths": ["reload.py"]}}}


def _tables(result) -> list[tuple[str, str | None]]:
    return sorted((f.rule, f.table) for f in result.findings if f.rule.startswith("DL1"))


def _run(lint, setup: str, by_path: str = BY_PATH, by_name: str = BY_NAME, name: str = "setup.sql"):
    return lint({name: setup, "merge.py": by_path, "reload.py": by_name}, JOBS)


def test_a_hive_schema_location_makes_its_table_folder_the_table(lint):
    result = _run(lint, "CREATE DATABASE IF NOT EXISTS f1_processed LOCATION '/mnt/lake/processed';\n")
    assert _tables(result) == [("DL102", "f1_processed.results")]


def test_a_comment_before_the_location_and_a_schema_keyword(lint):
    setup = "CREATE SCHEMA f1_processed COMMENT 'processed layer' LOCATION \"/mnt/lake/processed/\";\n"
    assert _tables(_run(lint, setup)) == [("DL102", "f1_processed.results")]


def test_an_external_table_location_is_its_name(lint):
    setup = (
        "CREATE TABLE IF NOT EXISTS f1_processed.results (id INT) USING DELTA LOCATION '/mnt/lake/processed/results';\n"
    )
    assert _tables(_run(lint, setup)) == [("DL102", "f1_processed.results")]


def test_a_location_set_from_python_sql_places_it_too(lint):
    setup = "spark.sql(\"CREATE DATABASE IF NOT EXISTS f1_processed LOCATION '/mnt/lake/processed'\")\n"
    assert _tables(_run(lint, setup, name="setup.py")) == [("DL102", "f1_processed.results")]


def test_unity_catalog_managed_location_is_opaque(lint):
    setup = "CREATE SCHEMA IF NOT EXISTS f1_processed MANAGED LOCATION '/mnt/lake/processed';\n"
    assert _tables(_run(lint, setup)) == []


def test_a_schema_of_another_catalog_places_nothing(lint):
    setup = "CREATE SCHEMA IF NOT EXISTS main.f1_processed LOCATION '/mnt/lake/processed';\n"
    assert _tables(_run(lint, setup)) == []


def test_a_location_only_a_run_knows_places_nothing(lint):
    assert _tables(_run(lint, "CREATE DATABASE f1_processed LOCATION '${root}/processed';\n")) == []
    assert _tables(_run(lint, "CREATE DATABASE ${db} LOCATION '/mnt/lake/processed';\n")) == []


def test_a_folder_deeper_or_spelled_in_capitals_is_not_the_managed_table(lint):
    setup = "CREATE DATABASE f1_processed LOCATION '/mnt/lake/processed';\n"
    deeper = BY_PATH.replace("/mnt/lake/processed/results", "/mnt/lake/processed/x/results")
    capitals = BY_PATH.replace("/mnt/lake/processed/results", "/mnt/lake/processed/Results")
    assert _tables(_run(lint, setup, by_path=deeper)) == []
    assert _tables(_run(lint, setup, by_path=capitals)) == []


def test_a_location_given_two_names_names_neither(lint):
    setup = (
        "CREATE DATABASE f1_processed LOCATION '/mnt/lake/processed';\n"
        "CREATE DATABASE f1_other LOCATION '/mnt/lake/processed';\n"
    )
    assert _tables(_run(lint, setup)) == []


def test_an_external_table_elsewhere_is_not_the_schema_folder(lint):
    setup = (
        "CREATE DATABASE f1_processed LOCATION '/mnt/lake/processed';\n"
        "CREATE TABLE f1_processed.results (id INT) USING DELTA LOCATION '/mnt/elsewhere/results';\n"
    )
    assert _tables(_run(lint, setup)) == []


def test_a_cached_run_names_the_table_as_the_first_run(tmp_path):
    from tests.conftest import run_cli

    files = {
        "setup.sql": "CREATE DATABASE f1_processed LOCATION '/mnt/lake/processed';\n",
        "merge.py": BY_PATH,
        "reload.py": BY_NAME,
        "delta-lint.yaml": "jobs:\n  a: {paths: [merge.py]}\n  b: {paths: [reload.py]}\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    first = run_cli("check", ".", "--format", "json", cwd=tmp_path)
    again = run_cli("check", ".", "--format", "json", cwd=tmp_path)
    assert first.returncode == again.returncode == 1
    assert first.stdout == again.stdout
    assert "f1_processed.results" in again.stdout
