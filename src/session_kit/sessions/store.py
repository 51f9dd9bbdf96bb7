"""A session on disk: projects, sessions and agent logs under the Claude root, cheaply.

Owns, on the one walk of the root (`base.layout`): the project directories under the Claude
root, the sessions of a project (newest first) apart from agent logs and the client's
set-aside copies, the agent logs of a session in every layout (current:
`<sid>/subagents/agent-*.jsonl` with `.meta.json`, and a workflow run's agents under
`<sid>/subagents/workflows/<run>/`; 2025: `agent-*.jsonl` beside the sessions, linked by
`sessionId`), telling 2.0.x warmup logs apart, the agent logs whose session file is gone
(orphans), finding a project for a folder and a session by id. Returns frozen values; never
parses a whole transcript (a warmup log is small: only small ones are parsed). Only regular
files are sessions or agent logs: a FIFO, a device link, a folder or a symlink loop named like
one, and a folder it cannot list, are passed over and named (`fileio.skipped`), so one of them
never stops a listing of all. What a user typed is resolved in `resolve`; a
session's overview is `overview`; reading a session is `session`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from session_kit.base import fastjson, fileio, layout, timestamps
from session_kit.base.fileio import open_regular, read_small, reason, skipped
from session_kit.base.headfield import HEAD_FIELD_BYTES, head_field
from session_kit.base.layout import (
    AGENT_PREFIX,
    SESSION_SUFFIX,
    is_compaction_agent,
)
from session_kit.claude import paths
from session_kit.errors import KitError, NoSessionsHere, NotAClaudeRoot, NotFound
from session_kit.state.ids import is_plain_id
from session_kit.transcript.entries import Entry, is_warmup_conversation
from session_kit.transcript.reader import read_head, skip_bom

# Where an agent's log is (`AgentLogRef.layout`): the walk's kinds (`base.layout`), and two more.
LAYOUT_SUBAGENTS = layout.AGENT  # current: <session-id>/subagents/agent-<id>.jsonl (+ .meta.json)
LAYOUT_LEGACY = layout.LEGACY_AGENT  # 2025: agent-<id>.jsonl beside the sessions
LAYOUT_WORKFLOW = layout.WORKFLOW_AGENT  # <session-id>/subagents/workflows/<run>/agent-<id>.jsonl (+ .meta.json)
LAYOUT_INLINE = "inline"  # 1.0.x: an isSidechain thread inside the session's own file
LAYOUT_MISSING = "missing"  # known from its spawning call only: no log was kept
WARMUP_BYTES = 16 * 1024  # a warmup log is a prompt and a greeting: larger logs are never one
MAX_META_BYTES = 1024 * 1024


class SessionRef(NamedTuple):
    """A main session's transcript file."""

    id: str
    path: Path
    project: Path  # the project directory under `projects/`
    mtime: float
    size: int
    has_folder: bool | None = None  # a `<id>/` folder beside it (subagents); None: not looked
    archived: bool = False  # the client's file is gone: this is the kit's copy from its archive
    # entries read from the archive's earlier generations: the client rewrote its file and
    # dropped them (the path is then the kit's copy: those entries, then the client's file)
    earlier_entries: int = 0


class AgentLogRef(NamedTuple):
    """A subagent's transcript, in either layout, with its `.meta.json` when there is one."""

    agent_id: str
    path: Path | None  # None: LAYOUT_MISSING
    layout: str  # LAYOUT_SUBAGENTS, LAYOUT_WORKFLOW, LAYOUT_LEGACY, LAYOUT_INLINE or LAYOUT_MISSING
    meta: Mapping[str, Any] | None = None
    warmup: bool = False  # a 2.0.x warmup log: not an agent of the conversation

    @property
    def compaction(self) -> bool:
        """The client's compaction summariser's log (2.1.x): not an agent of the conversation."""
        return is_compaction_agent(self.agent_id)

    @property
    def not_an_agent(self) -> bool:
        """A log of the session that no call of its conversation spawned: billed, never listed."""
        return self.warmup or self.compaction

    @property
    def agent_type(self) -> str | None:
        value = (self.meta or {}).get("agentType")
        return value if isinstance(value, str) else None

    @property
    def description(self) -> str | None:
        value = (self.meta or {}).get("description")
        return value if isinstance(value, str) else None

    @property
    def tool_use_id(self) -> str | None:
        value = (self.meta or {}).get("toolUseId")
        return value if isinstance(value, str) else None


