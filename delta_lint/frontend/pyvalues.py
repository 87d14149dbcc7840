"""What a Python variable can hold, as the Python front end reads it.

Job code builds table names, conditions and options out of strings: constants,
f-strings, `.format`, dicts of settings, lists a loop runs over, objects whose
`__init__` sets attributes, widget and argv values a job binds. These are the
values the front end keeps for a name (`Str` with its `{param}` placeholders,
lists and dicts of them, `Instance`, ...), the scope it reads a block in, and the pure
functions that turn literal syntax into them. A `Str` carries the value of
`values.lattice` behind its text: the text itself, a known value that is not a
string, or the lattice's `OneOf` of the texts it may be. Reading values out of
code is `values.resolver`; making intents of them is `python`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from delta_lint.frontend.values import brains, lattice
from delta_lint.frontend.values.budget import MAX_BUILT_TEXT
from delta_lint.frontend.values.evaluator import Made
from delta_lint.frontend.values.lattice import MAX_ALTERNATIVES
from delta_lint.frontend.values.sources import number_text
from delta_lint.model import JSON_INPUT, OBJECT_KEY, Flag, Location, TableRef
from delta_lint.predicates import param_name


class _Text:
    """The `value` of a `Str` that is text: a string, a template, an unknown part."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is _Text

    def __hash__(self) -> int:
        return 1

    def __repr__(self) -> str:
        return "TEXT"

    def __reduce__(self) -> str:
        return "TEXT"  # the module's one, when pickled and back


TEXT = _Text()


@dataclass(frozen=True, eq=False)
class Str:
    """A statically known string; `{name}` marks a parameter or unknown part.

    `value` is the lattice's value behind the text (`values.lattice`): `TEXT` for
    the text itself; a known value that is not a string (`None`, `True`, `2`, `0.5`:
    a default, a constant, a flag of a config document), the text being what an
    f-string shows for it (see `scalar`: a condition tests that value, a SQL
    literal is written from it, a value function is given it; a string built from
    it, `f"v{n}"`, is text again); or, for a string that is one of several texts
    (`if env == "prod": t = "a.x" else: t = "b.x"`, `x if flag else y`, a loop that
    may not run), the lattice's `OneOf` of those texts (see `one_of`), or its
    `Unknown` past `MAX_ALTERNATIVES`. Such a string is unknown as text (its text
    a `{one_of}` placeholder), so every reader that does not ask for the
    alternatives stays sound; `+` (and so f-strings) keeps them, and the analyzer
    reads a write once per alternative."""

    text: str
    params: tuple[str, ...] = ()
    unknown: bool = False  # some part is neither constant nor a named parameter
    value: object = TEXT

    @property
    def scalar(self) -> bool:
        """Whether this is a known value that is not a string (see `value`)."""
        return type(self.value) in _SCALARS

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Str:
            return NotImplemented
        return (self.text, self.params, self.unknown, _key(self.value)) == (  # type: ignore[attr-defined]
            other.text,  # type: ignore[attr-defined]
            other.params,  # type: ignore[attr-defined]
            other.unknown,  # type: ignore[attr-defined]
            _key(other.value),  # type: ignore[attr-defined]
        )

    def __hash__(self) -> int:
        return hash((self.text, self.params, self.unknown, _key(self.value)))

    def __add__(self, other: Str) -> Str:
        if len(self.text) + len(other.text) > MAX_BUILT_TEXT:  # a string doubled again and again
            return Str("{" + TOO_LONG + "}", merge_params(merge_params(self.params, other.params), (TOO_LONG,)), True)
        plain = Str(self.text + other.text, merge_params(self.params, other.params), self.unknown or other.unknown)
        if not (_joined(self) or _joined(other)):
            return plain
        if _too_many(self) or _too_many(other):
            return Str(plain.text, plain.params, True, _TOO_MANY)  # unknown for good
        # each combination, and as a plain string the template (`f"main.{one_of}.t"`),
        # so a reader that does not fork still sees the known parts
        joined = one_of([a + b for a in alternatives(self) for b in alternatives(other)])
        if _joined(joined):
            return Str(plain.text, plain.params, True, joined.value)
        return joined


