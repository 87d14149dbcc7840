"""Which files are Databricks job code, and why the others are skipped.

Real repositories keep T-SQL and PostgreSQL scripts, dbt models, Lakeflow
(DLT) pipelines, apps and tests next to their jobs. None of them is run by a
Databricks job as written, so none is linted: each is recognised from its own
text (and its path, for tests) and named in the run's summary with the kind it
was taken for, instead of becoming a parse error per statement.

A recogniser needs a clear sign of its kind; a file with none is linted. Signs
that Databricks SQL shares (backticks, `::` casts, `$param` substitution) are
never used.
"""

from __future__ import annotations

import re
from functools import cache

TSQL = "T-SQL"
POSTGRES = "PostgreSQL"
MYSQL = "MySQL"
ORACLE = "Oracle PL/SQL"
SNOWFLAKE = "Snowflake SQL"
DBT = "dbt"
LAKEFLOW = "Lakeflow pipeline"
APP = "app"
TEST = "test"
# languages delta-lint does not read: their files are counted by kind, never read as Python
OTHER_LANGUAGES = {".scala": "Scala", ".r": "R"}

_FLAGS = re.IGNORECASE | re.MULTILINE

# Each pattern alone says the kind: dbt and Lakeflow files are never Databricks jobs.
_SQL_SIGNS: tuple[tuple[str, re.Pattern], ...] = (
    (
        DBT,
        re.compile(
            r"\{\{-?\s*(?:config|ref|source|var|this|target|adapter|dbt_utils|is_incremental)\b"
            r"|\{%-?\s*(?:macro|if|for|set|snapshot|test|materialization|docs|call)\b",
            _FLAGS,
        ),
    ),
    (
        LAKEFLOW,
        re.compile(
            r"^[ \t]*CREATE\s+(?:OR\s+REFRESH\s+)(?:PRIVATE\s+|TEMPORARY\s+)?"
            r"(?:STREAMING\s+(?:LIVE\s+)?TABLE|MATERIALIZED\s+VIEW|LIVE\s+(?:TABLE|VIEW))\b"
            r"|^[ \t]*CREATE\s+(?:TEMPORARY\s+)?(?:STREAMING\s+)?LIVE\s+(?:TABLE|VIEW)\b"
            r"|^[ \t]*(?:APPLY\s+CHANGES\s+INTO|CREATE\s+FLOW\b|AUTO\s+CDC\s+INTO)"
            r"|\bFROM\s+STREAM\s*\(\s*LIVE\.|\bCONSTRAINT\s+\w+\s+EXPECT\s*\(",
            _FLAGS,
        ),
    ),
)

