"""One session's tokens and cost: the main conversation, each agent, and the whole.

Owns: `SessionUsage` (what `show`, `info` and `debug-agent` print about tokens) and the
observer that finds agents' usage in their spawning call's result (`AgentResultUsage`:
`toolUseResult.usage` of an `Agent`/`Task` result), which is all that is known of an agent
whose log was not kept, and a floor (it covers only the agent's last request): every agent
figure and every total says whether it is one (`floor`). Which figure an agent gets is the
agent model's rule (`AgentRun.token_figure`); nested agents roll up into their parent's
`with_nested` and are listed apart too; 2.0.x warmup logs are billed, so they are listed
(type `warmup`) and counted. The session's total counts every agent once. Does not count tokens (`transcript.tokens`),
read the main transcript (its report's scan feeds `AgentResultUsage`) or print. Counting is `transcript.tokens`', prices `prices`'.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from session_kit.sessions.store import AgentLogRef
from session_kit.transcript.agent_signals import SOURCE_LOG, SOURCE_RESULT
from session_kit.transcript.entries import KIND_USER, Entry, read_entries
from session_kit.transcript.tokens import TokenTally, TokenUsage, agent_result_usage
from session_kit.usage.prices import Cost, PriceTable

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: a session with no agent never loads the linker
    from session_kit.sessions.agents import AgentRun

SOURCE_NONE = "unknown"  # no log, and its result records no usage
WARMUP = "warmup"  # the type given to 2.0.x warmup logs, billed but not agents of the conversation
COMPACTION = "compaction"  # the type given to the client's compaction summariser's log (2.1.x), likewise


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


class AgentUsage(NamedTuple):
    agent_id: str
    agent_type: str | None
    parent_agent_id: str | None
    own: TokenUsage
    with_nested: TokenUsage  # its own and every agent it started, down the tree
    source: str

    @property
    def floor(self) -> bool:
        """Its tokens are a floor: the result's usage covers only the agent's last request."""
        return self.source == SOURCE_RESULT

    def as_dict(self, prices: PriceTable) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "type": self.agent_type,
            "parent_agent_id": self.parent_agent_id,
            "source": self.source,
            "floor": self.floor,
            "tokens": self.own.as_dict(),
            "cost": prices.cost(self.own).as_dict(),
            "with_nested": {
                "tokens": self.with_nested.total.as_dict(),
                "cost": prices.cost(self.with_nested).as_dict(),
            },
        }


class SessionUsage(NamedTuple):
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

    @property
    def floor(self) -> bool:
        """The total includes an agent's floor (see `AgentUsage.floor`): the true total is higher."""
        return any(agent.floor for agent in self.agents)

    def of_agent(self, agent_id: str) -> AgentUsage | None:
        return next((a for a in self.agents if a.agent_id == agent_id), None)

    def as_dict(self) -> dict[str, Any]:
        agents = TokenUsage()
        for agent in self.agents:
            agents = agents + agent.own
        return {
            "prices": self.prices.as_dict(),
            "total": {"tokens": self.total.as_dict(), "cost": self.cost.as_dict(), "floor": self.floor},
            "main": {
                "tokens": self.main.total.as_dict(),
                "cost": self.prices.cost(self.main).as_dict(),
                "floor": False,
            },
            "agents_total": {
                "tokens": agents.total.as_dict(),
                "cost": self.prices.cost(agents).as_dict(),
                "floor": self.floor,
            },
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
        tokens, source = r.token_figure  # the agent model's one rule: its log, else its result
        if source is None and (known := from_results.get(r.agent_id)) is not None:
            tokens, source = known, SOURCE_RESULT
        rows.append((r.agent_id, r.agent_type, r.parent_agent_id, tokens, source or SOURCE_NONE))
    listed = {r.agent_id for r in runs}
    rows += [(aid, None, None, usage, SOURCE_RESULT) for aid, usage in from_results.items() if aid not in listed]
    rows += [
        (w.agent_id, COMPACTION if w.compaction else WARMUP, None, log_tokens(w.path), SOURCE_LOG)
        for w in warmups
        if w.path is not None
    ]
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
