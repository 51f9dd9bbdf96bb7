"""This session's agent logs for preprocessing, in start order, each tied to its spawning call.

Owns: finding the agent logs (both layouts, `sessions.store`), their start times (from the
head of each log), their order, and naming each one's type, description and spawning call
through the one linker (`sessions.agents.AgentLinker`) as the logs are converted: the caller
adds each converted log's own `Agent`/`Task` calls before the next log is linked, so an agent
started by an agent is tied to the right call. Does not convert or write anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from session_kit.sessions.agents import AgentLinker
from session_kit.sessions.store import AgentLogRef, SessionRef, find_agent_logs
from session_kit.transcript.calls import ToolCall
from session_kit.transcript.entries import Entry, time_order
from session_kit.transcript.reader import read_head
from session_kit.transcript.tools import agent_spawn

AGENT_HEAD_BYTES = 256 * 1024  # how far into an agent log its start time is looked for


@dataclass(frozen=True, slots=True)
class LinkedAgent:
    """An agent log with what its meta file, else its spawning call, says of it."""

    log: AgentLogRef
    agent_type: str | None
    description: str | None
    tool_use_id: str | None  # the spawning call's id, when linked or named by the meta file

    @property
    def agent_id(self) -> str:
        return self.log.agent_id


def first_timestamp(path: Path) -> datetime | None:
    try:
        head = read_head(path, AGENT_HEAD_BYTES)
    except OSError:
        return None
    for value in head:
        stamp = Entry.from_raw(0, value).timestamp
        if stamp is not None:
            return stamp
    return None


def linked(log: AgentLogRef, call: ToolCall | None) -> LinkedAgent:
    """What `log` and its spawning `call` tell (the meta file first; as `sessions.agents.linked_run`)."""
    if call is None:
        return LinkedAgent(log, log.agent_type, log.description, log.tool_use_id)
    asked = agent_spawn(call.input)
    return LinkedAgent(log, log.agent_type or asked.agent_type, log.description or asked.description, call.id)


class AgentsInStartOrder:
    """Iterate for the session's agents in start order; `add_calls` between them."""

    def __init__(self, ref: SessionRef, calls: Iterable[ToolCall]) -> None:
        logs = find_agent_logs(ref)
        started = [(log, first_timestamp(log.path)) for log in logs]
        # Start order; logs without a start go last, in the order they were found.
        self._logs = sorted(started, key=lambda s: time_order(s[1]))
        self._linker = AgentLinker(calls, reserved=[log.tool_use_id for log in logs if log.tool_use_id])

    def __iter__(self) -> Iterator[LinkedAgent]:
        for log, start in self._logs:
            yield linked(log, self._linker.link(log, start))

    def add_calls(self, calls: Iterable[ToolCall]) -> None:
        """The spawning calls of a log just converted, for linking the logs after it."""
        self._linker.add_calls(calls)
