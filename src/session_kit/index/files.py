"""Which files the index reads: every session's transcript and agent logs under a Claude root.

Owns: `IndexFile` (a file, whose session and agent it is, and the listing's stat where it made
one) and listing them through `sessions.store` (meta files are read only for what is
indexed). Does not: read transcripts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from session_kit.sessions.store import AgentLogs, list_project_dirs, list_sessions, orphan_agent_logs


@dataclass(frozen=True, slots=True)
class IndexFile:
    path: Path
    session: str
    agent: str | None = None
    project: str | None = None
    size: int | None = None  # from the listing's stat, when it made one
    mtime: float | None = None
    original: Path | None = None  # a file of the archive's view: where the client had it


def archived_only(claude_root: Path, state_root: str, indexed: set[str]) -> Iterable[IndexFile]:
    """The files of archived sessions the index has never seen (the client deleted them
    before any update), through the archive's view (`archive.view`)."""
    from session_kit.archive import store, view

    for session in view.archived_ids(state_root, ""):
        if session in indexed:
            continue
        transcript = view.materialize(state_root, session)
        if transcript is None:
            continue
        base = Path(view.view_root(state_root))
        for entry in store.archived_session_files(state_root, session):
            if not entry.rel.endswith(".jsonl"):
                continue
            path = base / entry.rel
            name = path.name[: -len(".jsonl")]
            agent = name[len("agent-") :] if name.startswith("agent-") else None
            yield IndexFile(path, session, agent, entry.project, original=claude_root / entry.rel)


def files_to_index(claude_root: Path) -> Iterable[IndexFile]:
    """Every session's transcript and agent logs (warmup logs left out), then the agent logs
    whose session file is gone, project by project."""
    agents = AgentLogs(with_meta=False)
    for project in list_project_dirs(claude_root):
        for ref in list_sessions(project):
            yield IndexFile(ref.path, ref.id, None, project.name, ref.size, ref.mtime)
            for log in agents.of(ref):
                if log.path is not None and not log.warmup:
                    yield IndexFile(log.path, ref.id, log.agent_id, project.name)
        for session, log in orphan_agent_logs(project):
            if log.path is not None:
                yield IndexFile(log.path, session, log.agent_id, project.name)
