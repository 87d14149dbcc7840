"""The SQL front end: exact intents for every statement kind of the spec."""

from __future__ import annotations

import ast
import inspect
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.sql import Session, analyze_sql
from delta_lint.frontend.sqltext import apply_templates, split_statements, sql_inputs
from delta_lint.model import Kind


def one(sql: str, session: Session | None = None):
    intents, diags = analyze_sql(sql, "x.sql", session or Session())
    assert diags == []
    assert len(intents) == 1, intents
    i = intents[0]
    return (
        i.table.name if i.table else None,
        i.kind.value,
        i.op_class.value,
        i.predicate_sql,
        i.params,
        sorted(f.value for f in i.flags),
    )


def test_splitter_keeps_semicolons_in_strings_and_comments():
    stmts = split_statements(
        "SELECT ';' -- a; b\n;\n/* c; */ UPDATE t SET a = 'x;y' WHERE b = \"q;\";\n  DELETE FROM t"
    )
    assert [s.text.split()[0] for s in stmts] == ["SELECT", "UPDATE", "DELETE"]
    assert [(s.line, s.column) for s in stmts] == [(1, 1), (3, 10), (4, 3)]


def test_templates_become_named_parameters():
    t = apply_templates(
        "INSERT INTO t_{env} SELECT * FROM s WHERE d = :d AND e = '${var.e}' AND f = {{ ds }} AND g = %(g)s"
    )
    assert t.names == ["ds", "var_e", "g", "env", "d"]
    assert "{" not in t.text and ":d" not in t.text


@pytest.mark.parametrize(
    "sql,expected",
    [
        (
            "INSERT INTO sales.orders PARTITION (date = '2024-01-01') SELECT * FROM s",
            ("sales.orders", "blind_append", "INSERT", "date = '2024-01-01'", (), ["static_partition"]),
        ),
        (
            "INSERT INTO t SELECT * FROM s WHERE id NOT IN (SELECT id FROM t)",
            ("t", "insert_reading_target", "UPDATE/DELETE/MERGE", None, (), ["reads_target"]),
        ),
        (
            "INSERT INTO t REPLACE WHERE date = :d SELECT * FROM s",
            ("t", "replace_where", "UPDATE/DELETE/MERGE", "date = :d", ("d",), []),
        ),
        ("INSERT OVERWRITE t SELECT * FROM s", ("t", "full_overwrite", "UPDATE/DELETE/MERGE", None, (), [])),
        (
            "INSERT OVERWRITE t PARTITION (d = '1') SELECT * FROM s",
            ("t", "replace_where", "UPDATE/DELETE/MERGE", "d = '1'", (), ["static_partition"]),
        ),
        (
            "UPDATE delta.`/mnt/x` SET a = 1 WHERE date > '2010-01-01'",
            ("delta:/mnt/x", "update", "UPDATE/DELETE/MERGE", "date > '2010-01-01'", (), []),
        ),
        (
            "DELETE FROM t WHERE EXISTS (SELECT 1 FROM s WHERE s.id = t.id)",
            (
                "t",
                "delete",
                "UPDATE/DELETE/MERGE",
                "EXISTS(SELECT 1 FROM s WHERE s.id = t.id)",
                (),
                ["correlated_subquery", "subquery"],
            ),
        ),
        (
            "DELETE FROM t WHERE rand() < 0.1",
            ("t", "delete", "UPDATE/DELETE/MERGE", "RAND() < 0.1", (), ["non_deterministic"]),
        ),
        (
            "DELETE FROM t WHERE tags['k'] = 'v'",
            ("t", "delete", "UPDATE/DELETE/MERGE", "tags['k'] = 'v'", (), ["complex_type_condition"]),
        ),
        ("TRUNCATE TABLE t", ("t", "truncate", "UPDATE/DELETE/MERGE", None, (), [])),
        ("COPY INTO t FROM '/x' FILEFORMAT = CSV", ("t", "copy_into", "INSERT", None, (), [])),
        ("OPTIMIZE t", ("t", "optimize", "OPTIMIZE", None, (), [])),
        ("OPTIMIZE t WHERE d >= '2024' ZORDER BY (a, b)", ("t", "optimize_zorder", "OPTIMIZE", "d >= '2024'", (), [])),
        ("REORG TABLE t APPLY (PURGE)", ("t", "reorg_purge", "OPTIMIZE", None, (), [])),
        (
            "REORG TABLE t APPLY (UPGRADE UNIFORM(ICEBERG_COMPAT_VERSION=2))",
            ("t", "protocol_change", "protocol change", None, (), []),
        ),
        ("VACUUM t RETAIN 168 HOURS", ("t", "vacuum", "no conflict class", None, (), [])),
        ("RESTORE TABLE t TO VERSION AS OF 3", ("t", "restore", "UPDATE/DELETE/MERGE", None, (), [])),
        ("ALTER TABLE t DROP FEATURE deletionVectors", ("t", "protocol_change", "protocol change", None, (), [])),
        ("ALTER TABLE t UNSET TBLPROPERTIES ('x')", ("t", "metadata_change", "metadata change", None, (), [])),
        ("ALTER TABLE t ADD COLUMNS (c INT)", ("t", "metadata_change", "metadata change", None, (), [])),
        ("ALTER TABLE t CLUSTER BY (a)", ("t", "metadata_change", "metadata change", None, (), [])),
        (
            "ALTER TABLE t SET TBLPROPERTIES ('delta.isolationLevel' = 'Serializable')",
            ("t", "metadata_change", "metadata change", None, (), []),
        ),
        (
            "ALTER TABLE t SET TBLPROPERTIES ('delta.enableDeletionVectors' = true)",
            ("t", "protocol_change", "protocol change", None, (), []),
        ),
        (
            "CONVERT TO DELTA parquet.`/data/p` PARTITIONED BY (d DATE)",
            ("delta:/data/p", "create", "create", None, (), []),
        ),
        ("CREATE OR REPLACE TABLE t AS SELECT * FROM s", ("t", "create_or_replace", "metadata change", None, (), [])),
        ("CREATE TABLE IF NOT EXISTS t (a INT)", ("t", "create", "create", None, (), ["if_not_exists"])),
    ],
)
def test_statement_kinds(sql, expected):
    assert one(sql) == expected


