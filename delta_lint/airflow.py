"""Airflow DAGs that run Databricks or Spark work, read as the jobs the schedule sees.

Many teams orchestrate their Databricks notebooks from Airflow instead of a job
schedule. A DAG file is read as Python *text* with `ast` (never imported or run):

* a DAG is `with DAG(...)`, `name = DAG(...)` (its operators say `dag=name` or
  sit in `with name:`), or a function decorated with `@dag(...)`, also when a
  function or method of the file builds it (read once per call, with the call's
  arguments: `_DagFile._builder`); it becomes one
  `bundle.Job` keyed by its `dag_id`, with its `schedule` / `schedule_interval`
  (a cron string, a preset such as `@daily`, `None` for manual runs) as a Quartz
  cron and `max_active_runs` as the runs that may overlap (with `catchup=True`
  and no `max_active_runs`, Airflow's default of 16 runs of a backlog);
* every call with a `task_id` is one of its tasks. The Databricks operators say
  which files run: `DatabricksSubmitRunOperator` (`json=` or `notebook_task=`,
  `spark_python_task=`, `tasks=`), `DatabricksNotebookOperator` (`notebook_path`,
  `source`), `DatabricksTaskOperator` (`task_config`), read through the bundle
  reader's task rules (`bundle.job_from_settings`) so paths are matched alike; a
  `DatabricksRunNowOperator` starts a job of the project (`job_name`, `job_id`),
  like a `run_job_task`; the job a `DatabricksCreateJobsOperator` creates (`json=`
  and the settings given as keywords) is a job of its own, with its own
  `max_concurrent_runs`, schedule or trigger. `DatabricksSqlOperator` and
  `DatabricksCopyIntoOperator` run SQL in a warehouse: the Python front end reads
  their statements at the operator's line, so the task runs the DAG file (a
  `sql="x.sql"` of the template folder: that file), as does a `@task` function or a
  `PythonOperator` callable that sends SQL through a `DatabricksSqlHook` (or the
  SQL connector: `frontend.warehouse`); beside other such tasks, each runs only
  the lines of its operator or function (`Task.lines`). A task that runs dbt (a `BashOperator` command, the
  dbt operators of airflow-dbt-python, cosmos' `DbtTaskGroup`) is a `dbt_task`
  (`dbt.load_found_dbt` finds the models it runs); a task that runs one Python
  file runs that file: a `SparkSubmitOperator`'s `application`, the command of a
  `BashOperator`, `DockerOperator`, `KubernetesPodOperator` or `SSHOperator`
  (`python x.py`, `spark-submit x.py`), a `PythonOperator` callable or `@task`
  function of the file that runs one through `subprocess` or `os.system`. The
  worker's paths in them (`cd /opt/airflow/dbt`, `--project-dir /usr/app/dbt`) are
  mapped to the project's by its compose volumes and Dockerfile copies
  (`container`), else matched by their tail with a note. A `@task` function of
  another module of the project called in the DAG runs the DAG file's lines of
  the call, where the Python front end reads it; a `PythonOperator` handed such a
  function is not analysed (its writes are read at no call). Other operators and
  `@task` functions are tasks without files that still order the others. A task group (`TaskGroup`,
  `DatabricksWorkflowTaskGroup`, whose operators are one Databricks job's tasks)
  stands for its tasks, which are named `group.task` as Airflow names them;
* the order is `a >> b`, `a << b`, lists on either side, `chain(...)`,
  `cross_downstream(...)`, `set_upstream` / `set_downstream`: tasks with no path
  between them run in parallel.

Values are the value layer's (`airflow_values`, on `values.scopes.Scopes`): the
names at the operator's statement, read in order from the start of its function
or the module (a name bound on two ways of an `if` is one of both values, never
the last one written), f-strings, `+`, `os.path.join`, the module's own helper
functions; a string whose leading part is unknown keeps its known tail,
which is matched by its tail and name as other job paths are (`bundle._locate`,
`bundle.match_by_name`). Anything
else is unknown, and a task whose file cannot be known says so (`Task.problem`,
reported as DL006); one budget per file bounds the reading, and a value given up
is a note at its line. A loop over values
the value layer knows item by item (a list, tuple or set, a dict's keys, `.items()` or
`.values()`, through names and subscripts) is read once per value, with its
names bound to that value: each round's tasks take their ids and paths from it,
`tasks[name] = Op(...)` keeps them in a dict of tasks, and the loop's `>>` orders
them. A loop over values only a run knows is read once for all its rounds, each
task standing for its copies (`_DagFile._unknown_rounds`); tasks made in helper
functions are not read. The DAG says so in a note.
"""

from __future__ import annotations

import ast
import os
import posixpath
import re
import shlex
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from delta_lint.airflow_values import DagValues, Where
from delta_lint.bundle import (
    RUN_JOB_UNREAD,
    Job,
    Task,
    Workflows,
    found_problem,
    job_from_settings,
    listing,
    named_parameters,
    probe_file,
)
from delta_lint.config import ConfigError
from delta_lint.container import Mount, project_paths, read_environment, read_mounts
from delta_lint.cron import HORIZON, HORIZON_START, CronError, fire_times
from delta_lint.cron import check as check_cron
from delta_lint.frontend.values.budget import Budget
from delta_lint.frontend.values.lattice import Template, Unknown
from delta_lint.frontend.warehouse import METHODS as CLIENT_METHODS
from delta_lint.frontend.warehouse import ClientOrigins
from delta_lint.model import Location
from delta_lint.safeio import read_input_text

MAX_DAG_BYTES = 2 * 1024 * 1024  # as for other job definitions found by their bytes
MAX_DEPTH = 24  # nested values and name lookups followed at most
MAX_TASKS = 5_000  # tasks read from one file at most
MAX_ROUNDS = 256  # loop rounds that make tasks read at most in a file (nested: all rounds): past it, not read
# Airflow's `[core] max_active_runs_per_dag` default (the runs of a DAG active at once when
# it sets no `max_active_runs`: a backlog's, or hand-started ones), and how a deployment sets it
RUNS_PER_DAG = 16
RUNS_PER_DAG_ENV = "AIRFLOW__CORE__MAX_ACTIVE_RUNS_PER_DAG"
_AIRFLOW_DEFAULT = "Airflow's default; `airflow.cfg` or the deployment may set another"
MAPPED_RUNS = 16  # Airflow's `max_active_tasks_per_dag` default: a mapped task's copies at once
UNKNOWN = Unknown("not given")  # a value the text does not tell

_PRESETS = {  # Airflow's cron presets as Quartz
    "@hourly": "0 0 * * * ?",
    "@daily": "0 0 0 * * ?",
    "@midnight": "0 0 0 * * ?",
    "@weekly": "0 0 0 ? * SUN",
    "@monthly": "0 0 0 1 * ?",
    "@quarterly": "0 0 0 1 1/3 ?",
    "@yearly": "0 0 0 1 1 ?",
    "@annually": "0 0 0 1 1 ?",
}
_DOW = ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")
_RUN_NOW = "DatabricksRunNowOperator"
_CREATE_JOBS = "DatabricksCreateJobsOperator"
# the Jobs API settings `DatabricksCreateJobsOperator` also takes as keyword arguments
_JOB_SETTINGS = (
    "name",
    "tasks",
    "job_clusters",
    "schedule",
    "continuous",
    "trigger",
    "max_concurrent_runs",
    "git_source",
    "parameters",
    "queue",
)
_FILE_OPERATORS = ("DatabricksSubmitRunOperator", "DatabricksNotebookOperator", "DatabricksTaskOperator")
# operators that run SQL in a warehouse as a task of the DAG: the Python front end reads
# their statements at the operator's line (`frontend.warehouse.operator_statements`)
_SQL_OPERATORS = ("DatabricksSqlOperator", "DatabricksCopyIntoOperator")
# dbt run from Airflow (airflow-dbt-python, airflow-dbt): the dbt command each operator runs
_DBT_OPERATORS = {
    "DbtRunOperator": "run",
    "DbtBuildOperator": "build",
    "DbtSnapshotOperator": "snapshot",
    "DbtSeedOperator": "seed",
}
_DBT_GROUPS = ("DbtTaskGroup",)  # astronomer-cosmos: one task per model, one task here
# apache-airflow-providers-apache-spark: `spark-submit` of its `application`
_SPARK_SUBMIT = ("SparkSubmitOperator",)
# operators that run a command (a shell string, or argv words) on the worker, in a
# container or on a host: the keywords whose words make the command, and the one
# naming the folder it runs in
_COMMAND_OPERATORS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "BashOperator": (("bash_command",), "cwd"),
    "DockerOperator": (("command",), "working_dir"),
    "KubernetesPodOperator": (("cmds", "arguments"), None),
    "SSHOperator": (("command",), None),
}
# calls of a Python function that run a command: `subprocess.run([...])`, `os.system("...")`
_RUNNERS = {"run", "call", "check_call", "check_output", "Popen", "system", "popen"}
_SHELLS = ("bash", "sh", "/bin/bash", "/bin/sh")
_PLACEHOLDER = "__delta_lint_unknown__"  # a part of a command only a run knows (`_partly_known_script`)
_UNKNOWN_WORD = "{unknown}"  # a command word the text does not tell (never a file)
_DBT_COMMANDS = ("run", "build", "snapshot", "seed")


def load_found_airflow(root: Path, found: tuple[str, ...] | None = None) -> Workflows:
    """The DAGs of every Python file of the project that names Airflow and a DAG
    (`bundle.find_airflow_dags`); a file that does not parse is reported at its
    line, the others are read."""
    out = Workflows()
    found = listing("airflow", str(root)) if found is None else found
    out.listings.append(("airflow", str(root), found))
    mounts: tuple[Mount, ...] | None = None  # read once, for the first DAG file
    deployment: dict[str, dict[str, str]] = {}  # the compose / Dockerfile `AIRFLOW__...` settings
    code_files: list[str] = []  # project modules whose functions tasks run (`_DagFile.code_files`)
    for file in map(Path, found):
        label = _label(file, root)
        try:
            text = read_input_text(file, root, MAX_DAG_BYTES)
            tree = ast.parse(text, str(file))
        except SyntaxError as err:
            problem = ConfigError(f"{file}: not valid Python: {err.msg}", err.lineno, f"not valid Python: {err.msg}")
            out.problems.append(found_problem(file, root, problem))
            out.files.append(file)
            continue
        except (OSError, ValueError, RecursionError, MemoryError) as err:  # refused, NUL bytes, nested too deep
            out.problems.append(found_problem(file, root, ConfigError(f"{file}: {err}", None, f"cannot read: {err}")))
            out.files.append(file)
            continue
        if mounts is None:
            containers = listing("containers", str(root))
            out.listings.append(("containers", str(root), containers))
            mounts = read_mounts(containers, root)
            deployment = read_environment(containers, root, "AIRFLOW__")
            container_files = [Path(f) for f in containers]
        reader = _DagFile(tree, file, root, label, text)
        reader.mounts = mounts
        reader.deployment = deployment
        reader.read()
        for dag in reader.dags:
            if not dag.tasks:
                continue
            job = reader.job(dag)
            key = job.key if job.key not in out.jobs else f"{label}:{job.key}"
            out.jobs[key] = replace(job, key=key)
        for job in reader.created:  # read with the DAGs' tasks: a job of its own
            key = job.key if job.key not in out.jobs else f"{label}:{job.key}"
            out.jobs[key] = replace(job, key=key)
        out.notes += reader.notes
        for spent in reader.budget.spent:  # a value given up: the tasks that read it say what is unknown
            after = "this value and those read after it in the file are" if spent.lasting else "this value is"
            out.notes.append(f"{label}:{spent.line}: value not computed: {spent.why}; {after} unknown")
        if reader.dags:
            out.files.append(file)
        code_files += reader.code_files
    out.source = ", ".join(_label(f, root) for f in out.files)
    out.files += [root / rel for rel in dict.fromkeys(code_files)]  # read: an edit reads the DAGs again
    if mounts is not None:  # what the container paths were read from: an edit reads the DAGs again
        out.files += container_files
    return out


