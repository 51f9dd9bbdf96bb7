"""Compactions: where a session's context was compacted, and the summary that replaced it.

Owns: finding compaction boundaries in a stream of entries: a `compact_boundary` system
entry followed by its `isCompactSummary` user entry (every client since 1.0.x), and, only in
the seed docs' dialect and only where a file has no boundary at all, a `summary` entry.
Elsewhere a `summary` line is a session title (`titles`), never a compaction. Reads no files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, NamedTuple

from session_kit.transcript.entries import KIND_SUMMARY, KIND_TOOL_RESULT, Entry, count_value, format_timestamp

DIALECT_CURRENT = "current"  # compact_boundary + isCompactSummary
DIALECT_2025 = "2025"  # a `summary` entry, read as a compaction in seed-dialect files only


class Compaction(NamedTuple):
    """A point where the context was compacted, and the summary that replaced it."""

    line: int
    timestamp: datetime | None
    trigger: str | None = None  # manual | auto, when recorded
    pre_tokens: int | None = None
    summary: str | None = None
    dialect: str = DIALECT_CURRENT  # current: compact_boundary; 2025: a `summary` entry

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "timestamp": format_timestamp(self.timestamp),
            "trigger": self.trigger,
            "pre_tokens": self.pre_tokens,
            "summary": self.summary,
            "dialect": self.dialect,
        }


def find_compactions(entries: Iterable[Entry], *, seed_dialect: bool = False) -> list[Compaction]:
    """Compaction boundaries; in a seed-dialect file (`seed_dialect`) without any, its
    `summary` entries (the seed docs' compactions)."""
    found: list[Compaction] = []
    seed: list[Compaction] = []
    pending: int | None = None  # index in `found` of a boundary still waiting for its summary
    for entry in entries:
        if entry.is_compact_boundary:
            meta = entry.raw.get("compactMetadata")
            meta = meta if isinstance(meta, Mapping) else {}
            pre = meta.get("preTokens")
            found.append(
                Compaction(
                    line=entry.line,
                    timestamp=entry.timestamp,
                    trigger=meta.get("trigger") if isinstance(meta.get("trigger"), str) else None,
                    pre_tokens=count_value(pre),
                )
            )
            pending = len(found) - 1
        elif entry.is_compact_summary and pending is not None:
            found[pending] = found[pending]._replace(summary=entry.text)
            pending = None
        elif entry.kind == KIND_SUMMARY and seed_dialect:
            seed.append(
                Compaction(
                    line=entry.line,
                    timestamp=entry.timestamp,
                    summary=entry.summary_text,
                    dialect=DIALECT_2025,
                )
            )
    return found or seed


def is_seed_dialect(entry: Entry) -> bool:
    """An entry only the seed docs' dialect writes: a top-level `tool_result`, or a
    conversation entry timed by `message.timestamp` alone."""
    if entry.kind == KIND_TOOL_RESULT:
        return True
    return entry.is_conversation and "timestamp" not in entry.raw and "timestamp" in entry.message