# The other dialects' signs, and Databricks-only SQL, one alternative each, as (the
# words every match holds, lower-cased; the alternative). Searched over a whole file,
# a case-insensitive pattern without a leading literal tries every position, and
# nearly every file shows none of them: an alternative is searched only in text
# holding all its words (see `_shows`; benchmarks/CHOICES.md).
_Signs = tuple[tuple[tuple[str, ...], str], ...]
_DIALECT_SIGNS: tuple[tuple[str, _Signs], ...] = (
    (
        TSQL,
        (
            (("go",), r"^[ \t]*GO\s*;?\s*$"),
            ((":setvar",), r"^[ \t]*:setvar\b"),
            (("create", "proc"), r"\bCREATE\s+(?:OR\s+ALTER\s+)?PROC(?:EDURE)?\s+\[?\w+\]?\.\[?"),
            (("@",), r"\b(?:DECLARE|SET)\s+@\w+"),
            (("object_id",), r"\bIF\s+OBJECT_ID\s*\("),
            (("nocount",), r"\bSET\s+NOCOUNT\s+ON\b"),
            (("varchar", "max"), r"\bN?VARCHAR\s*\(\s*MAX\s*\)"),
            (("[dbo]",), r"\[dbo\]\."),
            (("dbo.[",), r"\bdbo\.\["),
            (("[", "]"), r"\[\w+\]\s*\.\s*\[\w+\]"),
            (("identity",), r"\bIDENTITY\s*\(\s*\d+\s*,\s*\d+\s*\)"),
            (("with", "distribution"), r"\bWITH\s*\(\s*DISTRIBUTION\b"),
            (("with", "columnstore"), r"\bWITH\s*\(\s*CLUSTERED\s+COLUMNSTORE\b"),
            (("with", "heap"), r"\bWITH\s*\(\s*HEAP\b"),
            (("exec", "sp_"), r"\bEXEC(?:UTE)?\s+sp_"),
            (("exec", "dbo"), r"\bEXEC(?:UTE)?\s+\[?dbo\]?\."),
            (("begin", "tran"), r"\bBEGIN\s+TRAN(?:SACTION)?\b"),
            # a row count given literally, as a parameter marker or a variable
            (("select", "top"), r"\bSELECT\s+(?:DISTINCT\s+)?TOP\s*(?:\(\s*[\d?@]|\d)"),
            # a local or global temporary table (`#new_orders`, `##stage`): `#` starts no
            # Databricks identifier
            (("#",), r"\b(?:INTO|FROM|JOIN|TABLE|UPDATE)\s+##?[A-Za-z_]\w*"),
            (("create", "master"), r"\bCREATE\s+MASTER\s+KEY\b"),
            (("create", "scoped"), r"\bCREATE\s+DATABASE\s+SCOPED\s+CREDENTIAL\b"),
            (("create", "external", "format"), r"\bCREATE\s+EXTERNAL\s+FILE\s+FORMAT\b"),
            (("create", "external", "source"), r"\bCREATE\s+EXTERNAL\s+DATA\s+SOURCE\b"),
            (("getdate",), r"\bGETDATE\s*\(\s*\)"),
            (("newid",), r"\bNEWID\s*\(\s*\)"),
            (("uniqueidentifier",), r"\bUNIQUEIDENTIFIER\b"),
            (("datetime2",), r"\bDATETIME2\b"),
            (("nonclustered",), r"\bNONCLUSTERED\b"),
        ),
    ),
    (
        POSTGRES,
        (
            (("serial",), r"\b(?:BIG|SMALL)?SERIAL\b"),
            (("language", "plpgsql"), r"\bLANGUAGE\s+'?plpgsql\b"),
            (("create", "extension"), r"\bCREATE\s+EXTENSION\b"),
            (("create", "sequence"), r"\bCREATE\s+SEQUENCE\b"),
            (("conflict",), r"\bON\s+CONFLICT\b"),
            (("owner",), r"\bOWNER\s+TO\b"),
            (("\\",), r"^[ \t]*\\(?:c|connect|copy|set|i|echo|o|g|gset|pset|timing)\b"),
            # an anonymous code block, a dollar-quoted string as a value (Databricks
            # quotes a function's body so, after `AS`, and nothing else)
            (("do", "$"), r"^[ \t]*DO\s+(?:LANGUAGE\s+\w+\s+)?\$\w*\$"),
            (("$",), r"[(,=]\s*\$\w*\$"),
            (("default", "privileges"), r"\bALTER\s+DEFAULT\s+PRIVILEGES\b"),
            (("copy",), r"\bCOPY\b[^;]*?\b(?:TO\s+STDOUT|FROM\s+STDIN|(?:TO|FROM)\s+PROGRAM)\b"),
            (("pg_",), r"\bpg_(?:tables|catalog|class|namespace|indexes|views|roles|stat_\w+)\b"),
            (("timestamptz",), r"\bTIMESTAMPTZ\b"),
            (
                ("create", "function", "returns", "$"),
                # (not Databricks' own `RETURNS INT LANGUAGE PYTHON AS $$ ... $$`)
                r"\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\b[^;]*\bRETURNS\b(?:(?!LANGUAGE\s+PYTHON\b)[^;])*\bAS\s+\$\w*\$",
            ),
            (("jsonb",), r"\bJSONB\b"),
            (("bytea",), r"\bBYTEA\b"),
            (("alter", "system"), r"\bALTER\s+SYSTEM\s+(?:SET|RESET)\b"),
        ),
    ),
    (
        MYSQL,
        (
            (("auto_increment",), r"\bAUTO_INCREMENT\b"),
            (("engine",), r"\bENGINE\s*=\s*\w+"),
            (("default", "charset"), r"\bDEFAULT\s+CHARSET\b"),
            (("delimiter",), r"^[ \t]*DELIMITER\s+\S+\s*$"),
            (("duplicate",), r"\bON\s+DUPLICATE\s+KEY\s+UPDATE\b"),
            (("unsigned",), r"\b(?:INT|BIGINT|TINYINT)\s*(?:\(\d+\))?\s+UNSIGNED\b"),
            (("set", "names"), r"^[ \t]*SET\s+NAMES\b"),
            (("flush",), r"\bFLUSH\s+(?:PRIVILEGES|TABLES|LOGS|HOSTS)\b"),
            (("identified",), r"\bIDENTIFIED\s+(?:BY|WITH)\b"),
            (("@",), r"'[^'\n]*'@'[^'\n]*'"),
        ),
    ),
    (
        ORACLE,
        (
            (("varchar2",), r"\bVARCHAR2\b"),
            (("number",), r"\bNUMBER\s*\(\s*\d+"),
            (("/",), r"^[ \t]*/\s*$"),
            (("create", "package"), r"\bCREATE\s+OR\s+REPLACE\s+PACKAGE\b"),
        ),
    ),
    (
        SNOWFLAKE,
        (
            (("variant",), r"\bVARIANT\b"),
            (("create", "stage"), r"\bCREATE\s+(?:OR\s+REPLACE\s+)?STAGE\b"),
        ),
    ),
)

