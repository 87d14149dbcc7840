"""Time and memory bounds for tests of hostile inputs: a case past its bound fails
instead of hanging the suite or the machine."""

from __future__ import annotations

import signal
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager


class Hang(BaseException):
    """A case past its time limit; not an Exception, so that no `except Exception`
    of the code under test (a reader that contains its parser's errors) swallows it."""


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail a case that runs past `seconds` (SIGALRM: the main thread only)."""

    def expire(signum, frame):
        raise Hang(f"a case ran past {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def allocating_at_most(megabytes: int) -> Iterator[None]:
    """Fail a case whose Python allocations peak above `megabytes` while it runs."""
    tracemalloc.start()
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    assert peak <= megabytes, f"allocations peaked at {peak:.0f} MB"
