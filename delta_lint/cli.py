"""The `delta-lint` command: the typer app that declares every command, option and
help text. Heavy modules are imported inside commands so that `--version` and
`--help` stay fast; pyspark is never imported here. `check` itself, and the console
script that runs most `check` command lines without building this app, are in
`delta_lint.console`."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from delta_lint import __version__, console
from delta_lint.console import (
    CheckFormat,
    ColorChoice,
    DurationsFrom,
    FailOn,
    _config,
    _emit,
    _fail,
    _guarded,
    _history_files,
    _spark_config,
    tune_gc,
)

app = typer.Typer(
    name="delta-lint",
    help="Predict Delta Lake write conflicts (ConcurrentAppendException & co.) before they reach production.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain help: rich markup would eat bracketed text such as `[tool.delta-lint]`, and
    # its option table cuts long option names at 80 columns. Click's formatter wraps
    # each paragraph at the terminal's width (up to `max_content_width`).
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 160},
)


class IntentFormat(str, Enum):
    text = "text"
    json = "json"


class RulesFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"delta-lint {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Optional[bool] = typer.Option(
        None, "--version", "-V", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """delta-lint reads SQL, PySpark and notebook job code and reports the write
    conflicts Delta Lake's optimistic concurrency would raise when jobs overlap."""


SPARK_OPTION = typer.Option(
    None,
    "--spark",
    metavar="MODE",
    help="Where table settings come from: auto (snapshot if present, else the embedded engine for local tables), "
    "embedded (in-process Sail engine), local (classic local[1] SparkSession), sc://host:port (Spark Connect), "
    "none (snapshot and declared settings only). Default: `spark:` in the configuration, else auto.",
)
SPARK_TIMEOUT_OPTION = typer.Option(
    None, "--spark-timeout", metavar="SECONDS", help="Give up connecting to Spark after this long (default 30)."
)
REFRESH_OPTION = typer.Option(False, "--refresh", help="Read settings live even when a snapshot exists.")
BUNDLE_OPTION = typer.Option(
    None,
    "--bundle",
    help="Databricks Asset Bundle file (default: `bundle:` in the configuration, else databricks.yml at its root).",
)
TARGET_OPTION = typer.Option(None, "--target", "-t", help="Bundle target to read (default: the bundle's default).")


