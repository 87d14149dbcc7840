"""`delta-lint server`: a Language Server (LSP over standard input/output) for editors.

On opening and on saving a SQL, Python or notebook file it checks the file's
project (conflicts are between files) with the open buffer in place of the file
on disk, and publishes the findings that touch the file: those located in it,
and those whose other write is in it (shown at that write). Closing the file
clears them. The project's cache makes a save answer quickly: unchanged files,
tables and settings are not analysed or read again, and what earlier runs
decoded stays in memory between saves (`cache.Memory`).

pygls speaks the protocol; this module only maps files to runs and findings to
diagnostics. Runs happen one at a time in a worker thread, so the server keeps
answering (cancel, shutdown) while a cold run reads a large project.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from delta_lint import __version__
from delta_lint.cache import Memory
from delta_lint.model import Finding, Location

if TYPE_CHECKING:
    from delta_lint.run import RunResult

_SEVERITY = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "info": lsp.DiagnosticSeverity.Information,
}
SOURCE = "delta-lint"
# The framing's bounds: a header line is read at most this long (a longer one is read
# in pieces, none of which is a header pygls acts on), and a message body over this
# many bytes is read past in pieces and dropped. An open buffer is at most the 10 MB
# a file may hold, which JSON escaping may double.
MAX_HEADER_LINE = 8_192
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
DROPPED = "$/delta-lint/droppedMessage"  # what a dropped body is replaced by (see `BoundedInput`)
MALFORMED = "$/delta-lint/malformedMessage"  # what a body that is no JSON object is replaced by
_DISCARD_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class FileFindings:
    """The findings touching one file, with paths made absolute (a run's display
    paths are relative to the project's folder): `where` maps each display path the
    findings name to its absolute path, worked out once per path, not per finding."""

    path: Path
    root: Path
    findings: list[Finding]
    where: dict[str, Path] = field(default_factory=dict)

    def absolute(self, loc: Location) -> Path:
        found = self.where.get(loc.path)
        return found if found is not None else _absolute(self.root, loc)


def findings_for(
    path: Path, text: str | None, memory: dict[Path, Memory] | None = None, configs: dict | None = None
) -> FileFindings:
    """Check the project around `path` (its configuration's folder; the file alone
    without one), with `text` as the file's content when given, and keep the
    findings with a location in the file (their own or their other write's: what
    `diagnostics` shows). `memory`: the server's decoded state of earlier runs
    (`cache.Memory`) by project folder, so that a save decodes and judges only
    what it changed; `configs`: the configurations read so far (see `_config`).
    Raises ConfigError and SparkUnavailable as `check` does: the caller shows them."""
    from delta_lint.findings import Gate, finish
    from delta_lint.run import pipeline

    path = Path(os.path.abspath(path))
    config = _config(path.parent, configs)
    root = Path(os.path.abspath(config.root))
    paths = [path, root] if config.path is not None else [path]
    overlay = {path: text.encode("utf-8")} if text is not None else None
    # one process: forking front-end workers from a server's thread is not safe
    kept = memory.setdefault(root, Memory()) if memory is not None else None
    result = pipeline(paths, config, cwd=root, overlay=overlay, jobs=1, memory=kept)
    touches = _touches(path, root)
    # The findings stage (`run.check`'s) on the findings that can decide what the file
    # shows: those touching it, and those a suppression comment in it may silence (a
    # write reported at a helper's call names the helper's statement in its sites).
    # Whether a finding is kept depends on it alone, and a comment of the file is
    # unused only if none of these matched it: the same as on the whole run's
    # findings, without sorting and suppressing a large project's every finding.
    # whether a display path names the file depends on the two paths alone: the
    # answers of the file's last save hold, and a large project's findings name
    # thousands of paths
    answers: dict[str, bool] | None = kept.find("touches", (path, root)) if kept is not None else None
    if answers is None:
        answers = {}
        if kept is not None:
            kept.put("touches", (path, root), answers)

    def touched(display: str) -> bool:
        found = answers.get(display)
        if found is None:
            found = answers[display] = touches(display)
        return found

    def concerning(findings: list[Finding]) -> list[Finding]:
        out = []
        known = answers.get
        for f in findings:  # plain loops: a large project has tens of thousands
            where = f.location
            hit = known(where.path)
            if hit is None:
                hit = touched(where.path)
            if not hit:
                for loc in f.related:
                    hit = known(loc.path)
                    if hit is None:
                        hit = touched(loc.path)
                    if hit:
                        break
            if not hit and where.sites:
                hit = any(touched(loc.path) for loc in where.sites)
            if hit:
                out.append(f)
        return out

    concern = _concern(result, concerning, kept, (path, root))
    shown = finish(concern, result.suppressions, Gate.of(config)).findings
    touching = [f for f in shown if touched(f.location.path) or any(touched(loc.path) for loc in f.related)]
    where = {
        loc.path: path if touches(loc.path) else _absolute(root, loc)
        for f in touching
        for loc in (f.location, *f.related)
    }
    return FileFindings(path, root, touching, where)


def _concern(
    result: RunResult, concerning: Callable[[list[Finding]], list[Finding]], kept: Memory | None, key: tuple[Path, Path]
) -> list[Finding]:
    """`concerning(result.findings)`, in the findings' order, without looking again at
    the findings of a table the last save of this file (`key`) looked at: a save
    re-judges the few tables the file writes, and the server's run keeps every other
    table's entry (`RunResult.tables`) as the same object, while a large project has
    tens of thousands of findings. Whether a finding concerns the file depends on it
    and `key` alone. A run whose findings are not exactly its tables' and others'
    (an output patched from a kept one) is looked at whole."""
    tables, others = result.tables, result.others
    if (
        kept is None
        or tables is None
        or others is None
        or result.patch is not None
        or sum(len(entry.findings) for entry in tables.values()) + len(others) != len(result.findings)
    ):
        return concerning(result.findings)
    last = kept.find("concern", key) or {}
    now: dict[str | None, tuple[object, list[Finding]]] = {}
    out: list[Finding] = []
    for name in sorted(tables):  # the run's order (see `run._judge`) before the sort below
        entry, before = tables[name], last.get(name)
        found = before[1] if before is not None and before[0] is entry else concerning(entry.findings)
        now[name] = (entry, found)
        out += found
    before = last.get(None)  # the findings across tables: the same list while they are the same
    found = before[1] if before is not None and before[0] is others else concerning(others)
    now[None] = (others, found)
    kept.put("concern", key, now)
    return sorted(out + found, key=Finding.sort_key)


MAX_CONFIGS_KEPT = 16


def _config(folder: Path, configs: dict | None):
    """The configuration `load_config` finds from `folder`, kept in `configs` by its
    file and content: a large project's configuration (thousands of declared tables)
    costs a save as much to parse as the re-check itself. A file read again with
    other bytes than those it was parsed from is parsed again."""
    from delta_lint.config import find_config, load_config
    from delta_lint.safeio import InputRefused, read_input

    found = find_config(folder) if configs is not None else None
    if found is None or found.name == "pyproject.toml":
        return load_config(None, cwd=folder)

    def content() -> bytes | None:
        try:
            return read_input(found, found.parent)
        except (InputRefused, OSError):
            return None

    key = (found, content())
    config = configs.get(key) if key[1] is not None else None  # type: ignore[union-attr]
    if config is None:
        config = load_config(None, cwd=folder)
        if key[1] is not None and content() == key[1] and config.path == found:  # nothing changed meanwhile
            if len(configs) >= MAX_CONFIGS_KEPT:  # type: ignore[arg-type]
                configs.clear()  # type: ignore[union-attr]
            configs[key] = config  # type: ignore[index]
    return config


def _touches(path: Path, root: Path):
    """A test of a display path (relative to `root`, or absolute): does it name `path`
    (as `_absolute` would make it)? Made once per check: a large project's findings
    name thousands of paths. A plain relative path (no `.`, `..` or doubled
    separator part, the form runs write) names `path` only if it is its path relative
    to `root`; others are made absolute one by one."""
    base, target = os.fspath(root), os.fspath(path)
    inside = target[len(base) :].lstrip(os.sep) if target.startswith(os.path.join(base, "")) else None
    answers: dict[str, bool] = {}

    def touches(display: str) -> bool:
        if display == inside:
            return True
        plain = not display.startswith("/") and not display.endswith("/") and "//" not in display
        if os.sep == "/" and plain and "/." not in "/" + display:
            return False  # plain, and not `inside`
        found = answers.get(display)
        if found is None:
            found = answers[display] = os.path.abspath(os.path.join(base, display)) == target
        return found

    return touches


def diagnostics(found: FileFindings, lines: list[str]) -> list[lsp.Diagnostic]:
    """LSP diagnostics for the file: a finding located in it at its own location, a
    finding whose other write is in it at that write (its message says where the
    first one is). `lines` (the buffer's) bound each range to its line."""
    out: list[lsp.Diagnostic] = []
    seen: set[tuple] = set()
    for f in found.findings:
        here = [loc for loc in (f.location, *f.related) if found.absolute(loc) == found.path]
        if not here:
            continue
        primary = here[0] == f.location
        where = here[0]
        message = f.message if primary else f"with {f.location}: {f.message}"
        if f.fix:
            message += f"\nfix: {f.fix}"
        key = (where.line, where.column, f.rule, message)
        if key in seen:
            continue
        seen.add(key)
        others = [loc for loc in (f.location, *f.related) if loc != where]
        out.append(
            lsp.Diagnostic(
                range=_range(where, lines),
                message=message,
                severity=_SEVERITY.get(f.severity, lsp.DiagnosticSeverity.Warning),
                code=f.rule,
                source=SOURCE,
                related_information=[
                    lsp.DiagnosticRelatedInformation(
                        location=lsp.Location(uri=from_fs_path(str(found.absolute(loc))), range=_range(loc, [])),
                        message="the other write that can run at the same time"
                        if loc != f.location
                        else "the finding's first write",
                    )
                    for loc in others
                ]
                or None,
            )
        )
    return out


def _absolute(root: Path, loc: Location) -> Path:
    return Path(os.path.abspath(root / loc.path))


def _range(loc: Location, lines: list[str]) -> lsp.Range:
    """From the finding's column to the end of its line (LSP counts from 0)."""
    line = max(loc.line - 1, 0)
    start = max(loc.column - 1, 0)
    end = len(lines[line]) if line < len(lines) else start + 1
    return lsp.Range(lsp.Position(line, start), lsp.Position(line, max(end, start + 1)))


class BoundedInput:
    """Standard input as pygls reads the protocol from it (`readline`, `read`), with
    the framing bounded: a `Content-Length` of a terabyte (or of more digits than an
    index holds) used to make pygls allocate it at once and die with a traceback.
    A body over `MAX_MESSAGE_BYTES` is read past in 1 MB pieces (so the next
    message is framed where the client put it) and replaced by a `DROPPED`
    notification, which the server answers with an error in the client's log.
    A body that is not a JSON-RPC message pygls can take (not JSON, a list, a
    number, cut short, `jsonrpc: 5`, a protocol method's parameters of the wrong
    shape) is replaced by a `MALFORMED` notification the same way: pygls would log
    it with a traceback on standard error. Checking costs a second parse of each
    body (tens of milliseconds for a 10 MB buffer, beside the run it starts)."""

    def __init__(self, stream) -> None:
        from lsprotocol.converters import get_converter

        self.stream = stream
        self.converter = get_converter()

    def readline(self) -> bytes:
        return self.stream.readline(MAX_HEADER_LINE)

    def read(self, n: int) -> bytes:
        if n <= MAX_MESSAGE_BYTES:
            body = self.stream.read(n)
            if not body or _is_message(body, self.converter):
                return body  # the end of input (empty) ends the server, as pygls does
            return json.dumps({"jsonrpc": "2.0", "method": MALFORMED, "params": {"bytes": len(body)}}).encode()
        left = n
        while left:
            piece = self.stream.read(min(left, _DISCARD_CHUNK))
            if not piece:
                return b""  # the client closed its end: the server stops, as at any end of input
            left -= len(piece)
        return json.dumps({"jsonrpc": "2.0", "method": DROPPED, "params": {"bytes": n}}).encode()


def _is_message(body: bytes, converter) -> bool:
    """Whether `body` is a JSON-RPC 2.0 message pygls can take without a traceback:
    a JSON object with `jsonrpc: "2.0"`, a text `method` (or none: a response), an
    `id` that is a number or a text, and, for a method of the protocol, the shape
    its lsprotocol type requires (pygls structures it with the same converter)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # not UTF-8 or not JSON; nested past Python's limit
        return False
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        return False
    if "id" in data and (isinstance(data["id"], bool) or not isinstance(data["id"], (int, str))):
        return False
    method = data.get("method")
    if method is None:
        shape = lsp.ResponseErrorMessage if "error" in data else None
    elif not isinstance(method, str):
        return False
    else:
        shape = lsp.METHOD_TO_TYPES.get(method, (None,))[0]  # None: a method of our own or unknown
    if shape is None:
        return True
    try:
        converter.structure(data, shape)
    except Exception:  # noqa: BLE001 - any failure to structure is pygls' traceback
        return False
    return True


class DeltaLintServer(LanguageServer):
    """The server's state is its own: one worker thread for runs, and what earlier
    runs decoded and judged (`cache.Memory`: file summaries and results, tables'
    findings, the parsed bundle, the stat index), kept per project folder, so a save
    re-reads the saved file and re-judges only the tables it writes. Nothing global."""

    def __init__(self) -> None:
        super().__init__("delta-lint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.runs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="delta-lint-run")
        self.memory: dict[Path, Memory] = {}  # project folder -> its runs' state; touched by the run thread only
        self.unswept = 0  # runs since the collector last looked at what they keep (see `check`)
        self.configs: dict = {}  # (configuration file, its bytes) -> Config; touched by the run thread only

    SWEEP_EVERY = 32

    def check(self, path: Path, text: str | None) -> FileFindings:
        """`findings_for` with the memory of the projects checked so far (in the run
        thread). What a run leaves in memory lives until a later run replaces it, so it
        is moved out of the cyclic collector's sight (`gc.freeze`): a large project
        keeps millions of objects, and a full collection over them took 1-2 s, every
        second or third save. Cycles among frozen objects that became garbage are
        collected every SWEEP_EVERY runs, after the run's answer is published (`sweep`)."""
        found = findings_for(path, text, self.memory, self.configs)
        gc.freeze()
        self.unswept += 1
        return found

    def sweep(self) -> None:
        """A full collection of everything runs kept (in the run thread, between runs)."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.unswept = 0

    async def publish(self, uri: str, text: str | None = None) -> None:
        """Check the document's project with `text` (a save's text when the client
        sent it, else the buffer as the client's changes made it) and publish."""
        document = self.workspace.get_text_document(uri)
        path = to_fs_path(uri)
        if path is None:
            return
        text = document.source if text is None else text
        try:
            found = await asyncio.get_running_loop().run_in_executor(self.runs, self.check, Path(path), text)
        except Exception as err:  # noqa: BLE001 - a configuration or Spark problem is shown, never a crash
            from delta_lint.safeio import printable

            self.window_show_message(
                lsp.ShowMessageParams(type=lsp.MessageType.Error, message=f"delta-lint: {printable(str(err))}")
            )
            return
        if uri not in self.workspace.text_documents:  # closed while the run went on
            return
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(
                uri=uri, version=document.version, diagnostics=diagnostics(found, text.splitlines())
            )
        )
        if self.unswept >= self.SWEEP_EVERY:
            self.runs.submit(self.sweep)  # not awaited: the next run waits for it, not this answer


def build() -> DeltaLintServer:
    server = DeltaLintServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: DeltaLintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        await ls.publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=True))
    async def did_save(ls: DeltaLintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        await ls.publish(params.text_document.uri, params.text)

    def log_dropped(ls: DeltaLintServer, params, why: str) -> None:
        """One error line in the client's log for a message the reader dropped."""
        size = getattr(params, "bytes", None)
        ls.window_log_message(
            lsp.LogMessageParams(
                type=lsp.MessageType.Error, message=f"delta-lint: dropped a message of {size} bytes{why}"
            )
        )

    @server.feature(DROPPED)
    def dropped(ls: DeltaLintServer, params) -> None:
        log_dropped(ls, params, f" (more than {MAX_MESSAGE_BYTES})")

    @server.feature(MALFORMED)
    def malformed(ls: DeltaLintServer, params) -> None:
        log_dropped(ls, params, ": not a JSON-RPC message of the protocol")

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: DeltaLintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    return server


def main() -> int:
    build().start_io(stdin=BoundedInput(sys.stdin.buffer))
    return 0
