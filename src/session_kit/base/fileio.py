"""The kit's file I/O in one place: opening a file without blocking, replacing one atomically,
and the JSON of the kit's own state files. Standard library only and cheap to import: the
hooks and the status line load it.

Owns:
- `open_fd` / `open_regular`: the one way any file is opened for reading (and the one use of
  `O_NONBLOCK` in the kit): without blocking (a FIFO named `x.jsonl` would otherwise wait
  for a writer forever), then `fstat`ed, and anything but a regular file (a FIFO, a device
  such as `/dev/zero` behind a symlink, a socket, a folder) refused with `NotARegularFile`,
  an `OSError`, so every caller's "cannot read it" path takes it. `read_small` reads a
  bounded prefix (settings, meta, config and price files). `append` adds a line to a log or
  a journal the same way (a FIFO planted at a hook's journal would otherwise hang the hook),
  and `open_fd(..., flags=...)` opens a lock file or an archive member for writing.
- `create_temp`, `write_temp`, `write_chunks`, `replace`, `move`, `atomic_write`: a new file is written beside its target, private
  (0600 unless told), synced unless the caller says the file can be lost in a power cut
  (`sync=False`: bookkeeping rewritten at every start; an fsync costs a third of a hook's
  budget on a loaded disk), then put in place with the one `os.replace`; a temp file that
  will not be used is removed, and `remove_stale_temp_files` sweeps those a killed write left.
- `read_json` / `json_bytes` / `write_json`: the codec of the kit's own state files
  (`fastjson`, no `json` import): UTF-8, lone surrogates written as `\\udcXX` escapes so a
  value reads back as it was written.

Does not: decide what a refused or unreadable file means (callers skip it or report it);
locks and the state layout (`root`); reading transcripts line by line (`transcript.follow`).
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import time

from session_kit.base import fastjson

# Annotations only: `collections.abc` loads `collections` (~1 ms of every hook's start-up).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # a symlink planted in a state file's place is refused


class NotARegularFile(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket, a folder)."""


