"""One session's tokens and cost: the main conversation, each agent, and the whole.

Owns: `SessionUsage` (what `show`, `info` and `debug-agent` print about tokens) and the
observer that finds agents' usage in their spawning call's result (`AgentResultUsage`:
`toolUseResult.usage` of an `Agent`/`Task` result), which is all that is known of an agent
whose log was not kept. Each agent's own usage comes from its log, or for a 1.0.x inline
agent its thread (`AgentRun.tokens`); nested agents roll up into their parent's
`with_nested` and are listed apart too; 2.0.x warmup logs are billed, so they are listed
(type `warmup`) and counted. The session's total counts every agent once. Does not count tokens (`transcript.tokens`),
read the main transcript (its report's scan feeds `AgentResultUsage`) or print. Counting is `transcript.tokens`', prices `prices`'.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from session_kit.sessions.store import AgentLogRef
from session_kit.transcript.entries import KIND_USER, Entry, read_entries
from session_kit.transcript.tokens import TokenTally, TokenUsage, agent_result_usage
from session_kit.usage.prices import Cost, PriceTable

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: a session with no agent never loads the linker
    from session_kit.sessions.agents import AgentRun

SOURCE_LOG = "log"  # counted from the agent's own log
SOURCE_RESULT = "agent_result"  # no log: the client's figure in the spawning call's result
SOURCE_NONE = "unknown"  # no log, and its result records no usage
WARMUP = "warmup"  # the type given to 2.0.x warmup logs, billed but not agents of the conversation


class AgentResultUsage:
    """Watches a session's entries for `Agent`/`Task` results that carry the agent's usage."""

    def __init__(self) -> None:
        self.by_agent: dict[str, TokenUsage] = {}

    def add(self, entry: Entry) -> None:
        if entry.kind != KIND_USER:
            return
        found = agent_result_usage(entry.raw)
        if found is not None:
            agent_id, model, usage = found
            self.by_agent[agent_id] = TokenUsage(((model, usage),))


@dataclass(frozen=True, slots=True)
class AgentUsage:
    agent_id: str
    agent_type: str | None
    parent_agent_id: str | None
    own: TokenUsage
    with_nested: TokenUsage  # its own and every agent it started, down the tree
    source: str

    def as_dict(self, prices: PriceTable) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "type": self.agent_type,
            "parent_agent_id": self.parent_agent_id,
            "source": self.source,
            "tokens": self.own.as_dict(),
            "cost": prices.cost(self.own).as_dict(),
            "with_nested": {
                "tokens": self.with_nested.total.as_dict(),
                "cost": prices.cost(self.with_nested).as_dict(),
            },
        }


@dataclass(frozen=True, slots=True)
class SessionUsage:
    main: TokenUsage
    agents: tuple[AgentUsage, ...]
    prices: PriceTable

    @property
    def total(self) -> TokenUsage:
        total = self.main
        for agent in self.agents:
            total = total + agent.own
        return total

    @property
    def cost(self) -> Cost:
        return self.prices.cost(self.total)

    def of_agent(self, agent_id: str) -> AgentUsage | None:
        return next((a for a in self.agents if a.agent_id == agent_id), None)

    def as_dict(self) -> dict[str, Any]:
        agents = TokenUsage()
        for agent in self.agents:
            agents = agents + agent.own
        return {
            "prices": self.prices.as_dict(),
            "total": {"tokens": self.total.as_dict(), "cost": self.cost.as_dict()},
            "main": {"tokens": self.main.total.as_dict(), "cost": self.prices.cost(self.main).as_dict()},
            "agents_total": {"tokens": agents.total.as_dict(), "cost": self.prices.cost(agents).as_dict()},
            "agents": [a.as_dict(self.prices) for a in self.agents],
        }


def log_tokens(path: str | os.PathLike[str]) -> TokenUsage:
    """The usage of one log file (a 2.0.x warmup's: not an agent of the conversation, but billed)."""
    tally = TokenTally()
    for entry in read_entries(path):
        tally.add(entry)
    return tally.summary()


def session_usage(
    main: TokenUsage,
    runs: Sequence[AgentRun],
    from_results: Mapping[str, TokenUsage],
    prices: PriceTable,
    *,
    warmups: Sequence[AgentLogRef] = (),
) -> SessionUsage:
    """The session's usage: `main` (its own conversation), each run's log (an inline 1.0.x
    thread's own entries), the agents whose log is missing from their results
    (`from_results`), and the warmup logs."""
    rows: list[tuple[str, str | None, str | None, TokenUsage, str]] = []
    for r in runs:
        if r.log_found:
            rows.append((r.agent_id, r.agent_type, r.parent_agent_id, r.tokens, SOURCE_LOG))
        else:
            known = from_results.get(r.agent_id)
            rows.append(
                (
                    r.agent_id,
                    r.agent_type,
                    r.parent_agent_id,
                    known or TokenUsage(),
                    SOURCE_RESULT if known else SOURCE_NONE,
                )
            )
    listed = {r.agent_id for r in runs}
    rows += [(aid, None, None, usage, SOURCE_RESULT) for aid, usage in from_results.items() if aid not in listed]
    rows += [(w.agent_id, WARMUP, None, log_tokens(w.path), SOURCE_LOG) for w in warmups if w.path is not None]
    children: dict[str | None, list[str]] = {}
    own = {row[0]: row[3] for row in rows}
    for aid, _, parent, _, _ in rows:
        children.setdefault(parent if parent in own else None, []).append(aid)

    def nested(aid: str, path: frozenset[str]) -> TokenUsage:
        total = own[aid]
        for child in children.get(aid, ()):
            if child not in path:  # a log naming itself as its parent must not loop
                total = total + nested(child, path | {child})
        return total

    agents = tuple(
        AgentUsage(aid, kind, parent, usage, nested(aid, frozenset({aid})), source)
        for aid, kind, parent, usage, source in rows
    )
    return SessionUsage(main=main, agents=agents, prices=prices)
