"""Reading input files from a checkout that may be hostile.

Every input delta-lint reads — job files, the configuration, bundles and their
includes, Jobs JSON exports, the settings snapshot, the baseline — goes through
`read_input`. A pull request controls the files and symbolic links of the tree,
so a read must never:

- follow a link out of the project (`creds.sql -> ~/.netrc`) and show what it
  found there: `root` names the folder the file must resolve into;
- block or run away on something that is not a file (a named pipe, `/dev/zero`,
  `/proc/kmsg`): the file is opened non-blocking and must be a regular file by
  `fstat` of the open descriptor, not only by the name looked up before;
- read without bound: at most `limit` bytes, the size asked once and checked
  again by the read itself (files under /proc report a size of 0).

Refusals are `InputRefused` with a reason that never quotes the file's content.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat

MAX_INPUT_BYTES = 10 * 1024 * 1024  # job files and configuration alike: larger ones are not ours to read

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class InputRefused(OSError):
    """A file that is not read, and why (no content of it in the reason)."""

    def __init__(self, reason: str, size: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.size = size

    def __str__(self) -> str:
        return self.reason


def is_within(path: str | os.PathLike, root: str | os.PathLike) -> bool:
    """Whether `path` (already resolved) lies in `root` (already resolved)."""
    path, root = os.fspath(path), os.fspath(root)
    return path == root or path.startswith(os.path.join(root, ""))


def resolves_outside(path: str | os.PathLike, root: str | os.PathLike) -> bool:
    """Whether `path` leads, through symbolic links or `..`, out of `root`. A loop of
    links resolves nowhere: it counts as outside."""
    try:
        real = os.path.realpath(path, strict=True)
    except (OSError, RuntimeError, ValueError):
        return not os.path.lexists(path) or os.path.islink(path)
    return not is_within(real, os.path.realpath(root))


def read_input(path: str | os.PathLike, root: str | os.PathLike | None = None, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them.

    With `root`, the file must resolve inside it (a link within the project is
    followed; one leading out of it is refused). Without it the caller vouches for
    the path (the user named it on the command line)."""
    if root is not None and resolves_outside(path, root):
        raise InputRefused("it is a symbolic link (or `..` path) leading outside the project; it is not read")
    try:
        # Asked of the name first so that a device is never even opened (opening some
        # has effects); asked again of the open descriptor below, which is what is read.
        if not stat.S_ISREG(mode := os.stat(path).st_mode):
            raise InputRefused(f"not a regular file ({_kind(mode)}); it is not read")
        fd = os.open(path, _FLAGS)
    except InputRefused:
        raise
    except (OSError, ValueError) as err:  # ValueError: a NUL byte in the name
        raise InputRefused(_os_reason(err)) from err
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputRefused(f"not a regular file ({_kind(st.st_mode)}); it is not read")
        if st.st_size > limit:
            raise InputRefused(_too_large(st.st_size, limit), st.st_size)
        try:
            return _read_bounded(fd, st.st_size, limit)
        except BlockingIOError as err:  # a regular file never blocks; be sure anyway
            raise InputRefused("the file would block; it is not read") from err
        except InputRefused:
            raise
        except OSError as err:
            raise InputRefused(_os_reason(err)) from err
    finally:
        os.close(fd)


def read_input_text(
    path: str | os.PathLike, root: str | os.PathLike | None = None, limit: int = MAX_INPUT_BYTES
) -> str:
    """`read_input` decoded as UTF-8 (a BOM is dropped). Undecodable bytes are an
    `InputRefused` naming the offset only."""
    data = read_input(path, root, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputRefused(f"not UTF-8 text (byte {err.start})") from err


# PEP 263: a comment on the first or second line naming the source's encoding
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_BLANK_OR_COMMENT = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")


def declared_encoding(data: bytes) -> str | None:
    """The encoding a Python source's PEP 263 cookie declares (`# -*- coding:
    latin-1 -*-`) when it is not UTF-8 and Python knows it, else None. CPython
    decodes such a file with it, so reading it as UTF-8 would turn every accented
    name into U+FFFD and call a file that runs unparseable. Only the first line is
    looked at, and the second when the first is blank or a comment, as CPython does."""
    lines = data.split(b"\n", 2)[:2]
    for i, line in enumerate(lines):
        m = _COOKIE.match(line)
        if m:
            try:
                name = codecs.lookup(m.group(1).decode("ascii")).name
            except (LookupError, UnicodeDecodeError):
                return None  # a name Python refuses too: reading goes on as UTF-8
            return None if name == "utf-8" else name
        if i == 0 and not _BLANK_OR_COMMENT.match(line):
            return None
    return None


def _read_bounded(fd: int, size: int, limit: int) -> bytes:
    """One read of size + 1 bytes in the common case; a file that grew, or whose size
    the system does not report, is read on in chunks up to the limit."""
    data = os.read(fd, size + 1)
    if len(data) <= size:
        return data
    chunks = [data]
    total = len(data)
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise InputRefused(_too_large(total, limit, at_least=True), total)
    return b"".join(chunks)


def _too_large(size: int, limit: int, at_least: bool = False) -> str:
    more = "over " if at_least else ""
    return f"file is {more}{size / 1024 / 1024:.1f} MB; files over {limit / 1024 / 1024:.0f} MB are not read"


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
    ):
        if test(mode):
            return name
    return "a special file"


def _os_reason(err: OSError | ValueError) -> str:
    if isinstance(err, FileNotFoundError):
        return "no such file (or a broken symbolic link)"
    if isinstance(err, ValueError):
        return "the path holds a NUL byte"
    if err.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return f"cannot read: {err.strerror or err}"


def printable(text: str) -> str:
    """Text from file names and job code made safe to print in any format: control
    characters (a newline could start a GitHub workflow command such as `::error`
    or `::add-mask::` on a line of its own), terminal escapes, line separators and
    the undecodable bytes of non-UTF-8 file names are written as backslash escapes."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode() for c in text)
