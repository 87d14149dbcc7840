"""Text the analyzer builds is charged to the file's budget (issue 34: no input holds
gigabytes or hangs). Three shapes of one kind, a small input that builds a large
text: a statement built by doubling a literal (read by the SQL reader at each call),
many long strings held at once in one file, and one module's long values given to
every file that imports it (each importer's cache key). Each is bounded and said with
a DL008 at its line; a near miss of realistic size keeps its value."""

from __future__ import annotations

import time
import tracemalloc

from delta_lint.frontend import analyze_source
from delta_lint.frontend.values import budget
from delta_lint.model import Context
from tests.test_link import tables

# `'a',` 2,000 times: an 8 KB literal of a SQL list, as generated code writes one
ITEMS = "'a'," * 2000


def _doubled(times: int) -> str:
    """Code binding `s` to ITEMS doubled `times` times (8 KB times 2**times)."""
    return f's = "{ITEMS}"\n' + "s = s + s\n" * times


def _budget_notes(result) -> list[tuple[int, str]]:
    return [(d.location.line, d.message) for d in result.diagnostics if d.rule == "DL008"]


# -- one statement past the size of a real one -----------------------------------------


def test_a_statement_past_the_built_text_cap_is_a_note_at_its_line_not_a_parse_error():
    """8 KB doubled four times is 128 KB, past any statement of job code: the text is
    not built (`{too_long}` stands for it) and the statement, which does not parse
    without it, is a DL008 at its line, never a DL000 naming the placeholder."""
    code = _doubled(4) + "spark.sql(f\"DELETE FROM main.s.t WHERE x IN ({s}'b')\")\n"
    result = analyze_source("job.py", ".py", code)
    assert not [d for d in result.diagnostics if d.rule == "DL000"]
    assert [line for line, _ in _budget_notes(result)] == [6]
    assert "more than 65,536 characters" in _budget_notes(result)[0][1]
    assert "its writes are not checked" in _budget_notes(result)[0][1]


def test_a_statement_whose_long_part_is_quoted_keeps_its_write_and_says_the_part_is_unknown():
    code = _doubled(4) + "spark.sql(f\"DELETE FROM main.x.t WHERE c = '{s}'\")\n"
    result = analyze_source("job.py", ".py", code)
    assert [i.table.name for i in result.intents] == ["main.x.t"]
    notes = _budget_notes(result)
    assert [line for line, _ in notes] == [6] and "that part is unknown" in notes[0][1]


def test_a_statement_named_by_a_long_string_alone_is_a_budget_note_not_dynamic_sql():
    result = analyze_source("job.py", ".py", _doubled(4) + "spark.sql(s)\n")
    assert [line for line, _ in _budget_notes(result)] == [6]
    assert not [d for d in result.diagnostics if d.rule == "DL007"]


def test_a_long_statement_of_realistic_size_is_read_whole():
    """16 KB (an `IN` list of 4,000 items) is long for a statement, but one: read."""
    code = _doubled(1) + "spark.sql(f\"DELETE FROM main.s.t WHERE x IN ({s}'b')\")\n"
    result = analyze_source("job.py", ".py", code)
    assert [i.table.name for i in result.intents] == ["main.s.t"]
    assert not _budget_notes(result) and not [d for d in result.diagnostics if d.rule == "DL000"]


# -- the SQL text a file reads ----------------------------------------------------------


def _loop_of_statements(keys: int, doublings: int) -> str:
    listed = ", ".join(f"'k{i}'" for i in range(keys))
    return (
        _doubled(doublings)
        + f"for k in [{listed}]:\n"
        + "    spark.sql(f\"DELETE FROM main.s.t_{k} WHERE x IN ({s}'b')\")\n"
    )


def test_the_sql_text_read_is_charged_to_the_files_steps(monkeypatch):
    """Each statement's text costs steps by its size: 40 statements of 16 KB in a loop
    of five lines is 640 KB of SQL. With a step per character (the real rate is a
    step per SQL_CHARS_PER_STEP, and MAX_STEPS bound a file to some 2 MB), the
    statements read stop where the steps run out, said once at the call."""
    monkeypatch.setattr(budget, "SQL_CHARS_PER_STEP", 1)
    result = analyze_source("job.py", ".py", _loop_of_statements(40, 1))
    names = [i.table.name for i in result.intents]
    assert names[:3] == ["main.s.t_k0", "main.s.t_k1", "main.s.t_k2"]
    assert 5 < len(names) < 40  # read until the steps ran out, then not
    notes = _budget_notes(result)
    assert len(notes) == 1 and notes[0][0] == 4 and "SQL text read counts a step" in notes[0][1]


def test_realistic_statements_in_a_loop_are_all_read():
    """100 statements of 2 KB (8 KB halved: a long `IN` list) in a loop: 200 KB of
    SQL, a tenth of what a file may read."""
    code = f's = "{ITEMS[: len(ITEMS) // 4]}"\n' + _loop_of_statements(100, 0).split("\n", 1)[1]
    result = analyze_source("job.py", ".py", code)
    assert len(result.intents) == 100 and not _budget_notes(result)


# -- the long strings one file holds ----------------------------------------------------


