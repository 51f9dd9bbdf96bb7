"""The bytes of a settings file the user owns: reading them safely and replacing them only
if nobody changed them meanwhile. Knows nothing of hooks, receipts or backups (`installer`).

Owns: writing settings JSON (numbers keep the text they were read with: `1e400` never
becomes `Infinity`), where a write goes (a symlink's target, so the link stays), the
compare-and-swap replace (`renameat2(RENAME_EXCHANGE)` where Linux has it, else
a check right before the replace), and removing temp files that killed writes left behind.
Does not: lock (the installer holds the kit's lock; editors take none, hence the checks);
read or parse a settings file (`claude.settings`, the one reader of the client's settings).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

# Reading and parsing a settings file is `claude.settings`' (the one reader of the client's
# settings); named here for the installer, which reads through this module.
from session_kit.claude.settings import MAX_SETTINGS_BYTES as MAX_SETTINGS_BYTES
from session_kit.claude.settings import JSONNumber as JSONNumber
from session_kit.claude.settings import SettingsRead, file_stamp
from session_kit.claude.settings import parse_settings as parse_settings
from session_kit.claude.settings import read_settings_file as read_settings_file
from session_kit.state.fileio import json_bytes, read_small, replace, write_temp


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
            displaced = file_stamp(os.lstat(tmp))
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
