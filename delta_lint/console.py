"""`delta-lint check` without typer, and how a console-script command ends.

Most runs are a `check`, often a short one (a pre-commit hook, an editor save), and
typer with the app it builds costs about 30 ms of a process's start. So the console
script (`delta_lint.__main__.main`) reads a `check` command line with
`check_arguments` and calls `check` here directly; any other command line (another
command, `--help`, an option or value this module does not read, an error typer
would report) goes to the typer app of `delta_lint.cli`, which declares every option
and its help and calls the same `check`. Nothing here imports typer or the app;
pyspark is never imported here."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Optional


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


def tune_gc() -> None:
    """A run allocates millions of small objects that live to its end (syntax trees,
    intents, pairs); with CPython's default thresholds the cyclic collector walks
    them again and again (a tenth of a large run). Collections stay on, just rarer:
    sqlglot trees hold cycles that must still be freed, and they die young (the
    first generation frees them); what survives it mostly lives to the end, so the
    middle generation is walked seldom."""
    import gc

    gc.set_threshold(50_000, 100, 100)


def _say(text: str, nl: bool = True) -> None:
    """`text` on standard error as typer's (click's) `echo` writes it, so a check
    says its messages as the other commands do: terminal escapes removed unless
    standard error is a terminal, then flushed."""
    if "\x1b" in text and not _isatty(sys.stderr):
        import re

        text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)
    sys.stderr.write(text + "\n" if nl else text)
    sys.stderr.flush()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except Exception:  # noqa: BLE001 - a replaced stream without a terminal behind it
        return False


def _fail(message: str) -> None:
    """Say `message` as an error and end the command with exit code 2. SystemExit,
    not typer's Exit: `check` runs without typer, and under typer both end alike."""
    from delta_lint.report import clean

    _say(f"delta-lint: error: {clean(message)}")
    raise SystemExit(2)


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

        _say(f"delta-lint: warning: {clean(warning)}")
    return result


def check(
    *,
    paths: Optional[list[Path]] = None,
    config_file: Optional[Path] = None,
    output_format: CheckFormat = CheckFormat.text,
    output: Optional[Path] = None,
    fail_on: FailOn = FailOn.warning,
    select: Optional[list[str]] = None,
    ignore: Optional[list[str]] = None,
    exit_zero: bool = False,
    quiet: bool = False,
    show_statistics: bool = False,
    changed: bool = False,
    diff_base: Optional[str] = None,
    baseline: Optional[Path] = None,
    write_baseline: Optional[Path] = None,
    bundle: Optional[Path] = None,
    target: Optional[str] = None,
    spark: Optional[str] = None,
    spark_timeout: Optional[float] = None,
    refresh: bool = False,
    no_cache: bool = False,
    jobs: int = 0,
    debug: bool = False,
    strict: bool = False,
    show_files: bool = False,
    color: ColorChoice = ColorChoice.auto,
    stdin_filename: Optional[Path] = None,
    show_stats: bool = False,
    durations_from: DurationsFrom = DurationsFrom.config,
    history_file: Optional[list[str]] = None,
    show_settings: bool = False,
) -> None:
    """`delta-lint check`, its options as `delta_lint.cli.check` declares them (with
    their help); it always ends by raising SystemExit with the exit code."""
    tune_gc()  # first: the run's own imports would otherwise see ~40 collections at the default thresholds
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
        raise SystemExit(0)
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
        raise SystemExit(result.output[1])
    if show_files:
        from delta_lint import report

        _emit(report.files_list(result.analysed, result.skipped), output)
        raise SystemExit(0)
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
        _say(f"delta-lint: wrote {count} findings to the baseline {write_baseline}")
        raise SystemExit(0)
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
            raise SystemExit(patched[1])
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
        _say(result.stats.text(), nl=False)
    raise SystemExit(outcome.exit_code)


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
        _say(f"delta-lint: warning: {clean(note)}")
    durations = dict(config.durations)
    for d in found:
        was = durations.get(d.job) or durations.get("default") or "1h"
        _say(
            f"note: duration of `{d.job}` from history: {d.setting} (longest of {d.runs} runs, from its cron time "
            f"to its last commit; configured {was})"
        )
        durations[d.job] = d.setting
    return replace(config, durations=durations)


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