# Snowflake's own statements, which no Databricks SQL file holds: they outrank the
# Databricks signs Snowflake shares (`CLUSTER BY`), not those it lacks (`USING DELTA`).
_SNOWFLAKE_STATEMENTS: _Signs = (
    (("warehouse",), r"\b(?:USE|CREATE(?:\s+OR\s+REPLACE)?)\s+WAREHOUSE\b"),
    (("use", "role"), r"^[ \t]*USE\s+(?:SECONDARY\s+)?ROLES?\b"),
    (("storage", "integration"), r"\bCREATE\s+(?:OR\s+REPLACE\s+)?STORAGE\s+INTEGRATION\b"),
    (("task",), r"^[ \t]*(?:CREATE\s+(?:OR\s+REPLACE\s+)?|ALTER\s+)TASK\b"),
    (("iceberg", "table"), r"\b(?:CREATE\s+(?:OR\s+REPLACE\s+)?|ALTER\s+)ICEBERG\s+TABLE\b"),
    (("external_volume",), r"\bEXTERNAL_VOLUME\s*="),
)

# Databricks-only SQL: a file showing one of these is linted whatever else it shows.
_DATABRICKS_SIGNS: _Signs = (
    (("using", "delta"), r"\bUSING\s+DELTA\b"),
    (("tblproperties",), r"\bTBLPROPERTIES\b"),
    (("optimize",), r"\bOPTIMIZE\s+[\w`.]+"),
    (("zorder",), r"\bZORDER\s+BY\b"),
    (("delta.`",), r"\bdelta\.`"),
    (("copy", "into"), r"\bCOPY\s+INTO\b"),
    (("replace", "where"), r"\bREPLACE\s+WHERE\b"),
    (("describe",), r"\bDESCRIBE\s+(?:DETAIL|HISTORY)\b"),
    (("vacuum",), r"\bVACUUM\b"),
    (("unity",), r"\bUNITY\b"),
)
# Databricks SQL that Snowflake shares: a sign of Databricks unless Snowflake's own
# statements show (`CREATE ICEBERG TABLE ... CLUSTER BY (c)` is Snowflake's).
_SHARED_DATABRICKS_SIGNS: _Signs = ((("cluster",), r"\bCLUSTER\s+BY\b"),)

