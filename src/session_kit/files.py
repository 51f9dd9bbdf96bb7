"""Opening a file the kit only reads, as the read side of the kit sees it, and the warnings
and text policy that go with it.

Owns: `walkable`, whether a folder a listing meets is one to go into (a symlink loop, or a
link back to a folder above it, is skipped with a note, never followed); `skipped`, the warning (`errors.Skipped`) a reader gives for a file or folder it went
past (the CLI prints each as one line on stderr); `reason`, an OSError in a few words; the
one policy for text the kit writes (`TEXT_ERRORS`, a codec error handler): a lone UTF-16
surrogate, half an emoji a transcript escaped as `\\ud83d`, is written as U+FFFD, so every
output is valid UTF-8. The opening itself (regular files only, never blocking on a FIFO, a
device refused with `NotARegularFile`) is `state.fileio`'s, named here for the readers above
the hooks. Standard library only. Does not decide what to do with a file it refused: callers
skip it, or report it as unreadable.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import warnings
from typing import BinaryIO

from session_kit.errors import Skipped
from session_kit.state import fileio
from session_kit.state.fileio import NotARegularFile, read_small

__all__ = [
    "TEXT_ERRORS",
    "NotARegularFile",
    "is_regular",
    "open_fd",
    "open_regular",
    "open_sized",
    "read_small",
    "reason",
    "skipped",
    "walkable",
]


def skipped(path: str | os.PathLike[str], reason: str) -> None:
    """Say that `path` was passed over (one warning; the CLI shows it as one line)."""
    warnings.warn(Skipped(f"skipped {os.fspath(path)}: {reason}"), stacklevel=2)


def walkable(path: str | os.PathLike[str], *, within: str | os.PathLike[str]) -> bool:
    """Whether `path`, met while listing the folder `within`, is a folder to go into: False
    for anything else, and, with a note, for a symlink loop (`a -> b -> a`) or a link to
    `within` or a folder above it (listing it would list the same files again, or forever)."""
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            skipped(path, "a symlink loop")
        return False
    except ValueError:  # a NUL in the name
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if os.path.islink(path):
        target, here = os.path.realpath(path), os.path.realpath(within)
        if here == target or here.startswith(target.rstrip(os.sep) + os.sep):
            skipped(path, "a symlink loop (a link to a folder above it)")
            return False
    return True


def reason(error: OSError) -> str:
    """An OSError in a few words (`Permission denied`, `not a regular file (FIFO)`)."""
    return error.strerror or str(error)


def open_fd(path: str | os.PathLike[str]) -> int:
    """A descriptor of the regular file at `path`; NotARegularFile (or another OSError) else."""
    return fileio.open_fd(path)[0]


def open_sized(path: str | os.PathLike[str]) -> tuple[int, int]:
    """`open_fd`, and the file's size when it was opened (from the same `fstat`)."""
    fd, st = fileio.open_fd(path)
    return fd, st.st_size


def open_regular(path: str | os.PathLike[str], *, buffering: int = -1) -> BinaryIO:
    """The regular file at `path`, open for binary reading; NotARegularFile (or another
    OSError) when it is not one or cannot be opened."""
    return fileio.open_file(path, buffering=buffering)


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether `path` (followed through symlinks) is a regular file; False when it cannot be stat'ed."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


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