# MAX_BUILT_TEXT (see `values.budget`): the longest text a string built by the
# analyzer may hold, so `s = s + s` eighteen times on a 50 KB literal costs nothing.
TOO_LONG = "too_long"  # the placeholder of a string past it

_SCALARS = frozenset({type(None), bool, int, float})
_TOO_MANY = lattice.Unknown(f"more than {MAX_ALTERNATIVES} texts")


def _key(value: object) -> object:
    """What tells two `Str.value`s apart: a `OneOf` by its texts in order (it has no
    equality of its own), another value by its type too (`1`, `1.0` and `True` are
    three values)."""
    return (lattice.OneOf, value.values) if type(value) is lattice.OneOf else (type(value), value)  # type: ignore[attr-defined]


def _joined(value: Str) -> bool:
    """Whether a string is one of several texts, or unknown past the cap of those."""
    return type(value.value) is lattice.OneOf or value.value is _TOO_MANY


def _too_many(value: Str) -> bool:
    return value.value is _TOO_MANY


def alternatives(value: Str) -> tuple[Str, ...]:
    """The texts a string may be: the alternatives of one of several, or itself."""
    held = value.value
    return held.values if type(held) is lattice.OneOf else (value,)  # type: ignore[attr-defined]


ONE_OF = "one_of"  # the placeholder a string that is one of several shows (named like any, see `_opaque`)
TOO_MANY = Str("{" + ONE_OF + "}", (ONE_OF,), True, _TOO_MANY)  # past the cap: absorbs every later join


def one_of(values: list[Str]) -> Str:
    """The join of several strings: the one string when they agree, a string whose
    value is the lattice's `OneOf` of them up to `MAX_ALTERNATIVES`, else one
    unknown for good."""
    distinct: list[Str] = []
    for value in values:
        if _too_many(value):
            return TOO_MANY
        for alt in alternatives(value):
            if alt not in distinct:
                distinct.append(alt)
    if len(distinct) == 1:
        return distinct[0]
    if len(distinct) > MAX_ALTERNATIVES:
        return TOO_MANY
    params = tuple(dict.fromkeys((ONE_OF, *(p for v in distinct for p in v.params))))
    return Str("{" + ONE_OF + "}", params, True, lattice.OneOf(tuple(distinct)))


def joined_session(before: dict[str, object], states: list[dict[str, object]]) -> dict[str, object]:
    """The SQL session's fields (`Session.__dict__`) after a statement read once per
    value its names may hold (`spark.sql(f"USE {schema}")`, `schema` one of several):
    what every reading left, where they agree. A catalog or schema they leave
    different is shown as the `{one_of}` placeholder, and the (catalog, schema)
    pairs the readings leave are its `choices`: a later write whose name leans on
    them is one write per pair (`Session.per_choice`), never the first reading's
    name nor the one before the statement. Past `MAX_ALTERNATIVES` pairs the names
    are unknown, as a `USE` of a name only a run knows leaves them. Pairs of which
    one holds a part only a run gives are not read per pair: the names keep the
    `{one_of}` part (the engine cannot yet tell a thread pool's calls of such names
    apart). Any other field that differs stays as it was before."""
    if all(state == states[0] for state in states):
        return states[0]
    out = dict(before)
    for key, first in states[0].items():
        if all(state.get(key) == first for state in states):
            out[key] = first
        elif key in ("catalog", "schema"):
            out[key] = "{" + ONE_OF + "}"
    if any(state.get(key) != states[0].get(key) for state in states for key in ("catalog", "schema", "choices")):
        pairs = [pair for state in states for pair in state.get("choices") or ((state["catalog"], state["schema"]),)]
        out["choices"] = tuple(dict.fromkeys(pairs))
        if len(out["choices"]) > MAX_ALTERNATIVES:
            out["choices"], out["unknown"] = (), ("catalog", "schema")
        elif any("{" in (part or "") for pair in out["choices"] for part in pair):
            # a name only a run gives in part (`{secret}.inter`): not read per pair, as the
            # engine would take a thread pool's calls of such a name for one table
            out["choices"] = ()
    return out


