"""One run of the pipeline: gather the files (discover, and the stat index that
spares hashing unchanged ones) -> front ends (in worker processes for large runs,
each file's result cached by content) -> link (values across files and from the
jobs' parameters, files read again with them) -> schedule (bundles, job
definitions, jobs defined in code) -> table settings -> engine, judged per table
and cached per table -> the findings with every file's suppression comments.

`pipeline` returns every rule's findings; `check` also applies the
configuration's selection and suppressions (`findings.finish`). A run whose
inputs equal an earlier run's returns that run's findings from the cache; a
long-lived caller's run after a few files changed re-checks only those (`_recheck`). Pure
orchestration, no printing: the CLI, the language server and the tests call the
same functions.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from delta_lint import suppress
from delta_lint.cache import Cache, Memory, TableEntry, code_identity, decode_values, encode_entry
from delta_lint.cache import key as cache_key
from delta_lint.config import Config, ConfigError, load_yaml
from delta_lint.findings import Gate, Suppressions, finish, selected
from delta_lint.framestack import on_reserved_stack
from delta_lint.frontend import READ_ERROR, analyze_data, read_file
from delta_lint.frontend.discover import SOURCE_SUFFIXES, Discovered, discover
from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.globs import matches_any
from delta_lint.kept import (
    Kept,
    StateGone,
    StoredContexts,
    StoredFirstLinks,
    StoredPaths,
    StoredSummaries,
    Warm,
    keep_project,
    keep_warm,
    kept_workflows,
    load_state,
    load_warm,
    tree_of,
)
from delta_lint.model import Context, Diagnostic, FileResult, FileSummary, Finding, Intent, Links, Location, Pools
from delta_lint.safeio import InputRefused, printable, read_input, read_input_text
from delta_lint.stats import RunStats
from delta_lint.suppress import FileSuppressions
from delta_lint.tree import RACY_NS, Tree, repository_top, walk

# The bundle, schedule, link, settings and engine stages are imported where a run
# reaches them: a run whose result is stored (`pipeline`) needs none of them.
if TYPE_CHECKING:
    from delta_lint.bundle import FileTests, Workflows
    from delta_lint.engine import Engine
    from delta_lint.frontend.values.listing import ProjectFiles
    from delta_lint.link import Linker
    from delta_lint.patch import OutputDelta, OutputIndex, Patch
    from delta_lint.schedule import Meetings, Schedule
    from delta_lint.settings import ReadSettings, TableNames, TableSettings

SETTINGS_NOT_READ = "DL004"
TASK_NOT_ANALYSABLE = "DL006"


@dataclass
class RunResult:
    """One run's outcome. `files` and `settings` are complete only without the cache
    (`use_cache=False`, as `delta-lint tables` runs): a cached run holds just the
    file results it decoded and the settings of the tables it paired again."""

    files: list[FileResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    read: ReadSettings | None = None
    settings: dict[str, TableSettings] = field(default_factory=dict)
    schedule_files: tuple[Path, ...] = ()  # bundle and job-definition files: changing them changes every overlap
    n_files: int = 0
    n_intents: int = 0
    skipped: dict[str, str] = field(default_factory=dict)  # display path -> kind of a file not linted
    analysed: dict[str, int] = field(default_factory=dict)  # display path -> its intents, for files linted
    suppressions: Suppressions = field(default_factory=Suppressions)  # for the findings stage
    pairing: Pairing | None = None  # what the engine judged, for `delta-lint advise` (runs without the cache)
    stats: RunStats = field(default_factory=RunStats)  # what the run did (files read, verdicts worked out, ...)
    notes: list[str] = field(default_factory=list)  # said once about the run's schedule (`schedule.run_notes`)
    run_key: str | None = None  # the stored run's key, when the run was stored or taken from the store
    # the output, exit code and run warnings kept for the caller's view (`keep_output`)
    output: tuple[str, int, list[str]] | None = None
    # each table's findings and the findings across tables and of diagnostics, as
    # judged (for the output's index, `patch.build_index`); not of a stored run
    tables: dict[str, TableEntry] | None = None
    others: list[Finding] | None = None
    # a re-check whose output is patched from the last one: `findings` holds only the
    # tables judged again and `others`; `patch.complete()` gives every finding
    patch: Patch | None = None

    @property
    def intents(self) -> list[Intent]:
        return [i for f in self.files for i in f.intents]


@dataclass
class Pairing:
    """The engine's inputs and the findings stage of one run, kept so that `advise` can
    judge the run again under a changed table, file or schedule: `finish` turns the
    tables' findings into the run's (with the shared and input findings, selection and
    suppressions)."""

    engine: Engine
    by_table: dict[str, list[Intent]]
    settings: dict[str, TableSettings]
    schedule: Schedule
    workflows: Workflows
    # a file of the run read with other content, linked as the run links (with these workflows)
    reread: Callable[[str, bytes, Workflows], FileResult]
    finish: Callable[[list[Finding]], list[Finding]]
    visible: Callable[[list[Finding]], list[Finding]]  # the selected, unsuppressed ones of some table findings


def display_path(
    path: Path,
    cwd: Path,
    resolved: Path | None = None,
    here: str | None = None,
    folders: dict[str, str] | None = None,
) -> str:
    """Paths relative to the working directory, posix style, for stable output; a
    symbolic link is shown where it is, not where it points. A name with control
    characters or bytes that are not UTF-8 is shown escaped (`safeio.printable`):
    it names the file in every output and cache key. `here`: the process's working
    folder, when the caller names many paths (one system call instead of one a path).
    `folders`: the caller's memo of folders outside `cwd` shown already (absolute
    path -> shown path), for a caller naming many files there: each file is then
    its folder's shown path and its name, one `lstat` instead of resolving every
    part of its path (a project checked from outside it: 10,000 files)."""
    text = _display_path(path, cwd, resolved, here, folders)
    return text if text.isprintable() else printable(text)


def _absolute(path: Path, here: str | None) -> str:
    """`os.path.abspath(path)`; with `here` (the working folder) and a path as pathlib
    writes it (no `.` part, no doubled separator), without asking the system for the
    working folder or normalising again: a 10,000-file run names every file."""
    text = os.fspath(path)
    if here is None or os.sep != "/" or ".." in text or text.startswith("//"):
        return os.path.abspath(text)
    if text.startswith("/"):
        return text
    return here if text == "." else os.path.join(here, text)


def _display_path(
    path: Path,
    cwd: Path,
    resolved: Path | None = None,
    here: str | None = None,
    folders: dict[str, str] | None = None,
) -> str:
    absolute_text = _absolute(path, here)
    base = _absolute_dir_text(cwd)
    if absolute_text.startswith(base):  # the common case, without pathlib (10,000 files)
        return absolute_text[len(base) :].replace(os.sep, "/") or "."
    if folders is not None and resolved is None:
        folder, name = os.path.split(absolute_text)
        # a link is shown where it points (resolved below): only a name that is not
        # one is its folder's shown path and itself
        if folder and name and not os.path.islink(absolute_text):
            shown = folders.get(folder)
            if shown is None:
                shown = folders[folder] = _display_path(Path(folder), cwd, None, here)
            return name if shown == "." else f"{shown}/{name}"
    absolute = Path(absolute_text)
    try:
        return absolute.relative_to(_absolute_dir(cwd)).as_posix()
    except ValueError:
        pass
    if resolved is None:
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError):  # a loop of symbolic links
            resolved = absolute
    base = _resolved_dir(cwd)
    try:
        return resolved.relative_to(base).as_posix()
    except ValueError:
        return os.path.relpath(resolved, base).replace(os.sep, "/")


def _absolute_dir(directory: Path) -> Path:
    return Path(_absolute_dir_text(directory))


def _absolute_dir_text(directory: Path) -> str:
    """The directory's absolute path with a trailing separator, for prefix tests."""
    # kept per working directory: a long-lived process (the language server) may move
    return _absolute_in(directory, "" if directory.is_absolute() else os.getcwd())


@lru_cache(maxsize=64)
def _absolute_in(directory: Path, cwd: str) -> str:  # `cwd`: the key a relative directory is kept under
    return os.path.join(os.path.abspath(directory), "")


def _resolved_dir(directory: Path) -> Path:
    return _resolved_in(directory, "" if directory.is_absolute() else os.getcwd())


@lru_cache(maxsize=64)
def _resolved_in(directory: Path, cwd: str) -> Path:  # `cwd`: as in `_absolute_in`
    return directory.resolve()


@dataclass
class Inputs:
    """Every discovered file, read at most once: display path -> (config-relative
    path, suffix, bytes or a read-error result, cache key). The bytes are None for a
    file the stat index vouches for (see `gather`): read only if a front end needs it."""

    diagnostics: list[Diagnostic]
    files: list[tuple[str, str, str, bytes | FileResult | None, str]]
    paths: list[Path] = field(default_factory=list)
    cwd: Path = field(default_factory=Path.cwd)  # what display paths are relative to
    stats: RunStats = field(default_factory=RunStats)  # the run's counters, filled from here on

    def data(self, index: int) -> bytes | FileResult:
        """The file's bytes (or read error), reading it now if gather did not; its key
        follows what was read, should the file have changed since."""
        display, rel, suffix, data, key = self.files[index]
        if data is None:
            self.stats.files_read += 1
            data = read_file(self.paths[index], display)
            key = cache_key(display, data) if isinstance(data, bytes) else ""
            self.files[index] = (display, rel, suffix, data, key)
        return data

    @property
    def rel_paths(self) -> dict[str, str]:
        return {display: rel for display, rel, _, _, _ in self.files}


STAT_INDEX = "stat-index"


def gather(
    paths: list[Path],
    config: Config,
    cwd: Path | None = None,
    store: Cache | None = None,
    overlay: dict[Path, bytes] | None = None,
) -> Inputs:
    """Discover and key every file. With the cache, a file whose device, inode, size,
    modification and change times equal those recorded when its content was last
    hashed is not read again: its content key is taken from that record (git's index
    works so). The change time cannot be set back by tools that restore modification
    times; a file recorded within RACY_NS of a change is read again next time.

    `overlay` (absolute path -> bytes) is an editor's unsaved buffers: their content
    replaces the file's on disk for this run (a buffer not saved yet is added), and
    never enters the stat index, which vouches for what is on disk."""
    cwd = cwd or Path.cwd()
    found = discover(paths, config.root, config.exclude)
    overlay = {Path(os.path.abspath(p)): data for p, data in (overlay or {}).items()}
    if overlay:
        found = _with_buffers(found, overlay, config)
    # one diagnostic per file: a file named on the command line is met again in its project
    problems = {display_path(p, cwd): (p, why) for p, why in reversed(found.problems)}
    diagnostics = [
        Diagnostic(READ_ERROR, Location(display, 1, 1), f"cannot analyse `{p}`: {why}", "error")
        for display, (p, why) in sorted(problems.items(), key=lambda kv: found.problems.index(kv[1]))
    ]
    known = store.get_value(STAT_INDEX) if store is not None else None
    known = known if isinstance(known, dict) else {}
    index: dict[str, list] = {}
    racy_after = time.time_ns() - RACY_NS
    files = []
    stats = RunStats(files=len(found.files))
    root_is_cwd = _absolute_dir_text(cwd) == _absolute_dir_text(config.root)  # the usual case: one path per file
    here = os.getcwd()
    folders: dict[str, str] = {}  # folders outside `cwd` shown already: a project checked from outside it
    for path in found.files:
        display = display_path(path, cwd, here=here, folders=folders)
        rel = display if root_is_cwd else display_path(path, config.root, here=here)
        buffer = overlay.get(Path(_absolute(path, here))) if overlay else None
        if buffer is not None:
            files.append((display, rel, path.suffix.lower(), buffer, cache_key(display, buffer)))
            continue
        sig = _stat_signature(path) if store is not None else None
        seen = known.get(display)
        if sig is not None and isinstance(seen, list) and len(seen) == 2 and seen[0] == sig:
            index[display] = seen
            files.append((display, rel, path.suffix.lower(), None, seen[1]))
            continue
        stats.files_read += 1
        data = read_file(path, display)
        key = cache_key(display, data) if isinstance(data, bytes) else ""
        if sig is not None and isinstance(data, bytes) and max(sig[3], sig[4]) < racy_after:
            index[display] = [sig, key]
        files.append((display, rel, path.suffix.lower(), data, key))
    if store is not None and index != known:
        store.put_value(STAT_INDEX, index)
    return Inputs(diagnostics, files, list(found.files), cwd, stats)


def _with_buffers(found: Discovered, overlay: dict[Path, bytes], config: Config) -> Discovered:
    """Discovery as if the buffers were saved: one that is not on disk yet is added
    when it is a source file inside the project and not excluded."""
    here = os.getcwd()
    have = {_absolute(p, here) for p in found.files}
    added = []
    for path in overlay:
        if str(path) in have or path.exists() or path.suffix.lower() not in SOURCE_SUFFIXES:
            continue
        try:
            rel = path.relative_to(Path(os.path.abspath(config.root))).as_posix()
        except ValueError:
            continue
        if not matches_any(rel, config.exclude):
            added.append(path)
    if not added:
        return found
    problems = [(p, why) for p, why in found.problems if Path(os.path.abspath(p)) not in added]
    return Discovered(sorted([*found.files, *added], key=lambda p: display_path(p, config.root)), problems)


def _stat_signature(path: Path) -> list[int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def front_ends(
    inputs: Inputs,
    store: Cache | None,
    on_file: Callable[[int, int], None] | None = None,
    jobs: int | None = None,
) -> list[FileResult]:
    """Every file's result in discovery order: from the cache when the content, path
    and version are unchanged, otherwise from the front ends — in `jobs` processes
    when there are enough files to pay for them."""
    files = _summaries(inputs, store, on_file, jobs)
    return list(files.load(set(range(len(files.summaries)))).values())


def analyze(
    paths: list[Path],
    config: Config,
    cwd: Path | None = None,
    on_file: Callable[[int, int], None] | None = None,
    use_cache: bool = True,
    jobs: int | None = None,
) -> tuple[list[FileResult], list[Diagnostic], dict[str, str]]:
    """Front ends over every discovered file; returns results, discovery problems and
    the display-path -> config-root-relative path map used by the schedule."""
    from delta_lint.schedule import load_workflows
    from delta_lint.settings import TableNames

    store = Cache(config.root) if use_cache else None
    try:
        inputs = gather(paths, config, cwd, store)
        files = _summaries(inputs, store, on_file, jobs, defer=True)
        try:
            workflows: Workflows | None = load_workflows(config, store=store)
        except ConfigError:  # `check` reports it; the intents are still worth showing
            workflows = None
        if workflows is not None:
            workflows = _with_defined_jobs(workflows, files, inputs, config)
        _link(files, inputs, workflows, store, config.root)
        results = list(files.load(set(range(len(files.summaries)))).values())
        names = TableNames.of(config, _declared_locations(files.summaries))
        non_delta = _non_delta_tables(files.summaries, names)
        if non_delta:
            for result in results:
                result.intents = [
                    i for i in result.intents if i.table is None or names.qualify(i.table.name) not in non_delta
                ]
    finally:
        if store is not None:
            store.close()
    return results, inputs.diagnostics, inputs.rel_paths


def overlap_schedule(
    paths: list[Path], config: Config, bundle: Path | None = None, target: str | None = None, cwd: Path | None = None
) -> Schedule:
    """The overlap graph `check` judges with: the bundle's and Jobs JSON's jobs, and
    what only the code tells (jobs written as literal dicts or handed to the SDK,
    notebooks other notebooks run). Reads the code (cached), never the tables."""
    from delta_lint.schedule import build_schedule, load_workflows

    store = Cache(config.root)
    try:
        inputs = gather(paths, config, cwd, store)
        files = _summaries(inputs, store, None, None)
        workflows = _with_defined_jobs(load_workflows(config, bundle, target, store=store), files, inputs, config)
        runs_in = _link(files, inputs, workflows, store, config.root)
    finally:
        store.close()
    return build_schedule(config, inputs.rel_paths, workflows, runs_in.callers, pooled=runs_in.pooled)


def die_with_parent(parent: int) -> None:
    """A worker's first act: end when the run that started it ends, however it ends.
    A forked worker holds copies of the ends of the workers' pipes, so it never sees
    the parent go; after `kill -9` of a run it would wait on a full pipe forever.
    Linux ends it with the parent (PR_SET_PDEATHSIG); elsewhere a thread watches the
    parent."""
    import signal
    import threading

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, name="delta-lint-parent-watch", daemon=True).start()


