"""Configuration a module of the project loads at import time, read by the files
that import it: `CONFIG = yaml.safe_load(open(...))` at a module's top level,
behind a guard (`if os.path.exists(p)`, decided by the project's files;
`try: ... except FileNotFoundError`, whose ways are joined, never one picked). The module is read with its own file's
location (`__file__`, relative paths); the table a job writes through
`from conf import CONFIG` is the document's. A document that does not exist, or
a path only a run knows, leaves the name unknown."""

from __future__ import annotations

YML = "tables:\n  orders: main.sales.orders\n  items: main.sales.items\n"

AT_IMPORT = (
    'import os\nimport yaml\nCONFIG = yaml.safe_load(open(os.path.join(os.path.dirname(__file__), "conf.yml")))\n'
)

JOB_BY_NAME = 'from settings.conf import CONFIG\ndf.write.mode("append").saveAsTable(CONFIG["tables"]["orders"])\n'
JOB_BY_MODULE = (
    'from settings import conf\ndf.write.mode("append").saveAsTable(conf.CONFIG["tables"]["items"])\n'
    'import settings.conf as c\ndf.write.mode("append").saveAsTable(c.CONFIG["tables"]["orders"])\n'
)


def tables(result, path: str) -> list[str]:
    return sorted(i.table.name for i in result.intents if i.table is not None and i.location.path.endswith(path))


def unresolved(result, path: str) -> list[int]:
    return sorted(f.location.line for f in result.findings if f.rule == "DL001" and f.location.path.endswith(path))


def project(conf: str, yml: str | None = YML) -> dict[str, str]:
    files = {
        "settings/__init__.py": "",
        "settings/conf.py": conf,
        "jobs/by_name.py": JOB_BY_NAME,
        "jobs/by_module.py": JOB_BY_MODULE,
    }
    if yml is not None:
        files["settings/conf.yml"] = yml
    return files


def test_a_document_a_module_loads_at_import_names_the_importers_table(lint):
    result = lint(project(AT_IMPORT))
    assert tables(result, "by_name.py") == ["main.sales.orders"]
    assert tables(result, "by_module.py") == ["main.sales.items", "main.sales.orders"]
    assert not unresolved(result, "by_name.py") and not unresolved(result, "by_module.py")


def test_a_document_that_does_not_exist_leaves_the_importers_table_unknown(lint):
    result = lint(project(AT_IMPORT, yml=None))
    assert not any(t.startswith("main.") for t in tables(result, "by_name.py"))
    assert unresolved(result, "by_name.py") == [2]


def test_a_document_next_to_the_job_is_not_the_one_the_module_opens_by_its_own_folder(lint):
    """`os.path.dirname(__file__)` is the module's folder: a `conf.yml` beside the
    job (another document) is not read in its place."""
    files = project(AT_IMPORT, yml=None)
    files["jobs/conf.yml"] = "tables:\n  orders: wrong.sales.orders\n"
    result = lint(files)
    assert not any(t.startswith(("main.", "wrong.")) for t in tables(result, "by_name.py"))


def test_a_path_from_an_environment_variable_without_default_stays_unknown(lint):
    conf = "import os\nimport yaml\nCONFIG = yaml.safe_load(open(os.environ['CONF_PATH']))\n"
    result = lint(project(conf))
    assert not any(t.startswith("main.") for t in tables(result, "by_name.py"))
    assert unresolved(result, "by_name.py") == [2]


GUARDED = (
    "import os\n"
    "import yaml\n"
    'PATH = os.path.join(os.path.dirname(__file__), "conf.yml")\n'
    "if os.path.exists(PATH):\n"
    "    CONFIG = yaml.safe_load(open(PATH))\n"
    "else:\n"
    '    CONFIG = {"tables": {"orders": "dev.sales.orders", "items": "dev.sales.items"}}\n'
)


FLAT_GUARDED = GUARDED.replace(
    '{"tables": {"orders": "dev.sales.orders", "items": "dev.sales.items"}}', '{"orders": "dev.sales.orders"}'
)
FLAT_BY_NAME = 'from settings.conf import CONFIG\ndf.write.mode("append").saveAsTable(CONFIG["orders"])\n'


def test_a_guarded_load_takes_the_way_the_projects_files_decide(lint):
    """Whether a document of the project exists is known (the deployed tree holds
    the project's files, docs/values.md): the guard's way is the one taken."""
    files = project(FLAT_GUARDED, yml="orders: main.sales.orders\n") | {"jobs/by_name.py": FLAT_BY_NAME}
    result = lint(files)
    assert tables(result, "by_name.py") == ["main.sales.orders"]
    assert not any("one_of" in i.flags for i in result.intents if i.location.path.endswith("by_name.py"))


def test_a_guarded_load_of_a_document_the_project_lacks_is_the_fallback(lint):
    result = lint(project(FLAT_GUARDED, yml=None) | {"jobs/by_name.py": FLAT_BY_NAME})
    assert tables(result, "by_name.py") == ["dev.sales.orders"]


def test_a_guarded_load_of_nested_keys_is_the_documents(lint):
    """Nested a level deeper, the same: the document exists, so its keys are read."""
    result = lint(project(GUARDED))
    assert tables(result, "by_name.py") == ["main.sales.orders"]


