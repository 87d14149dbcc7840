"""Numbers too long for Python's int-to-str limit (4,300 digits) in job code or in the
documents it loads: the value is unknown, the file is still read, nothing crashes."""

from __future__ import annotations

import pytest

INTERNAL_ERROR = "DL002"

HEX = "0x" + "f" * 5000  # a valid literal whose decimal text has 6,021 digits


def _codes(result) -> list[str]:
    return (
        [f.rule for f in result.findings]
        + [d.rule for d in result.diagnostics]
        + [d.rule for f in result.files for d in f.diagnostics]
    )


@pytest.mark.parametrize(
    "code",
    [
        f"x = {HEX}\n",
        f"x = {HEX}\nname = f'tbl_{{x}}'\n",
        f"x = str({HEX})\n",
        f"from pyspark.sql.functions import lit\ndf = df.withColumn('c', lit({HEX}))\n",
        f"def big():\n    return {HEX}\n\nname = f'tbl_{{big()}}'\n",
        f"def big():\n    return {HEX} * 2\n\nspark.sql(f'DELETE FROM t WHERE id = {{big()}}')\n",
        f"spark.sql(f'DELETE FROM t WHERE id = {{{HEX}}}')\n",
        f"spark.sql('DELETE FROM t WHERE id = ' + str({HEX}))\n",
        f"spark.sql('DELETE FROM t WHERE id = %d' % {HEX})\n",
        f"spark.sql('DELETE FROM t WHERE id = {{}}'.format({HEX}))\n",
        f"for v in [{HEX}, 1]:\n    spark.sql(f'DELETE FROM t WHERE id = {{v}}')\n",
        f"from delta.tables import DeltaTable\nfrom pyspark.sql import functions as F\n"
        f"DeltaTable.forName(spark, 't').delete(F.col('id') == F.lit({HEX}))\n",
        f"from delta.tables import DeltaTable\nfrom pyspark.sql import functions as F\n"
        f"DeltaTable.forName(spark, 't').update(F.col('id') == {HEX}, {{'x': F.lit({HEX})}})\n",
    ],
)
def test_a_huge_integer_is_unknown_not_an_internal_error(lint, code):
    result = lint({"job.py": code + "spark.sql('INSERT INTO main.t SELECT * FROM s')\n"})
    assert not {INTERNAL_ERROR, "DL000"} & set(_codes(result))
    assert "main.t" in {i.table.name for i in result.intents if i.table}


def test_a_huge_integer_in_a_table_name_leaves_the_name_unknown(lint):
    result = lint({"job.py": f"n = {HEX}\nspark.sql(f'INSERT INTO main.t_{{n}} SELECT 1')\n"})
    assert INTERNAL_ERROR not in _codes(result)
    assert not any(i.table and i.table.name.startswith("main.t_1") for i in result.intents)


def test_a_number_below_the_limit_still_names_a_table(lint):
    result = lint({"job.py": "n = 0x10\nspark.sql(f'INSERT INTO main.t_{n} SELECT 1')\n"})
    assert [i.table.name for i in result.intents] == ["main.t_16"]


@pytest.mark.parametrize("number", [HEX, "0x10"])
def test_a_huge_integer_in_a_loaded_document_is_no_internal_error(lint, tmp_path, number):
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    files = {
        "conf.yml": f"table: {number}\nother: main.x\n",
        "util.py": "import yaml\n\ndef conf():\n    return yaml.safe_load(open('conf.yml'))\n",
        "job.py": (
            "from util import conf\n\n"
            "cfg = conf()\n"
            "spark.sql(f\"INSERT INTO main.t_{cfg['table']} SELECT 1\")\n"
            "spark.sql(f\"INSERT INTO {cfg['other']} SELECT 1\")\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    result = lint({})
    assert INTERNAL_ERROR not in _codes(result)
    names = {i.table.name for i in result.intents if i.table}
    if number == "0x10":
        assert names == {"main.t_16", "main.x"}
