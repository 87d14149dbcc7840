"""The unread-write sweep (`frontend/unread.py`) looks at a statement only where its
lines hold a word of a write whole: a terminal or an alias of one as written, a
write statement's first word in any case, `sql`; never a part of a longer name.
Text that is not ASCII is swept statement by statement, and says the same."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source

UNFOLLOWED = "could not follow"

CODE = (
    "{comment}\n"
    "Store = df.write.saveAsTable\n"
    'Store("main.ops.a")\n'
    'run_it("dElEtE FROM main.ops.c WHERE d < 1")\n'
    'helpers.go(spark, "Update main.ops.e SET a = 1")\n'
    "inserted, mergesort, deleted_rows, sqlite = 1, 2, 3, 4\n"
    'helpers.go(spark, "SELECT 1 FROM main.ops.e")\n'
    "run_each(spark.sql, statements)\n"
)


@pytest.mark.parametrize("comment", ["# plain text", "# caf\u00e9 cr\u00e8me"])
def test_write_words_are_found_whole_in_any_case_ascii_or_not(comment: str) -> None:
    result = analyze_source("job.py", ".py", CODE.format(comment=comment))
    said = sorted(d.location.line for d in result.diagnostics if UNFOLLOWED in d.message)
    assert said == [3, 4, 5, 8]
