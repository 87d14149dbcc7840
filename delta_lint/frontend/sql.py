"""SQL front end: Delta SQL statements become write intents.

sqlglot (dialect `databricks`) parses most statements. The ones it does not parse,
or parses into an opaque `Command` (OPTIMIZE, VACUUM, RESTORE, REORG, CONVERT TO
DELTA, ALTER ... DROP FEATURE / UNSET TBLPROPERTIES, MERGE WITH SCHEMA EVOLUTION),
are recognised first by small pattern recognisers ("pre-dispatch"), because
extending sqlglot's compiled parser by subclassing fails (field notes).
"""

from __future__ import annotations

import logging
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import TypeVar

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import Token, TokenType

from delta_lint.frontend.conditions import constant_of, region_of
from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.sqltext import (
    LARGE_VALUES,
    MARKER,
    Statement,
    Templated,
    Unterminated,
    apply_templates,
    chain_string_literals,
    drop_templated_clauses,
    split_statements,
    strip_leading_comments,
    values_head,
)
from delta_lint.model import (
    DYNAMIC_SQL,
    UNRESOLVED_TABLE,
    Diagnostic,
    Flag,
    Intent,
    Kind,
    Location,
    ProcedureDef,
    TableDDL,
    TableRef,
)
from delta_lint.predicates import OPAQUE, WHOLE, Constraint, Region

logging.getLogger("sqlglot").setLevel(logging.ERROR)

DIALECT = "databricks"
_DIALECT = Dialect.get_or_raise(DIALECT)


def parse_sql(text: str) -> exp.Expression | None:
    """`sqlglot.parse_one(text, read="databricks")` without looking the dialect up
    again and building a new tokenizer and parser for every statement (a third of
    the cost of parsing short statements). A statement sqlglot refuses is read again
    with its chains of adjacent string literals joined (`chain_string_literals`)."""
    try:
        return _parse_once(text)
    except (ParseError, TokenError) as err:
        chained = chain_string_literals(text)
        if chained == text:
            raise
        first = err
    try:
        return _parse_once(chained)
    except (ParseError, TokenError):
        raise first from None  # the first reading's error names the text as written


def _parse_once(text: str) -> exp.Expression | None:
    tokens = _TOKENIZER.tokenize(text)
    if _may_name_a_type(text):
        _columns_named_as_types(tokens)
    trees = _PARSER.parse(tokens, text)
    if not trees:
        raise ParseError(f"no expression was parsed from {text[:40]!r}")
    return trees[0]


# A column named like a temporal type (`date`, `timestamp`: the usual partition
# columns) is a type keyword to sqlglot's tokenizer, so the parser first reads it as
# a type, and the Spark-family parser then asks of that type `is_type("char",
# "varchar")`, which parses both names with a whole `parse_one` (a new dialect,
# tokenizer and parser each), before it gives up and reads a column. Such a word
# directly followed by a comparison can only be a column, and so can one standing
# alone in a list (`SELECT id, date, amount FROM`: after SELECT or `,`, before `,` or
# FROM; a third of the statements of the benchmark corpus); given to the parser as
# the plain word it is, the parser reads the same column at once. Not after `.`,
# `:`, `::` or AS (a field or a cast's type) nor between the angle brackets of a
# nested type (`ARRAY<DATE>=`, `MAP<STRING, DATE>`), where the word may be a type;
# a column definition's type follows its name, never SELECT or `,`.
_TYPE_WORD = re.compile(r"\b(?:date|time|timestamp|timestamp_ntz|timestamp_ltz|datetime)\b", re.I)


def _may_name_a_type(text: str) -> bool:
    """Whether the text may hold a word of `_TYPE_WORD`. Each of them holds `date` or
    `time`, and a substring test of the lower-cased text for those is much cheaper
    than the case-insensitive search (RESULTS.md has the figures); the pass it gates
    reads the tokens and changes only what it would change anyway. Text that is not
    ASCII is searched, as a case-insensitive pattern also matches some letters
    `lower` leaves (see `sqltext._may_template`)."""
    if text.isascii():
        lowered = text.lower()
        return "date" in lowered or "time" in lowered
    return _TYPE_WORD.search(text) is not None


_TEMPORAL_TYPES = frozenset(
    {
        TokenType.DATE,
        TokenType.TIME,
        TokenType.TIMESTAMP,
        TokenType.TIMESTAMPTZ,
        TokenType.TIMESTAMPNTZ,
        TokenType.TIMESTAMPLTZ,
        TokenType.DATETIME,
    }
)
_COMPARISONS = frozenset(
    {
        TokenType.EQ,
        TokenType.NEQ,
        TokenType.NULLSAFE_EQ,
        TokenType.GT,
        TokenType.GTE,
        TokenType.LT,
        TokenType.LTE,
        TokenType.IN,
        TokenType.IS,
        TokenType.BETWEEN,
    }
)
_BEFORE_A_TYPE = frozenset({TokenType.DOT, TokenType.COLON, TokenType.DCOLON, TokenType.QDCOLON, TokenType.ALIAS})
_LIST_BEFORE = frozenset({TokenType.SELECT, TokenType.COMMA})
_LIST_AFTER = frozenset({TokenType.COMMA, TokenType.FROM})
_CLOSES_NESTED = frozenset({TokenType.GT, TokenType.GTE})
_WATCHED = _TEMPORAL_TYPES | _CLOSES_NESTED | {TokenType.LT}


def _columns_named_as_types(tokens: list[Token]) -> None:
    """Turn the temporal type keywords that can only be column names (see above) into
    plain words, in place. Only the tokens that open or close a nested type or are
    temporal words are visited (a statement's other tokens change nothing here); the
    token before each is read from the list, where a word already turned is VAR
    instead of its type, which no test below tells apart."""
    nested = _PARSER.NESTED_TYPE_TOKENS
    depth = 0  # inside how many `<` of nested types
    last = len(tokens) - 1
    for index in [i for i, t in enumerate(tokens) if t.token_type in _WATCHED]:
        token = tokens[index]
        kind = token.token_type
        previous = tokens[index - 1].token_type if index else None
        if kind is TokenType.LT:
            if previous in nested:
                depth += 1
        elif kind in _CLOSES_NESTED:
            if depth:
                depth -= 1
        elif (
            not depth
            and index < last
            and previous not in _BEFORE_A_TYPE
            and (
                (after := tokens[index + 1].token_type) in _COMPARISONS
                or (previous in _LIST_BEFORE and after in _LIST_AFTER)
            )
        ):
            token.token_type = TokenType.VAR


_TOKENIZER = _DIALECT.tokenizer_class(dialect=_DIALECT)
_PARSER = _DIALECT.parser()
_GENERATOR = _DIALECT.generator()  # generate() keeps no state between calls; one is built, not one per call
_GENERIC_GENERATOR = Dialect().generator()


def _generic_sql(node: exp.Expression) -> str:
    """`node.sql()` (sqlglot's own dialect) without building a dialect and a generator
    for every call; a leaf is not copied, as nothing rewrites a leaf."""
    return _GENERIC_GENERATOR.generate(node, copy=not node.is_leaf())


PARSE_ERROR = "DL000"


TXN_APP_ID_CONF = "spark.databricks.delta.write.txnappid"
# the kinds of write that commit the session's txnAppId: Delta's WriteIntoDelta (appends
# and overwrites, SQL INSERTs among them) and its DML commands
TXN_KINDS = frozenset(
    {
        Kind.BLIND_APPEND,
        Kind.INSERT_READING_TARGET,
        Kind.REPLACE_WHERE,
        Kind.DYNAMIC_OVERWRITE,
        Kind.FULL_OVERWRITE,
        Kind.UPDATE,
        Kind.DELETE,
        Kind.MERGE,
    }
)


@dataclass
class Session:
    """SQL session state that changes how later statements behave (USE, SET)."""

    catalog: str | None = None
    schema: str | None = None
    non_delta: frozenset[str] = frozenset()  # tables created USING another format
    auto_merge: bool = False
    row_level_preview: bool = False
    dynamic_overwrite: bool = False
    variables: tuple[tuple[str, str], ...] = ()  # SQL script variables and the text they hold
    # where each variable was last given its text: the site of the statement an
    # `EXECUTE IMMEDIATE` of it runs (see `analyze_sql`)
    variable_sites: tuple[tuple[str, Location], ...] = ()
    # the column order of the tables the script's CREATE TABLE statements declare:
    # an INSERT without a column list writes its values in that order
    columns: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # (table, property, value) a CREATE TABLE of the script declares in TBLPROPERTIES
    properties: tuple[tuple[str, str, str], ...] = ()
    # `spark.databricks.delta.write.txnAppId`: the application later data writes of the
    # session name in their SetTransaction, as a writer's `txnAppId` option does
    txn_app_id: str | None = None
    # the script variables whose text holds a part nothing static gives (see `sqlscript`)
    unknown_variables: tuple[str, ...] = ()
    # which of "catalog" and "schema" a `USE IDENTIFIER(...)` set to a name only a run
    # knows: the names that lean on it are not resolved (see `table_ref`)
    unknown: tuple[str, ...] = ()
    # the procedures the script defines, by qualified name, and the writes of their
    # bodies: a `CALL` of one makes them (see `_Procedures`, `_call`)
    procedures: tuple[tuple[str, tuple[Intent, ...]], ...] = ()
    # the procedures the script defines as it gives them to other files (`ProcedureDef`),
    # and the qualified names of those it CALLs without defining them (see `_call`)
    defined: tuple[ProcedureDef, ...] = ()
    unknown_calls: tuple[str, ...] = ()
    # the (catalog, schema) pairs a `USE` of one of several names leaves (a Python
    # value that is one of several, one of several statement texts): `catalog` and
    # `schema` show `{one_of}` where the pairs differ, and each write whose name
    # leans on them is read as one write per pair (`per_choice`)
    choices: tuple[tuple[str | None, str | None], ...] = ()
    # where the script's statements place tables and schemas in storage: ("table", name,
    # location) of a `CREATE TABLE ... LOCATION`, ("schema", name, location) of a Hive
    # metastore `CREATE SCHEMA ... LOCATION` (its managed tables live in
    # `<location>/<table>`); names and locations known in full only (see `_locate`)
    located: tuple[tuple[str, str, str], ...] = ()

    def set_conf(self, key: str, value: str | None) -> None:
        """A `SET key = value` (`spark.conf.set`); None unsets the key (`spark.conf.unset`)."""
        key = key.strip().strip("`").lower()
        if key == TXN_APP_ID_CONF:
            app = value.strip().strip("'\"") if value is not None else ""
            self.txn_app_id = app or None
            return
        on = (value or "").strip().strip("'\"").lower()
        if key == "spark.databricks.delta.schema.automerge.enabled":
            self.auto_merge = on == "true"
        elif key == "spark.databricks.delta.rowlevelconcurrencypreview":
            self.row_level_preview = on == "true"
        elif key == "spark.sql.sources.partitionoverwritemode":
            self.dynamic_overwrite = on == "dynamic"

    def use(self, parts: list[str], kind: str | None) -> None:
        """`USE [CATALOG | SCHEMA] name`: a known name; it also makes the parts it
        sets known again."""
        kind = (kind or "").upper()
        self.choices = ()
        if kind == "CATALOG":
            self.catalog, self.schema, self.unknown = parts[-1], None, ()
        elif len(parts) >= 2:
            self.catalog, self.schema, self.unknown = parts[-2], parts[-1], ()
        elif parts:
            self.schema = parts[-1]
            self.unknown = tuple(p for p in self.unknown if p != "schema")

    def use_unknown(self, kind: str | None, shown: str) -> None:
        """`USE [CATALOG | SCHEMA] IDENTIFIER(expr)` of a name only a run knows, shown
        as `shown` in the names that lean on it. A schema's name may be qualified, so
        the catalog is not known after either."""
        self.choices = ()
        if (kind or "").upper() == "CATALOG":
            self.catalog, self.schema, self.unknown = shown, None, ("catalog",)
        else:
            self.catalog, self.schema, self.unknown = None, shown, ("catalog", "schema")

    def per_choice(self, intent: Intent) -> list[Intent]:
        """A write whose name the session qualified while it is one of several
        (`choices`): one write per (catalog, schema) pair, each flagged `one_of`, as a
        name that is one of several reads ("one of these", never the first). A name
        that does not lean on the choices (qualified in full, a path) is itself."""
        if not self.choices or intent.table is None or intent.table.is_path:
            return [intent]
        parts = intent.table.name.split(".")
        shown = "{" + _ONE_OF + "}"
        catalog = self.catalog == shown and len(parts) == 3 and parts[0] == shown
        schema = self.schema == shown and len(parts) >= 2 and parts[-2] == shown
        if not (catalog or schema):
            return [intent]
        out: list[Intent] = []
        *head, table = parts  # [catalog, schema] or [schema]
        for chosen_catalog, chosen_schema in self.choices:
            named: list[str | None] = list(head)
            if schema:
                named[-1] = chosen_schema
            if catalog:
                named[0] = chosen_catalog
            name = ".".join([*(p for p in named if p), table])
            params = intent.params if _ONE_OF in name else tuple(p for p in intent.params if p != _ONE_OF)
            made = replace(intent, table=TableRef(name), params=params, flags=intent.flags | {Flag.ONE_OF})
            if made not in out:
                out.append(made)
        return out

    def reset(self, key: str | None) -> None:
        """`RESET key` unsets one configuration key; `RESET` alone all of them."""
        for each in (key,) if key is not None else _SESSION_CONFS:
            self.set_conf(each, None)

    def state(self) -> tuple:
        """What reading a statement may read of the session, as a key: the value of each
        field, in the order the class declares them (the same for every session; not
        sorted, as this is asked once a statement), but the columns and properties the
        script's CREATE TABLEs declare. A statement reads those of its own tables
        alone (`declared`), so the statement memo checks just those lookups (see
        `_statement`): a script's statements then meet the memo after any CREATE
        TABLE of other tables."""
        return tuple(map(self.__dict__.__getitem__, _STATE_FIELDS))

    def declared(self, what: tuple[str, ...]) -> str | tuple[str, ...] | None:
        """A lookup of what the script's CREATE TABLEs declare: `("columns", table)`,
        the table's column order (() if none), or `("property", table, key)`, the value
        of one of its `delta.` properties (None if none)."""
        if what[0] == "columns":
            return dict(self.columns).get(what[1], ())
        return next((v for t, k, v in self.properties if t == what[1] and k == what[2]), None)

    def declare(self, intents: list[Intent], text: str) -> None:
        """Remember what the tables created by `intents` (the statement `text`) are
        declared with: their columns in order, and their `delta.` table properties."""
        for i in intents:
            if i.kind in (Kind.CREATE, Kind.CREATE_OR_REPLACE) and i.table is not None and not i.table.is_path:
                known = dict(self.columns)
                known[i.table.name] = i.declared.columns if i.declared is not None else ()
                self.columns = tuple(sorted(known.items()))
                props = {(t, k): v for t, k, v in self.properties if t != i.table.name}
                if i.declared is not None:  # not a CREATE whose clauses are built at run time
                    for m in _DECLARED_PROPERTY.finditer(text):
                        props[(i.table.name, m["key"].lower())] = m["value"].lower()
                self.properties = tuple(sorted((t, k, v) for (t, k), v in props.items()))

    def session_flags(self) -> frozenset[Flag]:
        return frozenset({Flag.ROW_LEVEL_PREVIEW}) if self.row_level_preview else frozenset()