def test_merge_clauses_and_schema_evolution():
    intents, _ = analyze_sql(
        "MERGE WITH SCHEMA EVOLUTION INTO t USING s ON s.id = t.id AND t.d = '1' "
        "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT * WHEN NOT MATCHED BY SOURCE THEN DELETE",
        "x.sql",
        Session(),
    )
    (i,) = intents
    assert i.kind.value == "merge" and i.op_class.value == "metadata change"
    assert i.merge_clauses == ("matched_update", "not_matched_insert", "not_matched_by_source_delete")
    assert {f.value for f in i.flags} == {"schema_evolution", "reads_whole_target"}
    assert i.region.is_whole()  # NOT MATCHED BY SOURCE reads the whole target


def test_merge_target_predicate_uses_only_target_columns():
    intents, _ = analyze_sql(
        "MERGE INTO t USING s ON s.d = t.d AND t.c IN ('DE', 'FR') WHEN MATCHED THEN DELETE", "x.sql", Session()
    )
    assert intents[0].region.columns() == {"c"}


def test_create_records_declared_settings():
    intents, _ = analyze_sql(
        "CREATE TABLE c.s.t (id BIGINT GENERATED ALWAYS AS IDENTITY, d DATE) PARTITIONED BY (d) "
        "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', 'delta.isolationLevel' = 'Serializable')",
        "x.sql",
        Session(),
    )
    d = intents[0].declared
    assert (d.partitioned_by, d.deletion_vectors, d.isolation_level, d.identity_columns) == (
        ("d",),
        True,
        "Serializable",
        ("id",),
    )
    clustered, _ = analyze_sql("CREATE TABLE t (a INT) CLUSTER BY (a)", "x.sql", Session())
    assert clustered[0].declared.clustered_by == ("a",)


def test_use_and_set_change_later_statements():
    session = Session()
    intents, _ = analyze_sql(
        "USE CATALOG main; USE SCHEMA sales; SET spark.databricks.delta.schema.autoMerge.enabled = true;\n"
        "MERGE INTO orders t USING s ON s.id = t.id WHEN MATCHED THEN DELETE;\n"
        "SET spark.sql.sources.partitionOverwriteMode = dynamic; INSERT OVERWRITE orders SELECT * FROM s",
        "x.sql",
        session,
    )
    assert [(i.table.name, i.kind.value) for i in intents] == [
        ("main.sales.orders", "merge"),
        ("main.sales.orders", "dynamic_partition_overwrite"),
    ]
    assert "schema_evolution" in {f.value for f in intents[0].flags}


def test_bad_statement_does_not_hide_the_next_ones():
    intents, diags = analyze_sql(
        "DELETE FROM a WHERE x = 1;\nTHIS IS NOT SQL;\nUPDATE b SET y = 2;", "x.sql", Session()
    )
    assert [i.table.name for i in intents] == ["a", "b"]
    assert [(d.rule, d.location.line) for d in diags] == [("DL000", 2)]


def test_dynamic_table_name_is_an_unresolved_intent_with_a_diagnostic():
    intents, diags = analyze_sql("DELETE FROM IDENTIFIER(:tbl) WHERE a = 1", "x.sql", Session())
    assert intents[0].table.name == "{tbl}" and "unresolved" in {f.value for f in intents[0].flags}
    assert [d.rule for d in diags] == ["DL001"]


def test_templated_table_name_keeps_its_parameter():
    intents, _ = analyze_sql("INSERT INTO `main`.`sales_{env}`.orders SELECT 1", "x.sql", Session())
    assert intents[0].table.name == "main.sales_{env}.orders" and intents[0].params == ("env",)


def test_marker_like_text_of_the_statement_itself_is_plain_text():
    """delta-lint marks templates `__dlpN__` while parsing; the same text written in
    the SQL (with or without templates beside it) is a name or a string, not a
    parameter, and costs the file none of its intents."""
    text = (
        "DELETE FROM main.s.t WHERE col = '__dlp3__';\n"
        "UPDATE main.s.t SET a = 1 WHERE b = '__dlp7__' AND d = '{day}';\n"
        "INSERT INTO main.s.__dlp4__ SELECT 1;\n"
        "MERGE INTO main.s.t USING main.s.__dlp9__ AS s ON t.id = s.id AND t.d = '{day}' "
        "WHEN MATCHED THEN UPDATE SET *;\n"
    )
    intents, diags = analyze_sql(text, "x.sql", Session())
    assert diags == []
    assert [(i.table.name, i.params, "unresolved" in {f.value for f in i.flags}) for i in intents] == [
        ("main.s.t", (), False),
        ("main.s.t", ("day",), False),
        ("main.s.__dlp4__", (), False),
        ("main.s.t", ("day",), False),
    ]


