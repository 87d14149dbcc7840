"""Editors: `check --stdin-filename PATH -` and the Language Server, driven as a real
LSP client drives it (a subprocess speaking JSON-RPC over stdio: initialize,
initialized, didOpen, didSave, didClose; publishDiagnostics back)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from tests.conftest import run_cli
from tests.test_integrations import CONFIG, DELETE_B, MERGE_A, cli, project

HARMLESS = "INSERT INTO s.other VALUES (1);\n"


def stdin_check(cwd: Path, name: str, text: str, *args: str) -> subprocess.CompletedProcess:
    """`check --stdin-filename NAME -` in this process, `text` on its standard input."""
    return run_cli("check", "--stdin-filename", name, "-", "--format", "json", *args, cwd=cwd, input=text)


def test_stdin_buffer_replaces_the_file_on_disk(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": HARMLESS})
    assert stdin_check(p, "b.sql", HARMLESS).returncode == 0
    proc = stdin_check(p, "b.sql", DELETE_B)  # the unsaved buffer conflicts with a.sql
    assert proc.returncode == 1, proc.stderr
    found = json.loads(proc.stdout)["findings"]
    assert any(f["rule"] == "DL101" and {"path": "b.sql", "line": 1, "column": 1} in f["related"] for f in found)
    assert (p / "b.sql").read_text() == HARMLESS  # nothing written
    # the other way round: disk conflicts, the buffer does not
    (p / "b.sql").write_text(DELETE_B)
    assert stdin_check(p, "b.sql", HARMLESS).returncode == 0


def test_stdin_buffer_of_a_file_not_saved_yet_and_in_a_subfolder(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "jobs/keep.sql": HARMLESS})
    proc = stdin_check(p / "jobs", "new.sql", DELETE_B)
    assert proc.returncode == 1, proc.stderr
    found = json.loads(proc.stdout)["findings"]
    assert any({"path": "new.sql", "line": 1, "column": 1} in f["related"] for f in found), found
    assert not (p / "jobs" / "new.sql").exists()


def test_stdin_needs_its_filename_and_one_buffer(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A})
    proc = run_cli("check", "-", cwd=p, input="")
    assert proc.returncode == 2 and "--stdin-filename" in proc.stderr
    proc = stdin_check(p, "b.sql", DELETE_B, "a.sql")
    assert proc.returncode == 2 and "one buffer" in proc.stderr


def test_text_output_shows_the_buffer_not_the_file(tmp_path):
    p = project(tmp_path, {"a.sql": "-- on disk\n" + MERGE_A, "b.sql": DELETE_B})
    proc = run_cli("check", "--stdin-filename", "a.sql", "-", cwd=p, input=MERGE_A)
    assert proc.returncode == 1, proc.stderr
    assert "a.sql:1:1: DL101" in proc.stdout and "1 > MERGE INTO s.orders" in proc.stdout


# -- the Language Server ----------------------------------------------------------------


class Session:
    """An LSP client talking to `delta-lint server` in a subprocess."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("delta-lint-tests", "1")
        self.published: asyncio.Queue[lsp.PublishDiagnosticsParams] = asyncio.Queue()
        self.messages: list[str] = []

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.put_nowait(params)

        @self.client.feature(lsp.WINDOW_SHOW_MESSAGE)
        def on_message(params: lsp.ShowMessageParams) -> None:
            self.messages.append(params.message)

    async def start(self) -> lsp.InitializeResult:
        await self.client.start_io(sys.executable, "-m", "delta_lint", "server", cwd=str(self.root))
        result = await self.client.initialize_async(
            lsp.InitializeParams(
                capabilities=lsp.ClientCapabilities(),
                root_uri=from_fs_path(str(self.root)),
                workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(self.root)), name="project")],
            )
        )
        self.client.initialized(lsp.InitializedParams())
        return result

    def uri(self, name: str) -> str:
        return from_fs_path(str(self.root / name))

    def open(self, name: str, text: str) -> None:
        self.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(self.uri(name), "sql", 1, text))
        )

    def save(self, name: str, text: str) -> None:
        (self.root / name).write_text(text)
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=2, uri=self.uri(name)),
                [lsp.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        self.client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(self.uri(name))))

    def close(self, name: str) -> None:
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(self.uri(name))))

    async def diagnostics(self, name: str) -> list[lsp.Diagnostic]:
        """The next diagnostics published for `name` (a cold first run may take a while)."""
        while True:
            params = await asyncio.wait_for(self.published.get(), timeout=120)
            if params.uri == self.uri(name):
                return list(params.diagnostics)

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