# the configuration keys `Session.set_conf` reads (a `RESET` unsets them all)
_SESSION_CONFS = (
    TXN_APP_ID_CONF,
    "spark.databricks.delta.schema.automerge.enabled",
    "spark.databricks.delta.rowlevelconcurrencypreview",
    "spark.sql.sources.partitionoverwritemode",
)

# the fields of `Session` in its memo key: all but those a statement reads only
# through `Session.declared`
_STATE_FIELDS = tuple(
    f.name for f in fields(Session) if f.name not in ("columns", "properties", "procedures", "defined", "unknown_calls")
)


# ---------------------------------------------------------------------------
# Table names

_PART = r"(?:`(?:[^`]|``)*`|[\w$]+)"
TABLE_NAME = rf"(?:{_PART}(?:\s*\.\s*{_PART})*)"


def split_name(raw: str) -> list[str]:
    """`a`.b.`c.d` -> ['a', 'b', 'c.d'] (backticks removed, dots inside them kept)."""
    return [p[1:-1].replace("``", "`") if p.startswith("`") else p for p in re.findall(_PART, raw)]


def table_ref(parts: list[str], session: Session, tpl: Templated | None) -> tuple[TableRef, bool]:
    """Normalise a table name; returns the ref and whether it is resolved.

    ``delta.`/path` `` is a path table; one- and two-part names are qualified with
    the session's USE catalog/schema. A name whose table part is only a parameter
    cannot be resolved statically.
    """
    parts = [p for p in parts if p != ""]
    # ``delta.`{path}` ``: a path built at run time (a schema named `delta` is not met)
    whole_template = tpl is not None and tpl.is_marker(parts[-1]) if parts else False
    if (
        len(parts) == 2
        and parts[0].lower() in ("delta", "parquet")
        and ("/" in parts[1] or ":" in parts[1] or whole_template)
    ):
        path = tpl.restore_names(parts[1]) if tpl else parts[1]
        told = not (tpl and (tpl.is_marker(parts[1]) or _untold(tpl, parts[1])))
        return TableRef("delta:" + path.rstrip("/"), is_path=True), told
    resolved = bool(parts) and not (tpl and _told_by_run(parts, tpl))
    if session.unknown and (
        (len(parts) < 3 and "catalog" in session.unknown) or (len(parts) == 1 and "schema" in session.unknown)
    ):
        resolved = False  # qualified by a catalog or schema only a run knows
    parts = [p.lower() for p in parts]
    if len(parts) == 1 and session.schema:
        parts = [session.schema, *parts]
    if len(parts) == 2 and session.catalog:
        parts = [session.catalog, *parts]
    name = ".".join(parts)
    if tpl:
        name = tpl.restore_names(name)
    return TableRef(name), resolved


def _told_by_run(parts: list[str], tpl: Templated) -> bool:
    """Whether only a run tells which table a name is: its table part holds no text
    of its own beside its templates (`{t}`, `{x}{y}`), or a part the statement's
    text holds is one of several names the code may choose (`main.{one_of}.t`),
    which no run gives as such, or an item of a collection not known
    (`{each_schema}.orders`: every item in one run). (A `USE` of one of several names still leaves the
    names it qualifies as the session was: reading each later statement once per
    session is not built.)"""
    if not tpl.names:
        return False
    if _NAME_TEXT.search(MARKER.sub("", parts[-1])) is None:
        return True
    if _untold(tpl, ".".join(parts)):
        return True
    return _ONE_OF in tpl.names and _ONE_OF in tpl.params_in(".".join(parts))


def _untold(tpl: Templated, text: str) -> bool:
    """Whether `text` holds a placeholder of a value no run gives as an input (a
    loop's name over a collection not known: `lattice.EACH`), whatever stands beside it."""
    return any(name.startswith(_UNTOLD) for name in tpl.params_in(text))


_NAME_TEXT = re.compile(r"\w")
_ONE_OF = "one_of"  # the placeholder of a text that is one of several (`pyvalues.ONE_OF`)
_UNTOLD = ("each_", "unknown_")  # `lattice.EACH`, `lattice.UNTOLD`


def _sqlglot_table_parts(table: exp.Table) -> list[str]:
    if isinstance(table.this, exp.Dot):  # `a.b.c.d.e`: Unity Catalog names have three parts at most
        shown = ".".join(p.name for p in table.parts)
        raise ParseError(f"the table name `{shown}` has more than three parts")
    parts = (table.args.get("catalog"), table.args.get("db"), table.this)
    # malformed input can leave plain strings where identifiers belong (`main..orders`)
    names = [p.name if isinstance(p, exp.Expression) else str(p) for p in parts if p is not None]
    if any(not n for n in names):
        raise ParseError("a table name has an empty part")
    return names


# ---------------------------------------------------------------------------
# Statement analysis


@dataclass
class _Ctx:
    """Everything one statement's analysis needs."""

    path: str
    location: Location
    session: Session
    tpl: Templated
    text: str  # the templated statement text
    memo: FrontEndMemo
    extra_params: tuple[str, ...] = ()
    rows_cut: bool = False  # an INSERT's VALUES rows after the first were not parsed
    # what reading the statement looked up of the script's declarations, and the
    # answers (`Session.declared`): the statement memo checks them again (`_statement`)
    looked_up: dict = field(default_factory=dict)

    def declared(self, what: tuple[str, ...]) -> str | tuple[str, ...] | None:
        """`Session.declared`, kept in `looked_up`."""
        self.looked_up[what] = answer = self.session.declared(what)
        return answer

    def params(self) -> tuple[str, ...]:
        used = sorted(self.tpl.params_in(self.text) | set(self.extra_params))
        return tuple(used)

    def excerpt(self) -> str:
        one_line = " ".join(self.tpl.restore(self.text).split())
        return one_line if len(one_line) <= 160 else one_line[:157] + "..."


def analyze_sql(
    script: str,
    path: str,
    session: Session,
    base_line: int = 1,
    base_col: int = 1,
    fixed: Location | None = None,
    extra_params: tuple[str, ...] = (),
    line_map=None,
    memo: FrontEndMemo | None = None,
) -> tuple[list[Intent], list[Diagnostic]]:
    """All intents and diagnostics of a SQL script.

    Locations are the statement's own line in the file (`base_line` is the line of
    the script's first character); `fixed` pins every intent to one location (SQL
    built in Python). `line_map(line, col)` maps script positions to file positions
    (notebook cells). `memo`: the run's (without one, what is read is kept for this
    script alone).
    """
    memo = memo if memo is not None else FrontEndMemo()
    intents: list[Intent] = []
    diagnostics: list[Diagnostic] = []

    def where(line: int, column: int) -> Location:
        if fixed is not None:
            return fixed
        if line_map is not None:
            return Location(path, *line_map(line, column))
        return Location(path, base_line + line - 1, column + (base_col - 1 if line == 1 else 0))

    if fixed is None and line_map is None and base_line == 1 and "%" in script:
        script = _without_cell_magics(script, path, diagnostics)
    unterminated: list[Unterminated] = []
    statements = split_statements(script, unterminated)
    for u in unterminated:
        diagnostics.append(
            Diagnostic(
                PARSE_ERROR,
                where(u.line, u.column),
                f"unterminated {u.what}: the script fails to parse; later statements are read as if it ended "
                "with its line",
                "error",
            )
        )
    procedures = (
        _Procedures(statements, session, intents, script, where, fixed is not None)
        if _may_define_procedures(script)
        else None
    )
    branches = None
    for n, stmt in enumerate(statements):
        if procedures is not None:
            stmt = procedures.before(n, stmt)
        loc = where(stmt.line, stmt.column)
        text = stmt.text
        if _SCRIPTING.match(bare := strip_leading_comments(text)):
            from delta_lint.frontend.sqlscript import branch_variables
            from delta_lint.frontend.sqlscript import step as script_step  # scripts are few: loaded for one

            if branches is None:  # the variables branches and loops set: unknown where they merge
                branches = branch_variables([s.text for s in statements])
            variables, unknown = dict(session.variables), set(session.unknown_variables)
            scripted = script_step(bare, variables, unknown, branches.get(n, frozenset()))
            session.variables, session.unknown_variables = tuple(variables.items()), tuple(sorted(unknown))
            if scripted.sets:
                sites = dict(session.variable_sites)
                sites.update(dict.fromkeys(scripted.sets, loc))
                session.variable_sites = tuple(sites.items())
            if scripted.text is None:
                continue
            text = scripted.text
            start = len(stmt.text) - len(bare) + scripted.start  # past the block words it opens with
            if lines := stmt.text.count("\n", 0, start):
                loc = where(stmt.line + lines, start - stmt.text.rfind("\n", 0, start))
            if scripted.reads and fixed is None:  # the statement's text stands where it was set
                set_at = dict(session.variable_sites)
                built = {set_at[v]: None for v in scripted.reads if v in set_at and set_at[v].line != loc.line}
                if built:
                    loc = Location(loc.path, loc.line, loc.column, tuple(built))
        if (
            "(" in text
            and _may_name_identifier(text)
            and _leading_word(strip_leading_comments(text)) not in ("USE", "SET")
        ):
            # (`USE IDENTIFIER(v)`, `SET CATALOG IDENTIFIER(v)`: see `_use_identifier`)
            from delta_lint.frontend.sqlscript import identifiers  # scripts are few: loaded for one

            text = identifiers(text, dict(session.variables), frozenset(session.unknown_variables))
        if _may_hold_table_options(text) and _TABLE_OPTIONS.search(text):
            text = _TABLE_OPTIONS.sub(" ", text)
        if "!" in text:
            text = _BANG_NOT.sub(lambda m: m.group(1) or "NOT ", text)
        tpl = apply_templates(text)
        ctx = _Ctx(path, loc, session, tpl, tpl.text, memo, extra_params)
        try:
            found, diags = _statement(ctx)
        except UnknownStatement as err:
            diagnostics.append(
                Diagnostic(
                    DYNAMIC_SQL,
                    loc,
                    f"the statement `{_short(stmt.text)}` begins with `{err.shown}`, a value only a run knows: "
                    "what it does is not known, and its writes are not checked",
                    "info",
                )
            )
            continue
        except (ParseError, TokenError) as err:
            reason = tpl.restore(plain_reason(err))
            lone = [m[0] for m in _LONE_TEMPLATE.finditer(tpl.text) if not _TAKES_VALUE.search(tpl.text, 0, m.start())]
            if lone:  # `INSERT INTO t {query}`, `CASE {cases} ELSE`: syntax only a run gives
                shown = ", ".join(dict.fromkeys(f"`{tpl.restore(m)}`" for m in lone))
                diagnostics.append(
                    Diagnostic(
                        DYNAMIC_SQL,
                        loc,
                        f"the statement `{_short(stmt.text)}` holds {shown} where SQL syntax stands, a value only a "
                        f"run knows, and does not parse without it ({reason}): its writes are not checked",
                        "info",
                    )
                )
                continue
            diagnostics.append(
                Diagnostic(PARSE_ERROR, loc, f"cannot parse statement `{_short(stmt.text)}`: {reason}", "error")
            )
            continue
        except RecursionError:
            diagnostics.append(Diagnostic(PARSE_ERROR, loc, "statement is nested too deeply to parse", "error"))
            continue
        intents.extend(found)
        diagnostics.extend(diags)
    if procedures is not None:
        procedures.before(len(statements), None)
    return intents, diagnostics


