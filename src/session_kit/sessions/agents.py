"""Subagent runs of a session, linked to the tool uses that spawned them, nested as they ran.

Owns: reading each agent log of a session (both layouts, found by `discovery`), its tool
calls, final answer and outcome (failed: a tool call failed, or the agent ended in error —
an API error as its last message, or a failed spawning call), and the link to the
`Agent`/`Task` tool use that spawned it: `toolUseId` in the current layout's `.meta.json`,
the parent result's `toolUseResult.agentId`, else (2025 layout) the nearest earlier agent
call in time. Spawning calls are looked for in the main conversation and in the other agents'
logs, so an agent started by an agent is nested under it (`parentAgentId` in the meta file
says the same). Also: the tree of a session's agents and picking agents by id prefix, type,
tool or failure, for `debug-agent`. Does not print anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from session_kit.sessions.store import AgentLogRef, SessionRef, find_agent_logs
from session_kit.transcript.entries import Entry, format_timestamp, read_entries, seconds_between
from session_kit.errors import Ambiguous, NotFound
from session_kit.transcript.calls import AGENT_TOOLS, ToolCall, pair_tool_calls
from session_kit.transcript.reader import ReadStats

# A 2025 agent log starts within this long after the call that spawned it.
LEGACY_LINK_WINDOW = timedelta(seconds=60)
# The client writes this as the user's turn when a person stops a running agent.
_INTERRUPTED = "[Request interrupted by user"


@dataclass(frozen=True, slots=True)
class AgentRun:
    log: AgentLogRef
    agent_type: str | None
    description: str | None
    tool_use_id: str | None  # the parent's Agent/Task tool use, when linked
    prompt: str | None
    start: datetime | None
    end: datetime | None
    model: str | None
    calls: tuple[ToolCall, ...]
    final_answer: str | None
    spawn_depth: int | None
    skipped_lines: int
    parent_agent_id: str | None = None  # the agent that spawned this one; None: the main conversation
    error: str | None = None  # why the agent ended in error (API error, interruption, failed spawn)

    @property
    def agent_id(self) -> str:
        return self.log.agent_id

    @property
    def failures(self) -> tuple[ToolCall, ...]:
        return tuple(c for c in self.calls if c.failed)

    @property
    def ended_in_error(self) -> bool:
        return self.error is not None

    @property
    def failed(self) -> bool:
        return bool(self.failures) or self.ended_in_error

    @property
    def duration_s(self) -> float | None:
        return seconds_between(self.start, self.end)

    def as_dict(self, *, calls: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "agent_id": self.agent_id,
            "type": self.agent_type,
            "description": self.description,
            "tool_use_id": self.tool_use_id,
            "parent_agent_id": self.parent_agent_id,
            "layout": self.log.layout,
            "path": str(self.log.path),
            "start": format_timestamp(self.start),
            "end": format_timestamp(self.end),
            "duration_s": self.duration_s,
            "model": self.model,
            "status": "failed" if self.failed else "ok",
            "error": self.error,
            "tool_calls": len(self.calls),
            "failures": len(self.failures),
            "spawn_depth": self.spawn_depth,
        }
        if calls:
            out["prompt"] = self.prompt
            out["calls"] = [c.as_dict() for c in self.calls]
            out["final_answer"] = self.final_answer
        return out



def read_agent_run(log: AgentLogRef) -> AgentRun:
    stats = ReadStats()
    entries = list(read_entries(log.path, stats))
    calls = [replace(c, agent_id=log.agent_id) for c in pair_tool_calls(entries)]
    stamps = [e.timestamp for e in entries if e.timestamp is not None]
    prompt = next((e.text for e in entries if e.kind == "user" and e.text.strip()), None)
    final = None
    model = None
    for entry in entries:
        if entry.kind == "assistant":
            model = model or entry.model
            if entry.text.strip() and not entry.is_api_error:
                final = entry.text
    meta = log.meta or {}
    depth = meta.get("spawnDepth")
    model_meta = meta.get("model")
    return AgentRun(
        log=log,
        agent_type=log.agent_type,
        description=log.description,
        tool_use_id=log.tool_use_id,
        prompt=prompt,
        start=min(stamps) if stamps else None,
        end=max(stamps) if stamps else None,
        model=model_meta if isinstance(model_meta, str) else model,
        calls=tuple(calls),
        final_answer=final,
        spawn_depth=depth if isinstance(depth, int) else None,
        skipped_lines=stats.skipped,
        parent_agent_id=_str(meta.get("parentAgentId")),
        error=_ending_error(entries),
    )


def _ending_error(entries: Sequence[Entry]) -> str | None:
    """Why the agent's conversation ended in error, judged by its last conversation entry."""
    last = next((e for e in reversed(entries) if e.is_conversation and not e.is_meta), None)
    if last is None:
        return None
    if last.kind == "assistant" and last.is_api_error:
        return last.text.strip() or "API error"
    if last.kind == "user" and last.text.lstrip().startswith(_INTERRUPTED):
        return "interrupted by the user"
    return None


