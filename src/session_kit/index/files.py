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
