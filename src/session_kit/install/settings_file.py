"""The bytes of a settings file the user owns: reading them safely and replacing them only
if nobody changed them meanwhile. Knows nothing of hooks, receipts or backups (`installer`).

Owns: writing settings JSON (numbers keep the text they were read with: `1e400` never
becomes `Infinity`), where a write goes (a symlink's target, so the link stays), the
compare-and-swap replace and removal (`renameat2(RENAME_EXCHANGE)` where Linux has it, else
a check right before the replace; then the displaced file is watched a moment and put back
if an editor that had it open writes to it), and naming what a replace displaced (the bytes
to back up).
Does not: lock (the installer holds the kit's lock; editors take none, hence the checks);
read or parse a settings file (`claude.settings`, the one reader of the client's settings).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from session_kit.base.fileio import discard, json_bytes, move, open_fd, read_small, temp_beside, write_temp
from session_kit.base.fileio import remove_stale_temp_files as remove_stale_temp_files

# Reading and parsing a settings file is `claude.settings`' (the one reader of the client's
# settings); named here for the installer, which reads through this module.
from session_kit.claude.settings import MAX_SETTINGS_BYTES as MAX_SETTINGS_BYTES
from session_kit.claude.settings import SETTLE_TIMEOUT_S, SettingsRead, file_stamp
from session_kit.claude.settings import JSONNumber as JSONNumber
from session_kit.claude.settings import parse_settings as parse_settings
from session_kit.claude.settings import read_settings_file as read_settings_file

WATCH_S = 0.05  # how long a displaced settings file is watched for a late in-place save
WATCH_BLANK_S = 1.0  # ... at least, when it was blank: its editor truncated it and may not have written yet


def dump_settings(settings: dict[str, Any]) -> bytes:
    # A lone surrogate (a `\udcXX` escape in the user's file) goes back out as that escape.
    return json_bytes(settings, indent=2)


def write_target(path: Path) -> Path:
    """The file to write for `path`: a symlink's final target (dotfile managers link the
    settings file; replacing the link with a file would detach it for good)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


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
        if seen.stamp is None or file_stamp(st) != seen.stamp:
            return False
        return read_small(path, MAX_SETTINGS_BYTES + 1) == seen.raw
    except OSError:
        return False


def _stamp(path: str) -> tuple[int, int, int, int] | None:
    try:
        return file_stamp(os.lstat(path))
    except OSError:
        return None


@dataclass(frozen=True, slots=True)
class Replaced:
    """A replace that held: `displaced` is what the file held when it was replaced (None: there
    was no file), the bytes to back up."""

    displaced: bytes | None


def _still(held: str, seen: SettingsRead) -> bool:
    """Whether the displaced file `held` stays what was read for a moment after the replace.

    An editor saving in place may have opened the file just before it was replaced: what it
    writes then goes to the displaced file, which is watched through a descriptor kept on it
    (whatever its name) before it is let go. A blank one is watched until SETTLE_TIMEOUT_S
    after it was last changed (at least WATCH_BLANK_S): its editor truncated it and may not
    have written yet, and the reader trusts a blank file after only SETTLE_S of stillness."""
    try:
        fd, st = open_fd(held)
    except OSError:
        return False
    try:
        wait = WATCH_S
        if not (seen.raw or b"").strip():
            wait = max(WATCH_BLANK_S, st.st_mtime + SETTLE_TIMEOUT_S - time.time())
        until = time.monotonic() + min(wait, SETTLE_TIMEOUT_S)
        while True:
            if file_stamp(os.fstat(fd)) != seen.stamp:
                return False
            if time.monotonic() >= until:
                return True
            time.sleep(0.01)
    finally:
        os.close(fd)


def replace_if_unchanged(path: Path, data: bytes, seen: SettingsRead, *, mode: int) -> Replaced | None:
    """Put `data` in the settings file (through a symlink) if it is still what `seen` read.

    None, with the file left as someone else wrote it, when it changed since it was read or
    while it was replaced (an editor saving by rename or in place): the caller reads it again
    and redoes its change. The file is compared with what was read (identity, size, time,
    bytes) right before the replace. Where Linux can swap two files atomically, the replace
    is that swap; elsewhere the file is kept under a second name, then replaced. Either way
    the displaced file is watched for a moment after: an in-place save that lands in it (its
    editor had it open) is put back in place, never lost with the displaced file.
    """
    target = write_target(path)
    tmp = write_temp(str(target), data, mode=mode)
    held = None
    try:
        if seen.raw is None:  # there was no file: create it only if it is still absent
            try:
                os.link(tmp, target)
                return Replaced(None)
            except FileExistsError:
                return None
        if not _same(str(target), seen):
            return None
        ours = _stamp(tmp)
        try:
            swapped = _exchange(tmp, str(target))
        except FileNotFoundError:  # removed meanwhile
            return None
        if swapped:
            held = tmp  # what it displaced is there now
        else:
            held = temp_beside(target)
            try:
                os.link(target, held)
            except OSError:
                held = None
                return None
            if _stamp(held) != seen.stamp:
                return None
            move(tmp, target)
        if _still(held, seen):
            return Replaced(seen.raw)
        _put_back(held, str(target), ours, exchange=swapped)
        return None
    finally:
        for name in (tmp, held):
            if name is not None:
                discard(name)


def _put_back(held: str, target: str, ours: tuple[int, int, int, int] | None, *, exchange: bool) -> None:
    """The displaced file `held` back in `target`'s place, where the kit's file still stands; if
    someone replaced that meanwhile too, `held` is kept beside it (`<name>.displaced`)."""
    current = _stamp(target)
    if current is not None and ours is not None and current[:2] == ours[:2]:
        if exchange and _exchange(held, target):
            return
        move(held, target)
        return
    move(held, f"{target}.displaced")


def remove_if_unchanged(path: Path, seen: SettingsRead) -> bool:
    """Remove the settings file if it is still what `seen` read (as `replace_if_unchanged`:
    it is moved aside, watched, and put back if an editor writes to it meanwhile)."""
    if not _same(str(path), seen):
        return False
    held = temp_beside(path)
    try:
        move(path, held)
    except OSError:
        return False
    try:
        if _stamp(held) == seen.stamp and _still(held, seen):
            return True
        try:
            os.link(held, path)  # never over a file someone saved meanwhile
        except FileExistsError:
            move(held, f"{path}.displaced")
        return False
    finally:
        discard(held)


def mode_of(path: Path) -> int:
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return 0o600
