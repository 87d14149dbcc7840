"""What a DAG defines, built through functions of the project: an operator a plain
function returns (`def submit(task_id, script): return BashOperator(...)`, called
once per task, in a loop or a comprehension, through another factory) is a task of
the DAG with the call's arguments bound; a command a helper of another DAG-folder
module builds (`bash_command=spark_submit_cmd("/opt/airflow/jobs/x.py")`) names the
file it runs. An argument only a run knows leaves the task in the DAG, its file
unknown with a note, never a guess."""

from __future__ import annotations

from tests.test_airflow_spark_runs import FETCH, HEAD, MERGE, _problems
from tests.test_link import _conflicts

FACTORY = (
    "def submit(task_id, script):\n"
    '    return BashOperator(task_id=task_id, bash_command=f"spark-submit /opt/airflow/jobs/{script}", dag=dag)\n'
)


def _dag(dag_id: str, schedule: str, body: str, helpers: str = FACTORY) -> str:
    return (
        HEAD
        + "from airflow.models import Variable\n"
        + f'dag = DAG(dag_id="{dag_id}", start_date=datetime(2026, 1, 1), schedule={schedule}, '
        + "catchup=False, max_active_runs=1)\n"
        + helpers
        + body
    )


def _two(a: str, b: str, helpers: str = FACTORY, **files: str) -> dict[str, str]:
    """Every 15 minutes and a hand-started backfill, the script the MERGE, a second the fetch."""
    return {
        "dags/every15.py": _dag("every15", '"*/15 * * * *"', a, helpers),
        "dags/backfill.py": _dag("backfill", "None", b, helpers),
        "jobs/merge_audit.py": MERGE,
        "jobs/fetch.py": FETCH,
        **files,
    }


def test_a_task_a_factory_returns_runs_the_file_its_arguments_name(lint):
    body = 'run = submit("merge", "merge_audit.py")\n'
    assert _conflicts(lint(_two(body, body))) == ["DL102"]


def test_a_factory_argument_only_a_run_knows_keeps_the_task_and_says_so(lint):
    # the script comes from an Airflow Variable: the task exists, its file is not picked
    a = 'run = submit("merge", Variable.get("script"))\n'
    b = 'run = submit("merge", "merge_audit.py")\n'
    result = lint(_two(a, b))
    assert _conflicts(result) == []
    assert any("merge" in m and "every15" in m for m in _problems(result)), _problems(result)


def test_each_call_makes_a_task_of_its_own(lint):
    # two calls in one DAG: one runs the MERGE, the other the fetch; only the first meets the backfill
    a = 'm = submit("merge", "merge_audit.py")\nf = submit("fetch", "fetch.py")\n'
    b = 'run = submit("merge", "merge_audit.py")\n'
    assert _conflicts(lint(_two(a, b))) == ["DL102"]
    b_fetch = 'run = submit("fetch", "fetch.py")\n'
    assert _conflicts(lint(_two(a, b_fetch))) == []


def test_order_set_on_the_tasks_a_factory_returns_is_kept(lint):
    # two tasks of one DAG running the MERGE: side by side they meet, `a >> b` orders them
    beside = 'a = submit("merge_a", "merge_audit.py")\nb = submit("merge_b", "merge_audit.py")\n'
    ordered = beside + "a >> b\n"
    empty = 'x = submit("fetch", "fetch.py")\n'
    assert _conflicts(lint(_two(beside, empty))) == ["DL102"]
    assert _conflicts(lint(_two(ordered, empty))) == []


def test_a_factory_in_a_loop_or_a_comprehension_makes_a_task_per_item(lint):
    loop = 'for name in ["merge_audit", "fetch"]:\n    submit(name, f"{name}.py")\n'
    comprehension = 'tasks = [submit(n, f"{n}.py") for n in ["fetch", "merge_audit"]]\n'
    backfill = 'run = submit("merge", "merge_audit.py")\n'
    assert _conflicts(lint(_two(loop, backfill))) == ["DL102"]
    assert _conflicts(lint(_two(comprehension, backfill))) == ["DL102"]