def list_project_dirs(root: Path) -> list[Path]:
    return [Path(p) for p in layout.project_folders(str(root), note=True)]


def list_sessions(project: Path) -> list[SessionRef]:
    """Main sessions of a project, newest (last written) first."""
    folders: set[str] = set()
    files = list(session_files(project, folders))
    found = [
        SessionRef(sid, Path(path), project, timestamps.mtime(st), st.st_size, sid in folders)
        for sid, path, st in files
    ]
    found.sort(key=lambda s: (s.mtime, s.id), reverse=True)
    return found


def session_files(project: Path, folders: set[str]) -> Iterator[tuple[str, str, os.stat_result]]:
    """A project's main session files as (id, path, stat), as the folder lists them
    (`layout.session_entries`); the names of its folders are added to `folders` on the way.
    `list_sessions` without its values: a listing of thousands keeps only what it needs."""
    return layout.session_entries(str(project), folders)


def check_scope(project_path: str | os.PathLike[str] | None, all_projects: bool) -> None:
    """One project (`project_path`) or every one (`all_projects`), never both (a KitError)."""
    if all_projects and project_path:
        raise KitError("--project and --all exclude each other")


def projects_in_scope(
    root: Path, *, project_path: str | os.PathLike[str] | None = None, all_projects: bool = False
) -> list[Path]:
    """The project folders `sessions_in_scope` would list the sessions of."""
    check_scope(project_path, all_projects)
    if all_projects:
        return list_project_dirs(root)
    project = find_project(root, project_path or os.getcwd())
    return [project] if project is not None else []


def list_all_sessions(root: Path) -> list[SessionRef]:
    sessions = [s for p in list_project_dirs(root) for s in list_sessions(p)]
    sessions.sort(key=lambda s: (s.mtime, s.id), reverse=True)
    return sessions


def require_claude_root(root: Path) -> None:
    """NotAClaudeRoot when `root` holds no `projects/`: the one check of every reader of the
    root, so that a mistyped --claude-dir says so instead of reading as an empty or deleted
    history."""
    if not paths.projects_dir(root).is_dir():
        raise NotAClaudeRoot(str(root))


def sessions_in_scope(
    root: Path, *, project_path: str | os.PathLike[str] | None = None, all_projects: bool = False
) -> list[SessionRef]:
    """Every project's sessions (`all_projects`), else those of the project of `project_path`
    (default: the current directory); newest first. NotFound when there is nothing to list;
    a KitError for both a project and every one."""
    check_scope(project_path, all_projects)
    require_claude_root(root)
    if all_projects:
        return list_all_sessions(root)
    where = project_path or os.getcwd()
    project = find_project(root, where)
    if project is None:
        raise NoSessionsHere(str(where), str(root))
    return list_sessions(project)