def test_statements_without_a_target_are_parse_errors_not_crashes():
    """Found by the long fuzz run: sqlglot reads `DELETE a` with no target table."""
    from delta_lint.frontend.sql import Session, analyze_sql

    intents, diags = analyze_sql("DELETE a;\nDELETE FROM s.t WHERE id = 1;\n", "x.sql", Session())
    assert [d.rule for d in diags] == ["DL000"] and diags[0].location.line == 1
    assert [i.table.name for i in intents] == ["s.t"]


def test_merge_without_an_on_condition_is_a_parse_error():
    """Found by the long fuzz run: a cut MERGE that sqlglot still reads."""
    from delta_lint.frontend.sql import Session, analyze_sql

    text = "MERGE WITH SCHEMA EVOLUTION INTO main.sales.customers t\nUSING s\nWHEN NOT MATCHED BY SOURCE THEN DELETE;\n"
    intents, diags = analyze_sql(text + "DELETE FROM s.t WHERE id = 1;\n", "x.sql", Session())
    assert not any(d.rule == "DL002" for d in diags)
    assert [i.table.name for i in intents][-1] == "s.t"


def test_a_table_name_with_an_empty_part_is_a_parse_error():
    """Found by the long fuzz run: sqlglot leaves a bare string for `main..orders`."""
    from delta_lint.frontend.sql import Session, analyze_sql

    intents, diags = analyze_sql("DELETE FROM main..orders;\nDELETE FROM s.t WHERE id = 1;\n", "x.sql", Session())
    assert [d.rule for d in diags] == ["DL000"]
    assert [i.table.name for i in intents] == ["s.t"]


TYPED = [
    "DELETE FROM s.t WHERE date = '2024-01-01'",
    "UPDATE s.t SET c = CAST(x AS VARCHAR(10)), d = CAST(y AS CHAR(3)) WHERE date >= DATE '2024-01-01'",
    "INSERT INTO s.t SELECT id, date, CAST(v AS DECIMAL(12, 2)), CAST(w AS STRING) FROM s.u WHERE date = '1'",
    "MERGE INTO s.t AS t USING s.u AS s ON t.id = s.id AND t.date = s.date WHEN MATCHED THEN UPDATE SET *",
]


# columns named like temporal types next to comparisons, and the same words as types
TYPE_WORDS = [
    "DELETE FROM s.t WHERE date /* c */ >= '1' AND timestamp < now() AND time <> 3 AND datetime <=> 4",
    "DELETE FROM s.t WHERE date IN ('a') OR date IS NULL OR date BETWEEN 1 AND 2 OR NOT date = 1",
    "DELETE FROM s.t WHERE CAST(x AS DATE) = date AND x::date = date AND x :: timestamp >= 1 AND c:date = 1",
    "DELETE FROM s.t WHERE CAST(z AS MAP<STRING, DATE>) = w AND CAST(q AS STRUCT<a: DATE, b DATE>) = r",
    "DELETE FROM s.t WHERE date = DATE '2024-01-01' AND date(x) = date AND t.date = 1 AND `date` = 2",
    "UPDATE s.t SET date = '1', timestamp = now() WHERE date = '2'",
    "INSERT OVERWRITE s.t PARTITION (date = '1') SELECT * FROM s.u WHERE date < (SELECT max(date) FROM s.v)",
    "ALTER TABLE s.t SET TBLPROPERTIES (date = 'x', timestamp = 1)",
    "SELECT transform(a, date -> date = 1) FROM t WHERE array < 1 AND date = 2",
]


def test_parse_sql_is_sqlglots_parse_without_patching_it(monkeypatch):
    """parse_sql gives what sqlglot's own parse_one gives (trees, comments, errors),
    and changes nothing of sqlglot: a column named like a temporal type is handed to
    the parser as the plain word it is, so that the parser does not first read it as
    a type, and read two more type names with whole parse_one calls on the way."""
    import sqlglot

    from delta_lint.frontend import sql as front

    for text in TYPED + TYPE_WORDS:
        try:
            expected = sqlglot.parse_one(text, read="databricks")
        except sqlglot.errors.ParseError as err:
            with pytest.raises(sqlglot.errors.ParseError) as ours:
                front.parse_sql(text)
            assert str(ours.value) == str(err)
            continue
        ours = front.parse_sql(text)
        assert ours == expected
        assert ours.sql("databricks", comments=True) == expected.sql("databricks", comments=True)
    assert "VARCHAR" not in front.parse_sql(TYPED[1]).sql("databricks")  # sqlglot's Spark reading kept

    real, calls = sqlglot.parse_one, []
    monkeypatch.setattr(sqlglot, "parse_one", lambda *a, **k: calls.append(a) or real(*a, **k))
    front.parse_sql(TYPED[0])
    assert calls == []
    front.parse_sql("DELETE FROM s.t WHERE d = CAST(x AS DATE)")  # a type is still sqlglot's to read
    assert sorted(a[0] for a in calls) == ["char", "varchar"]

    # nothing sqlglot defines is assigned to
    tree = ast.parse(inspect.getsource(front))
    from_sqlglot = {"sqlglot"} | {
        (a.asname or a.name).split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom)) and "sqlglot" in (getattr(n, "module", None) or n.names[0].name)
        for a in n.names
    }
    targets = [t for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets]
    targets += [n.target for n in ast.walk(tree) if isinstance(n, (ast.AugAssign, ast.AnnAssign))]
    targets = [e for t in targets for e in ast.walk(t) if isinstance(e, (ast.Attribute, ast.Subscript))]
    assert not [t for t in targets if isinstance(root := _root(t), ast.Name) and root.id in from_sqlglot]


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node


