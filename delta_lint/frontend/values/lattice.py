"""The values a reader of Python code can tell an expression holds.

Four kinds, ordered from most to least known:

- a known value: plain Python (`str`, `int`, `float`, `bool`, `None`, lists,
  tuples and dicts of them, and the few objects `evaluator` models, such as a
  compiled pattern or a path);
- a `Template`: a string whose known parts are text and whose other parts are
  named inputs (`{env}.sales.orders`, where `env` is a widget of the job), or,
  when it is `unknown`, also values only a run knows, each a placeholder named
  after the code that gives it (`INSERT INTO main.s.t SELECT '{run_id}'`);
- `OneOf`: one of a few known values or templates (at most `MAX_ALTERNATIVES`),
  where the code goes one of several ways the reader cannot decide (`"a.x" if
  prod else "b.x"`);
- `Unknown`, with the reason it is not known.

`join` is the merge where control flow meets again (`if`/`else`, `or`/`and`, a
conditional expression): the values of every way, as one value of this lattice;
unknown when any way is unknown or past `MAX_ALTERNATIVES`, never one way picked.
"""

from __future__ import annotations

from collections.abc import Callable

# At most this many alternatives for one value (astroid caps its inferred values the
# same way): past it the value is unknown.
MAX_ALTERNATIVES = 8


class Unknown:
    """A value that cannot be told, and why. Every unknown is equal to every other
    (a list holding one is compared only after `evaluator` has looked inside), and
    none is equal to a known value. `name` is what a string that shows it calls it
    (`{run_id}`): the caller's name for an argument only a run knows, given to a
    function of another module, so that the statement it builds keeps its known
    parts and says which value of the caller's it waits for."""

    __slots__ = ("reason", "name")

    def __init__(self, reason: str = "not known", name: str | None = None) -> None:
        self.reason = reason
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unknown)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = Unknown()