def resolve_started_jobs(workflows: Workflows) -> None:
    """A task that starts a job by name or id (Airflow's `DatabricksRunNowOperator`)
    names it by its key once the job is known to the project's readers (by its
    name, or by the `job_id` of its Jobs JSON export); one that no
    reader defines cannot be analysed, and says so. A bundle's `run_job_task` that
    starts a job of the project whose only runs are the ones its starters make (no
    schedule, trigger or continuous run of its own) is analysed through that job,
    which the schedule runs inside the starting task: it is no task "delta-lint
    cannot read". One starting a job that also runs on its own keeps its note, which
    says why (the runs it starts are not placed at its time)."""
    names: dict[str, list[str]] = {}  # a job's name, and the id its export gives, -> its keys
    for job in workflows.jobs.values():
        names.setdefault(job.name, []).append(job.key)
        if job.job_id and job.job_id != job.name:
            names.setdefault(job.job_id, []).append(job.key)
    for job in workflows.jobs.values():
        for key, task in job.tasks.items():
            if task.starts is None:
                continue
            if task.starts[0] not in workflows.jobs:
                found = names.get(task.starts[0], [])
                if len(found) == 1:
                    task = job.tasks[key] = replace(task, starts=(found[0], task.starts[1]))
                elif task.problem is None:
                    why = "several jobs have that name" if found else "no job definition of this project defines it"
                    job.tasks[key] = replace(task, problem=f"it starts job `{task.starts[0]}`, and {why}")
                    continue
            child = workflows.jobs.get(task.starts[0])
            if child is None or task.problem != RUN_JOB_UNREAD or child.key == job.key:
                continue
            own = "its schedule" if child.cron else "continuously" if child.continuous else child.trigger
            if own or child.paused:
                if child.paused and not child.continuous:  # a paused schedule or trigger starts nothing
                    what = "its schedule or trigger is paused: it runs only when started by hand or by another job"
                else:
                    what = f"which also runs on its own ({own})"
                problem = f"it starts job `{child.key}`, {what}: the runs this task starts are not paired at its time"
                job.tasks[key] = replace(task, problem=problem)
            else:
                job.tasks[key] = replace(task, problem=None)


def _label(file: Path, root: Path) -> str:
    try:
        return file.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return file.as_posix()


@dataclass
class _Dag:
    dag_id: str
    line: int
    keywords: dict[str, ast.expr]
    tasks: dict[str, tuple[ast.Call, str]] = field(default_factory=dict)  # task id -> (call, operator)
    upstream: dict[str, set[str]] = field(default_factory=dict)
    values: Where = field(default_factory=Where)  # where its values are read


@dataclass
class _Group:
    group_id: str
    members: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Ref:
    """A task of a DAG, as an expression's value."""

    dag: int
    task_id: str


def _callee(node: ast.AST) -> str:
    """The last name of a call's function (`DAG`, `airflow.DAG` -> "DAG")."""
    func = node.func if isinstance(node, ast.Call) else node
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


_DBT_ENV = {"DBT_PROJECT_DIR": "project_directory", "DBT_PROFILES_DIR": "profiles_directory"}
_SEPARATORS = ("&&", ";", "||", "|", "\n")


