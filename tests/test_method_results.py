"""What a method of an object of the project's classes returns, bound to a name or
handed to a helper, is that value: `target = env.table("silver", "t")` names the
table as `saveAsTable(env.table("silver", "t"))` does. A call of a method whose
name is not a `str` method used to be taken for a DataFrame there (`spark.table`)."""

from __future__ import annotations

ENV = """from dataclasses import dataclass


@dataclass(frozen=True)
class Env:
    catalog: str

    def table(self, layer, name):
        return f"{self.catalog}.{layer}.{name}"

    def frame(self, name):
        return spark.table(f"{self.catalog}.raw.{name}")


def merge_into(df, target_table):
    spark.sql(f"MERGE INTO {target_table} t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *")


env = Env("c_prod")
"""


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents)


def test_a_method_result_in_a_local_or_a_helper_parameter_names_the_table(lint):
    code = ENV + (
        'target = env.table("silver", "local")\n'
        'spark.range(3).write.mode("overwrite").saveAsTable(target)\n'
        'merge_into(None, env.table("silver", "param"))\n'
    )
    assert _tables(lint({"job.py": code})) == ["c_prod.silver.local", "c_prod.silver.param"]


def test_a_method_returning_a_dataframe_or_an_unknown_stays_so(lint):
    # near misses: a DataFrame a method reads is no table name; a value only a run
    # knows stays unresolved
    code = ENV + (
        'df = env.frame("orders")\n'
        'df.write.mode("append").saveAsTable("c_prod.silver.copy")\n'
        'other = Env(dbutils.widgets.get("catalog"))\n'
        'target = other.table("silver", "local")\n'
        'spark.range(3).write.mode("overwrite").saveAsTable(target)\n'
    )
    result = lint({"job.py": code})
    names = _tables(result)
    assert "c_prod.silver.copy" in names
    assert not any(n.startswith("c_prod.silver.local") for n in names)
