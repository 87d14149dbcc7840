"""Front ends: one file in, intents and diagnostics out, whatever its language.

The language front ends (and sqlglot behind them) are imported on first use, so a
run served from the cache, `discover` and `--version` never pay for them."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.values.budget import Budget
from delta_lint.model import (
    UNRESOLVED_TABLE,
    Context,
    Diagnostic,
    FileResult,
    Links,
    Location,
    code_words,
    source_words,
)
from delta_lint.safeio import MAX_INPUT_BYTES, InputRefused, declared_encoding, read_input
from delta_lint.suppress import scan as scan_suppressions

PARSE_ERROR = "DL000"
NOT_READ = "DL006"  # task-not-analysable: code in a language delta-lint does not read
# dbt project files routed to the front ends besides SQL: seeds, YAML snapshots (see `discover`)
DBT_DATA_SUFFIXES = (".csv", ".yml", ".yaml")

INTERNAL_ERROR = "DL002"
READ_ERROR = "DL003"


def decode(data: bytes) -> tuple[str, str | None]:
    """Text of a file; a note when it was not valid UTF-8 (or not valid in the
    encoding its PEP 263 cookie declares: `safeio.declared_encoding`)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode(declared_encoding(data) or "utf-8")
        note = None
    except UnicodeDecodeError as err:
        text = data.decode("utf-8", errors="replace")
        note = f"file is not valid UTF-8 (first bad byte at offset {err.start}); undecodable bytes were replaced"
    if "\0" in text:
        text = text.replace("\0", " ")
        note = (note + "; " if note else "") + "NUL bytes were replaced by spaces"
    return text.replace("\r\n", "\n").replace("\r", "\n"), note


def analyze_source(
    display: str,
    suffix: str,
    text: str,
    context: Context | None = None,
    memo: FrontEndMemo | None = None,
    budget: Budget | None = None,
) -> FileResult:
    """Intents of one file's text (with what other files and its jobs give it, see
    `Context`). Any exception is contained to this file. `memo`: the run's (without
    one, what is worked out is kept for this file alone); `budget`: what reading the
    file's values may cost (see `budget`), one for the file and all its readings."""
    context = context if context is not None else Context()
    memo = memo if memo is not None else FrontEndMemo()
    budget = budget if budget is not None else Budget()
    if context.variants:
        return _variants(display, suffix, text, context, memo, budget)
    result = FileResult(display)
    try:
        try:
            _dispatch(result, display, suffix, text, context, memo, budget)
        except RecursionError:
            # an expression CPython parses (a `+` chain of a thousand strings building
            # SQL) but deeper than delta-lint's readers may recurse by default: read the
            # file again, from the start, where they may recurse deeper
            from delta_lint.frontend.pysource import deeply

            result = FileResult(display)
            deeply(_dispatch, result, display, suffix, text, context, memo, Budget())
    except RecursionError:
        result.diagnostics.append(
            Diagnostic(PARSE_ERROR, Location(display, 1, 1), "file is nested too deeply to analyse", "error")
        )
    except Exception as err:  # noqa: BLE001 - one file must never stop the run
        result.diagnostics.append(
            Diagnostic(
                INTERNAL_ERROR,
                Location(display, 1, 1),
                f"internal error while reading this file ({type(err).__name__}: {err}); "
                "please report it with the file attached",
                "error",
            )
        )
    if context.documents:
        _mask_documents(result, context)
    # the same write made again at the same place, as each round of a loop makes it
    # (`for i in range(3): spark.sql(...)`), is one intent: pairing it again would
    # only repeat what the first gives
    result.intents = list({(i, i.location.sites): i for i in result.intents}.values())
    result.intents.sort(key=lambda i: (i.location.line, i.location.column))
    return result


def _mask_documents(result: FileResult, context: Context) -> None:
    """Keep the values of the project documents the code loaded out of what is
    printed (see `values.sources.DocumentText`): the statement text and conditions of
    messages and intents. Table names they form are kept (that is what they are
    read for), so a name that cannot be resolved is still shown whole."""
    from delta_lint.frontend.values.sources import DocumentText

    text = DocumentText(context.documents)
    result.diagnostics = [
        d if d.rule == UNRESOLVED_TABLE else replace(d, message=text.mask_quoted(d.message)) for d in result.diagnostics
    ]
    result.intents = [
        replace(i, predicate_sql=text.mask(i.predicate_sql)) if i.predicate_sql else i for i in result.intents
    ]