def _shell_steps(command: str) -> list[list[str]] | None:
    """A shell command's simple commands, as words: split at `&&`, `;`, `||`, `|`
    and at line ends (a multi-line `bash_command` is a script). None: not shell
    words (an unclosed quote)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True  # a word ends at a blank or an operator only: `spark://m:7077`, `tag:daily`
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        return None
    steps: list[list[str]] = [[]]
    for word in words:
        if word in _SEPARATORS or set(word) <= set(";&|\n"):
            steps.append([])
        else:
            steps[-1].append(word)
    return [step for step in steps if step]


def _dbt_of_shell(command: str, cwd: str | None = None) -> dict[str, Any] | None:
    """A shell command's dbt runs as a `dbt_task` document: `cd DIR` before sets the
    project directory (as do `--project-dir`, `DBT_PROJECT_DIR` and the operator's
    `cwd`), `--profiles-dir` (or `DBT_PROFILES_DIR`) the profiles'; commands other
    than dbt's writing ones are passed over. None: no dbt run. The paths are as
    written (the worker's: see `_DagFile._worker_path`)."""
    steps = _shell_steps(command)
    if steps is None:
        return None
    runs: list[str] = []
    spec: dict[str, Any] = {}
    here = cwd or ""  # the folder the next step runs in
    for step in steps:
        if step[0] == "export":
            step = step[1:]
        while step and "=" in step[0] and not step[0].startswith("-"):  # `VAR=x dbt run`, `export VAR=x`
            name, _, value = step.pop(0).partition("=")
            if name in _DBT_ENV and value:
                spec.setdefault(_DBT_ENV[name], value)
        if len(step) >= 2 and step[0] == "cd":
            here = posixpath.normpath(posixpath.join(here, step[1]))
        elif len(step) >= 2 and step[0] == "dbt" and step[1] in _DBT_COMMANDS:
            if here and not runs and "project_directory" not in spec:  # the folder of the first run
                spec["project_directory"] = here
            kept: list[str] = []
            args = iter(step)
            for arg in args:
                if arg in ("--project-dir", "--profiles-dir"):
                    value = next(args, "")  # relative to the folder the step runs in
                    value = posixpath.normpath(posixpath.join(here, value)) if here and value else value
                    spec["project_directory" if arg == "--project-dir" else "profiles_directory"] = value
                else:
                    kept.append(arg)
            runs.append(" ".join(kept))
    if not runs:
        return None
    return {**spec, "commands": runs}


_PYTHONS = ("python", "python3", "spark-submit")
_SPARK_SUBMIT_VALUES = {  # spark-submit options that take a value
    "--master",
    "--deploy-mode",
    "--class",
    "--name",
    "--jars",
    "--packages",
    "--exclude-packages",
    "--repositories",
    "--py-files",
    "--files",
    "--archives",
    "--conf",
    "-c",
    "--properties-file",
    "--driver-memory",
    "--driver-java-options",
    "--driver-library-path",
    "--driver-class-path",
    "--executor-memory",
    "--proxy-user",
    "--driver-cores",
    "--total-executor-cores",
    "--executor-cores",
    "--num-executors",
    "--principal",
    "--keytab",
    "--queue",
}
_PYTHON_VALUES = {"-W", "-X", "--check-hash-based-pycs"}  # python options that take a value


def _script_of_shell(command: str, cwd: str | None = None) -> str | None:
    """The Python file a shell command runs (`python x.py`, `python3 -u x.py`,
    `spark-submit --conf k=v x.py`), after a `cd DIR` (or the operator's `cwd`) when
    the path is relative; None when it runs none, or several (which one writes is
    not one task's)."""
    steps = _shell_steps(command)
    if steps is None:
        return None
    folder, found = cwd or "", []
    for step in steps:
        while step and "=" in step[0] and not step[0].startswith("-"):
            step = step[1:]
        if len(step) >= 2 and step[0] == "cd":
            folder = posixpath.normpath(posixpath.join(folder, step[1]))
            continue
        if not step or posixpath.basename(step[0]) not in _PYTHONS:
            continue
        takes_value = _SPARK_SUBMIT_VALUES if posixpath.basename(step[0]) == "spark-submit" else _PYTHON_VALUES
        args = iter(step[1:])
        for arg in args:
            if arg in ("-m", "-c") and takes_value is _PYTHON_VALUES:
                break  # a module or inline code: no file of the project by its path
            if arg in takes_value:
                next(args, None)
            elif not arg.startswith("-"):
                if arg.endswith(".py") or (_PLACEHOLDER in arg and not arg.endswith((".jar", ".R", ".r"))):
                    found.append(posixpath.join(folder, arg) if folder else arg)
                break
    return found[0] if len(set(found)) == 1 else None


def _script_of_command(words: list[Any], cwd: str | None) -> str | None:
    """The Python file a command runs: a shell string, or argv words (a word the
    text does not tell is `_UNKNOWN_WORD`, never a file); `bash -c "..."` runs its
    string as a shell command."""
    if len(words) == 1 and isinstance(words[0], str):
        return _script_of_shell(words[0], cwd)
    argv = [w if isinstance(w, str) else _UNKNOWN_WORD for w in words]
    if len(argv) >= 3 and argv[0] in _SHELLS and argv[1] in ("-c", "-lc"):
        return _script_of_shell(argv[2], cwd)
    return _script_of_shell(shlex.join(argv), cwd) if argv else None


def _profiles_from_project(spec: dict[str, Any]) -> dict[str, Any]:
    """Airflow's profiles folder is the worker's path; a `dbt_task`'s is the
    project's: two relative paths are made one relative to the other."""
    project, profiles = spec.get("project_directory", ""), spec.get("profiles_directory")
    if isinstance(profiles, str) and not profiles.startswith("/") and not str(project).startswith("/"):
        spec["profiles_directory"] = os.path.relpath(profiles, project or ".")
    return spec


def _keywords(call: ast.Call) -> dict[str, ast.expr]:
    return {k.arg: k.value for k in call.keywords if k.arg}


class _DagFile:
    """One DAG file's DAGs, tasks and order."""

    def __init__(self, tree: ast.Module, file: Path, root: Path, label: str, source: str = "") -> None:
        self.tree, self.file, self.root, self.label = tree, file, root, label
        self.mounts: tuple[Mount, ...] = ()  # the worker's folders (`container`): set by the loader
        self.deployment: dict[str, dict[str, str]] = {}  # `AIRFLOW__...` settings (`container`): set by the loader
        # which calls send SQL through a Databricks client (a `DatabricksSqlHook`, the connector)
        self.clients = ClientOrigins(tree, source)
        self.task_defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}  # `@task` function -> its definition
        # the file's values, within one budget (`airflow_values`)
        self.budget = Budget()
        self.values = DagValues(tree, label, self.budget)
        self.dags: list[_Dag] = []
        self.notes: list[str] = []
        self.bound: dict[str, Any] = {}  # name -> a DAG number, a list of _Ref, a _Group
        self.task_functions: dict[str, str] = {}  # `@task` function -> its task id
        # `@task_group` function -> (its definition, its group id): its body makes tasks where it is called
        self.group_functions: dict[str, tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]] = {}
        # call -> the task it made (a call is read once); keyed by the node itself, which
        # keeps it alive: a loop round's copied body is freed and its ids reused
        self.made: dict[ast.AST, list[_Ref]] = {}
        self.loose: list[tuple[str, ast.Call, str]] = []  # tasks outside any DAG: (id, call, operator)
        self.loose_upstream: dict[str, set[str]] = {}
        self.created: list[Job] = []  # jobs a `DatabricksCreateJobsOperator` creates or resets
        self._written: dict[str, Any] = {}  # a task of the DAG read -> its parameters as written
        self._inline: Counter[tuple[int, int]] | None = None  # see `_inline_spans`
        self.count = 0
        self.mapping = 0  # mapped task groups being read (`g.expand(...)`)
        self.mapped: set[ast.AST] = set()  # the calls of the tasks of a mapped group
        self.round_scopes: dict[ast.AST, Where] = {}  # the call of a task made in a loop -> where it reads
        self.rounds_left = MAX_ROUNDS  # loop rounds the file may still read, nested loops multiplying
        # names the file imports: local name -> (relative level, module, its attribute or None)
        self.imports: dict[str, tuple[int, str, str | None]] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    self.imports[a.asname or a.name] = (node.level, node.module or "", a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    local = a.asname or a.name.split(".")[0]
                    self.imports[local] = (0, a.name if a.asname else local, None)
        self._modules: dict[tuple[int, str], tuple[str | None, tuple, ast.Module | None]] = {}
        self.code_files: list[str] = []  # project modules whose functions its tasks run (read: kept)
        # an imported name called in a DAG -> the `@task` function of a project module it names, or None
        self.values.imported = self._imported_function
        self._factories: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] | None = None  # see `_factory`
        self.imported_tasks: dict[str, tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, tuple] | None] = {}
        # `from ... import DatabricksNotebookOperator as Nb`: local name -> imported name
        self.aliases = {
            a.asname: a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names if a.asname
        }

    def _name(self, node: ast.AST) -> str:
        """A call's (or a decorator's) function name, through `import ... as` aliases."""
        name = _callee(node)
        func = node.func if isinstance(node, ast.Call) else node
        return self.aliases.get(name, name) if isinstance(func, ast.Name) else name

    # -- walking ------------------------------------------------------------------------

    def read(self) -> None:
        self._walk(self.tree.body, None, [], Where())
        if self.loose and len(self.dags) == 1:  # `default_args` style: the file's one DAG
            for task_id, call, operator in self.loose:
                self.dags[0].tasks.setdefault(task_id, (call, operator))
            for task_id, ups in self.loose_upstream.items():
                self.dags[0].upstream.setdefault(task_id, set()).update(ups)

    def _walk(self, body: list[ast.stmt], dag: int | None, groups: list[_Group], scope: Where) -> None:
        for stmt in body:
            if isinstance(stmt, ast.With):
                self._with(stmt, dag, groups, scope)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, dag, groups, scope)
            elif isinstance(stmt, ast.ClassDef) and dag is None:
                for method in stmt.body:
                    if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self._function(method, dag, groups, scope, stmt)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                made = self._expr(stmt.value, dag, groups, scope)
                target = stmt.targets[0]
                if isinstance(target, ast.Name) and made is not None:
                    self.bound[target.id] = made
                elif isinstance(target, ast.Subscript):
                    self._item(target, made, scope)
            elif isinstance(stmt, ast.Expr):
                self._expr(stmt.value, dag, groups, scope)
            elif isinstance(stmt, ast.If):
                self._walk(stmt.body + stmt.orelse, dag, groups, scope)  # either branch may build the DAG
            elif isinstance(stmt, (ast.For, ast.While)) and (dag is not None or self.dags):
                # outside a `with DAG(...)` its tasks name their DAG (`dag=dag`) or are the file's one DAG's
                makes = any(
                    isinstance(n, ast.Call) and ("task_id" in _keywords(n) or self._factory(n.func) is not None)
                    for n in ast.walk(stmt)
                )
                if not makes and not any(_orders(n) for n in ast.walk(stmt)):
                    continue
                rounds = self._rounds(stmt, scope) if isinstance(stmt, ast.For) else None
                if rounds is not None and len(rounds) > self.rounds_left:
                    rounds = None  # past the file's budget of rounds (nested loops multiply them)
                if rounds is None and not makes:
                    continue  # orders tasks by names it cannot tell: not read
                if rounds is None:
                    self._unknown_rounds(stmt, dag, groups, scope)
                    continue
                self.rounds_left -= len(rounds)
                for bound in rounds:  # each round reads a copy: a call of the body makes one task a round
                    body = self.values.copied(stmt.body)
                    self._walk(body, dag, groups, scope.bind(bound, self.values.original(stmt)))

    def _unknown_rounds(self, loop: ast.For | ast.While, dag: int, groups: list[_Group], scope: Where) -> None:
        """A loop that makes tasks over values only a run knows (`for ts in
        make_list():`, a `while`), or over more rounds than the file may read: its
        body is read once, its loop names unknown, and each task it makes stands for
        its copies, one a round. The rounds run side by side (a mapped task's copies,
        up to Airflow's limit: `_mapped_runs`) unless the body orders a round after
        the last (`prev >> t; prev = t`: a name read before the body sets it), then
        one after another. A copy's id is the operator and its line; a value that
        differs per round is unknown, so a file named by it is not picked (the task
        says so). A note says the loop was read once."""
        names: dict[str, object] = {}
        if isinstance(loop, ast.For):
            for node in ast.walk(loop.target):
                if isinstance(node, ast.Name):
                    names[node.id] = UNKNOWN
        chained = _carries_order(loop.body)
        how = "one after another (each round ordered after the last)" if chained else "side by side"
        self.notes.append(
            f"{self.label}:{loop.lineno}: tasks made in a loop over values delta-lint cannot know (or more than "
            f"{MAX_ROUNDS} rounds in the file) are read once for all its rounds, which run {how}; "
            "values that differ per round are unknown"
        )
        if not chained:
            self.mapping += 1
        try:
            self._walk(loop.body, dag, groups, scope.bind(names, self.values.original(loop)))
        finally:
            if not chained:
                self.mapping -= 1

    def _with(self, stmt: ast.With, dag: int | None, groups: list[_Group], scope: Where) -> None:
        inner_dag, inner_groups = dag, groups
        for item in stmt.items:
            expr = item.context_expr
            name = item.optional_vars.id if isinstance(item.optional_vars, ast.Name) else None
            if isinstance(expr, ast.Call) and self._name(expr) == "DAG":
                inner_dag, inner_groups = self._dag(expr, expr.lineno, scope), []
                if name:
                    self.bound[name] = inner_dag
            elif isinstance(expr, ast.Call) and self._name(expr).endswith("TaskGroup"):
                kw = _keywords(expr)
                gid = self._setting(kw.get("group_id") or (expr.args[0] if expr.args else None), scope)
                prefix = f"{inner_groups[-1].group_id}." if inner_groups else ""
                group = _Group(prefix + gid if isinstance(gid, str) else prefix + f"group_{expr.lineno}")
                inner_groups = [*inner_groups, group]
                if name:
                    self.bound[name] = group
            elif isinstance(expr, ast.Name) and isinstance(self.bound.get(expr.id), int):
                inner_dag, inner_groups = self.bound[expr.id], []
        self._walk(stmt.body, inner_dag, inner_groups, scope)

    def _function(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, dag, groups, scope, cls: ast.ClassDef | None = None
    ) -> None:
        for deco in fn.decorator_list:
            call = deco if isinstance(deco, ast.Call) else None
            name = self._name(deco)
            if name == "dag":
                inner = scope
                number = self._dag(call, fn.lineno, inner, default_id=fn.name)
                self._walk(fn.body, number, [], inner)
                return
            base = deco.func if isinstance(deco, ast.Call) else deco
            while isinstance(base, ast.Attribute):  # `@task.python(...)`, `@task.virtualenv`
                if isinstance(base.value, ast.Name) and base.value.id == "task":
                    name = "task"
                    break
                base = base.value
            if name == "task":
                task_id = self._setting(_keywords(call).get("task_id"), scope) if call is not None else UNKNOWN
                self.task_functions[fn.name] = task_id if isinstance(task_id, str) else fn.name
                self.task_defs[fn.name] = fn
                return
            if name == "task_group":
                gid = self._setting(_keywords(call).get("group_id"), scope) if call is not None else UNKNOWN
                self.group_functions[fn.name] = (fn, gid if isinstance(gid, str) else fn.name)
                return
        if dag is None and any(isinstance(n, ast.Call) and self._name(n) == "DAG" for n in ast.walk(fn)):
            self._builder(fn, groups, scope, cls)

    def _builder(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, groups: list[_Group], scope: Where, cls: ast.ClassDef | None
    ) -> None:
        """A function (or a method) that builds a DAG (`def create_dag(dag_id, schedule):
        with DAG(dag_id, ...)`, `class Pipeline: def build(self): ...`): its body is
        read once per call of it the file makes at the top of a block, with the
        call's arguments as its parameters (each call a DAG of its own); called in a
        loop or not at all, it is read once with its parameters unknown, which a
        note says (a DAG id it does not know is the file's name and line)."""
        params = [p.arg for p in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
        is_static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)
        if cls is not None and params and not is_static:
            params = params[1:]  # `self` (or `cls`)
        inner = scope
        sites = self._calls_of(fn.name, cls is not None)
        if sites is None or not sites or len(sites) > MAX_ROUNDS or len(sites) > self.rounds_left:
            if params:
                where = "in a loop or by another function" if sites is None else "nowhere in its file"
                self.notes.append(
                    f"{self.label}:{fn.lineno}: the DAG that `{fn.name}` builds is read once with its parameters "
                    f"({', '.join(params)}) unknown: it is called {where}"
                )
            self._walk(fn.body, None, groups, inner)
            return
        self.rounds_left -= len(sites)
        for site in sites:  # each call builds a DAG of its own: read a copy with its arguments
            bound = self._arguments(fn, params, site)
            self._walk(self.values.copied(fn.body), None, groups, inner.bind(bound, self.values.original(fn)))

    def _calls_of(self, name: str, method: bool) -> list[ast.Call] | None:
        """The calls of a function (`name(...)`) or method (`x.name(...)`) the file
        makes as statements or assignments of the module or of a `with` block; None
        when it is called anywhere else (in a loop, a comprehension, a function:
        its arguments are known only per round)."""
        found: list[ast.Call] = []
        top: set[int] = set()

        def visit(body: list[ast.stmt]) -> None:
            for stmt in body:
                if isinstance(stmt, ast.With):
                    visit(stmt.body)
                elif isinstance(stmt, (ast.Expr, ast.Assign)) and isinstance(stmt.value, ast.Call):
                    top.add(id(stmt.value))

        visit(self.tree.body)
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (method and isinstance(func, ast.Attribute) and func.attr == name) or (
                not method and isinstance(func, ast.Name) and func.id == name
            ):
                if id(node) not in top:
                    return None
                found.append(node)
        return found

    def _arguments(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, params: list[str], call: ast.Call, scope: Where | None = None
    ) -> dict[str, object]:
        """What a call gives a function's parameters: its positional and keyword
        arguments, else the parameter's default; a parameter given nothing known is
        unknown."""
        bound: dict[str, object] = dict.fromkeys(params, UNKNOWN)
        positional = [p.arg for p in (*fn.args.posonlyargs, *fn.args.args)]
        defaults = fn.args.defaults
        for name, default in zip(positional[len(positional) - len(defaults) :], defaults):
            if name in bound:
                bound[name] = self.values.value(default)
        for name, default in zip([p.arg for p in fn.args.kwonlyargs], fn.args.kw_defaults):
            if default is not None:
                bound[name] = self.values.value(default)
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return dict.fromkeys(params, UNKNOWN)  # `*args`, `**kwargs`: which is which is not told
        for name, arg in zip(params, call.args):
            bound[name] = self.values.value(arg, scope)
        for keyword in call.keywords:
            if keyword.arg in bound:
                bound[keyword.arg] = self.values.value(keyword.value, scope)
        return bound

    def _dag(self, call: ast.Call | None, line: int, scope: Where, default_id: str = "") -> int:
        kw = _keywords(call) if call is not None else {}
        dag_id = self._setting(kw.get("dag_id") or (call.args[0] if call is not None and call.args else None), scope)
        if not isinstance(dag_id, str):
            dag_id = default_id or f"{Path(self.label).stem}:{line}"
        self.dags.append(_Dag(dag_id, line, kw, values=scope))
        return len(self.dags) - 1

    # -- expressions: tasks and their order -----------------------------------------------

    def _expr(self, node: ast.expr, dag: int | None, groups: list[_Group], scope: Where, depth: int = 0) -> Any:
        """What an expression stands for in the DAG: a DAG number, a group, a list of
        tasks, or None; calls with a `task_id` make their task, `>>` and friends order."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, ast.Call):
            name = self._name(node)
            kw = _keywords(node)
            if name == "DAG":
                return self._dag(node, node.lineno, scope)
            if name not in self.task_functions and "task_id" not in kw:
                self._imported_task_function(node.func, name)
            if "task_id" in kw or name in self.task_functions or (name in _DBT_GROUPS and "group_id" in kw):
                return self._task(node, name, dag, groups, scope)
            if isinstance(node.func, ast.Name) and name in self.group_functions:
                return self._group_call(node, name, dag, groups, scope, depth)
            factory = self._factory(node.func)
            if factory is not None:
                return self._factory_call(node, factory, dag, groups, scope, depth)
            mapped = node.func.value if isinstance(node.func, ast.Attribute) else None
            operator = self._mapped_operator(mapped) if name in ("expand", "expand_kwargs") else None
            if operator is not None:
                return self._mapped_task(node, operator, dag, groups, scope)
            if (
                name in ("expand", "expand_kwargs")
                and isinstance(mapped, ast.Name)
                and mapped.id in self.group_functions
            ):
                # a mapped group (`g.expand(x=...)`): its tasks, each run once per value, side by side
                self.mapping += 1
                try:
                    return self._group_call(node, mapped.id, dag, groups, scope, depth)
                finally:
                    self.mapping -= 1
            if name in ("chain", "cross_downstream"):
                items = [
                    self._expr(a.value if isinstance(a, ast.Starred) else a, dag, groups, scope, depth + 1)
                    for a in node.args
                ]
                if name == "cross_downstream" and len(items) == 2:
                    self._order(items[0], items[1])
                elif name == "chain":
                    for i in range(len(items) - 1):
                        up, down = items[i], items[i + 1]
                        lists = all(isinstance(node.args[j], (ast.List, ast.Tuple)) for j in (i, i + 1))
                        if lists and isinstance(up, list) and isinstance(down, list) and len(up) == len(down):
                            for a, b in zip(up, down):  # `chain([a, b], [c, d])`: a >> c, b >> d
                                self._order([a], [b])
                        else:
                            self._order(up, down)
                return None
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("set_downstream", "set_upstream"):
                this = self._expr(node.func.value, dag, groups, scope, depth + 1)
                other = self._expr(node.args[0], dag, groups, scope, depth + 1) if node.args else None
                if node.func.attr == "set_downstream":
                    self._order(this, other)
                else:
                    self._order(other, this)
                return None
            for arg in node.args:  # e.g. a task made inside another call's arguments
                self._expr(arg, dag, groups, scope, depth + 1)
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.RShift, ast.LShift)):
            left = self._expr(node.left, dag, groups, scope, depth + 1)
            right = self._expr(node.right, dag, groups, scope, depth + 1)
            if isinstance(node.op, ast.RShift):
                self._order(left, right)
            else:
                self._order(right, left)
            return right  # Airflow's `a >> b` is `b`, so `a >> b >> c` orders b before c
        if isinstance(node, (ast.List, ast.Tuple)):
            out: list[_Ref] = []
            for element in node.elts:
                found = self._expr(element, dag, groups, scope, depth + 1)
                out += self._refs(found)
            return out
        if isinstance(node, ast.Name):
            return self.bound.get(node.id)
        if isinstance(node, ast.ListComp):
            return self._comprehension(node, dag, groups, scope, depth)
        if isinstance(node, ast.Dict) and not node.keys:  # `tasks = {}`, filled by `tasks[name] = Op(...)`
            return {}
        if isinstance(node, ast.Subscript) and isinstance(self.bound.get(getattr(node.value, "id", "")), dict):
            key = self._setting(node.slice, scope)
            return self.bound[node.value.id].get(key) if isinstance(key, (str, int)) else None  # type: ignore[attr-defined]
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            held = self._expr(node.value, dag, groups, scope, depth + 1)
            index = node.slice.value
            if isinstance(held, list) and isinstance(index, int) and not isinstance(index, bool):
                return [held[index]] if -len(held) <= index < len(held) else None
        return None

    def _mapped_operator(self, node: ast.expr | None) -> tuple[ast.expr, str, list[ast.keyword]] | None:
        """What a mapped task (`Op.partial(task_id=..., ...).expand(...)`, a `@task`
        function's `f.expand(...)` or `f.partial(...).expand(...)`) maps: its
        operator (or function) as written, its name, and the keywords every copy
        shares (the `partial` ones). None when `node` is not one of those."""
        shared: list[ast.keyword] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "partial":
            shared, node = [k for k in node.keywords if k.arg is not None], node.func.value
        if not isinstance(node, ast.Name):
            return None
        name = self._name(ast.Call(func=node, args=[], keywords=[]))
        if name in self.task_functions or (shared and any(k.arg == "task_id" for k in shared)):
            return node, name, shared
        return None

    def _mapped_task(
        self,
        call: ast.Call,
        operator: tuple[ast.expr, str, list[ast.keyword]],
        dag: int | None,
        groups: list[_Group],
        scope: Where,
    ) -> list[_Ref]:
        """A mapped task: Airflow runs one copy of it per value of its `expand`
        arguments (every combination of them; one per mapping of `expand_kwargs`), the
        copies side by side, up to its `max_active_tis_per_dagrun` (or `_per_dag`).
        When the values are known (literal lists, names the value layer reads), each
        copy is a task of its own, `id[i]`, read with its values bound; copies that
        run one at a time are ordered one after another. When they are not known, the
        task is read once with the mapped arguments unknown and run as a for_each
        task (copies of it beside each other). The call stands for all its copies."""
        if call in self.made:
            return self.made[call]
        func, name, shared = operator
        values = self._mapped_values(call, scope)
        base = self._setting(next((k.value for k in shared if k.arg == "task_id"), None), scope)
        if not isinstance(base, str):
            base = self.task_functions.get(name, f"{name or 'task'}_{call.lineno}")
        copies: list[dict[str, object]] = values if values is not None else [{}]
        if values is not None and len(values) > self.rounds_left:
            copies, values = [{}], None
        if values is not None:
            self.rounds_left -= len(values)
        mapped_names = [k.arg for k in call.keywords if k.arg is not None]
        refs: list[_Ref] = []
        for number, bound in enumerate(copies):
            names = list(bound) if values is not None else mapped_names
            keywords = [k for k in shared if k.arg not in names and k.arg != "task_id"]
            keywords += [ast.keyword(arg=n, value=ast.Name(id=f"__mapped_{n}", ctx=ast.Load())) for n in names]
            task_id = base if values is None else f"{base}[{number}]"
            keywords.append(ast.keyword(arg="task_id", value=ast.Constant(task_id)))
            made = ast.Call(func=func, args=[], keywords=keywords)
            ast.copy_location(made, call)
            made.end_lineno, made.end_col_offset = call.end_lineno, call.end_col_offset
            given = {f"__mapped_{n}": v for n, v in bound.items()} if values is not None else {}
            given |= {f"__mapped_{n}": UNKNOWN for n in names if n not in bound}
            if values is None:
                self.mapping += 1
            try:
                refs += self._task(made, name, dag, groups, scope.bind(given))
            finally:
                if values is None:
                    self.mapping -= 1
        if values is not None and self._copies_at_once(shared) == 1:
            for up, down in zip(refs, refs[1:]):  # one copy at a time: never two side by side
                self._order([up], [down])
        self.made[call] = refs
        return refs

    def _mapped_values(self, call: ast.Call, scope: Where) -> list[dict[str, object]] | None:
        """The mapped arguments of each copy of a mapped task (`expand(a=[1, 2],
        b=[3])`: every combination; `expand_kwargs([{...}, {...}])`: each mapping), or
        None when a list, or an item of `expand_kwargs`, is not known."""
        if _callee(call) == "expand_kwargs":
            found = self.values.value(call.args[0], scope) if len(call.args) == 1 and not call.keywords else None
            if not isinstance(found, (list, tuple)) or len(found) > MAX_ROUNDS:
                return None
            if not all(isinstance(i, dict) and all(isinstance(k, str) for k in i) for i in found):
                return None
            return [dict(i) for i in found]
        if call.args or not call.keywords or any(k.arg is None for k in call.keywords):
            return None
        out: list[dict[str, object]] = [{}]
        for keyword in call.keywords:
            found = self.values.value(keyword.value, scope)
            if not isinstance(found, (list, tuple)):
                return None
            out = [{**o, keyword.arg: v} for o in out for v in found]  # type: ignore[misc]
            if len(out) > MAX_ROUNDS:
                return None
        return out

    def _copies_at_once(self, keywords: list[ast.keyword]) -> int:
        """How many copies of a mapped task run at once (see `_mapped_runs`)."""
        return self._mapped_runs(ast.Call(func=ast.Name(id="_", ctx=ast.Load()), args=[], keywords=keywords))

    def _group_call(
        self, call: ast.Call, name: str, dag: int | None, groups: list[_Group], scope: Where, depth: int
    ) -> Any:
        """A `@task_group` function called in a DAG: its body's tasks are made where it
        is called, in a group of its id; the call stands for what the body returns
        (`return a, b`: the tasks a and b, one each, so `g()[1]` is b), else for the
        group. A function called a second time makes no second set of tasks (its
        calls are read once, as `_task` reads a call)."""
        fn, gid = self.group_functions[name]
        if call in self.made:
            return self.made[call]
        self.made[call] = []  # a function calling itself is read once
        prefix = f"{groups[-1].group_id}." if groups else ""
        group = _Group(prefix + gid)
        inner = [*groups, group]
        inner_scope = scope
        self._walk(fn.body, dag, inner, inner_scope)
        returned = next((s.value for s in fn.body if isinstance(s, ast.Return) and s.value is not None), None)
        if isinstance(returned, (ast.Tuple, ast.List)):
            parts = [self._refs(self._expr(e, dag, inner, inner_scope, depth + 1)) for e in returned.elts]
            if all(len(p) == 1 for p in parts):
                return [p[0] for p in parts]
        elif returned is not None:
            refs = self._refs(self._expr(returned, dag, inner, inner_scope, depth + 1))
            if refs:
                return refs
        return group

    def _factory(self, func: ast.expr) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The plain function of the file a call names when its body makes tasks
        (`def submit(task_id, script): return BashOperator(task_id=task_id, ...)`):
        a factory of tasks. Functions that build a DAG, `@task`, `@task_group` and
        `@dag` functions are read by their own rules; a name defined twice is not
        told apart (None)."""
        if not isinstance(func, ast.Name):
            return None
        if self._factories is None:
            defs: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
            for n in ast.walk(self.tree):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defs.setdefault(n.name, []).append(n)
            plain = {
                name: fns[0]
                for name, fns in defs.items()
                if len(fns) == 1
                and not fns[0].decorator_list
                and not any(isinstance(c, ast.Call) and self._name(c) == "DAG" for c in ast.walk(fns[0]))
            }
            makes = {
                name
                for name, fn in plain.items()
                if any(isinstance(c, ast.Call) and "task_id" in _keywords(c) for c in ast.walk(fn))
            }
            grown = True
            while grown:  # a factory calling another factory (`def load(t): return submit(t, ...)`)
                more = {
                    name
                    for name, fn in plain.items()
                    if name not in makes
                    and any(
                        isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in makes
                        for c in ast.walk(fn)
                    )
                }
                grown, makes = bool(more), makes | more
            self._factories = {name: plain[name] for name in makes}
        return self._factories.get(func.id)

    def _factory_call(
        self,
        call: ast.Call,
        fn: ast.FunctionDef | ast.AsyncFunctionDef,
        dag: int | None,
        groups: list[_Group],
        scope: Where,
        depth: int,
    ) -> Any:
        """A call of a factory of tasks (`_factory`): its body is read where it is
        called, a copy per call with the call's arguments as its parameters, so each
        call makes tasks of its own (`submit("load_dim", "load_dim.py")`), and the
        call stands for what the body returns (the task it made, which `a >> b`
        then orders). An argument only a run knows leaves its parameter unknown: the
        task is made, and a file named by it is not picked (the task says so)."""
        if call in self.made:
            return self.made[call]
        self.made[call] = []  # a factory calling itself is read once
        if self.rounds_left <= 0:
            self.notes.append(
                f"{self.label}:{call.lineno}: the tasks `{fn.name}` makes are not read: the file makes more than "
                f"{MAX_ROUNDS} of them through loops and functions"
            )
            return None
        self.rounds_left -= 1
        params = [p.arg for p in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
        bound = self._arguments(fn, params, call, scope)
        # the caller's own bindings hold for its statements only; a closure reads its builder's
        outer = Where(tuple(f for f in scope.frames if f[0] is not None))
        inner = outer.bind(bound, self.values.original(fn))
        body = self.values.copied(fn.body)
        self._walk(body, dag, groups, inner)
        returned = next((s.value for s in body if isinstance(s, ast.Return) and s.value is not None), None)
        found = self._expr(returned, dag, groups, inner, depth + 1) if returned is not None else None
        refs = self._refs(found)
        self.made[call] = refs
        return refs or found

    def _comprehension(
        self, node: ast.ListComp, dag: int | None, groups: list[_Group], scope: Where, depth: int
    ) -> list[_Ref] | None:
        """`[submit(t, f"{t}.py") for t in ["a", "b"]]`: one item a round, as a loop
        over the same values (`_rounds`); the list stands for the tasks its items
        made. Over values only a run knows (or with an `if`), its items are not read."""
        if len(node.generators) != 1 or node.generators[0].ifs or node.generators[0].is_async:
            return None
        gen = node.generators[0]
        if not any(isinstance(n, ast.Call) for n in ast.walk(node.elt)):
            return None
        found = self.values.value(gen.iter, scope)
        if not isinstance(found, (list, tuple)) or len(found) > min(MAX_ROUNDS, self.rounds_left):
            return None
        rounds: list[dict[str, object]] = []
        for item in found:
            bound: dict[str, object] = {}
            if not _unpack(gen.target, item, bound):
                return None
            rounds.append(bound)
        self.rounds_left -= len(rounds)
        out: list[_Ref] = []
        for bound in rounds:
            (copy,) = self.values.copied([ast.Expr(value=node.elt)])
            assert isinstance(copy, ast.Expr)
            out += self._refs(self._expr(copy.value, dag, groups, scope.bind(bound), depth + 1))
        return out

    def _refs(self, value: Any) -> list[_Ref]:
        """The tasks a value stands for: a group stands for its members."""
        if isinstance(value, _Group):
            return [r for r in self.made_refs() if r.task_id in value.members]
        if isinstance(value, list):
            return [r for r in value if isinstance(r, _Ref)]
        return []

    def made_refs(self) -> list[_Ref]:
        return [r for refs in self.made.values() for r in refs]

    def _order(self, up: Any, down: Any) -> None:
        for a in self._refs(up):
            for b in self._refs(down):
                if a.dag == b.dag and a.task_id != b.task_id:
                    upstream = self.dags[a.dag].upstream if a.dag >= 0 else self.loose_upstream
                    upstream.setdefault(b.task_id, set()).add(a.task_id)

    def _task(self, call: ast.Call, name: str, dag: int | None, groups: list[_Group], scope: Where) -> list[_Ref]:
        if call in self.made:
            return self.made[call]
        kw = _keywords(call)
        if name in self.task_functions and "task_id" not in kw:
            task_id: Any = self.task_functions[name]
        else:
            task_id = self._setting(kw.get("task_id") or kw.get("group_id"), scope)
        if not isinstance(task_id, str):
            task_id = f"{name or 'task'}_{call.lineno}"
        if groups:
            task_id = f"{groups[-1].group_id}.{task_id}"
            for group in groups:
                group.members.append(task_id)
        owner = self.bound.get(kw["dag"].id) if isinstance(kw.get("dag"), ast.Name) else dag
        self.count += 1
        if self.count > MAX_TASKS:
            self.made[call] = []
            return []
        if self.mapping:
            self.mapped.add(call)
        if scope.given:  # its values read with the loop's
            self.round_scopes[call] = scope
        if isinstance(owner, int):
            self.dags[owner].tasks.setdefault(task_id, (call, name))
            ref = _Ref(owner, task_id)
        else:
            self.loose.append((task_id, call, name))
            ref = _Ref(-1, task_id)  # the file's only DAG, if it has one (see `read`)
        self.made[call] = [ref]
        return [ref]

    def _item(self, target: ast.Subscript, made: Any, scope: Where) -> None:
        """`tasks[name] = Op(...)`: the task kept in a dict of tasks under a known key."""
        held = self.bound.get(target.value.id) if isinstance(target.value, ast.Name) else None
        key = self._setting(target.slice, scope)
        if isinstance(held, dict) and isinstance(key, (str, int)) and made is not None:
            held[key] = made

    def _rounds(self, loop: ast.For, scope: Where) -> list[dict[str, object]] | None:
        """What the loop's names hold in each round, when it goes over values the
        value layer knows item by item (a list, tuple or set, a dict's keys,
        `.items()` or `.values()`, through names and subscripts); None otherwise."""
        iterated = loop.iter
        method = ""
        if (
            isinstance(iterated, ast.Call)
            and isinstance(iterated.func, ast.Attribute)
            and iterated.func.attr in ("items", "keys", "values")
            and not iterated.args
        ):
            method, iterated = iterated.func.attr, iterated.func.value
        found = self.values.value(iterated, scope)
        items: list[object]
        if isinstance(found, dict):
            if method == "items":
                items = [(k, v) for k, v in found.items()]
            else:
                items = list(found.values()) if method == "values" else list(found)
        elif isinstance(found, (list, tuple)) and not method:
            items = list(found)
        else:
            return None
        if len(items) > MAX_ROUNDS:
            return None
        rounds = []
        for item in items:
            bound: dict[str, object] = {}
            if not _unpack(loop.target, item, bound):
                return None
            rounds.append(bound)
        return rounds

    def _setting(self, node: ast.expr | None, scope: Where) -> Any:
        """What an argument holds as a setting (`values.settings.setting`): a plain value,
        a path whose folder only a run knows after UNKNOWN_FOLDER, or an `Unknown`."""
        return self.values.setting(node, scope)

    # -- the job ---------------------------------------------------------------------------

    def job(self, dag: _Dag) -> Job:
        where = Location(self.label, dag.line, 1)
        job = Job(key=dag.dag_id, name=dag.dag_id, location=where)
        self._schedule(dag, job)
        self._written = {}
        for task_id, (call, operator) in dag.tasks.items():
            after = tuple(sorted(dag.upstream.get(task_id, ())))
            for task in self._tasks(task_id, call, operator, after, self.round_scopes.get(call, dag.values)):
                if call in self.mapped:
                    task = replace(task, for_each_concurrency=self._mapped_runs(call))
                run_values = self._run_values(job, task.key, self._written.get(task.key))
                job.tasks[task.key] = replace(task, run_values=run_values) if run_values else task
        return job

    def _run_values(self, job: Job, task_key: str, written: Any) -> tuple[tuple[str, bool, str], ...]:
        """The task's parameters that Airflow fills per DAG run from a template
        (`_run_template`): whether two overlapping runs always get different values of
        each. `{{ run_id }}`, `{{ ts }}`, `{{ logical_date }}` and the data interval
        differ per run (Airflow keeps (dag_id, run_id) and (dag_id, logical_date)
        unique); `{{ ds }}` names the logical date's day, which differs per run only
        on a schedule that runs at most once a day (24 runs of an hourly one share
        it); on no cron schedule it is left to the same-value reading. Where a value
        keeps runs apart, a note says so and that a run started by hand may repeat
        it: its logical date (Airflow 2), or none at all (Airflow 3), is the
        trigger's to choose."""
        out: list[tuple[str, bool, str]] = []
        for name, value in named_parameters(written):
            found = _run_template(value)
            if found is None:
                continue
            grain, text = found
            if grain == "run":
                out.append((name, True, f"Airflow's `{text}`"))
                continue
            once = _once_a_day(job.cron[0]) if job.cron else None
            if once is True:
                out.append((name, True, f"Airflow's `{text}`"))
            elif once is False:
                what = f"Airflow's `{text}`, one value for all the runs of a day of a schedule that runs more often"
                out.append((name, False, what))
        if job.max_concurrent_runs > 1:
            for name, apart, what in out:
                if apart:
                    self.notes.append(
                        f"{self.label}:{job.location.line if job.location else 0}: task `{task_key}` of DAG "
                        f"`{job.key}`: parameter `{name}` is {what}, a value of its own for each scheduled run: "
                        "runs are told apart by it (a run started by hand may repeat one: its logical date is "
                        "the trigger's to choose)"
                    )
        return tuple(out)

    def _mapped_runs(self, call: ast.Call) -> int:
        """How many copies of a mapped task run at once: its `max_active_tis_per_dagrun`
        (or `_per_dag`), else Airflow's `max_active_tasks_per_dag` default."""
        kw = _keywords(call)
        for name in ("max_active_tis_per_dagrun", "max_active_tis_per_dag"):
            given = self._setting(kw.get(name), Where())
            if isinstance(given, int) and not isinstance(given, bool) and given >= 1:
                return given
        return MAPPED_RUNS

    def _runs_per_dag(self) -> tuple[int, str]:
        """How many runs of a DAG without `max_active_runs` may be active at once, and
        where that is read. Airflow's configuration reference: "[core]
        max_active_runs_per_dag: The maximum number of active DAG runs per DAG. The
        scheduler will not create more DAG runs if it reaches the limit. This is
        configurable at the DAG level with max_active_runs, which is defaulted as
        [core] max_active_runs_per_dag." Default 16, environment variable
        AIRFLOW__CORE__MAX_ACTIVE_RUNS_PER_DAG
        (https://airflow.apache.org/docs/apache-airflow/stable/configurations-ref.html#max-active-runs-per-dag).
        A project's compose files or Dockerfiles that set that variable say the
        deployment's; several values: one of these, the largest is taken (two runs
        may overlap under it), and the source says so."""
        given = self.deployment.get(RUNS_PER_DAG_ENV, {})
        values = {int(v): by for v, by in given.items() if v.isdigit() and int(v) >= 1}
        if not values:
            return RUNS_PER_DAG, _AIRFLOW_DEFAULT
        if len(values) == 1:
            ((runs, by),) = values.items()
            return runs, f"as {RUNS_PER_DAG_ENV} in {by} sets it"
        runs = max(values)
        where = ", ".join(f"{n} in {by}" for n, by in sorted(values.items()))
        return runs, f"{RUNS_PER_DAG_ENV} is one of {where}; the largest is taken"

    def _schedule(self, dag: _Dag, job: Job) -> None:
        """The DAG's schedule and its runs at once. Without `max_active_runs`, runs
        beyond one are active together when Airflow makes them so: a backlog
        (`catchup=True`) and runs started by hand (`schedule=None`, `@once`: each
        trigger starts a run at once), up to `max_active_runs_per_dag`
        (`_runs_per_dag`), which a note names. A scheduled DAG's next run overlaps
        the last only when a run outlasts its interval, and a hand-started run of a
        scheduled DAG is not placed beside its scheduled ones: those stay one run
        at a time, as a job's are."""
        kw = dag.keywords
        runs = self._setting(kw.get("max_active_runs"), dag.values)
        catchup = self._setting(kw.get("catchup"), dag.values)
        own = isinstance(runs, int) and not isinstance(runs, bool) and runs >= 1
        if own:
            job.max_concurrent_runs = runs
        elif catchup is True:
            job.max_concurrent_runs = self._runs_per_dag()[0]
        given = next((kw[k] for k in ("schedule", "schedule_interval", "timetable") if k in kw), None)
        if given is None:  # Airflow 2's default is daily; Airflow 3's none: not assumed
            job.trigger = "no `schedule` in its DAG (Airflow's default depends on its version)"
            return
        value = self._setting(given, dag.values)
        where = Location(self.label, getattr(given, "lineno", dag.line), 1)
        if value is None or value == "@once":  # started by hand (or by the API, or once): no schedule
            if not own and job.max_concurrent_runs == 1:
                most, why = self._runs_per_dag()
                job.max_concurrent_runs = most
                # two triggers overlap only when someone sends the second while the first
                # runs, under a limit the DAG did not choose: an assumed overlap, twice so
                # when no file of the project sets the limit either (see `schedule.ASSUMED_TWICE`)
                job.runs_by_default = "Airflow's `max_active_runs_per_dag`"
                if most == RUNS_PER_DAG and why == _AIRFLOW_DEFAULT:
                    job.runs_doubt = "no file of the project sets another"
                self.notes.append(
                    f"{self.label}:{dag.line}: DAG `{dag.dag_id}` is started by hand and sets no `max_active_runs`: "
                    f"runs started while one is active run beside it, up to `max_active_runs_per_dag` ({most}: {why})"
                )
            return
        if value == "@continuous":  # Airflow refuses a continuous DAG with more than one active run
            job.continuous, job.max_concurrent_runs = True, 1
            return
        if isinstance(given, ast.Call) and _callee(given) == "timedelta":
            job.trigger = "a fixed interval (`timedelta`), started from its start date"
            return
        quartz = _quartz(value) if isinstance(value, str) else None
        if quartz is None:
            job.trigger = "a schedule delta-lint cannot read (a timetable, datasets or a computed value)"
            return
        job.cron = (quartz, "UTC")
        try:
            check_cron(*job.cron)
        except CronError as err:
            job.problem = (where, f"`schedule`: {str(err)[:200]}")
            job.cron, job.trigger = None, "a schedule delta-lint cannot evaluate"

    def _tasks(self, task_id: str, call: ast.Call, operator: str, after: tuple[str, ...], scope: Where) -> list[Task]:
        where = Location(self.label, call.lineno, call.col_offset + 1)
        kw = _keywords(call)
        if operator == _RUN_NOW:
            return [self._run_now(task_id, kw, after, where, scope)]
        if operator == _CREATE_JOBS:
            self._created_job(kw, where, scope)
            return [Task(task_id, "airflow task", (), after, location=where)]  # deploys; runs no file itself
        if operator in _SQL_OPERATORS:
            lines = (call.lineno, call.end_lineno or call.lineno)
            return [self._sql_task(task_id, operator, kw, after, where, lines, scope)]
        fn = self._sql_function(call, operator)
        if fn is not None:
            lines = (fn.lineno, fn.end_lineno or fn.lineno)
            return [self._inline_task(task_id, "airflow task", after, where, lines)]
        if operator not in _FILE_OPERATORS:
            dbt = self._dbt_spec(task_id, operator, kw, scope)
            if dbt is not None:  # read as the Jobs API's `dbt_task`, by the bundle reader's rules
                settings = {"name": task_id, "tasks": [{"task_key": task_id, "dbt_task": dbt}]}
                (task,) = job_from_settings(task_id, settings, self.file, self.root, base=self.root).tasks.values()
                return [replace(task, key=task_id, depends_on=after, location=where)]
            script = self._script(task_id, call, operator, kw, scope)
            if isinstance(script, str):  # it runs a Python file, which the text does not name
                return [Task(task_id, operator, (), after, location=where, problem=script)]
            if script is not None:  # the worker runs a file of the project: the task runs it
                settings = {"name": task_id, "tasks": [{"task_key": task_id, "spark_python_task": script}]}
                (task,) = job_from_settings(task_id, settings, self.file, self.root, base=self.root).tasks.values()
                self._by_name(task_id, script["python_file"], task.files)
                return [replace(task, key=task_id, depends_on=after, location=where)]
            imported = self._imported_callable(call, operator)
            if imported is not None:
                return [replace(imported, key=task_id, depends_on=after, location=where)]
            return [Task(task_id, "airflow task", (), after, location=where)]  # no file of ours, still ordered
        specs, git = self._specs(task_id, operator, kw, scope)
        if specs is None:
            problem = f"the Databricks task of `{operator}` is not static (a value delta-lint cannot read)"
            return [Task(task_id, operator, (), after, location=where, problem=problem)]
        settings: dict[str, Any] = {"name": task_id, "tasks": specs}
        if git:
            settings["git_source"] = git
        inner = job_from_settings(task_id, settings, self.file, self.root, base=self.file.parent).tasks
        written = {spec["task_key"]: _written_parameters(spec) for spec in specs}
        if len(inner) == 1:
            (task,) = inner.values()
            self._written[task_id] = written.get(task.key)
            return [replace(task, key=task_id, depends_on=after, location=where)]
        out = []  # a multi-task run: its tasks order among themselves, the run stands for their end
        for key, task in inner.items():
            self._written[f"{task_id}.{key}"] = written.get(key)
            deps = tuple(f"{task_id}.{d}" for d in task.depends_on) or after
            out.append(replace(task, key=f"{task_id}.{key}", depends_on=deps, location=where))
        out.append(Task(task_id, operator, (), tuple(t.key for t in out), location=where))
        return out

    def _sql_task(
        self,
        task_id: str,
        operator: str,
        kw: dict,
        after: tuple[str, ...],
        where: Location,
        lines: tuple[int, int],
        scope: Where,
    ) -> Task:
        """A task that runs SQL in a warehouse: the statements written in the DAG file
        (read there, at the operator's line, by the Python front end) make the DAG
        file its file; a `DatabricksSqlOperator(sql="x.sql")` runs that file of the
        DAG's template folder (`template_searchpath`, else the DAG file's folder). A
        file name that names no file there is the task's problem."""
        names = self._sql_files(operator, kw, scope)
        if not names:
            return self._inline_task(task_id, "sql_task", after, where, lines)
        files = []
        probes = []  # asked again by a cached schedule: a template file added or deleted is seen
        for name in names:
            found = None
            for folder in self._template_folders():
                probe = probe_file("locate", name, folder, self.root)
                probes.append(probe)
                if probe[2]:
                    found = probe[2][0]
                    break
            if found is None:
                problem = f"its SQL file `{name}` is not in the DAG's template folder"
                return Task(task_id, "sql_task", (), after, location=where, problem=problem, probes=tuple(probes))
            files.append(found)
        return Task(task_id, "sql_task", tuple(dict.fromkeys(files)), after, location=where, probes=tuple(probes))

    def _inline_task(
        self, task_id: str, kind: str, after: tuple[str, ...], where: Location, lines: tuple[int, int]
    ) -> Task:
        """A task whose SQL is written in the DAG file (read there by the Python front
        end, at the operator's line or in the function the task calls): it runs the
        DAG file; beside other such tasks, only the `lines` that hold its own SQL (the
        operator's call, the function), so each task's statements are its own and the
        DAG's order between them holds. Lines another task runs too (an operator made
        in a loop's rounds, one function several tasks call, each with values of its
        own) hold statements read once for all of them: which are whose is not told
        apart, so such a task is not analysed."""
        spans = self._inline_spans()
        if spans[lines] > 1:
            problem = (
                "its SQL is written in the DAG file at lines another task runs too (a loop's rounds, one "
                "function for several tasks): which statements each task runs is not told apart, so they are "
                "not paired"
            )
            return Task(task_id, kind, (), after, location=where, problem=problem)
        if sum(spans.values()) > 1:
            return Task(task_id, kind, (self.label,), after, location=where, lines=lines)
        return Task(task_id, kind, (self.label,), after, location=where)

    def _sql_function(self, call: ast.Call, operator: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function of the file a `@task` function's task (or a `PythonOperator`'s
        callable) runs, when it sends SQL to a warehouse through a Databricks client
        (`frontend.warehouse.ClientOrigins`: a `DatabricksSqlHook`, the connector):
        its statements are the task's, written in the DAG file. None otherwise."""
        if not self.clients.active:
            return None
        fn = self._callable(call, operator)
        if fn is None:
            return None
        sends = any(
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in CLIENT_METHODS
            and self.clients.statement(n) is not None
            for n in ast.walk(fn)
        )
        return fn if sends else None

    def _sql_files(self, operator: str, kw: dict, scope: Where) -> list[str]:
        """The `.sql` file names a `DatabricksSqlOperator(sql=...)` runs; [] when its SQL
        is written in the DAG file (or is not known)."""
        sql = self._setting(kw.get("sql"), scope) if operator == "DatabricksSqlOperator" else UNKNOWN
        names = sql if isinstance(sql, list) else [sql]
        if names and all(isinstance(n, str) and n.strip().lower().endswith(".sql") for n in names):
            return [n.strip() for n in names]
        return []

    def _inline_spans(self) -> Counter[tuple[int, int]]:
        """The lines of the file each task of its DAGs that runs SQL written in the file
        runs (its operator's call, its function), counted: each such task runs the DAG
        file, so with two of them each runs only its own lines (else every statement
        would be taken to run in both, and one statement paired with itself)."""
        if self._inline is None:
            self._inline = Counter()
            for dag in self.dags:
                for call, operator in dag.tasks.values():
                    scope = self.round_scopes.get(call, dag.values)
                    if operator in _SQL_OPERATORS and not self._sql_files(operator, _keywords(call), scope):
                        self._inline[(call.lineno, call.end_lineno or call.lineno)] += 1
                        continue
                    fn = self._sql_function(call, operator)
                    if fn is not None:
                        self._inline[(fn.lineno, fn.end_lineno or fn.lineno)] += 1
                    elif self.imported_tasks.get(operator) is not None:  # read at its call (`_imported_callable`)
                        self._inline[(call.lineno, call.end_lineno or call.lineno)] += 1
        return self._inline

    def _template_folders(self) -> list[Path]:
        """Where Airflow looks for a template file: the DAGs' `template_searchpath`
        (relative to the DAG file's folder), then the DAG file's folder."""
        out = []
        for dag in self.dags:
            given = self._setting(dag.keywords.get("template_searchpath"), dag.values)
            for folder in given if isinstance(given, list) else [given]:
                if isinstance(folder, str) and folder.strip():
                    out.append(self.file.parent / folder.strip())
        return [*out, self.file.parent]

    def _dbt_spec(self, task_id: str, operator: str, kw: dict, scope: Where) -> dict[str, Any] | None:
        """The `dbt_task` a task that runs dbt stands for, or None: a `BashOperator`
        whose command is a literal `dbt run|build|snapshot|seed` (after `cd DIR &&`),
        a dbt operator (`project_dir`, `profiles_dir`, `select`, `exclude`, `target`),
        or a cosmos `DbtTaskGroup` (`ProjectConfig(path)`, `RenderConfig(select=...)`).
        Paths are relative to the repository root, as a DAG folder's checkout is; the
        worker's (absolute) paths are mapped to the project's (`_worker_path`)."""
        if operator == "BashOperator":
            command = self._setting(kw.get("bash_command"), scope)
            if not isinstance(command, str):
                return None
            cwd = self._setting(kw.get("cwd"), scope)
            spec = _dbt_of_shell(command, cwd if isinstance(cwd, str) else None)
            if spec is None:
                return None
            env = self._setting(kw.get("env"), scope) if "env" in kw else None
            for name, value in env.items() if isinstance(env, dict) else ():
                if name in _DBT_ENV and isinstance(value, str):
                    spec.setdefault(_DBT_ENV[name], value)
            return self._worker_dbt(task_id, spec)
        if operator in _DBT_OPERATORS:
            words = ["dbt", _DBT_OPERATORS[operator]]
            project = self._setting(kw.get("project_dir") or kw.get("dir"), scope)
            profiles = self._setting(kw.get("profiles_dir"), scope)
            selection = ("select", "models", "exclude", "target")
        elif operator in _DBT_GROUPS:
            words = ["dbt", "build"]
            project = self._config_argument(kw.get("project_config"), "dbt_project_path", scope)
            profiles = None
            render = kw.get("render_config")
            kw = _keywords(render) if isinstance(render, ast.Call) else {}
            selection = ("select", "exclude")
        else:
            return None
        for option in selection:
            value = self._setting(kw.get(option), scope)
            values = value if isinstance(value, list) else [value] if value is not None else []
            if any(not isinstance(v, str) for v in values):
                words.append(f"--{option} {{selection}}")  # a selector the text does not tell
            elif values:
                words.append(f"--{'select' if option == 'models' else option} {' '.join(values)}")
        spec: dict[str, Any] = {"commands": [" ".join(words)]}
        if isinstance(project, str):
            spec["project_directory"] = project
        if isinstance(profiles, str):
            spec["profiles_directory"] = profiles
        return self._worker_dbt(task_id, spec)

    def _worker_dbt(self, task_id: str, spec: dict[str, Any]) -> dict[str, Any]:
        """A dbt task's folders with the worker's paths mapped to the project's."""
        project = spec.get("project_directory")
        if isinstance(project, str) and project.startswith("/"):
            spec["project_directory"] = self._worker_path(task_id, project)
        profiles = spec.get("profiles_directory")
        if isinstance(profiles, str) and profiles.startswith("/"):  # a folder mounted whole, or its one file
            probe = posixpath.join(profiles, "profiles.yml")
            found = self._worker_path(task_id, probe, quiet=True)
            mapped = (posixpath.dirname(found) or ".") if found != probe else self._worker_path(task_id, profiles)
            spec["profiles_directory"] = mapped
        return _profiles_from_project(spec)

    def _worker_path(self, task_id: str, path: str, quiet: bool = False) -> str:
        """A path of the Airflow worker as the project path a compose mount or a
        Dockerfile copy puts there (`container.project_paths`); as written when none
        does (then matched by name), or when several do (a note names them: the
        task runs one of them)."""
        found, by = project_paths(path, self.mounts, self.root)
        if len(found) == 1:
            return found[0] or "."
        if len(found) > 1 and not quiet:
            self.notes.append(
                f"{self.label}: task `{task_id}`: `{path}` is one of {', '.join(found)} (as {by} put them there): "
                "which one, only the deployed container tells"
            )
        return path

    def _script(
        self, task_id: str, call: ast.Call, operator: str, kw: dict, scope: Where
    ) -> dict[str, Any] | str | None:
        """The `spark_python_task` a task stands for when it runs one Python file of
        the project: a `SparkSubmitOperator`'s `application`; the command of an
        operator that runs one (`BashOperator`, `DockerOperator`, `KubernetesPodOperator`,
        `SSHOperator`: `python /opt/airflow/scripts/load.py`, `spark-submit ... x.py`);
        the command a `PythonOperator` callable or `@task` function of the file runs
        through `subprocess` or `os.system`. A worker's path is mapped to the
        project's (`_worker_path`). None: no Python file (a jar, another command); a
        string: it runs one, and why the text does not tell which."""
        if operator in _SPARK_SUBMIT:
            application = self._setting(kw.get("application"), scope)
            if not isinstance(application, str):
                return f"the application of `{operator}` is not static (a value delta-lint cannot read)"
            path = application.strip()
            if not path.endswith(".py"):
                return None  # a jar or an R file: no Python of the project
        elif operator in _COMMAND_OPERATORS:
            names, folder = _COMMAND_OPERATORS[operator]
            words: list[Any] = []
            for name in names:
                given = self._setting(kw.get(name), scope) if name in kw else []
                words += given if isinstance(given, list) else [given]
            cwd = self._setting(kw.get(folder), scope) if folder else None
            path = _script_of_command(words, cwd if isinstance(cwd, str) else None)
            if path is None and any(not isinstance(w, str) for w in words):
                partly = self._partly_known_script(
                    operator, [self.values.value(kw.get(n), scope) for n in names if n in kw]
                )
                if partly is not None:
                    return partly
        else:
            fn = self._callable(call, operator)
            path = self._script_of_function(fn) if fn is not None else None
        if path is None:
            return None
        return {"python_file": self._worker_path(task_id, path) if path.startswith("/") else path}

    def _partly_known_script(self, operator: str, given: list[object]) -> str | None:
        """Why a command that runs a Python file names none: the file's path holds a
        part only a run knows (`f"spark-submit /opt/jobs/{script}"`, `script` a
        factory's argument from an Airflow Variable). None when the command, with
        those parts as placeholders, runs no Python file (or is not one string)."""
        if len(given) != 1 or not isinstance(given[0], Template):
            return None
        text = given[0].text
        for param in given[0].params:
            text = text.replace("{" + param + "}", _PLACEHOLDER)
        path = _script_of_shell(text)
        if path is None or _PLACEHOLDER not in path:
            return None
        shown = path.replace(_PLACEHOLDER, "{...}")
        return (
            f"the command of `{operator}` runs `{shown}`, a file whose path holds a part only a run knows "
            "(a value delta-lint cannot read): no file is picked"
        )

    def _callable(self, call: ast.Call, operator: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function of the file a `@task` function's task (or a `PythonOperator`'s
        `python_callable`, by its name) runs; None when the file does not define one."""
        fn = self.task_defs.get(operator)
        if fn is None and operator.endswith("PythonOperator"):
            given = _keywords(call).get("python_callable")
            found = [
                n
                for n in ast.walk(self.tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and isinstance(given, ast.Name)
                and n.name == given.id
            ]
            fn = found[0] if len(found) == 1 else None
        return fn

    def _module(self, level: int, dotted: str) -> tuple[str | None, tuple, ast.Module | None]:
        """The project file a module name names, as Airflow imports it (the DAG's
        folder and the folders above it, up to the project root, are on its path; a
        relative import starts from the DAG's package), with the probes that looked
        for it and its syntax tree; (None, probes, None) when the project holds none."""
        key = (level, dotted)
        if key not in self._modules:
            parts = [p for p in dotted.split(".") if p]
            folder = self.file.parent
            if level:
                for _ in range(level - 1):
                    folder = folder.parent
                bases = [folder]
            else:
                bases = [folder, *(p for p in folder.parents if p == self.root or self.root in p.parents)]
            probes: list = []
            found: tuple[str | None, tuple, ast.Module | None] = (None, (), None)
            for base in bases if parts else []:
                for name in ("/".join(parts) + ".py", "/".join(parts) + "/__init__.py"):
                    probe = probe_file("locate", name, base, self.root)
                    probes.append(probe)
                    if probe[2]:
                        found = (probe[2][0], (), None)
                        break
                if found[0]:
                    break
            tree = None
            if found[0] is not None:
                try:
                    tree = ast.parse(read_input_text(self.root / found[0], self.root, MAX_DAG_BYTES))
                except (SyntaxError, OSError, ValueError, RecursionError, MemoryError):
                    tree = None
            self._modules[key] = (found[0], tuple(probes), tree)
        return self._modules[key]

    def _imported_def(self, node: ast.expr | None) -> tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, tuple] | None:
        """The function of a project module that `node` names through the file's
        imports (`from etl.load import run` then `run`; `import etl.load as load` then
        `load.run`), with its file and the probes that found it; None otherwise."""
        chain: list[str] = []
        while isinstance(node, ast.Attribute):
            chain.insert(0, node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.imports:
            return None
        level, module, attribute = self.imports[node.id]
        path = [*([attribute] if attribute is not None else []), *chain]
        if not path:
            return None
        dotted = ".".join([module, *path[:-1]]) if module else ".".join(path[:-1])
        if not dotted and not level:
            return None
        rel, probes, tree = self._module(level, dotted)
        if rel is None or tree is None or rel == self.label:
            return None
        fn = next(
            (n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == path[-1]),
            None,
        )
        return (rel, fn, probes) if fn is not None else None

    def _imported_function(self, func: ast.expr) -> tuple[str, ast.Module, str] | None:
        """A function of another project module that a call in the DAG names (see
        `_imported_def`), for the value layer to read what it returns: its module's
        path, tree and its name. The module is kept: an edit of it reads the DAGs again."""
        found = self._imported_def(func)
        if found is None or not isinstance(found[1], ast.FunctionDef):
            return None
        rel, fn, _ = found
        tree = next((t for r, _, t in self._modules.values() if r == rel and t is not None), None)
        if tree is None:
            return None
        self._keep(rel)
        return rel, tree, fn.name

    def _imported_task_function(self, func: ast.expr, name: str) -> None:
        """An imported `@task` function of a project module called in a DAG (`func`:
        `load()` of `from etl.tasks import load`, `tasks.load()` of `import etl.tasks
        as tasks`; `name`, what the reading calls it by) is a task (its id the
        function's name, or its decorator's `task_id`), as one of the file's."""
        head = func
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name) or head.id not in self.imports or name in self.imported_tasks:
            return
        found = self._imported_def(func)
        self.imported_tasks[name] = found
        if found is None:
            return
        for deco in found[1].decorator_list:
            base = deco.func if isinstance(deco, ast.Call) else deco
            while isinstance(base, ast.Attribute):  # `@task.python(...)`
                base = base.value
            if isinstance(base, ast.Name) and base.id == "task":
                given = _keywords(deco).get("task_id") if isinstance(deco, ast.Call) else None
                task_id = given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else None
                self.task_functions[name] = task_id or found[1].name
                return

    def _imported_callable(self, call: ast.Call, operator: str) -> Task | None:
        """The task of a `@task` function (or a `PythonOperator`'s `python_callable`)
        defined in another module of the project. A `@task` function called in the
        DAG is read by the Python front end at that call, with the module's code
        pasted there (as any helper a file calls): the task runs the DAG file's lines
        of the call, as a task whose SQL is written in the file does. A callable only
        handed to the operator is read at no call: its writes are not read anywhere,
        which the task says (not analysed) rather than pass for a task without writes."""
        if operator in self.imported_tasks:
            found = self.imported_tasks[operator]
            if found is None:
                return None
            self._keep(found[0])
            where = Location(self.label, call.lineno, call.col_offset + 1)
            lines = (call.lineno, call.end_lineno or call.lineno)
            return replace(self._inline_task(operator, "airflow task", (), where, lines), probes=found[2])
        if not operator.endswith("PythonOperator"):
            return None
        found = self._imported_def(_keywords(call).get("python_callable"))
        if found is None:
            return None
        self._keep(found[0])
        problem = (
            f"its `python_callable` is `{found[1].name}` of {found[0]}, handed to the operator and called at no "
            "line delta-lint reads: its writes are not read"
        )
        return Task(operator, "airflow task", (), (), problem=problem, probes=found[2])

    def _keep(self, rel: str) -> None:
        """A project module the reading looked into: an edit of it reads the DAGs again."""
        if rel not in self.code_files:
            self.code_files.append(rel)

    def _script_of_function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        """The Python file a function runs through `subprocess.run([...])` (and its
        siblings) or `os.system("...")`, its values read in the function (its
        parameters unknown): one file, or None (none, several, or unknown)."""
        scope = Where()
        found = set()
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
                continue
            owner = node.func.value
            if node.func.attr not in _RUNNERS or not (isinstance(owner, ast.Name) and owner.id in ("subprocess", "os")):
                continue
            given = self._setting(node.args[0], scope)
            found.add(_script_of_command(given if isinstance(given, list) else [given], None))
        return found.pop() if len(found) == 1 else None

    def _by_name(self, task_id: str, written: str, files: tuple[str, ...]) -> None:
        """A note when a worker's path no mount maps named a project file by its tail."""
        if written.startswith("/") and files:
            self.notes.append(
                f"{self.label}: task `{task_id}`: `{written}` is a path of the worker that no compose volume or "
                f"Dockerfile COPY maps; matched to {files[0]} by name"
            )

    def _config_argument(self, node: ast.expr | None, name: str, scope: Where) -> Any:
        """A cosmos `ProjectConfig(path)` / `ProjectConfig(dbt_project_path=...)` value."""
        if isinstance(node, ast.Call):
            kw = _keywords(node)
            return self._setting(kw.get(name) or (node.args[0] if node.args else None), scope)
        return self._setting(node, scope) if node is not None else UNKNOWN

    def _specs(self, task_id: str, operator: str, kw: dict, scope: Where) -> tuple[list[dict] | None, Any]:
        """The Jobs API task documents an operator runs, and its `git_source`."""
        if operator == "DatabricksNotebookOperator":
            path = self._setting(kw.get("notebook_path"), scope)
            source = self._setting(kw.get("source"), scope)
            params = self._setting(kw.get("notebook_params"), scope)
            task: dict[str, Any] = {"notebook_path": path}
            if isinstance(source, str):
                task["source"] = source
            if isinstance(params, dict):
                task["base_parameters"] = _known(params)
            return ([{"task_key": task_id, "notebook_task": task}] if isinstance(path, str) else None), None
        if operator == "DatabricksTaskOperator":
            config = self._setting(kw.get("task_config"), scope)
            return ([{**_known(config), "task_key": task_id}] if isinstance(config, dict) else None), None
        document = self._setting(kw["json"], scope) if "json" in kw else {}
        if not isinstance(document, dict):
            return None, None
        document = dict(document)
        for name in ("notebook_task", "spark_python_task", "sql_task", "tasks", "git_source"):
            if name in kw:
                document[name] = self._setting(kw[name], scope)
        document = _known(document)
        git = document.get("git_source") if isinstance(document.get("git_source"), dict) else None
        if isinstance(document.get("tasks"), list):
            tasks = [t for t in document["tasks"] if isinstance(t, dict) and isinstance(t.get("task_key"), str)]
            return tasks or None, git
        single = {k: v for k, v in document.items() if k in ("notebook_task", "spark_python_task", "sql_task")}
        return ([{**single, "task_key": task_id}] if single else None), git

    def _created_job(self, kw: dict, where: Location, scope: Where) -> None:
        """The job a `DatabricksCreateJobsOperator` creates (or resets, when it has that
        name): its `json=` with the settings given as keyword arguments over it, read
        as the bundle reader reads Jobs API settings. The job runs on its own schedule
        (or when a `DatabricksRunNowOperator` names it), not as a step of the DAG, so
        its `max_concurrent_runs` is its own."""
        document = self._setting(kw["json"], scope) if "json" in kw else {}
        if not isinstance(document, dict):
            return
        document = dict(document)
        for name in _JOB_SETTINGS:
            if name in kw:
                document[name] = self._setting(kw[name], scope)
        settings = _known(document)
        name = settings.get("name")
        tasks = settings.get("tasks")
        if not isinstance(name, str) or not name or not isinstance(tasks, list):
            return
        if not any(isinstance(t, dict) and isinstance(t.get("task_key"), str) for t in tasks):
            return
        job = job_from_settings(name, settings, self.file, self.root, base=self.file.parent)
        self.created.append(replace(job, location=where))

    def _run_now(self, task_id: str, kw: dict, after: tuple[str, ...], where: Location, scope: Where) -> Task:
        ref = self._setting(kw.get("job_name"), scope) if "job_name" in kw else self._setting(kw.get("job_id"), scope)
        given: list[str] = []
        for name in ("job_parameters", "notebook_params"):
            params = self._setting(kw.get(name), scope) if name in kw else None
            if isinstance(params, dict):
                given += [str(k) for k in params]
        if not isinstance(ref, (str, int)) or isinstance(ref, bool):
            problem = "the job it runs (`job_name`, `job_id`) is not static"
            return Task(task_id, "run_job_task", (), after, location=where, problem=problem)
        return Task(task_id, "run_job_task", (), after, location=where, starts=(str(ref), tuple(sorted(given))))


# Airflow's template variables that differ between any two runs of one DAG: the
# run's id and its logical date (unique per DAG), and the data interval it covers
_RUN_VARIABLES = frozenset(
    {
        "run_id",
        "dag_run.run_id",
        "ts",
        "ts_nodash",
        "ts_nodash_with_tz",
        "logical_date",
        "execution_date",
        "dag_run.logical_date",
        "data_interval_start",
        "data_interval_end",
    }
)
_DAY_VARIABLES = frozenset({"ds", "ds_nodash"})  # the logical date's day
_DATES = frozenset(
    {"logical_date", "execution_date", "dag_run.logical_date", "data_interval_start", "data_interval_end"}
)
_FILTERS = {"ds": "day", "ds_nodash": "day", "ts": "run", "ts_nodash": "run"}  # `{{ logical_date | ds }}`
# one Jinja expression: a variable, optionally one filter (the text around it is literal)
_TEMPLATE = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*(?:\|\s*([A-Za-z_]\w*)\s*)?\}\}")


