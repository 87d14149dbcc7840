"""A write inside a loop or comprehension over a collection the code states is read
once per item: `for schema, table in TABLES:` over a list of tuples, the iteration
builtins (`enumerate`, `zip`, `sorted`, `reversed`, `list`, `set`), a dict's keys and
items, comprehensions and `map` that write. A collection that is one of a few gives
the writes of each; one the code does not state (a table's rows, a parameter no
caller gives) stays unknown, never one guess."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
PAIRS = 'TABLES = [("bronze", "a"), ("silver", "b")]\n'


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents)


def _rules(result) -> list[str]:
    return sorted({d.rule for d in result.diagnostics})


def test_a_loop_unpacks_the_tuples_of_a_module_list(lint):
    sql = NB + PAIRS + 'for schema, table in TABLES:\n    spark.sql(f"INSERT INTO {schema}.{table} VALUES (1)")\n'
    result = lint({"job.py": sql})
    assert _tables(result) == ["bronze.a", "silver.b"]
    assert _rules(result) == []
    saved = NB + PAIRS + 'for schema, table in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    assert _tables(lint({"job.py": saved})) == ["bronze.a", "silver.b"]


def test_a_function_reads_the_module_list_its_loop_runs_over(lint):
    job = (
        NB + PAIRS + "def main():\n    for schema, table in TABLES:\n"
        '        df.write.saveAsTable(f"{schema}.{table}")\n\nmain()\n'
    )
    assert _tables(lint({"job.py": job})) == ["bronze.a", "silver.b"]


def test_nested_targets_and_rows_of_other_values_unpack(lint):
    nested = (
        NB + 'TABLES = [("bronze", ("a", 1)), ("silver", ("b", 2))]\n'
        'for schema, (table, n) in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    )
    assert _tables(lint({"job.py": nested})) == ["bronze.a", "silver.b"]
    starred = (
        NB + 'TABLES = [["bronze", "x", "a"], ["silver", "b"]]\n'
        'for schema, *rest, table in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    )
    assert _tables(lint({"job.py": starred})) == ["bronze.a", "silver.b"]


def test_a_row_of_another_length_is_no_guess(lint):
    """`for a, b in [("x", "y", "z")]` raises in Python: no table is taken from it."""
    job = (
        NB
        + 'TABLES = [("bronze", "a", "z")]\nfor schema, table in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    )
    assert _tables(lint({"job.py": job})) == ["{each_schema}.{each_table}"]


def test_the_iteration_builtins_give_their_items(lint):
    shapes = {
        "enumerate(TABLES)": "for i, t in enumerate(TABLES):",
        "enumerate of rows": "for i, (s, n) in enumerate(ROWS):",
        "zip": "for t, q in zip(TABLES, QUERIES):",
        "sorted": "for t in sorted(SET):",
        "reversed": "for t in reversed(TABLES):",
        "list": "for t in list(TUPLE):",
        "set": "for t in set(TABLES):",
        "keys": "for t in CONF:",
        "items": "for t, v in CONF.items():",
        "dict of zip": "for t, q in dict(zip(TABLES, QUERIES)).items():",
    }
    head = (
        NB + 'TABLES = ["s.a", "s.b"]\nTUPLE = ("s.a", "s.b")\nSET = {"s.b", "s.a"}\n'
        'ROWS = [("s", "a"), ("s", "b")]\nQUERIES = ["SELECT 1", "SELECT 2"]\nCONF = {"s.a": 1, "s.b": 2}\n'
    )
    for name, loop in shapes.items():
        table = 'f"{s}.{n}"' if "ROWS" in loop else "t"
        result = lint({"job.py": head + loop + f"\n    df.write.saveAsTable({table})\n"})
        assert _tables(result) == ["s.a", "s.b"], name


def test_a_builtin_the_project_defines_is_not_the_builtin(lint):
    job = (
        NB + 'def sorted(xs):\n    return ["other.x"]\n\nS = ["s.a", "s.b"]\n'
        "for t in sorted(S):\n    df.write.saveAsTable(t)\n"
    )
    assert "s.a" not in _tables(lint({"job.py": job}))


def test_a_comprehension_that_writes_is_a_loop(lint):
    statements = 'STATEMENTS = ["INSERT INTO s.a VALUES (1)", "INSERT INTO s.b VALUES (2)"]\n'
    shapes = [
        "[spark.sql(s) for s in STATEMENTS]",
        "list(map(spark.sql, STATEMENTS))",
        "list(map(lambda s: spark.sql(s), STATEMENTS))",
        "done = [spark.sql(s) for s in STATEMENTS if s]",
        "any(spark.sql(s) for s in STATEMENTS)",
    ]
    for shape in shapes:
        result = lint({"job.py": NB + statements + shape + "\n"})
        assert _tables(result) == ["s.a", "s.b"], shape
        assert _rules(result) == [], shape
    saves = NB + 'TABLES = ["s.a", "s.b"]\n[df.write.saveAsTable(t) for t in TABLES]\n'
    assert _tables(lint({"job.py": saves})) == ["s.a", "s.b"]
    nested = NB + 'S = ["s", "t"]\nN = ["a", "b"]\n{df.write.saveAsTable(f"{s}.{n}") for s in S for n in N}\n'
    assert _tables(lint({"job.py": nested})) == ["s.a", "s.b", "t.a", "t.b"]


def test_a_comprehension_s_names_do_not_outlive_it(lint):
    job = (
        NB + 't = "main.s.before"\nTABLES = ["s.a", "s.b"]\n[df.write.saveAsTable(t) for t in TABLES]\n'
        "df.write.saveAsTable(t)\n"
    )
    assert _tables(lint({"job.py": job})) == ["main.s.before", "s.a", "s.b"]


def test_a_generator_or_map_no_one_consumes_runs_nothing_known(lint):
    """A bare `map(...)` is lazy: it is not read as a loop over the statements."""
    job = NB + 'STATEMENTS = ["INSERT INTO s.a VALUES (1)"]\nmap(spark.sql, STATEMENTS)\n'
    assert _tables(lint({"job.py": job})) == []


def test_comprehensions_build_the_names_a_later_loop_writes(lint):
    dict_built = (
        NB + 'LAYERS = ["a", "b"]\nNAMES = {l: f"s.{l}" for l in LAYERS}\n'
        "for l, t in NAMES.items():\n    df.write.saveAsTable(t)\n"
    )
    assert _tables(lint({"job.py": dict_built})) == ["s.a", "s.b"]
    set_built = (
        NB + 'LAYERS = ["a", "b"]\nNAMES = {f"s.{l}" for l in LAYERS}\nfor t in NAMES:\n    df.write.saveAsTable(t)\n'
    )
    assert _tables(lint({"job.py": set_built})) == ["s.a", "s.b"]
    pairs_built = (
        NB + 'LAYERS = ["a", "b"]\nPAIRS = [(l, f"s.{l}") for l in LAYERS]\n'
        "for l, t in PAIRS:\n    df.write.saveAsTable(t)\n"
    )
    assert _tables(lint({"job.py": pairs_built})) == ["s.a", "s.b"]


def test_after_a_loop_over_a_set_its_name_is_one_of_the_items(lint):
    """Python's order of a set is not the code's: the name after the loop is one of
    the items, never the last one read."""
    for collection in ('{"s.a", "s.b"}', 'set(["s.a", "s.b"])', "S", "sorted(S, key=len)"):
        job = NB + f'S = set(["s.a", "s.b"])\nfor t in {collection}:\n    pass\ndf.write.saveAsTable(t)\n'
        assert _tables(lint({"job.py": job})) == ["s.a", "s.b"], collection
    # the near miss: a list's order is the code's, its last item stays
    job = NB + 'for t in ["s.a", "s.b"]:\n    pass\ndf.write.saveAsTable(t)\n'
    assert _tables(lint({"job.py": job})) == ["s.b"]


def test_a_collection_that_is_one_of_several_gives_the_writes_of_each(lint):
    job = (
        NB + 'if prod:\n    TABLES = [("p", "a"), ("p", "b")]\nelse:\n    TABLES = [("d", "a")]\n'
        'for s, t in TABLES:\n    df.write.saveAsTable(f"{s}.{t}")\n'
    )
    assert _tables(lint({"job.py": job})) == ["d.a", "p.a", "p.b"]
    texts = NB + 'if prod:\n    T = ["p.a", "p.b"]\nelse:\n    T = ["d.a"]\nfor t in T:\n    df.write.saveAsTable(t)\n'
    assert _tables(lint({"job.py": texts})) == ["d.a", "p.a", "p.b"]
    # one way unknown: the loop's name is not known, never the other way's items
    unknown = (
        NB
        + 'if prod:\n    T = ["p.a"]\nelse:\n    T = spark.table("cfg").collect()\nfor t in T:\n    df.write.saveAsTable(t)\n'
    )
    assert _tables(lint({"job.py": unknown})) == ["{each_t}"]


def test_templates_in_a_collection_keep_their_inputs(lint):
    job = (
        NB + 'env = dbutils.widgets.get("env")\nTABLES = [(f"{env}_bronze", "a"), (f"{env}_silver", "b")]\n'
        'for schema, table in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    )
    assert _tables(lint({"job.py": job})) == ["{env}_bronze.a", "{env}_silver.b"]


def test_loops_over_what_only_a_run_knows_stay_unknown(lint):
    rows = NB + 'for r in spark.table("s.cfg").collect():\n    df.write.saveAsTable(r.name)\n'
    result = lint({"job.py": rows})
    assert _tables(result) == ["{each_r_name}"]
    assert "DL001" in _rules(result)
    argument = NB + 'def run(tables):\n    for s, t in tables:\n        df.write.saveAsTable(f"{s}.{t}")\n'
    assert _tables(lint({"job.py": argument})) == ["{each_s}.{each_t}"]
    comprehension = NB + "def run(statements):\n    [spark.sql(s) for s in statements]\n"
    assert "DL007" in _rules(lint({"job.py": comprehension}))


def test_a_collection_changed_in_place_is_not_the_literal(lint):
    job = (
        NB
        + PAIRS
        + 'TABLES.append(extra)\nfor schema, table in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    )
    assert _tables(lint({"job.py": job})) == ["{each_schema}.{each_table}"]


def test_a_collection_past_the_loop_bound_stays_unknown(lint):
    many = ", ".join(f'("s", "t{i}")' for i in range(300))
    job = NB + f"TABLES = [{many}]\nfor schema, table in TABLES:\n" + '    df.write.saveAsTable(f"{schema}.{table}")\n'
    assert _tables(lint({"job.py": job})) == ["{each_schema}.{each_table}"]


def test_an_imported_list_of_tuples_crosses_to_the_loop(lint):
    conf = PAIRS
    job = NB + 'from conf import TABLES\nfor schema, table in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    assert _tables(lint({"conf.py": conf, "job.py": job})) == ["bronze.a", "silver.b"]


def test_an_imported_list_its_module_changes_or_builds_from_a_run_does_not_cross(lint):
    changed = PAIRS + 'TABLES.append(("gold", extra()))\n'
    job = NB + 'from conf import TABLES\nfor schema, table in TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    assert _tables(lint({"conf.py": changed, "job.py": job})) == ["{each_schema}.{each_table}"]
    templated = 'import os\nENV = os.environ["ENV"]\nTABLES = [(ENV, "a")]\n'
    assert _tables(lint({"conf.py": templated, "job.py": job})) == ["{each_schema}.{each_table}"]


def test_a_module_imported_whole_gives_its_collection_by_attribute(lint):
    job = NB + 'import conf\nfor schema, table in conf.TABLES:\n    df.write.saveAsTable(f"{schema}.{table}")\n'
    assert _tables(lint({"conf.py": PAIRS, "job.py": job})) == ["bronze.a", "silver.b"]
    texts = NB + "import conf\nfor t in sorted(conf.NAMES):\n    df.write.saveAsTable(t)\n"
    assert _tables(lint({"conf.py": 'NAMES = ["s.b", "s.a"]\n', "job.py": texts})) == ["s.a", "s.b"]
    # the near miss: the job changes the module's list in place before its loop
    changed = job.replace("for schema", 'conf.TABLES.append(("gold", extra))\nfor schema')
    assert _tables(lint({"conf.py": PAIRS, "job.py": changed})) == ["{each_schema}.{each_table}"]


def test_collections_built_by_string_and_list_operations_are_read(lint):
    shapes = {
        "split": ('T = "s.a,s.b"\n', 'for t in T.split(","):'),
        "slice": ('T = ["x.y", "s.a", "s.b"]\n', "for t in T[1:]:"),
        "concatenation": ('A = ["s.a"]\nB = ("s.b",)\n', "for t in A + list(B):"),
        "starred": ('A = [("s", "a")]\nB = [("s", "b")]\n', "for t in [f'{s}.{n}' for s, n in [*A, *B]]:"),
    }
    for name, (head, loop) in shapes.items():
        result = lint({"job.py": NB + head + loop + "\n    df.write.saveAsTable(t)\n"})
        assert _tables(result) == ["s.a", "s.b"], name
    unknown = NB + 'A = [("s", "a")]\nfor s, n in [*A, *rows()]:\n    df.write.saveAsTable(f"{s}.{n}")\n'
    assert _tables(lint({"job.py": unknown})) == ["{each_s}.{each_n}"]


def test_a_literal_past_the_loop_bound_is_not_evaluated_at_all(lint):
    """A data file's list of thousands of rows is never read item by item, so it is
    not evaluated either: no budget is spent on it and later values stay known."""
    many = ", ".join(f'("s", "t{i}")' for i in range(5000))
    job = (
        NB + f"ROWS = [{many}]\n" + 'X = "main.s.x"\ndf.write.saveAsTable(X)\n'
        'for a, b in ROWS:\n    df.write.saveAsTable(f"{a}.{b}")\n'
    )
    result = lint({"job.py": job})
    assert _tables(result) == ["main.s.x", "{each_a}.{each_b}"]
    # no budget is spent: the one note says the loop's limit, at the loop
    said = [d.message for d in result.diagnostics if d.rule == "DL008"]
    assert len(said) == 1 and "a loop over 5,000 items" in said[0]


TUPLE_KEYS = 'NEEDS = {("silver", "account"): ("id",), ("bronze", "events"): ("a", "b")}\n'


def test_a_dict_keyed_by_tuples_unpacks_its_keys(lint):
    """`for (schema, name), cols in D.items()` and `for key in D` over a dict whose keys
    are tuples of texts (a maintenance job's table list)."""
    items = (
        NB + TUPLE_KEYS + "def run():\n    for (schema, name), cols in NEEDS.items():\n"
        "        spark.sql(f\"ALTER TABLE main.{schema}.{name} CLUSTER BY ({', '.join(cols)})\")\n\nrun()\n"
    )
    assert _tables(lint({"job.py": items})) == ["main.bronze.events", "main.silver.account"]
    keys = (
        NB + TUPLE_KEYS + 'for key in NEEDS:\n    schema, name = key\n    spark.sql(f"OPTIMIZE main.{schema}.{name}")\n'
    )
    assert _tables(lint({"job.py": keys})) == ["main.bronze.events", "main.silver.account"]


def test_a_tuple_key_only_a_run_knows_is_no_guess(lint):
    job = (
        NB + 'NEEDS = {(dbutils.widgets.get("s"), "account"): ("id",)}\n'
        'for (schema, name), cols in NEEDS.items():\n    spark.sql(f"OPTIMIZE main.{schema}.{name}")\n'
    )
    assert _tables(lint({"job.py": job})) == ["main.{each_schema}.{each_name}"]


def test_an_item_unpacked_in_the_body_binds_its_parts(lint):
    job = NB + PAIRS + 'for key in TABLES:\n    schema, table = key\n    spark.sql(f"OPTIMIZE main.{schema}.{table}")\n'
    assert _tables(lint({"job.py": job})) == ["main.bronze.a", "main.silver.b"]
    mixed = (
        NB + 'ROWS = [("bronze", ("a", 1))]\nfor row in ROWS:\n    schema, (table, n) = row\n'
        '    spark.sql(f"OPTIMIZE main.{schema}.{table}")\n'
    )
    assert _tables(lint({"job.py": mixed})) == ["main.bronze.a"]


def test_an_item_of_another_length_unpacked_is_no_guess(lint):
    """`schema, table = ("bronze", "a", "z")` raises in Python: no table from it."""
    job = (
        NB + 'TABLES = [("bronze", "a", "z")]\nfor key in TABLES:\n    schema, table = key\n'
        '    spark.sql(f"OPTIMIZE main.{schema}.{table}")\n'
    )
    assert _tables(lint({"job.py": job})) == ["main.{schema}.{table}"]


def test_a_dict_keyed_by_tuples_is_read_at_a_key_of_known_texts(lint):
    lookups = (
        NB + 'TARGETS = {("shop", "orders"): "shop_orders", ("shop", "refunds"): "shop_refunds"}\n'
        'system, entity = "shop", "orders"\npair = (system.lower(), entity.strip())\n'
        'spark.range(1).write.saveAsTable(f"main.b.{TARGETS[pair]}")\n'
        "spark.range(1).write.saveAsTable(f\"main.b.{TARGETS[(system, 'refunds')]}\")\n"
    )
    assert _tables(lint({"job.py": lookups})) == ["main.b.shop_orders", "main.b.shop_refunds"]


def test_a_tuple_key_not_known_or_not_there_is_no_guess(lint):
    job = (
        NB + 'TARGETS = {("shop", "orders"): "shop_orders"}\n'
        'pair = ("shop", dbutils.widgets.get("entity"))\n'
        'spark.range(1).write.saveAsTable(f"main.b.{TARGETS[pair]}")\n'
        "spark.range(1).write.saveAsTable(f\"main.b.{TARGETS[('shop', 'none')]}\")\n"
    )
    assert all("{" in name for name in _tables(lint({"job.py": job})))


def test_a_list_of_tuples_handed_to_a_helper_is_looped_there(lint):
    job = (
        NB + PAIRS + "def load(pairs):\n    for schema, table in pairs:\n"
        '        df.write.saveAsTable(f"{schema}.{table}")\n\nload(TABLES)\n'
    )
    assert _tables(lint({"job.py": job})) == ["bronze.a", "silver.b"]
    keyword = job.replace("load(TABLES)", "load(pairs=TABLES)")
    assert _tables(lint({"job.py": keyword})) == ["bronze.a", "silver.b"]


def test_a_helper_given_a_list_of_tuples_only_a_run_knows_is_no_guess(lint):
    job = (
        NB + 'TABLES = [(dbutils.widgets.get("schema"), "a"), ("silver", "b")]\n'
        "def load(pairs):\n    for schema, table in pairs:\n"
        '        df.write.saveAsTable(f"{schema}.{table}")\n\nload(TABLES)\n'
    )
    result = lint({"job.py": job})
    assert "bronze.a" not in _tables(result)
    assert "DL001" in _rules(result) or any("{" in t for t in _tables(result))
    rows = NB + "def load(pairs):\n    for schema, table in pairs:\n"
    rows += '        df.write.saveAsTable(f"{schema}.{table}")\n\nload(spark.table("meta.t").collect())\n'
    assert all("{" in t for t in _tables(lint({"job.py": rows})))
