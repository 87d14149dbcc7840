"""SQL scripting forms that were a DL000 or lost a write: the `CASE` statement (each
branch's statement may run), `LEAVE`/`ITERATE`, `REPEAT ... UNTIL ... END REPEAT`,
and the statement of a `DECLARE ... HANDLER` (it runs on an error: its write is a
write of the script, where before the handler's whole statement was read as a
variable declaration and its write vanished)."""

from __future__ import annotations


def _read(lint, sql: str):
    result = lint({"job.sql": sql})
    intents = sorted((i.location.line, i.table.name, i.kind.value) for i in result.intents)
    return intents, [d.rule for d in result.diagnostics if d.rule == "DL000"]


def test_each_branch_of_a_case_statement_is_read(lint):
    sql = (
        "BEGIN\n  DECLARE mode STRING DEFAULT 'full';\n  CASE mode\n    WHEN 'full' THEN\n"
        "      DELETE FROM main.s.r WHERE id < 0;\n    WHEN 'part' THEN\n      DELETE FROM main.s.q WHERE id < 0;\n"
        "    ELSE\n      UPDATE main.s.r SET flag = 0 WHERE id < 0;\n  END CASE;\nEND;\n"
    )
    assert _read(lint, sql) == ([(5, "main.s.r", "delete"), (7, "main.s.q", "delete"), (9, "main.s.r", "update")], [])


def test_a_searched_case_statement_is_read(lint):
    sql = "BEGIN\n  CASE\n    WHEN 1 = 1 THEN INSERT INTO main.s.a VALUES (1);\n  END CASE;\nEND;\n"
    assert _read(lint, sql) == ([(3, "main.s.a", "blind_append")], [])


def test_leave_and_repeat_until_steer_their_loops(lint):
    sql = (
        "BEGIN\n  DECLARE n INT DEFAULT 0;\n  purge: LOOP\n    SET n = n + 1;\n    IF n > 3 THEN\n      LEAVE purge;\n"
        "    END IF;\n    DELETE FROM main.s.o WHERE batch = n;\n  END LOOP purge;\n"
        "  REPEAT\n    UPDATE main.s.f SET flag = 1 WHERE batch = n;\n    ITERATE purge;\n  UNTIL n > 3\n  END REPEAT;\nEND;\n"
    )
    assert _read(lint, sql) == ([(8, "main.s.o", "delete"), (11, "main.s.f", "update")], [])


def test_a_handler_statement_is_a_write_of_the_script(lint):
    sql = (
        "BEGIN\n  DECLARE EXIT HANDLER FOR SQLEXCEPTION\n  BEGIN\n    INSERT INTO main.s.errors VALUES (1);\n  END;\n"
        "  DECLARE CONTINUE HANDLER FOR NOT FOUND INSERT INTO main.s.misses VALUES (2);\n"
        "  MERGE INTO main.s.c t USING main.raw.c s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;\nEND;\n"
    )
    assert _read(lint, sql) == (
        [(4, "main.s.errors", "blind_append"), (6, "main.s.misses", "blind_append"), (7, "main.s.c", "merge")],
        [],
    )


def test_a_variable_named_like_a_keyword_is_still_a_variable(lint):
    sql = (
        "BEGIN\n  DECLARE exit_code INT DEFAULT 0;\n  DECLARE case_name STRING DEFAULT 'main.s.t';\n"
        "  EXECUTE IMMEDIATE 'DELETE FROM ' || case_name || ' WHERE id = 1';\nEND;\n"
    )
    assert _read(lint, sql) == ([(4, "main.s.t", "delete")], [])


def test_a_case_expression_in_a_query_is_no_statement(lint):
    sql = "INSERT INTO main.s.a SELECT CASE WHEN id > 0 THEN 1 ELSE 0 END AS x FROM main.raw.a;\n"
    assert _read(lint, sql) == ([(1, "main.s.a", "blind_append")], [])
