"""SQL run through a project's own wrapper of a SQL connection: a function or a class
whose method takes the statement (or builds it) and hands it to a Databricks client
(a DB-API cursor of the databricks-sql-connector, SQLAlchemy with the Databricks
dialect, the SDK's statement execution, Airflow's `DatabricksSqlHook`, the Spark
session). A job calls the wrapper with its statement; the write is the job's, with the
table its text names. The near misses: the same wrappers over another database's
connection (sqlite3, psycopg2, pymysql, Snowflake) or over a connection whose kind the
code does not tell, a `SELECT`, a wrapper that only reads."""

from __future__ import annotations

import pytest


def _writes(result) -> list[tuple[str, str, str]]:
    return sorted(
        (i.location.path.split("/")[-1] + f":{i.location.line}", i.table.name, i.kind.value) for i in result.intents
    )


MERGE = "MERGE INTO main.sales.orders t USING main.sales.staging s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *"


# -- the wrappers, one per shape: the module of the wrapper, then how a job calls it ----------

CONNECTOR_FUNCTION = (
    "from databricks import sql\n"
    "\n"
    "\n"
    "def run_sql(statement):\n"
    '    conn = sql.connect(server_hostname="h", http_path="p")\n'
    "    cur = conn.cursor()\n"
    "    cur.execute(statement)\n"
    "    cur.close()\n"
)

CONNECTOR_CLASS = (
    "from databricks import sql\n"
    "\n"
    "\n"
    "class Db:\n"
    "    def __init__(self, host):\n"
    '        self.conn = sql.connect(server_hostname=host, http_path="p")\n'
    "        self.cursor = self.conn.cursor()\n"
    "\n"
    "    def run(self, statement):\n"
    "        self.cursor.execute(statement)\n"
    "\n"
    "    def fetch(self, query):\n"
    "        self.cursor.execute(query)\n"
    "        return self.cursor.fetchall()\n"
)

WITH_CONNECT = (
    "from databricks.sql import connect\n"
    "\n"
    "\n"
    "def run_sql(statement):\n"
    '    with connect(server_hostname="h", http_path="p") as c, c.cursor() as cur:\n'
    "        cur.execute(statement)\n"
)

EACH_STATEMENT = (
    "from databricks import sql\n"
    "\n"
    "\n"
    "class Db:\n"
    "    def __init__(self):\n"
    '        self.conn = sql.connect(server_hostname="h", http_path="p")\n'
    "\n"
    "    def run_all(self, statements):\n"
    "        with self.conn.cursor() as cur:\n"
    "            for statement in statements:\n"
    "                cur.execute(statement)\n"
)


def test_a_function_of_the_module_that_runs_its_parameter(lint):
    result = lint({"job.py": CONNECTOR_FUNCTION + f'\n\nrun_sql("{MERGE}")\n'})
    assert _writes(result) == [("job.py:11", "main.sales.orders", "merge")]


def test_a_class_that_keeps_its_cursor_on_self(lint):
    job = f'db = Db(\'h\')\ndb.run("{MERGE}")\ndb.fetch("SELECT * FROM main.sales.orders")\n'
    result = lint({"job.py": CONNECTOR_CLASS + "\n\n" + job})
    assert _writes(result) == [("job.py:18", "main.sales.orders", "merge")]


def test_a_wrapper_of_another_module_imported_by_the_job(lint):
    result = lint(
        {
            "etl/__init__.py": "",
            "etl/db.py": CONNECTOR_CLASS,
            "etl/jobs.py": (
                "from etl.db import Db\n"
                "\n"
                'TABLE = "main.sales.orders"\n'
                "\n"
                "\n"
                "def load():\n"
                '    db = Db("h")\n'
                "    db.run(f\"DELETE FROM {TABLE} WHERE day < '2024-01-01'\")\n"
            ),
        }
    )
    assert _writes(result) == [("jobs.py:8", "main.sales.orders", "delete")]


