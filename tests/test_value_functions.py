"""Value functions of the project evaluated at their calls (`frontend.pyeval`): a
config loader reading a YAML document of the project, a path resolver with `if`s
and a regular expression, and the one object a job file makes of its pipeline
class. Each case has a contrasting one that must stay unknown or as it was."""

from __future__ import annotations

import ast
from pathlib import Path

from delta_lint.frontend.values.evaluator import SET, Evaluator, Module, document_path
from delta_lint.frontend.values.lattice import UNKNOWN, OneOf
from delta_lint.model import Flag
from delta_lint.run import DocumentReader
from tests.test_link import linked, tables

SPARK_UTILS = """
import os
import re
import yaml

_S3 = re.compile(r"^s3a?://([^/]+)(.*)")

def load_config(env=None):
    env = env or os.getenv("ENV_NAME", "dev")
    path = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "configs", f"{env}.yml"))
    with open(path, "r") as f:
        config = yaml.safe_load(f)
    return config

def _on_laptop():
    return os.getenv("DATABRICKS_RUNTIME_VERSION") is None

def resolve_path(cloud_path, config):
    if not config.get("simulate_cloud_paths", True):
        return cloud_path
    use_local = config["storage"].get("local_root") and _on_laptop()
    root = config["storage"]["local_root"] if use_local else config["storage"]["dbfs_root"]
    m = _S3.match(cloud_path)
    if m:
        return f"{root.rstrip('/')}{m.group(2)}"
    return cloud_path
"""

DEV = """
simulate_cloud_paths: true
storage:
  dbfs_root: dbfs:/FileStore/lake/
  local_root: /tmp/lake
paths:
  bronze: s3://prod-bucket/bronze
"""

JOB = """
import os
from src.utils.spark_utils import load_config, resolve_path

class BronzeOrders:
    def __init__(self, spark, config):
        self.spark = spark
        self.target = resolve_path(config["paths"]["bronze"] + "/orders", config)

    def write(self, df):
        df.write.format("delta").mode("append").save(self.target)

    def run(self):
        self.write(self.spark.read.csv("/landing"))

if __name__ == "__main__":
    config = load_config(os.getenv("ENV_NAME", "dev"))
    BronzeOrders(spark, config).run()
"""


def project(extra: dict[str, str] | None = None) -> dict[str, str]:
    files = {"src/utils/spark_utils.py": SPARK_UTILS, "configs/dev.yml": DEV, "src/bronze/orders.py": JOB}
    files.update(extra or {})
    return files


def test_a_config_document_and_a_path_resolver_give_the_table_where_it_is_written(tmp_path):
    results = linked(tmp_path, project())
    by_path = {r.path: r for r in results}
    writes = [(i.location.line, i.table.name) for i in by_path["src/bronze/orders.py"].intents]
    # in `write` (line 11), not at the one call that runs the object (line 18)
    assert writes == [(11, "delta:dbfs:/FileStore/lake/bronze/orders")]


def test_a_document_the_project_lacks_leaves_the_name_unknown(tmp_path):
    files = project()
    del files["configs/dev.yml"]
    got = tables(tmp_path, files)
    assert got["src/bronze/orders.py"] == ["delta:{self_target}"]


def test_a_changed_document_changes_the_cached_result(tmp_path):
    first = tables(tmp_path, project(), use_cache=True)
    assert first["src/bronze/orders.py"] == ["delta:dbfs:/FileStore/lake/bronze/orders"]
    (tmp_path / "configs/dev.yml").write_text(DEV.replace("dbfs:/FileStore/lake/", "dbfs:/mnt/other"))
    again = tables(tmp_path, {}, use_cache=True)
    assert again["src/bronze/orders.py"] == ["delta:dbfs:/mnt/other/bronze/orders"]


def test_the_production_branch_keeps_the_cloud_path(tmp_path):
    got = tables(
        tmp_path, project({"configs/dev.yml": DEV.replace("simulate_cloud_paths: true", "simulate_cloud_paths: false")})
    )
    assert got["src/bronze/orders.py"] == ["delta:s3://prod-bucket/bronze/orders"]


