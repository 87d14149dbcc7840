"""Thread pools in job code: the calls of one function that a pool runs at the same time.

A job that loads many tables often hands one function to a pool, one call per
table or item:

    with ThreadPoolExecutor(max_workers=4) as executor:
        executor.map(load_table, tables)

The writes that function makes run concurrently with each other within one run of
the job. This module finds such hand-outs in a module's syntax (nothing is run):

* the pools: `ThreadPoolExecutor(...)` (`concurrent.futures`), `ThreadPool(...)`
  (`multiprocessing.pool`, and `multiprocessing.dummy.Pool`), bound by `with ... as
  name`, by `name = ...`, or called on directly (`ThreadPoolExecutor(4).map(...)`);
  a pool of one worker (`max_workers=1`, `ThreadPool(1)`) runs its calls in order
  and is no pool here;
* the hand-outs: `map`, `imap`, `imap_unordered`, `map_async`, `starmap`,
  `starmap_async` (one call per item of the iterable), `submit` and `apply_async`
  (one call, repeated when the hand-out stands in a loop or a comprehension);
  joblib's `Parallel(n_jobs=...)(delayed(fn)(x) for x in items)`, whose `n_jobs`
  left unset (or 1) runs the calls in order;
* threads: `threading.Thread(target=fn, args=(...), kwargs={...})`,
  `multiprocessing.Process(...)` (the same arguments) and `threading.Timer(interval,
  fn, args, kwargs)`. Each is one call of its function where it is made. Threads
  made in a loop or a comprehension run at the same time, as a pool's calls, unless
  each is started and joined at once (`t.start(); t.join()` in the loop's body, or
  in the body of a loop over the list a comprehension made); threads made once
  each run at the same time when one starts before another is joined (`a.start();
  b.start(); a.join()`), as a pool's calls; a thread made once that no other
  overlaps runs alone, a plain call.

What each call writes is read by `PoolReader`, a part of the Python front end's
analyzer: the pool's function read as called with each item, its writes marked
with the pool (`Intent.pool`) and the call they were read for.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from delta_lint.frontend.pysites import SourceSites
from delta_lint.frontend.pyvalues import Scope, Str, loop_names, param_str, placeholders
from delta_lint.frontend.values.resolver import ValueResolver
from delta_lint.frontend.values.walker import Walker, called_name, walk
from delta_lint.model import Diagnostic, Intent, PooledRun

# pool classes -> the keyword (or first positional argument) of their number of workers
_POOLS = {"ThreadPoolExecutor": "max_workers", "ThreadPool": "processes"}
# modules whose `Pool` is a pool of threads (`from multiprocessing.dummy import Pool`)
_THREAD_POOL_MODULES = ("multiprocessing.dummy",)
_EACH_ITEM = frozenset({"map", "imap", "imap_unordered", "map_async"})
_EACH_ROW = frozenset({"starmap", "starmap_async"})  # each item unpacked as the arguments
_ONE_CALL = frozenset({"submit", "apply_async"})
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
MAX_ITEMS = 256  # literal items read one by one at most (as `ValueResolver._rows` reads a list)
POOL_ITEM = "__pool_item_"  # the names a reading binds to an item's values (never a Python name of the code)
# thread classes -> (the keywords of the function, its arguments, its keyword
# arguments; their positions among the positional arguments)
_THREADS = {
    "Thread": (("target", 1), ("args", 3), ("kwargs", 4)),
    "Process": (("target", 1), ("args", 3), ("kwargs", 4)),
    "Timer": (("function", 1), ("args", 2), ("kwargs", 3)),
}
_THREAD_MODULES = ("threading", "multiprocessing")
# words a module that hands work to a thread pool holds: other modules are never walked for pools
_POOL_WORDS = ("Thread", "Parallel", "dummy", "Process", "Timer")


def may_pool(source: str) -> bool:
    """Whether a module's text may make a thread pool."""
    return any(word in source for word in _POOL_WORDS)


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


