"""A whole session read once into a summary: what `show` prints.

Owns: one streaming pass over a transcript that counts entry types, collects the person's
requests, tool use counts and failures, compactions, and tokens (once per API message id),
plus the session's agents. Holds only the tool calls and small facts, never the entries; a
caller that needs more from the same pass passes an observer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from session_kit.sessions.agents import AgentRun, session_agents
from session_kit.sessions.store import SessionRef
from session_kit.transcript.entries import Entry, format_timestamp, prompt_display, read_entries, seconds_between
from session_kit.transcript.calls import (
    Compaction,
    TokenTally,
    ToolCall,
    ToolCallPairer,
    find_compactions,
    pair_tool_calls,
)
from session_kit.transcript.reader import ReadStats

REQUEST_PREVIEW = 300


@dataclass(frozen=True, slots=True)
class UserRequest:
    line: int
    timestamp: datetime | None
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "timestamp": format_timestamp(self.timestamp), "text": self.text}


@dataclass(frozen=True, slots=True)
class SessionReport:
    ref: SessionRef
    start: datetime | None
    end: datetime | None
    cwd: str | None
    branch: str | None
    version: str | None
    entry_types: dict[str, int]
    requests: tuple[UserRequest, ...]
    calls: tuple[ToolCall, ...]
    compactions: tuple[Compaction, ...]
    agents: tuple[AgentRun, ...]
    tokens: dict[str, int]
    read: ReadStats

    @property
    def failures(self) -> tuple[ToolCall, ...]:
        return tuple(c for c in self.calls if c.failed)

    @property
    def tools(self) -> dict[str, int]:
        return dict(Counter(c.name for c in self.calls).most_common())

    @property
    def duration_s(self) -> float | None:
        return seconds_between(self.start, self.end)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.ref.id,
            "path": str(self.ref.path),
            "project": self.ref.project.name,
            "cwd": self.cwd,
            "branch": self.branch,
            "client_version": self.version,
            "start": format_timestamp(self.start),
            "end": format_timestamp(self.end),
            "duration_s": self.duration_s,
            "size": self.ref.size,
            "entry_types": self.entry_types,
            "requests": [r.as_dict() for r in self.requests],
            "tools": self.tools,
            "tool_calls": len(self.calls),
            "failures": [c.as_dict() for c in self.failures],
            "compactions": [c.as_dict() for c in self.compactions],
            "agents": [a.as_dict(calls=False) for a in self.agents],
            "tokens": self.tokens,
            "read": self.read.as_dict(),
        }



class _Collector:
    """Consumes entries one by one, keeping only what the report needs."""

    def __init__(self) -> None:
        self.types: Counter[str] = Counter()
        self.requests: list[UserRequest] = []
        self.tokens = TokenTally()
        self.start: datetime | None = None
        self.end: datetime | None = None
        self.cwd = self.branch = self.version = None
        self.compaction_entries: list[Entry] = []
        self.pairer = ToolCallPairer(keep_payload=False)

    def add(self, entry: Entry) -> None:
        self.types[entry.type or "(none)"] += 1
        if entry.timestamp is not None:
            if self.start is None or entry.timestamp < self.start:
                self.start = entry.timestamp
            if self.end is None or entry.timestamp > self.end:
                self.end = entry.timestamp
        if entry.kind == "noise":
            return
        self.cwd = entry.cwd or self.cwd
        self.branch = entry.git_branch or self.branch
        self.version = entry.version or self.version
        self.tokens.add(entry)
        if entry.is_compact_boundary or entry.is_compact_summary or entry.kind == "summary":
            self.compaction_entries.append(entry)
        elif entry.is_user_prompt:
            text = " ".join(prompt_display(entry.text).split())
            self.requests.append(UserRequest(entry.line, entry.timestamp, text[:REQUEST_PREVIEW]))
        self.pairer.add(entry)


def build_report(
    session: SessionRef, *, with_agents: bool = True, observe: Callable[[Entry], None] | None = None
) -> SessionReport:
    """The session read once; `observe` also sees every entry (e.g. a `plans.PlanScan`)."""
    stats = ReadStats()
    collector = _Collector()
    for entry in read_entries(session.path, stats):
        collector.add(entry)
        if observe is not None:
            observe(entry)
    calls = collector.pairer.calls()
    agents = session_agents(session, calls) if with_agents else []
    return SessionReport(
        ref=session,
        start=collector.start,
        end=collector.end,
        cwd=collector.cwd,
        branch=collector.branch,
        version=collector.version,
        entry_types=dict(collector.types.most_common()),
        requests=tuple(collector.requests),
        calls=tuple(calls),
        compactions=tuple(find_compactions(collector.compaction_entries)),
        agents=tuple(agents),
        tokens=collector.tokens.as_dict(),
        read=stats,
    )


def session_calls(
    session: SessionRef, stats: ReadStats | None = None, *, with_agents: bool = True
) -> list[ToolCall]:
    """The session's tool calls (the `events` timeline): the main conversation's, and with
    `with_agents` its agents' too (`agent_id` says whose), in order of time."""
    calls = pair_tool_calls(
        e for e in read_entries(session.path, stats) if e.tool_uses or e.is_tool_result_carrier
    )
    if not with_agents:
        return calls
    merged = list(calls)
    for run in session_agents(session, calls):
        merged.extend(run.calls)
    # Stable: calls without a time keep their place after the timed ones of their log.
    return sorted(merged, key=lambda c: (c.started is None, c.started.timestamp() if c.started else 0.0))
