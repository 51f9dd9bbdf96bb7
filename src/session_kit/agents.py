"""Subagent runs of a session, linked to the tool uses that spawned them.

Owns: reading each agent log of a session (both layouts, found by `discovery`), its tool
calls and outcome, and the link to the parent's `Agent`/`Task` tool use: `toolUseId` in the
current layout's `.meta.json`, the parent result's `toolUseResult.agentId`, else (2025 layout)
the nearest earlier agent call in time. Does not print anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from session_kit.discovery import AgentLogRef, SessionRef, find_agent_logs
from session_kit.entries import read_entries
from session_kit.events import AGENT_TOOLS, ToolCall, pair_tool_calls
from session_kit.jsonl import ReadStats

# A 2025 agent log starts within this long after the call that spawned it.
LEGACY_LINK_WINDOW = timedelta(seconds=60)


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

    @property
    def agent_id(self) -> str:
        return self.log.agent_id

    @property
    def failures(self) -> tuple[ToolCall, ...]:
        return tuple(c for c in self.calls if c.failed)

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    @property
    def duration_s(self) -> float | None:
        if self.start is None or self.end is None:
            return None
        return max(0.0, (self.end - self.start).total_seconds())

    def as_dict(self, *, calls: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "agent_id": self.agent_id,
            "type": self.agent_type,
            "description": self.description,
            "tool_use_id": self.tool_use_id,
            "layout": self.log.layout,
            "path": str(self.log.path),
            "start": _iso(self.start),
            "end": _iso(self.end),
            "duration_s": self.duration_s,
            "model": self.model,
            "status": "failed" if self.failed else "ok",
            "tool_calls": len(self.calls),
            "failures": len(self.failures),
            "spawn_depth": self.spawn_depth,
        }
        if calls:
            out["prompt"] = self.prompt
            out["calls"] = [c.as_dict() for c in self.calls]
            out["final_answer"] = self.final_answer
        return out


def _iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


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
            if entry.text.strip():
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
    )


def link_agents(runs: Sequence[AgentRun], parent_calls: Sequence[ToolCall]) -> list[AgentRun]:
    """Fill in each run's spawning tool use, type and description from the parent's calls."""
    agent_calls = [c for c in parent_calls if c.name in AGENT_TOOLS]
    by_id = {c.id: c for c in agent_calls}
    by_agent = {c.spawned_agent_id: c for c in agent_calls if c.spawned_agent_id}
    used: set[str] = {r.tool_use_id for r in runs if r.tool_use_id in by_id}  # type: ignore[misc]
    linked = []
    for run in sorted(runs, key=lambda r: (r.start is None, r.start.timestamp() if r.start else 0.0)):
        call = by_id.get(run.tool_use_id or "") or by_agent.get(run.agent_id)
        if call is None and run.start is not None:
            call = _nearest_earlier(run.start, [c for c in agent_calls if c.id not in used])
        if call is not None:
            used.add(call.id)
            run = replace(
                run,
                tool_use_id=call.id,
                agent_type=run.agent_type or _str(call.input.get("subagent_type")) or "general-purpose",
                description=run.description or _str(call.input.get("description")),
                prompt=run.prompt or _str(call.input.get("prompt")),
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
    """The session's agent runs, linked to their spawning calls, in start order."""
    runs = [read_agent_run(log) for log in find_agent_logs(session)]
    return link_agents(runs, parent_calls)