def _run_template(value: object) -> tuple[str, str] | None:
    """Whether a parameter's written value is filled by Airflow per run from one
    template variable (literal text around it): its granularity, "run" (a value
    per run) or "day" (the logical date's day), and the template as written. None
    for anything else: another variable (`{{ params.x }}`, `{{ dag_run.conf }}`),
    several expressions, statements (`{% ... %}`), a value not a string."""
    if not isinstance(value, str) or value.count("{{") != 1 or "{%" in value:
        return None
    found = _TEMPLATE.search(value)
    if found is None:
        return None
    name, applied = found.group(1), found.group(2)
    if applied is None:
        grain = "run" if name in _RUN_VARIABLES else "day" if name in _DAY_VARIABLES else None
    else:
        grain = _FILTERS.get(applied) if name in _DATES else None
    return (grain, found.group(0)) if grain is not None else None


@lru_cache(maxsize=256)
def _once_a_day(quartz: str) -> bool | None:
    """Whether a schedule starts at most one run a day (UTC, as `{{ ds }}` is), over
    the schedule's year; None when its times cannot be told."""
    try:
        times = fire_times(quartz, "UTC", HORIZON_START, HORIZON_START + HORIZON)
    except CronError:
        return None
    if times is None:
        return False  # past the runs a year is read for: many a day
    return len({t.date() for t in times}) == len(times)


