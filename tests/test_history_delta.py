"""`delta-lint history` on real open-source Delta tables written concurrently: the
race is forced with `interleave.run_interleaved` (the second write reads, the first
commits, the second commits), so the log holds a real `readVersion` gap; a raced
pair that conflicts leaves one commit and no overlap. The history is read both
ways delta-lint reads it live — `DESCRIBE HISTORY` through Spark Connect (as
Databricks Connect would) and the log's commit files — and the report must name
the same overlap and contradiction."""

from __future__ import annotations

import json
from pathlib import Path

from delta_lint.interleave import run_interleaved
from tests.conftest import run_cli
from tests.test_history import BUNDLE


def append(path: str, job: str, value: str):
    """One blind append that names its job in the commit's userMetadata."""

    def run(spark) -> None:
        frame = spark.createDataFrame([(value,)], "day STRING")
        frame.write.format("delta").mode("append").option("userMetadata", job).save(path)

    return run


def make_project(tmp_path: Path, spark) -> Path:
    (tmp_path / "delta-lint.yaml").write_text(
        "default_schema: main.s\nlocations: {t: tables/t}\nduration: {default: 30m}\n"
    )
    (tmp_path / "databricks.yml").write_text(BUNDLE % "0 3")
    (tmp_path / "a.sql").write_text("INSERT INTO t VALUES ('a');\n")
    (tmp_path / "b.sql").write_text("INSERT INTO t VALUES ('b');\n")
    path = str(tmp_path / "tables" / "t")
    spark.sql(f"CREATE TABLE delta.`{path}` (day STRING) USING delta").collect()  # version 0
    # load_b reads version 0, load_a commits version 1, load_b commits version 2
    outcome = run_interleaved(spark, append(path, "load_a", "x"), append(path, "load_b", "y"))
    assert outcome.exception is None, outcome.describe()  # blind appends do not conflict
    append(path, "load_a", "z")(spark)  # version 3, after both: no overlap

    # two DELETEs of the same rows, raced: the second fails and leaves no commit, so
    # history shows only the first (version 4, which read version 3: no gap)
    def delete(session) -> None:
        session.sql(f"DELETE FROM delta.`{path}` WHERE day = 'x'").collect()

    outcome = run_interleaved(spark, delete, delete)
    assert outcome.conflicted, outcome.describe()
    return tmp_path


def test_interleaved_appends_show_as_an_overlap_the_schedule_rules_out(delta_spark, tmp_path):
    spark, url = delta_spark
    root = make_project(tmp_path, spark)
    history = {
        row["version"]: row["readVersion"]
        for row in (r.asDict() for r in spark.sql(f"DESCRIBE HISTORY delta.`{root / 'tables' / 't'}`").collect())
    }
    assert history[2] == 0 and history[3] == 2 and history[4] == 3  # the gap the race left, and no other
    assert max(history) == 4  # the failed DELETE committed nothing

    described = run_cli("history", "--format", "json", "--spark", url, cwd=root)
    from_log = run_cli("history", "--format", "json", cwd=root)
    for done, source in ((described, "DESCRIBE HISTORY"), (from_log, "log tables/t/_delta_log")):
        assert done.returncode == 1, done.stdout + done.stderr
        (table,) = json.loads(done.stdout)["tables"]
        assert table["table"] == "main.s.t" and table["source"] == source
        assert table["commits"] == 5
        (overlap,) = table["overlaps"]
        assert overlap["writers"] == ["WRITE (load_a)", "WRITE (load_b)"]
        assert overlap["jobs"] == ["load_a", "load_b"]
        assert overlap["times"] == 1 and overlap["versions"] == [2]
        assert overlap["schedule"] == "contradicts"
        assert "their runs never meet" in overlap["why"]
    text = run_cli("history", cwd=root).stdout
    assert "the schedule is wrong: these jobs met once in 1 day" in text
