"""A session's overview from the head and tail of its transcript: what `sessions` lists.

Owns: `SessionOverview` (start, end, cwd, branch, title, first request, agent count, size) and
`overviews`, which makes one for each of many sessions without reading any file whole (the
bytes are `transcript.glance`'s; the agent count is `store.AgentLogs`'s); `raw_overview` and
`shown_overviews`, its two steps, for a caller that batches them itself (`listing`). Does not
order sessions (`listing` does).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from session_kit.redact import shown_many
from session_kit.sessions.store import AgentLogs, SessionRef
from session_kit.transcript.entries import format_timestamp, seconds_between
from session_kit.transcript.glance import Tail, glance

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
    file. Start and end are the earliest and latest conversation times read there
    (`transcript.span`): never the file's mtime (a copy, a touch or a backup sets that), so
    None when no line read has one."""
    return shown_overviews([raw_overview(session, agents or AgentLogs(with_meta=False))])[0]


def overviews(sessions: Iterable[SessionRef]) -> Iterator[SessionOverview]:
    """An overview of each session, in the order given (their prompts redacted a batch at a
    time: one pass of the redactor costs about the same for one prompt as for a hundred)."""
    agents = AgentLogs(with_meta=False)
    batch: list[SessionOverview] = []
    for session in sessions:
        batch.append(raw_overview(session, agents))
        if len(batch) == BATCH:
            yield from shown_overviews(batch)
            batch = []
    yield from shown_overviews(batch)


BATCH = 128
# The prompt is redacted before its cut to PROMPT_CHARS (a cut can leave a secret's head); what
# lies past this bound cannot reach the cut, and a secret cut here still matches its rule.
PROMPT_BOUND = 20 * PROMPT_CHARS


def raw_overview(session: SessionRef, agents: AgentLogs, tail: Tail | None = None) -> SessionOverview:
    """The overview before its prompt is shown; `tail`: what `glance.tail_facts` said of the
    file already."""
    seen = glance(session.path, session.size, tail=tail)
    first_prompt = None
    if seen.first_prompt is not None:
        first_prompt = (seen.prompt_text or "")[:PROMPT_BOUND]
    return SessionOverview(
        ref=session,
        start=seen.start,
        end=seen.end,
        cwd=seen.cwd,
        branch=seen.branch,
        first_prompt=first_prompt,
        agents=agents.count(session),
        title=seen.title,
    )


def shown_overviews(batch: list[SessionOverview]) -> list[SessionOverview]:
    """The overviews with their prompts as shown (redacted), on one line, cut to PROMPT_CHARS."""
    prompts = shown_many([o.first_prompt or "" for o in batch])
    return [
        replace(o, first_prompt=" ".join(p.split())[:PROMPT_CHARS] if o.first_prompt is not None else None)
        for o, p in zip(batch, prompts)
    ]