def _written_parameters(spec: dict) -> Any:
    """A Jobs API task's parameters as written (`base_parameters`, `parameters`)."""
    for kind in ("notebook_task", "spark_python_task", "python_wheel_task"):
        inner = spec.get(kind)
        if isinstance(inner, dict):
            return inner.get("base_parameters") or inner.get("parameters")
    return None


def _orders(node: ast.AST) -> bool:
    """Whether a node orders tasks: `a >> b`, `a << b`, `chain(...)`, `set_downstream`."""
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, (ast.RShift, ast.LShift))
    return isinstance(node, ast.Call) and _callee(node) in (
        "chain",
        "cross_downstream",
        "set_downstream",
        "set_upstream",
    )


def _carries_order(body: list[ast.stmt]) -> bool:
    """Whether a loop's body orders its tasks after a name it sets later in the body
    (`prev >> t; prev = t`): that name holds the last round's task, so each round
    runs after the one before."""
    set_at: dict[str, int] = {}
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                set_at.setdefault(node.id, getattr(node, "lineno", 0))
    for stmt in body:
        for node in ast.walk(stmt):
            if not _orders(node):
                continue
            for name in ast.walk(node):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Load) and name.id in set_at:
                    if name.lineno < set_at[name.id]:
                        return True
    return False


