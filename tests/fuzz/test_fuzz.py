"""The fuzzing suite: generated SQL, Python, notebooks, bundles, Jobs JSON,
notebooks that `%run` each other, Terraform jobs and configurations. For every
input: no traceback, an exit code in {0, 1, 2}, no "internal error" (nor a DL002
finding), no hang (a per-case time limit; READER_LIMIT for `%run` graphs and
Terraform), the same output with --jobs 1 and 2, with and without the cache and
across hash seeds — and every write planted in a generated file is found by
`intents` (the oracle).

The CLI runs in-process (a subprocess costs a second of imports); one property
uses subprocesses, for hash seeds. Budget: FUZZ_EXAMPLES (default: the CI share,
about a minute in all); benchmarks/fuzz.py runs the same properties longer and
records the numbers in benchmarks/FUZZ.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from delta_lint.cli import app
from tests.fuzz.generate import (
    ANY_VALUE,
    SAMPLE_CONFIG,
    Project,
    mutated,
    projects,
    run_graphs,
    sample_bundle,
    terraform_projects,
)
from tests.limits import within as time_limit

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "0")) or None
CASE_LIMIT = int(os.environ.get("FUZZ_CASE_SECONDS", "120"))  # a hang, not a speed goal: the machine is shared


def budget(ci_examples: int, long_cap: int | None = None):
    """CI: a fixed, derandomized sample; a long run (FUZZ_EXAMPLES): fresh random cases
    (at most `long_cap` for a property that pays a subprocess per case)."""
    return settings(
        max_examples=min(EXAMPLES, long_cap or EXAMPLES) if EXAMPLES else ci_examples,
        deadline=None,
        derandomize=EXAMPLES is None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


@contextmanager
def written(files: dict[str, str]):
    with tempfile.TemporaryDirectory(prefix="delta-lint-fuzz-") as tmp:
        root = Path(tmp)
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        yield root


def run(root: Path, *args: str, seconds: int = CASE_LIMIT) -> tuple[int, str, str]:
    """The CLI in-process, in `root`: (exit code, standard output, all output); every
    answer is checked for the promises, and a run past `seconds` fails the case."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        with time_limit(seconds):
            result = CliRunner().invoke(app, list(args))
    finally:
        os.chdir(cwd)
    out = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}\n{out}")
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, out)
    assert "Traceback" not in out and "internal error" not in out, out
    return result.exit_code, result.stdout, out


def check_json(root: Path, *extra: str, seconds: int = CASE_LIMIT) -> tuple[int, list[dict]]:
    code, out, _ = run(root, "check", ".", "--format", "json", "--spark", "none", *extra, seconds=seconds)
    if code == 2:
        return code, []
    findings = json.loads(out)["findings"]
    assert not [f for f in findings if f["rule"] == "DL002"], findings  # an internal error, reported as a finding
    return code, findings


def planted_found(root: Path, project: Project, seconds: int = CASE_LIMIT) -> None:
    code, out, _ = run(root, "intents", ".", "--format", "json", seconds=seconds)
    assert code == 0, out
    found = {(i["path"], i["table"], i["kind"]) for i in json.loads(out)}
    missing = project.planted - found
    assert not missing, f"planted writes not found: {sorted(missing)}\nfound: {sorted(found)}"
    invented = {(p, t) for p, t, _ in found} - {(p, t) for p, t, _ in project.planted}
    assert not invented, f"writes found that were never planted: {sorted(invented)}"


@budget(ci_examples=100)
@given(projects())
def test_generated_job_files_keep_every_planted_write_and_one_answer(project):
    with written(project.files) as root:
        planted_found(root, project)
        reference = check_json(root, "--no-cache", "--jobs", "1")
        # generated code is shallow and readable: a front end that gives up on it
        # ("nested too deeply", an unreadable file) has dropped code it should read
        # (a NUL byte is reported as DL003 by design: the file is still read)
        nul = {path for path, text in project.files.items() if "\x00" in text}
        gave_up = [
            f
            for f in reference[1]
            if (f["rule"] == "DL003" and f["location"]["path"] not in nul) or "too deep" in f["message"]
        ]
        assert not gave_up, gave_up
        assert check_json(root, "--no-cache", "--jobs", "2") == reference
        assert check_json(root) == reference  # cold cache
        assert check_json(root) == reference  # warm cache