def test_an_object_the_job_drives_step_by_step_writes_at_each_step(tmp_path):
    stepwise = JOB.replace(
        "    BronzeOrders(spark, config).run()", "    job = BronzeOrders(spark, config)\n    job.run()\n    job.run()"
    )
    results = linked(tmp_path, project({"src/bronze/orders.py": stepwise}))
    by_path = {r.path: r for r in results}
    writes = [(i.location.line, i.table.name) for i in by_path["src/bronze/orders.py"].intents]
    assert writes == [
        (19, "delta:dbfs:/FileStore/lake/bronze/orders"),
        (20, "delta:dbfs:/FileStore/lake/bronze/orders"),
    ]


# -- the evaluator on its own -------------------------------------------------------------


def evaluator(source: str, documents: dict | None = None, path: str = "src/m.py") -> Evaluator:
    return Evaluator(Module.of(ast.parse(source), path), documents or {})


def alternatives_of(value: object) -> set | None:
    """The alternatives of one of several values, as a set; None for any other value."""
    return set(value.values) if isinstance(value, OneOf) else None


def test_an_unknown_value_that_decides_a_branch_gives_both_ways():
    ev = evaluator("def f(x):\n    if x:\n        return 'a'\n    return 'b'\n")
    assert alternatives_of(ev.call("f", [UNKNOWN], {})) == {"a", "b"}
    assert ev.call("f", [""], {}) == "b"
    loop = evaluator("def f(xs):\n    out = 'a'\n    for x in xs:\n        out = x\n    return out\n")
    assert loop.call("f", [UNKNOWN], {}) == UNKNOWN  # a loop over what is not known binds nothing known
    assert loop.call("f", [["b"]], {}) == "b"  # a loop over a known list is read turn by turn


def test_environment_variables_read_their_default_and_the_cluster_sets_its_runtime():
    ev = evaluator(
        "import os\n"
        "def env():\n    return os.getenv('ENV_NAME', 'dev')\n"
        "def secret():\n    return os.environ.get('TOKEN')\n"
        "def on_cluster():\n    return os.getenv('DATABRICKS_RUNTIME_VERSION') is not None\n"
    )
    assert ev.call("env", [], {}) == "dev"
    assert ev.call("secret", [], {}) == UNKNOWN
    assert ev.call("on_cluster", [], {}) is True
    assert (
        evaluator("import os\ndef v():\n    return os.getenv('DATABRICKS_RUNTIME_VERSION')\n").call("v", [], {}) is SET
    )


def test_format_fields_that_reach_into_values_are_refused():
    ev = evaluator("def f(x):\n    return '{0.__class__}'.format(x)\ndef g(x):\n    return '{0}-{k}'.format(x, k=1)\n")
    assert ev.call("f", ["a"], {}) == UNKNOWN
    assert ev.call("g", ["a"], {}) == "a-1"


def test_documents_are_the_projects_own():
    assert document_path("/__project__/src/../configs/dev.yml", "src/m.py") == "configs/dev.yml"
    assert document_path("/__project__/../etc/passwd", "src/m.py") is None
    assert document_path("/etc/passwd", "src/m.py") is None
    assert document_path("conf.yml", "nb/job.py") == "nb/conf.yml"  # a notebook's working folder
    ev = evaluator("import yaml\ndef f():\n    return yaml.safe_load(open('/etc/hosts'))\n")
    assert ev.call("f", [], {}) == UNKNOWN and not ev.opened


def test_the_document_reader_stays_in_the_project_and_refuses_aliases(tmp_path):
    (tmp_path / "ok.yml").write_text("a: {b: 1}\nday: 2024-01-02\n")
    (tmp_path / "bomb.yml").write_text("a: &x [1, 2]\nb: [*x, *x]\n")
    (tmp_path / "list.json").write_text('[1, "two"]')
    reader = DocumentReader(Path(tmp_path))
    assert reader("ok.yml") == {"a": {"b": 1}, "day": "2024-01-02"}
    assert reader("bomb.yml") is None
    assert reader("list.json") == [1, "two"]
    assert reader("../outside.yml") is None
    assert reader("notes.txt") is None


