"""Atomic file writes: the snapshot, baselines and cache files are either the old
version or the new one, never a half-written mix, even if the run is killed."""

from __future__ import annotations

import os
import stat
from pathlib import Path

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to a temporary file next to `path`, fsync it, then rename over
    `path` (rename is atomic within one file system on POSIX and Windows).

    The file keeps the mode of the one it replaces (`advise --apply` on an
    executable script leaves it executable); a new file gets 0666 less the umask,
    as any other program's would, not 0600 as a private temporary file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        keep: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        keep = None
    fd, tmp = _create_next_to(path)
    try:
        if keep is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, keep)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _create_next_to(path: Path) -> tuple[int, str]:
    """A new, exclusive file `.<name>.<random>.tmp` beside `path`, opened for
    writing with mode 0666 (the umask applies, as to any new file)."""
    import secrets

    while True:
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, _FLAGS, 0o666), tmp
        except FileExistsError:
            continue
