"""The fuzzing suite for the readers added since its first properties: value
functions the evaluator interprets, Airflow DAG files, dbt projects and the
language server's framing. For every generated input: no traceback, no internal
error (nor a DL002 finding), a time bound (READER_LIMIT) and a memory bound (the
peak of what Python allocates during the case, MEMORY_LIMIT) — and what was
planted is found: the literal write beside evaluated ones, every Databricks task
of a DAG in the schedule, the kind of every model whose materialization is known.

Budget as in test_fuzz.py: FUZZ_EXAMPLES (default: the CI share, a handful of
derandomized cases each); benchmarks/fuzz.py runs them longer.
"""

from __future__ import annotations

import json
import tracemalloc
from contextlib import contextmanager

from hypothesis import given

from tests.fuzz.generate_readers import (
    AirflowProject,
    DbtProject,
    EvaluatorProject,
    airflow_projects,
    dbt_projects,
    evaluator_projects,
)
from tests.fuzz.test_fuzz import READER_LIMIT, budget, check_json, planted_found, run, written

# A generated case is a few small files: far below this. A value that grows without
# bound (a string doubled, `%*s` of a billion) passes it within a second.
MEMORY_LIMIT = 300 * 1024 * 1024


@contextmanager
def memory_bound(limit: int = MEMORY_LIMIT):
    """Fail the case if Python's allocations during it peak above `limit`."""
    tracemalloc.start()
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < limit, f"the case allocated {peak / 2**20:.0f} MB at its peak"


@budget(ci_examples=8)
@given(evaluator_projects())
def test_generated_value_functions_stay_in_budget_and_keep_the_literal_write(generated: EvaluatorProject):
    """Loops (empty ones too), strings that double, `%*s` widths, big integers,
    regexes shaped for backtracking, helpers and recursion, called from up to 60
    writes: no internal error, within time and memory; the literal write beside
    them is still found, and so is `known`'s, with the table Python's value names."""
    project = generated.project
    with written(project.files) as root, memory_bound():
        code, findings = check_json(root, "--no-cache", seconds=READER_LIMIT)
        assert code in (0, 1), findings
        _, out, _ = run(root, "intents", ".", "--format", "json", seconds=READER_LIMIT)
        found = {(i["path"], i["table"], i["kind"]) for i in json.loads(out)}
        assert project.planted <= found, (sorted(project.planted - found), sorted(found))


@budget(ci_examples=8)
@given(airflow_projects())
def test_generated_airflow_dags_schedule_every_databricks_task(generated: AirflowProject):
    """DAGs of odd shapes (missing arguments, values of the wrong type, chains of
    thousands of `>>`, cycles, lists) never stop the run, stay within time and
    memory, keep the job files' planted writes, and every Databricks task written
    right is in `delta-lint schedule --format json` with the file it runs."""
    project = generated.project
    with written(project.files) as root, memory_bound():
        code, findings = check_json(root, "--no-cache", seconds=READER_LIMIT)
        assert code in (0, 1), findings
        planted_found(root, project, seconds=READER_LIMIT)
        _, out, _ = run(root, "schedule", ".", "--format", "json", seconds=READER_LIMIT)
        nodes = {(n["job"], n["task"], file) for n in json.loads(out)["nodes"] for file in n["files"]}
        assert generated.expected <= nodes, (sorted(generated.expected - nodes), sorted(nodes))


@budget(ci_examples=8)
@given(dbt_projects())
def test_generated_dbt_projects_give_each_known_materialization_its_intent(generated: DbtProject):
    """dbt projects with folder configs and `config()` calls right and odd, run by
    jobs with generated selectors: no internal error, within time and memory, and
    each model whose materialization is known writes with its kind."""
    project = generated.project
    with written(project.files) as root, memory_bound():
        code, findings = check_json(root, "--no-cache", seconds=READER_LIMIT)
        assert code in (0, 1), findings
        _, out, _ = run(root, "intents", ".", "--format", "json", seconds=READER_LIMIT)
        kinds: dict[str, set[str]] = {}
        for intent in json.loads(out):
            kinds.setdefault(intent["path"], set()).add(intent["kind"])
        wrong = {
            path: (kind, kinds.get(path))
            for path, kind in generated.expected.items()
            if kind not in kinds.get(path, set())
        }
        assert not wrong, (wrong, kinds)
        _, out, _ = run(root, "schedule", ".", "--format", "json", seconds=READER_LIMIT)
        json.loads(out)