def test_a_load_whose_handler_leaves_an_empty_dict_is_not_the_documents_alone(lint):
    """`except FileNotFoundError: CONFIG = {}`: on that way the key is missing, so
    the name is not the document's value alone (never picked silently)."""
    conf = (
        "import os\n"
        "import yaml\n"
        "try:\n"
        '    with open(os.path.join(os.path.dirname(__file__), "conf.yml")) as f:\n'
        "        CONFIG = yaml.safe_load(f)\n"
        "except FileNotFoundError:\n"
        "    CONFIG = {}\n"
    )
    result = lint(project(conf))
    assert tables(result, "by_name.py") != ["main.sales.orders"]
    assert unresolved(result, "by_name.py") == [2]


def test_a_value_of_the_document_the_importer_prints_is_masked(lint):
    """The document's values reach the importer as they reach the module: a table
    name they form is printed, any other text of theirs is not."""
    job = (
        "from settings.conf import CONFIG\n"
        "spark.sql(f\"DELETE FROM {CONFIG['tables']['orders']} WHERE region = '{CONFIG['region']}'\")\n"
    )
    files = project(AT_IMPORT, yml=YML + "region: top-secret-region\n")
    files["jobs/by_name.py"] = job
    result = lint(files)
    assert tables(result, "by_name.py") == ["main.sales.orders"]
    shown = [i.predicate_sql or "" for i in result.intents if i.location.path.endswith("by_name.py")]
    assert shown and not any("top-secret-region" in s for s in shown)


# -- a relative path: opened in the working directory of the process -----------------

IO = (
    "import json\n"
    "def load():\n"
    '    with open("conf/settings.json") as f:\n'
    "        return json.load(f)\n"
    "def write(df):\n"
    '    with open("conf/settings.json") as f:\n'
    "        cfg = json.load(f)\n"
    '    df.write.mode("append").saveAsTable(cfg["items"])\n'
)
AT_IMPORT_RELATIVE = 'import json\nCONFIG = json.load(open("conf/settings.json"))\n'
JOB = (
    "from helpers.io import load, write\n"
    "from helpers.conf import CONFIG\n"
    "cfg = load()\n"
    'df.write.mode("append").saveAsTable(cfg["orders"])\n'
    "write(df)\n"
    'df.write.mode("append").saveAsTable(CONFIG["orders"] + "_copy")\n'
)
SETTINGS = '{"orders": "main.sales.orders", "items": "main.sales.items"}'


def relative_project(documents: dict[str, str], job: str = JOB, at: str = "jobs/job.py") -> dict[str, str]:
    return {
        "helpers/__init__.py": "",
        "helpers/io.py": IO,
        "helpers/conf.py": AT_IMPORT_RELATIVE,
        at: job,
        **documents,
    }


def by_line(result, path: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for i in result.intents:
        if i.table is not None and i.location.path.endswith(path):
            out.setdefault(i.location.line, []).append(i.table.name)
    return {line: sorted(names) for line, names in out.items()}


def test_a_relative_path_a_helper_opens_is_read_at_the_project_root(lint):
    """A script run from the project root opens `conf/settings.json` there, not
    in the helper's folder nor the job's: a value function's, a pasted helper's
    and a module's top-level load all find it."""
    result = lint(relative_project({"conf/settings.json": SETTINGS}))
    assert by_line(result, "job.py") == {
        4: ["main.sales.orders"],
        5: ["main.sales.items"],
        6: ["main.sales.orders_copy"],
    }
    assert not unresolved(result, "job.py")


def test_a_relative_path_that_two_folders_hold_differently_is_one_of_them(lint):
    """A document beside the job and another at the root: which one a run opens
    depends on where it is started, so the write is read once per document."""
    beside = '{"orders": "jobs.sales.orders", "items": "jobs.sales.items"}'
    result = lint(relative_project({"conf/settings.json": SETTINGS, "jobs/conf/settings.json": beside}))
    lines = by_line(result, "job.py")
    assert lines[4] == ["jobs.sales.orders", "main.sales.orders"]
    assert lines[5] == ["jobs.sales.items", "main.sales.items"]
    flagged = [i for i in result.intents if i.location.path.endswith("job.py") and i.location.line in (4, 5)]
    assert flagged and all("one_of" in i.flags for i in flagged)


def test_a_relative_path_no_folder_holds_stays_unknown(lint):
    result = lint(relative_project({"other/settings.json": SETTINGS}))
    assert not any(n.startswith("main.") for names in by_line(result, "job.py").values() for n in names)
    # line 6 is known in part (`{CONFIG_orders}_copy`): paired by its text, as in SQL
    assert unresolved(result, "job.py") == [4, 5]


def test_a_notebook_opens_a_relative_path_in_its_own_folder_only(lint):
    """A notebook runs in its folder: the document at the project root is not the
    one its helpers open; the one beside it is."""
    notebook = "# Databricks notebook source\n" + JOB.replace("from helpers.conf import CONFIG\n", "")
    notebook = notebook.replace('df.write.mode("append").saveAsTable(CONFIG["orders"] + "_copy")\n', "")
    result = lint(relative_project({"conf/settings.json": SETTINGS}, notebook, "jobs/nb.py"))
    assert not any(n.startswith("main.") for names in by_line(result, "nb.py").values() for n in names)
    beside = '{"orders": "jobs.sales.orders", "items": "jobs.sales.items"}'
    result = lint(relative_project({"jobs/conf/settings.json": beside}, notebook, "jobs/nb.py"))
    assert by_line(result, "nb.py") == {4: ["jobs.sales.orders"], 5: ["jobs.sales.items"]}
