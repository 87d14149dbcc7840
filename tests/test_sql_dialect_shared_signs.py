"""Snowflake and PostgreSQL scripts that share Databricks SQL's words.

`CLUSTER BY` is Databricks SQL, and Snowflake's too: a Snowflake script that clusters
an Iceberg table was read as Databricks SQL (a parse error per Snowflake statement,
a false CREATE OR REPLACE). Snowflake's own statements (`USE ROLE`, `CREATE TASK`,
`CREATE ICEBERG TABLE`, `STORAGE INTEGRATION`, `EXTERNAL_VOLUME =`) outrank it; a
Databricks script that clusters its table stays linted, with a `VARIANT` column too.
A PostgreSQL init script whose only sign is `ALTER SYSTEM` is PostgreSQL's; the
foreign key written `id BIGINT REFERENCES t(id)` is not a sign: Databricks takes
`REFERENCES` without `FOREIGN KEY` in a column's constraint.
"""

from __future__ import annotations

SNOWFLAKE_TABLES = """-- run in Snowflake
USE ROLE SYSADMIN;

CREATE OR REPLACE ICEBERG TABLE lake.ops.events (
  id VARCHAR(64) NOT NULL,
  payload VARIANT,
  event_ts TIMESTAMP_NTZ
)
  CATALOG = 'SNOWFLAKE'
  EXTERNAL_VOLUME = 'ICEBERG_VOL'
  BASE_LOCATION = 'ops/events/'
  CLUSTER BY (event_ts);
"""

SNOWFLAKE_SETUP = """USE ROLE ACCOUNTADMIN;
CREATE OR REPLACE STORAGE INTEGRATION s3_int TYPE = EXTERNAL_STAGE STORAGE_PROVIDER = 'S3' ENABLED = TRUE;
CREATE OR REPLACE TASK ops.refresh_events WAREHOUSE = wh SCHEDULE = '60 MINUTE' AS SELECT 1;
ALTER TASK ops.refresh_events RESUME;
"""

DATABRICKS_CLUSTERED = """CREATE OR REPLACE TABLE main.ops.events (
  id STRING NOT NULL,
  payload VARIANT,
  event_ts TIMESTAMP_NTZ
)
CLUSTER BY (event_ts);
INSERT INTO main.ops.events SELECT * FROM main.raw.events;
"""

POSTGRES_INIT = """-- the source database's init script
CREATE TABLE IF NOT EXISTS shops (
    shop_id BIGINT PRIMARY KEY,
    shop_name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT NOW()
);

CREATE TABLE IF NOT EXISTS sales (
    sale_id BIGINT PRIMARY KEY,
    shop_id BIGINT NOT NULL REFERENCES shops(shop_id),
    amount NUMERIC(12, 2) NOT NULL
);

ALTER SYSTEM SET wal_level = logical;
"""

# the same tables in Databricks SQL: a column's REFERENCES, DEFAULT now(), no ALTER SYSTEM
DATABRICKS_REFERENCES = """CREATE TABLE IF NOT EXISTS main.s.shops (shop_id BIGINT NOT NULL PRIMARY KEY);
CREATE TABLE IF NOT EXISTS main.s.sales (
    sale_id BIGINT NOT NULL,
    shop_id BIGINT NOT NULL REFERENCES main.s.shops(shop_id),
    created_at TIMESTAMP DEFAULT now()
) TBLPROPERTIES ('delta.feature.allowColumnDefaults' = 'supported');
"""


def _skipped(result) -> dict[str, str]:
    return {path.rsplit("/", 1)[-1]: kind for path, kind in result.skipped.items()}


def test_snowflake_statements_outrank_cluster_by(lint):
    result = lint({"sf_tables.sql": SNOWFLAKE_TABLES, "sf_setup.sql": SNOWFLAKE_SETUP})
    assert _skipped(result) == {"sf_tables.sql": "Snowflake SQL", "sf_setup.sql": "Snowflake SQL"}
    assert result.intents == []
    assert [d for d in result.diagnostics if d.rule == "DL000"] == []


def test_databricks_sql_with_cluster_by_and_variant_stays_linted(lint):
    result = lint({"events.sql": DATABRICKS_CLUSTERED})
    assert _skipped(result) == {}
    assert sorted((i.table.name, i.kind.value) for i in result.intents) == [
        ("main.ops.events", "blind_append"),
        ("main.ops.events", "create_or_replace"),
    ]


def test_postgres_init_script_with_alter_system_is_skipped(lint):
    result = lint({"001_init.sql": POSTGRES_INIT})
    assert _skipped(result) == {"001_init.sql": "PostgreSQL"}
    assert result.intents == []


def test_databricks_foreign_key_without_foreign_key_words_stays_linted(lint):
    result = lint({"tables.sql": DATABRICKS_REFERENCES})
    assert _skipped(result) == {}
    assert sorted(i.table.name for i in result.intents) == ["main.s.sales", "main.s.shops"]
