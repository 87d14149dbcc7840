"""Terraform jobs whose settings are Terraform values (`quartz_cron_expression =
var.nightly_cron`): the module's variable defaults, `locals` and variables files give
them; a value nobody gives is unknown and says which reference, at the attribute's
line; a paused schedule starts nothing, as in a bundle."""

from __future__ import annotations

import pytest

from tests.test_link import NB

# two jobs overwrite one table; `evening` runs at 20:00, `nightly` when CRON says
JOBS_TF = """resource "databricks_job" "nightly" {
  name = "nightly"

  task {
    task_key = "load"
    notebook_task {
      notebook_path = "./load"
    }
  }

  schedule {
    quartz_cron_expression = CRON
    timezone_id            = "UTC"
    pause_status           = "PAUSE"
  }
}

resource "databricks_job" "evening" {
  name = "evening"
  task {
    task_key = "fix"
    notebook_task {
      notebook_path = "./fix"
    }
  }
  schedule {
    quartz_cron_expression = "0 0 20 * * ?"
    timezone_id            = "UTC"
  }
}
"""
CRON_LINE = 12  # the line of `quartz_cron_expression` in the nightly job
LOAD = NB + 'spark.table("demo.raw.a").write.mode("overwrite").saveAsTable("demo.silver.t")\n'
FIX = NB + 'spark.table("demo.raw.b").write.mode("overwrite").saveAsTable("demo.silver.t")\n'


def _check(lint, cron: str, pause: str = "UNPAUSED", **files: str):
    """The findings on the two jobs, with `nightly`'s schedule written as `cron`."""
    tf = JOBS_TF.replace("CRON", cron).replace("PAUSE", pause)
    more = {"infra/" + name.replace("__", "."): text for name, text in files.items()}
    return lint({"infra/main.tf": tf, "infra/load.py": LOAD, "infra/fix.py": FIX, **more}).findings


def _conflicts(found) -> list[str]:
    return sorted(f.rule for f in found if f.rule.startswith("DL1"))


def _unreadable(found) -> list[tuple[str, int, str]]:
    return [(f.location.path, f.location.line, f.message) for f in found if f.rule == "DL003"]


VARIABLE = 'variable "nightly_cron" {\n  type    = string\n  default = "0 0 8 * * ?"\n}\n'
BARE_VARIABLE = 'variable "nightly_cron" {\n  type = string\n}\n'


def test_a_cron_from_a_variable_default_is_the_schedule(lint):
    """08:00 and 20:00 never meet: no conflict, and nothing unreadable (on main the
    cron was `${var.nightly_cron}`, a DL003 at line 1 and an overlap assumed)."""
    found = _check(lint, "var.nightly_cron", variables__tf=VARIABLE)
    assert _unreadable(found) == []
    assert _conflicts(found) == []
    # the near miss: a literal 20:00 meets the evening job
    assert _conflicts(_check(lint, '"0 0 20 * * ?"', variables__tf=VARIABLE)) == ["DL102"]


def test_a_variable_without_a_value_is_unknown_at_its_line(lint):
    found = _check(lint, "var.nightly_cron", variables__tf=BARE_VARIABLE)
    [(path, line, message)] = _unreadable(found)
    assert (path, line) == ("infra/main.tf", CRON_LINE)
    assert "`var.nightly_cron` has no default" in message and "-var" in message
    assert _conflicts(found) == ["DL102"]  # it may start at any time
    undeclared = _unreadable(_check(lint, "var.cron"))
    assert len(undeclared) == 1 and "`var.cron` is not declared" in undeclared[0][2]


def test_a_paused_schedule_is_not_read_and_runs_by_hand(lint):
    """PAUSED: the job runs when started by hand (it may meet the evening job), and
    its cron, known or not, is never reported."""
    for variables in (BARE_VARIABLE, VARIABLE):
        found = _check(lint, "var.nightly_cron", pause="PAUSED", variables__tf=variables)
        assert _unreadable(found) == []
        assert _conflicts(found) == ["DL102"]


