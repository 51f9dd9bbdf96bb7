"""The numbers of one API message's `usage`, and what makes lines one message: the part of
the token accounting the status line needs, in plain tuples.

Owns: `FIELDS` (the order of the numbers), `usage_fields` (a `usage` object to those numbers:
`cache_creation_input_tokens` split into the 5-minute and 1-hour tiers of
`usage.cache_creation`, writes no tier accounts for counted as 5-minute ones, server-side web search and fetch requests,
malformed fields as zero), `message_key` (`message.id`, else `requestId`), `count_key` (the
key a line's usage is counted under: its message key, else its `uuid`), `assistant_usage` (the model and usage of an assistant line; the client's `<synthetic>`
lines are no API call) and `agent_result_fields` (the usage an `Agent` result reports of its agent). `transcript.tokens` builds its values on these. Does not add messages up
(`transcript.tokens`) and imports nothing, not even `typing`: the status line runs in a
hook's time budget.
"""

from __future__ import annotations

FIELDS = ("input", "output", "cache_read", "cache_write_5m", "cache_write_1h", "web_search", "web_fetch", "messages")
MAX_COUNT = 10**15  # entries.MAX_COUNT: a count past it is no count (a test keeps them equal)
SYNTHETIC_MODEL = "<synthetic>"
UNKNOWN_MODEL = "(unknown)"


def _int(value: object) -> int:
    return value if type(value) is int and 0 < value <= MAX_COUNT else 0


def usage_fields(usage: dict) -> tuple:
    """One message's usage as numbers in `FIELDS` order (`messages` is 1)."""
    tiers = usage.get("cache_creation")
    w5 = w1 = 0
    if isinstance(tiers, dict):
        w5 = _int(tiers.get("ephemeral_5m_input_tokens"))
        w1 = _int(tiers.get("ephemeral_1h_input_tokens"))
    if "cache_creation_input_tokens" in usage:
        # The total is what is billed; the tiers only split it. Writes no tier accounts for
        # (older clients wrote no tiers) are 5-minute writes, the API's default; tiers that
        # add up to more than the total are cut to it, the 1-hour tier kept first.
        write = _int(usage.get("cache_creation_input_tokens"))
        w1 = min(w1, write)
        w5 = write - w1
    server = usage.get("server_tool_use")
    search = fetch = 0
    if isinstance(server, dict):
        search = _int(server.get("web_search_requests"))
        fetch = _int(server.get("web_fetch_requests"))
    return (
        _int(usage.get("input_tokens")),
        _int(usage.get("output_tokens")),
        _int(usage.get("cache_read_input_tokens")),
        w5,
        w1,
        search,
        fetch,
        1,
    )


def message_key(raw: dict) -> str | None:
    """What makes lines one API message: its `message.id`, else the line's `requestId`."""
    message = raw.get("message")
    if isinstance(message, dict):
        mid = message.get("id")
        if isinstance(mid, str) and mid:
            return mid
    rid = raw.get("requestId")
    return f"req:{rid}" if isinstance(rid, str) and rid else None


def count_key(raw: dict) -> str | None:
    """The key a line's usage counts under, the last line of a key winning: its message key,
    else its `uuid` (a copied file repeats it). None: the line is a message of its own."""
    key = message_key(raw)
    if key is not None:
        return key
    uuid = raw.get("uuid")
    return f"uuid:{uuid}" if isinstance(uuid, str) and uuid else None


def assistant_usage(raw: dict) -> tuple | None:
    """`(model, usage fields)` of an assistant line that carries usage, or None."""
    if raw.get("type") != "assistant":
        return None
    message = raw.get("message")
    message = message if isinstance(message, dict) else {}
    usage = message.get("usage")
    if not isinstance(usage, dict):
        usage = raw.get("usage")
    if not isinstance(usage, dict):
        return None
    model = message.get("model")
    if model == SYNTHETIC_MODEL:
        return None
    return (model if isinstance(model, str) and model else UNKNOWN_MODEL), usage_fields(usage)


def agent_result_fields(raw: dict) -> tuple | None:
    """`(agent id, model, usage fields)` an `Agent`/`Task` result reports of its agent (the
    line's `toolUseResult`), or None. Only the agent's last request: a floor of its log's."""
    extra = raw.get("toolUseResult")
    if not isinstance(extra, dict):
        return None
    agent_id, usage = extra.get("agentId"), extra.get("usage")
    if not (isinstance(agent_id, str) and agent_id and isinstance(usage, dict)):
        return None
    model = extra.get("resolvedModel")
    return agent_id, (model if isinstance(model, str) and model else UNKNOWN_MODEL), usage_fields(usage)
