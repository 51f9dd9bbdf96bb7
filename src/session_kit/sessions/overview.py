"""A session's overview from the head and tail of its transcript: what `sessions` lists.

Owns: `SessionOverview` (start, end, cwd, branch, title, first request, agent count, size) and
`overviews`, which makes one for each of many sessions without reading any file whole (the
bytes are `transcript.glance`'s; the agent count is `store.AgentLogs`'s).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from session_kit.sessions.store import AgentLogs, SessionRef
from session_kit.transcript.entries import format_timestamp, request_text, seconds_between
from session_kit.transcript.glance import glance

PROMPT_CHARS = 200


@dataclass(frozen=True, slots=True)
class SessionOverview:
    ref: SessionRef
    start: datetime | None
    end: datetime | None
    cwd: str | None
    branch: str | None
    first_prompt: str | None
    agents: int
    title: str | None = None

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
            "title": self.title,
            "first_prompt": self.first_prompt,
            "size": self.ref.size,
            "agents": self.agents,
        }


def overview(session: SessionRef, agents: AgentLogs | None = None) -> SessionOverview:
    """Start, end, branch, title, first prompt and agent count, from the head and tail of the
    file. The end is the last time written in the file: never its mtime (a copy, a touch or a
    backup sets that), so None when no line of the tail has a time."""
    seen = glance(session.path, session.size)
    first_prompt = None
    if seen.first_prompt is not None:
        first_prompt = " ".join((request_text(seen.first_prompt) or "").split())[:PROMPT_CHARS]
    return SessionOverview(
        ref=session,
        start=seen.start,
        end=seen.end,
        cwd=seen.cwd,
        branch=seen.branch,
        first_prompt=first_prompt,
        agents=(agents or AgentLogs(with_meta=False)).count(session),
        title=seen.title,
    )


def overviews(sessions: Iterable[SessionRef]) -> Iterator[SessionOverview]:
    """An overview of each session, in the order given."""
    agents = AgentLogs(with_meta=False)
    for session in sessions:
        yield overview(session, agents)
