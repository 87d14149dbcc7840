"""What the libraries job code calls return, as data (astroid calls these "brains").

`evaluator` looks a call up here by its dotted name (`os.path.join`) or, for a
method of a known value, by the value's type and the method's name (`str.lower`).
Each entry is a pure function of plain values: it gives the value Python gives,
`UNKNOWN` where it cannot tell, and raises `NoValue` where Python raises. Sizes a
result could reach are checked before it is built (see `budget`). Calls that need
the evaluator's own state (`open`, `yaml.safe_load` of a project document) are
named here too (`DOCUMENT_LOADERS`, `OPENERS`) and done by the evaluator.

What a run is given is named here for both readers of Python values: the
evaluator's dotted names (`JOB_INPUTS`) and the front end's name reader's
looser matches (`JOB_INPUT_CALLS`, `is_argv`, `ARGUMENT_PARSERS`).

The Python front end's readers of Spark and Delta calls keep their knowledge as
data the same way, in `frontend.pyspark_api` (signatures, terminal writes, the
DeltaTable builders and the table handles they return).
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from delta_lint.frontend.values.budget import check_items, check_text
from delta_lint.frontend.values.lattice import UNKNOWN, NoValue, Template, Unordered, unordered

# `__file__` of a module is this folder joined with the module's path relative to the
# configuration root: a file a function opens is a project document when its path,
# made normal, lies under it.
PROJECT_ROOT = "/__project__"

# base classes of configuration models whose objects take their fields from keywords
# (`Config(**yaml.safe_load(f))`) and ignore keys they have no field for (pydantic's
# default); `BaseSettings` is not one: it reads the environment too
MODEL_BASES = frozenset({"BaseModel"})

# methods of `dict` that change the dict they are called on: a name holding one holds,
# after the call, what Python's dict holds then (or no known dict)
DICT_CHANGES = frozenset({"update", "setdefault", "pop", "popitem", "clear"})
# methods that change the list, dict or set they are called on, by the type that has
# them: a name such a call is made on does not hold the literal it was bound to
IN_PLACE = {
    "list": frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"}),
    "dict": DICT_CHANGES,
    "set": frozenset({"add", "discard", "remove", "pop", "clear", "update"})
    | frozenset({"difference_update", "intersection_update", "symmetric_difference_update"}),
    "object": frozenset({"__setitem__", "__delitem__"}),
}
CHANGES_IN_PLACE = frozenset().union(*IN_PLACE.values())
# builtins that only read the value they are given (never change it in place)
READERS = frozenset({"len", "sorted", "list", "tuple", "set", "str", "print", "enumerate", "zip", "any", "all"})
# methods that only read the value they are called on and the values they are given
READ_METHODS = frozenset({"join", "copy", "index", "count", "get", "keys", "values", "items", "format"})

# modules whose attributes are read by dotted name (`os.path.join`, `re.IGNORECASE`)
MODULES = frozenset({"os", "re", "yaml", "json", "posixpath", "pathlib", "glob"})

# environment variables: only a default the code gives is known (no cluster's
# environment is read), taken as the value as a widget's default is where no task is
# known to bind the widget (docs/values.md says so; without a default: a named input);
# every Databricks cluster sets these (not None, value unknown)
ENV_GETTERS = frozenset({"os.getenv", "os.environ.get"})
CLUSTER_VARIABLES = frozenset({"DATABRICKS_RUNTIME_VERSION"})

# what a run is given (a notebook's widgets, a task's parameters): a named input of
# a template (`dbutils.widgets.get("env")` is `{env}`); `dbutils` is a global of
# every Databricks notebook, and `databricks.sdk.runtime` gives it to plain files
NOTEBOOK_GLOBALS = frozenset({"dbutils"})
JOB_INPUTS = frozenset(
    {
        f"{root}.widgets.{method}"
        for root in ("dbutils", "databricks.sdk.runtime.dbutils")
        for method in ("get", "getArgument")
    }
)
# the same inputs as the Python front end's reader of names matches them, by the last
# two parts of the call (`dbutils.widgets.get`, `self.dbutils.widgets.get`,
# `spark.conf.get`, `os.environ.get`, `dbutils.jobs.taskValues.get`): a job input
# named by the call's first argument (or `key=`/`name=`), whatever object holds it
JOB_INPUT_CALLS = frozenset(
    {
        ("widgets", "get"),
        ("widgets", "getArgument"),
        ("conf", "get"),
        ("os", "getenv"),
        ("environ", "get"),
        ("taskValues", "get"),
    }
)


def is_argv(node: ast.expr) -> bool:
    """`sys.argv` or `sys.argv[i]` (any `.argv`, as `from sys import argv` is rare and
    `args.argv` names the same list in job code): a script task's parameters."""
    target = node.value if isinstance(node, ast.Subscript) else node
    return isinstance(target, ast.Attribute) and target.attr == "argv"


