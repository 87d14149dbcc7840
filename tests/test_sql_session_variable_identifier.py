"""`IDENTIFIER(v)` of a SQL session or script variable names the table the variable
holds where the statement runs.

`DECLARE [OR REPLACE] VARIABLE v STRING DEFAULT 'x'` and `SET VAR v = 'x'` give a
variable its text in statement order; `INSERT INTO IDENTIFIER(v)` and
`IDENTIFIER(v || '.t')` write the table that text names. They used to write a table
literally named `identifier`, pairing unrelated tables and missing the real pairs. A
variable set from a query, or one the script never declares, names a table only a run
knows: unresolved, with a note (DL001). `IDENTIFIER(:param)` and `IDENTIFIER('lit')`
are read as before.
"""

from __future__ import annotations


def _intents(result) -> list[tuple[str, int, str, str]]:
    return sorted(
        (i.location.path.rsplit("/", 1)[-1], i.location.line, i.table.name, i.kind.value) for i in result.intents
    )


def test_a_declared_or_set_variable_names_the_table(lint):
    result = lint(
        {
            "load.sql": (
                "DECLARE VARIABLE target_table STRING DEFAULT 'main.sales.orders';\n"
                "INSERT INTO IDENTIFIER(target_table) SELECT id FROM main.raw.orders;\n"
            ),
            "cleanup.sql": (
                "DECLARE OR REPLACE VARIABLE tbl STRING;\n"
                "SET VAR tbl = 'main.sales.orders';\n"
                "DELETE FROM IDENTIFIER(tbl) WHERE id < 0;\n"
            ),
            "purge_refunds.sql": (
                "DECLARE VARIABLE t STRING DEFAULT 'main.sales.refunds';\nDELETE FROM IDENTIFIER(t) WHERE id < 0;\n"
            ),
            "fix.sql": "DELETE FROM main.sales.orders WHERE id = 0;\n",
        }
    )
    assert _intents(result) == [
        ("cleanup.sql", 3, "main.sales.orders", "delete"),
        ("fix.sql", 1, "main.sales.orders", "delete"),
        ("load.sql", 2, "main.sales.orders", "blind_append"),
        ("purge_refunds.sql", 2, "main.sales.refunds", "delete"),
    ]
    pairs = {
        frozenset((f.location.path.rsplit("/", 1)[-1], r.path.rsplit("/", 1)[-1]))
        for f in result.findings
        for r in f.related
    }
    assert frozenset(("cleanup.sql", "fix.sql")) in pairs
    assert not any("purge_refunds.sql" in pair for pair in pairs)


def test_the_variable_is_read_in_statement_order(lint):
    result = lint(
        {
            "move.sql": (
                "DECLARE VARIABLE sch STRING DEFAULT 'main.sales';\n"
                "INSERT INTO IDENTIFIER(sch || '.orders') SELECT 1;\n"
                "SET VARIABLE sch = 'main.archive';\n"
                "INSERT INTO IDENTIFIER(concat(sch, '.orders')) SELECT 2;\n"
            )
        }
    )
    assert _intents(result) == [
        ("move.sql", 2, "main.sales.orders", "blind_append"),
        ("move.sql", 4, "main.archive.orders", "blind_append"),
    ]


def test_a_variable_only_a_run_knows_is_unresolved_with_a_note(lint):
    result = lint(
        {
            "dyn.sql": (
                "DECLARE VARIABLE t STRING;\n"
                "SET VAR t = (SELECT max(name) FROM main.cfg.tables);\n"
                "DELETE FROM IDENTIFIER(t || '.orders') WHERE id < 0;\n"
                "DELETE FROM IDENTIFIER(never_declared) WHERE id < 0;\n"
            )
        }
    )
    assert all("identifier" not in i.table.name for i in result.intents)
    notes = sorted((d.location.line, d.rule) for d in result.diagnostics)
    assert notes == [(3, "DL001"), (4, "DL001")]


def test_identifier_of_literals_and_parameters_is_read_as_before(lint):
    result = lint(
        {
            "lits.sql": (
                "INSERT INTO IDENTIFIER('main.lit.t') SELECT 'IDENTIFIER(v)';\n"
                "INSERT INTO IDENTIFIER(:cat || '.s.t') SELECT 1;\n"
                "-- IDENTIFIER(x) in a comment\n"
                "DELETE FROM main.s.u WHERE note = 'IDENTIFIER(y)';\n"
            )
        }
    )
    assert _intents(result) == [
        ("lits.sql", 1, "main.lit.t", "blind_append"),
        ("lits.sql", 2, "{cat}.s.t", "blind_append"),
        ("lits.sql", 4, "main.s.u", "delete"),
    ]
    assert [d for d in result.diagnostics if d.rule in ("DL000", "DL001")] == []