def test_statement_trees_are_freed_without_the_cyclic_collector():
    """sqlglot's trees point back at their parents; the front end unlinks each tree
    once its statement is read, or the cyclic collector walks every tree of a run
    again (a tenth of the front end). Unlinked, only sqlglot's own scraps are left:
    365 unreachable objects a round before, 41 after."""
    import gc

    from delta_lint.frontend.sql import condition_info, read_tables
    from delta_lint.model import TableRef

    script = """
    MERGE INTO s.t AS t USING (SELECT * FROM s.u WHERE date = '1') AS s ON s.id = t.id AND t.date = '1'
    WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
    UPDATE s.t SET c = CAST(x AS VARCHAR(10)) WHERE date >= DATE '2024-01-01';
    DELETE FROM s.t WHERE date = '2024-01-01' AND id IN (SELECT id FROM s.v);
    INSERT INTO s.t SELECT * FROM s.u WHERE date = '1';
    COPY INTO s.t FROM '/p' FILEFORMAT = JSON COPY_OPTIONS ('mergeSchema' = 'true');
    OPTIMIZE s.t WHERE date >= '2024-01-01' ZORDER BY (id);
    REORG TABLE s.t WHERE date = '1' APPLY (PURGE);
    CREATE TABLE IF NOT EXISTS s.t (id BIGINT, date DATE) USING DELTA PARTITIONED BY (date);
    ALTER TABLE s.t SET TBLPROPERTIES ('delta.appendOnly' = 'true');
    """
    gc.collect()
    gc.disable()
    try:
        for round_ in range(2):
            intents, diags = analyze_sql(script, "a.sql", Session())
            condition_info(f"date = '{round_}' AND id > 3", {"t"}, True, Session(), TableRef("s.t"))
            read_tables("SELECT * FROM s.a JOIN s.b ON a.id = b.id", Session())
            assert len(intents) == 9 and not diags
            assert gc.collect() <= 60
    finally:
        gc.enable()


class _Forgetful(dict):
    """A memo of statements that never remembers."""

    def get(self, key, default=None):
        return default


def _read_all(sources, memo):
    """Every source read as one run reads them (with the run's `memo`)."""
    out = []
    for path, text in sources:
        if path.endswith(".sql"):
            from delta_lint.frontend.sql import analyze_sql

            intents, diags = analyze_sql(text, path, Session(), memo=memo)
        else:
            from delta_lint.frontend.python import analyze_module

            intents, diags, _ = analyze_module(path, text, Session(), memo=memo)
        out.append(([(i.location, i.to_json(), i.region, i.statement) for i in intents], diags))
    return out


def test_statements_read_again_give_what_reading_them_anew_gives():
    """Statements met again are taken from the memo and placed where they stand; the
    memo's key must hold whatever the reading depends on: session (USE, SET), templates
    and their names, parameters of SQL built in Python, and parse errors."""
    from tests.conftest import FIXTURES

    merge = "MERGE INTO t USING s ON s.id = t.id AND t.d = '{day}' WHEN MATCHED THEN UPDATE SET *"
    sources = [
        (
            "a.sql",
            f"USE s1;\n{merge.replace('{day}', '1')};\nDELETE FROM t WHERE d = {{d}};\nINSERT INTO {{x}}.t VALUES (1)",
        ),
        (
            "b.sql",
            f"USE s2;\n\n{merge.replace('{day}', '1')};\nDELETE FROM t WHERE d = {{e}};\nINSERT INTO {{y}}.t VALUES (1)",
        ),
        ("c.sql", "SET spark.databricks.delta.schema.autoMerge.enabled = true;\n" + merge.replace("{day}", "1")),
        ("d.sql", "UPDATE t SET x = ;\nUPDATE t SET x = ;\nUPDATE t SET x = ;\nDELETE FROM t WHERE d = {d}"),
        (
            "e.py",
            f'day = "1"\nspark.sql(f"DELETE FROM t WHERE d = {{day}}")\nspark.sql("""{merge.replace("{day}", "1")}""")\n',
        ),
        ("f.py", f'spark.sql(f"DELETE FROM t WHERE d = {{day}}")\nspark.sql("""{merge.replace("{day}", "1")}""")\n'),
    ]
    sources += [(p.name, p.read_text()) for p in sorted((FIXTURES / "jobs").rglob("*")) if p.suffix in (".sql", ".py")]
    sources += sources  # everything again, now from the memo
    memo = FrontEndMemo()
    remembered = _read_all(sources, memo)
    assert len(memo.statements) > 10
    assert remembered == _read_all(sources, FrontEndMemo(statements=_Forgetful()))
    d_sql = remembered[3]
    assert [d.location.line for d in d_sql[1]] == [1, 2, 3] and len(d_sql[0]) == 1
    assert remembered[0][0][0][1]["table"] == "s1.t" and remembered[1][0][0][1]["table"] == "s2.t"
    assert remembered[1][0][0][0].line == 3
    # SQL built in Python carries the parameters its text came from
    memo = FrontEndMemo()
    for extra in (("a",), ("b",)):
        (intent,), _ = analyze_sql("DELETE FROM t WHERE d = 1", "g.py", Session(), extra_params=extra, memo=memo)
        assert intent.params == extra