PARALLEL_MIN_FILES = 64  # below this, starting processes costs more than it saves
FRONT_END_BATCH = 16  # answers a front-end worker sends at once
# Source bytes a default run reads for each front-end process: a worker's fork, its
# memo of its own (a statement another worker met is parsed again) and its answers'
# trip back cost 25-35 % more CPU than one process reading the same files (the
# 400-file and 2,000-file corpora, 0.45 and 1.97 MB), which the second core
# returns as wall time only once each process has about a second of reading.
FORK_BYTES = 1 << 20


def cores() -> int:
    """The processors this process may run on (its affinity: a container's or a
    `taskset`'s share, not the machine's count, where the system says it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def front_end_workers(jobs: int | None, files: int, size: int) -> int:
    """How many processes read `files` files of `size` bytes in all (those the
    cache did not answer). `--jobs N` (N > 0): N, once there are
    `PARALLEL_MIN_FILES` files; the default (0): one process for each `FORK_BYTES`
    of source or part of them, up to the cores, so that a small project is read in
    the process that checks it and a large one in as many as it can keep busy."""
    if files < PARALLEL_MIN_FILES:
        return 1
    if jobs is not None and jobs > 0:
        return min(jobs, files)
    return max(1, min(cores(), -(-size // FORK_BYTES), files))


def _run_front_ends(
    misses: list[tuple[int, bytes, str, str, str]],
    rels: list[str],
    workers: int,
    encode: bool,
    memo: FrontEndMemo,
    meanwhile: Callable[[], None] | None = None,
):
    """(result, summary, cache entry or None) in input order, serially (with the run's
    `memo`) or in `workers` processes (`front_end_workers`); with a cache the workers
    also encode the entries, which costs as much as a fifth of the front ends.
    `meanwhile` runs once all work is handed out."""
    items = [(data, suffix, display, rels[i], encode) for i, data, suffix, display, _ in misses]
    if workers <= 1:
        if meanwhile is not None:
            meanwhile()
        for item in items:
            yield _analyze_item(item, memo)
        return
    yield from _front_ends_in_workers(items, min(workers, len(items)), meanwhile)


def _front_ends_in_workers(items: list, workers: int, meanwhile: Callable[[], None] | None):
    """`_analyze_item` of every item, in input order, from `workers` processes. Worker
    k reads items k, k + workers, ... with a memo of its own for its whole share (what
    one file's reading works out serves the worker's later files; a memo cannot be
    shared between processes). The items reach the workers through the fork (pickled
    once a worker where processes are spawned); answers come back in batches, read as
    they arrive, so that no worker waits on a full pipe while the next answer in order
    is another's."""
    import multiprocessing
    from collections import deque
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    forking = context.get_start_method() == "fork"
    if forking:
        _preload_front_ends({suffix for _, suffix, *_ in items})
    parent = os.getpid()
    running = []
    try:
        with _frozen_for_fork(forking):
            for k in range(workers):
                receive, send = context.Pipe(duplex=False)
                share = items[k::workers]
                process = context.Process(target=_front_end_worker, args=(parent, send, share), daemon=True)
                process.start()
                send.close()
                running.append((process, receive, len(share)))
        if meanwhile is not None:
            meanwhile()
        answers: list[deque] = [deque() for _ in running]
        received = [0] * workers
        waiting = {receive: k for k, (_, receive, expected) in enumerate(running) if expected}
        for index in range(len(items)):
            mine = answers[index % workers]
            while not mine:
                for receive in wait(list(waiting)):
                    k = waiting[receive]
                    try:
                        ok, value = receive.recv()
                    except EOFError:
                        running[k][0].join(5)  # it has closed its pipe: it is ending
                        code = running[k][0].exitcode
                        raise RuntimeError(f"a front-end worker stopped (exit code {code})") from None
                    if not ok:
                        raise value
                    answers[k].extend(value)
                    received[k] += len(value)
                    if received[k] == running[k][2]:
                        del waiting[receive]
            yield mine.popleft()
    finally:
        for process, receive, _ in running:
            receive.close()
            if process.is_alive():
                process.kill()
            process.join()


@contextmanager
def _frozen_for_fork(forking: bool = True) -> Iterator[None]:
    """Workers forked with every object the parent holds moved out of the cyclic
    collector's sight (`gc.freeze`), as Python's documentation advises before a fork
    without exec: a worker's collections then never walk what it inherited (the
    parent's objects allocated since its last collection, up to the first
    threshold of `console.tune_gc`), and the parent's next ones do not walk them
    either: they are put in the oldest generation again when the workers are
    started, which a run does not collect. The 400-file corpus's default run
    (two front-end workers): 0.928 of the CPU (9 pairs)."""
    if not forking:
        yield
        return
    import gc

    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _preload_front_ends(suffixes: set[str]) -> None:
    """Import the front ends files of these suffixes use (each is imported where it is
    first needed, see `frontend._dispatch`) before the workers are forked: they
    inherit them, where each worker would import its own. sqlglot's dialects and
    the Python reader cost as much to import as reading a few hundred files."""
    import importlib

    from delta_lint.frontend import DBT_DATA_SUFFIXES

    names = ["delta_lint.frontend.recognise"]
    if suffixes - set(DBT_DATA_SUFFIXES):
        names.append("delta_lint.frontend.sql")  # every file but a dbt seed: SQL in Python strings too
    if suffixes - {".sql", *DBT_DATA_SUFFIXES}:
        names += ["delta_lint.frontend.notebook", "delta_lint.frontend.python"]
    for name in names:
        importlib.import_module(name)


def _front_end_worker(parent: int, send, items: list) -> None:
    die_with_parent(parent)
    memo = FrontEndMemo()
    try:
        batch = []
        for item in items:
            batch.append(_analyze_item(item, memo))
            if len(batch) == FRONT_END_BATCH:
                send.send((True, batch))
                batch = []
        if batch:
            send.send((True, batch))
    except BaseException as err:  # handed to the parent, which raises it
        send.send((False, err))
    send.close()


def placed(context: Context | None, display: str, rel: str) -> Context | None:
    """The context a file is read with, given its path relative to the
    configuration root when the path shown is another (a project checked from
    outside it: `check ../proj`, `check /abs/proj`): a path its code forms from
    `__file__` (`os.path.dirname(__file__)`, `Path(__file__).parent`) names a
    project document by it, never by the working directory of the run."""
    if rel == display.removeprefix("./") or (context is not None and context.path):
        return context
    return Context(path=rel) if context is None else replace(context, path=rel)


def _analyze_item(
    item: tuple[bytes, str, str, str, bool], memo: FrontEndMemo
) -> tuple[FileResult, FileSummary, tuple[bytes, bytes] | None, int]:
    """A file's result, summary and cache entry, and how many statements its
    reading parsed (a worker's memo is not the run's: the count comes back with it)."""
    data, suffix, display, rel, encode = item
    parsed = memo.statements_read
    result = analyze_data(data, suffix, display, placed(None, display, rel), memo=memo)
    summary = FileSummary.of(result)
    entry = None
    if encode:
        try:
            entry = encode_entry(result, summary)
        except (TypeError, ValueError, RecursionError):  # a value the cache cannot hold: not cached
            entry = None
    return result, summary, entry, memo.statements_read - parsed


def check(paths: list[Path], config: Config, **options) -> RunResult:
    """Check `paths` under `config` as `delta-lint check` does without command-line
    choices: the pipeline, then the findings stage with the configuration's rule
    selection, ignores and suppressions. `options` are `pipeline`'s."""
    result = pipeline(paths, config, **options)
    return replace(result, findings=finish(result.findings, result.suppressions, Gate.of(config)).findings)


def pipeline(
    paths: list[Path],
    config: Config,
    cwd: Path | None = None,
    spark: str | None = None,
    refresh: bool = False,
    read: ReadSettings | None = None,
    on_file: Callable[[int, int], None] | None = None,
    bundle: Path | None = None,
    target: str | None = None,
    use_cache: bool = True,
    jobs: int | None = None,
    overlay: dict[Path, bytes] | None = None,
    on_stage: Callable[[str | None], None] | None = None,
    view: str | None = None,
    memory: Memory | None = None,
) -> RunResult:
    """Discover, front ends, schedule, settings and engine: the findings of every
    rule before the findings stage (selection, suppressions, ...). `read` skips the settings stage (tests, `tables`);
    otherwise settings are read per `spark` (default: the configuration's mode).

    With the cache, a run whose inputs (every file's key, the configuration, the
    bundle and job files, the snapshot, the options) equal an earlier run's
    returns that run's findings without parsing or pairing anything — unless the
    earlier run read settings live, which may have changed since. Such a run
    needs neither the parsed bundle nor any later stage: the bundle and job files
    it read, and the listings they depend on, are kept apart (`_kept_context`).
    `view` names how the caller shows the findings (see `keep_output`): when the
    earlier run's output for the same view was kept, `RunResult.output` holds it
    and the findings are not decoded. `overlay`: unsaved editor buffers, see
    `gather`. `on_file` and `on_stage` report progress: files analysed, then what
    the run waits for (`settings.live.read_settings`). `memory`: what a long-lived
    caller keeps decoded between its runs (`cache.Memory`), with the project's state
    as its last run left it (`_Project`): a run that finds only SQL files or
    notebooks changed (by their buffers or on disk, `walk`) re-reads those and
    re-judges the tables they write (`_recheck`)."""
    store = Cache(config.root, memory) if use_cache else None
    try:
        reusable = store is not None and read is None and not refresh
        tree, slot = None, None
        if reusable and memory is not None and store.db is not None and not store.refused:
            slot = _project_slot(paths, config, cwd, spark, bundle, target)
            known = memory.find("projects", slot)
            # taken before anything is read: what changes from here on is seen next time
            tree = walk(config.root, known.tree if known is not None else None)
            if known is not None and tree is not None:
                try:
                    done = on_reserved_stack(_recheck, known, tree, paths, overlay, store, jobs)
                except BaseException:  # the kept state may be half changed: never used again
                    memory.drop("projects", slot)
                    raise
                if done is not None:
                    return done
            # a full run follows: what is kept of any earlier one (this configuration's
            # or options', or another's) would only hold a large project's state twice
            memory.clear("projects")
        # a new process: the folders walked before any file is read, against the walk
        # the last run kept (`Warm`); when they hold, that run's output is this one's,
        # and when only SQL files or notebooks changed, the project's state (`Kept`)
        # gives the files and keys discovery would, and the listings are not asked
        kept_slot, warm_slot, walked, warm, state, changed, inputs = None, None, None, None, None, None, None
        if reusable and memory is None and not overlay and store.db is not None and not store.refused:
            kept_slot = _project_slot(paths, config, cwd, spark, bundle, target)
            # the files named too: a run of other files of the same folders is another
            # output (the state, which the editor's saves share, holds them all)
            warm_slot = kept_slot + repr(sorted(os.path.abspath(p) for p in paths if not os.path.isdir(p)))
            warm = load_warm(store, warm_slot)
            walked = walk(config.root, tree_of(warm) if warm is not None else None)
            # not before the listings' file answers are kept (`FileTests`, by the second
            # cached run): a later run that must ask the listings would read every file
            if warm is not None and walked is not None and store.has_value(FILE_TESTS):
                changed = _vouched(warm, walked, config, paths)
            if changed == [] and view is not None:
                done = _warm_output(store, warm, view)  # type: ignore[arg-type] - vouched: a record
                if done is not None:
                    return done
            if changed is not None:
                state = load_state(store, kept_slot)
                if state is not None and (state.run_key, state.taken) == (warm.run_key, warm.tree.taken):  # type: ignore[union-attr]
                    inputs = _kept_inputs(state, warm, changed, cwd or Path.cwd())  # type: ignore[arg-type]
                if inputs is None:
                    changed = None
        if inputs is None:
            inputs = gather(paths, config, cwd, store, overlay)
        workflows = None
        tests = _file_tests(store) if reusable and changed is None else None
        if changed is not None:  # the listings and the context's files as the last run found them
            context = warm.context  # type: ignore[union-attr]
        elif reusable and memory is not None:  # the parsed bundle is at hand: no listing asked twice
            from delta_lint.schedule import cached_workflows

            workflows = cached_workflows(config, bundle, target, store, tests)
            context = _context_digest(config, workflows) if workflows is not None else None
        else:
            context = _kept_context(config, bundle, target, store, tests) if reusable else None
        if tests is not None:
            _keep_file_tests(store, tests, inputs.stats)
        if context is not None:
            run_key = _run_key(inputs, config, context, spark, bundle, target)
            shown = _kept_output(store, run_key, view) if view is not None else None
            if shown is not None:
                return RunResult(stats=replace(inputs.stats, from_cache=True), run_key=run_key, output=shown)
            hit = store.get_run(run_key)
            if hit is not None:
                from delta_lint.settings import ReadSettings

                return RunResult(
                    stats=replace(inputs.stats, from_cache=True),
                    findings=list(hit["findings"]),  # the kept run's list may be kept in `memory`
                    read=ReadSettings(warnings=hit["warnings"], mode=hit["mode"]),
                    schedule_files=tuple(Path(p) for p in hit["schedule_files"]),
                    n_files=hit["n_files"],
                    n_intents=hit["n_intents"],
                    skipped=hit["skipped"],
                    analysed=hit["analysed"],
                    suppressions=Suppressions(hit["scans"], hit["rel_of"]),
                    notes=hit["notes"],
                    run_key=run_key,
                )
        from delta_lint.schedule import cached_workflows, load_workflows

        if kept_slot is not None:  # a new process: the project's state as the last run left it is in the cache
            if state is None:
                state = load_state(store, kept_slot)  # type: ignore[union-attr] - a slot is made only with a store
            if state is not None and context is not None:
                # vouched: the state's run asked the listings this run found unchanged
                listed = state if changed is not None else store.get_value(_context_slot(config, bundle, target))  # type: ignore[union-attr]
                workflows = kept_workflows(store, kept_slot, state, context, listed)  # type: ignore[arg-type]
        if workflows is None and store is not None:
            if tests is None and reusable:
                tests = _file_tests(store)
            workflows = cached_workflows(config, bundle, target, store, tests)
            if tests is not None:
                _keep_file_tests(store, tests, inputs.stats)
        if kept_slot is not None:
            done, tree, kept = on_reserved_stack(
                _recheck_kept,
                kept_slot,
                state,
                store,
                inputs,
                config,
                workflows,
                spark,
                paths,
                jobs,
                view,
                walked,
                warm,
            )
            if done is not None and kept is not None:
                if context is None:
                    context = _context_digest(config, kept.workflows)
                    _keep_context(config, bundle, target, store, kept.workflows, context)
                # the output is kept under the run's key (`keep_output`) when the files
                # re-read are what `gather` keyed; the run itself is not stored: its
                # findings are as quickly judged again from the state as decoded
                if [k for *_, k in kept.inputs.files] == [k for *_, k in inputs.files]:
                    done.run_key = _run_key(inputs, config, context, spark, bundle, target)
                kept_context = _context_digest(config, kept.workflows)
                keep_project(store, kept_slot, kept, kept_context, done.run_key)
                if done.run_key is not None and context == kept_context and tree is walked:
                    # the same listings in the same folders (`_vouched`): those asked are the last record's
                    same = changed is not None and kept.workflows.listings == state.listings  # type: ignore[union-attr]
                    asked = warm.listings if same else None  # type: ignore[union-attr]
                    _keep_warm(store, warm_slot, config, tree, done.run_key, context, kept.workflows, inputs, asked)
                done.stats.files_read += inputs.stats.files_read
                done.stats.listed_files_read = inputs.stats.listed_files_read
                return done
        if changed is not None:  # a full run: the files as discovery finds them, by their paths as named
            inputs = gather(paths, config, cwd, store, overlay)
        # Without cached workflows no earlier run can match: parse the bundle while
        # the front ends run (a large bundle is a noticeable part of a cold run).
        result, project = on_reserved_stack(
            _check,
            inputs,
            workflows or (lambda: load_workflows(config, bundle, target, store)),
            config,
            spark,
            refresh,
            read,
            on_file,
            store,
            jobs,
            on_stage,
            (bundle, target),
        )
        workflows = project.workflows
        keep_state = False  # the project's state stored for the next process
        if slot is not None and tree is not None and result.read is not None and _can_recheck(project, paths, overlay):
            project.tree, project.result = tree, result
            project.overlaid = _overlaid(project, overlay)
            memory.put("projects", slot, project)  # type: ignore[union-attr] - a slot is made only with memory
        elif kept_slot is not None and tree is not None and result.read is not None:
            keep_state = _can_recheck(project, paths, None)
            if keep_state:
                project.tree = tree
        if reusable and result.read is not None and result.read.mode in ("none", "snapshot"):
            context = _context_digest(config, workflows)
            _keep_context(config, bundle, target, store, workflows, context)
            result.run_key = _run_key(inputs, config, context, spark, bundle, target)
            if memory is not None:  # an editor's buffers: kept where its next save looks, not encoded
                memory.put("runs", result.run_key, _kept_run(result))
            else:
                store.put_run(result.run_key, _kept_run(result))
        if keep_state:  # with the run's key, which names its output
            keep_project(store, kept_slot, project, _context_digest(config, workflows), result.run_key)  # type: ignore[arg-type] - a slot is made only with a store
            if result.run_key is not None and tree is walked:
                _keep_warm(store, warm_slot, config, tree, result.run_key, context, workflows, inputs)  # type: ignore[arg-type]
        if store is not None and store.refused and result.read is not None:
            result.read.warnings.append(store.refused)
        return result
    finally:
        if store is not None:
            store.close()