def session_ref_from_path(path: Path) -> SessionRef:
    """The file a user named, when it is a transcript (NotFound when it is not one)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise NotFound(f"no such transcript file: {path}") from None
    except OSError as exc:
        raise KitError(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise KitError(f"not a transcript file: {path}")
    if st.st_size and not looks_like_transcript(path):
        raise NotFound(f"not a transcript (no JSON entries in its first lines): {path}")
    # a set-aside copy (`<id>.jsonl.superseded-<ms>`) is an earlier transcript of its session
    sid = layout.set_aside_of_name(path.name) or path.stem
    return SessionRef(sid, path, path.parent, timestamps.mtime(st), st.st_size)


def looks_like_transcript(path: Path) -> bool:
    """Whether the head of a non-empty file holds a transcript entry: a JSON object line with
    a `type` or a `sessionId` (a file still being written may end in a half line)."""
    try:
        head = read_head(path, HEAD_FIELD_BYTES)
    except OSError:
        return True  # the reader reports the error where it reads
    if any("type" in value or "sessionId" in value for value in head):
        return True
    try:
        with open_regular(path) as f:  # one long first line: too long to judge, so read it
            return f.read(1) == b"{" and f.seek(0, os.SEEK_END) > HEAD_FIELD_BYTES
    except OSError:
        return True


# --- agent logs ------------------------------------------------------------------------------


def _read_meta(path: Path) -> Mapping[str, Any] | None:
    try:
        value = fastjson.loads(skip_bom(read_small(path, MAX_META_BYTES)))
    except FileNotFoundError:  # an agent without a meta file
        return None
    except OSError as exc:  # unreadable, or a FIFO or device named like one: never block on it
        skipped(path, reason(exc))
        return None
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return None
    return value if isinstance(value, dict) else None


def current_layout_agents(session: SessionRef, *, with_meta: bool = True) -> list[AgentLogRef]:
    """The session's `subagents/` logs, then its workflow runs' (`subagents/workflows/<run>/`)."""
    if session.has_folder is False:
        return []
    project = str(session.project)
    found = []
    # an unreadable folder is named: the session is still read, without these agents
    for log in layout.agent_logs(layout.session_dir(project, session.id), session.id, project, note=True):
        if not log.regular():  # a folder, FIFO or loop named like a log
            skipped(log.path, "not a regular file")
            continue
        meta = _read_meta(Path(layout.meta_path(log.path))) if with_meta else None
        found.append(AgentLogRef(log.agent, Path(log.path), log.kind, meta))
    return found


def is_warmup_log(path: Path) -> bool:
    """A 2.0.x warmup agent log: a `Warmup` prompt, or a lone greeting with no prompt and no
    calls. Only small logs are read (a warmup is a few hundred bytes)."""
    try:
        if path.stat().st_size > WARMUP_BYTES:
            return False
        entries = [Entry.from_raw(0, value) for value in read_head(path, WARMUP_BYTES)]
    except OSError:
        return False
    return is_warmup_conversation(entries)


def legacy_agent_index(project: Path) -> dict[str, list[Path]]:
    """2025 layout: agent logs beside the sessions, grouped by the `sessionId` they record
    (warmup logs included: `find_agent_logs` tells them apart)."""
    index: dict[str, list[Path]] = {}
    for log in layout.legacy_agent_logs(str(project), note=True):
        if not log.regular():  # a folder, FIFO or loop named like a log
            skipped(log.path, "not a regular file")
            continue
        sid = head_field(log.path, b"sessionId")
        if sid:
            index.setdefault(sid, []).append(Path(log.path))
    return index


def find_agent_logs(
    session: SessionRef, *, legacy_index: dict[str, list[Path]] | None = None, with_meta: bool = True
) -> list[AgentLogRef]:
    """This session's agent logs, in both layouts; never another session's.

    `legacy_index` is the session's project's `legacy_agent_index`, when the caller has it
    (an `AgentLogs` keeps one per project for callers that look at many sessions).
    """
    found = current_layout_agents(session, with_meta=with_meta)
    index = legacy_index if legacy_index is not None else legacy_agent_index(session.project)
    paths = index.get(session.id, [])
    if index and not paths and not session.path.name.startswith(AGENT_PREFIX) and session.path.is_file():
        # A file's name need not be its session's id (copied, renamed): the id it records. An
        # agent log read as a session records its parent's id: it is no parent of their logs.
        recorded = head_field(session.path, b"sessionId")
        paths = index.get(recorded, []) if recorded and recorded != session.id else []
    for path in paths:
        agent_id = path.name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)]
        found.append(AgentLogRef(agent_id, path, LAYOUT_LEGACY, None, warmup=is_warmup_log(path)))
    return found


def orphan_agent_logs(
    project: Path,
    *,
    known_sessions: Collection[str] | None = None,
    legacy_index: dict[str, list[Path]] | None = None,
) -> list[tuple[str, AgentLogRef]]:
    """Agent logs of the project whose session file is gone, with the session id they name:
    2025-layout logs naming no session here, and `<sid>/subagents/` folders without `<sid>.jsonl`.

    `known_sessions`: ids of sessions of the project the caller has listed already; only the
    other ids are looked up (one `stat` each), instead of listing the project again (for a
    search of every project: 0.16 s of 10,000 sessions' listing, done twice). `legacy_index`:
    the project's `legacy_agent_index`, when the caller has it (as for `find_agent_logs`).
    """
    if known_sessions is None:
        listed = {s.id for s in list_sessions(project)}

        def is_session(sid: str) -> bool:
            return sid in listed

    else:
        known = known_sessions

        def is_session(sid: str) -> bool:
            return sid in known or _is_session_file(project, sid)

    found = [
        (sid, AgentLogRef(path.name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)], path, LAYOUT_LEGACY))
        for sid, logs in (legacy_index if legacy_index is not None else legacy_agent_index(project)).items()
        if not is_session(sid)
        for path in logs
    ]
    # gone, or cannot be listed: named once, the others go on
    entries = layout.listing(str(project), note=True)
    folders = [e.name for e in entries if _is_folder(e) and not is_session(e.name)]
    for name in folders:
        if is_plain_id(name):
            gone = SessionRef(name, project / f"{name}{SESSION_SUFFIX}", project, 0.0, 0, True)
            found.extend((name, log) for log in current_layout_agents(gone, with_meta=False))
    return found


def _is_session_file(project: Path, sid: str) -> bool:
    """Whether `list_sessions(project)` would list a session `sid`: a regular file
    `<sid>.jsonl` there, not named like an agent log."""
    if not sid or "/" in sid or os.sep in sid or sid.startswith(AGENT_PREFIX):
        return False
    return fileio.is_regular(project / f"{sid}{SESSION_SUFFIX}")


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """A real folder (not a symlink loop or a link that cannot be followed)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


class AgentLogs:
    """The agent logs of many sessions, reading each project's 2025-layout index once."""

    def __init__(self, *, with_meta: bool = True) -> None:
        self.with_meta = with_meta
        self._indexes: dict[Path, dict[str, list[Path]]] = {}

    def legacy_index(self, project: Path) -> dict[str, list[Path]]:
        index = self._indexes.get(project)
        if index is None:
            index = self._indexes[project] = legacy_agent_index(project)
        return index

    def of(self, session: SessionRef) -> list[AgentLogRef]:
        return find_agent_logs(session, legacy_index=self.legacy_index(session.project), with_meta=self.with_meta)

    def orphans(self, project: Path, *, known_sessions: Collection[str]) -> list[tuple[str, AgentLogRef]]:
        """`orphan_agent_logs` of the project, from the index read for its sessions' logs."""
        return orphan_agent_logs(project, known_sessions=known_sessions, legacy_index=self.legacy_index(project))

    def count(self, session: SessionRef) -> int:
        """How many agent logs the session has (warmups and the compaction summariser's left
        out), without reading meta files."""
        legacy = self.legacy_index(session.project).get(session.id, ())
        current = sum(not log.compaction for log in current_layout_agents(session, with_meta=False))
        return current + sum(not is_warmup_log(p) for p in legacy)


# --- finding a project and a session ---------------------------------------------------------


def find_project(root: Path, path: str | os.PathLike[str]) -> Path | None:
    """The project directory for `path`: by name, walking up its parents; else by recorded cwd."""
    start = Path(os.path.abspath(path))
    candidates = [start, *start.parents]
    try:
        real = Path(os.path.realpath(start))
        if real != start:
            candidates += [real, *real.parents]
    except OSError:
        pass
    for candidate in candidates:
        folder = paths.project_dir(root, candidate)
        if folder.is_dir():
            return folder
    # Names the client computed differently (other encodings, renamed roots): match the cwd
    # recorded inside the sessions instead.
    wanted = {str(c) for c in candidates}
    best: tuple[int, Path] | None = None
    for project in list_project_dirs(root):
        sessions = list_sessions(project)
        if not sessions:
            continue
        cwd = head_field(str(sessions[0].path), b"cwd")
        if cwd in wanted:
            depth = len(Path(cwd).parts)
            if best is None or depth > best[0]:
                best = (depth, project)
    return best[1] if best else None


def find_session_by_id(root: Path, session_id: str) -> SessionRef | None:
    if not is_plain_id(session_id):
        return None
    best = None
    for project in list_project_dirs(root):
        candidate = paths.session_file(project, session_id)
        try:
            st = candidate.stat()
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        ref = SessionRef(session_id, candidate, project, timestamps.mtime(st), st.st_size)
        if best is None or ref.mtime > best.mtime:
            best = ref
    return best
