"""The link stage: what other files and the jobs give each file before it is read.

The front ends read one file at a time (and are cached by its content). Real job
code also depends on other files and on how its jobs run it:

- a notebook's `%run ./setup` runs `setup` in the same namespace first, so the names
  it defines and the catalog/schema it `USE`s hold in the including notebook;
- `from config import CATALOG` (or `import config; config.CATALOG`) reads a module
  of the project;
- a task's parameters (`base_parameters`, script arguments, job parameters, bundle
  `${var.*}` already resolved) are what the code's widgets and arguments read.

From every file's `Links` (what the first reading found) and the workflows this
stage makes each file's `Context`; files with one are read again with it.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from delta_lint.bundle import Workflows, task_runs
from delta_lint.frontend.recognise import TEST_PATH
from delta_lint.frontend.registries import module_pattern
from delta_lint.frontend.values.lattice import ABSENT_INPUT, DEFAULTED, MAX_ALTERNATIVES
from delta_lint.frontend.values.listing import listed_documents
from delta_lint.model import (
    JSON_INPUT,
    OBJECT_KEY,
    RUN_TIME_INPUT,
    SCOPED,
    UNKNOWN_FOLDER,
    ClassShape,
    Context,
    Links,
    Pools,
    ProcedureDef,
    object_fields,
    source_words,
)

# `%run` follows notebooks this deep: enough for setup notebooks that include a
# shared one, a bound on what a cycle of includes could cost.
MAX_RUN_DEPTH = 8
MAX_DOCUMENTS = 16  # project documents one file's code may load
MAX_VARIANTS = 16  # readings of one file with the values of its different tasks
# Imported modules followed through their own imports (`load` of `helpers` calls
# `_write` of `helpers`, which calls `save` of `.io`): this deep, and at most this
# many modules for one file, a bound on the source pasted after it.
MAX_IMPORT_DEPTH = 8
MAX_SCOPES = 32
_NOTEBOOK_SUFFIXES = ("", ".py", ".ipynb", ".sql")


@dataclass(frozen=True)
class _Method:
    """One method of a class helper: its name, its lines in the class's text
    (counted from 0: the first, with its decorators, one past the last, and the
    `def` line) and the words of its text."""

    name: str
    first: int
    end: int
    at: int
    words: frozenset[str]
    size: int  # the characters of its text


@dataclass(frozen=True)
class _ClassPieces:
    """A class helper's text with its ordinary methods apart, so that a file is
    given the class with only the methods its code, or its kept helpers, may call.

    A REST client or a table builder of hundreds of methods is a helper as soon as
    one of them writes; pasted whole into each file that uses it, it would be parsed
    and walked again for every such file. A method no word of the code reachable from
    the file names cannot run there: words of strings and comments count (as
    `Linker._named_helpers` counts them), so `getattr(self, "save")` keeps `save`.
    Dunder methods (`__init__`, `__enter__`, `__call__`, ...) run without being
    named: the first reading leaves them out of `Links.methods`, with everything
    else of the class that is not a method (its attributes, nested classes,
    docstring), so they are always kept. A method cut is left as blank lines, so
    the class keeps its lines and every location in it stays right."""

    lines: tuple[str, ...]  # the text split at "\n", each without it
    always: frozenset[str]  # the words of what is always kept
    methods: tuple[_Method, ...]
    statements: int  # the statements of the class's body
    size: int  # the characters of what is always kept

    @staticmethod
    def of(source: str, shape: ClassShape) -> _ClassPieces | None:
        """The pieces of a class's text from where the first reading placed its
        methods (`Links.methods`); None when those places do not fit the text."""
        statements, spans = shape
        lines = tuple(source.split("\n"))
        methods = []
        for name, first, end, at in spans:
            if not 0 <= first <= at < end <= len(lines):
                return None
            text = "\n".join(lines[first:end])
            methods.append(_Method(name, first, end, at, frozenset(source_words(text)), len(text)))
        if not methods:
            return None
        inside = {n for m in methods for n in range(m.first, m.end)}
        rest = "\n".join(line for n, line in enumerate(lines) if n not in inside)
        return _ClassPieces(lines, frozenset(source_words(rest)), tuple(methods), statements, len(rest))

    def text(self, kept: set[str]) -> str:
        """The class with only the methods named `kept` (and what is always kept),
        when that cuts at least half of its lines; else the whole class."""
        dropped = [m for m in self.methods if m.name not in kept]
        if sum(m.end - m.first for m in dropped) * 2 < len(self.lines):
            # cutting less than half costs more than it saves: every file given the
            # whole class shares one reading of it, each cut text is read again
            return "\n".join(self.lines)
        lines = list(self.lines)
        for method in dropped:
            lines[method.first : method.end] = [""] * (method.end - method.first)
        if len(dropped) == self.statements:  # nothing of the body is left: a `pass` holds it
            at = self.lines[dropped[0].at]
            lines[dropped[0].at] = at[: len(at) - len(at.lstrip())] + "pass"
        return "\n".join(lines)


def run_target(text: str) -> str:
    """The notebook path of a `%run` line: `"./a b"` quoted, else the first word
    (what follows are widget arguments, `$name=value`)."""
    text = text.strip()
    if text[:1] in ("'", '"'):
        end = text.find(text[0], 1)
        return text[1:end] if end > 0 else text[1:]
    return text.split()[0] if text else ""


# Notebooks outside the checked paths read for what a `%run` of them leaves (see
# `run._included_from_outside`): setup notebooks shared by a repository's demos.
MAX_INCLUDED_FROM_OUTSIDE = 32


def outside_runs(importer: str, links: Links | None, known: set[str], above_root: bool = True) -> list[str]:
    """The `%run` targets of `importer` that are not among the run's files: above
    the configuration root (`../x`, when `above_root`) or beside the checked paths
    (`check nb.py` of a notebook that `%run`s `./setup`, as pre-commit runs it), as
    root-relative paths, one per notebook suffix the file may have (the caller
    reads the one that exists)."""
    out = []
    for text in links.runs if links is not None else ():
        target = run_target(text)
        if not target or target.startswith("/"):
            continue
        path = posixpath.normpath(posixpath.join(posixpath.dirname(importer), target))
        if path.startswith("../") and not above_root:
            continue
        if any(path + suffix in known for suffix in _NOTEBOOK_SUFFIXES):
            continue  # the run reads it already (a lookup per suffix: `known` holds every project file)
        out.extend(p for p in (path + s for s in _NOTEBOOK_SUFFIXES if s) if p not in known)
    return out


def pooled_inputs(readings: list[tuple[tuple[str, str], ...]]) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Which inputs the calls of one pool give a notebook, from the arguments known in
    each reading of them (a reading for any item stands for every call, one for a
    literal item for its call): (the inputs every reading gives one and the same
    value, with it; the inputs every reading gives a value, not the same in all).
    An input some reading does not know is in neither: only a run knows it, and so
    is a dict known only in part (`JSON_INPUT`: each call may give its unknown keys
    other values)."""
    if not readings:
        return (), ()
    values: dict[str, set[str]] = {}
    partly: set[str] = set()
    for given in readings:
        for name, value in given:
            values.setdefault(name, set()).add(value)
            if value.startswith(JSON_INPUT):
                partly.add(name)
    everywhere = [
        name for name in sorted(values) if name not in partly and all(any(n == name for n, _ in g) for g in readings)
    ]
    same = tuple((name, next(iter(values[name]))) for name in everywhere if len(values[name]) == 1)
    differ = tuple(name for name in everywhere if len(values[name]) > 1)
    return same, differ


