"""What a Python module gives other files and needs from them: its `Links`.

The link stage joins files on these summaries (a file that `%run`s or imports
another reads its values, helpers and session; a job made in code is scheduled
like one in a bundle), so they are read once the analyzer (`python.PythonAnalyzer`,
this module's `Host`) has walked the file: its top-level values, the session it
leaves, its imports, the job inputs and project documents it reads, the notebooks
it runs, the helpers and classes other files may call (with where they stand),
its value functions and the Databricks SQL clients it holds. Nothing here makes
an intent.
"""

from __future__ import annotations

import ast
from typing import Protocol

from delta_lint.frontend.handoffs import VALUE_WORD, free_names, not_called_here
from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.pydefinitions import calls_injected
from delta_lint.frontend.pysites import LineMap, SourceSites
from delta_lint.frontend.pyvalues import exported_object, exported_value
from delta_lint.frontend.registries import Registries, dispatched
from delta_lint.frontend.sql import Session
from delta_lint.frontend.values.resolver import held_dicts
from delta_lint.frontend.values.sources import is_value_function, module_source
from delta_lint.frontend.values.walker import Walker, is_config_class
from delta_lint.frontend.warehouse import module_clients
from delta_lint.model import ClassShape, Links, PooledRun, digest, source_words, without_imports


class Host(Protocol):
    """What `module_links` reads from the analyzer that walked the file."""

    session: Session
    memo: FrontEndMemo
    module_env: dict[str, object]
    classes: dict[str, ast.ClassDef]
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    imports: list[tuple[str, str, str]]
    inputs_read: set[str]
    widget_defaults: dict[str, str]
    job_definitions: list[dict]
    notebook_runs: list[tuple[str, dict[str, str]]]
    pooled_notebook_runs: list[PooledRun]
    task_value_reads: set[tuple[str, str]]
    value_calls: set[str]
    documents_wanted: set[str]
    line_map: LineMap | None
    walker: Walker
    sites: SourceSites
    _helpers: set[str]
    _top_functions: set[str]
    _tree: ast.Module | None
    _own_lines: int  # its own code's lines: the definitions of other modules follow
    _own_source: str  # its own code, without the pasted definitions

    def _registry_of(self) -> Registries: ...


def module_links(host: Host) -> Links:
    """The module's static top-level values (for files that `%run` or import it),
    the session it leaves, what it imports and which job inputs it reads."""
    exports = {}
    shared = _shared_classes(host) if host.classes else set()
    for name, held in host.module_env.items():  # an object of a class given with it crosses with its class
        plain = exported_object(held, shared) if shared else None
        plain = plain if plain is not None else exported_value(held_dicts(held))
        if plain is not None and not name.startswith("__"):
            exports[name] = plain
    session = {k: v for k, v in (("catalog", host.session.catalog), ("schema", host.session.schema)) if v}
    links = Links(exports, session, list(dict.fromkeys(host.imports)), [], sorted(host.inputs_read))
    links.defaults = {k: v for k, v in sorted(host.widget_defaults.items()) if k in host.inputs_read}
    links.non_delta = sorted(host.session.non_delta)
    links.located = [list(x) for x in host.session.located]
    links.jobs = host.job_definitions
    links.notebooks = list(host.notebook_runs)
    links.pooled_notebooks = list(dict.fromkeys(host.pooled_notebook_runs))
    links.exit = host.walker.exit_value()
    links.task_values = host.walker.task_values()
    links.task_value_reads = [list(r) for r in sorted(host.task_value_reads)]
    for name in sorted((host._helpers | _factories(host)) & host._top_functions):
        text = host.sites.segment(host.functions[name])
        if text:
            links.functions[name] = text
            links.function_lines[name] = host.sites.start(host.functions[name])
    if host._tree is not None:
        own = [s for s in host._tree.body if s.lineno <= host._own_lines]
        values = [s.name for s in own if isinstance(s, ast.FunctionDef) and is_value_function(s)]
        if values:
            # the same code gives the same source: a file read again with what
            # other files give it writes it once a run
            key = digest(host._own_source)
            if key not in host.memo.value_sources:
                host.memo.value_sources[key] = module_source(ast.Module(body=own, type_ignores=[]), values)
            links.value_functions = values
            links.value_source = host.memo.value_sources[key]
    # the code but its import statements, which call nothing: what it may call a helper by
    given = host.imports or host.line_map is not None  # may be given helpers: what its code names
    code = without_imports(host._own_source) if given else ""
    if given:
        links.names = " ".join(sorted(source_words(code)))
    imported = {bound for _, _, bound in host.imports}
    # (`names.table_name` of `import names` by the module's name)
    links.value_calls = sorted(c for c in host.value_calls if c in imported or c.split(".", 1)[0] in imported)
    # a notebook's functions may come from the notebooks it `%run`s: names it never binds
    # (of its own code: the definitions of helpers other files give it are pasted after it)
    given_names = imported | (free_names(host._tree, host._own_lines) if host.line_map is not None else set())
    if host._tree is not None and given_names:
        # only where an imported name stands as a display's element or an argument:
        # one scan of the text (`load_a.run` of `from pkg import load_a` by the name
        # it is imported by)
        candidates = {m.group(1) for m in VALUE_WORD.finditer(code) if m.group(1).split(".", 1)[0] in given_names}
        if candidates:
            # a registry this module calls through (`_STEPS[step](...)`) calls its functions here
            called = dispatched(host._tree, host._registry_of().by_name)
            links.stored = not_called_here(host._tree, candidates, called)
    links.documents = sorted(host.documents_wanted)
    if host._tree is not None:
        own_tree = ast.Module(body=[s for s in host._tree.body if s.lineno <= host._own_lines], type_ignores=[])
        links.clients = module_clients(own_tree, host._own_source)
    for name, cls in host.classes.items():  # `Setup.schema(...)`, `Logger(...).start()` elsewhere
        if name in shared:
            text = host.sites.segment(cls)
            if text:
                line, shift = host.sites.start(cls)
                decorators = host.sites.decorator_lines(cls)  # `@dataclass` makes its fields
                links.functions[name] = "".join(d + "\n" for d in decorators) + text
                links.function_lines[name] = (line - len(decorators), shift)
                shape = _class_shape(cls, len(decorators))
                if shape[1] and links.functions[name].count("\n") == cls.end_lineno - cls.lineno + len(decorators):
                    links.methods[name] = shape
    return links


