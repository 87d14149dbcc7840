"""Values read out of Python code: the front end's symbol table at work.

`ValueResolver` answers "what does this expression hold here?" for the Python
front end: string building (f-strings, `.format`, `%`, `+`, `join`, arithmetic on
known integers), names bound in the scope, module and class constants, literal
lists and dicts (and the rows a loop unpacks), job inputs (widgets, argv,
argparse, environment variables), values functions return and attributes
`__init__` sets, with a call's arguments bound to a function's parameters. It
reads; it never makes intents (that is `python.PythonAnalyzer`, which owns one
and provides the file's functions, classes, module values and source: `Host`).
"""

from __future__ import annotations

import ast
import itertools
import json
import operator
import posixpath
import re
import weakref
from collections.abc import Callable, Mapping
from pathlib import PurePosixPath
from typing import Protocol

from delta_lint.frontend.frames import FrameReader
from delta_lint.frontend.pysites import SourceSites
from delta_lint.frontend.pyspark_api import BUILT_TABLE_HANDLES, DELTA_BUILDERS, TERMINALS, argument
from delta_lint.frontend.pyvalues import (
    CASE_AND_TRIM,
    DEDENT,
    NO_TEXT,
    NONE,
    TEXT_FUNCTIONS,
    TOO_LONG,
    TOO_MANY,
    UNHELD,
    ArgNamespace,
    Chain,
    DataFrame,
    Document,
    InputDoc,
    Instance,
    Scope,
    Step,
    Str,
    UnknownState,
    all_held,
    alternatives,
    argument_at,
    exported_value,
    from_plain,
    get_text,
    held_value,
    is_configs,
    is_texts,
    json_input_fields,
    literal_dict,
    may_give_text,
    member,
    merge_params,
    one_of,
    param_str,
    scalar,
    to_plain,
)
from delta_lint.frontend.values.brains import (
    ARGUMENT_PARSERS,
    DOCUMENT_LOADERS,
    EXISTS,
    JOB_INPUT_CALLS,
    JSON_DUMPS,
    JSON_LOADS,
    NAMESPACES,
    NOTEBOOK_RUN,
    PATH_EXISTS,
    TASK_VALUES_GET,
    TEXT_LOADERS,
    call_named,
    is_argv,
)
from delta_lint.frontend.values.budget import MAX_BUILT_TEXT, MAX_HELD_TEXT, MAX_TEXT, Budget
from delta_lint.frontend.values.evaluator import Evaluator, Made, Module, Opened, bound_names, document_path
from delta_lint.frontend.values.formatting import (
    PERCENT_DIRECTIVE,
    format_field,
    percent_field,
    placeholder_name,
    plain_directive,
)
from delta_lint.frontend.values.lattice import (
    ABSENT_INPUT,
    DEFAULTED,
    EACH,
    MAX_ALTERNATIVES,
    Collection,
    OneOf,
    Template,
    Unknown,
    Unordered,
    untold,
)
from delta_lint.frontend.values.listing import is_listing
from delta_lint.frontend.values.regex import Pattern
from delta_lint.frontend.values.sources import is_value_function
from delta_lint.model import SCOPED, Diagnostic, Location, TableRef
from delta_lint.predicates import param_name

# A helper is read again for each call, up to this many calls and this deep: enough
# for real job code (a packaged pipeline goes entry -> orchestrator -> adapter ->
# layer writer -> io helper, five to seven calls), and a bound on the work a generated
# file can cause. All helpers of a file together are read again at most
# MAX_HELPER_READS times, within the file's steps (see `Budget`): that is the bound on
# the work, the depth only on how deep one chain may go.
MAX_HELPER_CALLS = 64
MAX_HELPER_DEPTH = 8
# a value given up for the budget is a gap in what is read, as a statement not parsed is
BUDGET_SPENT = "DL008"


_TEXT_TESTS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)

# builtins a comprehension's sequence may be made with (`for i, n in enumerate(NAMES)`)
_ITERATORS = frozenset({"range", "enumerate", "zip", "sorted", "reversed", "list", "tuple", "dict", "set"})

# arguments of a value function the evaluator builds (`_plain_argument`)
_CONTAINERS = (ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.DictComp)
# the names a chain of path calls starts from (`pathlib.Path(...)`, `os.path.join(...)`)
PATH_ROOTS = frozenset({"pathlib", "Path", "os", "posixpath"})
# ... and the calls such a chain ends in (a path, or its text)
PATH_CALLS = frozenset(
    {"Path", "PurePath", "PosixPath", "resolve", "absolute", "joinpath", "as_posix", "with_name", "with_suffix"}
    | {"join", "dirname", "basename", "normpath", "abspath", "realpath"}
)


def _built_table(steps: list[Step]) -> Chain | None:
    """`DeltaTable.createIfNotExists(spark).tableName("s.t")...execute()` returns the
    table's DeltaTable: held as the chain `DeltaTable.forName(spark, "s.t")` would be
    (by `pyspark_api.BUILT_TABLE_HANDLES`), so a later `dt.merge(...)` or
    `dt.delete(...)` on the name writes to that table. None for any other chain, and
    for a builder that names neither a table nor a location."""
    last = steps[-1] if steps else None
    if last is None or last.name != "execute" or last.call is None or last.call.args or last.call.keywords:
        return None
    names = [s.name for s in steps]
    start = next((i for i, s in enumerate(steps) if s.name in DELTA_BUILDERS and s.call is not None), None)
    if start is None or "DeltaTable" not in names[:start]:
        return None
    opening = steps[start].call
    assert opening is not None
    session = opening.args[0] if opening.args else next((k.value for k in opening.keywords), None)
    for (method, param), (factory, _) in BUILT_TABLE_HANDLES:
        named = next((s for s in steps[start + 1 :] if s.name == method and s.call is not None), None)
        given = argument(named.call, "DeltaTableBuilder", method, param) if named and named.call else None
        if given is None:
            continue
        func = ast.Attribute(value=ast.Name(id="DeltaTable", ctx=ast.Load()), attr=factory, ctx=ast.Load())
        args = [session if session is not None else ast.Name(id="spark", ctx=ast.Load()), given]
        call = ast.fix_missing_locations(ast.copy_location(ast.Call(func=func, args=args, keywords=[]), last.call))
        return Chain((Step("DeltaTable", None, func.value), Step(factory, call, call)))
    return None


def _text_truth(text: Str) -> bool | None:
    """A string's truth where it is known: a known value's own, a known text's
    (empty or not); None for a named input (it may be empty) or a part not known."""
    if text.scalar:
        return bool(text.value)
    if text.params or text.unknown:
        return None
    return bool(text.text)


def _text_call(node: ast.expr) -> bool:
    """An expression `ValueResolver.string` reads as text itself, never handing it
    back to `_placeholder`: a str method, `str(x)`, `a or b`."""
    if isinstance(node, ast.BoolOp):
        return isinstance(node.op, ast.Or)
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name):
        return node.func.id in TEXT_FUNCTIONS and bool(node.args)
    attr = node.func.attr if isinstance(node.func, ast.Attribute) else ""
    return attr == "format" or (attr in CASE_AND_TRIM and not node.args) or (attr in DEDENT and bool(node.args))


def _partly_known(text: Str) -> bool:
    """An unknown string that still has parts the code gives (`/FileStore/{user}/x`):
    worth keeping where it is held, so a write names what is known of its table. A
    string that is only one unknown part (`{user}`) is not: where it is used, the
    expression that gives it names it better."""
    return bool(text.params) and text.text != "{" + text.params[0] + "}"


def _namespace(node: ast.expr, scope: Scope) -> bool:
    """Whether `node` is the parsed command line, whose attributes are job inputs:
    a name holding it (`args = parser.parse_args()`), or the parse itself read in
    place (`parser.parse_args().conf_file`, `parser.parse_known_args()[0].env`,
    whose second item is the arguments not declared). A parse of a list the code
    writes (`parse_args(["--env", "dev"])`) is not the task's command line."""
    if isinstance(node, ast.Name):
        return isinstance(scope.env.get(node.id), ArgNamespace)
    method = "parse_args"
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == 0:
        node, method = node.value, "parse_known_args"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and not any(isinstance(a, (ast.List, ast.Tuple)) for a in [*node.args, *(k.value for k in node.keywords)])
    )


def _asks_existence(node: ast.Call) -> bool:
    """`os.path.exists(p)` (`isfile`, `isdir`, by the last two dotted names) or
    `p.exists()` (`is_file()`, `is_dir()`): a question the evaluator answers of the
    project's files."""
    func = node.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in PATH_EXISTS and not node.args and not node.keywords:
        return True
    owner = func.value
    return (
        isinstance(owner, ast.Attribute)
        and owner.attr == "path"
        and f"os.path.{func.attr}" in EXISTS
        and len(node.args) == 1
        and not node.keywords
    )


def joined_documents(found: list[object], depth: int = 0) -> object:
    """The documents one opened path may be (see `ValueResolver._document_paths`)
    as one value: their content where they agree; where they differ, one of the
    texts (a `OneOf`), dicts key by key (a key one lacks is not known), anything
    else unknown."""
    first = found[0]
    if all(f == first for f in found[1:]):
        return first
    if depth < 16 and all(isinstance(f, dict) for f in found):
        keys = dict.fromkeys(k for f in found for k in f)  # type: ignore[union-attr]
        return {
            k: joined_documents([f[k] for f in found], depth + 1)  # type: ignore[index]
            if all(k in f for f in found)  # type: ignore[operator]
            else Unknown("a key not every document it may be holds")
            for k in keys
        }
    texts = list(dict.fromkeys(f for f in found if isinstance(f, str)))
    if len(texts) == len(set(map(repr, found))) and 1 < len(texts) <= MAX_ALTERNATIVES:
        return OneOf(tuple(texts))
    return Unknown("one of several documents that differ")


def held_dicts(held: object, depth: int = 0) -> object:
    """A held value with the project documents it holds as plain dicts, which
    other files are given key by key (`exported_value`, which also joins the dicts
    of ways that meet) and whose keys holding one of several texts a write is read
    once per text for (`member_alternatives`): `CONFIG = yaml.safe_load(...)` at a
    module's top level reaches `from conf import CONFIG` as the module holds it."""
    if depth > 16:
        return held
    if isinstance(held, Document):
        return {k: held_dicts(v, depth + 1) for k, v in held.items()}
    if type(held) is OneOf and any(isinstance(v, Document) for v in held.values):
        return OneOf(tuple(held_dicts(v, depth + 1) for v in held.values))
    return held


def _held_document(value: object) -> object:
    """A document's value as held; where documents it may be differ (a `OneOf`
    inside), as plain dicts, so that a write is read once per text (`held_dicts`)."""
    if isinstance(value, Unordered) and len(value) > 1:
        return Collection(value)  # a set, a listing: a loop reads each, an index none (`iteration`)
    held = from_plain(value)
    return held_dicts(held) if _holds_one_of(value) else held


def _holds_one_of(value: object, depth: int = 0) -> bool:
    if type(value) is OneOf:
        return True
    if isinstance(value, dict) and depth < 16:
        return any(_holds_one_of(v, depth + 1) for v in value.values())
    return False


def _reads_own_path(module: Module) -> bool:
    """Whether the module's code reads `__file__` (the paths it opens may be built from it)."""
    nodes = [*module.functions.values(), *module.assigned.values(), *module.classes.values()]
    return any(isinstance(n, ast.Name) and n.id == "__file__" for node in nodes for n in ast.walk(node))


def _is_json_loads(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "loads"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "json"
        and len(node.args) == 1
    )


def _json_strings(text: str) -> dict[str, object] | None:
    """A JSON object's string and number fields (`'{"CATALOG": "main"}'`); None when
    the text is no JSON object."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    fields = [(str(k), v) for k, v in value.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
    return {k: Str(str(v)) for k, v in fields}


def _env_default(call: ast.Call) -> str | None:
    """The literal default of `os.getenv("K", "dev")` / `os.environ.get("K", "dev")`:
    what the code reads when the job sets no such variable (delta-lint reads no
    cluster's environment variables), as a widget's default is."""
    default = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "default"), None)
    if isinstance(default, ast.Constant) and isinstance(default.value, str):
        return default.value
    return None


def _input_field_get(node: ast.expr, scope: Scope) -> bool:
    """`params.get("catalog")` of a job input's document (`InputDoc`): the same job
    input as `params["catalog"]`, wherever and however it is read."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and isinstance(scope.env.get(node.func.value.id), InputDoc)
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and not node.keywords
    )


