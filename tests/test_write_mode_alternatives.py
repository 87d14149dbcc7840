"""A DataFrame write's mode decides what it does (`append` adds files, `overwrite`
replaces the table): a mode the code gives as one of several texts is one write per
mode, each flagged `one_of`; a mode only a run knows (a widget without a default, an
environment variable) is one of an append and an overwrite, with a note, never a
silent append that no other writer conflicts with. Near misses: a literal mode, a
helper's mode its calls give, a parameter's default."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def read(code: str) -> tuple[list[tuple[str, str, bool]], list[str]]:
    result = analyze_source("job.py", ".py", code)
    intents = sorted(
        (i.table.name, i.kind.value, "one_of" in {f.value for f in i.flags}) for i in result.intents if i.table
    )
    return intents, [d.rule for d in result.diagnostics if "mode" in d.message]


@pytest.mark.parametrize(
    "mode",
    ['dbutils.widgets.get("mode")', 'os.environ.get("WRITE_MODE")', "sys.argv[2]"],
)
@pytest.mark.parametrize("terminal", ['saveAsTable("main.s.t")', 'insertInto("main.s.t")'])
def test_a_mode_only_a_run_knows_is_one_of_append_and_overwrite(mode: str, terminal: str) -> None:
    intents, notes = read(f"import os, sys\ndf.write.mode({mode}).{terminal}\n")
    assert intents == [("main.s.t", "blind_append", True), ("main.s.t", "full_overwrite", True)]
    assert notes == ["DL007"]


def test_a_mode_of_several_texts_is_one_write_per_mode() -> None:
    code = 'm = "overwrite" if dbutils.widgets.get("full") == "1" else "append"\ndf.write.mode(m).saveAsTable("main.s.t")\n'
    assert read(code) == ([("main.s.t", "blind_append", True), ("main.s.t", "full_overwrite", True)], [])


@pytest.mark.parametrize(
    "code, kind",
    [
        ('df.write.mode("overwrite").saveAsTable("main.s.t")\n', "full_overwrite"),
        ('def save(df, mode):\n    df.write.mode(mode).saveAsTable("main.s.t")\nsave(df, "append")\n', "blind_append"),
        (
            'def save(df, mode="overwrite"):\n    df.write.mode(mode).saveAsTable("main.s.t")\nsave(df)\n',
            "full_overwrite",
        ),
        ('df.write.mode(dbutils.widgets.get("m")).insertInto("main.s.t", overwrite=True)\n', "full_overwrite"),
    ],
)
def test_a_mode_the_code_tells_is_one_write(code: str, kind: str) -> None:
    assert read(code) == ([("main.s.t", kind, False)], [])


def _pairs(lint, feed: str) -> set[str]:
    files = {
        "load.py": 'df.write.mode(dbutils.widgets.get("mode")).saveAsTable("main.s.t")\n',
        "feed.py": feed,
    }
    return {f.rule for f in lint(files).findings if f.table == "main.s.t" and f.rule.startswith("DL1")}


def test_an_overwrite_by_a_runs_mode_conflicts_with_another_jobs_delete(lint) -> None:
    # a blind append would not conflict with the DELETE; the overwrite it may be does
    assert _pairs(lint, 'spark.sql("DELETE FROM main.s.t WHERE d < current_date()")\n')


def test_a_runs_mode_beside_another_jobs_append_stays_quiet(lint) -> None:
    # neither an append nor an overwrite conflicts with a blind append (WriteSerializable)
    assert not _pairs(lint, 'df.write.mode("append").saveAsTable("main.s.t")\n')
