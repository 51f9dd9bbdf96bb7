"""The tool-call timeline of a session: what `events` prints.

Owns: the session's calls in order of time (the main conversation's and, unless asked not
to, its agents'), picked by failure and tool, with their whole inputs and outputs. Does not
print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from session_kit.sessions.session import Session
from session_kit.sessions.store import SessionRef
from session_kit.transcript.calls import ToolCall, calls_of_tool
from session_kit.transcript.reader import ReadStats


@dataclass(frozen=True, slots=True)
class Timeline:
    ref: SessionRef
    calls: tuple[ToolCall, ...]
    read: ReadStats

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.ref.id,
            "path": str(self.ref.path),
            "events": [c.as_dict() for c in self.calls],
            "read": self.read.as_dict(),
        }


def session_timeline(
    ref: SessionRef, *, with_agents: bool = True, errors_only: bool = False, tool: str | None = None
) -> Timeline:
    session = Session(ref, keep_payload=True)
    calls = session.all_calls() if with_agents else session.linked_calls()
    if errors_only:
        calls = [c for c in calls if c.failed]
    return Timeline(ref, tuple(calls_of_tool(calls, tool)), session.read)
