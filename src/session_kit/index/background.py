"""The index kept fresh by the hooks: the journal line, then the session indexed in a child.

Owns: what a hook does for the index when a session was written to (SessionEnd, PreCompact,
Stop): the transcript journaled at once (`journal.note`, one append), and what the session
gained indexed in a child the hook does not wait for (`state.detach`, at a low priority),
through the one update (`update`, with the one line follower). Nothing is done for a Claude
root that has no index yet (the first search makes it). Standard library only and light in
the hook's process: the index, SQLite and the parsers are loaded in the child.
Also the whole index brought up to date in a child, for a search that will not wait for it
(`build_in_background`). Does not: decide what a search looks at (`fresh`).
"""

from __future__ import annotations

import os

from session_kit.archive.background import claude_root_of
from session_kit.base.detach import in_child
from session_kit.index.journal import index_path, note

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def index_session_now(state_root: str, claude_root: str, transcript: str) -> int:
    """Index what the session of `transcript` gained (its transcript and agent logs): the
    files read."""
    from pathlib import Path

    from session_kit.index import db
    from session_kit.index.files import session_files
    from session_kit.index.fresh import session_of_path
    from session_kit.index.update import update

    where = session_of_path(os.path.abspath(claude_root), transcript)
    if where is None:
        return 0
    files = list(session_files(*where))
    # Never waits for another update (a build): the journal keeps the session for the next search.
    work = lambda conn: update(conn, Path(claude_root), files=files, within=1 << 62).files  # noqa: E731
    return db.use(state_root, work, claude_root=claude_root)


def journaled(state_root: str, transcript: str) -> str | None:
    """Journal that `transcript` was written to; its Claude root when the root has an index
    to keep fresh (None: nothing more to do)."""
    claude_root = claude_root_of(transcript)
    if claude_root is None or not os.path.isfile(index_path(state_root, claude_root)):
        return None
    return claude_root if note(state_root, claude_root, transcript) else None


def index_in_background(state_root: str, claude_root: str, transcript: str, *, log: Callable[[str], object]) -> bool:
    """Index the session of `transcript` in a child; False when it ran here (no fork)."""
    return in_child(lambda: index_session_now(state_root, claude_root, transcript), log=log, what="index", niceness=10)


def build_now(state_root: str, claude_root: str) -> bool:
    """Bring the whole index of `claude_root` up to date here; False, at once, when another
    build holds it (one build at a time: searches that each found too much new start one)."""
    from pathlib import Path

    from session_kit.index import db
    from session_kit.index.update import update
    from session_kit.state.root import locked

    try:  # `<index>.build.lock`, taken only if free: a second build has nothing to add
        with locked(index_path(state_root, claude_root) + ".build", timeout=0):
            db.use(
                state_root, lambda conn: update(conn, Path(claude_root), state_root=state_root), claude_root=claude_root
            )
    except TimeoutError:
        return False
    return True


def build_in_background(state_root: str, claude_root: str, *, log: Callable[[str], object]) -> bool:
    """Bring the whole index of `claude_root` up to date in a child the caller does not wait
    for (a search that found too much new to read first); False when it ran here (no fork)."""

    # Imported here, before the fork: a child forked from a process with other threads (the API
    # in a long process) could wait forever for an import lock one of them held at the fork.
    import pathlib  # noqa: F401 (what `build_now` imports)

    from session_kit.index import db  # noqa: F401
    from session_kit.index.update import update  # noqa: F401

    def work() -> None:
        build_now(state_root, claude_root)

    if not hasattr(os, "fork"):
        work()
        return False
    # Through a child that ends at once: the build is nobody's child, so a caller that lives on
    # (the API in a long process) is left no process to reap.
    pid = os.fork()
    if pid == 0:
        try:
            in_child(work, log=log, what="index build", niceness=5)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    return True
