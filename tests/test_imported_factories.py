"""A function of a module that returns an object of one of its classes (a
configuration factory) is given to the files that import it with the class: the
object's fields and methods name the table at each call. Whether it was given
used to depend on the words on its lines (and on any character outside ASCII in
the file), so a pure-ASCII configuration module lost every name it built."""

from __future__ import annotations

CFG = """# configuration: plain ASCII
from dataclasses import dataclass

_CATALOGS = {"dev": "c_dev", "prod": "c_prod"}


@dataclass(frozen=True)
class Env:
    environment: str
    catalog: str

    def table(self, layer, name):
        return f"{self.catalog}.{layer}.{name}"

    @classmethod
    def of(cls, environment):
        return cls(environment, _CATALOGS[environment])


def resolve_env(environment):
    return Env(environment=environment, catalog=_CATALOGS[environment])


def resolve_by_class(environment):
    return Env.of(environment)
"""


def _job(factory: str, environment: str) -> str:
    return (
        f"from pkg.cfg import {factory}\n"
        f"env = {factory}({environment})\n"
        'spark.range(3).write.mode("overwrite").saveAsTable(env.table("silver", "direct"))\n'
    )


def test_a_factory_of_an_imported_module_names_the_table(lint):
    files = {"pkg/__init__.py": "", "pkg/cfg.py": CFG}
    files["a.py"] = _job("resolve_env", '"prod"')
    files["b.py"] = _job("resolve_by_class", '"prod"')
    result = lint(files)
    assert sorted(i.table.name for i in result.intents) == ["c_prod.silver.direct", "c_prod.silver.direct"]
    assert {(f.rule, f.table) for f in result.findings} == {("DL102", "c_prod.silver.direct")}


def test_a_factory_given_a_value_only_a_run_knows_stays_unresolved(lint):
    files = {"pkg/__init__.py": "", "pkg/cfg.py": CFG}
    files["a.py"] = _job("resolve_env", 'dbutils.widgets.get("env")')
    result = lint(files)
    assert all("c_prod" not in i.table.name and "c_dev" not in i.table.name for i in result.intents)
