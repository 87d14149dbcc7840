"""Configuration documents a project finds at run time: searched for (the working
folder, then its parents; a marker file walked up to; candidates tried in order) and
listed (a folder's YAML files, each loaded). The project's files are known to exist
or not, so the first candidate that exists is the one loaded; a path outside the
project, or built from the environment, leaves the value unknown, never a later
candidate picked. A listing is one value per file, in Python's order when sorted and
"one of" the files otherwise."""

from __future__ import annotations

from delta_lint.model import Flag

NOTEBOOK = "# Databricks notebook source\n"
CONFIG = 'catalog: "main"\nschema: "ops"\ntable: "orders"\n'

UPWARD = """import yaml
from pathlib import Path


def load_config(name: str = "config.yaml") -> dict:
    found = Path(name)
    if not found.exists():
        for folder in [Path.cwd(), *Path.cwd().parents]:
            found = folder / name
            if found.exists():
                break
    with open(found) as fh:
        return yaml.safe_load(fh)
"""

USE = (
    NOTEBOOK
    + "from src.utils.config import load_config\n"
    + "cfg = load_config()\n"
    + "spark.range(1).write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.{cfg['table']}\")\n"
)


def tables(result) -> list[str | None]:
    return sorted(i.table.name if i.table else "?" for i in result.intents)


def rules(result) -> list[str]:
    return sorted(d.rule for d in result.diagnostics)


def test_a_document_searched_for_upward_is_the_first_found(lint):
    found = lint(
        {
            "src/utils/__init__.py": "",
            "src/utils/config.py": UPWARD,
            "src/notebooks/load.py": USE,
            "config.yaml": CONFIG,
            "other/config.yaml": 'catalog: "dev"\nschema: "x"\ntable: "y"\n',
        }
    )
    assert tables(found) == ["main.ops.orders"]
    assert "DL001" not in rules(found)


def test_a_nearer_document_of_the_search_wins(lint):
    """The working folder's own `config.yaml` exists: the search never goes up."""
    found = lint(
        {
            "src/utils/__init__.py": "",
            "src/utils/config.py": UPWARD,
            "src/notebooks/load.py": USE,
            "src/notebooks/config.yaml": 'catalog: "near"\nschema: "ops"\ntable: "orders"\n',
            "config.yaml": CONFIG,
        }
    )
    assert tables(found) == ["near.ops.orders"]


def test_a_search_that_leaves_the_project_stays_unknown(lint):
    """No `config.yaml` in the project: the next candidate is a folder above it,
    whose files are not known, so nothing is picked."""
    found = lint({"src/utils/__init__.py": "", "src/utils/config.py": UPWARD, "src/notebooks/load.py": USE})
    assert "main.ops.orders" not in tables(found)
    assert "DL001" in rules(found)


MARKER = """import os
import yaml


def settings():
    here = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(here, "project.yaml")):
        here = os.path.dirname(here)
    return yaml.safe_load(open(os.path.join(here, "project.yaml")))
"""


def test_a_marker_walked_up_to_from_the_module_folder(lint):
    use = (
        NOTEBOOK
        + "from pkg.conf import settings\n"
        + "cfg = settings()\n"
        + "spark.sql(f\"DELETE FROM {cfg['catalog']}.ops.orders WHERE id < 0\")\n"
    )
    found = lint(
        {
            "lib/pkg/__init__.py": "",
            "lib/pkg/conf.py": MARKER,
            "jobs/clean.py": use,
            "project.yaml": 'catalog: "prod"\n',
        }
    )
    assert tables(found) == ["prod.ops.orders"]


CANDIDATES = """import os
import yaml

CANDIDATES = [{paths}]


def load():
    for path in CANDIDATES:
        if os.path.isfile(path):
            with open(path) as fh:
                return yaml.safe_load(fh)
    raise FileNotFoundError("no settings")
"""