def _dotted(func: ast.expr) -> str | None:
    """`names.table_name` of a call `names.table_name(...)`; None for any other callee."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return None


# a text's `{name}` placeholders, kept by `split` (odd items)
_FIELDS = re.compile(r"(\{[^{}]*\})")


class ObjectReader(Protocol):
    """What the statement walk (`values.walker.Walker`) tells of a call: the object it
    makes (`Cls(args)` with what its `__init__` sets, the object a method returns),
    and the imported module whose pasted definition holds a line."""

    def instance(self, call: ast.Call, scope: Scope) -> Instance | None: ...
    def returned_instance(self, call: ast.Call, scope: Scope) -> Instance | None: ...
    def home(self, line: int) -> str | None: ...
    def method_named(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None: ...


class Host(Protocol):
    """What the resolver reads from the analyzer that owns it (see `ValueResolver`)."""

    path: str
    own_path: str
    budget: Budget
    diagnostics: list[Diagnostic]
    module_env: dict[str, object]
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    classes: dict[str, ast.ClassDef]
    walker: ObjectReader
    mutated_names: frozenset[str]
    input_params: dict[str, frozenset[str]]
    bound_inputs: dict[str, str]
    inputs_read: set[str]
    widget_defaults: dict[str, str]
    task_values: dict[tuple[str, str], tuple[object, ...]]
    task_value_reads: set[tuple[str, str]]
    exits: dict[str, object]
    documents: dict[str, object]
    documents_wanted: set[str]
    value_functions: dict[str, tuple[Module, str]]
    value_calls: set[str]
    imports: list[tuple[str, str, str]]  # (module, name, bound) of each import read so far
    _scopes: dict[str, dict[str, object]]
    _homes: list[tuple[int, int, str]]  # (first line, last line, module) of each pasted definition
    _foreign_defs: dict[str, ast.stmt]  # other modules' definitions pasted here, by the name they are called
    _top_functions: set[str]
    _own_lines: int
    _tree: ast.Module | None
    line_map: object  # a notebook's cells' map of lines (None for a module or a script)
    sites: SourceSites  # where a node stands, and its text

    def flatten(self, node: ast.expr, scope: Scope) -> list[Step]: ...
    def reads(self, node: ast.expr | None, scope: Scope) -> set[TableRef]: ...


class ValueResolver:
    """Value resolution over one file (see the module docstring), a part the Python
    front end's analyzer (`Host`) owns: what one expression holds in a scope. The
    host holds the module's names, functions, classes, job inputs and documents,
    the file's budget and source, and its statement walk (`walker`, which reads
    the objects calls make and where a line's names come from)."""

    def __init__(self, host: Host) -> None:
        # weak: the host owns this resolver, and a cycle would keep the file's tree
        # alive until the garbage collector's next full pass
        self.host: Host = weakref.proxy(host)
        # a value-function call's result while a write is read once per value it may
        # hold (id of the call -> that value; see `pyalternatives.AlternativeReader`)
        self._fixed: dict[int, object] = {}
        self._value_checked: dict[str, bool] = {}  # own function -> whether it is a value function
        self._own_module: Module | None = None  # the file's value functions (see `values.evaluator`)
        self._lambda_names: frozenset[str] | None = None  # see `_top_lambdas`
        # the file's call whose helper is being read (its writes are reported there;
        # the walker sets it): where a budget note of a pasted helper's line is said
        self.site: Location | None = None
        # names modules imported whole are bound to (`import names`), and names imported
        # by name (`from pkg import conf`), as of `_whole_seen` imports
        self._whole: frozenset[str] = frozenset()
        self._by_name: frozenset[str] = frozenset()
        self._whole_seen = 0
        # id of a module evaluated here -> (it, whether its code reads `__file__`)
        self._own_path_read: dict[int, tuple[Module, bool]] = {}

    def _may_read_helper(self, call: ast.Call) -> bool:
        """Whether the budget lets a helper be read again at this call (counted); the
        first call it refuses says so."""
        if self.host.budget.read_helper():
            return True
        why = f"more than {self.host.budget.helper_reads:,} calls of helpers read"
        if any(spent.why == why for spent in self.host.budget.spent):
            return False  # said once, at the first call refused: "those bound after it" covers the rest
        self.host.budget.note(self.host.own_path, call.lineno, why, lasting=True)
        self._budget_spent(call)
        return False

    def _budget_spent(self, call: ast.AST) -> None:
        """A diagnostic for each place the budget gave a value up not said yet
        (`Budget.unsaid`): at its line in this file, or at the call when it is another
        file's code."""
        for spent in self.host.budget.unsaid():
            here = spent.module == self.host.own_path
            own = here and 0 < spent.line <= self.host._own_lines
            where = "" if own else f" (in `{spent.module}` line {spent.line})"
            if here and spent.line > self.host._own_lines:
                # in a helper of another module pasted after the file's code: said at
                # the file's call being read, in words the helper's own file and line
                where = self._pasted_at(spent.line)
                own_call = getattr(call, "lineno", 0) <= self.host._own_lines and hasattr(call, "lineno")
                loc = self.site or (
                    self.host.sites.loc(call) if own_call else Location(self.host.path, *self.host.sites.pos(1, 0))
                )
            elif own:
                loc = Location(self.host.path, *self.host.sites.pos(spent.line, 0))
            elif hasattr(call, "lineno") and call.lineno <= self.host._own_lines:  # type: ignore[attr-defined]
                loc = self.host.sites.loc(call)
            elif hasattr(call, "lineno"):
                loc = self.site or Location(self.host.path, *self.host.sites.pos(1, 0))
            else:  # said at the file's end (`call` its module): the line the note names when it is one of its own
                line = spent.line if 0 < spent.line <= self.host._own_lines else 1
                loc = Location(self.host.path, *self.host.sites.pos(line, 0))
            # the walker forgets what each statement after it binds (`Walker._stmt`)
            after = "this value and the names bound after it in the file are" if spent.lasting else "this value is"
            message = f"value not computed{where}: {spent.why}, past the analysis budget of a file; {after} unknown"
            self.host.diagnostics.append(Diagnostic(BUDGET_SPENT, loc, message, "warning"))

    def _pasted_at(self, line: int) -> str:
        """` (in `src/sqlb.py` line 11)`: where a line of a helper pasted after the
        file's code stands in its own file; empty when that is not known."""
        for first, last, module, start, _ in self.host.sites.foreign_spans:
            if first <= line <= last:
                path = posixpath.normpath(posixpath.join(posixpath.dirname(self.host.own_path), module))
                return f" (in `{path}` line {start + line - first})"
        return ""

    def _bound_call(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, scope: Scope) -> dict:
        """The module's values (the function's own module's, for a function of an
        imported module), and the function's parameters bound to the call's values
        (defaults for the rest, a named parameter where nothing is known)."""
        env = dict(self.host.module_env)
        params = fn.args.posonlyargs + fn.args.args
        positional = list(call.args)
        if params and params[0].arg in ("self", "cls"):  # `obj.m(a)`, `Cls(a)`: `a` is the next parameter
            params = params[1:]
        defaults = dict(zip([a.arg for a in params][len(params) - len(fn.args.defaults) :], fn.args.defaults))
        defaults.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        home = self.host.walker.home(fn.lineno)
        # a default is evaluated where the function is defined: for a function of an
        # imported module, in that module's top-level values (`def load(t=TABLE)` of
        # `TABLE` in its own module), never in the caller's
        own = Scope(env=self.host._scopes[home]) if home is not None and home in self.host._scopes else None
        for index, param in enumerate(params + fn.args.kwonlyargs):
            name = param.arg
            if name in ("self", "cls", "spark"):
                continue
            at = scope
            if index < len(positional) and param in params and not isinstance(positional[index], ast.Starred):
                value = positional[index]
            elif name in keywords:
                value = keywords[name]
            else:
                value = defaults.get(name)
                at = own or scope
            if value is None:
                env[name] = param_str(name)
            else:
                held = self._value(value, at, name)
                kept = (Str, Chain, DataFrame, dict, Instance, ArgNamespace, InputDoc, Collection)
                env[name] = held if isinstance(held, kept) or is_texts(held) else param_str(name)
        if fn.args.kwarg is not None and fn.args.kwarg.arg not in ("self", "cls", "spark"):
            # `def run(path, **subs)` called `run("q.sql", catalog="main")`: the keywords no
            # parameter takes, as a literal dict (unknown when the call spreads a `**mapping`)
            named = {a.arg for a in (*params, *fn.args.kwonlyargs)}
            if any(k.arg is None for k in call.keywords):
                env[fn.args.kwarg.arg] = param_str(fn.args.kwarg.arg)
            else:
                extra = [(k.arg, self._member(k.value, scope)) for k in call.keywords if k.arg not in named]
                env[fn.args.kwarg.arg] = literal_dict(extra)  # type: ignore[arg-type]
        if home is None:
            return env
        # a function of an imported module reads that module's top-level values, not this file's
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        return {**self.host._scopes[home], **{k: v for k, v in env.items() if k in params}}

    def _rows(self, node: ast.expr, scope: Scope, width: int) -> list[tuple[Str, ...]] | None:
        """The values a loop binds on each turn, when they are literal: one string
        per turn (`for t in TABLES:`), or `width` strings unpacked from literal
        tuples (`for name, kind in [("a", "STRING"), ...]:`) or from a dict's
        `.items()`."""
        if width == 1:
            maps = self._maps(node, scope) or self._map_values(node, scope)
            if maps is not None:  # `for cfg in TABLES:` of a configuration list
                return [(m,) for m in maps]
            items = self._items(node, scope)
            return [(item,) for item in items] if items is not None else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "items":
            if width != 2 or node.args:
                return None
            mapping = self._literal_map(node.func.value, scope)
            if mapping and all_held(mapping):  # every value held
                return [(Str(k), v) for k, v in mapping.items()]
            return None
        if not isinstance(node, (ast.List, ast.Tuple)) or not 0 < len(node.elts) <= 256:
            return None
        rows = []
        for element in node.elts:
            if not isinstance(element, (ast.List, ast.Tuple)) or len(element.elts) != width:
                return None
            items = self._items(element, scope)
            if items is None:
                return None
            rows.append(tuple(items))
        return rows

    def _member(self, node: ast.expr, scope: Scope) -> object:
        """A literal dict's value as held: a known string, a nested literal dict or a
        list of them (a configuration's sections), a literal list of known strings
        (which other names bound to it may change: see `values.changes`), or a
        string with known parts around a part only a run knows (`{"out":
        f"/FileStore/{user}/pred"}`, the user read from the notebook's context): it
        stays unknown, as it would bound to a name, but a write to `config["out"]`
        keeps the parts the code gives. None when no part is known."""
        if isinstance(node, ast.Dict) or (
            isinstance(node, (ast.List, ast.Tuple)) and node.elts and isinstance(node.elts[0], ast.Dict)
        ):
            held = self._value(node, scope)
            return held if isinstance(held, dict) or is_configs(held) else None
        if isinstance(node, (ast.List, ast.Tuple)):  # `{"tables": ["main.s.a"]}`: a list of names
            return self._items(node, scope)
        if isinstance(node, ast.Call) and self.host.classes:  # `{"orders": TableSpec(bronze="b_orders")}`
            instance = self.host.walker.instance(node, scope)
            if instance is not None:
                return instance
        text = self.string(node, scope)
        if type(text.value) is OneOf:  # one of a few texts: a write to it is read once per text
            return text
        return text if not text.unknown or _partly_known(text) else None

    def _maps(self, node: ast.expr, scope: Scope) -> list[dict[str, object]] | None:
        """The literal dicts a configuration list holds (`[{"name": "a"}, {"name": "b"}]`,
        or a name bound to one the code does not change in place)."""
        if isinstance(node, ast.Name):
            held = scope.env.get(node.id)
            return held if is_configs(held) and node.id not in self.host.mutated_names else None  # type: ignore[return-value]
        if isinstance(node, (ast.Subscript, ast.Call)):  # `CONF["tables"]`, `conf.get("tables")`
            root = node
            while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if isinstance(root, ast.Name) and root.id in self.host.mutated_names:
                return None
            held = self._held(node, scope)
            return held if is_configs(held) else None  # type: ignore[return-value]
        if not (isinstance(node, (ast.List, ast.Tuple)) and 0 < len(node.elts) <= 256):
            return None
        if not all(isinstance(e, ast.Dict) for e in node.elts):
            return None
        held = [self._value(e, scope) for e in node.elts]
        if all(isinstance(h, dict) for h in held):
            return held  # type: ignore[return-value]
        return None

    def _map_values(self, node: ast.expr, scope: Scope) -> list[dict[str, object]] | None:
        """`CONF.values()` of a literal dict whose every value is a literal dict."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "values"):
            return None
        mapping = self._literal_map(node.func.value, scope) if not node.args else None
        values = list(mapping.values()) if mapping is not None and all_held(mapping) else []
        if values and all(isinstance(v, dict) for v in values):
            return values  # type: ignore[return-value]
        return None

    def _literal_map(self, node: ast.expr, scope: Scope) -> dict[str, object] | None:
        """The dict a loop's `CONF.items()` / `CONF.values()` reads, unless the code
        changes it in place."""
        if isinstance(node, ast.Name) and node.id in self.host.mutated_names:
            return None
        mapping = scope.env.get(node.id) if isinstance(node, ast.Name) else self._value(node, scope)
        return mapping if isinstance(mapping, dict) else None

    def _items(self, node: ast.expr, scope: Scope) -> list[Str] | None:
        """The strings a loop runs over, when they are literal: a list, tuple or set
        of strings, a variable holding one, a literal dict's keys."""
        if isinstance(node, ast.Name):
            if node.id in self.host.mutated_names:  # `tables = []` then `tables.append(t)`: not the literal
                return None
            held = scope.env.get(node.id)
            if isinstance(held, dict):
                return [Str(k) for k in held]
            return held if is_texts(held) else None  # type: ignore[return-value]
        if isinstance(node, ast.Subscript) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
        ):  # `cfg["tables"]`, `cfg.get("tables")`: a document's list of names, as a loop reads a list of configs
            root: ast.expr = node
            while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if not isinstance(root, ast.Name) or root.id in self.host.mutated_names:
                return None
            held = self._held(node, scope)
            return held if is_texts(held) else None  # type: ignore[return-value]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            if node.func.attr == "keys":
                return self._items(node.func.value, scope)
            if node.func.attr == "values":  # `for v in CONF.values():` when every value is a known string
                mapping = self._literal_map(node.func.value, scope)
                values = list(mapping.values()) if mapping is not None else []
                if (
                    mapping is not None
                    and all_held(mapping)
                    and values
                    and all(isinstance(v, Str) and not v.unknown for v in values)
                ):
                    return values  # type: ignore[return-value]
                return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            return self._range(node, scope)
        if isinstance(node, ast.Dict) and node.keys and all(k is not None for k in node.keys):
            node = ast.List(elts=list(node.keys))
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and 0 < len(node.elts) <= 256:
            items = tuple(self.string(e, scope) for e in node.elts)
            if all(isinstance(e, _ITEM_NODES) for e in node.elts) and not any(i.unknown for i in items):
                return list(items)
        if isinstance(node, ast.Call):  # `for stmt in ddl("main", "s"):` as `stmts = ddl(...)`, `for stmt in stmts:`
            held = self._value(node, scope)
            if type(held) is Collection and isinstance(held.value, Unordered):  # a set, a listing: each item
                held = from_plain(list(held.value))
            return held if is_texts(held) else None  # type: ignore[return-value]
        return None

    def _range(self, call: ast.Call, scope: Scope) -> list[Str] | None:
        """The numbers `range(n)`, `range(a, b)` or `range(a, b, step)` runs over, when
        every bound is a known integer and it runs at least once and at most as many
        turns as a literal list may hold (a loop over it then runs once per number);
        None otherwise (the builtin shadowed, a bound only a run knows, no turn)."""
        if "range" in scope.env or "range" in self.host.functions or call.keywords or not 1 <= len(call.args) <= 3:
            return None
        bounds = [self._integer(a, scope) for a in call.args]
        if not all(type(b) is int for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
            return None
        numbers = range(*bounds)  # type: ignore[arg-type]
        try:
            turns = len(numbers)
        except OverflowError:  # `range(10**30)`: more turns than a C size holds
            return None
        held = [scalar(n) for n in numbers] if 0 < turns <= 256 else []
        return held if held and all(h is not None for h in held) else None  # type: ignore[return-value]

    def _integer(self, node: ast.expr, scope: Scope) -> object:
        """The integer an expression holds (`n`, `N + 1`, `-1`, `len(TABLES)` of a list
        the code does not change in place), else what else it holds."""
        sign = 1
        while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):  # (no recursion per `-`)
            sign, node = -sign, node.operand
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "len"
            and "len" not in scope.env
            and "len" not in self.host.functions
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id not in self.host.mutated_names
            and type(listed := scope.env.get(node.args[0].id)) is list
        ):
            return sign * len(listed)
        held = self.string(node, scope).value
        return sign * held if type(held) is int else held if sign == 1 else None

    def _copied(self, node: ast.expr, scope: Scope) -> dict | None:  # type: ignore[type-arg]
        """`dict(conf)` or `conf.copy()` of a dict a name holds: a new dict of the same
        items, so a later change to one is not the other's (`values.walker` follows
        changes by identity). None for any other expression."""
        if not isinstance(node, ast.Call) or node.keywords:
            return None
        func = node.func
        if isinstance(func, ast.Name) and func.id == "dict" and len(node.args) == 1:
            if "dict" in scope.env or "dict" in self.host.functions:
                return None
            source = node.args[0]
        elif isinstance(func, ast.Attribute) and func.attr == "copy" and not node.args:
            source = func.value
        else:
            return None
        held = scope.env.get(source.id) if isinstance(source, ast.Name) else None
        if type(held) is dict:
            return dict(held)
        if isinstance(held, Document):
            return Document(dict(held), held.plain)
        return None

    def _value(self, node: ast.expr, scope: Scope, name: str = "") -> object:
        """What a variable holds after `name = node`."""
        if _input_field_get(node, scope):  # `c = params.get("catalog")`: as `params["catalog"]`
            node = ast.Subscript(value=node.func.value, slice=node.args[0], ctx=ast.Load())  # type: ignore[attr-defined]
        if isinstance(node, ast.Name) and isinstance(
            scope.env.get(node.id), (dict, Instance, list, ArgNamespace, tuple, UnknownState, Collection)
        ):
            return scope.env[node.id]  # `return cfg`, `x = args`: the same value
        copied = self._copied(node, scope)
        if copied is not None:
            return copied
        if isinstance(node, ast.Dict) and not node.keys:
            return {}
        if isinstance(node, (ast.List, ast.Tuple)) and not node.elts:
            return []
        if isinstance(node, (ast.Subscript, ast.Call)):
            held = self._held(node, scope)  # `config["storage"]` of a loaded document
            if isinstance(held, (dict, Instance)) or is_texts(held):  # (an object of a registry of specs)
                return held
        if isinstance(node, ast.Call) and self.host.classes:
            instance = self.host.walker.instance(node, scope) or self.host.walker.returned_instance(node, scope)
            if instance is not None:
                return instance
            if isinstance(node.func, ast.Name) and node.func.id in self.host.classes:
                return UnknownState(self.host.classes[node.func.id].name)  # its methods are still known
        if isinstance(node, ast.Call):
            evaluated = self._evaluated(node, scope)
            if evaluated is not None:
                return evaluated
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.host.functions:
            returned = self._returned(self.host.functions[node.func.id], node, scope)
            if isinstance(returned, (Str, dict, Instance, ArgNamespace, tuple)) or is_texts(returned):
                return returned
        if isinstance(node, ast.Call) and self.host.classes:
            method = self.host.walker.method(node, scope)  # `self._read_config(path)`: what the method returns
            if method is not None:
                fn, owner = method
                returned = self._evaluate(fn, node, scope, owner if type(owner) is Instance else None)[1]
                if isinstance(returned, (dict, Instance, ArgNamespace, tuple)) or is_texts(returned):
                    return returned
                if type(returned) is Str and (not returned.unknown or _partly_known(returned)):
                    return returned
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) for k in node.keys):
            values = [(str(k.value), self._member(v, scope)) for k, v in zip(node.keys, node.values)]  # type: ignore[union-attr]
            return literal_dict(values)
        maps = self._maps(node, scope)
        if maps is not None:
            return maps
        if isinstance(node, (ast.ListComp, ast.DictComp)):
            built = self._built(node, scope)
            if built is not None:
                return built
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = self._items(node, scope)
            if items is not None:
                return items
        document = self._document(node, scope)
        if document is not None:
            return document
        if call_named(node, JSON_LOADS) and node.args:  # type: ignore[attr-defined]
            handed = self._handed_dict(node.args[0], scope)  # type: ignore[attr-defined]
            if handed is not None:
                return handed
            copied = self._json_round_trip(node.args[0], scope)  # type: ignore[attr-defined]
            if copied is not None:
                return copied
        text = self._handed(node, scope)  # `t = dbutils.notebook.run(...)`: a text, no DataFrame
        if text is not None:
            return text
        if _is_json_loads(node):
            text = self.string(node.args[0], scope)  # type: ignore[attr-defined]
            if len(text.params) == 1 and text.text == "{" + text.params[0] + "}" and not text.unknown:
                inputs = self.host.input_params.get(text.params[0])
                if inputs and len(inputs) == 1:
                    given = self._json_input(next(iter(inputs)))
                    if given is not None:  # `json.dumps` of a dict a caller knows in part
                        return given
                if inputs:
                    return InputDoc(inputs)
            document = _json_strings(text.text) if not text.params and not text.unknown else None
            if document is not None:  # a job parameter's JSON value, a literal
                return document
        if isinstance(node, ast.Subscript) and _namespace(node, scope):  # `ns = parser.parse_known_args()[0]`
            return ArgNamespace()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ARGUMENT_PARSERS:
            if node.func.attr == "parse_known_args":  # `args, rest = ...`: the arguments, and those not declared
                return (ArgNamespace(), Str("{argv_rest}", ("argv_rest",), True))
            return ArgNamespace()
        param = self._param_source(node, scope)
        if param is not None:
            return param
        steps = self.host.flatten(node, scope)
        built = _built_table(steps) if isinstance(node, ast.Call) else None
        if built is not None:
            return built
        if isinstance(node, (ast.Call, ast.Attribute, ast.Name)) and any(
            s.name in ("write", "writeStream", "writeTo", "DeltaTable", "forName", "forPath", "readStream")
            for s in steps
        ):
            if not any(s.name in TERMINALS and s.call is not None for s in steps[-1:]):
                return Chain(tuple(steps))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            found = self._dict_value(node, scope)  # `self.target_path` of a known object
            if found is not None:
                return found
        if isinstance(node, ast.Attribute) and isinstance(held := self._held(node, scope), Instance):
            return held  # `cfg = self.config`: the object it holds
        if isinstance(node, ast.Call) and (path := self._path_text(node, scope)) is not None:
            return path  # `pathlib.Path("../conf.yml").resolve().as_posix()`
        if isinstance(node, ast.Call) and self.host.classes and self.host.walker.method(node, scope) is not None:
            # `target = env.table("silver", "t")`: a method of an object of the project's
            # classes gives what it returns (a text here), not a DataFrame `spark.table`'s
            # name would suggest
            text = self.string(node, scope)
            if not text.unknown:
                return text
        if isinstance(node, ast.Call) and self._library_object(node):
            env = self._plain_env(node, scope)
            made = self._in_working_directory(self._own(), lambda evaluator: evaluator.value(node, env))
            self._budget_spent(node)
            if isinstance(made, Pattern):
                return Collection(made)  # `SPLIT.split(text)` later: the value layer's pattern
            held = from_plain(made) if isinstance(made, Made) else None
            if held is not None:
                return held  # `SimpleNamespace(**conf)`: its text attributes
        if isinstance(node, ast.Attribute) or (isinstance(node, ast.Call) and not may_give_text(node)):
            # `string` could only name an unknown placeholder here (by unparsing the
            # expression: a DataFrame chain over many lines), which would be dropped
            return self._data_frame(node, scope, self.host.reads(node, scope))
        s = self.string(node, scope)
        if not s.unknown or isinstance(node, (ast.JoinedStr, ast.BinOp, ast.Constant)):
            return s
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            return s  # `T.format(compute())`: the template, the run's value a named placeholder
        reads = self.host.reads(node, scope)
        if reads or isinstance(node, (ast.Call, ast.Attribute)):
            return self._data_frame(node, scope, reads)
        return s

    def _library_object(self, node: ast.Call) -> bool:
        """A call of the library building an object the value layer holds: `re.compile`
        (a pattern RE2 runs), `Namespace(**conf)` / `types.SimpleNamespace(...)` (an
        object of the keywords), called by its own name (`re` may be imported under
        another; a class renamed at import is not read)."""
        func = node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last != "compile" and last not in _NAMESPACE_NAMES:
            return False  # most calls (the module's imports are read only for these)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            base = func.value.id
            dotted = f"{self._own().aliases.get(base, base)}.{func.attr}"
        elif isinstance(func, ast.Name):
            base = func.id
            dotted = self._own().aliases.get(base, base)
        else:
            return False
        return base not in self.host.functions and (dotted == "re.compile" or dotted in NAMESPACES)

    def _data_frame(self, node: ast.expr, scope: Scope, reads: set) -> DataFrame:
        """A DataFrame: the tables it reads, and what its rows hold where the code builds
        them from constants (`frames`)."""
        rows = FrameReader(scope.env.get, lambda value: self.string(value, scope)).rows(node)
        return DataFrame(frozenset(reads), rows)

    def _param_source(self, node: ast.expr, scope: Scope) -> Str | None:
        """A parameter when the expression reads a job input (widgets, argv, env)."""
        if is_argv(node):
            idx = node.slice.value if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) else ""
            return self._input(f"argv_{idx}")
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            attr = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            owner_name = (
                owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
            )
            key = (
                node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("key", "name")), None)
            )
            if isinstance(owner, ast.Name) and isinstance(scope.env.get(owner.id), (dict, Instance)):
                return None  # `conf = {...}` then `conf.get("table")`: the dict's, not Spark's conf
            if (owner_name, attr) == TASK_VALUES_GET:
                found = self._task_value(node)
                if found is not None:
                    return found
            if (owner_name, attr) in JOB_INPUT_CALLS or attr == "getArgument":
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    if owner_name == "widgets" or attr == "getArgument":
                        return self._input(key.value, self.host.widget_defaults.get(key.value))
                    default = _env_default(node) if owner_name in ("os", "environ") else None
                    return Str(default) if default is not None else param_str(key.value)
                return param_str(attr)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "environ":
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                return param_str(node.slice.value)
        if isinstance(node, ast.Attribute) and _namespace(node.value, scope):
            return self._input(node.attr)
        return None

    def _task_value(self, node: ast.Call) -> Str | None:
        """`dbutils.jobs.taskValues.get(taskKey, key, ...)`: the value the notebooks
        of task `taskKey` (in a job that runs this file; else every notebook of the
        project) set the key to (`Context.task_values`), one of them where they set
        several; None (a named placeholder) where one of them is not known or none
        sets it."""
        key = argument_at(node, 1, "key")
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        given = argument_at(node, 0, "taskKey")
        task = given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else ""
        self.host.task_value_reads.add((task, key.value))
        values = self.host.task_values.get((task, key.value))
        if not values or any(v is None for v in values):
            return None
        held = [held_value(v) for v in values]
        if not all(isinstance(h, Str) and not h.unknown for h in held):
            return None
        return one_of(held)  # type: ignore[arg-type]

    def _json_round_trip(self, node: ast.expr, scope: Scope) -> dict[str, object] | None:
        """`json.loads(json.dumps(conf))` of a dict known in part (a deep copy, as
        code makes one): a new dict of what is known of each key, in the form it
        crosses files in (`exported_value`); None for any other argument."""
        if not (call_named(node, JSON_DUMPS) and node.args):  # type: ignore[attr-defined]
            return None
        held = self._value(node.args[0], scope)  # type: ignore[attr-defined]
        exported = exported_value(held) if type(held) in (dict, OneOf) else None
        copied = held_value(exported) if isinstance(exported, dict) else None
        return copied if isinstance(copied, dict) else None

    def _json_input(self, name: str) -> dict[str, object] | None:
        """The dict a job input carries as `json_input` text (see `JSON_INPUT`), as
        `json.loads` of it gives it: a key the caller does not know is a job input of
        its own (`{conf_schema}`, as a field of a widget no caller binds is), never a
        value; None when the input carries no such text."""
        given = json_input_fields(self.host.bound_inputs.get(name, ""))
        if given is None:
            return None
        for key, value in given.items():
            if value is UNHELD:
                field = param_str(f"{name}_{key}")
                self.host.input_params[field.params[0]] = frozenset({name})
                given[key] = field
        return given

    def evaluator(self, module: Module, documents: Mapping[str, object] | None = None) -> Evaluator:
        """The value layer's evaluator of `module`'s code for this file's run: the
        project documents given so far, the file's budget, and the job inputs as
        this run holds them (`_input`: the task's value, the widget's default, else a
        named input), so a value function or a comprehension that reads a widget
        reads the task's value, as the file's own statements do."""
        return Evaluator(
            module,
            self.host.documents if documents is None else documents,
            self.host.budget,
            inputs=self._plain_input,
            working=posixpath.dirname(self.host.own_path),  # the running file's folder (docs/values.md)
        )

    def _plain_input(self, name: str) -> object:
        return to_plain(self._input(name, self.host.widget_defaults.get(name)))

    def _input(self, name: str, default: str | None = None) -> Str:
        """A job input (widget, argument): the value the file's task gives it, else
        the widget's default, else a parameter named after it."""
        self.host.inputs_read.add(name)
        bound = self.host.bound_inputs.get(name)
        if bound is not None:
            if not bound.startswith(NO_TEXT):
                return Str(bound)
            # a dict known in part, as JSON text, or a value only a run gives: named
            # here, as a run gives it; only `json.loads` of a dict reads it (see
            # `_value`), never the widget's default
        elif default is not None:
            return Str(default)
        held = param_str(name)
        self.host.input_params[held.params[0]] = frozenset({name})
        return held

    def _charged(self, out: Str, node: ast.expr) -> Str:
        """A long string an expression built (`s + t`, an f-string, `.format`, `%`,
        `.join`, a change of case), charged to the file's budget (`Budget.hold_text`):
        past its allowance it is unknown, said once at the first line refused. Names
        and literals build nothing (a literal's text is the code's own); a string of
        MAX_TEXT or less is not looked at (the caller checks first)."""
        if self.host.budget.hold_text(len(out.text)):
            return out
        why = (
            f"more than {MAX_HELD_TEXT:,} characters of strings longer than {MAX_TEXT:,} built in the file "
            "(each such string built after it is unknown too)"
        )
        if not any(spent.why == why for spent in self.host.budget.spent):
            self.host.budget.note(self.host.own_path, node.lineno, why)
            self._budget_spent(node)
        return Str("{" + TOO_LONG + "}", merge_params(out.params, (TOO_LONG,)), True)

    def string(self, node: ast.expr | None, scope: Scope) -> Str:
        """The static value of a string expression, with parameters kept by name (a
        long one built here charged to the budget: see `_charged`)."""
        if node is None:
            return Str("", (), True)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return Str(node.value)
            if node.value is None or isinstance(node.value, (bool, int, float)):
                held = scalar(node.value)
                if held is None:  # too long to hold (see `number_text`): unknown, by a name
                    return Str("{huge_number}", ("huge_number",), True)
                return held
            return Str(str(node.value))
        param = self._param_source(node, scope)
        if param is not None:
            return param
        if isinstance(node, ast.Name):
            value = scope.env.get(node.id)
            if isinstance(value, Str):
                return value
            return Str("{" + param_name(node.id) + "}", (param_name(node.id),), True)
        found = (
            self._dict_value(node, scope)
            or self._split_part(node, scope)
            or self._sliced(node, scope)
            or self._stated_item(node, scope)
        )
        if found is not None:
            return found
        handed = self._handed(node, scope)
        if handed is not None:
            return handed
        if isinstance(node, ast.Call) and (text := self._call_text(node, scope)) is not None:
            return text
        if isinstance(node, ast.JoinedStr):
            out = Str("")
            for part in node.values:
                if isinstance(part, ast.Constant):
                    out = out + Str(str(part.value))
                elif isinstance(part, ast.FormattedValue):
                    spec = self._spec_text(part.format_spec, scope)
                    held = self._placeholder(part.value, scope)
                    out = out + self._shown(held, spec, part.conversion, part.value)
            return out if len(out.text) <= MAX_TEXT else self._charged(out, node)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                added = plus(self.string(node.left, scope), self.string(node.right, scope))
                if added is None:
                    return self._opaque(node)
                return added if len(added.text) <= MAX_TEXT else self._charged(added, node)
            if isinstance(node.op, ast.Mod):
                left = self.string(node.left, scope)
                if _number(left):  # `7 % 4`: the remainder, not a template
                    rest = computed(node.op, left, self.string(node.right, scope))
                    return rest if rest is not None else self._opaque(node)
                out = self._percent(left, node.right, scope)
                return out if len(out.text) <= MAX_TEXT else self._charged(out, node)
            folded = self._arithmetic(node, scope)
            if folded is not None:
                return Str(folded)
            return self._opaque(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            if attr == "format":
                out = self._format(self.string(node.func.value, scope), node, scope)
                return out if len(out.text) <= MAX_TEXT else self._charged(out, node)
            if attr in CASE_AND_TRIM and not node.args:
                base = self.string(node.func.value, scope)
                if attr in ("strip", "lstrip", "rstrip"):
                    text = getattr(base.text, attr)()
                else:  # the known parts in their case; a placeholder keeps its name
                    text = "".join(
                        part if n % 2 else getattr(part, attr)() for n, part in enumerate(_FIELDS.split(base.text))
                    )
                out = Str(text, base.params, base.unknown)
                return out if len(text) <= MAX_TEXT else self._charged(out, node)
            if attr in DEDENT and node.args:
                return self.string(node.args[0], scope)
            if attr in ("strip", "lstrip", "rstrip") and len(node.args) == 1 and not node.keywords:
                base, chars = self.string(node.func.value, scope), self.string(node.args[0], scope)
                known = not (base.params or base.unknown or base.scalar or chars.params or chars.unknown)
                if known and not chars.scalar:  # `statement.rstrip(";")` of a text known whole
                    return Str(getattr(base.text, attr)(chars.text))
            if attr == "replace" and len(node.args) == 2 and not node.keywords:
                replaced = self._replaced(node, scope)
                if replaced is not None:
                    return replaced
            joined = self._joined(node, scope)
            if joined is not None:
                return joined if len(joined.text) <= MAX_TEXT else self._charged(joined, node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TEXT_FUNCTIONS:
            if node.args:
                held = self.string(node.args[0], scope)
                return Str(held.text) if held.scalar else held  # `str(3)`: the text "3"
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return self._first_true(node, scope)
        if isinstance(node, ast.IfExp):
            truth = self._truth(node.test, scope)
            if truth is None:  # either value: both, joined (unknown past a few)
                return one_of([self.string(node.body, scope), self.string(node.orelse, scope)])
            return self.string(node.body if truth else node.orelse, scope)
        return self._placeholder(node, scope)

    def _replaced(self, node: ast.Call, scope: Scope) -> Str | None:
        """`text.replace(old, new)` of a text known whole (a SQL file the code reads,
        `{catalog}` in it written by the file: `text.replace("{catalog}", catalog)`)
        and an `old` known whole; `new` may be a template of named inputs. None for
        any other text, or a result past the sizes of the budget."""
        base = self.string(node.func.value, scope)  # type: ignore[attr-defined]
        old, new = (self.string(a, scope) for a in node.args)
        if base.params or base.unknown or base.scalar or old.params or old.unknown or not old.text:
            return None
        if new.unknown or new.scalar:
            return None
        grown = len(base.text) + base.text.count(old.text) * max(0, len(new.text) - len(old.text))
        if grown > MAX_BUILT_TEXT:  # (a statement's text: a SQL file is one, or several)
            return None
        out = Str(base.text.replace(old.text, new.text), new.params if old.text in base.text else ())
        return out if len(out.text) <= MAX_TEXT else self._charged(out, node)

    def _joined(self, node: ast.expr, scope: Scope) -> Str | None:
        """`sep.join([...])` of a literal list, or of a name holding a known list
        (`", ".join(partition_cols)`); None for other joins."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"):
            return None
        if len(node.args) != 1:
            return None
        arg = node.args[0]
        if isinstance(arg, (ast.List, ast.Tuple)):
            items = [self.string(elt, scope) for elt in arg.elts]
        elif (
            isinstance(arg, ast.Name)
            and arg.id not in self.host.mutated_names
            and is_texts(held := scope.env.get(arg.id))
        ):
            items = list(held)  # type: ignore[arg-type]
        else:
            return None
        sep = self.string(node.func.value, scope)
        out = Str("")
        for i, item in enumerate(items):
            out = out + (sep if i else Str("")) + item
        return out

    def _text_test(self, node: ast.Compare, scope: Scope) -> bool | None:
        """`env == "prod"`, `env != "dev"`, `env in ("a", "b")` on fully known strings
        (plain text only: a number's or flag's text is not the value Python compares)."""
        left = self.string(node.left, scope)
        right = node.comparators[0]
        if type(left) is not Str or left.scalar or left.unknown or left.params:
            return None
        op = node.ops[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(right, (ast.Tuple, ast.List, ast.Set)) or not all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in right.elts
            ):
                return None
            found = left.text in {e.value for e in right.elts}  # type: ignore[attr-defined]
            return found if isinstance(op, ast.In) else not found
        other = self.string(right, scope)
        if type(other) is not Str or other.scalar or other.unknown or other.params:
            return None
        return (left.text == other.text) == isinstance(op, ast.Eq)

    def _first_true(self, node: ast.BoolOp, scope: Scope) -> Str:
        """`a or b or "dev"`: the first operand that is true. Where an operand's truth
        is not known (a job input, which may be empty; one of several values, None on
        some ways) it is one of its values that may be true, or what the operands
        after it give: one of those (`one_of`), the last operand among them, never
        an opaque name for the whole. An input no task that runs the file gives (a
        widget never defined raises, `sys.argv` holds no such argument) is never
        the true one (see `_absent`)."""
        found: list[Str] = []
        for value in node.values[:-1]:
            truth = self._truth(value, scope)
            if truth is False:
                continue
            held = self.string(value, scope)
            if truth:
                return one_of([*found, held]) if found else held
            found += [alt for alt in alternatives(held) if _text_truth(alt) is not False and not self._absent(alt)]
        last = self.string(node.values[-1], scope)
        return one_of([*found, last]) if found else last

    def _absent(self, text: Str) -> bool:
        """Whether `text` is a job input (`{target}`) that no task running the file
        gives, every such task known (`lattice.ABSENT_INPUT`, from the link stage,
        which binds it for an input the file's reading records as `DEFAULTED`)."""
        if len(text.params) != 1 or text.unknown or text.text != "{" + text.params[0] + "}":
            return False
        inputs = self.host.input_params.get(text.params[0])
        if not inputs:
            return False
        self.host.inputs_read.update(DEFAULTED + i for i in inputs)
        return all(self.host.bound_inputs.get(i) == ABSENT_INPUT for i in inputs)

    def _truth(self, node: ast.expr, scope: Scope) -> bool | None:
        """Whether a condition holds, when the values it tests are known: a constant,
        a name holding a known string, list or `None`, a call giving a known text (a
        job input the task gives), `not` and `is (not) None` of those (`f"PARTITIONED
        BY ..." if partition_cols else ""`). None when unknown."""
        if isinstance(node, ast.Constant):
            return bool(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            truth = self._truth(node.operand, scope)
            return None if truth is None else not truth
        if (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.Is, ast.IsNot))
            and isinstance(node.comparators[0], ast.Constant)
            and node.comparators[0].value is None
            and isinstance(node.left, ast.Name)
        ):
            held = scope.env.get(node.left.id)
            if not (isinstance(held, Str) or is_texts(held)) or (
                isinstance(held, Str) and (held.params or held.unknown)
            ):
                return None
            return (isinstance(held, Str) and held.value is None) == isinstance(node.ops[0], ast.Is)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], _TEXT_TESTS):
            return self._text_test(node, scope)
        if isinstance(node, ast.Name):
            held = scope.env.get(node.id)
            if isinstance(held, Str) and held.scalar:  # None, a flag, a number: its own truth
                return bool(held.value)
            if is_texts(held):
                return None if node.id in self.host.mutated_names else bool(held)
            if isinstance(held, Str) and not held.params and not held.unknown:
                return bool(held.text)
        if isinstance(node, ast.Call) and _asks_existence(node):  # `os.path.isfile(p)`, `Path(p).exists()`
            exists = self._existence(node, scope)
            if exists is not None:
                return exists
        if isinstance(node, ast.Call):  # `dbutils.widgets.get("catalog") or "dev"` where the task gives it
            text = self.string(node, scope)
            if not text.params and not text.unknown:
                return bool(text.value) if text.scalar else bool(text.text)
        return None

    def _call_text(self, node: ast.Call, scope: Scope) -> Str | None:
        """The text a call gives: what the value layer evaluates it to, else what the
        file's own function returns (known text or a template of named inputs)."""
        evaluated = self._evaluated(node, scope)
        if isinstance(evaluated, Str):
            return evaluated
        text = self._text_document(node, scope)  # `open("q.sql").read()`
        if isinstance(text, Str):
            return text
        path = self._path_text(node, scope)
        if path is not None:
            return path
        if isinstance(node.func, ast.Attribute):  # `cfg.fq_source("x")`: a method of an object
            owner = self._held(node.func.value, scope)
            if owner is None and isinstance(node.func.value, ast.Call):  # `LakeConfig().table("x")`: made here
                owner = self.host.walker.instance(node.func.value, scope)
            if isinstance(owner, Instance):
                read = self._object_read(owner, node.func.attr, node, scope)
                return read if type(read) is Str and (not read.unknown or _partly_known(read)) else None
            read = self._class_call(node, scope)  # `Env.get()`, `config.Env.get()`
            if read is not None:
                return read
        return self._returned_text(node, scope)

    def class_named_by(self, node: ast.expr, scope: Scope) -> ast.ClassDef | None:
        """The class of the project an expression names: `Env` (the file's own, or
        one it imports by name), `config.Env` of `import config` or `conf.Env` of
        `from pkg import conf` (the module's class, pasted under that name). None
        for any other expression, or a name the code binds to a value of its own."""
        root: ast.expr = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return None
        held = scope.env.get(root.id)
        if held is not None and type(held) is not dict:  # a value here (the class's attributes are a dict)
            return None
        if isinstance(node, ast.Name):
            return self.host.walker.class_named(node.id, node.lineno)
        parts: list[str] = []
        current: ast.expr = node
        while isinstance(current, ast.Attribute):
            parts.append(current.attr)
            current = current.value
        dotted = ".".join([root.id, *reversed(parts)])
        if not self._imported_module(root.id):
            return None
        found = self.host._foreign_defs.get(dotted)
        return found if isinstance(found, ast.ClassDef) else None

    def _class_call(self, node: ast.Call, scope: Scope) -> Str | None:
        """What a class or static method of a class of the project returns, called
        through the class (`Env.get()`, `config.Env.get()`, `Env.named("x")`): its
        body read with the call's arguments bound and `cls` bound to the class's
        attributes as the class's own module gives them (see `class_attributes`);
        None when it is no such method or what it returns is not told."""
        assert isinstance(node.func, ast.Attribute)
        cls = self.class_named_by(node.func.value, scope)
        if cls is None:
            return None
        fn = self.host.walker.method_named(cls, node.func.attr)
        if fn is None or len(fn.decorator_list) != 1 or not isinstance(fn.decorator_list[0], ast.Name):
            return None
        kind = fn.decorator_list[0].id
        params = fn.args.posonlyargs + fn.args.args
        bound: dict[str, object] = {}
        if kind == "classmethod" and params and params[0].arg == "cls":
            bound["cls"] = self.class_attributes(cls, node.func.value, scope)
        elif kind != "staticmethod" or (params and params[0].arg in ("self", "cls")):
            return None
        returned = self._evaluate(fn, node, scope, bound=bound)[1]
        if type(returned) is not Str or returned.scalar:
            return None
        return returned if not returned.unknown or _partly_known(returned) else None

    def class_attributes(self, cls: ast.ClassDef, named: ast.expr, scope: Scope) -> dict[str, object]:
        """The text attributes of a class the expression `named` names, as the
        class's own module holds them: the file's own class read from its body (and
        its bases', unless the file sets them again: see `Walker.class_attributes`);
        another module's, as that module's summary gives its name (`config.Env`, or
        `Env` imported by name), which its own reading left without any attribute
        its code sets again."""
        if cls.lineno <= self.host._own_lines:
            return self.host.walker.class_attributes(cls)
        held = self._held(named, scope)
        return {k: v for k, v in held.items() if type(v) is Str} if type(held) is dict else {}

    def _object_read(self, owner: Instance, name: str, call: ast.Call | None, scope: Scope) -> object:
        """What a property (`call` None: `cfg.fq_table`) or a method (`cfg.fq_source(s)`)
        of an object of a class of the project returns, read with `self` bound to the
        object and the call's arguments to its parameters; None when the class has
        no such function or what it returns is not told."""
        cls = self.host.classes.get(owner.cls)
        if cls is None and SCOPED in owner.cls:  # an object another module gives, with its class (`OBJECT_KEY`)
            found = self.host._foreign_defs.get(owner.cls)
            cls = found if isinstance(found, ast.ClassDef) else None
        if cls is None:
            return None
        fn = self.host.walker.method_named(cls, name)  # its own, or a project base's
        if fn is None:
            return None
        kinds = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in fn.decorator_list}
        if ("property" in kinds or "cached_property" in kinds) != (call is None) or kinds - {
            "property",
            "cached_property",
        }:
            return None
        given = call if call is not None else ast.Call(func=ast.Name(id=name), args=[], keywords=[])
        return self._evaluate(fn, given, scope, owner)[1]

    def _path_text(self, node: ast.Call, scope: Scope) -> Str | None:
        """The text a chain of path calls gives (`pathlib.Path("../conf.yml").resolve()
        .as_posix()`, `os.path.join(root, "conf.yml")`, `str(Path(__file__).parent /
        "q.sql")`), as the evaluator's library knowledge reads it (`brains`), the names
        it reads as they are held; None when it is no such chain or its text is not
        known. A path object is its text: a callee's `Path(p)` or `open(p)` reads the
        same file by it."""
        last = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if last in ("str", "fspath") and len(node.args) == 1 and not node.keywords:
            node = node.args[0]  # type: ignore[assignment]  # `str(Path(__file__).with_name("q.sql"))`
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)) and not isinstance(node, ast.Call):
                return None
        elif last not in PATH_CALLS:
            return None  # most calls: no path's
        root: ast.expr = node
        while isinstance(root, (ast.Call, ast.Attribute, ast.BinOp)):
            root = root.func if isinstance(root, ast.Call) else root.left if isinstance(root, ast.BinOp) else root.value
        if not (isinstance(root, ast.Name) and root.id in PATH_ROOTS) or root.id in scope.env:
            return None
        value = self.evaluator(self._own()).value(node, self._plain_env(node, scope))
        if isinstance(value, PurePosixPath):
            value = str(value)
        return Str(value) if isinstance(value, str) else None

    def _placeholder(self, node: ast.expr, scope: Scope) -> Str:
        """An f-string/format field: inline statics, name parameters, mark the rest unknown."""
        if isinstance(node, (ast.Name, ast.Constant, ast.JoinedStr, ast.BinOp, ast.IfExp)):
            return self.string(node, scope)
        if _text_call(node):  # `{c.lower()}`, `{a or b}`, as `c = c.lower()` then `{c}` reads it
            return self.string(node, scope)
        if isinstance(node, ast.Call) and (text := self._call_text(node, scope)) is not None:
            return text
        joined = self._joined(node, scope)  # `f"BY ({', '.join(cols)})"`
        if joined is not None:
            return joined
        found = (
            self._dict_value(node, scope)
            or self._split_part(node, scope)
            or self._sliced(node, scope)
            or self._stated_item(node, scope)
        )
        if found is not None:
            return found
        param = self._param_source(node, scope)
        if param is not None:
            return param
        return self._opaque(node, scope)

    def _dict_value(self, node: ast.expr, scope: Scope) -> Str | None:
        """`config["db"]` where `config` holds a literal dict with that key;
        `Config.DB` or `settings.DB` where `Config` is a class or an imported module
        of the project with that constant; `SCALES[0]` of a literal list;
        `config["paths"]["raw"]` and `config.get("root")` of a loaded document."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            held = scope.env.get(node.value.id)
            if type(held) is OneOf:  # one of several objects: the attribute is one of theirs
                held = joined_objects(held.values)
            if isinstance(held, Instance) and member(held, node.attr) is None:
                read = self._object_read(held, node.attr, None, scope)  # `cfg.fq_table`, a property
                return read if isinstance(read, Str) else None
            return get_text(held, node.attr) if isinstance(held, (dict, Instance)) else None
        if _input_field_get(node, scope):  # `params.get("catalog")`: the field `params["catalog"]` names
            node = ast.Subscript(value=node.func.value, slice=node.args[0], ctx=ast.Load())  # type: ignore[attr-defined]
        if isinstance(node, (ast.Call, ast.Attribute)) or (
            isinstance(node, ast.Subscript) and not isinstance(node.value, ast.Name)
        ):  # `self.config.catalog`: a field of the object an attribute holds
            found = self._held(node, scope)
            return found if isinstance(found, Str) else None
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
            return None
        held = scope.env.get(node.value.id)
        if isinstance(held, InputDoc) and isinstance(node.slice, ast.Constant):
            field = self._opaque(node)  # named as an unknown value would be: `{app_configs_CATALOG}`
            self.host.input_params[field.params[0]] = held.inputs
            return Str(field.text, field.params)
        key = self._key(node.slice, scope)
        if isinstance(held, (dict, Instance)) and key is not None:
            return get_text(held, key)
        if not is_texts(held):
            return None
        index = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if isinstance(node.slice, ast.Name) and node.value.id not in self.host.mutated_names:
            index = self._integer(node.slice, scope)  # `TABLES[i]` in `for i in range(len(TABLES)):`
        if isinstance(index, int) and not isinstance(index, bool):
            return held[index] if -len(held) <= index < len(held) else None  # type: ignore[index,arg-type]
        return None

    def _key(self, node: ast.expr, scope: Scope) -> str | None:
        """A mapping's key: a constant, or a name or expression holding a known string
        (`CONF[k]` inside `for k in CONF:`, `CONF[sys.argv[1]]` read with the value a
        task gives)."""
        if isinstance(node, ast.Constant):
            return str(node.value)
        if isinstance(node, ast.Name):
            held = scope.env.get(node.id)
        elif isinstance(node, (ast.Subscript, ast.JoinedStr, ast.BinOp)):  # `BRONZE[sys.argv[1]]`, `D[f"{a}_x"]`
            held = self.string(node, scope)
        else:
            return None
        if type(held) is Str and not (held.scalar or held.params or held.unknown):
            return held.text
        return None

    def _held(self, node: ast.expr, scope: Scope) -> object:
        """What a name holds, or a key of a mapping it holds: `config`,
        `config["paths"]["raw"]`, `config["storage"].get("root", "/tmp")` (a key a
        document lacks gives the default; a literal dict may just not know it)."""
        if isinstance(node, ast.Name):
            return scope.env.get(node.id)
        if isinstance(node, ast.Attribute):  # `self.config.catalog`: objects hold attributes, dicts do not
            owner = self._held(node.value, scope)
            if type(owner) is OneOf:  # one of several objects: the attribute is one of theirs
                owner = joined_objects(owner.values)
            if type(owner) is dict and isinstance(node.value, ast.Name) and self._imported_module(node.value.id):
                # `names.DEFAULT`, `config.settings`, `config.Env` of `import config`: what the module gives
                found = member(owner, node.attr)
                return found if isinstance(found, (Instance, Str, dict)) else None
            if type(owner) is dict and self.class_named_by(node.value, scope) is not None:
                found = member(owner, node.attr)  # `config.Env.TABLE`: an attribute of the module's class
                return found if isinstance(found, Str) else None
            if not isinstance(owner, Instance):
                return None
            found = member(owner, node.attr)
            return found if found is not None else self._object_read(owner, node.attr, None, scope)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            owner = self._held(node.value, scope)
            if owner is None and isinstance(node.value, ast.Call):  # `ddl("main", "s")[0]`, as `stmts[0]` reads
                owner = self._value(node.value, scope)
            root: ast.expr = node.value  # `cfg["tables"][0]`: changed through `cfg` too
            while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if (is_configs(owner) or is_texts(owner)) and not (
                isinstance(root, ast.Name) and root.id in self.host.mutated_names
            ):
                index = node.slice.value
                return owner[index] if -len(owner) <= index < len(owner) else None  # type: ignore[index,arg-type]
        key = self._key(node.slice, scope) if isinstance(node, ast.Subscript) else None
        if key is not None:
            owner = self._held(node.value, scope)  # type: ignore[attr-defined]
            if owner is None and isinstance(node.value, ast.Call):  # type: ignore[attr-defined]
                owner = self._document(node.value, scope)  # type: ignore[attr-defined]  # `yaml.safe_load(f)["tables"]`
            if isinstance(owner, dict):
                return member(owner, key)
            return None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and 1 <= len(node.args) <= 2
            and not node.keywords
            and isinstance(node.args[0], ast.Constant)
        ):
            owner = self._held(node.func.value, scope)
            if not isinstance(owner, dict):
                return None
            found = member(owner, str(node.args[0].value))
            if found is None and isinstance(owner, Document) and node.args[0].value in owner.plain:  # type: ignore[operator]
                return None  # there, but of a kind the analyser does not hold: unknown
            if found is None and isinstance(owner, Document):
                return self.string(node.args[1], scope) if len(node.args) == 2 else NONE
            return found
        return None

    def any_value(self, name: ast.Name, scope: Scope) -> Str | None:
        """What `describe_map[obj_type]` gives with a key only a run knows, of a literal
        dict of strings the code never changes: one of its values (a missing key
        raises); None for any other dict, or past `one_of`'s cap. Asked by the SQL
        call reader only, which runs each text (see `sqlcall`)."""
        owner = scope.env.get(name.id)
        if type(owner) is not dict or not all_held(owner) or name.id in self.host.mutated_names:
            return None
        values = list(owner.values())
        if not values or not all(isinstance(v, Str) for v in values):
            return None
        joined = one_of(values)  # type: ignore[arg-type]
        return None if joined is TOO_MANY else joined

    def _evaluated(self, node: ast.Call, scope: Scope) -> object:
        """What a value function of the project returns for a call that gives it only
        known values (see `values.evaluator`): None when it is no such function or the result
        is not known."""
        if self._fixed:
            fixed = self._fixed.get(id(node))
            if fixed is not None:
                return fixed
        home = self.host.walker.home(node.lineno) if self.host._homes else None
        target: tuple[Module, str] | None = None
        if home is not None:  # in a helper pasted from another module: by that module's names alone
            called = node.func.id if isinstance(node.func, ast.Name) else _dotted(node.func)
            target = self.host.value_functions.get(f"{home}{SCOPED}{called}") if called else None
        elif isinstance(node.func, ast.Name):
            target = self._value_function(node.func.id)
        elif (
            isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and self._imported_module(node.func.value.id)
        ):
            # `names.table_name(...)`, `conf.build_name(...)` of `from pkg import conf`
            target = self._value_function(f"{node.func.value.id}.{node.func.attr}")
        if target is None:
            return None
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        args = [self._plain_argument(a, scope) for a in node.args]
        kwargs = {k.arg: self._plain_argument(k.value, scope) for k in node.keywords if k.arg}
        module, function = target
        foreign = module is not self._own_module  # another module's: its statement has no other reading
        if any(isinstance(v, Unknown) for v in [*args, *kwargs.values()]):
            if not foreign:
                return None  # the file's own function: read again for the call (`_returned`)
            args = [self._run_value(a, v, scope) for a, v in zip(node.args, args)]
            kwargs = {k.arg: self._run_value(k.value, kwargs[k.arg], scope) for k in node.keywords if k.arg}
        value = self._in_working_directory(module, lambda e: e.call(function, args, kwargs, placeholders=foreign))
        self._budget_spent(node)
        return None if isinstance(value, Unknown) else _held_document(value)

    def _run_value(self, node: ast.expr, value: object, scope: Scope) -> object:
        """An argument only a run knows, as a function of another module is given it:
        a string known in part as a template unknown in part (`f"{x}_v2"`), any other
        an unknown named as the file's own reading names it (`{run_id}`'s value,
        `{str_uuid_uuid4_8_...}`), so a string the function builds of it says so."""
        if not isinstance(value, Unknown):
            return value
        text = self.string(node, scope)
        if not isinstance(text, Str) or text.scalar or not text.params:
            return Unknown(value.reason, self._opaque(node).params[0])
        if text.text == "{" + text.params[0] + "}":
            return Unknown(value.reason, text.params[0])
        return Template(text.text, text.params, True)

    def _in_working_directory(self, module: Module, run: Callable[[Evaluator], object]) -> object:
        """`run` of an evaluator of `module`, the documents its code opens by a
        relative path read where the running process may be (see `_candidates`),
        not in the module's folder alone: once per document a path may name when
        those differ, the values joined (`joined_documents`: one of several). A
        module that reads `__file__` may open by it (`os.path.dirname(__file__)`):
        the evaluator's reading stands."""
        evaluator = self.evaluator(module)
        value = run(evaluator)
        self.host.documents_wanted |= evaluator.opened
        if not evaluator.opened:
            return value
        if id(module) not in self._own_path_read:  # once a module: its tree is walked
            self._own_path_read[id(module)] = (module, _reads_own_path(module))
        if self._own_path_read[id(module)][1]:
            return value
        folder = posixpath.dirname(module.path)
        moved: dict[str, list[object]] = {}
        for path in sorted(evaluator.opened):
            if is_listing(path) or path in evaluator.placed:  # placed by the code, not relative (`values.listing`)
                continue
            if folder and not path.startswith(folder + "/"):
                continue  # `../conf.yml` of the module's folder: read there
            paths = self._candidates(path[len(folder) + 1 :] if folder else path, module.path)
            self.host.documents_wanted.update(paths)
            found = [self.host.documents[p] for p in paths if p in self.host.documents]
            found = [f for n, f in enumerate(found) if f not in found[:n]]
            if paths != [path] and found != [self.host.documents.get(path)]:
                moved[path] = found or [Unknown(f"no document {path} where the code runs")]
        if not moved:
            return value
        combos = list(itertools.islice(itertools.product(*moved.values()), MAX_ALTERNATIVES + 1))
        if len(combos) > MAX_ALTERNATIVES:
            return Unknown("one of too many documents")
        values = [run(self.evaluator(module, {**self.host.documents, **dict(zip(moved, combo))})) for combo in combos]
        if any(isinstance(v, (Unknown, OneOf)) for v in values):
            return values[0] if len(values) == 1 else Unknown("one of several documents, not all known")
        return joined_documents(values)

    def factory_object(
        self, method: ast.FunctionDef, cls: ast.ClassDef, call: ast.Call, scope: Scope
    ) -> Instance | None:
        """The object a configuration class's class or static method builds for this
        call (`Config.from_yaml(path)`: a loader that opens a project document, fills
        in the environment's fields and returns `Config(**data)`), evaluated as a
        value function is (see `values.evaluator`), in the running file's folder (a
        notebook's working directory): its fields that hold text. None when an
        argument or the object is not known."""
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        args = [self._plain_argument(a, scope) for a in call.args]
        kwargs = {k.arg: self._plain_argument(k.value, scope) for k in call.keywords if k.arg}
        if any(isinstance(v, Unknown) for v in [*args, *kwargs.values()]) or self.host._tree is None:
            return None
        if cls.lineno <= self.host._own_lines:
            module = self._own()
        else:  # a class of another module of the project, pasted: read on its own
            module = Module.of(ast.Module(body=[cls], type_ignores=[]), self.host.own_path)
        evaluator = self.evaluator(module)
        made = evaluator.call_factory(cls, method, args, kwargs)
        self._budget_spent(call)
        self.host.documents_wanted |= evaluator.opened
        if not isinstance(made, Made) or self.host.classes.get(made.cls) is None:
            return None
        fields = {name: from_plain(value) for name, value in made.fields.items() if not isinstance(value, Made)}
        return Instance(tuple((k, v) for k, v in fields.items() if type(v) is Str), cls=made.cls)

    def _opened(self, node: ast.expr, scope: Scope) -> Opened | None:
        """`open("conf/dev.yml")` with a known path; its whole text read in place
        (`open(p).read()`, `f.read()` of an opened `f`, `Path(p).read_text()`), which
        a loader parses as it parses the file."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            owner = node.func.value
            if node.func.attr == "read" and isinstance(owner, ast.Name):
                held = scope.env.get(owner.id)
                return held if isinstance(held, Opened) else None
            if node.func.attr == "read":
                return self._opened(owner, scope)
            path_call = isinstance(owner, ast.Call) and len(owner.args) == 1 and not owner.keywords
            named = owner.func if path_call else None  # type: ignore[union-attr]
            if node.func.attr == "read_text" and (
                (isinstance(named, ast.Name) and named.id == "Path" and "Path" not in scope.env)
                or (isinstance(named, ast.Attribute) and named.attr == "Path" and isinstance(named.value, ast.Name))
            ):
                node = ast.Call(func=ast.Name(id="open"), args=owner.args, keywords=[])  # type: ignore[union-attr]
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"):
            return None
        path = self.string(node.args[0], scope) if node.args else None
        if path is None or path.params or path.unknown or not path.text:
            return None
        return Opened(path.text)

    def _document(self, node: ast.expr, scope: Scope) -> object:
        """`yaml.safe_load(f)` / `json.load(open("conf.json"))` of a project document
        (see `Context.documents`): its content, as the evaluator gives it to a function;
        `open("q.sql").read()` (`f.read()` of a `with open(...) as f`) and
        `Path("q.sql").read_text()`: a SQL file's text, a document too."""
        text = self._text_document(node, scope)
        if text is not None:
            return text
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and f"{node.func.value.id}.{node.func.attr}" in (*DOCUMENT_LOADERS, *TEXT_LOADERS)
            and node.args
        ):
            return None
        handle = node.args[0]
        if f"{node.func.value.id}.{node.func.attr}" in TEXT_LOADERS:
            opened = None  # `json.loads(text)`: the evaluator tells a text read whole from a handle
        else:
            opened = scope.env.get(handle.id) if isinstance(handle, ast.Name) else self._opened(handle, scope)
        if not isinstance(opened, Opened) and not isinstance(handle, ast.Name):
            # `yaml.safe_load((ROOT / "env" / f"{name}.yaml").read_text())`: a path the
            # value layer builds (path objects, `__file__`), the document it opens
            module = self._module_at(node.lineno)
            if module is None:
                return None
            value = self._in_working_directory(module, lambda e: e.value(node, self._plain_env(node, scope)))
            self._budget_spent(node)
            return _held_document(value) if isinstance(value, dict) else None
        if not isinstance(opened, Opened):
            return None
        if opened.path.startswith("/"):  # under the project root, by `__file__`: that one document
            paths = [p for p in [document_path(opened.path, self.host.own_path)] if p is not None]
        else:
            home = self.host.walker.home(node.lineno) if self.host._homes else None
            paths = self._candidates(opened.path, home)
        self.host.documents_wanted.update(paths)
        found = [self.host.documents[p] for p in paths if p in self.host.documents]
        return _held_document(joined_documents(found)) if found else None

    def _candidates(self, relative: str, helper: str | None) -> list[str]:
        """The project documents a relative path opened by the running file's code,
        or by `helper`'s (a module's path), may name. Python opens it in the working
        directory of the process: a notebook's is its folder; a script's or a
        module's the code does not tell, so each plausible one is read: the running
        file's folder, the project root, the helper's folder (`open("conf/s.json")`
        in `helpers/io.py` of `jobs/load.py`). Those that exist are joined (see
        `joined_documents`): one of them when they differ, never one picked."""
        own = document_path(relative, self.host.own_path)
        if self.host.line_map is not None:
            return [own] if own is not None else []
        found = [own, document_path(relative, "-"), document_path(relative, helper) if helper is not None else None]
        return [p for p in dict.fromkeys(found) if p is not None]

    def _existence(self, node: ast.Call, scope: Scope) -> bool | None:
        """Whether the project file a test of the file's own code names exists, as the
        evaluator answers it (`values.listing`: known inside the project, not outside
        it); None when not known."""
        evaluator = self.evaluator(self._own())
        value = evaluator.value(node, self._plain_env(node, scope))
        self.host.documents_wanted |= evaluator.opened
        return value if isinstance(value, bool) else None

    def _text_document(self, node: ast.expr, scope: Scope) -> object:
        """The text `open(p).read()`, a `with open(p) as f` handle's `f.read()` or
        `Path(p).read_text()` reads from a SQL file of the project, as the evaluator
        reads it (`Evaluator._text`, `TEXT_DOCUMENTS`); None when the call is not one
        or its text is not known (the file is no such document, or not given yet)."""
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("read", "read_text")
            and not node.args
            and not node.keywords
        ):
            return None
        evaluator = self.evaluator(self._own())
        value = evaluator.value(node, self._plain_env(node, scope))
        self.host.documents_wanted |= evaluator.opened
        return from_plain(value) if isinstance(value, str) else None

    def _plain_env(self, node: ast.expr, scope: Scope) -> dict[str, object]:
        """The values the names of `node` hold, as the evaluator takes them (names the
        code changes in place are left out: not known)."""
        return {
            n.id: to_plain(scope.env[n.id]) if not isinstance(scope.env[n.id], Opened) else scope.env[n.id]
            for n in ast.walk(node)
            if isinstance(n, ast.Name) and n.id in scope.env and n.id not in self.host.mutated_names
        }

    def _plain_argument(self, node: ast.expr, scope: Scope) -> object:
        if isinstance(node, ast.Name) and node.id in ("spark", "self", "dbutils"):
            return Unknown("the session, the object or dbutils")
        held = self._held(node, scope)
        if held is None and isinstance(node, _CONTAINERS):
            # `table_name(["main", schema])`: the evaluator builds the list from what
            # its names hold (a name the code changes in place is not known)
            env = {
                n.id: to_plain(scope.env[n.id])
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and n.id in scope.env and n.id not in self.host.mutated_names
            }
            own = Module.of(ast.Module(body=[], type_ignores=[]), self.host.own_path)
            return self.evaluator(own).value(node, env)
        if held is None:
            held = self.string(node, scope)
        if type(held) is Instance:
            # a configuration object (`Settings.from_env()`, built in another module
            # maybe): the fields known, read by attribute; any other is not known
            fields = {k: to_plain(v) for k, v in held.items}
            return Made(held.cls, {k: v for k, v in fields.items() if not isinstance(v, Unknown)})
        return to_plain(held)

    def _built(self, node: ast.ListComp | ast.DictComp, scope: Scope) -> list | dict | None:  # type: ignore[type-arg]
        """`[f"{catalog}.s.{n}" for n in NAMES]`, `{n: f"main.b.{n}" for n in NAMES}`:
        the list or dict the evaluator builds from what the names hold (a name the
        code changes in place is not known), when every element is known text; a
        loop over it then runs once per element. None otherwise."""
        for generator in node.generators:  # over what only a run holds (`df.columns`): not built
            for n in ast.walk(generator.iter):
                if (
                    isinstance(n, ast.Name)
                    and n.id not in _ITERATORS
                    and not isinstance(scope.env.get(n.id), (Str, list, dict))
                ):
                    return None
        env = {
            n.id: to_plain(scope.env[n.id])
            for n in ast.walk(node)
            if isinstance(n, ast.Name) and n.id in scope.env and n.id not in self.host.mutated_names
        }
        own = Module.of(ast.Module(body=[], type_ignores=[]), self.host.own_path)
        value = self.evaluator(own).collection(node, env)  # (its items may be templates)
        self._budget_spent(node)
        if isinstance(value, dict) and not all(
            isinstance(k, str) and isinstance(v, (str, Template)) for k, v in value.items()
        ):
            return None  # (a template keeps its named inputs: `{k: dbutils.widgets.get(k) for k in W}`)
        held = from_plain(value) if isinstance(value, (list, dict)) else None
        return held if isinstance(held, (list, dict)) and not isinstance(held, Instance) else None

    def _imported_module(self, name: str) -> bool:
        """Whether `name` may be bound to a module of the project: imported whole
        (`import names`), or by name (`from pkg import conf`), where only the link
        stage knows whether it gave a module (its values, a dict under its name) or
        a value; a dict so imported then reads its keys by attribute, as a dict of
        the file's own does (see `_dict_value`)."""
        return self._imported_whole(name) or name in self._by_name

    def _imported_whole(self, name: str) -> bool:
        """Whether `name` is bound to a module imported whole (`import names`): only
        then is `name.f(...)` a module's function rather than a method of a value."""
        imports = self.host.imports
        if len(imports) != self._whole_seen:
            self._whole = frozenset(bound for _, imported, bound in imports if not imported)
            self._by_name = frozenset(bound for _, imported, bound in imports if imported and imported != "*")
            self._whole_seen = len(imports)
        return name in self._whole

    def _value_function(self, name: str) -> tuple[Module, str] | None:
        """The module and function a call by this name evaluates: a value function
        of this file, or one another file gives (see `Context.value_functions`)."""
        if name in self.host.value_functions:
            self.host.value_calls.add(name)  # the link stage goes on giving it
            return self.host.value_functions[name]
        fn = self.host.functions.get(name)
        if fn is None and name in self._top_lambdas():  # `fq = lambda t: ...` of the file's top level
            return self._own(), name
        if fn is None or name not in self.host._top_functions or not isinstance(fn, ast.FunctionDef):
            self.host.value_calls.add(name)
            return None
        if name not in self._value_checked:  # asked at every call of the function: walked once
            self._value_checked[name] = is_value_function(fn)
        if not self._value_checked[name]:
            return None
        return self._own(), name

    def _module_at(self, line: int) -> Module | None:
        """The module whose code holds `line`, as the evaluator reads it: this file's
        own, or the imported module a pasted helper comes from (its module-level
        names are that module's); None when that module is not given."""
        home = self.host.walker.home(line) if self.host._homes else None
        if home is None:
            return self._own()
        prefix = f"{home}{SCOPED}"
        return next((m for k, (m, _) in self.host.value_functions.items() if k.startswith(prefix)), None)

    def _top_lambdas(self) -> frozenset[str]:
        """The names the file's own top level binds to a lambda, once (the evaluator
        reads each as a function, see `Module.of`); found once a file."""
        if self._lambda_names is None:
            body = self.host._tree.body if self.host._tree is not None else []
            own = [s for s in body if s.lineno <= self.host._own_lines]
            found = [
                s.targets[0].id
                for s in own
                if isinstance(s, ast.Assign)
                and len(s.targets) == 1
                and isinstance(s.targets[0], ast.Name)
                and isinstance(s.value, ast.Lambda)
            ]
            # those bound once (`Module.of` reads no other as a function)
            self._lambda_names = frozenset(self._own().functions.keys() & set(found)) if found else frozenset()
        return self._lambda_names

    def _own(self) -> Module:
        """This file's own code as the evaluator reads it (made once)."""
        if self._own_module is None:
            own = (
                [s for s in self.host._tree.body if s.lineno <= self.host._own_lines]
                if self.host._tree is not None
                else []
            )
            self._own_module = Module.of(ast.Module(body=own, type_ignores=[]), self.host.own_path)
        return self._own_module

    def _exit_of(self, node: ast.expr, scope: Scope) -> dict | None:
        """What the notebook a `dbutils.notebook.run(path, ...)` call runs hands back
        (`Context.exits`, by the path as the call gives it); None for any other
        expression, a path not known here, or a notebook whose exit is not known."""
        if not call_named(node, NOTEBOOK_RUN):
            return None
        path = self.string(argument_at(node, 0, "path"), scope)  # type: ignore[arg-type]
        if path.params or path.unknown:
            return None
        found = self.host.exits.get(path.text)
        return found if isinstance(found, dict) and "unknown" not in found else None

    def _handed(self, node: ast.expr, scope: Scope) -> Str | None:
        """The string `dbutils.notebook.run(...)` returns: the callee's exit text (a
        template where the callee knows only part of it), or the JSON text of a dict
        it dumps when every field of it is known; else None (a placeholder)."""
        handed = self._exit_of(node, scope)
        if handed is None:
            return None
        if "text" in handed:
            held = held_value(handed["text"])
            return held if isinstance(held, Str) and not held.unknown else None
        fields = handed.get("json")
        if isinstance(fields, dict) and all(isinstance(v, str) for v in fields.values()):
            return Str(json.dumps(fields))
        return None

    def _handed_dict(self, node: ast.expr, scope: Scope) -> dict[str, object] | None:
        """`json.loads(dbutils.notebook.run(...))` of a callee that exits with
        `json.dumps` of a dict: its fields, those the callee knows only in part as
        templates; a field it does not know stays out (read as a placeholder)."""
        handed = self._exit_of(node, scope)
        fields = handed.get("json") if handed is not None else None
        if not isinstance(fields, dict):
            return None
        known: list[tuple[str, object]] = []
        for key, value in fields.items():
            held = held_value(value) if value is not None else None
            known.append((str(key), held if isinstance(held, Str) and not held.unknown else None))
        return literal_dict(known)

    def _stated_item(self, node: ast.expr, scope: Scope) -> Str | None:
        """`TARGETS[(system, entity)]`, `TARGETS[pair]` of a dict the front end holds only
        for the value layer (a `Collection`: keys that are tuples), by a key of known
        texts: the text the dict holds there (a held sequence of texts is the tuple it
        was written as: a list key would raise). None where the key or the item is not
        known text (a missing key raises: no value)."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
            return None
        held = scope.env.get(node.value.id)
        if type(held) is not Collection or type(held.value) is not dict or node.value.id in self.host.mutated_names:
            return None
        key = self._plain_argument(node.slice, scope)
        if isinstance(key, list) and all(isinstance(k, str) for k in key):
            key = tuple(key)
        if not (isinstance(key, str) or (isinstance(key, tuple) and all(isinstance(k, str) for k in key))):
            return None
        found = held.value.get(key)
        return Str(found) if isinstance(found, str) else None

    def _sliced(self, node: ast.expr, scope: Scope) -> Str | None:
        """`t[1:]`, `t[:-3]`, `t[::-1]` of a known string, with bounds that are
        integer literals: that slice, as Python takes it; None otherwise (a slice of a
        value only a run knows is an unknown part, named apart: see `_opaque`)."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)):
            return None
        bounds = []
        for part in (node.slice.lower, node.slice.upper, node.slice.step):
            if part is None:
                bounds.append(None)
                continue
            index = _literal_index(part)
            if index is None:
                return None
            bounds.append(index)
        if bounds[2] == 0:
            return None  # a ValueError in Python: no value
        base = self.string(node.value, scope)
        if base.params or base.unknown or base.scalar:
            return None
        return Str(base.text[slice(*bounds)])

    def _split_part(self, node: ast.expr, scope: Scope) -> Str | None:
        """`key.split("__")[1]`, `path.rsplit("/", 1)[-1]` of a known string: that
        part, with the separator and the most splits the call gives (as `str.split`
        and `str.rsplit` take them); None for any other argument."""
        if not (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr in ("split", "rsplit")
        ):
            return None
        index = _literal_index(node.slice)
        given = _split_arguments(node.value)
        if index is None or given is None:
            return None
        base = self.string(node.value.func.value, scope)
        if base.params or base.unknown:
            return None
        sep, most = given
        parts = base.text.split(sep, most) if node.value.func.attr == "split" else base.text.rsplit(sep, most)
        return Str(parts[index]) if -len(parts) <= index < len(parts) else None

    def _returned(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, scope: Scope) -> object:
        """What a function of the file returns for this call (`cfg, opts =
        setup_configuration(args)`); None when that cannot be told."""
        return self._evaluate(fn, call, scope)[1]

    def _decided(self, test: ast.expr, scope: Scope) -> bool | None:
        """The truth of a branch's test a function's reading can tell: a name (or its
        `not`) holding a text known whole (`if not conf_file:` where the task gives
        the file) or a known scalar (`if init_conf:` with its default `None`); None
        for anything else, a text a run gives among them."""
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        operand = test.operand if negated else test  # type: ignore[attr-defined]
        if not isinstance(operand, ast.Name):
            return None
        held = scope.env.get(operand.id)
        if type(held) is Str and held.scalar:  # `if init_conf:` with the default `None`
            return bool(held.value) != negated
        if type(held) is not Str or held.params or held.unknown:
            return None
        return bool(held.text) != negated

    def _returned_text(self, node: ast.Call, scope: Scope) -> Str | None:
        """The text a function of the file returns for this call, read with its
        arguments bound, when it is known or a template of named inputs
        (`table_name("x")` with `return f"{CATALOG}.s.{t}"`): the same as through a
        name (`t = table_name("x")`); None when the call is no such function or what
        it returns is not told, or when none of its parts is known."""
        if not isinstance(node.func, ast.Name):
            return None
        home = self.host.walker.home(node.lineno) if self.host._homes else None
        # in a helper pasted from another module, a name of that module's (see `Walker.callee`)
        name = node.func.id if home is None else f"{home}{SCOPED}{node.func.id}"
        if name not in self.host.functions:
            return None
        returned = self._returned(self.host.functions[name], node, scope)
        if type(returned) is not Str or returned.scalar:
            return None
        return returned if not returned.unknown or _partly_known(returned) else None

    def _evaluate(
        self,
        fn: ast.FunctionDef | ast.AsyncFunctionDef,
        call: ast.Call,
        scope: Scope,
        owner: Instance | None = None,
        bound: dict[str, object] | None = None,
    ) -> tuple[dict[str, object], object]:
        """A function's body read for its values only (no writes), its parameters bound
        to the call's: the `self.x` it sets with known text or to an object of the
        project (`self.config = config`, read as `self.config.catalog`), and what its
        first `return` gives (a tuple for `return a, b`). Statements other than
        assignments and that return are passed over, and an attribute set inside one
        of them (`if prod: self.table = ...`) or set again to what is not known is
        not known; a `return` inside one of them (`if prod: return A`) makes what the
        call returns not told (None), never the later `return` taken for it. A
        method of an object (`owner`) starts from what the object holds; `bound`
        binds names besides the parameters (`cls` of a class method)."""
        attrs: dict[str, object] = dict(owner.items) if owner is not None else {}
        cls = owner.cls if owner is not None else ""
        if frame(fn) in scope.calls or len(scope.calls) >= MAX_HELPER_DEPTH:
            return attrs, None
        local = Scope(env=self._bound_call(fn, call, scope), calls=(*scope.calls, frame(fn)))
        if owner is not None:
            local.env["self"] = owner
        local.env.update(bound or {})
        pending = _straight(fn.body)
        while pending:
            stmt = pending.pop(0)
            decided = self._decided(stmt.test, local) if isinstance(stmt, ast.If) else None
            if decided is not None:  # `if not conf_file: return {}` with the file known: its other branch
                pending[:0] = _straight(stmt.body if decided else stmt.orelse)  # type: ignore[attr-defined]
                continue
            parent = self._parent_init(fn, stmt)
            if parent is not None:  # `super().__init__(catalog)`: what the base's sets, in turn
                owner = Instance(tuple(attrs.items()), cls=cls)
                attrs = self._evaluate(parent, stmt.value, local, owner)[0]  # type: ignore[attr-defined]
                local.env["self"] = Instance(tuple(attrs.items()), cls=cls)
                continue
            if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:  # `self.table: str = t`
                stmt = ast.Assign(targets=[stmt.target], value=stmt.value)
            if not isinstance(stmt, (ast.Return, ast.Assign)) and _returns_inside(stmt):
                return attrs, None
            if isinstance(stmt, ast.Return) and stmt.value is not None:
                if isinstance(stmt.value, ast.Tuple):
                    return attrs, tuple(self._value(e, local) for e in stmt.value.elts)
                return attrs, self._value(stmt.value, local)
            pairs = _unpacked_pairs(stmt)
            if pairs is not None:  # `self.spark, self.name = spark, name`: each its own, read first
                values = [
                    self._value(v, local, t.id) if isinstance(t, ast.Name) else self._attribute_value(v, local)
                    for t, v in pairs
                ]
                for (target, _), held in zip(pairs, values, strict=True):
                    if isinstance(target, ast.Name):
                        local.env[target.id] = held
                    elif held is None:
                        attrs.pop(target.attr, None)
                    else:
                        attrs[target.attr] = held
                local.env["self"] = Instance(tuple(attrs.items()), cls=cls)
                continue
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                changed = self_attributes_set([stmt])  # `if c: self.t = ...`, `self.n += 1`
                attrs = {} if changed is None else {k: v for k, v in attrs.items() if k not in changed}
                for name in bound_names(stmt):  # `for i in range(n): total = total + 1`: not followed
                    local.env.pop(name, None)
                local.env["self"] = Instance(tuple(attrs.items()), cls=cls)
                continue
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                local.env[target.id] = self._value(stmt.value, local, target.id)
            elif isinstance(target, (ast.Tuple, ast.List)):  # `args, rest = parser.parse_known_args(argv)`
                held = self._value(stmt.value, local)
                names = [t.id if isinstance(t, ast.Name) else None for t in target.elts]
                given = held if isinstance(held, tuple) and len(held) == len(names) else (None,) * len(names)
                for name, value in zip(names, given):
                    if name is not None and value is not None:
                        local.env[name] = value
                    elif name is not None:
                        local.env.pop(name, None)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                held = self._attribute_value(stmt.value, local)
                if held is None:
                    attrs.pop(target.attr, None)
                else:
                    attrs[target.attr] = held
            elif (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Attribute)
                and isinstance(target.value.value, ast.Name)
                and target.value.value.id == "self"
                and isinstance(attrs.get(target.value.attr), Instance)
            ):  # `self.config.schema = s`: one field of the object it holds
                inner: Instance = attrs[target.value.attr]  # type: ignore[assignment]
                attrs[target.value.attr] = with_attribute(inner, target.attr, self._attribute_value(stmt.value, local))
            else:
                changed = self_attributes_set([stmt])  # `self.a.b.c = x`, `self.t[k] = x`
                attrs = {} if changed is None else {k: v for k, v in attrs.items() if k not in changed}
            # later attributes read the ones set before them (`self.fqn = f"{self.catalog}.x"`)
            local.env["self"] = Instance(tuple(attrs.items()), cls=cls)
        return attrs, None

    def _parent_init(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, stmt: ast.stmt) -> ast.FunctionDef | None:
        """The `__init__` a statement `super().__init__(...)` (or `super(Cls,
        self).__init__(...)`) of method `fn` runs: that of the one project class
        `fn`'s class derives from (or the first of its bases that has one); None for
        any other statement, or a class of several bases (which runs next depends on
        the object's class) or of a base not of the project."""
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "__init__"
            and isinstance(call.func.value, ast.Call)
            and isinstance(call.func.value.func, ast.Name)
            and call.func.value.func.id == "super"
        ):
            return None
        walker = self.host.walker
        defining = next((c for c in self.host.classes.values() if any(f is fn for f in c.body)), None)
        if defining is None or len(defining.bases) != 1 or not isinstance(defining.bases[0], ast.Name):
            return None
        given = call.func.value.args
        if given and not (len(given) == 2 and isinstance(given[0], ast.Name) and given[0].id == defining.name):
            return None  # `super(Other, self)`: another class's turn
        base = walker.class_named(defining.bases[0].id, defining.lineno)
        return walker.method_named(base, "__init__") if base is not None else None

    def _attribute_value(self, node: ast.expr, scope: Scope) -> object:
        """What an attribute set to `node` holds, when the reader keeps it: a known
        text (or a template of named inputs, or one with known parts, as a name
        keeps it), an object of a class of the project (`config`, `self.config`,
        `Config.from_yaml(path)`) or a document (`self.conf = yaml.safe_load(f)`, one
        a method returns); None otherwise. A call is read as a name bound to it
        would be (`_value`: the objects it makes or returns first)."""
        text = self.string(node, scope)
        if not text.unknown or _partly_known(text):  # `{raw_catalog}.ops.c`
            return text
        if isinstance(node, (ast.Name, ast.Attribute)):
            held = self._held(node, scope)
        elif isinstance(node, ast.Call):
            held = self._value(node, scope)
        else:
            held = None
        return held if isinstance(held, (Instance, dict)) else None

    def _opaque(self, node: ast.expr, scope: Scope | None = None) -> Str:
        """A value that is neither constant nor a named parameter: an unknown
        placeholder named after its source text. Read from a name that holds an
        item of a collection not known (`row.table_name` of `for row in rows:`), it
        is such an item too (`{each_row_table_name}`, see `lattice.EACH`)."""
        shown = self.host.sites.one_line_source(node)
        if shown is None:
            try:
                shown = ast.unparse(node)
            except Exception:  # noqa: BLE001 - unparse of odd nodes; a name is enough
                shown = "value"
        name = placeholder_name(shown)  # (`t[1:]` and `t * 2` named apart by their text)
        if scope is not None and not untold(name):
            for read in ast.walk(node):
                held = scope.env.get(read.id) if type(read) is ast.Name else None
                if type(held) is Str and held.params and all(untold(p) for p in held.params):
                    name = EACH + name
                    break
        return Str("{" + name + "}", (name,), True)

    def _arithmetic(self, node: ast.BinOp, scope: Scope) -> str | None:
        """`8 * 1024`, `n - 1` with `n` a known integer: the number as text; None when
        a side is not a known integer (Python's own operators on small ints only)."""
        if not isinstance(node.op, (ast.Sub, ast.Mult, ast.FloorDiv)):
            return None
        sides = []
        for side in (node.left, node.right):
            text = self.string(side, scope) if isinstance(side, (ast.Constant, ast.Name, ast.BinOp)) else None
            if text is None or text.unknown or text.params or not re.fullmatch(r"-?\d{1,18}", text.text):
                return None
            sides.append(int(text.text))
        left, right = sides
        if isinstance(node.op, ast.Sub):
            return str(left - right)
        if isinstance(node.op, ast.Mult):
            return str(left * right) if abs(left * right) < 10**18 else None
        return str(left // right) if right else None

    def _format(self, template: Str, call: ast.Call, scope: Scope) -> Str:
        import string as _string

        out = Str("", template.params, template.unknown)
        auto = 0
        try:
            parsed = list(_string.Formatter().parse(template.text))
        except ValueError:
            return Str(template.text, template.params, True)
        for literal, field_name, spec, conversion in parsed:
            out = out + Str(literal)
            if field_name is None:
                continue
            key = field_name.split(".")[0].split("[")[0]
            if key != field_name:  # `{0.name}`, `{cfg[db]}`: a member of the argument, not followed
                out = out + Str("{" + param_name(field_name) + "}", (param_name(field_name),), True)
                if key == "":
                    auto += 1
                continue
            arg: ast.expr | None = None
            if key == "":
                arg = call.args[auto] if auto < len(call.args) else None
                auto += 1
            elif key.isdigit():
                arg = call.args[int(key)] if int(key) < len(call.args) else None
            else:
                arg = next((k.value for k in call.keywords if k.arg == key), None)
            if arg is None:
                if template.params and key in template.params:
                    out = out + Str("{" + key + "}", (key,))
                else:
                    out = out + Str("{" + param_name(key or "arg") + "}", (param_name(key or "arg"),), True)
            else:
                held = self._placeholder(arg, scope)
                out = out + self._shown(held, spec or "", ord(conversion) if conversion else -1, arg)
        return out

    def _percent(self, template: Str, right: ast.expr, scope: Scope) -> Str:
        values = right.elts if isinstance(right, ast.Tuple) else [right]
        mapping = {}
        if isinstance(right, ast.Dict):
            mapping = {k.value: v for k, v in zip(right.keys, right.values) if isinstance(k, ast.Constant)}
        out = Str("", template.params, template.unknown)
        pos = 0
        idx = 0
        for m in PERCENT_DIRECTIVE.finditer(template.text):
            out = out + Str(template.text[pos : m.start()])
            pos = m.end()
            key, flags, kind = m.groups()
            if m.group(0) == "%%":
                out = out + Str("%")
                continue
            if key:
                arg = mapping.get(key)
                if arg is None:
                    out = out + param_str(key)
                    continue
            else:
                arg = values[idx] if idx < len(values) else None
                idx += 1
                if arg is None:
                    out = out + Str("{arg}", ("arg",), True)
                    continue
            held = self._placeholder(arg, scope)
            out = out + (held if plain_directive(flags, kind) else self._percent_shown(held, flags, kind, arg))
        return out + Str(template.text[pos:])

    def _spec_text(self, spec: ast.expr | None, scope: Scope) -> str | None:
        """An f-string field's format spec as text (`03d`, or `>{w}` with `w` known);
        None when a part of it is not known."""
        if spec is None:
            return ""
        text = self.string(spec, scope)
        return None if text.params or text.unknown else text.text

    def _shown(self, held: Str, spec: str | None, conversion: int, node: ast.expr) -> Str:
        """A formatted field: the value's text as Python shows it with the field's spec
        and conversion (`f"t_{n:03d}"` is `t_007`, `{s!r}` is quoted). Without either,
        the text itself (a template stays one); with either, each known alternative
        formatted by Python, a template quoted by `!r` when its known text needs no
        escape, and anything else an unknown part of the statement."""
        if spec == "" and conversion in (-1, ord("s")):
            return held
        if spec is None:
            return self._opaque(node)
        single = len(alternatives(held)) == 1
        if spec == "" and conversion == ord("r") and single and (held.params or held.unknown) and _quotable(held):
            return Str("'") + held + Str("'")
        return self._each_formatted(held, node, lambda value: format_field(value, spec, conversion))

    def _percent_shown(self, held: Str, flags: str, kind: str, node: ast.expr) -> Str:
        """A printf-style directive other than a bare `%s` applied to each known
        alternative of `held` as Python applies it; an unknown part otherwise."""
        return self._each_formatted(held, node, lambda value: percent_field(value, flags, kind))

    def _each_formatted(self, held: Str, node: ast.expr, show: Callable[[object], str | None]) -> Str:
        """`show` applied to the value of each alternative of `held` (one of them when
        they differ); an unknown part of the statement when one is not wholly known
        or `show` gives nothing for it."""
        shown: list[Str] = []
        for alternative in alternatives(held):
            if alternative.params or alternative.unknown:
                return self._opaque(node)
            text = show(alternative.value if alternative.scalar else alternative.text)
            if text is None:
                return self._opaque(node)
            shown.append(Str(text))
        return one_of(shown)


def _quotable(held: Str) -> bool:
    """A string whose `repr` is its text in single quotes: its known text has no
    quote, backslash or unprintable character (a template's unknown parts are
    unknown either way)."""
    return not held.scalar and "'" not in held.text and "\\" not in held.text and held.text.isprintable()


def frame(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """A function as the helpers being read name it (`Scope.calls`): by its name
    and where it stands, so `Job.__init__` making a `Writer` reads `Writer.__init__`
    (a function of the same name, not a recursion)."""
    return f"{fn.name}:{fn.lineno}:{fn.col_offset}"


def _returns_inside(stmt: ast.stmt) -> bool:
    """A `return` of the function inside the statement (not of a function it defines)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def self_attributes_set(body: list[ast.stmt]) -> frozenset[str] | None:
    """The attributes of `self` the statements may change, nested functions
    included: stored (`self.t = x`, `self.n += 1`, `for self.i in ...`), or changed
    inside (`self.config.schema = s`, `self.tables["a"] = t`); None when any may
    change (`setattr(self, name, x)`, `self.__dict__.update(...)`)."""
    changed: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        stack.extend(ast.iter_child_nodes(node))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "vars")
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "self"
        ):
            return None
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "__dict__"
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            return None  # `self.__dict__.update(conf)`: any attribute
        if not isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            continue
        inner = node
        while isinstance(inner, (ast.Attribute, ast.Subscript)):
            owner = inner.value
            if isinstance(owner, ast.Name) and owner.id == "self" and isinstance(inner, ast.Attribute):
                if inner.attr == "__dict__":
                    return None
                changed.add(inner.attr)
                break
            inner = owner
    return frozenset(changed)


def with_attribute(instance: Instance, name: str, value: object) -> Instance:
    """The object with one attribute set (`obj.name = value`): to `value` when the
    reader keeps it (a text, an object), otherwise no longer known."""
    kept = tuple((k, v) for k, v in instance.items if k != name)
    return Instance(kept + (((name, value),) if value is not None else ()), cls=instance.cls)


def joined_objects(objects: tuple[object, ...], depth: int = 0) -> Instance | None:
    """Objects of one class that paths joining may hold, as one object: an
    attribute they all hold the same stays, texts that differ become one of them
    (`one_of`: a write reads each), anything else is not known. None when they are
    not all objects of one class."""
    first = objects[0]
    if not all(isinstance(o, Instance) and o.cls == first.cls for o in objects) or depth >= 3:
        return None
    items: list[tuple[str, object]] = []
    for name, value in first.items:  # type: ignore[attr-defined]
        held = [member(o, name) for o in objects]  # type: ignore[arg-type]
        if all(h == value for h in held):
            items.append((name, value))
        elif all(isinstance(h, Str) for h in held):
            joined = one_of(held)  # type: ignore[arg-type]
            if joined is not TOO_MANY:
                items.append((name, joined))
        elif (inner := joined_objects(tuple(held), depth + 1)) is not None:
            items.append((name, inner))
    return Instance(tuple(items), cls=first.cls)  # type: ignore[attr-defined]


def _number(held: Str) -> bool:
    return held.scalar and type(held.value) in (int, float)


_NUMBER_OPERATORS = {ast.Add: operator.add, ast.Mod: operator.mod}


def computed(op: ast.operator, left: Str, right: Str) -> Str | None:
    """`left op right` of two known numbers as Python gives it (`count + 1`, `7 % 4`);
    None when a side is not a known number, on a division by zero, or past 10**18."""
    if not (_number(left) and _number(right)) or type(op) not in _NUMBER_OPERATORS:
        return None
    try:
        value = _NUMBER_OPERATORS[type(op)](left.value, right.value)
    except ArithmeticError:
        return None
    return Str(str(value), value=value) if abs(value) < 10**18 else None


def plus(left: Str, right: Str) -> Str | None:
    """`left + right` as Python gives it: numbers add, strings join; a number beside
    anything but a known number is not told (a string there is a TypeError, a part
    only a run knows may be either): None."""
    if _number(left) or _number(right):
        return computed(ast.Add(), left, right)
    return left + right


def _unpacked_pairs(stmt: ast.stmt) -> list[tuple[ast.Name | ast.Attribute, ast.expr]] | None:
    """`a, self.b = x, y` as its (target, value) pairs, when each target is a name or
    an attribute of `self` and the values are a display of as many elements (no
    `*rest`); None otherwise. Python reads every value before it binds a target, so
    the caller reads the values first."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return None
    target, value = stmt.targets[0], stmt.value
    if not (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))):
        return None
    if len(target.elts) != len(value.elts) or any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts)):
        return None
    for elt in target.elts:
        is_self = isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Name) and elt.value.id == "self"
        if not (isinstance(elt, ast.Name) or is_self):
            return None
    return list(zip(target.elts, value.elts, strict=True))  # type: ignore[arg-type]