# A notebook's `%sql` cell magic at the start of a line of a plain SQL file: a cell
# pasted without the `-- Databricks notebook source` header that makes the file a
# notebook. Only `%sql` is SQL: another language's magic (`%md`, `%python`) keeps its
# text, which then fails to parse as what it is.
_SQL_MAGIC = re.compile(r"^([ \t]*)%sql\b", re.I | re.M)


def _without_cell_magics(script: str, path: str, diagnostics: list[Diagnostic]) -> str:
    """The script of a whole SQL file with each `%sql` magic blanked (lines and
    columns kept), and an info note at the first saying so: the SQL after it is read
    as the cell would run it, not reported as unparseable."""
    found = list(_SQL_MAGIC.finditer(script))
    if not found:
        return script
    first = found[0]
    line = script.count("\n", 0, first.start()) + 1
    lines = ", ".join(str(script.count("\n", 0, m.start()) + 1) for m in found)
    diagnostics.append(
        Diagnostic(
            PARSE_ERROR,
            Location(path, line, len(first[1]) + 1),
            f"a notebook's `%sql` magic (line{'s' if len(found) > 1 else ''} {lines}) in a plain SQL file, "
            "as if a cell was pasted without the `-- Databricks notebook source` header: the magic is skipped "
            "and the SQL after it is read",
            "info",
        )
    )
    return _SQL_MAGIC.sub(lambda m: m[1] + " " * 4, script)


def given_procedures(
    given: tuple[tuple[str, str, ProcedureDef], ...], display: str, memo: FrontEndMemo | None = None
) -> tuple[tuple[str, tuple[Intent, ...]], ...]:
    """The writes of the procedures other files define (`Context.procedures`), by the
    name the CALLs of a file shown as `display` give them: each definition is read
    as its own file reads it (the catalog and schema it met there), its writes
    located at its statements in that file. A body that CALLs another given
    procedure makes that one's writes too: the definitions are read again, each with
    the bodies of the round before, until none changes (one round per definition
    given and one more, at most MAX_CALL_DEPTH; a recursion adds nothing, see
    `_call`). What reading it says (a statement that does not parse) is that file's
    to say, not repeated here."""
    out: dict[str, tuple[Intent, ...]] = {}
    folder = posixpath.dirname(display)
    for _ in range(min(len(given) + 1, MAX_CALL_DEPTH)):
        known = tuple(out.items())
        now: dict[str, tuple[Intent, ...]] = {}
        for _called, relative, (name, text, line, column, catalog, schema, fixed) in given:
            path = posixpath.normpath(posixpath.join(folder, relative)) if folder else posixpath.normpath(relative)
            session = Session(catalog=catalog or None, schema=schema or None, procedures=known)
            if fixed:
                analyze_sql(text, path, session, fixed=Location(path, line, column), memo=memo)
            else:
                analyze_sql(text, path, session, base_line=line, base_col=column, memo=memo)
            body = dict(session.procedures).get(name)
            if body is not None:
                now[name] = body  # by its own name: a CALL less qualified finds it as `_call` says
        if now == out:
            break
        out = now
    return tuple(out.items())


MAX_CALL_DEPTH = 16  # procedures calling procedures of other files, followed this deep


def _may_define_procedures(script: str) -> bool:
    """Whether the script may hold a `CREATE PROCEDURE` (the word in capitals, lower
    case or capitalised, as scripts spell it): most hold none, and are not split
    into procedure bodies at all."""
    return "PROCEDURE" in script or "procedure" in script or "Procedure" in script


class _Procedures:
    """The procedures a script defines (`CREATE [OR REPLACE] PROCEDURE name (...) ...
    AS BEGIN ... END`). A body runs where the procedure is called, not where it is
    defined: its statements are read in order as the script's are, with the session
    they meet, and what they write is kept as the procedure's (`Session.procedures`)
    instead of the script's; a `CALL` of it makes those writes (`_call`). What the
    body changes of the session (its variables, `USE`) stays in the body. Its
    diagnostics stay where its statements stand. A body whose `END` never comes runs
    to the script's end."""

    def __init__(
        self,
        statements: list[Statement],
        session: Session,
        intents: list[Intent],
        script: str,
        where: Callable[[int, int], Location],
        fixed: bool,
    ) -> None:
        from delta_lint.frontend.sqlscript import PROCEDURE_HEADER, block_depth  # scripts are few

        self.session, self.intents = session, intents
        self.statements, self.script, self.where, self.fixed = statements, script, where, fixed
        # first statement -> (last, name as written, body offset)
        self.spans: dict[int, tuple[int, str, int]] = {}
        self.open: tuple[int, str, int, Session] | None = None  # (last, name, mark, session before)
        n = 0
        while n < len(statements):
            text = statements[n].text
            bare = strip_leading_comments(text)
            m = PROCEDURE_HEADER.match(bare) if bare[:6].upper() == "CREATE" else None
            if m is None:
                n += 1
                continue
            name = m["name"]
            last, depth = n, block_depth(bare[m.end() :])
            while depth > 0 and last + 1 < len(statements):
                last += 1
                depth += block_depth(statements[last].text)
            self.spans[n] = (last, name, len(text) - len(bare) + m.end())
            n = last + 1

    def before(self, n: int, stmt: Statement | None) -> Statement | None:
        """Called before statement `n` is read (and with None after the last): ends
        the body that ended before it, and starts the one whose header it is,
        returned without its header."""
        if self.open is not None and n > self.open[0]:
            last, name, mark, before = self.open
            body = tuple(self.intents[mark:])
            del self.intents[mark:]
            before.procedures = (*((k, v) for k, v in self.session.procedures if k != name), (name, body))
            # the calls its body makes of procedures no file here defines are the file's to
            # ask the link stage for, as the script's own are
            before.unknown_calls = tuple(dict.fromkeys((*before.unknown_calls, *self.session.unknown_calls)))
            for f in fields(Session):
                setattr(self.session, f.name, getattr(before, f.name))
            self.open = None
        if stmt is None or n not in self.spans:
            return stmt
        last, written, offset = self.spans[n]
        name = table_ref(split_name(written), self.session, None)[0].name  # qualified by the `USE` it meets
        # what other files that CALL it are given (`Links.procedures`): its text, where it
        # stands and the catalog and schema it meets here
        end = self.statements[last]
        at = self.where(stmt.line, stmt.column)
        text = self.script[stmt.offset : end.offset + len(end.text)]
        made = (name, text, at.line, at.column, self.session.catalog or "", self.session.schema or "", self.fixed)
        self.session.defined = (*(d for d in self.session.defined if d[0] != name), made)
        self.open = (last, name, len(self.intents), replace(self.session))
        head = stmt.text[:offset]
        lines = head.count("\n")
        column = offset - head.rfind("\n") if lines else stmt.column + offset
        return Statement(stmt.text[offset:], stmt.offset + offset, stmt.line + lines, column)


_IDENTIFIER_WORD = re.compile(r"IDENTIFIER", re.I)


def _may_name_identifier(text: str) -> bool:
    """Whether the statement holds the word IDENTIFIER (`sqlscript.identifiers` reads
    the variables it names), looked for in the lower-cased text but in text that is
    not ASCII (see `sqltext._may_template`)."""
    if text.isascii():
        return "identifier" in text.lower()
    return _IDENTIFIER_WORD.search(text) is not None


# `FROM t WITH (fetchSize = 100000)`: options of a table read (federated sources, JDBC)
# that sqlglot does not parse; they change nothing a write conflicts on.
_TABLE_OPTIONS = re.compile(r"\bWITH\s*\(\s*['\"`]?[\w.]+['\"`]?\s*=[^()]*\)", re.I)


def _may_hold_table_options(text: str) -> bool:
    """Whether the statement holds the word WITH: a test of the lower-cased text
    costs an eighth of the case-insensitive pattern, which fails on nearly every
    statement. Text that is not ASCII is always searched (see `sqltext._may_template`)."""
    return not text.isascii() or "with" in text.lower()


# `!t.removed`: Spark SQL's `!` is NOT (sqlglot reads only `!=`); strings and
# quoted names are kept as they are.
_BANG_NOT = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`)|!(?!=)""")

# Leading words of SQL scripting statements (see `sqlscript`): the others skip it.
_SCRIPTING = re.compile(
    r"(?:\w+\s*:\s*)?(?:BEGIN|END|IF|ELSE|ELSEIF|DECLARE|SET|EXECUTE|WHILE|FOR|LOOP|REPEAT|WHEN|CASE|UNTIL"
    r"|LEAVE|ITERATE|SIGNAL|RESIGNAL)\b",
    re.I,
)

_REQUIRED = re.compile(r"Required keyword: '(\w+)' missing for <class '[\w.]*?(\w+)'>")


def plain_reason(err: Exception) -> str:
    """What is wrong with a statement, in words: sqlglot's own messages name its
    expression classes and carry terminal escapes, neither of which helps a user."""
    errors = getattr(err, "errors", None) or []
    if not errors:
        text = str(err).splitlines()[0] if str(err) else ""
        if not text or "<class" in text or "sqlglot" in text:
            return "syntax error"
        return text if isinstance(err, ParseError) else f"cannot split it into tokens ({text[:80]})"
    first = errors[0]
    where = f"line {first.get('line')}, column {first.get('col')}" if first.get("line") else ""
    near = " ".join(str(first.get("highlight") or "").split())[:40]
    description = str(first.get("description") or "")
    if m := _REQUIRED.match(description):
        what = "incomplete " + _NODE_WORDS.get(m[2], m[2].upper() + " clause")
    elif description.startswith("Expecting "):
        what = "expected `" + description.removeprefix("Expecting ").strip() + "`"
    elif description.startswith("Invalid expression / Unexpected token"):
        what = "unexpected token"
    else:
        what = "syntax error"
    return f"{what} near `{near}` ({where})" if near else f"{what} ({where})" if where else what


# sqlglot expression classes named in its "Required keyword" errors, as SQL words
_NODE_WORDS = {
    "And": "AND condition",
    "Or": "OR condition",
    "When": "WHEN clause",
    "Where": "WHERE clause",
    "Merge": "MERGE statement",
    "Insert": "INSERT statement",
    "Update": "UPDATE statement",
    "Delete": "DELETE statement",
    "In": "IN list",
    "EQ": "comparison",
    "NEQ": "comparison",
    "GT": "comparison",
    "GTE": "comparison",
    "LT": "comparison",
    "LTE": "comparison",
    "Not": "NOT condition",
    "Alias": "alias",
    "Dot": "qualified name",
    "Table": "table name",
    "Column": "column name",
}


def _short(text: str) -> str:
    one = " ".join(text.split())
    return one if len(one) <= 60 else one[:57] + "..."


# a string literal; a query tag's assignment (`QUERY_TAGS['team'] = 'data'`), whose
# value may be a job parameter's marker
_STRING = r"""(?:'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")"""
_QUERY_TAG = rf"QUERY_TAGS\s*\[\s*{_STRING}\s*\]\s*=\s*(?:{_STRING}|NULL\b|UNSET\b|__dlp\d+__)"

_RX = {
    "optimize": re.compile(
        rf"OPTIMIZE\s+(?P<table>{TABLE_NAME})(?:\s+FULL)?(?:\s+WHERE\s+(?P<where>.*?))?"
        r"(?:\s+ZORDER\s+BY\s*(?P<z>\(.*\)|[\w`.,\s]+))?\s*$",
        re.I | re.S,
    ),
    "vacuum": re.compile(rf"VACUUM\s+(?P<table>{TABLE_NAME})", re.I | re.S),
    "restore": re.compile(
        rf"RESTORE\s+(?:TABLE\s+)?(?P<table>{TABLE_NAME})\s+(?:TO\s+)?(?:VERSION|TIMESTAMP)\s+AS\s+OF\s+\S+",
        re.I | re.S,
    ),
    "reorg": re.compile(
        rf"REORG\s+TABLE\s+(?P<table>{TABLE_NAME})(?:\s+WHERE\s+(?P<where>.*?))?\s+APPLY\s*\(\s*(?P<apply>PURGE|UPGRADE\s+UNIFORM\s*\(.*\))\s*\)\s*$",
        re.I | re.S,
    ),
    "convert": re.compile(
        rf"CONVERT\s+TO\s+DELTA\s+(?P<table>{TABLE_NAME})(?:\s+NO\s+STATISTICS)?(?:\s+PARTITIONED\s+BY\s*\((?P<parts>[^)]*)\))?",
        re.I | re.S,
    ),
    "alter": re.compile(rf"ALTER\s+TABLE\s+(?P<table>{TABLE_NAME})\s+(?P<rest>.*)$", re.I | re.S),
    "merge_evolution": re.compile(r"MERGE\s+WITH\s+SCHEMA\s+EVOLUTION\s+INTO\b", re.I),
    "insert_evolution": re.compile(r"INSERT\s+WITH\s+SCHEMA\s+EVOLUTION\s+(?=INTO\b|OVERWRITE\b)", re.I),
    # `INSERT INTO t [AS a] REPLACE ON cond (query) [AS s]` (Databricks Runtime 17.1): the
    # rows of `t` the condition matches with the query's are replaced, as a MERGE does
    "replace_on": re.compile(
        rf"INSERT\s+INTO\s+(?:TABLE\s+)?(?P<table>{TABLE_NAME})(?:\s+(?:AS\s+)?(?!REPLACE\b|BY\b)\w+)?"
        r"(?:\s*\([^()]*\)|\s+BY\s+NAME)?\s+REPLACE\s+ON\b",
        re.I | re.S,
    ),
    # governance clauses of a CREATE that change nothing a write is judged by: a column's
    # mask (after its type, never a column named `mask`) and a table's row filter
    "mask": re.compile(r"(?<=[\w)>`])\s+MASK\s+[\w.`]+(?:\s+USING\s+COLUMNS\s*\([^)]*\))?", re.I),
    "row_filter": re.compile(r"\s+WITH\s+ROW\s+FILTER\s+[\w.`]+\s+ON\s*\([^)]*\)", re.I),
    "set": re.compile(r"SET\s+(?P<key>[\w.`]+)\s*=\s*(?P<value>.*?)\s*$", re.I | re.S),
    # `{USE | SET} CATALOG`, `USE [SCHEMA | DATABASE]`: of a name, a catalog's name as a
    # string, or IDENTIFIER(expr) of what a template does not fill alone (script variables)
    "use": re.compile(
        r"(?:USE|SET(?=\s+CATALOG\b))\s+(?:(?P<kind>CATALOG|SCHEMA|DATABASE)\s+)?"
        rf"(?:(?P<name>{TABLE_NAME})|(?P<quoted>'[^'\\]*'|\"[^\"\\]*\")|IDENTIFIER\s*\((?P<expr>.*)\))\s*$",
        re.I | re.S,
    ),
    # session statements that write nothing and change nothing a write is read with:
    # query tags, the time zone, reading the configuration (`SET`, `SET -v`, `SET key`)
    "writes_nothing": re.compile(
        rf"(?:UN)?SET\s+TAGS?\s+ON\s+.+|SET(?:\s+{_QUERY_TAG}(?:\s*,\s*{_QUERY_TAG})*|\s+TIME\s+ZONE\s+(?:LOCAL|{_STRING}|INTERVAL\s.+)"
        r"|\s+-v|\s+[\w.`]+)?\s*$",
        re.I | re.S,
    ),
    "reset": re.compile(r"RESET(?:\s+(?P<key>[\w.`]+))?\s*$", re.I),
    "clone": re.compile(
        rf"(?:CREATE\s+(?P<replace>OR\s+REPLACE\s+)?|(?P<replace2>REPLACE\s+))TABLE\s+(?P<exists>IF\s+NOT\s+EXISTS\s+)?(?P<table>{TABLE_NAME})\s+(?:SHALLOW\s+|DEEP\s+)?CLONE\b",
        re.I | re.S,
    ),
    "replace_table": re.compile(r"REPLACE\s+TABLE\b", re.I),
    # a Hive metastore schema placed in storage: its managed tables live under the
    # location (not Unity Catalog's `MANAGED LOCATION`, whose storage is opaque)
    "schema_location": re.compile(
        rf"CREATE\s+(?:SCHEMA|DATABASE)\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<name>{TABLE_NAME})"
        r"(?:'[^']*'|\"[^\"]*\"|(?!\bMANAGED\s+LOCATION\b)[^;'\"])*?(?<!MANAGED )\bLOCATION\s+"
        r"(?P<q>['\"])(?P<location>[^'\"]*)(?P=q)",
        re.I | re.S,
    ),
    # an external table: its name and its location are one table
    "table_location": re.compile(
        rf"CREATE\s+(?:OR\s+REPLACE\s+)?(?:EXTERNAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<name>{TABLE_NAME})"
        r"(?:(?!\bAS\s+(?:SELECT|WITH|\()).)*?\bLOCATION\s+(?P<q>['\"])(?P<location>[^'\"]*)(?P=q)",
        re.I | re.S,
    ),
    # `CREATE TABLE t (...) USING parquet|csv|jdbc|org.apache.spark.sql.jdbc ...`: not a Delta table
    "create_not_delta": re.compile(
        rf"CREATE\s+(?:OR\s+REPLACE\s+)?(?:EXTERNAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<table>{TABLE_NAME})"
        r"\s*(?:\((?:[^()]|\([^()]*\))*\)\s*)?USING\s+(?!DELTA\b)[\w.]+",
        re.I | re.S,
    ),
}