def test_the_long_strings_a_file_builds_have_an_allowance():
    """82 KB of code naming a 32 KB string 4,000 times would hold 128 MB (and a
    string of 64 KB, 256 MB): the long strings a file builds count against one
    allowance (MAX_HELD_TEXT); past it each is unknown, said once at the first."""
    code = _doubled(2) + "".join(f"N{i} = s + \"'{i}',\"\n" for i in range(4000))
    tracemalloc.start()
    started = time.process_time()
    try:
        result = analyze_source("job.py", ".py", code)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.process_time() - started < 10
    assert peak < 64 * 2**20
    used, fitted = 2 * len(ITEMS) + 4 * len(ITEMS), 0  # the two doublings (lines 2 and 3) are charged too
    while used + 4 * len(ITEMS) + len(f"'{fitted}',") <= budget.MAX_HELD_TEXT:
        used += 4 * len(ITEMS) + len(f"'{fitted}',")
        fitted += 1
    notes = _budget_notes(result)
    assert len(notes) == 1 and notes[0][0] == 4 + fitted  # `N0` is on line 4
    assert "characters of strings longer than 4,096" in notes[0][1]


def test_a_long_string_past_the_allowance_is_unknown_where_it_is_used(monkeypatch):
    monkeypatch.setattr(budget, "MAX_HELD_TEXT", 100_000)
    code = (
        _doubled(0)
        + "spark.sql(f\"DELETE FROM main.s.a WHERE x IN ({s}'b')\")\n"  # 8,040 characters built
        + "".join(f"N{i} = s + \"'{i}',\"\n" for i in range(20))  # 8,004 each: N0 to N10 fit
        + "spark.sql(f\"DELETE FROM main.s.b WHERE x IN ({N19}'b')\")\n"
    )
    result = analyze_source("job.py", ".py", code)
    assert [i.table.name for i in result.intents] == ["main.s.a"]  # N19 was not built
    assert [line for line, _ in _budget_notes(result)] == [14, 23]  # N11 (line 14) is the first refused


def test_long_strings_of_realistic_number_are_all_held():
    """100 strings of 32 KB (3.2 MB): within the allowance, no note."""
    code = _doubled(2) + "".join(f"N{i} = s + \"'{i}',\"\n" for i in range(100))
    code += "spark.sql(f\"DELETE FROM main.s.t WHERE x IN ({N99}'b')\")\n"
    result = analyze_source("job.py", ".py", code)
    assert [i.table.name for i in result.intents] == ["main.s.t"] and not _budget_notes(result)


# -- one module's long values, given to every file that imports it --------------------


def _module_values(texts: list[str]) -> Context:
    """An importer's context as the linker gives it: `import conf` binds the module's
    members, and its helpers read the module's scope (the same values)."""
    members = {f"N{i}": text for i, text in enumerate(texts)}
    return Context(values=(("conf", members),), scopes=(("conf.py", tuple(members.items())),))


def test_an_importers_cache_key_holds_a_digest_of_a_long_value_not_the_value():
    """100 values of 32 KB made each importer's key 6 MB of JSON (150 importers: a
    gigabyte serialised and hashed); each long value is in it by a digest."""
    texts = [ITEMS * 4 + str(i) for i in range(100)]
    key = _module_values(texts).key()
    assert len(key) < 20_000
    # by content: the same texts in other objects give the same key, one changed text another
    assert _module_values(["".join(t) for t in texts]).key() == key
    changed = [*texts[:50], texts[50].replace("'a'", "'b'", 1), *texts[51:]]
    assert _module_values(changed).key() != key


def test_a_short_value_stays_in_the_key_as_it_is():
    assert '"main.s.a"' in _module_values(["main.s.a"]).key()


def test_an_importer_read_from_the_cache_follows_a_change_of_a_long_value(tmp_path):
    """The importer's cached reading is keyed by the digest of the module's long value:
    a change of that value reads the importer again."""
    columns = ", ".join(f"c{i}" for i in range(1000))  # 6 KB

    def conf(table: str) -> str:
        return f'Q = "INSERT INTO {table} SELECT " + "{columns}" + " FROM src"\ndef load():\n    spark.sql(Q)\n'

    files = {"conf.py": conf("main.s.a"), "job.py": "import conf\nconf.load()\n"}
    assert tables(tmp_path, files, use_cache=True)["job.py"] == ["main.s.a"]
    assert tables(tmp_path, {}, use_cache=True)["job.py"] == ["main.s.a"]
    assert tables(tmp_path, {"conf.py": conf("main.s.b")}, use_cache=True)["job.py"] == ["main.s.b"]


def test_a_large_project_document_is_in_each_loaders_key_by_a_digest():
    """The same shape for a document every job loads (`yaml.safe_load` of a 1 MB
    config): by its digest, and by its content."""
    document = {f"table_{i}": {"name": f"main.s.t{i}", "columns": ITEMS[:400]} for i in range(2000)}
    key = Context(documents=(("conf.yml", document),), path="job.py").key()
    assert len(key) < 2_000
    assert Context(documents=(("conf.yml", dict(document)),), path="job.py").key() == key
    changed = {**document, "table_7": {"name": "main.s.other", "columns": ""}}
    assert Context(documents=(("conf.yml", changed),), path="job.py").key() != key