def test_a_function_wrapper_of_another_module(lint):
    result = lint(
        {
            "etl/__init__.py": "",
            "etl/warehouse.py": CONNECTOR_FUNCTION,
            "etl/jobs.py": (
                "from etl import warehouse\n"
                "\n"
                "\n"
                "def load(day):\n"
                '    warehouse.run_sql(f"INSERT INTO main.sales.orders SELECT * FROM main.sales.staging")\n'
            ),
        }
    )
    assert _writes(result) == [("jobs.py:5", "main.sales.orders", "blind_append")]


def test_a_wrapper_of_another_module_reads_that_modules_names_not_the_jobs(lint):
    """The near miss: the wrapper's module names sqlite3 `sql`, the job names the
    connector so. The wrapper's `sql.connect` is its own module's: no write."""
    local = CONNECTOR_FUNCTION.replace("from databricks import sql", "import sqlite3 as sql").replace(
        'sql.connect(server_hostname="h", http_path="p")', 'sql.connect("local.db")'
    )
    job = (
        "from databricks import sql\n"
        "from etl.warehouse import run_sql\n"
        "\n"
        f'run_sql("{MERGE}")\n'
        'sql.connect(server_hostname="h").cursor().execute("DELETE FROM main.sales.orders WHERE id = 1")\n'
    )
    result = lint({"etl/__init__.py": "", "etl/warehouse.py": local, "etl/jobs.py": job})
    assert _writes(result) == [("jobs.py:5", "main.sales.orders", "delete")]


CONNECTIONS = (
    "from contextlib import contextmanager\n"
    "\n"
    "from databricks import sql\n"
    "\n"
    'connection = sql.connect(server_hostname="h", http_path="p")\n'
    "\n"
    "\n"
    "@contextmanager\n"
    "def warehouse_cursor():\n"
    "    with connection.cursor() as cur:\n"
    "        yield cur\n"
)


@pytest.mark.parametrize(
    ("connections", "expected"),
    [
        (CONNECTIONS, [("job.py:4", "main.sales.orders", "delete"), ("job.py:6", "main.sales.orders", "update")]),
        (
            CONNECTIONS.replace("from databricks import sql", "import sqlite3 as sql").replace(
                'sql.connect(server_hostname="h", http_path="p")', 'sql.connect("local.db")'
            ),
            [],
        ),
    ],
)
def test_a_connection_and_a_cursor_factory_imported_from_another_module(lint, connections, expected):
    """A module of the project holds the connection and a context manager giving its
    cursor; a job imports them. The near miss: the same module over sqlite3."""
    job = (
        "from etl.connections import connection, warehouse_cursor\n"
        "\n"
        "with warehouse_cursor() as cur:\n"
        '    cur.execute("DELETE FROM main.sales.orders WHERE id = 1")\n'
        "c = connection.cursor()\n"
        'c.execute("UPDATE main.sales.orders SET paid = true")\n'
    )
    result = lint({"etl/__init__.py": "", "etl/connections.py": connections, "etl/job.py": job})
    assert _writes(result) == expected


def test_a_hook_and_an_engine_held_by_another_module(lint):
    """A module holds a `DatabricksSqlHook` and a `databricks://` engine at its top
    level and wraps each in a function; a job imports the functions. The job's text
    names neither the hook nor SQLAlchemy, so which methods run SQL (`run`) comes
    from what the wrappers' module holds."""
    hooks = (
        "from airflow.providers.databricks.hooks.databricks_sql import DatabricksSqlHook\n"
        "from sqlalchemy import create_engine, text\n"
        "\n"
        'HOOK = DatabricksSqlHook(databricks_conn_id="c")\n'
        'ENGINE = create_engine("databricks://token:t@h?http_path=p")\n'
        "\n"
        "\n"
        "def run_sql(q):\n"
        "    HOOK.run(q)\n"
        "\n"
        "\n"
        "def run_sa(q):\n"
        "    with ENGINE.begin() as conn:\n"
        "        conn.execute(text(q))\n"
    )
    job = (
        "from etl.hooks import run_sa, run_sql\n"
        "\n"
        "\n"
        "def task():\n"
        '    run_sql("DELETE FROM main.sales.orders WHERE id = 1")\n'
        '    run_sa("UPDATE main.sales.orders SET paid = true WHERE id = 2")\n'
    )
    result = lint({"etl/__init__.py": "", "etl/hooks.py": hooks, "etl/job.py": job})
    assert _writes(result) == [("job.py:5", "main.sales.orders", "delete"), ("job.py:6", "main.sales.orders", "update")]
    other = hooks.replace("databricks://token:t@h?http_path=p", "postgresql://u@h/db")
    result = lint({"etl/__init__.py": "", "etl/hooks.py": other, "etl/job.py": job})
    assert _writes(result) == [("job.py:5", "main.sales.orders", "delete")]


