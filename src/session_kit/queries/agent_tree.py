"""The tree of a session's agents, and picking some of them: what `debug-agent` shows.

Owns: ordering agent runs depth first (each agent followed by the agents it spawned), finding
one agent by id prefix, and selecting agents by failure, type and tool, with the calls of a
tool. The runs themselves come from `sessions.agents`. Does not print.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from session_kit.base.layout import AGENT_PREFIX
from session_kit.errors import Ambiguous, NotFound
from session_kit.sessions.agents import AgentRun
from session_kit.sessions.session import Session
from session_kit.sessions.store import AgentLogRef, SessionRef
from session_kit.transcript.calls import ToolCall, calls_of_tool
from session_kit.transcript.reader import ReadStats
from session_kit.transcript.tokens import TokenUsage
from session_kit.usage.breakdown import AgentResultUsage, SessionUsage, session_usage
from session_kit.usage.prices import load_prices


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
    if wanted.startswith(AGENT_PREFIX):  # an agent id may be given as its log's name
        wanted = wanted[len(AGENT_PREFIX) :]
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
    """One agent (`agent`: an id prefix); else those of `agent_type` and those that called
    `tool` (both case-insensitive), among all agents, failed or not; else every agent
    (`all_agents`) or the failed ones."""
    tree = agent_tree(runs)
    chosen_id = find_agent(runs, agent).agent_id if agent else None

    def wanted(node: AgentNode) -> bool:
        run = node.run
        if chosen_id is not None:
            return run.agent_id == chosen_id
        if agent_type and (run.agent_type or "").lower() != agent_type.lower():
            return False
        if tool and not calls_of_tool(run.calls, tool):
            return False
        # a filter chooses among all agents: `--type Plan` must show the Plan agent that worked
        return all_agents or run.failed or bool(agent_type or tool)

    shown = tuple(n for n in tree if wanted(n))
    picked = {n.run.agent_id for n in shown}
    return AgentSelection(
        shown=shown,
        others=tuple(n for n in tree if n.run.agent_id not in picked),
        total=len(runs),
        failed=sum(1 for r in runs if r.failed),
    )


@dataclass(frozen=True, slots=True)
class AgentReport:
    """What `debug-agent` shows of a session: the selection, each shown agent's calls (of
    `tool` only, when given), and what reading the main transcript met."""

    ref: SessionRef
    selection: AgentSelection
    tool: str | None
    read: ReadStats
    usage: SessionUsage | None = None  # each agent's tokens and cost, nested agents rolled up
    warmups: tuple[AgentLogRef, ...] = ()  # warmup and compaction-summariser logs: shown apart, never agents

    def calls(self, node: AgentNode) -> list[ToolCall]:
        return calls_of_tool(node.run.calls, self.tool)

    def as_dict(self) -> dict[str, Any]:
        shown = []
        for node in self.selection.shown:
            item = node.as_dict()
            item["calls"] = [c.as_dict() for c in self.calls(node)]
            agent_usage = self.usage.of_agent(node.run.agent_id) if self.usage is not None else None
            item["usage"] = agent_usage.as_dict(self.usage.prices) if agent_usage and self.usage else None
            shown.append(item)
        others = [
            {k: n.run.as_dict(calls=False)[k] for k in ("agent_id", "type", "description", "parent_agent_id", "status")}
            for n in self.selection.others
        ]
        return {
            "session_id": self.ref.id,
            "path": str(self.ref.path),
            "total": self.selection.total,
            "failed": self.selection.failed,
            "agents": shown,
            "others": others,
            "warmups": [
                {"agent_id": w.agent_id, "path": str(w.path), "kind": "compaction" if w.compaction else "warmup"}
                for w in self.warmups
            ],
            "read": self.read.as_dict(),
        }


def debug_agents(
    ref: SessionRef,
    *,
    agent: str | None = None,
    all_agents: bool = False,
    agent_type: str | None = None,
    tool: str | None = None,
) -> AgentReport:
    """The session's agents as `select_agents` picks them (see there)."""
    session = Session(ref, keep_payload=True)
    results = AgentResultUsage()  # what the results of agents without a log say they used
    session.scan(results)
    picked = select_agents(session.agents, agent=agent, all_agents=all_agents, agent_type=agent_type, tool=tool)
    usage = session_usage(TokenUsage(), session.agents, results.by_agent, load_prices())
    return AgentReport(ref, picked, tool, session.read, usage=usage, warmups=tuple(session.warmups))