@dataclass(frozen=True)
class PoolCall:
    """One hand-out of work to a pool, as written."""

    call: ast.Call  # the call that hands the work out
    pool: ast.expr  # what makes the pool: its constructor call (`ThreadPoolExecutor(...)`, `Parallel(...)`)
    fn: ast.expr  # the function each call runs (a name, an attribute, a lambda, a `partial`)
    args: tuple[ast.expr, ...] = ()  # its arguments as written (submit, apply_async, delayed)
    keywords: tuple[ast.keyword, ...] = ()
    items: ast.expr | None = None  # map: the iterable whose items are the first argument
    unpack: bool = False  # starmap: each item is the tuple of arguments
    loops: tuple[ast.comprehension, ...] = ()  # comprehensions around it, outermost first
    repeated: bool = False  # the hand-out itself runs several times (in a loop or comprehension)
    alone: bool = False  # a thread that runs alone: made once, or started and joined at once
    grouped: bool = False  # a thread made once that runs while others do (`pool`: the group's first)


def first_parameter(fn: ast.expr, functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]) -> str:
    """The name of the first parameter of a pool's function (`t` of `def load(t)`, a
    lambda's own), for the item it gets when only a run knows the items; "item" when
    the function is not among `functions` (the module's, by name)."""
    if isinstance(fn, ast.Lambda):
        params = fn.args.posonlyargs + fn.args.args
    else:
        found = functions.get(_callee(fn))
        params = (found.args.posonlyargs + found.args.args) if found is not None else []
    names = [p.arg for p in params if p.arg not in ("self", "cls")]
    return names[0] if names else "item"


def literal_items(items: ast.expr, tree: ast.Module | None, mutated: frozenset[str]) -> list[ast.expr] | None:
    """The elements of a literal list or tuple of dicts a pool's calls get one each
    (`[{"table": "orders", ...}, ...]`, or a module-level name assigned such a list once
    and never changed in place), at most `MAX_ITEMS`; None for anything else. Lists of
    strings are the analyzer's own rows (`ValueResolver._rows`)."""
    if isinstance(items, ast.Name) and tree is not None and items.id not in mutated:
        values = [
            stmt.value
            for stmt in tree.body
            if isinstance(stmt, (ast.Assign, ast.AnnAssign))
            and stmt.value is not None
            and any(isinstance(t, ast.Name) and t.id == items.id for t in _targets(stmt))
        ]
        items = values[0] if len(values) == 1 else items
    if not isinstance(items, (ast.List, ast.Tuple)) or not 0 < len(items.elts) <= MAX_ITEMS:
        return None
    return list(items.elts) if all(isinstance(e, ast.Dict) for e in items.elts) else None


