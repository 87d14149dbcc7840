"""Numbers that need no annotation, read from one run of delta-lint on a checkout.

The idea is ruff's ecosystem check: whatever a person expected, some outcomes
are wrong on any repository. This module finds them from the code and the run:

- *plain writes*: statements that obviously write a table (`MERGE [WITH SCHEMA EVOLUTION] INTO`,
  `INSERT INTO/OVERWRITE`, `DELETE FROM`, `UPDATE ... SET`, `.saveAsTable(`,
  `.toTable(`, `.insertInto(`, a DeltaTable `.merge(` (or any `.merge(` a clause
  of a merge builder follows, Spark's or delta-rs'), a writer chain naming
  `format("delta")` that ends in `.save(path)` / `.start(path)`, `writeTo(t)` with
  its action (`.append()`, `.overwritePartitions()`, ...), and `.delete(` /
  `.update(` of a table the chain opens with `DeltaTable.forName/forPath`, and a
  writer's terminal handed to a call or kept in a literal, uncalled); a plain write with
  neither an intent nor a diagnostic inside its statement is a *silent drop*.
  A plain write inside a function body is reported by delta-lint at the
  function's calls; until intents name the statement's own line it is counted
  apart (`helper_unlocated`), never mixed into silent drops. A plain write in a
  file delta-lint skips by kind (a test no job runs, another SQL dialect, a
  Lakeflow pipeline no bundle defines: `recognise`, named in the run's summary
  and by `--show-files`) is counted apart too (`in_skipped`). SQL text in
  another dialect, text whose write does not start a statement (prose in a
  Markdown template) and a writer chain naming another format
  (`.format("parquet").saveAsTable(...)`) are no plain writes. A Lakeflow
  (DLT) pipeline's datasets are plain writes too: a function decorated
  `@dlt.table` / `@dp.materialized_view` (its span starts at the decorator, where
  delta-lint reports it), an AUTO CDC flow (`dlt.apply_changes`,
  `dp.create_auto_cdc_flow`, SQL `APPLY CHANGES INTO`), and SQL
  `CREATE OR REFRESH STREAMING TABLE` / `MATERIALIZED VIEW` / `LIVE TABLE` with a
  query (`AS`); a view (`@dlt.view`, `TEMPORARY`) and a streaming table declared
  with no query (a flow's target, written by the flow) are none.
  SQL a call sends through another database's connection, cursor or module
  (`psycopg2.connect(...).cursor().execute("INSERT ...")`, `duckdb.sql(...)`: told by
  delta-lint's own `warehouse.ClientOrigins`) writes no Delta table either.
  A plain write to a table the project creates in another format (`CREATE TABLE ...
  USING ICEBERG`, `.format("parquet").saveAsTable(t)`) is no Delta write: delta-lint's
  front end says which tables those are (`Links.non_delta`, the set `check` leaves
  out), and such a write is counted apart (`not_delta`), never as a silent drop.
- *DL000 on valid code*: a "cannot parse" diagnostic on a Python file that
  CPython parses, or on SQL that is not of a kind the annotator skipped.
- *idle job files*: files a job definition runs that give no intent and no
  diagnostic at all.

Reads text only (CPython's `ast` for Python); never runs the repository's code.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from delta_lint.frontend.discover import DBT_OUTPUT_DIRS
from delta_lint.frontend.recognise import skip_reason
from delta_lint.frontend.warehouse import ClientOrigins

# Plain write forms inside SQL text (in .sql files, notebook SQL cells and Python strings).
SQL_WRITE = re.compile(
    r"\b(MERGE\s+(?:WITH\s+SCHEMA\s+EVOLUTION\s+)?INTO|INSERT\s+(?:INTO|OVERWRITE)|DELETE\s+FROM|UPDATE\s+[\w.`{}$]+\s+(?:\w+\s+)?SET)\b",
    re.IGNORECASE,
)
# Lakeflow (DLT) pipeline datasets in SQL: a published table or view a pipeline
# update writes. Counted only with a query (`AS`) in the statement: without one, a
# streaming table is a flow's target and the flow is the write. The AUTO CDC
# forms write their target.
PIPELINE_DATASET = re.compile(
    r"\bCREATE\s+(?:OR\s+(?:REFRESH|REPLACE)\s+)?(?:PRIVATE\s+)?(?:STREAMING\s+TABLE|MATERIALIZED\s+VIEW|LIVE\s+TABLE)\b",
    re.IGNORECASE,
)
PIPELINE_CDC = re.compile(r"\b(?:APPLY\s+CHANGES|AUTO\s+CDC)\s+INTO\b", re.IGNORECASE)
_QUERY = re.compile(r"\bAS\b", re.IGNORECASE)
# Python: decorators of a function whose result a pipeline publishes, and calls of a
# CDC flow into a target (`dlt` / `pyspark.pipelines`, imported as any name).
DATASET_DECORATORS = {"table", "materialized_view", "create_table"}
CDC_FLOWS = {
    "apply_changes",
    "apply_changes_from_snapshot",
    "create_auto_cdc_flow",
    "create_auto_cdc_from_snapshot_flow",
}
_PIPELINE_MODULES = {"dlt", "dp", "sdp", "pipelines"}
# Plain write methods of PySpark / DeltaTable calls.
WRITE_METHODS = {"saveAsTable", "toTable", "insertInto"}
# folders of no job code; a hidden folder (`.github`, `.claude/skills`) too: discovery
# never reads one (`delta_lint.frontend.discover`), as linters and git tools do not
_SKIP_DIRS = {"node_modules", "venv", "__pycache__", "site-packages"}


@dataclass
class PlainWrite:
    path: str
    line: int  # where the write text stands
    span: tuple[int, int]  # the enclosing statement (first and last line)
    in_function: bool
    skipped: str | None = None  # the kind delta-lint skips the file as, if it does


@dataclass
class Ecosystem:
    plain_writes: int = 0
    silent_drops: int = 0
    helper_unlocated: int = 0
    in_skipped: int = 0
    not_delta: int = 0  # plain writes to tables the project creates in another format
    dl000: int = 0
    dl000_valid: int = 0
    idle_job_files: int = 0
    intents: int = 0
    unresolved_intents: int = 0
    findings: int = 0
    drops: list[str] = field(default_factory=list)
    unlocated: list[str] = field(default_factory=list)  # plain writes in helpers not located
    skipped_sites: list[str] = field(default_factory=list)  # plain writes in files skipped by kind
    not_delta_sites: list[str] = field(default_factory=list)  # with the table the front end found not Delta
    dl000_sites: list[str] = field(default_factory=list)
    idle: list[str] = field(default_factory=list)


def _python_writes(rel: str, text: str) -> list[PlainWrite] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out: list[PlainWrite] = []
    modules = _pipeline_modules(tree)
    origins = ClientOrigins(tree, text)
    later = _later_statements(tree)

    def visit(node: ast.AST, in_function: bool, stmt: ast.stmt | None, shown: bool = False) -> None:
        for child in ast.iter_child_nodes(node):
            here_stmt = child if isinstance(child, ast.stmt) else stmt
            func = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                dataset = _dataset_decorator(child, modules)
                if dataset is not None:  # reported at the decorator: the span starts there
                    out.append(
                        PlainWrite(rel, dataset.lineno, (dataset.lineno, child.end_lineno or child.lineno), func)
                    )
                visit(child, func, here_stmt)
                continue
            if shown and isinstance(child, ast.Constant):
                continue  # text printed or logged is not run, or run by another database
            if here_stmt is not None and not isinstance(here_stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
                span = (here_stmt.lineno, here_stmt.end_lineno or here_stmt.lineno)
            else:
                span = (getattr(child, "lineno", 0), getattr(child, "end_lineno", 0) or getattr(child, "lineno", 0))
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
                name = child.func.attr
                is_merge = name == "merge" and (_looks_like_delta_merge(child) or _merged_by(node, child))
                is_flow = name in CDC_FLOWS and _names_module(child.func.value, modules)
                if (
                    (name in WRITE_METHODS and not _other_format(child))
                    or is_merge
                    or is_flow
                    or _delta_path_write(child)
                    or _writer_v2(child)
                    or _delta_table_dml(child)
                ):
                    if is_merge and isinstance(here_stmt, ast.Assign | ast.AnnAssign):
                        span = (span[0], _executed_at(here_stmt, later.get(id(here_stmt), [])) or span[1])
                    out.append(PlainWrite(rel, child.func.end_lineno or child.lineno, span, func))
            elif _handed_terminal(node, child) and not shown:
                out.append(PlainWrite(rel, child.end_lineno or child.lineno, span, func))
            elif (
                isinstance(child, ast.Constant)
                and isinstance(child.value, str)
                # a docstring or a string standing alone as a statement is never run
                and not (isinstance(here_stmt, ast.Expr) and here_stmt.value is child)
            ):
                m = SQL_WRITE.search(child.value) or _pipeline_write(child.value)
                if m and _statement_like(child.value) and _starts_statement(child.value, m.start()):
                    line = child.lineno + child.value.count("\n", 0, m.start())
                    out.append(PlainWrite(rel, line, span, func))
            elsewhere = isinstance(child, ast.Call) and origins.runs_elsewhere(child)
            visit(child, func, here_stmt, shown or elsewhere or _shows_text(child))

    visit(tree, False, None)
    return out


def _later_statements(tree: ast.Module) -> dict[int, list[ast.stmt]]:
    """id of each statement -> the statements after it in its own block."""
    out: dict[int, list[ast.stmt]] = {}
    for node in ast.walk(tree):
        for part in ("body", "orelse", "finalbody"):
            block = getattr(node, part, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                for n, stmt in enumerate(block):
                    out[id(stmt)] = block[n + 1 :]
    return out


def _executed_at(stmt: ast.Assign | ast.AnnAssign, after: list[ast.stmt]) -> int | None:
    """The last line of the statement that executes a merge builder `stmt` keeps in a
    name (`m = t.alias("t").merge(s, c)`, clauses added to `m` over the next
    statements, then `m.execute()`): delta-lint reports the merge there, as one
    statement built over several. None when `stmt` executes it itself, keeps it in
    anything but a name, or no later statement of its block executes that name."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    if len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return None
    if any(_executes(node, None) for node in ast.walk(stmt.value)):
        return None
    name = targets[0].id
    for following in after:
        if any(_executes(node, name) for node in ast.walk(following)):
            return following.end_lineno or following.lineno
    return None