# Statements that never write a Delta table (or that delta-lint does not model).
_IGNORED_WORDS = (
    "SELECT WITH SHOW DESCRIBE DESC EXPLAIN REFRESH CACHE UNCACHE ANALYZE MSCK GRANT REVOKE DROP DECLARE CALL "
    "LIST GET PUT REMOVE VALUES FSCK COMMIT ROLLBACK"
).split()
_IGNORED = re.compile(
    # Unity Catalog's securables other than tables (catalogs, volumes, locations,
    # credentials, connections, Delta Sharing objects, clean rooms) hold no Delta table
    "("
    + "|".join(_IGNORED_WORDS)
    + r"|CREATE\s+(?:OR\s+(?:REPLACE|REFRESH)\s+)?(?:TEMP|TEMPORARY|GLOBAL|VIEW|FUNCTION|SCHEMA|"
    r"DATABASE|(?:FOREIGN\s+)?CATALOG|(?:EXTERNAL\s+)?VOLUME|MATERIALIZED|STREAMING|WIDGET|CONNECTION|SHARE|"
    r"RECIPIENT|PROVIDER|USER|GROUP|ROLE|EXTERNAL\s+LOCATION|(?:STORAGE\s+|SERVICE\s+)?CREDENTIAL|CLEAN\s+ROOM)"
    r"|ALTER\s+(?:CATALOG|SCHEMA|DATABASE|VOLUME|CONNECTION|SHARE|RECIPIENT|PROVIDER|EXTERNAL\s+LOCATION|"
    r"(?:STORAGE\s+|SERVICE\s+)?CREDENTIAL|CLEAN\s+ROOM"
    # views, and Lakeflow's objects, which their pipeline alone writes
    r"|VIEW|MATERIALIZED\s+VIEW|STREAMING\s+TABLE)"
    r"|COMMENT\s+ON\s+(?:CATALOG|SCHEMA|DATABASE|VOLUME|CONNECTION|SHARE|RECIPIENT|PROVIDER|EXTERNAL\s+LOCATION|"
    r"(?:STORAGE\s+|SERVICE\s+)?CREDENTIAL|CLEAN\s+ROOM)"
    # the session's resources and cache
    r"|ADD\s+(?:JAR|FILE|ARCHIVE)S?|CLEAR\s+CACHE"
    # Unity Catalog tags of securables other than tables (a table's, like ALTER TABLE
    # ... SET TAGS, is not skipped here)
    r"|(?:UN)?SET\s+TAG\s+ON\s+(?:CATALOG|SCHEMA|DATABASE|VOLUME|VIEW|FUNCTION|PROCEDURE|EXTERNAL\s+METADATA))\b",
    re.I,
)

# Databricks SQL's streaming tables and materialized views, made or refreshed from a
# job's SQL: a pipeline of their own writes them (Lakeflow files are read by
# `lakeflow` instead), so the statement says so (DL006) rather than nothing.
_PIPELINE_OBJECT = re.compile(
    r"CREATE\s+(?:OR\s+(?:REFRESH|REPLACE)\s+)?(?:PRIVATE\s+)?(?P<what>MATERIALIZED\s+VIEW|STREAMING\s+TABLE)\b", re.I
)
_NOT_READ = "DL006"  # task-not-analysable: what a pipeline writes

# `WITH a AS (...) MERGE INTO ...` (or INSERT, UPDATE, DELETE): a write led by its CTEs.
_WRITE_AFTER_CTE = re.compile(r"\)\s*(?:MERGE|INSERT|UPDATE|DELETE)\b", re.I)

# First keywords of the statements the handlers below understand (`FROM src INSERT
# INTO a SELECT ... INSERT INTO b SELECT ...`: Hive's multi-insert, see `_multi_insert`).
_WRITE_KEYWORDS = {
    "INSERT",
    "MERGE",
    "UPDATE",
    "DELETE",
    "TRUNCATE",
    "COPY",
    "CREATE",
    "REPLACE",
    "ALTER",
    "COMMENT",
    "FROM",
}

# `'delta.x' = 'value'` in a CREATE TABLE's TBLPROPERTIES (see `Session.declare`).
_DECLARED_PROPERTY = re.compile(r"""['"`](?P<key>delta\.[\w.-]+)['"`]\s*=\s*['"]?(?P<value>[\w.-]+)""", re.I)

# Table properties whose change can upgrade the protocol (enable a table feature):
# whether it does depends on the value (`_changes_protocol`).
_PROTOCOL_PROPERTIES = re.compile(
    r"delta\.(feature\..*|minreaderversion|minwriterversion|enabledeletionvectors|enablerowtracking|"
    r"columnmapping\.mode|enabletypewidening|universalformat\.enabledformats|enableicebergcompatv\d|"
    r"enablechangedatafeed|checkpointpolicy|enableincommittimestamps|enablevariantshredding)",
)


# Each pattern tried on a statement's start begins with one of these words: a
# statement led by another word is not tried against it (twelve patterns a statement
# were a tenth of the SQL front end's own time).
_LEADING_WORDS = {
    "set": ("SET",),
    "use": ("USE", "SET"),
    "writes_nothing": ("SET", "UNSET"),
    "reset": ("RESET",),
    "ignored": (*_IGNORED_WORDS, "CREATE", "ALTER", "COMMENT", "ADD", "CLEAR", "SET", "UNSET"),
    "optimize": ("OPTIMIZE",),
    "vacuum": ("VACUUM",),
    "restore": ("RESTORE",),
    "reorg": ("REORG",),
    "convert": ("CONVERT",),
    "clone": ("CREATE", "REPLACE"),
    "alter": ("ALTER",),
    "merge_evolution": ("MERGE",),
    "insert_evolution": ("INSERT",),
    "replace_on": ("INSERT",),
    "replace_table": ("REPLACE",),
}
_WORD = re.compile(r"\w+")


def _leading_word(text: str) -> str | None:
    """The statement's first word in capitals; None (try every pattern) when it is not
    plain ASCII, as case-insensitive patterns also match some other letters."""
    m = _WORD.match(text)
    word = m.group(0) if m else ""
    return word.upper() if word.isascii() else None


def _may(lead: str | None, key: str) -> bool:
    return lead is None or lead in _LEADING_WORDS[key]


def _statement(ctx: _Ctx) -> tuple[list[Intent], list[Diagnostic]]:
    text = strip_leading_comments(ctx.text)
    if not text:
        return [], []
    lead = _leading_word(text)
    if _may(lead, "set") and (m := _RX["set"].match(text)):
        ctx.session.set_conf(m["key"], m["value"])
        return [], []
    if _may(lead, "use") and (m := _RX["use"].match(text)):
        return [], _use(ctx, m)
    if _may(lead, "writes_nothing") and _RX["writes_nothing"].match(text):
        return [], []
    if _may(lead, "reset") and (m := _RX["reset"].match(text)):
        ctx.session.reset(m["key"])
        return [], []
    if lead == "CALL":
        return _call(ctx, text)
    if lead == "CREATE" and "LOCATION" in text.upper():
        _locate(ctx, text)
    if lead == "CREATE" and (m := _RX["create_not_delta"].match(text)):
        # not a Delta table: no intent here, and writes elsewhere in the project are not Delta writes
        ref, resolved = table_ref(split_name(m["table"]), ctx.session, ctx.tpl)
        if resolved:
            ctx.session.non_delta = ctx.session.non_delta | {ref.name}
        return [], []
    # What follows reads the session and never changes it: a statement met again in
    # the run with the same text, templates, parameters and session (scripts copied
    # between jobs, the same CREATE TABLE IF NOT EXISTS in many: a third of the
    # statements of the 10,000-file benchmark corpus) is read once, its intents placed
    # where it stands. Kept: its intents and diagnostics (at the first location), or
    # the error that makes it unreadable, with what the reading looked up of the
    # script's CREATE TABLEs (`Session.declared`; the key leaves those out): a kept
    # reading serves where the same lookups give the same answers, as reading the
    # statement again would take the same steps. A few readings are kept a key.
    read = ctx.memo.statements
    key = (ctx.text, tuple(ctx.tpl.names), tuple(ctx.tpl.shown), ctx.extra_params, ctx.session.state())
    readings = read.get(key, ())
    session = ctx.session
    for looked_up, found in readings:
        if all(session.declared(what) == answer for what, answer in looked_up):
            if isinstance(found, Exception):
                raise found.with_traceback(None)
            session.declare(found[0], text)
            return _placed(found, ctx.location)
    ctx.memo.statements_read += 1
    try:
        found = _read_statement(ctx, text, lead)
    except (ParseError, TokenError) as err:
        found = err
    _keep(read, key, (*readings[1 - READINGS_KEPT :], (tuple(ctx.looked_up.items()), found)), STATEMENTS_KEPT)
    if isinstance(found, Exception):
        raise found
    ctx.session.declare(found[0], text)  # after the memo's key: the statement is read with the session it met
    return list(found[0]), list(found[1])


_CALL = re.compile(rf"CALL\s+(?P<name>{TABLE_NAME})\s*(?:\(|$)", re.I)


