from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.config import validate
from delta_lint.run import check

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def lint(tmp_path, monkeypatch):
    """Write files into a temporary project and run the whole pipeline on them."""

    def run(files: dict[str, str], config: dict | None = None):
        for name, text in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        cfg = validate(config or {}, tmp_path / "delta-lint.yaml")
        monkeypatch.chdir(tmp_path)
        return check([tmp_path], cfg, cwd=tmp_path, use_cache=False)

    return run
