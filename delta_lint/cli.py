"""The `delta-lint` command. Heavy modules are imported inside commands so that
`--version` and `--help` stay fast; pyspark is never imported here."""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from delta_lint import __version__

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


class CheckFormat(str, Enum):
    text = "text"  # the `full` form
    full = "full"
    concise = "concise"
    json = "json"
    sarif = "sarif"
    github = "github"
    markdown = "markdown"
    gitlab = "gitlab"
    junit = "junit"
    json_lines = "json-lines"


class IntentFormat(str, Enum):
    text = "text"
    json = "json"


class RulesFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


class ColorChoice(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"
    info = "info"


class DurationsFrom(str, Enum):
    config = "config"
    history = "history"


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


def tune_gc() -> None:
    """A run allocates millions of small objects that live to its end (syntax trees,
    intents, pairs); with CPython's default thresholds the cyclic collector walks
    them again and again (a tenth of a large run). Collections stay on, just rarer:
    sqlglot trees hold cycles that must still be freed, and they die young (the
    first generation frees them); what survives it mostly lives to the end, so the
    middle generation is walked seldom."""
    import gc

    gc.set_threshold(50_000, 100, 100)


def _fail(message: str) -> None:
    from delta_lint.report import clean

    typer.echo(f"delta-lint: error: {clean(message)}", err=True)
    raise typer.Exit(2)


def _config(config_file: Optional[Path], paths: Optional[list[Path]] = None):
    """The run's configuration; `paths` (the checked ones) keep the project root where
    they are when `config_file` lies outside them (see `config.load_config`)."""
    from delta_lint.config import ConfigError, load_config

    for path in paths or ():
        _usable(Path(path))
    try:
        return load_config(config_file, near=paths)
    except ConfigError as err:
        _fail(str(err))


def _usable(path: Path) -> None:
    """Refuse a path the system cannot look up (a name over 255 bytes, a path over
    4,096, a folder that is a file) with a message, never a traceback. A path that
    does not exist is left to the stage that reads it."""
    import errno
    import os

    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as err:
        if err.errno in (errno.ENOENT, errno.ENOTDIR):
            return
        _fail(f"{path}: {err.strerror or err}")
    except ValueError as err:  # a NUL byte
        _fail(f"{path}: {err}")


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


def _spark_config(config, spark: Optional[str], timeout: Optional[float]):
    from dataclasses import replace

    from delta_lint.config import spark_mode_problem

    if spark is not None:
        problem = spark_mode_problem(spark)
        if problem:
            _fail(f"--spark {problem}")
        config = replace(config, spark=spark)
    if timeout is not None:
        if not 0 < timeout <= 86_400:  # also refuses nan and inf, as the configuration does
            _fail(f"--spark-timeout must be a number of seconds between 0 and 86400, not {timeout}")
        config = replace(config, spark_timeout=timeout)
    return config


def _guarded(fn, debug: bool):
    """Run a pipeline step: Spark and snapshot problems become one line and exit 2,
    internal errors too (with the traceback under --debug); warnings go to stderr."""
    from delta_lint.config import ConfigError

    try:
        result = fn()
    except Exception as err:  # noqa: BLE001 - users get one line, --debug gets the traceback
        if debug:
            raise
        # imported only now: a run that reads no settings live never needs the Spark module
        from delta_lint.settings.spark import SparkUnavailable

        if isinstance(err, (SparkUnavailable, ConfigError)):
            _fail(str(err))
        _fail(f"internal error: {type(err).__name__}: {err} (run with --debug and report it)")
    read, output = getattr(result, "read", None), getattr(result, "output", None)
    for warning in read.warnings if read is not None else output[2] if output is not None else []:
        from delta_lint.report import clean

        typer.echo(f"delta-lint: warning: {clean(warning)}", err=True)
    return result


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
        0, "--jobs", "-j", help="Processes for the front ends (0 = all cores; small runs stay in one process)."
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
    from dataclasses import replace

    from delta_lint.findings import Gate, finish
    from delta_lint.run import pipeline

    if changed and diff_base:
        _fail("--changed and --diff-base are alternatives; give one")
    if show_statistics and output_format not in (CheckFormat.text, CheckFormat.full, CheckFormat.json):
        _fail(f"--statistics prints text or json, not --format {output_format.value}")
    given = list(paths or [])
    buffers = _stdin_buffer(given, stdin_filename)
    if buffers:
        given = list(buffers)
    config = _spark_config(_config(config_file, given or [Path(".")]), spark, spark_timeout)
    analysed = [config.root] if changed else (given or [Path(".")])
    from delta_lint.rulepack import selector_problem

    for option, values in (("--select", select), ("--ignore", ignore)):
        for value in values or ():
            if problem := selector_problem(value):
                _fail(f"{option}: {problem}")
    scope = None
    if not (changed or diff_base) and config.path is not None:
        from delta_lint.changed import project_scope

        # PATHS inside a project: analyse the project, report what touches PATHS
        scope = project_scope(analysed, config.root)
        if scope is not None:
            analysed = [*analysed, config.root]
    if durations_from == DurationsFrom.history or history_file:
        config = _durations_from_history(config, durations_from, history_file, bundle, target, debug)
    if select:
        config = replace(config, select=tuple(select))
    if ignore:
        config = replace(config, ignore=tuple(config.ignore) + tuple(ignore))
    if show_settings:
        overrides = {
            key: value
            for key, value in (
                ("select", config.select if select else None),
                ("ignore", config.ignore if ignore else None),
                ("spark", spark),
                ("spark_timeout", spark_timeout),
                ("bundle", bundle),
                ("target", target),
                ("strict", True if strict else None),
            )
            if value is not None
        }
        _emit(_settings_report(config, overrides, output_format == CheckFormat.json), output)
        raise typer.Exit(0)
    tune_gc()
    # The output of a run whose inputs and options equal an earlier run's is the
    # earlier output: kept per view (everything besides the run that shapes it),
    # unless the gate needs something outside the run (a baseline, changed files).
    view = None
    if not (no_cache or show_files or write_baseline or baseline or changed or diff_base or show_stats):
        view = _view(output_format, quiet, show_statistics, color.value, fail_on, strict, exit_zero, scope)
    with _progress(color.value) as progress:
        result = _guarded(
            lambda: pipeline(
                analysed,
                config,
                refresh=refresh,
                on_file=progress.update if progress.enabled else None,
                on_stage=progress.stage if progress.enabled else None,
                bundle=bundle,
                target=target,
                use_cache=not no_cache,
                jobs=jobs,
                overlay=buffers,
                view=view,
            ),
            debug,
        )
    if result.output is not None:
        _emit(result.output[0], output)
        raise typer.Exit(result.output[1])
    if show_files:
        from delta_lint import report

        _emit(report.files_list(result.analysed, result.skipped), output)
        raise typer.Exit(0)
    gate = Gate.of(
        config,
        fail_on=fail_on.value,
        strict=strict or config.strict,
        exit_zero=exit_zero,
        shared=frozenset({config.snapshot_path, *([config.path] if config.path else []), *result.schedule_files}),
        scope=tuple(scope) if scope is not None else None,
    )
    if write_baseline is not None:
        from delta_lint.baseline import write_baseline as write

        count = write(write_baseline, finish(result.findings, result.suppressions, gate).findings)
        typer.echo(f"delta-lint: wrote {count} findings to the baseline {write_baseline}", err=True)
        raise typer.Exit(0)
    if baseline is not None:
        from delta_lint.baseline import load_baseline

        gate = replace(gate, baseline=_guarded(lambda: load_baseline(baseline), debug))
    if changed or diff_base:
        from delta_lint.changed import git_changed

        changed_files = (
            {p.resolve() for p in given} if changed else _guarded(lambda: git_changed(diff_base, Path.cwd()), debug)
        )
        gate = replace(gate, changed=frozenset(changed_files))
    # JSON and JSON lines: the output kept per finding, patched after a re-check
    patchable = view is not None and output_format.value in ("json", "json-lines") and not show_statistics
    if result.patch is not None:  # a re-check from the kept state: the last output patched
        from delta_lint.run import patch_output

        patched = patch_output(config, result, view, gate, output_format.value) if patchable else None  # type: ignore[arg-type]
        if patched is not None:
            _emit(patched[0], output)
            raise typer.Exit(patched[1])
        findings, suppressions, tables, others = result.patch.complete()
        result = replace(result, findings=findings, suppressions=suppressions, tables=tables, others=others, patch=None)
    outcome = finish(result.findings, result.suppressions, gate)
    text = _render(output_format, outcome.findings, result, quiet, show_statistics, buffers, color.value)
    _emit(text, output)
    if view is not None and result.run_key is not None:
        from delta_lint.run import keep_output

        index = None
        if patchable and result.tables is not None and result.others is not None:
            from delta_lint.patch import LAYOUTS, build_index

            tables, others, suppressions = result.tables, result.others, result.suppressions
            layout = LAYOUTS[output_format.value]
            index = build_index(result.run_key, text, outcome.findings, tables, others, suppressions, gate, layout)
        keep_output(config, result, view, text, outcome.exit_code, index)
    if show_stats:
        sys.stdout.flush()
        typer.echo(result.stats.text(), err=True, nl=False)
    raise typer.Exit(outcome.exit_code)


def _view(output_format, quiet, show_statistics, color, fail_on, strict, exit_zero, scope) -> str:
    """A digest of what shapes `check`'s output besides the run: the format and its
    options, the gate's options, and the terminal (colour, width, working folder)."""
    import hashlib

    from delta_lint.report import use_color

    shape = (
        output_format.value,
        quiet,
        show_statistics,
        use_color(choice=color),
        _width(),
        fail_on.value,
        strict,
        exit_zero,
        sorted(str(p) for p in scope) if scope is not None else None,
        os.getcwd(),
    )
    return hashlib.blake2b(repr(shape).encode(errors="surrogateescape"), digest_size=20).hexdigest()


def _stdin_buffer(given: list[Path], stdin_filename: Optional[Path]) -> dict[Path, bytes]:
    """`check --stdin-filename PATH -`: PATH -> the bytes of standard input (ruff's form)."""
    dash = [p for p in given if str(p) == "-"]
    if stdin_filename is None:
        if dash:
            _fail("`-` reads standard input and needs --stdin-filename PATH (the file it stands for)")
        return {}
    if len(given) != len(dash):
        _fail("--stdin-filename checks one buffer: give `-` (or nothing) as PATHS")
    if stdin_filename.is_dir():
        _fail(f"--stdin-filename {stdin_filename}: a folder, not a file")
    from delta_lint.frontend import MAX_FILE_BYTES

    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        _fail(f"--stdin-filename {stdin_filename}: standard input is larger than {MAX_FILE_BYTES:,} bytes")
    return {stdin_filename: data}


def _render(
    output_format: CheckFormat,
    findings,
    result,
    quiet: bool,
    show_statistics: bool,
    buffers=None,
    color: str = "auto",
) -> str:
    from delta_lint import report

    if show_statistics:
        findings = [report.clean_finding(f) for f in findings]
        return report.statistics_json(findings) if output_format == CheckFormat.json else report.statistics(findings)
    full = output_format in (CheckFormat.text, CheckFormat.full)
    return report.render(
        output_format.value,
        report.Report(
            findings,
            result.n_files,
            result.n_intents,
            result.skipped,
            quiet=quiet,
            color=report.use_color(choice=color),
            width=_width(),
            source=_source_lines(Path.cwd(), set(result.analysed), buffers or {}) if full else None,
            notes=tuple(result.notes),
        ),
    )


def _settings_report(config, overrides: dict, as_json: bool) -> str:
    import json

    from delta_lint.config import settings_sources

    rows = settings_sources(config, overrides)
    if as_json:
        doc = {"version": 1, "settings": [{"key": k, "value": v, "source": src} for k, v, src in rows]}
        return json.dumps(doc, indent=2) + "\n"
    width = max(len(k) for k, _, _ in rows)
    return "".join(f"{k:<{width}} = {json.dumps(v)}  # {src}\n" for k, v, src in rows)


def _width() -> int | None:
    """Wrap findings to the terminal's width, or to COLUMNS when set; output to a
    pipe or file keeps one line per message, for grep."""
    import shutil

    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit():
        return shutil.get_terminal_size((120, 24)).columns
    return None


def _source_lines(cwd: Path, analysed: set[str], buffers: dict[Path, bytes]):
    """A reader of the files findings name (display paths), each read once: only
    files the run analysed (never a link leading out of the project, a pipe or a
    file it refused); None for a notebook file (its JSON lines are not the code's).
    A buffer read from standard input is shown instead of its file."""
    import stat
    from functools import lru_cache

    shown = {os.path.abspath(p): data for p, data in buffers.items()}

    @lru_cache(maxsize=256)
    def lines(path: str) -> list[str] | None:
        file = cwd / path
        if path not in analysed or file.suffix.lower() == ".ipynb":
            return None
        if os.path.abspath(file) in shown:
            return shown[os.path.abspath(file)].decode("utf-8", errors="replace").splitlines()
        try:
            info = file.stat()
            # only regular files: a finding may name a pipe or a device (DL003), never read
            if not stat.S_ISREG(info.st_mode) or info.st_size > 10_000_000:
                return None
            return file.read_text(encoding="utf-8", errors="replace").splitlines()
        except (OSError, ValueError):
            return None

    return lines


def _emit(text: str, output: Optional[Path]) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    from delta_lint.atomic import write_atomic

    try:
        write_atomic(output, text)
    except OSError as err:
        _fail(f"--output {output}: {err.strerror or err}")


class _progress:
    """Progress on stderr, only on a terminal and only once a run has taken about a
    second (short runs stay silent, like ruff): a bar while files are analysed, then
    what the run waits for (an engine starting, table settings being read)."""

    DELAY = 1.0

    def __init__(self, color: str = "auto") -> None:
        self.color = color

    def __enter__(self) -> _progress:
        import threading
        import time

        self.start = time.monotonic()
        # the delay can be set (seconds) so a test sees the bar whatever the machine's speed
        try:
            self.delay = float(os.environ.get("DELTA_LINT_PROGRESS_DELAY", self.DELAY))
        except ValueError:
            self.delay = self.DELAY
        self.bar = None
        self.files = None
        self.waiting = None
        self.timer: threading.Timer | None = None
        self.generation = 0
        self.lock = threading.Lock()
        self.enabled = sys.stderr.isatty() and "CI" not in os.environ
        return self

    def _show(self) -> None:
        """Start the display (callers hold the lock)."""
        if self.bar is not None:
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True, no_color=self.color == "never" or None, force_terminal=True),
            transient=True,
        )
        self.bar.start()

    def update(self, done: int, total: int) -> None:
        import time

        with self.lock:
            if self.bar is None:
                if time.monotonic() - self.start < self.delay or done >= total:
                    return
                self._show()
            if self.files is None:
                self.files = self.bar.add_task("checking", total=total, counts="")
            self.bar.update(self.files, completed=done, counts=f"{done}/{total}")

    def stage(self, text: str | None) -> None:
        """What the run waits for now (None: done waiting). Shown once the run has
        taken the delay, with an elapsed time that keeps moving while nothing else
        reports (an engine start reports nothing for seconds)."""
        import threading
        import time

        with self.lock:
            self.generation += 1
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if self.bar is not None and self.waiting is not None:
                self.bar.remove_task(self.waiting)
                self.waiting = None
            if text is None:
                return
            late = self.delay - (time.monotonic() - self.start)
            if late > 0 and self.bar is None:
                self.timer = threading.Timer(late, self._late, (text, self.generation))
                self.timer.daemon = True
                self.timer.start()
                return
            self._waiting(text)

    def _late(self, text: str, generation: int) -> None:
        with self.lock:
            if generation == self.generation:  # not replaced or ended meanwhile
                self._waiting(text)

    def _waiting(self, text: str) -> None:
        self._show()
        if self.files is not None:
            self.bar.update(self.files, visible=False)
        self.waiting = self.bar.add_task(text, total=None, counts="")

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.generation += 1
            if self.timer is not None:
                self.timer.cancel()
            if self.bar is not None:
                self.bar.stop()
                self.bar = None


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