def _vouched(warm: Warm, tree: Tree, config: Config, paths: list[Path]) -> list[str] | None:
    """The files changed since the run `warm` was kept by, when nothing else it read
    changed and no listing can tell otherwise: the walk `tree`, made before this run
    read a file, finds the folders and names as they were and the files changed
    (`Tree.changed`) are SQL files or notebooks (content no listing or discovery
    reads: `RECHECK_SUFFIXES`); every path named is in the tree (discovery looks
    nowhere else); the root resolves as it did; the listings the walk does not vouch
    for (`kept.vouches`) answer as they did; the bundle and job files, configuration
    and snapshot digest as they did (`warm.context`). Then discovery finds the same
    files, the others with the same keys, and the run's context is the kept one,
    without discovering, hashing a file or asking a listing that walks the project
    or looks for a task's file (10,000 of them on a large bundle). None: the run
    asks as before (`gather`, `_kept_context`)."""
    changed = tree_of(warm).changed(tree)
    if changed is None or any(os.path.splitext(path)[1].lower() not in RECHECK_SUFFIXES for path in changed):
        return None
    top = os.path.abspath(config.root)
    if os.path.realpath(top) != warm.top:
        return None
    for given in paths:
        path = os.path.abspath(given)
        if path != top and path not in tree.dirs and path not in tree.files:
            return None
    if warm.listings:  # most projects have none: the bundle reader is not imported
        from delta_lint.bundle import listing

        try:
            if any(listing(kind, argument) != answer for kind, argument, answer in warm.listings):
                return None
        except (OSError, ValueError, RecursionError, ConfigError):
            return None
    if _files_digest(config, warm.files) != warm.context:
        return None
    return changed


def _warm_output(store: Cache, warm: Warm, view: str) -> RunResult | None:
    """The output kept for `view` of the run `warm` was kept by, for a run that found
    nothing changed since (`_vouched`): that run's key is this one's."""
    shown = _kept_output(store, warm.run_key, view)
    if shown is None:
        return None
    return RunResult(stats=RunStats(from_cache=True), run_key=warm.run_key, output=shown)


def _kept_inputs(state: Kept, warm: Warm, changed: list[str], cwd: Path) -> Inputs | None:
    """What `gather` would give when only the files `changed` changed since the run
    that kept `state` and `warm` (`_vouched`): its files with their keys, the
    changed ones read and keyed again, and its discovery's problems. None when a
    changed file is not one discovery takes (excluded), or a file could not be
    read last time (`gather` reads it again): `gather` then."""
    if state.cwd != os.fspath(cwd) or any(not key for *_, key in state.files):
        return None
    try:
        diagnostics = decode_values(warm.diagnostics)
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    if not (isinstance(diagnostics, list) and all(isinstance(d, Diagnostic) for d in diagnostics)):
        return None
    files: list[tuple[str, str, str, bytes | FileResult | None, str]] = [
        (display, rel, suffix, None, key) for display, rel, suffix, key in state.files
    ]
    stats = RunStats(files=len(files))
    index = {path: i for i, path in enumerate(state.paths)} if changed else {}
    for path in changed:
        i = index.get(path)
        if i is None:
            return None
        display, rel, suffix, _, _ = files[i]
        stats.files_read += 1
        data = read_file(Path(path), display)
        files[i] = (display, rel, suffix, data, cache_key(display, data) if isinstance(data, bytes) else "")
    return Inputs(diagnostics, files, StoredPaths(state.paths), cwd, stats)  # type: ignore[arg-type]


def _keep_warm(
    store: Cache,
    slot: str,
    config: Config,
    tree: Tree,
    run_key: str,
    context: str,
    workflows: Workflows,
    inputs: Inputs,
    asked: list[tuple[str, str, tuple[str, ...]]] | None = None,
) -> None:
    """Keep what tells the next process nothing changed since this run (`kept.Warm`)."""
    files = [str(p) for p in workflows.files]
    top = os.path.abspath(config.root)
    keep_warm(store, slot, top, tree, run_key, context, files, workflows.listings, inputs.diagnostics, asked)


RUN_CONTEXT = "run-context:"  # kv: what a run's key takes from the bundle and job files
OUTPUT = "output:"  # kv: the run, exit code and warnings of the last output kept for one view (`keep_output`)
OUTPUT_TEXT = "output-text:"  # kv blob: that output's run key, a newline, its text
OUTPUT_DELTA = "output-delta:"  # kv blob: a later output of the view as pieces of that text (`patch.OutputDelta`)


def _context_slot(config: Config, bundle: Path | None, target: str | None) -> str:
    return RUN_CONTEXT + hashlib.blake2b(repr((config, bundle, target)).encode(), digest_size=20).hexdigest()


def _keep_context(
    config: Config, bundle: Path | None, target: str | None, store: Cache, workflows: Workflows, context: str
) -> None:
    """Keep what a run's key takes from the parsed bundle and job files: the files
    read and the directory listings their reading depended on (`Workflows.listings`),
    with the digest they gave (`_context_digest`). Far smaller than the parsed
    workflows, which a large bundle makes costly to decode."""
    kept = {
        "files": [str(p) for p in workflows.files],
        "listings": [[kind, argument, list(answer)] for kind, argument, answer in workflows.listings],
        "context": context,
    }
    store.put_value(_context_slot(config, bundle, target), kept)


FILE_TESTS = "file-tests"  # kv: `bundle.FileTests.known`, what the listings found in each file by its stat


def _file_tests(store: Cache) -> FileTests:
    """The listings' file answers the last runs kept (`bundle.FileTests`)."""
    from delta_lint.bundle import FileTests

    return FileTests.of(store.get_value(FILE_TESTS))


def _keep_file_tests(store: Cache, tests: FileTests, stats: RunStats) -> None:
    """Count the files the listings read, and keep what they found when it changed."""
    stats.listed_files_read = tests.read
    if tests.changed:
        store.put_value(FILE_TESTS, tests.known)
        tests.changed = False


def _kept_context(
    config: Config, bundle: Path | None, target: str | None, store: Cache, tests: FileTests | None = None
) -> str | None:
    """The context digest of the last run with this configuration, bundle and target,
    while it still holds: every directory listing answers as it did (no bundle
    include, Jobs JSON file, Terraform, Airflow or dbt project came or went), and
    the digest is taken again over the files' current content. None: the bundle
    must be read (`schedule.cached_workflows` tells whether its parse is still good).
    `tests`: the stat-keyed file answers that spare reading files to ask again."""
    kept = store.get_value(_context_slot(config, bundle, target))
    if not (
        isinstance(kept, dict)
        and isinstance(kept.get("files"), list)
        and all(isinstance(p, str) for p in kept["files"])
        and isinstance(kept.get("listings"), list)
        and all(
            isinstance(row, list) and len(row) == 3 and isinstance(row[0], str) and isinstance(row[1], str)
            for row in kept["listings"]
        )
        and isinstance(kept.get("context"), str)
    ):
        return None
    from delta_lint.bundle import listing

    try:
        if any(listing(kind, argument, tests) != tuple(answer) for kind, argument, answer in kept["listings"]):
            return None
    except (OSError, ValueError, RecursionError, ConfigError):
        return None
    context = _files_digest(config, kept["files"])
    return context if context == kept["context"] else None


def keep_output(
    config: Config, result: RunResult, view: str, text: str, code: int, index: OutputIndex | None = None
) -> None:
    """Keep what the caller printed of a stored run (`result.run_key`), its exit
    code and the run's warnings (said again on standard error), for `view` (a
    digest of everything besides the run that decides the output: format,
    options, terminal). Only the last run's output is kept per view, so the cache
    holds one per way of calling, not one per run. `index`: where each finding is
    in the text, for a re-check in a new process to patch it (`patch`)."""
    if result.run_key is None:
        return
    store = Cache(config.root)
    try:
        _keep_output(store, result, view, text.encode(errors="surrogatepass"), code, index)
    finally:
        store.close()


def _keep_output(
    store: Cache,
    result: RunResult,
    view: str,
    text: bytes,
    code: int,
    index: OutputIndex | None,
    delta: OutputDelta | None = None,
) -> None:
    """Keep `text`, the output of `result`'s run for `view`, whole; or, given `delta`
    (`text` as pieces of the output kept whole, `patch.compose`), as those pieces."""
    from delta_lint.patch import OUTPUT_INDEX, encode_delta, encode_index

    warnings = list(result.read.warnings) if result.read is not None else []
    # the text first: a run that stops between them finds the run keys differ
    if delta is not None:
        store.put_blob(OUTPUT_DELTA + view, encode_delta(delta))
    else:
        store.put_blob(OUTPUT_TEXT + view, result.run_key.encode() + b"\n" + text)  # type: ignore[union-attr]
    if index is not None:
        store.put_blob(OUTPUT_INDEX + view, encode_index(index))
    store.put_value(OUTPUT + view, {"run": result.run_key, "code": code, "warnings": warnings})


def _kept_text(store: Cache, view: str, run: str) -> tuple[memoryview, str, OutputDelta | None] | None:
    """The output kept for `view` when it is the output of run `run`, as the output
    kept whole it is made from (its text and run) and that output's pieces it is
    (`patch.OutputDelta`; None: it is that output)."""
    blob = store.get_blob(OUTPUT_TEXT + view)
    end = blob.find(b"\n") if blob is not None else -1
    if blob is None or end < 0:
        return None
    base_run, base = blob[:end].decode(errors="replace"), memoryview(blob)[end + 1 :]  # not copied: megabytes
    if base_run == run:
        return base, base_run, None
    stored = store.get_blob(OUTPUT_DELTA + view)
    if stored is None:
        return None
    from delta_lint.patch import decode_delta

    delta = decode_delta(stored)
    if delta is None or delta.run != run or delta.base != base_run:
        return None
    return base, base_run, delta


def _whole_text(kept: tuple[memoryview, str, OutputDelta | None]) -> bytes | memoryview | None:
    """The text of a kept output (`_kept_text`); None when its pieces do not fit its base."""
    from delta_lint.patch import materialize

    base, _, delta = kept
    return base if delta is None else materialize(delta, base)


def patch_output(
    config: Config, result: RunResult, view: str, gate: Gate, output_format: str
) -> tuple[str, int] | None:
    """The output (in `output_format`, one of `patch.LAYOUTS`) and exit code of a
    re-check whose result holds a `patch.Patch`, made from the output the last run
    kept for `view` (and kept in turn, with its index, when the run has a key: as
    pieces of the output kept whole while its new lines are few, `patch.compose`).
    None: the kept output is not the one the patch starts from, or the patch does
    not hold (`patch.apply`); the caller completes the result (`Patch.complete`)
    and renders it in full."""
    from delta_lint.patch import LAYOUTS, apply, compose, materialize, render

    patch = result.patch
    assert patch is not None
    store = Cache(config.root)
    try:
        kept = _kept_text(store, view, patch.index.run)
        if kept is None:
            return None
        base, base_run, last_delta = kept
        counts = (result.n_files, result.n_intents, result.skipped, tuple(result.notes))
        scans = result.suppressions.scans
        layout = LAYOUTS[output_format]
        done = apply(patch, gate, result.suppressions.rel_of, scans, counts, result.run_key, layout)
        if done is None:
            return None
        segments, code, index = done
        # kept as pieces of the base text: the output is made from those, and the last
        # text, itself pieces of the base, is never put together (21 MB once less)
        delta = compose(result.run_key, base_run, len(base), last_delta, segments) if result.run_key else None
        data = materialize(delta, base) if delta is not None else None
        if data is None:
            last = _whole_text(kept)
            if last is None:
                return None
            data, delta = render(segments, last), None
        if result.run_key is not None:
            _keep_output(store, result, view, b"" if delta is not None else data, code, index, delta)
        return data.decode("ascii"), code
    finally:
        store.close()


def _kept_output(store: Cache, run_key: str, view: str) -> tuple[str, int, list[str]] | None:
    """The output kept for `view` when it is the output of run `run_key`. Its text is
    kept apart, read only then: a run after an edit learns the kept output is not
    its own without decoding a large run's text."""
    kept = store.get_value(OUTPUT + view)
    if not (
        isinstance(kept, dict)
        and kept.get("run") == run_key
        and type(kept.get("code")) is int
        and isinstance(kept.get("warnings"), list)
        and all(isinstance(w, str) for w in kept["warnings"])
    ):
        return None
    found = _kept_text(store, view, run_key)
    whole = _whole_text(found) if found is not None else None
    if whole is None:
        return None
    try:  # the text decoded in place: a large run's output is not copied once more
        text = str(whole, "utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None
    return text, kept["code"], kept["warnings"]


def _kept_run(result: RunResult) -> dict:
    """What a later run with the same inputs needs of this one (`Cache.put_run`)."""
    return {
        "findings": result.findings,
        "warnings": list(result.read.warnings) if result.read is not None else [],
        "mode": result.read.mode if result.read is not None else "none",
        "schedule_files": [str(p) for p in result.schedule_files],
        "n_files": result.n_files,
        "n_intents": result.n_intents,
        "skipped": result.skipped,
        "analysed": result.analysed,
        "scans": result.suppressions.scans,
        "rel_of": result.suppressions.rel_of,
        "notes": result.notes,
    }


def _run_key(
    inputs: Inputs, config: Config, context: str, spark: str | None, bundle: Path | None, target: str | None
) -> str:
    """Every input of a run: the code, the configuration and options, every file's
    key, the discovery problems, the context (`_context_digest`). The bundle and
    target chosen on the command line are inputs of their own: two targets of one
    bundle read the same files into different schedules."""
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((code_identity(), config, spark, bundle, target)).encode())
    for display, rel, _, data, key in inputs.files:
        h.update(f"{display}\0{rel}\0{key or repr(data)}\n".encode())
    for d in inputs.diagnostics:
        h.update(repr(d).encode())
    h.update(context.encode())
    return "run:" + h.hexdigest()