# the Hive metastore's catalog names: a schema of another catalog (Unity Catalog) with
# a plain `LOCATION` is refused, and its managed storage is not `<location>/<table>`
_HIVE_CATALOGS = ("hive_metastore", "spark_catalog")


def _locate(ctx: _Ctx, text: str) -> None:
    """Remember where a `CREATE SCHEMA ... LOCATION` or an external `CREATE TABLE ...
    LOCATION` places its tables (`Session.located`), when its name and location are
    known text: a part only a run knows (a parameter, a `{template}`) places nothing,
    since which table the path is cannot be told."""
    for kind in ("schema_location", "table_location"):
        m = _RX[kind].match(text)
        if m is None:
            continue
        location = m["location"].strip()
        parts = [p.lower() for p in split_name(m["name"])]
        if not location or not parts or "__dlp" in location or any("__dlp" in p for p in parts):
            return
        if kind == "schema_location":
            if len(parts) > 2 or (len(parts) == 2 and parts[0] not in _HIVE_CATALOGS):
                return
            entry = ("schema", parts[-1], location)
        else:
            ref, resolved = table_ref(parts, ctx.session, ctx.tpl)
            if not resolved or ref.is_path:
                return
            entry = ("table", ref.name, location)
        if entry not in ctx.session.located:
            ctx.session.located = (*ctx.session.located, entry)
        return


def _call(ctx: _Ctx, text: str) -> tuple[list[Intent], list[Diagnostic]]:
    """`CALL name(...)`: the writes of the procedure's body, at the call, each naming
    the body's statement as its site (as a helper's write does). A procedure the
    script does not define writes what only its definition knows: a note (DL007)."""
    m = _CALL.match(text)
    if m is None:
        raise ParseError("CALL names no procedure")
    name = table_ref([ctx.tpl.restore_names(p) for p in split_name(m["name"])], ctx.session, None)[0].name
    procedures = dict(ctx.session.procedures)
    body = procedures.get(name)
    notes: list[Diagnostic] = []
    if body is None and name.count(".") < 2:
        # `CALL load()` with no `USE` naming its schema: the job's defaults decide which
        # procedure runs; the one the project defines with a name ending so is read,
        # and the note says it was matched by name
        ends = [k for k in procedures if k.endswith("." + name)]
        if len(ends) == 1:
            body = procedures[ends[0]]
            notes.append(
                Diagnostic(
                    DYNAMIC_SQL,
                    ctx.location,
                    f"`{_short(ctx.tpl.restore(text))}` names procedure `{name}` without its "
                    f"{'catalog' if '.' in name else 'catalog and schema'}: read as `{ends[0]}`, the one procedure "
                    "of the project whose name ends so; the job's default catalog and schema decide which runs",
                    "info",
                )
            )
    if body is None:
        if name not in ctx.session.unknown_calls:
            ctx.session.unknown_calls = (*ctx.session.unknown_calls, name)
        return [], [
            Diagnostic(
                DYNAMIC_SQL,
                ctx.location,
                f"`{_short(ctx.tpl.restore(text))}` calls procedure `{name}`, which no file of the project defines "
                "(`CREATE PROCEDURE`) as that one procedure (none does, or several do differently): what it writes "
                "is not known, and its writes are not checked",
                "info",
            )
        ]
    at = ctx.location
    here = (at.path, at.line, at.column)
    # each write names the body's statement and the CALLs it came through, once each
    # (a site's own sites are not kept inside it: a chain of CALLs stays linear), and
    # a write that already came through this CALL is a recursion, not read again
    placed = [
        replace(
            i,
            location=Location(
                at.path, at.line, at.column, (*at.sites, replace(i.location, sites=()), *i.location.sites)
            ),
        )
        for i in body
        if not any((s.path, s.line, s.column) == here for s in i.location.sites)
    ]
    # one write per statement of the bodies: a statement reached again through a
    # recursion (`a` CALLs `b`, which CALLs `a`) is the same write
    seen: set[tuple] = set()
    kept = []
    for i in placed:
        inner = i.location.sites[-1]
        key = (inner.path, inner.line, inner.column, i.table, i.kind)
        if key not in seen:
            seen.add(key)
            kept.append(i)
    return kept, notes


def _use(ctx: _Ctx, m: re.Match) -> list[Diagnostic]:
    """`USE` (or `SET CATALOG`): the session's catalog or schema from then on."""
    kind = m["kind"]
    if m["name"] is not None:
        # a templated part (`USE CATALOG {c}`) is kept as the parameter it names
        parts = [ctx.tpl.restore_names(p.lower()) for p in split_name(m["name"])]
        if "{" + _ONE_OF + "}" in parts:  # one of more names than are followed: no name, no run gives it
            ctx.session.use_unknown(kind, ".".join(parts))
        else:
            ctx.session.use(parts, kind)
        return []
    if m["quoted"] is not None:  # `USE CATALOG 'main'`
        if (kind or "").upper() != "CATALOG":
            raise ParseError("only a catalog's name may be given as a string")
        ctx.session.use([ctx.tpl.restore_names(m["quoted"][1:-1].lower())], kind)
        return []
    expr = m["expr"].strip()  # (one greedy part in the pattern: linear on any text)
    if not expr:
        raise ParseError("IDENTIFIER() names nothing")
    return _use_identifier(ctx, expr, kind)


def _use_identifier(ctx: _Ctx, expr: str, kind: str | None) -> list[Diagnostic]:
    """`USE [CATALOG | SCHEMA] IDENTIFIER(expr)` where `expr` is more than literals and
    job parameters (those the templates read): the name the script's variables give
    it (`USE IDENTIFIER(cat || '.' || sch)`). A name only a run knows (a variable set
    from a query, a function call) is not guessed and the old one is not kept: the
    parts it sets become unknown, with a note at the statement (`Session.use_unknown`)."""
    from delta_lint.frontend.sqlscript import evaluate, is_known  # scripts are few: loaded for one

    # a job parameter's marker stands for the placeholder its value takes
    expr = MARKER.sub(lambda p: "'{" + ctx.tpl.names[int(p[1])] + "}'" if ctx.tpl.is_marker(p[0]) else p[0], expr)
    variables = dict(ctx.session.variables)
    value = evaluate(expr, variables, "identifier")
    named = apply_templates(value)
    if is_known(expr, variables, frozenset(ctx.session.unknown_variables)):
        if not _NAME.fullmatch(named.text):
            raise ParseError(f"IDENTIFIER gives `{_short(value)}`, which is not a name")
        ctx.session.use([named.restore_names(p.lower()) for p in split_name(named.text)], kind)
        return []
    shown = named.restore_names(named.text.lower())
    ctx.session.use_unknown(kind, shown)
    what = "catalog" if (kind or "").upper() == "CATALOG" else "schema"
    return [
        Diagnostic(
            DYNAMIC_SQL,
            ctx.location,
            f"`{_short(ctx.tpl.restore(ctx.text))}` sets the {what} to a name only a run knows (`{_short(shown)}`): "
            "the tables later statements name without their catalog are not resolved, and their writes are not "
            "checked",
            "info",
        )
    ]


_NAME = re.compile(rf"\s*{TABLE_NAME}\s*")

STATEMENTS_KEPT = 1 << 16  # statements a run's memo holds at once
READINGS_KEPT = 4  # readings of one statement with different declarations (the last ones)
CONDITIONS_KEPT = 4096  # and conditions


def _keep(memo: dict, key, value, most: int) -> None:
    """Remember `value`; a memo that is full starts again (a bound on memory only:
    what is read does not depend on what is remembered)."""
    if len(memo) >= most:
        memo.clear()
    memo[key] = value


def _placed(found: tuple[list[Intent], list[Diagnostic]], location: Location) -> tuple[list[Intent], list[Diagnostic]]:
    intents, diags = found
    return [_at(i, location) for i in intents], [_at(d, location) for d in diags]


_T = TypeVar("_T", Intent, Diagnostic)
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def _at(kept: _T, location: Location) -> _T:
    """`replace(kept, location=location)` of a kept reading's intent or diagnostic (frozen
    dataclasses with no `__post_init__`), its other fields shared as `replace` shares
    them, without `replace`'s walk of the fields and call of `__init__`, which sets each
    of an intent's 25 fields anew (7.7 us an intent against 1 us). Values an instance
    keeps of itself after a first use (`model._kept`) are not carried over: they may
    depend on what the copy changes."""
    cls = type(kept)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in fields(cls))
    moved = object.__new__(cls)
    state = moved.__dict__
    state.update(kept.__dict__)
    if len(state) != len(names):
        for name in [k for k in state if k not in names]:
            del state[name]
    state["location"] = location
    return moved


# Statements read again without the clauses their templates fill (see
# `drop_templated_clauses`) when they do not parse whole.
_CLAUSES_MAY_BE_TEMPLATED = ("CREATE", "REPLACE", "OPTIMIZE")


def _read_statement(ctx: _Ctx, text: str, lead: str | None) -> tuple[list[Intent], list[Diagnostic]]:
    """The intents of a statement that does not change the session. A DDL statement
    whose templates fill whole clauses is read without them: a CREATE so read declares
    no table settings (its properties and columns are built at run time), an OPTIMIZE
    so read has a condition that is not known."""
    try:
        return _read_whole(ctx, text, lead)
    except ParseError as whole_error:
        shorter = drop_templated_clauses(text) if ctx.tpl.names and lead in _CLAUSES_MAY_BE_TEMPLATED else None
        if shorter is None:
            raise
        try:
            intents, diags = _read_whole(ctx, shorter, lead)
        except (ParseError, TokenError):
            raise whole_error from None
    partly = [replace(i, declared=None) if i.kind in (Kind.CREATE, Kind.CREATE_OR_REPLACE) else i for i in intents]
    partly = [replace(i, flags=i.flags | {Flag.OPAQUE_CONDITION}) if i.kind in _OPTIMIZES else i for i in partly]
    return partly, diags


_OPTIMIZES = (Kind.OPTIMIZE, Kind.OPTIMIZE_ZORDER)
# a template's marker (`sqltext.apply_templates`) as a statement's first word
_LEADING_MARKER = re.compile(r"__DLP\d+__")
# a template standing alone as a token (not part of a name or a literal): where it
# stands, the statement's syntax is the run's value (a query, a clause, a CASE's arms)
_LONE_TEMPLATE = re.compile(r"(?<![\w.`'\"])__dlp\d+__(?![\w.`'\"])", re.I)
# ... unless what comes before it takes a value or a name there (`dt < {days}`,
# `WHERE {cond}` stays a value: a statement broken elsewhere is still broken)
_TAKES_VALUE = re.compile(
    r"(?:\b(?:TABLE|EXISTS|OPTIMIZE|CLONE|BY|LOCATION|COMMENT|WHERE|AND|OR|NOT|IN|LIKE|IS|THEN|FROM|JOIN)"
    r"|[=<>!+\-*/|%,(])\s*$",
    re.I,
)
_TEMPLATE_MARKER = re.compile(r"__dlp\d+__", re.I)
# the first word of an ALTER TABLE's change: a change a template fills after it is
# still that kind of change of the table (see `_statement`)
_CTAS_QUERY = re.compile(r"\bAS\s*(?:SELECT|WITH|FROM|VALUES|\()", re.I)


def _ctas_query_start(text: str) -> int | None:
    """Where a CREATE's query starts (`... AS SELECT`, `AS (`), outside the column
    list's parentheses: a generated column's `GENERATED ALWAYS AS (expr)` is the
    table's, not its query. Quoted text is skipped when counting parentheses."""
    depth, quote, at = 0, "", 0
    for m in _CTAS_QUERY.finditer(text):
        for ch in text[at : m.start()]:
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "'\"`":
                quote = ch
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
        at = m.start()
        if depth == 0 and not quote:
            return m.start()
    return None


# A query statement led by a parenthesis (a set operation of parenthesised queries):
# Spark's grammar starts no write that way
_QUERY_IN_PARENS = re.compile(r"\(+\s*(?:SELECT|WITH|VALUES|FROM|TABLE)\b", re.I)

# Unity Catalog's governance of a table, set by ALTER TABLE: a column's mask, the
# table's row filter, tags. Tags are the catalog's alone (`SET TAG ON TABLE` too: they
# write nothing in the table's log). Whether a mask or a row filter commits to the
# table's Delta log is not documented: Databricks names their concurrent change a
# catalog metadata change (error class
# MULTI_STATEMENT_TRANSACTION_CONCURRENT_CATALOG_METADATA_CHANGE: COLUMN_MASK,
# ROW_FILTER), and conflict-semantics lists neither among the metadata changes. They
# are read as metadata changes of their own subkinds, which the engine judges at
# `info`, saying so (`judgement.CATALOG_POLICIES`).
_CATALOG_POLICY = re.compile(
    r"(?:(?:ALTER|CHANGE)\s+(?:COLUMN\s+)?(?:`[^`]*`|[\w.]+)\s+(?:SET|DROP)\s+(?P<column_mask>MASK)\b"
    r"|(?:SET|DROP)\s+(?P<row_filter>ROW\s+FILTER)\b"
    r"|(?:(?:ALTER|CHANGE)\s+(?:COLUMN\s+)?(?:`[^`]*`|[\w.]+)\s+)?(?:SET|UNSET)\s+(?P<tags>TAGS)\b)",
    re.I,
)
_ALTER_WORD = re.compile(r"(?:SET|UNSET|ADD|ALTER|CHANGE|DROP|RENAME|REPLACE|CLUSTER)\b", re.I)


