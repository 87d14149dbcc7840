"""Tables named in a project document (YAML, JSON) whose path a task parameter gives.

A task passes `--conf-file conf/x.yml` and the code loads that file and writes the
table it names. Tasks that pass different files run the code once each with its own
document: the file is read once per task, each reading given the document its task
names. The table is known where every reading's document names it; a document the
project does not have leaves that reading's table unknown."""

from __future__ import annotations

import pytest

from tests.test_dbx import NIGHTLY, _deployment

LOADED = (
    "import argparse\nimport yaml\n\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--conf-file")\n'
    "args = parser.parse_args()\n"
    "with open(args.conf_file) as f:\n"
    "    conf = yaml.safe_load(f)\n"
    'spark.table("demo.rows").write.mode("overwrite").saveAsTable(conf["output"]["table"])\n'
)


def _dbx(conf_a: str, conf_b: str) -> str:
    def workflow(name: str, conf: str, extra: str = "") -> str:
        return (
            f"      - name: {name}\n{extra}        tasks:\n          - task_key: score\n"
            "            spark_python_task:\n"
            "              python_file: 'file://jobs/score.py'\n"
            f"              parameters: ['--conf-file', 'file:fuse://{conf}']\n"
        )

    return _deployment(default=[workflow("nightly", conf_a, NIGHTLY), workflow("adhoc", conf_b)])


def _bundle(conf_a: str, conf_b: str) -> dict[str, str]:
    def job(name: str, conf: str, schedule: str = "") -> str:
        return (
            f"    {name}:\n      name: {name}\n{schedule}      tasks:\n        - task_key: score\n"
            "          spark_python_task:\n            python_file: ../jobs/score.py\n"
            f'            parameters: ["--conf-file", "{conf}"]\n'
        )

    cron = '      schedule: {quartz_cron_expression: "0 0 3 * * ?", timezone_id: UTC}\n'
    return {
        "databricks.yml": "bundle:\n  name: b\ninclude:\n  - resources/*.yml\n",
        "resources/jobs.yml": "resources:\n  jobs:\n" + job("nightly", conf_a, cron) + job("adhoc", conf_b),
    }


def _tables(result) -> list[tuple[str | None, str]]:
    return sorted({(f.table, f.rule) for f in result.findings if f.rule.startswith(("DL1", "DL001"))}, key=str)


def test_two_tasks_giving_different_conf_files_each_read_their_own_dbx(lint):
    files = {
        "jobs/score.py": LOADED,
        "conf/dev.yml": "output:\n  table: demo.scored\n",
        "conf/prod.yml": "output:\n  table: demo.scored\n",
        "conf/deployment.yml": _dbx("conf/prod.yml", "conf/dev.yml"),
    }
    assert _tables(lint(files)) == [("demo.scored", "DL102")]


def test_two_tasks_giving_different_conf_files_each_read_their_own_bundle(lint):
    files = {
        "jobs/score.py": LOADED,
        "conf/dev.yml": "output:\n  table: demo.scored\n",
        "conf/prod.yml": "output:\n  table: demo.scored\n",
        **_bundle("conf/prod.yml", "conf/dev.yml"),
    }
    assert _tables(lint(files)) == [("demo.scored", "DL102")]


def test_conf_files_naming_different_tables_are_two_writes_not_one(lint):
    files = {
        "jobs/score.py": LOADED,
        "conf/dev.yml": "output:\n  table: dev.scored\n",
        "conf/prod.yml": "output:\n  table: prod.scored\n",
        **_bundle("conf/prod.yml", "conf/dev.yml"),
    }
    result = lint(files)
    assert not [f for f in result.findings if f.rule.startswith("DL1") and f.table in ("dev.scored", "prod.scored")]
    assert not [f for f in result.findings if f.rule == "DL001"]


def test_a_conf_file_one_task_gives_and_the_project_lacks_stays_unknown(lint):
    files = {
        "jobs/score.py": LOADED,
        "conf/prod.yml": "output:\n  table: demo.scored\n",
        **_bundle("conf/prod.yml", "conf/missing.yml"),
    }
    result = lint(files)
    assert any(f.rule == "DL001" for f in result.findings)
    # the missing file's reading writes a table no one knows: never paired as demo.scored
    assert not [f for f in result.findings if f.rule.startswith("DL1") and f.table == "demo.scored"]


def _inline(parsed: str) -> str:
    return (
        "import argparse\nimport yaml\n\n"
        "parser = argparse.ArgumentParser()\n"
        'parser.add_argument("--conf-file")\n'
        f"conf = yaml.safe_load(open({parsed}.conf_file))\n"
        'spark.table("demo.rows").write.mode("overwrite").saveAsTable(conf["output"]["table"])\n'
    )


def test_the_command_line_parsed_in_place_names_the_conf_file(lint):
    for parsed in ("parser.parse_args()", "parser.parse_known_args()[0]"):
        files = {
            "jobs/score.py": _inline(parsed),
            "conf/dev.yml": "output:\n  table: demo.scored\n",
            "conf/prod.yml": "output:\n  table: demo.scored\n",
            **_bundle("conf/prod.yml", "conf/dev.yml"),
        }
        assert _tables(lint(files)) == [("demo.scored", "DL102")], parsed


