"""`.lower()`/`.upper()`/`.strip()` of a helper's parameter inside an f-string is read
at each call with the call's value (`staging_{kind.lower()}` called with "EVENT" is
`staging_event`), as the same method outside an f-string is; a call with a value only
a run knows keeps the parameter named. Two calls with other values name other
tables."""

from __future__ import annotations

HELPER = (
    "from delta.tables import DeltaTable\n"
    "def track(df, kind):\n"
    '    path = f"s3a://w/audit/staging_{kind.lower()}"\n'
    '    DeltaTable.forPath(spark, path).alias("t").merge(df.alias("s"), "t.id = s.id")'
    ".whenMatchedUpdateAll().execute()\n"
    "class Store:\n"
    "    def save(self, df, name):\n"
    '        df.write.mode("overwrite").saveAsTable(f"main.s.{name.upper().strip()}_t")\n'
)


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents if i.table is not None)


def test_a_case_method_of_a_parameter_takes_each_calls_value(lint):
    job = HELPER + 'track(df, "EVENT")\ntrack(df, "Gkg")\nStore().save(df, " orders ")\n'
    assert _tables(lint({"job.py": job})) == [
        "delta:s3a://w/audit/staging_event",
        "delta:s3a://w/audit/staging_gkg",
        "main.s.orders_t",
    ]


def test_a_case_method_of_a_value_only_a_run_knows_keeps_the_parameter(lint):
    job = HELPER + 'track(df, dbutils.widgets.get("kind"))\n'
    tables = [t for t in _tables(lint({"job.py": job})) if "staging_" in t]
    assert tables and all("{" in t for t in tables)
    assert "delta:s3a://w/audit/staging_" not in tables  # never an empty value picked
