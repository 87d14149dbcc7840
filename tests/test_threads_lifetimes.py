"""When two writes of one file run at the same time through threads: each thread
runs from its start to the join that ends it, whatever form makes, binds, starts
or joins it (a loop over the threads, a `try`, a list literal, an `if`, a name
bound again, an annotated or unpacked binding). Where the code cannot tell (a
join with a timeout, a join in an `if`, a thread handed to code not read), the
threads may run together; a start and a join one after the other run alone.

Each shape is checked both ways: the threads that overlap conflict (DL102), and
its near miss, started and joined one after the other, does not."""

from __future__ import annotations

import pytest

LOAD = """\
from threading import Thread
import threading


def load(region):
    spark.sql(
        f"MERGE INTO main.sales.orders t USING main.raw.orders_{region} s ON t.id = s.id "
        "WHEN MATCHED THEN UPDATE SET *"
    )


"""


def _conflicts(lint, code: str) -> list[str]:
    """The conflict rules found on a job that loads two regions into one table."""
    result = lint({"job.py": LOAD + code})
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    assert {i.table.name for i in result.intents if i.table is not None} == {"main.sales.orders"}
    return sorted(f.rule for f in result.findings if f.rule.startswith("DL1"))


def _in_function(code: str) -> str:
    return "def main():\n" + "".join(f"    {line}\n" if line else "\n" for line in code.splitlines()) + "\n\nmain()\n"


TWO = 'a = Thread(target=load, args=("eu",))\nb = Thread(target=load, args=("us",))\n'
SERIAL_TWO = TWO + "a.start()\na.join()\nb.start()\nb.join()\n"

