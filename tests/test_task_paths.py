"""A task path that names the workspace root is a task not analysed, not an internal error."""

from __future__ import annotations


def test_a_task_path_of_the_workspace_root_is_a_task_not_analysed(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from delta_lint.cli import app

    (tmp_path / "resources").mkdir()
    (tmp_path / "databricks.yml").write_text("bundle:\n  name: x\ninclude:\n  - resources/*.yml\n")
    (tmp_path / "resources" / "j.yml").write_text(
        "resources:\n  jobs:\n    j:\n      tasks:\n        - task_key: t\n"
        "          notebook_task:\n            notebook_path: /.\n"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", ".", "--no-cache", "--spark", "none"])
    assert result.exit_code == 0, result.output
    assert "not in this project" in " ".join(result.output.split())  # the text report wraps at its width