def test_connect_and_cursor_in_one_with_statement(lint):
    result = lint({"job.py": WITH_CONNECT + '\n\nrun_sql("UPDATE main.sales.orders SET paid = true WHERE id = 3")\n'})
    assert _writes(result) == [("job.py:9", "main.sales.orders", "update")]


def test_a_method_that_runs_each_statement_of_a_list(lint):
    """`Db().run_all([...])`: a method of an object made in the call, of which nothing
    is known, runs each statement of the list it is given. The near miss: the same
    class over sqlite3 writes nothing."""
    job = (
        "Db().run_all([\n"
        '    "CREATE TABLE IF NOT EXISTS main.sales.orders (id INT) USING DELTA",\n'
        '    "INSERT INTO main.sales.orders VALUES (1)",\n'
        "])\n"
    )
    result = lint({"job.py": EACH_STATEMENT + "\n\n" + job})
    assert _writes(result) == [
        ("job.py:14", "main.sales.orders", "blind_append"),
        ("job.py:14", "main.sales.orders", "create"),
    ]
    local = EACH_STATEMENT.replace("from databricks import sql", "import sqlite3").replace(
        'sql.connect(server_hostname="h", http_path="p")', 'sqlite3.connect("x.db")'
    )
    assert lint({"job.py": local + "\n\n" + job}).intents == []


def test_executemany_runs_its_statement(lint):
    """A cursor's `executemany(operation, seq_of_parameters)` runs its statement once
    per row: a write on a Databricks cursor. The near miss: on a sqlite3 cursor it is
    what `execute` there is, no intent."""
    job = (
        "from databricks import sql\n"
        "\n"
        'with sql.connect(server_hostname="h", http_path="p") as conn, conn.cursor() as cur:\n'
        '    cur.executemany("INSERT INTO main.sales.orders VALUES (?, ?)", [(1, "a"), (2, "b")])\n'
    )
    assert _writes(lint({"job.py": job})) == [("job.py:4", "main.sales.orders", "blind_append")]
    local = job.replace("from databricks import sql", "import sqlite3").replace(
        'sql.connect(server_hostname="h", http_path="p")', 'sqlite3.connect("x.db")'
    )
    assert lint({"job.py": local}).intents == []


def test_the_sdk_statement_execution_in_a_method(lint):
    job = (
        "from databricks.sdk import WorkspaceClient\n"
        "\n"
        "\n"
        "class Warehouse:\n"
        "    def __init__(self, warehouse_id):\n"
        "        self.w = WorkspaceClient()\n"
        "        self.warehouse_id = warehouse_id\n"
        "\n"
        "    def run(self, q):\n"
        "        return self.w.statement_execution.execute_statement(statement=q, warehouse_id=self.warehouse_id)\n"
        "\n"
        "\n"
        'Warehouse("abc").run("DELETE FROM main.sales.orders WHERE id = 1")\n'
    )
    assert _writes(lint({"job.py": job})) == [("job.py:13", "main.sales.orders", "delete")]


def test_an_airflow_hook_in_a_wrapper(lint):
    job = (
        "from airflow.providers.databricks.hooks.databricks_sql import DatabricksSqlHook\n"
        "\n"
        "\n"
        "def run_sql(statement):\n"
        '    DatabricksSqlHook(databricks_conn_id="dbx").run(statement)\n'
        "\n"
        "\n"
        "def task():\n"
        f'    run_sql("{MERGE}")\n'
    )
    assert _writes(lint({"job.py": job})) == [("job.py:9", "main.sales.orders", "merge")]


