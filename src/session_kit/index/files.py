"""Which files the index reads: every session's transcript and agent logs under a Claude root.

Owns: `IndexFile` (a file, whose session and agent it is, and the listing's stat) and listing
them cheaply, as every search does before it answers: one `scandir` per folder and the stat it
gives, plain strings (no `pathlib`), in the layouts `sessions.store` names (a project's
`<id>.jsonl`, `<id>/subagents/agent-*.jsonl` and its workflow runs', 2025's `agent-*.jsonl`
beside the sessions, whose session id is read from its head only the first time, and whose
2.0.x warmup logs are marked: billed, so their usage is kept, but no agent of the conversation
and never searched); agent folders whose session file is gone are listed too. Does not:
read transcripts.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from session_kit.base.fileio import walkable
from session_kit.sessions.store import (
    AGENT_PREFIX,
    SESSION_SUFFIX,
    WORKFLOWS,
    first_field,
    is_compaction_agent,
    is_warmup_log,
)
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


def _entries(folder: str) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError:
        return []


def _file(
    entry: os.DirEntry, session: str, agent: str | None, project: str, *, warmup: bool = False
) -> IndexFile | None:
    try:
        st = entry.stat()
    except OSError:
        return None  # removed while we looked
    if not stat.S_ISREG(st.st_mode):
        return None  # a FIFO or a device named like a transcript is never read
    return IndexFile(entry.path, session, agent, project, st.st_size, st.st_mtime, warmup=warmup)


def _agents_in(folder: str, session: str, project: str) -> Iterator[IndexFile]:
    """`<id>/subagents/agent-*.jsonl`, then each workflow run's."""
    subagents = os.path.join(folder, "subagents")
    for entry in _entries(subagents):
        name = entry.name
        if name.startswith(AGENT_PREFIX) and name.endswith(SESSION_SUFFIX):
            agent = name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)]
            # The compaction summariser's log is billed like a warmup: its usage is kept, no agent row.
            found = _file(entry, session, agent, project, warmup=is_compaction_agent(agent))
            if found:
                yield found
        elif name == WORKFLOWS and walkable(entry.path, within=subagents):
            for run in _entries(entry.path):
                if not walkable(run.path, within=entry.path):
                    continue
                for log in _entries(run.path):
                    if log.name.startswith(AGENT_PREFIX) and log.name.endswith(SESSION_SUFFIX):
                        found = _file(log, session, log.name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)], project)
                        if found:
                            yield found


def files_to_index(
    claude_root: Path | str, session_of: Callable[[str], str | None] = lambda _path: None
) -> Iterable[IndexFile]:
    """Every session's transcript and agent logs, project by project. `session_of(path)` is
    the session the index already has for a file (a 2025-layout agent log's head is read only
    when it has none)."""
    projects = os.path.join(str(claude_root), "projects")
    for project_entry in _entries(projects):
        if walkable(project_entry.path, within=projects):
            yield from files_in_project(project_entry.path, session_of)


def files_in_project(folder: str, session_of: Callable[[str], str | None] = lambda _path: None) -> Iterator[IndexFile]:
    """One project folder's (`projects/<project>/`) transcripts and agent logs."""
    project = os.path.basename(folder)
    for entry in _entries(folder):
        name = entry.name
        if name.endswith(SESSION_SUFFIX):
            if name.startswith(AGENT_PREFIX):  # 2025: beside the sessions, named by its head
                agent = name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)]
                session = session_of(entry.path)
                warmup = False
                if session is None:
                    warmup = is_warmup_log(Path(entry.path))
                    session = first_field(Path(entry.path), b"sessionId")
                if session:
                    found = _file(entry, session, agent, project, warmup=warmup)
                    if found:
                        yield found
                continue
            found = _file(entry, name[: -len(SESSION_SUFFIX)], None, project)
            if found:
                yield found
        elif is_plain_id(name) and walkable(entry.path, within=folder):  # its agents, also when its file is gone
            yield from _agents_in(entry.path, name, project)


def session_files(folder: str, session: str) -> Iterator[IndexFile]:
    """One session's transcript and the agent logs in its folder (`projects/<project>/`
    being `folder`), as the full listing gives them."""
    project = os.path.basename(folder)
    path = os.path.join(folder, session + SESSION_SUFFIX)
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        yield IndexFile(path, session, None, project, st.st_size, st.st_mtime)
    inner = os.path.join(folder, session)
    if walkable(inner, within=folder):
        yield from _agents_in(inner, session, project)


def archived_only(
    claude_root: Path, state_root: str, indexed: set[str], paths: set[str] = frozenset()
) -> Iterable[IndexFile]:
    """From the Claude root's archive: the files of archived sessions the index has never seen
    (the client deleted them before any update), through the archive's view (`archive.view`,
    each transcript whole: its earlier generations' dropped entries too); and for the sessions
    it has seen, the earlier part of each file the client rewrote (the entries the client
    dropped), with the client's file as its `original` (not for a session indexed through the
    view, in `paths`: its view's transcript holds that part already)."""
    from session_kit.archive import layout, store, view

    base = layout.base_dir(state_root, str(claude_root))
    root = layout.view_dir(base)
    for session in view.archived_ids(base, ""):
        if session in indexed:
            continue
        if view.materialize(base, session) is None:
            continue
        for entry in store.archived_session_files(base, session):
            name = entry.rel.rsplit("/", 1)[-1]
            if not (
                view.is_transcript(entry, session) or (name.startswith(AGENT_PREFIX) and name.endswith(SESSION_SUFFIX))
            ):
                continue
            path = os.path.join(root, *entry.rel.split("/"))
            agent = name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)] if name.startswith(AGENT_PREFIX) else None
            original = os.path.join(str(claude_root), *entry.rel.split("/"))
            yield IndexFile(path, session, agent, entry.project, original=original)
    earlier = os.path.join(base, layout.EARLIER)
    for folder, dirs, names in os.walk(earlier):
        dirs.sort()
        for name in sorted(names):
            if not name.endswith(SESSION_SUFFIX) or name.startswith(AGENT_PREFIX):
                continue  # the client rewrites transcripts, never agent logs
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, earlier).replace(os.sep, "/")
            entry = layout.archived(base, rel)
            if entry is None or not entry.session or entry.session not in indexed:
                continue  # a session first indexed just now, through the view (above)
            if os.path.join(root, *rel.split("/")) in paths:
                continue
            yield IndexFile(
                path, entry.session, None, entry.project, original=os.path.join(str(claude_root), *rel.split("/"))
            )
