"""Which SQL files are another dialect's, and so skipped with their kind.

The dialect signs are searched one alternative at a time, each only in text holding
its words (and, when it begins with one, only where that word stands). These cases
hold every alternative to its kind through a whole run, and the near misses (a
sign's word without the sign, the word inside a longer one, a Databricks sign next
to another dialect's) to being linted.
"""

from __future__ import annotations

# one file per alternative of each dialect, spelt in mixed case as scripts do
SIGNS = {
    "T-SQL": [
        "SELECT 1\n  go  \nSELECT 2\n",
        ":SetVar env prod\nSELECT 1;\n",
        "create or alter procedure [etl].[load] AS SELECT 1;\n",
        "Create Proc dbo.load AS SELECT 1;\n",
        "DECLARE @day DATE;\n",
        "set @n = 1;\n",
        "IF OBJECT_ID ('s.t') IS NOT NULL DROP TABLE s.t;\n",
        "SET NOCOUNT ON;\n",
        "CREATE TABLE s.t (name NVARCHAR( max ));\n",
        "INSERT INTO [dbo].t SELECT 1;\n",
        "INSERT INTO dbo.[t] SELECT 1;\n",
        "INSERT INTO [stage] . [t] SELECT 1;\n",
        "CREATE TABLE s.t (id INT Identity(1, 1));\n",
        "CREATE TABLE s.t (id INT) WITH (DISTRIBUTION = HASH(id));\n",
        "CREATE TABLE s.t (id INT) with(clustered  columnstore INDEX);\n",
        "CREATE TABLE s.t (id INT) WITH ( HEAP );\n",
        "EXECUTE sp_rename 'a', 'b';\n",
        "exec dbo.load;\n",
        "BEGIN TRANSACTION;\nDELETE FROM s.t;\n",
        "SELECT TOP (10) * FROM s.t;\n",
        "INSERT INTO s.q SELECT DISTINCT TOP (?) id FROM s.t ORDER BY id;\n",  # a parameter marker
        "SELECT TOP(@n) * FROM s.t;\n",
        "INSERT INTO #new_orders (id) SELECT id FROM s.t;\n",  # temporary tables
        "UPDATE o SET total = 1 FROM s.orders o JOIN ##batch b ON b.id = o.id;\n",
        "CREATE MASTER KEY;\n",
        "CREATE DATABASE SCOPED CREDENTIAL c WITH IDENTITY = 'x';\n",
        "CREATE EXTERNAL FILE FORMAT parquet_format WITH (FORMAT_TYPE = PARQUET);\n",
        "CREATE EXTERNAL DATA SOURCE src WITH (LOCATION = 'x');\n",
        "INSERT INTO s.t SELECT GetDate();\n",
        "INSERT INTO s.t SELECT NEWID( );\n",
        "CREATE TABLE s.t (id UniqueIdentifier);\n",
        "CREATE TABLE s.t (at DATETIME2);\n",
        "CREATE NONCLUSTERED INDEX i ON s.t (id);\n",
    ],
    "PostgreSQL": [
        "CREATE TABLE s.t (id BigSerial);\n",
        "CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS 'x';\n",
        "CREATE EXTENSION postgis;\n",
        "create sequence s.ids;\n",
        "INSERT INTO s.t VALUES (1) ON CONFLICT DO NOTHING;\n",
        "ALTER TABLE s.t OWNER TO admin;\n",
        "\\connect warehouse\nSELECT 1;\n",
        "CREATE TABLE s.t (at TIMESTAMPTZ);\n",
        "CREATE OR REPLACE FUNCTION f() RETURNS int AS $body$ SELECT 1 $body$;\n",
        "CREATE TABLE s.t (doc JSONB);\n",
        "CREATE TABLE s.t (blob bytea);\n",
        "DO $$\nBEGIN\n  DELETE FROM s.t;\nEND $$;\n",
        "INSERT INTO s.q (name, body) VALUES ('n', $body$select 1$body$);\n",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA s GRANT SELECT ON TABLES TO r;\n",
        "copy (select id from s.t) to stdout with csv header;\n",
        "\\o out.csv\nSELECT 1;\n",
        "DELETE FROM s.t WHERE name IN (SELECT tablename FROM pg_tables);\n",
        "CREATE TABLE s.t (id INT);\nALTER SYSTEM SET wal_level = logical;\n",
    ],
    "MySQL": [
        "CREATE TABLE s.t (id INT AUTO_INCREMENT);\n",
        "CREATE TABLE s.t (id INT) ENGINE = InnoDB;\n",
        "CREATE TABLE s.t (id INT) DEFAULT CHARSET utf8;\n",
        "DELIMITER $$\nSELECT 1$$\n",
        "INSERT INTO s.t VALUES (1) ON DUPLICATE KEY UPDATE id = 1;\n",
        "CREATE TABLE s.t (id BIGINT(20) UNSIGNED);\n",
        "SET NAMES utf8mb4;\nDELETE FROM s.t;\n",
        "FLUSH PRIVILEGES;\n",
        "CREATE USER app IDENTIFIED BY 'x';\n",
        "GRANT ALL ON iot.* TO 'app'@'%';\n",
    ],
    "Oracle PL/SQL": [
        "CREATE TABLE s.t (name VARCHAR2(10));\n",
        "CREATE TABLE s.t (n NUMBER(10));\n",
        "BEGIN NULL; END;\n/\n",
        "CREATE OR REPLACE PACKAGE p AS END;\n",
    ],
    "Snowflake SQL": [
        "USE WAREHOUSE compute_wh;\n",
        "CREATE OR REPLACE WAREHOUSE w;\n",
        "CREATE TABLE s.t (doc VARIANT);\n",
        "CREATE STAGE s.landing;\n",
        "use role SYSADMIN;\nDELETE FROM s.t;\n",
        "CREATE OR REPLACE STORAGE INTEGRATION s3_int TYPE = EXTERNAL_STAGE;\n",
        "CREATE TASK s.refresh WAREHOUSE = wh AS SELECT 1;\n",
        "CREATE OR REPLACE ICEBERG TABLE s.t (id INT) CLUSTER BY (id);\n",
        "CREATE TABLE s.t (id INT) external_volume = 'v' CLUSTER BY (id);\n",
    ],
}