def _variants(display: str, suffix: str, text: str, context: Context, memo: FrontEndMemo, budget: Budget) -> FileResult:
    """A file its tasks run with different values: read once per set of values, its
    writes those of every reading (each once), all readings on the file's one budget."""
    results = [
        analyze_source(
            display, suffix, text, replace(context, inputs=context.inputs + values, variants=()), memo, budget
        )
        for values in context.variants
    ]
    out = results[0]
    readings: dict[tuple, list] = {}  # a write -> the sets of values of the readings that made it
    for values, r in zip(context.variants, results):
        for i in r.intents:
            readings.setdefault(_same_write(i), [i]).append(values)
    out.intents = [
        found[0] if len(set(found[1:])) == len(results) else replace(found[0], given=tuple(sorted(set(found[1:]))))
        for found in readings.values()
    ]
    out.diagnostics = list(dict.fromkeys(d for r in results for d in r.diagnostics))
    out.intents.sort(key=lambda i: (i.location.line, i.location.column))
    if out.links is not None:  # a module each task imports by its own name (`import_module(step)`): every one
        out.links.imports = list(dict.fromkeys(m for r in results if r.links is not None for m in r.links.imports))
        # and each reading's documents (`--conf-file conf/{env}.yml`): the next round gives them all
        out.links.documents = sorted({p for r in results if r.links is not None for p in r.links.documents})
    return out


def _same_write(intent) -> tuple:
    return (intent.location, intent.table, intent.kind, intent.predicate_sql, intent.flags)