def test_a_leading_word_that_is_not_plain_ascii_still_meets_every_pattern():
    """Statements are tried only against the patterns of their first word, but the
    patterns are case-insensitive, and so also match some other letters: `ſ` (long s)
    is an `s` to them, the Kelvin sign a `k` (which stays itself in capitals). Such a
    word must not skip a pattern it matches."""
    assert analyze_sql("ſELECT 1", "x.sql", Session()) == ([], [])
    assert analyze_sql("MSC\u212a REPAIR TABLE s.t", "x.sql", Session()) == ([], [])
    session = Session()
    assert analyze_sql("ſET spark.databricks.delta.schema.autoMerge.enabled = true", "x.sql", session) == ([], [])
    assert session.auto_merge


_INSERTS = [
    "INSERT INTO s.t VALUES (1, 'a'), (2, 'b')",
    "INSERT INTO TABLE s.t (id, name) VALUES (1, 'it''s (not) VALUES'), (2, concat('x', ')'))",
    "INSERT OVERWRITE s.t PARTITION (date = '2024-01-01') VALUES (1, 'a'), (2, 'b')",
    "INSERT INTO s.t PARTITION (date) VALUES (1, '2024-01-01')",
    "INSERT INTO s.t REPLACE WHERE date = '2024-01-01' VALUES (1, '2024-01-01'), (2, '2024-01-01')",
    "INSERT INTO s.t VALUES /* a (comment */ (1, 'a') -- (another\n, (2, 'b')",
    "INSERT INTO s.t VALUES (1, 2), (2, (SELECT max(id) FROM s.t))",
    "INSERT INTO s.t SELECT * FROM (VALUES (1), (2)) AS v(id) JOIN s.t USING (id)",
    "INSERT INTO s.t VALUES (1, -- a ) in a comment\n 'a'), (2, 'b')",
    "INSERT INTO s.t VALUES (1, /* ) */ 'a'), (2, 'b')",
    'INSERT INTO s.`values` VALUES (1, "x)"), (2, `y`)',
    "INSERT INTO s.t VALUES ({id}, :name), (2, '{day}')",
    "INSERT INTO s.t VALUES (1, 'a'), (2, 'b'",
    "INSERT INTO s.t VALUES 1, 2",
]


def test_long_values_lists_are_read_from_their_first_row_as_from_the_whole(monkeypatch):
    """A statement over LARGE_VALUES that inserts literal rows is parsed up to the end
    of its first row. Read that way (the limit set to 0), every form above gives the
    intents and diagnostics of the whole statement, but for a syntax error after the
    first row, which is no longer seen."""
    from delta_lint.frontend import sql as sql_module

    def read(limit: int):
        monkeypatch.setattr(sql_module, "LARGE_VALUES", limit)
        return _read_all([(f"f{k}.sql", text + ";\n") for k, text in enumerate(_INSERTS)], FrontEndMemo())

    whole, cut = read(1 << 30), read(0)
    bad = _INSERTS.index("INSERT INTO s.t VALUES (1, 'a'), (2, 'b'")
    assert [w == c for w, c in zip(whole, cut)] == [k != bad for k in range(len(_INSERTS))]
    assert [d.rule for d in whole[bad][1]] == ["DL000"] and whole[bad][0] == []
    assert cut[bad][1] == [] and [i[1]["kind"] for i in cut[bad][0]] == ["blind_append"]
    assert cut[6][0][0][1]["kind"] == "insert_reading_target"  # its second row reads the target: parsed whole
    assert cut[7][0][0][1]["kind"] == "insert_reading_target"  # VALUES in parentheses: parsed whole


def test_a_seed_script_of_many_rows_parses_only_its_first_row():
    """Seen from outside: a broken last row of a long seed script is never parsed (no
    DL000), while the same broken row in a short statement, parsed whole, is one."""
    rows = ", ".join(f"({k}, 'name {k} (VALUES)', TIMESTAMP'2024-01-01 12:00:00')" for k in range(3000))
    for broken in ("", ", (3000, 'unclosed'"):
        sql = f"INSERT INTO s.seed PARTITION (d = 'x') VALUES {rows}{broken};\n"
        intents, diags = analyze_sql(sql, "seed.sql", Session())
        assert diags == [] and [(i.table.name, i.kind.value, i.predicate_sql) for i in intents] == [
            ("s.seed", "blind_append", "d = 'x'")
        ]
    short = "INSERT INTO s.seed PARTITION (d = 'x') VALUES (1, 'a'), (3000, 'unclosed';\n"
    intents, diags = analyze_sql(short, "seed.sql", Session())
    assert intents == [] and [d.rule for d in diags] == ["DL000"]


# `:name` parameter markers as `sql_inputs` and `bind_inputs` find them, in SQL text
# outside quotes and comments (the pattern is the front end's; where it applies is
# what the reference below decides, one character at a time).
_MARKER = re.compile(r"(?<![\w:\]\)\}\.`'\"])\s?:([A-Za-z_]\w*)")


