"""The language server's answer to a save looks again only at the findings of the
tables the save re-judged (`server.findings_for` with the server's memory): every
other table's findings were looked at for the same file by an earlier save. Each
answer must still be what a check without that memory shows the file."""

from __future__ import annotations

from pathlib import Path

from tests.test_integrations import CONFIG, DELETE_B, MERGE_A, project

JOBS = (
    "jobs:\n  a: {paths: [a.sql]}\n  b: {paths: [b.sql]}\n  c: {paths: [c.sql]}\n  d: {paths: [d.sql]}\n"
    "  e: {paths: [e.sql]}\n"
)
B_BOTH = DELETE_B + "UPDATE s.items SET y = 1 WHERE id = 2;\n"
C_ITEMS = "UPDATE s.items SET y = 2 WHERE id = 2;\n"
D_ELSEWHERE = "UPDATE s.elsewhere SET y = 3;\n"
E_ELSEWHERE = "DELETE FROM s.elsewhere;\n"


def _shown(found) -> list[dict]:  # noqa: ANN001 - server.FileFindings
    return [f.to_json() for f in found.findings]


def _same_as_alone(p: Path, name: str, text: str, memory: dict) -> list[dict]:
    from delta_lint.server import findings_for

    kept = _shown(findings_for(p / name, text, memory))
    assert kept == _shown(findings_for(p / name, text, None)), text
    return kept


def test_saves_show_a_tables_new_findings_and_keep_the_others(tmp_path):
    """b.sql writes two tables; saves of it with a memory show what a check without
    one shows: after comments only (no table judged anew), after another file on disk
    stops writing one of b's tables (that table's findings change, the other's are
    kept), and after it writes it again."""
    p = project(
        tmp_path,
        {
            "a.sql": MERGE_A,
            "b.sql": B_BOTH,
            "c.sql": C_ITEMS,
            "d.sql": D_ELSEWHERE,
            "e.sql": E_ELSEWHERE,
            "delta-lint.yaml": CONFIG + JOBS,
        },
    )
    memory: dict = {}
    first = _same_as_alone(p, "b.sql", B_BOTH, memory)
    tables = {f["table"] for f in first}
    assert tables == {"s.orders", "s.items"}
    for i in range(3):  # the near miss: s.elsewhere's findings (d.sql, e.sql) never show in b.sql
        assert _same_as_alone(p, "b.sql", f"-- edit {i}\n" + B_BOTH, memory) != []
    (p / "c.sql").write_text(D_ELSEWHERE)  # s.items is judged anew: b.sql alone writes it
    shown = _same_as_alone(p, "b.sql", "-- edit again\n" + B_BOTH, memory)
    assert {f["table"] for f in shown} == {"s.orders"}
    (p / "c.sql").write_text(C_ITEMS)
    assert {f["table"] for f in _same_as_alone(p, "b.sql", B_BOTH, memory)} == tables