# `parser.parse_args()` (and `parse_known_args`): its attributes are a script task's
# `--name` options, job inputs named after the option
ARGUMENT_PARSERS = frozenset({"parse_args", "parse_known_args"})

# never known, whatever the run: a secret's value
SECRETS = frozenset({"dbutils.secrets.get", "databricks.sdk.runtime.dbutils.secrets.get"})

# `yaml.safe_load(f)`, `json.load(f)` of a file the code opened: a project document
DOCUMENT_LOADERS = frozenset({"yaml.safe_load", "yaml.load", "yaml.full_load", "json.load"})
# loaders of a text, by the documents whose whole text they parse as Python would
# (`json.loads(f.read())` of a JSON file; of a YAML file Python may raise)
TEXT_LOADERS = {"json.loads": (".json",)}
OPENERS = frozenset({"open"})
PATH_CONSTRUCTORS = frozenset({"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "Path"})

# methods of a list or dict that leave it as it is (any other may change it in place)
READ_ONLY = frozenset({"get", "keys", "values", "items", "copy", "count", "index"})

# `re.<name>(...)` (see `regex`)
RE_FUNCTIONS = frozenset({"compile", "match", "fullmatch", "search", "sub", "findall", "split"})
PATTERN_METHODS = RE_FUNCTIONS - {"compile"}
MATCH_METHODS = frozenset({"group", "groups", "groupdict"})

# What the code asks of the project's files (see `listing`): the working folder of
# the run (the running file's folder, see docs/values.md), whether a path exists, and
# which files a folder or a pattern holds. A file of the project is known to exist or
# not; a path outside it is not known either way.
WORKING_FOLDER = frozenset({"os.getcwd", "pathlib.Path.cwd", "Path.cwd"})
# `os.path.exists(p)` and the like, by what they answer True for
EXISTS = {"os.path.exists": "any", "os.path.lexists": "any", "os.path.isfile": "file", "os.path.isdir": "folder"}
PATH_EXISTS = {"exists": "any", "is_file": "file", "is_dir": "folder"}
# `Path(p).glob("*.yaml")`, `.rglob(...)`, `.iterdir()`: paths in an order not known
PATH_LISTINGS = frozenset({"glob", "rglob", "iterdir"})
PATH_QUERIES = PATH_LISTINGS | frozenset(PATH_EXISTS)
# `os.listdir(p)` (names), `glob.glob(pattern)` (texts as the pattern spells them)
LISTINGS = frozenset({"os.listdir", "glob.glob", "glob.iglob"})

# a package's folder (`importlib.resources.files("pkg.conf")`, a path) and a file of it
# (`pkgutil.get_data("pkg", "conf.yaml")`, its text; `open_text`, a handle): the one
# folder of the project that holds `pkg/conf/__init__.py`, else not known
PACKAGE_FOLDERS = frozenset({"importlib.resources.files", "importlib_resources.files"})
PACKAGE_TEXTS = frozenset(
    {
        "pkgutil.get_data",
        "importlib.resources.read_text",
        "importlib.resources.read_binary",
        "importlib_resources.read_text",
        "importlib_resources.read_binary",
    }
)
PACKAGE_OPENERS = frozenset({"importlib.resources.open_text", "importlib_resources.open_text"})

# attributes of a path (`Path(__file__).parent`)
PATH_ATTRIBUTES = frozenset({"parent", "name", "stem", "suffix"})


def _absolute(path: str) -> object:
    """An absolute path made normal; a relative one joins a working directory not known."""
    return posixpath.normpath(path) if path.startswith("/") else UNKNOWN


# `os.path` functions of string arguments
PATH_FUNCTIONS: dict[str, Callable[..., object]] = {
    "os.path.join": posixpath.join,
    "posixpath.join": posixpath.join,
    "os.path.dirname": posixpath.dirname,
    "os.path.basename": posixpath.basename,
    "os.path.normpath": posixpath.normpath,
    "os.path.abspath": _absolute,  # the module's path is already absolute (PROJECT_ROOT)
    "os.path.realpath": _absolute,
}

# `str` methods run as Python runs them, on plain arguments (`format`, `join` and
# `replace`, whose results may be large, are checked first by the evaluator)
# objects whose attributes are the keywords they are built with (`Namespace(**conf)`:
# `ns.table` is `conf["table"]`), as a configuration class's object is
NAMESPACES = frozenset({"argparse.Namespace", "types.SimpleNamespace"})

# the methods that keep a name part what the run gives (`c.lower()`, `c.strip()`): a
# named input so changed is still that input (`{c}`), for the front end and the evaluator
CASE_AND_TRIM = ("strip", "lstrip", "rstrip", "lower", "upper")
STR_METHODS = frozenset(
    {
        "lower",
        "upper",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "split",
        "rsplit",
        "startswith",
        "endswith",
        "removeprefix",
        "removesuffix",
        "join",
        "capitalize",
        "title",
    }
)


def plain_scalar(value: object) -> bool:
    return isinstance(value, (str, int, float, bool, type(None)))


def truth(value: object) -> object:
    """Python's truth of a known value, or UNKNOWN (the evaluator's `truth` handles
    the rest of the lattice)."""
    if isinstance(value, (str, int, float, bool, type(None), dict, list, tuple, PurePosixPath)):
        return bool(value)
    return True  # a pattern, a match, a file handle


def _builtin_str(args: list[object]) -> object:
    if len(args) == 1 and (plain_scalar(args[0]) or isinstance(args[0], PurePosixPath)):
        text = str(args[0])
        check_text(len(text))
        return text
    return UNKNOWN


def _builtin_len(args: list[object]) -> object:
    if len(args) == 1 and plain_scalar(args[0]) and not isinstance(args[0], str):
        raise NoValue  # `len(5)`: a TypeError
    return len(args[0]) if len(args) == 1 and isinstance(args[0], (str, list, tuple, dict)) else UNKNOWN


def _builtin_bool(args: list[object]) -> object:
    return truth(args[0]) if len(args) == 1 else UNKNOWN


# builtin functions, of plain arguments
BUILTINS: dict[str, Callable[[list[object]], object]] = {
    "str": _builtin_str,
    "len": _builtin_len,
    "bool": _builtin_bool,
}


def _items(value: object) -> list[object] | Unordered | None:
    """What iterating a known value gives, as Python iterates it (a dict its keys);
    a set's items stay `Unordered`; None for a value not iterated here (a string's
    characters are no collection of names)."""
    if isinstance(value, Unordered):
        return value
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, (list, tuple)):  # a dict view (`d.items()`) is a tuple of its items
        return list(value)
    if plain_scalar(value) and not isinstance(value, str):
        raise NoValue  # `list(5)`: a TypeError
    return None


def _one_iterable(args: list[object], kwargs: dict[str, object]) -> list[object] | Unordered | None:
    return _items(args[0]) if len(args) == 1 and not kwargs else None


def _as_list(args: list[object], kwargs: dict[str, object]) -> object:
    items = _one_iterable(args, kwargs)
    return UNKNOWN if items is None else items


def _as_tuple(args: list[object], kwargs: dict[str, object]) -> object:
    items = _one_iterable(args, kwargs)
    return UNKNOWN if items is None else items if isinstance(items, Unordered) else tuple(items)


def _as_set(args: list[object], kwargs: dict[str, object]) -> object:
    if not args and not kwargs:
        return Unordered()
    items = _one_iterable(args, kwargs)
    return UNKNOWN if items is None else unordered(list(items))


def _sorted(args: list[object], kwargs: dict[str, object]) -> object:
    """`sorted(xs)` of plain strings or of plain numbers as Python sorts them; items
    whose order only a run tells (a template, `key=`, `reverse=`) are the same
    items in an order not known."""
    items = _items(args[0]) if len(args) == 1 else None
    if items is None or set(kwargs) - {"key", "reverse"}:
        return UNKNOWN
    if not kwargs and all(isinstance(i, str) for i in items):
        return sorted(items)  # type: ignore[type-var]
    if not kwargs and all(isinstance(i, (int, float)) and not isinstance(i, bool) for i in items):
        return sorted(items)  # type: ignore[type-var]
    if not kwargs and all(isinstance(i, PurePosixPath) for i in items):
        return sorted(items)  # type: ignore[type-var]  # `sorted(folder.glob("*.yaml"))`
    firsts = [i[0] if isinstance(i, (list, tuple)) and i else None for i in items]
    if not kwargs and all(type(f) is str for f in firsts) and len(set(firsts)) == len(firsts):
        # rows told apart by a first text (`sorted(d.items())`): that text orders them
        return sorted(items, key=lambda i: i[0])  # type: ignore[index]
    if any(isinstance(i, (list, tuple, dict)) for i in items) and kwargs:
        return UNKNOWN  # `key=` of rows: not read
    return unordered(list(items))


def _reversed(args: list[object], kwargs: dict[str, object]) -> object:
    if len(args) != 1 or kwargs or isinstance(args[0], dict):
        return UNKNOWN  # (a dict's keys reversed: a view not modelled)
    items = _items(args[0])
    return UNKNOWN if items is None else items if isinstance(items, Unordered) else items[::-1]


def _enumerate(args: list[object], kwargs: dict[str, object]) -> object:
    start = args[1] if len(args) == 2 else kwargs.get("start", 0)
    if not 1 <= len(args) <= 2 or set(kwargs) - {"start"} or type(start) is not int:
        return UNKNOWN
    items = _items(args[0])
    if items is None or isinstance(items, Unordered):
        return UNKNOWN  # which number goes with which item only a run tells
    return [(start + n, item) for n, item in enumerate(items)]


def _zip(args: list[object], kwargs: dict[str, object]) -> object:
    if not args or set(kwargs) - {"strict"}:
        return UNKNOWN
    columns = [_items(a) for a in args]
    if any(c is None or isinstance(c, Unordered) for c in columns):
        return UNKNOWN
    if kwargs.get("strict") is True and len({len(c) for c in columns}) > 1:  # type: ignore[arg-type]
        raise NoValue  # `zip(a, b, strict=True)` of lengths that differ: a ValueError
    check_items(min(len(c) for c in columns))  # type: ignore[arg-type]
    return [tuple(row) for row in zip(*columns)]  # type: ignore[misc]


def _dict(args: list[object], kwargs: dict[str, object]) -> object:
    """`dict(pairs)` (`dict(zip(names, tables))`) and `dict(k=v)`."""
    if len(args) > 1:
        return UNKNOWN
    out: dict[object, object] = {}
    if args:
        if isinstance(args[0], dict):
            out.update(args[0])
        else:
            pairs = _items(args[0])
            if pairs is None or isinstance(pairs, Unordered):
                return UNKNOWN
            for pair in pairs:
                if not (isinstance(pair, (list, tuple)) and len(pair) == 2):
                    return UNKNOWN
                if not isinstance(pair[0], (str, int)) or isinstance(pair[0], Template):
                    return UNKNOWN
                out[pair[0]] = pair[1]
    out.update(kwargs)
    return out


# builtins that build or walk a collection (`for i, t in enumerate(TABLES)`,
# `for t, q in zip(TABLES, QUERIES)`, `sorted(S)`), of the call's arguments and
# keywords; a set keeps its items without an order (`lattice.Unordered`)
ITERATION_BUILTINS: dict[str, Callable[[list[object], dict[str, object]], object]] = {
    "list": _as_list,
    "tuple": _as_tuple,
    "set": _as_set,
    "frozenset": _as_set,
    "sorted": _sorted,
    "reversed": _reversed,
    "enumerate": _enumerate,
    "zip": _zip,
    "dict": _dict,
}

# calls that run the function they are given on each item of a collection
# (`list(map(spark.sql, STATEMENTS))`) and the builtins that consume what they give
# (a bare `map(...)` or generator runs nothing)
MAPPERS = frozenset({"map"})
CONSUMERS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "any", "all"})
# calls that hand work to a thread, a process or a pool (see `frontend.pools`): a
# comprehension holding one makes calls that run at the same time, which the pool
# reader reads; it is never read as a loop whose turns run one after another
CONCURRENT_CALLS = frozenset(
    {
        "submit",
        "apply_async",
        "map",
        "imap",
        "imap_unordered",
        "map_async",
        "starmap",
        "starmap_async",
        "Thread",
        "Process",
        "Timer",
        "Parallel",
        "delayed",
    }
)

