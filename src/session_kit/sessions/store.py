"""Finding projects, sessions and agent logs on disk, and cheap facts about them.

Owns: listing the project directories under the Claude root, the sessions of a project
(newest first) apart from agent logs, the agent logs of a session in both layouts
(`<sid>/subagents/agent-*.jsonl` with `.meta.json`, and the 2025 `agent-*.jsonl` beside the
sessions, linked by `sessionId`), resolving what a user typed to one session, and a session's
overview read from the head and tail of its file only. Returns frozen values; never parses a
whole transcript (that is `report`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from session_kit.claude import paths
from session_kit.transcript.entries import Entry, format_timestamp, prompt_display, seconds_between
from session_kit.errors import Ambiguous, KitError, NotFound
from session_kit.transcript.reader import BOM, loads_line
from session_kit.state.scratch import session_id_from_env

SESSION_SUFFIX = ".jsonl"
AGENT_PREFIX = "agent-"
HEAD_STEP = 8 * 1024
HEAD_LIMIT = 1024 * 1024  # how far into a file the first prompt is looked for
TAIL_STEPS = (8 * 1024, 128 * 1024, 2 * 1024 * 1024)  # tail reads, until a timestamp shows
# Session ids are uuids in practice; anything with a path separator or `..` is refused.
_PLAIN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


@dataclass(frozen=True, slots=True)
class SessionRef:
    """A main session's transcript file."""

    id: str
    path: Path
    project: Path  # the project directory under `projects/`
    mtime: float
    size: int
    has_folder: bool | None = None  # a `<id>/` folder beside it (subagents); None: not looked


@dataclass(frozen=True, slots=True)
class AgentLogRef:
    """A subagent's transcript, in either layout, with its `.meta.json` when there is one."""

    agent_id: str
    path: Path
    layout: str  # "subagents" (current) or "legacy" (2025: beside the sessions)
    meta: Mapping[str, Any] | None = None

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


def is_plain_id(value: str) -> bool:
    return bool(_PLAIN_ID.match(value)) and ".." not in value


def list_project_dirs(root: Path) -> list[Path]:
    base = paths.projects_dir(root)
    try:
        with os.scandir(base) as it:
            return sorted(Path(e.path) for e in it if e.is_dir())
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        return []


def list_sessions(project: Path) -> list[SessionRef]:
    """Main sessions of a project, newest (last written) first."""
    files = []
    folders = set()
    try:
        with os.scandir(project) as it:
            for e in it:
                name = e.name
                if e.is_dir():
                    folders.add(name)
                elif name.endswith(SESSION_SUFFIX) and not name.startswith(AGENT_PREFIX):
                    try:
                        st = e.stat()
                    except OSError:
                        continue  # removed while we looked
                    files.append((name[: -len(SESSION_SUFFIX)], e.path, st))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = [
        SessionRef(sid, Path(path), project, st.st_mtime, st.st_size, sid in folders)
        for sid, path, st in files
    ]
    found.sort(key=lambda s: (s.mtime, s.id), reverse=True)
    return found


def list_all_sessions(root: Path) -> list[SessionRef]:
    sessions = [s for p in list_project_dirs(root) for s in list_sessions(p)]
    sessions.sort(key=lambda s: (s.mtime, s.id), reverse=True)
    return sessions


def sessions_in_scope(root: Path, *, project_path: str | os.PathLike[str] | None = None, all_projects: bool = False) -> list[SessionRef]:
    """Every project's sessions (`all_projects`), else those of the project of `project_path`
    (default: the current directory); newest first. NotFound when there is nothing to list."""
    if all_projects:
        if not paths.projects_dir(root).is_dir():
            raise NotFound(f"no Claude projects folder at {paths.projects_dir(root)}")
        return list_all_sessions(root)
    where = project_path or os.getcwd()
    project = find_project(root, where)
    if project is None:
        raise NotFound(f"no Claude Code sessions for {where} under {root} (try --all)")
    return list_sessions(project)


def session_ref_from_path(path: Path) -> SessionRef:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise NotFound(f"no such transcript file: {path}") from None
    except OSError as exc:
        raise KitError(f"cannot read {path}: {exc.strerror}") from None
    if not path.is_file():
        raise KitError(f"not a transcript file: {path}")
    return SessionRef(path.stem, path, path.parent, st.st_mtime, st.st_size)


