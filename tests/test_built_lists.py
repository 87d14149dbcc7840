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
    assert tables(lint({"job.py": job})) == [(3, "main.s.{n}")]


def test_a_built_list_changed_in_place_stays_unknown(lint):
    job = (
        "NAMES = ['users', 'orders']\n"
        "targets = [f'main.s.{n}' for n in NAMES]\n"
        "targets.append(extra)\n"
        "for t in targets:\n"
        "    df.write.mode('append').saveAsTable(t)\n"
    )
    assert tables(lint({"job.py": job})) == [(5, "{t}")]