@app.command()
def check(
    paths: Optional[list[Path]] = typer.Argument(
        None,
        help="Files or directories with job code (.sql, .py, .ipynb, notebooks); default: the current directory. "
        "Inside a project (the folder of delta-lint.yaml or [tool.delta-lint]) the whole project is analysed "
        "and the findings touching PATHS are reported. With --changed: the changed files.",
    ),
    config_file: Optional[Path] = typer.Option(
        None,
        "--config",
        help="Configuration file (default: nearest delta-lint.yaml or pyproject.toml [tool.delta-lint]).",
    ),
    output_format: CheckFormat = typer.Option(
        CheckFormat.text,
        "--format",
        "--output-format",
        metavar="FORMAT",
        help="Output format: text (= full: the statement shown, its line marked), concise (one line per finding), "
        "json, sarif, github, markdown, gitlab (Code Quality), junit (XML) or json-lines (one finding per line).",
    ),
    output: Optional[Path] = typer.Option(
        None, "--output", "-o", help="Write the report to this file instead of standard output."
    ),
    fail_on: FailOn = typer.Option(FailOn.warning, "--fail-on", help="Lowest severity that makes the exit code 1."),
    select: Optional[list[str]] = typer.Option(None, "--select", help="Only these rule ids or prefixes (repeatable)."),
    ignore: Optional[list[str]] = typer.Option(None, "--ignore", help="Skip these rule ids or prefixes (repeatable)."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when findings are reported."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Text format: findings only, no summary line."),
    show_statistics: bool = typer.Option(
        False, "--statistics", help="Print the number of findings per rule instead of the findings."
    ),
    changed: bool = typer.Option(
        False,
        "--changed",
        help="PATHS are changed files: analyse the whole project, report only findings with a location in them.",
    ),
    diff_base: Optional[str] = typer.Option(
        None,
        "--diff-base",
        metavar="REF",
        help="Report only findings with a location in files changed since the merge base with REF (git).",
    ),
    baseline: Optional[Path] = typer.Option(
        None, "--baseline", help="Report only findings that are not in this baseline file."
    ),
    write_baseline: Optional[Path] = typer.Option(
        None, "--write-baseline", help="Record today's findings in this file (then exit 0)."
    ),
    bundle: Optional[Path] = BUNDLE_OPTION,
    target: Optional[str] = TARGET_OPTION,
    spark: Optional[str] = SPARK_OPTION,
    spark_timeout: Optional[float] = SPARK_TIMEOUT_OPTION,
    refresh: bool = REFRESH_OPTION,
    no_cache: bool = typer.Option(
        False, "--no-cache", help="Do not read or write the cache (in the user cache folder; see DELTA_LINT_CACHE_DIR)."
    ),
    jobs: int = typer.Option(
        0,
        "--jobs",
        "-j",
        help="Processes for the front ends, for runs of 64 files or more (0 = one per MiB of source to read "
        "after the cache, up to the cores: a small project stays in one process).",
    ),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks of internal errors."),
    strict: bool = typer.Option(
        False, "--strict", help="Coverage gaps (DL000-DL008: statements or files not analysed) fail the gate too."
    ),
    show_files: bool = typer.Option(
        False, "--show-files", help="List every file: analysed (with its intents) or skipped, and why; then exit."
    ),
    color: ColorChoice = typer.Option(
        ColorChoice.auto,
        "--color",
        help="Colour in text output: auto (on a terminal; NO_COLOR turns it off, FORCE_COLOR or CLICOLOR_FORCE "
        "on), always or never.",
    ),
    stdin_filename: Optional[Path] = typer.Option(
        None,
        "--stdin-filename",
        metavar="PATH",
        help="Read the content of PATH from standard input (an editor's unsaved buffer; give `-` as the path): "
        "the project around PATH is analysed with the buffer in place of the file, the findings touching PATH "
        "are reported.",
    ),
    show_stats: bool = typer.Option(
        False,
        "--show-stats",
        help="After the findings, print on standard error what the run did: files read, analysed and taken "
        "from the cache, statements parsed, and the engine's work (schedule questions, verdicts, ...).",
    ),
    durations_from: DurationsFrom = typer.Option(
        DurationsFrom.config,
        "--durations-from",
        help="Expected run times of cron jobs: config (`duration:`, default) or history (each job's longest run "
        "in --history-file, from its cron time to its last commit; see `delta-lint history`).",
    ),
    history_file: Optional[list[str]] = typer.Option(
        None,
        "--history-file",
        metavar="[TABLE=]FILE",
        help="With --durations-from history: exported DESCRIBE HISTORY rows (JSON lines). Repeatable.",
    ),
    show_settings: bool = typer.Option(
        False,
        "--show-settings",
        help="Print the effective configuration, each value with where it came from (file, command line, default); "
        "then exit. Text, or --format json.",
    ),
) -> None:
    """Report every predicted write conflict between jobs that can run at the same time.

    Conflicts are between files: checking one file (or folder) of a project analyses
    the whole project (the configuration's folder) and reports the findings with a
    location in it. Files that are not Databricks job code (T-SQL, PostgreSQL, dbt,
    Lakeflow pipelines, apps, tests) are skipped and counted in the summary.

    Exit codes: 0 no predicted conflict at or above --fail-on, 1 predicted
    conflicts (coverage gaps too with --fail-on info or --strict), 2 usage,
    configuration or internal error.

    \b
    Examples:
      delta-lint check                              this folder's project
      delta-lint check jobs/nightly.py              findings touching one file
      delta-lint check --diff-base origin/main      touching a branch's changes
      delta-lint check --changed FILE...            as a pre-commit hook
      delta-lint check --format sarif -o out.sarif  for code scanning
      delta-lint check --select DL1 --ignore DL104  some rules only
    """
    console.check(
        paths=paths,
        config_file=config_file,
        output_format=output_format,
        output=output,
        fail_on=fail_on,
        select=select,
        ignore=ignore,
        exit_zero=exit_zero,
        quiet=quiet,
        show_statistics=show_statistics,
        changed=changed,
        diff_base=diff_base,
        baseline=baseline,
        write_baseline=write_baseline,
        bundle=bundle,
        target=target,
        spark=spark,
        spark_timeout=spark_timeout,
        refresh=refresh,
        no_cache=no_cache,
        jobs=jobs,
        debug=debug,
        strict=strict,
        show_files=show_files,
        color=color,
        stdin_filename=stdin_filename,
        show_stats=show_stats,
        durations_from=durations_from,
        history_file=history_file,
        show_settings=show_settings,
    )


