"""How the command line prints: JSON documents and the pieces of its text output.

Owns: the `--json` envelope (`version`, `kind`: the command's name; see docs/json.md), times,
durations and sizes as the text outputs show them, cutting and cleaning text for a terminal,
redacting secrets in both (through `api.shown`: before anything is cut; `--no-redact` turns
it off for a command),
the outcome of a tool call and the status of an agent in one short string, and the note about
lines skipped while reading. Does not compute anything about a session: it formats values the
core made.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from session_kit import api
from session_kit.errors import Skipped

JSON_VERSION = 2  # 2: kinds are the command names (see docs/json.md)


def emit_json(kind: str, payload: dict[str, Any], *, redact: bool = True) -> None:
    """One JSON document on stdout: `{"version": 2, "kind": kind, **payload}`, its strings
    redacted (`redact=False`: for documents that carry no transcript text)."""
    document = {"version": JSON_VERSION, "kind": kind, **(api.shown_value(payload) if redact else payload)}
    # Compact on purpose: with `indent`, json falls back to its slow pure-Python encoder.
    try:
        text = json.dumps(document, ensure_ascii=False, allow_nan=False)
    except (ValueError, RecursionError):  # a value JSON cannot hold, copied from a transcript
        text = json.dumps(json_safe(document), ensure_ascii=False, allow_nan=False)
    sys.stdout.write(text + "\n")


JSON_DEPTH = 100  # deeper values (a transcript's tool input nested for spite) are cut


def json_safe(value: Any, depth: int = 0) -> Any:
    """`value` with what valid JSON cannot hold made null (1e400, integers past 4,300 digits)
    and anything nested deeper than JSON_DEPTH replaced by "…"."""
    if isinstance(value, float):
        return value if value - value == 0 else None  # inf - inf and nan - nan are nan
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) < 10**4000 else None
    if isinstance(value, (dict, list, tuple)):
        if depth >= JSON_DEPTH:
            return "…"
        if isinstance(value, dict):
            return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
        return [json_safe(v, depth + 1) for v in value]
    return value


@contextmanager
def printable_run() -> Iterator[None]:
    """Around a command: text out is valid whatever a transcript holds (lone surrogates
    become U+FFFD: `api.TEXT_ERRORS`), and each file a read passed over (`Skipped`) is
    one note on stderr."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=api.TEXT_ERRORS)
    with warnings.catch_warnings():
        warnings.simplefilter("default", Skipped)  # each file once
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
            if issubclass(category, Skipped):
                click.echo(f"session-kit: note: {message}", err=True)
            else:
                shown(message, category, *args, **kwargs)

        warnings.showwarning = show
        yield


def local_time(value: datetime | None) -> str:
    return _local(value, "%Y-%m-%d %H:%M")


def clock(value: datetime | None) -> str:
    """A local time to the second (`local_time` stops at the minute)."""
    return _local(value, "%Y-%m-%d %H:%M:%S")


def _local(value: datetime | None, form: str) -> str:
    if value is None:
        return "-"
    try:
        return value.astimezone().strftime(form)
    except (OverflowError, ValueError, OSError):  # year 1 or 9999 has no local time east or west of UTC
        return value.strftime(form + " %z")


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


def clip(text: str | None, limit: int) -> str:
    """The text redacted, on one line (whitespace runs made one space), cut to `limit` characters."""
    text = " ".join(api.shown(text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0, 9), *range(11, 32), 127)}


def visible(text: str | None) -> str:
    """The text redacted, its control characters written out (`\\x1b`): a transcript must not
    drive the terminal."""
    return api.shown(text or "").translate(_CONTROL)


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


def warn_skipped(stats: api.ReadStats, path: Path) -> None:
    """One line on stderr when reading `path` skipped lines (malformed, half-written…)."""
    described = stats.describe()
    if described:
        click.echo(f"session-kit: note: {path.name}: skipped {described}", err=True)


def plural(count: int, noun: str) -> str:
    """`1 other agent`, `3 other agents`."""
    return f"{count} {noun}{'s' if count != 1 else ''}"


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
