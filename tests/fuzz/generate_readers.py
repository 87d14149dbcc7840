"""Generated inputs for the readers added after the first fuzzing suite: value
functions the evaluator interprets, Airflow DAG files, dbt projects and the
language server's byte streams. Each generator plants what its reader must find
(a literal write beside the evaluated one, the Databricks tasks of a DAG, each
model's materialization), so the suite checks meaning, not only survival.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field

from hypothesis import strategies as st

from tests.fuzz.generate import NAMES, Project, projects

# -- evaluator programs -------------------------------------------------------------------------

# Statements of a value function's body, over `s` (a string that starts as the
# argument) and `n` (a small integer). Each is valid Python; together they grow
# strings, loop, call helpers (and themselves) and run regexes of the repository.
# {k} is a small number, {big} a large one, {helper} another function of the module.
EVAL_STATEMENTS = [
    "s = s + '_{k}'",
    "s = s + s",
    "s = s * {k}",
    "s = s * {big}",
    "s = '%s_%s' % (s, n)",
    "s = '%*s' % ({big}, s)",
    "s = s.replace('a', s)",
    "s = s.upper().lower()",
    "s = f'{{s}}_{{n}}'",
    "s = '_'.join([s] * {k})",
    "s = '_'.join(s for _ in range({big}))",
    "n = n + {k}",
    "n = n * n",
    "n = 2 ** {big}",
    "n = int('9' * {big})",
    "s = s + str(n)",
    "for i in range({big}):\n    pass",
    "for i in range({big}):\n    s = s + 'x'",
    "for i in range({k}):\n    for j in range({big}):\n        n = n + 1",
    "while n < {big}:\n    n = n + 1",
    "while True:\n    pass",
    "while True:\n    n = n + 1",
    "s = {helper}(s)",
    "s = {helper}({helper}(s))",
    "s = name(s)",
    "s = re.sub('(a+)+$', 'b', s)",
    "s = re.sub('(a|aa)*c', '', s + 'a' * {big})",
    "s = re.sub('a{{1,{big}}}b?', 'x', s)",
    "s = re.sub('(?P<x>a)', '\\\\g<x>\\\\g<x>', s)",
    "m = re.match('([a-z]+)_?(\\\\d*)', s)\nif m:\n    s = m.group(1)",
    "s = re.escape(s)",
    "s = s[:{k}]",
    "s = s[::-1]",
    "try:\n    s = s + [1]\nexcept Exception:\n    s = s + '_e'",
    "parts = [s]\nfor i in range({k}):\n    parts.append(parts[-1] + parts[-1])\ns = parts[-1]",
    "d = {{'a': s}}\nfor i in range({big}):\n    d[i] = d.get(i - 1, s)\ns = d['a']",
    "s = os.getenv('NEVER_SET_{k}', s)",
    "if len(s) > {k}:\n    s = s[:{k}]\nelse:\n    s = s + '_'",
    "return s",
]


def _indent(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in text.split("\n"))


@st.composite
def eval_body(draw, helpers: list[str]) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        template = draw(st.sampled_from(EVAL_STATEMENTS))
        if "{helper}" in template and not helpers:
            continue
        lines.append(
            template.format(
                k=draw(st.integers(0, 9)),
                big=draw(st.sampled_from([10, 1_000, 100_000, 10**7, 10**9])),
                helper=draw(st.sampled_from(helpers)) if helpers else "",
            )
        )
    lines.append("return s")
    return _indent("n = len(x)\ns = x\n" + "\n".join(lines), 4)


# Statements whose value the evaluator must know, with what each does in Python:
# the oracle for `known(x)`, whose table is planted. Values stay short (k <= 3).
# Loops are left out: the evaluator does not follow them (their values are unknown).
KNOWN_STATEMENTS = [
    ("s = s + '_{k}'", lambda s, k: s + f"_{k}"),
    ("s = s.upper().lower()", lambda s, k: s.upper().lower()),
    ("s = '_'.join([s] * {k})", lambda s, k: "_".join([s] * k)),
    ("s = s[:{k}] + s", lambda s, k: s[:k] + s),
    ("s = s[::-1]", lambda s, k: s[::-1]),
    ("s = f'{{s}}{k}'", lambda s, k: f"{s}{k}"),
    ("s = s.replace('a', 'b{k}')", lambda s, k: s.replace("a", f"b{k}")),
    ("s = '%s_%d' % (s, {k})", lambda s, k: f"{s}_{k:d}"),
    ("if len(s) > {k}:\n    s = s[:{k}]\nelse:\n    s = s + 'z'", lambda s, k: s[:k] if len(s) > k else s + "z"),
]


@st.composite
def known_function(draw) -> tuple[str, str]:
    """`known(x)` of statements the evaluator interprets, and its value for 'a'."""
    lines, value = [], "a"
    for _ in range(draw(st.integers(1, 4))):
        template, effect = draw(st.sampled_from(KNOWN_STATEMENTS))
        k = draw(st.integers(0, 3))
        lines.append(template.format(k=k))
        value = effect(value, k)
    return "def known(x):\n" + _indent("s = x\n" + "\n".join(lines) + "\nreturn s", 4), value


@dataclass
class EvaluatorProject:
    project: Project
    calls: int


@st.composite
def evaluator_projects(draw) -> EvaluatorProject:
    """A project module `lib.py` of value functions (helpers that call each other,
    `name`, which may call itself, and `known`, of what the evaluator interprets)
    and a job file that calls `known('a')` in a write's table, then `name(...)` in
    the table of up to 60 writes, beside one write of a literal table. Planted: the
    literal write, which no value function may hide, and `known`'s, whose table is
    the value Python gives."""
    helpers = [f"h{i}" for i in range(draw(st.integers(0, 3)))]
    functions = []
    for i, helper in enumerate(helpers):
        functions.append(f"def {helper}(x):\n" + draw(eval_body(helpers[:i] + helpers[i + 1 :])))
    functions.append("def name(x):\n" + draw(eval_body(helpers)))
    known, value = draw(known_function())
    functions.insert(0, known)
    lib = "import os\nimport re\n\n\n" + "\n\n\n".join(functions) + "\n"
    calls = draw(st.sampled_from([1, 1, 3, 60]))
    job = "from lib import known, name\nfrom delta.tables import DeltaTable\n\ndf = spark.table('src')\n"
    job += "spark.sql(f\"INSERT INTO s_{known('a')}.t SELECT 1\")\n"  # first: before `name` spends the budget
    job += "".join(f"spark.sql(f\"INSERT INTO {{name('a{i}')}}.t SELECT 1\")\n" for i in range(calls))
    literal = "s_lit.t_" + draw(NAMES)
    job += f'df.write.format("delta").mode("append").saveAsTable("{literal}")\n'
    project = Project(tables=[literal])
    project.files = {"lib.py": lib, "job.py": job}
    project.planted.add(("job.py", literal, "blind_append"))
    project.planted.add(("job.py", f"s_{value}.t", "blind_append"))
    return EvaluatorProject(project, calls)


# -- Airflow DAGs -------------------------------------------------------------------------------

AIRFLOW_IMPORTS = (
    "from datetime import datetime, timedelta\n\n"
    "from airflow import DAG\n"
    "from airflow.models.baseoperator import chain\n"
    "from airflow.operators.empty import EmptyOperator\n"
    "from airflow.providers.databricks.operators.databricks import (\n"
    "    DatabricksNotebookOperator,\n    DatabricksSubmitRunOperator,\n    DatabricksTaskOperator,\n)\n\n"
)
# DAG arguments, right and wrong
DAG_ARGS = [
    'schedule="0 2 * * *"',
    'schedule="@daily"',
    "schedule=None",
    "schedule=timedelta(hours=1)",
    "schedule=5",
    'schedule="99 99 * * *"',
    'schedule_interval="@hourly"',
    "max_active_runs=3",
    'max_active_runs="x"',
    "max_active_runs=-1",
    "catchup=True",
    "catchup=[1]",
    "start_date=datetime(2024, 1, 1)",
    "default_args={'retries': 1}",
    "tags=5",
]
# tasks that are wrong or not ours: they may be reported, never stop the run
ODD_TASKS = [
    "EmptyOperator(task_id='{id}')",
    "DatabricksNotebookOperator(task_id='{id}')",
    "DatabricksNotebookOperator(task_id={n}, notebook_path='/Repos/x/y')",
    "DatabricksNotebookOperator(task_id='{id}', notebook_path={n})",
    "DatabricksNotebookOperator(task_id='{id}', notebook_path=['a', 'b'])",
    "DatabricksSubmitRunOperator(task_id='{id}', json={n})",
    "DatabricksSubmitRunOperator(task_id='{id}', json={{'notebook_task': 5}})",
    "DatabricksSubmitRunOperator(task_id='{id}', json={{'tasks': [5, {{'task_key': 7}}]}})",
    "DatabricksSubmitRunOperator(task_id='{id}', tasks='x')",
    "DatabricksTaskOperator(task_id='{id}', task_config=[1])",
    "DatabricksNotebookOperator(notebook_path='/Repos/x/missing')",
    "DatabricksNotebookOperator(task_id='{id}', notebook_path=f'{{undefined}}/x/missing')",
]


@dataclass
class AirflowProject:
    project: Project
    expected: set[tuple[str, str, str]] = field(default_factory=set)  # (dag, task, file)


def _airflow_task(path: str, form: str, root: str) -> tuple[str, str]:
    """A Databricks task running `path` in one of the operator's forms: its code
    and the file it runs."""
    stem = path[: -len(".py")] if path.endswith((".py",)) else path
    stem = stem[: -len(".ipynb")] if stem.endswith(".ipynb") else stem
    if path.endswith(".sql"):  # a file task's path starts at the DAG file's folder
        rel = posixpath.relpath(path, "dags")
        if form == "task_config":
            return (
                f"DatabricksTaskOperator(task_id='{{id}}', task_config={{{{'sql_task': {{{{'file': {{{{'path': '{rel}'}}}}}}}}}}}})",
                path,
            )
        return (
            f"DatabricksSubmitRunOperator(task_id='{{id}}', json={{{{'sql_task': {{{{'file': {{{{'path': '{rel}'}}}}}}}}}}}})",
            path,
        )
    if form == "notebook":
        return f"DatabricksNotebookOperator(task_id='{{id}}', notebook_path='{root}/{stem}', source='WORKSPACE')", path
    if form == "json":
        return (
            f"DatabricksSubmitRunOperator(task_id='{{id}}', json={{{{'notebook_task': {{{{'notebook_path': '{root}/{stem}'}}}}}}}})",
            path,
        )
    return (
        f"DatabricksSubmitRunOperator(task_id='{{id}}', notebook_task={{{{'notebook_path': '{root}/{stem}'}}}})",
        path,
    )


@st.composite
def airflow_projects(draw) -> AirflowProject:
    """A project's job files with planted writes and DAG files running them:
    Databricks operators in their forms (notebook path, `json=`, keyword task,
    `task_config`) under `with DAG(...)`, `dag = DAG(...)` or `@dag`; odd tasks
    beside them (missing arguments, values of the wrong type, a task outside any
    DAG); DAG arguments of the wrong type; and order by chains of `>>` thousands of
    terms long, cycles, lists on either side, `chain(...)` and `set_downstream`.
    Every Databricks task written right is expected in the schedule."""
    project = draw(projects(max_files=3))
    files = sorted(project.files)
    result = AirflowProject(project)
    for d in range(draw(st.integers(1, 2))):
        dag_id = f"dag_{d}"
        root = draw(st.sampled_from(["/Workspace/Users/me@example.com/proj", "/Repos/me/proj", ""]))
        names, lines = [], []
        for t in range(draw(st.integers(1, 5))):
            var = f"t{t}"
            if draw(st.integers(0, 3)) == 0:
                code = draw(st.sampled_from(ODD_TASKS)).format(id=var, n=draw(st.integers(-5, 5)))
            else:
                file = draw(st.sampled_from(files))
                template, runs = _airflow_task(
                    file, draw(st.sampled_from(["notebook", "json", "keyword", "task_config"])), root
                )
                code = template.format(id=var)
                result.expected.add((dag_id, var, runs))
            names.append(var)
            lines.append(f"{var} = {code}")
        order = draw(st.sampled_from(["none", "chain", "long", "cycle", "lists", "call", "set"]))
        if order == "chain":
            lines.append(" >> ".join(names))
        elif order == "long":  # a chain of thousands of `>>`: no recursion limit, no quadratic walk
            lines.append(" >> ".join(draw(st.lists(st.sampled_from(names), min_size=500, max_size=3000))))
        elif order == "cycle":
            lines.append(" >> ".join([*names, names[0]]))
        elif order == "lists":
            lines.append(f"{names[0]} >> [{', '.join(names[1:])}] >> {names[-1]}")
            lines.append(f"[{', '.join(names)}] << {names[0]}")
        elif order == "call":
            lines.append(f"chain({', '.join(names)}, [{', '.join(names)}], 5)")
        elif order == "set":
            lines.append(f"{names[0]}.set_downstream({names[-1]})\n{names[-1]}.set_upstream([{names[0]}, 5])")
        args = ", ".join(draw(st.lists(st.sampled_from(DAG_ARGS), max_size=3, unique=True)))
        form = draw(st.sampled_from(["with", "assigned", "decorator"]))
        body = "\n".join(lines)
        if form == "with":
            text = f"with DAG('{dag_id}', {args}) as dag:\n" + _indent(body, 4) + "\n"
        elif form == "assigned":
            body = body.replace("task_id=", "dag=dag, task_id=")
            text = f"dag = DAG(dag_id='{dag_id}', {args})\n" + body + "\n"
        else:
            text = (
                "from airflow.decorators import dag\n\n\n"
                f"@dag(dag_id='{dag_id}', {args})\ndef make():\n" + _indent(body, 4) + "\n\n\nmake()\n"
            )
        if draw(st.integers(0, 5)) == 0:  # a task outside any DAG of a file with two
            text += "\nstray = EmptyOperator(task_id='stray')\n"
        if draw(st.integers(0, 7)) == 0:  # cut short: a DL003 at its line, nothing expected of it
            text = text[: draw(st.integers(0, len(text) - 1))] + "\n(("
            result.expected = {e for e in result.expected if e[0] != dag_id}
        project.files[f"dags/{dag_id}.py"] = AIRFLOW_IMPORTS + text
    return result


# -- dbt projects -------------------------------------------------------------------------------

# (materialization, strategy or None) -> the kind `intents` reports; None: writes nothing
DBT_KINDS: dict[tuple[str, str | None], str | None] = {
    ("incremental", None): "merge",
    ("incremental", "merge"): "merge",
    ("incremental", "append"): "blind_append",
    ("incremental", "insert_overwrite"): "full_overwrite",
    ("table", None): "create_or_replace",
    ("materialized_view", None): "full_overwrite",
    ("streaming_table", None): "streaming_write",
    ("view", None): None,
    ("ephemeral", None): None,
}
# config() arguments that do not change the kind
DBT_HARMLESS = [
    "unique_key='id'",
    "unique_key=['id', 'day']",
    "schema='marts'",
    "alias='a_{n}'",
    "tags=['nightly']",
    'post_hook="select 1"',
    "unique_key=var('key')",
    "alias='x' ~ 'y'",
    "schema=none",
    "incremental_predicates=[\"DBT_INTERNAL_DEST.day > '2024-01-01'\"]",
    "meta={{'a': [1, {{'b': true}}]}}",
]
# odd config() calls: anything may come of them but an internal error
DBT_ODD = [
    "{{{{ config(materialized=5) }}}}",
    "{{{{ config(materialized=['table']) }}}}",
    "{{{{ config(materialized='table', enabled='no') }}}}",
    "{{{{ config(materialized='incremental', incremental_strategy=5) }}}}",
    "{{{{ config(materialized='incremental', incremental_strategy='replace_where', incremental_predicates=5) }}}}",
    "{{{{ config(materialized='incremental', partition_by=5, incremental_strategy='insert_overwrite') }}}}",
    "{{{{ config(materialized='custom_thing') }}}}",
    "{{{{ config(**{{'materialized': 'table'}}) }}}}",
    "{{{{ config('table') }}}}",
    "{{{{ config(materialized='table'",
    "{{{{ config(materialized='table', alias=('x' ~ var('y')) " + "[" * 300,
    "{{% if x %}}{{{{ config(materialized='table') }}}}{{% endif %}}",
    "{{{{ config(alias={n}) }}}}",
    "{{{{ config(alias='" + "z" * 300 + "') }}}}",
]
DBT_PROJECT_ODD = ["models: 5", "models: [1, 2]", "model-paths: 5", "model-paths: ['../../outside']", "name: [1]"]


@dataclass
class DbtProject:
    project: Project
    expected: dict[str, str]  # model path -> kind, for models whose materialization is known


@st.composite
def dbt_projects(draw) -> DbtProject:
    """A dbt project: `dbt_project.yml` with folder configs (right, or a value of
    the wrong type), models whose `config()` names a known materialization (with
    harmless arguments beside it) or an odd one, and a bundle whose `dbt_task`s
    select with generated selectors. Each model whose materialization is known,
    from its own `config()` or its folder's, is expected with its kind."""
    files: dict[str, str] = {}
    expected: dict[str, str] = {}
    folder_kind = draw(st.sampled_from([None, *sorted(DBT_KINDS, key=str)]))
    project_yml = "name: shop\nprofile: shop\nversion: '1.0'\n"
    odd_project = draw(st.integers(0, 5)) == 0
    if odd_project:
        project_yml += draw(st.sampled_from(DBT_PROJECT_ODD)) + "\n"
    elif folder_kind is not None:
        project_yml += f"models:\n  shop:\n    marts:\n      +materialized: {folder_kind[0]}\n"
        if folder_kind[1]:
            project_yml += f"      +incremental_strategy: {folder_kind[1]}\n"
    files["proj/dbt_project.yml"] = project_yml
    for m in range(draw(st.integers(1, 6))):
        folder = draw(st.sampled_from(["", "marts/", "marts/deep/"]))
        path = f"proj/models/{folder}m_{m}.sql"
        choice = draw(st.sampled_from(["known", "known", "folder", "odd"]))
        n = draw(st.integers(0, 99))
        if choice == "odd":
            head = draw(st.sampled_from(DBT_ODD)).format(n=n)
        elif choice == "folder":
            head = ""
            inherited = folder_kind if folder.startswith("marts/") else None
            if not odd_project and inherited is not None and DBT_KINDS[inherited] is not None:
                expected[path] = DBT_KINDS[inherited]
        else:
            # an incremental model names its strategy: a folder's would otherwise apply
            materialized, strategy = draw(st.sampled_from(sorted(set(DBT_KINDS) - {("incremental", None)}, key=str)))
            args = [f"materialized='{materialized}'"]
            if strategy:
                args.append(f"incremental_strategy='{strategy}'")
            args += [a.format(n=n) for a in draw(st.lists(st.sampled_from(DBT_HARMLESS), max_size=3, unique=True))]
            head = "{{ config(" + ", ".join(draw(st.permutations(args))) + ") }}"
            if not odd_project and DBT_KINDS[(materialized, strategy)] is not None:
                expected[path] = DBT_KINDS[(materialized, strategy)]
        files[path] = head + f"\nselect * from {{{{ ref('m_{(m + 1) % 6}') }}}} where id > {n}\n"
    selectors = [
        "dbt build",
        "dbt run",
        "dbt run --select m_0",
        "dbt run -s tag:nightly",
        "dbt run --select state:modified+",
        "dbt run --select +m_1+ --exclude m_2",
        "dbt run --select 'path:models/marts'",
        "dbt run --select @m_3 m_4,tag:x",
        "dbt seed",
        "dbt run --select",
        "dbt --warn-error run -m 1+m_0+2",
        "dbt run --select " + "m_0," * 500,
    ]
    commands = draw(st.lists(st.sampled_from(selectors), min_size=1, max_size=3))
    if draw(st.booleans()):
        files["databricks.yml"] = (
            "bundle:\n  name: shop\nresources:\n  jobs:\n    nightly:\n      name: nightly\n      tasks:\n"
            "        - task_key: dbt\n          dbt_task:\n            project_directory: proj\n"
            f"            commands: {json.dumps(commands)}\n            catalog: main\n            schema: analytics\n"
        )
    return DbtProject(Project(files=files), expected)