def _context_digest(config: Config, workflows: Workflows) -> str:
    """Everything besides the files that pairs depend on: the configuration, the
    bundle and job-definition files, the snapshot (by content)."""
    return _files_digest(config, [str(p) for p in workflows.files])


def _files_digest(config: Config, files: list[str]) -> str:
    """`_context_digest` of workflows that read `files`."""
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((code_identity(), config)).encode())
    for extra in sorted({*map(Path, files), config.snapshot_path, *([config.path] if config.path else [])}):
        try:
            h.update(str(extra).encode() + b"\0" + read_input(extra))
        except OSError:
            h.update(str(extra).encode() + b"\0missing")
    return h.hexdigest()


@dataclass
class _Files:
    """Every file's summary, and full front-end results loaded only when needed:
    with the cache, a run decodes the results of the files whose tables it checks
    again, not of every file."""

    inputs: Inputs
    store: Cache | None
    summaries: list[FileSummary]
    loaded: dict[int, FileResult]
    memo: FrontEndMemo  # the run's: every file the run reads is read with it
    contexts: dict[int, Context] = field(default_factory=dict)  # see `_link`
    linked_keys: dict[int, str] = field(default_factory=dict)  # cache keys of results read with a context
    statements: int = 0  # statements the files' first readings parsed, in this process or in workers
    memo_before: int = 0  # `memo.statements_read` once they were done
    # notebooks not read yet, with what they give the link stage unread (`included_links`):
    # `_link` reads each once, with its context, or first without one where others need it
    deferred: dict[int, tuple[Links, frozenset[str]]] = field(default_factory=dict)
    later: set[int] = field(default_factory=set)  # deferred ones the link stage's waves read (`_read_deferred`)
    # file -> the key of the reading its tables were judged with, for a file whose
    # content changed since without changing its reading (a comment, a blank line at
    # the end): its tables' keys (`_table_key`) stay, and they are not judged again
    judged: dict[int, str] = field(default_factory=dict)

    def statements_parsed(self) -> int:
        """Statements parsed by every reading of the run so far."""
        return self.statements + self.memo.statements_read - self.memo_before

    def key(self, index: int) -> str:
        return self.linked_keys.get(index) or self.inputs.files[index][4]

    def load(self, indexes: set[int]) -> dict[int, FileResult]:
        missing = sorted(i for i in indexes if i not in self.loaded)
        if missing and self.store is not None:
            wanted = {self.key(i): i for i in missing}
            for key, result in self.store.get_many(list(wanted)).items():
                self.loaded[wanted[key]] = result
        for i in missing:
            if i not in self.loaded:  # the entry vanished meanwhile (another run, a damaged file)
                data = self.inputs.data(i)
                display, rel, suffix, _, _ = self.inputs.files[i]
                self.inputs.stats.files_analysed += 1
                self.loaded[i] = (
                    data
                    if isinstance(data, FileResult)
                    else analyze_data(data, suffix, display, placed(self.contexts.get(i), display, rel), self.memo)
                )
        return {i: self.loaded[i] for i in sorted(indexes)}


# a `%run` notebook read with what its own includes give, then its includers with that:
# each wave reads the files no other pending reading can change (`Linker.ready`), so a
# chain of sources N files deep (`Linker.depth`) settles in N waves; at least this
# many, at most MAX_LINK_WAVES (a note says which files the bound left unsettled)
LINK_WAVES = 8
MAX_LINK_WAVES = 32
# and each file read with a context at most this often: notebooks that `%run` each other
# may grow a value at each reading (`A = B + "_a"`, `B = A + "_b"`), which no wave ends
MAX_LINKED_READINGS = 3


@dataclass(frozen=True)
class RunsIn:
    """Which notebooks run which (`dbutils.notebook.run`): child -> the files that run
    it; and child -> (where the thread pool is made, which call) for the children a
    pool's calls run at once (`Linker.pooled_runs`)."""

    callers: dict[str, set[str]]
    pooled: dict[str, Pools]


def _link(
    files: _Files,
    inputs: Inputs,
    workflows: Workflows | None,
    store: Cache | None,
    root: Path,
    read_document: DocumentReader | None = None,
) -> RunsIn:
    """Read again, with its `Context`, every file that other files or its jobs give
    values (see `delta_lint.link`); the result is cached by content and context.
    What a file gives others is what it was last read as, so a notebook `%run` by a
    notebook that another one `%run`s reaches the last after a second round.
    Returns which files run which notebooks, and which a thread pool's calls run
    (for the schedule)."""
    from delta_lint.link import Linker

    runs_in: dict[str, set[str]] | None = None  # from the first reading: a context changes no notebook call
    pooled: dict[str, Pools] = {}
    done: dict[int, Context] = {}
    project = [(rel, files.summaries[i].links) for i, (_, rel, *_) in enumerate(inputs.files)]
    included = _included_from_outside(project, root, files.memo)
    read_document = read_document or DocumentReader(root)
    if files.deferred:  # (they run no child notebook: `project` tells which files run which)
        first = Linker(project + included, workflows, read_document)
        runs_in, pooled = first.runs_in(), first.pooled_runs()
        _read_deferred(files, inputs, included, workflows, read_document)
        done.update(files.contexts)  # read with these: again only when a round changes one
    readings = dict.fromkeys(files.contexts, 1)  # file -> its readings with a context
    # a file of a cycle of sources -> its links read with nothing from its cycle, and
    # the context they were read with (see `Linker.cycle`)
    base: dict[int, Links | None] = {}
    base_done: dict[int, Context] = {}
    kept: dict[int, tuple[Context, FileResult]] = {}  # base readings, by file, with their contexts
    cut: dict[int, int] = {}  # file -> the helpers its last context left out (`Linker.helpers_left`)

    def changed(linker: Linker) -> dict[int, Context]:
        found = linker.contexts()
        for i in done.keys() - found.keys():
            # read with a context before, none now (a function another file named is
            # no longer called there): read again without one, or its writes stay lost
            found[i] = Context()
        for i in _job_run_sources(linker, files, inputs):
            found[i] = replace(found.get(i, Context()), scheduled=True)
        differ = {i: c for i, c in found.items() if i < len(inputs.files) and done.get(i) != c}
        unsettled.clear()
        unsettled.update(i for i in differ if readings.get(i, 0) >= MAX_LINKED_READINGS)
        return {i: c for i, c in differ.items() if i not in unsettled}

    unsettled: set[int] = set()  # files whose context changed again past their readings
    waves = LINK_WAVES
    wave = 0
    while True:
        project = [(rel, files.summaries[i].links) for i, (_, rel, *_) in enumerate(inputs.files)]
        linker = Linker(project + included, workflows, read_document, base)
        if wave == waves:  # the bound: which files would be read again
            unsettled.update(changed(linker))
            break
        if wave == 0:
            waves = min(MAX_LINK_WAVES, max(LINK_WAVES, linker.depth() + 1))
        if runs_in is None:
            runs_in, pooled = linker.runs_in(), linker.pooled_runs()
        contexts = changed(linker)
        bases = {i: c for i, c in linker.base_contexts().items() if i < len(inputs.files) and base_done.get(i) != c}
        # a cycle's base readings once no reading below it is pending
        bases = {i: c for i, c in bases.items() if i not in linker.behind(bases, contexts)}
        if bases:
            base_done.update(bases)
            for i, c in list(bases.items()):  # its last reading was made with that context: it is the one
                last = files.contexts.get(i)
                if last == c or (last is None and not c and i not in files.later and i not in files.deferred):
                    base[i] = files.summaries[i].links
                    del bases[i]
            base.update(_read_base(files, inputs, bases, store, kept))
            linker = Linker(project + included, workflows, read_document, base)
            contexts = changed(linker)
        if not contexts:
            break
        for i in contexts:
            cut[i] = linker.helpers_left.get(i, 0)
        if wave < waves - 1:  # the last wave reads every file whose context changed
            # a module told only that its importers now call a function of it gives them
            # what it gave: they are read in the same wave (one wave per level of a
            # package's chain of helpers, not two)
            blocking = {
                i for i, c in contexts.items() if replace(c, called=()) != replace(done.get(i, Context()), called=())
            }
            contexts = {i: contexts[i] for i in linker.ready(contexts, blocking)}
        _read_linked(files, inputs, contexts, store, kept)
        done.update(contexts)
        readings.update((i, readings.get(i, 0) + 1) for i in contexts)
        wave += 1
    for i in sorted(files.later - done.keys()):  # left without a context by the waves: read alone
        _read_plain(files, inputs, i)
    inputs.diagnostics.extend(_helpers_left(inputs, {i: n for i, n in cut.items() if n and i in done}))
    inputs.diagnostics.extend(_unsettled(inputs, unsettled, waves))
    return RunsIn(runs_in or {}, pooled)


def _unsettled(inputs: Inputs, files: set[int], waves: int) -> list[Diagnostic]:
    """The note of each file whose context the link stage's bounds left changing:
    what other files give it is that of an earlier reading of theirs, or missing."""
    if not files:
        return []
    from delta_lint.frontend.values.resolver import BUDGET_SPENT

    return [
        Diagnostic(
            BUDGET_SPENT,
            Location(inputs.files[i][0], 1, 1),
            f"what other files give it was still changing when the link stage stopped (at {waves} waves, "
            f"{MAX_LINKED_READINGS} readings of a file with a context): values it takes from them may be "
            "those of an earlier reading, or unknown",
            "warning",
        )
        for i in sorted(files)
        if i < len(inputs.files)
    ]


def _helpers_left(inputs: Inputs, left: dict[int, int]) -> list[Diagnostic]:
    """The note of each file read without some helpers its code names, past the
    budget of helper text a file is given (`link.MAX_HELPER_TEXT`)."""
    if not left:
        return []  # (the value layer's rules are not imported for nothing)
    from delta_lint.frontend.values.resolver import BUDGET_SPENT
    from delta_lint.link import MAX_HELPER_TEXT

    return [
        Diagnostic(
            BUDGET_SPENT,
            Location(inputs.files[i][0], 1, 1),
            f"read without {n} of the helpers (functions, methods) its imports and `%run`s offer that its code "
            f"names: their text is past {MAX_HELPER_TEXT:,} characters, the analysis budget of a file; "
            "writes they make here are not seen",
            "warning",
        )
        for i, n in sorted(left.items())
    ]


def _job_run_sources(linker: Linker, files: _Files, inputs: Inputs) -> list[int]:
    """The files a job's task runs that their first reading skipped as a Lakeflow
    pipeline's source and that no pipeline of the project has: Databricks SQL a
    job runs (`CREATE OR REFRESH STREAMING TABLE ... AS` on a warehouse), job code,
    read as such (its pipeline objects are said, not left unread)."""
    from delta_lint.frontend.recognise import LAKEFLOW

    return [
        i
        for i, (_, rel, *_) in enumerate(inputs.files)
        if (summary := files.summaries[i]) is not None
        and summary.skipped == LAKEFLOW
        and rel in linker.runs_of
        and rel not in linker.pipeline_of
    ]


def _read_deferred(
    files: _Files,
    inputs: Inputs,
    included: list[tuple[str, Links | None]],
    workflows: Workflows | None,
    read_document: DocumentReader,
) -> None:
    """Read the notebooks `_summaries` deferred, each once where that gives what two
    readings give. A deferred notebook's reading without context is what the link
    stage gives others from it, and what its own context is made of: it is read so
    first when another file takes from it (see `_taken_from`) or its jobs give it
    values. Otherwise its context is made with `included_links`,
    which is what the reading without context gives its context (its `%run`s and
    words; nothing else in its text gives any), and it is read once with it; if
    that reading's words or `%run`s are not those (cells that do not parse are
    read apart) or it gives what its text was taken not to, it is read again without
    context and its context made again."""
    from delta_lint.link import Linker

    while True:
        while True:
            project = [(rel, files.summaries[i].links) for i, (_, rel, *_) in enumerate(inputs.files)]
            linker = Linker(project + included, workflows, read_document)
            needed = sorted(_taken_from(linker, files.deferred))
            if not needed:
                break
            for i in needed:
                _read_plain(files, inputs, i)
        every = linker.contexts()
        contexts = {i: c for i, c in every.items() if i in files.deferred}
        # one whose includes are read again with their own context is read after them (`_link`)
        later = linker.behind(contexts, [i for i in every if i < len(inputs.files) and i not in files.deferred])
        contexts = {i: c for i, c in contexts.items() if i not in later}
        static = dict(files.deferred)
        files.deferred.clear()
        _read_linked(files, inputs, contexts, None)
        for i in sorted(static.keys() - contexts.keys() - later):
            _read_plain(files, inputs, i)
        files.later.update(later)
        wrong = [i for i in contexts if not _as_included(files.summaries[i].links, static[i][0])]
        if not wrong:
            return
        for i in contexts:  # read again below, with the context the true first readings give
            files.contexts.pop(i, None)
            files.linked_keys.pop(i, None)
            files.summaries[i] = FileSummary.of(FileResult(inputs.files[i][0], links=static[i][0]))
            files.loaded.pop(i, None)
            files.deferred[i] = static[i]
        for i in wrong:
            _read_plain(files, inputs, i)


def _as_included(read: Links | None, static: Links) -> bool:
    """Whether a reading with context gives the `%run`s and words `included_links`
    gave its context, and none of what `included_links` takes its text not to give:
    a check on the reading itself, which also sees what the helpers its context
    gives bring (when it fails, the notebook is read alone, then with its context)."""
    return (
        read is not None
        and (read.runs, read.names) == (static.runs, static.names)
        and not (read.jobs or read.notebooks or read.task_values or read.task_value_reads or read.documents)
    )


def _taken_from(linker: Linker, deferred: dict[int, tuple[Links, frozenset[str]]]) -> set[int]:
    """The deferred files whose reading without context the link stage takes more
    from than `included_links` gives: those another file `%run`s or imports or runs
    as a child notebook, those whose jobs give them values (which their reading's
    inputs choose), and those whose import statements name a module of the project
    (which would give them values and helpers)."""
    from delta_lint.link import run_target

    out = set(linker.callers)
    modules = linker.module_names()
    for j, links in enumerate(linker.links):
        path = linker.paths[j]
        if links is None:
            continue
        if path in linker.runs_of or path in linker.pipeline_of or path in linker.dbt_of:
            out.add(j)
        if j in deferred and not modules.isdisjoint(deferred[j][1]):
            out.add(j)
        for text in links.runs:
            out.add(linker.notebook(path, run_target(text)))
        for module, name, _ in links.imports:
            out.add(linker.module(path, module))
            if name not in ("", "*"):  # `from package import module`
                out.add(linker.module(path, f"{module}.{name}" if module.strip(".") else module + name))
    return out & deferred.keys()