def test_candidates_tried_in_order_give_the_first_that_exists(lint):
    use = NOTEBOOK + "from conf import load\ncfg = load()\nspark.sql(f\"DELETE FROM {cfg['table']} WHERE id < 0\")\n"
    code = CANDIDATES.format(paths='"settings.local.yaml", "settings.yaml"')
    found = lint({"jobs/conf.py": code, "jobs/clean.py": use, "jobs/settings.yaml": 'table: "main.ops.orders"\n'})
    assert tables(found) == ["main.ops.orders"]


def test_a_candidate_from_the_environment_first_stays_unknown(lint):
    """Whether `$CONF_DIR/settings.yaml` exists only a run knows: the project's own
    `settings.yaml`, second, is not taken for it."""
    use = NOTEBOOK + "from conf import load\ncfg = load()\nspark.sql(f\"DELETE FROM {cfg['table']} WHERE id < 0\")\n"
    code = CANDIDATES.format(paths='os.path.join(os.environ["CONF_DIR"], "settings.yaml"), "settings.yaml"')
    found = lint({"jobs/conf.py": code, "jobs/clean.py": use, "jobs/settings.yaml": 'table: "main.ops.orders"\n'})
    assert "main.ops.orders" not in tables(found)
    assert "DL001" in rules(found)


LISTED = """from pathlib import Path
import yaml

ROOT = Path(__file__).resolve().parents[1] / "config"


def entities():
    return [yaml.safe_load(p.read_text())["name"] for p in sorted((ROOT / "entities").glob("*.yaml"))]
"""

MERGE = (
    "from delta.tables import DeltaTable\n"
    "from pkg.config import entities\n"
    "for name in entities():\n"
    '    DeltaTable.forName(spark, f"main.silver.{name}").alias("t").merge(\n'
    '        spark.table(f"main.bronze.{name}").alias("s"), "t.id = s.id"\n'
    "    ).whenMatchedUpdateAll().execute()\n"
)


def test_a_sorted_listing_of_documents_is_one_value_per_file(lint):
    found = lint(
        {
            "src/pkg/__init__.py": "",
            "src/pkg/config.py": LISTED,
            "src/run_silver.py": MERGE,
            "src/config/entities/orders.yaml": "name: orders\n",
            "src/config/entities/refunds.yaml": "name: refunds\n",
            "src/config/entities/README.md": "not a document\n",
        }
    )
    assert tables(found) == ["main.silver.orders", "main.silver.refunds"]
    assert "DL001" not in rules(found)


def test_a_listing_outside_the_project_or_from_the_environment_stays_unknown(lint):
    for root in ('Path("/etc/app")', 'Path(os.environ["CONF_ROOT"])'):
        code = "import os\n" + LISTED.replace('Path(__file__).resolve().parents[1] / "config"', root)
        found = lint(
            {
                "src/pkg/__init__.py": "",
                "src/pkg/config.py": code,
                "src/run_silver.py": MERGE,
                "src/config/entities/orders.yaml": "name: orders\n",
            }
        )
        assert "main.silver.orders" not in tables(found), root
        assert "DL001" in rules(found), root


UNSORTED = """import glob
import json
import os

HERE = os.path.dirname(__file__)


def tables():
    return [json.load(open(p))["table"] for p in glob.glob(os.path.join(HERE, "tables", "*.json"))]


def first():
    return tables()[0]
"""


def test_an_unsorted_listing_is_each_file_never_a_chosen_order(lint):
    use = (
        NOTEBOOK
        + "from defs import tables, first\n"
        + "for t in tables():\n"
        + '    spark.sql(f"OPTIMIZE {t}")\n'
        + 'spark.sql(f"DELETE FROM {first()} WHERE id < 0")\n'
    )
    found = lint(
        {
            "defs.py": UNSORTED,
            "job.py": use,
            "tables/a.json": '{"table": "main.s.a"}',
            "tables/b.json": '{"table": "main.s.b"}',
            "tables/.hidden.json": '{"table": "main.s.hidden"}',
        }
    )
    optimized = sorted(i.table.name for i in found.intents if i.location.line == 4 and i.table)
    assert optimized == ["main.s.a", "main.s.b"]
    deleted = [i.table.name if i.table else "?" for i in found.intents if i.location.line == 5]
    assert "main.s.a" not in deleted and "main.s.b" not in deleted  # which is first only a run knows


