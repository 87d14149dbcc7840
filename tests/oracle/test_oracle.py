"""The oracle in CI: CI's draw of the generated cells (a prefix of the report's draw) on
real open-source Delta, in the test session's one JVM, against benchmarks/ORACLE.md and
delta-lint's `oss` profile."""

from __future__ import annotations

import re

from tests.oracle.cells import (
    CI_DRAW,
    FORMS,
    FULL_DRAW,
    REPORT,
    SEED,
    SHAPES,
    ci_draw,
    draw,
    replay,
    row,
    run_all,
    space,
    table_rows,
    unexplained,
)


def test_the_draws_cover_the_grammar_and_the_report_is_the_full_draw():
    full = draw()
    assert len(full) == FULL_DRAW >= 500
    assert ci_draw() == full[:CI_DRAW]  # CI's rows are rows of the report
    assert {f for c in full for f in (c.a.name, c.b.name)} >= set(FORMS)  # every form is drawn
    assert {c.shape for c in ci_draw()} >= set(SHAPES)
    assert len({c.key for c in full}) == len(full)
    # the grammar's rules, not a hand list, keep invalid pairs out
    cells = space()
    assert not any(
        "OPTIMIZE WHERE" in (c.a.name, c.b.name) and "partitioned" not in SHAPES[c.shape].features
        for c in cells
        if c.shape
    )
    assert not any("OPTIMIZE ZORDER" in (c.a.name, c.b.name) and c.shape == "liquid clustering" for c in cells)
    assert not any("DROP CONSTRAINT" in (c.a.name, c.b.name) and c.shape != "CHECK constraint" for c in cells)
    text = REPORT.read_text(encoding="utf-8")
    assert f"seed {SEED}, {FULL_DRAW} cells" in text
    keys = [tuple(re.split(r" \| ", line.strip("| "))[:3]) for line in table_rows(text)]
    assert keys == [(c.shape or "empty path", c.values, c.label) for c in full]


def test_the_report_is_this_delta_lint_s_and_every_disagreement_is_known():
    """Delta's outcomes in the report judged again with this tree's predictions (no JVM):
    a change to delta-lint that moves a prediction moves a row, and the report is
    rendered again with `python -m tests.oracle.cells --replay benchmarks/ORACLE.md --write`."""
    text = REPORT.read_text(encoding="utf-8")
    results = replay(text, draw())
    assert [row(r) for r in results if not r.raced] == []
    assert [row(r) for r in unexplained(results)] == []
    assert [row(r) for r in results] == table_rows(text)


def test_ci_draw_matches_the_report_and_disagreements_are_known(delta_spark):
    spark, _url = delta_spark
    results, levels = run_all(spark, ci_draw())
    assert [row(r) for r in results if not r.raced] == []  # no form fails on its own
    assert [row(r) for r in unexplained(results)] == []
    reported = set(table_rows(REPORT.read_text(encoding="utf-8")))
    assert [row(r) for r in results if row(r) not in reported] == []  # same outcomes as the report
    assert "WriteSerializable: refused" in levels  # open-source Delta: Serializable only
