"""Generated projects for the fuzzing suite: job files with *planted* writes
(each one a known table and kind of write) buried in noise, plus generated
configurations, bundles and Jobs JSON exports with values of every type, graphs of
notebooks that `%run` each other and Terraform job files, right and wrong.

The planted writes are the oracle: a front end that silently drops a file, a cell
or a statement loses a planted write, and the suite fails — whatever the exit code.
Noise is well-formed (whole comments, whole statements), so nothing in it may
legitimately swallow a planted write; junk statements are terminated and are
allowed to produce diagnostics (DL000), never to hide what follows them.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field

from hypothesis import strategies as st

# (template, kind as `intents --format json` names it); {t} is the table, {n} a number
SQL_WRITES = [
    ("INSERT INTO {t} SELECT * FROM src_{n}", "blind_append"),
    ("INSERT OVERWRITE {t} SELECT {n} AS id", "full_overwrite"),
    ("DELETE FROM {t} WHERE id = {n}", "delete"),
    ("UPDATE {t} SET v = {n} WHERE id = {n}", "update"),
    (
        "MERGE INTO {t} AS tgt USING src_{n} AS s ON tgt.id = s.id "
        "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        "merge",
    ),
    ("OPTIMIZE {t} ZORDER BY (id)", "optimize_zorder"),
    ("ALTER TABLE {t} ADD COLUMNS (c{n} INT)", "metadata_change"),
    ("CREATE OR REPLACE TABLE {t} AS SELECT {n} AS id", "create_or_replace"),
    ("TRUNCATE TABLE {t}", "truncate"),
]
PY_WRITES = [
    ('df.write.format("delta").mode("append").saveAsTable("{t}")', "blind_append"),
    ('df.write.mode("overwrite").saveAsTable("{t}")', "full_overwrite"),
    ('DeltaTable.forName(spark, "{t}").delete("id = {n}")', "delete"),
    ('df.write.insertInto("{t}")', "blind_append"),
]
SQL_NOISE = [
    "-- a comment {n}",
    "/* a block\n   comment {n} */",
    "SELECT {n} AS x",
    "SELECT * FROM src_{n} WHERE id > {n}",
    "CREATE TEMPORARY VIEW v_{n} AS SELECT 1 AS id",
    "",
]
PY_NOISE = [
    "# a comment {n}",
    "x_{n} = {n}",
    "import os",
    "def helper_{n}(a):\n    return a + {n}",
    "if False:\n    pass",
    "for i_{n} in range({n}):\n    pass",
    '"""A docstring {n}."""',
    "",
]
# junk inside a statement: no quote, comment or template opener that could run on past it
JUNK = st.lists(
    st.sampled_from(
        list("abcxyz0123456789 ()=<>*+,.") + ["SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "JOIN", "ON"]
    ),
    min_size=1,
    max_size=25,
).map("".join)
NAMES = st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
# comment text: any character but those that end a line (or, in a block comment, `*/`)
COMMENT_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
    max_size=30,
)
BLOCK_TEXT = COMMENT_TEXT.filter(lambda t: "*/" not in t and not t.endswith("*"))


@dataclass
class Project:
    files: dict[str, str] = field(default_factory=dict)
    planted: set[tuple[str, str, str]] = field(default_factory=set)  # (path, table, kind)
    tables: list[str] = field(default_factory=list)


@st.composite
def table_names(draw) -> str:
    name = "t_" + draw(NAMES)
    return f"s_{draw(NAMES)}.{name}" if draw(st.booleans()) else name


@st.composite
def sql_text(draw, path: str, tables: list[str], planted: set) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        choice = draw(st.sampled_from(["write", "noise", "junk", "comment"]))
        n = draw(st.integers(0, 999))
        if choice == "write":
            template, kind = draw(st.sampled_from(SQL_WRITES))
            table = draw(st.sampled_from(tables))
            parts.append(template.format(t=table, n=n) + ";")
            planted.add((path, table, kind))
        elif choice == "noise":
            text = draw(st.sampled_from(SQL_NOISE)).format(n=n)
            parts.append(text + (";" if text and not text.startswith(("--", "/*")) else ""))
        elif choice == "junk":
            parts.append(draw(JUNK) + ";")
        else:  # a comment of any text: unicode, control characters, quotes, `;`
            parts.append("-- " + draw(COMMENT_TEXT) if draw(st.booleans()) else f"/* {draw(BLOCK_TEXT)} */")
    return "\n".join(parts) + ("\n" if draw(st.booleans()) else "")


@st.composite
def python_lines(draw, path: str, tables: list[str], planted: set, sql_ok: bool = True) -> list[str]:
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        choice = draw(st.sampled_from(["write", "sql", "noise"] if sql_ok else ["write", "noise"]))
        n = draw(st.integers(0, 999))
        table = draw(st.sampled_from(tables))
        if choice == "write":
            template, kind = draw(st.sampled_from(PY_WRITES))
            lines.append(template.format(t=table, n=n))
            planted.add((path, table, kind))
        elif choice == "sql":
            template, kind = draw(st.sampled_from(SQL_WRITES))
            lines.append(f'spark.sql("{template.format(t=table, n=n)}")')
            planted.add((path, table, kind))
        elif draw(st.integers(0, 3)) == 0:  # a comment or a string of any text
            text = draw(COMMENT_TEXT)
            lines.append("# " + text if draw(st.booleans()) else f"note_{n} = {text!r}")
        else:
            lines.append(draw(st.sampled_from(PY_NOISE)).format(n=n))
    return lines


PY_HEADER = "from delta.tables import DeltaTable\n\ndf = spark.table('src')\n"


@st.composite
def python_text(draw, path: str, tables: list[str], planted: set) -> str:
    return PY_HEADER + "\n".join(draw(python_lines(path, tables, planted))) + "\n"


@st.composite
def databricks_source(draw, path: str, tables: list[str], planted: set) -> str:
    cells = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            sql = draw(sql_text(path, tables, planted)).rstrip("\n")
            cells.append("# MAGIC %sql\n" + "\n".join(f"# MAGIC {line}".rstrip() for line in sql.split("\n")))
        else:
            cells.append("\n".join(draw(python_lines(path, tables, planted))))
    return (
        "# Databricks notebook source\n"
        + PY_HEADER
        + "\n# COMMAND ----------\n\n"
        + ("\n\n# COMMAND ----------\n\n".join(cells) + "\n")
    )


@st.composite
def ipynb_text(draw, path: str, tables: list[str], planted: set) -> str:
    cells = [_cell(PY_HEADER)]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["python", "sql", "markdown"]))
        if kind == "sql":
            cells.append(_cell("%sql\n" + draw(sql_text(path, tables, planted))))
        elif kind == "python":
            cells.append(_cell("\n".join(draw(python_lines(path, tables, planted)))))
        else:
            cells.append({"cell_type": "markdown", "metadata": {}, "source": ["# notes\n", "DELETE FROM nowhere\n"]})
    metadata = draw(
        st.sampled_from(
            [
                {},
                {"language_info": {"name": "python"}},
                {"language_info": "x"},  # odd types say nothing about the language
                {"kernelspec": [1]},
                {"application/vnd.databricks.v1+notebook": {"language": "python"}},
                {"application/vnd.databricks.v1+notebook": {"widgets": "x"}},
                {"application/vnd.databricks.v1+notebook": {"widgets": {"w": {"widgetInfo": {"defaultValue": 5}}}}},
            ]
        )
    )
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def _cell(text: str) -> dict:
    lines = text.splitlines(keepends=True)
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}


@st.composite
def projects(draw, max_files: int = 5) -> Project:
    """A project of SQL, Python and notebook files (distinct paths, some in folders)."""
    project = Project(tables=draw(st.lists(table_names(), min_size=1, max_size=4, unique=True)))
    makers = {".sql": sql_text, ".py": python_text, "": databricks_source, ".ipynb": ipynb_text}
    for i in range(draw(st.integers(1, max_files))):
        suffix = draw(st.sampled_from(sorted(makers)))
        folder = draw(st.sampled_from(["", "jobs/", "jobs/nightly/"]))
        path = f"{folder}job_{i}{suffix}"
        text = draw(makers[suffix](path, project.tables, project.planted))
        if suffix != ".ipynb" and draw(st.integers(0, 4)) == 0:
            text = text.replace("\n", "\r\n")  # saved on Windows
        if draw(st.integers(0, 9)) == 0:
            text = "\ufeff" + text  # a byte-order mark
        project.files[path] = text
    return project


# -- configurations, bundles, Jobs JSON: every type in every place ------------------------------

ANY_VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(["DL1", "DL101", "**/*.sql", "jobs", "0 0 2 * * ?", "Europe/Amsterdam", "50m", "UTC"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated(draw, value):
    """`value` with one of its leaves (or the whole) replaced by a value of any type."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: draw(mutated(value[key]))}
    if isinstance(value, list) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], draw(mutated(value[i])), *value[i + 1 :]]
    return draw(ANY_VALUE)