def _dispatch(
    result: FileResult,
    display: str,
    suffix: str,
    text: str,
    context: Context,
    memo: FrontEndMemo,
    budget: Budget,
    job_code: bool = False,
) -> None:
    # Each language's front end is imported where it is needed: a run over SQL files
    # never imports the Python one. `job_code`: a pipeline's source read as a job's task.
    from delta_lint.frontend.recognise import DBT, LAKEFLOW, TEST, skip_reason

    if context.dbt:  # a dbt node's file: what its materialization writes, whatever its text
        from delta_lint.frontend.dbt import analyze_dbt

        result.intents += analyze_dbt(display, context.dbt, memo)
        return
    if suffix in DBT_DATA_SUFFIXES:  # a seed or a YAML snapshot file no project reads as one
        result.skipped = DBT
        return
    from delta_lint.frontend.sql import analyze_sql

    if suffix in (".scala", ".r") and text.lstrip().startswith(("//", "#")):
        from delta_lint.frontend.notebook import as_python_notebook

        if (converted := as_python_notebook(text, suffix)) is not None:
            text, suffix = converted, ".py"  # its SQL and Python cells are read; its own cells said unread
    result.skipped = skip_reason(display, suffix, text, in_pipeline=context.pipeline is not None)
    job_run = context.scheduled and context.pipeline is None  # (a pipeline's source a job runs too: below)
    if (result.skipped == TEST and context.scheduled) or (result.skipped == LAKEFLOW and (job_code or job_run)):
        result.skipped = None  # an integration-test notebook a job runs writes real tables
    if result.skipped == LAKEFLOW and context.pipeline is not None:
        from delta_lint.frontend.lakeflow import analyze_lakeflow

        result.skipped = None  # a source file of a bundle's pipeline: the pipeline writes its tables
        source, kind = text, suffix
        if suffix == ".ipynb" and not _is_databricks_source(text):
            from delta_lint.frontend.notebook import ipynb_as_source

            source, kind = ipynb_as_source(text) or ("", suffix)  # its cells, at their lines
        read = analyze_lakeflow(display, kind, source, context.pipeline)
        result.intents += read.intents
        result.diagnostics += read.diagnostics
        if not context.scheduled:
            return
        # a job task runs it too: its job code is read as well, but for the datasets' queries
        from delta_lint.frontend.lakeflow import dataset_lines

        pipeline_only = dataset_lines(source)
        code = FileResult(display)
        _dispatch(code, display, suffix, text, replace(context, pipeline=None), memo, budget, job_code=True)
        result.intents += [i for i in code.intents if not any(a <= i.location.line <= b for a, b in pipeline_only)]
        result.diagnostics += [  # (a dataset's "refreshed by a pipeline" note: the pipeline's reading says it)
            d
            for d in code.diagnostics
            if not (d.rule == "DL006" and any(a <= d.location.line <= b for a, b in pipeline_only))
        ]
        result.links = code.links
        return
    if result.skipped is not None:
        return
    session = _session(context, display, memo)
    if suffix == ".ipynb" and not text.strip():
        return  # an empty notebook holds no code
    if suffix == ".ipynb" and _is_databricks_source(text):
        suffix = ".py"  # a notebook exported as source under a Jupyter name: its header says which
    if suffix == ".ipynb":
        from delta_lint.frontend.notebook import parse_ipynb

        try:
            nb = parse_ipynb(text)
        except (json.JSONDecodeError, ValueError) as err:
            line = getattr(err, "lineno", 1)
            result.diagnostics.append(
                Diagnostic(PARSE_ERROR, Location(display, line, 1), f"invalid notebook JSON: {err}", "error")
            )
            return
        _notebook(result, display, nb, session, context, memo, budget)
    elif _is_databricks_source(text):
        from delta_lint.frontend.notebook import parse_databricks_source

        _notebook(result, display, parse_databricks_source(text), session, context, memo, budget)
    elif suffix == ".sql":
        from delta_lint.frontend.sqltext import bind_inputs, sql_inputs

        inputs = sql_inputs(text) if ("{" in text or ":" in text) else []
        if context.inputs:
            from delta_lint.frontend.pyvalues import text_inputs

            text = bind_inputs(text, text_inputs(dict(context.inputs)))
        intents, diags = analyze_sql(text, display, session, memo=memo)
        result.intents += intents
        result.diagnostics += diags
        if inputs or session.non_delta or session.defined or session.unknown_calls or session.located:
            result.links = Links(inputs=inputs, non_delta=sorted(session.non_delta))
            result.links.located = [list(x) for x in session.located]
            _procedure_links(result.links, session)
    else:
        from delta_lint.frontend.python import analyze_module

        intents, diags, links = analyze_module(display, text, session, context=context, memo=memo, budget=budget)
        result.intents += intents
        result.diagnostics += diags
        result.links = links
        _procedure_links(links, session)


_NOTEBOOK_MARK = "Databricks notebook source"  # in both headers `is_databricks_source` accepts


def _is_databricks_source(text: str) -> bool:
    """Whether the text is an exported Databricks notebook; the notebook reader is
    imported only when the first line holds the mark both headers hold."""
    end = text.find("\n")
    if text.find(_NOTEBOOK_MARK, 0, end if end >= 0 else len(text)) < 0:
        return False
    from delta_lint.frontend.notebook import is_databricks_source

    return is_databricks_source(text)


# how the Python reader says the module did not parse (`PythonAnalyzer.run`)
_PYTHON_UNPARSED = ("Python syntax error", "cannot parse Python source")


def _session(context: Context, display: str, memo: FrontEndMemo) -> Session:  # noqa: F821 (imported where a file is read)
    """A file's session at its start: the catalog and schema a `%run` notebook left,
    and the procedures of other files its CALLs run (`Context.procedures`)."""
    from delta_lint.frontend.sql import Session, given_procedures

    session = Session()
    for name, value in context.session:
        if name in ("catalog", "schema") and isinstance(value, str):
            setattr(session, name, value)
    if context.procedures:
        session.procedures = given_procedures(context.procedures, display, memo)
    return session


def _procedure_links(links: Links, session) -> None:  # noqa: ANN001 (sql.Session, imported where a file is read)
    """What a file's SQL gives and needs of procedures across files: those it defines,
    and those it CALLs without a definition of its own: unknown to its reading, or
    given by another file. A given one stays among them: what a file asks of others
    is the same whatever it was given, so the link stage gives it the same again."""
    links.procedures = list(session.defined)
    own = {made[0] for made in session.defined}
    given = {name for name, _ in session.procedures if name not in own}
    links.calls = sorted(set(session.unknown_calls) | given)


