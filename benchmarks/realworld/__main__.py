"""The real-world corpus from the command line (run from the repository root).

    python -m benchmarks.realworld fetch   [--mirrors DIR] [--out DIR]
    python -m benchmarks.realworld measure [--out DIR] [--detail] [--only NAME] [--json FILE] [--held-out-rows]
    python -m benchmarks.realworld diff BASE HEAD [--out DIR] [--only NAME] [--held-out-rows]
    python -m benchmarks.realworld drops DIR... [--helpers]
    python -m benchmarks.realworld places DIR... [--limit N]

`fetch` lays one checkout per repository of `manifest.yaml` at its pinned
commit (from a local bare mirror when there is one, else a partial clone from
GitHub); `measure` prints the learn / held-out table and the per-repository
rows; `diff` runs two revisions of delta-lint on every repository and prints
what appeared and disappeared; `drops` runs delta-lint on any folders (no
manifest, no annotation) and prints each silent drop and each whole-statement
dynamic-SQL note at its file and line; `places` runs delta-lint on any folders
from inside each and from outside it and prints where the findings differ (a
project's results must not depend on where its user stands). Held-out
repositories are measured, never debugged: their details (misses, alarms, findings) are never printed, and
their own rows and per-repository diff counts only with `--held-out-rows`; by
default the split is shown as totals.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from . import ecosystem
from .measure import EXPECTATIONS, HERE, Outcome, Run, _pct, run_repo, score

DEFAULT_OUT = Path(os.environ.get("DELTA_LINT_CORPUS", "/work/rw"))
DEFAULT_MIRRORS = Path(os.environ.get("DELTA_LINT_MIRRORS", "/work/.mirror"))


def manifest() -> list[dict]:
    return yaml.safe_load((HERE / "manifest.yaml").read_text())["repositories"]


def _key(entry: dict) -> str:
    return entry["repo"].replace("/", "+")


# ---------------------------------------------------------------- fetch


def fetch(out: Path, mirrors: Path, only: str | None) -> int:
    """Lay every checkout. Files whose blobs a partial mirror lacks (large data files) are
    left out and counted: the corpus reads code and job definitions, never data."""
    failed = 0
    for entry in manifest():
        key = _key(entry)
        if only and only not in key:
            continue
        target = out / key
        stamp = target / ".corpus-commit"
        if stamp.is_file() and stamp.read_text().strip() == entry["commit"]:
            continue
        gitdir = _mirror(mirrors, key) or _clone(entry["repo"], out / ".git-cache" / key)
        if gitdir is None:
            print(f"{key}: no mirror and no clone", file=sys.stderr)
            failed += 1
            continue
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        missing = _extract(gitdir, entry["commit"], target)
        stamp.write_text(entry["commit"] + "\n")
        print(f"{key}: {entry['commit'][:12]}" + (f" ({missing} large files absent)" if missing else ""))
    return 1 if failed else 0


def _mirror(mirrors: Path, key: str) -> Path | None:
    for candidate in (mirrors / key / "repo", mirrors / f"{key}.git", mirrors / key):
        if (candidate / "objects").is_dir():
            return candidate
    return None


def _clone(repo: str, dest: Path) -> Path | None:
    if not (dest / "objects").is_dir():
        dest.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            ["git", "clone", "--bare", "--filter=blob:limit=2m", f"https://github.com/{repo}.git", str(dest)],
            capture_output=True,
            text=True,
            timeout=900,
        )
        if proc.returncode:
            return None
    return dest


def _extract(gitdir: Path, commit: str, target: Path) -> int:
    listing = subprocess.run(
        ["git", "--git-dir", str(gitdir), "ls-tree", "-r", "-z", commit],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    entries = []
    for row in listing:
        if not row:
            continue
        meta, _, path = row.partition(b"\t")
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, path.decode("utf-8", "surrogateescape")))
    batch = subprocess.Popen(
        ["git", "--git-dir", str(gitdir), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert batch.stdin and batch.stdout
    missing = 0
    for mode, sha, path in entries:
        batch.stdin.write(sha + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing += 1
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        dest = target / path
        if ".." in Path(path).parts:
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        if mode == b"120000":
            continue  # symbolic links are left out: a checkout never points outside itself
        dest.write_bytes(data)
    batch.stdin.close()
    batch.wait()
    return missing


# ---------------------------------------------------------------- measure


def _expectation(entry: dict) -> dict | None:
    path = EXPECTATIONS / f"{_key(entry)}.yaml"
    return yaml.safe_load(path.read_text()) if path.is_file() else None


def measure_all(out: Path, command: list[str], env: dict | None, only: str | None) -> tuple[list[Outcome], dict]:
    rows: list[Outcome] = []
    runs: dict[str, Run] = {}
    for entry in manifest():
        key = _key(entry)
        if only and only not in key:
            continue
        expect = _expectation(entry)
        checkout = out / key
        if expect is None or not checkout.is_dir():
            print(f"missing {'expectation' if expect is None else 'checkout'}: {key}", file=sys.stderr)
            continue
        run = run_repo(expect, checkout, command, env)
        runs[key] = run
        row = score(expect, checkout, run)
        row.split = entry.get("split", "learn")
        rows.append(row)
    return rows, runs


SUMS = (
    "writes found_sites found_tables false_intents dropped_files lines coverage conflicts conflicts_found "
    "false_alarms skipped_as_dl000 non_delta_intents workspace_notes internal_errors timed_out plain_writes "
    "silent_drops helper_unlocated in_skipped dl000_valid idle_job_files intents unresolved_intents findings"
).split()


def _total(rows: list[Outcome], name: str) -> Outcome:
    total = Outcome(name, "")
    for r in rows:
        for attr in SUMS:
            setattr(total, attr, getattr(total, attr) + getattr(r, attr))
        total.seconds += r.seconds
    return total


def summary_table(rows: list[Outcome]) -> str:
    """The opening table: learn and held-out side by side (held-out is the figure to quote)."""
    groups = {s: [r for r in rows if r.split == s] for s in ("learn", "held-out")}
    totals = {s: _total(g, s) for s, g in groups.items()}

    def neg(g: list[Outcome]) -> str:
        n = [r for r in g if r.role == "negative"]
        return f"{sum(1 for r in n if r.false_alarms)} of {len(n)}"

    def per10k(t: Outcome) -> str:
        return f"{t.dl000_valid} ({10000 * t.dl000_valid / t.lines:.1f} per 10k lines)" if t.lines else "-"

    def per_repo(t: Outcome, g: list[Outcome]) -> str:
        return f"{t.false_alarms} ({t.false_alarms / len(g):.1f} per repository)" if g else "-"

    def unresolved(t: Outcome) -> str:
        return _pct(t.unresolved_intents, t.intents)

    lines = [
        "| measure | learn | held-out (quoted) |",
        "|---|---|---|",
        f"| repositories | {len(groups['learn'])} | {len(groups['held-out'])} |",
    ]
    table = [
        ("site recall", lambda t, g: _pct(t.found_sites, t.writes)),
        ("table recall", lambda t, g: _pct(t.found_tables, t.writes)),
        ("expected conflicts found", lambda t, g: _pct(t.conflicts_found, t.conflicts)),
        ("false alarms", lambda t, g: per_repo(t, g)),
        ("negative controls with conflict findings", lambda t, g: neg(g)),
        ("silent drops (plain writes with nothing at them)", lambda t, g: f"{t.silent_drops} of {t.plain_writes}"),
        ("writes in helpers not located at their statement", lambda t, g: str(t.helper_unlocated)),
        ("plain writes in files skipped by kind (tests no job runs, ...)", lambda t, g: str(t.in_skipped)),
        ("DL000 on valid code", lambda t, g: per10k(t)),
        ("intents whose table is not fully resolved", lambda t, g: unresolved(t)),
        ("files job definitions run that give nothing", lambda t, g: str(t.idle_job_files)),
        ("internal errors / time-outs", lambda t, g: f"{t.internal_errors} / {t.timed_out}"),
        ("findings", lambda t, g: str(t.findings)),
        ("seconds (check, cold)", lambda t, g: f"{t.seconds:.1f}"),
    ]
    for label, fn in table:
        lines.append(
            f"| {label} | {fn(totals['learn'], groups['learn'])} | {fn(totals['held-out'], groups['held-out'])} |"
        )
    return "\n".join(lines)


def rows_table(rows: list[Outcome], held_out_rows: bool = False) -> str:
    """One row per repository. Held-out rows are left out unless asked for: a reader who
    sees a held-out repository's own figures while working is tempted to tune to it, and
    the totals of the opening table are the figures to quote."""
    head = (
        "| repository | split | role | writes | site recall | table recall | conflicts found | false alarms "
        "| silent drops | helper writes unlocated | DL000 valid | unresolved | idle job files | internal errors | s |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in sorted(rows, key=lambda r: (r.split, r.name.lower())):
        if r.split == "held-out" and not held_out_rows:
            continue
        lines.append(
            f"| {r.name} | {r.split} | {r.role} | {r.writes} | {_pct(r.found_sites, r.writes)} "
            f"| {_pct(r.found_tables, r.writes)} | {_pct(r.conflicts_found, r.conflicts)} | {r.false_alarms} "
            f"| {r.silent_drops} | {r.helper_unlocated} | {r.dl000_valid} | {r.unresolved_intents}/{r.intents} "
            f"| {r.idle_job_files} | {r.internal_errors + r.timed_out} | {r.seconds:.1f} |"
        )
    return "\n".join(lines)


def _installed() -> list[str]:
    return [shutil.which("delta-lint") or "delta-lint"]


def cmd_measure(args: argparse.Namespace) -> int:
    rows, _ = measure_all(args.out, _installed(), None, args.only)
    print(summary_table(rows))
    print()
    print(rows_table(rows, args.held_out_rows))
    if args.detail:
        for r in rows:
            if r.split == "held-out":
                continue  # measured, never debugged
            if r.misses or r.alarms or r.extra:
                print(f"\n## {r.name}")
                for m in r.misses:
                    print(f"  miss   {m}")
                for a in r.alarms:
                    print(f"  alarm  {a}")
                for e in r.extra:
                    print(f"  extra  {e}")
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        k: v
                        for k, v in r.__dict__.items()
                        if r.split == "learn" or k not in ("misses", "alarms", "extra")
                    }
                    for r in rows
                ],
                indent=1,
            )
        )
    return 0


# ---------------------------------------------------------------- drops


def _whole_statement_notes(report: dict) -> list[str]:
    """`file:line` of each DL007 saying a whole statement is a value only a run knows."""
    return [
        f"{f['location']['path'].lstrip('./')}:{f['location']['line']}"
        for f in report.get("findings", [])
        if f.get("rule") == "DL007" and str(f.get("message", "")).startswith("dynamic SQL: the statement is")
    ]


def cmd_drops(args: argparse.Namespace) -> int:
    """Silent drops on folders outside the manifest: nothing is annotated there, so
    every plain write counts (no `skipped` files, no known non-Delta sites). Exit 1
    when a folder has a silent drop, so a sweep can gate on it."""
    totals = {
        "plain writes": 0,
        "silent drops": 0,
        "helper writes unlocated": 0,
        "in files skipped by kind": 0,
        "to tables not Delta": 0,
        "whole-statement DL007": 0,
    }
    for folder in args.dirs:
        if not folder.is_dir():
            print(f"{folder}: not a folder", file=sys.stderr)
            return 2
        run = run_repo({"folder": "."}, folder, _installed())
        eco = ecosystem.measure(folder, run.report, run.intents, run.schedule, [])
        notes = _whole_statement_notes(run.report)
        for name, n in (
            ("plain writes", eco.plain_writes),
            ("silent drops", eco.silent_drops),
            ("helper writes unlocated", eco.helper_unlocated),
            ("in files skipped by kind", eco.in_skipped),
            ("to tables not Delta", eco.not_delta),
            ("whole-statement DL007", len(notes)),
        ):
            totals[name] += n
        print(
            f"{folder}: {eco.silent_drops} silent drops of {eco.plain_writes} plain writes, "
            f"{eco.helper_unlocated} helper writes unlocated, {eco.in_skipped} in files skipped by kind, "
            f"{eco.not_delta} to tables not Delta, {len(notes)} whole-statement DL007"
            + (f", check exit {run.exit_code}" if run.exit_code not in (0, 1) else "")
        )
        for site in eco.drops:
            print(f"  drop   {folder / site}")
        for site in eco.unlocated if args.helpers else ():
            print(f"  helper {folder / site}")
        for site in eco.skipped_sites if args.helpers else ():
            print(f"  skip   {folder / site}")
        for site in eco.not_delta_sites:
            print(f"  other  {folder / site}")
        for site in notes:
            print(f"  DL007  {folder / site}")
    if len(args.dirs) > 1:
        print("total: " + ", ".join(f"{n} {name}" for name, n in totals.items()))
    return 1 if totals["silent drops"] else 0


# ---------------------------------------------------------------- places


def _placed_findings(args: list[str], cwd: Path, folder: Path) -> set[tuple] | str:
    """The findings of `check ARGS` run from `cwd`, their paths relative to `folder`;
    the error text when the run gives no report."""
    proc = subprocess.run(
        [sys.executable, "-m", "delta_lint", "check", *args, "--no-cache", "--format", "json"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
    )
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        return f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"

    def rel(path: str) -> str:
        return os.path.relpath(os.path.normpath(os.path.join(cwd, path)), folder)

    return {
        (f["rule"], rel(f["location"]["path"]), f["location"]["line"], f.get("table"))
        for f in report.get("findings", [])
    }


def cmd_places(args: argparse.Namespace) -> int:
    """Whether each folder's findings are the same wherever delta-lint runs from:
    `check .` inside it against `check /abs/folder` from an empty folder elsewhere.
    A user's CI step or editor rarely stands where the corpus measure does."""
    differ = 0
    with tempfile.TemporaryDirectory(prefix="dl-places-") as elsewhere:
        for folder in (d.resolve() for d in args.dirs):
            inside = _placed_findings(["."], folder, folder)
            outside = _placed_findings([str(folder)], Path(elsewhere), folder)
            if inside == outside:
                continue
            differ += 1
            if isinstance(inside, str) or isinstance(outside, str):
                print(
                    f"{folder}: inside {inside if isinstance(inside, str) else len(inside)}, "
                    f"outside {outside if isinstance(outside, str) else len(outside)}"
                )
                continue
            print(f"{folder}: {len(inside)} findings inside, {len(outside)} from outside")
            for sign, rows in (("inside only", inside - outside), ("outside only", outside - inside)):
                for row in sorted(rows, key=str)[: args.limit]:
                    print(f"  {sign}: {row}")
    print(f"{differ} of {len(args.dirs)} folders differ")
    return 1 if differ else 0


