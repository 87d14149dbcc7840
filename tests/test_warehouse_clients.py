"""SQL sent to a Databricks SQL warehouse through a Python client (`frontend/warehouse.py`):
a statement is a Delta write only when the cursor, connection or engine it is sent
through is known to come from a Databricks client; any other DB-API cursor (sqlite3,
psycopg) stays unread."""

from __future__ import annotations


def _writes(result) -> list[tuple[str, str, str]]:
    return sorted(
        (i.location.path.split("/")[-1] + f":{i.location.line}", i.table.name, i.kind.value) for i in result.intents
    )


def test_connector_cursor_in_with_blocks_and_a_chain(lint):
    result = lint(
        {
            "job.py": (
                "from databricks import sql\n"
                "\n"
                'with sql.connect(server_hostname="h", http_path="p") as conn:\n'
                "    with conn.cursor() as cur:\n"
                '        cur.execute("INSERT INTO main.sales.orders VALUES (1)")\n'
                '    conn.cursor().execute("DELETE FROM main.sales.orders WHERE id = 2")\n'
            )
        }
    )
    assert _writes(result) == [
        ("job.py:5", "main.sales.orders", "blind_append"),
        ("job.py:6", "main.sales.orders", "delete"),
    ]


def test_other_databases_and_unknown_cursors_stay_unread(lint):
    result = lint(
        {
            "local.py": (
                "import sqlite3\n"
                "\n"
                'conn = sqlite3.connect("x.db")\n'
                "cur = conn.cursor()\n"
                'cur.execute("INSERT INTO main.sales.orders VALUES (1)")\n'
            ),
            "param.py": ('def run(cur):\n    cur.execute("INSERT INTO main.sales.orders VALUES (2)")\n'),
            # one name given a Databricks cursor and a sqlite one: not known which runs
            "mixed.py": (
                "import sqlite3\n"
                "from databricks import sql\n"
                "\n"
                "def run(remote):\n"
                "    if remote:\n"
                '        cur = sql.connect(server_hostname="h").cursor()\n'
                "    else:\n"
                '        cur = sqlite3.connect("x.db").cursor()\n'
                '    cur.execute("INSERT INTO main.sales.orders VALUES (3)")\n'
            ),
        }
    )
    assert result.intents == []


def test_cursor_kept_on_an_object_and_run_through_a_project_helper(lint):
    """A wrapper class opens the connection in a method and keeps the cursor on
    `self`; a helper of another module makes one and runs the text it is given: the
    write is reported where the helper is called, with the text built there."""
    result = lint(
        {
            "etl/__init__.py": "",
            "etl/warehouse.py": (
                "class Retrying:\n"
                "    def __init__(self, host):\n"
                "        self._host = host\n"
                "        self._conn, self._cur = None, None\n"
                "        self._open()\n"
                "\n"
                "    def _open(self):\n"
                "        from databricks import sql as dbsql\n"
                "\n"
                "        self._conn = dbsql.connect(server_hostname=self._host)\n"
                "        self._cur = self._conn.cursor()\n"
                "\n"
                "    def execute(self, text):\n"
                "        return self._cur.execute(text)\n"
                "\n"
                "\n"
                "def run_sql(host, text):\n"
                "    c = Retrying(host)\n"
                "    c.execute(text)\n"
            ),
            "etl/load.py": (
                "from etl.warehouse import run_sql\n"
                "\n"
                'SCHEMA = "main.sales"\n'
                "\n"
                "\n"
                "def load(host):\n"
                '    run_sql(host, f"MERGE INTO {SCHEMA}.orders t USING {SCHEMA}.staging s ON t.id = s.id '
                'WHEN MATCHED THEN UPDATE SET *")\n'
            ),
        }
    )
    assert ("load.py:7", "main.sales.orders", "merge") in _writes(result)
    assert all(i.table.name == "main.sales.orders" for i in result.intents)


def test_a_cursor_attribute_also_given_another_database_is_not_read(lint):
    result = lint(
        {
            "job.py": (
                "import sqlite3\n"
                "from databricks import sql\n"
                "\n"
                "class Store:\n"
                "    def open_remote(self):\n"
                '        self._cur = sql.connect(server_hostname="h").cursor()\n'
                "\n"
                "    def open_local(self):\n"
                '        self._cur = sqlite3.connect("x.db").cursor()\n'
                "\n"
                "    def save(self):\n"
                '        self._cur.execute("INSERT INTO main.sales.orders VALUES (1)")\n'
            )
        }
    )
    assert result.intents == []


def test_sqlalchemy_with_the_databricks_dialect(lint):
    result = lint(
        {
            "job.py": (
                "from sqlalchemy import create_engine, text\n"
                "\n"
                'engine = create_engine(f"databricks://token:{TOKEN}@host?http_path=p")\n'
                "with engine.begin() as conn:\n"
                '    conn.execute(text("UPDATE main.sales.orders SET paid = true WHERE id = 3"))\n'
            ),
            "pg.py": (
                "from sqlalchemy import create_engine, text\n"
                "\n"
                'engine = create_engine("postgresql://u@host/db")\n'
                "with engine.connect() as conn:\n"
                '    conn.execute(text("UPDATE main.sales.orders SET paid = true WHERE id = 4"))\n'
            ),
        }
    )
    assert _writes(result) == [("job.py:5", "main.sales.orders", "update")]


