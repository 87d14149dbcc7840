"""Members of an imported module reached through the module object: `import config`
then `config.Env.TABLE` (a class attribute), `config.Env.get()` (a class or static
method returning one), `config.settings["t"]` (a dict of the module), `import
pkg.conf as c; c.TABLE`, `from pkg import conf; conf.build_name("x")`. Each is read
in the other module's own scope, as its summary gives it. Near misses stay unknown:
a class attribute the module sets again, a class method whose value only a run
knows, a dict the module changes, a plain dict read by attribute."""

from __future__ import annotations

CONFIG = (
    "class Env:\n"
    '    TABLE = "main.s.orders"\n'
    '    AUDIT = f"{CATALOG}.ops.audit"\n'
    "\n"
    "    @classmethod\n"
    "    def get(cls):\n"
    "        return cls.TABLE\n"
    "\n"
    "    @staticmethod\n"
    "    def named(name):\n"
    '        return f"main.s.{name}"\n'
    "\n"
    "    @classmethod\n"
    "    def audit(cls):\n"
    "        return cls.AUDIT\n"
    "\n"
    "\n"
    'CATALOG = "main"\n'
    'settings = {"t": "main.s.settings"}\n'
    "\n"
    "\n"
    "def build_name(x):\n"
    '    return f"main.s.{x}"\n'
)


def tables(result) -> list[tuple[int, str | None]]:
    return sorted((i.location.line, i.table.name if i.table else None) for i in result.intents)


def dynamic(result) -> list[int]:
    return sorted(d.location.line for d in result.diagnostics if d.rule == "DL001")


def test_a_class_attribute_and_class_method_through_the_module_object(lint):
    code = (
        "import config\n"
        'spark.table("src").write.mode("overwrite").saveAsTable(config.Env.get())\n'
        'spark.table("src").write.mode("append").saveAsTable(config.Env.TABLE)\n'
        'spark.table("src").write.mode("append").saveAsTable(config.Env.named("x"))\n'
        'spark.table("src").write.mode("append").saveAsTable(config.settings["t"])\n'
    )
    found = lint({"config.py": CONFIG, "job.py": code})
    assert tables(found) == [(2, "main.s.orders"), (3, "main.s.orders"), (4, "main.s.x"), (5, "main.s.settings")]
    assert dynamic(found) == []


def test_a_class_imported_by_name_reads_its_attributes_and_class_methods(lint):
    code = (
        "from config import Env\n"
        'df.write.mode("overwrite").saveAsTable(Env.get())\n'
        'df.write.mode("append").saveAsTable(Env.TABLE)\n'
    )
    found = lint({"config.py": CONFIG, "job.py": code})
    assert tables(found) == [(2, "main.s.orders"), (3, "main.s.orders")]


def test_a_class_method_of_the_files_own_class(lint):
    code = (
        "class L:\n"
        '    T = "main.s.local"\n'
        "\n"
        "    @classmethod\n"
        "    def get(cls):\n"
        "        return cls.T\n"
        "\n"
        "\n"
        'df.write.mode("append").saveAsTable(L.get())\n'
    )
    assert tables(lint({"job.py": code})) == [(9, "main.s.local")]


def test_a_submodule_imported_from_its_package_or_by_an_alias(lint):
    conf = 'TABLE = "main.s.top"\n\n\ndef build_name(x):\n    return f"main.s.{x}"\n'
    code = (
        "import pkg.conf as c\n"
        "from pkg import conf\n"
        'df.write.mode("append").saveAsTable(c.TABLE)\n'
        'df.write.mode("append").saveAsTable(conf.build_name("x"))\n'
        'df.write.mode("append").saveAsTable(c.build_name("y"))\n'
    )
    found = lint({"pkg/__init__.py": "", "pkg/conf.py": conf, "job.py": code})
    assert tables(found) == [(3, "main.s.top"), (4, "main.s.x"), (5, "main.s.y")]


def test_a_class_attribute_the_module_sets_again_stays_unknown(lint):
    config = CONFIG + 'Env.TABLE = dbutils.widgets.get("t")\n'
    code = (
        "import config\n"
        'df.write.mode("overwrite").saveAsTable(config.Env.get())\n'
        'df.write.mode("append").saveAsTable(config.Env.TABLE)\n'
    )
    found = lint({"config.py": config, "job.py": code})
    assert dynamic(found) == [2, 3]


def test_a_class_method_only_a_run_knows_and_a_changed_dict_stay_unknown(lint):
    config = (
        "import os\n"
        "class Env:\n"
        "    @classmethod\n"
        "    def get(cls):\n"
        '        return os.environ["TABLE"]\n'
        "\n"
        "\n"
        'settings = {"t": "main.s.settings"}\n'
        'settings["t"] = os.environ["T"]\n'
    )
    code = (
        "import config\n"
        'df.write.mode("overwrite").saveAsTable(config.Env.get())\n'
        'df.write.mode("append").saveAsTable(config.settings["t"])\n'
    )
    found = lint({"config.py": config, "job.py": code})
    assert "main.s.settings" not in {t for _, t in tables(found)}
    assert dynamic(found) == [2, 3]


def test_a_plain_dict_of_a_module_is_not_read_by_attribute(lint):
    code = 'import config\ndf.write.mode("append").saveAsTable(config.settings.t)\n'
    found = lint({"config.py": CONFIG, "job.py": code})
    assert dynamic(found) == [2]


def test_a_class_method_reads_its_own_modules_names_and_functions(lint):
    config = (
        'CATALOG = "main"\n'
        "\n"
        "\n"
        "def fq(name):\n"
        '    return f"{CATALOG}.s.{name}"\n'
        "\n"
        "\n"
        "class Env:\n"
        '    AUDIT = f"{CATALOG}.ops.audit"\n'
        "\n"
        "    @classmethod\n"
        "    def table(cls, name):\n"
        '        return f"{CATALOG}.s.{name}"\n'
        "\n"
        "    @staticmethod\n"
        "    def via(name):\n"
        "        return fq(name)\n"
    )
    code = (
        'CATALOG = "dev"\n'
        "import config\n"
        'df.write.saveAsTable(config.Env.table("x"))\n'
        'df.write.saveAsTable(config.Env.via("y"))\n'
        "df.write.saveAsTable(config.Env.AUDIT)\n"
    )
    found = lint({"config.py": config, "job.py": code})
    assert tables(found) == [(3, "main.s.x"), (4, "main.s.y"), (5, "main.ops.audit")]