def open_fd(path: str | os.PathLike[str], *, flags: int = 0, mode: int = 0o600) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file at `path` and its `fstat`; NotARegularFile (or another
    OSError) else. Read-only unless `flags` adds more (`os.O_RDWR | os.O_APPEND | os.O_CREAT`:
    `mode` is then the new file's)."""
    try:
        fd = os.open(path, _READ | flags, mode)
    except ValueError as exc:  # a NUL or a lone surrogate in a path a transcript named
        raise OSError(errno.EINVAL, f"not a usable path ({exc})") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # opened for writing, non-blocking: a FIFO nobody reads
            raise NotARegularFile(errno.ENXIO, "not a regular file (a FIFO)", os.fspath(path)) from None
        raise
    try:
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise NotARegularFile(errno.EINVAL, f"not a regular file ({_kind(st.st_mode)})", os.fspath(path))
    return fd, st


def open_regular(path: str | os.PathLike[str], *, buffering: int = -1):
    """The regular file at `path`, open for binary reading (OSError as `open_fd`)."""
    return os.fdopen(open_fd(path)[0], "rb", buffering=buffering)


def append(path: str | os.PathLike[str], data: bytes) -> None:
    """`data` added at the end of the regular file at `path` (made 0600 when missing) in one
    write: `O_APPEND` keeps the lines of concurrent writers whole. Never waits, and refuses
    anything but a regular file, a symlink included (OSError as `open_fd`)."""
    fd = open_fd(path, flags=os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW)[0]
    try:
        write_all(fd, data)
    finally:
        os.close(fd)


def read_small(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most `limit` bytes of the regular file at `path` (OSError as `open_fd`)."""
    fd = open_fd(path)[0]
    try:
        chunks, size = [], 0
        while size < limit:
            chunk = os.read(fd, limit - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


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


# --- writing whole files ------------------------------------------------------------------


def temp_beside(path: str | os.PathLike[str]) -> str:
    """A new temp file's name in `path`'s folder (`.<name>.<pid>.<n>.tmp`): a rename from it
    stays on one file system."""
    path = os.fspath(path)
    folder = os.path.dirname(path) or "."
    return os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{time.monotonic_ns()}.tmp")


def create_temp(path: str | os.PathLike[str], *, mode: int = 0o600) -> tuple[str, int]:
    """A new temp file beside `path`, private (`mode`, whatever the umask): its name and a
    descriptor open for writing, for a file written in pieces, then `replace`d."""
    tmp = temp_beside(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        os.fchmod(fd, mode)  # the umask may have taken bits off; never adds any
    except OSError:
        pass
    return tmp, fd


def write_temp(path: str, data: bytes, *, mode: int = 0o600, sync: bool = True) -> str:
    """All of `data`, written (and synced, unless `sync` is False) to a new temp file beside
    `path`, whose path is returned; nothing is left behind on a failure."""
    tmp, fd = create_temp(path, mode=mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if sync:
                f.flush()
                os.fsync(f.fileno())
    except BaseException:
        discard(tmp)
        raise
    return tmp


def write_all(fd: int, data: bytes) -> None:
    """All of `data` to `fd` (`os.write` may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_chunks(path: str, chunks: Iterable[bytes], *, mode: int = 0o600) -> None:
    """A file made of `chunks`, streamed to a private temp file beside `path` and put in its
    place (not synced: for copies that can be made again, such as the archive's readable
    views); nothing is left behind on a failure."""
    tmp, fd = create_temp(path, mode=mode)
    try:
        for chunk in chunks:
            write_all(fd, chunk)
    except BaseException:
        os.close(fd)
        discard(tmp)
        raise
    os.close(fd)
    replace(tmp, path)


def replace(tmp: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Put the finished temp file `tmp` in `path`'s place (readers see the old file or the new
    one, never half of one); on a failure `tmp` is removed and the error raised."""
    try:
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise


def move(source: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """`source` renamed to `path` in one step (over what is there); on a failure nothing moved.
    For a file that must not be lost if the rename fails (a user's file moved aside)."""
    os.replace(source, path)


def discard(tmp: str | os.PathLike[str]) -> None:
    """Remove a temp file that will not be used (gone already is fine)."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


def remove_stale_temp_files(folder: str | os.PathLike[str], names: list[str] | None = None) -> list[str]:
    """Temp files (`temp_beside`'s `.<name>.<pid>.<n>.tmp`) that a killed write left in
    `folder`, of the files `names` (None: of any file, in a folder only the kit writes):
    removed when no process has that pid any more (a live one may still be writing)."""
    removed: list[str] = []
    try:
        candidates = os.listdir(folder)
    except OSError:
        return removed
    prefixes = tuple(f".{name}." for name in names) if names is not None else (".",)
    for name in candidates:
        if not (name.startswith(prefixes) and name.endswith(".tmp")):
            continue
        parts = name[: -len(".tmp")].split(".")
        if len(parts) < 4 or not parts[-2].isdigit() or not parts[-1].isdigit() or _alive(int(parts[-2])):
            continue
        try:
            os.unlink(os.path.join(folder, name))
            removed.append(os.path.join(folder, name))
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process, or no way to tell: keep its file
        return True
    return True


def atomic_write(path: str, data: bytes, *, mode: int = 0o600, sync: bool = True) -> None:
    """Write all of `data` to `path` or nothing: a temp file in the same folder, then replace.
    `sync=False` skips the fsync, for files the kit can do without after a power cut."""
    replace(write_temp(path, data, mode=mode, sync=sync), path)


# --- the kit's JSON files ------------------------------------------------------------------


def json_bytes(value: object, *, indent: int | None = None, sort_keys: bool = False) -> bytes:
    """`value` as the kit writes its JSON files: UTF-8, a final newline with `indent`."""
    text = fastjson.dumps(value, indent=indent, sort_keys=sort_keys)
    # A lone surrogate (bytes that were not UTF-8 in a name or an argument) is written as the
    # JSON escape `\udcXX`: the file stays valid UTF-8 and reads back to the very same string.
    return (text + "\n" if indent is not None else text).encode("utf-8", "backslashreplace")


def read_json(path: str, limit: int) -> object:
    """The JSON document in the file at `path`. FileNotFoundError when there is none;
    ValueError when it is larger than `limit` bytes or not JSON; OSError as `open_fd`."""
    data = read_small(path, limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    try:
        return fastjson.loads(data)
    except RecursionError:
        raise ValueError("nested too deep") from None


def write_json(
    path: str, value: object, *, indent: int | None = None, sort_keys: bool = False, sync: bool = True
) -> None:
    """`value` written to `path` atomically (`atomic_write`, 0600)."""
    atomic_write(path, json_bytes(value, indent=indent, sort_keys=sort_keys), sync=sync)


def read_json_object(path: str, limit: int) -> tuple[dict, str | None]:
    """The JSON object in the file at `path` (the kit's config), and what was wrong with it:
    `({}, None)` when there is no file; `({}, "<path>: <problem>")` when it cannot be read,
    is too large, is not JSON or not an object (the caller goes on with its defaults)."""
    try:
        value = read_json(path, limit)
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"{path}: {exc.strerror or exc}"
    except ValueError as exc:
        problem = str(exc) if str(exc).startswith("larger than") else f"not JSON ({exc})"
        return {}, f"{path}: {problem}"
    return (value, None) if isinstance(value, dict) else ({}, f"{path}: not a JSON object")


# --- the read side: folders a listing goes into, what was skipped, the text policy ---


def skipped(path: str | os.PathLike[str], reason: str) -> None:
    """Say that `path` was passed over (one warning; the CLI shows it as one line)."""
    import warnings  # here: only a reader that skips something pays for it

    from session_kit.errors import Skipped

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