# --- agent logs ------------------------------------------------------------------------------


def _read_meta(path: Path) -> Mapping[str, Any] | None:
    try:
        with open(path, "rb") as f:
            value = json.loads(f.read(1024 * 1024))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def current_layout_agents(session: SessionRef, *, with_meta: bool = True) -> list[AgentLogRef]:
    if session.has_folder is False:
        return []
    folder = paths.subagents_dir(session.project, session.id)
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for name in sorted(names):
        if name.startswith(AGENT_PREFIX) and name.endswith(SESSION_SUFFIX):
            agent_id = name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)]
            meta = _read_meta(folder / f"{AGENT_PREFIX}{agent_id}.meta.json") if with_meta else None
            found.append(AgentLogRef(agent_id, folder / name, "subagents", meta))
    return found


def legacy_agent_index(project: Path) -> dict[str, list[Path]]:
    """2025 layout: agent logs beside the sessions, grouped by the `sessionId` they record."""
    index: dict[str, list[Path]] = {}
    try:
        names = sorted(n for n in os.listdir(project) if n.startswith(AGENT_PREFIX) and n.endswith(SESSION_SUFFIX))
    except (FileNotFoundError, NotADirectoryError):
        return index
    for name in names:
        path = project / name
        sid = _first_session_id(path)
        if sid:
            index.setdefault(sid, []).append(path)
    return index


def _first_session_id(path: Path) -> str | None:
    for raw in _head_lines(path, limit=256 * 1024):
        sid = _quick_field(raw, b"sessionId")
        if sid:
            return sid
    return None


def find_agent_logs(
    session: SessionRef, *, legacy_index: dict[str, list[Path]] | None = None, with_meta: bool = True
) -> list[AgentLogRef]:
    """This session's agent logs, in both layouts; never another session's."""
    found = current_layout_agents(session, with_meta=with_meta)
    index = legacy_index if legacy_index is not None else legacy_agent_index(session.project)
    for path in index.get(session.id, []):
        agent_id = path.name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)]
        found.append(AgentLogRef(agent_id, path, "legacy", None))
    return found


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
        cwd = recorded_cwd(sessions[0].path)
        if cwd in wanted:
            depth = len(Path(cwd).parts)
            if best is None or depth > best[0]:
                best = (depth, project)
    return best[1] if best else None


def recorded_cwd(path: Path) -> str | None:
    for raw in _head_lines(path, limit=256 * 1024):
        cwd = _quick_field(raw, b"cwd")
        if cwd:
            return cwd
    return None


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
        ref = SessionRef(session_id, candidate, project, st.st_mtime, st.st_size)
        if best is None or ref.mtime > best.mtime:
            best = ref
    return best


