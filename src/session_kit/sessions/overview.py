"""A session's overview from the head and tail of its transcript: what `sessions` lists.

Owns: `SessionOverview` (start, end, cwd, branch, title, first request, agent count, size) and
`overviews`, which makes one for each of many sessions without reading any file whole (the
bytes are `transcript.glance`'s; the agent count is `store.AgentLogs`'s); `raw_overview` and
`shown_overviews`, its two steps, for a caller that batches them itself (`listing`); a row as
a listing's memory keeps it (`Remembered`: the facts the file gave, its prompt as shown) and
back (`remembered_overview`). Does not order sessions (`listing` does) or keep anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from session_kit.sessions.store import AgentLogs, SessionRef
from session_kit.transcript.entries import format_timestamp, seconds_between
from session_kit.transcript.glance import Tail, glance

PROMPT_CHARS = 200

# A row as a listing's memory keeps it: start and end (ISO-8601 as `datetime.isoformat` writes
# them: exact, offset kept), cwd, branch, title and first prompt as shown (None: none), and
# `SessionOverview.shown` (1 or 0).
Remembered = tuple[str | None, str | None, str | None, str | None, str | None, str | None, int]


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
    # Every string of `as_dict` is as the kit shows it (the texts redacted, and the redactor
    # leaves the id, path, project and times as they are): a writer need not redact it again.
    shown: bool = False

    def remembered(self) -> Remembered:
        """What a listing's memory keeps of this row (its prompt as shown: call on a shown row)."""
        start = self.start.isoformat() if self.start is not None else None
        end = self.end.isoformat() if self.end is not None else None
        return (start, end, self.cwd, self.branch, self.title, self.first_prompt, int(self.shown))

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


# Rows redacted in one pass: the redactor's cost per pass grows with the distinct words of its
# texts, and a listing's rows share most of theirs (paths, projects, cwds). 256 rows a pass cost
# a first listing of 10,000 sessions less than 128 did at the same peak memory; 512 cost less
# again, but 3 MB more at 30,000 sessions.
BATCH = 256
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


def remembered_overview(session: SessionRef, agents: AgentLogs, facts: Remembered) -> SessionOverview:
    """The shown overview of a file a listing's memory knows unchanged (the agents counted now)."""
    start, end, cwd, branch, title, prompt, shown = facts
    return SessionOverview(
        ref=session,
        start=datetime.fromisoformat(start) if start is not None else None,
        end=datetime.fromisoformat(end) if end is not None else None,
        cwd=cwd,
        branch=branch,
        first_prompt=prompt,
        agents=agents.count(session),
        title=title,
        shown=bool(shown),
    )


def shown_overviews(batch: list[SessionOverview]) -> list[SessionOverview]:
    """The overviews with their texts as shown (redacted: the prompt, then put on one line and
    cut to PROMPT_CHARS; cwd, branch, title), each distinct string redacted once, in one pass;
    `shown` where the redactor leaves the rest of the row's strings as they are."""
    from session_kit.redaction.engine import shown_many  # here: a listing its memory answers needs no redactor

    texts: dict[str, str] = {}
    strings = [_strings(o) for o in batch]
    for o, row in zip(batch, strings):
        texts.update(dict.fromkeys(row))
        if o.first_prompt is not None:
            texts[o.first_prompt] = ""
    texts = dict(zip(texts, shown_many(list(texts))))
    return [
        replace(
            o,
            first_prompt=" ".join(texts[o.first_prompt].split())[:PROMPT_CHARS] if o.first_prompt is not None else None,
            cwd=texts[o.cwd] if o.cwd is not None else None,
            branch=texts[o.branch] if o.branch is not None else None,
            title=texts[o.title] if o.title is not None else None,
            shown=all(texts[text] == text for text in row[3:]),
        )
        for o, row in zip(batch, strings)
    ]


def _strings(o: SessionOverview) -> list[str]:
    """The row's strings but its prompt: its texts (cwd, branch, title), then the rest of `as_dict`'s."""
    texts = [o.cwd or "", o.branch or "", o.title or "", o.ref.id, str(o.ref.path), o.ref.project.name]
    return texts + [format_timestamp(o.start) or "", format_timestamp(o.end) or ""]