class UnknownStatement(ParseError):
    """A statement whose first word is a value only a run knows (`{query} ORDER BY x`):
    not a syntax error of the code, a statement of unknown kind (DL007)."""

    def __init__(self, shown: str) -> None:
        super().__init__(shown)
        self.shown = shown


def _read_whole(ctx: _Ctx, text: str, lead: str | None) -> tuple[list[Intent], list[Diagnostic]]:
    cte_write = lead == "WITH" and _WRITE_AFTER_CTE.search(text) is not None
    if _may(lead, "ignored") and _IGNORED.match(text) and not cte_write:
        made = _PIPELINE_OBJECT.match(text)
        if made is None:
            return [], []
        what = " ".join(made["what"].lower().split())
        return [], [
            Diagnostic(
                _NOT_READ,
                ctx.location,
                f"a {what} is refreshed by a pipeline Databricks runs for it, not by this statement's job: "
                "delta-lint does not judge its refreshes",
                "info",
            )
        ]
    upper = text[:40].upper()
    for key in ("optimize", "vacuum", "restore", "reorg", "convert", "clone"):
        if _may(lead, key) and (m := _RX[key].match(text)):
            return getattr(_Recognise, key)(ctx, m)
    if upper.startswith("REORG") or upper.startswith("RESTORE") or upper.startswith("CONVERT"):
        raise ParseError(f"unrecognised {upper.split()[0]} statement")
    if _QUERY_IN_PARENS.match(text):  # `(SELECT 1) UNION (SELECT 2)`: a query, no write
        return [], []
    words = text.split(None, 1)
    first = words[0].upper() if words else ""
    if first not in _WRITE_KEYWORDS and not cte_write:
        if _LEADING_MARKER.match(first):
            raise UnknownStatement(ctx.tpl.restore(words[0]))
        raise ParseError(f"unrecognised statement starting with `{first[:30]}`")
    if _may(lead, "alter") and (m := _RX["alter"].match(text)) and (policy := _CATALOG_POLICY.match(m["rest"])):
        if policy.lastgroup == "tags":
            return [], []  # as `SET TAG ON TABLE`: the catalog's, nothing in the table's log
        ref, resolved = _Recognise._ref(ctx, m)
        return _intent(ctx, ref, Kind.METADATA_CHANGE, resolved, subkind=policy.lastgroup)
    if (
        _may(lead, "alter")
        and (m := _RX["alter"].match(text))
        and (
            re.match(r"(DROP\s+FEATURE|UNSET\s+TBLPROPERTIES)\b", m["rest"], re.I)
            # `SET TBLPROPERTIES ({props})`, `ALTER COLUMN c SET {x}`: the table is
            # known, the change only a run knows: a metadata change of that table
            or (_TEMPLATE_MARKER.search(m["rest"]) and _ALTER_WORD.match(m["rest"]))
        )
    ):
        return _Recognise.alter_command(ctx, m)
    schema_evolution = False
    if _may(lead, "merge_evolution") and (m := _RX["merge_evolution"].match(text)):
        text = "MERGE INTO" + text[m.end() :]
        schema_evolution = True
    if _may(lead, "insert_evolution") and (m := _RX["insert_evolution"].match(text)):
        text = "INSERT " + text[m.end() :]
        schema_evolution = True
    if _may(lead, "replace_on") and (m := _RX["replace_on"].match(text)):
        return _Recognise.replace_on(ctx, m, schema_evolution or ctx.session.auto_merge)
    if first == "CREATE" and ("MASK" in (upper := text.upper()) or "FILTER" in upper):
        start = _ctas_query_start(text)  # the clauses are the table's: never in its query
        head, tail = (text[:start], text[start:]) if start is not None else (text, "")
        text = _RX["row_filter"].sub("", _RX["mask"].sub("", head)) + tail
    if first in ("CREATE", "REPLACE") and _RX["create_not_delta"].match(text):
        return [], []  # its writes are not Delta writes
    if _may(lead, "replace_table") and (m := _RX["replace_table"].match(text)):
        text = "CREATE OR " + text
    if first == "INSERT" and len(text) > LARGE_VALUES and (head := values_head(text)) is not None:
        text = head  # a long list of literal rows: the first says all that is read of it
        ctx = replace(ctx, rows_cut=True)
    tree = parse_sql(text)
    try:
        if isinstance(tree, exp.Command):
            if m := _RX["alter"].match(text):
                return _Recognise.alter_command(ctx, m)
            raise ParseError(f"unsupported {first} syntax")
        handler = _HANDLERS.get(type(tree))
        if handler is None and first == "FROM" and isinstance(tree, exp.Query):
            return [], []  # `FROM t SELECT ...`: a query led by its FROM
        if handler is None:
            raise ParseError(f"`{first}` statement did not parse as one")
        if isinstance(tree, exp.Update) and not tree.expressions:
            raise ParseError("UPDATE without SET assignments")
        return handler(ctx, tree, schema_evolution)
    finally:
        release(tree)


def release(node: exp.Expression | None) -> None:
    """Unlink the tree holding `node` (children point back at their parents), so it
    is freed as soon as its statement is read. Left to the cyclic collector, every
    tree of a run was walked at least once more: a tenth of the front end's time."""
    if node is None:
        return
    for child in node.root().walk():
        child.parent = None


def _intent(ctx: _Ctx, table: TableRef, kind: Kind, resolved: bool, **kw) -> tuple[list[Intent], list[Diagnostic]]:
    flags = set(kw.pop("flags", ())) | set(ctx.session.session_flags())
    diags = []
    if not resolved:
        flags.add(Flag.UNRESOLVED)
        diags.append(
            Diagnostic(
                UNRESOLVED_TABLE,
                ctx.location,
                f"table name `{table.name}` is dynamic and cannot be resolved statically; "
                "this intent is not checked against others",
            )
        )
    if kind in TXN_KINDS and ctx.session.txn_app_id is not None:
        kw.setdefault("txn_app_id", ctx.session.txn_app_id)
    intent = Intent(
        location=ctx.location,
        table=table,
        kind=kind,
        flags=frozenset(flags),
        params=ctx.params(),
        statement=ctx.excerpt(),
        **kw,
    )
    return [intent], diags


def _table_of(ctx: _Ctx, node: exp.Expression) -> tuple[TableRef, bool, str | None]:
    """Target table ref, resolved?, and alias of a statement's `this`."""
    if not isinstance(node, exp.Expression):  # e.g. `DELETE a`: sqlglot leaves no target
        raise ParseError("the statement names no target table")
    table = node.find(exp.Table) if not isinstance(node, exp.Table) else node
    if table is None:
        raise ParseError("the statement names no target table")
    ref, resolved = table_ref(_sqlglot_table_parts(table), ctx.session, ctx.tpl)
    return ref, resolved, table.alias or None


def _param_of(tpl: Templated):
    def param_of(node: exp.Expression) -> str | None:
        if isinstance(node, exp.Placeholder):
            return node.name or None
        if isinstance(node, exp.Column) and not node.table and MARKER.search(node.name):
            return tpl.name_of(node.name)
        if isinstance(node, exp.Literal) and node.is_string and MARKER.search(node.this):
            return tpl.name_of(node.this)
        return None

    return param_of


def _target_columns(names: set[str], unqualified: bool):
    """A resolver: which column references denote target columns."""

    def target_col(column: exp.Column) -> str | None:
        if column.args.get("db") is not None:
            return None
        qualifier = column.table.lower() if column.table else ""
        if (not qualifier and unqualified) or qualifier in names:
            return column.name.lower()
        return None

    return target_col


def condition_region(ctx: _Ctx, cond: exp.Expression | None, names: set[str], unqualified: bool) -> Region:
    if cond is not None and not isinstance(cond, exp.Expression):
        return OPAQUE
    return region_of(cond, _target_columns(names, unqualified), _param_of(ctx.tpl))


_NON_DETERMINISTIC = {"rand", "randn", "random", "uuid", "shuffle", "monotonically_increasing_id", "spark_partition_id"}
_COMPLEX_FUNCS = {
    "element_at",
    "array_contains",
    "map_keys",
    "map_values",
    "size",
    "cardinality",
    "exists",
    "forall",
    "filter",
    "transform",
    "get",
    "map_contains_key",
    "arrays_overlap",
    "get_json_object",
    "from_json",
}


# What a node of a condition says about it, by the node's type.
_PLAIN, _SUBQUERY, _NON_DETERMINISTIC_CALL, _COMPLEX, _FUNCTION, _COLUMN = range(6)


def _role(node_type: type) -> int:
    if issubclass(node_type, (exp.Subquery, exp.Exists, exp.Select)):
        return _SUBQUERY
    if issubclass(node_type, (exp.Rand, exp.Randn, exp.Uuid)):
        return _NON_DETERMINISTIC_CALL
    if issubclass(node_type, (exp.Bracket, exp.JSONExtract, exp.Dot)):
        return _COMPLEX
    if issubclass(node_type, exp.Func):
        return _FUNCTION
    if issubclass(node_type, exp.Column):
        return _COLUMN
    return _PLAIN


def condition_flags(cond: exp.Expression | None, aliases: set[str], target: TableRef, ctx: _Ctx) -> set[Flag]:
    """Flags of a target condition: subqueries, correlation, non-determinism, complex types."""
    flags: set[Flag] = set()
    if not isinstance(cond, exp.Expression):
        return flags
    selects = []
    roles = ctx.memo.roles  # a node's role: one dict look-up instead of up to five isinstance tests a node
    for node in cond.walk():
        role = roles.get(type(node))
        if role is None:
            role = roles[type(node)] = _role(type(node))
        if role == _PLAIN:
            continue
        if role == _SUBQUERY:
            flags.add(Flag.SUBQUERY)
            if isinstance(node, exp.Select):
                selects.append(node)
        elif role == _NON_DETERMINISTIC_CALL:
            flags.add(Flag.NON_DETERMINISTIC)
        elif role == _COMPLEX:
            flags.add(Flag.COMPLEX_TYPE_CONDITION)
        elif role == _FUNCTION:
            name = (node.sql_name() if not isinstance(node, exp.Anonymous) else node.name).lower()
            if name in _NON_DETERMINISTIC:
                flags.add(Flag.NON_DETERMINISTIC)
            if name in _COMPLEX_FUNCS or isinstance(node, (exp.ArrayContains, exp.ArraySize)):
                flags.add(Flag.COMPLEX_TYPE_CONDITION)
        elif role == _COLUMN and (
            node.args.get("db") is not None
            or (node.table and node.table.lower() not in aliases and not _in_subquery(node))
        ):
            flags.add(Flag.COMPLEX_TYPE_CONDITION)
    for select in selects:
        inner = {t.alias_or_name.lower() for t in select.find_all(exp.Table)}
        for column in select.find_all(exp.Column):
            if column.table and column.table.lower() not in inner:
                flags.add(Flag.CORRELATED_SUBQUERY)
        for t in select.find_all(exp.Table):
            if table_ref(_sqlglot_table_parts(t), ctx.session, ctx.tpl)[0] == target:
                flags.add(Flag.READS_TARGET)
    return flags


def _in_subquery(node: exp.Expression) -> bool:
    return node.find_ancestor(exp.Select) is not None


def _reads(ctx: _Ctx, query: exp.Expression | None, target: TableRef) -> bool:
    if query is None:
        return False
    for t in query.find_all(exp.Table):
        if table_ref(_sqlglot_table_parts(t), ctx.session, ctx.tpl)[0] == target:
            return True
    return False


def _predicate_sql(ctx: _Ctx, cond: exp.Expression | None) -> str | None:
    if cond is None:
        return None
    # Copying the tree first was a fifth of the SQL front end; only the dialect's
    # rewrites of queries could change a tree, so only a condition with a subquery
    # is copied.
    return ctx.tpl.restore(_GENERATOR.generate(cond, copy=cond.find(exp.Query) is not None))


def _parse_condition(ctx: _Ctx, text: str | None) -> exp.Expression | None:
    if not text or not text.strip():
        return None
    return parse_sql(f"SELECT 1 WHERE {text}").args["where"].this


def _read_condition(
    ctx: _Ctx, cond: exp.Expression | None, names: set[str] | frozenset[str], unqualified: bool, target: TableRef | None
) -> tuple[str | None, Region, set[Flag]]:
    """A parsed target condition's SQL, region and (with a target) flags; its tree is
    released once read."""
    try:
        sql, region = _predicate_sql(ctx, cond), condition_region(ctx, cond, names, unqualified)
        return sql, region, condition_flags(cond, names, target, ctx) if target is not None else set()
    finally:
        release(cond)


def _partition_condition(partition: exp.Partition | None) -> tuple[exp.Expression | None, bool]:
    """`PARTITION (a = 1, b)` -> (`a = 1`, static?) — only the static parts constrain."""
    if partition is None:
        return None, False
    terms = [e for e in partition.expressions if isinstance(e, exp.EQ)]
    if not terms:
        return None, False
    cond = terms[0]
    for term in terms[1:]:
        cond = exp.and_(cond, term)
    return cond, True


# --- handlers for sqlglot trees ------------------------------------------------


