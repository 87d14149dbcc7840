"""SQL scripting: a variable set inside a branch of an IF or CASE, or inside a loop,
holds one of several values where control flow merges (after the branch, in the
next branch, at a loop's next turn), so a statement built from it there names an
unknown table with a note — never the last branch read. Near misses: a value set
outside any branch stays known, and a value a branch sets is known inside it."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def tables(sql: str) -> list[str]:
    return [i.table.name for i in analyze_source("job.sql", ".sql", sql).intents]


IF_ELSE = """BEGIN
  DECLARE t STRING DEFAULT 'main.db.none';
  IF :env = 'prod' THEN
    SET t = 'main.db.prod';
  ELSE
    SET t = 'main.db.dev';
  END IF;
  EXECUTE IMMEDIATE 'INSERT INTO ' || t || ' SELECT 1';
END;
"""
CASE = """BEGIN
  DECLARE t STRING DEFAULT 'main.db.none';
  CASE :env
    WHEN 'prod' THEN SET t = 'main.db.prod';
    WHEN 'dev' THEN SET t = 'main.db.dev';
  END CASE;
  EXECUTE IMMEDIATE 'INSERT INTO ' || t || ' SELECT 1';
END;
"""
REPEAT = """BEGIN
  DECLARE t STRING DEFAULT 'main.db.first';
  DECLARE n INT DEFAULT 0;
  REPEAT
    EXECUTE IMMEDIATE 'INSERT INTO ' || t || ' SELECT 1';
    SET t = 'main.db.second';
    SET n = n + 1;
  UNTIL n > 1 END REPEAT;
END;
"""
LABELLED_WHILE = """BEGIN
  DECLARE t STRING DEFAULT 'main.db.first';
  lbl: WHILE :more DO
    EXECUTE IMMEDIATE 'INSERT INTO ' || t || ' SELECT 1';
    SET t = 'main.db.second';
  END WHILE lbl;
END;
"""
IF_CATALOG = """BEGIN
  DECLARE c STRING DEFAULT 'dev';
  IF :env = 'prod' THEN
    SET c = 'prod';
  END IF;
  USE CATALOG IDENTIFIER(c);
  INSERT INTO sales.orders SELECT 1;
END;
"""


@pytest.mark.parametrize("script", [IF_ELSE, CASE, REPEAT, LABELLED_WHILE, IF_CATALOG])
def test_a_value_set_in_a_branch_or_loop_is_unknown_where_paths_merge(script: str) -> None:
    result = analyze_source("job.sql", ".sql", script)
    names = [i.table.name for i in result.intents]
    assert names and all("{" in n for n in names), names
    assert {"DL001"} <= {d.rule for d in result.diagnostics}


def test_a_value_set_outside_any_branch_stays_known() -> None:
    script = IF_ELSE.replace("SET t = 'main.db.prod';", "SELECT 1;").replace("SET t = 'main.db.dev';", "SELECT 2;")
    assert tables(script) == ["main.db.none"]


def test_a_value_a_branch_sets_is_known_inside_it() -> None:
    script = """BEGIN
  DECLARE t STRING DEFAULT 'main.db.none';
  IF :env = 'prod' THEN
    SET t = 'main.db.prod';
    EXECUTE IMMEDIATE 'INSERT INTO ' || t || ' SELECT 1';
  END IF;
END;
"""
    assert tables(script) == ["main.db.prod"]


def test_execute_immediate_keeps_an_into_inside_its_literal() -> None:
    script = "BEGIN\n  DECLARE t STRING DEFAULT 'main.db.t';\n  EXECUTE IMMEDIATE 'INSERT INTO ' || t || ' SELECT 1';\nEND;\n"
    assert tables(script) == ["main.db.t"]
    # an INTO clause of its own (the row a query gives) is not the statement's text
    script = (
        "BEGIN\n  DECLARE n INT;\n  DECLARE q STRING DEFAULT 'INSERT INTO main.db.u SELECT 1';\n"
        "  EXECUTE IMMEDIATE q INTO n USING 1;\nEND;\n"
    )
    assert tables(script) == ["main.db.u"]


def test_a_value_set_again_after_the_branch_stays_known_in_later_branches() -> None:
    script = """BEGIN
  DECLARE t STRING DEFAULT 'main.s.a';
  IF :flag THEN
    SET t = 'main.s.b';
  END IF;
  SET t = 'main.s.final';
  IF :other THEN
    INSERT INTO IDENTIFIER(t) VALUES (1);
  ELSE
    INSERT INTO IDENTIFIER(t) VALUES (2);
  END IF;
END;
"""
    assert tables(script) == ["main.s.final", "main.s.final"]


def test_the_first_branch_of_a_case_sees_the_value_before_it() -> None:
    script = """BEGIN
  DECLARE t STRING DEFAULT 'main.s.a';
  CASE
    WHEN :flag = 1 THEN
      INSERT INTO IDENTIFIER(t) VALUES (1);
    WHEN :flag = 2 THEN
      SET t = 'main.s.b';
  END CASE;
END;
"""
    assert tables(script) == ["main.s.a"]
