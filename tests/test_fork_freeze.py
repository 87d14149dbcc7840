"""Workers are forked with the parent's objects out of the cyclic collector's sight
(`gc.freeze`, see `run._frozen_for_fork`): what the workers answer is what one
process answers, and the parent is left as it was, nothing of it frozen, whether
the workers succeed or fail."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from corpus import Corpus  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    Corpus(40, seed=5).write(out)
    return out


@pytest.mark.parametrize("threshold", ["PARALLEL_MIN_FILES", "PARALLEL_MIN_INTENTS"])
def test_forked_workers_answer_as_one_process_and_leave_nothing_frozen(corpus, monkeypatch, threshold):
    import delta_lint.run as run
    from delta_lint.config import load_config

    monkeypatch.chdir(corpus)
    config = load_config(cwd=corpus)
    single = run.check([corpus], config, cwd=corpus, use_cache=False, jobs=1)
    monkeypatch.setattr(run, threshold, 0)
    assert gc.get_freeze_count() == 0
    forked = run.check([corpus], config, cwd=corpus, use_cache=False, jobs=2)
    assert single.findings and forked.findings == single.findings
    assert forked.diagnostics == single.diagnostics
    assert gc.get_freeze_count() == 0  # the near miss: a parent left frozen would never collect what it holds


def test_a_failing_worker_leaves_nothing_frozen(tmp_path, monkeypatch):
    import delta_lint.run as run
    from delta_lint.config import Config
    from delta_lint.settings import ReadSettings

    for i in range(3):
        (tmp_path / f"j{i}.sql").write_text("DELETE FROM s.t WHERE d < '2020-01-01';\n")

    def fail(data, suffix, display, *args, **kwargs):
        raise ZeroDivisionError(display)

    monkeypatch.setattr(run, "analyze_data", fail)
    monkeypatch.setattr(run, "PARALLEL_MIN_FILES", 0)
    with pytest.raises(ZeroDivisionError):
        run.check([tmp_path], Config(root=tmp_path), cwd=tmp_path, use_cache=False, read=ReadSettings(), jobs=2)
    assert gc.get_freeze_count() == 0
