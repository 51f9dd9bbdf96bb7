"""Claude Code's settings files, read-only: which file each scope means, and what the kit reads.

Owns: the settings file and the slash-command folder of each scope (user: the Claude root;
project: `<project>/.claude/settings.json`; local: `<project>/.claude/settings.local.json`,
its commands in the Claude root's folder, as the client has no per-person project folder),
the one reader of the client's settings files (`read_settings_file`: regular files only,
bounded, read whole and stable: read again while an editor is between truncating and
writing, or the file grew or shrank during the read; `parse_settings`:
numbers keep their text, so a file written back keeps `1e400`), reading a setting as the
client would (a missing or invalid file gives nothing), and the
`plansDirectory` setting with the folders that hold plan files. Changing settings is
`install`'s job.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import NamedTuple

from session_kit.base.fileio import NotARegularFile, open_fd
from session_kit.claude import paths
from session_kit.errors import BadFile

SCOPE_USER = "user"
SCOPE_PROJECT = "project"
SCOPE_LOCAL = "local"
SCOPES = (SCOPE_USER, SCOPE_PROJECT, SCOPE_LOCAL)
# A settings file is a few kB; reading stops here (a link to /dev/zero never ends).
MAX_SETTINGS_BYTES = 16 * 1024 * 1024
SETTLE_S = 0.5  # a blank settings file is trusted once it has not changed for this long
SETTLE_TIMEOUT_S = 5.0


def settings_path(scope: str, claude_root: Path, project: Path) -> Path:
    """The settings file of `scope`; ValueError for an unknown scope."""
    if scope == SCOPE_USER:
        return claude_root / "settings.json"
    if scope == SCOPE_PROJECT:
        return project / ".claude" / "settings.json"
    if scope == SCOPE_LOCAL:
        return project / ".claude" / "settings.local.json"
    raise ValueError(f"unknown scope {scope!r} (expected one of {', '.join(SCOPES)})")


def commands_dir(scope: str, claude_root: Path, project: Path) -> Path:
    """Where slash-command files of `scope` live. Claude Code reads commands from two folders
    only: the root's `commands/` (the person's own, every project) and the project's
    `.claude/commands/` (committed with the repository, for everyone who clones it). It has no
    folder for one person in one project, so the local scope's commands go to the person's
    own folder: what is personal is never written where a repository commits it."""
    return project / ".claude" / "commands" if scope == SCOPE_PROJECT else claude_root / "commands"


def read_setting(path: Path, key: str) -> object:
    """`key` of the settings file at `path`, or None when the file is missing, invalid or
    lacks it (the client would not use it either)."""
    try:
        value = parse_settings(read_settings_file(path, settle=False).raw or b"")
    except (BadFile, ValueError, RecursionError):
        return None
    return value.get(key) if isinstance(value, dict) else None


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


class SettingsRead(NamedTuple):
    """A settings file as read: its bytes (None: no file) and the identity of what was read
    (device, inode, size, mtime), to tell whether it changed before it is replaced."""

    raw: bytes | None
    stamp: tuple[int, int, int, int] | None


def file_stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """The identity of a settings file as read (device, inode, size, mtime)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def read_settings_file(path: Path, *, settle: bool = True) -> SettingsRead:
    """The file's bytes, read whole and stable.

    A file is "in flux" while an editor saves it: one saving in place truncates it, then
    writes it, so for a moment it is empty, shorter than it was, or half of a JSON document.
    A read whose size differs from the file's size after it (it grew or shrank meanwhile) is
    read again; with `settle`, so is a blank or unparsable read of a file changed less than
    SETTLE_S ago, until it parses or has been still for SETTLE_S. BadFile for anything but a
    regular file, for one too large, and for one still blank and changing after
    SETTLE_TIMEOUT_S (a half-written one is returned then, for the caller to refuse).
    """
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while True:
        raw, st = _read_once(path)
        if raw is None:
            return SettingsRead(None, None)
        if st.st_size != len(raw) and time.monotonic() < deadline:
            time.sleep(0.01)  # it grew or shrank while it was read
            continue
        age = time.time() - st.st_mtime
        if not settle or age >= SETTLE_S or age < -1.0 or _parses(raw):  # (-1: a clock skew, not an editor)
            return SettingsRead(raw, file_stamp(st))
        if time.monotonic() > deadline:
            if raw.strip():
                return SettingsRead(raw, file_stamp(st))
            raise BadFile(f"{path} stays empty while it keeps changing; it was left as it was", path=str(path))
        time.sleep(0.02)


def _parses(raw: bytes) -> bool:
    """Whether `raw` is a whole settings document (a blank one is not: it may be a moment)."""
    if not raw.strip():
        return False
    try:
        parse_settings(raw)
    except (ValueError, RecursionError):
        return False
    return True


def _read_once(path: Path) -> tuple[bytes | None, os.stat_result]:
    """The file's bytes and its `fstat` after they were read; `(None, …)` when there is none."""
    try:
        fd, st = open_fd(path)  # a FIFO in the settings file's place must not hang the kit
    except FileNotFoundError:
        return None, os.stat_result((0,) * 10)
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
        return b"".join(chunks), os.fstat(fd)
    except OSError as exc:
        raise BadFile(f"cannot read {path}: {exc.strerror}; it was left as it was", path=str(path)) from None
    finally:
        os.close(fd)


def plans_directory_setting(root: Path, project: str | None) -> str | None:
    """`plansDirectory` from the project's local, then shared, then the user's settings."""
    scopes = (SCOPE_LOCAL, SCOPE_PROJECT, SCOPE_USER) if project else (SCOPE_USER,)
    for scope in scopes:
        setting = read_setting(settings_path(scope, root, Path(project or ".")), "plansDirectory")
        if isinstance(setting, str) and setting.strip():
            return setting
    return None


def plan_dirs(root: Path, project: str | None) -> list[Path]:
    """The configured plans folder, then the default one (a setting may have changed)."""
    configured = paths.plans_dir(root, plans_directory_setting(root, project), project=project)
    default = paths.plans_dir(root)
    return [configured] if configured == default else [configured, default]