def test_a_factory_calling_another_factory_is_read_through(lint):
    helpers = FACTORY + 'def load(name):\n    return submit(f"load_{name}", f"{name}.py")\n'
    a = 'run = load("merge_audit")\n'
    b = 'run = load("fetch")\n'
    assert _conflicts(lint(_two(a, a, helpers))) == ["DL102"]
    assert _conflicts(lint(_two(b, b, helpers))) == []


def test_a_command_an_imported_helper_builds_names_the_file_it_runs(lint):
    helper = (
        "def spark_submit_cmd(application: str, extra_args: str = '') -> str:\n"
        '    cmd = f"spark-submit --master spark://master:7077 {application}"\n'
        "    if extra_args:\n"
        '        cmd += f" {extra_args}"\n'
        "    return cmd\n"
    )
    imports = "from submit_config import spark_submit_cmd\n"
    a = 'run = BashOperator(task_id="merge", bash_command=spark_submit_cmd("/opt/airflow/jobs/merge_audit.py", "daily"), dag=dag)\n'
    b = 'run = BashOperator(task_id="merge", bash_command=spark_submit_cmd("/opt/airflow/jobs/merge_audit.py", extra_args="full"), dag=dag)\n'
    result = lint(_two(a, b, imports, **{"dags/submit_config.py": helper}))
    assert _conflicts(result) == ["DL102"]
    # near miss: the application is a Variable only a run knows: no file picked, the task says so
    c = 'run = BashOperator(task_id="merge", bash_command=spark_submit_cmd(Variable.get("app")), dag=dag)\n'
    result = lint(_two(c, b, imports, **{"dags/submit_config.py": helper}))
    assert _conflicts(result) == []
    assert any("only a run knows" in m for m in _problems(result)), _problems(result)


def test_a_command_with_a_part_only_a_run_knows_says_so_only_when_it_runs_a_file(lint):
    # `echo {x}` runs no file: nothing to say; `python {x}` runs one the text does not tell
    a = 'run = BashOperator(task_id="say", bash_command=f"echo {Variable.get(\'x\')}", dag=dag)\n'
    b = 'run = BashOperator(task_id="run", bash_command=f"python -u {Variable.get(\'x\')}", dag=dag)\n'
    empty = 'x = submit("fetch", "fetch.py")\n'
    assert _problems(lint(_two(a, empty))) == []
    problems = _problems(lint(_two(b, empty)))
    assert len(problems) == 1 and "`{...}`" in problems[0], problems


def _decorated(dag_id: str, schedule: str, call: str) -> str:
    """A `@dag` function whose own nested factory makes a `SparkSubmitOperator`."""
    return (
        HEAD
        + "from airflow.decorators import dag\n"
        + "from airflow.models import Variable\n"
        + f'@dag(dag_id="{dag_id}", start_date=datetime(2026, 1, 1), schedule={schedule}, max_active_runs=1)\n'
        + "def pipeline():\n"
        + "    def spark(name):\n"
        + '        return SparkSubmitOperator(task_id=name, application=f"/opt/airflow/jobs/{name}.py")\n'
        + f"    {call}\n"
        + "pipeline()\n"
    )


def test_a_factory_nested_in_a_dag_function_makes_its_spark_task(lint):
    files = {
        "dags/every15.py": _decorated("every15", '"*/15 * * * *"', 'spark("merge_audit")'),
        "dags/backfill.py": _decorated("backfill", "None", 'spark("merge_audit")'),
        "jobs/merge_audit.py": MERGE,
    }
    assert _conflicts(lint(files)) == ["DL102"]
    # near miss: the name is a Variable; the task exists, its application is not static
    files["dags/every15.py"] = _decorated("every15", '"*/15 * * * *"', 'spark(Variable.get("job"))')
    result = lint(files)
    assert _conflicts(result) == []
    assert any("application of `SparkSubmitOperator` is not static" in m for m in _problems(result)), _problems(result)
