"""Scrubbing secrets: the archive's copies (and, when asked, the client's files) rewritten without them.

Owns: which files are rewritten (each secret replaced in place at its length by
`queries.secret_spots.scrubbed`, every other byte kept): the archive's copies
(`archive.store.rewrite`), then its private view of each (written again) and the index (what
it holds of them read again, so `search` finds the rest); the client's files only when asked, never a running session's (`claude.live`) and never `history.jsonl` or a
shell snapshot while any session runs. Does not: find (`queries.secrets`), or print.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from session_kit.archive import layout, store, view
from session_kit.base import fileio
from session_kit.base import layout as client_layout
from session_kit.claude.live import running_sessions, written_recently
from session_kit.queries.secret_spots import JSONL, form_of, scrubbed
from session_kit.queries.secrets import (
    ARCHIVE,
    CLIENT,
    Scope,
    SecretHit,
    SecretsReport,
    Source,
    chunks_of,
    decode,
    encode,
    find_in,
)

# --- which files ----------------------------------------------------------------------------------


def scrub(root: Path, state_root: str, scope: Scope, *, client: bool = False) -> SecretsReport:
    """Find the scope's secrets and rewrite the archive's files that hold them (and the
    client's, with `client`, but none a running session may write); the report counts what
    was found, what each rewritten file lost, and what is left."""
    found = find_in(root, state_root, scope)
    files: dict[tuple[str, str], list[SecretHit]] = {}
    for hit in found.hits:
        files.setdefault((hit.where, hit.path), []).append(hit)
    running = running_sessions(root) if client else set()
    done: list[dict[str, Any]] = []
    held: set[str] = set()
    errors = list(found.errors)
    left = 0
    for (where, path), hits in files.items():
        source = Source(where, path, _owner(root, where, path, hits), form_of(path))
        # a file of many sessions (history.jsonl) loses only the scope's lines' secrets
        only = (
            {h.line for h in hits} if source.form == JSONL and not scope.everything and source.session is None else None
        )
        counts = None
        try:
            if where == ARCHIVE:
                counts = _scrub_archived(layout.base_dir(state_root, str(root)), source, only)
            elif client:
                blocker = _running(source, hits, running)
                if blocker:
                    held.add(blocker)
                else:
                    counts = _scrub_client(source, state_root, only)
        except (OSError, ValueError) as exc:
            errors.append(f"{path}: {getattr(exc, 'strerror', None) or exc}")
        if counts is None:
            left += sum(h.count for h in hits)
            continue
        left += counts[1]
        done.append({"where": where, "path": path, "session": source.session, "scrubbed": counts[0], "left": counts[1]})
    rewritten = {d["session"] for d in done if d["where"] == ARCHIVE and d["session"]}
    if done:
        _refresh(root, state_root, rewritten)
    return SecretsReport(
        found.hits, found.files, tuple(errors), scrubbed=tuple(done), running=tuple(sorted(held)), left=left
    )


def _owner(root: Path, where: str, path: str, hits: list[SecretHit]) -> str | None:
    """The session a file is of; None for the client's files of no one session (history.jsonl,
    shell snapshots, plans), which any running session may write."""
    if where == CLIENT and client_layout.where(path, str(root)) is None:
        return None
    return hits[0].session


def scrub_bytes(data: bytes, form: str, *, only: set[int] | None = None) -> tuple[bytes, int, int]:
    """`secret_spots.scrubbed` on bytes: every byte that is not a secret's kept (invalid UTF-8 too)."""
    text, done, left = scrubbed(decode(data), form, only=only)
    return encode(text), done, left


def _scrub_archived(archive: str, source: Source, only: set[int] | None) -> tuple[int, int] | None:
    """Every generation of an archived file (`archive`: the root's, `archive.layout.base_dir`)."""
    counts = [0, 0]

    def change(data: bytes) -> bytes:
        new, counts[0], counts[1] = scrub_bytes(data, source.form, only=only)
        return new

    if not store.rewrite(archive, source.path, change):
        return None
    stale = os.path.join(layout.view_dir(archive), *source.path.split("/"))
    try:  # the view is written again from the scrubbed copy when next read
        os.unlink(stale)
    except FileNotFoundError:
        pass
    return counts[0], counts[1]


def _running(source: Source, hits: list[SecretHit], running: set[str]) -> str | None:
    """The session that keeps a client file from being changed now, if one does."""
    sessions = {h.session for h in hits if h.session}
    shared = source.session is None  # history.jsonl, a shell snapshot, a plan: any session may write
    if shared and running:
        return sorted(running)[0]
    for session in sorted(sessions):
        if session in running:
            return session
    if written_recently([source.path]):
        return source.session or "(a session writing " + os.path.basename(source.path) + ")"
    return None


def _scrub_client(source: Source, state_root: str, only: set[int] | None) -> tuple[int, int] | None:
    before = os.stat(source.path)
    data = b"".join(chunks_of(source, None))  # a client file
    new, scrubbed, left = scrub_bytes(data, source.form, only=only)
    if new == data:
        return None
    now = os.stat(source.path)
    if (now.st_size, now.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        raise OSError(f"{source.path} changed while it was scrubbed; left as it is")
    fileio.atomic_write(source.path, new, mode=before.st_mode & 0o777)
    os.utime(source.path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the client's clean-up goes by age
    return scrubbed, left


def _refresh(root: Path, state_root: str, sessions: set[str]) -> None:
    """The archive's view of each rewritten session written again and, when there is an index,
    what it holds of those files read again (a rewritten client file is read again by the
    next update, which sees it replaced)."""
    from session_kit.index import db
    from session_kit.index.files import archived_only
    from session_kit.index.update import update

    others = set(view.archived_ids(layout.base_dir(state_root, str(root)), "")) - sessions
    # written again on the way; never the view of a session the client still has (the index
    # reads the client's file: its view beside it was the same session twice)
    views = list(archived_only(root, state_root, others))
    if not views or not os.path.exists(db.index_path(state_root, root)):
        return
    conn = db.connect(state_root, claude_root=root)
    try:
        update(conn, root, files=views)
    finally:
        conn.close()
