"""An archived session, written out again: where the kit's readers find it, or where the client does.

Owns: finding archived sessions by id or id prefix; writing a session's archived files into a
Claude-root-shaped folder: the kit's private view (`<state>/archive/view/`, rewritten when the
archive has more than the view), from which every command reads a session the client deleted;
and `restore`, which puts them back under the Claude root for `claude --resume` (existing files
are never overwritten; restored files get the current time, so the client's clean-up, which
goes by age, does not delete them again at its next start). Standard library only.
Does not: copy into the archive (`store`) or read transcripts.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from session_kit.archive import store
from session_kit.state import fileio
from session_kit.state.root import ensure_dir

VIEW = "view"


@dataclass(frozen=True, slots=True)
class Restored:
    session_id: str
    written: tuple[str, ...]  # paths written under the Claude root
    kept: tuple[str, ...]  # paths already there, left as they were
    transcript: str | None  # the session's transcript under the Claude root
    project_dir: str | None  # the project folder the client names for the session's cwd


def view_root(state_root: str) -> str:
    return os.path.join(store.archive_dir(state_root), VIEW)


def archived_ids(state_root: str, prefix: str) -> list[str]:
    """Ids of archived sessions (those with an archived transcript) starting with `prefix`."""
    base = os.path.join(store.files_dir(state_root), "projects")
    suffix = ".jsonl" + store.GZ + store.MANIFEST
    found = set()
    try:
        projects = os.listdir(base)
    except OSError:
        return []
    for project in projects:
        try:
            names = os.listdir(os.path.join(base, project))
        except OSError:
            continue
        for name in names:
            if name.endswith(suffix) and name.startswith(prefix) and not name.startswith("agent-"):
                found.add(name[: -len(suffix)])
    return sorted(found)


def _write(state_root: str, entry: store.Archived, dest: str, *, mode: int = 0o600) -> None:
    tmp = fileio.temp_beside(dest)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        for chunk in store.original_chunks(state_root, entry.rel):
            store._write_all(fd, chunk)
    except BaseException:
        os.close(fd)
        fileio.discard(tmp)
        raise
    os.close(fd)
    fileio.replace(tmp, dest)


def materialize(state_root: str, session_id: str) -> str | None:
    """The session's transcript in the kit's private view (its agents and plan beside it),
    brought up to the archive; None when the archive has no transcript of it."""
    entries = store.archived_session_files(state_root, session_id)
    transcript = None
    base = view_root(state_root)
    for entry in entries:
        dest = os.path.join(base, *entry.rel.split("/"))
        if entry.rel.endswith(f"/{session_id}.jsonl") and entry.rel.count("/") == 2:
            transcript = dest
        try:
            if os.stat(dest).st_size == entry.size:
                continue
        except OSError:
            pass
        ensure_dir(os.path.dirname(dest), root=state_root)
        _write(state_root, entry, dest)
    return transcript


def restore(state_root: str, claude_root: str, session_id: str) -> Restored | None:
    """Put an archived session back under the Claude root; None when nothing is archived."""
    entries = store.archived_session_files(state_root, session_id)
    if not entries:
        return None
    written, kept = [], []
    transcript = None
    now = time.time()
    for entry in entries:
        dest = os.path.join(claude_root, *entry.rel.split("/"))
        if entry.rel.endswith(f"/{session_id}.jsonl") and entry.rel.count("/") == 2:
            transcript = dest
        if os.path.lexists(dest):
            kept.append(dest)
            continue
        os.makedirs(os.path.dirname(dest), mode=0o700, exist_ok=True)
        _write(state_root, entry, dest)
        os.utime(dest, (now, now))
        written.append(dest)
    project = os.path.dirname(transcript) if transcript else None
    return Restored(session_id, tuple(written), tuple(kept), transcript, project)
