"""A loop over a dict or list a function of the project returns runs once per key or item.

Job code often builds its outputs in a helper (`return {"daily": df1, "sector": df2}`)
and writes them in a loop (`for name, df in outputs.items(): df.write...save(f"{root}/{name}")`).
The keys are written in the code even where the values (DataFrames) are not known: the
loop runs once per key, its name bound to the key and the other names not known on that
turn. A dict whose keys are not all known, or one changed where the reader does not
follow, stays a collection not known, and the write's table is unresolved (DL001)."""

from __future__ import annotations

NB = "# Databricks notebook source\n"
BUILD = (
    "def build(spark):\n"
    '    base = spark.read.table("main.silver.prices")\n'
    '    return {"daily": base.groupBy("d").count(), "sector": base.groupBy("s").count()}\n\n'
)
APPEND = '{}.write.format("delta").mode("append").saveAsTable({})\n'


def _tables(result, name: str = "job.py") -> list[str]:
    return sorted(i.table.name for i in result.intents if i.location.path.endswith(name) and "gold" in i.table.name)


def test_items_of_a_dict_a_helper_returns_name_one_table_per_key(lint):
    job = NB + BUILD + "outputs = build(spark)\nfor name, df in outputs.items():\n    "
    job += APPEND.format("df", 'f"main.gold.{name}"')
    assert _tables(lint({"job.py": job})) == ["main.gold.daily", "main.gold.sector"]
    # the near miss: a dict whose keys only a run gives is no collection known
    unknown = job.replace('{"daily": base.groupBy("d").count(), "sector": base.groupBy("s").count()}', "load(base)")
    assert _tables(lint({"job.py": unknown})) == ["main.gold.{each_name}"]


def test_the_dict_handed_to_a_helper_that_writes_in_a_loop(lint):
    job = (
        NB
        + BUILD
        + "def write_gold(outputs, root):\n    for name, df in outputs.items():\n        "
        + APPEND.format("df", 'f"{root}.{name}"')
        + '\nwrite_gold(build(spark), "main.gold")\n'
    )
    assert _tables(lint({"job.py": job})) == ["main.gold.daily", "main.gold.sector"]
    given = job.replace("write_gold(build(spark)", "write_gold(load_outputs()")
    assert _tables(lint({"job.py": given})) == ["main.gold.{each_name}"]


def test_keys_values_the_dict_itself_enumerate_zip_and_sorted(lint):
    job = NB + BUILD + "outputs = build(spark)\n"
    job += "for name in outputs.keys():\n    " + APPEND.format("outputs[name]", 'f"main.gold.k_{name}"')
    job += "for name in outputs:\n    " + APPEND.format("outputs[name]", 'f"main.gold.d_{name}"')
    job += "for i, (name, df) in enumerate(sorted(outputs.items())):\n    " + APPEND.format(
        "df", 'f"main.gold.e_{name}"'
    )
    job += 'for t, df in zip(["main.gold.z1", "main.gold.z2"], outputs.values()):\n    ' + APPEND.format("df", "t")
    assert _tables(lint({"job.py": job})) == [
        "main.gold.d_daily",
        "main.gold.d_sector",
        "main.gold.e_daily",
        "main.gold.e_sector",
        "main.gold.k_daily",
        "main.gold.k_sector",
        "main.gold.z1",
        "main.gold.z2",
    ]


def test_values_that_are_names(lint):
    job = (
        NB + 'def targets():\n    return {"a": "main.gold.ta", "b": spark_table_name()}\n\n'
        'for t in targets().values():\n    spark.sql(f"DELETE FROM {t} WHERE d < 1")\n'
    )
    # one value is a call not followed: that turn's table is not known, never left out
    result = lint({"job.py": job})
    assert sorted(i.table.name for i in result.intents) == ["main.gold.ta", "{each_t}"]
    assert [d.location.line for d in result.diagnostics if d.rule == "DL001"] == [6]


def test_a_dict_built_by_a_comprehension_or_a_loop_in_the_helper(lint):
    comprehension = (
        NB
        + (
            'def build(spark):\n    return {t: spark.table(f"main.silver.{t}") for t in ["daily", "sector"]}\n\n'
            "outputs = build(spark)\nfor name, df in outputs.items():\n    "
        )
        + APPEND.format("df", 'f"main.gold.{name}"')
    )
    assert _tables(lint({"job.py": comprehension})) == ["main.gold.daily", "main.gold.sector"]
    loop = (
        NB
        + (
            "def build(spark):\n    out = {}\n    for t in ['daily', 'sector']:\n"
            '        out[t] = spark.table(f"main.silver.{t}")\n    return out\n\n'
            "for name, df in build(spark).items():\n    "
        )
        + APPEND.format("df", 'f"main.gold.{name}"')
    )
    assert _tables(lint({"job.py": loop})) == ["main.gold.daily", "main.gold.sector"]
    # the near miss: a key set from a value not known
    unknown = loop.replace("out[t] =", "out[t + suffix()] =")
    assert _tables(lint({"job.py": unknown})) == ["main.gold.{each_name}"]


def test_a_helper_of_another_module(lint):
    helpers = (
        "def build(spark):\n"
        '    return {"daily": spark.table("main.silver.a"), "sector": spark.table("main.silver.b")}\n'
    )
    inline = "from helpers import build\nfor name, df in build(spark).items():\n    "
    inline += APPEND.format("df", 'f"main.gold.{name}"')
    assert _tables(lint({"helpers.py": helpers, "job.py": inline})) == ["main.gold.daily", "main.gold.sector"]
    bound = "from helpers import build\nouts = build(spark)\nfor name in outs:\n    "
    bound += APPEND.format("outs[name]", 'f"main.gold.{name}"')
    assert _tables(lint({"helpers.py": helpers, "job.py": bound})) == ["main.gold.daily", "main.gold.sector"]