class TextOf(Unknown):
    """The whole text of a project document that is not SQL (`Path(p).read_text()`
    of a YAML file, by its path): unknown as text to every reader (the evaluator
    holds the document parsed, not its text), but a loader given it (`yaml.safe_load`,
    `json.loads`) loads that document, as `yaml.safe_load(open(p))` does. Unlike
    another unknown, the ways of a branch that read two documents join as one of
    them (`join`), so a loader loads each, never the first."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        super().__init__("the text of a file that is not SQL")
        self.path = path


# Placeholders of values no run gives as an input. A template's `{name}` is one value
# a run gives (a widget, an argument): two writes of `gold/{name}` in two runs given
# the same value write one table, so the name is paired by its text. A loop's name
# over a collection the reader cannot list is no such value: one run binds it to
# every item in turn, so `gold/{each_name}` is as many tables as the collection has
# items, and names none of them. Likewise a name only a statement the reader does
# not follow binds (`with ... as f`, `except ... as e`, `first, *rest = ...`):
# `{unknown_rest}`. A table or location holding such a placeholder is unresolved,
# whatever text stands beside it (`pyvalues.named_in_part`, `sql.table_ref`).
EACH = "each_"
UNTOLD = "unknown_"


# The value the link stage binds a job input to when every task that runs the file
# is known and none gives it (and the file defines no default): a run reads no such
# input (a widget never defined raises, `sys.argv` is shorter), so `x or "dflt"` is
# the default. It starts as every input given no text does (`pyvalues.NO_TEXT`).
ABSENT_INPUT = "\u0000absent"
# What a file's reading records (among the inputs it reads) for an input it reads as
# an operand of `or` that may be false: only such an input is bound `ABSENT_INPUT`,
# so a file that reads its inputs otherwise is not read again for them.
DEFAULTED = "\u0000or "


def untold(name: str) -> bool:
    """Whether a placeholder's name (no braces) stands for a value no run gives as an
    input (see `EACH`)."""
    return name.startswith(EACH) or name.startswith(UNTOLD)


class Template:
    """A string of known text and named inputs: `text` holds `{name}` for each input,
    `params` their names in order of first appearance. `unknown`: some placeholder
    is a value only a run knows, not an input of the job (the front end's
    `Str.unknown`): a table name it forms is named only in part."""

    __slots__ = ("text", "params", "unknown")

    def __init__(self, text: str, params: tuple[str, ...], unknown: bool = False) -> None:
        self.text = text
        self.params = params
        self.unknown = unknown

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Template) and (self.text, self.params, self.unknown) == (
            other.text,
            other.params,
            other.unknown,
        )

    def __hash__(self) -> int:
        return hash((self.text, self.params, self.unknown))

    def __repr__(self) -> str:
        return f"Template({self.text!r})"

    def __add__(self, other: object) -> Template:
        return concat(self, other)

    def __radd__(self, other: object) -> Template:
        return concat(other, self)


def concat(left: object, right: object) -> Template:
    """`left + right` of strings and templates, as a template (unknown in part when
    either is)."""
    text, params, unknown = [], [], False
    for part in (left, right):
        if isinstance(part, Template):
            text.append(part.text)
            params += [p for p in part.params if p not in params]
            unknown = unknown or part.unknown
        else:
            text.append(str(part))
    return Template("".join(text), tuple(params), unknown)


def shown_unknown(name: str) -> Template:
    """A value only a run knows, as a string shows it: one placeholder, `{name}`."""
    return Template("{" + name + "}", (name,), True)


class OneOf:
    """One of a few values (2 to `MAX_ALTERNATIVES`, all known values or templates,
    none alike). It has no truth, equality or hash of its own: an operation on it is
    done once per alternative (`evaluator` does so) and Python's own operators on
    one refuse (TypeError), so it never passes for one of its values. The Python
    front end holds its own values in one too: a string that is one of several
    texts holds their `OneOf` as its value (`pyvalues.one_of`), other values one
    of them directly (a writer built with or without `.partitionBy(...)`, see
    `pyvalues.join_held`); a write is read once per value."""

    __slots__ = ("values",)

    def __init__(self, values: tuple[object, ...]) -> None:
        self.values = values

    def __eq__(self, other: object) -> bool:
        raise TypeError("one of several values: compare each")

    def __hash__(self) -> int:
        raise TypeError("one of several values: hash each")

    def __bool__(self) -> bool:
        raise TypeError("one of several values: test each")

    def __repr__(self) -> str:
        return f"OneOf{self.values!r}"


class Unordered(tuple):  # type: ignore[type-arg]
    """A set's items (`{"a", "b"}`, `set(xs)`): each once, in the order the code
    first gives them, which need not be the order Python iterates them in. A loop
    over one reads every item, but what the loop leaves bound is one of them, never
    the last one read (see `walker`)."""

    __slots__ = ()


def unordered(items: list[object] | tuple[object, ...]) -> Unordered:
    """The set of `items`: each distinct item once (told apart by `key`)."""
    distinct: dict[object, object] = {}
    for item in items:
        distinct.setdefault(key(item), item)
    return Unordered(distinct.values())


class Collection:
    """A value the Python front end has no form of its own for, held as its plain
    value for the value layer: a collection (a list of tuples, a set, a list of mixed
    items), so that a loop over the name reads it item by item (see `iteration`), or
    an object of a library the brains model (`SPLIT = re.compile(r";\\s*\\n")`), so
    that a later expression (`SPLIT.split(text)`) gets it as it is. Every other
    reader of held values finds no text, list of texts or dict in it: to them the
    name holds nothing known."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return type(other) is Collection and key(self.value) == key(other.value)

    def __hash__(self) -> int:
        return hash(key(self.value))

    def __repr__(self) -> str:
        return f"Collection({self.value!r})"