@pytest.mark.integration
def test_language_server_publishes_findings_on_open_and_save_and_clears_on_close(tmp_path):
    jobs = "jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\n"  # configured: a certain conflict is an error
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": HARMLESS, "delta-lint.yaml": CONFIG + jobs})

    async def scenario() -> None:
        session = Session(p)
        init = await session.start()
        assert init.server_info.name == "delta-lint"
        try:
            # opened unsaved: the buffer conflicts with a.sql, the file on disk does not
            session.open("b.sql", DELETE_B)
            found = await session.diagnostics("b.sql")
            assert [d.code for d in found] == ["DL101"], found
            d = found[0]
            assert d.source == "delta-lint" and d.severity == lsp.DiagnosticSeverity.Error
            assert d.range.start == lsp.Position(0, 0) and d.range.end.character == len(DELETE_B.rstrip("\n"))
            assert d.message.startswith("with a.sql:1:1: MERGE on `s.orders`")
            assert d.related_information[0].location.uri == session.uri("a.sql")
            # saved harmless: cleared
            session.save("b.sql", HARMLESS)
            assert await session.diagnostics("b.sql") == []
            # saved conflicting again
            session.save("b.sql", "-- moved down\n" + DELETE_B)
            found = await session.diagnostics("b.sql")
            assert [(d.code, d.range.start.line) for d in found] == [("DL101", 1)]
            # the file the finding is located in
            session.open("a.sql", MERGE_A)
            found = await session.diagnostics("a.sql")
            assert [(d.code, d.range.start.line) for d in found] == [("DL101", 0)]
            assert "does not constrain the partition columns" in found[0].message
            session.close("a.sql")
            assert await session.diagnostics("a.sql") == []
            assert session.messages == []
        finally:
            await session.stop()

    asyncio.run(scenario())


def cold_diagnostics(root: Path, name: str, text: str) -> list:
    """The diagnostics a cold `--no-cache` check of the project, with `text` as the
    file's buffer, gives the file (its findings and those whose other write is in it),
    unstructured as the protocol sends them."""
    import os

    from lsprotocol.converters import get_converter

    from delta_lint.config import load_config
    from delta_lint.run import check
    from delta_lint.server import FileFindings, diagnostics

    path = root / name
    config = load_config(None, cwd=path.parent)
    result = check([path, root], config, cwd=root, overlay={path: text.encode()}, use_cache=False)
    touching = [
        f
        for f in result.findings
        if any(os.path.abspath(root / loc.path) == str(path) for loc in (f.location, *f.related))
    ]
    return get_converter().unstructure(diagnostics(FileFindings(path, root, touching), text.splitlines()))


@pytest.mark.integration
def test_language_server_saves_after_edits_give_what_a_cold_check_gives(tmp_path):
    """The server keeps the project's state between saves and re-checks what a save
    changed: after each kind of edit (the saved file's statement, a suppression
    comment in it, the table it writes, another file changed on disk, the
    configuration) its diagnostics are those of a cold check."""
    from lsprotocol.converters import get_converter

    jobs = "jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\n  c: {paths: [c.sql]}\n"
    config = CONFIG + "  s.events:\n    partitioned_by: [date]\nspark: none\n" + jobs
    c_sql = "UPDATE s.events SET x = 1 WHERE id = 2;\n"
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": HARMLESS, "c.sql": c_sql, "delta-lint.yaml": config})
    edits = [
        ("b.sql", DELETE_B, None),
        ("b.sql", "-- moved down\n" + DELETE_B, None),
        ("b.sql", "-- delta-lint: ignore[DL101]\n" + DELETE_B, None),
        ("b.sql", "DELETE FROM s.events WHERE date = '2024-01-01';\n", None),
        ("b.sql", "DELETE FROM s.events WHERE date = '2024-01-01';\n", ("c.sql", "DELETE FROM s.events;\n")),
        ("b.sql", DELETE_B, ("delta-lint.yaml", config.replace("[date]", "[id]", 1))),
        ("a.sql", MERGE_A, None),
    ]
    converter = get_converter()

    async def scenario() -> None:
        session = Session(p)
        await session.start()
        try:
            session.open("b.sql", HARMLESS)
            assert converter.unstructure(await session.diagnostics("b.sql")) == cold_diagnostics(p, "b.sql", HARMLESS)
            seen = []
            for name, text, elsewhere in edits:
                if elsewhere is not None:  # changed by another program, not through the editor
                    (p / elsewhere[0]).write_text(elsewhere[1])
                if name == "a.sql":
                    session.open(name, text)
                else:
                    session.save(name, text)
                found = converter.unstructure(await session.diagnostics(name))
                assert found == cold_diagnostics(p, name, text), (name, text, elsewhere)
                seen.append(found)
            assert all(seen[:2]) and seen[2] != seen[1] and seen[3] != seen[4]  # the edits did change what is shown
            assert session.messages == []
        finally:
            await session.stop()

    asyncio.run(scenario())


