"""Opening a file the kit only reads, so that no file can make it hang or read forever.

Owns: the one way a transcript, meta, plan or settings file is opened for reading — regular
files only: the file is opened without blocking (a FIFO named `x.jsonl` would otherwise
wait for a writer forever), then `fstat`ed, and anything else (a FIFO, a device such as
`/dev/zero` behind a symlink, a socket, a folder) is refused with `NotARegularFile`, an
`OSError`, so every caller's existing "cannot read it" path takes it; bounded reads of small
files; `skipped`, the warning (`errors.Skipped`) a reader gives for a file or folder it went
past (the CLI prints each as one line on stderr); and the one policy for text the kit writes
(`TEXT_ERRORS`, a codec error handler): a lone UTF-16 surrogate, half an emoji a transcript
escaped as `\ud83d`, is written as U+FFFD, so every output is valid UTF-8. Standard library
only. Does not decide what to do with a file it refused: callers skip it, or report it as
unreadable.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import warnings
from typing import BinaryIO

from session_kit.errors import Skipped

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotARegularFile(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket, a folder)."""


def skipped(path: str | os.PathLike[str], reason: str) -> None:
    """Say that `path` was passed over (one warning; the CLI shows it as one line)."""
    warnings.warn(Skipped(f"skipped {os.fspath(path)}: {reason}"), stacklevel=2)


def reason(error: OSError) -> str:
    """An OSError in a few words (`Permission denied`, `not a regular file (FIFO)`)."""
    return error.strerror or str(error)


def open_fd(path: str | os.PathLike[str]) -> int:
    """A descriptor of the regular file at `path`; NotARegularFile (or another OSError) else."""
    return open_sized(path)[0]


def open_sized(path: str | os.PathLike[str]) -> tuple[int, int]:
    """`open_fd`, and the file's size when it was opened (from the same `fstat`)."""
    try:
        fd = os.open(path, _FLAGS)
    except ValueError as exc:  # a NUL or a lone surrogate in a path a transcript named
        raise OSError(errno.EINVAL, f"not a usable path ({exc})") from None
    try:
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise NotARegularFile(errno.EINVAL, f"not a regular file ({_kind(st.st_mode)})", os.fspath(path))
    return fd, st.st_size


def open_regular(path: str | os.PathLike[str], *, buffering: int = -1) -> BinaryIO:
    """The regular file at `path`, open for binary reading; NotARegularFile (or another
    OSError) when it is not one or cannot be opened."""
    return os.fdopen(open_fd(path), "rb", buffering=buffering)


def read_small(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most `limit` bytes of the regular file at `path` (meta, plan and settings files);
    OSError as `open_regular`."""
    with open_regular(path) as f:
        return f.read(limit)


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether `path` (followed through symlinks) is a regular file; False when it cannot be stat'ed."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


TEXT_ERRORS = "session_kit.replace_surrogates"


_FFFD = "\ufffd".encode()


def _replace_surrogates(error: UnicodeError) -> tuple[str | bytes, int]:
    """In UTF-8, lone surrogates become U+FFFD; whatever else an encoding cannot hold, `?`."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    count = error.end - error.start
    if codecs.lookup(error.encoding).name == "utf-8":
        # As bytes: the UTF-8 encoder takes a handler's str only when it is ASCII.
        return _FFFD * count, error.end
    return "?" * count, error.end


codecs.register_error(TEXT_ERRORS, _replace_surrogates)