def test_a_listing_past_the_item_bound_is_unknown_with_a_note(lint):
    files = {f"src/config/entities/e{n:03}.yaml": f"name: e{n:03}\n" for n in range(257)}
    files |= {"src/pkg/__init__.py": "", "src/pkg/config.py": LISTED, "src/run_silver.py": MERGE}
    found = lint(files)
    assert not [t for t in tables(found) if t.startswith("main.silver.e")]
    assert "DL001" in rules(found)
    assert [d for d in found.diagnostics if d.rule == "DL008" and "a listing of more than 256 files" in d.message]


PACKAGED = """import pkgutil
from importlib import resources

import yaml


def from_files():
    return yaml.safe_load(resources.files("{package}").joinpath("tables.yaml").read_text())["orders"]


def from_data():
    return yaml.safe_load(pkgutil.get_data("{package}", "tables.yaml"))["refunds"]
"""

PACKAGED_USE = (
    NOTEBOOK
    + "from etl.conf import from_files, from_data\n"
    + "a = from_files()\n"
    + "b = from_data()\n"
    + 'spark.sql(f"DELETE FROM {a} WHERE id < 0")\n'
    + 'spark.sql(f"DELETE FROM {b} WHERE id < 0")\n'
)


def test_a_document_of_a_package_of_the_project_is_read(lint):
    found = lint(
        {
            "src/etl/__init__.py": "",
            "src/etl/conf.py": PACKAGED.replace("{package}", "etl.settings"),
            "src/etl/settings/__init__.py": "",
            "src/etl/settings/tables.yaml": "orders: main.ops.orders\nrefunds: main.ops.refunds\n",
            "src/clean.py": PACKAGED_USE,
        }
    )
    assert tables(found) == ["main.ops.orders", "main.ops.refunds"]


def test_a_package_not_in_the_project_stays_unknown(lint):
    found = lint(
        {
            "src/etl/__init__.py": "",
            "src/etl/conf.py": PACKAGED.replace("{package}", "vendor.settings"),
            "src/etl/settings/__init__.py": "",
            "src/etl/settings/tables.yaml": "orders: main.ops.orders\nrefunds: main.ops.refunds\n",
            "src/clean.py": PACKAGED_USE,
        }
    )
    assert not {"main.ops.orders", "main.ops.refunds"} & set(tables(found))
    assert rules(found).count("DL001") == 2


TOP_LEVEL = (
    NOTEBOOK
    + "import os\nimport yaml\n\n"
    + "for path in [{paths}]:\n"
    + "    if os.path.isfile(path):\n"
    + "        cfg = yaml.safe_load(open(path))\n"
    + "        break\n"
    + "spark.sql(f\"DELETE FROM {{cfg['table']}} WHERE id < 0\")\n"
)


def test_a_notebooks_own_search_takes_the_first_candidate_that_exists(lint):
    code = TOP_LEVEL.format(paths='"settings.local.yaml", "settings.yaml"')
    found = lint({"jobs/clean.py": code, "jobs/settings.yaml": 'table: "main.ops.orders"\n'})
    assert [(i.table.name, Flag.ONE_OF in i.flags) for i in found.intents] == [("main.ops.orders", False)]


def test_a_notebooks_search_past_a_path_of_the_environment_is_no_one_candidate(lint):
    code = TOP_LEVEL.format(paths='os.path.join(os.environ["CONF_DIR"], "s.yaml"), "settings.yaml"')
    found = lint({"jobs/clean.py": code, "jobs/settings.yaml": 'table: "main.ops.orders"\n'})
    assert not [
        i for i in found.intents if i.table and i.table.name == "main.ops.orders" and Flag.ONE_OF not in i.flags
    ]
