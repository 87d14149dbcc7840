from __future__ import annotations

from pathlib import Path

import pytest

from delta_lint.config import validate
from delta_lint.run import check

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture(autouse=True, scope="session")
def _own_cache_and_key(tmp_path_factory):
    """Every test (and every delta-lint process it starts) keeps its cache and cache
    key in a folder of this session, never in the user's own."""
    import os

    home = tmp_path_factory.mktemp("xdg")
    saved = {k: os.environ.get(k) for k in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "DELTA_LINT_CACHE_DIR")}
    os.environ["XDG_CACHE_HOME"] = str(home / "cache")
    os.environ["XDG_STATE_HOME"] = str(home / "state")
    os.environ.pop("DELTA_LINT_CACHE_DIR", None)
    os.environ.pop("DELTA_LINT_CACHE_KEY", None)
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


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