def _read_plain(files: _Files, inputs: Inputs, i: int) -> None:
    """A deferred notebook's reading without context, as `_summaries` would have read it."""
    files.deferred.pop(i, None)
    data = inputs.data(i)
    display, rel, suffix, _, _ = inputs.files[i]
    inputs.stats.files_analysed += 1
    result = (
        data
        if isinstance(data, FileResult)
        else analyze_data(data, suffix, display, placed(None, display, rel), memo=files.memo)
    )
    files.loaded[i], files.summaries[i] = result, FileSummary.of(result)


MAX_DOCUMENT_BYTES = 256 * 1024
DOCUMENT_SUFFIXES = (".yml", ".yaml", ".json", ".sql")
TEXT_DOCUMENTS = (".sql",)  # read as their text (`open(p).read()`), not parsed


class DocumentReader:
    """The project's YAML and JSON documents that its code loads (`load_config("dev")`),
    by path relative to the configuration root, as plain values: read once per run,
    only inside the root, YAML with `config.load_yaml`'s guards (no aliases). In a
    git work tree only documents git tracks are read: a credentials file a CI step
    leaves in the checkout (untracked, often ignored) is never loaded, so its values
    cannot reach a table name or a message. Git is asked once, at the first document.
    A document that cannot be read is None: the code's value stays unknown."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._read: dict[str, object] = {}
        self._tracked: frozenset[str] | None = None
        self._listed = False
        self._files: ProjectFiles | None = None

    def tracked(self) -> frozenset[str] | None:
        """The files git tracks under the root, relative to it; None outside a git
        work tree. When git cannot list them, nothing counts as tracked."""
        if not self._listed:
            self._listed = True
            if repository_top(self.root) is not None:
                self._tracked = _git_tracked(self.root)
        return self._tracked

    def __call__(self, rel: str) -> object:
        if rel not in self._read:
            self._read[rel] = self._load(rel)
        return self._read[rel]

    def _load(self, rel: str) -> object:
        from delta_lint.frontend.values.listing import ProjectFiles, is_listing

        if is_listing(rel):  # which project files a pattern matches (`values.listing`)
            if self._files is None:
                self._files = ProjectFiles.walked(self.root, self.tracked())
            return self._files.answer(rel)
        if not rel.endswith(DOCUMENT_SUFFIXES) or rel.startswith(("/", "..")):
            return None
        tracked = self.tracked()
        if tracked is not None and rel not in tracked:
            return None
        path = self.root / rel
        try:
            text = read_input_text(path, self.root, MAX_DOCUMENT_BYTES)
            if rel.endswith(TEXT_DOCUMENTS):
                return text
            if rel.endswith(".json"):
                value = json.loads(text)
            else:
                value, _ = load_yaml(text, path, what="document")
        except (InputRefused, ConfigError, ValueError, RecursionError):
            return None
        try:  # plain JSON values only (YAML dates become text): they key the cache
            return json.loads(json.dumps(value, default=str))
        except (ValueError, TypeError, RecursionError):
            return None


def _included_from_outside(
    project: list[tuple[str, Links | None]], root: Path, memo: FrontEndMemo
) -> list[tuple[str, Links | None]]:
    """Notebooks the project `%run`s that are not among the checked files: beside
    them in the project (`check nb.py`, as pre-commit passes changed files, of a
    notebook that `%run`s `./setup`), or above the checked folder inside its
    repository (`%run ../../_resources/00-global-setup`). Read for what they define
    and leave (values, the catalog and schema, helpers), never reported, so a
    notebook checked alone reads as it does in the whole project. Paths are
    relative to the configuration root, as the project's own; outside a git work
    tree nothing above the root is read."""
    from delta_lint.link import MAX_INCLUDED_FROM_OUTSIDE, outside_runs

    top = repository_top(root)
    boundary = top if top is not None else root
    out: list[tuple[str, Links | None]] = []
    known = {rel for rel, _ in project}
    pending = list(project)
    while pending and len(out) < MAX_INCLUDED_FROM_OUTSIDE:
        rel, links = pending.pop(0)
        for target in outside_runs(rel, links, known, above_root=top is not None):
            known.add(target)
            path = root / target
            if not path.is_file():
                continue
            try:
                data = read_input(path, boundary)
            except (InputRefused, OSError):
                continue
            summary = FileSummary.of(analyze_data(data, path.suffix, target, memo=memo))
            out.append((target, summary.links))
            pending.append((target, summary.links))
    return out


def _git_tracked(root: Path) -> frozenset[str]:
    """`git ls-files` under `root`, paths relative to it (the index's list: no
    command of the repository's configuration runs, `core.fsmonitor` is off)."""
    import subprocess

    try:
        proc = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--", "."],
            cwd=root,
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    if proc.returncode != 0:
        return frozenset()
    return frozenset(os.fsdecode(name) for name in proc.stdout.split(b"\0") if name)


def _read_base(
    files: _Files,
    inputs: Inputs,
    contexts: dict[int, Context],
    store: Cache | None,
    kept: dict[int, tuple[Context, FileResult]],
) -> dict[int, Links | None]:
    """The links of files of a cycle of sources read with contexts their cycle gave
    nothing to (`Linker.base_contexts`): what they give the others of their cycle.
    The files' own readings (their summaries, findings) stay as they are; each
    reading is kept in `kept` with its context, for `_read_linked` to take where the
    file's own context is that one (its cycle gives it nothing more)."""
    keys = {i: _linked_key(inputs.files[i][4], c) if c else inputs.files[i][4] for i, c in contexts.items()}
    hits = store.get_summaries(list(keys.values())) if store is not None else {}
    out: dict[int, Links | None] = {}
    fresh = {}
    for i, context in sorted(contexts.items()):
        if keys[i] in hits:
            out[i] = hits[keys[i]].links
            inputs.stats.files_from_cache += 1
            continue
        data = inputs.data(i)
        if isinstance(data, FileResult):
            out[i] = data.links
            continue
        display, rel, suffix, _, _ = inputs.files[i]
        inputs.stats.files_analysed += 1
        given = placed(context if context else None, display, rel)
        result = analyze_data(data, suffix, display, given, files.memo)
        out[i] = result.links
        kept[i] = (context, result)
        if store is not None and context:
            try:
                fresh[keys[i]] = encode_entry(result, FileSummary.of(result))
            except (TypeError, ValueError, RecursionError):  # a value the cache cannot hold: not cached
                pass
    if store is not None and fresh:
        store.put_many(fresh)
    return out


def _read_linked(
    files: _Files,
    inputs: Inputs,
    contexts: dict[int, Context],
    store: Cache | None,
    kept: dict[int, tuple[Context, FileResult]] | None = None,
) -> None:
    """Read each file with its context (`kept`: readings made already, with theirs)."""
    kept = kept if kept is not None else {}
    keys = {i: _linked_key(inputs.files[i][4], context) for i, context in contexts.items()}
    hits = store.get_summaries(list(keys.values())) if store is not None else {}
    fresh = {}
    for i, context in sorted(contexts.items()):
        files.contexts[i] = context
        files.linked_keys[i] = keys[i]
        files.loaded.pop(i, None)
        if keys[i] in hits:
            files.summaries[i] = hits[keys[i]]
            inputs.stats.files_from_cache += 1
            continue
        data = inputs.data(i)
        if isinstance(data, FileResult):
            continue
        display, rel, suffix, _, _ = inputs.files[i]
        made = kept.pop(i, None)
        if made is not None and made[0] == context:
            files.loaded[i], files.summaries[i] = made[1], FileSummary.of(made[1])
            continue  # (in the store already, under the same key)
        inputs.stats.files_analysed += 1
        result = analyze_data(data, suffix, display, placed(context, display, rel), files.memo)
        summary = FileSummary.of(result)
        asked = files.summaries[i].links
        if (
            context
            and asked is not None
            and asked.calls
            and (summary.links is None or summary.links.calls != asked.calls)
        ):
            # a reading given the procedures its CALLs name asks for them no more: what
            # it asks stays what its reading without them asked, or its context would
            # empty, and its reading again ask once more
            links = summary.links if summary.links is not None else asked
            calls = list(dict.fromkeys([*asked.calls, *links.calls]))
            summary = replace(summary, links=replace(links, calls=calls))
        files.loaded[i], files.summaries[i] = result, summary
        if store is not None:
            try:
                fresh[keys[i]] = encode_entry(result, summary)
            except (TypeError, ValueError, RecursionError):  # a value the cache cannot hold: not cached
                pass
    if store is not None and fresh:
        store.put_many(fresh)


# marks a run's context that holds the tables the workload places in storage
_LOCATED = "\nlocated:"


def _declared_locations(summaries: list[FileSummary]) -> tuple[tuple[str, str, str], ...]:
    """Where the files' statements place tables in storage (`Links.located`), for
    `TableNames.of`: a path and the name its location gives are one table."""
    found = {
        (str(kind), str(name), str(location))
        for summary in summaries
        if summary.links is not None
        for kind, name, location in summary.links.located
    }
    return tuple(sorted(found))


def _non_delta_tables(summaries: list[FileSummary], names: TableNames) -> set[str]:
    """Tables the project creates in another format (`USING parquet`, a DataFrame
    written with `.format("parquet")`): writes to them elsewhere are not Delta writes."""
    return {
        names.qualify(name) for summary in summaries if summary.links is not None for name in summary.links.non_delta
    }


def _with_defined_jobs(workflows: Workflows, files: _Files, inputs: Inputs, config: Config) -> Workflows:
    """The workflows and the jobs job code defines as literal dicts (a RUNME
    notebook's `job_json`), when the bundle and Jobs JSON do not define them."""
    from delta_lint.bundle import add_defined_jobs

    defined = [
        (rel, summary.links.jobs)
        for (_, rel, *_), summary in zip(inputs.files, files.summaries)
        if summary.links is not None and summary.links.jobs
    ]
    return add_defined_jobs(workflows, defined, config.root)


def _linked_key(key: str, context: Context) -> str:
    return "linked:" + hashlib.blake2b(f"{key}\0{context.key()}".encode(), digest_size=20).hexdigest()


def _summaries(
    inputs: Inputs,
    store: Cache | None,
    on_file,
    jobs: int | None,
    meanwhile: Callable[[], None] | None = None,
    defer: bool = False,
) -> _Files:
    """Summaries from the cache where the file is unchanged; front ends for the rest.
    `meanwhile` runs once, while the front-end workers (if any) are busy. The files'
    front ends start the run's memo, which the run's later readings go on with.

    `defer` (a run that links, without a cache): notebooks that `%run` others and
    whose text gives others nothing else (`frontend.included_links`) are not read
    here but by `_link`, once with their context where no other file needs their
    reading without it. With a cache their first reading is kept for later runs
    (and for re-checks, which compare an edited file's links with it): read here."""
    from delta_lint.frontend import included_links

    memo = FrontEndMemo()
    keys = [key for _, _, _, data, key in inputs.files if not isinstance(data, FileResult)]
    hits = store.get_summaries(keys) if store else {}
    summaries: list[FileSummary | None] = []
    loaded: dict[int, FileResult] = {}
    misses = []
    for index, (display, _, suffix, data, key) in enumerate(inputs.files):
        if data is None and key not in hits:  # vouched for by the stat index, but not in the cache: read it now
            data = inputs.data(index)
            key = inputs.files[index][4]
        if isinstance(data, FileResult):
            loaded[index] = data
            summaries.append(FileSummary.of(data))
        elif key in hits:
            inputs.stats.files_from_cache += 1
            summaries.append(hits[key])
        else:
            summaries.append(None)
            misses.append((index, data, suffix, display, key))
    deferred: dict[int, tuple[Links, frozenset[str]]] = {}
    if defer and store is None:
        for miss in list(misses):
            index, data, suffix, display, _ = miss
            static = included_links(data, suffix, display)
            if static is not None:
                deferred[index] = static
                summaries[index] = FileSummary.of(FileResult(display, links=static[0]))
                misses.remove(miss)
    done = len(summaries) - len(misses)
    inputs.stats.files_analysed += len(misses)
    fresh = {}
    statements = 0
    ran: list[bool] = []

    def once() -> None:
        if meanwhile is not None and not ran:
            ran.append(True)
            meanwhile()

    workers = front_end_workers(jobs, len(misses), sum(len(data) for _, data, *_ in misses))
    if workers > 1:
        inputs.stats.front_end_workers += workers
    rels = [rel for _, rel, *_ in inputs.files]
    for (index, _, _, _, key), (result, summary, entry, parsed) in zip(
        misses, _run_front_ends(misses, rels, workers, bool(store), memo, once)
    ):
        statements += parsed
        loaded[index] = result
        summaries[index] = summary
        if entry is not None:
            fresh[key] = entry
        done += 1
        if on_file is not None:
            on_file(done, len(summaries))
    once()  # no file to analyse: nothing ran it
    if store is not None:
        store.put_many(fresh)
    files = _Files(inputs, store, summaries, loaded, memo, deferred=deferred)  # type: ignore[arg-type] - every slot is filled now
    files.statements, files.memo_before = statements, memo.statements_read
    return files


def _check(
    inputs: Inputs,
    workflows_or_loader: Workflows | Callable[[], Workflows],
    config: Config,
    spark: str | None,
    refresh: bool,
    read: ReadSettings | None,
    on_file: Callable[[int, int], None] | None,
    store: Cache | None,
    jobs: int | None,
    on_stage: Callable[[str | None], None] | None = None,
    chosen: tuple[Path | None, str | None] = (None, None),
) -> tuple[RunResult, _Project]:
    """The run's stages after gathering (see `pipeline`), and what it worked out
    before the engine (for `_recheck`). `chosen`: the bundle and target named on the
    command line, part of every table's key (two targets of one bundle read the same
    files into different schedules)."""
    from delta_lint.bundle import Workflows
    from delta_lint.schedule import build_schedule
    from delta_lint.settings import TableNames

    loaded_workflows: list[Workflows] = []

    def load_workflows_now() -> None:
        if isinstance(workflows_or_loader, Workflows):
            loaded_workflows.append(workflows_or_loader)
        else:
            loaded_workflows.append(workflows_or_loader())

    files = _summaries(inputs, store, on_file, jobs, load_workflows_now, defer=True)
    workflows = loaded_workflows[0]
    scheduled = _with_defined_jobs(workflows, files, inputs, config)
    read_document = DocumentReader(config.root)  # one per run: `reread` asks it again
    first_links = [s.links for s in files.summaries]  # what a re-check compares an edited file's with
    runs_in = _link(files, inputs, scheduled, store, config.root, read_document)
    # which notebooks run which is part of the schedule every table's result depends on
    context = (
        _context_digest(config, scheduled)
        + repr(chosen)
        + repr(sorted((k, sorted(v)) for k, v in runs_in.callers.items()))
        + repr(sorted(runs_in.pooled.items()))
    )
    # where the workload places tables in storage names them: part of every table's key
    declared = _declared_locations(files.summaries)
    if declared:
        context += _LOCATED + repr(declared)
    rel_paths = inputs.rel_paths
    writers: dict[str, set[int]] = defaultdict(set)  # table -> files that write it or declare its settings
    first: dict[str, Location] = {}
    names = TableNames.of(config, declared)  # the run's: every stage below names tables by it
    non_delta = _non_delta_tables(files.summaries, names)
    for index, summary in enumerate(files.summaries):
        for raw, location in summary.tables.items():
            name = names.qualify(raw)
            if name in non_delta:
                continue
            writers[name].add(index)
            if name not in first or location < first[name]:
                first[name] = location
    for index, summary in enumerate(files.summaries):
        for raw in summary.ddl_tables:
            name = names.qualify(raw)
            if name in first:
                writers[name].add(index)
    if read is None:
        from delta_lint.settings.live import read_settings

        read = read_settings(set(first), config, spark, refresh, store=store, on_stage=on_stage, naming=names)
    stats = inputs.stats
    project = _Project(
        inputs,
        files,
        first_links,
        config,
        context,
        names,
        non_delta,
        writers,
        first,
        read,
        build_schedule(config, rel_paths, scheduled, runs_in.callers, stats, runs_in.pooled),
        task_diagnostics(scheduled, config.root, inputs.cwd),
        scheduled,
        workflows,
        read_document,
        runs_in=runs_in,
    )
    return _judge(project, store, jobs, {}, stats, read.engine_started, len(read.read_now)), project


def _judge(
    p: _Project,
    store: Cache | None,
    jobs: int | None,
    table_keys: dict[str, str],
    stats: RunStats,
    engines_started: bool = False,
    tables_read_live: int = 0,
) -> RunResult:
    """The run from the engine on: each table's findings (kept in `p.results` from an
    earlier run of the project while its key, `table_keys`, is unchanged; else from the
    cache, else judged now), the findings across tables, the files' diagnostics, and
    the run's result. `table_keys` holds the keys already worked out (a re-check
    gives those of the tables its changed files write); the rest are worked out here."""
    from delta_lint.engine import Engine, diagnostics_as_findings
    from delta_lint.link import Linker
    from delta_lint.schedule import run_notes
    from delta_lint.settings import resolve_settings

    config, inputs, files, read, names, first = p.config, p.inputs, p.files, p.read, p.names, p.first
    writers, schedule, tasks_diags, scheduled = p.writers, p.schedule, p.tasks_diags, p.scheduled
    if schedule.stats is not stats:  # a re-check counts in its own
        schedule.stats = schedule.meetings.stats = stats
    settings_diags = [
        Diagnostic(
            SETTINGS_NOT_READ,
            first[name],
            f"settings of `{name}` were not read: {why}; {_fallback(name, read, config, names)}",
            "info",
        )
        for name, why in sorted(read.problems.items())
        if name in first
    ]
    settings_diags += tasks_diags
    engine = Engine(config, schedule, read=read, names=names)
    table_keys = {
        name: table_keys.get(name) or _table_key(p.context, name, read, writers[name], inputs, files) for name in first
    }
    kept = {table_keys[name]: entry for name, entry in p.results.items() if p.table_keys.get(name) == table_keys[name]}
    # a project restored with its last output kept per finding (`patch`): the tables
    # whose key is unchanged are neither decoded nor judged, their output is copied
    same: set[str] = set()
    if p.output_index is not None and p.kept is not None and p.changed is not None and p.shared_sources is not None:
        same = {n for n, key in table_keys.items() if p.table_keys.get(n) == key and n in p.shared_sources}
        same -= set(p.kept.errored)
    wanted = sorted(set(table_keys.values()) - set(kept) - {table_keys[name] for name in same})
    if kept and store is not None and store.memory is not None:  # a full run after this one asks for them
        store.memory.mark("tables.value", kept)
    entries = (store.get_tables(wanted) if store is not None else {}) | kept
    todo = sorted(name for name, key in table_keys.items() if key not in entries and name not in same)
    loaded = files.load({i for name in todo for i in writers[name]})
    intents = [i for r in loaded.values() for i in r.intents]
    by_table = engine.by_table(intents)
    settings = resolve_settings(set(todo), intents, config, engine.profile, names, read)
    meetings_before = _recall_meetings(store, schedule.meetings) if todo else None  # none asked otherwise
    checked, worker_meetings, worker_described, worker_stats = _check_tables(engine, todo, by_table, settings, jobs)
    stats.add(worker_stats)
    fresh = {table_keys[name]: checked[name] for name in todo}
    if store is not None:
        store.put_tables(fresh)
        if meetings_before is not None:
            _keep_meetings(store, schedule.meetings, meetings_before, worker_meetings, worker_described)
        if not kept:  # a re-check leaves bounding the cache to whole runs
            store.prune("tables", list(table_keys.values()))
            store.prune("files", [key for *_, key in inputs.files if key] + list(files.linked_keys.values()))
    entries.update(fresh)
    results = {name: entries[key] for name, key in table_keys.items() if name not in same}
    before, p.table_keys, p.results = p.results, table_keys, results
    internal = [e for name in sorted(results) for e in results[name].errors]
    views = p.views
    if views is None or p.changed is None:
        views = p.views = _Views.of(p)
    else:
        views.patch(p, p.changed)
    # checkpoints and transaction ids are checked across tables on every run, from
    # the summaries: the files naming them need not be decoded; a re-check whose
    # files name the same ones as before, under the same settings sources, keeps
    # the last findings (a project restored from the cache never decodes them)
    sources = {name: results[name].source if name in results else p.shared_sources[name] for name in table_keys}  # type: ignore[index] - `same` is of them
    if (
        p.changed is not None
        and p.shared_sources == sources
        and all(_same_shared(p, i, s) for i, s in p.changed.items())
    ):
        shared = p.shared
    else:
        shared = engine.check_shared(views.shared_intents(p), sources)
        p.shared, p.shared_sources = shared, sources
    file_diags = [d for found in views.diags.values() for d in found]
    run_diags = inputs.diagnostics + settings_diags + file_diags
    all_diags = run_diags + internal
    others = shared + diagnostics_as_findings(all_diags)
    if kept and _exactly(others) == _exactly(p.others):
        others = p.others  # the same findings: where they are in the last run's list
    merged = _merged(p, before, others) if kept else None
    if merged is None:
        findings = sorted(
            [f for name in sorted(results) for f in results[name].findings] + others, key=Finding.sort_key
        )
        views.counts = None
    else:
        findings, dropped, added = merged
    p.others = others
    is_selected = lambda rule: selected(rule, config.select, config.ignore)  # noqa: E731
    paths = views.paths
    scans = {paths[i]: scan for i, scan in views.scans.items()}
    rel_of = views.rel_of
    patch = None
    if same:
        patch = _patch(p, results, others, same, table_keys, engine, scans, stats, run_diags, jobs)
        views.counts = views.named = None
    elif views.counts is None or views.named is None:
        views.counts = Counter(f.location.path for f in findings)
        views.named = _paths_named(findings, scans, rel_of)
    elif views.count(dropped, added) or set(scans) != set(views.named_scans):
        views.named = _paths_named(findings, scans, rel_of)
    views.named_scans = list(scans)

    # `advise` judges the run again under changes: the findings it compares are the
    # ones the run reports (selected, unsuppressed), from the tables' findings
    def finish_tables(table_findings: list[Finding]) -> list[Finding]:
        everything = sorted(table_findings + others, key=Finding.sort_key)
        return finish(everything, Suppressions(scans, rel_of), Gate.of(config, cwd=inputs.cwd)).findings

    def visible(table_findings: list[Finding]) -> list[Finding]:  # without the notes on unused suppressions
        out = [f for f in table_findings if is_selected(f.rule)]
        return suppress.apply(out, scans, config.per_file_ignores, rel_of, is_selected)[0]

    def reread(display: str, data: bytes, workflows: Workflows) -> FileResult:
        index = paths.index(display)
        _, rel, suffix, _, _ = inputs.files[index]
        result = analyze_data(data, suffix, display, placed(None, display, rel), memo=files.memo)
        links = [(r, files.summaries[i].links) for i, (_, r, *_) in enumerate(inputs.files)]
        links[index] = (rel, FileSummary.of(result).links)
        context = Linker(links, workflows, p.read_document).contexts().get(index)
        return analyze_data(data, suffix, display, placed(context, display, rel), files.memo) if context else result

    pairing = None
    if store is None:  # every table was judged in this run
        # the tables judged (not a table the project keeps in another format: no settings)
        judged = {name: group for name, group in by_table.items() if name in settings}
        pairing = Pairing(engine, judged, settings, schedule, scheduled, reread, finish_tables, visible)
    stats.statements_parsed = files.statements_parsed()
    stats.engines_started, stats.tables_read_live = int(engines_started), tables_read_live
    return RunResult(
        [files.loaded[i] for i in sorted(files.loaded)],
        findings,
        all_diags,
        read,
        settings,
        tuple(p.workflows.files),
        n_files=len(files.summaries),
        n_intents=views.n_intents,
        skipped={paths[i]: why for i, why in views.skipped.items()},
        analysed=dict(views.analysed),
        suppressions=Suppressions(scans, views.named if views.named is not None else rel_of),
        pairing=pairing,
        stats=stats,
        notes=run_notes(schedule, _pooled_intents(schedule, files, paths, [writers[name] for name in table_keys])),
        tables=results,
        others=others,
        patch=patch,
    )


def _pooled_intents(schedule: Schedule, files: _Files, paths: list[str], writers: list[set[int]]) -> list[Intent]:
    """The intents the run's notes on thread pools read (`schedule.pool_notes`): those
    of the notebooks pools run (`Schedule.pooled_runs`) that write a table the run
    judges (`writers`), as a full run loads them; every such file's, not only those
    of the tables judged in this run (a re-check judges a few, a warm run takes the
    others' findings from the cache). A project whose pools run no notebook has none
    to look for among the writers (a re-check of 10,000 files: 41,000 of them)."""
    if not schedule.pooled_runs:
        return []
    pooled = {i for members in writers for i in members if paths[i] in schedule.pooled_runs}
    return [x for result in files.load(pooled).values() for x in result.intents]


def _merged(
    p: _Project, before: dict[str, TableEntry], others: list[Finding]
) -> tuple[list[Finding], list[Finding], list[Finding]] | None:
    """A re-check's findings in the order a full sort gives them: the last run's
    sorted findings without those of the tables judged again and the findings across
    tables (`p.others`, worked out anew every run), with the new ones inserted where
    they sort; and the findings dropped and added. None (sort them all) when there is no last run, when much changed, or
    when a new finding sorts equal to another: a full sort keeps equal ones in the
    order the tables come, which an insertion cannot promise."""
    import bisect

    previous = p.result.findings if p.result is not None else None
    if previous is None:
        return None
    results = p.results
    dropped = [f for name, e in before.items() if results.get(name) is not e for f in e.findings]
    added = [f for name in sorted(results) if before.get(name) is not results[name] for f in results[name].findings]
    if others is not p.others:
        dropped, added = dropped + p.others, added + others
    if 4 * (len(dropped) + len(added)) > len(previous):
        return None
    key = Finding.sort_key
    out = list(previous)
    for f in dropped:  # found by its key, then by identity among the equal ones
        k = key(f)
        at = bisect.bisect_left(out, k, key=key)
        while at < len(out) and out[at] is not f and key(out[at]) == k:
            at += 1
        if at == len(out) or out[at] is not f:
            return None
        del out[at]
    for f in sorted(added, key=key):
        k = key(f)
        at = bisect.bisect_left(out, k, key=key)
        if at < len(out) and key(out[at]) == k:
            return None
        out.insert(at, f)
    return out, dropped, added


def _patch(
    p: _Project,
    results: dict[str, TableEntry],
    others: list[Finding],
    same: set[str],
    table_keys: dict[str, str],
    engine: Engine,
    scans: dict[str, FileSuppressions],
    stats: RunStats,
    run_diags: list[Diagnostic],
    jobs: int | None,
) -> Patch:
    """The `patch.Patch` of a re-check that judged only `results` (the tables of
    `same` are as the last run left them, not decoded), for the caller to patch
    the last output with; its `complete` decodes the rest (judging again a table
    whose entry another run bounded away meanwhile) and gives every finding in a
    full run's order with the suppressions a full run's result holds."""
    from delta_lint.engine import diagnostics_as_findings
    from delta_lint.patch import Patch
    from delta_lint.settings import resolve_settings

    summaries = p.files.summaries
    scans_changed = any(
        old.suppressions != summaries[i].suppressions
        and (_has_directives(old.suppressions) or _has_directives(summaries[i].suppressions))
        for i, old in (p.changed or {}).items()
    )

    def complete() -> tuple[list[Finding], Suppressions, dict[str, TableEntry], list[Finding]]:
        keys = {name: table_keys[name] for name in same}
        store = Cache(p.config.root)  # the run's is closed by now
        try:
            found = store.get_tables(sorted(keys.values()))
            missing = sorted(name for name, key in keys.items() if key not in found)
            if missing:
                loaded = p.files.load({i for name in missing for i in p.writers[name]})
                intents = [i for r in loaded.values() for i in r.intents]
                settings = resolve_settings(set(missing), intents, p.config, engine.profile, p.names, p.read)
                checked, _, worker_stats = _check_tables(engine, missing, engine.by_table(intents), settings, jobs)
                stats.add(worker_stats)
                fresh = {keys[name]: checked[name] for name in missing}
                store.put_tables(fresh)
                found.update(fresh)
        finally:
            store.close()
        every = {name: results[name] if name in results else found[key] for name, key in table_keys.items()}
        internal = [e for name in sorted(every) for e in every[name].errors]
        everything = others
        if internal != [e for name in sorted(results) for e in results[name].errors]:  # a table judged just now
            everything = p.shared + diagnostics_as_findings(run_diags + internal)
        findings = sorted(
            [f for name in sorted(every) for f in every[name].findings] + everything, key=Finding.sort_key
        )
        named = _paths_named(findings, scans, p.views.rel_of)  # type: ignore[union-attr] - made by `_judge`
        return findings, Suppressions(scans, named), every, everything

    return Patch(p.output_index, set(results), results, others, scans_changed, complete)  # type: ignore[arg-type]


@dataclass
class _Views:
    """What a run's result takes from every file's summary (`_judge`): kept with a
    project, so that a re-check patches the entries of the files it read instead of
    going over a large project's every file again. Files with shared intents,
    diagnostics, suppression comments or a reason they were skipped are few: those
    are kept by file index, in file order."""

    paths: list[str]  # display paths, by file index
    rel_of: dict[str, str]  # display path -> as `per-file-ignores` globs see it
    # checkpoints and transaction ids, not of non-Delta tables (None: not read yet, see `shared_intents`)
    shared: dict[int, list[Intent] | None]
    diags: dict[int, list[Diagnostic]]
    scans: dict[int, FileSuppressions]
    skipped: dict[int, str]
    n_intents: int
    analysed: dict[str, int]  # display path -> intents, for files linted
    counts: Counter[str] | None = None  # findings by their location's path
    named: dict[str, str] | None = None  # `_paths_named` of the last findings
    named_scans: list[str] = field(default_factory=list)  # the paths of the scans it was made with

    @classmethod
    def of(cls, p: _Project) -> _Views:
        paths = [display for display, *_ in p.inputs.files]
        rel_of = p.inputs.rel_paths | {
            d.location.path: display_path(p.inputs.cwd / d.location.path, p.config.root) for d in p.tasks_diags
        }
        views = cls(paths, rel_of, {}, {}, {}, {}, 0, {})
        for i, summary in enumerate(p.files.summaries):
            views._add(p, i, summary)
        return views

    def shared_intents(self, p: _Project) -> list[Intent]:
        """Every file's checkpoint and transaction-id intents, in file order. A
        project restored from the cache knows which files have them, not what they
        are (None): those are read from the files' summaries now."""
        for i, found in self.shared.items():
            if found is None:
                self.shared[i] = _shared_of(p, p.files.summaries[i])
        return [x for found in self.shared.values() for x in found]  # type: ignore[union-attr] - all read now

    def _add(self, p: _Project, i: int, summary: FileSummary) -> None:
        shared = _shared_of(p, summary)
        if shared:
            self.shared[i] = shared
        if summary.diagnostics:
            self.diags[i] = summary.diagnostics
        if _has_directives(summary.suppressions):
            self.scans[i] = summary.suppressions  # type: ignore[assignment] - not None: it has directives
        if summary.skipped:
            self.skipped[i] = summary.skipped
        else:
            self.analysed[self.paths[i]] = summary.n_intents
        self.n_intents += summary.n_intents

    def patch(self, p: _Project, old: dict[int, FileSummary]) -> None:
        """The views after the files of `old` (index -> the summary they had) were read again."""
        flipped = any(bool(old[i].skipped) != bool(p.files.summaries[i].skipped) for i in old)
        kinds = (self.shared, self.diags, self.scans, self.skipped)
        members = [set(kind) for kind in kinds]
        for i, summary in old.items():
            for kind in kinds:
                kind.pop(i, None)
            self.n_intents -= summary.n_intents
            self._add(p, i, p.files.summaries[i])
        for kind, before in zip(kinds, members):
            if set(kind) != before:  # a file came or went: file order again
                ordered = sorted(kind.items())
                kind.clear()
                kind.update(ordered)
        if flipped:  # a file now skipped or now linted: the linted ones in file order again
            summaries = p.files.summaries
            self.analysed = {self.paths[i]: s.n_intents for i, s in enumerate(summaries) if not s.skipped}

    def count(self, dropped: list[Finding], added: list[Finding]) -> bool:
        """Take the findings a re-check dropped and added into `counts`; whether the
        paths the findings name changed (a path's first finding, or its last gone)."""
        counts = self.counts
        assert counts is not None
        delta: Counter[str] = Counter(f.location.path for f in added)
        delta.subtract(f.location.path for f in dropped)
        changed = False
        for path, by in delta.items():
            before = counts.get(path, 0)
            if (before == 0) != (before + by == 0):
                changed = True
            if before + by:
                counts[path] = before + by
            else:
                counts.pop(path, None)
        return changed


def _shared_of(p: _Project, summary: FileSummary) -> list[Intent]:
    """A file's intents the rules judged across tables take, but of non-Delta tables."""
    return [x for x in summary.shared if x.table is None or p.names.qualify(x.table.name) not in p.non_delta]


def _same_shared(p: _Project, i: int, old: FileSummary) -> bool:
    """Whether re-read file `i` gives the rules judged across tables what it gave."""
    return _exactly(_shared_of(p, old)) == _exactly(_shared_of(p, p.files.summaries[i]))


def _exactly(values: list) -> list:
    """Values as compared to tell whether they are the same, the statement sites of
    their locations too (which dataclass equality leaves out)."""
    return [
        (v, v.location.sites, [r.sites for r in getattr(v, "related", ())]) if hasattr(v, "location") else v
        for v in values
    ]


def _has_directives(scan: FileSuppressions | None) -> bool:
    return scan is not None and bool(scan.directives or scan.problems)


def _paths_named(findings: list[Finding], scans: dict, rel_of: dict[str, str]) -> dict[str, str]:
    """`rel_of` for the paths the findings stage can meet: those of findings and of
    suppression comments (it is kept with a cached run)."""
    named = {f.location.path for f in findings} | set(scans)
    return {path: rel for path, rel in rel_of.items() if path in named}


PARALLEL_MIN_INTENTS = 20_000  # below this, forking workers costs more than pairing saves
MEETINGS = "cron-meetings"  # kv key: the rows of schedule.Meetings
DESCRIPTIONS = "cron-descriptions"  # kv key: `Meetings.described`, as [expression, time zone, text] rows
MEETINGS_KEPT = 50_000


def _recall_meetings(store: Cache | None, meetings: Meetings) -> tuple[int, int]:
    """Take in the cron answers and schedule descriptions earlier runs stored (the
    answers themselves when a long-lived caller keeps them in memory: taking in
    50,000 stored rows costs as much as the rest of an editor's save); where this
    run's own begin. A re-check judging a few tables asks for the descriptions of
    every schedule their writers run on: worked out again, they were 0.05 s of
    0.75 and the import of croniter."""
    if store is not None:
        memory = store.memory
        known = memory.find("meetings", MEETINGS) if memory is not None else None
        if isinstance(known, dict):
            meetings.known.update(known)
        else:
            meetings.remember(store.get_value(MEETINGS))
        described = memory.find("meetings", DESCRIPTIONS) if memory is not None else None
        if isinstance(described, dict):
            meetings.described.update(described)
        else:
            _remember_descriptions(meetings, store.get_value(DESCRIPTIONS))
    return meetings.mark(), len(meetings.described)


def _remember_descriptions(meetings: Meetings, rows: object) -> None:
    """Take in stored description rows; rows of any other shape are ignored (a
    damaged cache entry must not stop a run)."""
    if not isinstance(rows, list):
        return
    for row in rows:
        if isinstance(row, list) and len(row) == 3:
            quartz, zone, text = row
            if isinstance(quartz, str) and (zone is None or isinstance(zone, str)) and isinstance(text, str):
                meetings.described.setdefault((quartz, zone), text)


def _keep_meetings(
    store: Cache, meetings: Meetings, since: tuple[int, int], worker_rows: list[list], worker_described: dict
) -> None:
    """Store every cron answer and description known, when this run or its workers
    worked out new ones; keep them in the caller's memory, if any (each depends on
    its schedules alone, so a run may start with all of them)."""
    meetings.remember(worker_rows)
    for cron, text in worker_described.items():
        meetings.described.setdefault(cron, text)
    if worker_rows or meetings.mark() > since[0]:
        store.put_value(MEETINGS, meetings.rows()[-MEETINGS_KEPT:])
    if len(meetings.described) > since[1]:
        rows = [[quartz, zone, text] for (quartz, zone), text in meetings.described.items()]
        store.put_value(DESCRIPTIONS, rows[-MEETINGS_KEPT:])
    if store.memory is not None:
        store.memory.put("meetings", MEETINGS, dict(meetings.known))
        store.memory.put("meetings", DESCRIPTIONS, dict(meetings.described))


def _check_tables(
    engine: Engine, names: list[str], by_table: dict, settings: dict, jobs: int | None
) -> tuple[dict[str, TableEntry], list[list], dict, RunStats]:
    """Each table's findings; tables are independent, so a large run pairs them in
    forked processes (which inherit the intents instead of receiving copies). Not
    after pyspark is imported: a JVM's threads do not survive fork. Also the cron
    schedule answers and descriptions the workers worked out (`Meetings.new_rows`,
    `Meetings.described`), for the cache, and what the workers counted (the run's
    own counters count the rest)."""
    import sys

    workers = jobs if jobs and jobs > 0 else cores()
    size = sum(len(by_table[n]) for n in names)
    if workers <= 1 or size < PARALLEL_MIN_INTENTS or "pyspark" in sys.modules or not _can_fork():
        return dict(_check_some(engine, names, by_table, settings)), [], {}, RunStats()
    shares: list[list[str]] = [[] for _ in range(workers)]
    for i, name in enumerate(sorted(names, key=lambda n: -len(by_table[n]))):
        shares[i % workers].append(name)  # round-robin by size: similar work per worker
    parts = _forked([(_check_share, (engine, by_table, settings, share)) for share in shares if share])
    counted = RunStats()
    for *_, worker in parts:
        counted.add(worker)
    entries = {name: entry for part, *_ in parts for name, entry in part}
    described = {cron: text for _, _, found, _ in parts for cron, text in found.items()}
    return entries, [row for _, rows, _, _ in parts for row in rows], described, counted


def _forked(calls: list[tuple[Callable, tuple]]) -> list:
    """`fn(*args)` of each call, each in a forked process of its own. The arguments
    are inherited through the fork, never copied; only the answers travel back (an
    exception raised in a worker is raised here)."""
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    parent = os.getpid()
    running = []
    with _frozen_for_fork():
        for fn, args in calls:
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_answer, args=(parent, send, fn, args), daemon=True)
            process.start()
            send.close()
            running.append((process, receive))
    answers: list = [None] * len(running)
    waiting = {receive: index for index, (_, receive) in enumerate(running)}
    try:
        while waiting:
            for receive in wait(list(waiting)):
                index = waiting.pop(receive)
                try:
                    ok, value = receive.recv()
                except EOFError:
                    raise RuntimeError(f"a pairing worker stopped (exit code {running[index][0].exitcode})") from None
                if not ok:
                    raise value
                answers[index] = value
    finally:
        for process, receive in running:
            receive.close()
            if process.is_alive():
                process.kill()
            process.join()
    return answers


