"""Configuration loaders as real projects write them: a function of the job's own
file opens a YAML document next to the code and fills in fields of the
environment it is given (`data["catalog"] = data[env]["catalog"]`), and the
notebook prints or displays what it loaded. The write's table is the document's
value; where the code changes a dict the reader does not follow, it stays
unknown."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

CONFIG = "dev:\n  catalog: main_dev\n  schema: sales\nprd:\n  catalog: main_prd\n  schema: sales\n"

LOADER = (
    "import yaml\n"
    "def load(path, env='dev'):\n"
    "    with open(path) as f:\n"
    "        data = yaml.safe_load(f)\n"
    "    data['catalog'] = data[env]['catalog']\n"
    "    data['schema'] = data[env]['schema']\n"
    "    return data\n"
)


def _tables(result, path: str) -> list[tuple[int, str | None]]:
    return sorted(
        (i.location.line, i.table.name if i.table else None) for i in result.intents if path in str(i.location)
    )


def _loaded(lint, code: str) -> list[tuple[int, str | None]]:
    """The tables a notebook of `code` writes, beside the project's configuration."""
    result = lint({"project_config.yml": CONFIG, "notebooks/load.py": NOTEBOOK + code}, {"spark": "none"})
    return _tables(result, "load.py")


def test_a_loader_that_fills_in_the_environments_fields_names_the_table(lint):
    code = (
        LOADER + "cfg = load('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.orders\")\n"
        "prd = load('../project_config.yml', 'prd')\n"
        "df.write.mode('append').saveAsTable(f\"{prd['catalog']}.{prd['schema']}.orders\")\n"
    )
    assert _loaded(lint, code) == [(10, "main_dev.sales.orders"), (12, "main_prd.sales.orders")]


def test_a_dict_another_name_still_holds_is_unknown_after_a_store(lint):
    """The near miss: `before` holds the dict the store changes in place; the
    reader keeps the store only for the name it was made through, so `before`
    is unknown, not the value before the store."""
    code = (
        "import yaml\n"
        "def load(path):\n"
        "    with open(path) as f:\n"
        "        data = yaml.safe_load(f)\n"
        "    before = data\n"
        "    data['catalog'] = 'other'\n"
        "    return before\n"
        "cfg = load('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['dev']['catalog']}.s.t\")\n"
        "def nested(path):\n"
        "    with open(path) as f:\n"
        "        data = yaml.safe_load(f)\n"
        "    data['dev']['catalog'] = 'other'\n"
        "    return data\n"
        "n = nested('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f\"{n['dev']['catalog']}.s.u\")\n"
    )
    tables = dict(_loaded(lint, code))
    assert "main_dev" not in tables[10] and "other" not in tables[10]
    assert "main_dev" not in tables[17] and "other" not in tables[17]


def test_a_notebook_that_displays_what_it_loaded_keeps_the_loader(lint):
    """`display(load(...))` at the top level calls `load`; it does not rebind it, so
    the other calls of `load` are still read."""
    code = (
        LOADER + "display(load('../project_config.yml'))\n"
        "cfg = load('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.orders\")\n"
    )
    assert _loaded(lint, code) == [(11, "main_dev.sales.orders")]


def test_a_module_value_handed_to_a_call_at_the_top_level_stays_unknown(lint):
    """The near miss: `pass` may change the dict it is given, so the loader
    reading `ENV` no longer knows which section it picks."""
    code = (
        "import yaml\n"
        "ENV = {'name': 'dev'}\n"
        "def load(path):\n"
        "    with open(path) as f:\n"
        "        data = yaml.safe_load(f)\n"
        "    return data[ENV['name']]\n"
        "fill(ENV)\n"
        "cfg = load('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.orders\")\n"
    )
    [(line, name)] = _loaded(lint, code)
    assert line == 10 and "main_dev" not in (name or "")


def test_a_loader_whose_handlers_log_and_raise_again_names_the_table(lint):
    """`try: ... except FileNotFoundError: logger.error(...); raise`: a way through
    the handler goes no further than the error would, so what the body returns is
    what the loader gives, the logging calls not followed notwithstanding."""
    code = (
        "import yaml\n"
        "def load(path, env='dev'):\n"
        "    try:\n"
        "        with open(path) as f:\n"
        "            data = yaml.safe_load(f)\n"
        "        logger.info('loaded %s', path)\n"
        "        return data[env]\n"
        "    except FileNotFoundError:\n"
        "        logger.error('no configuration at %s', path)\n"
        "        raise\n"
        "cfg = load('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.orders\")\n"
    )
    assert _loaded(lint, code) == [(13, "main_dev.sales.orders")]