def _targets(stmt: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(stmt.targets) if isinstance(stmt, ast.Assign) else [stmt.target]


def _callee(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _workers(call: ast.Call, keyword: str) -> int | None:
    """A literal number of workers, else None (a default or a value only a run knows)."""
    given = next((k.value for k in call.keywords if k.arg == keyword), call.args[0] if call.args else None)
    if isinstance(given, ast.Constant) and type(given.value) is int:
        return given.value
    return None


class Pools:
    """The pools a module makes and the names bound to them, found once per module.

    The module is walked once: imports, bindings, calls in loops, and which nodes
    hold a hand-out somewhere below them. `calls_in` is asked for each expression
    the analyzer reads (and again for the expressions inside it, and at each call
    of a helper), so an expression of the module that holds no hand-out is
    answered without walking it; one of another tree (a helper of another file, a
    call the reader builds) is walked as before."""

    def __init__(self, tree: ast.Module | None) -> None:
        """`tree` None: a module that makes no pool (see `may_pool`)."""
        self._aliases: dict[str, str] = {}  # local name -> pool class or "Parallel" / "delayed"
        self._read = tree is not None
        # name -> (line, pool or None) of each binding, in line order: a name bound to
        # something else (or to a pool of one worker) after a pool is no pool there
        self._bound: dict[str, list[tuple[int, ast.expr | None]]] = {}
        self._in_loop: set[int] = set()  # ids of calls inside a loop's body
        # ids of the module's nodes -> the id of the node above (the module: 0); and the
        # ids of those that hold a hand-out below them or are one (see `calls_in`)
        self._above: dict[int, int] = {id(tree): 0} if tree is not None else {}
        self._tree = tree  # kept alive with these ids: no other node can be given one of them
        self._holding: set[int] = set()
        self._threads: dict[str, str] = {}  # local name -> thread class (`from threading import Thread`)
        self._thread_modules: set[str] = set()  # local names of `threading`, `multiprocessing`
        self._serial: set[int] = set()  # ids of the thread constructors of threads started and joined at once
        # ids of the constructors of threads made once that run while another does ->
        # the first constructor of their group (see `_find_together`)
        self._together: dict[int, ast.Call] = {}
        bindings: list[tuple[str, ast.expr]] = []
        calls: list[ast.Call] = []
        loops: list[ast.For | ast.AsyncFor | ast.While] = []
        functions: set[int] = set()  # the ids of the module's functions (see `_find_serial`)
        stack: list[tuple[ast.AST, bool]] = [(tree, False)] if tree is not None else []  # (node, in a loop's body)
        while stack:
            node, looped = stack.pop()
            if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
                bindings.append((node.optional_vars.id, node.context_expr))
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                bindings.append((node.targets[0].id, node.value))
            elif isinstance(node, ast.Call):
                calls.append(node)
                if looped:
                    self._in_loop.add(id(node))
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    if alias.name in _POOLS or alias.name in ("Parallel", "delayed"):
                        self._aliases[alias.asname or alias.name] = alias.name
                    elif alias.name == "Pool" and node.module in _THREAD_POOL_MODULES:
                        self._aliases[alias.asname or alias.name] = "ThreadPool"
                    elif alias.name in _THREADS and node.module in _THREAD_MODULES:
                        self._threads[alias.asname or alias.name] = alias.name
            elif isinstance(node, ast.Import):
                self._thread_modules.update(a.asname or a.name for a in node.names if a.name in _THREAD_MODULES)
            elif isinstance(node, _LOOPS):
                loops.append(node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                functions.add(id(node))
            children = list(ast.iter_child_nodes(node))
            at = id(node)
            for child in children:
                self._above[id(child)] = at
            if isinstance(node, _LOOPS):
                inner = {id(s) for s in (*node.body, *node.orelse)}
                stack.extend((child, looped or id(child) in inner) for child in children)
            else:
                stack.extend((child, looped) for child in children)
        for name, value in bindings:  # after the walk: every import's alias is known
            self._bind(name, value)
        if self._threads or self._thread_modules:
            self._find_serial(loops, bindings, functions)
            self._find_together(tree)
        for bindings_of in self._bound.values():
            bindings_of.sort(key=lambda b: b[0])
        for call in calls:  # whether a call is a hand-out depends on it and the module, not where it stands
            if self._hand_out(call, ()) is not None:
                at = id(call)
                while at and at not in self._holding:
                    self._holding.add(at)
                    at = self._above[at]

    def __bool__(self) -> bool:
        """Whether the module was read for pools at all."""
        return self._read

    def _find_serial(
        self,
        loops: list[ast.For | ast.AsyncFor | ast.While],
        bindings: list[tuple[str, ast.expr]],
        functions: set[int],
    ) -> None:
        """The threads that run one at a time although made in a loop or a comprehension:
        `t = Thread(...)` in a loop's body that also starts and then joins `t`, and the
        threads of `threads = [Thread(...) for ...]` when a loop over `threads` in the
        same function starts and then joins each (`for t in threads: t.start();
        t.join()`); a list of that name in another function is another list."""

        def home(at: int) -> int:  # the function a node is in (0: the module's code)
            while at and at not in functions:
                at = self._above.get(at, 0)
            return at

        serial_lists: set[tuple[int, str]] = set()
        for loop in loops:
            if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.iter, ast.Name):
                if isinstance(loop.target, ast.Name) and _started_and_joined(loop.body, loop.target.id):
                    serial_lists.add((home(self._above.get(id(loop), 0)), loop.iter.id))
            for stmt in loop.body:
                if (thread := self._made_thread(stmt)) is not None and _started_and_joined(loop.body, thread[0]):
                    self._serial.add(id(thread[1]))
        for name, value in bindings:
            if (home(self._above.get(id(value), 0)), name) in serial_lists and isinstance(
                value, (ast.ListComp, ast.GeneratorExp)
            ):
                if isinstance(value.elt, ast.Call) and self._thread_kind(value.elt.func):
                    self._serial.add(id(value.elt))

    def _made_thread(self, stmt: ast.stmt) -> tuple[str, ast.Call] | None:
        """`t = Thread(target=...)` (or a process, a timer): the name and the call."""
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
            and self._thread_kind(stmt.value.func)
        ):
            return stmt.targets[0].id, stmt.value
        return None

    def _find_together(self, tree: ast.Module | None) -> None:
        """Threads made once each (`a = Thread(...)`, `b = Thread(...)`) that run at
        the same time: in one block of statements, a thread runs from its
        `a.start()` to its `a.join()` (to the block's end when the block does not
        join it), and two whose runs overlap are a group, as a pool's calls. A
        thread joined before the next one starts runs alone; one the block makes but
        does not start is left alone (started elsewhere, if at all)."""
        blocks = [
            value
            for node in ast.walk(tree)
            if tree is not None
            for field in ("body", "orelse", "finalbody")
            if isinstance(value := getattr(node, field, None), list) and len(value) > 2
        ]
        for block in blocks:
            made: dict[str, ast.Call] = {}
            runs: dict[str, list[float]] = {}  # thread -> [start, end] in statements of the block
            for at, stmt in enumerate(block):
                if (thread := self._made_thread(stmt)) is not None:
                    made[thread[0]] = thread[1]
                    runs.pop(thread[0], None)  # a name bound again: another thread
                    continue
                call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
                func = call.func if call is not None else None
                if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
                    continue
                name = func.value.id
                if name in made and func.attr == "start" and name not in runs:
                    runs[name] = [at, float("inf")]
                elif name in runs and func.attr == "join":
                    runs[name][1] = min(runs[name][1], at)
            # in the order they start, a thread started before every run of the group so
            # far has ended joins it (one pass: a block of thousands of threads is no
            # square of pairs)
            group: list[ast.Call] = []
            end = -1.0
            for name in sorted(runs, key=lambda n: runs[n][0]):
                start, stop = runs[name]
                if group and start < end:
                    group.append(made[name])
                    end = max(end, stop)
                    continue
                self._group(group)
                group, end = [made[name]], stop
            self._group(group)

    def _group(self, threads: list[ast.Call]) -> None:
        """Threads whose runs overlap, as a group of the first (see `_find_together`);
        one thread alone is no group."""
        if len(threads) > 1:
            for thread in threads:
                self._together[id(thread)] = threads[0]

    def _thread_kind(self, func: ast.expr) -> str:
        """The thread class a callee names (`Thread`, `threading.Thread`, `mp.Process`), or ""."""
        if isinstance(func, ast.Name):
            return self._threads.get(func.id, "")
        if isinstance(func, ast.Attribute) and func.attr in _THREADS and isinstance(func.value, ast.Name):
            return func.attr if func.value.id in self._thread_modules else ""
        return ""

    def _thread(self, call: ast.Call, loops: tuple[ast.comprehension, ...], repeated: bool) -> PoolCall | None:
        """A thread made with a function to run: one call of the function, with the
        thread's `args` and `kwargs` as its arguments (a `kwargs` that is no literal
        dict of names is passed as `**kwargs`, an `args` that is no literal tuple or
        list as `*args`). A thread with no function (a subclass's `run`) is none."""
        kind = self._thread_kind(call.func)
        if not kind:
            return None
        (fn_word, fn_at), (args_word, args_at), (kwargs_word, kwargs_at) = _THREADS[kind]

        def given(word: str, at: int) -> ast.expr | None:
            found = next((k.value for k in call.keywords if k.arg == word), None)
            found = found if found is not None else call.args[at] if len(call.args) > at else None
            return None if isinstance(found, ast.Constant) and found.value is None else found

        fn = given(fn_word, fn_at)
        if fn is None or isinstance(fn, ast.Constant):
            return None
        positional, named = given(args_word, args_at), given(kwargs_word, kwargs_at)
        if positional is None and named is None and _own_method(fn):
            # `Thread(target=self._run)` in a method: the call gives the method nothing
            # its reading in its class lacks; read there as written, it keeps its writes
            return None
        if positional is None:
            args: tuple[ast.expr, ...] = ()
        elif isinstance(positional, (ast.Tuple, ast.List)):
            args = tuple(positional.elts)
        else:
            args = (ast.copy_location(ast.Starred(value=positional, ctx=ast.Load()), positional),)
        keywords: tuple[ast.keyword, ...] = ()
        if isinstance(named, ast.Dict) and all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.isidentifier() for k in named.keys
        ):
            keywords = tuple(
                ast.copy_location(ast.keyword(arg=k.value, value=v), v)  # type: ignore[union-attr]
                for k, v in zip(named.keys, named.values)
            )
        elif named is not None:
            keywords = (ast.copy_location(ast.keyword(arg=None, value=named), named),)
        together = self._together.get(id(call))  # made once, run while another thread runs
        alone = (not repeated or id(call) in self._serial) and together is None
        return PoolCall(
            call, together or call, fn, args, keywords, None, False, loops, repeated, alone, together is not None
        )

    def _kind(self, func: ast.expr) -> str:
        """The pool class (or joblib name) a callee names, or ""."""
        name = _callee(func)
        if isinstance(func, ast.Name):
            return self._aliases.get(name, name if name in _POOLS else "")
        if name in _POOLS or name in ("Parallel", "delayed"):
            return name
        if name == "Pool" and isinstance(func, ast.Attribute) and _callee(func.value) == "dummy":
            return "ThreadPool"
        return ""

    def _made(self, node: ast.expr) -> bool | None:
        """True for a call making a pool of several workers (or an unknown number),
        False for one of one worker, None for anything else."""
        if not isinstance(node, ast.Call):
            return None
        kind = self._kind(node.func)
        if kind in _POOLS:
            return _workers(node, _POOLS[kind]) != 1
        if kind == "Parallel":  # joblib: `n_jobs` unset is one worker
            workers = next((k.value for k in node.keywords if k.arg == "n_jobs"), node.args[0] if node.args else None)
            if workers is None:
                return False
            return not (isinstance(workers, ast.Constant) and workers.value in (1, None))
        return None

    def _bind(self, name: str, value: ast.expr) -> None:
        self._bound.setdefault(name, []).append((value.lineno, value if self._made(value) else None))

    def _pool_of(self, receiver: ast.expr, line: int) -> ast.expr | None:
        """What makes the pool a method is called on: a name's last binding before
        the call's line, or a constructor called on directly."""
        if isinstance(receiver, ast.Name):
            pool = None
            for at, maker in self._bound.get(receiver.id, ()):
                if at > line:
                    break
                pool = maker
            return pool
        return receiver if self._made(receiver) else None

    def calls_in(self, expr: ast.expr) -> list[PoolCall]:
        """The hand-outs in an expression, with the comprehensions around each."""
        if id(expr) in self._above and id(expr) not in self._holding:
            return []  # a node of the module with no hand-out below it
        out: list[PoolCall] = []
        stack: list[tuple[ast.AST, tuple[ast.comprehension, ...]]] = [(expr, ())]
        while stack:
            node, loops = stack.pop()
            if isinstance(node, ast.Call):
                found = self._hand_out(node, loops)
                if found is not None:
                    out.append(found)
                    continue
            if isinstance(node, _COMPREHENSIONS):
                inner = (*loops, *node.generators)
                parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
                stack.extend((part, inner) for part in parts)
                stack.extend((g.iter, loops) for g in node.generators)
                continue
            stack.extend((child, loops) for child in ast.iter_child_nodes(node))
        return out

    def _hand_out(self, call: ast.Call, loops: tuple[ast.comprehension, ...]) -> PoolCall | None:
        repeated = bool(loops) or id(call) in self._in_loop
        if self._threads or self._thread_modules:
            thread = self._thread(call, loops, repeated)
            if thread is not None:
                return thread
        func = call.func
        if (
            isinstance(func, ast.Call)
            and self._kind(func.func) == "Parallel"
            or (isinstance(func, ast.Name) and self._pool_of(func, call.lineno) is not None)
        ):
            return self._joblib(call, func)
        if not isinstance(func, ast.Attribute) or not call.args:
            return None
        method = func.attr
        if method not in _EACH_ITEM | _EACH_ROW | _ONE_CALL:
            return None
        pool = self._pool_of(func.value, call.lineno)
        if pool is None:
            return None
        fn, rest = call.args[0], call.args[1:]
        if method in _ONE_CALL:
            if method == "apply_async":  # apply_async(fn, args=(...), kwds={...})
                given = next((k.value for k in call.keywords if k.arg == "args"), rest[0] if rest else None)
                rest = tuple(given.elts) if isinstance(given, (ast.Tuple, ast.List)) else ()
                return PoolCall(call, pool, fn, rest, (), None, False, loops, repeated)
            return PoolCall(call, pool, fn, tuple(rest), tuple(call.keywords), None, False, loops, repeated)
        items = rest[0] if len(rest) == 1 else None  # several iterables: zipped, read as unknown
        return PoolCall(call, pool, fn, (), (), items, method in _EACH_ROW, loops, True)

    def _joblib(self, call: ast.Call, func: ast.expr) -> PoolCall | None:
        """`Parallel(...)(delayed(fn)(args) for ... in ...)`, or `parallel(...)` of a
        name bound to `Parallel(...)`."""
        maker = func if isinstance(func, ast.Call) else self._pool_of(func, call.lineno)
        if not (isinstance(maker, ast.Call) and self._kind(maker.func) == "Parallel" and self._made(maker)):
            return None
        if len(call.args) != 1 or not isinstance(call.args[0], _COMPREHENSIONS[:3]):
            return None
        comprehension = call.args[0]
        elt = comprehension.elt  # type: ignore[attr-defined]
        if not (isinstance(elt, ast.Call) and isinstance(elt.func, ast.Call) and elt.func.args):
            return None
        if self._kind(elt.func.func) != "delayed":
            return None
        fn = elt.func.args[0]
        generators = tuple(comprehension.generators)  # type: ignore[attr-defined]
        return PoolCall(call, maker, fn, tuple(elt.args), tuple(elt.keywords), None, False, generators, True)