def _answer(parent: int, send, fn: Callable, args: tuple) -> None:
    die_with_parent(parent)
    try:
        answer = (True, fn(*args))
    except BaseException as err:  # handed to the parent, which raises it
        answer = (False, err)
    send.send(answer)
    send.close()


def _can_fork() -> bool:
    """Asked last: importing multiprocessing (and pickle) is a cost a small run need not pay."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _check_share(
    engine: Engine, by_table: dict, settings: dict, names: list[str]
) -> tuple[list[tuple[str, TableEntry]], list[list], dict, RunStats]:
    meetings = engine.schedule.meetings
    before = meetings.mark()  # a forked worker starts with the parent's answers
    described = set(meetings.described)
    counted = engine.stats.copy()  # and its counts: it hands back what it adds
    found = _check_some(engine, names, by_table, settings)
    new = {cron: text for cron, text in meetings.described.items() if cron not in described}
    return found, meetings.new_rows(before), new, engine.stats.since(counted)


def _check_some(engine: Engine, names: list[str], by_table: dict, settings: dict) -> list[tuple[str, TableEntry]]:
    out = []
    for name in names:
        errors_before = len(engine.internal_errors)
        found = engine.check_table(name, by_table[name], settings[name])
        out.append((name, TableEntry(found, engine.internal_errors[errors_before:], settings[name].source)))
    return out


def _table_key(context: str, name: str, read: ReadSettings, writers: set[int], inputs: Inputs, files: _Files) -> str:
    """A table's engine result is reused while its writers' files (their readings,
    path and place in the schedule), its settings as read and the run's context are
    unchanged. A writer is named by its content's key, or by the key of the content
    its reading was judged with while its reading is unchanged (`_Files.judged`)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{context}\0{name}\0".encode())
    h.update(repr((read.tables.get(name), read.sources.get(name), read.problems.get(name))).encode())
    for index in sorted(writers):
        display, rel, _, _, _ = inputs.files[index]
        h.update(f"\0{display}\0{rel}\0{files.judged.get(index) or files.key(index)}".encode())
    return "table:" + h.hexdigest()