# ---------------------------------------------------------------- diff


def _revision(rev: str, into: Path) -> Path:
    """A detached work tree of `rev`; the revision runs from it with the installed dependencies."""
    subprocess.run(["git", "worktree", "add", "--detach", "-f", str(into), rev], check=True, capture_output=True)
    return into


def _keys(run: Run) -> tuple[set[str], set[str]]:
    findings = {
        f"{f.get('rule')} {f['location']['path']}:{f['location']['line']} {f.get('severity', '')} {f.get('table')}"
        for f in run.report.get("findings", [])
    }
    intents = {f"{i['path']}:{i['line']} {i.get('kind')} {i.get('table')}" for i in run.intents}
    return findings, intents


def cmd_diff(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="dl-diff-"))
    sides: dict[str, tuple[list[Outcome], dict[str, Run]]] = {}
    try:
        for label, rev in (("base", args.base), ("head", args.head)):
            tree = _revision(rev, tmp / label)
            env = dict(os.environ, PYTHONPATH=str(tree))
            sides[label] = measure_all(args.out, [sys.executable, "-m", "delta_lint"], env, args.only)
    finally:
        for label in ("base", "head"):
            subprocess.run(["git", "worktree", "remove", "--force", str(tmp / label)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    (base_rows, base_runs), (head_rows, head_runs) = sides["base"], sides["head"]
    print(f"## {args.base} -> {args.head}\n")
    print("### base\n")
    print(summary_table(base_rows))
    print("\n### head\n")
    print(summary_table(head_rows))
    print("\n### per repository\n")
    split = {r.name.replace("/", "+"): r.split for r in head_rows}
    changed = 0
    held_out = [0, 0, 0, 0, 0]  # repositories, findings +/-, intents +/-
    for key in sorted(head_runs):
        if key not in base_runs:
            continue
        bf, bi = _keys(base_runs[key])
        hf, hi = _keys(head_runs[key])
        if bf == hf and bi == hi:
            continue
        changed += 1
        sizes = (len(hf - bf), len(bf - hf), len(hi - bi), len(bi - hi))
        if split.get(key) == "held-out" and not args.held_out_rows:
            held_out = [held_out[0] + 1] + [a + b for a, b in zip(held_out[1:], sizes)]
            continue  # held-out: summed over the split only
        counts = f"findings +{sizes[0]} -{sizes[1]}, intents +{sizes[2]} -{sizes[3]}"
        print(f"{key.replace('+', '/')} ({split.get(key, 'learn')}): {counts}")
        if split.get(key) == "held-out":
            continue  # held-out: counts only
        for sign, rows in (
            ("+", sorted(hf - bf)),
            ("-", sorted(bf - hf)),
            ("+", sorted(hi - bi)),
            ("-", sorted(bi - hi)),
        ):
            for row in rows[: args.limit]:
                print(f"  {sign} {row}")
    if held_out[0]:
        print(
            f"held-out ({held_out[0]} repositories changed): findings +{held_out[1]} -{held_out[2]}, "
            f"intents +{held_out[3]} -{held_out[4]}"
        )
    if not changed:
        print("no repository changed")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.realworld", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fetch", help="lay every checkout at its pinned commit")
    f.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    m = sub.add_parser("measure", help="the learn / held-out table and per-repository rows")
    m.add_argument("--detail", action="store_true", help="every miss and alarm (learn repositories only)")
    m.add_argument("--json", type=Path)
    d = sub.add_parser("diff", help="what two revisions report differently, per repository")
    d.add_argument("base")
    d.add_argument("head")
    d.add_argument("--limit", type=int, default=40, help="rows shown per repository and sign")
    dr = sub.add_parser("drops", help="silent drops and whole-statement dynamic SQL on any folders")
    dr.add_argument("dirs", nargs="+", type=Path, metavar="DIR")
    dr.add_argument(
        "--helpers",
        action="store_true",
        help="also each write in a helper not located at its line, or in a skipped file",
    )
    pl = sub.add_parser("places", help="findings the same from inside each folder and from outside it")
    pl.add_argument("dirs", nargs="+", type=Path, metavar="DIR")
    pl.add_argument("--limit", type=int, default=5, help="rows shown per folder and side")
    for p in (m, d):
        p.add_argument(
            "--held-out-rows",
            action="store_true",
            help="also print each held-out repository's own row (by default only the split's totals)",
        )
    for p in (f, m, d):
        p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder of the checkouts (owner+name)")
        p.add_argument("--only", help="only repositories whose owner+name contains this")
    args = parser.parse_args(argv)
    if args.command == "fetch":
        return fetch(args.out, args.mirrors, args.only)
    if args.command == "measure":
        return cmd_measure(args)
    if args.command == "drops":
        return cmd_drops(args)
    if args.command == "places":
        return cmd_places(args)
    return cmd_diff(args)


if __name__ == "__main__":
    sys.exit(main())
