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
  fn, args, kwargs)`. Each is one call of its function where it is made. A thread
  runs from its start to the join that ends it (see `Lifetimes`, which follows
  every form that binds, lists, starts or joins threads): threads whose runs
  overlap run at the same time, as a pool's calls; threads made in a loop or a
  comprehension do too, unless each turn's thread is started and joined in its
  turn; a thread that no other overlaps runs alone, a plain call.

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
from delta_lint.frontend.pyvalues import Scope, Str, dotted_name, loop_names, param_str, placeholders
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
    alone: bool = False  # runs alone: a thread made once or started and joined at once, a call waited for in its turn
    grouped: bool = False  # a thread made once that runs while others do (`pool`: the group's first)


def _may_leave(stmt: ast.stmt) -> bool:
    """Whether a compound statement may end the block it stands in early: a
    `continue` or `break` of the block's own loop, a `return` or `raise`, in one of
    its branches (not in a loop or function of its own)."""
    if not isinstance(stmt, (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.Match, getattr(ast, "TryStar", ast.Try))):
        return False
    stack: list[tuple[ast.AST, bool]] = [(child, False) for child in ast.iter_child_nodes(stmt)]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, (ast.Return, ast.Raise)) or (isinstance(node, (ast.Continue, ast.Break)) and not in_loop):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        inner = in_loop or isinstance(node, _LOOPS)
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return False


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


def assigned(stmt: ast.AST) -> list[tuple[ast.expr, ast.expr]]:
    """(target, value) of each binding a statement makes, whatever form binds it:
    `a = v`, `a = b = v`, `a: T = v`, `(a := v)`, and the unpacking of a literal tuple
    or list of as many values (`a, b = v1, v2`, nested alike). A target unpacked from
    anything else (`a, b = make()`, a starred target) is bound to no value known here."""
    if isinstance(stmt, ast.Assign):
        pairs = [(target, stmt.value) for target in stmt.targets]
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        pairs = [(stmt.target, stmt.value)]
    elif isinstance(stmt, ast.NamedExpr):
        pairs = [(stmt.target, stmt.value)]
    else:
        return []
    out: list[tuple[ast.expr, ast.expr]] = []
    while pairs:
        target, value = pairs.pop(0)
        if isinstance(target, (ast.Tuple, ast.List)):
            if (
                isinstance(value, (ast.Tuple, ast.List))
                and len(value.elts) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
            ):
                pairs.extend(zip(target.elts, value.elts))
            continue
        out.append((target, value))
    return out


def _ends_run(call: ast.Call) -> bool:
    """Whether a `join(...)` returns only once the thread has ended: no timeout, or a
    literal None one. A join with a timeout may return while the thread still runs."""
    given = [*call.args, *(k.value for k in call.keywords)]
    return all(isinstance(g, ast.Constant) and g.value is None for g in given)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
# statements read again per module at most (loops over lists of threads read once per
# item); past them every thread of a scope may run while any other does
_UNROLL_STEPS = 20_000


@dataclass
class _Thread:
    """One thread the code makes (or, `many`, one per turn of a loop or item of a
    comprehension), and what the code does with it, in order of reading."""

    call: ast.Call
    many: bool
    home: int  # the id of the loop or comprehension that makes it once per turn (many)
    # (clock, blocks that may not run, turn): each start, and each join that ends it
    starts: list[tuple[int, tuple[int, ...], tuple[int, int] | None]]
    joins: list[tuple[int, tuple[int, ...], tuple[int, int] | None]]
    escaped: int | None = None  # when it was first handed to code not read here
    # a pool's hand-out (`ex.submit(..)`): its writes meet the pool's other calls
    # through the pool (`Intent.pool`), not through a group of threads
    future: bool = False


@dataclass
class _Listed:
    """A list or tuple of threads: its items in order, each the threads it may be."""

    items: list[frozenset[int]]


class Lifetimes:
    """When the threads a module makes run: from each start to the join that ends it.

    Each scope (the module's code, each function's body) is read once in order, as
    a run would: every binding form Python has binds a name (or `self.x`) to the
    threads it may hold (`a = Thread(..)`, `a: Thread = ..`, `a, b = .., ..`,
    `(a := ..)`, a name rebound keeps the old thread running), lists and tuples of
    them (`[Thread(..), Thread(..)]`, `[Thread(..) for ..]`, `append`) are kept
    item by item, and a start or a join through a name, through a loop over such a
    list (`for t in (a, b): t.start()`) or in any block (`try`, `with`, `if`) is an
    event of each thread it may be. Where the code cannot tell, the answer is that
    the threads may run together: a start in an `if` may happen; a join ends a run
    only when it runs whenever the start did (not in an `if`, an `except` or a loop
    the start is not in) and has no timeout; a name bound in two branches is either
    thread; a thread handed to code not read here (a call, a `return`) may start
    there and is never known to end. A thread that outlives its function's call
    runs while the thread of the next call does, unless the function runs once.

    `together` maps the constructors of threads whose runs overlap to the first of
    their group; `serial` holds the constructors of threads made once per turn (of a
    loop, of a comprehension) whose turn starts and ends each, one after another."""

    def __init__(self, tree: ast.Module, kind: Callable[[ast.expr], str], submits: Callable[[ast.Call], bool]) -> None:
        """`kind`: the thread class a callee names, or ""; `submits`: whether a call
        hands one call to a pool (`ex.submit(..)`), a future that runs from there
        until its `result()` (or `get()`) without a timeout returns."""
        self._kind = kind
        self._submits = submits
        self.together: dict[int, ast.Call] = {}
        self.serial: set[int] = set()
        self._kept: list[ast.For] = []  # the loops read for loops written as expressions: their ids stay theirs
        self._clock = 0
        self._steps = -sum(isinstance(node, ast.stmt) for node in ast.walk(tree))  # each read once is free
        self._turns = 0
        self._tree = tree
        self._calls: _Calls | None = None  # how often each function runs, found when first asked
        scopes: list[ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = [tree]
        scopes.extend(
            node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        )
        for scope in scopes:
            self._scope(scope.body)
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._outliving(scope)

    def _outliving(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A thread whose run may outlive its function's call (never joined there:
        returned, stored on `self`, handed to a call, or left running) runs while the
        thread of the function's next call does: it is of a group of its own, unless
        the function is known to run once (see `_Calls`)."""
        outliving = [
            t
            for t in self._things
            if isinstance(t, _Thread) and not t.future and any(end == float("inf") for _, end, _ in self._runs(t))
        ]
        if not outliving:
            return
        if self._calls is None:
            self._calls = _Calls(self._tree)
        if self._calls.once(fn):
            return
        for thread in outliving:
            self.together.setdefault(id(thread.call), thread.call)

    def _scope(self, body: list[ast.stmt]) -> None:
        self._things: list[_Thread | _Listed] = []
        self._made: dict[int, int] = {}  # id of a constructor -> its thread (read again in an unrolled loop)
        self._loops: list[tuple[int, tuple[int, int]]] = []  # (id of a loop read, its turn)
        self._guards: list[int] = []  # ids of the blocks being read that may not run
        self._via: dict[str, tuple[int, tuple[int, int]]] = {}  # loop name -> (the loop, its turn)
        self._grown = 0  # how many times a list of the scope has grown
        self._walked: dict[int, int] = {}  # a list escaped whole -> `_grown` then
        env: dict[str, frozenset[int]] = {}
        spent = not self._block(body, env) or self._steps > _UNROLL_STEPS
        threads = [t for t in self._things if isinstance(t, _Thread)]
        futures = [t for t in threads if t.future]
        threads = [t for t in threads if not t.future]
        for future in futures:
            runs = self._runs(future)
            if future.many and runs and all(own for *_, own in runs) and not spent:
                self.serial.add(id(future.call))
        if spent:  # past the steps: any thread of the scope may run while any other does
            self._group([[t] for t in threads] + [[_Thread(c, False, 0, [], [])] for c in self._unread(body)])
            return
        by_start: dict[int, tuple[float, list[_Thread]]] = {}  # a start -> (its end, the threads it may start)
        for thread in threads:
            runs = self._runs(thread)
            if thread.many and runs and all(own for *_, own in runs):
                self.serial.add(id(thread.call))  # each turn's thread ends before the next starts
            for start, end, _ in runs:
                before, started = by_start.get(start, (-1.0, []))
                by_start[start] = (max(before, end), [*started, thread])
        # in the order they start, a run that starts before every run of the group so
        # far has ended joins it (one pass: a scope of thousands of threads is no square
        # of pairs)
        group: list[list[_Thread]] = []
        end = -1.0
        for start in sorted(by_start):
            stop, started = by_start[start]
            if group and start < end:
                group.append(started)
                end = max(end, stop)
                continue
            self._group(group)
            group, end = [started], stop
        self._group(group)

    def _unread(self, body: list[ast.stmt]) -> list[ast.Call]:
        """The thread constructors of a scope's own code (not its functions')."""
        out: list[ast.Call] = []
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Call) and self._kind(node.func):
                out.append(node)
            stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES))
        return out

    def _group(self, group: list[list[_Thread]]) -> None:
        """Threads whose runs overlap, as a group of the first: the threads one start
        may start (a name bound in two branches) are one of them, no group alone."""
        if len(group) < 2:
            return
        calls = list(dict.fromkeys(t.call for started in group for t in started))
        for call in calls:
            self.together.setdefault(id(call), calls[0])

    def _runs(self, thread: _Thread) -> list[tuple[int, float, bool]]:
        """(start, end, whether a join of its own turn ends it) of each start of a
        thread; a thread never started that was handed on runs from there on."""
        starts = thread.starts or ([(thread.escaped, (), None)] if thread.escaped is not None else [])
        out: list[tuple[int, float, bool]] = []
        for clock, guards, turn in starts:
            end, own = float("inf"), False
            for at, joined_in, joined_turn in thread.joins:
                if at > clock and guards[: len(joined_in)] == joined_in:
                    end, own = at, turn is not None and joined_turn == turn
                    break
            out.append((clock, end, own))
        return out

    # -- reading a scope in order -------------------------------------------------------

    def _tick(self) -> bool:
        self._clock += 1
        self._steps += 1
        return self._steps <= _UNROLL_STEPS

    def _block(self, body: list[ast.stmt], env: dict[str, frozenset[int]]) -> bool:
        """Read statements in order; False once the module's steps are spent. After a
        statement that may leave the block early (`if ...: continue`, a `return` or
        `raise` in a branch), the rest of the block may not run: a join there may
        not end its thread."""
        guarded = False
        try:
            for stmt in body:
                if not self._tick() or not self._stmt(stmt, env):
                    return False
                if not guarded and _may_leave(stmt):
                    self._guards.append(id(stmt))
                    guarded = True
            return True
        finally:
            if guarded:
                self._guards.pop()

    def _maybe(self, node: object, body: list[ast.stmt], env: dict[str, frozenset[int]]) -> tuple[bool, dict]:
        """Read a block that may not run, on a copy of the names: (not spent, the names after it)."""
        inner = dict(env)
        self._guards.append(id(node))
        try:
            return self._block(body, inner), inner
        finally:
            self._guards.pop()

    @staticmethod
    def _merge(env: dict[str, frozenset[int]], *others: dict[str, frozenset[int]]) -> None:
        """The names after blocks of which one (or none) ran: each what any may hold."""
        for other in others:
            for name, held in other.items():
                env[name] = env.get(name, frozenset()) | held

    def _stmt(self, stmt: ast.stmt, env: dict[str, frozenset[int]]) -> bool:
        if isinstance(stmt, _SCOPES):
            self._captured(stmt, env)
            return True  # read as a scope of its own
        if isinstance(stmt, ast.If):
            self._expr(stmt.test, env)
            ok, body = self._maybe(stmt.body, stmt.body, env)
            ok2, orelse = self._maybe(stmt.orelse, stmt.orelse, env) if stmt.orelse else (True, dict(env))
            env.clear()
            self._merge(env, body, orelse)
            return ok and ok2
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            return self._for(stmt, env)
        if isinstance(stmt, ast.While):
            self._expr(stmt.test, env)
            return self._loop(stmt, stmt.body, stmt.orelse, env)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self._bind(item.optional_vars, self._expr(item.context_expr, env), env)
            return self._block(stmt.body, env)
        if isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            ok = self._block(stmt.body, env)
            branches = []
            for handler in stmt.handlers:  # type: ignore[attr-defined]
                done, after = self._maybe(handler, handler.body, env)
                ok, branches = ok and done, [*branches, after]
            self._merge(env, *branches)
            return ok and self._block(stmt.orelse, env) and self._block(stmt.finalbody, env)  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Match):
            self._expr(stmt.subject, env)
            branches = []
            ok = True
            for case in stmt.cases:
                done, after = self._maybe(case, case.body, env)
                ok, branches = ok and done, [*branches, after]
            self._merge(env, *branches)
            return ok
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            pairs = assigned(stmt)
            values = {id(v): self._expr(v, env) for _, v in pairs}
            paired = {id(t) for t, _ in pairs}
            if stmt.value is not None and id(stmt.value) not in values:
                self._escape(self._expr(stmt.value, env))  # `a, b = make()`: handed on
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                self._unbind(target, paired, env)
            for target, value in pairs:
                self._bind(target, values[id(value)], env)
            return True
        if isinstance(stmt, ast.AugAssign):
            held, name = self._expr(stmt.value, env), dotted_name(stmt.target)
            listed = [h for h in env.get(name or "", ()) if isinstance(self._things[h], _Listed)]
            if listed and isinstance(stmt.op, ast.Add):  # `threads += [Thread(..)]`
                for h in listed:
                    self._extend(h, held)
            else:
                self._escape(held)
            return True
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                self._unbind(target, set(), env)
            return True
        if isinstance(stmt, (ast.Return, ast.Expr)) and stmt.value is not None:
            held = self._expr(stmt.value, env)
            if isinstance(stmt, ast.Return):
                self._escape(held)
            return True
        for child in ast.iter_child_nodes(stmt):  # any other statement: what it hands on
            if isinstance(child, ast.expr):
                self._escape(self._expr(child, env))
        return True

    def _unbind(self, target: ast.expr, paired: set[int], env: dict[str, frozenset[int]]) -> None:
        """Names a target binds to a value not read here (`a, b = make()`): no thread."""
        if id(target) in paired:
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._unbind(element.value if isinstance(element, ast.Starred) else element, paired, env)
        elif isinstance(target, ast.Starred):
            self._unbind(target.value, paired, env)
        elif (name := dotted_name(target)) is not None:
            self._via.pop(name, None)
            env.pop(name, None)

    def _bind(self, target: ast.expr | None, held: frozenset[int], env: dict[str, frozenset[int]]) -> None:
        if target is None:
            return
        name = dotted_name(target)
        if name is None:
            self._escape(held)  # `d[k] = t`: kept where this reading does not follow
            return
        self._via.pop(name, None)
        if held:
            env[name] = held
        else:
            env.pop(name, None)

    def _loop(self, loop: ast.stmt, body: list[ast.stmt], orelse: list[ast.stmt], env: dict) -> bool:
        """A loop over something not a list of threads: its body may run, once per turn."""
        self._turns += 1
        self._loops.append((id(loop), (id(loop), self._turns)))
        try:
            ok, after = self._maybe(loop, body, env)
        finally:
            self._loops.pop()
        self._merge(env, after)
        ok2, after = self._maybe(orelse, orelse, env) if orelse else (True, {})
        self._merge(env, after)
        return ok and ok2

    def _for(self, loop: ast.For | ast.AsyncFor, env: dict[str, frozenset[int]]) -> bool:
        held = self._expr(loop.iter, env)
        items = [item for h in held if isinstance(self._things[h], _Listed) for item in self._things[h].items]  # type: ignore[union-attr]
        name = dotted_name(loop.target)
        if name is None or not items or len(items) > MAX_ITEMS:
            self._escape(held)
            self._unbind(loop.target, set(), env)
            return self._loop(loop, loop.body, loop.orelse, env)
        for item in items:  # a loop over a list of threads: read once per item, in order
            self._turns += 1
            turn = (id(loop), self._turns)
            env[name] = item
            self._via[name] = (id(loop), turn)
            self._loops.append((id(loop), turn))
            try:
                if not self._block(loop.body, env):
                    return False
            finally:
                self._loops.pop()
        self._via.pop(name, None)
        return self._block(loop.orelse, env)

    def _expr(self, node: ast.expr, env: dict[str, frozenset[int]]) -> frozenset[int]:
        """Read an expression in order: its starts and joins, what it hands on; the
        threads and lists of them it may be."""
        if isinstance(node, ast.NamedExpr):
            held = self._expr(node.value, env)
            self._bind(node.target, held, env)
            return held
        name = dotted_name(node)
        if name is not None:
            return env.get(name, frozenset())
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items: list[frozenset[int]] = []
            spliced = False
            for element in node.elts:
                held = self._expr(element.value if isinstance(element, ast.Starred) else element, env)
                lists = [t.items for h in held if isinstance(t := self._things[h], _Listed)]
                if isinstance(element, ast.Starred) and lists:  # `[*ts, t]`: the items of `ts`, spliced
                    spliced = True
                    items.extend(i for listed in lists for i in listed)
                    items.extend(frozenset({h}) for h in held if isinstance(self._things[h], _Thread))
                elif held:
                    items.append(held)
            # spliced lists keep each item once, as `+` does: `ts = [*ts, *ts]` read 30 times
            # is no list of 2**30 items
            if spliced:
                items = list(dict.fromkeys(items))
                self._steps += len(items)  # items copied: charged as `+` charges them
            return self._new(_Listed(items))
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self._comprehension(node, env)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
            # `ts + us`, `ts * 2`: the threads of the lists, in order; once each, as
            # `_extend` keeps them (`ts = ts + ts` read 30 times is no list of 2**30
            # items); each item built is charged a step
            left, right = self._expr(node.left, env), self._expr(node.right, env)
            items = list(
                dict.fromkeys(i for h in (*left, *right) if isinstance(t := self._things[h], _Listed) for i in t.items)
            )
            self._steps += len(items)
            return self._new(_Listed(items)) if items else frozenset()
        if isinstance(node, (ast.IfExp, ast.BoolOp)):  # `ts if c else us`, `ts or us`: either
            parts = [node.body, node.orelse] if isinstance(node, ast.IfExp) else node.values
            if isinstance(node, ast.IfExp):
                self._expr(node.test, env)
            return frozenset().union(*(self._expr(part, env) for part in parts))
        if isinstance(node, ast.Subscript):  # `ts[0]`, `ts[1:]`: some of them, which not followed here
            self._expr(node.slice, env)
            self._escape(self._expr(node.value, env))
            return frozenset()
        if isinstance(node, ast.Call):
            return self._call(node, env)
        if isinstance(node, ast.Lambda):
            self._captured(node, env)
            return frozenset()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                held = self._expr(child, env)
                if isinstance(node, (ast.Dict, ast.Yield, ast.YieldFrom, ast.Await)):
                    self._escape(held)
        return frozenset()

    def _captured(self, scope: ast.AST, env: dict[str, frozenset[int]]) -> None:
        """Threads a nested function or lambda names (`def go(): a.start()`): it is
        read as a scope of its own, where they are not known, so they are handed on."""
        for node in ast.walk(scope):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in env:
                self._escape(env[node.id])

    def _new(self, thing: _Thread | _Listed) -> frozenset[int]:
        self._things.append(thing)
        return frozenset({len(self._things) - 1})

    def _comprehension(
        self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp, env: dict[str, frozenset[int]]
    ) -> frozenset[int]:
        """`[Thread(..) for ..]`: a list of threads made once per item; `[t.start() for
        t in threads]`: a loop over the list."""
        elt, first = node.elt, node.generators[0]
        if isinstance(elt, ast.Call) and (self._kind(elt.func) or self._submits(elt)):
            for generator in node.generators:
                self._expr(generator.iter, env)
            held = self._thread(elt, id(node))
            if self._submits(elt):
                self._things[next(iter(held))].future = True  # type: ignore[union-attr]  # each future runs from its hand-out
                self._clock += 1
                self._event(next(iter(held)), None, True, True)
            return self._new(_Listed([held]))
        if len(node.generators) == 1 and not first.ifs and not first.is_async:
            self._for(self._loop_of(node, first.target, first.iter, elt), env)
            return frozenset()
        for generator in node.generators:
            self._escape(self._expr(generator.iter, env))
        return frozenset()

    def _loop_of(self, node: ast.expr, target: ast.expr, items: ast.expr, body: ast.expr) -> ast.For:
        """A loop written as an expression (`[t.start() for t in ts]`, `map(lambda t:
        t.start(), ts)`) as the `for` statement it stands for, kept for its id."""
        loop = ast.copy_location(ast.For(target=target, iter=items, body=[ast.Expr(value=body)], orelse=[]), node)
        self._kept.append(loop)
        return loop

    def _map(self, call: ast.Call, env: dict[str, frozenset[int]]) -> bool:
        """`map(lambda t: t.start(), threads)` and `map(Thread.start, threads)` (in
        `list(...)` or not): a loop over the threads. False for any other `map`."""
        fn, items = call.args
        if isinstance(fn, ast.Lambda):
            params = fn.args
            if params.posonlyargs or params.vararg or params.kwonlyargs or params.kwarg or len(params.args) != 1:
                return False
            target, body = ast.Name(id=params.args[0].arg, ctx=ast.Store()), fn.body
        elif isinstance(fn, ast.Attribute) and fn.attr in ("start", "join") and self._kind(fn.value):
            target = ast.Name(id=POOL_ITEM, ctx=ast.Store())
            body = ast.Call(
                func=ast.Attribute(value=ast.Name(id=POOL_ITEM, ctx=ast.Load()), attr=fn.attr), args=[], keywords=[]
            )
        else:
            return False
        self._for(self._loop_of(call, target, items, body), env)
        return True

    def _thread(self, call: ast.Call, home: int | None = None) -> frozenset[int]:
        """The thread a constructor makes (the same one when read again in a loop)."""
        if id(call) in self._made:
            return frozenset({self._made[id(call)]})
        many = home is not None or bool(self._loops)
        home = home if home is not None else self._loops[-1][0] if self._loops else 0
        held = self._new(_Thread(call, many, home, [], []))
        self._made[id(call)] = next(iter(held))
        return held

    def _call(self, call: ast.Call, env: dict[str, frozenset[int]]) -> frozenset[int]:
        func = call.func
        arguments = [*call.args, *(k.value for k in call.keywords)]
        if self._kind(func):
            for argument in arguments:
                self._expr(argument, env)
            return self._thread(call)
        if self._submits(call):  # a future: it runs from here
            for argument in arguments:
                self._escape(self._expr(argument, env))
            held = self._thread(call)
            self._things[next(iter(held))].future = True  # type: ignore[union-attr]
            self._clock += 1
            self._event(next(iter(held)), None, True, True)
            return held
        if isinstance(func, ast.Name) and func.id == "map" and len(call.args) == 2 and not call.keywords:
            if self._map(call, env):
                return frozenset()
        if isinstance(func, ast.Attribute):
            receiver = self._expr(func.value, env)
            method = func.attr
            values = [self._expr(a.value if isinstance(a, ast.Starred) else a, env) for a in arguments]
            threads = [h for h in receiver if isinstance(self._things[h], _Thread)]
            if method in ("start", "join", "result", "get") and threads:
                name = dotted_name(func.value)
                self._clock += 1  # one start (or join) of whichever thread the name holds
                for h in threads:  # a future's `result()` waits for it as a join does
                    self._event(h, name, method == "start" or _ends_run(call), method == "start")
                return frozenset()
            if method in ("append", "extend", "insert", "add") and values:
                name = dotted_name(func.value)
                listed = [h for h in receiver if isinstance(self._things[h], _Listed)]
                if not listed and name is not None and not receiver:
                    listed = list(self._new(_Listed([])))
                    env[name] = frozenset(listed)
                if listed:
                    for h in listed:
                        self._extend(h, values[-1] if method == "extend" else self._new(_Listed([values[-1]])))
                    return frozenset()
            if threads or any(isinstance(self._things[h], _Listed) for h in receiver):
                for held in values:
                    self._escape(held)
                return frozenset()  # a thread's own attribute (`t.is_alive()`) hands it on nowhere
            for held in values:
                self._escape(held)
            return frozenset()
        self._expr(func, env)
        for argument in arguments:
            self._escape(self._expr(argument.value if isinstance(argument, ast.Starred) else argument, env))
        return frozenset()

    def _extend(self, h: int, held: frozenset[int]) -> None:
        """Add the items of the lists `held` may be to list `h` (once each: a list
        filled in a loop holds each thread made in it, one per turn)."""
        kept = self._things[h].items  # type: ignore[union-attr]
        present = set(kept)
        for other in held:
            if isinstance(thing := self._things[other], _Listed):
                self._steps += len(thing.items)
                added = [i for i in dict.fromkeys(thing.items) if i and i not in present]
                kept.extend(added)
                present.update(added)
                self._grown += bool(added)
            else:
                self._escape(frozenset({other}))

    def _event(self, h: int, name: str | None, counts: bool, start: bool) -> None:
        """A start, or a join (`counts`: one that ends the run), of a thread through a name."""
        thread = self._things[h]
        assert isinstance(thread, _Thread)
        via = self._via.get(name) if name is not None else None
        turn = via[1] if via is not None else None
        skip = {via[0]} if via is not None else set()
        if thread.many and turn is None:
            turn = next((t for loop, t in reversed(self._loops) if loop == thread.home), None)
            skip.add(thread.home)
        guards = tuple(g for g in self._guards if g not in skip)
        if start:
            thread.starts.append((self._clock, guards, turn))
        elif counts:
            thread.joins.append((self._clock, guards, turn))

    def _escape(self, held: frozenset[int]) -> None:
        """Threads handed to code not read here: they may start there, and run on.

        Lists nest (`[l1, l1]` of `[a, a]`): each list is walked once per escape, and
        not again until some list of the scope grows (`_grown`); a walk again charges
        a step per item. Past the steps the scope is spent: every thread of it may run
        while any other does, whichever were marked here."""
        seen: set[int] = set()
        stack = list(held)
        while stack:
            h = stack.pop()
            if h in seen:
                continue
            seen.add(h)
            thing = self._things[h]
            if isinstance(thing, _Thread):
                if thing.escaped is None:
                    self._clock += 1  # each may be started there, whichever the others are
                    thing.escaped = self._clock
                continue
            if self._walked.get(h) == self._grown:
                continue  # escaped whole since any list last grew
            if h in self._walked:  # walked again: charged (the first walk is the list's own making)
                self._steps += len(thing.items)
                if self._steps > _UNROLL_STEPS:
                    return
            self._walked[h] = self._grown
            stack.extend(i for item in reversed(thing.items) for i in item)


class _Calls:
    """Which functions of a module run once per run of it: a function named once in
    the whole module (no other function, method or attribute of its name), by one
    call, undecorated, not in a loop, a comprehension or a lambda, made by the
    module's own code or a class body in it, or by a function that itself runs
    once. Anything else (no call here: one from another module; a name handed
    on as a value) may run several times."""

    _DEPTH = 16  # functions calling functions followed at most: past them, several times

    def __init__(self, tree: ast.Module) -> None:
        self._defs: dict[str, int] = {}  # name -> how many functions (and methods) have it
        self._uses: dict[str, list[tuple[bool, ast.AST | None, bool]]] = {}  # name -> (a call's callee, where, looped)
        self._memo: dict[int, bool] = {}
        stack: list[tuple[ast.AST, ast.AST | None, bool, bool]] = [(tree, None, False, False)]
        while stack:  # (node, the function it runs in or None, in a loop there, the callee of a call)
            node, home, looped, callee = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._defs[node.name] = self._defs.get(node.name, 0) + (1 if not node.decorator_list else 2)
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name is not None and not isinstance(getattr(node, "ctx", None), ast.Store):
                self._uses.setdefault(name, []).append((callee, home, looped))
            inner_home = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else home
            inner_looped = (
                False
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                else looped or isinstance(node, (*_LOOPS, *_COMPREHENSIONS, ast.Lambda))
            )
            for child in ast.iter_child_nodes(node):
                stack.append((child, inner_home, inner_looped, isinstance(node, ast.Call) and child is node.func))

    def once(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, depth: int = 0) -> bool:
        if id(fn) in self._memo:
            return self._memo[id(fn)]
        self._memo[id(fn)] = False  # a function that calls itself runs several times
        uses = self._uses.get(fn.name, [])
        once = (
            depth < self._DEPTH
            and self._defs.get(fn.name) == 1
            and len(uses) == 1
            and uses[0][0]
            and not uses[0][2]
            and (uses[0][1] is None or self.once(uses[0][1], depth + 1))  # type: ignore[arg-type]
        )
        self._memo[id(fn)] = bool(once)
        return bool(once)


class _Names:
    """Where a module binds each name: per scope (the module, a function, a class,
    a lambda, a comprehension), the lines of each binding (an assignment of any
    form, a parameter, a `def`, an `import`, a loop's target, a `del`), and the
    names any scope declares `global` or `nonlocal`."""

    def __init__(self, tree: ast.Module) -> None:
        self.scopes: set[int] = {id(tree)}
        self.lines: dict[tuple[int, str], list[int]] = {}
        self.declared: set[str] = set()
        self.classes: set[int] = set()  # a class body's names are not its methods' to read
        stack: list[tuple[ast.AST, int]] = [(tree, id(tree))]
        while stack:
            node, scope = stack.pop()
            line = getattr(node, "lineno", 0)
            if isinstance(node, (*_SCOPES, *_COMPREHENSIONS)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    self._add(scope, node.name, line)
                scope = id(node)
                self.scopes.add(scope)
                if isinstance(node, ast.ClassDef):
                    self.classes.add(scope)
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self._add(scope, node.id, line)
            elif isinstance(node, ast.arg):
                self._add(scope, node.arg, line)
            elif isinstance(node, ast.alias):
                self._add(scope, (node.asname or node.name).split(".")[0], line)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.declared.update(node.names)
            stack.extend((child, scope) for child in ast.iter_child_nodes(node))

    def _add(self, scope: int, name: str, line: int) -> None:
        self.lines.setdefault((scope, name), []).append(line)

    def scope_of(self, node: int, above: dict[int, int]) -> int:
        """The innermost scope a node (by id) stands in."""
        at = above.get(node, 0)
        while at and at not in self.scopes:
            at = above.get(at, 0)
        return at

    def bound_once_before(self, name: str, scope: int, line: int, above: dict[int, int]) -> bool:
        """Whether a name read in a scope holds one value there: bound in it once,
        before `line`; or not bound in it, and bound once (or never: a builtin) in
        the scope it comes from."""
        if name in self.declared:
            return False
        lines = self.lines.get((scope, name))
        while lines is None and scope:
            scope = self.scope_of(scope, above)
            while scope in self.classes:
                scope = self.scope_of(scope, above)
            lines = self.lines.get((scope, name)) if scope else None
            line = 1 << 30  # bound in an enclosing scope: once, wherever
        return lines is None or (len(lines) == 1 and lines[0] < line)


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
        self._names: _Names | None = None  # where each name is bound, found when a pool's workers are a name
        self._holding: set[int] = set()
        self._threads: dict[str, str] = {}  # local name -> thread class (`from threading import Thread`)
        self._thread_modules: set[str] = set()  # local names of `threading`, `multiprocessing`
        self._serial: set[int] = set()  # ids of the constructors of threads made per turn, each ended in its turn
        # ids of the constructors of threads that run while another does ->
        # the first constructor of their group (see `Lifetimes`)
        self._together: dict[int, ast.Call] = {}
        bindings: list[tuple[str, ast.expr]] = []
        calls: list[ast.Call] = []
        stack: list[tuple[ast.AST, bool]] = [(tree, False)] if tree is not None else []  # (node, in a loop's body)
        while stack:
            node, looped = stack.pop()
            if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
                bindings.append((node.optional_vars.id, node.context_expr))
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
                bindings.extend((t.id, v) for t, v in assigned(node) if isinstance(t, ast.Name))
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
        for bindings_of in self._bound.values():
            bindings_of.sort(key=lambda b: b[0])
        if tree is not None:
            lifetimes = Lifetimes(tree, self._thread_kind, self._submits)
            self._serial, self._together = lifetimes.serial, lifetimes.together
        for call in calls:  # whether a call is a hand-out depends on it and the module, not where it stands
            if self._hand_out(call, ()) is not None:
                at = id(call)
                while at and at not in self._holding:
                    self._holding.add(at)
                    at = self._above[at]

    def __bool__(self) -> bool:
        """Whether the module was read for pools at all."""
        return self._read

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

    def _submits(self, call: ast.Call) -> bool:
        """Whether a call hands one call of a function to a pool (`ex.submit(fn, x)`)."""
        func = call.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr in _ONE_CALL
            and bool(call.args)
            and self._pool_of(func.value, call.lineno) is not None
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

    def workers_written(self, pool: ast.expr, hand_out: ast.Call) -> ast.expr | None:
        """The number of workers a pool is made with, as written, when it is no
        literal (`ThreadPoolExecutor(n)`, `Parallel(n_jobs=CFG["jobs"])`) and reads
        where the hand-out stands as where the pool is made: both in one scope of
        this module, every name in it bound there once before the pool (or, bound
        not there, once in the scope it comes from), never declared `global` or
        `nonlocal`. None otherwise: the pool's workers are then not known."""
        if not isinstance(pool, ast.Call) or self._tree is None:
            return None
        kind = self._kind(pool.func)
        keyword = _POOLS.get(kind, "n_jobs" if kind == "Parallel" else None)
        if keyword is None:
            return None
        given = next((k.value for k in pool.keywords if k.arg == keyword), pool.args[0] if pool.args else None)
        if given is None or isinstance(given, ast.Constant) or id(pool) not in self._above:
            return None
        if self._names is None:
            self._names = _Names(self._tree)
        home = self._names.scope_of(id(pool), self._above)
        if self._names.scope_of(id(hand_out), self._above) != home:
            return None
        for node in ast.walk(given):
            if isinstance(node, ast.Name) and not self._names.bound_once_before(
                node.id, home, pool.lineno, self._above
            ):
                return None
        return given

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
            # a hand-out whose result each turn waits for runs its calls one at a time
            # (its calls then run alone, as a thread started and joined in its turn does)
            alone = id(call) in self._serial
            repeated = repeated and not alone
            if method == "apply_async":  # apply_async(fn, args=(...), kwds={...})
                given = next((k.value for k in call.keywords if k.arg == "args"), rest[0] if rest else None)
                rest = tuple(given.elts) if isinstance(given, (ast.Tuple, ast.List)) else ()
                return PoolCall(call, pool, fn, rest, (), None, False, loops, repeated, alone)
            return PoolCall(call, pool, fn, tuple(rest), tuple(call.keywords), None, False, loops, repeated, alone)
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
        if not hand_out.alone and self._one_worker(hand_out, scope):
            hand_out = replace(hand_out, alone=True)  # its calls run one after another
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

    def _one_worker(self, hand_out: PoolCall, scope: Scope) -> bool:
        """Whether the pool a hand-out runs in is known to have one worker, its number
        written as a value (`n = 1; ThreadPoolExecutor(n)`), read where the hand-out
        stands. A number the value layer does not know, or knows as one of several,
        leaves the pool one of many workers."""
        given = self._pools.workers_written(hand_out.pool, hand_out.call) if self._pools else None
        if given is None:
            return False
        held = self.host.values._integer(given, scope)
        return type(held) is int and held == 1

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


def _row_label(n: int, row: tuple[object, ...]) -> str | None:
    """Which literal item a pooled call's row is, when its values are not all text
    (a dict of a configuration list): its text cannot tell the calls apart."""
    return None if all(isinstance(v, Str) for v in row) else f"#{n}"