def _executes(node: ast.AST, name: str | None) -> bool:
    """`node` is an `.execute()` call of a chain rooted at `name` (any root for None)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "execute"):
        return False
    root: ast.expr = node.func.value
    while isinstance(root, ast.Call | ast.Attribute):
        root = root.func if isinstance(root, ast.Call) else root.value
    return name is None or (isinstance(root, ast.Name) and root.id == name)


def _pipeline_modules(tree: ast.Module) -> set[str]:
    """The names a file gives the pipeline modules (`import dlt`, `from pyspark
    import pipelines as dp`, `import dlt as d`); the usual names besides, for a
    notebook that imports them in another cell."""
    names = set(_PIPELINE_MODULES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.asname or a.name for a in node.names if a.name == "dlt")
        elif isinstance(node, ast.ImportFrom) and node.module == "pyspark":
            names.update(a.asname or a.name for a in node.names if a.name == "pipelines")
    return names


def _names_module(node: ast.expr, modules: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.id in modules


def _dataset_decorator(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, modules: set[str]) -> ast.expr | None:
    """The decorator that makes a function a pipeline's published dataset
    (`@dlt.table`, `@dlt.table(name=...)`, `@dp.materialized_view`), else None: a
    view (`@dlt.view`, `@dp.temporary_view`) is computed, never stored."""
    for dec in getattr(fn, "decorator_list", []):
        target = dec.func if isinstance(dec, ast.Call) else dec
        if (
            isinstance(target, ast.Attribute)
            and target.attr in DATASET_DECORATORS
            and _names_module(target.value, modules)
        ):
            return dec
    return None


def _pipeline_write(text: str) -> re.Match | None:
    """A pipeline dataset defined with a query, or an AUTO CDC flow, in SQL text."""
    m = PIPELINE_CDC.search(text)
    if m:
        return m
    m = PIPELINE_DATASET.search(text)
    if m is None or re.search(r"\bTEMPORARY\b", text[max(0, m.start() - 20) : m.end()], re.IGNORECASE):
        return None
    end = text.find(";", m.end())
    return m if _QUERY.search(text[m.end() : end if end >= 0 else len(text)]) else None


# Calls that show text to a person: SQL in their arguments is printed, never run.
_SHOWN_BY = {"print"}
_LOG_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical"}


def _shows_text(node: ast.AST) -> bool:
    """`print(f"UPDATE ... ")`, `logger.info("MERGE INTO ...")`."""
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name):
        return node.func.id in _SHOWN_BY
    return isinstance(node.func, ast.Attribute) and node.func.attr in _LOG_METHODS


def _other_format(call: ast.Call) -> str | None:
    """The format a writer chain names literally when it is not Delta
    (`.format("parquet").saveAsTable(...)`): a plain write of no Delta table."""
    node = call.func.value if isinstance(call.func, ast.Attribute) else None
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "format" and node.args and isinstance(node.args[0], ast.Constant):
            fmt = str(node.args[0].value).lower()
            return fmt if fmt != "delta" else None
        node = node.func.value
    return None


def _handed_terminal(parent: ast.AST, node: ast.AST) -> bool:
    """A writer's terminal named but not called where it is named, handed to a call or
    kept in a literal (`partial(df.write.saveAsTable)`, `{"a": w.insertInto}`): the
    write happens where the value is called. Not a name bound to it (`save =
    w.saveAsTable`): the write is at the name's call, which `save(...)` is not
    spelt as."""
    if not (isinstance(node, ast.Attribute) and node.attr in WRITE_METHODS):
        return False
    if isinstance(parent, ast.Call):
        return node is not parent.func
    return isinstance(parent, ast.List | ast.Tuple | ast.Set | ast.Dict | ast.keyword)


def _chain(call: ast.Call) -> list[ast.Call]:
    """The calls a method chain is made of, from the outermost in (`a.b(1).c(2)`: `c(2)`, `b(1)`)."""
    out: list[ast.Call] = []
    node: ast.expr = call
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        out.append(node)
        node = node.func.value
    return out


def _delta_path_write(call: ast.Call) -> bool:
    """`df.write.format("delta").mode("overwrite").save(path)`, `df.writeStream.format("delta")
    ...start(path)`: a Delta table written at its path, the format named literally in
    the chain (a `.save(path)` naming none writes the session's default, unknown here)."""
    if call.func.attr not in ("save", "start") or not (call.args or call.keywords):
        return False
    for link in _chain(call)[1:]:
        if link.func.attr == "format" and link.args and isinstance(link.args[0], ast.Constant):
            return str(link.args[0].value).lower() == "delta"
    return False


_WRITER_V2_ACTIONS = {"append", "overwrite", "overwritePartitions", "create", "replace", "createOrReplace"}


def _writer_v2(call: ast.Call) -> bool:
    """`df.writeTo("t").append()`, `.overwritePartitions()`, `.createOrReplace()`: the
    DataFrameWriterV2 writes the catalog's table (Delta on Databricks unless `.using`
    names another format)."""
    if call.func.attr not in _WRITER_V2_ACTIONS:
        return False
    links = _chain(call)[1:]
    if not any(link.func.attr == "writeTo" and link.args for link in links):
        return False
    for link in links:
        if link.func.attr == "using" and link.args and isinstance(link.args[0], ast.Constant):
            return str(link.args[0].value).lower() == "delta"
    return True


def _delta_table_dml(call: ast.Call) -> bool:
    """`DeltaTable.forName(spark, "t").delete("d < x")`, `.update(cond, {...})` on a table
    the chain opens itself: a DELETE or UPDATE of a Delta table. A name bound to one
    elsewhere (`t.delete(...)`) is not told from any other object's method."""
    if call.func.attr not in ("delete", "update") or not (call.args or call.keywords):
        return False
    return any(
        link.func.attr in ("forName", "forPath")
        and isinstance(link.func.value, ast.Name)
        and link.func.value.id == "DeltaTable"
        for link in _chain(call)[1:]
    )


def _merged_by(parent: ast.AST, merge: ast.Call) -> bool:
    """`merge` is the `.merge(...)` of a merge builder, Spark's or delta-rs': clauses
    (`whenMatchedUpdateAll()`, `when_not_matched_insert_all()`) follow it. `parent`
    is the node `merge` is a child of: the attribute of the next link."""
    return isinstance(parent, ast.Attribute) and parent.attr.startswith(
        ("whenMatched", "whenNotMatched", "when_matched", "when_not_matched")
    )


def _looks_like_delta_merge(call: ast.Call) -> bool:
    """`x.alias("t").merge(src, "cond")` / `DeltaTable.forName(...).merge(...)`: a merge with a
    condition argument on something built from DeltaTable or aliased; `pd.merge(a, b, on=...)` is not."""
    src = ast.unparse(call.func.value) if isinstance(call.func, ast.Attribute) else ""
    if "pd." in src or "pandas" in src:
        return False
    if any(k.arg in ("on", "how", "left_on") for k in call.keywords):
        return False
    return ("DeltaTable" in src or ".alias(" in src) and 1 <= len(call.args) <= 2


def _statement_like(text: str) -> bool:
    """A string that reads as a SQL statement (not prose in a log message)."""
    head = text.lstrip().upper()
    return head.startswith(("MERGE", "INSERT", "DELETE", "UPDATE", "WITH", "CREATE", "APPLY", "--")) or "\n" in text


def _starts_statement(text: str, at: int) -> bool:
    """The write at `at` starts a statement of SQL text: only blanks, `;` or a
    parenthesis (a CTE's end) before it on its line, or a statement-like head of
    the text (`_statement_like`), and the text shows no other dialect's sign. Not
    a write in prose (`| ... | the partition-level DELETE from the source keys |`)."""
    if skip_reason("", ".sql", text) is not None and _pipeline_write(text) is None:
        return False  # PostgreSQL (`ON CONFLICT`), T-SQL, ...: no Delta table (a pipeline's SQL is Delta's)
    if text.lstrip().upper().startswith(("MERGE", "INSERT", "DELETE", "UPDATE", "WITH")):
        return True
    before = text[text.rfind("\n", 0, at) + 1 : at].strip()
    return not before or before.endswith((";", "(", ")"))


def _text_writes(rel: str, text: str) -> list[PlainWrite]:
    """SQL files and notebook cells: each match is its own statement, up to the next `;`
    or blank line (the span covers the lines before it back to the statement's start)."""
    out: list[PlainWrite] = []
    lines = text.splitlines()
    start = 1
    for n, raw in enumerate(lines, 1):
        body = raw.strip()
        if not body or body.endswith(";") or body.startswith(("# COMMAND", "-- COMMAND")):
            nxt = n + 1
        else:
            nxt = None
        code = re.sub(r"--.*$", "", raw)
        code = re.sub(r"^\s*(#\s*MAGIC\s*)?", "", code)
        found = SQL_WRITE.search(code) or _pipeline_line(code, lines, n)
        if (
            found
            and not raw.lstrip().startswith(("#", "//"))
            or (raw.lstrip().startswith("# MAGIC") and found and "%md" not in code)
        ):
            out.append(PlainWrite(rel, n, (start, n), False))
        if nxt is not None:
            start = nxt
    return out


def _pipeline_line(code: str, lines: list[str], n: int) -> re.Match | None:
    """A pipeline dataset starting on line `n` of SQL text: its statement (to the next
    `;` or blank line) is read for the query that makes it a write."""
    if not (PIPELINE_DATASET.search(code) or PIPELINE_CDC.search(code)):
        return None
    statement = [code]
    for raw in lines[n:]:
        body = re.sub(r"^\s*(#\s*MAGIC\s*)?", "", re.sub(r"--.*$", "", raw)).strip()
        if not body or statement[-1].rstrip().endswith(";"):
            break
        statement.append(body)
    return _pipeline_write("\n".join(statement))


def plain_writes(root: Path, skipped: list[str]) -> list[PlainWrite]:
    found: list[PlainWrite] = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        parts = path.relative_to(root).parts
        if any(part in _SKIP_DIRS or part.startswith(".") for part in parts[:-1]):
            continue
        rel = path.relative_to(root).as_posix()
        if _is_skipped(rel, skipped) or _dbt_output(path, root):
            continue
        suffix = path.suffix.lower()
        if suffix not in (".py", ".sql", ".ipynb"):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if len(text) > 2_000_000:
            continue
        if suffix == ".py":
            got = _python_writes(rel, _strip_magics(text))
            here = got if got is not None else _text_writes(rel, text)
        elif suffix == ".ipynb":
            cells = _notebook_writes(rel, text)
            here = cells if cells is not None else _text_writes(rel, text)
        else:
            here = _text_writes(rel, text)
        kind = skip_reason(rel, suffix, text) if here else None
        found.extend(PlainWrite(w.path, w.line, w.span, w.in_function, kind) for w in here)
    return found


_SOURCE_OPEN = re.compile(r'^\s*"source"\s*:\s*\[\s*$')
_SOURCE_CLOSE = re.compile(r"^\s*\],?\s*$")


def _notebook_writes(rel: str, text: str) -> list[PlainWrite] | None:
    """A Jupyter notebook's plain writes, read from its code cells only (markdown cells
    and cell titles in the metadata are prose), at the lines of the file where each
    source line stands, as delta-lint reports them. None when the file is not laid out
    one source line per line of JSON (nbformat's layout): then it is read as text."""
    try:
        cells = json.loads(text).get("cells")
    except (ValueError, AttributeError, RecursionError):
        return None
    if not isinstance(cells, list):
        return None
    lines = text.split("\n")
    blocks: list[tuple[int, list[str]]] = []  # (file line of the first source line, the lines)
    n = 0
    while n < len(lines):
        if _SOURCE_OPEN.match(lines[n]):
            first, body = n + 2, []
            n += 1
            while n < len(lines) and not _SOURCE_CLOSE.match(lines[n]):
                body.append(lines[n])
                n += 1
            blocks.append((first, body))
        n += 1
    if len(blocks) != len(cells):
        return None
    out: list[PlainWrite] = []
    for cell, (first, body) in zip(cells, blocks):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        try:
            parts = [json.loads(row.strip().rstrip(",")) for row in body]
        except ValueError:
            return None
        if not all(isinstance(p, str) for p in parts) or any("\n" in p[:-1] for p in parts):
            return None  # not one source line per line of the file
        source = "".join(parts)
        if source.lstrip().startswith(("%md", "%sql", "%%sql")):
            got = None if source.lstrip().startswith("%md") else _text_writes(rel, _strip_magics(source))
        else:
            got = _python_writes(rel, _strip_magics(source))
            if got is None:
                got = _text_writes(rel, source)
        shift = first - 1
        for w in got or ():
            out.append(PlainWrite(rel, w.line + shift, (w.span[0] + shift, w.span[1] + shift), w.in_function))
    return out


def _dbt_output(path: Path, root: Path) -> bool:
    """A file dbt wrote beside its project (compiled SQL, installed packages): not
    code a team wrote, so a write there is nobody's silent drop."""
    folders = [p for p in path.relative_to(root).parents if p != Path(".")]
    return any(p.name in DBT_OUTPUT_DIRS and (root / p.parent / "dbt_project.yml").is_file() for p in folders)


def _strip_magics(text: str) -> str:
    """Notebook exports: `%pip`, `%sql` lines are not Python; blank them keeping line numbers."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in text.split("\n"))


def _is_skipped(rel: str, skipped: list[str]) -> bool:
    return any(rel == s or (s.endswith("/") and rel.startswith(s)) for s in skipped)


def python_parses(path: Path) -> bool:
    try:
        ast.parse(_strip_magics(path.read_text(encoding="utf-8")))
        return True
    except (SyntaxError, ValueError, UnicodeDecodeError, OSError, RecursionError, MemoryError):
        return False


def measure(
    root: Path,
    report: dict,
    intents: list[dict],
    schedule: dict | None,
    skipped: list[str],
    non_delta: set[tuple[str, int]] = frozenset(),
) -> Ecosystem:
    """`skipped` files (not Databricks code) and `non_delta` sites (parquet, jdbc...) come from
    the annotation when there is one; everything else is read from the code and the run."""
    eco = Ecosystem()
    findings = report.get("findings", []) if isinstance(report, dict) else []
    eco.findings = len(findings)
    eco.intents = sum(1 for i in intents if i.get("kind") != "streaming_read")
    eco.unresolved_intents = sum(
        1
        for i in intents
        if i.get("kind") != "streaming_read"
        and (i.get("table") is None or "{" in str(i.get("table")))
        and "foreach_batch_sink" not in (i.get("flags") or [])
    )
    marks: dict[str, set[int]] = {}
    for i in intents:
        marks.setdefault(i["path"].lstrip("./"), set()).add(i["line"])
        for site in i.get("sites") or []:  # statement sites of writes reached through helpers
            marks.setdefault(site["path"].lstrip("./"), set()).add(site["line"])
    for f in findings:
        loc = f.get("location", {})
        marks.setdefault(loc.get("path", "").lstrip("./"), set()).add(loc.get("line", 0))
        # `related`: the other write of a pair; `sites`: where the statement's text was
        # written when the diagnostic stands at the call that runs it (`spark.sql(q)`)
        for r in [*(f.get("related", []) or []), *(f.get("sites", []) or [])]:
            marks.setdefault(r.get("path", "").lstrip("./"), set()).add(r.get("line", 0))
        if f.get("rule") == "DL000":
            eco.dl000 += 1
            rel = loc.get("path", "").lstrip("./")
            if _is_skipped(rel, skipped):
                continue
            target = root / rel
            if target.suffix == ".py" and not python_parses(target):
                continue  # CPython refuses it too: not our fault
            eco.dl000_valid += 1
            eco.dl000_sites.append(f"{rel}:{loc.get('line')}")
    ran: set[str] = set()
    for node in (schedule or {}).get("nodes", []):
        ran.update(f.lstrip("./") for f in node.get("files", []) or [])
    other_format: dict[str, str] | None = None  # made when a write is unmarked
    texts: dict[str, list[str]] = {}
    for w in plain_writes(root, skipped):
        eco.plain_writes += 1
        lines = marks.get(w.path, set())
        lo, hi = w.span
        if any(lo <= n <= hi for n in lines) or w.line in lines or (w.path, w.line) in non_delta:
            continue
        if other_format is None:
            other_format = not_delta_tables(root, skipped)
        table = _target_in(other_format, texts, root, w) if other_format else None
        if table is not None:
            eco.not_delta += 1
            eco.not_delta_sites.append(f"{w.path}:{w.line} (not Delta: {table})")
            continue
        if w.skipped is not None and w.path not in ran:  # a job running it has it linted
            eco.in_skipped += 1
            eco.skipped_sites.append(f"{w.path}:{w.line} ({w.skipped})")
        elif w.in_function:
            eco.helper_unlocated += 1
            eco.unlocated.append(f"{w.path}:{w.line}")
        else:
            eco.silent_drops += 1
            eco.drops.append(f"{w.path}:{w.line}")
    if schedule:
        for rel in sorted(ran):
            if rel not in marks and (root / rel).is_file():
                eco.idle_job_files += 1
                eco.idle.append(rel)
    return eco


# what a SQL or Python file creating a table in another format holds (a prefilter: the
# front end decides)
_OTHER_FORMAT_HINT = re.compile(r"\bUSING\s+(?!DELTA\b)[A-Za-z]|\bformat\s*\(\s*[\"'](?!delta[\"'])", re.I)
# the table a plain write's statement writes: after the SQL verb (a name, or the text an
# IDENTIFIER(...) clause spells), or the first string a DataFrame write names
_WRITE_TARGET = re.compile(
    r"\b(?:MERGE\s+(?:WITH\s+SCHEMA\s+EVOLUTION\s+)?INTO|INSERT\s+(?:INTO|OVERWRITE)(?:\s+TABLE)?|DELETE\s+FROM|UPDATE)"
    r"\s+(?:IDENTIFIER\s*\((?P<identifier>[^)]*)\)|(?P<name>[\w.`{}$:]+))"
    r"|\b(?:saveAsTable|toTable|insertInto|writeTo|forName)\s*\(\s*(?:[\w.]+\s*,\s*)?[rfRF]?[\"'](?P<string>[^\"']+)",
    re.I,
)


def not_delta_tables(root: Path, skipped: list[str]) -> dict[str, str]:
    """The tables delta-lint's front end finds the project creating in another format
    (`Links.non_delta` of each file, as `check` leaves their writes out), by the last
    part of the name, lower case -> the name as read."""
    from delta_lint.frontend import analyze_path  # the front end's own decision

    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in (".py", ".sql", ".ipynb") or not path.is_file():
            continue
        rel = path.relative_to(root)
        if any(part in _SKIP_DIRS or part.startswith(".") for part in rel.parts[:-1]):
            continue
        if _is_skipped(rel.as_posix(), skipped):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if len(text) > 2_000_000 or not _OTHER_FORMAT_HINT.search(text):
            continue
        links = analyze_path(path, rel.as_posix()).links
        for name in links.non_delta if links is not None else ():
            out.setdefault(_last_part(name), name)
    return out


def _last_part(name: str) -> str:
    return name.replace("`", "").strip("'\" ").rsplit(".", 1)[-1].lower()


def _target_in(tables: dict[str, str], texts: dict[str, list[str]], root: Path, w: PlainWrite) -> str | None:
    """The table of `tables` (see `not_delta_tables`) that write `w`'s statement writes,
    if it writes one: the statement's own target, never a table it only reads."""
    if w.path not in texts:
        texts[w.path] = (root / w.path).read_text(encoding="utf-8", errors="replace").split("\n")
    lo, hi = w.span
    statement = "\n".join(texts[w.path][max(lo, 1) - 1 : max(hi, w.line)])
    for m in _WRITE_TARGET.finditer(statement):
        if m["identifier"] is not None:
            quoted = re.findall(r"'([^']*)'|\"([^\"]*)\"", m["identifier"])
            target = "".join(a or b for a, b in quoted) or m["identifier"]
        else:
            target = m["name"] or m["string"]
        found = tables.get(_last_part(target))
        if found is not None:
            return found
    return None


def load_json(text: str) -> dict | list | None:
    try:
        return json.loads(text) if text.strip() else None
    except json.JSONDecodeError:
        return None
