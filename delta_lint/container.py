"""Where the folders of a container come from: paths a DAG names inside its worker.

An Airflow worker runs in a container, so its DAGs name the container's paths
(`cd /opt/airflow/dbt && dbt run`, `python /opt/airflow/scripts/load.py`,
`--project-dir /usr/app/dbt_project`), not the repository's. The repository says
where those folders come from:

* a docker-compose file's bind mounts (`volumes: - ./dbt:/opt/airflow/dbt`, or the
  long form `{type: bind, source: ./dbt, target: /opt/airflow/dbt}`), relative to
  the compose file's folder; `${VAR:-default}` takes its default, a variable with
  none is unknown and its mount is left out;
* a Dockerfile's `COPY` / `ADD` of its folder's files (the build context is taken
  to be the Dockerfile's folder), with `WORKDIR`, `ENV` and `ARG` values known from
  the file; the Airflow image's `AIRFLOW_HOME` (/opt/airflow) and the Astro
  runtime image, which copies its whole folder to /usr/local/airflow.

`project_paths` maps a container path through the mount of the longest container
folder holding it; a mount wins over a copy of the same folder (it hides the
image's files). Several mounts of that folder from different places: each place is
one answer, and the caller says "one of these". Read as text and YAML only.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from delta_lint.config import ConfigError
from delta_lint.safeio import read_input_text

MAX_CONTAINER_BYTES = 512 * 1024  # a compose file or a Dockerfile is kilobytes
MAX_WALK = 12  # nesting of a compose document walked for `volumes`
COMPOSE = re.compile(r"^(?:docker-)?compose(?:[.-][\w.-]*)?\.ya?ml$")
DOCKERFILE = re.compile(r"^(?:(?:Dockerfile|Containerfile)(?:\.[\w.-]+)?|[\w.-]+\.[Dd]ockerfile)$")
_VAR = re.compile(r"\$(?:\{(\w+)(?:(:?-)([^}]*))?\}|(\w+))")
_IMAGE_ENV = {"apache/airflow": {"AIRFLOW_HOME": "/opt/airflow"}}
# images whose ONBUILD copies the build context to a folder: Astro's runtime
_IMAGE_COPIES = {"astronomer/astro-runtime": "/usr/local/airflow", "astro-runtime": "/usr/local/airflow"}


@dataclass(frozen=True)
class Mount:
    """A container folder or file (`inside`, absolute) and the project path it holds
    (`outside`, relative to the root, "" for the root); `by` says where that is read."""

    inside: str
    outside: str
    by: str
    bind: bool = True  # a compose bind mount (else an image's copy, which a mount hides)


def is_container_file(name: str) -> bool:
    """Whether a file name is a compose file or a Dockerfile (`bundle.listing("containers")`)."""
    return bool(COMPOSE.match(name) or DOCKERFILE.match(name))


def read_mounts(files: tuple[str, ...] | list[str], root: Path) -> tuple[Mount, ...]:
    """The mounts and copies of the given compose files and Dockerfiles; one that
    cannot be read gives none (the paths are then matched by name)."""
    out: list[Mount] = []
    for file, text, folder, label in _readable(files, root):
        if COMPOSE.match(file.name):
            out += _compose_mounts(text, folder, label)
        else:
            out += _dockerfile_copies(text, folder, label, root)
    return tuple(out)


def _readable(files: tuple[str, ...] | list[str], root: Path) -> Iterator[tuple[Path, str, str, str]]:
    """(file, its text, its folder in the project, its shown name) of each given file
    that can be read and lies in the project; the others are left out."""
    for file in map(Path, files):
        try:
            text = read_input_text(file, root, MAX_CONTAINER_BYTES)
        except (OSError, UnicodeDecodeError, ValueError, ConfigError):
            continue
        folder = _project_rel(file.parent, root)
        if folder is None:
            continue
        yield file, text, folder, f"{folder + '/' if folder else ''}{file.name}"


def read_environment(files: tuple[str, ...] | list[str], root: Path, prefix: str) -> dict[str, dict[str, str]]:
    """The environment variables named `prefix...` that the given compose files
    (`environment:` of any service or anchor, a mapping or `NAME=value` items) and
    Dockerfiles (`ENV`) set: name -> value -> the file that sets it (a deployment's
    settings, such as Airflow's `AIRFLOW__CORE__...`). A value that names a variable
    with no default is unknown and left out; so is a file that cannot be read."""
    out: dict[str, dict[str, str]] = {}
    for file, text, _, label in _readable(files, root):
        found: dict[str, str] = {}
        if COMPOSE.match(file.name):
            found = _compose_environment(text)
        else:
            for word, rest in _instructions(text):
                if word == "ENV":
                    _assign(rest, found, True)
        for name, value in found.items():
            if name.startswith(prefix):
                out.setdefault(name, {}).setdefault(value, label)
    return out


def _compose_environment(text: str) -> dict[str, str]:
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return {}
    out: dict[str, str] = {}
    seen: set[int] = set()

    def walk(value: Any, depth: int) -> None:
        if depth > MAX_WALK or id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "environment" and isinstance(item, (dict, list)):
                    pairs = item.items() if isinstance(item, dict) else (str(i).partition("=")[::2] for i in item)
                    for name, given in pairs:
                        expanded = _expand(str(given), {}) if isinstance(given, (str, int)) else None
                        if isinstance(name, str) and expanded is not None:
                            out[name] = expanded.strip()
                else:
                    walk(item, depth + 1)
        elif isinstance(value, list):
            for item in value:
                walk(item, depth + 1)

    walk(doc, 0)
    return out


def project_paths(path: str, mounts: tuple[Mount, ...], root: Path) -> tuple[list[str], str]:
    """The project paths (files or folders that exist, relative to the root) a
    container path stands for, and the files that say so; [] when no mount holds it
    (or what it maps to is not in the project). Two or more: one of these."""
    if not path.startswith("/") or not mounts:
        return [], ""
    path = posixpath.normpath(path)
    holding = [m for m in mounts if path == m.inside or path.startswith(m.inside.rstrip("/") + "/")]
    if not holding:
        return [], ""
    if any(m.bind for m in holding):
        holding = [m for m in holding if m.bind]
    longest = max(len(m.inside) for m in holding)
    found: dict[str, str] = {}
    for m in holding:
        if len(m.inside) != longest:
            continue
        rest = path[len(m.inside) :].lstrip("/")
        candidate = posixpath.normpath(posixpath.join(m.outside, rest)) if rest else m.outside
        candidate = "" if candidate == "." else candidate
        if candidate.startswith("..") or not (root / candidate).exists():
            continue
        found.setdefault(candidate, m.by)
    return sorted(found), ", ".join(sorted(set(found.values())))


def _project_rel(folder: Path, root: Path) -> str | None:
    try:
        rel = Path(os.path.abspath(folder)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return None
    return "" if rel == "." else rel


def _expand(text: str, env: dict[str, str]) -> str | None:
    """`$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}` with the known values
    (a default when the variable is not known); None when one is unknown."""
    unknown = False

    def sub(m: re.Match) -> str:
        nonlocal unknown
        name = m.group(1) or m.group(4)
        if name in env:
            return env[name]
        if m.group(2) is not None:
            return m.group(3)
        unknown = True
        return ""

    out = _VAR.sub(sub, text)
    return None if unknown else out


def _host_path(host: str, folder: str) -> str | None:
    """A mount's or copy's source as a project path: relative to `folder`, inside the root."""
    host = _expand(host, {})
    if host is None or not host or host.startswith(("/", "~")):
        return None  # a variable only a run knows, a path of the host machine
    rel = posixpath.normpath(posixpath.join(folder, host)) if folder else posixpath.normpath(host)
    if rel.startswith(".."):
        return None
    return "" if rel == "." else rel


def _compose_mounts(text: str, folder: str, label: str) -> list[Mount]:
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return []
    out: list[Mount] = []
    seen: set[int] = set()  # an anchor's value is one object however many aliases name it

    def walk(value: Any, depth: int) -> None:
        if depth > MAX_WALK or id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "volumes" and isinstance(item, list):
                    for entry in item:
                        mount = _volume(entry, folder, label)
                        if mount is not None and mount not in out:
                            out.append(mount)
                else:
                    walk(item, depth + 1)
        elif isinstance(value, list):
            for item in value:
                walk(item, depth + 1)

    walk(doc, 0)
    return out


def _volume(entry: Any, folder: str, label: str) -> Mount | None:
    """One `volumes` entry as a bind mount of a project path, else None (a named
    volume, a path of the host machine, an unknown variable)."""
    if isinstance(entry, str):
        expanded = _expand(entry, {})  # first: `${AIRFLOW_PROJ_DIR:-.}/dags` holds a colon
        parts = expanded.split(":") if expanded is not None else []
        if len(parts) < 2 or not parts[0].startswith((".", "/", "~")):
            return None  # a named volume, an unknown variable
        host, inside = parts[0], parts[1]
    elif isinstance(entry, dict) and entry.get("type", "bind") == "bind":
        host, inside = entry.get("source"), entry.get("target")
        if not (isinstance(host, str) and isinstance(inside, str)):
            return None
    else:
        return None
    outside = _host_path(host, folder)
    inside = _expand(inside, {})
    if outside is None or inside is None or not inside.startswith("/"):
        return None
    return Mount(posixpath.normpath(inside), outside, label)


def _instructions(text: str) -> list[tuple[str, str]]:
    """A Dockerfile's (instruction, arguments), continuation lines joined, comments out."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def _dockerfile_copies(text: str, folder: str, label: str, root: Path) -> list[Mount]:
    env: dict[str, str] = {}
    workdir = "/"
    out: list[Mount] = []
    for word, rest in _instructions(text):
        if word == "FROM":
            image = rest.split()[0].split("@")[0].rsplit(":", 1)[0] if rest.split() else ""
            for name, values in _IMAGE_ENV.items():
                if image == name or image.endswith("/" + name):
                    env.update(values)
            for name, inside in _IMAGE_COPIES.items():
                if image == name or image.endswith("/" + name):
                    out.append(Mount(inside, folder, label, bind=False))
                    workdir = inside
        elif word in ("ENV", "ARG"):
            _assign(rest, env, word == "ENV")
        elif word == "WORKDIR":
            value = _expand(rest, env)
            if value is not None:
                workdir = posixpath.normpath(posixpath.join(workdir, value))
        elif word in ("COPY", "ADD"):
            out += _copies(rest, env, workdir, folder, label, root)
    return out


def _assign(rest: str, env: dict[str, str], plain: bool) -> None:
    """`ENV A=1 B=2`, `ENV A 1`, `ARG A=1` (an ARG with no default is unknown)."""
    try:
        words = shlex.split(rest)
    except ValueError:
        return
    if plain and len(words) >= 2 and "=" not in words[0]:
        value = _expand(" ".join(words[1:]), env)
        if value is not None:
            env[words[0]] = value
        return
    for w in words:
        name, eq, value = w.partition("=")
        if eq:
            expanded = _expand(value, env)
            if expanded is not None and (plain or name not in env):  # an ARG does not undo an ENV
                env[name] = expanded


def _copies(rest: str, env: dict[str, str], workdir: str, folder: str, label: str, root: Path) -> list[Mount]:
    """One COPY / ADD: each source of the build context and where it lands."""
    try:
        words = json.loads(rest) if rest.startswith("[") else shlex.split(rest)
    except ValueError:
        return []
    if not isinstance(words, list) or any(not isinstance(w, str) for w in words):
        return []
    if any(w.startswith("--from") for w in words):
        return []  # from another stage or image, not the repository
    words = [w for w in words if not w.startswith("--")]
    if len(words) < 2:
        return []
    *sources, dest = words
    dest_text = _expand(dest, env)
    if dest_text is None:
        return []
    into_folder = dest_text.endswith("/") or len(sources) > 1
    dest_text = posixpath.normpath(posixpath.join(workdir, dest_text))
    out = []
    for source in sources:
        if any(c in source for c in "*?[") or "://" in source:
            continue
        outside = _host_path(source, folder)
        if outside is None:
            continue
        # a file copied into a folder keeps its name; a folder's contents are copied
        into = into_folder and (root / outside).is_file()
        inside = posixpath.join(dest_text, posixpath.basename(outside)) if into else dest_text
        out.append(Mount(inside, outside, label, bind=False))
    return out