def member_alternatives(nodes: Iterable[ast.AST], env: dict[str, object]) -> list[tuple[str, str, tuple[Str, ...]]]:
    """The keys of dicts whose value is one of several texts that `nodes` (a write's
    syntax) read as `conf["key"]`: (name, key, the texts). A write that reads one is
    read once per text, as for a name holding one of several (the dict is not
    itself one of several: a key of it is). A name holding one of several dicts
    that all have the key gives the texts of each."""
    out: list[tuple[str, str, tuple[Str, ...]]] = []
    for node in nodes:
        if type(node) is not ast.Subscript or type(node.value) is not ast.Name:  # type: ignore[attr-defined]
            continue
        key = node.slice  # type: ignore[attr-defined]
        held = env.get(node.value.id)  # type: ignore[attr-defined]
        if type(key) is not ast.Constant or type(key.value) is not str:
            continue
        # one dict, or one of several (each read in turn as the name's alternatives)
        dicts = held.values if type(held) is lattice.OneOf else (held,)  # type: ignore[attr-defined]
        if not all(type(d) is dict and key.value in d for d in dicts):
            continue
        texts: list[Str] = []
        for d in dicts:
            value = d[key.value]
            if type(value) is Str and type(value.value) is lattice.OneOf:
                texts += [t for t in value.value.values if t not in texts]  # type: ignore[attr-defined]
        found = (node.value.id, key.value, tuple(texts))  # type: ignore[attr-defined]
        if texts and found not in out:
            out.append(found)
    return out


def held_alternatives(value: object) -> tuple[object, ...]:
    """The values a held value may be when the code cannot tell which: the lattice's
    `OneOf` of them, as a name holds it or as a string's value (none otherwise)."""
    if type(value) is Str:
        value = value.value
    return value.values if type(value) is lattice.OneOf else ()  # type: ignore[attr-defined]


def join_envs(outcomes: list[dict[str, object]]) -> dict[str, object]:
    """The names bound after control flow merges, from the environment each path
    left: `lattice.join_envs` with `join_held`, a name whose values do not join
    left out (unknown). A name bound on some paths only keeps the value of those
    paths: reading it on the others raises in Python."""
    joined = lattice.join_envs(outcomes, join_held)
    if len(outcomes) == 1:
        return joined
    return {name: value for name, value in joined.items() if value is not _UNJOINED}


_UNJOINED = object()  # values `join_held` cannot join: past `MAX_ALTERNATIVES`


def join_held(bound: list[object]) -> object:
    """The value a name holds where paths meet. The same value on every path stays
    itself; strings that differ become a string that is one of them (`one_of`);
    other values that differ (a writer
    with or without `.partitionBy(...)`, a dict or a string) become the lattice's
    `OneOf` of them, unknown to every reader but the analyzer's reading of a write,
    which is done once per value; past `MAX_ALTERNATIVES` they are unknown."""
    if all(v is bound[0] for v in bound) or all(_same(v, bound[0]) for v in bound):
        return bound[0]
    if all(isinstance(v, Str) for v in bound):
        return one_of(bound)  # type: ignore[arg-type]
    choices: list[object] = []
    for v in bound:
        for alt in lattice.alternatives(v):
            if not any(_same(alt, c) for c in choices):
                choices.append(alt)
    if len(choices) <= MAX_ALTERNATIVES and not any(isinstance(c, Str) and _too_many(c) for c in choices):
        return lattice.OneOf(tuple(choices))
    return _UNJOINED


def _same(a: object, b: object) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - a value whose equality fails is not the same
        return False


