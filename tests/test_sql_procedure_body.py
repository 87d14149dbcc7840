"""SQL procedures: `CREATE [OR REPLACE] PROCEDURE name (params) characteristics AS
BEGIN ... END`, and `CALL name(...)`.

A procedure's body runs where it is called. Before, the first body statement was
swallowed with the header, the others were read as if they ran at the definition,
and a `CALL` read nothing. The body's writes are now the procedure's: each `CALL` of
it makes them, at the call, naming the body's statement as its site; the definition
writes nothing. A `CALL` of a procedure the script does not define is a note
(DL007). A compound block run directly (`BEGIN ... END` alone) still writes where
it stands.
"""

from __future__ import annotations

PROCEDURE = """CREATE OR REPLACE PROCEDURE main.ops.sp_reload_shops(IN p_day DATE DEFAULT current_date(), OUT n INT)
LANGUAGE SQL
SQL SECURITY INVOKER
COMMENT 'reload (the shops)'
AS body: BEGIN
  DECLARE t STRING DEFAULT 'main.sales.shops';
  USE CATALOG other;
  TRUNCATE TABLE main.sales.shops;
  IF p_day IS NOT NULL THEN
    INSERT INTO IDENTIFIER(t) SELECT id, name FROM main.raw.shops;
  END IF;
END body;
"""


def _intents(result) -> list[tuple]:
    return sorted(
        (
            i.location.path.rsplit("/", 1)[-1],
            i.location.line,
            i.table.name,
            i.kind.value,
            tuple(s.line for s in i.location.sites),
        )
        for i in result.intents
    )


def test_a_procedures_writes_are_made_at_each_call(lint):
    result = lint(
        {
            "reload.sql": PROCEDURE
            + "INSERT INTO logs SELECT 1;\n"
            + "CALL main.ops.sp_reload_shops(p_day => DATE'2024-01-01');\n"
            + "USE main.ops;\n"
            + "CALL sp_reload_shops();\n"
        }
    )
    assert _intents(result) == [
        ("reload.sql", 13, "logs", "blind_append", ()),  # the body's USE stays in it
        ("reload.sql", 14, "main.sales.shops", "blind_append", (10,)),
        ("reload.sql", 14, "main.sales.shops", "truncate", (8,)),
        ("reload.sql", 16, "main.sales.shops", "blind_append", (10,)),
        ("reload.sql", 16, "main.sales.shops", "truncate", (8,)),
    ]
    assert result.diagnostics == []


def test_a_procedure_nobody_calls_writes_nothing_at_its_definition(lint):
    result = lint({"define.sql": PROCEDURE})
    assert _intents(result) == []
    assert result.diagnostics == []


def test_a_call_conflicts_as_its_body_would(lint):
    result = lint(
        {
            "reload.sql": PROCEDURE + "CALL main.ops.sp_reload_shops();\n",
            "fix.sql": "DELETE FROM main.sales.shops WHERE id = 0;\n",
        }
    )
    assert any(f.location.path.endswith("reload.sql") and f.location.line == 13 for f in result.findings) or any(
        r.path.endswith("reload.sql") and r.line == 13 for f in result.findings for r in f.related
    )


def test_a_call_of_a_procedure_the_script_does_not_define_is_a_note(lint):
    result = lint({"call_load.sql": "CALL main.ops.sp_load_shops();\n"})
    assert _intents(result) == []
    assert [(d.rule, d.location.line, d.severity) for d in result.diagnostics] == [("DL007", 1, "info")]
    assert "main.ops.sp_load_shops" in result.diagnostics[0].message


def test_a_block_run_directly_writes_where_it_stands(lint):
    result = lint(
        {
            "block.sql": (
                "BEGIN\n"
                "  DECLARE n INT DEFAULT 1;\n"
                "  TRUNCATE TABLE main.sales.shops;\n"
                "  INSERT INTO main.sales.shops SELECT n;\n"
                "END;\n"
                "CREATE FUNCTION main.ops.f(x INT) RETURNS INT RETURN x + 1;\n"
            )
        }
    )
    assert _intents(result) == [
        ("block.sql", 3, "main.sales.shops", "truncate", ()),
        ("block.sql", 4, "main.sales.shops", "blind_append", ()),
    ]
    assert result.diagnostics == []


def test_a_handler_block_inside_a_procedure_does_not_end_its_body(lint):
    """`DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ... END;` opens a block of its own:
    its `END` closes the handler, not the procedure, so the statements after it stay
    the procedure's, written at its `CALL`."""
    script = (
        "CREATE OR REPLACE PROCEDURE main.s.p() LANGUAGE SQL AS BEGIN\n"
        "  DECLARE EXIT HANDLER FOR SQLEXCEPTION, SQLSTATE '42P01'\n"
        "  BEGIN\n"
        "    INSERT INTO main.s.log VALUES ('failed');\n"
        "  END;\n"
        "  INSERT INTO main.s.t VALUES (1);\n"
        "END;\n"
        "INSERT INTO main.s.after VALUES (1);\n"
        "CALL main.s.p();\n"
    )
    found = [(line, table) for _, line, table, *_ in _intents(lint({"job.sql": script}))]
    assert (9, "main.s.t") in found and (6, "main.s.t") not in found, found
