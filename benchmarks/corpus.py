"""A realistic synthetic repository of Delta write jobs, for benchmarks.

    python benchmarks/corpus.py OUT_DIR --files 1000 [--seed 0]

Deterministic for a seed. About one table per ten files. File mix: SQL scripts
of several statements, PySpark jobs with DataFrame writes, DeltaTable merges and
`spark.sql` f-strings, streaming queries with `foreachBatch`, and Databricks
notebooks with SQL cells. A `delta-lint.yaml` declares half of the tables and a
`databricks.yml` bundle schedules the files as tasks of cron jobs, so the schedule
and the engine do real work.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

KINDS = ("sql", "sql", "sql", "pyspark", "pyspark", "pyspark", "stream", "notebook", "notebook", "notebook")


class Corpus:
    def __init__(self, files: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.files = files
        self.tables = [f"main.bench_{i % 7}.t{i:05d}" for i in range(max(2, files // 10))]

    def table(self) -> str:
        return self.rng.choice(self.tables)

    def day(self) -> str:
        return f"2024-{self.rng.randint(1, 12):02d}-{self.rng.randint(1, 28):02d}"

    def sql_statement(self) -> str:
        t, d = self.table(), self.day()
        r = self.rng.randrange(9)
        if r == 0:
            return (
                f"MERGE INTO {t} AS t USING (SELECT * FROM main.staging.updates WHERE date = '{d}') AS s\n"
                f"  ON s.id = t.id AND s.date = t.date AND t.date = '{d}'\n"
                "WHEN MATCHED AND s.op = 'D' THEN DELETE\n"
                "WHEN MATCHED THEN UPDATE SET *\n"
                "WHEN NOT MATCHED THEN INSERT *"
            )
        if r == 1:
            return f"DELETE FROM {t} WHERE date < '{d}' AND status IN ('cancelled', 'void')"
        if r == 2:
            return f"UPDATE {t} SET status = 'late', updated_at = current_timestamp() WHERE date = '{d}' AND status = 'open'"
        if r == 3:
            return (
                f"INSERT INTO {t}\nSELECT id, date, country, amount, status, current_timestamp() AS loaded_at\n"
                f"FROM main.raw.events_{self.rng.randrange(50)} WHERE date = '{d}'"
            )
        if r == 4:
            return (
                f"INSERT OVERWRITE {t} REPLACE WHERE date = '{d}'\nSELECT * FROM main.staging.daily WHERE date = '{d}'"
            )
        if r == 5:
            return f"OPTIMIZE {t} WHERE date >= '{d}'" + (" ZORDER BY (id)" if self.rng.random() < 0.5 else "")
        if r == 6:
            return f"ALTER TABLE {t} SET TBLPROPERTIES ('delta.logRetentionDuration' = 'interval 30 days')"
        if r == 7:
            return (
                f"CREATE TABLE IF NOT EXISTS {t} (id BIGINT, date DATE, country STRING, amount DECIMAL(12, 2), "
                "status STRING) USING DELTA PARTITIONED BY (date)"
            )
        return f"COPY INTO {t} FROM '/Volumes/main/raw/landing/{self.rng.randrange(100)}' FILEFORMAT = JSON"

    def sql_file(self) -> str:
        parts = [f"-- job step {self.rng.randrange(1000)}"]
        for _ in range(self.rng.randint(3, 6)):
            parts.append(self.sql_statement() + ";")
        return "\n\n".join(parts) + "\n"

    def pyspark_file(self) -> str:
        t, u = self.table(), self.table()
        return f'''"""Daily load of {t}."""

import argparse

from delta.tables import DeltaTable
from pyspark.sql import functions as F

parser = argparse.ArgumentParser()
parser.add_argument("--date")
args = parser.parse_args()
run_date = args.date

raw = spark.read.format("json").load("/Volumes/main/raw/orders/{self.rng.randrange(100)}")
clean = (
    raw.where(F.col("amount") > 0)
    .withColumn("date", F.to_date("ts"))
    .withColumn("country", F.upper(F.col("country")))
    .dropDuplicates(["id"])
)

(
    clean.write.format("delta")
    .mode("overwrite")
    .option("replaceWhere", f"date = '{{run_date}}'")
    .saveAsTable("{t}")
)

target = DeltaTable.forName(spark, "{u}")
(
    target.alias("t")
    .merge(clean.alias("s"), f"s.id = t.id AND t.date = '{{run_date}}'")
    .whenMatchedUpdateAll()
    .whenNotMatchedInsertAll()
    .execute()
)

spark.sql(f"DELETE FROM {t} WHERE date = '{{run_date}}' AND amount IS NULL")
spark.sql(f"""
    UPDATE {u}
    SET status = 'checked'
    WHERE date = '{{run_date}}' AND status = 'new'