# -- the language server's framing --------------------------------------------------------------

_INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}


def framed(body: bytes, length: int | None = None, headers: bytes = b"") -> bytes:
    return b"Content-Length: %d\r\n" % (len(body) if length is None else length) + headers + b"\r\n" + body


@st.composite
def lsp_streams(draw) -> bytes:
    """What a client (or a broken one) may write to the server: well-formed
    messages, bodies that are not JSON or not a JSON object, lengths too short, too
    long, negative, huge or of many digits, extra and malformed header lines, a
    message cut short, and raw bytes."""
    pieces = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(
            st.sampled_from(["ok", "notjson", "notobject", "short", "long", "huge", "header", "raw", "cut", "odd"])
        )
        body = json.dumps(_INITIALIZE).encode()
        if kind == "ok":
            pieces.append(framed(body))
        elif kind == "notjson":
            pieces.append(framed(draw(st.binary(min_size=1, max_size=40))))
        elif kind == "notobject":
            value = draw(st.sampled_from(["[]", "null", "5", '"x"', "[1, {}]", '{"jsonrpc": 5}', "{}"]))
            pieces.append(framed(value.encode()))
        elif kind == "short":
            pieces.append(framed(body, length=draw(st.integers(1, len(body) - 1))))
        elif kind == "long":
            pieces.append(framed(body, length=len(body) + draw(st.integers(1, 100))))
        elif kind == "huge":
            length = draw(st.sampled_from([2**31, 2**63, 10**12, 10**40]))
            pieces.append(b"Content-Length: %d\r\n\r\n" % length)
        elif kind == "header":
            extra = draw(
                st.sampled_from(
                    [
                        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n",
                        b"content-length: 3\r\n",
                        b"Content-Length: -1\r\n",
                        b"Content-Length: 1e3\r\n",
                        b"X: " + b"y" * 20_000 + b"\r\n",
                        b"\n",
                        b"Content-Length: 2\r\n",
                    ]
                )
            )
            pieces.append(framed(body, headers=extra))
        elif kind == "raw":
            pieces.append(draw(st.binary(max_size=60)))
        elif kind == "cut":
            whole = framed(body)
            pieces.append(whole[: draw(st.integers(0, len(whole) - 1))])
        else:  # a method of ours or of the protocol with parameters of any shape
            method = draw(
                st.sampled_from(["textDocument/didOpen", "textDocument/didClose", "$/delta-lint/droppedMessage", "x"])
            )
            params = draw(st.sampled_from([None, 5, [], {}, {"textDocument": 5}, {"bytes": "x"}]))
            pieces.append(framed(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode()))
    return b"".join(pieces)
