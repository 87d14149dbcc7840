"""Score one run of delta-lint on one real-world repository against its expectation file.

`run_repo` runs a revision's `check`, `intents` and `schedule` as a user would;
`score` compares them with the team's blind annotation and adds the numbers
that need no annotation (`ecosystem`). The command line is `python -m
benchmarks.realworld` (see `__main__`).

Per repository and in total: write-site recall with the correct table, false
intents, files dropped whole, coverage diagnostics per 1,000 lines, expected
conflicts found, false alarms (conflict findings that match no expected
conflict), skipped-kind files still reported as DL000, intents on non-Delta
writes, "no Delta table" notes for workspace paths, run time.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import ecosystem

HERE = Path(__file__).resolve().parent
EXPECTATIONS = HERE / "expectations"
# What delta-lint could not analyse, not a predicted conflict (`model.is_coverage`):
# DL000-DL008. DL008 (a value past the analysis budget) was left out of this list,
# so its notes counted as false alarms.
COVERAGE_RULES = {f"DL00{n}" for n in range(9)}
# Diagnostics that lose a whole file: every write in it is gone.
_DROPPED = re.compile(
    r"Python syntax error|cannot parse Python|nested too deeply|cannot read|not valid UTF-8|too large"
)
_SOURCE_SUFFIXES = {".py", ".sql", ".ipynb", ".scala", ".r"}


@dataclass
class Outcome:
    name: str
    role: str
    writes: int = 0
    found_sites: int = 0
    found_tables: int = 0
    false_intents: int = 0
    dropped_files: int = 0
    lines: int = 0
    coverage: int = 0
    conflicts: int = 0
    conflicts_found: int = 0
    false_alarms: int = 0
    skipped_as_dl000: int = 0
    non_delta_intents: int = 0
    workspace_notes: int = 0
    seconds: float = 0.0
    exit_code: int = 0
    split: str = "learn"
    internal_errors: int = 0
    timed_out: int = 0
    plain_writes: int = 0
    silent_drops: int = 0
    helper_unlocated: int = 0
    in_skipped: int = 0
    dl000_valid: int = 0
    idle_job_files: int = 0
    intents: int = 0
    unresolved_intents: int = 0
    findings: int = 0
    misses: list[str] = field(default_factory=list)
    alarms: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


def _site(text: str) -> tuple[str, int]:
    path, _, line = str(text).rpartition(":")
    return path.lstrip("./"), int(line) if line.isdigit() else -1


_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Match,
    getattr(ast, "TryStar", ast.Try),
)


class _Sites:
    """Where a site is, as annotators and delta-lint may each write it: the first
    line of the simple Python statement that holds the line (an annotator names
    `q = (` where delta-lint names the `df.writeStream` line inside it), and line 1
    for a YAML file (a dbt snapshot or model defined in YAML, sited at its file's
    line 1 by the annotation rules). Other lines, and lines a compound statement's
    header holds, are themselves."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.starts: dict[str, dict[int, int]] = {}

    def __call__(self, site: tuple[str, int]) -> tuple[str, int]:
        path, line = site
        if path.endswith((".yml", ".yaml")):
            return path, 1
        if not path.endswith(".py"):
            return site
        if path not in self.starts:
            self.starts[path] = self._statements(self.root / path)
        return path, self.starts[path].get(line, line)

    @staticmethod
    def _statements(file: Path) -> dict[int, int]:
        try:
            tree = ast.parse(file.read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError):
            return {}
        starts: dict[int, int] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt) and not isinstance(node, _COMPOUND) and node.end_lineno:
                for n in range(node.lineno + 1, node.end_lineno + 1):
                    starts.setdefault(n, node.lineno)  # a statement inside another's lines is compound-held
        return starts


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> tuple[int, dict | list | None, str]:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    try:
        data = json.loads(proc.stdout) if proc.stdout.strip() else None
    except json.JSONDecodeError:
        data = None
    return proc.returncode, data, proc.stderr


def _source_lines(root: Path) -> int:
    total = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if Path(name).suffix.lower() in _SOURCE_SUFFIXES:
                try:
                    with open(os.path.join(dirpath, name), "rb") as fh:
                        total += fh.read().count(b"\n")
                except OSError:
                    pass
    return total


@dataclass
class Run:
    """What one revision of delta-lint printed on one repository (`check`, `intents`, `schedule`)."""

    exit_code: int
    report: dict
    intents: list[dict]
    schedule: dict | None
    stderr: str
    seconds: float
    timed_out: bool = False