def test_sqlalchemy_exec_driver_sql_is_a_warehouse_call(lint):
    """`exec_driver_sql(text)` runs the text as it is, like `execute(text(...))`; it is
    read only on a connection of the Databricks dialect."""
    job = (
        "from sqlalchemy import create_engine\n"
        "\n"
        'engine = create_engine("databricks://token:t@host?http_path=p")\n'
        "with engine.connect() as conn:\n"
        '    conn.exec_driver_sql("DELETE FROM main.sales.orders WHERE id = 5")\n'
    )
    result = lint({"job.py": job, "pg.py": job.replace("databricks://token:t@host?http_path=p", "postgresql://u@h/db")})
    assert _writes(result) == [("job.py:5", "main.sales.orders", "delete")]
    assert not [d for d in result.diagnostics if d.location.path.endswith("job.py")]


def test_a_context_manager_of_the_module_that_yields_a_cursor(lint):
    result = lint(
        {
            "job.py": (
                "from contextlib import contextmanager\n"
                "\n"
                "import databricks.sql\n"
                "\n"
                "\n"
                "@contextmanager\n"
                "def warehouse():\n"
                '    conn = databricks.sql.connect(server_hostname="h")\n'
                "    try:\n"
                "        yield conn.cursor()\n"
                "    finally:\n"
                "        conn.close()\n"
                "\n"
                "\n"
                "with warehouse() as cur:\n"
                "    cur.execute(\"DELETE FROM main.sales.orders WHERE day < '2024-01-01'\")\n"
            )
        }
    )
    assert _writes(result) == [("job.py:16", "main.sales.orders", "delete")]


def test_names_defined_by_themselves_and_recursive_factories_end(lint):
    result = lint(
        {
            "job.py": (
                "from databricks import sql\n"
                "\n"
                "def again():\n"
                "    return again()\n"
                "\n"
                "cur = again()\n"
                'cur.execute("DELETE FROM main.sales.orders WHERE id = 1")\n'
                "other = other.cursor()\n"
                'other.execute("DELETE FROM main.sales.orders WHERE id = 2")\n'
                + "".join(f"c{n + 1} = c{n}\n" for n in range(40))
                + 'c0 = sql.connect(server_hostname="h").cursor()\n'
                + 'c40.execute("DELETE FROM main.sales.orders WHERE id = 3")\n'
            )
        }
    )
    assert result.intents == []  # no origin told: nothing read, and no error
    assert not [f for f in result.findings if f.rule in ("DL000", "DL002")]


def test_a_client_a_function_rebinds_through_global_is_not_trusted(lint):
    """`global conn` in a function that binds it to sqlite: the module's `conn` is one of
    two clients, so its cursor's statements are not Databricks writes."""
    code = (
        "import sqlite3\n"
        "from databricks import sql\n"
        "conn = sql.connect(server_hostname='h', http_path='p', access_token='t')\n"
        "def use_local():\n"
        "    global conn\n"
        "    conn = sqlite3.connect('local.db')\n"
        "use_local()\n"
        "cur = conn.cursor()\n"
        "cur.execute('UPDATE main.s.t SET x = 1')\n"
    )
    assert [i.table.name for i in lint({"a.py": code}).intents] == []
    trusted = code.replace("    global conn\n", "")  # a local of the function: the module's is the connector's
    assert [i.table.name for i in lint({"a.py": trusted}).intents] == ["main.s.t"]


HELPER = (
    "import sqlite3\n"
    "from databricks import sql\n"
    "\n"
    "def load(cur, table):\n"
    '    cur.execute(f"INSERT INTO {table} VALUES (1)")\n'
    "\n"
    'conn = sql.connect(server_hostname="h", http_path="p")\n'
    'load(conn.cursor(), "main.sales.orders")\n'
    "with conn.cursor() as c:\n"
    '    load(table="main.sales.orders", cur=c)\n'
)


def test_a_cursor_every_call_gives_from_a_databricks_client_is_read_in_the_helper(lint):
    """`def load(cur): cur.execute(...)`: both calls give a cursor of the connector,
    so the helper's statement runs in the warehouse (a write at each call)."""
    result = lint({"job.py": HELPER})
    assert _writes(result) == [
        ("job.py:10", "main.sales.orders", "blind_append"),
        ("job.py:8", "main.sales.orders", "blind_append"),
    ]
    assert not [d for d in result.diagnostics if d.rule == "DL001"]


def test_a_cursor_one_call_gives_from_another_database_is_said_not_read(lint):
    """The near miss: a third call gives a sqlite cursor, so which database the helper
    writes to is not known: no intent, and a note at the statement says why."""
    result = lint({"job.py": HELPER + 'load(sqlite3.connect("x.db").cursor(), "main.sales.orders")\n'})
    assert result.intents == []
    notes = [d for d in result.diagnostics if d.rule == "DL001"]
    assert [d.location.line for d in notes] == [5] and "parameter some calls give a Databricks" in notes[0].message


def test_a_helper_that_hands_its_cursor_on_to_itself_keeps_its_callers_client(lint):
    """`load(cur, n - 1)` inside `load` passes the parameter on: what `load` holds is
    what its other calls give. The near miss: a recursion that hands it another
    database's cursor is a mixed parameter, said not read."""
    job = (
        "import sqlite3\n"
        "from databricks import sql\n"
        'conn = sql.connect(server_hostname="h", http_path="p")\n'
        "def load(cur, n):\n"
        "    if n:\n"
        "        load(cur, n - 1)\n"
        '    cur.execute("UPDATE main.s.events SET x = 1 WHERE id = 7")\n'
        "load(conn.cursor(), 3)\n"
    )
    assert _writes(lint({"job.py": job})) == [("job.py:7", "main.s.events", "update")]
    other = job.replace("load(cur, n - 1)", 'load(sqlite3.connect("x.db").cursor(), n - 1)')
    result = lint({"job.py": other})
    assert _writes(result) == []
    assert [d.rule for d in result.diagnostics if d.location.line == 7] == ["DL001"]