def _durations_from_history(config, durations_from, files, bundle, target, debug: bool):
    """`check --durations-from history`: the configuration with each cron job's
    `duration:` replaced by its longest observed run (`history_match.observed_durations`),
    each change said on stderr."""
    from dataclasses import replace

    from delta_lint.history_match import observed_durations
    from delta_lint.report import clean

    chosen = _history_files(files, config)
    if durations_from != DurationsFrom.history or not chosen:
        _fail("--durations-from history and --history-file (or `history_files:` in the configuration) go together")
    found, notes = _guarded(lambda: observed_durations(config, chosen, bundle, target), debug)
    for note in notes:
        typer.echo(f"delta-lint: warning: {clean(note)}", err=True)
    durations = dict(config.durations)
    for d in found:
        was = durations.get(d.job) or durations.get("default") or "1h"
        typer.echo(
            f"note: duration of `{d.job}` from history: {d.setting} (longest of {d.runs} runs, from its cron time "
            f"to its last commit; configured {was})",
            err=True,
        )
        durations[d.job] = d.setting
    return replace(config, durations=durations)


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


def _history_files(given: Optional[list[str]], config) -> list[tuple[Optional[str], Path]]:
    """The `--history-file` values, else the configuration's `history_files:`
    (relative to its folder)."""
    if given:
        return [_history_file(value) for value in given]
    return [_history_file(value, config.root, "history_files:") for value in config.history_files]


