"""Text tables whose columns stay aligned and fit the terminal.

Owns: a table's columns (`Column`: right-aligned, the flexible one, the order columns drop
in, caps, the ones that shrink keeping their end), laying rows out within a width (columns
dropped lowest first, then the flexible one cut, never an id), and doing so for rows that
come a few at a time (`widest`, `table_lines`).
Does not: clean or redact cells (they come shown already: `text.clip`), know the terminal's
width (`style.terminal_width`, the callers pass it) or wrap a card's lines (`layout`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import NamedTuple


class Column(NamedTuple):
    """A table's column: `flex` takes the width the others leave (and is cut to fit it, or
    left out when not even FLEX_FLOOR is left); `drop` (1 first) leaves a column out when the
    terminal is too narrow for every column, and a column that may `shrink` (to that width)
    is cut, from its start, before it is left out at its turn; an id column with a `prefix`
    width is cut to that prefix (which every command takes) before any column drops."""

    header: str
    right: bool = False
    flex: bool = False
    drop: int = 0  # 0: always shown
    cap: int | None = None  # at most this wide
    shrink: int | None = None  # may be cut down to this width, keeping its end (a path's last part)
    prefix: int | None = None  # an id: cut to this many characters, with no mark, when the table is too wide


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
        for i in keep:
            if columns[i].prefix is not None and over(wants) > 0:
                widths[i] = min(widths[i], max(columns[i].prefix, len(columns[i].header)))
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
            if len(cell) > widths[i] and columns[i].prefix is not None:
                cell = cell[: widths[i]]
            elif len(cell) > widths[i]:
                cell = _cut_start(cell, widths[i]) if columns[i].shrink is not None else _cut(cell, widths[i])
            last = i == keep[-1]
            parts.append(cell.rjust(widths[i]) if columns[i].right else (cell if last else cell.ljust(widths[i])))
        yield "  ".join(parts).rstrip()


def _cut(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[: max(0, limit - 1)] + "…"


def _cut_start(text: str, limit: int) -> str:
    """`text` cut to `limit` from its start: `…/src/project` (a path's last part says most)."""
    return text if len(text) <= limit else "…" + text[len(text) - max(0, limit - 1) :]
