"""A project checked from another working directory (`check ../proj`, an absolute
path, a parent from a subfolder) is read as from its root: a path its code forms
from `__file__` names the project's document by the file's place in the project,
never by the folder the run started in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

JOB = """\
import json
import os
from pathlib import Path

HERE = os.path.dirname(__file__)

with open(os.path.join(HERE, "sql/load.sql")) as f:
    spark.sql(f.read())

spark.sql((Path(__file__).parent / "sql" / "merge.sql").read_text())

with open(os.path.join(os.path.dirname(__file__), "conf.json")) as f:
    conf = json.load(f)
spark.sql(f"DELETE FROM {conf['table']} WHERE d < 1")

with open(os.path.join(HERE, "sql/missing.sql")) as f:
    spark.sql(f.read())
"""


def _project(root: Path) -> Path:
    proj = root / "proj"
    (proj / "jobs" / "sql").mkdir(parents=True)
    (proj / "delta-lint.yaml").write_text("{}\n")
    (proj / "jobs" / "load.py").write_text(JOB)
    (proj / "jobs" / "sql" / "load.sql").write_text("INSERT INTO db.loaded SELECT 1\n")
    (proj / "jobs" / "sql" / "merge.sql").write_text(
        "MERGE INTO db.merged t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET *\n"
    )
    (proj / "jobs" / "conf.json").write_text('{"table": "db.configured"}\n')
    (root / "elsewhere").mkdir()
    return proj


def _job_writes(cwd: Path, target: str) -> list[tuple[int, str | None]]:
    out = run_cli("intents", target, "--format", "json", cwd=cwd)
    assert out.returncode == 0, out.stderr
    return sorted((i["line"], i["table"]) for i in json.loads(out.stdout) if Path(i["path"]).name == "load.py")


def _dynamic_sql(cwd: Path, target: str) -> list[tuple[str, int]]:
    out = run_cli("check", target, "--no-cache", "--format", "json", "--exit-zero", cwd=cwd)
    report = json.loads(out.stdout)
    return sorted(
        (Path(f["location"]["path"]).name, f["location"]["line"])
        for f in report["findings"]
        if f["rule"] in ("DL007", "DL008")
    )


@pytest.mark.parametrize("where", ["sibling", "absolute", "subfolder"])
def test_paths_formed_from_the_file_name_the_same_documents_from_any_working_directory(tmp_path, where):
    proj = _project(tmp_path)
    inside = _job_writes(proj, ".")
    assert inside == [(8, "db.loaded"), (10, "db.merged"), (14, "db.configured")]
    cwd, target = {
        "sibling": (tmp_path / "elsewhere", "../proj"),
        "absolute": (tmp_path / "elsewhere", str(proj)),
        "subfolder": (proj / "jobs", ".."),
    }[where]
    assert _job_writes(cwd, target) == inside


@pytest.mark.parametrize("where", ["inside", "sibling"])
def test_a_path_formed_from_the_file_that_names_no_document_stays_unknown(tmp_path, where):
    # the near miss: `sql/missing.sql` is no file of the project, from anywhere
    proj = _project(tmp_path)
    cwd, target = (proj, ".") if where == "inside" else (tmp_path / "elsewhere", "../proj")
    assert _dynamic_sql(cwd, target) == [("load.py", 17)]
