"""Token usage of a stream of entries, counted once per API message.

Owns: adding up the `usage` of assistant entries, once per message id (the client repeats a
message's usage on each of the lines it writes it as). Reads no files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from session_kit.transcript.entries import KIND_ASSISTANT, Entry, count_value


@dataclass(slots=True)
class TokenTally:
    """Token usage counted once per API message id (the client repeats usage per block)."""

    input: int = 0
    output: int = 0
    cache_creation: int = 0
    cache_read: int = 0
    messages: int = 0
    _seen: set[str] = field(default_factory=set, repr=False)

    def add(self, entry: Entry) -> None:
        if entry.kind != KIND_ASSISTANT:
            return
        usage = entry.usage
        if not usage:
            return
        key = entry.message_id or entry.uuid or f"line:{entry.line}"
        if key in self._seen:
            return
        self._seen.add(key)
        self.messages += 1
        self.input += _int(usage.get("input_tokens"))
        self.output += _int(usage.get("output_tokens"))
        self.cache_creation += _int(usage.get("cache_creation_input_tokens"))
        self.cache_read += _int(usage.get("cache_read_input_tokens"))

    def as_dict(self) -> dict[str, int]:
        return {
            "input": self.input,
            "output": self.output,
            "cache_creation": self.cache_creation,
            "cache_read": self.cache_read,
            "total": self.input + self.output + self.cache_creation + self.cache_read,
            "messages": self.messages,
        }


def _int(value: Any) -> int:
    return count_value(value) or 0