@pytest.mark.integration
def test_language_server_shows_a_configuration_error_instead_of_failing(tmp_path):
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B})
    (p / "delta-lint.yaml").write_text(CONFIG + "runtime: [not, a, version]\n")

    async def scenario() -> None:
        session = Session(p)
        await session.start()
        try:
            session.open("a.sql", MERGE_A)
            for _ in range(200):
                if session.messages:
                    break
                await asyncio.sleep(0.1)
            assert session.messages and "delta-lint.yaml" in session.messages[0], session.messages
            # still serving: a fixed configuration gives diagnostics on the next save
            (p / "delta-lint.yaml").write_text(CONFIG)
            session.save("a.sql", MERGE_A)
            assert [d.code for d in await session.diagnostics("a.sql")] == ["DL101"]
        finally:
            await session.stop()

    asyncio.run(scenario())


@pytest.mark.integration
def test_server_without_pygls_says_what_to_install(tmp_path):
    code = (
        "import sys; sys.modules['pygls'] = None; sys.modules['pygls.lsp.server'] = None\n"
        "sys.argv = ['delta-lint', 'server']\nfrom delta_lint.cli import run; run()"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, input="")
    assert proc.returncode == 2 and "delta-lint[server]" in proc.stderr
    assert cli("server", "--help", cwd=tmp_path).returncode == 0


def test_readme_editor_snippets_start_this_server():
    import tomllib

    from tests.test_hooks_and_snippets import readme_block

    helix = tomllib.loads(readme_block("# .helix/languages.toml"))
    server = helix["language-server"]["delta-lint"]
    assert [server["command"], *server["args"]] == ["delta-lint", "server"]
    assert helix["language"][0]["language-servers"] == ["delta-lint"]
    assert 'cmd = { "delta-lint", "server" }' in readme_block("-- init.lua")


def _cold_diagnostics(root: Path, name: str, text: str) -> list[tuple[str, int, int, str]]:
    """What a save of `name` must show, from a cold CLI run without the cache (the
    buffer given on standard input): (rule, line, column, severity) of each finding
    located in the file, or whose other write is in it (shown at that write; one
    per place, rule and message, as the server shows them)."""
    proc = run_cli(
        "check", "--stdin-filename", name, "-", "--format", "json", "--no-cache", "--exit-zero", cwd=root, input=text
    )
    assert proc.returncode == 0, proc.stderr
    out, seen = [], set()
    for f in json.loads(proc.stdout)["findings"]:
        here = [loc for loc in (f["location"], *f["related"]) if loc["path"] == name]
        if not here:
            continue
        where = here[0]
        first = f["location"]
        message = (
            f["message"]
            if where is first
            else f"with {first['path']}:{first['line']}:{first['column']}: {f['message']}"
        )
        key = (where["line"], where["column"], f["rule"], message)
        if key not in seen:
            seen.add(key)
            out.append((f["rule"], where["line"] - 1, where["column"] - 1, f["severity"]))
    return sorted(out)


_SEVERITY_NAMES = {
    lsp.DiagnosticSeverity.Error: "error",
    lsp.DiagnosticSeverity.Warning: "warning",
    lsp.DiagnosticSeverity.Information: "info",
}


def _shown(found: list[lsp.Diagnostic]) -> list[tuple[str, int, int, str]]:
    return sorted(
        (str(d.code), d.range.start.line, d.range.start.character, _SEVERITY_NAMES[d.severity]) for d in found
    )


