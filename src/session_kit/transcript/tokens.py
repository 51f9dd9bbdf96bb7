"""Token usage of a stream of entries, counted once per API message.

Owns: the one accounting of tokens every command shares — what one API message's `usage`
says as a value (`Usage`: input, output, cache read, cache write by tier — 5-minute and
1-hour — and server-side tool use; the reading itself is `usagefields`', shared with the
status line), what an `Agent`/`Task` result reports of its agent's usage
(`agent_result_usage`), and adding messages up per model (`TokenTally`), once per API message
(`count_key`: `message.id`, else `requestId`, else the line's `uuid`). One API response is
written as several lines that repeat its usage, and older clients wrote each line as its
block streamed, so the first line's `output_tokens` is a partial count: the LAST line of a
message is the one kept. Lines repeated by a resumed or copied file count once. The index
keeps each message's usage by the same key and rule (`index.rows`), the status line too
(`usagefields`). Does not read files, price tokens (`usage.prices`) or know about agents and
sessions (`usage.breakdown`, `usage.history`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from session_kit.transcript.usagefields import UNKNOWN_MODEL, count_key, message_key, usage_fields
from session_kit.transcript.usagefields import agent_result_fields as _agent_result_fields
from session_kit.transcript.usagefields import assistant_usage as _assistant_fields

if TYPE_CHECKING:
    from session_kit.transcript.entries import Entry

__all__ = [
    "UNKNOWN_MODEL",
    "TokenTally",
    "TokenUsage",
    "Usage",
    "agent_result_usage",
    "assistant_usage",
    "count_key",
    "message_key",
    "usage_of",
]


class Usage(NamedTuple):
    """Tokens of one or more API messages, by kind; `messages` counts the messages."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    web_search: int = 0  # server-side tool requests, billed per request
    web_fetch: int = 0
    messages: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(*(a + b for a, b in zip(_fields(self), _fields(other))))

    def __sub__(self, other: Usage) -> Usage:
        return Usage(*(a - b for a, b in zip(_fields(self), _fields(other))))

    @property
    def cache_write(self) -> int:
        return self.cache_write_5m + self.cache_write_1h

    @property
    def tokens(self) -> int:
        """Every token billed: input, output, cache read and cache write."""
        return self.input + self.output + self.cache_read + self.cache_write

    def as_dict(self) -> dict[str, int]:
        return {
            "input": self.input,
            "output": self.output,
            "cache_read": self.cache_read,
            "cache_write_5m": self.cache_write_5m,
            "cache_write_1h": self.cache_write_1h,
            "cache_creation": self.cache_write,  # both tiers, as the client's own field adds them
            "total": self.tokens,
            "messages": self.messages,
            "web_search_requests": self.web_search,
            "web_fetch_requests": self.web_fetch,
        }


def _fields(u: Usage) -> tuple[int, ...]:
    return (u.input, u.output, u.cache_read, u.cache_write_5m, u.cache_write_1h, u.web_search, u.web_fetch, u.messages)


ZERO = Usage()


class TokenUsage(NamedTuple):
    """Usage per model (sorted by model name); `total` adds them up."""

    by_model: tuple[tuple[str, Usage], ...] = ()

    @property
    def total(self) -> Usage:
        total = ZERO
        for _, usage in self.by_model:
            total = total + usage
        return total

    @property
    def models(self) -> tuple[str, ...]:
        return tuple(m for m, _ in self.by_model)

    def of_model(self, model: str) -> TokenUsage:
        """This usage's part for one model."""
        return TokenUsage(tuple((m, u) for m, u in self.by_model if m == model))

    def __add__(self, other: TokenUsage) -> TokenUsage:
        merged = dict(self.by_model)
        for model, usage in other.by_model:
            merged[model] = merged.get(model, ZERO) + usage
        return TokenUsage(tuple(sorted(merged.items())))

    def as_dict(self) -> dict[str, Any]:
        return {**self.total.as_dict(), "by_model": {m: u.as_dict() for m, u in self.by_model}}


def usage_of(usage: Mapping[str, Any]) -> Usage:
    """One API message's `usage` object; malformed fields count as zero."""
    return Usage(*usage_fields(dict(usage)))


def assistant_usage(raw: Mapping[str, Any]) -> tuple[str, Usage] | None:
    """`(model, usage)` of an assistant line that carries usage, or None."""
    found = _assistant_fields(raw if isinstance(raw, dict) else dict(raw))
    return None if found is None else (found[0], Usage(*found[1]))


def agent_result_usage(raw: Mapping[str, Any]) -> tuple[str, str, Usage] | None:
    """`(agent id, model, usage)` an `Agent`/`Task` result reports of its agent (its
    `toolUseResult`), or None. Only the agent's last request: a floor of what its log held."""
    found = _agent_result_fields(raw if isinstance(raw, dict) else dict(raw))
    return None if found is None else (found[0], found[1], Usage(*found[2]))


class TokenTally:
    """Adds up the usage of a stream of entries, once per API message, the last line of a
    message winning. `seen` may be shared between tallies (several files of one history): a
    message another tally already holds is not counted again."""

    def __init__(self, *, seen: dict[str, object] | None = None) -> None:
        self._messages: dict[str, tuple[str, Usage]] = {}
        self._seen = seen if seen is not None else {}

    def add(self, entry: Entry) -> None:
        self.add_raw(entry.raw, entry.line)

    def add_raw(self, raw: Mapping[str, Any], line: int) -> None:
        found = assistant_usage(raw)
        if found is None:
            return
        key = count_key(raw) or f"line:{id(self)}:{line}"
        owner = self._seen.setdefault(key, self)
        if owner is self:
            self._messages[key] = found

    @property
    def messages(self) -> int:
        return len(self._messages)

    def summary(self) -> TokenUsage:
        per_model: dict[str, Usage] = {}
        for model, usage in self._messages.values():
            per_model[model] = per_model.get(model, ZERO) + usage
        return TokenUsage(tuple(sorted(per_model.items())))

    # The totals by kind, for callers that want one figure.
    @property
    def input(self) -> int:
        return self.summary().total.input

    @property
    def output(self) -> int:
        return self.summary().total.output

    def as_dict(self) -> dict[str, Any]:
        return self.summary().as_dict()