def _insert(ctx: _Ctx, tree: exp.Insert, evolution: bool):
    target = tree.this
    table = target.this if isinstance(target, exp.Schema) else target
    if not isinstance(table, exp.Table):
        return [], []
    ref, resolved, alias = _table_of(ctx, table)
    names = {ref.name.split(".")[-1], *([alias.lower()] if alias else [])}
    query = tree.expression
    flags: set[Flag] = set()
    # rows of literal values with no column list are matched to the table's columns by
    # position: they add no column, whatever the session or the statement lets evolve
    positional = isinstance(query, exp.Values) and not isinstance(target, exp.Schema)
    if (evolution or ctx.session.auto_merge) and not positional:
        flags.add(Flag.SCHEMA_EVOLUTION)
    partition = next(
        (p for p in (table.args.get("partition"), tree.args.get("partition")) if isinstance(p, exp.Partition)), None
    )
    part_cond, static = _partition_condition(partition)
    where = tree.args.get("where")
    if isinstance(where, exp.Where):
        where = where.this
    reads = _reads(ctx, query, ref) or (where is not None and _reads(ctx, where, ref))
    if reads:
        flags.add(Flag.READS_TARGET)
    if static:
        flags.add(Flag.STATIC_PARTITION)
    overwrite = bool(tree.args.get("overwrite"))
    if where is not None:
        kind, cond = Kind.REPLACE_WHERE, where
        flags |= condition_flags(where, names, ref, ctx)
    elif overwrite and static:
        kind, cond = Kind.REPLACE_WHERE, part_cond
    elif overwrite and (ctx.session.dynamic_overwrite or (partition is not None and not static)):
        kind, cond = Kind.DYNAMIC_OVERWRITE, None
    elif tree.args.get("using"):
        # `INSERT INTO t REPLACE USING (day) SELECT ...` deletes the rows whose `day` the
        # query's rows hold, then inserts: an overwrite of what the data names
        kind, cond = Kind.DYNAMIC_OVERWRITE, None
    elif overwrite:
        kind, cond = Kind.FULL_OVERWRITE, None
    else:
        kind = Kind.INSERT_READING_TARGET if reads else Kind.BLIND_APPEND
        cond = part_cond
    written = None if partition is not None or kind not in _APPENDS else _written_values(ctx, tree, ref)
    if written is not None:
        region, static = written, True  # the rows' own values say which partitions they land in
        flags.add(Flag.STATIC_PARTITION)
    elif kind == Kind.DYNAMIC_OVERWRITE:
        region = Region(((),), opaque=True)
    else:
        region = condition_region(ctx, cond, names, True)
    read = None
    if kind == Kind.INSERT_READING_TARGET:
        # what it reads and what it writes: bounded only for rows written to a static
        # partition by a plain SELECT over the target alone (open-source Delta reads just
        # the partitions that SELECT's filter keeps: tests/oracle); what it reads is kept
        # apart too, for the appends it meets there only, wherever its own rows land
        read = _own_read_region(ctx, query, ref)
        region = (
            WHOLE
            if read is None or not static
            else Region(read.conjuncts + region.conjuncts, read.opaque or region.opaque)
        )
    # a column list names every column the rows bring: evolution adds only those
    listed = (
        tuple(dict.fromkeys(c.name.lower() for c in target.expressions if isinstance(c, exp.Identifier | exp.Column)))
        if Flag.SCHEMA_EVOLUTION in flags and isinstance(target, exp.Schema)
        else ()
    )
    if listed and len(listed) != len(target.expressions):
        listed = ()  # a column the list names some other way: not known
    return _intent(
        ctx,
        ref,
        kind,
        resolved,
        flags=flags,
        predicate_sql=_predicate_sql(ctx, cond),
        region=region,
        read_region=read,
        row_columns=listed,
    )


_APPENDS = (Kind.BLIND_APPEND, Kind.INSERT_READING_TARGET)


def _multi_insert(ctx: _Ctx, tree: exp.MultitableInserts, evolution: bool):
    """`FROM src INSERT INTO a SELECT ... INSERT INTO b SELECT ...` (Spark SQL's
    multi-insert, from Hive): each INSERT is a write of its own table, one commit per
    target, with its SELECT reading the shared FROM (joins and all), as the INSERT
    would written alone. They stand at the statement's own location."""
    source = tree.args.get("source")
    intents: list[Intent] = []
    diagnostics: list[Diagnostic] = []
    for each in tree.expressions:
        if not isinstance(each, exp.Insert):
            raise ParseError("a multi-insert holds a statement other than INSERT")
        query = each.expression
        if isinstance(query, exp.Select) and source is not None and query.args.get("from_") is None:
            query.set("from_", exp.From(this=source.copy()))
        found, diags = _insert(ctx, each, evolution)
        intents.extend(found)
        diagnostics.extend(diags)
    return intents, diagnostics


def _written_values(ctx: _Ctx, tree: exp.Insert, target: TableRef) -> Region | None:
    """The values an INSERT without a PARTITION clause writes, per column, when its rows
    are literal (`VALUES (10, 'b', 0), ...`) or a SELECT lists constants (`SELECT 1,
    'b', 0`): each column takes the values the rows give it (the set of them over the
    rows). A row with a value that is not a literal or a parameter gives None. The
    columns are the INSERT's column list,
    else the order a CREATE TABLE earlier in the script declares; without either,
    or with rows not all read, None: the rows may land anywhere."""
    if tree.args.get("by_name") or ctx.rows_cut:
        return None
    target_node = tree.this
    if isinstance(target_node, exp.Schema) and target_node.expressions:
        columns = tuple(e.name.lower() for e in target_node.expressions)
    else:
        columns = ctx.declared(("columns", target.name))
    query = tree.expression
    if isinstance(query, exp.Values):
        rows = [list(r.expressions) if isinstance(r, exp.Tuple) else [r] for r in query.expressions]
    elif isinstance(query, exp.Select):
        rows = [[e.this if isinstance(e, exp.Alias) else e for e in query.expressions]]
    else:
        return None  # a set operation, a table, or nothing readable
    if not columns or not rows or any(len(row) != len(columns) for row in rows):
        return None
    param_of = _param_of(ctx.tpl)
    conjunct = []
    for index, column in enumerate(columns):
        values = [constant_of(row[index], param_of) for row in rows]
        if any(v is None for v in values):
            # a column read from elsewhere may hold any partition's value: a region
            # leaving it open would say the rows land in every partition, not in some
            return None
        conjunct.append((column, Constraint(values=frozenset(values))))  # type: ignore[arg-type]
    return Region((tuple(sorted(conjunct)),))


def _own_read_region(ctx: _Ctx, query: exp.Expression | None, target: TableRef) -> Region | None:
    """The region `SELECT ... FROM target [alias] [WHERE cond]` reads when the target is its
    only table (no join, CTE, set operation or subquery); None otherwise."""
    if not isinstance(query, exp.Select) or query.args.get("joins") or query.args.get("with"):
        return None
    tables = list(query.find_all(exp.Table))
    if len(tables) != 1 or query.find(exp.Subquery) is not None:
        return None
    ref, _resolved = table_ref(_sqlglot_table_parts(tables[0]), ctx.session, ctx.tpl)
    if ref != target:
        return None
    where = query.args.get("where")
    if not isinstance(where, exp.Where):
        return WHOLE
    names = {target.name.split(".")[-1], *([tables[0].alias.lower()] if tables[0].alias else [])}
    return condition_region(ctx, where.this, names, True)


def _merge(ctx: _Ctx, tree: exp.Merge, evolution: bool):
    ref, resolved, alias = _table_of(ctx, tree.this)
    names = {ref.name.split(".")[-1], *([alias.lower()] if alias else [])}
    on = tree.args.get("on")
    if not isinstance(on, exp.Expression):  # malformed input can leave a bare value here
        raise ParseError("MERGE without an ON condition")
    clauses = []
    flags: set[Flag] = set()
    aliases = names | _source_aliases(tree)  # the names a condition's columns may qualify
    whens = tree.args.get("whens")
    for when in whens.expressions if whens else []:
        then = when.args.get("then")
        action = "insert" if isinstance(then, exp.Insert) else "update" if isinstance(then, exp.Update) else "delete"
        if when.args.get("source"):
            clauses.append(f"not_matched_by_source_{action}")
            flags.add(Flag.READS_WHOLE_TARGET)
        elif when.args.get("matched"):
            clauses.append(f"matched_{action}")
        else:
            clauses.append(f"not_matched_{action}")
        flags |= condition_flags(when.args.get("condition"), aliases, ref, ctx)
    if evolution or ctx.session.auto_merge:
        flags.add(Flag.SCHEMA_EVOLUTION)
    flags |= condition_flags(on, aliases, ref, ctx)
    if _reads(ctx, tree.args.get("using"), ref):
        flags.add(Flag.READS_TARGET)
    region = WHOLE if Flag.READS_WHOLE_TARGET in flags else _merge_region(ctx, on, whens, names)
    return _intent(
        ctx,
        ref,
        Kind.MERGE,
        resolved,
        flags=flags,
        predicate_sql=_predicate_sql(ctx, on),
        region=region,
        target_alias=alias.lower() if alias else None,
        merge_clauses=tuple(clauses),
    )


def _merge_region(ctx: _Ctx, on: exp.Expression, whens: exp.Expression | None, names: set[str]) -> Region:
    """The target rows a MERGE reads: those its ON condition selects, narrowed by the
    WHEN clauses' conditions when every clause constrains the target the same way
    (`WHEN MATCHED AND t.p = 'x' THEN ...` in each): no clause acts on another row,
    and Delta prunes the target by them (open-source Delta 4.0.1, measured: field
    notes 2026-11-26). A NOT MATCHED clause's condition cannot name the target, so a
    MERGE that inserts is read by its ON condition alone."""
    clauses = whens.expressions if whens else []
    conditions = [when.args.get("condition") for when in clauses]
    if not conditions or not all(isinstance(c, exp.Expression) for c in conditions):
        return condition_region(ctx, on, names, False)
    regions = {condition_region(ctx, c, names, False) for c in conditions}
    (narrowed,) = regions if len(regions) == 1 else (WHOLE,)
    if narrowed.is_whole() or narrowed.opaque:
        return condition_region(ctx, on, names, False)
    # each side copied once (and_ and paren copy by default: three copies each)
    both = exp.and_(exp.paren(on.copy(), copy=False), exp.paren(conditions[0].copy(), copy=False), copy=False)
    try:
        return condition_region(ctx, both, names, False)
    finally:
        release(both)


def _source_aliases(tree: exp.Merge) -> set[str]:
    using = tree.args.get("using")
    if using is None:
        return set()
    return {using.alias_or_name.lower()} if using.alias_or_name else set()


def _update_or_delete(ctx: _Ctx, tree: exp.Expression, evolution: bool):
    ref, resolved, alias = _table_of(ctx, tree.this)
    names = {ref.name.split(".")[-1], *([alias.lower()] if alias else [])}
    where = tree.args.get("where")
    cond = where.this if isinstance(where, exp.Where) else None
    flags = condition_flags(cond, names, ref, ctx)
    kind = Kind.UPDATE if isinstance(tree, exp.Update) else Kind.DELETE
    return _intent(
        ctx,
        ref,
        kind,
        resolved,
        flags=flags,
        predicate_sql=_predicate_sql(ctx, cond),
        region=condition_region(ctx, cond, names, True),
        target_alias=alias.lower() if alias else None,
    )


def _truncate(ctx: _Ctx, tree: exp.TruncateTable, evolution: bool):
    out, diags = [], []
    for table in tree.expressions:
        ref, resolved, _ = _table_of(ctx, table)
        i, d = _intent(ctx, ref, Kind.TRUNCATE, resolved)
        out += i
        diags += d
    return out, diags


def _copy(ctx: _Ctx, tree: exp.Copy, evolution: bool):
    ref, resolved, _ = _table_of(ctx, tree.this)
    flags = {Flag.SCHEMA_EVOLUTION} if _merges_schema(tree) else set()
    return _intent(ctx, ref, Kind.COPY_INTO, resolved, flags=flags)


def _merges_schema(tree: exp.Copy) -> bool:
    """Whether COPY INTO may evolve its target's schema: `COPY_OPTIONS ('mergeSchema' =
    'true')`, read from the tree (Databricks' COPY INTO reference). FORMAT_OPTIONS'
    `mergeSchema` merges the source files' schemas as they are read and leaves the
    target's alone."""
    for param in tree.args.get("params") or []:
        if not isinstance(param, exp.CopyParameter) or param.name.upper() != "COPY_OPTIONS":
            continue
        for option in param.expressions:
            if not isinstance(option, exp.Property) or option.name.lower() != "mergeschema":
                continue
            value = option.args.get("value")
            if isinstance(value, exp.Boolean):
                on = value.this is True
            else:
                on = isinstance(value, exp.Expression) and value.name.lower() == "true"
            if on:
                return True
    return False


