"""Comparing what a command says of a session with its truth: the shared rules (how a text
is compared, how a command's agents are matched with the truth's)."""

from __future__ import annotations

from typing import Any

from tests.real.corpus import Truth


def words(text: str | None) -> str | None:
    """A text with its white space folded: commands print requests on one line."""
    return " ".join(text.split()) if text is not None else None


def same_start(shown: str | None, truth: str | None) -> bool:
    """A command's (possibly cut) text is the truth's, or its start up to an ellipsis."""
    shown, truth = words(shown), words(truth)
    if shown is None or truth is None:
        return shown == truth
    if shown == truth:
        return True
    cut = shown.rstrip("…").rstrip()
    return len(cut) >= 40 and truth.startswith(cut)


def agent_key(agent: dict[str, Any], *, id_field: str = "agent_id") -> str | None:
    return agent.get(id_field)


def match_agents(
    truth: Truth,
    shown: list[dict[str, Any]],
    *,
    id_field: str = "agent_id",
    call_field: str | None = "tool_use_id",
    agents: list[dict[str, Any]] | None = None,
) -> tuple[list[tuple[dict, dict]], list[dict], list[dict]]:
    """Pairs (truth's agent, command's agent), the truth's agents (or `agents`, some of them)
    the command left out, and the command's agents the truth does not have. An agent is
    matched by the client's id, else by its spawning call."""
    left = list(shown)
    pairs, missing = [], []
    for agent in truth.agents if agents is None else agents:
        found = None
        if agent.get("agent_id"):
            found = next((a for a in left if a.get(id_field) == agent["agent_id"]), None)
        if found is None and agent.get("tool_use_id") and call_field:
            found = next((a for a in left if a.get(call_field) == agent["tool_use_id"]), None)
        if found is None:
            missing.append(agent)
        else:
            left.remove(found)
            pairs.append((agent, found))
    return pairs, missing, left


def describe(agent: dict[str, Any]) -> str:
    return agent.get("agent_id") or agent.get("tool_use_id") or agent.get("log") or "?"
