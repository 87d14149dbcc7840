"""Threads in job code: `threading.Thread(target=f, args=..., kwargs=...)`,
`multiprocessing.Process` and `threading.Timer` read as a call of `f` where the
thread is made, and threads made in a loop or a comprehension and started before
being joined read as running at the same time, as a thread pool's calls."""

from __future__ import annotations

from tests.test_self_overlap import LOAD_REGION, LOAD_TABLE, _at, _notebook, _pooled

THREADED = "written from a thread pool at nb.py:{line}: its calls, one per item, run at the same time"


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents if i.table is not None)


COMPREHENSION = """\
import threading

threads = [threading.Thread(target=load, args=(r,)) for r in ["eu", "us"]]
for t in threads:
    t.start()
for t in threads:
    t.join()
"""


def test_threads_made_in_a_comprehension_and_started_together_conflict(lint):
    files = _notebook(LOAD_REGION, COMPREHENSION)
    result = lint(files)
    assert _pooled(result) == [("DL102", THREADED.format(line=_at(files, "threading.Thread(")), "code")]


def test_threads_started_and_joined_one_at_a_time_do_not_conflict(lint):
    serial = COMPREHENSION.replace("    t.start()\nfor t in threads:\n", "    t.start()\n")
    assert "t.start()\n    t.join()" in serial
    result = lint(_notebook(LOAD_REGION, serial))
    assert _pooled(result) == []
    assert _tables(result) == ["main.sales.orders"]  # still read: one call per thread


LOOP = """\
from threading import Thread

workers = []
for region in ["eu", "us"]:
    worker = Thread(target=load, kwargs={"region": region})
    worker.start()
    JOIN
for worker in workers:
    worker.join()
"""


def test_threads_made_in_a_loop_with_keyword_arguments_conflict(lint):
    files = _notebook(LOAD_REGION, LOOP.replace("JOIN", "workers.append(worker)"))
    assert _pooled(lint(files)) == [("DL102", THREADED.format(line=_at(files, "Thread(target")), "code")]


def test_a_thread_joined_in_the_loop_that_starts_it_runs_alone(lint):
    result = lint(_notebook(LOAD_REGION, LOOP.replace("JOIN", "worker.join()")))
    assert _pooled(result) == []
    assert _tables(result) == ["main.sales.orders"]


def test_a_thread_made_once_is_a_call_of_its_target(lint):
    once = (
        "import threading\n\n"
        'worker = threading.Thread(target=load, args=("orders",), daemon=True)\n'
        "worker.start()\nworker.join()\n"
    )
    result = lint(_notebook(LOAD_TABLE, once))
    assert _tables(result) == ["main.sales.orders"]
    assert all(i.pool is None for i in result.intents)  # one thread: no calls at the same time
    # a thread with no target (a subclass's `run`) calls nothing: `load` is read as never called
    no_target = "import threading\n\nthreading.Thread(name='x').start()\n"
    assert _tables(lint(_notebook(LOAD_TABLE, no_target))) == ["main.sales.{table}"]


def test_processes_and_timers_are_read_as_their_functions_calls(lint):
    process = (
        "import multiprocessing as mp\n\n"
        'procs = [mp.Process(target=load, args=(r,)) for r in ["eu", "us"]]\n'
        "for p in procs:\n    p.start()\n"
    )
    files = _notebook(LOAD_REGION, process)
    assert _pooled(lint(files)) == [("DL102", THREADED.format(line=_at(files, "mp.Process(")), "code")]
    timer = 'from threading import Timer\n\nTimer(5.0, load, ["orders"]).start()\n'
    assert _tables(lint(_notebook(LOAD_TABLE, timer))) == ["main.sales.orders"]


def test_a_thread_class_of_another_module_is_not_read(lint):
    # `Thread` of a module that is not `threading` (a project's own class) is no thread here
    other = 'from workers import Thread\n\nThread(target=load, args=("orders",)).start()\n'
    assert _tables(lint(_notebook(LOAD_TABLE, other))) == ["main.sales.{table}"]  # `load` never called


STEPS = """\
from pyspark.sql import SparkSession


def load_orders(day=None):
    spark = SparkSession.builder.getOrCreate()
    spark.read.table("raw.orders").where(f"day = '{day}'").write.mode("overwrite").saveAsTable("sales.orders")
"""


def test_an_imported_thread_target_keeps_its_writes(lint):
    main = (
        "import threading\n\nfrom steps import load_orders\n\n"
        "worker = threading.Thread(target=load_orders)\nworker.start()\nworker.join()\n"
    )
    result = lint({"steps.py": STEPS, "main.py": main})
    assert [(i.location.path, i.table.name) for i in result.intents] == [("main.py", "sales.orders")]
    assert _pooled(result) == []
    # two such threads at once overwrite the table together
    together = main.replace(
        "worker = threading.Thread(target=load_orders)\nworker.start()\nworker.join()\n",
        'workers = [threading.Thread(target=load_orders, args=(d,)) for d in ["2024-01-01", "2024-01-02"]]\n'
        "for w in workers:\n    w.start()\nfor w in workers:\n    w.join()\n",
    )
    assert [rule for rule, *_ in _pooled(lint({"steps.py": STEPS, "main.py": together}))] == ["DL102"]


