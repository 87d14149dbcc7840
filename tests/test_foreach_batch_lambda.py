"""A function a stream's `foreachBatch` runs, named by a lambda
(`foreachBatch(lambda df, i: upsert(df))`) or imported from another module:
its writes are made once per micro-batch, read once (never also as a write where
the lambda is written, which would meet the first as a conflict of the job with
itself), and stand where the stream is written when the function is another
module's. A lambda that passes the function more than the batch, or writes
itself, is read where it stands."""

from __future__ import annotations

from delta_lint.model import Flag

UPSERT = 'def upsert(df):\n    df.write.mode("overwrite").saveAsTable("sales.orders")\n'
STREAM = 'spark.readStream.table("raw").writeStream.foreachBatch({arg}).start()\n'


def table_writes(result) -> list[tuple[str, int, list[str], list[tuple[str, int]]]]:
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    return sorted(
        (
            i.location.path,
            i.location.line,
            sorted(f.value for f in i.flags),
            [(s.path, s.line) for s in i.location.sites],
        )
        for i in result.intents
        if i.table is not None and i.table.name == "sales.orders"
    )


def test_a_lambda_handed_to_foreach_batch_is_read_once_per_batch(lint):
    result = lint({"job.py": UPSERT + "\n" + STREAM.format(arg="lambda df, i: upsert(df)")})
    assert table_writes(result) == [("job.py", 2, ["per_batch"], [])]
    assert not result.findings


def test_an_imported_function_a_stream_runs_stands_at_the_stream_with_its_statement(lint):
    for arg in ("lambda df, i: upsert(df)", "upsert"):
        job = "from helpers import upsert\n\n" + STREAM.format(arg=arg)
        result = lint({"helpers.py": UPSERT, "job.py": job})
        assert table_writes(result) == [("job.py", 3, ["per_batch"], [("helpers.py", 2)])], arg
        assert not result.findings


def test_a_lambda_another_call_runs_at_once_is_read_where_it_is_written(lint):
    """The near miss: `map(lambda ...)` runs its calls there, not per batch (a
    write that reads no parameter of the function stands where it is written)."""
    result = lint({"job.py": UPSERT + "\nlist(map(lambda d: upsert(d), [df]))\n"})
    assert table_writes(result) == [("job.py", 2, [], [])]


def test_a_lambda_that_passes_more_than_the_batch_keeps_what_it_passes(lint):
    """`lambda df, i: upsert(df, "main.s.t")` hands the function a table: read at the
    call with it, never with the batch id in its place; a write made in the lambda
    itself is read too, also when the file names a batch function elsewhere."""
    upsert = 'def upsert(df, table):\n    df.write.mode("overwrite").saveAsTable(table)\n'
    stream = STREAM.format(arg='lambda df, i: upsert(df, "main.s.orders")')
    inline = STREAM.format(arg='lambda b, i: b.write.mode("append").saveAsTable("main.s.orders")')
    named = 'spark.readStream.table("raw2").writeStream.foreachBatch(lambda df, i: log(df)).start()\n'
    log = 'def log(df):\n    df.write.mode("append").saveAsTable("main.s.log")\n'
    result = lint({"job.py": upsert + log + "\n" + stream + inline + named})
    found = sorted(
        (i.location.line, i.table.name if i.table else None, Flag.PER_BATCH in i.flags)
        for i in result.intents
        if i.table is not None and i.table.name.startswith("main.s.")
    )
    assert found == [(4, "main.s.log", True), (6, "main.s.orders", False), (7, "main.s.orders", False)], found