@app.command()
def tables(
    paths: Optional[list[str]] = typer.Argument(
        None,
        help="Files or directories with job code (default: the current directory). "
        "`delta-lint tables snapshot [PATHS]` writes the snapshot instead.",
    ),
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file."),
    output_format: IntentFormat = typer.Option(IntentFormat.text, "--format", help="Output format."),
    bundle: Optional[Path] = BUNDLE_OPTION,
    target: Optional[str] = TARGET_OPTION,
    spark: Optional[str] = SPARK_OPTION,
    spark_timeout: Optional[float] = SPARK_TIMEOUT_OPTION,
    refresh: bool = REFRESH_OPTION,
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks of internal errors."),
) -> None:
    """List every table the jobs write or stream from, with its settings and their source.

    Sources are live, snapshot, declared, ddl or assumed; the last column says whether
    row-level concurrency applies under the configured runtime.

    `delta-lint tables snapshot [PATHS]` reads the settings live and writes them to the
    snapshot file (`snapshot:` in the configuration, default delta-lint.lock.yaml), which
    `check` then uses without Spark. Tables that cannot be read keep their old entry.
    """
    from delta_lint import report
    from delta_lint.engine.judgement import Judge
    from delta_lint.rulepack import load
    from delta_lint.run import check as run_check

    args = list(paths or [])
    snapshot = bool(args) and args[0] == "snapshot"
    if snapshot:
        args = args[1:]
    targets = [Path(p) for p in args] or [Path(".")]
    config = _spark_config(_config(config_file, targets), spark, spark_timeout)
    if snapshot and config.spark == "none":
        _fail("`tables snapshot` reads the tables live: use --spark embedded, local or sc://host:port")
    result = _guarded(
        lambda: run_check(targets, config, refresh=refresh or snapshot, bundle=bundle, target=target, use_cache=False),
        debug,
    )
    if snapshot:
        _write_snapshot(result, config)
        return
    for note in result.notes:
        if note.startswith("judged "):
            typer.echo(f"note: {note}", err=True)
    pack = load()
    rows = report.table_rows(result, Judge(config, pack, pack.profile(config.runtime)).table_row_level)
    mode = result.read.mode if result.read else "none"
    render = report.tables_json if output_format == IntentFormat.json else report.tables_text
    sys.stdout.write(render(rows, config.runtime, mode))


def _write_snapshot(result, config) -> None:
    from delta_lint.settings.snapshot import load_snapshot, write_snapshot

    read = result.read
    if read.mode in ("none", "snapshot"):
        _fail(
            "`tables snapshot` found nothing to read live (no table has a local location or `locations:` entry); "
            "use --spark embedded, local or sc://host:port"
        )
    live = {name: read.tables[name] for name, source in read.sources.items() if source == "live"}
    old = load_snapshot(config.snapshot_path, config.root)
    kept = []
    if old is not None:
        for name in sorted(set(result.settings) - set(live)):
            if name in old.tables:
                live[name] = old.tables[name]
                kept.append(name)
    write_snapshot(config.snapshot_path, live, read.mode)
    for name, why in sorted(read.problems.items()):
        typer.echo(f"delta-lint: warning: `{name}` not read: {why}", err=True)
    typer.echo(
        f"wrote {config.snapshot_path} with {len(live)} tables via {read.mode}"
        + (f" ({len(kept)} kept from the previous snapshot: {', '.join(kept)})" if kept else ""),
        err=True,
    )


class ReportFormat(str, Enum):
    """The formats of the reports that are read by people and by pull-request
    comments (`advise`, `history`)."""

    text = "text"
    json = "json"
    markdown = "markdown"


