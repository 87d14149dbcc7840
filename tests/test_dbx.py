"""Jobs defined in dbx deployment files (`conf/deployment.yml`, `.json`, `.j2`).

dbx deploys the workflows of one environment (`dbx deploy --environment`,
`default` without it) to that environment's workspace: two workflows of one
environment that run one file are two jobs of one workspace, paired as any two
jobs are; the same workflow in two environments runs in two workspaces and is
never paired. Task parameters that name a project file (`file:fuse://conf/x.yml`)
reach the code as that file, whose content the value layer reads."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli
from tests.test_link import NB, _conflicts

OVERWRITE = NB + 'spark.table("demo.features").write.mode("overwrite").saveAsTable("demo.scores")\n'
NIGHTLY = '        schedule: {quartz_cron_expression: "0 30 1 * * ?", timezone_id: UTC}\n'


def _workflow(name: str, path: str = "file://jobs/score.py", extra: str = "") -> str:
    return (
        f"      - name: {name}\n{extra}"
        "        tasks:\n"
        "          - task_key: score\n"
        f"            spark_python_task: {{python_file: '{path}'}}\n"
    )


def _deployment(**environments: list[str]) -> str:
    text = "build:\n  no_build: true\nenvironments:\n"
    for env, workflows in environments.items():
        text += f"  {env}:\n    workflows:\n" + "".join(workflows)
    return text


def _notes(result) -> list[str]:
    return [n for n in result.notes if "dbx" in n]


def test_two_workflows_of_one_environment_running_one_file_conflict(lint):
    files = {
        "jobs/score.py": OVERWRITE,
        "conf/deployment.yml": _deployment(default=[_workflow("nightly", extra=NIGHTLY), _workflow("adhoc")]),
    }
    result = lint(files)
    conflicts = [f for f in result.findings if f.rule.startswith("DL1")]
    assert [(f.table, f.location.path, f.location.line) for f in conflicts] == [("demo.scores", "jobs/score.py", 2)]
    assert "job `adhoc` has no schedule" in conflicts[0].overlap
    assert any("environment `default`" in n for n in _notes(result)), result.notes


def test_the_same_workflow_in_two_environments_is_never_paired(lint):
    files = {
        "jobs/score.py": OVERWRITE,
        "conf/deployment.yml": _deployment(
            default=[_workflow("nightly", extra=NIGHTLY)], production=[_workflow("nightly", extra=NIGHTLY)]
        ),
    }
    result = lint(files)
    assert _conflicts(result) == []
    assert any("also defined: `production`, which `--target` judges" in n for n in _notes(result))
    assert not any("no schedule is known" in n for n in result.notes)


def test_one_scheduled_workflow_of_one_run_at_a_time_is_not_paired_with_itself(lint):
    deployment = _deployment(default=[_workflow("nightly", extra=NIGHTLY + "        max_concurrent_runs: 1\n")])
    assert _conflicts(lint({"jobs/score.py": OVERWRITE, "conf/deployment.yml": deployment})) == []
    # several runs at once: its runs meet each other
    twice = _deployment(default=[_workflow("nightly", extra=NIGHTLY + "        max_concurrent_runs: 3\n")])
    assert _conflicts(lint({"conf/deployment.yml": twice})) != []


def test_the_target_chooses_the_environment(lint):
    files = {
        "jobs/score.py": OVERWRITE,
        "conf/deployment.yml": _deployment(
            default=[_workflow("nightly", extra=NIGHTLY)],
            production=[_workflow("nightly", extra=NIGHTLY), _workflow("backfill")],
        ),
    }
    assert _conflicts(lint(files)) == []
    chosen = lint(files, {"target": "production"})
    assert _conflicts(chosen) != []
    assert any("environment `production` (chosen with --target" in n for n in _notes(chosen))


def test_several_environments_none_named_default_judge_the_first_and_say_so(lint):
    files = {
        "jobs/score.py": OVERWRITE,
        "conf/deployment.yml": _deployment(
            dev=[_workflow("nightly", extra=NIGHTLY), _workflow("adhoc")], prod=[_workflow("nightly", extra=NIGHTLY)]
        ),
    }
    result = lint(files)
    assert _conflicts(result) != []
    assert any("environment `dev` (none is named `default`" in n and "`prod`" in n for n in _notes(result))


def test_older_shapes_jobs_key_single_task_workflow_and_top_level_environments(lint):
    # `jobs:` instead of `workflows:`, and a Jobs API 2.0 workflow (its one task at its own level)
    older = (
        "environments:\n  default:\n    jobs:\n"
        "      - name: nightly\n" + NIGHTLY + "        spark_python_task: {python_file: 'file://jobs/score.py'}\n"
        "      - name: adhoc\n        spark_python_task: {python_file: 'file://jobs/score.py'}\n"
    )
    assert _conflicts(lint({"jobs/score.py": OVERWRITE, "conf/deployment.yml": older})) != []
    # before dbx 0.7: a JSON file whose top level holds the environments
    legacy = {
        "default": {
            "jobs": [
                {"name": "nightly", "spark_python_task": {"python_file": "file://jobs/score.py"}},
                {"name": "adhoc", "spark_python_task": {"python_file": "file://jobs/score.py"}},
            ]
        },
        "prod": {"jobs": []},
    }
    files = {"jobs/score.py": OVERWRITE, "conf/deployment.json": json.dumps(legacy, indent=2)}
    Path("conf/deployment.yml").unlink()
    assert _conflicts(lint(files)) != []


def test_anchors_and_merges_give_a_task_its_settings(lint):
    deployment = (
        "custom:\n"
        "  score-task: &score-task\n"
        "    task_key: score\n"
        "    spark_python_task: {python_file: 'file://jobs/score.py'}\n"
        "environments:\n  default:\n    workflows:\n"
        "      - name: nightly\n" + NIGHTLY + "        tasks:\n          - <<: *score-task\n"
        "      - name: adhoc\n        tasks:\n          - *score-task\n"
    )
    assert _conflicts(lint({"jobs/score.py": OVERWRITE, "conf/deployment.yml": deployment})) != []


def test_notebook_paths_of_a_git_source_and_of_the_project(lint):
    git = "        git_source: {git_url: 'https://example.com/repo.git', git_provider: github, git_branch: main}\n"
    deployment = (
        "environments:\n  default:\n    workflows:\n"
        "      - name: nightly\n" + NIGHTLY + git + "        tasks:\n"
        "          - task_key: score\n            notebook_task: {notebook_path: jobs/score}\n"
        "      - name: adhoc\n        tasks:\n"
        "          - task_key: score\n            notebook_task: {notebook_path: 'file://jobs/score.py'}\n"
    )
    assert _conflicts(lint({"jobs/score.py": OVERWRITE, "conf/deployment.yml": deployment})) != []


def test_a_jinja_block_is_a_diagnostic_at_its_line_and_a_jinja_path_unknown(lint):
    template = (
        "environments:\n  default:\n    workflows:\n"
        "{% for name in ['a', 'b'] %}\n" + _workflow("score-{{ name }}") + "{% endfor %}\n"
    )
    result = lint({"jobs/score.py": OVERWRITE, "conf/deployment.yml.j2": template})
    problems = [f for f in result.findings if f.rule == "DL003"]
    assert [(f.location.path, f.location.line) for f in problems] == [("conf/deployment.yml.j2", 4)]
    assert "Jinja" in problems[0].message and "Traceback" not in problems[0].message
    assert _conflicts(result) == []


def test_a_jinja_value_is_unknown_where_dbx_renders_templates(lint):
    deployment = _deployment(
        default=[_workflow("nightly", extra=NIGHTLY), _workflow("adhoc", path="file://jobs/{{ env.JOB }}.py")]
    )
    files = {
        "jobs/score.py": OVERWRITE,
        ".dbx/project.json": json.dumps({"environments": {"default": {}}, "inplace_jinja_support": True}),
        "conf/deployment.yml": deployment,
    }
    result = lint(files)
    assert _conflicts(result) == []  # which file `adhoc` runs only a deployment knows
    unread = [f for f in result.findings if f.rule == "DL006"]
    assert any("Jinja template" in f.message for f in unread), [f.message for f in result.findings]


def test_a_malformed_deployment_file_is_a_diagnostic_at_its_line(lint):
    broken = "environments:\n  default:\n    workflows:\n      - name: [nightly\n"
    result = lint({"jobs/score.py": OVERWRITE, "conf/deployment.yml": broken})
    problems = [f for f in result.findings if f.rule == "DL003"]
    assert len(problems) == 1 and problems[0].location.path == "conf/deployment.yml"
    assert problems[0].location.line >= 4 and "invalid YAML" in problems[0].message


def test_a_deployment_file_of_another_tool_is_passed_over(lint):
    kubernetes = "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      environments: []\n"
    result = lint({"jobs/score.py": OVERWRITE, "k8s/deployment.yaml": kubernetes})
    assert [f.rule for f in result.findings if f.rule == "DL003"] == []
    assert any("no schedule is known" in n for n in result.notes)


CONF_TASK = (
    "import argparse\nimport yaml\n\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--conf-file")\n'
    "args, _ = parser.parse_known_args()\n"
    "with open(args.conf_file) as f:\n"
    "    conf = yaml.safe_load(f)\n"
    'spark.table("demo.rows").write.mode("overwrite").saveAsTable(conf["output"]["table"])\n'
)


def _conf_workflow(name: str, conf: str, extra: str = "") -> str:
    return (
        f"      - name: {name}\n{extra}        tasks:\n          - task_key: score\n"
        "            spark_python_task:\n"
        "              python_file: 'file://jobs/score.py'\n"
        f"              parameters: ['--conf-file', '{conf}']\n"
    )


def test_a_conf_file_parameter_names_the_project_document_the_task_reads(lint):
    deployment = _deployment(
        default=[
            _conf_workflow("nightly", "file:fuse://conf/tasks/score.yml", NIGHTLY),
            _conf_workflow("adhoc", "file:fuse://conf/tasks/score.yml"),
        ]
    )
    files = {
        "jobs/score.py": CONF_TASK,
        "conf/tasks/score.yml": "output:\n  table: demo.scored\n",
        "conf/deployment.yml": deployment,
    }
    result = lint(files)
    assert sorted({f.table for f in result.findings if f.rule.startswith("DL1")}) == ["demo.scored"]


def test_a_conf_file_the_project_does_not_have_leaves_the_table_unknown(lint):
    deployment = _deployment(
        default=[
            _conf_workflow("nightly", "file:fuse://conf/tasks/missing.yml", NIGHTLY),
            _conf_workflow("adhoc", "file:fuse://conf/tasks/missing.yml"),
        ]
    )
    result = lint({"jobs/score.py": CONF_TASK, "conf/deployment.yml": deployment})
    assert "demo.scored" not in {f.table for f in result.findings}
    assert any(f.rule == "DL001" for f in result.findings)


def test_the_schedule_command_draws_the_judged_environment(tmp_path: Path) -> None:
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "score.py").write_text(OVERWRITE)
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "deployment.yml").write_text(
        _deployment(default=[_workflow("nightly", extra=NIGHTLY)], production=[_workflow("weekly")])
    )
    shown = run_cli("schedule", ".", "--all", cwd=tmp_path).stdout
    assert "nightly" in shown and "weekly" not in shown
    assert "environment `default`" in shown


def test_a_workflow_two_deployment_files_deploy_is_one_job(lint):
    # `dbx deploy --deployment-file conf/deployment-ci.yml` updates the job of that name
    one = _deployment(default=[_workflow("nightly", extra=NIGHTLY)])
    result = lint({"jobs/score.py": OVERWRITE, "conf/deployment.yml": one, "conf/deployment-ci.yml": one})
    assert _conflicts(result) == [] and [f for f in result.findings if f.rule == "DL003"] == []
    assert any("is deployed by conf/deployment-ci.yml file too" in n for n in result.notes), result.notes
    # the near miss: one file defining the name twice is refused by dbx
    twice = _deployment(default=[_workflow("nightly", extra=NIGHTLY), _workflow("nightly")])
    Path("conf/deployment-ci.yml").unlink()
    problems = [f for f in lint({"conf/deployment.yml": twice}).findings if f.rule == "DL003"]
    assert [(f.location.path, f.location.line) for f in problems] == [("conf/deployment.yml", 11)]


def test_an_environment_without_workflows_is_a_diagnostic_only_in_dbx_s_own_folder(lint):
    empty = "environments:\n  default:\n    profile: dev\n"
    problems = [f for f in lint({"conf/deployment.yml": empty}).findings if f.rule == "DL003"]
    assert [(f.location.path, f.location.line) for f in problems] == [("conf/deployment.yml", 2)]
    assert "needs a `workflows` list" in problems[0].message
    Path("conf/deployment.yml").unlink()
    # the near miss: another tool's `deployment.yml` elsewhere that says `environments`
    assert [f for f in lint({"deploy/deployment.yml": empty}).findings if f.rule == "DL003"] == []


WHEEL_TASK = (
    "import argparse\nimport yaml\n\n\n"
    "def entrypoint():\n"
    "    parser = argparse.ArgumentParser()\n"
    '    parser.add_argument("--conf-file")\n'
    "    args, _ = parser.parse_known_args()\n"
    "    with open(args.conf_file) as f:\n"
    "        conf = yaml.safe_load(f)\n"
    '    spark.table("demo.rows").write.mode("overwrite").saveAsTable(conf["output"]["table"])\n\n\n'
    'if __name__ == "__main__":\n    entrypoint()\n'
)


def _wheel_workflow(name: str, conf: str, extra: str = "") -> str:
    return (
        f"      - name: {name}\n{extra}        tasks:\n          - task_key: main\n"
        "            python_wheel_task:\n              package_name: pkg\n              entry_point: score\n"
        f"              parameters: ['--conf-file', '{conf}']\n"
    )


def test_a_wheel_task_s_conf_file_parameter_reaches_its_entry_point(lint):
    deployment = _deployment(
        default=[
            _wheel_workflow("nightly", "file:fuse://conf/tasks/score.yml", NIGHTLY),
            _wheel_workflow("adhoc", "file:fuse://conf/tasks/score.yml"),
        ]
    )
    files = {
        "pkg/score.py": WHEEL_TASK,
        "conf/tasks/score.yml": "output:\n  table: demo.scored\n",
        "conf/deployment.yml": deployment,
    }
    assert sorted({f.table for f in lint(files).findings if f.rule.startswith("DL1")}) == ["demo.scored"]
    # the near miss: a Jinja-rendered conf path (a `.j2` deployment file) is a deployment's, unknown
    Path("conf/deployment.yml").unlink()
    templated = deployment.replace("conf/tasks/score.yml", "conf/tasks/{{ var.task }}.yml")
    result = lint({"conf/deployment.yml.j2": templated})
    assert "demo.scored" not in {f.table for f in result.findings}
    assert [f.rule for f in result.findings if f.rule in ("DL001", "DL003")] == ["DL001"]


def test_a_cached_run_sees_the_deployment_file_change(tmp_path: Path) -> None:
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "score.py").write_text(OVERWRITE)
    (tmp_path / "conf").mkdir()
    deployment = tmp_path / "conf" / "deployment.yml"
    deployment.write_text(_deployment(default=[_workflow("nightly", extra=NIGHTLY), _workflow("adhoc")]))

    def rules() -> list[str]:
        doc = json.loads(run_cli("check", ".", "--format", "json", cwd=tmp_path).stdout)
        return sorted(f["rule"] for f in doc["findings"] if f["rule"].startswith("DL1"))

    assert rules() == rules() == ["DL102"]
    # the near miss: `adhoc` moved to another environment is another workspace's job
    deployment.write_text(_deployment(default=[_workflow("nightly", extra=NIGHTLY)], prod=[_workflow("adhoc")]))
    assert rules() == []
