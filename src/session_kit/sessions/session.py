"""A session read once: its entries, tool calls and agents, for every query.

Owns: `Session`, the single way to get a session's entries, calls and agents. One streaming
pass over the transcript feeds the call pairer and every observer a query brings (an object
with `add(entry)`: a report's collector, a plan scan…), so queries that need several things
still read the file once; the agents are read from their logs and linked once, on first use,
by `sessions.agents` (not even loaded for a session with no agent: no log, no spawning call,
no inline thread, as most sessions are). A 1.0.x file's inline agents (`isSidechain` entries) are the agents'
own, not the main conversation's: they are kept apart for `sessions.agents` (unless the file
is an agent log, `agent-*.jsonl`, named as the session: it is read as its own conversation; a
session file holding nothing but a sidechain thread has an empty main conversation).
Holds the calls and those inline entries, never the main conversation's entries.
"""

from __future__ import annotations

from typing import Protocol

from session_kit.base.tools import spawns_agent
from session_kit.errors import cannot_read
from session_kit.sessions.store import AGENT_PREFIX, AgentLogRef, SessionRef, find_agent_logs
from session_kit.transcript.agent_signals import AgentSignalScan
from session_kit.transcript.calls import ToolCall, ToolCallPairer
from session_kit.transcript.entries import Entry, read_entries, time_order
from session_kit.transcript.reader import ReadStats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from session_kit.sessions.agents import AgentRun


class EntryObserver(Protocol):
    """Anything that watches a session's entries go by, one at a time."""

    def add(self, entry: Entry) -> None: ...


class Session:
    """A session on disk. `scan(*observers)` reads its transcript once; `calls` and `agents`
    read what they need on first use (`calls` scans with no observer when nothing has yet).

    `keep_payload`: calls keep their whole input and output text (the timeline shows them);
    without it a call keeps its summary and error only, so a long session takes little memory.
    """

    def __init__(self, ref: SessionRef, *, keep_payload: bool = False) -> None:
        self.ref = ref
        self.read = ReadStats()  # what the scan met: skipped lines and why
        # No view shows a call's output: holding every output would cost the file's size.
        self._pairer = ToolCallPairer(keep_payload=keep_payload, keep_output=False)
        self._calls: list[ToolCall] | None = None
        self._agents: list[AgentRun] | None = None
        self._sidechains: list[Entry] = []
        self._signals = AgentSignalScan()  # what the conversation says of its agents

    def scan(self, *observers: EntryObserver) -> Session:
        """Read the transcript once, giving each entry to the call pairer and to `observers`."""
        if self._calls is not None:
            raise RuntimeError(f"session {self.ref.id} was already read; give every observer to one scan")
        adders = [self._pairer.add, self._signals.add, *(o.add for o in observers)]
        # Observers that also watch the agents' inline lines go by (a session's time span).
        side_adders = [o.add_sidechain for o in observers if hasattr(o, "add_sidechain")]
        sidechains = self._sidechains
        main = False  # a main-conversation entry was seen
        try:
            for entry in read_entries(self.ref.path, self.read):
                if entry.is_sidechain:
                    sidechains.append(entry)
                    for add in side_adders:
                        add(entry)
                    continue
                main = main or entry.is_conversation
                for add in adders:
                    add(entry)
        except OSError as exc:  # gone or unreadable since it was resolved
            raise cannot_read(f"the transcript {self.ref.path}", exc) from None
        if sidechains and not main and self.ref.path.name.startswith(AGENT_PREFIX):
            # An agent log named as the session is read as its own conversation; a session file
            # holding only an agent's thread has an empty main conversation and that agent.
            for entry in sidechains:
                for add in adders:
                    add(entry)
            if self.ref.path.name.startswith(AGENT_PREFIX):
                sidechains.clear()  # an agent's own log; a thread in a session's file is its agent too
        self._calls = self._pairer.calls()
        return self

    @property
    def calls(self) -> list[ToolCall]:
        """The main conversation's tool calls, in order of use."""
        if self._calls is None:
            self.scan()
        assert self._calls is not None
        return self._calls

    @property
    def agents(self) -> list[AgentRun]:
        """The session's agent runs, linked to their spawning calls, in start order."""
        if self._agents is None:
            logs = None
            calls = self.calls  # read first: the scan finds the inline threads too
            if not self._sidechains and not any(spawns_agent(call.name) for call in calls):
                logs = find_agent_logs(self.ref)
            if logs is not None and not logs:
                # Nothing to read or link: the linker's module (~2-4 ms to import) stays unloaded.
                self._agents = []
            else:
                from session_kit.sessions.agents import session_agents

                self._agents = session_agents(
                    self.ref, self.calls, inline=self._sidechains, logs=logs, signals=self._signals
                )
                self._calls = _with_spawned(self.calls, self._agents)
            self._sidechains = []
        return self._agents

    @property
    def warmups(self) -> list[AgentLogRef]:
        """The logs of the session that are not agents of its conversation, billed all the same:
        2.0.x warmup logs and the 2.1.x compaction summariser's (`AgentLogRef.not_an_agent`)."""
        return [log for log in find_agent_logs(self.ref, with_meta=False) if log.not_an_agent]

    def linked_calls(self) -> list[ToolCall]:
        """The main conversation's calls, each spawning call naming the agent it was linked
        to (a 1.0.x result names none: its inline thread is tied to it by prompt)."""
        if any(spawns_agent(call.name) and call.spawned_agent_id is None for call in self.calls):
            self.agents  # noqa: B018 - linking fills the ids in
        return self.calls

    def all_calls(self) -> list[ToolCall]:
        """The main conversation's calls and every agent's (`agent_id` says whose), in order
        of time; calls without a time keep their place after the timed ones of their log."""
        runs = self.agents
        merged = list(self.calls)
        for run in runs:
            merged.extend(run.calls)
        return sorted(merged, key=lambda c: time_order(c.started))


def _with_spawned(calls: list[ToolCall], runs: list[AgentRun]) -> list[ToolCall]:
    """`calls` with each spawning call naming the agent linked to it (one linking for all)."""
    by_call = {run.tool_use_id: run.agent_id for run in runs if run.tool_use_id and run.log_found}
    if not by_call:
        return calls
    return [
        call._replace(spawned_agent_id=by_call[call.id])
        if call.spawned_agent_id is None and call.id in by_call
        else call
        for call in calls
    ]
