"""`super().__init__(...)` in a class's `__init__` runs the `__init__` of the project
class it derives from, with the same object: the attributes that one sets
(`self.table = f"{catalog}.s.base"`) are the object's, in turn with those the
subclass sets before and after the call. Where which `__init__` runs is not told
by the class alone (several bases, a base not of the project) or the base sets an
attribute only on some ways, the attribute stays unknown (DL001), never guessed."""

from __future__ import annotations

import pytest

BASE = """\
class Base:
    def __init__(self, catalog):
        self.catalog = catalog
        self.table = f"{catalog}.s.base"

"""
RUN = """
    def run(self):
        spark.sql(f"DELETE FROM {self.table} WHERE 1=1")


Job().run()
"""


def tables(result) -> list[str]:
    return sorted(
        "?" if i.table is None or "unresolved" in {f.value for f in i.flags} else i.table.name for i in result.intents
    )


@pytest.mark.parametrize(
    "init",
    [
        '        super().__init__("main")\n',
        '        super(Job, self).__init__(catalog="main")\n',
        '        self.table = "main.s.early"\n        super().__init__("main")\n',  # the base's comes later
    ],
)
def test_the_base_init_sets_the_objects_attributes(lint, init):
    code = BASE + "\nclass Job(Base):\n    def __init__(self):\n" + init + RUN
    assert tables(lint({"job.py": code})) == ["main.s.base"]


def test_an_attribute_set_after_the_call_wins(lint):
    init = '        super().__init__("main")\n        self.table = f"{self.catalog}.s.own"\n'
    code = BASE + "\nclass Job(Base):\n    def __init__(self):\n" + init + RUN
    assert tables(lint({"job.py": code})) == ["main.s.own"]


def test_two_levels_of_bases_are_followed(lint):
    middle = "\nclass Middle(Base):\n    def __init__(self, catalog):\n        super().__init__(catalog)\n\n"
    code = BASE + middle + '\nclass Job(Middle):\n    def __init__(self):\n        super().__init__("main")\n' + RUN
    assert tables(lint({"job.py": code})) == ["main.s.base"]


@pytest.mark.parametrize(
    "code",
    [
        # several bases: which `__init__` runs next depends on the object's class
        BASE
        + "\nclass Mixin:\n    pass\n\n\nclass Job(Base, Mixin):\n"
        + '    def __init__(self):\n        super().__init__("main")\n'
        + RUN,
        # a base not of the project
        "from lib import Base\n\n\nclass Job(Base):\n    def __init__(self):\n        super().__init__('main')\n" + RUN,
        # the base sets it on some ways only
        "import sys\n\n\nclass Base:\n    def __init__(self, catalog):\n        if len(sys.argv) > 1:\n"
        + '            self.table = f"{catalog}.s.base"\n\n\n'
        + 'class Job(Base):\n    def __init__(self):\n        super().__init__("main")\n'
        + RUN,
    ],
)
def test_a_base_init_not_told_leaves_the_attribute_unknown(lint, code):
    assert tables(lint({"job.py": code})) == ["?"]
