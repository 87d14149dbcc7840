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