# characters of helper text one file is given (see `Linker._named_helpers`): above
# what a project's own helpers come to (38 KB at most in the learn repositories), a
# bound on what a library's examples naming its client are given (megabytes)
MAX_HELPER_TEXT = 64 * 1024
# procedures one file is given, those its calls' bodies call included
MAX_GIVEN_PROCEDURES = 64


class Linker:
    """Contexts for the files of one run (paths relative to the configuration root)."""

    def __init__(
        self,
        files: list[tuple[str, Links | None]],
        workflows: Workflows | None = None,
        read_document: Callable[[str], object] | None = None,
        base: dict[int, Links | None] | None = None,
    ) -> None:
        # a file of a cycle of sources -> its links as read with a context its cycle
        # gave nothing to (see `cycle`, `base_contexts`): what it gives the others
        self.base = base or {}
        self._cycles: dict[int, frozenset[int]] | None = None  # see `cycle`
        self._depth = 0  # see `depth`
        self._setters: list[int] | None = None  # files that set task values (see `_taken`)
        self._definers: list[int] | None = None  # files that define SQL procedures
        # a project document (YAML, JSON) by its path relative to the configuration
        # root, as plain values; None when it cannot be read
        self.read_document = read_document
        self.paths = [path for path, _ in files]
        self.links: Sequence[Links | None] = [links for _, links in files]
        self.index = {path: i for i, path in enumerate(self.paths)}
        self._by_name: dict[str, list[int]] | None = None  # see `_named`
        self._notebook_stems: dict[str, list[tuple[str, int]]] | None = None  # see `_ending`
        self._module_names: frozenset[str] | None = None  # see `module_names`
        self._dotted: list[tuple[str, int]] | None = None  # see `_dotted_modules`
        # (importer's folder, module as imported) -> `module`'s answer: it reads only
        # those and the project's paths, fixed here, and is asked for every import of
        # every file in each round of contexts
        self._modules: dict[tuple[str, str], int | None] = {}
        self._deepest = max((p.count("/") + 1 for p in self.paths), default=0)  # names in a path
        self.workflows = workflows
        # file -> (job, task, the values it gives) of each run a task makes of it (`task_runs`)
        self._task_runs = task_runs(workflows) if workflows is not None else {}
        self.runs_of = {
            file: _with_defaults([given for _, _, given in runs], self._defaults(file))
            for file, runs in self._task_runs.items()
        }
        self.bindings = _agreed(self.runs_of)
        # file -> (catalog, schema, configuration) of each pipeline whose source it is
        self.pipeline_of: dict[str, tuple] = {}
        for pipeline in workflows.pipelines.values() if workflows is not None else ():
            for file in pipeline.files:
                given = (pipeline.catalog, pipeline.schema, pipeline.configuration)
                if given not in self.pipeline_of.get(file, ()):
                    self.pipeline_of[file] = (*self.pipeline_of.get(file, ()), given)
        self.dbt_of = workflows.dbt if workflows is not None else {}  # dbt node files -> their writes
        self.callers: dict[int, list[tuple[int, dict[str, str]]]] = {}  # child -> (caller, its arguments)
        self._set_values: dict[str, list[tuple[int, object]]] | None = None  # job task values set (see `_task_values`)
        # file -> the helpers its imports and `%run`s offer it that its code names (see
        # `_named_helpers`): (name there, module, source). A module's functions that
        # another file names count as called elsewhere (`Context.called`); one that is
        # only imported (`from .run import run` in a package's `__init__.py`) is not,
        # so its module keeps its writes
        self._offered: dict[int, list[tuple[str, str, str]]] = {}
        # file -> the helpers its code names that `MAX_HELPER_TEXT` left out (see `_named_helpers`)
        self.helpers_left: dict[int, int] = {}
        self._words: dict[str, frozenset[str]] = {}  # a helper's source -> its words (see `_named_helpers`)
        self._pieces: dict[str, _ClassPieces | None] = {}  # a class helper's source -> its methods apart
        self._shapes: dict[str, ClassShape] = {}  # a class helper's source -> where its methods are
        self._scoped: dict[int, tuple] = {}  # module -> what it gives `_scopes` (see `_scope`)
        # qualified procedure name -> (file, its definition) of every file that defines it
        self._defined: dict[str, list[tuple[int, ProcedureDef]]] | None = None
        for i, links in enumerate(self.links):
            for path, arguments in links.notebooks if links is not None else ():
                child = self.notebook(self.paths[i], path)
                if child is not None and child != i:
                    self.callers.setdefault(child, []).append((i, arguments))

    def sources(self, i: int) -> set[int]:
        """The files whose summaries file i's context is made of, one step away: the
        notebooks it `%run`s, the project modules it imports (by a template of their
        name too), the child notebooks whose exit value it reads (those that exit with
        one), the notebooks that
        run it as a child (their arguments are its inputs), and every file that sets
        a task value (when it reads one) or defines a SQL procedure (when it CALLs
        one). What those take from others is theirs: the closure of this relation is
        what file i's context may change with. (A module's `called` functions come
        from its importers' words, which a reading with context does not change:
        not a source.)"""
        out = self._taken(i)
        out.discard(i)
        return out

    def _taken(self, i: int) -> set[int]:
        """`sources`, file i among them where it takes from itself (a module that
        imports itself, a notebook that reads the task values it sets)."""
        links = self.links[i]
        if links is None:
            return set()
        path = self.paths[i]
        out: set[int | None] = {self.notebook(path, run_target(text)) for text in links.runs}
        for module, name, _ in self._imports(i, links):
            out.add(self.module(path, module))
            if name not in ("", "*"):  # `from package import module`
                out.add(self.module(path, f"{module}.{name}" if module.strip(".") else module + name))
        for child, _ in links.notebooks:  # a child that hands back no value gives nothing
            found = self.notebook(path, child)
            if found is not None and (self.links[found] is None or self.links[found].exit is not None):
                out.add(found)
        out.update(caller for caller, _ in self.callers.get(i, ()))
        if links.task_value_reads or links.calls:
            if self._setters is None or self._definers is None:
                self._setters = [j for j, other in enumerate(self.links) if other is not None and other.task_values]
                self._definers = [j for j, other in enumerate(self.links) if other is not None and other.procedures]
            out.update(self._setters if links.task_value_reads else ())
            out.update(self._definers if links.calls else ())
        out.discard(None)
        return out  # type: ignore[return-value]

    def cycle(self, i: int) -> frozenset[int]:
        """The files of file i's cycle of sources (i among them): those whose readings
        its own reading reaches again through theirs (`a` `%run`s `b`, which `%run`s
        `a`; a package's `__init__.py` imports a module that imports the package).
        Empty when its sources lead nowhere back to it, itself alone when it takes
        from itself only.

        A file's context is made only of readings that do not depend on its own later
        reading: a file of a cycle is given what the other files of the cycle give
        read with a context their cycle gave nothing to (their `base` readings, see
        `base_contexts`), never what their last reading gives, which file i's
        reading fed; and no file is given anything of its own (a module importing
        itself, a notebook reading the task values it sets). So a value cannot go
        round a cycle and grow at each reading, and the stage ends where its sources
        end: a cycle is read once for each change that reaches it from below."""
        if self._cycles is None:
            self._cycles = {}
            itself: set[int] = set()

            def sources(j: int) -> set[int]:
                out = self._taken(j)
                if j in out:
                    itself.add(j)
                    out.discard(j)
                return out

            order, _ = _components(set(range(len(self.links))), set(), sources)
            of: dict[int, tuple[int, ...]] = {}
            depth: dict[tuple[int, ...], int] = {}
            for component in order:  # each after those it reaches
                of.update(dict.fromkeys(component, component))
                if len(component) > 1 or component[0] in itself:
                    members = frozenset(component)
                    self._cycles.update(dict.fromkeys(component, members))
                below = [
                    depth[of[k]] for j in component for k in self._taken(j) if of.get(k, component) is not component
                ]
                depth[component] = 1 + max(below, default=0)
            self._depth = max(depth.values(), default=0)
        return self._cycles.get(i, frozenset())

    def depth(self) -> int:
        """The files of the longest chain of sources (a cycle counts as one): the
        waves of readings after which every context is made of settled readings."""
        self.cycle(0)
        return self._depth

    def base_contexts(self) -> dict[int, Context]:
        """The context of each file of a cycle of sources made with nothing from its
        cycle (empty ones too): what it is read with to give the others of its cycle
        (see `cycle`)."""
        out = {}
        for i, links in enumerate(self.links):
            members = self.cycle(i)
            if links is None or len(members) < 2:  # (a file alone gives its cycle nothing)
                continue
            offered = self._offered.pop(i, None)
            with self._view(i, dict.fromkeys(members)):
                out[i] = self._context(i, links)
            self._offered.pop(i, None)
            if offered is not None:
                self._offered[i] = offered
        return out

    @contextmanager
    def _view(self, i: int, given: dict[int, Links | None]) -> Iterator[None]:
        """Make file i's context with files `given` giving what their given links
        give (None: nothing), file i itself nothing: every other file as its last
        reading. What was worked out once for every file from the last readings (a
        module's scope, the task values set, which notebooks run which) is worked
        out again inside."""
        links, scoped, set_values, callers = self.links, self._scoped, self._set_values, self.callers
        over = {j: _giftless(self.links[j]) if found is None else found for j, found in given.items()}
        over[i] = _giftless(self.links[i])
        self.links, self._scoped, self._set_values = _Overlay(links, over), {}, None
        self.callers = dict(callers)
        self.callers[i] = [(c, args) for c, args in callers.get(i, ()) if c not in over] + [
            (c, args)
            for c in sorted(over)
            if c != i and over[c] is not None
            for path, args in over[c].notebooks  # type: ignore[union-attr]
            if self.notebook(self.paths[c], path) == i
        ]
        try:
            yield
        finally:
            self.links, self._scoped, self._set_values, self.callers = links, scoped, set_values, callers

    def ready(self, changed: Iterable[int], blocking: Iterable[int] | None = None) -> set[int]:
        """Those of the files whose context `changed` that no other changed file's
        reading can change again: none of their sources, followed to the end, is a
        changed file of `blocking` (all changed files when not given) outside their
        own cycle of sources. Reading those first, then making the contexts again,
        gives every file a context made of its sources' last readings, each file
        read once per change that reaches it, where reading every changed file each
        round read a file again for each level of `%run`s and imports under it. A
        cycle of sources (two notebooks that run each other) is read together, as
        one. A file whose context changed only in the functions other files call
        (`Context.called`: a module learns it once its importers name a function
        that now writes) gives its importers what it gave: it blocks none of them."""
        changed = set(changed)
        if len(changed) < 2:
            return changed
        order, below = _components(changed, changed if blocking is None else set(blocking), self.sources)
        out: set[int] = set()
        for component in order:
            if not below[component]:
                out.update(j for j in component if j in changed)
        # which notebook runs which as a child is known only once each is read: a
        # driver's `dbutils.notebook.run` in a helper its includes give it is found by
        # its reading with them. A notebook that reads inputs no job gives it may be
        # such a child: it waits while another file is read, so it is read once with
        # the arguments its callers give, not once before they are known
        waiting = {j for j in out if self._may_be_run_with_inputs(j)}
        if waiting != out:
            out -= waiting
        return out or changed

    def behind(self, files: Iterable[int], pending: Iterable[int]) -> set[int]:
        """Those of `files` whose sources, followed to the end, reach a file of
        `pending` (one that is to be read again): their context made now would be
        made again after that reading."""
        files, pending = set(files), set(pending)
        if not files or not pending:
            return set()
        order, below = _components(files, pending, self.sources)
        return {j for component in order for j in component if j in files and below[component]}

    def _may_be_run_with_inputs(self, i: int) -> bool:
        """A file that reads job inputs none of its job tasks gives."""
        links = self.links[i]
        return links is not None and bool(links.inputs) and self.paths[i] not in self.bindings

    def runs_in(self) -> dict[str, set[str]]:
        """child notebook -> the files that run it with `dbutils.notebook.run` (it
        runs in their tasks)."""
        return {self.paths[c]: {self.paths[i] for i, _ in calls} for c, calls in self.callers.items()}

    def pooled_runs(self) -> dict[str, Pools]:
        """child notebook -> every thread pool whose calls run it (`Links.pooled_notebooks`):
        (where the pool is made, the calls of it that run the child: "" for any of
        several, and which inputs its calls give the child, see `pooled_inputs`), sorted.
        A notebook two pools run meets the notebooks of each."""
        found: dict[str, dict[str, list[tuple[str, tuple[tuple[str, str], ...]]]]] = {}
        for i, links in enumerate(self.links):
            for path, pool, item, given in links.pooled_notebooks if links is not None else ():
                child = self.notebook(self.paths[i], path)
                if child is not None and child != i:
                    found.setdefault(self.paths[child], {}).setdefault(pool, []).append((item, given))
        return {
            child: tuple(
                (pool, tuple(sorted({item for item, _ in calls})), *pooled_inputs([given for _, given in calls]))
                for pool, calls in sorted(pools.items())
            )
            for child, pools in found.items()
        }

    def contexts(self) -> dict[int, Context]:
        out = {}
        called: dict[str, set[str]] = {}  # module -> its functions other files read at their calls
        for i, links in enumerate(self.links):
            if (
                links is None
                and self.paths[i] not in self.pipeline_of
                and self.paths[i] not in self.dbt_of
                and not self._scheduled_test(i)
            ):
                continue
            context = self.context(i)
            stored = set(links.stored) if links is not None else set()
            for bound, module, source in self._offered.pop(i, ()):
                if SCOPED in bound:
                    continue  # in its own module's namespace: called there, if at all
                if bound in stored:
                    continue  # kept in a registry here, read at no call: its module keeps its writes
                called.setdefault(module, set()).add(_function_name(source) or bound.rsplit(".", 1)[-1])
            if context:
                out[i] = context
        for module, names in called.items():
            i = self.index[module]
            out[i] = replace(out.get(i, Context()), called=tuple(sorted(names)))
        return out

    def _job_task_too(self, i: int) -> bool:
        """A pipeline's source file that a job task other than a `pipeline_task` runs
        too (a notebook switching on `pipelines.id`): job code as well as datasets."""
        jobs = self.workflows.jobs.values() if self.workflows is not None else ()
        return any(
            t.pipeline is None and t.kind != "pipeline" and self.paths[i] in t.files
            for job in jobs
            for t in job.tasks.values()
        )

    def _job_inputs(self, i: int) -> dict[str, str]:
        """The inputs every job task but the pipeline's updates gives a file the same value."""
        jobs = self.workflows.jobs if self.workflows is not None else {}
        path = self.paths[i]
        runs = [
            given
            for job, task, given in self._task_runs.get(path, [])
            if jobs[job].tasks[task].pipeline is None and jobs[job].tasks[task].kind != "pipeline"
        ]
        return _agreed({path: runs}).get(path, {}) if runs else {}

    def _scheduled_test(self, i: int) -> bool:
        """A file a job's task runs whose path reads as a test's (`tests/iac/load.ipynb`)."""
        return self.paths[i] in self.runs_of and TEST_PATH.search(self.paths[i]) is not None

    def context(self, i: int) -> Context:
        """File i's context (see `cycle`: of a file of a cycle, made with what the
        others give read without their cycle)."""
        links = self.links[i]
        if links is None:
            return self._context(i, links)
        members = self.cycle(i)
        if not members:
            return self._context(i, links)
        with self._view(i, {j: self.base.get(j) for j in members if j != i}):
            return self._context(i, links)

    def _context(self, i: int, links: Links | None) -> Context:
        pipeline = self.pipeline_of.get(self.paths[i])
        if links is None:  # not read as job code: a pipeline's source, a dbt node, a job's task that looks like a test
            both = pipeline is not None and self._job_task_too(i)  # its job code read too: with the tasks' values
            inputs = tuple(sorted(self._job_inputs(i).items())) if both else ()
            scheduled = self._scheduled_test(i) or both
            return Context(
                pipeline=pipeline, inputs=inputs, scheduled=scheduled, dbt=self.dbt_of.get(self.paths[i], ())
            )
        values: dict[str, object] = {}
        session: dict[str, object] = {}
        helpers: dict[str, tuple[str, str, tuple[int, int] | None]] = {}  # name here -> (module, source, start)
        value_functions: dict[str, tuple[str, str, str]] = {}  # name here -> (module, function, source)
        classes: set[str] = set()  # the classes of objects other modules give file i (see `_object`)
        self._runs(i, values, session, helpers, classes)
        imported: list[int] = []  # the project modules file i imports: read in their own scope
        clients: list[tuple[str, str, str]] = []  # the Databricks clients they hold (`Context.clients`)
        for module, name, bound in self._imports(i, links):
            target = self.module(self.paths[i], module)
            if target is None:
                continue
            imported.append(target)
            held = self._clients(target)
            if name == "*":
                clients.extend(("", n, kind) for n, kind in held.items())
            elif name in held:
                clients.append(("", bound, held[name]))
            if name in self._value_functions(target) and bound in links.value_calls:
                source = self.links[target].value_source  # type: ignore[union-attr]
                value_functions[bound] = (self.paths[target], name, source)
            exports = self._exports(target)
            functions = self._functions(target)
            if name == "*":
                prefix = f"{self.paths[target]}{SCOPED}"
                for k, v in exports.items():  # an object the code does not name: its attributes alone
                    values[k] = (
                        self._object(v, target, prefix, helpers, classes) if _names(links, k) else object_fields(v)
                    )
                helpers.update(self._helpers_of(target))
            elif name == "":
                values[bound] = self._members(target, links, helpers, classes)
                helpers.update(self._helpers_of(target, f"{bound}."))
                value_functions.update(self._module_functions(target, bound, links))
            elif name in functions:
                helpers[bound] = self._helpers_of(target)[name]
                if isinstance(exports.get(name), dict):  # a class: its attributes (`Env.TABLE`)
                    values[bound] = exports[name]
            elif name in exports:
                values[bound] = self._object(exports[name], target, f"{self.paths[target]}{SCOPED}", helpers, classes)
            else:  # `from package import module`
                sub = self.module(self.paths[i], f"{module}.{name}" if module.strip(".") else module + name)
                if sub is not None:
                    imported.append(sub)
                    values[bound] = self._members(sub, links, helpers, classes)
                    helpers.update(self._helpers_of(sub, f"{bound}."))
                    value_functions.update(self._module_functions(sub, bound, links))
        scopes = self._scopes(imported, helpers, classes, value_functions) if helpers else ()
        for path, _ in scopes:  # the clients a helper of that module reads by its own names
            clients.extend((path, n, kind) for n, kind in self._clients(self.index[path]).items())
        offered = helpers
        if links.names is not None and helpers:
            # an object's class is read where the object is used: named by the object
            helpers, left = self._named_helpers(helpers, " ".join([links.names, *sorted(classes)]))
            if left:
                self.helpers_left[i] = left
        self._offered[i] = [(bound, offered[bound][0], offered[bound][1]) for bound in helpers]
        both = pipeline is not None and self._job_task_too(i)  # its job code: the job tasks' values alone
        inputs = self._job_inputs(i) if both else self.bindings.get(self.paths[i], {})
        variants = self._variants(self.paths[i], links.inputs, inputs)
        calls = self.callers.get(i)
        if calls and not inputs:  # a child notebook: the values every call gives it
            inputs = _agreed_arguments([args for _, args in calls])
        if not calls and not both:  # an input no task gives, every task that runs the file known
            inputs = {**_absent(self.runs_of.get(self.paths[i], []), links.inputs), **inputs}
        bound_inputs = tuple(sorted((k, v) for k, v in inputs.items() if k in links.inputs))
        # and those the modules it imports load, when they give values: those may be
        # a document's (`CONFIG = yaml.safe_load(...)` at a module's top level), kept
        # out of its messages as out of the module's (a module that gives no value
        # gives nothing to mask, and its importers no reason to be read again)
        documents = self._documents(_loaded(links.documents, (self.links[t] for t in imported if self._exports(t))))
        # the file's own path when its code loads documents: its first reading may have
        # placed `__file__` by the path shown, relative to the working directory
        given = value_functions or documents or links.documents
        return Context(
            tuple(sorted(values.items())),
            tuple(sorted(session.items())),
            bound_inputs,
            pipeline,
            tuple(
                (name, module, source, _start(self.paths[i], module, start))
                for name, (module, source, start) in sorted(helpers.items())
            ),
            variants=variants,
            value_functions=tuple((name, *found) for name, found in sorted(value_functions.items())),
            documents=documents,
            path=self.paths[i] if given else "",
            scopes=scopes,
            exits=self._exits(i, links),
            task_values=self._task_values(i, links),
            clients=tuple(sorted(set(clients))),
            procedures=self._procedures(i, links),
            # as when it gave no links: its reading as job code gave them, and a context
            # without this would read it as a pipeline's source (or a test) alone again
            scheduled=self._scheduled_test(i) or both,
        )

    def _procedures(self, i: int, links: Links) -> tuple[tuple[str, str, ProcedureDef], ...]:
        """The definitions of the procedures file i CALLs and another file defines
        (`Links.procedures`), each with the name the CALL gives and the defining
        file's path relative to file i's folder: by qualified name; else, for a name the CALL leaves less qualified
        (`CALL load()` where no `USE` says the schema), the one definition whose name
        ends in it. A name two files define differently (another text, or the same
        text under another `USE`) is not given: which one runs depends on which was
        created last. The file's own definition is given when no other file has one:
        a CALL above its CREATE runs what the script's last run made."""
        if not links.calls:
            return ()
        if self._defined is None:
            self._defined = {}
            for j, other in enumerate(self.links):
                for made in other.procedures if other is not None else ():
                    self._defined.setdefault(made[0], []).append((j, made))
        out = []
        calls, asked = list(links.calls), set(links.calls)
        for name in calls:
            found = self._defined.get(name)
            if found is None:
                tail = "." + name
                ends = [k for k in self._defined if k.endswith(tail)]
                found = self._defined[ends[0]] if len(ends) == 1 else None
            # another file's definition; else the file's own, for a CALL that runs before
            # its CREATE (a script run again calls what its last run made)
            found = [(j, made) for j, made in found or () if j != i] or [(j, m) for j, m in found or () if j == i]
            # one definition: the same text meeting the same catalog and schema
            if len({(made[1], made[4], made[5]) for _, made in found}) != 1:
                continue
            j, made = found[0]
            out.append((name, posixpath.relpath(self.paths[j], posixpath.dirname(self.paths[i]) or "."), made))
            # what its body CALLs of other files' procedures is given too (bounded: each name once)
            for nested in self.links[j].calls if self.links[j] is not None else ():
                if nested not in asked and len(asked) < MAX_GIVEN_PROCEDURES:
                    asked.add(nested)
                    calls.append(nested)
        return tuple(sorted(out))

    def _named_helpers(
        self, helpers: dict[str, tuple[str, str, tuple[int, int] | None]], names: str
    ) -> tuple[dict[str, tuple[str, str, tuple[int, int] | None]], int]:
        """The helpers a file's code may call: those whose name (the last part of the
        name it has there: `f` of `util.f` and of `pkg/io.py::f`) is among the words
        of its code, and, in turn, among the words of a helper kept. Words of strings
        and comments count too, so the set holds every helper a call could reach
        (`foreachBatch(save)`, a method of a class named): a helper left out is one no
        code of the file or of its kept helpers names. The file is then read, and
        keyed in the cache, with those alone: editing a helper re-reads the files that
        name it, and a file is not read with the dozens of functions a shared `%run`
        notebook defines when it calls two of them. A class kept is given with the
        methods such words name (see `_ClassPieces`): only those methods' words count
        in turn.

        Within `MAX_HELPER_TEXT` characters of their text: a helper that names many
        others (a client whose `__init__` makes an object of every API class, a
        dispatch table) would give every file that names it a whole library, read
        again in each. The helpers are taken by how near the file's own words name
        them (those its code names, then those these name, ...), in the order of
        their names within one step; those past the budget are left out, and their
        count returned (0: none), for a note."""
        by_name: dict[str, list[str]] = {}  # the name a helper is called by -> the helpers
        for bound in helpers:
            by_name.setdefault(bound.rsplit(SCOPED, 1)[-1].rsplit(".", 1)[-1], []).append(bound)
        kept: set[str] = set()
        # a class's methods by name, registered when the class is kept; and the
        # methods kept of each class, by its source (the same class offered under
        # several names is pasted once, so it is cut once)
        methods: dict[str, list[tuple[str, _Method]]] = {}
        cut: dict[str, set[str]] = {}
        counted: set[str] = set()  # the sources whose text counts already
        size = 0
        left: set[tuple[str, str]] = set()  # helpers and methods left out past the budget
        seen = set(names.split())
        level = sorted(word for word in seen if word in by_name)
        following: list[str] = []  # the words the next step takes helpers by

        def take(words: Iterable[str]) -> None:
            for word in words:
                if word not in seen:
                    seen.add(word)
                    if word in by_name or word in methods:
                        following.append(word)

        while level:
            following.clear()
            for word in level:
                for bound in sorted(by_name.get(word, ())):
                    if bound in kept:
                        continue
                    source = helpers[bound][1]
                    pieces = self._pieces_of(source)
                    cost = 0 if source in counted else len(source) if pieces is None else pieces.size
                    if size + cost > MAX_HELPER_TEXT:
                        left.add((bound, ""))
                        continue
                    size += cost
                    counted.add(source)
                    kept.add(bound)
                    if pieces is None:
                        take(self._words_of(source))
                        continue
                    cut.setdefault(source, set())
                    take(pieces.always)
                    for method in pieces.methods:
                        methods.setdefault(method.name, []).append((source, method))
                        if method.name in seen:
                            following.append(method.name)
                for source, method in methods.pop(word, ()) if word in seen else ():
                    if method.name in cut[source]:
                        continue
                    if size + method.size > MAX_HELPER_TEXT:
                        left.add((source, method.name))
                        continue
                    size += method.size
                    cut[source].add(method.name)
                    take(method.words)
            level = sorted(set(following))
        out = {}
        texts: dict[str, str] = {}  # a class offered under several names: one text
        for bound, (module, source, start) in helpers.items():
            if bound in kept:
                pieces = self._pieces_of(source)
                if pieces is not None and source not in texts:
                    texts[source] = pieces.text(cut[source])
                out[bound] = (module, texts[source] if pieces is not None else source, start)
        return out, len(left)

    def _pieces_of(self, source: str) -> _ClassPieces | None:
        """A class helper's methods apart (see `_ClassPieces`), once a linker per source."""
        if source not in self._pieces:
            shape = self._shapes.get(source)
            self._pieces[source] = _ClassPieces.of(source, shape) if shape else None
        return self._pieces[source]

    def _words_of(self, source: str) -> frozenset[str]:
        found = self._words.get(source)
        if found is None:
            found = self._words[source] = frozenset(source_words(source))
        return found

    def _task_values(self, i: int, links: Links) -> tuple[tuple[str, str, tuple[object, ...]], ...]:
        """The values file i's `taskValues.get(taskKey, key)` calls may read: (task,
        key, values). Where a job that runs file i has a task of that key, the values
        the notebooks of that task set (none: not known); else every value the
        project's notebooks set the key to. A set whose key is not known may set any
        key: the key's values are then not known (None among them)."""
        if not links.task_value_reads:
            return ()
        if self._set_values is None:
            self._set_values = {}
            for at, other in enumerate(self.links):
                for key, values in other.task_values.items() if other is not None else ():
                    self._set_values.setdefault(key, []).extend((at, v) for v in values)
        tasks: dict[str, set[str]] = {}  # task key -> its files, in the jobs that run file i
        for job in self.workflows.jobs.values() if self.workflows is not None else ():
            if any(self.paths[i] in task.files for task in job.tasks.values()):
                for task in job.tasks.values():
                    tasks.setdefault(task.key, set()).update(task.files)
        out = []
        for task, key in dict.fromkeys(tuple(r) for r in links.task_value_reads):
            setters = tasks.get(task)
            found: list[object] = []
            for at, value in self._set_values.get(key, []):
                if (setters is None or self.paths[at] in setters) and value not in found:
                    found.append(value)
            if found and any(setters is None or self.paths[at] in setters for at, _ in self._set_values.get("", [])):
                found.append(None)  # a set of a key not known here may set this one
            if found:
                out.append((task, key, tuple(found)))
        return tuple(out)

    def _exits(self, i: int, links: Links) -> tuple[tuple[str, object], ...]:
        """What each notebook file i runs with `dbutils.notebook.run` hands back, by
        the path as the call gives it (relative to file i, as a `%run` path is): the
        callee's `Links.exit`, or unknown with the reason (no such notebook in the
        project, a notebook that exits with no value)."""
        out: dict[str, object] = {}
        for path, _ in links.notebooks:
            child = self.notebook(self.paths[i], path)
            if child is None:
                out[path] = {"unknown": f"no notebook {path} in the project"}
                continue
            found = self.links[child].exit if self.links[child] is not None else None  # type: ignore[union-attr]
            out[path] = found if found is not None else {"unknown": f"{self.paths[child]} exits with no value"}
        return tuple(sorted(out.items()))

    def _scopes(
        self, imported: list[int], helpers: dict, classes: set[str], value_functions: dict
    ) -> tuple[tuple[str, tuple[tuple[str, object], ...]], ...]:
        """The module scope of each project module whose functions file i may call,
        directly or through the modules' own imports (to `MAX_IMPORT_DEPTH`, at most
        `MAX_SCOPES` modules): its top-level values, returned; and into `helpers`,
        every function that may write by the name its own module calls it
        (`path::name`), so a helper read at a call here resolves the names of its
        own module, not of file i. An object of the module's own class among its
        values names that class by `path::name` too (see `_object`), its class's name
        into `classes`; and into `value_functions`, the value functions its imports
        bind that its code calls, by `path::bound` (a helper of the module pasted in
        file i evaluates `fully_qualified_table(name)` as its module imports it)."""
        out: dict[str, tuple[tuple[str, object], ...]] = {}
        todo = [(t, 0) for t in dict.fromkeys(imported)]
        while todo and len(out) < MAX_SCOPES:
            target, depth = todo.pop(0)
            path = self.paths[target]
            if path in out or self.links[target] is None:
                continue
            exports, own, theirs, further, values = self._scope(target)
            value_functions.update(values)
            prefix = f"{path}{SCOPED}"
            out[path] = tuple((k, self._object(v, target, prefix, helpers, classes)) for k, v in exports)
            helpers.update(own)
            if depth + 1 < MAX_IMPORT_DEPTH:
                helpers.update(theirs)
                todo.extend((found, depth + 1) for found in further)
        return tuple(sorted(out.items()))

    def _scope(self, target: int) -> tuple[tuple[tuple[str, object], ...], dict, dict, list[int], dict]:
        """What module `target` gives `_scopes`, worked out once a run (every file
        that imports it, directly or not, asks again): its top-level values; its own
        helpers by `path::name`; the helpers its imports bind, by the name it calls
        them (`path::bound`); the project modules those imports name, in order; and
        its own value functions and those of the modules it imports that its code
        calls, by `path::name` and `path::bound` (as `context` gives a file its own:
        module, function, the module's source)."""
        found_scope = self._scoped.get(target)
        if found_scope is not None:
            return found_scope
        path = self.paths[target]
        links = self.links[target]
        assert links is not None
        own = self._helpers_of(target, f"{path}{SCOPED}")
        theirs: dict[str, tuple[str, str, tuple[int, int] | None]] = {}
        further: list[int] = []
        values = {f"{path}{SCOPED}{f}": (path, f, links.value_source) for f in links.value_functions}
        for module, name, bound in links.imports:
            found = self.module(path, module)
            if found is None:
                continue
            for function in self._value_functions(found):  # `f(...)` of `from m import f`, `m.f(...)` of `import m`
                called = bound if name == function else f"{bound}.{function}" if name == "" else None
                if called is not None and called in links.value_calls:
                    source = self.links[found].value_source  # type: ignore[union-attr]
                    values[f"{path}{SCOPED}{called}"] = (self.paths[found], function, source)
            if name in self._functions(found):
                theirs[f"{path}{SCOPED}{bound}"] = self._helpers_of(found)[name]
            elif name == "":
                theirs.update(self._helpers_of(found, f"{path}{SCOPED}{bound}."))
            elif name == "*":
                theirs.update(self._helpers_of(found, f"{path}{SCOPED}"))
            elif name not in self._exports(found):  # `from package import module`
                sub = self.module(path, f"{module}.{name}" if module.strip(".") else module + name)
                if sub is not None:
                    theirs.update(self._helpers_of(sub, f"{path}{SCOPED}{bound}."))
                    further.append(sub)
                    continue
            further.append(found)
        found_scope = self._scoped[target] = (tuple(sorted(links.exports.items())), own, theirs, further, values)
        return found_scope

    def _object(self, value: object, target: int, prefix: str, helpers: dict, classes: set[str]) -> object:
        """A value module `target` exports as file i is given it: an object crossing
        with its class (`OBJECT_KEY`, `DEFAULT = LakeConfig()`) names the class by
        `prefix` + its name (`path::LakeConfig`, the module's own name for it, so no
        class of file i of the same name is taken for it) and gives file i that class
        into `helpers`, its name into `classes` (the words that keep a helper: see
        `_named_helpers`); where the module gives no such class, the object is the
        dict of its text attributes (`object_fields`). Any other value as it is."""
        if not (isinstance(value, dict) and set(value) == {OBJECT_KEY}):
            return value
        found = value[OBJECT_KEY]
        cls = found[0] if isinstance(found, list) and len(found) == 2 and isinstance(found[0], str) else ""
        given = self._helpers_of(target, prefix) if cls else {}
        if prefix + cls not in given:
            return object_fields(value)
        helpers[prefix + cls] = given[prefix + cls]
        classes.add(cls)
        return {OBJECT_KEY: [prefix + cls, found[1]]}

    def _imports(self, i: int, links: Links) -> list[tuple[str, str, str]]:
        """File i's imports, a module imported by a template of its name
        (`importlib.import_module(f"pkg.{step}")`, recorded under the template, see
        `Walker.module_call`) as each project module the template can name, by that
        name (`registries.module_pattern`), file i itself left out (the entry that
        imports the others): none past MAX_ALTERNATIVES, where the call's reading
        says the name is not known."""
        out: list[tuple[str, str, str]] = []
        for module, name, bound in links.imports:
            matches = module_pattern(module) if "{" in module and name == "" and bound == module else None
            if matches is None:
                out.append((module, name, bound))
                continue
            found = [
                dotted
                for dotted, at in self._dotted_modules()
                if at != i and matches(dotted) and self.module(self.paths[i], dotted) == at
            ]
            if len(found) <= MAX_ALTERNATIVES:
                out.extend((dotted, "", dotted) for dotted in found)
        return out

    def _dotted_modules(self) -> list[tuple[str, int]]:
        """Every dotted name an absolute import could give each project module by
        (`src/pkg/load_a.py`: `load_a`, `pkg.load_a`, `src.pkg.load_a`), made once a
        run and only for a file that imports a module by a template of its name."""
        if self._dotted is None:
            self._dotted = []
            for at, path in enumerate(self.paths):
                if not path.endswith(".py"):
                    continue
                parts = path[:-3].split("/")
                if parts[-1] == "__init__":
                    parts.pop()
                self._dotted.extend((".".join(parts[k:]), at) for k in range(len(parts)))
        return self._dotted

    def _members(self, target: int, links: Links, helpers: dict, classes: set[str]) -> dict[str, object]:
        """What a module imported whole gives the importer under its name
        (`import config`, `from pkg import conf`): every top-level value its summary
        exports, so `config.settings["t"]` and `config.Env.TABLE` (a class's
        attributes) read the module's own values; an object the importer's code
        names crosses with its class (`names.DEFAULT.table("x")`, see `_object`),
        one it does not name as its text attributes."""
        out: dict[str, object] = {}
        prefix = f"{self.paths[target]}{SCOPED}"
        for k, v in self._exports(target).items():
            if isinstance(v, dict) and set(v) == {OBJECT_KEY}:
                crossed = self._object(v, target, prefix, helpers, classes) if _names(links, k) else None
                if isinstance(crossed, dict) and set(crossed) == {OBJECT_KEY}:
                    out[k] = crossed
                continue
            out[k] = v
        return out

    def _module_functions(self, target: int, bound: str, links: Links) -> dict[str, tuple[str, str, str]]:
        """The value functions of a module imported whole that the importer calls by
        the module's name (`names.table_name(...)`, `conf.build_name(...)` of `from
        pkg import conf`): `bound.function` -> (module, function, its source)."""
        out = {}
        for function in self._value_functions(target):
            if f"{bound}.{function}" in links.value_calls:
                source = self.links[target].value_source  # type: ignore[union-attr]
                out[f"{bound}.{function}"] = (self.paths[target], function, source)
        return out

    def _value_functions(self, i: int) -> list[str]:
        links = self.links[i]
        return links.value_functions if links is not None else []

    def _documents(self, wanted: list[str]) -> tuple[tuple[str, object], ...]:
        """The project documents a file's code loads, as plain values (those that
        cannot be read are left out: the code's value stays unknown)."""
        if self.read_document is None:
            return ()
        out = []
        listed: list[str] = []  # the documents a listing names, given with it (`values.listing`)
        for path in wanted[:MAX_DOCUMENTS]:
            value = self.read_document(path)
            if value is not None:
                out.append((path, value))
                listed.extend(listed_documents(path, value))
        given = {path for path, _ in out}
        for path in [p for p in dict.fromkeys(listed) if p not in given][:MAX_DOCUMENTS]:
            value = self.read_document(path)
            if value is not None:
                out.append((path, value))
        return tuple(out)

    def _defaults(self, path: str) -> dict[str, str]:
        """The literal defaults of the widgets the file `path` creates (empty when it is
        not one of the run's files)."""
        i = self.index.get(path)
        links = self.links[i] if i is not None else None
        return links.defaults if links is not None else {}

    def _variants(self, path: str, reads: list[str], agreed: dict[str, str]) -> tuple:
        """The values the tasks that run a file give it where they differ, one set per
        task (`--task_key {{task.name}}`): the file is read once for each; none when
        a task gives a value only known at run time, or past MAX_VARIANTS."""
        runs = self.runs_of.get(path, [])
        # an input no task gives (its widget's default, or unknown) does not tell runs apart
        wanted = [n for n in reads if n not in agreed and any(n in given for given in runs)]
        if len(runs) < 2 or not wanted:
            return ()
        out = set()
        for given in runs:
            if any(given.get(n) is None for n in wanted):
                return ()
            out.add(tuple((n, given[n]) for n in wanted))
        return tuple(sorted(out)) if 1 < len(out) <= MAX_VARIANTS else ()

    def _exports(self, i: int) -> dict[str, object]:
        links = self.links[i]
        return links.exports if links is not None else {}

    def _clients(self, i: int) -> dict[str, str]:
        links = self.links[i]
        return links.clients if links is not None else {}

    def _functions(self, i: int) -> dict[str, str]:
        links = self.links[i]
        return links.functions if links is not None else {}

    def _helpers_of(self, i: int, prefix: str = "") -> dict[str, tuple[str, str, tuple[int, int] | None]]:
        """File i's functions that may write, by the name they are called (`prefix` +
        their own): its path, their source and where they start in it."""
        links = self.links[i]
        if links is None:
            return {}
        starts = links.function_lines
        for f, shape in links.methods.items():
            if f in links.functions:
                self._shapes[links.functions[f]] = shape
        return {prefix + f: (self.paths[i], src, starts.get(f)) for f, src in links.functions.items()}

    def _runs(self, i: int, values: dict, session: dict, helpers: dict, classes: set[str]) -> None:
        """What the notebooks `%run` by file i define and leave, in the order they run,
        each after the notebooks it runs itself.

        Each notebook always leaves the same names, so only its last run counts: the
        notebooks are applied in the order of their last run. That order is the
        reverse of their first appearance in the run sequence read backwards, which
        one walk finds remembering the notebooks it has seen; a notebook is walked
        again only from a shallower include (where `MAX_RUN_DEPTH` lets more of its
        own includes through). So notebooks that `%run` each other cost each of their
        `%run` lines at most `MAX_RUN_DEPTH` times, where following every path of
        includes grew exponentially with the notebooks of a cycle."""
        shallowest = {i: -1}  # notebook -> the least depth it was walked from (never file i itself)
        last_first: list[int] = []  # notebooks by their last run, latest first

        def walk(at: int, level: int) -> None:
            links = self.links[at]
            if links is None or level >= MAX_RUN_DEPTH:
                return
            for text in reversed(links.runs):
                target = self.notebook(self.paths[at], run_target(text))
                if target is None or shallowest.get(target, MAX_RUN_DEPTH + 1) <= level + 1:
                    continue
                if target not in shallowest:
                    last_first.append(target)
                shallowest[target] = level + 1
                walk(target, level + 1)

        walk(i, 0)
        for target in reversed(last_first):
            included = self.links[target]
            if included is not None:  # (one namespace: an object's class by its own name)
                values.update((k, self._object(v, target, "", {}, classes)) for k, v in included.exports.items())
                session.update(included.session)
                helpers.update(self._helpers_of(target))

    def module_names(self) -> frozenset[str]:
        """Every name an import can give the last part of to find a project module
        (see `module`): the stem of each `.py` file, the folder of each `__init__.py`."""
        if self._module_names is None:
            names = set()
            for path in self.paths:
                folder, _, name = path.rpartition("/")
                if name == "__init__.py":
                    names.add(folder.rpartition("/")[2])
                elif name.endswith(".py"):
                    names.add(name[:-3])
            self._module_names = frozenset(names)
        return self._module_names

    def notebook(self, importer: str, target: str) -> int | None:
        """The project file a `%run` path names: relative to the including notebook,
        or a workspace path matched by its longest tail inside the project."""
        if not target:
            return None
        unknown_folder = target.startswith(UNKNOWN_FOLDER)
        if unknown_folder:  # `f"{base}/jobs/child"`: its known tail
            target = target[len(UNKNOWN_FOLDER) :]
            if not target.startswith("/"):
                return None
        if target.startswith("/"):
            # only tails no longer than the project's deepest path can name one of its
            # files: a `%run` of a path of 100,000 folders tries a few tails, not all
            parts = [p for p in posixpath.normpath(target).split("/") if p]
            starts = range(max(0, len(parts) - self._deepest), len(parts))
            for start in starts:
                found = self._file("/".join(parts[start:]), _NOTEBOOK_SUFFIXES)
                if found is not None:
                    return found
            # a literal path's name alone names no file in another folder (`/Shared/config`
            # is not `etl/config.py`); a folder only a run knows has only its known tail
            return self._ending(parts, starts if unknown_folder else starts[: len(parts) - 1 - starts.start])
        return self._file(posixpath.join(posixpath.dirname(importer), target), _NOTEBOOK_SUFFIXES)

    def _ending(self, parts: list[str], starts: range) -> int | None:
        """The one project file whose path ends with the longest tail of a workspace
        path, when no path *is* that tail: the project was checked from another
        folder (`delta-lint check notebooks/` from the repository, or from outside
        it), so its paths carry folders the workspace path does not. None when
        several files end with the longest tail that any file ends with: which one
        the workspace holds only a deployment tells. `starts`: the tails tried."""
        if not parts or not starts:
            return None
        if self._notebook_stems is None:
            self._notebook_stems = {}
            for i, path in enumerate(self.paths):
                stem = next((path[: -len(s)] for s in _NOTEBOOK_SUFFIXES if s and path.endswith(s)), path)
                self._notebook_stems.setdefault(stem.rpartition("/")[2], []).append((stem, i))
        named = self._notebook_stems.get(parts[-1], [])
        for start in starts:
            tail = "/" + "/".join(parts[start:])
            found = {i for stem, i in named if ("/" + stem).endswith(tail)}
            if found:
                return found.pop() if len(found) == 1 else None
        return None

    def module(self, importer: str, module: str) -> int | None:
        """The project file a Python import names: relative imports from the
        importer's package, absolute ones from the importer's folder or any folder
        above it (a `src/` layout, a notebook's `sys.path.append` of its own folder)."""
        key = (posixpath.dirname(importer), module)
        if key not in self._modules:
            self._modules[key] = self._module(*key)
        return self._modules[key]

    def _module(self, folder: str, module: str) -> int | None:
        """`module` of an importer in `folder`."""
        level = len(module) - len(module.lstrip("."))
        dotted = module.lstrip(".").replace(".", "/")
        if level:
            for _ in range(level - 1):
                folder = posixpath.dirname(folder)
            bases = [folder]
        else:
            bases = []
            while True:
                bases.append(folder)
                if not folder:
                    break
                folder = posixpath.dirname(folder)
        for base in bases:
            stem = posixpath.join(base, dotted) if dotted else base
            found = self._file(stem, (".py",)) if dotted else None
            if found is None:
                found = self._file(posixpath.join(stem, "__init__"), (".py",))
            if found is not None:
                return found
        if dotted and not level:  # a package of the project installed on the cluster (`src/pkg/...`)
            tails = (f"/{dotted}.py", f"/{dotted}/__init__.py")
            last = dotted.rsplit("/", 1)[-1]
            found_in = [i for i in self._named(last) if self.paths[i].endswith(tails)]
            if len(found_in) == 1:
                return found_in[0]
        return None

    def _named(self, module: str) -> list[int]:
        """Files that can be module `module` (`module.py`, `module/__init__.py`)."""
        if self._by_name is None:
            self._by_name = {}
            for i, path in enumerate(self.paths):
                parts = path.rsplit("/", 2)
                name = parts[-1][:-3] if parts[-1].endswith(".py") else None
                if name == "__init__" and len(parts) > 1:
                    name = parts[-2]
                if name:
                    self._by_name.setdefault(name, []).append(i)
        return self._by_name.get(module, [])

    def _file(self, stem: str, suffixes: Iterable[str]) -> int | None:
        stem = posixpath.normpath(stem)
        for suffix in suffixes:
            found = self.index.get(stem + suffix)
            if found is not None:
                return found
        return None