def link_agents(runs: Sequence[AgentRun], parent_calls: Sequence[ToolCall]) -> list[AgentRun]:
    """Fill in each run's spawning tool use, parent agent, type and description.

    `parent_calls` may hold agents' own calls (`agent_id` set) besides the main
    conversation's: a run linked to one of those is nested under that agent. A failed
    spawning call (`Agent terminated early…`) is the run's error when its log names none.
    """
    agent_calls = [c for c in parent_calls if c.name in AGENT_TOOLS]
    by_id = {c.id: c for c in agent_calls}
    by_agent = {c.spawned_agent_id: c for c in agent_calls if c.spawned_agent_id}
    used: set[str] = {r.tool_use_id for r in runs if r.tool_use_id in by_id}  # type: ignore[misc]
    linked = []
    for run in sorted(runs, key=lambda r: (r.start is None, r.start.timestamp() if r.start else 0.0)):
        call = by_id.get(run.tool_use_id or "") or by_agent.get(run.agent_id)
        if call is None and run.start is not None:
            free = [c for c in agent_calls if c.id not in used and c.agent_id != run.agent_id]
            call = _nearest_earlier(run.start, free)
        if call is not None:
            used.add(call.id)
            run = replace(
                run,
                tool_use_id=call.id,
                agent_type=run.agent_type or _str(call.input.get("subagent_type")) or "general-purpose",
                description=run.description or _str(call.input.get("description")),
                prompt=run.prompt or _str(call.input.get("prompt")),
                parent_agent_id=run.parent_agent_id or call.agent_id,
                error=run.error or (call.error if call.failed else None),
            )
        linked.append(run)
    return linked


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


def session_agents(session: SessionRef, parent_calls: Sequence[ToolCall]) -> list[AgentRun]:
    """The session's agent runs, linked to their spawning calls (the main conversation's
    `parent_calls`, or another agent's), in start order."""
    runs = [read_agent_run(log) for log in find_agent_logs(session)]
    nested = [c for run in runs for c in run.calls if c.name in AGENT_TOOLS]
    return link_agents(runs, [*parent_calls, *nested])


# --- the tree of agents, and picking some -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgentNode:
    """A run in the session's tree of agents: its depth (0: spawned by the main conversation)
    and the ids of the agents it spawned."""

    run: AgentRun
    depth: int
    children: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {**self.run.as_dict(), "depth": self.depth, "children": list(self.children)}


def agent_tree(runs: Sequence[AgentRun]) -> list[AgentNode]:
    """The runs depth first, each agent followed by the agents it spawned (in start order).

    An agent whose parent is unknown, or not among `runs`, is a root.
    """
    ids = {r.agent_id for r in runs}
    kids: dict[str | None, list[AgentRun]] = {}
    for run in runs:  # `runs` is in start order: children stay in it
        parent = run.parent_agent_id if run.parent_agent_id in ids and run.parent_agent_id != run.agent_id else None
        kids.setdefault(parent, []).append(run)
    out: list[AgentNode] = []
    seen: set[str] = set()

    def visit(run: AgentRun, depth: int) -> None:
        if run.agent_id in seen:  # a cycle in hand-made meta files: show each run once
            return
        seen.add(run.agent_id)
        children = kids.get(run.agent_id, [])
        out.append(AgentNode(run, depth, tuple(c.agent_id for c in children)))
        for child in children:
            visit(child, depth + 1)

    for root in kids.get(None, []):
        visit(root, 0)
    for run in runs:  # members of a cycle have no root: still show them
        visit(run, 0)
    return out


def find_agent(runs: Iterable[AgentRun], prefix: str) -> AgentRun:
    """The one run whose id starts with `prefix` (an `agent-` prefix is allowed)."""
    wanted = prefix.strip()
    if wanted.startswith("agent-"):
        wanted = wanted[len("agent-") :]
    if not wanted:
        raise NotFound("an empty agent id")
    runs = list(runs)
    exact = [r for r in runs if r.agent_id == wanted]
    matches = exact or [r for r in runs if r.agent_id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        known = ", ".join(r.agent_id for r in runs[:10]) or "none"
        raise NotFound(f"no agent of this session matches {prefix!r} (its agents: {known})")
    ids = sorted(r.agent_id for r in matches)
    raise Ambiguous(f"{prefix!r} matches {len(ids)} agents: {', '.join(ids)}", ids)


@dataclass(frozen=True, slots=True)
class AgentSelection:
    """What `debug-agent` shows: `shown` in tree order, and the agents left out."""

    shown: tuple[AgentNode, ...]
    others: tuple[AgentNode, ...]
    total: int
    failed: int


def select_agents(
    runs: Sequence[AgentRun],
    *,
    agent: str | None = None,
    all_agents: bool = False,
    agent_type: str | None = None,
    tool: str | None = None,
) -> AgentSelection:
    """One agent (`agent`: an id prefix), every agent (`all_agents`), or else the failed ones;
    only of `agent_type` and only those that called `tool` (both case-insensitive) when given."""
    tree = agent_tree(runs)
    chosen_id = find_agent(runs, agent).agent_id if agent else None

    def wanted(node: AgentNode) -> bool:
        run = node.run
        if chosen_id is not None:
            return run.agent_id == chosen_id
        if agent_type and (run.agent_type or "").lower() != agent_type.lower():
            return False
        if tool and not any(c.name.lower() == tool.lower() for c in run.calls):
            return False
        return all_agents or run.failed

    shown = tuple(n for n in tree if wanted(n))
    picked = {n.run.agent_id for n in shown}
    return AgentSelection(
        shown=shown,
        others=tuple(n for n in tree if n.run.agent_id not in picked),
        total=len(runs),
        failed=sum(1 for r in runs if r.failed),
    )
