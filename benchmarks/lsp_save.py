"""Latency of the Language Server on the fixture project: from didOpen / didSave to
the publishDiagnostics that answers it, as an editor sees it.

    python benchmarks/lsp_save.py [--saves 10] [--file fixtures/jobs/purge_old.sql] [--distinct]

Starts `delta-lint server` in a subprocess with an empty cache (its own cache and
key folders), opens the file (cold: every file analysed, settings read), then
saves it `--saves` times alternating two buffers (a comment added and removed:
the file's content changes every time, the rest of the project does not). With
`--distinct` every save sends a buffer not sent before (a numbered comment), as
an editing session does: no save can be answered by an earlier run of the same
buffer. The buffer is sent with the save, the file on disk is never written.
Target: the median save answers in 0.2 s at most, the slowest in 0.5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MEDIAN = 0.2
TARGET_WORST = 0.5


def server_cpu(pid: int) -> float | None:
    """The server process's user + system CPU seconds so far (Linux's /proc), or None:
    under load, wall times say how busy the machine was as much as what a save costs."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(path: Path, saves: int, distinct: bool = False) -> tuple[float, list[float], int, list[float]]:
    client = LanguageClient("delta-lint-bench", "1")
    published: asyncio.Queue[lsp.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    home = tempfile.mkdtemp(prefix="delta-lint-lsp-bench-")
    env = {**os.environ, "XDG_CACHE_HOME": f"{home}/cache", "XDG_STATE_HOME": f"{home}/state"}
    env.pop("DELTA_LINT_CACHE_DIR", None)
    await client.start_io(sys.executable, "-m", "delta_lint", "server", cwd=str(path.parent), env=env)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri = from_fs_path(str(path))
    text = path.read_text()

    async def answer() -> tuple[float, int]:
        start = time.perf_counter()
        params = await asyncio.wait_for(published.get(), timeout=300)
        return time.perf_counter() - start, len(params.diagnostics)

    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "sql", 1, text)))
    cold, count = await answer()
    times, cpu = [], []
    pid = client._server.pid if client._server is not None else 0  # noqa: SLF001 - pygls keeps the process there
    for i in range(saves):
        before = server_cpu(pid)
        buffer = text + (f"-- edited {i}\n" if distinct else "-- edited\n" if i % 2 == 0 else "")
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=i + 2, uri=uri),
                [lsp.TextDocumentContentChangeWholeDocument(text=buffer)],
            )
        )
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri), text=buffer))
        elapsed, count = await answer()
        times.append(elapsed)
        after = server_cpu(pid)
        if before is not None and after is not None:
            cpu.append(after - before)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return cold, times, count, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--saves", type=int, default=10)
    parser.add_argument("--file", type=Path, default=ROOT / "fixtures" / "jobs" / "purge_old.sql")
    parser.add_argument("--distinct", action="store_true", help="a buffer not sent before at every save")
    args = parser.parse_args()
    cold, times, count, cpu = asyncio.run(measure(args.file.resolve(), args.saves, args.distinct))
    median = statistics.median(times)
    print(f"open (cold cache): {cold:.2f} s; {count} diagnostics")
    print(f"save: median {median:.3f} s, max {max(times):.3f} s over {len(times)} saves")
    if cpu:
        print(f"server CPU per save: median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    met = median <= TARGET_MEDIAN and max(times) <= TARGET_WORST
    print(f"target (median save <= {TARGET_MEDIAN} s, slowest <= {TARGET_WORST} s): {'PASS' if met else 'FAIL'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