class _Overlay(Sequence):
    """The files' links with some of them replaced (see `Linker._view`)."""

    def __init__(self, under: Sequence[Links | None], over: dict[int, Links | None]) -> None:
        self.under, self.over = under, over

    def __len__(self) -> int:
        return len(self.under)

    def __getitem__(self, j):  # type: ignore[override]
        return self.over[j] if j in self.over else self.under[j]


def _giftless(links: Links | None) -> Links | None:
    """A file's links with what it asks of others and nothing it gives them: no
    values (nor the documents its values come from), session, helpers, value
    functions, clients, exit value, task values, nor its children's arguments (its
    procedures are their text: kept)."""
    if links is None:
        return None
    return replace(
        links,
        exports={},
        session={},
        functions={},
        function_lines={},
        methods={},
        value_functions=[],
        value_source="",
        clients={},
        exit=None,
        task_values={},
        notebooks=[(path, {}) for path, _ in links.notebooks],
    )


def _names(links: Links, name: str) -> bool:
    """Whether a file's code may name `name` (see `Links.names`; unknown: it may)."""
    return links.names is None or name in links.names.split()


def _start(importer: str, module: str, start: tuple[int, int] | None) -> tuple[str, int, int] | tuple[()]:
    """Where a helper of `module` starts, as its readers at a call name it: the module's
    path relative to the importer's folder (the reader knows its own path as shown,
    which may differ from the configuration root's), its line and column shift."""
    if start is None:
        return ()
    return (posixpath.relpath(module, posixpath.dirname(importer) or "."), start[0], start[1])