def task_diagnostics(workflows: Workflows, root: Path, cwd: Path) -> list[Diagnostic]:
    """Job tasks whose code delta-lint cannot read (wheels, pipelines, paths outside
    the project): their writes are not checked. Job definition files found in the
    repository that cannot be read are reported at their line. Bundles and job
    definitions name their files relative to the configuration's folder; a finding
    names them relative to the working directory, as every other finding does
    (annotations must point at real files)."""
    out = [Diagnostic(READ_ERROR, where, why, "warning") for where, why in workflows.problems]
    for job in sorted(workflows.jobs.values(), key=lambda j: j.key):
        if job.problem is not None:
            where, why = job.problem
            out.append(Diagnostic(READ_ERROR, where, f"job `{job.key}`: {why}; it may start at any time", "warning"))
    for job in sorted(workflows.jobs.values(), key=lambda j: j.key):
        first = job.tasks.get(job.cycle[0]) if job.cycle else None
        if first is not None and first.location is not None:
            chain = " -> ".join(f"`{k}`" for k in job.cycle)
            out.append(
                Diagnostic(
                    TASK_NOT_ANALYSABLE,
                    first.location,
                    f"job `{job.key}`: the depends_on of tasks {chain} form a cycle, which Databricks refuses; "
                    "delta-lint takes these tasks to run in any order",
                    "error",
                )
            )
        for task in sorted(job.tasks.values(), key=lambda t: t.key):
            if task.problem and task.location is not None:
                out.append(
                    Diagnostic(
                        TASK_NOT_ANALYSABLE,
                        task.location,
                        f"task `{task.key}` of job `{job.key}` is not analysed: {task.problem}",
                        "info",
                    )
                )
    shown = {}
    for d in out:
        if d.location.path not in shown:
            shown[d.location.path] = display_path(root / d.location.path, cwd)
    return [replace(d, location=replace(d.location, path=shown[d.location.path])) for d in out]


def _fallback(name: str, read: ReadSettings, config: Config, names: TableNames) -> str:
    if read.sources.get(name) == "snapshot":
        return "using the snapshot"
    declared = {names.qualify(k.lower()) for k in config.tables}
    return "using the declared settings" if name in declared else "assuming conservative settings"


# -- re-checking a project a long-lived caller keeps ------------------------------------


@dataclass
class _Project:
    """What a run worked out before the engine, kept by a long-lived caller (the
    language server, in its `cache.Memory`) so that the next run, with a few files
    changed, re-reads only those files and re-judges only the tables they write
    (`_recheck`). `first_links` are the files' links as first read (before the link
    stage gave them context): an edit that leaves a file's links as they were
    leaves every file's context, the schedule and the table settings as they were."""

    inputs: Inputs
    files: _Files
    first_links: list[Links | None]
    config: Config
    context: str  # `_context_digest` and the notebooks each file runs: part of every table key
    names: TableNames
    non_delta: set[str]
    writers: dict[str, set[int]]
    first: dict[str, Location]
    read: ReadSettings
    schedule: Schedule
    tasks_diags: list[Diagnostic]
    scheduled: Workflows  # with the jobs the code defines
    workflows: Workflows  # as loaded: what the run's context digest reads
    read_document: DocumentReader
    table_keys: dict[str, str] = field(default_factory=dict)  # each table's key in the last run
    results: dict[str, TableEntry] = field(default_factory=dict)  # each table's findings in the last run
    tree: Tree | None = None  # the project's folders as they were before the last run read them
    result: RunResult | None = None  # the last run's
    overlaid: set[int] = field(default_factory=set)  # files the last run read from an editor's buffer
    others: list[Finding] = field(default_factory=list)  # the last run's findings across tables
    views: _Views | None = None  # what the last run's result took from the summaries
    shared: list[Finding] = field(default_factory=list)  # the last findings across tables
    shared_sources: dict[str, str] | None = None  # the tables' settings sources they were judged with
    changed: dict[int, FileSummary] | None = None  # a re-check's files, with the summaries they had
    index_of: dict[str, int] = field(default_factory=dict)  # absolute path -> its file's index
    runs_in: RunsIn | None = None  # which notebooks run which (the schedule's, `_link`)
    kept: Kept | None = None  # the stored state it was restored from (`_restored`), parts of it not decoded
    read_now: dict[int, bytes] = field(default_factory=dict)  # files the restoring run's `gather` read
    # the last run's output kept per finding for the caller's view: `_judge` decodes only
    # the tables judged again and leaves the output to `patch` (a restored project)
    output_index: OutputIndex | None = None
    # the run asked the bundle listings again (a restoring run, `_kept_context` or
    # `cached_workflows`): a changed file of any kind may be re-read, not only those
    # no listing reads (RECHECK_SUFFIXES)
    listed: bool = False


RECHECK_SUFFIXES = (".sql", ".ipynb")  # files whose content no bundle listing or discovery reads
MAX_RECHECKED = 32  # more changed files than this: a full run


def _project_slot(
    paths: list[Path], config: Config, cwd: Path | None, spark: str | None, bundle: Path | None, target: str | None
) -> str:
    """Where a project's state is kept in a `Memory`: its configuration, options and
    the folders named. Files named beside them must be files discovery finds in those
    folders (`_can_recheck`), so an editor's saves of different files share one state."""
    folders = sorted(os.path.abspath(p) for p in paths if os.path.isdir(p))
    return repr((code_identity(), config, os.path.abspath(cwd or os.getcwd()), spark, bundle, target, folders))