def _shared_classes(host: Host) -> set[str]:
    """The file's own classes other files are given with its helpers: those with a
    method that may write, configuration classes (a dataclass, a class or static
    method factory: their objects' values are read where the importer builds
    them, see `_factory`), those that call a method of an object their builder
    gives them (`pydefinitions.calls_injected`), and the classes that derive from one of those here
    (`class OrdersLoader(BaseLoader): table = "..."`, whose object runs the
    base's writing method with its own attributes)."""
    own = {name: cls for name, cls in host.classes.items() if cls.lineno <= host._own_lines}
    shared = {
        name
        for name, cls in own.items()
        if {f.name for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))} & host._helpers
        or is_config_class(cls)
        or calls_injected(cls)  # `self.store.upsert(df)` of an object its builder gives it
    }
    grown = True
    while grown:
        derived = {
            name
            for name, cls in own.items()
            if name not in shared and any(isinstance(b, ast.Name) and b.id in shared for b in cls.bases)
        }
        shared |= derived
        grown = bool(derived)
    return shared


def _class_shape(cls: ast.ClassDef, decorators: int) -> ClassShape:
    """Where a class's methods but the dunder ones are in its text as `Links.functions`
    holds it (its decorator lines first), for the link stage to cut those a file
    does not call (see `Links.methods`)."""
    first_line = cls.lineno - decorators  # the text's first line, in the file
    spans = [
        (
            stmt.name,
            min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)]) - first_line,
            (stmt.end_lineno or stmt.lineno) - first_line + 1,
            stmt.lineno - first_line,
        )
        for stmt in cls.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not (stmt.name.startswith("__") and stmt.name.endswith("__"))
    ]
    return len(cls.body), spans


def _factories(host: Host) -> set[str]:
    """The module's top-level functions that return an object of one of its classes
    (`def resolve_env(e): return Env(e, CATALOGS[e])`, or `Env.of(e)` of a class
    method): given to importers with the
    class, as its helpers are, so `resolve_env(env).table("silver", "t")` is read
    with the object's fields and method, whatever words the factory's lines hold."""
    if not host.classes or host._tree is None:
        return set()
    registries = _registries(host._tree.body, host.classes)
    out: set[str] = set()
    for name in host._top_functions:
        fn = host.functions.get(name)
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and _gives_object(node.value, host.classes, registries):
                out.add(name)
                break
    return out


def _gives_object(value: ast.expr | None, classes: dict, registries: set[str]) -> bool:
    """`Env(...)`, `Env.of(...)`, or `REGISTRY[name]` of a module-level dict whose
    values are objects of the module's classes (a registry of table specs)."""
    if isinstance(value, ast.Call):
        return _class_named(value.func, classes)
    return isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in registries


def _registries(body: list[ast.stmt], classes: dict) -> set[str]:
    """The module-level names bound to a literal dict whose values are all objects of
    the module's classes (`REGISTRY = {"orders": TableSpec(bronze="b_orders"), ...}`)."""
    out: set[str] = set()
    for stmt in body:
        target, value = (
            (stmt.targets[0], stmt.value)
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            else ((stmt.target, stmt.value) if isinstance(stmt, ast.AnnAssign) else (None, None))
        )
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict) and value.values:
            if all(isinstance(v, ast.Call) and _class_named(v.func, classes) for v in value.values):
                out.add(target.id)
    return out


def _class_named(func: ast.expr, classes: dict) -> bool:
    """`Env(...)` or `Env.of(...)` of a class of the module."""
    held = func.value if isinstance(func, ast.Attribute) else func
    return isinstance(held, ast.Name) and held.id in classes
