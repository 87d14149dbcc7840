"""A wheel's entry points declared by `setup.py` or `setup.cfg`, as by `pyproject.toml`.

A `python_wheel_task` names a package and an entry point; the module it runs is
the one the package's build declares. setuptools takes that declaration from a
`pyproject.toml`, a `setup.cfg` or the `setup(...)` call of `setup.py`: the last
is read as a syntax tree, never run, and only literals (or module-level names bound
once to a literal) are taken from it."""

from __future__ import annotations

import pytest

OVERWRITE = 'def main():\n    spark.table("demo.rows").write.mode("overwrite").saveAsTable("demo.scored")\n'
BUNDLE = (
    "bundle: {name: shop}\nresources:\n  jobs:\n"
    "    nightly:\n      schedule: {quartz_cron_expression: '0 0 2 * * ?', timezone_id: UTC}\n"
    "      tasks: [{task_key: t, python_wheel_task: {package_name: shop, entry_point: etl}}]\n"
    "    adhoc:\n      tasks: [{task_key: t, python_wheel_task: {package_name: shop, entry_point: etl}}]\n"
)
CONSOLE = "etl = shop.tasks.score:main"

MANIFESTS = {
    "setup.py dict": (
        "setup.py",
        f'from setuptools import setup\nsetup(name="shop", entry_points={{"console_scripts": ["{CONSOLE}"]}})\n',
    ),
    "setup.py bound name": (
        "setup.py",
        f'import setuptools\nENTRY = {{"console_scripts": ["{CONSOLE}"]}}\nsetuptools.setup(name="shop", entry_points=ENTRY)\n',
    ),
    "setup.py ini text": (
        "setup.py",
        f'from setuptools import setup\nsetup(name="shop", entry_points="""\n[console_scripts]\n{CONSOLE}\n""")\n',
    ),
    "setup.cfg": (
        "setup.cfg",
        f"[metadata]\nname = shop\n\n[options.entry_points]\nconsole_scripts =\n    {CONSOLE}\n",
    ),
}


def _tables(result) -> set[str | None]:
    return {f.table for f in result.findings if f.rule.startswith("DL1")}


@pytest.mark.parametrize("shape", sorted(MANIFESTS))
def test_a_wheel_task_runs_the_module_its_build_declares(lint, shape: str):
    name, text = MANIFESTS[shape]
    files = {"databricks.yml": BUNDLE, name: text, "src/shop/__init__.py": "", "src/shop/tasks/score.py": OVERWRITE}
    assert _tables(lint(files)) == {"demo.scored"}


def test_an_entry_point_the_setup_code_computes_declares_nothing(lint):
    # the near miss: `entry_points` made by a call is only known by running setup.py
    setup = 'from setuptools import setup\nsetup(name="shop", entry_points=entries())\n'
    files = {
        "databricks.yml": BUNDLE,
        "setup.py": setup,
        "src/shop/__init__.py": "",
        "src/shop/tasks/score.py": OVERWRITE,
    }
    assert _tables(lint(files)) == set()


def test_a_name_bound_twice_in_setup_py_declares_nothing(lint):
    setup = (
        f'from setuptools import setup\nENTRY = {{"console_scripts": ["{CONSOLE}"]}}\n'
        'if EXTRA:\n    pass\nENTRY = {"console_scripts": ["etl = shop.other:main"]}\n'
        'setup(name="shop", entry_points=ENTRY)\n'
    )
    files = {
        "databricks.yml": BUNDLE,
        "setup.py": setup,
        "src/shop/__init__.py": "",
        "src/shop/tasks/score.py": OVERWRITE,
    }
    assert _tables(lint(files)) == set()
