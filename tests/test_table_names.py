"""Table names: one home (`settings.TableNames`), made once a run from the configuration."""

from __future__ import annotations

from pathlib import Path

from delta_lint.config import Config, load_config
from delta_lint.settings import TableNames
from tests.conftest import FIXTURES


def test_a_table_has_one_name_however_it_is_written(tmp_path):
    names = TableNames.of(
        Config(root=tmp_path, default_schema="main.sales", locations={"orders": "tables/orders", "s.x": "/abs/x/"})
    )
    assert names.qualify("t") == "main.sales.t"
    assert names.qualify("crm.t") == "main.crm.t"
    assert names.qualify("hive.crm.t") == "hive.crm.t"
    # a path table is the table `locations:` puts there (written relative to the configuration, or absolute)
    assert names.qualify(f"delta:{tmp_path}/tables/./orders") == "main.sales.orders"
    assert names.qualify("delta:/abs/x") == "main.s.x"
    assert names.qualify("delta:/abs/y/../z/") == "delta:/abs/z"
    assert TableNames().qualify("t") == "t"


def test_a_check_makes_its_naming_once_and_resolves_settings_once(monkeypatch):
    """The run's naming reaches every stage that compares table names (non-Delta
    tables, writers per table, the settings stage, the engine) as one object."""
    import delta_lint.run as run
    import delta_lint.settings as settings

    made, resolved = [], []
    real_of, real_resolve = settings.TableNames.of.__func__, run.resolve_settings
    monkeypatch.setattr(settings.TableNames, "of", classmethod(lambda cls, c: made.append(c) or real_of(cls, c)))
    monkeypatch.setattr(run, "resolve_settings", lambda *a, **k: resolved.append(a[4]) or real_resolve(*a, **k))
    root = FIXTURES / "jobs"
    monkeypatch.chdir(root)
    result = run.check([Path(".")], load_config(cwd=root), cwd=root, use_cache=False, spark="none")
    assert result.findings and len(made) == 1 and len(resolved) == 1
    assert result.pairing is not None and resolved[0] is result.pairing.engine.names