_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)")


def _loaded(own: list[str], modules: Iterable[Links | None]) -> list[str]:
    """The documents a file's code loads, then those its imported modules load
    (each once, in that order)."""
    out = dict.fromkeys(own)
    for links in modules:
        out.update(dict.fromkeys(links.documents if links is not None else ()))
    return list(out)


def _function_name(source: str) -> str | None:
    m = _DEF.match(source)
    return m.group(1) if m else None


def _with_defaults(runs: list[dict[str, str | None]], defaults: dict[str, str]) -> list[dict[str, str | None]]:
    """The values each run gives a file, with the file's widget defaults for the
    widgets a run leaves out (a job that gives `catalog` and one that runs the same
    notebook with none, its widget's default the same text: one value, one table).
    A run that gives some inputs and not others only when the file has defaults."""
    if not defaults:
        return runs
    return [{**{k: v for k, v in defaults.items() if k not in given}, **given} for given in runs]


def _agreed(seen: dict[str, list[dict[str, str | None]]]) -> dict[str, dict[str, str]]:
    """file -> the job inputs every task that runs it gives the same value. An
    input two tasks give different known values stays a parameter: those runs write
    different tables or rows (`_variants` reads the file once per set of them). One
    that a run gives a value only the run knows (a for_each's `{{input}}` over
    values read at run time), or that some runs give and others leave to the
    widget's default, is `RUN_TIME_INPUT`: a named input, never the default."""
    out: dict[str, dict[str, str]] = {}
    for file, runs in seen.items():
        agreed = {}
        for name in set().union(*runs):
            values = {r.get(name) for r in runs}
            if len(values) == 1 and None not in values:
                agreed[name] = values.pop()
            elif None in values and any(r.get(name, _ABSENT) is not _ABSENT for r in runs):
                agreed[name] = RUN_TIME_INPUT
        if agreed:
            out[file] = agreed
    return out