def _outside_quotes_and_comments(text: str) -> list[tuple[bool, str]]:
    """The text cut into (outside, piece): quoted tokens (backslash escapes but in
    backticks, doubled quotes; an unterminated one runs to the end) and `--`
    comments are inside."""
    pieces, i, seg_start, n = [], 0, 0, len(text)
    while i < n:
        if text[i] in "'\"`":
            pieces.append((True, text[seg_start:i]))
            quote, j = text[i], i + 1
            while j < n:
                if text[j] == "\\" and quote != "`":
                    j += 2
                elif text[j] == quote and j + 1 < n and text[j + 1] == quote:
                    j += 2
                elif text[j] == quote:
                    j += 1
                    break
                else:
                    j += 1
            j = min(j, n)
            pieces.append((False, text[i:j]))
            i = seg_start = j
            continue
        if text.startswith("--", i):
            pieces.append((True, text[seg_start:i]))
            j = text.find("\n", i)
            j = n if j < 0 else j
            pieces.append((False, text[i:j]))
            i = seg_start = j
            continue
        i += 1
    pieces.append((True, text[seg_start:]))
    return pieces


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab :x'\"`-\\\n", max_size=40))
@example(" '\\' :a' :b")  # an escaped quote does not end the string
@example(" '' :a ''")  # two strings, the marker between them
@example(" `a\\` :b` -- :a\n :x")  # no escape in backticks; a comment ends at the line
@example("`a`")  # `:`a``: a marker whose name is quoted
@example("`a`a")  # `:`a`a`: not one
@example("x '`b`' :`c` -- :`d`")
def test_colon_parameters_are_read_outside_strings_and_comments_only(text):
    from delta_lint.frontend.sqltext import bind_inputs, sql_inputs

    text = ":" + text  # without a colon there is nothing to find
    pieces = _outside_quotes_and_comments(text)
    # `:`name``: a marker whose name is quoted, read as `:name` (the colon outside quotes)
    quoted = set()
    for k in range(1, len(pieces)):
        (before_out, before), (_, piece) = pieces[k - 1], pieces[k]
        seen = "".join(p for _, p in pieces[: k - 1]) + before
        after = "".join(p for _, p in pieces[k + 1 :])
        if (
            before_out
            and not re.match(r"\w", after)
            and seen.endswith(":")
            and not re.search(r"[\w:\]\)\}\.`'\"]:$", seen)
            and re.fullmatch(r"`[A-Za-z_]\w*`", piece)
        ):
            quoted.add(k)
    pieces = [(True, piece[1:-1]) if k in quoted else (outside, piece) for k, (outside, piece) in enumerate(pieces)]
    merged: list[tuple[bool, str]] = []
    for outside, piece in pieces:  # the unquoted name joins the text around it
        if outside and merged and merged[-1][0]:
            merged[-1] = (True, merged[-1][1] + piece)
        else:
            merged.append((outside, piece))
    names = {m.group(1) for outside, piece in merged if outside for m in _MARKER.finditer(piece)}
    assert sql_inputs(text) == sorted(names)

    def bound(m: re.Match) -> str:
        return m.group(0)[: m.start(1) - m.start(0) - 1] + "'v'"

    expected = "".join(_MARKER.sub(bound, piece) if outside else piece for outside, piece in merged)
    assert bind_inputs(text, dict.fromkeys(names, "v")) == expected


# -- SQL scripting: compound blocks and EXECUTE IMMEDIATE -----------------------------------


def _read(sql: str):
    intents, diags = analyze_sql(sql, "x.sql", Session())
    return [(i.location.line, i.table.name if i.table else None, i.kind.value) for i in intents], diags


def test_execute_immediate_reads_the_statement_its_variable_holds():
    script = (
        "begin\n"
        "  declare qry_str string;\n"
        "  -- build the statement\n"
        "  set qry_str =\n"
        "    \"insert overwrite \" || :sink_catalog || '.' || :sink_schema || '.' || :sink_table || \" \"\n"
        '    "select " || :select_list || " from " || :src_catalog || \'.src\' || " with(fetchSize = 100000) ";\n'
        "  execute immediate qry_str;\n"
        "  select qry_str;\n"
        "end\n"
    )
    got, diags = _read(script)
    assert got == [(7, "{sink_catalog}.{sink_schema}.{sink_table}", "full_overwrite")]
    assert [d.rule for d in diags] == ["DL001"]  # the name only a run knows, said once


def test_variables_keep_literals_parameters_and_other_variables():
    script = (
        "declare or replace variable tgt string default 'main.ops.' || 'log';\n"
        "declare or replace where_clause string;\n"
        "set var where_clause = (select w from main.ops.parts where id = :id);\n"
        "set var q = concat('delete from ', tgt, ' where ', where_clause);\n"
        "execute immediate q;\n"
        "EXECUTE IMMEDIATE 'UPDATE main.ops.t SET a = 1 WHERE b = ?' USING 5;\n"
    )
    got, diags = _read(script)
    assert got == [(5, "main.ops.log", "delete"), (6, "main.ops.t", "update")]
    assert not diags


def test_both_branches_of_an_if_are_read_and_block_words_are_not_statements():
    script = (
        "begin\n"
        "  declare q string;\n"
        "  if :partitioned then\n"
        "    set q = 'truncate table main.ops.sink';\n"
        "    execute immediate q;\n"
        "  else\n"
        "    -- full copy\n"
        "    delete from main.ops.sink where day = :day;\n"
        "  end if;\n"
        "end\n"
    )
    got, diags = _read(script)
    assert got == [(5, "main.ops.sink", "truncate"), (8, "main.ops.sink", "delete")]
    assert not diags


def test_a_statement_string_nothing_static_gives_is_one_plain_diagnostic():
    """`EXECUTE IMMEDIATE q` of a text read from a table at run time: a statement of
    unknown kind, a DL007 note (not a syntax error), without template markers."""
    got, diags = _read(
        "declare q string;\nset var q = (select stmt from main.ops.queue limit 1);\nexecute immediate q;\n"
    )
    assert got == []
    (diag,) = diags
    assert diag.rule == "DL007" and diag.location.line == 3
    assert "__dlp" not in diag.message.lower()
    # a SET of a Spark configuration is not a variable
    got, diags = _read("SET spark.sql.shuffle.partitions = 8;\nDELETE FROM main.ops.t WHERE a = 1;\n")
    assert got == [(2, "main.ops.t", "delete")] and not diags