def resolve_session(
    arg: str,
    root: Path,
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> SessionRef:
    """What a user typed — full id, unique prefix, path to a `.jsonl`, or `current` — to a session."""
    arg = arg.strip()
    if not arg:
        raise KitError("empty session argument")
    if arg == "current":
        return _current_session(root, cwd=cwd, env=env)
    if arg.endswith(SESSION_SUFFIX) or os.sep in arg or "/" in arg:
        return session_ref_from_path(Path(arg).expanduser())
    if not is_plain_id(arg):
        raise KitError(f"not a session id, prefix or path: {arg!r}")
    exact = find_session_by_id(root, arg)
    if exact:
        return exact
    matches: dict[str, SessionRef] = {}
    for project in list_project_dirs(root):
        for ref in list_sessions(project):
            if ref.id.startswith(arg) and (ref.id not in matches or ref.mtime > matches[ref.id].mtime):
                matches[ref.id] = ref
    if len(matches) == 1:
        return next(iter(matches.values()))
    if not matches:
        if not paths.projects_dir(root).is_dir():
            raise NotFound(f"no Claude projects folder at {paths.projects_dir(root)}")
        raise NotFound(f"no session matches {arg!r} under {root}")
    ids = sorted(matches)
    shown = ", ".join(ids[:10]) + (f" (+{len(ids) - 10} more)" if len(ids) > 10 else "")
    raise Ambiguous(f"{arg!r} matches {len(ids)} sessions: {shown}", ids)


def _current_session(root: Path, *, cwd: str | os.PathLike[str] | None, env: Mapping[str, str] | None) -> SessionRef:
    session_id = session_id_from_env(env)
    if session_id:
        ref = find_session_by_id(root, session_id)
        if ref:
            return ref
        raise NotFound(f"the current session {session_id} has no transcript under {root} yet")
    here = cwd if cwd is not None else os.getcwd()
    project = find_project(root, here)
    if project is None:
        raise NotFound(f"no Claude Code project for {here} under {root} (and no session id in the environment)")
    sessions = list_sessions(project)
    if not sessions:
        raise NotFound(f"no sessions in {project}")
    return sessions[0]


# --- a session's overview, from the head and tail of its file --------------------------------


@dataclass(frozen=True, slots=True)
class SessionOverview:
    ref: SessionRef
    start: datetime | None
    end: datetime | None
    cwd: str | None
    branch: str | None
    first_prompt: str | None
    agents: int

    @property
    def duration_s(self) -> float | None:
        return seconds_between(self.start, self.end)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.ref.id,
            "path": str(self.ref.path),
            "project": self.ref.project.name,
            "cwd": self.cwd,
            "start": format_timestamp(self.start),
            "end": format_timestamp(self.end),
            "duration_s": self.duration_s,
            "branch": self.branch,
            "first_prompt": self.first_prompt,
            "size": self.ref.size,
            "agents": self.agents,
        }



def _head_lines(path: Path, *, limit: int = HEAD_LIMIT) -> Iterable[bytes]:
    """Complete lines from the start of a file, read in growing steps up to `limit` bytes."""
    try:
        f = open(path, "rb")
    except OSError:
        return
    with f:
        yield from _lines_from(f, limit)


def _lines_from(f: Any, limit: int) -> Iterable[bytes]:
    buffer = b""
    read = 0
    step = HEAD_STEP
    while read < limit:
        chunk = f.read(step)
        if not chunk:
            if buffer.strip():
                yield buffer  # last line without newline
            return
        if read == 0 and chunk.startswith(b"\xef\xbb\xbf"):
            chunk = chunk[3:]
        read += len(chunk)
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        yield from lines
        step = min(step * 2, 256 * 1024)


_FIELD_CACHE: dict[bytes, re.Pattern[bytes]] = {}


def _quick_field(raw: bytes, key: bytes) -> str | None:
    """A top-level-looking string field of a line, without parsing the line (first match)."""
    pattern = _FIELD_CACHE.get(key)
    if pattern is None:
        pattern = _FIELD_CACHE[key] = re.compile(rb'"' + re.escape(key) + rb'"\s*:\s*"((?:[^"\\]|\\.)*)"')
    match = pattern.search(raw)
    if not match:
        return None
    try:
        return json.loads(b'"' + match.group(1) + b'"')
    except ValueError:
        return None


_USER_TYPE = re.compile(rb'"type"\s*:\s*"user"')


class _FdReader:
    """`read(n)` over a raw file descriptor, from its start."""

    __slots__ = ("fd", "offset")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.offset = 0

    def read(self, n: int) -> bytes:
        data = os.pread(self.fd, n, self.offset)
        self.offset += len(data)
        return data


def _line_at(data: bytes, pos: int, lo: int, hi: int) -> tuple[int, int]:
    """Start and end of the line of `data[lo:hi]` that holds `pos`."""
    start = max(data.rfind(b"\n", lo, pos) + 1, lo)
    end = data.find(b"\n", pos, hi)
    return start, hi if end < 0 else end