def test_odd_threads_are_read_without_an_internal_error(lint):
    odd = (
        "import threading\nimport multiprocessing as mp\n\n"
        "threading.Thread(None, load, None, 5).start()\n"
        "threading.Thread(target=load, kwargs={**extra, 1: 2}).start()\n"
        "threading.Thread(target=None).start()\n"
        "threading.Timer(1, load, None, None).start()\n"
        "mp.Process(target=lambda: load('orders')).start()\n"
        "for t in []:\n    threading.Thread(target=load, args=t).start()\n"
    )
    result = lint(_notebook(LOAD_TABLE, odd))
    assert not [d for d in result.diagnostics if d.rule == "DL002"]
    assert "main.sales.orders" in _tables(result)  # the lambda's call


WRITER = """\
import threading


class Writer:
    def __init__(self, spark):
        self._spark = spark
        self._thread = None

    def start(self):
        self._thread = threading.Thread(target=TARGET, daemon=True)
        self._thread.start()

    def _run(self):
        self._flush("main.ops.metrics")

    def _flush(self, table):
        self._spark.range(1).write.mode("append").saveAsTable(table)
"""


def test_a_thread_of_the_objects_own_method_leaves_the_method_as_written(lint):
    # `target=self._run`: the method is read in its class, its write where it is made
    result = lint({"writer.py": WRITER.replace("TARGET", "self._run")})
    assert [(i.location.line, i.table.name) for i in result.intents] == [(14, "main.ops.metrics")]
    # the near miss: a function given its arguments is read at the thread
    given = WRITER.replace("TARGET", 'self._flush, args=("main.ops.other",)')
    assert "main.ops.other" in _tables(lint({"writer.py": given}))


def test_an_item_a_literal_list_holds_twice_is_two_calls_at_once(lint):
    twice = COMPREHENSION.replace('["eu", "us"]', '["orders", "orders"]')
    files = _notebook(LOAD_TABLE, twice)
    assert _pooled(lint(files)) == [("DL102", THREADED.format(line=_at(files, "threading.Thread(")), "code")]
    pooled = (
        "from concurrent.futures import ThreadPoolExecutor\n\n"
        'with ThreadPoolExecutor(4) as ex:\n    ex.map(load, ["orders", "orders"])\n'
    )
    files = _notebook(LOAD_TABLE, pooled)
    assert _pooled(lint(files)) == [("DL102", THREADED.format(line=_at(files, "ThreadPoolExecutor(4)")), "code")]
    # the near miss: two items, a table each
    assert _pooled(lint(_notebook(LOAD_TABLE, pooled.replace('"orders"]', '"customers"]')))) == []


def test_a_serial_loop_over_a_list_of_another_function_leaves_these_threads_concurrent(lint):
    """`threads` started and joined one at a time in one function is another list
    than the `threads` another function starts together: those still conflict."""
    other = (
        "def warm_up():\n"
        "    threads = [threading.Thread(target=print, args=(r,)) for r in ['x', 'y']]\n"
        "    for t in threads:\n"
        "        t.start()\n"
        "        t.join()\n\n\n"
    )
    together = "def run():\n" + "".join("    " + line + "\n" for line in COMPREHENSION.splitlines()[2:])
    files = _notebook(LOAD_REGION, "import threading\n\n" + other + together)
    result = lint(files)
    assert _pooled(result) == [("DL102", THREADED.format(line=_at(files, "threading.Thread(target=load")), "code")]


TWO_THREADS = """\
import threading

a = threading.Thread(target=load, args=("eu",))
b = threading.Thread(target=load, args=("us",))
ORDER
"""


def test_two_threads_made_apart_and_started_before_either_joins_conflict(lint):
    files = _notebook(LOAD_REGION, TWO_THREADS.replace("ORDER", "a.start()\nb.start()\na.join()\nb.join()"))
    assert _pooled(lint(files)) == [("DL102", THREADED.format(line=_at(files, "threading.Thread(")), "code")]
    # in a function, joined in the other order, the second never joined: still together
    body = "def main():\n" + "".join(
        f"    {line}\n" for line in TWO_THREADS.replace("ORDER", "b.start()\na.start()\nb.join()").splitlines()
    )
    files = _notebook(LOAD_REGION, body + "\n\nmain()\n")
    assert [rule for rule, _, _ in _pooled(lint(files))] == ["DL102"]


def test_a_thread_joined_before_the_next_starts_runs_alone(lint):
    files = _notebook(LOAD_REGION, TWO_THREADS.replace("ORDER", "a.start()\na.join()\nb.start()\nb.join()"))
    result = lint(files)
    assert _pooled(result) == []
    assert set(_tables(result)) == {"main.sales.orders"}  # still read: a call per thread