_ABSENT = object()  # an input a run does not give (its widget's default holds)


def _absent(runs: list[dict[str, str | None]], reads: Iterable[str]) -> dict[str, str]:
    """The inputs a file reads as `input or "dflt"` (`DEFAULTED`) that none of its runs
    gives (`runs`: every task's that runs it, widget defaults filled in):
    `ABSENT_INPUT`, so the `or` reads as the default (see
    `ValueResolver._first_true`). None when no task runs it."""
    if not runs:
        return {}
    read = set(reads)
    return {
        name: ABSENT_INPUT for name in read if DEFAULTED + name in read and all(name not in given for given in runs)
    }


def _agreed_arguments(calls: list[dict[str, str]]) -> dict[str, str]:
    """What every call of a child notebook gives it: each argument all calls give
    alike; a dict several calls give as JSON (`json.dumps(conf)`, see `JSON_INPUT`)
    key by key, each key the calls give alike (the others not known: a key one call
    sets from its loop's item, `url` of `"https://" + row.host`, does not make the
    keys they agree on unknown too)."""
    out: dict[str, str] = {}
    for name in set.intersection(*(set(args) for args in calls)) if calls else ():
        texts = {args[name] for args in calls}
        if len(texts) == 1:
            out[name] = texts.pop()
            continue
        if not all(t.startswith(JSON_INPUT) for t in texts):
            continue
        try:
            dicts = [json.loads(t[len(JSON_INPUT) :]) for t in sorted(texts)]
        except (ValueError, RecursionError):
            continue
        if not all(isinstance(d, dict) for d in dicts):
            continue
        keys = set.intersection(*(set(d) for d in dicts))
        fields = {k: dicts[0][k] if all(d[k] == dicts[0][k] for d in dicts) else None for k in sorted(keys)}
        if any(v is not None for v in fields.values()):
            out[name] = JSON_INPUT + json.dumps(fields, separators=(",", ":"))
    return out


