"""`framestack.on_reserved_stack`: a call whose depth goes up and down across the
end of one chunk of the interpreter's frame stack maps no chunk at each crossing."""

from __future__ import annotations

import platform
import sys

import pytest

from delta_lint.framestack import on_reserved_stack

resource = pytest.importorskip("resource")  # page faults as the system counts them (POSIX)


def _down(n: int) -> int:
    return 0 if n == 0 else _down(n - 1) + 1


def _under(depth: int, work) -> int:
    return work() if depth == 0 else _under(depth - 1, work)


def _oscillating() -> int:
    """Calls four deep from every fourth depth up to 400: each chunk end below that
    depth is crossed 400 times, and each crossing maps a chunk where nothing is kept."""
    total = 0
    for depth in range(0, 400, 4):
        total += _under(depth, lambda: sum(_down(3) for _ in range(400)))
    return total


def _faults(run) -> tuple[int, int]:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    value = run()
    return value, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def test_returns_and_raises_as_the_call() -> None:
    assert on_reserved_stack(_down, 50) == 50
    assert on_reserved_stack(lambda a, b=0: a + b, 1, b=2) == 3
    with pytest.raises(ZeroDivisionError):
        on_reserved_stack(lambda: 1 / 0)


def test_deep_calls_still_reach_the_recursion_limit() -> None:
    """The reserve is room, not a bound: past it frames go in chunks of their own."""
    with pytest.raises(RecursionError):
        on_reserved_stack(_down, sys.getrecursionlimit() + 10)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        assert on_reserved_stack(_down, 10_000) == 10_000
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.skipif(platform.python_implementation() != "CPython" or sys.version_info < (3, 11), reason="frame chunks")
def test_crossing_a_chunk_end_maps_nothing() -> None:
    plain, plain_faults = _faults(_oscillating)
    if plain_faults < 500:
        pytest.skip(f"this interpreter maps no chunk at each crossing ({plain_faults} page faults)")
    reserved, reserved_faults = _faults(lambda: on_reserved_stack(_oscillating))
    assert reserved == plain, plain_faults
    assert reserved_faults < plain_faults / 5, (plain_faults, reserved_faults)