@budget(ci_examples=80)
@given(projects(max_files=4), st.data())
def test_generated_bundles_and_jobs_json_never_stop_the_run(project, data):
    """A bundle at the root and the Jobs JSON files are found, not named: whatever
    they hold, the run goes on (exit 0 or 1) and the job files are still read."""
    files = sorted(project.files)
    bundle = data.draw(st.one_of(st.just(sample_bundle(files)), mutated(sample_bundle(files))))
    export = {"job_id": 7, "settings": sample_bundle(files)["resources"]["jobs"]["nightly"]}
    export = data.draw(st.one_of(st.just(export), mutated(export)))
    as_text = data.draw(st.sampled_from(["yaml", "json-in-yaml"]))
    bundle_text = yaml.safe_dump(bundle) if as_text == "yaml" else json.dumps(bundle)
    export_text = json.dumps(export)
    if data.draw(st.integers(0, 4)) == 0:  # cut short: broken YAML or JSON
        bundle_text = bundle_text[: data.draw(st.integers(0, len(bundle_text)))]
        export_text = export_text[: data.draw(st.integers(0, len(export_text)))]
    config = "job_definitions: exports\nspark: none\n"
    included = {
        "resources": {"jobs": {"weekly": data.draw(mutated(sample_bundle(files)["resources"]["jobs"]["nightly"]))}}
    }
    extra = {
        "databricks.yml": bundle_text,
        "resources/weekly.yml": yaml.safe_dump(included),
        "exports/job.json": export_text,
        "delta-lint.yaml": config,
    }
    with written({**project.files, **extra}) as root:
        code, findings = check_json(root, "--no-cache")
        assert code in (0, 1), findings
        planted_found(root, project)
        assert check_json(root) == (code, findings)


# A generated `%run` graph or Terraform project is a handful of small files: a run
# of it takes about a second; past this it grows faster than its input (a hang).
READER_LIMIT = min(CASE_LIMIT, int(os.environ.get("FUZZ_READER_SECONDS", "20")))


@budget(ci_examples=12)
@given(run_graphs())
def test_generated_run_graphs_finish_and_resolve_what_their_includes_define(project):
    """Notebooks that `%run` each other (cycles, every notebook running every other,
    paths of thousands of folders) finish within READER_LIMIT, and each write of a
    name another notebook defines names that notebook's table."""
    with written(project.files) as root:
        planted_found(root, project, seconds=READER_LIMIT)
        code, findings = check_json(root, "--no-cache", seconds=READER_LIMIT)
        assert code in (0, 1), findings


@budget(ci_examples=12)
@given(terraform_projects())
def test_generated_terraform_jobs_are_read_or_reported_within_a_time_bound(generated):
    """Terraform job files, right and wrong, never stop the run (exit 0 or 1, no
    internal error) and finish within READER_LIMIT; the job files' planted writes are
    all found, and every task of a resource that is read is in the schedule."""
    project = generated.project
    with written(project.files) as root:
        code, findings = check_json(root, "--no-cache", seconds=READER_LIMIT)
        assert code in (0, 1), findings
        planted_found(root, project, seconds=READER_LIMIT)
        _, out, _ = run(root, "schedule", ".", "--format", "json", seconds=READER_LIMIT)
        nodes = {(n["job"], n["task"], file) for n in json.loads(out)["nodes"] for file in n["files"]}
        assert generated.expected <= nodes, (sorted(generated.expected - nodes), sorted(nodes))


@budget(ci_examples=300)
@given(st.data())
def test_generated_configurations_are_accepted_or_refused_with_a_message(data):
    config = data.draw(
        st.one_of(mutated(SAMPLE_CONFIG), st.dictionaries(st.sampled_from(sorted(SAMPLE_CONFIG)), ANY_VALUE))
    )
    as_toml = isinstance(config, dict) and data.draw(st.booleans())  # a TOML table is a mapping
    files = {"a.sql": "DELETE FROM t_a WHERE d = '1';\n", "jobs/b.sql": "UPDATE t_a SET v = 1 WHERE d = '2';\n"}
    if as_toml:
        files["pyproject.toml"] = "[tool.delta-lint]\n" + _toml_body(config)
    else:
        files["delta-lint.yaml"] = yaml.safe_dump(config, allow_unicode=True)
    with written(files) as root:
        code, _, out = run(root, "check", ".", "--no-cache", "--spark", "none")
        if code == 2:
            name = "pyproject.toml" if as_toml else "delta-lint.yaml"
            assert out.startswith("delta-lint: error: ") and name in out and out.count("\n") == 1, out


def _toml_body(config: dict) -> str:
    """Plain TOML for what TOML can hold (no null); the rest as strings."""
    lines = []
    for key, value in config.items():
        lines.append(f"{json.dumps(key)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else '"nan"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps("" if value is None else str(value))


@budget(ci_examples=3, long_cap=30)
@given(projects(max_files=4))
def test_output_is_identical_across_hash_seeds(project):
    """The only property run in subprocesses: a hash seed is fixed at interpreter start."""
    with written(project.files) as root:
        outputs = set()
        for seed, jobs in (("1", "2"), ("2", "1")):
            proc = subprocess.run(
                [sys.executable, "-m", "delta_lint", "check", ".", "--format", "json", "--no-cache", "--jobs", jobs],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=CASE_LIMIT,
                env={**os.environ, "PYTHONHASHSEED": seed},
            )
            assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
            outputs.add(proc.stdout)
        _, in_process = check_json(root, "--no-cache")
        assert len(outputs) == 1 and json.loads(outputs.pop())["findings"] == in_process
