"""Every shape of a write the language allows gives an intent or a note at it.

The kind: a write a reader skips leaves nothing at its statement (a silent drop).
Each program below writes a table in one of Python's shapes (a `with` body, a
lambda, a decorator, a class body, `match`, a walrus, a generator, `async def`,
`getattr`, `functools.partial`, a dataclass's method, an alias, a dict of
functions, a spread, `try`/`finally`, `for`/`else`, a nested function, a
comprehension, `map`, a conditional expression, a writer in a name, static and
class methods, `__call__`, a context manager, a thread pool, `if __name__`, an
immediately called lambda, `and`, a `print` around it). The write's line (`# <`)
or a call that runs it (`# ^`) must hold an intent or a diagnostic.
"""

from __future__ import annotations

import pytest

HEAD = (
    "import functools\nfrom dataclasses import dataclass\ndf = spark.table('main.s.src')\nW = df.write.mode('append')\n"
)
SHAPES = {
    "with": "with open('/tmp/x') as fh:\n    W.saveAsTable('main.s.t')  # <\n",
    "lambda": "save = lambda t: W.saveAsTable(t)  # <\nsave('main.s.t')\n",
    "decorator": "def deco(fn):\n    W.saveAsTable('main.s.t')  # <\n    return fn\n@deco\ndef f():\n    pass\n",
    "class body": "class H:\n    W.saveAsTable('main.s.t')  # <\n",
    "match": "match spark.conf.get('x'):\n    case 'a':\n        W.saveAsTable('main.s.t')  # <\n",
    "walrus": "if (w := W) is not None:\n    w.saveAsTable('main.s.t')  # <\n",
    "generator": "def gen():\n    yield W.saveAsTable('main.s.t')  # <\nlist(gen())  # ^\n",
    "async def": "async def a():\n    W.saveAsTable('main.s.t')  # <\n",
    "getattr": "getattr(W, 'saveAsTable')('main.s.t')  # <\n",
    "partial": "p = functools.partial(W.saveAsTable, 'main.s.t')  # <\np()\n",
    # the one object of the file, one method called: read as a plain class's, its write
    # stands where it is written (with the object's table), as `test_object_state` says
    "dataclass": "@dataclass\nclass J:\n    t: str\n    def run(self):\n        W.saveAsTable(self.t)  # <\n"
    "J('main.s.t').run()  # ^\n",
    "alias of a called helper": "def w(t):\n    W.saveAsTable(t)  # <\nw('main.s.a')\nsave = w\nsave('main.s.t')\n",
    "dict of a called helper": "def w(t):\n    W.saveAsTable(t)  # <\nw('main.s.a')\n{'k': w}['k']('main.s.t')\n",
    "spread": "W.saveAsTable(**make_opts())  # <\n",
    "finally": "try:\n    pass\nfinally:\n    W.saveAsTable('main.s.t')  # <\n",
    "for else": "for i in range(2):\n    pass\nelse:\n    W.saveAsTable('main.s.t')  # <\n",
    "nested function": "def o():\n    def i(t):\n        W.saveAsTable(t)  # <\n    i('main.s.t')  # ^\no()  # ^\n",
    "comprehension": "[W.saveAsTable(t) for t in ['main.s.t']]  # <\n",
    "map": "list(map(lambda t: W.saveAsTable(t), ['main.s.t']))  # <\n",
    "conditional": "(df if spark else df).write.mode('append').saveAsTable('main.s.t')  # <\n",
    "writer in a name": "w2 = df.write\nw2 = w2.mode('append')\nw2.saveAsTable('main.s.t')  # <\n",
    "static method": "class C:\n    @staticmethod\n    def s(t):\n        W.saveAsTable(t)\nC.s('main.s.t')  # ^\n",
    "class method": "class C:\n    @classmethod\n    def c(cls, t):\n        W.saveAsTable(t)\nC.c('main.s.t')  # ^\n",
    "__call__": "class C:\n    def __call__(self, t):\n        W.saveAsTable(t)  # <\nC()('main.s.t')\n",
    "context manager": "import contextlib\n@contextlib.contextmanager\ndef ctx(t):\n    yield\n    W.saveAsTable(t)\n"
    "with ctx('main.s.t'):  # ^\n    pass\n",
    "thread pool": "from concurrent.futures import ThreadPoolExecutor\ndef w(t):\n    W.saveAsTable(t)\n"
    "with ThreadPoolExecutor() as ex:\n    ex.map(w, ['main.s.t'])  # ^\n",
    "main guard": "if __name__ == '__main__':\n    W.saveAsTable('main.s.t')  # <\n",
    "called lambda": "(lambda: W.saveAsTable('main.s.t'))()  # <\n",
    "and": "ok = df.count() > 0 and W.saveAsTable('main.s.t')  # <\n",
    "print": "print(W.saveAsTable('main.s.t'))  # <\n",
}


def _marked(code: str) -> set[int]:
    return {n for n, line in enumerate(code.splitlines(), 1) if line.rstrip().endswith(("# <", "# ^"))}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_write_in_this_shape_has_an_intent_or_a_note_at_it(lint, shape) -> None:
    code = HEAD + SHAPES[shape]
    result = lint({"job.py": code})
    marked = _marked(code)
    said = {i.location.line for r in result.files for i in r.intents}
    said |= {d.location.line for d in result.diagnostics if d.location.path.endswith("job.py")}
    assert marked & said, (shape, sorted(said))