def _create(ctx: _Ctx, tree: exp.Create, evolution: bool):
    kind = (tree.args.get("kind") or "").upper()
    if kind == "PROCEDURE":  # a header `_Procedures` does not take: its body's writes would go unsaid
        message = (
            "a procedure whose header delta-lint does not read (Databricks SQL writes `AS` before the body: "
            "`CREATE PROCEDURE p(...) ... AS BEGIN ... END`): the writes of its body are not checked"
        )
        return [], [Diagnostic(_NOT_READ, ctx.location, message, "info")]
    if kind != "TABLE":
        return [], []
    target = tree.this
    table = target.this if isinstance(target, exp.Schema) else target
    ref, resolved, _ = _table_of(ctx, table)
    props = tree.args.get("properties")
    partitioned: list[str] = []
    clustered: list[str] = []
    dv = None
    isolation = None
    fmt = None
    for prop in props.expressions if props else []:
        if isinstance(prop, exp.PartitionedByProperty):
            partitioned = [e.name.lower() for e in prop.this.expressions] if isinstance(prop.this, exp.Schema) else []
        elif isinstance(prop, exp.ClusterProperty):
            clustered = [e.name.lower() for e in prop.expressions]
        elif isinstance(prop, exp.FileFormatProperty):
            fmt = prop.name.lower()
        elif isinstance(prop, exp.Property):
            key = prop.name.lower()
            value = prop.args["value"].name.lower() if prop.args.get("value") is not None else ""
            if key == "delta.enabledeletionvectors":
                dv = value == "true"
            elif key == "delta.isolationlevel":
                isolation = "Serializable" if value == "serializable" else "WriteSerializable"
    if fmt not in (None, "delta"):
        return [], []
    identity = []
    columns = (
        tuple(c.name.lower() for c in target.expressions if isinstance(c, exp.ColumnDef))
        if isinstance(target, exp.Schema)
        else ()
    )
    if isinstance(target, exp.Schema):
        for col in target.expressions:
            if isinstance(col, exp.ColumnDef) and any(
                isinstance(c.args.get("kind"), exp.GeneratedAsIdentityColumnConstraint)
                for c in col.args.get("constraints") or []
            ):
                identity.append(col.name.lower())
    ddl = TableDDL(tuple(partitioned), tuple(clustered), dv, isolation, tuple(identity), columns)
    flags = set()
    if tree.args.get("exists"):
        flags.add(Flag.IF_NOT_EXISTS)
    if _reads(ctx, tree.expression, ref):
        flags.add(Flag.READS_TARGET)
    kind = Kind.CREATE_OR_REPLACE if tree.args.get("replace") else Kind.CREATE
    return _intent(ctx, ref, kind, resolved, flags=flags, declared=ddl, subkind="ctas" if tree.expression else None)


def _alter(ctx: _Ctx, tree: exp.Alter, evolution: bool):
    if (tree.args.get("kind") or "").upper() != "TABLE":
        return [], []
    ref, resolved, _ = _table_of(ctx, tree.this)
    kind, subkind = Kind.METADATA_CHANGE, "alter"
    dv: bool | None = None
    isolation: str | None = None
    clustered: tuple[str, ...] = ()
    added: list[str] = []
    for action in tree.args.get("actions") or []:
        if isinstance(action, exp.AlterSet):
            subkind = "set_tblproperties"
            for prop in action.find_all(exp.Property):
                key = _generic_sql(prop.this).strip("'\"`").lower() if prop.this is not None else ""
                value = prop.args.get("value")
                text = _generic_sql(value).strip("'\"`").lower() if value is not None else ""
                if key == "delta.enabledeletionvectors" and text in ("true", "false"):
                    dv = text == "true"
                elif key == "delta.isolationlevel" and text:
                    isolation = "Serializable" if text == "serializable" else "WriteSerializable"
                if _PROTOCOL_PROPERTIES.fullmatch(key) and _changes_protocol(key, text, ctx, ref):
                    kind, subkind = Kind.PROTOCOL_CHANGE, f"set {key}"
        elif isinstance(action, exp.Schema) or isinstance(action, exp.ColumnDef):
            subkind = "add_columns"
            defs = action.expressions if isinstance(action, exp.Schema) else [action]
            added += [d.name.lower() for d in defs if isinstance(d, exp.ColumnDef)]
        elif isinstance(action, exp.Drop):
            subkind = "drop_constraint" if (action.args.get("kind") or "").upper() == "CONSTRAINT" else "drop_columns"
        elif isinstance(action, exp.RenameColumn):
            subkind = "rename_column"
        elif isinstance(action, exp.AlterColumn):
            subkind = "alter_column"
        elif isinstance(action, exp.ClusterProperty):
            subkind = "cluster_by"
            clustered = tuple(e.name.lower() for e in action.expressions)
        elif isinstance(action, exp.AddConstraint):
            subkind = "add_constraint"
        elif isinstance(action, exp.AlterRename):
            subkind = "rename_table"
    # settings the statement gives the table (amending what its CREATE declared)
    changed = TableDDL(
        clustered_by=clustered, deletion_vectors=dv, isolation_level=isolation, columns=tuple(dict.fromkeys(added))
    )
    declared = changed if changed != TableDDL() else None
    return _intent(ctx, ref, kind, resolved, subkind=subkind, declared=declared)


def _changes_protocol(key: str, value: str, ctx: _Ctx, table: TableRef) -> bool:
    """Whether setting a feature's table property to `value` (lower case, unquoted)
    writes a `protocol` action. Turning a feature off (`delta.enable... = false`,
    `delta.columnMapping.mode = 'none'`) leaves the protocol as it is: only the
    metadata changes (open-source Delta 4.0.1 fails the concurrent writer with
    MetadataChangedException, tests/oracle; Databricks lists removing column mapping
    among the metadata changes, seeds/000). Nor does setting the value a CREATE TABLE
    earlier in the script already gave it: the feature is in the protocol since."""
    if key.startswith("delta.enable") and value == "false":
        return False
    if key == "delta.columnmapping.mode" and value == "none":
        return False
    return ctx.declared(("property", table.name, key)) != value


def _comment(ctx: _Ctx, tree: exp.Comment, evolution: bool):
    """COMMENT ON TABLE, and COMMENT ON COLUMN (the column's comment is in the
    table's schema: the same metadata change as ALTER COLUMN ... COMMENT)."""
    kind = (tree.args.get("kind") or "").upper()
    target = tree.this
    if kind == "COLUMN" and isinstance(target, exp.Column) and target.args.get("table") is not None:
        target = exp.Table(this=target.args["table"], db=target.args.get("db"), catalog=target.args.get("catalog"))
    elif kind != "TABLE":
        return [], []
    ref, resolved, _ = _table_of(ctx, target)
    return _intent(ctx, ref, Kind.METADATA_CHANGE, resolved, subkind="comment")


_HANDLERS = {
    exp.Insert: _insert,
    exp.MultitableInserts: _multi_insert,
    exp.Merge: _merge,
    exp.Update: _update_or_delete,
    exp.Delete: _update_or_delete,
    exp.TruncateTable: _truncate,
    exp.Copy: _copy,
    exp.Create: _create,
    exp.Alter: _alter,
    exp.Comment: _comment,
}


class _Recognise:
    """Recognisers for statements sqlglot does not parse into a usable tree."""

    @staticmethod
    def _ref(ctx: _Ctx, m: re.Match) -> tuple[TableRef, bool]:
        return table_ref(split_name(m["table"]), ctx.session, ctx.tpl)

    @staticmethod
    def optimize(ctx: _Ctx, m: re.Match):
        ref, resolved = _Recognise._ref(ctx, m)
        sql, region, flags = _read_condition(
            ctx, _parse_condition(ctx, m["where"]), {ref.name.split(".")[-1]}, True, ref
        )
        zorder = tuple(c.strip().strip("`").lower() for c in (m["z"] or "").strip("() ").split(",") if c.strip())
        return _intent(
            ctx,
            ref,
            Kind.OPTIMIZE_ZORDER if zorder else Kind.OPTIMIZE,
            resolved,
            predicate_sql=sql,
            region=region,
            zorder_by=zorder,
            flags=flags,
        )

    @staticmethod
    def replace_on(ctx: _Ctx, m: re.Match, evolution: bool = False):
        """`INSERT [WITH SCHEMA EVOLUTION] INTO t REPLACE ON cond (query)`: the rows of
        `t` the condition matches are deleted and the query's inserted, in one commit: a
        MERGE whose condition joins the query (which rows, only the data tells); with
        schema evolution (or the session's auto-merge) it may change the schema too."""
        ref, resolved = _Recognise._ref(ctx, m)
        flags = {Flag.OPAQUE_CONDITION, *((Flag.SCHEMA_EVOLUTION,) if evolution else ())}
        return _intent(ctx, ref, Kind.MERGE, resolved, subkind="replace_on", flags=flags)

    @staticmethod
    def vacuum(ctx: _Ctx, m: re.Match):
        ref, resolved = _Recognise._ref(ctx, m)
        return _intent(ctx, ref, Kind.VACUUM, resolved)

    @staticmethod
    def restore(ctx: _Ctx, m: re.Match):
        ref, resolved = _Recognise._ref(ctx, m)
        return _intent(ctx, ref, Kind.RESTORE, resolved)

    @staticmethod
    def reorg(ctx: _Ctx, m: re.Match):
        ref, resolved = _Recognise._ref(ctx, m)
        if m["apply"].upper().startswith("PURGE"):
            cond = _parse_condition(ctx, m["where"])
            sql, region, _ = _read_condition(ctx, cond, {ref.name.split(".")[-1]}, True, None)
            return _intent(ctx, ref, Kind.REORG_PURGE, resolved, predicate_sql=sql, region=region)
        return _intent(ctx, ref, Kind.PROTOCOL_CHANGE, resolved, subkind="reorg_upgrade_uniform")

    @staticmethod
    def convert(ctx: _Ctx, m: re.Match):
        ref, resolved = _Recognise._ref(ctx, m)
        parts = tuple(p.split()[0].strip("`").lower() for p in (m["parts"] or "").split(",") if p.strip())
        return _intent(
            ctx, ref, Kind.CREATE, resolved, subkind="convert_to_delta", declared=TableDDL(partitioned_by=parts)
        )

    @staticmethod
    def clone(ctx: _Ctx, m: re.Match):
        ref, resolved = _Recognise._ref(ctx, m)
        kind = Kind.CREATE_OR_REPLACE if (m["replace"] or m["replace2"]) else Kind.CREATE
        flags = {Flag.IF_NOT_EXISTS} if m["exists"] else set()
        return _intent(ctx, ref, kind, resolved, subkind="clone", flags=flags)

    @staticmethod
    def alter_command(ctx: _Ctx, m: re.Match):
        ref, resolved = _Recognise._ref(ctx, m)
        rest = " ".join(m["rest"].split()).upper()
        if rest.startswith("DROP FEATURE"):
            return _intent(ctx, ref, Kind.PROTOCOL_CHANGE, resolved, subkind="drop_feature")
        if rest.startswith("UNSET TBLPROPERTIES"):
            return _intent(ctx, ref, Kind.METADATA_CHANGE, resolved, subkind="unset_tblproperties")
        words = rest.split()
        sub = "_".join(words[:2]).lower() if words and not _LEADING_MARKER.match(words[0]) else "alter"
        return _intent(ctx, ref, Kind.METADATA_CHANGE, resolved, subkind=sub)


def read_tables(sql_text: str, session: Session) -> set[TableRef]:
    """Tables a query reads (for DataFrames built with `spark.sql`)."""
    tpl = apply_templates(sql_text)
    try:
        tree = parse_sql(tpl.text)
    except (ParseError, TokenError, RecursionError):
        return set()
    if tree is None:
        return set()
    found = set()
    for t in tree.find_all(exp.Table):
        try:
            found.add(table_ref(_sqlglot_table_parts(t), session, tpl)[0])
        except ParseError:
            continue  # a malformed name is not a table this query can be said to read
    release(tree)
    return found


@dataclass(frozen=True)
class ConditionInfo:
    sql: str | None
    region: Region
    flags: frozenset[Flag]
    params: tuple[str, ...]


def condition_info(
    text: str | None,
    names: set[str],
    unqualified: bool,
    session: Session,
    target: TableRef,
    memo: FrontEndMemo | None = None,
) -> ConditionInfo:
    """Read a target condition given as SQL text (DeltaTable API, replaceWhere).

    `None` means the condition exists but could not be read statically: nothing
    can be proven about it. A condition is read once a run (`memo`, the run's) per
    what it is read against: jobs repeat conditions such as `date = '{ds}'` for many
    writes. Only the session's catalog and schema matter here (tables of subqueries).
    """
    if text is None:
        return ConditionInfo(None, OPAQUE, frozenset({Flag.OPAQUE_CONDITION}), ())
    if not text.strip():
        return ConditionInfo(None, WHOLE, frozenset(), ())
    memo = memo if memo is not None else FrontEndMemo()
    key = (text, frozenset(n.lower() for n in names), unqualified, session.catalog, session.schema, target)
    found = memo.conditions.get(key)
    if found is None:
        found = _condition_info(memo, *key)
        _keep(memo.conditions, key, found, CONDITIONS_KEPT)
    return found


def _condition_info(
    memo: FrontEndMemo,
    text: str,
    names: frozenset[str],
    unqualified: bool,
    catalog: str | None,
    schema: str | None,
    target: TableRef,
) -> ConditionInfo:
    tpl = apply_templates(text)
    ctx = _Ctx("", Location("", 0, 0), Session(catalog, schema), tpl, tpl.text, memo)
    try:
        cond = _parse_condition(ctx, tpl.text)
    except (ParseError, TokenError, RecursionError):
        return ConditionInfo(text, OPAQUE, frozenset({Flag.OPAQUE_CONDITION}), ctx.params())
    sql, region, flags = _read_condition(ctx, cond, names, unqualified, target)
    return ConditionInfo(sql, region, frozenset(flags), ctx.params())