def test_patterns_that_backtrack_for_ever_in_python_run_on_re2_and_refused_operations_give_no_value():
    ev = evaluator(
        "import re\n"
        "def slow(s):\n    return re.match(r'(a+)+b', s)\n"
        "def fast(s):\n    return re.match(r'^s3://([^/]+)(.*)', s).group(2)\n"
        "def step(s):\n    return s[::0]\n"
    )
    assert ev.call("slow", ["a" * 40], {}) is None  # Python's answer, in RE2's linear time
    assert ev.call("fast", ["s3://b/x/y"], {}) == "/x/y"
    assert ev.call("step", ["abc"], {}) == UNKNOWN


STREAM = """
class Events:
    def __init__(self, spark, root):
        self.target = root + "/bronze/events"

    def _write_batch(self, batch_df, batch_id):
        batch_df.write.format("delta").mode("append").save(self.target)

    def run(self, df):
        return df.writeStream.foreachBatch(self._write_batch).option("checkpointLocation", "/chk/ev").start()
"""


def test_a_foreach_batch_method_of_an_imported_object_writes_at_the_call_with_the_objects_values(tmp_path):
    notebook = (
        "# Databricks notebook source\n"
        "from lib.events import Events\n"
        "pipeline = Events(spark, 'dbfs:/lake')\n"
        "pipeline.run(df)\n"
        "pipeline.run(df)\n"
    )
    results = linked(tmp_path, {"lib/events.py": STREAM, "nb/demo.py": notebook})
    by_path = {r.path: r for r in results}
    writes = [(i.location.line, i.table.name) for i in by_path["nb/demo.py"].intents if i.table]
    # at the notebook's calls (it has 5 lines), not at the method's line in the other file
    assert writes == [(4, "delta:dbfs:/lake/bronze/events"), (5, "delta:dbfs:/lake/bronze/events")]


# -- what the evaluator must not claim to know (found in review) ----------------------------


def test_lists_and_dicts_changed_in_place_are_no_longer_known():
    cases = {
        "def f(n):\n    parts = ['base']\n    for x in n:\n        parts.append(x)\n    return parts[0]\n": [["a"]],
        "import os\ndef f():\n    d = {'a': '1'}\n    if os.getenv('X'):\n        d['a'] = '2'\n    return d['a']\n": [],
        "def fill(d):\n    d['a'] = '2'\ndef f():\n    d = {'a': '1'}\n    fill(d)\n    return d['a']\n": [],
        "def f():\n    d = {'a': '1'}\n    x = d.pop('a')\n    return d.get('a', 'gone')\n": [],
        "def f():\n    d = {'a': '1'}\n    del d['a']\n    return d.get('a', 'x')\n": [],
        "def f():\n    d = {'a': '1'}\n    e = d\n    e['a'] = '2'\n    return d['a']\n": [],
        "def f():\n    cfg = {'p': ['a']}\n    cfg['p'].append('b')\n    return cfg['p'][-1]\n": [],
        "CONFIG = {'a': '1'}\ndef g():\n    CONFIG['a'] = '2'\ndef f():\n    g()\n    return CONFIG['a']\n": [],
    }
    for source, args in cases.items():
        assert evaluator(source).call("f", args, {}) == UNKNOWN, source
    assert evaluator("def f():\n    d = {'a': '1'}\n    return d.get('a')\n").call("f", [], {}) == "1"