def _history_file(
    value: str, base: Optional[Path] = None, source: str = "--history-file"
) -> tuple[Optional[str], Path]:
    """`FILE` or `TABLE=FILE` (when FILE is not itself a file whose name holds `=`),
    FILE relative to `base` when given."""
    import re

    def located(text: str) -> Path:
        return base / text if base is not None and not Path(text).is_absolute() else Path(text)

    table, sep, rest = value.partition("=")
    if sep and not located(value).exists() and re.fullmatch(r"[\w.$-]{1,255}", table):
        value = rest
    else:
        table = None
    path = located(value)
    _usable(path)
    if not path.exists():
        _fail(f"{source} {value}: no such file")
    if not path.is_file():
        _fail(f"{source} {value}: not a regular file")
    return table, path


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
    """Console-script entry point. Once the command is done and its output flushed,
    the process ends without tearing the interpreter down: freeing a large run's
    objects one by one took a tenth of a second after the last byte was written.
    Not after Spark ran: its gateway and the embedded server stop in exit handlers."""
    code = 0
    for stream in (sys.stdout, sys.stderr):
        # a terminal or pipe that cannot show a character (an ASCII locale, a path
        # with an accent) gets an escape for it, not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        app()
    except SystemExit as done:
        if _spark_ran() or not (done.code is None or isinstance(done.code, int)):
            raise
        code = done.code or 0
    if _spark_ran():
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can reach it
            pass
    os._exit(code)


def _spark_ran() -> bool:
    return "pyspark" in sys.modules or "pysail" in sys.modules