def _can_recheck(project: _Project, paths: list[Path], overlay: dict[Path, bytes] | None) -> bool:
    """Whether a later run of the project may be a re-check: settings not read live
    (they may change between runs), every file named and every buffer a file found
    by discovery, and no notebook `%run` from outside the checked files (read from
    outside the tree `walk` accounts for)."""
    if project.read.mode not in ("none", "snapshot"):
        return False
    inputs = project.inputs
    project.index_of = {os.path.abspath(path): i for i, path in enumerate(inputs.paths)}
    named = [os.path.abspath(p) for p in paths if not os.path.isdir(p)]
    if any(p not in project.index_of for p in [*named, *map(os.path.abspath, overlay or {})]):
        return False
    links = [(rel, project.first_links[i]) for i, (_, rel, *_) in enumerate(inputs.files)]
    if _included_from_outside(links, project.config.root, FrontEndMemo()):
        return False
    for i, (display, rel, suffix, data, key) in enumerate(inputs.files):
        if isinstance(data, bytes):  # read again from disk when needed: the state keeps no file's bytes
            inputs.files[i] = (display, rel, suffix, None, key)
    # nor the statements the run's readings parsed: a re-check counts its own
    project.files.memo, project.files.statements, project.files.memo_before = FrontEndMemo(), 0, 0
    return True


def _overlaid(project: _Project, overlay: dict[Path, bytes] | None) -> set[int]:
    return {project.index_of[os.path.abspath(p)] for p in overlay or {}}


def _recheck(
    p: _Project,
    tree: Tree,
    paths: list[Path],
    overlay: dict[Path, bytes] | None,
    store: Cache,
    jobs: int | None,
) -> RunResult | None:
    """The run of a kept project (`_Project`) with what changed since its last run:
    the buffers of `overlay`, the files read from a buffer last time, the files whose
    signature changed in `tree`. None when it cannot be told so (the caller runs in
    full): a folder's entries changed, a file other than a SQL file or notebook
    changed, the configuration, bundle or snapshot changed, a changed file's links
    (what it gives other files, or its context gave it) changed, a table gained
    its first writer or lost its last, or too many files changed."""
    old = p.tree
    if old is None or old.git != tree.git or old.dirs.keys() != tree.dirs.keys():
        return None
    if any(old.dirs[d][1] != entry[1] for d, entry in tree.dirs.items()):
        return None
    if any(os.path.abspath(x) not in p.index_of for x in paths if not os.path.isdir(x)):
        return None
    changed: dict[int, bytes | None] = {}  # file -> a buffer's bytes, or None: read from disk
    for path in tree.moved:  # the others have their signature of the last walk, not racy
        if old.unchanged(path, tree.files[path]):
            continue
        index = p.index_of.get(path)
        if index is None or not (p.listed or os.path.splitext(path)[1].lower() in RECHECK_SUFFIXES):
            return None
        changed[index] = None
    for i in p.overlaid:
        changed.setdefault(i, None)
    for i, data in p.read_now.items():  # what this run read already is not read again
        if i in changed and changed[i] is None:
            changed[i] = data
    overlaid = set()
    for path, data in (overlay or {}).items():
        index = p.index_of.get(os.path.abspath(path))
        if index is None:
            if os.path.abspath(path) in tree.files:
                continue  # on disk but not a file discovery takes: its buffer is not read either
            return None  # a buffer not saved yet: discovery adds it
        changed[index], overlaid = data, overlaid | {index}
    if len(changed) > MAX_RECHECKED:
        return None
    digest = _context_digest(p.config, p.scheduled)  # the configuration, bundle and snapshot, by content
    if not p.context.startswith(digest):
        return None
    entries: dict[str, tuple[bytes, bytes]] = {}
    same_reading: dict[int, str] = {}
    updates = _reread(p, changed, entries, same_reading, store)
    if updates is None:
        return None
    store.put_many(entries)
    tables = _rewritten(p, {i: fresh[1] for i, (_, _, fresh) in updates.items() if fresh is not None})
    if tables is None:
        return None
    stats = RunStats(files=len(p.inputs.files))
    p.changed = {i: p.files.summaries[i] for i, (_, _, fresh) in updates.items() if fresh is not None}
    for i, (data, key, fresh) in updates.items():
        display, rel, suffix, _, _ = p.inputs.files[i]
        p.inputs.files[i] = (display, rel, suffix, data if i in overlaid else None, key)
        stats.files_read += i not in p.read_now
        if fresh is not None:
            result, summary, linked = fresh
            p.files.summaries[i], p.files.loaded[i] = summary, result
            if linked is not None:
                p.files.linked_keys[i] = linked
            if i in same_reading:
                p.files.judged[i] = same_reading[i]
            else:
                p.files.judged.pop(i, None)
            stats.files_analysed += 1
    p.tree, p.overlaid = tree, overlaid
    if not any(fresh is not None for _, _, fresh in updates.values()) and p.result is not None:
        return p.result  # the same contents as the last run's
    writers, first = tables
    p.writers.update(writers)
    p.first.update(first)
    keys = dict(p.table_keys)
    for name in writers:
        keys[name] = _table_key(p.context, name, p.read, p.writers[name], p.inputs, p.files)
    try:
        p.result = _judge(p, store, jobs, keys, stats)
    finally:
        p.changed = None
    return p.result


def _reread(
    p: _Project,
    changed: dict[int, bytes | None],
    entries: dict[str, tuple[bytes, bytes]],
    same_reading: dict[int, str],
    store: Cache,
) -> dict[int, tuple[bytes, str, tuple[FileResult, FileSummary, str | None] | None]] | None:
    """Each changed file's bytes, key and, when its content changed, its result,
    summary and linked cache key, read as the run read it (with its context, if
    the link stage gave it one); None when a file cannot be read or its links are
    not those it had (other files' contexts may change: a full run). `entries`
    gets the cache entries of the readings (a full run stores its own the same
    way; a project restored from the cache reads them there). `same_reading`
    gets the files whose new content reads as the last did (the same encoded
    result and summary): file -> the key its tables were judged with."""
    out = {}
    before = store.get_entries([p.files.key(i) for i in changed])  # the last readings, as stored
    for i, data in sorted(changed.items()):
        display, rel, suffix, _, old_key = p.inputs.files[i]
        if data is None:
            data = read_file(p.inputs.paths[i], display)
        if not isinstance(data, bytes):
            return None
        key = cache_key(display, data)
        if key == old_key:
            out[i] = (data, key, None)
            continue
        memo = FrontEndMemo()
        result = analyze_data(data, suffix, display, placed(None, display, rel), memo=memo)
        summary = FileSummary.of(result)
        if summary.links != p.first_links[i] and not (
            _but_words(summary.links, p.first_links[i]) and _same_context(p, i, summary.links)
        ):
            return None
        _add_entry(entries, key, result, summary)
        context = p.files.contexts.get(i)
        linked = None
        if context is not None:
            result = analyze_data(data, suffix, display, placed(context, display, rel), memo)
            summary = FileSummary.of(result)
            linked = _linked_key(key, context)
            _add_entry(entries, linked, result, summary)
        if not _but_words(summary.links, p.files.summaries[i].links):
            return None
        last = before.get(p.files.key(i))
        if last is not None and last == entries.get(linked or key):
            same_reading[i] = p.files.judged.get(i) or p.files.key(i)
        out[i] = (data, key, (result, summary, linked))
    return out


def _add_entry(entries: dict[str, tuple[bytes, bytes]], key: str, result: FileResult, summary: FileSummary) -> None:
    try:
        entries[key] = encode_entry(result, summary)
    except (TypeError, ValueError, RecursionError):  # a value the cache cannot hold: not cached
        pass


def _but_words(a: Links | None, b: Links | None) -> bool:
    """Whether two readings' links agree but for the words of the code
    (`Links.names`, which choose the helpers a file is given, not what it gives)."""
    if a is None or b is None:
        return a is b
    return a == b or replace(a, names=None) == replace(b, names=None)


def _same_context(p: _Project, i: int, links: Links) -> bool:
    """Whether file `i`, whose code's words are now those of `links`, is still given
    the context the link stage gave it (the helpers its words name). Worked out with
    the project's links as last read; a file that runs notebooks from outside the
    checked paths is not (the link stage added those): a full run."""
    from delta_lint.link import Linker

    project = [(rel, p.files.summaries[j].links) for j, (_, rel, *_) in enumerate(p.inputs.files)]
    project[i] = (project[i][0], links)
    linker = Linker(project, p.scheduled, p.read_document)
    if any(linker.notebook(project[i][0], target) is None for target in links.runs):
        return False
    fresh = linker.context(i)
    old = p.files.contexts.get(i)
    kept = replace(old, called=()) if old is not None else None
    return (fresh or None) == (kept or None)


def _rewritten(p: _Project, new: dict[int, FileSummary]) -> tuple[dict[str, set[int]], dict[str, Location]] | None:
    """The writers and first write of every table the files of `new` (index -> its new
    summary) wrote or write, as the run works them out (`_check`); None when a table
    gains its first writer or loses its last (its settings are read anew: a full run)."""
    names, non_delta = p.names, p.non_delta

    def tables_of(summary: FileSummary) -> dict[str, Location]:
        out: dict[str, Location] = {}
        for raw, location in summary.tables.items():
            name = names.qualify(raw)
            if name not in non_delta and (name not in out or location < out[name]):
                out[name] = location
        return out

    def summary_of(index: int) -> FileSummary:
        return new.get(index) or p.files.summaries[index]

    affected: set[str] = set()
    for i, summary in new.items():
        for s in (p.files.summaries[i], summary):
            affected |= set(tables_of(s)) | ({names.qualify(raw) for raw in s.ddl_tables} & set(p.first))
    if isinstance(p.files.summaries, StoredSummaries):  # a restored project's: read in one query, not one each
        p.files.summaries.fetch({j for name in affected for j in p.writers.get(name, ())} - set(new))
    writers, first = {}, {}
    for name in sorted(affected):
        members = p.writers.get(name, set()) - set(new)
        for i, summary in new.items():
            if name in tables_of(summary) or any(names.qualify(raw) == name for raw in summary.ddl_tables):
                members.add(i)
        located = [tables_of(summary_of(j)).get(name) for j in sorted(members)]
        located = [loc for loc in located if loc is not None]
        if bool(located) != (name in p.first):
            return None
        if located:
            writers[name], first[name] = members, min(located)
    return writers, first


# -- a project restored from its state kept in the cache (`kept`), for the next process


def _recheck_kept(
    slot: str,
    kept: Kept | None,
    store: Cache,
    inputs: Inputs,
    config: Config,
    workflows: Workflows | None,
    spark: str | None,
    paths: list[Path],
    jobs: int | None,
    view: str | None,
    tree: Tree | None,
    warm: Warm | None,
) -> tuple[RunResult | None, Tree | None, _Project | None]:
    """A new process's run from the project state the last run stored (`kept`):
    the re-check (`_recheck`) of the files changed since (the caller stores the
    state again, with the run's key). `tree`: the project's folders as this run
    walked them before reading a file (None when they cannot be kept), against
    the walk `warm` keeps, which is the state's when one run kept both. (None,
    tree, None): no state, or one this run cannot re-check from (no walk of its
    run, the workflows must be read again, a file came or went, an edit a
    re-check does not take, a summary gone from the cache). With the output of
    the state's run kept for `view` per finding (`patch`), only the tables
    judged again are decoded: the result holds a `patch.Patch` for the caller to
    write the output from."""
    if kept is None or warm is None or warm.tree.taken != kept.taken:
        return None, tree, None
    if tree is None or workflows is None:
        return None, tree, None
    try:
        project = _restored(kept, tree_of(warm), store, inputs, config, workflows, spark, False)
        if project is not None and view is not None:
            from delta_lint.patch import load_index

            project.output_index = load_index(store, view, kept.run_key)
        done = _recheck(project, tree, paths, None, store, jobs) if project is not None else None
    except StateGone:
        return None, tree, None
    if done is None or project is None:
        return None, tree, None
    return done, tree, project


def _restored(
    kept: Kept,
    tree: Tree,
    store: Cache,
    inputs: Inputs,
    config: Config,
    workflows: Workflows,
    spark: str | None,
    refresh: bool,
) -> _Project | None:
    """The project `kept` describes (its folders as `tree` holds them), as `_check`
    left it for `_recheck`, with the files whose content differs from what it was
    read as (by the keys `gather` just worked out) marked to be read again. None
    when its files are not the project's files now (one came or went), or its
    settings would be read live."""
    from delta_lint.bundle import add_defined_jobs
    from delta_lint.schedule import build_schedule
    from delta_lint.settings import TableNames
    from delta_lint.settings.live import read_settings

    if kept.cwd != os.fspath(inputs.cwd) or len(kept.files) != len(inputs.files):
        return None
    overlaid, read_now = set(), {}
    for i, ((display, rel, suffix, key), now) in enumerate(zip(kept.files, inputs.files)):
        if (display, rel, suffix) != now[:3]:
            return None
        if isinstance(now[3], bytes):
            read_now[i] = now[3]
        if key != now[4]:
            overlaid.add(i)
    try:
        first = decode_values(kept.first)
        defined = decode_values(kept.defined)
        shared = decode_values(kept.shared_findings, (Finding,))
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    if not (isinstance(first, dict) and all(isinstance(v, Location) for v in first.values())):
        return None
    if not (isinstance(shared, list) and all(isinstance(f, Finding) for f in shared)):
        return None
    scheduled = add_defined_jobs(workflows, defined, config.root)
    if not kept.context.startswith(_context_digest(config, scheduled)):
        return None  # the configuration, bundle or snapshot changed: settings may be read otherwise
    if _LOCATED in kept.context:
        return None  # tables the workload places in storage: named from every file's reading
    names = TableNames.of(config)
    read = read_settings(set(first), config, spark, refresh, store=store, naming=names)
    if read.mode not in ("none", "snapshot"):
        return None
    files = [(display, rel, suffix, None, key) for display, rel, suffix, key in kept.files]
    restored = Inputs(inputs.diagnostics, files, StoredPaths(kept.paths), inputs.cwd)  # type: ignore[arg-type]
    summaries = StoredSummaries([kept.linked.get(i) or key for i, (*_, key) in enumerate(kept.files)], store)
    state = _Files(restored, store, summaries, {}, FrontEndMemo(), StoredContexts(dict(kept.contexts)))  # type: ignore[arg-type]
    state.linked_keys = dict(kept.linked)
    state.judged = dict(kept.judged)
    runs_in = RunsIn({k: set(v) for k, v in kept.runs_in.items()}, dict(kept.pooled))
    p = _Project(
        restored,
        state,
        StoredFirstLinks(kept.files, kept.linked, summaries),  # type: ignore[arg-type]
        config,
        kept.context,
        names,
        set(kept.non_delta),
        {name: set(members) for name, members in kept.writers.items()},
        first,
        read,
        build_schedule(config, restored.rel_paths, scheduled, runs_in.callers, pooled=runs_in.pooled),
        task_diagnostics(scheduled, config.root, inputs.cwd),
        scheduled,
        workflows,
        DocumentReader(config.root),
        table_keys=dict(kept.table_keys),
        tree=tree,
        overlaid=overlaid,
        shared=shared,
        shared_sources=kept.shared_sources,
        runs_in=runs_in,
        kept=kept,
        read_now=read_now,
        listed=True,
    )
    p.index_of = {path: i for i, path in enumerate(kept.paths)}
    summaries.fetch(set(kept.diags) | set(kept.scans))
    p.views = _Views(
        [display for display, *_ in kept.files],
        kept.rel_of,
        {i: None for i in kept.shared},
        {i: summaries[i].diagnostics for i in kept.diags},
        {i: summaries[i].suppressions for i in kept.scans},  # type: ignore[misc] - they have directives
        kept.skipped,
        kept.n_intents,
        kept.analysed,
    )
    return p
