"""The walker searches a file's statements for `global`/`nonlocal` declarations
and walruses only when its text holds them. The words inside other words, strings
or comments are not declarations (the near miss: the names stay known); a
declaration after such words is still found."""

from __future__ import annotations

from delta_lint.frontend import analyze_source

W = 'spark.sql(f"DELETE FROM {t} WHERE 1=1")'


def _tables(code: str) -> set[str]:
    result = analyze_source("job.py", ".py", code)
    return {i.table.name for i in result.intents if i.table}


def test_words_inside_names_strings_and_comments_declare_nothing() -> None:
    code = (
        "# global settings, nonlocal ones\n"
        'global_t = "nonlocal"\n'
        't = "main.s.a"\n'
        "def show(globalx=1):\n"
        '    print("global t", t, global_t)\n'
        f"show()\n{W}\n"
    )
    assert _tables(code) == {"main.s.a"}


def test_a_declaration_after_such_words_is_found() -> None:
    code = (
        '# global settings\nglobal_t = 1\nt = "main.s.a"\n'
        'def switch():\n    global t\n    t = "main.s.b"\n'
        f"switch()\n{W}\n"
    )
    assert "main.s.a" not in _tables(code)


def test_a_walrus_after_a_text_without_one_elsewhere() -> None:
    code = f't = "main.s.a"\nif (t := dbutils.widgets.get("t")):\n    pass\n{W}\n'
    assert _tables(code) == {"{t}"}
    known = f't = "main.s.a"\nif t == ":=":\n    pass\n{W}\n'  # the characters in a string only
    assert _tables(known) == {"main.s.a"}
