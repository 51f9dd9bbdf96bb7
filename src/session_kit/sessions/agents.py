"""Subagent runs of a session, linked to the tool uses that spawned them, nested as they ran.

Owns: reading each agent log of a session (every layout, found by `store`; 2.0.x warmup logs
kept apart), streamed once (its calls and a few facts held, never its entries; a log that
cannot be read is skipped and named), splitting the 1.0.x agents written inline in the
session's own file (`isSidechain` threads, each from its `parentUuid: null` root) and tying
each to its `Task` call by its prompt, the agents known only from their spawning call because
their log is gone (a call refused by input validation spawned none), each run's tool calls,
final answer and ending error (an API error as its last message, or a failed spawning call),
what the transcripts say of each run (its call's result, a background agent's ending:
`transcript.agent_signals`, laid on by `with_signals`; the figures are `agent_run`'s), and
the one linker (`AgentLinker`)
that ties a log to the `Agent`/`Task` tool use that spawned it, for every caller (this
module's `session_agents`, and preprocessing, which links logs as it converts them).
Spawning calls are looked for in the main conversation and in the other agents' logs, so an
agent started by an agent is nested under it (`parentAgentId` in the meta file says the
same). The tree of agents and picking some is `queries.agent_tree`. Does not print.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from session_kit.base.agents import FAILED, FINISHED, RUNNING
from session_kit.base.fileio import reason, skipped
from session_kit.base.tools import spawns_agent
from session_kit.sessions.agent_run import AgentRun
from session_kit.sessions.store import (
    LAYOUT_INLINE,
    LAYOUT_MISSING,
    LAYOUT_WORKFLOW,
    AgentLogRef,
    SessionRef,
    find_agent_logs,
)
from session_kit.transcript.agent_signals import AgentSignalScan, is_interrupted, is_rejected
from session_kit.transcript.calls import STATUS_DECLINED, STATUS_PENDING, ToolCall, ToolCallPairer
from session_kit.transcript.entries import (
    KIND_ASSISTANT,
    KIND_USER,
    Entry,
    count_value,
    is_warmup_conversation,
    read_entries,
    time_order,
)
from session_kit.transcript.reader import ReadStats
from session_kit.transcript.tokens import TokenTally
from session_kit.transcript.tools import agent_spawn

__all__ = ["FAILED", "FINISHED", "RUNNING", "AgentLinker", "AgentRun", "session_agents"]
# A 2025 agent log starts within this long after the call that spawned it.
LEGACY_LINK_WINDOW = timedelta(seconds=60)


def read_agent_run(log: AgentLogRef) -> AgentRun:
    """The agent of `log`, its log streamed once. OSError when it cannot be read."""
    assert log.path is not None
    stats = ReadStats()
    return run_from_entries(log, read_entries(log.path, stats), stats=stats)


def run_from_entries(log: AgentLogRef, entries: Iterable[Entry], *, stats: ReadStats | None = None) -> AgentRun:
    """An agent's run from its conversation (its own log, streamed, or its inline thread):
    only its calls (their inputs, not their outputs) and a few facts are held, never the
    entries."""
    pairer = ToolCallPairer(keep_output=False)
    start = end = None
    prompt = final = model = None
    last: Entry | None = None  # the last conversation entry: did the agent end in error?
    tally = TokenTally()
    signals = AgentSignalScan()
    agent_id = None  # the client's id, when the entries name it (`agentId`)
    thread: set[str] | None = set() if log.layout == LAYOUT_INLINE else None
    for entry in entries:
        if thread is not None and entry.uuid:
            thread.add(entry.uuid)
        pairer.add(entry)
        tally.add(entry)
        signals.add(entry)
        stamp = entry.timestamp
        if stamp is not None:
            start = stamp if start is None or stamp < start else start
            end = stamp if end is None or stamp > end else end
        if entry.kind == KIND_USER and prompt is None and entry.text.strip():
            prompt = entry.text
        elif entry.kind == KIND_ASSISTANT:
            model = model or entry.model
            if not entry.is_api_error and entry.text.strip():
                final = entry.text
        if entry.is_conversation and not entry.is_meta:
            last = entry
            agent_id = agent_id or _str(entry.raw.get("agentId"))
    calls = [c._replace(agent_id=agent_id or log.agent_id) for c in pairer.calls()]
    if log.layout == LAYOUT_INLINE and agent_id and agent_id != log.agent_id:
        log = log._replace(agent_id=agent_id)  # a sidechain thread that names its agent
    meta = log.meta or {}
    depth = meta.get("spawnDepth")
    model_meta = meta.get("model")
    return AgentRun(
        log=log,
        agent_type=log.agent_type,
        description=log.description,
        tool_use_id=log.tool_use_id,
        prompt=prompt,
        start=start,
        end=end,
        model=model_meta if isinstance(model_meta, str) else model,
        calls=tuple(calls),
        final_answer=final,
        spawn_depth=count_value(depth),
        skipped_lines=stats.skipped if stats is not None else 0,
        parent_agent_id=_str(meta.get("parentAgentId")),
        error=_ending_error(last),
        tokens=tally.summary(),
        signals=signals if signals.spawns or signals.endings else None,
        interrupted=last is not None and last.kind == KIND_USER and is_interrupted(last.text),
        answered=_answered(last),
        log_api_error=last is not None and last.kind == KIND_ASSISTANT and last.is_api_error,
        thread=frozenset(thread) if thread is not None else None,
    )


def _ending_error(last: Entry | None) -> str | None:
    """Why the agent's conversation ended as it did, judged by its last conversation entry:
    an API error, or the person interrupting it."""
    if last is None:
        return None
    if last.kind == KIND_ASSISTANT and last.is_api_error:
        return last.text.strip() or "API error"
    if last.kind == KIND_USER and is_interrupted(last.text):
        return "interrupted by the user"
    return None


def _answered(last: Entry | None) -> bool:
    """Its conversation ends in a finished answer: text, no call, `end_turn` (or no stop
    reason at all; a line still streaming has `null`)."""
    if last is None or last.kind != KIND_ASSISTANT or last.is_api_error or last.tool_uses:
        return False
    return last.message.get("stop_reason", "end_turn") == "end_turn" and bool(last.text.strip())


class AgentLinker:
    """The one way an agent log is tied to the `Agent`/`Task` call that spawned it.

    By the log's meta `toolUseId`, else by the call whose result named the agent
    (`toolUseResult.agentId`), else (2025 logs, which have neither) by the nearest earlier
    spawning call not yet taken, within `LEGACY_LINK_WINDOW`. Calls may come from the main
    conversation or from other agents' logs (`ToolCall.agent_id`): an agent linked to another
    agent's call is nested under it. Link logs in start order; calls can be added between
    links (a caller converting agents one by one adds each one's calls before linking the
    next: a spawning call always precedes the agent it spawns).
    """

    def __init__(self, calls: Iterable[ToolCall] = (), *, reserved: Iterable[str] = ()) -> None:
        self._calls: list[ToolCall] = []
        self._by_id: dict[str, ToolCall] = {}
        self._by_agent: dict[str, ToolCall] = {}
        # Calls some log's meta names: never given to another log by time.
        self._reserved = set(reserved)
        self._used: set[str] = set()
        self.add_calls(calls)

    def add_calls(self, calls: Iterable[ToolCall]) -> None:
        for call in calls:
            if not spawns_agent(call.name) or call.id in self._by_id or spawned_nothing(call):
                continue
            self._calls.append(call)
            self._by_id[call.id] = call
            if call.spawned_agent_id:
                self._by_agent[call.spawned_agent_id] = call

    def unlinked(self) -> list[ToolCall]:
        """The spawning calls no log was linked to (nor reserved by a meta file)."""
        return [c for c in self._calls if c.id not in self._used and c.id not in self._reserved]

    def link(self, log: AgentLogRef, start: datetime | None, *, tool_use_id: str | None = None) -> ToolCall | None:
        """The call that spawned the agent of `log` (started at `start`), or None."""
        wanted = tool_use_id or log.tool_use_id
        call = self._by_id.get(wanted or "") or self._by_agent.get(log.agent_id)
        # By time only where the client wrote no link at all (2025 logs, 1.0.x inline threads):
        # a workflow's agents are not started by a spawning call of the conversation.
        if call is None and start is not None and log.layout != LAYOUT_WORKFLOW:
            taken = self._used | self._reserved
            free = [c for c in self._calls if c.id not in taken and c.agent_id != log.agent_id]
            call = _nearest_earlier(start, free)
        if call is not None:
            self._used.add(call.id)
        return call


def link_agents(runs: Sequence[AgentRun], parent_calls: Sequence[ToolCall]) -> list[AgentRun]:
    """The runs in start order, each with its spawning call's facts filled in, and a run for
    each spawning call no log was linked to (its log is gone: `LAYOUT_MISSING`).

    A failed spawning call (`Agent terminated early…`) is the run's error when its log names
    none; type, description and prompt come from the call where the log has none.
    """
    linker = AgentLinker(parent_calls, reserved=[r.tool_use_id for r in runs if r.tool_use_id])
    linked = [
        linked_run(run, linker.link(run.log, run.start, tool_use_id=run.tool_use_id)) for run in in_start_order(runs)
    ]
    return in_start_order([*linked, *(missing_run(call) for call in linker.unlinked())])


def spawned_nothing(call: ToolCall) -> bool:
    """A spawning call that started nothing: the client refused it (`InputValidationError`),
    or the person declined it before it ran (an interrupted one had started its agent)."""
    if call.status == STATUS_DECLINED and not call.spawned_agent_id and not is_interrupted(call.error or ""):
        return True  # declined (`base.declines`) before it ran, whatever the result said
    return is_rejected(call.error or "", is_error=call.failed)


def with_signals(run: AgentRun, signals: AgentSignalScan) -> AgentRun:
    """`run` with what the transcripts say of it: its call's result and its ending (an
    "API Error: …" answer is why it failed)."""
    spawn = signals.spawns.get(run.tool_use_id or "")
    ending = signals.endings.get(run.agent_id)
    if spawn is None and ending is None:
        return run
    error = run.error or (spawn.answer if spawn is not None and spawn.api_error else None)
    return run._replace(spawn=spawn or run.spawn, ending=ending or run.ending, error=error)


def missing_run(call: ToolCall) -> AgentRun:
    """An agent known only from its spawning call and result: its log was never kept."""
    asked = agent_spawn(call.input)
    log = AgentLogRef(call.spawned_agent_id or call.id, None, LAYOUT_MISSING)
    return AgentRun(
        log=log,
        agent_type=asked.agent_type,
        description=asked.description,
        tool_use_id=call.id,
        prompt=asked.prompt,
        start=call.started,
        end=None,
        model=None,
        calls=(),
        final_answer=None,
        spawn_depth=None,
        skipped_lines=0,
        parent_agent_id=call.agent_id,
        error=call.error if call.failed else None,
        call_started=call.started,
        call_ended=call.ended,
        call_pending=call.status == STATUS_PENDING,
        **_call_facts(call),
    )


def inline_threads(entries: Iterable[Entry]) -> dict[str, list[Entry]]:
    """The 1.0.x agents written inline in a session's file, from its `isSidechain` entries:
    each thread from its root (`parentUuid` null, or the main conversation's entry that
    started it) along `parentUuid`, keyed by its root's uuid (the agent's id where its entries
    name none). An entry whose parent is in no thread goes on with the latest thread (a line
    the file lacks between them). A thread that is a lone greeting (a warmup's: no prompt, no
    call) is no agent."""
    owner: dict[str, str] = {}  # entry uuid -> its thread's root uuid
    threads: dict[str, list[Entry]] = {}
    latest: str | None = None
    for entry in entries:
        parent = entry.parent_uuid
        root = owner.get(parent) if parent else None
        if root is None and parent and latest is not None:
            root = latest
        if root is None:
            root = entry.uuid or f"line-{entry.line}"
            threads.setdefault(root, [])
        latest = root
        if entry.uuid:
            owner[entry.uuid] = root
        threads[root].append(entry)
    return threads


def inline_runs(session: SessionRef, entries: Iterable[Entry]) -> list[AgentRun]:
    """The runs of the agents written inline in the session's file (`inline_threads`), each
    named by the `agentId` its entries carry (2.0.x), else its root's uuid; a warmup thread is
    no agent of the conversation."""
    return [
        run_from_entries(AgentLogRef(_thread_id(root, thread), session.path, LAYOUT_INLINE), thread)
        for root, thread in inline_threads(entries).items()
        if not is_warmup_conversation(thread)
    ]


def inline_agent_ids(entries: Iterable[Entry]) -> list[str]:
    """The ids `inline_runs` gives the agents written inline (the index's rows of a file that
    holds only an agent's thread)."""
    return [_thread_id(root, t) for root, t in inline_threads(entries).items() if not is_warmup_conversation(t)]


def _thread_id(root: str, thread: Sequence[Entry]) -> str:
    return next((entry.agent_id for entry in thread if entry.agent_id), root)


def tie_by_prompt(runs: Sequence[AgentRun], calls: Sequence[ToolCall]) -> list[AgentRun]:
    """Inline runs tied to the spawning call that asked exactly their prompt (their only link:
    1.0.x results name no agent), each call to one run, in order."""
    waiting: dict[str, list[ToolCall]] = {}
    for call in calls:
        if spawns_agent(call.name) and (prompt := agent_spawn(call.input).prompt):
            waiting.setdefault(prompt.strip(), []).append(call)
    tied = []
    for run in runs:
        matches = waiting.get((run.prompt or "").strip())
        tied.append(run._replace(tool_use_id=matches.pop(0).id) if matches else run)
    return tied


def in_start_order(runs: Sequence[AgentRun]) -> list[AgentRun]:
    return sorted(runs, key=lambda r: time_order(r.start))


def linked_run(run: AgentRun, call: ToolCall | None) -> AgentRun:
    """`run` with what its spawning `call` tells (nothing when there is none)."""
    if call is None:
        return run
    asked = agent_spawn(call.input)
    return run._replace(
        tool_use_id=call.id,
        agent_type=run.agent_type or asked.agent_type,
        description=run.description or asked.description,
        prompt=run.prompt or asked.prompt,
        parent_agent_id=run.parent_agent_id or call.agent_id,
        error=run.error or (call.error if call.failed else None),
        call_started=call.started,
        call_ended=call.ended,
        call_pending=call.status == STATUS_PENDING,
        **_call_facts(call, interrupted=run.interrupted),
    )


def _call_facts(call: ToolCall, *, interrupted: bool = False) -> dict[str, bool]:
    """What a spawning call's result says of how its agent ended: failed, or interrupted."""
    stopped = call.failed and is_interrupted(call.error or "")
    return {"call_seen": True, "call_failed": call.failed and not stopped, "interrupted": interrupted or stopped}


def _nearest_earlier(start: datetime, calls: Sequence[ToolCall]) -> ToolCall | None:
    best = None
    for call in calls:
        if call.started is None or call.started > start + timedelta(seconds=1):
            continue
        if start - call.started > LEGACY_LINK_WINDOW:
            continue
        if best is None or call.started > best.started:  # type: ignore[operator]
            best = call
    return best


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def session_agents(
    session: SessionRef,
    parent_calls: Sequence[ToolCall],
    *,
    inline: Sequence[Entry] = (),
    logs: Sequence[AgentLogRef] | None = None,
    signals: AgentSignalScan | None = None,
) -> list[AgentRun]:
    """The session's agent runs, linked to their spawning calls (the main conversation's
    `parent_calls`, or another agent's), in start order: its agent logs (warmups left out; one
    that cannot be read is skipped and named), its `inline` sidechain threads, and the agents
    whose logs are gone (a call refused before it started anything spawned none). `logs`: its
    `find_agent_logs`, when the caller has listed them; `signals`: what the main transcript
    said of its agents (their calls' results, background endings), with what their own logs
    say added."""
    runs = []
    for log in find_agent_logs(session) if logs is None else logs:
        if log.not_an_agent:
            continue
        try:
            runs.append(read_agent_run(log))
        except OSError as exc:  # gone or unreadable since it was listed: the others still count
            skipped(log.path, reason(exc))
    runs += tie_by_prompt(inline_runs(session, inline), parent_calls)
    linked = link_agents(
        runs, [*parent_calls, *(c for run in runs for c in run.calls)]
    )  # the linker keeps spawning calls
    heard = AgentSignalScan()
    if signals is not None:
        heard.merge(signals)
    for run in runs:
        if run.signals is not None:
            heard.merge(run.signals)
    return [with_signals(run, heard) for run in linked]
