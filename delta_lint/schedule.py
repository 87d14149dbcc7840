"""Which intents may run at the same time.

Without configured jobs every file is one job, and distinct jobs may overlap unless
an `exclusive` group holds both. A job overlaps itself when `concurrent_runs > 1`
(its parameters then differ between runs). Statements of one run execute in order
and do not race — except a streaming query, which keeps running for the rest of its
file while its `foreachBatch` body runs again and again.
"""

from __future__ import annotations

from dataclasses import dataclass

from delta_lint.config import Config
from delta_lint.frontend.discover import matches_any
from delta_lint.model import Intent, Kind, Location


@dataclass(frozen=True)
class Concurrency:
    reason: str
    distinct_runs: bool  # the two intents belong to different runs of one job


@dataclass(frozen=True)
class Schedule:
    job_of: dict[str, str]  # display path -> job name
    runs: dict[str, int]
    exclusive: tuple[frozenset[str], ...]

    def job(self, intent: Intent) -> str:
        return self.job_of.get(intent.location.path, intent.location.path)

    def overlap(self, a: Intent, b: Intent) -> Concurrency | None:
        ja, jb = self.job(a), self.job(b)
        if ja != jb:
            if any(ja in group and jb in group for group in self.exclusive):
                return None
            return Concurrency(
                f"{_job_label(ja)} and {_job_label(jb)} may run at the same time (no `exclusive` group holds both)",
                False,
            )
        if self.runs.get(ja, 1) > 1:
            return Concurrency(
                f"{_job_label(ja)} has concurrent_runs: {self.runs[ja]}, so two of its runs overlap", True
            )
        if a is b:
            return None
        return _stream_overlap(a, b)


def _job_label(job: str) -> str:
    return f"`{job}`" if "/" not in job and not job.endswith((".py", ".sql", ".ipynb")) else f"job `{job}`"


def stream_start(intent: Intent) -> Location | None:
    """Where the streaming query an intent belongs to starts, if any."""
    if intent.stream is not None:
        return intent.stream
    if intent.kind == Kind.STREAMING_READ:
        return intent.location
    return None


def _stream_overlap(a: Intent, b: Intent) -> Concurrency | None:
    for s, other in ((a, b), (b, a)):
        start = stream_start(s)
        if start is None or other.location.path != start.path:
            continue
        if stream_start(other) == start:
            continue  # one query's own steps run one micro-batch at a time
        if other.location > start:
            what = (
                "its foreachBatch body runs for every micro-batch"
                if s.stream and s.location != start
                else "it keeps running"
            )
            return Concurrency(
                f"the streaming query started at {start} keeps running ({what}) while {other.location} runs", False
            )
    return None


def build_schedule(config: Config, paths: dict[str, str]) -> Schedule:
    """`paths` maps display paths to paths relative to the configuration root."""
    job_of = {}
    for display, rel in paths.items():
        for job in config.jobs:
            if matches_any(rel, job.paths):
                job_of[display] = job.name
                break
    runs = {job.name: job.concurrent_runs for job in config.jobs}
    return Schedule(job_of, runs, config.exclusive)