def _notebook(
    result: FileResult, display: str, nb, session, context: Context, memo: FrontEndMemo, budget: Budget
) -> None:
    """Read a notebook's cells as one module. When that module does not parse, the
    cells that do not parse on their own are left out (each a DL000 at its line) and
    the rest read again: IPython compiles cells one at a time, so one broken cell
    stops only itself."""
    result.diagnostics += [
        Diagnostic(
            NOT_READ,
            Location(display, line, col),
            f"this {language} cell is not read (delta-lint reads Python and SQL): its writes are not checked",
            "info",
        )
        for line, col, language in nb.unread
    ]
    intents, diagnostics, runs = len(result.intents), len(result.diagnostics), len(result.runs)
    _read_cells(result, display, nb, session, context, memo, budget, frozenset())
    if not any(
        d.rule == PARSE_ERROR and d.message.startswith(_PYTHON_UNPARSED) for d in result.diagnostics[diagnostics:]
    ):
        return  # the module parsed (a DL000 of a SQL cell is that statement's alone)
    broken = nb.broken_python_cells()
    python_cells = sum(1 for cell in nb.cells if cell.lang == "python")
    if not broken or len(broken) >= python_cells:
        return  # no cell parses on its own, or each does: the module's error stands
    del result.intents[intents:], result.diagnostics[diagnostics:], result.runs[runs:]
    _read_cells(
        result, display, nb, _session(context, display, memo), context, memo, budget, frozenset(i for i, *_ in broken)
    )
    result.diagnostics += [
        Diagnostic(
            PARSE_ERROR,
            Location(display, line, col + 1),
            f"Python syntax error: {message} (this cell is not read; the notebook's other cells are)",
            "error",
        )
        for _i, line, col, message in broken
    ]


def _read_cells(
    result: FileResult,
    display: str,
    nb,
    session,
    context: Context,
    memo: FrontEndMemo,
    budget: Budget,
    skip: frozenset[int],
) -> None:
    from delta_lint.frontend.python import analyze_module

    source, where = nb.python_source(skip)
    last = where[max(where)] if where else (1, 0)  # once: asked for every node, it was a scan of every line

    def line_map(line: int, col: int) -> tuple[int, int]:
        fline, offset = where.get(line, last)
        return fline, col + offset

    cells = nb.sql_cells(where)
    sql_inputs_read: set[str] = set()
    if cells:
        from delta_lint.frontend.pyvalues import text_inputs
        from delta_lint.frontend.sqltext import bind_inputs, sql_inputs

        values = text_inputs({**nb.widget_defaults, **dict(context.inputs)})
        for cell in cells:
            sql_inputs_read.update(sql_inputs(cell.text))
            if values:
                cell.text = bind_inputs(cell.text, values)
    intents, diags, links = analyze_module(
        display,
        source,
        session,
        cells,
        line_map,
        context,
        widget_defaults=nb.widget_defaults,
        memo=memo,
        budget=budget,
    )
    result.intents += intents
    result.diagnostics += diags
    result.runs += [(Location(display, line, col), target) for line, col, target in nb.runs]
    links.runs = [target for _, _, target in nb.runs]
    links.inputs = sorted(set(links.inputs) | sql_inputs_read)
    _procedure_links(links, session)
    result.links = links


# Text that may make a notebook's reading give other files, or its jobs, something
# besides its `%run` targets and words: a child notebook run, task values, a job
# written as a dict or made with the SDK (`.jobs.create(...)`), a relative import
# (whose words need not name the module), a project document loaded (which takes
# an `open` and a loader: see `included_links`)
_BETWEEN = r"(?:[\s\\)]|#[^\n]*+)*+\.(?:[\s\\]|#[^\n]*+)*+"  # `.` with spaces, comments, a `)`
_GIVES_MORE = re.compile(
    rf"notebook{_BETWEEN}run\b|taskValues|\btasks\b|\bjobs{_BETWEEN}(?:create|reset|update)\b|\bfrom\s+\."
)
_IMPORT = re.compile(r"\bimport\b")
_OPENS = re.compile(r"\bopen\b")
_LOADS = re.compile(r"\b(?:safe_|full_)?load\b|\bread(?:_text)?\s*\(\s*\)")