_LAKEFLOW_PY = re.compile(
    r"^[ \t]*(?:import\s+dlt\b|from\s+dlt\s+import\b|from\s+pyspark\s+import\s+pipelines\b|import\s+pyspark\.pipelines\b)"
    r"|^[ \t]*@(?:dlt|dp)\.(?:table|view|materialized_view|streaming_table|append_flow|expect\w*)\b",
    _FLAGS,
)
# the same signs inside a notebook's cells (`.ipynb` JSON strings, `# MAGIC` lines)
_LAKEFLOW_QUOTED_DLT = r"\"\s*(?:import\s+dlt\b|from\s+dlt\s+import\b|@dlt\.(?:table|view)\b)"
_LAKEFLOW_CREATE_REFRESH = (
    r"\bcreate\s+or\s+refresh\s+(?:streaming\s+(?:live\s+)?table|materialized\s+view|live\s+table)\b"
)
_LAKEFLOW_APPLY_CHANGES = r"\bapply\s+changes\s+into\b"
_LAKEFLOW_ANYWHERE = re.compile(
    "|".join((_LAKEFLOW_QUOTED_DLT, _LAKEFLOW_CREATE_REFRESH, _LAKEFLOW_APPLY_CHANGES)), re.IGNORECASE
)
# A dataset definition of a pipeline's SQL, whichever of its forms (`CREATE OR REFRESH`,
# `CREATE OR REPLACE`, or neither; a streaming table, a materialized view, a live
# table or view): the sign of Lakeflow SQL where a pipeline includes the file.
_PIPELINE_DATASET = re.compile(
    r"^[ \t]*CREATE\s+(?:OR\s+(?:REFRESH|REPLACE)\s+)?(?:PRIVATE\s+|TEMPORARY\s+)?"
    r"(?:STREAMING\s+(?:LIVE\s+)?TABLE|MATERIALIZED\s+VIEW|LIVE\s+(?:TABLE|VIEW))\b",
    _FLAGS,
)
_APP_PY = re.compile(
    r"^[ \t]*(?:import|from)\s+(?:streamlit|flask|fastapi|dash|gradio|django|uvicorn|starlette)\b", _FLAGS
)
_SPARK_WRITE = re.compile(r"\b(?:saveAsTable|insertInto|toTable|writeStream|DeltaTable|\.sql\s*\()")
TEST_PATH = re.compile(r"(?:^|/)(?:tests?|testing|__tests__)/|(?:^|/)(?:test_[^/]*|[^/]*_test|conftest)\.py$")


def skip_reason(display: str, suffix: str, text: str, in_pipeline: bool = False) -> str | None:
    """The kind of a file that is not Databricks job code, or None to lint it.

    `in_pipeline`: a pipeline definition includes the file (its `libraries`). There a
    dataset definition of any form is sign enough (`_PIPELINE_DATASET`): the pipeline
    writes what it defines, though `CREATE MATERIALIZED VIEW` without `OR REFRESH`
    is also Databricks SQL a job may run, so it says nothing alone."""
    if suffix in OTHER_LANGUAGES:
        return OTHER_LANGUAGES[suffix]
    if in_pipeline and suffix in (".sql", ".py", "") and _PIPELINE_DATASET.search(_without_comments(text)):
        return LAKEFLOW
    if suffix == ".sql":
        return _sql_kind(text)
    if suffix in (".py", "", ".ipynb"):
        if not _lowers_exactly(text):
            return _python_kind_any_text(display, text)
        lower = text.lower()
        if _is_lakeflow_python(lower):
            return LAKEFLOW
        if TEST_PATH.search(display.replace("\\", "/")):
            return TEST
        if _is_app(lower) and not _SPARK_WRITE.search(text):
            return APP
    return None


