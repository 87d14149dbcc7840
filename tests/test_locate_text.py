"""A cached schedule asks every task's file again on each run (`bundle.listing("locate",
...)`), on a fast path with `os.path`: it must answer as the pathlib lookup does for any
task path, in any tree (files, folders, links in and out of the project)."""

from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from delta_lint.bundle import _locate, listing

NAMES = ["a", "b.py", "c.sql", "d.ipynb", "e.", ".f", "a.py", "x"]
PARTS = st.sampled_from(["a", "b", "sub", "..", ".", "", "b.py", "c", "e.", ".f", "x", "a.py", "d.ipynb"])


def _tree(root, layout):
    for folder, name, kind in layout:
        where = root / "project" / folder
        where.mkdir(parents=True, exist_ok=True)
        path = where / name
        if path.exists() or path.is_symlink():
            continue
        if kind == "file":
            path.write_text("x")
        elif kind == "dir":
            path.mkdir()
        elif kind == "link-in":
            path.symlink_to(root / "project" / "sub" / "b.py")
        else:
            (root / "outside.py").write_text("x")
            path.symlink_to(root / "outside.py")


@settings(max_examples=150, deadline=None)
@given(
    layout=st.lists(
        st.tuples(
            st.sampled_from(["", "sub", "sub/deep", "jobs"]),
            st.sampled_from(NAMES),
            st.sampled_from(["file", "file", "dir", "link-in", "link-out"]),
        ),
        max_size=8,
    ),
    value=st.lists(PARTS, min_size=1, max_size=4).map("/".join),
    absolute=st.booleans(),
    base=st.sampled_from(["", "sub", "jobs", "missing"]),
)
def test_the_fast_lookup_answers_as_the_pathlib_one(tmp_path_factory, layout, value, absolute, base):
    root = tmp_path_factory.mktemp("t")
    _tree(root, layout)
    project = root / "project"
    folder = project / base
    if absolute:
        value = str(project) + "/" + value
    asked = listing("locate", json.dumps([value, str(folder), str(project)]))
    expected = _locate(value, folder, project)
    assert asked == ((expected,) if expected is not None else ())
    # found beside the task (a workspace path `/a` may be found by its tail instead):
    # the file pathlib resolves its first candidate to
    if asked and not absolute and not value.startswith("/"):
        assert (project.resolve() / asked[0]) == _first_candidate(value, folder).resolve()


def _first_candidate(value: str, folder):
    """The first candidate of a task path that names a file, resolved by pathlib alone
    (an oracle independent of the lookup's own resolution of links and folders)."""
    from pathlib import Path

    first = Path(value) if value.startswith("/") else folder / value
    tries = [first] if first.suffix or not first.name else [first, *(first.with_suffix(s) for s in SUFFIXES)]
    return next((t for t in tries if t.is_file()), Path("/nonexistent"))


SUFFIXES = (".py", ".sql", ".ipynb")


def test_a_relative_project_root_is_resolved_from_the_working_folder(tmp_path, monkeypatch):
    (tmp_path / "p" / "jobs").mkdir(parents=True)
    (tmp_path / "p" / "jobs" / "load.py").write_text("x")
    monkeypatch.chdir(tmp_path)
    assert listing("locate", json.dumps(["load", "p/jobs", "p"])) == ("jobs/load.py",)
    assert listing("locate", json.dumps(["missing", "p/jobs", "p"])) == ()
    assert os.getcwd() == str(tmp_path)


def test_a_task_file_behind_a_link_is_where_the_link_leads(tmp_path):
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "jobs").mkdir()
    (project / "sub" / "b.py").write_text("x")
    (tmp_path / "outside.py").write_text("x")
    (project / "jobs" / "inside.py").symlink_to(project / "sub" / "b.py")
    (project / "jobs" / "away.py").symlink_to(tmp_path / "outside.py")
    ask = lambda value: listing("locate", json.dumps([value, str(project / "jobs"), str(project)]))  # noqa: E731
    assert ask("inside") == ("sub/b.py",)
    assert ask("away") == ()  # a file elsewhere on the machine is no file of the project
