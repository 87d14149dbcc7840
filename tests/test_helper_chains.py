"""Writes reached through chains of helpers: a packaged pipeline goes entry ->
orchestrator -> adapter -> layer writer -> io helper, five to seven calls, within one
file or across a package's modules. Each write is found at the job's call, in one
wave of the link stage per module of the chain; past the depth bound a note says so.
A helper's two statements on one table (a comment and a column's comment) are two
writes, however they are reported."""

from __future__ import annotations

import pytest

from delta_lint.frontend import analyze_source


def chain(depth: int) -> str:
    """A write `depth` helper calls below the file's top level."""
    lines = ['def h0(df):\n    df.write.mode("overwrite").saveAsTable("main.gold.summary")\n']
    lines += [f"def h{k}(df):\n    h{k - 1}(df)\n" for k in range(1, depth)]
    lines.append(f'h{depth - 1}(spark.read.table("main.raw.events"))\n')
    return "".join(lines)


@pytest.mark.parametrize("depth", [5, 6, 8])
def test_a_write_some_helpers_deep_is_read_at_the_call(depth: int) -> None:
    result = analyze_source("job.py", ".py", chain(depth))
    # (a write that reads no parameter of its helpers is the same at every call: kept where written)
    assert [(i.location.line, i.table.name) for i in result.intents] == [(2, "main.gold.summary")]
    assert not [d for d in result.diagnostics if "helpers deep" in d.message]


def test_past_the_depth_bound_a_note_says_so() -> None:
    result = analyze_source("job.py", ".py", chain(10))
    assert [d.rule for d in result.diagnostics if "helpers deep" in d.message] == ["DL008"]


def test_a_helpers_comment_and_column_comment_on_one_table_are_two_writes() -> None:
    code = (
        'T = "main.s.t"\n'
        "def annotate():\n"
        "    spark.sql(f\"COMMENT ON TABLE {T} IS 'x'\")\n"
        "    spark.sql(f\"ALTER TABLE {T} ALTER COLUMN a COMMENT 'y'\")\n"
        "annotate()\n"
    )
    result = analyze_source("job.py", ".py", code)
    assert sorted((i.table.name, i.subkind) for i in result.intents) == [
        ("main.s.t", "alter_column"),
        ("main.s.t", "comment"),
    ]


def package(levels: int) -> dict[str, str]:
    """Two job files calling a package whose modules call each other `levels` deep."""
    files = {"pkg/__init__.py": ""}
    for k in range(levels):
        if k == levels - 1:
            files[f"pkg/layer{k}.py"] = (
                'def run(df):\n    df.write.mode("overwrite").saveAsTable("main.gold.summary")\n'
            )
        else:
            files[f"pkg/layer{k}.py"] = f"from pkg import layer{k + 1}\n\n\ndef run(df):\n    layer{k + 1}.run(df)\n"
    for job in ("a.py", "b.py"):
        files[job] = 'from pkg import layer0\nlayer0.run(spark.read.table("main.raw.events"))\n'
    return files


@pytest.mark.parametrize("levels", [5, 7])
def test_a_chain_of_package_modules_settles_and_pairs_the_jobs(lint, levels: int) -> None:
    result = lint(package(levels))
    assert {(f.rule, f.table) for f in result.findings if f.rule.startswith("DL1")} == {("DL102", "main.gold.summary")}
    assert not [f for f in result.findings if "still changing" in f.message]