def test_a_command_line_the_code_writes_is_not_the_task_s(lint):
    # the near miss: the parse of a literal list, and the arguments not declared
    for parsed in ('parser.parse_args(["--conf-file", "x.yml"])', "parser.parse_known_args()[1]"):
        files = {
            "jobs/score.py": _inline(parsed),
            "conf/dev.yml": "output:\n  table: demo.scored\n",
            "conf/prod.yml": "output:\n  table: demo.scored\n",
            **_bundle("conf/prod.yml", "conf/dev.yml"),
        }
        assert "demo.scored" not in {f.table for f in lint(files).findings}, parsed


def test_a_conf_path_only_the_run_knows_stays_unknown(lint):
    files = {
        "jobs/score.py": _inline("parser.parse_args()"),
        "conf/prod.yml": "output:\n  table: demo.scored\n",
        **_bundle("conf/{{job.parameters.env}}.yml", "conf/{{job.parameters.env}}.yml"),
    }
    result = lint(files)
    assert "demo.scored" not in {f.table for f in result.findings}
    assert any(f.rule == "DL001" for f in result.findings)


def _script(body: str) -> str:
    return (
        "import sys\nimport pathlib\nimport yaml\nfrom argparse import ArgumentParser\n\n"
        + body
        + 'spark.table("demo.rows").write.mode("overwrite").saveAsTable(conf["output"]["table"])\n'
    )


PARSE = 'p = ArgumentParser()\np.add_argument("--conf-file")\nns = p.parse_known_args(sys.argv[1:])[0]\n'
READS = {
    "open().read()": PARSE + "conf = yaml.safe_load(open(ns.conf_file).read())\n",
    "Path().read_text()": PARSE + "conf = yaml.safe_load(pathlib.Path(ns.conf_file).read_text())\n",
    "f.read()": PARSE + "with open(ns.conf_file) as f:\n    conf = yaml.safe_load(f.read())\n",
    "a branch the file decides": (
        "def conf_file():\n"
        "    p = ArgumentParser()\n"
        '    p.add_argument("--conf-file")\n'
        "    return p.parse_known_args(sys.argv[1:])[0].conf_file\n\n\n"
        "def provide():\n"
        "    path = conf_file()\n"
        "    if not path:\n"
        "        return {}\n"
        "    else:\n"
        "        return yaml.safe_load(open(path).read())\n\n\n"
        "conf = provide()\n"
    ),
}


def _project(script: str, conf_a: str = "conf/prod.yml", conf_b: str = "conf/dev.yml") -> dict[str, str]:
    return {
        "jobs/score.py": script,
        "conf/dev.yml": "output:\n  table: demo.scored\n",
        "conf/prod.yml": "output:\n  table: demo.scored\n",
        **_bundle(conf_a, conf_b),
    }


@pytest.mark.parametrize("shape", sorted(READS))
def test_a_conf_file_s_text_read_then_parsed_names_the_table(lint, shape: str):
    assert _tables(lint(_project(_script(READS[shape])))) == [("demo.scored", "DL102")]


def test_a_partial_read_or_an_undecided_branch_stays_unknown(lint):
    # the near misses: one line of the file is not the document; a branch on a
    # parameter no task gives is either way
    partial = _script(PARSE + "conf = yaml.safe_load(open(ns.conf_file).readline())\n")
    assert "demo.scored" not in {f.table for f in lint(_project(partial)).findings}
    undecided = READS["a branch the file decides"].replace(".conf_file\n", ".other_file\n")
    files = _project(_script(undecided))
    assert "demo.scored" not in {f.table for f in lint(files).findings}


TEMPLATE_TASK = (
    "import sys\nimport pathlib\nfrom argparse import ArgumentParser\n\nimport yaml\n\n\n"
    "def _conf_file():\n"
    "    p = ArgumentParser()\n"
    '    p.add_argument("--conf-file", required=False, type=str)\n'
    "    namespace = p.parse_known_args(sys.argv[1:])[0]\n"
    "    return namespace.conf_file\n\n\n"
    "def _provide_config():\n"
    "    conf_file = _conf_file()\n"
    "    if not conf_file:\n"
    "        return {}\n"
    "    else:\n"
    "        return yaml.safe_load(pathlib.Path(conf_file).read_text())\n\n\n"
    "def entrypoint():\n"
    "    conf = _provide_config()\n"
    '    table = conf["output"]["table"]\n'
    '    spark.table("demo.rows").write.mode("overwrite").saveAsTable(f"demo.{table}")\n'
)


