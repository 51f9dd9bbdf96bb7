"""A session's agent logs to read, in start order, each tied to its spawning call: for
`view`, the agents the agent model lists (`AgentModel`: `Session.agents`, what `show` lists);
for `preprocess`, the logs linked as they are converted (`AgentsInStartOrder`).

Owns: finding the agent logs (every layout, `sessions.store`) and the 1.0.x agents written
inline in the session's own file (each an `isSidechain` thread, `sessions.agents`), their
start times (from the head of each log), their order, and naming each one's type, description and spawning call
through the one linker (`sessions.agents.AgentLinker`) as the logs are converted: the caller
adds each converted log's own `Agent`/`Task` calls before the next log is linked, so an agent
started by an agent is tied to the right call. Does not convert or write anything.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from session_kit.base.fileio import open_fd
from session_kit.sessions.agents import AgentLinker, inline_threads, run_from_entries, tie_by_prompt
from session_kit.sessions.store import LAYOUT_INLINE, AgentLogRef, SessionRef, find_agent_logs
from session_kit.transcript.calls import ToolCall
from session_kit.transcript.entries import Entry, read_entries, time_order
from session_kit.transcript.glance import file_holds
from session_kit.transcript.reader import read_head
from session_kit.transcript.tools import agent_spawn

TYPE_CHECKING = False
if TYPE_CHECKING:
    from session_kit.sessions.agent_run import AgentRun

AGENT_HEAD_BYTES = 256 * 1024  # how far into an agent log its start time is looked for


class LinkedAgent(NamedTuple):
    """An agent log with what its meta file, else its spawning call, says of it."""

    log: AgentLogRef
    agent_type: str | None
    description: str | None
    tool_use_id: str | None  # the spawning call's id, when linked or named by the meta file
    thread: frozenset[str] | None = None  # an inline agent: the uuids of its entries in the session's file

    @property
    def agent_id(self) -> str:
        return self.log.agent_id

    @classmethod
    def of(cls, run: AgentRun) -> LinkedAgent:
        """An agent as the agent model lists it."""
        return cls(run.log, run.agent_type, run.description, run.tool_use_id, run.thread)


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


def linked(log: AgentLogRef, call: ToolCall | None, thread: frozenset[str] | None = None) -> LinkedAgent:
    """What `log` and its spawning `call` tell (the meta file first; as `sessions.agents.linked_run`)."""
    if call is None:
        return LinkedAgent(log, log.agent_type, log.description, log.tool_use_id, thread)
    asked = agent_spawn(call.input)
    return LinkedAgent(log, log.agent_type or asked.agent_type, log.description or asked.description, call.id, thread)


def inline_agents(path: Path) -> dict[str, list[Entry]]:
    """The inline agent threads of a 1.0.x session file (`sessions.agents.inline_threads`);
    none when the file has no sidechain entries, or nothing else (an agent log named as the
    session is its own conversation)."""
    try:
        fd = open_fd(path)[0]
    except OSError:
        return {}
    try:
        if not file_holds(fd, b'"isSidechain":true'):
            return {}
    finally:
        os.close(fd)
    sidechains, main = [], False
    for entry in read_entries(path):
        if entry.is_sidechain:
            sidechains.append(entry)
        else:
            main = main or entry.is_conversation
    return inline_threads(sidechains) if main else {}


class InlineAgents:
    """A session file's inline agent threads (`inline_agents`), looked for only when its main
    conversion meets a sidechain entry: a file with none (every current-format session) is
    never read for them, where a byte search for `"isSidechain":true` read all of it (~25 ms
    of a 60 MB session, before the first line was converted).

    `apart` is the conversion's question at its first sidechain entry: do sidechain entries
    go into sections of their own? `threads` is what was found; none when none was met. (A
    file whose only sidechain lines are client noise, dropped before they are parsed, has no
    thread an agent section could show.)"""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._threads: dict[str, list[Entry]] | None = None

    def apart(self) -> bool:
        if self._threads is None:
            self._threads = inline_agents(self.path)
        return bool(self._threads)

    def threads(self) -> dict[str, list[Entry]]:
        return self._threads or {}


class AgentsInStartOrder:
    """Iterate for the session's agents in start order; `add_calls` between them."""

    def __init__(
        self, ref: SessionRef, calls: Iterable[ToolCall], *, inline: dict[str, list[Entry]] | None = None
    ) -> None:
        calls = list(calls)
        logs = [log for log in find_agent_logs(ref) if not log.not_an_agent]
        started: list[tuple[AgentLogRef, datetime | None, frozenset[str] | None]] = [
            (log, first_timestamp(log.path), None) for log in logs if log.path is not None
        ]
        tied = tie_by_prompt(
            [run_from_entries(AgentLogRef(root, ref.path, LAYOUT_INLINE), t) for root, t in (inline or {}).items()],
            calls,
        )
        for run in tied:
            log = AgentLogRef(run.agent_id, ref.path, LAYOUT_INLINE, {"toolUseId": run.tool_use_id})
            uuids = frozenset(e.uuid for e in (inline or {})[run.agent_id] if e.uuid)
            started.append((log, run.start, uuids))
        # Start order; logs without a start go last, in the order they were found.
        self._logs = sorted(started, key=lambda s: time_order(s[1]))
        reserved = [log.tool_use_id for log, _, _ in started if log.tool_use_id]
        self._linker = AgentLinker(calls, reserved=reserved)

    def __iter__(self) -> Iterator[LinkedAgent]:
        for log, start, thread in self._logs:
            yield linked(log, self._linker.link(log, start), thread)

    def add_calls(self, calls: Iterable[ToolCall]) -> None:
        """The spawning calls of a log just converted, for linking the logs after it."""
        self._linker.add_calls(calls)


class AgentModel:
    """The session's agents as the agent model lists them (`Session.agents`), read once, on
    first need: at the main conversion's first sidechain entry, or after it when it met a
    spawning call or the session has agent logs."""

    def __init__(self, ref: SessionRef) -> None:
        self.ref = ref
        self._runs: list[AgentRun] | None = None

    def inline(self) -> bool:
        """Does the model make agents of the file's inline (`isSidechain`) threads?"""
        return any(run.log.layout == LAYOUT_INLINE for run in self._read())

    def runs(self, spawn_calls: Mapping[str, Any]) -> list[AgentRun]:
        if self._runs is None and not spawn_calls and not find_agent_logs(self.ref, with_meta=False):
            return []
        return self._read()

    def _read(self) -> list[AgentRun]:
        if self._runs is None:
            from session_kit.sessions.session import Session  # `view`'s path only, not `preprocess`'s

            self._runs = Session(self.ref).agents
        return self._runs
