"""Property: the explanations a user acts on are true. For small generated projects
(a bundle of a few jobs whose tasks run SQL files, table settings declared in
delta-lint.yaml), every finding's overlap names only tasks and jobs that run the
finding's files; no two findings about one pair of writes disagree on whether
row-level concurrency applies; and no fix asks for a setting the table already has,
for deletion vectors where they would not give the pair row-level concurrency, or
alters another table than the finding's."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delta_lint.config import load_config
from delta_lint.run import check
from tests.conftest import run_cli

TABLES = ("t0", "t1")

# One statement per line, so that a finding's line says which statement it is about.
# (text, is a DML whose condition keeps it from row-level concurrency)
STATEMENTS: tuple[tuple[str, bool], ...] = (
    ("INSERT INTO {t} SELECT * FROM main.raw.src", False),
    ("INSERT INTO {t} SELECT * FROM main.raw.src s WHERE s.id NOT IN (SELECT id FROM {t})", False),
    ("DELETE FROM {t} WHERE date = '2024-01-0{d}'", False),
    ("DELETE FROM {t} WHERE id IN (SELECT id FROM main.raw.gone)", True),
    ("UPDATE {t} SET status = 'late' WHERE date > '2024-01-0{d}'", False),
    ("UPDATE {t} SET status = 'x' WHERE id IN (SELECT id FROM main.raw.late)", True),
    ("UPDATE {t} SET status = 'x' WHERE id = {d}", False),
    ("MERGE INTO {t} t USING main.raw.src s ON s.id = t.id WHEN MATCHED THEN UPDATE SET *", False),
    (
        "MERGE INTO {t} t USING main.raw.src s ON s.id = t.id AND t.id IN (SELECT id FROM main.raw.ok) "
        "WHEN MATCHED THEN UPDATE SET *",
        True,
    ),
    ("OPTIMIZE {t}", False),
    ("OPTIMIZE {t} WHERE date >= '2024-01-0{d}'", False),
    ("OPTIMIZE {t} ZORDER BY (id)", False),
    ("ALTER TABLE {t} ADD COLUMNS (c{d} STRING)", False),
)

table_settings = st.tuples(st.sampled_from(("plain", "dv", "partitioned", "clustered")), st.booleans())

projects = st.fixed_dictionaries(
    {
        "runtime": st.sampled_from(("15.4", "latest", "oss")),
        "photon": st.booleans(),
        # tables of equal settings often: they share the run's verdicts
        "tables": table_settings.flatmap(
            lambda first: st.lists(
                st.one_of(st.just(first), table_settings), min_size=len(TABLES), max_size=len(TABLES)
            )
        ),
        "files": st.lists(
            st.lists(
                st.tuples(st.integers(0, len(STATEMENTS) - 1), st.sampled_from(TABLES), st.integers(1, 9)),
                min_size=1,
                max_size=3,
            ),
            min_size=2,
            max_size=4,
        ),
        # the job of each file (3: no job runs it), and whether its task waits for the one before
        "job_of": st.lists(st.integers(0, 3), min_size=4, max_size=4),
        "after": st.lists(st.booleans(), min_size=4, max_size=4),
        "runs": st.lists(st.integers(1, 2), min_size=3, max_size=3),
        "hours": st.lists(st.sampled_from((0, 0, 1, None)), min_size=3, max_size=3),
    }
)


def build(root: Path, p: dict) -> tuple[dict[tuple[str, int], bool], dict[str, dict], dict[str, set[str]]]:
    """Writes the project; returns whether the statement at (path, line) is a DML that
    cannot get row-level concurrency, each table's declared settings, and the set of
    jobs and `task of job` names that run each file."""
    tables = {}
    for name, (mode, serializable) in zip(TABLES, p["tables"]):
        tables[name] = {
            "partitioned_by": ["date"] if mode == "partitioned" else [],
            "clustered_by": ["id"] if mode == "clustered" else [],
            "deletion_vectors": mode in ("dv", "clustered"),
            "isolation_level": "Serializable" if serializable else "WriteSerializable",
        }
    config = {
        "default_schema": "main.s",
        "runtime": p["runtime"],
        "photon": p["photon"],
        "spark": "none",
        "tables": tables,
        "duration": {"default": "1h"},
        "unscheduled": "anytime",
    }
    (root / "delta-lint.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    (root / "jobs").mkdir()
    blocked: dict[tuple[str, int], bool] = {}
    runners: dict[str, set[str]] = {}
    jobs: dict = {}
    for n, stmts in enumerate(p["files"]):
        path = f"jobs/f{n}.sql"
        lines = []
        for line, (k, table, day) in enumerate(stmts, 1):
            text, rows_blocked = STATEMENTS[k]
            lines.append(text.format(t=table, d=day) + ";")
            blocked[(path, line)] = rows_blocked
        (root / path).write_text("\n".join(lines) + "\n")
        runners[path] = set()
        j = p["job_of"][n]
        if j == 3:
            continue
        hour = p["hours"][j]
        job = jobs.setdefault(
            f"j{j}",
            {
                "name": f"j{j}",
                "max_concurrent_runs": p["runs"][j],
                **(
                    {"schedule": {"quartz_cron_expression": f"0 0 {hour} * * ?", "timezone_id": "UTC"}}
                    if hour is not None
                    else {}
                ),
                "tasks": [],
            },
        )
        task = {"task_key": f"k{n}", "sql_task": {"warehouse_id": "w", "file": {"path": path}}}
        if p["after"][n] and job["tasks"]:
            task["depends_on"] = [{"task_key": job["tasks"][-1]["task_key"]}]
        job["tasks"].append(task)
        runners[path] |= {f"j{j}", f"k{n}@j{j}"}
    bundle = {"bundle": {"name": "b"}, "resources": {"jobs": jobs}}
    (root / "databricks.yml").write_text(yaml.safe_dump(bundle, sort_keys=False))
    return blocked, tables, runners


_TASK_OF_JOB = re.compile(r"task `([^`]+)` of job `([^`]+)`")
_TASKS_OF_JOB = re.compile(r"tasks `([^`]+)` and `([^`]+)` of job `([^`]+)`")
_JOB = re.compile(r"(?<!of )job `([^`]+)`")
_ALTERED = re.compile(r"ALTER TABLE ([\w.`]+)")


def named(overlap: str) -> set[str]:
    """The tasks (`task@job`) and jobs an overlap text names as running something."""
    out = {f"{t}@{j}" for t, j in _TASK_OF_JOB.findall(overlap)}
    for a, b, j in _TASKS_OF_JOB.findall(overlap):
        out |= {f"{a}@{j}", f"{b}@{j}"}
    out |= set(_JOB.findall(overlap))
    return out


_OPTIMIZE_RULES = ("DL105", "DL106", "DL107")


def violations(findings, blocked, tables, runners, runtime: str) -> list[str]:
    out = []
    pairs: dict[tuple, list] = {}
    for f in findings:
        if f.table is None:
            continue
        files = {f.location.path, *(r.path for r in f.related)}
        running = set().union(*(runners.get(path, set()) for path in files))
        for name in sorted(named(f.overlap) - running):
            out.append(f"{f.rule} at {f.location}: overlap names {name}, which runs none of {sorted(files)}")
        if "(with row-level concurrency" in f.message:
            for r in (f.location, *f.related):
                if blocked.get((r.path, r.line)):
                    out.append(
                        f"{f.rule} at {f.location}: claims row-level concurrency for {r}, a subquery: {f.message}"
                    )
        for r in f.related:
            key = (f.table, *sorted([(f.location.path, f.location.line), (r.path, r.line)]))
            pairs.setdefault(key, []).append(f)
        for other in sorted(set(_ALTERED.findall(f.fix)) - {f.table}):
            out.append(f"{f.rule} at {f.location}: fix on {f.table} alters {other}: {f.fix}")
        s = tables.get(f.table.split(".")[-1])
        if s is None:
            continue
        fix = f.fix.lower()
        if "deletion vectors" in fix and ("consider deletion vectors" in fix or "enable deletion vectors" in fix):
            if s["deletion_vectors"]:
                out.append(f"{f.rule} at {f.location}: fix asks for deletion vectors, which {f.table} has: {f.fix}")
            elif f.rule == "DL106":  # deletion vectors end an OPTIMIZE's conflicts, but not on open-source Delta
                if runtime == "oss":
                    out.append(f"{f.rule} at {f.location}: deletion vectors would not end the conflict: {f.fix}")
            else:
                stuck = [
                    r
                    for r in (f.location, *f.related)
                    if blocked.get((r.path, r.line)) or runtime == "oss" or s["partitioned_by"]
                ]
                if stuck:
                    out.append(
                        f"{f.rule} at {f.location}: deletion vectors would not give row-level concurrency "
                        f"({stuck[0]}): {f.fix}"
                    )
        if "liquid clustering" in fix and ("consider" in fix or "move the table to" in fix):
            if s["clustered_by"]:
                out.append(f"{f.rule} at {f.location}: fix asks for liquid clustering, which {f.table} has: {f.fix}")
            else:  # a subquery keeps a DML pair from row-level concurrency, not an OPTIMIZE's from the DV override
                stuck = [
                    r
                    for r in (f.location, *f.related)
                    if runtime == "oss" or (blocked.get((r.path, r.line)) and f.rule not in _OPTIMIZE_RULES)
                ]
                if stuck:
                    out.append(
                        f"{f.rule} at {f.location}: liquid clustering would not end the conflict ({stuck[0]}): {f.fix}"
                    )
        if "use writeserializable" in fix and (runtime == "oss" or s["isolation_level"] == "WriteSerializable"):
            out.append(
                f"{f.rule} at {f.location}: fix asks for WriteSerializable, which {f.table} cannot change: {f.fix}"
            )
    for key, group in pairs.items():
        says_not = [f for f in group if "row-level concurrency does not apply" in f.message]
        says_with = [f for f in group if "(with row-level concurrency" in f.message]
        if says_not and says_with:
            out.append(f"{key}: {says_not[0].message!r} vs {says_with[0].message!r}")
    return out


def lint(p: dict):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        blocked, tables, runners = build(root, p)
        config = load_config(root / "delta-lint.yaml")
        result = check([config.root], config, cwd=root, use_cache=False)
        return result.findings, blocked, tables, runners


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(projects)
def test_explanations_are_true(p: dict) -> None:
    findings, blocked, tables, runners = lint(p)
    assert violations(findings, blocked, tables, runners, p["runtime"]) == []


# -- regression cases the property found ------------------------------------------------

_TWO_JOBS = {
    "runtime": "15.4",
    "photon": True,
    "spark": "none",
    "default_schema": "main.s",
    "jobs": {"a": {"paths": ["a.sql"]}, "b": {"paths": ["b.sql"]}},
}


def _fix_of(lint, a: str, b: str, table: dict) -> tuple[str, str]:
    result = lint({"a.sql": a, "b.sql": b}, {**_TWO_JOBS, "tables": {"t": table}})
    found = [f for f in result.findings if f.rule == "DL102" and f.location.path == "a.sql"]
    assert len(found) == 1, [f.message for f in result.findings]
    return found[0].message, found[0].fix


def test_no_deletion_vectors_asked_of_a_table_that_has_them(lint) -> None:
    """A table with deletion vectors loses row-level concurrency to a subquery: the
    message names the subquery, and the fix does not ask for deletion vectors."""
    message, fix = _fix_of(
        lint,
        "UPDATE t SET s = 'x' WHERE id IN (SELECT id FROM main.raw.late);\n",
        "DELETE FROM t WHERE s = 'void';\n",
        {"deletion_vectors": True},
    )
    assert "row-level concurrency does not apply: this UPDATE has a subquery in its condition" in message
    assert "deletion vectors" not in fix and "unpartitioned)" in fix


def test_no_deletion_vectors_proposed_where_a_subquery_blocks_them(lint) -> None:
    """Without deletion vectors, enabling them would not give a pair with a subquery
    row-level concurrency, nor would liquid clustering: the fix proposes neither."""
    _, fix = _fix_of(
        lint,
        "UPDATE t SET s = 'x' WHERE id IN (SELECT id FROM main.raw.late);\n",
        "DELETE FROM t WHERE s = 'void';\n",
        {"deletion_vectors": False},
    )
    assert "consider" not in fix and "unpartitioned)" in fix


def test_deletion_vectors_still_proposed_where_they_help(lint) -> None:
    """The near miss: two plain conditions on a table without deletion vectors get
    row-level concurrency once the table has them, so the fix still says so."""
    _, fix = _fix_of(
        lint, "UPDATE t SET s = 'x' WHERE id = 7;\n", "DELETE FROM t WHERE s = 'void';\n", {"deletion_vectors": False}
    )
    assert "(the table is unpartitioned: consider deletion vectors or liquid clustering)" in fix


def test_one_fix_for_several_pairs_proposes_only_what_helps_each(lint) -> None:
    """A finding naming two other writes, one of which has a subquery: deletion
    vectors would give only the other pair row-level concurrency, so the one fix the
    finding gives does not propose them; without the subquery it still does."""
    config = {**_TWO_JOBS, "tables": {"t": {"deletion_vectors": False}}}
    config["jobs"] = {**config["jobs"], "c": {"paths": ["c.sql"]}}
    for subquery, proposed in ((True, False), (False, True)):
        condition = "id IN (SELECT id FROM main.raw.late)" if subquery else "id = 9"
        result = lint(
            {
                "a.sql": "UPDATE t SET s = 'x' WHERE id = 7;\n",
                "b.sql": "DELETE FROM t WHERE s = 'void';\n",
                "c.sql": f"UPDATE t SET s = 'y' WHERE {condition};\n",
            },
            config,
        )
        found = [f for f in result.findings if f.rule == "DL102" and f.location.path == "a.sql"]
        assert len(found) == 1 and len(found[0].related) == 2, [f.message for f in result.findings]
        assert ("consider deletion vectors" in found[0].fix) is proposed, found[0].fix


def test_overlap_names_the_task_that_runs_the_other_file(lint) -> None:
    """A job without a schedule meets both tasks of a cron job; each finding names the
    task that runs its other file: the one about the second task's file names that
    task, not the first one asked, and the one about the first task's file still names
    the first."""
    bundle = {
        "bundle": {"name": "b"},
        "resources": {
            "jobs": {
                "manual": {"name": "manual", "tasks": [_task("m", "a.sql")]},
                "nightly": {
                    "name": "nightly",
                    "schedule": {"quartz_cron_expression": "0 0 1 * * ?", "timezone_id": "UTC"},
                    "tasks": [
                        _task("first", "b.sql"),
                        {**_task("second", "c.sql"), "depends_on": [{"task_key": "first"}]},
                    ],
                },
            }
        },
    }
    result = lint(
        {
            "databricks.yml": yaml.safe_dump(bundle),
            "a.sql": "DELETE FROM t WHERE s = 'void';\nUPDATE u SET s = 'x' WHERE id = 7;\n",
            "b.sql": "UPDATE t SET s = 'y' WHERE id = 9;\n",
            "c.sql": "UPDATE u SET s = 'y' WHERE id = 9;\n",
        },
        {"runtime": "oss", "spark": "none", "default_schema": "main.s"},
    )
    for table, named, not_named in (("main.s.u", "second", "first"), ("main.s.t", "first", "second")):
        about = [f.overlap for f in result.findings if f.table == table and f.location.path == "a.sql"]
        assert about, (table, [f.message for f in result.findings])
        assert all(f"task `{named}` of job `nightly`" in o and f"`{not_named}`" not in o for o in about), about


def _task(key: str, path: str) -> dict:
    return {"task_key": key, "sql_task": {"warehouse_id": "w", "file": {"path": path}}}


def test_optimize_on_open_source_delta_asks_no_deletion_vectors(lint) -> None:
    """On open-source Delta an OPTIMIZE conflicts with a DELETE with or without
    deletion vectors: no table is told to enable them, and a table that has them is
    not said to lack them. On Databricks Runtime they end the conflict: a table
    without them is still told to enable them."""
    for runtime, dv, proposed in (("oss", True, False), ("oss", False, False), ("15.4", False, True)):
        result = lint(
            {"a.sql": "OPTIMIZE t;\n", "b.sql": "DELETE FROM t WHERE s = 'void';\n"},
            {**_TWO_JOBS, "runtime": runtime, "tables": {"t": {"deletion_vectors": dv}}},
        )
        found = [f for f in result.findings if f.rule == "DL106"]
        assert len(found) == 1, (runtime, dv, [f.message for f in result.findings])
        assert ("Enable deletion vectors" in found[0].fix) is proposed, (runtime, dv, found[0].fix)
        assert ("(no deletion vectors)" in found[0].message) is proposed, (runtime, dv, found[0].message)


def test_no_row_level_concurrency_claimed_for_a_write_without_it(lint) -> None:
    """An UPDATE meets a DELETE with row-level concurrency and an UPDATE with a
    subquery without it: the two pairs are told apart, each message true of the
    writes it names and in agreement with the finding at the other write."""
    files = {
        "a.sql": "UPDATE t SET s = 'x' WHERE id = 7;\n",
        "b.sql": "DELETE FROM t WHERE id = 7;\n",
        "c.sql": "UPDATE t SET s = 'y' WHERE id IN (SELECT id FROM main.raw.late);\n",
    }
    config = {**_TWO_JOBS, "tables": {"t": {"deletion_vectors": True}}}
    config["jobs"] = {**config["jobs"], "c": {"paths": ["c.sql"]}}
    found = {
        tuple(r.path for r in f.related): f.message for f in lint(files, config).findings if f.location.path == "a.sql"
    }
    assert set(found) == {("b.sql",), ("c.sql",)}, found
    assert "(with row-level concurrency" in found[("b.sql",)]
    assert "row-level concurrency does not apply: the other UPDATE has a subquery" in found[("c.sql",)]


def test_fix_names_its_own_table_among_tables_of_equal_settings(lint) -> None:
    """Two tables with equal settings share their verdicts for the run; each DL106 fix
    still alters its own table, so a run that judges only one of them (the other's
    findings served from the cache) says the same as a run that judges both. A table
    of other settings, judged on its own, names itself too."""
    files = {
        "a.sql": "OPTIMIZE t;\nOPTIMIZE u;\nOPTIMIZE v;\n",
        "b.sql": "DELETE FROM t WHERE s = 'void';\nDELETE FROM u WHERE s = 'void';\nDELETE FROM v WHERE s = 'void';\n",
    }
    config = {**_TWO_JOBS, "tables": {"t": {}, "u": {}, "v": {"partitioned_by": ["date"]}}}
    found = {f.table: f.fix for f in lint(files, config).findings if f.rule == "DL106"}
    assert set(found) == {"main.s.t", "main.s.u", "main.s.v"}, found
    for table, fix in found.items():
        assert f"Enable deletion vectors (ALTER TABLE {table} SET TBLPROPERTIES" in fix, (table, fix)


def test_a_run_from_the_cache_explains_as_a_cold_run(tmp_path) -> None:
    """The cache serves the findings of tables whose writers did not change: after
    one of two tables of equal settings gets a new writer, a run that judges that
    table alone gives the same texts as a run without the cache."""
    files = {
        "a.sql": "OPTIMIZE t;\n",
        "b.sql": "DELETE FROM t WHERE s = 'void';\n",
        "c.sql": "OPTIMIZE u;\n",
        "d.sql": "DELETE FROM u WHERE s = 'void';\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    jobs = {j: {"paths": [f"{j}.sql"]} for j in "abcd"}
    config = {**_TWO_JOBS, "jobs": jobs, "tables": {"t": {}, "u": {}}}
    (tmp_path / "delta-lint.yaml").write_text(yaml.safe_dump(config))
    assert run_cli("check", ".", "--format", "json", cwd=tmp_path).returncode == 1  # fills the cache
    (tmp_path / "d.sql").write_text("DELETE FROM u WHERE s = 'gone';\n")
    warm = run_cli("check", ".", "--format", "json", cwd=tmp_path)
    cold = run_cli("check", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert warm.returncode == cold.returncode == 1
    assert warm.stdout == cold.stdout
    assert "ALTER TABLE main.s.u SET" in cold.stdout and "ALTER TABLE main.s.t SET" in cold.stdout


def test_no_write_serializable_proposed_where_tables_are_always_serializable(lint) -> None:
    """Open-source Delta has only Serializable: an UPDATE meeting an append there is
    not told to use WriteSerializable. On Databricks Runtime a Serializable table
    still is."""
    for runtime, proposed in (("oss", False), ("15.4", True)):
        result = lint(
            {"a.sql": "UPDATE t SET s = 'x' WHERE id = 7;\n", "b.sql": "INSERT INTO t SELECT * FROM main.raw.src;\n"},
            {**_TWO_JOBS, "runtime": runtime, "tables": {"t": {"isolation_level": "Serializable"}}},
        )
        found = [f for f in result.findings if f.rule == "DL103"]
        assert len(found) == 1, (runtime, [f.message for f in result.findings])
        assert ("Use WriteSerializable" in found[0].fix) is proposed, (runtime, found[0].fix)


def test_liquid_clustering_proposed_for_a_zorder_only_where_it_ends_the_conflict(lint) -> None:
    """A ZORDER meets a DELETE. On Databricks Runtime, clustering (whose plain OPTIMIZE
    with deletion vectors meets no DELETE) is proposed; on open-source Delta the plain
    OPTIMIZE would still conflict: it is not told to move the table to liquid
    clustering. On a table already clustered the ZORDER fails on its own (DL130) and
    is not paired at all."""
    for runtime, table, proposed in (
        ("15.4", {}, True),
        ("oss", {}, False),
    ):
        result = lint(
            {"a.sql": "OPTIMIZE t ZORDER BY (id);\n", "b.sql": "DELETE FROM t WHERE s = 'void';\n"},
            {**_TWO_JOBS, "runtime": runtime, "tables": {"t": table}},
        )
        found = [f for f in result.findings if f.rule in ("DL105", "DL106") and f.location.path == "a.sql"]
        assert len(found) == 1, (runtime, table, [f.message for f in result.findings])
        assert ("liquid clustering" in found[0].fix) is proposed, (runtime, table, found[0].fix)
        assert "exclusive group), or restrict" in found[0].fix or proposed, found[0].fix
    clustered = lint(
        {"a.sql": "OPTIMIZE t ZORDER BY (id);\n", "b.sql": "DELETE FROM t WHERE s = 'void';\n"},
        {**_TWO_JOBS, "runtime": "15.4", "tables": {"t": {"clustered_by": ["id"], "deletion_vectors": True}}},
    )
    assert [f.rule for f in clustered.findings if f.location.path == "a.sql"] == ["DL130"]