def test_a_wheel_s_setup_py_entry_point_reads_the_conf_file_its_tasks_name(lint):
    def workflow(name: str, conf: str, extra: str = "") -> str:
        return (
            f"      - name: {name}\n{extra}        tasks:\n          - task_key: main\n"
            "            python_wheel_task:\n              package_name: shop\n              entry_point: etl\n"
            f"              parameters: ['--conf-file', 'file:fuse://{conf}']\n"
        )

    files = {
        "setup.py": 'from setuptools import setup\nsetup(name="shop", entry_points={"console_scripts": '
        '["etl = shop.tasks.score:entrypoint"]})\n',
        "shop/__init__.py": "",
        "shop/tasks/__init__.py": "",
        "shop/tasks/score.py": TEMPLATE_TASK,
        "conf/tasks/dev.yml": "output:\n  table: scored\n",
        "conf/tasks/prod.yml": "output:\n  table: scored\n",
        "conf/deployment.yml": _deployment(
            default=[workflow("nightly", "conf/tasks/prod.yml", NIGHTLY), workflow("adhoc", "conf/tasks/dev.yml")]
        ),
    }
    assert _tables(lint(files)) == [("demo.scored", "DL102")]


# the dbx project template's task: a base class in another module loads the
# document in `__init__` through its own methods; the task derives from it
BASE_TASK = (
    "import sys\nimport pathlib\nfrom abc import ABC, abstractmethod\nfrom argparse import ArgumentParser\n\n"
    "import yaml\n\n\n"
    "class Task(ABC):\n"
    "    def __init__(self, spark=None, init_conf=None):\n"
    "        self.spark = spark\n"
    "        if init_conf:\n"
    "            self.conf = init_conf\n"
    "        else:\n"
    "            self.conf = self._provide_config()\n\n"
    "    def _provide_config(self):\n"
    "        conf_file = self._get_conf_file()\n"
    "        if not conf_file:\n"
    "            return {}\n"
    "        return self._read_config(conf_file)\n\n"
    "    @staticmethod\n"
    "    def _get_conf_file():\n"
    "        p = ArgumentParser()\n"
    '        p.add_argument("--conf-file", required=False, type=str)\n'
    "        namespace = p.parse_known_args(sys.argv[1:])[0]\n"
    "        return namespace.conf_file\n\n"
    "    @staticmethod\n"
    "    def _read_config(conf_file):\n"
    "        return yaml.safe_load(pathlib.Path(conf_file).read_text())\n\n"
    "    @abstractmethod\n"
    "    def launch(self):\n"
    "        pass\n"
)
DERIVED_TASK = (
    "from shop.common import Task\n\n\n"
    "class ScoreTask(Task):\n"
    "    def _write(self):\n"
    '        db = self.conf["output"]["database"]\n'
    '        table = self.conf["output"]["table"]\n'
    '        self.spark.table("demo.rows").write.mode("overwrite").saveAsTable(f"{db}.{table}")\n\n'
    "    def launch(self):\n"
    "        self._write()\n\n\n"
    "def entrypoint():\n"
    "    task = ScoreTask()\n"
    "    task.launch()\n"
)


def _template_project(derived: str, dev_table: str = "scored") -> dict[str, str]:
    def workflow(name: str, conf: str, extra: str = "") -> str:
        return (
            f"      - name: {name}\n{extra}        tasks:\n          - task_key: main\n"
            "            python_wheel_task:\n              package_name: shop\n              entry_point: etl\n"
            f"              parameters: ['--conf-file', 'file:fuse://{conf}']\n"
        )

    return {
        "setup.py": 'from setuptools import setup\nsetup(name="shop", entry_points={"console_scripts": '
        '["etl = shop.tasks.score:entrypoint"]})\n',
        "shop/__init__.py": "",
        "shop/common.py": BASE_TASK,
        "shop/tasks/__init__.py": "",
        "shop/tasks/score.py": derived,
        "conf/tasks/dev.yml": f"output:\n  database: demo\n  table: {dev_table}\n",
        "conf/tasks/prod.yml": "output:\n  database: demo\n  table: scored\n",
        "conf/deployment.yml": _deployment(
            default=[workflow("nightly", "conf/tasks/prod.yml", NIGHTLY), workflow("adhoc", "conf/tasks/dev.yml")]
        ),
    }


def test_a_base_task_of_another_module_loads_the_conf_its_tasks_name(lint):
    assert _tables(lint(_template_project(DERIVED_TASK))) == [("demo.scored", "DL102")]


def test_base_task_documents_naming_different_tables_are_two_writes(lint):
    result = lint(_template_project(DERIVED_TASK, dev_table="scored_dev"))
    assert _tables(result) == []
    assert {i.table.name for i in result.intents} == {"demo.scored", "demo.scored_dev"}


def test_a_conf_a_method_may_set_again_or_a_branch_undecided_stays_unknown(lint):
    # near misses: another method sets `self.conf` (what `launch` reads is not what
    # `__init__` set), and a test the reading cannot decide (`if self.spark:`)
    reset = DERIVED_TASK.replace(
        "    def launch(self):\n", "    def reset(self):\n        self.conf = {}\n\n    def launch(self):\n"
    )
    assert "demo.scored" not in {f.table for f in lint(_template_project(reset)).findings}
    files = _template_project(DERIVED_TASK)
    files["shop/common.py"] = BASE_TASK.replace("        if init_conf:\n", "        if self.spark:\n")
    assert "demo.scored" not in {f.table for f in lint(files).findings}
