"""Lists and dicts a comprehension builds from known values
(`[f"{catalog}.s.{n}" for n in NAMES]`): a loop over one runs once per element,
as over a list written out. Near misses stay unknown: a comprehension over what
only a run knows (a folder's listing), and a built list the code changes in
place afterwards."""

from __future__ import annotations


def tables(result) -> list[tuple[int, str | None]]:
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


def test_a_loop_over_a_list_built_from_a_known_list_writes_each_table(lint):
    job = (
        "NAMES = ['users', 'orders']\n"
        "catalog = 'main'\n"
        "targets = [f'{catalog}.s.{n}' for n in NAMES if n != 'skip']\n"
        "for t in targets:\n"
        "    df.write.mode('append').saveAsTable(t)\n"
    )
    assert tables(lint({"job.py": job})) == [(5, "main.s.orders"), (5, "main.s.users")]


def test_a_loop_over_a_dict_built_from_a_known_list_writes_each_value(lint):
    job = (
        "NAMES = ['users', 'orders']\n"
        "pairs = {n: f'main.b.{n.upper()}' for n in NAMES}\n"
        "for name, target in pairs.items():\n"
        "    df.write.mode('append').saveAsTable(target)\n"
    )
    assert tables(lint({"job.py": job})) == [(4, "main.b.orders"), (4, "main.b.users")]


def test_a_list_built_from_a_folder_listing_stays_unknown(lint):
    job = (
        "names = [p.name[:-1] for p in dbutils.fs.ls('/mnt/raw')]\n"
        "for n in names:\n"
        "    df.write.mode('append').saveAsTable(f'main.s.{n}')\n"
    )
    assert tables(lint({"job.py": job})) == [(3, "main.s.{each_n}")]


def test_a_built_list_changed_in_place_stays_unknown(lint):
    job = (
        "NAMES = ['users', 'orders']\n"
        "targets = [f'main.s.{n}' for n in NAMES]\n"
        "targets.append(extra)\n"
        "for t in targets:\n"
        "    df.write.mode('append').saveAsTable(t)\n"
    )
    assert tables(lint({"job.py": job})) == [(5, "{each_t}")]


def _notes(result) -> list[int]:
    """Lines of whole-statement "dynamic SQL" notes (DL007)."""
    return sorted(d.location.line for d in result.diagnostics if d.rule == "DL007")


def test_a_loop_over_a_named_list_of_statements_with_run_values_reads_each(lint):
    job = (
        "cfg = load_config()\n"
        "STMTS = [\n"
        "    f'OPTIMIZE {cfg.catalog}.s.a ZORDER BY (id)',\n"
        "    f'OPTIMIZE {cfg.catalog}.s.b',\n"
        "]\n"
        "for stmt in STMTS:\n"
        "    spark.sql(stmt)\n"
    )
    result = lint({"job.py": job})
    assert [t for _, t in tables(result)] == ["{cfg_catalog}.s.a", "{cfg_catalog}.s.b"]
    assert _notes(result) == []


def test_a_named_list_of_statements_changed_in_place_stays_one_unknown_statement(lint):
    job = (
        "cfg = load_config()\n"
        "STMTS = [f'OPTIMIZE {cfg.catalog}.s.a', f'OPTIMIZE {cfg.catalog}.s.b']\n"
        "STMTS.append(extra)\n"
        "for stmt in STMTS:\n"
        "    spark.sql(stmt)\n"
    )
    result = lint({"job.py": job})
    assert [t for _, t in tables(result)] == []
    assert _notes(result) == [5]