# callers whose function arguments the reading follows to a call it reads (a pool's
# `submit`, `Thread(target=...)`, builtin `map`, `foreachBatch`), and the calls that
# bind arguments to a function for such a later call (`pool.submit(partial(f, x))`)
FOLLOWED_CALLERS = CONCURRENT_CALLS | MAPPERS | {"foreachBatch"}
BINDERS = frozenset({"partial"})


def callee(call: ast.Call) -> str | None:
    """The last name of what a call calls: `submit` of `pool.submit(...)`, `Thread`
    of `threading.Thread(...)`; None for a call of a call's result or a subscript."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


# the flags of `re` (`re.IGNORECASE`) as numbers
RE_CONSTANTS = {
    f"re.{name}": int(getattr(re, name))
    for name in ("I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "U", "UNICODE", "X", "VERBOSE", "A", "ASCII")
}

# What one notebook hands another at run time: `dbutils.notebook.run(path, timeout,
# args)` returns the string the notebook it runs passes to `dbutils.notebook.exit`,
# matched by the last two parts of the call (`dbutils.notebook.run`,
# `self.dbutils.notebook.run`), as `JOB_INPUT_CALLS` are
NOTEBOOK_RUN = ("notebook", "run")
NOTEBOOK_EXIT = ("notebook", "exit")
# calls that end the run where they stand (each by raising: `SystemExit`, the
# notebook's own exit): the code after them in their block is not reached. By the
# last two dotted parts, as `NOTEBOOK_EXIT`; the builtins by their bare name.
EXIT_CALLS = (("sys", "exit"), ("os", "_exit"), NOTEBOOK_EXIT)
EXIT_BUILTINS = frozenset({"exit", "quit"})
# job task values: `dbutils.jobs.taskValues.set(key, value)` in one task's notebook,
# `dbutils.jobs.taskValues.get(taskKey, key, default, debugValue)` in another's
TASK_VALUES_SET = ("taskValues", "set")
TASK_VALUES_GET = ("taskValues", "get")
# the text of a dict (`json.dumps(cfg)`) and the dict a text holds (`json.loads(s)`):
# a dict crosses a notebook's exit as the one, and is read back as the other
JSON_DUMPS = ("json", "dumps")
JSON_LOADS = ("json", "loads")


def call_named(node: ast.expr, name: tuple[str, str]) -> bool:
    """A call whose function's last two dotted parts are `name` (`json.dumps(x)`,
    `dbutils.notebook.exit(x)`)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    owner = node.func.value
    last = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else None
    return (last, node.func.attr) == name


# files whose text the code reads (`open(p).read()`, `Path(p).read_text()`) that the
# link stage gives as documents: SQL the code runs (see `run.DocumentReader`)
TEXT_DOCUMENTS = (".sql",)


def ends_run(node: ast.expr) -> bool:
    """A call that ends the run where it stands (`sys.exit(1)`, `exit()`,
    `dbutils.notebook.exit("skipped")`): see `EXIT_CALLS`."""
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name):
        return node.func.id in EXIT_BUILTINS
    return any(call_named(node, name) for name in EXIT_CALLS)