def run_repo(
    expect: dict, checkout: Path, command: list[str], env: dict[str, str] | None = None, timeout: float = 600
) -> Run:
    """Run `check`, `intents` and `schedule` as a user would, at the expectation's folder of a
    private copy of the checkout made a git work tree (as a user's clone is)."""
    env = dict(env or os.environ, NO_COLOR="1")
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "work"
        shutil.copytree(checkout, clone, symlinks=True)
        subprocess.run(["git", "init", "-q", str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "add", "-A"], check=False, capture_output=True)  # as a clone: tracked
        cwd = clone / expect.get("folder", ".")
        start = time.perf_counter()
        try:
            code, report, err = _run([*command, "check", ".", "--format", "json", "--no-cache"], cwd, env, timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            code, report, err, timed_out = -1, None, "timed out", True
        seconds = time.perf_counter() - start
        intents: object = None
        schedule: object = None
        if not timed_out:
            try:
                _, intents, _ = _run([*command, "intents", ".", "--format", "json"], cwd, env, timeout)
                _, schedule, _ = _run([*command, "schedule", ".", "--format", "json"], cwd, env, timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
    return Run(
        code,
        report if isinstance(report, dict) else {"findings": []},
        intents if isinstance(intents, list) else [],
        schedule if isinstance(schedule, dict) else None,
        err,
        seconds,
        timed_out,
    )


def measure(expect: dict, checkout: Path, delta_lint: str | list[str]) -> Outcome:
    command = [delta_lint] if isinstance(delta_lint, str) else delta_lint
    return score(expect, checkout, run_repo(expect, checkout, command))


def score(expect: dict, checkout: Path, run: Run) -> Outcome:
    name = expect["repo"]
    out = Outcome(name, expect.get("role", "positive"))
    root = checkout / expect.get("folder", ".")
    out.seconds, out.exit_code = run.seconds, run.exit_code
    report, intents = run.report, run.intents
    out.internal_errors = int(run.exit_code == 2 or "internal error" in run.stderr.lower()) + sum(
        1 for f in report.get("findings", []) if "internal error" in str(f.get("message", "")).lower()
    )
    out.timed_out = int(run.timed_out)
    if run.exit_code not in (0, 1) and not run.timed_out:
        out.extra.append(f"check exit {run.exit_code}: {run.stderr.strip()[-300:]}")
    out.lines = _source_lines(root)

    canon = _Sites(root)
    by_site: dict[tuple[str, int], list[dict]] = {}
    for intent in intents:
        if intent.get("kind") == "streaming_read":
            continue
        if intent.get("table") is None and "foreach_batch_sink" in (intent.get("flags") or []):
            continue  # a foreachBatch query's checkpoint, kept for shared-checkpoint checks: no table write
        by_site.setdefault(canon((intent["path"].lstrip("./"), intent["line"])), []).append(intent)
    # a write reached through a helper is reported at the call and names its own
    # statement (`sites`): an annotation may site it at either
    by_statement: dict[tuple[str, int], list[dict]] = {}
    for got in by_site.values():
        for intent in got:
            for at in intent.get("sites") or []:
                by_statement.setdefault(canon((at["path"].lstrip("./"), at["line"])), []).append(intent)

    expected_sites: set[tuple[str, int]] = set()
    matched: set[int] = set()
    for write in expect.get("writes") or []:
        site = canon(_site(write["site"]))
        expected_sites.add(site)
        out.writes += 1
        got = [*by_site.get(site, []), *by_statement.get(site, [])]
        matched.update(id(i) for i in got)
        want = str(write.get("table", "?")).lower()
        if got:
            out.found_sites += 1
        tables = {str(i.get("table") or "").lower() for i in got}
        if got and (want == "?" or any(_same_table(want, t) for t in tables)):
            out.found_tables += 1
        else:
            out.misses.append(f"{write['site']} {want} ({write.get('kind')}): got {sorted(tables) or 'nothing'}")
    non_delta = {canon(_site(w["site"])) for w in expect.get("non_delta") or []}
    for site, got in by_site.items():
        if site in non_delta:
            out.non_delta_intents += len(got)
        elif site not in expected_sites and not all(id(i) in matched for i in got):
            out.false_intents += len(got)
            out.extra.append(f"{site[0]}:{site[1]} {[i.get('table') for i in got]} ({got[0].get('kind')})")

    skipped = [s["path"].lstrip("./") for s in expect.get("skipped") or []]
    findings = report.get("findings", [])
    dropped: set[str] = set()
    for f in findings:
        rule = f.get("rule", "")
        path = f.get("location", {}).get("path", "").lstrip("./")
        if rule in COVERAGE_RULES:
            out.coverage += 1
            if rule in ("DL002", "DL003") or (rule == "DL000" and _DROPPED.search(f.get("message", ""))):
                dropped.add(path)
            if rule == "DL000" and any(path == s or (s.endswith("/") and path.startswith(s)) for s in skipped):
                out.skipped_as_dl000 += 1
            if rule == "DL004" and re.search(r"(dbfs:|/mnt/)", f.get("message", "")):
                out.workspace_notes += 1
    out.dropped_files = len(dropped)

    conflicts = [f for f in findings if f.get("rule", "") not in COVERAGE_RULES]
    used: set[int] = set()
    for want in expect.get("conflicts") or []:
        out.conflicts += 1
        sites = [canon(_site(s)) for s in want["sites"]]
        hit = None
        # a finding lists every partner of its write (one finding per site), so one
        # finding can stand for several expected pairs
        for n, f in enumerate(conflicts):
            if not _same_conflict_table(str(want.get("table", "?")), f.get("table")):
                continue
            here = canon((f["location"]["path"].lstrip("./"), f["location"]["line"]))
            others = {canon((r["path"].lstrip("./"), r["line"])) for r in f.get("related", [])}
            a, b = sites[0], sites[-1]
            if (here == a and (b in others or a == b)) or (here == b and (a in others or a == b)):
                hit = n
                break
        if hit is None:
            out.misses.append(f"conflict {want['table']} {want['sites']} {want.get('exception', '')} not found")
        else:
            out.conflicts_found += 1
            used.add(hit)
            # the same pair reported from the other side is the same conflict
            for n, f in enumerate(conflicts):
                here = canon((f["location"]["path"].lstrip("./"), f["location"]["line"]))
                if here in sites and f.get("table") == conflicts[hit].get("table"):
                    used.add(n)
    for n, f in enumerate(conflicts):
        if n not in used:
            out.false_alarms += 1
            loc = f["location"]
            out.alarms.append(f"{loc['path']}:{loc['line']} {f['rule']} {f.get('table')}: {f.get('message', '')[:120]}")
    eco = ecosystem.measure(root, report, run.intents, run.schedule, skipped, non_delta)
    for attr in (
        "plain_writes",
        "silent_drops",
        "helper_unlocated",
        "in_skipped",
        "dl000_valid",
        "idle_job_files",
        "intents",
        "unresolved_intents",
        "findings",
    ):
        setattr(out, attr, getattr(eco, attr))
    out.extra += [f"silent drop {d}" for d in eco.drops] + [f"DL000 on valid code {d}" for d in eco.dl000_sites]
    out.extra += [f"job file gives nothing {d}" for d in eco.idle]
    out.extra += [f"helper write not located {d}" for d in eco.unlocated]
    out.extra += [f"write in a file skipped by kind {d}" for d in eco.skipped_sites]
    return out


def _same_table(want: str, got: str | None) -> bool:
    """The finding's table is the expected one; `?` stands for a part nobody can know."""
    want = want.lower()
    if want == "?" or got is None:
        return want == "?"
    pattern = re.escape(want).replace(r"\?", r"[^.]+")
    return re.fullmatch(pattern, got.lower()) is not None or _path_match(want, {got.lower()})


def _same_conflict_table(want: str, got: str | None) -> bool:
    """`_same_table`, but a conflict finding may name a part by the value that gives
    it at run time (`{app_configs_SCHEMA}`): its sites already say which table it is,
    so that part matches any, and one such value may hold several dotted parts (a
    setting `analysis_schema_name` of `cat.sec` named `{json__analysis_schema_name}`
    before `.results`). Write-site table recall never counts such a name."""
    if _same_table(want, got) or got is None:
        return got is not None or want == "?"
    return _parts_match(want.lower().split("."), got.lower().split("."))


def _parts_match(wanted: list[str], found: list[str]) -> bool:
    """Each found part is the wanted one (`?` wanted: any), and a `{value}` part
    stands for one wanted part or more."""
    if not found:
        return not wanted
    if re.fullmatch(r"\{\w+\}", found[0]):
        return any(_parts_match(wanted[k:], found[1:]) for k in range(1, len(wanted) - len(found) + 2))
    return bool(wanted) and wanted[0] in (found[0], "?") and _parts_match(wanted[1:], found[1:])


def _path_match(want: str, tables: set[str]) -> bool:
    """`/mnt/x/y` expected, `delta:/mnt/x/y` or `delta:dbfs:/mnt/x/y` found."""
    bare = want.removeprefix("delta:").removeprefix("dbfs:").rstrip("/")
    return any(t.removeprefix("delta:").removeprefix("dbfs:").rstrip("/") == bare for t in tables)


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f}% ({a}/{b})" if b else "-"


def _row(r: Outcome) -> None:
    per_k = f"{1000 * r.coverage / r.lines:.1f}" if r.lines else "-"
    print(
        f"| {r.name} | {r.role} | {r.writes} | {_pct(r.found_sites, r.writes)} | {_pct(r.found_tables, r.writes)} "
        f"| {r.false_intents} | {r.dropped_files} | {per_k} | {_pct(r.conflicts_found, r.conflicts)} "
        f"| {r.false_alarms} | {r.skipped_as_dl000} | {r.non_delta_intents} | {r.workspace_notes} "
        f"| {r.exit_code if r.role else ''} | {r.seconds:.1f} |"
    )