def test_sqlalchemy_in_a_wrapper(lint):
    job = (
        "from sqlalchemy import create_engine, text\n"
        "\n"
        'ENGINE = create_engine("databricks://token:t@host?http_path=p")\n'
        "\n"
        "\n"
        "def run_sql(statement):\n"
        "    with ENGINE.begin() as conn:\n"
        "        conn.execute(text(statement))\n"
        "\n"
        "\n"
        'run_sql("DELETE FROM main.sales.orders WHERE id = 9")\n'
    )
    assert _writes(lint({"job.py": job})) == [("job.py:11", "main.sales.orders", "delete")]


def test_spark_sql_inside_a_method(lint):
    job = (
        "from pyspark.sql import SparkSession\n"
        "\n"
        "\n"
        "class Db:\n"
        "    def __init__(self, spark):\n"
        "        self.spark = spark\n"
        "\n"
        "    def run(self, q):\n"
        "        self.spark.sql(q)\n"
        "\n"
        "\n"
        "spark = SparkSession.builder.getOrCreate()\n"
        "t = 'main.sales.orders'\n"
        "db = Db(spark)\n"
        'db.run(f"MERGE INTO {t} t USING main.sales.staging s ON t.id = s.id WHEN MATCHED THEN DELETE")\n'
    )
    assert _writes(lint({"job.py": job})) == [("job.py:15", "main.sales.orders", "merge")]


# -- near misses --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("imports", "connect"),
    [
        ("import sqlite3", 'sqlite3.connect("local.db")'),
        ("import psycopg2", 'psycopg2.connect(host="h", dbname="d")'),
        ("import pymysql", 'pymysql.connect(host="h", database="d")'),
        ("import snowflake.connector", 'snowflake.connector.connect(account="a", user="u")'),
        ("from mysql import connector", 'connector.connect(host="h")'),
    ],
)
def test_the_same_wrappers_over_another_database_make_no_write(lint, imports, connect):
    function = CONNECTOR_FUNCTION.replace("from databricks import sql", imports).replace(
        'sql.connect(server_hostname="h", http_path="p")', connect
    )
    cls = CONNECTOR_CLASS.replace("from databricks import sql", imports).replace(
        'sql.connect(server_hostname=host, http_path="p")', connect
    )
    result = lint(
        {
            "fn.py": function + f'\n\nrun_sql("{MERGE}")\n',
            "cls.py": cls + f'\n\nDb("h").run("{MERGE}")\n',
        }
    )
    assert result.intents == []
    # the code says where the statement runs: no note that it could not be followed
    assert [f.rule for f in result.findings] == []


def test_a_wrapper_over_a_connection_of_unknown_kind_makes_no_write(lint):
    """The connection is handed in (`Db(conn)`) by code that does not say what it is:
    as for any cursor of unknown origin, its statements are not read."""
    job = (
        "class Db:\n"
        "    def __init__(self, conn):\n"
        "        self.cursor = conn.cursor()\n"
        "\n"
        "    def run(self, statement):\n"
        "        self.cursor.execute(statement)\n"
        "\n"
        "\n"
        "def load(conn):\n"
        f'    Db(conn).run("{MERGE}")\n'
    )
    assert lint({"job.py": job}).intents == []


def test_a_select_and_a_wrapper_that_only_reads_make_no_write(lint):
    job = (
        CONNECTOR_CLASS
        + "\n\n"
        + "db = Db('h')\n"
        + 'db.run("SELECT count(*) FROM main.sales.orders")\n'
        + 'rows = db.fetch("SELECT * FROM main.sales.orders")\n'
    )
    assert lint({"job.py": job}).intents == []