def _head_facts(f: Any) -> tuple[datetime | None, Entry | None, str | None, str | None]:
    """(start time, first user prompt, cwd, branch) from the head of an open file.

    Lines are located with byte searches, not split apart, and only those that can matter
    are parsed: the first with a timestamp, then those that look like user entries. The
    client's noise entries, most of a file's bytes, are passed over unparsed.
    """
    start: datetime | None = None
    cwd = branch = None
    data = b""
    scanned = 0  # complete lines before this offset have been looked at
    step = HEAD_STEP
    while True:
        chunk = f.read(step)
        if not data and chunk.startswith(BOM):
            chunk = chunk[len(BOM):]
        data += chunk
        at_eof = len(chunk) < step
        complete = len(data) if at_eof else data.rfind(b"\n") + 1
        pos = data.find(b'"timestamp"', scanned, complete) if start is None else -1
        while pos >= 0:
            line_start, line_end = _line_at(data, pos, scanned, complete)
            start = _line_timestamp(data[line_start:line_end])
            if start is not None:
                break
            pos = data.find(b'"timestamp"', line_end, complete)
        pos = scanned
        while True:
            match = _USER_TYPE.search(data, pos, complete)
            if match is None:
                break
            line_start, line_end = _line_at(data, match.start(), scanned, complete)
            pos = line_end
            try:
                value = loads_line(data[line_start:line_end].strip())
            except (ValueError, RecursionError):
                continue
            if not isinstance(value, dict):
                continue
            entry = Entry.from_raw(0, value)
            start = start or entry.timestamp
            cwd = cwd or entry.cwd
            branch = branch or entry.git_branch
            if entry.is_user_prompt:
                return start, entry, entry.cwd or cwd, entry.git_branch or branch
        scanned = complete
        if at_eof or len(data) >= HEAD_LIMIT:
            return start, None, cwd, branch
        step = min(step * 2, 256 * 1024)


def _last_timestamp(tail: bytes, *, cut: bool) -> datetime | None:
    """The time of the last timestamped line of a file's tail."""
    lo = tail.find(b"\n") + 1 if cut else 0  # a cut tail starts inside a line: skip it
    if cut and lo == 0:
        return None
    hi = len(tail)
    pos = tail.rfind(b'"timestamp"', lo, hi)
    while pos >= 0:
        line_start, line_end = _line_at(tail, pos, lo, hi)
        stamp = _line_timestamp(tail[line_start:line_end])
        if stamp is not None:
            return stamp
        pos = tail.rfind(b'"timestamp"', lo, line_start)
    return None


def _line_timestamp(raw: bytes) -> datetime | None:
    """The entry's own time (top-level, or the seed dialect's `message.timestamp`), if any.

    The line is parsed: a regex cannot tell the entry's timestamp from one nested inside it
    (file-history snapshots and attachments carry their own).
    """
    if b'"timestamp"' not in raw:
        return None
    try:
        value = loads_line(raw.strip())
    except (ValueError, RecursionError):
        return None
    return Entry.from_raw(0, value).timestamp if isinstance(value, dict) else None


def count_current_layout_agents(session: SessionRef) -> int:
    if session.has_folder is False:
        return 0
    try:
        names = os.listdir(paths.subagents_dir(session.project, session.id))
    except (FileNotFoundError, NotADirectoryError):
        return 0
    return sum(1 for n in names if n.startswith(AGENT_PREFIX) and n.endswith(SESSION_SUFFIX))


def overview(session: SessionRef, *, legacy_index: dict[str, list[Path]] | None = None) -> SessionOverview:
    """Start, end, branch, first prompt and agent count, from the head and tail of the file."""
    start = end = prompt = cwd = branch = None
    try:
        # Raw descriptor reads: for thousands of files, a buffered file object per file costs
        # more than the few kilobytes read from each.
        fd = os.open(session.path, os.O_RDONLY)
    except OSError:  # removed or unreadable since it was listed
        fd = -1
    if fd >= 0:
        try:
            start, prompt, cwd, branch = _head_facts(_FdReader(fd))
            for step in TAIL_STEPS:
                end = _last_timestamp(os.pread(fd, step, max(0, session.size - step)), cut=session.size > step)
                if end is not None or session.size <= step:
                    break
        except OSError:
            pass
        finally:
            os.close(fd)
    if end is None:
        end = datetime.fromtimestamp(session.mtime, tz=timezone.utc)
    first_prompt = None
    if prompt is not None:
        first_prompt = " ".join(prompt_display(prompt.text).split())[:200]
    agents = count_current_layout_agents(session)
    if legacy_index:
        agents += len(legacy_index.get(session.id, ()))
    return SessionOverview(
        ref=session,
        start=start,
        end=end,
        cwd=cwd,
        branch=branch,
        first_prompt=first_prompt,
        agents=agents,
    )