def _components(
    start: set[int], marked: set[int], sources: Callable[[int], set[int]]
) -> tuple[list[tuple[int, ...]], dict[tuple[int, ...], bool]]:
    """The cycles of `sources` reachable from `start` (Tarjan's strongly connected
    components, without recursion: a chain of ten thousand modules is a stack of
    ten thousand frames), each the files of one, in the order every component
    comes after those it reaches; and whether a file of `marked` lies in a
    component below each one (reached from it, not in it), or in it beside a file
    not of `start`."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    edges: dict[int, list[int]] = {}
    order: list[tuple[int, ...]] = []
    of: dict[int, tuple[int, ...]] = {}  # file -> its component
    below: dict[tuple[int, ...], bool] = {}
    for root in sorted(start):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, at = work.pop()
            if at == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
                edges[node] = sorted(sources(node))
            for k in range(at, len(edges[node])):
                nxt = edges[node][k]
                if nxt not in index:
                    work.append((node, k + 1))
                    work.append((nxt, 0))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    component = tuple(sorted(members))
                    for member in component:
                        of[member] = component
                    below[component] = any(
                        of[nxt] is not component and (below[of[nxt]] or any(j in marked for j in of[nxt]))
                        for member in component
                        for nxt in edges[member]
                    ) or any(j in marked and j not in start for j in component)
                    order.append(component)
                if work:  # back in the caller: the child's low link counts there
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return order, below