# The letters outside ASCII that a case-insensitive pattern takes for an ASCII one
# (dotted and dotless i, the long s, the Kelvin sign; found by trying every code
# point against `[a-z]`). In text without them, `lower` keeps every character's
# place and class (`\w`, `\s`) and turns into an ASCII letter only the letters a
# case-insensitive pattern matches it with, so a case-sensitive pattern searched in
# lower-cased text finds what the case-insensitive one finds in the text.
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def _lowers_exactly(text: str) -> bool:
    """Whether lower-cased `text` can stand for it under case-insensitive patterns."""
    return text.isascii() or not any(letter in text for letter in _FOLDS_TO_ASCII)


def _python_kind_any_text(display: str, text: str) -> str | None:
    """The Python kinds read by the whole-file patterns themselves, for text holding
    a letter of `_FOLDS_TO_ASCII`, where the shortcuts of `skip_reason` over its
    lower-cased text would not be exact. No word is looked for first: `lower` would
    miss these letters in a word too, and such text is rare."""
    if _LAKEFLOW_PY.search(text) or _LAKEFLOW_ANYWHERE.search(text):
        return LAKEFLOW
    if TEST_PATH.search(display.replace("\\", "/")):
        return TEST
    if _APP_PY.search(text) and not _SPARK_WRITE.search(text):
        return APP
    return None


# The Lakeflow and app signs of Python text, case-sensitive over its lower-cased text
# (see `_lowers_exactly`; the patterns above are written in lower case for this): a
# case-sensitive pattern is searched faster (about 1.5x here). The two that hold no `dlt`
# are tried only where their first word is (`match` at each place `str.find` gives):
# in job code `refresh` and `changes` are common (`refreshTable`, comments), but
# `create or refresh` and `apply changes` are not.
_LAKEFLOW_PY_LOWER = re.compile(_LAKEFLOW_PY.pattern, re.MULTILINE)
_LAKEFLOW_DLT_LOWER = re.compile(_LAKEFLOW_QUOTED_DLT)
_CREATE_REFRESH_LOWER = re.compile(_LAKEFLOW_CREATE_REFRESH)
_APPLY_CHANGES_LOWER = re.compile(_LAKEFLOW_APPLY_CHANGES)
_APP_WORDS = ("streamlit", "flask", "fastapi", "dash", "gradio", "django", "uvicorn", "starlette")
_APP_PY_LOWER = re.compile(_APP_PY.pattern, re.MULTILINE)


def _is_lakeflow_python(lower: str) -> bool:
    """Whether lower-cased text shows a sign of `_LAKEFLOW_PY` or
    `_LAKEFLOW_ANYWHERE`. Each alternative is searched only where a word it holds is
    present: `dlt`, `pipelines` or `@dp.` for the Python signs and the quoted
    `dlt` imports, `create ... refresh` and `apply changes` for the SQL ones."""
    has_dlt = "dlt" in lower
    if (has_dlt or "pipelines" in lower or "@dp." in lower) and _LAKEFLOW_PY_LOWER.search(lower):
        return True
    if has_dlt and _LAKEFLOW_DLT_LOWER.search(lower):
        return True
    if "refresh" in lower and _matches_at_word(lower, "create", _CREATE_REFRESH_LOWER):
        return True
    return "changes" in lower and _matches_at_word(lower, "apply", _APPLY_CHANGES_LOWER)


def _is_app(lower: str) -> bool:
    """Whether lower-cased text imports a web-app framework at a line's start
    (`_APP_PY`), searched only in text that names one of them."""
    return any(word in lower for word in _APP_WORDS) and _APP_PY_LOWER.search(lower) is not None


