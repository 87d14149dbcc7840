"""Run a call over one large piece of the interpreter's frame stack.

CPython (3.11 and later) keeps the frames of Python calls in chunks of its own
stack: 16 KiB each, mapped from the system when a call does not fit in the
chunk it is in, and unmapped again when the call that opened the chunk returns.
A recursive reader whose depth goes up and down across one chunk's end (the
value walker of the Python front end, at every statement of a nested function)
maps and unmaps that chunk at every crossing: one check of a 37-notebook
project made 157,000 `mmap` and as many `munmap` calls, 1.1 s of its 6.5 s of
CPU in the kernel (`strace -c -f`), each new mapping's first write a page fault.

A chunk is sized for the frame that opens it, at least 16 KiB and doubled
until the frame fits. A frame whose code declares a large value stack (never
used, never written: only its locals are cleared at the call) therefore gets a
chunk about twice its size, and every call made under it goes in the rest of
that chunk: the depth of a whole run fits in it and no boundary is crossed
again. Elsewhere (other interpreters, versions with heap-allocated frames) the
call is an ordinary call.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# value-stack slots the opening frame declares: 512 KiB of pointers, so its chunk is
# 1 MiB and about 512 KiB of it is left to the calls below it (some thousands of
# frames, past the recursion limit the front ends set); only pages used are touched
RESERVED_SLOTS = 64 * 1024


def _call(function: Callable[..., T], *args: object, **kwargs: object) -> T:
    return function(*args, **kwargs)


def _reserving() -> Callable[..., object]:
    code = _call.__code__
    try:
        code = code.replace(co_stacksize=max(code.co_stacksize, RESERVED_SLOTS))
    except (AttributeError, TypeError, ValueError):  # an interpreter without it: an ordinary call
        return _call
    return types.FunctionType(code, _call.__globals__, "on_reserved_stack")


_reserved = _reserving()


def on_reserved_stack(function: Callable[..., T], *args: object, **kwargs: object) -> T:
    """`function(*args, **kwargs)`, its calls in one reserved piece of the frame
    stack (see the module's docstring): what it returns or raises is the call's."""
    return _reserved(function, *args, **kwargs)  # type: ignore[return-value]
