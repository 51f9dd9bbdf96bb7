"""A whole session read once into a summary: what `show` prints.

Owns: the report's observer (`ReportCollector`: entry types, the person's requests, cwd,
branch (the first recorded, as `sessions` lists them), client version, title (by the rule of
`transcript.titles`), start and end (by the rule of `transcript.span`), compactions and
tokens, once per API message id) and the report it makes with the session's calls and agents,
their tokens and cost (`usage.breakdown`). Holds only small facts, never the entries; a query
that needs more from the same pass gives its own observer to the same `Session.scan`.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any, NamedTuple

from session_kit.redaction.engine import shown
from session_kit.sessions.session import Session
from session_kit.sessions.store import SessionRef
from session_kit.transcript.calls import ToolCall
from session_kit.transcript.compactions import Compaction, find_compactions, is_seed_dialect
from session_kit.transcript.entries import (
    KIND_NOISE,
    KIND_SUMMARY,
    Entry,
    format_timestamp,
    request_text,
    seconds_between,
)
from session_kit.transcript.reader import ReadStats
from session_kit.transcript.span import SpanScan
from session_kit.transcript.titles import TitleScan
from session_kit.transcript.tokens import TokenTally
from session_kit.usage.breakdown import AgentResultUsage, SessionUsage, session_usage
from session_kit.usage.prices import PriceTable, load_prices

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: a session with no agent never loads the linker
    from session_kit.sessions.agents import AgentRun

REQUEST_PREVIEW = 300


class UserRequest(NamedTuple):
    line: int
    timestamp: datetime | None
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "timestamp": format_timestamp(self.timestamp), "text": self.text}


class SessionReport(NamedTuple):
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
    tokens: dict[str, Any]  # the session's own file, once per API message
    read: ReadStats
    title: str | None = None
    usage: SessionUsage | None = None  # the file and its agents, with cost

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
            "title": self.title,
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
            "usage": self.usage.as_dict() if self.usage is not None else None,
            "read": self.read.as_dict(),
        }


class ReportCollector:
    """Watches a session's entries go by (a `Session` observer), keeping only what the report
    needs; `report()` then puts it together with the session's calls and agents."""

    def __init__(self) -> None:
        self.types: Counter[str] = Counter()
        self.requests: list[UserRequest] = []
        self.tokens = TokenTally()
        self.agent_results = AgentResultUsage()
        self.span = SpanScan()
        self.cwd = self.branch = self.version = None
        self.compaction_entries: list[Entry] = []
        self.titles = TitleScan()
        self.seed_dialect = False

    def add(self, entry: Entry) -> None:
        self.types[entry.type or "(none)"] += 1
        self.titles.add(entry)
        self.span.add(entry)
        if entry.kind == KIND_NOISE:
            return
        # The first recorded, as a listing reads them from the head of the file.
        self.cwd = self.cwd or entry.cwd
        self.branch = self.branch or entry.git_branch
        self.version = entry.version or self.version
        self.seed_dialect = self.seed_dialect or is_seed_dialect(entry)
        # A 1.0.x inline agent's lines never come here (`Session` keeps them for its agents):
        # a sidechain line that does is an agent log's own, read as the session.
        self.tokens.add(entry)
        self.agent_results.add(entry)
        if entry.is_compact_boundary or entry.is_compact_summary or entry.kind == KIND_SUMMARY:
            self.compaction_entries.append(entry)
        elif (text := request_text(entry)) is not None:
            text = " ".join(shown(text).split())  # redacted before the cut
            self.requests.append(UserRequest(entry.line, entry.timestamp, text[:REQUEST_PREVIEW]))

    def add_sidechain(self, entry: Entry) -> None:
        """An inline agent's line: part of the session's time span, nothing else of the report."""
        self.span.add(entry)

    def report(self, session: Session, *, with_agents: bool = True, prices: PriceTable | None = None) -> SessionReport:
        agents = tuple(session.agents) if with_agents else ()
        summary = self.tokens.summary()
        usage = session_usage(
            summary,
            agents,
            self.agent_results.by_agent if with_agents else {},
            prices or load_prices(),
            warmups=session.warmups if with_agents else (),
        )
        return SessionReport(
            ref=session.ref,
            start=self.span.start,
            end=self.span.end,
            cwd=self.cwd,
            branch=self.branch,
            version=self.version,
            entry_types=dict(self.types.most_common()),
            requests=tuple(self.requests),
            calls=tuple(session.calls),
            compactions=tuple(find_compactions(self.compaction_entries, seed_dialect=self.seed_dialect)),
            agents=agents,
            tokens=summary.as_dict(),
            read=session.read,
            title=self.titles.title,
            usage=usage,
        )


def session_report(ref: SessionRef, *, with_agents: bool = True) -> SessionReport:
    """What `show` prints: the session read once, its agents read once."""
    collector = ReportCollector()
    session = Session(ref).scan(collector)
    return collector.report(session, with_agents=with_agents)
