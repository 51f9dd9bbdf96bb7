"""How the command line prints: JSON documents and the pieces of its text output.

Owns: the `--json` envelope (`version`, `kind`: the command's name; see docs/reference/json.md; indented
on a terminal), times (UTC to the second, with `Z`: the zone `--json` uses), durations and sizes
as the text outputs show them, plurals, colour (when it is on: `NO_COLOR`, `TERM=dumb` and pipes
turn it off, `FORCE_COLOR` on), tables whose columns stay aligned and fit the terminal (the
flexible column is cut, never an id), capped lists with a count of the rest, cutting and
cleaning text for a terminal,
redacting secrets in both (through `api.shown`: before anything is cut; `--no-redact` turns
it off for a command),
the outcome of a tool call and the status of an agent in one short string, and the note about
lines skipped while reading. Does not compute anything about a session: it formats values the
core made.
"""

from __future__ import annotations

import json
import os
import re
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

import click

from session_kit import api
from session_kit.errors import Skipped

JSON_VERSION = 2  # 2: kinds are the command names (see docs/reference/json.md)


def emit_json(kind: str, payload: dict[str, Any], *, redact: bool = True) -> None:
    """One JSON document on stdout: `{"version": 2, "kind": kind, **payload}`, its strings
    redacted (`redact=False`: for documents that carry no transcript text)."""
    document = {"version": JSON_VERSION, "kind": kind, **(api.shown_value(payload) if redact else payload)}
    # Compact for programs on purpose: with `indent`, json falls back to its slow pure-Python
    # encoder; a person at a terminal gets it indented (as `gh` and `uv` do).
    indent = 2 if _isatty(sys.stdout) else None
    sys.stdout.write(_dumps(document, indent) + "\n")


JSON_LIST_BATCH = 128  # items redacted in one pass: a pass costs about the same for 1 as for 100


def emit_json_list(kind: str, payload: dict[str, Any], key: str, items: Iterable[dict[str, Any]]) -> None:
    """`emit_json(kind, {**payload, key: list(items)})`, byte for byte, written as the items
    come (redacted a batch at a time): a list of thousands is never held, nor its text."""
    emit_json_parts(kind, payload, key, map(json_items, _batched(items, JSON_LIST_BATCH)))


def json_items(batch: list[dict[str, Any]], shown: list[bool] | None = None) -> list[str]:
    """The items of a list as `emit_json_parts` writes them: redacted, as JSON (indented for a
    terminal, as `emit_json` would; else the batch as one text, joined as the list joins
    them). `shown`: which items the caller has already made as shown, every string redacted
    (`sessions.overview.shown_overviews`): those are only written."""
    indent = 2 if _isatty(sys.stdout) else None
    if shown is not None and any(shown):
        todo = [item for item, done in zip(batch, shown) if not done]
        redacted = iter(_shown_items(todo) if todo else [])
        batch = [item if done else next(redacted) for item, done in zip(batch, shown)]
    else:
        batch = _shown_items(batch)
    if indent:
        return [_dumps(item, indent, depth=2).replace("\n", "\n    ") for item in batch]
    if not batch:
        return []
    try:  # one call for the batch: the list's items as `emit_json_parts` joins them
        return [json.dumps(batch, ensure_ascii=False, allow_nan=False)[1:-1]]
    except (ValueError, RecursionError):
        return [_dumps(item, indent, depth=2) for item in batch]


def emit_json_parts(kind: str, payload: dict[str, Any], key: str, parts: Iterable[list[str]]) -> None:
    """`emit_json_list`, its items already made by `json_items`, a part at a time."""
    indent = 2 if _isatty(sys.stdout) else None
    head = _dumps({"version": JSON_VERSION, "kind": kind, **api.shown_value(payload)}, indent)
    name = json.dumps(key, ensure_ascii=False)
    # The document without its closing brace, then the list as json.dumps lays one out.
    if indent:
        start, first, between, end, empty = f"{head[:-2]},\n  {name}: [", "\n    ", ",\n    ", "\n  ]\n}", "]\n}"
    else:
        start, first, between, end, empty = f"{head[:-1]}, {name}: [", "", ", ", "]}", "]}"
    out = sys.stdout
    out.write(start)
    wrote = False
    for texts in parts:
        if texts:
            out.write((between if wrote else first) + between.join(texts))
            wrote = True
    out.write((end if wrote else empty) + "\n")