# what a literal list's items may be written as, for its texts to be held one by one
# (`(args["system"].lower(), entity)` included: an item whose text is not known is not)
_ITEM_NODES = (ast.Constant, ast.JoinedStr, ast.Name, ast.Subscript, ast.Call, ast.Attribute, ast.BinOp)

_NAMESPACE_NAMES = frozenset(n.rsplit(".", 1)[-1] for n in NAMESPACES)


def _split_arguments(call: ast.Call) -> tuple[str | None, int] | None:
    """The separator and the most splits of a `split`/`rsplit` call written with
    literals (`sep`/`maxsplit` by keyword too); None for any other argument or an
    empty separator (which Python refuses)."""
    if len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    given: dict[str, ast.expr] = dict(zip(("sep", "maxsplit"), call.args))
    for keyword in call.keywords:
        if keyword.arg not in ("sep", "maxsplit") or keyword.arg in given:
            return None
        given[keyword.arg] = keyword.value
    sep, most = given.get("sep"), given.get("maxsplit")
    if sep is not None and not (isinstance(sep, ast.Constant) and (sep.value is None or isinstance(sep.value, str))):
        return None
    if most is not None and not (isinstance(most, ast.Constant) and type(most.value) is int):
        return None
    sep_value = sep.value if sep is not None else None  # type: ignore[union-attr]
    if sep_value == "":
        return None
    return sep_value, most.value if most is not None else -1  # type: ignore[union-attr]


def _literal_index(node: ast.expr) -> int | None:
    """An index written as an integer literal (`1`, `-1`), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal_index(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _straight(body: list[ast.stmt]) -> list[ast.stmt]:
    """A function body as its values read it: a `try` whose every handler raises
    (`try: return REGISTRY[name] except KeyError: raise SystemExit(...)`) and that
    has no `else` or `finally` returns only what its body returns, so its body is
    read in its place; any other compound statement stays (see `_evaluate`)."""
    out: list[ast.stmt] = []
    for stmt in body:
        if (
            isinstance(stmt, ast.Try)
            and stmt.handlers
            and not stmt.orelse
            and not stmt.finalbody
            and all(h.body and isinstance(h.body[-1], ast.Raise) for h in stmt.handlers)
        ):
            out.extend(_straight(stmt.body))
        else:
            out.append(stmt)
    return out