class Host(Protocol):
    """What a `PoolReader` reads from and hands back to the analyzer that owns it."""

    source: str
    _tree: ast.Module | None
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    mutated_names: frozenset[str]
    intents: list[Intent]
    diagnostics: list[Diagnostic]
    notebook_runs: list[tuple[str, dict[str, str]]]
    pooled_notebook_runs: list[PooledRun]
    walker: Walker
    values: ValueResolver
    sites: SourceSites

    def string(self, node: ast.expr | None, scope: Scope) -> Str: ...
    def _calls(self, expr: ast.expr, scope: Scope) -> None: ...
    def _guarded(self, node: ast.AST, read: Callable[..., None], *args: Any, **kwargs: Any) -> None: ...


class PoolReader:
    """The Python front end's reading of the work a module hands to thread pools: a
    part its analyzer (`Host`) owns and asks for each expression it reads (`pooled`)."""

    def __init__(self, host: Host) -> None:
        # weak: the host owns this reader, and a cycle would keep the file's tree alive
        # until the garbage collector's next full pass
        self.host: Host = weakref.proxy(host)
        self._pools: Pools | None = None  # the module's thread pools, found when an expression may hand work to one

    def pooled(self, expr: ast.expr, scope: Scope) -> set[int]:
        """Read each hand-out of work to a thread pool in an expression as the calls it
        makes (`call`); the ids of its nodes, which are not read again."""
        if self._pools is None:  # once per module: most never make a pool, and are not walked for one
            tree = self.host._tree
            self._pools = Pools(tree if tree is not None and may_pool(self.host.source) else None)
        skip: set[int] = set()
        for hand_out in self._pools.calls_in(expr) if self._pools else ():
            skip.update(id(n) for n in walk(hand_out.call))
            self.host._guarded(hand_out.call, self.call, hand_out, scope)
        return skip

    def call(self, hand_out: PoolCall, scope: Scope) -> None:
        """What the calls a pool makes write: its function read as called with each
        item's values (one reading per item when the items are literal, else one with
        the item unknown). Those writes run at the same time as each other: they are
        marked with the pool (`Intent.pool`, where it is made) and the call they were
        read for (`pool_item`; None for a reading that stands for several calls, and
        for a write that does not depend on the call, which every call makes)."""
        for part in (hand_out.items, *hand_out.args, *(k.value for k in hand_out.keywords)):
            if part is not None:
                self.host._calls(part, scope)
        pool, site = self.host.sites.loc(hand_out.pool), f"{hand_out.call.lineno}:{hand_out.call.col_offset}"
        readings, counted = self._readings(hand_out, scope)
        # one literal item: one call; a thread of a group is one of several calls
        several = hand_out.repeated and not (counted and len(readings) == 1) or hand_out.grouped
        first_diagnostic = len(self.host.diagnostics)
        repeats: dict[str, int] = {}
        for bound, args, label in readings:
            local = replace(scope, env={**scope.env, **bound})
            values = [self.host.string(a, local) for a in args] if label is None else []
            known = label is not None or all(not v.unknown and not v.params for v in values)
            # this call: its item as far as known, or which of the literal items it is
            call = "|".join([site, *(v.text for v in values)] if label is None else [site, label])
            # an item the literal list holds twice is two calls (`["orders", "orders"]`)
            repeats[call] = repeats.get(call, 0) + 1
            call = call if repeats[call] == 1 else f"{call}#{repeats[call]}"
            item = None if several and not known else call
            every = None if several else site  # a write the same in every call
            # a table named by the item (`bronze_{t}`) is a table of its own in each call
            per_item = {f"{{{p}}}" for v in values for p in v.params} if item is None else set()
            before, kept, runs = (
                len(self.host.intents),
                set(self.host.walker.kept_in_place),
                len(self.host.notebook_runs),
            )
            self._function(hand_out, args, local)
            if hand_out.alone:
                continue  # a thread that runs alone: its function's writes are a plain call's
            # a notebook each call runs, at once, and the arguments known in this reading:
            # a known argument of a reading for any item is the same in every call
            for child, arguments in self.host.notebook_runs[runs:]:
                given = tuple(sorted(arguments.items()))
                self.host.pooled_notebook_runs.append((child, str(pool), item or "", given))
            for n in [*range(before, len(self.host.intents)), *(self.host.walker.kept_in_place - kept)]:
                x = self.host.intents[n]
                own = per_item and x.table is not None and per_item & set(placeholders(x.table.name))
                which = call if own else item if n >= before else every
                self.host.intents[n] = replace(x, pool=pool, pool_item=which)
        # what the readings could not read is said once, however many items were read
        self.host.diagnostics[first_diagnostic:] = list(dict.fromkeys(self.host.diagnostics[first_diagnostic:]))

    def _readings(
        self, hand_out: PoolCall, scope: Scope
    ) -> tuple[list[tuple[dict[str, object], list[ast.expr], str | None]], bool]:
        """(names bound, the arguments of the call, which literal item it is when that
        is not its text) for each reading of a hand-out, and whether the readings are
        its calls one by one (its items are literal): `map` once per literal item (a
        string, a dict; `starmap` each item unpacked), else once with the item unknown;
        a `submit` in a comprehension once per literal item of its one loop, else with
        the loop's names unknown."""
        call = hand_out.call
        if hand_out.items is not None:
            first = (
                hand_out.items.elts[0]
                if isinstance(hand_out.items, (ast.List, ast.Tuple)) and hand_out.items.elts
                else None
            )
            width = len(first.elts) if hand_out.unpack and isinstance(first, (ast.List, ast.Tuple)) else 1
            rows = (
                self.host.values._rows(hand_out.items, scope, width)
                if not hand_out.unpack or first is not None
                else None
            )
            names = [f"{POOL_ITEM}{i}" for i in range(width)]
            args: list[ast.expr] = [ast.copy_location(ast.Name(id=n, ctx=ast.Load()), call) for n in names]
            if rows is not None:
                return [(dict(zip(names, row)), args, _row_label(n, row)) for n, row in enumerate(rows)], True
            if hand_out.unpack:
                return [({}, [], None)], False  # each parameter a value only a run knows
            elements = literal_items(hand_out.items, self.host._tree, self.host.mutated_names)
            if elements is not None:
                return [
                    ({names[0]: self.host.values._value(e, scope, "item")}, args, f"#{n}")
                    for n, e in enumerate(elements)
                ], True
            return [({names[0]: param_str(first_parameter(hand_out.fn, self.host.functions))}, args, None)], False
        args = list(hand_out.args)
        if len(hand_out.loops) == 1:
            loop = hand_out.loops[0]
            names = loop_names(loop.target)
            rows = self.host.values._rows(loop.iter, scope, len(names)) if names and not loop.ifs else None
            if rows is not None:
                return [(dict(zip(names, row)), args, _row_label(n, row)) for n, row in enumerate(rows)], True
            elements = literal_items(loop.iter, self.host._tree, self.host.mutated_names) if len(names) == 1 else None
            if elements is not None:
                return [
                    ({names[0]: self.host.values._value(e, scope, names[0])}, args, f"#{n}")
                    for n, e in enumerate(elements)
                ], True
        unknown = {n: param_str(n) for loop in hand_out.loops for n in loop_names(loop.target)}
        return [(unknown, args, None)], not hand_out.repeated  # a `for` around it repeats it

    def _function(self, hand_out: PoolCall, args: list[ast.expr], scope: Scope) -> None:
        """Read one call of a pool's function with these arguments: a lambda's body with
        its parameters bound, a `partial`'s function with its own arguments first, any
        other function as a call written where the pool hands the work out."""
        fn, keywords = hand_out.fn, list(hand_out.keywords)
        if (
            isinstance(fn, ast.Call)
            and called_name(fn) == "partial"
            or (isinstance(fn, ast.Call) and isinstance(fn.func, ast.Attribute) and fn.func.attr == "partial")
        ):
            if not fn.args:
                return
            args, keywords = [*fn.args[1:], *args], [*fn.keywords, *keywords]
            fn = fn.args[0]
        if isinstance(fn, ast.Lambda):
            params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            env = {**scope.env, **{p: self.host.string(a, scope) for p, a in zip(params, args)}}
            self.host._calls(fn.body, replace(scope, env=env, site=scope.site or self.host.sites.loc(hand_out.call)))
            return
        call = ast.Call(func=fn, args=args, keywords=keywords)
        self.host._calls(ast.copy_location(call, hand_out.call), scope)


def _own_method(fn: ast.expr) -> bool:
    """Whether a thread's function is a method of the object or class at hand (`self.run`)."""
    return isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id in ("self", "cls")


def _started_and_joined(body: list[ast.stmt], name: str) -> bool:
    """Whether a block calls `name.start()` and, later in the same block, `name.join()`."""
    started = False
    for stmt in body:
        call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
        func = call.func if call is not None else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name:
            if func.attr == "start":
                started = True
            elif func.attr == "join" and started:
                return True
    return False


def _row_label(n: int, row: tuple[object, ...]) -> str | None:
    """Which literal item a pooled call's row is, when its values are not all text
    (a dict of a configuration list): its text cannot tell the calls apart."""
    return None if all(isinstance(v, Str) for v in row) else f"#{n}"