# The options `delta_lint.cli.check` declares, for reading a `check` command line
# here: option -> (parameter, kind). A kind is "flag", "many" (repeatable), or the
# converter of the value: str, int, float, _path or an enum (its values exactly, as
# typer's choices). tests/test_console.py holds this table to typer's.
_FLAG, _MANY = "flag", "many"


def _path(value: str) -> Path:
    """A path value as typer's Path type gives it, or ValueError where typer would
    refuse it (an existing path that cannot be read), so that typer says why."""
    try:
        os.stat(value)
    except OSError:
        return Path(value)
    if not os.access(value, os.R_OK):
        raise ValueError(value)
    return Path(value)


CHECK_OPTIONS: dict[str, tuple[str, object]] = {
    "--config": ("config_file", _path),
    "--format": ("output_format", CheckFormat),
    "--output-format": ("output_format", CheckFormat),
    "--output": ("output", _path),
    "-o": ("output", _path),
    "--fail-on": ("fail_on", FailOn),
    "--select": ("select", _MANY),
    "--ignore": ("ignore", _MANY),
    "--exit-zero": ("exit_zero", _FLAG),
    "--quiet": ("quiet", _FLAG),
    "-q": ("quiet", _FLAG),
    "--statistics": ("show_statistics", _FLAG),
    "--changed": ("changed", _FLAG),
    "--diff-base": ("diff_base", str),
    "--baseline": ("baseline", _path),
    "--write-baseline": ("write_baseline", _path),
    "--bundle": ("bundle", _path),
    "--target": ("target", str),
    "-t": ("target", str),
    "--spark": ("spark", str),
    "--spark-timeout": ("spark_timeout", float),
    "--refresh": ("refresh", _FLAG),
    "--no-cache": ("no_cache", _FLAG),
    "--jobs": ("jobs", int),
    "-j": ("jobs", int),
    "--debug": ("debug", _FLAG),
    "--strict": ("strict", _FLAG),
    "--show-files": ("show_files", _FLAG),
    "--color": ("color", ColorChoice),
    "--stdin-filename": ("stdin_filename", _path),
    "--show-stats": ("show_stats", _FLAG),
    "--durations-from": ("durations_from", DurationsFrom),
    "--history-file": ("history_file", _MANY),
    "--show-settings": ("show_settings", _FLAG),
}


def check_arguments(args: list[str]) -> Optional[dict]:
    """The keyword arguments of `check` for the arguments after `check` on a command
    line, exactly as typer would pass them; None for anything this reader does not
    take on itself (help, an unknown option, a bad value, `--`, short options
    joined or with their value attached), which typer then reads and answers."""
    kwargs: dict = {}
    paths: list[Path] = []
    many: dict[str, list[str]] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            try:
                paths.append(_path(arg))
            except ValueError:
                return None
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        known = CHECK_OPTIONS.get(name)
        if known is None:
            return None
        param, kind = known
        if kind is _FLAG:
            if eq:
                return None
            kwargs[param] = True
            continue
        if not eq:
            if i == len(args):
                return None
            value = args[i]
            i += 1
        if kind is _MANY:
            many.setdefault(param, []).append(value)
            continue
        try:
            kwargs[param] = kind(value)  # type: ignore[operator]
        except ValueError:
            return None
    if paths:
        kwargs["paths"] = paths
    kwargs.update(many)
    return kwargs


def run_check(kwargs: dict) -> None:
    """`check(**kwargs)` for a command line `check_arguments` read, ended as typer's
    own main ends a command: on an interrupt (exit 130), an end of input ("Aborted!",
    exit 1) and a closed output pipe (exit 1)."""
    import errno

    try:
        check(**kwargs)
    except EOFError:
        _say("")
        _say("Aborted!")
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except OSError as err:
        if err.errno != errno.EPIPE:
            raise
        raise SystemExit(1) from None


def finish(command: Callable[[], object]) -> None:
    """Run a console-script command (it ends by raising SystemExit) and end the
    process with its exit code. Once the command is done and its output flushed,
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
        command()
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
