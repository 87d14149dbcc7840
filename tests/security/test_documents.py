"""Documents read by job code (`yaml.safe_load(open(...))` in a value function): only
those git tracks are loaded, and their values never reach the output except as the
table names they form (a CI credentials file's `private_key` once appeared in a
GitHub annotation as a DL000 excerpt)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.security.test_threat_model import FORMATS, cli

KEY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7secretsecret"
TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
CREDS = {
    "private_key": f"-----BEGIN PRIVATE KEY-----\n{KEY}\n-----END PRIVATE KEY-----\n",
    "token": TOKEN,
    "table": "orders",
}
UTIL = (
    "import json\n\n"
    "def creds():\n    return json.load(open('creds.json'))\n\n"
    "def part():\n    return creds()['token'][6:30]\n"
)
JOB = (
    "from util import creds, part\n\n"
    "c = creds()\n"
    "spark.sql(c['private_key'])\n"
    "spark.sql(f\"INSERT INTO main.s.{c['table']} SELECT 1\")\n"
    "spark.sql(f\"DELETE FROM main.s.t WHERE k = '{c['token']}' AND\")\n"
    "spark.sql(f\"DELETE FROM main.s.t WHERE k = '{c['token']}'\")\n"
    "spark.sql(f\"DELETE FROM main.s.u WHERE k = 'x{part()}'\")\n"
    "spark.sql(f\"DELETE FROM main.s.u WHERE k = 'x{part()}' AND\")\n"
)


def _project(tmp_path: Path, *, track_creds: bool) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "util.py").write_text(UTIL)
    (root / "job.py").write_text(JOB)
    (root / "creds.json").write_text(json.dumps(CREDS))
    (root / "delta-lint.yaml").write_text("spark: none\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "util.py", "job.py", "delta-lint.yaml"], check=True)
    if track_creds:
        subprocess.run(["git", "-C", str(root), "add", "creds.json"], check=True)
    return root


def _intents(root: Path) -> str:
    proc = cli(root, "intents", ".")
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def test_an_untracked_document_is_never_loaded(tmp_path):
    root = _project(tmp_path, track_creds=False)
    for fmt in FORMATS:
        proc = cli(root, "check", ".", "--format", fmt, "--no-cache")
        assert "Traceback" not in proc.stderr
        assert KEY[:20] not in proc.stdout + proc.stderr, fmt
        assert KEY[:20].upper() not in proc.stdout + proc.stderr, fmt
    # not loaded at all: the table it would name stays unknown
    assert "main.s.orders" not in _intents(root)


def test_a_tracked_document_names_tables_but_its_values_are_never_printed(tmp_path):
    root = _project(tmp_path, track_creds=True)
    for fmt in FORMATS:
        proc = cli(root, "check", ".", "--format", fmt, "--no-cache")
        assert "Traceback" not in proc.stderr
        out = (proc.stdout + proc.stderr).lower()
        # neither the key, a slice of it, nor the parser's upper-cased quote of it
        for piece in (KEY[:20], KEY[30:50], KEY[-20:], TOKEN[6:30], TOKEN[10:25]):
            assert piece.lower() not in out, (fmt, piece)
        assert "dl000" in out  # the statements are still reported, at their lines
    shown = _intents(root)
    assert "main.s.orders" in shown  # the name it forms is what it is read for
    assert TOKEN[10:25] not in shown and shown.count("<value of a project document>") == 2


def test_outside_a_git_work_tree_documents_are_read_as_before(tmp_path):
    root = tmp_path / "plain"
    root.mkdir()
    (root / "util.py").write_text(UTIL)
    (root / "job.py").write_text(JOB)
    (root / "creds.json").write_text(json.dumps(CREDS))
    (root / "delta-lint.yaml").write_text("spark: none\n")
    shown = _intents(root)
    assert "main.s.orders" in shown and TOKEN[10:25] not in shown