def test_every_way_a_name_is_bound_is_followed_or_unknown():
    cases = {
        "def helper():\n    return 'module'\ndef f():\n    def helper():\n        return 'local'\n    return helper()\n": [],
        "def f(x):\n    if (y := x):\n        return y\n    return 'no'\n": ["b"],
        "def f(v):\n    y = 'a'\n    match v:\n        case [*y]:\n            pass\n    return y\n": [["b"]],
        "def f():\n    b = 'old'\n    a, *b = [1, 2, 3]\n    return b\n": [],
        "import os\nBASE = 'a'\nif os.getenv('X'):\n    BASE = 'b'\ndef f():\n    return BASE\n": [],
        "BASE = 'a'\nBASE += 'b'\ndef f():\n    return BASE\n": [],
        "def f():\n    for x in []:\n        raise ValueError\n    return 'ok'\n": [],
    }
    # the local `def` is called, never the module's function of that name; the walrus
    # binds y in the same call; the match binds y to the list's items; the module's
    # top-level `if` and `+=` run in order at import (one of both values when the test
    # is not known); the empty loop never raises
    expected = {0: "local", 1: "b", 2: ["b"], 5: "ab", 6: "ok"}
    for n, (source, args) in enumerate(cases.items()):
        got = evaluator(source).call("f", args, {})
        if n == 4:
            assert alternatives_of(got) == {"a", "b"}, source
            continue
        assert got == expected.get(n, UNKNOWN) if n in expected else got == UNKNOWN, source


def test_literals_keep_their_type_and_containers_holding_unknowns_compare_unknown(tmp_path):
    got = tables(
        tmp_path,
        {
            "lib.py": "def table_for(version):\n    if version == 2:\n        return 'events_v2'\n    return 'events_v1'\n",
            "job.py": "from lib import table_for\nspark.table('x').write.saveAsTable('db.' + table_for(2))\n",
        },
    )
    assert got["job.py"] == ["db.events_v2"]
    ev = evaluator("import os\ndef f():\n    return 'prod' in ['dev', os.getenv('ENV')]\n")
    assert ev.call("f", [], {}) == UNKNOWN


def test_f_string_conversions_apply_before_the_spec():
    ev = evaluator("def f(x, y, z):\n    return f'{x!a}|[{y!r:>4}]|[{z!s:.1}]'\n")
    assert ev.call("f", ["café", 5, 1.5], {}) == "'caf\\xe9'|[   5]|[1]"


def test_operations_that_would_build_huge_values_give_no_value_and_backtracking_runs_on_re2():
    ev = evaluator(
        "import re\n"
        "def w():\n    return '{:>99999999999}'.format('a')\n"
        "def fw():\n    return f'{1:>99999999999}'\n"
        "def p():\n    return '%99999999999d' % 1\n"
        "def r(s):\n    return s.replace('', s)\n"
        "def g(x):\n    return x + x\n"
        "def grow():\n    return " + "g(" * 15 + "['x']" + ")" * 15 + "\n"
        "def nested(s):\n    return re.match(r'((a+))+b', s)\n"
        "def poly(s):\n    return re.search(r'a*a*a*a*a*b', s)\n"
        "def spec():\n    return '{0:{1.real}}'.format('a', 3)\n"
    )
    assert ev.call("w", [], {}) == UNKNOWN
    assert ev.call("fw", [], {}) == UNKNOWN
    assert ev.call("p", [], {}) == UNKNOWN
    assert ev.call("r", ["ab"], {}) == UNKNOWN
    assert ev.call("grow", [], {}) == UNKNOWN
    assert ev.call("nested", ["a" * 40], {}) is None
    assert ev.call("poly", ["a" * 200], {}) is None
    assert ev.call("spec", [], {}) == UNKNOWN


def test_a_use_between_the_class_and_its_one_object_keeps_the_write_at_the_call(tmp_path):
    code = (
        "class P:\n"
        "    def __init__(self, t):\n"
        "        self.t = t\n"
        "    def run(self):\n"
        "        spark.range(1).write.format('delta').mode('append').saveAsTable(self.t)\n"
        "spark.sql('USE sales')\n"
        "P('orders').run()\n"
    )
    results = linked(tmp_path, {"job.py": code})
    assert [(i.location.line, i.table.name) for i in results[0].intents] == [(7, "sales.orders")]