def test_a_loader_whose_handler_goes_on_is_not_read_as_its_body_alone(lint):
    """The near miss: a handler that gives a value of its own (a fallback section) is
    a way the loader may go: the table is not named by the document alone."""
    code = (
        "import yaml\n"
        "def load(path, env='dev'):\n"
        "    try:\n"
        "        with open(path) as f:\n"
        "            data = yaml.safe_load(f)\n"
        "        logger.info('loaded %s', path)\n"
        "        return data[env]\n"
        "    except FileNotFoundError:\n"
        "        return {'catalog': 'main_local', 'schema': 'sales'}\n"
        "cfg = load('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.orders\")\n"
    )
    assert _loaded(lint, code) == [(12, "{cfg_catalog}.{cfg_schema}.orders")]


def test_a_path_built_with_pathlib_names_the_document_it_opens(lint):
    """`pathlib.Path("../project_config.yml").resolve().as_posix()`: the path a
    notebook hands to its loader, relative to the notebook's folder."""
    code = (
        LOADER + "import pathlib\n"
        "CONFIG_FILE = pathlib.Path('../project_config.yml').resolve().as_posix()\n"
        "cfg = load(CONFIG_FILE)\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.orders\")\n"
    )
    assert _loaded(lint, code) == [(12, "main_dev.sales.orders")]


def test_a_path_built_from_a_run_value_stays_unknown(lint):
    """The near miss: a path under a folder only the run knows (a widget) names no
    document: the loader's value is not known."""
    code = (
        LOADER + "import pathlib\n"
        "CONFIG_FILE = pathlib.Path(dbutils.widgets.get('root')).joinpath('project_config.yml').as_posix()\n"
        "cfg = load(CONFIG_FILE)\n"
        "df.write.mode('append').saveAsTable(f\"{cfg['catalog']}.{cfg['schema']}.orders\")\n"
    )
    assert _loaded(lint, code) == [(12, "{cfg_catalog}.{cfg_schema}.orders")]


FACTORY = (
    "import yaml\n"
    "from dataclasses import dataclass\n"
    "@dataclass\n"
    "class Settings:\n"
    "    catalog: str\n"
    "    schema: str\n"
    "    @classmethod\n"
    "    def from_yaml(cls, path, env='dev'):\n"
    "        with open(path) as f:\n"
    "            data = yaml.safe_load(f)\n"
    "        return cls(**data[env])\n"
)


def test_a_configuration_class_built_by_a_class_method_from_a_document(lint):
    """A dataclass whose class method loads the document and builds the object
    (`cls(**data[env])`); and a pydantic model of another module of the project,
    whose loader fills in the environment's fields and ignores the other keys."""
    code = (
        FACTORY + "settings = Settings.from_yaml('../project_config.yml', 'prd')\n"
        "df.write.mode('append').saveAsTable(f'{settings.catalog}.{settings.schema}.orders')\n"
    )
    model = (
        "import yaml\n"
        "from pydantic import BaseModel\n"
        "class Config(BaseModel):\n"
        "    catalog: str\n"
        "    schema_name: str\n"
        "    @classmethod\n"
        "    def from_yaml(cls, config_file: str, env: str = 'dev') -> 'Config':\n"
        "        try:\n"
        "            with open(config_file, encoding='utf-8') as file:\n"
        "                data = yaml.safe_load(file)\n"
        "            data['catalog'] = data[env]['catalog']\n"
        "            data['schema_name'] = data[env]['schema']\n"
        "            config = Config(**data)\n"
        "            logger.info(f'Loaded configuration from {config_file}')\n"
        "            return config\n"
        "        except FileNotFoundError:\n"
        "            logger.error(f'Configuration file not found: {config_file}')\n"
        "            raise\n"
    )
    job = (
        "from shop.config import Config\n"
        "config = Config.from_yaml('../project_config.yml')\n"
        "catalog = config.catalog\n"
        "df.write.mode('append').saveAsTable(f'{catalog}.{config.schema_name}.items')\n"
    )
    result = lint(
        {
            "project_config.yml": CONFIG,
            "notebooks/own.py": NOTEBOOK + code,
            "src/shop/__init__.py": "",
            "src/shop/config.py": model,
            "notebooks/job.py": NOTEBOOK + job,
        },
        {"spark": "none"},
    )
    assert _tables(result, "own.py") == [(14, "main_prd.sales.orders")]
    assert _tables(result, "job.py") == [(5, "main_dev.sales.items")]


def test_a_dataclass_given_a_key_it_has_no_field_for_builds_nothing(lint):
    """The near miss: `cls(**data)` of the whole document gives the dataclass keys it
    has no field for (`dev`, `prd`): Python raises a TypeError there, so no object
    is known and the table stays unknown."""
    code = (
        FACTORY.replace("cls(**data[env])", "cls(**data)") + "settings = Settings.from_yaml('../project_config.yml')\n"
        "df.write.mode('append').saveAsTable(f'{settings.catalog}.{settings.schema}.orders')\n"
    )
    result = lint(
        {"project_config.yml": CONFIG, "notebooks/own.py": NOTEBOOK + code},
        {"spark": "none"},
    )
    [(line, name)] = _tables(result, "own.py")
    assert line == 14 and "main_dev" not in (name or "")