_SCALARS = (str, int, float, bool, type(None))


def _shown_items(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`api.shown_value(batch)`; items of plain values (a listing's rows) have each distinct
    string redacted once (a project's name, cwd and branch repeat on every row of it)."""
    if any(type(value) not in _SCALARS for item in batch for value in item.values()) or any(
        api.is_secret_name(key) for key in {key for item in batch for key in item}
    ):
        return api.shown_value(batch)
    texts = list(dict.fromkeys(value for item in batch for value in item.values() if type(value) is str))
    shown = dict(zip(texts, api.shown_many(texts)))
    return [{key: shown[value] if type(value) is str else value for key, value in item.items()} for item in batch]


def _batched(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _dumps(value: Any, indent: int | None, depth: int = 0) -> str:
    """One value as `emit_json` writes it; `depth`: where it sits in the document."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent)
    except (ValueError, RecursionError):  # a value JSON cannot hold, copied from a transcript
        return json.dumps(json_safe(value, depth), ensure_ascii=False, allow_nan=False, indent=indent)


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
    become U+FFFD: `api.TEXT_ERRORS`) and safe on a terminal (stdout and stderr behind
    `terminal.SafeStream`: no command can print a transcript's escape sequences, bidi or
    invisible characters raw; only the command line's own colours go out as they are), and
    each file a read passed over (`Skipped`) is one note on stderr."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=api.TEXT_ERRORS)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = api.SafeStream(stdout, own_colours() if colour_on(stdout) else ())
    # a progress line on stderr is redrawn in place (`\r`, then erase the line)
    sys.stderr = api.SafeStream(stderr, (ERASE_LINE,), keep_leading_cr=True)
    try:
        with _skipped_notes():
            yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr


ERASE_LINE = "\x1b[K"


def own_colours() -> tuple[str, ...]:
    """The escape sequences of the command line's own styles (all `paint` and `highlight` use)."""
    styled = (click.style("x", **style) for style in (FAILURE, MATCH, HEADER))
    return tuple(sorted({seq for text in styled for seq in re.findall(r"\x1b\[[0-9;]*m", text)}))


@contextmanager
def _skipped_notes() -> Iterator[None]:
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


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def colour_on(stream: Any = None) -> bool:
    """Whether to colour what goes to `stream` (stdout): never with `NO_COLOR` set (no-color.org)
    or `TERM=dumb`, unless `FORCE_COLOR` is set (then even into a pipe); else on a terminal only."""
    env = os.environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    return _isatty(sys.stdout if stream is None else stream)


FAILURE = {"fg": "red", "bold": True}
MATCH = {"fg": "yellow", "bold": True}
HEADER = {"bold": True}


def paint(text: str, style: dict[str, Any]) -> str:
    """`text` in `style` when colour is on, else as it is."""
    return click.style(text, **style) if colour_on() else text


def echo(line: str = "") -> None:
    """A line on stdout; colour kept only where `colour_on` says so (click would drop it in a
    pipe even with FORCE_COLOR)."""
    click.echo(line, color=colour_on())


def highlight(text: str, needle: str) -> str:
    """Every case-insensitive occurrence of `needle` in `text` painted as a match."""
    if not needle or not colour_on():
        return text
    return re.sub(re.escape(needle), lambda m: click.style(m.group(0), **MATCH), text, flags=re.IGNORECASE)


def terminal_width() -> int | None:
    """Columns to fit rows into: `$COLUMNS`, else the terminal's; None into a pipe (no cut)."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    if not _isatty(sys.stdout):
        return None
    # As shutil.get_terminal_size, without importing shutil (and bz2, lzma, fnmatch with it:
    # ~3 ms of every command's start).
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


class Column(NamedTuple):
    """A table's column: `flex` takes the width the others leave (and is cut to fit it, or
    left out when not even FLEX_FLOOR is left); `drop` (1 first) leaves a column out when the
    terminal is too narrow for every column, and a column that may `shrink` (to that width)
    is cut, from its start, before it is left out at its turn."""

    header: str
    right: bool = False
    flex: bool = False
    drop: int = 0  # 0: always shown
    cap: int | None = None  # at most this wide
    shrink: int | None = None  # may be cut down to this width, keeping its end (a path's last part)


FLEX_MIN = 24  # the flexible column (a title, a prompt) gets at least this much before columns drop
FLEX_FLOOR = 8  # … and never less than this
FLEX_CAP = 80  # … and at most this much where there is no terminal width to fit


def table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    *,
    width: int | None = None,
    flex_min: int = FLEX_MIN,
    flex_cap: int = 0,
) -> list[str]:
    """`rows` under `columns`' headers, each column as wide as its widest cell, two spaces apart;
    within `width` (a terminal's), columns marked `drop` are left out, lowest first, until the
    flexible one has room, and that one is cut."""
    # cells come shown (redacted, cleaned) already: the table only cuts them
    cells = [capped_cells(columns, row) for row in rows]
    return list(table_lines(columns, cells, widest(columns, cells), width=width, flex_min=flex_min, flex_cap=flex_cap))


def capped_cells(columns: Sequence[Column], row: Sequence[str]) -> list[str]:
    """A row's cells cut to their columns' caps (what `table` lays out)."""
    return [
        _cut_start(cell, c.cap) if c.shrink is not None and c.cap is not None else _cut(cell, c.cap)
        for c, cell in zip(columns, row)
    ]


def widest(columns: Sequence[Column], cells: Iterable[Sequence[str]], natural: list[int] | None = None) -> list[int]:
    """Each column's natural width: its widest capped cell or its header (`natural`: so far)."""
    natural = natural or [len(c.header) for c in columns]
    for row in cells:
        natural[:] = [max(n, len(cell)) for n, cell in zip(natural, row)]
    return natural


def table_lines(
    columns: Sequence[Column],
    cells: Iterable[Sequence[str]],
    natural: Sequence[int],
    *,
    width: int | None = None,
    flex_min: int = FLEX_MIN,
    flex_cap: int = 0,
) -> Iterator[str]:
    """`table`'s lines, from capped cells and their columns' natural widths (`widest`): the rows
    can come a few at a time (from a file), as they are not needed to lay the table out."""
    keep = list(range(len(columns)))
    widths = list(natural)
    flex = next((i for i, c in enumerate(columns) if c.flex), None)

    def over(flex_wants: int) -> int:
        """How far the kept columns, the flexible one at `flex_wants`, run past `width`."""
        fixed = sum(widths[i] + 2 for i in keep if i != flex)
        return fixed + (flex_wants if flex in keep else -2) - width  # type: ignore[operator]

    if width is not None:
        wants = min(flex_min, natural[flex]) if flex is not None else 0
        for i in sorted((i for i in keep if columns[i].drop), key=lambda i: columns[i].drop):
            if over(wants) <= 0:
                break
            if columns[i].shrink is not None:
                widths[i] = max(columns[i].shrink, widths[i] - over(wants))
                if over(wants) <= 0:
                    break
            keep.remove(i)
        if flex is not None:
            room = -over(0)
            if room < min(FLEX_FLOOR, natural[flex]):
                keep.remove(flex)  # not even a word of it would show: the ids and figures fit alone
            widths[flex] = min(natural[flex], room)
    elif flex is not None:  # into a pipe: `flex_cap` (FLEX_CAP when not given)
        widths[flex] = min(natural[flex], flex_cap or FLEX_CAP)
    for row in chain([[c.header for c in columns]], cells):
        parts = []
        for i in keep:
            cell = row[i]
            if len(cell) > widths[i]:
                cell = _cut_start(cell, widths[i]) if columns[i].shrink is not None else _cut(cell, widths[i])
            last = i == keep[-1]
            parts.append(cell.rjust(widths[i]) if columns[i].right else (cell if last else cell.ljust(widths[i])))
        yield "  ".join(parts).rstrip()


def _cut(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[: max(0, limit - 1)] + "…"


def _cut_start(text: str, limit: int) -> str:
    """`text` cut to `limit` from its start: `…/src/project` (a path's last part says most)."""
    return text if len(text) <= limit else "…" + text[len(text) - max(0, limit - 1) :]


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


def warn_skipped(stats: api.ReadStats, path: Path) -> None:
    """One line on stderr when reading `path` skipped lines (malformed, half-written…)."""
    described = stats.describe()
    if described:
        click.echo(f"session-kit: note: {path.name}: skipped {described}", err=True)


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