@pytest.mark.parametrize(
    "cron, files",
    [
        # a local, itself from a variable
        (
            "local.nightly",
            {"locals__tf": 'variable "hour" {\n  default = 8\n}\nlocals {\n  nightly = "0 0 ${var.hour} * * ?"\n}\n'},
        ),
        # an interpolation of a variable in the string
        ('"0 0 ${var.hour} * * ?"', {"variables__tf": 'variable "hour" {\n  default = "8"\n}\n'}),
        # terraform.tfvars over the default (20:00 would meet the evening job)
        (
            "var.nightly_cron",
            {
                "variables__tf": VARIABLE.replace("0 0 8", "0 0 20"),
                "terraform__tfvars": 'nightly_cron = "0 0 8 * * ?"\n',
            },
        ),
        # a JSON variables file Terraform loads by itself, over terraform.tfvars
        (
            "var.nightly_cron",
            {
                "variables__tf": BARE_VARIABLE,
                "terraform__tfvars": 'nightly_cron = "0 0 20 * * ?"\n',
                "prod__auto__tfvars__json": '{"nightly_cron": "0 0 8 * * ?"}',
            },
        ),
    ],
    ids=["local", "interpolation", "tfvars", "auto-tfvars-json"],
)
def test_other_shapes_of_a_terraform_value(lint, cron, files):
    found = _check(lint, cron, **files)
    assert _unreadable(found) == []
    assert _conflicts(found) == []  # 08:00 does not meet 20:00


def test_locals_that_name_each_other_are_unknown_and_bounded(lint):
    files = {"locals__tf": "locals {\n  a = local.b\n  b = local.a\n}\n"}
    [(_, line, message)] = _unreadable(_check(lint, "local.a", **files))
    assert line == CRON_LINE and "`local.a` is not a value delta-lint reads" in message


def test_a_broken_variables_file_is_said_and_the_defaults_stay(lint):
    found = _check(lint, "var.nightly_cron", variables__tf=VARIABLE, terraform__tfvars="nightly_cron = \n")
    problems = _unreadable(found)
    assert [(p, line) for p, line, _ in problems] == [("infra/terraform.tfvars", 1)]
    assert "not a valid variables file" in problems[0][2] and "Traceback" not in problems[0][2]
    assert _conflicts(found) == []  # the default, 08:00, is read


@pytest.mark.parametrize("pause, reported", [("PAUSED", False), ("UNPAUSED", True)])
def test_a_bundle_reads_a_paused_schedule_by_the_same_rule(lint, pause, reported):
    """The rule is the bundle reader's (`bundle._job`, which Terraform's jobs go
    through): a paused schedule's cron is never used, so a wrong one is no problem."""
    bundle = (
        "bundle: {name: b}\nresources:\n  jobs:\n    nightly:\n"
        f"      schedule: {{quartz_cron_expression: '0 0 8 * *', timezone_id: UTC, pause_status: {pause}}}\n"
        "      tasks:\n        - task_key: load\n          notebook_task: {notebook_path: ./load.py}\n"
    )
    found = lint({"databricks.yml": bundle, "load.py": LOAD}).findings
    assert bool([f for f in found if f.rule == "DL003" and "Quartz" in f.message]) == reported


def test_locals_that_double_their_text_stay_bounded(lint):
    """Each local twice the one before, 40 deep: 2**40 characters if built; past
    16 references deep, or 64 KB of text, the value is unknown (and said), at once."""
    import time

    chain = "".join(f'  l{i} = "${{local.l{i + 1}}}${{local.l{i + 1}}}"\n' for i in range(40))
    files = {"locals__tf": "locals {\n" + chain + '  l40 = "0 0 8 * * ?"\n}\n'}
    started = time.process_time()
    [(_, line, message)] = _unreadable(_check(lint, "local.l0", **files))
    assert time.process_time() - started < 10
    assert line == CRON_LINE and "`local.l0`" in message