def test_a_key_the_document_holds_in_another_form_is_not_its_default(tmp_path):
    files = project({"configs/dev.yml": DEV + "extra: {name: [orders, 2]}\n"})
    files["src/job.py"] = (
        "from src.utils.spark_utils import load_config\n"
        "config = load_config('dev')\n"
        "spark.table('x').write.saveAsTable('db.' + config['extra'].get('name', 'fallback'))\n"
    )
    got = tables(tmp_path, files)
    assert got["src/job.py"] != ["db.fallback"]


def test_a_document_is_found_when_the_run_starts_outside_the_root(tmp_path, monkeypatch):
    from delta_lint.config import validate
    from delta_lint.run import analyze

    root = tmp_path / "repo"
    for name, text in project().items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    results, _, _ = analyze([root], validate({}, root / "delta-lint.yaml"), cwd=tmp_path, use_cache=False)
    names = {i.table.name for r in results for i in r.intents if i.table and r.path.endswith("orders.py")}
    assert names == {"delta:dbfs:/FileStore/lake/bronze/orders"}


def test_a_module_list_a_loop_changes_is_no_longer_known():
    source = "TABLES = ['a']\ndef f(xs):\n    for x in xs:\n        TABLES.append(x)\n    return TABLES[0]\n"
    assert evaluator(source).call("f", [["b"]], {}) == UNKNOWN


def test_a_notebook_that_loads_a_document_next_to_it_reads_its_values(tmp_path):
    notebook = (
        "# Databricks notebook source\n"
        "import yaml, json\n"
        "with open('conf/dev.yml') as f:\n"
        "    cfg = yaml.safe_load(f)\n"
        "spark.sql(f\"DELETE FROM {cfg['catalog']}.{cfg['schema']}.events WHERE day = 1\")\n"
        "other = json.load(open('conf/missing.json'))\n"
        "spark.sql(f\"DELETE FROM {other['catalog']}.ops.events WHERE day = 1\")\n"
    )
    got = tables(tmp_path, {"jobs/nb.py": notebook, "jobs/conf/dev.yml": "catalog: main\nschema: web\n"})
    assert got["jobs/nb.py"] == ["main.web.events", "{other_catalog}.ops.events"]


NAMES = """
def table_name(env, name):
    return f"{env}_cat.sales.{name}"

def branch_name(env):
    if env == "prod":
        return "main.sales.orders"
    return "dev.sales.orders"

def upper_name(env):
    return env.upper() + ".sales.orders"

def sliced_name(env):
    return env[:3] + ".sales.orders"
"""

NAMED = """
from helpers import {function}

env = dbutils.widgets.get("env")
df = spark.range(1)
df.write.mode("append").saveAsTable({function}({arguments}))
"""


def _written(tmp_path: Path, function: str, arguments: str) -> list[tuple[str, bool]]:
    files = {"helpers.py": NAMES, "job.py": NAMED.format(function=function, arguments=arguments)}
    [job] = [r for r in linked(tmp_path, files) if r.path == "job.py"]
    return sorted((i.table.name, Flag.ONE_OF in i.flags) for i in job.intents)


def test_an_imported_function_given_a_job_input_returns_the_template_it_builds(tmp_path):
    # as the same f-string written in the job names it: the known parts, `{env}` the input
    assert _written(tmp_path, "table_name", 'env, "orders"') == [("{env}_cat.sales.orders", False)]
    # a branch on the input gives both ways, never one of them
    assert _written(tmp_path / "b", "branch_name", "env") == [("dev.sales.orders", True), ("main.sales.orders", True)]


def test_an_imported_function_that_works_on_a_job_inputs_text_leaves_that_part_unknown(tmp_path):
    # the near miss: what a slice makes of a value only a run knows is not known, and
    # is no longer the input (`{env}`): a placeholder named after the slice, beside
    # the known parts, as the job's own `env[:3] + ".sales.orders"` reads
    assert _written(tmp_path, "sliced_name", "env") == [("{env_3_1022ec}.sales.orders", False)]