@pytest.mark.parametrize(
    "statement",
    [
        "ALTER CATALOG `main` OWNER TO `account users`",
        "ALTER SCHEMA main.ops SET DBPROPERTIES ('a' = 'b')",
        "ALTER VOLUME main.ops.raw OWNER TO admins",
    ],
)
def test_alter_of_a_catalog_schema_or_volume_writes_no_table(statement):
    assert _read(statement + ";\nALTER TABLE main.ops.t ADD COLUMNS (c INT);\n") == (
        [(2, "main.ops.t", "metadata_change")],
        [],
    )


def test_a_write_led_by_its_ctes_is_a_write_and_a_cte_query_is_not():
    script = (
        "WITH a AS (SELECT * FROM main.ops.src), b AS (SELECT * FROM a)\n"
        "MERGE INTO main.ops.t t USING b s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;\n"
        "WITH a AS (SELECT * FROM main.ops.src) INSERT INTO main.ops.t2 SELECT * FROM a;\n"
        "WITH a AS (SELECT 1 AS x) SELECT * FROM a;\n"
    )
    assert _read(script) == ([(1, "main.ops.t", "merge"), (3, "main.ops.t2", "blind_append")], [])


def test_insert_replace_using_overwrites_what_its_rows_name():
    got, diags = _read("INSERT INTO main.ops.t REPLACE USING (day) SELECT * FROM main.ops.src;\n")
    assert got == [(1, "main.ops.t", "dynamic_partition_overwrite")] and not diags
    # a plain INSERT of the same query stays a blind append
    assert _read("INSERT INTO main.ops.t SELECT * FROM main.ops.src;\n")[0] == [(1, "main.ops.t", "blind_append")]


@pytest.mark.parametrize(
    ("sql", "subkind"),
    [
        ("ALTER TABLE t DROP CONSTRAINT IF EXISTS valid_type", "drop_constraint"),
        ("ALTER TABLE t DROP COLUMN c", "drop_columns"),
        ("ALTER TABLE t ADD CONSTRAINT valid_type CHECK (x IN ('a', 'b'))", "add_constraint"),
    ],
)
def test_an_alter_table_says_what_it_drops(sql, subkind):
    """The message names the change: dropping a constraint is no column drop."""
    intents, _ = analyze_sql(sql, "x.sql", Session())
    assert [i.subkind for i in intents] == [subkind]


@pytest.mark.parametrize("rows", [1, 6000])
def test_insert_rows_give_their_partitions_only_when_every_row_is_read(lint, rows):
    """An INSERT's literal rows say which partitions it writes; a statement too long to
    parse whole is read up to its first row (`values_head`), so the rows after it, one
    of them in the DELETE's partition, must leave the partitions unknown."""
    values = ", ".join(["(10, 'b', 0)"] * rows + ["(11, 'a', 0)"])
    config = {"spark": "none", "runtime": "oss", "tables": {"s.t": {"partitioned_by": ["p"]}}}
    result = lint(
        {"load.sql": f"INSERT INTO s.t (id, p, v) VALUES {values};", "delete.sql": "DELETE FROM s.t WHERE p = 'a';"},
        config,
    )
    assert [(f.rule, f.location.path) for f in result.findings] == [("DL103", "delete.sql")]
    # without the row in the DELETE's partition, the short statement writes apart from it
    short = lint({"load.sql": "INSERT INTO s.t (id, p, v) VALUES (10, 'b', 0);"}, config)
    assert short.findings == []


@pytest.mark.parametrize(
    ("runtime", "partitioned", "exception"),
    [
        ("oss", True, "ConcurrentDeleteReadException"),
        ("oss", False, "ConcurrentAppendException"),
        ("15.4", True, "ConcurrentAppendException"),
    ],
)
def test_two_deletes_name_what_the_engine_raises(lint, runtime, partitioned, exception):
    """Two DELETEs of the same rows: open-source Delta's loser finds the files it read
    removed on a partitioned table (ConcurrentDeleteReadException) and a rewritten file
    where it read on an unpartitioned one (ConcurrentAppendException); the Databricks
    matrices keep their own first exception."""
    table = {"partitioned_by": ["p"]} if partitioned else {"deletion_vectors": False}
    config = {"spark": "none", "runtime": runtime, "tables": {"s.t": table}}
    statement = "DELETE FROM s.t WHERE p = 'a' AND id < 4;"
    result = lint({"a.sql": statement, "b.sql": statement}, config)
    assert {(f.rule, f.exception) for f in result.findings} == {("DL102", exception)}


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE EXTERNAL LOCATION IF NOT EXISTS loc URL 'gs://bucket/billing' WITH (STORAGE CREDENTIAL cred)",
        "CREATE EXTERNAL VOLUME IF NOT EXISTS dev.ops.landing LOCATION 's3://bucket/landing'",
        "CREATE VOLUME dev.ops.checkpoints",
        "CREATE FOREIGN CATALOG IF NOT EXISTS pg USING CONNECTION pg_conn OPTIONS (database 'x')",
        "CREATE STORAGE CREDENTIAL cred WITH (AZURE_MANAGED_IDENTITY (ACCESS_CONNECTOR_ID 'x'))",
        "CREATE SERVICE CREDENTIAL svc WITH (AZURE_MANAGED_IDENTITY (ACCESS_CONNECTOR_ID 'x'))",
        "CREATE CONNECTION pg_conn TYPE postgresql OPTIONS (host 'h', port '5432')",
        "CREATE PROVIDER p USING 'token'",
        "CREATE CLEAN ROOM r",
        "ALTER EXTERNAL LOCATION loc SET URL 'gs://bucket/other'",
        "ALTER PROVIDER p RENAME TO q",
    ],
)
def test_unity_catalog_objects_other_than_tables_are_not_writes_nor_errors(sql):
    """Locations, volumes, foreign catalogs, credentials, connections and sharing or
    clean-room objects hold no Delta table: nothing to check, nothing to report."""
    intents, diags = analyze_sql(sql + ";", "x.sql", Session())
    assert (intents, diags) == ([], [])


