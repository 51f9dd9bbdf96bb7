"""How tokens and cost read on the terminal, for every command that prints them.

Owns: the words and number formats of a `SessionUsage` (`show`, `info`, `debug-agent`) and
of one `Usage`. Does not count or price: that is the core's (`usage`).
"""

from __future__ import annotations

from typing import Any

from session_kit.cli.text import plural


def human_tokens(n: int) -> str:
    """`950`, `12.3k`, `16.5M`: every token figure a command prints reads this way."""
    if n < 1000:
        return str(n)
    if n < 999_950:  # what rounds to 1000.0k reads 1.0M
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.1f}M"


FLOOR = "≥"  # a figure that is a floor: the true one is higher


def usage_text(tokens: Any, cost: Any, *, floor: bool = False) -> str:
    """One usage (a `Usage`) and its `Cost` in a line; `floor`: marked as a floor (`≥`)."""
    mark = FLOOR if floor else ""
    h = human_tokens
    return (
        f"{mark}{h(tokens.tokens)} tokens, {cost.display()} (input {h(tokens.input)}, output {h(tokens.output)}, "
        f"cache read {h(tokens.cache_read)}, cache write 5m {h(tokens.cache_write_5m)} / 1h {h(tokens.cache_write_1h)}"
        + (f", web search {tokens.web_search}" if tokens.web_search else "")
        + f"; {plural(tokens.messages, 'API message')})"
    )


def usage_lines(usage: Any, *, value_column: int = 13) -> list[str]:
    """The `tokens:` lines of `show` and `info`: the session's total, its own and its agents',
    their figures starting at `value_column` (where the card's other values start)."""
    if usage is None:
        return []
    prices = usage.prices

    def labelled(label: str, text: str) -> str:
        return f"{label:<{value_column - 1}} {text}"

    lines = [labelled("  tokens:", usage_text(usage.total.total, usage.cost, floor=usage.floor))]
    if usage.floor:
        lines.append(f"    {FLOOR}: includes an agent's figure from its result, which counts only its last request")
    if usage.agents:
        lines.append(labelled("    main:", usage_text(usage.main.total, prices.cost(usage.main))))
        for agent in usage.agents:
            where = {
                "result": " (no log: its result's figure, which counts only its last request)",
                "unknown": " (no log, and its result records no usage)",
            }.get(agent.source, "")
            text = usage_text(agent.own.total, prices.cost(agent.own), floor=agent.floor)
            lines.append(labelled(f"    agent {agent.agent_id[:12]}:", text + where))
    if len(usage.total.by_model) > 1:
        models = "; ".join(
            f"{model} {human_tokens(u.tokens)}, {prices.cost(usage.total.of_model(model)).display()}"
            for model, u in usage.total.by_model
        )
        lines.append(f"    by model: {models}")
    unknown = usage.cost.unknown_models
    if unknown:
        lines.append(f"    no price for {', '.join(unknown)}: left out of the cost")
    lines.append(f"    prices of {prices.date}" + (f" ({prices.override})" if prices.override else ""))
    return lines


def agent_tokens(usage: Any, agent_id: str) -> str:
    """`12.3k tokens, $0.04` for one agent, its nested agents included."""
    agent = usage.of_agent(agent_id) if usage is not None else None
    if agent is None:
        return "tokens unknown"
    total = agent.with_nested
    nested = " with its agents" if total != agent.own else ""
    mark = FLOOR if agent.floor else ""
    return f"{mark}{human_tokens(total.total.tokens)} tokens{nested}, {usage.prices.cost(total).display()}"
