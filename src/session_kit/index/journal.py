"""Where a Claude root's index lives, and its journal: the transcripts the hooks saw change.

Owns: `index_path` (one database per Claude root; `db` opens it), and the journal beside it
(`<index>.journal`): one line per transcript a hook saw written to (SessionEnd, PreCompact,
Stop), appended by the hook itself in one `O_APPEND` write (`fileio.append`: never waits, a regular file
only; no lock, no fork, nothing read),
and read back from a checkpoint through the one line follower (`read_since`,
`transcript.follow`) by the update that checks what changed (`fresh`). A journal exists only once a hook has written to it: it says the hooks keep it.
Standard library only and cheap to import (no `hashlib`, no `sqlite3`): the hooks load it.
Does not: read transcripts, open the database, or decide what an update reads (`fresh`).
"""

from __future__ import annotations

import os

try:  # `_blake2` alone: `hashlib` loads OpenSSL, several ms of a hook's budget
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - not CPython
    from hashlib import blake2b

INDEX = "index"
DB_FILE = "history.sqlite3"
JOURNAL = ".journal"
MAX_LINE = 4096  # a longer path is never journaled (the full check finds its file)
MAX_BYTES = 64 * 1024  # a journal this long is emptied at the next look at every file


def index_path(state_root: str, claude_root: str | os.PathLike[str] | None = None) -> str:
    """The database of one Claude root (`--claude-dir`): roots never mix their sessions."""
    if claude_root is None:
        return os.path.join(state_root, INDEX, DB_FILE)
    digest = blake2b(os.path.abspath(claude_root).encode("utf-8", "surrogateescape"), digest_size=6)
    return os.path.join(state_root, INDEX, f"history-{digest.hexdigest()}.sqlite3")


def journal_path(database: str) -> str:
    return database + JOURNAL


def note(state_root: str, claude_root: str, transcript: str) -> bool:
    """Journal that `transcript` (of `claude_root`) was written to; False when there is no
    index folder yet (nothing to keep fresh: the first search reads everything) or the path
    cannot be one line. OSError (`fileio.NotARegularFile`) when something else is in the
    journal's place: the hook reports it and goes on."""
    data = os.fsencode(transcript) + b"\n"
    if b"\n" in data[:-1] or len(data) > MAX_LINE:
        return False
    from session_kit.base.fileio import append

    try:
        append(journal_path(index_path(state_root, claude_root)), data)
    except FileNotFoundError:
        return False
    return True


def read_since(path: str, seen: str | None) -> tuple[list[str], str] | None:
    """The paths journaled since the checkpoint `seen` (`follow.Checkpoint`'s text), read
    through the one line follower, and the checkpoint after them. None when there is no
    journal, or it is not the one `seen` was taken of (made again or cut: what was written
    before is unknown)."""
    from session_kit.base.follow import Checkpoint, Follow  # the reader's: no hook pays for it

    try:
        with Follow(path, Checkpoint.from_text(seen)) as f:
            if f.restarted:
                return None
            lines = [line for block in f.blocks(max_line=MAX_LINE) for line in block if line]
            return list(dict.fromkeys(map(os.fsdecode, lines))), f.checkpoint().to_text()
    except OSError:
        return None


def start_over(path: str) -> str | None:
    """Before a look at every file: the journal emptied when it has grown (what it names is
    looked at anyway), and the checkpoint of its end, where the next look reads from. None
    when there is no journal (no hook has written one)."""
    from session_kit.base.follow import Follow

    try:
        if os.lstat(path).st_size > MAX_BYTES:
            os.truncate(path, 0)
        with Follow(path) as f:
            for _block in f.blocks(max_line=MAX_LINE):
                pass
            return f.checkpoint().to_text()
    except OSError:
        return None