def scalar(value: None | bool | int | float) -> Str | None:
    """A known value that is not a string as the analyzer holds it: its text as an
    f-string shows it, and the value (None for an integer too long to write, see
    `number_text`)."""
    if value is None or isinstance(value, bool):
        return Str(str(value), value=value)
    text = number_text(value)
    return None if text is None else Str(text, value=value)


NONE = Str("None", value=None)  # `None`: false as a condition (`f"... {c}" if c else ""` with `c=None`)


def merge_params(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a + b))


def placeholders(text: str) -> list[str]:
    """The `{name}` placeholders of a text, braces included, in order."""
    return _PLACEHOLDERS.findall(text)


_PLACEHOLDERS = re.compile(r"\{[^{}]+\}")


# placeholders that stand for no value a run gives: one of several texts, a text or
# number too large to hold (see `Str.__add__`, `values.resolver`)
_NO_RUN_VALUE = frozenset({"{" + ONE_OF + "}", "{too_long}", "{huge_number}"})
_NAME_CHARACTER = re.compile(r"\w")


def named_in_part(text: str) -> bool:
    """Whether a table name (or location) holding parts only a run knows still names
    something of its own: a known word beside its placeholders (`dev_{user}.customers`,
    `/tmp/{user}/events`), each placeholder one value of the run. Two writes of such a
    name are paired by its text, as one table where the runs give the parts the same
    value (the engine says so: `Engine.run_time_name`); a name of placeholders alone
    (`{t}`, `{a}.{b}`) tells nothing of which table it is."""
    parts = placeholders(text)
    if any(p in _NO_RUN_VALUE or lattice.untold(p[1:-1]) for p in parts):
        return False
    return _NAME_CHARACTER.search(_PLACEHOLDERS.sub("", text)) is not None


def param_str(name: str) -> Str:
    name = param_name(name)
    return Str("{" + name + "}", (name,))


@dataclass(frozen=True)
class Step:
    """One link of a method chain: `.name` or `.name(...)`."""

    name: str
    call: ast.Call | None
    node: ast.expr  # the chain up to and including this step


@dataclass(frozen=True)
class Chain:
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class DataFrame:
    reads: frozenset[TableRef]
    # what every row holds in some columns, built from constants (see `frames`): per
    # column, sorted, the literal values (`("lit", "a")`); empty when none is known
    rows: tuple[tuple[str, frozenset[tuple[str, object]]], ...] = ()


class ArgNamespace:
    """The result of `parser.parse_args()`: attribute reads are parameters."""


@dataclass
class Scope:
    env: dict[str, object] = field(default_factory=dict)
    flags: frozenset[Flag] = frozenset()
    stream: Location | None = None
    params: tuple[str, ...] = ()
    site: Location | None = None  # inside a helper read for one call: where its writes are reported
    calls: tuple[str, ...] = ()  # the helpers being read for a call, outermost first (no recursion)


# A dict is held as a dict, as the value layer's evaluator holds one: a literal dict
# of the code (`config = {"db": "sales"}`; `config["db"]` reads it) maps each key to
# what the analyzer holds of its value, or to UNHELD where it holds nothing (a loop
# over its keys still runs once per key, but reading that key is unknown).
UNHELD = lattice.Unknown("a value the analyzer does not hold")


class Document(dict):  # type: ignore[type-arg]
    """A document of the project as loaded (`load_config("dev")`, `yaml.safe_load(f)`),
    held as a dict of the values the analyzer holds (its nested mappings documents
    too); the others are left out. `plain` is the document as the value layer gave it:
    what a value function it is handed to reads, and which keys it has (a key it
    lacks gives `.get`'s default; a literal dict may just not know the key)."""

    __slots__ = ("plain",)

    def __init__(self, items: dict[str, object], plain: object) -> None:
        super().__init__(items)
        self.plain = plain