# SQL that holds a sign's word but not the sign (or a Databricks sign too): linted
LINTED = [
    "SELECT category, go_live FROM s.u;\nDELETE FROM s.t WHERE id = 1;\n",  # `go` inside words
    "DELETE FROM s.t WHERE email = concat(name, '@example.com');\n",  # `@` in a string
    "-- SET @x = 1; GETDATE()\nDELETE FROM s.t WHERE id = 1;\n",  # signs in a comment
    "DELETE FROM s.t WHERE xgetdate() > 1 OR number_of = 2;\n",  # a word inside a longer one
    "CREATE TABLE s.t (id BIGINT GENERATED ALWAYS AS IDENTITY, v VARIANT) USING DELTA;\n",  # Databricks wins
    "WITH heap AS (SELECT 1 AS number) INSERT INTO s.t SELECT * FROM heap;\n",  # words, not the signs
    "CREATE TABLE s.t (name VARCHAR(10), n INT);\nINSERT INTO s.t SELECT 'x', max(n) FROM s.u;\n",  # not VARCHAR(MAX)
    "SELECT 10 / 2 AS half;\nDELETE FROM s.t WHERE id = 1;\n",  # `/` not alone on its line
    "CREATE FUNCTION s.f(x INT) RETURNS INT LANGUAGE PYTHON AS $$ return x $$;\n",  # Databricks' own `$$`
    "COPY INTO s.t FROM '/mnt/landing' FILEFORMAT = CSV;\n",  # Databricks' COPY INTO
    "DELETE FROM s.t WHERE owner = 'do $$' OR note = '${x}';\n",  # in strings, and a legacy template
    "-- INSERT INTO #tmp\nDELETE FROM s.t WHERE tag = '#x' OR top_n = 2;\n",  # `#` in a comment, a string
    "SELECT top_rank, (SELECT 1) FROM s.t;\n",  # `top` a column's prefix
]


def test_each_sign_of_another_dialect_skips_its_file_with_its_kind(lint):
    files = {
        f"{kind.split()[0].lower()}_{n}.sql": text for kind, texts in SIGNS.items() for n, text in enumerate(texts)
    }
    expected = {
        f"{kind.split()[0].lower()}_{n}.sql": kind for kind, texts in SIGNS.items() for n, _ in enumerate(texts)
    }
    files.update({f"job_{n}.sql": text for n, text in enumerate(LINTED)})
    result = lint(files)
    skipped = {path.rsplit("/", 1)[-1]: kind for path, kind in result.skipped.items()}
    assert skipped == expected


def test_text_with_a_letter_that_folds_to_ascii_is_read_as_the_patterns_read_it(lint):
    """The dotless i matches `I` in a case-insensitive pattern but lower-cases to
    itself: such text is searched by every pattern without the word tests."""
    result = lint(
        {
            "tsql.sql": "CREATE TABLE s.t (id UNIQUEıDENTIFIER);\n",
            "job.sql": "OPTıMIZE s.t;\nSELECT GETDATE();\n",  # a Databricks sign, spelt so
            "plain.sql": "DELETE FROM s.t WHERE naıve = 1;\n",
        }
    )
    skipped = {path.rsplit("/", 1)[-1]: kind for path, kind in result.skipped.items()}
    assert skipped == {"tsql.sql": "T-SQL"}