def _unpack(target: ast.expr, item: object, bound: dict[str, object]) -> bool:
    """Bind a loop's target to one item (`for a, b in [("x", "y")]`); False when the
    item cannot be taken apart as the target asks."""
    if isinstance(target, ast.Name):
        bound[target.id] = item
        return True
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(item, (tuple, list)):
        if len(target.elts) != len(item) or any(isinstance(e, ast.Starred) for e in target.elts):
            return False
        return all(_unpack(t, i, bound) for t, i in zip(target.elts, item))
    return False


def _known(value: Any) -> Any:
    """A document with its unknown values left out (the bundle rules then say what
    is missing: "has no file path")."""
    if isinstance(value, dict):
        return {k: _known(v) for k, v in value.items() if not isinstance(v, Unknown)}
    if isinstance(value, list):
        return [_known(v) for v in value if not isinstance(v, Unknown)]
    return value


def _quartz(text: str) -> str | None:
    """An Airflow schedule string (5-field cron or a preset) as Quartz; None when it
    is not one."""
    text = text.strip()
    if text in _PRESETS:
        return _PRESETS[text]
    fields = text.split()
    if len(fields) != 5:
        return None
    minute, hour, dom, month, dow = fields
    if dow == "*":
        return f"0 {minute} {hour} {dom} {month} ?"
    if dom not in ("*", "?"):
        return None  # Unix cron runs on either day field; Quartz cannot say "or"
    days = []
    for part in dow.upper().split(","):
        head, _, step = part.partition("/")
        ends = head.split("-")
        if not all(e.isdigit() and int(e) <= 7 or e in _DOW for e in ends) or len(ends) > 2:
            return None
        names = [_DOW[int(e)] if e.isdigit() else e for e in ends]
        if len(names) == 2 and ends[1] == "7":  # `5-7`: Friday to Sunday
            days.append(f"{names[0]}-SAT" + (f"/{step}" if step else "") + ",SUN")
            continue
        days.append("-".join(names) + (f"/{step}" if step else ""))
    return f"0 {minute} {hour} ? {month} {','.join(days)}"
