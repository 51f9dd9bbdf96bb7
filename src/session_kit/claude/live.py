"""Which sessions the client is running now: the kit's one rule for "running".

Owns: reading the client's registry of live processes (`<root>/sessions/<pid>.json`, written
by clients 2.1.x at start with `pid` and `sessionId` and removed at exit; a file whose process
is gone is left from a crash and does not count), and the fallback for clients that keep no
registry: a session whose files were written in the last `RECENT_S` seconds may be running.
Does not: decide what to do about it (a command that must not change a running session's
files asks here and refuses), or list sessions (`sessions.store`). Standard library only.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable

from session_kit.base.fileio import read_small

REGISTRY = "sessions"
RECENT_S = 120.0  # a file written this recently may belong to a live session
MAX_RECORD = 64 * 1024


def running_sessions(claude_root: str | os.PathLike[str]) -> set[str]:
    """Ids of the sessions a live client process has registered under `claude_root`."""
    folder = os.path.join(os.fspath(claude_root), REGISTRY)
    try:
        names = os.listdir(folder)
    except OSError:
        return set()
    found = set()
    for name in names:
        if not name.endswith(".json"):
            continue
        try:
            record = json.loads(read_small(os.path.join(folder, name), MAX_RECORD))
        except (OSError, ValueError):
            continue
        if not isinstance(record, dict):
            continue
        pid, session = record.get("pid"), record.get("sessionId")
        if type(pid) is int and isinstance(session, str) and _alive(pid):
            found.add(session)
    return found


def written_recently(paths: Iterable[str | os.PathLike[str]], *, now: float | None = None) -> bool:
    """Whether any of `paths` was modified in the last `RECENT_S` seconds."""
    limit = (time.time() if now is None else now) - RECENT_S
    for path in paths:
        try:
            if os.stat(path).st_mtime > limit:
                return True
        except OSError:
            continue
    return False


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    except OSError:
        return False
    return True