# A `Collection` crosses imports and `%run` as a JSON object of this one key (a key
# no literal dict of a job holds): its items as JSON (tuples as lists)
COLLECTION_KEY = "\u0000collection"


def _json(value: object, depth: int = 0) -> object:
    """A fully known value as JSON, or Unknown (a template, one of several values, a
    set, whose order JSON would fix)."""
    if depth > 16 or type(value) in (Unordered, OneOf, Template, Unknown):
        return UNKNOWN
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        items = [_json(v, depth + 1) for v in value]
        return UNKNOWN if any(type(i) is Unknown for i in items) else items
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        fields = {k: _json(v, depth + 1) for k, v in value.items()}
        return UNKNOWN if any(type(v) is Unknown for v in fields.values()) else fields
    return UNKNOWN


def exported_collection(held: Collection) -> dict[str, object] | None:
    """The JSON form a fully known collection crosses files in; None for any other."""
    items = _json(held.value)
    return None if type(items) is Unknown or not isinstance(items, list) else {COLLECTION_KEY: items}


def alternatives(value: object) -> tuple[object, ...]:
    """The values `value` may be: its alternatives, or itself."""
    return value.values if type(value) is OneOf else (value,)


def key(value: object) -> object:
    """What tells two known values apart: their type all the way down (`1`, `True`
    and `1.0` are three values; `[1]` and `(1,)` two)."""
    if isinstance(value, Unordered):
        return (Unordered, frozenset(key(v) for v in value))
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(key(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((key(k), key(v)) for k, v in value.items()))
    if isinstance(value, (str, int, float, bool, type(None), Template)):
        return (type(value), value)
    if type(value) is OneOf:
        return (OneOf, frozenset(key(v) for v in value.values))
    return (type(value), id(value))  # an object the evaluator models: itself only


def join(values: list[object] | tuple[object, ...]) -> object:
    """The value after the ways that gave `values` meet again: the one value when
    they agree, `OneOf` up to MAX_ALTERNATIVES, else unknown (the first unknown's
    reason when a way is unknown)."""
    distinct: dict[object, object] = {}
    for value in values:
        for alt in alternatives(value):
            if type(alt) is TextOf:  # a document's text: joined by its path (see `TextOf`)
                distinct.setdefault((TextOf, alt.path), alt)
                continue
            if isinstance(alt, Unknown):  # its subclasses too (an object of no known state)
                return alt
            try:
                distinct.setdefault(key(alt), alt)
            except TypeError:  # a value holding a OneOf (a list of them): not split here
                return Unknown("a container of alternatives")
            if len(distinct) > MAX_ALTERNATIVES:
                return Unknown(f"more than {MAX_ALTERNATIVES} values")
    if not distinct:
        return Unknown("no value")
    texts = sum(type(v) is TextOf for v in distinct.values())
    if 0 < texts < len(distinct):  # a document's text or another value: no text known
        return Unknown("a document's text on some ways only")
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    return OneOf(tuple(distinct.values()))


class NoValue(Exception):
    """The code raises here (a missing key, `raise`, a failed `assert`), or may (a
    `raise` in a statement not followed): what is being read gives no value."""


def join_envs(
    ways: list[dict[str, object]], join_values: Callable[[list[object]], object], unbound: object = None
) -> dict[str, object]:
    """The names bound after the ways that left `ways` meet again (ways that leave
    by `return`, `raise`, `break` or `continue` are not given): each name's values
    joined by `join_values` (the reader's `join`, which knows its own objects). A
    name some ways leave unbound holds `unbound` when one is given (reading it may
    raise), else the join of the ways that bind it (reading it on the others raises
    in Python, so no value of theirs can reach a use)."""
    if len(ways) == 1:
        return dict(ways[0])
    out: dict[str, object] = {}
    for name in dict.fromkeys(k for way in ways for k in way):
        held = [way[name] for way in ways if name in way]
        out[name] = unbound if unbound is not None and len(held) < len(ways) else join_values(held)
    return out