def test_a_change_of_case_keeps_the_job_input(tmp_path):
    # `env.upper()` in a helper names the input as the job's own code does (`{env}`:
    # a placeholder keeps its name through a change of case or a trim)
    assert _written(tmp_path, "upper_name", "env") == [("{env}.sales.orders", False)]


def test_sql_a_job_reads_from_a_file_of_the_project_is_that_files_statement(tmp_path):
    """`spark.sql(open("q.sql").read())`, `with open(...) as f: spark.sql(f.read())` and
    `Path(...).read_text()` run the text of a SQL file of the project: the link stage gives it as a document
    (`run.DocumentReader`), and its `{day}` is filled by `.format` as any text's. Near
    misses: the text of a YAML file read whole, a SQL file outside the project and one
    the project lacks stay unknown statements (DL007), never guessed."""
    files = {
        "queries/load.sql": "INSERT INTO main.s.events SELECT * FROM main.raw.events;\n",
        "queries/purge.sql": "DELETE FROM main.s.events WHERE d < '{day}';\n",
        "conf.yml": "table: main.s.other\n",
        "job.py": (
            "import os\n"
            "HERE = os.path.dirname(__file__)\n"
            'spark.sql(open(os.path.join(HERE, "queries/load.sql")).read())\n'
            'with open("queries/purge.sql") as f:\n'
            '    spark.sql(f.read().format(day="2024-01-01"))\n'
            'spark.sql(open("conf.yml").read())\n'
            'spark.sql(open("/etc/q.sql").read())\n'
            'spark.sql(open("queries/missing.sql").read())\n'
            "from pathlib import Path\n"
            'spark.sql(Path("queries/load.sql").read_text())\n'
            'spark.sql(Path(__file__).parent.joinpath("queries", "load.sql").read_text())\n'
            'spark.sql(Path("conf.yml").read_text())\n'
        ),
    }
    results = {r.path: r for r in linked(tmp_path, files)}
    job = results["job.py"]
    assert [(i.location.line, i.table.name, i.kind.value) for i in job.intents] == [
        (3, "main.s.events", "blind_append"),
        (5, "main.s.events", "delete"),
        (10, "main.s.events", "blind_append"),
        (11, "main.s.events", "blind_append"),
    ]
    assert job.intents[1].predicate_sql == "d < '2024-01-01'"
    assert sorted(d.location.line for d in job.diagnostics if d.rule == "DL007") == [6, 7, 8, 12]


def test_the_text_of_one_of_two_documents_loads_as_one_of_them_or_unknown():
    """A document's text read on either way of a branch: the same document both ways
    is that document; two documents, or a document's text and a literal, are never
    the first one read (`lattice.TextOf` joins by its path)."""
    source = (
        "import yaml\n\n"
        "def load(flag):\n"
        "    if flag:\n"
        '        text = open("a.yaml").read()\n'
        "    else:\n"
        '        text = open("OTHER").read()\n'
        "    return yaml.safe_load(text)\n"
    )
    docs = {"a.yaml": {"t": "demo.a"}, "b.yaml": {"t": "demo.b"}}

    def loaded(other: str) -> object:
        module = Module.of(ast.parse(source.replace("OTHER", other)), "job.py")
        return Evaluator(module, docs).call("load", [UNKNOWN], {})

    assert loaded("a.yaml") == {"t": "demo.a"}
    both = loaded("b.yaml")
    assert both not in ({"t": "demo.a"}, {"t": "demo.b"})
    assert isinstance(both, OneOf) or both == UNKNOWN
    mixed = source.replace('open("OTHER").read()', '"x"').replace("return yaml.safe_load(text)", "return text")
    text = Evaluator(Module.of(ast.parse(mixed), "job.py"), docs).call("load", [UNKNOWN], {})
    assert type(text) is not OneOf and text == UNKNOWN  # no text known on one way: unknown, not "x"