def included_links(data: bytes, suffix: str, display: str) -> tuple[Links, frozenset[str]] | None:
    """What a Databricks notebook that `%run`s others gives the link stage before it
    is read, as its reading would give it: its `%run` targets and the words of its
    Python code (`Links.runs`, `Links.names`), nothing else; and the words of its
    import statements, which name every project module it may import. None when its
    text may give more (a child notebook run, task values, a job definition, a
    document it loads: see `_GIVES_MORE`), when it runs no notebook, or when it is
    not read as job code (or its reading will report why not). The link stage
    reads such a notebook once, with its context, when no other file takes
    anything from it (see `run._read_deferred`): its other links, empty here, are
    then given to no one."""
    if suffix not in (".py", ".ipynb") or b"%run" not in data:  # (a notebook's `%run` lines hold the bytes)
        return None
    text, _ = decode(data)
    if not _is_databricks_source(text) or _GIVES_MORE.search(text) or (_OPENS.search(text) and _LOADS.search(text)):
        return None
    from delta_lint.frontend.notebook import parse_databricks_source
    from delta_lint.frontend.recognise import skip_reason

    try:
        if skip_reason(display, suffix, text) is not None:
            return None
        nb = parse_databricks_source(text)
        if not nb.runs:
            return None
        source, _ = nb.python_source(frozenset())
    except Exception:  # noqa: BLE001 - its reading reports what is wrong with it
        return None
    links = Links(runs=[target for _, _, target in nb.runs], names=" ".join(sorted(code_words(source))))
    return links, frozenset(source_words(" ".join(_import_lines(source))))


def _import_lines(source: str) -> list[str]:
    """Every logical line of the source that holds the word `import` (with the lines
    a backslash or an open bracket joins to it): a superset of the text of its
    import statements, whose words name every module they may import."""
    out = []
    covered = 0  # the end of the last line taken: each character is looked at once
    for m in _IMPORT.finditer(source):
        if m.start() < covered:
            continue
        start = max(covered, source.rfind("\n", 0, m.start()) + 1)
        while start > max(covered, 1) and source[start - 2] == "\\":  # the line before goes on into this one
            start = max(covered, source.rfind("\n", 0, start - 2) + 1)
        end, depth = start, 0
        while end < len(source):
            c = source[end]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth = max(0, depth - 1)
            elif c == "\n" and not depth and source[end - 1] != "\\":
                break
            end += 1
        out.append(source[start:end])
        covered = end
    return out


def analyze_path(path: Path, display: str, memo: FrontEndMemo | None = None) -> FileResult:
    """Read and analyse one file; unreadable files become a diagnostic."""
    data = read_file(path, display)
    if isinstance(data, FileResult):
        return data
    return analyze_data(data, path.suffix.lower(), display, memo=memo)


MAX_FILE_BYTES = MAX_INPUT_BYTES  # job files are kilobytes; anything this big is data, not a job


def read_file(path: Path, display: str) -> bytes | FileResult:
    """The file's bytes, or a FileResult holding why it was not read (never any of
    its content): see `safeio.read_input`."""
    try:
        return read_input(path, limit=MAX_FILE_BYTES)
    except InputRefused as err:
        result = FileResult(display)
        if err.size is not None:  # too large: data, not a job
            result.diagnostics.append(Diagnostic(READ_ERROR, Location(display, 1, 1), err.reason, "warning"))
        else:
            result.diagnostics.append(Diagnostic(READ_ERROR, Location(display, 1, 1), f"file not read: {err}", "error"))
        return result


def analyze_data(
    data: bytes, suffix: str, display: str, context: Context | None = None, memo: FrontEndMemo | None = None
) -> FileResult:
    """One file's bytes in, its intents, diagnostics and suppression comments out
    (`memo`: the run's, see `analyze_source`)."""
    text, note = decode(data)
    result = analyze_source(display, suffix, text, context, memo)
    result.suppressions = scan_suppressions(text)
    if note:
        result.diagnostics.insert(0, Diagnostic(READ_ERROR, Location(display, 1, 1), note, "warning"))
    return result