def _matches_at_word(lower: str, word: str, pattern: re.Pattern) -> bool:
    """Whether `pattern`, which begins with `word` (after a `\\b`), matches where `word` occurs: the
    same answer as searching the whole text, without trying every other place."""
    at = lower.find(word)
    while at >= 0:
        if pattern.match(lower, at):
            return True
        at = lower.find(word, at + 1)
    return False


def _sql_kind(text: str) -> str | None:
    text = _without_comments(text)
    # lower-cased text stands for the text under the case-insensitive patterns (see
    # `_lowers_exactly`), or None: then every pattern is searched, without word tests
    lower = text.lower() if _lowers_exactly(text) else None
    for kind, pattern in _SQL_SIGNS:  # dbt and Lakeflow never read as Databricks jobs
        if kind == LAKEFLOW and lower is not None and not any(word in lower for word in _LAKEFLOW_SQL_WORDS):
            continue
        if pattern.search(text):
            return kind
    if _shows(_DATABRICKS_SIGNS, text, lower):
        return None
    if _shows(_SNOWFLAKE_STATEMENTS, text, lower):
        return SNOWFLAKE
    if _shows(_SHARED_DATABRICKS_SIGNS, text, lower):
        return None
    for kind, signs in _DIALECT_SIGNS:
        if _shows(signs, text, lower):
            return kind
    return None


# A word each Lakeflow SQL sign holds (`CREATE OR REFRESH`, `LIVE TABLE`, `STREAM(LIVE.`,
# `APPLY CHANGES`, `CREATE FLOW`, `AUTO CDC`, `EXPECT`). Most job SQL holds none, and
# the pattern (case-insensitive, line-anchored, five alternatives) would take half of
# the Lakeflow and dbt checks' time failing over a whole file.
_LAKEFLOW_SQL_WORDS = ("refresh", "live", "apply", "flow", "cdc", "expect")


def _shows(signs: _Signs, text: str, lower: str | None) -> bool:
    """Whether the text matches one of the alternatives `signs`: the same answer as
    searching their alternation, case-insensitively and line by line (`_FLAGS`).

    With `lower` (the lower-cased text, which stands for it: `_lowers_exactly`), an
    alternative is searched only in text holding all its words, and one that begins
    with its first word only where that word stands (`match` there answers as `search`
    would: every match starts with the word). `str.lower` keeps each character's
    place in such text: only U+0130 lowers to two characters, and it is not in it.
    Without `lower` every alternative is searched whole."""
    for words, alternative in signs:
        pattern, leading = _compiled(words, alternative)
        if lower is None:
            if pattern.search(text):
                return True
        elif all(word in lower for word in words):
            if leading is None:
                if pattern.search(text):
                    return True
                continue
            at = lower.find(leading)
            while at >= 0:
                if pattern.match(text, at):
                    return True
                at = lower.find(leading, at + 1)
    return False


_LEADING = re.compile(r"\\b(\w+)(?![?*+{])", re.ASCII)


@cache
def _compiled(words: tuple[str, ...], alternative: str) -> tuple[re.Pattern, str | None]:
    """An alternative of `_DIALECT_SIGNS` or the other sign tables, compiled when a file
    first needs it (most runs search few of them, and compiling them all costs a run
    about as much as searching those it needs), and its first word when the
    alternative begins with it (`\\bCREATE\\s+...` and the word `create`)."""
    leading = _LEADING.match(alternative)
    starts = leading is not None and leading[1].lower() == words[0]
    return re.compile(alternative, _FLAGS), words[0] if starts else None


_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/|'(?:[^'\\]|\\.|'')*'", re.DOTALL)


def _without_comments(text: str) -> str:
    """Comments and string literals blanked: a sign inside them says nothing."""
    return _COMMENTS.sub(lambda m: " " if not m.group(0).startswith("'") else "''", text)