""")
summary = clean.groupBy("country").agg(F.sum("amount").alias("revenue"))
summary.write.format("delta").mode("append").saveAsTable("{self.table()}")
'''

    def stream_file(self) -> str:
        t, u = self.table(), self.table()
        n = self.rng.randrange(100_000)
        return f'''"""Streaming ingest into {t} with a foreachBatch upsert."""

from delta.tables import DeltaTable


def upsert(batch_df, batch_id):
    (
        DeltaTable.forName(spark, "{u}")
        .alias("t")
        .merge(batch_df.alias("s"), "s.id = t.id")
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute()
    )


(
    spark.readStream.table("main.raw.clicks_{self.rng.randrange(50)}")
    .writeStream.format("delta")
    .option("checkpointLocation", "/Volumes/main/checkpoints/{n}/append")
    .toTable("{t}")
)

(
    spark.readStream.format("delta")
    .table("main.raw.changes_{self.rng.randrange(50)}")
    .writeStream.foreachBatch(upsert)
    .option("checkpointLocation", "/Volumes/main/checkpoints/{n}/upsert")
    .start()
)
'''

    def notebook_file(self) -> str:
        t = self.table()
        return f'''# Databricks notebook source
# MAGIC %md
# MAGIC # Refresh {t}

# COMMAND ----------

dbutils.widgets.text("date", "")
run_date = dbutils.widgets.get("date")

# COMMAND ----------

# MAGIC %sql
# MAGIC DELETE FROM {t} WHERE date = '{self.day()}' AND status = 'void';
# MAGIC UPDATE {t} SET status = 'done' WHERE date = '{self.day()}'

# COMMAND ----------

df = spark.table("main.staging.snapshot").where(f"date = '{{run_date}}'")
df.write.format("delta").mode("overwrite").option("replaceWhere", f"date = '{{run_date}}'").saveAsTable("{t}")
'''

    def write(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for i in range(self.files):
            kind = KINDS[self.rng.randrange(len(KINDS))]
            folder = out / "jobs" / f"domain_{i % 20:02d}"
            folder.mkdir(parents=True, exist_ok=True)
            if kind == "sql":
                path, text = folder / f"step_{i:05d}.sql", self.sql_file()
            elif kind == "pyspark":
                path, text = folder / f"load_{i:05d}.py", self.pyspark_file()
            elif kind == "stream":
                path, text = folder / f"stream_{i:05d}.py", self.stream_file()
            else:
                path, text = folder / f"notebook_{i:05d}.py", self.notebook_file()
            path.write_text(text)
            paths.append(path.relative_to(out).as_posix())
        self.write_config(out)
        self.write_bundle(out, paths)

    def write_config(self, out: Path) -> None:
        lines = ["runtime: '15.4'", "photon: true", "spark: none", "tables:"]
        for t in self.tables[::2]:
            lines += [f"  {t}:", "    partitioned_by: [date]"]
        lines += ["duration:", "  default: 45m"]
        (out / "delta-lint.yaml").write_text("\n".join(lines) + "\n")

    def write_bundle(self, out: Path, paths: list[str]) -> None:
        """Jobs of 10 files each: a chain of 5 tasks and 5 parallel ones, on cron."""
        lines = ["bundle: {name: bench}", "resources:", "  jobs:"]
        for j in range(0, len(paths), 10):
            group = paths[j : j + 10]
            hour, minute = self.rng.randrange(24), self.rng.choice((0, 15, 30, 45))
            lines += [
                f"    job_{j // 10:04d}:",
                f"      schedule: {{quartz_cron_expression: '0 {minute} {hour} * * ?', timezone_id: UTC}}",
                f"      max_concurrent_runs: {self.rng.choice((1, 1, 1, 2))}",
                "      tasks:",
            ]
            for k, path in enumerate(group):
                lines.append(f"        - task_key: t{k}")
                if 0 < k < 5:
                    lines.append(f"          depends_on: [{{task_key: t{k - 1}}}]")
                if path.endswith(".sql"):
                    lines.append(f"          sql_task: {{warehouse_id: w, file: {{path: {path}}}}}")
                else:
                    lines.append(f"          notebook_task: {{notebook_path: {path}}}")
        (out / "databricks.yml").write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    Corpus(args.files, args.seed).write(args.out)


if __name__ == "__main__":
    main()
