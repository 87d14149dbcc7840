"""`SIGNAL` and `RESIGNAL` in Databricks SQL scripting raise an error: the statement
writes no table, so it is read as a scripting statement (no DL000), and the writes
around it (in the same block, in the other branch, in a handler) are still read.
Before, each such statement was a DL000 "unrecognised statement"."""

from __future__ import annotations


def _read(lint, sql: str) -> tuple[list[tuple[int, str, str]], list[str]]:
    result = lint({"job.sql": sql})
    intents = sorted((i.location.line, i.table.name, i.kind.value) for i in result.intents)
    return intents, [d.rule for d in result.diagnostics if d.rule == "DL000"]


def test_signal_in_a_branch_writes_nothing_and_the_block_is_still_read(lint):
    sql = (
        "BEGIN\n  DECLARE n INT DEFAULT 0;\n  SET n = (SELECT count(*) FROM main.s.src);\n"
        "  IF n = 0 THEN\n    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no rows; stop';\n  END IF;\n"
        "  IF n > 9 THEN SIGNAL SQLSTATE VALUE '45001' SET MESSAGE_TEXT = concat('too many: ', n); END IF;\n"
        "  DELETE FROM main.s.t WHERE id < 0;\nEND;\n"
    )
    assert _read(lint, sql) == ([(8, "main.s.t", "delete")], [])


def test_signal_of_a_condition_and_resignal_in_a_handler(lint):
    sql = (
        "BEGIN\n  DECLARE no_rows CONDITION FOR SQLSTATE '45000';\n"
        "  DECLARE EXIT HANDLER FOR SQLEXCEPTION\n  BEGIN\n    INSERT INTO main.s.errors VALUES (1);\n"
        "    RESIGNAL;\n  END;\n  SIGNAL no_rows SET MESSAGE_ARGUMENTS = MAP('reason', 'empty');\n"
        "  UPDATE main.s.u SET flag = 1 WHERE id = 2;\nEND;\n"
    )
    intents, parse_errors = _read(lint, sql)
    assert parse_errors == []
    assert (5, "main.s.errors", "blind_append") in intents
    assert (9, "main.s.u", "update") in intents


def test_a_table_named_like_signal_is_still_written(lint):
    """Near miss: only a statement that begins with the word is a signal."""
    sql = "BEGIN\n  INSERT INTO main.s.signal VALUES (1);\n  DELETE FROM main.s.resignal_log WHERE id = 0;\nEND;\n"
    assert _read(lint, sql) == ([(2, "main.s.signal", "blind_append"), (3, "main.s.resignal_log", "delete")], [])
