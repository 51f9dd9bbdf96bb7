"""Which files the index reads: every session's transcript and agent logs under a Claude root.

Owns: `IndexFile` (a file, whose session and agent it is, and the listing's stat) and which
of the walk's files (`base.layout`: one `scandir` per folder and the stat it gives, plain
strings) the index reads: a project's transcripts, its sessions' agent logs (`subagents/` and
workflow runs', also of a session whose file is gone), 2025's agent logs beside the sessions
(whose session id is read from the head only the first time; 2.0.x warmup logs marked:
billed, so their usage is kept, but no agent of the conversation and never searched), and
the compaction summariser's log, billed like a warmup. Not the client's set-aside copies of
transcripts (`<id>.jsonl.superseded-<ms>`): the index keeps the live session once. Does not:
read transcripts.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from session_kit.base import layout, timestamps
from session_kit.base.fileio import walkable
from session_kit.base.headfield import head_field
from session_kit.base.layout import Found, agent_of_name, is_compaction_agent
from session_kit.sessions.store import is_warmup_log
from session_kit.state.ids import is_plain_id


@dataclass(frozen=True, slots=True)
class IndexFile:
    path: str
    session: str
    agent: str | None = None
    project: str | None = None
    size: int | None = None  # from the listing's stat
    mtime: float | None = None
    original: str | None = None  # a file of the archive's view: where the client had it
    warmup: bool = False  # a 2.0.x warmup log (known when the index first lists it)


def _file(found: Found, session: str, *, warmup: bool = False) -> IndexFile | None:
    try:
        st = found.stat()
    except OSError:
        return None  # removed while we looked
    if not stat.S_ISREG(st.st_mode):
        return None  # a FIFO or a device named like a transcript is never read
    return IndexFile(found.path, session, found.agent, found.project, st.st_size, timestamps.mtime(st), warmup=warmup)


def _indexed(found: Found, session_of: Callable[[str], str | None]) -> IndexFile | None:
    if found.kind == layout.TRANSCRIPT:
        return _file(found, found.session)
    if found.kind == layout.LEGACY_AGENT:  # 2025: beside the sessions, named by its head
        session = session_of(found.path)
        warmup = False
        if session is None:
            warmup = is_warmup_log(Path(found.path))
            session = head_field(found.path, b"sessionId")
        return _file(found, session, warmup=warmup) if session else None
    if found.kind == layout.AGENT:
        # The compaction summariser's log is billed like a warmup: its usage is kept, no agent row.
        return _file(found, found.session, warmup=is_compaction_agent(found.agent))
    if found.kind == layout.WORKFLOW_AGENT:
        return _file(found, found.session)
    return None  # a set-aside copy of a transcript, or a project's other file


def files_to_index(
    claude_root: Path | str, session_of: Callable[[str], str | None] = lambda _path: None
) -> Iterable[IndexFile]:
    """Every session's transcript and agent logs, project by project. `session_of(path)` is
    the session the index already has for a file (a 2025-layout agent log's head is read only
    when it has none)."""
    for folder in layout.project_folders(str(claude_root)):
        yield from files_in_project(folder, session_of)


def files_in_project(folder: str, session_of: Callable[[str], str | None] = lambda _path: None) -> Iterator[IndexFile]:
    """One project folder's (`projects/<project>/`) transcripts and agent logs."""
    for found in layout.project_files(folder, folders=is_plain_id):  # its agents, also when its file is gone
        indexed = _indexed(found, session_of)
        if indexed:
            yield indexed


def session_files(folder: str, session: str) -> Iterator[IndexFile]:
    """One session's transcript and the agent logs in its folder (`projects/<project>/`
    being `folder`), as the full listing gives them."""
    project = os.path.basename(folder)
    path = layout.transcript_path(folder, session)
    found = _file(Found(path, layout.TRANSCRIPT, project, session, None, None), session)
    if found:
        yield found
    inner = layout.session_dir(folder, session)
    if walkable(inner, within=folder):
        for log in layout.agent_logs(inner, session, project):
            indexed = _indexed(log, lambda _path: None)
            if indexed:
                yield indexed


def archived_only(
    claude_root: Path, state_root: str, indexed: set[str], paths: set[str] = frozenset()
) -> Iterable[IndexFile]:
    """From the Claude root's archive: the files of archived sessions the index has never seen
    (the client deleted them before any update), through the archive's view (`archive.view`,
    each transcript whole: its earlier generations' dropped entries too); and for the sessions
    it has seen, the earlier part of each file the client rewrote (the entries the client
    dropped), with the client's file as its `original` (not for a session indexed through the
    view, in `paths`: its view's transcript holds that part already). Never the view of a
    session whose transcript the client still has: one session is indexed once."""
    from session_kit.archive import layout as archive
    from session_kit.archive import store, view

    base = archive.base_dir(state_root, str(claude_root))
    root = archive.view_dir(base)
    for session in view.archived_ids(base, ""):
        if session in indexed:
            continue
        entries = store.archived_session_files(base, session)
        if any(_on_disk(claude_root, e) for e in entries if view.is_transcript(e, session)):
            continue  # the client's file is indexed: its view would be the same session twice
        if view.materialize(base, session) is None:
            continue
        for entry in entries:
            agent = agent_of_name(entry.rel.rsplit("/", 1)[-1])
            if not (view.is_transcript(entry, session) or agent is not None):
                continue
            path = os.path.join(root, *entry.rel.split("/"))
            original = os.path.join(str(claude_root), *entry.rel.split("/"))
            yield IndexFile(path, session, agent, entry.project, original=original)
    for rel, path in archive.earlier_parts(base):
        if layout.session_of_name(rel.rsplit("/", 1)[-1]) is None:
            continue  # the client rewrites transcripts, never agent logs
        entry = archive.archived(base, rel)
        if entry is None or not entry.session or entry.session not in indexed:
            continue  # a session first indexed just now, through the view (above)
        if os.path.join(root, *rel.split("/")) in paths:
            continue
        yield IndexFile(
            path, entry.session, None, entry.project, original=os.path.join(str(claude_root), *rel.split("/"))
        )


def _on_disk(claude_root: Path, entry) -> bool:
    return os.path.isfile(os.path.join(str(claude_root), *entry.rel.split("/")))


def doubled_views(conn, claude_root: Path, state_root: str) -> list[tuple[int, str]]:
    """(id, session) of the index's files that are the archive's view of a file the client
    still has (`secrets --scrub` indexed them beside the client's before this was kept out):
    the same session twice in search, export and the team database."""
    from session_kit.archive import layout as archive

    view = os.path.join(archive.view_dir(archive.base_dir(state_root, str(claude_root))), "")
    found = []
    rows = conn.execute(
        "SELECT id, path, session FROM files WHERE path >= ? AND path < ?", (view, view[:-1] + chr(ord(os.sep) + 1))
    )
    for file_id, path, session in rows.fetchall():
        rel = path[len(view) :]
        if os.path.isfile(os.path.join(str(claude_root), rel)):
            found.append((file_id, session))
    return found