def test_an_external_table_is_still_a_table():
    intents, _ = analyze_sql("CREATE EXTERNAL TABLE s.t (a INT) LOCATION 's3://b/t';", "x.sql", Session())
    assert [(i.table.name, i.kind.value) for i in intents] == [("s.t", "create")]


@pytest.mark.parametrize(
    "sql", ["{union_of_subqueries} ORDER BY event_time DESC", "${statement}", "{op} INTO s.t VALUES (1)"]
)
def test_a_statement_led_by_a_value_only_a_run_knows_is_dynamic_sql_not_a_syntax_error(sql):
    intents, diags = analyze_sql(sql + ";", "x.sql", Session())
    assert intents == []
    assert [(d.rule, d.severity) for d in diags] == [("DL007", "info")]
    assert "a value only a run knows" in diags[0].message


def test_a_misspelt_first_word_is_still_a_syntax_error():
    _, diags = analyze_sql("SELEC x;", "x.sql", Session())
    assert [(d.rule, d.severity) for d in diags] == [("DL000", "error")]


@pytest.mark.parametrize(
    "sql", ["COMMENT ON CATALOG `main` IS 'x'", "COMMENT ON VOLUME s.v IS 'x'", "COMMENT ON SCHEMA s IS 'x'"]
)
def test_a_comment_on_an_object_that_is_not_a_table_writes_nothing(sql):
    assert analyze_sql(sql + ";", "x.sql", Session()) == ([], [])


def test_a_comment_on_a_column_changes_its_tables_metadata():
    intents, diags = analyze_sql("COMMENT ON COLUMN s.t.c IS 'x';", "x.sql", Session())
    assert ([(i.table.name, i.kind.value) for i in intents], diags) == ([("s.t", "metadata_change")], [])


def test_a_parameter_marker_with_a_quoted_name_is_a_parameter():
    intents, diags = analyze_sql("RESTORE TABLE identifier(:`table`) TO VERSION AS OF :`ver`;", "x.sql", Session())
    assert [(i.table.name, i.kind.value) for i in intents] == [("{table}", "restore")]
    assert [d.rule for d in diags] == ["DL001"]
    assert sql_inputs("DELETE FROM t WHERE a = :`v` AND b = ':`w`'") == ["v"]


def test_a_statement_after_another_tables_create_is_read_once(lint):
    """The statement memo's key leaves out the script's CREATE TABLE declarations; a
    reading keeps the ones it looked up. A statement after CREATE TABLEs of other tables
    is read once in the run; one that reads its own table's declared columns or
    properties is read again where they differ, and gives what reading it anew gives."""
    delete = "DELETE FROM s.t WHERE d = 1;\n"
    result = lint(
        {
            "a.sql": "CREATE TABLE s.a (id INT) USING DELTA;\n" + delete,
            "b.sql": "CREATE TABLE s.b (x INT, y INT) USING DELTA TBLPROPERTIES ('delta.appendOnly' = 'true');\n"
            + delete,
            "c.sql": delete,
        }
    )
    assert result.stats.statements_parsed == 3  # two CREATE TABLEs and the DELETE once
    assert [i.location.path.rsplit("/", 1)[-1] for i in result.intents if i.kind is Kind.DELETE] == [
        "a.sql",
        "b.sql",
        "c.sql",
    ]


def test_a_statement_reading_its_tables_declarations_is_read_with_each(lint):
    """The near miss: an INSERT without a column list writes its values in the order
    its table's CREATE TABLE declares, and an ALTER enabling a feature the CREATE TABLE
    already enabled changes no protocol; the same text after different declarations is
    read with each."""
    insert = "INSERT INTO s.t VALUES ('2024-01-01', 1);\n"
    alter = "ALTER TABLE s.u SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true');\n"
    result = lint(
        {
            "a.sql": "CREATE TABLE s.t (d STRING, id INT) USING DELTA;\n" + insert,
            "b.sql": "CREATE TABLE s.t (id INT, d STRING) USING DELTA;\n" + insert,
            "c.sql": "CREATE TABLE s.u (id INT) USING DELTA TBLPROPERTIES ('delta.enableDeletionVectors' = 'true');\n"
            + alter,
            "d.sql": "CREATE TABLE s.u (id INT) USING DELTA;\n" + alter,
            "e.sql": "CREATE TABLE s.other (id INT) USING DELTA;\n" + alter,
        }
    )
    by_file = {}
    for i in result.intents:
        if i.kind not in (Kind.CREATE, Kind.CREATE_OR_REPLACE):
            by_file[i.location.path.rsplit("/", 1)[-1]] = i
    assert str(by_file["a.sql"].region) != str(by_file["b.sql"].region)
    assert "2024-01-01" in str(by_file["a.sql"].region) and "id" in str(by_file["a.sql"].region)
    assert by_file["c.sql"].kind != by_file["d.sql"].kind and by_file["d.sql"].kind == by_file["e.sql"].kind
