"""The bytes of a settings file the user owns: reading them safely and replacing them only
if nobody changed them meanwhile. Knows nothing of hooks, receipts or backups (`installer`).

Owns: parsing and writing settings JSON (numbers keep their text: `1e400` never becomes
`Infinity`), where a write goes (a symlink's target, so the link stays), reading a file once it
has settled (a blank read of a file just changed may be an editor between truncating and
writing), the compare-and-swap replace (`renameat2(RENAME_EXCHANGE)` where Linux has it, else
a check right before the replace), and removing temp files that killed writes left behind.
Does not: lock (the installer holds the kit's lock; editors take none, hence the checks).
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from session_kit.errors import BadFile
from session_kit.state import fastjson
from session_kit.state.fileio import NotARegularFile, open_fd, read_small, replace, write_temp

MAX_SETTINGS_BYTES = 16 * 1024 * 1024
SETTLE_S = 0.5  # a blank settings file is trusted once it has not changed for this long
SETTLE_TIMEOUT_S = 5.0


class JSONNumber(float):
    """A number as the settings file writes it: saved back with its own text, so `1e400`
    stays `1e400` (a float would become `Infinity`, which the client cannot parse)."""

    __slots__ = ("text",)

    def __new__(cls, text: str) -> JSONNumber:
        number = float.__new__(cls, text)
        number.text = text
        return number

    def __repr__(self) -> str:
        return self.text


def parse_settings(raw: bytes) -> object:
    """The settings file's JSON; a blank file is `{}`. ValueError when it is not JSON."""
    if not raw.strip():
        return {}
    return json.loads(raw, parse_float=JSONNumber)


def dump_settings(settings: dict[str, Any]) -> bytes:
    # A lone surrogate (a `\udcXX` escape in the user's file) goes back out as that escape.
    return (fastjson.dumps(settings, indent=2) + "\n").encode("utf-8", "backslashreplace")


def write_target(path: Path) -> Path:
    """The file to write for `path`: a symlink's final target (dotfile managers link the
    settings file; replacing the link with a file would detach it for good)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


@dataclass(frozen=True, slots=True)
class SettingsRead:
    """A settings file as read: its bytes (None: no file) and the identity of what was read
    (device, inode, size, mtime), to tell whether it changed before it is replaced."""

    raw: bytes | None
    stamp: tuple[int, int, int, int] | None


def _stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def read_settings_file(path: Path, *, settle: bool = True) -> SettingsRead:
    """The file's bytes, read once it has settled.

    An editor saving in place truncates the file, then writes it: an empty (or blank) read of
    a file changed less than SETTLE_S ago may be that moment, so it is read again until the
    file holds something or has been still for SETTLE_S. BadFile for anything but a regular
    file, for one too large, and for one that keeps changing while blank.
    """
    target = write_target(path)
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while True:
        try:
            fd, st = open_fd(target)  # a FIFO in the settings file's place must not hang the kit
        except FileNotFoundError:
            return SettingsRead(None, None)
        except NotARegularFile:
            raise BadFile(f"{path} is not a regular file; it was left as it was", path=str(path)) from None
        except OSError as exc:
            raise BadFile(f"cannot read {path}: {exc.strerror}; it was left as it was", path=str(path)) from None
        try:
            chunks, size = [], 0
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_SETTINGS_BYTES:
                    raise BadFile(
                        f"{path} is larger than {MAX_SETTINGS_BYTES} bytes; it was left as it was", path=str(path)
                    )
            raw = b"".join(chunks)
            st = os.fstat(fd)
        except OSError as exc:
            raise BadFile(f"cannot read {path}: {exc.strerror}; it was left as it was", path=str(path)) from None
        finally:
            os.close(fd)
        age = time.time() - st.st_mtime
        if raw.strip() or not settle or age >= SETTLE_S or age < -1.0:  # (-1: a clock skew, not an editor)
            return SettingsRead(raw, _stamp(st))
        if time.monotonic() > deadline:
            raise BadFile(f"{path} stays empty while it keeps changing; it was left as it was", path=str(path))
        time.sleep(0.02)


def _exchange(a: str, b: str) -> bool:
    """Swap two paths atomically (Linux `renameat2(RENAME_EXCHANGE)`); False where the
    system or the file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    import errno

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), b)


def _same(path: str, seen: SettingsRead) -> bool:
    """Whether `path` is still the very file that was read (identity, size, time, bytes)."""
    try:
        st = os.lstat(path)
        if seen.stamp is None or _stamp(st) != seen.stamp:
            return False
        return read_small(path, MAX_SETTINGS_BYTES + 1) == seen.raw
    except OSError:
        return False


def replace_if_unchanged(path: Path, data: bytes, seen: SettingsRead, *, mode: int) -> bool:
    """Put `data` in the settings file (through a symlink) if it is still what `seen` read.

    False, with the file left as it is, when someone changed it since (an editor saving by
    rename or in place): the caller reads it again and redoes its change. The file is compared
    with what was read (identity, size, time, bytes) right before the replace. Where Linux can
    swap two files atomically, the replace is that swap, and what it displaced must still be
    the file that was read; if an edit slipped in between, it is swapped straight back, so an
    editor's save is never dropped. Elsewhere a plain `os.replace` follows the check.
    """
    target = write_target(path)
    tmp = write_temp(str(target), data, mode=mode)
    try:
        if seen.raw is None:  # there was no file: create it only if it is still absent
            try:
                os.link(tmp, target)
                return True
            except FileExistsError:
                return False
        if not _same(str(target), seen):
            return False
        try:
            swapped = _exchange(tmp, str(target))
        except FileNotFoundError:  # removed meanwhile
            return False
        if not swapped:
            replace(tmp, target)
            return True
        try:  # only a stat here: another writer may see our file until it is swapped back
            displaced = _stamp(os.lstat(tmp))
        except OSError:
            displaced = None
        if displaced == seen.stamp:
            return True
        _exchange(tmp, str(target))  # put back what someone else wrote; redo on top of it
        return False
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


def mode_of(path: Path) -> int:
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return 0o600


def remove_stale_temp_files(folder: Path, names: list[str]) -> list[Path]:
    """Temp files (`.<name>.<pid>.<n>.tmp`) that a killed write of the kit left in `folder`:
    removed when no process has that pid any more (a live one may still be writing)."""
    removed = []
    try:
        candidates = list(folder.iterdir())
    except OSError:
        return removed
    prefixes = tuple(f".{name}." for name in names)
    for p in candidates:
        if not (p.name.startswith(prefixes) and p.name.endswith(".tmp")):
            continue
        pid_text = p.name[: -len(".tmp")].split(".")[-2]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        try:
            p.unlink()
            removed.append(p)
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