def sample_bundle(files: list[str]) -> dict:
    """A bundle that schedules the project's files as tasks of two jobs."""
    tasks = [
        {"task_key": f"t{i}", "sql_task" if f.endswith(".sql") else "spark_python_task": _task_path(f)}
        for i, f in enumerate(files)
    ]
    if len(tasks) > 1:
        tasks[1]["depends_on"] = [{"task_key": "t0"}]
    return {
        "bundle": {"name": "fuzz"},
        "include": ["resources/*.yml"],
        "variables": {"runs": {"default": 2}},
        "resources": {
            "jobs": {
                "nightly": {
                    "name": "nightly",
                    "schedule": {"quartz_cron_expression": "0 0 2 * * ?", "timezone_id": "UTC"},
                    "max_concurrent_runs": 1,
                    "tasks": tasks[: len(tasks) // 2 + 1],
                },
                "hourly": {
                    "parameters": [{"name": "day", "default": "x"}],
                    "trigger": {"periodic": {"interval": 1, "unit": "HOURS"}},
                    "tasks": [
                        {"task_key": "loop", "for_each_task": {"inputs": "[1,2]", "concurrency": 2, "task": t}}
                        for t in tasks[len(tasks) // 2 + 1 :][:1]
                    ]
                    or tasks[:1],
                },
            }
        },
        "targets": {"dev": {"default": True, "mode": "development"}, "prod": {"resources": {"jobs": {}}}},
    }


def _task_path(path: str) -> dict:
    return {"file": {"path": path}} if path.endswith(".sql") else {"python_file": path}


SAMPLE_CONFIG = {
    "runtime": "15.4",
    "tables": {"t_a": {"partitioned_by": ["d"], "deletion_vectors": True}},
    "jobs": {"etl": {"paths": ["jobs/**"], "concurrent_runs": 2}},
    "exclusive": [["etl", "nightly"]],
    "exclude": ["**/skip_*.sql"],
    "select": ["DL1"],
    "per-file-ignores": {"jobs/nightly/*": ["DL104"]},
    "duration": {"default": "50m"},
    "spark": "none",
    "strict": False,
}


# -- `%run` graphs ------------------------------------------------------------------------------

NOTEBOOK_HEADER = "# Databricks notebook source\n"
CELL = "\n# COMMAND ----------\n\n"
RUN_DEPTH = 8  # `link.MAX_RUN_DEPTH`: includes followed this many `%run`s deep


@st.composite
def run_graphs(draw, max_notebooks: int = 9) -> Project:
    """Notebooks that `%run` each other: none, some or all of the others, in any
    order, by relative, quoted, workspace or very long absolute paths, with runs of
    themselves and of notebooks that do not exist. Notebook i defines `v_i` (its
    table) and writes its own table; it also writes `v_j` of some notebook j that its
    includes reach (within RUN_DEPTH `%run`s), which the link stage must resolve:
    each such write is planted with j's table."""
    project = Project()
    n = draw(st.integers(2, max_notebooks))
    folders = [draw(st.sampled_from(["", "nb/", "nb/sub/"])) for _ in range(n)]
    stems = [f"{folders[i]}n{i}" for i in range(n)]
    density = draw(st.sampled_from(["none", "some", "all"]))
    runs: dict[int, list[int]] = {}
    for i in range(n):
        others = [j for j in range(n) if j != i]
        chosen = (
            others
            if density == "all"
            else draw(st.lists(st.sampled_from(others), max_size=3))
            if density == "some"
            else []
        )
        runs[i] = draw(st.permutations(list(dict.fromkeys(chosen))))
    for i in range(n):
        cells = []
        for j in runs[i]:
            cells.append(f"# MAGIC %run {draw(_run_path(stems[i], stems[j]))}")
        if draw(st.integers(0, 3)) == 0:
            cells.append(draw(st.sampled_from([f"# MAGIC %run ./n{i}", "# MAGIC %run ./missing", "# MAGIC %run"])))
        own = f"s_run.own_{i}"
        body = [f"v_{i} = 's_run.t_{i}'", f'df.write.format("delta").mode("append").saveAsTable("{own}")']
        path = stems[i] + ".py"
        project.planted.add((path, own, "blind_append"))
        reached = sorted(_reached(runs, i) - {i})
        if reached:
            j = draw(st.sampled_from(reached))
            body.append(f'df.write.format("delta").mode("append").saveAsTable(v_{j})')
            project.planted.add((path, f"s_run.t_{j}", "blind_append"))
        cells.append("\n".join(body))
        project.files[path] = NOTEBOOK_HEADER + CELL.join(cells) + "\n"
    return project


@st.composite
def _run_path(draw, importer: str, target: str) -> str:
    relative = posixpath.relpath(target, posixpath.dirname(importer) or ".")
    relative = relative if relative.startswith(".") else "./" + relative
    form = draw(st.sampled_from(["relative", "relative", "quoted", "workspace", "long"]))
    if form == "quoted":
        return f'"{relative}" $reset=true'
    if form == "workspace":
        return "/Workspace/Repos/me/project/" + target
    if form == "long":  # a path of thousands of folders: matched by its tail
        return "/" + "x/" * draw(st.integers(1_000, 20_000)) + target
    return relative


def _reached(runs: dict[int, list[int]], start: int) -> set[int]:
    """The notebooks `start`'s includes reach within RUN_DEPTH `%run`s."""
    seen, frontier = {start}, [start]
    for _ in range(RUN_DEPTH):
        frontier = [j for i in frontier for j in runs[i] if j not in seen]
        seen.update(frontier)
    return seen


# -- Terraform jobs -----------------------------------------------------------------------------

# task keys as HCL text: python-hcl2 keeps escapes as written, and so does the key
TASK_KEYS = st.lists(
    st.sampled_from(["a", "b", "load", "_", "-", ".", " ", "7", "\\\\", "\\u0041", "\\n"]), min_size=1, max_size=5
).map("".join)
# a value of the wrong shape in place of what the reader expects
TF_WRONG = ["5", '"x"', "[1, 2]", "{ a = 1 }", "true"]


@dataclass
class TerraformProject:
    project: Project
    expected: set[tuple[str, str, str]]  # (job, task, file) of the jobs written right


@st.composite
def terraform_projects(draw) -> TerraformProject:
    """Job files with planted writes and `databricks_job` resources that run them,
    one resource per `.tf` file: task paths relative to the module, through a
    `databricks_notebook` resource declared in another file, `depends_on`,
    parameters and schedules; some resources written wrong (a block replaced by a
    number, a text, a list; an unknown time zone; the file cut short) or with a
    backslash in a task key. The tasks of every resource that is read are expected
    in the schedule."""
    project = draw(projects(max_files=3))
    files = sorted(project.files)
    expected: set[tuple[str, str, str]] = set()
    notebooks = []
    for k in range(draw(st.integers(1, 3))):
        folder = draw(st.sampled_from(["", "infra/", "infra/jobs/"]))
        keys = draw(st.lists(TASK_KEYS, min_size=1, max_size=3, unique=True))
        wrong = draw(st.sampled_from(["", "", "block", "depends_on", "zone", "escape", "cut"]))
        name = f"job_{k}"
        blocks = [f'  name = "{name}"', f"  max_concurrent_runs = {draw(st.integers(1, 3))}"]
        if draw(st.booleans()):
            zone = "Europe" if wrong == "zone" else draw(st.sampled_from(["UTC", "Europe/Amsterdam"]))
            blocks.append(
                f'  schedule {{\n    quartz_cron_expression = "0 0 2 * * ?"\n    timezone_id = "{zone}"\n  }}'
            )
        if draw(st.booleans()):
            blocks.append('  parameter {\n    name = "day"\n    default = "x"\n  }')
        for t, key in enumerate(keys):
            file = draw(st.sampled_from(files))
            rel = posixpath.relpath(file, folder.rstrip("/") or ".")
            kind, attribute = draw(
                st.sampled_from([("notebook_task", "notebook_path"), ("spark_python_task", "python_file")])
            )
            if draw(st.booleans()):
                value = f'"${{path.module}}/{rel}"'
            else:  # a notebook resource of the module, declared in another file
                notebooks.append((folder, f"nb_{k}_{t}", rel))
                value = f"databricks_notebook.nb_{k}_{t}.path"
            depends = (
                f'\n    depends_on {{\n      task_key = "{keys[t - 1]}"\n    }}' if t and draw(st.booleans()) else ""
            )
            if wrong == "depends_on" and t == 0:
                depends = f"\n    depends_on = {draw(st.sampled_from(TF_WRONG))}"
            task_key = key + "\\q" if wrong == "escape" and t == 0 else key
            blocks.append(
                f'  task {{\n    task_key = "{task_key}"{depends}\n    {kind} {{\n      {attribute} = {value}\n    }}\n  }}'
            )
            if wrong in ("", "zone", "escape"):
                expected.add((name, task_key, file))
        if wrong == "block":
            field = draw(st.sampled_from(["task", "parameter", "schedule"]))
            blocks.append(f"  {field} = {draw(st.sampled_from(TF_WRONG))}")
        text = f'resource "databricks_job" "{name}" {{\n' + "\n".join(blocks) + "\n}\n"
        if wrong == "cut":
            text = text[: draw(st.integers(0, len(text) - 1))]
        project.files[f"{folder}job_{k}.tf"] = text
    by_folder: dict[str, list[str]] = {}
    for folder, resource, rel in notebooks:
        by_folder.setdefault(folder, []).append(
            f'resource "databricks_notebook" "{resource}" {{\n  path   = "/Shared/{resource}"\n'
            f'  source = "${{path.module}}/{rel}"\n}}\n'
        )
    for folder, resources in by_folder.items():
        project.files[f"{folder}notebooks.tf"] = "\n".join(resources)
    return TerraformProject(project, expected)
