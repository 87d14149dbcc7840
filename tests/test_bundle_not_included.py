"""A bundle resource file the bundle beside it does not include is not deployed:
its jobs are not read (a note says so), so they meet no other job. A Jobs export
(not a bundle resource file) in the same folders is still read, and a resource
file with no bundle around it is read as before."""

from __future__ import annotations

JOB = """resources:
  jobs:
    {key}:
      schedule: {{quartz_cron_expression: "0 0 2 * * ?", timezone_id: UTC}}
      tasks:
        - task_key: load
          notebook_task: {{notebook_path: ../src/load.py}}
"""
LOAD = 'df.write.mode("overwrite").saveAsTable("main.s.t")\n'


def _conflicts(result) -> list[str]:
    return [f.rule for f in result.findings]


def test_a_resource_file_the_bundle_does_not_include_is_not_a_job(lint):
    result = lint(
        {
            "databricks.yml": "bundle: {name: acme}\ninclude:\n  - resources/main.yml\n",
            "resources/main.yml": JOB.format(key="nightly"),
            "resources/old.yml": JOB.format(key="old"),
            "src/load.py": LOAD,
        }
    )
    assert _conflicts(result) == []
    assert any("resources/old.yml" in n and "does not include it" in n for n in result.notes)


def test_an_included_pair_still_meets(lint):
    result = lint(
        {
            "databricks.yml": "bundle: {name: acme}\ninclude:\n  - resources/*.yml\n",
            "resources/main.yml": JOB.format(key="nightly"),
            "resources/old.yml": JOB.format(key="old"),
            "src/load.py": LOAD,
        }
    )
    assert _conflicts(result) == ["DL102"]


def test_resource_files_without_a_bundle_are_still_read(lint):
    result = lint(
        {
            "resources/main.yml": JOB.format(key="nightly"),
            "resources/old.yml": JOB.format(key="old"),
            "src/load.py": LOAD,
        }
    )
    assert _conflicts(result) == ["DL102"]
