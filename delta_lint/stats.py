"""What one run did, counted as it went: how many files it read, analysed or took
from the cache, and how much pairing work the engine did. The numbers say where a
run's time goes (`delta-lint check --show-stats`) and let tests hold the speed-ups to
their promises (a warm run parses nothing, a long script is not judged pair by
pair) through a public result, not by watching private functions.

One object per run, handed to the stages that fill it; forked workers count into
their copy and the parent adds what they counted (`since`, `add`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


@dataclass
class RunStats:
    """Counters of one run. A run answered whole from the cache has `from_cache`
    set and counts only its files."""

    files: int = 0  # files discovered
    files_read: int = 0  # files whose bytes were read (the stat index vouches for the others)
    files_from_cache: int = 0  # file readings taken from the cache (a file read with what others give it: twice)
    files_analysed: int = 0  # front-end readings (a file read again with what other files give it counts again)
    front_end_workers: int = 0  # processes forked to read files (0: every file read in the run's own process)
    statements_parsed: int = 0  # SQL statements handed to the parser (once per distinct text a run)
    engines_started: int = 0  # Spark engines started (or connected to) to read table settings
    tables_read_live: int = 0  # tables whose settings Spark read in this run (the cache gave the others)
    tables_judged: int = 0  # tables whose pairs were judged (the cache keeps the others' findings)
    schedule_questions: int = 0  # "may these two writes run at the same time?" asked of the schedule
    class_pairs: int = 0  # pairs of classes of writes looked at across files
    verdicts: int = 0  # verdicts worked out (the others came from the run's memo)
    regions_compared: int = 0  # pairs of target predicates compared
    windows_compared: int = 0  # pairs of cron schedules whose runs' meeting was worked out
    crons_described: int = 0  # cron schedules described from their fire times (the cache keeps the others)
    # files the listings asked again to prove a kept run holds (Airflow DAGs, Jobs JSON,
    # Terraform) read to tell what they are; a file's unchanged stat answers for the others
    listed_files_read: int = 0
    from_cache: bool = False  # the whole run was answered from the cache

    def add(self, other: RunStats) -> None:
        """Add the counts of `other` (a worker's) to these."""
        for f in fields(self):
            if f.type == "int":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def since(self, before: RunStats) -> RunStats:
        """What was counted after `before` (a copy taken earlier) was taken."""
        out = RunStats(from_cache=self.from_cache)
        for f in fields(self):
            if f.type == "int":
                setattr(out, f.name, getattr(self, f.name) - getattr(before, f.name))
        return out

    def copy(self) -> RunStats:
        return RunStats(**asdict(self))

    def to_json(self) -> dict[str, int | bool]:
        return asdict(self)

    def text(self) -> str:
        """One line per counter, as `--show-stats` prints them."""
        rows = self.to_json()
        width = max(len(name) for name in rows)
        return "".join(f"{name.replace('_', ' '):<{width}}  {value}\n" for name, value in rows.items())