# (shape, together, one after the other): each starts or makes two threads its way
SHAPES = {
    "started in a loop over the names": (
        TWO + "for th in (a, b):\n    th.start()\nfor th in (a, b):\n    th.join()\n",
        TWO + "for th in (a, b):\n    th.start()\n    th.join()\n",
    ),
    "started in a try": (
        TWO + "try:\n    a.start()\n    b.start()\nfinally:\n    a.join()\n    b.join()\n",
        TWO + "try:\n    a.start()\nfinally:\n    a.join()\ntry:\n    b.start()\nfinally:\n    b.join()\n",
    ),
    "kept in a list literal": (
        'threads = [Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))]\n'
        "for th in threads:\n    th.start()\nfor th in threads:\n    th.join()\n",
        'threads = [Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))]\n'
        "for th in threads:\n    th.start()\n    th.join()\n",
    ),
    "made inside an if": (
        "if True:\n"
        + "".join(f"    {line}\n" for line in TWO.splitlines())
        + "a.start()\nb.start()\na.join()\nb.join()\n",
        "if True:\n"
        + "".join(f"    {line}\n" for line in TWO.splitlines())
        + "a.start()\na.join()\nb.start()\nb.join()\n",
    ),
    "a name bound again": (
        't = Thread(target=load, args=("eu",))\nt.start()\nt = Thread(target=load, args=("us",))\nt.start()\nt.join()\n',
        't = Thread(target=load, args=("eu",))\nt.start()\nt.join()\n'
        't = Thread(target=load, args=("us",))\nt.start()\nt.join()\n',
    ),
    "annotated": (
        TWO.replace("a =", "a: Thread =").replace("b =", "b: threading.Thread =")
        + "a.start()\nb.start()\na.join()\nb.join()\n",
        SERIAL_TWO.replace("a =", "a: Thread =").replace("b =", "b: threading.Thread ="),
    ),
    "unpacked from a tuple": (
        'a, b = Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))\n'
        "a.start()\nb.start()\na.join()\nb.join()\n",
        'a, b = Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))\n'
        "a.start()\na.join()\nb.start()\nb.join()\n",
    ),
    "bound by a walrus and started with a comprehension": (
        '(a := Thread(target=load, args=("eu",))).start()\n(b := Thread(target=load, args=("us",))).start()\n'
        "[t.join() for t in (a, b)]\n",
        '(a := Thread(target=load, args=("eu",))).start()\na.join()\n'
        '(b := Thread(target=load, args=("us",))).start()\nb.join()\n',
    ),
    "kept in a list filled by append and +=": (
        "threads = []\n"
        'threads.append(Thread(target=load, args=("eu",)))\nthreads += [Thread(target=load, args=("us",))]\n'
        "[t.start() for t in threads]\nfor t in threads:\n    t.join()\n",
        "threads = []\n"
        'threads.append(Thread(target=load, args=("eu",)))\nthreads += [Thread(target=load, args=("us",))]\n'
        "for t in threads:\n    t.start()\n    t.join()\n",
    ),
    "started by a map over the list": (
        'threads = [Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))]\n'
        "list(map(lambda t: t.start(), threads))\nlist(map(Thread.join, threads))\n",
        'threads = [Thread(target=load, args=("eu",)), Thread(target=load, args=("us",))]\n'
        "list(map(lambda t: (t.start(), t.join()), threads))\n",
    ),
    "an attribute of the object": (
        TWO.replace("a =", "self.a =").replace("b =", "self.b =")
        + "self.a.start()\nself.b.start()\nself.a.join()\nself.b.join()\n",
        TWO.replace("a =", "self.a =").replace("b =", "self.b =")
        + "self.a.start()\nself.a.join()\nself.b.start()\nself.b.join()\n",
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("where", ["module", "function"])
def test_threads_started_before_either_is_joined_conflict(lint, shape: str, where: str) -> None:
    together, _ = SHAPES[shape]
    code = together if where == "module" or "self." in together else _in_function(together)
    if "self." in together:  # in a method of the object
        code = "class Job:\n    def run(self):\n" + "".join(f"        {line}\n" for line in together.splitlines())
        code += "\n\nJob().run()\n"
    assert _conflicts(lint, code) == ["DL102"]


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("where", ["module", "function"])
def test_threads_started_and_joined_one_after_the_other_run_alone(lint, shape: str, where: str) -> None:
    _, serial = SHAPES[shape]
    code = serial if where == "module" else _in_function(serial)
    if "self." in serial:
        code = "class Job:\n    def run(self):\n" + "".join(f"        {line}\n" for line in serial.splitlines())
        code += "\n\nJob().run()\n"
    assert _conflicts(lint, code) == []


LOOP = 'for region in ["eu", "us"]:\n    th = Thread(target=load, args=(region,))\n    th.start()\n    JOIN\n'


@pytest.mark.parametrize("join", ["th.join(timeout=60)", "th.join(60)", "th.join(timeout=seconds)"])
def test_a_join_with_a_timeout_does_not_end_the_thread(lint, join: str) -> None:
    """A timed-out join returns while the thread still runs: the next turn's thread
    may overlap it."""
    assert _conflicts(lint, LOOP.replace("JOIN", join)) == ["DL102"]
    once = TWO + f"a.start()\na.join({join[8:-1]})\nb.start()\nb.join()\n"
    assert _conflicts(lint, once) == ["DL102"]


@pytest.mark.parametrize("join", ["th.join()", "th.join(None)", "th.join(timeout=None)"])
def test_a_join_without_a_timeout_ends_the_thread(lint, join: str) -> None:
    assert _conflicts(lint, LOOP.replace("JOIN", join)) == []
    annotated = LOOP.replace("th = Thread", "th: Thread = Thread")
    assert _conflicts(lint, annotated.replace("JOIN", join)) == []


def test_a_join_that_may_not_run_does_not_end_the_thread(lint) -> None:
    """A join in an `if` (or an `except`, or a loop over something else) may not run:
    the thread may still run when the next starts."""
    for maybe in ("if ready:\n    a.join()\n", "try:\n    pass\nexcept ValueError:\n    a.join()\n"):
        assert _conflicts(lint, TWO + "a.start()\n" + maybe + "b.start()\nb.join()\n") == ["DL102"]
    # the near miss: started and joined in one `if`, then the other
    assert _conflicts(lint, TWO + "if ready:\n    a.start()\n    a.join()\nb.start()\nb.join()\n") == []


def test_a_start_that_may_run_may_overlap(lint) -> None:
    """A start in an `if` may happen: the thread may run with one started after it."""
    assert _conflicts(lint, TWO + "if ready:\n    a.start()\nb.start()\nb.join()\na.join()\n") == ["DL102"]


def test_a_name_bound_to_one_thread_or_another_is_either(lint) -> None:
    """`t` made in one branch or the other is one of the two threads: the two never
    run together, but either runs with a third started before it ends."""
    either = (
        'if ready:\n    t = Thread(target=load, args=("eu",))\nelse:\n    t = Thread(target=load, args=("us",))\n'
        "t.start()\nt.join()\n"
    )
    assert _conflicts(lint, either) == []
    third = either.replace("t.join()\n", 'u = Thread(target=load, args=("asia",))\nu.start()\nt.join()\nu.join()\n')
    assert _conflicts(lint, third) == ["DL102"]


def test_threads_handed_to_code_not_read_may_run_together(lint) -> None:
    """A thread handed on unstarted (to a helper, a `return`) may be started there
    and is never known to end: two such may run together."""
    assert _conflicts(lint, TWO + "start_all([a, b])\n") == ["DL102"]
    # the near miss: one handed on after the other has ended
    assert _conflicts(lint, TWO.splitlines()[1] + "\nb.start()\nb.join()\n" + TWO.splitlines()[0] + "\nkeep(a)\n") == []
    # made and never started nor handed on: it never runs, its target still read
    assert _conflicts(lint, TWO) == []


def test_threads_unpacked_from_a_call_are_not_made_here(lint) -> None:
    """`a, b = make_threads()`: the threads are made where `make_threads` makes them;
    rebinding `a` and `b` to them leaves the earlier threads of those names running."""
    code = TWO + "a.start()\nb.start()\na, b = make_threads()\na.join()\nb.join()\n"
    assert _conflicts(lint, code) == ["DL102"]


def test_annotated_and_unpacked_pools_are_pools(lint) -> None:
    one_table = '["orders", "orders"]'
    for binding in (
        "pool: ThreadPoolExecutor = ThreadPoolExecutor(4)",
        "pool, size = ThreadPoolExecutor(4), 4",
        "(pool := ThreadPoolExecutor(4))",
    ):
        code = f"from concurrent.futures import ThreadPoolExecutor\n\n{binding}\npool.map(load, {one_table})\n"
        assert _conflicts(lint, code) == ["DL102"], binding
        # the near miss: a pool of one worker runs its calls in order
        assert _conflicts(lint, code.replace("(4)", "(1)")) == [], binding


def test_an_annotated_list_of_threads_started_and_joined_in_turn_runs_alone(lint) -> None:
    made = 'threads: list = [Thread(target=load, args=(r,)) for r in ["eu", "us"]]\n'
    assert _conflicts(lint, made + "for t in threads:\n    t.start()\n    t.join()\n") == []
    assert _conflicts(lint, made + "for t in threads:\n    t.start()\nfor t in threads:\n    t.join()\n") == ["DL102"]


def test_a_scope_too_long_to_follow_leaves_its_threads_together(lint) -> None:
    """Past the statements a module may read in order, any thread of the scope may
    run while another does (never "alone" for want of reading)."""
    many = "[" + ", ".join(f"Thread(target=print, args=({n},))" for n in range(200)) + "]"
    spin = f"others = {many}\nfor x in others:\n    for y in others:\n        pass\n"
    assert _conflicts(lint, spin + SERIAL_TWO) == ["DL102"]
    assert _conflicts(lint, SERIAL_TWO) == []


def test_a_long_scope_read_once_is_followed_to_its_end(lint) -> None:
    """The budget is for statements read again (loops over lists of threads): a
    long module read once still ends its threads where it joins them."""
    long = "".join(f"x{n} = {n}\n" for n in range(21_000))
    assert _conflicts(lint, long + SERIAL_TWO) == []
    assert _conflicts(lint, long + TWO + "a.start()\nb.start()\na.join()\nb.join()\n") == ["DL102"]


POOL = """\
from concurrent.futures import ThreadPoolExecutor

with ThreadPoolExecutor(4) as ex:
    for region in ["eu", "us"]:
        TURN
"""


@pytest.mark.parametrize(
    "turn",
    [
        "ex.submit(load, region).result()",
        "future = ex.submit(load, region)\n        future.result()",
        "future: object = ex.submit(load, region)\n        future.result(timeout=None)",
    ],
)
def test_a_future_waited_for_in_its_turn_runs_alone(lint, turn: str) -> None:
    """A hand-out to a pool is a thread of the pool's: its `result()` without a
    timeout ends it, so a loop that waits for each in its turn runs them in order."""
    assert _conflicts(lint, POOL.replace("TURN", turn)) == []


@pytest.mark.parametrize(
    "turn",
    [
        "futures.append(ex.submit(load, region))\n    for f in futures:\n        f.result()",
        "future = ex.submit(load, region)\n        future.result(timeout=30)",
        "future = ex.submit(load, region)\n        if region == 'us':\n            future.result()",
    ],
)
def test_futures_not_waited_for_in_their_turn_run_together(lint, turn: str) -> None:
    code = POOL.replace("with", "futures = []\nwith").replace("TURN", turn)
    assert _conflicts(lint, code) == ["DL102"]
    made = (
        "from concurrent.futures import ThreadPoolExecutor\n\n"
        "ex = ThreadPoolExecutor(4)\n"
        'futures = [ex.submit(load, r) for r in ["eu", "us"]]\n'
        "for f in futures:\n    f.result()\n"
    )
    assert _conflicts(lint, made) == ["DL102"]


def test_a_pools_hand_out_does_not_group_threads(lint) -> None:
    """A future meets the pool's other calls through the pool: it neither makes a
    thread it overlaps a call at the same time as itself, nor links two threads
    that never overlap each other."""
    pool = "from concurrent.futures import ThreadPoolExecutor\n\nex = ThreadPoolExecutor(4)\n"
    alone = pool + "a = Thread(target=load, args=(region,))\na.start()\nf = ex.submit(print, 1)\na.join()\nf.result()\n"
    assert _conflicts(lint, alone) == []
    apart = pool + TWO + "a.start()\nf = ex.submit(print, 1)\na.join()\nb.start()\nf.result()\nb.join()\n"
    assert _conflicts(lint, apart) == []


def test_threads_a_nested_function_names_may_run_together(lint) -> None:
    """A nested function (or a lambda) is read as a scope of its own, where the
    threads it names are not known: they may be started there, and run on."""
    closure = TWO + "def go():\n    a.start()\n    b.start()\n\ngo()\n"
    assert _conflicts(lint, _in_function(closure)) == ["DL102"]
    handed = TWO + "run_later(lambda: (a.start(), b.start()))\n"
    assert _conflicts(lint, _in_function(handed)) == ["DL102"]
    # the near miss: named by a nested function after each was started and joined
    after = SERIAL_TWO + "def report():\n    return (a.name, b.name)\n\nreport()\n"
    assert _conflicts(lint, _in_function(after)) == []


@pytest.mark.parametrize("turn", ["ex.submit(load, region).result()", "ex.apply_async(load, (region,)).get()"])
def test_a_future_waited_for_in_its_turn_runs_alone_whatever_it_writes(lint, turn: str) -> None:
    """A write that differs per turn (its condition names the item) is still a plain
    call when each turn waits for its own hand-out."""
    load = (
        "from concurrent.futures import ThreadPoolExecutor\n\n\n"
        "def load(region):\n"
        "    spark.sql(f\"UPDATE main.sales.orders SET v = 2 WHERE region = '{region}'\")\n\n\n"
    )
    code = POOL.replace("TURN", turn)
    if "apply_async" in turn:
        code = code.replace(
            "from concurrent.futures import ThreadPoolExecutor", "from multiprocessing.pool import ThreadPool"
        )
        code = code.replace("ThreadPoolExecutor(4)", "ThreadPool(4)")
    result = lint({"job.py": load + code})
    assert [f.rule for f in result.findings if f.rule.startswith("DL1")] == []


@pytest.mark.parametrize(
    ("leave", "expected"),
    [
        # a turn that may leave between the start and the join: its thread runs on
        ("t.start()\n        if region == 'eu':\n            continue\n        t.join()", ["DL102"]),
        ("t.start()\n        if region == 'eu':\n            break\n        t.join()", ["DL102"]),
        # one that leaves before its thread starts, or whose branch loops on its own
        ("if region == 'eu':\n            continue\n        t.start()\n        t.join()", []),
        ("t.start()\n        for x in []:\n            continue\n        t.join()", []),
    ],
)
def test_a_turn_that_may_leave_before_its_join_runs_on(lint, leave: str, expected: list[str]) -> None:
    code = 'def main():\n    for region in ["eu", "us"]:\n        t = Thread(target=load, args=(region,))\n'
    code += "        " + leave + "\n\n\nmain()\n"
    assert _conflicts(lint, code) == expected