def test_statements_of_another_database_are_not_said_and_of_an_unknown_one_are(lint):
    """A statement sent through another database's driver, told by its import
    (`import sqlite3`, `import snowflake.connector`, `from mysql import connector`,
    `from psycopg2 import connect`), directly or through a wrapper of another module,
    writes no Delta table: no intent and nothing said. A cursor of unknown origin
    gets today's note at its top-level statement: where it runs is not known."""
    local = (
        "import snowflake.connector\n"
        "from mysql import connector\n"
        "\n"
        'SF = snowflake.connector.connect(account="a")\n'
        "\n"
        "\n"
        "def run_sf(q):\n"
        "    SF.cursor().execute(q)\n"
        "\n"
        "\n"
        "def run_my(q):\n"
        '    with connector.connect(host="h") as c:\n'
        "        c.cursor().execute(q)\n"
    )
    job = (
        "import sqlite3\n"
        "from psycopg2 import connect\n"
        "\n"
        "from etl.local import run_my, run_sf\n"
        "\n"
        'conn = sqlite3.connect("x.db")\n'
        'conn.execute("DELETE FROM main.sales.orders WHERE id = 1")\n'
        f'run_sf("{MERGE}")\n'
        'run_my("INSERT INTO main.sales.orders VALUES (1)")\n'
        'connect("dbname=x").cursor().execute("UPDATE main.sales.orders SET x = 1")\n'
        'unknown.cursor().execute("UPDATE main.sales.orders SET x = 2")\n'
    )
    result = lint({"etl/__init__.py": "", "etl/local.py": local, "etl/job.py": job})
    assert result.intents == []
    assert [(f.rule, f.location.line) for f in result.findings] == [("DL001", 11)]
    assert "could not follow" in result.findings[0].message


PARTITIONED = "CREATE TABLE IF NOT EXISTS main.s.events (day STRING, x INT) USING DELTA PARTITIONED BY (day);\n"


def _deletes(day: str, bind: str) -> str:
    given = f'{{"d": "{day}"}}' if bind == ":d" else f'["{day}"]'
    return (
        "from databricks import sql\n"
        "\n"
        'with sql.connect(server_hostname="h", http_path="p") as conn, conn.cursor() as cur:\n'
        f'    cur.execute("DELETE FROM main.s.events WHERE day = {bind}", {given})\n'
    )


@pytest.mark.parametrize("bind", [":d", "?"])
def test_the_parameters_a_cursor_binds_name_the_rows(lint, bind):
    """`cur.execute(q, {"d": "2024-01-01"})` (or a list for `?`) binds the connector's
    markers as `spark.sql(q, args=...)` does: two jobs deleting other partitions do
    not conflict (with the markers left unknown, they may touch the same files). The
    near miss: the same partition in both conflicts."""
    apart = lint({"ddl.sql": PARTITIONED, "a.py": _deletes("2024-01-01", bind), "b.py": _deletes("2024-01-02", bind)})
    assert [i.predicate_sql for i in apart.intents if i.kind.value == "delete"] == [
        "day = '2024-01-01'",
        "day = '2024-01-02'",
    ]
    assert [f.rule for f in apart.findings if f.table == "main.s.events"] == []
    same = lint({"ddl.sql": PARTITIONED, "a.py": _deletes("2024-01-01", bind), "b.py": _deletes("2024-01-01", bind)})
    assert [f.rule for f in same.findings if f.table == "main.s.events"]


@pytest.mark.parametrize(
    ("imports", "connect"),
    [
        (
            "import pyodbc",
            'pyodbc.connect("Driver=/opt/simba/spark/lib/64/libsparkodbc_sb64.so;Host=h", autocommit=True)',
        ),
        ("from trino import dbapi", 'dbapi.connect(host="h", catalog="delta")'),
    ],
)
def test_a_generic_driver_or_an_engine_that_writes_delta_is_not_another_database(lint, imports, connect):
    """pyodbc reaches Databricks through its ODBC driver, and Trino's Delta Lake
    connector writes Delta tables: their statements are not set aside as another
    database's. The cursor's kind stays unknown: a top-level statement it runs gets
    the note that it could not be followed, as before."""
    job = f'{imports}\n\nconn = {connect}\ncursor = conn.cursor()\ncursor.execute("{MERGE}")\n'
    result = lint({"job.py": job})
    assert [f.rule for f in result.findings if f.rule.startswith("DL0")] == ["DL001"]
