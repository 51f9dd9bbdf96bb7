"""The pieces of the text outputs: times, durations, sizes, counts, and transcript text made
fit to show.

Owns: times (UTC to the second, with `Z`: the zone `--json` uses), durations and sizes as
the text outputs show them, plurals, capped lists with a count of the rest, a compaction
summary on one line, and transcript text for a terminal: redacted first (through
`api.shown`; `--no-redact` turns it off for a command), then cleaned (`terminal.safe`) and
cut (`clip`, `as_is`, `visible`).
Does not: compute anything about a session (it formats values the core made), colour text
(`style`), lay out tables (`tables`) or write JSON (`envelope`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from session_kit import api

TIME_FORMAT = "%Y-%m-%d %H:%M:%SZ"  # UTC, as --json gives times (docs/reference/json.md)
TIME_WIDTH = len("2026-01-01 00:00:00Z")


def local_time(value: datetime | None) -> str:
    """A time as every text output shows it: UTC to the second, with `Z` (the zone of --json)."""
    if value is None:
        return "-"
    try:
        return value.astimezone(timezone.utc).strftime(TIME_FORMAT)
    except (OverflowError, ValueError, OSError):  # year 1 or 9999 east or west of UTC has no UTC time
        return value.strftime("%Y-%m-%d %H:%M:%S %z")


clock = local_time  # the name the session commands use


def capped(items: Sequence[Any], *, full: bool, limit: int) -> tuple[Sequence[Any], str | None]:
    """The first `limit` items (all with `full`), and the line that says how many more there are."""
    if full or len(items) <= limit:
        return items, None
    rest = len(items) - limit
    return items[:limit], f"… and {rest} more (--full lists all)"


def human_duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{(seconds % 3600) // 60:02d}m"


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "K", "M", "G"):
        if value < 1024 or unit == "G":
            return f"{value:.0f}{unit}" if unit == "B" else f"{value:.1f}{unit}"
        value /= 1024
    return f"{size}B"


def clip(text: str | None, limit: int | None) -> str:
    """The text redacted, on one line (whitespace runs made one space), made safe for a
    terminal (`terminal.safe`), cut to `limit` characters: redacted before the cut, so a cut
    never leaves the head of a secret behind."""
    text = api.safe_text(" ".join(api.shown(text or "").split()))
    return text if limit is None or len(text) <= limit else text[: max(0, limit - 1)] + "…"


def visible(text: str | None) -> str:
    """The text redacted, its control, bidi and invisible characters written out (`\\u001b`,
    `terminal.safe`): a transcript must not drive the terminal."""
    return api.safe_text(api.shown(text or ""))


def as_is(text: str | None, limit: int | None, indent: str) -> list[str]:
    """Text kept as written (lines, markup and all; control characters made visible), cut
    after `limit` characters."""
    text = visible(text).rstrip()
    cut = ""
    if limit is not None and len(text) > limit:
        cut = f"… [{len(text) - limit} more characters; --full shows all]"
        text = text[:limit]
    lines = text.splitlines() or [""]
    if cut:
        lines[-1] += cut
    return [indent + line for line in lines]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 other agent`, `3 other agents`; `many` where adding an `s` is wrong (`1 entry`, `2 entries`)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def summary_text(summary: str | None) -> str:
    """A compaction summary without the client's framing, on one line."""
    if not summary:
        return ""
    text = summary
    marker = "Summary:"
    if marker in text:
        text = text.split(marker, 1)[1]
    text = text.split("If you need specific details from before compaction", 1)[0]
    return " ".join(text.split())