@pytest.mark.integration
def test_language_server_state_kept_between_saves_gives_a_cold_checks_diagnostics(tmp_path):
    """The server keeps what its runs decoded and judged between saves; each save must
    still show what a cold check of the project shows: after the saved file changes,
    after a file the editor never opened changes on disk, after a helper and the
    configuration change, and when an earlier buffer comes back."""
    jobs = "jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\n  c: {paths: [c.sql]}\n"
    other = "UPDATE s.orders SET x = 1 WHERE id = 3;\n"
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": HARMLESS, "c.sql": other, "delta-lint.yaml": CONFIG + jobs})

    async def scenario() -> None:
        session = Session(p)
        await session.start()
        try:

            async def same_as_cold(text: str, opened: bool = False) -> list:
                if opened:
                    session.open("b.sql", text)
                else:
                    session.save("b.sql", text)
                shown = _shown(await session.diagnostics("b.sql"))
                assert shown == _cold_diagnostics(p, "b.sql", text)
                return shown

            assert await same_as_cold(DELETE_B, opened=True)  # opened: a cold run fills the memory
            assert await same_as_cold(HARMLESS) == []
            moved = await same_as_cold("-- moved down\n" + DELETE_B)
            assert [line for _, line, _, _ in moved] == [1, 1]
            # a file the editor never opened changes on disk: c.sql now writes another table
            (p / "c.sql").write_text("UPDATE s.elsewhere SET x = 1 WHERE id = 3;\n")
            assert len(await same_as_cold("-- moved down\n" + DELETE_B)) == 1
            # the configuration: b.sql and a.sql in one job, run one after the other
            (p / "delta-lint.yaml").write_text(CONFIG + "jobs:\n  ab: {paths: [a.sql, b.sql]}\n  c: {paths: [c.sql]}\n")
            assert await same_as_cold("-- moved down\n" + DELETE_B) == []
            (p / "delta-lint.yaml").write_text(CONFIG + jobs)
            assert await same_as_cold(DELETE_B)  # an earlier buffer and configuration again
            assert session.messages == []
        finally:
            await session.stop()

    asyncio.run(scenario())


@pytest.mark.parametrize(("rule", "unused"), [("DL102", False), ("DL101", True)])
def test_server_keeps_a_helpers_suppression_used_by_a_write_reported_at_its_call(tmp_path, rule, unused):
    """A write through a helper is reported at the call (another file) and names the
    helper's statement in its sites, where a suppression comment silences it: the
    helper's diagnostics, worked out from the findings touching it, must not call the
    comment unused. A comment for another rule is unused, both ways as a cold check."""
    from delta_lint.server import findings_for
    from tests.test_statement_sites import HELPERS, JOB_A, JOB_B

    helpers = HELPERS.replace(".saveAsTable(table)\n", f".saveAsTable(table)  # delta-lint: ignore[{rule}]\n")
    files = {"helpers.py": helpers, "job_a.py": JOB_A, "job_b.py": JOB_B, "delta-lint.yaml": "spark: none\n"}
    p = project(tmp_path, files)
    shown = findings_for(p / "helpers.py", helpers, {})
    assert [f.rule == "DL005" for f in shown.findings] == ([True] if unused else [])
    from lsprotocol.converters import get_converter

    from delta_lint.server import diagnostics

    assert get_converter().unstructure(diagnostics(shown, helpers.splitlines())) == cold_diagnostics(
        p, "helpers.py", helpers
    )


def test_saves_of_two_files_with_one_memory_each_show_their_own_findings(tmp_path):
    """The server keeps, per saved file, which display paths name it (`findings_for`,
    in its memory): saving one file, then another, then the first again with one
    memory shows each file the findings a check without that memory shows it."""
    from delta_lint.server import findings_for

    jobs = "jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\n"
    p = project(tmp_path, {"a.sql": MERGE_A, "b.sql": DELETE_B, "delta-lint.yaml": CONFIG + jobs})
    memory: dict = {}
    seen = []
    for name, text in (("b.sql", DELETE_B), ("a.sql", MERGE_A), ("b.sql", HARMLESS), ("b.sql", DELETE_B)):
        kept = findings_for(p / name, text, memory)
        alone = findings_for(p / name, text, None)
        assert [f.to_json() for f in kept.findings] == [f.to_json() for f in alone.findings], name
        seen.append(len(kept.findings))
    assert seen[0] and seen[1] and not seen[2] and seen[3]  # the near miss: a harmless buffer shows nothing