@app.command()
def history(
    paths: Optional[list[Path]] = typer.Argument(
        None, help="Files or directories with job code, as for `check` (default: the current directory)."
    ),
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file."),
    history_file: Optional[list[str]] = typer.Option(
        None,
        "--history-file",
        metavar="[TABLE=]FILE",
        help="Exported history (JSON lines of DESCRIBE HISTORY rows; a `table` key per row, or TABLE= before the "
        "file). Repeatable. Tables it covers are not read live.",
    ),
    since: Optional[str] = typer.Option(None, "--since", help="Only commits of the last 30d, 12h, 2w, ..."),
    output_format: ReportFormat = typer.Option(ReportFormat.text, "--format", help="text, json or markdown."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to this file."),
    bundle: Optional[Path] = BUNDLE_OPTION,
    target: Optional[str] = TARGET_OPTION,
    spark: Optional[str] = SPARK_OPTION,
    spark_timeout: Optional[float] = SPARK_TIMEOUT_OPTION,
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks of internal errors."),
) -> None:
    """What really ran: each target table's commit history against the schedule.

    A commit whose readVersion is older than the version before it ran concurrently
    with the commits in between. Lists those pairs of writers (by job, else by
    operation and userMetadata), says which the schedule claims cannot meet, whether
    predicted conflicts were seen overlapping without failing, and each job's run
    windows. History comes from --history-file, else the tables' logs (local
    locations) or DESCRIBE HISTORY (--spark local, sc://...). Read-only.

    Exit codes: 0 the schedule agrees with history, 1 overlaps the schedule says
    cannot happen, 2 usage or input error.
    """
    from delta_lint import history_match
    from delta_lint.history import HistoryError, parse_since

    given = list(paths or [])
    config = _spark_config(_config(config_file, given or [Path(".")]), spark, spark_timeout)
    analysed = [config.root] if config.path is not None else (given or [Path(".")])
    files = _history_files(history_file, config)
    try:
        window = parse_since(since) if since is not None else None
    except HistoryError as err:
        _fail(str(err))
    tune_gc()

    found = _guarded(
        lambda: history_match.history_report(analysed, config, files, window, bundle=bundle, target=target), debug
    )
    from delta_lint.report import clean

    for line in found.diagnostics:
        typer.echo(f"delta-lint: warning: {clean(line)}", err=True)
    render = {"json": history_match.to_json, "markdown": history_match.markdown}.get(
        output_format.value, history_match.text
    )
    _emit(render(found), output)
    raise typer.Exit(1 if found.contradictions else 0)


@app.command()
def schedule(
    paths: Optional[list[Path]] = typer.Argument(None, help="Files or directories with job code (default: .)."),
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file."),
    bundle: Optional[Path] = BUNDLE_OPTION,
    target: Optional[str] = TARGET_OPTION,
    output_format: IntentFormat = typer.Option(IntentFormat.text, "--format", help="text or json."),
    full: bool = typer.Option(
        False, "--all", help="List every pair of jobs, tasks and files (default: a summary that stays short)."
    ),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks of internal errors."),
) -> None:
    """Print the overlap graph: which jobs and tasks may run at the same time, and why.

    Reasons cover DAG order, concurrent runs, for_each concurrency, cron windows and triggers.
    """
    from delta_lint import report
    from delta_lint.run import overlap_schedule

    targets = list(paths or []) or [Path(".")]
    config = _config(config_file, targets)

    def build():
        return overlap_schedule(targets, config, bundle, target)

    sched = _guarded(build, debug)
    if output_format == IntentFormat.json:
        chunks = report.schedule_json_chunks(sched, full)
    else:
        chunks = (line + "\n" for line in report.schedule_lines(sched, full))
    for chunk in chunks:  # written as made: `--all` on a large tree is long, never held whole
        sys.stdout.write(chunk)


@app.command()
def intents(
    paths: list[Path] = typer.Argument(..., help="Files or directories with job code."),
    output_format: IntentFormat = typer.Option(IntentFormat.text, "--format", help="Output format."),
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file (for `exclude`)."),
    target: Optional[str] = TARGET_OPTION,
) -> None:
    """Print every write intent (and streaming read) the front ends understood.

    Text lines read `path:line:col  table  kind  predicate  flags`. The bundle target
    whose variables name the tables is said on stderr (`note: judged ...`).
    """
    from dataclasses import replace

    from delta_lint import report
    from delta_lint.run import analyze

    config = _config(config_file, paths)
    if target is not None:  # `analyze` reads the schedule of the configuration: --target is its `target:`
        config = replace(config, target=target)
    results, diagnostics, _ = analyze(paths, config)
    judged = _judged_target(config, chosen=target is not None)
    if judged:
        typer.echo(f"note: {judged}", err=True)
    all_intents = [i for r in results for i in r.intents]
    sys.stdout.write(
        report.intents_json(all_intents) if output_format == IntentFormat.json else report.intents_text(all_intents)
    )
    for d in diagnostics + [d for r in results for d in r.diagnostics]:
        typer.echo(f"{d.location}: {d.rule} {d.message}", err=True)


def _judged_target(config, chosen: bool) -> str:
    """`judged <bundle>: target <name> (<why>)` for the run's bundle, or "" without
    one. Read through the cache `analyze` just filled, so the bundle is not parsed
    twice. A broken bundle says nothing here (`check` reports it at its line) unless
    a target was `chosen` with --target: one the bundle lacks is a usage error, as
    in `check`."""
    from delta_lint.cache import Cache
    from delta_lint.config import ConfigError
    from delta_lint.schedule import load_workflows

    store = Cache(config.root)
    try:
        target = load_workflows(config, store=store).target
    except ConfigError as err:
        if chosen:
            _fail(str(err))
        return ""
    finally:
        store.close()
    return f"judged {target}" if target else ""


@app.command()
def advise(
    paths: Optional[list[Path]] = typer.Argument(
        None, help="Files or directories with job code; default: the project of the current directory."
    ),
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file."),
    output_format: ReportFormat = typer.Option(
        ReportFormat.text, "--format", help="text, json, or markdown (for a pull-request comment)."
    ),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the advice to this file."),
    top: int = typer.Option(10, "--top", min=0, help="Show the best N changes (0: every useful one)."),
    budget: int = typer.Option(0, "--budget", min=0, help="Also plan up to N changes together (greedy)."),
    diff: bool = typer.Option(False, "--diff", help="Show file edits as unified diffs."),
    apply: bool = typer.Option(
        False,
        "--apply",
        help="Write the file edits of the plan (--budget) or of the best change: code, bundle YAML, configuration; "
        "never tables.",
    ),
    bundle: Optional[Path] = BUNDLE_OPTION,
    target: Optional[str] = TARGET_OPTION,
    spark: Optional[str] = SPARK_OPTION,
    spark_timeout: Optional[float] = SPARK_TIMEOUT_OPTION,
    refresh: bool = REFRESH_OPTION,
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks of internal errors."),
) -> None:
    """Which changes remove the most predicted conflicts: table settings, target
    conditions and the schedule, each judged again by the engine and ranked by the
    conflicts it removes (errors first), with the findings it adds.

    Files are edited only with --apply; tables never (their ALTER TABLE is printed).
    """
    from delta_lint import advise_report
    from delta_lint.advise import EditError, advise_paths, apply_changes

    given = list(paths or [])
    config = _spark_config(_config(config_file, given or [Path(".")]), spark, spark_timeout)
    analysed = [config.root] if config.path is not None else (given or [Path(".")])
    tune_gc()
    advisor, advice = _guarded(
        lambda: advise_paths(analysed, config, budget, top, bundle=bundle, target=target, refresh=refresh), debug
    )
    shown = advice.ranked + advice.plan
    originals = advisor.originals(shown)
    if output_format == ReportFormat.json:
        text = advise_report.to_json(advice, originals)
    elif output_format == ReportFormat.markdown:
        text = advise_report.markdown(advice, originals)
    else:
        text = advise_report.text(advice, originals, diff)
    _emit(text, output)
    if apply:
        chosen = advice.plan or advice.ranked[:1]
        try:
            written = apply_changes(advisor, chosen)
        except (EditError, OSError) as err:
            _fail(f"--apply: {err}")
        for path in written:
            typer.echo(f"delta-lint: edited {path}", err=True)
        for change in chosen:
            if change.statement:
                typer.echo(f"delta-lint: not applied (a table setting; run it yourself): {change.statement}", err=True)


@app.command()
def rules(
    output_format: RulesFormat = typer.Option(
        RulesFormat.text, "--format", help="text, json (every rule's texts), or markdown (the README's rule table)."
    ),
) -> None:
    """List every rule: id, name, severity and the exception it predicts."""
    from delta_lint.rulepack import load

    pack = load()
    if output_format == RulesFormat.markdown:
        from delta_lint.report import rules_markdown

        sys.stdout.write(rules_markdown(pack))
        return
    if output_format == RulesFormat.json:
        from delta_lint.report import rules_json

        sys.stdout.write(rules_json(pack))
        return
    for rule in pack.rules.values():
        exc = rule.exception or "-"
        typer.echo(f"{rule.id}  {rule.name:<45} {rule.severity:<8} {exc}")


@app.command()
def explain(rule_id: str = typer.Argument(..., help="A rule id such as DL101.")) -> None:
    """What a rule detects, why it fails in production, an example, what to write
    instead and the documentation section it follows."""
    from delta_lint.rulepack import explain_text, load

    rule = load().rules.get(rule_id.upper())
    if rule is None:
        _fail(f"unknown rule `{rule_id}` (see `delta-lint rules`)")
    typer.echo(explain_text(rule), nl=False)


@app.command()
def reproduce(
    finding: str = typer.Argument(
        ...,
        help="A finding's fingerprint (partialFingerprints of --format sarif, or a baseline entry; a prefix of "
        "8 characters or more will do) or its path:line.",
    ),
    paths: Optional[list[Path]] = typer.Argument(
        None, help="Job code, as for `check` (default: the current directory)."
    ),
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file, as for `check`."),
    with_write: Optional[str] = typer.Option(
        None, "--with", metavar="PATH:LINE", help="Pair FINDING (then a write's path:line) with this write instead."
    ),
    spark: Optional[str] = SPARK_OPTION,
    spark_timeout: Optional[float] = SPARK_TIMEOUT_OPTION,
) -> None:
    """Run a finding's two writes on scratch tables of real open-source Delta (a local JVM,
    jars from `install-delta`) with the race forced, and say whether it conflicted.

    The scratch tables get the table's settings and a few sample rows in a temporary
    folder; your tables are never opened for writing. Exit 1 when it reproduced,
    0 when it did not conflict here, 2 when it cannot run."""
    from delta_lint.interleave import start_session
    from delta_lint.reproduce import CannotReproduce, locate, pair_of
    from delta_lint.reproduce import run as run_pair
    from delta_lint.run import check as run_check
    from delta_lint.settings.jars import JarsUnavailable

    given = list(paths or [])
    config = _spark_config(_config(config_file, given or [Path(".")]), spark, spark_timeout)
    if config.spark.startswith("sc://") and spark is not None:
        _fail(
            "reproduce forces the race with Delta's transaction observer inside the JVM, which a Spark Connect "
            "client cannot reach: it runs on local open-source Delta only (drop --spark)"
        )
    result = _guarded(lambda: run_check(given or [Path(".")], config, use_cache=False), False)
    intents = [i for f in result.files for i in f.intents]
    try:
        if with_write:
            a, b = pair_of(intents, finding, with_write)
            same = [f for f in result.findings if {f.location, *f.related[:1]} == {a.location, b.location}]
            label = f"{a.location} with {b.location}: " + (
                f"delta-lint predicts {same[0].rule} {same[0].exception}" if same else "delta-lint predicts no conflict"
            )
        else:
            found, a, b = locate(result.findings, intents, finding)
            label = f"{found.location} {found.rule} {found.exception or ''}".strip()
    except CannotReproduce as err:
        _fail(str(err))
    try:
        session = start_session(app="delta-lint-reproduce")
    except JarsUnavailable as err:
        _fail(str(err))
    try:
        report = run_pair(session, label, a, b, result.settings[a.table.name])
    except CannotReproduce as err:
        _fail(str(err))
    finally:
        session.stop()
    typer.echo(report.text(), nl=False)
    raise typer.Exit(1 if report.reproduced else 0)


@app.command("install-delta")
def install_delta() -> None:
    """Fetch open-source Delta Lake's Spark jars once (Maven Central, checksummed) into
    the cache; later runs are offline. Needed by --spark local with Delta and `reproduce`."""
    from delta_lint.settings.jars import main as install_jars

    raise typer.Exit(install_jars())


@app.command()
def server() -> None:
    """Run the Language Server for editors (LSP over standard input and output).

    On opening and saving a file it checks the file's project with the editor's
    buffer in place of the file and publishes the findings touching the file;
    closing the file clears them. Needs `delta-lint[server]` (pygls)."""
    try:
        from delta_lint.server import main as serve
    except ImportError as err:
        _fail(f"`delta-lint server` needs pygls: install `delta-lint[server]` ({err})")
    tune_gc()  # the server keeps a project's decoded state: a full collection would walk all of it
    raise typer.Exit(serve())


def run() -> None:
    """The typer app as a console-script command (`console.finish`); the console
    script itself is `delta_lint.__main__.main`, which runs most `check` command
    lines without building this app."""
    console.finish(app)