def literal_dict(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A literal dict as held, from its keys in order and what is held of each value
    (None where nothing is): a key written twice holds its last value, as in Python
    (not held when that one is not)."""
    out: dict[str, object] = {}
    for key, value in pairs:
        out[key] = UNHELD if value is None else value
    return out


def known_items(held: dict | Instance) -> list[tuple[str, object]]:  # type: ignore[type-arg]
    """The keys of a held dict (or the attributes of an object) whose values are held."""
    if isinstance(held, Instance):
        return list(held.items)
    return [(k, v) for k, v in held.items() if v is not UNHELD]


def all_held(mapping: dict) -> bool:  # type: ignore[type-arg]
    """Whether every value of a held dict is held."""
    return not any(v is UNHELD for v in mapping.values())


def member(held: dict | Instance, key: str) -> object:  # type: ignore[type-arg]
    """The value held under `key` (a nested mapping included), None when none is."""
    if isinstance(held, Instance):
        return next((v for k, v in held.items if k == key), None)
    found = held.get(key)
    return None if found is UNHELD else found


def get_text(held: dict | Instance, key: str) -> Str | None:  # type: ignore[type-arg]
    """The string held under `key` of a dict or an object, None when none is."""
    found = member(held, key)
    return found if isinstance(found, Str) else None


def is_texts(held: object) -> bool:
    """Whether a held value is a list of strings: a literal list, tuple or set of
    them (`for t in TABLES:` runs once per element), held as a list of `Str`, as the
    value layer's evaluator holds a list. Lists are held of one kind of item, so the
    first tells (an empty list is one of strings)."""
    return type(held) is list and (not held or type(held[0]) is Str)


def is_configs(held: object) -> bool:
    """Whether a held value is a configuration list: a literal list of literal dicts
    (`TABLES = [{"name": "main.s.a"}, ...]`), held as a list of them. A loop over it
    binds each dict in turn, `TABLES[0]["name"]` reads one."""
    return type(held) is list and bool(held) and type(held[0]) is not Str


@dataclass(frozen=True)
class InputDoc:
    """A document a job input holds (`json.loads(dbutils.widgets.get("app_configs"))`):
    what it contains is known only at run time, but each of its fields is a job
    input of its own (`app_configs["CATALOG"]`), the same wherever it is read."""

    inputs: frozenset[str]


@dataclass(frozen=True)
class Instance:
    """An object of a class of the file (`logger = BackfillLogger(run_id=r)`): its
    attributes as `__init__` sets them from the call's values (those known as text);
    `logger.start()` reads the method with `self` bound to it."""

    items: tuple[tuple[str, object], ...]
    cls: str = ""


class UnknownState(lattice.Unknown):
    """An object of a class of the file whose `__init__` leaves no attribute known
    (`w = Store(spark, load())`): as a value, the lattice's `Unknown` (its reason names
    the class), but `w.save("main.x.y", df)` is still that class's method, read at the
    call with its own arguments bound; only its `self.x` reads are unknown. Two are
    alike when their classes are (not every unknown, as for `Unknown`)."""

    __slots__ = ("cls",)

    def __init__(self, cls: str) -> None:
        super().__init__(f"what an object of class {cls} holds")
        self.cls = cls

    def __eq__(self, other: object) -> bool:
        return type(other) is UnknownState and other.cls == self.cls

    def __hash__(self) -> int:
        return hash((UnknownState, self.cls))

    def __repr__(self) -> str:
        return f"UnknownState({self.cls!r})"


# the calls `PythonAnalyzer.string` reads as text (and `may_give_text` lets through)
CASE_AND_TRIM = brains.CASE_AND_TRIM


DEDENT = ("dedent", "cleandoc")


TEXT_METHODS = frozenset({"format", "join", "replace", *CASE_AND_TRIM, *DEDENT})


TEXT_FUNCTIONS = frozenset({*DEDENT, "str"})


def may_give_text(call: ast.Call) -> bool:
    """Whether `PythonAnalyzer.string` reads this call as text (a method or function
    it follows), rather than naming it an unknown placeholder."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr in TEXT_METHODS
    return isinstance(func, ast.Name) and func.id in TEXT_FUNCTIONS


