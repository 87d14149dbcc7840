"""A configuration object built in one module (`Settings.from_env()`, a dataclass
filled from the environment's defaults) handed to a value function of another
(`fully_qualified(settings, "orders")`): the function reads the object's fields
by attribute, so the table is named; a field no default gives stays unknown."""

from __future__ import annotations

CONFIG = (
    "import os\n"
    "from dataclasses import dataclass\n"
    "def _required(name, default=None):\n"
    "    value = os.getenv(name, default)\n"
    "    if not value:\n"
    "        raise RuntimeError(name)\n"
    "    return value\n"
    "@dataclass(frozen=True)\n"
    "class Settings:\n"
    "    host: str\n"
    "    catalog: str\n"
    "    schema: str\n"
    "    @classmethod\n"
    "    def from_env(cls):\n"
    "        return cls(\n"
    '            host=_required("DATABRICKS_HOST"),\n'
    '            catalog=_required("DATABRICKS_CATALOG", "main"),\n'
    '            schema=os.getenv("DATABRICKS_SCHEMA", "sales"),\n'
    "        )\n"
)
NAMES = (
    "def fully_qualified(settings, name):\n"
    '    return f"{settings.catalog}.{settings.schema}.{name}"\n'
    "def on_host(settings, name):\n"
    '    return f"{settings.host}.{settings.schema}.{name}"\n'
)
STAGES = (
    "from pkg.names import fully_qualified\n"
    "def load_orders(settings):\n"
    '    table = fully_qualified(settings, "orders")\n'
    '    spark.sql(f"INSERT INTO {table} VALUES (1)")\n'
)


def tables(result, path: str) -> dict[int, str]:
    return {i.location.line: i.table.name for i in result.intents if i.table and i.location.path.endswith(path)}


def project(job: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/config.py": CONFIG,
        "pkg/names.py": NAMES,
        "pkg/stages.py": STAGES,
        "jobs/job.py": job,
    }


def test_an_object_of_another_module_given_to_a_value_function_names_the_table(lint):
    job = (
        "from pkg.config import Settings\n"
        "from pkg.names import fully_qualified\n"
        "settings = Settings.from_env()\n"
        "spark.sql(f\"INSERT INTO {fully_qualified(settings, 'items')} VALUES (1)\")\n"
    )
    assert tables(lint(project(job)), "job.py") == {4: "main.sales.items"}


def test_an_object_a_wrapper_builds_reaches_a_helper_of_a_third_module(lint):
    """`stage(_settings())`: the object is built where the job's wrapper calls the
    factory, the helper that writes is another module's, the name a third's."""
    job = (
        "from pkg.config import Settings\n"
        "from pkg.stages import load_orders\n"
        "def _settings():\n"
        "    return Settings.from_env()\n"
        "def task():\n"
        "    load_orders(_settings())\n"
    )
    assert tables(lint(project(job)), "job.py") == {6: "main.sales.orders"}


def test_a_field_only_the_environment_gives_stays_unknown(lint):
    """`host` has no default: the object crosses without it, and the part of a name
    built of it is a placeholder (never a guess) beside the known parts, as the
    job's own f-string of the same fields reads (named in part, no DL001)."""
    job = (
        "from pkg.config import Settings\n"
        "from pkg.names import on_host\n"
        "settings = Settings.from_env()\n"
        "spark.sql(f\"INSERT INTO {on_host(settings, 'items')} VALUES (1)\")\n"
    )
    result = lint(project(job))
    assert tables(result, "job.py") == {4: "{settings_host}.sales.items"}
    assert not [f for f in result.findings if f.rule == "DL001" and f.location.path.endswith("job.py")]