def _called(lint, *calls: str):
    """The jobs module in `jobs/`, its variable without a default, called by a root
    module per entry of `calls` (each the body of a `module` block)."""
    files = {
        "jobs/main.tf": JOBS_TF.replace("CRON", "var.nightly_cron").replace("PAUSE", "UNPAUSED"),
        "jobs/variables.tf": BARE_VARIABLE,
        "jobs/load.py": LOAD,
        "jobs/fix.py": FIX,
    }
    for i, body in enumerate(calls):
        files[f"env{i}/main.tf"] = f'module "jobs" {{\n  source = "../jobs"\n{body}}}\n'
    return lint(files).findings


@pytest.mark.parametrize(
    "calls, why",
    [
        (['  nightly_cron = "0 0 8 * * ?"\n'], None),  # 08:00, as the call says
        (['  nightly_cron = "0 0 8 * * ?"\n', '  nightly_cron = "0 0 8 * * ?"\n'], None),  # two roots agree
        (['  nightly_cron = "0 0 8 * * ?"\n', '  nightly_cron = "0 0 9 * * ?"\n'], "give it different values"),
        (["  nightly_cron = var.cron\n"], "gives it no known value"),  # `var.cron` is not declared in env0
        ([""], "has no default"),  # a call that gives nothing: the variable has no value at all
    ],
    ids=["one-call", "two-agree", "two-differ", "unknown-argument", "not-given"],
)
def test_module_blocks_give_the_called_module_its_variables(lint, calls, why):
    found = _called(lint, *calls)
    unreadable = sorted(set(_unreadable(found)))  # a job deployed by two roots is said once per root
    if why is None:
        assert unreadable == []
        if len(calls) == 1:  # (two roots are two deployments, whose jobs are judged as two jobs each)
            assert _conflicts(found) == []
    else:
        assert {(path, line) for path, line, _ in unreadable} == {("jobs/main.tf", CRON_LINE)}
        assert why in unreadable[0][2]


def test_a_called_modules_own_variables_file_is_not_read(tmp_path):
    """Terraform reads `terraform.tfvars` only in the root it runs in: a called
    module's own variables file sets nothing: its default (08:00, beside the 20:00
    job: no conflict) stays. The near miss: the same module run as a root reads it
    (20:00: a conflict)."""
    from delta_lint.config import Config
    from delta_lint.run import check

    files = {
        "jobs/main.tf": JOBS_TF.replace("CRON", "var.nightly_cron").replace("PAUSE", "UNPAUSED"),
        "jobs/variables.tf": 'variable "nightly_cron" {\n  default = "0 0 8 * * ?"\n}\n',
        "jobs/terraform.tfvars": 'nightly_cron = "0 0 20 * * ?"\n',
        "jobs/load.py": LOAD,
        "jobs/fix.py": FIX,
    }
    found = {}
    for project, caller in (("called", 'module "jobs" {\n  source = "../jobs"\n}\n'), ("root", None)):
        root = tmp_path / project
        for name, text in {**files, **({"env0/main.tf": caller} if caller else {})}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        found[project] = _conflicts(check([root], Config(root=root), cwd=root, use_cache=False).findings)
    assert found["called"] == []
    assert found["root"] != []


def test_editing_a_callers_module_block_reads_the_called_module_again(tmp_path):
    """A kept run holds the caller's files among those the module's values came
    from: changing the argument a `module` block gives is seen by a cached run as
    by a cold one."""
    from delta_lint.config import Config
    from delta_lint.run import check

    files = {
        "jobs/main.tf": JOBS_TF.replace("CRON", "var.nightly_cron").replace("PAUSE", "UNPAUSED"),
        "jobs/variables.tf": BARE_VARIABLE,
        "jobs/load.py": LOAD,
        "jobs/fix.py": FIX,
        "main.tf": 'module "jobs" {\n  source = "./jobs"\n  nightly_cron = "0 0 8 * * ?"\n}\n',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")

    def conflicts(use_cache: bool) -> list[str]:
        found = check([tmp_path], Config(root=tmp_path), cwd=tmp_path, use_cache=use_cache).findings
        return _conflicts(found)

    assert conflicts(True) == conflicts(False) == []
    (tmp_path / "main.tf").write_text(files["main.tf"].replace("0 0 8", "0 0 20"), encoding="utf-8")
    assert conflicts(False) != []
    assert conflicts(True) == conflicts(False)