def argument_at(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    """A call's argument by position or keyword."""
    if index < len(call.args) and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def loop_names(target: ast.expr) -> list[str]:
    """The names a `for` binds (`t`, or `name, kind`); empty for other targets."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
        return [e.id for e in target.elts]  # type: ignore[attr-defined]
    return []


def from_plain(value: object, depth: int = 0) -> object:
    """A value the evaluator gives (a value of `values.lattice`) as the analyser holds
    it: a string or a known scalar as a `Str`, a list of strings as a list of them, a
    dict as a `Document` (its values so held, those with no such form left out); one
    of several strings as a string that is one of them (`one_of`: a write is then
    read once per value); a template as a `Str` with its named inputs. None when it
    has no such form (unknown, or one of values that are not all strings)."""
    if depth > 16:
        return None
    if isinstance(value, lattice.Template):
        return Str(value.text, value.params, value.unknown)
    if isinstance(value, lattice.OneOf):  # strings only: `None` on one way is no name
        if all(isinstance(v, (str, lattice.Template)) for v in value.values):
            return one_of([from_plain(v, depth + 1) for v in value.values])  # type: ignore[misc]
        return None
    if value is None or isinstance(value, (bool, int, float)):
        return scalar(value)
    if isinstance(value, str):
        return Str(value)
    if isinstance(value, dict):
        items = {}
        for k, v in value.items():
            held = from_plain(v, depth + 1)
            if held is not None:
                items.setdefault(str(k), held)
        return Document(items, value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return [Str(v) for v in value]
    if type(value) is Made:  # `Namespace(**conf)`, a configuration object: its text fields by attribute
        fields = ((str(k), from_plain(v, depth + 1)) for k, v in value.fields.items())
        return Instance(tuple((k, v) for k, v in fields if type(v) is Str), cls=value.cls)
    return None


_NOT_PLAIN = lattice.Unknown("not fully known to the analyzer")


def to_plain(held: object, depth: int = 0) -> object:
    """A held value as the evaluator takes it (`values.lattice`): a fully known value
    as plain Python, a template of named inputs as the lattice's `Template` (as
    `from_plain` gives one back), one of several strings as the lattice's `OneOf`,
    else unknown."""
    if depth > 16:
        return _NOT_PLAIN
    if isinstance(held, Str) and held.scalar:
        return held.value
    if isinstance(held, Str) and type(held.value) is lattice.OneOf:  # one of a few strings: the evaluator reads each
        plain = [to_plain(v, depth + 1) for v in held.value.values]
        if not plain or any(isinstance(v, lattice.Unknown) for v in plain):
            return _NOT_PLAIN
        return lattice.join(plain)
    if isinstance(held, Str):
        if held.unknown:
            return _NOT_PLAIN
        return lattice.Template(held.text, held.params) if held.params else held.text
    if isinstance(held, Instance):
        return _NOT_PLAIN
    if isinstance(held, UnknownState):  # already the lattice's unknown, with its reason
        return held
    if isinstance(held, Document):
        return held.plain
    if type(held) is lattice.Collection:  # a value only the value layer has a form for
        return held.value
    if isinstance(held, dict):  # every value held: a key left out would give `.get`'s default or fail `in`
        out = {k: to_plain(v, depth + 1) for k, v in held.items()}
        return _NOT_PLAIN if any(isinstance(v, lattice.Unknown) for v in out.values()) else out
    if is_texts(held):  # a configuration list is not given (its dicts are held, not plain)
        items = [to_plain(i, depth + 1) for i in held]  # type: ignore[attr-defined]
        return _NOT_PLAIN if any(isinstance(v, lattice.Unknown) for v in items) else items
    return _NOT_PLAIN


# A template crosses `%run` and imports as a JSON object of this one key (a key no
# literal dict of a job would hold): [text with `{name}` placeholders, the names, unknown].
TEMPLATE_KEY = "\u0000template"
# A string that is one of a few texts crosses as a JSON object of this one key: the
# list of those texts (each plain, or a template as above).
ONE_OF_KEY = "\u0000one_of"
# The depth of dicts within dicts an exported value keeps (a configuration's sections).
MAX_EXPORTED_DEPTH = 8


def held_value(value: object) -> object:
    """A value the link stage gives (plain JSON, as `exported_value` makes it) as the
    analyser holds it. In a dict, None is a key whose value the giver did not know:
    held as UNHELD, so the key reads as unknown (never a `.get` default)."""
    if isinstance(value, str):
        return Str(value)
    if isinstance(value, list):
        return [Str(str(v)) for v in value]
    if isinstance(value, dict) and set(value) == {TEMPLATE_KEY}:
        template = value[TEMPLATE_KEY]
        if isinstance(template, list) and len(template) == 3 and isinstance(template[0], str):
            text, params, unknown = template
            if isinstance(params, list) and all(isinstance(p, str) for p in params):
                return Str(text, tuple(params), bool(unknown))
        return Str("", (), True)
    if isinstance(value, dict) and set(value) == {OBJECT_KEY}:  # an object with its class (see `exported_object`)
        found = value[OBJECT_KEY]
        if isinstance(found, list) and len(found) == 2 and isinstance(found[0], str) and isinstance(found[1], dict):
            fields = [(str(k), held_value(v)) for k, v in found[1].items() if v is not None]
            return Instance(tuple((k, v) for k, v in fields if type(v) is not Str or not v.unknown), cls=found[0])
        return Str("", (), True)
    if isinstance(value, dict) and set(value) == {lattice.COLLECTION_KEY}:  # see `lattice.Collection`
        return lattice.Collection(value[lattice.COLLECTION_KEY])
    if isinstance(value, dict) and set(value) == {ONE_OF_KEY}:
        texts = [held_value(v) for v in value[ONE_OF_KEY]] if isinstance(value[ONE_OF_KEY], list) else []
        if texts and all(type(t) is Str and (t.params or not t.unknown) for t in texts):  # texts, templates
            return one_of(texts)  # type: ignore[arg-type]
        return Str("", (), True)
    if isinstance(value, dict):
        return {str(k): UNHELD if v is None else held_value(v) for k, v in value.items()}
    return Str("", (), True)


def exported_value(held: object, depth: int = 0) -> object:
    """The JSON form a top-level value crosses `%run`, imports and notebook arguments
    in: a fully static value as `plain_value` gives it; a template with known parts
    (`f"{secret}.ops.runs"`) as it is, known parts and named placeholders (see
    `TEMPLATE_KEY`); one of a few such texts as their list (see `ONE_OF_KEY`); a dict
    key by key, None for a key whose value is not known (a secret stays a secret:
    the key is there, its value unknown), nested dicts so too. Else None (a value
    wholly unknown is named where it is used). The forms are JSON, so they key the
    cache, and `held_value` gives each back."""
    if type(held) is lattice.OneOf:  # a dict set one way or another on paths that join (`if cloud == ...`)
        held = joined_dict(held.values)  # type: ignore[attr-defined]
    if type(held) is dict and depth < MAX_EXPORTED_DEPTH:
        fields = {str(k): exported_value(v, depth + 1) if v is not UNHELD else None for k, v in held.items()}
        return fields if any(v is not None for v in fields.values()) else None
    if type(held) is lattice.Collection:  # a list of tuples a loop reads (see `values.iteration`)
        return lattice.exported_collection(held)
    plain = plain_value(held)
    if plain is not None or type(held) is not Str:
        return plain
    if type(held.value) is lattice.OneOf:  # type: ignore[attr-defined]
        texts = [exported_value(t, depth + 1) for t in alternatives(held)]  # type: ignore[arg-type]
        return {ONE_OF_KEY: texts} if all(t is not None for t in texts) else None
    if held.params and held.text != "{" + held.params[0] + "}":  # type: ignore[attr-defined]
        return {TEMPLATE_KEY: [held.text, list(held.params), held.unknown]}  # type: ignore[attr-defined]
    return None


def exported_object(held: object, classes: set[str]) -> object:
    """An object of one of `classes` (the module's own classes other files are given)
    as it crosses imports with its class (see `OBJECT_KEY`): its attributes as
    `exported_value` gives each, so an importer reads `DEFAULT.table("orders")` with
    the class's method and `self` bound to what the object holds. An object of which
    nothing is known crosses too: its methods are still the class's, only its `self.x`
    reads unknown. None for any other value."""
    if type(held) is Instance and held.cls in classes:
        return {OBJECT_KEY: [held.cls, {k: exported_value(v) for k, v in held.items}]}
    if type(held) is UnknownState and held.cls in classes:
        return {OBJECT_KEY: [held.cls, {}]}
    return None


def joined_dict(values: tuple[object, ...], depth: int = 0) -> dict[str, object] | None:
    """The dicts paths that join may hold, as one dict key by key: a key every path
    gives the same value stays; texts that differ become one of them (`one_of`);
    dicts, so joined in turn; anything else, or a key some path lacks, is not held
    (UNHELD: a run on that path may have no such key). None unless every value is a
    plain dict."""
    if not values or depth >= MAX_EXPORTED_DEPTH or not all(type(v) is dict for v in values):
        return None
    dicts: list[dict[str, object]] = list(values)  # type: ignore[arg-type]
    out: dict[str, object] = {}
    for key in dict.fromkeys(k for d in dicts for k in d):
        held = [d.get(key, UNHELD) for d in dicts]
        if any(h is UNHELD for h in held):
            out[key] = UNHELD
        elif all(_same(h, held[0]) for h in held):
            out[key] = held[0]
        elif all(type(h) is Str for h in held):
            joined = one_of(held)  # type: ignore[arg-type]
            out[key] = UNHELD if _too_many(joined) else joined
        else:
            inner = joined_dict(tuple(held), depth + 1)
            out[key] = UNHELD if inner is None else inner
    return out


def json_input(fields: dict[str, object]) -> str:
    """The argument text that carries a dict known in part (see `JSON_INPUT`)."""
    return JSON_INPUT + json.dumps(fields, separators=(",", ":"))


# what `model.JSON_INPUT` and `model.RUN_TIME_INPUT` start with: an input given no text
NO_TEXT = "\u0000"


def text_inputs(inputs: dict[str, str]) -> dict[str, str]:
    """The inputs a run gives a file as text (a SQL file's `:name`, `{name}`): those
    a `json_input` carries are left out, since only `json.loads` reads them (and a
    widget's default is not what such a run gives either)."""
    return {name: value for name, value in inputs.items() if not value.startswith(NO_TEXT)}


def json_input_fields(text: str) -> dict[str, object] | None:
    """The dict a `json_input` text carries, as held (`held_value`); None for any
    other text."""
    if not text.startswith(JSON_INPUT):
        return None
    try:
        fields = json.loads(text[len(JSON_INPUT) :])
    except (ValueError, RecursionError):
        return None
    held = held_value(fields) if isinstance(fields, dict) else None
    return held if isinstance(held, dict) else None


def plain_value(held: object) -> object:
    """The plain JSON form of a fully static value, else None."""
    if isinstance(held, Str):
        return held.text if not (held.params or held.unknown) else None
    if is_texts(held):
        texts = [plain_value(i) for i in held]  # type: ignore[attr-defined]
        return texts if all(isinstance(t, str) for t in texts) else None
    if isinstance(held, (dict, Instance)):  # an object: its attributes known as text
        pairs = {k: plain_value(v) for k, v in known_items(held)}
        static = {k: v for k, v in pairs.items() if isinstance(v, str)}
        return static if static else None
    return None


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` of a chain of attributes on a name (`self._thread`, `t`); None for
    anything else (a subscript, a call's result)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])
