"""A configuration loaded into a namespace object (`Namespace(**yaml.safe_load(f))`
in a helper, `types.SimpleNamespace(**json.load(f))`, `SimpleNamespace(table=...)`):
its attributes are the document's keys, so `cfg.scores_table` names the table the
project's YAML or JSON file says. A mapping only a run gives leaves them unknown."""

from __future__ import annotations

LOADER = """from argparse import Namespace
import yaml


def load_settings(path):
    with open(path) as handle:
        return Namespace(**yaml.safe_load(handle))
"""
JOB = (
    "from cfg import load_settings\n\n"
    'settings = load_settings("settings.yaml")\n'
    'spark.range(1).write.mode("overwrite").saveAsTable(settings.scores_table)\n'
)


def _tables(result, name: str = "job.py") -> list[str]:
    return sorted(i.table.name for i in result.intents if i.location.path.endswith(name))


def test_a_yaml_document_loaded_into_a_namespace_names_the_table(lint):
    files = {"src/cfg.py": LOADER, "src/job.py": JOB, "src/settings.yaml": 'scores_table: "demo.scores"\n'}
    assert _tables(lint(files)) == ["demo.scores"]


def test_simple_namespaces_of_json_and_of_keywords(lint):
    job = (
        "import json\nimport types\nfrom types import SimpleNamespace\n\n"
        'with open("conf.json") as f:\n    conf = types.SimpleNamespace(**json.load(f))\n'
        'spark.range(1).write.mode("overwrite").saveAsTable(conf.table)\n'
        'out = SimpleNamespace(table="main.s.kw")\n'
        'spark.range(1).write.mode("append").saveAsTable(out.table)\n'
    )
    files = {"job.py": job, "conf.json": '{"table": "main.s.json"}'}
    assert _tables(lint(files)) == ["main.s.json", "main.s.kw"]


def test_a_namespace_of_what_only_a_run_gives_stays_unknown(lint):
    job = (
        "from types import SimpleNamespace\n"
        'conf = SimpleNamespace(**spark.conf.get("settings"))\n'
        'spark.range(1).write.mode("overwrite").saveAsTable(conf.table)\n'
    )
    names = _tables(lint({"job.py": job}))
    assert len(names) == 1 and "{" in names[0]


OBJECT = (
    "import yaml\n\n\n"
    "class Job:\n"
    "    def __init__(self):\n"
    "        self.conf = LOAD\n\n"
    "    @staticmethod\n"
    "    def _read(path):\n"
    "        return yaml.safe_load(open(path))\n\n"
    "    def run(self):\n"
    '        out = self.conf["output"]\n'
    "        spark.range(1).write.mode(\"overwrite\").saveAsTable(f\"{out['db']}.{out['table']}\")\n\n\n"
    "Job().run()\n"
)


def test_a_document_an_object_keeps_in_init_names_the_table(lint):
    # loaded in place, and returned by the object's own (static) method
    doc = {"conf.yaml": "output:\n  db: demo\n  table: scores\n"}
    direct = OBJECT.replace("LOAD", 'yaml.safe_load(open("conf.yaml"))')
    assert _tables(lint({"job.py": direct, **doc})) == ["demo.scores"]
    method = OBJECT.replace("LOAD", 'self._read("conf.yaml")')
    assert _tables(lint({"job.py": method, **doc})) == ["demo.scores"]


def test_a_document_an_object_keeps_that_a_run_names_stays_unknown(lint):
    doc = {"conf.yaml": "output:\n  db: demo\n  table: scores\n"}
    named = OBJECT.replace("LOAD", 'self._read(dbutils.widgets.get("conf"))')
    assert "demo.scores" not in _tables(lint({"job.py": named, **doc}))
    missing = OBJECT.replace("LOAD", 'self._read("other.yaml")')
    assert "demo.scores" not in _tables(lint({"job.py": missing, **doc}))


ENV_MODULE = (
    "from pathlib import Path\nimport json\nimport yaml\n\n"
    'ROOT = Path(__file__).resolve().parents[2] / "config"\n\n\n'
    "class Env:\n"
    "    def __init__(self, catalog):\n"
    "        self.catalog = catalog\n\n"
    "    def table(self, layer, name):\n"
    '        return f"{self.catalog}.{layer}.{name}"\n\n\n'
    "def load_env(name):\n"
    "    return Env(LOAD)\n"
)
ENV_JOB = (
    "from pkg.config import load_env\n\n"
    'env = load_env("prod")\n'
    'spark.range(1).write.mode("overwrite").saveAsTable(env.table("silver", "orders"))\n'
)


def _env_project(load: str, root: str = "parents[2]") -> dict[str, str]:
    return {
        "src/pkg/__init__.py": "",
        "src/pkg/config.py": ENV_MODULE.replace("LOAD", load).replace("parents[2]", root),
        "src/run.py": ENV_JOB,
        "config/env/prod.yaml": "catalog: acme_prod\n",
        "config/env/prod.json": '{"catalog": "acme_json"}\n',
    }


def test_a_document_read_whole_by_a_path_the_module_builds_names_the_table(lint):
    # `Path(__file__).parents[2]`, `/`, `read_text()` and a loader of the text
    yaml_text = 'yaml.safe_load((ROOT / "env" / f"{name}.yaml").read_text())["catalog"]'
    assert _tables(lint(_env_project(yaml_text)), "run.py") == ["acme_prod.silver.orders"]
    json_text = 'json.loads((ROOT / "env" / f"{name}.json").read_text())["catalog"]'
    assert _tables(lint(_env_project(json_text)), "run.py") == ["acme_json.silver.orders"]


def test_a_document_text_parsed_as_another_kind_or_outside_stays_unknown(lint):
    # JSON's parser given a YAML file's text (Python may raise), and a root that
    # is not the project's (`parents[5]` leaves it)
    wrong_kind = 'json.loads((ROOT / "env" / f"{name}.yaml").read_text())["catalog"]'
    assert "acme_prod.silver.orders" not in _tables(lint(_env_project(wrong_kind)), "run.py")
    yaml_text = 'yaml.safe_load((ROOT / "env" / f"{name}.yaml").read_text())["catalog"]'
    outside = _env_project(yaml_text, root="parents[5]")
    assert "acme_prod.silver.orders" not in _tables(lint(outside), "run.py")
