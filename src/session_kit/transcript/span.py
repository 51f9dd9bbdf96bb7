"""A session's span: when it began and when it was last active, by one rule for every reader.

Owns: which entries' times count (`span_time`: the conversation's lines — user, assistant and
system entries, and the seed dialect's tool results; not title lines, the client's
bookkeeping, unknown types, nor any entry without a time) and `Span`, the earliest and the
latest of the times counted, so a start is never later than an end however the lines were
ordered in the file. `sessions` (from a file's head and tail), `show`/`info` and the index (from
every line) all use it. Reads no files; never uses a file's mtime.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from session_kit.transcript.entries import KIND_ASSISTANT, KIND_SYSTEM, KIND_TOOL_RESULT, KIND_USER, Entry

SPAN_KINDS = frozenset({KIND_USER, KIND_ASSISTANT, KIND_SYSTEM, KIND_TOOL_RESULT})


def span_time(entry: Entry) -> datetime | None:
    """The time `entry` gives its session's span, or None when it gives none."""
    return entry.timestamp if entry.kind in SPAN_KINDS else None


class Span(NamedTuple):
    """The earliest and the latest of the times counted (both None when none was)."""

    start: datetime | None = None
    end: datetime | None = None

    def including(self, moment: datetime | None) -> Span:
        """This span widened to hold `moment` (None: unchanged)."""
        if moment is None:
            return self
        start = moment if self.start is None or moment < self.start else self.start
        end = moment if self.end is None or moment > self.end else self.end
        return Span(start, end)


class SpanScan:
    """Watches a session's entries go by (a `Session` observer) and keeps its span."""

    __slots__ = ("start", "end")

    def __init__(self, start: datetime | None = None, end: datetime | None = None) -> None:
        """From nothing, or going on from a span already kept (the index's, between updates)."""
        self.start = start
        self.end = end

    def add(self, entry: Entry) -> None:
        moment = entry.timestamp
        if moment is None or entry.kind not in SPAN_KINDS:  # `span_time`, inline: called per entry
            return
        if self.start is None or moment < self.start:
            self.start = moment
        if self.end is None or moment > self.end:
            self.end = moment

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)
